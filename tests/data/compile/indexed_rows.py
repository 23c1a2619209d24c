"""A kernel written for tests/test_loads_compiled.py: rows picked through an index array (as a mixture-of-
experts layer routes tokens), so that `loads` meets a gather and an argument that only scales a block."""
import triton
import triton.language as tl


@triton.jit
def indexed_rows_kernel(idx_ptr, w_ptr, src_ptr, out_ptr, n_valid, EM, stride,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    pid_m = min(pid, tl.cdiv(EM, BLOCK_M) - 1)  # EM reaches addresses only as pid_m * BLOCK_M
    offs = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rows = tl.load(idx_ptr + offs)
    valid = rows < n_valid
    weight = tl.load(w_ptr + rows, mask=valid, other=0.0)  # a gather: the address holds loaded indices
    cols = tl.arange(0, BLOCK_N)
    tile = tl.load(src_ptr + rows[:, None] * stride + cols[None, :], mask=valid[:, None], other=0.0)
    tl.store(out_ptr + offs[:, None] * stride + cols[None, :], tile * weight[:, None], mask=valid[:, None])
