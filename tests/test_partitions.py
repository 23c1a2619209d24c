"""Warp-specialized Gluon partitions (stages/partitions.py): Triton inlines each worker function with the
kernel's `def` as its call site, in the TTGIR and in LLVM's inlinedAt chains. tests/data/kernels/ws_gluon.py
(two one-warp workers calling one helper) cross-compiled for cuda:100 by Triton 3.9: each worker's ops sit
on the worker's lines, and the helper's accesses are told apart by the worker line that calls them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli

from tritonscope.stages import partitions
from tritonscope.stages.common import Module, Op, SourceLoc

KERNEL = Path(__file__).parent / "data" / "kernels" / "ws_gluon.py"


def _line(text: str) -> int:
    (n,) = [i for i, line in enumerate(KERNEL.read_text().splitlines(), 1) if line.strip().startswith(text)]
    return n


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    import triton

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 9):
        pytest.skip("gl.warp_specialize([(fn, args), ...], ...) is Triton 3.9's signature")
    out = tmp_path_factory.mktemp("wsg") / "cache"
    r = run_cli("compile", f"{KERNEL}::ws_copy_kernel", "--signature", "src=*fp32,dst=*fp32", "--constexpr",
                "BLOCK=512", "--num-warps", "4", "--target", "cuda:100", "--cache-dir", str(out))
    assert r.returncode == 0, r.stderr
    return out


def test_worker_accesses_are_told_apart_by_the_worker_line_that_calls_the_helper(cache):
    doc = json.loads(run_cli("loads", "ws_copy_kernel", "--cache-dir", str(cache), "--json").stdout)
    load, store = _line("x = gl.load(src + offs)"), _line("gl.store(dst + offs, x * 2)")
    calls = [n for n, text in enumerate(KERNEL.read_text().splitlines(), 1) if text.strip() == "_copy(src, dst, offs)"]
    assert len(calls) == 2
    worker = {(r["written_at"]["line"], r["line"]) for r in doc["rows"] if r.get("written_at")}
    assert worker == {(load, calls[0]), (store, calls[0]), (load, calls[1]), (store, calls[1])}
    default = {r["line"] for r in doc["rows"] if not r.get("written_at")}
    assert default == {_line("gl.store(dst + offs, gl.load(src + offs))")}  # the default partition, as before
    assert all(r["attribution"] == "exact" and r["verdict"] == "as-predicted" for r in doc["rows"])
    assert any("warp-specialized partitions" in n and f"ws_gluon.py:{_line('def ws_copy_kernel')}" in n
               for n in doc["notes"])


def test_map_puts_worker_ops_on_the_worker_lines_not_the_def(cache):
    def counts(line: int) -> dict[str, int]:
        r = run_cli("map", "ws_copy_kernel", "--cache-dir", str(cache), "--line", str(line), "--json")
        assert r.returncode == 0, r.stderr
        return {s["stage"]: s["count"] for s in json.loads(r.stdout)["stages"]}

    calls = [n for n, text in enumerate(KERNEL.read_text().splitlines(), 1) if text.strip() == "_copy(src, dst, offs)"]
    assert len(calls) == 2
    for call in calls:
        got = counts(call)
        assert got["ttgir"] > 0 and got["llir"] > 0 and got["ptx"] > 0 and got.get("sass", 1) > 0, got
    # what stays on the def line is the kernel's own prologue: no global access of a worker
    r = run_cli("map", "ws_copy_kernel", "--cache-dir", str(cache), "--line", str(_line("def ws_copy_kernel")),
                "--json")
    ops = [op["op"] for s in json.loads(r.stdout)["stages"] for op in s["ops"]]
    assert not any(op in ("tt.load", "tt.store") or op.startswith(("ld.global", "st.global")) for op in ops)


def _op(loc: SourceLoc) -> Op:
    return Op(1, "tt.load", "tt.load", loc)


def test_only_chains_that_end_at_a_function_position_move():
    kernel = SourceLoc("/k.py", 37, 1)
    worker = _op(SourceLoc("/k.py", 11, 9, SourceLoc("/k.py", 26, 5, kernel)))
    body = _op(SourceLoc("/k.py", 19, 5))  # the default partition: no caller
    helper = _op(SourceLoc("/k.py", 11, 9, SourceLoc("/k.py", 40, 5)))  # a helper called in the kernel's body
    prologue = _op(kernel)
    module = Module("ttgir", None, [worker, body, helper, prologue])
    at = frozenset({("/k.py", 37, 1)})
    assert partitions.relocate(module, at) == 1
    assert worker.loc.describe() == "k.py:11:9 @ k.py:26:5"
    assert [o.loc for o in (body, helper, prologue)] == [SourceLoc("/k.py", 19, 5),
                                                          SourceLoc("/k.py", 11, 9, SourceLoc("/k.py", 40, 5)), kernel]
    assert partitions.relocate(module, at) == 0  # once
    # a disassembled binary's line table has no column: the line is enough
    sass = Module("sass", None, [_op(SourceLoc("/k.py", 26, 0, SourceLoc("/k.py", 37, 0)))])
    assert partitions.relocate(sass, at) == 1 and sass.ops[0].loc == SourceLoc("/k.py", 26, 0)
    assert partitions.sites(Module("ttgir", None), "tt.func @k() {}") == frozenset()


def test_layouts_written_in_the_partitions_resolve(cache):
    """The layouts are written in the partition functions, not in the kernel: each is found, the workers'
    carried by the worker lines (not the def), and `parent`, used only inside the default partition's
    `gl.SliceLayout(0, parent)`, resolves through that slice with `gl.num_warps()` filled in."""
    r = run_cli("layout", "ws_copy_kernel", "--cache-dir", str(cache), "--json")
    assert r.returncode == 0, r.stderr
    written = json.loads(r.stdout)["written"]["layouts"]
    got = {(w["written"]["line"], w["written"]["class"]): (w["status"], w["filled"]) for w in written}
    parent = _line("parent: gl.constexpr")
    assert got == {(parent, "BlockedLayout"): ("filled in", {"warps_per_cta": "[1, 4]"}),
                   (parent + 1, "SliceLayout"): ("as written", {}),
                   (_line("def _worker_a") + 1, "BlockedLayout"): ("as written", {}),
                   (_line("def _worker_b") + 1, "BlockedLayout"): ("as written", {})}
    assert written[0]["written"]["args"]["warps_per_cta"] == [1, {"symbol": "gl.num_warps()"}]
    assert all(_line("def ws_copy_kernel") not in w["on_lines"] for w in written)


def test_map_line_notes_concern_the_line_asked(cache):
    """helper 89: `map --line` gave the partitions' note ("N ops of warp-specialized partitions ...") on every
    line, a blank one too, and the `gl.warp_specialize(...)` call's line showed 0 ops with no word: the note is
    given on the lines the ops moved from (the def) and to (the workers'), and the call's line says where
    Triton put the op it makes."""
    def stages(line: int) -> dict[str, dict]:
        r = run_cli("map", "ws_copy_kernel", "--cache-dir", str(cache), "--line", str(line), "--json")
        assert r.returncode == 0, r.stderr
        return {s["stage"]: s for s in json.loads(r.stdout)["stages"]}

    def partition_note(st: dict) -> bool:
        return any("ops of warp-specialized partitions" in n for n in st["notes"])

    text = KERNEL.read_text().splitlines()
    call = next(n for n, t in enumerate(text, 1) if "gl.warp_specialize(" in t)
    blank = next(n for n, t in enumerate(text, 1) if not t.strip())
    defined = _line("def ws_copy_kernel")
    worker = next(n for n, t in enumerate(text, 1) if t.strip() == "_copy(src, dst, offs)")
    assert partition_note(stages(defined)["ttgir"]) and partition_note(stages(worker)["ttgir"])
    assert not partition_note(stages(blank)["ttgir"])
    at_call = stages(call)["ttgir"]
    assert at_call["count"] == 0 and not partition_note(at_call)
    assert at_call["notes"][0] == (f"the ttg.warp_specialize this call makes is located at line {defined} (the "
                                   "kernel's def, as Triton gives it); its partitions' ops are at their functions' "
                                   "lines")
