import triton
import triton.language as tl


@triton.jit
def scalar_atomic(i64_ptr, cas_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    iv = tl.load(i64_ptr + offs, mask=m)
    tl.atomic_max(i64_ptr + offs, iv, mask=m, sem="acq_rel", scope="sys")
    tl.atomic_cas(cas_ptr, 0, 1, sem="acquire")
    tl.atomic_add(i64_ptr, 1)


@triton.jit
def scalar_beside_buffer_atomic(x_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    iv = tl.load(x_ptr + offs, mask=m)
    tl.atomic_add(c_ptr + offs, iv, mask=m)
    tl.atomic_add(c_ptr, 1)
