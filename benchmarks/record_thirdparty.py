"""Record, on a GPU machine, Triton caches of hand-written kernels from libraries this project did not
write: Liger-Kernel (LLM training ops, forward and backward; its MLP uses host TMA descriptors and wgmma
on Hopper), flash-linear-attention (chunked linear attention, forward and backward, with its TMA path
switched on by FLA_USE_TMA=1) and torchao (packed-int4 mixed GEMM, blockwise fp8 quantization and GEMM,
int8 matmul; autotuned) and gemlite (low-bit GEMMs on packed 8/4/2/1.58-bit weights: GEMV, split-K and
rev-split-K GEMV, split-K and plain GEMM chosen by batch size, dynamic int8/fp8 activation quantization,
block-quantized fp8, MXFP weights; its "fast" autotuning) and mamba-ssm (Mamba-2's chunked state-space
scan forward and backward, the decode-time state update, gated RMSNorm, fused layer norm; Mamba-3's SISO
kernels with their inline-PTX approximations) and FlagGems (torch's aten ops re-implemented in Triton,
under `flag_gems.use_gems()`, with generated pointwise kernels written to OUT/flaggems-code; its fused
LLM and MoE ops) and flash-attn (its Triton layer norm, rotary and cross entropy; its Triton flash
attention for AMD, which refuses NVIDIA's compile options) and vLLM (its paged attention kernels with
bf16, fp8 and packed-int4 KV caches, decode and prefix-prefill attention, the sampler's and two models'
small ops) and bitsandbytes (its Triton backend's 4-bit NF4/FP4 and 8-bit blockwise quantization, the
4-bit GEMV's dequantization, 8-bit and 32-bit optimizer updates) and xformers with lightning-attn
(split-K decoding attention over bf16 and int4 K/V, RMSNorm, padded RoPE, tiled matmul, lightning
attention 2) and fbgemm-gpu-genai (fp8 row/block-scaled GEMMs with TMA, the grouped fp8 GEMM for MoE, MX4
packed-fp4 quantization, jagged flash attention) and lmdeploy (fused MoE, AWQ int4, w8a8, fp8 GEMMs, a Gluon
fp8 GEMM, paged decoding attention over int8/int4 KV) and flashinfer (persistent GEMMs with on-device TMA
descriptors, attention-state merging, norms) and cut-cross-entropy (the output layer's linear-cross-entropy
without logits) and torch's own FlexAttention templates (compiled by Inductor: block-sparse masks, score
mods, forward, backward and decoding) and megablocks with stanford-stk (MoE token gathers/scatters,
block-sparse matmuls) and unsloth (NF4 and packed-int4 dequantization and decode GEMVs, attention for
heads wider than 256, fp8 weights, the MoE grouped GEMM with TMA) and DeepSpeed (its Triton ops: MoE
grouped GEMM, SwiGLU, RMSNorm, RoPE, AutoEP token ops, an fp8 GEMM) and SGLang's standalone kernel files
(AWQ dequantization, sparse-MLA prefill, state merging, sampling, MoE gate top-k, MXFP8) and torch's own
block-sparse (BSR) kernels (`torch.sparse._triton_ops`: matmuls, int8, sampled addmm, softmax, attention with
a BSR mask, scatter-mm). Each library gets
its own cache,
OUT/<lib>/, and a log of what ran.

The machine is offline: carry the wheels (liger-kernel, flash-linear-attention, fla-core, torchao;
gemlite is an sdist: `pip wheel --no-deps` it here; flag_gems needs PyYAML and SQLAlchemy (with greenlet)
wheels too; mamba-ssm is an sdist that builds CUDA extensions: carry its `mamba_ssm/ops/triton` and
`mamba_ssm/utils` as released, with a top-level `__init__.py` that imports none of the extensions, on
PYTHONPATH; flash-attn likewise: its `flash_attn/ops/triton`, `utils`, `layers/rotary.py` and
`flash_attn_triton_amd`, with einops; vLLM: the `vllm` folder of its sdist, Python and JSON files, with
psutil and nvidia-ml-py; bitsandbytes: its `bitsandbytes/backends/triton` as released, with empty package
`__init__` files above it; xformers and lightning-attn: their wheels; fbgemm-gpu-genai: the Python files of
its Triton folders, with empty package `__init__` files above them; lmdeploy: its
`lmdeploy/pytorch/kernels/cuda` and `default` with empty package `__init__` files and stand-ins for
`lmdeploy/utils.py` and `lmdeploy/messages.py` (see `_ops_lmdeploy`); flashinfer: its `flashinfer/triton`
with an empty `__init__` and a `flashinfer/utils.py` stand-in; cut-cross-entropy: its wheel; megablocks
and stanford-stk: their sdists' `megablocks` (its `__init__` emptied) and `stk` folders; unsloth: its wheel's
`unsloth/kernels`, `device_type.py` and `bnb_availability.py` (see `_unsloth_packages`); DeepSpeed: its
sdist's `deepspeed/ops/triton_ops` and `deepspeed/ops/fp_quantizer/fp8_gemm_triton.py`; SGLang: the six
files of its wheel's `sglang/kernels/ops` that `_ops_sglang` loads) and install
them with --no-deps into a --target directory on PYTHONPATH before running

    python benchmarks/record_thirdparty.py OUT [lib ...]

Every op is run in its own try block: a library op that this Triton or torch rejects is logged and
skipped, never fatal. Kernels that autotune compile one cache entry per configuration tried."""

from __future__ import annotations

import os
import sys
import time
import traceback


def _ops_liger(torch):
    from liger_kernel.transformers import functional as F  # noqa: N812

    dev, bf = "cuda", torch.bfloat16

    def p(*shape, dtype=bf):
        return torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)

    def rms_norm():
        x, w = p(64, 2048), p(2048)
        F.liger_rms_norm(x, w, 1e-6, in_place=False).sum().backward()

    def layer_norm():
        x, w, b = p(64, 2048), p(2048), p(2048)
        F.liger_layer_norm(x, w, b, 1e-6).sum().backward()

    def swiglu():
        a, b = p(64, 4096), p(64, 4096)
        F.liger_swiglu(a, b).sum().backward()

    def geglu():
        a, b = p(64, 4096), p(64, 4096)
        F.liger_geglu(a, b).sum().backward()

    def cross_entropy():
        x = p(256, 32000, dtype=torch.float32)
        t = torch.randint(0, 32000, (256,), device=dev)
        F.liger_cross_entropy(x, t).backward()

    def fused_linear_cross_entropy():
        h, w = p(256, 1024), p(8192, 1024)
        t = torch.randint(0, 8192, (256,), device=dev)
        out = F.liger_fused_linear_cross_entropy(h, w, t)
        (out[0] if isinstance(out, tuple) else out).backward()

    def rope():
        q, k = p(2, 8, 128, 64), p(2, 4, 128, 64)
        cos, sin = torch.randn(1, 128, 64, device=dev, dtype=bf), torch.randn(1, 128, 64, device=dev, dtype=bf)
        qo, ko = F.liger_rope(q, k, cos, sin)
        (qo.sum() + ko.sum()).backward()

    def kl_div():
        x = torch.randn(128, 4096, device=dev).log_softmax(-1).requires_grad_()
        y = torch.randn(128, 4096, device=dev).log_softmax(-1)
        F.liger_kl_div(x, y, reduction="batchmean", log_target=True).backward()

    def jsd():
        x = torch.randn(128, 4096, device=dev).log_softmax(-1).requires_grad_()
        y = torch.randn(128, 4096, device=dev).log_softmax(-1)
        F.liger_jsd(x, y).backward()

    def group_norm():
        x, w, b = p(8, 64, 512, dtype=torch.float32), p(64, dtype=torch.float32), p(64, dtype=torch.float32)
        F.liger_group_norm(x, w, b, 64, 8, 1e-6).sum().backward()

    def softmax():
        F.liger_softmax(p(128, 4096)).sum().backward()

    def fused_add_rms_norm():
        x, r, w = p(64, 2048), p(64, 2048), p(2048)
        out = F.liger_fused_add_rms_norm(x, r, w, 1e-6, in_place=False)
        sum(o.sum() for o in out).backward()

    def mlp_tma_wgmma():
        from liger_kernel.ops.mlp import LigerMLPFunction

        x = p(2, 256, 1024)
        g, u, d = p(2816, 1024), p(2816, 1024), p(1024, 2816)
        LigerMLPFunction.apply(x, g, u, d).sum().backward()

    return [rms_norm, layer_norm, swiglu, geglu, cross_entropy, fused_linear_cross_entropy, rope, kl_div,
            jsd, group_norm, softmax, fused_add_rms_norm, mlp_tma_wgmma]


def _ops_fla(torch):
    dev, bf = "cuda", torch.bfloat16
    B, T, H, K, V = 2, 512, 4, 64, 64

    def p(*shape, dtype=bf):
        return torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)

    def unit(*shape):
        x = torch.nn.functional.normalize(torch.randn(*shape, device=dev, dtype=torch.float32), dim=-1)
        return x.to(bf).requires_grad_()

    def chunk_gla():
        from fla.ops.gla import chunk_gla

        g = torch.nn.functional.logsigmoid(torch.randn(B, T, H, K, device=dev)).requires_grad_()
        o, _ = chunk_gla(p(B, T, H, K), p(B, T, H, K), p(B, T, H, V), g)
        o.sum().backward()

    def chunk_simple_gla():
        from fla.ops.simple_gla import chunk_simple_gla

        g = torch.nn.functional.logsigmoid(torch.randn(B, T, H, device=dev)).requires_grad_()
        o, _ = chunk_simple_gla(p(B, T, H, K), p(B, T, H, K), p(B, T, H, V), g)
        o.sum().backward()

    def chunk_delta_rule():
        from fla.ops.delta_rule import chunk_delta_rule

        beta = torch.rand(B, T, H, device=dev, dtype=bf).requires_grad_()
        o, _ = chunk_delta_rule(p(B, T, H, K), unit(B, T, H, K), p(B, T, H, V), beta)
        o.sum().backward()

    def chunk_gated_delta_rule():
        from fla.ops.gated_delta_rule import chunk_gated_delta_rule

        beta = torch.rand(B, T, H, device=dev, dtype=bf).requires_grad_()
        g = torch.nn.functional.logsigmoid(torch.randn(B, T, H, device=dev)).requires_grad_()
        o, _ = chunk_gated_delta_rule(p(B, T, H, K), unit(B, T, H, K), p(B, T, H, V), g, beta)
        o.sum().backward()

    def fused_recurrent_gla():
        from fla.ops.gla import fused_recurrent_gla

        g = torch.nn.functional.logsigmoid(torch.randn(B, T, H, K, device=dev)).requires_grad_()
        o, _ = fused_recurrent_gla(p(B, T, H, K), p(B, T, H, K), p(B, T, H, V), g)
        o.sum().backward()

    def rms_norm_gated():
        from fla.modules import FusedRMSNormGated

        m = FusedRMSNormGated(V).to(dev)
        m(p(B, T, V), p(B, T, V)).sum().backward()

    def layernorm():
        from fla.modules import RMSNorm

        m = RMSNorm(1024).to(dev)
        m(p(B, T, 1024)).sum().backward()

    return [chunk_gla, chunk_simple_gla, chunk_delta_rule, chunk_gated_delta_rule, fused_recurrent_gla,
            rms_norm_gated, layernorm]


def _ops_torchao(torch):
    dev = "cuda"

    def hqq_mixed_mm():
        from torchao.prototype.hqq.mixed_mm import pack_2xint4, triton_mixed_mm

        M, N, K, group = 16, 1024, 1024, 128
        a = torch.randn(M, K, device=dev, dtype=torch.float16)
        w = torch.randint(0, 16, (K, N), device=dev, dtype=torch.uint8)
        scales = torch.rand(K // group, N, device=dev, dtype=torch.float16)
        zeros = torch.rand(K // group, N, device=dev, dtype=torch.float16)
        triton_mixed_mm(a, pack_2xint4(w), scales, zeros, group_size=group, kernel_type="compute_bound")
        triton_mixed_mm(a, pack_2xint4(w.T.contiguous()), scales.T.contiguous(), zeros.T.contiguous(),
                        group_size=group, transposed=True, kernel_type="compute_bound")

    def blockwise_fp8():
        from torchao.kernel.blockwise_quantization import (
            blockwise_fp8_gemm,
            fp8_blockwise_act_quant,
            fp8_blockwise_weight_dequant,
            fp8_blockwise_weight_quant,
        )

        a = torch.randn(256, 512, device=dev, dtype=torch.bfloat16)
        w = torch.randn(512, 512, device=dev, dtype=torch.bfloat16)
        aq, a_s = fp8_blockwise_act_quant(a)
        wq, w_s = fp8_blockwise_weight_quant(w)
        fp8_blockwise_weight_dequant(wq, w_s)
        blockwise_fp8_gemm(aq, a_s, wq, w_s)

    def int8_mm():
        from torchao.kernel.intmm_triton import int_matmul_cuda, int_scaled_matmul_cuda

        a = torch.randint(-128, 127, (64, 512), device=dev, dtype=torch.int8)
        b = torch.randint(-128, 127, (512, 256), device=dev, dtype=torch.int8)
        int_matmul_cuda(a, b)
        int_scaled_matmul_cuda(a, b, torch.rand(64, 1, device=dev))

    return [hqq_mixed_mm, blockwise_fp8, int8_mm]


def _ops_gemlite(torch):
    from gemlite import helper

    dev, fp16 = "cuda", torch.float16
    N, K = 2048, 4096
    batch_sizes = (1, 8, 64, 512)  # GEMV (rev-split-K), GEMV split-K, GEMM split-K, GEMM

    def linear():
        return torch.nn.Linear(K, N, bias=False, device=dev, dtype=fp16)

    def run(layer):
        for m in batch_sizes:
            layer(torch.randn(m, K, device=dev, dtype=fp16))

    def hqq(nbits, group):
        w_q = torch.randint(0, 2**nbits, (N, K), device=dev, dtype=torch.uint8)
        scales = torch.rand(N, K // group, device=dev, dtype=fp16) * 0.01
        zeros = torch.full((N, K // group), 2 ** (nbits - 1), device=dev, dtype=fp16)
        return w_q, scales, zeros

    def a16w8_int8():
        run(helper.A16W8_INT8(device=dev, dtype=fp16).from_linear(linear()))

    def a16w8_fp8():
        run(helper.A16W8_FP8(device=dev, dtype=fp16).from_linear(linear()))

    def a16w4_hqq_int():  # 4-bit weights packed 8 to a 32-bit word, grouped scales and zeros
        run(helper.A16W4_HQQ_INT(device=dev, dtype=fp16).from_weights(*hqq(4, 64)))

    def a16w2_hqq_int():
        run(helper.A16W2_HQQ_INT(device=dev, dtype=fp16).from_weights(*hqq(2, 128)))

    def a16w158_int():  # ternary weights
        w = torch.randint(-1, 2, (N, K), device=dev).to(fp16)
        run(helper.A16W158_INT(device=dev, dtype=fp16).from_weights(w, torch.tensor(0.02)))

    def a8w8_int8_dynamic():
        run(helper.A8W8_INT8_dynamic(device=dev, dtype=fp16).from_linear(linear()))

    def a8w8_fp8_dynamic():
        run(helper.A8W8_FP8_dynamic(device=dev, dtype=fp16).from_linear(linear()))

    def a8w8_fp8_block_quant():
        run(helper.A8W8_FP8_dynamic(device=dev, dtype=fp16, block_quant=True).from_linear(linear()))

    def a8w4_hqq_int_dynamic():
        run(helper.A8W4_HQQ_INT_dynamic(device=dev, dtype=fp16).from_weights(*hqq(4, 64)))

    def a16w4_mxfp():
        run(helper.A16W4_MXFP(device=dev, dtype=fp16).from_linear(linear()))

    return [a16w8_int8, a16w8_fp8, a16w4_hqq_int, a16w2_hqq_int, a16w158_int, a8w8_int8_dynamic,
            a8w8_fp8_dynamic, a8w8_fp8_block_quant, a8w4_hqq_int_dynamic, a16w4_mxfp]


def _ops_mamba(torch):
    dev, bf, f32 = "cuda", torch.bfloat16, torch.float32
    B, L, H, P, G, N = 2, 512, 8, 64, 1, 64
    softplus = torch.nn.functional.softplus

    def p(*shape, dtype=bf):
        return torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)

    def ssd_chunk_scan_combined():
        from mamba_ssm.ops.triton.ssd_combined import mamba_chunk_scan_combined

        dt = softplus(torch.randn(B, L, H, device=dev) - 4).requires_grad_()
        a = (-torch.rand(H, device=dev)).requires_grad_()
        y = mamba_chunk_scan_combined(p(B, L, H, P), dt, a, p(B, L, G, N), p(B, L, G, N), chunk_size=64,
                                      D=p(H, dtype=f32), z=p(B, L, H, P))
        y.sum().backward()

    def selective_state_update():
        from mamba_ssm.ops.triton.selective_state_update import selective_state_update

        def t(*shape, dtype=bf):
            return torch.randn(*shape, device=dev, dtype=dtype)

        selective_state_update(t(B, H, P, N), t(B, H, P), t(B, H, P), -torch.rand(H, P, N, device=dev),
                               t(B, G, N), t(B, G, N), D=t(H, P, dtype=f32), z=t(B, H, P),
                               dt_bias=t(H, P, dtype=f32), dt_softplus=True)

    def gated_rmsnorm():
        from mamba_ssm.ops.triton.layernorm_gated import rmsnorm_fn

        rmsnorm_fn(p(B * L, 1024), p(1024), None, z=p(B * L, 1024), group_size=256).sum().backward()

    def layer_norm():
        from mamba_ssm.ops.triton.layer_norm import layer_norm_fn, rms_norm_fn

        layer_norm_fn(p(B * L, 1024), p(1024), p(1024), residual=p(B * L, 1024)).sum().backward()
        rms_norm_fn(p(B * L, 1024), p(1024), None).sum().backward()

    def mamba3_siso():
        from mamba_ssm.ops.triton.mamba3.mamba3_siso_combined import mamba3_siso_combined

        hq = 4
        dt = softplus(torch.randn(B, H, L, device=dev) - 4)
        adt = (-torch.rand(B, H, L, device=dev) * dt).requires_grad_()
        y = mamba3_siso_combined(p(B, L, hq, N), p(B, L, hq, N), p(B, L, H, P), adt, dt.requires_grad_(),
                                 torch.rand(B, H, L, device=dev, dtype=bf).requires_grad_(),
                                 p(H, N, dtype=f32), p(H, N, dtype=f32), p(B, L, H, 16, dtype=f32),
                                 D=p(H, dtype=f32), Z=p(B, L, H, P))
        (y[0] if isinstance(y, tuple) else y).sum().backward()

    return [ssd_chunk_scan_combined, selective_state_update, gated_rmsnorm, layer_norm, mamba3_siso]


def _ops_flaggems(torch):
    """FlagGems: torch's aten ops re-implemented in Triton (registered with `use_gems`), its fused LLM ops
    called directly. Its pointwise ops are generated source files (written under FLAGGEMS_CACHE_DIR, set
    by `record` to OUT/flaggems-code); its mm on Hopper takes host or device TMA descriptors."""
    import flag_gems
    import torch.nn.functional as F  # noqa: N812

    dev, bf, f32 = "cuda", torch.bfloat16, torch.float32

    def p(*shape, dtype=bf, grad=True):
        return torch.randn(*shape, device=dev, dtype=dtype, requires_grad=grad)

    def gems(fn):
        def op():
            with flag_gems.use_gems():
                fn()
        op.__name__ = fn.__name__
        return op

    @gems
    def pointwise():  # generated kernels (pointwise_dynamic), broadcasting, type promotion
        a, b = p(64, 1024, grad=False), p(1024, grad=False)
        ((a + b) * b).sigmoid_()
        torch.where(a > 0, a, b).abs().clamp(-1, 1).pow(2).exp()
        (a.float() / 3).to(bf)

    @gems
    def activations():
        x = p(128, 4096)
        (F.gelu(x, approximate="tanh") + F.silu(x) + torch.tanh(x)).sum().backward()

    @gems
    def reductions():
        x = p(256, 4096, grad=False)
        x.sum(-1), x.mean(0), x.amax(-1), x.argmax(-1), torch.var_mean(x.float(), -1)
        torch.linalg.vector_norm(x.float(), dim=-1), x.float().cumsum(-1), x.float().prod(-1)

    @gems
    def softmax():
        x = p(512, 2048)
        (torch.softmax(x, -1).sum() + torch.log_softmax(x.float(), -1).sum()).backward()

    @gems
    def norms():
        x, w, b = p(128, 2048), p(2048), p(2048)
        F.layer_norm(x, (2048,), w, b).sum().backward()
        F.rms_norm(x, (2048,), w).sum().backward()
        y = p(8, 64, 32, 32, dtype=f32)
        F.group_norm(y, 8, p(64, dtype=f32), p(64, dtype=f32)).sum().backward()

    @gems
    def matmuls():  # bf16 mm on Hopper: host-TMA descriptors (its tensor_descriptor path)
        a, b = p(1024, 2048, grad=False), p(2048, 1024, grad=False)
        a @ b, torch.addmm(p(1024, grad=False), a, b), torch.bmm(p(8, 256, 512, grad=False), p(8, 512, 128, grad=False))
        torch.mv(a, p(2048, grad=False))

    @gems
    def attention():
        q, k, v = p(2, 8, 1024, 64), p(2, 8, 1024, 64), p(2, 8, 1024, 64)
        F.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()

    @gems
    def indexing():
        x = p(4096, 256, grad=False)
        idx = torch.randint(0, 4096, (1024,), device=dev)
        x.index_select(0, idx), torch.gather(x, 0, idx[:, None].expand(-1, 256))
        torch.zeros_like(x).scatter_(0, idx[:, None].expand(-1, 256), x[:1024])
        x.masked_fill(x > 0, 0.0), torch.nonzero(x[:64] > 1)
        emb = p(32000, 512)
        F.embedding(torch.randint(0, 32000, (2048,), device=dev), emb).sum().backward()

    @gems
    def sort_topk():
        x = p(64, 4096, dtype=f32, grad=False)
        torch.topk(x, 8, -1), torch.sort(x, -1), torch.unique(torch.randint(0, 100, (10000,), device=dev))

    @gems
    def cross_entropy():
        x = p(256, 32000, dtype=f32)
        F.cross_entropy(x, torch.randint(0, 32000, (256,), device=dev)).backward()

    @gems
    def shapes():
        x = p(64, 512, grad=False)
        torch.cat([x, x], 0), torch.stack([x, x]), F.pad(x, (1, 2)), x.repeat(2, 3), x.flip(0), x.tril()

    @gems
    def conv2d():
        F.conv2d(p(4, 32, 56, 56, grad=False), p(64, 32, 3, 3, grad=False), padding=1)

    @gems
    def random():
        F.dropout(p(1024, 1024, grad=False), 0.1, training=True), torch.rand(4096, device=dev)

    def fused_llm():  # vLLM-style ops, called directly
        from flag_gems.fused import apply_rotary_pos_emb, fused_add_rms_norm, silu_and_mul, topk_softmax
        x, r = p(128, 4096, grad=False), p(128, 4096, grad=False)
        fused_add_rms_norm(x, r, (4096,), p(4096, grad=False))
        silu_and_mul(p(128, 4096, grad=False), p(128, 4096, grad=False))
        q, k = p(256, 32, 128, grad=False), p(256, 8, 128, grad=False)
        cos, sin = p(4096, 64, grad=False), p(4096, 64, grad=False)
        apply_rotary_pos_emb(q, k, cos, sin, torch.arange(256, device=dev))
        g = p(256, 64, dtype=f32, grad=False)
        w = torch.empty(256, 2, device=dev, dtype=f32)
        ids = torch.empty(256, 2, device=dev, dtype=torch.int32)
        topk_softmax(w, ids, torch.empty_like(ids), g, True)

    def fused_moe():  # routed experts: moe_align_block_size + the fused MoE GEMM (gathered rows)
        from flag_gems.fused import fused_experts_impl
        E, M, K, N, topk = 8, 256, 1024, 2048, 2
        w, ids = torch.softmax(p(M, E, dtype=f32, grad=False), -1).topk(topk)
        fused_experts_impl(p(M, K, grad=False), p(E, 2 * N, K, grad=False) / 32, p(E, K, N, grad=False) / 32,
                           w, ids.to(torch.int32))

    return [pointwise, activations, reductions, softmax, norms, matmuls, attention, indexing, sort_topk,
            cross_entropy, shapes, conv2d, random, fused_llm, fused_moe]


def _ops_flashattn(torch):
    """flash-attn 2.8.3.post2's Triton kernels (Tri Dao's): the fused layer norm / RMSNorm (residual,
    dropout, prenorm, forward and backward), rotary embedding, the cross-entropy loss, and the Triton
    flash-attention written for AMD (flash_attn_triton_amd: prefill forward and backward), run here on
    NVIDIA. Carried as released (its `flash_attn/ops/triton`, `utils`, `layers/rotary.py`,
    `flash_attn_triton_amd`) with a top-level `__init__` that imports no CUDA extension, and einops."""
    from flash_attn.layers.rotary import apply_rotary_emb
    from flash_attn.ops.triton.cross_entropy import cross_entropy_loss
    from flash_attn.ops.triton.layer_norm import layer_norm_fn, rms_norm_fn

    dev, bf, f32 = "cuda", torch.bfloat16, torch.float32

    def p(*shape, dtype=bf):
        return torch.randn(*shape, device=dev, dtype=dtype, requires_grad=True)

    def layer_norm():
        x, r, w, b = p(512, 2048), p(512, 2048), p(2048), p(2048)
        out = layer_norm_fn(x, w, b, residual=r, dropout_p=0.1, prenorm=True, eps=1e-5)
        (out[0] if isinstance(out, tuple) else out).sum().backward()

    def rms_norm():
        x, w = p(512, 4096), p(4096)
        rms_norm_fn(x, w, None, eps=1e-6).sum().backward()

    def rotary():
        x = p(2, 512, 16, 128)
        cos, sin = torch.randn(512, 64, device=dev, dtype=bf), torch.randn(512, 64, device=dev, dtype=bf)
        apply_rotary_emb(x, cos, sin).sum().backward()
        apply_rotary_emb(x, cos, sin, interleaved=True).sum().backward()

    def cross_entropy():
        logits = p(1024, 32000, dtype=f32)
        loss = cross_entropy_loss(logits, torch.randint(0, 32000, (1024,), device=dev), label_smoothing=0.1)
        (loss[0] if isinstance(loss, tuple) else loss).sum().backward()

    def amd_flash_attention():  # the Triton flash attention written for AMD GPUs, forward and backward
        from flash_attn.flash_attn_triton_amd import interface_fa as fa

        q, k, v = (torch.randn(2, 1024, 8, 64, device=dev, dtype=torch.float16) for _ in range(3))
        out, lse, _, _ = fa.fwd(q, k, v, None, None, 0.0, 0.125, True, -1, -1, 0.0, False)
        fa.bwd(torch.randn_like(out), q, k, v, out, lse, torch.empty_like(q), torch.empty_like(k),
               torch.empty_like(v), None, 0.0, 0.125, True, -1, -1, 0.0, False)

    return [layer_norm, rms_norm, rotary, cross_entropy, amd_flash_attention]


def _ops_vllm(torch):
    """vLLM 0.33.0's Triton kernels, from its source distribution as released (its `vllm` package, Python
    and JSON files only, with psutil; the modules below import neither vLLM's CUDA extension nor its
    engine): the unified paged attention (2-D prefill/decode and the 3-D split-softmax decode with its
    segment reduction; bf16, fp8 per-tensor and packed-int4 per-token-head KV caches), the paged decode
    attention (one head per program and grouped heads), prefix prefill over a paged cache (with ALiBi), the
    plain prefill attention, merging partial attention states, the sampler's temperature and min-p, and
    two models' RMSNorm / SiLU-and-mul / QK-norm+RoPE ops."""
    from vllm.v1.attention.ops import prefix_prefill, triton_prefill_attention
    from vllm.v1.attention.ops.triton_decode_attention import decode_attention_fwd
    from vllm.v1.attention.ops.triton_merge_attn_states import merge_attn_states
    from vllm.v1.attention.ops.triton_unified_attention import unified_attention
    from vllm.v1.kv_cache_interface import KVQuantMode

    dev, bf, f32, i32 = "cuda", torch.bfloat16, torch.float32, torch.int32

    def paged(q_lens, kv_lens, hq, hkv, d, block=16, blocks=512, dtype=bf, quant=KVQuantMode.NONE, td=1):
        n = len(q_lens)
        q = torch.randn(sum(q_lens), hq, d, device=dev, dtype=bf)
        kd = d // 2 if quant == KVQuantMode.INT4_PER_TOKEN_HEAD else d
        cache_dtype = torch.uint8 if quant == KVQuantMode.INT4_PER_TOKEN_HEAD else dtype
        if cache_dtype.is_floating_point:
            k = torch.randn(blocks, block, hkv, kd, device=dev).to(cache_dtype)
        else:
            k = torch.randint(0, 256, (blocks, block, hkv, kd), device=dev, dtype=cache_dtype)
        v = k.clone()
        cu = torch.tensor([0] + q_lens, device=dev, dtype=i32).cumsum(0, dtype=i32)
        seqused = torch.tensor(kv_lens, device=dev, dtype=i32)
        table = torch.randint(0, blocks, (n, (max(kv_lens) + block - 1) // block), device=dev, dtype=i32)
        segs = 16
        rows = 8 * max(q_lens)
        scratch = dict(seq_threshold_3D=8, num_par_softmax_segments=segs,
                       softmax_segm_output=torch.empty(rows, hq, segs, d, device=dev, dtype=f32),
                       softmax_segm_max=torch.empty(rows, hq, segs, device=dev, dtype=f32),
                       softmax_segm_expsum=torch.empty(rows, hq, segs, device=dev, dtype=f32))
        extra = {}
        if quant == KVQuantMode.FP8_PER_TENSOR:
            extra = dict(q_descale=torch.tensor(0.75, device=dev), k_descale=torch.full((n, hkv), 0.5, device=dev),
                         v_descale=torch.full((n, hkv), 0.25, device=dev))
        elif quant != KVQuantMode.NONE:
            extra = dict(k_scale_cache=torch.rand(blocks, block, hkv, device=dev, dtype=f32),
                         v_scale_cache=torch.rand(blocks, block, hkv, device=dev, dtype=f32))
        unified_attention(q=q if quant != KVQuantMode.FP8_PER_TENSOR else q.to(dtype), k=k, v=v,
                          out=torch.empty_like(q), cu_seqlens_q=cu, seqused_k=seqused,
                          max_seqlen_q=max(q_lens), max_seqlen_k=max(kv_lens), softmax_scale=d ** -0.5,
                          causal=True, window_size=(-1, -1), block_table=table, softcap=0,
                          q_descale=extra.pop("q_descale", None), k_descale=extra.pop("k_descale", None),
                          v_descale=extra.pop("v_descale", None), kv_quant_mode=quant, **scratch, **extra)

    def unified_attention_prefill():  # 2-D: query lengths beyond the 3-D decode threshold, GQA 8:2
        paged([40, 100, 7], [200, 300, 77], 8, 2, 128)

    def unified_attention_decode():  # 3-D split softmax over segments, then reduce_segments
        paged([1, 1, 1, 1], [700, 1500, 33, 260], 32, 8, 128)

    def unified_attention_fp8_kv():
        paged([1, 1], [900, 400], 16, 4, 128, dtype=torch.float8_e4m3fn, quant=KVQuantMode.FP8_PER_TENSOR)
        paged([24, 50], [900, 400], 16, 4, 128, dtype=torch.float8_e4m3fn, quant=KVQuantMode.FP8_PER_TENSOR)

    def unified_attention_int4_kv():  # two 4-bit values packed per byte, per-token-head scales
        paged([1, 1], [900, 400], 16, 4, 128, quant=KVQuantMode.INT4_PER_TOKEN_HEAD)
        paged([24, 50], [900, 400], 16, 4, 128, quant=KVQuantMode.INT4_PER_TOKEN_HEAD)

    def decode_attention():  # normal (MHA) and grouped (GQA), flat and paged token tables
        for hq, hkv, page in ((32, 32, 1), (32, 8, 16)):
            b, length, size, d = 3, 1025, 16384, 128
            pages = (length + page - 1) // page
            req = torch.randint(0, size // page, (b, pages), device=dev)
            q = torch.randn(b, hq, d, device=dev, dtype=bf)
            kb = torch.randn(size // page, page, hkv, d, device=dev, dtype=bf)
            vb = torch.randn_like(kb)
            o, lse = torch.zeros(b, hq, d, device=dev, dtype=bf), torch.zeros(b, hq, device=dev, dtype=bf)
            logits = torch.empty(b, hq, 8, d + 1, device=dev, dtype=f32)
            decode_attention_fwd(q, kb, vb, o, lse, req, torch.full((b,), length, device=dev), logits, 8,
                                 d ** -0.5, page)

    def prefix_prefill_attention():  # paged context (K in an x-packed layout) plus new tokens; with ALiBi
        heads, kv_heads, d, block, size = 16, 4, 128, 32, 640
        q_lens, ctx_lens = [64, 200, 1], [100, 500, 37]
        n = len(q_lens)
        q = torch.randn(sum(q_lens), heads, d, device=dev, dtype=bf)
        k = torch.randn(sum(q_lens), kv_heads, d, device=dev, dtype=bf)
        v = torch.randn_like(k)
        k_cache = torch.randn(size, kv_heads, d // 8, block, 8, device=dev, dtype=bf)
        v_cache = torch.randn(size, kv_heads, d, block, device=dev, dtype=bf)
        table = torch.randperm(size, device=dev, dtype=i32)[:n * 64].view(n, 64)
        start = torch.tensor([0] + q_lens, device=dev).cumsum(0).to(i32)
        seq = torch.tensor([a + b for a, b in zip(q_lens, ctx_lens, strict=True)], device=dev, dtype=i32)
        one = torch.tensor(1.0, device=dev, dtype=f32)
        for alibi in (None, torch.rand(heads, device=dev, dtype=f32)):
            prefix_prefill.context_attention_fwd(q, k, v, torch.empty_like(q), "auto", k_cache, v_cache, table,
                                                 start, seq, 1024, 256, one, one, alibi_slopes=alibi,
                                                 sliding_window=0)

    def prefill_attention():
        q_lens = [100, 37, 256]
        q = torch.randn(sum(q_lens), 16, 128, device=dev, dtype=bf)
        k, v = torch.randn_like(q), torch.randn_like(q)
        triton_prefill_attention.context_attention_fwd(
            q, k, v, torch.empty_like(q), torch.tensor([0] + q_lens[:-1], device=dev).cumsum(0).to(i32),
            torch.tensor(q_lens, device=dev, dtype=i32), max(q_lens))

    def merge_states():
        t, h, d = 300, 16, 128
        merge_attn_states(torch.empty(t, h, d, device=dev, dtype=bf), torch.randn(t, h, d, device=dev, dtype=bf),
                          torch.randn(h, t, device=dev, dtype=f32), torch.randn(t, h, d, device=dev, dtype=bf),
                          torch.randn(h, t, device=dev, dtype=f32), torch.empty(h, t, device=dev, dtype=f32))

    def sampler():
        from vllm.v1.worker.gpu.sample.gumbel import apply_temperature
        from vllm.v1.worker.gpu.sample.min_p import apply_min_p

        logits = torch.randn(8, 151936, device=dev, dtype=f32)
        mapping = torch.arange(8, device=dev, dtype=i32)
        apply_temperature(logits, mapping, torch.rand(8, device=dev, dtype=f32) + 0.5)
        apply_min_p(logits, mapping, torch.rand(8, device=dev, dtype=f32) * 0.1)

    def model_ops():
        from vllm.models.flint.ops import norm

        x, r, w = (torch.randn(64, 4096, device=dev, dtype=bf) for _ in range(3))
        norm.rms_norm(x, w[0], 1e-6)
        norm.fused_add_rms_norm(x.clone(), r.clone(), w[0], 1e-6)
        norm.silu_and_mul(torch.randn(64, 2 * 4096, device=dev, dtype=bf))

    def turboquant():  # Hadamard-rotated Lloyd-Max codes, K and V packed per slot: store, then decode attention
        import math

        import vllm
        from vllm.v1.attention.ops.triton_turboquant_decode import triton_turboquant_decode_attention
        from vllm.v1.attention.ops.triton_turboquant_store import triton_turboquant_store

        def load(name):  # its config and centroids modules import no more than torch; the package does
            return _load_file("turboquant_" + name, os.path.join(
                os.path.dirname(vllm.__file__), "model_executor", "layers", "quantization", "turboquant", name + ".py"))

        config, centroids_mod = load("config"), load("centroids")
        d, hk, hq, block, blocks, b, length = 128, 4, 16, 16, 64, 4, 300
        h = torch.ones(1, 1)
        while h.shape[0] < d:
            h = torch.cat([torch.cat([h, h], 1), torch.cat([h, -h], 1)], 0)
        h = (h / math.sqrt(d)).to(dev)
        for preset in ("turboquant_k8v4", "turboquant_4bit_nc"):
            cfg = config.TurboQuantConfig.from_cache_dtype(preset, head_dim=d)
            centroids, _ = centroids_mod.solve_lloyd_max(d, cfg.centroid_bits)
            centroids = centroids.float().to(dev)
            ordered, _ = centroids.sort()
            kv = torch.zeros(blocks, block, hk, cfg.slot_size_aligned, device=dev, dtype=torch.uint8)
            key = torch.randn(256, hk, d, device=dev, dtype=torch.float16)
            slots = torch.randperm(blocks * block, device=dev)[:256].to(i32)
            triton_turboquant_store(key, torch.randn_like(key), kv, slots, h, (ordered[:-1] + ordered[1:]) / 2,
                                    mse_bits=cfg.key_mse_bits, key_packed_size=cfg.key_packed_size,
                                    value_quant_bits=cfg.effective_value_quant_bits, key_fp8=cfg.key_fp8)
            per_seq = (length + block - 1) // block
            triton_turboquant_decode_attention(
                query=torch.randn(b, hq, d, device=dev, dtype=torch.float16), kv_cache=kv,
                block_table=torch.randint(0, blocks, (b, per_seq), device=dev, dtype=i32),
                seq_lens=torch.full((b,), length, device=dev, dtype=i32), Pi=h, centroids=centroids,
                scale=d ** -0.5, mse_bits=cfg.key_mse_bits, key_packed_size=cfg.key_packed_size,
                value_quant_bits=cfg.effective_value_quant_bits, key_fp8=cfg.key_fp8,
                norm_correction=cfg.norm_correction, PiT=h, max_num_kv_splits=4)

    return [unified_attention_prefill, unified_attention_decode, unified_attention_fp8_kv, unified_attention_int4_kv,
            decode_attention, prefix_prefill_attention, prefill_attention, merge_states, sampler, model_ops,
            turboquant]


def _ops_bitsandbytes(torch):
    """bitsandbytes 0.50.2's Triton backend (`bitsandbytes/backends/triton`, carried as released with empty
    `bitsandbytes/__init__.py` and `bitsandbytes/backends/__init__.py`: the package's own imports load its
    CUDA library, which these kernels never call): NF4 and FP4 4-bit blockwise quantization and
    dequantization (two codes packed per byte), the 4-bit GEMV's dequantization through a code table,
    8-bit blockwise quantization, and the 8-bit blockwise and 32-bit Adam / Lion updates."""
    from bitsandbytes.backends.triton import ops

    dev, bf, f32 = "cuda", torch.bfloat16, torch.float32
    code = torch.linspace(-1, 1, 256, device=dev, dtype=f32)

    def four_bit():
        a = torch.randn(1024, 4096, device=dev, dtype=bf)
        for kind in ("nf4", "fp4"):
            packed, absmax = ops.quantize_4bit(a, 64, kind, torch.uint8)
            ops.dequantize_4bit(packed, absmax, 64, kind, a.shape, bf)

    def gemv_4bit():
        w = torch.randn(4096, 4096, device=dev, dtype=bf)
        packed, absmax = ops.quantize_4bit(w, 64, "nf4", torch.uint8)
        x = torch.randn(1, 4096, device=dev, dtype=bf)
        ops.gemv_4bit(x, packed, w.shape, absmax, torch.linspace(-1, 1, 16, device=dev, dtype=f32), 64)

    def eight_bit():
        a = torch.randn(1 << 20, device=dev, dtype=f32)
        q, absmax = ops.quantize_blockwise(a, code, 256)
        ops.dequantize_blockwise(q, absmax, code, 256, f32)

    def optimizers():
        n = 1 << 20
        for name in ("adam", "lion"):
            g, p = torch.randn(n, device=dev, dtype=bf), torch.randn(n, device=dev, dtype=bf)
            s1, s2 = (torch.randint(0, 256, (n,), device=dev, dtype=torch.uint8) for _ in range(2))
            a1, a2 = (torch.rand(n // 256, device=dev, dtype=f32) for _ in range(2))
            ops.optimizer_update_8bit_blockwise(name, g, p, s1, s2 if name == "adam" else None, 0.9, 0.999,
                                                0.0, 0.0, 1e-8, 10, 1e-3, code, code if name == "adam" else None,
                                                a1, a2 if name == "adam" else None)
            f1, f2 = torch.zeros(n, device=dev, dtype=f32), torch.zeros(n, device=dev, dtype=f32)
            ops.optimizer_update_32bit(name, g, p, f1, f2 if name == "adam" else None, None, 0.0, 0.0, 0.9,
                                       0.999, 0.0, 0.0, 1e-8, 0.0, 10, 1e-3, 1.0)

    return [four_bit, gemv_4bit, eight_bit, optimizers]


def _ops_xformers(torch):
    """xformers 0.0.35's Triton kernels (its wheel; the CUDA extension is not needed for them) and
    lightning-attn 0.0.5: the split-K decoding attention (`fmha.triton_splitk`, autotuned) over bf16 and
    row-wise int4-quantized K/V (two codes a byte, fp16 scale and shift at the row's head), RMSNorm with and
    without the residual add, RoPE with KV-cache emplacement for a padded batch, the tiled matmul, the
    index-select-cat; lightning attention 2 (linear attention with decay) forward and backward."""
    import xformers.ops as xops
    from xformers.ops import fmha

    dev, bf, f16 = "cuda", torch.bfloat16, torch.float16

    def quantize_int4(x):  # as xformers' own decoding benchmark quantizes K/V (row-wise, one group)
        top, bottom = x.max(-1, keepdim=True).values, x.min(-1, keepdim=True).values
        scale, shift = ((top - bottom) / 15).to(f16), bottom.to(f16)
        codes = (((x - shift) / scale) + 0.5).to(torch.uint8) & 0xF
        packed = codes[..., ::2] + (codes[..., 1::2] << 4)
        head = torch.concat([scale.view(torch.uint8), shift.view(torch.uint8)], dim=-1)
        return torch.concat([head, packed], dim=-1).view(torch.int16)

    def splitk(q, k, v):  # the op itself: the dispatcher refuses it in a wheel built without CUDA kernels
        fmha.triton_splitk.FwOp.apply(fmha.Inputs(query=q, key=k, value=v), needs_gradient=False)

    def splitk_decoding():
        b, mkv, hkv, g, k = 4, 4096, 2, 8, 128
        q = torch.randn(b, 1, hkv, g, k, device=dev, dtype=bf)
        kv = [torch.randn(b, mkv, hkv, 1, k, device=dev, dtype=bf).expand(-1, -1, -1, g, -1) for _ in range(2)]
        splitk(q, kv[0], kv[1])

    def splitk_decoding_int4_kv():
        b, mkv, hkv, g, k = 4, 4096, 2, 8, 128
        q = torch.randn(b, 1, hkv, g, k, device=dev, dtype=f16)
        kv = [quantize_int4(torch.randn(b, mkv, hkv, 1, k, device=dev, dtype=f16)).contiguous().view(torch.int32)
              .expand(-1, -1, -1, g, -1) for _ in range(2)]
        splitk(q, kv[0], kv[1])

    def rms_norm():
        from xformers.ops.rmsnorm import rms_norm, rms_norm_add

        x, w = torch.randn(256, 4096, device=dev, dtype=bf), torch.randn(4096, device=dev, dtype=bf)
        rms_norm(x, w)
        rms_norm_add(x.clone(), torch.randn_like(x), w)

    def rope_padded():
        from xformers.ops.fmha.attn_bias import BlockDiagonalCausalWithOffsetPaddedKeysMask
        from xformers.ops.rope_padded import rope_padded

        q_lens, kv_lens, padding, hq, hkv, d = [3, 1, 5], [100, 37, 200], 256, 16, 2, 128
        bias = BlockDiagonalCausalWithOffsetPaddedKeysMask.from_seqlens(q_seqlen=q_lens, kv_padding=padding,
                                                                         kv_seqlen=kv_lens, device=dev)
        n = sum(q_lens)
        xq = torch.randn(1, n, hq, d, device=dev, dtype=bf)
        xk, xv = (torch.randn(1, n, hkv, d, device=dev, dtype=bf) for _ in range(2))
        cache_k, cache_v = (torch.zeros(1, padding * len(q_lens), hkv, d, device=dev, dtype=bf) for _ in range(2))
        rope_padded(xq, xk, xv, cache_k, cache_v, bias)

    def tiled_matmul():
        from xformers.ops.tiled_matmul import tiled_matmul

        a = [[torch.randn(m, k, device=dev, dtype=bf) for k in (256, 512)] for m in (128, 384)]
        bm = [[torch.randn(k, n, device=dev, dtype=bf) for n in (256, 128)] for k in (256, 512)]
        tiled_matmul(a, bm)

    def index_select_cat():
        from xformers.ops import _triton as xt

        source, index = torch.randn(1000, 64, device=dev, dtype=bf), torch.randint(0, 1000, (300,), device=dev)
        xt.index_select_cat_fwd(torch.empty(300, 64, device=dev, dtype=bf), source, index)

    def lightning_attention():
        from lightning_attn.ops import lightning_attn_func

        q, k, v = (torch.randn(2, 8, 1024, 64, device=dev, dtype=bf, requires_grad=True) for _ in range(3))
        s = torch.rand(8, 1, 1, device=dev, dtype=torch.float32)
        lightning_attn_func(q, k, v, s).sum().backward()

    del xops
    return [splitk_decoding, splitk_decoding_int4_kv, rms_norm, rope_padded, tiled_matmul, index_select_cat,
            lightning_attention]


def _ops_fbgemm(torch):
    """fbgemm-gpu-genai 1.9.0's Triton kernels (the Python files of its wheel's `fbgemm_gpu/experimental/gemm/
    triton_gemm`, `fbgemm_gpu/triton` and `fbgemm_gpu/sll/triton`, with empty package `__init__` files above
    them; the CUDA extension is not needed for them): fp8 row-wise quantization and the row-wise scaled fp8
    GEMM (autotuned; TMA persistent on Hopper, and without TMA), block-wise quantization and GEMM, the grouped
    fp8 GEMM for MoE (TMA loads), MX4 (fp4 codes packed two a byte, a shared exponent per 32) quantize and
    dequantize, and the jagged (variable-length, offsets-indexed) flash attention forward and backward."""
    from fbgemm_gpu.experimental.gemm.triton_gemm import fp8_gemm, grouped_gemm
    from fbgemm_gpu.sll.triton.triton_jagged_flash_attention_basic import jagged_flash_attention_basic
    from fbgemm_gpu.triton import quantize as mx4

    dev, bf = "cuda", torch.bfloat16

    def fp8_row(tma_persistent: bool):
        a, b = torch.randn(512, 1024, device=dev, dtype=bf), torch.randn(768, 1024, device=dev, dtype=bf)
        (aq, a_s), (bq, b_s) = fp8_gemm.quantize_fp8_row(a), fp8_gemm.quantize_fp8_row(b)
        fp8_gemm.matmul_fp8_row(aq, bq, a_s, b_s, tma_persistent=tma_persistent)

    def fp8_row_tma():
        fp8_row(True)

    def fp8_row_no_tma():
        fp8_row(False)

    def fp8_block():
        a, b = torch.randn(512, 1024, device=dev, dtype=bf), torch.randn(768, 1024, device=dev, dtype=bf)
        (aq, a_s), (bq, b_s) = fp8_gemm.quantize_fp8_block(a, 128, 128), fp8_gemm.quantize_fp8_block(b, 128, 128)
        fp8_gemm.matmul_fp8_block(aq, bq, a_s, b_s, 128, 128, 128)

    def grouped_fp8():
        g, m, n, k = 4, 512, 256, 512
        x, w = torch.randn(m, k, device=dev, dtype=bf), torch.randn(g * n, k, device=dev, dtype=bf)
        (xq, x_s), (wq, w_s) = fp8_gemm.quantize_fp8_row(x), fp8_gemm.quantize_fp8_row(w)
        m_sizes = torch.tensor([128, 64, 192, 128], device=dev, dtype=torch.int32)
        grouped_gemm.grouped_gemm_fp8_rowwise(xq, wq, m_sizes, x_s, w_s)

    def mx4_round_trip():
        q = mx4.triton_quantize_mx4(torch.randn(64, 4096, device=dev), group_size=32)
        mx4.triton_dequantize_mx4(q, group_size=32)

    def jagged_attention():
        lengths = [37, 128, 5, 90]
        offsets = torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()], device=dev, dtype=torch.int64)
        total, d = sum(lengths), 64
        q, k, v = (torch.randn(total, d, device=dev, requires_grad=True) for _ in range(3))  # (K is transposed inside)
        jagged_flash_attention_basic(q, k, v, offsets, max(lengths), use_mask=False).sum().backward()

    return [fp8_row_tma, fp8_row_no_tma, fp8_block, grouped_fp8, mx4_round_trip, jagged_attention]


def _ops_lmdeploy(torch):
    """lmdeploy 0.18.0's PyTorch-engine Triton kernels (its wheel's `lmdeploy/pytorch/kernels/cuda` and
    `default` as released; the package `__init__` files above them empty, `lmdeploy/utils.py` a stand-in
    with `get_logger` and `lmdeploy/messages.py` one with `QuantPolicy` as released, the originals importing
    transformers and pydantic): the fused MoE, AWQ's int4 GEMM (8 codes packed in an int32, grouped scales
    and zeros), the w8a8 RMSNorm-quantize and dynamically quantized int8 GEMM, block-wise fp8 quantization
    and GEMM, its Gluon fp8 GEMM for Hopper (wgmma and TMA written by hand), RMSNorm, rotary embedding,
    SiLU-and-mul, and decoding attention over a paged KV cache in bf16, int8 and packed int4."""
    from lmdeploy.messages import QuantPolicy
    from lmdeploy.pytorch.kernels.cuda import (
        activation,
        apply_rotary_pos_emb,
        awq_kernels,
        blocked_gemm_fp8,
        pagedattention,
        rms_norm,
        w8a8_triton_kernels,
    )
    from lmdeploy.pytorch.kernels.cuda.moe import fused_moe

    dev, bf, f16 = "cuda", torch.bfloat16, torch.float16

    def moe():
        m, k, n, e, top = 64, 1024, 512, 8, 2
        x = torch.randn(m, k, device=dev, dtype=bf)
        w1, w2 = torch.randn(e, 2 * n, k, device=dev, dtype=bf), torch.randn(e, k, n, device=dev, dtype=bf)
        weights, ids = torch.randn(m, e, device=dev).softmax(-1).topk(top)
        fused_moe.fused_moe(x, w1, w2, weights, ids.to(torch.int32), top)

    def awq():
        m, k, n, group = 32, 2048, 1024, 128
        x = torch.randn(m, k, device=dev, dtype=f16)
        qweight = torch.randint(-2**31, 2**31 - 1, (k, n // 8), device=dev, dtype=torch.int32)
        qzeros = torch.randint(-2**31, 2**31 - 1, (k // group, n // 8), device=dev, dtype=torch.int32)
        awq_kernels.awq_linear(x, qweight, torch.rand(k // group, n, device=dev, dtype=f16), qzeros)

    def w8a8():
        m, k, n = 64, 2048, 1024
        x, w = torch.randn(m, k, device=dev, dtype=f16), torch.randn(k, device=dev, dtype=f16)
        q, scale = w8a8_triton_kernels.rms_norm_dynamic_quant(x, w, 1e-5)
        b = torch.randint(-127, 127, (n, k), device=dev, dtype=torch.int8)
        w8a8_triton_kernels.matmul_kernel_dynamic_quant(q, b, scale, torch.rand(n, 1, device=dev))

    def fp8_block():
        m, k, n = 128, 1024, 512
        a, a_s = blocked_gemm_fp8.quant_fp8(torch.randn(m, k, device=dev, dtype=bf), 128)
        b = torch.randn(n, k, device=dev, dtype=bf).to(torch.float8_e4m3fn)
        blocked_gemm_fp8.blocked_gemm_fp8(a, a_s, b.t(), torch.rand(k // 128, n // 128, device=dev), out_dtype=bf)

    def fp8_gluon():
        from lmdeploy.pytorch.kernels.cuda import blocked_fp8_gemm_gluon as gluon_gemm

        m, k, n = 256, 1024, 512
        a = torch.randn(m, k, device=dev).to(torch.float8_e4m3fn)
        a_s = torch.rand(k // 128, m, device=dev).t()  # stride 1 along M
        b = torch.randn(n, k, device=dev).to(torch.float8_e4m3fn)
        b_s = torch.rand(n // 128, k // 128, device=dev)
        gluon_gemm.fp8_gemm_nt((a, a_s), (b, b_s), torch.empty(m, n, device=dev, dtype=bf), None)

    def norms_and_rope():
        x, w = torch.randn(64, 4096, device=dev, dtype=bf), torch.randn(4096, device=dev, dtype=bf)
        rms_norm.rms_norm(x, w, 1e-6)
        rms_norm.rms_norm(x, w, 1e-6, residual=torch.randn_like(x))
        q, k = torch.randn(64, 32, 128, device=dev, dtype=bf), torch.randn(64, 8, 128, device=dev, dtype=bf)
        cos, sin = torch.randn(64, 128, device=dev, dtype=bf), torch.randn(64, 128, device=dev, dtype=bf)
        apply_rotary_pos_emb.apply_rotary_pos_emb(q, k, cos, sin)
        activation.silu_and_mul(torch.randn(64, 2 * 4096, device=dev, dtype=bf))

    def paged(policy, dim_div=1, dtype=bf):
        batch, hq, hkv, d, block, blocks = 4, 32, 8, 128, 64, 64
        q = torch.randn(batch, hq, d, device=dev, dtype=bf)
        k_cache = torch.randn(blocks, block, hkv, d, device=dev).to(dtype) if dtype.is_floating_point else \
            torch.randint(0, 255, (blocks, block, hkv, d // dim_div), device=dev, dtype=dtype)
        v_cache = k_cache.clone()
        seqlens = torch.tensor([100, 1000, 37, 512], device=dev, dtype=torch.int32)
        table = torch.arange(batch * 16, device=dev, dtype=torch.int32).view(batch, 16)
        scales = None if policy == QuantPolicy.NONE else torch.rand(blocks, block, hkv, 2, device=dev, dtype=bf)
        pagedattention.flash_attn_with_kvcache(q, k_cache, v_cache, seqlens, table, max_seqlen_q=1,
                                               k_scales_zeros=scales, v_scales_zeros=scales, quant_policy=policy)

    def paged_bf16():
        paged(QuantPolicy.NONE)

    def paged_int8():
        paged(QuantPolicy.INT8, 1, torch.uint8)

    def paged_int4():
        paged(QuantPolicy.INT4, 2, torch.uint8)

    return [moe, awq, w8a8, fp8_block, fp8_gluon, norms_and_rope, paged_bf16, paged_int8, paged_int4]


def _ops_flashinfer(torch):
    """flashinfer-python 0.7.2.post1's Triton kernels (its wheel's `flashinfer/triton`, as released, with an
    empty `flashinfer/__init__.py` above it and a `flashinfer/utils.py` stand-in with the two names they
    import; the original holds its CUDA JIT): the SM-constrained persistent GEMM (pointer and on-device TMA
    descriptor variants), attention-state merging (pairwise, in place, over index sets and variable-length
    ones), RMSNorm with and without the residual add and fp8 output scaling, SiLU-and-mul, Mamba-2's chunk
    cumsum."""
    from flashinfer.triton import activation, cascade, norm, sm_constraint_gemm
    from flashinfer.triton.kernels import ssd_chunk_state

    dev, bf = "cuda", torch.bfloat16

    def gemms():  # (b is K x N here, N x K for the descriptor variant)
        a, b = torch.randn(512, 1024, device=dev, dtype=bf), torch.randn(1024, 768, device=dev, dtype=bf)
        sm_constraint_gemm.gemm_persistent(a, b, num_sms=64)
        sm_constraint_gemm.gemm(a, b)

    def gemm_tma_descriptor():
        import triton

        triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=dev, dtype=torch.int8))
        a, b = torch.randn(512, 1024, device=dev, dtype=bf), torch.randn(768, 1024, device=dev, dtype=bf)
        sm_constraint_gemm.gemm_descriptor_persistent(a, b, num_sms=64)

    def merge():
        seq, heads, d = 256, 16, 128
        v = [torch.randn(seq, heads, d, device=dev, dtype=bf) for _ in range(2)]
        s = [torch.randn(seq, heads, device=dev, dtype=torch.float32) for _ in range(2)]
        cascade.merge_state(v[0], s[0], v[1], s[1])
        cascade.merge_state_in_place(v[0], s[0], v[1], s[1])
        cascade.merge_states(torch.randn(seq, 3, heads, d, device=dev, dtype=bf),
                             torch.randn(seq, 3, heads, device=dev, dtype=torch.float32))
        indptr = torch.tensor([0, 3, 4, 9, 12], device=dev, dtype=torch.int32)
        cascade.variable_length_merge_states(torch.randn(12, heads, d, device=dev, dtype=bf),
                                             torch.randn(12, heads, device=dev, dtype=torch.float32), indptr)

    def norms_and_activation():
        x, w = torch.randn(64, 4096, device=dev, dtype=bf), torch.randn(4096, device=dev, dtype=bf)
        norm.rms_norm(x, w, torch.empty_like(x), 1e-6)
        norm.rms_norm(x, w, torch.empty_like(x, dtype=torch.float8_e4m3fn), 1e-6,
                      out_scale=torch.tensor([0.5], device=dev))
        norm.rms_norm_add_residual(x.clone(), torch.randn_like(x), w, 1e-6)
        activation.silu_and_mul(torch.randn(64, 2 * 4096, device=dev, dtype=bf))

    def chunk_cumsum():
        dt, a = torch.randn(2, 1024, 16, device=dev), -torch.rand(16, device=dev)
        ssd_chunk_state.chunk_cumsum_fwd(dt, a, 256, dt_softplus=True)

    return [gemms, gemm_tma_descriptor, merge, norms_and_activation, chunk_cumsum]


def _ops_cce(torch):
    """cut-cross-entropy 25.1.1 (Apple's Cut Cross-Entropy, its wheel): the linear-plus-cross-entropy of an
    LLM's output layer without materializing the logits: the log-sum-exp forward over vocabulary blocks, the
    indexed dot of the targets, and the backward that skips blocks whose softmax is negligible (filter_eps),
    with and without a logit softcap, on shifted targets; autotuned."""
    from cut_cross_entropy import linear_cross_entropy

    dev, bf = "cuda", torch.bfloat16

    def run(**kw):
        e = torch.randn(512, 1024, device=dev, dtype=bf, requires_grad=True)
        c = torch.randn(32000, 1024, device=dev, dtype=bf, requires_grad=True)
        targets = torch.randint(0, 32000, (512,), device=dev)
        linear_cross_entropy(e, c, targets, **kw).backward()

    def cce():
        run()

    def cce_softcap_shift():
        run(softcap=30.0, shift=True)

    return [cce, cce_softcap_shift]


def _ops_flex(torch):
    """torch's FlexAttention (`torch.nn.attention.flex_attention`, compiled): Inductor's Triton templates for
    attention with a score_mod and a block-sparse mask, forward and backward (causal, sliding window with
    ALiBi-like bias, document masking) and flex decoding (a handful of queries over a long KV)."""
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    dev, bf = "cuda", torch.bfloat16
    flex = torch.compile(flex_attention, dynamic=False)

    def qkv(b, h, q_len, kv_len, d=64, grad=False):
        return (torch.randn(b, h, q_len, d, device=dev, dtype=bf, requires_grad=grad),
                torch.randn(b, h, kv_len, d, device=dev, dtype=bf, requires_grad=grad),
                torch.randn(b, h, kv_len, d, device=dev, dtype=bf, requires_grad=grad))

    def causal():
        q, k, v = qkv(2, 8, 1024, 1024, grad=True)
        mask = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None, 1024, 1024, device=dev)
        flex(q, k, v, block_mask=mask).sum().backward()

    def sliding_window_bias():
        q, k, v = qkv(2, 8, 1024, 1024, grad=True)
        mask = create_block_mask(lambda b, h, qi, ki: (qi >= ki) & (qi - ki < 256), None, None, 1024, 1024,
                                 device=dev)
        flex(q, k, v, score_mod=lambda s, b, h, qi, ki: s - (h + 1) * 0.01 * (qi - ki),
             block_mask=mask).sum().backward()

    def document_mask():
        docs = torch.repeat_interleave(torch.arange(4, device=dev), torch.tensor([300, 200, 400, 124], device=dev))
        q, k, v = qkv(1, 8, 1024, 1024)
        mask = create_block_mask(lambda b, h, qi, ki: docs[qi] == docs[ki], None, None, 1024, 1024, device=dev)
        flex(q, k, v, block_mask=mask)

    def decoding():
        q, k, v = qkv(4, 8, 1, 4096)
        flex(q, k, v)

    return [causal, sliding_window_bias, document_mask, decoding]


def _ops_megablocks(torch):
    """megablocks 0.10.0's Triton backend (MoE token permutation: gathers and scatters of rows through sorted
    expert assignments, padded per expert and binned by capacity, weighted) and stanford-stk 0.7.1's
    block-sparse matmuls (sparse = dense x dense over a block topology, dense = sparse x dense, dense =
    dense x sparse), both sdists carried as released (megablocks' package `__init__` empty: it imports its
    layers)."""
    import stk
    from megablocks.backend import kernels as mb

    dev, bf, f16 = "cuda", torch.bfloat16, torch.float16

    def permute():
        tokens, hidden, experts, top_k = 512, 1024, 8, 2
        x = torch.randn(tokens, hidden, device=dev, dtype=bf)
        expert = torch.randint(0, experts, (tokens * top_k,), device=dev, dtype=torch.int32)
        bin_ids, indices = torch.sort(expert)
        indices, bin_ids = indices.int(), bin_ids.int()
        counts = torch.bincount(expert, minlength=experts)
        bins = torch.cumsum(counts, 0).int()
        padded = torch.cumsum((counts + 127) // 128 * 128, 0).int()
        weights = torch.rand(tokens * top_k, device=dev, dtype=bf)
        out = mb.padded_gather(x, indices, bin_ids, weights, bins, padded, top_k)
        mb.padded_scatter(out, indices, bin_ids, weights, bins, padded, top_k)
        rows = mb.gather(x, indices, bin_ids, weights, bins, top_k)
        mb.scatter(rows, indices, bin_ids, weights, bins, top_k)
        binned = mb.binned_gather(x, indices, weights, bins, 256, top_k)
        mb.binned_scatter(binned, indices, weights, bins, top_k)

    def block_sparse():
        m, k, n, block = 1024, 512, 1024, 128
        keep = (torch.rand(m // block, n // block, device=dev) > 0.5).repeat_interleave(block, 0)
        dense = keep.repeat_interleave(block, 1) * torch.randn(m, n, device=dev)
        topo = stk.ops.to_sparse(dense.to(f16), blocking=block)
        s = stk.ops.sdd(torch.randn(m, k, device=dev, dtype=f16), torch.randn(k, n, device=dev, dtype=f16), topo)
        stk.ops.dsd(s, torch.randn(n, k, device=dev, dtype=f16))
        stk.ops.dds(torch.randn(k, m, device=dev, dtype=f16), s)

    return [permute, block_sparse]


def _bare_packages(site: str, names: tuple[str, ...]) -> None:
    """Each package as a module whose `__init__` did not run (its folder under `site` as its path): the
    files below import, the package's own set-up (which needs what the machine lacks) does not happen."""
    import types

    for name in names:
        module = types.ModuleType(name)
        module.__path__ = [os.path.join(site, *name.split("."))]
        sys.modules[name] = module


def _load_file(name: str, path: str):
    """One source file as a module of its own, `name`, outside its package."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _unsloth_packages() -> None:
    """unsloth 2026.10.9's kernels without its package set-up: `unsloth`, `unsloth.kernels` and the MoE
    packages as modules whose `__init__` did not run (they patch transformers and need unsloth_zoo), and a
    stand-in `unsloth_zoo` (`utils.Version`, release strings compared by their numbers, `log.logger` and
    `temporary_patches.common.torch_compile`, here no compile: all the kernel files use of it)."""
    import functools
    import logging
    import re
    import types

    site = next(p for p in sys.path if os.path.isfile(os.path.join(p, "unsloth", "kernels", "nf4.py")))

    @functools.total_ordering
    class Version:
        def __init__(self, text):
            self.key = tuple(int(x) for x in re.findall(r"\d+", str(text).split("+")[0])[:3])

        def __eq__(self, other):
            return self.key == Version(other).key if not isinstance(other, Version) else self.key == other.key

        def __lt__(self, other):
            return self.key < (other.key if isinstance(other, Version) else Version(other).key)

    zoo, zoo_utils, zoo_log = (types.ModuleType(n) for n in ("unsloth_zoo", "unsloth_zoo.utils", "unsloth_zoo.log"))
    zoo.__path__, zoo_utils.Version, zoo.utils = [], Version, zoo_utils
    zoo_log.logger = zoo.log = logging.getLogger("unsloth")
    patches = types.ModuleType("unsloth_zoo.temporary_patches.common")
    patches.torch_compile = lambda fn=None, *args, **kwargs: fn if fn is not None else (lambda f: f)
    sys.modules.update({"unsloth_zoo": zoo, "unsloth_zoo.utils": zoo_utils, "unsloth_zoo.log": zoo_log,
                        "unsloth_zoo.temporary_patches": types.ModuleType("unsloth_zoo.temporary_patches"),
                        "unsloth_zoo.temporary_patches.common": patches})
    _bare_packages(site, ("unsloth", "unsloth.kernels", "unsloth.kernels.moe", "unsloth.kernels.moe.grouped_gemm"))
    sys.modules["unsloth"].DEVICE_TYPE = "cuda"
    try:
        import pandas  # noqa: F401 - the MoE tuning module imports it; only its benchmark tables use it
    except ImportError:
        import importlib.machinery

        stub = sys.modules["pandas"] = types.ModuleType("pandas")
        stub.__spec__ = importlib.machinery.ModuleSpec("pandas", None)  # torch.compile's trace rules ask


def _ops_unsloth(torch):
    """unsloth 2026.10.9's Triton kernels (its wheel's `unsloth/kernels`, `device_type.py` and
    `bnb_availability.py` as released, imported without the packages' `__init__`: `_unsloth_packages`):
    bitsandbytes-exact NF4 dequantization (a 16-entry codebook gathered with `tl.gather`, double-quantized
    absmax, libdevice `mul_rn`), the NF4 GEMV for decoding (byte and word variants, helpers imported from
    the dequantization module), packed int4 weights (GPTQ-style words with group scales, zero points and
    act-order `g_idx`: dequantization and the split-K decode GEMV with fp32 atomics), attention for heads
    larger than 256 over per-query key intervals (forward and backward), fp8 weights (128x128-block
    dequantization, activation quantization, row- and block-scaled decode GEMVs) and the MoE grouped GEMM (forward
    with the token permutation fused into the load, TMA loads of the weights on Hopper, dX and dW)."""
    _unsloth_packages()
    from unsloth.kernels import int4_packed, large_head_attention, nf4
    from unsloth.kernels import nf4_gemv as gemv

    dev, bf, f16 = "cuda", torch.bfloat16, torch.float16

    def nf4_quant_state(out_features, in_features, blocksize=64, blocksize2=256):
        n = out_features * in_features
        W = torch.randint(0, 256, (n // 2, 1), device=dev, dtype=torch.uint8)
        code = torch.linspace(-1, 1, 16, device=dev, dtype=torch.float32)
        absmax = torch.randint(0, 256, (n // blocksize,), device=dev, dtype=torch.uint8)
        code2 = torch.linspace(-1, 1, 256, device=dev, dtype=torch.float32)
        absmax2 = torch.rand(n // blocksize // blocksize2, device=dev, dtype=torch.float32)
        offset = torch.tensor(0.02, device=dev, dtype=torch.float32)
        return W, absmax, code2, absmax2, offset, code, blocksize, blocksize2

    def nf4_dequant():
        W, absmax, code2, absmax2, offset, code, bs, bs2 = nf4_quant_state(4096, 4096)
        for dtype in (bf, f16):
            nf4.dequantize_nf4(W, absmax, code2, absmax2, offset, code, bs, bs2, (4096, 4096), dtype)
        plain = torch.rand(4096 * 4096 // 64, device=dev, dtype=torch.float32)  # no double quantization
        nf4.dequantize_nf4(W, plain, None, None, None, code, 64, 0, (4096, 4096), bf)

    def nf4_decode_gemv():
        W, absmax, code2, absmax2, offset, code, bs, bs2 = nf4_quant_state(4096, 2048)
        for dtype in (bf, f16):
            x = torch.randn(1, 1, 2048, device=dev, dtype=dtype)
            gemv.gemv_nf4(x, W, absmax, code2, absmax2, offset, code, bs, bs2, (4096, 2048), dtype)

    def int4_packed_ops():
        N, K, group = 4096, 4096, 128
        packed = torch.randint(-2**31, 2**31 - 1, (N, K // 8), device=dev, dtype=torch.int32)
        scale = torch.rand(N, K // group, device=dev, dtype=bf)
        zeros = torch.randint(-2**31, 2**31 - 1, (N, K // group // 8), device=dev, dtype=torch.int32)
        for zp, g_idx in ((None, None), (zeros, None),
                          (zeros, torch.randperm(K, device=dev).int() // group)):
            qs = int4_packed.Int4QuantState(scale, zp, g_idx, (N, K), 4, group, bf)
            int4_packed.int4_dequantize(packed, qs)
            for rows in (1, 4):  # the decode GEMV, split over K with fp32 atomics when rows are few
                int4_packed.int4_matmul(torch.randn(rows, K, device=dev, dtype=bf), packed, qs)

    def large_heads():
        B, H, S, D = 1, 4, 512, 512
        q, k, v = (torch.randn(B, H, S, D, device=dev, dtype=bf, requires_grad=True) for _ in range(3))
        pos = torch.arange(S, device=dev, dtype=torch.int32)
        lo = torch.clamp(pos - 128, min=0).expand(B, S).contiguous()  # a sliding window, causal
        hi = pos.expand(B, S).contiguous()
        large_head_attention.large_head_attention(q, k, v, lo, hi).float().sum().backward()

    def fp8_weights():
        from unsloth.kernels import fp8

        N, K = 2048, 1024
        weight = torch.randn(N, K, device=dev).to(torch.float8_e4m3fn)
        block_scale = torch.rand(N // 128, K // 128, device=dev, dtype=torch.float32)
        fp8.weight_dequant(weight, block_scale)  # 128x128 blocks
        fp8.act_quant(torch.randn(64, K, device=dev, dtype=bf))
        row_scale = torch.rand(N, 1, device=dev, dtype=torch.float32)
        x = torch.randn(1, 1, K, device=dev, dtype=bf)
        if fp8.can_use_fp8_rowwise_gemv(x, weight, row_scale):
            fp8.fp8_rowwise_gemv(x, weight, row_scale)
        if fp8.can_use_fp8_block_gemv(x, weight, block_scale):
            fp8.fp8_block_gemv(x, weight, block_scale)

    def moe_grouped_gemm():
        from unsloth.kernels.moe.grouped_gemm import interface as gg

        tokens, topk, experts, hidden, inter = 256, 2, 8, 1024, 512
        X = torch.randn(tokens, hidden, device=dev, dtype=bf)
        W = torch.randn(experts, inter, hidden, device=dev, dtype=bf)
        choice = torch.randint(0, experts, (tokens * topk,), device=dev)
        gather = torch.argsort(choice).int() // topk
        m_sizes = torch.bincount(choice, minlength=experts).int()
        tiles = dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=64, num_warps=4, num_stages=3)
        y = gg.grouped_gemm_forward(X, W, topk, m_sizes, gather, permute_x=True, use_tma_load_w=True, **tiles)
        dY = torch.randn_like(y)
        gg.grouped_gemm_dX(dY, W, gather, m_sizes, topk, permute_x=True, use_tma_load_w=True, **tiles)
        gg.grouped_gemm_dW(X, dY, m_sizes, gather, topk, permute_x=True, **tiles)

    return [nf4_dequant, nf4_decode_gemv, int4_packed_ops, large_heads, fp8_weights, moe_grouped_gemm]


def _ops_deepspeed(torch):
    """DeepSpeed 0.19.8's Triton ops (its sdist's `deepspeed/ops/triton_ops` and
    `deepspeed/ops/fp_quantizer/fp8_gemm_triton.py` as released, under packages whose `__init__` did not
    run, and a `deepspeed.utils` stand-in for the one logger they use): the grouped GEMM for MoE (2D x 3D
    over cumulative expert offsets, forward and backward, `trans_b` both ways), SwiGLU (split and packed),
    RMSNorm and Hugging Face's split-half RoPE (forward and backward, rounded as eager rounds), the
    AutoEP token ops (weighted restore of expert rows to tokens, row weighting) and the fp8 weight GEMM
    with group scales (bf16 and fp16 activations, small and large M)."""
    import logging
    import types

    root = next(p for p in sys.path if os.path.isfile(os.path.join(p, "deepspeed", "ops", "triton_ops",
                                                                   "_triton.py")))
    _bare_packages(root, ("deepspeed", "deepspeed.ops", "deepspeed.ops.fp_quantizer"))
    utils = sys.modules["deepspeed.utils"] = types.ModuleType("deepspeed.utils")
    utils.logger = logging.getLogger("deepspeed")
    from deepspeed.ops import triton_ops
    from deepspeed.ops.fp_quantizer import fp8_gemm_triton
    from deepspeed.ops.triton_ops import autoep_fused_token_ops, fused_rms_norm, fused_rotary_pos_emb

    dev, bf, f16 = "cuda", torch.bfloat16, torch.float16

    def group_gemm():
        experts, M, K, N = 8, 1024, 512, 768
        offs = torch.cumsum(torch.full((experts,), M // experts, device=dev), 0).int()
        a = torch.randn(M, K, device=dev, dtype=bf, requires_grad=True)
        for trans_b, shape in ((False, (experts, K, N)), (True, (experts, N, K))):
            b = torch.randn(*shape, device=dev, dtype=bf, requires_grad=True)
            triton_ops.group_gemm_triton(a, b, offs, trans_b=trans_b).float().sum().backward()

    def swiglu():
        gate, up = (torch.randn(512, 2048, device=dev, dtype=bf, requires_grad=True) for _ in range(2))
        triton_ops.swiglu(gate, up).float().sum().backward()
        from deepspeed.ops.triton_ops.swiglu_triton import swiglu_packed

        packed = torch.randn(512, 4096, device=dev, dtype=bf, requires_grad=True)
        swiglu_packed(packed).float().sum().backward()

    def rms_norm():
        x = torch.randn(4, 256, 2048, device=dev, dtype=bf, requires_grad=True)
        w = torch.randn(2048, device=dev, dtype=bf, requires_grad=True)
        fused_rms_norm.fused_rms_norm(x, w, 1e-6).float().sum().backward()

    def rope():
        q = torch.randn(2, 16, 256, 128, device=dev, dtype=bf, requires_grad=True)
        k = torch.randn(2, 4, 256, 128, device=dev, dtype=bf, requires_grad=True)
        cos, sin = (torch.randn(2, 256, 128, device=dev, dtype=bf) for _ in range(2))
        qo, ko = fused_rotary_pos_emb.fused_apply_rotary_pos_emb(q, k, cos, sin)
        (qo.float().sum() + ko.float().sum()).backward()

    def token_ops():
        bsz, seqlen, hidden, top_k = 2, 128, 1024, 2
        rows = torch.randn(bsz * seqlen * top_k, hidden, device=dev, dtype=bf, requires_grad=True)
        scores = torch.rand(bsz * seqlen, top_k, device=dev, dtype=bf, requires_grad=True)
        order = torch.randperm(bsz * seqlen * top_k, device=dev)
        autoep_fused_token_ops.fused_weighted_restore(rows, scores, order, top_k, (bsz, seqlen, hidden)
                                                      ).float().sum().backward()
        weights = torch.rand(bsz * seqlen * top_k, 1, device=dev, dtype=torch.float32, requires_grad=True)
        autoep_fused_token_ops.fused_row_weighting(rows, weights).float().sum().backward()

    def fp8_gemm():
        K, N, group = 2048, 1024, 128
        weight = torch.randn(K, N, device=dev).to(torch.float8_e4m3fn)
        scale = torch.rand(K * N // group, device=dev, dtype=torch.float32)
        for M, dtype in ((16, bf), (512, bf), (64, f16)):
            fp8_gemm_triton.matmul_fp8_triton(torch.randn(M, K, device=dev, dtype=dtype), weight, scale, group)

    return [group_gemm, swiglu, rms_norm, rope, token_ops, fp8_gemm]


def _ops_sglang(torch):
    """SGLang 0.5.23's standalone Triton kernels (files of its wheel's `sglang/kernels/ops` that import only
    torch and triton, each loaded as a module of its own: the package imports its whole runtime): AWQ
    int4 dequantization (packed words, packed zero points, group scales), DeepSeek sparse-MLA prefill
    (queries attending a gathered top-k of latent KV rows, with and without the shared union of indices
    across adjacent tokens), attention-state merging, temperature softmax split across CTAs, the MoE gate's
    stable top-k (keys packed from values and indices) and MXFP8 quantization (E4M3 values, E8M0 scale
    bytes)."""
    root = next(os.path.join(p, "sglang", "kernels", "ops") for p in sys.path
                if os.path.isdir(os.path.join(p, "sglang", "kernels", "ops")))

    def load(rel: str):
        return _load_file("sglang_" + rel.replace("/", "_").removesuffix(".py"), os.path.join(root, rel))

    dev, bf = "cuda", torch.bfloat16

    def awq():
        mod = load("quantization/awq_triton.py")
        K, N, group = 4096, 4096, 128
        qweight = torch.randint(-2**31, 2**31 - 1, (K, N // 8), device=dev, dtype=torch.int32)
        scales = torch.rand(K // group, N, device=dev, dtype=torch.float16)
        zeros = torch.randint(-2**31, 2**31 - 1, (K // group, N // 8), device=dev, dtype=torch.int32)
        mod.awq_dequantize_triton(qweight, scales, zeros)

    def sparse_mla():
        mod = load("attention/dsa/triton_sparse_mla_prefill.py")
        T, H, d_v, rope, S, topk = 64, 16, 512, 64, 8192, 512
        q = torch.randn(T, H, d_v + rope, device=dev, dtype=bf)
        kv = torch.randn(S, d_v + rope, device=dev, dtype=bf)
        indices = torch.stack([torch.randperm(S, device=dev)[:topk] for _ in range(T)]).int()
        indices[:, -7:] = -1  # invalid slots are skipped
        for union in (0, 2):
            mod.sparse_mla_prefill(q, kv, indices, (d_v + rope) ** -0.5, d_v, union=union)

    def merge_state():
        mod = load("attention/merge_state.py")
        tokens, heads, dim = 512, 32, 128
        out = [torch.randn(tokens, heads, dim, device=dev, dtype=bf) for _ in range(2)]
        lse = [torch.randn(tokens, heads, device=dev, dtype=torch.float32) for _ in range(2)]
        mod.merge_state_triton(out[0], lse[0], out[1], lse[1])

    def sampling():
        mod = load("sampling/temperature_softmax.py")
        for rows in (4, 64):
            logits = torch.randn(rows, 151936, device=dev, dtype=torch.float32)
            mod.temperature_softmax(logits, torch.rand(rows, 1, device=dev) + 0.5)

    def gate_topk():
        mod = load("moe/gate_topk.py")
        for experts, k in ((256, 8), (128, 4)):
            mod.gate_topk(torch.randn(1024, experts, device=dev, dtype=bf), k)

    def mxfp8():
        mod = load("quantization/mxfp8_quant.py")
        mod.to_mxfp8(torch.randn(512, 4096, device=dev, dtype=bf))

    return [awq, sparse_mla, merge_state, sampling, gate_topk, mxfp8]


def _ops_torch_sparse(torch):
    """torch's own hand-written Triton kernels for block-sparse (BSR) tensors (`torch.sparse._triton_ops`, as
    the installed torch ships them; no wheel to carry): BSR x dense matmuls in fp16, bf16 and fp32 at block
    sizes 16 to 64, int8 x int8 -> int32 with row and column scales, the sampled dense x dense product into
    a BSR pattern, the row softmax over a BSR tensor's stored blocks, attention with a BSR mask, and the
    scatter-mm formulation of BSR x dense (its `bsr_strided_mm` and `scatter_mm` kernels)."""
    from torch.sparse import _triton_ops as ops

    dev = "cuda"
    torch.manual_seed(0)

    def bsr(m, k, block, dtype, density=0.3, batch=()):
        # one pattern for every batch: a batched BSR tensor holds the same number of blocks per batch
        mask = torch.rand(m // block, k // block, device=dev) < density
        mask = mask.repeat_interleave(block, -2).repeat_interleave(block, -1).expand(*batch, m, k)
        if dtype.is_floating_point:
            dense = torch.randn(*batch, m, k, device=dev, dtype=dtype)
        else:
            dense = torch.randint(-8, 8, (*batch, m, k), device=dev, dtype=dtype)
        return (dense * mask).to_sparse_bsr((block, block), dense_dim=0)

    def named(name, fn):
        fn.__name__ = name
        return fn

    out = []
    for dtype in (torch.float16, torch.bfloat16, torch.float32):
        for block in (16, 32, 64):
            def mm(dtype=dtype, block=block):
                a = bsr(1024, 512, block, dtype)
                ops.bsr_dense_mm(a, torch.randn(512, 768, device=dev, dtype=dtype))
            out.append(named(f"bsr_dense_mm_{str(dtype).split('.')[-1]}_b{block}", mm))

    def int8_scaled_addmm():
        a = bsr(1024, 512, 32, torch.int8)
        b = torch.randint(-8, 8, (512, 768), device=dev, dtype=torch.int8)
        inp = torch.zeros(1024, 768, device=dev, dtype=torch.int32)
        ops._int_bsr_dense_addmm(inp, a, b, beta=0, alpha=1)

    def addmm_scales_bf16():
        a = bsr(1024, 512, 32, torch.bfloat16)
        b = torch.randn(512, 768, device=dev, dtype=torch.bfloat16)
        inp = torch.randn(1024, 768, device=dev, dtype=torch.bfloat16)
        ops.bsr_dense_addmm(inp, a, b, beta=0.5, alpha=2.0,
                            left_alpha=torch.rand(1024, device=dev, dtype=torch.bfloat16),
                            right_alpha=torch.rand(768, device=dev, dtype=torch.bfloat16))

    def batched_mm_fp16():
        a = bsr(512, 256, 32, torch.float16, batch=(4,))
        ops.bsr_dense_mm(a, torch.randn(4, 256, 384, device=dev, dtype=torch.float16))

    def sampled_addmm_fp16():
        pattern = bsr(512, 512, 32, torch.float16)
        m1 = torch.randn(512, 256, device=dev, dtype=torch.float16)
        m2 = torch.randn(256, 512, device=dev, dtype=torch.float16)
        ops.sampled_addmm(pattern, m1, m2, beta=0.5, alpha=1.5)

    def softmax_fp32():
        ops.bsr_softmax(bsr(512, 1024, 32, torch.float32, batch=(2,)))

    def sdpa_bsr_mask_bf16():
        q, k, v = (torch.randn(2, 4, 512, 64, device=dev, dtype=torch.bfloat16) for _ in range(3))
        mask = bsr(512, 512, 64, torch.bfloat16, density=0.5, batch=(2, 4))
        ops._scaled_dot_product_attention(q, k, v, mask)

    def scatter_mm_fp16():
        a = bsr(1024, 1024, 32, torch.float16)
        b = torch.randn(1024, 256, device=dev, dtype=torch.float16)
        for fmt in ("bsr_strided_mm", "bsr_strided_mm_compressed", "scatter_mm"):
            ops.bsr_scatter_mm(a, b, indices_data=ops.bsr_scatter_mm_indices_data(a, b, indices_format=fmt))

    return out + [int8_scaled_addmm, addmm_scales_bf16, batched_mm_fp16, sampled_addmm_fp16, softmax_fp32,
                  sdpa_bsr_mask_bf16, scatter_mm_fp16]


LIBRARIES = {"liger": _ops_liger, "fla": _ops_fla, "torchao": _ops_torchao, "gemlite": _ops_gemlite,
             "mamba": _ops_mamba, "flaggems": _ops_flaggems,
             "flashattn": _ops_flashattn, "vllm": _ops_vllm,
             "bitsandbytes": _ops_bitsandbytes, "xformers": _ops_xformers, "fbgemm": _ops_fbgemm,
             "lmdeploy": _ops_lmdeploy, "flashinfer": _ops_flashinfer,
             "cce": _ops_cce, "flex": _ops_flex, "megablocks": _ops_megablocks, "unsloth": _ops_unsloth,
             "deepspeed": _ops_deepspeed, "sglang": _ops_sglang, "torch_sparse": _ops_torch_sparse}


def record(out: str, libs: list[str]) -> None:
    os.environ.setdefault("FLA_USE_TMA", "1")
    os.environ.setdefault("TORCHAO_AUTOTUNER_ENABLE", "0")
    os.environ.setdefault("FLAGGEMS_CACHE_DIR", os.path.join(out, "flaggems-code"))
    import torch
    import triton

    for lib in libs:
        cache = os.path.join(out, lib)
        os.makedirs(cache, exist_ok=True)
        # one cache per library: Triton reads the variable at each compile
        os.environ["TRITON_CACHE_DIR"] = cache
        if hasattr(triton, "knobs"):
            triton.knobs.cache.dir = cache
        with open(os.path.join(out, f"{lib}.log"), "w") as log:
            log.write(f"torch {torch.__version__} triton {triton.__version__} "
                      f"{torch.cuda.get_device_name()}\n")
            try:
                ops = LIBRARIES[lib](torch)
            except Exception:
                log.write(f"import failed:\n{traceback.format_exc()}\n")
                print(lib, "import failed", flush=True)
                continue
            for op in ops:
                t0 = time.time()
                try:
                    op()
                    torch.cuda.synchronize()
                    status = "ok"
                except Exception as e:  # an op this stack rejects is recorded, not fatal
                    status = f"FAILED {type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
                    log.write(traceback.format_exc() + "\n")
                line = f"{lib}.{op.__name__}: {status} ({time.time() - t0:.1f}s)"
                log.write(line + "\n")
                print(line, flush=True)


if __name__ == "__main__":
    record(sys.argv[1], sys.argv[2:] or list(LIBRARIES))
