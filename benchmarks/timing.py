"""Timing helpers for the benchmarks: paired, back-to-back medians and a resident-memory probe."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def paired(base: Callable[[], object], tool: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """(median baseline s, median tool s, median of per-pair ratios).

    A warm-up fills the page cache (and Python's bytecode caches); then baseline and tool run back to
    back, in alternating order, so that load from other processes on a shared machine hits both sides of
    each ratio alike. With a single repeat only the baseline warms up (it reads the same files): the big
    sizes take a minute a run."""
    base()
    if repeat > 1:
        tool()
    bases, tools, ratios = [], [], []
    for i in range(max(1, repeat)):
        pair = {}
        for side, fn in ((("base", base), ("tool", tool)) if i % 2 == 0 else (("tool", tool), ("base", base))):
            t0 = time.perf_counter()
            fn()
            pair[side] = time.perf_counter() - t0
        bases.append(pair["base"])
        tools.append(pair["tool"])
        ratios.append(pair["tool"] / pair["base"])
    return statistics.median(bases), statistics.median(tools), statistics.median(ratios)


# Processes measured here start as an installed tool starts: with compiled bytecode. pip writes .pyc files
# at install; a machine that sets PYTHONDONTWRITEBYTECODE (this development machine does) would otherwise
# recompile every module of the tool (and of click, rich) in every measured process: ~25 ms per start,
# a third of a `map --line`. The warm-up run of each pair fills this prefix.
PYCACHE = Path(os.environ.get("TRITONSCOPE_BENCH_PYCACHE", Path.home() / ".cache" / "tritonscope-bench-pycache"))


def cli_env() -> dict[str, str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO), "PYTHONPYCACHEPREFIX": str(PYCACHE)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def bytecode_note() -> str:
    """How the measured processes start, for the results (see PYCACHE)."""
    return f"bytecode cached under {PYCACHE} (PYTHONDONTWRITEBYTECODE unset for measured processes)"


def run_cli(*args: str, env: dict[str, str] | None = None) -> None:
    """`python -m tritonscope ARGS` in a fresh process (`env`: variables added to cli_env's), output
    discarded; fails loudly on an error."""
    r = subprocess.run([sys.executable, "-m", "tritonscope", *args], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, env={**cli_env(), **(env or {})})
    if r.returncode not in (0, 1) or (r.returncode == 1 and b"error" in r.stderr):
        # exit 1 without an error line is a diff verdict (kernels changed), not a failure
        raise SystemExit(f"tritonscope {' '.join(args)} failed ({r.returncode}): {r.stderr.decode()[:500]}")


def run_python(code: str, *argv: str) -> None:
    subprocess.run([sys.executable, "-c", code, *argv], check=True, env=cli_env())


def cpu_pressure() -> str:
    """Load average and CPU pressure (Linux PSI), recorded with the results: a busy machine skews ratios."""
    parts = []
    try:
        parts.append("load " + Path("/proc/loadavg").read_text().split()[0])
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        parts.append("cpu pressure " + some.split()[1].split("=")[1] + "%")
    except (OSError, IndexError):
        pass
    return ", ".join(parts)
