"""External disassemblers, found and run in one place: nvdisasm/cuobjdump and llvm-objdump.

Each runs with list arguments and a timeout; a missing tool or an unknown architecture becomes one
clear ToolMissing error, never a traceback. Their output is parsed by ordinary stage parsers.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import time
from pathlib import Path

from tritonscope.artifacts.disasm_cache import DisasmCache, _tool_identity
from tritonscope.artifacts.own_cache import within
from tritonscope.errors import ToolMissing, TritonscopeError
from tritonscope.lazyre import lazy_compile


def _timeout(text: str | None, default: float = 60.0) -> float:
    """TRITONSCOPE_TOOL_TIMEOUT in seconds: a positive finite number, else the default (`abc`, `inf`, `nan`,
    `0` and `-5` raised internal errors or blamed the tool for not finishing within nan seconds)."""
    try:
        value = float(text) if text is not None else default
    except ValueError:
        return default
    return value if 0 < value < 1e6 else default


DEFAULT_TIMEOUT = _timeout(os.environ.get("TRITONSCOPE_TOOL_TIMEOUT"))
_OBJDUMP_VERSION = lazy_compile(r"llvm-objdump-(\d+)$")


def triton_package_dirs() -> list[Path]:
    """The folders of the installed `triton` package, located without importing it."""
    try:
        spec = importlib.util.find_spec("triton")
    except (ImportError, ValueError):
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    return [Path(loc) for loc in spec.submodule_search_locations]


def triton_nvidia_bin() -> Path | None:
    """`triton/backends/nvidia/bin` of the installed triton, located without importing triton."""
    for loc in triton_package_dirs():
        p = loc / "backends" / "nvidia" / "bin"
        if p.is_dir():
            return p
    return None


def find_nvidia_tool(name: str) -> str | None:
    """nvdisasm/cuobjdump: $TRITON_<NAME>_PATH, the triton wheel's copy, then PATH."""
    env = os.environ.get(f"TRITON_{name.upper()}_PATH")
    if env:  # an explicit choice is honoured exclusively, as Triton does
        return env if os.access(env, os.X_OK) else None
    b = triton_nvidia_bin()
    if b and os.access(b / name, os.X_OK):
        return str(b / name)
    return shutil.which(name)


def run_tool(argv: list[str], timeout: float = DEFAULT_TIMEOUT) -> str:
    return RunningTool(argv, timeout).output()


# A disassembler's output (stdout and stderr each) beyond this is no disassembly of a Triton kernel (the
# largest SASS we hold is a few MB): the tool is stopped and the run refused. Held in files, never in pipes
# read whole: a tool printing without end (`yes`, or llvm-objdump's warnings on a damaged HSACO) took
# gigabytes of memory in seconds.
MAX_TOOL_OUTPUT = 256 << 20
_POLL_S = 0.01


class ToolRun:
    """(exit code, stdout, stderr) of a finished tool run, each output at most MAX_TOOL_OUTPUT bytes."""

    __slots__ = ("returncode", "stdout", "stderr")

    def __init__(self, returncode: int, stdout: bytes, stderr: bytes):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


class ToolTimeout(TritonscopeError):
    """The tool did not finish within its time."""


class ToolOutputTooLarge(TritonscopeError):
    """The tool wrote more than MAX_TOOL_OUTPUT bytes (and was stopped)."""


class RunningTool:
    """A tool started now and read later, so that the caller can work while it runs (`map` parses the
    text stages while nvdisasm disassembles). Starting errors are kept and raised by `output()`, so the
    error surfaces where the caller would have run the tool. Its output goes to two anonymous files, checked
    against MAX_TOOL_OUTPUT while it runs; it runs in a process group of its own, stopped whole once it
    is done with (children that outlive it included)."""

    def __init__(self, argv: list[str], timeout: float = DEFAULT_TIMEOUT):
        self.argv = argv
        self.timeout = timeout
        self.tool = os.path.basename(argv[0])
        self.error: TritonscopeError | None = None
        import subprocess  # here, not at the top: a warm disassembly cache runs no tool (~2 ms per start)
        import tempfile

        self.proc: subprocess.Popen | None = None
        self.files = (tempfile.TemporaryFile(), tempfile.TemporaryFile())
        try:
            # its own process group, so that a timeout stops the children of a wrapper script as well
            self.proc = subprocess.Popen(argv, stdout=self.files[0], stderr=self.files[1],
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        except FileNotFoundError:
            self.error = ToolMissing(f"{self.tool} not found")
        except OSError as e:
            self.error = TritonscopeError(f"cannot run {self.tool}: {e.strerror}", argv[-1])
        self.started = time.monotonic()

    def finish(self) -> ToolRun:
        """Wait for the tool (at most its timeout; ToolTimeout after) and return what it wrote."""
        if self.error is not None:
            self._release()
            raise self.error
        assert self.proc is not None
        import subprocess

        try:
            while True:
                remaining = self.timeout - (time.monotonic() - self.started)
                if remaining <= 0:
                    raise ToolTimeout(f"{self.tool} did not finish within {self.timeout:.0f}s", self.argv[-1])
                try:
                    self.proc.wait(timeout=min(_POLL_S, remaining))
                    break
                except subprocess.TimeoutExpired:
                    pass
                self._check_size()
            self._check_size()  # (what it wrote between the last look and its end)
            outputs = []
            for f in self.files:
                f.seek(0)
                outputs.append(f.read(MAX_TOOL_OUTPUT + 1))  # (a child of the tool may still write)
            return ToolRun(self.proc.returncode, outputs[0], outputs[1])
        finally:
            self.close()

    def _check_size(self) -> None:
        if max(os.fstat(f.fileno()).st_size for f in self.files) > MAX_TOOL_OUTPUT:
            raise ToolOutputTooLarge(f"{self.tool} wrote more than {MAX_TOOL_OUTPUT >> 20} MiB: no disassembly of a "
                                     "kernel is this large (a damaged binary?)", self.argv[-1])

    def output(self) -> str:
        run = self.finish()
        if run.returncode != 0:
            err = run.stderr.decode("utf-8", "replace").strip().splitlines()
            msg = next((ln for ln in err if "error" in ln.lower()),
                       err[-1] if err else f"exit code {run.returncode}")
            raise TritonscopeError(f"{self.tool} failed: {msg.strip()}", self.argv[-1])
        return run.stdout.decode("utf-8", "replace")

    def close(self) -> None:
        """Stop the tool and whatever it started, if still running (its output is no longer wanted)."""
        if self.proc is not None:
            import signal

            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # (the group: children that outlive the tool too)
            except OSError:
                pass
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
        self._release()

    def _release(self) -> None:
        for f in self.files:
            f.close()


def disassemble_cubin(cubin: str | os.PathLike, timeout: float = DEFAULT_TIMEOUT) -> str:
    """SASS with line info (`//## File "...", line N` and inlined-at chains)."""
    return start_disassemble_cubin(cubin, timeout).output()


def start_disassemble_cubin(cubin: str | os.PathLike, timeout: float = DEFAULT_TIMEOUT) -> RunningTool:
    """`disassemble_cubin` started in the background; `.output()` waits for it (and raises its errors)."""
    nvdisasm = find_nvidia_tool("nvdisasm")
    if nvdisasm is None:
        env = os.environ.get("TRITON_NVDISASM_PATH")
        if env:
            raise ToolMissing(f"nvdisasm not found at TRITON_NVDISASM_PATH={env}", str(cubin))
        raise ToolMissing("nvdisasm not found: install triton (it ships one in triton/backends/nvidia/bin), "
                          "put it on PATH, or set TRITON_NVDISASM_PATH", str(cubin))
    # -gi (inlined-at chains) costs ~10% over -g and ~20% over no line info on a 60 KB cubin: the
    # chains are what `map` is for, so they stay. -gp adds each instruction's PTX line
    # (stages/sass_lines.py places instructions through it).
    return cached_tool([nvdisasm, "-c", "-gi", "-gp"], cubin, timeout)


class FinishedTool:
    """A disassembly answered from the tool's own cache: the RunningTool interface, nothing running."""

    def __init__(self, text: str):
        self.text = text

    def output(self) -> str:
        return self.text

    def close(self) -> None:
        pass


class CachingTool(RunningTool):
    """A RunningTool whose successful output is stored in the disassembly cache."""

    def __init__(self, argv: list[str], timeout: float, cache, key: str):
        super().__init__(argv, timeout)
        self.cache, self.key = cache, key

    def output(self) -> str:
        text = super().output()
        self.cache.put(self.key, text)
        return text


_BINARIES: dict[tuple[str, int, int], bytes] = {}


def read_binary(path: str | os.PathLike) -> bytes:
    """A binary stage's bytes, read once per process while unchanged (the disassembly cache key, the
    DWARF dump and the resource reader all need them): the last few files only, by path, size, mtime."""
    st = os.stat(path)
    key = (str(path), st.st_size, st.st_mtime_ns)
    data = _BINARIES.get(key)
    if data is None:
        with open(path, "rb") as fh:
            data = fh.read()
        remember_binary(key[0], key[2], data)
    return data


def remember_binary(path: str, mtime_ns: int, data: bytes) -> None:
    """Bytes of a binary stage, for read_binary (which reads them, or the records cache's key did): the
    last few files only, oldest dropped."""
    if len(_BINARIES) >= 4:
        _BINARIES.pop(next(iter(_BINARIES)))
    _BINARIES[(path, len(data), mtime_ns)] = data


def cached_tool(argv: list[str], binary_path: str | os.PathLike, timeout: float = DEFAULT_TIMEOUT):
    """`argv + [binary_path]` started now, or its output from the disassembly cache (disasm_cache.py)
    when the same tool build already disassembled the same bytes with the same arguments."""
    cache = DisasmCache.default()
    full = [*argv, str(binary_path)]
    if cache is None or within(cache.root, _enclosing_cache(Path(binary_path))):
        return RunningTool(full, timeout)  # never a cache inside the Triton cache being read
    try:
        binary = read_binary(binary_path)
    except OSError:
        return RunningTool(full, timeout)  # the tool reports the problem as it always did
    key = cache.key(argv[0], argv[1:], binary)
    hit = cache.get(key)
    if hit is not None:
        return FinishedTool(hit)
    return CachingTool(full, timeout, cache, key)


def _enclosing_cache(binary: Path) -> Path:
    """The Triton cache a binary lies in: its entry directory's parent when it sits in an entry (beside
    its metadata json), else its own directory."""
    folder = binary.resolve().parent
    try:
        in_entry = any(n.endswith(".json") for n in os.listdir(folder))
    except OSError:
        in_entry = False
    if not in_entry:  # an entry without its json (an interrupted compile, a binary alone): by its name
        from tritonscope.artifacts.cache import is_cache_entry_dir

        in_entry = is_cache_entry_dir(folder)
    return folder.parent if in_entry else folder


def llvm_objdumps() -> list[str]:
    """Every llvm-objdump on PATH (and /usr/lib/llvm-*/bin), newest version first."""
    env = os.environ.get("TRITONSCOPE_LLVM_OBJDUMP")
    if env:
        return [env] if os.access(env, os.X_OK) else []
    import glob

    candidates: list[tuple[int, str]] = []
    for d in os.environ.get("PATH", "").split(os.pathsep):
        for p in glob.glob(os.path.join(d, "llvm-objdump*")):
            m = _OBJDUMP_VERSION.search(p)
            if os.access(p, os.X_OK):
                candidates.append((int(m.group(1)) if m else 0, p))
    for p in glob.glob("/usr/lib/llvm-*/bin/llvm-objdump"):
        m = re.search(r"llvm-(\d+)/", p)
        candidates.append((int(m.group(1)) if m else 0, p))
    candidates.sort(reverse=True)
    out: list[str] = []
    seen: set[str] = set()
    for _, p in candidates:
        real = os.path.realpath(p)
        if real not in seen:
            seen.add(real)
            out.append(p)
    return out


def _memoized(tools: list[str], args: list[str], binary_path: str | os.PathLike, compute):
    """compute() through the disassembly cache, keyed by every candidate tool's build, `args` and the
    binary's bytes (as cached_tool, for tools run to completion)."""
    cache = DisasmCache.default()
    if cache is None or not tools or within(cache.root, _enclosing_cache(Path(binary_path))):
        return compute()
    try:
        binary = read_binary(binary_path)
    except OSError:
        return compute()
    key = cache.key("|".join(_tool_identity(t) for t in tools), args, binary)
    hit = cache.get(key)
    if hit is not None:
        return hit
    text = compute()
    if text is not None:
        cache.put(key, text)
    return text


# EF_AMDGPU_MACH (the low byte of an AMDGPU ELF's e_flags) -> the processor, as LLVM's ELF.h numbers them
_AMDGPU_MACH = {
    0x20: "gfx600", 0x21: "gfx601", 0x22: "gfx700", 0x23: "gfx701", 0x24: "gfx702", 0x25: "gfx703",
    0x26: "gfx704", 0x28: "gfx801", 0x29: "gfx802", 0x2A: "gfx803", 0x2B: "gfx810", 0x2C: "gfx900",
    0x2D: "gfx902", 0x2E: "gfx904", 0x2F: "gfx906", 0x30: "gfx908", 0x31: "gfx909", 0x32: "gfx90c",
    0x33: "gfx1010", 0x34: "gfx1011", 0x35: "gfx1012", 0x36: "gfx1030", 0x37: "gfx1031", 0x38: "gfx1032",
    0x39: "gfx1033", 0x3A: "gfx602", 0x3B: "gfx705", 0x3C: "gfx805", 0x3D: "gfx1035", 0x3E: "gfx1034",
    0x3F: "gfx90a", 0x40: "gfx940", 0x41: "gfx1100", 0x42: "gfx1013", 0x43: "gfx1150", 0x44: "gfx1103",
    0x45: "gfx1036", 0x46: "gfx1101", 0x47: "gfx1102", 0x48: "gfx1200", 0x4A: "gfx1151", 0x4B: "gfx941",
    0x4C: "gfx942", 0x4E: "gfx1201", 0x4F: "gfx950", 0x55: "gfx1152", 0x58: "gfx1153",
}
_EM_AMDGPU = 224
_OBJDUMP_HEADER = re.compile(r"\A(\s*)[^\n]*?:(\s+file format )")


def hsaco_arch(hsaco: str | os.PathLike) -> str | None:
    """The processor an AMDGPU code object is for, from its ELF header; None when its number is not one
    known here. An ELF of another machine (a CUBIN, an x86 binary) or no ELF at all is an error naming it."""
    try:
        head = read_binary(hsaco)[:64]  # (read once: the disassembly cache's key and the DWARF dump reuse it)
    except OSError as e:
        raise TritonscopeError(f"cannot read: {e.strerror or e}", str(hsaco)) from None
    if len(head) < 52 or head[:4] != b"\x7fELF":
        raise TritonscopeError("not an ELF file, so no AMD code object", str(hsaco))
    machine = int.from_bytes(head[18:20], "little")
    if machine != _EM_AMDGPU:
        raise TritonscopeError(f"an ELF for machine {machine}, not an AMD GPU code object (machine 224)"
                               + (" (a CUBIN)" if machine == 190 else ""), str(hsaco))
    flags = int.from_bytes(head[48:52], "little")
    return _AMDGPU_MACH.get(flags & 0xFF)


def disassemble_hsaco(hsaco: str | os.PathLike, arch: str, timeout: float = DEFAULT_TIMEOUT) -> str:
    """AMDGCN disassembly with line numbers from the newest llvm-objdump that knows `arch` (cached)."""
    tools = llvm_objdumps()
    text = _memoized(tools, ["objdump", "-d", "--line-numbers", f"--mcpu={arch}"], hsaco,
                     lambda: _disassemble_hsaco(tools, hsaco, arch, timeout))
    # llvm-objdump heads its output with the file's path: the cache keeps the first copy's, kept by content
    return _OBJDUMP_HEADER.sub(lambda m: f"{m.group(1)}{hsaco}:{m.group(2)}", text, count=1)


def _disassemble_hsaco(tools: list[str], hsaco: str | os.PathLike, arch: str, timeout: float) -> str:
    if not tools:
        raise ToolMissing("llvm-objdump not found: install Debian's llvm-19 (knows gfx942) or set "
                          "TRITONSCOPE_LLVM_OBJDUMP", str(hsaco))
    for tool in tools:
        argv = [tool, "-d", "--line-numbers", f"--mcpu={arch}", str(hsaco)]
        try:
            proc = RunningTool(argv, timeout).finish()
        except (ToolTimeout, ToolOutputTooLarge):
            raise
        except TritonscopeError:
            continue  # (it could not be started)
        err = proc.stderr.decode("utf-8", "replace")
        if any(s in err for s in ("not a recognized processor", "not yet supported for subtarget",
                                  "unable to get target", "can't find target")):
            continue
        if proc.returncode != 0:
            first = next((ln for ln in err.splitlines() if ln.strip()), f"exit code {proc.returncode}")
            raise TritonscopeError(f"{os.path.basename(tool)} failed: {first.strip()}", str(hsaco))
        return proc.stdout.decode("utf-8", "replace")
    names = ", ".join(tools)
    raise ToolMissing(f"no llvm-objdump here knows {arch} (tried {names}; gfx942 needs LLVM >= 17, "
                      f"gfx950 LLVM >= 20)", str(hsaco))


def dwarfdump_hsaco(hsaco: str | os.PathLike, timeout: float = DEFAULT_TIMEOUT) -> str | None:
    """`llvm-dwarfdump --debug-info --debug-line` of an hsaco: the inlined-call ranges llvm-objdump does not
    print, and the line table (its line-0 rows, which llvm-objdump prints nothing for).

    Uses the llvm-dwarfdump beside an llvm-objdump found by `llvm_objdumps()` (else the one of that name on
    PATH); None when there is none or it fails (the disassembly then carries innermost lines only). Cached
    like the disassembly, keyed by the dwarfdumps it may run (not the objdumps: another dwarfdump was
    served the first one's output)."""
    tools = _dwarfdumps(llvm_objdumps())
    return _memoized(tools, ["dwarfdump", *_DWARFDUMP_FLAGS], hsaco, lambda: _dwarfdump(tools, hsaco, timeout))


_DWARFDUMP_FLAGS = ("--debug-info", "--debug-line")


def _dwarfdumps(objdumps: list[str]) -> list[str]:
    """The llvm-dwarfdumps to try, in order, each once: beside each llvm-objdump, else on PATH."""
    out: list[str] = []
    for objdump in objdumps:
        base = os.path.basename(objdump).replace("llvm-objdump", "llvm-dwarfdump")
        for tool in (os.path.join(os.path.dirname(objdump), base), shutil.which(base) or ""):
            if tool and tool not in out and os.access(tool, os.X_OK):
                out.append(tool)
    return out


def _dwarfdump(tools: list[str], hsaco: str | os.PathLike, timeout: float) -> str | None:
    for tool in tools:
        try:
            proc = RunningTool([tool, *_DWARFDUMP_FLAGS, str(hsaco)], timeout).finish()
        except TritonscopeError:
            continue
        if proc.returncode == 0:
            return proc.stdout.decode("utf-8", "replace")
    return None
