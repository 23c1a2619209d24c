"""Turn what a failed compile leaves behind (a Python exception, MLIR diagnostics on stderr) into one
readable line that names the source line it points at.

Kinds: 'usage' (bad arguments), 'import' (the user's module does not import), 'source' (the kernel does
not compile: a front-end error or an MLIR diagnostic located in the kernel's file), 'compile' (it does not
compile and nothing says where, e.g. ptxas running out of registers), 'target' (the installed Triton cannot
build for this target at all: one warning line for the target, the other targets go on).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tritonscope.compile.gluon import is_missing_gluon, no_gluon_message

# `loc("/x/k.py":12:5): error: ...`, `/x/k.py:12:5: error: ...`
_MLIR_ERROR = re.compile(
    r'(?:loc\()?"?(?P<file>[^\s"():]+\.py)"?:(?P<line>\d+):(?P<col>\d+)\)?:\s*error:\s*(?P<msg>.+)'
)
_ANY_ERROR = re.compile(r"\b(?:error|fatal)\s*:\s*(?P<msg>.+)", re.IGNORECASE)
# What the installed Triton says when it cannot build for a target at all (no kernel could help it).
_TARGET_PROBLEM = re.compile(
    r"unsupported target|is not defined for option 'gpu-name'|unknown (?:target|processor)|"
    r"not a recognized processor|ld\.lld|no backend|TRITON_HIP_LLD_PATH", re.IGNORECASE)
_MAX_MESSAGE = 240
# An MLIR attribute as diagnostics print it: `#ttg.slice<{dim = 1, parent = #ttg.blocked<{...}>}>`
_ATTRIBUTE = re.compile(r"(#\w+\.\w+)<.*>")


@dataclass(frozen=True)
class CompileFailure:
    kind: str  # 'usage' | 'import' | 'source' | 'target'
    message: str
    path: str | None = None
    line: int | None = None
    col: int | None = None
    source_line: str | None = None
    trace: str | None = field(default=None, compare=False)  # the exception's traceback, shown with --debug

    def headline(self) -> str:
        where = ""
        if self.path:
            where = (
                self.path
                + (f":{self.line}" if self.line else "")
                + (f":{self.col}" if self.col else "")
                + ": "
            )
        return f"{where}{self.message}"


# A long call or constructor a message prints (`BlockedLayout(size_per_thread=[2], ...)`): elided first.
_LONG_CALL = re.compile(r"\b(\w+)\([^()]{40,}\)")


def _one_line(text: str) -> str:
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    line = lines[-1] if lines else ""
    if len(line) > _MAX_MESSAGE:  # (what the message says after its long values matters most)
        line = _LONG_CALL.sub(lambda m: m.group(1) + "(...)", line)
    return line if len(line) <= _MAX_MESSAGE else line[: _MAX_MESSAGE - 3] + "..."


def _source_line(path: str | None, line: int | None) -> str | None:
    if not path or not line:
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:  # (a file not UTF-8 still has lines)
            for i, text in enumerate(fh, 1):
                if i == line:
                    return text.rstrip("\n")
    except OSError:
        return None
    return None


def _display_path(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if not rel.startswith("..") else path


class _Captured:
    def __init__(self, keep: str | None = None) -> None:
        self.text_cache = ""
        # `keep`: a named file, read by the parent process if a crash in native code ends this one
        self.file = open(keep, "w+b") if keep else tempfile.TemporaryFile(mode="w+b")  # noqa: SIM115 - closed by capture_stderr

    def text(self) -> str:
        if self.file.closed:
            return self.text_cache
        self.file.seek(0)
        return self.file.read().decode("utf-8", "replace")


@contextlib.contextmanager
def capture_stderr(keep: str | None = None):
    """MLIR prints its diagnostics straight to file descriptor 2, and a failing ptxas run prints its
    reproducer to stdout: catch both (stdout carries our table or JSON), into the file `keep` if given."""
    captured = _Captured(keep)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = {fd: os.dup(fd) for fd in (1, 2)}
    try:
        for fd in saved:
            os.dup2(captured.file.fileno(), fd)
        yield captured
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, copy in saved.items():
            os.dup2(copy, fd)
            os.close(copy)
        captured.text_cache = captured.text()
        captured.file.close()


@contextlib.contextmanager
def scratch_tempdir():
    """Run a compile with the temp folder (Python's `tempfile` and the TMPDIR its tools read) pointed at a
    fresh folder of ours, removed after: Triton's NVIDIA backend leaves ptxas's input (`tmpXXXX.ptx`) in the
    temp folder when ptxas fails, and a failed compile must leave nothing behind."""
    import shutil

    scratch = tempfile.mkdtemp(prefix="tritonscope-compile-")
    saved = tempfile.tempdir, os.environ.get("TMPDIR")
    tempfile.tempdir = os.environ["TMPDIR"] = scratch
    try:
        yield scratch
    finally:
        tempfile.tempdir = saved[0]
        if saved[1] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved[1]
        shutil.rmtree(scratch, ignore_errors=True)


def _import_root(file: str) -> str:
    """The folder a kernel file is imported from: above its packages (folders with an __init__.py)."""
    folder = os.path.dirname(file)
    while os.path.isfile(os.path.join(folder, "__init__.py")) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    return folder


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def import_failure(exc: BaseException, path: str | None) -> CompileFailure:
    """A user module that raised while importing: point at the deepest frame inside that file."""
    file = str(Path(path).resolve()) if path else None
    if is_missing_gluon(exc):
        import triton

        return CompileFailure("usage", no_gluon_message(triton.__version__), _display_path(file) if file else None)
    if isinstance(exc, SyntaxError) and exc.filename:
        return CompileFailure(
            "import",
            f"SyntaxError: {exc.msg}",
            _display_path(exc.filename),
            exc.lineno,
            exc.offset,
            (exc.text or "").rstrip("\n") or None,
        )
    line = None
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in frames:
        if file and os.path.abspath(frame.filename) == file:
            line = frame.lineno
    mine = [f for f in frames if file and _inside(os.path.abspath(f.filename), _import_root(file))]
    raised = ""
    if file and line is None:
        # raised before the file ran: in a package __init__.py or a module it imports, of the user's tree
        if mine:
            file, line = os.path.abspath(mine[-1].filename), mine[-1].lineno
    elif mine and (os.path.abspath(mine[-1].filename), mine[-1].lineno) != (file, line):
        # the file's import of a module of its tree that raised: where, too (the headline stays the file's)
        raised = f" (raised at {os.path.basename(mine[-1].filename)}:{mine[-1].lineno})"
    # (the tool's own ModuleExited says what the module did: no class name of ours before it)
    kind = "" if type(exc).__name__ == "ModuleExited" else f"{type(exc).__name__}: "
    message = f"{kind}{_one_line(str(exc))}{raised}"
    undecodable = _not_utf8(file)
    if undecodable:  # (Triton's `inspect` reads the source as UTF-8: "should be defined in a Python file")
        message += f" ({undecodable})"
    return CompileFailure(
        "import", message, _display_path(file) if file else None, line, None, _source_line(file, line),
        trace="".join(traceback.format_exception(exc)),
    )


def _not_utf8(path: str | None) -> str | None:
    """Why a source is not text as Python reads it (UTF-8, or the encoding its first lines declare:
    `srcmap.paths.python_text`; where its first bad UTF-8 byte is), None where it is or cannot be read."""
    from tritonscope.srcmap.paths import python_text

    if not path:
        return None
    try:
        with open(path, "rb") as fh:
            data = fh.read(16 << 20)
    except OSError:
        return None
    if python_text(data) is not None:
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        return f"the file is not UTF-8: byte 0x{data[e.start]:02x} on line {line}"
    return "the file is not text in the encoding its first lines declare"


def classify_failure(exc: BaseException, stderr_text: str, fn: Any, target: Any) -> CompileFailure:
    """One failure of `triton.compile`, located in the kernel's source where the error says where."""
    kernel_file = os.path.abspath(fn.fn.__code__.co_filename) if hasattr(fn, "fn") else None
    node = getattr(exc, "node", None)
    if node is not None and hasattr(node, "lineno") and kernel_file:
        # A front-end CompilationError. An error inside a @jit helper is raised at the call, with no
        # message of its own: the helper's error is its __cause__ (and so on down a chain of helpers).
        frames = [(fn, exc)]
        while _no_message(exc) and _is_front_end_error(exc.__cause__):
            if exc.__cause__.src == getattr(fn, "src", None):  # re-raised in the same function
                exc = exc.__cause__
                frames[-1] = (fn, exc)
                continue
            callee = _callee(fn, exc.node, exc.__cause__.src)
            if callee is None:  # not found by name: the helper's message, at the call in the caller
                exc = _innermost(exc)
                break
            fn, exc = callee, exc.__cause__
            frames.append((fn, exc))
        message = _front_end_reason(exc, stderr_text)
        # shown at the deepest frame in the user's code (not inside triton.language: `tl.zeros`)
        shown = max((i for i, (f, _) in enumerate(frames) if not _in_triton(_file_of(f))), default=len(frames) - 1)
        fn, node = frames[shown][0], frames[shown][1].node
        path, line = _file_of(fn), _line_of(fn, frames[shown][1].node)
        context = []
        if shown < len(frames) - 1:
            inner_fn, inner = frames[-1]
            context.append(f"in {_name_of(inner_fn)} at {os.path.basename(_file_of(inner_fn))}:"
                           f"{_line_of(inner_fn, inner.node)}")
        if shown > 0:
            context.append(f"{_name_of(fn)} called at " + " <- ".join(
                f"{os.path.basename(_file_of(f))}:{_line_of(f, e.node)}" for f, e in reversed(frames[:shown])))
        if context:
            message = _one_line(f"{message} ({'; '.join(context)})")
        return CompileFailure(
            "source",
            message,
            _display_path(path),
            line,
            getattr(node, "col_offset", 0) + 1,
            _source_line(path, line),
        )
    text = "\n".join([stderr_text, str(exc)])
    problem = _TARGET_PROBLEM.search(text)
    if problem:
        m = _ANY_ERROR.search(text[max(0, text.rfind("\n", 0, problem.start())):])
        reason = _one_line(m.group("msg") if m else text[problem.start():].splitlines()[0])
        return CompileFailure("target", reason)
    for m in _MLIR_ERROR.finditer(text):
        path = m.group("file")
        if kernel_file and os.path.abspath(path) == kernel_file:
            line = int(m.group("line"))
            source_line = _source_line(kernel_file, line)
            return CompileFailure(
                "source",
                _mlir_reason(m, text, source_line),
                _display_path(kernel_file),
                line,
                int(m.group("col")),
                source_line,
            )
    where = _display_path(kernel_file) if kernel_file else None
    returned = _amd_kernel_returns(exc)
    if returned:  # (NVIDIA's lowering refuses the tt.return, above; AMD's lowers it and fails naming no cause)
        return CompileFailure("source", f"it returns a value, which a kernel cannot (its LLIR defines `amdgpu_kernel "
                              f"{returned}`, and the AMD backend asserts a kernel returning void): a @triton.jit "
                              "helper that kernels call is no kernel; compile a kernel that calls it", where)
    return CompileFailure("compile", _any_error(exc, text), where)


# (the return type after its attributes: `define amdgpu_kernel range(i32 0, -1) i32 @double(`)
_AMD_KERNEL_DEFINE = re.compile(r"^define amdgpu_kernel (?!void )([^@\n]{1,200}?) @([A-Za-z_][\w.$]*)\(", re.M)


def _amd_kernel_returns(exc: BaseException) -> str | None:
    """`float @helper_val` where the AMD backend's make_amdgcn failed its `assert len(names) == 1` on an LLIR
    whose kernel returns a value (the frame's `src`), else None."""
    if not isinstance(exc, AssertionError) or str(exc):
        return None
    tb = _innermost_frame(exc)
    if tb is None or tb.tb_frame.f_code.co_name != "make_amdgcn":
        return None
    src = tb.tb_frame.f_locals.get("src")
    m = _AMD_KERNEL_DEFINE.search(src) if isinstance(src, str) else None
    return f"{m.group(1)} @{m.group(2)}" if m else None


def _innermost_frame(exc: BaseException):
    """The traceback entry of the frame that raised `exc` (the last of its traceback), None without one."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def _raised_at(exc: BaseException) -> str:
    """Where an exception without a message was raised: `at triton/backends/amd/compiler.py:765 (assert
    len(names) == 1)`, the innermost frame's file below its site-packages, else its name."""
    import linecache

    tb = _innermost_frame(exc)
    if tb is None:
        return ""
    file = tb.tb_frame.f_code.co_filename
    k = file.replace("\\", "/").rfind("-packages/")
    shown = file[k + len("-packages/"):] if k >= 0 else os.path.basename(file)
    code = linecache.getline(file, tb.tb_lineno).strip()
    return f"at {shown}:{tb.tb_lineno}" + (f" ({_one_line(code)[:120]})" if code else "")


def _front_end_reason(exc: BaseException, stderr_text: str) -> str:
    """A front-end error's reason in one line: the first line of its message (Gluon's "layout conversion
    from ... is not trivial." goes on with the two linear layouts); without one (an op the MLIR verifier
    refused as it was built), the MLIR diagnostic printed for it, with the lines under it ("Layout has 32
    threads per warp, but the module specifies 64 threads per warp.")."""
    message = getattr(exc, "error_message", None)
    if message and not _RENDERED.match(message):
        first = next((ln.strip() for ln in message.splitlines() if ln.strip()), "")
        return _one_line(first) or type(exc).__name__
    m = _MLIR_ERROR.search(stderr_text)
    if m:
        return _mlir_reason(m, stderr_text, _source_line(m.group("file"), int(m.group("line"))))
    m = _ANY_ERROR.search(stderr_text)
    if m:
        return _one_line(m.group("msg"))
    return _one_line(message or str(exc)) or type(exc).__name__


def _mlir_reason(m: re.Match, text: str, source_line: str | None) -> str:
    """An MLIR diagnostic of `text` (an `_MLIR_ERROR` match) in one line: the pass pipeline that failed, else
    its message with the lines printed under it, before `source_line`'s excerpt. A `tt.return` that does not
    lower is a function that returns a value, compiled as a kernel: said so (helper 120: a @jit helper given
    as the kernel; whether a `return` returns a value is Triton's to decide, not the syntax's: `return
    helper()` of a helper returning nothing, or a return in a dead `if CONSTEXPR:`, are a kernel's own)."""
    if _RETURN_NOT_LOWERED in m.group("msg"):
        return (f"it returns a value, which a kernel cannot (MLIR: {_RETURN_NOT_LOWERED}): a @triton.jit helper "
                "that kernels call is no kernel; compile a kernel that calls it")
    return _pipeline_failure(m.group("msg"), text) or _with_details(m.group("msg"),
                                                                    _details_after(text, m.end(), source_line))


_RETURN_NOT_LOWERED = "failed to legalize operation 'tt.return'"


def _any_error(exc: BaseException, text: str) -> str:
    """`PTXASError: Modifier '.evict_last' cannot be combined with modifier '.volatile'`: the exception's
    type and the first error line of what was printed and raised (not ptxas' repro command)."""
    m = _ANY_ERROR.search(text)
    reason = _one_line(m.group("msg")) if m else _one_line(str(exc)) or _raised_at(exc)
    if m:  # an assembler's excerpt under its error (`griddepcontrol.wait;` and a caret): what it refused
        after = text[m.end():].split("\n")[1:3]
        if len(after) == 2 and after[0].strip() and after[1].strip() == "^":
            reason = _one_line(f"{reason} in `{after[0].strip()}`")
    return f"{type(exc).__name__}: {reason}".rstrip(": ")


def ir_failure_reason(exc: BaseException, stderr_text: str) -> str:
    """Why compiling a TTIR failed, in one line: the first MLIR error naming a source position, else the
    first error line printed or raised, with the exception's type."""
    text = "\n".join([stderr_text, str(exc)])
    return first_located_error(text) or _any_error(exc, text)


_PIPELINE_SUMMARY = "Failures have been detected while processing an MLIR pass pipeline"
_FAILED_PASS = re.compile(r"Pipeline failed while executing \[`(?P<name>[^`]+)`")
_ASSERTION = re.compile(r"Assertion [`'](?P<what>.+?)' failed")


def _pipeline_failure(message: str, text: str) -> str | None:
    """MLIR's summary of a failed pass pipeline, with what its notes and an assertion printed before it say:
    which pass failed, and the assertion that stopped it (`... in NVGPUWarpSpecialization: Assertion
    `aBlock && bBlock && "expected non-null blocks"' failed`)."""
    if not message.strip().startswith(_PIPELINE_SUMMARY):
        return None
    failed, asserted = _FAILED_PASS.search(text), _ASSERTION.search(text)
    if failed is None and asserted is None:
        return None
    where = f" in {failed.group('name')}" if failed else ""
    why = f": Assertion `{asserted.group('what')}' failed" if asserted else ""
    return _one_line(f"MLIR pass pipeline failed{where}{why}")


def first_located_error(text: str) -> str | None:
    """The first MLIR error that names a source position (`gemm.py:166:24: unsupported MMA instruction for
    the given operand/result types`), the file by its name; the pipeline's summary of it is skipped."""
    for m in _MLIR_ERROR.finditer(text):
        msg = m.group("msg").strip()
        if msg.startswith(_PIPELINE_SUMMARY):
            continue
        return _one_line(f"{os.path.basename(m.group('file'))}:{m.group('line')}:{m.group('col')}: {msg}")
    return None


def _details_after(text: str, end: int, source_line: str | None) -> str:
    """The lines MLIR prints between a diagnostic and its source excerpt (e.g. a layout verifier's "Layout
    has 32 threads per warp, but the module specifies 64 threads per warp.")."""
    details = []
    echo = (source_line or "").strip()
    for raw in text[end:].split("\n")[1:]:
        stripped = raw.strip()
        if not stripped or stripped == echo or set(stripped) <= {"^", "~"} or _MLIR_ERROR.match(stripped):
            break
        details.append(stripped)
    return " ".join(details)


def _with_details(message: str, details: str) -> str:
    """One line: the diagnostic and its details; a long attribute in it is elided first when too long."""
    message = message.strip()
    if not details:
        return _one_line(message)
    joined = f"{message.rstrip('.')}: {details}"
    if len(joined) > _MAX_MESSAGE:
        joined = f"{_ATTRIBUTE.sub(lambda a: a.group(1) + '<...>', message).rstrip('.')}: {details}"
    return _one_line(joined)


def _is_front_end_error(exc: BaseException | None) -> bool:
    return exc is not None and hasattr(exc, "node") and hasattr(exc, "src") and hasattr(exc, "error_message")


# A front-end error whose message is another's rendering (`at 2:4:`, the code, a caret line): Gluon's
# `warp_specialize` re-raises a partition's error so; the partition's own is further down the chain.
_RENDERED = re.compile(r"at \d+:\d+:\n")


def _no_message(exc: BaseException) -> bool:
    message = getattr(exc, "error_message", None)
    return message is None or bool(_RENDERED.match(message) and _is_front_end_error(exc.__cause__))


def _innermost(exc: BaseException) -> BaseException:
    """Down the chain of helper calls to the error that has a message (located in some helper)."""
    seen = 0
    while _no_message(exc) and _is_front_end_error(exc.__cause__) and seen < 64:
        exc, seen = exc.__cause__, seen + 1
    return exc


def _callee(fn: Any, node: Any, src: str | None) -> Any:
    """The @jit function named at `node` whose source is `src` (a Name or an attribute chain resolved in the
    caller's globals: called, `helper(...)`, `mod.helper(...)`, or passed, a `gl.warp_specialize`
    partition); None when none resolves."""
    import ast

    scope = getattr(getattr(fn, "fn", None), "__globals__", {})
    for named in ast.walk(node):
        if isinstance(named, ast.Call):
            continue  # (its callee is one of the names walked)
        parts, target = [], named
        while isinstance(target, ast.Attribute):
            parts.append(target.attr)
            target = target.value
        if not isinstance(target, ast.Name):
            continue
        obj = scope.get(target.id)
        for attr in reversed(parts):
            obj = getattr(obj, attr, None)
        if obj is not None and hasattr(obj, "fn") and getattr(obj, "src", None) == src:
            return obj
    return None


def _in_triton(path: str) -> bool:
    """Inside the installed triton package (its language: tl.zeros, standard.py's helpers)."""
    import triton

    return os.path.abspath(path).startswith(os.path.dirname(os.path.abspath(triton.__file__)) + os.sep)


def _name_of(fn: Any) -> str:
    return getattr(fn, "__name__", None) or fn.fn.__name__


def _file_of(fn: Any) -> str:
    return os.path.abspath(fn.fn.__code__.co_filename)


def _line_of(fn: Any, node: Any) -> int:
    """The file line of `node`, whose line counts from the first line of fn.src."""
    first = getattr(fn, "starting_line_number", None) or fn.fn.__code__.co_firstlineno
    return first + _src_offset(fn) + node.lineno - 1


def _src_offset(fn: Any) -> int:
    """Lines between the first line `inspect` reports (decorators included) and fn.src's first line."""
    raw = getattr(fn, "raw_src", None)
    src = getattr(fn, "src", None)
    if not raw or not src:
        return 0
    first_src = src.lstrip("\n").splitlines()[0].strip() if src.strip() else ""
    for i, text in enumerate(raw):
        if text.strip() == first_src:
            return i
    return 0
