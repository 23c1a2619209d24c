"""memops.classify: each stage's memory instructions, FileCheck style (instruction text -> kind/form/width).

Lines marked `corpus` are copied from the real caches in ../shared/corpus; the others are written in the
exact syntax of forms the corpus does not contain (atomics, TMA, flat/scratch/LDS atomics).
"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

from tritonscope.artifacts.cache import Cache
from tritonscope.stages import memops, parse_entry_stage
from tritonscope.stages.common import Op


def op(opname: str, text: str) -> Op:
    return Op(1, opname, text)


# (stage, op name as the stage parser gives it, text) -> (kind, form, width_bytes, space, predicated)
CASES = [
    # corpus: gemv_tile_kernel hip:gfx942 LLIR line 111
    ("llir", "load", "%107 = load <8 x half>, ptr addrspace(1) %106, align 16, !dbg !24",
     ("global_load", "load <8 x half>", 16, "global", False)),
    ("llir", "load", "%5 = load half, ptr addrspace(1) %4, align 2, !dbg !9",
     ("global_load", "load half", 2, "global", False)),
    # corpus: gemv_tile_kernel hip:gfx942 LLIR line 749
    ("llir", "store", "store <4 x float> %682, ptr addrspace(3) %681, align 16, !dbg !14",
     ("shared_store", "store <4 x float>", 16, "shared", False)),
    ("llir", "call", "%62 = call <8 x half> @llvm.masked.load.v8f16.p1(ptr addrspace(1) %61, i32 16, "
     "<8 x i1> %60, <8 x half> zeroinitializer), !dbg !20",
     ("global_load", "masked.load <8 x half>", 16, "global", True)),
    ("llir", "call", "call void @llvm.masked.store.v4f16.p1(<4 x half> %90, ptr addrspace(1) %89, i32 8, "
     "<4 x i1> %88), !dbg !26",
     ("global_store", "masked.store <4 x half>", 8, "global", True)),
    # corpus: gemv_tile_kernel cuda:90 LLIR line 172
    ("llir", "call", '%171 = tail call { i32, i32, i32, i32 } asm sideeffect "@$10 ld.global.L1::evict_first.'
     'L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $8 + 0 ], $9;", "=r,=r,=r,=r,0,1,2,3,l,l,b"(i32 0, i32 0, '
     'i32 0, i32 0, ptr addrspace(1) %107, i64 %170, i1 %55) #5, !dbg !23',
     ("global_load", "ld.global.L1::evict_first.L2::cache_hint.v4.b32", 16, "global", True)),
    ("llir", "call", '%717 = tail call i16 asm sideeffect "mov.u16 $0, 0x0;\\0A\\09ld.global.b16 { $0 }, '
     '[ $1 + 0 ];", "=c,l"(ptr addrspace(1) %716) #5, !dbg !25',
     ("global_load", "ld.global.b16", 2, "global", False)),
    ("llir", "call", 'tail call void asm sideeffect "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x10, $2;",'
     ' "r,l,r"(ptr addrspace(3) %65, ptr addrspace(1) %47, i32 %64) #3, !dbg !35',
     ("async_copy", "cp.async.cg.shared.global", 16, "global", True)),
    ("llir", "call", "%151 = tail call float @llvm.amdgcn.raw.ptr.buffer.load.f32(ptr addrspace(8) %140, "
     "i32 %150, i32 0, i32 0), !dbg !27",
     ("buffer_load", "raw.ptr.buffer.load float", 4, "global", False)),
    ("llir", "call", "tail call void @llvm.amdgcn.raw.ptr.buffer.store.f32(float %200, ptr addrspace(8) %190, "
     "i32 %150, i32 0, i32 0), !dbg !21",
     ("buffer_store", "raw.ptr.buffer.store float", 4, "global", False)),
    ("llir", "call", "tail call void @llvm.amdgcn.global.load.async.lds(ptr addrspace(1) %47, ptr addrspace(3) "
     "%65, i32 16, i32 0, i32 0), !dbg !35",
     ("async_copy", "global.load.async.lds", 16, "global", False)),
    # the destination a constant expression with an i32 of its own (the LDS offset, read as the size before)
    ("llir", "call", "tail call void @llvm.amdgcn.global.load.async.lds(ptr addrspace(1) %235, ptr addrspace(3) "
     "getelementptr (i8, ptr addrspace(3) @global_smem, i32 32944), i32 16, i32 0, i32 0), !dbg !35",
     ("async_copy", "global.load.async.lds", 16, "global", False)),
    ("llir", "call", "call void @llvm.amdgcn.raw.ptr.buffer.load.lds(ptr addrspace(8) %r, ptr addrspace(3) "
     "getelementptr inbounds (i8, ptr addrspace(3) @global_smem, i32 4096), i32 4, i32 %v, i32 0, i32 0, i32 0)",
     ("async_copy", "raw.ptr.buffer.load.lds", 4, "global", False)),
    ("llir", "atomicrmw", '%9 = atomicrmw fadd ptr addrspace(1) %8, float %7 syncscope("agent") monotonic, '
     'align 4, !dbg !12',
     ("atomic", "atomicrmw fadd float", 4, "global", False)),
    ("llir", "cmpxchg", '%9 = cmpxchg ptr addrspace(1) %8, i32 0, i32 1 syncscope("agent") acquire monotonic',
     ("atomic", "cmpxchg i32", 4, "global", False)),
    ("llir", "call", '%12 = tail call float asm sideeffect "mov.u32 $0, 0x0;\\0A\\09@$3 atom.global.gpu.acq_rel'
     '.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"(ptr addrspace(1) %10, float %11, i1 %9), !dbg !14',
     ("atomic", "atom.global.gpu.acq_rel.add.f32", 4, "global", True)),
    ("llir", "call", "%r = tail call { i32, i32, i32, i32 } @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3("
     "ptr addrspace(3) %p), !dbg !5",
     ("shared_load", "ldmatrix.sync.aligned.m8n8.x4.b16.p3", 16, "shared", False)),
    # PTX (corpus: gemv_tile_kernel cuda:90 .ptx line 193)
    ("ptx", "ld.global.L1::evict_first.L2::cache_hint.v4.b32",
     "@%p1 ld.global.L1::evict_first.L2::cache_hint.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ], %rd2;",
     ("global_load", "ld.global.L1::evict_first.L2::cache_hint.v4.b32", 16, "global", True)),
    ("ptx", "st.global.v4.b32", "st.global.v4.b32 [ %rd2 + 0 ], { %r5, %r6, %r7, %r8 };",
     ("global_store", "st.global.v4.b32", 16, "global", False)),
    ("ptx", "ld.shared.b32", "ld.shared.b32 %r3, [%r2];", ("shared_load", "ld.shared.b32", 4, "shared", False)),
    ("ptx", "st.shared.v2.b16", "@%p3 st.shared.v2.b16 [ %r9 + 0 ], { %rs1, %rs2 };",
     ("shared_store", "st.shared.v2.b16", 4, "shared", True)),
    ("ptx", "cp.async.cg.shared.global", "cp.async.cg.shared.global [ %r16 + 0 ], [ %rd7 + 0 ], 0x10, %r18;",
     ("async_copy", "cp.async.cg.shared.global", 16, "global", True)),
    ("ptx", "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes",
     "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
     ("tma", "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes", None, "tensor", False)),
    ("ptx", "atom.global.gpu.acq_rel.add.f32", "@%p1 atom.global.gpu.acq_rel.add.f32 %r1, [ %rd1 + 0 ], %r2;",
     ("atomic", "atom.global.gpu.acq_rel.add.f32", 4, "global", True)),
    ("ptx", "red.global.gpu.add.f32", "red.global.gpu.add.f32 [ %rd1 + 0 ], %r2;",
     ("atomic", "red.global.gpu.add.f32", 4, "global", False)),
    ("ptx", "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
     "ldmatrix.sync.aligned.m8n8.x4.shared.b16 { %r1, %r2, %r3, %r4 }, [ %r5 + 0 ];",
     ("shared_load", "ldmatrix.sync.aligned.m8n8.x4.shared.b16", 16, "shared", False)),
    ("ptx", "ld.global.nc.v2.b32", "ld.global.nc.v2.b32 { %r1, %r2 }, [ %rd1 + 0 ];",
     ("global_load", "ld.global.nc.v2.b32", 8, "global", False)),
    # SASS (corpus: gemv_tile_kernel cuda:90 via nvdisasm)
    ("sass", "LDG.E.EF.128", "@P0 LDG.E.EF.128 R8, desc[UR4][R38.64] ;",
     ("global_load", "LDG.E.EF.128", 16, "global", True)),
    ("sass", "LDG.E.U16", "LDG.E.U16 R138, desc[UR6][R18.64] ;", ("global_load", "LDG.E.U16", 2, "global", False)),
    ("sass", "STG.E.128", "STG.E.128 desc[UR4][R2.64], R4 ;", ("global_store", "STG.E.128", 16, "global", False)),
    ("sass", "LDS", "LDS R0, [R3] ;", ("shared_load", "LDS", 4, "shared", False)),
    ("sass", "STS.128", "STS.128 [R3], R4 ;", ("shared_store", "STS.128", 16, "shared", False)),
    ("sass", "LDGSTS.E.BYPASS.LTC128B.128", "LDGSTS.E.BYPASS.LTC128B.128 [R5], desc[UR4][R2.64] ;",
     ("async_copy", "LDGSTS.E.BYPASS.LTC128B.128", 16, "global", False)),
    ("sass", "UTMALDG.2D", "UTMALDG.2D [UR8], [UR4] ;", ("tma", "UTMALDG.2D", None, "tensor", False)),
    ("sass", "LDSM.16.M88.4", "LDSM.16.M88.4 R4, [R2] ;", ("shared_load", "LDSM.16.M88.4", 16, "shared", False)),
    ("sass", "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", "@P0 ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, R3, [R4.64], R5 ;",
     ("atomic", "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", 4, "global", True)),
    ("sass", "RED.E.ADD.F32.FTZ.RN.STRONG.GPU", "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R5 ;",
     ("atomic", "RED.E.ADD.F32.FTZ.RN.STRONG.GPU", 4, "global", False)),
    # AMDGCN (corpus: gemv_tile_kernel hip:gfx942 .amdgcn line 65)
    ("amdgcn", "global_load_dwordx4", "global_load_dwordx4 v[22:25], v[2:3], off",
     ("global_load", "global_load_dwordx4", 16, "global", False)),
    ("amdgcn", "global_load_ushort", "global_load_ushort v5, v[0:1], off",
     ("global_load", "global_load_ushort", 2, "global", False)),
    ("amdgcn", "global_load_short_d16", "global_load_short_d16 v4, v[0:1], off offset:2",
     ("global_load", "global_load_short_d16", 2, "global", False)),
    ("amdgcn", "global_load_short_d16_hi", "global_load_short_d16_hi v4, v[0:1], off offset:2",
     ("global_load", "global_load_short_d16_hi", 2, "global", False)),
    ("amdgcn", "global_store_dwordx2", "global_store_dwordx2 v0, v[2:3], s[0:1]",
     ("global_store", "global_store_dwordx2", 8, "global", False)),
    ("amdgcn", "buffer_load_dwordx4", "buffer_load_dwordx4 v[0:3], v4, s[8:11], 0 offen",
     ("buffer_load", "buffer_load_dwordx4", 16, "global", False)),
    ("amdgcn", "buffer_store_dword", "buffer_store_dword v1, v0, s[4:7], 0 offen",
     ("buffer_store", "buffer_store_dword", 4, "global", False)),
    ("amdgcn", "ds_read_b128", "ds_read_b128 v[4:7], v2", ("shared_load", "ds_read_b128", 16, "shared", False)),
    ("amdgcn", "ds_read2_b64", "ds_read2_b64 v[0:3], v8 offset1:8",
     ("shared_load", "ds_read2_b64", 16, "shared", False)),
    ("amdgcn", "ds_read_b64_tr_b16", "ds_read_b64_tr_b16 v[2:3], v1",
     ("shared_load", "ds_read_b64_tr_b16", 8, "shared", False)),
    ("amdgcn", "ds_write_b16_d16_hi", "ds_write_b16_d16_hi v1, v2 offset:2",
     ("shared_store", "ds_write_b16_d16_hi", 2, "shared", False)),
    ("amdgcn", "ds_load_b128", "ds_load_b128 v[4:7], v2", ("shared_load", "ds_load_b128", 16, "shared", False)),
    ("amdgcn", "ds_store_b64", "ds_store_b64 v1, v[2:3]", ("shared_store", "ds_store_b64", 8, "shared", False)),
    ("amdgcn", "global_atomic_add_f32", "global_atomic_add_f32 v0, v1, s[0:1]",
     ("atomic", "global_atomic_add_f32", 4, "global", False)),
    ("amdgcn", "flat_load_dwordx2", "flat_load_dwordx2 v[0:1], v[2:3]",
     ("global_load", "flat_load_dwordx2", 8, "generic", False)),
    ("amdgcn", "global_load_lds_dwordx4", "global_load_lds_dwordx4 v[2:3], off",
     ("async_copy", "global_load_lds_dwordx4", 16, "global", False)),
    ("amdgcn", "s_load_dwordx2", "s_load_dwordx2 s[2:3], s[0:1], 0x0",
     ("scalar_load", "s_load_dwordx2", 8, "scalar", False)),
    ("amdgcn", "scratch_store_dword", "scratch_store_dword off, v1, s33 offset:4",
     ("other_mem", "scratch_store_dword", 4, "local", False)),
    # TTGIR (corpus: gemv_tile_kernel hip:gfx942 .ttgir line 46)
    ("ttgir", "tt.load", "%w_24 = tt.load %w_ptrs_21, %w_23, %w {cachePolicy = #tt.cache_policy<cache_modifier = "
     "none, eviction_policy = evict_first>} : tensor<64x256x!tt.ptr<f16>, #blocked> loc(#loc29)",
     ("global_load", "tt.load", None, "global", False)),
    ("ttgir", "amdg.buffer_load", "%row_2 = amdg.buffer_load %row_start_ptr_0[%col_offsets], %mask_1, %row : "
     "!tt.ptr<f32> -> tensor<1024xf32, #blocked> loc(#loc27)",
     ("buffer_load", "amdg.buffer_load", None, "global", False)),
    ("ttgir", "triton_gpu.local_alloc", "%71 = triton_gpu.local_alloc %70 : (tensor<64x32xf32, #blocked2>) -> "
     "!tt.memdesc<64x32xf32, #shared, #triton_gpu.shared_memory>",
     ("shared_store", "triton_gpu.local_alloc", None, "shared", False)),
    # Packed and vector atomics: the bytes one instruction moves per thread (issue 15: a 4 x f16
    # tl.atomic_add is `atom...v4.f16` in PTX and `REDG.E.ADD.F16x4` in SASS, 8 bytes each)
    ("ptx", "atom.global.gpu.acq_rel.add.noftz.v4.f16",
     "@%p1 atom.global.gpu.acq_rel.add.noftz.v4.f16 {%rs1,%rs2,%rs3,%rs4}, [ %rd1 + 0 ], {%rs5,%rs6,%rs7,%rs8};",
     ("atomic", "atom.global.gpu.acq_rel.add.noftz.v4.f16", 8, "global", True)),
    ("sass", "REDG.E.ADD.F16x4.FTZ.RN.STRONG.GPU",
     "/*0100*/ @P0 REDG.E.ADD.F16x4.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R4 ;",
     ("atomic", "REDG.E.ADD.F16x4.FTZ.RN.STRONG.GPU", 8, "global", True)),
    ("sass", "REDG.E.ADD.BF16x2.FTZ.RN.STRONG.GPU",
     "/*0100*/ REDG.E.ADD.BF16x2.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R4 ;",
     ("atomic", "REDG.E.ADD.BF16x2.FTZ.RN.STRONG.GPU", 4, "global", False)),
    ("sass", "LDG.E.ENL2.256", "/*0100*/ LDG.E.ENL2.256 R4, R8, desc[UR4][R2.64] ;",
     ("global_load", "LDG.E.ENL2.256", 32, "global", False)),
    ("amdgcn", "global_atomic_pk_add_bf16", "global_atomic_pk_add_bf16 v0, v1, s[0:1]",
     ("atomic", "global_atomic_pk_add_bf16", 4, "global", False)),
    ("amdgcn", "buffer_atomic_pk_add_f16", "buffer_atomic_pk_add_f16 v0, v1, s[0:3], 0 offen",
     ("atomic", "buffer_atomic_pk_add_f16", 4, "global", False)),
    # GCN's untyped atomics move a dword, `_x2` two: gfx90a's CAS loop for an f32 atomic_add (Triton 3.9)
    ("amdgcn", "global_atomic_cmpswap", "global_atomic_cmpswap v2, v[0:1], v[2:3], off glc",
     ("atomic", "global_atomic_cmpswap", 4, "global", False)),
    ("amdgcn", "global_atomic_cmpswap_x2", "global_atomic_cmpswap_x2 v[2:3], v[0:1], v[2:5], off glc",
     ("atomic", "global_atomic_cmpswap_x2", 8, "global", False)),
    ("amdgcn", "buffer_atomic_umax", "buffer_atomic_umax v0, v1, s[0:3], 0 offen",
     ("atomic", "buffer_atomic_umax", 4, "global", False)),
    ("amdgcn", "ds_add_u32", "ds_add_u32 v0, v1", ("atomic", "ds_add_u32", 4, "shared", False)),
    ("amdgcn", "ds_max_rtn_u64", "ds_max_rtn_u64 v[0:1], v2, v[4:5]",
     ("atomic", "ds_max_rtn_u64", 8, "shared", False)),
]


@pytest.mark.parametrize("stage,opname,text,expected", CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_classify(stage, opname, text, expected):
    acc = memops.classify(stage, op(opname, text))
    assert acc is not None
    assert (acc.kind, acc.form, acc.width_bytes, acc.space, acc.predicated) == expected


@pytest.mark.parametrize("stage,opname,text", [
    ("ptx", "ld.param.b64", "ld.param.b64 %rd1, [gemv_tile_kernel_param_0];"),
    ("ptx", "cp.async.commit_group", "cp.async.commit_group;"),
    ("ptx", "cp.async.wait_group", "cp.async.wait_group 0x0;"),
    ("sass", "LDC", "LDC R1, c[0x0][0x28] ;"),
    ("sass", "ULDC.64", "ULDC.64 UR6, c[0x0][0x218] ;"),
    ("sass", "REDUX.SUM.S32", "REDUX.SUM.S32 UR4, R3 ;"),  # a warp's reduction in registers (redux.sync)
    ("sass", "REDUX", "REDUX UR5, R0 ;"),
    ("amdgcn", "ds_swizzle_b32", "ds_swizzle_b32 v1, v0 offset:swizzle(SWAP,16)"),
    ("amdgcn", "ds_bpermute_b32", "ds_bpermute_b32 v1, v2, v0"),
    ("llir", "call", 'tail call void asm sideeffect "cp.async.commit_group ;", ""() #3'),
    ("llir", "call", '%170 = tail call i64 asm "mov.u64 $0, 0x0;\\0A\\09createpolicy.fractional.L2::evict_first.b64 '
     '$0, 1.0;", "=l"() #5, !dbg !23'),
    ("llir", "call", "%8 = tail call i32 @llvm.amdgcn.workitem.id.x(), !dbg !14"),
    ("ttgir", "tt.addptr", "%3 = tt.addptr %2, %1 : tensor<256x!tt.ptr<f32>, #blocked1>, tensor<256xi32, #blocked1>"),
])
def test_not_memory(stage, opname, text):
    assert memops.classify(stage, op(opname, text)) is None


def test_unknown_memory_looking_forms_are_other_not_dropped():
    acc = memops.classify("ptx", op("ld.weird.b32", "ld.weird.b32 %r1, [%rd1];"))
    assert acc is not None and acc.kind == "other_mem" and acc.width_bytes == 4
    acc = memops.classify("amdgcn", op("global_frobnicate_b32", "global_frobnicate_b32 v1, v[2:3], off"))
    assert acc is not None and acc.kind == "other_mem"
    acc = memops.classify("sass", op("LDXYZ.E", "LDXYZ.E R1, [R2] ;"))
    assert acc is not None and acc.kind == "other_mem"


def _entry(cache: Cache, name: str, target: str):
    return next(e for e in cache.kernels() if e.name == name and str(e.target) == target)


def _counts(entry, stage: str) -> dict[tuple[int, str], int]:
    module = parse_entry_stage(entry, stage)
    out: collections.Counter = collections.Counter()
    for o in module.ops:
        acc = memops.classify(stage, o)
        if acc is not None and o.loc is not None and acc.kind != "other_mem":
            out[(o.loc.outermost().line, acc.form)] += 1
    return dict(out)


def test_gemv_tile_gfx942_llir_and_amdgcn(cache39):
    """The issue's ground truth, counted straight from memops over the whole stage."""
    entry = _entry(Cache(cache39), "gemv_tile_kernel", "hip:gfx942")
    assert _counts(entry, "llir") == {
        (173, "load <8 x half>"): 16, (174, "load <8 x half>"): 1,
        (177, "load <1 x float>"): 2, (177, "store <4 x float>"): 4, (177, "store <2 x float>"): 1}
    # line 158 is the kernel's `def`: the scalar loads of its arguments (the join leaves them to no access)
    assert _counts(entry, "amdgcn") == {
        (158, "s_load_dwordx2"): 2, (158, "s_load_dwordx8"): 1,
        (173, "global_load_dwordx4"): 16, (174, "global_load_dwordx4"): 1,
        (177, "ds_read_b32"): 2, (177, "ds_write_b128"): 4, (177, "global_store_dwordx2"): 1}


def test_gemv_tile_cuda90_llir(cache39):
    entry = _entry(Cache(cache39), "gemv_tile_kernel", "cuda:90")
    counts = _counts(entry, "llir")
    assert counts[(173, "ld.global.L1::evict_first.L2::cache_hint.v4.b32")] == 32
    assert counts[(174, "ld.global.b16")] == 1
    assert counts[(177, "st.global.v4.b32")] == 1


def test_name_shortcut_gives_the_classifiers_answer_on_every_corpus_op(corpus):
    """`classify` skips ops whose name (LLVM IR: whose text) rules out any access; on every op of every
    text stage of every entry we hold (three releases, both backends, Inductor kernels, third-party
    kernels), and on SASS where nvdisasm is installed, it must answer exactly what the full classifier
    answers. Both forget the names learnt so far first."""
    from tritonscope.artifacts.tools import ToolMissing
    from tritonscope.errors import TritonscopeError
    from tritonscope.stages.table import TEXT_STAGES

    memops._NEVER.clear()
    roots = [corpus, Path(__file__).resolve().parent / "data"]
    seen = collections.Counter()
    for root in roots:
        for entry in Cache(root).kernels():
            stages = [s for s in entry.stages if s in TEXT_STAGES] + (["sass"] if "cubin" in entry.files else [])
            for stage in stages:
                try:
                    module = parse_entry_stage(entry, stage)
                except (ToolMissing, TritonscopeError):
                    continue
                for o in module.ops:
                    assert memops.classify(stage, o) == memops.classify_uncached(stage, o), (entry.path, stage, o)
                    seen[stage] += 1
    assert min(seen[s] for s in ("llir", "ptx", "amdgcn", "ttgir", "ttir", "source")) > 2_000, seen


# Gluon's multi-CTA softmax (Triton's tutorial 14-multicta, cross-compiled by Triton 3.9 for cuda:90, 4 CTAs):
# another CTA's shared memory through `mapa`, which PTX reads as `ld.shared::cluster.b32`; no triple in the
# LLIR as Triton keeps it for NVIDIA
CLUSTER_LLIR = """\
define ptx_kernel void @k(ptr addrspace(1) %0, ptr addrspace(1) %p) {
  %40 = getelementptr i8, ptr addrspace(3) @global_smem, i32 0
  %41 = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %40, i32 1), !dbg !18
  %86 = load i32, ptr addrspace(7) %41, align 4, !dbg !18
  store i32 %86, ptr addrspace(7) %41, align 4, !dbg !18
  %87 = atomicrmw add ptr addrspace(7) %41, i32 1 monotonic, align 4, !dbg !18
  %88 = load i32, ptr addrspace(1) %p, align 4, !dbg !18
  ret void
}
"""


@pytest.mark.parametrize("triple,spaces", [
    (None, [("shared_load", "shared"), ("shared_store", "shared"), ("atomic", "shared"), ("global_load", "global")]),
    ("amdgcn-amd-amdhsa", [("global_load", "global"), ("global_store", "global"), ("atomic", "global"),
                           ("global_load", "global")])])
def test_llir_address_space_7_is_cluster_shared_memory_on_nvptx_a_buffer_on_amdgpu(triple, spaces):
    """LLVM's address space 7 is NVPTX's shared::cluster and AMDGPU's buffer fat pointer: the NVIDIA one was
    counted as a global load (`loads` and diff's `global_load@llir` 10 where PTX has 8 ld.global: helper 110)."""
    from tritonscope.stages import parse

    text = (f'target triple = "{triple}"\n' if triple else "") + CLUSTER_LLIR
    module = parse("llir", text)
    got = [(a.kind, a.space) for a in memops.accesses("llir", module) if a is not None]
    assert got == spaces


MULTICTA = Path(__file__).parent / "data" / "gluon-multicta-cuda90-triton3.9"


def test_a_generic_sass_load_compiled_from_ld_shared_cluster_is_a_shared_load():
    """Another CTA's shared memory: PTX `ld.shared::cluster.b32`, which ptxas does by `LD.E` through a generic
    address. SASS counted it a global load where LLIR and PTX say shared (helper 110); nvdisasm -gp names the
    PTX line each SASS instruction came from, and its space decides."""
    from tritonscope.artifacts import tools
    from tritonscope.stages import entry_stages

    if not tools.find_nvidia_tool("nvdisasm"):
        pytest.skip("no nvdisasm")
    (entry,) = Cache(MULTICTA).kernels()
    kinds = {}
    for stage in ("ptx", "sass"):
        module = entry_stages(entry).module(stage)
        found = [(op.op, acc.kind) for op, acc in zip(module.ops, memops.accesses(stage, module), strict=True)
                 if acc is not None and acc.kind.endswith(("_load", "_store"))]
        kinds[stage] = collections.Counter(kind for _, kind in found)
        if stage == "sass":
            assert {op for op, kind in found if kind == "shared_load"} == {"LD.E"}
    assert kinds["sass"] == kinds["ptx"] and kinds["sass"]["shared_load"] == 2, kinds
