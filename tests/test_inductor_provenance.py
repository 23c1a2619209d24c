"""torch.compile provenance (issue 20): Triton cache entries linked to Inductor's wrapper blocks (source
nodes, ATen ops, graph fragment) and, through the debug FX graphs, to the model's lines.

Real data: tests/data/inductor-provenance-h100-triton3.6 (see its README), recorded on an H100 by
benchmarks/record_inductor_provenance.py. Its paths name the recording machine, so every test here also
checks that a moved recording links (by kernel file basename) without --substitute-path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from test_readonly import tree_fingerprint

from tritonscope.artifacts.cache import Cache
from tritonscope.srcmap.inductor import (
    InductorIndex,
    coverage,
    default_inductor_dir,
    parse_fx_graph,
    parse_wrapper,
)

DATA = Path(__file__).parent / "data" / "inductor-provenance-h100-triton3.6"
FWD = "ox/coxm5aarzyrt45tunqynkjeqxvvgjzllflmhqwykinesksjheyf3"
BWD = "zp/czpqzzflm7cvbqqonqrivqwdc2452hcotxwg2gkkryhk6h7vgxwr"


@pytest.fixture
def rec(tmp_path) -> Path:
    """A copy of the recording (tests may damage it)."""
    dst = tmp_path / "rec"
    shutil.copytree(DATA, dst)
    return dst


def _ls_json(cli, rec: Path, *extra: str):
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", *extra)
    assert r.returncode == 0, r.stderr
    return {e["hash"][:8]: e for e in json.loads(r.stdout)["entries"]}, r.stderr


def test_wrapper_blocks_parsed():
    text = (DATA / "inductor_cache" / f"{BWD}.py").read_text()
    w = parse_wrapper(text, "bwd.py")
    assert w.aot_id == "0_backward"
    first = w.blocks[0]
    assert first.name == "triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0"
    assert first.kernel_path.endswith("r5/cr5yu73orjwwef2cn5jfgbize5tfrrnjgv6kcd3s7b2lgaxsjfvk.py")
    assert first.source_nodes == ["expand", "div_2", "unsqueeze", "logits", "sub_5", "exp_3", "mul_14",
                                  "convert_element_type_28", "sum_4"]
    assert first.aten_ops[:3] == ["aten.expand", "aten.div", "aten.unsqueeze"]
    assert first.mapping["logits"] == ["convert_element_type_27"]
    frag = {n.name: n for n in first.fragment}
    assert frag["addmm_4"].op == "PlaceHolder"
    assert frag["sub_5"].target == "torch.ops.aten.sub.Tensor"
    assert frag["sub_5"].tensor() == {"dtype": "f32", "shape": [64, 16], "stride": [16, 1], "device": "cuda:0"}
    assert frag["convert_element_type_27"].source_node == "logits"
    # the nodes of the kernel: computed nodes, not its inputs
    names = {n.name for n in first.nodes}
    assert "sub_5" in names and "addmm_4" not in names
    assert len(w.blocks) == 15


def test_fx_graph_lines_and_inference():
    text = (DATA / "inductor_cache" / f"{FWD}.debug" / "fx_graph_transformed.py").read_text()
    table = parse_fx_graph(text)
    file, line, func, code = table["var_mean"][:4]
    assert (file.endswith("provenance_model.py"), line, func, code) == (True, 19, "forward", "y = self.norm(x)")
    # made by a post-grad pass (no stack trace): inferred from its users, all on line 21
    assert table["exp_default_1"][1] == 21 and table["exp_default_1"][4] == "inferred from its users"
    assert table["prepare_softmax_online_default_1"][1] == 21


def test_template_key_is_the_problem_not_the_config():
    from tritonscope.srcmap.inductor import template_key

    body = "@triton_heuristics.template(\nnum_stages={s},\n)\n@triton.jit\ndef {n}(arg_A, arg_B, out_ptr0):\n" \
           "    BLOCK_M : tl.constexpr = {b}\n    M = 64\n    N = {N}\n    K = 512\n    stride_am = 512\n"
    a = template_key(body.format(s=3, n="triton_mm", b=32, N=256))
    assert a == template_key(body.format(s=5, n="triton_tem_fused_mm_0", b=128, N=256))
    assert a != template_key(body.format(s=3, n="triton_mm", b=32, N=512))
    assert template_key("@triton.jit\ndef triton_poi_fused_add_0(in_ptr0):\n    xnumel = 64\n") is None


def test_fx_graph_inference_rules():
    text = '''class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[4]"):
        # File: /m/model.py:10 in forward, code: b = a + 1
        b: "f32[4]" = torch.ops.aten.add.Tensor(a, 1)

        # No stacktrace found for following nodes
        c: "f32[4]" = torch.ops.aten.mul.Tensor(b, 2)
        lone: "f32[4]" = torch.ops.aten.neg.default(a)
        split: "f32[4]" = torch.ops.aten.neg.default(b)

        # File: /m/model.py:12 in forward, code: d = c - 1
        d: "f32[4]" = torch.ops.aten.sub.Tensor(c, split)

        # File: /m/model.py:13 in forward, code: e = split * 3
        e: "f32[4]" = torch.ops.aten.mul.Tensor(split, 3)
        return (d, e)
'''
    t = parse_fx_graph(text)
    assert t["b"][:2] == ("/m/model.py", 10) and len(t["b"]) == 4
    assert t["c"][1] == 12 and t["c"][4] == "inferred from its users"  # its one user is on 12
    assert t["split"][1] == 10 and t["split"][4] == "inferred from its producers"  # users disagree: 12, 13
    assert t["lone"] is None  # no user, no located producer: nothing is made up


def test_fx_graph_frame_comment_that_does_not_read_is_no_line():
    """A `# File:` comment this does not read (a line number of 23 digits) left its nodes under the comment
    before it: `softmax`'s nodes took the previous frame's line 22 as a recorded fact."""
    text = '''class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[4]"):
        # File: /m/model.py:22 in forward, code: y = self.down(y)
        b: "f32[4]" = torch.ops.aten.add.Tensor(a, 1)

        # File: /m/model.py:99999999999999999999999 in forward, code: y = torch.softmax(y)
        c: "f32[4]" = torch.ops.aten.exp.default(a)
        return (b, c)
'''
    t = parse_fx_graph(text)
    assert t["b"][:2] == ("/m/model.py", 22)
    assert t["c"] is None  # (no user, and its producer `a` is located nowhere: nothing is made up)


def _fx_graphs(name: str) -> dict[str, str]:
    """The graphs of a file of tests/data/fx-graphs, by the name after `===== `."""
    parts = (DATA.parent / "fx-graphs" / name).read_text().split("===== ")[1:]
    return {p.split("\n", 1)[0]: p.split("\n", 1)[1] for p in parts}


def test_fx_graph_recomputed_nodes_of_activation_checkpointing():
    # torch 2.13's own print of a checkpointed block: the backward graph recomputes lines 12 and 13 under
    # `# ac_graph_id: 2 - PREFER_RECOMPUTE File: ...`; those nodes kept line 21 (the comment before) when only
    # `# File:` was read
    graphs = _fx_graphs("checkpoint-torch2.13.txt")
    bw = parse_fx_graph(graphs["bw"])
    assert {n: bw[n][1] for n in ("expand", "mul_1", "t", "addmm", "relu", "t_1", "addmm_1", "cos", "detach_3",
                                 "detach_7", "mm_3", "t_9")} == {
        "expand": 21, "mul_1": 21, "t": 12, "addmm": 12, "relu": 12, "t_1": 13, "addmm_1": 13, "cos": 13,
        "detach_3": 12, "detach_7": 12, "mm_3": 12, "t_9": 12}
    assert bw["relu"][:4] == ("model.py", 12, "forward", "h = torch.relu(self.l1(x))")
    assert all(len(v) == 4 for v in bw.values())  # every node under a comment of its own: none inferred
    fw = parse_fx_graph(graphs["fw"])
    assert [fw[n][1] for n in ("t", "addmm", "relu", "t_1", "sin", "mul", "sum_1")] == [12, 12, 12, 13, 13, 21, 21]
    # the policy the comment names, node by node
    from tritonscope.srcmap.inductor import parse_fx_scopes

    (scope,) = parse_fx_scopes(graphs["bw"])
    assert {n: p for n, p in scope.checkpoint.items()} == dict.fromkeys(
        ("t", "addmm", "relu", "t_1", "addmm_1", "detach_3"), "PREFER_RECOMPUTE")


def test_fx_graph_summary_prefixes_of_newer_torch():
    # what torch.fx's `_python_code` writes before the stack part, as the writer composes it
    # (f"{additional_meta_str}#{annotation_str}{maybe_recompute_info} {stack_trace_str}"), torch 2.14+ adding
    # `Backward of forward node: ` to the backward graph's nodes
    text = '''class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[8][1]cuda:0", tangents_1: "f32[8][1]cuda:0"):
         # File: /m/model.py:5 in forward, code: y = x.sin()
        sin: "f32[8][1]cuda:0" = torch.ops.aten.sin.default(primals_1)
         # Backward of forward node: File: /m/model.py:6 in forward, code: z = y * 2
        mul: "f32[8][1]cuda:0" = torch.ops.aten.mul.Tensor(tangents_1, 2)
        # recompute: MUST_SAVE Backward of forward node: File: /m/model.py:7 in forward, code: w = z.cos()
        cos: "f32[8][1]cuda:0" = torch.ops.aten.cos.default(mul)
        # Annotation: {'stage': 1} ac_graph_id: 0 - PREFER_RECOMPUTE File: /m/model.py:8 in forward, code: v = w + 1
        add: "f32[8][1]cuda:0" = torch.ops.aten.add.Tensor(cos, 1)
        # seq_nr: 12 # File: /m/model.py:9 in forward, code: u = v - 1
        sub: "f32[8][1]cuda:0" = torch.ops.aten.sub.Tensor(add, 1)
        # recompute: MUST_SAVE No stacktrace found for following nodes
        neg: "f32[8][1]cuda:0" = torch.ops.aten.neg.default(primals_1)
        return (sub, neg)
'''
    t = parse_fx_graph(text)
    assert {n: t[n][:2] for n in ("sin", "mul", "cos", "add", "sub")} == {
        "sin": ("/m/model.py", 5), "mul": ("/m/model.py", 6), "cos": ("/m/model.py", 7), "add": ("/m/model.py", 8),
        "sub": ("/m/model.py", 9)}
    assert t["mul"][2:4] == ("forward", "z = y * 2")
    assert t["neg"] is None  # no stack trace, no user: not the line of the comment before


def test_recorded_activation_checkpointing_kernels_name_their_block_lines(cli):
    # a real torch.compile run of CheckpointedModel (H100, torch 2.11): the backward graph recomputes each
    # block's LayerNorm under `# ac_graph_id: ... PREFER_RECOMPUTE File: ...:20`; read as `# File:` comments
    # only, those nodes took the comment before, line 48 (`logits = self.head(x).float()`)
    rec = DATA.parent / "inductor-checkpoint-h100-triton3.6"
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", "--inductor-dir", str(rec / "inductor_cache"))
    assert r.returncode == 0, r.stderr
    rows = {e["hash"][:8]: [(m["line"], m["code"], len(m["nodes"]), m["inferred"])
                            for m in e["inductor"]["model_lines"]] for e in json.loads(r.stdout)["entries"]}
    assert rows == {
        "LH6BDGET": [(20, "y = self.norm(x)", 9, 0)],  # the recomputed forward LayerNorm, all nine nodes
        "J4NGTALC": [(20, "y = self.norm(x)", 20, 0), (24, "return x + y * self.scale", 3, 0)],
    }
    # the nodes under a recompute policy in a backward graph are forward work done again: LH6BDGET is only
    # that (a LayerNorm in the backward), J4NGTALC recomputes 6 + 2 of its nodes
    doc = json.loads(cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", "--inductor-dir",
                         str(rec / "inductor_cache")).stdout)
    got = {e["hash"][:8]: [(m["line"], m.get("recomputed", 0)) for m in e["inductor"]["model_lines"]]
           for e in doc["entries"]}
    assert got == {"LH6BDGET": [(20, 9)], "J4NGTALC": [(20, 6), (24, 2)]}
    policies = {n["checkpoint"] for e in doc["entries"] for n in e["inductor"]["nodes"] if n["recomputed"]}
    assert policies == {"PREFER_RECOMPUTE"}
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"),
            "--inductor")
    assert r.returncode == 0 and "provenance_model.py:48" not in r.stdout
    assert ("model  provenance_model.py:20  y = self.norm(x)  (9 nodes)  9 recomputed (activation checkpointing)"
            in r.stdout)


def test_fx_graph_subgraphs_are_scopes_of_their_own():
    # torch 2.13's print of a graph with a nested compile region and a torch.cond: each subgraph is a class
    # nested in the graph's, and node names repeat across them (`mul` of the cond branch, of the region)
    from tritonscope.srcmap.inductor import parse_fx_scopes, scopes_of

    graphs = _fx_graphs("subgraphs-torch2.13.txt")
    fw = {sc.name: {n: loc[1] for n, loc in sc.located.items()} for sc in parse_fx_scopes(graphs["fw"])}
    assert list(fw) == ["GraphModule", "partitioned_fw_subgraph_0_0", "true_graph_0", "false_graph_0"]
    assert fw["partitioned_fw_subgraph_0_0"] == {"mm": 7, "gelu": 7, "mm_1": 8}
    assert fw["true_graph_0"] == {"relu": 17, "mul": 17} and fw["GraphModule"]["cond"] == 17
    bw = parse_fx_scopes(graphs["bw"])
    # `detach` is in both backward branches: the kernel's other nodes tell which, joined to it there
    assert [sc.name for sc in bw if "detach" in sc.located] == ["true_graph_1", "false_graph_1"]
    for name in ("true_graph_1", "false_graph_1"):
        branch = next(sc for sc in bw if sc.name == name)
        kernel = {"detach", *branch.neighbours("detach")}
        assert len(kernel) > 1 and scopes_of("detach", kernel, bw)[0] is branch


def test_fx_node_lines_give_op_target_and_type_as_a_fragment_writes_them():
    from tritonscope.srcmap.inductor import parse_fx_scopes

    text = ("class GraphModule(torch.nn.Module):\n    def forward(self, arg0_1: \"f32[4][1]cuda:0\"):\n"
            "        # File: /m.py:3 in forward, code: y = x * 2\n"
            "        mul: \"f32[4][1]cuda:0\" = torch.ops.aten.mul.Tensor(arg0_1, 2);  arg0_1 = None\n"
            "        cond = torch.ops.higher_order.cond(p, true_graph_0, false_graph_0, (mul,))\n"
            "        getitem: \"f32[4][1]cuda:0\" = cond[0];  cond = None\n"
            "        _tensor_constant0 = self._tensor_constant0\n"
            "        sym_size_int: \"Sym(s0)\" = torch.ops.aten.sym_size.int(mul, 0)\n"
            "        return (getitem,)\n")
    (sc,) = parse_fx_scopes(text)
    assert sc.defs == {
        "mul": ("call_function", "torch.ops.aten.mul.Tensor", 'Tensor "f32[4][1]cuda:0"'),
        "cond": ("call_function", "torch.ops.higher_order.cond", ""),
        "getitem": ("call_function", "operator.getitem", 'Tensor "f32[4][1]cuda:0"'),
        "_tensor_constant0": ("get_attr", "_tensor_constant0", ""),
        "sym_size_int": ("call_function", "torch.ops.aten.sym_size.int", "Sym(s0)"),
    }


def test_recorded_subgraph_kernels_take_each_node_from_its_own_scope(cli):
    # a real torch.compile run of SubgraphModel (H100, torch 2.11): a nested compile region called twice and
    # a torch.cond. Read from one flat table of names, the cond branch's `mul` took the region's line 81
    # (`gelu`), and a kernel listing `mul` twice (the graph's and the branch's) got one of them
    rec = DATA.parent / "inductor-subgraphs-h100-triton3.6"
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"), "--json")
    assert r.returncode == 0, r.stderr
    k = {e["hash"][:8]: e["inductor"] for e in json.loads(r.stdout)["entries"]}
    rows = {h: [(m["line"], len(m["nodes"]), m.get("scopes", [])) for m in v["model_lines"]] for h, v in k.items()}
    assert rows == {
        "32ZZRST4": [(99, 3, ["true_graph_0"])],
        "UWYV625D": [(81, 7, ["partitioned_fw_subgraph_0_0"]), (97, 1, [])],
        "7VZNA2WH": [(99, 8, ["false_graph_1"]), (100, 7, [])],
    }
    # torch's own record agrees: every model line is a line of the kernel's call stacks
    for v in k.values():
        assert {m["line"] for m in v["model_lines"]} <= {f["line"] for st in v["stacks"] for f in st}
    names = [(n["name"], n["scope"], n["model"]["line"]) for n in k["7VZNA2WH"]["nodes"]]
    assert ("mul", "false_graph_1", 99) in names and ("mul", None, 100) in names
    # Inductor writes no graph fragment for a kernel across a graph and its subgraphs ('Unsorted Source
    # Nodes'): each node's op, target and tensor are its own scope's line of the post-grad graph (they were
    # empty): the backward graph's `mul` is `aten.mul.Scalar(pow_2, 2.0)`, false_graph_1's `aten.mul.Tensor`
    nodes = {(n["name"], n["scope"]): n for n in k["7VZNA2WH"]["nodes"]}
    assert nodes["mul", None]["target"] == "torch.ops.aten.mul.Scalar"
    assert nodes["mul", "false_graph_1"]["target"] == "torch.ops.aten.mul.Tensor"
    assert nodes["sigmoid", "false_graph_1"]["tensor"] == {"dtype": "bf16", "shape": [64, 256], "stride": [256, 1],
                                                           "device": "cuda:0"}
    assert nodes["cond_1", None]["target"] == "torch.ops.higher_order.cond" and nodes["cond_1", None]["tensor"] is None
    for v in k.values():
        assert all(n["op"] == "call_function" and n["target"].startswith("torch.ops.") for n in v["nodes"]), v
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "trace"), "--inductor")
    assert "(3 nodes)  in true_graph_0" in r.stdout and "provenance_model.py:81" in r.stdout


def test_index_links_every_graph_kernel_entry():
    index = InductorIndex.load([str(DATA / "inductor_cache")])
    assert index.notes == []
    assert {w.graph for w in index.wrappers} == {"0_forward", "0_backward"}
    assert all(w.fx_graph for w in index.wrappers)
    cov = coverage(index)
    assert cov["nodes"] == 168
    direct = cov["with_model_line"] - cov["inferred"]
    assert direct / cov["nodes"] >= 0.90 and cov["with_model_line"] == 168 and cov["inferred"] == 3
    got = {}
    for e in Cache(DATA / "triton_cache").kernels():
        link = index.link(e)
        got[e.hash[:8]] = (link.role, link.how, link.block.name if link.block else None)
    assert got == {
        "BL2QGYIC": ("graph kernel", "kernel path", "triton_per_fused_native_layer_norm_0"),
        "D7ZALRU2": ("graph kernel", "kernel path", "triton_per_fused_native_layer_norm_0"),
        "22DEHI5G": ("graph kernel", "kernel path",
                     "triton_per_fused__softmax_exp_gelu_mul_prepare_softmax_online_sub_2"),
        "437JYKXF": ("graph kernel", "kernel path",
                     "triton_per_fused__softmax__softmax_backward_data_gelu_gelu_backward_mul_6"),
        # compiled from the wrapper's own text, not from the file its `# kernel path` names: the file named by
        # that text's hash (before, found by reading the kernel file: name and whitespace-normalized text)
        "KV3UTRGV": ("graph kernel", "kernel text hash", "triton_tem_fused_mm_t_5"),
        "2DPPZ2VD": ("autotuning candidate", None, None),
    }


def test_ls_json_carries_provenance_and_leaves_caches_untouched(cli, rec):
    before = tree_fingerprint(rec)
    rows, err = _ls_json(cli, rec, "--inductor-dir", str(rec / "inductor_cache"))
    assert tree_fingerprint(rec) == before
    assert err == ""
    for h, e in rows.items():
        prov = e["inductor"]
        assert prov is not None, h
        if prov["role"] == "graph kernel":
            assert prov["source_nodes"] and prov["aten_ops"] and prov["nodes"], h
            assert all(n["model"] for n in prov["nodes"]), h
        else:
            assert prov["role"] == "autotuning candidate" and "no nodes" in prov["note"]
            # the graph's one template kernel specialized to the same M, N, K and strides
            assert [(k["kernel"], k["graph"], k["aten_ops"]) for k in prov["same_problem_as"]] == [
                ("triton_tem_fused_mm_mul_t_2", "0_backward", ["aten.t", "aten.mm", "aten.mul"])]
    ln = rows["BL2QGYIC"]["inductor"]
    assert ln["graph"] == "0_forward" and ln["aten_ops"] == ["aten.native_layer_norm"]
    assert ln["source_nodes"] == ["y"]
    assert [(m["line"], m["code"]) for m in ln["model_lines"]] == [(19, "y = self.norm(x)")]
    assert {i["name"] for i in ln["inputs"]} >= {"primals_3"}
    soft = rows["22DEHI5G"]["inductor"]
    inferred = [n["name"] for n in soft["nodes"] if n["model"]["how"].startswith("inferred")]
    assert sorted(inferred) == ["exp_default_1", "prepare_softmax_online_default_1", "sub_tensor_1"]
    assert [m["line"] for m in soft["model_lines"]] == [20, 21]  # gelu(self.up(y)); softmax(y) * 2.0
    # the backward kernel names the forward model lines its gradient came from
    assert {m["line"] for m in rows["437JYKXF"]["inductor"]["model_lines"]} == {20, 21}


def test_default_dir_is_where_torch_looks(cli, rec, tmp_path):
    assert default_inductor_dir({"TORCHINDUCTOR_CACHE_DIR": "/x/y"}) == Path("/x/y")
    assert default_inductor_dir({}).name.startswith("torchinductor_")
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json",
            env={"TORCHINDUCTOR_CACHE_DIR": str(rec / "inductor_cache")})
    assert r.returncode == 0 and r.stderr == ""
    entries = json.loads(r.stdout)["entries"]
    assert sum(e["inductor"]["role"] == "graph kernel" for e in entries) == 5


def test_template_kernels_without_an_inductor_dir_are_inductors_by_their_file(cli, tmp_path):
    # a template's kernel is named `triton_<template>` (flex_attention_backward, convolution2d, ...: a list
    # each torch release changes); with no Inductor dir to link to, the file its IR names, in Inductor's code
    # cache (`<dir>/bm/cbm<49 more>.py`), says Inductor wrote it. A kernel of one's own named triton_*, no.
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {"TORCHINDUCTOR_CACHE_DIR": str(empty)}
    roles = {}
    for rec in ("inductor-flex-h100-triton3.6", "inductor-cnn-h100-triton3.6"):
        r = cli("ls", "--cache-dir", str(DATA.parent / rec), "--json", env=env)
        assert r.returncode == 0, r.stderr
        roles.update({e["name"]: e["inductor"] and e["inductor"]["role"] for e in json.loads(r.stdout)["entries"]})
    assert roles["triton_flex_attention_backward"] == roles["triton_convolution2d"] == "unknown"
    mine = tmp_path / "cache" / "MINE"
    mine.mkdir(parents=True)
    (mine / "triton_matmul.json").write_text(json.dumps({"name": "triton_matmul", "target": {
        "backend": "cuda", "arch": 90, "warp_size": 32}, "num_warps": 4}))
    (mine / "triton_matmul.ttir").write_text(
        '#loc = loc("/home/me/kernels/mm.py":12:0)\nmodule {\n  tt.func public @triton_matmul() {\n'
        '    tt.return loc(#loc)\n  } loc(#loc)\n} loc(#loc)\n')
    r = cli("ls", "--cache-dir", str(tmp_path / "cache"), "--json", env=env)
    assert r.returncode == 0, r.stderr
    assert [e["inductor"] for e in json.loads(r.stdout)["entries"]] == [None]


def test_missing_inductor_dir_is_one_note(cli, rec, tmp_path):
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", "--inductor-dir", str(tmp_path / "nope"))
    assert r.returncode == 0
    notes = r.stderr.strip().splitlines()
    assert notes[0] == f"tritonscope: note: {tmp_path / 'nope'}: no such directory (--inductor-dir)"
    assert "no Inductor wrapper under" in notes[1] and len(notes) == 2
    assert notes[1].endswith("(is it Inductor's cache or debug dir?)")  # (--inductor-dir is given: not "give")
    assert all(e["inductor"]["role"] == "unknown" for e in json.loads(r.stdout)["entries"])
    # the default dir empty: not asked for, so no note on stderr (each record's note says it), but
    # `ls --inductor` asks: one note
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {"TORCHINDUCTOR_CACHE_DIR": str(empty)}
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", env=env)
    assert r.returncode == 0 and r.stderr == ""
    assert all(f"no Inductor wrapper (a module headed `# AOT ID`) is under {empty} (give --inductor-dir)" in
               e["inductor"]["note"] for e in json.loads(r.stdout)["entries"])
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor", env=env)
    assert r.returncode == 0 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    r = cli("show", "BL2QGYIC", "--cache-dir", str(rec / "triton_cache"), "-s", "ttir", env=env)
    assert r.returncode == 0 and r.stderr == "" and not r.stdout.startswith("//")
    r = cli("show", "BL2QGYIC", "--cache-dir", str(rec / "triton_cache"), "-s", "ttir", "--inductor-dir", str(empty))
    assert r.returncode == 0 and r.stdout.startswith("// torch.compile: unknown: named as")
    assert "no Inductor wrapper under" in r.stderr


def test_without_debug_files_source_nodes_but_no_lines(cli, rec):
    for d in (rec / "inductor_cache").glob("*/*.debug"):
        shutil.rmtree(d)
    rows, err = _ls_json(cli, rec, "--inductor-dir", str(rec / "inductor_cache"))
    assert "no model lines for 2 graph(s)" in err and len(err.strip().splitlines()) == 1
    ln = rows["BL2QGYIC"]["inductor"]
    assert ln["source_nodes"] == ["y"] and ln["model_lines"] == [] and ln["fx_graph"] is None


def test_stale_and_damaged_files_are_notes(cli, rec):
    fwd_dbg = rec / "inductor_cache" / f"{FWD}.debug"
    bwd_dbg = rec / "inductor_cache" / f"{BWD}.debug"
    # the forward graph's FX files replaced by the backward's: another run's files
    for name in ("fx_graph_transformed.py", "fx_graph_readable.py"):
        shutil.copy(bwd_dbg / name, fwd_dbg / name)
    # a wrapper cut short and one of binary garbage
    bwd = rec / "inductor_cache" / f"{BWD}.py"
    bwd.write_text(bwd.read_text()[:30000])
    (rec / "inductor_cache" / "zz").mkdir()
    (rec / "inductor_cache" / "zz" / "cgarbage.py").write_bytes(b"# AOT ID: ['x']\n\xff\xfe\x00" * 100)
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", "--inductor-dir", str(rec / "inductor_cache"))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert any("are not in it (files of another run?)" in ln for ln in r.stderr.splitlines())
    rows = {e["hash"][:8]: e for e in json.loads(r.stdout)["entries"]}
    assert rows["BL2QGYIC"]["inductor"]["source_nodes"] == ["y"]  # the wrapper still answers


def test_model_line_reverse_lookup(cli, rec):
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"),
            "--model-line", "benchmarks/provenance_model.py:21", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["kind"] == "map.model_line"
    kernels = {k["kernel"]: k for k in doc["kernels"]}
    soft = kernels["triton_per_fused__softmax_exp_gelu_mul_prepare_softmax_online_sub_2"]
    assert [e["hash"][:8] for e in soft["entries"]] == ["22DEHI5G"]
    assert {n["name"] for n in soft["nodes"]} == {"prepare_softmax_online_default_1", "sub_tensor_1",
                                                  "exp_default_1", "div", "convert_element_type_8", "mul_5"}
    assert soft["graph"] == "0_forward"
    back = kernels["triton_per_fused__softmax__softmax_backward_data_gelu_gelu_backward_mul_6"]
    assert back["graph"] == "0_backward" and [e["hash"][:8] for e in back["entries"]] == ["437JYKXF"]
    # a kernel of that line with no entry kept in this cache still answers, with no entries
    assert all(k["nodes"] for k in doc["kernels"])
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"),
            "--model-line", "provenance_model.py:2")
    assert r.returncode == 0 and "no kernel has an FX node or a call's stack from provenance_model.py:2" in r.stdout
    assert "19, 20, 21, 22, 23" in r.stdout
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--model-line", "model.py")
    assert r.returncode == 2 and "expected FILE:LINE" in r.stderr


def test_a_node_the_kernel_reads_back_is_its_op_not_a_placeholder():
    """`rsqrt` is in the layer norm's fragment twice, as a PlaceHolder (the kernel re-reads its output) and
    as aten.rsqrt: it was shown as a placeholder with target `rsqrt`, the input before the op."""
    w = parse_wrapper((DATA / "inductor_cache" / f"{FWD}.py").read_text(), "fwd.py")
    norm = next(b for b in w.blocks if b.name == "triton_per_fused_native_layer_norm_0")
    nodes = {n.name: n for n in norm.nodes}
    assert (nodes["rsqrt"].op, nodes["rsqrt"].target) == ("call_function", "torch.ops.aten.rsqrt.default")
    assert [n.name for n in norm.nodes][0] == "convert_element_type"


def test_model_line_of_one_kernel(cli, rec):
    """`map --model-line F:L KERNEL` resolved KERNEL, then listed every kernel of the line."""
    args = ["--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"),
            "--model-line", "provenance_model.py:21"]
    doc = json.loads(cli("map", *args, "437JYK", "--json").stdout)
    assert [k["kernel"] for k in doc["kernels"]] == [
        "triton_per_fused__softmax__softmax_backward_data_gelu_gelu_backward_mul_6"]
    r = cli("map", *args, "BL2QG")
    assert r.returncode == 0 and \
        "no kernel of BL2QG has an FX node or a call's stack from provenance_model.py:21" in r.stdout


def test_show_and_map_carry_the_block(cli, rec):
    args = ["--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache")]
    r = cli("show", "BL2QGYIC", *args, "-s", "ttir")
    assert r.returncode == 0, r.stderr
    head = r.stdout.splitlines()[:5]
    assert head[0] == "// torch.compile: graph 0_forward, kernel triton_per_fused_native_layer_norm_0"
    assert any(ln.startswith("//   model: /workspace/benchmarks/provenance_model.py:19 in forward") for ln in head)
    r = cli("show", "BL2QGYIC", *args, "-s", "ttir", "--no-provenance")
    assert not r.stdout.startswith("//")
    # the metadata json has no comment syntax: the block is left out (a note says so) and the json stays valid
    r = cli("show", "BL2QGYIC", *args, "-s", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["name"] == "triton_per_fused_native_layer_norm_0"
    assert "provenance left out of the json stage" in r.stderr and "Traceback" not in r.stderr
    r = cli("map", "BL2QGYIC", *args, "--line", "30", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["inductor"]["kernel"] == "triton_per_fused_native_layer_norm_0"
    # the kernel source is found under the Inductor dir given (the recording's path is elsewhere)
    assert doc["source"]["found"] and doc["source"]["how"] == "source-root"
    r = cli("map", "BL2QGYIC", *args, "--line", "30")
    assert "torch.compile: graph 0_forward" in r.stdout and "per kernel, not per kernel line" in r.stdout
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--inductor", "--inductor-dir",
            str(rec / "inductor_cache"))
    assert r.returncode == 0
    assert "model  provenance_model.py:21  y = torch.softmax(y, dim=-1) * 2.0  (6 nodes, 3 inferred)" in r.stdout
    assert "autotuning candidate" in r.stdout


def test_non_inductor_entries_unaffected(cli, corpus):
    r = cli("ls", "--cache-dir", str(corpus / "triton-3.9.0"), "--json")
    assert r.returncode == 0 and r.stderr == ""
    assert all(e["inductor"] is None for e in json.loads(r.stdout)["entries"])


def test_report_has_a_provenance_pane_unless_no_source(cli, rec, tmp_path):
    args = ["--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"), "22DEHI5G"]
    r = cli("report", *args, "-o", str(tmp_path / "r.html"))
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "r.html").read_text()
    assert 'data-tab="torch-compile"' in page and "FX nodes fused into the kernel (12)" in page
    assert "prepare_softmax_online_default_1" in page and "inferred from its users" in page
    r = cli("report", *args, "--no-source", "-o", str(tmp_path / "n.html"))
    assert r.returncode == 0
    assert 'data-tab="torch-compile"' not in (tmp_path / "n.html").read_text()


def test_default_dir_of_another_user_is_not_read(cli, rec, tmp_path):
    import os

    if not hasattr(os, "getuid") or os.getuid() != 0:
        pytest.skip("needs root to give a directory to another user")
    foreign = tmp_path / "torchinductor_other"
    shutil.copytree(rec / "inductor_cache", foreign)
    os.chown(foreign, 12345, 12345)
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", env={"TORCHINDUCTOR_CACHE_DIR": str(foreign)})
    assert r.returncode == 0
    assert f"{foreign}: not read, owned by another user" in r.stderr
    assert all(e["inductor"]["role"] == "unknown" for e in json.loads(r.stdout)["entries"])
    # named explicitly, it is the user's choice
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", "--inductor-dir", str(foreign))
    assert sum(e["inductor"]["role"] == "graph kernel" for e in json.loads(r.stdout)["entries"]) == 5


def _as_older_torch(wrapper: str) -> str:
    """The wrapper as torch <= 2.4 spelled it (torch/_inductor/utils.py get_kernel_metadata and the
    wrapper codegen of those releases): no `# AOT ID` line, `# Source Nodes:` followed directly by
    `# src => nodes` lines, no graph fragment, Triton's name the placeholder 'triton_', no device_str."""
    out, skipping = [], False
    for line in wrapper.splitlines()[1:]:
        if line.startswith("# Graph fragment:"):
            skipping = True
            continue
        if skipping and line.startswith("#   "):
            continue
        skipping = False
        if line.startswith("# Source node to ATen node mapping:"):
            continue
        line = line.replace("# Topologically Sorted Source Nodes:", "# Source Nodes:")
        if line.startswith("#   ") and " => " in line:
            line = "# " + line[4:]
        line = re.sub(r"^(\w+) = async_compile\.triton\('\w+', '''$", r"\1 = async_compile.triton('triton_', '''",
                      line)
        line = re.sub(r"^''', device_str='\w+'\)$", "''')", line)
        out.append(line)
    return "\n".join(out) + "\n"


def test_older_torch_spellings(cli, rec):
    for wrapper in (rec / "inductor_cache").glob("*/*.py"):
        text = wrapper.read_text()
        if text.startswith("# AOT ID"):
            wrapper.write_text(_as_older_torch(text))
    for graph in (rec / "inductor_cache").glob("*/*.debug/fx_graph_*.py"):
        graph.write_text(re.sub(r"(# File: .+?:\d+) in \w+, code:", r"\1, code:", graph.read_text()))
    index = InductorIndex.load([str(rec / "inductor_cache")])
    assert len(index.wrappers) == 2 and all(w.aot_id is None for w in index.wrappers)
    [block] = index.by_file["cpkt5kwd4g54vwef2eupwetfocr2o7mihnwhchcqrsyynlt3taem.py"]
    assert (block.name, block.triton_name) == ("triton_per_fused_native_layer_norm_0", "triton_")
    assert block.source_nodes == ["y"] and block.aten_ops == ["aten.native_layer_norm"]
    assert block.fragment == [] and {n.name for n in block.nodes} >= {"var_mean", "rsqrt", "mul_1"}
    assert {(n.model.line, n.model.function) for n in block.nodes} == {(19, "")}
    rows, err = _ls_json(cli, rec, "--inductor-dir", str(rec / "inductor_cache"))
    assert rows["BL2QGYIC"]["inductor"]["source_nodes"] == ["y"]
    assert [m["line"] for m in rows["22DEHI5G"]["inductor"]["model_lines"]] == [20, 21]


def test_torch_compile_layout_found_without_cache_dir(cli, tmp_path):
    """Unless TRITON_CACHE_DIR is set, torch.compile has Triton write to <Inductor dir>/triton/<device>:
    `ls --inductor` and `map --model-line` read that when no --cache-dir is given."""
    root = tmp_path / "torchinductor_someone"
    shutil.copytree(DATA / "inductor_cache", root)
    shutil.copytree(DATA / "triton_cache", root / "triton" / "0")
    env = {"TORCHINDUCTOR_CACHE_DIR": str(root), "TRITON_CACHE_DIR": ""}
    r = cli("ls", "--inductor", env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"{root / 'triton'}  (6 torch.compile entries)")
    r = cli("map", "--model-line", "provenance_model.py:19", "--json", env=env)
    kernels = json.loads(r.stdout)["kernels"]
    assert [len(k["entries"]) for k in kernels if k["kernel"] == "triton_per_fused_native_layer_norm_0"] == [2]
    # TRITON_CACHE_DIR set: that cache, as Triton and torch use it
    other = tmp_path / "elsewhere"
    other.mkdir()
    r = cli("ls", "--inductor", env={**env, "TRITON_CACHE_DIR": str(other)})
    assert r.returncode == 0 and r.stdout.startswith("no torch.compile kernels in")


def test_one_kernel_in_two_graphs(cli, rec):
    """Identical kernel text is one file: a kernel reused by another graph (a graph break, a repeated
    block) links to every wrapper that calls it, and `--model-line` counts its entries for each."""
    fwd = rec / "inductor_cache" / f"{FWD}.py"
    again = rec / "inductor_cache" / "zz" / "czzsecondgraphsecondgraphsecondgraphsecondgraphsecondgr.py"
    again.parent.mkdir()
    again.write_text(fwd.read_text().replace("# AOT ID: ['0_forward']", "# AOT ID: ['1_forward']", 1))
    shutil.copytree(rec / "inductor_cache" / f"{FWD}.debug", again.with_suffix(".debug"))
    os.utime(again, (1e9, 1e9))  # (written before the first: the newest wrapper's graph is the kernel's own)
    rows, _ = _ls_json(cli, rec, "--inductor-dir", str(rec / "inductor_cache"))
    prov = rows["BL2QGYIC"]["inductor"]
    assert prov["graph"] == "0_forward"
    assert [(o["graph"], o["kernel"]) for o in prov["also_in"]] == [
        ("1_forward", "triton_per_fused_native_layer_norm_0")]
    os.utime(again)  # now the newest: an older run's wrapper sorting first by name took the link
    rows, _ = _ls_json(cli, rec, "--inductor-dir", str(rec / "inductor_cache"))
    prov = rows["BL2QGYIC"]["inductor"]
    assert prov["graph"] == "1_forward" and [o["graph"] for o in prov["also_in"]] == ["0_forward"]
    assert rows["437JYKXF"]["inductor"]["also_in"] == []  # the backward kernel is in one graph only
    r = cli("map", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"),
            "--model-line", "provenance_model.py:19", "--json")
    per = {(k["graph"], k["kernel"]): len(k["entries"]) for k in json.loads(r.stdout)["kernels"]}
    assert per[("0_forward", "triton_per_fused_native_layer_norm_0")] == 2
    assert per[("1_forward", "triton_per_fused_native_layer_norm_0")] == 2
    # the text's `also` row names the other graph's model lines too (it named its ATen ops only)
    r = cli("ls", "--inductor", "--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"))
    assert "triton_per_fused_native_layer_norm_0 in graph 0_forward: aten.native_layer_norm; model lines " \
           "provenance_model.py:19" in r.stdout


def test_a_kernel_launched_twice_in_one_graph_says_whose_nodes_it_lists(cli, rec):
    """The two MLP blocks launch the softmax kernel twice in the forward wrapper; Inductor writes its code,
    mapping and fragment once, with the first launch's nodes. The second launch (block 2's y_5, softmax_1,
    y_6) was not said: its nodes appeared under no kernel, and nothing told the count was one launch's."""
    w = parse_wrapper((DATA / "inductor_cache" / f"{FWD}.py").read_text(), "fwd.py")
    soft = "triton_per_fused__softmax_exp_gelu_mul_prepare_softmax_online_sub_2"
    assert w.calls[soft] == [(985, ["y_1", "softmax", "y_2"]), (1013, ["y_5", "softmax_1", "y_6"])]
    assert w.calls["triton_per_fused_native_layer_norm_0"] == [(971, ["y"])]
    args = ["--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache")]
    doc = json.loads(cli("map", *args, "--model-line", "provenance_model.py:21", "--json").stdout)
    (k,) = [k for k in doc["kernels"] if k["kernel"] == soft]
    assert k["other_calls"] == [{"wrapper_line": 1013, "source_nodes": ["y_5", "softmax_1", "y_6"]}]
    text = cli("map", *args, "--model-line", "provenance_model.py:21").stdout
    # (the other launch's source nodes are Inductor's: "Inductor names none for the other" was false, helper 101)
    assert ("calls  launched 2 times in graph 0_forward: the nodes shown are its first launch's; the other at "
            "wrapper line 1013 (source nodes y_5, softmax_1, y_6)") in text
    rows, _ = _ls_json(cli, rec, "--inductor-dir", str(rec / "inductor_cache"))
    assert rows["22DEHI5G"]["inductor"]["other_calls"] == k["other_calls"]
    assert rows["BL2QGYIC"]["inductor"]["other_calls"] == []


def test_model_line_without_any_triton_cache(cli, rec, tmp_path):
    """The reverse question is answered by Inductor's records alone: with no Triton cache anywhere, the
    kernels are listed without entries and a note says why (an explicit --cache-dir that is missing is
    still an error)."""
    env = {"TRITON_CACHE_DIR": str(tmp_path / "none"), "HOME": str(tmp_path)}
    args = ["map", "--model-line", "provenance_model.py:21", "--inductor-dir", str(rec / "inductor_cache"), "--json"]
    r = cli(*args, env={**env, "TRITON_CACHE_DIR": ""})
    assert r.returncode == 0, r.stderr
    kernels = json.loads(r.stdout)["kernels"]
    assert kernels and all(k["entries"] == [] for k in kernels)
    assert "no Triton cache at" in r.stderr
    r = cli(*args, "--cache-dir", str(tmp_path / "missing"))
    assert r.returncode == 1 and "no such cache directory" in r.stderr


def test_a_launch_repeated_without_end_is_said_in_a_few_words():
    """A wrapper whose `call()` repeats one launch 100,000 times printed a 1.2 MB line of wrapper lines."""
    from tritonscope.srcmap.inductor import other_calls_text

    calls = [{"wrapper_line": 1000 + i, "source_nodes": []} for i in range(1000)]
    text = other_calls_text("0_forward", calls, 100001)
    assert text.startswith("launched 100001 times in graph 0_forward")
    assert text.endswith("at wrapper line 1000; line 1001; line 1002; line 1003; line 1004; ... (100000 in all)")
    w = parse_wrapper((DATA / "inductor_cache" / f"{FWD}.py").read_text(), "fwd.py")
    name = "triton_per_fused_native_layer_norm_0"
    w.calls[name] = [(i, []) for i in range(5000)]
    assert len(w.launches(name)["other_calls"]) == 1000 and w.launches(name)["launches"] == 5000


def test_a_kernel_file_edited_since_inductor_wrote_it_is_not_read(cli, rec):
    """Inductor names a kernel's file by the hash of its text, and the wrapper holds that text: a file that
    differs (a line added at 45) was read and every later line shown one off; the wrapper's copy is read."""
    args = ["--cache-dir", str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache")]
    kernel = "triton_per_fused__softmax__softmax_backward_data_gelu_gelu_backward_mul_6"
    before = json.loads(cli("map", kernel, *args, "--json").stdout)
    assert before["source"]["how"] == "source-root" and before["source"]["note"] is None
    path = Path(before["source"]["path"])
    lines = path.read_text().split("\n")
    path.write_text("\n".join(lines[:44] + ["    tmpX = tmp5 + tmp5"] + lines[44:]))
    r = cli("map", kernel, *args, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["source"]["how"] == "Inductor's wrapper"
    assert doc["source"]["path"] == f"{rec / 'inductor_cache' / BWD}.py:563"
    assert doc["source"]["note"] == (f"{path} differs from the text Inductor compiled, which its name is the hash "
                                     "of (edited since): not read")
    shown = {row["line"]: row["text"] for row in doc["lines"]}
    assert shown[45] == lines[44] and "tmpX" not in shown[45]
    r = cli("map", kernel, *args)
    assert f"source: {path} differs from the text Inductor compiled" in r.stdout


def test_a_block_without_its_kernel_path_line_keeps_its_nodes(cli, rec):
    """A wrapper block whose `# kernel path:` line is gone: the comment block under it (source nodes, ATen
    ops, mapping, graph fragment) was thrown away; the kernel linked by its text's hash with no nodes."""
    wrapper = rec / "inductor_cache" / f"{BWD}.py"
    lines = wrapper.read_text().split("\n")
    (at,) = [i for i, ln in enumerate(lines) if ln.startswith("# kernel path:") and "cvojtqzimfndgvfob" in ln]
    wrapper.write_text("\n".join(lines[:at] + lines[at + 1:]))
    r = cli("map", "triton_per_fused__softmax__softmax_backward_data_gelu_gelu_backward_mul_6", "--cache-dir",
            str(rec / "triton_cache"), "--inductor-dir", str(rec / "inductor_cache"), "--json")
    assert r.returncode == 0, r.stderr
    prov = json.loads(r.stdout)["inductor"]
    assert prov["linked_by"] == "kernel text hash" and prov["kernel_path"] is None
    assert prov["source_nodes"][:2] == ["mul_17", "convert_element_type_37"] and len(prov["source_nodes"]) == 18
    assert "aten._softmax_backward_data" in prov["aten_ops"]
    assert {m["line"] for m in prov["model_lines"]} == {20, 21}


def test_a_note_suggests_inductor_dir_only_where_none_was_given(cli, inductor_cache, inductor_src, tmp_path):
    """The corpus keeps Inductor's kernel sources but no wrapper: with --inductor-dir given, the note said
    "(give --inductor-dir)" all the same."""
    (entry,) = [p.name for p in inductor_cache.iterdir() if p.name.startswith("JEHESICA")]
    r = cli("map", entry, "--cache-dir", str(inductor_cache), "--inductor-dir", str(inductor_src), "--json")
    assert r.returncode == 0, r.stderr
    prov = json.loads(r.stdout)["inductor"]
    # the kernel's own source is there (a dir of kernel files alone): named, though no graph holds it
    (src,) = inductor_src.glob("*/" + Path(prov["kernel_file"]).name)
    assert prov["kernel_file"].startswith("/tmp/rc/inductor/") and prov["role"] == "unknown"
    assert prov["note"] == (f"its source is {src}, but no Inductor wrapper (a module headed `# AOT ID`) is under "
                            f"{inductor_src}: its graph and ATen ops are unknown")
    r = cli("map", entry, "--cache-dir", str(inductor_cache), "--json",
            env={"TORCHINDUCTOR_CACHE_DIR": str(tmp_path)})
    assert json.loads(r.stdout)["inductor"]["note"].endswith(f"under {tmp_path} (give --inductor-dir)")


def test_an_entry_whose_stages_name_two_kernel_files_is_named_by_the_one_there(cli, inductor_cache, inductor_src):
    """The H200 corpus's L6WZNVM5F2 holds the stages of two compiles of one key: its `.source` names an autotuning
    benchmark file that is gone (wm/cwmpnp...), its TTIR and TTGIR the graph's kernel file (sq/csqvv...). Only
    the first stage's files were looked up: the entry named no source, the one entry of 30 left so."""
    r = cli("ls", "--cache-dir", str(inductor_cache), "--inductor-dir", str(inductor_src), "--json", "--all")
    assert r.returncode == 0, r.stderr
    entries = [e for e in json.loads(r.stdout)["entries"] if e.get("inductor")]
    named = {e["hash"][:10]: e["inductor"]["kernel_file"] for e in entries}
    assert len(named) == 30 and all(named.values()), [h for h, f in named.items() if not f]
    assert named["L6WZNVM5F2"].endswith("/sq/csqvvsjpsvtwktq6iq2d7baco65463wl7wpm3robtsfra6o2johy.py")
    source = next((inductor_cache / e["hash"]).glob("*.source") for e in entries if e["hash"].startswith("L6WZ"))
    assert "/wm/cwmpnp" in next(source).read_text()[:4000]  # (the data is as the test says)


@pytest.mark.parametrize("kernel", ["triton_per_fused__softmax__softmax_backward_data_gelu_gelu_backward_mul_6",
                                    "triton_per_fused__to_copy_div_exp_expand_mul_sub_sum_unsqueeze_0"])
def test_a_wrapper_cut_inside_a_kernels_text_says_so(cli, rec, kernel):
    """A wrapper cut short 50 bytes past a kernel's `def` was read as far as it went, its kernels after the
    cut gone without a word (and one cut in its first kernel was skipped as no wrapper at all)."""
    wrapper = rec / "inductor_cache" / f"{BWD}.py"
    text = wrapper.read_text()
    at = text.index(f"async_compile.triton('{kernel}'")
    wrapper.write_text(text[:text.index("def ", at) + 50])
    line = text[:at].count("\n") + 1
    _, err = _ls_json(cli, rec, "--inductor-dir", str(rec / "inductor_cache"))
    assert f"tritonscope: note: {wrapper}: ends inside the text of kernel {kernel} (line {line}; cut short?): it " \
        "and what would follow are not read\n" in err


def test_one_wrapper_text_beside_two_runs_fx_graphs_is_two_runs_the_newest_shown(cli, rec):
    """Helper 83: debug dirs of two runs of an edited model hold one wrapper text beside FX graphs of other
    lines; copies of one text were taken for one graph, the one whose path sorted first kept (the older
    run's, `provenance_model.py:119`), no word of the other."""
    import os

    cache = rec / "inductor_cache"
    old = cache / "aa" / ("c" + "a" * 51)
    old.parent.mkdir()
    shutil.copy(cache / f"{FWD}.py", f"{old}.py")
    shutil.copytree(cache / f"{FWD}.debug", f"{old}.debug")
    for name in ("fx_graph_transformed.py", "fx_graph_readable.py"):
        p = Path(f"{old}.debug") / name
        p.write_text(p.read_text().replace("provenance_model.py:19 ", "provenance_model.py:119 "))
    os.utime(f"{old}.py", (1_577_836_800, 1_577_836_800))  # (2020: the older run)
    entries, _ = _ls_json(cli, rec, "--inductor-dir", str(cache))
    for entry in entries.values():
        ind = entry.get("inductor") or {}
        if ind.get("kernel") != "triton_per_fused_native_layer_norm_0":
            continue
        assert {m["line"] for m in ind["model_lines"]} == {19}
        assert "1 other graph(s) hold this kernel with nodes from other model lines" in ind["note"]
        assert f"{old}.py" in ind["note"] and [m["line"] for o in ind["also_in"] for m in o["model_lines"]] == [119]
        break
    else:
        raise AssertionError("no layer norm entry")


def test_records_of_two_versions_of_a_model_read_together_are_said(cli, tmp_path):
    """Two runs' records in one folder (the provenance model, then its checkpointed edit, whose line 20 is
    another statement): a model line's kernels came from both, each said to be from `y = self.norm(x)` or
    from the GELU line, and nothing said the records disagreed (helper 101)."""
    for name in ("provenance", "checkpoint"):
        src = DATA.parent / f"inductor-{name}-h100-triton3.6"
        shutil.copytree(src / "inductor_cache", tmp_path / "ind", dirs_exist_ok=True)
        shutil.copytree(src / "triton_cache", tmp_path / "tc", dirs_exist_ok=True)
    r = cli("map", "--cache-dir", str(tmp_path / "tc"), "--inductor-dir", str(tmp_path / "ind"),
            "--model-line", "provenance_model.py:20")
    assert r.returncode == 0, r.stderr
    (note,) = [ln for ln in r.stderr.splitlines() if "texts of provenance_model.py:20" in ln]
    assert "2 texts of provenance_model.py:20 (`y = self.norm(x)`; `y = torch.nn.functional.gelu(self.up(y))`)" \
        in note, note
    # one run's own records say nothing of the kind; a column after the line (a traceback's) is taken
    r = cli("map", "--cache-dir", str(DATA / "triton_cache"), "--inductor-dir", str(DATA / "inductor_cache"),
            "--model-line", "provenance_model.py:20:9")
    assert r.returncode == 0 and "texts of" not in r.stderr and "nodes from provenance_model.py:20" in r.stdout, \
        (r.stdout, r.stderr)


def test_an_fx_graph_cut_short_is_said_so_not_another_runs(cli, rec):
    """Helper 101: an FX graph file cut short (at a line's end) lost the nodes after the cut, and the note
    blamed "files of another run?". Torch prints every graph to its forward's `return`: one that lacks it
    is said to be cut short, and the nodes it lacks are put down to that."""
    fwd = rec / "inductor_cache" / f"{FWD}.debug"
    for name in ("fx_graph_transformed.py", "fx_graph_readable.py"):
        lines = (fwd / name).read_text().splitlines(keepends=True)
        (fwd / name).write_text("".join(lines[:len(lines) // 2]))
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", "--inductor-dir", str(rec / "inductor_cache"))
    assert r.returncode == 0, r.stderr
    err = r.stderr.splitlines()
    assert any(ln.endswith("fx_graph_transformed.py: cut short (it does not end with its graph's `return`): nodes "
                           "after the cut have no model line from it") for ln in err), r.stderr
    assert any("are not in it (it is cut short)" in ln for ln in err), r.stderr
    assert not any("another run" in ln for ln in err), r.stderr
    # whole files: no such note
    r = cli("ls", "--cache-dir", str(rec / "triton_cache"), "--json", "--inductor-dir",
            str(Path(__file__).parent / "data" / "inductor-provenance-h100-triton3.6" / "inductor_cache"))
    assert "cut short" not in r.stderr


def test_a_kernel_file_that_does_not_define_the_kernel_is_not_named_its_source(cli, inductor_cache, inductor_src,
                                                                                 tmp_path):
    """With no wrapper, a kernel file of the IR's name under --inductor-dir is named as the kernel's source
    only where it defines the kernel: one of NUL bytes, or empty, was named all the same (helper 113)."""
    (entry,) = [p.name for p in inductor_cache.iterdir() if p.name.startswith("JEHESICA")]
    r = cli("map", entry, "--cache-dir", str(inductor_cache), "--inductor-dir", str(inductor_src), "--json")
    src = Path(json.loads(r.stdout)["inductor"]["kernel_file"]).name
    for damage in (b"\0" * 64, b""):
        bad = tmp_path / ("nul" if damage else "empty")
        (bad / src[1:3]).mkdir(parents=True)
        (bad / src[1:3] / src).write_bytes(damage)
        r = cli("map", entry, "--cache-dir", str(inductor_cache), "--inductor-dir", str(bad), "--json")
        assert r.returncode == 0, r.stderr
        prov = json.loads(r.stdout)["inductor"]
        assert prov["kernel_file"] is None and "its source is" not in prov["note"], prov


def test_a_wrapper_that_is_a_link_is_named_not_followed(cli, rec, tmp_path):
    """A wrapper replaced by a symbolic link (to a copy outside): not followed, as before, but the note said
    only that kernels were "in no wrapper ... (another run's?)", sending the user after another run (helper
    115). The link is named, and the kernels' note points to it."""
    wrapper = rec / "inductor_cache" / f"{FWD}.py"
    outside = tmp_path / "outside.py"
    shutil.move(wrapper, outside)
    wrapper.symlink_to(outside)
    entries, err = _ls_json(cli, rec, "--inductor", "--inductor-dir", str(rec / "inductor_cache"))
    assert f"{wrapper}: a symbolic link, which is not followed" in err, err
    assert "in no wrapper under" in err and "in a link not followed, named above" in err, err
    # nothing of the file behind the link was read: the forward kernels have no wrapper
    roles = [e["inductor"]["role"] for e in entries.values() if e.get("inductor")]
    assert "unknown" in roles, roles


def test_a_folder_of_wrappers_that_is_a_link_is_named_not_followed(cli, rec, tmp_path):
    """Helper 126: an Inductor dir whose two-letter folders are links (to copies outside) said only 'no
    Inductor wrapper under DIR (is it Inductor's cache or debug dir?)': links to folders were skipped without
    a word, where a link to a wrapper file is named."""
    cache = rec / "inductor_cache"
    moved = []
    for d in sorted(p for p in cache.iterdir() if p.is_dir() and not p.is_symlink() and any(p.glob("*.py"))):
        outside = tmp_path / "outside" / d.name
        shutil.move(d, outside)
        d.symlink_to(outside, target_is_directory=True)
        moved.append(d)
    assert moved
    entries, err = _ls_json(cli, rec, "--inductor", "--inductor-dir", str(cache))
    assert f"{moved[0]}{f' (and {len(moved) - 1} more)' if len(moved) > 1 else ''}: a symbolic link, which is not " \
        "followed" in err, err
    assert "(none outside the links named above, which are not followed)" in err, err
