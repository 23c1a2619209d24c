"""What `tritonscope compile` is asked to build: targets, kernel references, requests, and the
specialization of each request (`resolve_spec`) from a sample's launch values or a user's signature.

Plain data that crosses process boundaries; triton is imported only inside the functions that need it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tritonscope.artifacts.cache import TARGET_FORMS, is_gluon_source, is_int, parse_target_spec
from tritonscope.compile import signatures
from tritonscope.compile import specialize as sp
from tritonscope.compile.specialize import TensorArg, parse_version, rules_for
from tritonscope.errors import TritonscopeError, UsageError

# Without a GPU, `compile` builds for these (one NVIDIA and one AMD data-centre target).
DEFAULT_TARGETS = ("cuda:90", "hip:gfx942")
# AMD architectures whose wavefront is 32 lanes (RDNA); the CDNA ones (gfx9xx) use 64.
_WAVE32_PREFIXES = ("gfx10", "gfx11", "gfx12")
# (`kern.py::Ops.inner`: a kernel held by a class of the module, as the JIT launches `Ops.inner[grid](...)`)
_USER_KERNEL = re.compile(r"^(?P<path>.+\.py)::(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)$")


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
    """`cuda:90`, `sm90`, `hip:gfx942`, `gfx942`: the grammar of every command's --target
    (cache.parse_target_spec), with an architecture, since a compile needs one."""
    backend, _, arch = parse_target_spec(text).partition(":")
    if not arch:
        raise UsageError(f"--target {text}: compile needs an architecture (forms: {TARGET_FORMS})")
    if backend == "cuda":
        return CompileTarget("cuda", arch, 32)
    return CompileTarget("hip", arch, 32 if arch.startswith(_WAVE32_PREFIXES) else 64)


# ---- which kernel ---------------------------------------------------------------------------------


def sample_package() -> Any:
    """`tritonscope.sample_kernels`: installed from the top-level `sample_kernels/` (pyproject's
    package-dir). Run from a checkout's root (`python -m tritonscope` after `pip install .`), the
    checkout's `tritonscope/` shadows the installed package and has no such subpackage: then the
    checkout's own `sample_kernels/` beside it is loaded under that name."""
    import importlib.util
    import sys

    try:
        from tritonscope import sample_kernels

        return sample_kernels
    except ImportError:
        folder = Path(__file__).resolve().parents[2] / "sample_kernels"
        init = folder / "__init__.py"
        if not init.is_file():
            raise
    import tritonscope

    spec = importlib.util.spec_from_file_location("tritonscope.sample_kernels", init,
                                                  submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    tritonscope.sample_kernels = module  # type: ignore[attr-defined]
    return module


@dataclass(frozen=True)
class KernelRef:
    """A sample (`gemv`), a sample variant (`gemv-kmask`), a user kernel (`path.py::name`) or a compiled
    kernel's TTIR (`ir`: a cache entry's `.ttir`, compiled again for another target)."""

    sample: str | None = None
    variant: str | None = None
    path: str | None = None
    name: str | None = None
    ir: str | None = None

    @property
    def label(self) -> str:
        if self.sample:
            return self.sample + (f"-{self.variant}" if self.variant else "")
        if self.ir:
            return self.ir
        return f"{self.path}::{self.name}"


def sample_names(with_variants: bool = False) -> list[str]:
    sample_kernels = sample_package()

    names = sample_kernels.names()
    if not with_variants:
        return names
    out = []
    for n in names:
        out.append(n)
        out += [f"{n}-{v}" for v in sample_kernels.load(n).variants]
    return out


def parse_kernel_ref(text: str) -> KernelRef:
    sample_kernels = sample_package()

    if m := _USER_KERNEL.match(text):
        file = _regular_file(m.group("path"))
        if file is not None:  # (a folder that would shadow the installed Triton: said once, before any import)
            refuse_shadowing(m.group("path"), *package_root(file))
        return KernelRef(path=m.group("path"), name=m.group("name"))
    if text.endswith(".ttir") or os.path.isdir(text):
        return KernelRef(ir=_ttir_of(text))
    if text.endswith(".py"):
        raise UsageError(_unnamed_kernel(text))
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
        f"unknown kernel '{text}': a sample ({', '.join(names)}), path/to/file.py::kernel_name, or a cache "
        "entry (its directory or its .ttir) to compile again for --target"
    )


def _unnamed_kernel(text: str) -> str:
    """What to say of a Python file given with no ::kernel_name: the @jit functions it defines, by its syntax
    (nothing is imported for a refusal)."""
    import ast

    file = _regular_file(text)
    if file is None:
        return f"{text}: no such file"
    try:
        tree = ast.parse(file.read_bytes(), filename=text)
    except (SyntaxError, ValueError, OSError) as exc:
        return f"{text}: name the kernel to compile as {text}::NAME ({type(exc).__name__} reading it: {exc})"

    # names `jit` is imported as (`from triton import jit as J`)
    aliases = {"jit"} | {a.asname for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                         for a in n.names if a.name == "jit" and a.asname}

    def is_jit(expr) -> bool:  # `triton.jit`, `jit`, `gluon.jit`, `J`, and each called (`triton.jit(...)`)
        expr = expr.func if isinstance(expr, ast.Call) else expr
        return (expr.attr == "jit") if isinstance(expr, ast.Attribute) else getattr(expr, "id", None) in aliases

    def jitted(node) -> bool:  # @triton.jit, @jit, @gluon.jit, @triton.jit(...), autotune/heuristics above one
        return any(is_jit(dec) for dec in node.decorator_list)

    found = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and jitted(n)]
    found += [t.id for n in tree.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
              and is_jit(n.value.func) for t in n.targets if isinstance(t, ast.Name)]  # `k = triton.jit(f)`
    found += [f"{c.name}.{n.name}" for c in tree.body if isinstance(c, ast.ClassDef)
              for n in c.body if isinstance(n, ast.FunctionDef) and jitted(n)]
    there = f"@jit functions there: {', '.join(found)}" if found else "it defines no @jit function at its top level"
    return f"{text}: name the kernel to compile as {text}::NAME ({there})"


def _regular_file(path: str) -> Path | None:
    """`path` resolved, where it is a regular file; None where nothing is there (the import says so, for each
    request); UsageError for what a read would hang on or never end (a FIFO, /dev/zero behind a link), a folder
    and a link loop, before anything reads it."""
    import stat

    try:
        file = Path(path).resolve()
        mode = file.stat().st_mode
    except FileNotFoundError:
        return None
    except RuntimeError:  # (Python 3.11 and 3.12's resolve() on a link loop)
        raise UsageError(f"{path}: a symbolic link loop") from None
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else \
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else \
            "not a file"
        raise UsageError(f"{path}: {kind}, not a Python file")
    return file


def _ttir_of(text: str) -> str:
    """The TTIR a cache entry keeps (its directory given), or the .ttir file given."""
    path = Path(text)
    if path.is_dir():
        found = sorted(path.glob("*.ttir"))
        if not found and (any(path.glob("*.glir")) or any(map(is_gluon_source, path.glob("*.source")))):
            raise UsageError(f"{text}: a Gluon kernel keeps no TTIR (its layouts are written for its target): "
                             "compile its source (path/to/file.py::kernel) for another --target instead")
        if len(found) != 1:
            raise UsageError(f"{text}: {'no' if not found else len(found)} .ttir files in this directory: give a "
                             "cache entry (one kernel's directory) or its .ttir")
        return str(found[0])
    if not path.is_file():
        raise UsageError(f"no such file: {text}")
    return str(path)


@dataclass(frozen=True)
class CompileRequest:
    """One kernel for one target, with the command line's overrides. Plain data: crosses processes."""

    kernel: KernelRef
    target: CompileTarget
    num_warps: int | None = None
    signature: str | None = None  # named `x=*fp16,n=i32` or AOT `*fp16:16, i32, 1024`
    constexprs: tuple[tuple[str, Any], ...] = ()
    no_specialize: tuple[str, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()  # num_stages, num_ctas, maxnreg of an autotune config
    launch_options: tuple[tuple[str, Any], ...] = ()  # --option NAME=V: over the config's and the metadata's
    config: tuple[int, int] | None = None  # (i, n): the autotuner's config i of n
    notes: tuple[str, ...] = ()  # said with the result (what a first launch would do differently)

    @property
    def label(self) -> str:
        return self.kernel.label + (f" [config {self.config[0] + 1}/{self.config[1]}]" if self.config else "")


# ---- loading kernels and their specs ----------------------------------------------------------------


def _defined_in(fn: Any, file: Path) -> bool:
    """Whether a jit function's Python function was written in `file` (not imported into it)."""
    code = getattr(getattr(unwrap(fn), "fn", None), "__code__", None)
    try:
        return code is not None and Path(code.co_filename).resolve() == file
    except (OSError, ValueError):
        return False


def load_user_kernel(path: str, name: str, target: CompileTarget | None = None) -> Any:
    """Import `path` as a module and return its @triton.jit (or @gluon.jit) function `name`; with a
    `target`, the driver answers code that asks it at import with that target (gluon.driver_answering),
    and so do `torch.cuda.get_device_capability()` and `get_device_name()` where torch has no GPU to ask
    (gluon.torch_answering)."""
    file = Path(path).resolve()
    if not file.is_file():
        raise UsageError(f"no such file: {path}")
    # a file inside a package (an __init__.py beside it) is imported as that package's module, so that its
    # relative imports work (flash-attn's `from .utils import ...`); a lone file as a module of its own
    root, package = package_root(file)
    refuse_shadowing(path, root, package)
    before = set(sys.modules)
    with _import_guard(file):
        if file in _WIDER_ROOTS:  # (imported so before in this process, or in the parent of this worker)
            root, package, note = _WIDER_ROOTS[file]
            module, notes = _import_on_path(file, package, target, root, before)
            notes.insert(0, note)
        else:
            try:
                module, notes = _import_on_path(file, package, target, root, before)
            except ModuleNotFoundError as exc:
                # a PEP 420 namespace package above the file's own (fbgemm's `fbgemm_gpu/experimental/gemm/`:
                # folders without an __init__.py): the file imports its tree by its full name (`from
                # fbgemm_gpu.experimental ...`), which Python finds with the folder above `fbgemm_gpu` on
                # sys.path; imported so, as that name
                wider = _namespace_root(exc, file)
                if wider is None:
                    raise
                _forget_siblings(before, root)  # (what the first import left, as the package it was not)
                root, package = wider
                refuse_shadowing(path, root, package)
                module, notes = _import_on_path(file, package, target, root, before)
                note = (f"{file.name} imported as {'.'.join([*package, file.stem])} from {_display(root)}: it "
                        f"imports {exc.name!r}, the folder {_display(root / package[0])} above it (folders between "
                        "without an __init__.py taken as namespace packages, as Python takes them)")
                _WIDER_ROOTS[file] = (root, package, note)
                notes.insert(0, note)
    fn = module
    for part in name.split("."):
        fn = getattr(fn, part, None)
    if fn is None:
        found = [k for k, v in vars(module).items() if hasattr(v, "arg_names") and hasattr(v, "fn")]
        own = [k for k in found if _defined_in(getattr(module, k), file)]
        imported = [k for k in found if k not in own]  # (a helper of another module, imported by name)
        raise UsageError(f"{path}: no kernel '{name}' (kernels there: {', '.join(own) or 'none'}"
                         + (f"; imported: {', '.join(imported)})" if imported else ")"))
    if not hasattr(fn, "arg_names"):
        raise UsageError(f"{path}: '{name}' is not a @triton.jit or @gluon.jit function")
    fn = unwrap(fn)
    if notes:
        fn.tritonscope_import_notes = tuple(notes)
    return fn


def package_root(file: Path) -> tuple[Path, list[str]]:
    """The folder a kernel file is imported from and the packages around it: a file inside a package (an
    __init__.py beside it) is imported as that package's module, so that its relative imports work
    (flash-attn's `from .utils import ...`), from the folder above its outermost package; a lone file as a
    module of its own, from its folder."""
    package: list[str] = []
    folder = file.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder and len(package) < 16:
        package.insert(0, folder.name)
        folder = folder.parent
    return (folder if package else file.parent), package


# A file imported through a namespace package above its own (`_namespace_root`): its root, packages and note. A
# later import in this process (another target; the compile after the autotune configs were read) or in a
# worker forked from it, which holds the tree's modules already, imports it the same way and says so again.
_WIDER_ROOTS: dict[Path, tuple[Path, list[str], str]] = {}


def _namespace_root(exc: ModuleNotFoundError, file: Path) -> tuple[Path, list[str]] | None:
    """Where the file imports when its import failed for want of a top-level module X and a folder X lies
    above it (X's own folder included): from X's parent, the file being `X.<folders>.<stem>`, the folders
    without an __init__.py namespace packages, as Python imports it with X's parent on sys.path. None where
    no such folder is (the failure is the file's)."""
    top = (getattr(exc, "name", None) or "").partition(".")[0]
    if not top.isidentifier() or top in sys.modules:
        return None
    folder, package = file.parent, []
    while folder.parent != folder and len(package) < 32:
        package.insert(0, folder.name)
        if folder.name == top:
            return (folder.parent, package) if all(p.isidentifier() for p in package) else None
        folder = folder.parent
    return None


# Packages the compile itself runs on: a user's package of that name, imported, would replace them.
_NEEDED = {"triton": "Triton", "torch": "torch"}


def refuse_shadowing(path: str, root: Path, package: list[str]) -> None:
    """A file whose outermost package is a folder named `triton` (flash-attn's `ops/triton/` with its parents'
    __init__ files not extracted) would be imported as `triton.<stem>`: the folder would shadow the installed
    Triton, every module of it imported afresh as the user's. Said in one line instead."""
    if package and package[0] in _NEEDED:
        name = package[0]
        raise TritonscopeError(
            f"the folder {_display(root / name)} is imported as the package '{name}' (it has an __init__.py and "
            f"the folder above it has none), which would shadow the installed {_NEEDED[name]}: keep the package "
            "that holds it (with its __init__.py files) or give a copy of the file outside it", path)


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


class ModuleExited(Exception):
    """The user's module called sys.exit (or raised SystemExit) while it was imported."""


def _import_on_path(file: Path, package: list[str], target: CompileTarget | None, root: Path,
                    before: set[str]) -> tuple[Any, list[str]]:
    from tritonscope.errors import Terminated

    notes: list[str] = []
    sys.path.insert(0, str(root))
    try:
        with _exits_raise("the module", "while it was imported"):
            try:
                module, notes = _import_answering_torch(file, package, target)
            except ImportError as exc:
                # the package around the file would not import here (its __init__ needs what this machine
                # lacks: vLLM's, SGLang's): imported again with the packages' __init__ files left out, so the
                # file and the siblings it imports relatively run, and nothing else of the package
                if not package or _reached_file(exc, file):
                    raise
                try:
                    module, notes = _import_answering_torch(file, package, target, skip_inits=True)
                except Exception:  # noqa: BLE001 - the package's own failure is the one to report
                    raise exc from None
                notes.insert(0, f"{file.name} imported without the __init__.py of its package {package[0]}, which "
                                f"does not import here ({type(exc).__name__}: {exc})")
    except SystemExit as exc:  # a module run as a script at import (`sys.exit(main())` with no __main__ guard)
        if isinstance(exc, Terminated):  # (SIGTERM while it imported: the command ends, as it would anywhere)
            raise
        raise ModuleExited(f"the module called sys.exit({exc.code!r}) while it was imported (a script's "
                           "`sys.exit(main())` without an `if __name__ == '__main__':` guard?)"
                           ).with_traceback(exc.__traceback__) from None
    finally:
        with contextlib.suppress(ValueError):  # (a module that edited sys.path took it out itself)
            sys.path.remove(str(root))
        if not package:
            _forget_siblings(before, root)
    return module, notes


class _Unclosable:
    """A stream whose close() does nothing: what a module that closes sys.stdout at import closes."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def close(self) -> None:
        pass

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextlib.contextmanager
def _import_guard(file: Path):
    """A user module's import, kept from changing what the command goes on with: what it prints goes to stderr
    (stdout is the command's: its --json), and a module that replaces or closes the streams, changes directory
    (relative paths, the cache's among them, were read against the directory the command started in), edits
    sys.path or waits on stdin (given an empty one) changes nothing after it; the threads it starts are daemons
    (a logger's or a prefetcher's: the command, and each compile worker, would wait for them at exit, for
    ever)."""
    import threading

    from tritonscope.compile.supervise import importing
    from tritonscope.errors import Terminated

    streams, cwd, path = (sys.stdin, sys.stdout, sys.stderr), os.getcwd(), list(sys.path)
    real_init = threading.Thread.__init__

    def daemon_init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.daemon = True

    with open(os.devnull, encoding="utf-8") as empty:
        sys.stdin, sys.stdout, sys.stderr = empty, _Unclosable(streams[2]), _Unclosable(streams[2])
        threading.Thread.__init__ = daemon_init
        importing(str(file))  # (where the import ends this process, the one watching it says so)
        try:
            yield
        except Terminated:  # (a SIGTERM: the module's own, where the watching process passed none on)
            raise
        except BaseException:
            importing(None)
            raise
        else:
            importing(None)
        finally:
            threading.Thread.__init__ = real_init
            sys.stdin, sys.stdout, sys.stderr = streams
            sys.path[:] = path  # (a module that cleared it left the command's own later imports nowhere to look)
            with contextlib.suppress(OSError):
                os.chdir(cwd)


@contextlib.contextmanager
def _exits_raise(who: str, when: str):
    """`os._exit` (and `posix._exit`, the same function) raise ModuleExited while user code runs: they would
    end this process at once, silently, with the code's status."""
    import posix

    real = os._exit

    def exit_now(code=0):
        raise ModuleExited(f"{who} called os._exit({code!r}) {when}")

    os._exit = posix._exit = exit_now
    try:
        yield
    finally:
        os._exit = posix._exit = real


def _forget_siblings(before: set[str], folder: Path) -> None:
    """Forget the modules a lone file imported from its own folder (`from helpers import SCALE`): the next
    kernel or target imports them afresh, as a process of its own would. Kept, they were reused: another
    folder's `helpers.py`, or one that configured itself for the previous target. Libraries stay loaded:
    only modules under the folder whose top-level package was not loaded before the import go."""
    loaded_tops = {m.partition(".")[0] for m in before}
    for name in [m for m in sys.modules if m not in before and m.partition(".")[0] not in loaded_tops]:
        module = sys.modules.get(name)
        try:  # (a module's attributes are its own: a `__path__` may be anything, or raise)
            places = [getattr(module, "__file__", None)]
            path = getattr(module, "__path__", None)
            if isinstance(path, list) or type(path).__name__ == "_NamespacePath":
                places.extend(path)
            if any(isinstance(p, str) and _under(p, folder) for p in places):
                _release_torch_libraries(sys.modules.pop(name))  # (imported afresh next time: its operators too)
        except Exception:  # noqa: BLE001 - not a module of the folder's, then
            continue


def _under(path: str, folder: Path) -> bool:
    try:
        return Path(path).resolve().is_relative_to(folder)
    except (OSError, ValueError, RuntimeError):
        return False


def _import_answering_torch(file: Path, package: list[str], target: CompileTarget | None,
                            skip_inits: bool = False) -> tuple[Any, list[str]]:
    """The module, and notes of what torch was made to answer while it was imported."""
    try:
        return _import_user_module(file, package, target, skip_inits), []
    except Exception as exc:
        from tritonscope.compile.gluon import torch_answering, torch_without_gpu

        if target is None or not torch_without_gpu(exc):
            raise
        # the module asked torch.cuda what GPU this is (a capability test at import) and torch, built or
        # run without one, refused: imported again with torch answering the target's capability
        with torch_answering(target.gpu_target()) as named:
            module = _import_user_module(file, package, target, skip_inits)
        if not named:
            return module, []
        asker = named[1] if named[1] == file.name else f"{named[1]} (imported by {file.name})"
        return module, [f"{asker} asked torch.cuda.get_device_name() at import, answered {named[0]!r}: a test "
                        "of the name for a product takes its other branch"]


def _bare_packages(folder: Path, package: list[str]) -> None:
    """Each package around a file as a module whose __init__.py did not run (its folder as its path):
    relative imports of the file's siblings work, the package's own set-up does not happen."""
    import types

    for depth in range(len(package), 0, -1):
        name = ".".join(package[:depth])
        module = types.ModuleType(name)
        module.__path__ = [str(folder)]
        module.__package__ = name
        sys.modules[name] = module
        folder = folder.parent


def _reached_file(exc: BaseException, file: Path) -> bool:
    """Whether the failure happened while `file` itself ran (then it is the file's own)."""
    tb = exc.__traceback__
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename) == file:
            return True
        tb = tb.tb_next
    return False


def _import_user_module(file: Path, package: list[str], target: CompileTarget | None,
                        skip_inits: bool = False) -> Any:
    context = contextlib.nullcontext()
    if target is not None:
        from tritonscope.compile.gluon import driver_answering

        context = driver_answering(target.gpu_target())
    with context:
        if package:
            # imported afresh: a module may configure itself for the target it is imported for
            for loaded in [m for m in sys.modules if m == package[0] or m.startswith(package[0] + ".")]:
                _release_torch_libraries(sys.modules.pop(loaded))
            if skip_inits:
                _bare_packages(file.parent, package)
            return importlib.import_module(".".join([*package, file.stem]))
        module_name = "tritonscope_user_" + re.sub(r"\W", "_", file.stem)
        if module_name in sys.modules:  # (imported for another target, or to expand its autotune configs)
            _release_torch_libraries(sys.modules[module_name])
        spec = importlib.util.spec_from_file_location(module_name, file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(module_name, None)
            raise
        return module


def _release_torch_libraries(module: Any) -> None:
    """Destroy the torch.library.Library objects a user module holds at its top (`lib = Library("torchao",
    "FRAGMENT")`), as it is imported afresh: `lib.define(...)` registers an operator for the whole process,
    and its second import (to expand the autotune configs, then to compile; for another target) raised
    "Tried to register an operator ... multiple times" for every kernel of such a package (torchao)."""
    library = sys.modules.get("torch.library")
    cls = getattr(library, "Library", None)
    if cls is None:
        return
    try:
        held = [v for v in vars(module).values() if isinstance(v, cls)]
    except Exception:  # noqa: BLE001 - a module's namespace is its own: nothing of it is released then
        return
    for lib in held:
        try:
            lib._destroy()
        except Exception:  # noqa: BLE001 - destroyed already, or torch's internals moved: left as it is
            continue


def unwrap(fn: Any) -> Any:
    """The @triton.jit / @gluon.jit function under `@triton.autotune` and `@triton.heuristics` (each
    keeps the function it wraps in `.fn`); the wrappers are remembered in `tritonscope_wrappers`
    (outermost first) for the messages about constexprs they would have chosen."""
    wrappers = []
    while not hasattr(fn, "params") and hasattr(fn, "fn") and len(wrappers) < 8:
        wrappers.append(fn)
        fn = fn.fn
    if wrappers:
        fn.tritonscope_wrappers = wrappers
    return fn


def _wrapper_hint(fn: Any, missing: list[str]) -> str:
    """Which wrapper of `fn` would have chosen the missing constexprs, as command-line options ('' for
    none): the autotuner's first config, or the names the heuristics compute from a launch's values."""
    for w in getattr(fn, "tritonscope_wrappers", ()):
        configs = getattr(w, "configs", None)
        if configs and any(k in missing for c in configs for k in getattr(c, "kwargs", {})):
            c = configs[0]
            opts = [f"--constexpr {k}={v}" for k, v in getattr(c, "kwargs", {}).items()]
            if getattr(c, "num_warps", None):
                opts.append(f"--num-warps {c.num_warps}")
            return f"; an @triton.autotune kernel ({len(configs)} configs), its first: {' '.join(opts)}"
        computed = [k for k in getattr(w, "values", {}) if k in missing]
        if type(w).__name__ == "Heuristics" and computed:
            return f"; an @triton.heuristics kernel computes {', '.join(computed)} from the launch's arguments"
    return ""


def installed_release() -> tuple[int, int]:
    """(major, minor) of the installed Triton, read from its package metadata (triton not imported)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return parse_version(version("triton"))
    except PackageNotFoundError:
        import triton

        return parse_version(triton.__version__)


def installed_rules():
    import triton

    return rules_for(triton.__version__)


def amd_buffer_ops_enabled() -> bool:
    """The installed Triton's AMD buffer-ops switch (AMDGCN_USE_BUFFER_OPS), where it has one."""
    try:
        from triton import knobs

        return bool(knobs.amd.use_buffer_ops)
    except (ImportError, AttributeError):
        return os.environ.get("AMDGCN_USE_BUFFER_OPS", "1").lower() in ("1", "true", "on", "yes")


_LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas")


def _launch_option_params(fn: Any) -> tuple[str, ...]:
    """The kernel's constexpr parameters named as launch options (`num_warps: gl.constexpr`): a launch's
    keyword gives both."""
    params = {p.name for p in getattr(fn, "params", []) if getattr(p, "is_constexpr", False)}
    return tuple(k for k in _LAUNCH_OPTIONS if k in params)


def jit_debug(fn: Any) -> bool:
    """Whether a launch compiles the kernel with debug on: `@triton.jit(debug=True)`, or TRITON_DEBUG=1
    (`knobs.runtime.debug`, 3.4 on; before, the env var set the function's own flag): its
    `tl.device_assert`s kept."""
    if getattr(fn, "debug", None):
        return True
    try:
        from triton import knobs
    except ImportError:
        return False
    return bool(getattr(getattr(knobs, "runtime", None), "debug", False))


def annotated_types(fn: Any) -> dict[str, str]:
    """Parameters annotated with a Triton type (`n: tl.int64`, `x: tl.float32`): name -> the type a
    launch passes them as, whatever the value (the JIT's `KernelParam.annotation_type`)."""
    out = {}
    for p in getattr(fn, "params", []):
        try:
            ty = getattr(p, "annotation_type", "")
        except Exception:  # noqa: BLE001 - an annotation Triton cannot read: none, as for the JIT
            ty = ""
        if isinstance(ty, str) and ty and not getattr(p, "is_constexpr", False):
            out[p.name] = ty
    return out


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
    sample_kernels = sample_package()

    sample = sample_kernels.load(ref.sample)
    variant = sample.variants[ref.variant] if ref.variant else None
    merged = {**(variant.sizes if variant else {}), **(sizes or {})}
    return sample, sample.launch(new, **merged)


def placeholder_factory(shape, dtype, init: str = "randn"):
    return TensorArg(tuple(shape), dtype)


def resolve_spec(request: CompileRequest) -> tuple[Any, Any]:
    """(jit function, KernelSpec) for a request, on the installed Triton."""
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
        fn = load_user_kernel(ref.path, ref.name, request.target)
        constexprs = {name: module_value(fn, value) for name, value in constexprs.items()}
        names = list(fn.arg_names)
        # a launch's `num_warps=8` binds a parameter of that name (Gluon's `num_warps: gl.constexpr`) and the
        # launch option at once: --num-warps gives the parameter, --constexpr num_warps the option
        both = _launch_option_params(fn)
        if "num_warps" in both and request.num_warps is not None:
            constexprs.setdefault("num_warps", request.num_warps)
        option_values = {k: constexprs[k] for k in both if is_int(constexprs.get(k))}
        sig = request.signature or ""
        if "=" in sig or not sig:
            sig = _with_defaults(fn, sig, constexprs)
            declared = [p.name for p in fn.params if p.is_constexpr]
            missing = [n for n in declared if n not in constexprs and f"{n}=" not in sig.replace(" ", "")]
            if missing:
                raise UsageError(
                    f"constexpr argument(s) without a value: {', '.join(missing)} "
                    f"(give --constexpr {missing[0]}=V{_wrapper_hint(fn, missing)})"
                )
            no_spec, no_align = jit_flags(fn)
            args = signatures.parse_named_signature(
                sig, names, constexprs, rules, backend, no_specialize=no_spec, no_align=no_align,
                annotations=annotated_types(fn), amd_buffer_ops=amd_buffer_ops_enabled(),
                constexpr_params=[p.name for p in fn.params if p.is_constexpr])
        else:
            args = signatures.parse_aot_signature(sig, names, rules)
            args = [
                sp.ArgSpec(a.name, "constexpr", constexprs[a.name]) if a.name in constexprs else a
                for a in args
            ]
        if any(a.type.startswith("tensordesc") for a in args) and installed_release() < (3, 4):
            import triton

            raise UsageError(f"tensor descriptor arguments exist from Triton 3.4 on (installed: {triton.__version__})")
        spec = sp.KernelSpec(tuple(args), {k: v for k, v in option_values.items()
                                           if not (k == "num_warps" and request.num_warps is not None)})
        spec = sp.without_specialization(spec, request.no_specialize)
    if jit_debug(fn) and "debug" not in spec.options:
        spec = sp.KernelSpec(spec.args, {**spec.options, "debug": True})
    if request.options or request.launch_options:
        spec = sp.KernelSpec(spec.args, {**spec.options, **dict(request.options), **dict(request.launch_options)})
    if request.num_warps is not None:
        spec = sp.KernelSpec(spec.args, {**spec.options, "num_warps": request.num_warps})
    return fn, spec


_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def module_value(fn: Any, value: Any) -> Any:
    """A --constexpr value written as a name of the kernel's module (`MMAImpl=WGMMA`,
    `SchedulerImpl=t7.GroupedPersistentTileScheduler`: a Gluon aggregate class, a @jit function, a module
    constant) is what that name holds, as a launch passing it would give; code over the module's names
    (`ttgl.BlockedLayout(...)`) what it builds (_module_code); quoted (`'"gelu"'`) it is the string; any
    other text stays the text it is (`bf16`). `tl.`/`gl.` values are read elsewhere."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if text.startswith(("tl.", "triton.language.", "gl.")):
        if text.startswith(("tl.", "triton.language.")):
            from tritonscope.compile.specialize import _constexpr_value

            _constexpr_value(text)  # (a name triton.language does not have: a usage error, here, before any compile)
        return value
    scope = getattr(getattr(fn, "fn", None), "__globals__", {})
    if not _DOTTED_NAME.fullmatch(text):
        return _module_code(text, scope, value)
    head, *attrs = text.split(".")
    if any(a.startswith("__") for a in attrs):
        raise UsageError(f"--constexpr {text!r}: the attribute {next(a for a in attrs if a.startswith('__'))}: not "
                         "read here (only the kernel module's names and their public attributes)")
    if head not in scope:
        return value
    obj = scope[head]
    for attr in attrs:
        if not hasattr(obj, attr):
            return value
        obj = getattr(obj, attr)
    import types

    return value if isinstance(obj, types.ModuleType) else obj


def _module_code(text: str, scope: dict, value: Any) -> Any:
    """A --constexpr value written as code over the kernel module's names (`ttgl.BlockedLayout([1, 4], ...)`
    where the module imports Gluon's language as `ttgl`, `TensorMemoryLayout([128, 64], col_stride=1)` where
    it imports that class): what the code builds there, as a launch written in that module would pass it.
    Code is what names one of the module's names; it may hold only those names, attributes of them that do
    not start with `_`, calls, literals, lists, tuples, dicts and arithmetic: anything else is a usage error,
    never run. Text that names none of the module's names (`bf16`, `a-b`) stays the text it is."""
    import ast

    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return value
    nodes = list(ast.walk(tree))
    if isinstance(tree.body, ast.Name) or not any(isinstance(n, ast.Name) and n.id in scope for n in nodes):
        return value
    allowed = (ast.Expression, ast.Call, ast.Attribute, ast.Name, ast.Constant, ast.List, ast.Tuple, ast.Dict,
               ast.keyword, ast.Load, ast.UnaryOp, ast.USub, ast.UAdd, ast.BinOp, ast.Add, ast.Sub, ast.Mult,
               ast.FloorDiv, ast.Pow, ast.Subscript)
    for n in nodes:
        bad = None
        if not isinstance(n, allowed):
            bad = f"{type(n).__name__.lower()} expressions"
        elif isinstance(n, ast.Attribute) and n.attr.startswith("_"):
            bad = f"the attribute {n.attr}"
        elif isinstance(n, ast.Name) and n.id not in scope:
            bad = f"the name {n.id}, not one of the kernel module's"
        elif isinstance(n, ast.Name) and n.id.startswith("__"):
            bad = f"the name {n.id}"
        if bad:
            raise UsageError(f"--constexpr {text!r}: {bad}: not built here (only the kernel module's names, "
                             "their public attributes, calls, literals and arithmetic)")
    try:
        return eval(compile(tree, "<--constexpr>", "eval"), {**scope, "__builtins__": {}})  # noqa: S307
    except Exception as exc:  # noqa: BLE001 - any failure of the user's expression is a usage error
        raise UsageError(f"--constexpr {text!r}: {type(exc).__name__}: {exc}") from None


def _param_default(p: Any) -> tuple[bool, Any]:
    """(whether the parameter has a default, the default), from Triton's KernelParam."""
    param = getattr(p, "_param", None)
    default = getattr(param, "default", inspect.Parameter.empty)
    return default is not inspect.Parameter.empty, default


def _with_defaults(fn: Any, sig: str, constexprs: dict[str, Any]) -> str:
    """A launch that leaves out an argument with a default passes the default, and the JIT specializes it
    as the value it is: a constexpr (or None) takes its value into `constexprs`; an int, float or bool
    argument not in the named signature gets the type and hint that value gets (`i32:16` for 128). The
    signature with those added."""
    given = {part.split("=", 1)[0].strip() for part in signatures.split_entries(sig) if "=" in part}
    extra = []
    annotated = annotated_types(fn)
    for p in fn.params:
        has, value = _param_default(p)
        if not has or p.name in constexprs or p.name in given:
            continue
        if p.is_constexpr or value is None:
            constexprs[p.name] = value
        elif p.name in annotated and isinstance(value, int | float):  # the annotation's type; the value's hint
            ty = annotated[p.name]
            hint = ":1" if value == 1 else ":16" if value % 16 == 0 else ""
            extra.append(f"{p.name}={ty}" + (hint if ty[:1] in "iu" and not isinstance(value, bool | float) else ""))
        elif isinstance(value, bool):
            extra.append(f"{p.name}=i1")
        elif isinstance(value, int):
            ty = "i32" if -2**31 <= value < 2**31 else "i64"
            extra.append(f"{p.name}={ty}" + (":1" if value == 1 else ":16" if value % 16 == 0 else ""))
        elif isinstance(value, float):
            extra.append(f"{p.name}=fp32")
    return ",".join(filter(None, [sig, *extra]))


def _pruning_note(autotuner: Any, n: int) -> tuple[str, ...]:
    """The autotuner's `prune_configs_by` (early_config_prune, perf_model, top_k) chooses among its configs
    from a launch's argument values, which a cross-compile has not got: every config is compiled, said."""
    pruned = [k for k in ("early_config_prune", "perf_model") if getattr(autotuner, k, None)]
    if not pruned:
        return ()
    return (f"the autotuner prunes its {n} config{'s' if n != 1 else ''} by {' and '.join(pruned)} on a launch's "
            "arguments, which a compile without a GPU has not got: every config is compiled (give --constexpr "
            "values to pick one)",)


class _NotGiven(dict):
    """A launch's arguments as far as the command line gives them: reading another one is a KeyError. The
    keys read are kept (`read`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read: set = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __missing__(self, key):
        raise KeyError(key)


class _LaunchTensor:
    """A pointer argument of the signature, as a heuristic sees it: a tensor a launch passes, so not None
    (mamba's `HAS_D: args["D_ptr"] is not None`, FLA's `USE_INITIAL_STATE: args["h0"] is not None`); nothing
    else of it is known here: reading any attribute (its dtype, strides) is an AttributeError, and the
    heuristic is not asked."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __getattr__(self, attr):
        raise AttributeError(f"{attr}: a launch's tensor, not known to a cross-compile")

    def __repr__(self) -> str:
        return f"<the tensor a launch passes as {self.name}>"


def _signature_pointers(signature: str | None, arg_names: list[str]) -> list[str]:
    """The arguments a --signature types as a pointer or a tensor descriptor (`x_ptr=*fp16`, or the AOT
    notation's `*fp16:16` in its argument's place)."""
    from tritonscope.compile.signatures import named_entries, split_entries

    if not signature:
        return []
    try:  # (the named form where it reads as one, as the compile tells them apart: `=` in the text)
        types = named_entries(signature) if "=" in signature else dict(zip(arg_names, split_entries(signature),
                                                                             strict=False))
    except Exception:  # noqa: BLE001 - the compile reads it again and says what is wrong with it
        return []
    return [n for n, t in types.items() if n in arg_names and t.startswith(("*", "tensordesc"))]


def _early_pruned(autotuner: Any, configs: list, given: dict[str, Any]) -> list | None:
    """The configs the autotuner's `early_config_prune` keeps, where it decides from the configs alone (or
    the --constexpr values given): Triton calls it with a launch's named arguments, which a cross-compile has
    not got, so a pruner that reads any other argument (or fails, or has a perf_model to answer) is not
    asked: None."""
    from tritonscope.errors import Terminated

    prune = getattr(autotuner, "early_config_prune", None)
    if prune is None or getattr(autotuner, "perf_model", None) is not None:
        return None
    try:
        with _exits_raise("early_config_prune", "while asked which configs to keep"):
            kept = list(prune(list(configs), _NotGiven(given)))
    except Terminated:
        raise
    except (Exception, SystemExit):  # noqa: BLE001 - it needs what a launch passes (or ends): every config
        return None
    kinds = tuple({type(c) for c in configs})  # (triton.Config: an object of another class is no config)
    if not kept or not all(isinstance(c, kinds) for c in kept):
        return None
    return list({id(c): c for c in kept}.values())  # (one config named twice is compiled once)


def autotune_requests(request: CompileRequest) -> list[CompileRequest]:
    """A user kernel's requests as a first launch compiles it: under @triton.autotune one per config
    (`_config_requests`: every config, those its pruner keeps, or those the --constexpr values name), each
    with what its @triton.heuristics compute from no launch argument (`_heuristics_applied`). Any other
    request, or one whose module cannot be imported here (its compile reports why): itself."""
    if not request.kernel.path:
        return [request]
    try:
        fn = load_user_kernel(request.kernel.path, request.kernel.name, request.target)
    except Exception:  # noqa: BLE001 - the compile of this request reports it, with its location
        return [request]
    out = []
    for r in _config_requests(request, fn):
        r, notes = _heuristics_applied(r, fn)
        # (a note every config gets alike is said once for them all, `[N configs]`: cli.compile._notes_once)
        out.append(replace(r, notes=r.notes + tuple(notes)) if notes else r)
    return out


def _heuristics_applied(request: CompileRequest, fn: Any) -> tuple[CompileRequest, list[str]]:
    """`request` with the values its @triton.heuristics compute from what the command line gives alone
    (attorch's `tf32: lambda _: allow_tf32()`, a capability test torch answers for the target), as a launch
    gets them, and a note for each. A heuristic that reads any other argument (a launch's K) is not asked: it
    is given with --constexpr, or left to the signature's default, which a note says."""
    from tritonscope.compile.gluon import torch_answering, torch_without_gpu
    from tritonscope.errors import Terminated

    given = dict(request.constexprs)
    pointers = {n: _LaunchTensor(n) for n in _signature_pointers(request.signature, list(fn.arg_names))
                if n not in given}
    computed, notes = {}, []
    heuristics = [w for w in getattr(fn, "tritonscope_wrappers", ()) if type(w).__name__ == "Heuristics"]
    for w in heuristics:
        for name, heuristic in getattr(w, "values", {}).items():
            if name in given or name in computed or name not in fn.arg_names:
                continue
            args = _NotGiven({**pointers, **given, **computed})
            try:
                with _exits_raise("a heuristic", "while asked its value"), contextlib.ExitStack() as stack:
                    try:
                        value = heuristic(args)
                    except Exception as exc:  # (a capability test: torch answers the target, as at import)
                        if not torch_without_gpu(exc):
                            raise
                        stack.enter_context(torch_answering(request.target.gpu_target()))
                        value = heuristic(args)
            except Terminated:
                raise
            except (Exception, SystemExit):  # noqa: BLE001 - it needs what a launch passes: not asked
                continue
            if isinstance(value, _LaunchTensor):  # (the tensor itself, as a constexpr: not known here)
                continue
            computed[name] = value
            seen = sorted(k for k in args.read if k in pointers)
            asked = sorted(k for k in args.read if k in given and k in fn.arg_names)
            source = [f"the signature ({', '.join(seen)}: {'a pointer' if len(seen) == 1 else 'pointers'}, a "
                      "tensor a launch passes, not None)"] if seen else []
            source += [" ".join(f"--constexpr {k}" for k in asked)] if asked else []
            notes.append(f"{name}={value!r}: computed by @triton.heuristics from "
                         + (" and ".join(source) if source else "no argument of a launch") + ", as a launch would")
    # what none computes here, the command line does not give and the signature defaults: compiled with the
    # default, where a launch gets what the heuristic computes (gemlite's `EVEN_K = K % BLOCK_SIZE_K == 0`:
    # False, masked loads a launch with K a multiple would not have)
    params = {p.name: p for p in getattr(fn, "params", ())}
    defaulted = [(k, params[k].default) for w in heuristics for k in getattr(w, "values", {})
                 if k not in given and k not in computed and k in params
                 and params[k].default is not inspect.Parameter.empty]
    if defaulted:
        notes.append(f"{', '.join(f'{k}={v!r}' for k, v in defaulted)}: computed by @triton.heuristics from a "
                     f"launch's arguments, compiled with {'its default' if len(defaulted) == 1 else 'their defaults'}"
                     f" (give {' '.join(f'--constexpr {k}=...' for k, _ in defaulted)} to compile as a launch with "
                     "those arguments would)")
    if not computed:
        return request, notes
    return replace(request, constexprs=tuple({**given, **computed}.items())), notes


def _config_requests(request: CompileRequest, fn: Any) -> list[CompileRequest]:
    """One request per config of the kernel's autotuner (its kwargs as constexprs, its num_warps unless
    --num-warps says, its num_stages / num_ctas / maxnreg): every config, those its early_config_prune keeps
    where it reads no launch argument, or those whose tuned values --constexpr gives; else the request."""
    given = dict(request.constexprs)
    for w in getattr(fn, "tritonscope_wrappers", ()):
        configs = getattr(w, "configs", None) or []
        if not configs:
            continue
        params = set(fn.arg_names)
        tuned = {k for c in configs for k in getattr(c, "kwargs", {}) if k in params}
        if tuned & given.keys():  # the command line picks the config(s) whose tuned values it gives
            return _given_configs(request, configs, tuned & given.keys(), params)
        out = []
        kept = _early_pruned(w, configs, given)
        own = kept is not None and all(any(c is o for o in configs) for c in kept)
        prune_notes = _pruning_note(w, len(configs)) if kept is None else (
            "the autotuner's early_config_prune " + (f"keeps {len(kept)} of its {len(configs)} configs" if own else
                                                        f"gives {len(kept)} configs in place of its {len(configs)}")
            + " (it reads no launch argument the command line does not give)",)
        configs = configs if kept is None else kept
        for i, c in enumerate(configs):
            out.append(_config_request(request, c, params, (i, len(configs))))
        replaced = _replaced(request, configs, "the configs'")
        out, alike = _compiled_once(out)
        said = [*prune_notes]
        if replaced:
            said.append(" and ".join(replaced))
        if alike:
            said.append(f"its {len(configs)} configs are {len(out)} distinct compiles"
                        + (" with the command line's options" if replaced else "")
                        + f": each compiled once (configs compiled as an earlier one: {_alike_text(alike)})")
        if said:  # (of every config: each gets it, and it is said once for them all, `[N configs]`)
            out = [replace(r, notes=r.notes + tuple(said)) for r in out]
        return out
    return [request]


# The launch options of a triton.Config (its attributes); --num-warps and --option give them in place of its.
_CONFIG_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


def _replaced(request: CompileRequest, configs: list, whose: str) -> list[str]:
    """What the command line gives in place of the configs' own launch options, said with their values:
    `--num-warps 8 replaces their num_warps (4, 8)`."""
    given = {**dict(request.launch_options),
             **({"num_warps": request.num_warps} if request.num_warps is not None else {})}
    out = []
    for k in _CONFIG_OPTIONS:
        own = sorted({v for c in configs if (v := getattr(c, k, None)) is not None}, key=str)
        if k in given and own:
            flag = f"--num-warps {given[k]}" if k == "num_warps" else f"--option {k}={given[k]}"
            out.append(f"{flag} replaces {whose} {k} ({', '.join(map(str, own))})")
    return out


def _compile_key(r: CompileRequest) -> str:
    """What a config's request compiles: two with one key build the same kernel (one hash)."""
    options = {**dict(r.options), **dict(r.launch_options)}
    return repr((sorted((k, repr(v)) for k, v in r.constexprs), r.num_warps,
                 sorted((k, repr(v)) for k, v in options.items())))


def _compiled_once(requests: list[CompileRequest]) -> tuple[list[CompileRequest], list[list[int]]]:
    """The config requests with those that compile the same kernel (the command line's --num-warps or --option
    in place of what set them apart, or one config written twice) kept once, the first of each; and the
    configs (1-based) of each group of more than one."""
    groups: dict[str, list[CompileRequest]] = {}
    for r in requests:
        groups.setdefault(_compile_key(r), []).append(r)
    alike = [[g.config[0] + 1 for g in group] for group in groups.values() if len(group) > 1 and group[0].config]
    return [group[0] for group in groups.values()], alike


def _alike_text(alike: list[list[int]], at_most: int = 8) -> str:
    """`6, 7, 8 as 5; 2 as 1`: each config compiled as the first of its group, the first `at_most` groups."""
    parts = [f"{', '.join(map(str, g[1:]))} as {g[0]}" for g in alike[:at_most]]
    return "; ".join(parts) + (f"; {len(alike) - at_most} more such groups" if len(alike) > at_most else "")


def _config_request(request: CompileRequest, c: Any, params: set[str], config: tuple[int, int]) -> CompileRequest:
    """`request` compiled as the autotuner's config `c`: its kwargs as constexprs (where the command line
    gives none), its num_warps unless --num-warps says, its num_stages / num_ctas / maxnreg; a kwarg that
    names no parameter is a compile option (AMD's waves_per_eu), as the JIT reads a launch's extra keywords."""
    given = dict(request.constexprs)
    options = tuple((k, getattr(c, k)) for k in ("num_stages", "num_ctas", "maxnreg")
                    if getattr(c, k, None) is not None)
    options += tuple((k, v) for k, v in c.kwargs.items() if k not in params)
    warps = request.num_warps if request.num_warps is not None else getattr(c, "num_warps", None)
    constexprs = {**{k: v for k, v in c.kwargs.items() if k in params}, **given}
    return replace(request, constexprs=tuple(constexprs.items()), num_warps=warps, options=options, config=config)


def _given_configs(request: CompileRequest, configs: list, named: set[str], params: set[str]
                   ) -> list[CompileRequest]:
    """The autotuner's configs whose tuned values the command line gives (`--constexpr BLOCK_M=128 ...`), each
    compiled with its launch options as a launch the autotuner chose it for would be (they were the
    defaults' 4 warps and 3 stages, said nowhere); none matching: the request as given, and a note."""
    given = dict(request.constexprs)

    def same(a: Any, b: Any) -> bool:
        return a == b or str(a) == str(b)

    matching = [(i, c) for i, c in enumerate(configs)
                if all(same(c.kwargs[k], given[k]) for k in named if k in getattr(c, "kwargs", {}))]
    shown = ", ".join(f"{k}={given[k]}" for k in sorted(named))
    if not matching:
        return [replace(request, notes=request.notes + (
            f"{shown} is none of the autotuner's {len(configs)} configs: compiled with the launch's own options "
            "(num_warps, num_stages), not a config's",))]
    which = ", ".join(str(i + 1) for i, _ in matching)
    their = "their" if len(matching) > 1 else "its"
    replaced = _replaced(request, [c for _, c in matching], their)
    kept = [k for k in ("num_warps", "num_stages") if not any(f" {k} (" in r for r in replaced)]
    said = ([f"compiled with {their} {' and '.join(kept)}"] if kept else []) + replaced
    out, alike = _compiled_once([_config_request(request, c, params, (i, len(configs)))
                                 for i, c in matching])
    if len(out) == 1 and len(matching) > 1:  # (the configs named all compile the same: one kernel, said)
        said.append(f"the {len(matching)} configs then compile the same: compiled once")
        out = [replace(out[0], config=None)]
    elif alike:
        said.append(f"configs that then compile the same are compiled once: {_alike_text(alike)}")
    if len(matching) == 1:
        out = [replace(r, config=None) for r in out]
    note = f"{shown} picks the autotuner's config{'s' if len(matching) > 1 else ''} {which} of {len(configs)}: " + \
        "; ".join(said)
    return [replace(r, notes=r.notes + (note,)) for r in out]
