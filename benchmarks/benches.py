"""The five benchmarks of issue 8 and the memory probe. Each returns table rows: a tool time, a baseline
time measured back to back on the same files, and their ratio (the figure that matters)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from synth import corpus_entries, synth_cache
from timing import HERE, REPO, cli_env, paired, run_cli, run_python

TEXT_STAGES = ("source", "ttir", "ttgir", "llir", "ptx", "amdgcn")
# The largest kernel of the corpus (Inductor triton_mm, LLIR 423 KB): bench 3 and the memory figure.
LARGEST = "inductor-h200-triton3.6/triton_cache/JEHESICATX4S6WV3HUKVA3DGFAK7CSIWRGVZBHJRJ5WVVCCALSFQ"


def row(bench: str, size: str, baseline: str, timing: tuple[float, float, float], goal: float | None,
        **extra: object) -> dict:
    base, tool, ratio = timing
    return {"bench": bench, "size": size, "baseline": baseline, "baseline_s": base, "tool_s": tool,
            "ratio": ratio, "goal": goal, **extra}


# 1. ls over a large cache vs a bare json.load loop ---------------------------------------------------------
JSON_LOAD_LOOP = """
import json, os, sys
for d in os.scandir(sys.argv[1]):
    for f in os.scandir(d.path):
        if f.name.endswith(".json") and not f.name.startswith("__grp__"):
            with open(f.path, "rb") as fh:
                json.loads(fh.read())
"""


# The least any `ls --json --all` must do for its fields: list each entry, json.load its metadata, stat every
# file (sizes) and the directory (mtime), read a CUBIN's ELF header, section table and section names (the
# least a spill figure needs), write the JSON. With "click" as argv[2] it first imports click, the CLI parser
# of the required stack: the floor a click command starts from. A lower bound: it demangles nothing, links
# nothing to Inductor and checks no limit.
LS_FLOOR = """
import json, os, struct, sys
if sys.argv[2:] == ["click"]:
    import click
out = []
for d in os.scandir(sys.argv[1]):
    files, meta = {}, None
    for f in os.scandir(d.path):
        files[f.name] = f.path
        if f.name.endswith(".json") and not f.name.startswith("__grp__"):
            with open(f.path, "rb") as fh:
                meta = json.loads(fh.read())
    sizes = {n: os.stat(p).st_size for n, p in files.items()}
    local = None
    for n, p in files.items():
        if n.endswith(".cubin"):
            fd = os.open(p, os.O_RDONLY)
            head = os.pread(fd, 64, 0)
            shoff, = struct.unpack_from("<Q", head, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from("<HHH", head, 0x3A)
            rows = list(struct.iter_unpack("<IIQQQQIIQQ", os.pread(fd, shnum * shentsize, shoff)))
            local = os.pread(fd, rows[shstrndx][5], rows[shstrndx][4]).count(b".nv.local.")
            os.close(fd)
    out.append({"path": d.path, "meta": meta, "sizes": sizes, "mtime": os.stat(d.path).st_mtime,
                "local_bytes": local, "stages": sorted(files)})
with open(os.devnull, "w") as fh:  # as run_cli discards ls's output
    fh.write(json.dumps(out))
"""


def ls_rows(root: Path, size: str, argv: list[str], repeat: int) -> list[dict]:
    """`ls` (argv) as a process against the json.load loop, and against LS_FLOOR with click imported; the
    floor's own ratio to the loop, with and without click: the part of the goal the contract and the stack
    take before any code of tritonscope runs."""
    def loop() -> None:
        run_python(JSON_LOAD_LOOP, str(root))

    def floor(*extra: str) -> Callable[[], None]:
        return lambda: run_python(LS_FLOOR, str(root), *extra)

    def ls() -> None:
        run_cli(*argv)

    name = " ".join(a for a in argv if not a.startswith("/") and a != "--cache-dir")
    return [
        row(f"{name} (process)", size, "json.load loop (process)", paired(loop, ls, repeat), 1.5),
        row("ls floor (process)", size, "json.load loop (process)", paired(loop, floor(), repeat), None),
        row("ls floor, click imported (process)", size, "json.load loop (process)",
            paired(loop, floor("click"), repeat), None),
        row(f"{name} (process)", size, "ls floor, click imported (process)", paired(floor("click"), ls, repeat), None),
    ]


def json_load_baseline(root: Path) -> None:
    """JSON_LOAD_LOOP, in this process."""
    for d in os.scandir(root):
        for f in os.scandir(d.path):
            if f.name.endswith(".json") and not f.name.startswith("__grp__"):
                with open(f.path, "rb") as fh:
                    json.loads(fh.read())


def bench_ls(corpus: Path, work: Path, sizes: list[int], repeat: int) -> list[dict]:
    from tritonscope.artifacts.cache import Cache

    rows = []
    for n in sizes:
        root = synth_cache(corpus, work / f"ls{n}", n)
        rows.append(row("ls: Cache.entries (in-process)", f"{n} entries", "json.load loop",
                        paired(lambda r=root: json_load_baseline(r), lambda r=root: Cache(r).entries(), repeat),
                        1.5))
        # the whole command in a fresh process vs the same loop in a fresh process, and vs its floor
        rows.extend(ls_rows(root, f"{n} entries", ["ls", "--cache-dir", str(root), "--json"], repeat))
    return rows


# 2. full parse of every stage of every entry vs `grep -c loc` over the same bytes ------------------------------
def stage_files(root: Path) -> list[str]:
    from tritonscope.artifacts.cache import Cache

    return [str(e.files[st]) for e in Cache(root).kernels() for st in TEXT_STAGES if st in e.files]


def grep_baseline(paths: list[str]) -> None:
    for i in range(0, len(paths), 500):  # stay under ARG_MAX
        subprocess.run(["grep", "-c", "loc", *paths[i:i + 500]], capture_output=True)


def full_parse(root: Path, workers: int) -> int:
    """Every text stage of every kernel parsed and its per-line map built (what `map --stats` does)."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.parallel import pool_map

    jobs = list(Cache(root).kernels())
    return sum(pool_map(_parse_entry_job, jobs, workers=workers))


def _parse_entry_job(entry) -> int:
    from tritonscope.srcmap.kernelmap import line_counts, load_kernel_map

    kmap = load_kernel_map(entry, [s for s in TEXT_STAGES if s in entry.files])
    per_stage, _ = line_counts(kmap)
    return sum(sum(c.values()) for c in per_stage.values())


def bench_parse(corpus: Path, work: Path, sizes: list[int], repeat: int) -> list[dict]:
    from tritonscope.parallel import usable_cores

    rows = []
    cores = usable_cores()
    for n in sizes:
        root = synth_cache(corpus, work / f"parse{n}", n, seed="p")
        paths = stage_files(root)
        mb = sum(os.path.getsize(p) for p in paths) / 1e6
        for workers in sorted({1, cores}):
            t = paired(lambda p=paths: grep_baseline(p), lambda r=root, w=workers: full_parse(r, w), repeat)
            rows.append(row(f"full parse ({workers} core{'s' if workers > 1 else ''})", f"{n} entries {mb:.0f} MB",
                            "grep -c loc", t, 10, mb_per_s_per_core=round(mb / t[1] / workers, 2)))
    return rows


def bench_file_sizes(corpus: Path, count: int, repeat: int) -> list[dict]:
    """Parse (with its line map) of one LLIR file at `count` sizes vs `grep -c loc` of that file: how the
    parse grows with file size."""
    from tritonscope.stages import parse
    from tritonscope.stages.common import read_text

    rows = []
    for entry in kernels_by_size(corpus, count):
        (llir,) = [str(p) for p in entry.glob("*.llir")]
        kb = os.path.getsize(llir) / 1e3
        t = paired(lambda p=llir: subprocess.run(["grep", "-c", "loc", p], capture_output=True),
                   lambda p=llir: parse("llir", read_text(p), p), repeat)
        rows.append(row("parse one LLIR file", f"{entry.name[:8]} {kb:.0f} KB", "grep -c loc (process)", t, None,
                        us_per_kb=round(t[1] / kb * 1e6, 1)))
    return rows


# 3. map --line and layout KERNEL on kernels of 3 sizes vs `python -c pass` -------------------------------------
def kernels_by_size(corpus: Path, count: int) -> list[Path]:
    """`count` cubin-carrying entries spread over the LLIR sizes of the corpus, ending with LARGEST."""
    def llir_size(e: Path) -> int:
        return sum(p.stat().st_size for p in e.glob("*.llir"))

    cands = sorted((e for e in corpus_entries(corpus) if any(e.glob("*.cubin")) and any(e.glob("*.llir"))),
                   key=llir_size)
    largest = corpus / LARGEST
    picks = [cands[len(cands) * (i + 1) // (count + 1)] for i in range(count - 1)] if count > 1 else []
    return [*picks, largest if largest.is_dir() else cands[-1]]


def first_source_line(entry: Path) -> int:
    """The line of the kernel's first `tt.load`, from its TTGIR (so `map --line` shows real ops)."""
    from tritonscope.artifacts.cache import load_entry
    from tritonscope.srcmap.kernelmap import load_kernel_map

    kmap = load_kernel_map(load_entry(entry), ["ttgir"])
    for op in kmap.stages["ttgir"].ops:
        if op.op == "tt.load" and op.loc is not None and op.loc.outermost().known:
            return op.loc.outermost().line
    return 1


def bench_kernel_commands(corpus: Path, sizes: int, repeat: int) -> list[dict]:
    def start() -> None:
        run_python("pass")

    rows = []
    for entry in kernels_by_size(corpus, sizes):
        llir_kb = sum(p.stat().st_size for p in entry.glob("*.llir")) / 1e3
        size = f"{entry.name[:8]} LLIR {llir_kb:.0f} KB"
        line = str(first_source_line(entry))
        commands = {
            "map --line (all stages, sass)": ["map", str(entry), "--line", line, "--json"],
            "map --line (text stages)": ["map", str(entry), "--line", line, "--json", "--stages",
                                         "source,ttir,ttgir,llir,ptx"],
            "layout KERNEL": ["layout", str(entry), "--json"],
        }
        for bench, argv in commands.items():
            rows.append(row(bench, size, "python -c pass", paired(start, lambda a=argv: run_cli(*a), repeat), 3))
    return rows


# 4. compile of every sample for two targets vs a sequential triton.compile loop ---------------------------------
def bench_compile(repeat: int) -> list[dict]:
    """Runs benchmarks/bench_compile.py (its own paired, alternating runs) and reads its JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "compile.json"
        subprocess.run([sys.executable, str(HERE / "bench_compile.py"), "--repeat", str(repeat), "--json", str(out)],
                       check=True, env=cli_env(), stdout=subprocess.DEVNULL)
        data = json.loads(out.read_text())
    runs = data["runs"]
    loop = sorted(r["loop"] for r in runs)[len(runs) // 2]
    comp = sorted(r["compile"] for r in runs)[len(runs) // 2]
    return [row("compile (all samples)", f"{runs[0]['entries']} entries, {','.join(data['targets'])}",
                "sequential triton.compile", (loop, comp, data["ratio"]), 0.65, cores=data["cores"])]


# 5. diff of two N-entry caches vs the full parse of both ------------------------------------------------------
def bench_diff(corpus: Path, work: Path, sizes: list[int], repeat: int) -> list[dict]:
    rows = []
    records = work / "diff-records"
    for n in sizes:
        a = synth_cache(corpus, work / f"diffa{n}", n, seed="a")
        b = synth_cache(corpus, work / f"diffb{n}", n, seed="b")
        both = lambda a=a, b=b: (full_parse(a, 1), full_parse(b, 1))  # noqa: E731
        # every record computed (the records cache off), then read back from it (a second look)
        for label, where in (("diff A B (process)", "off"), ("diff A B, records cache warm (process)", str(records))):
            def diff(a=a, b=b, w=where) -> None:
                run_cli("diff", str(a), str(b), "--format", "json", env={"TRITONSCOPE_RECORDS_CACHE": w})
            if where != "off":
                diff()  # fills the records cache (one repeat warms only the baseline)
            rows.append(row(label, f"2 x {n} entries", "full parse of both (1 core)", paired(both, diff, repeat), None))
    return rows


# 6. a real Inductor cache (issue 19's held-out goals): ls, snapshot, against the least work on the same files ---
COPY_STAGES = """
import os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
for d in os.scandir(src):
    for f in os.scandir(d.path):
        if f.name.endswith((".source", ".ttir", ".ttgir", ".llir", ".ptx", ".amdgcn")):
            os.makedirs(os.path.join(dst, d.name), exist_ok=True)
            shutil.copyfile(f.path, os.path.join(dst, d.name, f.name))
"""


def bench_real_cache(cache: Path, work: Path, repeat: int) -> list[dict]:
    """`ls --json --all` vs the json.load loop, and `snapshot` vs `grep -c loc` over its stage files and vs
    copying those files (the floor of any command that writes a normalized copy of every stage)."""
    import shutil

    entries = sum(1 for d in os.scandir(cache) if d.is_dir())
    paths = [str(p) for d in sorted(cache.iterdir()) if d.is_dir() for p in sorted(d.iterdir())
             if p.suffix.lstrip(".") in TEXT_STAGES]
    mb = sum(os.path.getsize(p) for p in paths) / 1e6
    size = f"{entries} entries {mb:.0f} MB"
    out, copy, records, trash = work / "snap", work / "copy", work / "records", work / "trash"
    moved = iter(range(1 << 30))

    def set_aside(path: Path) -> None:  # a rename, not a removal: deleting 2,000+ files is not the tool's time
        if path.exists():
            trash.mkdir(exist_ok=True)
            path.rename(trash / str(next(moved)))

    def snap() -> None:
        run_cli("snapshot", "--cache-dir", str(cache), "-o", str(out), env={"TRITONSCOPE_RECORDS_CACHE": str(records)})

    def cold() -> None:  # the first look: no record kept, an empty output directory
        set_aside(records)
        set_aside(out)
        snap()

    def warm_fresh() -> None:  # records kept from the last run, written into an empty output directory
        set_aside(out)
        snap()

    def copy_files() -> None:
        set_aside(copy)
        run_python(COPY_STAGES, str(cache), str(copy))

    grep = lambda: grep_baseline(paths)  # noqa: E731
    rows = [
        *ls_rows(cache, size, ["ls", "--cache-dir", str(cache), "--json", "--all"], repeat),
        row("snapshot, cold (process)", size, "grep -c loc", paired(grep, cold, repeat), 10),
        row("snapshot, cold (process)", size, "copy of the stage files (process)", paired(copy_files, cold, repeat),
            None),
        # the same compilations again (a CI re-run, a second look): records from the records cache, and the
        # previous snapshot in place (only the marker rewritten), or an empty directory (every file written)
        row("snapshot, warm (process)", size, "grep -c loc", paired(grep, snap, repeat), 10),
        row("snapshot, warm, new directory (process)", size, "grep -c loc", paired(grep, warm_fresh, repeat), 10),
        row("snapshot, warm, new directory (process)", size, "copy of the stage files (process)",
            paired(copy_files, warm_fresh, repeat), None),
        row("copy of the stage files (process)", size, "grep -c loc", paired(grep, copy_files, repeat), None),
    ]
    shutil.rmtree(trash, ignore_errors=True)
    return rows


# memory: resident memory of parsing the largest kernel, against its file size --------------------------------
MEMORY_PROBE = """
import json, os, sys, tracemalloc
from tritonscope.artifacts.cache import load_entry
from tritonscope.srcmap.kernelmap import line_counts, load_kernel_map
from tritonscope.stages import parse
from tritonscope.stages.common import read_text
entry = load_entry(__import__("pathlib").Path(sys.argv[1]))
stages = [s for s in ("source", "ttir", "ttgir", "llir", "ptx", "amdgcn") if s in entry.files]
llir = str(entry.files["llir"])
parse("ttir", "module {\\n}\\n")  # import every parser before measuring
parse("llir", "")
parse("ptx", "")
def rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
rss0 = rss()
kmap = load_kernel_map(entry, stages)
line_counts(kmap)
rss_delta = rss() - rss0  # resident growth while the parsed kernel is alive (no tracemalloc overhead)
del kmap
tracemalloc.start()
module = parse("llir", read_text(llir), llir)
llir_peak = tracemalloc.get_traced_memory()[1]
tracemalloc.reset_peak()
kmap = load_kernel_map(entry, stages)
line_counts(kmap)
all_peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({"llir_bytes": os.path.getsize(llir), "llir_peak": llir_peak,
                  "stage_bytes": sum(os.path.getsize(entry.files[s]) for s in stages), "all_peak": all_peak,
                  "rss_delta": rss_delta}))
"""


def bench_memory(corpus: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(corpus / LARGEST)], capture_output=True, text=True,
                       env=cli_env(), check=True)
    m = json.loads(r.stdout)
    return [
        {"bench": "memory: parse largest LLIR", "size": f"{m['llir_bytes'] / 1e3:.0f} KB", "baseline": "file size",
         "baseline_s": None, "tool_s": None, "ratio": m["llir_peak"] / m["llir_bytes"], "goal": 10,
         "peak_bytes": m["llir_peak"], "measure": "tracemalloc peak"},
        {"bench": "memory: all stages + line map", "size": f"{m['stage_bytes'] / 1e3:.0f} KB",
         "baseline": "file sizes", "baseline_s": None, "tool_s": None, "ratio": m["all_peak"] / m["stage_bytes"],
         "goal": 10, "peak_bytes": m["all_peak"], "rss_delta_bytes": m["rss_delta"],
         "measure": "tracemalloc peak; ru_maxrss delta alongside"},
    ]


__all__ = ["REPO", "bench_compile", "bench_diff", "bench_file_sizes", "bench_kernel_commands", "bench_ls",
           "bench_memory", "bench_parse"]
