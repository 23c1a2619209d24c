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
from tritonscope.diff.normalize import RENAMED_NAMES, NormalizeOptions, fold_pointer_address_space
from tritonscope.diff.records import KernelRecord, records_for_entries
from tritonscope.diff.snapshot import MARKER, is_snapshot, looks_like_snapshot, read_snapshot
from tritonscope.errors import TritonscopeError
from tritonscope.stages.table import DIFFED_STAGES


@dataclass(slots=True)
class Side:
    """One side of a diff: where it came from and its records."""

    path: str
    kind: str  # 'cache' | 'snapshot' | 'entry'
    records: list[KernelRecord]
    fold_renames: bool | None = None  # as recorded by a snapshot
    tool: dict | None = None  # the tritonscope build that computed the records (build.tool_build)
    damage: list[str] = field(default_factory=list)  # what of a cache's entries was not read (KernelEntry.damage)


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
        return metric_value(rec, name)

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
    def uncompared(self) -> list[KernelPair]:
        """Pairs that hold none of the stages chosen (`--stage ptx` over an AMD kernel) on either side: nothing
        of them was compared, which is not the same as unchanged (a rule naming a metric still judges them)."""
        if self.stages is None:
            return []
        chosen = set(self.stages)
        return [p for p in self.pairs if not p.changed and not chosen & (set(p.a.stages) | set(p.b.stages))]

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
    """(pairs, only in A, only in B). With pair_singletons, one record per side pairs whatever it is.

    Records pair within one kernel name and target, and only where their arguments have the same types
    (two libraries' `_attn_fwd`, f16 against i8 pointers, are two kernels). Within a group: identical
    content first (a cache against its own snapshot), then over all pairs at once, best first: the same
    specialization, the most similar one, the most shared IR lines (ties to the first in sorted order),
    so that one variant cannot take another's exact match because it came first."""
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
        scored = []
        types_b = [_argument_types(rb) for rb in right]  # (once per record, not per pair)
        for ia, ra in enumerate(left):
            types_a = _argument_types(ra)
            for ib, rb in enumerate(right):
                if types_a is not None and types_b[ib] is not None and types_a != types_b[ib]:
                    continue
                score = (rb.spec_key == ra.spec_key, _similarity(ra, rb))
                scored.append((score, ia, ib))
        if len(left) > 1 or len(right) > 1:  # (shared lines break ties among candidates)
            scored = [((*score, overlap(left[ia], right[ib])), ia, ib) for score, ia, ib in scored]
        scored.sort(key=lambda t: (tuple(-x for x in t[0]), t[1], t[2]))
        taken_a: set[int] = set()
        taken_b: set[int] = set()
        for _, ia, ib in scored:
            if ia not in taken_a and ib not in taken_b:
                taken_a.add(ia)
                taken_b.add(ib)
                pairs.append((left[ia], right[ib]))
        removed.extend(r for i, r in enumerate(left) if i not in taken_a)
        added.extend(r for i, r in enumerate(right) if i not in taken_b)
    return pairs, removed, added


_ARG_NAME_AND_ATTRIBUTES = re.compile(r"^%[\w.$-]+:\s*|\s*\{.*")  # (named, unfolded: `%x_ptr: ...`)


def _argument_types(r: KernelRecord) -> list[str] | None:
    """The types of a record's kernel arguments, their names and attributes (`tt.divisibility`, 3.9's
    `tt.pointer_range`) left out: two records whose types differ are two kernels; None where its signature
    is unknown (it may pair with any)."""
    sig = r.spec.get("ir_signature")
    args = sig.get("args") if isinstance(sig, dict) else None
    # (2.x's `!tt.ptr<f32, 1>` is 3.x's `!tt.ptr<f32>`: one kernel's arguments, whatever the release wrote)
    return [fold_pointer_address_space(_ARG_NAME_AND_ATTRIBUTES.sub("", str(x))) for x in args] \
        if isinstance(args, list) else None


# --- comparison -----------------------------------------------------------------------------

# Metrics that always exist when their stage does: missing means zero, not unknown.
_COUNT_PREFIXES = ("ops:", "lines:")


def _stage_of(stage: str | None, a: KernelRecord, b: KernelRecord) -> str | None:
    """`metric_stage`'s `isa` as the pair's ISA stage (ptx or amdgcn)."""
    if stage != "isa":
        return stage
    return next((s for s in ("ptx", "amdgcn") if s in a.stages or s in b.stages), None)


def metric_stage(name: str) -> str | None:
    """The stage a metric is counted in (`lines:llir`, `ops:global_load@ttgir`; `ops:` alone counts the ISA
    text), else None: the kernel's resources, from its metadata and binary."""
    if name.startswith("lines:"):
        return name.split(":", 1)[1]
    if "@" in name:
        return name.rsplit("@", 1)[1]
    if name.startswith("ops:"):
        return "isa"
    return None


def metric_value(rec: KernelRecord, name: str) -> float | None:
    """A record's metric: None where unknown; a count of a stage the record has is 0 where absent (no op of
    that class), as is a loads verdict of a kernel whose loads have verdicts."""
    v = rec.metrics.get(name)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    if name.startswith(_COUNT_PREFIXES):
        stage = metric_stage(name)
        present = bool({"ptx", "amdgcn"} & set(rec.stages)) if stage == "isa" else stage in rec.stages
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
        lines = stage_line_diff(stage, ta.splitlines(), tb.splitlines(), context)
        if not lines:  # the same code, its names renumbered (an op more or less above)
            continue
        added = sum(1 for ln in lines if ln.startswith("+"))
        removed = sum(1 for ln in lines if ln.startswith("-"))
        pair.stage_diffs.append(StageDiff(stage, "changed", added, removed, lines))
    for name in sorted(set(a.metrics) | set(b.metrics)):
        if stages is not None and _stage_of(metric_stage(name), a, b) not in stages:
            continue  # (only these stages are compared: `--fail-on any` and the tables follow)
        va, vb = metric_value(a, name), metric_value(b, name)
        if va != vb:
            pair.deltas.append(MetricDelta(name, va, vb))
    return pair


def stage_line_diff(stage: str, a: list[str], b: list[str], context: int) -> list[str]:
    """The unified diff's lines (after its `---`/`+++` header) of a stage's normalized texts; [] where they
    are the same code.

    Normalized names (SSA values, blocks, registers, labels, metadata) are numbered in order of first
    appearance, so one op more or less renumbers every name after it, and a plain line diff shows them all.
    Lines are aligned with their names' numbers left out; an aligned pair is the same line only where its
    names follow one renaming, a one-to-one map learned where each name is defined on both sides
    (`_renamed_alike`) and checked at every use (`subf %v1, %v2` against `subf %v2, %v1` stays a change).
    Kept lines show B's text."""
    if stage not in RENAMED_NAMES:
        opcodes = difflib.SequenceMatcher(None, a, b).get_opcodes()
    else:
        names, starts, defines = RENAMED_NAMES[stage]
        split_a, split_b = [names.split(x) for x in a], [names.split(x) for x in b]
        keys_a, keys_b = _unnumbered(split_a), _unnumbered(split_b)
        keyed = difflib.SequenceMatcher(None, keys_a, keys_b).get_opcodes()
        opcodes = _renamed_alike(starts, defines, split_a, split_b, keys_a, keys_b, keyed)
    if all(tag == "equal" for tag, *_ in opcodes):
        return []
    out: list[str] = []
    for group in _grouped(opcodes, context):
        (_, i1, _, j1, _), (_, _, i2, _, j2) = group[0], group[-1]
        out.append(f"@@ -{_unified_range(i1, i2)} +{_unified_range(j1, j2)} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in b[j1:j2]]
                continue
            out += ["-" + line for line in a[i1:i2]]
            out += ["+" + line for line in b[j1:j2]]
    return out


_NO_DIGITS = str.maketrans("", "", "0123456789")


def _unnumbered(split: list[list]) -> list[str]:
    """Each line (`names.split`: text, local name, global name, text, ...) with its names' numbers left out."""
    keys = []
    for parts in split:
        if len(parts) == 1:
            keys.append(parts[0])
            continue
        kept = parts[::3]
        for k in range(1, len(parts), 3):
            kept[k // 3] += (parts[k] if parts[k] is not None else parts[k + 1]).translate(_NO_DIGITS)
        keys.append("".join(kept))
    return keys


def _renamed_alike(starts: re.Pattern, defines: bool, split_a: list[list], split_b: list[list],
                   keys_a: list[str], keys_b: list[str], keyed: list) -> list:
    """`keyed` (opcodes of the lines aligned by `keys`, their names' numbers left out) with each aligned
    pair that is not the same line up to the renaming made a `replace`: the text between names must be
    equal, and the names (`l`ocal to a function, `g`lobal: the groups of RENAMED_NAMES' pattern that split
    the lines) must follow the renaming.

    A name is mapped where it first appears on both sides at once (where it is defined, or a phi's or a
    branch's forward reference) or is defined anew on both (`defines`), on lines aligned as equal,
    replaced one for one, or removed and added alike elsewhere (an op that moved); never at a later use,
    so that a value removed and another added are not taken for one."""
    seg_a, intro_a = _introductions(starts, defines, split_a)
    seg_b, intro_b = _introductions(starts, defines, split_b)
    fwd: dict[tuple, tuple] = {}  # (function or -1, name) of A -> of B
    back: dict[tuple, tuple] = {}

    def judge(i: int, j: int) -> bool:
        pa, pb = split_a[i], split_b[j]  # [text, local, global, text, ...]
        if len(pa) != len(pb):
            return False
        same = pa[::3] == pb[::3]
        here_a: set = set()  # the names this line maps (once mapped on a line, a name keeps that mapping there)
        here_b: set = set()
        for k in range(1, len(pa), 3):
            if (pa[k] is None) != (pb[k] is None):
                same = False
                continue
            x = (seg_a[i], pa[k]) if pa[k] is not None else (-1, pa[k + 1])
            y = (seg_b[j], pb[k]) if pb[k] is not None else (-1, pb[k + 1])
            seen = fwd.get(x)
            first = x not in here_a and y not in here_b
            here_a.add(x)
            here_b.add(y)
            if seen == y:
                continue
            if first and x in intro_a[i] and y in intro_b[j]:  # defined here on both sides: from now, one name
                if seen is not None:
                    del back[seen]
                if y in back:
                    del fwd[back[y]]
                fwd[x], back[y] = y, x
            else:
                same = False
        return same

    removed: dict[str, list[int]] = defaultdict(list)
    added: list[int] = []
    for tag, i1, i2, j1, j2 in keyed:
        if tag == "replace" and i2 - i1 == j2 - j1:  # an op for an op: what each defines is the other's
            for i in range(i1, i2):
                judge(i, j1 + i - i1)
        elif tag != "equal":
            for i in range(i1, i2):
                removed[keys_a[i]].append(i)
            added += range(j1, j2)
    for j in added:  # an op removed here and added there
        moved = removed.get(keys_b[j])
        if moved:
            judge(moved.pop(0), j)

    out: list[tuple[str, int, int, int, int]] = []

    def add(tag: str, i1: int, i2: int, j1: int, j2: int) -> None:
        if out and out[-1][0] == tag:
            _, p1, _, q1, _ = out.pop()
            i1, j1 = p1, q1
        out.append((tag, i1, i2, j1, j2))

    for tag, i1, i2, j1, j2 in keyed:
        if tag != "equal":
            add(tag, i1, i2, j1, j2)
            continue
        for i in range(i1, i2):
            j = j1 + i - i1
            add("equal" if judge(i, j) else "replace", i, i + 1, j, j + 1)
    return out


def _introductions(starts: re.Pattern, defines: bool, split: list[list]) -> tuple[list[int], list]:
    """Each line's function (a count of function starts) and the names that first appear on it, or, where
    `defines`, that it defines (MLIR: an op's results, left of its `=`; a block's arguments), as (function,
    name) for a local name and (-1, name) for a global one."""
    segments: list[int] = []
    intro: list = []
    seen: set = set()
    seg = 0
    empty: frozenset = frozenset()
    for parts in split:
        if starts.match(parts[0]):
            seg += 1
        segments.append(seg)
        new = None
        # (a line that starts with a name: `%v5 = ...`, `%v4:2 = ...`, `^bb0(%v1: f32, ...)`)
        block = defines and len(parts) > 3 and not parts[0].strip() and (parts[1] or "").startswith("^")
        anew = defines and len(parts) > 1 and not parts[0].strip()
        for k in range(1, len(parts), 3):
            if anew and k > 1 and not block and "=" in parts[k - 1]:
                anew = False  # (past the results: the operands)
            key = (seg, parts[k]) if parts[k] is not None else (-1, parts[k + 1])
            if key not in seen or anew:
                seen.add(key)
                if new is None:
                    new = set()
                new.add(key)
        intro.append(new or empty)
    return segments, intro


def _grouped(opcodes: list, n: int) -> list[list]:
    """Changes with up to `n` lines of context each side, as difflib.SequenceMatcher.get_grouped_opcodes."""
    codes = list(opcodes)
    if codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2
    if codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)
    groups, group = [], []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * n:
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            groups.append(group)
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        groups.append(group)
    return groups


def _unified_range(start: int, stop: int) -> str:
    """A hunk's range as unified diffs write it (difflib's own spelling)."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return str(beginning)
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


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
                    tool=opts.get("tool"), damage=[d for r in records for d in r.damage_notes()])
    if p.is_dir() and looks_like_snapshot(p):
        raise TritonscopeError(f"a snapshot's <kernel>/<target> folders without its {MARKER}, the file a snapshot "
                               "is read by: write the snapshot again", str(p / MARKER))
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
                fold_renames=options.fold_renames, tool=tool_build(),
                damage=[f"{e.path}: permission denied: an entry directory this user cannot list, left out (a kernel "
                        "there reads as removed or added)" for e in cache.unreadable()]
                + [d for e in entries for d in e.damage(empty_stages=True)]
                + [d for r in records for d in r.damage_notes()])


def _selected(r: KernelRecord, kernel: str | None, target: str | None) -> bool:
    import fnmatch

    if kernel and not (fnmatch.fnmatchcase(r.name, kernel) or r.name == kernel):
        return False
    if target:
        t = parse_target(r.target)
        if t is None or not t.matches(target):
            return False
    return True
