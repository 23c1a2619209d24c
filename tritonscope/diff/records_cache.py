"""Snapshot/diff records kept between runs (an `own_cache.OwnCache`), outside every Triton cache.

A KernelRecord (normalized stages, metrics, load sites) is a pure function of the entry's files, the
entry's name, the normalization options, the stages asked for and the tritonscope build that computes
it. A second `snapshot` or `diff` of the same unchanged compilations reads the record instead of parsing,
normalizing and analyzing every stage again (~10 ms per entry of CPU against ~0.3 ms).

Key: sha256 of the tool's build (its version and a digest of its own source: `snapshot.tool_build`), the
Python version, the options, the stage filter, the entry's kind, name and size limit, and every file of
the entry directory (name, length, bytes). Not kept: artifacts given as single files and Gluon entries
(whose loads analysis reads the kernel's Python source, outside the entry). The lines a parser left
unparsed are kept with the record (relative to the entry) and reported again on a hit, as the CLI
reports them after a parse.

Where: `$TRITONSCOPE_RECORDS_CACHE` (a directory, or `off`), else `$XDG_CACHE_HOME/tritonscope/records`,
else `~/.cache/tritonscope/records`; never inside the cache being read; atomic, checked and bounded (1 GiB,
least recently used dropped) as every own cache is (own_cache.py).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from dataclasses import astuple

from tritonscope.artifacts.cache import KernelEntry
from tritonscope.artifacts.own_cache import OwnCache, within
from tritonscope.diff.normalize import NormalizeOptions

ENV = "TRITONSCOPE_RECORDS_CACHE"
FORMAT = 1


class RecordsCache(OwnCache):
    ENV = ENV
    SUBDIR = "records"
    SUFFIX = ".rec"
    MAGIC = b"tritonscope-record 1"

    @classmethod
    def default(cls, env: dict[str, str] | None = None):
        cache = super().default(env)
        return None if cache is None else cls(cache.root, max_bytes=1 << 30)

    @classmethod
    def for_entry(cls, entry: KernelEntry):
        """The cache for this entry's record: None when off, when the entry cannot be kept (a single
        file, a Gluon kernel) or when the cache would sit inside the cache being read."""
        if entry.kind == "file" or entry.language == "gluon":
            return None
        env = os.environ
        cache = _default(tuple(env.get(k) for k in _DEFAULT_ENV))
        if cache is None or _within(str(cache.root), str(entry.cache_root or entry.path)):
            return None
        return cache

    def key(self, entry: KernelEntry, options: NormalizeOptions, stages: tuple[str, ...] | None
            ) -> tuple[str, list] | None:
        """(key, the entry's listing as read) or None when a file cannot be read (the computation then
        reports it as it always does). The listing lets `store` refuse a record whose entry changed while
        it was computed (Triton writes an entry file by file)."""
        from tritonscope.diff.snapshot import tool_build

        h = hashlib.sha256()  # OpenSSL's: ~2 GB/s, so hashing an entry costs far less than parsing it
        head = [FORMAT, tool_build(), list(sys.version_info[:2]), list(astuple(options)),
                list(stages) if stages is not None else None, entry.kind, entry.hash, entry.max_stage_bytes]
        h.update(json.dumps(head).encode())
        try:
            listing = _listing(entry.path)
            for name, is_dir, _size, _mtime in listing:
                h.update(b"\0%s\0" % name.encode("utf-8", "surrogateescape"))
                if is_dir:
                    h.update(b"/")
                    continue
                with open(os.path.join(entry.path, name), "rb") as fh:
                    data = fh.read()
                h.update(b"%d\0" % len(data))
                h.update(data)
        except OSError:
            return None
        return h.hexdigest(), listing

    def load(self, key: str, entry: KernelEntry):
        """(KernelRecord, unparsed lines as the parsers note them) or None for a miss or a bad record."""
        from tritonscope.diff.records import KernelRecord

        payload = self.get_bytes(key)
        if payload is None:
            return None
        try:
            doc = json.loads(payload)
            record = KernelRecord(
                name=doc["name"], target=doc["target"], spec=doc["spec"], origin=entry.hash,
                stages=doc["stages"], metrics=doc["metrics"], load_sites=doc["load_sites"],
                triton_version=doc["triton_version"])
            unparsed = {(stage, os.path.join(entry.path, path) if rel else path): [tuple(x) for x in lines]
                        for stage, rel, path, lines in doc["unparsed"]}
        except (ValueError, KeyError, TypeError):
            return None  # not a record of this format: a miss, rewritten by the next store
        return record, unparsed

    def store(self, key: str, listing: list, entry: KernelEntry, record, unparsed: dict) -> None:
        """Keep the record unless the entry changed while it was computed. No trim here: the command
        trims once after its batch (`trim`)."""
        try:
            if _listing(entry.path) != listing:
                return
        except OSError:
            return
        top = str(entry.path) + os.sep
        rows = []
        for (stage, path), lines in unparsed.items():
            rel = path is not None and path.startswith(top)
            rows.append([stage, rel, path[len(top):] if rel else path, [list(x) for x in lines]])
        doc = {"name": record.name, "target": record.target, "spec": record.spec, "stages": record.stages,
               "metrics": record.metrics, "load_sites": record.load_sites,
               "triton_version": record.triton_version, "unparsed": rows}
        self.put_bytes(key, json.dumps(doc).encode("ascii"), trim=False)


# What RecordsCache.default reads from the environment: the answer is kept per process for each value
# (a sweep asks once per entry; resolving the paths costs ~40 us a time).
_DEFAULT_ENV = (ENV, "XDG_CACHE_HOME", "HOME", "TRITON_CACHE_DIR", "TRITON_HOME")


@functools.lru_cache(maxsize=8)
def _default(values: tuple[str | None, ...]) -> RecordsCache | None:
    return RecordsCache.default({k: v for k, v in zip(_DEFAULT_ENV, values, strict=True) if v is not None})


@functools.lru_cache(maxsize=64)
def _within(path: str, folder: str) -> bool:
    return within(path, folder)


def _listing(path) -> list[tuple[str, bool, int, int]]:
    """(name, is a directory, size, mtime ns) of each thing in an entry directory, sorted by name."""
    out = []
    with os.scandir(path) as it:
        for de in it:
            st = de.stat(follow_symlinks=True)
            out.append((de.name, de.is_dir(), st.st_size, st.st_mtime_ns))
    out.sort()
    return out


def trim_default() -> None:
    """Bound the default records cache once, after a batch of stores."""
    cache = RecordsCache.default()
    if cache is not None:
        cache.trim()
