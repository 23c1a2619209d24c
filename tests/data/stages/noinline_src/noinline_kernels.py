import triton
import triton.language as tl


@triton.jit
def _twice(v):
    return v + v


@triton.jit(noinline=True)
def copy_block(src_ptr, dst_ptr, start, n, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(src_ptr + offs, mask=mask)
    w = _twice(v)
    tl.store(dst_ptr + offs, w, mask=mask)


@triton.jit
def noinline_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * BLOCK
    copy_block(x_ptr, out_ptr, start, n, BLOCK)
    copy_block(out_ptr, x_ptr, start, n, BLOCK)
