"""Gluon: a 16x16 int1 mask (row >= column) in a layout the programmer chose, not the compiler.

The worked example of layout decoding: `BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])` spreads the 32
lanes and 4 warps of 128 threads along dim 1 only. A 16x16 tensor has 16 columns for 128 threads: every
element is held by 8 threads (replicated along dim 1), and each thread holds a whole column of 16.
"""

from triton.experimental import gluon
from triton.experimental.gluon import language as gl

from ._sample import Launch, Sample


@gluon.jit
def gluon_mask_kernel(out_ptr, N: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])
    rows = gl.arange(0, N, layout=gl.SliceLayout(1, layout))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, layout))
    mask = rows[:, None] >= cols[None, :]
    gl.store(out_ptr + rows[:, None] * N + cols[None, :], mask)


def launch(new, n: int = 16) -> Launch:
    out = new((n, n), "i1", "empty")
    return Launch(args={"out_ptr": out, "N": n}, grid=(1,), outputs=("out_ptr",), num_warps=4)


def reference(args):
    import torch

    n = args["N"]
    return {"out_ptr": torch.ones((n, n), dtype=torch.bool, device=args["out_ptr"].device).tril()}


SAMPLE = Sample(
    name="gluon_mask",
    description="Gluon: 16x16 int1 mask, BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0]) written by hand",
    kernel=gluon_mask_kernel,
    launch=launch,
    reference=reference,
    atol=0,
    rtol=0,
)
