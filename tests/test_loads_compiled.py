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

from tritonscope.artifacts.cache import Cache
from tritonscope.loads.analyze import VERDICTS, analyze_entry

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


def test_aligned_tile_and_vector_atomic_cuda90(compile_kernel):
    report = _report(compile_kernel("gemv", target="cuda:90"))
    tile = _tile(report)
    assert tile.stages["ptx"] == {"ld.global.L1::evict_first.L2::cache_hint.v4.b32": 16}
    assert (tile.elements_per_thread, tile.predicted_vectors_per_thread, tile.verdict) == (128, 16, "as-predicted")
    atomic = next(r for r in report.rows if r.op == "tt.atomic_rmw")
    assert atomic.stages["ptx"] == {"atom.global.gpu.acq_rel.add.v2.f32": 1}
    assert (atomic.predicted_vector_bytes, atomic.vector_bytes, atomic.verdict) == (8, 8, "as-predicted")


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


TWO_LOADS = Path(__file__).parent / "data" / "loads" / "two_loads.py"


def _two_loads(compile_kernel, target: str):
    return _report(compile_kernel(f"{TWO_LOADS}::two_loads_kernel", target=target,
                                  signature="a_ptr=*fp16,b_ptr=*fp32,out_ptr=*fp32,n=i32",
                                  constexprs={"BLOCK": 1024}))


def test_two_loads_on_one_line_are_separated_by_column(compile_kernel):
    """tests/data/loads/two_loads.py line 10 holds a tl.store and two tl.loads (cols 5, 30, 69 in 3.9)."""
    report = _two_loads(compile_kernel, "cuda:90")
    by_col = {r.col: r for r in report.rows}
    assert sorted(by_col) == [5, 30, 69]
    assert (by_col[30].dtype, by_col[30].stages["ptx"]) == ("f16", {"ld.global.v4.b32": 1})
    assert (by_col[69].dtype, by_col[69].stages["ptx"]) == ("f32", {"ld.global.v4.b32": 2})
    assert all(r.attribution == "exact" for r in report.rows)
    store = by_col[5]
    assert (store.stages["ptx"], store.verdict) == ({"st.global.b32": 8}, "scalar")
    assert [r.code for r in store.reasons] == ["mask-on-contiguous-dim"]
    assert "its bound n (i32) has no tt.divisibility" in store.reasons[0].evidence


def test_two_loads_sass_split_by_ptx_widths(compile_kernel):
    """SASS has no columns: its three LDG.E.128 of line 10 are shared out 1 + 2 as PTX attributed them."""
    result = compile_kernel(f"{TWO_LOADS}::two_loads_kernel", target="cuda:90",
                            signature="a_ptr=*fp16,b_ptr=*fp32,out_ptr=*fp32,n=i32", constexprs={"BLOCK": 1024})
    entry = Cache(Path(result.entry)).kernels()[0]
    report = analyze_entry(entry, sass=True)
    if "sass" not in report.stages:
        pytest.skip("nvdisasm not available")
    by_col = {r.col: r for r in report.rows}
    assert by_col[30].stages["sass"] == {"LDG.E.128": 1}
    assert by_col[69].stages["sass"] == {"LDG.E.128": 2}
    assert by_col[5].stages["sass"] == {"STG.E": 8}
    assert all(not r.ambiguous for r in report.rows)


def test_mask_lowered_to_branches_on_amd(cli, tmp_path):
    """Without AMD buffer ops, a mask varying along the contiguous dim becomes one branch per element."""
    cache = tmp_path / "cache"
    p = cli("compile", f"{TWO_LOADS}::masked_copy_kernel", "--signature", "a_ptr=*fp16,out_ptr=*fp16,n=i32",
            "--constexpr", "BLOCK=1024", "--target", "hip:gfx942", "--cache-dir", str(cache),
            env={"AMDGCN_USE_BUFFER_OPS": "0"})
    assert p.returncode == 0, p.stderr
    report = analyze_entry(Cache(cache).kernels()[0])
    load = next(r for r in report.rows if r.op == "tt.load")
    assert (load.line, load.predicted_vector_bytes) == (16, 8)
    assert load.stages == {"llir": {"load <1 x half>": 4}, "amdgcn": {"global_load_ushort": 4}}
    assert load.llir_guarded == 4
    assert (load.verdict, [r.code for r in load.reasons]) == ("scalar", ["mask-on-contiguous-dim", "branch"])


TMA_COPY = Path(__file__).parent / "data" / "loads" / "tma_copy.py"


def test_tensor_descriptor_copy(compile_kernel):
    """Hopper lowers descriptor loads/stores to TMA (one bulk copy per tile); gfx942 to buffer ops."""
    spec = dict(signature="a_ptr=*fp16,out_ptr=*fp16,M=i32:16,N=i32:16", constexprs={"BLOCK": 64})
    report = _report(compile_kernel(f"{TMA_COPY}::tma_copy_kernel", target="cuda:90", **spec))
    load, store = report.rows
    assert (load.kind, load.shape, load.dtype, load.verdict) == ("tma_load", (64, 64), "f16", "as-predicted")
    assert load.stages["ptx"] == {"cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes": 1}
    assert store.kind == "tma_store"
    assert store.stages["llir"] == {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group": 1}
    report = _report(compile_kernel(f"{TMA_COPY}::tma_copy_kernel", target="hip:gfx942", **spec))
    assert [(r.op, r.stages["amdgcn"], r.verdict) for r in report.rows] == [
        ("amdg.buffer_load", {"buffer_load_dwordx4": 2}, "as-predicted"),
        ("amdg.buffer_store", {"buffer_store_dwordx4": 2}, "as-predicted")]


INDEXED = str(Path(__file__).parent / "data" / "compile" / "indexed_rows.py") + "::indexed_rows_kernel"
INDEXED_SIG = "idx_ptr=*i32,w_ptr=*fp32,src_ptr=*bf16,out_ptr=*bf16,n_valid=i32,EM=i32,stride=i32:16"


@pytest.mark.parametrize("target", ["cuda:90", "hip:gfx942"])
def test_gather_and_a_scaled_argument_are_told_apart(compile_kernel, target):
    """Rows picked through an index array (a mixture-of-experts routing pattern). The index load's address
    holds EM only as `pid_m * 64`: EM's missing tt.divisibility cannot misalign it, so it is not blamed
    (it was, with "the coalesce pass therefore gave the layout 1 contiguous element", for a slice layout
    the coalesce pass never picks); the weight load's address holds the loaded indices: a gather."""
    result = compile_kernel(INDEXED, target=target, signature=INDEXED_SIG,
                            constexprs={"BLOCK_M": 64, "BLOCK_N": 64})
    rows = {r.line: r for r in _report(result).rows}
    index, weight, tile = rows[13], rows[15], rows[17]
    assert (index.sites[0].layout.kind, index.verdict) == ("slice", "scalar")
    assert [r.code for r in index.reasons] == ["layout-contiguity-1"]
    assert "the coalesce pass picks blocked layouts only" in index.reasons[0].evidence
    assert next(a for a in index.alignment if a["value"] == "EM")["multiple"] == 64
    assert [r.code for r in weight.reasons] == ["gather", "layout-contiguity-1"]
    assert "computed from loaded values" in weight.reasons[0].evidence
    assert not any(a["value"] == "EM" and "multiple" in a for a in weight.alignment)  # only through the load
    assert tile.verdict == "as-predicted"  # rows of a gathered tile are still contiguous along the columns


STRIDED = str(Path(__file__).parent / "data" / "compile" / "strided_rows.py") + "::strided_rows_kernel"


@pytest.mark.parametrize("target", ["cuda:90", "hip:gfx942"])
def test_strides_and_small_tiles_are_the_reason_given(compile_kernel, target):
    """Scalar loads of a layout that allows 16 bytes, explained by the address, not left 'unexplained':
    `offs * 4` (strided), `offs * stride` (a runtime stride: a launch with stride 1 would have had it
    specialized away), a 64-element tile over more threads (one element each), `offs // 128` (one
    address per run: a block scale)."""
    result = compile_kernel(STRIDED, target=target, signature="x_ptr=*fp32,y_ptr=*fp32,z_ptr=*fp32,s_ptr=*fp32,"
                            "out_ptr=*fp32,stride=i32", constexprs={"BLOCK": 1024, "SMALL": 64})
    rows = {r.line: r for r in _report(result).rows}
    codes = {line: [x.code for x in rows[line].reasons] for line in (11, 12, 13, 14)}
    # (the stride's missing tt.divisibility is no cause: a stride divisible by 16 leaves elements apart too)
    assert codes == {11: ["strided"], 12: ["runtime-stride"],
                     13: ["one-per-thread", "layout-contiguity-1"], 14: ["repeated-address"]}
    assert all(rows[line].verdict == "scalar" for line in (11, 12, 13, 14))
    assert "4 elements (16 bytes) apart" in rows[11].reasons[0].evidence
    assert "steps by stride per element" in rows[12].reasons[0].evidence
    assert "divided by 128" in rows[14].reasons[0].evidence
    assert rows[15].verdict == "as-predicted"
    # helper 76: fewer warps help only a tile larger than one warp (64 elements: 2 warps' lanes on cuda, one
    # wave's on gfx942); 16 elements, fewer than one warp's lanes, leave each lane one element whatever the warps
    more = "a larger tile, or fewer warps," if target.startswith("cuda") else "only a larger tile"
    assert f"({more} would give each thread several)" in rows[13].reasons[0].evidence
    tiny = _report(compile_kernel(STRIDED, target=target, signature="x_ptr=*fp32,y_ptr=*fp32,z_ptr=*fp32,"
                                  "s_ptr=*fp32,out_ptr=*fp32,stride=i32", constexprs={"BLOCK": 1024, "SMALL": 16}))
    small = next(r for r in tiny.rows if r.line == 13)
    assert "(only a larger tile would give each thread several)" in small.reasons[0].evidence


@pytest.mark.parametrize("target", ["hip:gfx1100", "hip:gfx1201"])
def test_rdna_wave32_mnemonics(compile_kernel, target):
    """RDNA (gfx11, gfx12; 32-lane waves) spells its memory instructions by bits, not dwords
    (`buffer_load_b128`, `ds_load_b128`, `s_load_b256`), and invalidates its caches around a barrier
    (`buffer_gl0_inv` on gfx11, `global_inv` on gfx12): those move no data and are no memory instruction."""
    report = _report(compile_kernel("gemv_int4", target=target))
    by_line = {r.line: r for r in report.rows}
    assert by_line[32].stages["amdgcn"] == {"buffer_load_b128": 8}
    assert (by_line[32].vector_bytes, by_line[32].verdict) == (16, "as-predicted")
    assert by_line[40].stages["amdgcn"] == {"buffer_atomic_add_f32": 1}
    assert all(r.verdict in VERDICTS and r.verdict != "unknown" for r in report.rows)
    forms = {u["form"] for u in report.unattributed if u["stage"] == "amdgcn"}
    assert {"ds_load_b128", "ds_store_b128"} <= forms
    assert not [f for f in forms if f.endswith("_inv") or f.startswith(("global_inv", "global_wb"))], forms


MASK_BOUNDS = Path(__file__).parent / "data" / "loads" / "mask_bounds.py"


def test_a_mask_through_a_reshape_and_the_bound_of_the_contiguous_dim(compile_kernel):
    """A mask built on `tl.reshape(tl.arange(0, K), (1, K))` (how a tensor descriptor's loads are lowered
    where there is no TMA) was `unexplained`: the walk stopped at tt.reshape. In a 2-D mask only the bound of
    the contiguous dim's comparison is named (`M` bounds dim 0: it was named too)."""
    reshaped = _report(compile_kernel(f"{MASK_BOUNDS}::masked_reshape", signature="a_ptr=*fp16,c_ptr=*fp16,K=i32",
                                      constexprs={"BLOCK_K": 1024}))
    load = next(r for r in reshaped.rows if r.op == "tt.load")
    assert (load.verdict, [r.code for r in load.reasons]) == ("scalar", ["mask-on-contiguous-dim"])
    assert "its bound K (i32) has no tt.divisibility" in load.reasons[0].evidence
    tile = _report(compile_kernel(f"{MASK_BOUNDS}::masked_tile",
                                  signature="a_ptr=*fp16,c_ptr=*fp16,M=i32,K=i32,stride_m=i32:16",
                                  constexprs={"BLOCK_M": 64, "BLOCK_K": 64}))
    load = next(r for r in tile.rows if r.op == "tt.load")
    assert (load.verdict, [r.code for r in load.reasons]) == ("scalar", ["mask-on-contiguous-dim"])
    assert load.reasons[0].evidence.endswith("its bound K (i32) has no tt.divisibility, so no group of elements "
                                             "shares a mask bit")


SCALED = Path(__file__).parent / "data" / "loads" / "scaled_operands.py"


def test_a_layout_conversion_s_stores_at_an_alloc_s_position_are_not_the_alloc_s(compile_kernel):
    """tl.dot_scaled's B operand on cuda:90: a `ttg.convert_layout` and a `ttg.local_alloc` at one position
    (line 12). The convert's 4 `st.shared.v4.b32` went to the alloc's 128 `st.shared.b16` (its bytes read
    16/2): they are listed with the instructions of no access, beside the convert's `ldmatrix`."""
    report = _report(compile_kernel(f"{SCALED}::scaled",
                                    signature="a_ptr=*u8,as_ptr=*u8,b_ptr=*u8,bs_ptr=*u8,c_ptr=*fp32",
                                    constexprs={"M": 128, "N": 128, "K": 128}))
    alloc = next(r for r in report.rows if r.op == "ttg.local_alloc" and r.line == 12)
    assert alloc.stages["ptx"] == {"st.shared.b16": 128} and alloc.vector_bytes == 2
    extra = {(u["stage"], u["form"]): u["count"] for u in report.unattributed if u["line"] == 12}
    assert extra[("ptx", "st.shared.v4.b32")] == 4 and extra[("ptx", "ldmatrix.sync.aligned.m8n8.x4.shared.b16")] == 4


SPIN_LOCK = Path(__file__).parent / "data" / "loads" / "spin_lock.py"


def test_a_lock_s_release_is_its_own_access_where_the_backend_put_it_on_the_acquire(compile_kernel):
    """gfx942: the `atomicrmw xchg` of `tl.atomic_xchg(lock, 0)` (line 12) carries the line of the
    `tl.atomic_cas` that acquires the lock (line 8): it was counted in the CAS's row, and the exchange's row
    had no instruction (`unknown`)."""
    report = _report(compile_kernel(f"{SPIN_LOCK}::spin_lock", target="hip:gfx942",
                                    signature="lock_ptr=*i32,cnt_ptr=*fp32,x_ptr=*fp32", constexprs={"BLOCK": 128}))
    cas = next(r for r in report.rows if r.op == "tt.atomic_cas")
    xchg = next(r for r in report.rows if r.op == "tt.atomic_rmw" and r.line == 12)
    assert (cas.stages["llir"], cas.stages["amdgcn"]) == ({"cmpxchg i32": 1}, {"global_atomic_cmpswap": 1})
    assert (xchg.stages["llir"], xchg.stages["amdgcn"]) == ({"atomicrmw xchg i32": 1}, {"global_atomic_swap": 1})
    assert xchg.verdict != "unknown" and [r.code for r in xchg.relocations] == ["relocated", "relocated"]


ATOMICS = Path(__file__).parent / "data" / "loads" / "atomics.py"


@pytest.mark.parametrize("target,loops", [("cuda:80", {10: 2}), ("hip:gfx90a", {10: 4, 11: 4, 12: 4}),
                                          ("hip:gfx942", {10: 4, 11: 4})])
def test_atomics_done_by_compare_and_swap_loops_say_so(compile_kernel, target, loops):
    """A bf16 `tl.atomic_add` is a compare-and-swap loop on sm_80 (its `atom.cas.b32` swaps a word of which
    16 bits are the element's: 2 bytes, not 4) and on gfx90a, where f16 and f32 adds loop too (gfx942 does
    them natively from the same LLIR); an exchange and a `tl.atomic_cas` are no such loop (helpers 112, 114).
    gfx942 adds a bf16 or f16 pair of neighbouring lanes natively (`global_atomic_pk_add_bf16`) and loops for
    lanes it cannot pair: the loop is said in part, with the forms' counts (helper 114)."""
    report = _report(compile_kernel(f"{ATOMICS}::atomics", target=target, constexprs={"BLOCK": 256},
                                    signature="x_ptr=*fp32:16,h_ptr=*fp16:16,b_ptr=*bf16:16,f_ptr=*fp32:16,"
                                              "i_ptr=*i32:16,c_ptr=*i32:16,n=i32"))
    atomic = {r.line: r for r in report.rows if r.kind == "atomic"}
    assert sorted(atomic) == [10, 11, 12, 13, 14]
    said = {line: r.vector_bytes for line, r in atomic.items() if any(x.code == "cas-loop" for x in r.reasons)}
    assert said == loops
    if target == "hip:gfx942":
        text = next(x.evidence for x in atomic[10].reasons if x.code == "cas-loop")
        assert "part of the" in text and "global_atomic_cmpswap x2, beside global_atomic_pk_add_bf16 x1" in text


def test_a_scalar_half_precision_red_that_ptxas_loops_is_one_element_not_the_swapped_word(compile_kernel):
    """cuda:90: Triton writes a bf16 or f16 `tl.atomic_add` as inline `red.global...add.noftz.bf16`, one element
    a lane (2 bytes); ptxas does each by `ATOMG.E.CAS` of its 32-bit word. The row was read as a 4-byte
    vector, `as-predicted` with no word of the loop (helper 116): it is 2 bytes, and the loop is said."""
    from tritonscope.artifacts import tools

    if not tools.find_nvidia_tool("nvdisasm"):
        pytest.skip("no nvdisasm")
    result = compile_kernel(f"{ATOMICS}::atomics", target="cuda:90", constexprs={"BLOCK": 256},
                            signature="x_ptr=*fp32:16,h_ptr=*fp16:16,b_ptr=*bf16:16,f_ptr=*fp32:16,"
                                      "i_ptr=*i32:16,c_ptr=*i32:16,n=i32")
    assert result.ok, result.error.headline()
    (entry,) = Cache(Path(result.entry)).kernels()
    atomic = {r.line: r for r in analyze_entry(entry, sass=True).rows if r.kind == "atomic"}
    for line in (10, 11):  # bf16, f16
        row = atomic[line]
        assert row.vector_stage == "sass" and all("CAS" in f for f in row.stages["sass"]), row.stages
        assert row.vector_bytes == 2 and row.verdict != "as-predicted", (line, row.vector_bytes, row.verdict)
        assert any(x.code == "cas-loop" for x in row.reasons), row.reasons
    assert not any(x.code == "cas-loop" for x in atomic[12].reasons)  # f32: RED.E.ADD.F32, native


STATIC_RANGE = Path(__file__).parent / "data" / "loads" / "static_range.py"


@pytest.mark.parametrize("target,vector,narrow", [("cuda:90", 8, {"ld.global.b16": 8, "ld.global.b32": 2}),
                                                  ("hip:gfx942", 4, {"buffer_load_ushort": 4})])
def test_copies_of_an_access_not_alike_say_so_and_why(compile_kernel, target, vector, narrow):
    """`tl.static_range(4)` over `x_ptr + i * stride + offs` (f16, 4 contiguous a thread): copy 0 is one 8-byte
    vector, copy 2 (`2 * stride`) two 4-byte loads, copies 1 and 3 four 2-byte loads each (gfx942, 64 lanes:
    2 a thread, a 4-byte `buffer_load_dword` or two `buffer_load_ushort` a copy). The row took the
    widest, `as-predicted` with no word, and its alignment facts from copy 0 alone, where `0 * stride` is
    folded away (helper 116)."""
    report = _report(compile_kernel(f"{STATIC_RANGE}::static_range", target=target,
                                    signature="x_ptr=*fp16:16,o_ptr=*fp32:16,stride=i32",
                                    constexprs={"BLOCK": 512, "N": 4}))
    (row,) = [r for r in report.rows if r.line == 10]  # (gfx942: `amdg.buffer_load`)
    assert row.instances == 4 and row.copies == "unrolled" and row.predicted_vector_bytes == vector
    codes = [x.code for x in row.reasons]
    assert any(a["value"] == "stride" and "tt.divisibility" not in a for a in row.alignment), row.alignment
    assert row.verdict == "as-predicted" and codes[:2] == ["narrower-copies", "unknown-alignment"], codes
    said = row.reasons[0].evidence
    assert all(f"{n}x {f} (" in said for f, n in narrow.items()), said
    assert "stride (i32)" in row.reasons[1].evidence
    (store,) = [r for r in report.rows if r.line == 11]
    assert store.reasons == []  # one copy: nothing to say


SCALAR_ATOMIC = Path(__file__).parent / "data" / "loads" / "scalar_atomic.py"


def test_a_scalar_atomic_the_lowering_put_on_another_line_is_found_there(compile_kernel):
    """Triton 3.9 on gfx942 gives a scalar `tl.atomic_add(i64_ptr, 1)` (line 12) the position of the `tl.load`
    of line 9 (`!dbg` of 9:10): the row was `unknown` (no-isa-match) and its `atomicrmw add i64` and
    `global_atomic_add_x2` listed as no access's (helper 116). The kernel's only unclaimed atomic of its
    operation and type, at a position with no atomic access: the row's."""
    report = _report(compile_kernel(f"{SCALAR_ATOMIC}::scalar_atomic", target="hip:gfx942",
                                    signature="i64_ptr=*i64,cas_ptr=*i32,n=i32", constexprs={"BLOCK": 256}))
    (row,) = [r for r in report.rows if r.line == 12]
    assert row.stages["llir"] == {"atomicrmw add i64": 1}, row.stages
    assert row.stages["amdgcn"] == {"global_atomic_add_x2": 1}, row.stages
    assert row.verdict == "scalar" and [x.code for x in row.relocations] == ["relocated", "relocated"]
    assert "sit on 9:10, where no atomic access is" in row.relocations[0].evidence
    assert not [u for u in report.unattributed if u["kind"] == "atomic"]
    (cas,) = [r for r in report.rows if r.line == 11]  # (the compare-and-swap keeps its own)
    assert cas.stages["llir"] == {"cmpxchg i32": 1} and not cas.relocations


SPLAT_ADDRESS = Path(__file__).parent / "data" / "loads" / "splat_address.py"


@pytest.mark.parametrize("target,isa", [("cuda:90", {"ld.global.b32": 8}), ("hip:gfx942", {"s_load_dword": 1})])
def test_an_address_that_does_not_vary_is_said_to_repeat(compile_kernel, target, isa):
    """`tl.load(s_ptr + tl.zeros([BLOCK], tl.int32))` (mamba's A with a stride of 0 alike): every element reads
    one address, so no vector is possible (cuda:90: 8 `ld.global.b32` of `[%rd3 + 0]`; gfx942: one scalar
    `s_load_dword`). The row was `unexplained` (helper 125)."""
    report = _report(compile_kernel(f"{SPLAT_ADDRESS}::splat_address", target=target,
                                    signature="x_ptr=*fp32:16,s_ptr=*fp32:16,out_ptr=*fp32:16",
                                    constexprs={"BLOCK": 1024}))
    (row,) = [r for r in report.rows if r.line == 9]
    assert row.stages["ptx" if target.startswith("cuda") else "amdgcn"] == isa, row.stages
    assert row.verdict == "scalar" and [x.code for x in row.reasons] == ["repeated-address"], row.reasons
    assert row.reasons[0].evidence.startswith("the address does not vary along dim 0")
    (vector,) = [r for r in report.rows if r.line == 8]
    assert vector.verdict == "as-predicted" and vector.reasons == []


def test_one_element_a_thread_is_not_blamed_on_alignment(compile_kernel):
    """256 f32 over 256 threads (gfx942, 4 waves of 64): one element a thread, so no alignment could make a
    vector; `x_ptr + i * stride + offs` was still given unknown-alignment, 'the coalesce pass therefore gave
    the layout 1 contiguous element per thread' (helper 126)."""
    report = _report(compile_kernel(f"{STATIC_RANGE}::static_range", target="hip:gfx942",
                                    signature="x_ptr=*fp32:16,o_ptr=*fp32:16,stride=i32",
                                    constexprs={"BLOCK": 256, "N": 3}))
    (row,) = [r for r in report.rows if r.line == 10]
    assert [x.code for x in row.reasons] == ["one-per-thread", "layout-contiguity-1"], row.reasons


def test_an_address_from_a_scan_is_not_said_to_repeat(compile_kernel):
    """Helper 130: offsets from `tl.cumsum` (0..255, a `"tt.scan"` whose result type is printed after its
    region) read as a scalar, the same for every element: repeated-address, falsely. Its steps are unknown."""
    report = _report(compile_kernel(f"{SPLAT_ADDRESS}::scan_address", target="cuda:90",
                                    signature="x_ptr=*fp32:16,out_ptr=*fp32:16", constexprs={"BLOCK": 256}))
    (row,) = [r for r in report.rows if r.kind == "global_load"]
    assert "repeated-address" not in [x.code for x in row.reasons], row.reasons
    # a reduction to a scalar (its type on its region's closing line) is the same for every element: the
    # address `x_ptr + tl.max(offs) + offs * 0` repeats
    report = _report(compile_kernel(f"{SPLAT_ADDRESS}::reduced_address", target="cuda:90",
                                    signature="x_ptr=*fp32:16,out_ptr=*fp32:16", constexprs={"BLOCK": 256}))
    (row,) = [r for r in report.rows if r.kind == "global_load"]
    assert [x.code for x in row.reasons] == ["repeated-address"], row.reasons


@pytest.mark.parametrize("target,narrow,wide", [("cuda:90", {"st.global.b16": 8}, {"st.global.b32": 4}),
                                                ("hip:gfx942", {"buffer_store_short": 4}, {"buffer_store_dword": 2})])
def test_unrolled_copies_in_layouts_of_other_widths_take_their_own_instructions(compile_kernel, target, narrow,
                                                                                wide):
    """Helper 126: `tl.static_range(3)` over `o_ptr + i * stride + offs` (f16) gives each copy its own store
    and layout (copy 1: 1 contiguous, unaligned; copy 2, `2 * stride`: 2). Their 2- and 4-byte stores were
    ambiguous between both rows, each 'as-predicted' with bytes 4/2. Each takes the width its layout predicts."""
    report = _report(compile_kernel(f"{STATIC_RANGE}::static_range_store", target=target,
                                    signature="x_ptr=*fp16:16,o_ptr=*fp16:16,stride=i32",
                                    constexprs={"BLOCK": 1024, "N": 3}))
    isa = "ptx" if target.startswith("cuda") else "amdgcn"
    stores = sorted((r for r in report.rows if r.line == 19), key=lambda r: -(r.predicted_vector_bytes or 0))
    assert len(stores) == 3 and not any(r.ambiguous for r in stores), [(r.where, r.ambiguous) for r in stores]
    assert stores[1].stages[isa] == wide and stores[2].stages[isa] == narrow, [r.stages for r in stores]
    assert stores[2].verdict == "scalar" and stores[1].verdict == "as-predicted"


def test_a_scalar_atomic_placed_on_a_buffer_atomics_position_is_found_there(compile_kernel):
    """Helper 126: gfx942 gives the scalar `tl.atomic_add(c_ptr, 1)` (line 21) the position of the vector
    buffer atomic before it (20:5): that row took its `atomicrmw add i32` beside its own buffer atomic, and the
    scalar's row was unknown, no-isa-match. A buffer atomic lowers to buffer instructions alone."""
    report = _report(compile_kernel(f"{SCALAR_ATOMIC}::scalar_beside_buffer_atomic", target="hip:gfx942",
                                    signature="x_ptr=*i32,c_ptr=*i32,n=i32", constexprs={"BLOCK": 256}))
    rows = {r.line: r for r in report.rows if r.kind == "atomic"}
    assert rows[20].stages["llir"] == {"raw.ptr.buffer.atomic i32": 1}, rows[20].stages
    assert rows[21].stages["llir"] == {"atomicrmw add i32": 1} and rows[21].verdict == "scalar", rows[21].stages
    assert "where only an AMD buffer atomic is" in rows[21].relocations[0].evidence
