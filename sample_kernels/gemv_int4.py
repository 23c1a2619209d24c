"""GEMV y = W @ x with packed int4 weights dequantized in the kernel, and a reverse split-K reduction.

W holds 4-bit weights, eight consecutive k values per int32 (k = 8 * row + j in bits 4j..4j+3),
stored (K // 8, N) row-major; a weight q in 0..15 means (q - 8) * scale[n]. Each program dequantizes a
BLOCK_K x BLOCK_N tile, multiplies it with a slice of x, and adds its partial sums into y atomically.
"""

import triton
import triton.language as tl

from ._sample import Launch, Sample


@triton.jit
def gemv_int4_kernel(
    w_ptr,
    scales_ptr,
    x_ptr,
    y_ptr,
    N,
    K,
    stride_wk,
    BLOCK_K: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_mask = offs_n < N
    # Each packed int32 is read by the 8 k rows it holds; the shift picks the row's nibble.
    packed = tl.load(w_ptr + (offs_k // 8)[:, None] * stride_wk + offs_n[None, :],
                     mask=n_mask[None, :], other=0, eviction_policy="evict_first")
    shifts = ((offs_k % 8) * 4)[:, None]
    q = (packed >> shifts) & 0xF
    scale = tl.load(scales_ptr + offs_n, mask=n_mask, other=0.0)
    w = (q - 8).to(tl.float16) * scale[None, :]
    x = tl.load(x_ptr + offs_k, mask=offs_k < K, other=0.0, eviction_policy="evict_last")
    partial = tl.sum(w.to(tl.float32) * x.to(tl.float32)[:, None], axis=0)
    tl.atomic_add(y_ptr + offs_n, partial, mask=n_mask)


def launch(new, N: int = 4096, K: int = 4096) -> Launch:
    w = new((K // 8, N), "i32", "int32bits")
    scales = new((N,), "fp16", "scales")
    x = new((K,), "fp16")
    y = new((N,), "fp32", "zeros")
    BLOCK_K, BLOCK_N = 64, 128
    return Launch(
        args={"w_ptr": w, "scales_ptr": scales, "x_ptr": x, "y_ptr": y, "N": N, "K": K,
              "stride_wk": w.stride(0),
              "BLOCK_K": BLOCK_K, "BLOCK_N": BLOCK_N},
        grid=(triton.cdiv(N, BLOCK_N), triton.cdiv(K, BLOCK_K)),
        outputs=("y_ptr",),
        num_warps=4,
    )


def dequantize(packed, scales):
    """The reference unpacking: (K // 8, N) int32 -> (K, N) float32."""
    import torch

    rows = [((packed >> (4 * j)) & 0xF) for j in range(8)]
    q = torch.stack(rows, dim=1).reshape(packed.shape[0] * 8, packed.shape[1])
    return (q - 8).float() * scales.float()[None, :]


def reference(args):
    w = dequantize(args["w_ptr"], args["scales_ptr"]).half().float()
    return {"y_ptr": w.t() @ args["x_ptr"].float()}


SAMPLE = Sample(
    name="gemv_int4",
    description="int4-packed GEMV, dequantized in the kernel, reverse split-K",
    kernel=gemv_int4_kernel,
    launch=launch,
    reference=reference,
    atol=5e-2,
    rtol=1e-2,
    interpreter_sizes={"N": 256, "K": 256},
)
