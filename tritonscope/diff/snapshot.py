"""Snapshot directories: normalized IR plus metrics.json per kernel, meant to be committed.

Layout (deterministic byte for byte: sorted keys, no timestamps, no absolute paths):

    DIR/snapshot.json                       format marker, the tritonscope build, options, the kernel directories
    DIR/<kernel>/<target>/<stage>           normalized text of each stage (ttir, ttgir, llir, ptx, ...)
    DIR/<kernel>/<target>/metrics.json      kernel, target, specialization, metrics, load sites

`<target>` is `cuda-80` or `hip-gfx942`; when one kernel name has several specializations on one
target, every one of them gets `<target>-<spec digest>` so each path depends only on its own kernel.
"""

from __future__ import annotations

import errno
import itertools
import json
import math
import os
import re
import shutil
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from tritonscope.artifacts.cache import DEFAULT_MAX_STAGE_BYTES, KernelEntry
from tritonscope.diff.build import tool_build
from tritonscope.diff.normalize import NORMALIZED_STAGES, NormalizeOptions, refold
from tritonscope.diff.records import KernelRecord, dumps_document, record_job
from tritonscope.diff.records_cache import keepable, trim_default
from tritonscope.errors import TritonscopeError, UsageError
from tritonscope.parallel import CLOSE_IN_WORKERS, entry_bytes, pool_map, signals_held
from tritonscope.stages.common import read_regular

MARKER = "snapshot.json"
FORMAT = "tritonscope-snapshot"
FORMAT_VERSION = 1
METRICS_FILE = "metrics.json"
_INT_LIMIT = 1 << 63
_UNSAFE_PATH_CHARS = re.compile(r"[^\w.+-]")
_DIR_NAME = re.compile(r"[\w.+-]+")  # what kernel_dirname and target_dirname leave


def target_dirname(target: str) -> str:
    return _no_dots(_UNSAFE_PATH_CHARS.sub("-", target.replace(":", "-"))) or "unknown"


def kernel_dirname(name: str) -> str:
    return _no_dots(_UNSAFE_PATH_CHARS.sub("_", name)) or "kernel"


def _no_dots(name: str) -> str:
    """A name of dots only (`.`, `..`: a kernel named so in its metadata) would be no directory of its own."""
    return name.replace(".", "_") if name and not name.strip(".") else name


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
        for r in sorted(recs, key=ContentOrder):
            key = r.spec_key
            n = seen.get(key, 0)
            seen[key] = n + 1
            # Same specialization twice (a cache can hold both): a content-ordered ordinal decides.
            out.append((f"{kdir}/{tdir}-{key}" + (f"-{n}" if n else ""), r))
    return sorted(out, key=lambda p: p[0])


class ContentOrder:
    """A record's place in the order of its text `json.dumps([spec_key, stages, metrics], sort_keys=True,
    default=str)`, then of its metrics.json (which names same-specialization variants' ordinals, whatever
    the order of the cache's entries), found without writing that text:
    two records are compared where they first differ, the stage texts escaped only there. An autotuned
    kernel has hundreds of variants of ~100 KB each; writing every one's text out cost ~0.5 ms a variant.

    Why it is the same order: the text is `["<spec>", {"<stage>": "<escaped>", ...}, <metrics>]`. The spec
    digests have one length; stage names are compared quoted; a JSON string's escaping is per character and
    never yields a bare `"`, so where two stage texts first differ (a common prefix escapes alike), the
    escapes of what follows decide, and a text that ends (its closing `"`) against one that goes on
    decides too. A record with one more stage writes `, "` or `{"` where the other closes with `}`: it
    sorts first."""

    __slots__ = ("r", "spec", "names")

    def __init__(self, r: KernelRecord):
        self.r = r
        self.spec = r.spec_key
        self.names = sorted(r.stages)

    def __lt__(self, other: ContentOrder) -> bool:
        return self._compare(other) < 0

    def _compare(self, other: ContentOrder) -> int:
        if self.spec != other.spec:
            return -1 if self.spec < other.spec else 1
        a, b = self.r.stages, other.r.stages
        for na, nb in zip(self.names, other.names, strict=False):  # (the longer list: below)
            if na != nb:
                qa, qb = _quoted(na), _quoted(nb)
                return -1 if qa < qb else 1
            if a[na] != b[nb]:
                return _compare_quoted(a[na], b[nb])
        if len(self.names) != len(other.names):
            return -1 if len(self.names) > len(other.names) else 1
        ma = json.dumps(self.r.metrics, sort_keys=True, default=str)
        mb = json.dumps(other.r.metrics, sort_keys=True, default=str)
        if ma != mb:
            return -1 if ma < mb else 1
        # (equal so far, they may still differ in what else metrics.json says: the release, the load sites;
        # records equal in every written byte may take either ordinal)
        ja, jb = self.r.metrics_json(), other.r.metrics_json()
        return (ja > jb) - (ja < jb)


def _quoted(text: str) -> str:
    from json.encoder import encode_basestring_ascii  # json.dumps's escaping (ensure_ascii), in C

    return encode_basestring_ascii(text)


def _compare_quoted(a: str, b: str) -> int:
    """The order of json.dumps(a) and json.dumps(b), for a != b, escaping only around their first
    difference."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:  # the common prefix, by halving (slices compare at C speed)
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    window = 16
    wa, wb = _quoted(a[lo:lo + window]), _quoted(b[lo:lo + window])
    if lo + window < len(a):
        wa = wa[:-1]  # the text goes on: no closing quote there
    if lo + window < len(b):
        wb = wb[:-1]
    for ca, cb in zip(wa, wb, strict=False):
        if ca != cb:
            return -1 if ca < cb else 1
    fa, fb = _quoted(a[lo:]), _quoted(b[lo:])  # one escape a prefix of another's (lone surrogates): in full
    return (fa > fb) - (fa < fb)


def record_files(r: KernelRecord) -> dict[str, bytes]:
    """A record's files as written: each normalized stage and metrics.json, name -> bytes."""
    files = {stage: text.encode("utf-8") for stage, text in sorted(r.stages.items())}
    files[METRICS_FILE] = r.metrics_json().encode("utf-8")
    return files


def write_record_dir(r: KernelRecord, d: Path, files: dict[str, bytes] | None = None) -> None:
    """A record's files (`record_files`), in a new directory `d`."""
    d.mkdir()
    for name, data in (files or record_files(r)).items():
        (d / name).write_bytes(data)


def _holds(d: str, files: dict[str, bytes]) -> bool:
    """Whether directory `d`, whose names and sizes are those of `files`, holds them byte for byte."""
    try:
        for name, data in files.items():
            with open(os.path.join(d, name), "rb") as fh:
                if fh.read(len(data) + 1) != data:
                    return False
    except OSError:
        return False
    return True


# A previous snapshot's directories of one kernel -> {their files' names and sizes: directories}, listed
# once per process (each variant of a kernel is compared with every directory of that kernel, and an
# autotuned kernel has hundreds); emptied by each SnapshotWriter.write_records.
_SHAPES: dict[tuple[str, tuple[str, ...]], dict[tuple, list[str]]] = {}


def _by_shape(out: Path, rels: tuple[str, ...]) -> dict[tuple, list[str]]:
    """Directories of plain files only, reached through no link (a link would be kept as a link where a
    snapshot writes a directory), by the sorted (name, size) of their files."""
    key = (str(out), rels)
    index = _SHAPES.get(key)
    if index is None:
        index = _SHAPES[key] = {}
        top = os.path.realpath(out)
        for rel in rels:
            d = os.path.join(top, rel)
            try:
                if os.path.realpath(d) != d:
                    continue
                with os.scandir(d) as it:
                    listed = list(it)
                if not all(de.is_file(follow_symlinks=False) for de in listed):
                    continue  # something else in it: written anew
                found = [(de.name, de.stat(follow_symlinks=False).st_size) for de in listed]
            except OSError:
                continue
            index.setdefault(tuple(sorted(found)), []).append(rel)
    return index


def _snapshot_job(job: tuple[KernelEntry, NormalizeOptions, Path, Path, tuple[str, ...], bool]
                  ) -> tuple[KernelRecord, tuple[str, ...]] | None:
    """One entry's record and the directories among `candidates` (the previous snapshot's, in `out`, of that
    kernel and target) that already hold its files byte for byte; when none does, its files are written
    into the provisional directory `d`."""
    entry, options, d, out, candidates, keep = job
    r = record_job((entry, options, None, keep))
    if r is None:
        return None
    files = record_files(r)
    held: tuple[str, ...] = ()
    if candidates:  # the paths this record may get: <kernel>/<target>, or <kernel>/<target>-<spec digest>[-n]
        own = kernel_dirname(r.name) + "/" + target_dirname(r.target)
        specific = f"{own}-{r.spec_key}"
        same_shape = _by_shape(out, candidates).get(tuple(sorted((n, len(data)) for n, data in files.items())), ())
        held = tuple(rel for rel in same_shape if (rel == own or rel.startswith(specific))
                     and _holds(os.path.join(out, rel), files))
    if not held:
        write_record_dir(r, d, files)
    return r, held


class SnapshotWriter:
    """A snapshot whose files are written by the pool workers that compute its records.

    The tree is written into a temporary sibling directory and moved into place by `finish`, so an
    interrupted run (Ctrl-C, a full disk) leaves `out` as it was and, after `close`, no temporary
    directory behind. Each record's files go to a provisional directory first: a kernel's path depends on
    every record (same-named specializations get digests), known only at the end, when the
    directories are renamed into place (the bytes written do not change).

    Over a previous snapshot in `out`, a kernel directory that already holds a record's files byte for
    byte under the path it gets is left in place, neither written nor moved: a snapshot of unchanged
    compilations rewrites only its marker (a committed snapshot keeps its files, and the disk is spared
    the writes and deletions)."""

    def __init__(self, out: Path, options: NormalizeOptions):
        import tempfile

        if os.path.islink(out) and not out.exists():
            raise UsageError(f"--out {out} is a link to nothing")
        if out.exists():
            if not out.is_dir():
                raise UsageError(f"--out exists and is not a directory: {out}")
            if not (out / MARKER).is_file() and any(out.iterdir()):
                raise UsageError(f"--out {out} is a non-empty directory that is not a snapshot; refusing to write")
        out.parent.mkdir(parents=True, exist_ok=True)
        self.created = not out.exists()
        out.mkdir(exist_ok=True)
        self.out = out
        try:
            self.lock = _lock(out)  # one writer at a time; its temporaries left by a killed writer go
        except TritonscopeError:
            if self.created:
                out.rmdir()
            raise
        self.options = options
        self.previous = _previous_kernels(out)  # kernel dir -> its previous directories
        self.tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
        self.pending = self.tmp / ".pending"
        self.pending.mkdir()
        self.written: dict[int, Path] = {}  # id(record) -> its provisional directory
        self.held: dict[int, tuple[str, ...]] = {}  # id(record) -> the previous directories that hold its files

    def write_records(self, entries: list[KernelEntry],
                      progress: Callable[[int], None] | None = None) -> list[KernelRecord]:
        """Each entry's record, its files written into a provisional directory by the worker that computed
        it (the parent only collects), unless the previous snapshot holds them. Records in the order of
        `entries`; an entry removed from the cache while it was read is left out."""
        _SHAPES.clear()  # (the workers start with it empty; one process may write several snapshots)
        jobs = [(e, self.options, self.pending / str(i), self.out, self._candidates(e), k)
                for i, (e, k) in enumerate(zip(entries, keepable(entries), strict=True))]
        records = []
        for done, job in zip(pool_map(_snapshot_job, jobs, progress, weight=entry_bytes), jobs, strict=True):
            if done is not None:
                r, held = done
                if held:
                    self.held[id(r)] = held
                else:
                    self.written[id(r)] = job[2]
                records.append(r)
        trim_default()
        return records

    def _candidates(self, entry: KernelEntry) -> tuple[str, ...]:
        """The previous snapshot's directories of this entry's kernel (the worker narrows them to its
        target and specialization)."""
        return self.previous.get(kernel_dirname(entry.name), ())

    def finish(self, records: list[KernelRecord]) -> list[str]:
        """Every record added: name the directories, write the marker, put the snapshot in place.

        Before `out` changes, everything in the way is checked (a file or directory no previous snapshot
        wrote where this one puts a kernel: an error naming it, `out` untouched). Then, with Ctrl-C and
        termination held until it is done: a marker listing the directories of both snapshots, marked as
        being replaced (a reader refuses it; a writer killed there leaves `out` for the next one to
        rewrite), the previous directories removed (a link put in place of one: the link, never what it
        points to), the new ones moved in, the final marker last."""
        paths = assign_paths(records)
        kept, new = set(), []
        for rel, r in paths:
            held = self.held.pop(id(r), None)
            if held and rel in held:
                kept.add(rel)  # already in place
                continue
            target = self.tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if held:  # the files are in the previous snapshot under other names only: written anew
                write_record_dir(r, target)
            else:
                os.replace(self.written.pop(id(r)), target)
            new.append(rel)
        self.pending.rmdir()
        rels = [rel for rel, _ in paths]
        marker = {"format": FORMAT, "version": FORMAT_VERSION, "tool": tool_build(),
                  "options": {"fold_renames": self.options.fold_renames}, "kernels": rels}
        (self.tmp / MARKER).write_text(dumps_document(marker), encoding="utf-8", newline="\n")
        out = self.out
        old = _previous_dirs(out)
        links, trees = _clear_the_way(out, old, new, kept)
        try:
            with signals_held():
                replacing = {**marker, "kernels": sorted(set(old) | set(rels)), "state": REPLACING}
                _write_marker(out, replacing)
                for path in links:
                    os.unlink(path)
                for path in trees:
                    shutil.rmtree(path)
                for kernel in sorted({rel.split("/", 1)[0] for rel in old}):
                    try:
                        (out / kernel).rmdir()  # (emptied: its kernel is gone, or comes back below)
                    except OSError:
                        pass
                for rel in new:
                    (out / rel).parent.mkdir(exist_ok=True)
                    os.replace(self.tmp / rel, out / rel)
                os.replace(self.tmp / MARKER, out / MARKER)  # the marker last
        except OSError as e:  # a full disk, or a writer that takes no lock (an older tritonscope)
            raise TritonscopeError(f"could not put the snapshot in place ({e.strerror or e}); was another "
                                   "snapshot written here at the same time? Run again", str(out)) from None
        return rels

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)
        if self.lock is not None:
            CLOSE_IN_WORKERS.discard(self.lock)
            os.close(self.lock)
            self.lock = None
        if self.created:  # a first snapshot that failed: no empty directory left behind
            try:
                self.out.rmdir()
            except OSError:
                pass


REPLACING = "replacing"  # a marker's `state` while a writer puts a snapshot in place


def _write_marker(out: Path, doc: dict) -> None:
    tmp = out / f".{MARKER}.tmp"
    tmp.write_text(dumps_document(doc), encoding="utf-8", newline="\n")
    os.replace(tmp, out / MARKER)


def _previous_dirs(out: Path) -> list[str]:
    """The kernel directories the snapshot in `out` lists (none for an empty `out`)."""
    if not os.path.lexists(out / MARKER):
        return []
    try:
        return _kernel_dirs(_marker(out / MARKER))
    except TritonscopeError:
        raise UsageError(f"{out / MARKER} is not a readable snapshot marker; remove the directory by hand") from None


def _clear_the_way(out: Path, old: list[str], new: list[str], kept: set[str]) -> tuple[list[Path], list[Path]]:
    """What to remove before the new directories move in: (links, directories). Only what a previous
    snapshot wrote goes, and a link put in place of one of its directories goes as a link (what it points to
    is never entered). TritonscopeError, before anything changes, for anything else in the way."""
    import stat

    def kind(path: Path) -> str | None:
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return None
        return "dir" if stat.S_ISDIR(mode) else "link" if stat.S_ISLNK(mode) else "file"

    def in_the_way(path: Path) -> TritonscopeError:
        return TritonscopeError("in the way of the snapshot: no previous snapshot here wrote it (was another "
                                "snapshot written here at the same time?); remove it and run again", str(path))

    old_kernels = {rel.split("/", 1)[0] for rel in old}
    links: list[Path] = []
    trees: list[Path] = []
    linked: set[str] = set()  # kernel directories that are links: removed whole
    for kernel in sorted({rel.split("/", 1)[0] for rel in [*old, *new]}):
        k = kind(out / kernel)
        if k == "link" and kernel in old_kernels:
            links.append(out / kernel)
            linked.add(kernel)
        elif k not in (None, "dir"):
            raise in_the_way(out / kernel)
    going: set[str] = set()
    for rel in old:
        if rel in kept or rel.split("/", 1)[0] in linked:
            continue
        k = kind(out / rel)
        if k == "link":
            links.append(out / rel)
        elif k == "dir":
            foreign = _not_written(out / rel)
            if foreign is not None:  # (someone's own file in it: never removed with it)
                raise TritonscopeError("in a kernel directory this snapshot replaces, but no snapshot wrote it; "
                                       "move it out and run again", str(foreign))
            trees.append(out / rel)
        else:
            continue  # gone already, or a file put there: left as it is (in the way below if it must go)
        going.add(rel)
    for rel in new:
        if rel.split("/", 1)[0] not in linked and rel not in going and kind(out / rel) is not None:
            raise in_the_way(out / rel)
    return links, trees


def _not_written(d: Path) -> Path | None:
    """The first thing in a previous snapshot's kernel directory named as no snapshot names its files (a
    stage's normalized text, metrics.json), else None. (What has a snapshot file's name is replaced, whatever
    it became.)"""
    ours = {*NORMALIZED_STAGES, METRICS_FILE}
    try:
        with os.scandir(d) as it:
            for name in sorted(de.name for de in it):
                if name not in ours:
                    return d / name
    except OSError:
        return None
    return None


def _lock(out: Path) -> int | None:
    """Hold `out` for this writer (flock on the directory, released when the process ends, however it
    ends); TritonscopeError when another writer holds it. Then the temporary siblings a killed writer of
    this `out` left are removed. None where the system has no such lock."""
    try:
        import fcntl
    except ImportError:  # (Windows)
        return None
    fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise TritonscopeError("another snapshot is being written here; run again once it is done", str(out)) from None
    except OSError:  # a filesystem without flock: unlocked, as before
        os.close(fd)
        return None
    CLOSE_IN_WORKERS.add(fd)  # (a forked worker holding it would keep the lock past this process)
    stale = re.compile(re.escape(f".{out.name}.") + r"[a-z0-9_]{8}\.tmp")
    try:
        with os.scandir(out.parent) as it:
            leftovers = [de.path for de in it if stale.fullmatch(de.name) and de.is_dir(follow_symlinks=False)]
    except OSError:
        leftovers = []
    for path in leftovers:
        shutil.rmtree(path, ignore_errors=True)
    return fd


def _marker(path: Path) -> dict:
    """A snapshot marker's document; TritonscopeError (naming it) when it is unreadable or not a marker."""
    try:
        doc = json.loads(_read_file(path))
    except (OSError, ValueError, RecursionError) as e:
        raise TritonscopeError(f"not a readable snapshot: {_reason(e)}", str(path)) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("kernels", []), list):
        raise TritonscopeError(f"not a {FORMAT} marker", str(path))
    return doc


def _kernel_dirs(marker: dict) -> list[str]:
    """The marker's kernel directories that are `<kernel>/<target>` paths inside the snapshot, each part a
    name kernel_dirname or target_dirname could give (a marker is a file anyone may edit: nothing else is
    read or removed)."""
    kernels = marker.get("kernels", [])
    return [rel for rel in (kernels if isinstance(kernels, list) else []) if isinstance(rel, str)
            and rel.count("/") == 1 and all(_DIR_NAME.fullmatch(p) and p.strip(".") for p in rel.split("/"))]


def _previous_kernels(out: Path) -> dict[str, tuple[str, ...]]:
    """The kernel directories of the snapshot in `out`, by kernel directory name; none when there is no
    readable marker (finish then refuses or starts afresh, as it always did)."""
    try:
        rels = _kernel_dirs(_marker(out / MARKER))
    except TritonscopeError:
        return {}
    by_kernel: dict[str, list[str]] = defaultdict(list)
    for rel in rels:
        by_kernel[rel.split("/", 1)[0]].append(rel)
    return {k: tuple(v) for k, v in by_kernel.items()}


def is_snapshot(path: Path) -> bool:
    return (path / MARKER).is_file()


def looks_like_snapshot(path: Path, most: int = 64) -> bool:
    """Whether `path` holds a snapshot's `<kernel>/<target>/metrics.json` (looked for in its first `most`
    folders): a snapshot that lost its marker is not to be read as a cache of no kernels."""
    return next(_record_dirs(path, most), None) is not None


def _record_dirs(root: Path, most: int | None = None):
    """The `<kernel>/<target>` folders of a snapshot that hold a metrics.json (its records on disk), among
    the first `most` entries of each folder where given."""
    try:
        with os.scandir(root) as it:
            kernels = [de for de in itertools.islice(it, most) if de.is_dir(follow_symlinks=False)]
        for k in kernels:
            with os.scandir(k.path) as it:
                targets = list(itertools.islice(it, most))
            for t in targets:
                if t.is_dir(follow_symlinks=False) and os.path.isfile(os.path.join(t.path, METRICS_FILE)):
                    yield f"{k.name}/{t.name}"
    except OSError:
        return


def snapshot_fold_renames(path: str | Path) -> bool | None:
    """How the snapshot at `path` was normalized (its marker's fold_renames, true when it does not say);
    None where `path` is no snapshot, or its marker cannot be read (reading the side reports that)."""
    p = Path(path)
    if not (p.is_dir() and is_snapshot(p)):
        return None
    try:
        marker = _marker(p / MARKER)
    except TritonscopeError:
        return None
    options = marker.get("options") if isinstance(marker.get("options"), dict) else {}
    fold = options.get("fold_renames", True)
    return fold if isinstance(fold, bool) else None


def read_snapshot(root: Path) -> tuple[list[KernelRecord], dict]:
    """Records of a snapshot directory, and its options (with `tool`: the build that wrote it, None for a
    snapshot from before builds were recorded). A snapshot is a directory anyone may edit: what does not
    read as one is an error naming the file."""
    marker = _marker(root / MARKER)
    if marker.get("state") == REPLACING:
        raise TritonscopeError("an unfinished snapshot: its writer stopped while putting it in place; write it "
                               "again", str(root / MARKER))
    version = marker.get("version", FORMAT_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT_VERSION:
        raise TritonscopeError(f"format version {version!r}: this build reads version {FORMAT_VERSION} and "
                               "older (a newer tritonscope wrote it?)", str(root / MARKER))
    kernels = marker.get("kernels", [])
    bad = next((rel for rel in kernels if rel not in _kernel_dirs({"kernels": [rel]})), None)
    if bad is not None:
        raise TritonscopeError(f"kernel directory {bad!r} is not a <kernel>/<target> path", str(root / MARKER))
    unlisted = sorted(set(_record_dirs(root)) - set(kernels))
    if unlisted:  # (their rules would go unchecked: the kernels would read as absent from this side)
        raise TritonscopeError(f"its kernel list leaves out {len(unlisted)} kernel folder(s) the snapshot holds "
                               f"({', '.join(unlisted[:3])}{', ...' if len(unlisted) > 3 else ''}): edited by "
                               "hand? write the snapshot again", str(root / MARKER))
    options = marker.get("options") if isinstance(marker.get("options"), dict) else {}
    fold = options.get("fold_renames", True)
    if not isinstance(fold, bool):
        raise TritonscopeError(f"options.fold_renames is {fold!r}, not true or false", str(root / MARKER))
    records = []
    for rel in kernels:
        d = root / rel
        linked = _linked_folder(root, rel)
        if linked is not None:
            raise TritonscopeError("a symbolic link: a snapshot's folders are read only where they are, never "
                                   "through a link", linked)
        try:
            doc = json.loads(_read_file(d / METRICS_FILE))
        except (OSError, ValueError, RecursionError) as e:
            raise TritonscopeError(f"cannot read: {_reason(e)}", str(d / METRICS_FILE)) from None
        if not _is_record_document(doc):
            raise TritonscopeError(f"not a {METRICS_FILE} of this format (kernel, target, spec, numeric metrics "
                                   "and load sites, stage names)", str(d / METRICS_FILE))
        stages = {}
        for stage in doc.get("stages", []):
            if stage not in NORMALIZED_STAGES:
                continue
            try:
                text = _read_file(d / stage)
            except (OSError, ValueError) as e:
                raise TritonscopeError(f"cannot read: {e}", str(d / stage)) from None
            stages[stage] = refold(stage, text) if fold else text
        records.append(KernelRecord(
            name=doc["kernel"], target=doc["target"], spec=doc.get("spec", {}), origin=rel.replace(os.sep, "/"),
            stages=stages, metrics=doc.get("metrics", {}), load_sites=doc.get("load_sites", {}),
            triton_version=doc.get("triton_version"), unread=_unread_when_written(doc, d / METRICS_FILE)))
    tool = marker.get("tool")
    if isinstance(tool, dict):  # (what a build is said to be is shown, and compared with the other side's)
        tool = {k: v for k, v in tool.items() if isinstance(v, str)}
    return records, {**options, "tool": tool if isinstance(tool, dict) else None}


def _unread_when_written(doc: dict, path: Path) -> list[tuple[str, str]]:
    """The stage files of the cache entry that did not read when the record was written (KernelRecord.document's
    `unread`), as notes of this metrics.json; a value of another shape is none."""
    unread = doc.get("unread")
    if not isinstance(unread, list):
        return []
    return [(str(path), f"written from a cache entry whose {name} did not read ({why})") for name, why in
            (x for x in unread if isinstance(x, list) and len(x) == 2 and all(isinstance(v, str) for v in x))]


def _is_record_document(doc: object) -> bool:
    """Whether a metrics.json holds what KernelRecord.document writes, with the types the diff computes with."""
    def number(v: object) -> bool:  # as metrics are: a count or size in 64 bits, or a finite fraction
        if isinstance(v, bool):
            return False
        return (isinstance(v, int) and -_INT_LIMIT < v < _INT_LIMIT) or (isinstance(v, float) and math.isfinite(v))

    def numbers(d: object) -> bool:
        return isinstance(d, dict) and all(v is None or number(v) for v in d.values())

    return (isinstance(doc, dict) and isinstance(doc.get("kernel"), str) and isinstance(doc.get("target"), str)
            and isinstance(doc.get("spec", {}), dict) and numbers(doc.get("metrics", {}))
            and numbers(doc.get("load_sites", {}))
            and isinstance(doc.get("stages", []), list) and all(isinstance(x, str) for x in doc.get("stages", [])))


def _reason(e: BaseException) -> str:
    return "nested too deep" if isinstance(e, RecursionError) else str(e)


NEWLINE = b"\n"


def _read_file(path: Path) -> str:
    """A snapshot file's text: a regular file of at most the stage size limit, UTF-8 (stages.common.read_regular),
    reached through no symbolic link below the snapshot's folder (a committed snapshot is a pull request's to
    edit: a link to /etc/passwd in a stage's place would print that file into the diff and the PR comment).
    OSError or ValueError (UnicodeDecodeError) otherwise."""
    try:
        data = read_regular(path, DEFAULT_MAX_STAGE_BYTES, follow_links=False)
        nul = data.find(b"\0")
        if nul >= 0:  # (a text a snapshot wrote holds none: a cache entry's such stage is said not to read)
            raise ValueError(f"binary data (NUL byte) at line {data.count(NEWLINE, 0, nul) + 1}")
        return data.decode("utf-8")
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(path):
            raise OSError("a symbolic link: a snapshot's files are read only where they are, never through a link"
                          ) from None
        raise


def _linked_folder(root: Path, rel: str) -> str | None:
    """The first folder of `rel` under `root` that is a symbolic link, else None."""
    d = root
    for part in Path(rel).parts:
        d = d / part
        if os.path.islink(d):
            return str(d)
    return None
