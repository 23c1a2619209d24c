"""SASS located through the PTX it was compiled from (nvdisasm -gp), and DWARF inline ranges that do not
swallow the caller's own instructions. Real artifacts: the Triton 3.6 entry recorded on an H100
(tests/data/h100-triton3.6) and the shared corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tritonscope.artifacts import tools
from tritonscope.stages import parse
from tritonscope.stages.common import read_text

ENTRY = Path(__file__).parent / "data" / "h100-triton3.6" / "QBTKQ52PTLCVHM6YR5FVBU5J7LWSXTJ2QSKLSLL5OTM3A2ITM7NA"
needs_nvdisasm = pytest.mark.skipif(tools.find_nvidia_tool("nvdisasm") is None, reason="no nvdisasm")

SASS_WITH_PTX_LINES = """\
	.section	.text.k,"ax",@progbits
k:
	//## File "/src/k.py", line 36
	//## File ".nv_debug_ptx_txt", line 331
        /*02a0*/              @!P1 LDG.E.U16 R16, desc[UR6][R4.64] ;
	//## File ".nv_debug_ptx_txt", line 340
        /*02b0*/                   STL [R1], R16 ;
"""


def test_gp_lines_are_ptx_lines_not_sources():
    m = parse("sass", SASS_WITH_PTX_LINES)
    assert [(op.op, op.ptx_line, op.loc.line) for op in m.ops] == [("LDG.E.U16", 331, 36), ("STL", 340, 36)]
    assert ".nv_debug_ptx_txt" not in m.files.values()
    assert m.unparsed == []


def test_helper_range_does_not_swallow_the_callers_load():
    """PTX line 331 is the `scale` load of line 36 (`.loc 1 36 20`), scheduled inside the DWARF low/high
    range of the tl.sum inlined at line 39. The callee's code is in standard.py (its nested call is made
    from there), so the load is not inside it: the chain is line 36 alone."""
    path = next(ENTRY.glob("*.ptx"))
    m = parse("ptx", read_text(path), str(path))
    (op,) = [op for op in m.ops if op.lineno == 331]
    assert op.text == "@%p2 ld.global.b16 { %rs1 }, [ %rd25 + 0 ];"
    assert [(p.line, p.col) for p in op.loc.chain()] == [(36, 20)]
    # the tl.sum code itself still sits at its call site
    inside = [op for op in m.ops if op.loc and op.loc.file.endswith("standard.py")]
    assert inside and {op.loc.outermost().line for op in inside} == {39}


@needs_nvdisasm
def test_every_sass_instruction_gets_its_ptx_line_and_location(cli, tmp_path):
    doc = json.loads(cli("map", str(ENTRY), "--line", "36", "--stages", "ptx,sass", "--json").stdout)
    flow = {f["stage"]: f["kinds"] for f in doc["flow"]}
    assert flow == {"ptx": {"ld.global.b16": 1}, "sass": {"STL": 1, "LDG.E.U16": 1}}
    (sass,) = [s for s in doc["stages"] if s["stage"] == "sass"]
    assert sass["notes"] == ["783 of 786 instructions located through their PTX line (nvdisasm -gp)"]
    ldg = [op for op in sass["ops"] if op["op"] == "LDG.E.U16"]
    assert [op["chain"] for op in ldg] == [[{"file": "/checkout0/sample_kernels/gemv_int4.py", "line": 36,
                                             "col": 20}]]


@needs_nvdisasm
def test_loads_join_sass_through_ptx_lines(cli):
    doc = json.loads(cli("loads", str(ENTRY), "--json").stdout)
    rows = {(r["line"], r["op"]): r for r in doc["rows"]}
    assert rows[(36, "tt.load")]["sass"] == {"LDG.E.U16": 1}
    assert rows[(38, "tt.load")]["sass"] == {"LDG.E.EL.U16": 16}
    assert all(r["verdict"] != "unknown" for r in doc["rows"])


@needs_nvdisasm
def test_spills_listed_per_source_line(cli):
    """The recorded gemv_int4 build spills (its cubin: 8 local-memory instructions); each is listed on the
    line its PTX instruction came from, in the JSON and the text."""
    doc = json.loads(cli("loads", str(ENTRY), "--json").stdout)
    sass = [(s["line"], s["instruction"], s["count"], s["bytes"]) for s in doc["spills"] if s["stage"] == "sass"]
    assert sass == [(32, "STL", 2, 4), (35, "STL", 1, 4), (35, "LDL.LU", 1, 4), (36, "STL", 1, 4),
                    (37, "LDL.LU", 1, 4), (37, "LDL.LU", 2, 4)]
    text = cli("loads", str(ENTRY)).stdout
    assert "spills (local memory: registers spilled to the stack; 8 instructions per thread):" in text


@needs_nvdisasm
def test_merged_loads_carry_a_reason(cli):
    """The packed-int4 weight tile (line 32): 16 PTX `v4.b32` loads per thread, 8 SASS `LDG.E.EF.128`.
    Each k row of a packed word is loaded by its own PTX instruction, but 8 rows share one address."""
    doc = json.loads(cli("loads", str(ENTRY), "--json").stdout)
    (row,) = [r for r in doc["rows"] if r["line"] == 32]
    assert row["stages"]["ptx"] == {"ld.global.L1::evict_first.L2::cache_hint.v4.b32": 16}
    assert row["stages"]["sass"] == {"LDG.E.EF.128": 8}
    assert [c["code"] for c in row["count_changes"]] == ["merged-identical-address"]
    assert "8 distinct addresses" in row["count_changes"][0]["evidence"]
    assert all(r["count_changes"] == [] for r in doc["rows"] if r["line"] != 32)


def test_an_instruction_gp_cannot_place_gets_the_one_chain_ptx_has_for_its_line():
    """mamba3's `angle_dt_fwd_kernel`: a prologue `ULDC` whose -gp line is the function's brace keeps the
    cubin's `standard.py:43:0` (tl.cdiv), no caller; every PTX instruction of standard.py:43 was inlined
    at angle_dt.py:66:31, so it is there too. Where PTX has several callers for that line, nothing moves."""
    from tritonscope.stages.common import Module, Op, SourceLoc
    from tritonscope.stages.sass_lines import place_through_ptx

    std, user = "/t/language/standard.py", "/k/angle_dt.py"
    call = SourceLoc(user, 66, 31)
    ptx = Module(stage="ptx", path=None, ops=[
        Op(61, "div.s32", "div.s32 %r1, %r2, 64;", SourceLoc(std, 43, 17, call)),
        Op(95, "add.s32", "add.s32 %r3, %r1, 1;", SourceLoc(std, 43, 30, call))])
    sass = Module(stage="sass", path=None, ops=[
        Op(34, "ULDC.64", "ULDC.64 UR12, c[0x0][0x208] ;", SourceLoc(std, 43, 0), ptx_line=40)])
    assert place_through_ptx(sass, ptx) == 0
    assert sass.ops[0].loc.describe() == "standard.py:43:0 @ angle_dt.py:66:31"
    ptx.ops.append(Op(99, "add.s32", "add.s32 %r4, %r1, 1;", SourceLoc(std, 43, 17, SourceLoc(user, 70, 5))))
    sass.ops[0].loc = SourceLoc(std, 43, 0)
    place_through_ptx(sass, ptx)
    assert sass.ops[0].loc.describe() == "standard.py:43:0"


SASS_WITH_A_SUBROUTINE = """\
	.section	.text.k,"ax",@progbits
	.type           $__internal_0_$__cuda_sm20_div_s64,@function
k:
	//## File "/src/k.py", line 36
	//## File ".nv_debug_ptx_txt", line 90
        /*0000*/                   CALL.REL.NOINC `($__internal_0_$__cuda_sm20_div_s64) ;
	//## File "/src/k.py", line 40
	//## File ".nv_debug_ptx_txt", line 120
        /*0010*/                   EXIT ;
        .weak           $__internal_0_$__cuda_sm20_div_s64
        .size           $__internal_0_$__cuda_sm20_div_s64,(.L_x_7 - $__internal_0_$__cuda_sm20_div_s64)
$__internal_0_$__cuda_sm20_div_s64:
        /*0020*/                   I2F.U64.RP R9, R6 ;
        /*0030*/                   MUFU.RCP R9, R9 ;
        /*0040*/                   RET.REL.NODEC R2 `(k) ;
.L_x_6:
        /*0050*/                   BRA `(.L_x_6);
        /*0060*/                   NOP;
        /*0070*/                   NOP;
.L_x_7:
"""


def test_a_subroutine_after_the_kernels_exit_has_no_position_and_its_padding_is_dropped():
    """ptxas's 64-bit division placed after the kernel's EXIT took the kernel's last PTX line (its `ret`,
    so line 40) and the padding after its `RET.REL.NODEC` (no plain RET) was counted too."""
    m = parse("sass", SASS_WITH_A_SUBROUTINE)
    assert [(op.op, op.function, op.ptx_line, op.loc.line if op.loc else None) for op in m.ops] == [
        ("CALL.REL.NOINC", "k", 90, 36), ("EXIT", "k", 120, 40),
        ("I2F.U64.RP", "$__internal_0_$__cuda_sm20_div_s64", None, None),
        ("MUFU.RCP", "$__internal_0_$__cuda_sm20_div_s64", None, None),
        ("RET.REL.NODEC", "$__internal_0_$__cuda_sm20_div_s64", None, None)]


@needs_nvdisasm
def test_sass_of_an_entry_without_ptx_says_its_lines_are_the_cubins_own(cli, cache39, tmp_path):
    """Helper 80: with the PTX gone (deleted, or not yet renamed into place), `map --stage sass` gave the
    loads the store's line (ptxas's table puts them on their mask's and use's lines), with no word that
    nothing placed them through the PTX."""
    import shutil

    src = next(p for p in sorted(cache39.iterdir()) if (p / "add_kernel.ptx").exists()
               and (p / "add_kernel.cubin").exists())
    entry = shutil.copytree(src, tmp_path / "c" / src.name)
    (entry / "add_kernel.ptx").unlink()
    r = cli("map", str(entry), "--line", "65", "--stages", "sass")
    assert r.returncode == 0, r.stderr
    assert "the entry has no PTX to locate SASS through: its lines are the cubin's own table" in r.stdout, r.stdout
