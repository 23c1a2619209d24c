"""File names the stages have to quote: a kernel in a folder named with non-ASCII letters, a backslash or a
double quote. MLIR and LLVM IR escape such bytes as `\\XX` (hex), PTX, AMDGCN and nvdisasm's SASS as `\\ooo`
(octal, LLVM's MC printer): each stage's names were kept as written, so the source was "not found" and the
stages named different files (PTX and SASS had no op at any line of the kernel's file).

Real data: tests/data/unicode-path-triton3.9 (see its README), cross-compiled by Triton 3.9.0.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tritonscope.artifacts.tools import find_nvidia_tool
from tritonscope.stages.common import unescape_c, unescape_llvm

DATA = Path(__file__).parent / "data" / "unicode-path-triton3.9"
CUDA = ("ZVMKPRT6ECVORCWDYKOXDAU3C5L3LVWK4BPW6M2U2BNLECCJY6BA", "/tmp/tritonscope-ünicode/数 b\\s",
        ("ttir", "ttgir", "llir", "ptx") + (("sass",) if find_nvidia_tool("nvdisasm") else ()))
HIP = ("MPCPVNSHKASFD6UOOMCSDGQWUTRY3A5UPYYMHI574BWX3APEN3VQ", '/tmp/tritonscope-ünicode/数 "q" b\\s',
       ("ttir", "ttgir", "llir", "amdgcn"))


@pytest.mark.parametrize(("written", "name"), [
    (r"/tmp/jos\C3\A9 dir/k.py", "/tmp/jos\u00e9 dir/k.py"),
    (r"C:\\Users\\a\22b.py", 'C:\\Users\\a"b.py'),
    (r"\E6\95\B0", "数"),
    ("plain/k.py", "plain/k.py"),
    (r"bad\FF.py", "bad\\xff.py"),  # not UTF-8: shown, not guessed
])
def test_llvm_escapes(written, name):
    assert unescape_llvm(written) == name


@pytest.mark.parametrize(("written", "name"), [
    (r"/tmp/jos\303\251 dir", "/tmp/jos\u00e9 dir"),
    (r"\346\225\260 \"q\" b\\s", '数 "q" b\\s'),
    (r"a\tb", "a\tb"),
    ("plain", "plain"),
    (r"\377", "\\xff"),
])
def test_c_escapes(written, name):
    assert unescape_c(written) == name


@pytest.mark.parametrize(("entry", "folder", "stages"), [CUDA, HIP], ids=["cuda90", "gfx942"])
def test_map_reads_the_kernel_file_through_every_stage(cli, tmp_path, entry, folder, stages):
    cache = tmp_path / "cache"
    shutil.copytree(DATA / entry, cache / entry)
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(DATA / "k.py.txt", src / "k.py")
    compiled = (cache / entry).stat().st_mtime  # (the source as old as the entry: no caution)
    os.utime(src / "k.py", (compiled, compiled))
    assert any("\\" in line and "k.py" in line for line in (cache / entry / "add_kernel.ttir").open())
    r = cli("map", str(cache / entry), "--line", "10", "--json", "--substitute-path", folder, str(src))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["source"] == {"requested": f"{folder}/k.py", "path": str(src / "k.py"), "how": "substitute-path",
                             "found": True, "error": None, "note": None, "caution": None}
    counts = {s["stage"]: s["count"] for s in out["stages"]}
    assert all(counts[s] > 0 for s in stages), counts
    r = cli("map", "--stats", "--cache-dir", str(cache), "--json")
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(r.stdout)["kernels"]
    assert row["kernel"]["source_file"] == f"{folder}/k.py"
    per_stage = {s["stage"]: s for s in row["stages"]}
    for s in stages:  # every op with a location names the kernel's own file
        assert per_stage[s]["other_file"] == 0 and per_stage[s]["attributed"] > 0, per_stage[s]
