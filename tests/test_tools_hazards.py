"""External disassemblers that are missing, hang, fail or print garbage: one clear line, other stages work.

Each hazard is real: an environment variable naming a path that does not exist, or a small shell
script standing in for nvdisasm / llvm-objdump that sleeps, exits 1 or prints junk.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from pathlib import Path

import pytest

from tritonscope.artifacts.cache import Cache


def _entry(cache39: Path, kernel: str, target: str) -> Path:
    for p in sorted(cache39.iterdir()):
        if (p / f"{kernel}.json").exists():
            (e,) = Cache(p).entries()
            if str(e.target) == target:
                return p
    raise AssertionError(f"no {kernel} for {target} in the corpus")


def _script(tmp_path: Path, name: str, body: str) -> str:
    p = tmp_path / name
    p.write_text("#!/bin/sh\n" + body + "\n")
    p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(p)


def _one_line_error(r) -> str:
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
    return r.stderr


@pytest.fixture
def cuda_entry(cache39) -> Path:
    return _entry(cache39, "add_kernel", "cuda:90")


@pytest.fixture
def hip_entry(cache39) -> Path:
    return _entry(cache39, "add_kernel", "hip:gfx942")


# --- missing --------------------------------------------------------------------------------------------


def test_nvdisasm_path_pointing_nowhere(cli, cuda_entry, tmp_path):
    env = {"TRITON_NVDISASM_PATH": str(tmp_path / "no" / "nvdisasm")}
    err = _one_line_error(cli("show", str(cuda_entry), "--stage", "sass", env=env))
    assert f"nvdisasm not found at TRITON_NVDISASM_PATH={tmp_path / 'no' / 'nvdisasm'}" in err
    assert str(cuda_entry / "add_kernel.cubin") in err
    # map: every other stage still mapped, sass skipped with the reason
    r = cli("map", str(cuda_entry), "--json", env=env)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc["skipped"]) == {"sass"} and "TRITON_NVDISASM_PATH" in doc["skipped"]["sass"]
    r = cli("map", str(cuda_entry), "--line", "65", env=env)
    assert r.returncode == 0 and "sass: skipped: nvdisasm not found" in r.stdout, (r.stdout, r.stderr)
    r = cli("map", "--stats", "--cache-dir", str(cuda_entry.parent), "--target", "cuda:90", "--json", env=env)
    assert r.returncode == 0, r.stderr
    kernels = json.loads(r.stdout)["kernels"]
    assert kernels and all("sass" in k["skipped"] for k in kernels)
    assert all({s["stage"] for s in k["stages"]} >= {"ttir", "ttgir", "llir", "ptx"} for k in kernels)
    # naming the stage is asking for it: an error, one line
    _one_line_error(cli("map", str(cuda_entry), "--stages", "ptx,sass", env=env))
    # loads and report carry on without SASS
    r = cli("loads", str(cuda_entry), env=env)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr
    r = cli("report", str(cuda_entry), "-o", str(tmp_path / "r.html"), env=env)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "r.html").stat().st_size > 0


def test_llvm_objdump_pointing_nowhere(cli, hip_entry, tmp_path):
    env = {"TRITONSCOPE_LLVM_OBJDUMP": str(tmp_path / "no-objdump")}
    err = _one_line_error(cli("show", str(hip_entry), "--stage", "hsaco-asm", env=env))
    assert "llvm-objdump not found" in err and str(hip_entry / "add_kernel.hsaco") in err
    r = cli("map", str(hip_entry), "--json", env=env)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert set(doc["skipped"]) == {"hsaco-asm"} and "llvm-objdump not found" in doc["skipped"]["hsaco-asm"]
    assert {"ttgir", "llir", "amdgcn"} <= set(doc["stages"]) if isinstance(doc["stages"], dict) else True
    r = cli("loads", str(hip_entry), env=env)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr


# --- hangs, fails, garbage ------------------------------------------------------------------------------


def test_nvdisasm_that_hangs_times_out(cli, cuda_entry, tmp_path):
    """A tool that never finishes (a shell script whose `sleep` child holds the output pipe)."""
    tool = _script(tmp_path, "nvdisasm", "sleep 60")
    env = {"TRITON_NVDISASM_PATH": tool, "TRITONSCOPE_TOOL_TIMEOUT": "1"}
    start = time.monotonic()
    err = _one_line_error(cli("show", str(cuda_entry), "--stage", "sass", env=env))
    elapsed = time.monotonic() - start
    assert "nvdisasm did not finish within 1s" in err
    assert elapsed < 45, f"the timeout did not stop the tool's children ({elapsed:.0f}s)"
    r = cli("map", str(cuda_entry), "--json", env=env)
    assert r.returncode == 0 and "did not finish" in json.loads(r.stdout)["skipped"]["sass"], r.stderr


def test_llvm_objdump_that_hangs_times_out(cli, hip_entry, tmp_path):
    tool = _script(tmp_path, "llvm-objdump", "sleep 60")
    env = {"TRITONSCOPE_LLVM_OBJDUMP": tool, "TRITONSCOPE_TOOL_TIMEOUT": "1"}
    start = time.monotonic()
    err = _one_line_error(cli("show", str(hip_entry), "--stage", "hsaco-asm", env=env))
    assert "llvm-objdump did not finish within 1s" in err
    assert time.monotonic() - start < 45


def test_tool_that_fails(cli, cuda_entry, hip_entry, tmp_path):
    nv = _script(tmp_path, "nvdisasm", 'echo "nvdisasm fatal   : Could not open input file" >&2; exit 1')
    err = _one_line_error(cli("show", str(cuda_entry), "--stage", "sass", env={"TRITON_NVDISASM_PATH": nv}))
    assert "nvdisasm failed: nvdisasm fatal   : Could not open input file" in err
    r = cli("map", str(cuda_entry), "--json", env={"TRITON_NVDISASM_PATH": nv})
    assert r.returncode == 0 and "nvdisasm failed" in json.loads(r.stdout)["skipped"]["sass"]
    od = _script(tmp_path, "llvm-objdump", "echo 'error: something broke' >&2; exit 3")
    err = _one_line_error(cli("show", str(hip_entry), "--stage", "hsaco-asm", env={"TRITONSCOPE_LLVM_OBJDUMP": od}))
    assert "llvm-objdump failed: error: something broke" in err


def test_tool_that_prints_garbage(cli, cuda_entry, tmp_path):
    """Exit 0 with junk: shown as the tool printed it; parsing it reports the lines it could not read."""
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"\x89PNG garbage \xff\xfe\n" + b"//## File broken\n" * 3 + b"/*0000*/ nonsense\n")
    nv = _script(tmp_path, "nvdisasm", f"cat {junk}")
    env = {"TRITON_NVDISASM_PATH": nv}
    r = cli("show", str(cuda_entry), "--stage", "sass", env=env)
    assert r.returncode == 0 and "garbage" in r.stdout, r.stderr
    r = cli("map", str(cuda_entry), "--json", env=env)
    assert r.returncode == 0, r.stderr
    assert f"{cuda_entry / 'add_kernel.cubin'}: unparsed lines: 5" in r.stderr
    r = cli("loads", str(cuda_entry), env=env)
    assert r.returncode == 0, r.stderr


def test_tool_that_is_not_executable(cli, cuda_entry, tmp_path):
    p = tmp_path / "nvdisasm"
    p.write_text("not a program")
    err = _one_line_error(cli("show", str(cuda_entry), "--stage", "sass", env={"TRITON_NVDISASM_PATH": str(p)}))
    assert "nvdisasm not found at TRITON_NVDISASM_PATH" in err


def test_no_tools_at_all_on_path(cli, cuda_entry, hip_entry, tmp_path):
    """PATH without any disassembler and no triton wheel copy named: sass and hsaco-asm skipped."""
    if shutil.which("sh") is None:
        pytest.skip("needs sh")
    env = {"TRITON_NVDISASM_PATH": str(tmp_path / "none"), "TRITONSCOPE_LLVM_OBJDUMP": str(tmp_path / "none"),
           "PATH": os.path.dirname(shutil.which("sh"))}
    for entry, stage in ((cuda_entry, "sass"), (hip_entry, "hsaco-asm")):
        r = cli("map", "--stats", str(entry), "--json", env=env)
        assert r.returncode == 0, r.stderr
        (k,) = json.loads(r.stdout)["kernels"]
        assert list(k["skipped"]) == [stage]


@pytest.mark.parametrize("text", ["abc", "inf", "nan", "0", "-5", "1e400"])
def test_a_tool_timeout_that_is_no_duration_is_the_default(text):
    """TRITONSCOPE_TOOL_TIMEOUT of `abc` or `inf` raised internal errors; `nan`, `0`, `-5` blamed the tool."""
    from tritonscope.artifacts.tools import _timeout

    assert _timeout(text) == 60.0 and _timeout("2.5") == 2.5


def test_a_cache_path_naming_an_unknown_home_is_taken_as_written():
    from pathlib import Path

    from tritonscope.artifacts.disasm_cache import DisasmCache

    assert DisasmCache.default({"TRITONSCOPE_DISASM_CACHE": "~nouser-xyz/x"}).root == Path("~nouser-xyz/x")


def test_dwarfdump_output_is_cached_under_the_dwarfdump_that_made_it(tmp_path, monkeypatch):
    """The disassembly cache keyed llvm-dwarfdump's output by llvm-objdump's build: another dwarfdump beside
    the same objdump was served the first one's output."""
    import os

    from tritonscope.artifacts import tools

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    objdump = bin_dir / "llvm-objdump-99"
    objdump.write_text("#!/bin/sh\nexit 0\n")
    dwarfdump = bin_dir / "llvm-dwarfdump-99"
    for i, says in enumerate(("FIRST", "SECOND, LONGER")):
        dwarfdump.write_text(f"#!/bin/sh\necho {says}\n")
        os.utime(dwarfdump, (1000 + i, 1000 + i))
        for p in (objdump, dwarfdump):
            p.chmod(0o755)
        binary = tmp_path / "entry" / "k.hsaco"  # (the cache beside it, not inside the folder it is in)
        binary.parent.mkdir(exist_ok=True)
        binary.write_bytes(b"\x7fELF not really")
        monkeypatch.setenv("TRITONSCOPE_DISASM_CACHE", str(tmp_path / "disasm"))
        monkeypatch.setattr(tools, "llvm_objdumps", lambda: [str(objdump)])
        assert tools.dwarfdump_hsaco(binary).strip() == says


def test_a_tool_that_writes_without_end_is_stopped_at_the_bound(tmp_path, monkeypatch):
    """Output goes to files checked while the tool runs (a fake disassembler printing `yes` took 2.6 GB in
    3 s): past MAX_TOOL_OUTPUT the tool is stopped and the run refused in one error."""
    from tritonscope.artifacts import tools
    from tritonscope.errors import TritonscopeError

    monkeypatch.setattr(tools, "MAX_TOOL_OUTPUT", 1 << 20)
    endless = tmp_path / "endless"
    endless.write_text("#!/bin/sh\nexec yes\n")
    endless.chmod(0o755)
    with pytest.raises(TritonscopeError, match="wrote more than 1 MiB"):
        tools.RunningTool([str(endless), "x.cubin"], timeout=30).output()


def test_what_a_tool_started_does_not_outlive_it(tmp_path):
    """A wrapper that leaves a child running (holding its output) is stopped with that child once done."""
    import os
    import subprocess
    import time

    from tritonscope.artifacts import tools

    marker = tmp_path / "alive"
    wrapper = tmp_path / "wrapper"
    wrapper.write_text(f"#!/bin/sh\n(sleep 30; echo late > {marker}) &\necho done\n")
    wrapper.chmod(0o755)
    assert tools.RunningTool([str(wrapper), "x"], timeout=30).output().strip() == "done"
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", f"echo late > {marker}"], capture_output=True, text=True).stdout
    assert left.strip() == "" and not marker.exists(), left
    assert os.path.exists(tmp_path)
