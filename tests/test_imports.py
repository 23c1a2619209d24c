"""Inspection commands must not import triton or torch: they have to start fast on any machine."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tritonscope.cli import COMMANDS, _module_exists

PROBE = r"""
import sys
from tritonscope.cli import main
sys.argv = ["tritonscope"] + sys.argv[1:]
try:
    main()
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("triton", "torch", "numpy"))
sys.stderr.write("HEAVY:" + ",".join(heavy) + "\n")
"""


def _heavy_modules(*args: str) -> list[str]:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=300)
    line = next(ln for ln in r.stderr.splitlines() if ln.startswith("HEAVY:"))
    return [m for m in line[len("HEAVY:"):].split(",") if m]


def test_help_imports_nothing_heavy():
    assert _heavy_modules("--help") == []


INSPECTION = {
    "ls": ["ls", "--cache-dir", "{cache}"],
    "show": ["show", "gemv_tile_kernel", "--cache-dir", "{cache}", "--target", "hip:gfx942"],
    "map": ["map", "gemv_tile_kernel", "--cache-dir", "{cache}", "--target", "hip:gfx942", "--line", "173"],
    "layout": ["layout", "gemv_tile_kernel", "--cache-dir", "{cache}", "--target", "hip:gfx942"],
    "loads": ["loads", "gemv_tile_kernel", "--cache-dir", "{cache}", "--target", "hip:gfx942"],
    "diff": ["diff", "{cache}", "{cache}"],
    "snapshot": ["snapshot", "--cache-dir", "{cache}", "--out", "{tmp}/snap"],
    "report": ["report", "gemv_tile_kernel", "--cache-dir", "{cache}", "--target", "hip:gfx942",
               "-o", "{tmp}/r.html"],
}


@pytest.mark.parametrize("command", sorted(INSPECTION))
def test_inspection_commands_do_not_import_triton(command, cache39, tmp_path):
    if not _module_exists(COMMANDS[command][0]):
        pytest.skip(f"{command} not built yet")
    args = [a.format(cache=cache39, tmp=tmp_path) for a in INSPECTION[command]]
    assert _heavy_modules(*args) == []
    assert _heavy_modules(command, "--help") == []


@pytest.mark.parametrize("args", [
    ["ls", "--inductor"], ["ls", "--json"], ["map", "--model-line", "provenance_model.py:21"],
    ["show", "BL2QGYIC", "-s", "ttir"], ["map", "22DEHI5G", "--line", "34"],
])
def test_torch_compile_provenance_imports_no_torch(args):
    """Reading Inductor's records (issue 20) is text parsing: no torch, no triton."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "inductor-provenance-h100-triton3.6"
    assert _heavy_modules(*args, "--cache-dir", str(data / "triton_cache"), "--inductor-dir",
                          str(data / "inductor_cache")) == []


GC_PROBE = r"""
import gc, sys
gc.set_threshold(700, 10, 10)  # CPython's default, whatever the test process runs with
from tritonscope import parallel
from tritonscope.cli import run
seen = []
parallel._start_worker(__import__("os").getppid())  # what a pool worker runs first
seen.append(gc.get_threshold())
gc.set_threshold(700, 10, 10)
sys.argv = ["tritonscope", "--version"]
try:
    run()
except SystemExit:
    pass
sys.stderr.write(f"GC:{seen[0]}:{gc.get_threshold()}\n")
"""


def test_cli_and_pool_workers_collect_cycles_less_often():
    """The CLI and every pool worker raise CPython's cyclic-GC thresholds (tritonscope.GC_THRESHOLDS)."""
    from tritonscope import GC_THRESHOLDS

    r = subprocess.run([sys.executable, "-c", GC_PROBE], capture_output=True, text=True, timeout=120)
    line = next(ln for ln in r.stderr.splitlines() if ln.startswith("GC:"))
    assert line == f"GC:{GC_THRESHOLDS}:{GC_THRESHOLDS}", r.stderr


def test_relax_gc_never_lowers_thresholds_or_enables_a_disabled_collector():
    import gc

    from tritonscope import GC_THRESHOLDS, relax_gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(10 * GC_THRESHOLDS[0], 5, 5)
        relax_gc()
        assert gc.get_threshold() == (10 * GC_THRESHOLDS[0], 5, 5)
        gc.set_threshold(0)  # threshold 0: collection turned off by the embedding program
        relax_gc()
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
