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
