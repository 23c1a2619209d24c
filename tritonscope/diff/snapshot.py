"""Snapshot directories: normalized IR plus metrics.json per kernel, meant to be committed.

Layout (deterministic byte for byte: sorted keys, no timestamps, no absolute paths):

    DIR/snapshot.json                       format marker, the tritonscope build, options, the kernel directories
    DIR/<kernel>/<target>/<stage>           normalized text of each stage (ttir, ttgir, llir, ptx, ...)
    DIR/<kernel>/<target>/metrics.json      kernel, target, specialization, metrics, load sites

`<target>` is `cuda-80` or `hip-gfx942`; when one kernel name has several specializations on one
target, every one of them gets `<target>-<spec digest>` so each path depends only on its own kernel.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from tritonscope.artifacts.cache import KernelEntry
from tritonscope.diff.normalize import NORMALIZED_STAGES, NormalizeOptions, refold
from tritonscope.diff.records import KernelRecord, record_job
from tritonscope.diff.records_cache import trim_default
from tritonscope.errors import TritonscopeError, UsageError
from tritonscope.parallel import pool_map

MARKER = "snapshot.json"
FORMAT = "tritonscope-snapshot"
FORMAT_VERSION = 1
METRICS_FILE = "metrics.json"
_UNSAFE_PATH_CHARS = re.compile(r"[^\w.+-]")


def tool_build() -> dict:
    """Which tritonscope computes records: its version and a digest of its own source (the version alone
    stays while the analysis changes), so that a diff can say when its two sides came from different
    builds (their metrics may differ for the tool's sake, not the kernels')."""
    return dict(_tool_build())


@functools.cache
def _tool_build() -> dict:  # (the source read and digested once per process: a diff of two caches asks twice)
    from tritonscope import __version__
    from tritonscope.artifacts.own_cache import sha256

    root = Path(__file__).resolve().parent.parent
    digest = sha256()
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] == "sample_kernels":  # (installed there, beside it in a checkout)
            continue
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            continue
    return {"version": __version__, "build": digest.hexdigest()[:12]}


def target_dirname(target: str) -> str:
    return _UNSAFE_PATH_CHARS.sub("-", target.replace(":", "-")) or "unknown"


def kernel_dirname(name: str) -> str:
    return _UNSAFE_PATH_CHARS.sub("_", name) or "kernel"


def assign_paths(records: list[KernelRecord]) -> list[tuple[str, KernelRecord]]:
    """(relative dir, record) sorted by path; duplicates of (kernel, target) get a spec digest."""
    groups: dict[tuple[str, str], list[KernelRecord]] = defaultdict(list)
    for r in records:
        groups[(kernel_dirname(r.name), target_dirname(r.target))].append(r)
    out: list[tuple[str, KernelRecord]] = []
    for (kdir, tdir), recs in groups.items():
        if len(recs) == 1:
            out.append((f"{kdir}/{tdir}", recs[0]))
            continue
        seen: dict[str, int] = {}
        for r in sorted(recs, key=_content_key):
            key = r.spec_key
            n = seen.get(key, 0)
            seen[key] = n + 1
            # Same specialization twice (a cache can hold both): a content-ordered ordinal decides.
            out.append((f"{kdir}/{tdir}-{key}" + (f"-{n}" if n else ""), r))
    return sorted(out, key=lambda p: p[0])


def _content_key(r: KernelRecord) -> str:
    return json.dumps([r.spec_key, r.stages, r.metrics], sort_keys=True, default=str)


def _dumps(doc: object) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def record_document(r: KernelRecord) -> dict:
    return {"kernel": r.name, "target": r.target, "spec": r.spec, "spec_key": r.spec_key,
            "triton_version": r.triton_version, "stages": sorted(r.stages), "metrics": r.metrics,
            "load_sites": r.load_sites}


def write_record_dir(r: KernelRecord, d: Path) -> None:
    """A record's files: each normalized stage and metrics.json, in a new directory `d`."""
    d.mkdir()
    for stage, text in sorted(r.stages.items()):
        (d / stage).write_text(text, encoding="utf-8", newline="\n")
    (d / METRICS_FILE).write_text(_dumps(record_document(r)), encoding="utf-8", newline="\n")


def _snapshot_job(job: tuple[KernelEntry, NormalizeOptions, Path]) -> KernelRecord | None:
    entry, options, d = job
    r = record_job((entry, options, None))
    if r is not None:
        write_record_dir(r, d)
    return r


class SnapshotWriter:
    """A snapshot whose files are written by the pool workers that compute its records.

    The tree is written into a temporary sibling directory and moved into place by `finish`, so an
    interrupted run (Ctrl-C, a full disk) leaves `out` as it was and, after `close`, no temporary
    directory behind. Each record's files go to a provisional directory first: a kernel's path depends on
    every record (same-named specializations get digests), known only at the end, when the
    directories are renamed into place (the bytes written do not change)."""

    def __init__(self, out: Path, options: NormalizeOptions):
        import tempfile

        if out.exists():
            if not out.is_dir():
                raise UsageError(f"--out exists and is not a directory: {out}")
            if not (out / MARKER).is_file() and any(out.iterdir()):
                raise UsageError(f"--out {out} is a non-empty directory that is not a snapshot; refusing to write")
        out.parent.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.options = options
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
        self.pending = self.tmp / ".pending"
        self.pending.mkdir()
        self.written: dict[int, Path] = {}  # id(record) -> its provisional directory

    def write_records(self, entries: list[KernelEntry],
                      progress: Callable[[int], None] | None = None) -> list[KernelRecord]:
        """Each entry's record, its files written into a provisional directory by the worker that computed
        it (the parent only collects). Records in the order of `entries`; an entry removed from the cache
        while it was read is left out."""
        jobs = [(e, self.options, self.pending / str(i)) for i, e in enumerate(entries)]
        records = []
        for r, (_, _, d) in zip(pool_map(_snapshot_job, jobs, progress), jobs, strict=True):
            if r is not None:
                self.written[id(r)] = d
                records.append(r)
        trim_default()
        return records

    def finish(self, records: list[KernelRecord]) -> list[str]:
        """Every record added: name the directories, write the marker, replace `out`."""
        paths = assign_paths(records)
        for rel, r in paths:
            target = self.tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.written.pop(id(r)), target)
        self.pending.rmdir()
        marker = {"format": FORMAT, "version": FORMAT_VERSION, "tool": tool_build(),
                  "options": {"fold_renames": self.options.fold_renames}, "kernels": [rel for rel, _ in paths]}
        (self.tmp / MARKER).write_text(_dumps(marker), encoding="utf-8", newline="\n")
        out = self.out
        if out.exists() and (out / MARKER).is_file():
            _remove_previous(out)
        out.mkdir(exist_ok=True)
        for item in sorted(self.tmp.iterdir(), key=lambda p: p.name == MARKER):  # the marker last
            os.replace(item, out / item.name)
        return [rel for rel, _ in paths]

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def _remove_previous(out: Path) -> None:
    """Only what a previous snapshot wrote: its kernel directories and the marker."""
    try:
        prev = json.loads((out / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UsageError(f"{out / MARKER} is not readable; remove the directory by hand") from None
    for rel in prev.get("kernels", []):
        p = (out / rel).resolve()
        if out.resolve() in p.parents and p.is_dir():
            shutil.rmtree(p)
            parent = p.parent
            while parent != out.resolve() and parent.is_dir() and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
    (out / MARKER).unlink()


def is_snapshot(path: Path) -> bool:
    return (path / MARKER).is_file()


def read_snapshot(root: Path) -> tuple[list[KernelRecord], dict]:
    """Records of a snapshot directory, and its options (with `tool`: the build that wrote it, None for a
    snapshot from before builds were recorded)."""
    try:
        marker = json.loads((root / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise TritonscopeError(f"not a readable snapshot: {e}", str(root / MARKER)) from None
    if marker.get("format") != FORMAT:
        raise TritonscopeError(f"not a {FORMAT} marker", str(root / MARKER))
    records = []
    for rel in marker.get("kernels", []):
        d = root / rel
        try:
            doc = json.loads((d / METRICS_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise TritonscopeError(f"cannot read {METRICS_FILE}: {e}", str(d)) from None
        stages = {}
        fold = marker.get("options", {}).get("fold_renames", True)
        for stage in doc.get("stages", []):
            if stage not in NORMALIZED_STAGES:
                continue
            text = (d / stage).read_text(encoding="utf-8")
            stages[stage] = refold(stage, text) if fold else text
        records.append(KernelRecord(
            name=doc["kernel"], target=doc["target"], spec=doc.get("spec", {}), origin=rel.replace(os.sep, "/"),
            stages=stages, metrics=doc.get("metrics", {}), load_sites=doc.get("load_sites", {}),
            triton_version=doc.get("triton_version")))
    tool = marker.get("tool")
    return records, {**marker.get("options", {}), "tool": tool if isinstance(tool, dict) else None}
