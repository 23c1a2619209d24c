"""Session fixtures that compile the sample kernels once for the whole test run (loaded by conftest.py).

- `compiled_cache`: a Triton cache holding every sample kernel cross-compiled for cuda:90 and hip:gfx942
  (14 entries), compiled once per session in parallel. Read-only by convention: copy before writing.
- `compiled_entries`: {(sample, target): entry directory} of that cache, e.g.
  compiled_entries["gemv", "cuda:90"] / "gemv_kernel.ptx".
- `compile_kernel(kernel, target="cuda:90", no_specialize=(), constexprs={}, signature=None,
  num_warps=None) -> CompileResult`: one more kernel (a sample, a variant like "gemv-kmask", or
  "path.py::name") in a cache of its own; memoized per session, so asking twice costs nothing.
  `result.entry` is the entry directory, `result.hash`, `result.stages`, `Path(result.entry).parent`
  the cache.
- `helper_module`: a folder with a kernel (hm_kernel.py) whose dequantization helper lives in another module
  (hm_helpers.py), cross-compiled for cuda:90 into DIR/cache.
"""

from __future__ import annotations

from pathlib import Path

import pytest

COMPILED_TARGETS = ("cuda:90", "hip:gfx942")


@pytest.fixture(scope="session")
def compiled_results(tmp_path_factory) -> list:
    from tritonscope.compile.driver import compile_many, parse_target, requests_for

    cache = tmp_path_factory.mktemp("compiled") / "cache"
    requests = requests_for([], [parse_target(t) for t in COMPILED_TARGETS])
    results = compile_many(requests, cache)
    failed = [f"{r.request.kernel.label} {r.request.target}: {r.error.headline()}" for r in results if not r.ok]
    if failed:
        pytest.fail("sample kernels did not compile: " + "; ".join(failed))
    return results


@pytest.fixture(scope="session")
def compiled_cache(compiled_results) -> Path:
    return Path(compiled_results[0].entry).parent


@pytest.fixture(scope="session")
def compiled_entries(compiled_results) -> dict[tuple[str, str], Path]:
    return {(r.request.kernel.label, str(r.request.target)): Path(r.entry) for r in compiled_results}


@pytest.fixture(scope="session")
def compile_kernel(tmp_path_factory):
    from tritonscope.compile.driver import CompileRequest, compile_one, parse_kernel_ref, parse_target

    memo: dict[tuple, object] = {}

    def compile_(kernel: str, target: str = "cuda:90", no_specialize=(), constexprs=None,
                 signature: str | None = None, num_warps: int | None = None):
        key = (kernel, target, tuple(no_specialize), tuple(sorted((constexprs or {}).items())), signature,
               num_warps)
        if key not in memo:
            request = CompileRequest(parse_kernel_ref(kernel), parse_target(target), num_warps=num_warps,
                                     signature=signature, constexprs=key[3], no_specialize=key[2])
            cache = tmp_path_factory.mktemp("compile_kernel") / "cache"
            memo[key] = compile_one(request, str(cache))
        return memo[key]

    return compile_


HELPERS_PY = """import triton
import triton.language as tl


@triton.jit
def dequant(packed, scale):
    lo = (packed & 0xF).to(tl.float32) - 8.0
    hi = ((packed >> 4) & 0xF).to(tl.float32) - 8.0
    return lo * scale, hi * scale
"""
KERNEL_PY = """import triton
import triton.language as tl

from hm_helpers import dequant


@triton.jit
def unpack_kernel(w_ptr, s_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    packed = tl.load(w_ptr + offs, mask=mask, other=0)
    scale = tl.load(s_ptr + offs // 16, mask=mask, other=0.0)
    lo, hi = dequant(packed, scale)
    tl.store(out_ptr + 2 * offs, lo, mask=mask)
    tl.store(out_ptr + 2 * offs + 1, hi, mask=mask)
"""


@pytest.fixture(scope="session")
def helper_module(tmp_path_factory) -> Path:
    """A kernel whose dequantization helper lives in another module (hm_helpers.py), cross-compiled for
    cuda:90 into DIR/cache."""
    src = tmp_path_factory.mktemp("helper_module")
    (src / "hm_helpers.py").write_text(HELPERS_PY)
    (src / "hm_kernel.py").write_text(KERNEL_PY)
    from conftest import run_cli

    r = run_cli("compile", f"{src / 'hm_kernel.py'}::unpack_kernel", "--signature",
                "w_ptr=*u8,s_ptr=*fp32,out_ptr=*fp32,n=i32", "--constexpr", "BLOCK=256", "--target", "cuda:90",
                "--cache-dir", str(src / "cache"))
    assert r.returncode == 0, r.stderr
    return src
