"""`tritonscope report`: the structure of the generated page, on real corpus entries.

The counts are `tritonscope map`'s (srcmap.line_counts) for the same kernels: softmax_kernel cuda:90
(Triton 3.9.0) line 92 `numerator = _exp_shifted(row, row_max)` becomes 3 TTGIR ops, 20 LLVM IR
instructions and 24 PTX instructions.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from html import escape as html_escape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import CORPUS, run_cli

SOFTMAX_90 = "TWWPLXS2UOETQNB37UVKIJKEJSGQVY6IHVAXHM37QTBLWHZ7HVBA"
SOFTMAX_GFX942 = "HAAWWFOXTFZB"  # hash prefix
INDUCTOR_GELU = "triton_per_fused_gelu_gelu_backward_sum_view_4"
EVIL = "<script>alert(1)</script>"


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.items: list[Node | str] = []  # text and children in document order

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        return [n for n in self.walk() if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]

    def all_text(self) -> str:
        return "".join(i if isinstance(i, str) else i.all_text() for i in self.items)

    def code(self) -> str:
        """A code line's text without its gutter."""
        return "".join(i if isinstance(i, str) else i.all_text() for i in self.items
                       if isinstance(i, str) or "gut" not in i.classes)


VOID = {"meta", "img", "br", "hr", "input", "link"}


class TreeBuilder(HTMLParser):
    """Enough of a DOM for structural assertions; fails on a close tag that closes nothing open."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.cur)
        self.cur.children.append(node)
        self.cur.items.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        assert self.cur.tag == tag, f"</{tag}> closes <{self.cur.tag}>"
        self.cur = self.cur.parent

    def handle_data(self, data):
        self.cur.items.append(data)


def parse_page(text: str) -> Node:
    b = TreeBuilder()
    b.feed(text)
    b.close()
    assert b.cur is b.root, "unclosed elements"
    return b.root


def pane(root: Node, stage: str) -> Node:
    (p,) = [n for n in root.find_all("div", cls="pane") if n.attrs.get("data-stage") == stage]
    return p


def lines(p: Node, file: str = "main") -> list[Node]:
    """A pane's lines; in the source pane, those of the kernel's file or of a helper's (its file index)."""
    bodies = [c for c in p.children if "body" in c.classes]
    if p.attrs.get("data-stage") == "python":
        bodies = [c for c in bodies if c.attrs.get("data-file") == file]
    (body,) = bodies
    return body.children


@pytest.fixture(scope="module")
def softmax_page(tmp_path_factory, cache39, corpus) -> tuple[str, Node]:
    out = tmp_path_factory.mktemp("report") / "softmax.html"
    r = run_cli("report", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:90",
            "--source-root", str(corpus), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "wrote" in r.stderr and "source + ttgir, llir, ptx" in r.stderr
    text = out.read_text(encoding="utf-8")
    return text, parse_page(text)


def test_panes_source_and_default_stages(softmax_page, corpus):
    text, root = softmax_page
    stages = [n.attrs["data-stage"] for n in root.find_all("div", cls="pane")]
    assert stages == ["python", "ttgir", "llir", "ptx"]
    src_lines = (corpus / "kernels.py").read_text().splitlines()
    assert len(lines(pane(root, "python"))) == len(src_lines)
    assert lines(pane(root, "python"))[91].code().strip() == "numerator = _exp_shifted(row, row_max)"
    ttgir = (corpus / "triton-3.9.0" / SOFTMAX_90 / "softmax_kernel.ttgir").read_text()
    assert len(lines(pane(root, "ttgir"))) == len(ttgir.splitlines())
    # every line's text survives highlighting unchanged
    assert [n.all_text() for n in lines(pane(root, "ttgir"))] == ttgir.splitlines()


def test_every_op_element_carries_its_source_line(softmax_page):
    _, root = softmax_page
    # ttgir: 26 ops and the closing lines of the two tt.reduce (`}) : (tensor<1024xf32, #blocked>) -> f32
    # loc(...)`: the reduce's types and location), which carry the reduce's source line
    for stage, located in (("ttgir", 28), ("llir", 183), ("ptx", 146)):
        ops = [n for n in lines(pane(root, stage)) if "op" in n.classes]
        assert len(ops) == located, stage
        assert all(n.attrs.get("data-c", "").isdigit() for n in ops)
        assert all(n.attrs.get("data-s", "").isdigit() for n in ops), stage  # one file: all map to it
    per_line = {stage: sum(1 for n in lines(pane(root, stage)) if n.attrs.get("data-s") == "92")
                for stage in ("ttgir", "llir", "ptx")}
    assert per_line == {"ttgir": 3, "llir": 20, "ptx": 24}
    # the closing lines are marked as part of their op (`cont`): the pane's count and the page's per-line
    # counts are ops (they counted 28 TTGIR ops, `map` 26)
    ttgir = lines(pane(root, "ttgir"))
    assert sum(1 for n in ttgir if "op" in n.classes and "cont" not in n.classes) == 26
    assert [n.all_text().lstrip()[:4] for n in ttgir if "cont" in n.classes] == ["}) :", "}) :"]
    header = pane(root, "ttgir").find_all("span", cls="count")[0].all_text()
    assert header == "26 located ops"
    # the ttgir op on line 29 is `%row = tt.load ...` from source line 90 `row = tl.load(...)`
    row = lines(pane(root, "ttgir"))[28]
    assert row.all_text().strip().startswith("%row = tt.load") and row.attrs["data-s"] == "90"
    reduce, closing = lines(pane(root, "ttgir"))[29], lines(pane(root, "ttgir"))[33]
    assert reduce.all_text().strip().startswith('%m = "tt.reduce"')
    assert closing.all_text().strip().startswith("}) : (tensor<1024xf32")
    assert closing.attrs["data-s"] == reduce.attrs["data-s"] and closing.attrs["data-c"] == reduce.attrs["data-c"]


def test_gutter_counts_per_stage(softmax_page):
    _, root = softmax_page
    src = lines(pane(root, "python"))
    gutter = [i.all_text() for i in src[91].find_all("span", cls="gut")[0].children]
    assert gutter == ["3", "20", "24"]
    assert "has" in src[91].classes and "has" not in src[97].classes  # blank line after the kernel
    assert [i.all_text() for i in src[96].find_all("span", cls="gut")[0].children] == ["1", "16", "8"]


def test_chains_in_the_data_blob(softmax_page):
    text, root = softmax_page
    (blob,) = root.find_all("script", id="ts-data")
    data = json.loads(blob.all_text())
    assert data["stages"] == ["ttgir", "llir", "ptx"]
    files = [Path(f).name for f in data["files"]]
    assert "kernels.py" in files and "standard.py" in files
    # `%m = "tt.reduce"(%row)` (ttgir line 30) is _row_max's tl.max inlined at line 91 `row_max =
    # _row_max(row)`: its chain names the helper's lines first and the user's line last
    op = lines(pane(root, "ttgir"))[29]
    chain = data["chains"][int(op.attrs["data-c"])]
    assert [(Path(data["files"][f]).name, line) for f, line, _ in chain][-1] == ("kernels.py", 91)
    assert len(chain) >= 2


def test_layouts_panel_links_and_numbers(softmax_page, corpus):
    text, root = softmax_page
    (card,) = root.find_all("article", id="layout-blocked")
    facts = {tr.children[0].all_text(): tr.children[1].all_text() for tr in card.find_all("tr")}
    assert facts["used with shape"] == "1024"
    assert facts["elements / thread"] == "8"
    assert facts["contiguous / thread"] == "4 along dim 0"
    links = [a for a in pane(root, "ttgir").find_all("a", cls="lay") if a.attrs["href"] == "#layout-blocked"]
    ttgir = (corpus / "triton-3.9.0" / SOFTMAX_90 / "softmax_kernel.ttgir").read_text()
    assert len(links) == len(re.findall(r"#blocked\b", ttgir)) == 20


def test_metadata_panel_cuda(softmax_page):
    _, root = softmax_page
    (panel,) = root.find_all("div", id="panel-meta")
    meta = {tr.children[0].all_text(): tr.children[1].all_text() for tr in panel.find_all("tr")}
    assert meta["target"] == "cuda:90"
    assert meta["warps"] == "4" and meta["stages"] == "3" and meta["shared memory (bytes)"] == "16"
    assert meta["registers / thread"] == "25"  # the CUBIN's .text.softmax_kernel sh_info
    assert meta["local memory (spills, bytes)"] == "0"


def test_no_external_urls_and_two_scripts(softmax_page):
    text, root = softmax_page
    for n in root.walk():
        for attr in ("src", "href", "action", "xlink:href"):
            value = n.attrs.get(attr) or ""
            assert not re.match(r"\s*(https?:)?//", value), (n.tag, attr, value)
    assert not re.search(r"url\(|@import", text.split("<style>")[1].split("</style>")[0])
    assert len(root.find_all("script")) == 2 and len(root.find_all("link")) == 0
    assert "Content-Security-Policy" in text


def test_amd_metadata_and_missing_stage(cache39, corpus, cli, tmp_path):
    out = tmp_path / "amd.html"
    r = cli("report", "softmax_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942",
            "--stages", "ttgir,ptx,amdgcn", "-o", str(out))
    assert r.returncode == 0, r.stderr
    root = parse_page(out.read_text())
    assert [n.all_text() for n in pane(root, "ptx").find_all("div", cls="empty")] == \
        ["this entry has no ptx stage"]
    meta = {tr.children[0].all_text(): tr.children[1].all_text()
            for tr in root.find_all("div", id="panel-meta")[0].find_all("tr")}
    assert (meta["VGPRs"], meta["SGPRs"], meta["occupancy (waves/SIMD)"], meta["spills"]) == ("20", "26", "8", "0")
    # (the reduction's 16 B of scratch, which bind nothing)
    assert meta["LDS (bytes)"] == "0 static + 16 dynamic (Triton's, at launch)"
    # without --source-root the source is not found: the pane says so and how to fix it
    (main,) = [c for c in pane(root, "python").children if c.attrs.get("data-file") == "main"]
    (empty,) = main.find_all("div", cls="empty")
    assert "/tmp/irkernels/kernels.py" in empty.all_text() and "--source-root" in empty.all_text()
    # the summary names the stages shown, and says why the one asked for and absent is not (it listed it)
    assert "KiB: ttgir, amdgcn)" in r.stderr and "  not shown: this entry has no ptx stage" in r.stderr


def test_a_stage_the_page_could_not_show_is_not_in_the_summary(cache39, cli, tmp_path):
    """helper 91: a TTGIR with a NUL byte: its pane says it is not available, and the summary line said
    `source + ttgir, llir, ptx` all the same, with nothing on stderr."""
    import shutil

    entry = next(p for p in sorted(cache39.iterdir()) if (p / "add_kernel.ttgir").exists()
                 and (p / "add_kernel.ptx").exists())
    copy = shutil.copytree(entry, tmp_path / "c" / entry.name)
    ttgir = copy / "add_kernel.ttgir"
    ttgir.write_bytes(ttgir.read_bytes().replace(b"\n", b"\n\0", 1))
    r = cli("report", str(copy), "-o", str(tmp_path / "r.html"))
    assert r.returncode == 0, r.stderr
    assert "KiB: llir, ptx" in r.stderr or "KiB: source + llir, ptx" in r.stderr, r.stderr
    assert "  not shown: ttgir not available:" in r.stderr and "binary data (NUL byte)" in r.stderr


def test_inductor_kernel_with_substitute_path(inductor_cache, inductor_src, cli, tmp_path):
    out = tmp_path / "ind.html"
    r = cli("report", INDUCTOR_GELU, "--cache-dir", str(inductor_cache), "--substitute-path", "/tmp/rc/inductor",
            str(inductor_src), "-o", str(out))
    assert r.returncode == 0, r.stderr
    root = parse_page(out.read_text())
    per_line = {stage: sum(1 for n in lines(pane(root, stage)) if n.attrs.get("data-s") == "37")
                for stage in ("ttgir", "llir", "ptx")}
    assert per_line == {"ttgir": 5, "llir": 29, "ptx": 25}  # ttgir: 4 ops + the closing line of the tl.sum
    src = lines(pane(root, "python"))
    assert src[36].code() == (inductor_src / "f2" / "cf2lw55t3qqnr2x62wiazekjbpwkjdfxj2prfwwno57ndulaqo5h.py"
                              ).read_text().splitlines()[36]
    assert pane(root, "python").attrs["title"].endswith("cf2lw55t3qqnr2x62wiazekjbpwkjdfxj2prfwwno57ndulaqo5h.py")


def test_user_defined_kernel_shows_where_the_model_called_it(cli, tmp_path):
    """Helper 127: a user's @triton.jit kernel under torch.compile has no FX node of its own; its only link to
    the model is the torch trace's stacks of its call, which ls and map show and the report left out."""
    rec = Path(__file__).parent / "data" / "inductor-userkernel-h100-triton3.6"
    out = tmp_path / "uk.html"
    r = cli("report", "7EXLBGGA", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"),
            "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert ("<tr><td>provenance_model.py:76 &gt; provenance_kernels.py:22</td><td><code>"
            + html_escape("scaled_residual_kernel[(triton.cdiv(n, 1024),)](x, res, out, n, scale, BLOCK=1024)")
            + "</code></td></tr>") in text


def test_sass_stage_and_stdout(cache39, corpus, cli):
    r = cli("report", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "--stages",
            "ttgir,sass", "--source-root", str(corpus), "-o", "-")
    assert r.returncode == 0, r.stderr
    root = parse_page(r.stdout)
    assert sum(1 for n in lines(pane(root, "sass")) if n.attrs.get("data-s") == "92") == 48


def test_bad_stage_is_a_usage_error(cache39, cli, tmp_path):
    r = cli("report", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "--stages", "ttgir,bogus",
            "-o", str(tmp_path / "x.html"))
    assert r.returncode == 2
    assert "unknown stage 'bogus'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.html").exists()


def _evil_entry(cache39: Path, tmp_path: Path) -> Path:
    """A copy of softmax cuda:90 whose name, IR comment and source path hold a script tag."""
    entry = shutil.copytree(cache39 / SOFTMAX_90, tmp_path / "cache" / SOFTMAX_90)
    meta_path = entry / "softmax_kernel.json"
    meta = json.loads(meta_path.read_text())
    meta["name"] = EVIL
    meta_path.write_text(json.dumps(meta))
    ttgir = entry / "softmax_kernel.ttgir"
    text = ttgir.read_text().replace("/tmp/irkernels/kernels.py", f"/tmp/{EVIL}/kernels.py")
    ttgir.write_text(text.replace("  } loc(#loc)\n", f"  }} loc(#loc)\n// {EVIL} \"'&\n", 1))
    return entry.parent


def test_everything_from_artifacts_is_escaped(cache39, cli, tmp_path):
    cache = _evil_entry(cache39, tmp_path)
    out = tmp_path / "evil.html"
    r = cli("report", "--cache-dir", str(cache), "--stages", "ttgir,llir", "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "<script>alert" not in text and "</script>/" not in text
    root = parse_page(text)
    assert len(root.find_all("script")) == 2
    assert root.find_all("h1")[0].all_text() == EVIL  # shown as text
    assert root.find_all("title")[0].all_text().startswith(EVIL)
    comment = [n.all_text() for n in lines(pane(root, "ttgir")) if n.all_text().startswith("//")]
    assert comment == [f"// {EVIL} \"'&"]
    blob = root.find_all("script", id="ts-data")[0].all_text()
    assert "\\u003cscript\\u003e" in blob and EVIL in "".join(json.loads(blob)["files"])
    assert r.stderr.startswith("wrote ") and "_script_alert_1___script_" not in r.stderr


def test_diff_page_marks_changed_lines_and_escapes():
    import difflib

    from tritonscope.render.html_diff import changed_lines, render_diff_page

    a = "%0 = tt.load %p\n%1 = arith.addf %0, %0\ntt.store %q, %1\n"
    b = f"%0 = tt.load %p\n%1 = arith.mulf %0, %0 // {EVIL}\ntt.store %q, %1\nllvm.return\n"
    udiff = "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), "a", "b"))
    assert changed_lines(udiff) == ({2}, {2, 4})
    page = render_diff_page({"name": EVIL, "hash": "abc"}, {"name": "k", "hash": "def"}, {"ttgir": a},
                            {"ttgir": b}, {"ttgir": udiff})
    assert "<script>alert" not in page
    root = parse_page(page)
    panes = root.find_all("div", cls="pane")
    assert [[i + 1 for i, n in enumerate(lines(p)) if n.classes] for p in panes] == [[2], [2, 4]]
    assert [n.classes for n in lines(panes[0])] == [[], ["del"], []]
    assert root.find_all("small")[0].all_text() == "−1 +2 lines"


def test_diff_format_html_side_by_side(cache32, cache39, cli):
    """softmax_kernel cuda:90, Triton 3.2.0 -> 3.9.0: the normalized TTIR is the same code renumbered, the
    TTGIR changes one line (the module's attributes)."""
    r = cli("diff", str(cache32), str(cache39), "-k", "softmax_kernel", "--target", "cuda:90", "--format", "html")
    assert r.returncode == 0, r.stderr
    root = parse_page(r.stdout)
    (section,) = root.find_all("section", cls="kernel")
    assert section.find_all("h2")[0].find_all("code")[0].all_text() == "softmax_kernel"
    stages = {s.find_all("h3")[0].items[0].strip(): s for s in section.find_all("section", cls="dstage")}
    assert list(stages) == ["TTIR (source)", "TTGIR", "LLVM IR", "PTX"]
    a, b = stages["TTGIR"].find_all("div", cls="pane")
    assert (sum("del" in n.classes for n in lines(a)), sum("ins" in n.classes for n in lines(b))) == (1, 1)
    a, b = stages["PTX"].find_all("div", cls="pane")
    assert (sum("del" in n.classes for n in lines(a)), sum("ins" in n.classes for n in lines(b))) == (212, 132)
    assert stages["TTIR (source)"].find_all("small")[0].all_text() == "only in B"
    regs = [tr for tr in section.find_all("tr") if tr.children[0].all_text() == "regs"]
    assert [c.all_text() for c in regs[0].children] == ["regs", "29", "25", "-4"] and regs[0].classes == ["better"]
    for n in root.walk():
        assert not re.match(r"\s*(https?:)?//", n.attrs.get("src") or n.attrs.get("href") or "")


def test_diff_format_html_rules_and_unchanged(cache39, cli):
    r = cli("diff", str(cache39), str(cache39), "-k", "add_kernel", "--format", "html", "--fail-on", "regs>+0")
    assert r.returncode == 0, r.stderr
    root = parse_page(r.stdout)
    assert root.find_all("div", cls="verdict")[0].all_text() == "Rules passed: regs>+0"
    assert [n.all_text() for n in root.find_all("div", cls="empty")] == ["no differences"]


def test_helper_module_file_embedded_with_its_lines(helper_module, tmp_path):
    """The helper's file is on the page beside the kernel's: a button each, its lines counted with the ops
    written there, the numbers `map --file hm_helpers.py --line N` prints."""
    out = tmp_path / "hm.html"
    r = run_cli("report", "unpack_kernel", "--cache-dir", str(helper_module / "cache"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"embedded: {helper_module / 'hm_helpers.py'}" in r.stderr
    root = parse_page(out.read_text(encoding="utf-8"))
    (blob,) = root.find_all("script", id="ts-data")
    data = json.loads(blob.all_text())
    buttons = root.find_all("button", cls="sf")
    assert [b.all_text() for b in buttons] == ["hm_kernel.py", "hm_helpers.py"]
    index = buttons[1].attrs["data-file"]
    assert data["files"][int(index)] == str(helper_module / "hm_helpers.py")
    src = pane(root, "python")
    helper = lines(src, index)
    assert [n + 1 for n, x in enumerate(helper) if "has" in x.classes] == [7, 8, 9]
    assert helper[7].code() == "    hi = ((packed >> 4) & 0xF).to(tl.float32) - 8.0"
    m = json.loads(run_cli("map", "unpack_kernel", "--cache-dir", str(helper_module / "cache"), "--file",
                           "hm_helpers.py", "--line", "8", "--json").stdout)
    want = {s["stage"]: s["count"] for s in m["stages"] if s["stage"] in data["stages"]}
    gutter = [i.all_text() for i in helper[7].find_all("span", cls="gut")[0].children]
    assert dict(zip(data["stages"], (int(g or 0) for g in gutter), strict=True)) == want
    assert want["ttgir"] == 4  # (LLVM gave line 8's arithmetic other lines: map says 0 there too)
    # the kernel's own file still comes first, its call line counted as before
    assert lines(src)[12].code().strip() == "lo, hi = dequant(packed, scale)"
    r = run_cli("report", "unpack_kernel", "--cache-dir", str(helper_module / "cache"), "--no-source", "-o",
                str(out))
    assert r.returncode == 0, r.stderr
    assert f"not embedded: {helper_module / 'hm_helpers.py'} (not embedded (--no-source))" in r.stderr
    root = parse_page(out.read_text(encoding="utf-8"))
    assert not [b for b in root.find_all("div", cls="body") if b.attrs.get("data-file") not in (None, "main")]


def test_loads_table_names_count_changes_with_evidence(tmp_path):
    """vLLM's TurboQuant decode, line 185: ptxas removed the load; the loads table says `removed` beside
    the reasons, and each code's evidence is on the cell's title."""
    from tritonscope.artifacts import tools

    if tools.find_nvidia_tool("nvdisasm") is None:
        pytest.skip("no nvdisasm")
    data = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "vllm"
    out = tmp_path / "tq.html"
    r = run_cli("report", "_tq_decode_stage1", "--cache-dir", str(data), "--stages", "ttgir,llir,ptx,sass",
                "-o", str(out))
    assert r.returncode == 0, r.stderr
    root = parse_page(out.read_text(encoding="utf-8"))
    (row,) = [tr for tr in root.find_all("tr") if tr.attrs.get("data-s") == "185"]
    cell = row.children[-1]
    assert cell.all_text().split(", ") == ["gather", "unknown-alignment", "layout-contiguity-1", "removed"]
    evidence = cell.attrs["title"].split("\n")
    assert [e.split(":")[0] for e in evidence] == ["gather", "unknown-alignment", "layout-contiguity-1", "removed"]
    assert "ptxas emitted nothing" in evidence[-1]


def test_layout_picture_is_decoded_as_the_entrys_release():
    """The report's picture follows the entry's release like its numbers: a 2x64 tensor under an 8x64
    blocked tile keeps 32 registers per thread up to 3.8 (cells list the repeats), 8 from 3.9."""
    from types import SimpleNamespace

    from tritonscope.layouts import releases
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.views import facts_for
    from tritonscope.render import svg
    from tritonscope.report import PICTURE_COLS, PICTURE_ROWS, LayoutItem, _describe_layout

    text = ("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 16], warpsPerCTA = [2, 1], "
            "order = [1, 0]}>")
    layout = parse_layout(text)
    pictures = {}
    for version in ("3.8.0", "3.9.0"):
        entry = SimpleNamespace(triton_version=version, inferred_release=None, metadata={})
        item = LayoutItem("blocked", "blocked", text, shape=(2, 64), dtype="f16")
        _describe_layout(item, layout, entry)
        with releases.using(releases.for_version(version, "test")):
            own = svg.layout_svg(layout, facts_for(layout, (2, 64), 16), PICTURE_ROWS, PICTURE_COLS)
        assert item.svg == own and ("32" if version == "3.8.0" else "8") in dict(item.facts)["elements / thread"]
        pictures[version] = item.svg
    assert pictures["3.8.0"] != pictures["3.9.0"]


def test_a_shared_layout_card_counts_offsets_not_threads():
    """Helper 76: a shared layout's card read 'warps × lanes 1 × 1', 'elements / thread 12288' and the
    contiguity of a multi-buffered memdesc along its buffer index (1 along dim 1, not 64 along dim 2)."""
    from types import SimpleNamespace

    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.report import LayoutItem, _describe_layout

    text = "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>"
    entry = SimpleNamespace(triton_version="3.9.0", inferred_release=None, metadata={})
    item = LayoutItem("shared", "swizzled_shared", text, shape=(2, 64, 64), dtype="bf16")
    _describe_layout(item, parse_layout(text), entry)
    facts = dict(item.facts)
    assert "warps × lanes" not in facts and "elements / thread" not in facts
    assert facts["elements / CTA"] == "8192" and facts["consecutive"].startswith("64 along dim 2")


@pytest.mark.parametrize(("name", "expected"), [("softmax_kernel", "softmax_kernel.report.html"),
                                                (".hidden", "hidden.report.html"), ("..", "kernel.report.html"),
                                                ("", "kernel.report.html"), ("a/b c", "a_b_c.report.html")])
def test_default_output_is_a_plain_visible_file_here(name, expected):
    """A crafted kernel name '.hidden' wrote a hidden '.hidden.report.html'; '' wrote '.report.html'."""
    from tritonscope.cli.report import default_output

    assert default_output(name) == expected


def test_an_empty_shown_stage_is_said_not_guessed(cli, cache39, tmp_path):
    """With the shown TTGIR emptied, the page said the kernel was compiled without line info (its TTIR names
    the source) and to add ttgir to --stages (it was there)."""
    import shutil

    name = "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    entry = shutil.copytree(cache39 / name, tmp_path / "c" / name)
    (entry / "add_kernel.ttgir").write_text("")
    out = tmp_path / "r.html"
    r = cli("report", str(entry), "--stages", "ttgir", "-o", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text()
    assert "compiled without line info" not in page and "add ttgir to --stages" not in page
    assert "no stage shown names a source file (ttgir: missing, empty or not read" in page
    assert "no TTGIR text: layouts are read from it (the stage is empty)" in page


def test_what_of_the_entry_does_not_read_is_said_on_stderr_and_on_the_page(cli, cache39, tmp_path):
    """Helper 58: metadata that does not read, a stage's name on a symbolic link (not followed) and on a FIFO
    left the page without warps, stages or the LLIR pane, exit 0 and not a word. Each is now a note on
    stderr and among the page's notes, as `ls` and `snapshot` say them (KernelEntry.damage)."""
    import os
    import shutil

    name = "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    entry = shutil.copytree(cache39 / name, tmp_path / "c" / name)
    (entry / "add_kernel.json").write_text("{bad")
    (entry / "add_kernel.ttgir").unlink()
    (tmp_path / "secret.ttgir").write_text("QA_SECRET\n")
    (entry / "add_kernel.ttgir").symlink_to(tmp_path / "secret.ttgir")
    (entry / "add_kernel.llir").unlink()
    os.mkfifo(entry / "add_kernel.llir")
    out = tmp_path / "r.html"
    r = cli("report", str(entry), "-o", str(out))
    assert r.returncode == 0, r.stderr
    said = [ln.removeprefix("tritonscope: note: ") for ln in r.stderr.splitlines()
            if ln.startswith("tritonscope: note:")]
    assert said == [
        f"{entry / 'add_kernel.json'}: metadata not read (Expecting property name enclosed in double quotes: line 1 "
        "column 2 (char 1)): what it gives (num_warps, num_stages, shared memory, the release) is unknown",
        f"{entry / 'add_kernel.llir'}: not a file: its stage is left out",
        f"{entry / 'add_kernel.ttgir'}: a symbolic link, which is not followed: its stage is left out"], r.stderr
    page = out.read_text()
    assert all(html_escape(line) in page for line in said) and "QA_SECRET" not in page


def test_ops_of_line_zero_inside_a_known_call_are_that_lines(cli, cache32, corpus, tmp_path):
    """Triton 3.2's softmax (gfx942): AMDGCN instructions whose own line is 0 inside `tl.max`'s inlined call
    from line 91 counted for line 91 in map (70 ops) but got no row in the report (59): clicking the line
    highlighted fewer ops than map lists."""
    import re

    entry = next(p for p in cache32.iterdir() if p.name.startswith("HA6DyCKtBq"))
    out = tmp_path / "r.html"
    sub = ("--substitute-path", "/tmp/irkernels", str(corpus))
    r = cli("report", str(entry), *sub, "-o", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text()
    start = page.index('data-stage="amdgcn"')
    end = min((i for i in (page.find('data-stage="', start + 1),) if i > 0), default=len(page))
    rows = len(re.findall(r'data-s="91"', page[start:end]))
    m = cli("map", str(entry), *sub, "--line", "91", "--stages", "amdgcn", "--json")
    assert rows == json.loads(m.stdout)["stages"][0]["count"] == 70


def test_a_kernel_that_spills_says_so_without_its_sass_shown(cli, tmp_path):
    """lmdeploy's Gluon fp8 GEMM keeps 152 bytes a thread in ptxas's stack frame (its spills): `ls` flags
    them, the page's chip read `local 0 B` (the .nv.local section alone) and no note said so unless SASS
    was among the stages."""
    from pathlib import Path

    entry = (Path(__file__).parent / "data" / "thirdparty-h200-triton3.6" / "lmdeploy" /
             "E7BARQYAFDZOKVMOTOHJ6QFLGKENFK3LGQUOJYF5THUJ4GOU3F2Q")
    out = tmp_path / "r.html"
    assert cli("report", str(entry), "-o", str(out)).returncode == 0
    page = out.read_text()
    # (the loads table reads SASS whatever panes are shown: its spill instructions are named, with their lines)
    assert 'chip"><b>local</b> 152 B' in page and "spills: 58 local-memory instructions per thread (sass)" in page


def test_a_layout_card_of_a_pointer_tensor_counts_what_it_points_at(cli, tmp_path):
    """Triton's fused-attention backward (cuda:90): #blocked is used largest by a `tensor<64x32x!tt.ptr<f16>>`:
    its card took the 64-bit pointer for the element (2-element vectors) where layout and loads read f16."""
    from pathlib import Path

    entry = (Path(__file__).parent / "data" / "tutorials-cuda90-triton3.9" /
             "FA2LYZZZ2HN5SO75MGJDLHIVC3VN4D4M6WZKT4XSWI563OSPYTNA")
    out = tmp_path / "r.html"
    assert cli("report", str(entry), "-o", str(out)).returncode == 0
    card = out.read_text().split('id="layout-blocked"', 1)[1].split("</table>", 1)[0]
    assert "<th>element</th><td>f16 (16 bits)</td>" in card and "tt.ptr" not in card


@pytest.mark.parametrize("prefix", ["YZ4TDKYZMUKY", "TWO5S3DIWG7W"])
def test_every_layout_link_has_its_card(prefix, cache39, tmp_path):
    """A load whose layout is inline in its type (`#ttg.slice<...>`, a dot operand) has no card on the
    Layouts tab: its cell linked to `#layout-slice` / `#layout-dot_op`, which no element has."""
    out = tmp_path / "page.html"
    r = run_cli("report", prefix, "--cache-dir", str(cache39), "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="([^"]*)"', text))
    links = set(re.findall(r'href="#(layout-[^"]*)"', text))
    assert links and not links - ids
    inline = [td for td in parse_page(text).find_all("td") if td.all_text() in ("slice", "dot_op")]
    assert inline and all(td.attrs["title"].startswith(("#ttg.slice<", "#ttg.dot_op<")) for td in inline)


def test_amd_occupancy_counts_the_lds_triton_allocates_at_launch(cli, tmp_path):
    """Triton's shared memory is dynamic LDS (the metadata's `shared`, 24576 B here): the kernel's static LDS
    is 0 and LLVM's occupancy comment (4 waves/SIMD) counts none. The page said 'LDS 0' and 4; a gfx942 CU's
    65536 B of LDS hold two such workgroups of 4 waves: 2 * 4 waves over 4 SIMDs = 2."""
    out = tmp_path / "amd.html"
    cache = Path(__file__).parent / "data" / "releases-3.0-3.4" / "3.3"
    r = cli("report", "CUQKKHCF75H7", "--cache-dir", str(cache), "-o", str(out))
    assert r.returncode == 0, r.stderr
    root = parse_page(out.read_text())
    meta = {tr.children[0].all_text(): tr.children[1].all_text()
            for tr in root.find_all("div", id="panel-meta")[0].find_all("tr")}
    assert meta["LDS (bytes)"] == "0 static + 24576 dynamic (Triton's, at launch)"
    assert meta["occupancy (waves/SIMD)"] == (
        "2 (LDS-bound: 24576 B of LDS a workgroup, 65536 B a CU; LLVM's 4 counted no dynamic LDS)")


def _amd_meta(cli, tmp_path, edit: dict, amdgcn_edit: tuple[str, str] | None = None) -> dict[str, str]:
    """The metadata table of a report on a copy of the 3.3 gfx942 matmul with its metadata (and AMDGCN) edited."""
    entry = tmp_path / "c" / "CUQKKHCF75H76GQ7EJIUCFS6PQ4VDEQ2VP2DHCONARFPDDIOUCAA"
    shutil.copytree(Path(__file__).parent / "data" / "releases-3.0-3.4" / "3.3" / entry.name, entry)
    meta = json.loads((entry / "matmul_kernel.json").read_text())
    (entry / "matmul_kernel.json").write_text(json.dumps({**meta, **edit}))
    if amdgcn_edit:
        gcn = entry / "matmul_kernel.amdgcn"
        gcn.write_text(gcn.read_text().replace(*amdgcn_edit))
    out = tmp_path / "amd.html"
    r = cli("report", "CUQKKHCF75H7", "--cache-dir", str(tmp_path / "c"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    root = parse_page(out.read_text())
    return {tr.children[0].all_text(): tr.children[1].all_text()
            for tr in root.find_all("div", id="panel-meta")[0].find_all("tr")}


def test_amd_lds_bound_counts_static_lds_and_rounds_up(cli, tmp_path):
    """One 1-wave workgroup of 20000 B: three fit a CU's 65536 B, one wave on each of three SIMDs: 1 a SIMD,
    not 3 // 4 = 0. Static LDS adds to Triton's dynamic LDS (it was left out of the bound)."""
    meta = _amd_meta(cli, tmp_path / "a", {"shared": 20000, "num_warps": 1})
    assert meta["occupancy (waves/SIMD)"].startswith("1 (LDS-bound: 20000 B of LDS a workgroup, 65536 B a CU")
    meta = _amd_meta(cli, tmp_path / "b", {"shared": 8192}, ("; LDSByteSize: 0 bytes", "; LDSByteSize: 32768 bytes"))
    assert meta["LDS (bytes)"] == "32768 static + 8192 dynamic (Triton's, at launch)"
    assert meta["occupancy (waves/SIMD)"].startswith("1 (LDS-bound: 40960 B of LDS a workgroup")
    meta = _amd_meta(cli, tmp_path / "c", {"shared": -5})  # (damaged: unknown, not a negative size)
    assert meta["LDS (bytes)"] == "0 static" and meta["shared memory (bytes)"] == "unknown (the metadata says -5)"
    meta = _amd_meta(cli, tmp_path / "d", {"shared": "8192"})  # (the page said 8192 here, 0 dynamic there)
    assert meta["LDS (bytes)"] == "0 static"
    assert meta["shared memory (bytes)"] == 'unknown (the metadata says "8192")'


def test_a_report_of_an_entry_without_text_stages(cli, tmp_path):
    """An entry that kept only its metadata and binary: the page said it crashed (UnboundLocalError), then
    that the kernel was 'compiled without line info?' and to 'add ttgir to --stages'."""
    src = CORPUS / "triton-3.9.0" / "AYJIRKHPESPUQYN2QFLY4TIMHL4B3NXV45FRJOUBLTQMREITZBDQ"
    entry = tmp_path / "c" / "e"
    entry.mkdir(parents=True)
    for name in ("matmul_kernel.json", "matmul_kernel.hsaco"):
        shutil.copy(src / name, entry / name)
    out = tmp_path / "p.html"
    r = cli("report", "matmul_kernel", "--cache-dir", str(tmp_path / "c"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "KiB: no IR stage (the entry keeps none))" in r.stderr  # (and no source: no IR names one)
    notes = [n.all_text() for n in parse_page(out.read_text()).find_all("div", cls="empty")]
    assert "no IR stage to name a source file: the entry keeps none of its text stages" in notes
    assert "no TTGIR in this entry: layouts are read from it" in notes


def test_an_output_folder_that_does_not_exist_is_named(cli, tmp_path, cache39):
    r = cli("report", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:90",
            "-o", str(tmp_path / "no" / "x.html"))
    assert r.returncode == 1
    assert r.stderr.strip() == f"tritonscope: error: {tmp_path / 'no' / 'x.html'}: No such file or directory"


def test_a_full_stdout_and_an_empty_output_path_are_one_line_each(cli, cache39):
    """`report -o - > /dev/full` was an internal error (OSError with no file name); `-o ''` wrote the default
    name without a word."""
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    args = [sys.executable, "-m", "tritonscope", "report", "add_kernel", "--cache-dir", str(cache39), "--target",
            "cuda:90", "-o", "-"]
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(args, stdout=full, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 1 and proc.stderr.splitlines() == [
        "tritonscope: error: <stdout>: No space left on device"]
    # helper 80: `-o /dev/full` (a device written into) was said as `<stdout>` too
    dev = cli("report", "add_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "-o", "/dev/full")
    assert dev.returncode == 1 and dev.stderr.splitlines() == [
        "tritonscope: error: /dev/full: No space left on device"]
    empty = cli("report", "add_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "-o", "")
    assert empty.returncode == 2 and empty.stderr.splitlines() == [
        "tritonscope: error: -o: an empty path (give a file name, or '-' for stdout)"]


def test_the_written_line_says_source_only_when_the_page_has_it(cli, tmp_path):
    """Triton 2.0 writes no locations: the page embeds no source, and the line said `source + ttgir, ...`."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "releases-2.0-2.2" / "2.0"
    p = cli("report", "9777d134", "--cache-dir", str(cache), "-o", str(tmp_path / "r.html"))
    assert p.returncode == 0, p.stderr
    assert p.stderr.startswith(f"wrote {tmp_path / 'r.html'} (") and "KiB: ttgir, llir, ptx)\n" in p.stderr


def test_pane_headers_count_the_ops_map_attributes(cli, tmp_path):
    """SGLang's gfx950 Gluon decode kernel: 160 LLIR ops whose chain is a helper's known line under a call at
    line 0 were 'located ops' in the pane header (4022), where map counts them as line 0 / unknown (3862)."""
    import re
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "sglang"
    cov = {c["stage"]: c["attributed"] for c in
           json.loads(cli("map", "5WRYYH5K", "--cache-dir", str(cache), "--json").stdout)["coverage"]}
    out = tmp_path / "r.html"
    assert cli("report", "5WRYYH5K", "--cache-dir", str(cache), "-o", str(out)).returncode == 0
    page = out.read_text()
    headers = re.findall(r'<div class="pane" data-stage="(\w+)"[^>]*>.*?<span class="count">(\d+) located ops', page)
    assert headers and {stage: int(n) for stage, n in headers} == {s: cov[s] for s, _ in headers}


def test_loads_table_has_the_columns_of_tritonscope_loads(tmp_path):
    """Helper 61: the report's loads table had one "ISA" column holding PTX, though its rows were read to
    SASS (a Blackwell TMA load: `UTMALDG.2D` was nowhere). Its columns are now `tritonscope loads`'s: LLIR,
    PTX or AMDGCN, and SASS where the entry has a CUBIN nvdisasm reads, each cell that stage's forms."""
    from tritonscope.artifacts import tools

    if tools.find_nvidia_tool("nvdisasm") is None:
        pytest.skip("no nvdisasm")
    data = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "vllm"
    out = tmp_path / "tq.html"
    r = run_cli("report", "_tq_decode_stage1", "--cache-dir", str(data), "--stages", "ttgir,ptx", "-o", str(out))
    assert r.returncode == 0, r.stderr
    loads = json.loads(run_cli("loads", "_tq_decode_stage1", "--cache-dir", str(data), "--json").stdout)
    root = parse_page(out.read_text(encoding="utf-8"))
    (table,) = [t for t in root.find_all("table") if "loads" in t.attrs.get("class", "").split()]
    heads = [th.all_text() for th in table.find_all("th")]
    assert heads[7:11] == ["LLIR", "PTX", "SASS", "verdict"], heads
    trs = [tr for tr in table.find_all("tr") if tr.attrs.get("data-s")]
    assert len(trs) == len(loads["rows"])
    for tr, row in zip(trs, loads["rows"], strict=True):
        cells = [td.all_text() for td in tr.children]
        for i, stage in zip((7, 8, 9), ("llir", "ptx", "sass"), strict=True):
            shared = row["ambiguous"].get(stage, {})
            forms = row["stages"].get(stage) or {f"{k} (ambiguous)": v for k, v in shared.items()}
            assert cells[i] == (", ".join(f"{f} ×{n}" for f, n in forms.items()) or "-"), (row["where"], stage, cells)


def test_rdna_occupancy_is_lds_bound_by_its_work_group_processor_and_the_diff_metric_agrees(cli, tmp_path):
    """Helper 85: gfx1100 said LLVM's 5 waves/SIMD, no LDS bound (only CDNA's LDS was known): a WGP's
    131072 B hold four 32768 B workgroups of 4 waves over its 4 SIMD32s: 4. And `diff` compared LLVM's raw
    figures (gfx90a 3) where the report said the LDS bound (2)."""
    meta = _amd_meta(cli, tmp_path / "a", {"shared": 32768, "num_warps": 4,
                                           "target": {"backend": "hip", "arch": "gfx1100", "warp_size": 32}},
                     ("; Occupancy: 4", "; Occupancy: 5"))
    assert meta["occupancy (waves/SIMD)"] == (
        "4 (LDS-bound: 32768 B of LDS a workgroup, 131072 B a WGP; LLVM's 5 counted no dynamic LDS)")
    from tritonscope.diff.metrics import kernel_metrics

    entry = tmp_path / "a" / "c" / "CUQKKHCF75H76GQ7EJIUCFS6PQ4VDEQ2VP2DHCONARFPDDIOUCAA"
    meta = json.loads((entry / "matmul_kernel.json").read_text())
    text = (entry / "matmul_kernel.amdgcn").read_text()
    assert kernel_metrics({"amdgcn": text}, {}, meta, {}, "matmul_kernel").values["occupancy"] == 4
    gfx942 = {**meta, "target": {"backend": "hip", "arch": "gfx942", "warp_size": 64}, "shared": 24576}
    assert kernel_metrics({"amdgcn": text}, {}, gfx942, {}, "matmul_kernel").values["occupancy"] == 2
    # RDNA 1/2's work-group processors hold 128 KiB of LDS as RDNA 3/4's do (gfx1030 had no bound)
    from tritonscope.diff.metrics import lds_bound_occupancy

    assert lds_bound_occupancy(16, 32768, "gfx1030", 4) == (4, "32768 B of LDS a workgroup, 131072 B a WGP")


def test_one_huge_line_is_cut_in_its_pane(cache39, cli, tmp_path):
    """helper 91: one 20 MB comment line in a TTGIR was embedded whole (PANE_MAX_LINES counts lines): a line
    past PANE_MAX_LINE_CHARS is cut there, and the pane says so."""
    import shutil

    from tritonscope.report import PANE_MAX_LINE_CHARS

    entry = next(p for p in sorted(cache39.iterdir()) if (p / "add_kernel.ttgir").exists())
    copy = shutil.copytree(entry, tmp_path / "c" / entry.name)
    ttgir = copy / "add_kernel.ttgir"
    ttgir.write_text(ttgir.read_text() + "// " + "HUGE" * (3 * PANE_MAX_LINE_CHARS // 4) + "\n")
    out = tmp_path / "r.html"
    r = cli("report", str(copy), "-o", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text()
    assert page.count("HUGE") < PANE_MAX_LINE_CHARS // 4 + 10 and len(page) < 2 * PANE_MAX_LINE_CHARS + 400_000
    assert "1 line(s) over 65,536 characters shown up to that many" in page


def test_an_occupancy_the_waves_per_eu_option_caps_is_said_so(cli, tmp_path, cache32):
    """helper 90: flash-attn's AMD attention (waves_per_eu=1, which Triton 3.9 gives LLVM as
    `"amdgpu-waves-per-eu"="1,1"`): LLVM's occupancy 1 is that cap, not its 249 VGPRs' (which allow 2); the
    page showed `1` beside the VGPRs with no word. A release giving only a least (`"1"`, Triton 3.2's softmax
    at occupancy 8) is no cap: its figure stands alone."""
    entry = next((Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "flashattn").iterdir())

    def meta(page_args):
        out = tmp_path / "p.html"
        r = cli("report", *page_args, "-o", str(out))
        assert r.returncode == 0, r.stderr
        return {tr.children[0].all_text(): tr.children[1].all_text()
                for tr in parse_page(out.read_text()).find_all("div", id="panel-meta")[0].find_all("tr")}

    occupancy = meta([str(entry)])["occupancy (waves/SIMD)"]
    assert occupancy.startswith("1 (the most that waves_per_eu=1 asks of LLVM") and '"1,1"' in occupancy
    old = meta(["softmax_kernel", "--cache-dir", str(cache32), "--target", "hip:gfx942"])
    assert old["occupancy (waves/SIMD)"] == "8"


def test_a_report_written_again_keeps_the_files_mode(cli, cache39, tmp_path):
    """Helper 103: `-o` over a private (0600) report made it 0644: world-readable."""
    out = tmp_path / "private.html"
    out.write_text("old")
    out.chmod(0o600)
    r = cli("report", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.stat().st_mode & 0o777 == 0o600 and "<html" in out.read_text()[:200].lower()
    out.chmod(0o4755)  # (helper 107: its setuid bit was kept too)
    r = cli("report", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert out.stat().st_mode & 0o7777 == 0o755


def test_a_gluon_source_the_policy_refuses_gives_no_written_layout_text(cli, tmp_path):
    """Helper 103: a Gluon kernel's file that the source pane refused (a line its locations name is a comment:
    not the source compiled) still gave its layouts panel, and `layout`, the text of a line of it: the panel
    read it with only the last named line checked."""
    entry = Path(__file__).parent / "data" / "gluon-amd-triton3.9" / "gluon" / \
        "ADWBRRX6A7IHJ4HJO34BUL2Z5CFAV2JRTSTS43OS5SKGXJKQ33MQ"
    cache = tmp_path / "cache"
    victim = tmp_path / "src" / "amdk2.py"
    victim.parent.mkdir()
    shutil.copytree(entry, cache / entry.name)
    for f in (cache / entry.name).iterdir():
        if f.suffix != ".json" or "/opt/gluon/amd0/amdk2.py" in f.read_text(errors="replace"):
            f.write_bytes(f.read_bytes().replace(b"/opt/gluon/amd0/amdk2.py", str(victim).encode()))
    lines = ["from triton.experimental import gluon", "from triton.experimental.gluon import language as gl",
             "SECRET = 'hunter2-TOP'"] + [""] * 19 + [
        "@gluon.jit", "def g1250_async(a_ptr, b_ptr):", "    pass",
        "    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [8, 4], [4, 1], [1, 0])  # hunter2-IN",
        "    # hunter2-COMMENT: a line the kernel's locations name"] + ["    x = 1"] * 15
    victim.write_text("\n".join(lines) + "\n")
    r = cli("report", "--cache-dir", str(cache), "-o", str(tmp_path / "r.html"))
    assert r.returncode == 0, r.stderr
    assert "is a comment: not the source it was compiled from" in r.stderr
    assert "hunter2" not in (tmp_path / "r.html").read_text()
    r = cli("layout", "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    assert "hunter2" not in r.stdout and "not read:" in r.stdout
