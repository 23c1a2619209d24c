"""torch.compile provenance from torch's structured trace (TORCH_TRACE with INDUCTOR_PROVENANCE=1): the
wrappers and post-grad FX graphs it holds, and every kernel call's full stacks, which name the model line
that called an op implemented in torch's own Python (`F.rms_norm`) where the FX graph names torch's line.

Real data: tests/data/inductor-trace-h100-triton3.6 (see its README), recorded on an H100 by
`benchmarks/record_inductor_provenance.py OUT trace --model decoder`: the trace alone, no Inductor dir.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_readonly import tree_fingerprint

from tritonscope.srcmap.inductor import InductorIndex
from tritonscope.srcmap.torch_trace import is_torch_file, is_trace_log, parse_stack, read_trace

DATA = Path(__file__).parent / "data" / "inductor-trace-h100-triton3.6"
LOG = next((DATA / "trace").glob("*.log"))
MODEL = "/workspace/benchmarks/provenance_model.py"
RMS = "/opt/torch/.venv/lib/python3.12/site-packages/torch/nn/functional.py"


@pytest.fixture
def rec(tmp_path) -> Path:
    dst = tmp_path / "rec"
    shutil.copytree(DATA, dst)
    return dst


def _ls(cli, rec: Path, *inductor_dirs: str) -> tuple[dict, str]:
    args = [a for d in inductor_dirs for a in ("--inductor-dir", d)]
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", *args)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    return {e["hash"][:8]: e for e in json.loads(r.stdout)["entries"]}, r.stderr


def test_read_trace_pairs_each_graph_with_its_records():
    assert is_trace_log(str(LOG))
    graphs, notes = read_trace(str(LOG))
    assert notes == []
    assert [Path(g.wrapper_path).name for g in graphs] == [
        "cik2y6rhpjxkozwf4a3lvk3rumfhobajuzafslhhfconqssnwm5h.py",  # forward
        "c5eoarjt2kkfxjjwmh7w5s6h6zvd44bjk3nwzi67ojkekph3jltf.py"]  # backward, same compile id
    assert [len(g.stacks) for g in graphs] == [22, 40]  # handles restart per graph
    assert all(g.fx_text.startswith("class GraphModule") and g.fx_line < g.line for g in graphs)
    assert "# [Provenance debug handles] triton_per_fused__fused_rms_norm_0:1" in graphs[0].wrapper_text
    st = parse_stack(graphs[0].stacks["triton_per_fused__fused_rms_norm_0:1"][0])
    assert [(Path(f.file).name, f.line, f.function) for f in st] == [
        ("provenance_model.py", 74, "forward"), ("provenance_model.py", 55, "forward"),
        ("functional.py", 2954, "rms_norm")]
    assert st[-1].code == "return torch.rms_norm(input, normalized_shape, weight, eps)"


def test_torch_files():
    assert is_torch_file(RMS)
    assert is_torch_file("/home/u/pytorch/torch/_higher_order_ops/flex_attention.py")
    assert is_torch_file("C:\\py\\Lib\\site-packages\\torch\\nn\\functional.py")
    assert not is_torch_file(MODEL)
    assert not is_torch_file("/home/u/torchtitan/models/llama/model.py")
    assert not is_torch_file("/home/u/mytorch/nn/functional.py")


def test_trace_alone_links_and_names_the_calling_model_line(cli, rec):
    before = tree_fingerprint(rec)
    rows, err = _ls(cli, rec, str(rec / "trace"))
    assert tree_fingerprint(rec) == before
    assert err == ""
    fwd = rows["LVVHJPYN"]["inductor"]
    assert fwd["role"] == "graph kernel" and fwd["graph"] == "0_forward"
    assert fwd["trace"].endswith(f"{LOG.name}:207") and fwd["fx_graph"].endswith(f"{LOG.name}:42")
    # the FX graph names F.rms_norm's line in torch; the stack names the model's line 55 that called it
    assert [(Path(m["file"]).name, m["line"]) for m in fwd["model_lines"]] == [("provenance_model.py", 55)]
    assert fwd["model_lines"][0]["calls"] == [[{"file": RMS, "line": 2954, "function": "rms_norm",
                                               "code": "return torch.rms_norm(input, normalized_shape, weight, eps)"}]]
    node = fwd["nodes"][1]["model"]
    assert node["how"] == "inductor_post_grad_graph, called from the torch trace's stack"
    assert node["code"] == "q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, self.heads, d // self.heads).unbind(2)"
    assert [[(Path(f["file"]).name, f["line"]) for f in st] for st in fwd["stacks"]] == [
        [("provenance_model.py", 74), ("provenance_model.py", 55), ("functional.py", 2954)]]
    # the backward kernel fuses both norms' gradients: the torch line stays, with both callers
    bwd = rows["H3QQPFE6"]["inductor"]
    lines = {(Path(m["file"]).name, m["line"]): m for m in bwd["model_lines"]}
    assert sorted(lines) == [("functional.py", 2954), ("provenance_model.py", 55), ("provenance_model.py", 58),
                             ("provenance_model.py", 60)]
    assert [c["line"] for c in lines[("functional.py", 2954)]["callers"]] == [55, 59]
    assert len(bwd["stacks"]) == 5


def test_terminal_and_model_line_reverse_lookup(cli, rec):
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor", "--inductor-dir", str(rec / "trace"))
    assert r.returncode == 0, r.stderr
    assert "provenance_model.py:55  q, k, v" in r.stdout and "via functional.py:2954 rms_norm" in r.stdout
    assert "called from provenance_model.py:55 or :59" in r.stdout
    # line 59 (`y = self.norm2(x)`) is in no FX graph's comment: only the stacks name it
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"),
            "--model-line", "provenance_model.py:59", "--json")
    assert r.returncode == 0, r.stderr
    kernels = {k["kernel"]: k for k in json.loads(r.stdout)["kernels"]}
    assert "triton_per_fused__fused_rms_norm__unsafe_view_add_1" in kernels
    back = kernels["triton_red_fused__fused_rms_norm__fused_rms_norm_backward__unsafe_view_add_view_10"]
    assert [e["hash"][:8] for e in back["entries"]] == ["H3QQPFE6"]
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"),
            "--model-line", "provenance_model.py:59")
    assert "code   y = self.norm2(x)" in r.stdout
    assert "in functional.py:2954 rms_norm,  called from provenance_model.py:55 or :59" in r.stdout
    # (a node torch's rms_norm made, called from :55 or :59, is possibly from either: the counts said "10 of 16
    # nodes from :59" and "11 of 16 from :55", 21 of 16, helper 101)
    assert "_unsafe_view_add_view_10  graph 0_backward  10 of 16 nodes possibly from provenance_model.py:59\n" \
        in r.stdout
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"),
            "--model-line", "provenance_model.py:55")
    assert "_unsafe_view_add_view_10  graph 0_backward  1 of 16 nodes from provenance_model.py:55, 10 more " \
           "possibly\n" in r.stdout


def test_damaged_trace_is_a_note_not_a_failure(cli, rec):
    log = next((rec / "trace").glob("*.log"))
    lines = log.read_text().split("\n")
    heads = [i for i, ln in enumerate(lines) if "inductor_provenance_tracking_kernel_stack_traces" in ln]
    lines[heads[0] + 1] = lines[heads[0] + 1][:500]  # the forward graph's stacks cut short
    lines.insert(3, 'V1126 18:25:45.746000 544 x.py:1] {"artifact": {"name": "inductor_post_grad_graph",}}')  # bad JSON
    log.write_text("\n".join(lines))
    rows, err = _ls(cli, rec, str(rec / "trace"))
    assert "2 provenance record(s) not read (damaged or truncated)" in err
    fwd = rows["LVVHJPYN"]["inductor"]
    assert fwd["stacks"] == [] and fwd["model_lines"][0]["line"] == 2954  # the FX graph's line, as is
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor", "--inductor-dir", str(rec / "trace"))
    assert "1 kernel(s) with model lines in torch's own Python" in r.stderr  # and where the caller is
    assert rows["H3QQPFE6"]["inductor"]["stacks"]  # the backward graph's records still read
    # a log cut in the middle of a wrapper: that graph is gone, nothing fails
    log.write_bytes(log.read_bytes()[:600_000 // 3])
    rows, err = _ls(cli, rec, str(rec / "trace"))
    assert rows["LVVHJPYN"]["inductor"]["role"] in ("graph kernel", "unknown")
    # binary garbage named like a log, and an empty one, are not logs
    (rec / "trace" / "junk.log").write_bytes(b"\x00\xff" * 1000)
    (rec / "trace" / "empty.log").write_bytes(b"")
    _ls(cli, rec, str(rec / "trace"))


def test_a_log_file_given_directly_and_by_torch_trace(cli, rec, monkeypatch):
    log = next((rec / "trace").glob("*.log"))
    rows, _ = _ls(cli, rec, str(log))
    assert rows["LVVHJPYN"]["inductor"]["model_lines"][0]["line"] == 55
    index = InductorIndex.load((), env={"TORCH_TRACE": str(rec / "trace"), "TORCHINDUCTOR_CACHE_DIR": str(rec / "x")})
    assert len(index.wrappers) == 2 and index.wrappers[0].trace.endswith(":207")


def test_a_user_kernel_links_by_its_text_hash_and_names_where_it_was_defined(cli):
    # a @triton.jit kernel of another module called inside the compiled forward: Inductor copies it into
    # the wrapper under `# Original path:`, with no `# kernel path`, and compiles it from a file named by the
    # hash of that text; the trace alone (no Inductor dir) has the text
    rec = DATA.parent / "inductor-userkernel-h100-triton3.6"
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"), "--json")
    assert r.returncode == 0, r.stderr
    links = {e["name"]: e["inductor"] for e in json.loads(r.stdout)["entries"]}
    user = links["scaled_residual_kernel"]
    assert (user["role"], user["linked_by"], user["kernel"], user["kernel_path"]) == (
        "graph kernel", "kernel text hash", "scaled_residual_kernel_0", None)
    assert user["defined_at"] == {"file": "/workspace/benchmarks/provenance_kernels.py", "line": 10}
    assert user["nodes"] == [] and user["model_lines"] == []
    # torch's stacks of the call: the model's line 76, in it the helper's launch at line 22
    assert [(f["file"].rsplit("/", 1)[1], f["line"]) for f in user["stacks"][0]] == [
        ("provenance_model.py", 76), ("provenance_kernels.py", 22)]
    # Inductor lists the user kernel's call among the GELU kernel's nodes (the call reads its output):
    # an extern call is no part of a generated kernel, and its launch line is not the GELU kernel's
    gelu = links["triton_poi_fused_gelu_0"]
    assert gelu["defined_at"] is None and gelu["linked_by"] == "kernel path"
    assert "triton_kernel_wrapper_mutation" not in {n["name"] for n in gelu["nodes"]}
    assert [(m["line"], len(m["nodes"])) for m in gelu["model_lines"]] == [(75, 7)]
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"), "--inductor")
    assert r.returncode == 0, r.stderr
    assert "user   provenance_kernels.py:10  a kernel the model calls, compiled as written" in r.stdout
    assert "stack  provenance_model.py:76 > provenance_kernels.py:22  scaled_residual_kernel[" in r.stdout
    assert "provenance_kernels.py:22  scaled_residual_kernel[(triton.cdiv(n, 1024),)](x, res, out, n, scale, " \
           "BLOCK=1024)  (1 node)" not in r.stdout


def test_the_model_line_that_launches_a_user_kernel_finds_it(cli):
    """`map --model-line` read FX nodes only: a user's Triton kernel, which has none, was found by no line, and
    the answer for the line that launches it (76) said "lines recorded: 75, 77" (helper 101). The torch trace's
    stack of its call names the line; the GELU kernel, whose stacks hold that call too (Inductor lists it
    among its nodes), is answered for by its own nodes (line 75), not by that stack."""
    rec = DATA.parent / "inductor-userkernel-h100-triton3.6"
    common = ("--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"))
    for line in ("provenance_model.py:76", "provenance_kernels.py:22"):
        doc = json.loads(cli("map", *common, "--model-line", line, "--json").stdout)
        (k,) = doc["kernels"]
        assert (k["kernel"], k["nodes"], [e["hash"][:10] for e in k["entries"]]) == (
            "scaled_residual_kernel_0", [], ["7EXLBGGACI"]), doc
        assert [(f["file"].rsplit("/", 1)[1], f["line"]) for f in k["stacks"][0]] == [
            ("provenance_model.py", 76), ("provenance_kernels.py", 22)]
    out = cli("map", *common, "--model-line", "provenance_model.py:76").stdout
    assert out.startswith("scaled_residual_kernel_0  graph 0_inference  no node from provenance_model.py:76; a stack "
                          "the torch trace records for its call: provenance_model.py:76 > provenance_kernels.py:22\n"
                          "  code   y = scaled_residual(y, x, 0.5)\n"), out
    doc = json.loads(cli("map", *common, "--model-line", "provenance_model.py:75", "--json").stdout)
    # (torch records two stacks for the user kernel's call, its launch and line 75, whose output it reads)
    assert [(k["kernel"], len(k["nodes"]), [[f["line"] for f in st] for st in k["stacks"]]) for k in doc["kernels"]] \
        == [("triton_poi_fused_gelu_0", 7, []), ("scaled_residual_kernel_0", 0, [[75]])]


def test_code_file_is_the_file_inductor_writes_a_kernel_to():
    # each kernel Inductor generated names its file (`# kernel path`): the hash of the text the wrapper holds
    # gives the same name for all but the templates, whose file holds the text before Inductor's last edits
    # (they link by name and text, test_inductor_provenance)
    index = InductorIndex.load([str(DATA.parent / "inductor-provenance-h100-triton3.6" / "inductor_cache")])
    blocks = [b for w in index.wrappers for b in w.blocks]
    same = {b.name: b.text_file == Path(b.kernel_path).name for b in blocks}
    assert len(blocks) == 24 and sum(same.values()) == 14
    assert all(same[b.name] != b.name.startswith("triton_tem_") for b in blocks)


def test_a_kernel_source_held_only_by_the_trace_is_read_from_it(cli, tmp_path):
    # the kernel files are in the Inductor dir of the machine that compiled them, not here; the trace holds
    # the wrapper, whose copy of each kernel's text is the file's text (its name is that text's hash)
    rec = DATA.parent / "inductor-userkernel-h100-triton3.6"
    log = rec / "trace" / "dedicated_log_torch_trace_e2aehf35.log"
    for h, line, code in (("7EXLBGGA", 23, "tl.store(out_ptr + offs, x * scale + r, mask=mask)"),
                          ("CRFEAL3E", 24, "tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)")):
        entry = next((rec / "triton_cache").glob(h + "*"))
        r = cli("map", str(entry), "--inductor-dir", str(rec / "trace"), "--json")
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)
        src = doc["source"]
        assert src["found"] and src["how"] == "Inductor's wrapper", src
        assert src["path"].startswith(f"{log}:") and src["requested"].startswith("/tmp/torchinductor_user/")
        assert {row["line"]: row["text"].strip() for row in doc["lines"]}[line] == code
        page = tmp_path / f"{h}.html"
        r = cli("report", str(entry), "--inductor-dir", str(rec / "trace"), "-o", str(page))
        assert r.returncode == 0 and f"embedded: {src['requested']}" in r.stderr, r.stderr
        assert "not embedded" not in r.stderr
    # without the trace: not found, as before
    r = cli("map", str(entry), "--json", env={"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "none")})
    assert json.loads(r.stdout)["source"]["error"].startswith("source not found")


def test_a_damaged_log_is_read_in_bounded_memory_and_never_crashes(tmp_path, monkeypatch):
    """One endless line is never held whole (a log of one 512 MB line took 1 GB); a log's kept payloads are
    bounded in total; a compile id of another type, JSON nested thousands deep and a line number of
    thousands of digits are damaged records, not a crash."""
    import tracemalloc

    from tritonscope.srcmap import torch_trace

    monkeypatch.setattr(torch_trace, "MAX_PAYLOAD_BYTES", 1000)
    monkeypatch.setattr(torch_trace, "MAX_LOG_TEXT_BYTES", 3000)
    head = 'V1126 18:26:43.559000 544 torch/_inductor/graph.py:2575] '
    code = '{"inductor_output_code": {"filename": "/x/c%d.py"}, "frame_id": %s, "has_payload": "x"}'
    lines = [head + code % (0, "0"), "\t" + "x" * 5_000_000,  # a payload line far over the bound
             head + code % (1, "[0]"), "\tsmall",  # an id that is no id
             head + '{"artifact": {"name": "inductor_post_grad_graph"}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}"]
    for i in range(2, 8):  # 6 payloads of 900 bytes: the last ones over the log's bound of 3000
        lines += [head + code % (i, str(i)), "\t" + "y" * 900]
    log = tmp_path / "t.log"
    log.write_text("\n".join(lines) + "\n")
    tracemalloc.start()
    try:
        graphs, notes = torch_trace.read_trace(str(log))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    kept = [g.wrapper_text for g in graphs if g.wrapper_text]
    assert kept[0] == "small" and sum(map(len, kept)) <= 3000 and len(kept) == 4
    assert notes and "not read" in notes[0]
    assert torch_trace.parse_stack(f'  File "/m.py", line {"9" * 5000}, in f\n    x()\n') == ()


def test_a_link_to_a_log_named_as_inductor_dir_is_read_but_not_one_met_in_a_walk(cli, rec, tmp_path):
    """A symlink to a trace log given as --inductor-dir was "not a directory"; the user named it, as
    `cat LINK` would read it. A link met while walking a folder is still not followed."""
    link = tmp_path / "latest.log"
    link.symlink_to(rec / "trace" / LOG.name)
    rows, err = _ls(cli, rec, str(link))
    assert err == "" and rows["LVVHJPYN"]["inductor"]["graph"] == "0_forward"
    walked = tmp_path / "walked"
    walked.mkdir()
    (walked / "latest.log").symlink_to(rec / "trace" / LOG.name)
    rows, err = _ls(cli, rec, str(walked))
    assert rows["LVVHJPYN"]["inductor"] is None or rows["LVVHJPYN"]["inductor"].get("graph") is None


@pytest.mark.parametrize(("cut_at", "damaged"), [
    (len('V1126 18:29:47.921000 544 torch/_inductor/compile_fx.py:1594] {"artifact": {"name": "inductor_prov'), 1),
    (None, 1),  # halfway through the head line
    ("other", 0),  # a head of an artifact not read here, cut after its name
])
def test_a_log_cut_inside_its_last_head_line_says_so(tmp_path, cut_at, damaged):
    """A trace cut inside its last head line (a killed process) lost that record without a note: the head
    did not match the record pattern, whose JSON had to end the line."""
    lines = LOG.read_bytes().split(b"\n")
    (last,) = [i for i, ln in enumerate(lines) if _STACKS_B in ln][-1:]
    head = lines[last]
    if cut_at == "other":
        head = head.replace(_STACKS_B, b"before_recompile_pre_grad")
        cut_at = head.index(b"pre_grad") + len(b'pre_grad", "enc')
    cut = tmp_path / "cut.log"
    cut.write_bytes(b"\n".join(lines[:last]) + b"\n" + head[:cut_at or len(head) // 2])
    graphs, notes = read_trace(str(cut))
    assert len(graphs) == 2 and graphs[1].stacks is None
    assert notes == ([f"{cut}: 1 provenance record(s) not read (damaged or truncated)"] if damaged else [])


_STACKS_B = b"inductor_provenance_tracking_kernel_stack_traces"


def test_a_log_cut_inside_its_last_payload_says_so(tmp_path):
    """A trace cut inside the backward graph's wrapper (its `inductor_output_code` payload, the last record
    kept) was read as a whole wrapper: its kernels after the cut vanished, and no note said the log was cut.
    torch ends every record with a newline: a log that does not was cut in its last record."""
    data = LOG.read_bytes()
    heads = [i for i in range(len(data)) if data.startswith(b'"inductor_output_code"', i)]
    start = data.rindex(b"\n", 0, heads[-1]) + 1
    end = data.find(b"\n", data.find(b"\n\t", start) + 1 + len(data) // 200)  # some lines into its payload
    cut = tmp_path / "cut.log"
    cut.write_bytes(data[:end + 10])
    graphs, notes = read_trace(str(cut))
    assert [g.wrapper_text is not None for g in graphs] == [True] * (len(heads) - 1)
    assert notes == [f"{cut}: 1 provenance record(s) not read (damaged or truncated)"]
    # cut at a line's end: it was read as a whole wrapper without a word (helper 101); the md5 torch writes of
    # each payload (`has_payload`) tells
    cut.write_bytes(data[:end + 1])
    graphs, notes = read_trace(str(cut))
    assert [g.wrapper_text is not None for g in graphs] == [True] * (len(heads) - 1)
    assert notes == [f"{cut}: 1 provenance record(s) not read (damaged or truncated)"]
    # the same payload whole, the log ending with it: read, no note
    nxt = data.find(b"\n", data.find(b"\n", heads[-1]) + 1)
    while data[nxt + 1:nxt + 2] == b"\t":
        nxt = data.find(b"\n", nxt + 1)
    cut.write_bytes(data[:nxt + 1])
    graphs, notes = read_trace(str(cut))
    assert len(graphs) == len(heads) and graphs[-1].wrapper_text is not None and notes == []
    # a log edited since (its paths rewritten): no hash of it holds, and its last record's says nothing of a
    # cut (helper 107: that record alone was dropped as damaged); that a cut cannot be told is said (helper
    # 108: one cut at a line's end read as whole, unsaid). Its line ends made CRLF: the hashes hold.
    for edited, said in ((data.replace(b"/workspace/benchmarks", b"/home/someone/my-project/benchmarks"), True),
                         (data.replace(b"\n", b"\r\n"), False)):
        cut.write_bytes(edited)
        graphs, notes = read_trace(str(cut))
        assert len(graphs) == len(heads) and graphs[-1].stacks, notes
        assert notes == ([f"{cut}: edited since torch wrote it (its payloads' md5s do not hold): whether its last "
                          "record was cut at a line's end cannot be told"] if said else [])
    # blank tab lines appended after the last record (torch writes none): that record is whole (it was dropped
    # as damaged: helper 108)
    cut.write_bytes(data + b"\t\n\t   \n")
    graphs, notes = read_trace(str(cut))
    assert notes == [] and len(graphs) == len(heads) and graphs[-1].stacks


def test_two_runs_records_of_one_kernel_are_kept_apart_and_the_newest_is_shown(cli, rec):
    """Helper 83: a log of an older run of an edited model (line 55 then 155) beside the newer one: one graph
    took the older run's FX graph and the newer run's stacks (`model :155`, `called from :55`), or the
    older run's lines alone, by file name order. Each run is kept apart, the newest linked, a note names the
    other; `--model-line` of a line only the older run has says its answers are that run's."""
    import os

    old = rec / "trace" / "dedicated_log_torch_trace_aaaaaaaa.log"
    old.write_text(LOG.read_text().replace("provenance_model.py:55 in forward", "provenance_model.py:155 in forward")
                   .replace('provenance_model.py\\", line 55,', 'provenance_model.py\\", line 155,'))
    os.utime(old, (1_577_836_800, 1_577_836_800))  # (2020: written before the newer log)
    entries, _ = _ls(cli, rec, str(rec / "trace"))
    fwd = entries["LVVHJPYN"]["inductor"]
    lines = {(m["file"].rsplit("/", 1)[-1], m["line"]) for m in fwd["model_lines"]}
    assert ("provenance_model.py", 55) in lines and ("provenance_model.py", 155) not in lines
    assert "other graph(s) hold this kernel with nodes from other model lines" in fwd["note"]
    assert old.name in fwd["note"]
    back = entries["H3QQPFE6"]["inductor"]
    callers = {c["line"] for m in back["model_lines"] for c in m.get("callers", [])}
    assert 155 not in callers and 155 not in {m["line"] for m in back["model_lines"]}
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"),
            "--model-line", "provenance_model.py:155", "--json")
    kernels = json.loads(r.stdout)["kernels"]
    assert kernels and all(k["superseded_by"] and LOG.name in k["superseded_by"]["wrapper"] for k in kernels)
    assert all(old.name in k["wrapper"] for k in kernels)  # (the log it was read from: the wrapper file is gone)
    # helper 87: kernels the two runs give the same lines are the newest run's answer, once each
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"),
            "--model-line", "provenance_model.py:58", "--json")
    kernels = json.loads(r.stdout)["kernels"]
    newest = [k["kernel"] for k in kernels if not k["superseded_by"]]
    assert newest and len(newest) == len(set(newest)), newest
    # (an older run's is listed only where its lines differ, marked so)
    assert all(k["kernel"] in newest for k in kernels if k["superseded_by"])
