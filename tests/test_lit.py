"""Stage-parser tests in the manner of LLVM's lit/FileCheck: each file under tests/lit/ is a snippet of a
real stage (cut from a real compilation, paths shortened) with the expected attribution written beside
the input it checks, as comments in the stage's own syntax.

A file `NAME.STAGE` (STAGE: source/ttir/ttgir/llir/ptx/amdgcn/sass) is parsed as that stage, with its
directive lines blanked (line numbers stay those of the file). Each op then becomes one line

    <op> @ <innermost file:line:col> @ ... @ <outermost call site>      (`@ ?` a location with no line,
                                                                        `@ -` no location at all)

followed by ` ptx:N` for SASS instructions that nvdisasm -gp placed on a PTX line. Directives, after the
stage's comment marker (`//`, `;` or `#`):

    CHECK: text        the next op line (after the previous match) that contains `text`
    CHECK-NEXT: text   the op line right after the previous match contains `text`
    CHECK-NOT: text    no op line between the previous match and the next one contains `text`
    CHECK-COUNT-N: t   N consecutive op lines from the next match on contain `t`
    UNPARSED: N        the parser kept exactly N lines it could not read
    FUNCTIONS: a, b    the functions the parser found, in order

`text` is literal except `{{regex}}` parts (FileCheck's). Run one file: pytest tests/test_lit.py -k NAME.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from tritonscope.stages import parse

LIT = pathlib.Path(__file__).parent / "lit"
STAGES = {"source", "ttir", "ttgir", "llir", "ptx", "amdgcn", "sass"}
DIRECTIVE = re.compile(r"^\s*(?://|;|#)\s*(CHECK(?:-NEXT|-NOT|-COUNT-\d+)?|UNPARSED|FUNCTIONS):\s?(.*)$")


def _files():
    return sorted(p for p in LIT.glob("*.*") if p.suffix.lstrip(".") in STAGES)


def _pattern(text: str) -> re.Pattern:
    parts = re.split(r"\{\{(.*?)\}\}", text.strip())
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?:{p})" for i, p in enumerate(parts)))


def render_ops(module) -> list[str]:
    out = []
    for op in module.ops:
        where = "-" if op.loc is None else op.loc.describe() if op.loc.known else "?"
        line = f"{op.op} @ {where}"
        if op.ptx_line is not None:
            line += f" ptx:{op.ptx_line}"
        out.append(line)
    return out


def run_lit(path: pathlib.Path) -> None:
    stage = path.suffix.lstrip(".")
    directives, text_lines = [], []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        m = DIRECTIVE.match(line)
        if m:
            directives.append((n, m.group(1), m.group(2)))
            text_lines.append("")
        else:
            text_lines.append(line)
    assert any(d[1].startswith("CHECK") for d in directives), f"{path.name}: no CHECK lines"
    module = parse(stage, "\n".join(text_lines) + "\n", str(path))
    lines = render_ops(module)
    listing = "\n".join(f"  {i:3d}  {s}" for i, s in enumerate(lines))

    def fail(n: int, why: str) -> None:
        pytest.fail(f"{path.name}:{n}: {why}\nops of {path.name} as parsed:\n{listing}", pytrace=False)

    pos = 0  # the first op line not yet consumed
    nots: list[tuple[int, re.Pattern]] = []
    last = -1
    for n, kind, text in directives:
        if kind == "UNPARSED":
            if len(module.unparsed) != int(text):
                fail(n, f"UNPARSED: {text} expected, parser kept {len(module.unparsed)}: {module.unparsed[:3]}")
            continue
        if kind == "FUNCTIONS":
            want = [f.strip() for f in text.split(",") if f.strip()]
            if module.functions != want:
                fail(n, f"FUNCTIONS: {want} expected, found {module.functions}")
            continue
        pat = _pattern(text)
        if kind == "CHECK-NOT":
            nots.append((n, pat))
            continue
        if kind == "CHECK-NEXT":
            if last < 0 or last + 1 >= len(lines) or not pat.search(lines[last + 1]):
                got = lines[last + 1] if 0 <= last + 1 < len(lines) else "(none)"
                fail(n, f"CHECK-NEXT: {text!r} not on the op line after the previous match: {got!r}")
            found = last + 1
        else:
            found = next((i for i in range(pos, len(lines)) if pat.search(lines[i])), None)
            if found is None:
                fail(n, f"{kind}: {text!r} matches no op line from {pos} on")
            if kind.startswith("CHECK-COUNT-"):
                count = int(kind.rsplit("-", 1)[1])
                run = lines[found:found + count]
                if len(run) < count or not all(pat.search(s) for s in run):
                    fail(n, f"{kind}: {text!r} holds on fewer than {count} consecutive op lines from {found}")
                found += count - 1
        for m, npat in nots:
            for i in range(pos, found):
                if npat.search(lines[i]):
                    fail(m, f"CHECK-NOT: {npat.pattern!r} found on op line {i}: {lines[i]!r}")
        nots = []
        last, pos = found, found + 1
    for m, npat in nots:  # trailing CHECK-NOTs: to the end
        for i in range(pos, len(lines)):
            if npat.search(lines[i]):
                fail(m, f"CHECK-NOT: {npat.pattern!r} found on op line {i}: {lines[i]!r}")


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_lit(path):
    run_lit(path)


def test_the_checker_fails_when_it_should(tmp_path):
    """A wrong expectation fails (a checker that cannot fail checks nothing)."""
    head = '.visible .entry k()\n{\n\t.loc 1 12 20\n\tld.global.b32 %r1, [%rd1];\n\tret;\n}\n.file 1 "/k/kernel.py"\n'
    path = tmp_path / "k.ptx"
    cases = [
        ("// CHECK: ld.global.b32 @ kernel.py:13:20\n", "matches no op line"),
        ("// CHECK-NOT: ret\n", "CHECK-NOT"),
        ("// CHECK: ret\n// CHECK-NEXT: ld.global\n", "CHECK-NEXT"),
        ("// CHECK-COUNT-2: ld.global\n", "CHECK-COUNT-2"),
        ("// CHECK: ret\n// UNPARSED: 1\n", "UNPARSED"),
        ("// CHECK: ret\n// FUNCTIONS: other\n", "FUNCTIONS"),
    ]
    for directives, why in cases:
        path.write_text(head + directives)
        with pytest.raises(pytest.fail.Exception, match=why):
            run_lit(path)
    path.write_text(head + "// CHECK: ld.global.b32 @ kernel.py:{{1[0-9]}}:20\n// CHECK-NEXT: ret @ kernel.py:12:20\n"
                    "// FUNCTIONS: k\n// UNPARSED: 0\n")
    run_lit(path)


def test_there_are_lit_files_for_every_text_stage():
    assert {p.suffix.lstrip(".") for p in _files()} >= STAGES - {"source"}
