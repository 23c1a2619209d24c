"""One place reads and parses an entry's stages (issue 18): during one command, every file of the entry
is opened at most once, whatever the analyses the command runs (source map, loads, layouts, metrics).

Counted in-process: `builtins.open` and `os.open` are wrapped for the duration of one command (click's
CliRunner), and each open of a path inside the entry's directory is tallied.
"""

from __future__ import annotations

import builtins
import collections
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tritonscope.cli import main

SOFTMAX_90 = "TWWPLXS2UOETQNB37UVKIJKEJSGQVY6IHVAXHM37QTBLWHZ7HVBA"
SOFTMAX_GFX90A = "DH4EPRESOTY3ZNCKGWNY7MGTWHWOETCM5XCZC2QEF3IMS6KCUSCQ"


def _opens_during(monkeypatch, folder: Path, args: list[str]) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    real_open, real_os_open = builtins.open, os.open
    inside = str(folder.resolve()) + os.sep

    def tally(path) -> None:
        try:
            p = os.path.realpath(os.fspath(path))
        except TypeError:
            return  # a file descriptor
        if p.startswith(inside):
            counts[os.path.basename(p)] += 1

    def counting_open(file, *a, **k):
        tally(file)
        return real_open(file, *a, **k)

    def counting_os_open(path, *a, **k):
        tally(path)
        return real_os_open(path, *a, **k)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(os, "open", counting_os_open)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=False)
    finally:
        monkeypatch.setattr(builtins, "open", real_open)
        monkeypatch.setattr(os, "open", real_os_open)
    assert result.exit_code == 0, result.output
    return counts


@pytest.mark.parametrize("entry_hash", [SOFTMAX_90, SOFTMAX_GFX90A], ids=["cuda90", "gfx90a"])
@pytest.mark.parametrize("command", [
    ["map"], ["map", "--line", "LINE", "--json"], ["loads"], ["layout"], ["show", "--stage", "ttgir"],
    ["report", "-o", "OUT"], ["snapshot", "-o", "OUT"],
], ids=lambda c: "-".join(w for w in c if w.isalpha())[:24])
def test_each_file_of_the_entry_is_opened_at_most_once(cache39, tmp_path, monkeypatch, entry_hash, command):
    entry = shutil.copytree(cache39 / entry_hash, tmp_path / "c" / entry_hash)
    args = [w.replace("OUT", str(tmp_path / "out")) for w in command]
    args = [w.replace("LINE", "12") for w in args]
    args = [args[0], str(entry), *args[1:]]
    counts = _opens_during(monkeypatch, entry, args)
    assert counts, "the command read nothing of the entry: the count cannot see reads"
    assert max(counts.values()) == 1, dict(counts)


INDUCTOR_DATA = Path(__file__).parent / "data" / "inductor-provenance-h100-triton3.6"


@pytest.mark.parametrize("command", [
    ["map"], ["map", "--line", "30", "--json"], ["show", "--stage", "ttgir"], ["report", "-o", "OUT"],
], ids=lambda c: "-".join(w for w in c if w.isalpha())[:24])
def test_torch_compile_provenance_reads_no_stage_twice(tmp_path, monkeypatch, command):
    """Linking an Inductor kernel to its wrapper reads the head of its first IR stage: a stage the command
    parsed already is not opened again (issue 20 on top of issue 18)."""
    entry = shutil.copytree(INDUCTOR_DATA / "triton_cache" / "BL2QGYICEQ6D4N6RM3U5W7EJN2IHBRX5DVTZIQTCUS4MQBEDPMJA",
                            tmp_path / "entry")
    args = [command[0], str(entry), *[w.replace("OUT", str(tmp_path / "out")) for w in command[1:]],
            "--inductor-dir", str(INDUCTOR_DATA / "inductor_cache")]
    counts = _opens_during(monkeypatch, entry, args)
    assert any(name.endswith(".source") for name in counts), "the link read no IR: the count cannot see it"
    assert max(counts.values()) == 1, dict(counts)


@pytest.mark.parametrize("entry_hash", [SOFTMAX_90, SOFTMAX_GFX90A], ids=["cuda90", "gfx90a"])
def test_snapshot_through_the_records_cache_opens_each_file_once(cache39, tmp_path, tmp_path_factory, monkeypatch,
                                                                 entry_hash):
    """The records cache's key reads every file of the entry; computing the record on a miss reads those
    bytes, not the files again; a hit reads each file once for the key and parses nothing."""
    records = tmp_path_factory.mktemp("records")  # (not beside the entry: never inside the cache being read)
    monkeypatch.setenv("TRITONSCOPE_RECORDS_CACHE", str(records))
    entry = shutil.copytree(cache39 / entry_hash, tmp_path / "c" / entry_hash)
    for _ in ("miss", "hit"):
        counts = _opens_during(monkeypatch, entry, ["snapshot", str(entry), "-o", str(tmp_path / "out")])
        assert counts and max(counts.values()) == 1, dict(counts)
    assert len(list(records.rglob("*.rec"))) == 1


def test_a_report_without_sources_opens_no_source(monkeypatch, tmp_path):
    """`report --no-source` promises no file but the entry's is opened; its loads analysis still read a
    Gluon kernel's source for the written layouts (and ignored --substitute-path when it did read it)."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_gluon import NUM_WARPS_PARAM

    from tritonscope.cli import main as cli_main

    src = tmp_path / "src"
    src.mkdir()
    (src / "nw.py").write_text(NUM_WARPS_PARAM)
    r = CliRunner().invoke(cli_main, ["compile", f"{src / 'nw.py'}::nw_kernel", "--target", "cuda:90", "--signature",
                                      "x_ptr=*fp32", "--constexpr", "N=1024", "--num-warps", "4", "--cache-dir",
                                      str(tmp_path / "c")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    (entry,) = (tmp_path / "c").iterdir()
    counts = _opens_during(monkeypatch, src, ["report", str(entry), "--no-source", "-o", str(tmp_path / "r.html")])
    assert not counts, dict(counts)
    page = (tmp_path / "r.html").read_text()
    assert "source not read (--no-source)" in page
