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


def test_linear_matchers_find_what_the_reference_patterns_find():
    """match_fx_file, match_source_nodes and match_fragment_node (linear in the line) against the patterns
    they replace (quadratic on a long line of repeated fragments), on lines drawn from their fragments."""
    import random
    import re

    from tritonscope.srcmap import inductor as ind

    # the patterns that read these lines before (quadratic on a long line of repeated fragments)
    fx_file = re.compile(r"^\s*#(?:.*?\s)??(?:Backward of forward node: )?File: (?P<file>.+?):(?P<line>\d+)"
                         r"(?: in (?P<func>[^,]+))?, code: (?P<code>.*)$")
    source_nodes = re.compile(
        r"^# (?:(?:Topologically Sorted|Unsorted) )?Source Nodes: \[(.*)\], Original ATen: \[(.*)\]$")
    fragment_node = re.compile(
        r"^#   %(?P<name>[\w.]+) : (?P<type>.*?) = (?P<op>\w+)\[target=(?P<target>[^\]]*)\](?P<rest>.*)$")

    def fx(line):
        m = fx_file.match(line)
        return None if m is None else (m["file"], int(m["line"]), m["func"], m["code"])

    def nodes(line):
        m = source_nodes.match(line)
        return None if m is None else (m[1], m[2])

    def fragment(line):
        m = fragment_node.match(line)
        return None if m is None else (m["name"], m["type"], m["op"], m["target"])

    cases = ((fx, ind.match_fx_file, ["# ", "#", "File: ", "a", ":1", ":12", " in f", " in ", ", code: ", ",", " ",
                                      "x.py", "Backward of forward node: ", "\t", "é"]),
             (nodes, ind.match_source_nodes, ["# ", "Topologically Sorted ", "Unsorted ", "Source Nodes: [", "]",
                                              "], Original ATen: [", "a", ", ", "["]),
             (fragment, ind.match_fragment_node, ["#   %", "buf0", " : ", "Tensor ", " = ", "call_function",
                                                  "[target=", "aten.add", "]", "(", "x", "é", "_"]))
    rng = random.Random(311)
    for reference, linear, parts in cases:
        for _ in range(30000):
            line = "".join(rng.choice(parts) for _ in range(rng.randrange(1, 12)))
            assert linear(line) == reference(line), repr(line)


def test_lines_inferred_by_a_pass_at_a_time_or_by_the_worklist_agree():
    """_infer_in_scope looks at a node again only when a neighbour got a line: the lines of the passes over
    every node it replaces (kept here as the reference), on random graphs."""
    import copy
    import random

    from tritonscope.srcmap.inductor import FxScope, _infer_in_scope

    def passes(scope):
        located, uses = scope.located, scope.uses
        users = {}
        for name, used in uses.items():
            for u in used:
                if u in located and u != name:
                    users.setdefault(u, []).append(name)
        for rule, neighbours in (("users", users), ("producers", uses)):
            changed = True
            while changed:
                changed = False
                for name, loc in located.items():
                    if loc is not None:
                        continue
                    near = {located[n][:4] for n in neighbours.get(name, ()) if n in located and located[n]}
                    if len(near) == 1:
                        located[name] = (*next(iter(near)), f"inferred from its {rule}")
                        changed = True

    rng = random.Random(173)
    lines = [None, ("m.py", 1, "f", "a"), ("m.py", 2, "f", "b"), ("n.py", 3, "g", "c")]
    for _ in range(5000):
        names = [f"n{i}" for i in range(rng.randrange(1, 12))]
        rng.shuffle(names)
        scope = FxScope("")
        for name in names:
            scope.located[name] = rng.choice(lines) if rng.random() < 0.4 else None
            scope.uses[name] = [rng.choice([*names, "x"]) for _ in range(rng.randrange(0, 4))]
        expected = copy.deepcopy(scope)
        passes(expected)
        _infer_in_scope(scope)
        assert scope.located == expected.located
