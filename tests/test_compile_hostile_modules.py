"""User modules that do at import what the command must outlive: change directory, start a thread, replace or
close the streams, edit sys.path, read stdin, crash the interpreter or kill their process; and kernel paths a
read would hang on or never end (helper 99). The command goes on as it would for a quiet module, or says in
one line what ended it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from conftest import run_cli

KERNEL = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.jit
    def k(x_ptr, BLOCK: tl.constexpr = 64):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)
''')
COMMON = ("--signature", "x_ptr=*fp32", "--target", "cuda:90")


def _module(tmp_path, name: str, at_import: str) -> str:
    (tmp_path / f"{name}.py").write_text(KERNEL + textwrap.dedent(at_import))
    return f"{tmp_path / name}.py::k"


def test_a_module_that_changes_directory_leaves_the_cache_where_it_was_asked(tmp_path):
    """`os.chdir("/")` at import: the entry went to `/relcache`, the command said it wrote `relcache`."""
    kernel = _module(tmp_path, "moves", 'import os\nos.chdir(os.path.dirname(os.path.dirname(__file__)))\n')
    work = tmp_path / "work"
    work.mkdir()
    r = subprocess.run([sys.executable, "-m", "tritonscope", "compile", kernel, *COMMON, "--cache-dir", "relcache"],
                       capture_output=True, text=True, cwd=work, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    assert r.returncode == 0, r.stderr
    assert list((work / "relcache").glob("*/k.json")) and not (tmp_path / "relcache").exists()


@pytest.mark.parametrize("name, at_import", [
    ("thread", "import threading, time\nthreading.Thread(target=time.sleep, args=(3600,)).start()\n"),
    ("streams", "import sys, os\nsys.stderr = open(os.devnull, 'w')\nsys.stdout.close()\n"),
    ("paths", "import sys\nsys.path.clear()\n"),
    ("stdin", "import sys\nsys.stdin.read()\n"),
])
def test_what_a_module_does_at_import_does_not_outlive_it(tmp_path, name, at_import):
    """A thread it starts (the command, and each worker, waited for it at exit: for ever); stderr replaced or
    stdout closed (the command's errors went nowhere); sys.path cleared (the tool's own cleanup raised, blamed
    on the module); stdin read (it waited for a terminal's input)."""
    kernel = _module(tmp_path, name, at_import)
    r = subprocess.run([sys.executable, "-m", "tritonscope", "compile", kernel, *COMMON, "--constexpr", "BLOCK=3",
                        "--cache-dir", str(tmp_path / "c")], capture_output=True, text=True, timeout=300,
                       stdin=subprocess.PIPE if name == "stdin" else None, env={**os.environ, "NO_COLOR": "1"})
    # (BLOCK=3: not a power of two, an error of the compile, which must still reach stderr)
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
    assert r.returncode == 1 and errors and "power of 2" in r.stderr, r.stderr
    assert not (tmp_path / "c").exists() or any((tmp_path / "c").iterdir())  # (no empty cache folder left)


def test_a_module_whose_import_crashes_the_interpreter_is_named(tmp_path):
    """vLLM's `torch.library` registrations crash the interpreter at import: rc 139, nothing said."""
    kernel = _module(tmp_path, "segv", "import ctypes\nctypes.string_at(0)\n")
    r = run_cli("compile", kernel, *COMMON, "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr == (f"tritonscope: error: {tmp_path / 'segv.py'}: importing the module ended the process "
                        "(SIGSEGV: the module, or a native library it loads, crashed)\n"), r.stderr


def test_a_kernel_path_no_read_would_end_is_refused_before_anything_reads_it(tmp_path):
    """A FIFO hung the command (its size estimate read it), /dev/zero behind a link ate the memory, a link
    loop was an internal error, a folder was "no such file"."""
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    (tmp_path / "dir.py").mkdir()
    for name, says in (("fifo", "a FIFO, not a Python file"), ("zero", "a device, not a Python file"),
                       ("loop", "a symbolic link loop"), ("dir", "a folder, not a Python file")):
        r = run_cli("compile", f"{tmp_path / name}.py::k", *COMMON, "--cache-dir", str(tmp_path / "c"))
        assert r.returncode == 2 and r.stderr == f"tritonscope: error: {tmp_path / name}.py: {says}\n", r.stderr


@pytest.mark.parametrize("args, says", [
    (("--signature", "x_ptr=*fp32,x_ptr=*fp16"), "--signature: argument 'x_ptr' given twice (*fp32, *fp16)"),
    (("--signature", "x_ptr=*fp32", "--constexpr", "x_ptr=3"),
     "argument 'x_ptr' has a type in --signature (*fp32) and a value as a constexpr (3): give one"),
    (("--signature", "x_ptr=*fp32,BLOCK=i32"),
     "argument 'BLOCK' is a tl.constexpr: give its value (BLOCK=V in --signature, or --constexpr BLOCK=V), not a "
     "type (i32)"),
])
def test_a_spec_that_says_two_things_of_an_argument_is_refused(tmp_path, args, says):
    """The last of two types won without a word; a constexpr over a typed pointer failed later in `tl.load`
    ("Unsupported ptr type"); a type for a tl.constexpr failed in codegen ("arange's arguments must be of
    type tl.constexpr")."""
    kernel = _module(tmp_path, "plain", "")
    r = run_cli("compile", kernel, "--target", "cuda:90", *args, "--explain-spec")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.endswith(f"error: {says}\n"), r.stderr


def _started(tmp_path, kernel: str, *args: str) -> subprocess.Popen:
    """The command in a session of its own (no terminal's process group), its temporary files in tmp_path."""
    env = {**os.environ, "NO_COLOR": "1", "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "tritonscope", "compile", kernel, *COMMON, *args,
                             "--cache-dir", str(tmp_path / "c")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)


def _wait_for(path, seconds: float = 120) -> None:
    import time

    end = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < end, f"{path} never appeared"
        time.sleep(0.05)


def test_a_sigint_to_the_command_alone_interrupts_it(tmp_path):
    """An IDE's stop button or `timeout --foreground -s INT` signals the command's process only: the watching
    parent ignored SIGINT, and the compile went on to rc 0 (helper 100). It is passed on: one "interrupted"."""
    import signal

    kernel = _module(tmp_path, "sleepy", f"open({str(tmp_path / 'started')!r}, 'w').close()\n"
                                         "import time\ntime.sleep(120)\n")
    p = _started(tmp_path, kernel)
    _wait_for(tmp_path / "started")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130 and err == "tritonscope: interrupted\n", (p.returncode, err)


def test_the_child_ends_with_its_killed_parent_and_leaves_no_file(tmp_path):
    """SIGKILL to the watching parent left the child compiling alone (re-parented to init) and its
    `tritonscope-importing-*` file in $TMPDIR for ever."""
    import signal
    import time

    kernel = _module(tmp_path, "sleepy", f"import os\nopen({str(tmp_path / 'child')!r}, 'w').write(str(os.getpid()))\n"
                                         "import time\ntime.sleep(120)\n")
    p = _started(tmp_path, kernel)
    _wait_for(tmp_path / "child")
    time.sleep(0.2)
    child = int((tmp_path / "child").read_text())
    p.send_signal(signal.SIGKILL)
    p.communicate(timeout=60)
    end = time.monotonic() + 60
    while True:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < end, "the child outlived its parent"
        time.sleep(0.05)
    assert not list((tmp_path / "tmp").glob("tritonscope-importing-*"))


def test_a_worker_that_dies_importing_the_module_names_it(tmp_path):
    """A module that crashes on its second import (a native library not safe to load again, or after a fork)
    killed the compile worker importing it, and the error blamed Triton: "Triton's compiler crashed: the
    process was killed by SIGSEGV" (helper 100)."""
    flag = tmp_path / "imported-once"
    kernel = _module(tmp_path, "second", f"import os, ctypes\nif os.path.exists({str(flag)!r}):\n"
                                         f"    ctypes.string_at(0)\nopen({str(flag)!r}, 'w').close()\n")
    r = run_cli("compile", kernel, *COMMON, "--cache-dir", str(tmp_path / "c"), "-j", "1")
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
    assert r.returncode == 1 and errors == [
        f"tritonscope: error: {kernel} (cuda:90): {tmp_path / 'second.py'}: importing the module ended the compile "
        "worker (SIGSEGV: the module, or a native library it loads, crashed)"], r.stderr
    # (the cache folder the command made and left empty is gone: the summary does not name it as written)
    assert r.stdout.strip().endswith(f"0 of 1 compiled: nothing written to {tmp_path / 'c'}"), r.stdout
