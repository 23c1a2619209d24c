"""Every access of every corpus kernel (Triton 3.2, 3.9, Inductor on Triton 3.6) gets a row and a verdict.

A row covers each TTGIR memory op exactly once (pipeline clones fold into one row with `instances`); an
entry with a final ISA has no `unknown` row; an entry without one (a partial compile) says `no-isa`.
"""

from __future__ import annotations

import collections

import pytest

from tritonscope.artifacts.cache import Cache
from tritonscope.loads.analyze import VERDICTS, analyze_entry
from tritonscope.loads.sites import is_mma_from_shared
from tritonscope.stages import memops, parse_entry_stage


def _sweep(cache_dir, sass: bool = False) -> collections.Counter:
    verdicts: collections.Counter = collections.Counter()
    entries = [e for e in Cache(cache_dir).entries() if "ttgir" in e.files]
    assert entries
    for entry in entries:
        report = analyze_entry(entry, sass=sass)
        ttgir = parse_entry_stage(entry, "ttgir")
        accesses = sum(1 for op in ttgir.ops if memops.classify("ttgir", op) is not None or is_mma_from_shared(op))
        assert sum(r.instances for r in report.rows) == accesses, entry.path
        has_isa = "ptx" in entry.files or "amdgcn" in entry.files
        for row in report.rows:
            assert row.verdict in VERDICTS
            if has_isa:
                assert row.verdict != "unknown", (entry.name, str(entry.target), row.line, row.op, row.reasons)
            else:
                assert [r.code for r in row.reasons] == ["no-isa"]
            assert row.to_json(report.isa_stage)["verdict"] == row.verdict
            verdicts[row.verdict] += 1
    return verdicts


def test_sweep_triton39(cache39):
    v = _sweep(cache39)
    # 100 memory ops, and one warp_group_dot (cuda:90) reading an operand from shared memory
    assert v["unknown"] == 0 and sum(v.values()) == 101


def test_sweep_triton32(cache32):
    v = _sweep(cache32)
    assert sum(v.values()) > 0


def test_sweep_inductor(inductor_cache):
    v = _sweep(inductor_cache)
    assert v["unknown"] == 0 and v["as-predicted"] > v["scalar"] > 0


@pytest.mark.parametrize("target", ["cuda:80", "cuda:90"])
def test_sweep_triton39_with_sass(cache39, target):
    """With SASS joined (nvdisasm from the triton wheel), the CUDA kernels still get every verdict."""
    for entry in Cache(cache39).kernels():
        if str(entry.target) != target:
            continue
        report = analyze_entry(entry)
        if "sass" not in report.stages:
            pytest.skip("nvdisasm not available: " + "; ".join(report.notes))
        assert all(r.verdict != "unknown" for r in report.rows), entry.name


def test_a_conversion_s_loads_at_a_local_load_s_position_are_its_own():
    """xformers' lightning attention (H100, Triton 3.6), line 390:16: beside the `ttg.local_load` of a 64x32
    bf16 tile stand two `ttg.convert_layout`s (an i32 slice, a pointer tensor) whose shared-memory round
    trips (`load i32`, `load i64`; `ld.shared.b32`, `ld.shared.b64`) were the load's."""
    from pathlib import Path

    entry_dir = (Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "xformers" /
                 "YFDNCOBXAZ7ERO5EQOUCBL7F5RHPOJDJV2WYFFIKCUDA7CVT7UZA")
    [entry] = [e for e in Cache(entry_dir.parent).kernels() if e.path == entry_dir]
    report = analyze_entry(entry, sass=False)
    row = next(r for r in report.rows if r.where == "390:16" and r.op == "ttg.local_load")
    assert row.stages == {"llir": {"load <4 x bfloat>": 4}, "ptx": {"ld.shared.v4.b32": 2}}
    left = {(u["stage"], u["form"]): u["count"] for u in report.unattributed if (u["line"], u["col"]) == (390, 16)}
    assert (left[("llir", "load i64")], left[("llir", "load i32")], left[("ptx", "ld.shared.b64")]) == (2, 1, 2)


def test_a_load_s_hints_are_read_as_the_metrics_read_them(cache23):
    """`loads` parsed hints apart from the metrics: Triton 2.x's default `cache = 1 : i32` showed as `cache 1`
    on 35 rows, 3.9's default `eviction_policy = evict_normal` as a hint on 8."""
    from tritonscope.stages.memops import mlir_hint_values

    rows = [r for e in Cache(cache23).kernels() if e.kind == "kernel" for r in analyze_entry(e, sass=False).rows]
    assert rows and all(r.cache is None and r.eviction is None for r in rows)
    text = ("%1 = tt.load %0 {cachePolicy = #tt.cache_policy<cache_modifier = ca, eviction_policy = "
            "evict_normal>} : tensor<4x!tt.ptr<f16>>")
    assert list(mlir_hint_values(text)) == [("cache_modifier", "ca")]
