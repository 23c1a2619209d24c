"""Compare two sides (caches, snapshots, or single entries): match kernels, diff stages, metric deltas.

Kernels match by (name, target); when one side holds several specializations of one name and target,
identical specializations pair first, then the most similar ones, in a fixed order, so the result
never depends on directory order. Whatever does not pair is reported as added or removed.
Verdicts (`--fail-on`) are in verdicts.py; this module computes a DiffResult and never prints.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tritonscope.artifacts.cache import Cache, parse_target, select
from tritonscope.diff.build import tool_build
from tritonscope.diff.normalize import NormalizeOptions
from tritonscope.diff.records import KernelRecord, records_for_entries
from tritonscope.diff.snapshot import is_snapshot, read_snapshot
from tritonscope.stages.table import DIFFED_STAGES


@dataclass(slots=True)
class Side:
    """One side of a diff: where it came from and its records."""

    path: str
    kind: str  # 'cache' | 'snapshot' | 'entry'
    records: list[KernelRecord]
    fold_renames: bool | None = None  # as recorded by a snapshot
    tool: dict | None = None  # the tritonscope build that computed the records (build.tool_build)


@dataclass(slots=True)
class StageDiff:
    stage: str
    status: str  # 'changed' | 'added' (only in B) | 'removed' (only in A)
    added: int  # lines
    removed: int
    lines: list[str] = field(default_factory=list)  # unified diff, without the ---/+++ header


@dataclass(slots=True)
class MetricDelta:
    name: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | None:
        return None if self.a is None or self.b is None else self.b - self.a

    @property
    def percent(self) -> float | None:
        d = self.delta
        return None if d is None or not self.a else d / self.a * 100

    def to_json(self) -> dict:
        p = self.percent
        return {"name": self.name, "a": self.a, "b": self.b, "delta": self.delta,
                "percent": round(p, 2) if p is not None else None}


@dataclass(slots=True)
class KernelPair:
    a: KernelRecord
    b: KernelRecord
    stage_diffs: list[StageDiff] = field(default_factory=list)
    deltas: list[MetricDelta] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.stage_diffs or self.deltas)

    def metric(self, name: str, side: str) -> float | None:
        rec = self.a if side == "a" else self.b
        return _metric_value(rec, name)

    def change_summary(self) -> str:
        parts = [f"{d.stage} {d.status}" + (f" +{d.added}/-{d.removed}" if d.status == "changed" else "")
                 for d in self.stage_diffs]
        if self.deltas:
            parts.append(f"{len(self.deltas)} metric(s)")
        return ", ".join(parts)


@dataclass(slots=True)
class DiffResult:
    a: Side
    b: Side
    pairs: list[KernelPair]
    added: list[KernelRecord]  # only in B
    removed: list[KernelRecord]  # only in A
    stages: tuple[str, ...] | None
    context: int

    @property
    def changed(self) -> list[KernelPair]:
        return [p for p in self.pairs if p.changed]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


# --- matching -------------------------------------------------------------------------------


def _sort_key(r: KernelRecord) -> tuple[str, str]:
    return (r.spec_key, r.origin)


def _similarity(a: KernelRecord, b: KernelRecord) -> int:
    keys = set(a.spec) | set(b.spec)
    return sum(1 for k in keys if a.spec.get(k) == b.spec.get(k))


def _content_key(r: KernelRecord) -> str:
    import hashlib
    import json

    blob = json.dumps([r.stages, r.metrics], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


# SSA value names (`%offs_3`, `%23`) and location aliases: one line more or less above renumbers every name
# after it, and lines that differ only by them are the same op (for matching only: the diff shows them)
_VALUE_NAME = re.compile(r"%[\w.$-]+|#loc\d*\b")


class _Overlap:
    """Lines two records share in their first common IR stage, SSA names left out: tells autotuning
    variants apart whose specialization (signature, warps, stages) is the same and whose constexprs are
    folded into the IR (`tt.make_range {end = 256}` against 512), also after an edit renumbered them."""

    def __init__(self) -> None:
        self._lines: dict[tuple[int, str], Counter] = {}

    def _counter(self, r: KernelRecord, stage: str) -> Counter:
        key = (id(r), stage)
        if key not in self._lines:
            self._lines[key] = Counter(_VALUE_NAME.sub("%", line) for line in r.stages[stage].splitlines())
        return self._lines[key]

    def __call__(self, a: KernelRecord, b: KernelRecord) -> int:
        stage = next((s for s in ("ttir", "source", "ttgir", "llir", "ptx", "amdgcn")
                      if s in a.stages and s in b.stages), None)
        if stage is None:
            return 0
        return sum((self._counter(a, stage) & self._counter(b, stage)).values())


def match_records(a: list[KernelRecord], b: list[KernelRecord], pair_singletons: bool = False
                  ) -> tuple[list[tuple[KernelRecord, KernelRecord]], list[KernelRecord], list[KernelRecord]]:
    """(pairs, only in A, only in B). With pair_singletons, one record per side pairs whatever it is."""
    if pair_singletons and len(a) == 1 and len(b) == 1:
        return [(a[0], b[0])], [], []
    ga: dict[tuple[str, str], list[KernelRecord]] = defaultdict(list)
    gb: dict[tuple[str, str], list[KernelRecord]] = defaultdict(list)
    for r in a:
        ga[(r.name, r.target)].append(r)
    for r in b:
        gb[(r.name, r.target)].append(r)
    pairs: list[tuple[KernelRecord, KernelRecord]] = []
    removed: list[KernelRecord] = []
    added: list[KernelRecord] = []
    overlap = _Overlap()
    for key in sorted(set(ga) | set(gb)):
        left = sorted(ga.get(key, []), key=_sort_key)
        right = sorted(gb.get(key, []), key=_sort_key)
        if len(left) > 1 or len(right) > 1:
            # 1. identical content (a cache against its own snapshot), in order
            right_by_content: dict[str, list[KernelRecord]] = defaultdict(list)
            for rb in right:
                right_by_content[_content_key(rb)].append(rb)
            for ra in list(left):
                same = right_by_content.get(_content_key(ra))
                if same:
                    rb = same.pop(0)
                    pairs.append((ra, rb))
                    left.remove(ra)
                    right.remove(rb)
        # 2. the rest: same specialization, then the most similar one, then the most shared IR lines;
        #    ties go to the first in sorted order
        for ra in list(left):
            if not right:
                break
            best = max(right, key=lambda rb: (rb.spec_key == ra.spec_key, _similarity(ra, rb),
                                              overlap(ra, rb) if len(right) > 1 else 0, -right.index(rb)))
            pairs.append((ra, best))
            left.remove(ra)
            right.remove(best)
        removed.extend(left)
        added.extend(right)
    return pairs, removed, added


# --- comparison -----------------------------------------------------------------------------

# Metrics that always exist when their stage does: missing means zero, not unknown.
_COUNT_PREFIXES = ("ops:", "lines:")


def _metric_value(rec: KernelRecord, name: str) -> float | None:
    v = rec.metrics.get(name)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    if name.startswith(_COUNT_PREFIXES):
        stage = name.rsplit("@", 1)[1] if "@" in name else None
        if name.startswith("lines:"):
            stage = name.split(":", 1)[1]
        present = stage in rec.stages if stage else bool({"ptx", "amdgcn"} & set(rec.stages))
        return 0 if present else None
    if name.startswith("loads:") and any(k.startswith("loads:") for k in rec.metrics):
        return 0  # the kernel's loads have verdicts, none of them this one
    return None


def compare_pair(a: KernelRecord, b: KernelRecord, stages: tuple[str, ...] | None, context: int) -> KernelPair:
    pair = KernelPair(a, b)
    for stage in _stage_order(set(a.stages) | set(b.stages)):
        if stages is not None and stage not in stages:
            continue
        ta, tb = a.stages.get(stage), b.stages.get(stage)
        if ta == tb:
            continue
        if ta is None or tb is None:
            n = (tb or ta or "").count("\n")
            pair.stage_diffs.append(StageDiff(stage, "added" if ta is None else "removed",
                                              n if ta is None else 0, n if tb is None else 0))
            continue
        lines = list(difflib.unified_diff(ta.splitlines(), tb.splitlines(), lineterm="", n=context))[2:]
        added = sum(1 for ln in lines if ln.startswith("+"))
        removed = sum(1 for ln in lines if ln.startswith("-"))
        pair.stage_diffs.append(StageDiff(stage, "changed", added, removed, lines))
    for name in sorted(set(a.metrics) | set(b.metrics)):
        va, vb = _metric_value(a, name), _metric_value(b, name)
        if va != vb:
            pair.deltas.append(MetricDelta(name, va, vb))
    return pair


def _stage_order(stages: set[str]) -> list[str]:
    return [s for s in DIFFED_STAGES if s in stages] + sorted(stages - set(DIFFED_STAGES))


def diff_sides(a: Side, b: Side, stages: tuple[str, ...] | None = None, context: int = 3,
               pair_singletons: bool = False) -> DiffResult:
    pairs, removed, added = match_records(a.records, b.records, pair_singletons)
    compared = [compare_pair(ra, rb, stages, context) for ra, rb in pairs]
    return DiffResult(a=a, b=b, pairs=compared, added=added, removed=removed, stages=stages, context=context)


# --- loading a side -------------------------------------------------------------------------


def load_side(path: str, options: NormalizeOptions, kernel: str | None = None, target: str | None = None,
              progress_factory: Callable | None = None, max_stage_bytes: int | None = -1) -> Side:
    """A cache (or folder of caches), a snapshot directory, one entry directory, or one artifact file."""
    p = Path(path)
    if p.is_dir() and is_snapshot(p):
        records, opts = read_snapshot(p)
        records = [r for r in records if _selected(r, kernel, target)]
        return Side(path=path, kind="snapshot", records=records, fold_renames=opts.get("fold_renames"),
                    tool=opts.get("tool"))
    cache = Cache(p)
    entries = select(cache.kernels(), kernel, target) if (kernel or target) else cache.kernels()
    if max_stage_bytes != -1:
        for e in entries:
            e.max_stage_bytes = max_stage_bytes
    single = p.is_file() or (len(cache.entry_dirs()) == 1 and cache.entry_dirs()[0][0] == p)
    if progress_factory is not None and len(entries) > 1:
        with progress_factory(len(entries), f"reading {path}") as advance:
            records = records_for_entries(entries, options, progress=advance)
    else:
        records = records_for_entries(entries, options)
    return Side(path=path, kind="entry" if single else "cache", records=records,
                fold_renames=options.fold_renames, tool=tool_build())


def _selected(r: KernelRecord, kernel: str | None, target: str | None) -> bool:
    import fnmatch

    if kernel and not (fnmatch.fnmatchcase(r.name, kernel) or r.name == kernel):
        return False
    if target:
        t = parse_target(r.target)
        if t is None or not t.matches(target):
            return False
    return True
