"""`tritonscope compile` of every sample for two targets against a plain sequential `triton.compile` loop.

    python benchmarks/bench_compile.py [--repeat 2] [--targets cuda:90,hip:gfx942] [--json out.json]

Both sides run as fresh processes (Python start and `import triton` included) into empty caches, in
alternating order, and compile the same ASTSources (the baseline builds them with the same
`derive_spec`/`make_ast_source`, then calls `triton.compile` one after the other). Prints each run's
wall times and the median ratio compile / loop; below 1 is faster. Issue 3's goal on 2 cores: <= 0.65.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# The baseline: what a user would write without tritonscope, one compile after the other.
SEQUENTIAL_LOOP = """
import sys, warnings
warnings.filterwarnings("ignore", message="TRITON_DEFAULT_FP_FUSION")
import triton
from triton.compiler import make_backend
from tritonscope import sample_kernels
from tritonscope.compile.driver import (CompileRequest, KernelRef, installed_release, installed_rules,
                                        parse_target, resolve_spec, sample_names)
from tritonscope.compile.gluon import gluon_target, source_class
from tritonscope.compile.specialize import make_ast_source
release = installed_release()
for target in [parse_target(t) for t in sys.argv[1].split(",")]:
    for name in sample_names():
        if not sample_kernels.fits(name, target.warp_size, release):  # as `compile` picks them (Gluon: CUDA)
            continue
        fn, spec = resolve_spec(CompileRequest(KernelRef(sample=name), target))
        gpu = target.gpu_target()
        src = make_ast_source(fn, spec, make_backend(gpu), installed_rules(), source_class(fn))
        with gluon_target(fn, gpu, triton.__version__):
            triton.compile(src, target=gpu, options=dict(spec.options))
"""


def cpu_pressure() -> str:
    """Load and CPU pressure (Linux PSI): the ratio means little on a machine others keep busy."""
    parts = []
    try:
        parts.append("load " + Path("/proc/loadavg").read_text().split()[0])
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        parts.append("cpu pressure " + some.split()[1].split("=")[1] + "%")
    except OSError:
        pass
    return ", ".join(parts)


def run(argv: list[str], cache: str) -> float:
    env = {**os.environ, "TRITON_CACHE_DIR": cache, "PYTHONPATH": str(REPO)}
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--targets", default="cuda:90,hip:gfx942")
    parser.add_argument("--jobs", type=int, default=None, help="tritonscope compile --jobs (default: cores)")
    parser.add_argument("--json", dest="json_out", default=None)
    args = parser.parse_args()

    targets = args.targets.split(",")
    compile_cmd = [sys.executable, "-m", "tritonscope", "compile"]
    for t in targets:
        compile_cmd += ["--target", t]
    if args.jobs:
        compile_cmd += ["--jobs", str(args.jobs)]
    print(f"before: {cpu_pressure()}", flush=True)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            order = ("loop", "compile") if i % 2 == 0 else ("compile", "loop")
            times = {}
            for side in order:
                cache = str(Path(tmp) / f"{side}{i}")
                if side == "loop":
                    times[side] = run([sys.executable, "-c", SEQUENTIAL_LOOP, ",".join(targets)], cache)
                else:
                    times[side] = run([*compile_cmd, "--cache-dir", cache], cache)
            entries = len([p for p in (Path(tmp) / f"compile{i}").iterdir() if p.is_dir()])
            runs.append({**times, "ratio": times["compile"] / times["loop"], "entries": entries})
            runs[-1]["pressure_after"] = cpu_pressure()
            print(f"run {i + 1}: loop {times['loop']:.1f} s, compile {times['compile']:.1f} s, "
                  f"ratio {runs[-1]['ratio']:.2f} ({entries} entries; {runs[-1]['pressure_after']})", flush=True)
    ratio = statistics.median(r["ratio"] for r in runs)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"tritonscope compile / sequential triton.compile loop: {ratio:.2f}x on {cores} cores "
          f"({len(targets)} targets, median of {len(runs)})")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"runs": runs, "ratio": ratio, "cores": cores,
                                                   "targets": targets}, indent=2) + "\n")


if __name__ == "__main__":
    main()
