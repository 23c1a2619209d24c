"""Record, on a GPU machine, Triton caches of hand-written kernels from libraries this project did not
write: Liger-Kernel (LLM training ops, forward and backward; its MLP uses host TMA descriptors and
wgmma on Hopper), flash-linear-attention (chunked linear attention, forward and backward, with its
TMA path switched on by FLA_USE_TMA=1) and torchao (packed-int4 mixed GEMM, blockwise fp8 quantization
and GEMM, int8 matmul; autotuned). Each library gets its own cache, OUT/<lib>/, and a log of what ran.

The machine is offline: carry the wheels (liger-kernel, flash-linear-attention, fla-core, torchao) and
install them with --no-deps into a --target directory on PYTHONPATH before running

    python benchmarks/record_thirdparty.py OUT [lib ...]

Every op is run in its own try block: a library op that this Triton or torch rejects is logged and
skipped, never fatal. Kernels that autotune compile one cache entry per configuration tried.
"""

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


LIBRARIES = {"liger": _ops_liger, "fla": _ops_fla, "torchao": _ops_torchao}


def record(out: str, libs: list[str]) -> None:
    os.environ.setdefault("FLA_USE_TMA", "1")
    os.environ.setdefault("TORCHAO_AUTOTUNER_ENABLE", "0")
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
