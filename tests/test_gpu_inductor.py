"""On a real GPU (`pytest -m gpu`): a fresh torch.compile run of benchmarks/provenance_model.py, forward and
backward, max-autotune, with and without TORCH_COMPILE_DEBUG=1 (issue 20), read back by `ls --json`:
every entry of every graph kernel carries its source nodes and ATen ops, >= 90% of their FX nodes get a
model line from the recorded FX graph itself (inference not counted) when the debug files exist, and
neither cache is touched. Set TRITONSCOPE_GPU_RESULTS=FILE to append the figures as one JSON line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_readonly import tree_fingerprint

pytestmark = pytest.mark.gpu

REPO = Path(__file__).resolve().parent.parent


def _record(tmp_path: Path, variant: str, model: str | None = None):
    """A fresh recording (benchmarks/record_inductor_provenance.py) of `model` (TinyModel when None, with
    max-autotune; else without autotuning, TRITONSCOPE_RECORD_MODE=default) under tmp_path/variant; torch,
    or a skip without a GPU."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    argv = [variant] if model is None else [variant, "--model", model]
    env = None if model is None else {**os.environ, "TRITONSCOPE_RECORD_MODE": "default"}
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "record_inductor_provenance.py"), str(tmp_path),
                    *argv], check=True, timeout=1200, env=env)
    return torch


@pytest.mark.parametrize("variant", ["debug", "plain"])
def test_fresh_torch_compile_run_links_to_the_model(variant, tmp_path, cli):
    torch = _record(tmp_path, variant)
    root = tmp_path / variant
    before = tree_fingerprint(root)
    r = cli("ls", "--cache-dir", str(root / "triton_cache"), "--json", "--inductor-dir",
            str(root / "inductor_cache"))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert tree_fingerprint(root) == before
    entries = json.loads(r.stdout)["entries"]
    roles: dict[str | None, int] = {}
    nodes = direct = inferred = 0
    for e in entries:
        prov = e["inductor"]
        roles[prov["role"] if prov else None] = roles.get(prov["role"] if prov else None, 0) + 1
        if prov is None or prov["role"] != "graph kernel":
            assert prov is not None and prov["role"] == "autotuning candidate", (e["name"], prov)
            continue
        assert prov["source_nodes"] and prov["aten_ops"], e["name"]
        for n in prov["nodes"]:
            nodes += 1
            if n["model"]:
                inferred += n["model"]["how"].startswith("inferred")
                direct += not n["model"]["how"].startswith("inferred")
    assert roles.get("graph kernel", 0) > 0
    if variant == "debug":
        assert direct / nodes >= 0.90, (direct, nodes)
    else:
        assert direct == inferred == 0 and "no model lines" in r.stderr
    out = os.environ.get("TRITONSCOPE_GPU_RESULTS")
    if out:
        with open(out, "a") as fh:
            fh.write(json.dumps({"test": "inductor-provenance", "variant": variant, "entries": len(entries),
                                 "roles": roles, "nodes": nodes, "direct": direct, "inferred": inferred,
                                 "torch": torch.__version__}) + "\n")


def test_fresh_torch_trace_names_the_calling_model_line(tmp_path, cli):
    """TORCH_TRACE with INDUCTOR_PROVENANCE=1, no debug dir: the trace alone links every graph kernel, and
    the RMSNorm kernels, whose FX nodes name torch's F.rms_norm line, get the decoder's own line."""
    torch = _record(tmp_path, "trace", "decoder")
    root = tmp_path / "trace"
    before = tree_fingerprint(root)
    r = cli("ls", "--cache-dir", str(root / "triton_cache"), "--json", "--inductor-dir", str(root / "trace"))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert tree_fingerprint(root) == before
    kernels = [e["inductor"] for e in json.loads(r.stdout)["entries"]]
    assert kernels and all(k and k["role"] == "graph kernel" for k in kernels)
    assert sum(bool(k["stacks"]) for k in kernels) >= 0.9 * len(kernels)  # a pass's nodes may have none
    rows = [row for k in kernels for row in k["model_lines"]]
    via = [row for row in rows if row.get("calls")]
    in_torch = [row for row in rows if "/torch/" in row["file"]]
    assert via and all(row["file"].endswith("provenance_model.py") for row in via)
    assert all(c[-1]["function"] == "rms_norm" for row in via for c in row["calls"])
    assert all(row.get("callers") for row in in_torch), in_torch  # a torch line left only with its callers
    out = os.environ.get("TRITONSCOPE_GPU_RESULTS")
    if out:
        with open(out, "a") as fh:
            fh.write(json.dumps({"test": "torch-trace", "entries": len(kernels), "rows": len(rows),
                                 "via_torch": len(via), "torch_lines_with_callers": len(in_torch),
                                 "torch": torch.__version__}) + "\n")


def _fx_comment_lines(text: str) -> dict[str, tuple[tuple[str, int] | None, bool]]:
    """The test's own reading of a printed FX graph: node -> ((file, line) of the last summary comment above
    it, or None; whether that comment was activation checkpointing's)."""
    import re

    out: dict[str, tuple[tuple[str, int] | None, bool]] = {}
    current: tuple[str, int] | None = None
    recompute = False
    for raw in text.splitlines():
        s = raw.strip()
        if s.startswith("#"):
            m = re.search(r"File: (.+?):(\d+)(?: in [^,]+)?, code: ", s)
            if m or "No stacktrace found" in s:
                current = (m.group(1), int(m.group(2))) if m else None
                recompute = "ac_graph_id:" in s or "recompute:" in s
        elif s.startswith(("def ", "class ", "return ")):
            current, recompute = None, False
        else:
            m = re.match(r"(\w+)(?:\s*:\s*\"[^\"]*\")?\s*=\s", s)
            if m and m.group(1) not in out:
                out[m.group(1)] = (current, recompute)
    return out


@pytest.mark.parametrize("model", ["checkpoint", "selective_checkpoint", "breaks", "userkernel"])
def test_fresh_model_kernel_nodes_name_the_lines_their_fx_graph_does(model, tmp_path, cli):
    """Every kernel node's model line is the line of the comment above it in its FX graph file, as this
    test reads it itself. `checkpoint` (activation checkpointing): the backward graph recomputes the
    blocks' forward nodes under `# ac_graph_id: N - PREFER_RECOMPUTE File: ...` comments, and they are
    among the nodes checked; `selective_checkpoint` too, with MUST_SAVE tags and tagged `No stacktrace
    found`. `breaks`: a graph break and a recompilation, each graph's kernels read against their own graph
    (at least four: two frames, forward and backward). `userkernel`: a hand-written kernel of another
    module called in the forward links to its wrapper block, which names where it was defined."""
    torch = _record(tmp_path, "debug", model)
    root = tmp_path / "debug"
    before = tree_fingerprint(root)
    r = cli("ls", "--cache-dir", str(root / "triton_cache"), "--json", "--inductor-dir",
            str(root / "inductor_cache"), "--inductor-dir", str(root / "debug"))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert tree_fingerprint(root) == before
    kernels = [e["inductor"] for e in json.loads(r.stdout)["entries"] if e["inductor"]]
    graphs: dict[str, dict] = {}
    checked = recomputed = 0
    for k in kernels:
        if k["role"] != "graph kernel" or not k.get("fx_graph"):
            continue
        if k["fx_graph"] not in graphs:
            graphs[k["fx_graph"]] = _fx_comment_lines(Path(k["fx_graph"]).read_text())
        truth = graphs[k["fx_graph"]]
        for n in k["nodes"]:
            if n["name"] not in truth or (n["model"] and n["model"]["how"].startswith("inferred")):
                continue
            want, is_recompute = truth[n["name"]]
            got = (n["model"]["file"], n["model"]["line"]) if n["model"] else None
            assert got == want, (k["kernel"], n["name"], got, want)
            checked += 1
            recomputed += is_recompute
    assert checked
    if model in ("checkpoint", "selective_checkpoint"):
        assert recomputed, checked  # the recomputed nodes were among them
        flagged = sum(n["recomputed"] for k in kernels for n in k["nodes"])
        assert 0 < flagged and all(k["graph"].endswith("backward") for k in kernels
                                   if any(n["recomputed"] for n in k["nodes"]))
    elif model == "breaks":
        assert len(graphs) >= 4, sorted(graphs)
    else:
        user = [k for k in kernels if k.get("defined_at")]
        assert [(k["kernel"], k["defined_at"]["file"].rsplit("/", 1)[1], k["nodes"]) for k in user] == [
            ("scaled_residual_kernel_0", "provenance_kernels.py", [])]
        assert all(not n["target"].endswith("triton_kernel_wrapper_mutation") for k in kernels for n in k["nodes"])
    out = os.environ.get("TRITONSCOPE_GPU_RESULTS")
    if out:
        with open(out, "a") as fh:
            fh.write(json.dumps({"test": f"fx-lines-{model}", "kernels": len(kernels), "graphs": len(graphs),
                                 "nodes_checked": checked, "recomputed_nodes": recomputed,
                                 "torch": torch.__version__}) + "\n")


def test_fresh_subgraph_model_lines_are_lines_of_each_kernels_stacks(tmp_path, cli):
    """A nested compile region and a torch.cond (subgraphs with node names of their own), read from a fresh
    torch trace: every kernel's model lines are lines of its calls' stacks, torch's own record of each
    kernel, and some nodes are in a subgraph."""
    torch = _record(tmp_path, "trace", "subgraphs")
    root = tmp_path / "trace"
    r = cli("ls", "--cache-dir", str(root / "triton_cache"), "--json", "--inductor-dir", str(root / "trace"))
    assert r.returncode == 0, r.stderr
    kernels = [e["inductor"] for e in json.loads(r.stdout)["entries"]]
    assert kernels and all(k and k["role"] == "graph kernel" for k in kernels)
    outside = [(k["kernel"], sorted({m["line"] for m in k["model_lines"]})) for k in kernels
               if {m["line"] for m in k["model_lines"]} - {f["line"] for st in k["stacks"] for f in st}]
    assert outside == []
    scoped = sum(1 for k in kernels for n in k["nodes"] if n["scope"])
    assert scoped > 0
    out = os.environ.get("TRITONSCOPE_GPU_RESULTS")
    if out:
        with open(out, "a") as fh:
            fh.write(json.dumps({"test": "fx-subgraphs", "kernels": len(kernels), "scoped_nodes": scoped,
                                 "torch": torch.__version__}) + "\n")
