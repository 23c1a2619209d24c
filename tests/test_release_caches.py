"""Every command on caches of Triton 3.0, 3.1, 3.3 and 3.4 (tests/data/releases-3.0-3.4: this project's
samples cross-compiled by each release's wheel): the release each is decoded as (3.0/3.1 name none in their
metadata), every access of `loads` with a verdict, and how many ops of each text stage are mapped."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tritonscope.artifacts.cache import Cache
from tritonscope.cli import main

DATA = Path(__file__).parent / "data" / "releases-3.0-3.4"
TEXT = ("ttir", "ttgir", "llir", "ptx", "amdgcn")

# (release folder, kernel, target): (loads verdicts, release decoded as, layouts, {stage: (ops, attributed)})
EXPECTED = {
    ("3.0", "layer_norm_kernel", "cuda:80"): ({"as-predicted": 6, "scalar": 2}, "3.1", 1, {
        "ttir": (82, 77), "ttgir": (75, 70), "llir": (274, 262), "ptx": (268, 246)}),
    ("3.0", "matmul_kernel", "cuda:90"): ({"as-predicted": 3}, "3.1", 9, {
        "ttir": (96, 83), "ttgir": (168, 152), "llir": (950, 803), "ptx": (639, 627)}),
    ("3.1", "matmul_kernel", "hip:gfx942"): ({"as-predicted": 5, "scalar": 2}, "3.1", 13, {
        "ttir": (96, 83), "ttgir": (107, 94), "llir": (766, 565), "amdgcn": (837, 802)}),
    ("3.1", "softmax_kernel", "hip:gfx942"): ({"scalar": 2}, "3.1", 1, {
        "ttir": (27, 26), "ttgir": (27, 26), "llir": (203, 197), "amdgcn": (275, 259)}),
    ("3.3", "layer_norm_kernel", "cuda:90"): ({"as-predicted": 6, "scalar": 2}, "3.3", 1, {
        "ttir": (82, 77), "ttgir": (75, 70), "llir": (265, 246), "ptx": (255, 237)}),
    ("3.3", "matmul_kernel", "hip:gfx942"): ({"as-predicted": 6, "scalar": 1}, "3.3", 13, {
        "ttir": (96, 83), "ttgir": (172, 158), "llir": (1006, 808), "amdgcn": (977, 914)}),
    ("3.4", "gluon_transpose_kernel", "cuda:90"): ({"as-predicted": 3, "scalar": 1}, "3.4", 7, {
        "ttgir": (40, 39), "llir": (255, 247), "ptx": (177, 177)}),
    ("3.4", "matmul_kernel", "cuda:90"): ({"as-predicted": 4}, "3.4", 9, {
        "ttir": (96, 83), "ttgir": (168, 152), "llir": (957, 818), "ptx": (595, 583)}),
}


def _entries():
    for rel in sorted(p.name for p in DATA.iterdir() if p.is_dir()):
        for e in sorted(Cache(DATA / rel).kernels(), key=lambda e: e.name):
            yield rel, e


def _json(*args: str) -> dict:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_every_entry_is_found_with_its_release():
    found = {(rel, e.name, str(e.target)) for rel, e in _entries()}
    assert found == set(EXPECTED)
    listed = _json("ls", "--cache-dir", str(DATA / "3.3"), "--json", "--all")
    assert sorted(x["triton_version"] for x in listed["entries"]) == ["3.3.1", "3.3.1"]


@pytest.mark.parametrize("key", sorted(EXPECTED), ids=lambda k: "-".join(k))
def test_each_command_on_the_release_cache(key):
    rel, name, target = key
    (entry,) = [e for r, e in _entries() if (r, e.name, str(e.target)) == key]
    verdicts, decoded_as, layouts, stages = EXPECTED[key]
    loads = _json("loads", str(entry.path), "--json")
    assert dict(collections.Counter(row["verdict"] for row in loads["rows"])) == verdicts
    assert "unknown" not in verdicts
    layout = _json("layout", str(entry.path), "--json", "--no-picture")
    assert layout["semantics"]["triton_version"] == decoded_as and len(layout["layouts"]) == layouts
    if rel in ("3.0", "3.1"):  # no triton_version in the metadata: inferred, and said so
        assert layout["semantics"]["from"].startswith("inferred: 3.0/3.1 metadata")
    present = [s for s in TEXT if s in entry.stages]
    stats = _json("map", "--stats", str(entry.path), "--json", "--stages", ",".join(present))
    got = {s["stage"]: (s["ops"], s["attributed"]) for s in stats["kernels"][0]["stages"]}
    assert got == stages
