"""A tensor-descriptor (TMA on sm90) copy of one 64x64 tile (tritonscope loads tests)."""

import triton
import triton.language as tl


@triton.jit
def tma_copy_kernel(a_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK, BLOCK])
    o_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK, BLOCK])
    tile = a_desc.load([tl.program_id(0) * BLOCK, 0])
    o_desc.store([tl.program_id(0) * BLOCK, 0], tile)
