"""`tritonscope compile` without a GPU: complete entries for every sample, the attributes that
cross-compilation pins on each kernel, and what `--no-specialize` does to the GEMV tile load."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.fixtures_compile import COMPILED_TARGETS

SAMPLES = ["vector_add", "softmax", "matmul", "gemv", "gemv_int4", "layer_norm", "flash_attention"]
# Gluon samples: their layouts are written for 32-lane warps, so the default build skips hip:gfx942.
GLUON_SAMPLES = ["gluon_mask", "gluon_mask_auto", "gluon_axpy", "gluon_transpose"]
KERNEL_NAMES = {"vector_add": "add_kernel", "softmax": "softmax_kernel", "matmul": "matmul_kernel",
                "gemv": "gemv_kernel", "gemv_int4": "gemv_int4_kernel", "layer_norm": "layer_norm_kernel",
                "flash_attention": "attention_fwd_kernel", "gluon_mask": "gluon_mask_kernel",
                "gluon_mask_auto": "gluon_mask_auto_kernel", "gluon_axpy": "gluon_axpy_kernel",
                "gluon_transpose": "gluon_transpose_kernel"}
STAGES = {"cuda:90": ["source", "ttir", "ttgir", "llir", "ptx", "cubin", "json"],
          "hip:gfx942": ["source", "ttir", "ttgir", "llir", "amdgcn", "hsaco", "json"]}
# Triton 3.9 (CI's): a Gluon kernel starts at Gluon IR (`glir`, the same text as `.source`), no TTIR.
GLUON_STAGES = ["source", "glir", "ttgir", "llir", "ptx", "cubin", "json"]
COMPILED = sorted([(s, t) for s in SAMPLES for t in COMPILED_TARGETS] + [(s, "cuda:90") for s in GLUON_SAMPLES])

D = "tt.divisibility = 16 : i32"
# The runtime arguments of each kernel's tt.func and their attributes on cuda:90, as a JIT launch with the
# sample's sizes gives them: 16-aligned pointers and 16-divisible ints get tt.divisibility; unit strides
# (matmul's stride_ak/bn/cn, attention's stride_*k) became constexpr 1 and left the signature; softmax's
# 781-element rows are not 16-divisible; floats get nothing. On hip:gfx942 every pointer also gets
# tt.pointer_range = 32 (tensors under 2 GiB, AMD buffer ops on).
PINNED_ATTRS = {
    "vector_add": {"x_ptr": D, "y_ptr": D, "out_ptr": D, "n_elements": D},
    "softmax": {"out_ptr": D, "in_ptr": D, "in_row_stride": "", "out_row_stride": "", "n_cols": ""},
    "matmul": {"a_ptr": D, "b_ptr": D, "c_ptr": D, "M": D, "N": D, "K": D, "stride_am": D, "stride_bk": D,
               "stride_cm": D},
    "gemv": {"w_ptr": D, "x_ptr": D, "y_ptr": D, "N": D, "K": D, "stride_wn": D},
    "gemv_int4": {"w_ptr": D, "scales_ptr": D, "x_ptr": D, "y_ptr": D, "N": D, "K": D, "stride_wk": D},
    "layer_norm": {"x_ptr": D, "y_ptr": D, "w_ptr": D, "b_ptr": D, "mean_ptr": D, "rstd_ptr": D, "stride": D,
                   "N": D, "eps": ""},
    "flash_attention": {**{p: D for p in ("q_ptr", "k_ptr", "v_ptr", "o_ptr")},
                        **{f"stride_{t}{d}": D for t, dims in (("q", "zhm"), ("k", "zhn"), ("v", "zhn"),
                                                              ("o", "zhm")) for d in dims},
                        "H": D, "N_CTX": D, "sm_scale": ""},
}
# `%name: type {attrs} loc(` in a tt.func header
_FUNC_ARG = re.compile(r"%(?P<name>\w+): [^{,()]+?(?: \{(?P<attrs>[^}]*)\})? loc\(")
# One 16-byte / one 2-byte load of the GEMV tile (evict_first) in PTX
_PTX_TILE_V4 = re.compile(r"ld\.global\.L1::evict_first\.L2::cache_hint\.v4\.b32 ")
_PTX_TILE_B16 = re.compile(r"ld\.global\.L1::evict_first\.L2::cache_hint\.b16 ")


def func_arg_attrs(ttir: str) -> dict[str, str]:
    header = next(line for line in ttir.splitlines() if "tt.func public" in line)
    return {m.group("name"): m.group("attrs") or "" for m in _FUNC_ARG.finditer(header)}


def test_every_sample_has_complete_entries(compiled_entries):
    assert sorted(compiled_entries) == COMPILED
    from tritonscope.artifacts.cache import load_entry

    for (sample, target), path in compiled_entries.items():
        entry = load_entry(path)
        assert entry.kind == "kernel"
        assert entry.name == KERNEL_NAMES[sample]
        gluon = sample in GLUON_SAMPLES
        assert entry.stages == (GLUON_STAGES if gluon else STAGES[target]), (sample, target)
        assert entry.language == ("gluon" if gluon else "triton")
        assert str(entry.target) == target


def test_ls_lists_every_compiled_kernel(compiled_cache, cli):
    proc = cli("ls", "--cache-dir", str(compiled_cache), "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    listed = sorted((e["name"], f"{e['target']['backend']}:{e['target']['arch']}") for e in doc["entries"])
    assert listed == sorted((KERNEL_NAMES[s], t) for s, t in COMPILED)


@pytest.mark.parametrize("sample", SAMPLES)
def test_pinned_attributes(sample, compiled_entries):
    cuda = func_arg_attrs((compiled_entries[sample, "cuda:90"] / f"{KERNEL_NAMES[sample]}.ttir").read_text())
    assert cuda == PINNED_ATTRS[sample]
    hip = func_arg_attrs((compiled_entries[sample, "hip:gfx942"] / f"{KERNEL_NAMES[sample]}.ttir").read_text())
    expected_hip = {name: (attrs + ", tt.pointer_range = 32 : i32" if name.endswith("_ptr") else attrs)
                    for name, attrs in PINNED_ATTRS[sample].items()}
    assert hip == expected_hip


def _tile_loads(entry: Path) -> tuple[int, int]:
    ptx = (entry / "gemv_kernel.ptx").read_text()
    return len(_PTX_TILE_V4.findall(ptx)), len(_PTX_TILE_B16.findall(ptx))


def test_gemv_tile_is_sixteen_byte_vectors(compiled_entries):
    # 64x256 fp16 over 128 threads: 128 elements per thread = 16 loads of 16 bytes.
    assert _tile_loads(compiled_entries["gemv", "cuda:90"]) == (16, 0)
    amdgcn = (compiled_entries["gemv", "hip:gfx942"] / "gemv_kernel.amdgcn").read_text()
    # 256 lanes: 64 elements each = 8 dwordx4 buffer loads, plus one for the x slice.
    assert amdgcn.count("buffer_load_dwordx4") == 9
    assert "buffer_load_ushort" not in amdgcn and "global_load_ushort" not in amdgcn


def test_no_specialize_tile_pointer_makes_scalar_loads(compile_kernel):
    result = compile_kernel("gemv", "cuda:90", no_specialize=("w_ptr",))
    assert result.ok, result.error
    entry = Path(result.entry)
    attrs = func_arg_attrs((entry / "gemv_kernel.ttir").read_text())
    assert attrs["w_ptr"] == "" and attrs["x_ptr"] == D
    assert _tile_loads(entry) == (0, 128)
    hip = compile_kernel("gemv", "hip:gfx942", no_specialize=("w_ptr",))
    amdgcn = (Path(hip.entry) / "gemv_kernel.amdgcn").read_text()
    assert amdgcn.count("global_load_ushort") == 64
    # x's layout is a slice of the tile's, now one element per lane along k: its load is scalar too.
    assert amdgcn.count("buffer_load_ushort") == 1
    assert "buffer_load_dwordx4" not in amdgcn and "global_load_dwordx4" not in amdgcn


def test_unaligned_variant_equals_no_specialize(compile_kernel):
    a = compile_kernel("gemv-unaligned", "cuda:90")
    b = compile_kernel("gemv", "cuda:90", no_specialize=("w_ptr",))
    assert a.ok and a.hash == b.hash


def test_kmask_variant_makes_scalar_loads(compile_kernel):
    result = compile_kernel("gemv-kmask", "cuda:90")
    attrs = func_arg_attrs((Path(result.entry) / "gemv_kernel.ttir").read_text())
    assert attrs["w_ptr"] == D and attrs["K"] == "" and attrs["stride_wn"] == D
    assert _tile_loads(Path(result.entry)) == (0, 128)


def test_num_warps_override(compile_kernel):
    result = compile_kernel("gemv", "cuda:90", num_warps=8)
    assert result.options["num_warps"] == 8
    meta = json.loads((Path(result.entry) / "gemv_kernel.json").read_text())
    assert meta["num_warps"] == 8


def test_cli_summary_and_cached_rerun(compiled_cache, cli, tmp_path):
    import shutil

    cache = shutil.copytree(compiled_cache, tmp_path / "cache")
    proc = cli("compile", "vector_add", "--target", "cuda:90", "--cache-dir", str(cache), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    row = next(line for line in proc.stdout.splitlines() if line.startswith("vector_add"))
    assert row.split()[1] == "cuda:90"
    assert row.endswith("src ttir ttgir llir ptx cubin json")
    assert "(cached)" in row
    assert proc.stdout.strip().endswith(f"1 of 1 compiled into {cache}")
    assert proc.stderr == ""


def test_explain_spec_json(cli):
    proc = cli("compile", "gemv", "--target", "hip:gfx942", "--explain-spec", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["kind"] == "compile-spec"
    (kernel,) = doc["kernels"]
    args = {a["name"]: a for a in kernel["spec"]["args"]}
    assert args["w_ptr"]["type"] == "*fp16"
    assert args["w_ptr"]["hints"] == ["tt.divisibility=16", "tt.pointer_range=32"]
    assert args["EVEN_K"] == {"name": "EVEN_K", "type": "constexpr", "value": True, "hints": []}
    assert kernel["options"] == {"num_warps": 4, "num_stages": 2, "num_ctas": 1}


def test_explain_spec_shows_a_dtype_given_as_the_dtype(cli, tmp_path):
    """Helper 120: `--constexpr DTYPE=tl.bfloat16` showed as the string 'tl.bfloat16' where the default dtype
    showed as triton.language.float16 (the compile itself was given the dtype)."""
    user = tmp_path / "dt.py"
    user.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                    "def dk(y, DTYPE: tl.constexpr = tl.float16, OTHER: tl.constexpr = tl.float16):\n"
                    "    tl.store(y, tl.zeros([1], DTYPE).sum().to(OTHER))\n")
    proc = cli("compile", f"{user}::dk", "--target", "cuda:90", "--signature", "y=*fp32", "--constexpr",
               "DTYPE=tl.bfloat16", "--explain-spec")
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line for line in proc.stdout.splitlines() if line.split()}
    assert "constexpr = triton.language.bfloat16" in rows["DTYPE"], rows
    assert "constexpr = triton.language.float16" in rows["OTHER"], rows


def test_a_target_given_twice_is_compiled_once(cli, tmp_path):
    """Helper 120: `--target cuda:90 --target cuda:90` compiled the kernel twice, the second 'cached'."""
    proc = cli("compile", "vector_add", "--target", "cuda:90", "--target", "cuda:90", "--cache-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith(f"1 of 1 compiled into {tmp_path}") and "(cached)" not in proc.stdout


def test_a_kernel_over_its_targets_shared_memory_is_said_at_compile(cli, tmp_path):
    """Helper 120: a matmul tile asking 320 KB of shared memory on cuda:90 compiled without a word (`ls` marks
    it; Triton itself fails at the first launch, OutOfResources)."""
    user = tmp_path / "mm.py"
    user.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                    "def mm(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):\n"
                    "    offm = tl.arange(0, BM)\n    offn = tl.arange(0, BN)\n    offk = tl.arange(0, BK)\n"
                    "    acc = tl.zeros((BM, BN), dtype=tl.float32)\n    for k in range(0, K, BK):\n"
                    "        x = tl.load(a + offm[:, None] * K + (k + offk)[None, :])\n"
                    "        y = tl.load(b + (k + offk)[:, None] * BN + offn[None, :])\n"
                    "        acc += tl.dot(x, y)\n    tl.store(c + offm[:, None] * BN + offn[None, :], acc)\n")
    args = ("compile", f"{user}::mm", "--target", "cuda:90", "--signature", "a=*fp16,b=*fp16,c=*fp32,K=i32",
            "--constexpr", "BN=64", "--constexpr", "BM=64", "--cache-dir", str(tmp_path / "c"))
    big = cli(*args, "--constexpr", "BK=512", "--option", "num_stages=5")  # (393,216 bytes)
    assert big.returncode == 0, big.stderr
    assert "bytes of shared memory where a cuda:90 block may have 232,448: a launch of it fails" in big.stderr, \
        big.stderr
    small = cli(*args, "--constexpr", "BK=64")
    assert small.returncode == 0 and "shared memory" not in small.stderr, small.stderr
