"""Gluon: the 16x16 int1 mask again, its index vectors left to the compiler with `gl.AutoLayout()`.

Only the store pins a layout (`gl.set_auto_layout`); Gluon's `gluon-resolve-auto-encodings` pass carries
it back to the `arange`s that were written as AutoLayout. `tritonscope layout` shows what each line wrote
beside what the compiler resolved. AutoLayout and set_auto_layout exist from Triton 3.5.
"""

from triton.experimental import gluon
from triton.experimental.gluon import language as gl

from ._sample import Launch, Sample


@gluon.jit
def gluon_mask_auto_kernel(out_ptr, N: gl.constexpr):
    rows = gl.arange(0, N, layout=gl.AutoLayout())
    cols = gl.arange(0, N, layout=gl.AutoLayout())
    mask = rows[:, None] >= cols[None, :]
    offsets = rows[:, None] * N + cols[None, :]
    store_layout: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])
    gl.store(out_ptr + gl.set_auto_layout(offsets, store_layout), gl.set_auto_layout(mask, store_layout))


def launch(new, n: int = 16) -> Launch:
    out = new((n, n), "i1", "empty")
    return Launch(args={"out_ptr": out, "N": n}, grid=(1,), outputs=("out_ptr",), num_warps=4)


def reference(args):
    import torch

    n = args["N"]
    return {"out_ptr": torch.ones((n, n), dtype=torch.bool, device=args["out_ptr"].device).tril()}


SAMPLE = Sample(
    name="gluon_mask_auto",
    description="Gluon: the 16x16 int1 mask with gl.AutoLayout() index vectors, resolved by the compiler",
    kernel=gluon_mask_auto_kernel,
    launch=launch,
    reference=reference,
    atol=0,
    rtol=0,
)
