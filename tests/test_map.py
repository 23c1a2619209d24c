"""`tritonscope map` end to end, in a subprocess, on copies of the real corpus."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run_json(cli, *args):
    proc = cli("map", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def counts(doc):
    return {s["stage"]: s["count"] for s in doc["stages"]}


def test_line_gemv_tile_173_gfx942_39(cli, cache39, corpus):
    proc = cli("map", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--line", "173",
               "--stages", "ttir,ttgir,llir,amdgcn", "--substitute-path", "/tmp/irkernels", str(corpus))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "memory: tt.load x1 -> load <8 x half> x16 -> global_load_dwordx4 x16" in out
    assert '>   173 |     w = tl.load(w_ptrs, mask=n_mask[None, :], other=0.0, eviction_policy="evict_first")' in out
    assert "amdgcn  88 ops at kernels.py:173: v_mov_b32_e32 x40, s_and_saveexec_b64 x16, " \
           "s_cbranch_execz x16, global_load_dwordx4 x16" in out


@pytest.mark.parametrize("cache_name,target,line,expected", [
    ("cache39", "cuda:80", 91, {"source": 1, "ttir": 3, "ttgir": 3, "llir": 43, "ptx": 30, "sass": 27}),
    ("cache39", "cuda:80", 92, {"source": 1, "ttir": 3, "ttgir": 3, "llir": 24, "ptx": 24, "sass": 48}),
    # 3.2's cubin line table names only the helper's lines; through -gp, SASS gets the PTX's call sites
    ("cache32", "cuda:90", 91, {"ttir": 3, "ttgir": 3, "llir": 51, "ptx": 53, "sass": 41}),
    ("cache32", "hip:gfx942", 91, {"ttir": 3, "ttgir": 3, "llir": 57, "amdgcn": 70}),
    ("cache39", "hip:gfx942", 92, {"source": 1, "ttir": 3, "ttgir": 3, "llir": 12, "amdgcn": 34}),
])
def test_softmax_helper_lines_map_to_call_sites(request, cli, cache_name, target, line, expected):
    cache = request.getfixturevalue(cache_name)
    doc = run_json(cli, "softmax_kernel", "--cache-dir", str(cache), "--target", target, "--line", str(line),
                   "--stages", ",".join(expected))
    assert doc["kind"] == "map.line" and counts(doc) == expected
    # the helper's own lines stay visible in the chain of the ops attributed to the call site
    inner = {c["line"] for s in doc["stages"] for op in s["ops"] for c in op["chain"][:-1]}
    assert inner & ({36, 43, 44} if line in (91, 92) else set())
    # without the source, line numbers still come and the output says so
    assert doc["source"]["found"] is False and "--source-root" in doc["source"]["error"]


def test_sass_32_gets_call_sites_through_its_ptx_lines(cli, cache32):
    """Triton 3.2 cubins carry no inlined-at line info (SASS of helpers sat on the helpers' lines 43/44,
    69 instructions in another file); through nvdisasm -gp each instruction takes its PTX instruction's
    location, whose DWARF inlined ranges give the kernel's call sites."""
    doc = run_json(cli, "softmax_kernel", "--cache-dir", str(cache32), "--target", "cuda:90", "--stages", "sass")
    rows = {r["line"]: r["counts"]["sass"] for r in doc["lines"]}
    assert rows[43] == rows[44] == 0  # counted at their call sites...
    inlined = {r["line"]: r["inlined"]["sass"] for r in doc["lines"] if "inlined" in r}
    assert set(inlined) == {43, 44} and all(inlined.values())  # ...and listed as the helpers' own lines
    assert rows[90] == 25 and rows[91] == 41 and rows[93] == 28
    assert doc["unattributed"]["sass"] == {"unknown": 0, "no_loc": 0, "other_file": 0}


def test_listing_with_source_root(cli, cache39, corpus):
    doc = run_json(cli, "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80",
                   "--source-root", str(corpus), "--stages", "ttgir,ptx")
    assert doc["kind"] == "map.listing" and doc["source"]["how"] == "source-root"
    by_line = {r["line"]: r for r in doc["lines"]}
    assert by_line[90]["text"] == '    row = tl.load(input_ptrs, mask=mask, other=-float("inf"))'
    assert by_line[90]["counts"] == {"ttgir": 1, "ptx": 17}
    assert by_line[91]["counts"] == {"ttgir": 3, "ptx": 30}
    # the helpers' own lines: nothing counted there, their ops listed as inlined (line 91 calls _row_max)
    assert by_line[36]["counts"] == {"ttgir": 0, "ptx": 0} and by_line[36]["inlined"] == {"ttgir": 3, "ptx": 30}
    assert by_line[44]["counts"] == {"ttgir": 0, "ptx": 0} and by_line[44]["inlined"]["ttgir"] > 0
    assert "inlined" not in by_line[90] and "inlined" not in by_line[40]
    assert doc["unattributed"]["ttgir"] == {"unknown": 1, "no_loc": 0, "other_file": 0}


def test_listing_text_without_source(cli, cache39):
    proc = cli("map", "add_kernel", "--cache-dir", str(cache39), "--target", "cuda:80", "--stages", "ttir,ptx")
    assert proc.returncode == 0, proc.stderr
    assert "source not found" in proc.stdout and "line numbers only" in proc.stdout
    rows = [ln.split() for ln in proc.stdout.splitlines()]
    # x = tl.load(...): address math plus the whole inline-asm block (4 movs and the ld.global.v4.b32); the
    # `.loc 1 66 9`..`1 68 9` LLVM writes inside that asm block are asm line numbers, not source lines
    assert ["65", "3", "7"] in rows and ["66", "3", "6"] in rows


def test_reverse_at_and_grep(cli, cache39, corpus):
    doc = run_json(cli, "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80", "--stage", "ptx",
                   "--at", "131", "--source-root", str(corpus))
    (m,) = doc["matches"]
    assert m["op"] == "shfl.sync.bfly.b32" and m["source_line"] == 91
    assert m["source_text"] == "    row_max = _row_max(row)"
    assert [(c["line"], c["col"]) for c in m["chain"]] == [(216, 16), (36, 9), (91, 15)]
    doc = run_json(cli, "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80", "--stage", "sass",
                   "--grep", "LDG|STG")
    assert [(b["line"], b["count"]) for b in doc["by_line"]] == [(90, 8), (97, 8)]
    proc = cli("map", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80", "--stage", "ptx",
               "--at", "130")
    assert "line 130 of the ptx is not an instruction; the next one is line 131" in proc.stdout


def test_reverse_at_a_later_line_of_a_multiline_op(cli, cache39):
    """A tt.reduce prints its types (and location) after its combine region: `}) : (tensor<...>) -> ...`.
    That line is the reduce's, not the op after it."""
    args = ("gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx90a", "--stage", "ttgir")
    doc = run_json(cli, *args, "--at", "59")
    (m,) = doc["matches"]
    assert (m["lineno"], m["op"], m["source_line"]) == (55, "tt.reduce", 176)
    proc = cli("map", *args, "--at", "59")
    assert "line 59 of the ttgir continues the instruction of line 55" in proc.stdout


def test_inductor_with_substitute_path(cli, inductor_cache, inductor_src):
    doc = run_json(cli, "triton_per_fused_add_native_layer_norm_transpose_view_14", "--cache-dir",
                   str(inductor_cache), "--line", "36", "--substitute-path", "/tmp/rc/inductor", str(inductor_src))
    assert doc["source"]["how"] == "substitute-path"
    assert doc["context"][2]["text"].strip() == \
        "tmp0 = tl.load(in_ptr0 + (r0_2 + 512*x3), xmask, other=0.0).to(tl.float32)"
    # PTX: 24 of the line's instructions sit inside the DWARF low/high range of a tl.sum inlined from
    # another line; their `.loc` is this file, the callee's code is in standard.py, so they stay here. 4 of
    # them (`cvt.f32.f16` under `.loc 1 36 67`) are also inside the nested `_sum_combine` call's range, which
    # has no call of its own to tell its file: the first instruction of its range does (standard.py).
    # SASS through -gp: the instructions compiled from those 43 PTX instructions (the cubin's own line
    # table says 28 too)
    assert counts(doc) == {"source": 15, "ttir": 9, "ttgir": 9, "llir": 50, "ptx": 43, "sass": 28}
    flow = {f["stage"]: f["kinds"] for f in doc["flow"]}
    assert flow["ttgir"] == {"tt.load": 1} and flow["ptx"] == {"ld.global.v4.b32": 2}
    assert flow["sass"] == {"LDG.E.128": 2}


def test_stats_one_kernel_and_whole_cache(cli, cache39):
    doc = run_json(cli, "--stats", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80")
    (k,) = doc["kernels"]
    assert {s["stage"]: (s["attributed"], s["ops"]) for s in k["stages"]} == {
        "source": (68, 68), "ttir": (27, 27), "ttgir": (26, 27), "llir": (178, 178), "ptx": (146, 146),
        "sass": (196, 196)}  # after the 12 never-executed instructions ptxas pads the code with
    doc = run_json(cli, "--stats", "--cache-dir", str(cache39), "--stages", "ttir,ttgir,llir,ptx,amdgcn")
    assert len(doc["kernels"]) == 30
    totals = {t["stage"]: (t["attributed"], t["unknown"], t["no_loc"], t["ops"]) for t in doc["totals"]}
    assert totals == {"ttir": (1254, 36, 0, 1290), "ttgir": (1644, 75, 0, 1719),
                      "llir": (18830, 0, 671, 19501), "ptx": (6622, 62, 0, 6684),
                      "amdgcn": (8543, 509, 0, 9052)}


def test_usage_errors(cli, cache39):
    base = ("map", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80")
    for extra, msg in ((("--at", "3"), "--at / --grep need --stage"),
                       (("--stage", "ptx"), "--stage goes with --at or --grep"),
                       (("--col", "3"), "--col needs --line"),
                       (("--stages", "ttir,bogus"), "--stages: unknown stage 'bogus'"),
                       (("--stage", "bogus", "--at", "3"), "--stage: unknown stage 'bogus'"),  # (said --stages)
                       # a file no location names, a line past the stage file: were "0 ops", exit 0
                       (("--file", "nope.py", "--line", "3"), "--file nope.py: no location of this kernel names "
                        "that file (its files: kernels.py, standard.py)"),  # (tl.max is in standard.py)
                       (("--file", "nope.py"), "--file nope.py: no location"),
                       (("--stage", "ptx", "--at", "99999"), "--at 99999: the ptx of this entry has ")):
        proc = cli(*base, *extra)
        assert proc.returncode == 2 and msg in proc.stderr, (extra, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_map_does_not_import_triton(cache39, corpus):
    code = (
        "import sys\n"
        "from tritonscope.cli import main\n"
        "try:\n"
        f"    main(['map', 'matmul_kernel', '--cache-dir', {str(cache39)!r}, '--target', 'cuda:90',"
        f" '--line', '134', '--source-root', {str(corpus)!r}, '--json'])\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('triton', 'torch'))\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert '"kind": "map.line"' in proc.stdout


def test_line_in_a_helper_file_matches_inner_positions(cli, cache39):
    """`--file standard.py --line 216` (tl.max's reduce) finds the ops inlined from it, wherever called."""
    doc = run_json(cli, "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80", "--file", "standard.py",
                   "--line", "216", "--stages", "ttgir,ptx,sass")
    assert doc["query"]["match"] == "inlined" and doc["query"]["file"].endswith("triton/language/standard.py")
    assert counts(doc) == {"ttgir": 3, "ptx": 30, "sass": 27}
    assert all(op["chain"][-1]["line"] == 91 for s in doc["stages"] for op in s["ops"])


def test_missing_disassembler_is_skipped_with_reason(cli, cache39):
    args = ("map", "softmax_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--line", "91")
    env = {"TRITONSCOPE_LLVM_OBJDUMP": "/nonexistent/llvm-objdump"}
    proc = cli(*args, "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert "hsaco-asm" not in counts(doc) and "llvm-objdump not found" in doc["skipped"]["hsaco-asm"]
    assert counts(doc)["amdgcn"] == 50
    text = cli(*args, env=env).stdout
    assert "hsaco-asm: skipped: llvm-objdump not found" in text
    # named explicitly, a missing tool is an error (exit 1, one line)
    proc = cli(*args, "--stages", "hsaco-asm", env=env)
    assert proc.returncode == 1 and proc.stderr.startswith("tritonscope: error:") and "Traceback" not in proc.stderr


@pytest.mark.skipif(__import__("tritonscope.artifacts.tools", fromlist=["x"]).find_nvidia_tool("nvdisasm") is None,
                    reason="nvdisasm not installed (ships with triton)")
def test_inline_asm_line_offsets_corrected_in_ptx_and_sass(cli, cache39):
    """cuda:90 gemv tile load (line 173): raw PTX and SASS line tables put its 32 loads on line 174."""
    doc = run_json(cli, "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "--line", "173",
                   "--stages", "ptx,sass")
    flow = {f["stage"]: f["kinds"] for f in doc["flow"]}
    assert flow["ptx"] == {"ld.global.L1::evict_first.L2::cache_hint.v4.b32": 32}
    assert flow["sass"] == {"LDG.E.EF.128": 32}
    notes = {st["stage"]: st["notes"] for st in doc["stages"]}
    assert notes["ptx"] == ["ignored 4 `.loc` lines inside inline asm blocks (LLVM numbers the lines of an asm "
                            "string from its call's line; they are not source positions)"]
    # ptxas's own line table said 174 for them; through -gp they sit on the corrected PTX's line
    assert notes["sass"] == ["1153 of 1155 instructions located through their PTX line (nvdisasm -gp)"]
    x = run_json(cli, "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "--line", "174",
                 "--stages", "ptx,sass")
    assert {f["stage"]: f["kinds"] for f in x["flow"]} == {"ptx": {"ld.global.b16": 1}, "sass": {"LDG.E.U16": 1}}


def test_max_ops_keeps_memory_ops(cli, cache39):
    proc = cli("map", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--line", "173",
               "--stages", "llir", "--max-ops", "3")
    assert proc.returncode == 0, proc.stderr
    listed = [ln for ln in proc.stdout.splitlines() if ln.startswith("  ") and "load <8 x half>" in ln]
    assert len(listed) == 3
    assert "more ops (memory ops are all shown first; --max-ops 0 lists every op)" in proc.stdout


@pytest.mark.skipif(__import__("tritonscope.artifacts.tools", fromlist=["x"]).find_nvidia_tool("nvdisasm") is None,
                    reason="nvdisasm not installed (ships with triton)")
def test_entry_sass_corrected_once_for_every_consumer(cache39):
    from tritonscope.artifacts.cache import Cache, select
    from tritonscope.stages import correct_entry_sass, parse_entry_stage

    (entry,) = select(Cache(cache39).kernels(), "gemv_tile_kernel", "cuda:90")
    sass = parse_entry_stage(entry, "sass")

    def ldg_lines():
        return sorted({op.loc.outermost().line for op in sass.ops if op.op.startswith("LDG")})

    assert ldg_lines() == [173, 174]
    assert correct_entry_sass(entry, sass) == 0  # a second pass must not move 174 (the x load) to 173
    assert ldg_lines() == [173, 174]


def test_line_of_a_helper_in_the_kernels_file(cli, cache39):
    """`_row_max` is defined in the kernel's own file (line 36: `m = tl.max(x, axis)`) and inlined at line
    91: `--line 36` lists the ops written there (before: none, only line 91 had them), `--line 91` keeps
    them all, and `match` says which is which."""
    doc = run_json(cli, "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80",
                   "--line", "36", "--stages", "ttgir,ptx")
    assert doc["query"]["match"] == "inlined"
    assert counts(doc) == {"ttgir": 3, "ptx": 30}
    assert all([p["line"] for p in op["chain"]][-2:] == [36, 91] for s in doc["stages"] for op in s["ops"])
    call = run_json(cli, "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80",
                    "--line", "91", "--stages", "ttgir,ptx")
    assert call["query"]["match"] == "outermost" and counts(call) == {"ttgir": 3, "ptx": 30}
    both = run_json(cli, "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:80",
                    "--line", "36", "--stages", "source,ttgir")
    assert both["query"]["match"] == "outermost+inlined"  # the source stage keeps _row_max a function


def test_listing_names_the_files_helpers_were_written_in(cli, helper_module):
    """`map KERNEL` ends by naming the other files ops were written in; per stage their op counts are
    the column sums of what `map KERNEL --file F` lists for that file."""
    cache = str(helper_module / "cache")
    r = cli("map", "unpack_kernel", "--cache-dir", cache, "--json")
    assert r.returncode == 0, r.stderr
    (helper,) = json.loads(r.stdout)["helper_files"]
    assert helper["file"] == str(helper_module / "hm_helpers.py") and helper["lines"] == 4
    f = json.loads(cli("map", "unpack_kernel", "--cache-dir", cache, "--file", "hm_helpers.py", "--json").stdout)
    sums = {s: sum(row["counts"][s] + row.get("inlined", {}).get(s, 0) for row in f["lines"]) for s in f["stages"]}
    assert helper["ops"] == sums and helper["ops"]["ttgir"] == 9
    text = cli("map", "unpack_kernel", "--cache-dir", cache).stdout
    assert "also written in: hm_helpers.py (4 lines); `map KERNEL --file F` lists one" in text


FORM_FEED_KERNEL = ('import triton\nimport triton.language as tl\n# page break:\x0c and a line separator \u2028 in a '
                    'comment, a NEL \x85 too\n\n@triton.jit\ndef ff_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n'
                    '    pid = tl.program_id(0)\n    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    m = offs < n\n'
                    '    x = tl.load(x_ptr + offs, mask=m)\n    tl.store(y_ptr + offs, x + 1, mask=m)\n')


def test_source_lines_are_numbered_as_python_numbers_them(cli, tmp_path):
    """A form feed, U+2028 or NEL in a comment made str.splitlines() break the file there: every later line
    was shown against the number before it (the ops of tl.load beside `offs = ...`)."""
    from tritonscope.stages.common import source_lines

    assert source_lines("a\x0cb\u2028c\r\nd\re\n") == ["a\x0cb\u2028c", "d", "e"]
    (tmp_path / "ffk.py").write_text(FORM_FEED_KERNEL)
    cache = tmp_path / "cache"
    r = cli("compile", f"{tmp_path / 'ffk.py'}::ff_kernel", "--signature", "x_ptr=*fp32,y_ptr=*fp32,n=i32",
            "--constexpr", "BLOCK=256", "--target", "cuda:90", "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    r = cli("map", "ff_kernel", "--cache-dir", str(cache), "--line", "10", "--stages", "ttir", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    (line,) = [c for c in out["context"] if c["line"] == 10]
    assert line["text"] == "    x = tl.load(x_ptr + offs, mask=m)"
    assert [op["op"] for op in out["stages"][0]["ops"]][-1] == "tt.load"


def test_reverse_lookup_names_another_files_line_as_that_files(cli, tmp_path):
    """Triton 3.0's matmul (cuda:90): PTX line 49 is `standard.py:44` (tl.cdiv) inlined at the kernel's
    line 24, as the LLIR's `inlinedAt` says too; the DWARF saying so has no comments before 3.2 (it was
    not read, and the op was another file's). Without that DWARF it is another file's line: `--at 49` had
    said `-> line 44` and counted it as the kernel's line 44."""
    import shutil
    from pathlib import Path

    entry = (Path(__file__).parent / "data" / "releases-3.0-3.4" / "3.0" /
             "5cd8d90f674dd317d84ace5f91b2b606a56c36025c5ad9ca2c74725ff0c25fde")
    doc = run_json(cli, str(entry), "--stage", "ptx", "--at", "49")
    (m,) = doc["matches"]
    assert m["source_line"] == 24
    assert [(f["file"].rsplit("/", 1)[-1], f["line"], f["col"]) for f in m["chain"]] == [
        ("standard.py", 44, 22), ("matmul.py", 24, 27)]
    bare = tmp_path / "bare"
    shutil.copytree(entry, bare)
    ptx = bare / "matmul_kernel.ptx"
    text = ptx.read_text()
    start = text.index("\t.section\t.debug_info")
    ptx.write_text(text[:start] + text[text.index("\t}", start) + 3:])
    doc = run_json(cli, str(bare), "--stage", "ptx", "--at", "49")
    (m,) = doc["matches"]
    assert m["source_line"] is None and m["chain"][-1]["file"].endswith("standard.py") and doc["by_line"] == []
    r = cli("map", str(bare), "--stage", "ptx", "--at", "49")
    assert "-> standard.py:44 (not the kernel's file)" in r.stdout


def test_stats_say_how_many_ops_are_in_other_files(cli):
    """gemlite's `.source` keeps its helpers as functions of their own files: 107 of its 487 ops have a line,
    of utils.py. The table said 487/487 100.0% and nothing of them; the JSON had other_file 107."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "gemlite"
    r = cli("map", "2LVMWLFPTN", "--cache-dir", str(cache), "--stats", "--stages", "source,ttir")
    assert r.returncode == 0, r.stderr
    assert "487/487 100.0% (other 107)" in r.stdout and "77/85 90.6% (unk 8)" in r.stdout


def test_file_names_a_path_not_the_bare_name_comment_chains_spell():
    """PTX comment chains spell files by their basename (`@[ gemm_kernels.py:357:75 ]`): with a helper file
    of the kernel file's name, `--file xxxxxxx/gemm_kernels.py` was refused as naming two files (that path
    and the bare name), and `--file gemm_kernels.py` queried the bare name, another file than without PTX."""
    from tritonscope.stages.common import resolve_file

    kernel, helper = "/p/triton_kernels/gemm_kernels.py", "/p/xxxxxxx/gemm_kernels.py"
    recorded = {kernel, helper, "gemm_kernels.py", "standard.py"}
    assert resolve_file("xxxxxxx/gemm_kernels.py", recorded, prefer=kernel) == helper
    assert resolve_file("gemm_kernels.py", recorded, prefer=kernel) == kernel
    assert resolve_file("gemm_kernels.py", recorded - {kernel}, prefer=kernel) == helper
    assert resolve_file("standard.py", recorded, prefer=kernel) == "standard.py"


def test_a_line_whose_ops_vanish_says_so(compile_kernel, cli):
    """`b = tl.cumsum(x, 0)` computes what the line above does: the source stage has its call, TTIR none
    (merged with the other line's tt.scan). `map --line` showed 0 ops in every stage after, without a word."""
    from pathlib import Path

    src = Path(__file__).parent / "data" / "kernels" / "merged_lines.py"
    result = compile_kernel(f"{src}::twice", signature="x_ptr=*fp32,y_ptr=*fp32", constexprs={"BLOCK": 256})
    assert result.ok, result.error
    doc = json.loads(cli("map", result.entry, "--line", "10", "--json").stdout)
    counts = {s["stage"]: s["count"] for s in doc["stages"]}
    assert counts["source"] == 1 and counts["ttir"] == 0
    ttir = next(s for s in doc["stages"] if s["stage"] == "ttir")
    assert ttir["notes"][0].startswith("this line's 1 source op is in no ttir op: folded, removed as unused, or "
                                       "merged with the same computation on another line")
    assert all(not n.startswith("this line's") for s in doc["stages"] if s["stage"] != "ttir" for n in s["notes"])


def test_reverse_at_in_the_disassembled_hsaco(cli):
    """Helper 69: `map --stage hsaco-asm --at N` failed on every entry ("--at 120: the hsaco-asm of this entry
    has 0 lines"): the disassembly's module had no line count, which `--at` is checked against."""
    from pathlib import Path

    from tritonscope.artifacts import tools

    if not tools.llvm_objdumps():
        pytest.skip("no llvm-objdump")
    (entry,) = (Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "aiter").glob("RN73H7HS*")
    doc = run_json(cli, str(entry), "--stage", "hsaco-asm", "--at", "120")
    (m,) = doc["matches"]
    assert (m["lineno"], m["op"], m["source_line"]) == (120, "buffer_load_dwordx4", 107), m
    proc = cli("map", str(entry), "--stage", "hsaco-asm", "--at", "100000")
    assert proc.returncode == 2 and "--at 100000: the hsaco-asm of this entry has" in proc.stderr
    assert "has 0 lines" not in proc.stderr


def test_an_op_with_no_location_has_a_null_source_line(cli, cache32):
    """Helper 69: docs/json-map.md says `source_line` is null for an op with no location; ops of no location
    at all (`chain: []`, the 3.2 AMD kernel's `s_trap 2` of its argument-preload header) had no key."""
    entry = next(p for p in cache32.iterdir() if p.name.startswith("1wrDKqG"))
    doc = run_json(cli, str(entry), "--stage", "amdgcn", "--grep", "s_trap")
    (m,) = doc["matches"]
    assert m["chain"] == [] and "source_line" in m and m["source_line"] is None and m["source_text"] is None, m


def test_triton_32s_argument_preload_header_is_no_op(cli, cache32):
    """Helper 69: Triton 3.2 starts an AMD kernel with `s_trap 2` and `.fill 63, 4, 0xbf800000` (63 s_nop up to
    +0x100, where firmware that preloads the arguments starts the kernel): llvm-objdump prints the 63 as ops of
    the function, and every 3.2 gfx942/gfx90a entry's hsaco-asm counted 63 ops more than its AMDGCN (add_kernel
    32 of 98 attributed). Never executed: left out, as a branch over padding is."""
    from tritonscope.artifacts import tools

    if not tools.llvm_objdumps():
        pytest.skip("no llvm-objdump")
    entry = next(p for p in cache32.iterdir() if p.name.startswith("DxlJ3mxury"))
    doc = run_json(cli, str(entry), "--stats")
    stages = {s["stage"]: s for s in doc["kernels"][0]["stages"]}
    assert (stages["hsaco-asm"]["ops"], stages["hsaco-asm"]["attributed"]) == (
        stages["amdgcn"]["ops"], stages["amdgcn"]["attributed"]) == (35, 32), stages
