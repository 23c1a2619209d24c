"""`tritonscope ls` and `tritonscope show` end to end, on the corpus copies."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tritonscope.artifacts.tools import find_nvidia_tool


def test_ls_json_lists_every_corpus_entry(cli, corpus):
    r = cli("ls", "--cache-dir", str(corpus), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["schema"] == 1 and doc["kind"] == "ls" and doc["count"] == 90
    entries = doc["entries"]
    assert sum(e["kind"] == "partial" for e in entries) == 5
    by_hash = {e["hash"]: e for e in entries}
    e = by_hash["CFKU4VN4L6BTPTBBWBQE2LZ57O5BSYU2AFRUQUD5HUZN2MBHL3EA"]
    assert e["name"] == "gemv_tile_kernel"
    assert e["target"] == {"backend": "cuda", "arch": "80", "warp_size": 32}
    assert (e["num_warps"], e["num_stages"], e["shared"], e["triton_version"]) == (2, 3, 1024, "3.9.0")
    assert e["stages"] == ["source", "ttir", "ttgir", "llir", "ptx", "cubin", "json"]
    assert e["path"].endswith("triton-3.9.0/CFKU4VN4L6BTPTBBWBQE2LZ57O5BSYU2AFRUQUD5HUZN2MBHL3EA")
    names = {e["name"] for e in entries}
    assert "triton_per_fused_sum_view_1" in names and "matmul_kernel" in names


@pytest.mark.parametrize("cache,count", [("triton-3.2.0", 30), ("triton-3.9.0", 30),
                                         ("inductor-h200-triton3.6/triton_cache", 30)])
def test_ls_each_cache(cli, corpus, cache, count):
    r = cli("ls", "--cache-dir", str(corpus / cache), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["count"] == count


def test_ls_filters(cli, cache32, cache39):
    r = json.loads(cli("ls", "--cache-dir", str(cache32), "--partial", "--json").stdout)
    assert r["count"] == 5 and {e["target"]["arch"] for e in r["entries"]} == {"gfx906"}
    r = json.loads(cli("ls", "gemv_*", "--cache-dir", str(cache39), "--target", "hip", "--json").stdout)
    assert r["count"] == 8 and all(e["target"]["backend"] == "hip" for e in r["entries"])
    r = json.loads(cli("ls", "--cache-dir", str(cache39), "--target", "cuda:90", "--json").stdout)
    assert r["count"] == 5
    r = json.loads(cli("ls", "--cache-dir", str(cache39), "--since", "9999d", "--json").stdout)
    assert r["count"] == 30


def test_ls_newest_first(tmp_path, cache39, cli):
    dst = tmp_path / "c"
    shutil.copytree(cache39, dst)
    newest = sorted(dst.iterdir())[3]
    os.utime(newest, (4_000_000_000, 4_000_000_000))  # Triton renames files in: the dir mtime moves
    r = json.loads(cli("ls", "--cache-dir", str(dst), "--json").stdout)
    assert r["entries"][0]["hash"] == newest.name


def test_ls_flags_shared_memory_over_the_targets_launch_limit(tmp_path, cache39, cli):
    """An entry asking more shared memory than its target's blocks may use (an autotuning config Triton
    refused with OutOfResources, a cross-compile for a smaller GPU) says so: `over_limits` in the JSON,
    `smem>LIMIT` beside the name. The same kernel within the limit, or on a target of no known limit, does not."""
    by_target = {}
    for d in sorted(cache39.iterdir()):
        meta = [f for f in d.glob("*.json") if not f.name.startswith("__grp__")]
        if meta:
            target = json.loads(meta[0].read_text()).get("target", {})
            by_target.setdefault((target.get("backend"), str(target.get("arch"))), d)
    cases = {("cuda", "80"): (167_000, [{"resource": "shared", "used": 167_000, "limit": 166_912}]),
             ("hip", "gfx942"): (65_536, [])}
    dst = tmp_path / "c"
    for target, (shared, _) in cases.items():
        src = by_target[target]
        shutil.copytree(src, dst / src.name)
        (meta,) = [f for f in (dst / src.name).glob("*.json") if not f.name.startswith("__grp__")]
        doc = json.loads(meta.read_text())
        doc["shared"] = shared
        meta.write_text(json.dumps(doc))
    r = json.loads(cli("ls", "--cache-dir", str(dst), "--json").stdout)
    for e in r["entries"]:
        shared, over = cases[(e["target"]["backend"], e["target"]["arch"])]
        assert e["shared"] == shared and e["over_limits"] == over
    assert {e["shared_limit"] for e in r["entries"]} == {166_912, 65_536}
    table = cli("ls", "--cache-dir", str(dst)).stdout
    assert table.count("smem>163.0K") == 1 and "smem>64" not in table


def test_ls_flags_more_threads_than_a_block_may_have(cli):
    """Liger's cross_entropy_backward_kernel for gfx942 asks 32 warps of 64 lanes: 2,048 threads, which
    Triton refuses before the first launch (OutOfResources 'threads'); it was listed clean. A tensor memory
    overrun read `tmem>512B` (a column count in bytes)."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.5-3.7"
    r = cli("ls", "--cache-dir", str(cache), "cross_entropy_backward_kernel", "--json")
    (e,) = json.loads(r.stdout)["entries"]
    assert e["over_limits"] == [{"resource": "threads", "used": 2048, "limit": 1024}]
    assert "cross_entropy_backward_kernel threads>1024" in cli("ls", "--cache-dir", str(cache)).stdout
    from tritonscope.render.ls import _OVER

    assert _OVER["tensor memory columns"][1](512) == "512col"


def test_ls_table_plain_when_piped(cli, cache39):
    r = cli("ls", "--cache-dir", str(cache39))
    assert r.returncode == 0
    assert "\x1b[" not in r.stdout
    assert "gemv_tile_kernel" in r.stdout and "hip:gfx942" in r.stdout and "3.9.0" in r.stdout


def test_ls_usage_errors(cli, cache39):
    r = cli("ls", "--cache-dir", str(cache39), "--since", "yesterday")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--since" in r.stderr


def test_env_cache_dir(cli, cache39):
    r = cli("ls", "--json", env={"TRITON_CACHE_DIR": str(cache39)})
    assert json.loads(r.stdout)["count"] == 30
    r = cli("ls", "--json", env={"TRITON_CACHE_DIR": "", "TRITON_HOME": str(cache39.parent / "nohome")})
    assert r.returncode == 1 and "no such cache directory" in r.stderr


@pytest.mark.parametrize("stage,needle", [
    ("ttir", "tt.func public @gemv_tile_kernel"),
    ("ttgir", "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8]"),
    ("llir", "define amdgpu_kernel void @gemv_tile_kernel"),
    ("amdgcn", "global_load_dwordx4"),
    ("source", "tt.func public @gemv_tile_kernel"),
])
def test_show_each_text_stage(cli, cache39, stage, needle):
    r = cli("show", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--stage", stage)
    assert r.returncode == 0, r.stderr
    assert needle in r.stdout and "\x1b[" not in r.stdout


def test_show_ptx_32_and_meta(cli, cache32):
    r = cli("show", "add_kernel", "--cache-dir", str(cache32), "--target", "cuda:90", "--stage", "ptx")
    assert r.returncode == 0 and ".target sm_90a" in r.stdout
    r = cli("show", "add_kernel", "--cache-dir", str(cache32), "--target", "cuda:90", "--meta")
    assert json.loads(r.stdout)["num_warps"] == 4


def test_show_default_stage_is_ttgir(cli, cache39):
    r = cli("show", "softmax_kernel", "--cache-dir", str(cache39), "--target", "cuda:90")
    assert "#ttg.blocked" in r.stdout


@pytest.mark.skipif(find_nvidia_tool("nvdisasm") is None, reason="nvdisasm not installed (ships with triton)")
def test_show_sass_from_cubin(cli, cache39):
    r = cli("show", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "--stage", "sass")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("LDG.E.EF.128") == 32 and '//## File "/tmp/irkernels/kernels.py", line 158' in r.stdout


def test_show_sass_tool_missing(cli, cache39, tmp_path):
    r = cli("show", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "--stage", "sass",
            env={"TRITON_NVDISASM_PATH": str(tmp_path / "nvdisasm")})
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "nvdisasm not found" in r.stderr


def test_show_hsaco_asm(cli, cache39):
    from tritonscope.artifacts.tools import llvm_objdumps

    r = cli("show", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942",
            "--stage", "hsaco-asm")
    if not llvm_objdumps():
        assert r.returncode == 1 and "llvm-objdump not found" in r.stderr
        return
    if r.returncode == 1:
        assert "knows gfx942" in r.stderr and r.stderr.count("\n") == 1
        return
    assert "global_load_dwordx4" in r.stdout and "kernels.py:173" in r.stdout
    r = cli("show", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx950",
            "--stage", "hsaco-asm")
    assert r.returncode in (0, 1)
    if r.returncode == 1:
        assert "gfx950" in r.stderr and r.stderr.count("\n") == 1


def test_show_missing_stage_and_no_match(cli, cache39):
    r = cli("show", "gemv_tile_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx942", "--stage", "ptx")
    assert r.returncode == 1 and "no ptx stage in this entry" in r.stderr and r.stderr.count("\n") == 1
    r = cli("show", "nope", "--cache-dir", str(cache39))
    assert r.returncode == 1 and "nothing matches 'nope'" in r.stderr
    r = cli("show", "gemv_tile_kernel", "--cache-dir", str(cache39))
    assert r.returncode == 2 and "entries match" in r.stderr and "--target" in r.stderr
    assert r.stderr.count("\n") == 1  # one line, as every error: the candidates listed on it


def test_an_empty_since_is_a_usage_error(cli, cache39):
    """`--since ''` (an unset shell variable) listed every entry as if no filter were given."""
    r = cli("ls", "--cache-dir", str(cache39), "--since", "")
    assert r.returncode == 2 and "--since" in r.stderr, r.stderr


def test_a_kernel_is_found_by_the_name_its_files_go_by(cli):
    """triton_kernels names its kernel `_matmul_NNT_bf16xbf16xmxfp4_16x256x128x1` in the metadata, its files
    `_matmul.*`: `layout _matmul` said nothing matches."""
    from pathlib import Path

    cache = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "triton_kernels"
    proc = cli("layout", "_matmul", "--cache-dir", str(cache))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("_matmul_NNT_bf16xbf16xmxfp4_16x256x128x1: 30 layouts in ")
    assert cli("layout", "_matmu", "--cache-dir", str(cache)).returncode == 1  # (no prefix of a file's name)


def test_a_name_of_another_target_does_not_hide_a_file_name_of_this_one(cli, tmp_path, cache39):
    """`--target cuda` with KERNEL `softmax_kernel`: an hip entry of that name matched first and the target
    filter then left nothing, so the cuda entry whose files are named softmax_kernel.* (its metadata names
    it otherwise) was never tried."""
    import json
    import shutil

    hip = next(p.parent for p in cache39.glob("*/softmax_kernel.json") if '"hip"' in p.read_text())
    cuda = next(p.parent for p in cache39.glob("*/add_kernel.json") if '"arch": 90' in p.read_text())
    cache = tmp_path / "c"
    shutil.copytree(hip, cache / hip.name)
    renamed = shutil.copytree(cuda, cache / cuda.name)
    for f in list(renamed.iterdir()):
        f.rename(f.with_name(f.name.replace("add_kernel", "softmax_kernel")))
    proc = cli("ls", "softmax_kernel", "--cache-dir", str(cache), "--target", "cuda", "--json")
    assert proc.returncode == 0, proc.stderr
    assert [e["name"] for e in json.loads(proc.stdout)["entries"]] == ["add_kernel"]


def test_ls_names_metadata_that_does_not_read(cli, tmp_path):
    """A truncated metadata JSON made the entry `partial` (a failed compile, as `--partial` says) and the
    table said nothing of the file: only `--json`'s metadata_error did. A note names it, as snapshot's does."""
    from pathlib import Path

    src = Path(__file__).parent / "data" / "releases-2.0-2.2" / "2.1"
    entry = next(p for p in sorted(src.iterdir()) if p.is_dir())
    shutil.copytree(entry, tmp_path / "c" / entry.name)
    meta = next(p for p in (tmp_path / "c" / entry.name).glob("*.json") if not p.name.startswith("__grp__"))
    meta.write_text('{"num_warps": 4, "sha')
    for args in ((), ("--json",)):
        p = cli("ls", "--cache-dir", str(tmp_path / "c"), *args)
        assert p.returncode == 0, p.stderr
        assert p.stderr == f"tritonscope: note: {meta}: metadata not read (Unterminated string starting at: line 1 " \
            "column 18 (char 17)): what it gives (num_warps, num_stages, shared memory, the release) is unknown\n"


def test_ls_names_a_stage_that_is_a_symbolic_link(cli, tmp_path):
    """A `.cubin` that is a symbolic link (here to itself) was left out of the entry's stages without a word;
    a directory or a FIFO in its place got a note."""
    from pathlib import Path

    src = Path(__file__).parent / "data" / "releases-2.0-2.2" / "2.1" / "f20dbd411f8ba70b9632abe0935aafc4"
    entry = tmp_path / "c" / src.name
    shutil.copytree(src, entry)
    cubin = entry / "dot_kernel.cubin"
    cubin.unlink()
    cubin.symlink_to("dot_kernel.cubin")
    p = cli("ls", "--cache-dir", str(tmp_path / "c"))
    assert p.returncode == 0, p.stderr
    assert p.stderr == f"tritonscope: note: {cubin}: a symbolic link, which is not followed: its stage is left out\n"
