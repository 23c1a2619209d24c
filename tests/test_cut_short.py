"""A stage file cut short (a full disk, a killed copy) is said to be so, once per file, where its lines are
lost: an MLIR stage cut before its `#loc` table, an LLIR one before its debug metadata, PTX and AMDGCN inside
their function. Before, every op of such a TTGIR or LLIR had no line without a word, `map --line` blamed the
compiler ("folded, removed as unused"), `loads` blamed Triton before 2.3 and, for the accesses past a PTX's
cut, LLVM ("emitted nothing")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tritonscope import stages
from tritonscope.stages.common import CUT_NOTE, decode_text

DATA = Path(__file__).parent / "data"
DOT_LINE = 134  # `accumulator = tl.dot(a, b, accumulator)` in the corpus's kernels.py


def _entry(cache39: Path, isa: str, tmp_path: Path) -> Path:
    src = next(p for p in sorted(cache39.iterdir()) if (p / f"matmul_kernel.{isa}").exists())
    dst = tmp_path / "cache" / src.name
    shutil.copytree(src, dst)
    return dst


def _cut(path: Path, at: float | bytes = 0.5, beyond: int = 0) -> None:
    """Cut mid-line at a share of the file, or just before the first line starting with `at` (`beyond` bytes
    past that line's start)."""
    data = path.read_bytes()
    if isinstance(at, bytes):
        cut = data.index(b"\n" + at) + 1 + beyond
    else:
        cut = int(len(data) * at)
        while data[cut:cut + 1] in (b"\n", b" "):  # (mid-line, mid-word)
            cut += 1
    path.write_bytes(data[:cut])


@pytest.mark.parametrize("isa,stage", [("ptx", "ttgir"), ("ptx", "llir"), ("ptx", "ptx"), ("amdgcn", "amdgcn"),
                                       ("amdgcn", "ttir")])
def test_a_stage_cut_short_is_said_once_where_its_lines_are_lost(cli, cache39, tmp_path, isa, stage):
    entry = _entry(cache39, isa, tmp_path)
    path = entry / f"matmul_kernel.{stage}"
    r = cli("map", str(entry), "--line", str(DOT_LINE))
    assert r.returncode == 0 and CUT_NOTE not in r.stdout + r.stderr, r.stderr  # the whole file: nothing said
    _cut(path)
    r = cli("map", str(entry), "--line", str(DOT_LINE))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    said = [line for line in r.stderr.splitlines() if CUT_NOTE in line]
    assert len(said) == 1 and said[0].startswith(f"tritonscope: note: {path}: {CUT_NOTE}: "), r.stderr
    assert CUT_NOTE not in r.stdout  # (said once: the stage's notes refer to it)
    if stage in ("ttgir", "llir"):
        # its location records are at its end: every op lost its line, and the line's note says why
        assert ("location alias(es) it never defines" if stage == "ttgir" else
                "debug-metadata node(s) it never defines") in said[0]
    if stage == "llir":
        assert "ttgir ops are in no llir op: the llir file looks cut short (see its note)" in r.stdout
        assert "folded, removed as unused" not in r.stdout
    if stage == "ttgir":
        r = cli("loads", str(entry))
        assert r.returncode == 0 and "(the TTGIR looks cut short: see its note)" in r.stdout
        assert "Triton before 2.3" not in r.stdout and r.stderr.count(CUT_NOTE) == 1
    if stage == "ptx":
        # `removed` proves by the whole kernel's counts: the accesses past the cut were not removed by LLVM
        r = cli("loads", str(entry))
        assert r.returncode == 0 and r.stderr.count(CUT_NOTE) == 1 and "emitted nothing" not in r.stdout


# PTX as Triton 3.1 prints it (an H100 cross-compile of liger-kernel's swiglu, shortened): LLVM's one-line
# scope for a bf16 half and an inline asm string's scope over three lines are no function's end
PTX_31 = "\n".join([
    ".version 8.4", ".target sm_80", ".address_size 64", ".visible .entry k(", "\t.param .u64 k_param_0", ")", "{",
    "\t.reg .b32 \t%r<3>;", "\t.reg .b16 \t%rs<3>;", "\t.loc\t1 10 5", "\tcvt.u16.u32 \t%rs1, %r2;",
    "\t{ .reg .b16 tmp; mov.b32 {tmp, %rs2}, %r2; }",
    "\t// begin inline asm", "\t { .reg .b16 c;        ", "    mov.b16 c, 0x8000U; ",
    "    fma.rn.bf16 %rs1, %rs2, %rs2, c; } ", "", "\t// end inline asm",
    "\tret;", "}", "\t.file\t1 \"/src/k.py\"", ""])


def test_ptx_scopes_of_one_line_and_of_inline_asm_are_no_function_end():
    module = stages.parse("ptx", PTX_31, "k.ptx")
    assert module.cut is None and [op.op for op in module.ops][-1] == "ret"
    cut = stages.parse("ptx", PTX_31[:PTX_31.index("\tret;")], "k.ptx")
    assert cut.cut == "it ends inside function k (a `{` never closed); its `.loc` lines name 1 file(s) it never " \
        "defines (`.file 1`)"


def test_no_recorded_stage_looks_cut_short(corpus):
    """Every text stage the tests and the shared corpus hold (every release, every target) ends whole."""
    suffixes = {".ttir": "ttir", ".source": "ttir", ".ttgir": "ttgir", ".llir": "llir", ".ptx": "ptx",
                ".amdgcn": "amdgcn"}
    seen = 0
    for root in (DATA, corpus):
        for p in sorted(root.rglob("*")):
            stage = suffixes.get(p.suffix)
            if stage is None or "fuzz" in p.relative_to(root).parts or not p.is_file():
                continue
            module = stages.parse(stage, decode_text(p.read_bytes(), str(p)), str(p))
            assert module.cut is None, (p, module.cut)
            seen += 1
    assert seen > 900


@pytest.mark.parametrize("isa,stage,at,beyond,why", [
    ("ptx", "ttgir", b"module", 0, "it ends before its module"),
    ("ptx", "llir", b"define", 0, "it ends before its first function (`define`)"),
    ("ptx", "ptx", b".visible", 0, "it ends before its kernel (`.entry`)"),
    ("ptx", "ptx", b"\t.file", 0, "its `.loc` lines name 2 file(s) it never defines (`.file 1`)"),
    ("ptx", "ptx", b"\t.section\t.debug_abbrev", 40, "it ends inside its `.debug_abbrev` section"),
    ("amdgcn", "amdgcn", b"\t.amdgpu_metadata", 0, "it ends before its `.amdgpu_metadata` block"),
    ("amdgcn", "amdgcn", b"matmul_kernel:", 0, "it ends before its kernel")])
def test_a_stage_cut_before_or_after_its_functions_is_said_too(cli, cache39, tmp_path, isa, stage, at, beyond,
                                                                why):
    """Cut before its first function or module (its head left), or after its function (PTX's `.file` table
    and debug sections, AMDGCN's metadata, where its spills are): no note, and loads and map blamed the
    compiler for what the cut lost (helper 113)."""
    entry = _entry(cache39, isa, tmp_path)
    path = entry / f"matmul_kernel.{stage}"
    _cut(path, at, beyond)
    for binary in ("cubin", "hsaco"):  # (SASS would stand in for a cut PTX's instructions)
        (entry / f"matmul_kernel.{binary}").unlink(missing_ok=True)
    r = cli("loads", str(entry))
    assert r.returncode == 0, r.stderr
    assert f"tritonscope: note: {path}: {CUT_NOTE}: {why}" in r.stderr.splitlines(), r.stderr
    assert "emitted nothing" not in r.stdout and "removed, merged, or located elsewhere" not in r.stdout


def test_an_empty_or_cut_isa_text_proves_nothing_was_emitted(cli, cache39, tmp_path):
    """A 0-byte PTX (its entry's note says "empty"), and LLIR and PTX both cut: loads said LLVM's NVPTX
    backend "emitted nothing" (`removed`), or "no stage has an instruction of it" (`not-emitted`), and
    `no-isa-match` blamed the compiler (helper 113)."""
    entry = _entry(cache39, "ptx", tmp_path)
    (entry / "matmul_kernel.cubin").unlink()
    ptx = entry / "matmul_kernel.ptx"
    whole = ptx.read_bytes()
    ptx.write_bytes(b"")
    r = cli("loads", str(entry))
    assert r.returncode == 0 and f"{ptx}: empty (0 bytes)" in r.stderr, r.stderr
    assert "emitted nothing" not in r.stdout and "removed, merged, or located elsewhere" not in r.stdout
    assert "no-isa-match" in r.stdout and "its PTX looks cut short: see its note" in r.stdout
    ptx.write_bytes(whole)
    _cut(ptx, 0.3)
    _cut(entry / "matmul_kernel.llir", 0.3)
    r = cli("loads", str(entry))
    assert r.returncode == 0 and r.stderr.count(CUT_NOTE) == 2, r.stderr
    assert "not-emitted" not in r.stdout and "emitted nothing" not in r.stdout


def test_a_report_says_on_its_page_that_a_stage_looks_cut_short(cli, cache39, tmp_path):
    """The terminal's note goes to stderr; the page, which is shared, said nothing."""
    entry = _entry(cache39, "ptx", tmp_path)
    llir = entry / "matmul_kernel.llir"
    _cut(llir)
    out = tmp_path / "r.html"
    r = cli("report", str(entry), "-o", str(out))
    assert r.returncode == 0 and r.stderr.count(CUT_NOTE) == 1, r.stderr
    page = out.read_text()
    assert f"{CUT_NOTE}: it ends inside function matmul_kernel" in page


@pytest.mark.parametrize("stage", ["ttir", "ttgir", "llir", "ptx", "amdgcn"])
def test_a_blank_text_is_not_said_to_be_cut_its_entry_says_it_is_empty(stage):
    """A blank stage proves nothing (cut is ""), and its entry's own note names it ("empty (0 bytes)"): an empty
    AMDGCN was also said to end "before its `.amdgpu_metadata` block"."""
    for text in ("", "\n \n"):
        with stages.collecting_unparsed() as said:
            module = stages.parse(stage, text, f"k.{stage}")
        assert module.cut == "" and said == {}


@pytest.mark.parametrize("stage", ["ttgir", "llir", "ptx"])
def test_show_says_after_the_text_that_it_looks_cut_short(cli, cache39, tmp_path, stage):
    """`show` prints a stage as it is; cut short, it would pass for a whole kernel without the note every other
    command gives."""
    entry = _entry(cache39, "ptx", tmp_path)
    path = entry / f"matmul_kernel.{stage}"
    r = cli("show", str(entry), "-s", stage)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    _cut(path)
    r = cli("show", str(entry), "-s", stage)
    assert r.returncode == 0 and r.stdout == path.read_text()
    assert r.stderr.count(CUT_NOTE) == 1 and r.stderr.startswith(f"tritonscope: note: {path}: {CUT_NOTE}: "), \
        r.stderr


def test_a_file_number_a_cut_ptx_never_defines_is_said_to_be_that(cli, cache39, tmp_path):
    """Helper 121: a PTX cut before its `.file` table located its ops in `<file 1>`, which `map` and the
    report's source list then called "not a Python source (.py file)"."""
    entry = _entry(cache39, "ptx", tmp_path)
    _cut(entry / "matmul_kernel.ptx")
    r = cli("map", str(entry), "--stages", "ptx")
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stdout.splitlines() if line.startswith("source: <file ")]
    assert said and "its `.file` lines never define" in said[0] and "not a Python source" not in r.stdout, r.stdout


def test_show_writes_an_empty_stage_as_nothing(cli, cache39, tmp_path):
    """Helper 119: piped, `show` writes a stage's bytes as `cat` does; an empty one came out as one newline."""
    entry = _entry(cache39, "ptx", tmp_path)
    (entry / "matmul_kernel.ptx").write_bytes(b"")
    r = cli("show", str(entry), "-s", "ptx")
    assert r.returncode == 0 and r.stdout == "", repr(r.stdout)
