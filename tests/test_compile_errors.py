"""User kernels (both signature notations) and errors: one line naming the source line, exit 1, no traceback."""

from __future__ import annotations

import json
import textwrap
from importlib.metadata import version
from pathlib import Path

TRITON = version("triton")

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


HELPERS = textwrap.dedent('''\
    import triton
    import triton.language as tl


    @triton.jit
    def fill(ptr, BLOCK: tl.constexpr, DT: tl.constexpr):
        tl.store(ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), dtype=DT))


    @triton.jit
    def middle(ptr, BLOCK: tl.constexpr, DT: tl.constexpr):
        fill(ptr, BLOCK, DT)


    @triton.jit
    def outer_kernel(ptr, BLOCK: tl.constexpr, DT: tl.constexpr):
        middle(ptr, BLOCK, DT)
    ''')


def test_error_inside_helpers_names_the_helper_line_and_the_calls(cli, tmp_path):
    """Triton raises an error inside a @jit helper at the call, with no message of its own (the message
    is its __cause__'s, two helpers down here, then inside tl.zeros): the line shown is the deepest one of
    the user's file, with the message and the calls that led there."""
    path = _write(tmp_path, HELPERS)
    args = ("compile", f"{path}::outer_kernel", "--target", "cuda:90", "--signature", "ptr=*fp16",
            "--constexpr", "BLOCK=64", "--cache-dir", str(tmp_path / "c"))
    proc = cli(*args, "--constexpr", "DT=fp16")  # a string, not a dtype
    assert proc.returncode == 1, proc.stderr
    first, second = proc.stderr.splitlines()[:2]
    assert first.startswith(f"tritonscope: error: {path}::outer_kernel (cuda:90): ") and "user_kernels.py:7:" in first
    assert "has no attribute" in first and "(in zeros at standard.py:" in first, first
    assert first.endswith("; fill called at user_kernels.py:12 <- user_kernels.py:17)"), first
    assert second == "    7 |     tl.store(ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), dtype=DT))"
    # `tl.float16` is the dtype a launch passes
    proc = cli(*args, "--constexpr", "DT=tl.float16", "--json")
    assert proc.returncode == 0, proc.stderr
    (kernel,) = json.loads(proc.stdout)["results"]
    assert kernel["cached"] is False  # the failed compile of the same key left its directory behind
    again = json.loads(cli(*args, "--constexpr", "DT=tl.float16", "--json").stdout)["results"][0]
    assert again["cached"] is True and again["hash"] == kernel["hash"]


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


def test_a_python_file_without_a_kernel_name_lists_its_jit_functions(cli, tmp_path):
    """A .py file given alone was 'unknown kernel', with the samples' names; it is named, with the @jit
    functions it defines (read from its syntax: nothing is imported), autotuned ones and a class's included."""
    path = _write(tmp_path, USER_KERNEL + "\n\nclass Ops:\n    @triton.jit\n    def inner(p):\n        pass\n\n\n"
                  "@triton.autotune(configs=[], key=[])\n@triton.jit(do_not_specialize=['p'])\ndef tuned(p):\n"
                  "    pass\n\n\ndef plain():\n    pass\n\n\nfrom triton import jit as J\n\n\n@J\ndef aliased(p):\n"
                  "    pass\n\n\nassigned = triton.jit(plain)\n")
    proc = cli("compile", str(path), "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.strip().endswith(f"{path}: name the kernel to compile as {path}::NAME (@jit functions there: "
                                        "copy_kernel, broken_kernel, tuned, aliased, assigned, Ops.inner)"), \
        proc.stderr
    assert not (tmp_path / "c").exists()
    proc = cli("compile", str(tmp_path / "gone.py"), "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 2 and proc.stderr.strip().endswith("gone.py: no such file"), proc.stderr
    (tmp_path / "none.py").write_text("x = 1\n")
    proc = cli("compile", str(tmp_path / "none.py"), "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 2 and "it defines no @jit function at its top level" in proc.stderr, proc.stderr


def test_missing_kernel_in_user_file(cli, tmp_path):
    path = _write(tmp_path)
    proc = cli("compile", f"{path}::nope", "--target", "cuda:90", "--signature", "*fp16", "--cache-dir", str(tmp_path))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1  # a usage error, as --explain-spec says it
    assert "no kernel 'nope' (kernels there: copy_kernel, broken_kernel)" in proc.stderr
    # a helper imported from another module is not listed as the file's own (SGLang's MoE kernel file)
    (tmp_path / "helpers_mod.py").write_text("import triton\n\n\n@triton.jit\ndef write_zeros(p):\n    pass\n")
    user = tmp_path / "user_mod.py"
    user.write_text("import triton\nfrom helpers_mod import write_zeros\n\n\n@triton.jit\ndef moe(p):\n"
                    "    write_zeros(p)\n")
    proc = cli("compile", f"{user}::nope", "--target", "cuda:90", "--cache-dir", str(tmp_path))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "no kernel 'nope' (kernels there: moe; imported: write_zeros)" in proc.stderr


def test_a_helper_that_returns_a_value_is_said_to_be_no_kernel(cli, tmp_path):
    """Helper 120: a @triton.jit helper given as the kernel failed with MLIR's "failed to legalize operation
    'tt.return'" alone; it is said to return a value, at its return line. Whether a `return` returns a value is
    Triton's to decide (helper 123): `return helper()` of a helper returning nothing and a value return in a
    dead `if CONSTEXPR:` are a kernel's own, and compile."""
    user = tmp_path / "helper_mod.py"
    user.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef double(a):\n"
                    "    return a * 2\n\n\n@triton.jit\ndef _impl(p):\n    tl.store(p, 1.0)\n\n\n"
                    "@triton.jit\ndef via_impl(p):\n    return _impl(p)\n\n\n"
                    "@triton.jit\ndef dead(p, FLAG: tl.constexpr):\n    if FLAG:\n        return 1\n"
                    "    tl.store(p, 1.0)\n")
    cache = tmp_path / "cache"
    proc = cli("compile", f"{user}::double", "--target", "cuda:90", "--signature", "a=i32", "--cache-dir", str(cache))
    assert proc.returncode == 1, proc.stderr
    assert f"{user.name}:7:5: it returns a value, which a kernel cannot (MLIR: failed to legalize operation " \
        "'tt.return'): a @triton.jit helper that kernels call is no kernel" in proc.stderr, proc.stderr
    # AMD's backend lowers the return and asserts in make_amdgcn (a bare AssertionError; helper 126)
    proc = cli("compile", f"{user}::double", "--target", "hip:gfx942", "--signature", "a=i32", "--cache-dir",
               str(cache))
    assert proc.returncode == 1, proc.stderr
    assert "it returns a value, which a kernel cannot (its LLIR defines `amdgpu_kernel range(i32 0, -1) i32 " \
        "@double`, and the AMD backend asserts a kernel returning void)" in proc.stderr, proc.stderr
    for kernel, extra in (("via_impl", ()), ("dead", ("--constexpr", "FLAG=0"))):
        ok = cli("compile", f"{user}::{kernel}", "--target", "cuda:90", "--signature", "p=*fp32", *extra,
                 "--cache-dir", str(cache))
        assert ok.returncode == 0, (kernel, ok.stderr)


AUTOTUNED = """import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=4),
                          triton.Config({"BLOCK": 1024}, num_warps=8, num_stages=2)], key=["n"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
    else:
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
"""


def test_autotuned_and_heuristics_kernels_compile_as_their_jit_function(cli, tmp_path):
    """`@triton.autotune` / `@triton.heuristics` wrap the JIT function (before: AttributeError 'params').
    Every autotune config is compiled, as a first launch compiles each (its constexprs, num_warps and
    num_stages), unless --constexpr gives the tuned values; what the heuristics compute must be given."""
    path = tmp_path / "tuned.py"
    path.write_text(AUTOTUNED)
    cache = tmp_path / "c"
    base = ("compile", f"{path}::scale_kernel", "--target", "cuda:90", "--signature", "x_ptr=*fp32,n=i32:16",
            "--cache-dir", str(cache))
    missing = cli(*base)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr  # every config: a usage error
    assert missing.stderr.count("constexpr argument(s) without a value: EVEN") == 1 and not cache.exists()
    assert "an @triton.heuristics kernel computes EVEN from the launch's arguments" in missing.stderr
    every = cli(*base, "--constexpr", "EVEN=True", "--json")
    assert every.returncode == 0, every.stderr
    results = json.loads(every.stdout)["results"]
    block = [next(a["value"] for a in r["spec"]["args"] if a["name"] == "BLOCK") for r in results]
    assert [(r["autotune_config"], r["options"]["num_warps"]) for r in results] == \
        [({"index": 0, "of": 2}, 4), ({"index": 1, "of": 2}, 8)] and block == [256, 1024]
    assert results[1]["options"]["num_stages"] == 2 and len({r["hash"] for r in results}) == 2
    table = cli(*base, "--constexpr", "EVEN=True")
    assert "scale_kernel [config 2/2]" in table.stdout
    one = cli(*base, "--constexpr", "BLOCK=512", "--constexpr", "EVEN=True", "--num-warps", "8")
    assert one.returncode == 0, one.stderr
    assert "1 of 1 compiled" in one.stdout


def test_run_without_gpu_is_one_line(cli, tmp_path):
    import torch

    if torch.cuda.is_available():
        return
    proc = cli("compile", "--run", "gemv", "--cache-dir", str(tmp_path))
    assert proc.returncode == 1
    assert proc.stderr.startswith("tritonscope: error: --run needs a GPU") and proc.stderr.count("\n") == 1


def test_unsupported_target_is_one_warning_and_the_others_go_on(cli, tmp_path):
    proc = cli("compile", "vector_add", "softmax", "--target", "hip:gfx803", "--target", "cuda:90", "--cache-dir",
               str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"tritonscope: warning: hip:gfx803: Triton {TRITON} cannot compile for this target: "
        "unsupported target: 'gfx803'"]
    assert proc.stdout.strip().endswith(f"2 of 4 compiled into {tmp_path}")
    only = cli("compile", "vector_add", "--target", "cuda:20", "--cache-dir", str(tmp_path))
    assert only.returncode == 1
    assert only.stderr.splitlines() == [
        f"tritonscope: warning: cuda:20: Triton {TRITON} cannot compile for this target: "
        "Value 'sm_20' is not defined for option 'gpu-name'"]


def test_a_compiler_crash_fails_its_kernel_and_the_others_go_on(cli, tmp_path):
    # Triton 3.9's LLVM aborts the process (SIGABRT) selecting softmax's warp shuffles for sm_20: the crash
    # is that kernel's one error line, the other compiles finish, and no compile leaves a file in the
    # temp folder (Triton's NVIDIA backend leaves ptxas's input there when ptxas fails).
    temp = tmp_path / "temp"
    temp.mkdir()
    proc = cli("compile", "vector_add", "softmax", "--target", "cuda:20", "--target", "cuda:90", "--cache-dir",
               str(tmp_path / "cache"), env={"TMPDIR": str(temp)})
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.strip().endswith(f"2 of 4 compiled into {tmp_path / 'cache'}")
    assert proc.stderr.splitlines() == [
        f"tritonscope: warning: cuda:20: Triton {TRITON} cannot compile for this target: "
        "Value 'sm_20' is not defined for option 'gpu-name'",
        "tritonscope: error: softmax (cuda:20): Triton's compiler crashed: LLVM ERROR: Cannot select: intrinsic "
        "%llvm.nvvm.shfl.sync.bfly.i32 (the process was killed by SIGABRT)"]
    assert list(temp.iterdir()) == []


def test_a_process_that_dies_compiling_is_named_with_its_signal(cli, tmp_path):
    # Any death of the compiling process, here a kernel module that kills the worker that imports it for
    # AMD: one line for that request, and the NVIDIA request compiles (one job: the dead worker's request
    # is found by compiling each request it was running again, alone).
    path = _write(tmp_path, USER_KERNEL + textwrap.dedent("""
        import multiprocessing, os, signal
        from triton.runtime import driver
        if multiprocessing.parent_process() and driver.active.get_current_target().backend == "hip":
            os.kill(os.getpid(), signal.SIGSEGV)
        """))
    proc = cli("compile", f"{path}::copy_kernel", "--target", "hip:gfx942", "--target", "cuda:90",
               "--signature", "*fp16, *fp16, i32, 128", "--cache-dir", str(tmp_path / "cache"),
               "--jobs", "1")
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.strip().endswith(f"1 of 2 compiled into {tmp_path / 'cache'}")
    # (it died importing the module: named so, where it blamed Triton's compiler before, helper 100)
    assert proc.stderr.splitlines() == [
        f"tritonscope: error: {path}::copy_kernel (hip:gfx942): {path}: importing the module ended the compile "
        "worker (SIGSEGV: the module, or a native library it loads, crashed)"]


def test_a_process_that_dies_in_triton_compile_still_says_what_it_was_compiling(cli, tmp_path):
    # The process dies inside triton.compile, after the kernel's arguments were specialized there: the JSON
    # result still has the kernel's name and the specialization it was compiling (it was null: the spec was
    # bound only in the process that died).
    path = _write(tmp_path, USER_KERNEL + textwrap.dedent("""
        import multiprocessing, os, signal

        def _die(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGABRT)

        if multiprocessing.parent_process():
            triton.compile = _die
        """))
    proc = cli("compile", f"{path}::copy_kernel", "--target", "cuda:90", "--signature", "*fp16, *fp16, i32, 128",
               "--cache-dir", str(tmp_path / "cache"), "--jobs", "1", "--json")
    assert proc.returncode == 1, proc.stderr
    (result,) = json.loads(proc.stdout)["results"]
    assert result["error"]["message"] == "Triton's compiler crashed: the process was killed by SIGABRT"
    assert result["kernel_name"] == "copy_kernel"
    args = {a["name"]: a for a in result["spec"]["args"]}
    assert list(args) == ["src_ptr", "dst_ptr", "n", "BLOCK"] and args["BLOCK"]["value"] == 128
    assert not list((tmp_path / "cache").glob("**/*.spec")), "the worker's note is not left in the cache"


def test_mlir_diagnostic_in_the_kernel_file_is_a_source_error(tmp_path):
    from types import SimpleNamespace

    from tritonscope.compile.diagnostics import classify_failure

    src = tmp_path / "k.py"
    src.write_text("import triton\n\n\ndef k(x):\n    y = x + 1\n")
    fn = SimpleNamespace(fn=SimpleNamespace(__code__=SimpleNamespace(co_filename=str(src))))
    diag = f'loc("{src}":5:9): error: operand types do not match\n'
    failure = classify_failure(RuntimeError("PassManager::run failed"), diag, fn, None)
    assert (failure.kind, failure.line, failure.col, failure.source_line) == ("source", 5, 9, "    y = x + 1")
    assert failure.message == "operand types do not match"
    other = classify_failure(RuntimeError("PassManager::run failed"), "error: out of registers\n", fn, None)
    assert other.kind == "compile" and other.message == "RuntimeError: out of registers"


PKG_UTIL = """import triton

# chosen at import by the GPU the module is imported on, as flash-attn's AMD kernels choose their configs
ARCH = triton.runtime.driver.active.get_current_target().arch
BLOCK = 128 if ARCH == "gfx942" else 256
"""

PKG_KERNEL = """import triton
import triton.language as tl

from .util import BLOCK


@triton.autotune(configs=[triton.Config({"BLOCK": BLOCK})], key=["n"])
@triton.jit
def fill_kernel(x_ptr, n, bias, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    value = 1.0 if bias is None else tl.load(bias)
    tl.store(x_ptr + offs, value, mask=offs < n)
"""


def test_package_module_imported_for_the_target_it_compiles_for(cli, tmp_path):
    """A kernel file inside a package is imported as the package's module (its relative imports work;
    before: 'attempted relative import with no known parent package'), and code that asks the driver
    for the current target at import gets the target being compiled for (before, without a GPU:
    '0 active drivers'), per target. `--constexpr bias=None` is a None argument, not the string."""
    pkg = tmp_path / "kpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "util.py").write_text(PKG_UTIL)
    (pkg / "kern.py").write_text(PKG_KERNEL)
    proc = cli("compile", f"{pkg / 'kern.py'}::fill_kernel", "--target", "hip:gfx942", "--target", "cuda:90",
               "--cache-dir", str(tmp_path / "c"), "--signature", "x_ptr=*fp32,n=i32", "--constexpr", "bias=None",
               "--json")
    assert proc.returncode == 0, proc.stderr
    blocks = {}
    for r in json.loads(proc.stdout)["results"]:
        assert r["error"] is None, r["error"]
        args = {a["name"]: a for a in r["spec"]["args"]}
        blocks[r["target"]] = args["BLOCK"]["value"]
        assert args["bias"]["type"] == "constexpr" and args["bias"]["value"] is None
    assert blocks == {"hip:gfx942": 128, "cuda:90": 256}


def test_requested_target_driver_answers_only_what_compiling_needs():
    """The driver a module sees while it is imported for a cross-compile: the target, and a benchmarker
    that 3.3's Autotuner keeps at decoration (checked: the package test's kernel compiles on 3.3.1, 3.4.0,
    3.5.1 and 3.9.0 for cuda:90 without a GPU); anything else is one clear error, not '0 active drivers'."""
    import pytest
    from triton.backends.compiler import GPUTarget

    from tritonscope.compile.gluon import _RequestedTarget

    proxy = _RequestedTarget(GPUTarget("hip", "gfx942", 64))
    assert proxy.get_current_target().arch == "gfx942"
    bench = proxy.get_benchmarker()
    with pytest.raises(RuntimeError, match="benchmarking an autotune config needs a GPU"):
        bench(lambda: None)
    with pytest.raises(RuntimeError, match=r"cross-compiling for hip:gfx942, the code asked the GPU driver for "
                                           r"`get_device_interface`"):
        proxy.get_device_interface()


def test_name_value_flags_are_checked_before_any_compile():
    from click.testing import CliRunner

    from tritonscope.cli import main

    for args, says in (
        (["--constexpr", "X"], "--constexpr: expected NAME=VALUE, got 'X'"),
        (["--option", "x"], "--option: expected NAME=VALUE as a launch keyword (num_ctas=2), got 'x'"),
        (["--option", "1a=2"], "--option: expected NAME=VALUE as a launch keyword (num_ctas=2), got '1a=2'"),
        (["--option", "a="], "--option: expected NAME=VALUE as a launch keyword (num_ctas=2), got 'a='"),
        (["--option", "num_warps=4"], "--option num_warps: use --num-warps"),
        # a value of the wrong type: Triton's own message was a pybind TypeError from its pass manager
        (["--option", "num_stages=abc"], "--option num_stages=abc: expected a non-negative integer"),
        (["--option", "enable_fp_fusion=1"], "--option enable_fp_fusion=1: expected True or False"),
    ):
        r = CliRunner().invoke(main, ["compile", "vector_add", *args])
        assert r.exit_code == 2 and says in r.output, r.output


WS_KERNELS = textwrap.dedent('''\
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl


    @gluon.jit
    def _default(x):
        return x.no_such_method()


    @gluon.jit
    def _worker(x):
        pass


    @gluon.jit
    def ws_kernel(x):
        gl.warp_specialize([(_default, (x, )), (_worker, (x, ))], [1])
    ''')


def test_error_inside_a_warp_specialize_partition_names_the_partition_line(cli, tmp_path):
    """Gluon's `warp_specialize` re-raises a partition's error as a CompilationError whose message is that
    error's rendering (the code and a caret), the real one two causes down: the headline is the partition's
    line and message, with the call that led there, not the caret."""
    path = _write(tmp_path, WS_KERNELS)
    proc = cli("compile", f"{path}::ws_kernel", "--target", "cuda:100", "--signature", "x=*fp32",
               "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 1, proc.stderr
    first, second = proc.stderr.splitlines()[:2]
    assert first.startswith(f"tritonscope: error: {path}::ws_kernel (cuda:100): ") and first.endswith(
        "user_kernels.py:7:12: AttributeError(\"'tensor' object has no attribute 'no_such_method'\") (_default "
        "called at user_kernels.py:17)"), first
    assert second == "    7 |     return x.no_such_method()"


REASONS_OF_MANY_LINES = textwrap.dedent('''\
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl


    @gluon.jit
    def convert_kernel(src: gl.constexpr, dst: gl.constexpr):
        x = gl.arange(0, 128, layout=src)
        gl.convert_layout(x, dst, assert_trivial=True)


    @gluon.jit
    def load_kernel(x_ptr, layout: gl.constexpr):
        x = gl.load(x_ptr + gl.arange(0, 128, layout=layout))
        gl.store(x_ptr + gl.arange(0, 128, layout=layout), x + 1)
    ''')


def test_a_reason_of_many_lines_or_none_of_the_front_end_is_said(cli, tmp_path):
    """Helper 79 (Triton's test_convert_layout_not_trivial; a 32-lane layout built for a 64-lane target):
    the headline took the last line of Gluon's message (the second linear layout it lists), or only the caret
    where the front end had no message and MLIR's diagnostic, on stderr, had the reason."""
    path = _write(tmp_path, REASONS_OF_MANY_LINES)
    proc = cli("compile", f"{path}::convert_kernel", "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"),
               "--constexpr", "src=gl.BlockedLayout([2], [32], [4], [0])",
               "--constexpr", "dst=gl.BlockedLayout([1], [32], [4], [0])")
    first = proc.stderr.splitlines()[0]
    assert proc.returncode == 1 and first.endswith(
        "user_kernels.py:8:5: layout conversion from BlockedLayout(...) to BlockedLayout(...) is not trivial."), first
    proc = cli("compile", f"{path}::load_kernel", "--target", "hip:gfx942", "--cache-dir", str(tmp_path / "c"),
               "--signature", "x_ptr=*fp32", "--constexpr", "layout=gl.BlockedLayout([1], [32], [4], [0])")
    first = proc.stderr.splitlines()[0]
    assert proc.returncode == 1 and "user_kernels.py:13:" in first and first.endswith(
        "Layout has 32 threads per warp, but the module specifies 64 threads per warp."), first


MODULE_CONSTEXPRS = textwrap.dedent('''\
    import triton
    import triton.language as tl


    def _factory(n):
        class Scaled:
            FACTOR = n
        return Scaled


    Twice = _factory(2)


    class Thrice:
        FACTOR = 3


    @triton.jit
    def scale_kernel(x_ptr, Impl: tl.constexpr = Twice):
        tl.store(x_ptr, tl.load(x_ptr) * Impl.FACTOR)


    @triton.jit
    def tag_kernel(x_ptr, TAG: tl.constexpr):
        if TAG == "Thrice":
            tl.store(x_ptr, 3.0)
        else:
            tl.store(x_ptr, 1.0)
    ''')


def test_constexpr_values_that_are_objects_of_the_kernel_module(cli, tmp_path):
    """A class made inside a function (a parameter's default here; Gluon tutorials pass such aggregates)
    is a constexpr value a compile worker cannot pickle back: the result carries its text. A --constexpr
    value naming something of the kernel's module is that object, with a note; quoted, it is the text."""
    path = _write(tmp_path, MODULE_CONSTEXPRS)
    cache = str(tmp_path / "c")
    proc = cli("compile", f"{path}::scale_kernel", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
               "--cache-dir", cache, "--json")
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)["results"]
    impl = next(a for a in result["spec"]["args"] if a["name"] == "Impl")
    assert impl["value"].startswith("<class ") and "_factory.<locals>.Scaled" in impl["value"]

    named = cli("compile", f"{path}::scale_kernel", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
                "--constexpr", "Impl=Thrice", "--cache-dir", cache, "--json")
    assert named.returncode == 0, named.stderr
    (result,) = json.loads(named.stdout)["results"]
    assert result["notes"] == ["--constexpr Impl=Thrice: the kernel module's Thrice (a class); quote it "
                               "('\"Thrice\"') to pass the text"]
    ttir = (Path(result["entry"]) / "scale_kernel.ttir").read_text()
    assert "3.000000e+00" in ttir  # Impl.FACTOR of the module's class

    quoted = cli("compile", f"{path}::tag_kernel", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
                 "--constexpr", "TAG='Thrice'", "--cache-dir", cache, "--json")
    assert quoted.returncode == 0, quoted.stderr
    (result,) = json.loads(quoted.stdout)["results"]
    assert result["notes"] == [] and "3.000000e+00" in (Path(result["entry"]) / "tag_kernel.ttir").read_text()


def test_a_failed_pass_pipeline_names_the_pass_and_its_assertion(tmp_path):
    """MLIR's located error for a crashed pass is only the pipeline's summary; the pass and the assertion
    are in what it printed before (stderr of Triton 3.9 compiling its fused-attention tutorial causal and
    warp-specialized for cuda:90, cut to those lines)."""
    from types import SimpleNamespace

    from tritonscope.compile.diagnostics import classify_failure

    src = tmp_path / "attn.py"
    src.write_text("import triton\n\n\ndef _attn_fwd(sm_scale, M,  #\n    pass\n")
    fn = SimpleNamespace(fn=SimpleNamespace(__code__=SimpleNamespace(co_filename=str(src))))
    stderr = (
        "python: /__w/triton/triton/llvm-project/mlir/lib/IR/Dominance.cpp:262: bool mlir::detail::"
        "DominanceInfoBase<false>::properlyDominatesImpl(Block *, Block::iterator, Block *, Block::iterator, bool) "
        "const [IsPostDom = false]: Assertion `aBlock && bBlock && \"expected non-null blocks\"' failed.\n"
        "module {\n}\n\n"
        f"{src}:4:1: error: Failures have been detected while processing an MLIR pass pipeline\n"
        "def _attn_fwd(sm_scale, M,  #\n^\n"
        f"{src}:4:1: note: Pipeline failed while executing [`NVGPUWarpSpecialization` on 'builtin.module' "
        "operation]: reproducer generated at `std::errs, please share the reproducer above with Triton project.`\n")
    failure = classify_failure(RuntimeError("PassManager::run failed"), stderr, fn, None)
    assert (failure.kind, failure.line) == ("source", 4)
    assert failure.message == ("MLIR pass pipeline failed in NVGPUWarpSpecialization: Assertion `aBlock && bBlock "
                               "&& \"expected non-null blocks\"' failed")


def test_explain_spec_refusals_are_one_line(cli, cache39, tmp_path):
    """--explain-spec with options the backend refuses, or with compiled IR instead of a Python kernel: one
    line, no internal error (an AssertionError and a TypeError escaped)."""
    entry = cache39 / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    for args, code, said in ((["--num-warps", "3", "vector_add"], 1, "power of 2"),
                             ([str(entry)], 2, "compiled IR")):
        r = cli("compile", "--cache-dir", str(tmp_path / "c"), "--target", "cuda:90", "--explain-spec", *args)
        assert r.returncode == code and said in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "internal error" not in r.stderr


SCRIPTISH = '''import sys

import triton
import triton.language as tl

print("self-test harness: starting")
os_env = __import__("os").environ
os_env["TRITON_CACHE_DIR"] = {private!r}


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


{tail}
'''


def test_a_module_that_prints_exits_or_moves_the_cache_at_import(cli, tmp_path):
    """A module run as a script at import: its print went into --json's stdout; its sys.exit ended the
    command silently with exit 0 (or its text, exit 1); its TRITON_CACHE_DIR moved the compile out of
    --cache-dir while the command said it wrote there."""
    private = tmp_path / "private"
    (tmp_path / "noisy.py").write_text(SCRIPTISH.format(private=str(private), tail=""))
    cache = tmp_path / "given"
    r = cli("compile", f"{tmp_path / 'noisy.py'}::k", "--signature", "x_ptr=*fp32", "--constexpr", "BLOCK=64",
            "--target", "cuda:90", "--cache-dir", str(cache), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["results"][0]["entry"] and "self-test harness" in r.stderr
    assert len(list(cache.glob("*/k.ttir"))) == 1 and not private.exists()
    for tail, shown in (("sys.exit(main())", "sys.exit(0)"), ('sys.exit("unsupported platform")',
                                                               "sys.exit('unsupported platform')")):
        tail = "def main():\n    return 0\n\n\n" + tail
        (tmp_path / "script.py").write_text(SCRIPTISH.format(private=str(private), tail=tail))
        r = cli("compile", f"{tmp_path / 'script.py'}::k", "--signature", "x_ptr=*fp32", "--constexpr", "BLOCK=64",
                "--target", "cuda:90", "--cache-dir", str(cache))
        assert r.returncode == 1, r.stderr
        assert f"script.py:20: the module called {shown}" in r.stderr


def test_a_failure_in_a_package_init_names_that_file_and_line(cli, tmp_path):
    """A RuntimeError raised by the package's __init__.py was blamed on the kernel's file, with no line."""
    pkg = tmp_path / "mylib" / "ops"
    pkg.mkdir(parents=True)
    (tmp_path / "mylib" / "__init__.py").write_text('import os\n\nraise RuntimeError("mylib requires a GPU")\n')
    (pkg / "__init__.py").write_text("")
    (pkg / "fused.py").write_text(SCRIPTISH.format(private="/nonexistent", tail=""))
    r = cli("compile", f"{pkg / 'fused.py'}::k", "--signature", "x_ptr=*fp32", "--constexpr", "BLOCK=64",
            "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 1
    assert f"{tmp_path / 'mylib' / '__init__.py'}:3: RuntimeError: mylib requires a GPU" in r.stderr, r.stderr


PRUNED = '''import triton
import triton.language as tl


def prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] <= named_args["n"]]


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=4),
                          triton.Config({"BLOCK": 128}, num_warps=8, maxnreg=128)],
                 key=["n"], prune_configs_by={"early_config_prune": prune})
@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
'''


def test_pruned_autotune_configs_are_said_and_each_config_is_named(cli, tmp_path):
    """prune_configs_by was ignored without a word (a first launch compiles the configs it keeps); the
    text --explain-spec lost each heading's `[config i/n]` to rich markup, and a config's maxnreg."""
    (tmp_path / "pruned.py").write_text(PRUNED)
    kernel = f"{tmp_path / 'pruned.py'}::scale_kernel"
    r = cli("compile", kernel, "--signature", "x_ptr=*fp32,n=i32", "--target", "cuda:90", "--explain-spec")
    assert r.returncode == 0, r.stderr
    assert f"{kernel} [config 1/2] (scale_kernel) for cuda:90" in r.stdout
    assert f"{kernel} [config 2/2] (scale_kernel) for cuda:90" in r.stdout
    assert "options: num_warps=8, num_stages=3, num_ctas=1, maxnreg=128" in r.stdout
    r = cli("compile", kernel, "--signature", "x_ptr=*fp32,n=i32", "--target", "cuda:90",
            "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("the autotuner prunes its 2 configs by early_config_prune") == 1


ADD_ONE = "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, 1.0)\n"


def test_a_module_that_ends_the_process_or_is_not_utf8_is_one_error(cli, tmp_path):
    """`os._exit(0)` at import ended the command at once with status 0 and nothing printed; a Latin-1 byte in
    a comment was an internal error (UnicodeDecodeError) naming no file."""
    (tmp_path / "osexit.py").write_text("import os\nos._exit(0)\n" + ADD_ONE)
    (tmp_path / "posixexit.py").write_text("import posix\nposix._exit(0)\n" + ADD_ONE)  # (the same function)
    (tmp_path / "latin1.py").write_bytes(ADD_ONE.replace("\n\n\n", "\n# caf\xe9\n\n", 1).encode("latin-1"))
    for name, message in [("osexit", "osexit.py:2: the module called os._exit(0) while it was imported"),
                          ("posixexit", "posixexit.py:2: the module called os._exit(0) while it was "
                                        "imported"),
                          ("latin1", "latin1.py:5: ValueError: @jit functions should be defined in a Python file "
                                     "(the file is not UTF-8: byte 0xe9 on line 3)")]:
        p = cli("compile", f"{tmp_path / name}.py::k", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
                "--cache-dir", str(tmp_path / "c"), "--json")
        assert p.returncode == 1, (name, p.stderr)
        (result,) = json.loads(p.stdout)["results"]
        assert message in result["error"]["message"] or message in p.stderr, (name, p.stderr, result)
        assert "internal error" not in p.stderr
    # one that declares its encoding reads as Python reads it: its own error, no word of UTF-8
    (tmp_path / "declared.py").write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\nraise RuntimeError('no GPU')\n"
                                           + ADD_ONE.encode())
    p = cli("compile", f"{tmp_path / 'declared.py'}::k", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
            "--cache-dir", str(tmp_path / "c"))
    assert p.returncode == 1 and "declared.py:3: RuntimeError: no GPU" in p.stderr, p.stderr
    assert "UTF-8" not in p.stderr


def test_sigterm_during_a_module_import_ends_the_command(tmp_path):
    """A module looping at import: SIGTERM (a CI timeout) raised SystemExit(143) in it, which the import
    took for the module's own sys.exit: the command went on to compile in a worker that looped again."""
    import os
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "loop.py").write_text("import time\nwhile True:\n    time.sleep(0.01)\n" + ADD_ONE)
    proc = subprocess.Popen([sys.executable, "-m", "tritonscope", "compile", f"{tmp_path / 'loop.py'}::k",
                             "--target", "cuda:90", "--signature", "x_ptr=*fp32", "--cache-dir", str(tmp_path / "c")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(4)  # (well into the import: Triton is imported first)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # (its workers too)
        proc.communicate()
        raise AssertionError("still running 30 s after SIGTERM") from None
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert b"ModuleExited" not in err


def test_a_kernel_a_class_holds_is_named_by_its_dotted_name(cli, tmp_path):
    """`kern.py::Ops.inner` (a @staticmethod @triton.jit of a class, launched as `Ops.inner[grid](...)`) was
    an unknown sample."""
    (tmp_path / "kern.py").write_text(ADD_ONE.replace("@triton.jit\ndef k(x_ptr):\n    tl.store",
                                                      "class Ops:\n    @staticmethod\n    @triton.jit\n"
                                                      "    def inner(x_ptr):\n        tl.store"))
    p = cli("compile", f"{tmp_path / 'kern.py'}::Ops.inner", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
            "--cache-dir", str(tmp_path / "c"), "--json")
    assert p.returncode == 0, p.stderr
    (result,) = json.loads(p.stdout)["results"]
    assert result["kernel"].endswith("kern.py::Ops.inner") and (Path(result["entry"]) / "inner.ttir").is_file()


PRUNED_ON_CONFIGS = """
import triton
import triton.language as tl


def prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] <= 256 and named_args.get("n", 1) > 0]


def prune_on_n(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] <= named_args["n"]]


def tuned(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


CONFIGS = [triton.Config({"BLOCK": b}, num_warps=w) for b, w in ((128, 4), (256, 8), (512, 8))]
by_configs = triton.autotune(CONFIGS, key=["n"], prune_configs_by={"early_config_prune": prune})(triton.jit(tuned))
by_n = triton.autotune(CONFIGS, key=["n"], prune_configs_by={"early_config_prune": prune_on_n})(triton.jit(tuned))
"""


def test_an_early_config_prune_that_reads_only_the_configs_is_applied(cli, tmp_path):
    """A pruner deciding from the configs alone (BLOCK <= 256): the JIT compiles 2 of 3 on a first launch,
    the cross-compile compiled all 3. One that reads a launch's argument (`n`) cannot be asked: all 3, said."""
    (tmp_path / "pruned.py").write_text(PRUNED_ON_CONFIGS.lstrip("\n"))
    for name, n, note in [("by_configs", 2, "early_config_prune keeps 2 of its 3 configs"),
                          ("by_n", 3, "prunes its 3 configs by early_config_prune on a launch's arguments")]:
        p = cli("compile", f"{tmp_path / 'pruned.py'}::{name}", "--target", "cuda:90", "--signature",
                "x_ptr=*fp32,n=i32", "--cache-dir", str(tmp_path / name), "--json")
        assert p.returncode == 0, p.stderr
        results = json.loads(p.stdout)["results"]
        assert len(results) == n and all(r["entry"] for r in results), (name, results)
        assert note in p.stderr or any(note in x for r in results for x in r.get("notes", [])), (name, p.stderr)


PRUNERS = """
import os
import sys

import triton
import triton.language as tl


class NotAConfig:
    kwargs = {"NOPE": 1}


PRUNERS = {
    "exits": lambda configs, named_args, **kw: sys.exit(3),
    "os_exits": lambda configs, named_args, **kw: os._exit(0),
    "twice": lambda configs, named_args, **kw: [configs[0], configs[0], configs[1]],
    "not_configs": lambda configs, named_args, **kw: [NotAConfig()],
}


def make(name):
    configs = [triton.Config({"BLOCK": b}, num_warps=4) for b in (64, 128, 256)]

    @triton.autotune(configs=configs, key=["n"], prune_configs_by={"early_config_prune": PRUNERS[name]})
    @triton.jit
    def k(x_ptr, n, BLOCK: tl.constexpr):
        o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)
    return k


exits, os_exits, twice, not_configs = (make(n) for n in PRUNERS)
"""


def test_a_pruner_that_exits_or_gives_no_configs_is_not_taken(cli, tmp_path):
    """Helper 53: a pruner calling sys.exit / os._exit ended the command (status 3, or 0 with nothing said);
    one naming a config twice compiled it twice ('keeps 3 of 3'); one giving objects that are no Config was
    taken for configs (a usage error blaming the command line)."""
    (tmp_path / "pruners.py").write_text(PRUNERS.lstrip("\n"))
    for name, n in [("exits", 3), ("os_exits", 3), ("twice", 2), ("not_configs", 3)]:
        p = cli("compile", f"{tmp_path / 'pruners.py'}::{name}", "--target", "cuda:90", "--signature",
                "x_ptr=*fp32,n=i32", "--cache-dir", str(tmp_path / name), "--json")
        assert p.returncode == 0, (name, p.stderr)
        results = json.loads(p.stdout)["results"]
        assert len(results) == n and all(r["entry"] for r in results), (name, results)
        assert len({r["entry"] for r in results}) == n, name


def test_an_import_failing_in_a_module_the_kernel_imports_says_where_and_debug_shows_the_traceback(cli, tmp_path):
    """Helper 76 (unsloth's kernels importing its device probe): the headline named the kernel file's import
    line alone, nothing of the module that raised, and `--debug` ("Show tracebacks") showed none."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "probe.py").write_text("def device():\n    raise NotImplementedError('no accelerator')\n\n\n"
                                  "DEVICE = device()\n")
    (pkg / "k.py").write_text("import triton\nfrom .probe import DEVICE\n\n\n@triton.jit\ndef k(x):\n    pass\n")
    args = ("compile", f"{pkg / 'k.py'}::k", "--target", "cuda:90", "--signature", "x=*fp32", "--cache-dir",
            str(tmp_path / "c"))
    r = cli(*args)
    first = r.stderr.splitlines()[0]
    assert r.returncode == 1 and first.endswith(
        "k.py:2: NotImplementedError: no accelerator (raised at probe.py:2)"), r.stderr
    assert "Traceback" not in r.stderr
    d = cli("--debug", *args)
    assert "Traceback (most recent call last)" in d.stderr and 'probe.py", line 2, in device' in d.stderr, d.stderr


def test_one_error_of_every_autotune_config_is_said_once(cli, tmp_path):
    """helper 96: mLSTM's kernels call `tl.make_block_ptr`, which Triton 3.9 removed: the same error (line,
    caret) was printed once per autotune config, four times. Said once, with how many compiles it stopped."""
    import pytest
    import triton

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 9):
        pytest.skip("block pointers are removed in Triton 3.9")
    kernel = tmp_path / "k.py"
    kernel.write_text(
        "import triton\nimport triton.language as tl\n\n\n"
        "@triton.autotune(configs=[triton.Config({'BLOCK': 64}), triton.Config({'BLOCK': 128}),\n"
        "                          triton.Config({'BLOCK': 256})], key=['n'])\n"
        "@triton.jit\ndef bp_kernel(x_ptr, n, BLOCK: tl.constexpr):\n"
        "    p = tl.make_block_ptr(x_ptr, (n,), (1,), (0,), (BLOCK,), (0,))\n    tl.store(p, tl.load(p))\n")
    r = cli("compile", f"{kernel}::bp_kernel", "--signature", "x_ptr=*fp32,n=i32", "--target", "cuda:90",
            "--cache-dir", str(tmp_path / "c"), "-j", "1")
    assert r.returncode == 1, r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("tritonscope: error:")]
    assert len(errors) == 1 and "[config 1/3] and 2 more, the same error (cuda:90): " in errors[0], r.stderr
    assert "k.py:9:9: Block pointers have been removed" in errors[0]


def test_a_tuple_in_the_signature_is_said_to_be_one(cli, tmp_path):
    """Helper 120: `pair=(i32,i32)` was "cannot read '(i32,i32)'", as if misspelled."""
    user = tmp_path / "tup.py"
    user.write_text("import triton\n\n\n@triton.jit\ndef tup(x, pair, n):\n    pass\n")
    proc = cli("compile", f"{user}::tup", "--target", "cuda:90", "--signature", "x=*fp32,pair=(i32,i32),n=i32",
               "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "'(i32,i32)' for argument 'pair': a tuple argument, which --signature does not take" in proc.stderr


def test_an_error_without_a_message_says_where_it_was_raised():
    """A bare AssertionError from a backend was said as 'AssertionError' alone (helper 126): the frame that
    raised it is named, as its file below site-packages, its line and its code."""
    from tritonscope.compile.diagnostics import _any_error

    def make_amdgcn(src):  # (pytest rewrites an `assert` here to carry a message: raised as Python raises it)
        names = []
        if len(names) != 1:
            raise AssertionError

    try:
        make_amdgcn("")
    except AssertionError as exc:
        said = _any_error(exc, "")
    line = make_amdgcn.__code__.co_firstlineno + 3
    assert said == f"AssertionError: at test_compile_errors.py:{line} (raise AssertionError)", said


def test_a_dtype_triton_does_not_have_is_a_usage_error(cli, tmp_path):
    """`--constexpr DT=tl.float17` was passed on as the text 'tl.float17': a kernel that casts to it failed with
    "'str' object has no attribute 'scalar'", one that does not use it compiled without a word (helper 125)."""
    path = _write(tmp_path, "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                            "def fill(p, DT: tl.constexpr, BLOCK: tl.constexpr):\n"
                            "    tl.store(p + tl.arange(0, BLOCK), tl.zeros((BLOCK,), dtype=DT))\n")
    for extra in ((), ("--explain-spec",)):
        proc = cli("compile", f"{path}::fill", "--target", "cuda:90", "--signature", "p=*fp16", "--constexpr",
                   "DT=tl.float17", "--constexpr", "BLOCK=64", "--cache-dir", str(tmp_path / "c"), *extra)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert "--constexpr 'tl.float17': triton.language has no 'float17' (its dtypes: bfloat16, float16, " \
            in proc.stderr, proc.stderr
    assert not (tmp_path / "c").exists()


def test_a_name_of_triton_language_that_is_no_dtype_is_a_usage_error(cli, tmp_path):
    """Helper 130: `--constexpr DT=tl.dtype` (a name triton.language has, the dtype class) was passed on as the
    text 'tl.dtype': "'str' object has no attribute 'is_int'"."""
    path = _write(tmp_path, "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                            "def fill(p, DT: tl.constexpr, BLOCK: tl.constexpr):\n"
                            "    tl.store(p + tl.arange(0, BLOCK), tl.zeros((BLOCK,), dtype=DT))\n")
    proc = cli("compile", f"{path}::fill", "--target", "cuda:90", "--signature", "p=*fp16", "--constexpr",
               "DT=tl.dtype", "--constexpr", "BLOCK=64", "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "--constexpr 'tl.dtype': triton.language has 'dtype', which is no dtype (its dtypes: " in proc.stderr
