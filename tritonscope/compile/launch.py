"""`tritonscope compile --run`: launch sample kernels through the JIT with torch tensors and check them
against their torch references, so that the cache holds exactly what a user's program produces.

On a GPU the launch goes to the device; with `interpret=True` the same launch runs on the CPU under
TRITON_INTERPRET=1 (which must be set before triton is imported: the CLI does that).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tritonscope.compile.diagnostics import scratch_tempdir
from tritonscope.compile.driver import KernelRef, sample_launch
from tritonscope.errors import TritonscopeError

_TORCH_DTYPES = {
    "fp16": "float16",
    "bf16": "bfloat16",
    "fp32": "float32",
    "fp64": "float64",
    "i8": "int8",
    "u8": "uint8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "i1": "bool",
}


@dataclass
class OutputCheck:
    name: str
    max_abs_error: float
    ok: bool


@dataclass
class RunCheck:
    label: str
    device: str
    outputs: list[OutputCheck] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(o.ok for o in self.outputs)


def torch_factory(device: str, seed: int = 0) -> Callable[..., Any]:
    """`new(shape, dtype, init)` making real tensors (see sample_kernels/_sample.py)."""
    import torch

    gen = torch.Generator(device="cpu").manual_seed(seed)

    def new(shape, dtype: str, init: str = "randn"):
        tdtype = getattr(torch, _TORCH_DTYPES[dtype])
        if init == "empty":
            return torch.empty(shape, dtype=tdtype, device=device)
        if init == "zeros":
            return torch.zeros(shape, dtype=tdtype, device=device)
        if init == "int32bits":
            t = torch.randint(-(2**31), 2**31 - 1, shape, generator=gen, dtype=torch.int64)
            return t.to(torch.int32).to(device)
        if init == "scales":
            return (torch.rand(shape, generator=gen) * 0.02 + 0.01).to(tdtype).to(device)
        return torch.randn(shape, generator=gen).to(tdtype).to(device)

    return new


def run_sample(
    ref: KernelRef, device: str, sizes: dict | None = None, cache_dir: str | None = None
) -> RunCheck:
    """Launch one sample (or variant) through the JIT and compare every output with the reference."""
    import torch

    if cache_dir:
        os.environ["TRITON_CACHE_DIR"] = str(cache_dir)
    check = RunCheck(ref.label, device)
    start = time.perf_counter()
    try:
        sample, launch = sample_launch(ref, torch_factory(device), sizes)
        with scratch_tempdir():  # the JIT's compile, like `compile`'s, leaves no file behind
            sample.kernel[launch.grid](**launch.args, **launch.options())
        expected = sample.reference(launch.args)
        if device != "cpu":
            torch.cuda.synchronize()
    except Exception as exc:  # noqa: BLE001 - reported per kernel, the others still run
        check.error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1] if str(exc).strip() else ''}"
        check.seconds = time.perf_counter() - start
        return check
    for name in launch.outputs:
        got, want = launch.args[name].float().cpu(), expected[name].float().cpu()
        err = (got - want).abs().max().item() if got.numel() else 0.0
        ok = got.shape == want.shape and torch.allclose(got, want, atol=sample.atol, rtol=sample.rtol)
        check.outputs.append(OutputCheck(name, err, bool(ok)))
    check.seconds = time.perf_counter() - start
    return check


def gpu_device() -> str:
    try:
        import torch
    except ImportError:
        raise TritonscopeError("--run needs torch (pip install torch)") from None
    if not torch.cuda.is_available():
        raise TritonscopeError(
            "--run needs a GPU (torch.cuda.is_available() is False); "
            "add --interpret to run on the CPU through TRITON_INTERPRET=1"
        )
    return "cuda"
