"""Every command on caches of Triton 3.0, 3.1, 3.3 and 3.4 (tests/data/releases-3.0-3.4: this project's
samples cross-compiled by each release's wheel): the release each is decoded as (3.0/3.1 name none in their
metadata), every access of `loads` with a verdict, and how many ops of each text stage are mapped. And on
caches of Triton 2.0, 2.1 and 2.2 (tests/data/releases-2.0-2.2): target, name and release as each one's
metadata shows them, and `loads` saying that their TTGIR has no locations. And one real library kernel as
Triton 3.5, 3.7 and 3.8 compile it (tests/data/releases-3.5-3.8)."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tritonscope.artifacts.cache import Cache
from tritonscope.cli import main

DATA = Path(__file__).parent / "data" / "releases-3.0-3.4"
TEXT = ("ttir", "ttgir", "llir", "ptx", "amdgcn")

# (release folder, kernel, target): (loads verdicts, release decoded as, layouts, {stage: (ops, attributed)})
EXPECTED = {
    ("3.0", "layer_norm_kernel", "cuda:80"): ({"as-predicted": 6, "scalar": 2}, "3.1", 1, {
        "ttir": (82, 77), "ttgir": (75, 70), "llir": (274, 262), "ptx": (268, 249)}),
    ("3.0", "matmul_kernel", "cuda:90"): ({"as-predicted": 3}, "3.1", 9, {
        "ttir": (96, 83), "ttgir": (168, 152), "llir": (950, 803), "ptx": (639, 627)}),
    ("3.1", "matmul_kernel", "hip:gfx942"): ({"as-predicted": 5, "scalar": 2}, "3.1", 13, {
        "ttir": (96, 83), "ttgir": (107, 94), "llir": (766, 565), "amdgcn": (837, 802)}),
    ("3.1", "softmax_kernel", "hip:gfx942"): ({"scalar": 2}, "3.1", 1, {
        "ttir": (27, 26), "ttgir": (27, 26), "llir": (203, 197), "amdgcn": (275, 265)}),
    ("3.3", "layer_norm_kernel", "cuda:90"): ({"as-predicted": 6, "scalar": 2}, "3.3", 1, {
        "ttir": (82, 77), "ttgir": (75, 70), "llir": (265, 246), "ptx": (255, 237)}),
    ("3.3", "matmul_kernel", "hip:gfx942"): ({"as-predicted": 6, "scalar": 1}, "3.3", 13, {
        "ttir": (96, 83), "ttgir": (172, 158), "llir": (1006, 808), "amdgcn": (977, 914)}),
    ("3.4", "gluon_transpose_kernel", "cuda:90"): ({"as-predicted": 3, "scalar": 1}, "3.4", 7, {
        "ttgir": (40, 39), "llir": (255, 247), "ptx": (177, 177)}),
    ("3.4", "matmul_kernel", "cuda:90"): ({"as-predicted": 4}, "3.4", 9, {
        "ttir": (96, 83), "ttgir": (168, 152), "llir": (957, 818), "ptx": (595, 583)}),
}


def _entries(data: Path = DATA):
    for rel in sorted(p.name for p in data.iterdir() if p.is_dir()):
        for e in sorted(Cache(data / rel).kernels(), key=lambda e: (e.name, str(e.target))):
            yield rel, e


def _mapped(entry) -> dict:
    """stage -> (ops, ops with a source line) of every text stage the entry has (`map --stats`)."""
    present = [s for s in TEXT if s in entry.stages]
    stats = _json("map", "--stats", str(entry.path), "--json", "--stages", ",".join(present))
    return {s["stage"]: (s["ops"], s["attributed"]) for s in stats["kernels"][0]["stages"]}


def _json(*args: str) -> dict:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_every_entry_is_found_with_its_release():
    found = {(rel, e.name, str(e.target)) for rel, e in _entries()}
    assert found == set(EXPECTED)
    listed = _json("ls", "--cache-dir", str(DATA / "3.3"), "--json", "--all")
    assert sorted(x["triton_version"] for x in listed["entries"]) == ["3.3.1", "3.3.1"]


@pytest.mark.parametrize("key", sorted(EXPECTED), ids=lambda k: "-".join(k))
def test_each_command_on_the_release_cache(key):
    rel, name, target = key
    (entry,) = [e for r, e in _entries() if (r, e.name, str(e.target)) == key]
    verdicts, decoded_as, layouts, stages = EXPECTED[key]
    loads = _json("loads", str(entry.path), "--json")
    assert dict(collections.Counter(row["verdict"] for row in loads["rows"])) == verdicts
    assert "unknown" not in verdicts
    layout = _json("layout", str(entry.path), "--json", "--no-picture")
    assert layout["semantics"]["triton_version"] == decoded_as and len(layout["layouts"]) == layouts
    if rel in ("3.0", "3.1"):  # no triton_version in the metadata: inferred, and said so
        assert layout["semantics"]["from"].startswith("inferred: 3.0/3.1 metadata")
    assert _mapped(entry) == stages


# -- Triton 2.0, 2.1 and 2.2 (tests/data/releases-2.0-2.2) ---------------------------------------------------

DATA_2X = Path(__file__).parent / "data" / "releases-2.0-2.2"

# (release folder, kernel, target): (mangled name, accesses, layouts, {stage: (ops, attributed)})
EXPECTED_2X = {
    ("2.0", "add_kernel", "cuda:80"): ("add_kernel_0123", 3, 1, {
        "ttir": (23, 0), "ttgir": (23, 0), "llir": (133, 0), "ptx": (114, 0)}),
    ("2.0", "dot_kernel", "cuda:80"): ("dot_kernel_0123456", 3, 11, {
        "ttir": (46, 0), "ttgir": (55, 0), "llir": (1096, 0), "ptx": (700, 0)}),
    ("2.0", "softmax_kernel", "cuda:80"): ("softmax_kernel_0123", 2, 1, {
        "ttir": (23, 0), "ttgir": (23, 0), "llir": (185, 0), "ptx": (216, 0)}),
    ("2.1", "add_kernel", "cuda:90"): ("add_kernel_0123", 3, 1, {
        "ttir": (21, 0), "ttgir": (21, 0), "llir": (117, 117), "ptx": (123, 123)}),
    ("2.1", "dot_kernel", "cuda:80"): ("dot_kernel_0123456", 3, 11, {
        "ttir": (43, 0), "ttgir": (52, 0), "llir": (1016, 868), "ptx": (728, 719)}),
    ("2.2", "dot_kernel", "cuda:80"): ("dot_kernel_0123456", 3, 11, {
        "ttir": (43, 0), "ttgir": (52, 0), "llir": (1002, 774), "ptx": (751, 742)}),
    ("2.2", "dot_kernel", "cuda:90"): ("dot_kernel_0123456", 3, 9, {
        "ttir": (43, 0), "ttgir": (51, 0), "llir": (1126, 853), "ptx": (860, 840)}),
    ("2.2", "softmax_kernel", "cuda:80"): ("softmax_kernel_0123", 2, 1, {
        "ttir": (26, 0), "ttgir": (26, 0), "llir": (206, 206), "ptx": (224, 224)}),
}
HOW_2X = {"2.0": "inferred: 2.0 metadata (the stages' ctime)",
          "2.1": "inferred: 2.1 metadata (arch and device_type)",
          "2.2": "inferred: 2.2 metadata (the target as {capability}, enable_warp_specialization)"}


def test_2x_entries_are_listed_with_target_name_and_inferred_release():
    """Each release's metadata names its target its own way (2.0 not at all: the PTX's `.target`), mangles
    the kernel name with bare argument indices, and names no release: `ls` shows what the fields show."""
    found = {(rel, e.name, str(e.target)): e.mangled_name for rel, e in _entries(DATA_2X)}
    assert found == {k: v[0] for k, v in EXPECTED_2X.items()}
    for rel in HOW_2X:
        listed = _json("ls", "--cache-dir", str(DATA_2X / rel), "--json", "--all")
        assert {(x["triton_version"], x["triton_version_inferred"]) for x in listed["entries"]} == {(None, rel)}
        assert all(x["target"]["backend"] == "cuda" for x in listed["entries"])
        table = CliRunner().invoke(main, ["ls", "--cache-dir", str(DATA_2X / rel)]).output
        assert f" {rel}? " in table and "_0123" not in table


@pytest.mark.parametrize("key", sorted(EXPECTED_2X), ids=lambda k: "-".join(k))
def test_each_command_on_a_2x_cache(key):
    rel, name, target = key
    (entry,) = [e for r, e in _entries(DATA_2X) if (r, e.name, str(e.target)) == key]
    _, accesses, layouts, stages = EXPECTED_2X[key]
    loads = _json("loads", str(entry.path), "--json")
    # TTGIR without locations: every access listed by its TTGIR line. 2.1 and 2.2 locate LLIR and PTX: no
    # access is joined to their instructions by line, and that is said; 2.0 locates nothing: each access
    # shares the kernel's instructions of its kind (ambiguous where there are several)
    assert len(loads["rows"]) == accesses
    for row in loads["rows"]:
        assert row["where"].startswith("ttgir:") and row["where"].endswith(" (no loc)")
        if rel == "2.0":
            assert row["verdict"] == "scalar" and row["attribution"] in ("exact", "ambiguous"), row
        else:
            assert (row["verdict"], row["reasons"], row["stages"]) == ("unknown", ["no-location"], {})
    first = "no access and no instruction carries" if rel == "2.0" else "TTGIR: no access carries a source location"
    assert any(n.startswith(first) for n in loads["notes"])
    layout = _json("layout", str(entry.path), "--json", "--no-picture")
    assert layout["semantics"]["triton_version"] == rel and layout["semantics"]["from"] == HOW_2X[rel]
    assert len(layout["layouts"]) == layouts
    assert _mapped(entry) == stages


# -- Triton 3.5, 3.7 and 3.8: one aiter kernel (tests/data/releases-3.5-3.8) -----------------------------------

DATA_35 = Path(__file__).parent / "data" / "releases-3.5-3.8"
# release folder: (version, {where: (kind, verdict, reasons, count changes)}, {stage: (ops, attributed)})
EXPECTED_35 = {
    "3.5": ("3.5.1", {
        "333:32": ("global_load", "scalar", ["scalar-access"], []),
        "334:8": ("global_load", "scalar", ["scalar-access"], ["combined"]),
        "354:16": ("global_load", "scalar", ["unknown-alignment"], ["unrolled"]),
        "356:29": ("global_load", "scalar", ["scalar-access"], ["unrolled"]),
        "369:8": ("global_store", "as-predicted", [], [])},
        {"ttir": (84, 75), "ttgir": (75, 66), "llir": (367, 361), "amdgcn": (496, 494)}),
    "3.7": ("3.7.0", {
        "333:32": ("global_load", "scalar", ["scalar-access"], []),
        "334:8": ("global_load", "scalar", ["scalar-access"], ["combined"]),
        "354:16": ("buffer_load", "scalar", ["unknown-alignment"], ["unrolled"]),
        "356:29": ("global_load", "scalar", ["scalar-access"], ["unrolled"]),
        "369:8": ("buffer_store", "as-predicted", [], [])},
        {"ttir": (84, 76), "ttgir": (73, 65), "llir": (405, 401), "amdgcn": (500, 497)}),
    "3.8": ("3.8.0", {
        "333:25": ("global_load", "scalar", ["scalar-access"], []),
        "333:62": ("global_load", "scalar", ["scalar-access"], ["combined"]),
        "353:18": ("buffer_load", "scalar", ["unknown-alignment"], ["unrolled"]),
        "356:22": ("global_load", "scalar", ["scalar-access"], ["unrolled"]),
        "367:5": ("buffer_store", "as-predicted", [], [])},
        {"ttir": (84, 76), "ttgir": (72, 64), "llir": (397, 393), "amdgcn": (515, 512)}),
}


@pytest.mark.parametrize("rel", sorted(EXPECTED_35))
def test_one_library_kernel_as_each_release_compiles_it(rel):
    version, rows, stages = EXPECTED_35[rel]
    (entry,) = Cache(DATA_35 / rel).kernels()
    assert entry.name == "_fwd_kernel_stage2" and entry.triton_version == version and str(entry.target) == "hip:gfx942"
    loads = _json("loads", str(entry.path), "--json")
    assert {r["where"]: (r["kind"], r["verdict"], r["reasons"], [c["code"] for c in r["count_changes"]])
            for r in loads["rows"]} == rows
    layout = _json("layout", str(entry.path), "--json", "--no-picture")
    assert layout["semantics"]["triton_version"] == rel and layout["semantics"]["from"] == "the entry's metadata"
    assert _mapped(entry) == stages


def _copy_entry(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


def test_every_cubins_header_names_the_arch_its_metadata_does():
    """An entry keeping only its CUBIN (2.0 names its target in no metadata, only the PTX's `.target`) takes
    the arch from the ELF header's flags: both ABIs (0x33 v7, 0x41 v8) of every CUBIN in the test data and
    the corpus give the arch their entry's metadata names."""
    from tritonscope.artifacts.nvinfo import cubin_arch

    root = Path(__file__).parent / "data"
    checked = collections.Counter()
    from conftest import CORPUS

    for cache in (root, CORPUS):
        for cubin in sorted(cache.rglob("*.cubin")):
            entry = next((e for e in Cache(cubin.parent.parent).kernels() if e.path == cubin.parent), None)
            if entry is None or entry.metadata is None or entry.target is None:
                continue
            head = cubin.read_bytes()[:64]
            assert cubin_arch(head) == entry.target.arch, cubin
            checked[(head[7], head[8])] += 1
    assert checked[(0x33, 7)] > 50 and checked[(0x41, 8)] > 20, checked
    assert cubin_arch(b"\x7fELF" + bytes(60)) is None and cubin_arch(b"") is None
    head = bytearray(next(h for h in (c.read_bytes()[:64] for c in sorted(root.rglob("*.cubin")))
                          if (h[7], h[8]) == (0x33, 7)))
    head[0x30] = 0xFF  # (sm_255: no architecture; it was `cuda:255`)
    assert cubin_arch(bytes(head)) is None


def test_2x_targets_without_a_warp_size_or_a_ptx(tmp_path):
    """Triton 2.3's metadata names the target as ["cuda", 80] (no warp size): the thread limit went
    unchecked (num_warps 64 = 2048 threads passed where 2.2's copy was flagged); a 2.0 entry that lost its PTX
    had no target, and `--target cuda` dropped it."""
    entry23 = next(e for e in Cache(Path(__file__).parent / "data" / "triton-2.3.1" / "cache").kernels())
    copy = _copy_entry(entry23.path, tmp_path / "c" / "E23")
    meta = copy / Path(entry23.file_paths["json"]).name
    doc = json.loads(meta.read_text())
    assert isinstance(doc["target"], list) and len(doc["target"]) == 2
    meta.write_text(json.dumps({**doc, "num_warps": 64}))
    entry20 = next(e for e in Cache(DATA_2X / "2.0").kernels() if "ptx" in e.file_paths)
    copy20 = _copy_entry(entry20.path, tmp_path / "c" / "E20")
    (copy20 / Path(entry20.file_paths["ptx"]).name).unlink()
    listed = {x["hash"]: x for x in _json("ls", "--cache-dir", str(tmp_path / "c"), "--json", "--target",
                                          "cuda")["entries"]}
    assert listed["E23"]["target"]["warp_size"] == 32
    assert listed["E23"]["over_limits"] == [{"resource": "threads", "used": 2048, "limit": 1024}]
    assert listed["E20"]["target"] == {"backend": "cuda", "arch": entry20.target.arch, "warp_size": 32}


def test_a_2x_tensor_of_a_shared_layout_is_in_shared_memory():
    """Up to 2.3 a tensor in shared memory is a `tensor<64x32xf16, #shared0>` (no memdesc): `layout` said
    "64x32 f16 in registers" under `#triton_gpu.shared<...>`."""
    entry = next(e for e in Cache(DATA_2X / "2.0").kernels() if e.name == "dot_kernel")
    doc = _json("layout", entry.hash[:8], "--cache-dir", str(DATA_2X / "2.0"), "--json")
    uses = {(layout["name"], use["memory"]) for layout in doc["layouts"] for use in layout["uses"]}
    assert ("shared0", "shared") in uses and ("shared1", "shared") in uses
    assert not any(name.startswith("shared") and memory == "registers" for name, memory in uses)
    assert any(name.startswith("blocked") and memory == "registers" for name, memory in uses)


def test_triton_35_mfma_with_an_element_type_is_decoded(cli):
    """Helper 65: Triton 3.5.1 prints an int8 dot's MFMA layout with `elementType = i32` (3.6 on: an
    `elementBitWidth` for 64-bit results only). `layout` failed on the whole kernel ("amd_mfma: unknown field
    elementType") and `loads`, its layouts unread, called every access a scalar (`scalar ?`,
    "scalar-access"). Its 76 register uses in three such entries (gfx90a/942/950) are the same layouts as
    Triton 3.5.1's own `is_convert_layout_trivial` says (scripts in the stop's note)."""
    from tritonscope.layouts.attrs import parse_layout_aliases

    entry = Path(__file__).parent / "data" / "releases-3.5-3.8" / "3.5-int8"
    doc = json.loads(cli("layout", "lowp_dot_kernel", "--cache-dir", str(entry), "--json").stdout)
    (mma,) = [lay for lay in doc["layouts"] if lay["name"] == "mma"]
    assert mma["kind"] == "amd_mfma" and mma["uses"], mma
    loads = json.loads(cli("loads", "lowp_dot_kernel", "--cache-dir", str(entry), "--json").stdout)
    assert not loads["notes"] or not any("not read" in n for n in loads["notes"]), loads["notes"]
    assert all(r["shape"] for r in loads["rows"]) and "scalar-access" not in {c for r in loads["rows"]
                                                                              for c in r["reasons"]}
    (store,) = [r for r in loads["rows"] if r["op"] == "tt.store"]
    assert (store["layout"], store["verdict"], store["vector_bytes"]) == ("mma", "as-predicted", 16)
    text = "#m = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [16, 16], isTransposed = true, " \
        "elementType = %s}>\n"
    assert parse_layout_aliases(text % "i32")["m"].element_bit_width == 32
    assert parse_layout_aliases(text % "f64")["m"].element_bit_width == 64


def test_two_local_loads_of_one_line_from_two_shared_layouts_are_two_rows():
    """Helper 92: the tutorial's fused attention (block pointers, 128x64 fp16 tiles) as Triton 3.5.1 compiles
    it for gfx942: the Q tile of line 139 is read from shared memory twice into one dot-operand layout, from
    `#shared` (amd_rotating_shared, vec 4: 8 `ds_read_b64`, TTGIR line 130) and from `#shared1`
    (swizzled_shared, vec 1: 32 `ds_read_u16`, line 132). They were one row, `(x2)`, as-predicted with 8
    bytes, hiding the 32 scalar reads: rows are told apart by the shared layout they read too."""
    from tritonscope.loads.analyze import analyze_entry

    folder = Path(__file__).parent / "data" / "releases-3.5-3.8" / "3.5-attn"
    (entry,) = Cache(folder).kernels()
    rows = [r for r in analyze_entry(entry, line=139, sass=False).rows if r.op == "ttg.local_load"]
    got = sorted((r.instances, sorted(r.stages["amdgcn"].items()), r.vector_bytes, r.verdict,
                  [x.code for x in r.reasons]) for r in rows)
    assert got == [(1, [("ds_read_b64", 8)], 8, "as-predicted", []),
                   (1, [("ds_read_u16", 32)], 2, "scalar", ["shared-layout"])]
