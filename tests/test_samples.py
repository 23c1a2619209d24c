"""Every sample kernel against its torch reference on the CPU (TRITON_INTERPRET=1), and the package data."""

from __future__ import annotations

import json

from tests.test_compile import KERNEL_NAMES, SAMPLES


def test_every_sample_matches_its_reference_in_the_interpreter(cli, tmp_path):
    proc = cli("compile", "--run", "--interpret", "--json", "--cache-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["kind"] == "compile-run" and doc["device"] == "cpu"
    assert [c["kernel"] for c in doc["checks"]] == SAMPLES
    for check in doc["checks"]:
        assert check["ok"] and check["error"] is None, check
    outputs = {c["kernel"]: [o["name"] for o in c["outputs"]] for c in doc["checks"]}
    assert outputs["layer_norm"] == ["y_ptr", "mean_ptr", "rstd_ptr"]


def test_samples_are_listed_with_their_variants(cli):
    proc = cli("compile", "--list", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["samples"]
    assert [r["name"] for r in rows] == ["vector_add", "softmax", "matmul", "gemv", "gemv-unaligned",
                                         "gemv-kmask", "gemv_int4", "layer_norm", "flash_attention",
                                         "gluon_mask", "gluon_mask_auto", "gluon_axpy", "gluon_axpy-spt1",
                                         "gluon_transpose"]
    assert {r["name"]: r["kernel"] for r in rows if r["name"] in KERNEL_NAMES} == KERNEL_NAMES


def test_sample_package_imports_nothing_heavy():
    import subprocess
    import sys

    code = ("import sys, tritonscope.sample_kernels as s; s.names(); "
            "print(any(m in sys.modules for m in ('triton', 'torch')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_gemv_tile_load_line_is_stable():
    """The docs quote this line of gemv.py; keep them in step when it moves."""
    from pathlib import Path

    import tritonscope.sample_kernels as pkg

    lines = (Path(pkg.__file__).parent / "gemv.py").read_text().splitlines()
    assert lines[40 - 1].strip() == (
        'w = tl.load(w_ptrs, mask=w_mask, other=0.0, eviction_policy="evict_first")')
