"""One comparable record per kernel: normalized stage texts, metrics and specialization.

`diff` and `snapshot` both work on KernelRecords, whether they come from a cache (computed here, in a
process pool when there is more than one core and more than one entry) or from a snapshot directory
(read back by `snapshot.read_snapshot`). Nothing here imports triton.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tritonscope.artifacts.cache import KernelEntry
from tritonscope.artifacts.tools import read_binary
from tritonscope.diff.metrics import kernel_metrics
from tritonscope.diff.normalize import NORMALIZED_STAGES, NormalizeOptions, normalize
from tritonscope.diff.records_cache import RecordsCache, keepable, trim_default
from tritonscope.errors import TritonscopeError
from tritonscope.layouts.syntax import split_top_level
from tritonscope.loads.analyze import analyze_entry
from tritonscope.parallel import entry_bytes, pool_map
from tritonscope.render.visible import json_visible
from tritonscope.stages import collecting_unparsed, entry_stages, note_unparsed, release
from tritonscope.stages.table import BINARY_STAGES

BINARY_METRIC_STAGES = BINARY_STAGES
# Metadata fields that pick a specialization (besides the IR signature), in every release's spelling.
SPEC_META_KEYS = ("num_warps", "num_stages", "num_ctas", "signature", "constants", "constexprs", "maxnreg")
# `tt.func public @name(%v0: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %v1: i32) attributes {...} {`
FUNC_SIGNATURE = re.compile(r"^\s*tt\.func\s+(?:public\s+|private\s+)?@[\w$.]+\((.*)\)(?:\s+attributes\s+(\{.*\}))?")
ARG_NAME = re.compile(r"%v\d+:\s*")


@dataclass(slots=True)
class KernelRecord:
    name: str
    target: str  # 'cuda:80', 'hip:gfx942', '?' when unknown
    spec: dict  # specialization: IR signature and metadata fields that select a variant
    origin: str  # where it came from: entry hash, snapshot sub-path, or file name
    stages: dict[str, str] = field(default_factory=dict)  # stage -> normalized text
    metrics: dict[str, int | None] = field(default_factory=dict)
    load_sites: dict[str, int] = field(default_factory=dict)
    triton_version: str | None = None
    # metrics.json as a snapshot writes it (`metrics_json`), kept once written or read from the records cache
    rendered: str | None = field(default=None, compare=False, repr=False)
    # stage files of the entry that did not read, (path, why): left out, their metrics unknown (`damage_notes`)
    unread: list[tuple[str, str]] = field(default_factory=list, compare=False, repr=False)

    @property
    def spec_key(self) -> str:
        """A short stable digest of the specialization (used to name snapshot directories)."""
        blob = json.dumps(self.spec, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:8]

    def label(self) -> str:
        return f"{self.name} {self.target}"

    def document(self) -> dict:
        """What a snapshot's metrics.json holds; `unread` only where a stage file did not read (its file's
        name and why: a later diff of the snapshot says why those metrics are unknown)."""
        doc = {"kernel": self.name, "target": self.target, "spec": self.spec, "spec_key": self.spec_key,
               "triton_version": self.triton_version, "stages": sorted(self.stages), "metrics": self.metrics,
               "load_sites": self.load_sites}
        if self.unread:
            doc["unread"] = sorted([os.path.basename(re.sub(r":\d+$", "", path)), why]  # (no `:line`, no folder)
                                   for path, why in self.unread)
        return doc

    def damage_notes(self) -> list[str]:
        """One line per stage file that did not read, naming it (as KernelEntry.damage's lines do)."""
        return [f"{path}: {why}: its metrics are unknown" for path, why in self.unread]

    def metrics_json(self) -> str:
        """The metrics.json text (json's indenting encoder is pure Python: written once per record)."""
        if self.rendered is None:
            self.rendered = dumps_document(self.document())
        return self.rendered


def dumps_document(doc: object) -> str:
    """A snapshot file's JSON: sorted keys, two-space indent, a final newline (byte for byte stable); text as
    UTF-8 but the characters a terminal would act on or that read as others (`json_visible`: an escape, a
    bidirectional override, a name's undecodable byte as its lone surrogate), escaped: a committed file that
    `cat` and `git diff` show as it reads, and that UTF-8 can encode."""
    return json_visible(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False)) + "\n"


def signature_from_ir(normalized_ir: str) -> dict:
    """Argument types and attributes of the kernel function, from normalized TTIR/TTGIR/source."""
    for line in normalized_ir.splitlines():
        m = FUNC_SIGNATURE.match(line)
        if m:
            args = [a.strip() for a in split_top_level(ARG_NAME.sub("", m.group(1)))]
            return {"args": [a for a in args if a], "attributes": m.group(2) or ""}
    return {}


def specialization(meta: dict | None, normalized: dict[str, str]) -> dict:
    spec: dict = {}
    for key in SPEC_META_KEYS:
        if meta and meta.get(key) is not None:
            spec[key] = meta[key]
    for stage in ("ttir", "source", "ttgir"):
        if stage in normalized:
            sig = signature_from_ir(normalized[stage])
            if sig:
                spec["ir_signature"] = sig
                break
    return json.loads(json.dumps(spec, sort_keys=True, default=str))  # plain, comparable data


def record_for_entry(entry: KernelEntry, options: NormalizeOptions, stages: tuple[str, ...] | None = None
                     ) -> KernelRecord:
    """Read, normalize and measure one cache entry (read-only). A stage file that does not read (a NUL byte,
    not UTF-8, over the size limit, a CUBIN whose ELF tables do not read) is left out, its metrics unknown,
    and named in the record's `unread`: one damaged file of a cache is no reason to compare none of it."""
    parsed = entry_stages(entry)  # each stage read once and parsed once: here, in metrics and in loads
    raw: dict[str, str] = {}
    normalized: dict[str, str] = {}
    unread: list[tuple[str, str]] = []
    for stage in NORMALIZED_STAGES:
        if stage in entry.files and (stages is None or stage in stages):
            try:
                text = parsed.text(stage)
            except TritonscopeError as exc:
                unread.append(_unread(entry, stage, exc))
                continue
            if not text:  # (0 bytes: a truncated write, said by KernelEntry.damage; no stage of no ops)
                continue
            raw[stage] = text
            normalized[stage] = normalize(stage, raw[stage], options)
    binaries: dict[str, tuple[bytes, str | None]] = {}
    for stage in BINARY_METRIC_STAGES:
        if stage in entry.files:
            try:
                path = entry.stage_path(stage)
                binaries[stage] = (read_binary(path), str(path))
            except TritonscopeError as exc:
                unread.append(_unread(entry, stage, exc))
            except OSError as exc:
                unread.append(_unread(entry, stage, TritonscopeError(f"cannot read: {exc.strerror or exc}")))
    # (the loads verdicts of an entry missing a text stage it has, damaged or empty, would count that stage's
    # instructions as none: unknown, as its other metrics are)
    partial = bool(unread) or any(entry.sizes.get(s) == 0 for s in entry.files if s in NORMALIZED_STAGES)
    km = kernel_metrics(raw, normalized, entry.metadata, binaries, entry.name,
                        None if partial else _loads_report(entry, stages), modules=parsed)
    unread += km.unread
    target = entry.target
    return KernelRecord(
        name=entry.name, target=str(target) if target else "?", spec=specialization(entry.metadata, normalized),
        origin=entry.hash if entry.kind != "file" else entry.path.name, stages=normalized,
        metrics=km.values, load_sites=km.load_sites, triton_version=release_of(entry), unread=unread)


def release_of(entry: KernelEntry) -> str | None:
    """The release that built the entry: its metadata's `triton_version`, else the one its fields show,
    said to be inferred (`3.0-3.1 (inferred)`: a 3.1 cache's snapshot keeps it)."""
    inferred = entry.triton_version_inferred
    return entry.triton_version or (f"{inferred} (inferred)" if inferred else None)


def _unread(entry: KernelEntry, stage: str, exc: TritonscopeError) -> tuple[str, str]:
    """(the file, why) of a stage that did not read; an entry removed meanwhile is no damage (record_job)."""
    if not entry.path.exists():
        raise exc
    where = exc.path or str(entry.file_paths.get(stage) or entry.path)
    if getattr(exc, "line", None) is not None:
        where += f":{exc.line}"
    return where, exc.message


def _loads_report(entry: KernelEntry, stages: tuple[str, ...] | None):
    """`loads` over TTGIR + LLIR + ISA (no SASS: a snapshot must not depend on which tools are installed)."""
    if "ttgir" not in entry.files:
        return None
    try:
        return analyze_entry(entry, sass=False)
    except TritonscopeError:
        return None  # metrics fall back to per-line widths from memops


def record_job(args: tuple[KernelEntry, NormalizeOptions, tuple[str, ...] | None, bool]) -> KernelRecord | None:
    """One entry's record, for a pool worker: None for an entry removed while it was read; the entry's
    parsed stages released after. The flag: whether a computed record may be kept (`records_cache.keepable`)."""
    entry, options, stages, keep = args
    try:
        return _cached_record(entry, options, stages, keep)
    except TritonscopeError:
        if not entry.path.exists():  # removed while we read it (Triton's cache is written concurrently)
            return None
        raise
    finally:
        release(entry)  # a sweep over a whole cache keeps memory flat


def _cached_record(entry: KernelEntry, options: NormalizeOptions, stages: tuple[str, ...] | None,
                   keep: bool = True) -> KernelRecord:
    """record_for_entry, through the records cache (records_cache.py) when it is on: a hit reads the record
    and reports the unparsed lines its parse left, a miss computes it and keeps it (if `keep`)."""
    cache = RecordsCache.for_entry(entry)
    keyed = cache.key(entry, options, stages) if cache is not None else None
    if keyed is None:
        return record_for_entry(entry, options, stages)
    hit = cache.load(keyed.key, entry)
    if hit is not None:
        fields, unparsed = hit
        note_unparsed(unparsed)
        return KernelRecord(**fields, origin=entry.hash)
    cache.preload(entry, keyed)  # what the key read is what the computation reads: each file opened once
    with collecting_unparsed() as unparsed:
        record = record_for_entry(entry, options, stages)
    note_unparsed(unparsed)
    if keep:
        cache.store(keyed, entry, record, unparsed)
    return record


def records_for_entries(entries: list[KernelEntry], options: NormalizeOptions,
                        stages: tuple[str, ...] | None = None,
                        progress: Callable[[int], None] | None = None) -> list[KernelRecord]:
    """Records in the order of `entries`; a process pool when there is more than one core and entry.
    An entry deleted while it is read is left out (callers compare counts and say so)."""
    keep = keepable(entries)
    records = pool_map(record_job, [(e, options, stages, k) for e, k in zip(entries, keep, strict=True)], progress,
                       weight=entry_bytes)
    trim_default()
    return [r for r in records if r is not None]
