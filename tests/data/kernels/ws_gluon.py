"""A warp-specialized Gluon kernel small enough to read (Triton 3.9's `gl.warp_specialize` signature):
a default partition and two one-warp workers, each calling the same helper, whose ops Triton inlines
with the kernel's `def` as their call site; layouts written in the partitions, one only through the
slice of it the default partition uses (tests/test_partitions.py)."""

from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def _copy(src, dst, offs):
    x = gl.load(src + offs)
    gl.store(dst + offs, x * 2)


@gluon.jit
def _default(src, dst, BLOCK: gl.constexpr):
    parent: gl.constexpr = gl.BlockedLayout([1, 4], [1, 32], [1, gl.num_warps()], [1, 0])
    layout: gl.constexpr = gl.SliceLayout(0, parent)
    offs = 2 * BLOCK + gl.arange(0, BLOCK, layout)
    gl.store(dst + offs, gl.load(src + offs))


@gluon.jit
def _worker_a(src, dst, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [1], [0])
    offs = gl.arange(0, BLOCK, layout)
    _copy(src, dst, offs)


@gluon.jit
def _worker_b(src, dst, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [1], [0])
    offs = BLOCK + gl.arange(0, BLOCK, layout)
    _copy(src, dst, offs)


@gluon.jit
def ws_copy_kernel(src, dst, BLOCK: gl.constexpr):
    gl.warp_specialize([(_default, (src, dst, BLOCK)), (_worker_a, (src, dst, BLOCK)),
                        (_worker_b, (src, dst, BLOCK))], [1, 1], [24, 24])
