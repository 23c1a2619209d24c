# AOT ID: ['0_backward']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_user/xb/cxbfhwtn4vzcndiclto6jdlztchurqbce7qg5edifwnxz6ak4o3f.py
# Topologically Sorted Source Nodes: [expand, div_2, unsqueeze, logits, sub_5, exp_3, mul_14, convert_element_type_28, sum_4], Original ATen: [aten.expand, aten.div, aten.unsqueeze, aten._to_copy, aten.sub, aten.exp, aten.mul, aten.sum]
# Source node to ATen node mapping:
#   convert_element_type_28 => convert_element_type_28
#   div_2 => div_2
#   exp_3 => exp_3
#   expand => expand
#   logits => convert_element_type_27
#   mul_14 => mul_14
#   sub_5 => sub_5
#   sum_4 => sum_4
#   unsqueeze => unsqueeze
# Graph fragment:
#   %tangents_1 : Tensor "f32[][]cuda:0" = PlaceHolder[target=tangents_1]
#   %addmm_4 : Tensor "bf16[64, 16][16, 1]cuda:0" = PlaceHolder[target=addmm_4]
#   %unsqueeze_1 : Tensor "f32[64, 1][1, 1]cuda:0" = PlaceHolder[target=unsqueeze_1]
#   %convert_element_type_28 : Tensor "bf16[64, 16][16, 1]cuda:0" = PlaceHolder[target=convert_element_type_28]
#   %expand : Tensor "f32[64][0]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.expand.default](args = (%tangents_1, [64]), kwargs = {})
#   %div_2 : Tensor "f32[64][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Scalar](args = (%expand, 64), kwargs = {})
#   %unsqueeze : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%div_2, -1), kwargs = {})
#   %convert_element_type_27 : Tensor "f32[64, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%addmm_4, torch.float32), kwargs = {})
#   %sub_5 : Tensor "f32[64, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_27, %unsqueeze_1), kwargs = {})
#   %exp_3 : Tensor "f32[64, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_5,), kwargs = {})
#   %mul_14 : Tensor "f32[64, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%unsqueeze, %exp_3), kwargs = {})
#   %convert_element_type_28 : Tensor "bf16[64, 16][16, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_14, torch.bfloat16), kwargs = {})
#   %sum_4 : Tensor "bf16[1, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%convert_element_type_28, [0], True), kwargs = {})
#   return %convert_element_type_28,%sum_4
triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0 = async_compile.triton('triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 16, 'r0_': 64},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 6208, 'r0_': 256}}
)
@triton.jit
def triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 16
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (0))
    tmp1 = tl.broadcast_to(tmp0, [1, 1])
    tmp4 = tl.load(in_out_ptr0 + (x0 + 16*r0_1), xmask, other=0.0).to(tl.float32)
    tmp6 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last')
    tmp2 = tl.full([1, 1], 0.015625, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp5 = tmp4.to(tl.float32)
    tmp7 = tmp5 - tmp6
    tmp8 = libdevice.exp(tmp7)
    tmp9 = tmp3 * tmp8
    tmp10 = tmp9.to(tl.float32)
    tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp13 = tl.where(xmask, tmp11, 0)
    tmp14 = tl.sum(tmp13, 1)[:, None].to(tl.float32)
    tl.store(in_out_ptr0 + (x0 + 16*r0_1), tmp10, xmask)
    tl.store(out_ptr0 + (x0), tmp14, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/pn/cpnk2t2thbmnj2vrvyf37dfarkhrqw7dt5uv64kmsidclfl3tnvx.py
# Topologically Sorted Source Nodes: [y], Original ATen: [aten.native_layer_norm]
# Source node to ATen node mapping:
#   y => add_4, add_5, convert_element_type_12, convert_element_type_13, mul_7, mul_8, rsqrt_1, sub_2, var_mean_1
# Graph fragment:
#   %add_3 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=add_3]
#   %getitem_3 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=getitem_3]
#   %buf3 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=buf3]
#   %primals_9 : Tensor "bf16[256][1]cuda:0" = PlaceHolder[target=primals_9]
#   %primals_10 : Tensor "bf16[256][1]cuda:0" = PlaceHolder[target=primals_10]
#   %convert_element_type_12 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_3, torch.float32), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_12, [1]), kwargs = {correction: 0, keepdim: True})
#   %add_4 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_2, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %sub_2 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_12, %getitem_3), kwargs = {})
#   %mul_7 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt_1), kwargs = {})
#   %mul_8 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_7, %primals_9), kwargs = {})
#   %add_5 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_8, %primals_10), kwargs = {})
#   %convert_element_type_13 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_5, torch.bfloat16), kwargs = {})
#   return %getitem_3,%buf3,%convert_element_type_13
triton_per_fused_native_layer_norm_1 = async_compile.triton('triton_per_fused_native_layer_norm_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_native_layer_norm_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 3, 'num_store': 3, 'num_reduction': 4, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 1024, 'r0_': 99328}}
)
@triton.jit
def triton_per_fused_native_layer_norm_1(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp25 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp28 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4 = tl.where(xmask, tmp2, 0)
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp9 = tl.full([1, 1], 256, tl.int32)
    tmp10 = tmp9.to(tl.float32)
    tmp11 = (tmp8 / tmp10)
    tmp12 = tmp2 - tmp11
    tmp13 = tmp12 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(xmask, tmp14, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp18 = tmp1 - tmp11
    tmp19 = tl.full([1, 1], 256.0, tl.float32)
    tmp20 = (tmp17 / tmp19)
    tmp21 = tl.full([1, 1], 1e-05, tl.float32)
    tmp22 = tmp20 + tmp21
    tmp23 = libdevice.rsqrt(tmp22)
    tmp24 = tmp18 * tmp23
    tmp26 = tmp25.to(tl.float32)
    tmp27 = tmp24 * tmp26
    tmp29 = tmp28.to(tl.float32)
    tmp30 = tmp27 + tmp29
    tmp31 = tmp30.to(tl.float32)
    tl.store(out_ptr2 + (r0_1 + 256*x0), tmp31, xmask)
    tl.store(out_ptr0 + (x0), tmp11, xmask)
    tl.store(out_ptr1 + (x0), tmp17, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/ri/crid3uv4acqf24vxfhkcozdrcseu3wkxpesvvl64ufq5jd7hqfg5.py
# Topologically Sorted Source Nodes: [mul_16, sum_6], Original ATen: [aten.mul, aten.sum]
# Source node to ATen node mapping:
#   mul_16 => mul_16
#   sum_6 => sum_6
# Graph fragment:
#   %mm : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mm]
#   %primals_15 : Tensor "bf16[256][1]cuda:0" = PlaceHolder[target=primals_15]
#   %mul_16 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mul_16]
#   %mul_16 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mm, %primals_15), kwargs = {})
#   %sum_6 : Tensor "bf16[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_16, [0], True), kwargs = {})
#   return %mul_16,%sum_6
triton_per_fused_mul_sum_2 = async_compile.triton('triton_per_fused_mul_sum_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 64},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'out_ptr1': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_mul_sum_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 99840, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_mul_sum_2(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_1), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0 + 256*r0_1), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp6, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/mc/cmczdagksuscd5isugobehd7fg3zu6uzevoxb34glcrvuncvnvdr.py
# Topologically Sorted Source Nodes: [y_1, , softmax, y_2, mul_17, convert_element_type_37, convert_element_type_38, mul_18, sum_7, neg, convert_element_type_default_1, mul_20, mul_21, mul_22, exp_4, mul_23, mul_24, add_10, mul_25, convert_element_type_42], Original ATen: [aten.gelu, prims.prepare_softmax_online, aten.sub, aten.exp, aten._softmax, aten.mul, aten._softmax_backward_data, aten.gelu_backward]
# Source node to ATen node mapping:
#    => exp_default_1, prepare_softmax_online_default_1, sub_tensor_1
#   add_10 => add_10
#   convert_element_type_37 => convert_element_type_37
#   convert_element_type_38 => convert_element_type_38
#   convert_element_type_42 => convert_element_type_42
#   convert_element_type_default_1 => fma
#   exp_4 => exp_4
#   mul_17 => mul_17
#   mul_18 => mul_18
#   mul_20 => mul_20
#   mul_21 => mul_21
#   mul_22 => mul_22
#   mul_23 => mul_23
#   mul_24 => mul_24
#   mul_25 => mul_25
#   neg => neg
#   softmax => convert_element_type_20, div_1
#   sum_7 => sum_7
#   y_1 => add_6, convert_element_type_17, erf_1, mul_10, mul_11, mul_9
#   y_2 => mul_12
# Graph fragment:
#   %addmm_2 : Tensor "bf16[64, 512][512, 1]cuda:0" = PlaceHolder[target=addmm_2]
#   %mm_2 : Tensor "bf16[64, 512][512, 1]cuda:0" = PlaceHolder[target=mm_2]
#   %getitem_6 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=getitem_6]
#   %getitem_7 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=getitem_7]
#   %sum_7 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=sum_7]
#   %mul_25 : Tensor "f32[64, 512][512, 1]cuda:0" = PlaceHolder[target=mul_25]
#   %convert_element_type_17 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%addmm_2, torch.float32), kwargs = {})
#   %mul_9 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, 0.5), kwargs = {})
#   %mul_10 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, 0.7071067811865476), kwargs = {})
#   %erf_1 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.erf.default](args = (%mul_10,), kwargs = {})
#   %add_6 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%erf_1, 1), kwargs = {})
#   %mul_11 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_9, %add_6), kwargs = {})
#   %prepare_softmax_online_default_1 : [num_users=2] = call_function[target=torch.ops.prims.prepare_softmax_online.default](args = (%mul_11, -1), kwargs = {})
#   %sub_tensor_1 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_11, %getitem_6), kwargs = {})
#   %exp_default_1 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%sub_tensor_1,), kwargs = {})
#   %div_1 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%exp_default_1, %getitem_7), kwargs = {})
#   %convert_element_type_20 : Tensor "bf16[64, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%div_1, torch.bfloat16), kwargs = {})
#   %mul_12 : Tensor "bf16[64, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_20, 2.0), kwargs = {})
#   %mul_17 : Tensor "bf16[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mm_2, 2.0), kwargs = {})
#   %convert_element_type_37 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_17, torch.float32), kwargs = {})
#   %convert_element_type_38 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%convert_element_type_20, torch.float32), kwargs = {})
#   %mul_18 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_37, %convert_element_type_38), kwargs = {})
#   %sum_7 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_18, [-1], True), kwargs = {})
#   %neg : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%convert_element_type_38,), kwargs = {})
#   %fma : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.fma.default](args = (%neg, %sum_7, %mul_18), kwargs = {})
#   %mul_20 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_6, 0.5), kwargs = {})
#   %mul_21 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, %convert_element_type_17), kwargs = {})
#   %mul_22 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_21, -0.5), kwargs = {})
#   %exp_4 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.exp.default](args = (%mul_22,), kwargs = {})
#   %mul_23 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%exp_4, 0.3989422804014327), kwargs = {})
#   %mul_24 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_17, %mul_23), kwargs = {})
#   %add_10 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%mul_20, %mul_24), kwargs = {})
#   %mul_25 : Tensor "f32[64, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%fma, %add_10), kwargs = {})
#   %convert_element_type_42 : Tensor "bf16[64, 512][512, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_25, torch.bfloat16), kwargs = {})
#   return %getitem_6,%getitem_7,%sum_7,%mul_12,%mul_25,%convert_element_type_42
triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3 = async_compile.triton('triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 512},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr3': '*bf16', 'out_ptr5': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 2, 'num_reduction': 5, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 393216}}
)
@triton.jit
def triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3(in_ptr0, in_ptr1, out_ptr3, out_ptr5, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 512
    R0_BLOCK: tl.constexpr = 512
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 512*x0), xmask, other=0.0).to(tl.float32)
    tmp22 = tl.load(in_ptr1 + (r0_1 + 512*x0), xmask, other=0.0).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1, 1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp5 = tmp1 * tmp4
    tmp6 = libdevice.erf(tmp5)
    tmp7 = tl.full([1, 1], 1.0, tl.float32)
    tmp8 = tmp6 + tmp7
    tmp9 = tmp3 * tmp8
    tmp10 = tl.broadcast_to(tmp9, [XBLOCK, R0_BLOCK])
    tmp12 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(xmask, tmp12, float("-inf"))
    tmp15 = triton_helpers.max2(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = tmp10 - tmp15
    tmp17 = libdevice.exp(tmp16)
    tmp18 = tl.broadcast_to(tmp17, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(xmask, tmp18, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp23 = tl.full([1, 1], 2.0, tl.float32)
    tmp24 = tmp22 * tmp23
    tmp25 = tmp24.to(tl.float32)
    tmp26 = tmp9 - tmp15
    tmp27 = libdevice.exp(tmp26)
    tmp28 = (tmp27 / tmp21)
    tmp29 = tmp28.to(tl.float32)
    tmp30 = tmp29.to(tl.float32)
    tmp31 = tmp25 * tmp30
    tmp32 = tl.broadcast_to(tmp31, [XBLOCK, R0_BLOCK])
    tmp34 = tl.where(xmask, tmp32, 0)
    tmp35 = tl.sum(tmp34, 1)[:, None].to(tl.float32)
    tmp36 = tmp29 * tmp23
    tmp37 = -tmp30
    tmp38 = tl.fma(tmp37, tmp35, tmp31)
    tmp39 = tmp8 * tmp2
    tmp40 = tmp1 * tmp1
    tmp41 = tl.full([1, 1], -0.5, tl.float32)
    tmp42 = tmp40 * tmp41
    tmp43 = libdevice.exp(tmp42)
    tmp44 = tl.full([1, 1], 0.3989422804014327, tl.float32)
    tmp45 = tmp43 * tmp44
    tmp46 = tmp1 * tmp45
    tmp47 = tmp39 + tmp46
    tmp48 = tmp38 * tmp47
    tmp49 = tmp48.to(tl.float32)
    tl.store(out_ptr3 + (r0_1 + 512*x0), tmp36, xmask)
    tl.store(out_ptr5 + (r0_1 + 512*x0), tmp49, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/b2/cb26vxmfbtzgqn6jg5jyvvizk5cyraemgwp6zoa7txopsygerbtx.py
# Topologically Sorted Source Nodes: [sum_8], Original ATen: [aten.sum]
# Source node to ATen node mapping:
#   sum_8 => sum_8
# Graph fragment:
#   %convert_element_type_42 : Tensor "bf16[64, 512][512, 1]cuda:0" = PlaceHolder[target=convert_element_type_42]
#   %sum_8 : Tensor "bf16[1, 512][512, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%convert_element_type_42, [0], True), kwargs = {})
#   return %sum_8
triton_per_fused_sum_4 = async_compile.triton('triton_per_fused_sum_4', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 512, 'r0_': 64},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_sum_4', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 67584, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_sum_4(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 512
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 512*r0_1), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/sf/csff2o55n2w5jgt2iqzoqmhtnk2dqfagwr4geadqagabqpcalfou.py
# Topologically Sorted Source Nodes: [mul_15, sum_5], Original ATen: [aten.mul, aten.sum]
# Source node to ATen node mapping:
#   mul_15 => mul_15
#   sum_5 => sum_5
# Graph fragment:
#   %mm : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mm]
#   %addmm_3 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %mul_15 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mm, %addmm_3), kwargs = {})
#   %sum_5 : Tensor "bf16[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_15, [0], True), kwargs = {})
#   return %sum_5
triton_per_fused_mul_sum_5 = async_compile.triton('triton_per_fused_mul_sum_5', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 64},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_mul_sum_5', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 2, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 66560, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_mul_sum_5(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_1), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0 + 256*r0_1), xmask, other=0.0).to(tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.where(xmask, tmp3, 0)
    tmp6 = tl.sum(tmp5, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp6, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/xv/cxvz5gjvde2semdejkclezq7p2rhkxnnc7wsz75hpqt5jnnzrqmp.py
# Topologically Sorted Source Nodes: [y, clone, mul_32, sum_11, sum_12, convert_element_type_52, convert_element_type_53], Original ATen: [aten.native_layer_norm, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#   clone => convert_element_type_47
#   convert_element_type_52 => convert_element_type_52
#   convert_element_type_53 => convert_element_type_53
#   mul_32 => mul_32
#   sum_11 => sum_11
#   sum_12 => sum_12
#   y => add_4, convert_element_type_12, mul_7, rsqrt_1, sub_2, var_mean_1
# Graph fragment:
#   %mm_4 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mm_4]
#   %add_3 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=add_3]
#   %getitem_3 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=getitem_3]
#   %buf3 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=buf3]
#   %sum_11 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=sum_11]
#   %sum_12 : Tensor "f32[256][1]cuda:0" = PlaceHolder[target=sum_12]
#   %convert_element_type_12 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_3, torch.float32), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_12, [1]), kwargs = {correction: 0, keepdim: True})
#   %add_4 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_2, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %sub_2 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_12, %getitem_3), kwargs = {})
#   %mul_7 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt_1), kwargs = {})
#   %convert_element_type_47 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mm_4, torch.float32), kwargs = {})
#   %mul_32 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_47, %mul_7), kwargs = {})
#   %sum_11 : Tensor "f32[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_32, [0]), kwargs = {})
#   %sum_12 : Tensor "f32[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%convert_element_type_47, [0]), kwargs = {})
#   %convert_element_type_52 : Tensor "bf16[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%sum_11, torch.bfloat16), kwargs = {})
#   %convert_element_type_53 : Tensor "bf16[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%sum_12, torch.bfloat16), kwargs = {})
#   return %sum_11,%sum_12,%convert_element_type_52,%convert_element_type_53
triton_per_fused_native_layer_norm_native_layer_norm_backward_6 = async_compile.triton('triton_per_fused_native_layer_norm_native_layer_norm_backward_6', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 64},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*fp32', 'in_ptr3': '*fp32', 'out_ptr2': '*bf16', 'out_ptr3': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_native_layer_norm_native_layer_norm_backward_6', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 4, 'num_store': 2, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 67584, 'r0_': 512}}
)
@triton.jit
def triton_per_fused_native_layer_norm_native_layer_norm_backward_6(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_1), xmask, other=0.0).to(tl.float32)
    tmp2 = tl.load(in_ptr1 + (x0 + 256*r0_1), xmask, other=0.0).to(tl.float32)
    tmp4 = tl.load(in_ptr2 + (r0_1), None, eviction_policy='evict_last')
    tmp6 = tl.load(in_ptr3 + (r0_1), None, eviction_policy='evict_last')
    tmp1 = tmp0.to(tl.float32)
    tmp3 = tmp2.to(tl.float32)
    tmp5 = tmp3 - tmp4
    tmp7 = tl.full([1, 1], 256.0, tl.float32)
    tmp8 = (tmp6 / tmp7)
    tmp9 = tl.full([1, 1], 1e-05, tl.float32)
    tmp10 = tmp8 + tmp9
    tmp11 = libdevice.rsqrt(tmp10)
    tmp12 = tmp5 * tmp11
    tmp13 = tmp1 * tmp12
    tmp14 = tl.broadcast_to(tmp13, [XBLOCK, R0_BLOCK])
    tmp16 = tl.where(xmask, tmp14, 0)
    tmp17 = tl.sum(tmp16, 1)[:, None].to(tl.float32)
    tmp18 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp20 = tl.where(xmask, tmp18, 0)
    tmp21 = tl.sum(tmp20, 1)[:, None].to(tl.float32)
    tmp22 = tmp17.to(tl.float32)
    tmp23 = tmp21.to(tl.float32)
    tl.store(out_ptr2 + (x0), tmp22, xmask)
    tl.store(out_ptr3 + (x0), tmp23, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/ks/cksolrf2uekplot7sysswo5ahdnogcwto5ih4viwl7rguvffev44.py
# Topologically Sorted Source Nodes: [y, mul_1, add, clone, clone_2, mul_27, mul_28, sum_9, mul_29, sum_10, mul_30, sub_7, sub_8, div_3, mul_31, convert_element_type_51, add_11, mul_34], Original ATen: [aten.native_layer_norm, aten.mul, aten.add, aten.native_layer_norm_backward]
# Source node to ATen node mapping:
#   add => add_7
#   add_11 => add_11
#   clone => convert_element_type_47
#   clone_2 => convert_element_type_49
#   convert_element_type_51 => convert_element_type_51
#   div_3 => div_3
#   mul_1 => mul_13
#   mul_27 => mul_27
#   mul_28 => mul_28
#   mul_29 => mul_29
#   mul_30 => mul_30
#   mul_31 => mul_31
#   mul_34 => mul_34
#   sub_7 => sub_7
#   sub_8 => sub_8
#   sum_10 => sum_10
#   sum_9 => sum_9
#   y => add_4, convert_element_type_12, mul_7, rsqrt_1, sub_2, var_mean_1
# Graph fragment:
#   %mm_4 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mm_4]
#   %primals_9 : Tensor "bf16[256][1]cuda:0" = PlaceHolder[target=primals_9]
#   %add_3 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=add_3]
#   %getitem_3 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=getitem_3]
#   %buf3 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=buf3]
#   %addmm_3 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=addmm_3]
#   %primals_15 : Tensor "bf16[256][1]cuda:0" = PlaceHolder[target=primals_15]
#   %mm : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mm]
#   %sum_9 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=sum_9]
#   %sum_10 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=sum_10]
#   %add_11 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=add_11]
#   %primals_8 : Tensor "bf16[256][1]cuda:0" = PlaceHolder[target=primals_8]
#   %convert_element_type_12 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%add_3, torch.float32), kwargs = {})
#   %var_mean_1 : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type_12, [1]), kwargs = {correction: 0, keepdim: True})
#   %add_4 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem_2, 1e-05), kwargs = {})
#   %rsqrt_1 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add_4,), kwargs = {})
#   %sub_2 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type_12, %getitem_3), kwargs = {})
#   %mul_7 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub_2, %rsqrt_1), kwargs = {})
#   %mul_13 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%addmm_3, %primals_15), kwargs = {})
#   %add_7 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_3, %mul_13), kwargs = {})
#   %convert_element_type_47 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mm_4, torch.float32), kwargs = {})
#   %convert_element_type_49 : Tensor "f32[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%primals_9, torch.float32), kwargs = {})
#   %mul_27 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_47, %convert_element_type_49), kwargs = {})
#   %mul_28 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_27, 256), kwargs = {})
#   %sum_9 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_27, [1], True), kwargs = {})
#   %mul_29 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_27, %mul_7), kwargs = {})
#   %sum_10 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_29, [1], True), kwargs = {})
#   %mul_30 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_7, %sum_10), kwargs = {})
#   %sub_7 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_28, %sum_9), kwargs = {})
#   %sub_8 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_7, %mul_30), kwargs = {})
#   %div_3 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt_1, 256), kwargs = {})
#   %mul_31 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_3, %sub_8), kwargs = {})
#   %convert_element_type_51 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_31, torch.bfloat16), kwargs = {})
#   %add_11 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.add.Tensor](args = (%mm, %convert_element_type_51), kwargs = {})
#   %mul_34 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_11, %primals_8), kwargs = {})
#   return %sum_9,%sum_10,%add_7,%add_11,%mul_34
triton_per_fused_add_mul_native_layer_norm_native_layer_norm_backward_7 = async_compile.triton('triton_per_fused_add_mul_native_layer_norm_native_layer_norm_backward_7', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_out_ptr1': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'in_ptr5': '*bf16', 'in_ptr6': '*bf16', 'out_ptr2': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]], (8,): [['tt.divisibility', 16]], (9,): [['tt.divisibility', 16]], (10,): [['tt.divisibility', 16]], (11,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_mul_native_layer_norm_native_layer_norm_backward_7', 'mutated_arg_names': ['in_out_ptr0', 'in_out_ptr1'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 9, 'num_store': 3, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 512, 'r0_': 329216}}
)
@triton.jit
def triton_per_fused_add_mul_native_layer_norm_native_layer_norm_backward_7(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp2 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp9 = tl.load(in_ptr2 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp11 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp25 = tl.load(in_out_ptr0 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp26 = tl.load(in_ptr5 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp29 = tl.load(in_out_ptr1 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp39 = tl.load(in_ptr6 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp1 * tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp10 = tmp9.to(tl.float32)
    tmp12 = tmp10 - tmp11
    tmp14 = tl.full([1, 1], 256.0, tl.float32)
    tmp15 = (tmp13 / tmp14)
    tmp16 = tl.full([1, 1], 1e-05, tl.float32)
    tmp17 = tmp15 + tmp16
    tmp18 = libdevice.rsqrt(tmp17)
    tmp19 = tmp12 * tmp18
    tmp20 = tmp4 * tmp19
    tmp21 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
    tmp23 = tl.where(xmask, tmp21, 0)
    tmp24 = tl.sum(tmp23, 1)[:, None].to(tl.float32)
    tmp27 = tmp25 * tmp26
    tmp28 = tmp9 + tmp27
    tmp30 = tl.full([1, 1], 0.00390625, tl.float32)
    tmp31 = tmp18 * tmp30
    tmp32 = tmp4 * tmp14
    tmp33 = tmp32 - tmp8
    tmp34 = tmp19 * tmp24
    tmp35 = tmp33 - tmp34
    tmp36 = tmp31 * tmp35
    tmp37 = tmp36.to(tl.float32)
    tmp38 = tmp29 + tmp37
    tmp40 = tmp38 * tmp39
    tl.store(in_out_ptr0 + (r0_1 + 256*x0), tmp28, xmask)
    tl.store(in_out_ptr1 + (r0_1 + 256*x0), tmp38, xmask)
    tl.store(out_ptr2 + (r0_1 + 256*x0), tmp40, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/pk/cpkti7h6hudsrfcbgwhvxs5ruszfvo7muyaritv5kxjvkl33mzam.py
# Topologically Sorted Source Nodes: [sum_14], Original ATen: [aten.sum]
# Source node to ATen node mapping:
#   sum_14 => sum_14
# Graph fragment:
#   %mul_34 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mul_34]
#   %sum_14 : Tensor "bf16[1, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_34, [0], True), kwargs = {})
#   return %sum_14
triton_per_fused_sum_8 = async_compile.triton('triton_per_fused_sum_8', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 256, 'r0_': 64},
    reduction_hint=ReductionHint.OUTER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_sum_8', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 1, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 33792, 'r0_': 0}}
)
@triton.jit
def triton_per_fused_sum_8(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 256
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 256*r0_1), xmask, other=0.0).to(tl.float32)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_user/ti/cti3xfqt64kiksh6s2rluhj4cvy5gv5ywephoztrewbziudlcphf.py
# Topologically Sorted Source Nodes: [y, clone_4, clone_6, mul_45, mul_46, sum_17, mul_47, sum_18, mul_48, sub_10, sub_11, div_4, mul_49, convert_element_type_72, add_14], Original ATen: [aten.native_layer_norm, aten.native_layer_norm_backward, aten.add]
# Source node to ATen node mapping:
#   add_14 => add_14
#   clone_4 => convert_element_type_68
#   clone_6 => convert_element_type_70
#   convert_element_type_72 => convert_element_type_72
#   div_4 => div_4
#   mul_45 => mul_45
#   mul_46 => mul_46
#   mul_47 => mul_47
#   mul_48 => mul_48
#   mul_49 => mul_49
#   sub_10 => sub_10
#   sub_11 => sub_11
#   sum_17 => sum_17
#   sum_18 => sum_18
#   y => add, convert_element_type, mul, rsqrt, sub, var_mean
# Graph fragment:
#   %mm_8 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=mm_8]
#   %primals_2 : Tensor "bf16[256][1]cuda:0" = PlaceHolder[target=primals_2]
#   %primals_1 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=primals_1]
#   %getitem_1 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=getitem_1]
#   %buf33 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=buf33]
#   %add_11 : Tensor "bf16[64, 256][256, 1]cuda:0" = PlaceHolder[target=add_11]
#   %sum_17 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=sum_17]
#   %sum_18 : Tensor "f32[64, 1][1, 64]cuda:0" = PlaceHolder[target=sum_18]
#   %convert_element_type : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%primals_1, torch.float32), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%convert_element_type, [1]), kwargs = {correction: 0, keepdim: True})
#   %add : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%getitem, 1e-05), kwargs = {})
#   %rsqrt : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.rsqrt.default](args = (%add,), kwargs = {})
#   %sub : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%convert_element_type, %getitem_1), kwargs = {})
#   %mul : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=4] = call_function[target=torch.ops.aten.mul.Tensor](args = (%sub, %rsqrt), kwargs = {})
#   %convert_element_type_68 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mm_8, torch.float32), kwargs = {})
#   %convert_element_type_70 : Tensor "f32[256][1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%primals_2, torch.float32), kwargs = {})
#   %mul_45 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=3] = call_function[target=torch.ops.aten.mul.Tensor](args = (%convert_element_type_68, %convert_element_type_70), kwargs = {})
#   %mul_46 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_45, 256), kwargs = {})
#   %sum_17 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_45, [1], True), kwargs = {})
#   %mul_47 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul_45, %mul), kwargs = {})
#   %sum_18 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%mul_47, [1], True), kwargs = {})
#   %mul_48 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, %sum_18), kwargs = {})
#   %sub_10 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%mul_46, %sum_17), kwargs = {})
#   %sub_11 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](args = (%sub_10, %mul_48), kwargs = {})
#   %div_4 : Tensor "f32[64, 1][1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.div.Tensor](args = (%rsqrt, 256), kwargs = {})
#   %mul_49 : Tensor "f32[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%div_4, %sub_11), kwargs = {})
#   %convert_element_type_72 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.prims.convert_element_type.default](args = (%mul_49, torch.bfloat16), kwargs = {})
#   %add_14 : Tensor "bf16[64, 256][256, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%add_11, %convert_element_type_72), kwargs = {})
#   return %sum_17,%sum_18,%add_14
triton_per_fused_add_native_layer_norm_native_layer_norm_backward_9 = async_compile.triton('triton_per_fused_add_native_layer_norm_native_layer_norm_backward_9', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 64, 'r0_': 256},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'in_ptr1': '*bf16', 'in_ptr2': '*bf16', 'in_ptr3': '*fp32', 'in_ptr4': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]], (7,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_add_native_layer_norm_native_layer_norm_backward_9', 'mutated_arg_names': ['in_out_ptr0'], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 6, 'num_store': 1, 'num_reduction': 2, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 512, 'r0_': 164352}}
)
@triton.jit
def triton_per_fused_add_native_layer_norm_native_layer_norm_backward_9(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 64
    r0_numel = 256
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp2 = tl.load(in_ptr1 + (r0_1), None, eviction_policy='evict_last').to(tl.float32)
    tmp9 = tl.load(in_ptr2 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp11 = tl.load(in_ptr3 + (x0), xmask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr4 + (x0), xmask, eviction_policy='evict_last')
    tmp25 = tl.load(in_out_ptr0 + (r0_1 + 256*x0), xmask, other=0.0).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp1 * tmp3
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(xmask, tmp5, 0)
    tmp8 = tl.sum(tmp7, 1)[:, None].to(tl.float32)
    tmp10 = tmp9.to(tl.float32)
    tmp12 = tmp10 - tmp11
    tmp14 = tl.full([1, 1], 256.0, tl.float32)
    tmp15 = (tmp13 / tmp14)
    tmp16 = tl.full([1, 1], 1e-05, tl.float32)
    tmp17 = tmp15 + tmp16
    tmp18 = libdevice.rsqrt(tmp17)
    tmp19 = tmp12 * tmp18
    tmp20 = tmp4 * tmp19
    tmp21 = tl.broadcast_to(tmp20, [XBLOCK, R0_BLOCK])
    tmp23 = tl.where(xmask, tmp21, 0)
    tmp24 = tl.sum(tmp23, 1)[:, None].to(tl.float32)
    tmp26 = tl.full([1, 1], 0.00390625, tl.float32)
    tmp27 = tmp18 * tmp26
    tmp28 = tmp4 * tmp14
    tmp29 = tmp28 - tmp8
    tmp30 = tmp19 * tmp24
    tmp31 = tmp29 - tmp30
    tmp32 = tmp27 * tmp31
    tmp33 = tmp32.to(tl.float32)
    tmp34 = tmp25 + tmp33
    tl.store(in_out_ptr0 + (r0_1 + 256*x0), tmp34, xmask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, add_3, addmm_4, unsqueeze_1, tangents_1 = args
        args.clear()
        assert_size_stride(primals_1, (64, 256), (256, 1))
        assert_size_stride(primals_2, (256, ), (1, ))
        assert_size_stride(primals_3, (256, ), (1, ))
        assert_size_stride(primals_4, (512, 256), (256, 1))
        assert_size_stride(primals_5, (512, ), (1, ))
        assert_size_stride(primals_6, (256, 512), (512, 1))
        assert_size_stride(primals_7, (256, ), (1, ))
        assert_size_stride(primals_8, (256, ), (1, ))
        assert_size_stride(primals_9, (256, ), (1, ))
        assert_size_stride(primals_10, (256, ), (1, ))
        assert_size_stride(primals_11, (512, 256), (256, 1))
        assert_size_stride(primals_12, (512, ), (1, ))
        assert_size_stride(primals_13, (256, 512), (512, 1))
        assert_size_stride(primals_14, (256, ), (1, ))
        assert_size_stride(primals_15, (256, ), (1, ))
        assert_size_stride(primals_16, (16, 256), (256, 1))
        assert_size_stride(add_3, (64, 256), (256, 1))
        assert_size_stride(addmm_4, (64, 16), (16, 1))
        assert_size_stride(unsqueeze_1, (64, 1), (1, 1))
        assert_size_stride(tangents_1, (), ())
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = addmm_4; del addmm_4  # reuse
            buf13 = empty_strided_cuda((1, 16), (16, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [expand, div_2, unsqueeze, logits, sub_5, exp_3, mul_14, convert_element_type_28, sum_4], Original ATen: [aten.expand, aten.div, aten.unsqueeze, aten._to_copy, aten.sub, aten.exp, aten.mul, aten.sum]
            # [Provenance debug handles] triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0:1
            stream0 = get_raw_stream(0)
            triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0.run(buf0, tangents_1, unsqueeze_1, buf13, 16, 64, stream=stream0)
            del tangents_1
            del unsqueeze_1
            buf1 = empty_strided_cuda((64, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear, permute_5, mm], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:2
            extern_kernels.mm(buf0, primals_16, out=buf1)
            del primals_16
            buf2 = empty_strided_cuda((64, 1), (1, 64), torch.float32)
            buf3 = empty_strided_cuda((64, 1), (1, 64), torch.float32)
            buf5 = empty_strided_cuda((64, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y], Original ATen: [aten.native_layer_norm]
            # [Provenance debug handles] triton_per_fused_native_layer_norm_1:3
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_1.run(add_3, primals_9, primals_10, buf2, buf3, buf5, 64, 256, stream=stream0)
            del primals_10
            buf14 = empty_strided_cuda((64, 256), (256, 1), torch.bfloat16)
            buf18 = empty_strided_cuda((1, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [mul_16, sum_6], Original ATen: [aten.mul, aten.sum]
            # [Provenance debug handles] triton_per_fused_mul_sum_2:4
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_2.run(buf1, primals_15, buf14, buf18, 256, 64, stream=stream0)
            buf32 = empty_strided_cuda((64, 1), (1, 64), torch.float32)
            buf33 = empty_strided_cuda((64, 1), (1, 64), torch.float32)
            buf35 = empty_strided_cuda((64, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y], Original ATen: [aten.native_layer_norm]
            # [Provenance debug handles] triton_per_fused_native_layer_norm_1:5
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_1.run(primals_1, primals_2, primals_3, buf32, buf33, buf35, 64, 256, stream=stream0)
            del primals_3
            buf6 = empty_strided_cuda((64, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:6
            extern_kernels.addmm(primals_12, buf5, reinterpret_tensor(primals_11, (256, 512), (1, 256), 0), alpha=1, beta=1, out=buf6)
            del primals_12
            buf16 = empty_strided_cuda((64, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y_3, permute_9, mm_2], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:7
            extern_kernels.mm(buf14, primals_13, out=buf16)
            buf9 = empty_strided_cuda((64, 512), (512, 1), torch.bfloat16)
            buf21 = empty_strided_cuda((64, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y_1, , softmax, y_2, mul_17, convert_element_type_37, convert_element_type_38, mul_18, sum_7, neg, convert_element_type_default_1, mul_20, mul_21, mul_22, exp_4, mul_23, mul_24, add_10, mul_25, convert_element_type_42], Original ATen: [aten.gelu, prims.prepare_softmax_online, aten.sub, aten.exp, aten._softmax, aten.mul, aten._softmax_backward_data, aten.gelu_backward]
            # [Provenance debug handles] triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3:8
            stream0 = get_raw_stream(0)
            triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3.run(buf6, buf16, buf9, buf21, 64, 512, stream=stream0)
            buf24 = empty_strided_cuda((1, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [sum_8], Original ATen: [aten.sum]
            # [Provenance debug handles] triton_per_fused_sum_4:9
            stream0 = get_raw_stream(0)
            triton_per_fused_sum_4.run(buf21, buf24, 512, 64, stream=stream0)
            buf10 = empty_strided_cuda((64, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y_3], Original ATen: [aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:10
            extern_kernels.addmm(primals_14, buf9, reinterpret_tensor(primals_13, (512, 256), (1, 512), 0), alpha=1, beta=1, out=buf10)
            del primals_13
            del primals_14
            buf15 = empty_strided_cuda((1, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [mul_15, sum_5], Original ATen: [aten.mul, aten.sum]
            # [Provenance debug handles] triton_per_fused_mul_sum_5:11
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_5.run(buf1, buf10, buf15, 256, 64, stream=stream0)
            buf22 = empty_strided_cuda((64, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [linear, permute_13, mm_4], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:12
            extern_kernels.mm(buf21, primals_11, out=buf22)
            del primals_11
            buf29 = empty_strided_cuda((256, ), (1, ), torch.bfloat16)
            buf30 = empty_strided_cuda((256, ), (1, ), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y, clone, mul_32, sum_11, sum_12, convert_element_type_52, convert_element_type_53], Original ATen: [aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_native_layer_norm_native_layer_norm_backward_6:13
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_native_layer_norm_backward_6.run(buf22, add_3, buf2, buf3, buf29, buf30, 256, 64, stream=stream0)
            buf11 = buf10; del buf10  # reuse
            buf31 = buf1; del buf1  # reuse
            buf41 = empty_strided_cuda((64, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y, mul_1, add, clone, clone_2, mul_27, mul_28, sum_9, mul_29, sum_10, mul_30, sub_7, sub_8, div_3, mul_31, convert_element_type_51, add_11, mul_34], Original ATen: [aten.native_layer_norm, aten.mul, aten.add, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_add_mul_native_layer_norm_native_layer_norm_backward_7:14
            stream0 = get_raw_stream(0)
            triton_per_fused_add_mul_native_layer_norm_native_layer_norm_backward_7.run(buf11, buf31, buf22, primals_9, add_3, buf2, buf3, primals_15, primals_8, buf41, 64, 256, stream=stream0)
            del add_3
            del buf2
            del buf22
            del buf3
            del primals_15
            del primals_8
            del primals_9
            buf12 = empty_strided_cuda((16, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [permute_6, mul_1, add, permute_8], Original ATen: [aten.t, aten.mul, aten.add, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:15
            extern_kernels.mm(reinterpret_tensor(buf0, (16, 64), (1, 16), 0), buf11, out=buf12)
            del buf0
            buf45 = empty_strided_cuda((1, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [sum_14], Original ATen: [aten.sum]
            # [Provenance debug handles] triton_per_fused_sum_8:16
            stream0 = get_raw_stream(0)
            triton_per_fused_sum_8.run(buf41, buf45, 256, 64, stream=stream0)
            buf36 = buf6; del buf6  # reuse
            # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:17
            extern_kernels.addmm(primals_5, buf35, reinterpret_tensor(primals_4, (256, 512), (1, 256), 0), alpha=1, beta=1, out=buf36)
            del primals_5
            buf43 = buf16; del buf16  # reuse
            # Topologically Sorted Source Nodes: [y_3, permute_17, mm_6], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:18
            extern_kernels.mm(buf41, primals_6, out=buf43)
            buf39 = empty_strided_cuda((64, 512), (512, 1), torch.bfloat16)
            buf48 = empty_strided_cuda((64, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y_1, , softmax, y_2, mul_35, convert_element_type_58, convert_element_type_59, mul_36, sum_15, neg_1, convert_element_type_default, mul_38, mul_39, mul_40, exp_5, mul_41, mul_42, add_13, mul_43, convert_element_type_63], Original ATen: [aten.gelu, prims.prepare_softmax_online, aten.sub, aten.exp, aten._softmax, aten.mul, aten._softmax_backward_data, aten.gelu_backward]
            # [Provenance debug handles] triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3:19
            stream0 = get_raw_stream(0)
            triton_per_fused__softmax__softmax_backward_data_exp_gelu_gelu_backward_mul_prepare_softmax_online_sub_3.run(buf36, buf43, buf39, buf48, 64, 512, stream=stream0)
            del buf36
            del buf43
            buf51 = empty_strided_cuda((1, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [sum_16], Original ATen: [aten.sum]
            # [Provenance debug handles] triton_per_fused_sum_4:20
            stream0 = get_raw_stream(0)
            triton_per_fused_sum_4.run(buf48, buf51, 512, 64, stream=stream0)
            buf40 = buf11; del buf11  # reuse
            # Topologically Sorted Source Nodes: [y_3], Original ATen: [aten.t, aten.addmm]
            # [Provenance debug handles] extern_kernels.addmm:21
            extern_kernels.addmm(primals_7, buf39, reinterpret_tensor(primals_6, (512, 256), (1, 512), 0), alpha=1, beta=1, out=buf40)
            del primals_6
            del primals_7
            buf42 = empty_strided_cuda((1, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [mul_33, sum_13], Original ATen: [aten.mul, aten.sum]
            # [Provenance debug handles] triton_per_fused_mul_sum_5:22
            stream0 = get_raw_stream(0)
            triton_per_fused_mul_sum_5.run(buf31, buf40, buf42, 256, 64, stream=stream0)
            buf49 = buf40; del buf40  # reuse
            # Topologically Sorted Source Nodes: [linear, permute_21, mm_8], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:23
            extern_kernels.mm(buf48, primals_4, out=buf49)
            del primals_4
            buf58 = buf31; del buf31  # reuse
            # Topologically Sorted Source Nodes: [y, clone_4, clone_6, mul_45, mul_46, sum_17, mul_47, sum_18, mul_48, sub_10, sub_11, div_4, mul_49, convert_element_type_72, add_14], Original ATen: [aten.native_layer_norm, aten.native_layer_norm_backward, aten.add]
            # [Provenance debug handles] triton_per_fused_add_native_layer_norm_native_layer_norm_backward_9:24
            stream0 = get_raw_stream(0)
            triton_per_fused_add_native_layer_norm_native_layer_norm_backward_9.run(buf58, buf49, primals_2, primals_1, buf32, buf33, 64, 256, stream=stream0)
            del primals_2
            buf56 = empty_strided_cuda((256, ), (1, ), torch.bfloat16)
            buf57 = empty_strided_cuda((256, ), (1, ), torch.bfloat16)
            # Topologically Sorted Source Nodes: [y, clone_4, mul_50, sum_19, sum_20, convert_element_type_73, convert_element_type_74], Original ATen: [aten.native_layer_norm, aten.native_layer_norm_backward]
            # [Provenance debug handles] triton_per_fused_native_layer_norm_native_layer_norm_backward_6:25
            stream0 = get_raw_stream(0)
            triton_per_fused_native_layer_norm_native_layer_norm_backward_6.run(buf49, primals_1, buf32, buf33, buf56, buf57, 256, 64, stream=stream0)
            del buf32
            del buf33
            del buf49
            del primals_1
            buf17 = empty_strided_cuda((256, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [permute_10, permute_12], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:26
            extern_kernels.mm(reinterpret_tensor(buf14, (256, 64), (1, 256), 0), buf9, out=buf17)
            del buf14
            del buf9
            buf23 = empty_strided_cuda((512, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [permute_14, permute_16], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:27
            extern_kernels.mm(reinterpret_tensor(buf21, (512, 64), (1, 512), 0), buf5, out=buf23)
            del buf21
            del buf5
            buf44 = empty_strided_cuda((256, 512), (512, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [permute_18, permute_20], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:28
            extern_kernels.mm(reinterpret_tensor(buf41, (256, 64), (1, 256), 0), buf39, out=buf44)
            del buf39
            del buf41
            buf50 = empty_strided_cuda((512, 256), (256, 1), torch.bfloat16)
            # Topologically Sorted Source Nodes: [permute_22, permute_24], Original ATen: [aten.t, aten.mm]
            # [Provenance debug handles] extern_kernels.mm:29
            extern_kernels.mm(reinterpret_tensor(buf48, (512, 64), (1, 512), 0), buf35, out=buf50)
            del buf35
            del buf48
        return (buf58, buf56, buf57, buf50, reinterpret_tensor(buf51, (512, ), (1, ), 0), buf44, reinterpret_tensor(buf45, (256, ), (1, ), 0), reinterpret_tensor(buf42, (256, ), (1, ), 0), buf29, buf30, buf23, reinterpret_tensor(buf24, (512, ), (1, ), 0), buf17, reinterpret_tensor(buf18, (256, ), (1, ), 0), reinterpret_tensor(buf15, (256, ), (1, ), 0), buf12, reinterpret_tensor(buf13, (16, ), (1, ), 0), )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((64, 256), (256, 1), device='cuda:0', dtype=torch.bfloat16)
    primals_2 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_3 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_4 = rand_strided((512, 256), (256, 1), device='cuda:0', dtype=torch.bfloat16)
    primals_5 = rand_strided((512, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_6 = rand_strided((256, 512), (512, 1), device='cuda:0', dtype=torch.bfloat16)
    primals_7 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_8 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_9 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_10 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_11 = rand_strided((512, 256), (256, 1), device='cuda:0', dtype=torch.bfloat16)
    primals_12 = rand_strided((512, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_13 = rand_strided((256, 512), (512, 1), device='cuda:0', dtype=torch.bfloat16)
    primals_14 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_15 = rand_strided((256, ), (1, ), device='cuda:0', dtype=torch.bfloat16)
    primals_16 = rand_strided((16, 256), (256, 1), device='cuda:0', dtype=torch.bfloat16)
    add_3 = rand_strided((64, 256), (256, 1), device='cuda:0', dtype=torch.bfloat16)
    addmm_4 = rand_strided((64, 16), (16, 1), device='cuda:0', dtype=torch.bfloat16)
    unsqueeze_1 = rand_strided((64, 1), (1, 1), device='cuda:0', dtype=torch.float32)
    tangents_1 = rand_strided((), (), device='cuda:0', dtype=torch.float32)
    return [primals_1, primals_2, primals_3, primals_4, primals_5, primals_6, primals_7, primals_8, primals_9, primals_10, primals_11, primals_12, primals_13, primals_14, primals_15, primals_16, add_3, addmm_4, unsqueeze_1, tangents_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
