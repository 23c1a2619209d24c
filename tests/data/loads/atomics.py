import triton
import triton.language as tl


@triton.jit
def atomics(x_ptr, h_ptr, b_ptr, f_ptr, i_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(b_ptr + offs, v.to(tl.bfloat16), mask=m)
    tl.atomic_add(h_ptr + offs, v.to(tl.float16), mask=m)
    tl.atomic_add(f_ptr + offs, v, mask=m)
    tl.atomic_xchg(i_ptr + offs, offs, mask=m)
    tl.atomic_cas(c_ptr + tl.program_id(0), 0, 1)
