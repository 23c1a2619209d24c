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
Ctrl-C reaches both (one process group): the parent ignores it and the child ends as it would alone; a
SIGTERM or SIGHUP the parent gets is passed to the child.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile

# (fd of the file the watched process writes what it is importing to, that process's pid): set in the child
_WATCHED: tuple[int, int] | None = None
_IMPORTING = "importing "


def importing(path: str | None) -> None:
    """Says (to the watching process, where there is one) which module this process imports now; None: none."""
    if _WATCHED is None or _WATCHED[1] != os.getpid():  # (a compile worker forked from it says nothing)
        return
    data = (f"{_IMPORTING}{path}" if path else "").encode("utf-8", "surrogateescape")
    try:
        os.ftruncate(_WATCHED[0], 0)
        os.pwrite(_WATCHED[0], data, 0)
    except OSError:
        pass


def watch() -> None:
    """Fork: return in the child, which runs the command; in the parent, wait for it and exit as it did (with a
    line where an import killed it). Nothing where fork is not there."""
    global _WATCHED
    if not hasattr(os, "fork"):
        return
    fd, path = tempfile.mkstemp(prefix="tritonscope-importing-")
    for stream in (sys.stdout, sys.stderr):  # (nothing buffered is written twice)
        stream.flush()
    pid = os.fork()
    if pid == 0:
        _WATCHED = (fd, os.getpid())
        return
    forwarded: list[int] = []

    def forward(signum, frame) -> None:
        forwarded.append(signum)
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
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
    try:
        os.unlink(path)
    except OSError:
        pass
    os._exit(_reported(status, said, forwarded))


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
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    if said.startswith(_IMPORTING):
        line = (f"tritonscope: error: {said[len(_IMPORTING):]}: importing the module ended the process ({name}): "
                "the module, or a native library it loads, crashed or killed it")
    else:
        line = f"tritonscope: error: compile: the process ended by {name}"
    try:
        sys.stderr.write(one_line(line) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return 1
