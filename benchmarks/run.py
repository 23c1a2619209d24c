"""tritonscope benchmarks: every figure is a ratio to a baseline measured in the same run on the same files.

    python benchmarks/run.py [--quick] [--json out.json] [--corpus ../shared/corpus]

Prints a table and writes JSON (benchmarks/results.json by default). See docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

from synth import corpus_entries, synth_cache  # noqa: E402


def timeit(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of `repeat` runs (after one warm-up run that fills the page cache)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run_cli(*args: str) -> None:
    r = subprocess.run([sys.executable, "-m", "tritonscope", *args], capture_output=True,
                       env={**os.environ, "NO_COLOR": "1"})
    if r.returncode != 0:
        raise SystemExit(f"tritonscope {' '.join(args)} failed: {r.stderr.decode()[:500]}")


# ---------------------------------------------------------------------------------------------------------
# 1. ls over a large cache vs a bare json.load loop
# ---------------------------------------------------------------------------------------------------------
def json_load_baseline(root: Path) -> int:
    n = 0
    for d in os.scandir(root):
        for f in os.scandir(d.path):
            if f.name.endswith(".json") and not f.name.startswith("__grp__"):
                with open(f.path, "rb") as fh:
                    json.loads(fh.read())
                n += 1
    return n


def bench_ls(corpus: Path, work: Path, sizes: list[int], repeat: int) -> list[dict]:
    from tritonscope.cache import Cache

    rows = []
    for n in sizes:
        root = synth_cache(corpus, work / f"ls{n}", n)
        base = timeit(lambda root=root: json_load_baseline(root), repeat)
        model = timeit(lambda root=root: Cache(root).entries(), repeat)
        rows.append({"bench": "ls (entries model)", "size": f"{n} entries", "baseline": "json.load loop",
                     "baseline_s": base, "tool_s": model, "ratio": model / base, "goal": 1.5})
        # the whole command, JSON out, in a fresh process vs the same baseline in a fresh process
        base_p = timeit(lambda root=root: subprocess.run([sys.executable, "-c",
                        f"import sys; sys.path.insert(0, {str(HERE)!r}); import run; run.json_load_baseline("
                        f"__import__('pathlib').Path({str(root)!r}))"], check=True), max(1, repeat // 2))
        cmd = timeit(lambda root=root: run_cli("ls", "--cache-dir", str(root), "--json"), max(1, repeat // 2))
        rows.append({"bench": "ls --json (process)", "size": f"{n} entries", "baseline": "json.load loop (process)",
                     "baseline_s": base_p, "tool_s": cmd, "ratio": cmd / base_p, "goal": 1.5})
    return rows


# ---------------------------------------------------------------------------------------------------------
# 2. full parse of every stage of every entry vs `grep -c loc` over the same bytes
# ---------------------------------------------------------------------------------------------------------
TEXT_STAGES = ("source", "ttir", "ttgir", "llir", "ptx", "amdgcn")


def stage_files(root: Path) -> list[tuple[str, str]]:
    from tritonscope.cache import Cache

    return [(st, str(e.files[st])) for e in Cache(root).kernels() for st in TEXT_STAGES if st in e.files]


def parse_all(files: list[tuple[str, str]]) -> int:
    from tritonscope.stages import parse
    from tritonscope.stages.common import read_text

    return sum(len(parse(st, read_text(p), p).ops) for st, p in files)


def grep_baseline(files: list[tuple[str, str]]) -> None:
    paths = [p for _, p in files]
    for i in range(0, len(paths), 500):  # stay under ARG_MAX
        subprocess.run(["grep", "-c", "loc", *paths[i:i + 500]], capture_output=True)


def bench_parse(corpus: Path, work: Path, quick: bool, repeat: int) -> list[dict]:
    rows = []
    for n in ([90] if quick else [90, 300, 900]):
        root = synth_cache(corpus, work / f"parse{n}", n, seed="p")
        files = stage_files(root)
        nbytes = sum(os.path.getsize(p) for _, p in files)
        base = timeit(lambda files=files: grep_baseline(files), repeat)
        tool = timeit(lambda files=files: parse_all(files), max(1, repeat // 2))
        rows.append({"bench": "full parse (1 core)", "size": f"{n} entries {nbytes / 1e6:.0f} MB",
                     "baseline": "grep -c loc", "baseline_s": base, "tool_s": tool, "ratio": tool / base,
                     "goal": 10, "mb_per_s_per_core": nbytes / 1e6 / tool})
    return rows


BENCHES: dict[str, Callable] = {"ls": bench_ls, "parse": bench_parse}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes, fewer repeats (CI smoke run)")
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--json", type=Path, default=HERE / "results.json")
    ap.add_argument("--only", action="append", choices=sorted(BENCHES), help="run only these benchmarks")
    args = ap.parse_args()
    if not corpus_entries(args.corpus):
        raise SystemExit(f"no corpus at {args.corpus} (pass --corpus)")
    repeat = 3 if args.quick else 5
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="tritonscope-bench-") as tmp:
        work = Path(tmp)
        for name, fn in BENCHES.items():
            if args.only and name not in args.only:
                continue
            rows.extend(fn(args.corpus, work, quick=args.quick, repeat=repeat) if name != "ls" else
                        fn(args.corpus, work, [300, 1000] if args.quick else [1000, 3000, 10000], repeat))
    print(f"{'benchmark':32} {'size':>22} {'baseline':>28} {'base s':>8} {'tool s':>8} {'ratio':>7} {'goal':>6}")
    for r in rows:
        goal = f"<={r['goal']}" if r.get("goal") else ""
        print(f"{r['bench']:32} {r['size']:>22} {r['baseline']:>28} {r['baseline_s']:8.3f} {r['tool_s']:8.3f} "
              f"{r['ratio']:7.2f} {goal:>6}")
    meta = {"python": sys.version.split()[0], "machine": platform.machine(), "cpus": os.cpu_count(),
            "quick": args.quick}
    args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
