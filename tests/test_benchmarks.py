"""The benchmark machinery runs and writes well-formed JSON of ratios (no timing is asserted: CI is noisy)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

RUN = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def test_tiny_benchmark_run_writes_ratios(corpus, tmp_path):
    out = tmp_path / "results.json"
    proc = subprocess.run([sys.executable, str(RUN), "--tiny", "--corpus", str(corpus), "--json", str(out),
                           "--only", "ls", "--only", "parse", "--only", "diff", "--only", "memory"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(out.read_text())
    assert doc["meta"]["mode"] == "tiny" and doc["meta"]["cores"] >= 1
    benches = [r["bench"] for r in doc["rows"]]
    # two ls sizes x (in-process, process against the loop and against its floor); full parse on 1 core (and on
    # every core when there are several)
    assert benches.count("ls: Cache.entries (in-process)") == 2 and benches.count("ls --json (process)") == 4
    floors = [(r["bench"], r["baseline"]) for r in doc["rows"] if "floor" in r["bench"] + r["baseline"]]
    assert floors == 2 * [("ls floor (process)", "json.load loop (process)"),
                          ("ls floor, click imported (process)", "json.load loop (process)"),
                          ("ls --json (process)", "ls floor, click imported (process)")]
    assert "full parse (1 core)" in benches and "diff A B (process)" in benches
    assert "memory: parse largest LLIR" in benches and "memory: all stages + line map" in benches
    for r in doc["rows"]:
        assert set(r) >= {"bench", "size", "baseline", "baseline_s", "tool_s", "ratio", "goal"}
        assert isinstance(r["ratio"], float) and math.isfinite(r["ratio"]) and r["ratio"] > 0
        if r["tool_s"] is not None:  # a timing row: its ratio is its own two medians' pairing
            assert r["baseline_s"] > 0 and r["tool_s"] > 0
    parse = next(r for r in doc["rows"] if r["bench"] == "full parse (1 core)")
    assert parse["mb_per_s_per_core"] > 0
    # the table is printed too, one line per row
    assert all(b in proc.stdout for b in benches)


def test_kernel_commands_benchmark_row(corpus, tmp_path):
    out = tmp_path / "results.json"
    proc = subprocess.run([sys.executable, str(RUN), "--tiny", "--corpus", str(corpus), "--json", str(out),
                           "--only", "kernel"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = json.loads(out.read_text())["rows"]
    # --tiny measures the largest kernel only: map with and without SASS, and layout
    assert [r["bench"] for r in rows] == ["map --line (all stages, sass)", "map --line (text stages)",
                                         "layout KERNEL"]
    assert all(r["baseline"] == "python -c pass" and r["ratio"] > 0 for r in rows)
    assert all(r["size"].startswith("JEHESICA LLIR 423 KB") for r in rows)
