"""Gluon: transpose an fp16 matrix through shared memory, one 64x64 tile per program.

Global memory is read along rows of x and written along rows of out (columns of x), both in 16-byte
vectors: the tile goes into a swizzled shared-memory buffer in one register layout and comes back out in
another, which is what shared memory is for when two layouts disagree.
"""

import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

from ._sample import Launch, Sample


@gluon.jit
def gluon_transpose_kernel(x_ptr, out_ptr, M, N, BLOCK: gl.constexpr):
    # Each thread reads 8 consecutive elements of a row of x ...
    load_layout: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    # ... and writes 8 consecutive elements of a column of x, which is a row of out.
    store_layout: gl.constexpr = gl.BlockedLayout([8, 1], [8, 4], [1, 4], [0, 1])
    smem_layout: gl.constexpr = gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])
    rows = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=gl.SliceLayout(1, load_layout))
    cols = gl.program_id(1) * BLOCK + gl.arange(0, BLOCK, layout=gl.SliceLayout(0, load_layout))
    tile = gl.load(x_ptr + rows[:, None] * N + cols[None, :])
    smem = gl.allocate_shared_memory(gl.float16, [BLOCK, BLOCK], smem_layout, tile)
    moved = smem.load(store_layout)
    rows_t = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=gl.SliceLayout(1, store_layout))
    cols_t = gl.program_id(1) * BLOCK + gl.arange(0, BLOCK, layout=gl.SliceLayout(0, store_layout))
    gl.store(out_ptr + cols_t[None, :] * M + rows_t[:, None], moved)


def launch(new, M: int = 512, N: int = 256) -> Launch:
    x = new((M, N), "fp16")
    out = new((N, M), "fp16", "empty")
    BLOCK = 64
    return Launch(
        args={"x_ptr": x, "out_ptr": out, "M": M, "N": N, "BLOCK": BLOCK},
        grid=(triton.cdiv(M, BLOCK), triton.cdiv(N, BLOCK)),
        outputs=("out_ptr",),
        num_warps=4,
    )


def reference(args):
    return {"out_ptr": args["x_ptr"].t().contiguous()}


SAMPLE = Sample(
    name="gluon_transpose",
    description="Gluon: fp16 transpose through swizzled shared memory, two hand-written register layouts",
    kernel=gluon_transpose_kernel,
    launch=launch,
    reference=reference,
    atol=0,
    rtol=0,
)
