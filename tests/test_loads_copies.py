"""Why one access is several TTGIR ops (`AccessRow.copies`), from the loops that hold each copy."""

from __future__ import annotations

import json
from pathlib import Path

from tritonscope.loads.analyze import copies_cause
from tritonscope.stages import mlir

TTGIR = """\
module {
  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {
    %a = tt.load %p : !tt.ptr<f32> loc(#loc1)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (f32) : i32 {
      %b = tt.load %p : !tt.ptr<f32> loc(#loc1)
      %c = scf.if %t -> (f32) {
        %d = tt.load %p : !tt.ptr<f32> loc(#loc2)
        scf.yield %d : f32
      } else {
        %e = tt.load %p : !tt.ptr<f32> loc(#loc2)
        scf.yield %e : f32
      }
      scf.yield %c : f32
    }
    %f = tt.load %p : !tt.ptr<f32> loc(#loc1)
    %g = scf.for %j = %c0 to %n step %c1 iter_args(%y = %a) -> (f32) : i32 {
      %h = tt.load %p : !tt.ptr<f32> loc(#loc3)
      scf.yield %h : f32
    }
    %u = scf.for %j = %c0 to %n step %c1 iter_args(%y = %a) -> (f32) : i32 {
      %v = tt.load %p : !tt.ptr<f32> loc(#loc3)
      scf.yield %v : f32
    }
    tt.return
  }
}
#loc1 = loc("k.py":3:9)
#loc2 = loc("k.py":5:13)
#loc3 = loc("k.py":7:9)
"""


def test_copies_by_the_loops_that_hold_them():
    module = mlir.parse(TTGIR)
    loads = [op for op in module.ops if op.op == "tt.load"]
    by_line = {line: [op for op in loads if op.loc.line == line] for line in (3, 5, 7)}
    # before the loop, in it, after it: the pipeliner's prologue and the peeled last iteration
    assert copies_cause(by_line[3][:2], module.parents) == "pipelined-prologue"
    assert copies_cause(by_line[3][1:], module.parents) == "pipelined-epilogue"
    assert copies_cause(by_line[3], module.parents) == "pipelined-prologue-epilogue"
    # both arms of an `scf.if` in one loop body: the same loop holds them, an `if` is no loop
    assert copies_cause(by_line[5], module.parents) == "unrolled"
    # two loops of one depth (a loop compiled in two versions)
    assert copies_cause(by_line[7], module.parents) == "copied"
    assert module.parents[by_line[5][0].lineno].op == "scf.if"
    assert module.parents[module.parents[by_line[5][0].lineno].lineno].op == "scf.for"


def test_a_constant_loop_llvm_unrolled_explains_the_llir_count():
    """An Inductor reduction loads its 16x32 tile in a loop of 4 constant iterations: the layout gives one
    8-byte vector per run, LLVM unrolled the loop into 4 (the explanation said nothing of the 4x)."""
    from conftest import CORPUS

    from tritonscope.artifacts.cache import Cache
    from tritonscope.loads.analyze import analyze_entry

    (entry,) = [e for e in Cache(CORPUS / "inductor-h200-triton3.6" / "triton_cache").kernels()
                if e.hash.startswith("YK6H6B5O")]
    (row,) = [r for r in analyze_entry(entry).rows if r.line == 38 and r.op == "tt.load"]
    assert (row.predicted_vectors_per_thread, row.counts("llir")) == (
        1, {"ld.global.L1::evict_first.L2::cache_hint.v2.b32": 4})
    assert [(c.code, c.evidence) for c in row.count_changes] == [(
        "unrolled", "the layout gives 1 vector(s) per run, 4 in llir: the access runs 4 times per launch (the "
        "constant-bound scf.for loops around it) and LLVM unrolled the loop (4 x 1 = 4 at most)")]


def _copy_row(ttgir_line: int, elements: int, distinct: int):
    """A global f32 load at 57:36 in one layout: `elements` registers holding `distinct` elements; its PTX
    has one 4-byte load a register, SASS instructions shared with the other copy."""
    from tritonscope.loads.model import AccessRow

    row = AccessRow(file="k.py", line=57, col=36, chain="k.py:57:36", op="tt.load", kind="global_load",
                    instances=1, shape=(8, 1), dtype="f32", element_bits=32, layout="blocked",
                    layout_text=f"#blocked{ttgir_line}", mask=True, other=False, eviction="evict_last", cache=None)
    row.elements_per_thread, row.distinct_per_thread = elements, distinct
    row.stages = {"ptx": {"ld.global.b32": elements}}
    row.widths = {"ptx": {"ld.global.b32": 4}, "sass": {"LDG.E.EL": 4}}
    row.ambiguous = {"sass": {"LDG.E.EL": 5}}
    return row


def test_copies_settled_by_distinct_elements_where_each_address_is_loaded_once():
    """An Inductor reduction's 8x1 tile kept in two layouts at 57:36 (a CNN's batch-norm backward): 32
    registers holding 4 distinct elements, and 1 element; PTX loads every register (32 + 1), ptxas each
    distinct address once: the 5 LDGs they share are 4 + 1. The first row's 32 -> 4 is said to be the
    repeated elements loaded once."""
    from tritonscope.loads.join import settle_by_counts
    from tritonscope.loads.verdict import explain_counts

    wide, one = _copy_row(116, 32, 4), _copy_row(117, 1, 1)
    settle_by_counts("sass", [wide, one])
    assert (wide.stages["sass"], one.stages["sass"]) == ({"LDG.E.EL": 4}, {"LDG.E.EL": 1})
    assert not wide.ambiguous and not one.ambiguous
    explain_counts(wide, ["ptx", "sass"])
    (why,) = wide.count_changes
    assert why.code == "merged-identical-address" and "its 32 registers hold 4 distinct ones" in why.evidence
    # the elements themselves (32 + 1) do not add up to 5; neither does anything when a row has its own
    wide, one = _copy_row(116, 32, 4), _copy_row(117, 1, 1)
    one.stages["sass"] = {"LDG.E.EL": 1}
    settle_by_counts("sass", [wide, one])
    assert wide.ambiguous == {"sass": {"LDG.E.EL": 5}}


def _tile_store(col: int, own: int, shared: int):
    """A tile's `local_alloc` at 209:12 whose PTX has two 16-byte `st.shared.v4` and whose SASS has `own`
    `STS.128` of its own and `shared` more held in common with another row."""
    from tritonscope.loads.model import AccessRow

    row = AccessRow(file="k.py", line=209, col=12, chain=f"k.py:811:{col} @ k.py:209:12", op="ttg.local_alloc",
                    kind="shared_store", instances=1, shape=(64, 32), dtype="bf16", element_bits=16,
                    layout="blocked", layout_text="#blocked1", mask=False, other=False, eviction=None, cache=None)
    row.stages = {"ptx": {"st.shared.v4.b32": 2}, **({"sass": {"STS.128": own}} if own else {})}
    row.widths = {"ptx": {"st.shared.v4.b32": 16}, "sass": {"STS.128": 16}}
    row.ambiguous = {"sass": {"STS.128": shared}}
    return row


def test_split_by_the_guide_counts_what_a_row_holds_already():
    """SASS instructions two rows share are split by PTX's counts less what each row holds of its own: two
    tiles' stores with their two each already leave none of two more to take (they stay shared, none is
    lost); a row with none of its own takes its PTX count. Before, each row's share overwrote its own, and
    the shared instructions vanished."""
    from tritonscope.loads.join import split_ambiguous

    a, b = _tile_store(23, 2, 4), _tile_store(24, 2, 4)
    split_ambiguous("sass", "ptx", [a, b])
    assert a.stages["sass"] == b.stages["sass"] == {"STS.128": 2}
    assert a.ambiguous == b.ambiguous == {"sass": {"STS.128": 4}}
    a, b = _tile_store(23, 2, 2), _tile_store(24, 0, 2)
    split_ambiguous("sass", "ptx", [a, b])
    assert (a.stages["sass"], b.stages["sass"]) == ({"STS.128": 2}, {"STS.128": 2})
    assert not a.ambiguous and not b.ambiguous


def test_dot_operands_sharing_matrix_loads_of_two_forms_take_whole_forms(cli):
    """AutoAWQ's W4A16 GEMM on sm_89: at the dot's position the weights (64x128 f16, 64 registers) and the
    scales (1x128 f16 broadcast along M: 32 registers, 4 values) are read by 8 `ldmatrix.x4.trans` and one
    `.x2.trans` (PTX: the scales' one `st.shared.b16`, then the `.x2`; the weights' 8 `st.shared.v4`, then the
    8 `.x4`). No one form's count settled them: both rows listed all 9, `ambiguous` (helper 109)."""
    cache = Path(__file__).parent / "data" / "thirdparty-cuda89-triton3.9" / "awq"
    r = cli("loads", "77BGAC", "--cache-dir", str(cache), "--line", "231", "--json")
    assert r.returncode == 0, r.stderr
    rows = {row["where"]: row for row in json.loads(r.stdout)["rows"] if row["op"] == "ttg.local_load"}
    scales, weights = rows["231:13 (ttgir:252)"], rows["231:13 (ttgir:261)"]
    assert not scales["ambiguous"] and not weights["ambiguous"]
    assert scales["stages"]["ptx"] == {"ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16": 1}
    assert weights["stages"]["ptx"] == {"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16": 8}
    assert scales["stages"]["sass"] == {"LDSM.16.MT88.2": 1} and weights["stages"]["sass"] == {"LDSM.16.MT88.4": 8}
    assert scales["stages"]["llir"] == {"ldmatrix.sync.aligned.m8n8.x2.trans.b16.p3": 1}
    # wider than the layout's contiguity (8 and 16 bytes a lane, 2 contiguous): a matrix load's fragments
    assert scales["reasons"] == weights["reasons"] == ["matrix-load"]
    assert "read them transposed" in scales["evidence"]["matrix-load"]
