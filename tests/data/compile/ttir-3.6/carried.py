import triton
import triton.language as tl

@triton.jit
def carried(x, y, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    p = x + o
    q = y + o
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        acc += tl.load(p, eviction_policy="evict_last")
        p += BLOCK
        q += BLOCK
    v = tl.load(p, cache_modifier=".cg")
    tl.store(q, acc + v, cache_modifier=".cs")
