"""`tritonscope snapshot`: a deterministic tree of normalized IR + metrics.json, diffable against a cache."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_snapshot_twice_is_byte_identical(cli, tmp_path, inductor_cache):
    for out in ("s1", "s2"):
        proc = cli("snapshot", "--cache-dir", str(inductor_cache), "--out", str(tmp_path / out))
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr.strip() == f"wrote 30 kernel(s) to {tmp_path / out}"
    one, two = _tree(tmp_path / "s1"), _tree(tmp_path / "s2")
    assert one == two
    assert len(one) == 1 + 30 * 6  # the marker; per kernel: source ttir ttgir llir ptx metrics.json
    for name, data in one.items():
        text = data.decode("utf-8")
        for leak in (str(tmp_path), "/tmp/", "/work/", str(inductor_cache)):
            assert leak not in text, (name, leak)
    marker = json.loads(one["snapshot.json"])
    assert marker["format"] == "tritonscope-snapshot" and marker["options"] == {"fold_renames": True}
    # Eight autotuning variants of triton_mm on one target: one directory each, named by specialization,
    # with an ordinal where two variants share one (their constexprs are folded into the IR).
    assert [k for k in marker["kernels"] if k.startswith("triton_mm/")] == [
        "triton_mm/cuda-90-1f57e743", "triton_mm/cuda-90-23bfd170", "triton_mm/cuda-90-3bd76ff7",
        "triton_mm/cuda-90-3bd76ff7-1", "triton_mm/cuda-90-3bd76ff7-2", "triton_mm/cuda-90-6beb2114",
        "triton_mm/cuda-90-a5403214", "triton_mm/cuda-90-c38807da"]
    assert "triton_per_fused_sum_view_1/cuda-90" in marker["kernels"]


def test_snapshot_layout_and_metrics(cli, tmp_path, cache39):
    out = tmp_path / "snap"
    proc = cli("snapshot", "add_kernel", "--target", "cuda:80", "--cache-dir", str(cache39), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert sorted(_tree(out)) == ["add_kernel/cuda-80/llir", "add_kernel/cuda-80/metrics.json",
                                  "add_kernel/cuda-80/ptx", "add_kernel/cuda-80/source", "add_kernel/cuda-80/ttgir",
                                  "add_kernel/cuda-80/ttir", "snapshot.json"]
    doc = json.loads((out / "add_kernel/cuda-80/metrics.json").read_text())
    assert (doc["kernel"], doc["target"], doc["triton_version"]) == ("add_kernel", "cuda:80", "3.9.0")
    assert doc["stages"] == ["llir", "ptx", "source", "ttgir", "ttir"]
    m = doc["metrics"]
    # cuobjdump: REG:18 STACK:0 SHARED:0 LOCAL:0; PTX: two ld.global.v4.b32, one st.global.v4.b32
    assert (m["regs"], m["stack"], m["smem"], m["ops:global_load.16B"], m["ops:global_store.16B"]) == (18, 0, 0, 2, 1)
    assert doc["load_sites"] == {"kernels.py:65": 16, "kernels.py:66": 16}
    assert (out / "add_kernel/cuda-80/ttgir").read_text().startswith("#blocked = #ttg.blocked<")


def test_snapshot_diffs_against_caches(cli, tmp_path, cache32, cache39):
    out = tmp_path / "snap39"
    assert cli("snapshot", "--cache-dir", str(cache39), "--out", str(out)).returncode == 0
    same = cli("diff", str(out), str(cache39), "--format", "json", "--fail-on", "any")
    assert same.returncode == 0, same.stderr
    doc = json.loads(same.stdout)
    assert doc["a"]["kind"] == "snapshot" and doc["summary"]["matched"] == 30 and doc["summary"]["changed"] == 0
    other = cli("diff", str(cache32), str(out), "--format", "json", "--fail-on", "smem>+0")
    assert other.returncode == 1
    doc = json.loads(other.stdout)
    assert doc["summary"] == {"matched": 30, "changed": 30, "unchanged": 0, "uncompared": 0, "added": 0,
                              "removed": 0}
    assert [(f["kernel"], f["target"]) for f in doc["failed_rules"]] == [("matmul_kernel", "hip:gfx950")]


def test_snapshot_replaces_its_own_tree_only(cli, tmp_path, cache39):
    out = tmp_path / "snap"
    assert cli("snapshot", "--cache-dir", str(cache39), "--out", str(out), "--target", "cuda").returncode == 0
    assert len(json.loads((out / "snapshot.json").read_text())["kernels"]) == 10
    assert cli("snapshot", "softmax_kernel", "--cache-dir", str(cache39), "--out", str(out),
               "--target", "hip:gfx942").returncode == 0
    assert sorted(p.name for p in out.iterdir()) == ["snapshot.json", "softmax_kernel"]
    other = tmp_path / "not_a_snapshot"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    proc = cli("snapshot", "--cache-dir", str(cache39), "--out", str(other))
    assert proc.returncode == 2 and "not a snapshot" in proc.stderr
    assert (other / "notes.txt").read_text() == "keep me"
    missing = cli("snapshot", "no_such_kernel", "--cache-dir", str(cache39), "--out", str(tmp_path / "x"))
    assert missing.returncode == 1 and "nothing matches 'no_such_kernel'" in missing.stderr


def test_snapshot_records_its_fold_option(cli, tmp_path, cache32, cache39):
    out = tmp_path / "raw"
    assert cli("snapshot", "add_kernel", "--target", "cuda:80", "--no-fold-renames", "--cache-dir", str(cache39),
               "--out", str(out)).returncode == 0
    assert json.loads((out / "snapshot.json").read_text())["options"] == {"fold_renames": False}
    assert "%pid = tt.get_program_id x : i32" in (out / "add_kernel/cuda-80/ttgir").read_text()
    same = cli("diff", str(out), str(cache39), "-k", "add_kernel", "--target", "cuda:80", "--fail-on", "any")
    assert same.returncode == 0 and "using that for both sides" in same.stderr
    # Unfolded, 3.2's numbered values and triton_gpu. prefixes differ from 3.9's on most TTGIR lines.
    raw = cli("diff", str(cache32), str(out), "-k", "add_kernel", "--target", "cuda:80", "--stage", "ttgir",
              "--no-fold-renames", "--format", "json")
    [stage] = json.loads(raw.stdout)["changed"][0]["stages"]
    # 24 lines each; only `%c1024_i32 = arith.constant`, `tt.return` and the two `}` are the same.
    assert stage["stage"] == "ttgir" and stage["added"] == stage["removed"] == 20


def test_a_failed_snapshot_leaves_the_previous_one_and_no_temporary_files(cli, tmp_path, cache39):
    """Files are written while the pool still computes: a snapshot that fails after them (a file of the
    user's own in a kernel directory it replaces, the last entry's TTGIR being no longer UTF-8) must leave the
    snapshot already at --out as it was, and no temporary directory beside it."""
    import shutil

    cache = tmp_path / "cache"
    entries = sorted(p for p in cache39.iterdir() if p.is_dir() and list(p.glob("*.ttgir")))[:6]
    for p in entries:
        shutil.copytree(p, cache / p.name)
    out = tmp_path / "snap"
    assert cli("snapshot", "--cache-dir", str(cache), "--out", str(out)).returncode == 0
    before = _tree(out)
    ttgir = next((cache / entries[-1].name).glob("*.ttgir"))
    ttgir.chmod(0o644)
    ttgir.write_bytes(b"\xff\xfe not utf-8 \xff\n")
    target = json.loads(next(ttgir.parent.glob(f"{ttgir.stem}.json")).read_text())["target"]
    replaced = out / ttgir.stem / f"{target['backend']}-{target['arch']}"
    assert (replaced / "ttgir").is_file()
    (replaced / "mine.txt").write_text("keep\n")
    before = _tree(out)
    proc = cli("snapshot", "--cache-dir", str(cache), "--out", str(out))
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == (f"tritonscope: error: {replaced / 'mine.txt'}: in a kernel directory "
                                            "this snapshot replaces, but no snapshot wrote it; move it out and run "
                                            "again"), proc.stderr
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "snap"]


def test_a_snapshot_written_before_a_fold_still_matches(cli, tmp_path, cache32):
    """Triton 3.2's LLIR spells `getelementptr half`; since LLVM 20's byte spelling is folded into
    `getelementptr [2 x i8]`, a snapshot committed before that fold (its LLIR with `half`) must still
    compare equal to the same cache: the folds are applied again on reading."""
    out = tmp_path / "snap32"
    assert cli("snapshot", "--cache-dir", str(cache32), "--out", str(out)).returncode == 0
    folded = [p for p in out.rglob("llir") if "getelementptr [2 x i8]," in p.read_text()]
    assert folded
    for p in folded:  # as the previous normalizer wrote it
        p.write_text(p.read_text().replace("getelementptr [2 x i8],", "getelementptr half,"))
    same = cli("diff", str(out), str(cache32), "--format", "json", "--fail-on", "any")
    assert same.returncode == 0, same.stdout[-2000:]
    assert json.loads(same.stdout)["summary"]["changed"] == 0


def test_a_diff_says_when_its_sides_came_from_different_builds(cli, tmp_path, cache39):
    """A snapshot records the tritonscope that computed it (version and a digest of its source): a diff of
    it against a cache read now says nothing while the build is the same, and says, on stderr and in the
    JSON, when it is not (a committed baseline from an older tritonscope: its metrics may differ for the
    tool's sake) or unknown (a snapshot from before builds were recorded)."""
    import re

    out = tmp_path / "snap"
    assert cli("snapshot", "add_kernel", "--cache-dir", str(cache39), "--out", str(out)).returncode == 0
    marker_path = out / "snapshot.json"
    marker = json.loads(marker_path.read_text())
    build = marker["tool"]["build"]
    assert re.fullmatch(r"[0-9a-f]{12}", build) and marker["tool"]["version"]
    args = ("diff", str(out), str(cache39), "--kernel", "add_kernel", "--format", "json")
    same = cli(*args)
    assert same.returncode == 0 and "note:" not in same.stderr, same.stderr
    doc = json.loads(same.stdout)
    assert doc["a"]["tool"] == doc["b"]["tool"] == marker["tool"]
    for tool, said in (({"version": "0.0.9", "build": "0123456789ab"}, "build 0123456789ab (0.0.9)"),
                       (None, "a tritonscope from before snapshots recorded their build")):
        marker.pop("tool", None)
        if tool:
            marker["tool"] = tool
        marker_path.write_text(json.dumps(marker))
        other = cli(*args)
        assert other.returncode == 0
        assert other.stderr.splitlines() == [
            f"tritonscope: note: A's records were computed by {said}, B's by build {build} "
            f"({doc['b']['tool']['version']}): metric differences may "
            "come from the tool as well as from the kernels (snapshot both with one build to compare the kernels "
            "alone)"]
        assert json.loads(other.stdout)["a"]["tool"] == tool


def test_snapshot_tree_from_the_pool_is_the_tree_from_one_core(tmp_path, inductor_cache, monkeypatch):
    """The pool's workers write each record's files where they computed it (the parent only collects):
    the tree is the same byte for byte as one process writing everything, the files in place before
    `finish` names the directories."""
    from tritonscope import parallel
    from tritonscope.artifacts.cache import Cache
    from tritonscope.diff.normalize import NormalizeOptions
    from tritonscope.diff.snapshot import METRICS_FILE, SnapshotWriter

    trees = {}
    for cores in (1, 2):
        monkeypatch.setattr(parallel, "usable_cores", lambda c=cores: c)
        writer = SnapshotWriter(tmp_path / f"s{cores}", NormalizeOptions())
        try:
            records = writer.write_records(Cache(inductor_cache).kernels())
            assert len(records) == 30
            for r in records:
                d = writer.written[id(r)]
                assert sorted(p.name for p in d.iterdir()) == sorted([*r.stages, METRICS_FILE])
                assert all((d / stage).read_text(encoding="utf-8") == text for stage, text in r.stages.items())
            writer.finish(records)
        finally:
            writer.close()
        trees[cores] = _tree(tmp_path / f"s{cores}")
    assert trees[1] == trees[2] and len(trees[1]) == 1 + 30 * 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s1", "s2"]  # no temporary directory left


def _stats(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_ino, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def test_a_snapshot_over_the_previous_one_rewrites_only_what_changed(cli, tmp_path, inductor_cache):
    """Unchanged kernels' directories are left in place (same inodes, same mtimes), a changed or hand-edited
    one is written anew, and the tree is always the tree a snapshot into an empty directory writes; the
    autotuned triton_mm variants (digests and ordinals) included."""
    import shutil

    cache = shutil.copytree(inductor_cache, tmp_path / "cache")
    out = tmp_path / "snap"
    assert cli("snapshot", "--cache-dir", str(cache), "--out", str(out)).returncode == 0
    before = _stats(out)
    assert cli("snapshot", "--cache-dir", str(cache), "--out", str(out)).returncode == 0
    after = _stats(out)
    assert {k: v for k, v in after.items() if k != "snapshot.json"} == \
        {k: v for k, v in before.items() if k != "snapshot.json"}
    # one kernel changed in the cache, one file of another edited by hand in the snapshot
    marker = json.loads((out / "snapshot.json").read_text())
    mm = [k for k in marker["kernels"] if k.startswith("triton_mm/")]
    edited = out / mm[3] / "ttgir"
    edited.write_text(edited.read_text() + "// a reviewer's note\n")
    entry = next(p for p in cache.iterdir() if p.is_dir() and (p / "triton_per_fused_sum_view_1.ttir").exists())
    meta = entry / "triton_per_fused_sum_view_1.json"
    meta.chmod(0o644)
    meta.write_text(meta.read_text().replace('"num_stages": 1', '"num_stages": 2', 1))
    proc = cli("snapshot", "--cache-dir", str(cache), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    again = _stats(out)
    rewritten = sorted(k.rsplit("/", 1)[0] for k in again if k != "snapshot.json" and again[k] != before.get(k))
    assert sorted(set(rewritten)) == sorted([mm[3], "triton_per_fused_sum_view_1/cuda-90"])
    fresh = tmp_path / "fresh"
    assert cli("snapshot", "--cache-dir", str(cache), "--out", str(fresh)).returncode == 0
    assert _tree(out) == _tree(fresh)
    # a narrower snapshot over it keeps only what it names
    assert cli("snapshot", "triton_mm", "--cache-dir", str(cache), "--out", str(out)).returncode == 0
    assert sorted(p.name for p in out.iterdir()) == ["snapshot.json", "triton_mm"]
    assert all(again[k] == v for k, v in _stats(out).items() if k != "snapshot.json")


def _reference_key(r) -> str:
    """The text whose order names same-specialization variants (snapshot.ContentOrder keeps its order)."""
    return json.dumps([r.spec_key, r.stages, r.metrics], sort_keys=True, default=str)


def test_content_order_is_the_order_of_the_records_json_text(corpus):
    """ContentOrder against the JSON text it stands for: random records over texts that differ at quotes,
    backslashes, controls, non-ASCII, astral characters, lone surrogates and prefixes, with stage sets and
    metrics that differ; and the real triton_mm variants of the Inductor corpus."""
    import random

    from tritonscope.artifacts.cache import Cache
    from tritonscope.diff.normalize import DEFAULT_OPTIONS
    from tritonscope.diff.records import KernelRecord, record_for_entry
    from tritonscope.diff.snapshot import ContentOrder

    rng = random.Random(19)
    alphabet = ['a', 'b', 'z', '"', '\\', '\n', '\t', '\x01', '\x7f', 'é', 'ÿ', '\u2028', '\U0001F600',
                '\ud83d', '\ude00', '#', '!', ' ', '~', '{', '}']
    base = "".join(rng.choice(alphabet) for _ in range(40))
    for trial in range(300):
        records = []
        for i in range(rng.randint(2, 9)):
            stages = {}
            for name in rng.sample(["llir", "ptx", "ttgir", "ttir", "source", "amdgcn"], rng.randint(0, 4)):
                cut = rng.randint(0, len(base))
                stages[name] = base[:cut] + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
            records.append(KernelRecord(name="k", target="cuda:90", spec={"n": rng.randint(0, 1)}, origin=str(i),
                                        stages=stages, metrics={"m": rng.choice([1, 2, None])}))
        assert sorted(records, key=ContentOrder) == sorted(records, key=_reference_key), trial
    # Surrogate halves written apart escape as the astral character they pair into: texts that differ
    # only after a window of such escapes are decided by what follows them.
    pair, astral = "\ud83d\ude00" * 10, "\U0001F600" * 10
    crafted = ((pair + "a", astral + "b"), (pair + "b", astral + "a"), (pair, astral + "a"), ("\ud83d", "\U0001F600"))
    for ta, tb in crafted:
        for x, y in ((ta, tb), (tb, ta)):
            records = [KernelRecord(name="k", target="t", spec={}, origin=str(i), stages={"llir": t},
                                    metrics={"i": i}) for i, t in enumerate((x, y))]
            assert sorted(records, key=ContentOrder) == sorted(records, key=_reference_key), (x, y)
    inductor = Cache(corpus / "inductor-h200-triton3.6" / "triton_cache")
    real = [record_for_entry(e, DEFAULT_OPTIONS) for e in inductor.entries() if e.is_kernel and e.name == "triton_mm"]
    assert len(real) == 8
    assert sorted(real, key=ContentOrder) == sorted(real, key=_reference_key)


def test_a_linked_kernel_directory_is_written_anew(cli, tmp_path, cache39):
    """A previous snapshot whose kernel directory is a link (to identical files) is not kept as a link."""
    import shutil

    out = tmp_path / "snap"
    args = ["snapshot", "add_kernel", "--target", "cuda:80", "--cache-dir", str(cache39), "--out", str(out)]
    assert cli(*args).returncode == 0
    real = out / "add_kernel" / "cuda-80"
    shutil.move(real, tmp_path / "elsewhere")
    real.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert cli(*args).returncode == 0
    assert real.is_dir() and not real.is_symlink()
    assert _tree(real) == _tree(tmp_path / "elsewhere")


@pytest.mark.parametrize("damage", ["marker list", "marker kernels", "marker rel int", "marker rel escapes",
                                    "marker rel nul", "marker fold not bool", "metrics list", "metrics string value",
                                    "metrics huge int", "metrics nan", "stage missing", "stage not utf-8",
                                    "stage a nul byte", "stage a pipe", "metrics a pipe", "marker lists none",
                                    "marker newer",
                                    "stage a link", "metrics a link", "marker a link", "kernel folder a link"])
def test_a_damaged_snapshot_is_one_line_naming_the_file(cli, tmp_path, cache39, damage):
    """A snapshot is a directory anyone may edit (and commit): diff against a damaged one says which file is
    wrong in one line, exit 1; a snapshot written over it replaces only what its marker names inside it."""
    out = tmp_path / "snap"
    args = ["snapshot", "add_kernel", "--target", "cuda:80", "--cache-dir", str(cache39), "--out", str(out)]
    assert cli(*args).returncode == 0
    marker, kdir = out / "snapshot.json", out / "add_kernel" / "cuda-80"
    doc, metrics = json.loads(marker.read_text()), json.loads((kdir / "metrics.json").read_text())
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "keep").write_text("keep me")
    named = marker
    if damage == "marker list":
        marker.write_text("[1, 2]")
    elif damage == "marker kernels":
        marker.write_text(json.dumps({**doc, "kernels": "add_kernel/cuda-80"}))
    elif damage == "marker rel int":
        marker.write_text(json.dumps({**doc, "kernels": [*doc["kernels"], 5]}))
    elif damage == "marker rel escapes":
        marker.write_text(json.dumps({**doc, "kernels": [*doc["kernels"], "../outside"]}))
    elif damage == "marker rel nul":
        marker.write_text(json.dumps({**doc, "kernels": [*doc["kernels"], "add_kernel/cuda-80\u0000x"]}))
    elif damage == "marker lists none":  # (its kernels read as absent: their rules went unchecked, exit 0)
        marker.write_text(json.dumps({**doc, "kernels": []}))
    elif damage == "marker newer":  # (a format this build does not know: read as if it were its own)
        marker.write_text(json.dumps({**doc, "version": 99}))
    elif damage == "marker fold not bool":
        marker.write_text(json.dumps({**doc, "options": {"fold_renames": "no"}}))
    elif damage in ("metrics huge int", "metrics nan"):
        value = 10 ** 400 if damage == "metrics huge int" else float("nan")
        (kdir / "metrics.json").write_text(json.dumps({**metrics, "metrics": {**metrics["metrics"], "regs": value}}))
        named = kdir / "metrics.json"
    elif damage == "metrics list":
        (kdir / "metrics.json").write_text("[]")
        named = kdir / "metrics.json"
    elif damage == "metrics string value":
        (kdir / "metrics.json").write_text(json.dumps({**metrics, "metrics": {"regs": "many"}}))
        named = kdir / "metrics.json"
    elif damage == "stage missing":
        (kdir / "ttgir").unlink()
        named = kdir / "ttgir"
    elif damage == "stage not utf-8":
        (kdir / "ttgir").write_bytes(b"\xff\xfe\n")
        named = kdir / "ttgir"
    elif damage == "stage a nul byte":  # (helper 118: read as text, diffed, exit 0: a cache entry's is said)
        (kdir / "ttgir").write_bytes(b"a\0b\n")
        named = kdir / "ttgir"
    elif damage.endswith("a link"):
        # (helper 106: a committed snapshot is a pull request's to edit; a stage linked to a file outside was
        # printed into the diff, and the comment CI posts)
        secret = tmp_path / "outside" / "secret"
        if damage == "kernel folder a link":
            shutil.copytree(kdir, tmp_path / "outside" / "k")
            (tmp_path / "outside" / "k" / "ttgir").write_text("SECRET-OUTSIDE\n")
            shutil.rmtree(kdir)
            kdir.symlink_to(tmp_path / "outside" / "k", target_is_directory=True)
            named = kdir
        else:
            named = {"stage a link": kdir / "ttgir", "metrics a link": kdir / "metrics.json",
                     "marker a link": marker}[damage]
            secret.write_bytes(named.read_bytes().replace(b"add_kernel", b"add_kernel", 1) +
                               (b"SECRET-OUTSIDE\n" if damage == "stage a link" else b""))
            named.unlink()
            named.symlink_to(secret)
    else:  # a pipe no one writes: reading it would wait forever
        named = kdir / ("ttgir" if damage == "stage a pipe" else "metrics.json")
        named.unlink()
        os.mkfifo(named)
    proc = cli("diff", str(out), str(cache39), "-k", "add_kernel", "--target", "cuda:80")
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert str(named) in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert "SECRET" not in proc.stdout + proc.stderr
    if damage.endswith("a link"):
        assert "a symbolic link" in proc.stderr, proc.stderr
    again = cli(*args)
    if damage in ("marker list", "marker kernels", "marker a link"):  # (nothing is removed on a linked marker's word)
        assert again.returncode == 2 and str(marker) in again.stderr, again.stderr
    elif damage == "marker lists none":  # (a folder no snapshot's list names is not replaced: it is said)
        assert again.returncode == 1 and f"{kdir}: in the way of the snapshot" in again.stderr, again.stderr
    else:
        assert again.returncode == 0, again.stderr
        assert cli("diff", str(out), str(cache39), "-k", "add_kernel", "--target", "cuda:80").returncode == 0
    assert (tmp_path / "outside" / "keep").read_text() == "keep me"


def test_outputs_inside_a_cache_are_refused_before_any_work(cli, tmp_path, cache39):
    """Inspection never writes into a Triton or Inductor cache, even when asked to: `snapshot --out`,
    `report -o` (or its default name, in a cache's folder) and `layout --svg/--png` inside the cache
    read, an entry read, or Triton's or Inductor's default cache are usage errors naming the path."""
    import shutil

    cache = shutil.copytree(cache39, tmp_path / "cache")
    entry = cache / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    before = sorted(str(p) for p in cache.rglob("*"))
    inductor = tmp_path / "inductor"
    env = {"TORCHINDUCTOR_CACHE_DIR": str(inductor), "TRITON_CACHE_DIR": str(tmp_path / "triton")}
    for args, path in (
        (["snapshot", "--cache-dir", str(cache), "--out", str(cache / "snap")], cache / "snap"),
        (["snapshot", str(cache), "--out", str(cache / "snap")], cache / "snap"),
        (["snapshot", "--cache-dir", str(cache), "--out", str(inductor / "snap")], inductor / "snap"),
        (["report", "add_kernel", "--target", "cuda:90", "--cache-dir", str(cache), "-o", str(cache / "r.html")],
         cache / "r.html"),
        (["report", str(entry), "-o", str(entry / "r.html")], entry / "r.html"),
        (["report", str(entry), "-o", str(tmp_path / "triton" / "r.html")], tmp_path / "triton" / "r.html"),
        (["layout", str(entry), "--svg", str(entry / "x.svg")], entry / "x.svg"),
        (["layout", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
          "--shape", "128", "--png", str(inductor / "x.png")], inductor / "x.png"),
        # helper 80: an entry, or a file of one, read as the cache: the folder it lies in is the cache, its
        # outputs beside the entries included
        (["report", "add_kernel", "--cache-dir", str(entry), "-o", str(cache / "r.html")], cache / "r.html"),
        (["report", "add_kernel", "--cache-dir", str(entry / "add_kernel.ttgir"), "-o", str(cache / "r.html")],
         cache / "r.html"),
        (["report", str(entry / "add_kernel.ttgir"), "-o", str(cache / "r.html")], cache / "r.html"),
        (["snapshot", "--cache-dir", str(entry), "--out", str(cache / "snap")], cache / "snap"),
    ):
        proc = cli(*args, env=env)
        assert proc.returncode == 2 and str(path) in proc.stderr and "never writes there" in proc.stderr, \
            (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1 and not path.exists()
    assert sorted(str(p) for p in cache.rglob("*")) == before
    import subprocess
    import sys
    here = subprocess.run([sys.executable, "-m", "tritonscope", "report", "."], cwd=entry, capture_output=True,
                          text=True, env={**os.environ, **env})
    assert here.returncode == 2 and "the default output" in here.stderr, here.stderr
    ok = cli("report", str(entry), "-o", str(tmp_path / "r.html"), env=env)
    assert ok.returncode == 0 and (tmp_path / "r.html").is_file(), ok.stderr


def test_outputs_inside_another_triton_cache_are_refused(cli, tmp_path, cache39):
    """`report -o` into a Triton cache the command does not read (an entry of another cache, an entry
    without its json) wrote there: such folders are told by their name and what they hold."""
    import shutil

    other = tmp_path / "other"
    shutil.copytree(cache39, other)
    entry = other / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    partial = other / ("A" * 52)
    partial.mkdir()
    shutil.copy(entry / "add_kernel.ttir", partial / "add_kernel.ttir")
    before = sorted(str(p) for p in other.rglob("*"))
    base = ("report", "add_kernel", "--cache-dir", str(cache39), "--target", "cuda:90", "-o")
    # helper 81: a link to an entry is that entry; a cache's own folder, beside its entries, is the cache
    (tmp_path / "link").symlink_to(entry)
    for path in (entry / "r.html", partial / "r.html", entry / "sub" / "r.html", tmp_path / "link" / "r.html",
                 other / "r.html"):
        proc = cli(*base, str(path))
        assert proc.returncode == 2 and "a Triton cache" in proc.stderr and "never writes there" in proc.stderr, \
            (path, proc.stderr)
    assert sorted(str(p) for p in other.rglob("*")) == before
    ok = cli(*base, str(tmp_path / "r.html"))
    assert ok.returncode == 0, ok.stderr


def test_a_snapshot_put_in_place_beside_another_writer_says_so(tmp_path, cache39):
    """Another process writing the same --out at the same time can leave a kernel directory where this one
    moves its own: one error line saying so, no temporary directory left."""
    import pytest as _pytest

    from tritonscope.artifacts.cache import Cache
    from tritonscope.diff.normalize import NormalizeOptions
    from tritonscope.diff.snapshot import SnapshotWriter, assign_paths
    from tritonscope.errors import TritonscopeError

    entries = [e for e in Cache(cache39).entries() if e.is_kernel][:2]
    out = tmp_path / "snap"
    writer = SnapshotWriter(out, NormalizeOptions())
    try:
        records = writer.write_records(entries)
        rel = assign_paths(records)[0][0]
        (out / rel).mkdir(parents=True)
        (out / rel / "theirs").write_text("another writer's file")
        with _pytest.raises(TritonscopeError, match="another snapshot written here at the same time") as err:
            writer.finish(records)
        assert str(out / rel) in str(err.value)
    finally:
        writer.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["snap"]
    assert _tree(out) == {f"{rel}/theirs": b"another writer's file"}  # nothing of this one put in


def _two_kernel_snapshot(cli, cache39, tmp_path):
    out = tmp_path / "snap"
    args = ["snapshot", "add_kernel", "gemv_tile_kernel", "--cache-dir", str(cache39), "--out", str(out)]
    assert cli(*args).returncode == 0, "first snapshot"
    return out, args


@pytest.mark.parametrize("obstacle", ["kernel dir is a file", "unlisted target dir", "unlisted kernel's target"])
def test_something_in_the_way_stops_the_snapshot_before_out_changes(cli, tmp_path, cache39, obstacle):
    """What no previous snapshot wrote, where this one puts a directory: one line naming it, exit 1, and the
    previous snapshot left whole (it was once half removed, its marker gone: every later run refused)."""
    import shutil

    out, args = _two_kernel_snapshot(cli, cache39, tmp_path)
    marker = json.loads((out / "snapshot.json").read_text())
    first = marker["kernels"][0]
    if obstacle == "kernel dir is a file":
        shutil.rmtree(out / first.split("/")[0])
        (out / first.split("/")[0]).write_text("x")
        named = out / first.split("/")[0]
    else:  # the marker no longer lists a directory that is there (edited, or another writer's)
        marker["kernels"] = marker["kernels"][1:] if obstacle == "unlisted target dir" else []
        (out / "snapshot.json").write_text(json.dumps(marker))
        named = out / first
    before = _tree(out)
    proc = cli(*args)
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert str(named) in proc.stderr and "in the way" in proc.stderr, proc.stderr
    assert _tree(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["snap"]


def test_links_in_place_of_kernel_directories_go_as_links(cli, tmp_path, cache39):
    """A kernel directory replaced by a link to a directory elsewhere (here holding a link of its own named
    like the target directory), and a marker edited to name a path through another such link: the links
    are removed, nothing where they point is touched or written, and the snapshot is the fresh one."""
    import shutil

    out, args = _two_kernel_snapshot(cli, cache39, tmp_path)
    fresh = tmp_path / "fresh"
    assert cli(*args[:-1], str(fresh)).returncode == 0
    decoy = tmp_path / "decoy"
    (decoy / "d").mkdir(parents=True)
    (decoy / "file").write_text("decoy")
    kernel, target = json.loads((out / "snapshot.json").read_text())["kernels"][0].split("/")
    (decoy / "d" / target).symlink_to(decoy / "file")
    shutil.rmtree(out / kernel)
    (out / kernel).symlink_to(decoy / "d", target_is_directory=True)
    (out / "evil").symlink_to(decoy, target_is_directory=True)
    doc = json.loads((out / "snapshot.json").read_text())
    (out / "snapshot.json").write_text(json.dumps({**doc, "kernels": [*doc["kernels"], "evil/file"]}))
    decoy_before = {str(p): (p.is_symlink(), p.read_text() if p.is_file() else None) for p in decoy.rglob("*")}
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    assert {str(p): (p.is_symlink(), p.read_text() if p.is_file() else None) for p in decoy.rglob("*")} == decoy_before
    assert not (out / kernel).is_symlink() and not (out / "evil").exists()
    assert _tree(out) == _tree(fresh)


def test_one_writer_at_a_time_and_a_killed_writers_leftovers_go(tmp_path, cache39):
    """A second writer of the same --out is refused while the first holds it (two at once once left a
    marker naming directories neither wrote); the temporary directory of a writer killed outright is
    removed by the next one."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.diff.normalize import NormalizeOptions
    from tritonscope.diff.snapshot import SnapshotWriter
    from tritonscope.errors import TritonscopeError

    out = tmp_path / "snap"
    stale = tmp_path / ".snap.k3j_9zq1.tmp"
    (stale / ".pending").mkdir(parents=True)
    unrelated = tmp_path / ".snapx.k3j_9zq1.tmp"
    unrelated.mkdir()
    first = SnapshotWriter(out, NormalizeOptions())
    try:
        assert not stale.exists() and unrelated.exists()
        with pytest.raises(TritonscopeError, match="another snapshot is being written here"):
            SnapshotWriter(out, NormalizeOptions())
        entries = [e for e in Cache(cache39).entries() if e.is_kernel][:2]
        first.finish(first.write_records(entries))
    finally:
        first.close()
    second = SnapshotWriter(out, NormalizeOptions())  # (released)
    second.close()


def test_a_writer_stopped_while_putting_the_snapshot_in_place_leaves_it_for_the_next(cli, tmp_path, cache39,
                                                                                     monkeypatch):
    """Killed between removing the previous directories and moving the new ones in (SIGKILL; Ctrl-C and
    SIGTERM wait for the end of that step): the marker then says the snapshot is being replaced; diff
    refuses it in one line, and the next snapshot writes it whole."""
    from tritonscope.artifacts.cache import Cache
    from tritonscope.diff import snapshot
    from tritonscope.diff.normalize import NormalizeOptions

    out, args = _two_kernel_snapshot(cli, cache39, tmp_path)
    fresh = _tree(out)
    shutil_rmtree = snapshot.shutil.rmtree

    class Killed(BaseException):
        pass

    def dies(path, *a, **k):
        shutil_rmtree(path, *a, **k)
        if str(path).startswith(str(out)):
            raise Killed
    monkeypatch.setattr(snapshot.shutil, "rmtree", dies)
    cache = tmp_path / "changed"
    import shutil

    shutil.copytree(cache39, cache)
    for ttgir in cache.rglob("*.ttgir"):
        ttgir.write_text(ttgir.read_text() + "// changed\n")
    writer = snapshot.SnapshotWriter(out, NormalizeOptions())
    entries = [e for e in Cache(cache).entries() if e.is_kernel and e.name in ("add_kernel", "gemv_tile_kernel")]
    with pytest.raises(Killed):
        writer.finish(writer.write_records(entries))
    monkeypatch.setattr(snapshot.shutil, "rmtree", shutil_rmtree)
    os.close(writer.lock)  # (the killed process's lock goes with it)
    assert json.loads((out / "snapshot.json").read_text())["state"] == "replacing"
    proc = cli("diff", str(out), str(cache39))
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1 and "unfinished" in proc.stderr
    assert cli(*args).returncode == 0
    assert _tree(out) == fresh


def test_terminated_snapshot_cleans_up_like_ctrl_c(tmp_path, cache39):
    """SIGTERM (a CI timeout) while records are computed: exit 143, the previous snapshot as it was, no
    temporary directory left."""
    import shutil
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "snap"
    cache = shutil.copytree(cache39, tmp_path / "cache")
    env = {**os.environ, "TRITONSCOPE_RECORDS_CACHE": "off"}
    cmd = [sys.executable, "-m", "tritonscope", "snapshot", "--cache-dir", str(cache), "--out", str(out)]
    assert subprocess.run(cmd, env=env, capture_output=True).returncode == 0
    before = _tree(out)
    for ttgir in cache.rglob("*.ttgir"):  # (every kernel's files written anew)
        ttgir.write_text(ttgir.read_text() + "// changed\n")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob(".snap.*.tmp/.pending/*")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.005)  # (until the pool's workers are writing)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=120)
    if code == 0:
        pytest.skip("the snapshot was done before the signal came")
    assert code == 128 + signal.SIGTERM, proc.stderr.read()
    assert _tree(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["cache", "snap"]


def test_a_kernel_named_dots_stays_inside_out(cli, tmp_path, cache39):
    import shutil

    cache = tmp_path / "cache"
    src = next(p for p in sorted(cache39.iterdir()) if (p / "add_kernel.json").is_file())
    entry = shutil.copytree(src, cache / src.name)
    meta = json.loads((entry / "add_kernel.json").read_text())
    (entry / "add_kernel.json").write_text(json.dumps({**meta, "name": ".."}))
    out = tmp_path / "nest" / "snap"
    proc = cli("snapshot", "--cache-dir", str(cache), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "nest").iterdir()) == ["snap"]
    assert json.loads((out / "snapshot.json").read_text())["kernels"][0].startswith("__/")
    assert cli("diff", str(out), str(out)).returncode == 0


def test_same_specialization_ordinals_follow_content_not_entry_order():
    """Two records alike but for what only metrics.json says (the release): which gets `-1` depends on that
    text, not on which entry the cache listed first."""
    from tritonscope.diff.records import KernelRecord
    from tritonscope.diff.snapshot import assign_paths

    def rec(version):
        return KernelRecord(name="k", target="cuda:90", spec={"num_warps": 4}, origin=version,
                            stages={"ttir": "x\n"}, metrics={"regs": 1}, triton_version=version)
    a, b = rec("3.6.0"), rec("3.6.1")
    one = {rel: r.triton_version for rel, r in assign_paths([a, b])}
    other = {rel: r.triton_version for rel, r in assign_paths([rec("3.6.1"), rec("3.6.0")])}
    assert one == other and len(one) == 2


def test_a_link_to_nothing_as_out_is_refused_before_any_work(cli, tmp_path, cache39):
    out = tmp_path / "snap"
    out.symlink_to(tmp_path / "nowhere")
    proc = cli("snapshot", "add_kernel", "--cache-dir", str(cache39), "--out", str(out))
    assert proc.returncode == 2 and "link to nothing" in proc.stderr and not (tmp_path / "nowhere").exists()


def test_a_marker_naming_a_build_oddly_still_diffs(cli, tmp_path, cache39):
    out = tmp_path / "snap"
    assert cli("snapshot", "add_kernel", "--cache-dir", str(cache39), "--out", str(out)).returncode == 0
    doc = json.loads((out / "snapshot.json").read_text())
    (out / "snapshot.json").write_text(json.dumps({**doc, "tool": {"build": [1], "version": {"x": 1}}}))
    proc = cli("diff", str(out), str(out))
    assert proc.returncode == 0 and "internal error" not in proc.stderr, proc.stderr


def test_a_snapshot_without_its_marker_is_an_error_not_a_cache(cli, tmp_path, cache39):
    """A snapshot whose snapshot.json was lost was read as a Triton cache (a kernel `metrics` for each target,
    every real kernel removed), exit 0 without --fail-on: ci.md's workflow tells an unreadable input by an
    empty report."""
    import shutil

    snap = tmp_path / "snap"
    assert cli("snapshot", "add_kernel", "--cache-dir", str(cache39), "--out", str(snap)).returncode == 0
    lost = shutil.copytree(snap, tmp_path / "lost")
    (lost / "snapshot.json").unlink()
    proc = cli("diff", str(snap), str(lost))
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"tritonscope: error: {lost / 'snapshot.json'}: a snapshot's <kernel>/<target> folders without its "
        "snapshot.json, the file a snapshot is read by: write the snapshot again"]


def test_what_of_an_entry_is_not_read_is_said(cli, tmp_path):
    """A truncated metadata json (its num_warps, smem unknown: a rule on them gave no verdict) and a
    directory in a stage file's place (`llir removed` in a later diff) went into a snapshot without a word."""
    import shutil
    from pathlib import Path

    cache = shutil.copytree(Path(__file__).parent / "data" / "releases-3.5-3.8" / "3.8", tmp_path / "cache")
    [entry] = [p for p in cache.iterdir() if p.is_dir()]
    meta = entry / "_fwd_kernel_stage2.json"
    meta.write_bytes(meta.read_bytes()[:100])
    (entry / "_fwd_kernel_stage2.llir").unlink()
    (entry / "_fwd_kernel_stage2.llir").mkdir()
    proc = cli("snapshot", "--cache-dir", str(cache), "--out", str(tmp_path / "snap"))
    assert proc.returncode == 0, proc.stderr
    notes = [ln for ln in proc.stderr.splitlines() if ln.startswith("tritonscope: note:")]
    assert notes == [
        f"tritonscope: note: {meta}: metadata not read (Unterminated string starting at: line 1 column 100 "
        "(char 99)): what it gives (num_warps, num_stages, shared memory, the release) is unknown",
        f"tritonscope: note: {entry / '_fwd_kernel_stage2.llir'}: not a file: its stage is left out"]
    diff = cli("diff", str(cache), str(tmp_path / "snap"))
    assert [ln for ln in diff.stderr.splitlines() if ln.startswith("tritonscope: note:")] == notes


def test_a_file_of_someone_s_own_in_a_kernel_directory_is_never_removed(cli, tmp_path, cache39):
    """ci.md: a snapshot written over another replaces only what a snapshot wrote there. A NOTE.md put in a
    kernel directory was removed with it."""
    out = tmp_path / "snap"
    args = ("snapshot", "add_kernel", "--cache-dir", str(cache39), "--out", str(out))
    assert cli(*args).returncode == 0
    note = out / "add_kernel" / "cuda-80" / "NOTE.md"
    note.write_text("keep\n")
    before = sorted(p.name for p in note.parent.iterdir())
    proc = cli(*args)
    assert proc.returncode == 1 and proc.stderr.splitlines() == [
        f"tritonscope: error: {note}: in a kernel directory this snapshot replaces, but no snapshot wrote it; "
        "move it out and run again"]
    assert note.read_text() == "keep\n" and sorted(p.name for p in note.parent.iterdir()) == before
    note.unlink()
    assert cli(*args).returncode == 0


def test_a_snapshot_written_beside_a_caches_entries_is_no_entry(cli, tmp_path):
    """Helper 57: a snapshot beside a cache's entries made `ls COPY` list a kernel `snapshot` (its
    snapshot.json read as metadata), and `diff CACHE COPY --fail-on any` fail on it as an added kernel.
    (`snapshot --out COPY/sub` is refused since helper 81, a cache's folder being the cache: the snapshot is
    written elsewhere and moved there, as a user may.)"""
    src = Path(__file__).parent / "data" / "triton-2.3.1" / "cache"
    copy = tmp_path / "copy"
    shutil.copytree(src, copy)
    refused = cli("snapshot", "--cache-dir", str(src), "--out", str(copy / "sub"))
    assert refused.returncode == 2 and "which holds a Triton cache entry" in refused.stderr
    assert cli("snapshot", "--cache-dir", str(src), "--out", str(tmp_path / "sub")).returncode == 0
    shutil.move(str(tmp_path / "sub"), str(copy / "sub"))
    listed = json.loads(cli("ls", "--cache-dir", str(copy), "--json", "--all").stdout)["entries"]
    assert sorted(e["hash"] for e in listed) == sorted(p.name for p in src.iterdir() if p.is_dir())
    p = cli("diff", str(src), str(copy), "--fail-on", "any")
    assert p.returncode == 0, p.stdout + p.stderr


def test_an_empty_stage_is_said_and_its_metrics_are_unknown(cli, tmp_path):
    """Helper 57: a 0-byte PTX (a truncated write) was read as a stage of no instructions: `diff` said
    `ops:global_load 2 -> 0 (-100.0%)` and a rule on it failed, with no word of the file."""
    src = Path(__file__).parent / "data" / "triton-2.3.1" / "cache"
    copy = tmp_path / "copy"
    shutil.copytree(src, copy)
    (ptx,) = [p for p in copy.rglob("add_kernel.ptx") if "80" in (p.parent / "add_kernel.json").read_text()][:1]
    ptx.write_bytes(b"")
    p = cli("diff", str(src), str(copy), "--format", "json")
    assert f"tritonscope: note: {ptx}: empty (0 bytes): its metrics are unknown\n" in p.stderr, p.stderr
    (changed,) = json.loads(p.stdout)["changed"]
    ops = {m["name"]: m for m in changed["metrics"] if m["name"].startswith("ops:global_load")}
    assert ops and all(m["a"] == 2 and m["b"] is None for m in ops.values()), ops


def test_a_damaged_stage_file_is_said_and_the_rest_is_compared(cli, tmp_path, cache39):
    """Helper 57 (left alone at stop 49): one stage file that does not read (a NUL byte in a TTGIR, an LLIR that
    is not UTF-8, a truncated CUBIN) stopped a whole `snapshot` or `diff` with one line, however many other
    kernels the cache held. Now each is a note naming the file (and line), its metrics unknown; the other
    stages of the same entry and every other entry are compared, and a records-cache hit says it again."""
    copy = tmp_path / "copy"
    shutil.copytree(cache39, copy)
    entry = next(p for p in sorted(copy.iterdir()) if list(p.glob("*.cubin")) and list(p.glob("*.llir")))
    ttgir, llir, cubin = (next(entry.glob(f"*.{s}")) for s in ("ttgir", "llir", "cubin"))
    ttgir.write_bytes(ttgir.read_bytes() + b"abc\0def\n")
    lines = ttgir.read_bytes().count(b"\n")
    llir.write_bytes(b"; ModuleID = 'x'\n\xff\xfe\n" + llir.read_bytes())
    cubin.write_bytes(cubin.read_bytes()[:300])
    notes = [f"tritonscope: note: {ttgir}:{lines}: binary data (NUL byte) in a text stage: its metrics are unknown",
             f"tritonscope: note: {llir}:2: not UTF-8 (byte 0xff at offset 17): its metrics are unknown",
             f"tritonscope: note: {cubin}: truncated ELF section table: its metrics are unknown"]
    for records in ("off", str(tmp_path / "records"), str(tmp_path / "records")):  # computed, stored, hit
        p = cli("--records-cache", records, "diff", str(cache39), str(copy), "--format", "json")
        assert p.returncode == 0 and sorted(p.stderr.splitlines()) == sorted(notes), p.stderr
        doc = json.loads(p.stdout)
        assert doc["summary"]["matched"] == len([d for d in cache39.iterdir() if d.is_dir()]), doc["summary"]
        (changed,) = doc["changed"]
        assert changed["a"]["origin"] == changed["b"]["origin"] == entry.name
        gone = {s["stage"] for s in changed["stages"] if s["status"] == "removed"}
        assert gone == {"ttgir", "llir"}, changed["stages"]
        metrics = {m["name"]: (m["a"], m["b"]) for m in changed["metrics"]}
        assert metrics["regs"][0] > 0 and metrics["regs"][1] is None
        assert not any(m.endswith("@ptx") for m in metrics), metrics  # the PTX read and measured as before
    out = tmp_path / "snap"
    p = cli("snapshot", "--cache-dir", str(copy), "--out", str(out))
    assert p.returncode == 0 and sorted(p.stderr.splitlines()[:-1]) == sorted(notes), p.stderr
    docs = {d.parent: json.loads(d.read_text()) for d in out.rglob("metrics.json")}
    assert len(docs) == len([d for d in cache39.iterdir() if d.is_dir()])
    (damaged,) = [d for d, doc in docs.items() if "regs" not in doc["metrics"] and d.name.startswith("cuda")]
    assert sorted(f.name for f in damaged.iterdir()) == ["metrics.json", "ptx", "source", "ttir"]


def test_damage_is_said_in_json_kept_by_snapshots_and_leaves_loads_metrics_unknown(cli, tmp_path, cache39):
    """Helper 64, on the notes above: a CUBIN whose ELF reads but whose tables name no kernel (a NUL inserted
    mid-file) lost its metrics without a word; a PTX that did not read left `loads:*` as known values
    computed without it (`loads:scalar 2 -> 0`, a rule failing on it); `diff --format json` had no notes; a
    snapshot written from the damaged cache kept no trace of it, so a later diff showed `regs ? -> 80` silently."""
    copy = tmp_path / "copy"
    shutil.copytree(cache39, copy)
    nv = [p for p in sorted(copy.iterdir()) if list(p.glob("*.cubin")) and list(p.glob("*.ptx"))]
    cubin, ptx = next(nv[0].glob("*.cubin")), next(nv[1].glob("*.ptx"))
    data = cubin.read_bytes()
    cubin.write_bytes(data[:len(data) // 2] + b"\0" + data[len(data) // 2:])
    ptx.write_bytes(ptx.read_bytes() + b"\0")
    p = cli("--records-cache", "off", "diff", str(cache39), str(copy), "--format", "json", "--fail-on",
            "loads:scalar<-0", "--fail-on", "loads:unknown>+0", "--fail-on", "regs>+0")
    doc = json.loads(p.stdout)
    assert p.returncode == 0 and not doc["failed_rules"], doc["failed_rules"]
    nul_line = ptx.read_bytes().count(b"\n") + 1
    assert [d.split(": ")[0] for d in doc["damage"]] == [str(cubin), f"{ptx}:{nul_line}"]
    assert "name no resources of kernel" in doc["damage"][0] and doc["damage"][0].endswith("its metrics are unknown")
    assert sorted(ln for ln in p.stderr.splitlines() if ": note: rule " not in ln) == sorted(
        f"tritonscope: note: {d}" for d in doc["damage"])
    assert sorted(doc["unjudged"]) == ["loads:scalar<-0", "loads:unknown>+0", "regs>+0"], doc["unjudged"]
    changed = {c["a"]["origin"]: {m["name"]: (m["a"], m["b"]) for m in c["metrics"]} for c in doc["changed"]}
    assert changed[nv[0].name]["regs"][1] is None
    loads = {k: v for k, v in changed[nv[1].name].items() if k.startswith("loads:")}
    assert loads and all(b is None for _, b in loads.values()), loads
    snap = tmp_path / "snap"
    assert cli("snapshot", "--cache-dir", str(copy), "--out", str(snap)).returncode == 0
    p = cli("--records-cache", "off", "diff", str(snap), str(cache39), "--format", "json")
    damage = json.loads(p.stdout)["damage"]
    assert len(damage) == 2 and all(d.split(": ")[0].startswith(str(snap)) and "written from a cache entry whose "
                                    in d for d in damage), damage
    assert f"whose {cubin.name} did not read (its ELF tables name no resources" in " ".join(damage)


def test_a_2x_pointer_with_its_address_space_is_the_3x_pointer(cli, tmp_path):
    """Helper 70: Triton 2.x prints a kernel's pointers with their address space (`!tt.ptr<f32, 1>`), 3.x
    without (`!tt.ptr<f32>`): the argument types differed, so after an upgrade from 2.x every kernel was
    `added` and `removed`, never matched, and every metric rule passed on nothing. With renames folded the two
    spellings are one (in the signature the pairing reads and in the texts)."""
    src = Path(__file__).parent / "data" / "triton-2.3.1" / "cache"
    copy = tmp_path / "as3x"
    shutil.copytree(src, copy)
    for p in list(copy.rglob("*.ttir")) + list(copy.rglob("*.ttgir")):
        text = p.read_text()
        p.write_text(text.replace(", 1>", ">"))
    assert any(", 1>" in p.read_text() for p in src.rglob("*.ttir"))
    doc = json.loads(cli("--records-cache", "off", "diff", str(src), str(copy), "--format", "json").stdout)
    assert doc["summary"]["added"] == doc["summary"]["removed"] == 0, doc["summary"]
    assert doc["summary"]["changed"] == 0, [c["stages"] for c in doc["changed"]]
    # a snapshot written before this fold (its texts with `, 1>`) compares equal to the 3.x spelling too
    snap = tmp_path / "snap"
    assert cli("snapshot", "--cache-dir", str(src), "--out", str(snap)).returncode == 0
    for p in snap.rglob("ttir"):
        p.write_text(p.read_text().replace("!tt.ptr<f32>", "!tt.ptr<f32, 1>"))
    doc = json.loads(cli("--records-cache", "off", "diff", str(snap), str(copy), "--format", "json").stdout)
    assert doc["summary"]["changed"] == 0 and doc["summary"]["matched"] == len(list(src.iterdir())), doc["summary"]
    # unfolded, they are the two spellings they are
    doc = json.loads(cli("--records-cache", "off", "diff", str(src), str(copy), "--no-fold-renames", "--format",
                         "json").stdout)
    assert doc["summary"]["changed"] + doc["summary"]["added"] > 0


def test_outputs_inside_an_inductor_cache_no_option_names_are_refused(cli, tmp_path, cache39):
    """helper 91: `report`, `snapshot` and `layout --svg` wrote into a TorchInductor cache that neither
    --inductor-dir nor TORCHINDUCTOR_CACHE_DIR named (a Triton cache, unnamed, was refused already): such a
    folder is told by its files (`c<hash>.py`, `c<hash>.debug`) and folders (`fxgraph/`, two-letter ones)."""
    import shutil

    recorded = Path(__file__).parent / "data" / "inductor-checkpoint-h100-triton3.6" / "inductor_cache"
    ind = tmp_path / "copied" / "inductor_cache"
    shutil.copytree(recorded, ind)
    two = next(d for d in sorted(ind.iterdir()) if d.is_dir() and len(d.name) == 2)
    (ind / "fxgraph" / "ab").mkdir(parents=True)
    before = sorted(str(p) for p in ind.rglob("*"))
    env = {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "elsewhere")}
    base = ("--cache-dir", str(cache39))
    for args in (("report", "add_kernel", *base, "--target", "cuda:90", "-o", str(two / "r.html")),
                 ("report", "add_kernel", *base, "--target", "cuda:90", "-o", str(ind / "r.html")),
                 ("snapshot", *base, "-o", str(ind / "fxgraph" / "ab" / "snap")),
                 ("layout", "add_kernel", *base, "--target", "cuda:90", "--alias", "blocked", "--svg",
                  str(two / "l.svg"))):
        proc = cli(*args, env=env)
        assert proc.returncode == 2 and f"is inside {ind}, a TorchInductor cache" in proc.stderr, (args, proc.stderr)
    assert sorted(str(p) for p in ind.rglob("*")) == before
    # beside the cache, not in it: written
    ok = cli("report", "add_kernel", *base, "--target", "cuda:90", "-o", str(tmp_path / "copied" / "r.html"), env=env)
    assert ok.returncode == 0, ok.stderr
    # helper 95: a project's empty `fxgraph/` (or two-letter folders of its own) is no Inductor cache; a cache of
    # C++ kernels alone (`th/c<hash>.cpp`, `.so`, `locks/c<hash>.lock`, no FX graph cache) is one
    project = tmp_path / "proj"
    (project / "fxgraph").mkdir(parents=True)
    (project / "ab").mkdir()
    (project / "ab" / "notes.py").write_text("x = 1\n")
    (project / "docs").mkdir()
    ok = cli("report", "add_kernel", *base, "--target", "cuda:90", "-o", str(project / "docs" / "r.html"), env=env)
    assert ok.returncode == 0, ok.stderr
    cpp = tmp_path / "cppcache"
    (cpp / "th").mkdir(parents=True)
    (cpp / "locks").mkdir()
    name = "c" + "t" * 51
    for f in (cpp / "th" / f"{name}.cpp", cpp / "th" / f"{name}.so", cpp / "locks" / f"{name}.lock"):
        f.write_text("")
    refused = cli("report", "add_kernel", *base, "--target", "cuda:90", "-o", str(cpp / "th" / "r.html"), env=env)
    assert refused.returncode == 2 and f"is inside {cpp}, a TorchInductor cache" in refused.stderr, refused.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG and /proc are Linux's")
def test_a_snapshot_killed_leaves_no_worker_holding_its_folder(tmp_path, cache39):
    """Helper 106: a `snapshot` killed by SIGKILL (an OOM kill, `kill -9`) left its pool workers waiting for
    work for ever, holding the lock on --out they inherited: every later snapshot there failed with "another
    snapshot is being written here". The workers end with their parent and do not keep its lock."""
    import signal
    import subprocess
    import time

    out = tmp_path / "snap"
    args = [sys.executable, "-m", "tritonscope", "--records-cache", "off", "snapshot", "--cache-dir", str(cache39),
            "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def children(pid: int) -> list[int]:
        try:
            return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            return []

    def alive(pid: int) -> bool:
        try:
            return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return False

    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None and len(workers) < 2:
        workers = children(proc.pid)
        time.sleep(0.02)
    if len(workers) < 2:
        proc.wait()
        pytest.skip("the snapshot ended before its pool started (one core?)")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(alive(w) for w in workers)
    again = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
@pytest.mark.parametrize("when", ["pool starting", "pool working"])
def test_a_snapshot_interrupted_as_its_pool_starts_or_works_ends(tmp_path, cache39, when):
    """Helper 106: SIGINT to `snapshot` alone (`timeout -s INT`) while the pool's workers were starting left them
    waiting for work no one sent; the command said "interrupted" and hung for ever at exit, joining them. The
    workers are ended, and the command exits 130 with its one line."""
    import signal
    import subprocess
    import time

    big = tmp_path / "big"  # (600 entries, linked to the corpus's files: the pool holds many jobs)
    for k in range(20):
        for entry in (e for e in cache39.iterdir() if e.is_dir()):
            shutil.copytree(entry, big / f"{entry.name[:40]}{k:012d}", copy_function=os.link)
    args = [sys.executable, "-m", "tritonscope", "--records-cache", "off", "snapshot", "--cache-dir", str(big),
            "--out", str(tmp_path / "snap")]
    for attempt in range(3):
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if children.read_text().split():
                    break
            except OSError:
                pass
            time.sleep(0.001)
        if when == "pool working":
            time.sleep(0.5 + attempt * 0.3)
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"attempt {attempt}: still running 60 s after SIGINT")
        if proc.returncode == 0:  # (it had finished first: nothing to say)
            continue
        assert proc.returncode == 130 and err == "tritonscope: interrupted\n", (proc.returncode, err)
