"""Record, on a GPU machine, what torch.compile leaves behind for one small model (issue 20), forward and
backward, autotuning on: the Triton cache, Inductor's cache (kernel sources and the wrapper "output code"
with its `# kernel path:` / `# Topologically Sorted Source Nodes:` / `# Original ATen:` comments), and with
TORCH_COMPILE_DEBUG=1 the debug directory (readable FX graphs whose nodes name the model's lines); the
`trace` variant sets TORCH_TRACE and INDUCTOR_PROVENANCE=1 instead (tlparse's input: the structured trace,
with each kernel's full stack traces).

    python benchmarks/record_inductor_provenance.py OUT [plain|debug|trace ...] [--model decoder]

writes OUT/<variant>/{triton_cache,inductor_cache[,debug]} and OUT/<variant>/versions.txt. Each variant runs
in a fresh process with caches of its own, so every kernel is compiled (not loaded from a cache).
`--model decoder` compiles `TinyDecoder` (attention and SwiGLU layers, 8 x 512 tokens) instead of
`TinyModel`, with Inductor's persistent TMA matmul templates enabled (Hopper and later). `--model flex`
compiles `FlexDecoder` (FlexAttention with an ALiBi score_mod and a sliding causal block mask: Inductor's
attention templates, forward and backward). `--model dynamic` compiles `TinyModel` with dynamic shapes
(kernels over symbolic sizes, run at two batch sizes), cooperative reductions and combo kernels on.
`--model checkpoint` compiles `CheckpointedModel` (TinyModel's blocks under activation checkpointing: the
backward graph recomputes their forward nodes). `--model breaks` compiles `BrokenModel` (a graph break
between the blocks, run at two input shapes: four graphs and a recompilation). `--model userkernel`
compiles `UserKernelModel` (a hand-written Triton kernel of `provenance_kernels.py` called in the compiled
forward; no backward). `--model subgraphs` compiles `SubgraphModel` (a nested compile region called twice
and a torch.cond: subgraphs inside the graphs). `--model selective_checkpoint` compiles
`SelectiveCheckpointModel` (checkpointing with a policy that saves the matmuls).
TRITONSCOPE_RECORD_MODE sets torch.compile's mode (default max-autotune-no-cudagraphs; `default` skips
autotuning, for a quick run).
"""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = r"""
import os, sys, torch
MODE = os.environ.get("TRITONSCOPE_RECORD_MODE", "max-autotune-no-cudagraphs")
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
import provenance_model
torch.manual_seed(0)
if sys.argv[3] == "decoder":
    import torch._inductor.config as inductor_config
    inductor_config.triton.enable_persistent_tma_matmul = True
    model = provenance_model.TinyDecoder().cuda().to(torch.bfloat16)
    x = torch.randn(8, 512, 512, device="cuda", dtype=torch.bfloat16, requires_grad=True)
elif sys.argv[3] == "flex":
    from torch.nn.attention.flex_attention import create_block_mask
    model = provenance_model.FlexDecoder().cuda().to(torch.bfloat16)
    x = torch.randn(4, 1024, 512, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    mask = create_block_mask(provenance_model.sliding_causal, None, None, 1024, 1024, device="cuda")
    compiled = torch.compile(model, mode=MODE)
    loss = compiled(x, mask)
elif sys.argv[3] == "dynamic":
    import torch._inductor.config as inductor_config
    inductor_config.triton.cooperative_reductions = True
    inductor_config.combo_kernels = True
    model = provenance_model.TinyModel().cuda().to(torch.bfloat16)
    compiled = torch.compile(model, dynamic=True)
    for rows in (96, 4000):
        x = torch.randn(rows, 256, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        compiled(x).backward()
    loss = compiled(x)
elif sys.argv[3] == "breaks":
    model = provenance_model.BrokenModel().cuda().to(torch.bfloat16)
    compiled = torch.compile(model, mode=MODE)
    for rows in (64, 96):  # the second shape recompiles (automatic dynamic shapes)
        x = torch.randn(rows, 256, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        compiled(x).backward()
    loss = compiled(x)
elif sys.argv[3] == "userkernel":
    model = provenance_model.UserKernelModel().cuda().to(torch.bfloat16)
    x = torch.randn(64, 256, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        loss = torch.compile(model, mode=MODE)(x)
else:  # models of a 64 x 256 input, compiled and run once below
    name = {"subgraphs": "SubgraphModel", "selective_checkpoint": "SelectiveCheckpointModel",
            "checkpoint": "CheckpointedModel"}.get(sys.argv[3], "TinyModel")
    model = getattr(provenance_model, name)().cuda().to(torch.bfloat16)
    x = torch.randn(64, 256, device="cuda", dtype=torch.bfloat16, requires_grad=True)
if sys.argv[3] not in ("flex", "dynamic", "breaks", "userkernel"):
    compiled = torch.compile(model, mode=MODE)
    loss = compiled(x)
if loss.requires_grad:
    loss.backward()
torch.cuda.synchronize()
import triton
with open(os.path.join(sys.argv[2], "versions.txt"), "w") as f:
    f.write(f"torch {torch.__version__}\ntriton {triton.__version__}\n{torch.cuda.get_device_name()}\n")
print("loss", float(loss))
"""


def record(out: str, variant: str, model: str = "tiny") -> None:
    root = os.path.abspath(os.path.join(out, variant))
    os.makedirs(root, exist_ok=True)
    env = {**os.environ, "TRITON_CACHE_DIR": f"{root}/triton_cache",
           "TORCHINDUCTOR_CACHE_DIR": f"{root}/inductor_cache"}
    if variant == "debug":
        env["TORCH_COMPILE_DEBUG"] = "1"
        env["TORCH_COMPILE_DEBUG_DIR"] = f"{root}/debug"
    elif variant == "trace":  # what tlparse reads: the structured trace, provenance tracking on
        env["TORCH_TRACE"] = f"{root}/trace"
        env["INDUCTOR_PROVENANCE"] = "1"
    model_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "provenance_model.py")
    subprocess.run([sys.executable, "-c", CHILD, model_file, root, model], env=env, check=True)


if __name__ == "__main__":
    args = sys.argv[2:]
    model = "tiny"
    if "--model" in args:
        i = args.index("--model")
        model = args[i + 1]
        del args[i:i + 2]
    for v in args or ["plain", "debug"]:
        record(sys.argv[1], v, model)
        print("recorded", v)
