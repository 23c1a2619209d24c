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


def _cut(path: Path) -> None:
    data = path.read_bytes()
    cut = len(data) // 2
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
    if stage in ("ttgir", "llir"):
        # its location records are at its end: every op lost its line, and the line's note says why
        assert ("location alias(es) it never defines" if stage == "ttgir" else
                "debug-metadata node(s) it never defines") in said[0]
    if stage == "llir":
        assert "ttgir ops are in no llir op: the llir file looks cut short" in r.stdout
        assert "folded, removed as unused" not in r.stdout
    if stage == "ttgir":
        r = cli("loads", str(entry))
        assert r.returncode == 0 and f"TTGIR: {CUT_NOTE}" in r.stdout and "Triton before 2.3" not in r.stdout
    if stage == "ptx":
        # `removed` proves by the whole kernel's counts: the accesses past the cut were not removed by LLVM
        r = cli("loads", str(entry))
        assert r.returncode == 0 and f"PTX: {CUT_NOTE}" in r.stdout and "emitted nothing" not in r.stdout


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
    assert cut.cut == "it ends inside function k (a `{` never closed)"


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
