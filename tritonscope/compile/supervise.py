"""A process that watches the one importing the user's kernel modules.

`compile` imports the user's module in its own process (to read its autotune configs and heuristics before
the compile workers start, and to run it with --run). An import can end that process outright: a native
library that crashes (vLLM's `torch.library` registrations, rc 139), a module that kills itself, the kernel
OOM killer. Nothing of the command is left to say so: the user saw an exit status and no line.

So where the command runs as a program (`tritonscope ...`, `python -m tritonscope`: never inside a test
runner's or a user's process) and is given a kernel file, it forks first: the child runs the command, the
parent waits and passes its exit status on. The child writes which module it is importing to a file the
parent reads where the child died of a signal, or exited with a signal's status while importing (a module
that sent itself SIGTERM: the child's handler makes that exit 143), and the parent says it in one line.
A SIGINT, SIGTERM or SIGHUP the parent gets is passed to the child (Ctrl-C reaches both, one process group:
the child ends at the first of the two it hears); the child gets a SIGTERM where the parent dies of another
signal (Linux: PR_SET_PDEATHSIG), and the file has no name from the start. A compile worker that dies
importing the module (it imports it again, or for the first time) is named the same way (`report_to`).
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile

# (fd of the file the watched process writes what it is importing to, that process's pid): set in the child
_WATCHED: tuple[int, int] | None = None
# a compile worker's file of the same (driver._compile_marked): where the worker dies importing, the command
# says so of that request
_WORKER_FILE: str | None = None
_IMPORTING = "importing "


def report_to(path: str | None) -> None:
    """In a compile worker: the file `importing` writes to while the worker runs a request (None: none)."""
    global _WORKER_FILE
    _WORKER_FILE = path


def importing(path: str | None) -> None:
    """Says (to the watching process, or to the command for a compile worker) which module this process
    imports now; None: none."""
    data = (f"{_IMPORTING}{path}" if path else "").encode("utf-8", "surrogateescape")
    if _WATCHED is not None and _WATCHED[1] == os.getpid():
        try:
            os.ftruncate(_WATCHED[0], 0)
            os.pwrite(_WATCHED[0], data, 0)
        except OSError:
            pass
    elif _WORKER_FILE is not None:
        try:
            with open(_WORKER_FILE, "wb") as fh:
                fh.write(data)
        except OSError:
            pass


def imported_when_died(path: str) -> str | None:
    """The module a process was importing when it died, from the file `importing` wrote (a worker's)."""
    try:
        with open(path, "rb") as fh:
            said = fh.read(64 << 10).decode("utf-8", "surrogateescape")
    except OSError:
        return None
    return said[len(_IMPORTING):] if said.startswith(_IMPORTING) else None


def ended_how(signum: int) -> str:
    """What a signal that ended an import says of its cause: `SIGSEGV: the module, or a native library it loads,
    crashed`; `SIGTERM: sent by the module, a library it loads or another process`."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
    if name in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGSYS", "SIGTRAP"):
        return f"{name}: the module, or a native library it loads, crashed"
    return f"{name}: sent by the module, a library it loads or another process (SIGKILL: also the kernel's " \
        "out-of-memory killer)" if name == "SIGKILL" else \
        f"{name}: sent by the module, a library it loads or another process"


def watch() -> None:
    """Fork: return in the child, which runs the command; in the parent, wait for it and exit as it did (with a
    line where an import killed it). Nothing where fork is not there."""
    global _WATCHED
    if not hasattr(os, "fork"):
        return
    fd, path = tempfile.mkstemp(prefix="tritonscope-importing-")
    try:  # (both processes keep the open file; no name is left behind, whatever ends them)
        os.unlink(path)
    except OSError:
        pass
    for stream in (sys.stdout, sys.stderr):  # (nothing buffered is written twice)
        stream.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        _WATCHED = (fd, os.getpid())
        _end_with(parent)
        return
    forwarded: list[int] = []

    def forward(signum, frame) -> None:
        forwarded.append(signum)
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    # Ctrl-C reaches both processes (one process group) and a SIGINT sent to this one alone (an IDE's stop, a
    # `timeout --foreground -s INT`) only this one: passed on in both cases, the child hears one of the two
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), forward)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    try:
        said = os.pread(fd, 64 << 10, 0).decode("utf-8", "surrogateescape")
    except OSError:
        said = ""
    os.close(fd)
    os._exit(_reported(status, said, forwarded))


def _end_with(parent: int) -> None:
    """In the child: a SIGTERM when the watching process dies (killed by a signal it cannot pass on: the child
    would go on alone, compiling into the cache); a second SIGINT heard while the first ends the command (the
    terminal's and the one the parent passes on) is ignored."""
    from tritonscope.parallel import end_with_parent

    end_with_parent(parent, signal.SIGTERM)
    heard: list[int] = []

    def interrupted(signum, frame) -> None:
        if not heard:
            heard.append(signum)
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupted)


def _reported(status: int, said: str, forwarded: list[int]) -> int:
    """The child's exit status as this process's, after the line that says why where an import ended it."""
    from tritonscope.render.visible import one_line

    if os.WIFSIGNALED(status):
        signum, code = os.WTERMSIG(status), 128 + os.WTERMSIG(status)
    else:
        code = os.WEXITSTATUS(status)
        signum = code - 128 if code > 128 and said.startswith(_IMPORTING) else 0
    if not signum or signum in forwarded or signum == signal.SIGINT:  # (Ctrl-C: the child said "interrupted")
        return code
    if said.startswith(_IMPORTING):
        line = (f"tritonscope: error: {said[len(_IMPORTING):]}: importing the module ended the process "
                f"({ended_how(signum)})")
    else:
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        line = f"tritonscope: error: compile: the process ended by {name}"
    try:
        sys.stderr.write(one_line(line) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return 1
