"""`tritonscope compile`: cross-compile sample or user kernels into a Triton cache, in parallel.

One `CompileRequest` is one kernel for one target; `compile_one` runs it (in a worker process) with
`triton.compile(ASTSource(...), target=GPUTarget(...))` (the JIT's `GluonASTSource` for a `@gluon.jit`
kernel: compile_gluon.py) after pointing Triton's cache at the chosen
directory, and returns a `CompileResult` (never raises for a kernel's own errors). `compile_many` fans
requests out over processes. This module and `specialize.py` are the only ones that import triton.
"""

from __future__ import annotations

import contextlib
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

from tritonscope.artifacts.cache import is_int
from tritonscope.compile.diagnostics import (
    CompileFailure,
    capture_stderr,
    classify_failure,
    import_failure,
    ir_failure_reason,
    scratch_tempdir,
)
from tritonscope.compile.request import (  # noqa: F401 - the compile API, re-exported in one place
    DEFAULT_TARGETS,
    CompileRequest,
    CompileTarget,
    KernelRef,
    autotune_requests,
    installed_release,
    installed_rules,
    parse_kernel_ref,
    parse_target,
    placeholder_factory,
    resolve_spec,
    sample_launch,
    sample_names,
)
from tritonscope.compile.ttir_upgrade import upgrade as upgrade_ttir
from tritonscope.errors import UsageError
from tritonscope.layouts.releases import parse_version
from tritonscope.parallel import usable_cores

_GPU_DEVICE_NODES = ("/dev/nvidiactl", "/dev/nvidia0", "/dev/kfd", "/dev/dxg")
_GPU_TOOLS = ("nvidia-smi", "rocm-smi", "amd-smi")
_ASKED_THE_DEVICE = False


def native_target() -> CompileTarget | None:
    """The GPU of this machine, as Triton's driver sees it; None without one."""
    # No device node, no GPU: skip importing triton here, so that workers can still be forked cheaply.
    import shutil

    if not any(os.path.exists(p) for p in _GPU_DEVICE_NODES) and not any(map(shutil.which, _GPU_TOOLS)):
        return None
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods() or _holds_gpu_context():
        return _ask_the_device(mark=True)
    # Asked in a child: the driver's answer leaves a GPU context in the process that asks, and a process
    # holding one cannot fork its compile workers (they would be spawned, importing everything again).
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
            return pool.submit(_ask_the_device).result()
    except BrokenProcessPool:  # the driver crashed the child: no GPU this tool can use
        return None


def _ask_the_device(mark: bool = False) -> CompileTarget | None:
    if mark:
        global _ASKED_THE_DEVICE
        _ASKED_THE_DEVICE = True  # the driver may hold a GPU context from here on: see _pool_context
    capability = _nvidia_capability() if os.path.exists("/dev/nvidiactl") else None
    if capability is not None:
        return CompileTarget("cuda", str(capability), 32)
    try:
        from triton.runtime import driver

        t = driver.active.get_current_target()
    except Exception:  # noqa: BLE001 - no driver, no device: both mean "no GPU here"
        return None
    return CompileTarget(str(t.backend), str(t.arch), int(t.warp_size))


def _nvidia_capability() -> int | None:
    """Device 0's compute capability from the CUDA driver itself (what Triton's CUDA driver answers, major *
    10 + minor, for the device a fresh process uses), without importing triton: ~0.5 s less per command."""
    import ctypes

    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        device, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        if (cuda.cuInit(0) or cuda.cuDeviceGet(ctypes.byref(device), 0)
                # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75, _MINOR = 76
                or cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, device)
                or cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, device)):
            return None
    except (OSError, AttributeError):
        return None
    return major.value * 10 + minor.value


def default_targets() -> list[CompileTarget]:
    native = native_target()
    return [native] if native else [parse_target(t) for t in DEFAULT_TARGETS]


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
    notes: list[str] = field(default_factory=list)  # what the compile did differently from a launch, in words

    @property
    def ok(self) -> bool:
        return self.error is None


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


# Triton before 3.5 links HSACO with an external ld.lld (TRITON_HIP_LLD_PATH, else ROCm's); Debian
# and Ubuntu name it with the LLVM version.
_LLD_NAMES = ("ld.lld", "ld.lld-20", "ld.lld-19", "ld.lld-18", "ld.lld-17")


def _point_triton_at_lld() -> None:
    if os.environ.get("TRITON_HIP_LLD_PATH"):
        return
    import shutil

    for name in _LLD_NAMES:
        found = shutil.which(name)
        if found:
            os.environ["TRITON_HIP_LLD_PATH"] = found
            return


def compile_one(request: CompileRequest, cache_dir: str, log: str | None = None) -> CompileResult:
    """Compile one request into `cache_dir`. Errors come back in the result, never as exceptions.
    `log`: a file to capture the compiler's stderr in (what is left to read if native code aborts)."""
    os.environ["TRITON_CACHE_DIR"] = str(cache_dir)
    quiet_triton_warnings()
    if request.target.backend == "hip":
        _point_triton_at_lld()
    if request.kernel.ir:
        return _compile_ir(request, cache_dir, log)
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
    # a module that points Triton at a cache of its own at import (TRITON_CACHE_DIR, knobs.cache.dir) does
    # not move the compile out of the cache given
    os.environ["TRITON_CACHE_DIR"] = str(cache_dir)
    _reset_cache_knob(str(cache_dir))
    result.kernel_name = fn.__name__
    result.spec = spec.to_json()
    if log:  # (what a crash of this process leaves its parent to say what was being compiled)
        _leave_spec(log, {"kernel_name": result.kernel_name, "spec": result.spec})
    result.notes.extend(getattr(fn, "tritonscope_import_notes", ()))
    result.notes.extend(request.notes)
    for name, given in request.constexprs:
        value = next((a.value for a in spec.args if a.name == name), given)
        if isinstance(given, str) and not isinstance(value, str):
            text = given.strip()
            what = "a class" if isinstance(value, type) else "a @jit function" if hasattr(value, "fn") else \
                f"{'an' if type(value).__name__[:1] in 'AEIOUaeiou' else 'a'} {type(value).__name__}"
            result.notes.append(f"--constexpr {name}={text}: the kernel module's {text} ({what}); "
                                f"quote it ('\"{text}\"') to pass the text")
    try:
        import triton

        from tritonscope.compile.gluon import gluon_target, source_class
        from tritonscope.compile.specialize import make_ast_source

        target = request.target.gpu_target()
        backend = _backend(request, result, spec.options)
        if backend is None:
            return result
        src = make_ast_source(fn, spec, backend, installed_rules(), source_class(fn))
        before = time.time()  # a metadata json older than this was there already: a cache hit
        start = time.perf_counter()  # the compile itself, not importing triton and the kernel's module
        with capture_stderr(log) as diagnostics, scratch_tempdir(), gluon_target(fn, target, triton.__version__):
            compiled = triton.compile(src, target=target, options=dict(spec.options))
    except Exception as exc:  # noqa: BLE001 - classified into one readable line below
        text = diagnostics.text() if "diagnostics" in locals() else ""
        result.error = classify_failure(exc, text, fn, request.target)
        result.seconds = time.perf_counter() - start
        return result
    result.seconds = time.perf_counter() - start
    return _record_entry(result, Path(cache_dir), compiled, fn.__name__, before)


def _reset_cache_knob(cache_dir: str) -> None:
    """`triton.knobs.cache.dir` (3.4 on) set to `cache_dir` where anything set it to another folder."""
    try:
        from triton import knobs
    except ImportError:
        return
    cache = getattr(knobs, "cache", None)
    try:
        if cache is not None and getattr(cache, "dir", cache_dir) != cache_dir:
            cache.dir = cache_dir
    except Exception:  # noqa: BLE001 - a release whose knob cannot be set: the environment variable holds
        pass


def _backend(request: CompileRequest, result: CompileResult, options: dict) -> Any:
    """The target's backend, the options in effect noted on `result`; None (the error on `result`) where an
    --option names one the backend lacks."""
    from triton.compiler import make_backend

    backend = make_backend(request.target.gpu_target())
    unknown = unknown_options(request, backend)
    if unknown:
        result.error = CompileFailure("usage", unknown)
        return None
    parsed = backend.parse_options(dict(options))
    result.options = {k: getattr(parsed, k) for k in ("num_warps", "num_stages", "num_ctas")}
    return backend


def unknown_options(request: CompileRequest, backend: Any) -> str | None:
    """One line for the --option names the target's backend has no option of (Triton's parse_options drops
    such names without a word: a misspelt `num_cta=2` would compile one CTA), else None."""
    import dataclasses

    known = {f.name for f in dataclasses.fields(backend.parse_options({}))}
    bad = [k for k, _ in request.launch_options if k not in known]
    if not bad:
        return None
    name = request.target.backend
    return (f"--option {bad[0]}: the {name} backend of Triton has no such option (its options: "
            f"{', '.join(sorted(k for k in known if not k.startswith('_')))})")


def _record_entry(result: CompileResult, cache_dir: Path, compiled: Any, name: str, before: float) -> CompileResult:
    """Where the compile left its entry, its stages, and whether it was there already (a cache hit)."""
    entry = _entry_dir(cache_dir, compiled, name)
    result.hash = compiled.hash if entry is None else entry.name
    if entry is not None:
        from tritonscope.artifacts.cache import load_entry

        result.entry = str(entry)
        loaded = load_entry(entry)
        result.stages = loaded.stages
        # what a launch would refuse (Triton raises OutOfResources before the first launch): said at compile,
        # as `ls` marks it
        for over in loaded.over_limits_on(loaded.target):
            unit = {"shared": "bytes of shared memory"}.get(over["resource"], over["resource"])
            result.notes.append(f"it asks {over['used']:,} {unit} where a {loaded.target} block may have "
                                f"{over['limit']:,}: a launch of it fails (out of resources)")
        # (not "the directory existed": a failed compile of the same key leaves one with its IR only)
        groups = sorted(entry.glob("__grp__*.json"))
        try:
            result.cached = bool(groups) and groups[0].stat().st_mtime < before
        except OSError:
            result.cached = False
    return result


# The options a cache entry's metadata records that mean the same on every backend; the rest (arch,
# backend_name, HIP's waves_per_eu, ...) belong to the target compiled for.
RETARGET_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")


def _compile_ir(request: CompileRequest, cache_dir: str, log: str | None = None) -> CompileResult:
    """A cache entry's TTIR compiled again by the installed Triton for `request.target`, with the options
    its metadata records (--num-warps overrides): `triton.compile(path.ttir, target=...)`. The TTIR is
    read, never written; where an older release printed an op another way, a respelled copy of ours is
    compiled (`ttir_upgrade`); a TTIR another release wrote may still not parse here, and the failure says so."""
    import json

    result = CompileResult(request)
    path = Path(request.kernel.ir)
    try:
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta = {}
    meta = meta if isinstance(meta, dict) else {}
    result.kernel_name = str(meta.get("name") or path.stem)
    options = {k: meta[k] for k in RETARGET_OPTIONS if isinstance(meta.get(k), int)}  # (bools are ints)
    for k, v in list(options.items()):  # (a damaged count: Triton never writes one below its range)
        if k != "enable_fp_fusion" and (isinstance(v, bool) or v < (0 if k == "num_stages" else 1)):
            del options[k]
            result.notes.append(f"the metadata's {k} {v} is not as Triton writes it: not taken (Triton's default, "
                                "unless the TTGIR or an option gives one)")
    launched = _ttgir_launch_options(path.with_suffix(".ttgir"))
    if launched.get("num_warps") and options.get("num_warps") not in (None, launched["num_warps"]):
        # a warp-specialized kernel's metadata counts every partition's warps; the launch asked the TTGIR's
        result.notes.append(f"num_warps {launched['num_warps']}, the launch's (its TTGIR's): the metadata's "
                            f"{options['num_warps']} counts the warps of its warp-specialized partitions too")
    if not meta and launched:
        result.notes.append("no metadata: " + ", ".join(f"{k} {v}" for k, v in launched.items())
                            + " read from the entry's TTGIR, Triton's defaults for the rest")
    options.update(launched)
    if meta and request.target.backend == "hip" and str(meta.get("backend_name", "hip")) == "hip":
        # a HIP kernel's own launch options (an autotuner's waves_per_eu, kpack), kept for another HIP GPU
        options.update({k: meta[k] for k in HIP_RETARGET_OPTIONS if is_int(meta.get(k)) and meta.get(k)})
    options.update(request.launch_options)
    if request.num_warps:
        options["num_warps"] = request.num_warps
    result.spec = {"from_ir": str(path), "ir_triton_version": meta.get("triton_version"), "options": options}
    try:
        ttir = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        result.error = CompileFailure("compile", f"cannot read it: {exc.strerror or exc}")
        return result
    if "tt.func" not in ttir:  # (Triton's compiler dies of SIGSEGV on a module without one)
        result.error = CompileFailure("compile", "no tt.func in this TTIR: nothing to compile")
        return result
    wrote = _writer(meta)  # (release, its name, inferred?) of the Triton that wrote the TTIR
    start = time.perf_counter()
    try:
        import triton

        target = request.target.gpu_target()
        backend = _backend(request, result, options)
        if backend is None:
            return result
        dropped = _options_the_backend_lacks(backend, options, request)
        if dropped:  # (Triton's parse_options drops them without a word: said, and not claimed as applied)
            result.notes.append(f"the metadata's {', '.join(f'{k}={v}' for k, v in dropped.items())}: the "
                                f"{request.target.backend} backend has no such option, left out")
            for k in dropped:
                del options[k]
            result.spec["options"] = options
        text, respelled = upgrade_ttir(ttir, wrote[0] if wrote else None, parse_version(triton.__version__))
        before = time.time()
        start = time.perf_counter()
        with contextlib.ExitStack() as stack:
            source = path
            if respelled:  # the respelled copy, under the same name, in a folder of ours (the entry is read only)
                import tempfile

                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="tritonscope-ttir-"))
                source = Path(folder) / path.name
                source.write_text(text, encoding="utf-8")
                writer = f"Triton {wrote[1]}'s" if wrote else "an older release's"
                result.notes.append(f"{writer} TTIR respelled for Triton {triton.__version__}: "
                                    + "; ".join(respelled))
                result.spec["respelled"] = respelled
            diagnostics = stack.enter_context(capture_stderr(log))
            stack.enter_context(scratch_tempdir())
            compiled = triton.compile(str(source), target=target, options=dict(options))
    except Exception as exc:  # noqa: BLE001 - one readable line below
        text = diagnostics.text() if "diagnostics" in locals() else ""
        unread = _ir_error(text, path)  # the text itself refused: a spelling this release does not read
        # else the pass that failed says where in the kernel's source, and what (not "PassManager::run failed"),
        # or ptxas what it refused (not its repro command)
        message = unread or ir_failure_reason(exc, text)
        import triton

        if wrote and wrote[0] != parse_version(triton.__version__):
            release, how = wrote[1], " (the release its metadata shows)" if wrote[2] else ""
            message = (f"Triton {triton.__version__} cannot read Triton {release}'s TTIR{how}: {message} (Triton "
                       f"{release} installed reads it)" if unread else
                       f"{message} (compiling Triton {release}'s TTIR{how} with Triton {triton.__version__})")
        result.error = CompileFailure("compile", message)
        result.seconds = time.perf_counter() - start
        return result
    result.seconds = time.perf_counter() - start
    return _record_entry(result, Path(cache_dir), compiled, result.kernel_name, before)


HIP_RETARGET_OPTIONS = ("waves_per_eu", "matrix_instr_nonkdim", "kpack")
_TTGIR_OPTION = re.compile(r'"(?:ttg|triton_gpu)\.(num-warps|num-ctas)"\s*=\s*(\d{1,4})\s*:')


def _ttgir_launch_options(ttgir: Path) -> dict[str, int]:
    """num_warps and num_ctas as the entry's TTGIR module records them (what the launch asked: a
    warp-specialized kernel's metadata counts its partitions' warps too); {} without a TTGIR."""
    try:
        with open(ttgir, "rb") as fh:
            head = fh.read(1 << 16).decode("utf-8", "replace")
    except OSError:
        return {}
    found = {m.group(1).replace("-", "_"): int(m.group(2)) for m in _TTGIR_OPTION.finditer(head)}
    return {k: v for k, v in found.items() if v > 0}


def _options_the_backend_lacks(backend: Any, options: dict, request: CompileRequest) -> dict:
    """Options taken from the metadata (not the command line's: those are refused) that `backend` has no
    field for (maxnreg on HIP)."""
    import dataclasses

    known = {f.name for f in dataclasses.fields(backend.parse_options({}))}
    given = {k for k, _ in request.launch_options} | ({"num_warps"} if request.num_warps else set())
    return {k: v for k, v in options.items() if k not in known and k not in given}


def _writer(meta: dict) -> tuple[tuple[int, int] | None, str, bool] | None:
    """(release, its name, inferred?) of the Triton that wrote an entry: its metadata's `triton_version`
    (3.3+), else the release the metadata's fields show (`infer_release`)."""
    from tritonscope.artifacts.cache import infer_release

    release = meta.get("triton_version")
    if release:
        return parse_version(str(release)), str(release), False
    inferred = infer_release(meta)
    return (inferred[0], inferred[1], True) if inferred else None


def _ir_error(diagnostics: str, path: Path) -> str | None:
    """The first MLIR error that points into the TTIR file itself (its text refused), with that line."""
    import re

    for line in diagnostics.splitlines():
        if "error:" not in line:
            continue
        message = line.split("error:", 1)[1].strip()
        where = re.search(r'"([^"]+)":(\d+):(\d+)', line)
        if where and Path(where.group(1)).name == path.name:
            try:
                text = path.read_text(encoding="utf-8", errors="replace").splitlines()[int(where.group(2)) - 1]
            except (OSError, IndexError):
                return f"line {where.group(2)}: {message}"
            code = text.split(" loc(")[0].strip()
            code = code if len(code) <= 100 else code[:97] + "..."
            return f"line {where.group(2)}:{where.group(3)}: {message} in `{code}`"
    return None


def _pool_context():
    """fork where this process holds no GPU context (a forked child cannot use the parent's): workers then
    share what the parent imported (triton, a user kernel's module and torch, imported to expand its
    autotune configs) instead of importing it again (spawn: ~1.5 s more for a kernel that imports torch).
    Neither importing triton nor compiling with it leaves a thread behind; torch's one idle thread is
    what its DataLoader forks with."""
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods() and not _holds_gpu_context():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _holds_gpu_context() -> bool:
    if _ASKED_THE_DEVICE:
        return True
    torch = sys.modules.get("torch")
    try:
        return bool(torch is not None and torch.cuda.is_initialized())
    except Exception:  # noqa: BLE001 - a torch without its cuda module: assume the worst
        return True


def _estimated_cost(ref: KernelRef) -> int:
    """Bigger sources and more tl.dot compile longer; read as text, nothing imported."""
    if ref.ir:
        try:
            return Path(ref.ir).stat().st_size
        except OSError:
            return 0
    if ref.sample:
        from tritonscope.compile.request import sample_package

        sample_kernels = sample_package()

        path = Path(sample_kernels.__file__).parent / f"{sample_kernels.SAMPLE_MODULES[ref.sample]}.py"
    else:
        path = Path(ref.path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")  # (an estimate: the import says what is wrong)
    except OSError:
        return 0
    return len(text) + 5000 * text.count("tl.dot(")


def compile_many(
    requests: Iterable[CompileRequest],
    cache_dir: str | os.PathLike,
    jobs: int | None = None,
    on_done: Callable[[CompileResult], None] | None = None,
) -> list[CompileResult]:
    """Compile every request in worker processes (`jobs`, default one per core). Triton's native code can
    abort the process it runs in (an LLVM or MLIR fatal error): such a request fails with what the
    compiler printed and the signal, and the others are compiled all the same."""
    import tempfile

    requests = list(requests)
    cache_dir = str(Path(cache_dir).expanduser().resolve())
    Path(cache_dir).mkdir(parents=True, exist_ok=True)
    jobs = min(jobs or usable_cores(), len(requests)) or 1
    results: dict[int, CompileResult] = {}

    def finish(i: int, result: CompileResult) -> None:
        results[i] = result
        if on_done:
            on_done(result)

    # Longest first (a static estimate), so that no worker starts a long compile when the others are done.
    queue = sorted(range(len(requests)), key=lambda i: -_estimated_cost(requests[i].kernel))
    with tempfile.TemporaryDirectory(prefix="tritonscope-running-") as running:
        while queue:
            in_flight = _pool_pass(requests, queue, cache_dir, min(jobs, len(queue)), running, finish)
            # A worker died: the pool stopped every worker; which request killed it is not said. Each
            # request that was running is compiled again in a process of its own.
            for i, result in _each_alone(requests, in_flight, cache_dir, running):
                finish(i, result)
            left = [i for i in queue if i not in results]
            if len(left) == len(queue):  # no progress: a worker that dies before it compiles anything
                for i in left:
                    finish(i, _crashed(requests[i], None, "a compile worker died before it started"))
                left = []
            queue = left
    return [results[i] for i in range(len(requests))]


def _compile_marked(i: int, request: CompileRequest, cache_dir: str, running: str) -> CompileResult:
    """In a worker: `compile_one`, with a file named after the request while it runs (left behind if the
    process is killed) and the compiler's stderr in a file beside it."""
    import tempfile

    from tritonscope.compile import supervise

    marker = os.path.join(running, str(i))
    open(marker, "w").close()
    tempfile.tempdir = running  # compile_one's scratch folder too: the parent removes it if this process dies
    supervise.report_to(marker + ".importing")  # (which module it imports, where it dies importing one)
    try:
        return compile_one(request, cache_dir, log=marker + ".log")
    finally:
        supervise.report_to(None)
        for path in (marker, marker + ".log", marker + ".log.spec", marker + ".importing"):
            with contextlib.suppress(OSError):
                os.remove(path)


def _pool_pass(requests, queue: list[int], cache_dir: str, jobs: int, running: str, finish) -> list[int]:
    """Run `queue` in a pool of `jobs` workers until done or a worker dies; the requests that were running
    when it died (their marker files) are returned."""
    from concurrent.futures.process import BrokenProcessPool

    with ProcessPoolExecutor(max_workers=jobs, mp_context=_pool_context()) as pool:
        futures = {pool.submit(_compile_marked, i, requests[i], cache_dir, running): i for i in queue}
        done: set[int] = set()
        try:
            for fut in as_completed(futures):
                finish(futures[fut], fut.result())
                done.add(futures[fut])
        except BrokenProcessPool:  # the results that came back before the pool broke still count
            for fut, i in futures.items():
                if i not in done and fut.done() and not fut.cancelled() and fut.exception() is None:
                    finish(i, fut.result())
    in_flight = sorted(int(name) for name in os.listdir(running) if name.isdigit())
    _clear(running)
    return in_flight


def _clear(folder: str) -> None:
    import shutil

    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.remove(path)


def _leave_spec(log: str, bound: dict) -> None:
    import json

    with contextlib.suppress(OSError, TypeError, ValueError), open(log + ".spec", "w", encoding="utf-8") as f:
        json.dump(bound, f)


def _left_spec(log: str) -> dict:
    """What `_leave_spec` wrote before the process died: {} if it died before."""
    import json

    with contextlib.suppress(OSError, ValueError):
        with open(log + ".spec", encoding="utf-8") as f:
            bound = json.load(f)
        if isinstance(bound, dict) and isinstance(bound.get("spec"), dict):
            return bound
    return {}


def _alone(i: int, request: CompileRequest, cache_dir: str, running: str, conn) -> None:
    conn.send(_compile_marked(i, request, cache_dir, running))
    conn.close()


def _each_alone(requests, indices: list[int], cache_dir: str, running: str):
    """Each request in a process of its own, all at once: (index, result) pairs; a process that dies
    names its request's crash."""
    ctx = _pool_context()
    started = []
    for i in indices:
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_alone, args=(i, requests[i], cache_dir, running, child))
        proc.start()
        child.close()
        started.append((i, proc, parent))
    for i, proc, parent in started:
        try:
            result = parent.recv()
        except EOFError:  # it died before it sent its result
            result = None
        proc.join()
        if result is None:
            from tritonscope.compile.supervise import imported_when_died

            log = os.path.join(running, f"{i}.log")
            try:
                with open(log, "rb") as f:
                    printed = f.read().decode("utf-8", "replace")
            except OSError:
                printed = ""
            result = _crashed(requests[i], proc.exitcode, printed, _left_spec(log),
                              imported_when_died(os.path.join(running, f"{i}.importing")))
        yield i, result
    _clear(running)


def _crashed(request: CompileRequest, exitcode: int | None, printed: str, bound: dict | None = None,
             importing: str | None = None) -> CompileResult:
    """The result of a compile whose process died: the compiler's last words and the signal; `bound`: the
    kernel name and specialization a Python kernel's process bound before it died, if it got that far;
    `importing`: the module it was importing when it died (then no compiler ran)."""
    import signal

    if importing is not None and exitcode is not None and exitcode < 0:
        from tritonscope.compile.supervise import ended_how

        result = CompileResult(request, kernel_name=request.kernel.label)
        result.error = CompileFailure("import", f"importing the module ended the compile worker "
                                                f"({ended_how(-exitcode)})", path=importing)
        return result

    how = "ended"
    if exitcode is not None and exitcode < 0:
        try:
            how = f"was killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"was killed by signal {-exitcode}"
    elif exitcode:
        how = f"exited with status {exitcode}"
    lines = [" ".join(line.split()) for line in printed.splitlines() if line.strip()]
    said = next((line for line in reversed(lines) if re.search(r"\b(?:error|fatal|assert)", line, re.I)),
                lines[-1] if lines else "")
    bound = bound or {}
    result = CompileResult(request, kernel_name=str(bound.get("kernel_name") or request.kernel.label))
    if request.kernel.ir:  # (what was asked)
        result.spec = {"from_ir": str(request.kernel.ir)}
    elif bound:
        result.spec = bound["spec"]
    result.error = CompileFailure("compile", f"Triton's compiler crashed: {said[:300] + ' (' if said else ''}"
                                             f"the process {how}{')' if said else ''}")
    return result


def requests_for(kernels: list[str], targets: list[CompileTarget], **overrides: Any) -> list[CompileRequest]:
    """Each kernel for each target; without kernel names, every sample for each target it is written for."""
    if kernels:
        pairs = [(ref, t) for ref in map(parse_kernel_ref, kernels) for t in targets]
    else:
        from tritonscope.compile.request import sample_package

        sample_kernels = sample_package()
        release = installed_release()
        pairs = [(KernelRef(sample=n), t) for n in sample_names() for t in targets
                 if sample_kernels.fits(n, t.warp_size, release)]
    refs = list(dict.fromkeys(ref for ref, _ in pairs))
    if any(r.ir for r in refs):
        given = [flag for flag, key in (("--signature", "signature"), ("--constexpr", "constexprs"),
                                        ("--no-specialize", "no_specialize")) if overrides.get(key)]
        if given:
            raise UsageError(f"{given[0]}: a cache entry's TTIR is specialized already (only --num-warps, "
                             "--option and --target apply to it)")
    user = [r for r in refs if r.path]
    if overrides.get("signature") and not user:
        raise UsageError("--signature applies to user kernels (path/to/file.py::kernel)")
    if user and len(refs) > 1 and overrides.get("signature"):
        raise UsageError("--signature applies to one user kernel at a time")
    requests = [CompileRequest(ref, t, **overrides) for ref, t in pairs]
    if not user:
        return requests
    return [r for request in requests for r in autotune_requests(request)]
