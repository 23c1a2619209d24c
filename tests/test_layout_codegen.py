"""Layouts as each release's code generator places them (tests/layout_codegen.py), against tritonscope.

Triton 2.2-3.5 expose no `to_linear_layout`; every release compiles a TTGIR file. The records in
tests/data/layout-oracle/codegen-X.Y.json were made by tests/layout_codegen_record.py with each release's
wheel: per case, the layout as that release printed it back and the bases fitted to which element its LLVM
IR puts in each register of each thread. These tests need no wheel.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest
from layout_codegen import fit, printed_layout, probe_module
from layout_oracle import register_permutation, same_threads
from llvm_eval import Unsupported, asm_operands

from tritonscope.layouts import releases
from tritonscope.layouts.attrs import parse_layout
from tritonscope.layouts.tensor import to_linear

RECORDS = Path(__file__).parent / "data" / "layout-oracle"


def _record(version: str) -> dict:
    return json.loads((RECORDS / f"codegen-{version}.json").read_text())


def _nonzero_registers(bases: dict) -> list:
    return [b for b in bases["register"] if any(b)]


def compare(case: dict, semantics) -> str:
    """How tritonscope's decoding of the printed layout stands to the code generator's placement."""
    ours = to_linear(parse_layout(case["text"]), case["shape"], case["bits"], semantics=semantics).to_json()
    theirs = case["bases"]
    if ours == theirs:
        return "match"
    if register_permutation(ours, theirs):
        return "register order"  # the same registers, in another order
    if same_threads(ours, theirs) and _nonzero_registers(ours) == _nonzero_registers(theirs):
        return "broadcast registers"  # the same elements in the same order, one side repeating some
    return "differs"


# -- the evaluator and the fit, on small hand-written inputs --------------------------------------------

LLIR = """
define void @k() local_unnamed_addr !dbg !7 {
  %1 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %2 = and i32 %1, 31
  %3 = lshr i32 %1, 5
  %4 = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %3, i32 0, i32 31)
  %5 = shl nuw nsw i32 %4, 6
  %6 = shl i32 %2, 1
  %7 = or disjoint i32 %5, %6
  %8 = or disjoint i32 %7, 1
  %9 = trunc nuw nsw i32 %7 to i16
  %10 = insertelement <2 x i16> poison, i16 %9, i64 0
  %11 = trunc i32 %8 to i16
  %12 = insertelement <2 x i16> %10, i16 %11, i64 1
  %13 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(<2 x i16> %12) #1, !dbg !15
  %14 = icmp ult i32 %2, 16
  %15 = select i1 %14, i32 %7, i32 0
  ret void, !dbg !16
}
"""


def test_evaluator_runs_every_thread_in_lockstep():
    per_thread = asm_operands(LLIR, 64, 32)
    assert per_thread[0] == [0, 1] and per_thread[5] == [10, 11] and per_thread[33] == [66, 67]
    assert fit(per_thread, [2, 64], 2, 32) == {"bases": {"register": [[0, 1]],
                                                         "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
                                                         "warp": [[1, 0]], "block": []}}


CGA_LLIR = r"""
define void @k() local_unnamed_addr !dbg !7 {
  %1 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !10
  %2 = tail call i32 asm "{\0Amov.u32 a0, %cluster_ctaid.x;\0Amad.lo.u32 $0, a1, a3, a0;\0A}", "=r"() #1
  %3 = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctaid.x()
  %4 = shl i32 %2, 5
  %5 = or disjoint i32 %4, %1
  %6 = mul i32 %3, 0
  %7 = add i32 %5, %6
  %8 = tail call i32 asm sideeffect "mov.b32 $0, $1;", "=r,r"(i32 %7) #1
  ret void
}
"""


def test_evaluator_reads_the_cta_of_a_cga():
    """Triton's own (pure) asm reading %cluster_ctaid is the CTA's id; only side-effecting asm is the probe."""
    per_thread = [r for block in range(2) for r in asm_operands(CGA_LLIR, 32, 32, block, 2)]
    assert per_thread[0] == [0] and per_thread[33] == [33]
    assert fit(per_thread, [64], 1, 32, 2) == {"bases": {"register": [], "lane": [[1], [2], [4], [8], [16]],
                                                         "warp": [], "block": [[32]]}}
    with pytest.raises(Unsupported, match="asm"):
        asm_operands(CGA_LLIR.replace("%cluster_ctaid.x", "%smid"), 32, 32)


def test_evaluator_refuses_what_it_does_not_know():
    with pytest.raises(Unsupported, match="control flow"):
        asm_operands(LLIR.replace("  ret void", "  br label %17\n17:\n  ret void"), 32, 32)
    with pytest.raises(Unsupported, match="load"):
        asm_operands(LLIR.replace("%5 = shl nuw nsw i32 %4, 6", "%5 = load i32, ptr %4"), 32, 32)


def test_fit_names_a_map_no_layout_is():
    assert "not linear" in fit([[0, 1], [2, 5]], [8], 1, 2)["error"]
    held_twice = fit([[0, 1], [0, 1]], [4], 1, 2)
    assert held_twice == {"bases": {"register": [[1]], "lane": [[0]], "warp": [], "block": []}, "unheld": 2}


def test_probe_kernel_slices_each_dim_away_highest_first():
    text = ("#ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 1, 4], "
            "order = [2, 1, 0]}>")
    mod = probe_module(text, [2, 4, 32], 8, 4, 32, (3, 9), "cuda:90")
    assert "tensor<2xi32, #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #L}>}>>" in mod
    assert "%hi = arith.shrui" in mod and mod.count("tt.elementwise_inline_asm") == 2
    printed = ("#blocked = #ttg.blocked<{sizePerThread = [1, 2]}>\n"
               '    %x0 = tt.elementwise_inline_asm "mov" {pure = false} %t0 : tensor<4x8xi8, #blocked> -> '
               "tensor<4x8xi8, #ttg.slice<{dim = 0, parent = #blocked}>> loc(#loc3)\n")
    assert printed_layout(printed) == "#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 2]}>}>"


# -- every release's record --------------------------------------------------------------------------

VERSIONS = ["2.2", "2.3", "3.0", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9"]


UNHELD = "the probe's own ops leave elements unheld"


def _stats(version: str) -> tuple[collections.Counter, list[str]]:
    rec = _record(version)
    semantics = releases.for_version(rec["triton"], "record")
    stats: collections.Counter = collections.Counter()
    problems = []
    for case in rec["cases"]:
        if "skipped" in case:
            stats["not probed"] += 1
        elif "bases" not in case:
            stats["no verdict"] += 1  # refused by the parser, aborted in the lowering, or not a layout
        elif case.get("unheld"):
            stats[UNHELD] += 1
        else:
            verdict = compare(case, semantics)
            stats[verdict] += 1
            if verdict != "match":
                stats[(verdict, releases.layout_kind(parse_layout(case["text"])))] += 1
                problems.append(f"{case['text']} {case['shape']}: {verdict}")
    return stats, problems


# What each release's record yields. "differs" and "register order" only where releases.CHANGES lists an
# unmodelled change this release predates (3.0/3.1's MMA tensors smaller than the tile, 3.7's WMMA operand
# register order); "broadcast registers" only on 3.9, whose
# code generator drops the registers that repeat an element where its own to_linear_layout (and so
# tritonscope's default decoding) keeps them; "unheld": 2.2-3.5 lower the probe's expand_dims/broadcast so
# that some elements sit in no register for a few layouts (the tile larger than the tensor along one dim,
# repeating along another), a defect of those ops, not of the layout's meaning, so not compared; 2.2 and 2.3
# also leave in no register some elements of the MMA tensors smaller than the tile that 3.0/3.1 wrap (the 19
# cases that differ there). 2.x is probed on NVIDIA only (its wheels have no AMD backend), and its code
# generator aborts on every dot operand and batched MMA layout probed ("no verdict").
EXPECTED: dict[str, dict] = {
    "2.2": {'match': 117, UNHELD: 33, 'not probed': 403, 'no verdict': 101},
    "2.3": {'match': 112, UNHELD: 34, 'not probed': 403, 'no verdict': 105},
    "3.0": {'match': 218, UNHELD: 11, 'not probed': 201, 'differs': 19, 'no verdict': 205},
    "3.1": {'match': 218, UNHELD: 11, 'not probed': 201, 'differs': 19, 'no verdict': 205},
    "3.2": {'match': 297, UNHELD: 8, 'not probed': 201, 'no verdict': 148},
    "3.3": {'match': 474, UNHELD: 8, 'not probed': 158, 'no verdict': 14},
    "3.4": {'match': 476, UNHELD: 6, 'not probed': 158, 'no verdict': 14},
    "3.5": {'match': 560, UNHELD: 6, 'not probed': 75, 'no verdict': 13},
    "3.6": {'match': 552, 'not probed': 48, 'no verdict': 54},
    "3.7": {'match': 602, 'not probed': 48, 'register order': 4},
    "3.8": {'match': 606, 'not probed': 48},
    "3.9": {'match': 569, 'not probed': 46, 'broadcast registers': 39},
}


@pytest.mark.parametrize("version", VERSIONS)
def test_decoding_matches_the_code_generator(version):
    rec = _record(version)
    assert rec["triton"].startswith(version + ".")
    semantics = releases.for_version(rec["triton"], "record")
    stats, problems = _stats(version)
    unmodelled = {c.kind for c in releases.CHANGES if not c.modelled and semantics.basis < c.since}
    allowed = {"differs": {k for kind in unmodelled for k in (kind, "slice")},
               "register order": unmodelled,
               "broadcast registers": {"nvidia_mma", "dot_op(nvidia_mma)", "amd_mfma", "amd_wmma",
                                       "dot_op(amd_wmma)", "dot_op(blocked)"} if version == "3.9" else set()}
    for key in stats:
        if isinstance(key, tuple):
            verdict, kind = key
            assert kind in allowed[verdict], (verdict, kind, [p for p in problems if verdict in p][:3])
    assert {k: v for k, v in stats.items() if not isinstance(k, tuple)} == EXPECTED[version]


def test_every_release_has_a_record_of_the_same_cases():
    assert [f"{v[0]}.{v[1]}" for v in releases.CODEGEN_RECORDED] == VERSIONS
    cases = [c["case"] for c in _record("3.9")["cases"]]
    for v in VERSIONS:
        assert [c["case"] for c in _record(v)["cases"]] == cases
    assert releases.OLDEST_RECORDED == (2, 2)


def _root_version(text: str):
    node = parse_layout(text)
    while getattr(node, "parent", None) is not None:
        node = node.parent
    return getattr(node, "version", None), getattr(node, "version_major", None)


def _differing_kinds(older: str, newer: str) -> set[str]:
    out = set()
    for a, b in zip(_record(older)["cases"], _record(newer)["cases"], strict=True):
        if "bases" not in a or "bases" not in b or a.get("unheld") or b.get("unheld") or a["bases"] == b["bases"]:
            continue
        if _root_version(a["text"]) != _root_version(b["text"]):
            continue  # not the same layout: 3.0/3.1 print no WMMA version (a version 2 case reads as 1)
        out.add(releases.layout_kind(parse_layout(b["text"])))
    return out


# kinds whose probed bases differ from the release before: 3.2 the MFMA warp order and 3.0/3.1's MMA tensors
# smaller than the tile (and the slices of both); 3.9 the blocked change and its code generator dropping the
# registers that repeat an element of an MMA, MFMA, WMMA or operand tile
CHANGED_KINDS = {
    "3.0": {"slice"},
    "3.2": {"amd_mfma", "nvidia_mma", "slice"},
    "3.3": {"slice"},
    "3.6": {"dot_op(amd_mfma)"},
    "3.8": {"dot_op(amd_wmma)"},
    "3.9": {"blocked", "nvidia_mma", "dot_op(nvidia_mma)", "amd_mfma", "amd_wmma", "dot_op(amd_wmma)",
            "dot_op(blocked)"},
}


def test_the_change_table_is_what_the_code_generators_differ_by():
    """Between consecutive releases the kinds whose probed bases differ are those CHANGES lists (a slice
    differs with its parent), and 3.9's code generator dropping repeated registers."""
    for older, newer in zip(VERSIONS, VERSIONS[1:], strict=False):
        listed = {c.kind for c in releases.CHANGES if f"{c.since[0]}.{c.since[1]}" == newer}
        differ = _differing_kinds(older, newer)
        expected = CHANGED_KINDS.get(newer, set())
        assert differ == expected, (older, newer, differ)
        probed = {k for k in listed if not k.endswith("_shared")}
        assert probed <= differ, (newer, probed - differ)
