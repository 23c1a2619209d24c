"""Make a cache entry whose LLIR is as large as asked, from a real corpus entry, and measure what the
commands do with it (time and peak memory of each command as a process).

    python benchmarks/large_stage.py ENTRY_DIR OUT_DIR --mb 1024 [--measure]

The function body of the entry's LLIR is repeated until the file reaches the size (every line a real
instruction with its real `!dbg`); the other stages are copied unchanged. Used by tests/test_limits.py
(small sizes) and for the 1 GB figures in the issue note.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path


def make_large_entry(src: Path, dst: Path, target_bytes: int) -> Path:
    entry = Path(shutil.copytree(src, dst))
    llir = next(entry.glob("*.llir"))
    lines = llir.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("define "))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("}"))
    head, body, tail = "".join(lines[: start + 1]), "".join(lines[start + 1: end]), "".join(lines[end:])
    body = "".join(line for line in body.splitlines(keepends=True) if not line.rstrip().endswith(":"))
    llir.chmod(0o644)
    with open(llir, "w") as fh:
        fh.write(head)
        written = len(head) + len(tail)
        while written < target_bytes:
            fh.write(body)
            written += len(body)
        fh.write(tail)
    return entry


def measure(args: list[str]) -> tuple[int, float, float, str]:
    """(exit status, seconds, peak RSS in MiB, last stderr line) of `python -m tritonscope ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "tritonscope", *args], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest child so far: measure the biggest command last, or one per run
    return p.returncode, seconds, max(peak, before) / 1024, (p.stderr.strip().splitlines() or [""])[-1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("entry", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--mb", type=float, default=64)
    ap.add_argument("--measure", nargs="*", default=None,
                    help="commands to run on it, e.g. 'map --stages llir --json' (one process each)")
    a = ap.parse_args()
    entry = make_large_entry(a.entry, a.out, int(a.mb * (1 << 20)))
    size = next(entry.glob("*.llir")).stat().st_size
    print(f"{entry}: llir {size / (1 << 20):.1f} MiB")
    for cmd in a.measure or []:
        words = cmd.split()
        rc, secs, rss, err = measure([words[0], str(entry), *words[1:]])
        print(f"{cmd!r}: exit {rc}, {secs:.1f} s, peak {rss:.0f} MiB = {rss * (1 << 20) / size:.2f}x the file; {err}")


if __name__ == "__main__":
    main()
