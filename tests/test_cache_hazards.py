"""Cache hazards made for real: concurrent writers, deletions mid-walk, odd files, symlinks."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time

from tritonscope.artifacts.cache import Cache


def _writer(root, src_entry, stop: threading.Event, counter: list[int]) -> None:
    """Mimic Triton: write into tmp.pid_* and rename into place; also delete entries again."""
    i = 0
    while not stop.is_set():
        tmp = root / f"tmp.pid_{os.getpid()}_{i}"
        shutil.copytree(src_entry, tmp)
        final = root / f"WRITER{i:06d}"
        os.replace(tmp, final)
        if i % 2:
            shutil.rmtree(root / f"WRITER{i - 1:06d}", ignore_errors=True)
        i += 1
        counter[0] = i


def test_ls_while_entries_are_written_and_deleted(tmp_path, cache39, cli):
    root = tmp_path / "cache"
    shutil.copytree(cache39, root)
    src = next(p for p in sorted(cache39.iterdir()) if (p / "add_kernel.json").exists())
    stop, counter = threading.Event(), [0]
    t = threading.Thread(target=_writer, args=(root, src, stop, counter), daemon=True)
    t.start()
    try:
        deadline = time.time() + 3
        walks = 0
        while time.time() < deadline or walks < 5:
            entries = Cache(root).entries()  # must never raise while the tree changes under it
            assert sum(e.name == "gemv_tile_kernel" for e in entries) == 6
            walks += 1
        r = cli("ls", "--cache-dir", str(root), "--all", "--json")
        assert r.returncode == 0, r.stderr
    finally:
        stop.set()
        t.join()
    assert counter[0] > 5  # the writer really ran


def test_symlink_out_of_cache_is_not_followed(tmp_path, cache39):
    root = tmp_path / "cache"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.ttgir").write_text("#blocked = #ttg.blocked<{}>\n")
    entry = root / "EEEE"
    entry.mkdir()
    os.symlink(outside / "secret.ttgir", entry / "k.ttgir")
    os.symlink(outside, root / "LINKDIR")
    entries = Cache(root).entries()
    assert [e.hash for e in entries] == ["EEEE"]
    assert entries[0].files == {} and entries[0].other_files == ["k.ttgir"]


def test_cache_of_only_launchers(tmp_path, cli):
    for name, so in (("A1", "cuda_utils.so"), ("A2", "__triton_launcher.so"), ("A3", "hip_utils.so")):
        (tmp_path / name).mkdir()
        (tmp_path / name / so).write_bytes(b"\x7fELF")
    r = cli("ls", "--cache-dir", str(tmp_path), "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["count"] == 0
    r = cli("ls", "--cache-dir", str(tmp_path), "--all", "--json")
    entries = json.loads(r.stdout)["entries"]
    assert sorted(e["name"] for e in entries) == ["__triton_launcher", "cuda_utils", "hip_utils"]
    assert {e["kind"] for e in entries} == {"launcher"}
    r = cli("ls", "--cache-dir", str(tmp_path))
    assert r.returncode == 0 and "no kernel entries" in r.stdout


def test_fifo_in_an_entry_is_never_opened(tmp_path, cache39):
    src = next(p for p in sorted(cache39.iterdir()) if (p / "add_kernel.json").exists())
    entry = tmp_path / "FFFF"
    shutil.copytree(src, entry)
    (entry / "add_kernel.json").unlink()
    os.mkfifo(entry / "add_kernel.json")  # reading it would block forever
    (e,) = Cache(tmp_path).entries()
    assert e.kind == "partial" and "json" not in e.files


def test_metadata_read_in_one_piece_or_refused_by_size(tmp_path, monkeypatch):
    """The metadata json is read with one read below 64 KiB, in pieces above, and refused past the limit
    (a damaged or foreign file named .json must not be loaded whole)."""
    import json as _json

    from tritonscope.artifacts import cache as cache_mod

    entry = tmp_path / "AAAA"
    entry.mkdir()
    (entry / "k.ttir").write_text("module {\n}\n")
    meta = {"name": "k", "target": {"backend": "cuda", "arch": 90, "warp_size": 32}, "pad": "x" * (200 << 10)}
    (entry / "k.json").write_text(_json.dumps(meta))
    e = cache_mod.load_entry(entry)
    assert e.metadata is not None and e.metadata["pad"] == meta["pad"] and e.metadata_error is None
    monkeypatch.setattr(cache_mod, "MAX_METADATA_BYTES", 100 << 10)
    e = cache_mod.load_entry(entry)
    assert e.metadata is None and "larger than 100.0 KiB, not Triton metadata" in e.metadata_error
    (entry / "k.json").write_text(_json.dumps({"name": "k"}))
    assert cache_mod.load_entry(entry).metadata == {"name": "k"}


def test_links_in_a_cache_are_said_not_silently_left_out(cli, cache39, tmp_path):
    """An entry directory that is a symbolic link was not listed, even with --all, and `show` said nothing
    matched; a stage file that is a link read as 'no ttgir stage'. Links are still not followed (a cache's
    links may lead anywhere), but each says it is one."""
    import shutil

    name = "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / name).symlink_to(cache39 / name, target_is_directory=True)
    r = cli("ls", "--cache-dir", str(cache), "--all")
    assert f"{cache / name}: an entry directory that is a symbolic link, not followed" in r.stderr, r.stderr
    # helper 76: a folder of caches, one a link: 'no kernel entries' with no word of it
    caches = tmp_path / "caches"
    caches.mkdir()
    (caches / "c39").symlink_to(cache39, target_is_directory=True)
    r = cli("ls", "--cache-dir", str(caches))
    assert r.returncode == 0 and f"{caches / 'c39'}: a cache that is a symbolic link, not followed" in r.stderr, \
        r.stderr
    entry = tmp_path / "other" / name
    entry.mkdir(parents=True)
    shutil.copy(cache39 / name / "add_kernel.json", entry)
    (entry / "add_kernel.ttgir").symlink_to(cache39 / name / "add_kernel.ttgir")
    r = cli("show", str(entry), "--stage", "ttgir")
    assert r.returncode == 1 and f"{entry / 'add_kernel.ttgir'}: the ttgir stage is a symbolic link, which is not " \
        "followed" in r.stderr, r.stderr
