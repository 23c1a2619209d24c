import triton
import triton.language as tl


@triton.jit
def masked_reshape(a_ptr, c_ptr, K, BLOCK_K: tl.constexpr):
    # the mask a tensor descriptor's lowering builds: an index reshaped to [1, BLOCK_K]
    offs_k = tl.reshape(tl.arange(0, BLOCK_K), (1, BLOCK_K))
    mask = offs_k < K
    a = tl.load(a_ptr + offs_k, mask=mask, other=0.0)
    tl.store(c_ptr + offs_k, a)


@triton.jit
def masked_tile(a_ptr, c_ptr, M, K, stride_m, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    mask = (offs_m[:, None] < M) & (offs_k[None, :] < K)
    ptrs = a_ptr + offs_m[:, None] * stride_m + offs_k[None, :]
    a = tl.load(ptrs, mask=mask, other=0.0)
    tl.store(c_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :], a)
