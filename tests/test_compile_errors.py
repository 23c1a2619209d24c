"""User kernels (both signature notations) and errors: one line naming the source line, exit 1, no traceback."""

from __future__ import annotations

import json
import textwrap

USER_KERNEL = textwrap.dedent('''\
    import triton
    import triton.language as tl


    @triton.jit
    def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


    @triton.jit
    def broken_kernel(src_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(src_ptr + offs)
        tl.store(src_ptr + offs, x + undefined_name)
    ''')


def _write(tmp_path, text=USER_KERNEL):
    path = tmp_path / "user_kernels.py"
    path.write_text(text)
    return path


def test_aot_and_named_signatures_give_the_same_kernel(cli, tmp_path):
    path = _write(tmp_path)
    aot = cli("compile", f"{path}::copy_kernel", "--target", "cuda:90", "--signature", "*fp16:16, *fp16:16, i32, 256",
              "--cache-dir", str(tmp_path / "a"), "--json")
    named = cli("compile", f"{path}::copy_kernel", "--target", "cuda:90", "--signature",
                "src_ptr=*fp16, dst_ptr=*fp16, n=i32", "--constexpr", "BLOCK=256", "--cache-dir",
                str(tmp_path / "b"), "--json")
    assert aot.returncode == 0 and named.returncode == 0, aot.stderr + named.stderr
    (a,), (b,) = json.loads(aot.stdout)["results"], json.loads(named.stdout)["results"]
    assert a["hash"] == b["hash"]
    assert a["stages"] == ["source", "ttir", "ttgir", "llir", "ptx", "cubin", "json"]
    unaligned = cli("compile", f"{path}::copy_kernel", "--target", "cuda:90", "--signature",
                    "src_ptr=*fp16, dst_ptr=*fp16, n=i32", "--constexpr", "BLOCK=256", "--no-specialize", "src_ptr",
                    "--explain-spec", "--json")
    args = {x["name"]: x["hints"] for x in json.loads(unaligned.stdout)["kernels"][0]["spec"]["args"]}
    assert args == {"src_ptr": ["not specialized"], "dst_ptr": ["tt.divisibility=16"], "n": [], "BLOCK": []}


def test_front_end_error_names_the_source_line(cli, tmp_path):
    path = _write(tmp_path)
    proc = cli("compile", f"{path}::broken_kernel", "--target", "cuda:90", "--signature", "*fp32:16, 64",
               "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert lines[0].startswith(f"tritonscope: error: {path}::broken_kernel (cuda:90): ")
    assert "user_kernels.py:15:" in lines[0] and "undefined_name" in lines[0]
    assert lines[1] == "   15 |     tl.store(src_ptr + offs, x + undefined_name)"
    assert "Traceback" not in proc.stderr


def test_import_error_names_the_source_line(cli, tmp_path):
    path = _write(tmp_path, "import triton\n\nx = 1\ny = x +\n")
    proc = cli("compile", f"{path}::k", "--target", "cuda:90", "--signature", "*fp16", "--cache-dir", str(tmp_path))
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    assert "user_kernels.py:4:" in first and "SyntaxError" in first
    assert "Traceback" not in proc.stderr


def test_usage_errors_are_one_line(cli, tmp_path):
    for args, message in [
        (["nosuch"], "unknown kernel 'nosuch'"),
        (["gemv-nosuch"], "sample 'gemv' has no variant 'nosuch'"),
        (["gemv", "--target", "cuda:abc"], "unknown target 'cuda:abc'"),
        (["gemv", "--signature", "x=*fp16"], "--signature applies to user kernels"),
        (["--interpret"], "--interpret goes with --run"),
    ]:
        proc = cli("compile", *args, "--cache-dir", str(tmp_path))
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_missing_kernel_in_user_file(cli, tmp_path):
    path = _write(tmp_path)
    proc = cli("compile", f"{path}::nope", "--target", "cuda:90", "--signature", "*fp16", "--cache-dir", str(tmp_path))
    assert proc.returncode == 1
    assert "no kernel 'nope' (kernels there: copy_kernel, broken_kernel)" in proc.stderr


def test_run_without_gpu_is_one_line(cli, tmp_path):
    import torch

    if torch.cuda.is_available():
        return
    proc = cli("compile", "--run", "gemv", "--cache-dir", str(tmp_path))
    assert proc.returncode == 1
    assert proc.stderr.startswith("tritonscope: error: --run needs a GPU") and proc.stderr.count("\n") == 1
