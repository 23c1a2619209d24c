"""Cache discovery and the KernelEntry model, on the real corpus caches."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from tritonscope.artifacts.cache import Cache, Target, default_cache_dir, demangle, parse_target, resolve_one, select
from tritonscope.errors import TritonscopeError


def test_default_cache_dir_follows_triton_rule(tmp_path):
    assert default_cache_dir({"TRITON_CACHE_DIR": str(tmp_path / "c"), "TRITON_HOME": "/x"}) == tmp_path / "c"
    assert default_cache_dir({"TRITON_HOME": str(tmp_path)}) == tmp_path / ".triton" / "cache"
    assert default_cache_dir({}) == Path("~").expanduser() / ".triton" / "cache"


def test_triton_32_cache(cache32):
    entries = Cache(cache32).entries()
    assert len(entries) == 30
    kinds = Counter(e.kind for e in entries)
    assert kinds == {"kernel": 25, "partial": 5}
    # the five partial entries are the gfx906 compiles 3.2 could not finish: IR but no json
    partial = [e for e in entries if e.kind == "partial"]
    assert {str(e.target) for e in partial} == {"hip:gfx906"}
    assert all(e.stages == ["ttir", "ttgir"] for e in partial)
    targets = Counter(str(e.target) for e in entries)
    assert targets == {"cuda:80": 5, "cuda:90": 5, "hip:gfx90a": 5, "hip:gfx942": 5, "hip:gfx950": 5,
                       "hip:gfx906": 5}
    assert Counter(e.name for e in entries) == {
        "add_kernel": 6, "softmax_kernel": 6, "matmul_kernel": 6, "gemv_tile_kernel": 6, "gemv_loop_kernel": 6}


def test_triton_39_cache_fields(cache39):
    entries = Cache(cache39).entries()
    assert len(entries) == 30 and all(e.kind == "kernel" for e in entries)
    e = Cache(cache39).entries()
    (gemv,) = select(e, "gemv_tile_kernel", "cuda:90")
    assert gemv.target == Target("cuda", "90", 32)
    assert gemv.triton_version == "3.9.0"
    assert gemv.meta("num_warps") == 2
    assert gemv.stages == ["source", "ttir", "ttgir", "llir", "ptx", "cubin", "json"]
    (hip,) = select(e, "gemv_tile_kernel", "hip:gfx942")
    assert hip.target == Target("hip", "gfx942", 64)
    assert hip.stages == ["source", "ttir", "ttgir", "llir", "amdgcn", "hsaco", "json"]


def test_inductor_cache(inductor_cache):
    entries = Cache(inductor_cache).entries()
    assert len(entries) == 30
    assert {str(e.target) for e in entries} == {"cuda:90"}
    assert {e.triton_version for e in entries} == {"3.6.0"}
    assert Counter(e.name for e in entries)["triton_mm"] >= 2


def test_folder_of_caches_walks_each_cache(corpus):
    entries = Cache(corpus).entries()
    assert len(entries) == 90  # inductor_src beside triton_cache is not part of any cache
    assert {e.cache_root.name for e in entries} == {"triton-3.2.0", "triton-3.9.0", "triton_cache"}


def test_a_json_saved_at_a_cache_root_does_not_make_it_one_entry(cache39, tmp_path):
    """A `notes.json` (or `diff.json`) beside a cache's entries, or beside caches, made the root look like
    one entry directory: every kernel under it was hidden behind a 'partial' entry named after the file."""
    shutil.copytree(cache39, tmp_path / "c")
    (tmp_path / "c" / "notes.json").write_text('{"note": "x"}')
    entries = Cache(tmp_path / "c").entries()
    assert len(entries) == len(Cache(cache39).entries()) and "notes" not in {e.name for e in entries}
    assert resolve_one(Cache(tmp_path / "c"), "add_kernel", "cuda:90").name == "add_kernel"
    (tmp_path / "c" / "notes.json").unlink()
    (tmp_path / "metrics.json").write_text("{}")  # beside caches: tmp_path is a folder of one cache
    assert len(Cache(tmp_path).entries()) == len(entries)


def test_one_entry_dir_and_one_file(cache39):
    entry_dir = next(p for p in cache39.iterdir() if (p / "add_kernel.json").exists())
    entries = Cache(entry_dir).entries()
    assert len(entries) == 1 and entries[0].name == "add_kernel"
    single = Cache(entry_dir / "add_kernel.ttgir").entries()
    assert single[0].kind == "file" and single[0].stages == ["ttgir"]
    assert single[0].target is not None  # from the sibling json


def test_launcher_empty_tmp_and_binary_only(tmp_path, cache39):
    (tmp_path / "AAAA").mkdir()
    (tmp_path / "AAAA" / "cuda_utils.so").write_bytes(b"\x7fELF")
    (tmp_path / "BBBB").mkdir()
    (tmp_path / "tmp.pid_123_456").mkdir()
    src = next(p for p in cache39.iterdir() if (p / "add_kernel.cubin").exists())
    (tmp_path / "CCCC").mkdir()
    for n in ("add_kernel.cubin", "add_kernel.json"):
        (tmp_path / "CCCC" / n).write_bytes((src / n).read_bytes())
    cache = Cache(tmp_path)
    kinds = {e.hash: e.kind for e in cache.entries()}
    assert kinds == {"AAAA": "launcher", "BBBB": "empty", "tmp.pid_123_456": "tmp", "CCCC": "binary-only"}
    assert [e.hash for e in cache.kernels()] == ["CCCC"]
    assert {e.hash for e in cache.kernels(include_all=True)} == set(kinds)


def test_list_form_target_and_mangled_names():
    assert parse_target(["cuda", 80]) == Target("cuda", "80", 32)  # (2.3 names no warp size: NVIDIA's is 32)
    assert parse_target(["hip", "gfx90a"]) == Target("hip", "gfx90a", None)
    assert parse_target({"backend": "hip", "arch": "gfx942", "warp_size": 64}) == Target("hip", "gfx942", 64)
    assert parse_target("hip:gfx90a") == Target("hip", "gfx90a")
    assert parse_target(None) is None
    assert demangle("add_kernel_0d1d2d3de") == "add_kernel"
    assert demangle("matmul_kernel_0d1d2d3d4d5d6d7c8d9c10d11c") == "matmul_kernel"
    assert demangle("triton_poi_fused_add_0") == "triton_poi_fused_add_0"
    # 2.x's suffix is every argument's index in order: bare indices only where the entry is known to be 2.x
    assert demangle("dot_kernel_0123456", legacy=True) == "dot_kernel"
    assert demangle("dot_kernel_0123456") == "dot_kernel_0123456"
    assert demangle("triton_poi_fused_add_0_0d1d2", legacy=True) == "triton_poi_fused_add_0"
    assert demangle("k_0123456789101112", legacy=True) == "k"
    assert demangle("conv_2d", legacy=True) == "conv_2d"  # not 0, 1, ...: a name
    assert demangle("k_0d2d", legacy=True) == "k_0d2d" and demangle("k_7", legacy=True) == "k_7"
    # Intel's XPU backend: `arch` is the device's properties (the TTGIR's `ttg.target` names it instead)
    assert parse_target({"backend": "xpu", "arch": {"name": "Intel(R) Arc(TM) B580", "architecture": 1},
                         "warp_size": 32}) is None
    # 2.2's target object, and 2.1's `arch`
    assert parse_target({"capability": 90, "num_warps": 4, "enable_fp_fusion": True}) == Target("cuda", "90", 32)


def test_target_of_an_entry_without_one_in_its_metadata(tmp_path):
    """2.1 names `arch`; 2.0 nothing (the PTX's `.target`); a partial entry its TTGIR (2.x: compute-capability)."""
    cache = tmp_path / "cache"
    for name, meta, files in (
            ("A21", {"arch": 80, "device_type": "cuda", "name": "k_01", "num_warps": 4}, {}),
            ("B20", {"num_warps": 4, "num_stages": 3, "ctime": {}, "name": "k_01"},
             {"k.ptx": "//\n.version 7.5\n.target sm_80\n.address_size 64\n"}),
            ("C23", None, {"k.ttgir": 'module attributes {"triton_gpu.compute-capability" = 90 : i32, '
                                      '"triton_gpu.num-warps" = 4 : i32} {\n}\n'}),
            ("D39", None, {"k.ttgir": 'module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", '
                                      '"ttg.threads-per-warp" = 64 : i32} {\n}\n'})):
        (cache / name).mkdir(parents=True)
        if meta is not None:
            (cache / name / "k.json").write_text(json.dumps(meta))
        for f, text in files.items():
            (cache / name / f).write_text(text)
    got = {e.hash: (str(e.target), e.name) for e in Cache(cache).kernels(include_all=True)}
    assert got == {"A21": ("cuda:80", "k"), "B20": ("cuda:80", "k"), "C23": ("cuda:90", "k"),
                   "D39": ("hip:gfx942", "k")}


def test_target_matching():
    t = Target("cuda", "90", 32)
    assert t.matches("cuda") and t.matches("cuda:90") and t.matches("sm90") and not t.matches("hip")
    assert Target("hip", "gfx942", 64).matches("gfx942")


def test_malformed_json_is_partial_with_error(tmp_path, cache39):
    src = next(p for p in cache39.iterdir() if (p / "add_kernel.json").exists())
    d = tmp_path / "DDDD"
    d.mkdir()
    (d / "add_kernel.ttir").write_bytes((src / "add_kernel.ttir").read_bytes())
    (d / "add_kernel.json").write_text('{"name": "add_kernel", ')
    (e,) = Cache(tmp_path).entries()
    assert e.kind == "partial" and e.name == "add_kernel"
    assert e.metadata_error.startswith("add_kernel.json: ")


def test_resolve_one_ambiguity_lists_candidates(cache39):
    with pytest.raises(TritonscopeError) as info:
        resolve_one(Cache(cache39), "gemv_tile_kernel")
    msg = str(info.value)
    assert "6 entries match 'gemv_tile_kernel'" in msg and "hip:gfx942" in msg and "--target" in msg
    assert info.value.exit_code == 2
    e = resolve_one(Cache(cache39), "gemv_tile_kernel", "hip:gfx942")
    assert e.target == Target("hip", "gfx942", 64)
    assert resolve_one(Cache(cache39), e.hash[:8]).path == e.path
    with pytest.raises(TritonscopeError, match="nothing matches 'nope'"):
        resolve_one(Cache(cache39), "nope")


def test_resolve_one_ambiguity_is_one_line_however_many_match(cache39):
    """Candidates were listed one per line (up to 20): an error is one line; the first 8 are named on it,
    the rest counted."""
    with pytest.raises(TritonscopeError) as info:
        resolve_one(Cache(cache39), "*")
    msg = str(info.value)
    n = len(Cache(cache39).kernels())
    assert n > 8 and "\n" not in msg
    assert f": {n} entries match '*' (newest first: " in msg and f", and {n - 8} more)" in msg
    assert msg.count(" cuda:") + msg.count(" hip:") == 8


def test_ambiguity_between_an_autotuners_configs_names_what_sets_them_apart(cache39, tmp_path):
    """Helper 62: FLA's autotuned kernel compiled as 3 configs for one target was "3 entries match
    'chunk_fwd_kernel_o' (EA23WHKTKEPA chunk_fwd_kernel_o cuda:90, 7F4PT6PZL6OS ..., J2ZWFYZ5ZQKI ...)":
    nothing to choose a hash by. Entries of one name and target name the launch fields in which they differ."""
    src = cache39 / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    for i, (warps, stages) in enumerate([(4, 3), (8, 3), (8, 3)]):
        entry = shutil.copytree(src, tmp_path / f"{'ABC'[i] * 8}{src.name[8:]}")
        meta = entry / "add_kernel.json"
        meta.write_text(json.dumps({**json.loads(meta.read_text()), "num_warps": warps, "num_stages": stages}))
    with pytest.raises(TritonscopeError) as info:
        resolve_one(Cache(tmp_path), "add_kernel")
    msg = str(info.value)
    for prefix, warps in (("AAAAAAAA", 4), ("BBBBBBBB", 8), ("CCCCCCCC", 8)):
        assert re.search(rf"{prefix}\w* add_kernel cuda:90 \({warps} warps\)[,)]", msg), msg
    assert "stages" not in msg  # (the same in all: nothing to tell them apart by)
    # helper 71: a field damaged in one entry (`"8"`) says nothing of how they differ: not shown for any
    meta = next((tmp_path / f"CCCCCCCC{src.name[8:]}").glob("add_kernel.json"))
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "num_warps": "8"}))
    with pytest.raises(TritonscopeError) as info:
        resolve_one(Cache(tmp_path), "add_kernel")
    assert "warps" not in str(info.value), str(info.value)


def test_glob_selection(inductor_cache):
    entries = Cache(inductor_cache).kernels()
    reds = select(entries, "triton_red_*")
    assert reds and all(e.name.startswith("triton_red_") for e in reds)


def test_json_metadata_matches_file(cache39):
    for e in Cache(cache39).entries():
        assert e.metadata == json.loads(e.files["json"].read_text())


def test_triton_23_cache(cache23):
    entries = Cache(cache23).entries()
    assert len(entries) == 6 and all(e.kind == "kernel" for e in entries)  # git keeps no empty dirs
    assert all(len(e.hash) == 32 for e in entries)  # md5 hex directory names
    assert Counter(e.name for e in entries) == {"add_kernel": 2, "softmax_kernel": 2, "dot_kernel": 2}
    (add80,) = select(entries, "add_kernel", "cuda:80")
    assert add80.mangled_name == "add_kernel_0d1d2d3d" and add80.target == Target("cuda", "80", 32)
    assert select(entries, "add_kernel_0d1d2d3d", "cuda:90")[0].name == "add_kernel"


@pytest.mark.parametrize("kernel", ["a_kernel", "b_kernel"])
def test_two_files_of_one_stage_the_kernels_own_is_taken(tmp_path, kernel):
    """An entry directory holding a second kernel's file of one stage: the walk takes the file named as the
    metadata's kernel, whatever order the directory lists them in (a copy of the cache on another
    filesystem took the other one: another record, another diff)."""
    from tritonscope.artifacts.cache import load_entry

    entry = tmp_path / "ENTRY"
    entry.mkdir()
    (entry / f"{kernel}.json").write_text(json.dumps({"name": kernel, "target": {"backend": "cuda", "arch": 90}}))
    for name in ("a_kernel", "b_kernel"):
        (entry / f"{name}.ttgir").write_text(f"// {name}\n")
    e = load_entry(entry)
    assert Path(e.file_paths["ttgir"]).name == f"{kernel}.ttgir"
    other = "b_kernel" if kernel == "a_kernel" else "a_kernel"
    assert f"{other}.ttgir" in e.other_files


def test_metadata_nested_thousands_deep_is_one_damaged_entry(tmp_path, cache39):
    """A metadata json of arrays nested 100,000 deep (json's recursion) makes its entry partial with a
    reason; `ls` of the cache goes on (it failed as a whole)."""
    import shutil

    from tritonscope.artifacts.cache import load_entry

    entry = shutil.copytree(cache39 / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ", tmp_path / "c" / "E")
    (entry / "add_kernel.json").write_text("[" * 100_000 + "]" * 100_000)
    e = load_entry(entry)
    assert e.kind == "partial" and "nested too deep" in e.metadata_error


def test_nan_and_infinity_in_metadata_are_no_values(tmp_path, cache39):
    """JSON's non-standard NaN/Infinity in a metadata file are read as no value: echoed, they made `ls
    --json`, `diff --format json` and a snapshot's metrics.json invalid JSON."""
    import shutil

    from tritonscope.artifacts.cache import load_entry

    entry = shutil.copytree(cache39 / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ", tmp_path / "c" / "E")
    meta = (entry / "add_kernel.json").read_text()
    (entry / "add_kernel.json").write_text(meta.replace('"num_warps": 4', '"num_warps": NaN', 1)
                                           .replace('"shared": 0', '"shared": Infinity', 1))
    e = load_entry(entry)
    assert e.metadata["num_warps"] is None and e.metadata.get("shared") is None
    assert "NaN" not in json.dumps(e.metadata) and "Infinity" not in json.dumps(e.metadata)


@pytest.mark.parametrize("spec", ["sm99999999999999999999", "cuda:123456", "gfx" + "9" * 40])
def test_a_target_with_an_absurd_architecture_is_refused(spec):
    """`sm` and `cuda:` take up to 4 digits, `gfx` up to 8 (`sm99999...` was accepted as cuda:99999...)."""
    from tritonscope.artifacts.cache import parse_target_spec
    from tritonscope.errors import UsageError

    with pytest.raises(UsageError):
        parse_target_spec(spec)
    assert parse_target_spec("sm_100a") == "cuda:100" and parse_target_spec("gfx1201") == "hip:gfx1201"


def test_metadata_fields_of_the_wrong_type_are_unknown_not_reprs(cache39, tmp_path):
    """A damaged metadata field was spelled from its repr (`['cuda']:90`, triton `[3, 9]`) or taken for a
    number (`"4"` warps, `true` shared memory as 1 byte): each is unknown, and the target comes from the IR."""
    src = next(p for p in cache39.iterdir() if (p / "add_kernel.cubin").exists())
    cases = [{"target": {"backend": ["cuda"], "arch": 90, "warp_size": 32}, "triton_version": [3, 9]},
             {"num_warps": "4", "shared": True, "num_stages": {"a": 1}, "target": ["cuda", {"a": 1}]}]
    for i, fields in enumerate(cases):
        entry = shutil.copytree(src, tmp_path / "c" / ("A" * 51 + "BC"[i]))
        (meta,) = [f for f in entry.glob("*.json") if not f.name.startswith("__grp__")]
        meta.write_text(json.dumps({**json.loads(meta.read_text()), **fields}))
    first, second = sorted(Cache(tmp_path / "c").entries(), key=lambda e: e.hash)
    assert str(first.target) == "cuda:90" and first.triton_version is None  # (the target from the PTX)
    doc = second.to_json()
    assert (doc["num_warps"], doc["shared"], doc["num_stages"]) == (None, None, None)
    assert doc["target"]["backend"] == "cuda"


@pytest.mark.parametrize("name", [["add_kernel"], {"a": 1}])
def test_a_metadata_name_that_is_no_string_is_no_name_in_the_report(cache39, tmp_path, name):
    """Helper 80: `report` looked the CUBIN's kernel up by the metadata's name as given: a list or a dict
    ended in 'internal error: unhashable type'; every other command took the entry's name."""
    from tritonscope.cli import main

    src = next(p for p in cache39.iterdir() if (p / "add_kernel.cubin").exists())
    entry = shutil.copytree(src, tmp_path / "c" / src.name)
    meta = entry / "add_kernel.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "name": name}))
    res = CliRunner().invoke(main, ["report", str(entry), "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    assert "registers / thread" in (tmp_path / "r.html").read_text()


def test_a_metadata_name_of_megabytes_is_no_name(cache39, tmp_path):
    """Helper 80: a 10 MB metadata name was every listing's and message's (`ls` printed 20 MB, a snapshot's
    error line was 10 MB): past MAX_NAME the entry goes by its files' name."""
    from tritonscope.artifacts.cache import MAX_NAME

    src = next(p for p in cache39.iterdir() if (p / "add_kernel.cubin").exists())
    entry = shutil.copytree(src, tmp_path / "c" / src.name)
    meta = entry / "add_kernel.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "name": "k" * (MAX_NAME + 1)}))
    (e,) = Cache(tmp_path / "c").entries()
    assert e.name == "add_kernel"


def test_one_entry_in_several_caches_of_a_folder_is_told_how_to_pick(cache39, tmp_path):
    """Helper 80: an entry copied into several caches of a folder matched 'narrow with a hash prefix or
    --target', which no prefix or target can: the error names an entry's directory to give instead."""
    src = next(p for p in cache39.iterdir() if (p / "add_kernel.cubin").exists())
    for c in ("c1", "c2"):
        shutil.copytree(src, tmp_path / "loc" / c / src.name)
    with pytest.raises(TritonscopeError, match=r"give one entry's directory as KERNEL \(.*/c[12]/"):
        resolve_one(Cache(tmp_path / "loc"), src.name[:6])
