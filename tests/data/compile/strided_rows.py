"""A kernel written for tests/test_loads_compiled.py: four loads that no layout can vectorize, each for a
reason of its own (a constant stride, a runtime stride, a tile smaller than the threads holding it, one
address per run of elements)."""
import triton
import triton.language as tl


@triton.jit
def strided_rows_kernel(x_ptr, y_ptr, z_ptr, s_ptr, out_ptr, stride, BLOCK: tl.constexpr, SMALL: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    every_fourth = tl.load(x_ptr + offs * 4)  # interleaved: elements 16 bytes apart
    strided = tl.load(y_ptr + offs * stride)  # a column of a row-major matrix: stride known at run time
    small = tl.load(z_ptr + tl.arange(0, SMALL))  # fewer elements than threads
    scale = tl.load(s_ptr + offs // 128)  # one scale per block of 128 elements
    tl.store(out_ptr + offs, (every_fourth + strided + tl.sum(small, axis=0)) * scale)
