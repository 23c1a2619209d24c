"""Two loads and a masked store on one source line each way a user writes them (tritonscope loads tests)."""

import triton
import triton.language as tl


@triton.jit
def two_loads_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(a_ptr + offs).to(tl.float32) + tl.load(b_ptr + offs), mask=offs < n)


@triton.jit
def masked_copy_kernel(a_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(a_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x, mask=offs < n)
