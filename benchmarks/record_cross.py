"""Record, without a GPU, the Triton kernels a library's own Python API launches, for an AMD or NVIDIA
target: each op below calls the library's wrapper on CPU tensors of a real model shape, and Triton's own
JIT compiles every kernel the wrapper launches, specialized as it specializes a launch (its binder, its
cache key, its options), into OUT/<lib>-<target>/. Nothing is launched: while an op runs, the active
driver answers the target (current device 0, stream 0) and `JITFunction.run` compiles as `warmup` does.

    python benchmarks/record_cross.py OUT --site DIR --target hip:gfx942 [--lib aiter] [--only OP]
        [--python VENV/bin/python --extra-path TORCH_SITE]   # another Triton release's interpreter
    python benchmarks/record_cross.py OUT --site DIR --target gpu --lib LIB   # the same ops launched on a GPU

DIR holds the library's package as released (e.g. `unzip amd_aiter-*.whl 'aiter/ops/triton/*'`); its
package `__init__`s do not run (aiter's builds C++ extensions at import). Each target runs in a process of
its own: libraries pick dtypes and configs by the arch at import. What torch would ask a GPU (its
compute-unit count) gets the target GPU's answer, named in STAND_INS; `device="cuda"` allocations are CPU
tensors. An autotuned kernel compiles every config its autotuner would benchmark (Triton's `autotune` and a
library's own tuner calling `triton.testing.do_bench`) and keeps the first. Ops that fail are listed with
their error and the recording goes on. This is a recording aid for test data and sweeps, not part of the
tool. Libraries (`--lib`): aiter (AMD), conch, flash_attn, gpt_oss, gptqmodel, liger, megatron (NVIDIA, sm_90
and later), minference, sageattention, torchtitan, transformer_engine, triton_kernels (OpenAI's; --site is
upstream Triton's `python/triton_kernels`, whose own matmul test cases it runs).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import traceback
import types

from record_thirdparty import _bare_packages  # (this folder: the packages whose __init__ does not run)

# What a GPU of each target would tell torch: compute units (MI300X 304, MI355X 256, Radeon RX 7900 XTX 96,
# RX 9070 XT 64, H100 SXM 132, B200 148).
STAND_INS = {"gfx942": 304, "gfx950": 256, "gfx1100": 96, "gfx1201": 64, "90": 132, "100": 148}
# and the shared memory (LDS) a block may opt into, bytes (CDNA3 64 KiB, CDNA4 160 KiB, RDNA 64 KiB,
# Hopper and Blackwell 227 KiB)
SHARED_OPTIN = {"gfx942": 65536, "gfx950": 163840, "gfx1100": 65536, "gfx1201": 65536, "90": 232448,
                "100": 232448}


def _install_driver(backend: str, arch: str) -> None:
    """The active driver answers `backend:arch`, device 0, stream 0; JIT launches compile and return."""
    import torch
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    from triton.runtime.jit import JITFunction

    rdna = arch.startswith(("gfx10", "gfx11", "gfx12"))  # 32-lane waves (Triton compiles wave32 there)
    target = GPUTarget(backend, int(arch) if arch.isdigit() else arch, 64 if backend == "hip" and not rdna else 32)

    class StandIn:
        def get_current_target(self):
            return target

        def get_current_device(self):
            return 0

        def get_current_stream(self, device=None):
            return 0

        def get_active_torch_device(self):
            return torch.device("cpu")

        def get_benchmarker(self):
            def bench(*a, **k):
                raise RuntimeError("no GPU to benchmark on")
            return bench

        def __getattr__(self, name):
            raise RuntimeError(f"recording without a GPU: the driver was asked for {name}")

    driver.set_active(StandIn())
    run = JITFunction.run

    def compile_only(self, *args, grid, warmup, **kwargs):
        return run(self, *args, grid=grid, warmup=True, **kwargs)

    JITFunction.run = compile_only
    units = STAND_INS.get(arch, 128)
    props = types.SimpleNamespace(multi_processor_count=units, gcnArchName=arch, name=f"stand-in {arch}",
                                  shared_memory_per_block_optin=SHARED_OPTIN.get(arch, 65536))
    torch.cuda.get_device_properties = lambda device=None: props
    torch.cuda.current_device = lambda: 0
    torch.cuda.get_device_capability = lambda device=None: (  # what ROCm's torch answers: gfx1201 -> (12, 0)
        (int(arch[3:-2]), int(arch[-2], 16)) if backend == "hip" else (int(arch) // 10, int(arch) % 10))
    torch.cuda.is_available = lambda: True
    _autotune_compiles_every_config()
    _cuda_tensors_on_cpu(torch)


def _autotune_compiles_every_config() -> None:
    """`triton.autotune` compiles each config it would benchmark (its own pruning first) and keeps the first:
    every variant a launch would try is recorded; one that does not fit the target is skipped, as Triton's
    own benchmark skips it."""
    from triton.runtime.autotuner import Autotuner

    def bench(self, *args, config, **meta):
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}
        if config.pre_hook:
            config.pre_hook(full_nargs)
        try:
            self.fn.run(*args, **current)
        except Exception as e:  # noqa: BLE001 - Triton's benchmark gives such a config an infinite time
            if type(e).__name__ not in ("OutOfResources", "CompileTimeAssertionFailure", "PTXASError"):
                raise
            return [float("inf")]
        return [float(self.configs.index(config)) if config in self.configs else 0.0]

    Autotuner._bench = bench
    import itertools

    import triton.testing

    order = itertools.count()

    def do_bench(fn, *args, quantiles=None, **kwargs):  # a library's own autotuner: the same, by call order
        fn()
        value = float(next(order))
        return [value] * len(quantiles) if quantiles else value

    triton.testing.do_bench = do_bench


def _cuda_tensors_on_cpu(torch) -> None:
    """Wrappers that allocate with `device="cuda"` get CPU tensors (nothing is launched on them)."""
    import functools

    def on_cpu(factory):
        @functools.wraps(factory)
        def make(*args, **kwargs):
            device = kwargs.get("device")
            if device is not None and str(device).startswith("cuda"):
                kwargs["device"] = "cpu"
            return factory(*args, **kwargs)
        return make

    for name in ("empty", "zeros", "ones", "full", "arange", "tensor", "empty_strided", "randn", "rand", "randint",
                 "randperm"):
        setattr(torch, name, on_cpu(getattr(torch, name)))
    torch.cuda.device = lambda device=None: contextlib.nullcontext()  # `with torch.cuda.device(x.device):`
    to = torch.Tensor.to

    def to_cpu(self, *args, **kwargs):  # `x.to("cuda")`
        args = tuple("cpu" if isinstance(a, (str, torch.device)) and str(a).startswith("cuda") else a for a in args)
        return to(self, *args, **kwargs)

    torch.Tensor.to = to_cpu


# --- aiter (AMD's kernel library), amd-aiter 0.1.7.post2.dev18: its `aiter/ops/triton` as released -----
def _ops_aiter(torch, arch: str) -> dict:
    _bare_packages(SITE, ("aiter", "aiter.ops", "aiter.ops.triton"))
    import triton.language as tl
    from aiter.ops.triton.utils.types import get_fp8_e4m3_dtype

    fp8 = get_fp8_e4m3_dtype()
    bf16 = torch.bfloat16
    # `aiter.dtypes` is built by the package `__init__` (from its C++ build's chip query): the one name the
    # fp8 quantization wrappers read of it, as that module defines it for the arch
    sys.modules["aiter"].dtypes = types.SimpleNamespace(fp8=fp8)

    def t(*shape, dtype=bf16):
        return torch.zeros(shape, dtype=dtype)

    def gemm_a8w8_blockscale():
        from aiter.ops.triton.gemm_a8w8_blockscale import gemm_a8w8_blockscale as op
        m, n, k = 128, 4096, 7168  # DeepSeek-V3's 128x128 blocks
        op(t(m, k, dtype=fp8), t(n, k, dtype=fp8), t(m, k // 128, dtype=torch.float32),
           t(n // 128, k // 128, dtype=torch.float32))

    def gemm_a16w16():
        from aiter.ops.triton.gemm_a16w16 import gemm_a16w16 as op
        op(t(256, 4096), t(4096, 4096))

    def gemm_a8w8():
        from aiter.ops.triton.gemm_a8w8 import gemm_a8w8 as op
        op(t(64, 4096, dtype=fp8), t(2048, 4096, dtype=fp8), t(64, 1, dtype=torch.float32),
           t(1, 2048, dtype=torch.float32), t(2048))

    def rmsnorm():
        from aiter.ops.triton.rmsnorm import rms_norm as op
        op(t(64, 8192), t(8192), 1e-6)

    def rmsnorm_add_dynamicquant():
        from aiter.ops.triton.rmsnorm import rmsnorm2d_fwd_with_add_dynamicquant as op
        op(t(64, 4096, dtype=fp8), t(64, 4096), t(64, 4096), t(64, 4096), t(64, 1, dtype=torch.float32), t(4096),
           1e-6)

    def layer_norm():
        from aiter.ops.triton.norm import layer_norm as op
        op(t(64, 5120), t(5120), t(5120))

    def softmax():
        from aiter.ops.triton.softmax import softmax as op
        op(t(128, 32000))

    def rope():
        from aiter.ops.triton.rope import RotateStyle
        from aiter.ops.triton.rope import rope_cached_positions_fwd as op
        op(t(32, 1, 32, 128), t(4096, 1, 1, 64), t(4096, 1, 1, 64), t(32, 1, dtype=torch.int64),
           RotateStyle.NEOX, True, False)

    def topk():
        from aiter.ops.triton.topk import topk as op
        op(t(64, 256, dtype=torch.float32), 8)

    def quant():
        from aiter.ops.triton.quant import dynamic_per_token_quant_fp8_i8 as op
        op(t(64, 7168, dtype=fp8), t(64, 7168), t(64, 1, dtype=torch.float32))

    def fused_rms_fp8_group_quant():
        from aiter.ops.triton.fused_fp8_quant import fused_rms_fp8_group_quant as op
        op(t(32, 7168), t(7168), 1e-6, group_size=128, dtype_quant=fp8)

    def paged_attention_decode():
        from aiter.ops.triton.pa_decode import paged_attention_decode as op
        seqs, heads, kv_heads, head, block, blocks = 8, 32, 8, 128, 16, 512
        op(t(seqs, heads, head), t(seqs, heads, head), t(blocks, kv_heads, block, head),
           t(blocks, kv_heads, block, head), torch.full((seqs,), 1024, dtype=torch.int32),
           torch.zeros((seqs, 64), dtype=torch.int32), 0.088, 1024, tl.bfloat16,
           torch.ones(1, dtype=torch.float32), torch.ones(1, dtype=torch.float32))

    def mla_decode_rope():
        from aiter.ops.triton.mla_decode_rope import decode_attention_fwd_grouped_rope as op
        b, h, lora, rope_dim, tokens, splits = 4, 16, 512, 64, 4096, 8
        op(t(b, h, lora + rope_dim), t(tokens, 1, lora + rope_dim), t(tokens, 1, lora), t(b, h, lora),
           torch.arange(0, (b + 1) * 1024, 1024, dtype=torch.int32), torch.arange(tokens, dtype=torch.int32),
           None, lora, rope_dim, t(4096, rope_dim), torch.zeros(b, dtype=torch.int64),
           t(b, h, splits, lora + 1, dtype=torch.float32), splits, 0.1, use_rope=False)

    def unified_attention():
        from aiter.ops.triton.unified_attention import unified_attention as op
        seqs, q_len, heads, kv_heads, head, block, blocks = 4, 1, 32, 8, 128, 16, 256
        op(t(seqs * q_len, heads, head), t(blocks, block, kv_heads, head), t(blocks, block, kv_heads, head),
           t(seqs * q_len, heads, head), torch.arange(0, seqs + 1, dtype=torch.int32), q_len,
           torch.full((seqs,), 1000, dtype=torch.int32), 1000, 0.088, True, (-1, -1),
           torch.zeros((seqs, 64), dtype=torch.int32), 0.0, None, None, None)

    def fused_moe():
        from aiter.ops.triton.moe_op import fused_moe as op
        tokens, experts, top_k, hidden, inter, block = 64, 8, 2, 4096, 1024, 64
        padded = tokens * top_k + experts * (block - 1)
        op(t(tokens, hidden), t(experts, 2 * inter, hidden), t(tokens, top_k, 2 * inter), None, None, None,
           t(tokens, top_k, dtype=torch.float32), torch.zeros((tokens, top_k), dtype=torch.int32),
           torch.zeros(padded, dtype=torch.int32), torch.zeros(padded // block, dtype=torch.int32),
           torch.tensor([padded], dtype=torch.int32), False, top_k, tl.bfloat16, False, False, False,
           config={"BLOCK_SIZE_M": block, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 4})

    def gemm_afp4wfp4():
        from aiter.ops.triton.gemm_afp4wfp4 import gemm_afp4wfp4 as op
        m, n, k = 64, 4096, 4096
        op(t(m, k // 2, dtype=torch.uint8), t(n, k // 2, dtype=torch.uint8), t(m, k // 32, dtype=torch.uint8),
           t(n, k // 32, dtype=torch.uint8))

    def gluon_gemm_a8w8_blockscale():
        from aiter.ops.triton.gluon.gemm_a8w8_blockscale import gemm_a8w8_blockscale as op
        m, n, k = 128, 4096, 7168
        op(t(m, k, dtype=fp8), t(n, k, dtype=fp8), t(m, k // 128, dtype=torch.float32),
           t(n // 128, k // 128, dtype=torch.float32))

    ops = {f.__name__: f for f in (gemm_a8w8_blockscale, gemm_a16w16, gemm_a8w8, rmsnorm, rmsnorm_add_dynamicquant,
                                   layer_norm, softmax, rope, topk, quant, fused_rms_fp8_group_quant,
                                   paged_attention_decode, mla_decode_rope, unified_attention,
                                   fused_moe)}
    if arch == "gfx950":
        ops.update({f.__name__: f for f in (gemm_afp4wfp4, gluon_gemm_a8w8_blockscale)})
    return ops


# --- SageAttention 1.0.6 (thu-ml): int8 QK per-block quantized attention, fp16 PV; its wheel as released ----
def _ops_sageattention(torch, arch: str) -> dict:
    _bare_packages(SITE, ("sageattention",))
    f16 = torch.float16
    b, h, kv_h, n, d = 2, 32, 8, 1024, 128  # a Llama-style GQA prefill

    def t(*shape, dtype=f16):
        return torch.zeros(shape, dtype=dtype)

    def attention(d=d, causal=False, layout="HND"):
        if d == 96:
            from sageattention.quant_per_block_hd96 import per_block_int8_hd96 as quant
            mod = "attn_qk_int8_per_block_h96" + ("_causal" if causal else "")
        else:
            from sageattention.quant_per_block import per_block_int8 as quant
            mod = "attn_qk_int8_per_block" + ("_causal" if causal else "")
        forward = __import__(f"sageattention.{mod}", fromlist=["forward"]).forward
        shape_q, shape_k = ((b, h, n, d), (b, kv_h, n, d)) if layout == "HND" else ((b, n, h, d), (b, n, kv_h, d))
        q8, qs, k8, ks = quant(t(*shape_q), t(*shape_k), tensor_layout=layout)
        forward(q8, k8, t(*shape_k), qs, ks, tensor_layout=layout, output_dtype=torch.bfloat16)

    def varlen(causal=False):
        from sageattention.quant_per_block_varlen import per_block_int8 as quant
        mod = "attn_qk_int8_per_block_causal_varlen" if causal else "attn_qk_int8_block_varlen"
        forward = __import__(f"sageattention.{mod}", fromlist=["forward"]).forward
        cu = torch.tensor([0, 300, 1024], dtype=torch.int32)
        q8, qs, k8, ks, cu_qs, cu_ks = quant(t(1024, h, d), t(1024, kv_h, d), cu, cu, 724, 724)
        forward(q8, k8, t(1024, kv_h, d), cu, cu, 724, qs, ks, cu_qs, cu_ks, output_dtype=torch.bfloat16)

    ops = {"attn_hnd": lambda: attention(), "attn_causal_nhd": lambda: attention(causal=True, layout="NHD"),
           "attn_hd96": lambda: attention(d=96), "attn_hd96_causal": lambda: attention(d=96, causal=True),
           "attn_varlen": lambda: varlen(), "attn_varlen_causal": lambda: varlen(causal=True)}
    return ops


# --- Transformer Engine 2.20.2 (NVIDIA): its Triton MoE permutation, cross entropy and padding kernels ------
def _ops_transformer_engine(torch, arch: str) -> dict:
    _bare_packages(SITE, ("transformer_engine", "transformer_engine.common", "transformer_engine.common.triton",
                          "transformer_engine.pytorch", "transformer_engine.pytorch.triton"))
    bf16 = torch.bfloat16
    tokens, experts, top_k, hidden = 4096, 64, 8, 4096  # a 64-expert top-8 MoE layer

    def t(*shape, dtype=bf16):
        return torch.zeros(shape, dtype=dtype)

    def permutation():
        from transformer_engine.pytorch.triton import permutation as p
        routing = torch.zeros((tokens, experts), dtype=torch.bool)
        routing[:, :top_k] = True
        row_id_map = p.make_row_id_map(routing, tokens, experts)
        out_tokens = tokens * top_k
        p.permute_with_mask_map(t(tokens, hidden), row_id_map, t(tokens, experts, dtype=torch.float32), None,
                                None, tokens, experts, out_tokens, hidden, 0)
        p.unpermute_with_mask_map(t(out_tokens, hidden), row_id_map, t(tokens, experts), None, None, tokens,
                                  experts, hidden)
        p.unpermute_with_mask_map_bwd_with_merging_probs(
            t(tokens, hidden), row_id_map, t(out_tokens, hidden), t(tokens, experts), None, tokens, experts,
            out_tokens, hidden)

    def chunk_sort():
        from transformer_engine.pytorch.triton import permutation as p
        splits = 16
        row_id_map = p.make_chunk_sort_map(torch.full((splits,), tokens // splits, dtype=torch.int32),
                                           torch.arange(splits, dtype=torch.int32), tokens, splits)
        p.sort_chunks_by_map(t(tokens, hidden), row_id_map, t(tokens, dtype=torch.float32), tokens, hidden, True)

    def cross_entropy():
        from transformer_engine.pytorch.triton import cross_entropy as ce
        b, s, v = 2, 1024, 128256  # Llama 3's vocabulary
        loss, saved, stats, n = ce.cross_entropy_forward(t(b, s, v), torch.zeros((b, s), dtype=torch.int64), 0.1,
                                                          False, None, -100, False)[:4]
        ce.cross_entropy_backward(saved, stats, torch.zeros((b, s), dtype=torch.int64), n, t(b * s), 0.1, False, 0,
                                  1, -100)

    def pad():
        from transformer_engine.pytorch.triton.pad import pad_columnwise_scale_inv
        pad_columnwise_scale_inv(t(1000, 30, dtype=torch.uint8))

    def grouped_dbias_dscales():
        from transformer_engine.pytorch.triton.grouped_dbias_dscales import compute_grouped_dbias_dscales as op
        groups = 8
        op(t(tokens, hidden), t(tokens, dtype=torch.float32), t(groups, hidden),
           torch.arange(0, tokens + 1, tokens // groups, dtype=torch.int64))

    return {f.__name__: f for f in (permutation, chunk_sort, cross_entropy, pad, grouped_dbias_dscales)}


# --- GPTQModel 7.7.0 (ModelCloud): packed 4-bit GPTQ and AWQ weights, dequantized in Triton matmuls; a Gluon
# fp8 mma_v2 GEMM. --site: the sdist's folder (gptqmodel-7.7.0), which holds the package -------------------
def _ops_gptqmodel(torch, arch: str) -> dict:
    import logging

    _bare_packages(SITE, ("gptqmodel", "gptqmodel.nn_modules", "gptqmodel.nn_modules.triton_utils",
                          "gptqmodel.nn_modules.qlinear", "gptqmodel.quantization", "gptqmodel.quantization.awq",
                          "gptqmodel.quantization.awq.modules", "gptqmodel.quantization.awq.modules.triton",
                          "gptqmodel.utils"))
    # the two helpers its Triton files import from `gptqmodel.utils` (whose own imports need pcre and logbar)
    sys.modules["gptqmodel.utils.logger"] = types.SimpleNamespace(setup_logger=lambda *a, **k: logging.getLogger())
    sys.modules["gptqmodel.utils.torch"] = types.SimpleNamespace(HAS_XPU=False)
    f16 = torch.float16
    k, n, group = 4096, 4096, 128  # a Llama 7B projection, 4-bit, group size 128

    def t(*shape, dtype=f16):
        return torch.zeros(shape, dtype=dtype)

    def packed():  # qweight [K/8, N] int32, scales [K/g, N], qzeros [K/g, N/8] int32, g_idx [K]
        return (t(k // 8, n, dtype=torch.int32), t(k // group, n), t(k // group, n // 8, dtype=torch.int32),
                torch.arange(k, dtype=torch.int32) // group)

    def quant_matmul_248():
        from gptqmodel.nn_modules.triton_utils import kernels
        kernels.quant_matmul_248(t(64, k), *packed(), 4, 15)
        kernels.transpose_quant_matmul_248(t(64, n), *packed(), 4, 15)

    def dequant():
        from gptqmodel.nn_modules.triton_utils.dequant import dequant as op
        op(f16, *packed(), 4, 32, 15)

    def gptq_gemm_small_m():
        from gptqmodel.nn_modules.triton_utils.gptq_gemm import gptq_gemm as op
        op(t(8, k), *packed())

    def gptq_gemv():
        from gptqmodel.nn_modules.triton_utils.gptq_gemv import gptq_gemv as op
        op(t(1, k), *packed())

    def awq_gemm():
        from gptqmodel.quantization.awq.modules.triton import gemm
        qweight, scales, qzeros = t(k, n // 8, dtype=torch.int32), t(k // group, n), t(k // group, n // 8,
                                                                                         dtype=torch.int32)
        gemm.awq_gemm_triton(t(64, k), qweight, scales, qzeros, 8)
        gemm.awq_dequantize_triton(qweight, scales, qzeros)

    def w4a_fp8_gluon():
        from gptqmodel.nn_modules.qlinear import w4a_triton as w
        rows = 64
        q, row_scale = t(rows, k, dtype=torch.float8_e4m3fn), t(rows, dtype=torch.float32)
        w._token_fp8_quant[(rows,)](t(rows, k), q, row_scale, k, k, num_warps=4)
        w._grouped_fp8_gemm[(rows // 16, n // 64)](q, t(k, n, dtype=torch.float8_e4m3fn), t(k // 128, n), row_scale,
                                                   None, t(rows, n), rows, n, k, False, 16, 64, num_warps=4)

    ops = {f.__name__: f for f in (quant_matmul_248, dequant, gptq_gemm_small_m, gptq_gemv, awq_gemm)}
    if arch.isdigit() and int(arch) >= 89:
        ops["w4a_fp8_gluon"] = w4a_fp8_gluon
    return ops


# --- torchtitan 0.3.0 (Meta): fused MLA RoPE, fused SwiGLU, and the expert-parallel kernels that write into
# peers' memory through pointers loaded from a tensor (MinimalAsyncEP) -----------------------------------------
def _ops_torchtitan(torch, arch: str) -> dict:
    bf16 = torch.bfloat16
    b, s, heads, nope, rope, v = 2, 1024, 16, 128, 64, 128  # DeepSeek-V3's MLA, 128 heads over 8 TP ranks
    tokens, experts, ep, top_k, hidden = 4096, 64, 8, 8, 4096  # a 64-expert top-8 MoE over 8 ranks

    def t(*shape, dtype=bf16):
        return torch.zeros(shape, dtype=dtype)

    def mla():  # the ops' own bodies: their custom_op registration is for CUDA tensors only
        from torchtitan.overrides import fused_mla as m
        cache = t(4096, rope // 2, 2, dtype=torch.float32)
        positions = torch.arange(s, dtype=torch.int32).unsqueeze(0).expand(b, -1).contiguous()
        m._fused_mla_q_rope_op._init_fn(t(b, s, heads, nope + rope), cache, positions, nope, False)
        m._fused_mla_k_rope_op._init_fn(t(b, s, heads, nope + v), t(b, s, rope), cache, positions, nope)
        m._fused_mla_kv_backward_op._init_fn(t(b, s, heads, nope + rope), t(b, s, heads, v), cache, positions,
                                             nope, rope)

    def swiglu(grouped=False):
        from torchtitan.overrides import fused_swiglu as f
        rows, cols = tokens * top_k // ep, 1408  # one rank's routed rows, a DeepSeek expert's width
        offsets = torch.arange(1, experts // ep + 1, dtype=torch.int32) * (rows // (experts // ep)) \
            if grouped else None
        f.silu_and_mul_forward_kernel(t(rows, cols), t(rows, cols), offsets)
        f.silu_and_mul_backward_kernel(t(rows, cols), t(rows, cols), t(rows, cols), offsets)

    def expert_parallel():  # (valid indices and real peer buffers: launched for real, every address is in bounds)
        from torchtitan.distributed.minimal_async_ep import kernels as k
        i64 = torch.int64
        routed = 512 * top_k  # one rank's 512 tokens
        counts = torch.zeros(experts, dtype=i64)
        peers = [t(ep, experts, dtype=i64) for _ in range(ep)]
        k.copy_full_counts_to_peers_kernel(counts, peers, rank=1, ep_size=ep, num_experts=experts,
                                           dst_ptrs=torch.tensor([d.data_ptr() for d in peers], dtype=i64))
        k.fill_dispatch_metadata_kernel(counts, counts, counts, num_routed_tokens=routed,
                                        num_local_experts=experts // ep, max_tokens_per_segment=512)
        rows = torch.arange(routed, dtype=i64)
        buffers = [t(routed, hidden) for _ in range(ep)]
        k.copy_rows_to_peers_kernel(t(routed, hidden), buffers, rows % ep, rows, ep_size=ep, num_rows=routed,
                                    num_cols=hidden, dst_ptrs=torch.tensor([b.data_ptr() for b in buffers], dtype=i64),
                                    src_rows=rows, num_valid_rows=torch.tensor([routed], dtype=i64))
        k.fill_combine_metadata_kernel(counts, counts, t(ep, experts, dtype=i64), ep_rank=1, ep_size=ep,
                                       num_local_experts=experts // ep, receive_capacity=routed,
                                       max_tokens_per_segment=512)
        slot_to_row = k.invert_flat_indices_kernel(rows, num_rows=routed)
        scores = torch.zeros(routed, dtype=torch.float32)
        k.reduce_topk_slots_kernel(t(routed, hidden), slot_to_row, scores, num_tokens=routed // top_k, top_k=top_k,
                                   scores_are_slot_ordered=True)
        k.expand_topk_grad_kernel(t(routed // top_k, hidden), rows, scores, top_k=top_k, dtype=bf16)
        k.topk_scores_grad_kernel(t(routed, hidden), t(routed // top_k, hidden), rows, top_k=top_k,
                                  dtype=torch.float32)

    return {"fused_mla": mla, "fused_swiglu": swiglu, "fused_swiglu_grouped": lambda: swiglu(grouped=True),
            "expert_parallel": expert_parallel}


# --- MInference 0.1.6.0 (Microsoft): dynamic sparse attention (vertical-slash, block-sparse, FlexPrefill,
# XAttention, StreamingLLM) and KIVI's 2-bit packed KV cache ------------------------------------------------
def _ops_minference(torch, arch: str) -> dict:
    _bare_packages(SITE, ("minference", "minference.ops", "minference.modules"))

    def unavailable(name):
        def call(*args, **kwargs):
            raise RuntimeError(f"{name} is a compiled extension or another library: not part of this recording")
        return call

    # Imports that the recorded kernels and their wrappers never call, each a name of its own module:
    # vertical-slash attention's index builder is MInference's CUDA extension (the op below builds its
    # indices itself), and KIVI imports transformers' `Cache` and `repeat_kv` for its cache class only.
    cuda_ext = types.ModuleType("minference.cuda")
    cuda_ext.convert_vertical_slash_indexes = unavailable("minference.cuda.convert_vertical_slash_indexes")
    sys.modules["minference.cuda"] = cuda_ext
    for name, attrs in (("transformers", {}), ("transformers.models", {}), ("transformers.models.llama", {}),
                        ("transformers.models.llama.modeling_llama",
                         {"Cache": object, "repeat_kv": unavailable("transformers' repeat_kv")}),
                        ("transformers.utils", {}),
                        ("transformers.utils.import_utils", {"_is_package_available": lambda name: False})):
        if name not in sys.modules:
            module = types.ModuleType(name)
            module.__dict__.update(attrs)
            sys.modules[name] = module
    f16, bf16, i32 = torch.float16, torch.bfloat16, torch.int32
    b, h, kv_h, n, d = 1, 32, 8, 4096, 128  # Llama-3-8B, a 4K-token prefill
    block = 64
    blocks = n // block

    def t(*shape, dtype=f16):
        return torch.zeros(shape, dtype=dtype)

    def vertical_slash():
        from minference.ops.pit_sparse_flash_attention_v2 import _triton_mixed_sparse_attention
        nnz_s, nnz_v = 64, 1024  # what convert_vertical_slash_indexes returns for 64 slashes and 1,000 verticals
        _triton_mixed_sparse_attention(t(b, h, n, d), t(b, h, n, d), t(b, h, n, d), torch.tensor([n], dtype=i32),
                                       t(b, h, blocks, dtype=i32), t(b, h, blocks, nnz_s, dtype=i32),
                                       t(b, h, blocks, dtype=i32), t(b, h, blocks, nnz_v, dtype=i32), d ** -0.5)

    def block_sparse():
        from minference.ops.block_sparse_flash_attention import block_sparse_attention
        block_sparse_attention(t(b, h, n, d), t(b, h, n, d), t(b, h, n, d), top_k=16)

    def streaming():
        from minference.ops.streaming_kernel import streaming_forward
        streaming_forward(t(b, h, n, d), t(b, h, n, d), t(b, h, n, d), n_init=128, n_local=1024)

    def xattention():
        from minference.ops import xattention_fa as x
        stride, chunk = 8, n
        x.flat_group_gemm_fuse_reshape(t(b, h, n, d), t(b, h, n, d), stride, 0, chunk)
        scores = t(b, h, n // stride, n // stride)
        x.softmax_fuse_block_sum(scores, 128 // stride, 1024 // stride, 0, chunk // stride, n // stride, 0.1)
        x.flat_group_gemm(t(b, h, 256, d), t(b, h, n, d), 0, 256)

    def flexprefill():
        from minference.modules import flexprefill as fp
        q, k = t(b, n, h, d, dtype=bf16), t(b, n, kv_h, d, dtype=bf16)
        size = 128
        grid = n // size
        rows = torch.arange(grid, dtype=torch.int64)
        active = (rows * grid + rows).repeat(b, h, 1)  # the diagonal blocks of the flattened grid
        fp.triton_block_wise_prefill_attention(q, k, k, active, size)
        fp.triton_column_count_cumsum(active, grid)
        fp.triton_bnhd_pool(q, size, "avg")
        fp.triton_bhn_sumpool(t(b, h, n, dtype=torch.float32), size)
        # (its decode attention is left out: the wrapper passes BLOCK_SIZE_Q twice, no Triton launches it)

    def kivi():
        from minference.modules import kivi as kv
        bits, group = 2, 64
        tokens = 1024
        kv.triton_quantize_and_pack_along_last_dim(t(b, kv_h, d, tokens), group, bits)  # keys, per channel
        per_int = 32 // bits
        kv.triton_bmm_fA_qB_outer(group, t(b, kv_h, 1, d), t(b, kv_h, d, tokens // per_int, dtype=i32),
                                  t(b, kv_h, d, tokens // group), t(b, kv_h, d, tokens // group), bits)

    return {"vertical_slash": vertical_slash, "block_sparse": block_sparse, "streaming": streaming,
            "xattention": xattention, "flexprefill": flexprefill, "kivi": kivi}


# --- gpt-oss 0.0.9 (OpenAI): its Triton attention, FlashAttention with learned sinks and a banded window, on
# host-built tensor descriptors (its MoE needs Triton's own `triton_kernels`, which PyPI does not carry) -------
def _ops_gpt_oss(torch, arch: str) -> dict:
    bf16 = torch.bfloat16
    tokens, kv_heads, per_kv, d = 1024, 8, 8, 64  # gpt-oss-120b: 64 query heads over 8 KV heads, head dim 64

    def attention(window: int):
        from gpt_oss.triton.attention import _attention
        q = torch.zeros((1, tokens, kv_heads, per_kv, d), dtype=bf16)
        k = torch.zeros((1, tokens, kv_heads, d), dtype=bf16)
        sinks = torch.zeros(kv_heads * per_kv, dtype=torch.float32)
        _attention.apply(q, k, k.clone(), sinks, 0.125, window, torch.tensor([0], dtype=torch.int32))

    return {"attention": lambda: attention(0), "attention_banded": lambda: attention(128)}


# --- Megatron-Core 0.19.2 (NVIDIA): its NVLink-multicast collectives for inference, whose memory accesses
# are PTX in inline asm (`multimem.ld_reduce`, `multimem.st`, `atom.global...cas` signals) ----------------------
def _ops_megatron(torch, arch: str) -> dict:
    pkg = "megatron.core.inference.communication.torch_symm_triton"
    _bare_packages(SITE, ("megatron", "megatron.core", "megatron.core.inference",
                          "megatron.core.inference.communication", pkg))
    # `megatron.core.utils` (a module that needs the whole package set up) gives these files one name, used
    # only where Triton is missing
    utils = types.ModuleType("megatron.core.utils")
    utils.null_decorator = lambda f=None, *a, **k: f
    sys.modules["megatron.core.utils"] = utils
    bf16 = torch.bfloat16
    world, hidden, tokens = 8, 8192, 64  # one decode step of 64 tokens, TP over 8 GPUs
    # a symmetric-memory handle is what torch's NVLS rendezvous returns: the kernels take its numbers only
    handle = types.SimpleNamespace(multicast_ptr=1 << 40, signal_pad_ptrs_dev=1 << 41, rank=1, world_size=world)

    def collective(name: str):
        # the wrappers' own launches (`_kernel_launch_config`, the same arguments), without their check that
        # the tensors live on a Hopper GPU
        c = __import__(f"{pkg}.collectives", fromlist=["collectives"])
        for f32 in (False, True):
            dtype = torch.float32 if f32 else bf16
            x = torch.zeros(tokens * hidden // world, dtype=dtype)
            per_thread, blocks, config = c._kernel_launch_config(x.element_size(), tokens * hidden, world)
            common = dict(BLOCK_SIZE=config["BLOCK_SIZE"], NUMEL_PER_THREAD=per_thread, RANK=handle.rank,
                          WORLD_SIZE=world, num_warps=config["num_warps"])
            if name == "reduce_scatter":
                c._multimem_reduce_scatter_kernel[(blocks, 1, 1)](
                    x.data_ptr(), handle.multicast_ptr, handle.signal_pad_ptrs_dev, numel=tokens * hidden,
                    REDUCE_F32=f32, **common)
            elif not f32:  # (all-gather moves 128-bit packs whatever the type: one kernel)
                c._multimem_all_gather_kernel[(blocks, 1, 1)](
                    x.data_ptr(), handle.multicast_ptr, handle.signal_pad_ptrs_dev, numel=tokens * hidden,
                    byte_offset=0, **common)

    def fused_norm():
        from megatron.core.inference.communication.torch_symm_triton import fused_collectives as f
        x = torch.zeros((tokens, hidden), dtype=bf16)
        f.fused_multimem_rs_add_norm_ag(torch.zeros((tokens // world, hidden), dtype=bf16), x, handle,
                                        torch.zeros((tokens // world, hidden), dtype=bf16),
                                        torch.zeros(hidden, dtype=bf16), 1e-5)

    ops = {"reduce_scatter": lambda: collective("reduce_scatter"), "all_gather": lambda: collective("all_gather"),
           "fused_rs_add_norm_ag": fused_norm}
    return ops if arch.isdigit() and int(arch) >= 90 else {}  # (NVLink multicast: Hopper and later)


# --- Conch 1.3 (Stack AV): Triton kernels for vLLM and for perception (NMS, BEV pooling and point-cloud
# voxelization, with their atomics and scatters), bitsandbytes-style blockwise quantization ---------------------
def _ops_conch(torch, arch: str) -> dict:
    f32, bf16 = torch.float32, torch.bfloat16
    tokens, hidden = 512, 4096

    def t(*shape, dtype=bf16):
        return torch.zeros(shape, dtype=dtype)

    def vision():
        from conch.ops.vision.bev_pool import bev_pool, bev_pool_backward
        from conch.ops.vision.nms import nms
        from conch.ops.vision.voxelization import VoxelizationParameter, generate_voxels
        boxes = torch.rand(1000, 4) * 100
        boxes[:, 2:] += boxes[:, :2]  # x2 > x1, y2 > y1
        nms(boxes, torch.rand(1000), 0.5)
        points, intervals, channels = 20000, 4000, 80  # BEVFusion: camera features pooled into a 180x180 grid
        geom = torch.zeros((points, 4), dtype=torch.int32)
        starts = torch.arange(intervals, dtype=torch.int32) * (points // intervals)
        lengths = torch.full((intervals,), points // intervals, dtype=torch.int32)
        out = bev_pool(t(points, channels, dtype=f32), geom, starts, lengths, 1, 1, 180, 180)
        bev_pool_backward(out, geom, starts, lengths)
        param = VoxelizationParameter((-50.0, -50.0, -5.0), (50.0, 50.0, 3.0), (0.5, 0.5, 8.0), 32)
        generate_voxels(torch.rand(30000, 4) * 40, param)

    def quantization():
        from conch.ops.quantization.bitsandbytes.functional import dequantize_blockwise, quantize_4bit
        from conch.ops.quantization.int8 import scaled_int8_quant
        for kind in ("fp4", "nf4"):
            packed, state = quantize_4bit(t(hidden * hidden), blocksize=64, quant_type=kind)  # (flat, as it packs)
            dequantize_blockwise(packed, state, quant_type=kind, blocksize=64)
        scaled_int8_quant(t(tokens, hidden), torch.ones(1, dtype=f32))  # (static: its dynamic one is not written)

    def layers():
        from conch.ops.activation.silu_and_mul import silu_and_mul
        from conch.ops.normalization.rms_norm import fused_add_rms_norm, rms_norm
        silu_and_mul(t(tokens, 2 * 14336))
        rms_norm(t(tokens, hidden), t(hidden), 1e-6)
        fused_add_rms_norm(t(tokens, hidden), t(tokens, hidden), t(hidden), 1e-6)

    return {"vision": vision, "quantization": quantization, "layers": layers}


# --- flash-attn 2.8.3.post2: its Triton ops for NVIDIA and AMD (`flash_attn/ops/triton`): the fused
# LayerNorm/RMSNorm with residual, dropout and a second branch (forward and backward), rotary embedding,
# cross entropy ---------------------------------------------------------------------------------------------
def _ops_flash_attn(torch, arch: str) -> dict:
    _bare_packages(SITE, ("flash_attn", "flash_attn.ops", "flash_attn.ops.triton", "flash_attn.utils"))
    bf16 = torch.bfloat16
    tokens, hidden, heads, d = 4096, 4096, 32, 128

    def t(*shape, dtype=bf16, grad=False):
        return torch.zeros(shape, dtype=dtype, requires_grad=grad)

    def norm(rms: bool):
        from flash_attn.ops.triton.layer_norm import layer_norm_fn
        x, w = t(tokens, hidden, grad=True), t(hidden, grad=True)
        b = None if rms else t(hidden, grad=True)
        out = layer_norm_fn(x, w, b, residual=t(tokens, hidden, grad=True), eps=1e-5, prenorm=False,
                            residual_in_fp32=True, is_rms_norm=rms)
        out.sum().backward()

    def rotary():
        from flash_attn.ops.triton.rotary import apply_rotary
        cos = sin = t(tokens, d // 2)
        apply_rotary(t(2, tokens, heads, d), cos, sin)
        apply_rotary(t(2, tokens, heads, d), cos, sin, interleaved=True)
        apply_rotary(t(2 * tokens, heads, d), cos, sin, cu_seqlens=torch.tensor([0, tokens, 2 * tokens],
                     dtype=torch.int32), max_seqlen=tokens)

    def cross_entropy():
        from flash_attn.ops.triton.cross_entropy import CrossEntropyLoss
        logits = t(tokens, 128256, dtype=torch.float32, grad=True)
        loss, _ = CrossEntropyLoss.apply(logits, torch.zeros(tokens, dtype=torch.int64), None, 0.1)
        loss.sum().backward()

    return {"layer_norm": lambda: norm(False), "rms_norm": lambda: norm(True), "rotary": rotary,
            "cross_entropy": cross_entropy}


# --- Liger-Kernel 0.8.5 (LinkedIn): its Triton ops, forward and backward: RMSNorm, group norm, DyT,
# PolyNorm, sparsemax, the fused grouped-GEMM MoE and fused neighborhood attention -------------------------
def _ops_liger(torch, arch: str) -> dict:
    bf16 = torch.bfloat16
    tokens, hidden = 4096, 4096

    def t(*shape, dtype=bf16):
        return torch.zeros(shape, dtype=dtype, requires_grad=dtype.is_floating_point)

    def run(fn, *args):
        out = fn.apply(*args)
        (out[0] if isinstance(out, tuple) else out).float().sum().backward()

    def norms():
        from liger_kernel.ops.dyt import LigerDyTFunction
        from liger_kernel.ops.group_norm import LigerGroupNormFunction
        from liger_kernel.ops.poly_norm import LigerPolyNormFunction
        from liger_kernel.ops.rms_norm import LigerRMSNormFunction
        run(LigerRMSNormFunction, t(tokens, hidden), t(hidden), 1e-6, 0.0, "llama", False)
        run(LigerGroupNormFunction, t(8, 256, 1024), t(256), t(256), 256, 32, 1e-6)
        run(LigerDyTFunction, t(tokens, hidden), t(1), t(hidden), t(hidden))
        run(LigerPolyNormFunction, t(tokens, hidden), t(3), t(), 1e-6, False)

    def sparsemax():
        from liger_kernel.ops.sparsemax import LigerSparsemaxFunction
        run(LigerSparsemaxFunction, t(tokens, 1024, dtype=torch.float32), -1)

    def moe():  # Qwen3-30B-A3B's shape: 128 experts, top-8, 768-wide experts
        from liger_kernel.ops.fused_moe import LigerFusedMoEFunction
        experts, k, inter, h = 128, 8, 768, 2048
        index = torch.randint(0, experts, (512, k), dtype=torch.int32)
        run(LigerFusedMoEFunction, t(512, h), t(experts, 2 * inter, h), t(experts, h, inter), index,
            t(512, k, dtype=torch.float32))

    def neighborhood():
        from liger_kernel.ops.fused_neighborhood_attention import LigerFusedNeighborhoodAttentionFunction
        run(LigerFusedNeighborhoodAttentionFunction, t(2, 8, 1024, 64), t(2, 8, 1024, 64), t(2, 8, 1024, 64), 7, 1)

    return {"norms": norms, "sparsemax": sparsemax, "fused_moe": moe, "neighborhood_attention": neighborhood}


# --- OpenAI's triton_kernels (the MoE matmul, MX formats, SwiGLU of gpt-oss), as upstream Triton's
# `python/triton_kernels` (--site): its own matmul test driver, every case of its table, persistent or not ------
def _ops_triton_kernels(torch, arch: str) -> dict:
    import itertools

    import pytest
    import tests.test_matmul as tm  # (the site holds `tests/` beside `triton_kernels/`)

    def matmul():
        names = [f.name for f in tm.fields(tm.Case)]
        outcomes: dict = {}
        for case, persistent in itertools.product(tm._build_test_op_cases(), (False, True)):
            kw = {n: getattr(case, n) for n in names}
            try:
                tm._test_op(split_k=kw.pop("split_k"), do_gather=False, do_scatter=False, inner_expt_opt=None,
                            do_gamma=False, is_persistent=persistent, num_warps=None, block_m=128, device="cuda",
                            opt_flags_scope=None, **kw)
                outcome = "compared"
            except pytest.skip.Exception:
                outcome = "skipped by the test"
            except AssertionError:  # (its comparison of results no kernel computed: they were compiled)
                outcome = "compiled"
            finally:
                tm.opt_flags.reset_opt_flags_constraints()
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        print(f"triton_kernels matmul cases: {outcomes}", file=sys.stderr)

    return {"matmul": matmul}


LIBS = {"aiter": _ops_aiter, "conch": _ops_conch, "flash_attn": _ops_flash_attn, "gpt_oss": _ops_gpt_oss,
        "gptqmodel": _ops_gptqmodel, "liger": _ops_liger, "megatron": _ops_megatron, "minference": _ops_minference,
        "sageattention": _ops_sageattention, "torchtitan": _ops_torchtitan, "triton_kernels": _ops_triton_kernels,
        "transformer_engine": _ops_transformer_engine}
SITE = ""


def _child(lib: str, target: str, only: list[str]) -> dict:
    import torch

    if target == "gpu":  # launched for real: the library's tensors on the GPU, its autotuner benchmarking
        torch.set_default_device("cuda")
        major, minor = torch.cuda.get_device_capability()
        arch = torch.cuda.get_device_properties(0).gcnArchName.split(":")[0] if torch.version.hip \
            else f"{major}{minor}"
    else:
        backend, arch = target.split(":")
        _install_driver(backend, arch)
    ops = LIBS[lib](torch, arch)
    done, failed = [], {}
    for name, op in ops.items():
        if only and name not in only:
            continue
        try:
            op()
            done.append(name)
        except Exception as e:  # noqa: BLE001 - listed, the recording goes on
            failed[name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            if os.environ.get("RECORD_DEBUG"):
                traceback.print_exc()
    return {"done": done, "failed": failed}


def main() -> None:
    global SITE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--site", required=True, help="folder holding the library's package")
    ap.add_argument("--target", action="append", required=True,
                    help="hip:gfx942, hip:gfx950, cuda:90, ...; `gpu`: launch on this machine's GPU for real")
    ap.add_argument("--lib", default="aiter", choices=sorted(LIBS))
    ap.add_argument("--only", action="append", default=[], help="only this op (repeatable)")
    ap.add_argument("--python", default=sys.executable,
                    help="the interpreter compiling (a venv of another Triton release; default: this one)")
    ap.add_argument("--extra-path", action="append", default=[],
                    help="folders appended to its sys.path (torch's site-packages, where the venv has no torch)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    SITE = os.path.abspath(args.site)
    sys.path.insert(0, SITE)
    sys.path.extend(args.extra_path)
    if args.child:
        print(json.dumps(_child(args.lib, args.target[0], args.only)))
        return
    for target in args.target:
        cache = os.path.abspath(os.path.join(args.out, f"{args.lib}-{target.replace(':', '-')}"))
        os.makedirs(cache, exist_ok=True)
        env = {**os.environ, "TRITON_CACHE_DIR": cache}
        cmd = [args.python, __file__, cache, "--site", SITE, "--target", target, "--lib", args.lib, "--child"]
        cmd += [a for p in args.extra_path for a in ("--extra-path", p)]
        cmd += [a for o in args.only for a in ("--only", o)]
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        lines = r.stdout.strip().splitlines()
        if r.returncode != 0 or not lines:
            print(f"{target}: the recording process failed ({r.returncode}):\n{r.stderr[-3000:]}")
            continue
        result = json.loads(lines[-1])
        print(f"{target}: {len(result['done'])} ops recorded into {cache}")
        for name, error in result["failed"].items():
            print(f"  {name}: {error}")


if __name__ == "__main__":
    main()
