"""CI verdicts: `--fail-on` rules and the Verdict they come to (the CLI's Outcome turns its failed rules into
the exit status).

Rule grammar (one rule per `--fail-on`, or several separated by commas):

    any                      any kernel added, removed or changed
    METRIC CMP +N | -N       the change B - A compared with N          regs>+4, ops:global_load>+0
    METRIC CMP +N% | -N%     the change relative to A, in percent      regs>+5%
    METRIC CMP N             B's value itself                          spills>0
    METRIC CMP               the change compared with 0                vector-width<   (narrowed)

CMP is one of > >= < <= == !=. METRIC is a name of `metrics.py` (`regs`, `spills`, `smem`, ...,
`ops:<class>`, `ops:<class>@<stage>`, `lines:<stage>`). `vector-width` with a change compares each load
site (file:line) present on both sides, so one narrowed load fails even if another widened; a load only B
has, where none went away, is compared with A's narrowest (a new scalar load narrows the kernel).
Exit codes: 0 nothing failed, 1 a rule failed, 2 a rule that does not parse (UsageError).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tritonscope.errors import ExitStatus, UsageError

if TYPE_CHECKING:
    from tritonscope.diff.core import DiffResult, KernelPair
    from tritonscope.diff.records import KernelRecord

# (a metric's name may hold `=`: MLIR's hints, `ops:hint:eviction_policy=evict_last@ttgir`)
RULE = re.compile(r"^\s*(?P<metric>[A-Za-z][\w.:@=-]*?)\s*(?P<cmp>>=|<=|==|!=|>|<)\s*"
                  r"(?P<value>(?P<sign>[+-])?(?P<number>\d+(?:\.\d+)?)(?P<percent>%)?)?\s*$")
COMPARATORS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "==": operator.eq,
               "!=": operator.ne}
KNOWN_METRICS = ("regs", "spills", "smem", "tmem", "static_smem", "stack", "local", "scratch", "occupancy", "vgprs",
                 "sgprs", "agprs", "lds", "num_warps", "num_stages", "code_bytes", "vector-width")
KNOWN_PREFIXES = ("ops:", "lines:", "loads:")


def _known_prefixed(metric: str) -> bool:
    """Whether `ops:<class>[@stage]`, `lines:<stage>` or `loads:<verdict>` names what metrics.py counts (a
    misspelt class would never fail: a CI gate that silently passes)."""
    from tritonscope.diff.metrics import LLIR_TEXT_CLASSES, STAGE_CLASSES
    from tritonscope.diff.normalize import NORMALIZED_STAGES
    from tritonscope.loads.model import VERDICTS
    from tritonscope.stages.memops import KINDS

    prefix, _, rest = metric.partition(":")
    if prefix == "lines":
        return rest in NORMALIZED_STAGES
    if prefix == "loads":
        return rest in VERDICTS
    cls, at, stage = rest.partition("@")
    if at and stage not in STAGE_CLASSES:
        return False
    if cls.startswith("hint:"):
        return _HINT.fullmatch(cls[5:]) is not None  # (a cache hint, as the stage spells it)
    m = re.fullmatch(r"(\w+?)(?:\.(\d{1,4})B)?", cls)  # `global_load.16B`: a memory kind at one width
    if m is None:
        return False
    base, width = m.groups()
    if width is not None and (int(width) < 1 or int(width) & (int(width) - 1)):
        return False  # an access moves a power of two of bytes: `.3B` never counts anything
    classes = {c for table in STAGE_CLASSES.values() for c, _ in table} | {c for c, _ in LLIR_TEXT_CLASSES}
    return base in KINDS if width else base in classes or base in KINDS


# The cache hints memops records, as each stage spells them: PTX's `L1::evict_first`, `L2::cache_hint`,
# `nc`, `cs`, memory orders and scopes, atomic operations; MLIR's `evictionPolicy=evict_last`; LLVM's
# `nontemporal`; AMDGCN's cache bits; SASS's modifiers. `hint:evict_first` (no level) counts nothing.
_HINT = re.compile(
    r"L[12]::\w+(?:::\w+)?|\w+=\w+|(?:th|scope):\w+"
    r"|ca|cg|cs|lu|cv|wb|wt|nc|relaxed|acquire|release|acq_rel|weak|volatile|mmio|cta|gpu|sys|cluster"
    r"|add|inc|dec|min|max|and|or|xor|cas|exch|noftz|nontemporal|glc|slc|dlc|nt|sc0|sc1|lds"
    r"|EF|EL|LU|EN|NA|CONSTANT|STRONG|GPU|SYS|SM|BYPASS|LTC64B|LTC128B|LTC256B|ZFILL|PRIVATE|MMIO|NOALLOC")


@dataclass(frozen=True, slots=True)
class Rule:
    text: str
    metric: str  # '' for `any`
    cmp: str = ""
    mode: str = "any"  # 'any' | 'delta' | 'percent' | 'value'
    threshold: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Rule:
        t = text.strip()
        if t == "any":
            return cls(text=t, metric="")
        m = RULE.match(t)
        if m is None:
            raise UsageError(f"bad --fail-on rule {text!r}: expected `any` or METRIC CMP [+-]N[%] "
                             f"(e.g. regs>+5%, spills>0, vector-width<)")
        metric = m.group("metric")
        prefixed = metric.startswith(KNOWN_PREFIXES) and _known_prefixed(metric)
        if metric not in KNOWN_METRICS and not prefixed:
            raise UsageError(f"bad --fail-on rule {text!r}: unknown metric {metric!r} (known: "
                             f"{', '.join(KNOWN_METRICS)}, ops:<class>[@stage], lines:<stage>, loads:<verdict>)")
        if m.group("value") is None:
            mode, threshold = "delta", 0.0
        else:
            number = float(m.group("number"))
            if m.group("sign") == "-":
                number = -number
            if m.group("percent"):
                if m.group("sign") is None:
                    raise UsageError(f"bad --fail-on rule {text!r}: a percentage is a change, write +N% or -N%")
                mode = "percent"
            else:
                mode = "delta" if m.group("sign") else "value"
            threshold = number
        return cls(text=t, metric=metric, cmp=m.group("cmp"), mode=mode, threshold=threshold)

    def trips(self, a: float | None, b: float | None) -> bool:
        compare = COMPARATORS[self.cmp]
        if self.mode == "value":
            return b is not None and compare(b, self.threshold)
        if a is None or b is None:
            return False  # unknown on a side: no verdict
        delta = b - a
        if self.mode == "delta":
            return compare(delta, self.threshold)
        percent = delta / a * 100 if a else (math.inf if delta > 0 else -math.inf if delta < 0 else 0.0)
        return compare(percent, self.threshold)


def parse_rules(texts: Iterable[str]) -> list[Rule]:
    rules = []
    for text in texts:
        parts = [p for p in text.split(",") if p.strip()]
        if not parts:  # (`--fail-on ''` from an unset CI variable: a gate that would never fail)
            raise UsageError(f"bad --fail-on {text!r}: no rule in it")
        rules.extend(Rule.parse(p) for p in parts)
    return rules


@dataclass(frozen=True, slots=True)
class RuleFailure:
    rule: str
    kernel: str
    target: str
    metric: str
    a: float | None
    b: float | None
    detail: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "kernel": self.kernel, "target": self.target, "metric": self.metric,
                "a": self.a, "b": self.b, "detail": self.detail}


@dataclass(slots=True)
class Verdict:
    """What a diff's rules came to: the failures (the exit status follows from them, in the CLI's Outcome)."""

    rules: list[Rule]
    failures: list[RuleFailure] = field(default_factory=list)
    # rule -> the kernels (name, target) it could not judge, their metric unknown (a cross-compiled CUDA
    # kernel's `spills`: no metadata says it); and how many it judged or could not
    unknown: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    judged: dict[str, int] = field(default_factory=dict)
    inapplicable: set[str] = field(default_factory=set)  # rules whose metric no kernel compared has at all

    def unknown_notes(self) -> list[str]:
        """One line per rule that some kernels' unknown metric left unjudged (a gate passing on nothing)."""
        out = []
        for rule, kernels in self.unknown.items():
            shown = ", ".join(f"{n} {t}" for n, t in kernels[:3]) + (
                f" and {len(kernels) - 3} more" if len(kernels) > 3 else "")
            metric = next((r.metric for r in self.rules if r.text == rule), "")
            if rule in self.inapplicable:
                out.append(f"rule {rule}: no kernel compared has {metric} (their targets: "
                           f"{', '.join(sorted({t for _, t in kernels}))}), judged none")
                continue
            hint = (": a CUDA kernel's spills are in no metadata (Triton's cache keeps none of ptxas's counts; "
                    "`stack>+0` watches its stack frame, spills included)") if metric == "spills" and all(
                t.startswith("cuda") for _, t in kernels) else ""
            out.append(f"rule {rule}: {metric} unknown for {len(kernels)} of {self.judged.get(rule, 0)} kernel(s) "
                       f"({shown}), not judged{hint}")
        return out

    @property
    def exit_code(self) -> ExitStatus:
        return ExitStatus.FAILED if self.failures else ExitStatus.OK

    @property
    def failed_rules(self) -> list[str]:
        seen: dict[str, None] = {}
        for f in self.failures:
            seen.setdefault(f.rule, None)
        return list(seen)

    def evaluate(self, result: DiffResult) -> Verdict:
        for rule in self.rules:
            self.failures.extend(_evaluate(rule, result))
            if rule.mode == "any":
                continue
            # every kernel the rule reads: the matched pairs, and for a rule on B's value the added kernels
            read = [(p.b, p.metric(rule.metric, "b"), p.metric(rule.metric, "a")) for p in result.pairs]
            if rule.mode == "value":
                read += [(r, _record_metric(r, rule.metric), 0) for r in result.added]
            if rule.metric == "vector-width" and rule.mode != "value":  # (per load site, on both sides)
                read = [(p.b, 1 if p.a.load_sites and p.b.load_sites else None, 1) for p in result.pairs]
            readable = [(r, b, a) for r, b, a in read if applies(rule.metric, r.target)]
            if read and not readable:  # (a metric of the other backend's kernels: a gate judging none)
                self.unknown[rule.text] = [(r.name, r.target) for r, _, _ in read]
                self.inapplicable.add(rule.text)
                continue
            unknown = [r for r, b, a in readable if b is None or (rule.mode != "value" and a is None)]
            self.judged[rule.text] = len(readable)
            if unknown:
                self.unknown[rule.text] = [(r.name, r.target) for r in unknown]
        return self


def _evaluate(rule: Rule, result: DiffResult) -> list[RuleFailure]:
    out: list[RuleFailure] = []
    if rule.mode == "any":
        for r in result.added:
            out.append(RuleFailure(rule.text, r.name, r.target, "", None, None, "added"))
        for r in result.removed:
            out.append(RuleFailure(rule.text, r.name, r.target, "", None, None, "removed"))
        for p in result.changed:
            out.append(RuleFailure(rule.text, p.b.name, p.b.target, "", None, None, "changed: " + p.change_summary()))
        return out
    for p in result.pairs:
        if rule.metric == "vector-width" and rule.mode != "value":
            out.extend(_vector_width_sites(rule, p))
            continue
        a, b = p.metric(rule.metric, "a"), p.metric(rule.metric, "b")
        if rule.trips(a, b):
            out.append(RuleFailure(rule.text, p.b.name, p.b.target, rule.metric, a, b, f"{_fmt(a)} -> {_fmt(b)}"))
    if rule.mode == "value":
        for r in result.added:
            b = _record_metric(r, rule.metric)
            if rule.trips(None, b):
                out.append(RuleFailure(rule.text, r.name, r.target, rule.metric, None, b, f"added with {_fmt(b)}"))
    return out


def _vector_width_sites(rule: Rule, pair: KernelPair) -> list[RuleFailure]:
    """Each load site against its counterpart: the same `file:line`; where the sites differ but are as many
    (an edit above them moved their lines, the file was renamed, Inductor named it by another hash), all
    in order; else the same `file:line`, and the narrowest of those left over on each side."""
    out = []
    sa, sb = pair.a.load_sites, pair.b.load_sites

    def fail(where: str, a: int, b: int) -> None:
        if rule.trips(a, b):
            out.append(RuleFailure(rule.text, pair.b.name, pair.b.target, "vector-width", a, b,
                                   f"load at {where}: {a}B -> {b}B"))

    if set(sa) != set(sb) and len(sa) == len(sb):  # the same loads, moved: paired in order
        for x, y in zip(sorted(sa, key=_site_order), sorted(sb, key=_site_order), strict=True):
            fail(x if x == y else f"{x} (now {y})", sa[x], sb[y])
        return out
    for site in sorted(set(sa) & set(sb), key=_site_order):
        fail(site, sa[site], sb[site])
    left_a = sorted(set(sa) - set(sb), key=_site_order)
    left_b = sorted(set(sb) - set(sa), key=_site_order)
    if left_a and left_b:  # loads added and removed: the narrowest left over on each side
        x, y = min(left_a, key=lambda s: sa[s]), min(left_b, key=lambda s: sb[s])
        fail(f"{x} (the narrowest of {len(left_a)} sites without a counterpart; now {y}, of {len(left_b)})",
             sa[x], sb[y])
    elif left_b and sa:  # loads added, none removed: a new one narrower than any A had narrows the kernel
        x, y = min(sa, key=lambda s: sa[s]), min(left_b, key=lambda s: sb[s])
        fail(f"{y} (a new load; A's narrowest was {x})", sa[x], sb[y])
    return out


def _site_order(site: str) -> tuple:
    """`file:line#n` in file, line, n order (a line as a number: 9 before 10)."""
    where, _, nth = site.partition("#")
    file, _, line = where.rpartition(":")
    return (file, int(line) if line.isdigit() else 0, int(nth) if nth.isdigit() else 1, site)


def _record_metric(r: KernelRecord, name: str) -> float | None:
    """A record's metric as a pair reads it (a count of a stage it has is 0 where absent)."""
    from tritonscope.diff.core import metric_value

    return metric_value(r, name)


# Metrics of one backend's kernels only: no other kernel has them to be unknown (an AMD kernel's VGPRs on a
# CUDA kernel, a CUDA kernel's stack frame on an AMD one): a rule on them does not judge the others
_AMD_ONLY = frozenset({"vgprs", "sgprs", "agprs", "lds", "scratch", "occupancy"})
_CUDA_ONLY = frozenset({"stack", "local", "static_smem"})
_STAGE_BACKEND = {"ptx": "cuda", "sass": "cuda", "amdgcn": "hip"}


def applies(metric: str, target: str) -> bool:
    """Whether kernels of `target` (`cuda:90`, `hip:gfx942`, `?`) have `metric` at all."""
    backend = target.split(":", 1)[0]
    if backend not in ("cuda", "hip"):
        return True
    stage = metric.rsplit("@", 1)[1] if "@" in metric else metric.split(":", 1)[1] if metric.startswith("lines:") \
        else None
    if stage in _STAGE_BACKEND:
        return _STAGE_BACKEND[stage] == backend
    return not ((metric in _AMD_ONLY and backend == "cuda") or (metric in _CUDA_ONLY and backend == "hip"))


def _fmt(v: float | None) -> str:
    if v is None:
        return "?"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"
