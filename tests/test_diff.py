"""`tritonscope diff` on the real corpus: Triton 3.2.0 against 3.9.0, and a cache against itself."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from tritonscope.diff.core import diff_sides, load_side, match_records
from tritonscope.diff.normalize import NormalizeOptions

KERNELS = ("add_kernel", "gemv_loop_kernel", "gemv_tile_kernel", "matmul_kernel", "softmax_kernel")
TARGETS = ("cuda:80", "cuda:90", "hip:gfx906", "hip:gfx90a", "hip:gfx942", "hip:gfx950")


@pytest.fixture(scope="module")
def result_32_39(cache32, cache39):
    opts = NormalizeOptions()
    return diff_sides(load_side(str(cache32), opts), load_side(str(cache39), opts))


def _pair(result, kernel: str, target: str):
    [p] = [p for p in result.pairs if p.b.name == kernel and p.b.target == target]
    return p


def _delta(pair, name: str) -> tuple:
    [d] = [d for d in pair.deltas if d.name == name]
    return d.a, d.b


def test_every_kernel_target_on_both_sides_is_matched(result_32_39):
    # 3.2 has 25 complete entries and 5 partial ones (hip:gfx906 failed after TTGIR); 3.9 has all 30.
    assert len(result_32_39.a.records) == len(result_32_39.b.records) == 30
    assert sorted((p.a.name, p.a.target) for p in result_32_39.pairs) == \
        sorted((k, t) for k in KERNELS for t in TARGETS)
    assert all(p.a.name == p.b.name and p.a.target == p.b.target for p in result_32_39.pairs)
    assert len(result_32_39.pairs) == 30
    assert result_32_39.added == [] and result_32_39.removed == []
    assert len(result_32_39.changed) == 30


def test_real_changes_between_releases(result_32_39):
    add80 = _pair(result_32_39, "add_kernel", "cuda:80")
    # TTGIR: after normalization only the new module attribute differs (the dialect rename is folded).
    [ttgir] = [d for d in add80.stage_diffs if d.stage == "ttgir"]
    assert (ttgir.added, ttgir.removed) == (1, 1)
    assert [d.stage for d in add80.stage_diffs if d.status == "added"] == ["source"]  # .source from 3.4
    # New PTX cache hints: L2::cache_hint on the 32 evict_first loads.
    for target in ("cuda:80", "cuda:90"):
        assert _delta(_pair(result_32_39, "gemv_tile_kernel", target), "ops:hint:L2::cache_hint") == (0, 32)
        assert _delta(_pair(result_32_39, "gemv_loop_kernel", target), "ops:hint:L2::cache_hint") == (0, 32)
    mm = _pair(result_32_39, "matmul_kernel", "hip:gfx90a")
    assert _delta(mm, "ops:global_load.16B@llir") == (4, 10)  # vectorized LLIR loads: 4 -> 10
    assert _delta(mm, "ops:mfma") == (8, 20)
    assert _delta(mm, "regs") == (72, 60)
    assert _delta(mm, "occupancy") == (7, 8)
    sm = _pair(result_32_39, "softmax_kernel", "hip:gfx942")
    assert _delta(sm, "ops:global_load@llir") == (4, 0)  # masked loads became buffer loads
    assert _delta(sm, "ops:buffer_load@llir") == (0, 4)
    assert _delta(_pair(result_32_39, "gemv_tile_kernel", "hip:gfx90a"), "regs") == (128, 140)
    assert _delta(_pair(result_32_39, "matmul_kernel", "hip:gfx950"), "smem") == (8192, 16944)
    # Unknown on one side is reported as such, not as zero: 3.2's gfx906 entries stopped after TTGIR.
    assert _delta(_pair(result_32_39, "add_kernel", "hip:gfx906"), "regs") == (None, 7)


def test_unmatched_kernels_are_reported(tmp_path, cache39):
    smaller = tmp_path / "cache"
    shutil.copytree(cache39, smaller)
    gone = sorted(p for p in smaller.iterdir() if (p / "add_kernel.json").exists()
                  and json.loads((p / "add_kernel.json").read_text())["target"]["backend"] == "cuda")
    assert len(gone) == 2
    for p in gone:
        shutil.rmtree(p)
    opts = NormalizeOptions()
    result = diff_sides(load_side(str(smaller), opts), load_side(str(cache39), opts))
    assert len(result.pairs) == 28 and result.removed == [] and result.changed == []
    assert sorted((r.name, r.target) for r in result.added) == [("add_kernel", "cuda:80"), ("add_kernel", "cuda:90")]


def test_several_candidates_match_deterministically(inductor_cache):
    opts = NormalizeOptions()
    side = load_side(str(inductor_cache), opts)
    mm = [r for r in side.records if r.name == "triton_mm"]
    assert len(mm) == 8 and len({r.spec_key for r in mm}) == 6  # autotuning variants share a spec
    pairs, removed, added = match_records(side.records, list(reversed(side.records)))
    assert removed == [] and added == [] and len(pairs) == 30
    assert all(a is b for a, b in pairs)  # each variant pairs with itself, whatever the order


def test_a_variant_keeps_its_exact_match_whatever_came_first(inductor_cache):
    # B keeps one of A's eight triton_mm variants, one line of its PTX edited (so content does not pair
    # it): the first A variant in sorted order took it as its most similar candidate, the variant of the
    # same specialization was reported removed.
    import dataclasses

    side = load_side(str(inductor_cache), NormalizeOptions())
    mm = sorted((r for r in side.records if r.name == "triton_mm"), key=lambda r: r.spec_key)
    for kept in (mm[-1], mm[len(mm) // 2]):
        edited = dataclasses.replace(kept, stages={**kept.stages, "ptx": kept.stages["ptx"] + "\n// edited"})
        pairs, removed, added = match_records(mm, [edited])
        assert [(a.origin, b.origin) for a, b in pairs] == [(kept.origin, kept.origin)]
        assert len(removed) == 7 and kept not in removed and added == []


def test_two_libraries_kernels_of_one_name_are_not_one_kernel(cli):
    # thirdparty-cuda90-triton3.8 holds MInference's _attn_fwd (f16 pointers, 26 arguments), 3.9 holds
    # SageAttention's (i8 pointers, 18): they were paired and "changed" by +30% registers.
    from pathlib import Path

    data = Path(__file__).parent / "data"
    proc = cli("diff", str(data / "thirdparty-cuda90-triton3.8"), str(data / "thirdparty-cuda90-triton3.9"),
               "-k", "_attn_fwd", "--format", "json")
    doc = json.loads(proc.stdout)
    assert doc["summary"]["matched"] == 0 and doc["changed"] == []
    assert [r["kernel"] for r in doc["removed"]] == [r["kernel"] for r in doc["added"]] == ["_attn_fwd"]


def test_cache_against_itself_is_empty_exit_0(cli, cache39):
    proc = cli("diff", str(cache39), str(cache39), "--format", "json", "--fail-on", "any")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["kind"] == "diff" and doc["schema"] == 1
    assert doc["summary"] == {"matched": 30, "changed": 0, "unchanged": 30, "uncompared": 0, "added": 0,
                              "removed": 0}
    assert doc["changed"] == [] and doc["added"] == [] and doc["removed"] == [] and doc["failed_rules"] == []
    text = cli("diff", str(cache39), str(cache39))
    assert text.returncode == 0
    assert "matched 30  changed 0  unchanged 30  added 0  removed 0" in text.stdout
    assert "---" not in text.stdout and "\n+" not in text.stdout


def test_json_contract_items_carry_kernel_and_target(cli, cache32, cache39):
    proc = cli("diff", str(cache32), str(cache39), "--format", "json", "--target", "cuda:80", "-k", "add_kernel")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    for key in ("matched", "added", "removed", "changed", "failed_rules", "summary"):
        assert key in doc
    [m] = doc["matched"]
    [c] = doc["changed"]
    assert (m["kernel"], m["target"], c["kernel"], c["target"]) == ("add_kernel", "cuda:80") * 2
    assert {s["stage"]: (s["status"], s["added"], s["removed"]) for s in c["stages"]}["ttgir"] == ("changed", 1, 1)
    metrics = {d["name"]: d for d in c["metrics"]}
    assert metrics["lines:ptx"] == {"name": "lines:ptx", "a": 46, "b": 48, "delta": 2, "percent": 4.35}


def test_entries_stage_context_and_stat(cli, cache32, cache39):
    a = next(p for p in cache32.iterdir() if (p / "add_kernel.ptx").exists() and '"arch": 80' in
             (p / "add_kernel.json").read_text())
    b = next(p for p in cache39.iterdir() if (p / "add_kernel.ptx").exists() and '"arch": 80' in
             (p / "add_kernel.json").read_text())
    proc = cli("diff", str(a), str(b), "--stage", "ttgir", "-U", "0")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert "B: " + str(b) + " (entry, 1 kernels)" in out
    body = out[out.index("--- a/add_kernel/ttgir"):]
    assert [ln[:40] for ln in body[2:]] == ["@@ -2 +2 @@", "-module attributes {\"ttg.num-ctas\" = 1 :",
                                            "+module attributes {\"ttg.num-ctas\" = 1 :"]
    assert "ptx" not in "\n".join(body)
    stat = cli("diff", str(a), str(b), "--stat")
    assert "+++ b/add_kernel/ptx  (+13/-11)" in stat.stdout and "@@" not in stat.stdout
    # Two artifact files of one stage compare directly.
    files = cli("diff", str(a / "add_kernel.ttgir"), str(b / "add_kernel.ttgir"), "--format", "json")
    assert json.loads(files.stdout)["summary"]["changed"] == 1


def test_markdown_is_a_pr_comment(cli, cache32, cache39):
    proc = cli("diff", str(cache32), str(cache39), "--format", "markdown", "-k", "gemv_tile_kernel",
               "--target", "cuda:90", "--fail-on", "vector-width<")
    assert proc.returncode == 0, proc.stderr
    md = proc.stdout
    assert md.startswith("### tritonscope diff: ")
    assert "**1** matched · **1** changed · 0 unchanged · **0** added · **0** removed" in md
    assert ":white_check_mark: Rules passed: `vector-width<`" in md
    assert "| `gemv_tile_kernel` | `cuda:90` |" in md
    assert "<details><summary><code>gemv_tile_kernel</code> <code>cuda:90</code>" in md
    assert "| `ops:hint:L2::cache_hint` | 0 | 32 | +32" in md
    assert "```diff" in md and md.count("<details>") == md.count("</details>") == 1


def test_diff_does_not_import_triton(cache32, cache39):
    import subprocess

    code = ("import sys\nfrom tritonscope.cli import main\n"
            f"sys.argv = ['tritonscope', 'diff', {str(cache32)!r}, {str(cache39)!r}, '-k', 'add_kernel', "
            "'--format', 'json']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "bad = [m for m in sys.modules if m == 'triton' or m.startswith(('triton.', 'torch'))]\n"
            "sys.stderr.write('IMPORTED:' + ','.join(bad))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.stderr.strip().endswith("IMPORTED:"), proc.stderr[-500:]


def test_html_hook_is_clean(cli, cache39):
    proc = cli("diff", str(cache39), str(cache39), "--format", "html", "-k", "add_kernel")
    # The report helper plugs `render_diff` into tritonscope/render/html.py; until then, one usage line.
    if proc.returncode == 2:
        assert proc.stderr.strip().count("\n") == 0 and "html" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr


def test_a_missing_loads_verdict_is_zero_where_the_kernel_has_judged_loads():
    from tritonscope.diff.core import compare_pair
    from tritonscope.diff.records import KernelRecord

    a = KernelRecord("k", "cuda:80", {}, "A", {"ptx": ""}, {"loads:unknown": 1})
    b = KernelRecord("k", "cuda:80", {}, "B", {"ptx": ""}, {"loads:scalar": 1})
    none = KernelRecord("k", "cuda:80", {}, "C", {"ptx": ""}, {})  # no load judged: unknown, not 0
    deltas = {d.name: (d.a, d.b) for d in compare_pair(a, b, None, 3).deltas}
    assert deltas == {"loads:unknown": (1, 0), "loads:scalar": (0, 1)}
    assert {d.name: (d.a, d.b) for d in compare_pair(a, none, None, 3).deltas} == {"loads:unknown": (1, None)}


def test_a_snapshot_as_b_sets_how_a_cache_as_a_is_normalized(cli, cache39, tmp_path):
    """A baseline snapshot written with --no-fold-renames, given as B against its cache as A, failed every
    kernel (A was normalized with the default); as A it was already applied to B."""
    snap = tmp_path / "snap"
    r = cli("snapshot", "--cache-dir", str(cache39), "--out", str(snap), "--no-fold-renames")
    assert r.returncode == 0, r.stderr
    for a, b in ((str(cache39), str(snap)), (str(snap), str(cache39))):
        r = cli("diff", a, b, "--fail-on", "any", "--format", "json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["summary"]["changed"] == 0
        assert "written with fold_renames=False; using that for both sides" in r.stderr


def test_nothing_to_compare_is_an_error_not_a_pass(cli, cache39, tmp_path):
    """`-k` naming no kernel, or two empty caches, passed every --fail-on rule (matched 0, exit 0); a hash
    prefix against a snapshot (which keeps names) selected nothing there and reported an 'added' kernel."""
    r = cli("diff", str(cache39), str(cache39), "-k", "ADD_KERNEL", "--fail-on", "any")
    assert r.returncode == 1 and "no kernel named 'ADD_KERNEL' in A or B: nothing to compare" in r.stderr
    (tmp_path / "e1").mkdir()
    (tmp_path / "e2").mkdir()
    r = cli("diff", str(tmp_path / "e1"), str(tmp_path / "e2"), "--fail-on", "any")
    assert r.returncode == 1 and "nothing to compare" in r.stderr and r.stderr.count("\n") == 1
    snap = tmp_path / "snap"
    assert cli("snapshot", "--cache-dir", str(cache39), "--out", str(snap)).returncode == 0
    r = cli("diff", str(snap), str(cache39), "-k", "7TGS3L")
    assert r.returncode == 2 and "is a snapshot, which keeps kernel names and not entry hashes" in r.stderr


VARIANTS = '''import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets{shift}, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)
'''


def test_variants_of_one_specialization_pair_by_their_ir_after_an_edit(cli, tmp_path):
    """Three BLOCK variants of one kernel (same name, target and signature) after a one-line edit: the
    edit renumbered every SSA name, the shared-lines score tied, and the pairing fell to entry hashes
    (1024 against 256, ...) and changed with whether each side was a cache or a snapshot."""
    import re

    for side, shift in (("a", ""), ("b", " + 1")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "kernels.py").write_text(VARIANTS.format(shift=shift))
        for block in (256, 512, 1024):
            r = cli("compile", f"{tmp_path / side / 'kernels.py'}::add_kernel", "--target", "cuda:90",
                    "--signature", "x_ptr=*fp16,y_ptr=*fp16,out_ptr=*fp16,n=i32:16", "--constexpr",
                    f"BLOCK={block}", "--cache-dir", str(tmp_path / f"cache-{side}"))
            assert r.returncode == 0, r.stderr
        r = cli("snapshot", "--cache-dir", str(tmp_path / f"cache-{side}"), "--out", str(tmp_path / f"snap-{side}"))
        assert r.returncode == 0, r.stderr

    from tritonscope.diff.core import load_side, match_records
    from tritonscope.diff.normalize import NormalizeOptions

    def block_of(record) -> str:
        return re.search(r"tt\.make_range \{end = (\d+)", record.stages["ttir"]).group(1)

    for a in ("cache-a", "snap-a"):
        for b in ("cache-b", "snap-b"):
            pairs, removed, added = match_records(load_side(str(tmp_path / a), NormalizeOptions()).records,
                                                  load_side(str(tmp_path / b), NormalizeOptions()).records)
            assert not removed and not added
            assert sorted((block_of(x), block_of(y)) for x, y in pairs) == [
                ("1024", "1024"), ("256", "256"), ("512", "512")], (a, b)


def test_two_hashes_of_one_kernel_for_two_targets_name_both(cli):
    """`diff 1cdc 3dbb` (Triton 2.2's dot_kernel for cuda:80 and cuda:90) named cuda:90 alone: `mma 16 -> 0,
    wgmma 0 -> 2` read as a change between releases, not between GPUs."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "releases-2.0-2.2" / "2.2"
    r = cli("diff", "--cache-dir", str(cache), "1cdc", "3dbb", "--stat")
    assert r.returncode == 0, r.stderr
    assert "dot_kernel  cuda:80 -> cuda:90" in r.stdout
    md = cli("diff", "--cache-dir", str(cache), "1cdc", "3dbb", "--format", "markdown")
    assert "`cuda:80 -> cuda:90`" in md.stdout, md.stdout[:500]
    # helper 77: without --cache-dir, the cache every other command reads by default ($TRITON_CACHE_DIR); a
    # name that is neither a path nor its entry's says both
    r = cli("diff", "1cdc", "3dbb", "--stat", env={"TRITON_CACHE_DIR": str(cache)})
    assert r.returncode == 0 and "dot_kernel  cuda:80 -> cuda:90" in r.stdout, r.stderr
    r = cli("diff", "1cdc", "zzzz", env={"TRITON_CACHE_DIR": str(cache)})
    assert r.returncode == 1 and r.stderr.startswith(f"tritonscope: error: zzzz: no such file or directory, nor an "
                                                     f"entry of the default cache {cache} (nothing matches 'zzzz'")
    # (a name several entries have is that, not 'no such file')
    r = cli("diff", "dot_kernel", "1cdc", env={"TRITON_CACHE_DIR": str(cache)})
    assert r.returncode == 2 and "entries match 'dot_kernel'" in r.stderr and "no such file" not in r.stderr, r.stderr


def test_renumbering_alone_is_no_change_and_an_inserted_op_is_one_line():
    # Normalized names are numbered in order of first appearance: one constant more renumbers every value
    # after it. A line diff showed all of them (3.7 -> 3.8's ttgir: +63/-64 for four changed ops).
    from tritonscope.diff.core import stage_line_diff

    a = ["tt.func @k(%v0: i32) {", "  %v1 = arith.constant 8 : i32", "  %v2 = arith.addi %v0, %v1 : i32",
         "  %v3 = arith.subf %v2, %v1 : f32", "  tt.return", "}"]
    b = ["tt.func @k(%v0: i32) {", "  %v1 = arith.constant true", "  %v2 = arith.constant 8 : i32",
         "  %v3 = arith.addi %v0, %v2 : i32", "  %v4 = arith.subf %v3, %v2 : f32", "  tt.return", "}"]
    assert [ln for ln in stage_line_diff("ttgir", a, b, 0) if ln[0] in "+-"] == ["+  %v1 = arith.constant true"]
    # the same text under another numbering throughout is the same code
    renumbered = [ln.replace("%v1", "%vX").replace("%v2", "%v1").replace("%vX", "%v2") for ln in a]
    assert stage_line_diff("ttgir", a, renumbered, 3) == []
    shifted = [a[0], "  %v5 = arith.constant 8 : i32", "  %v6 = arith.addi %v0, %v5 : i32",
               "  %v7 = arith.subf %v6, %v5 : f32", *a[4:]]
    assert stage_line_diff("ttgir", a, shifted, 3) == []
    # an operand swapped under the renaming stays a change
    swapped = [*b[:4], "  %v4 = arith.subf %v2, %v3 : f32", *b[5:]]
    assert [ln for ln in stage_line_diff("ttgir", a, swapped, 0) if ln[0] in "+-"] == [
        "+  %v1 = arith.constant true", "-  %v3 = arith.subf %v2, %v1 : f32", "+  %v4 = arith.subf %v2, %v3 : f32"]
    # a value removed and another added are not one value where a later line uses them alike
    # (the mask of 3.8's buffer loads, above)
    uses = ["f(%v0) {", "  %v1 = arith.cmpi slt, %v0, %v0 : i32", "  %v2 = arith.constant 5 : i32",
            "  %v3 = tt.load %v0, %v1 : i32"]
    used = ["f(%v0) {", "  %v1 = arith.constant 5 : i32", "  %v2 = arith.constant true",
            "  %v3 = tt.load %v0, %v2 : i32"]
    assert [ln for ln in stage_line_diff("ttgir", uses, used, 0) if ln[0] in "+-"] == [
        "-  %v1 = arith.cmpi slt, %v0, %v0 : i32", "+  %v2 = arith.constant true",
        "-  %v3 = tt.load %v0, %v1 : i32", "+  %v3 = tt.load %v0, %v2 : i32"]
    # a name on a line twice against two names (the first occurrence maps it; the second must agree)
    assert stage_line_diff("ttgir", ["f(%v0) {", "  cf.cond_br %v0, ^bb1, ^bb1", "^bb1:"],
                           ["f(%v0) {", "  cf.cond_br %v0, ^bb1, ^bb2", "^bb1:"], 0) != []
    assert stage_line_diff("ptx", ["add.s32 %r900, %r900, %r901;"], ["add.s32 %r900, %r901, %r901;"], 0) != []
    assert stage_line_diff("llir", ["define void @f() {", "  %v3 = phi i32 [ %v4, %v2 ], [ %v4, %v1 ]"],
                           ["define void @f() {", "  %v3 = phi i32 [ %v4, %v2 ], [ %v5, %v1 ]"], 0) == [
        "@@ -2 +2 @@", "-  %v3 = phi i32 [ %v4, %v2 ], [ %v4, %v1 ]", "+  %v3 = phi i32 [ %v4, %v2 ], [ %v5, %v1 ]"]
    # registers of two classes are not one name (%r1 against %rd1)
    assert stage_line_diff("ptx", ["add.s32 %r1, %r2, 1;"], ["add.s32 %rd1, %r2, 1;"], 0) != []
    # a number in the text, not in a name, is compared as it is
    assert stage_line_diff("ttgir", ["  %v1 = arith.constant 8 : i32"], ["  %v2 = arith.constant 9 : i32"], 0)


def test_a_release_that_adds_one_constant_diffs_in_the_lines_that_changed(cli):
    from pathlib import Path

    rel = Path(__file__).parent / "data" / "releases-3.5-3.8"
    proc = cli("diff", str(rel / "3.7"), str(rel / "3.8"), "-s", "ttgir", "--format", "json")
    [pair] = json.loads(proc.stdout)["changed"]
    [ttgir] = [s for s in pair["stages"] if s["stage"] == "ttgir"]
    assert (ttgir["added"], ttgir["removed"]) == (3, 4)
    changed = [ln for ln in ttgir["diff"].splitlines() if ln[:1] in "+-"]
    # 3.8 masks the buffer load and store with a constant true where 3.7 compared offsets with 512
    assert changed == ["+    %v8 = arith.constant dense<true> : tensor<512xi1, #blocked>",
                       "-    %v18 = arith.constant dense<512> : tensor<512xi32, #blocked>",
                       "-    %v34 = arith.cmpi slt, %v33, %v18 : tensor<512xi32, #blocked>",
                       "-        %v56 = amdg.buffer_load %v0[%v55], %v34 : tensor<512xf32, #blocked>",
                       "+        %v55 = amdg.buffer_load %v0[%v54], %v8 : tensor<512xf32, #blocked>",
                       "-    amdg.buffer_store %v79, %v1[%v76], %v34 {contiguity = 2 : i32} : "
                       "tensor<512xbf16, #blocked>",
                       "+    amdg.buffer_store %v78, %v1[%v75], %v8 {contiguity = 2 : i32} : "
                       "tensor<512xbf16, #blocked>"]


def test_a_stage_without_renamed_names_diffs_as_difflib_does():
    import difflib
    import random

    from tritonscope.diff.core import stage_line_diff

    rng = random.Random(1)
    for _ in range(200):
        a = [rng.choice("abcdefg") for _ in range(rng.randint(0, 30))]
        b = list(a)
        for _ in range(rng.randint(0, 6)):
            op = rng.random()
            if op < 0.3 and b:
                b.pop(rng.randrange(len(b)))
            elif op < 0.6:
                b.insert(rng.randint(0, len(b)), rng.choice("xyz"))
            elif b:
                b[rng.randrange(len(b))] = rng.choice("pq")
        for n in (0, 1, 3):
            assert stage_line_diff("metadata", a, b, n) == list(difflib.unified_diff(a, b, lineterm="", n=n))[2:]


def test_region_arguments_a_release_named_alike_in_each_region_are_defined_anew():
    # 3.2 printed each tt.reduce's block arguments with the same names (normalized: %v16, %v17 in both);
    # 3.9 names them apart. Renamed alike, the second reduce's body was shown changed.
    from tritonscope.diff.core import stage_line_diff

    def reduces(first: tuple[int, int, int], second: tuple[int, int, int]) -> list[str]:
        out = ["tt.func @k(%v0: f32) {"]
        for op, (x, y, r) in (("maxnumf", first), ("addf", second)):
            out += [f"  %v{r + 10} = \"tt.reduce\"(%v0) ({{", f"  ^bb0(%v{x}: f32, %v{y}: f32):",
                    f"    %v{r} = arith.{op} %v{x}, %v{y} : f32", f"    tt.reduce.return %v{r} : f32", "  })"]
        return out

    assert stage_line_diff("ttgir", reduces((1, 2, 3), (1, 2, 3)), reduces((1, 2, 3), (4, 5, 6)), 3) == []
    swapped = reduces((1, 2, 3), (1, 2, 3))
    swapped[8] = "    %v3 = arith.addf %v2, %v1 : f32"
    assert stage_line_diff("ttgir", swapped, reduces((1, 2, 3), (4, 5, 6)), 0) != []


def test_an_amdgcn_kernel_reading_another_input_register_is_changed(cli, tmp_path, cache39):
    """AMDGCN registers are physical: a kernel reading its work item's id from v200, or its arguments through
    s[40:41], where the hardware put them in v0 and s[4:5], is another kernel. The normalizer renamed every
    register by first appearance, so the two were the same text (`--fail-on any` passed)."""
    import re

    entry = next(p.parent for p in cache39.glob("*/gemv_tile_kernel.json") if '"gfx90a"' in p.read_text())
    a, b = shutil.copytree(entry, tmp_path / "a" / entry.name), shutil.copytree(entry, tmp_path / "b" / entry.name)
    gcn = b / "gemv_tile_kernel.amdgcn"
    gcn.write_text(re.sub(r"\bv0\b", "v200", gcn.read_text()).replace("s[4:5]", "s[40:41]"))
    proc = cli("diff", str(a.parent), str(b.parent), "-s", "amdgcn", "--fail-on", "any")
    assert proc.returncode == 1, proc.stdout
    assert "+    s_load_dwordx2 s[0:+1], $s[40:41], 0x0" in proc.stdout.splitlines()


def test_kernels_built_by_different_releases_are_said_and_a_snapshot_keeps_an_inferred_release(cli, tmp_path):
    """Helper 84: a diff of a Triton 3.1 cache against 3.3's said nothing of the releases (every metric
    delta read as the kernel's), and a 3.1 cache's snapshot kept `triton_version: null`, its release (known
    from the metadata's fields) lost."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "releases-3.0-3.4"
    env = {"TRITONSCOPE_RECORDS_CACHE": "off"}
    r = cli("diff", str(data / "3.1"), str(data / "3.3"), "--stat", env=env)
    assert ("tritonscope: note: 1 matched kernel(s) were built by different releases (A's by Triton 3.0-3.1 "
            "(inferred), B's by 3.3.1)") in r.stderr, r.stderr
    assert cli("snapshot", "--cache-dir", str(data / "3.1"), "--out", str(tmp_path / "s"), env=env).returncode == 0
    versions = {json.loads(m.read_text())["triton_version"] for m in (tmp_path / "s").rglob("metrics.json")}
    assert versions == {"3.0-3.1 (inferred)"}
    same = cli("diff", str(data / "3.3"), str(data / "3.3"), env=env)
    assert "different releases" not in same.stderr
    # helper 87: a snapshot written before records kept a release (null) is not said to differ from its cache
    for m in (tmp_path / "s").rglob("metrics.json"):
        m.write_text(json.dumps({**json.loads(m.read_text()), "triton_version": None}))
    old = cli("diff", str(tmp_path / "s"), str(data / "3.1"), env=env)
    assert old.returncode == 0 and "different releases" not in old.stderr, old.stderr


def test_occupancy_of_wave64_and_wave32_targets_is_said_to_count_other_units(cli):
    """Helper 85: `occupancy 3 -> 5` between gfx90a and gfx1100 compared waves of 64 lanes with waves of 32,
    with no word of it."""
    from pathlib import Path

    data = Path(__file__).parent / "data"
    a = next((data / "thirdparty-gfx942-triton3.9" / "liger").glob("NIQJ*"))
    b = next((data / "thirdparty-rdna-triton3.9" / "liger").glob("67NT*"))
    r = cli("diff", str(a), str(b), "--stat", env={"TRITONSCOPE_RECORDS_CACHE": "off"})
    assert ("tritonscope: note: occupancy counts waves a SIMD: hip:gfx942's waves are 64 lanes, hip:gfx1100's 32: "
            "the two counts are not of one unit") in r.stderr, r.stderr
    same = cli("diff", str(a), str(a), env={"TRITONSCOPE_RECORDS_CACHE": "off"})
    assert "waves a SIMD" not in same.stderr
    # helper 118: against an NVIDIA target (no occupancy measured) it said "cuda:90's waves are None lanes"
    nvidia = next((data / "thirdparty-cuda89-triton3.9" / "awq").iterdir())
    crossed = cli("diff", str(nvidia), str(a), "--stat", env={"TRITONSCOPE_RECORDS_CACHE": "off"})
    assert crossed.returncode == 0 and "waves a SIMD" not in crossed.stderr and "None" not in crossed.stderr, \
        crossed.stderr


def test_markdown_marks_fewer_loads_as_predicted_worse_and_no_width_count_either_way():
    """helper 118: `loads:as-predicted 1 -> 0` was marked better (a cost that went down), and
    `ops:global_load.16B 2 -> 0` too, where the same bytes moved in 8 narrower loads."""
    from tritonscope.diff.core import MetricDelta
    from tritonscope.render.diff import _is_worse

    def delta(name, a, b):
        return MetricDelta(name, a, b)

    assert _is_worse(delta("loads:as-predicted", 1, 0)) is True
    assert _is_worse(delta("loads:scalar", 0, 1)) is True
    assert _is_worse(delta("vector-width", 16, 4)) is True
    assert _is_worse(delta("ops:global_load.16B", 2, 0)) is None
    assert _is_worse(delta("ops:ds_read.8B@amdgcn", 2, 0)) is None
    assert _is_worse(delta("ops:global_load", 2, 8)) is True and _is_worse(delta("regs", 40, 32)) is False


def test_kernels_of_one_name_built_for_other_targets_are_said_unpaired(cli, tmp_path, cache39):
    """helper 96: `diff c90 c100` of two caches built for cuda:90 and cuda:100 listed every kernel added and
    removed with no word: kernels pair by name and target, which the note says, with how to compare them."""
    import shutil

    from tritonscope.artifacts.cache import Cache

    a, b = tmp_path / "a", tmp_path / "b"
    for e in Cache(cache39).kernels():
        if e.name == "add_kernel" and e.target is not None:
            side = a if str(e.target) == "cuda:90" else b if str(e.target) == "hip:gfx942" else None
            if side is not None:
                shutil.copytree(e.path, side / e.path.name)
    r = cli("diff", str(a), str(b), "--stat")
    assert r.returncode == 0, r.stderr
    assert "kernel name(s) are on both sides for other targets (cuda:90 in A, hip:gfx942 in B): kernels pair by " \
        "name and target" in r.stderr, r.stderr
    same = cli("diff", str(a), str(a), "--stat")
    assert "other targets" not in same.stderr


def test_a_markdown_comment_keeps_to_its_budget_failing_kernels_first(cache32, cache39, monkeypatch):
    """Helper 106: on 600 changed kernels the comment was 269,164 characters (GitHub takes 65,536): only the
    kernels' details were cut, not the failures list or the tables; the kernels that failed a rule lost their
    details first (alphabetical order), and a kernel shown by line counts only had stage headers over nothing,
    unsaid. Here the budget is made small to cut 30 kernels the same way."""
    import re

    from click.testing import CliRunner

    from tritonscope.cli import main
    from tritonscope.render import diff as render_diff

    budget = 6000
    monkeypatch.setattr(render_diff, "MARKDOWN_BUDGET", budget)
    res = CliRunner().invoke(main, ["--records-cache", "off", "diff", str(cache32), str(cache39), "--format",
                                    "markdown", "--fail-on", "regs>+5%", "--fail-on", "smem>+0"])
    assert res.exit_code == 1, res.output
    md = res.stdout
    assert len(md) <= budget, len(md)
    failing = re.findall(r"^- `(?:regs>\+5%|smem>\+0)` `([^`]+)` `([^`]+)`", md, re.M)
    assert failing
    rows = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|", md, re.M)
    assert "more changed kernel(s); `--format json` lists them._" in md and rows
    # the table and the details start with the kernels that failed a rule
    assert set(rows[:len(set(failing))]) <= set(failing)
    details = re.findall(r"<details><summary><code>([^<]+)</code> <code>([^<]+)</code>", md)
    assert details and details[0] in set(failing)
    # every kernel is shown in full, by its line counts (said so) or counted as left out
    full = md.count("<details>") - md.count("_Its diff lines are left out to fit a comment._")
    m = re.search(r"_Of (\d+) changed kernel\(s\), (?:(\d+) shown as line counts only)?(?: and )?(?:(\d+) left "
                  r"out)? to fit a comment", md)
    assert m, md[-600:]
    counted, left = int(m.group(2) or 0), int(m.group(3) or 0)
    assert full + counted + left == int(m.group(1)) == 30


def test_autotuning_variants_of_one_kernel_are_told_apart_in_the_summary():
    """helper 118: two changed `scale_kernel cuda:90` rows (num_warps 4 and 8) were alike in the table; only
    the hashes of the detail headers told them apart. The fields that differ within the group label them."""
    from tritonscope.diff.core import KernelPair
    from tritonscope.diff.records import KernelRecord
    from tritonscope.render.diff import variant_labels

    def pair(target, spec, origin):
        return KernelPair(KernelRecord("k", target, spec, "a" + origin), KernelRecord("k", target, spec, origin))

    sig = {"args": ["!tt.ptr<f32>"], "attributes": ""}
    pairs = [pair("cuda:90", {"num_warps": 4, "num_stages": 3, "ir_signature": sig}, "AAAA"),
             pair("cuda:90", {"num_warps": 8, "num_stages": 3, "ir_signature": sig}, "BBBB"),
             pair("hip:gfx942", {"num_warps": 4, "ir_signature": sig}, "CCCC"),  # (alone of its target)
             pair("cuda:80", {"num_warps": 4, "ir_signature": sig}, "DDDD"),
             pair("cuda:80", {"num_warps": 4, "ir_signature": {"args": ["i64"], "attributes": ""}}, "EEEE"),
             pair("cuda:100", {"num_warps": 4}, "FFFFFFFFFFFFFF"), pair("cuda:100", {"num_warps": 4}, "GGGGGGGGGGGGG")]
    labels = variant_labels(pairs)
    assert [labels.get(id(p)) for p in pairs] == ["num_warps=4", "num_warps=8", None, "signature 1", "signature 2",
                                                  "FFFFFFFFFF", "GGGGGGGGGG"]
    # helper 123: three configs, two of one num_warps (their constexprs differ, which the spec does not hold):
    # the two alike get their hash too
    tuned = [pair("cuda:90", {"num_warps": w}, h) for w, h in ((32, "HHHHHHHHHHHH"), (32, "IIIIIIIIIIII"),
                                                                 (16, "JJJJJJJJJJJJ"))]
    labels = variant_labels(tuned)
    assert [labels[id(p)] for p in tuned] == ["num_warps=32 HHHHHHHHHH", "num_warps=32 IIIIIIIIII", "num_warps=16"]
