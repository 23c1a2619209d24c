"""Layouts as each Triton release decodes them, against that release's own `to_linear_layout`.

The records in tests/data/layout-oracle/ were made by tests/layout_oracle_record.py with each release's
wheel (3.6, the first to expose the conversion to Python, to 3.9); these tests need no wheel.
"""

from __future__ import annotations

import collections
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from layout_oracle import register_permutation

from tritonscope.cli import main
from tritonscope.layouts import releases
from tritonscope.layouts.attrs import parse_layout
from tritonscope.layouts.tensor import to_linear

RECORDS = Path(__file__).parent / "data" / "layout-oracle"
VERSIONS = ["3.6", "3.7", "3.8", "3.9"]


def _record(version: str) -> dict:
    return json.loads((RECORDS / f"triton-{version}.json").read_text())


def _kind(case: dict) -> str:
    if case["kind"] == "small":
        return releases.layout_kind(parse_layout(case["text"]))
    return case["kind"]


def test_every_recorded_release_has_a_record():
    assert sorted(f"{v[0]}.{v[1]}" for v in releases.RECORDED) == VERSIONS
    for v in VERSIONS:
        rec = _record(v)
        assert rec["triton"].startswith(v + ".") and len(rec["cases"]) >= 700
        # the same cases, in the same order, for every release
        assert [c["text"] for c in rec["cases"]] == [c["text"] for c in _record("3.9")["cases"]]


@pytest.mark.parametrize("version", VERSIONS)
def test_decoding_matches_the_release(version):
    rec = _record(version)
    semantics = releases.for_version(rec["triton"], "record")
    stats: collections.Counter = collections.Counter()
    problems = []
    for case in rec["cases"]:
        if "error" in case:
            stats["refused by this release"] += 1
            continue
        layout = parse_layout(case["text"])
        ours = to_linear(layout, case["shape"], case["bits"], semantics=semantics).to_json()
        if case.get("tmem"):  # Triton's Python object for a tensor memory layout carries no block bases
            ours = {k: ours[k] for k in ("row", "col")}
        if ours == case["bases"]:
            stats["match"] += 1
        elif semantics.unmodelled(releases.layout_kind(layout)) and register_permutation(ours, case["bases"]):
            stats["register order not modelled"] += 1  # releases.CHANGES says so, and `layout` notes it
        else:
            problems.append(f"{case['text']} {case['shape']}:\n  ours   {ours}\n  triton {case['bases']}")
    assert not problems, "\n".join(problems[:5])
    # 163 of the cases are tensor memory encodings: 3.6's binding cannot return one (all refused), 3.7 refuses
    # 3.8's CGALayout, padded FP4 and blockRepOrder spellings, 3.8 and 3.9 refuse 3.7's CTASplitM/N
    expected = {"3.6": {"match": 546, "refused by this release": 330},
                "3.7": {"match": 820, "register order not modelled": 6, "refused by this release": 50},
                "3.8": {"match": 868, "refused by this release": 8},
                "3.9": {"match": 868, "refused by this release": 8}}[version]
    assert dict(stats) == expected


def test_the_change_table_is_what_the_records_show():
    """Between consecutive releases, the kinds whose bases differ are exactly those CHANGES lists."""
    for older, newer in zip(VERSIONS, VERSIONS[1:], strict=False):
        changed = {_kind(a) for a, b in zip(_record(older)["cases"], _record(newer)["cases"], strict=True)
                   if "bases" in a and "bases" in b and a["bases"] != b["bases"]}
        listed = {c.kind for c in releases.CHANGES if f"{c.since[0]}.{c.since[1]}" == newer}
        assert changed == listed, (older, newer)


def test_issue_example_registers_per_release():
    text = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 16], warpsPerCTA = [2, 1], order = [1, 0]}>"
    layout = parse_layout(text)
    new = to_linear(layout, (2, 64), 16)
    old = to_linear(layout, (2, 64), 16, semantics=releases.from_option("3.8"))
    assert new.bases["register"] == [[1, 0], [0, 16], [0, 32]]
    assert old.bases["register"] == [[1, 0], [0, 0], [0, 0], [0, 16], [0, 32]]
    assert releases.active() == releases.DEFAULT  # a call's semantics do not leak


def _cli_bases(case: dict, *extra: str) -> dict:
    dtype = {8: "i8", 16: "f16", 32: "f32", 64: "f64"}[case["bits"]]
    r = CliRunner().invoke(main, ["layout", case["text"], "--shape", "x".join(map(str, case["shape"])),
                                  "--dtype", dtype, "--json", "--no-picture", *extra])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_layout_json_is_39_by_default_and_38_when_asked():
    """Random layouts, tensors smaller than the tile among them, through the command itself."""
    r38, r39 = _record("3.8")["cases"], _record("3.9")["cases"]
    both = [i for i, (a, b) in enumerate(zip(r38, r39, strict=True)) if "bases" in a and "bases" in b]
    differing = [i for i in both if r38[i]["bases"] != r39[i]["bases"]]
    picked = differing + both[::37]
    assert len(differing) >= 15
    for i in picked:
        default = _cli_bases(r39[i])
        if r39[i].get("tmem"):  # Triton's Python object for tensor memory has no block bases
            default["bases"].pop("block")
        assert default["bases"] == r39[i]["bases"], r39[i]["text"]
        assert default["semantics"] == {"triton_version": "3.9", "semantics_of": "3.9",
                                        "from": "default: the newest known release"}
        asked = _cli_bases(r38[i], "--triton-version", "3.8")
        if r38[i].get("tmem"):
            asked["bases"].pop("block")
        assert asked["bases"] == r38[i]["bases"], r38[i]["text"]
        assert asked["semantics"]["triton_version"] == "3.8"


def test_triton_version_option_errors(cli):
    text = "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    for bad, says in (("4.2", "the newest release known here is 3.9"), ("three", "expected a release like 3.8")):
        r = cli("layout", text, "--triton-version", bad)
        assert r.returncode == 2 and says in r.stderr and len(r.stderr.splitlines()) == 1


def test_unmodelled_change_is_said():
    text = ("#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = "
            "{register = [[1, 0]], warp = [[0, 1]]}}>, kWidth = 8}>")
    r = CliRunner().invoke(main, ["layout", text, "--shape", "128x128", "--json", "--triton-version", "3.7"])
    notes = json.loads(r.output)["notes"]
    assert any("Not modelled" in n and "3.7" in n for n in notes)


def test_loads_predicts_with_the_entrys_release(inductor_cache):
    """Inductor on Triton 3.6: a 2x1 tensor under a larger blocked tile keeps its repeated registers, so
    the prediction is 8 loads per thread, as LLIR has them (3.9's decoding would say 1)."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.loads.analyze import analyze_entry

    (entry,) = [e for e in Cache(inductor_cache).kernels()
                if e.name == "triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_5"][:1]
    report = analyze_entry(entry, sass=False)
    assert report.layout_semantics == {"triton_version": "3.6", "semantics_of": "3.6",
                                       "from": "the entry's metadata"}
    rows = [r for r in report.rows if r.line == 37 and r.shape == (2, 1)]
    assert rows and all(r.predicted_vectors_per_thread * r.instances == sum(r.counts("llir").values()) == 8
                        for r in rows)


def test_35_puts_every_element_on_the_thread_we_say():
    """Triton 3.5 has no `to_linear_layout` in Python; its Gluon `convert_layout(..., assert_trivial=True)`
    check (`is_convert_layout_trivial`: no element changes lane, warp or block) judged a conversion from
    each case's layout to a `#ttg.linear` of our bases under 3.5's semantics (tests/layout_equivalence_record.py).
    The record keeps the bases it judged: ours must still be those, and every judged case trivial."""
    rec = json.loads((RECORDS / "equivalence-3.5.json").read_text())
    assert rec["triton"].startswith("3.5.")
    semantics = releases.for_version(rec["triton"], "record")
    assert semantics.basis == (3, 5) and (3, 5) in releases.EQUIVALENCE_RECORDED
    stats: collections.Counter = collections.Counter()
    for case in rec["cases"]:
        if "error" in case:
            stats["refused by 3.5"] += 1  # 3.8's CGALayout and 3.7's WMMA spellings
            continue
        ours = to_linear(parse_layout(case["text"]), case["shape"], case["bits"], semantics=semantics).to_json()
        assert ours == case["bases"], case["text"]
        stats["trivial" if case["trivial"] else "moves elements"] += 1
    assert dict(stats) == {"trivial": 576, "refused by 3.5": 78}
    # the 48 operands of MFMA parents with tiles per warp are where 3.5 differs from 3.6 on
    tiles = [c for c in rec["cases"] if c["kind"] == "dot_op(amd_mfma) tiles"]
    differ = [c for c in tiles if to_linear(parse_layout(c["text"]), c["shape"], c["bits"],
                                            semantics=releases.from_option("3.6")).to_json() != c["bases"]]
    assert len(tiles) == 48 and len(differ) == 24


# metadata keys as each release wrote them (cuda entries; 3.3 added `triton_version`)
META_31 = {"allow_fp8e4b15": True, "allow_fp8e4nv": True, "backend_name": "cuda", "hash": "h", "name": "k",
           "num_warps": 4, "ptx_version": None, "target": {"backend": "cuda", "arch": 90, "warp_size": 32}}
META_32 = {"backend_name": "cuda", "deprecated_fp8_dtypes": [], "sanitize_overflow": True, "name": "k",
           "supported_fp8_dtypes": ["fp8e5"], "target": {"backend": "cuda", "arch": 90, "warp_size": 32}}
META_23 = {"ids_of_folded_args": [], "name": "k", "num_warps": 4, "target": ["cuda", 90]}
# as 2.2, 2.1 and 2.0 wrote them (cross-compiled with each release's wheel, tests/test_releases_2x.py)
META_22 = {"num_warps": 4, "num_ctas": 1, "num_stages": 3, "enable_warp_specialization": False, "debug": False,
           "target": {"capability": 80, "num_warps": 4, "enable_fp_fusion": True}, "device_type": "cuda",
           "shared": 0, "name": "k_0123", "clusterDims": [1, 1, 1]}
META_21 = {"num_warps": 4, "num_stages": 3, "constants": {}, "debug": False, "arch": 80, "device_type": "cuda",
           "shared": 0, "name": "k_0123"}
META_20 = {"num_warps": 4, "num_stages": 3, "ctime": {"ttir": 1.0}, "shared": 0, "name": "k_0123"}


def test_an_entry_without_triton_version_is_decoded_as_its_fields_show():
    from tritonscope.artifacts.cache import infer_release

    found = {k: infer_release(m)[:2] for k, m in
             {"3.1": META_31, "3.2": META_32, "2.3": META_23, "2.2": META_22, "2.1": META_21, "2.0": META_20}.items()}
    assert found == {"3.1": ((3, 1), "3.0-3.1"), "3.2": ((3, 2), "3.2"), "2.3": ((2, 3), "2.3"),
                     "2.2": ((2, 2), "2.2"), "2.1": ((2, 1), "2.1"), "2.0": ((2, 0), "2.0")}
    assert infer_release({**META_32, "triton_version": "3.3.1"}) is None
    assert infer_release({"name": "k"}) is None and infer_release(None) is None

    class Entry:
        def __init__(self, meta):
            self.metadata, self.triton_version = meta, meta.get("triton_version")
            self.inferred_release = infer_release(meta)

    assert releases.for_entry(Entry({**META_32, "triton_version": "3.6.0"})).release == (3, 6)
    assert releases.for_entry(Entry(META_32)).to_json() == {
        "triton_version": "3.2", "semantics_of": "3.2",
        "from": "inferred: metadata without triton_version, with 3.2's sanitize_overflow"}
    assert releases.for_entry(Entry({"name": "k"})) == releases.DEFAULT
    # 2.2 and 2.3 are checked releases; 2.0 and 2.1 are decoded with the oldest one's semantics, and say so
    for meta, basis in ((META_23, (2, 3)), (META_22, (2, 2)), (META_21, (2, 2)), (META_20, (2, 2))):
        old = releases.for_entry(Entry(meta))
        assert old.basis == basis
        assert ("the oldest release checked" in old.sentence()) == (old.release < (2, 2))


def test_layout_of_a_23_entry_uses_its_inferred_release(cache23):
    from tritonscope.artifacts.cache import Cache

    entry = Cache(cache23).kernels()[0]
    r = CliRunner().invoke(main, ["layout", str(entry.path), "--json", "--no-picture"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["semantics"] == {
        "triton_version": "2.3", "semantics_of": "2.3",
        "from": "inferred: 2.3 metadata (ids_of_folded_args, the target as a list)"}


def test_a_32_slice_keeps_the_registers_that_repeat_an_element():
    """3.2's code generator (tests/data/layout-oracle/codegen-3.2.json) keeps a small slice's repeated
    registers along its kept dim and drops those of the sliced dim; 3.3 drops both."""
    text = ("#triton_gpu.slice<{dim = 0, parent = #triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
            "[8, 4], warpsPerCTA = [8, 1], order = [0, 1]}>}>")
    layout = parse_layout(text)
    in32 = to_linear(layout, (1,), 16, semantics=releases.from_option("3.2")).to_json()
    in33 = to_linear(layout, (1,), 16, semantics=releases.from_option("3.3")).to_json()
    assert in32["register"] == [[0], [0], [0]] and in33["register"] == []


def test_the_small_mma_note_only_for_a_tensor_smaller_than_the_tile():
    """3.0/3.1 place an MMA tensor smaller than the tile differently (not modelled): said for such a
    tensor only, not for every MMA layout of a 3.0/3.1 cache."""
    text = "#triton_gpu.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"

    def notes(shape: str, version: str) -> list[str]:
        r = CliRunner().invoke(main, ["layout", text, "--shape", shape, "--json", "--no-picture",
                                      "--triton-version", version])
        return json.loads(r.output)["notes"]

    assert any("smaller than the MMA tile" in n for n in notes("8x8", "3.1"))
    assert not any("smaller than the MMA tile" in n for n in notes("256x128", "3.1"))
    assert not any("smaller than the MMA tile" in n for n in notes("8x8", "3.2"))


def test_an_entry_without_metadata_is_read_by_its_ttgirs_dialect(cache32):
    """A partial 3.2 entry (no metadata json: an interrupted compile) was decoded with 3.9's semantics,
    though its TTGIR spells the dialect `triton_gpu.`, which 3.3 renamed: 3.2's blocked layout holds 8
    elements a thread where 3.9's drops the repeated registers."""
    partial = cache32 / "yKvBOO6xd2CwxO-K_z6kJ1zyut3Bis_77ewfPYuuIEU"
    assert not list(partial.glob("*.json"))
    r = CliRunner().invoke(main, ["layout", str(partial / "matmul_kernel.ttgir"), "--alias", "blocked1",
                                  "--shape", "32x1", "--json", "--no-picture"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["semantics"]["semantics_of"] == "3.2" and "triton_gpu." in doc["semantics"]["from"]
    assert doc["elements_per_thread"] == 8


@pytest.mark.parametrize(("dtype", "registers"), [
    ("f32", [[8, 0], [0, 4], [0, 8], [0, 16], [32, 0]]),  # tf32 m16n8k8: (g, t), (g+8, t), (g, t+4), ...
    ("f16", [[0, 1], [8, 0], [0, 8], [0, 16], [32, 0]]),
    ("i8", [[0, 1], [0, 2], [8, 0], [0, 16], [32, 0]]),  # m16n8k32: 4 consecutive k a register
])
def test_an_mma_operand_without_kwidth_packs_32_bits_a_register(dtype, registers):
    """Triton 2.0/2.1 print no kWidth on an MMA operand: it was read as kWidth 2 whatever the element type
    (an f32 or i8 operand laid out as an f16 one); an MMAv2 operand register holds 32 bits."""
    text = ("#triton_gpu.dot_op<{opIdx = 0, parent = #triton_gpu.mma<{versionMajor = 2, versionMinor = 0, "
            "warpsPerCTA = [2, 2]}>}>")
    r = CliRunner().invoke(main, ["layout", text, "--shape", "64x32", "--dtype", dtype, "--triton-version", "2.2",
                                  "--json", "--no-picture"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["bases"]["register"] == registers


@pytest.mark.parametrize("version", ["3.8", "3.9"])
def test_generic_linear_and_fp64_mma_layouts_as_the_release_decodes_them(version):
    """Helper 79 (Triton's test_elementwise_generic_linear): from 3.8 a non-injective or warp-swizzled
    DistributedLinearLayout prints as `#ttg.generic_linear`, which no command read ('unknown layout kind'); a
    tensor smaller than such a layout lost one of two alike bases only, and a linear layout's dims were ordered
    by its lane and warp bases too (Triton's getOrder reads only the register bases). Helper 78: the operands
    of fp64's MMA (`instrShape = [8, 8]` from 3.8) were laid out 16 rows tall, and kept registers Triton drops.
    Against each release's answers (tests/layout_oracle_record.py --extra: the cases its binding answers)."""
    rec = json.loads((RECORDS / f"extra-triton-{version}.json").read_text())
    assert rec["triton"].startswith(version + ".")
    semantics = releases.for_version(rec["triton"], "record")
    kinds: collections.Counter = collections.Counter()
    alike = 0
    with releases.using(semantics):
        for case in rec["cases"]:
            layout = parse_layout(case["text"])
            assert to_linear(layout, case["shape"], case["bits"]).to_json() == case["bases"], case
            kinds[case["kind"]] += 1
            if layout.kind == "generic_linear":
                bases = [tuple(b) for k in ("register", "lane", "warp") for b in layout.bases[k] if any(b)]
                alike += len(set(bases)) < len(bases)
                assert any(sum(1 for v in b if v) > 1 for b in layout.bases["warp"])
    assert kinds["generic_linear"] >= 20 and alike >= 10
    assert kinds["dot_op(nvidia_mma)"] == 216 and kinds["nvidia_mma"] == 54


def test_a_generic_linear_layout_counts_the_threads_holding_each_element(tmp_path):
    """Two alike bases (a register's and a warp's) put each element on two threads, as a zero warp basis
    would; the count came from zero bases only ('each element held by one thread'). Registers repeating an
    element (a zero register basis) are counted once per element."""
    ttgir = tmp_path / "g.ttgir"
    ttgir.write_text(
        "#g = #ttg.generic_linear<{register = [[0, 1], [0, 2], [0, 4], [0, 16], [32, 0]], lane = [[1, 0], [2, 0], "
        "[4, 0], [8, 0], [0, 8]], warp = [[32, 0], [16, 0]], block = []}>\n"
        "#r = #ttg.linear<{register = [[0], [1]], lane = [[2], [4], [8], [16], [32]], warp = [[64], [128]], "
        "block = []}>\n"
        'module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {\n'
        "  tt.func public @k() {\n"
        "    %a = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #g>\n"
        "    %b = arith.constant dense<0> : tensor<256xi32, #r>\n"
        "    tt.return\n  }\n}\n")
    res = CliRunner().invoke(main, ["layout", str(ttgir), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    facts = {lay["name"]: lay["uses"][0]["facts"] for lay in doc["layouts"]}
    assert facts["g"]["threads_per_element"] == 2 and facts["g"]["elements_per_thread"] == 32
    assert facts["r"]["threads_per_element"] == 1 and facts["r"]["distinct_per_thread"] == 2


DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("release,entry,oldest,by", [
    ("3.3", "releases-3.0-3.4/3.3/CUQKKHCF75H76GQ7EJIUCFS6PQ4VDEQ2VP2DHCONARFPDDIOUCAA", "3.3", "`ttg.` dialect"),
    ("3.7", "releases-3.5-3.8/3.7/OIDXT2NSUCMLCWBBICZI5XM3OWR6SVTPO5WD2SJTIAYPUCTG6AZQ", "3.5", "named locations"),
])
def test_an_entry_whose_metadata_is_lost_says_its_release_is_a_guess(tmp_path, release, entry, oldest, by):
    """A 3.3+ entry whose metadata is gone or cut short (a full disk) was decoded as 3.9 with no word in
    `loads` (helper 111): its TTGIR shows only a lower bound (the `ttg.` dialect: 3.3; named locations: 3.5; a
    `.source` stage: 3.4), and releases after it changed how some layouts decode. Both commands now say so."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.loads.analyze import analyze_entry

    copy = shutil.copytree(DATA / entry, tmp_path / "c" / Path(entry).name)
    (meta,) = [p for p in copy.glob("*.json") if not p.name.startswith("__grp__")]
    meta.write_text(meta.read_text()[:40])  # cut short
    (e,) = Cache(copy.parent).entries()
    semantics = releases.for_entry(e)
    assert semantics.guessed and semantics.release == releases.NEWEST
    assert f"{oldest} or later, by its TTGIR's {by}" in semantics.said and "3.8 decode blocked" in semantics.said
    assert semantics.sentence() in analyze_entry(e, sass=False).notes
    meta.unlink()  # (gone: the same)
    (e,) = Cache(copy.parent).entries()
    assert releases.for_entry(e).said == semantics.said
    r = CliRunner().invoke(main, ["layout", str(copy), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["semantics"]["from"] == semantics.said


def test_a_version_that_does_not_read_or_fields_the_ttgir_contradicts_are_said(tmp_path, cache39):
    """Helper 119: a `triton_version` with text after it (`3.7.1<svg ...>`) fell to the newest release as the
    plain default, and metadata without `triton_version` but with 3.2's `sanitize_overflow` was read as 3.2
    though its TTGIR spells the dialect `ttg.` (3.3 on)."""
    from tritonscope.artifacts.cache import Cache

    copy = shutil.copytree(DATA / "releases-3.5-3.8/3.7/OIDXT2NSUCMLCWBBICZI5XM3OWR6SVTPO5WD2SJTIAYPUCTG6AZQ",
                           tmp_path / "a" / "OIDXT2NSUCMLCWBBICZI5XM3OWR6SVTPO5WD2SJTIAYPUCTG6AZQ")
    (meta,) = [p for p in copy.glob("*.json") if not p.name.startswith("__grp__")]
    doc = json.loads(meta.read_text())
    meta.write_text(json.dumps({**doc, "triton_version": doc["triton_version"] + "<svg onload=x>"}))
    (e,) = Cache(copy.parent).entries()
    semantics = releases.for_entry(e)
    assert semantics.guessed and semantics.said.startswith(
        "the metadata's triton_version does not read as a release: 3.5 or later, by its TTGIR's named locations")
    entry = next(p for p in cache39.iterdir() if any(p.glob("*.ttgir")))
    copy = shutil.copytree(entry, tmp_path / "b" / entry.name)
    (meta,) = [p for p in copy.glob("*.json") if not p.name.startswith("__grp__")]
    doc = json.loads(meta.read_text())
    assert "sanitize_overflow" in doc
    meta.write_text(json.dumps({k: v for k, v in doc.items() if k != "triton_version"}))
    (e,) = Cache(copy.parent).entries()
    semantics = releases.for_entry(e)
    assert semantics.release == releases.NEWEST and semantics.guessed, semantics
    assert semantics.said.startswith("metadata fields of 3.2 (no triton_version), but its TTGIR is later: 3.")
    # a real 3.2 entry stays 3.2 (its TTGIR spells `triton_gpu.`)
    assert releases.for_entry(next(iter(Cache(DATA / "releases-3.0-3.4" / "3.1").entries()))).release < (3, 3)


def test_a_version_the_ttgir_contradicts_is_said_and_the_ttgir_decides(tmp_path):
    """Helper 126: `triton_version` edited to 3.2.0 on a 3.7 entry (whose TTGIR spells `ttg.`, with named
    locations: 3.5 or later) was taken as written, without a word, and the layouts decoded as 3.2 does; so was
    2.3.1, and 3.6 on a TTGIR of the `triton_gpu.` dialect (3.2 or older)."""
    from tritonscope.artifacts.cache import Cache

    def with_version(src: Path, name: str, version: str):
        copy = shutil.copytree(src, tmp_path / name / src.name)
        (meta,) = [p for p in copy.glob("*.json") if not p.name.startswith("__grp__")]
        meta.write_text(json.dumps({**json.loads(meta.read_text()), "triton_version": version}))
        (e,) = Cache(copy.parent).entries()
        return releases.for_entry(e)

    new = DATA / "releases-3.5-3.8/3.7/OIDXT2NSUCMLCWBBICZI5XM3OWR6SVTPO5WD2SJTIAYPUCTG6AZQ"
    for version in ("3.2.0", "2.3.1", "3.4.0"):
        s = with_version(new, version, version)
        assert s.guessed and s.release == releases.NEWEST, (version, s)
        assert s.said.startswith(f"the metadata's triton_version {version[:3]} contradicts its TTGIR: 3.5 or later, "
                                 "by its TTGIR's named locations"), s.said
    s = with_version(new, "ok", "3.6.0")  # (the TTGIR agrees: 3.5 or later)
    assert s == releases.Semantics((3, 6), "the entry's metadata")
    old = next(p for p in (DATA / "releases-3.0-3.4" / "3.1").iterdir() if any(p.glob("*.ttgir")))
    s = with_version(old, "old", "3.6.0")
    assert s.release == (3, 2) and s.guessed and "its `triton_gpu.` dialect is 3.2 or older; read as 3.2" in s.said


def test_a_version_that_is_no_string_is_said_so(tmp_path):
    """Helper 126: `"triton_version": 3.3` (a JSON number) read as 'no metadata names the release'."""
    from tritonscope.artifacts.cache import Cache

    src = DATA / "releases-3.5-3.8/3.7/OIDXT2NSUCMLCWBBICZI5XM3OWR6SVTPO5WD2SJTIAYPUCTG6AZQ"
    copy = shutil.copytree(src, tmp_path / "a" / src.name)
    (meta,) = [p for p in copy.glob("*.json") if not p.name.startswith("__grp__")]
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "triton_version": 3.7}))
    (e,) = Cache(copy.parent).entries()
    s = releases.for_entry(e)
    assert s.guessed and s.said.startswith("the metadata's triton_version is not a string, as Triton writes it: 3.5 "
                                           "or later, by its TTGIR's named locations"), s.said
