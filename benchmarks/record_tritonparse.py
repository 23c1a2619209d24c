"""Record, on a GPU machine, the same compilations two ways: Triton's cache (for tritonscope) and a
tritonparse trace (for tritonparse's `unified_parse`): tritonscope's JIT samples and an Inductor block
(forward and backward). Run from the repository root:

    pip install tritonparse==0.6.0   # or carry its wheels (and orjson, zstandard) to a machine offline
    python benchmarks/record_tritonparse.py OUT        # writes OUT/triton_cache, OUT/trace, OUT/inductor_cache

then, on any machine, `python benchmarks/tritonparse_pair.py OUT`.
"""

from __future__ import annotations

import os
import sys


def record(out: str) -> None:
    # both caches must be set before triton or torch read them
    os.environ["TRITON_CACHE_DIR"] = f"{out}/triton_cache"
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = f"{out}/inductor_cache"
    import tritonparse.structured_logging as sl

    sl.init(f"{out}/trace", enable_trace_launch=True)
    import torch

    sys.path.insert(0, os.getcwd())
    from tritonscope.compile.launch import run_sample
    from tritonscope.compile.request import KernelRef, sample_package

    for name in sample_package().names():
        print("ran", name, run_sample(KernelRef(sample=name), "cuda"))

    def block(x, w1, w2, ln_w):
        h = torch.nn.functional.layer_norm(x, (x.shape[-1],), ln_w)
        h = torch.nn.functional.gelu(h @ w1)
        h = torch.softmax(h, dim=-1)
        return (h @ w2).sum(dim=0) + x.mean()

    def param(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, device="cuda", requires_grad=True)

    y = torch.compile(block)(param(256, 512), param(512, 1024), param(1024, 512), param(512))
    y.sum().backward()
    torch.cuda.synchronize()
    print("inductor done")


if __name__ == "__main__":
    record(sys.argv[1])
