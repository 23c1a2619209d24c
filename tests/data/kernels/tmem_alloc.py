"""One tensor memory allocation of BUFS buffers, written once and read back (Gluon, cuda:100): Triton's
TMEM allocation pass records the columns it took in the metadata (`tmem_size`, rounded up to a power of
two of at least 32), an oracle for the columns `layout` derives from the encoding. Written for this
project; compiled by tests/test_tmem.py."""

from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, allocate_tensor_memory


@gluon.jit
def tmem_kernel(out_ptr, M: gl.constexpr, N: gl.constexpr, BLOCK_M: gl.constexpr, STRIDE: gl.constexpr,
                BUFS: gl.constexpr, DTYPE: gl.constexpr):
    layout: gl.constexpr = TensorMemoryLayout((BLOCK_M, N), col_stride=STRIDE)
    tmem = allocate_tensor_memory(DTYPE, [BUFS, M, N], layout)
    buf = tmem.index(BUFS - 1)
    y = buf.load()
    buf.store(y * 2)
    z = buf.load()
    rows = gl.arange(0, M, layout=gl.SliceLayout(1, z.type.layout))
    cols = gl.arange(0, N, layout=gl.SliceLayout(0, z.type.layout))
    gl.store(out_ptr + rows[:, None] * N + cols[None, :], z)
