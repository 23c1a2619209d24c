"""The `hsaco-asm` stage (llvm-objdump's disassembly of an AMD code object) counts what the AMDGCN stage
counts: line-0 rows of the line table are line 0 (llvm-objdump prints no comment for them, so they read as
the line before), padding a branch jumps over is no op, and an 8-byte instruction llvm-objdump cannot
decode is one op (it printed the second word as an instruction of its own).

Real data: tests/data/thirdparty-gfx942-triton3.9 (conch), tests/data/thirdparty-rdna-triton3.9 (liger)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonscope.artifacts import tools
from tritonscope.artifacts.cache import load_entry
from tritonscope.srcmap.kernelmap import coverage, load_kernel_map
from tritonscope.stages import hsaco

DATA = Path(__file__).parent / "data"

DISASSEMBLY = """\
k.hsaco:\tfile format elf64-amdgpu

Disassembly of section .text:

0000000000001700 <k>:
; /src/k.py:14
\ts_load_dwordx4 s[12:15], s[0:1], 0x28                      // 000000001710: C00A0300 00000028
\ts_branch 2                                                 // 000000001718: BF820002 <k+0x24>
\ts_nop 0                                                    // 00000000171C: BF800000
\ts_nop 0                                                    // 000000001720: BF800000
; /src/k.py:77
\tv_mov_b32_e32 v2, 0                                        // 000000001724: 7E040280
\tv_mov_b32_e32 v3, 0                                        // 000000001728: 7E060280
\t.long 0xd4170002                                           // 00000000172C: D4170002
\tv_cndmask_b32_e32 v1, v0, v0, vcc_lo                       // 000000001730: 02020100
\t.long 0x7e040280                                           // 000000001734: 7E040280
\ts_nop 0                                                    // 000000001738: BF800000
\ts_endpgm                                                   // 00000000173C: BF810000
\ts_nop 0                                                    // 000000001740: BF800000
"""

LINE_TABLE = """\
.debug_line contents:
Address            Line   Column File   ISA Discriminator OpIndex Flags
------------------ ------ ------ ------ --- ------------- ------- -------------
0x0000000000001700     14      0      1   0             0       0  is_stmt prologue_end
0x0000000000001724     77      5      1   0             0       0  is_stmt
0x0000000000001728      0      5      1   0             0       0
0x000000000000172c     77      5      1   0             0       0  is_stmt
0x0000000000001744     77      5      1   0             0       0  end_sequence
"""


def test_line_zero_jumped_padding_and_undecoded_second_words():
    m = hsaco.parse(DISASSEMBLY, "k.hsaco", dwarf=LINE_TABLE)
    assert [(op.op, op.loc.line) for op in m.ops] == [
        ("s_load_dwordx4", 14), ("s_branch", 14),  # (the two s_nop it jumps over: never run)
        ("v_mov_b32_e32", 77), ("v_mov_b32_e32", 0),  # its row in the line table has line 0
        ("(undecoded)", 77),  # 0xd4...: an 8-byte encoding; the `v_cndmask` after it is its second word
        ("(undecoded)", 77), ("s_nop", 77), ("s_endpgm", 77)]  # 0x7e...: 4 bytes; a nop run into: kept
    assert "printed 2 instruction(s) as `.long` words" in m.notes[0] and "(1 of them 8- or 12-byte" in m.notes[0]


def test_a_vop3_with_a_literal_is_one_op():
    """Helper 69: gfx11's `v_lshlrev_b32_e64 v19, v21, 0xffff` is 12 bytes (its second word names a literal
    operand, source field 255): llvm-objdump 19 printed `.long 0xd5180013`, its second word as a
    `v_cndmask_b32_e32` (left out) and the literal as `.long 0x0000ffff`, counted as a second op."""
    text = DISASSEMBLY.replace(
        "\t.long 0xd4170002                                           // 00000000172C: D4170002\n"
        "\tv_cndmask_b32_e32 v1, v0, v0, vcc_lo                       // 000000001730: 02020100\n"
        "\t.long 0x7e040280                                           // 000000001734: 7E040280\n",
        "\t.long 0xd5180013                                           // 00000000172C: D5180013\n"
        "\tv_cndmask_b32_e32 v0, v21, v255, vcc_lo                    // 000000001730: 0201FF15\n"
        "\t.long 0x0000ffff                                           // 000000001734: 0000FFFF\n")
    assert text != DISASSEMBLY
    m = hsaco.parse(text, "k.hsaco", dwarf=LINE_TABLE)
    assert [op.op for op in m.ops].count("(undecoded)") == 1, [op.op for op in m.ops]
    assert "printed 1 instruction(s) as `.long` words" in m.notes[0] and "(1 of them 8- or 12-byte" in m.notes[0]


@pytest.mark.parametrize(("cache", "name"), [("thirdparty-gfx942-triton3.9/conch", "_bev_pool_kernel"),
                                             ("thirdparty-gfx942-triton3.9/aiter", "_fwd_kernel_stage2"),
                                             ("thirdparty-rdna-triton3.9/liger", "_group_norm_backward_kernel")])
def test_hsaco_asm_counts_what_the_amdgcn_counts(cache, name):
    """Real kernels: hsaco-asm had 76 line-0 instructions on the lines before them (conch), 56 `s_nop` of
    gfx942's argument-preload prologue on the `def` line (aiter), 113 second words of gfx12 VOP3
    instructions LLVM 19 cannot decode as instructions of their own (liger, gfx1201)."""
    if not tools.llvm_objdumps():
        pytest.skip("no llvm-objdump")
    root = DATA / cache
    (entry,) = [load_entry(d, root) for d in root.iterdir() if (d / f"{name}.json").exists()]
    try:
        kmap = load_kernel_map(entry, ["amdgcn", "hsaco-asm"], explicit=True)
    except tools.ToolMissing as exc:
        pytest.skip(str(exc))
    amd, disassembled = (coverage(kmap.stages[s], kmap.source_file) for s in ("amdgcn", "hsaco-asm"))
    assert (disassembled.ops, disassembled.unknown) == (amd.ops, amd.unknown)


def test_the_code_object_names_its_processor(tmp_path, cache39):
    """The disassembler's --mcpu came from the metadata: a wrong arch there gave `v_illegal` garbage with
    exit 0, a code object alone could not be disassembled, and an ELF of another machine read as
    'no llvm-objdump here knows gfx942'."""
    import json
    import shutil

    from tritonscope.errors import TritonscopeError

    archs = {}
    for h in sorted(cache39.glob("*/*.hsaco")):
        meta = json.loads(next(p for p in h.parent.glob("*.json") if not p.name.startswith("__grp__")).read_text())
        archs[tools.hsaco_arch(h)] = meta["target"]["arch"]
    assert archs and all(k == v for k, v in archs.items()) and {"gfx942", "gfx90a"} <= set(archs)
    cubin = next(cache39.glob("*/*.cubin"))
    with pytest.raises(TritonscopeError, match="an ELF for machine 190, not an AMD GPU code object .* CUBIN"):
        tools.hsaco_arch(cubin)
    if not tools.llvm_objdumps():
        pytest.skip("no llvm-objdump")
    src = next(h for h in cache39.glob("*/add_kernel.hsaco") if tools.hsaco_arch(h) == "gfx942")
    entry = shutil.copytree(src.parent, tmp_path / "wrong" / src.parent.name)
    meta = next(p for p in entry.glob("*.json") if not p.name.startswith("__grp__"))
    doc = json.loads(meta.read_text())
    meta.write_text(json.dumps({**doc, "target": {**doc["target"], "arch": "gfx1100"}}))
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(src, alone / src.name)
    from tritonscope.artifacts.cache import load_entry
    from tritonscope.stages import stage_text

    right = stage_text(load_entry(src.parent, src.parent.parent), "hsaco-asm")
    for path in (entry, alone):
        text = stage_text(load_entry(path, path.parent), "hsaco-asm")
        assert "v_illegal" not in text and text.split("\n", 2)[2] == right.split("\n", 2)[2]
        assert text.lstrip().startswith(f"{path / src.name}:")  # its own path, though the cache held another's


def test_a_branch_over_waits_is_no_padding():
    """Helper 73: only `s_nop 0` pads; an `s_nop 7` waits (a run of them that a branch or 3.2's trap header
    reaches past was dropped as padding)."""
    text = DISASSEMBLY.replace("\ts_nop 0                                                    // 00000000171C",
                               "\ts_nop 7                                                    // 00000000171C")
    assert text != DISASSEMBLY
    m = hsaco.parse(text, "k.hsaco", dwarf=LINE_TABLE)
    assert [op.op for op in m.ops][:4] == ["s_load_dwordx4", "s_branch", "s_nop", "s_nop"], [op.op for op in m.ops]
