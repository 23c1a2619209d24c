"""Fuzzing TorchInductor's records as tritonscope reads them (issue 20): real wrappers and FX graphs
(tests/data/inductor-provenance-h100-triton3.6), mutated. Whatever the bytes, the readers return a
result (never raise, never hang) and what they return keeps its promises: every inferred line is one
the graph records for some node, every mapped node is one of the kernel's nodes."""

from __future__ import annotations

from pathlib import Path

from fuzz_seeds import fuzz_settings, mutated_inputs, no_hang
from hypothesis import given

from tritonscope.srcmap.inductor import parse_fx_graph, parse_wrapper

DATA = Path(__file__).parent / "data" / "inductor-provenance-h100-triton3.6" / "inductor_cache"
WRAPPERS = [(p.name, p.read_bytes()[:40000]) for p in sorted(DATA.glob("*/*.py"))
            if p.read_bytes().startswith(b"# AOT ID")]
GRAPHS = [(f"{p.parent.name}/{p.name}", p.read_bytes()) for p in sorted(DATA.glob("*/*.debug/fx_graph_*.py"))]


def test_mutated_wrappers():
    @fuzz_settings(60)
    @given(mutated_inputs(WRAPPERS))
    def run(case):
        name, _kinds, data = case
        with no_hang():
            w = parse_wrapper(data.decode("utf-8", "replace"), f"fuzz/{name}")
        for b in w.blocks:
            names = {n.name for n in b.nodes}
            assert all(p in names for posts in b.mapping.values() for p in posts)
            for n in b.fragment:
                n.tensor()  # never raises on what the fragment spelled
        w.key()

    run()


def test_mutated_fx_graphs():
    @fuzz_settings(60)
    @given(mutated_inputs(GRAPHS))
    def run(case):
        name, _kinds, data = case
        text = data.decode("utf-8", "replace")
        with no_hang():
            table = parse_fx_graph(text)
        recorded = {(loc[0], loc[1]) for loc in table.values() if loc is not None and len(loc) == 4}
        for loc in table.values():
            if loc is not None and len(loc) == 5:  # inferred: a line some node of the graph is recorded at
                assert (loc[0], loc[1]) in recorded and loc[4].startswith("inferred from its ")

    run()


TRACE = Path(__file__).parent / "data" / "inductor-trace-h100-triton3.6" / "trace"
# the log's head (records skipped, the post-grad graph, the wrapper's start) and the forward graph's
# stacks with what follows, cut to a fuzzable size
_LOG = next(TRACE.glob("*.log")).read_bytes()
_AT = _LOG.index(b"inductor_provenance_tracking_kernel_stack") - 200
LOGS = [("head", _LOG[:30000]), ("stacks", _LOG[_AT:_AT + 40000])]


def test_mutated_torch_traces(tmp_path):
    from tritonscope.srcmap.torch_trace import parse_stack, read_trace

    @fuzz_settings(60)
    @given(mutated_inputs(LOGS))
    def run(case):
        name, _kinds, data = case
        log = tmp_path / f"{name}.log"
        log.write_bytes(data)
        with no_hang():
            graphs, notes = read_trace(str(log))
        for g in graphs:
            for key, stacks in (g.stacks or {}).items():
                assert isinstance(key, str) and all(isinstance(s, str) for s in stacks)
                for s in stacks:
                    assert all(f.line >= 0 for f in parse_stack(s))
        assert all(n.startswith(str(log)) for n in notes)

    run()
