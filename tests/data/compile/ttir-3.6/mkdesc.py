import triton
import triton.language as tl


@triton.jit
def mkdesc(a, b, M, N, BLOCK: tl.constexpr):
    da = tl.make_tensor_descriptor(a, shape=[M, N], strides=[N, 1], block_shape=[BLOCK, BLOCK])
    db = tl.make_tensor_descriptor(b, shape=[M, N], strides=[N, 1], block_shape=[BLOCK, BLOCK])
    pid = tl.program_id(0)
    db.store([pid * BLOCK, 0], da.load([pid * BLOCK, 0]) * 2)
