"""On a real GPU (`pytest -m gpu`): the samples run correctly, and cross-compiled IR equals what a JIT
launch produces (issue 11; the Gluon samples, whose JIT is GluonJITFunction: issue 17). Set
TRITONSCOPE_GPU_RESULTS=FILE to append one JSON line per kernel.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu

# The base samples and the variant a JIT launch can express (a ragged K); `gemv-unaligned` needs a
# do_not_specialize that the sample's decorator does not carry, so it has no JIT twin.
JIT_KERNELS = ["vector_add", "softmax", "matmul", "gemv", "gemv_int4", "layer_norm", "flash_attention",
               "gemv-kmask", "gluon_mask", "gluon_mask_auto", "gluon_axpy", "gluon_axpy-spt1", "gluon_transpose"]
# Absolute source paths in every stage's spelling: loc("..."), .file N "...", DIFile(...), ModuleID.
_PY_PATH = re.compile(r'"[^"\n]*/([^"/\n]+\.py)"')
_MODULE_ID = re.compile(r"^; ModuleID = .*$|^source_filename = .*$", re.MULTILINE)
_PTX_FILE = re.compile(r'^(\s*\.file\s+\d+\s+)"[^"]*"(?:,\s*\d+,\s*\d+)?', re.MULTILINE)
_DIFILE = re.compile(r'!DIFile\(filename: "[^"]*", directory: "[^"]*"\)')
_DIFILE_AMD = re.compile(r'(\.file\s+\d+\s+)"[^"]*"\s+"[^"]*"')


def _require_gpu() -> str:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    return "cuda"


def normalize_paths(text: str) -> str:
    """Source paths to their file names, so two caches of the same source compare equal."""
    return _PY_PATH.sub(r'"\1"', text)


def normalize_file_names(text: str) -> str:
    """LLIR/PTX/AMDGCN up to file names: module ids and debug file records blanked."""
    text = _MODULE_ID.sub("", text)
    text = _DIFILE.sub('!DIFile(filename: "F", directory: "D")', text)
    text = _PTX_FILE.sub(r'\1"F"', text)
    text = _DIFILE_AMD.sub(r'\1"D" "F"', text)
    return normalize_paths(text)


def first_difference(a: str, b: str) -> str | None:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False), 1):
        if x != y:
            return f"line {i}: jit: {x.strip()[:160]} | cross: {y.strip()[:160]}"
    if len(la) != len(lb):
        return f"line counts differ: jit {len(la)}, cross {len(lb)}"
    return None


def _record(entry: dict) -> None:
    out = os.environ.get("TRITONSCOPE_GPU_RESULTS")
    if out:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")


def _kernel_entry(cache: Path, name: str):
    from tritonscope.artifacts.cache import Cache

    entries = [e for e in Cache(cache).kernels() if e.name == name and e.kind == "kernel"]
    assert len(entries) == 1, f"expected one {name} entry in {cache}, found {[e.hash for e in entries]}"
    return entries[0]


@pytest.mark.parametrize("kernel", JIT_KERNELS)
def test_run_and_jit_equals_cross_compile(kernel: str, tmp_path: Path) -> None:
    import torch
    import triton

    from tritonscope.compile.driver import CompileRequest, compile_one, native_target, parse_kernel_ref
    from tritonscope.compile.launch import run_sample

    device = _require_gpu()
    ref = parse_kernel_ref(kernel)
    jit_cache, cross_cache = tmp_path / "jit", tmp_path / "cross"
    check = run_sample(ref, device, cache_dir=str(jit_cache))
    target = native_target()
    result = compile_one(CompileRequest(ref, target), str(cross_cache))
    assert result.ok, result.error

    jit_entry = _kernel_entry(jit_cache, result.kernel_name)
    cross_entry = _kernel_entry(cross_cache, result.kernel_name)
    # A Gluon kernel has no TTIR: its `.source` (and from 3.9 `.glir`) is the Gluon IR the JIT built.
    first = ("source", "glir") if jit_entry.language == "gluon" else ("ttir",)
    stages = [s for s in (*first, "ttgir", "llir", "ptx", "amdgcn") if s in jit_entry.files]
    assert jit_entry.language == cross_entry.language == ("gluon" if kernel.startswith("gluon") else "triton")
    differences = {}
    for stage in stages:
        a = jit_entry.files[stage].read_text()
        b = cross_entry.files[stage].read_text()
        norm = normalize_paths if stage in ("ttir", "ttgir", "source", "glir") else normalize_file_names
        diff = first_difference(norm(a), norm(b))
        if diff:
            differences[stage] = diff
    _record({"kernel": kernel, "kernel_name": result.kernel_name, "target": str(target),
             "run_ok": check.ok, "run_error": check.error,
             "max_abs_error": {o.name: o.max_abs_error for o in check.outputs},
             "jit_hash": jit_entry.hash, "cross_hash": cross_entry.hash, "stages": stages,
             "differences": differences, "triton": triton.__version__, "torch": torch.__version__,
             "gpu": torch.cuda.get_device_name()})
    assert check.ok, f"{kernel}: {check.error or check.outputs}"
    assert not differences, differences


def test_compile_run_cli_passes(tmp_path: Path, cli) -> None:
    _require_gpu()
    proc = cli("compile", "--run", "--cache-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count(" ok ") >= 7, proc.stdout


def test_descriptor_kernels_jit_equals_cross_compile(tmp_path: Path) -> None:
    """Host TMA descriptors (a Triton and a Gluon kernel): launched through the JIT with real
    TensorDescriptors, and cross-compiled from `--signature tensordesc<...>`: one cache key, one IR."""
    import importlib.util

    import torch
    from test_specialize import TMA_GLUON, TMA_TRITON

    from tritonscope.compile.driver import CompileRequest, KernelRef, compile_one, native_target

    _require_gpu()
    if torch.cuda.get_device_capability()[0] < 9:
        pytest.skip("TMA needs sm_90+")
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor as GluonDescriptor
    from triton.tools.tensor_descriptor import TensorDescriptor

    data = torch.randn(256, 64, device="cuda", dtype=torch.float16)
    layout = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)
    plain = "in_desc=tensordesc<fp16[64, 64]>,out_desc=tensordesc<fp16[64, 64]>,n=i32"
    def plain_args(out):
        return TensorDescriptor.from_tensor(data, [64, 64]), TensorDescriptor.from_tensor(out, [64, 64]), 7

    def gluon_args(out):
        return GluonDescriptor.from_tensor(data, [64, 64], layout), GluonDescriptor.from_tensor(out, [64, 64], layout)

    gluon = f"in_desc=tensordesc<fp16[64, 64],{layout!r}>,out_desc=tensordesc<fp16[64, 64],{layout!r}>"
    cases = [("tk.py", TMA_TRITON, "tma_copy", plain, (("BM", 64),), plain_args, {"BM": 64}, 2.0),
             ("gk.py", TMA_GLUON, "tma_roundtrip", gluon, (), gluon_args, {}, 1.0)]
    for file, text, name, signature, constexprs, args, kwargs, factor in cases:
        path = tmp_path / file
        path.write_text(text)
        jit_cache, cross_cache = tmp_path / f"jit-{name}", tmp_path / f"cross-{name}"
        os.environ["TRITON_CACHE_DIR"] = str(jit_cache)  # (as run_sample: the JIT reads it per compile)
        spec = importlib.util.spec_from_file_location(f"tma_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out = torch.zeros_like(data)
        getattr(module, name)[(4,)](*args(out), **kwargs)
        torch.cuda.synchronize()
        assert torch.equal(out, data * factor), name
        result = compile_one(CompileRequest(KernelRef(path=str(path), name=name), native_target(),
                                            signature=signature, constexprs=constexprs), str(cross_cache))
        assert result.ok, result.error
        jit_entry, cross_entry = _kernel_entry(jit_cache, name), _kernel_entry(cross_cache, name)
        assert jit_entry.hash == cross_entry.hash, name
        for stage in ("ttgir", "ptx"):
            a, b = (normalize_file_names(e.files[stage].read_text()) for e in (jit_entry, cross_entry))
            assert first_difference(a, b) is None, (name, stage)


def test_autotuned_kernel_every_config_equals_cross_compile(tmp_path: Path) -> None:
    """An @triton.autotune kernel launched through the JIT compiles each config (and benchmarks them);
    `compile` without the tuned constexprs cross-compiles each: the same set of cache keys."""
    import importlib.util

    import torch
    from test_compile_errors import AUTOTUNED

    from tritonscope.compile.driver import compile_many, native_target, requests_for

    _require_gpu()
    path = tmp_path / "tuned.py"
    path.write_text(AUTOTUNED)
    jit_cache, cross_cache = tmp_path / "jit", tmp_path / "cross"
    os.environ["TRITON_CACHE_DIR"] = str(jit_cache)
    spec = importlib.util.spec_from_file_location("tuned_gpu", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x = torch.randn(4096, device="cuda")
    module.scale_kernel[lambda meta: (4096 // meta["BLOCK"],)](x, 4096)
    torch.cuda.synchronize()
    target = native_target()
    requests = requests_for([f"{path}::scale_kernel"], [target], signature="x_ptr=*fp32,n=i32:16",
                            constexprs=(("EVEN", True),))
    results = compile_many(requests, str(cross_cache), jobs=1)
    assert [r.request.config for r in results] == [(0, 2), (1, 2)] and all(r.ok for r in results)
    from tritonscope.artifacts.cache import Cache

    jit = {e.hash for e in Cache(jit_cache).kernels() if e.name == "scale_kernel"}
    assert {r.hash for r in results} == jit


def test_the_native_target_is_the_one_tritons_driver_names(cli, tmp_path: Path) -> None:
    """`compile` without --target asks the device in a child process (the CUDA driver directly on NVIDIA, no
    triton import), so that its compile workers can be forked: the answer is Triton's driver's, and the
    command's own process is left holding no GPU context."""
    _require_gpu()
    probe = ("import json, sys\n"
             "from tritonscope.compile import driver\n"
             "native = driver.native_target()\n"
             "held = driver._holds_gpu_context() or 'triton' in sys.modules\n"
             "from triton.runtime import driver as d\n"
             "t = d.active.get_current_target()\n"
             "print(json.dumps([str(native), f'{t.backend}:{t.arch}', native.warp_size, t.warp_size, held]))\n")
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    native, theirs, warp, their_warp, held = json.loads(out.stdout.splitlines()[-1])
    assert (native, warp) == (theirs, their_warp) and held is False
    proc = cli("compile", "vector_add", "--cache-dir", str(tmp_path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert [r["target"] for r in json.loads(proc.stdout)["results"]] == [theirs]


OVERSIZED = '''
import triton
import triton.language as tl


@triton.jit
def tile_matmul(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # one BM x BN tile of A @ B (row-major, K a multiple of BK); the pipeliner keeps num_stages A and B
    # tiles in shared memory: 256 x 256 x 64 fp16 over 8 stages asks 288 KiB (Triton 3.9); sm_90 allows 227
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
'''


def test_shared_memory_over_the_device_limit_is_what_triton_refuses(tmp_path: Path, cli) -> None:
    """`ls` flags an entry whose shared memory is over its target's per-block limit (`over_limits`,
    `SHARED_LIMITS`): on the GPU, that table's limit is the device's own opt-in maximum, and the entry it
    flags is the one whose launch Triton refused with OutOfResources; one within the limit launches."""
    import importlib.util

    import torch
    import triton

    _require_gpu()
    path = tmp_path / "oversized.py"
    path.write_text(OVERSIZED)
    cache = tmp_path / "cache"
    os.environ["TRITON_CACHE_DIR"] = str(cache)
    spec = importlib.util.spec_from_file_location("oversized_gpu", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    device_limit = torch.cuda.get_device_properties(0).shared_memory_per_block_optin
    refused = None
    k = 256
    for bm, stages in ((64, 2), (256, 8)):
        a = torch.randn(bm, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, 256, device="cuda", dtype=torch.float16)
        c = torch.empty(bm, 256, device="cuda", dtype=torch.float32)
        try:
            module.tile_matmul[(1,)](a, b, c, k, BM=bm, BN=256, BK=64, num_warps=8, num_stages=stages)
            torch.cuda.synchronize()
            torch.testing.assert_close(c, a.float() @ b.float(), rtol=1e-2, atol=1e-2)
        except triton.runtime.errors.OutOfResources as e:
            refused = (bm, str(e))
    proc = cli("ls", "--cache-dir", str(cache), "--json")
    assert proc.returncode == 0, proc.stderr
    entries = {e["shared"]: e for e in json.loads(proc.stdout)["entries"] if e["name"] == "tile_matmul"}
    assert len(entries) == 2
    over = {shared: e["over_limits"] for shared, e in entries.items()}
    limits = {e["shared_limit"] for e in entries.values()}
    _record({"test": "shared-limit", "device_limit": device_limit, "table_limit": sorted(limits),
             "refused": refused, "shared": sorted(entries), "over_limits": over})
    assert limits == {device_limit}
    big = max(entries)
    assert refused is not None and refused[0] == 256 and big > device_limit, refused
    assert over[big] == [{"resource": "shared", "used": big, "limit": device_limit}]
    assert over[min(entries)] == []
    table = cli("ls", "--cache-dir", str(cache))
    assert table.returncode == 0 and f"smem>{device_limit / 1024:.1f}K" in table.stdout


def test_pointer_heuristics_equal_the_jits(tmp_path: Path) -> None:
    """`@triton.heuristics({"HAS_BIAS": lambda args: args["bias_ptr"] is not None})` (mamba's HAS_D, FLA's
    USE_INITIAL_STATE): launched with a tensor and with None, the JIT computes True and False; `compile` computes
    True from the signature's pointer and False from `--constexpr bias_ptr=None`: the same cache keys."""
    import importlib.util

    import torch
    from test_compile_user_module import HEURISTIC_POINTERS

    from tritonscope.compile.driver import compile_many, native_target, requests_for

    _require_gpu()
    path = tmp_path / "bias.py"
    path.write_text(HEURISTIC_POINTERS.replace('args["bias_ptr"].dtype == "fp16"', "False"))
    jit_cache, cross_cache = tmp_path / "jit", tmp_path / "cross"
    os.environ["TRITON_CACHE_DIR"] = str(jit_cache)
    spec = importlib.util.spec_from_file_location("bias_gpu", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x, bias = torch.ones(64, device="cuda"), torch.full((64,), 2.0, device="cuda")
    module.bias_kernel[(1,)](x, bias, None, BLOCK=64)
    module.bias_kernel[(1,)](x, None, None, BLOCK=64)
    torch.cuda.synchronize()
    assert torch.equal(x, torch.full((64,), 3.0, device="cuda"))  # (1 + the bias, once; the second adds none)
    target = native_target()
    with_bias = requests_for([f"{path}::bias_kernel"], [target], signature="x_ptr=*fp32:16,bias_ptr=*fp32:16",
                             constexprs=(("idx_ptr", None), ("BLOCK", 64)))
    without = requests_for([f"{path}::bias_kernel"], [target], signature="x_ptr=*fp32:16",
                           constexprs=(("bias_ptr", None), ("idx_ptr", None), ("BLOCK", 64)))
    results = compile_many([*with_bias, *without], str(cross_cache), jobs=1)
    assert all(r.ok for r in results), [r.error for r in results]
    from tritonscope.artifacts.cache import Cache

    jit = {e.hash for e in Cache(jit_cache).kernels() if e.name == "bias_kernel"}
    _record({"test": "pointer_heuristics", "jit": sorted(jit), "cross": sorted(r.hash for r in results)})
    assert len(jit) == 2 and {r.hash for r in results} == jit
