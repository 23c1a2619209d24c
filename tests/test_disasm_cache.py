"""The disassembly cache (tritonscope/artifacts/disasm_cache.py): keyed by bytes, tool and flags; atomic; bounded;
corrupt records ignored; never inside a Triton cache; off on request."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from tritonscope.artifacts import tools
from tritonscope.artifacts.disasm_cache import DisasmCache

ADD_90 = "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"

needs_nvdisasm = pytest.mark.skipif(tools.find_nvidia_tool("nvdisasm") is None, reason="no nvdisasm")


@pytest.fixture
def cubin(cache39, tmp_path) -> Path:
    entry = shutil.copytree(cache39 / ADD_90, tmp_path / "cache" / ADD_90)
    return next(Path(entry).glob("*.cubin"))


@pytest.fixture
def disasm_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "disasm"
    monkeypatch.setenv("TRITONSCOPE_DISASM_CACHE", str(d))
    return d


def _records(d: Path) -> list[Path]:
    return sorted(d.rglob("*.sass"))


@needs_nvdisasm
def test_second_disassembly_comes_from_the_cache_and_is_identical(cubin, disasm_dir):
    first = tools.start_disassemble_cubin(cubin)
    assert isinstance(first, tools.RunningTool)
    text = first.output()
    assert len(_records(disasm_dir)) == 1
    second = tools.start_disassemble_cubin(cubin)
    assert isinstance(second, tools.FinishedTool)  # no process started
    assert second.output() == text


@needs_nvdisasm
def test_other_bytes_are_another_record(cubin, disasm_dir):
    tools.disassemble_cubin(cubin)
    other = cubin.with_name("other.cubin")
    other.write_bytes(cubin.read_bytes() + b"\0" * 16)
    tools.start_disassemble_cubin(other).output()
    assert len(_records(disasm_dir)) == 2


@needs_nvdisasm
@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_a_corrupt_record_is_ignored_and_rewritten(cubin, disasm_dir, damage):
    text = tools.disassemble_cubin(cubin)
    (record,) = _records(disasm_dir)
    data = record.read_bytes()
    record.write_bytes({"truncate": data[: len(data) // 2], "flip": data[:-5] + b"XXXXX",
                        "garbage": os.urandom(300), "empty": b""}[damage])
    again = tools.start_disassemble_cubin(cubin)
    assert isinstance(again, tools.RunningTool)  # a miss: the disassembler ran again
    assert again.output() == text
    assert record.read_bytes() == data  # rewritten whole


def test_records_are_bounded_oldest_dropped(tmp_path):
    cache = DisasmCache(tmp_path / "c", max_bytes=10_000)
    keys = [cache.key("/bin/true", ["-x"], bytes([i])) for i in range(10)]
    for i, k in enumerate(keys):
        cache.put(k, "x" * 2000)
        os.utime(cache._path(k), (1000 + i, 1000 + i))
    cache.put(cache.key("/bin/true", ["-x"], b"new"), "y" * 2000)
    kept = [k for k in keys if cache.get(k) is not None]
    assert len(kept) < len(keys) and kept == keys[len(keys) - len(kept):]  # the newest survive
    assert sum(p.stat().st_size for p in _records(tmp_path / "c")) <= 10_000


def test_concurrent_writers_leave_whole_records(tmp_path):
    cache = DisasmCache(tmp_path / "c")
    key = cache.key("/bin/true", [], b"same")
    texts = [f"{i}" * 50_000 for i in range(8)]
    threads = [threading.Thread(target=cache.put, args=(key, t)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert cache.get(key) in texts
    assert not list((tmp_path / "c").rglob(".tmp-*"))


def test_off_and_never_inside_a_triton_cache(tmp_path):
    assert DisasmCache.default({"TRITONSCOPE_DISASM_CACHE": "off"}) is None
    triton = tmp_path / "triton"
    env = {"TRITON_CACHE_DIR": str(triton), "TRITONSCOPE_DISASM_CACHE": str(triton / "disasm")}
    assert DisasmCache.default(env) is None
    inductor = tmp_path / "inductor"  # torch.compile's Triton caches are under it: <inductor>/triton/<device>
    env = {"TORCHINDUCTOR_CACHE_DIR": str(inductor), "TRITONSCOPE_DISASM_CACHE": str(inductor / "triton" / "d")}
    assert DisasmCache.default(env) is None
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    assert DisasmCache.default(env).root == tmp_path / "xdg" / "tritonscope" / "disasm"


@needs_nvdisasm
def test_a_cache_inside_the_cache_being_read_is_not_used(cubin, monkeypatch):
    inside = cubin.parent.parent / "disasm"
    monkeypatch.setenv("TRITONSCOPE_DISASM_CACHE", str(inside))
    tools.disassemble_cubin(cubin)
    assert not inside.exists()


@needs_nvdisasm
def test_a_cache_inside_the_cache_of_an_entry_without_its_json_is_not_used(cubin, tmp_path, monkeypatch):
    """An entry without its metadata json (an interrupted compile, a cubin alone) was taken for a cache of
    its own: a disassembly cache beside it, in the Triton cache, was written."""
    import shutil

    entry = tmp_path / "other" / cubin.parent.name
    entry.mkdir(parents=True)
    shutil.copy(cubin, entry / cubin.name)
    inside = tmp_path / "other" / ".disasm"
    monkeypatch.setenv("TRITONSCOPE_DISASM_CACHE", str(inside))
    tools.disassemble_cubin(entry / cubin.name)
    assert not inside.exists()


@needs_nvdisasm
def test_map_with_sass_writes_nothing_into_the_triton_cache(cli, cubin, disasm_dir):
    entry = cubin.parent
    before = sorted((p.name, p.stat().st_mtime) for p in entry.parent.rglob("*"))
    for _ in range(2):
        r = cli("map", str(entry), "--stages", "sass", "--stats", "--json")
        assert r.returncode == 0, r.stderr
    assert sorted((p.name, p.stat().st_mtime) for p in entry.parent.rglob("*")) == before
    assert len(_records(disasm_dir)) == 1


SOFTMAX_GFX90A = "DH4EPRESOTY3ZNCKGWNY7MGTWHWOETCM5XCZC2QEF3IMS6KCUSCQ"


@pytest.mark.skipif(not tools.llvm_objdumps(), reason="no llvm-objdump")
def test_hsaco_disassembly_and_dwarf_are_cached(cache39, tmp_path, disasm_dir):
    entry = shutil.copytree(cache39 / SOFTMAX_GFX90A, tmp_path / "cache" / SOFTMAX_GFX90A)
    hsaco = next(Path(entry).glob("*.hsaco"))
    try:
        text = tools.disassemble_hsaco(hsaco, "gfx90a")
    except tools.ToolMissing:
        pytest.skip("no llvm-objdump here knows gfx90a")
    dwarf = tools.dwarfdump_hsaco(hsaco)
    n = len(_records(disasm_dir))
    assert n == (2 if dwarf is not None else 1)
    assert tools.disassemble_hsaco(hsaco, "gfx90a") == text and tools.dwarfdump_hsaco(hsaco) == dwarf
    assert len(_records(disasm_dir)) == n  # answered from the cache
