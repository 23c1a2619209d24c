"""`diff --fail-on` rules: each on a real pair that trips it and one that does not; exit codes 0/1/2."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tritonscope.diff.verdicts import Rule, parse_rules
from tritonscope.errors import UsageError


def _verdict(cli, a: Path, b: Path, rule: str, *filters: str) -> tuple[int, list[tuple[str, str, str]]]:
    proc = cli("diff", str(a), str(b), "--format", "json", "--fail-on", rule, *filters)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["exit_code"] == proc.returncode
    return proc.returncode, [(f["kernel"], f["target"], f["detail"]) for f in doc["failed_rules"]]


@pytest.fixture(scope="module")
def compiled_pairs(compile_kernel):
    """Caches compiled by the compile fixtures (no GPU): gemv aligned vs unaligned (cuda:90), flash
    attention with 4 warps vs 1 (hip:gfx942, where one warp runs out of VGPRs and spills)."""
    if importlib.util.find_spec("triton") is None:
        pytest.skip("triton is not installed: cannot compile the variant pairs")
    runs = {
        "gemv": compile_kernel("gemv", "cuda:90"),
        "gemv_unaligned": compile_kernel("gemv-unaligned", "cuda:90"),
        "fa": compile_kernel("flash_attention", "hip:gfx942"),
        "fa_1warp": compile_kernel("flash_attention", "hip:gfx942", num_warps=1),
    }
    for name, result in runs.items():
        assert result.ok, (name, result.error)
    return {name: Path(result.entry).parent for name, result in runs.items()}


def test_rule_grammar():
    assert Rule.parse("regs>+5%") == Rule("regs>+5%", "regs", ">", "percent", 5.0)
    assert Rule.parse("spills>0") == Rule("spills>0", "spills", ">", "value", 0.0)
    assert Rule.parse("smem>+0") == Rule("smem>+0", "smem", ">", "delta", 0.0)
    assert Rule.parse("vector-width<") == Rule("vector-width<", "vector-width", "<", "delta", 0.0)
    assert Rule.parse("ops:global_load>+0").metric == "ops:global_load"
    assert Rule.parse("ops:global_load.16B@llir<-2").threshold == -2.0
    assert [r.text for r in parse_rules(["any", "regs>+5%,spills>0"])] == ["any", "regs>+5%", "spills>0"]
    r = Rule.parse("regs>+5%")
    assert r.trips(100, 106) and not r.trips(100, 105) and not r.trips(None, 200)
    assert Rule.parse("smem>+10%").trips(0, 16) and Rule("x", "smem", ">", "percent", 10).trips(0, 1)
    for bad in ("regs>>5", "regs", "foo>5", "regs>5%", "ops:>0", ">5", "regs>+5%%"):
        with pytest.raises(UsageError):
            Rule.parse(bad)


def test_bad_rule_is_one_line_exit_2(cli, cache39):
    proc = cli("diff", str(cache39), str(cache39), "--fail-on", "regs>>5")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tritonscope: error: bad --fail-on rule 'regs>>5'")


def test_any(cli, cache32, cache39):
    code, failed = _verdict(cli, cache32, cache39, "any", "-k", "add_kernel")
    assert code == 1 and len(failed) == 6 and all(d.startswith("changed: ") for _, _, d in failed)
    assert _verdict(cli, cache39, cache39, "any") == (0, [])


def test_regs_percent(cli, cache32, cache39):
    # TotalNumVgprs 128 -> 140 (+9.4%) on gfx90a; matmul gfx90a goes 72 -> 60.
    assert _verdict(cli, cache32, cache39, "regs>+5%", "-k", "gemv_tile_kernel", "--target", "hip:gfx90a") == \
        (1, [("gemv_tile_kernel", "hip:gfx90a", "128 -> 140")])
    assert _verdict(cli, cache32, cache39, "regs>+10%", "-k", "gemv_tile_kernel", "--target", "hip:gfx90a") == \
        (0, [])
    assert _verdict(cli, cache32, cache39, "regs>+5%", "-k", "matmul_kernel", "--target", "hip:gfx90a") == (0, [])


def test_smem(cli, cache32, cache39):
    # metadata "shared": 8192 -> 16944 on gfx950; unchanged on gfx90a
    assert _verdict(cli, cache32, cache39, "smem>+0", "-k", "matmul_kernel", "--target", "hip:gfx950") == \
        (1, [("matmul_kernel", "hip:gfx950", "8192 -> 16944")])
    assert _verdict(cli, cache32, cache39, "smem>+0", "-k", "matmul_kernel", "--target", "hip:gfx90a") == (0, [])


def test_global_loads(cli, cache32, cache39):
    # global_load_dwordx4: 4 -> 10 on gfx942; add_kernel keeps its two loads everywhere.
    assert _verdict(cli, cache32, cache39, "ops:global_load>+0", "-k", "matmul_kernel", "--target",
                    "hip:gfx942") == (1, [("matmul_kernel", "hip:gfx942", "4 -> 10")])
    assert _verdict(cli, cache32, cache39, "ops:global_load>+0", "-k", "add_kernel") == (0, [])


def test_vector_width(cli, cache32, cache39, compiled_pairs):
    # Without tt.divisibility on w_ptr the 64x256 tile loads one fp16 at a time: 16 B -> 2 B per site.
    code, failed = _verdict(cli, compiled_pairs["gemv"], compiled_pairs["gemv_unaligned"], "vector-width<")
    assert code == 1
    assert failed == [("gemv_kernel", "cuda:90", "load at gemv.py:40: 16B -> 2B"),
                      ("gemv_kernel", "cuda:90", "load at gemv.py:41: 16B -> 2B")]
    assert _verdict(cli, compiled_pairs["gemv_unaligned"], compiled_pairs["gemv"], "vector-width<") == (0, [])
    assert _verdict(cli, cache32, cache39, "vector-width<") == (0, [])


def test_spills(cli, cache32, cache39, compiled_pairs):
    # One warp for flash attention on gfx942: `.vgpr_spill_count: 32` in the AMDGCN metadata.
    code, failed = _verdict(cli, compiled_pairs["fa"], compiled_pairs["fa_1warp"], "spills>0")
    assert (code, failed) == (1, [("attention_fwd_kernel", "hip:gfx942", "0 -> 32")])
    assert _verdict(cli, compiled_pairs["fa_1warp"], compiled_pairs["fa"], "spills>0") == (0, [])
    assert _verdict(cli, cache32, cache39, "spills>0", "--target", "hip") == (0, [])


def test_several_rules_list_which_failed(cli, cache32, cache39):
    proc = cli("diff", str(cache32), str(cache39), "-k", "matmul_kernel", "--target", "hip:gfx950", "--stat",
               "--fail-on", "smem>+0,spills>0", "--fail-on", "regs>+5%")
    assert proc.returncode == 1
    assert "FAILED rules: smem>+0" in proc.stdout
    assert "  smem>+0: matmul_kernel hip:gfx950: 8192 -> 16944" in proc.stdout


@pytest.mark.parametrize("text", ["ops:global_laod>+0", "ops:@>0", "ops:global_load@nonstage>0", "lines:foo>0",
                                  "loads:bogus>0", "ops:mma.16B>0", "", ",",
                                  # no stage spells a hint so (PTX: L1::evict_first), no access moves 3 bytes
                                  "ops:hint:evict_first>0", "ops:global_load.3B>0"])
def test_a_rule_naming_nothing_the_diff_counts_is_a_usage_error(text):
    """A misspelt class, stage or verdict (or no rule at all) would be a CI gate that never fails."""
    from tritonscope.diff.verdicts import parse_rules
    from tritonscope.errors import UsageError

    with pytest.raises(UsageError):
        parse_rules([text])


@pytest.mark.parametrize("text", ["ops:global_load@ptx>+0", "ops:global_load.16B<-1", "ops:mma@ttgir>+0",
                                  "ops:hint:L1::evict_first>0", "ops:hint:nc@ptx>0", "ops:hint:sc1@amdgcn>0",
                                  "ops:hint:glc>0", "lines:ptx>+10%", "loads:narrower>0", "ops:tcgen05_mma>0"])
def test_every_kind_of_counted_metric_is_a_rule(text):
    from tritonscope.diff.verdicts import parse_rules

    assert len(parse_rules([text])) == 1


@pytest.mark.parametrize(("a", "b", "failed"), [
    # an edit above the kernel moved both loads a line down: the y load (2nd) narrowed
    ({"k.py:65": 16, "k.py:66": 16}, {"k.py:66": 16, "k.py:67": 2}, ["load at k.py:66 (now k.py:67): 16B -> 2B"]),
    # the file renamed: nothing in common, the same loads in order
    ({"k.py:65": 16, "k.py:66": 16}, {"k2.py:65": 16, "k2.py:66": 2}, ["load at k.py:66 (now k2.py:66): 16B -> 2B"]),
    # unchanged sites, one widened: no failure
    ({"k.py:9": 4, "k.py:10": 16}, {"k.py:9": 8, "k.py:10": 16}, []),
    # a load added and another moved: the narrowest without a counterpart on each side
    ({"k.py:5": 16, "k.py:9": 16}, {"k.py:5": 16, "k.py:8": 4, "k.py:12": 16},
     ["load at k.py:9 (the narrowest of 1 sites without a counterpart; now k.py:8, of 2): 16B -> 4B"]),
    # helper 118: a scalar load added, none removed: the kernel's vector-width went 16 -> 4 and the rule
    # passed (a new site had no counterpart); it is held against A's narrowest
    ({"k.py:9": 16}, {"k.py:9": 16, "k.py:11": 4},
     ["load at k.py:11 (a new load; A's narrowest was k.py:9): 16B -> 4B"]),
    # a new load as wide as A's narrowest: nothing narrowed
    ({"k.py:9": 8, "k.py:10": 16}, {"k.py:9": 8, "k.py:10": 16, "k.py:11": 8}, []),
])
def test_vector_width_pairs_each_load_with_its_counterpart(a, b, failed):
    """Sites were compared only where their `file:line` was the same on both sides: any edit above the
    kernel, a renamed file or an Inductor hash let a narrowed load pass `vector-width<` (or compared one
    load with another)."""
    from tritonscope.diff.core import KernelPair
    from tritonscope.diff.records import KernelRecord
    from tritonscope.diff.verdicts import _vector_width_sites

    (rule,) = parse_rules(["vector-width<"])
    pair = KernelPair(KernelRecord("k", "cuda:90", {}, "a", load_sites=a),
                      KernelRecord("k", "cuda:90", {}, "b", load_sites=b))
    assert [f.detail for f in _vector_width_sites(rule, pair)] == failed


def test_an_inductor_kernel_files_sites_have_one_name_in_every_run():
    from tritonscope.diff.metrics import site_file

    assert site_file("/tmp/torchinductor_u/ab/cab" + "c" * 49 + ".py") == "inductor.py"
    assert site_file("/src/kernels.py") == "kernels.py"


def test_a_hint_metric_spelled_with_an_equals_sign_is_a_rule(cli, cache32, cache39):
    """MLIR's hints are metrics like `ops:hint:eviction_policy=evict_first@ttgir`: the `=` in the name made
    such a rule a usage error, so the hint could not be gated on."""
    rule = "ops:hint:eviction_policy=evict_first@ttgir>+0"
    assert Rule.parse(rule) == Rule(rule, "ops:hint:eviction_policy=evict_first@ttgir", ">", "delta", 0.0)
    assert Rule.parse("regs==5").cmp == "==" and Rule.parse("regs>=+5%").metric == "regs"
    # (3.2 and 3.9 spell the hint differently: one name, so no change)
    assert _verdict(cli, cache32, cache39, rule, "-k", "gemv_tile_kernel", "--target", "cuda:80") == (0, [])

    def entry(name: str) -> Path:
        return next(p.parent for p in cache39.glob(f"*/{name}.json") if '"arch": 80' in p.read_text())

    # a kernel without the hint against one with it (two entries pair whatever they are)
    assert _verdict(cli, entry("add_kernel"), entry("gemv_tile_kernel"), rule) == (
        1, [("gemv_tile_kernel", "cuda:80", "0 -> 1")])


def test_a_stage_chosen_scopes_any_to_it(cli, cache32, cache39):
    # 3.2 -> 3.9 add_kernel cuda:80: the TTIR is the same code renumbered; `-s ttir --fail-on any` failed on
    # lines:llir, lines:ptx, lines:source and tmem, none of them the TTIR's
    assert _verdict(cli, cache32, cache39, "any", "-k", "add_kernel", "--target", "cuda:80", "-s", "ttir") == (0, [])
    code, failed = _verdict(cli, cache32, cache39, "any", "-k", "add_kernel", "--target", "cuda:80", "-s", "ptx")
    assert code == 1 and failed == [("add_kernel", "cuda:80", "changed: ptx changed +13/-11, 1 metric(s)")]  # lines:ptx
    # a named metric's rule still applies
    code, failed = _verdict(cli, cache32, cache39, "lines:ptx>+0", "-k", "add_kernel", "--target", "cuda:80",
                            "-s", "ttir")
    assert code == 1 and [f[:2] for f in failed] == [("add_kernel", "cuda:80")]


def test_a_rule_whose_metric_is_unknown_says_which_kernels_it_did_not_judge(cli, cache39):
    """Helper 70: `--fail-on 'spills>0'` on cross-compiled CUDA kernels (no `n_spills` in their metadata: the
    metric unknown) printed "rules passed" and exited 0, a kernel spilling 580 bytes included: a CI gate
    passing on nothing. The kernels a rule could not judge are named in a note, and in `unjudged`."""
    proc = cli("diff", str(cache39), str(cache39), "--format", "json", "--fail-on", "spills>0", "--fail-on",
               "regs>+5%")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and not doc["failed_rules"]
    cuda = sorted(f"{m['kernel']} {m['target']}" for m in doc["matched"] if m["target"].startswith("cuda"))
    assert sorted(doc["unjudged"]["spills>0"]) == cuda and "regs>+5%" not in doc["unjudged"], doc["unjudged"]
    (note,) = [ln for ln in proc.stderr.splitlines() if "rule spills>0" in ln]
    assert note.startswith(f"tritonscope: note: rule spills>0: spills unknown for {len(cuda)} of "
                           f"{doc['summary']['matched']} kernel(s) (")
    # (not a cross-compiled kernel's alone, as it said: a JIT-compiled one's metadata has no spills either,
    # helper 106 on the H200 torch.compile cache)
    assert note.endswith("not judged: a CUDA kernel's spills are in no metadata (Triton's cache keeps none of "
                         "ptxas's counts; `stack>+0` watches its stack frame, spills included)")


def test_unjudged_kernels_include_added_ones_empty_load_sites_and_reach_the_reports(cli, cache39, tmp_path):
    """Helper 73: a value rule reads the added kernels too, but their unknown metric was never said (an empty
    A: 30 kernels added, `spills>0` "passed", `unjudged` empty); `vector-width<` with no load site on either
    side compared nothing and passed silently; the markdown and HTML reports, which CI posts, said only
    "rules passed". A metric no kernel of a backend has (an AMD kernel's VGPRs on CUDA) is no unknown."""
    import shutil

    empty = tmp_path / "empty"
    empty.mkdir()
    proc = cli("diff", str(empty), str(cache39), "--format", "json", "--fail-on", "spills>0", "--fail-on",
               "vgprs>0")
    doc = json.loads(proc.stdout)
    cuda = sorted(f"{r['kernel']} {r['target']}" for r in doc["added"] if r["target"].startswith("cuda"))
    assert cuda and doc["summary"]["added"] > len(cuda)
    assert sorted(doc["unjudged"]["spills>0"]) == cuda and "vgprs>0" not in doc["unjudged"], doc["unjudged"]
    # no load site on either side: vector-width< compares nothing
    binonly = tmp_path / "binonly"
    shutil.copytree(cache39, binonly)
    for p in binonly.rglob("*"):
        if p.suffix in (".ttir", ".ttgir", ".llir", ".ptx", ".amdgcn", ".source"):
            p.unlink()
    doc = json.loads(cli("diff", str(binonly), str(binonly), "--format", "json", "--fail-on", "vector-width<").stdout)
    assert len(doc["unjudged"]["vector-width<"]) == doc["summary"]["matched"] > 0
    md = cli("diff", str(cache39), str(cache39), "--format", "markdown", "--fail-on", "spills>0").stdout
    assert ":white_check_mark: Rules passed: `spills>0`" in md and ":warning: Not judged: rule spills\\>0: spills " \
        "unknown for " in md, md
    page = cli("diff", str(cache39), str(cache39), "--format", "html", "--fail-on", "spills>0").stdout
    assert "<b>Not judged</b>" in page and "passed (some not judged)" in page


def test_a_rule_on_a_metric_no_kernel_compared_has_says_it_judged_none(cli, cache39):
    """Helper 75: `--fail-on 'vgprs>+0'` over CUDA kernels only (an AMD metric) passed with no word and
    `unjudged: {}` once a metric no kernel of a backend has stopped counting as unknown: a gate judging
    nothing. It says it judged none."""
    proc = cli("diff", str(cache39), str(cache39), "--target", "cuda", "--format", "json", "--fail-on", "vgprs>+0")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and len(doc["unjudged"]["vgprs>+0"]) == doc["summary"]["matched"] > 0
    (note,) = [ln for ln in proc.stderr.splitlines() if "rule vgprs>+0" in ln]
    assert note.startswith("tritonscope: note: rule vgprs>+0: no kernel compared has vgprs (their targets: cuda:")
    assert note.endswith("), judged none"), note


def test_kernels_without_the_chosen_stage_are_not_compared_not_unchanged(cli, cache32, cache39):
    """helper 118: `--stage ptx` over an AMD kernel compared nothing of it and counted it `unchanged`, with no
    word; `--fail-on any` passed whatever changed. It is counted `not compared`, and a note says why."""
    args = ("-k", "add_kernel", "--target", "hip:gfx942", "-s", "ptx")
    r = cli("diff", str(cache32), str(cache39), *args, "--fail-on", "any")
    assert r.returncode == 0, r.stderr
    assert "changed 0  unchanged 0  not compared 1" in r.stdout, r.stdout
    assert "1 matched kernel(s) have no ptx stage on either side (add_kernel hip:gfx942)" in r.stderr, r.stderr
    doc = json.loads(cli("diff", str(cache32), str(cache39), *args, "--format", "json").stdout)
    assert doc["summary"]["uncompared"] == 1 and doc["summary"]["unchanged"] == 0
    # the stage there: compared as before
    r = cli("diff", str(cache32), str(cache39), "-k", "add_kernel", "--target", "hip:gfx942", "-s", "amdgcn")
    assert "not compared" not in r.stdout + r.stderr
