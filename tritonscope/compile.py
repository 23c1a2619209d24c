"""`tritonscope compile`: cross-compile sample or user kernels into a Triton cache, in parallel.

One `CompileRequest` is one kernel for one target; `compile_one` runs it (in a worker process) with
`triton.compile(ASTSource(...), target=GPUTarget(...))` after pointing Triton's cache at the chosen
directory, and returns a `CompileResult` (never raises for a kernel's own errors). `compile_many` fans
requests out over processes. This module and `specialize.py` are the only ones that import triton.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tritonscope.compile_diagnostics import CompileFailure, capture_stderr, classify_failure, import_failure
from tritonscope.errors import UsageError

# Without a GPU, `compile` builds for these (one NVIDIA and one AMD data-centre target).
DEFAULT_TARGETS = ("cuda:90", "hip:gfx942")
# AMD architectures whose wavefront is 32 lanes (RDNA); the CDNA ones (gfx9xx) use 64.
_WAVE32_PREFIXES = ("gfx10", "gfx11", "gfx12")
_CUDA_TARGET = re.compile(r"^(?:cuda:|sm_?)(?P<arch>\d+)a?$")
_HIP_TARGET = re.compile(r"^(?:hip:)?(?P<arch>gfx[0-9a-f]+)$")
_USER_KERNEL = re.compile(r"^(?P<path>.+\.py)::(?P<name>[A-Za-z_]\w*)$")


@dataclass(frozen=True)
class CompileTarget:
    backend: str  # 'cuda' | 'hip'
    arch: str  # '90' | 'gfx942'
    warp_size: int

    def __str__(self) -> str:
        return f"{self.backend}:{self.arch}"

    def gpu_target(self) -> Any:
        from triton.backends.compiler import GPUTarget

        return GPUTarget(
            self.backend, int(self.arch) if self.backend == "cuda" else self.arch, self.warp_size
        )


def parse_target(text: str) -> CompileTarget:
    """`cuda:90`, `sm90`, `hip:gfx942`, `gfx942`."""
    spec = text.strip().lower()
    if m := _CUDA_TARGET.match(spec):
        return CompileTarget("cuda", m.group("arch"), 32)
    if m := _HIP_TARGET.match(spec):
        arch = m.group("arch")
        return CompileTarget("hip", arch, 32 if arch.startswith(_WAVE32_PREFIXES) else 64)
    raise UsageError(
        f"unknown target '{text}' (examples: cuda:80, cuda:90, cuda:100, hip:gfx90a, hip:gfx942)"
    )


def native_target() -> CompileTarget | None:
    """The GPU of this machine, as Triton's driver sees it; None without one."""
    try:
        from triton.runtime import driver

        t = driver.active.get_current_target()
    except Exception:  # noqa: BLE001 - no driver, no device: both mean "no GPU here"
        return None
    return CompileTarget(str(t.backend), str(t.arch), int(t.warp_size))


def default_targets() -> list[CompileTarget]:
    native = native_target()
    return [native] if native else [parse_target(t) for t in DEFAULT_TARGETS]


# ---- which kernel ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelRef:
    """A sample (`gemv`), a sample variant (`gemv-kmask`) or a user kernel (`path.py::name`)."""

    sample: str | None = None
    variant: str | None = None
    path: str | None = None
    name: str | None = None

    @property
    def label(self) -> str:
        if self.sample:
            return self.sample + (f"-{self.variant}" if self.variant else "")
        return f"{self.path}::{self.name}"


def sample_names(with_variants: bool = False) -> list[str]:
    from tritonscope import sample_kernels

    names = sample_kernels.names()
    if not with_variants:
        return names
    out = []
    for n in names:
        out.append(n)
        out += [f"{n}-{v}" for v in sample_kernels.load(n).variants]
    return out


def parse_kernel_ref(text: str) -> KernelRef:
    from tritonscope import sample_kernels

    if m := _USER_KERNEL.match(text):
        return KernelRef(path=m.group("path"), name=m.group("name"))
    names = sample_kernels.names()
    if text in names:
        return KernelRef(sample=text)
    base, _, variant = text.rpartition("-")
    if base in names and variant:
        known = sample_kernels.load(base).variants
        if variant not in known:
            raise UsageError(
                f"sample '{base}' has no variant '{variant}' (variants: {', '.join(known) or 'none'})"
            )
        return KernelRef(sample=base, variant=variant)
    raise UsageError(
        f"unknown kernel '{text}': a sample ({', '.join(names)}) or path/to/file.py::kernel_name"
    )


@dataclass(frozen=True)
class CompileRequest:
    """One kernel for one target, with the command line's overrides. Plain data: crosses processes."""

    kernel: KernelRef
    target: CompileTarget
    num_warps: int | None = None
    signature: str | None = None  # named `x=*fp16,n=i32` or AOT `*fp16:16, i32, 1024`
    constexprs: tuple[tuple[str, Any], ...] = ()
    no_specialize: tuple[str, ...] = ()


@dataclass
class CompileResult:
    request: CompileRequest
    kernel_name: str = ""
    hash: str | None = None
    entry: str | None = None  # the cache entry directory
    seconds: float = 0.0
    stages: list[str] = field(default_factory=list)
    cached: bool = False  # the entry existed already: Triton did not compile again
    spec: dict | None = None  # KernelSpec.to_json() of what was compiled
    options: dict = field(default_factory=dict)  # num_warps/num_stages/num_ctas in effect
    error: CompileFailure | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


# ---- loading kernels and their specs ----------------------------------------------------------------


def load_user_kernel(path: str, name: str) -> Any:
    """Import `path` as a module and return its @triton.jit function `name`."""
    file = Path(path).resolve()
    if not file.is_file():
        raise UsageError(f"no such file: {path}")
    module_name = "tritonscope_user_" + re.sub(r"\W", "_", file.stem)
    spec = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(file.parent))
    try:
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(file.parent))
    fn = getattr(module, name, None)
    if fn is None:
        found = [k for k, v in vars(module).items() if hasattr(v, "arg_names") and hasattr(v, "fn")]
        raise UsageError(f"{path}: no kernel '{name}' (kernels there: {', '.join(found) or 'none'})")
    if not hasattr(fn, "arg_names"):
        raise UsageError(f"{path}: '{name}' is not a @triton.jit function")
    return fn


def installed_rules():
    import triton

    from tritonscope.specialize import rules_for

    return rules_for(triton.__version__)


def amd_buffer_ops_enabled() -> bool:
    """The installed Triton's AMD buffer-ops switch (AMDGCN_USE_BUFFER_OPS), where it has one."""
    try:
        from triton import knobs

        return bool(knobs.amd.use_buffer_ops)
    except (ImportError, AttributeError):
        return os.environ.get("AMDGCN_USE_BUFFER_OPS", "1").lower() in ("1", "true", "on", "yes")


def jit_flags(fn: Any) -> tuple[set[str], set[str]]:
    """The decorator's do_not_specialize and do_not_specialize_on_alignment, by name."""
    no_spec, no_align = set(), set()
    for p in getattr(fn, "params", []):
        if getattr(p, "do_not_specialize", False):
            no_spec.add(p.name)
        if getattr(p, "do_not_specialize_on_alignment", False):
            no_align.add(p.name)
    return no_spec, no_align


def sample_launch(ref: KernelRef, new: Callable[..., Any], sizes: dict | None = None):
    """(Sample, Launch) of a sample or variant; `new` makes tensors or placeholders."""
    from tritonscope import sample_kernels

    sample = sample_kernels.load(ref.sample)
    variant = sample.variants[ref.variant] if ref.variant else None
    merged = {**(variant.sizes if variant else {}), **(sizes or {})}
    return sample, sample.launch(new, **merged)


def placeholder_factory(shape, dtype, init: str = "randn"):
    from tritonscope.specialize import TensorArg

    return TensorArg(tuple(shape), dtype)


def resolve_spec(request: CompileRequest) -> tuple[Any, Any]:
    """(jit function, KernelSpec) for a request, on the installed Triton."""
    from tritonscope import specialize as sp

    rules = installed_rules()
    backend = request.target.backend
    constexprs = dict(request.constexprs)
    ref = request.kernel
    if ref.sample:
        sample, launch = sample_launch(ref, placeholder_factory)
        fn = sample.kernel
        values = {**launch.args, **constexprs}
        options = launch.options()
        variant = sample.variants[ref.variant] if ref.variant else None
        no_spec, no_align = jit_flags(fn)
        no_spec |= set(request.no_specialize) | set(variant.no_specialize if variant else ())
        constexpr_names = [p.name for p in fn.params if p.is_constexpr]
        spec = sp.derive_spec(
            fn.arg_names,
            constexpr_names,
            values,
            rules,
            backend,
            no_specialize=no_spec,
            no_align=no_align,
            amd_buffer_ops=amd_buffer_ops_enabled(),
            options=options,
        )
    else:
        fn = load_user_kernel(ref.path, ref.name)
        names = list(fn.arg_names)
        sig = request.signature or ""
        if "=" in sig or not sig:
            declared = [p.name for p in fn.params if p.is_constexpr]
            missing = [n for n in declared if n not in constexprs and f"{n}=" not in sig.replace(" ", "")]
            if missing:
                raise UsageError(
                    f"constexpr argument(s) without a value: {', '.join(missing)} "
                    f"(give --constexpr {missing[0]}=V)"
                )
            args = sp.parse_named_signature(sig, names, constexprs, rules, backend)
        else:
            args = sp.parse_aot_signature(sig, names, rules)
            args = [
                sp.ArgSpec(a.name, "constexpr", constexprs[a.name]) if a.name in constexprs else a
                for a in args
            ]
        spec = sp.KernelSpec(tuple(args), {})
        spec = sp.without_specialization(spec, request.no_specialize)
    if request.num_warps is not None:
        spec = sp.KernelSpec(spec.args, {**spec.options, "num_warps": request.num_warps})
    return fn, spec


# ---- compiling ---------------------------------------------------------------------------------------


def _entry_dir(cache_dir: Path, compiled: Any, name: str) -> Path | None:
    try:
        from triton.runtime.cache import get_cache_manager

        path = Path(get_cache_manager(compiled.hash).cache_dir)
    except Exception:  # noqa: BLE001 - older layouts: fall back to looking for the group file
        path = None
    if path is not None and path.is_dir():
        return path
    groups = sorted(cache_dir.glob(f"*/__grp__{name}.json"), key=lambda p: p.stat().st_mtime)
    return groups[-1].parent if groups else None


def quiet_triton_warnings() -> None:
    # Triton 3.9 warns about its fp-fusion default on every compile (a JIT launch too): not ours to show.
    warnings.filterwarnings("ignore", message="TRITON_DEFAULT_FP_FUSION")


def compile_one(request: CompileRequest, cache_dir: str) -> CompileResult:
    """Compile one request into `cache_dir`. Errors come back in the result, never as exceptions."""
    os.environ["TRITON_CACHE_DIR"] = str(cache_dir)
    quiet_triton_warnings()
    result = CompileResult(request)
    start = time.perf_counter()
    try:
        fn, spec = resolve_spec(request)
    except UsageError as exc:
        result.error = CompileFailure("usage", exc.message)
        return result
    except Exception as exc:  # noqa: BLE001 - a user module that fails to import
        result.error = import_failure(exc, request.kernel.path)
        return result
    result.kernel_name = fn.__name__
    result.spec = spec.to_json()
    try:
        import triton
        from triton.compiler import make_backend

        from tritonscope.specialize import make_ast_source

        target = request.target.gpu_target()
        backend = make_backend(target)
        src = make_ast_source(fn, spec, backend, installed_rules())
        result.options = {
            k: getattr(backend.parse_options(dict(spec.options)), k)
            for k in ("num_warps", "num_stages", "num_ctas")
        }
        existing = set(os.listdir(cache_dir)) if os.path.isdir(cache_dir) else set()
        start = time.perf_counter()  # the compile itself, not importing triton and the kernel's module
        with capture_stderr() as diagnostics:
            compiled = triton.compile(src, target=target, options=dict(spec.options))
    except Exception as exc:  # noqa: BLE001 - classified into one readable line below
        text = diagnostics.text() if "diagnostics" in locals() else ""
        result.error = classify_failure(exc, text, fn, request.target)
        result.seconds = time.perf_counter() - start
        return result
    result.seconds = time.perf_counter() - start
    entry = _entry_dir(Path(cache_dir), compiled, fn.__name__)
    result.hash = compiled.hash if entry is None else entry.name
    if entry is not None:
        from tritonscope.cache import load_entry

        result.entry = str(entry)
        result.stages = load_entry(entry).stages
        result.cached = entry.name in existing
    return result


def _pool_context():
    import multiprocessing

    # fork is cheap and safe while this process has not loaded triton's native library yet.
    if "triton" not in sys.modules and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def usable_cores() -> int:
    """Cores this process may run on (its affinity mask, e.g. under taskset), not all the machine has."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _estimated_cost(ref: KernelRef) -> int:
    """Bigger sources and more tl.dot compile longer; read as text, nothing imported."""
    if ref.sample:
        from tritonscope import sample_kernels

        path = Path(sample_kernels.__file__).parent / f"{sample_kernels.SAMPLE_MODULES[ref.sample]}.py"
    else:
        path = Path(ref.path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return 0
    return len(text) + 5000 * text.count("tl.dot(")


def compile_many(
    requests: Iterable[CompileRequest],
    cache_dir: str | os.PathLike,
    jobs: int | None = None,
    on_done: Callable[[CompileResult], None] | None = None,
) -> list[CompileResult]:
    """Compile every request; in `jobs` processes (default: one per core) when there is more than one."""
    requests = list(requests)
    cache_dir = str(Path(cache_dir).expanduser().resolve())
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    jobs = min(jobs or usable_cores(), len(requests)) or 1
    results: dict[int, CompileResult] = {}
    # Longest first (a static estimate), so that no worker starts a long compile when the others are done.
    order = sorted(range(len(requests)), key=lambda i: -_estimated_cost(requests[i].kernel))
    if jobs == 1:
        for i, req in enumerate(requests):
            results[i] = compile_one(req, cache_dir)
            if on_done:
                on_done(results[i])
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=_pool_context()) as pool:
            futures = {pool.submit(compile_one, requests[i], cache_dir): i for i in order}
            for fut in as_completed(futures):
                i = futures[fut]
                results[i] = fut.result()
                if on_done:
                    on_done(results[i])
    return [results[i] for i in range(len(requests))]


def requests_for(kernels: list[str], targets: list[CompileTarget], **overrides: Any) -> list[CompileRequest]:
    refs = (
        [parse_kernel_ref(k) for k in kernels] if kernels else [KernelRef(sample=n) for n in sample_names()]
    )
    user = [r for r in refs if r.path]
    if overrides.get("signature") and not user:
        raise UsageError("--signature applies to user kernels (path/to/file.py::kernel)")
    if user and len(refs) > 1 and overrides.get("signature"):
        raise UsageError("--signature applies to one user kernel at a time")
    return [CompileRequest(ref, t, **overrides) for ref in refs for t in targets]
