"""Launch upstream Triton's fused-attention and persistent-matmul tutorials (unmodified files) on this GPU,
their JIT and autotuner compiling into TRITON_CACHE_DIR: forward and backward attention (causal and not,
head dims 64 and 128, fp16), and every matmul flavour the tutorial benchmarks on this GPU (fp16, 2048
cubed). This is a recording aid for test data (tests/data/tutorials-h100-triton3.6), not part of the tool.

    TRITON_CACHE_DIR=OUT python benchmarks/record_tutorials.py DIR

DIR holds `06-fused-attention.py` and `09-persistent-matmul.py` as upstream Triton ships them (its
`python/tutorials/`); the lent machine has no internet: carry them.
"""
import importlib.util
import os
import sys
import traceback

import torch
import triton


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
done, failed = [], []


def attempt(label, fn):
    try:
        fn()
        torch.cuda.synchronize()
        done.append(label)
    except Exception as exc:  # noqa: BLE001
        failed.append(f"{label}: {type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}")
        traceback.print_exc(limit=3)


print("triton", triton.__version__, "torch", torch.__version__, torch.cuda.get_device_name())
try:
    fa = load("fused_attention", os.path.join(here, "06-fused-attention.py"))
    for head in (64, 128):
        for causal in (False, True):
            def run(head=head, causal=causal):
                q, k, v = (torch.randn(2, 8, 1024, head, device="cuda", dtype=torch.float16, requires_grad=True)
                           for _ in range(3))
                o = fa.attention(q, k, v, causal, 0.5, False)
                o.backward(torch.randn_like(o))
            attempt(f"attention d{head} causal={causal}", run)
except Exception:  # noqa: BLE001
    traceback.print_exc()
    failed.append("06 import")
try:
    mm = load("persistent_matmul", os.path.join(here, "09-persistent-matmul.py"))
    a = torch.randn(2048, 2048, device="cuda", dtype=torch.float16)
    b = torch.randn(2048, 2048, device="cuda", dtype=torch.float16).T.contiguous()
    attempt("matmul", lambda: mm.matmul(a, b.T))
    attempt("matmul_persistent", lambda: mm.matmul_persistent(a, b.T))
    for ws in (False, True):  # (the tutorial's own choice: no host-descriptor warp specialization on Hopper)
        if not (ws and mm.is_hopper()):
            attempt(f"matmul_tma ws={ws}", lambda ws=ws: mm.matmul_tma(a, b, ws))
            attempt(f"matmul_tma_persistent ws={ws}", lambda ws=ws: mm.matmul_tma_persistent(a, b, ws))
        attempt(f"matmul_descriptor_persistent ws={ws}", lambda ws=ws: mm.matmul_descriptor_persistent(a, b, ws))
except Exception:  # noqa: BLE001
    traceback.print_exc()
    failed.append("09 import")
print("DONE", done)
print("FAILED", failed)
sys.exit(0)
