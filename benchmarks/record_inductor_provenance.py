"""Record, on a GPU machine, what torch.compile leaves behind for one small model (issue 20), forward and
backward, autotuning on: the Triton cache, Inductor's cache (kernel sources and the wrapper "output code"
with its `# kernel path:` / `# Topologically Sorted Source Nodes:` / `# Original ATen:` comments), and with
TORCH_COMPILE_DEBUG=1 the debug directory (readable FX graphs whose nodes name the model's lines).

    python benchmarks/record_inductor_provenance.py OUT [plain|debug ...]

writes OUT/<variant>/{triton_cache,inductor_cache[,debug]} and OUT/<variant>/versions.txt. Each variant runs
in a fresh process with caches of its own, so every kernel is compiled (not loaded from a cache).
"""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = r"""
import os, sys, torch
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
from provenance_model import TinyModel
torch.manual_seed(0)
model = TinyModel().cuda().to(torch.bfloat16)
x = torch.randn(64, 256, device="cuda", dtype=torch.bfloat16, requires_grad=True)
compiled = torch.compile(model, mode="max-autotune-no-cudagraphs")
loss = compiled(x)
loss.backward()
torch.cuda.synchronize()
import triton
with open(os.path.join(sys.argv[2], "versions.txt"), "w") as f:
    f.write(f"torch {torch.__version__}\ntriton {triton.__version__}\n{torch.cuda.get_device_name()}\n")
print("loss", float(loss))
"""


def record(out: str, variant: str) -> None:
    root = os.path.abspath(os.path.join(out, variant))
    os.makedirs(root, exist_ok=True)
    env = {**os.environ, "TRITON_CACHE_DIR": f"{root}/triton_cache",
           "TORCHINDUCTOR_CACHE_DIR": f"{root}/inductor_cache"}
    if variant == "debug":
        env["TORCH_COMPILE_DEBUG"] = "1"
        env["TORCH_COMPILE_DEBUG_DIR"] = f"{root}/debug"
    model_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "provenance_model.py")
    subprocess.run([sys.executable, "-c", CHILD, model_file, root], env=env, check=True)


if __name__ == "__main__":
    for v in sys.argv[2:] or ["plain", "debug"]:
        record(sys.argv[1], v)
        print("recorded", v)
