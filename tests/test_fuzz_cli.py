"""Mutated files in a copied cache, through the commands: exit 0, or one `tritonscope: error:` line and exit 1.

The parsers' contract is fuzzed in test_fuzz_stages.py; this checks that the CLI turns every ParseError
into one line, whichever command meets it, and that what parses (truncated or shuffled IR) still runs.
Mutations are drawn with a fixed seed (CI) or a random one (--long), several per stage file.
"""

from __future__ import annotations

import random
import re
import shutil

import pytest
from click.testing import CliRunner
from fuzz_seeds import LONG, MUTATIONS, STATS, mutate

from tritonscope.cli import main

# backend -> (cache fixture, entry folder in it, kernel file stem)
ENTRIES = {
    "cuda": ("cache39", "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ", "add_kernel"),  # cuda:90
    "hip": ("cache39", "DSGZWRL6F75J7DKUJWNCQUBGNNHCHP5D6VCKUMARQG3WTYEXZQ6A", "add_kernel"),  # gfx942
    # Triton 2.2, cuda:90 (no locations in TTIR/TTGIR, the target an object): its metadata is mutated too
    "cuda-2.2": ("releases2_cache", "2.2/3dbbcb64a3a69d9cbe9549de183d98ea", "dot_kernel"),
}
COMMANDS = (["map", "{e}", "--stages", "ttir,ttgir,llir,{isa}"], ["layout", "{e}"], ["loads", "{e}", "--no-sass"],
            ["show", "{e}", "--stage", "{stage}"], ["snapshot", "--cache-dir", "{c}", "--out", "{tmp}/snap"],
            ["ls", "--cache-dir", "{c}", "--json"])
ROUNDS = 100 if LONG else 10


@pytest.mark.parametrize("backend", sorted(ENTRIES))
@pytest.mark.parametrize("round_", range(ROUNDS))
def test_commands_on_mutated_files(backend, round_, request, tmp_path):
    rnd = random.Random(None if LONG else 1000 * round_ + len(backend))
    isa = "amdgcn" if backend == "hip" else "ptx"
    fixture, folder, stem = ENTRIES[backend]
    cache = tmp_path / "cache"
    entry = shutil.copytree(request.getfixturevalue(fixture) / folder, cache / folder.split("/")[-1])
    stage = rnd.choice(["ttir", "ttgir", "llir", isa] + (["json"] if backend == "cuda-2.2" else []))
    p = entry / f"{stem}.{stage}"
    kinds = [rnd.choice(MUTATIONS) for _ in range(rnd.randint(1, 3))]
    data = p.read_bytes()
    for kind in kinds:
        data = mutate(kind, data, rnd)
    p.write_bytes(data)
    for template in COMMANDS:
        args = [a.format(e=entry, c=cache, tmp=tmp_path, isa=isa, stage=stage) for a in template]
        _run_and_check(args, f"{' '.join(template[:1])} on {stage} after {kinds}", "cli")


def _run_and_check(args: list[str], where: str, bucket: str, error_codes: tuple[int, ...] = (1,)) -> None:
    """One command in-process: a result (exit 0) or exactly one error line with an allowed status, never an
    internal error or a traceback; tallied under `bucket`."""
    r = CliRunner().invoke(main, args, env={"NO_COLOR": "1"})
    assert r.exception is None or isinstance(r.exception, SystemExit), (where, repr(r.exception))
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, (where, r.stderr)
    if r.exit_code == 0:
        STATS.record(bucket, "exit 0")
        return
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
    assert r.exit_code in error_codes and len(errors) == 1, (where, r.exit_code, r.stderr)
    STATS.record(bucket, f"exit {r.exit_code}, one line")


NUMBER = re.compile(r"(?<![\w.#%])\d+(?!\w)")


@pytest.mark.parametrize("stage", ["ttir", "ttgir", "llir", "ptx", "amdgcn"])
def test_commands_on_numbers_of_5000_digits(stage, cache39, tmp_path):
    """Python's int() refuses strings of 4300+ digits: every number a reader converts must be bounded."""
    backend = "hip" if stage == "amdgcn" else "cuda"
    isa = "ptx" if backend == "cuda" else "amdgcn"
    rnd = random.Random(None if LONG else stage)
    for round_ in range(8 if LONG else 2):
        cache = tmp_path / f"cache{round_}"
        entry = shutil.copytree(cache39 / ENTRIES[backend][1], cache / ENTRIES[backend][1])
        p = entry / f"add_kernel.{stage}"
        text = p.read_text()
        for m in sorted(rnd.sample(list(NUMBER.finditer(text)), 12), key=lambda m: -m.start()):
            text = text[:m.start()] + "9" * 5000 + text[m.end():]
        p.write_text(text)
        for template in COMMANDS:
            args = [a.format(e=entry, c=cache, tmp=tmp_path, isa=isa, stage=stage) for a in template]
            r = CliRunner().invoke(main, args, env={"NO_COLOR": "1"})
            assert "internal error" not in r.stderr and "Traceback" not in r.stderr, (args[0], r.stderr)
            assert r.exit_code == 0 or len(r.stderr.splitlines()) == 1, (args[0], r.stderr)
            STATS.record("cli 5000 digits", f"exit {r.exit_code}")
    if stage == "ttgir":  # every constant and axis the loads analysis reads (a sample may miss them all)
        cache = tmp_path / "constants"
        entry = shutil.copytree(cache39 / ENTRIES[backend][1], cache / ENTRIES[backend][1])
        p = entry / "add_kernel.ttgir"
        text = re.sub(r"(arith\.constant (?:dense<)?)-?\d+", lambda m: m.group(1) + "9" * 5000, p.read_text())
        p.write_text(re.sub(r"(axis = )\d+", lambda m: m.group(1) + "9" * 5000, text))
        for template in COMMANDS:
            args = [a.format(e=entry, c=cache, tmp=tmp_path, isa=isa, stage=stage) for a in template]
            r = CliRunner().invoke(main, args, env={"NO_COLOR": "1"})
            assert "internal error" not in r.stderr and "Traceback" not in r.stderr, (args[0], r.stderr)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_diff_and_snapshot_over_a_mutated_snapshot(round_, cache39, tmp_path):
    """A snapshot is a directory anyone may edit and commit: `diff` against a mutated one, and a snapshot
    written over it, end in a result or one error line, never an internal error."""
    rnd = random.Random(None if LONG else 7000 + round_)
    cache = tmp_path / "cache"
    folder = ENTRIES["cuda"][1]
    shutil.copytree(cache39 / folder, cache / folder)
    out = tmp_path / "snap"
    assert CliRunner().invoke(main, ["snapshot", "--cache-dir", str(cache), "--out", str(out)]).exit_code == 0
    files = sorted(p for p in out.rglob("*") if p.is_file())
    p = rnd.choice(files)
    kinds = [rnd.choice(MUTATIONS) for _ in range(rnd.randint(1, 3))]
    data = p.read_bytes()
    for kind in kinds:
        data = mutate(kind, data, rnd)
    p.write_bytes(data)
    for args in (["diff", str(out), str(cache), "--format", "json"], ["diff", str(cache), str(out)],
                 ["snapshot", "--cache-dir", str(cache), "--out", str(out)]):
        _run_and_check(args, f"{args[0]} after {kinds} of {p.relative_to(out)}", "cli snapshot", (1, 2))
