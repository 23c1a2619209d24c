import triton
import triton.language as tl


@triton.jit
def hinted(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(x + o, mask=o < n, other=0.0, eviction_policy="evict_last")
    b = tl.load(y + o, mask=o < n, cache_modifier=".cg")
    c = tl.load(y + BLOCK + o, eviction_policy="evict_last", volatile=True)
    tl.store(y + o, a + b + c, mask=o < n, eviction_policy="evict_first")
    tl.store(x + o, a, cache_modifier=".cs")


@triton.jit
def described(a_desc, b_desc, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tile = a_desc.load([pid * BLOCK, 0])
    b_desc.store([pid * BLOCK, 0], tile * 2)
