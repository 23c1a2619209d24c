"""Gluon (`@gluon.jit`, `triton.experimental.gluon`) kernels in `tritonscope compile`.

A Gluon kernel goes through the same binder as a `@triton.jit` one (same specialization, same attribute
entries): `GluonJITFunction.create_binder` only swaps the source class for `GluonASTSource`, which
writes the module attributes a TTGIR module needs (`ttg.num-warps`, `ttg.threads-per-warp`, ...) before
generating code, so that the layouts the programmer wrote can be verified, and starts the pipeline at the
TTGIR level (no TTIR stage). `compile` builds the same source with the same arguments.

How each release does it is the table GLUON_RELEASES, read in the PyPI wheels of 3.3.1, 3.4.0, 3.5.1,
3.6.0, 3.7.1, 3.8.0 and 3.9.0 (`experimental/gluon/_runtime.py`, `compiler/compiler.py`,
`backends/*/compiler.py`): 3.3.1 has no `triton/experimental/gluon`, 3.4.0 is the first release with it.
Checked on an H100 with Triton 3.6: JIT-launched Gluon samples and cross-compiled ones have the same
cache key and the same IR, `.source` through PTX (tests/test_gpu_compile.py).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tritonscope.compile.specialize import parse_version
from tritonscope.errors import UsageError


@dataclass(frozen=True)
class GluonRelease:
    since: tuple[int, int]
    # GluonASTSource.ext: the first stage of the pipeline, written after `.source`
    first_stage: str
    # 3.4's GluonASTSource.make_ir(options, ...) takes no target: it asks the active GPU driver for one
    # (`driver.active.get_current_target()`), and hard-codes 32 threads per warp. From 3.5 on, make_ir
    # receives the target `triton.compile` was given.
    target_from_driver: bool


# Newest first.
# fmt: off
GLUON_RELEASES: tuple[GluonRelease, ...] = (
    #            since   first stage  target from the driver
    GluonRelease((3, 9), "glir",      False),   # `glir` stage: the source as built, then `ttgir`
    GluonRelease((3, 5), "ttgir",     False),
    GluonRelease((3, 4), "ttgir",     True),
)
# fmt: on
MIN_GLUON_RELEASE = GLUON_RELEASES[-1].since
_GLUON_MODULE = "triton.experimental.gluon"


def no_gluon_message(version: str) -> str:
    major, minor = MIN_GLUON_RELEASE
    return (
        f"Gluon kernels (triton.experimental.gluon) exist from Triton {major}.{minor} on "
        f"(installed: {version})"
    )


def gluon_release(version: str) -> GluonRelease:
    v = parse_version(version)
    for release in GLUON_RELEASES:
        if v >= release.since:
            return release
    raise UsageError(no_gluon_message(version))


def is_gluon(fn: Any) -> bool:
    """A `@gluon.jit` function (GluonJITFunction.is_gluon(); plain JITFunctions answer False from 3.5)."""
    probe = getattr(fn, "is_gluon", None)
    return bool(callable(probe) and probe())


def is_missing_gluon(exc: BaseException) -> bool:
    """The import error a module using Gluon raises on a release without it (not one naming a symbol or
    submodule this release's Gluon lacks: `get_tmem_32x32b_reg_layout` of another release's API)."""
    name = getattr(exc, "name", None) or ""
    if not (isinstance(exc, ImportError) and (name == "triton.experimental" or name.startswith(_GLUON_MODULE))):
        return False
    if isinstance(exc, ModuleNotFoundError) and name in ("triton.experimental", _GLUON_MODULE):
        return True
    import importlib.util

    try:
        return importlib.util.find_spec(_GLUON_MODULE) is None
    except (ImportError, ValueError):
        return True


def source_class(fn: Any) -> Any:
    """The class the installed JIT builds its source with for `fn`: GluonASTSource or ASTSource."""
    if is_gluon(fn):
        from triton.experimental.gluon._runtime import GluonASTSource

        return GluonASTSource
    from triton.compiler import ASTSource

    return ASTSource


class _RequestedTarget:
    """What 3.4's GluonASTSource.make_ir asks the active driver: `get_current_target()`. On the GPU a
    JIT launch runs on, the driver answers with that GPU's target; here it answers with the target the
    request compiles for. Nothing else of a driver is reachable through it: any other question fails."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def get_current_target(self) -> Any:
        return self._target

    def get_benchmarker(self) -> Any:
        """What an @triton.autotune asks for when it is built (3.3's Autotuner.__init__): a benchmark
        function, kept for a launch; compiling launches nothing, so it is never called here."""

        def bench(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("benchmarking an autotune config needs a GPU")

        return bench

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"cross-compiling for {self._target.backend}:{self._target.arch}, the code asked the GPU "
                           f"driver for `{name}`, which only a GPU of that kind can answer")


@contextlib.contextmanager
def driver_answering(target: Any) -> Iterator[None]:
    """While a user module is imported to compile it for `target`: code that asks the active driver for
    the current target (flash-attn's AMD kernels pick their autotune configs by `get_current_target().arch`
    at import) gets `target`, as on the GPU the kernel will run on, and so does code asking which backend's
    driver is active. A driver that already answers with `target` (a GPU of that kind) is left alone; a
    release whose driver holder differs, too."""
    from triton.runtime import driver

    if not hasattr(driver, "set_active"):
        yield
        return
    try:
        native = driver.active.get_current_target()
    except Exception:  # noqa: BLE001 - no GPU (0 active drivers), or a driver that cannot start
        native = None
    if native is not None and (native.backend, native.arch) == (target.backend, target.arch):
        yield
        return
    with _driver_says(target), _backend_active(target):
        yield


@contextlib.contextmanager
def _backend_active(target: Any) -> Iterator[None]:
    """Each backend's driver says it is active exactly when its compiler builds for `target`: code that
    counts the active drivers at import (vLLM's `triton_utils` swaps Triton for placeholders unless one
    is) sees the GPU the kernel is compiled for. The drivers' own `is_active` come back afterwards."""
    try:
        from triton.backends import backends
    except ImportError:
        yield
        return
    saved = {}
    for name, backend in backends.items():
        drv, compiler = getattr(backend, "driver", None), getattr(backend, "compiler", None)
        if drv is None or compiler is None or "is_active" not in vars(drv):
            continue
        try:
            answer = bool(compiler.supports_target(target))
        except Exception:  # noqa: BLE001 - a backend that cannot say: left as it is
            continue
        saved[name] = vars(drv)["is_active"]
        drv.is_active = staticmethod(lambda answer=answer: answer)
    try:
        yield
    finally:
        for name, original in saved.items():
            backends[name].driver.is_active = original


# What torch says when asked about a GPU it cannot see: built without CUDA, no driver, no device.
_TORCH_NO_GPU = ("Torch not compiled with CUDA enabled", "Found no NVIDIA driver", "No CUDA GPUs are available",
                 "no ROCm-capable device", "No HIP GPUs are available")


def torch_without_gpu(exc: BaseException) -> bool:
    """Whether `exc` is torch refusing a question about the GPU because there is none (the import of a
    module that tests `torch.cuda.get_device_capability()` at its top, on a machine without a GPU)."""
    import sys

    if "torch" not in sys.modules or not isinstance(exc, (AssertionError, RuntimeError)):
        return False
    return any(text in str(exc) for text in _TORCH_NO_GPU)


def target_capability(target: Any) -> tuple[int, int]:
    """What `torch.cuda.get_device_capability()` returns on a GPU of `target`: (10, 0) for cuda:100; on
    ROCm the gcnArch's major and minor, (9, 4) for gfx942, (11, 0) for gfx1100."""
    arch = str(target.arch)
    if target.backend == "cuda":
        return int(arch) // 10, int(arch) % 10
    digits = arch.removeprefix("gfx").split(":")[0]
    return int(digits[:-2]), int(digits[-2], 16)


def target_device_name(target: Any) -> str:
    """What `torch.cuda.get_device_name()` answers for `target`: the vendor and the architecture, no product
    (which of the products of an architecture the kernel will run on, nothing here says)."""
    if target.backend == "cuda":
        return f"NVIDIA sm_{target.arch} (a tritonscope cross-compile target: no product)"
    return f"AMD {str(target.arch).split(':')[0]} (a tritonscope cross-compile target: no product)"


@contextlib.contextmanager
def torch_answering(target: Any) -> Iterator[list[str]]:
    """While a user module is imported again after torch refused to name a GPU it has not got:
    `torch.cuda.get_device_capability()` answers `target`'s capability, as on the GPU the kernel will run
    on, and `torch.cuda.get_device_name()` the vendor and architecture (`target_device_name`: a test of the
    name for a product, `'NVIDIA H' in name`, takes its other branch) and `current_device()` 0. The list it
    gives holds the name and the file that asked, once it was asked (the command says so). Every other
    question (`get_device_properties`, `is_available`, `device_count`) is torch's own."""
    import torch.cuda

    saved = torch.cuda.get_device_capability, torch.cuda.get_device_name, torch.cuda.current_device
    capability = target_capability(target)
    name = target_device_name(target)
    asked: list[str] = []

    def get_device_name(device=None) -> str:
        if not asked:  # (the name, and the file that asked first: the module itself or one it imports)
            import sys

            asked[:] = [name, os.path.basename(sys._getframe(1).f_code.co_filename)]
        return name

    torch.cuda.get_device_capability = lambda device=None: capability
    torch.cuda.get_device_name = get_device_name
    # `get_device_name(torch.cuda.current_device())`: the one device a target stands for
    torch.cuda.current_device = lambda: 0
    try:
        yield asked
    finally:
        torch.cuda.get_device_capability, torch.cuda.get_device_name, torch.cuda.current_device = saved


@contextlib.contextmanager
def _driver_says(target: Any) -> Iterator[None]:
    """The active driver answers `target` (only that) until the block ends; then the driver that was
    active before, or none yet (never one created on the way out: without a GPU none can be)."""
    from triton.runtime import driver

    # the holder's own attribute: `_active` (3.5 on: None until first asked), `active` (3.4: a lazy proxy)
    slot = next((k for k in ("_active", "active") if k in vars(driver)), None)
    saved = vars(driver).get(slot)
    driver.set_active(_RequestedTarget(target))
    try:
        yield
    finally:
        if slot is not None:
            setattr(driver, slot, saved)
        else:
            driver.reset_active()


@contextlib.contextmanager
def gluon_target(fn: Any, target: Any, version: str) -> Iterator[None]:
    """While compiling `fn` for `target`: where the installed release's Gluon source reads the target
    from the driver, make it read `target` (see GLUON_RELEASES)."""
    if not is_gluon(fn) or not gluon_release(version).target_from_driver:
        yield
        return
    with _driver_says(target):
        yield
