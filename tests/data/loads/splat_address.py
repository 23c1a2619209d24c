import triton
import triton.language as tl


@triton.jit
def splat_address(x_ptr, s_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s = tl.load(s_ptr + tl.zeros([BLOCK], dtype=tl.int32))
    tl.store(out_ptr + offs, x * s)


@triton.jit
def scan_address(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.cumsum(tl.full([BLOCK], 1, tl.int32), 0) - 1
    tl.store(out_ptr + tl.arange(0, BLOCK), tl.load(x_ptr + offs))


@triton.jit
def reduced_address(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    top = tl.max(offs, axis=0)
    tl.store(out_ptr + offs, tl.load(x_ptr + top + offs * 0))
