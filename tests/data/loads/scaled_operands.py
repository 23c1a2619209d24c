import triton
import triton.language as tl


@triton.jit
def scaled(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    om = tl.arange(0, M)
    on = tl.arange(0, N)
    ok2 = tl.arange(0, K // 2)
    oks = tl.arange(0, K // 32)
    a = tl.load(a_ptr + om[:, None] * (K // 2) + ok2[None, :])
    b = tl.load(b_ptr + ok2[:, None] * N + on[None, :])
    a_s = tl.load(as_ptr + om[:, None] * (K // 32) + oks[None, :])
    b_s = tl.load(bs_ptr + on[:, None] * (K // 32) + oks[None, :])
    c = tl.dot_scaled(a, a_s, "e2m1", b, b_s, "e2m1")
    tl.store(c_ptr + om[:, None] * N + on[None, :], c)
