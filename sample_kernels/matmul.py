"""Tiled fp16 matmul C = A @ B with tl.dot, a K loop and grouped program ordering (fp32 accumulator)."""

import triton
import triton.language as tl

from ._sample import Launch, Sample


@triton.jit
def matmul_kernel(
    a_ptr, b_ptr, c_ptr,
    M, N, K,
    stride_am, stride_ak,
    stride_bk, stride_bn,
    stride_cm, stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    # Grouped ordering: GROUP_M rows of tiles are visited column by column, so that
    # neighbouring programs reuse the same tiles of B from L2.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = accumulator.to(tl.float16)

    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def launch(new, M: int = 1024, N: int = 1024, K: int = 1024) -> Launch:
    a = new((M, K), "fp16")
    b = new((K, N), "fp16")
    c = new((M, N), "fp16", "empty")
    BLOCK_M, BLOCK_N = 128, 64
    return Launch(
        args={"a_ptr": a, "b_ptr": b, "c_ptr": c, "M": M, "N": N, "K": K,
              "stride_am": a.stride(0), "stride_ak": a.stride(1),
              "stride_bk": b.stride(0), "stride_bn": b.stride(1),
              "stride_cm": c.stride(0), "stride_cn": c.stride(1),
              "BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N, "BLOCK_K": 32, "GROUP_M": 8},
        grid=(triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),),
        outputs=("c_ptr",),
        num_warps=4,
        num_stages=3,
    )


def reference(args):
    a, b = args["a_ptr"], args["b_ptr"]
    return {"c_ptr": (a.float() @ b.float()).to(a.dtype)}


SAMPLE = Sample(
    name="matmul",
    description="tiled fp16 matmul, tl.dot, K loop, grouped ordering",
    kernel=matmul_kernel,
    launch=launch,
    reference=reference,
    atol=2e-2,
    rtol=1e-2,
    interpreter_sizes={"M": 256, "N": 192, "K": 160},
)
