import triton
import triton.language as tl


@triton.jit
def static_range(x_ptr, o_ptr, stride, BLOCK: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.static_range(N):
        acc += tl.load(x_ptr + i * stride + offs)
    tl.store(o_ptr + offs, acc)


@triton.jit
def static_range_store(x_ptr, o_ptr, stride, BLOCK: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    for i in tl.static_range(N):
        tl.store(o_ptr + i * stride + offs, x)
