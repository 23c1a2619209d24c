"""`loads` on kernels compiled here: the issue's negative cases and the sample kernels.

The gemv sample's tile load, compiled (by `tritonscope compile`, Triton 3.9) three ways:
- as launched with aligned tensors: 16-byte vectors;
- `gemv-unaligned` (w_ptr not specialized, so no tt.divisibility): scalar `global_load_ushort` on gfx942,
  `ld.global...b16` on cuda:90, flagged `unknown-alignment`;
- `gemv-kmask` (a ragged K: the mask varies along k, the contiguous dim): scalarized, flagged
  `mask-on-contiguous-dim`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonscope.cache import Cache
from tritonscope.loads import VERDICTS, analyze_entry

TILE_LINE = 40  # sample_kernels/gemv.py: w = tl.load(w_ptrs, mask=w_mask, other=0.0, eviction_policy=...)


def _report(result):
    assert result.ok, result.error.headline()
    entries = Cache(Path(result.entry)).kernels()
    assert len(entries) == 1
    return analyze_entry(entries[0], sass=False)


def _tile(report):
    rows = [r for r in report.rows if r.line == TILE_LINE]
    assert len(rows) == 1, [(r.line, r.op) for r in report.rows]
    return rows[0]


def test_aligned_tile_vectorizes(compile_kernel):
    tile = _tile(_report(compile_kernel("gemv", target="hip:gfx942")))
    assert (tile.shape, tile.predicted_vector_bytes, tile.vector_bytes, tile.verdict) == ((64, 256), 16, 16,
                                                                                          "as-predicted")
    assert tile.stages["amdgcn"] == {"buffer_load_dwordx4": 8}


def test_unaligned_tile_is_scalar_for_unknown_alignment_gfx942(compile_kernel):
    tile = _tile(_report(compile_kernel("gemv-unaligned", target="hip:gfx942")))
    assert tile.stages["amdgcn"] == {"global_load_ushort": 64}
    assert tile.stages["llir"] == {"load <1 x half>": 64}
    assert (tile.vector_bytes, tile.verdict) == (2, "scalar")
    codes = [r.code for r in tile.reasons]
    assert codes[0] == "unknown-alignment"
    assert "w_ptr" in tile.reasons[0].evidence
    assert {a["value"] for a in tile.alignment if "type" in a and "tt.divisibility" not in a} == {"w_ptr"}


def test_unaligned_tile_is_scalar_for_unknown_alignment_cuda90(compile_kernel):
    tile = _tile(_report(compile_kernel("gemv-unaligned", target="cuda:90")))
    assert tile.stages["ptx"] == {"ld.global.L1::evict_first.L2::cache_hint.b16": 128}
    assert (tile.verdict, tile.reasons[0].code) == ("scalar", "unknown-alignment")


@pytest.mark.parametrize("target,isa,form,count", [
    ("hip:gfx942", "amdgcn", "buffer_load_ushort", 64),
    ("cuda:90", "ptx", "ld.global.L1::evict_first.L2::cache_hint.b16", 128),
])
def test_mask_along_k_scalarizes(compile_kernel, target, isa, form, count):
    tile = _tile(_report(compile_kernel("gemv-kmask", target=target)))
    assert tile.stages[isa] == {form: count}
    assert (tile.contiguous_per_thread, tile.predicted_vector_bytes) == (8, 16)
    assert (tile.vector_bytes, tile.verdict) == (2, "scalar")
    assert [r.code for r in tile.reasons] == ["mask-on-contiguous-dim"]


def test_every_sample_access_gets_a_verdict(compiled_cache):
    """Each sample kernel, cuda:90 and hip:gfx942: every access a row, none unknown, nothing crashes."""
    kernels = Cache(compiled_cache).kernels()
    assert len(kernels) >= 14
    for entry in kernels:
        report = analyze_entry(entry, sass=False)
        assert report.rows, entry.name
        for row in report.rows:
            assert row.verdict in VERDICTS
            assert row.verdict != "unknown", (entry.name, str(entry.target), row.line, row.op, row.reasons)
