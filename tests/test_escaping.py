"""HTML and SVG outputs are inert whatever the artifacts hold (tests/test_report.py covers the report's
JSON blob; this file covers `layout --svg`, `diff --format html` and the report's tag structure).

A copied corpus entry gets markup planted where artifacts carry free text: the kernel name (metadata
json), a source path (MLIR/LLVM/PTX locations), IR comments, a differing IR line. The outputs must parse
to the same element structure as for the clean entry (no element or attribute came from an artifact),
and the planted text must still be there, as text.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

ADD_90 = "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"  # add_kernel cuda:90, Triton 3.9.0
PAYLOADS = ['<script>alert("x")</script>', "<img src=x onerror=alert(1)>", "]]><svg onload=alert(2)>",
            "&lt;b&gt; & \"' <!-- -->"]
EVIL = "".join(PAYLOADS)
# Elements that run code, load something or change how the page is read.
ACTIVE_TAGS = ("script", "img", "iframe", "object", "embed", "svg", "link", "style", "meta", "base", "form")


class Structure(HTMLParser):
    """Element names with their attribute names, the text of script elements, all text data."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter[str] = Counter()
        self.handlers: list[tuple[str, str]] = []
        self.text: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1
        self.handlers += [(tag, a) for a, _ in attrs if a.startswith("on")]
        self._in = tag

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        self.text.append(data)


def _structure(html_text: str) -> Structure:
    s = Structure()
    s.feed(html_text)
    s.close()
    return s


def _plant(cache39: Path, dst: Path, evil: bool) -> Path:
    entry = shutil.copytree(cache39 / ADD_90, dst / "cache" / ADD_90)
    if not evil:
        return entry
    meta_path = entry / "add_kernel.json"
    meta = json.loads(meta_path.read_text())
    meta["name"] = f"add_kernel{EVIL}"
    meta_path.write_text(json.dumps(meta))
    for stage in ("ttir", "ttgir", "source"):
        p = entry / f"add_kernel.{stage}"
        text = p.read_text().replace("/tmp/irkernels/kernels.py", f"/tmp/{EVIL}/kernels.py")
        p.write_text(text.replace("} loc(#loc)\n", f"}} loc(#loc)\n// {EVIL}\n", 1))
    for stage in ("llir", "ptx"):
        p = entry / f"add_kernel.{stage}"
        p.write_text(p.read_text().replace("/tmp/irkernels", f"/tmp/{EVIL.replace(chr(34), '')}"))
    return entry


@pytest.fixture
def clean_and_evil(cache39, tmp_path) -> tuple[Path, Path]:
    return _plant(cache39, tmp_path / "clean", False), _plant(cache39, tmp_path / "evil", True)


def test_report_structure_is_the_same_with_markup_in_artifacts(clean_and_evil, cli, tmp_path):
    pages = []
    for entry in clean_and_evil:
        out = tmp_path / f"{entry.parent.parent.name}.html"
        r = cli("report", str(entry), "-o", str(out))
        assert r.returncode == 0, r.stderr
        pages.append(out.read_text())
    clean, evil = (_structure(p) for p in pages)
    # the planted entry has other rows and spans (one more IR line), but no element that runs or loads
    for tag in ACTIVE_TAGS:
        assert evil.tags[tag] == clean.tags[tag], tag
    assert evil.handlers == clean.handlers == []
    text = "".join(evil.text)
    assert PAYLOADS[0] in text and PAYLOADS[1] in text  # shown, as text (or inert JSON data)
    assert EVIL not in pages[1]  # never raw in the markup


def test_layout_svg_is_inert(clean_and_evil, cli, tmp_path):
    svgs = []
    for entry in clean_and_evil:
        out = tmp_path / f"{entry.parent.parent.name}.svg"
        r = cli("layout", str(entry), "--alias", "blocked", "--shape", "1024", "--svg", str(out))
        assert r.returncode == 0, r.stderr
        svgs.append(out.read_text())
    trees = [ET.fromstring(s) for s in svgs]  # well-formed XML: nothing broke out of a text node
    def tags(t):
        return Counter(el.tag for el in t.iter())
    assert tags(trees[0]) == tags(trees[1])
    assert not any(a.startswith("on") for el in trees[1].iter() for a in el.attrib)
    assert not any(el.tag.endswith(("script", "foreignObject")) for el in trees[1].iter())


def test_layout_svg_title_is_artifact_text(clean_and_evil, cli, tmp_path):
    """The picture's title is the alias line of the TTGIR, `<` and `>` included: it must be a text node.
    (The kernel name and paths do not appear in the SVG; `report` pages, which show them, are above.)"""
    _, evil = clean_and_evil
    out = tmp_path / "t.svg"
    r = cli("layout", str(evil), "--alias", "blocked", "--shape", "1024", "--svg", str(out))
    assert r.returncode == 0, r.stderr
    alias_line = next(ln for ln in (evil / "add_kernel.ttgir").read_text().splitlines() if ln.startswith("#blocked ="))
    root = ET.fromstring(out.read_text())
    titles = ["".join(el.itertext()) for el in root.iter() if el.tag.endswith("text")]
    assert titles[0] == alias_line
    assert alias_line not in out.read_text()  # only escaped in the markup


def test_diff_html_is_inert(clean_and_evil, cli, tmp_path):
    clean, evil = clean_and_evil
    r = cli("diff", str(clean), str(evil), "--format", "html")
    assert r.returncode in (0, 1), r.stderr
    page = r.stdout
    s = _structure(page)
    same = _structure(cli("diff", str(clean), str(clean), "--format", "html").stdout)
    assert s.handlers == []
    for tag in ACTIVE_TAGS:
        assert s.tags[tag] == same.tags[tag], tag
    assert EVIL not in page
    assert PAYLOADS[0] in "".join(s.text)  # the changed comment line is shown, as text


# ---- terminal output ---------------------------------------------------------------------------------

ESCAPES = "\x1b[2J\x1b]0;TITLE\x07\x9b1m\r"  # clear the screen, retitle the terminal, 8-bit CSI, overwrite


def test_terminal_output_shows_control_characters_from_a_cache(cli, cache39, tmp_path):
    """A cache's text on a terminal (a version in `ls`, a source path in `map` and in report's notes)
    cannot move the cursor, clear the screen or retitle it: its control characters are printed as
    `\\xNN`."""
    entry = shutil.copytree(cache39 / ADD_90, tmp_path / "cache" / ADD_90)
    meta = json.loads((entry / "add_kernel.json").read_text())
    (entry / "add_kernel.json").write_text(json.dumps({**meta, "triton_version": "3.9.0" + ESCAPES}))
    for f in entry.iterdir():
        if f.suffix in (".ttir", ".ttgir", ".source"):
            f.write_text(f.read_text().replace("kernels.py", "kernels\x1b[2J.py"))
    outputs = []
    for args in (["ls", "--cache-dir", str(tmp_path / "cache")],
                 ["map", str(entry), "--line", "3", "--stages", "ttgir"],
                 ["report", str(entry), "-o", str(tmp_path / "r.html")]):
        r = cli(*args)
        assert r.returncode == 0, r.stderr
        outputs.append(r.stdout + r.stderr)
        assert not any(c in outputs[-1] for c in "\x1b\x07\x9b\r"), (args, outputs[-1])
    assert "\\x1b[2J" in outputs[0] and "kernels\\x1b[2J.py" in outputs[2]


def test_errors_and_notes_stay_one_line_whatever_path_they_quote(cli, cache39, tmp_path):
    """A line break in a path or a kernel spec split the error line in two (`visible` keeps line breaks,
    as a stage's text needs): errors, notes and the report's "wrote" lines write it as `\\n`."""
    r = cli("ls", "--cache-dir", str(tmp_path / "a\nb"))
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "a\\nb" in r.stderr, r.stderr
    r = cli("show", "x\ny", "--cache-dir", str(cache39))
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "'x\\ny'" in r.stderr, r.stderr
    entry = shutil.copytree(cache39 / ADD_90, tmp_path / "two\nlines" / ADD_90)
    r = cli("report", str(entry), "-o", str(tmp_path / "r\n.html"))
    assert r.returncode == 0, r.stderr
    wrote = [line for line in r.stderr.splitlines() if line.startswith("wrote ")]
    assert len(wrote) == 1 and "r\\n.html" in wrote[0], r.stderr
    assert (tmp_path / "r\n.html").is_file()


def test_diff_markdown_keeps_a_kernel_name_inside_its_code_span(cli, cache39, tmp_path):
    """A kernel name holding backticks, a `|` and a line break (the cache author's text) stays one code span
    in one table cell of the pull-request comment: no markup of its own, no row or cell of its own."""
    a = shutil.copytree(cache39 / ADD_90, tmp_path / "a" / ADD_90)
    evil = "k`|x\n<img src=x onerror=alert(1)>"
    meta = json.loads((a / "add_kernel.json").read_text())
    (a / "add_kernel.json").write_text(json.dumps({**meta, "name": evil}))
    r = cli("diff", str(tmp_path / "a"), str(cache39), "--format", "markdown")
    assert r.returncode == 0, r.stderr
    rows = [ln for ln in r.stdout.splitlines() if "onerror" in ln]
    assert len(rows) == 1 and rows[0].startswith("| removed | ``k`\\|x\\x0a<img src=x onerror=alert(1)>`` |"), rows


BIDI = "\u202e\u2066"  # right-to-left override, left-to-right isolate: the text after them reads reordered


def test_a_report_shows_control_and_bidirectional_characters_not_obeys_them(cli, cache39, tmp_path):
    """A kernel name or source path holding a right-to-left override or a raw ESC went into the page as is
    (in its title, header and the data its script reads): a shared report could show a name as another."""
    entry = shutil.copytree(cache39 / ADD_90, tmp_path / "cache" / ADD_90)
    meta = json.loads((entry / "add_kernel.json").read_text())
    (entry / "add_kernel.json").write_text(json.dumps({**meta, "name": "add" + BIDI + "\x1b[31m_kernel"}))
    for f in entry.iterdir():
        if f.suffix in (".ttir", ".ttgir"):
            f.write_text(f.read_text().replace("kernels.py", "kern" + BIDI + "els.py"))
    out = tmp_path / "r.html"
    r = cli("report", str(entry), "-o", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text()
    assert not any(c in page for c in BIDI + "\x1b"), [c for c in BIDI + "\x1b" if c in page]
    assert "add\\u202e\\u2066\\x1b[31m_kernel" in page.split('id="ts-data">')[0]  # the header
    data = json.loads(page.split('id="ts-data">')[1].split("</script>")[0])
    assert "/tmp/irkernels/kern\\u202e\\u2066els.py" in data["files"]


def test_show_on_a_terminal_shows_the_stages_escape_sequences(tmp_path, cache39):
    """`show` wrote a stage's text as stored even on a terminal: an OSC sequence in a comment retitled it
    and a CSI cleared the screen. Piped, the text is still written as stored."""
    import os
    import pty
    import subprocess
    import sys

    entry = shutil.copytree(cache39 / ADD_90, tmp_path / "cache" / ADD_90)
    ttgir = entry / "add_kernel.ttgir"
    ttgir.write_text("// \x1b]0;PWNED\x07 \x1b[2J cleared " + BIDI + "\n" + ttgir.read_text())
    main, child = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "PAGER": "cat", "COLUMNS": "200", "LINES": "10000"}
    proc = subprocess.Popen([sys.executable, "-m", "tritonscope", "show", str(entry), "--stage", "ttgir"],
                            stdout=child, stderr=subprocess.PIPE, env=env)
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(main)
    shown = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0
    assert "\x1b]0;PWNED" not in shown and "\x1b[2J" not in shown and "\u202e" not in shown
    assert "\\x1b]0;PWNED\\x07" in shown and "\\u202e\\u2066" in shown
    piped = subprocess.run([sys.executable, "-m", "tritonscope", "show", str(entry), "--stage", "ttgir"],
                           capture_output=True, text=True)
    assert piped.stdout == ttgir.read_text()


def test_a_line_break_in_a_name_or_path_cannot_forge_a_row(cli, cache39, tmp_path):
    """A kernel name holding a line break printed a second, forged row in `ls`; a source path holding one
    split `map`'s `source:` header. Each such field is one line, the break shown as `\\\\n`."""
    entry = shutil.copytree(cache39 / ADD_90, tmp_path / "cache" / ADD_90)
    meta = json.loads((entry / "add_kernel.json").read_text())
    (entry / "add_kernel.json").write_text(json.dumps({**meta, "name": "add_kernel\nsafe_kernel  AAAAAAAAAA"}))
    r = cli("ls", "--cache-dir", str(tmp_path / "cache"))
    assert r.returncode == 0, r.stderr
    assert len([ln for ln in r.stdout.splitlines() if ln.strip()]) == 3  # title, header, one row
    assert "add_kernel\\nsafe_kernel" in r.stdout
    for f in entry.iterdir():
        if f.suffix == ".ttgir":
            f.write_text(f.read_text().replace("/tmp/irkernels/kernels.py", "/tmp/irkernels\\0Aforged\\0A/kernels.py"))
    r = cli("map", str(entry), "--line", "61", "--stages", "ttgir")
    assert r.returncode == 0, r.stderr
    (source,) = [line for line in r.stdout.splitlines() if line.startswith("source:")]
    assert "/tmp/irkernels\\nforged\\n/kernels.py" in source and "forged" not in r.stdout.replace(source, "")


def test_a_line_and_column_are_never_an_emoji_code():
    """Helper 72: rich reads `:100:` as an emoji code: every terminal table and line printing a helper's
    `utils.py:100:17` showed `utils.py💯17` (the JSON was right). No console of the tool reads emoji codes."""
    import io

    from tritonscope.render.terminal import make_console, string_console

    buf = io.StringIO()
    string_console(False, buf).print("utils.py:100:17 @ 436:13 :smile: :+1:")
    assert buf.getvalue() == "utils.py:100:17 @ 436:13 :smile: :+1:\n"
    console = make_console()
    with console.capture() as cap:
        console.print("line utils.py:100:17")
    assert cap.get() == "line utils.py:100:17\n"


def test_markup_in_paths_and_names_is_text(cli, cache39, tmp_path):
    """Helper 75: a cache folder named `a[/red]b` made `diff` stop with `internal error: MarkupError` (its
    header line went through rich markup), and a kernel named `perm[red]X` lost `[red]` in `map --stats` and
    the `loads` title; in a terminal the spinners did the same to every path. No console reads markup."""
    src = cache39 / ADD_90
    cache = tmp_path / "a[/red]b"
    entry = shutil.copytree(src, cache / ADD_90)
    meta = entry / "add_kernel.json"
    doc = json.loads(meta.read_text())
    doc["name"] = "perm[red]X"
    meta.write_text(json.dumps(doc))
    for p in list(entry.iterdir()):
        if p.name.startswith("add_kernel."):
            p.rename(entry / p.name.replace("add_kernel", "perm[red]X"))
    r = cli("diff", str(cache), str(cache), "--stat")
    assert r.returncode == 0 and f"A: {cache}" in r.stdout, r.stdout + r.stderr
    r = cli("map", "--stats", "--cache-dir", str(cache))
    assert r.returncode == 0 and "perm[red]X" in r.stdout, r.stdout
    r = cli("loads", "perm[red]X", "--cache-dir", str(cache), "--no-sass")
    assert r.returncode == 0 and r.stdout.startswith("perm[red]X  cuda:90"), r.stdout[:200]
    from rich.text import Text

    from tritonscope.render.terminal import make_console

    console = make_console()
    with console.capture() as cap:
        console.print("reading a[/red]b and [bold]x[/bold]")
        console.print(Text("styled", style="red"))
    assert cap.get() == "reading a[/red]b and [bold]x[/bold]\nstyled\n"


# Characters that read as nothing or reorder what is around them, and a name's undecodable bytes (a folder's
# name as Python reads it, or a JSON escape of one: lone surrogates), which a terminal got as the 8-bit CSI
# byte 0x9b and a strict UTF-8 stdout could not write at all
INVISIBLE = "\u200f\u200b\ufeff\u2028\u061c"
RAW_BAD = (b"\x1b", b"\x9b", b"\xc2\x9b", b"\xe2\x80\x8f", b"\xe2\x80\x8b", b"\xef\xbb\xbf", b"\xe2\x80\xa8",
           b"\xd8\x9c", b"\xe2\x80\xae")


def _run_bytes(*args: str) -> subprocess.CompletedProcess:
    """The CLI with a strict UTF-8 stdout and stderr (Python's default under a UTF-8 locale other than C.UTF-8),
    its output as bytes."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "PYTHONIOENCODING": "utf-8:strict",
           "TRITONSCOPE_RECORDS_CACHE": "off"}
    return subprocess.run([sys.executable, "-m", "tritonscope", *args], capture_output=True, env=env, timeout=600)


def _hostile_copy(cache39: Path, root: Path, folder: str, ir_line: str = "") -> Path:
    entry = shutil.copytree(cache39 / ADD_90, root / folder)
    meta = json.loads((entry / "add_kernel.json").read_text())
    meta["name"] = "g\udc9b2J\udc9b31m" + INVISIBLE + "\u202e"  # (json.dumps writes the surrogates as escapes)
    (entry / "add_kernel.json").write_text(json.dumps(meta))
    if ir_line:
        p = entry / "add_kernel.ttgir"
        p.write_text(p.read_text().replace("} loc(#loc)\n", f"}} loc(#loc)\n// {ir_line}\n", 1))
    return entry


def test_undecodable_and_invisible_characters_reach_no_terminal_and_no_snapshot_raw(cache39, tmp_path):
    """A name whose bytes are not UTF-8 printed the byte 0x9b (the 8-bit CSI) back to the terminal, and with a
    strict UTF-8 stdout `ls` died; `snapshot` died on it whatever the stdout (metrics.json could not be
    encoded); a right-to-left mark or a zero-width space passed into every output; a hash folder's escape
    shifted `ls`'s columns (measured before it was made visible)."""
    _hostile_copy(cache39, tmp_path / "a", "HASH\x1b]0;DI")
    r = _run_bytes("ls", "--cache-dir", str(tmp_path / "a"))
    assert r.returncode == 0, r.stderr
    assert not any(b in r.stdout for b in RAW_BAD), r.stdout
    assert b"g\\x9b2J\\x9b31m\\u200f\\u200b\\ufeff\\u2028\\u061c\\u202e" in r.stdout, r.stdout
    head, row = r.stdout.decode().splitlines()[1:3]
    assert row.index("HASH\\x1b]0;") == head.index("hash") and row.index("cuda:90") == head.index("target"), \
        (head, row)
    r = _run_bytes("snapshot", "--cache-dir", str(tmp_path / "a"), "--out", str(tmp_path / "snap"))
    assert r.returncode == 0, r.stderr
    [metrics] = (tmp_path / "snap").rglob("metrics.json")
    raw = metrics.read_bytes()
    assert not any(b in raw for b in RAW_BAD), raw[:300]
    assert json.loads(raw)["kernel"] == "g\udc9b2J\udc9b31m" + INVISIBLE + "\u202e"  # (the same value, escaped)


def test_diff_markdown_shows_a_kernels_escapes_and_its_ir_lines_escapes(cache39, tmp_path):
    """The pull-request comment's details (the kernel's name in their summary, the stage's diff lines) wrote
    the cache's escape sequences as they were: a CI log that renders ANSI cleared its screen, retitled it, or
    wrote the clipboard (OSC 52)."""
    _hostile_copy(cache39, tmp_path / "a", ADD_90)
    _hostile_copy(cache39, tmp_path / "b", ADD_90, ir_line="x\x1b[2J\x1b]52;c;ZWNobw==\x07" + INVISIBLE)
    r = _run_bytes("diff", str(tmp_path / "a"), str(tmp_path / "b"), "--format", "markdown")
    assert r.returncode == 0, r.stderr
    assert not any(b in r.stdout for b in RAW_BAD), r.stdout
    out = r.stdout.decode()
    assert "+// x\\x1b[2J\\x1b]52;c;ZWNobw==\\x07\\u200f" in out and "<summary><code>g\\x9b2J" in out, out


def test_progress_lines_on_stderr_show_control_characters():
    """A stage's file name is in the progress line of a large stage's parse: printed as is, its OSC 52 wrote
    the terminal's clipboard."""
    import io

    from tritonscope.status import stderr_console

    console = stderr_console()
    console.file = io.StringIO()
    console.print("parsing ptx (40 MB, k\x1b]52;c;eA==\x1b\\\u202e.ptx)")
    out = console.file.getvalue()
    assert "\x1b" not in out and "\u202e" not in out and "k\\x1b]52;c;eA==\\x1b\\\\u202e.ptx" in out, out
