"""`loads` on real kernels of fifteen libraries this project did not write (liger-kernel, flash-linear-
attention, torchao, gemlite, mamba-ssm, FlagGems, vLLM, bitsandbytes, lightning-attn via xformers'
recording), recorded on an H100 with Triton 3.6 (tests/data/thirdparty-h100-triton3.6), and fbgemm-gpu-genai,
lmdeploy (a Gluon GEMM among them), flashinfer, unsloth and DeepSpeed on an H200, SGLang on an H100
(tests/data/thirdparty-h200-triton3.6), AMD's aiter cross-compiled for gfx942 and gfx950, Transformer Engine
and SageAttention cross-compiled for cuda:90 (tests/data/thirdparty-cuda90-triton3.9): every
access gets a verdict, every global access joins SASS, instructions that LLVM moved to another line or merged are
found and say so, ptxas' `@!PT` padding is no access, spills are listed and flagged in `ls`."""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import pytest

from tritonscope.artifacts import tools
from tritonscope.artifacts.cache import Cache
from tritonscope.loads.analyze import analyze_entry
from tritonscope.loads.model import AccessRow
from tritonscope.loads.reclaim import relocate, removed
from tritonscope.stages import memops
from tritonscope.stages.common import Op

DATA = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6"
FBGEMM = Path(__file__).parent / "data" / "thirdparty-h200-triton3.6" / "fbgemm"
LMDEPLOY = FBGEMM.parent / "lmdeploy"
FLASHINFER = FBGEMM.parent / "flashinfer"
LIBS = ("liger", "fla", "torchao", "gemlite", "mamba", "flaggems", "vllm", "bitsandbytes", "xformers", "triton_kernels",
        "torch_sparse", "colossalai")
H200_LIBS = ("fbgemm", "lmdeploy", "flashinfer", "unsloth", "deepspeed", "sglang", "cce")
GLOBAL = ("global_load", "global_store", "atomic", "async_copy", "tma_load", "tma_store")
needs_nvdisasm = pytest.mark.skipif(tools.find_nvidia_tool("nvdisasm") is None, reason="no nvdisasm")


def _entry(lib: str, prefix: str):
    (entry,) = [e for e in Cache(DATA / lib).kernels() if e.hash.startswith(prefix)]
    return entry


def _rows(report, line: int, op: str) -> list:
    return [r for r in report.rows if r.line == line and r.op == op]


@needs_nvdisasm
def test_sweep_every_access_answered_and_joined():
    verdicts: collections.Counter = collections.Counter()
    joined = total = 0
    cuda90 = Path(__file__).parent / "data" / "thirdparty-cuda90-triton3.9"
    for root in [DATA / lib for lib in LIBS] + [FBGEMM.parent / lib for lib in H200_LIBS] + \
            [cuda90 / lib for lib in ("transformer_engine", "sageattention")]:
        for entry in Cache(root).kernels():
            report = analyze_entry(entry)
            assert "sass" in report.stages, (entry.name, report.notes)
            for row in report.rows:
                verdicts[row.verdict] += 1
                if row.kind in GLOBAL:
                    total += 1  # (one whose instructions serve another access's too has none of its own)
                    joined += bool(sum(row.counts("sass").values())) or bool(row.ambiguous.get("sass")) or \
                        any(r.code in ("cse", "merged-arms") for r in row.reasons) or \
                        any(c.code == "removed" for c in row.count_changes)  # (none left anywhere)
    assert sum(verdicts.values()) > 80
    assert verdicts["unknown"] == 0, verdicts
    assert joined == total >= 50


@needs_nvdisasm
def test_int8_operand_moved_to_the_dot_line():
    """torchao int8 matmul: LLIR loads the B operand on line 153 (`b = tl.load(...)`), PTX and SASS put
    those 8 `ld.shared.b8` on 155:33 (the tl.dot). They are found there, with a `relocated` reason."""
    report = analyze_entry(_entry("torchao", "23YZV6A7"))
    (row,) = _rows(report, 153, "ttg.local_load")
    assert row.stages["llir"] == {"load i8": 8}
    assert row.stages["ptx"] == {"ld.shared.b8": 8}
    assert row.stages["sass"] == {"LDS.U8": 8}
    assert row.verdict == "scalar" and row.attribution == "moved"
    codes = [c.code for c in row.count_changes]
    assert codes == ["relocated", "relocated"]
    assert "line 155:33" in row.count_changes[0].evidence
    assert not any(u["line"] == 155 and u["kind"] == "shared_load" for u in report.unattributed)


@needs_nvdisasm
def test_never_executed_padding_is_no_access():
    """ptxas pads after LDGSTS with `@!PT LDS RZ, [RZ]`: guarded by not-true, they load nothing. The
    ldmatrix row of line 152 has exactly its one LDSM, no `split` into 13."""
    report = analyze_entry(_entry("torchao", "23YZV6A7"))
    (row,) = _rows(report, 152, "ttg.local_load")
    assert row.stages["sass"] == {"LDSM.16.M88.4": 1} and row.count_changes == []
    op = Op(1, "LDS", "/*0950*/ @!PT LDS RZ, [RZ] ;")
    assert memops.classify("sass", op) is None
    assert memops.classify("sass", Op(1, "LDS", "/*0950*/ @!P1 LDS R2, [R3] ;")).kind == "shared_load"


@needs_nvdisasm
def test_several_accesses_moved_to_one_line():
    """fla chunk_bwd_kernel_dv_local: the loads, shared stores and ldmatrix of lines 525 and 526 all sit
    on 529:24 (the dot) in PTX; each row gets back its own count."""
    report = analyze_entry(_entry("fla", "AERLDAO7"))
    for line, ldmatrix in ((525, 8), (526, 16)):
        (load,) = _rows(report, line, "tt.load")
        assert load.stages["ptx"] == {"ld.global.v4.b32": 8} and load.verdict == "as-predicted"
        (local,) = _rows(report, line, "ttg.local_load")
        assert sum(local.stages["ptx"].values()) == ldmatrix
        assert all(c.code == "relocated" for c in load.count_changes if c.code != "split")


@needs_nvdisasm
def test_common_subexpression_takes_the_partners_verdict():
    """fla chunk_fwd_kernel_h: 140:35 and 141:40 both `local_load` %b_gk_last_179; LLVM kept one set of
    loads (on 140:35). 141:40 has no instruction of its own and says whose it shares."""
    report = analyze_entry(_entry("fla", "2W2UK4VH"))
    (row,) = [r for r in _rows(report, 141, "ttg.local_load") if r.col == 40]
    (partner,) = _rows(report, 140, "ttg.local_load")
    assert row.stages == {} and row.verdict == partner.verdict == "scalar"
    assert [r.code for r in row.reasons] == ["cse"] and "140:35" in row.reasons[0].evidence
    assert row.to_json("ptx")["reasons"] == ["cse"]


@needs_nvdisasm
def test_dot_operand_lowered_at_its_use():
    """fla chunk_gla_bwd_kernel_intra: the f32 dot operand of line 530 is loaded by LLIR on 532:38, the
    tl.dot's line, 8 x 4 bytes = its 8 elements per thread."""
    report = analyze_entry(_entry("fla", "45KWYMF4"))
    (row,) = _rows(report, 530, "ttg.local_load")
    assert row.stages["llir"] == {"load i32": 8}
    (at_use,) = [c for c in row.count_changes if c.code == "at-use"]
    assert "532:38" in at_use.evidence
    # PTX re-vectorized them: 4 x ld.shared.v2.b32 on the same line, found by their bytes
    assert row.stages["ptx"] == {"ld.shared.v2.b32": 4} and row.verdict == "as-predicted"


@needs_nvdisasm
def test_dot_operand_with_repeated_registers_lowered_at_its_use():
    """vLLM's packed-int4 paged attention (_attn_packed): line 606's 16x16 f32 tile goes through shared
    memory to a tf32 `mma` operand whose layout (warps along N) has a zero register basis: 16 registers, 8
    distinct elements. LLVM loads each element once, 8 x 4 bytes, on the dot's line 608:30; PTX makes them
    2 x ld.shared.v4.b32. Found there by the distinct registers' bytes (not the 16 registers' 64)."""
    report = analyze_entry(_entry("vllm", "NZYWWBMS57"))
    (row,) = _rows(report, 606, "ttg.local_load")
    assert (row.elements_per_thread, row.distinct_per_thread) == (16, 8)
    assert row.stages["llir"] == {"load i32": 8}
    (at_use,) = [c for c in row.count_changes if c.code == "at-use"]
    assert "608:30" in at_use.evidence and "8 x 4 bytes" in at_use.evidence
    assert "16 registers hold 8 distinct elements, each 2 times" in at_use.evidence
    assert row.stages["ptx"] == {"ld.shared.v4.b32": 2}
    assert row.stages["sass"] == {"LDS.128": 2} and row.verdict == "as-predicted"


@needs_nvdisasm
def test_spills_listed_with_lines_and_flagged_in_ls(cli):
    entry = _entry("torchao", "T6S5IHSI")
    report = analyze_entry(entry)
    spills = [(s["stage"], s["line"], s["instruction"], s["count"]) for s in report.spills]
    assert spills == [("sass", 111, "STL", 1), ("sass", 146, "LDL.LU", 1)]
    assert entry.local_bytes == 8
    out = cli("ls", "--cache-dir", str(DATA / "torchao"))
    assert out.returncode == 0
    flagged = [line for line in out.stdout.splitlines() if "spills:" in line]
    assert len(flagged) == 1 and "spills:8B" in flagged[0] and "T6S5IHSI" in flagged[0]
    listing = json.loads(cli("ls", "--cache-dir", str(DATA / "torchao"), "--json").stdout)
    assert sorted(e["local_bytes"] for e in listing["entries"]) == [0, 8]
    # the table lists each spill once, under `spills`: the list of instructions of no access repeated them
    # (helper 88: ~40 spill lines twice, burying the epilogue's layout conversion); JSON keeps both lists
    text = cli("loads", str(entry.path)).stdout
    assert [line.split()[-5:-3] for line in text.splitlines() if " STL" in line or " LDL" in line] == \
        [["1x", "STL,"], ["1x", "LDL.LU,"]]
    assert "memory instructions of no access (layout conversions, reductions, arguments):" in text
    assert any(u["form"] == "STL" for u in json.loads(cli("loads", str(entry.path), "--json").stdout)["unattributed"])


@needs_nvdisasm
def test_tma_and_wgmma_kernel():
    """liger's LigerMLP forward: TMA loads (UTMALDG) feeding warp_group_dot; each TMA row as-predicted."""
    entry = _entry("liger", "MHPEY66N")
    assert "warp_group_dot" in entry.stage_path("ttgir").read_text()
    report = analyze_entry(entry)
    tma = [r for r in report.rows if r.kind == "tma_load"]
    assert tma and all(r.verdict == "as-predicted" for r in tma)
    assert all(any(f.startswith("UTMALDG") for f in r.counts("sass")) for r in tma)


@needs_nvdisasm
def test_wgmma_operands_read_from_shared_memory():
    """The same kernel's two warp_group_dot: A and B are memdescs, read by wgmma through descriptors. Each
    gets a row that says so, with its wgmma (PTX) and HGMMA (SASS) instructions, not `unknown`."""
    report = analyze_entry(_entry("liger", "MHPEY66N"))
    mma = [r for r in report.rows if r.kind == "mma_shared"]
    assert [(r.line, r.op) for r in mma] == [(117, "ttng.warp_group_dot"), (119, "ttng.warp_group_dot")]
    for r in mma:
        assert r.verdict == "as-predicted" and r.shape == (64, 128) and r.dtype == "bf16"
        assert r.prediction_note.startswith("A and B read by the MMA straight from shared memory")
        # (the table shows each operand's shape: the row's own is B's, which alone read as the MMA's, helper 89;
        # A's layout, another than B's, is named beside it: helper 97)
        assert r.sites[0].mma_shapes == "A 64x64 shared1, B 64x128" and r.layout == "shared3"
        assert r.stages["llir"] == r.stages["ptx"] == {"wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16": 4}
        assert r.stages["sass"] == {"HGMMA.64x64x16.F32.BF16": 4}
    # the line table puts one HGMMA of line 119 on 114:38 (the PTX line after its inline-asm block)
    (moved,) = [c for c in mma[1].count_changes if c.code == "relocated"]
    assert "1 of its MMA instructions sit on 114:38" in moved.evidence
    assert not [c for c in mma[1].count_changes if c.code == "merged"]
    assert not [u for u in report.unattributed if u["kind"] == "mma"]
    # an MMA on registers (mma.sync) is no shared access: no row, nothing unattributed
    int8 = analyze_entry(_entry("torchao", "23YZV6A7"))
    assert not [r for r in int8.rows if r.kind == "mma_shared"]
    assert not [u for u in int8.unattributed if u["kind"] == "mma"]


@needs_nvdisasm
def test_helper_calls_scheduled_together_keep_their_lines():
    """gemlite's GEMMs load through `load_ptr` and dequantize through helpers of its utils.py; the
    software pipeliner interleaves those calls, so their DWARF ranges overlap and span most of the
    kernel. The `.loc` comments' chains (Triton 3.4-3.8) put each instruction on its call: every access's
    LLIR, PTX and SASS counts agree, none is merged, split, relocated or unmatched (before: 104 PTX
    cp.async on line 408 for 40 in LLIR, 16 on 410 for 80, the B operand's 16 ldmatrix on line 408)."""
    for prefix, lines in (("2LVMWLFPTN", {408, 410, 420, 436, 452, 494}),
                          ("2BZ2DJ3BND", {431, 441, 449, 454, 457, 518})):
        report = analyze_entry(_entry("gemlite", prefix))
        assert {r.line for r in report.rows} == lines
        for r in report.rows:
            assert sum(r.counts("llir").values()) == sum(r.counts("ptx").values()) == \
                sum(r.counts("sass").values()) > 0, (r.line, r.op, r.stages)
            # (452's dot operand: 32 registers, 4 distinct elements, loaded once each: `distinct-only`)
            assert [c.code for c in r.count_changes] == (["distinct-only"] if r.line == 452 else [])
            assert not r.ambiguous and r.verdict != "unknown"
    ldmatrix = [r for r in analyze_entry(_entry("gemlite", "2LVMWLFPTN")).rows if r.line == 436]
    assert ldmatrix[0].sites[0].op.loc.describe() == "utils.py:93:17 @ gemm_kernels.py:436:110"


def test_reasons_read_the_right_definitions_and_factors():
    """fla's intra-chunk GLA backward defines `%b_dA_107` in two sibling regions: line 543's load uses the
    first (an address stepping by H*BT = 256 elements per row: `strided`), not the later one. mamba's
    chunk cumsum steps by `stride_dt_seqlen` along its contiguous dim: `runtime-stride`, and no alignment
    blame (no alignment would make those elements adjacent)."""
    fla = analyze_entry(_entry("fla", "45KWYMF4"))
    (row,) = _rows(fla, 543, "tt.load")
    assert [r.code for r in row.reasons] == ["strided", "one-per-thread", "layout-contiguity-1"]
    assert "256 elements (1024 bytes) apart" in row.reasons[0].evidence
    mamba = analyze_entry(_entry("mamba", "CLZL6L7T"))
    (row,) = _rows(mamba, 72, "tt.load")
    assert [r.code for r in row.reasons] == ["runtime-stride", "one-per-thread", "layout-contiguity-1"]
    assert "stride_dt_seqlen" in row.reasons[0].evidence


def test_helper_accesses_labelled_where_they_were_written(cli):
    """FlagGems' unique kernel does all its work in `global_quick_unique_flat_impl`, a helper of the same
    file inlined at line 340: each access is labelled with its own line (before: five rows all `340:12`)
    and `--line` of a helper's line finds it. gemlite's accesses are written in utils.py: `--file`."""
    report = analyze_entry(_entry("flaggems", "L4CU3ANCYE"))
    assert [r.where for r in report.rows] == ["282:27 @ 340:12", "284:27 @ 340:12", "301:31 @ 340:12",
                                              "290:35 @ 340:12", "302:44 @ 340:12"]
    assert {r.line for r in report.rows} == {340}  # still the kernel's line that called the helper
    doc = json.loads(cli("loads", "L4CU3ANCYE", "--cache-dir", str(DATA / "flaggems"), "--line", "290",
                         "--no-sass", "--json").stdout)
    (row,) = doc["rows"]
    assert row["op"] == "tt.store" and row["line"] == 340
    assert row["written_at"] == {"file": "/packages/flag_gems/ops/unique.py", "line": 290, "col": 35}
    gemlite = ("loads", "2LVMWLFPTN", "--cache-dir", str(DATA / "gemlite"), "--no-sass")
    text = cli(*gemlite, "--file", "utils.py", "--line", "24").stdout
    assert text.count("utils.py:24:23 @ 408:50") == 2 and text.count("utils.py:24:23 @ 410:46") == 1
    none = cli(*gemlite, "--file", "utils.py", "--line", "25")
    assert none.returncode == 0 and "no load or store of the kernel's on line 25 of utils.py" in none.stdout
    bad = cli(*gemlite, "--file", "nope.py", "--line", "1")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "nope.py" in bad.stderr


def test_a_value_loaded_once_and_scaled_by_whole_vectors_is_no_gather():
    """vLLM's packed attention offsets its query tile by `query_start * query_stride_0`, the start loaded once
    for the whole tile and the stride divisible by 16: the base moves by whole vectors, the layout alone
    limits the width (before: `gather`, "no contiguity or alignment can be proven")."""
    report = analyze_entry(_entry("vllm", "NZYWWBMS57"))
    (row,) = _rows(report, 442, "tt.load")
    assert [x.code for x in row.reasons] == ["layout-contiguity-1"] and not row.gather


def test_no_alignment_blame_through_a_comparison():
    """FlagGems' radix sort scatters to `out_ptr + pid_m * N + pos`, pos a cumsum of `digit == bin` plus a
    loaded count: a gather. `bit_offset` reaches the address only through that comparison, so no
    divisibility of it could align anything (before: `unknown-alignment` named it)."""
    report = analyze_entry(_entry("flaggems", "RJRBVL3I2R"))
    for r in _rows(report, 239, "tt.store") + _rows(report, 241, "tt.store"):
        assert [x.code for x in r.reasons] == ["gather", "layout-contiguity-1"], r.reasons
    # the loads below a reduction still make the address data-dependent: unique's output offset is
    # `total + r`, total a tl.sum of loaded tile sums
    unique = analyze_entry(_entry("flaggems", "L4CU3ANCYE"))
    (row,) = [r for r in unique.rows if r.op == "tt.store" and r.sites[0].op.loc.line == 302]
    assert [x.code for x in row.reasons] == ["gather", "one-per-thread", "layout-contiguity-1"]


def test_a_tensor_one_element_wide_along_its_layouts_fastest_dim():
    """Where the layout's fastest dim is one the tensor is 1 element wide along, the dim its elements run
    along decides. FlagGems' generated `where` kernel loads 1x256 tiles through block pointers whose
    inner stride is a runtime argument (before: only layout-contiguity-1, about dim 0); its layer-norm
    weight backward loads a 128x1 column by `rows * N` (a runtime stride), and the means, adjacent in
    memory, in a layout running along the 1-element dim."""
    where = analyze_entry(_entry("flaggems", "2QEBBLSYPK"))
    (row,) = _rows(where, 104, "tt.load")
    assert [x.code for x in row.reasons] == ["runtime-stride", "layout-contiguity-1"]
    assert row.reasons[0].evidence.startswith("along dim 1 the address steps by in0_stride1 per element")
    assert "along dim 0, where the 1x256 tensor is 1 element wide (its elements run along dim 1):" \
        in row.reasons[1].evidence
    norm = analyze_entry(_entry("flaggems", "MD3NXLX5UD"))
    (dy,) = _rows(norm, 318, "tt.load")
    assert [x.code for x in dy.reasons] == ["runtime-stride", "one-per-thread", "layout-contiguity-1"]
    assert "along dim 0 the address steps by N per element" in dy.reasons[0].evidence
    (mean,) = _rows(norm, 320, "tt.load")
    assert [x.code for x in mean.reasons] == ["one-per-thread", "layout-contiguity-1"]
    assert "(its elements run along dim 0, adjacent in memory)" in mean.reasons[1].evidence


def test_stores_of_two_branch_arms_merged_into_one():
    """mamba's state passing stores the new states to `out` or, in the last chunk, to `final_states`:
    LLVM sank the two stores of the `scf.if` arms into one (82:31). Line 84 has no instruction of its
    own; it says so and takes 82's verdict, nothing counted twice."""
    report = analyze_entry(_entry("mamba", "3OVJPT2K"))
    (kept,) = _rows(report, 82, "tt.store")
    (merged,) = _rows(report, 84, "tt.store")
    assert kept.counts("ptx") == {"st.global.v2.b32": 1} and kept.counts("sass") == {"STG.E.64": 8}
    assert not merged.stages
    assert merged.verdict == kept.verdict == "as-predicted"
    assert [r.code for r in merged.reasons] == ["merged-arms"] and "at 82:31" in merged.reasons[0].evidence


def _row(line: int, llir: dict, widths: dict) -> AccessRow:
    return AccessRow(file="k.py", line=line, col=1, chain=f"k.py:{line}:1", op="ttg.local_load",
                     kind="shared_load", instances=1, shape=(16,), dtype="i8", element_bits=8, layout=None,
                     layout_text=None, mask=False, other=False, eviction=None, cache=None,
                     stages={"llir": llir}, widths={"llir": widths})


def test_relocation_needs_a_unique_exact_match():
    """Two lines each holding 8 unclaimed 1-byte shared loads: which one is the row's is not provable."""
    def unattributed(*lines):
        return [{"stage": "ptx", "line": n, "col": 3, "kind": "shared_load", "form": "ld.shared.b8", "count": 8,
                 "bytes": 1} for n in lines]

    row = _row(10, {"load i8": 8}, {"load i8": 1})
    pool = unattributed(20, 30)
    relocate("ptx", [row], pool)
    assert "ptx" not in row.stages and len(pool) == 2
    row = _row(10, {"load i8": 8}, {"load i8": 1})
    pool = unattributed(20)
    pool[0]["count"] = 7  # not the row's count
    relocate("ptx", [row], pool)
    assert "ptx" not in row.stages
    pool = unattributed(20)
    relocate("ptx", [row], pool)
    assert row.stages["ptx"] == {"ld.shared.b8": 8} and pool == [] and row.relocations[0].code == "relocated"


@needs_nvdisasm
def test_a_load_in_a_loop_ptxas_unrolled():
    """bitsandbytes' 8-bit blockwise Adam quantizes its new states by an 8-step binary search over the
    256-entry code table (`for _ in range(8): val = tl.load(code_ptr + pivot)`): PTX keeps the loop, 4
    loads per iteration; ptxas unrolls it, 29 LDG.E of the same width: `unrolled`, not a vector cut."""
    report = analyze_entry(_entry("bitsandbytes", "S46ZDKMNKG"))
    searches = [r for r in report.rows if r.line == 1028 and "kernels_8bit_quant.py:159:" in r.chain]
    (row,) = searches
    assert row.counts("ptx") == {"ld.global.b32": 4} and row.counts("sass") == {"LDG.E": 29}
    (unrolled,) = [c for c in row.count_changes if c.code == "unrolled"]
    assert "runs 8 times per launch" in unrolled.evidence and "8 x 4 = 32 at most" in unrolled.evidence
    assert not [c for c in row.count_changes if c.code == "split"]
    # the loads after the loop (line 165) keep their 4 instructions
    (after,) = [r for r in report.rows if r.line == 1028 and "kernels_8bit_quant.py:165:" in r.chain]
    assert after.counts("sass") == {"LDG.E": 4} and not after.count_changes


@needs_nvdisasm
def test_torch_sparse_bsr_matmul_spills_and_scatter_gathers(cli):
    """torch's own block-sparse kernels (torch.sparse._triton_ops, torch 2.11): the fp32 BSR x dense matmul
    at 64x64 blocks spills 8 bytes, stored at the accumulation (2558) and reloaded at the output store
    (2617), its block tiles read by 16-byte vectors; scatter_mm6 gathers its fp16 rows through loaded
    offsets (a 1-element-wide layout), 4 scalar loads and stores a thread."""
    entry = _entry("torch_sparse", "XOKMY5CC")
    report = analyze_entry(entry)
    assert entry.local_bytes == 8
    assert [(s["stage"], s["line"], s["instruction"], s["count"]) for s in report.spills] == [
        ("sass", 2558, "STL", 1), ("sass", 2617, "STL", 1), ("sass", 2617, "LDL.LU", 1)]
    rows = {(r.line, r.kind): r for r in report.rows if r.kind in GLOBAL}
    for key in ((2559, "global_load"), (2565, "global_load"), (2617, "global_store")):
        assert rows[key].verdict == "as-predicted" and sum(rows[key].counts("sass").values()) == 8, key
    assert rows[(2510, "global_load")].verdict == "scalar"  # the block's row pointer
    out = cli("ls", "--cache-dir", str(DATA / "torch_sparse"))
    assert [ln.split()[2] for ln in out.stdout.splitlines() if "spills:8B" in ln] == ["XOKMY5CCFB"]
    scatter = analyze_entry(_entry("torch_sparse", "E7FSP6TC"))
    gathers = [(r.line, r.kind, r.verdict, dict(r.counts("sass"))) for r in scatter.rows
               if any(q.code == "gather" for q in r.reasons)]
    assert gathers == [(2266, "global_load", "scalar", {"LDG.E.U16": 4}),
                       (2295, "global_store", "scalar", {"STG.E.U16": 4})]


@needs_nvdisasm
def test_colossalai_paged_context_attention_loop_unrolled_by_ptxas():
    """ColossalAI's paged context attention (context_attn_unpad.py, its own tests on the H100): the
    sequence's offset is summed by `for i in range(0, cur_seq_idx): tl.load(context_lengths + i)`, a loop
    of run-time trip count that PTX keeps (1 load) and ptxas unrolls (8 LDG.E, as wide): `unrolled`, not
    a vector cut. Its K/V tiles come in by cp.async (LDGSTS.E.64) and go to the dots by ldmatrix, the V
    tile's transposed."""
    report = _report(DATA / "colossalai", "3SLXGC72")
    (row,) = [r for r in report.rows if r.line == 249]
    assert row.counts("ptx") == {"ld.global.b32": 1} and row.counts("sass") == {"LDG.E": 8}
    assert [c.code for c in row.count_changes] == ["unrolled"]
    assert "trip count is known only at run time" in row.count_changes[0].evidence
    (first,) = [r for r in report.rows if r.line == 241]  # (the same load before the loop: once)
    assert first.counts("sass") == {"LDG.E": 1} and first.count_changes == []
    copies = [(r.line, r.counts("sass"), r.verdict) for r in report.rows if r.kind == "async_copy"]
    assert copies == [(309, {"LDGSTS.E.64": 3}, "as-predicted"), (323, {"LDGSTS.E.64": 3}, "as-predicted")]
    (trans,) = [r for r in report.rows if r.line == 323 and r.kind == "shared_load"]
    assert trans.counts("sass") == {"LDSM.16.MT88.2": 1}
    assert {r.verdict for r in report.rows} == {"as-predicted", "scalar"}


@needs_nvdisasm
def test_dot_operand_loads_moved_to_the_dots_column():
    """lightning-attn's backward (lightning_attn2.py line 393: `tl.dot(q_trans, ...)`): LLIR loads the
    operand on 393:44 (its local_load), PTX puts those 16 `ld.shared.b32` on 393:59, the dot's column, where
    no shared load is claimed: found there (`relocated`), then ptxas doubles them unrolling the loop."""
    report = analyze_entry(_entry("xformers", "YFDNCOBXAZ"))
    (row,) = _rows(report, 393, "ttg.local_load")
    assert row.counts("llir") == {"load float": 16} and row.counts("ptx") == {"ld.shared.b32": 16}
    (moved,) = [c for c in row.count_changes if c.code == "relocated"]
    assert "sit on line 393:59" in moved.evidence and moved.evidence.startswith("ptx: none of its instructions")
    (unrolled,) = [c for c in row.count_changes if c.code == "unrolled"]
    assert unrolled.evidence.startswith("16 ptx instructions, 32 in sass")


def test_unrolled_only_between_adjacent_stages():
    """LLIR 16, PTX none, SASS 32 inside a loop of 32: what happened in between is unknown, so `split`, not
    `unrolled` (which would claim that ptxas doubled what PTX held)."""
    from tritonscope.loads.verdict import explain_counts

    row = _row(10, {"load float": 16}, {"load float": 4})
    row.stages["sass"], row.widths["sass"] = {"LDS": 32}, {"LDS": 4}
    explain_counts(row, ["llir", "ptx", "sass"], trips=32)
    assert [c.code for c in row.count_changes] == ["split"]
    row.stages["ptx"], row.widths["ptx"] = {"ld.shared.b32": 16}, {"ld.shared.b32": 4}
    explain_counts(row, ["llir", "ptx", "sass"], trips=32)
    assert [c.code for c in row.count_changes] == ["unrolled"]


@needs_nvdisasm
def test_a_load_ptxas_removed_explained_between_the_stages(cli):
    """`loads --explain` walks the stages and then says why the counts changed between them."""
    r = cli("loads", "_tq_decode_stage1", "--cache-dir", str(DATA / "vllm"), "--explain", "185")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    at = lines.index("  SASS: nothing attributed to this access")
    assert lines[at + 1] == "  between the stages:"
    assert lines[at + 2].startswith("    removed: sass: none of its 16 ptx")


@needs_nvdisasm
def test_a_load_ptxas_removed():
    """vLLM's TurboQuant decode (_tq_decode_stage1) reads a 16-bit code as two bytes, lines 180 and 185,
    then shifts by 0 or 4 and masks 4 bits: the high byte (185) never matters. LLVM and PTX keep its 16
    loads; ptxas emits none, and no SASS global load is left over anywhere: `removed`, not unknown."""
    report = analyze_entry(_entry("vllm", "BMENN4NH2U"))
    (low,) = _rows(report, 180, "tt.load")
    (high,) = _rows(report, 185, "tt.load")
    assert low.counts("sass") == {"LDG.E.U8": 16}
    assert high.counts("ptx") == {"ld.global.b8": 16} and not high.counts("sass")
    (gone,) = [c for c in high.count_changes if c.code == "removed"]
    assert gone.evidence.startswith("sass: none of its 16 ptx instructions")
    assert "ptxas emitted nothing" in gone.evidence
    assert high.attribution == "exact" and high.verdict == "scalar"


def test_removal_needs_every_instruction_of_the_kind_accounted_for():
    """No `removed` while an instruction of the row's kind is unclaimed, or while another access moves
    more bytes than the stage before (the row's loads may have been merged into its instructions)."""
    def rows():
        gone, other = _row(10, {"load i8": 8}, {"load i8": 1}), _row(20, {"load i8": 8}, {"load i8": 1})
        other.stages["ptx"], other.widths["ptx"] = {"ld.shared.b8": 8}, {"ld.shared.b8": 1}
        return gone, other

    gone, other = rows()
    removed("ptx", [gone, other], [{"stage": "ptx", "line": 0, "col": 0, "kind": "shared_load",
                                     "form": "ld.shared.b8", "count": 1, "bytes": 1}])
    assert not gone.relocations
    gone, other = rows()
    other.stages["ptx"], other.widths["ptx"] = {"ld.shared.b16": 8}, {"ld.shared.b16": 2}  # 16 bytes: a merge?
    removed("ptx", [gone, other], [])
    assert not gone.relocations
    gone, other = rows()
    removed("ptx", [gone, other], [])
    assert [c.code for c in gone.relocations] == ["removed"] and not other.relocations


def test_a_moved_row_is_followed_to_its_line_first():
    """LLIR's loads of a row were found on line 20 (at-use); PTX re-vectorized them there (4 x 8 bytes)
    while line 30 holds the same 32 bytes too: the row's own line wins, no ambiguity."""
    row = _row(10, {"load i32": 8}, {"load i32": 4})
    row.moved_to["llir"] = 20
    pool = [{"stage": "ptx", "line": n, "col": 3, "kind": "shared_load", "form": form, "count": c, "bytes": b}
            for n, form, c, b in ((20, "ld.shared.v2.b32", 4, 8), (30, "ld.shared.v4.b32", 2, 16))]
    relocate("ptx", [row], pool)
    assert row.stages["ptx"] == {"ld.shared.v2.b32": 4} and [u["line"] for u in pool] == [30]
    assert "re-vectorized" in row.relocations[0].evidence


def test_rows_of_one_position_follow_the_instructions_the_llir_gave_them():
    """Two local_loads at one position (mamba3's 547:26): LLIR gave one its 4 ldmatrix and left 32 scalar
    loads shared between both. In PTX an ldmatrix goes to the first, the 4 `ld.shared.v4.b32` that LLVM
    made of the scalar loads to the other (before: both to the first, the second 'no-isa-match')."""
    from tritonscope.loads.join import _choose
    from tritonscope.loads.sites import AccessSite
    from tritonscope.stages.common import SourceLoc
    from tritonscope.stages.memops import MemAccess

    def site(n: int) -> AccessSite:
        op = Op(n, "ttg.local_load", "%x = ttg.local_load %m", SourceLoc("k.py", 547, 1), "k")
        return AccessSite(op=op, kind="shared_load", shape=(64, 64), dtype="bf16", element_bits=16, layout=None,
                          layout_name=None, mask=None, other=None, eviction=None, cache=None, address=[])

    matrix = _row(547, {"ldmatrix.sync.aligned.m8n8.x4.b16.p3": 4}, {"ldmatrix.sync.aligned.m8n8.x4.b16.p3": 16})
    matrix.ambiguous = {"llir": {"load bfloat": 32}}
    scalar = _row(547, {}, {"load bfloat": 2})
    scalar.stages, scalar.ambiguous = {}, {"llir": {"load bfloat": 32}}
    matrix.predicted_vector_bytes, scalar.predicted_vector_bytes = 16, 4
    matrix.sites, scalar.sites = [site(10)], [site(11)]
    for form, width, want in (("ldmatrix.sync.aligned.m8n8.x4.shared.b16", 16, matrix),
                              ("ld.shared.v4.b32", 16, scalar)):
        found, level = _choose("ptx", MemAccess("shared_load", form, width), (("k.py", 547, 1),), 547, 1,
                               [matrix, scalar])
        assert (found, level) == ([want], "exact")


def test_amd_flash_attention_cross_compiled_for_gfx942():
    """flash-attn's Triton flash attention for AMD, cross-compiled here for gfx942 (no GPU): buffer
    loads and stores, LDS traffic of the dot operands; the accesses `_attn_fwd_inner` (a helper of the
    same file, inlined at 419 and 449) wrote carry its lines; every row has an ISA verdict."""
    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "flashattn"
    (entry,) = Cache(cache).kernels()
    report = analyze_entry(entry)
    assert entry.target.backend == "hip" and report.isa_stage == "amdgcn"
    assert collections.Counter(r.verdict for r in report.rows) == {"as-predicted": 17, "scalar": 7}
    assert collections.Counter(r.kind for r in report.rows) == {"shared_load": 7, "shared_store": 7,
                                                               "buffer_store": 5, "buffer_load": 5}
    inner = [r for r in report.rows if r.written is not None]
    assert len(inner) == 16 and {r.line for r in inner} == {419, 449} and inner[0].where.endswith("@ 419:25")
    for r in report.rows:
        if r.verdict == "scalar" and r.kind.startswith("shared"):
            assert [x.code for x in r.reasons] == ["shared-layout"], (r.where, r.reasons)


@needs_nvdisasm
def test_sglang_gluon_decode_attention_arms_merged_by_ptxas():
    """SGLang's Blackwell Gluon decode attention (tests/data/thirdparty-cuda100-triton3.9): its helper
    `_load_v4` is called in both arms of `if t < KT` with another cache pointer. PTX keeps both copies,
    ptxas merges them into one set of LDGs placed on the first call: the second arm's five accesses are
    `merged-arms` naming their twin (not `removed`: their loads do run), with its verdict."""
    cache = Path(__file__).parent / "data" / "thirdparty-cuda100-triton3.9" / "sglang"
    (entry,) = Cache(cache).kernels()
    report = analyze_entry(entry)
    assert entry.language == "gluon" and report.stages == ["llir", "ptx", "sass"]
    assert all(r.verdict != "unknown" for r in report.rows)
    merged = [r for r in report.rows if any(c.code == "merged-arms" for c in r.count_changes)]
    assert sorted(r.where for r in merged) == ["127:18", "128:15", "50:12 @ 130:14", "52:16 @ 130:14",
                                               "63:12 @ 130:14"]
    for r in merged:
        twin = r.combined_with
        assert twin is not None and twin.line in (111, 112, 114) and twin.written == r.written
        assert sum(twin.counts("sass").values()) > 0 and not r.counts("sass")
        assert r.counts("ptx") == twin.counts("ptx") and r.verdict == twin.verdict
        (reason,) = [c for c in r.count_changes if c.code == "merged-arms"]
        assert f"at {twin.where} with the same ptx instructions" in reason.evidence
    assert not any(c.code == "removed" for r in report.rows for c in r.count_changes)
    tmem = [r for r in report.rows if r.kind == "tmem_load"]
    assert len(tmem) == 2 and all(r.verdict == "as-predicted" for r in tmem)


def test_sglang_gluon_on_gfx950_scalar_loads_are_no_lane_copies():
    """The gfx950 twin (tests/data/thirdparty-gfx950-triton3.9): the gathered bf16 RoPE tail of the second
    `_load_v4` call is 64 two-byte `global_load_ushort`s per lane, all of its LLIR bytes; the
    `s_load_dwordx4` on the same line reads that arm's kernel arguments. The access is scalar (2 of 16
    bytes), as in the first arm, and the scalar load, an argument's, is listed as no access's."""
    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "sglang"
    (entry,) = [e for e in Cache(cache).kernels() if e.name == "partial_gluon"]
    report = analyze_entry(entry)
    assert entry.language == "gluon" and report.isa_stage == "amdgcn"
    tails = [r for r in report.rows if r.written is not None and r.written[1:] == (63, 12)]
    assert [r.line for r in tails] == [58, 74]
    for r in tails:
        assert r.counts("amdgcn") == {"global_load_ushort": 64} and r.verdict == "scalar", (r.where, r.stages)
    # that s_load reads the kernel-argument segment (its base is the segment's pointer, s[0:1]): no row's
    assert tails[1].other_forms["amdgcn"]["s_load_dwordx4"] == 1
    # the scalar (0-d) loads of `length` keep their s_load_dword: one address for the wavefront is theirs
    assert [r.counts("amdgcn") for r in report.rows if r.shape == ()] == [{"s_load_dword": 1}] * 2


def test_vllm_gluon_decode_on_gfx950_async_lds_copies_and_transposed_reads():
    """vLLM's relative-position decode attention in Gluon for gfx950 (tests/data/thirdparty-gfx950-triton3.9):
    every access is written in a method of its `@gluon.aggregate` program, labelled by the method's line
    at the kernel's call; the async copies into LDS, the transposed LDS reads and the buffer accesses each
    join AMDGCN; the kernel arguments' scalar loads on an access's line are no access's."""
    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "vllm"
    (entry,) = Cache(cache).kernels()
    report = analyze_entry(entry)
    assert entry.language == "gluon" and report.isa_stage == "amdgcn"
    assert all(r.written is not None and r.verdict != "unknown" for r in report.rows)
    by_kind = collections.defaultdict(list)
    for r in report.rows:
        by_kind[r.kind].append(r.counts("amdgcn"))
    assert by_kind["async_copy"] == [{"global_load_lds_dwordx4": 16}] * 2
    assert {"ds_read_b64_tr_b16": 32} in by_kind["shared_load"]
    assert by_kind["buffer_store"] == [{"buffer_store_dwordx4": 8}, {"buffer_store_dword": 4}]
    (q,) = [r for r in report.rows if r.kind == "buffer_load" and r.verdict == "as-predicted"]
    assert q.counts("amdgcn") == {"buffer_load_dwordx4": 4} and not q.count_changes
    assert q.other_forms["amdgcn"] == {"s_load_dwordx2": 1}  # a kernel argument read on Q's line


def test_sglang_gluon_helper_kept_as_a_function_in_ttgir_runs_once_per_call():
    """SGLang's gfx950 compact attention (tests/data/thirdparty-gfx950-triton3.9/sglang): its TTGIR keeps
    `_load_compact` as private functions (`tt.call`, one variant per operand shape) that LLVM inlines. Each
    buffer load in it is one access per call, its chain the call's: the main and the extra KV cache's
    data bytes (16-byte loads) and scale bytes (1-byte loads), labelled by every call in between. The
    256-wide variant no call reaches has no access; before, its three loads stood unjoined and the four
    calls' instructions were given to the index load on the calls' lines."""
    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "sglang"
    (entry,) = [e for e in Cache(cache).kernels() if e.name == "_compact_attention_kernel"]
    report = analyze_entry(entry)
    assert all(r.verdict != "unknown" for r in report.rows) and len(report.rows) == 17
    helper = [r for r in report.rows if r.op == "amdg.buffer_load"]
    assert sorted(r.where for r in helper) == ["24:16 @ 72:13 @ 221:10 @ 297:29", "24:16 @ 72:13 @ 221:10 @ 313:43",
                                               "24:16 @ 81:15 @ 221:10 @ 297:29", "24:16 @ 81:15 @ 221:10 @ 313:43"]
    assert sorted(str(r.counts("amdgcn")) for r in helper) == [str({"buffer_load_dwordx4": 8})] * 2 + \
        [str({"buffer_load_ubyte": 8})] * 2
    assert all(r.attribution == "exact" for r in helper)
    index = [r for r in report.rows if r.written is not None and r.written[1:] == (219, 12)]
    assert [r.counts("amdgcn") for r in index] == [{"global_load_dword": 8}] * 2
    # the LLIR loads behind `br i1` at those calls are the index loads', not the helper's buffer loads at the
    # same call position: only the index rows count them (each row's own, by location and form)
    assert [r.llir_guarded for r in index] == [8, 8]
    assert all(r.llir_guarded == 0 and "branch" not in [x.code for x in r.reasons] for r in helper)
    # the V operand read by gfx950's transposing LDS read: 8 bytes a lane by design, not a masked branch; its
    # padded shared layout runs along the other dim, so a plain read could take one element: as predicted, the
    # read said (it was `narrower` than a 16-byte read the layout cannot give: helper 102)
    tr = [r for r in report.rows if r.written is not None and r.written[1:] == (152, 9)]
    assert tr and all(r.counts("amdgcn") == {"ds_read_b64_tr_b16": 32} and r.verdict == "as-predicted"
                      and r.predicted_vector_bytes == 2 and [x.code for x in r.reasons] == ["transposed-read"]
                      for r in tr)


AITER_942 = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "aiter"
def test_loads_of_two_arms_merged_into_one_on_no_line():
    """triton_kernels' SwiGLU cross-compiled for gfx950 (tests/data/thirdparty-gfx950-triton3.9/
    triton_kernels): `if ...: a = tl.load(A + offs, mask=m) else: a = tl.load(A + offs, mask=m & n)`, each
    arm computing the same address. LLVM merged the two buffer loads into one of the mask the condition
    selects, whose merged debug location is none: LLIR's 2 line-0 `raw.ptr.buffer.load <4 x i32>` are one
    arm's vectors; the first arm takes them (AMDGCN follows to line 0), the other is `merged-arms` with it.
    Before, both were `unknown`."""
    (entry,) = Cache(Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "triton_kernels").kernels()
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    first, other = rows["103:28"], rows["106:28"]
    assert first.counts("llir") == {"raw.ptr.buffer.load <4 x i32>": 2}
    assert first.counts("amdgcn") == {"buffer_load_dwordx4": 2} and first.verdict == "as-predicted"
    assert [c.code for c in first.count_changes] == ["unlocated", "unlocated"]
    assert not other.stages and other.verdict == "as-predicted" and [r.code for r in other.reasons] == ["merged-arms"]
    assert "loads from the same address at 103:28" in other.reasons[0].evidence
    assert not [u for u in report.unattributed if u["line"] == 0 and u["kind"] == "buffer_load"]


@needs_nvdisasm
def test_an_async_copy_into_fp4_padded_shared_memory_moves_8_bytes():
    """triton_kernels' fp8 x MXFP4 matmul cross-compiled for cuda:100 (tests/data/thirdparty-cuda100-
    triton3.9/triton_kernels): the packed fp4 weight tile is copied into an `fp4Padded` NVMMA layout, where
    each 8 bytes take 16 (tcgen05's padded operand format). 16 contiguous bytes a thread in registers, but
    8 contiguous in shared memory: `cp.async` of 8 bytes is what TTGIR allows (before: `narrower`,
    unexplained); the fp8 activation tile beside it, unpadded, takes 16."""
    (entry,) = [e for e in Cache(Path(__file__).parent / "data" / "thirdparty-cuda100-triton3.9" / "triton_kernels")
                .kernels() if e.hash.startswith("4UKE7DGT")]
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    weights, acts = rows["380:13"], rows["379:13"]
    assert weights.kind == "async_copy" and weights.contiguous_per_thread == 16
    assert weights.predicted_vector_bytes == 8 and "fp4Padded" in weights.prediction_note
    assert weights.counts("sass") == {"LDGSTS.E.64": 32} and weights.verdict == "as-predicted"
    assert acts.predicted_vector_bytes == 16 and acts.counts("sass") == {"LDGSTS.E.BYPASS.128": 16}
    assert "unknown" not in {r.verdict for r in report.rows}


@needs_nvdisasm
def test_tensor_memory_moves_keep_their_data_path_shape():
    """triton_kernels' persistent fp8 x MXFP4 matmul (its SwiGLU epilogue) for cuda:100, launched by upstream's
    Gluon MoE example (tests/data/thirdparty-cuda100-triton3.9/triton_kernels, M4OS33TB): at 422:31 the MX
    scales' `tmem_alloc` stores 16x32bx2 and the accumulator's `tmem_store` 32x32b. SASS spells the first as
    `STTM.16dp32bit` halves, which only that row's PTX shape can be (they were shared with the store); its
    one PTX move is two SASS instructions, and the count change says why."""
    (entry,) = [e for e in Cache(Path(__file__).parent / "data" / "thirdparty-cuda100-triton3.9" / "triton_kernels")
                .kernels() if e.hash.startswith("M4OS33TB")]
    report = analyze_entry(entry)
    rows = {(r.where, r.op): r for r in report.rows}
    scales, acc = rows[("422:31", "ttng.tmem_alloc")], rows[("422:31", "ttng.tmem_store")]
    assert scales.counts("ptx") == {"tcgen05.st.sync.aligned.16x32bx2.x1.b32": 1}
    assert scales.counts("sass") == {"STTM.16dp32bit_t0_t15": 1, "STTM.16dp32bit_t16_t31": 1}
    assert acc.counts("sass") == {"STTM.x32": 1} and not scales.ambiguous and not acc.ambiguous
    (split,) = scales.count_changes
    assert split.code == "split" and "threads 0-15 and one for threads 16-31" in split.evidence
    assert {r.attribution for r in report.rows} == {"exact"}
    assert rows[("422:70", "ttng.async_tma_gather")].counts("sass") == {"UTMALDG.2D.GATHER4": 2}


AITER_950 = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "aiter"


def _aiter(folder: Path, prefix: str):
    (entry,) = [e for e in Cache(folder).kernels() if e.hash.startswith(prefix)]
    return entry, analyze_entry(entry)


def test_aiter_gluon_blockscale_gemm_on_gfx950():
    """AMD's aiter (tests/data/thirdparty-gfx950-triton3.9/aiter): its Gluon fp8 GEMM with 128x128 block
    scales, compiled through aiter's own wrapper by Triton's JIT with no GPU (benchmarks/record_cross.py).
    Tiles move in 16-byte buffer loads and LDS writes; the per-block scales are one address per 128 rows,
    4-byte loads (`repeated-address`); two f32 reads of a scale vector are one `ds_read2_b32`, whose offsets
    (`offset0:128 offset1:160`) are 128 bytes apart: two 4-byte accesses the backend paired, not one 8-byte
    vector (it was counted as one, 8 bytes wide, and as-predicted)."""
    entry, report = _aiter(AITER_950, "L7SBF7EX")
    assert entry.language == "gluon" and report.isa_stage == "amdgcn"
    assert collections.Counter(r.verdict for r in report.rows) == {"as-predicted": 19, "scalar": 6}
    rows = {r.where: r for r in report.rows}
    # (gfx950 masks a buffer load by an out-of-range offset, no branch: the `br i1` before it is an `if`'s)
    assert [x.code for x in rows["226:19"].reasons] == ["repeated-address"] and rows["226:19"].llir_guarded == 0
    assert rows["226:19"].counts("amdgcn") == {"buffer_load_dword": 1}
    assert rows["212:17"].counts("amdgcn") == {"buffer_load_dwordx4": 4}
    assert rows["271:27"].counts("amdgcn") == {"ds_read2_b32": 1} and rows["271:27"].vector_bytes == 4
    assert rows["271:27"].verdict == "scalar" and [x.code for x in rows["271:27"].reasons] == ["layout-contiguity-1"]
    (change,) = rows["271:27"].count_changes
    assert change.code == "merged" and "two values at two addresses" in change.evidence
    assert rows["333:9"].counts("amdgcn") == {"buffer_store_dwordx4": 8}


def test_aiter_mla_decode_gathered_index_kept_in_three_layouts():
    """aiter's grouped MLA decode with RoPE, stage 1, for gfx942: the gathered KV index (213:22) is three TTGIR
    loads in three layouts, 1, 8 and 8 elements a thread, each element a 4-byte buffer load of its own (a
    gather): the 17 instructions they share are each row's own number. The output store: 32 4-byte stores in
    LLIR, 8 `buffer_store_dwordx3` and 8 `buffer_store_dword` in AMDGCN, narrower than the 16 bytes the layout
    allows for want of alignment; they sit in the block of the kernel's `if split_kv_end > split_kv_start`
    (a branch at that condition's position), no mask lowered to branches: no `branch` reason."""
    _, report = _aiter(AITER_942, "RN73H7HS")
    index = [r for r in report.rows if r.line == 213]
    assert [(r.elements_per_thread, r.attribution, r.counts("amdgcn")) for r in index] == [
        (1, "exact", {"buffer_load_dword": 1}), (8, "exact", {"buffer_load_dword": 8}),
        (8, "exact", {"buffer_load_dword": 8})]
    assert all(r.verdict == "scalar" and r.reasons[0].code == "gather" for r in index)
    (out,) = [r for r in report.rows if r.line == 291]
    assert out.verdict == "narrower" and out.vector_bytes == 12 and out.llir_guarded == 0
    assert out.counts("amdgcn") == {"buffer_store_dwordx3": 8, "buffer_store_dword": 8}
    assert [x.code for x in out.reasons] == ["unknown-alignment"]
    assert all(r.verdict != "unknown" and r.attribution == "exact" for r in report.rows)


def test_aiter_instructions_with_no_source_location_make_up_a_shortfall():
    """aiter's paged-attention decode for gfx950: the transposed V operand is 4 `ds.read.tr16.b64` in LLIR,
    2 `ds_read_b64_tr_b16` on its line in AMDGCN and 2 on no line (the backend dropped their location): they
    make up the row's shortfall (`unlocated`, not `merged`). The K operand's 4 LDS reads all sit on no line:
    found there too, and said so (not "moved next to their use")."""
    _, report = _aiter(AITER_950, "5K53DQMB")
    (v,) = [r for r in report.rows if r.line == 261 and r.kind == "shared_load"]
    assert v.counts("amdgcn") == {"ds_read_b64_tr_b16": 4} and v.attribution == "moved"
    (why,) = v.count_changes
    assert why.code == "unlocated" and "2 ds_read_b64_tr_b16 with no source location" in why.evidence
    (k,) = [r for r in report.rows if r.line == 207 and r.kind == "shared_load"]
    assert k.counts("amdgcn") == {"ds_read_b128": 4}
    assert [c.code for c in k.count_changes] == ["unlocated"] and "no source location" in k.count_changes[0].evidence
    assert not [u for u in report.unattributed if u["line"] == 0 and u["kind"] == "shared_load"]


def test_a_transposing_lds_read_wider_than_its_layout_is_a_reason_in_the_table(cli):
    """The same V operand: 8 bytes a lane where its layout's contiguity allows 2 (the shared layout runs
    along the other dim). The table showed `8/2  as-predicted  -`, its cause only in `--explain`'s verdict
    (helper 90): a `transposed-read` reason says it. `--explain` of a shared-memory access lists no kernel
    argument's alignment (the compiler allocates the buffer; every argument was listed, each with a sentence
    saying it adds no term to the address)."""
    entry, report = _aiter(AITER_950, "5K53DQMB")
    (v,) = [r for r in report.rows if r.line == 261 and r.kind == "shared_load"]
    assert (v.verdict, v.vector_bytes, v.predicted_vector_bytes) == ("as-predicted", 8, 2)
    (why,) = v.reasons
    assert why.code == "transposed-read" and "8 bytes a lane where the layout's contiguity allows 2" in why.evidence
    text = cli("loads", str(entry.path), "--explain", "261").stdout
    blocks = re.split(r"\n(?=\S)", text)
    (shared,) = [b for b in blocks if "one shared-memory load" in b.split("\n")[0]]
    assert "wider than the 2 the layout's contiguity allows)" in shared and "transposed-read: ds_read_b64_tr" in shared
    assert "alignment the compiler had" not in shared
    assert any("alignment the compiler had" in b for b in blocks if "one shared-memory" not in b.split("\n")[0])


def test_aiter_scalar_loads_combined_into_one_s_load():
    """aiter's MLA decode stage 2 for gfx942: two scalar (0-d) i32 loads of one statement (333:25, 333:62) are
    one `s_load_dwordx2`: the second has none of its own and says it was combined into the first's."""
    _, report = _aiter(AITER_942, "GQVHB6VX")
    first, second = [r for r in report.rows if r.line == 333]
    assert first.counts("amdgcn") == {"s_load_dwordx2": 1} and not second.counts("amdgcn")
    assert second.combined_with is first and [c.code for c in second.count_changes] == ["combined"]
    # the 8-split loop, constant-bound, unrolled by LLVM: 8 runs of a 2 x f32 vector in 16 scalar loads
    (tv,) = [r for r in report.rows if r.line == 353]
    (why,) = tv.count_changes
    assert why.code == "unrolled" and "16 llir instructions move 64 B: 8 runs' bytes" in why.evidence


def _fbgemm(prefix: str):
    (entry,) = [e for e in Cache(FBGEMM).kernels() if e.hash.startswith(prefix)]
    return analyze_entry(entry)


@needs_nvdisasm
def test_fbgemm_grouped_fp8_gemm_its_qgmma_found():
    """fp8 wgmma is `QGMMA` in Hopper SASS (HGMMA is f16/bf16): the dot's two MMA instructions are found on
    the TMA loads' lines where the line table put them, not called removed by ptxas."""
    report = _fbgemm("4TR667TP")
    (dot,) = _rows(report, 710, "ttng.warp_group_dot")
    assert dot.counts("sass") == {"QGMMA.64x64x32.F32.E4M3.E4M3": 2}
    assert [c.code for c in dot.count_changes] == ["relocated"] and dot.verdict == "as-predicted"
    tma = [r for r in report.rows if r.kind == "tma_load"]
    assert [(r.line, r.instances, r.counts("sass")) for r in tma] == [
        (706, 3, {"UTMALDG.2D": 3}), (708, 3, {"UTMALDG.2D": 3})]
    (scales,) = _rows(report, 737, "tt.load")  # the row scales, gathered through the loaded group sizes
    assert scales.verdict == "scalar" and [r.code for r in scales.reasons][:1] == ["gather"]
    assert {r.verdict for r in report.rows} <= {"as-predicted", "scalar"}


@needs_nvdisasm
def test_fbgemm_mx4_packed_output_is_strided_bytes():
    """MX4 writes each group's 16 packed bytes and its exponent 17 bytes apart: byte stores, for reasons."""
    report = _fbgemm("LX3JTBUJ")
    (load,) = _rows(report, 192, "tt.load")
    assert (load.verdict, load.vector_bytes, load.counts("sass")) == ("as-predicted", 16, {"LDG.E.128": 4})
    (exponents,) = _rows(report, 248, "tt.store")
    assert exponents.verdict == "scalar"
    assert [r.code for r in exponents.reasons] == ["strided", "one-per-thread", "layout-contiguity-1"]
    assert "17 elements (17 bytes) apart" in exponents.reasons[0].evidence


def _lmdeploy(prefix: str):
    (entry,) = [e for e in Cache(LMDEPLOY).kernels() if e.hash.startswith(prefix)]
    return analyze_entry(entry)


@needs_nvdisasm
def test_lmdeploy_load_rematerialized_in_two_layouts_shares_its_instructions():
    """lmdeploy's `_reduce_split_kernel`: Triton keeps `m_k = tl.load(...)` (612:18) as two TTGIR loads, in a
    slice layout (8 per thread, predicted 16-byte vectors, but the address steps by a runtime stride) and in
    a blocked one (1 per thread). The 9 four-byte loads fit either by width: not all given to the blocked row
    as its predicted width matched (a 1-element row with 9 loads). Each of them moves one element, and the
    rows' elements, 8 and 1, add up to 9: each row takes its own number."""
    rows = _rows(_lmdeploy("EQICVRLR"), 612, "tt.load")
    assert [(r.layout, r.attribution, r.counts("sass")) for r in rows] == [
        ("slice", "exact", {"LDG.E": 8}), ("blocked2", "exact", {"LDG.E": 1})]
    assert all(r.verdict == "scalar" and "runtime-stride" in [x.code for x in r.reasons] for r in rows)


def test_a_global_instruction_narrower_than_two_predictions_is_shared():
    """Rows of one position told apart by width: an instruction goes to the row predicting exactly its width
    only where no other row could issue it too (a wider prediction can always narrow)."""
    from tritonscope.loads.join import _choose
    from tritonscope.loads.sites import AccessSite
    from tritonscope.stages.common import SourceLoc
    from tritonscope.stages.memops import MemAccess

    wide, narrow = _row(612, {}, {}), _row(612, {}, {})
    wide.predicted_vector_bytes, narrow.predicted_vector_bytes = 16, 4
    key = (("k.py", 612, 18),)
    for n, r in enumerate((wide, narrow)):
        r.col, r.kind, r.op = 18, "global_load", "tt.load"
        op = Op(n, "tt.load", "%x = tt.load %p", SourceLoc("k.py", 612, 18), "k")
        r.sites = [AccessSite(op=op, kind="global_load", shape=(8,), dtype="f32", element_bits=32, layout=None,
                              layout_name=None, mask=None, other=None, eviction=None, cache=None, address=[])]
    for width, want in ((4, [wide, narrow]), (16, [wide])):
        found, _ = _choose("ptx", MemAccess("global_load", f"ld.global.b{width * 8}", width), key, 612, 18,
                           [wide, narrow])
        assert found == want, width


@needs_nvdisasm
def test_lmdeploy_gluon_fp8_gemm_for_hopper():
    """A library's hand-written Gluon GEMM: TMA loads and store, fp8 wgmma found as QGMMA, its scale helper's
    loads labelled by each of the three calls."""
    report = _lmdeploy("E7BARQYA")
    assert {r.verdict for r in report.rows} == {"as-predicted", "scalar"}
    dots = [r for r in report.rows if r.op == "ttng.warp_group_dot"]
    # (ptxas' line table put 6 and 10 of their 16 + 16 QGMMA on other lines: none merged, 32 in all)
    assert [(r.line, sum(r.counts("sass").values())) for r in dots] == [(306, 16), (332, 16)]
    assert [r.relocations[0].evidence.split(" of its")[0] for r in dots] == ["sass: 6", "sass: 10"]
    assert [r.where for r in report.rows if r.op == "tt.load" and r.shape == (64,)] == [
        "94:22 @ 200:8", "94:22 @ 315:16", "94:22 @ 341:12"]
    kinds = collections.Counter(r.kind for r in report.rows)
    assert (kinds["tma_load"], kinds["tma_store"]) == (4, 1)


@needs_nvdisasm
def test_flashinfer_gemm_with_descriptors_made_on_the_device():
    """flashinfer's persistent GEMM creates its TMA descriptors in the kernel: the copies through them join
    their UTMALDG/UTMASTG exactly, the descriptor writes are no access, the wgmma is found as HGMMA."""
    (entry,) = Cache(FLASHINFER).kernels()
    report = analyze_entry(entry)
    assert [(r.line, r.kind, r.instances, r.counts("sass")) for r in report.rows if r.kind.startswith("tma")] == [
        (193, "tma_load", 3, {"UTMALDG.2D": 3}), (194, "tma_load", 3, {"UTMALDG.2D": 3}),
        (218, "tma_load", 2, {"UTMALDG.2D": 2}), (221, "tma_store", 2, {"UTMASTG.2D": 2})]
    (dot,) = [r for r in report.rows if r.kind == "mma_shared"]
    assert dot.counts("sass") == {"HGMMA.64x128x16.F32.BF16": 4} and dot.verdict == "as-predicted"
    assert {r.verdict for r in report.rows} == {"as-predicted"}


UNSLOTH = FBGEMM.parent / "unsloth"
DEEPSPEED = FBGEMM.parent / "deepspeed"


def _report(folder: Path, prefix: str):
    (entry,) = [e for e in Cache(folder).kernels() if e.hash.startswith(prefix)]
    return analyze_entry(entry)


@needs_nvdisasm
def test_unsloth_nf4_codebook_gathered_in_a_helper_per_call():
    """unsloth's bitsandbytes-exact NF4 dequantization: the 16-entry codebook is read by a helper
    (`_nf4_lut`, line 63) at the two nibbles' calls, through indices loaded from the packed bytes: one row per
    call, each a gather of `evict_last` scalars (`LDG.E.EL`); the packed bytes in 16-byte vectors."""
    report = _report(UNSLOTH, "M22W7AVX")
    lut = [r for r in report.rows if r.line in (155, 158) and r.written and r.written[1] == 63]
    assert [(r.line, r.verdict, r.counts("sass")) for r in lut] == [
        (155, "scalar", {"LDG.E.EL": 16}), (158, "scalar", {"LDG.E.EL": 16})]
    assert all([x.code for x in r.reasons] == ["gather", "layout-contiguity-1"] for r in lut)
    (packed,) = _rows(report, 154, "tt.load")
    assert (packed.verdict, packed.vector_bytes, packed.counts("sass")) == ("as-predicted", 16, {"LDG.E.128": 1})


@needs_nvdisasm
def test_unsloth_int4_gemv_act_order_scales_and_zeros_gathered():
    """unsloth's packed-int4 decode GEMV (GPTQ words, act-order `g_idx`, packed zero points) unpacks through a
    helper of the same module: the words in 16-byte vectors; the scales and zero words gathered through the
    loaded group indices, which vary along K only: along N the scales step by a runtime stride, the zero
    words by one address per 8 elements."""
    report = _report(UNSLOTH, "BINQF67W")
    helper = {r.written[1]: r for r in report.rows if r.written}
    assert (helper[108].verdict, helper[108].counts("sass")) == ("as-predicted", {"LDG.E.128": 1})
    # (the gathered group index varies along K only: along N, the contiguous dim, the scales step by a
    # runtime stride, which is what keeps them apart)
    assert (helper[120].verdict, [x.code for x in helper[120].reasons]) == (
        "scalar", ["runtime-stride", "layout-contiguity-1"])
    # (the packed zero words: along N one i32 word per 8 int4 zero points, `n // 8`)
    assert [x.code for x in helper[123].reasons] == ["repeated-address", "layout-contiguity-1"]
    assert {r.verdict for r in report.rows} == {"as-predicted", "scalar"}


@needs_nvdisasm
def test_deepspeed_static_range_copies_are_unrolled_not_pipelined(cli):
    """DeepSpeed's expert-row restore reads a token's top-k slots in a `tl.static_range`: each load is written
    out twice in the same loop body. Those copies are `unrolled`, not a pipeline prologue (the explanation
    said so of every access with copies); the pipeliner's copies (gemlite's GEMM) are `pipelined-prologue`,
    a loop Triton compiled in two versions (flashinfer's) `copied`."""
    report = _report(DEEPSPEED, "J5EIEBDF")
    (slot,) = _rows(report, 68, "tt.load")
    assert (slot.instances, slot.copies, slot.counts("sass")) == (2, "unrolled", {"LDG.E": 2})
    (entry,) = [e for e in Cache(DEEPSPEED).kernels()]
    proc = cli("loads", str(entry.path), "--explain", "68")
    assert proc.returncode == 0, proc.stderr
    assert "(2 copies in TTGIR: written out in one block, as an unrolled tl.static_range or a Python loop does)" \
        in proc.stdout.splitlines()[1]
    pipelined = analyze_entry(_entry("gemlite", "2LVMWLFP"))
    (copy,) = [r for r in pipelined.rows if r.line == 420 and r.kind == "async_copy"]
    assert (copy.instances, copy.copies) == (5, "pipelined-prologue")
    (versions,) = [r for r in analyze_entry(Cache(FLASHINFER).kernels()[0]).rows
                   if r.kind == "tma_store"]
    assert (versions.instances, versions.copies) == (2, "copied")
    assert [r.copies for r in report.rows if r.instances == 1] == [None] * sum(r.instances == 1 for r in report.rows)


@needs_nvdisasm
def test_a_load_rematerialized_in_two_inline_layouts_is_two_rows():
    """FLA's `b_gn` load (chunk.py:516) is two TTGIR loads in two inline layouts: a slice of a dot operand
    (one f32 a thread) and a slice of a blocked layout (four contiguous f32). Both layouts are `#ttg.slice<...>`:
    rows were told apart by the layout's name only, so they were one row predicting 4 bytes that 'got' a 16-byte
    load. Now two rows, and the 4-byte load goes to the row still lacking its vector (the other row's 16-byte
    load is its whole prediction)."""
    report = analyze_entry(_entry("fla", "45KWYMF4"))
    rows = _rows(report, 516, "tt.load")
    assert [r.where for r in rows] == ["516:23 (ttgir:133)", "516:23 (ttgir:134)"]
    assert [(r.predicted_vector_bytes, r.counts("sass"), r.verdict, r.attribution) for r in rows] == [
        (4, {"LDG.E": 1}, "scalar", "exact"), (16, {"LDG.E.128": 1}, "as-predicted", "exact")]
    assert [r.layout_text.split(", parent = #ttg.")[1].split("<")[0] for r in rows] == ["dot_op", "blocked"]
    # two dot operands read at one position: the f32 one's own 4 `LDS` are all its vectors, so the shared
    # `LDSM.16.MT88.2` (a b16 ldmatrix) is the bf16 one's, its 4 elements' worth
    bf16, f32 = sorted(_rows(report, 528, "ttg.local_load"), key=lambda r: r.dtype)
    assert (bf16.dtype, f32.dtype) == ("bf16", "f32") and not bf16.ambiguous and not f32.ambiguous
    assert bf16.counts("sass") == {"LDSM.16.MT88.2": 1} and f32.counts("sass") == {"LDS": 4}


@needs_nvdisasm
def test_sglang_sparse_mla_index_loads_in_two_layouts_each_pipelined():
    """SGLang's DeepSeek sparse-MLA prefill loads each tile's top-k indices (line 93) in two
    layouts, slices of two blocked parents, each cloned by the pipeliner: two rows of two copies, each
    with its own loads (they were one row of four copies predicting 64 loads for 36); the KV rows those
    indices select are gathered with 16-byte async copies (a gathered row is still contiguous)."""
    report = _report(FBGEMM.parent / "sglang", "SVUJ66FW")
    rows = _rows(report, 93, "tt.load")
    assert [(r.instances, r.copies, r.elements_per_thread, r.counts("sass"), r.attribution) for r in rows] == [
        (2, "pipelined-prologue", 16, {"LDG.E": 32}, "exact"), (2, "pipelined-prologue", 2, {"LDG.E": 4}, "exact")]
    (kv,) = [r for r in report.rows if r.line == 100 and r.kind == "async_copy"]
    assert (kv.verdict, kv.counts("sass")) == ("as-predicted", {"LDGSTS.E.BYPASS.128": 32})
    assert {r.attribution for r in report.rows} == {"exact"}


@needs_nvdisasm
def test_an_i64_load_whose_high_half_no_use_reads():
    """Inductor's `to_copy` of cut-cross-entropy's int64 targets to int32 (`arith.trunci` on the loaded value):
    PTX loads 8 bytes an element, ptxas only the low 4 (SASS `LDG.E`). The row is scalar and says that SASS
    reads part of each element and why, before the reason the vector is not wider."""
    report = _report(FBGEMM.parent / "cce", "I7PYBENG")
    (row,) = _rows(report, 23, "tt.load")
    assert (row.dtype, row.counts("ptx"), row.counts("sass"), row.vector_bytes) == (
        "i64", {"ld.global.b64": 2}, {"LDG.E": 2}, 4)
    assert [r.code for r in row.reasons] == ["partial-element", "mask-on-contiguous-dim"]
    assert row.reasons[0].evidence.startswith("sass reads 4 of each i64 element's 8 bytes (ptx read 8)")


@needs_nvdisasm
def test_lmdeploy_dot_operands_at_one_position_told_apart_by_transposition():
    """lmdeploy's int8-KV decoding reads two dot operands at one position (pagedattention.py:464):
    LLIR holds the one's `ldmatrix.x1.trans` as its own and four `ldmatrix.x4` (not transposed) shared
    between both. An operand is read by ldmatrix of one transposition, so the x4s are the other's; they were
    given to the row with the `.trans` (a spurious split) and the other row had no instruction at all (the
    one `unknown` of the 2,383 third-party accesses)."""
    report = _lmdeploy("ZTN324TL")
    rows = _rows(report, 464, "ttg.local_load")
    assert [(r.where, r.counts("llir"), r.counts("sass"), r.verdict, r.attribution, r.count_changes) for r in rows] == [
        ("464:35 (ttgir:231)", {"ldmatrix.sync.aligned.m8n8.x1.trans.b16.p3": 2}, {"LDSM.16.MT88": 2},
         "as-predicted", "exact", []),
        ("464:35 (ttgir:237)", {"ldmatrix.sync.aligned.m8n8.x4.b16.p3": 4}, {"LDSM.16.M88.4": 4},
         "as-predicted", "exact", [])]
    assert "unknown" not in {r.verdict for r in report.rows}


@needs_nvdisasm
def test_a_one_element_register_run_is_not_blamed_on_the_shared_layout():
    """lmdeploy's decoding stores a 1x64 tile (sizePerThread [16, 1], order[0] = 0: one element a thread
    along its fastest dim, since the tile is one element wide there) into a shared layout that keeps dim 1
    contiguous. The register layout alone gives the 2-byte stores; the shared layout's "keeps dim 1
    contiguous, one element per shared access" used to be given as a second reason, which read as the
    cause (there, dim 1 is where this thread's 16 elements run)."""
    report = _lmdeploy("ZTN324TL")
    (row,) = [r for r in report.rows if r.line == 464 and r.kind == "shared_store"]
    assert row.contiguous_per_thread == 1 and row.verdict == "scalar"
    assert [r.code for r in row.reasons] == ["layout-contiguity-1"] and row.prediction_note is None
    assert "the 1x64 tensor is 1 element wide (its elements run along dim 1)" in row.reasons[0].evidence


def test_dot_operands_sharing_their_ldmatrix_take_their_registers_worth():
    """Both operands of a dot read at its position by ldmatrix alone, the LLIR instructions shared between
    them (fbgemm's block-scaled fp8 GEMM: 4 `ldmatrix.x4`, each operand 32 fp8 registers a thread, 2 each):
    when their registers, in instructions of that width, add up to the shared ones, each takes its own;
    a row that also reads some registers otherwise, or counts that do not add up (copies LLVM merged),
    stay shared."""
    from tritonscope.loads.join import settle_by_counts

    def operands(total: int, own: dict | None = None):
        rows = []
        for lineno in (146, 148):
            r = _row(1842, {}, {})
            r.col, r.elements_per_thread, r.predicted_vector_bytes, r.predicted_vectors_per_thread = 27, 32, 4, 8
            r.stages = {"llir": dict(own)} if own and lineno == 148 else {}
            r.widths = {"llir": {"ldmatrix.sync.aligned.m8n8.x4.b16.p3": 16, **{f: 4 for f in own or {}}}}
            r.ambiguous = {"llir": {"ldmatrix.sync.aligned.m8n8.x4.b16.p3": total}}
            rows.append(r)
        return rows

    rows = operands(4)
    settle_by_counts("llir", rows)
    assert [(r.stages, r.ambiguous) for r in rows] == [
        ({"llir": {"ldmatrix.sync.aligned.m8n8.x4.b16.p3": 2}}, {})] * 2
    for rows in (operands(2), operands(4, own={"load i32": 2})):
        settle_by_counts("llir", rows)
        assert all(r.ambiguous for r in rows)


@needs_nvdisasm
def test_inductor_convolution_template_unrolled_over_the_taps():
    """Inductor's Triton template for a 3x3 convolution (tests/data/inductor-cnn-h100-triton3.6): its input
    and weight tiles are loaded once per kernel tap, a constant 9-step loop ptxas unrolls (`unrolled`);
    the tiles reach wgmma through shared memory; the output leaves in 16-byte stores."""
    cache = Path(__file__).parent / "data" / "inductor-cnn-h100-triton3.6"
    (entry,) = [e for e in Cache(cache).kernels() if e.name == "triton_convolution2d"]
    report = analyze_entry(entry)
    assert "sass" in report.stages
    rows = {(r.where, r.kind): r for r in report.rows}
    assert all(r.verdict != "unknown" and r.attribution == "exact" for r in report.rows)
    taps = rows[("104:27", "global_load")]
    assert taps.counts("ptx") == {"ld.global.b16": 16} and taps.counts("sass") == {"LDG.E.U16": 27}
    (why,) = taps.count_changes
    assert why.code == "unrolled" and "runs 9 times per launch" in why.evidence
    assert rows[("111:32", "mma_shared")].counts("sass") == {"HGMMA.64x32x16.F32.BF16": 10}
    assert rows[("128:76", "global_store")].counts("sass") == {"STG.E.128": 4}


@needs_nvdisasm
def test_inductor_persistent_tma_matmul_template():
    """Inductor's persistent TMA matmul template (tests/data/inductor-decoder-h100-triton3.6): both operand
    tiles arrive by TMA, three pipelined copies each (one `UTMALDG.2D` a copy); wgmma reads them from shared
    memory, two of its four HGMMAs placed on the B load's line by ptxas' line table; 16-byte stores out."""
    (entry,) = Cache(Path(__file__).parent / "data" / "inductor-decoder-h100-triton3.6").kernels()
    report = analyze_entry(entry)
    assert entry.name == "triton_mm_persistent_tma" and entry.target.arch == "90"
    rows = {r.where: r for r in report.rows}
    for where in ("82:16", "86:16"):
        assert rows[where].kind == "tma_load" and rows[where].instances == 3
        assert rows[where].counts("sass") == {"UTMALDG.2D": 3}
    dot = rows["98:20"]
    assert dot.counts("sass") == {"HGMMA.64x128x16.F32.BF16": 4} and [c.code for c in dot.count_changes] == [
        "relocated"] and "86:16" in dot.count_changes[0].evidence
    assert rows["115:99"].counts("sass") == {"STG.E.128": 8}
    assert {r.verdict for r in report.rows} == {"as-predicted"}


@needs_nvdisasm
def test_copies_of_one_read_take_the_forms_whose_bytes_are_theirs():
    """triton_kernels' bf16 x MXFP4 matmul on an H100: the packed weight tile read from shared memory in two
    layouts at one position (348:20), 128 and 32 bytes a thread. Both are plain loads, so no family tells
    them apart: 128 `ld.shared.b8` and 8 `ld.shared.b32` (LLVM combined the second's 32 byte loads) are
    given each to the one copy whose bytes they are, the only such way; SASS likewise."""
    (entry,) = Cache(DATA / "triton_kernels").kernels()
    report = analyze_entry(entry)
    assert entry.name == "_matmul_NNT_bf16xbf16xmxfp4_16x256x128x1"
    wide, narrow = sorted(_rows(report, 348, "ttg.local_load"), key=lambda r: -r.elements_per_thread)
    assert (wide.elements_per_thread, narrow.elements_per_thread) == (128, 32)
    assert wide.counts("ptx") == {"ld.shared.b8": 128} and wide.counts("sass") == {"LDS.U8": 128}
    assert narrow.counts("ptx") == {"ld.shared.b32": 8} and narrow.counts("sass") == {"LDS": 8}
    assert not wide.ambiguous and not narrow.ambiguous
    assert {r.attribution for r in report.rows} == {"exact", "moved"}


@needs_nvdisasm
def test_inductor_flex_attention_backward_conversions_are_no_operand_reads():
    """Inductor's FlexAttention backward template (tests/data/inductor-flex-h100-triton3.6): at each call of
    its dQ/dK/dV helpers, the operand tiles' `local_load`s (plain `ldmatrix`, one `ldmatrix.trans`) and
    stores sit at one position with a layout conversion the helper wrote elsewhere (543:30, 725:29,
    750:52), whose own `ldmatrix.trans`/`ldmatrix` and `st.shared.v4` PTX gives to no access. SASS has the
    PTX's positions and follows it: `LDSM.16.MT88.4` is `ldmatrix.trans` only, and a conversion a helper
    wrote at 543:30 is no tile's the helper wrote at 811:23. Before, 20 rows shared the conversions'
    instructions (`ambiguous`), and one took two it did not issue."""
    (entry,) = Cache(Path(__file__).parent / "data" / "inductor-flex-h100-triton3.6").kernels()
    report = analyze_entry(entry)
    assert entry.name == "triton_flex_attention_backward"
    assert {r.attribution for r in report.rows} == {"exact"}
    assert {r.verdict for r in report.rows} == {"as-predicted", "scalar"}
    rows = {(r.where, r.op): r for r in report.rows}
    trans = rows[("811:23 @ 716:99 @ 610:12 @ 301:16", "ttg.local_load")]
    assert trans.counts("ptx") == {"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16": 2}
    assert trans.counts("sass") == {"LDSM.16.MT88.4": 2}
    for where in ("811:23 @ 467:105 @ 411:12 @ 209:12", "541:15 @ 209:12"):
        assert rows[(where, "ttg.local_load")].counts("sass") == {"LDSM.16.M88.4": rows[
            (where, "ttg.local_load")].counts("ptx")["ldmatrix.sync.aligned.m8n8.x4.shared.b16"]}
    assert rows[("811:23 @ 467:105 @ 411:12 @ 209:12", "ttg.local_alloc")].counts("sass") == {"STS.128": 2}
    # every instruction PTX left to no access, SASS leaves too: per line, kind and width
    def loose(stage):
        counts = collections.Counter()
        for u in report.unattributed:
            if u["stage"] == stage and u["kind"].startswith("shared"):
                counts[(u["line"], u["kind"], u["bytes"], "trans" in u["form"] or ".MT" in u["form"])] += u["count"]
        return counts
    assert loose("sass") == loose("ptx")
    assert loose("sass")[(301, "shared_store", 16, False)] == 4


CUDA90 = Path(__file__).parent / "data" / "thirdparty-cuda90-triton3.9"


def _cuda90(lib: str):
    (entry,) = Cache(CUDA90 / lib).kernels()
    return entry, analyze_entry(entry)


@needs_nvdisasm
def test_transformer_engine_permute_arms_merged_by_selecting_the_value():
    """Transformer Engine's MoE permute (tests/data/thirdparty-cuda90-triton3.9/transformer_engine): `if prob
    == 0.0: store(out, 0.0) else: store(out, inp)`, each arm recomputing the same address. LLVM keeps one
    store of a `select`ed value: the else arm (301:17) has no instruction and says so, with 299's verdict.
    LLVM also unswitched the token loop on `pid_h == 0` (`.us` blocks): every access in it is in LLIR
    twice, which says why; ptxas then unrolled that loop of run-time trip count (2 PTX stores, 9 SASS, none
    narrower)."""
    entry, report = _cuda90("transformer_engine")
    rows = {r.where: r for r in report.rows}
    kept, merged = rows["299:17"], rows["301:17"]
    assert kept.counts("llir") == {"st.global.b16": 2} and kept.counts("sass") == {"STG.E.U16": 9}
    assert not merged.stages and merged.verdict == kept.verdict == "scalar"
    assert [r.code for r in merged.reasons] == ["merged-arms"]
    assert "to the same address with the same mask at 299:17" in merged.reasons[0].evidence
    for where in ("272:19", "276:26", "292:20", "299:17"):
        assert [c.code for c in rows[where].count_changes] == ["unswitched", "unrolled"], where
    assert "`.us` blocks" in kept.count_changes[0].evidence
    assert "none narrower (no vector was cut)" in kept.count_changes[1].evidence and \
        "ptxas unrolled that loop" in kept.count_changes[1].evidence
    assert rows["261:11"].count_changes == []  # (before the loop: once)
    assert collections.Counter(r.verdict for r in report.rows) == {"scalar": 8}


def test_an_arm_storing_another_address_and_another_value_is_no_merge(tmp_path):
    """The merged-arms rule needs one of the two shared: the same stores writing different values to
    different addresses could not be one store of a selected operand, so the row stays unexplained."""
    src = next((CUDA90 / "transformer_engine").iterdir())
    dst = tmp_path / src.name
    dst.mkdir()
    for f in src.iterdir():
        data = f.read_bytes()
        if f.suffix == ".ttgir":  # the else arm's address from another offset: no longer the same value
            data = data.replace(b"%3 = tt.addptr %2, %output_off_20 : tensor<128x!tt.ptr<bf16>, #blocked>, "
                                b"tensor<128xi64, #blocked> loc(#loc32)",
                                b"%3 = tt.addptr %2, %input_off_8 : tensor<128x!tt.ptr<bf16>, #blocked>, "
                                b"tensor<128xi64, #blocked> loc(#loc32)")
            assert data.count(b"tt.addptr %2, %input_off_8") == 1
        (dst / f.name).write_bytes(data)
    (entry,) = Cache(dst).kernels()
    rows = {r.where: r for r in analyze_entry(entry, sass=False).rows}
    assert [r.code for r in rows["301:17"].reasons] != ["merged-arms"]
    assert rows["301:17"].verdict == "unknown"


@needs_nvdisasm
def test_sageattention_int8_and_f16_wgmma_of_one_call_line_told_apart_by_type():
    """SageAttention's int8 QK dot and f16 PV dot, both in `_attn_fwd_inner` inlined at 95:16: SASS knows
    that line only, and ptxas placed two of the four HGMMAs where the int8 dot's instructions are. An MMA's
    type names its dot in every stage (IGMMA is `wgmma...s32.s8.s8`, HGMMA `...f16.f16.f16`): each row gets
    its four, none ambiguous."""
    entry, report = _cuda90("sageattention")
    rows = {r.where: r for r in report.rows if r.op == "ttng.warp_group_dot"}
    assert rows["19:14 @ 95:16"].counts("sass") == {"IGMMA.64x64x32.S8.S8": 4}
    assert rows["33:16 @ 95:16"].counts("sass") == {"HGMMA.64x128x16.F16": 4}
    assert all(not r.ambiguous and r.count_changes == [] for r in rows.values())
    assert {r.attribution for r in report.rows} == {"exact"}


@needs_nvdisasm
def test_gptqmodel_group_index_in_two_layouts_each_read_by_one_family():
    """GPTQModel's packed-int4 GEMM on the H100 (tests/data/thirdparty-h100-triton3.6/gptqmodel, launched for
    real): `g_idx` loaded once into shared memory and read back in two slice layouts at 160:24, 2 and 1
    elements a thread, twice each (pipelined). The reads are 4 4-byte `ld.shared` and 2 `ldmatrix.x1` (4
    bytes a thread) held in common; Triton lowers one local_load by one method, and only the 1-element
    copy's bytes (2 x 4) fit the ldmatrix ones: each takes its family, in every stage."""
    (entry,) = Cache(DATA / "gptqmodel").kernels()
    report = analyze_entry(entry)
    reads = [r for r in report.rows if (r.line, r.col) == (160, 24) and r.op == "ttg.local_load"]
    assert [(r.elements_per_thread, r.instances) for r in reads] == [(2, 2), (1, 2)]
    two, one = reads
    assert (two.counts("llir"), two.counts("ptx"), two.counts("sass")) == (
        {"load i32": 4}, {"ld.shared.b32": 4}, {"LDS": 4})
    assert (one.counts("llir"), one.counts("ptx"), one.counts("sass")) == (
        {"ldmatrix.sync.aligned.m8n8.x1.b16.p3": 2}, {"ldmatrix.sync.aligned.m8n8.x1.shared.b16": 2},
        {"LDSM.16.M88": 2})
    assert not two.ambiguous and not one.ambiguous
    assert {r.attribution for r in report.rows} <= {"exact", "moved"}


def test_family_settling_needs_one_fitting_assignment():
    """`settle_by_family` gives each copy of one shared access one family's instructions only where the bytes
    leave one way: two copies of equal need (either could be the ldmatrix one) stay ambiguous."""
    from tritonscope.loads.join import settle_by_family

    def copy(elements: int) -> AccessRow:
        r = AccessRow(file="k.py", line=160, col=24, chain="k.py:160:24", op="ttg.local_load", kind="shared_load",
                      instances=2, shape=(32,), dtype="i32", element_bits=32, layout=None, layout_text=None,
                      mask=False, other=False, eviction=None, cache=None, elements_per_thread=elements)
        r.ambiguous = {"llir": {"load i32": 4, "ldmatrix.sync.aligned.m8n8.x1.b16.p3": 2}}
        r.widths = {"llir": {"load i32": 4, "ldmatrix.sync.aligned.m8n8.x1.b16.p3": 4}}
        return r

    two, one = copy(2), copy(1)
    settle_by_family("llir", [two, one])
    assert two.stages == {"llir": {"load i32": 4}}
    assert one.stages == {"llir": {"ldmatrix.sync.aligned.m8n8.x1.b16.p3": 2}}
    assert not two.ambiguous and not one.ambiguous
    a, b = copy(1), copy(1)
    for r in (a, b):  # 3 x 4 bytes a copy: the two families move 16 and 8
        r.instances = 3
    settle_by_family("llir", [a, b])
    assert a.ambiguous and b.ambiguous and not a.stages and not b.stages


GFX942 = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "transformer_engine"


def _gfx942_te(prefix: str):
    (entry,) = [e for e in Cache(GFX942).kernels() if e.hash.startswith(prefix)]
    return analyze_entry(entry)


def test_transformer_engine_early_return_stores_sunk_into_one_of_no_line():
    """Transformer Engine's cross entropy on gfx942: `if y == ignore_idx: store(loss, 0.0); return` (64:9)
    and `store(loss, ...)` (77:5) are the two successors of one `cf.cond_br`, each computing the address
    `loss_ptr + row` itself. LLVM sinks them into one store with no source line (line 0), in LLIR and in
    AMDGCN: 64:9 takes it, 77:5 is merged-arms with it. The line-0 store is no other access's: the stats
    store at 60:5, whose 4 bytes the backend combined into 61:5's `global_store_dwordx2`, says so instead
    of taking it."""
    rows = {r.where: r for r in _gfx942_te("MRMSTJ35").rows}
    first, second = rows["64:9"], rows["77:5"]
    assert first.counts("llir") == {"store <1 x float>": 1} and first.counts("amdgcn") == {"global_store_dword": 1}
    assert [c.code for c in first.relocations] == ["unlocated", "unlocated"] and first.verdict == "scalar"
    assert "at 77:5" in first.relocations[0].evidence and "sank" in first.relocations[0].evidence
    assert not second.stages and [r.code for r in second.reasons] == ["merged-arms"]
    assert "cf.cond_br" in second.reasons[0].evidence and "at 64:9" in second.reasons[0].evidence
    assert rows["60:5"].counts("amdgcn") == {} and [c.code for c in rows["60:5"].count_changes] == ["combined"]
    assert rows["61:5"].counts("amdgcn") == {"global_store_dwordx2": 1}
    assert all(r.verdict != "unknown" for r in rows.values())


def test_transformer_engine_permute_buffer_stores_of_two_arms_merged_on_gfx942():
    """The MoE permute's arms on gfx942 store by `amdg.buffer_store %value, %base[%offsets], %mask`: one base
    and offsets computed alike in each arm, the value selected."""
    rows = {r.where: r for r in _gfx942_te("FR5PV5RD").rows}
    kept, merged = rows["299:17"], rows["301:17"]
    assert kept.op == merged.op == "amdg.buffer_store" and kept.counts("amdgcn")
    assert not merged.stages and [r.code for r in merged.reasons] == ["merged-arms"]
    assert "to the same address with the same mask at 299:17" in merged.reasons[0].evidence


GFX942_OLDER = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.5-3.7" / "transformer_engine"


def test_two_loads_relocated_by_the_line_that_uses_one():
    """Transformer Engine's chunk sort for gfx942 by Triton 3.5.1: the `row_id_map` load (618:26) and the
    probability load (631:27), both 4-byte scalar loads, have no AMDGCN instruction on their lines; one
    `global_load_dword` sits on 633:61, the store of the loaded probability, and one `s_load_dword` on no
    line. Counts alone fit either to either; the store uses the probability: it is 631's, 618 takes line 0."""
    (entry,) = [e for e in Cache(GFX942_OLDER).kernels() if e.hash.startswith("EZ6SNSE6")]
    rows = {r.where: r for r in analyze_entry(entry).rows}
    assert rows["631:27"].counts("amdgcn") == {"global_load_dword": 1}
    assert [c.code for c in rows["631:27"].relocations] == ["relocated"]
    assert "633:61" in rows["631:27"].relocations[0].evidence
    assert rows["618:26"].counts("amdgcn") == {"s_load_dword": 1}
    assert [c.code for c in rows["618:26"].relocations] == ["unlocated"]
    assert all(r.verdict != "unknown" for r in rows.values())


def test_adjacent_scalar_loads_combined_into_one_instruction_of_no_line():
    """Transformer Engine's cross entropy backward for gfx942 by Triton 3.7: `m` and `d` (222:16, 223:16),
    loads of `stats + 2 * row` and `+ 1`, have no AMDGCN instruction; the one unclaimed `s_load_dwordx2`, on
    no line, moves their 8 bytes. The lower address's row takes it, the other is combined with it."""
    (entry,) = [e for e in Cache(GFX942_OLDER).kernels() if e.hash.startswith("Z67Y76UK")]
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    m, d = rows["222:16"], rows["223:16"]
    assert m.counts("amdgcn") == {"s_load_dwordx2": 1} and [c.code for c in m.relocations] == ["unlocated"]
    assert not d.counts("amdgcn") and d.combined_with is m and [c.code for c in d.count_changes] == ["combined"]
    assert m.verdict == d.verdict == "scalar"
    assert all(r.verdict != "unknown" for r in report.rows)


TORCHTITAN_942 = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "torchtitan"


def test_adjacent_tensor_loads_of_one_element_a_thread_combined_into_one_instruction():
    """torchtitan's fused MLA RoPE for gfx942 (`_fused_q_rope_kernel`): cos and sin (141:11, 146:11) are 1x32
    f32 buffer loads at `rope_cache[cache_base + pair]` and `[cache_base + (pair + 1)]`, one element a thread
    each in one layout. Neither has an AMDGCN instruction of its own: the one unclaimed `buffer_load_dwordx2`,
    on no line, moves each thread's two. The lower offset's row takes it, the other is combined with it; each
    moves one element of its own, so both are `scalar`."""
    (entry,) = Cache(TORCHTITAN_942).kernels()
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    cos, sin = rows["141:11"], rows["146:11"]
    assert cos.op == sin.op == "amdg.buffer_load" and cos.distinct_per_thread == sin.distinct_per_thread == 1
    assert cos.counts("amdgcn") == {"buffer_load_dwordx2": 1} and [c.code for c in cos.relocations] == ["unlocated"]
    assert "1 beside it of 146:11" in cos.relocations[0].evidence
    assert not sin.counts("amdgcn") and sin.combined_with is cos and [c.code for c in sin.count_changes] == ["combined"]
    assert cos.verdict == sin.verdict == "scalar"
    assert all(r.verdict != "unknown" for r in report.rows)


def test_adjacent_tensor_loads_combined_instruction_by_instruction():
    """The same RoPE kernel as Triton 3.5.1 compiles it for gfx942 (no buffer ops; two elements a thread,
    one contiguous): q_even (130:8) and q_odd (135:8) at `q + 2 * pair` and its broadcast `+ 1`, cos and sin
    (142:8, 147:8) at `cache + base` and `+ 1`. q_odd and sin have no AMDGCN instruction; q_even's two
    instructions each grew from 2 to 4 bytes, cos's from 4 to 8: each thread's i-th element of the one lies
    right after its i-th of the other, inside that instruction. Two accesses gained, so only the addresses
    tell which went where."""
    (entry,) = Cache(GFX942_OLDER.parent / "torchtitan").kernels()
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    assert rows["130:8"].counts("amdgcn") == {"global_load_dword": 2}
    assert rows["142:8"].counts("amdgcn") == {"global_load_dwordx2": 2}
    for missing, partner in (("135:8", "130:8"), ("147:8", "142:8")):
        r = rows[missing]
        assert not r.counts("amdgcn") and r.combined_with is rows[partner]
        assert [c.code for c in r.count_changes] == ["combined"] and f"{partner} tt.load" in r.count_changes[0].evidence
    assert all(r.verdict != "unknown" for r in report.rows)


MINFERENCE_90 = Path(__file__).parent / "data" / "thirdparty-cuda90-triton3.8" / "minference"


@needs_nvdisasm
def test_hopper_mmas_of_one_type_told_apart_by_shape():
    """MInference's StreamingLLM attention (`_attn_fwd`, block pointers) by Triton 3.8 for sm_90: the QK dot
    (65:15, m64n64k16) and the PV dot (107:16, m64n128k16), both f16 and both inlined from `_attn_fwd_inner`
    at 226:21, which SASS knows by that line only. SASS's `HGMMA.64x64x16` and `HGMMA.64x128x16` name the
    shape: each goes to the dot whose PTX MMAs have it, none is shared."""
    (entry,) = Cache(MINFERENCE_90).kernels()
    rows = {r.where: r for r in analyze_entry(entry).rows if r.kind == "mma_shared"}
    qk, pv = rows["65:15 @ 226:21"], rows["107:16 @ 226:21"]
    assert qk.counts("ptx") == {"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16": 8}
    assert pv.counts("ptx") == {"wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16": 4}
    assert qk.counts("sass") == {"HGMMA.64x64x16.F32": 8} and pv.counts("sass") == {"HGMMA.64x128x16.F32": 4}
    assert not qk.ambiguous and not pv.ambiguous and not qk.count_changes and not pv.count_changes


@needs_nvdisasm
def test_a_copy_whose_own_instructions_hold_its_vectors_takes_none_of_the_shared_ones():
    """An Inductor batch-norm backward reduction of the CNN (H100, Triton 3.6): a 2x1 f32 load at 30:35 kept
    in three layouts. The 8-byte copy has its own `LDG.E.EL.64`; the other two, one distinct element a thread
    each (the second's two registers repeat one), share two `LDG.E.EL` in SASS, which knows the line only.
    Each takes its distinct element's; the 8-byte copy takes none (the same as at 29:35, 31:35 and 32:35,
    where the third layout is absent)."""
    cache = Path(__file__).parent / "data" / "inductor-cnn-h100-triton3.6"
    (entry,) = [e for e in Cache(cache).kernels() if e.hash.startswith("HNRUZAGF")]
    rows = {r.where: r for r in analyze_entry(entry).rows}
    vector, repeated, single = rows["30:35 (ttgir:94)"], rows["30:35 (ttgir:95)"], rows["30:35 (ttgir:96)"]
    assert vector.counts("sass") == {"LDG.E.EL.64": 1} and not vector.ambiguous
    assert repeated.counts("sass") == {"LDG.E.EL": 1} and single.counts("sass") == {"LDG.E.EL": 1}
    assert not repeated.ambiguous and not single.ambiguous
    assert [c.code for c in repeated.count_changes] == ["merged-identical-address"]


def _combined_into(rows: dict, low, wheres: tuple[str, ...]) -> None:
    """Each of `wheres` has no AMDGCN instruction of its own and is `combined` with `low`."""
    for where in wheres:
        r = rows[where]
        assert not r.counts("amdgcn") and r.combined_with is low
        assert [c.code for c in r.count_changes if c.code != "distinct-only"] == ["combined"]


def _combined_run(entry, low_where: str, instructions: dict, code: str, evidence: str, others: tuple[str, ...]):
    """A run of loads the backend combined: the lowest address's row holds `instructions` in AMDGCN, moved
    there by `code` (its evidence saying `evidence`), the `others` are combined with it, and no row of the
    kernel is left unknown. Returns the rows by position and that row."""
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    low = rows[low_where]
    assert low.counts("amdgcn") == instructions and [c.code for c in low.relocations] == [code]
    assert evidence in low.relocations[0].evidence
    _combined_into(rows, low, others)
    assert all(r.verdict != "unknown" for r in report.rows)
    return rows, low


def test_adjacent_tensor_loads_combined_instruction_by_instruction_on_no_line():
    """Conch's BEV pooling for gfx942 (`_bev_pool_kernel`): a point's x, y, z and batch index (113:14 to
    116:14) are four 64x1 i32 buffer loads at `geom + 0` to `+ 3`, eight elements a thread each, one
    instruction an element. None has an AMDGCN instruction of its own; the 8 unclaimed `buffer_load_dwordx4`,
    on no line, move each thread's i-th element of all four. The lowest address's row takes them, the other
    three are combined with it."""
    (entry,) = Cache(Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "conch").kernels()
    others = ("114:14", "115:14", "116:14")
    rows, x = _combined_run(entry, "113:14", {"buffer_load_dwordx4": 8}, "unlocated",
                            "the 8 unclaimed buffer_load_dwordx4 (16 bytes each", others)
    assert {rows[w].verdict for w in others} == {x.verdict}


CONCH_OLDER = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.5-3.7" / "conch"


def test_combined_scalar_loads_proven_by_address_beside_an_unclaimed_instruction():
    """Conch's NMS for gfx942 by Triton 3.7 (`_create_iou_mask_kernel`, 64-box blocks): a box's x1, y1, x2,
    y2 (84:22 to 87:22) are four scalar loads at `boxes + 0` to `+ 3`, one `s_load_dwordx4` on x1's line.
    When they are settled, the column boxes' `buffer_load_dwordx4` (their four coordinates, 101:26 to
    104:26, combined the same way) is still unclaimed on no line, so the bytes alone prove nothing; each
    load's address within x1's 16 bytes does."""
    (entry,) = [e for e in Cache(CONCH_OLDER).kernels() if e.name == "_create_iou_mask_kernel"]
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    x1 = rows["84:22"]
    assert x1.counts("amdgcn") == {"s_load_dwordx4": 1}
    assert rows["101:26"].counts("amdgcn") == {"buffer_load_dwordx4": 1}
    assert [c.code for c in rows["101:26"].relocations] == ["unlocated"]
    _combined_into(rows, x1, ("85:22", "86:22", "87:22"))
    assert all(r.verdict != "unknown" for r in report.rows)


def test_combined_loads_whose_instructions_the_scheduler_spread_over_their_lines():
    """Conch's BEV pooling for gfx942 by Triton 3.5.1 (plain global loads): x, y, z and batch (113:21 to
    116:21) at `geom + 0` to `+ 3`, eight elements a thread each, are 8 `global_load_dwordx4`, 7 on x's line
    and 1 on the batch's, none on y's or z's. The lowest address's row takes all 8; the others are
    combined with it."""
    (entry,) = [e for e in Cache(CONCH_OLDER).kernels() if e.name == "_bev_pool_kernel"]
    _combined_run(entry, "113:21", {"global_load_dwordx4": 8}, "relocated",
                  "(7 on 113:21's line, 1 on 116:21's line)", ("114:21", "115:21", "116:21"))


RDNA_CONCH = Path(__file__).parent / "data" / "thirdparty-rdna-triton3.9" / "conch"


@pytest.mark.parametrize("target, runs", [
    ("hip:gfx1201", ((("84:15",), ("85:15", "86:15", "87:15"), "s_load_b32", "sit on 84:15's line: 1 for each"),
                     (("104:19",), ("101:19", "102:19", "103:19"), "buffer_load_b32",
                      "sit on 104:19's line: 1 for each"))),
    ("hip:gfx1100", ((("84:15", "85:15"), ("86:15", "87:15"), "s_load_b32",
                      "sit on 84:15's line (2), 85:15's line (2): 1 for each"),
                     (("104:19",), ("101:19", "102:19", "103:19"), "buffer_load_b32",
                      "sit on 104:19's line: 1 for each"))),
])
def test_adjacent_loads_whose_instructions_sit_on_some_of_their_lines(target, runs):
    """Conch's NMS for RDNA (`_create_iou_mask_kernel`, 64-box blocks, 32-lane waves): a box's x1, y1, x2,
    y2 (84:15 to 87:15) are four scalar loads at `boxes + 0` to `+ 3`; gfx1201 puts their four `s_load_b32`
    on x1's line, gfx1100 two on x1's and two on y1's. The column boxes' (101:19 to 104:19), one element a
    thread, are four `buffer_load_b32` on y2's line. Nothing is wider than an element: each access takes
    one of its run's instructions, none is combined."""
    (entry,) = [e for e in Cache(RDNA_CONCH).kernels() if f"{e.target.backend}:{e.target.arch}" == target]
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows}
    for holders, moved, form, placed in runs:
        for where in holders:
            assert rows[where].counts("amdgcn") == {form: 1} and not rows[where].relocations
        for where in moved:
            r = rows[where]
            assert r.counts("amdgcn") == {form: 1} and r.combined_with is None and r.attribution == "moved"
            assert [c.code for c in r.relocations] == ["relocated"]
            assert f"the 4 {form} (4 bytes each) of the 4 accesses side by side in memory" in r.relocations[0].evidence
            assert placed in r.relocations[0].evidence
    assert all(r.verdict == "scalar" and r.vector_bytes == r.element_bits // 8 for r in report.rows)
    assert not any(c.code in ("split", "combined") for r in report.rows for c in r.count_changes)


RDNA_LIGER = Path(__file__).parent / "data" / "thirdparty-rdna-triton3.9" / "liger"


def _rdna_liger(name: str):
    (entry,) = [e for e in Cache(RDNA_LIGER).kernels() if e.name == name]
    report = analyze_entry(entry)
    return report, {r.where: r for r in report.rows}


def test_alike_accesses_not_side_by_side_whose_instructions_sit_on_one_line():
    """Liger on RDNA. Its group norm backward for gfx1201 (`mean`, `rstd`: 140:12, 141:12) loads two bf16
    scalars at one offset of two tensors, two `global_load_d16_b16` both on mean's line; its MoE backward
    for gfx1100 (687:12, 688:10) two 64x64 bf16 tiles, two `buffer_load_b128` each, all four on the first
    tile's line. Alike, each takes as many as it had in LLIR, whichever instruction is whose."""
    for name, holder, moved, form, n in (("_group_norm_backward_kernel", "140:12", "141:12", "global_load_d16_b16", 1),
                                         ("_moe_bwd_down_proj_kernel", "687:12", "688:10", "buffer_load_b128", 2)):
        report, rows = _rdna_liger(name)
        assert rows[holder].counts("amdgcn") == {form: n} and not rows[holder].relocations
        r = rows[moved]
        assert r.counts("amdgcn") == {form: n} and r.attribution == "moved" and r.combined_with is None
        assert [c.code for c in r.relocations] == ["relocated"]
        assert f"of the 2 alike accesses ({holder}, {moved}), as llir had them, sit on {holder}'s line: {n} for " \
            f"each" in r.relocations[0].evidence
        assert r.verdict == rows[holder].verdict != "unknown"
        assert all(x.verdict != "unknown" for x in report.rows)


def test_rdna_two_address_lds_stores_paired_on_no_line():
    """gfx11 renames GCN's two-address LDS forms (`ds_write2st64_b64` is `ds_store_2addr_stride64_b64`):
    each moves two values, 16 bytes here. Liger's MoE backward for gfx1100 (`_moe_bwd_dW2_kernel`): the two
    tiles' `local_store`s (783:21, 788:21), 3 + 3 stores of 8 bytes, are 3 such instructions on no line,
    shared by the two rows as on gfx942."""
    from tritonscope.stages.memops import _amd_width

    assert _amd_width("store_2addr_stride64_b64") == _amd_width("write2st64_b64") == 16
    assert _amd_width("load_2addr_b32") == _amd_width("read2_b32") == 8
    # every two-address form is two accesses, not only the stride-64 ones: `ds_read2_b64 ... offset1:2`
    # reads two 8-byte values 16 bytes apart (it was one 16-byte access)
    assert [memops.addresses(f) for f in ("ds_read2_b64", "ds_write2_b32", "ds_load_2addr_b32",
                                          "ds_store_2addr_stride64_b64", "ds_read_b128", "ds_read_b64_tr_b16",
                                          "buffer_load_dwordx4")] == [2, 2, 2, 2, 1, 1, 1]
    report, rows = _rdna_liger("_moe_bwd_dW2_kernel")
    a, b = rows["783:21"], rows["788:21"]
    for r in (a, b):
        assert r.ambiguous["amdgcn"] == {"ds_store_2addr_stride64_b64": 3} and r.attribution == "ambiguous"
        assert [c.code for c in r.relocations] == ["unlocated"] and r.verdict == "as-predicted"
    assert all(x.verdict != "unknown" for x in report.rows)


TUTORIALS = Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9"


def test_tensor_memory_stores_of_one_position_split_by_their_tiles():
    """Triton's fused-attention tutorial for cuda:100 (warp-specialized): the f32 accumulator's rescaled
    copies (two 128x64 `tmem_store`s, 256 bytes a thread each) and the f16 P tile (128 bytes) at one inlined
    position, five `tcgen05.st...x32` (128 bytes each) in every stage. The join gives them to the tile of
    that width; the counts give the accumulator 2 + 2 and the tile 1."""
    (entry,) = [e for e in Cache(TUTORIALS).kernels() if e.name == "_attn_fwd"]
    report = analyze_entry(entry)
    stores = [r for r in report.rows if r.op == "ttng.tmem_store" and r.where.startswith("106:15 @ 231:25 (")]
    assert sorted((r.dtype, r.instances) for r in stores) == [("f16", 1), ("f32", 2)]
    for r in stores:
        n = 4 if r.dtype == "f32" else 1
        assert r.counts("llir") == r.counts("ptx") == {"tcgen05.st.sync.aligned.32x32b.x32.b32": n}
        assert r.counts("sass") == {"STTM.x32": n} and r.verdict == "as-predicted" and not r.ambiguous
    assert all(r.verdict != "unknown" for r in report.rows)


def test_mma_instructions_the_line_table_put_on_another_call_of_the_helper():
    """Triton's Gluon persistence tutorial for cuda:100 (`persistent_matmul_pipelined_kernel`): the MMA
    helper (142:9) called at 662:25, 669:29 and 684:29 has 4 `tcgen05.mma` at each call in LLIR (inline asm
    predicated on the elected thread, `"@$5 tcgen05.mma...`), while PTX's line table puts the drain's 4 on
    the loop's line: the loop keeps 4, the drain takes the other 4, in PTX and in SASS."""
    (entry,) = [e for e in Cache(TUTORIALS).kernels() if e.name == "persistent_matmul_pipelined_kernel"]
    report = analyze_entry(entry)
    mma = {r.where: r for r in report.rows if r.op == "ttng.tc_gen5_mma"}
    form = "tcgen05.mma.cta_group::1.kind::f16"
    for where in ("142:9 @ 662:25", "142:9 @ 669:29", "142:9 @ 684:29"):
        r = mma[where]
        assert r.counts("llir") == r.counts("ptx") == {form: 4} and r.counts("sass") == {"UTCHMMA": 4}, where
        assert r.verdict == "as-predicted"
    drain = mma["142:9 @ 684:29"]
    assert [c.code for c in drain.relocations] == ["relocated", "relocated"] and drain.attribution == "moved"
    assert f"669:29 has 4 more {form} than llir gave it" in drain.relocations[0].evidence
    assert all(r.verdict != "unknown" for r in report.rows)


def test_scale_copies_to_tensor_memory_shared_out_by_their_bytes():
    """Triton's block-scaled matmul tutorial for cuda:100, mxfp8 (`block_scaled_matmul_kernel`, 128x256x128
    blocks): A's and B's e8m0 scales (128x4 and 256x4 bytes, two pipelined copies each) go to tensor memory
    at one position (228:27), 6 `tcgen05.cp...warpx4.32x128b` in every stage, each reading 32 rows of 128
    bits (512 bytes): A's copies are 2 x 512 / 512 = 2 of them, B's 4."""
    (entry,) = [e for e in Cache(TUTORIALS).kernels() if e.name == "block_scaled_matmul_kernel"]
    report = analyze_entry(entry)
    copies = sorted((r for r in report.rows if r.op == "ttng.tmem_copy" and r.line == 228), key=lambda r: r.shape)
    assert [(r.shape, r.instances) for r in copies] == [((128, 4), 2), ((256, 4), 2)]
    for r, n in zip(copies, (2, 4), strict=True):
        assert r.counts("llir") == r.counts("ptx") == {"tcgen05.cp.cta_group::1.warpx4.32x128b": n}
        assert r.counts("sass") == {"UTCCP.T.S.4x32dp128bit": n} and not r.ambiguous
    assert all(r.verdict != "unknown" and not r.ambiguous for r in report.rows)


@needs_nvdisasm
def test_hopper_mma_of_one_call_line_settled_by_shape_when_none_was_merged():
    """Triton's fused-attention tutorial backward for cuda:90 (`_attn_bwd`): dK/dV's four dots inlined at
    438:14 are 8, 4, 8 and 4 wgmma in PTX (m64n32k16 and m64n64k16). SASS's line table gives one row 14
    `HGMMA.64x32x16` and 5 `HGMMA.64x64x16`, another 2, and two more share 2. Per shape the SASS MMAs number
    exactly the PTX ones, and every other MMA row of the kernel has its own: none was merged, each row has
    its PTX count."""
    (entry,) = Cache(Path(__file__).parent / "data" / "tutorials-cuda90-triton3.9").kernels()
    report = analyze_entry(entry)
    dots = {r.where: r for r in report.rows if r.op == "ttng.warp_group_dot" and r.line == 438}
    assert len(dots) == 4
    for r in dots.values():
        (ptx_form, n), = r.counts("ptx").items()
        shape = "64x32x16" if "m64n32k16" in ptx_form else "64x64x16"
        assert r.counts("sass") == {f"HGMMA.{shape}.F32": n} and not r.ambiguous, r.where
        assert not [c for c in r.count_changes if c.code in ("split", "merged")]
    assert all(r.verdict != "unknown" and not r.ambiguous for r in report.rows)


def test_hopper_mma_shared_on_one_line_settled_by_the_ptx_counts():
    """Triton's fused-attention tutorial forward for cuda:90: the QK and PV dots (76:14, 106:15), one
    wgmma shape, inlined at 231:25, are 8 + 8 in PTX; SASS gives them 6 and 2 on their lines and 8 shared.
    Own and shared make exactly 16: none merged, each takes its PTX count."""
    from tritonscope.loads.join import split_ambiguous

    form, hgmma = "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", "HGMMA.64x64x16.F32"
    rows = []
    for written, own in ((76, 6), (106, 2)):
        r = _row(231, {}, {})
        r.op, r.kind, r.written = "ttng.warp_group_dot", "mma_shared", ("k.py", written, 14)
        r.stages = {"ptx": {form: 8}, "sass": {hgmma: own}}
        r.widths = {"ptx": {form: None}, "sass": {hgmma: None}}
        r.ambiguous = {"sass": {hgmma: 8}}
        rows.append(r)
    split_ambiguous("sass", "ptx", rows)
    assert [r.stages["sass"] for r in rows] == [{hgmma: 8}, {hgmma: 8}] and not any(r.ambiguous for r in rows)
    rows[1].stages["ptx"] = {form: 4}  # (6 + 2 + 8 would then be more than PTX's 12: left shared)
    rows[0].stages["sass"], rows[1].stages["sass"] = {hgmma: 6}, {hgmma: 2}
    for r in rows:
        r.ambiguous = {"sass": {hgmma: 8}}
    split_ambiguous("sass", "ptx", rows)
    assert all(r.ambiguous == {"sass": {hgmma: 8}} for r in rows)


TUTORIALS_H100 = Path(__file__).parent / "data" / "tutorials-h100-triton3.6"


@needs_nvdisasm
def test_hopper_mma_the_line_table_spread_over_other_lines_and_none():
    """Triton's fused-attention tutorial launched on an H100 by Triton 3.6 (`_attn_fwd`, causal, head dim
    64): QK and PV dots, 4 wgmma each, inlined at two calls; SASS has some of the second call's HGMMAs on
    other lines or none. Over the kernel they number exactly the PTX ones: each dot has its PTX count."""
    (entry,) = [e for e in Cache(TUTORIALS_H100).kernels() if e.name == "_attn_fwd"]
    report = analyze_entry(entry)
    dots = [r for r in report.rows if r.op == "ttng.warp_group_dot"]
    assert len(dots) == 4
    for r in dots:
        assert r.counts("ptx") == {"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16": 4}
        assert r.counts("sass") == {"HGMMA.64x64x16.F32": 4} and not r.ambiguous, r.where
        assert not [c for c in r.count_changes if c.code in ("split", "merged")]
    moved = [r for r in dots if r.attribution == "moved"]
    assert moved and all("claimed by no access" in r.relocations[0].evidence for r in moved)
    assert all(r.verdict != "unknown" and not r.ambiguous for r in report.rows)


@needs_nvdisasm
def test_stmatrix_of_an_accumulator_beside_a_vector_store_of_one_position():
    """Triton's persistent TMA matmul tutorial launched on an H100 by Triton 3.6: its epilogue store
    (445:49) keeps a blocked tile's `local_store` (16-byte vectors) and the mma accumulator's. The 8
    `stmatrix.x4` move 16 bytes too, but as 8x8 tiles: the accumulator's; the 8 vector stores the tile's."""
    (entry,) = [e for e in Cache(TUTORIALS_H100).kernels() if e.name == "matmul_kernel_tma_persistent"]
    report = analyze_entry(entry)
    stores = {r.layout: r for r in report.rows if r.op == "ttg.local_store" and r.line == 445}
    assert stores["mma"].counts("llir") == {"stmatrix.sync.aligned.m8n8.x4.b16.p3": 8}
    assert stores["mma"].counts("sass") == {"STSM.16.M88.4": 8}
    assert stores["blocked"].counts("llir") == {"store <4 x i32>": 8} and stores["blocked"].counts("sass") == \
        {"STS.128": 8}
    assert all(r.verdict != "unknown" and not r.ambiguous for r in report.rows)


def test_tma_copies_of_one_position_take_one_instruction_each():
    """Triton's descriptor-persistent matmul tutorial launched on an H100 by Triton 3.6: after pipelining,
    the A and B tiles' TMA loads (two copies of one, one of the other) all sit at the kernel's `def`
    (495:0), 3 `cp.async.bulk.tensor` that no column or form tells apart. Every copy issues at least one:
    three copies, three instructions, so each row has its copies' worth, 2 and 1."""
    (entry,) = [e for e in Cache(TUTORIALS_H100).kernels() if e.name == "matmul_kernel_descriptor_persistent"]
    report = analyze_entry(entry)
    copies = sorted((r for r in report.rows if r.op == "ttng.async_tma_copy_global_to_local"),
                    key=lambda r: -r.instances)
    assert [(r.instances, r.counts("sass")) for r in copies] == [(2, {"UTMALDG.2D": 2}), (1, {"UTMALDG.2D": 1})]
    assert all(not r.ambiguous and r.attribution == "exact" for r in copies)


def test_rows_of_one_position_sharing_instructions_name_each_other_by_ttgir_line():
    """vLLM's kernel keeps three `local_load`s of one position (499:12) that share their LLIR loads: each
    row names the other two by TTGIR line."""
    report = analyze_entry(_entry("vllm", "NZYWWBMS57"))
    loads = [r for r in report.rows if r.line == 499 and r.op == "ttg.local_load"]
    assert len(loads) == 3 and all(r.attribution == "ambiguous" for r in loads)
    for r in loads:
        others = [o for o in loads if o is not r]
        assert r.ambiguous_with == [f"499:12 ttg.local_load (ttgir:{o.sites[0].op.lineno})" for o in others]


def test_amd_transposing_reads_go_to_the_operand_of_their_element_width():
    """Two dot operands read from shared memory at one position (lmdeploy's quantized paged attention
    compiled for gfx950, 503:35): int8 K through `ds.read.tr8` and bf16 scales through plain `<8 x i16>`
    loads. The transposing read names 8-bit elements: it is the int8 operand's, in LLIR and AMDGCN alike."""
    from tritonscope.loads.join import _choose
    from tritonscope.loads.sites import AccessSite
    from tritonscope.stages.common import SourceLoc
    from tritonscope.stages.memops import MemAccess

    def site(n: int, dtype: str, bits: int) -> AccessSite:
        op = Op(n, "ttg.local_load", "%x = ttg.local_load %m", SourceLoc("k.py", 503, 35), "k")
        return AccessSite(op=op, kind="shared_load", shape=(64, 128), dtype=dtype, element_bits=bits, layout=None,
                          layout_name=None, mask=None, other=None, eviction=None, cache=None, address=[])

    keys = _row(503, {}, {})
    scales = _row(503, {"load <8 x i16>": 12}, {"load <8 x i16>": 16})
    keys.dtype, keys.element_bits, keys.sites = "i8", 8, [site(278, "i8", 8)]
    scales.dtype, scales.element_bits, scales.sites = "bf16", 16, [site(282, "bf16", 16)]
    for stage, form in (("llir", "ds.read.tr8.b64.v2i32 <2 x i32>"), ("amdgcn", "ds_read_b64_tr_b8")):
        found, level = _choose(stage, MemAccess("shared_load", form, 8), (("k.py", 503, 35),), 503, 35,
                               [keys, scales])
        assert (found, level) == ([keys], "exact")


def test_two_tiles_stores_paired_into_two_address_lds_writes_on_no_line():
    """Liger's fused MoE up-projection for gfx942 (`_fused_up_proj_swiglu_kernel`): the gate and up tiles'
    `local_store`s (424:18, 432:16), 4 stores of 8 bytes a thread each, have no AMDGCN instruction on their
    lines; the only unclaimed shared stores are 4 `ds_write2st64_b64` on no line, each writing two 8-byte
    values at two addresses. The two rows share them: which value pairs with which, counts do not tell."""
    (entry,) = Cache(Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "liger").kernels()
    report = analyze_entry(entry)
    gate, up = [r for r in report.rows if r.op == "ttg.local_store" and r.line in (424, 432)]
    for r, other in ((gate, up), (up, gate)):
        assert not r.stages.get("amdgcn") and r.ambiguous["amdgcn"] == {"ds_write2st64_b64": 4}
        assert [c.code for c in r.relocations] == ["unlocated"] and f"those of {other.line}:{other.col}" in \
            r.relocations[0].evidence
        assert r.verdict == "as-predicted"
    assert not [u for u in report.unattributed if u["kind"] == "shared_store"]


def test_a_loaded_base_that_does_not_vary_along_the_row_leaves_the_rows_step_readable():
    """SGLang's sparse-MLA decode (cuda:100) reads a cache row found through a loaded index, then its FP8
    values, their per-64 exponents and a bf16 rope part off the same base. The loaded index varies along
    the rows only ([64, 1] before its broadcast): along the contiguous dim the exponents' address is
    `d // 64`, one byte per 64 elements, which was reported as 'gather' while the values (same base,
    `+ d`) are as predicted."""
    report = _report(DATA.parent / "thirdparty-cuda100-triton3.9" / "sglang", "HLKEZJTZLT")
    rows = {(r.line, r.written[1] if r.written else None): r for r in report.rows if r.kind == "global_load"}
    values = next(r for (line, w), r in rows.items() if line == 114 and w == 50)
    exponents = next(r for (line, w), r in rows.items() if line == 114 and w == 52)
    assert values.verdict == "as-predicted"
    assert [x.code for x in exponents.reasons] == ["repeated-address"]
    assert "divided by 64" in exponents.reasons[0].evidence


def test_pipelined_buffer_loads_and_a_scalar_load_on_no_line_told_apart_by_addressing():
    """Helper 59: mamba's `_chunk_state_fwd_kernel` on gfx942 has on line 0 the pipeline prologue's copies of
    two buffer loads (2 + 2 `buffer_load_dword`) and a scalar `tl.load`'s `s_load_dword`: pooled together (5
    instructions for a shortfall of 4), neither was claimed: 242/245 said `merged` (nothing was), 229
    `no-isa-match`. A buffer load's lowering is never an `s_load_*` (nor a plain load's a `buffer_*`)."""
    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "mamba"
    (entry,) = Cache(cache).kernels()
    report = analyze_entry(entry)
    rows = {r.where: r for r in report.rows if r.line in (229, 242, 245)}
    assert sorted(rows) == ["229:18", "242:19", "245:16"]
    for where in ("242:19", "245:16"):
        r = rows[where]
        assert r.stages["amdgcn"] == {"buffer_load_dword": 4} and r.stages["llir"] == {
            "raw.ptr.buffer.load float": 4}, r.stages
        assert "unlocated" in [c.code for c in r.count_changes] + [x.code for x in r.reasons]
        assert "merged" not in [c.code for c in r.count_changes] + [x.code for x in r.reasons]
    assert rows["229:18"].stages["amdgcn"] == {"s_load_dword": 1} and rows["229:18"].verdict == "scalar"
    assert not [u for u in report.unattributed if u["stage"] == "amdgcn" and u["line"] == 0
                and u["kind"] in ("buffer_load", "scalar_load")], report.unattributed


def test_gfx942_two_address_lds_reads_are_two_accesses():
    """Liger's fused MoE up-projection for gfx942: each thread's 16 `load <4 x i16>` of a pipelined B tile
    (429:20) are 8 `ds_read2_b64 ... offset1:2`, two 8-byte values 16 bytes apart each. The access is 8
    bytes wide, as the layout predicts (4 contiguous bf16), and the count change says the backend paired
    them; before, each instruction was read as one 16-byte access, wider than the layout allows."""
    folder = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "liger"
    (entry,) = [e for e in Cache(folder).kernels() if e.hash.startswith("NIQJ7W7F")]
    row = {r.where: r for r in analyze_entry(entry).rows}["429:20"]
    assert row.counts("amdgcn") == {"ds_read2_b64": 8} and row.counts("llir") == {"load <4 x i16>": 16}
    assert row.vector_bytes == row.predicted_vector_bytes == 8 and row.verdict == "as-predicted"
    merged = [c for c in row.count_changes if c.code == "merged"]
    assert len(merged) == 1 and "each ds_read2_b64 moves two values at two addresses" in merged[0].evidence


@needs_nvdisasm
def test_a_device_side_tma_descriptor_build_is_named_not_left_as_loose_stores(cli):
    """fbgemm's grouped fp8 GEMM builds its TMA descriptors on the device (`tl.make_tensor_descriptor`,
    TTGIR `ttng.tensormap_create` at 676:20 and 684:20): PTX writes each field into a shared copy
    (`tensormap.replace.tile.*`, 13) and publishes it (`tensormap.cp_fenceproxy ... 128`), which ptxas lowers
    to LDS/STS and an `ATOMG.E.EXCH`. Those were uncounted in PTX (tensormap.* read as no memory op) and a
    bare "atomic" in SASS (helper 88): they are the descriptor's, said so, one line a stage and position."""
    report = _fbgemm("4TR667TP")
    mine = [u for u in report.unattributed if u["line"] == 676]
    assert {u["stage"] for u in mine} == {"llir", "ptx", "sass"} and all("tensormap_create" in u.get("of", "")
                                                                         for u in mine)
    ptx = {u["form"]: u for u in mine if u["stage"] == "ptx"}
    replace = [f for f in ptx if f.startswith("tensormap.replace.")]
    assert sum(ptx[f]["count"] for f in replace) == 13 and all(ptx[f]["kind"] == "tensormap" for f in replace)
    (copy,) = [u for f, u in ptx.items() if f.startswith("tensormap.cp_fenceproxy")]
    assert copy["kind"] == "tensormap"
    assert any(u["form"].startswith("ATOMG.E.EXCH") for u in mine if u["stage"] == "sass")
    text = cli("loads", str(next(e.path for e in Cache(FBGEMM).kernels() if e.hash.startswith("4TR667TP")))).stdout
    (line,) = [x for x in text.splitlines() if x.startswith("  ptx ") and "676:20" in x]
    assert "13x tensormap.replace.* (10 forms, tensormap)" in line and line.endswith(
        "ttng.tensormap_create (tl.make_tensor_descriptor): the TMA descriptor it builds in shared memory and copies "
        "to global memory")
