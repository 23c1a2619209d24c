"""Every entry of every real cache through every inspection command: exit 0, nothing unexplained.

Caches: the corpus (Triton 3.2.0, 3.9.0, Inductor on an H200 with 3.6), the committed Triton 2.3.1 cache,
and the cache `compile` writes in the tests. Commands run in-process through click's CliRunner (the
whole sweep must fit a 2-core CI); a few run as real subprocesses at the end. Disassembly of one binary
is memoized within the sweep (show, map and loads would each run nvdisasm on the same cubin otherwise;
`map` starting nvdisasm in the background is covered by test_sweep_subprocesses and tests/test_map.py).

"Explained" stderr is a note the user can act on: a disassembler that does not know the arch (gfx950
needs LLVM >= 20), a stage skipped for that reason. Anything else on stderr fails the sweep, and so does
any parsed file with unparsed lines (`unparsed lines: N`): real artifacts must parse completely.
"""

from __future__ import annotations

import functools
import json
import os
import re
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from tritonscope.artifacts import tools
from tritonscope.artifacts.cache import Cache
from tritonscope.cli import main
from tritonscope.stages.common import DERIVED_STAGES, TEXT_STAGES

CACHES = {
    "triton-3.2.0": ("corpus", "triton-3.2.0"),
    "triton-3.9.0": ("corpus", "triton-3.9.0"),
    "inductor-3.6": ("corpus", "inductor-h200-triton3.6/triton_cache"),
    "triton-2.0.0": ("releases2_cache", "2.0"),
    "triton-2.1.0": ("releases2_cache", "2.1"),
    "triton-2.2.0": ("releases2_cache", "2.2"),
    "triton-2.3.1": ("cache23", ""),
    "triton-3.0.0": ("releases_cache", "3.0"),
    "triton-3.1.0": ("releases_cache", "3.1"),
    "triton-3.3.1": ("releases_cache", "3.3"),
    "triton-3.4.0": ("releases_cache", "3.4"),
    "triton-3.5.1": ("releases35_cache", "3.5"),
    "triton-3.7.0": ("releases35_cache", "3.7"),
    "triton-3.8.0": ("releases35_cache", "3.8"),
    "compiled": ("compiled_cache", ""),
}
# stderr lines a user is meant to see on these caches, and why.
EXPLAINED = [
    # no llvm-objdump on this machine knows the target: gfx950 needs LLVM 20, not packaged here; gfx942
    # LLVM 17, which .ci/run installs (llvm-19) only where apt-get can
    re.compile(r"no llvm-objdump here knows gfx\w+"),
    re.compile(r"^wrote \d+ kernel\(s\) to "),  # snapshot's own report
]


def _explained(line: str) -> bool:
    return any(p.search(line) for p in EXPLAINED)


@pytest.fixture(scope="module")
def memo_disassembly():
    """Disassemble each binary once per sweep: same file, same tool, same text."""
    saved = {n: getattr(tools, n) for n in ("disassemble_cubin", "disassemble_hsaco", "dwarfdump_hsaco")}
    results: dict[tuple, object] = {}

    def memo(name):
        fn = saved[name]

        @functools.wraps(fn)
        def wrapper(path, *args, **kwargs):
            st = os.stat(path)
            key = (name, str(path), st.st_mtime_ns, st.st_size, args, tuple(sorted(kwargs.items())))
            if key not in results:
                try:
                    results[key] = fn(path, *args, **kwargs)
                except Exception as exc:  # noqa: BLE001 - replayed to the next caller as it was raised
                    results[key] = exc
            hit = results[key]
            if isinstance(hit, Exception):
                raise hit
            return hit

        return wrapper

    class Finished:
        """What tools.start_disassemble_cubin returns, for a disassembly that already ran."""

        def __init__(self, path, *args, **kwargs):
            self.path = path

        def output(self) -> str:
            return tools.disassemble_cubin(self.path)  # memoized below

        def close(self) -> None:
            pass

    start = tools.start_disassemble_cubin
    originals = dict(saved)
    # disassemble_cubin itself goes through start_disassemble_cubin: memoize the real start's output
    saved["disassemble_cubin"] = functools.wraps(start)(lambda path, *a, **k: start(path, *a, **k).output())
    for n in saved:
        setattr(tools, n, memo(n))
    tools.start_disassemble_cubin = Finished
    yield results
    for n, fn in originals.items():
        setattr(tools, n, fn)
    tools.start_disassemble_cubin = start


class Sweep:
    """Runs commands in-process and keeps what went wrong (all of it, not only the first)."""

    def __init__(self) -> None:
        self.runner = CliRunner()
        self.problems: list[str] = []
        self.runs = 0
        self.explained: set[str] = set()

    def run(self, *args: str, expect_output: bool = True) -> str:
        self.runs += 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = self.runner.invoke(main, list(args), env={"NO_COLOR": "1", "COLUMNS": "200", "PAGER": "cat"})
        where = " ".join(args)
        if r.exit_code != 0 or r.exception and not isinstance(r.exception, SystemExit):
            self.problems.append(f"{where}: exit {r.exit_code}: {r.stderr.strip() or r.exception!r}")
        for w in caught:
            self.problems.append(f"{where}: warning: {w.category.__name__}: {w.message}")
        for line in r.stderr.splitlines():
            if _explained(line):
                self.explained.add(line)
            else:
                self.problems.append(f"{where}: stderr: {line}")
        if expect_output and r.exit_code == 0 and not r.stdout.strip():
            self.problems.append(f"{where}: no output")
        return r.stdout


def _tool_knows(entry, stage: str) -> bool:
    """Whether this machine can disassemble the entry (else `show` must fail with one explained line)."""
    if stage == "sass":
        return tools.find_nvidia_tool("nvdisasm") is not None
    target = entry.target
    if target is None or not tools.llvm_objdumps():
        return False
    return target.arch != "gfx950"  # LLVM 19 is the newest here; gfx950 needs LLVM >= 20


@pytest.mark.parametrize("name", sorted(CACHES))
def test_sweep_cache(name, request, memo_disassembly, tmp_path, capsys):
    fixture, sub = CACHES[name]
    root = request.getfixturevalue(fixture)
    cache = Path(root) / sub if sub else Path(root)
    entries = Cache(cache).entries()
    kernels = [e for e in entries if e.kind in ("kernel", "partial")]
    assert kernels, f"{name}: no kernel entries in {cache}"
    sweep = Sweep()

    listing = json.loads(sweep.run("ls", "--cache-dir", str(cache), "--all", "--json"))
    assert listing["count"] == len(entries)
    sweep.run("ls", "--cache-dir", str(cache))

    stats = json.loads(sweep.run("map", "--stats", "--cache-dir", str(cache), "--json"))
    assert len(stats["kernels"]) == len([e for e in kernels if e.kind == "kernel" or e.files])
    for k in stats["kernels"]:
        for stage, why in k["skipped"].items():
            if not _explained(why):
                sweep.problems.append(f"map --stats: {k['kernel']['name']} {stage} skipped: {why}")
            else:
                sweep.explained.add(why)

    shown = 0
    for e in kernels:
        path = str(e.path)
        for stage in [s for s in TEXT_STAGES if s in e.files]:
            sweep.run("show", path, "--stage", stage)
            shown += 1
        for stage, binary in DERIVED_STAGES.items():
            if binary not in e.files:
                continue
            if _tool_knows(e, stage):
                sweep.run("show", path, "--stage", stage)
                shown += 1
            else:
                r = sweep.runner.invoke(main, ["show", path, "--stage", stage], env={"NO_COLOR": "1"})
                assert r.exit_code == 1 and r.stderr.count("\n") == 1 and _explained(r.stderr), r.stderr
        if e.metadata is not None:
            sweep.run("show", path, "--meta")
        if "ttgir" in e.files:
            sweep.run("layout", path)
        if e.kind == "kernel":  # (`map` per entry is what `map --stats` already parsed; tests/test_map.py)
            sweep.run("loads", path)

    sweep.run("snapshot", "--cache-dir", str(cache), "--out", str(tmp_path / "snap"), expect_output=False)
    assert (tmp_path / "snap").is_dir()

    with capsys.disabled():
        print(f"\nsweep {name}: {len(kernels)} entries ({len(entries)} in all), {shown} stages shown, "
              f"{sweep.runs} commands, {len(sweep.explained)} explained notes")
    assert sweep.problems == [], "\n".join(sweep.problems[:40])


def test_sweep_subprocesses(cache23, cache39, cli, tmp_path):
    """A handful of the same commands as real processes (real exit codes, real imports, the pager off)."""
    for args in (["ls", "--cache-dir", str(cache23)], ["map", "--stats", "--cache-dir", str(cache23)],
                 ["snapshot", "--cache-dir", str(cache23), "--out", str(tmp_path / "s")]):
        r = cli(*args)
        assert r.returncode == 0, r.stderr
        assert [ln for ln in r.stderr.splitlines() if not _explained(ln)] == []
    entry = next(p for p in sorted(cache39.iterdir()) if (p / "matmul_kernel.ptx").exists())
    for args in (["show", str(entry), "--stage", "sass"], ["layout", str(entry)], ["loads", str(entry)],
                 ["map", str(entry), "--line", "91"]):
        r = cli(*args)
        assert r.returncode == 0 and r.stdout.strip() and r.stderr == "", (args, r.stderr)


# Lines no rule of the parser reads, one per stage, planted into a copied entry.
JUNK = {"ttgir": "#loc99 this is not a location", "llir": "%x = = = nonsense", "ptx": ".loc one two three",
        "amdgcn": ".loc one two three"}
PARSING_COMMANDS = {
    "map": ["map", "{entry}"],
    "map --stats": ["map", "--stats", "{entry}"],
    "loads": ["loads", "{entry}", "--no-sass"],
    "layout": ["layout", "{entry}"],
    "report": ["report", "{entry}", "-o", "{tmp}/r.html"],
    "snapshot": ["snapshot", "--cache-dir", "{cache}", "--out", "{tmp}/snap"],
    "diff": ["diff", "{cache}", "{cache}"],
}


def _plant(entry: Path, stage: str) -> Path:
    (p,) = entry.glob(f"*.{stage}")
    lines = p.read_text().split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith(("#loc", "\t.loc", "define", "  %")) or "tt.func" in ln)
    lines.insert(at + 1, JUNK[stage])
    p.write_text("\n".join(lines))
    return p


@pytest.mark.parametrize("backend", ["cuda", "hip"])
@pytest.mark.parametrize("command", sorted(PARSING_COMMANDS))
def test_unparsed_lines_are_reported(command, backend, cache39, tmp_path):
    """Every command that parses says `unparsed lines: N` for each file with lines it could not read."""
    import shutil

    arch = "cuda:90" if backend == "cuda" else "hip:gfx942"
    src = next(p for p in sorted(cache39.iterdir())
               if (p / "add_kernel.json").exists() and Cache(p).entries()[0].target
               and str(Cache(p).entries()[0].target) == arch)
    cache = tmp_path / "cache"
    entry = cache / src.name
    shutil.copytree(src, entry)
    planted = [_plant(entry, s) for s in ("ttgir", "llir", "ptx" if backend == "cuda" else "amdgcn")]
    args = [a.format(entry=entry, cache=cache, tmp=tmp_path) for a in PARSING_COMMANDS[command]]
    r = CliRunner().invoke(main, args, env={"NO_COLOR": "1"})
    assert r.exit_code == 0, r.stderr
    notes = [ln for ln in r.stderr.splitlines() if "unparsed lines" in ln]
    reported = {ln.split(": unparsed lines")[0].removeprefix("tritonscope: note: ") for ln in notes}
    assert all(ln.endswith("unparsed lines: 1 (--debug shows them)") for ln in notes), notes
    assert reported and reported <= {str(p) for p in planted}, notes
    if command in ("map", "map --stats", "report"):  # these parse every stage
        assert reported == {str(p) for p in planted}, notes
    r = CliRunner().invoke(main, ["--debug", *args], env={"NO_COLOR": "1"})
    for p in reported:
        stage = p.rsplit(".", 1)[1]
        assert any(ln.startswith(f"  {p}:") and ln.endswith(JUNK[stage]) for ln in r.stderr.splitlines()), r.stderr
