"""A kernel file and its helper's file with one basename (tests/data/kernels/samebase/a/utils.py calls
b/utils.py's `scaled_load`, whose load sits on line 22, the line of the kernel's store): two files the IR
names by different absolute paths are two files, and a user's `--file` is resolved to the one it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import run_cli

from tritonscope.artifacts.cache import Cache
from tritonscope.cli import main
from tritonscope.errors import UsageError
from tritonscope.stages.common import file_label, resolve_file, same_file

KERNEL = Path(__file__).parent / "data" / "kernels" / "samebase" / "a" / "utils.py"
HELPER = KERNEL.parent.parent / "b" / "utils.py"


@pytest.fixture(scope="module")
def entry(tmp_path_factory):
    cache = tmp_path_factory.mktemp("samebase") / "cache"
    r = run_cli("compile", f"{KERNEL}::scaled_copy_kernel", "--signature", "x_ptr=*fp32,y_ptr=*fp32,n=i32",
                "--constexpr", "BLOCK=256", "--target", "cuda:90", "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    (e,) = Cache(cache).kernels()
    return e


def _json(*args: str) -> dict:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def _kinds(doc: dict, stage: str = "ttgir") -> dict:
    return next(s["kinds"] for s in doc["stages"] if s["stage"] == stage)


def test_same_file_and_resolution():
    assert same_file("/a/utils.py", "/a/utils.py") and same_file("/a/x/../utils.py", "/a/utils.py")
    assert not same_file("/a/utils.py", "/b/utils.py")  # two recorded paths: equal or not the same
    assert same_file("/a/utils.py", "utils.py") and same_file("/x/a/utils.py", "a/utils.py")
    assert not same_file("/x/a/utils.py", "b/utils.py") and same_file("/a/k.py", None)
    recorded = {"/r/a/utils.py", "/r/b/utils.py", "/opt/triton/language/standard.py"}
    assert resolve_file("b/utils.py", recorded) == "/r/b/utils.py"
    assert resolve_file("/home/me/b/utils.py", recorded) == "/r/b/utils.py"  # the user's own checkout
    assert resolve_file("utils.py", recorded, prefer="/r/a/utils.py") == "/r/a/utils.py"
    assert resolve_file("other.py", recorded) == "other.py"
    with pytest.raises(UsageError, match="names 2 files of this kernel"):
        resolve_file("utils.py", recorded)
    assert file_label("/r/b/utils.py", "/r/a/utils.py") == "b/utils.py"
    assert file_label("/r/b/helpers.py", "/r/a/utils.py") == "helpers.py"
    # the kernel's own file, listed where a helper's file is shown (`map --file F`), read `//r/a/utils.py`
    # (helper 104); a path that differs only at its top keeps one leading slash
    assert file_label("/r/a/utils.py", "/r/a/utils.py") == "utils.py"
    assert file_label("/r/utils.py", "r/utils.py") == "/r/utils.py"


def test_a_helper_line_in_a_file_of_the_same_name_is_not_the_kernels(entry):
    assert "tl.load" in HELPER.read_text().splitlines()[21] and "tl.store" in KERNEL.read_text().splitlines()[21]
    own = _json("map", str(entry.path), "--line", "22", "--stages", "ttgir", "--json")
    assert _kinds(own) == {"tt.splat": 1, "tt.addptr": 1, "tt.store": 1}  # not the helper's load and mulf
    helper = _json("map", str(entry.path), "--line", "22", "--file", "b/utils.py", "--stages", "ttgir", "--json")
    assert helper["query"]["file"] == str(HELPER) and "tt.load" in _kinds(helper)
    elsewhere = _json("map", str(entry.path), "--line", "22", "--file", "/home/me/checkout/b/utils.py",
                      "--stages", "ttgir", "--json")
    assert elsewhere["query"]["file"] == str(HELPER)


def test_loads_rows_and_labels(entry):
    rows = _json("loads", str(entry.path), "--line", "22", "--json", "--no-sass")["rows"]
    assert [r["op"] for r in rows] == ["tt.store"]
    rows = _json("loads", str(entry.path), "--line", "22", "--file", "b/utils.py", "--json", "--no-sass")["rows"]
    assert [r["op"] for r in rows] == ["tt.load"]
    r = CliRunner().invoke(main, ["loads", str(entry.path), "--no-sass"])
    assert "b/utils.py:22:" in r.output


def test_report_shows_only_the_kernels_file_as_source(entry, tmp_path):
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["report", str(entry.path), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert '"srcFiles":[0]' in out.read_text().replace(" ", "")


def test_gluon_written_layouts_see_only_the_kernels_file(entry):
    """layouts.gluon reads which TTGIR tensors a source line's ops use: line 22 of the kernel's file is the
    store's (4 types), not also the helper's load written on line 22 of b/utils.py (9 with the old rule)."""
    from tritonscope.layouts.gluon import tensors_by_source_line

    kernel = tensors_by_source_line(entry.files["ttgir"].read_text(), str(KERNEL))
    assert {line: len(ts) for line, ts in kernel.by_line.items()} == {19: 3, 20: 2, 21: 5, 22: 4}
