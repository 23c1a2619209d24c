"""`loads` on the real corpus: the issue's ground truth, exactly, plus the joins that make it come out.

gemv_tile_kernel (kernels.py:158) compiled by Triton 3.9 for hip:gfx942 and cuda:90; every number below was
read off the artifacts (`grep -c` on the stage files) before it was written here.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tritonscope.artifacts.cache import Cache
from tritonscope.loads.analyze import analyze_entry
from tritonscope.stages import parse
from tritonscope.stages import ptx as ptx_parser

GFX942_W_LAYOUT = ("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], "
                   "order = [0, 1]}>")
CUDA90_W_LAYOUT = ("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], "
                   "order = [0, 1]}>")


def _entry(cache_dir, name: str, target: str):
    return next(e for e in Cache(cache_dir).kernels() if e.name == name and str(e.target) == target)


def _row(report, line: int, op: str = "tt.load"):
    rows = [r for r in report.rows if r.line == line and r.op == op]
    assert len(rows) == 1, [(r.line, r.col, r.op) for r in report.rows]
    return rows[0]


@pytest.fixture(scope="module")
def gfx942(cache39):
    return analyze_entry(_entry(cache39, "gemv_tile_kernel", "hip:gfx942"))


@pytest.fixture(scope="module")
def cuda90(cache39):
    return analyze_entry(_entry(cache39, "gemv_tile_kernel", "cuda:90"))


def test_gemv_tile_gfx942_w_tile(gfx942):
    w = _row(gfx942, 173)
    assert (w.col, w.shape, w.dtype, w.layout, w.layout_text) == (9, (64, 256), "f16", "blocked", GFX942_W_LAYOUT)
    assert (w.mask, w.other, w.eviction) == (True, True, "evict_first")
    assert (w.threads, w.elements_per_thread, w.contiguous_per_thread, w.fastest_dim) == (128, 128, 8, 0)
    assert (w.predicted_vector_bytes, w.predicted_vectors_per_thread) == (16, 16)
    assert w.stages["llir"] == {"load <8 x half>": 16}
    assert w.stages["amdgcn"] == {"global_load_dwordx4": 16}
    assert (w.vector_bytes, w.verdict, w.reasons, w.attribution) == (16, "as-predicted", [], "exact")
    # AMD lowers the mask (constant along the contiguous dim) to one branch per 16-byte vector.
    assert w.llir_guarded == 16
    assert {a["value"]: a.get("tt.divisibility") for a in w.alignment} == {"w_ptr": 16, "stride_wn": 16}


def test_gemv_tile_gfx942_vector_and_store(gfx942):
    x = _row(gfx942, 174)
    assert (x.col, x.shape, x.layout, x.elements_per_thread, x.predicted_vector_bytes) == (10, (64,), "slice", 8, 16)
    assert x.stages == {"llir": {"load <8 x half>": 1}, "amdgcn": {"global_load_dwordx4": 1}}
    assert x.verdict == "as-predicted"
    st = _row(gfx942, 177, "tt.store")
    assert st.stages == {"llir": {"store <2 x float>": 1}, "amdgcn": {"global_store_dwordx2": 1}}
    assert (st.predicted_vector_bytes, st.vector_bytes, st.verdict) == (8, 8, "as-predicted")
    assert [r.line for r in gfx942.rows] == [173, 174, 177]
    # The reduction's layout conversion on line 177 goes through LDS: listed, not charged to the store.
    assert {(u["stage"], u["form"], u["count"]) for u in gfx942.unattributed if u["line"] == 177} == {
        ("llir", "load <1 x float>", 2), ("llir", "store <4 x float>", 4),
        ("amdgcn", "ds_read_b32", 2), ("amdgcn", "ds_write_b128", 4)}


def test_gemv_tile_cuda90_w_tile(cuda90):
    w = _row(cuda90, 173)
    assert (w.layout_text, w.threads, w.elements_per_thread, w.contiguous_per_thread) == (CUDA90_W_LAYOUT, 64, 256, 8)
    assert (w.predicted_vector_bytes, w.predicted_vectors_per_thread) == (16, 32)
    assert w.stages["llir"] == {"ld.global.L1::evict_first.L2::cache_hint.v4.b32": 32}
    assert w.stages["ptx"] == {"ld.global.L1::evict_first.L2::cache_hint.v4.b32": 32}
    assert (w.vector_bytes, w.verdict) == (16, "as-predicted")
    if "sass" in cuda90.stages:
        assert w.stages["sass"] == {"LDG.E.EF.128": 32}
        assert w.vector_stage == "sass"


def test_gemv_tile_cuda90_x_is_scalar_by_layout(cuda90):
    x = _row(cuda90, 174)
    assert (x.layout, x.contiguous_per_thread, x.predicted_vector_bytes) == ("blocked1", 1, 2)
    assert x.stages["ptx"] == {"ld.global.b16": 1}
    assert (x.vector_bytes, x.verdict, [r.code for r in x.reasons]) == (2, "scalar", ["one-per-thread",
                                                                                     "layout-contiguity-1"])


def test_ptx_inline_asm_locs_are_not_source_lines(cache39):
    """In the raw PTX the line-173 loads sit under `.loc 1 174 9` (line 2 of the createpolicy asm block)."""
    entry = _entry(cache39, "gemv_tile_kernel", "cuda:90")
    text = entry.stage_path("ptx").read_text()
    raw = ptx_parser.parse(text, inline_asm_locs=True)
    fixed = parse("ptx", text)
    assert fixed.notes == ["ignored 4 `.loc` lines inside inline asm blocks (LLVM numbers the lines of an asm "
                           "string from its call's line; they are not source positions)"]
    assert not raw.notes

    def lines(module, mnemonic):
        return sorted({o.loc.outermost().line for o in module.ops if o.op == mnemonic})

    assert lines(raw, "ld.global.L1::evict_first.L2::cache_hint.v4.b32") == [174]
    assert lines(fixed, "ld.global.L1::evict_first.L2::cache_hint.v4.b32") == [173]
    assert lines(raw, "ld.global.b16") == [175]
    assert lines(fixed, "ld.global.b16") == [174]


def test_sass_lines_follow_the_ptx_fix(cuda90):
    if "sass" not in cuda90.stages:
        pytest.skip("nvdisasm not available")
    assert _row(cuda90, 174).stages["sass"] == {"LDG.E.U16": 1}
    assert _row(cuda90, 177, "tt.store").stages["sass"] == {"STG.E.128": 1}


def test_inductor_cache_hint_b16_counted_in_ptx(inductor_cache):
    """An unpredicated `ld.global.L1::evict_last.L2::cache_hint.b16` (no `@%p`) used to be read as a label."""
    entries = [e for e in Cache(inductor_cache).kernels()
               if e.name == "triton_poi_fused__unsafe_view_add_clone_squeeze_transpose_unsqueeze_view_2"]
    assert entries
    for e in entries:
        rep = analyze_entry(e, sass=False)
        row = next(r for r in rep.rows if r.line == 28)
        assert row.stages["ptx"] == {"ld.global.L1::evict_last.L2::cache_hint.b16": 1}
        assert row.eviction == "evict_last"


def test_more_instructions_none_narrower_are_copies_not_a_cut(inductor_cache):
    """Inductor's triton_mm template on the H200: its A tile copies (3 16-byte `cp.async.cg` in PTX, the
    pipeline's prologue and its 32-trip K loop) are 33 `LDGSTS.E.BYPASS.128` in SASS, every one as wide:
    ptxas unrolled the loop whole (no branch is left in the SASS). The count change says copies, instead of
    offering a vector cut."""
    (entry,) = [e for e in Cache(inductor_cache).kernels() if e.hash.startswith("3HOYGUHP")]
    rep = analyze_entry(entry)
    if "sass" not in rep.stages:
        pytest.skip("nvdisasm not available")
    (row,) = [r for r in rep.rows if r.line == 77 and r.kind == "async_copy"]
    assert row.stages["ptx"] == {"cp.async.cg.shared.global": 3} and row.stages["sass"] == {"LDGSTS.E.BYPASS.128": 33}
    (change,) = row.count_changes
    assert change.code == "split" and "none narrower (no vector was cut): copies of them" in change.evidence
    assert "a vector cut into narrower ones" not in change.evidence


def test_shared_memory_rows_use_the_shared_layout(cache39):
    rep = analyze_entry(_entry(cache39, "matmul_kernel", "hip:gfx942"))
    store = next(r for r in rep.rows if r.op == "ttg.local_store" and r.line == 132)
    assert store.stages["amdgcn"] == {"ds_write_b64": 10}
    assert (store.predicted_vector_bytes, store.verdict) == (8, "as-predicted")
    load = next(r for r in rep.rows if r.op == "ttg.local_load" and r.line == 133)
    assert load.stages["amdgcn"] == {"ds_read_u16": 80}
    assert (load.verdict, [x.code for x in load.reasons]) == ("scalar", ["shared-layout"])


def test_partial_entries_get_unknown_rows(cache32):
    """Triton 3.2 could not finish gfx906: TTGIR only; every access still gets a row and a verdict."""
    entries = [e for e in Cache(cache32).entries() if e.target is not None and e.target.arch == "gfx906"
               and "ttgir" in e.files and "llir" not in e.files]
    assert entries
    rep = analyze_entry(entries[0])
    assert rep.rows and all(r.verdict == "unknown" and r.reasons[0].code == "no-isa" for r in rep.rows)


def test_cli_json_contract(cli, cache39):
    p = cli("loads", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert (doc["kind"], doc["isa_stage"]) == ("loads", "amdgcn")
    row = next(r for r in doc["rows"] if r["line"] == 173)
    required = {"line", "col", "op", "shape", "dtype", "layout", "predicted_vector_bytes", "vector_bytes", "llir",
                "isa", "verdict", "reasons"}
    assert required <= set(row)
    assert (row["col"], row["op"], row["shape"], row["dtype"], row["layout"]) == (9, "tt.load", [64, 256], "f16",
                                                                                  "blocked")
    assert (row["llir"], row["isa"]) == ({"load <8 x half>": 16}, {"global_load_dwordx4": 16})
    assert (row["predicted_vector_bytes"], row["vector_bytes"], row["verdict"], row["reasons"]) == (
        16, 16, "as-predicted", [])
    vec = next(r for r in doc["rows"] if r["line"] == 174)
    assert (vec["llir"], vec["isa"]) == ({"load <8 x half>": 1}, {"global_load_dwordx4": 1})


def test_cli_explain_and_line(cli, cache39):
    p = cli("loads", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "--explain", "173",
            "--no-sass")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert ("173:9: one tl.load of a 64x256 f16 tile; 64 threads; 256 elements per thread; 8 contiguous per "
            "thread per round -> 16-byte vectors; 32 ld.global.L1::evict_first.L2::cache_hint.v4.b32 per thread") in out
    assert ("64 threads; 256 elements per thread; 8 contiguous per thread along dim 0 -> 16-byte vectors; "
            "expect 32 vector accesses per thread") in out
    assert "PTX: 32 `ld.global.L1::evict_first.L2::cache_hint.v4.b32` (16 B each) per thread" in out
    assert "verdict: as-predicted" in out
    p = cli("loads", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--line", "174")
    assert p.returncode == 0, p.stderr
    assert "174:10" in p.stdout and "173:9" not in p.stdout
    p = cli("loads", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--explain", "170")
    assert p.returncode == 2 and "no memory access on line 170" in p.stderr
    p = cli("loads", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--explain", "173")
    assert ("173:9: one tl.load of a 64x256 f16 tile; 128 threads; 128 elements per thread; 8 contiguous per "
            "thread per round -> 16-byte vectors; 16 global_load_dwordx4 per thread") in p.stdout


def test_triton32_gfx942_shared_rows(cache32):
    """Triton 3.2 spells the dialect triton_gpu.; an unswizzled shared layout (maxPhase 1) keeps rows whole."""
    rep = analyze_entry(_entry(cache32, "matmul_kernel", "hip:gfx942"))
    rows = {(r.line, r.col, r.op): r for r in rep.rows}
    store = rows[(133, 20, "triton_gpu.local_store")]
    assert (store.stages["amdgcn"], store.predicted_vector_bytes, store.verdict) == (
        {"ds_write_b128": 2}, 16, "as-predicted")
    load = rows[(132, 20, "tt.load")]
    assert (load.instances, load.stages["llir"], load.stages["amdgcn"]) == (
        2, {"masked.load <8 x half>": 2}, {"global_load_dwordx4": 2})
    assert rows[(133, 20, "triton_gpu.local_load")].verdict == "scalar"


def test_an_unreadable_stage_is_noted_not_fatal(cache39, tmp_path):
    import shutil

    src = _entry(cache39, "gemv_tile_kernel", "hip:gfx942").path
    dst = tmp_path / src.name
    shutil.copytree(src, dst)
    (dst / "gemv_tile_kernel.llir").write_bytes(b"define void @k() {\n\x00\n}\n")
    rep = analyze_entry(Cache(dst).kernels()[0])
    assert rep.stages == ["amdgcn"]
    assert any(n.startswith("llir not joined:") and "NUL" in n for n in rep.notes)
    assert _row(rep, 173).stages == {"amdgcn": {"global_load_dwordx4": 16}}


def test_tcgen05_mma_reads_its_a_and_b_from_shared_not_its_barrier():
    """`ttng.tc_gen5_mma %a, %b, %acc, ..., %bar : memdesc<128x64xf16, #shared>, memdesc<64x128xf16,
    #shared2>, memdesc<128x128xf32, #tmem, tensor_memory>, memdesc<1xi64, #shared1>`: the operands read
    from shared memory are A and B (the accumulator lives in tensor memory, the mbarrier is no data)."""
    from pathlib import Path

    from tritonscope.layouts.attrs import parse_layout_aliases
    from tritonscope.loads.sites import access_sites
    from tritonscope.stages import parse

    text = (Path(__file__).parent / "lit" / "ws_partitions.ttgir").read_text()
    sites = [s for s in access_sites(parse("ttgir", text), parse_layout_aliases(text)) if s.kind == "mma_shared"]
    assert [(s.op.op, s.shape, s.dtype, s.layout_name, s.mma_operands) for s in sites] == [
        ("ttng.tc_gen5_mma", (64, 128), "f16", "shared2", "A and B")]


def test_address_factors_stop_at_a_pointer_cast():
    """`ValueGraph.multiples`: `x + n * 8` adds n in steps of 8 elements; past a `tt.bitcast` of the pointer
    the offsets counted another element size, so nothing is claimed for them (factor 1)."""
    from tritonscope.loads.sites import ValueGraph

    text = """module {
  tt.func public @k(%x: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %n: i32) {
    %c8_i32 = arith.constant 8 : i32
    %0 = arith.muli %n, %c8_i32 : i32
    %1 = tt.addptr %x, %0 : !tt.ptr<i8>, i32
    %2 = tt.bitcast %1 : !tt.ptr<i8> -> !tt.ptr<f16>
    tt.return
  }
}
"""
    graph = ValueGraph(parse("ttgir", text), text)
    assert graph.multiples(["%1"]) == ({"n": 8, "x": 1}, [])
    assert graph.multiples(["%2"]) == ({"n": 1, "x": 1}, [])


def test_address_factors_through_runtime_products_and_divisions():
    """`pid_b * stride` with stride divisible by 16: pid_b's terms (and `batch`, in it) count 16 times
    whatever they are (mamba's `pid_b = pid_bc - (pid_bc // batch) * batch`, `bt` here); a term divided
    afterwards (`(rn * bt) // 128`, torchao's scale offset) keeps no factor found below the division."""
    from tritonscope.loads.sites import ValueGraph

    text = """module {
  tt.func public @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %bt: i32, %s16: i32 {tt.divisibility = 16 : i32}) {
    %pid = tt.get_program_id x : i32
    %c = arith.divsi %pid, %bt : i32
    %cb = arith.muli %c, %bt : i32
    %b = arith.subi %pid, %cb : i32
    %0 = arith.muli %b, %s16 : i32
    %1 = tt.addptr %x, %0 : !tt.ptr<f32>, i32
    %c32 = arith.constant 32 : i32
    %c128 = arith.constant 128 : i32
    %rn = arith.muli %pid, %c32 : i32
    %2 = arith.muli %rn, %bt : i32
    %3 = arith.divsi %2, %c128 : i32
    %4 = tt.addptr %x, %3 : !tt.ptr<f32>, i32
    tt.return
  }
}
"""
    graph = ValueGraph(parse("ttgir", text), text)
    assert graph.multiples(["%1"]) == ({"bt": 16, "s16": 1, "x": 1}, [])
    assert graph.divisor("%0") == 16 and graph.divisor("%rn") == 32 and graph.divisor("%3") == 1
    assert graph.multiples(["%4"]) == ({"bt": 1, "x": 1}, [])


def test_no_argument_blamed_through_a_scalar_remainder_it_cannot_align():
    """FlagGems' group norm: `group = pid % num_groups; W + group * group_size + offs`. AxisInfo gives a
    scalar remainder gcd(div(pid), div(num_groups)) = 1 whatever num_groups says, so only group_size is
    to blame; a tensor's remainder `offs % W` keeps W (its divisibility decides how far the result stays
    contiguous); a scalar quotient by a runtime value is never divisible, whatever its operands say."""
    from tritonscope.loads.sites import ValueGraph

    text = """module {
  tt.func public @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %ng: i32, %gs: i32, %w: i32, %q: i32) {
    %pid = tt.get_program_id x : i32
    %g = arith.remsi %pid, %ng : i32
    %0 = arith.muli %g, %gs : i32
    %1 = tt.addptr %x, %0 : !tt.ptr<f32>, i32
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %ws = tt.splat %w : i32 -> tensor<64xi32>
    %r = arith.remsi %offs, %ws : tensor<64xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %2 = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %d = arith.divsi %gs, %q : i32
    %3 = tt.addptr %x, %d : !tt.ptr<f32>, i32
    tt.return
  }
}
"""
    graph = ValueGraph(parse("ttgir", text), text)
    assert graph.multiples(["%1"]) == ({"gs": 1, "x": 1}, [])
    assert graph.multiples(["%2"]) == ({"w": 1, "x": 1}, [])
    assert graph.multiples(["%3"]) == ({"x": 1}, [])
    assert graph.divisor("%g", assume=16) == 1 and graph.divisor("%0", assume=16) == 16


def test_value_names_reused_by_sibling_regions_and_loop_results():
    """MLIR numbers the values of sibling regions alike: each use is the nearest definition before it.
    A loop's result `%l#1` is its second loop-carried value, not every operand of the `scf.for`
    (whose bounds here come from a load); an `scf.if`'s result is what its arms yield."""
    from tritonscope.loads.sites import ValueGraph

    text = """module {
  tt.func public @k(%x: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %hi = tt.load %x : !tt.ptr<i32>
    %l:2 = scf.for %i = %c0 to %hi step %c1 iter_args(%a = %c0, %p = %x) -> (i32, !tt.ptr<i32>)  : i32 {
      %q = tt.addptr %p, %n : !tt.ptr<i32>, i32
      scf.yield %a, %q : i32, !tt.ptr<i32>
    }
    %cond = arith.cmpi slt, %n, %m : i32
    scf.if %cond {
      %5 = tt.load %x : !tt.ptr<i32>
      %6 = tt.addptr %x, %5 : !tt.ptr<i32>, i32
      tt.store %6, %5 : !tt.ptr<i32>
    } else {
      %5 = arith.muli %m, %c1 : i32
      %6 = tt.addptr %x, %5 : !tt.ptr<i32>, i32
      tt.store %6, %5 : !tt.ptr<i32>
    }
    %7 = tt.load %l#1 : !tt.ptr<i32>
    %r:2 = scf.if %cond -> (i32, i32) {
      %8 = tt.load %x : !tt.ptr<i32>
      scf.yield %8, %n : i32, i32
    } else {
      scf.yield %m, %n : i32, i32
    }
    %9 = tt.addptr %x, %r#0 : !tt.ptr<i32>, i32
    %10 = tt.addptr %x, %r#1 : !tt.ptr<i32>, i32
    tt.return
  }
}
"""
    module = parse("ttgir", text)
    graph = ValueGraph(module, text)
    stores = [op for op in module.ops if op.op == "tt.store"]
    first, second = (graph.at(op, ["%6"])[0] for op in stores)
    assert first == "%6" and second.startswith("%6@")
    assert [op.op for op in graph.multiples([first])[1]] == ["tt.load"]  # a gather
    assert graph.multiples([second]) == ({"m": 1, "x": 1}, [])  # no load in the else branch's address
    (load,) = [op for op in module.ops if op.text.lstrip().startswith("%7")]
    assert graph.multiples(graph.at(load, ["%l#1"])) == ({"n": 1, "x": 1}, [])  # not the loaded bound
    # an scf.if's result k is what either arm yields as its k-th value
    first_arm, both = (graph.multiples([v]) for v in ("%9", "%10"))
    assert first_arm[0] == {"m": 1, "x": 1} and [op.op for op in first_arm[1]] == ["tt.load"]
    assert both == ({"n": 1, "x": 1}, [])


NVMMA_TTGIR = """\
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 32}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %cst = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #blocked1> loc(#loc1)
    %0 = ttg.local_alloc %cst : (tensor<64x64xf32, #blocked1>) -> !ttg.memdesc<64x64xf32, #shared, #smem> loc(#loc2)
    %1 = ttg.local_alloc %cst : (tensor<64x64xf32, #blocked1>) -> !ttg.memdesc<64x64xf32, #shared1, #smem> loc(#loc3)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc("k.py":1:0)
#loc1 = loc("k.py":2:5)
#loc2 = loc("k.py":3:5)
#loc3 = loc("k.py":4:5)
"""


def test_nvmma_shared_order_limits_a_store_from_registers(tmp_path):
    """An nvmma_shared layout keeps its last dim contiguous, the one before when `transposed` (Triton's
    getOrder): registers running along dim 1 store one element at a time into the transposed one (as fla's
    chunk_gated_delta_rule_bwd_kernel_dhu does: 32 st.shared.b32 per thread), 16 bytes into the other."""
    entry_dir = tmp_path / "cache" / "NVMMA"
    entry_dir.mkdir(parents=True)
    (entry_dir / "k.ttgir").write_text(NVMMA_TTGIR)
    (entry,) = Cache(tmp_path / "cache").kernels(True)
    rows = {r.line: r for r in analyze_entry(entry, sass=False).rows}
    assert rows[3].predicted_vector_bytes == 4
    assert rows[3].prediction_note == ("#shared keeps dim 0 contiguous, the registers run along dim 1: one "
                                       "element per shared access")
    assert (rows[4].predicted_vector_bytes, rows[4].prediction_note) == (16, None)


def test_a_shared_access_blames_no_argument_and_is_no_gather():
    """fla chunk_gla_bwd_kernel_intra 578: a local_load of a buffer filled with data computed from loads and
    masked by T. Its operand is a buffer, not an address: no gather, no argument's alignment (both were
    claimed); the shared layout is the cause."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "fla"
    (entry,) = [e for e in Cache(data).kernels() if e.hash.startswith("45KWYMF4")]
    report = analyze_entry(entry, sass=False)
    codes = {r.op: [x.code for x in r.reasons] for r in report.rows if r.line == 578}
    assert codes == {"ttg.local_load": ["shared-layout"], "ttg.local_alloc": []}


def test_loop_trips_of_the_loops_around_an_op():
    """`ValueGraph.loop_trips`: constant-bound `scf.for` loops multiply (8 x 4 = 32), an `scf.if` arm runs
    at most once, a runtime bound or a `scf.while` makes it unknown, outside any loop it is 1."""
    from tritonscope.loads.sites import ValueGraph

    text = """module {
  tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c2_i32 = arith.constant 2 : i32
    %c8_i32 = arith.constant 8 : i32
    %c16_i32 = arith.constant 16 : i32
    %a = tt.load %x : !tt.ptr<f32>
    scf.for %i = %c0_i32 to %c8_i32 step %c1_i32  : i32 {
      scf.for %j = %c0_i32 to %c16_i32 step %c2_i32  : i32 {
        %p = arith.cmpi slt, %i, %j : i32
        scf.if %p {
          %b = tt.load %x : !tt.ptr<f32>
        }
      }
      %c = tt.load %x : !tt.ptr<f32>
    }
    scf.for %k = %c0_i32 to %n step %c1_i32  : i32 {
      %d = tt.load %x : !tt.ptr<f32>
    }
    tt.return
  }
}
"""
    module = parse("ttgir", text)
    graph = ValueGraph(module, text)
    loads = {op.text.split()[0]: op for op in module.ops if op.op == "tt.load"}
    assert {name: graph.loop_trips(op) for name, op in loads.items()} == {"%a": 1, "%b": 64, "%c": 8, "%d": None}


def test_mask_runs_as_axisinfo_gives_a_comparisons_constancy():
    """`ValueGraph.mask_run`: how many elements along a dim one mask bit covers. `offs < 512` over
    `tl.arange(0, 512)` (Triton 3.7 leaves it unfolded): 512; `pid * 64 + arange < n` with n divisible by
    16: 16; against a bound of 448 (SGLang's 448-wide latent): 64 = gcd(64, 448); `<=` moves the edge
    one on (`offs <= 447`: 64); an `andi` with a row mask that does not vary along the dim keeps the
    column mask's; a strided index (`offs * 2`), an unknown bound's `<=`, or `==`: cannot be told."""
    from tritonscope.loads.sites import ValueGraph

    text = """module {
  tt.func public @k(%n: i32 {tt.divisibility = 16 : i32}, %m: i32) {
    %r = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
    %c512 = arith.constant dense<512> : tensor<512xi32>
    %a = arith.cmpi slt, %r, %c512 : tensor<512xi32>
    %pid = tt.get_program_id x : i32
    %c64 = arith.constant 64 : i32
    %base = arith.muli %pid, %c64 : i32
    %bs = tt.splat %base : i32 -> tensor<512xi32>
    %idx = arith.addi %bs, %r : tensor<512xi32>
    %ns = tt.splat %n : i32 -> tensor<512xi32>
    %b = arith.cmpi slt, %idx, %ns : tensor<512xi32>
    %c448 = arith.constant dense<448> : tensor<512xi32>
    %c = arith.cmpi sgt, %c448, %idx : tensor<512xi32>
    %c447 = arith.constant dense<447> : tensor<512xi32>
    %d = arith.cmpi sle, %idx, %c447 : tensor<512xi32>
    %ms = tt.splat %m : i32 -> tensor<512xi32>
    %e = arith.cmpi sle, %idx, %ms : tensor<512xi32>
    %f = arith.cmpi eq, %idx, %c448 : tensor<512xi32>
    %c2 = arith.constant dense<2> : tensor<512xi32>
    %s = arith.muli %r, %c2 : tensor<512xi32>
    %g = arith.cmpi slt, %s, %c512 : tensor<512xi32>
    %row = tt.splat %m : i32 -> tensor<512xi32>
    %rowmask = arith.cmpi slt, %row, %ns : tensor<512xi32>
    %h = arith.andi %rowmask, %c : tensor<512xi1>
    tt.return
  }
}
"""
    graph = ValueGraph(parse("ttgir", text), text)
    assert graph.mask_run("%a", 0) == 512
    assert graph.mask_run("%b", 0) == 16
    assert graph.mask_run("%c", 0) == 64 and graph.mask_run("%d", 0) == 64 and graph.mask_run("%h", 0) == 64
    assert graph.mask_run("%e", 0) is None and graph.mask_run("%f", 0) is None and graph.mask_run("%g", 0) is None
    assert graph.mask_run("%rowmask", 0) > 1 << 30  # (does not vary: any run)


def test_branch_only_for_masks_lowered_to_branches_at_the_access():
    """`branch` counts LLIR accesses in blocks entered by a `br i1` at their own position (Triton's lowering
    of a mask, one branch per access: Triton 3.1's softmax store on gfx942); FlagGems' store sits in the
    block of its helper's `if` (a branch at 288:7), which is no mask: no `branch`."""
    from pathlib import Path

    data = Path(__file__).parent / "data"
    (e,) = [e for e in Cache(data / "thirdparty-h100-triton3.6" / "flaggems").kernels() if e.hash.startswith("L4CU3")]
    (store,) = [r for r in analyze_entry(e).rows if r.written is not None and r.written[1:] == (290, 35)]
    assert store.llir_guarded == 0 and "branch" not in [x.code for x in store.reasons]
    (e,) = [e for e in Cache(data / "releases-3.0-3.4" / "3.1").kernels() if e.hash.startswith("ccc455c0")]
    (store,) = [r for r in analyze_entry(e).rows if r.line == 52]
    # (its address steps by a runtime stride along the contiguous dim: that, not the branches, is the cause)
    assert store.llir_guarded == 32 and [x.code for x in store.reasons] == ["runtime-stride"]


def test_runtime_unrolled_loop_explains_extra_llir_copies(corpus):
    """Triton 3.9's matmul for gfx942 (corpus BMJFYHCK): the K loop's trip count is a run-time value and LLVM
    unrolled it (its `.epil.preheader`/`.unr-lcssa` blocks): the A operand's LDS read, 4 vectors by
    its layout in the loop and its peeled last iteration, is 8 in LLIR, and says why."""
    (e,) = [e for e in Cache(corpus / "triton-3.9.0").kernels() if e.hash.startswith("BMJFYHCK")]
    (row,) = [r for r in analyze_entry(e).rows if r.line == 132 and r.kind == "shared_load"]
    assert sum(row.counts("llir").values()) == 2 * row.predicted_vectors_per_thread * row.instances == 8
    (why,) = [c for c in row.count_changes if c.code == "unrolled"]
    assert "known only at run time" in why.evidence and "unrolled or peeled that loop" in why.evidence


def test_element_offset_between_two_scalar_addresses():
    """`cu_seqlens + b` and `cu_seqlens + b + 1` (SageAttention's varlen kernels): one pointer plus terms that
    differ by a constant, however the `+ 1` is written; another base, or another term, is no constant offset."""
    from tritonscope.loads.sites import ValueGraph

    text = """module {
  tt.func public @k(%cu: !tt.ptr<i32>, %other: !tt.ptr<i32>, %n: i32) {
    %b = tt.get_program_id x : i32
    %c1_i32 = arith.constant 1 : i32
    %c3_i64 = arith.constant 3 : i64
    %p0 = tt.addptr %cu, %b : !tt.ptr<i32>, i32
    %b1 = arith.addi %b, %c1_i32 : i32
    %p1 = tt.addptr %cu, %b1 : !tt.ptr<i32>, i32
    %p2 = tt.addptr %p0, %c1_i32 : !tt.ptr<i32>, i32
    %b64 = arith.extsi %b : i32 to i64
    %b4 = arith.addi %b64, %c3_i64 : i64
    %p3 = tt.addptr %cu, %b4 : !tt.ptr<i32>, i64
    %p4 = tt.addptr %other, %b1 : !tt.ptr<i32>, i32
    %bn = arith.addi %b, %n : i32
    %p5 = tt.addptr %cu, %bn : !tt.ptr<i32>, i32
    tt.return
  }
}
"""
    graph = ValueGraph(parse("ttgir", text), text)
    assert graph.element_offset("%p0", "%p1") == 1 and graph.element_offset("%p1", "%p0") == -1
    assert graph.element_offset("%p0", "%p2") == 1 and graph.element_offset("%p1", "%p2") == 0
    assert graph.element_offset("%p0", "%p3") == 3
    assert graph.element_offset("%p0", "%p4") is None and graph.element_offset("%p0", "%p5") is None


def _scalar_load(line: int, amdgcn: dict):
    """A 0-d i32 load with one LLIR load and, in AMDGCN, `amdgcn` (8-byte forms)."""
    from tritonscope.loads.model import AccessRow

    r = AccessRow(file="k.py", line=line, col=5, chain=f"k.py:{line}:5", op="tt.load", kind="global_load",
                  instances=1, shape=(), dtype="i32", element_bits=32, layout=None, layout_text=None,
                  mask=False, other=False, eviction=None, cache=None)
    r.stages = {"llir": {"load <1 x i32>": 1}, **({"amdgcn": amdgcn} if amdgcn else {})}
    r.widths = {"llir": {"load <1 x i32>": 4}, "amdgcn": {f: 8 for f in amdgcn}}
    return r


def test_combined_pairs_by_address_where_several_accesses_gained():
    """Two pairs of adjacent scalar loads, each pair one `s_load_dwordx2` on the first load's line: by bytes
    alone either missing load could be in either wider load; by address each is in exactly one."""
    from tritonscope.loads.model import AccessRow
    from tritonscope.loads.reclaim import _combination

    row = _scalar_load
    q0, q1, k0, k1 = row(60, {"s_load_dwordx2": 1}), row(61, {}), row(74, {"s_load_dwordx2": 1}), row(75, {})
    element = {id(q0): ("cu_q", 0), id(q1): ("cu_q", 1), id(k0): ("cu_k", 0), id(k1): ("cu_k", 1)}

    def offset(a: AccessRow, b: AccessRow) -> int | None:
        (base_a, i), (base_b, j) = element[id(a)], element[id(b)]
        return j - i if base_a == base_b else None

    assert _combination([q1, k1], [q0, k0], "amdgcn", "llir") == []  # (bytes alone: no answer)
    plan = _combination([q1, k1], [q0, k0], "amdgcn", "llir", offset)
    assert [(p.line, [r.line for r in group]) for p, group in plan] == [(60, [61]), (74, [75])]
    far = {**element, id(k1): ("cu_k", 2)}  # (8 bytes past k0: outside its dwordx2)
    assert _combination([q1, k1], [q0, k0], "amdgcn", "llir", lambda a, b: (
        far[id(b)][1] - far[id(a)][1] if far[id(a)][0] == far[id(b)][0] else None)) == []


def test_combined_by_address_before_the_wider_access_too():
    """The wider instruction may sit on the later element's line: a missing load one element before the
    access that gained is in its bytes as well; two elements before is not (8 bytes hold two)."""
    from tritonscope.loads.reclaim import _combination

    row = _scalar_load
    hi_a, lo_a, hi_b, lo_b = row(60, {"s_load_dwordx2": 1}), row(61, {}), row(74, {"s_load_dwordx2": 1}), row(75, {})
    for before, ok in ((-1, True), (-2, False)):
        element = {id(hi_a): ("a", 0), id(lo_a): ("a", before), id(hi_b): ("b", 0), id(lo_b): ("b", before)}
        plan = _combination([lo_a, lo_b], [hi_a, hi_b], "amdgcn", "llir", lambda a, b, e=element: (
            e[id(b)][1] - e[id(a)][1] if e[id(a)][0] == e[id(b)][0] else None))
        assert [(p.line, [r.line for r in g]) for p, g in plan] == ([(60, [61]), (74, [75])] if ok else [])


def test_layout_facts_memo_is_keyed_by_the_release_semantics():
    """loads keeps describe()'s answer per process; a layout that two releases decode differently (3.9 drops
    a blocked layout's broadcast registers) gets each release's answer, in whatever order they are asked."""
    from tritonscope.layouts import releases
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.views import describe
    from tritonscope.loads import analyze

    layout = parse_layout("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 16], warpsPerCTA = [2, 1], "
                          "order = [1, 0]}>")
    seen = {}
    for version in ("3.8.0", "3.9.0", "3.8.0", "3.9.0"):
        with releases.using(releases.for_version(version, "test")):
            facts = analyze._described(layout, (2, 64), 16)
            assert facts == describe(layout, (2, 64), 16)
        seen.setdefault(version, facts.elements_per_thread)
        assert seen[version] == facts.elements_per_thread
    assert seen == {"3.8.0": 32, "3.9.0": 8}


def test_memory_instructions_of_no_access_are_listed_once_even_on_an_access_line(cache39):
    """A kernel-argument read or a spill on the line of an access went only into that line's rows'
    `other_forms` (once per row), never into `unattributed`, which the docs say drops nothing."""
    from pathlib import Path

    from tritonscope.artifacts.cache import load_entry

    report = analyze_entry(next(e for e in Cache(cache39).kernels() if e.hash.startswith("IGFSAZDWEV")))
    args = [u for u in report.unattributed if u["stage"] == "amdgcn" and u["kind"] == "other_mem"]
    assert (177, 5, "s_load_dwordx2", 1) in {(u["line"], u["col"], u["form"], u["count"]) for u in args}
    assert any(r.line == 177 and r.other_forms.get("amdgcn") == {"s_load_dwordx2": 1} for r in report.rows)
    root = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "torch_sparse"
    entry = root / "XOKMY5CCFB6QXTXPXBEP4AOEE4EEE3U4FR2XOA4BJFMS6NPHV7KQ"
    report = analyze_entry(load_entry(entry, root))
    spills = {(s["stage"], s["line"], s["col"], s["instruction"], s["count"]) for s in report.spills}
    listed = {(u["stage"], u["line"], u["col"], u["form"], u["count"]) for u in report.unattributed
              if u["kind"] == "other_mem"}
    assert spills and spills <= listed, spills - listed


def test_a_line_whose_memory_is_the_compilers_own_lists_it(cli, cache39):
    """softmax's line 91 (tl.max) moves data only through the reduction's shared scratch: `--line 91` said
    "no memory access" while its JSON listed six instructions, and `--explain 91` was a usage error."""
    args = ("loads", "TWWPLXS2UO", "--cache-dir", str(cache39), "--no-sass")
    for option in ("--line", "--explain"):
        p = cli(*args, option, "91")
        assert p.returncode == 0, p.stderr
        assert "no load or store of the kernel's on line 91" in p.stdout
        assert "ptx     line 36:9 @ 91:15  1x st.shared.b32 (shared_store)" in p.stdout
    p = cli(*args, "--explain", "9999")
    assert p.returncode == 2 and p.stderr.startswith("tritonscope: error: --explain 9999: ")
    p = cli(*args, "--explain", "0")  # click's own check: one line too (it printed Usage / Try / Error)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "'--explain': 0 is not in the range" in p.stderr


def test_a_layout_repeating_elements_is_loaded_once_per_distinct_element(cli):
    """conch's `_bev_pool_kernel` (3.5, gfx942) 113:21: a 64x1 tile whose 32 registers a thread holds are 8
    distinct elements: 8 LLIR loads for a predicted 32, and nothing said why."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.5-3.7" / "conch"
    doc = json.loads(cli("loads", "G3KM7KPRTR", "--cache-dir", str(cache), "--no-sass", "--line", "113",
                         "--json").stdout)
    (row,) = doc["rows"]
    assert (row["elements_per_thread"], row["distinct_per_thread"], row["predicted_vectors_per_thread"]) == (32, 8, 32)
    assert row["stages"]["llir"] == {"load <1 x i32>": 8}
    (change,) = [c for c in row["count_changes"] if c["code"] == "distinct-only"]
    assert "they hold 8 distinct elements, each 4 times" in change["evidence"]


def test_a_row_combined_into_another_gives_the_reasons_of_its_verdict(cli):
    """aiter's rope kernel (gfx942): 105:25, a 0-d load the backend folded into 104:30's s_load_dwordx2,
    took the verdict `scalar` with no reason, where 104:30 says `scalar-access`."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "aiter"
    doc = json.loads(cli("loads", "RN73H7HSR5", "--cache-dir", str(cache), "--line", "105", "--json").stdout)
    (row,) = doc["rows"]
    assert row["verdict"] == "scalar" and row["reasons"] == ["scalar-access"]
    assert [c["code"] for c in row["count_changes"]] == ["combined"]


def test_an_access_in_a_called_function_is_read_through_each_call(cli):
    """SGLang's `_load_compact` (gfx950, kept as a function in TTGIR) loads `Cache + offset` for four
    calls. Two pass offsets whose columns are `d // 32` (one address for 32 bytes: 8 byte loads is all
    there is), two pass contiguous ones (dwordx4). The function's own `offset` argument has no divisibility
    (its callers disagree): the two were blamed on `unknown-alignment`, which no alignment would cure."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "sglang"
    doc = json.loads(cli("loads", "DUELNOYX4W", "--cache-dir", str(cache), "--no-sass", "--json").stdout)
    calls = {r["chain"].replace("compact_attention_hip.py:", "").split(" @ ", 1)[1]: r for r in doc["rows"]
             if r["chain"].startswith("compact_attention_hip.py:24:16 @")}
    got = {where: (r["verdict"], r["reasons"]) for where, r in calls.items()}
    assert got == {"72:13 @ 221:10 @ 297:29": ("as-predicted", []), "72:13 @ 221:10 @ 313:43": ("as-predicted", []),
                   "81:15 @ 221:10 @ 297:29": ("scalar", ["repeated-address"]),
                   "81:15 @ 221:10 @ 313:43": ("scalar", ["repeated-address"])}
    assert "divided by 32" in calls["81:15 @ 221:10 @ 297:29"]["evidence"]["repeated-address"]


CALLED_HELPER_TTGIR = """module {
  tt.func public @k(%x: !tt.ptr<f32>) {
    %offset = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %r = tt.call @h(%offset) : (tensor<128xi32>) -> tensor<128xi32>
    tt.return
  }
  tt.func private @h(%offset: tensor<128xi32>) -> tensor<128xi32> {
    %c = arith.constant dense<4> : tensor<128xi32>
    %0 = arith.muli %offset, %c : tensor<128xi32>
    tt.return %0 : tensor<128xi32>
  }
}
"""


def test_a_called_functions_argument_is_not_a_value_of_the_same_name():
    """Triton 3.9 names values after the Python variables: the kernel's `%offset` and the helper's argument
    `%offset` were one value to the graph. The argument is its own (outside a call, a tensor argument's steps
    are unknown: the helper's `%offset` may vary any way; helper 130), and through the call it is what the
    call passes."""
    from tritonscope.loads.sites import ValueGraph

    module = parse("ttgir", CALLED_HELPER_TTGIR, "k.ttgir")
    graph = ValueGraph(module, CALLED_HELPER_TTGIR)
    call = next(op for op in module.ops if op.op == "tt.call")
    assert graph.function_args == {"k": ["%x"], "h": ["%offset@h"]}
    assert graph.steps(["%0"], 1) == {0: [None]}
    with graph.through((call,)):
        assert graph.steps(["%0"], 1) == {0: [(4, frozenset(), 1)]}


def test_a_triton_2_pipelined_load_is_an_async_copy(cli, cache23):
    """Triton 2.3 pipelines a matmul's loads as `triton_gpu.insert_slice_async` (3.0's
    async_copy_global_to_local): they had no row, their cp.async only 'memory instructions of no access'."""
    doc = json.loads(cli("loads", "554d8215f5", "--cache-dir", str(cache23), "--json").stdout)
    rows = {(r["line"], r["op"]): r for r in doc["rows"]}
    for line in (42, 43):
        r = rows[(line, "triton_gpu.insert_slice_async")]
        assert (r["kind"], r["instances"], r["verdict"]) == ("async_copy", 3, "as-predicted")
        assert r["stages"]["ptx"] == {"cp.async.cg.shared.global": 6}
    assert not [u for u in doc["unattributed"] if u["kind"] == "async_copy"]


def test_through_a_call_the_mask_and_the_element_type_are_the_callers(cli, tmp_path):
    """(1) A helper loading `ptr + offs` under `mask` called with `offs < 1024` over 1024 elements: the
    callee's own `%mask` argument was read (`mask-on-contiguous-dim`), not what the call passes (uniform over
    each vector). (2) An AMD `buffer_load_to_local` of f16 was an `i32` row (its offsets' type): 4-byte copies
    of two f16 each were 'scalar, unexplained'."""
    (tmp_path / "m.py").write_text(textwrap.dedent("""\
        from triton.experimental import gluon
        from triton.experimental.gluon import language as gl


        @gluon.jit
        def ld(ptr, offs, mask, flag):
            if flag:
                return gl.load(ptr + offs, mask=mask)
            return gl.load(ptr + offs + 4, mask=mask)


        @gluon.jit
        def kern(x_ptr, y_ptr, f, n, N: gl.constexpr):
            L: gl.constexpr = gl.BlockedLayout([8], [32], [4], [0])
            offs = gl.arange(0, N, layout=L)
            m = offs < N
            acc = gl.zeros([N], gl.float32, L)
            for it in range(n):
                acc += ld(x_ptr, offs * 2, m, f)
            gl.store(y_ptr + offs, acc)
        """))
    r = cli("compile", f"{tmp_path / 'm.py'}::kern", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32,f=i32,n=i32", "--constexpr", "N=1024", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "kern", "--cache-dir", str(tmp_path / "c"), "--no-sass", "--json").stdout)
    called = [r for r in doc["rows"] if " @ " in r["chain"]]
    assert len(called) == 2 and all(r["reasons"] == ["strided"] for r in called), [r["reasons"] for r in called]
    from pathlib import Path

    aiter = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "aiter"
    doc = json.loads(cli("loads", "5K53DQMB", "--cache-dir", str(aiter), "--json").stdout)
    copies = [r for r in doc["rows"] if r["op"] == "amdg.buffer_load_to_local"]
    assert copies and all((r["dtype"], r["predicted_vector_bytes"], r["predicted_vectors_per_thread"])
                          == ("bf16", 16, 1) for r in copies)


def test_line_of_a_helper_lists_the_compilers_own_instructions_written_there(cli):
    """SGLang's gfx950 attention: line 145 (a reduction inside a helper inlined at 328 and 332) has only
    the reduction's shared-memory instructions; `--line 145` listed nothing (they were filtered by their
    outermost line) and `--explain 145` was a usage error."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "sglang"
    for option in ("--line", "--explain"):
        p = cli("loads", "_compact_attention_kernel", "--cache-dir", str(cache), "--no-sass", option, "145")
        assert p.returncode == 0, p.stderr
        assert "amdgcn  line 145:15 @ 328:35  1x ds_read_b32 (shared_load)" in p.stdout
    doc = json.loads(cli("loads", "_compact_attention_kernel", "--cache-dir", str(cache), "--no-sass",
                         "--line", "145", "--json").stdout)
    assert doc["unattributed"] and all(u["written"].startswith("145:") and
                                       u["written_file"].endswith("compact_attention_hip.py")
                                       for u in doc["unattributed"])


def test_a_constant_offset_off_a_vector_boundary_is_the_reason(cli, tmp_path):
    """`tl.load(x_ptr + 1 + offs)`: the layout allows 16-byte vectors, the +1 element puts every one off a
    16-byte boundary. It was 'unexplained'; `+ 4` (16 bytes) stays a vector."""
    (tmp_path / "o.py").write_text(textwrap.dedent("""\
        import triton
        import triton.language as tl


        @triton.jit
        def off_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(y_ptr + offs, tl.load(x_ptr + 1 + offs))
            tl.store(y_ptr + BLOCK + offs, tl.load(x_ptr + 4 + offs))
        """))
    r = cli("compile", f"{tmp_path / 'o.py'}::off_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "BLOCK=1024", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "off_kernel", "--cache-dir", str(tmp_path / "c"), "--no-sass", "--json").stdout)
    loads = {r["line"]: r for r in doc["rows"] if r["op"] == "tt.load"}
    assert (loads[8]["verdict"], loads[8]["reasons"]) == ("scalar", ["misaligned-offset"])
    assert "adds 1 element (4 bytes), not a multiple of 16" in loads[8]["evidence"]["misaligned-offset"]
    assert (loads[9]["verdict"], loads[9]["reasons"]) == ("as-predicted", [])


LOOP_INDEX_REUSED_TTGIR = """module {
  tt.func public @k(%p: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    scf.for %acc_56 = %c0 to %n step %c64  : i32 {
      %o = tt.splat %acc_56 : i32 -> tensor<64xi32>
      %o2 = arith.addi %o, %r : tensor<64xi32>
      %a = tt.addptr %ps, %o2 : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
      %v = tt.load %a : tensor<64x!tt.ptr<i32>>
    }
    %b = tt.addptr %ps, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    %acc_56 = tt.load %b : tensor<64x!tt.ptr<i32>>
    tt.return
  }
}
"""


def test_a_loop_index_is_not_a_value_of_the_same_name_after_the_loop():
    """The AMD pipeliner's int4 matmul: the K loop's index `%acc_56` and an `%acc_56 = tt.dot` after the
    loop were one value to the graph: the A load's address was 'computed from loaded values' (a gather)."""
    from tritonscope.loads.sites import ValueGraph

    module = parse("ttgir", LOOP_INDEX_REUSED_TTGIR, "k.ttgir")
    graph = ValueGraph(module, LOOP_INDEX_REUSED_TTGIR)
    load = next(op for op in module.ops if op.op == "tt.load")
    (address,) = graph.at(load, ["%a"])
    _, loads = graph.multiples([address])
    assert loads == []
    assert graph.steps([address], 1) == {0: [(1, frozenset(), 1)]}


def test_a_row_gather_is_contiguous_along_the_row(cli, tmp_path):
    """An embedding lookup `w + ids[:, None] * D + offs_d`: the loaded ids are the same along each row, so
    the row is contiguous and only its start is unknown; the evidence said 'no contiguity or alignment can
    be proven'. An element gather (`w + idx` with `idx` loaded per element) keeps that wording."""
    (tmp_path / "e.py").write_text(textwrap.dedent("""\
        import triton
        import triton.language as tl


        @triton.jit
        def emb_kernel(w_ptr, ids_ptr, out_ptr, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
            offs_t = tl.program_id(0) * BLOCK_T + tl.arange(0, BLOCK_T)
            offs_d = tl.arange(0, BLOCK_D)
            ids = tl.load(ids_ptr + offs_t)
            rows = tl.load(w_ptr + ids[:, None] * D + offs_d[None, :])
            elems = tl.load(w_ptr + tl.load(ids_ptr + offs_d))
            tl.store(out_ptr + offs_t[:, None] * D + offs_d[None, :], rows + elems[None, :])
        """))
    gathers = _gathers(cli, tmp_path, "e.py", "emb_kernel", "w_ptr=*fp16,ids_ptr=*i64,out_ptr=*fp16,D=i32")
    assert "that are the same along dim 1: each run along it is contiguous" in gathers[10]
    assert "no contiguity or alignment can be proven" in gathers[11]


def _gathers(cli, tmp_path, file: str, kernel: str, signature: str) -> dict[int, str]:
    """`loads`' gather evidence by line of FILE's KERNEL (written to tmp_path), compiled for cuda:90 with
    BLOCK_T=16, BLOCK_D=128."""
    r = cli("compile", f"{tmp_path / file}::{kernel}", "--target", "cuda:90", "--signature", signature,
            "--constexpr", "BLOCK_T=16", "--constexpr", "BLOCK_D=128", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", kernel, "--cache-dir", str(tmp_path / "c"), "--no-sass", "--json").stdout)
    return {r["line"]: r["evidence"]["gather"] for r in doc["rows"] if "gather" in r["reasons"]}


def test_a_start_loaded_once_in_a_helper_is_no_row_gather_and_is_named_at_its_line(cli, tmp_path):
    """Helper 77 (HSTU's jagged attention, lmdeploy's KV fill): a sequence's start loaded once, in a helper,
    was named at the call's line ('tt.load at line 1746', the helper's call) and called 'a row gather: rows
    of a table picked by loaded indices', though no index is loaded per row."""
    (tmp_path / "r.py").write_text(textwrap.dedent("""\
        import triton
        import triton.language as tl


        @triton.jit
        def _start(seq_ptr):
            return tl.load(seq_ptr + tl.program_id(0))


        @triton.jit
        def ragged_kernel(x_ptr, seq_ptr, out_ptr, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
            start = _start(seq_ptr)
            offs_t = start + tl.arange(0, BLOCK_T)
            offs_d = tl.arange(0, BLOCK_D)
            x = tl.load(x_ptr + offs_t[:, None] * D + offs_d[None, :])
            tl.store(out_ptr + offs_t[:, None] * D + offs_d[None, :], x)
        """))
    gathers = _gathers(cli, tmp_path, "r.py", "ragged_kernel", "x_ptr=*fp16,seq_ptr=*i64,out_ptr=*fp16,D=i32")
    assert set(gathers) == {15, 16}, gathers
    for text in gathers.values():
        assert "values loaded once for the whole tensor (tt.load at line 7 @ 12)" in text, text
        assert "row gather" not in text


def test_reasons_of_two_rows_at_one_position_name_their_op(cli):
    """aiter's rope kernel (gfx942): a buffer load, its local_alloc and the local_load share 259:17; reasons
    printed as lines `259:17 <code>: ...` with nothing saying whose."""
    from pathlib import Path

    from tritonscope.render.loads import op_words

    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "aiter"
    args = ("loads", "RN73H7HSR5", "--cache-dir", str(cache), "--line", "259")
    rows = [r for r in json.loads(cli(*args, "--json").stdout)["rows"] if r["where"] == "259:17"]
    assert {"ttg.local_load", "ttg.local_alloc"} <= {r["op"] for r in rows}
    text = cli(*args).stdout
    for r in rows:
        for code in r["reasons"] + [c["code"] for c in r["count_changes"]]:
            assert f"  259:17 {op_words(r['op'])} {code}:" in text


def test_fewer_llir_vectors_than_the_layouts_say_why(cli):
    """SGLang's GPTQ MoE kernel on gfx942, 184:19: a scale load pipelined into 3 copies of 2 predicted 16-byte
    vectors, 2 in LLIR (every row of the 64-row tile reads one address: `(offs_k[:, None] + 64 * k) // 128`,
    and the two prologue copies read the same): `as-predicted` with no count change said why 6 became 2."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "sglang"
    doc = json.loads(cli("loads", "54KWHBUSQE", "--cache-dir", str(cache), "--line", "184", "--json").stdout)
    (row,) = doc["rows"]
    assert (row["instances"], row["predicted_vectors_per_thread"], row["verdict"]) == (3, 2, "as-predicted")
    assert row["stages"]["llir"] == {"raw.ptr.buffer.load <4 x i32>": 2}
    (change,) = row["count_changes"]
    assert change["code"] == "merged"
    assert change["evidence"].startswith("the layout gives 6 vector(s) (3 copies x 2), 2 in llir")
    assert change["evidence"].endswith("the address is divided by 128 along dim 0, of 64 elements")


FLOAT_ATOMIC_MAX = '''
import triton
import triton.language as tl


@triton.jit
def amax_kernel(x_ptr, amax_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.atomic_max(amax_ptr, tl.max(tl.abs(x), axis=0))
'''


def test_a_float_atomic_max_is_two_integer_atomics_not_two_copies(cli, tmp_path):
    """Triton lowers a float `tl.atomic_max` to `tt.atomic_rmw max` and `tt.atomic_rmw umin` at one
    position; `--explain` called them 2 copies 'written out in one block, as an unrolled tl.static_range or
    a Python loop does', and a scalar's layout `#None`."""
    (tmp_path / "amax.py").write_text(FLOAT_ATOMIC_MAX.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'amax.py'}::amax_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,amax_ptr=*fp32", "--constexpr", "BLOCK=256", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "amax_kernel", "--cache-dir", str(tmp_path / "c"), "--line", "8", "--json").stdout)
    (row,) = [r for r in doc["rows"] if r["kind"] == "atomic"]
    assert (row["instances"], row["copies"]) == (2, "float-atomic")
    text = cli("loads", "amax_kernel", "--cache-dir", str(tmp_path / "c"), "--explain", "8").stdout
    assert "2 copies in TTGIR: a float atomic max or min, which Triton lowers to two integer atomics" in text
    assert "#None" not in text and "no layout (a scalar)" in text


BLOCK_SCALE = '''
import triton
import triton.language as tl


@triton.jit
def block_scale_kernel(Bs, out, N, group_n, stride_Bs_n, BLOCK: tl.constexpr):
    offs_bn = (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)) % N
    b_s = tl.load(Bs + (offs_bn // group_n) * stride_Bs_n)
    tl.store(out + tl.arange(0, BLOCK), b_s)
'''


def test_an_index_divided_by_a_runtime_group_repeats_addresses(cli, tmp_path):
    """vLLM's / SGLang's w8a8 block-fp8 matmul reads its per-block scales at `(offs_bn // group_n) *
    stride_Bs_n`, `offs_bn` taken `% N`: the reason given was a missing tt.divisibility on the strides ("the
    coalesce pass therefore gave the layout 1 contiguous element"), which no alignment would change: runs of
    group_n elements read one address. (`% N` with N a runtime value steps as its operand, as `% 64` does.)"""
    (tmp_path / "bs.py").write_text(BLOCK_SCALE.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'bs.py'}::block_scale_kernel", "--target", "cuda:90", "--signature",
            "Bs=*fp32,out=*fp32,N=i32:16,group_n=i32:16,stride_Bs_n=i32", "--constexpr", "BLOCK=128",
            "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "block_scale_kernel", "--cache-dir", str(tmp_path / "c"), "--line", "8",
                         "--json").stdout)
    (row,) = doc["rows"]
    assert row["reasons"][0] == "repeated-address" and "unknown-alignment" not in row["reasons"], row["reasons"]
    assert row["evidence"]["repeated-address"].startswith("along dim 0 the index is divided by group_n, known only")


def test_rows_short_of_the_same_take_their_counts_from_line_zero_together(cli):
    """A block-fp8 matmul's two scale loads on gfx950 (42:15, 43:15) lack 2 and 16 `buffer_load_dword`s of
    their LLIR's; 18 sit at line 0. `unlocated` took line 0's only for a single row short: both rows said
    `merged` ('the compiler combined or removed some'), though every instruction was there."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "fp8block"
    doc = json.loads(cli("loads", "_w8a8_block_fp8_matmul", "--cache-dir", str(cache), "--json").stdout)
    rows = {r["where"]: r for r in doc["rows"] if r["line"] in (42, 43)}
    for where, n in (("42:15", 6), ("43:15", 48)):
        row = rows[where]
        assert row["stages"]["amdgcn"] == {"buffer_load_dword": n}, (where, row["stages"])
        assert [c["code"] for c in row["count_changes"]] == ["unlocated"], (where, row["count_changes"])
    assert "18 buffer_load_dword with no source location (line 0), claimed by no access, are what the accesses " \
        "at 42:15 and 43:15 lack together" in rows["43:15"]["count_changes"][0]["evidence"]
    assert not [u for u in doc["unattributed"] if u["stage"] == "amdgcn" and u["form"] == "buffer_load_dword"]


def test_a_line_whose_ttir_access_ttgir_locates_elsewhere_says_so(cli, tmp_path, cache39):
    """triton_kernels' warp-specialized nvfp4 matmul on cuda:100: TTGIR's copies of the TMA loads of lines
    23-25 carry their users' locations; `loads --line 24` said no load or store was there, and `--explain 24`
    was a usage error, though TTIR and `map` have a tt.descriptor_load on it. (Here: add_kernel's TTGIR with
    its `y` load given the store's location.)"""
    import shutil

    (src,) = [p for p in cache39.iterdir() if p.name.startswith("W5LKR5DI67")]
    entry = tmp_path / "c" / src.name
    shutil.copytree(src, entry)
    rows = json.loads(cli("loads", "W5LKR5DI67", "--cache-dir", str(tmp_path / "c"), "--json").stdout)["rows"]
    (y_line,) = {r["line"] for r in rows if r["op"] == "tt.load"} - {min(r["line"] for r in rows)}
    ttgir = entry / "add_kernel.ttgir"
    text = ttgir.read_text()
    assert "tt.load %y_5, %mask_2 : tensor<1024x!tt.ptr<f16>, #blocked> loc(#loc26)" in text
    ttgir.write_text(text.replace("tt.load %y_5, %mask_2 : tensor<1024x!tt.ptr<f16>, #blocked> loc(#loc26)",
                                  "tt.load %y_5, %mask_2 : tensor<1024x!tt.ptr<f16>, #blocked> loc(#loc13)"))
    note = (f"TTIR has 1 tt.load on line {y_line}; TTGIR locates it at another line (a warp-specialized "
            "partition's or a pipelined copy takes the location of its users): run `tritonscope loads` for the list")
    for option in ("--line", "--explain"):
        p = cli("loads", "W5LKR5DI67", "--cache-dir", str(tmp_path / "c"), option, str(y_line), "--no-sass")
        assert p.returncode == 0, p.stderr
        assert f"note: {note}" in p.stdout
    doc = json.loads(cli("loads", "W5LKR5DI67", "--cache-dir", str(tmp_path / "c"), "--line", str(y_line),
                         "--json", "--no-sass").stdout)
    assert doc["rows"] == [] and note in doc["notes"]


def test_explain_says_which_copies_the_pipeliner_masked(cli):
    """The block-fp8 matmul's scale load on gfx950: one copy in the loop, two peeled after it, those two
    masked by the pipeliner; `--explain` said 'mask: no' and 'its peeled last iteration' (one)."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "fp8block"
    text = cli("loads", "_w8a8_block_fp8_matmul", "--cache-dir", str(cache), "--explain", "43").stdout
    assert "(3 copies in TTGIR: loop and its peeled last iteration(s))" in text
    assert "; mask: no (2 of its 3 copies: yes)" in text


def test_a_count_change_of_two_stages_is_one_code_in_the_table(cli):
    """Transformer Engine's 64:9 store on gfx942 has an `unlocated` count change in two stages: the table's
    reasons column said `unlocated, unlocated` (helper 55 saw `relocated, relocated` for PTX and SASS); the
    explanations below it keep one line per stage."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "transformer_engine"
    out = cli("loads", "MRMSTJ35", "--cache-dir", str(cache), "--line", "64").stdout
    (row,) = [ln for ln in out.splitlines() if ln.startswith("64:9 ") and "tt.store" in ln]
    assert row.count("unlocated") == 1, row
    assert out.count("64:9 unlocated:") == 2


DIVISORS = '''
import triton
import triton.language as tl


@triton.jit
def divisors_kernel(x_ptr, n_ptr, out, a, b, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    u = tl.load(x_ptr + offs // (a + b))
    n = tl.load(n_ptr)
    v = tl.load(x_ptr + offs // n)
    tl.store(out + offs, u + v)
'''


def test_a_runtime_divisor_is_named_as_what_it_is(cli, tmp_path):
    """Helper 56: `offs // (a + b)` was 'divided by a * b' (every argument the divisor is computed from,
    joined as a product), and a loaded `n` was 'divided by n_ptr'."""
    (tmp_path / "div.py").write_text(DIVISORS.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'div.py'}::divisors_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,n_ptr=*i32,out=*fp32,a=i32,b=i32", "--constexpr", "BLOCK=128",
            "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "divisors_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    evidence = {r["line"]: r["evidence"].get("repeated-address", "") for r in doc["rows"]}
    assert evidence[8].startswith("along dim 0 the index is divided by a value of a, b, known only at run time")
    assert evidence[10].startswith("along dim 0 the index is divided by a loaded value, known only at run time")


FLOAT_MAX_OF_INDICES = '''
import triton
import triton.language as tl


@triton.jit
def index_max_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_max(x_ptr + offs, offs.to(tl.float32))
'''


def test_a_float_atomic_whose_sign_is_known_keeps_one_integer_atomic(cli, tmp_path):
    """Helper 56: `tl.atomic_max` of non-negative floats: PTX keeps Triton's max.s32 and min.u32 per value,
    ptxas drops the negative branch's; the count change said `merged-identical-address` (one per address)."""
    (tmp_path / "imax.py").write_text(FLOAT_MAX_OF_INDICES.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'imax.py'}::index_max_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32", "--constexpr", "BLOCK=128", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "index_max_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    (row,) = [r for r in doc["rows"] if r["kind"] == "atomic"]
    if not row["stages"].get("sass"):
        pytest.skip("no nvdisasm here: SASS not read")
    assert row["copies"] == "float-atomic" and len(row["stages"]["ptx"]) == 2 and len(row["stages"]["sass"]) == 1
    (change,) = row["count_changes"]
    assert change["code"] == "merged" and "ptxas proved the other sign's branch never runs" in change["evidence"]


PIPELINED = '''
import triton
import triton.language as tl


@triton.jit
def pipelined_kernel(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + (k + offs_k)[None, :])
        b = tl.load(b_ptr + (k + offs_k)[:, None] * stride_bk + offs_n[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc)
'''


def test_explain_says_a_mask_the_pipeliner_added(cli, tmp_path):
    """Helper 56: `tl.load(a_ptrs)` with no mask, pipelined into 3 async copies that all carry the pipeliner's
    mask: `--explain` said 'mask: yes', as if the source had one."""
    (tmp_path / "pipe.py").write_text(PIPELINED.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'pipe.py'}::pipelined_kernel", "--target", "cuda:90", "--signature",
            "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp32,K=i32:16,stride_am=i32:16,stride_bk=i32:16", "--constexpr",
            "BM=128", "--constexpr", "BN=128", "--constexpr", "BK=64", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    text = cli("loads", "pipelined_kernel", "--cache-dir", str(tmp_path / "c"), "--explain", "13", "--no-sass").stdout
    assert "(3 copies in TTGIR: pipeline prologue and loop)" in text
    assert "; mask: yes (the pipeliner's: TTIR's access has none)" in text


MASKED_MATMUL = '''
import triton
import triton.language as tl


@triton.jit
def masked_matmul_kernel(a_ptr, b_ptr, c_ptr, K, stride_am, stride_bk, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc.to(tl.float16))
'''


def test_a_masked_async_copys_fill_is_named(cli, tmp_path):
    """Helper 55: on gfx1250 a masked async copy with `other=0.0` is a `global.load.async.to.lds` and a
    `store <8 x half> zeroinitializer` into the LDS address a select picks, at the copy's position: the stores
    were listed as memory instructions of no access."""
    (tmp_path / "mm.py").write_text(MASKED_MATMUL.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'mm.py'}::masked_matmul_kernel", "--target", "hip:gfx1250", "--signature",
            "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp16,K=i32:16,stride_am=i32:16,stride_bk=i32:16", "--constexpr",
            "BM=64", "--constexpr", "BN=64", "--constexpr", "BK=32", "--option", "num_stages=2",
            "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "masked_matmul_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    copies = {(r["line"], r["col"]): r for r in doc["rows"] if r["kind"] == "async_copy"}
    fills = [u for u in doc["unattributed"] if u["kind"] == "shared_store" and (u["line"], u["col"]) in copies]
    assert fills, doc["unattributed"]
    for u in fills:
        row = copies[(u["line"], u["col"])]
        assert u["count"] == sum(row["stages"][u["stage"]].values())
        assert u["of"] == f"{row['where']} ttg.async_copy_global_to_local: the fill of its masked-off elements " \
            "(its `other` value)"


def test_instructions_of_no_access_name_a_helpers_file(cli):
    """Helper 66: memory instructions of no access inlined from a helper of another module were listed as
    `line 47:33 @ 288:25`, line 47 of no file the reader could tell from the kernel's own line 47. The helper's
    file is named, as a row's `where` names it (FLA's `exp` in fla/ops/utils/op.py)."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "fla"
    r = cli("loads", "chunk_bwd_kernel_dh", "--cache-dir", str(data), "--no-sass")
    assert r.returncode == 0, r.stderr
    listed = r.stdout[r.stdout.index("memory instructions of no access"):].splitlines()[1:]
    assert "  llir    line op.py:47:33 @ 288:25  8x load float (shared_load)" in listed, listed
    assert "  llir    line 257:27  16x load <4 x i32> (shared_load)" in listed
    assert not [ln for ln in listed if " @ " in ln and "op.py:" not in ln], listed
    # SASS located through the PTX keeps the helper's frame too (it was listed by the call's line alone)
    from tritonscope.artifacts import tools

    if tools.find_nvidia_tool("nvdisasm") is not None:
        listed = cli("loads", "chunk_bwd_kernel_dh", "--cache-dir", str(data)).stdout.splitlines()
        assert "  sass    line op.py:47:33 @ 288:25  2x LDS.128 (shared_load)" in listed, listed
    # (line 0 is no source line: it was listed as `line 0:0`, a line of no file)
    mamba = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "mamba"
    out = cli("loads", "_chunk_state_fwd_kernel", "--cache-dir", str(mamba)).stdout
    assert "  amdgcn  no source line  1x s_load_dwordx8 (other_mem)" in out.splitlines() and " line 0:" not in out


def test_a_transposing_lds_read_wider_than_the_layout_says_why(cli, cache39):
    """Helper 62: gfx950's `ds_read_b64_tr_b16` reads 8 bytes a lane of a dot operand whose registers hold one
    element a shared access (the shared layout runs the other way): `--explain` said "as-predicted (8-byte
    accesses in AMDGCN, the layout allows 2)", contradicting itself. A wider access says it is wider, and a
    transposing read says what it is."""
    r = cli("loads", "BMJFYHCK", "--cache-dir", str(cache39), "--explain", "133")
    assert r.returncode == 0, r.stderr
    verdicts = [ln.strip() for ln in r.stdout.splitlines() if ln.strip().startswith("verdict:")]
    assert "verdict: as-predicted (8-byte accesses in AMDGCN, wider than the 2 the layout's contiguity allows)" \
        in verdicts, verdicts
    # (what it is, as the table's reasons column says it too: `transposed-read`)
    assert "transposed-read: ds_read_b64_tr_b16: an LDS read that transposes between lanes as it loads reads the " \
        "operand across its contiguous dimension in shared memory, 8 bytes a lane where the layout's contiguity " \
        "allows 2" in [ln.strip() for ln in r.stdout.splitlines()]
    assert "verdict: as-predicted (16-byte accesses in AMDGCN, the layout allows 16)" in verdicts
    assert not [v for v in verdicts if "allows 2)" in v]


def test_an_access_whose_layouts_do_not_read_is_unknown_not_scalar(cli, cache39, tmp_path):
    """Helper 65: where the TTGIR's layouts did not read (3.5.1's `elementType`, before it was known), every
    access of the kernel read as a 0-d tensor: verdict `scalar`, "scalar-access: a scalar (0-d) access moves
    one element by definition", beside a 16-byte LDG. It is `unknown`, for that reason, its counts kept."""
    import shutil

    entry = shutil.copytree(cache39 / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ", tmp_path / "e")
    ttgir = entry / "add_kernel.ttgir"
    ttgir.write_text(ttgir.read_text().replace("#ttg.blocked<{", "#ttg.blocked<{bogus = 1, ", 1))
    doc = json.loads(cli("loads", str(entry), "--json", "--no-sass").stdout)
    assert len(doc["rows"]) == 3
    for row in doc["rows"]:
        assert (row["verdict"], row["reasons"], row["predicted_vector_bytes"]) == ("unknown", ["layouts-unread"], None)
        assert "unknown field bogus" in row["evidence"]["layouts-unread"] and row["vector_bytes"] == 16
    text = cli("loads", str(entry), "--no-sass").stdout
    assert "scalar" not in text.split("reasons:")[0], text


def test_a_two_address_lds_form_is_two_accesses_of_its_width(cli):
    """Helpers 76 and 85 (a fused MoE and flash attention on gfx942): `ds_write2st64_b64` moves two 8-byte
    values at two addresses 4 KiB apart, and was said a 16-byte access ('16/8 as-predicted'); its count,
    half the LLIR's, was 'combined or removed some'. The access is 8 bytes; the pairing is said."""
    from pathlib import Path

    entry = next((Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "flashattn").glob("RF4T*"))
    rows = json.loads(cli("loads", str(entry), "--json").stdout)["rows"]
    paired = [r for r in rows if "ds_write2st64_b64" in (r["isa"] or {})]
    assert paired
    for r in paired:
        assert r["widths"]["amdgcn"]["ds_write2st64_b64"] == 16 and r["vector_bytes"] == 8, r
        (change,) = [c for c in r["count_changes"] if c["code"] == "merged"]
        assert "each ds_write2st64_b64 moves two values at two addresses" in change["evidence"], change


def test_some_stores_paired_into_a_two_address_form_are_said_paired(cli):
    """Helper 87 (Liger on gfx1100): 30 `ds_store_b32` and one `ds_store_2addr_stride64_b32` are the LLIR's 32
    stores, two of them paired: 'the compiler combined or removed some' said nothing of it."""
    from pathlib import Path

    entry = next((Path(__file__).parent / "data" / "thirdparty-rdna-triton3.9" / "liger").glob("67NT*"))
    rows = json.loads(cli("loads", str(entry), "--json").stdout)["rows"]
    (row,) = [r for r in rows if r["line"] == 680 and r["op"] == "ttg.local_store"]
    assert row["isa"] == {"ds_store_b32": 30, "ds_store_2addr_stride64_b32": 1}
    assert [c["evidence"] for c in row["count_changes"]] == [
        "32 llir instructions, 31 in amdgcn: each ds_store_2addr_stride64_b32 moves two values at two addresses, "
        "as llir moved one each: the backend paired 2 of them"]


def test_a_stride_loaded_from_memory_is_named_by_its_load_not_its_pointer(cli, tmp_path):
    """Helper 87: `s = tl.load(s_ptr)`, `tl.load(x_ptr + offs * s)`: 'the address steps by s_ptr per element
    ... a JIT launch passing 1 gets it specialized', advice no launch can follow (s_ptr is a pointer; the
    stride is what it points at)."""
    (tmp_path / "u.py").write_text(textwrap.dedent("""\
        import triton
        import triton.language as tl


        @triton.jit
        def uscale_kernel(x_ptr, s_ptr, out_ptr, BLOCK: tl.constexpr):
            s = tl.load(s_ptr)
            offs = tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, tl.load(x_ptr + offs * s))
        """))
    r = cli("compile", f"{tmp_path / 'u.py'}::uscale_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,s_ptr=*i32,out_ptr=*fp32", "--constexpr", "BLOCK=1024", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    rows = json.loads(cli("loads", "uscale_kernel", "--cache-dir", str(tmp_path / "c"), "--no-sass", "--json").stdout)
    (row,) = [r for r in rows["rows"] if r["line"] == 9 and r["op"] == "tt.load"]
    assert row["evidence"]["runtime-stride"].startswith(
        "along dim 0 the address steps by a value loaded from memory (tt.load at line 7) per element"), row
    assert "s_ptr" not in row["evidence"]["runtime-stride"]


def test_an_mma_rows_shape_names_each_operand_it_reads_from_shared_memory(cli):
    """Triton's Blackwell matmul tutorial (2-CTA tcgen05): its MMA reads A 256x128 and B 128x256 from shared
    memory; the table's shape column showed B's alone (`128x256 f16`), and a Gluon MMA whose A is in tensor
    memory read the same (helper 89). Each operand read from shared memory is named with its shape."""
    entry = next((Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9").glob("BCHWVK37*"))
    out = cli("loads", str(entry)).stdout
    (row,) = [ln for ln in out.splitlines() if "ttng.tc_gen5_mma" in ln]
    # (the layout column is B's, `shared1`: A's other layout is named beside its shape, helper 97)
    assert "A 256x128 shared, B 128x256 f16  shared1 " in row, row


def test_an_mma_row_names_an_operand_in_tensor_memory_and_another_layout():
    """Triton's warp-specialized attention tutorial (cuda:100): its P @ V MMA reads A (the P tile) from tensor
    memory, and its Q @ K MMA reads A and B through two shared layouts; the rows named neither (the layout
    column is the last shared operand's): `B 64x64 f16  shared`, `A 128x64, B 64x64 f16  shared2`."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.loads.analyze import analyze_entry

    folder = Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9"
    (entry,) = [e for e in Cache(folder).kernels() if e.hash.startswith("7IQX35U3")]
    rows = [r for r in analyze_entry(entry, sass=False).rows if r.kind == "mma_shared"]
    shapes = {(r.line, r.sites[0].mma_shapes, r.layout) for r in rows}
    assert {(231, "A 128x64 shared, B 64x64", "shared2"), (231, "A 128x64 tmem, B 64x64", "shared")} <= shapes, shapes


def test_a_clusters_rows_count_one_ctas_threads(cli):
    """The multi-CTA Gluon matmul (two CTAs of a cluster; its barrier phase, one i64 every CTA holds a copy of,
    in a 4-warp and a 1-warp partition): `one-per-thread` said "the 1-element tensor over 256 threads" (and 64),
    the two CTAs' threads counted as one CTA's (helper 97). A CTA's threads are counted, and the JSON names the
    CTAs (`threads` stays lanes x warps x CTAs)."""
    entry = next((Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9").glob("BCHWVK37*"))
    doc = json.loads(cli("loads", str(entry), "--no-sass", "--json").stdout)
    rows = {(r["line"], r["threads"]): r for r in doc["rows"] if r["shape"] == [1] and r["ctas"] == 2}
    assert {(455, 256), (388, 64)} <= set(rows), sorted(rows)
    assert rows[455, 256]["evidence"]["one-per-thread"].startswith(
        "the 1-element part of the tensor each of the 2 CTAs holds, over its 128 threads, leaves each thread one")
    assert "over its 32 threads" in rows[388, 64]["evidence"]["one-per-thread"]
    out = cli("loads", str(entry), "--no-sass", "--explain", "455").stdout
    assert "; 128 threads in each of 2 CTAs; 1 elements per thread" in out, out


def test_the_tensor_memory_allocations_instructions_are_named_on_the_def_line():
    """Blackwell kernels allocate their tensor memory at the kernel's `def` (PTX `tcgen05.alloc ...
    [global_smem], 128` at line 623:1 of the persistent matmul tutorial, then `ld.shared.b32` of the address
    it got); ptxas keeps the allocator's state with `ATOMS.OR`/`ATOMS.AND`. They were bare `atomic`s and a
    shared load on the def line (helper 88): they are named as the allocation's, nothing else there is."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.loads.analyze import analyze_entry

    folder = Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9"
    (entry,) = [e for e in Cache(folder).kernels() if e.hash.startswith("3KDH47HN")]
    at_def = [u for u in analyze_entry(entry).unattributed if u["line"] == 623]
    named = {(u["stage"], u["form"]) for u in at_def if "tensor memory allocation" in u.get("of", "")}
    assert {("llir", "load i32"), ("ptx", "ld.shared.b32")} <= named
    if any(u["stage"] == "sass" for u in at_def):  # (SASS where nvdisasm is here)
        assert {f for s, f in named if s == "sass"} == {"ATOMS.AND", "ATOMS.OR"}
    assert all(u["stage"] != "sass" or u["form"].startswith("ATOMS.") for u in at_def if u.get("of"))


def test_an_atomic_the_target_does_by_compare_and_swap_says_so(cli):
    """Liger's embedding backward: a bf16 `tl.atomic_add` is `global_atomic_cmpswap` in a loop on gfx90a,
    which has no bf16 atomic add (gfx942 has `global_atomic_pk_add_bf16`): the row was `as-predicted` with no
    word of the loop (helper 112)."""
    cache = Path(__file__).parent / "data" / "thirdparty-gfx90a-triton3.9" / "liger"
    for entry, cas in (("K6O5PLK3", True), ("Z3UMWY4H", False)):
        r = cli("loads", entry, "--cache-dir", str(cache), "--json")
        assert r.returncode == 0, r.stderr
        (row,) = [row for row in json.loads(r.stdout)["rows"] if row["op"] == "tt.atomic_rmw"]
        assert ("cas-loop" in row["reasons"]) == cas, (entry, row["reasons"], row["stages"])
        if cas:
            assert row["stages"]["amdgcn"] == {"global_atomic_cmpswap": 16}
            assert "made the `fadd <2 x bfloat>` atomic a compare-and-swap loop" in row["evidence"]["cas-loop"]


def test_an_access_whose_ptx_adds_an_inlining_call_is_joined_by_where_it_was_written():
    """Helper 131: Triton 3.3.1's pipelined `ttg.local_load`s of tutorial 06's inlined `_attn_bwd_dkdv` are
    located at 167:16 in TTGIR (no call site), and the PTX's debug info puts their 16 `ldmatrix` in inlined
    ranges at 180:50 and 196:26: PTX and SASS had nothing for the rows (`unknown`, no-isa-match), while
    `map --line 167` showed them. They are joined by the position the helper wrote them at."""
    (e,) = Cache(Path(__file__).parent / "data" / "inlined-ptx-cuda80-triton3.3").kernels()
    report = analyze_entry(e, sass=False)
    rows = {(r.line, r.col): r for r in report.rows if r.op == "ttg.local_load" and " @ " not in r.where}
    for pos in ((167, 16), (168, 16), (216, 16), (218, 17)):
        assert rows[pos].stages["ptx"] == {"ldmatrix.sync.aligned.m8n8.x4.shared.b16": 16}, (pos, rows[pos].stages)
        assert rows[pos].verdict == "as-predicted"


def test_an_instruction_written_in_another_file_is_not_joined_to_an_access_of_this_one(tmp_path):
    """Helper 132: ea2f16b's join of a PTX instruction by the position its helper wrote it at compared line and
    column only: an `ld.shared.v2.b32` written at other.py:152:20 (inlined at 173:26) was counted for the kernel
    file's own access at 152:20. (torchao's int matmul, Triton 3.6, its PTX given that location by hand.)"""
    import shutil

    src = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "torchao" / \
        "23YZV6A7FXFNL5PL33GFMMBDSFAYBVSOWU37GJWYM2DVZKLEGFAA"
    entry = shutil.copytree(src, tmp_path / "c" / src.name, ignore=shutil.ignore_patterns("*.cubin"))
    (ptx,) = entry.glob("*.ptx")
    text = ptx.read_text()
    first = "\tld.shared.v2.b32 \t{%r114, %r115}, [%r141];\n"
    assert first in text
    text = text.replace(first, "\t.loc\t3 152 20  // other.py:152:20 @[ intmm_triton.py:173:26 ]\n"
                        + first + "\t.loc\t1 173 26  // intmm_triton.py:173:26\n", 1)
    text = text.replace('\t.file\t2 "', '\t.file\t3 "/packages/torchao/kernel/other.py"\n\t.file\t2 "', 1)
    ptx.write_text(text)
    (e,) = Cache(entry.parent).kernels()
    report = analyze_entry(e, sass=False)
    (row,) = [r for r in report.rows if (r.line, r.col) == (152, 20) and r.kind == "shared_load"]
    assert "ld.shared.v2.b32" not in row.stages.get("ptx", {}), row.stages
    assert any(u["stage"] == "ptx" and u.get("written_file", "").endswith("other.py") for u in report.unattributed)
