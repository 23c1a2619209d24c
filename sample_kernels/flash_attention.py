"""Flash-attention forward: softmax(Q K^T * scale) V computed block by block with an online softmax.

One program owns BLOCK_M query rows of one (batch, head); it walks over the keys BLOCK_N at a time,
keeping a running row max `m_i` and row sum `l_i` so that the full score matrix never exists.
"""

import triton
import triton.language as tl

from ._sample import Launch, Sample


@triton.jit
def attention_fwd_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr,
    stride_qz, stride_qh, stride_qm, stride_qk,
    stride_kz, stride_kh, stride_kn, stride_kk,
    stride_vz, stride_vh, stride_vn, stride_vk,
    stride_oz, stride_oh, stride_om, stride_ok,
    H, N_CTX,
    sm_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)

    q_ptr += off_z * stride_qz + off_h * stride_qh
    k_ptr += off_z * stride_kz + off_h * stride_kh
    v_ptr += off_z * stride_vz + off_h * stride_vh
    o_ptr += off_z * stride_oz + off_h * stride_oh
    q_ptrs = q_ptr + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk
    # K is read transposed: (HEAD_DIM, BLOCK_N) blocks.
    k_ptrs = k_ptr + offs_n[None, :] * stride_kn + offs_d[:, None] * stride_kk
    v_ptrs = v_ptr + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vk

    # exp2 instead of exp: fold log2(e) into the scale once.
    qk_scale = sm_scale * 1.44269504
    q = tl.load(q_ptrs, mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    for start_n in range(0, N_CTX, BLOCK_N):
        k = tl.load(k_ptrs + start_n * stride_kn, mask=(start_n + offs_n)[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where((start_n + offs_n)[None, :] < N_CTX, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.math.exp2(qk - m_new[:, None])
        # Rescale what was accumulated under the old maximum.
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptrs + start_n * stride_vn, mask=(start_n + offs_n)[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new

    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + offs_m[:, None] * stride_om + offs_d[None, :] * stride_ok
    tl.store(o_ptrs, acc.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < N_CTX)


def strides(tensor: str, dims: str, t) -> dict:
    """{"stride_qz": t.stride(0), "stride_qh": t.stride(1), ...} for tensor "q", dims "zhmk"."""
    return {f"stride_{tensor}{d}": t.stride(i) for i, d in enumerate(dims)}


def launch(new, Z: int = 4, H: int = 16, N_CTX: int = 1024, HEAD_DIM: int = 64) -> Launch:
    q = new((Z, H, N_CTX, HEAD_DIM), "fp16")
    k = new((Z, H, N_CTX, HEAD_DIM), "fp16")
    v = new((Z, H, N_CTX, HEAD_DIM), "fp16")
    o = new((Z, H, N_CTX, HEAD_DIM), "fp16", "empty")
    BLOCK_M = 128
    return Launch(
        args={"q_ptr": q, "k_ptr": k, "v_ptr": v, "o_ptr": o,
              **strides("q", "zhmk", q), **strides("k", "zhnk", k), **strides("v", "zhnk", v),
              **strides("o", "zhmk", o),
              "H": H, "N_CTX": N_CTX, "sm_scale": HEAD_DIM ** -0.5,
              "HEAD_DIM": HEAD_DIM, "BLOCK_M": BLOCK_M, "BLOCK_N": 64},
        grid=(triton.cdiv(N_CTX, BLOCK_M), Z * H),
        outputs=("o_ptr",),
        num_warps=4,
        num_stages=2,
    )


def reference(args):
    import torch

    q, k, v = (args[n].float() for n in ("q_ptr", "k_ptr", "v_ptr"))
    p = torch.softmax((q @ k.transpose(-1, -2)) * args["sm_scale"], dim=-1)
    return {"o_ptr": (p @ v).half()}


SAMPLE = Sample(
    name="flash_attention",
    description="flash-attention forward, online softmax, fp16",
    kernel=attention_fwd_kernel,
    launch=launch,
    reference=reference,
    atol=2e-2,
    rtol=2e-2,
    interpreter_sizes={"Z": 1, "H": 2, "N_CTX": 200, "HEAD_DIM": 32},
)
