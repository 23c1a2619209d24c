"""tritonscope benchmarks: every figure is a ratio to a baseline measured in the same run on the same files.

    python benchmarks/run.py [--quick | --tiny] [--json out.json] [--corpus ../shared/corpus] [--only NAME]

Prints one table and writes JSON (benchmarks/results.json by default). Baselines and tools run back to
back in alternating order; each ratio is the median of the per-pair ratios. See docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import benches  # noqa: E402
from synth import corpus_entries  # noqa: E402
from timing import bytecode_note, cpu_pressure  # noqa: E402

# Sizes per mode: full (the sizes), quick (minutes), tiny (the CI smoke test: seconds).
SIZES = {
    "full": {"ls": [1000, 3000, 10000], "parse": [90, 300, 900], "kernels": 3, "diff": [100, 300, 1000],
             "repeat": 5, "parse_repeat": 3, "diff_repeat": 1, "compile_repeat": 2},
    "quick": {"ls": [300, 1000, 3000], "parse": [30, 90, 270], "kernels": 3, "diff": [30, 100, 300],
              "repeat": 3, "parse_repeat": 3, "diff_repeat": 1, "compile_repeat": 1},
    "tiny": {"ls": [20, 40], "parse": [6], "kernels": 1, "diff": [6], "repeat": 1, "parse_repeat": 1,
             "diff_repeat": 1, "compile_repeat": 1},
}


def plan(corpus: Path, work: Path, mode: str, real_cache: Path | None = None) -> dict[str, Callable[[], list[dict]]]:
    s = SIZES[mode]
    r = s["repeat"]
    real = {"real": lambda: benches.bench_real_cache(real_cache, work, min(r, 3))} if real_cache else {}
    return {**real,
        "ls": lambda: benches.bench_ls(corpus, work, s["ls"], r),
        "parse": lambda: benches.bench_parse(corpus, work, s["parse"], s["parse_repeat"]),
        "filesize": lambda: benches.bench_file_sizes(corpus, s["kernels"], r),
        "kernel": lambda: benches.bench_kernel_commands(corpus, s["kernels"], r),
        "compile": lambda: benches.bench_compile(s["compile_repeat"]),
        "diff": lambda: benches.bench_diff(corpus, work, s["diff"], s["diff_repeat"]),
        "memory": lambda: benches.bench_memory(corpus),
    }


def print_table(rows: list[dict]) -> None:
    head = f"{'benchmark':32} {'size':>24} {'baseline':>30} {'base s':>8} {'tool s':>8} {'ratio':>7} {'goal':>6}  note"
    print(head)
    print("-" * len(head))
    for r in rows:
        goal = f"<={r['goal']:g}" if r.get("goal") else ""
        base = f"{r['baseline_s']:8.3f}" if r.get("baseline_s") is not None else f"{'':8}"
        tool = f"{r['tool_s']:8.3f}" if r.get("tool_s") is not None else f"{'':8}"
        note = f"{r['mb_per_s_per_core']:.1f} MB/s/core" if "mb_per_s_per_core" in r else ""
        if "us_per_kb" in r:
            note = f"{r['us_per_kb']:.0f} us/KB"
        if "peak_bytes" in r:
            note = f"peak {r['peak_bytes'] / 1e6:.1f} MB"
            if "rss_delta_bytes" in r:
                note += f", rss +{r['rss_delta_bytes'] / 1e6:.1f} MB"
        print(f"{r['bench']:32} {r['size']:>24} {r['baseline']:>30} {base} {tool} {r['ratio']:7.2f} {goal:>6}  {note}")


def markdown_table(rows: list[dict]) -> str:
    """The table as docs/performance.md shows it."""
    out = ["| benchmark | size | baseline | baseline s | tool s | ratio | goal | note |",
           "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        base = f"{r['baseline_s']:.3f}" if r.get("baseline_s") is not None else ""
        tool = f"{r['tool_s']:.3f}" if r.get("tool_s") is not None else ""
        goal = f"<= {r['goal']:g}" if r.get("goal") else ""
        note = (f"{r['mb_per_s_per_core']:.1f} MB/s per core" if "mb_per_s_per_core" in r else
                f"{r['us_per_kb']:.0f} us/KB" if "us_per_kb" in r else
                f"peak {r['peak_bytes'] / 1e6:.1f} MB" if "peak_bytes" in r else "")
        out.append(f"| {r['bench']} | {r['size']} | {r['baseline']} | {base} | {tool} | {r['ratio']:.2f} | {goal} "
                   f"| {note} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats (minutes)")
    mode.add_argument("--tiny", action="store_true", help="a few entries, one repeat (the CI smoke test)")
    ap.add_argument("--corpus", type=Path, default=HERE.parent.parent / "shared" / "corpus")
    ap.add_argument("--json", type=Path, default=HERE / "results.json")
    ap.add_argument("--real-cache", type=Path, default=None, metavar="DIR",
                    help="a real Inductor Triton cache (hundreds of entries): ls and snapshot on it ('real')")
    ap.add_argument("--only", action="append", choices=list(plan(Path(), Path(), "tiny", Path())),
                    help="run only these benchmarks (repeatable)")
    ap.add_argument("--markdown", type=Path, metavar="RESULTS", help="print RESULTS (a JSON this wrote) as a "
                    "markdown table, run nothing")
    args = ap.parse_args()
    if args.markdown:
        print(markdown_table(json.loads(args.markdown.read_text())["rows"]))
        return
    if (not args.only or set(args.only) != {"real"}) and not corpus_entries(args.corpus):
        raise SystemExit(f"no corpus at {args.corpus} (pass --corpus)")
    mode_name = "tiny" if args.tiny else "quick" if args.quick else "full"
    rows: list[dict] = []
    pressure = [cpu_pressure()]
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tritonscope-bench-") as tmp:
        for name, bench in plan(args.corpus, Path(tmp), mode_name, args.real_cache).items():
            if (args.only and name not in args.only) or (not args.only and mode_name == "tiny" and name == "compile"):
                continue  # compile takes minutes: the smoke test leaves it out unless asked
            rows.extend(bench())
            print(f"[{name} done, {time.perf_counter() - t0:.0f} s]", file=sys.stderr, flush=True)
    pressure.append(cpu_pressure())
    print_table(rows)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    meta = {"python": sys.version.split()[0], "machine": platform.machine(), "cores": cores, "mode": mode_name,
            "load_before_after": pressure, "seconds": round(time.perf_counter() - t0, 1),
            "bytecode": bytecode_note()}
    args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    print(f"\n{meta['cores']} cores, {pressure[0]} before, {pressure[1]} after; wrote {args.json}")


if __name__ == "__main__":
    main()
