"""GEMV y = W @ x with a reverse split-K reduction: the `gemv revsplitK` pattern with fp16 weights.

Each program multiplies one 64x256 tile of W with a 64-element slice of x. The K axis is split across
programs (grid axis 1) instead of being looped over inside one program; the partial sums meet in y
through atomic adds. W is stored (N, K) row-major, so inside the (BLOCK_K, BLOCK_N) tile the k index
(dimension 0) is the contiguous one: with 16-byte aligned pointers and strides the tile load becomes
16-byte vector loads. That load, marked evict_first because each weight is read exactly once, is the
example the documentation follows from Python down to SASS and AMDGCN.
"""

import triton
import triton.language as tl

from ._sample import Launch, Sample, Variant


@triton.jit
def gemv_kernel(
    w_ptr,
    x_ptr,
    y_ptr,
    N,
    K,
    stride_wn,
    BLOCK_K: tl.constexpr,
    BLOCK_N: tl.constexpr,
    EVEN_K: tl.constexpr,
):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    w_ptrs = w_ptr + offs_k[:, None] + offs_n[None, :] * stride_wn
    if EVEN_K:
        # K is a multiple of BLOCK_K: only the N edge needs a mask, constant along k.
        w_mask = offs_n[None, :] < N
    else:
        # A ragged K: the mask also varies along the contiguous dimension.
        w_mask = (offs_k[:, None] < K) & (offs_n[None, :] < N)
    w = tl.load(w_ptrs, mask=w_mask, other=0.0, eviction_policy="evict_first")
    x = tl.load(x_ptr + offs_k, mask=offs_k < K, other=0.0, eviction_policy="evict_last")
    partial = tl.sum(w.to(tl.float32) * x.to(tl.float32)[:, None], axis=0)
    tl.atomic_add(y_ptr + offs_n, partial, mask=offs_n < N)


def launch(new, N: int = 4096, K: int = 4096, k_padded: int | None = None) -> Launch:
    """`k_padded`: the row stride of W when its rows are padded beyond K (a ragged K)."""
    row = k_padded or K
    w = new((N, row), "fp16")
    x = new((K,), "fp16")
    y = new((N,), "fp32", "zeros")
    BLOCK_K, BLOCK_N = 64, 256
    return Launch(
        args={"w_ptr": w, "x_ptr": x, "y_ptr": y, "N": N, "K": K, "stride_wn": w.stride(0),
              "BLOCK_K": BLOCK_K, "BLOCK_N": BLOCK_N, "EVEN_K": K % BLOCK_K == 0},
        grid=(triton.cdiv(N, BLOCK_N), triton.cdiv(K, BLOCK_K)),
        outputs=("y_ptr",),
        num_warps=4,
    )


def reference(args):
    K = args["K"]
    w, x = args["w_ptr"][:, :K], args["x_ptr"]
    return {"y_ptr": w.float() @ x.float()}


SAMPLE = Sample(
    name="gemv",
    description="fp16 GEMV, 64x256 tile (evict_first), reverse split-K with atomic adds",
    kernel=gemv_kernel,
    launch=launch,
    reference=reference,
    atol=5e-2,
    rtol=1e-2,
    interpreter_sizes={"N": 512, "K": 256},
    variants={
        "unaligned": Variant("w_ptr not specialized (an unaligned launch): no tt.divisibility on it",
                             no_specialize=("w_ptr",)),
        "kmask": Variant("a ragged K (4100 in rows padded to 4160): the tile mask varies along k",
                         sizes={"K": 4100, "k_padded": 4160}),
    },
)
