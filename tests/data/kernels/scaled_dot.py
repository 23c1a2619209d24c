"""A block-scaled (mxfp8) matmul tile: tl.dot_scaled over e4m3 operands with e8m0 scales, one 32-element
scale per row and K step. On cuda:100 it becomes a tcgen05 block-scaled MMA whose scales live in tensor
memory (#ttng.tensor_memory_scales_encoding), written by tcgen05.cp or by an initialized allocation.
Written for this project; compiled by tests/test_tmem.py."""

import triton
import triton.language as tl


@triton.jit
def scaled_dot_kernel(a_ptr, b_ptr, a_scale_ptr, b_scale_ptr, c_ptr, K,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    rs = tl.arange(0, BLOCK_K // 32)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BLOCK_N + rn[None, :])
        sa = tl.load(a_scale_ptr + rm[:, None] * (K // 32) + (k // 32 + rs)[None, :])
        sb = tl.load(b_scale_ptr + rn[:, None] * (K // 32) + (k // 32 + rs)[None, :])
        acc = tl.dot_scaled(a, sa, "e4m3", b, sb, "e4m3", acc)
    tl.store(c_ptr + rm[:, None] * BLOCK_N + rn[None, :], acc)
