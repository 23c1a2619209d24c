"""A warp-specialized kernel (tests/data/kernels/ws_matmul.py: `tl.range(..., warp_specialize=True)`, TMA
descriptors), cross-compiled here for cuda:100 by Triton 3.9: its TTGIR holds a `ttg.warp_specialize` op
whose partitions (a TMA loader, an MMA issuer) have their own regions. Every access inside them gets its
rows and verdicts, the TMA copies and the tcgen05 MMA join SASS, map attributes the partitions' ops, and
the accumulator's tensor memory layout decodes to the columns Triton allocated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from tritonscope.artifacts import tools
from tritonscope.artifacts.cache import Cache
from tritonscope.loads.analyze import analyze_entry

KERNEL = Path(__file__).parent / "data" / "kernels" / "ws_matmul.py"


def _line(text: str) -> int:
    (n,) = [i for i, line in enumerate(KERNEL.read_text().splitlines(), 1) if line.strip().startswith(text)]
    return n


@pytest.fixture(scope="module")
def ws_cache(tmp_path_factory) -> Path:
    import triton

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 4):
        pytest.skip("warp_specialize needs Triton 3.4+")
    cache = tmp_path_factory.mktemp("ws") / "cache"
    r = run_cli("compile", f"{KERNEL}::matmul_ws_kernel", "--signature",
                "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp16,M=i32,N=i32,K=i32", "--constexpr", "BLOCK_M=128",
                "--constexpr", "BLOCK_N=128", "--constexpr", "BLOCK_K=64", "--constexpr", "NUM_SMS=132",
                "--num-warps", "4", "--target", "cuda:100", "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    return cache


def test_partitions_accesses_and_verdicts(ws_cache):
    (entry,) = Cache(ws_cache).kernels()
    assert "ttg.warp_specialize" in entry.files["ttgir"].read_text()
    report = analyze_entry(entry, sass=tools.find_nvidia_tool("nvdisasm") is not None)
    rows = {(r.line, r.kind) for r in report.rows}
    a, dot, store = _line("a = a_desc.load"), _line("accumulator = tl.dot"), _line("c_desc.store")
    assert {(a, "tma_load"), (dot, "mma_shared"), (store, "tma_store"), (store, "shared_store")} <= rows
    assert all(r.verdict != "unknown" for r in report.rows), [(r.line, r.op, r.reasons) for r in report.rows]
    (load_a,) = [r for r in report.rows if (r.line, r.kind) == (a, "tma_load")]
    assert load_a.counts("ptx") == {"cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes": 1}
    if "sass" in report.stages:
        assert load_a.counts("sass") == {"UTMALDG.2D": 1}
        (mma,) = [r for r in report.rows if r.kind == "mma_shared"]
        assert set(mma.counts("sass")) == {"UTCHMMA"} and mma.attribution == "exact"


def test_map_attributes_the_partitions_ops(ws_cache):
    r = run_cli("map", "matmul_ws_kernel", "--cache-dir", str(ws_cache), "--line", str(_line("a = a_desc.load")),
                "--stages", "ttgir,llir,ptx", "--json")
    assert r.returncode == 0, r.stderr
    stages = {s["stage"]: s for s in json.loads(r.stdout)["stages"]}
    # the loader partition's ring-buffer bookkeeping, its barrier wait and the TMA copy are the load's
    assert "ttng.async_tma_copy_global_to_local" in stages["ttgir"]["kinds"]
    assert "ttng.wait_barrier" in stages["ttgir"]["kinds"]
    assert stages["llir"]["count"] and stages["ptx"]["count"]


def test_tensor_memory_layout_is_decoded(ws_cache):
    """The accumulator's TMEM: 128 lanes x 128 columns per buffer, two buffers side by side; their 256
    columns are what Triton's allocation pass recorded (tmem_size)."""
    r = run_cli("layout", "matmul_ws_kernel", "--cache-dir", str(ws_cache), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    (tmem,) = [a for a in doc["layouts"] if a["kind"] == "tensor_memory_encoding"]
    facts = {tuple(u["shape"]): u["facts"] for u in tmem["uses"]}
    assert facts[(2, 128, 128)]["columns"] == doc["tmem_columns"] == 256
    assert facts[(128, 128)]["columns_per_buffer"] == 128 and facts[(128, 128)]["lanes_holding"] == 128
    r = run_cli("layout", "matmul_ws_kernel", "--cache-dir", str(ws_cache))
    assert "tensor memory: 128 lanes x 128 32-bit columns x 2 buffers = 256 of the SM's 512 columns" in r.stdout
    assert "Triton allocated 256 of the SM's 512 tensor memory columns" in r.stdout
    assert "at most 2 of its CTAs hold their tensor memory on an SM at once" in r.stdout
    r = run_cli("layout", "matmul_ws_kernel", "--cache-dir", str(ws_cache), "--alias", "tmem", "--element", "1,70,5")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "element (1, 70, 5) is at lane 70, column 133 (block 0)"


def test_damaged_tmem_size_is_said_not_divided(ws_cache, tmp_path):
    import shutil

    cache = tmp_path / "cache"
    shutil.copytree(ws_cache, cache)
    (meta,) = [p for p in cache.rglob("matmul_ws_kernel.json")]
    doc = json.loads(meta.read_text())
    doc["tmem_size"] = 4096
    meta.write_text(json.dumps(doc))
    r = run_cli("layout", "matmul_ws_kernel", "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    assert "the metadata records 4096 tensor memory columns, more than an SM's 512" in r.stdout
    doc["tmem_size"] = "256"  # not a number: no tensor memory size, in every command
    meta.write_text(json.dumps(doc))
    r = run_cli("ls", "--cache-dir", str(cache), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["entries"][0]["tmem_columns"] is None
    r = run_cli("layout", "matmul_ws_kernel", "--cache-dir", str(cache))
    assert r.returncode == 0 and "note: the metadata records no tensor memory size" in r.stdout
