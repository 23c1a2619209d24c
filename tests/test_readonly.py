"""Inspection never writes, locks, renames or deletes anything in a cache.

Two checks: the tree's content and mtimes are identical before and after every inspection command,
and an audit hook (PEP 578) records every open-for-writing, rename, removal or mkdir a command attempts
under the cache, which must be none.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest
from test_imports import INSPECTION

from tritonscope.cli import COMMANDS, _module_exists

AUDIT_PROBE = r"""
import os, sys
root = os.path.realpath(sys.argv[1])
bad = []
WRITE_EVENTS = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.utime", "os.truncate",
                "shutil.rmtree", "os.symlink", "os.link", "fcntl.flock", "fcntl.lockf"}
def hook(event, args):
    if event == "open":
        path, mode, flags = args
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))
        if writing and isinstance(path, (str, bytes, os.PathLike)):
            p = os.path.realpath(os.fsdecode(path))
            if p.startswith(root):
                bad.append(("open-for-write", p))
    elif event in WRITE_EVENTS:
        for a in args:
            if isinstance(a, (str, bytes, os.PathLike)) and os.path.realpath(os.fsdecode(a)).startswith(root):
                bad.append((event, os.fsdecode(a)))
sys.addaudithook(hook)
from tritonscope.cli import main
sys.argv = ["tritonscope"] + sys.argv[2:]
try:
    main()
except SystemExit:
    pass
sys.stderr.write("WRITES:" + repr(bad) + "\n")
"""


def tree_fingerprint(root) -> dict[str, tuple]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        st = os.stat(dirpath)
        out[dirpath] = ("dir", st.st_mtime_ns, tuple(sorted(dirnames + filenames)))
        for n in filenames:
            p = os.path.join(dirpath, n)
            st = os.lstat(p)
            with open(p, "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()
            out[p] = (digest, st.st_mtime_ns, st.st_size, st.st_mode)
    return out


@pytest.mark.parametrize("command", sorted(INSPECTION))
def test_inspection_leaves_cache_untouched(command, corpus, tmp_path):
    if not _module_exists(COMMANDS[command][0]):
        pytest.skip(f"{command} not built yet")
    cache = corpus / "triton-3.9.0"
    args = [a.format(cache=cache, tmp=tmp_path) for a in INSPECTION[command]]
    before = tree_fingerprint(cache)
    r = subprocess.run([sys.executable, "-c", AUDIT_PROBE, str(cache), *args], capture_output=True, text=True,
                       timeout=600, env={**os.environ, "NO_COLOR": "1"})
    line = next(ln for ln in r.stderr.splitlines() if ln.startswith("WRITES:"))
    assert line == "WRITES:[]"
    assert tree_fingerprint(cache) == before
