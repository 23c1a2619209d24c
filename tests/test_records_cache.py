"""The records cache (tritonscope/diff/records_cache.py): a second snapshot or diff of unchanged
compilations reads each kernel's record instead of computing it, with the same bytes out; a changed file,
option or build is another record; a corrupt record is ignored and rewritten; nothing is written inside
the cache being read; unparsed lines are reported on a hit as on a miss."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tritonscope.artifacts.cache import Cache
from tritonscope.artifacts.own_cache import _unwrap, _wrap
from tritonscope.diff import records
from tritonscope.diff.normalize import DEFAULT_OPTIONS, NormalizeOptions
from tritonscope.diff.records_cache import RecordsCache
from tritonscope.stages import collecting_unparsed

ADD_80 = "AYJIRKHPESPUQYN2QFLY4TIMHL4B3NXV45FRJOUBLTQMREITZBDQ"
THREE = ("7LC5OE4NJYDFZ24QSU5JNYTEXMSI524PDIHUVHTGL4SHRJ662IDA", "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ",
         ADD_80)


@pytest.fixture
def small_cache(cache39, tmp_path) -> Path:
    """Three entries of the 3.9 corpus (below the pool's threshold: computed in this process)."""
    root = tmp_path / "cache"
    for h in THREE:
        shutil.copytree(cache39 / h, root / h)
    return root


@pytest.fixture
def records_dir(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "records"
    monkeypatch.setenv("TRITONSCOPE_RECORDS_CACHE", str(d))
    return d


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _records(cache: Path, options: NormalizeOptions = DEFAULT_OPTIONS):
    with collecting_unparsed() as unparsed:
        out = records.records_for_entries([e for e in Cache(cache).entries() if e.is_kernel], options)
    return out, dict(unparsed)


def _computing_fails(monkeypatch) -> None:
    def fail(*a, **k):
        raise AssertionError("computed, not read from the records cache")
    monkeypatch.setattr(records, "record_for_entry", fail)


def test_second_look_reads_every_record_and_gives_the_same(small_cache, records_dir, monkeypatch):
    first, _ = _records(small_cache)
    assert len(first) == 3 and len(list(records_dir.rglob("*.rec"))) == 3
    _computing_fails(monkeypatch)
    second, _ = _records(small_cache)
    assert second == first  # names, targets, specs, normalized stages, metrics, load sites, origins


def test_a_changed_file_option_or_build_is_another_record(small_cache, records_dir, monkeypatch):
    first, _ = _records(small_cache)
    ttir = next((small_cache / ADD_80).glob("*.ttir"))
    ttir.write_text(ttir.read_text().replace("tt.load", "tt.load ", 1))
    second, _ = _records(small_cache)
    assert len(list(records_dir.rglob("*.rec"))) == 4  # the changed entry recomputed; the others read
    _records(small_cache, NormalizeOptions(fold_renames=False))
    assert len(list(records_dir.rglob("*.rec"))) == 7
    from tritonscope.diff import build
    monkeypatch.setattr(build, "_tool_build", lambda: {"version": "x", "build": "another"})
    _records(small_cache)
    assert len(list(records_dir.rglob("*.rec"))) == 10


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "not json", "texts longer", "texts shorter"])
def test_a_corrupt_record_is_ignored_and_rewritten(small_cache, records_dir, damage):
    first, _ = _records(small_cache)
    for rec in records_dir.rglob("*.rec"):
        data = rec.read_bytes()
        rec.write_bytes({"truncate": data[: len(data) // 2], "flip": data[:-5] + b"XXXXX", "empty": b"",
                         # a whole, checksummed record whose payload is no record (another format's)
                         "not json": _wrap(b'{"name": 1]', RecordsCache.MAGIC),
                         # whole and checksummed, but the texts do not add up to the sizes the header gives
                         "texts longer": _wrap(_unwrap(data, RecordsCache.MAGIC) + b"x", RecordsCache.MAGIC),
                         "texts shorter": _wrap(_unwrap(data, RecordsCache.MAGIC)[:-1], RecordsCache.MAGIC)}[damage])
    second, _ = _records(small_cache)
    assert second == first
    third, _ = _records(small_cache)  # rewritten whole: read back
    assert third == first
    assert all(RecordsCache(records_dir).get_bytes(p.stem) is not None for p in records_dir.rglob("*.rec"))


def test_unparsed_lines_are_reported_on_a_hit_as_on_a_miss(small_cache, records_dir, monkeypatch):
    llir = next((small_cache / ADD_80).glob("*.llir"))
    llir.write_text(llir.read_text() + "\nthis is ??? not llvm\n")
    _, miss = _records(small_cache)
    assert [(stage, Path(path).name) for stage, path in miss] == [("llir", llir.name)]
    _computing_fails(monkeypatch)
    _, hit = _records(small_cache)
    assert hit == miss and list(hit) == [("llir", str(llir))]


def test_a_copied_cache_reads_the_same_records(small_cache, records_dir, tmp_path, monkeypatch):
    first, unparsed = _records(small_cache)
    moved = shutil.copytree(small_cache, tmp_path / "elsewhere" / "cache")
    _computing_fails(monkeypatch)
    second, _ = _records(moved)
    assert second == first


def test_an_entry_changed_while_its_record_is_computed_is_not_kept(small_cache, records_dir, monkeypatch):
    compute = records.record_for_entry

    def racing(entry, *a):
        r = compute(entry, *a)
        (entry.path / "late.json").write_text("{}")  # Triton adding a file meanwhile
        return r
    monkeypatch.setattr(records, "record_for_entry", racing)
    _records(small_cache)
    assert not list(records_dir.rglob("*.rec"))


def test_off_and_never_inside_the_cache_being_read(small_cache, tmp_path, monkeypatch):
    monkeypatch.setenv("TRITONSCOPE_RECORDS_CACHE", "off")
    _records(small_cache)
    for inside in (small_cache / "records", small_cache / ADD_80 / "records"):
        monkeypatch.setenv("TRITONSCOPE_RECORDS_CACHE", str(inside))
        _records(small_cache)
        assert not inside.exists()
    env = {"TRITON_CACHE_DIR": str(small_cache), "TRITONSCOPE_RECORDS_CACHE": str(small_cache / "r")}
    assert RecordsCache.default(env) is None
    env = {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "ind"), "TRITONSCOPE_RECORDS_CACHE": str(tmp_path / "ind" / "r")}
    assert RecordsCache.default(env) is None
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    assert RecordsCache.default(env).root == tmp_path / "xdg" / "tritonscope" / "records"


def test_records_are_bounded_after_a_batch(small_cache, records_dir):
    _records(small_cache)
    recs = sorted(records_dir.rglob("*.rec"))
    for i, p in enumerate(recs):
        os.utime(p, (1000 + i, 1000 + i))
    size = sum(p.stat().st_size for p in recs)
    cache = RecordsCache(records_dir, max_bytes=size - 1)
    cache.trim()
    assert sorted(records_dir.rglob("*.rec")) == recs[1:]  # the least recently used dropped


def test_snapshot_and_diff_through_the_cache_are_byte_identical(cli, cache39, tmp_path):
    """The whole 3.9 corpus (a process pool), cold then warm, and a diff of the two snapshots' sources."""
    env = {"TRITONSCOPE_RECORDS_CACHE": str(tmp_path / "records")}
    outs = []
    for name in ("cold", "warm"):
        proc = cli("snapshot", "--cache-dir", str(cache39), "--out", str(tmp_path / name), env=env)
        assert proc.returncode == 0, proc.stderr
        outs.append(_tree(tmp_path / name))
    reference = cli("snapshot", "--cache-dir", str(cache39), "--out", str(tmp_path / "off"),
                    env={"TRITONSCOPE_RECORDS_CACHE": "off"})
    assert reference.returncode == 0, reference.stderr
    assert outs[0] == outs[1] == _tree(tmp_path / "off")
    kernels = json.loads(outs[0]["snapshot.json"])["kernels"]
    assert len(list((tmp_path / "records").rglob("*.rec"))) == len(kernels) == 30
    diffs = [cli("diff", str(tmp_path / "off"), str(cache39), "--format", "json", env=e).stdout
             for e in (env, env, {"TRITONSCOPE_RECORDS_CACHE": "off"})]
    assert diffs[0] == diffs[1] == diffs[2]


def test_concurrent_snapshots_share_the_cache_and_agree(cache39, tmp_path):
    """Two processes (each with its pool) fill one records cache at once; a third reads it."""
    import subprocess
    import sys

    env = {**os.environ, "TRITONSCOPE_RECORDS_CACHE": str(tmp_path / "records")}
    procs = [subprocess.Popen([sys.executable, "-m", "tritonscope", "snapshot", "--cache-dir", str(cache39), "--out",
                               str(tmp_path / f"s{i}")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for i in range(2)]
    assert all(p.wait(timeout=300) == 0 for p in procs), [p.stderr.read() for p in procs]
    third = subprocess.run([sys.executable, "-m", "tritonscope", "snapshot", "--cache-dir", str(cache39), "--out",
                            str(tmp_path / "s2")], env=env, capture_output=True)
    assert third.returncode == 0, third.stderr
    assert _tree(tmp_path / "s0") == _tree(tmp_path / "s1") == _tree(tmp_path / "s2")
    assert not list((tmp_path / "records").rglob(".tmp-*"))
    assert all(RecordsCache(tmp_path / "records").get_bytes(p.stem) for p in (tmp_path / "records").rglob("*.rec"))


def test_odd_files_in_an_entry_are_named_not_read(small_cache, records_dir, monkeypatch):
    """A pipe in an entry directory would block a read: only its name goes into the key. An entry file over
    the stage size limit is not read for a key either: that entry gets no record (computed every time)."""
    os.mkfifo(small_cache / ADD_80 / "stray.fifo")
    first, _ = _records(small_cache)  # (would hang here if the pipe were read)
    assert len(list(records_dir.rglob("*.rec"))) == 3
    limit = max(p.stat().st_size for p in small_cache.rglob("*") if p.is_file())
    (small_cache / THREE[0] / "big.bin").write_bytes(b"x" * (limit + 1))
    entries = [e for e in Cache(small_cache).entries() if e.is_kernel]
    for e in entries:
        e.max_stage_bytes = limit
    cache = RecordsCache(records_dir)
    keys = {e.hash: cache.key(e, DEFAULT_OPTIONS, None) for e in entries}
    assert keys[THREE[0]] is None and keys[ADD_80] is not None


def test_a_sweep_larger_than_the_bound_keeps_its_first_records(small_cache, records_dir, monkeypatch):
    """Records are kept while the entries' files add up to half the bound: a cache larger than the bound
    does not write records its own trim would drop; the next run reads those and computes the rest."""
    from tritonscope.diff import records_cache

    entries = [e for e in Cache(small_cache).entries() if e.is_kernel]
    sizes = [sum(e.sizes.values()) for e in entries]
    bound = 2 * (sizes[0] + sizes[1])
    monkeypatch.setattr(records_cache.RecordsCache, "default",
                        classmethod(lambda cls, env=None: cls(records_dir, max_bytes=bound)))
    assert records_cache.keepable(entries) == [True, True, False]
    first = records.records_for_entries(entries, DEFAULT_OPTIONS)
    assert len(list(records_dir.rglob("*.rec"))) == 2
    computed = []
    compute = records.record_for_entry
    monkeypatch.setattr(records, "record_for_entry", lambda e, *a: computed.append(e.hash) or compute(e, *a))
    assert records.records_for_entries([e for e in Cache(small_cache).entries() if e.is_kernel],
                                       DEFAULT_OPTIONS) == first
    assert computed == [entries[2].hash]


def test_a_link_or_pipe_in_place_of_a_record_is_a_miss(small_cache, records_dir, tmp_path):
    """The cache is the user's directory: a record replaced by a link (to a device that never ends) or a
    pipe (that would block) is not followed or read; the record is computed again."""
    first, _ = _records(small_cache)
    recs = sorted(records_dir.rglob("*.rec"))
    recs[0].unlink()
    recs[0].symlink_to("/dev/zero")
    recs[1].unlink()
    os.mkfifo(recs[1])
    assert _records(small_cache)[0] == first
    assert all(p.is_file() and not p.is_symlink() for p in recs[:2])  # rewritten as records


def test_a_diff_writes_no_record_into_either_cache(cli, cache32, cache39, tmp_path):
    """A records cache set inside B: B's entries refuse it as they are read, and A's records do not go
    there either (a diff reads two caches)."""
    b = shutil.copytree(cache39, tmp_path / "b")
    inside = b / "records"
    proc = cli("diff", str(cache32), str(b), "--format", "json", env={"TRITONSCOPE_RECORDS_CACHE": str(inside)})
    assert proc.returncode == 0, proc.stderr
    assert not inside.exists()


def test_the_file_taken_as_a_stage_is_in_the_key(small_cache, records_dir):
    """Two files of one stage in an entry: the walk takes one (directory order decides), and a copy of the
    cache on another filesystem may take the other: two records. A stage file replaced by a link to the same
    bytes is no stage for the walk: another record too."""
    first, _ = _records(small_cache)
    entry = next(e for e in Cache(small_cache).entries() if e.hash == ADD_80)
    cache = RecordsCache(records_dir)
    key = cache.key(entry, DEFAULT_OPTIONS, None).key
    ttgir = entry.files["ttgir"]
    twin = ttgir.with_name("b_" + ttgir.name)
    twin.write_text(ttgir.read_text().replace("tt.load", "tt.load ", 1))
    keys = set()
    for taken in (ttgir, twin):
        e = next(e for e in Cache(small_cache).entries() if e.hash == ADD_80)
        e.file_paths["ttgir"] = str(taken)
        e._files = None
        keys.add(cache.key(e, DEFAULT_OPTIONS, None).key)
    assert len(keys) == 2 and key not in keys
    twin.unlink()
    outside = small_cache.parent / "outside.ttgir"
    shutil.move(ttgir, outside)
    ttgir.symlink_to(outside)
    linked = next(e for e in Cache(small_cache).entries() if e.hash == ADD_80)
    assert "ttgir" not in linked.files
    assert cache.key(linked, DEFAULT_OPTIONS, None).key != key
    second, _ = _records(small_cache)
    assert "ttgir" not in next(r for r in second if r.origin == ADD_80).stages
    assert "ttgir" in next(r for r in first if r.origin == ADD_80).stages


def test_a_record_larger_than_the_cache_is_not_read(small_cache, records_dir):
    """A record file grown past the cache's bound (a sparse 2 GiB file) is a miss, refused by its size
    before any byte is read: no memory spent on it, recomputed and rewritten."""
    import tracemalloc

    first, _ = _records(small_cache)
    rec = sorted(records_dir.rglob("*.rec"))[0]
    with open(rec, "r+b") as fh:
        fh.truncate(2 << 30)
    tracemalloc.start()
    try:
        assert RecordsCache(records_dir).get_bytes(rec.stem) is None
        assert tracemalloc.get_traced_memory()[1] < 64 << 20
    finally:
        tracemalloc.stop()
    assert _records(small_cache)[0] == first and rec.stat().st_size < 1 << 20


def test_trim_removes_only_the_caches_own_files(tmp_path):
    """A directory given as a records cache may hold the user's files: trim removes records (`<xx>/<64 hex
    digits>.rec`) and writers' temporary files only, whatever the bound."""
    root = tmp_path / "rc"
    cache = RecordsCache(root, max_bytes=10)
    key = "ab" + "0" * 62
    cache.put_bytes(key, b"x" * 100, trim=False)
    foreign = [root / "mxnet" / "train.rec", root / "ab" / ".tmp-swap", root / "ab" / "notakey.rec",
               root / "cd" / ("ab" + "1" * 62 + ".rec"), root / "ab" / ("ab" + "2" * 62 + ".rec.bak")]
    for p in foreign:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"user data" * 100)
        os.utime(p, (1000, 1000))
    own_temp = root / "ab" / ".tmp-k3j_9zq1"
    own_temp.write_bytes(b"y" * 100)
    cache.trim()
    assert all(p.read_bytes() == b"user data" * 100 for p in foreign)
    assert not cache._path(key).exists() and not own_temp.exists()


def test_trimming_at_once_with_another_process_removes_no_more(tmp_path, monkeypatch):
    """Two processes trimming together: a record the other one removed first still counts as removed,
    so together they bring the cache down to its bound, not below it."""
    root = tmp_path / "rc"
    cache = RecordsCache(root, max_bytes=250)
    keys = [f"{i:02x}" * 32 for i in range(4)]
    for i, key in enumerate(keys):
        cache.put_bytes(key, b"x" * 70, trim=False)
        os.utime(cache._path(key), (1000 + i, 1000 + i))
    real_unlink = os.unlink

    def unlink(path, *a, **k):
        real_unlink(path, *a, **k)
        if str(path) == str(cache._path(keys[0])):  # listed by this trim, removed by the other one first
            raise FileNotFoundError(path)
    monkeypatch.setattr(os, "unlink", unlink)
    cache.trim()
    assert [cache._path(k).exists() for k in keys] == [False, False, True, True]


def test_no_record_is_written_through_a_link_planted_as_its_directory(small_cache, records_dir, tmp_path):
    _records(small_cache)
    victim = tmp_path / "victim"
    victim.mkdir()
    for sub in [p for p in records_dir.iterdir() if p.is_dir()]:
        shutil.rmtree(sub)
        sub.symlink_to(victim, target_is_directory=True)
    assert len(_records(small_cache)[0]) == 3
    assert not list(victim.iterdir())


@pytest.mark.parametrize("where", ["around the cache", "an inductor dir", "the snapshot's out", "a log's dir",
                                   "TORCH_TRACE"])
def test_records_stay_apart_from_what_the_command_reads_and_writes(cli, small_cache, tmp_path, where):
    """A records cache around the cache read (its `<xx>/` directories would land beside or in its entries),
    inside an --inductor-dir, or inside the snapshot being written: this command keeps no record."""
    parent = tmp_path / "P"
    cache = shutil.copytree(small_cache, parent / "dd")  # (named like a key's directory)
    ind = tmp_path / "ind"
    ind.mkdir()
    out = tmp_path / "out"
    log = ind / "dedicated_log_torch_trace_x.log"
    log.write_text("V1126 18:26:43.559000 544 torch/_inductor/graph.py:2575] {}\n")
    records_at = {"around the cache": parent, "an inductor dir": ind / "rc", "the snapshot's out": out / "rc",
                  "a log's dir": ind / "rc", "TORCH_TRACE": ind / "rc"}[where]
    given = str(log) if where == "a log's dir" else str(ind)
    env = {"TRITONSCOPE_RECORDS_CACHE": str(records_at)}
    read = ["--inductor-dir", given]
    if where == "TORCH_TRACE":  # (read by default)
        env["TORCH_TRACE"], read = str(ind), []
    before = _tree(parent)
    proc = cli("snapshot", "--cache-dir", str(cache), "--out", str(out), *read, env=env)
    assert proc.returncode == 0, proc.stderr
    assert _tree(parent) == before and not list(records_at.rglob("*.rec"))
    assert not (out / "rc").exists()
    if where != "the snapshot's out":  # (a diff of the cache writes no snapshot)
        assert cli("diff", str(cache), str(cache), *read, "--format", "json", env=env).returncode == 0
        assert _tree(parent) == before and not list(records_at.rglob("*.rec"))


@pytest.mark.parametrize("forgery", ["name not text", "stage named like a path", "nested", "another key's",
                                     "lone surrogate"])
def test_a_checksummed_record_that_is_no_record_of_ours_is_a_miss(small_cache, records_dir, forgery):
    """A record whose checksum holds but whose fields do not (a forger's, or another tool's): a miss,
    computed and rewritten, never a crash or a file written where a stage's name says."""
    first, _ = _records(small_cache)
    recs = sorted(records_dir.rglob("*.rec"))
    payloads = [_unwrap(p.read_bytes(), RecordsCache.MAGIC) for p in recs]
    for p, payload in zip(recs, payloads, strict=True):
        head, _, body = payload.partition(b"\n")
        doc = json.loads(head)
        if forgery == "name not text":
            doc["name"] = 5
        elif forgery == "stage named like a path":
            doc["stages"][0][0] = "../../escaped"
        elif forgery == "nested":
            head = b'{"name": ' + b"[" * 100000 + b"]" * 100000 + b"}"
        elif forgery == "another key's":
            body = payloads[(recs.index(p) + 1) % len(recs)].partition(b"\n")[2]
            doc = json.loads(payloads[(recs.index(p) + 1) % len(recs)].partition(b"\n")[0])
        elif forgery == "lone surrogate":
            body = b"\xed\xa0\x80" + body[3:]
        if forgery != "nested":
            head = json.dumps(doc).encode()
        p.write_bytes(_wrap(head + b"\n" + body, RecordsCache.MAGIC))
    assert _records(small_cache)[0] == first
    assert not list(small_cache.parent.rglob("escaped"))
