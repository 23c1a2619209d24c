"""Snapshot/diff records kept between runs (an `own_cache.OwnCache`), outside every Triton cache.

A KernelRecord (normalized stages, metrics, load sites) is a pure function of the entry's files, the
entry's name, the normalization options, the stages asked for and the tritonscope build that computes
it. A second `snapshot` or `diff` of the same unchanged compilations reads the record instead of parsing,
normalizing and analyzing every stage again (~10 ms per entry of CPU against ~0.3 ms).

Key: sha256 of the tool's build (its version and a digest of its own source: `build.tool_build`), the
Python version, the options, the stage filter, the entry's kind, name and size limit, which file the walk
took as each stage (a directory may hold two files of one stage; the walk skips links), and every thing in
the entry directory: a regular file by name, length and bytes (the metadata as the cache walk parsed it),
a link or anything else by name and kind, never read through. The bytes read for the key are the bytes
the record is computed from (`preload`). The record's header repeats its key (a record moved to another
key's place is a miss). Not kept: artifacts given as single files and Gluon entries (whose loads
analysis reads the kernel's Python source, outside the entry). The lines a parser left unparsed are kept
with the record (relative to the entry) and reported again on a hit, as the CLI reports them after a parse.

Where: `$TRITONSCOPE_RECORDS_CACHE` (a directory, or `off`), else `$XDG_CACHE_HOME/tritonscope/records`,
else `~/.cache/tritonscope/records`; apart from every cache the command reads (--cache-dir, the caches
and entries it is given, --inductor-dir, a snapshot's --out) and from Triton's and Inductor's default
caches: neither inside the other, else the command keeps no record. Atomic, checked and bounded (1 GiB,
least recently used dropped) as every own cache is (own_cache.py).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import sys
from dataclasses import astuple
from typing import NamedTuple

from tritonscope.artifacts.cache import KernelEntry
from tritonscope.artifacts.own_cache import OwnCache, within
from tritonscope.diff.build import tool_build
from tritonscope.diff.normalize import NORMALIZED_STAGES, NormalizeOptions
from tritonscope.stages.common import read_regular

ENV = "TRITONSCOPE_RECORDS_CACHE"
FORMAT = 2
# a KernelRecord's fields, less its origin (the entry's own name)
_FIELDS = ("name", "target", "spec", "stages", "metrics", "load_sites", "triton_version")
_DICT_FIELDS = ("spec", "metrics", "load_sites")
_MAX_FILE_BYTES = 256 << 20  # an entry file above this (or above --max-stage-size) is not hashed: no record


class Keyed(NamedTuple):
    key: str
    listing: list  # the entry directory as the key saw it: (name, kind, size, mtime ns)
    read: dict  # stage -> (bytes, mtime ns) of the stage files the key read


class RecordsCache(OwnCache):
    ENV = ENV
    SUBDIR = "records"
    SUFFIX = ".rec"
    MAGIC = b"tritonscope-record 2"  # 1: one JSON document (read as damaged: rewritten)
    MAX_BYTES = 1 << 30

    @classmethod
    def for_entry(cls, entry: KernelEntry):
        """The cache for this entry's record: None when off, when the entry cannot be kept (a single
        file, a Gluon kernel) or when the cache would sit inside the cache being read."""
        if entry.kind == "file" or entry.language == "gluon":
            return None
        env = os.environ
        cache = _default(tuple(env.get(k) for k in _DEFAULT_ENV))
        if cache is None or overlaps(str(cache.root), str(entry.cache_root or entry.path)):
            return None
        return cache

    def key(self, entry: KernelEntry, options: NormalizeOptions, stages: tuple[str, ...] | None) -> Keyed | None:
        """The entry's key, the listing it was made from and the stage files' bytes it read; None when a
        file cannot be read or is over the size limit (the computation then reports it as it always does).
        The metadata file enters as the walk parsed it (the record is computed from that, and the file is
        not read again)."""
        h = hashlib.sha256()  # OpenSSL's: ~2 GB/s, so hashing an entry costs far less than parsing it
        top = str(entry.path)
        stage_files = sorted((stage, os.path.basename(p) if os.path.dirname(p) == top else p)
                             for stage, p in entry.file_paths.items())
        head = [FORMAT, tool_build(), list(sys.version_info[:2]), list(astuple(options)),
                list(stages) if stages is not None else None, entry.kind, entry.hash, entry.max_stage_bytes,
                stage_files]
        h.update(json.dumps(head).encode("utf-8", "surrogateescape"))
        limit = entry.max_stage_bytes or _MAX_FILE_BYTES
        stage_of = {os.path.basename(p): stage for stage, p in entry.file_paths.items()}
        read: dict[str, tuple[bytes, int]] = {}
        try:
            listing = _listing(entry.path)
            for name, kind, size, mtime in listing:
                h.update(b"\0%s\0" % name.encode("utf-8", "surrogateescape"))
                if kind != "file":  # a link, a directory, a pipe, a device: its name and kind (reading a pipe
                    h.update(kind.encode())  # would block; the walk takes no link as a stage)
                    continue
                if size > limit:
                    return None  # no record: the computation refuses or skips the file as it always does
                stage = stage_of.get(name)
                if stage == "json":
                    h.update(json.dumps([entry.metadata, entry.metadata_error], sort_keys=True, default=str).encode())
                    continue
                data = read_regular(os.path.join(entry.path, name), limit, follow_links=False)
                h.update(b"%d\0" % len(data))
                h.update(data)
                if stage is not None:
                    read[stage] = (data, mtime)
        except OSError:
            return None
        return Keyed(h.hexdigest(), listing, read)

    @staticmethod
    def preload(entry: KernelEntry, keyed: Keyed) -> None:
        """Hand the bytes the key read to the entry's one parse (stages.entry_stages), so that computing the
        record opens no file again: text stages decoded as the parse reads them (one that does not decode
        is left to be read and reported there), binaries to tools.read_binary's memo."""
        from tritonscope.artifacts.tools import remember_binary
        from tritonscope.stages import entry_stages
        from tritonscope.stages.common import ParseError, decode_text
        from tritonscope.stages.table import BINARY_STAGES

        parsed = entry_stages(entry)
        for stage, (data, mtime) in keyed.read.items():
            path = str(entry.files[stage])
            if stage in BINARY_STAGES:
                remember_binary(path, mtime, data)
                continue
            try:
                parsed.preload(stage, decode_text(data, path))
            except ParseError:
                pass

    def load(self, key: str, entry: KernelEntry) -> tuple[dict, dict] | None:
        """(the record's fields, for diff.records.KernelRecord; the unparsed lines as the parsers note them)
        or None for a miss or a bad record."""
        payload = self.get_bytes(key)
        if payload is None:
            return None
        head, sep, body = payload.partition(b"\n")
        try:
            doc = json.loads(head)
            fields = {k: doc[k] for k in _FIELDS if k != "stages"}
            if (not sep or doc.get("key") != key or not all(isinstance(fields[k], dict) for k in _DICT_FIELDS)
                    or not all(isinstance(fields[k], str) for k in ("name", "target"))
                    or not isinstance(fields["triton_version"], str | None)):
                return None
            stages, at = {}, 0
            for name, size in doc["stages"]:  # the texts follow the header, in this order, as UTF-8
                if name not in NORMALIZED_STAGES or name in stages or not isinstance(size, int) or size < 0:
                    return None  # (a stage's name becomes a snapshot's file name)
                stages[name] = body[at:at + size].decode("utf-8")  # (stages are read as strict UTF-8)
                at += size
            if at != len(body):
                return None
            fields["stages"] = stages
            if isinstance(doc.get("rendered"), str):
                fields["rendered"] = doc["rendered"]
            unparsed = {(stage, _placed(entry, rel, path)): [tuple(x) for x in lines]
                        for stage, rel, path, lines in doc["unparsed"]}
            fields["unread"] = [(_placed(entry, rel, path), str(why)) for rel, path, why in doc.get("unread", ())]
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None  # not a record of this format: a miss, rewritten by the next store
        return fields, unparsed

    def store(self, keyed: Keyed, entry: KernelEntry, record, unparsed: dict) -> None:
        """Keep the record unless the entry changed while it was computed. No trim here: the command
        trims once after its batch (`trim`)."""
        try:
            if _listing(entry.path) != keyed.listing:
                return
        except OSError:
            return
        top = str(entry.path) + os.sep
        rows = [[stage, *_within(path, top), [list(x) for x in lines]] for (stage, path), lines in unparsed.items()]
        doc = {k: getattr(record, k) for k in _FIELDS if k != "stages"}
        doc["key"] = keyed.key
        texts = [(name, text.encode("utf-8", "surrogatepass")) for name, text in record.stages.items()]
        doc["stages"] = [[name, len(data)] for name, data in texts]
        doc["unparsed"] = rows
        # (stage files that did not read, for their notes: named within the entry as the unparsed lines are)
        doc["unread"] = [[*_within(path, top), why] for path, why in record.unread]
        doc["rendered"] = record.metrics_json()  # (the snapshot writing it next takes it from the record)
        # a JSON header line, then the stage texts as they are: decoding escaped JSON strings cost ~8x more
        self.put_bytes(keyed.key, json.dumps(doc).encode("ascii") + b"\n" + b"".join(d for _, d in texts), trim=False)


def _within(path: str | None, top: str) -> list:
    """[whether `path` lies in the entry (`top`: its folder and a separator), the path relative to it then]: a
    record names its entry's files so, to be read back for the entry wherever it lies (`_placed`)."""
    rel = path is not None and path.startswith(top)
    return [rel, path[len(top):] if rel else path]


def _placed(entry: KernelEntry, rel: bool, path: str | None) -> str | None:
    return os.path.join(entry.path, path) if rel else path


# What RecordsCache.default reads from the environment: the answer is kept per process for each value
# (a sweep asks once per entry; resolving the paths costs ~40 us a time).
_DEFAULT_ENV = (ENV, "XDG_CACHE_HOME", "HOME", "TRITON_CACHE_DIR", "TRITON_HOME", "TORCHINDUCTOR_CACHE_DIR", "TMPDIR",
                "USER", "LOGNAME")


@functools.lru_cache(maxsize=8)
def _default(values: tuple[str | None, ...]) -> RecordsCache | None:
    return RecordsCache.default({k: v for k, v in zip(_DEFAULT_ENV, values, strict=True) if v is not None})


@functools.lru_cache(maxsize=64)
def overlaps(root: str, folder: str) -> bool:
    """Whether the records cache at `root` and a cache or folder the command reads or writes at `folder`
    overlap: one inside the other (a records cache around the cache read would put its `<xx>/` directories
    beside or into its entries)."""
    return within(root, folder) or within(folder, root)


def _listing(path) -> list[tuple[str, str, int, int]]:
    """(name, kind, size, mtime ns) of each thing in an entry directory, sorted by name: kind 'file' for a
    regular file, 'link' for a symbolic link (not followed), 'other' for anything else."""
    out = []
    with os.scandir(path) as it:
        for de in it:
            st = de.stat(follow_symlinks=False)
            kind = "file" if stat.S_ISREG(st.st_mode) else "link" if stat.S_ISLNK(st.st_mode) else "other"
            out.append((de.name, kind, st.st_size, st.st_mtime_ns))
    out.sort()
    return out


def keepable(entries: list[KernelEntry]) -> list[bool]:
    """Which entries' computed records to keep: the first ones whose stage files add up to at most half the
    default cache's bound (a record is about the size of its normalized stages). A sweep over a cache larger
    than the bound would otherwise write records that the same sweep's trim drops, every run; kept this way,
    the next run of the same sweep reads the first part and computes the rest as before."""
    cache = RecordsCache.default()
    if cache is None:
        return [False] * len(entries)
    budget = cache.max_bytes // 2
    out = []
    for e in entries:
        budget -= sum(e.sizes.values())
        out.append(budget >= 0)
    return out


def trim_default() -> None:
    """Bound the default records cache once, after a batch of stores."""
    cache = RecordsCache.default()
    if cache is not None:
        cache.trim()
