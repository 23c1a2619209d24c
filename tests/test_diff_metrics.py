"""Metrics per kernel and stage (diff's deltas), checked against grep and cuobjdump on the corpus."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tritonscope.artifacts.cache import Cache
from tritonscope.artifacts.nvinfo import cubin_resources
from tritonscope.artifacts.tools import find_nvidia_tool
from tritonscope.diff.metrics import amdgcn_resources
from tritonscope.diff.normalize import NormalizeOptions
from tritonscope.diff.records import record_for_entry

CUOBJDUMP_USAGE = re.compile(r"Function (\S+):\n\s*REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)")


def _record(cache: Path, name: str, target: str):
    found = [e for e in Cache(cache).kernels() if e.name == name and str(e.target) == target and e.kind == "kernel"]
    assert len(found) == 1
    return record_for_entry(found[0], NormalizeOptions())


def test_cubin_resources_match_cuobjdump(corpus):
    tool = find_nvidia_tool("cuobjdump")
    if tool is None:
        pytest.skip("cuobjdump not installed")
    cubins = sorted(corpus.glob("*/*/*.cubin")) + sorted(corpus.glob("*/*/*/*.cubin"))
    assert len(cubins) == 50
    checked = 0
    for path in cubins:
        ours = cubin_resources(path.read_bytes(), str(path))
        out = subprocess.run([tool, "--dump-resource-usage", str(path)], capture_output=True, text=True,
                             check=True).stdout
        for m in CUOBJDUMP_USAGE.finditer(out):
            r = ours[m.group(1)]
            assert (r.registers, r.stack_bytes, r.static_shared_bytes, r.local_bytes) == \
                tuple(int(g) for g in m.groups()[1:]), path
            checked += 1
    assert checked == 50


def test_amdgcn_resources_from_comments_and_yaml(cache32):
    [path] = [e.files["amdgcn"] for e in Cache(cache32).kernels()
              if e.name == "add_kernel" and str(e.target) == "hip:gfx942"]
    # ; NumVgprs: 6 / ; TotalNumSgprs: 16 / ; Occupancy: 8 / ; codeLenInByte = 172 / .vgpr_spill_count: 0
    assert amdgcn_resources(path.read_text()) == {
        "vgprs": 6, "agprs": 0, "sgprs": 16, "regs": 6, "spills": 0, "scratch": 0, "lds": 0,
        "code_bytes": 172, "occupancy": 8}


def test_ptx_op_classes_and_cache_hints(cache32, cache39):
    a = _record(cache32, "gemv_tile_kernel", "cuda:80").metrics
    b = _record(cache39, "gemv_tile_kernel", "cuda:80").metrics
    # grep -c 'ld\.global' = 33 both; 32 of them `.v4.b32` (16 bytes), one `ld.global.b16`
    for m in (a, b):
        assert (m["ops:global_load"], m["ops:global_load.16B"], m["ops:global_load.2B"]) == (33, 32, 1)
        assert m["ops:barrier"] == 3  # bar.sync
        assert m["regs"] == 168 and m["smem"] == 1024 and m["num_warps"] == 2
    # grep -c 'ld\.global.*L2::cache_hint': 0 in 3.2, 32 in 3.9
    assert "ops:hint:L2::cache_hint" not in a and b["ops:hint:L2::cache_hint"] == 32
    assert a["ops:hint:L1::evict_first"] == b["ops:hint:L1::evict_first"] == 32


def test_a_load_hint_has_one_name_in_every_release(cache32, cache39, cache23):
    # 3.2 prints `evictionPolicy = evict_first`, 3.9 `eviction_policy = evict_first` in a #tt.cache_policy:
    # the metric was `ops:hint:evictionPolicy=...` on one side and `eviction_policy=...` on the other, so a
    # rule written against one spelling failed on every kernel of the other release.
    a = _record(cache32, "gemv_loop_kernel", "cuda:80").metrics
    b = _record(cache39, "gemv_loop_kernel", "cuda:80").metrics
    assert a["ops:hint:eviction_policy=evict_first@ttgir"] == b["ops:hint:eviction_policy=evict_first@ttgir"] == 1
    assert not [k for k in (*a, *b) if "evictionPolicy" in k]
    # 2.x writes the enums' numbers (`cache = 1 : i32, evict = 1 : i32`: the defaults), 3.0-3.3
    # `cacheModifier = cg`; 3.9's default `eviction_policy = evict_normal` is no hint either
    from tritonscope.stages.common import Op
    from tritonscope.stages.memops import _classify_mlir

    def hints(text):
        return _classify_mlir(Op(1, "tt.load", text)).cache_hints

    assert hints("%1 = tt.load %0 {cache = 1 : i32, evict = 1 : i32, isVolatile = false} : tensor<4xf16>") == ()
    assert hints("%1 = tt.load %0 {cache = 3 : i32, evict = 2 : i32} : tensor<4x!tt.ptr<f16>>") == (
        "eviction_policy=evict_first", "cache_modifier=cg")
    assert hints("%1 = tt.load %0 cacheModifier = cs evictionPolicy = evict_last : tensor<4x!tt.ptr<f16>>") == (
        "eviction_policy=evict_last", "cache_modifier=cs")
    assert hints("%1 = tt.load %0 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = "
                 "evict_normal>} : tensor<4x!tt.ptr<f16>>") == ()
    old = [r for r in _record_all(cache23) if any(k.startswith("ops:hint:cache") for k in r.metrics)]
    assert old == []  # (2.3.1's loads are all default: `cache = 1`, no `cache=1` hint)


def _record_all(cache: Path):
    return [record_for_entry(e, NormalizeOptions()) for e in Cache(cache).kernels() if e.kind == "kernel"]


def test_llir_vector_loads_and_mfma(cache32, cache39):
    a = _record(cache32, "matmul_kernel", "hip:gfx90a")
    b = _record(cache39, "matmul_kernel", "hip:gfx90a")
    # 3.2: four `llvm.masked.load.v8f16.p1` calls; 3.9: ten `load <8 x half>, ptr addrspace(1)`
    assert a.metrics["ops:global_load.16B@llir"] == 4 and b.metrics["ops:global_load.16B@llir"] == 10
    # AMDGCN: global_load_dwordx4 4 -> 10, v_mfma 8 -> 20, TotalNumVgprs 72 -> 60, Occupancy 7 -> 8
    assert (a.metrics["ops:global_load"], b.metrics["ops:global_load"]) == (4, 10)
    assert (a.metrics["ops:mfma"], b.metrics["ops:mfma"]) == (8, 20)
    assert (a.metrics["regs"], b.metrics["regs"]) == (72, 60)
    assert (a.metrics["occupancy"], b.metrics["occupancy"]) == (7, 8)
    assert a.metrics["vector-width"] == b.metrics["vector-width"] == 16


def test_load_sites_from_llir_locations(cache32, cache39):
    # kernels.py:173 `w = tl.load(..., eviction_policy="evict_first")` (16 B), :174 `xk = tl.load(...)` (2 B)
    for cache in (cache32, cache39):
        assert _record(cache, "gemv_tile_kernel", "cuda:90").load_sites == {"kernels.py:173": 16,
                                                                            "kernels.py:174": 2}


def test_specialization_from_ir_signature(cache32, cache39):
    a = _record(cache32, "add_kernel", "cuda:80")
    b = _record(cache39, "add_kernel", "cuda:80")
    args = ["!tt.ptr<f16> {tt.divisibility = 16 : i32}"] * 3 + ["i32 {tt.divisibility = 16 : i32}"]
    assert a.spec == b.spec == {
        "ir_signature": {"args": args, "attributes": "{noinline = false}"},
        "num_ctas": 1, "num_stages": 3, "num_warps": 4}


def test_llir_text_prefilter_admits_every_pattern():
    """classify_ops skips the LLIR text classes for lines `may_match_llir_text_class` rejects: every
    alternative of every pattern, written out literally, must pass it."""
    import re

    from tritonscope.diff.metrics import LLIR_TEXT_CLASSES, may_match_llir_text_class

    for cls, pattern in LLIR_TEXT_CLASSES:
        for alternative in pattern.pattern.split("|"):
            literal = alternative.replace("\\b", "").replace("\\", "")
            assert re.search(pattern, literal), (cls, alternative)  # the literal is a match
            assert may_match_llir_text_class(literal), (cls, alternative)
    assert not may_match_llir_text_class("%5 = add i32 %3, %4, !dbg !12")


def test_async_copies_are_counted_once(cache39):
    """`ops:async_copy` added the copies `memops` classifies to every `cp.async*` name (commit and wait
    groups included): 35 for a matmul with 12 `cp.async.cg`, and twice the TTGIR's async copies."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.diff.normalize import NormalizeOptions
    from tritonscope.diff.records import record_for_entry

    (entry,) = [e for e in Cache(cache39).kernels() if e.hash.startswith("FK4O4HMC")]
    metrics = record_for_entry(entry, NormalizeOptions()).metrics
    ptx = next(entry.path.glob("*.ptx")).read_text()
    ttgir = next(entry.path.glob("*.ttgir")).read_text()
    assert metrics["ops:async_copy@ptx"] == metrics["ops:async_copy"] == len(re.findall(r"cp\.async\.c[ga]\.", ptx))
    assert metrics["ops:async_copy@ttgir"] == ttgir.count("ttg.async_copy_global_to_local ")


def test_vgprs_of_a_listing_without_comments_leave_the_agprs_out():
    """Before 3.3 the AMDGCN has no `; NumVgprs` comment; its `.vgpr_count` is the total of the unified
    register file on gfx90a and later (84 = 52 VGPRs + 32 AGPRs), which read as 84 VGPRs: a 52 -> 78
    growth to 3.3 showed as 84 -> 78."""
    from pathlib import Path

    from tritonscope.diff.metrics import amdgcn_resources

    (listing,) = Path(__file__).parent.glob("data/releases-3.0-3.4/3.1/*/matmul_kernel.amdgcn")
    found = amdgcn_resources(listing.read_text())
    assert (found["vgprs"], found["agprs"], found["regs"]) == (52, 32, 84)


def test_tensor_memory_is_none_in_a_release_from_before_it(cache32, cache39):
    # 3.2's metadata has no tmem_size: `tmem ? -> 0` showed as a change on every kernel (and tripped
    # `--fail-on any`); the release allocated none
    a = _record(cache32, "add_kernel", "cuda:80").metrics
    b = _record(cache39, "add_kernel", "cuda:80").metrics
    assert a["tmem"] == b["tmem"] == 0
    from tritonscope.diff.metrics import metadata_metrics

    assert "tmem" not in metadata_metrics({"name": "k"})  # (no metadata to tell the release by)


def test_a_gfx12_barrier_is_one_barrier():
    """gfx12 splits a barrier into `s_barrier_signal` and `s_barrier_wait` (LLIR's `s.barrier.signal` and
    `.wait`): `ops:barrier` counted each twice, and `diff` of a kernel from gfx1100 to gfx1201 said
    barriers doubled (helper 55: 5 -> 10)."""
    root = Path(__file__).parent / "data" / "thirdparty-rdna-triton3.9" / "liger"
    (entry,) = [e for e in Cache(root).kernels() if e.hash.startswith("IQCEYDO7")]
    assert str(entry.target) == "hip:gfx1201"
    metrics = record_for_entry(entry, NormalizeOptions()).metrics
    gcn = next(entry.path.glob("*.amdgcn")).read_text()
    signals = len(re.findall(r"^\s*s_barrier_signal\b", gcn, re.M))
    assert signals == len(re.findall(r"^\s*s_barrier_wait\b", gcn, re.M)) == 11
    assert metrics["ops:barrier@amdgcn"] == metrics["ops:barrier@llir"] == signals


def test_rdna_workgroups_have_64_kib_of_lds():
    """RDNA (gfx10, gfx11, gfx12) had no shared memory limit: a 128 KiB gfx1100 kernel was not flagged."""
    from tritonscope.artifacts.cache import Target, shared_limit

    for arch in ("gfx1030", "gfx1100", "gfx1151", "gfx1200", "gfx1201"):
        assert shared_limit(Target("hip", arch, 32)) == 64 << 10, arch
    assert shared_limit(Target("hip", "gfx950", 64)) == 160 << 10 and shared_limit(Target("hip", "gfx1250")) is None


def test_two_address_lds_forms_counted_by_their_two_values():
    """An AMD kernel's `ds_read2_b64` moves two 8-byte values at two addresses: diff's width classes count it
    as `.2x8B`, apart from a real 16-byte `ds_read_b128` (both were `.16B`, hiding a change from paired
    reads to b128 between gfx942 and gfx950). Liger's fused MoE up-projection on gfx942: 16 `ds_read2_b64`,
    16 `ds_read_b64`, 4 `ds_write2st64_b64`, 4 `ds_write_b64` (grep of its .amdgcn)."""
    folder = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "liger"
    (entry,) = [e for e in Cache(folder).kernels() if e.hash.startswith("NIQJ7W7F")]
    metrics = record_for_entry(entry, NormalizeOptions()).metrics
    shared = {k: v for k, v in metrics.items() if k.startswith("ops:shared_") and "@" not in k}
    assert shared == {"ops:shared_load": 32, "ops:shared_load.2x8B": 16, "ops:shared_load.8B": 16,
                      "ops:shared_store": 8, "ops:shared_store.2x8B": 4, "ops:shared_store.8B": 4}
