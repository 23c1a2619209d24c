"""`loads`: every memory access of a kernel, what its layout allows, and what each stage made of it.

One row per TTGIR access (clones made by the pipeliner fold into one row, counted in `instances`):
the layout's prediction (elements per thread, contiguous run, vector bytes capped at 16), the alignment
facts the compiler had, and the LLIR / PTX / SASS / AMDGCN instructions joined to it by source position
(outermost line and column, then line; kinds must agree, widths break ties). Counts are static
instruction counts: per thread for straight-line code, per iteration plus prologue inside loops.
A verdict compares the widest final-ISA access with the prediction; reasons carry their evidence.
"""

from __future__ import annotations

import collections
import os
import re
from dataclasses import dataclass, field

from tritonscope import memops
from tritonscope.errors import TritonscopeError
from tritonscope.layouts.attrs import parse_layout_aliases
from tritonscope.loadsites import AccessSite, ValueGraph, access_sites
from tritonscope.stages.common import Module, SourceLoc

# Which instruction kinds of lower stages can implement an access of a TTGIR kind (first: the usual one).
ACCEPTS: dict[str, tuple[str, ...]] = {
    "global_load": ("global_load", "buffer_load"),
    "global_store": ("global_store", "buffer_store"),
    "buffer_load": ("buffer_load", "global_load"),
    "buffer_store": ("buffer_store", "global_store"),
    "atomic": ("atomic",),
    "async_copy": ("async_copy", "global_load", "buffer_load"),
    "tma_load": ("tma", "global_load", "buffer_load"),
    "tma_store": ("tma", "global_store", "buffer_store"),
    "shared_load": ("shared_load",),
    "shared_store": ("shared_store",),
}
# Stages without source columns: joined by line only.
LINE_ONLY_STAGES = ("sass", "hsaco-asm")
VERDICTS = ("as-predicted", "narrower", "scalar", "unknown")
INLINE_ASM_BEGIN = re.compile(r"^\s*// begin inline asm")
INLINE_ASM_END = re.compile(r"^\s*// end inline asm")
PTX_LOC = re.compile(r"^\s*\.loc\s")
LLIR_CONDITIONAL_BRANCH = re.compile(r"^\s*br\s+i1\s")
LLIR_TERMINATORS = ("br", "switch", "ret", "unreachable", "indirectbr", "callbr")


@dataclass
class Reason:
    code: str
    evidence: str

    def to_json(self) -> dict:
        return {"code": self.code, "evidence": self.evidence}


@dataclass
class AccessRow:
    file: str
    line: int
    col: int
    chain: str  # `kernels.py:173:9` or `helper.py:5:12 @ kernels.py:40:9`
    op: str  # TTGIR op name
    kind: str  # access kind: global_load, global_store, async_copy, shared_load, tma_load, ...
    instances: int
    shape: tuple[int, ...]
    dtype: str
    element_bits: int
    layout: str | None
    layout_text: str | None
    mask: bool
    other: bool
    eviction: str | None
    cache: str | None
    elements_per_thread: int | None = None
    contiguous_per_thread: int | None = None
    fastest_dim: int | None = None
    predicted_vector_bytes: int | None = None
    predicted_vectors_per_thread: int | None = None
    threads: int | None = None
    prediction_note: str | None = None
    alignment: list[dict] = field(default_factory=list)
    stages: dict[str, dict[str, int]] = field(default_factory=dict)  # stage -> form -> count
    widths: dict[str, dict[str, int | None]] = field(default_factory=dict)  # stage -> form -> bytes
    ambiguous: dict[str, dict[str, int]] = field(default_factory=dict)  # shared with other rows of the line
    ambiguous_with: list[str] = field(default_factory=list)
    other_forms: dict[str, dict[str, int]] = field(default_factory=dict)  # other_mem forms on the line
    llir_guarded: int = 0  # LLIR accesses inside a block entered by a conditional branch
    vector_bytes: int | None = None
    vector_stage: str | None = None
    verdict: str = "unknown"
    reasons: list[Reason] = field(default_factory=list)
    attribution: str = "exact"  # exact | line | ambiguous | none
    line_matched: bool = False  # some instruction joined by line only, in a stage that has columns
    sites: list[AccessSite] = field(default_factory=list, repr=False)

    @property
    def element_bytes(self) -> int:
        return max(1, self.element_bits // 8)

    def counts(self, stage: str) -> dict[str, int]:
        return self.stages.get(stage, {})

    def to_json(self, isa_stage: str | None) -> dict:
        return {
            "line": self.line, "col": self.col, "file": self.file, "chain": self.chain, "op": self.op,
            "kind": self.kind, "instances": self.instances, "shape": list(self.shape), "dtype": self.dtype,
            "layout": self.layout, "layout_text": self.layout_text, "mask": self.mask, "other": self.other,
            "eviction_policy": self.eviction, "cache_modifier": self.cache,
            "threads": self.threads, "elements_per_thread": self.elements_per_thread,
            "contiguous_per_thread": self.contiguous_per_thread, "fastest_dim": self.fastest_dim,
            "predicted_vector_bytes": self.predicted_vector_bytes,
            "predicted_vectors_per_thread": self.predicted_vectors_per_thread,
            "prediction_note": self.prediction_note,
            "alignment": self.alignment,
            "llir": self.counts("llir"),
            "isa": self.counts(isa_stage) if isa_stage else {},
            "sass": self.stages.get("sass"),
            "stages": self.stages,
            "widths": self.widths,
            "ambiguous": self.ambiguous, "ambiguous_with": self.ambiguous_with,
            "other_forms": self.other_forms,
            "llir_branch_guarded": self.llir_guarded,
            "vector_bytes": self.vector_bytes, "vector_stage": self.vector_stage,
            "verdict": self.verdict, "reasons": [r.code for r in self.reasons],
            "evidence": {r.code: r.evidence for r in self.reasons},
            "attribution": self.attribution,
        }


@dataclass
class LoadsReport:
    kernel: str
    hash: str
    target: str | None
    isa_stage: str | None  # the assembly Triton wrote: 'ptx' or 'amdgcn'
    stages: list[str]  # stages joined, in order
    rows: list[AccessRow]
    unattributed: list[dict]  # memory instructions no access row claims (layout conversions, spills...)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "hash": self.hash, "target": self.target, "isa_stage": self.isa_stage,
                "stages": self.stages, "notes": self.notes,
                "rows": [r.to_json(self.isa_stage) for r in self.rows], "unattributed": self.unattributed}


# --------------------------------------------------------------------------- entry points

def analyze_entry(entry, *, line: int | None = None, sass: bool = True) -> LoadsReport:
    """Read the stages of a cache entry (read-only; SASS through nvdisasm when available) and analyze."""
    from tritonscope.stages import parse, stage_text
    from tritonscope.stages.common import read_text

    if "ttgir" not in entry.files:
        raise TritonscopeError("no TTGIR in this entry: loads needs it to find the accesses", str(entry.path))
    ttgir_text = read_text(entry.stage_path("ttgir"))
    modules: dict[str, Module] = {"ttgir": parse("ttgir", ttgir_text, str(entry.stage_path("ttgir")))}
    notes: list[str] = []
    raw_ptx: Module | None = None
    for stage in ("llir", "ptx", "amdgcn"):
        if stage not in entry.files:
            continue
        path = str(entry.stage_path(stage))
        text = read_text(path)
        if stage == "ptx":
            cleaned, n = strip_inline_asm_locs(text)
            if n:
                raw_ptx = parse("ptx", text, path)
                notes.append(f"PTX: ignored {n} `.loc` lines inside inline asm blocks (LLVM numbers the lines "
                             "of an asm string from its source line; they are not source positions)")
            text = cleaned
        modules[stage] = parse(stage, text, path)
    if sass and "cubin" in entry.files:
        from tritonscope.errors import ToolMissing

        try:
            modules["sass"] = parse("sass", stage_text(entry, "sass"), str(entry.stage_path("cubin")))
        except (ToolMissing, TritonscopeError) as exc:
            notes.append(f"SASS not joined: {exc}")
    target = entry.target
    return analyze_modules(modules, target=str(target) if target else None, kernel=entry.name, hash=entry.hash,
                           ttgir_text=ttgir_text, raw_ptx=raw_ptx, line=line, notes=notes)


def strip_inline_asm_locs(ptx_text: str) -> tuple[str, int]:
    """Blank the `.loc` lines inside `// begin inline asm` blocks, keeping line numbers; (text, how many).

    LLVM gives line k of an inline-asm string the location `line + k` of the call, and the next asm block
    inherits that stale position: Triton's `ld.global` of source line 173 then sits under `.loc 1 174 9`.
    The call's real position is the `.loc` before the block.
    """
    out = []
    inside = False
    n = 0
    for ln in ptx_text.split("\n"):
        if INLINE_ASM_BEGIN.match(ln):
            inside = True
        elif INLINE_ASM_END.match(ln):
            inside = False
        elif inside and PTX_LOC.match(ln):
            out.append("")
            n += 1
            continue
        out.append(ln)
    return "\n".join(out), n


def analyze_modules(modules: dict[str, Module], *, target: str | None, kernel: str, hash: str = "",
                    ttgir_text: str, raw_ptx: Module | None = None, line: int | None = None,
                    notes: list[str] | None = None) -> LoadsReport:
    """The pure analysis: parsed stages in, report out."""
    ttgir = modules["ttgir"]
    aliases = parse_layout_aliases(ttgir_text)
    graph = ValueGraph(ttgir, ttgir_text)
    rows = _rows(access_sites(ttgir, aliases), ttgir_text)
    for row in rows:
        _predict(row)
        _alignment(row, graph)
    isa_stage = "amdgcn" if "amdgcn" in modules else "ptx" if "ptx" in modules else None
    stages = [s for s in ("llir", "ptx", "sass", "amdgcn") if s in modules]
    unattributed: list[dict] = []
    line_remap = _sass_line_remap(raw_ptx, modules["ptx"]) if raw_ptx is not None and "ptx" in modules else {}
    for stage in stages:
        _join(stage, modules[stage], rows, unattributed, line_remap if stage == "sass" else {})
    if "sass" in modules and "ptx" in modules:
        _split_ambiguous("sass", "ptx", rows)
    for r in rows:
        r.attribution = "ambiguous" if r.ambiguous else "line" if r.line_matched else "exact"
    if "llir" in modules:
        _mark_branch_guarded(modules["llir"], rows)
    final = "sass" if "sass" in modules else isa_stage
    for row in rows:
        _verdict(row, final, graph)
    if line is not None:
        rows = [r for r in rows if r.line == line]
        unattributed = [u for u in unattributed if u["line"] == line]
    return LoadsReport(kernel, hash, target, isa_stage, stages, rows, unattributed, list(notes or []))


# --------------------------------------------------------------------------- rows from TTGIR

def _loc_key(loc: SourceLoc | None) -> tuple:
    if loc is None:
        return ()
    return tuple((os.path.basename(p.file), p.line, p.col) for p in loc.chain())


def _rows(sites: list[AccessSite], ttgir_text: str) -> list[AccessRow]:
    groups: dict[tuple, AccessRow] = {}
    for s in sites:
        kind = s.kind
        if kind == "tma":
            kind = "tma_store" if re.search(r"store|local_to_global|scatter|reduce", s.op.op) else "tma_load"
        outer = s.op.loc.outermost() if s.op.loc else SourceLoc("?", 0, 0)
        key = (_loc_key(s.op.loc), kind, s.op.op, s.shape, s.dtype, s.layout_name)
        row = groups.get(key)
        if row is None:
            layout_text = s.layout.to_text() if s.layout is not None and hasattr(s.layout, "to_text") else None
            row = AccessRow(
                file=outer.file, line=outer.line, col=outer.col,
                chain=s.op.loc.describe() if s.op.loc else "?", op=s.op.op, kind=kind, instances=0,
                shape=s.shape, dtype=s.dtype, element_bits=s.element_bits, layout=s.layout_name,
                layout_text=layout_text, mask=s.mask is not None, other=s.other is not None,
                eviction=s.eviction, cache=s.cache)
            groups[key] = row
        row.instances += 1
        row.sites.append(s)
    order = {k: i for i, k in enumerate(ACCEPTS)}
    return sorted(groups.values(), key=lambda r: (r.line, r.col, order.get(r.kind, 99), r.op))


def _predict(row: AccessRow) -> None:
    from tritonscope.layouts.views import describe

    site = row.sites[0]
    if not row.shape:
        row.elements_per_thread = row.contiguous_per_thread = 1
        row.predicted_vector_bytes = row.element_bytes
        row.predicted_vectors_per_thread = 1
        row.prediction_note = "a scalar access: one element"
        return
    if row.kind in ("tma_load", "tma_store"):
        row.prediction_note = "a bulk tensor copy: one thread issues it for the whole tile"
        return
    if site.layout is None:
        row.prediction_note = "no layout on the tensor type"
        return
    try:
        facts = describe(site.layout, row.shape, row.element_bits)
    except (TritonscopeError, ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
        row.prediction_note = f"layout not modelled: {exc}"
        return
    row.elements_per_thread = facts.elements_per_thread
    row.contiguous_per_thread = facts.contiguous_per_thread
    row.fastest_dim = facts.fastest_dim
    row.predicted_vector_bytes = facts.vector_bytes
    row.predicted_vectors_per_thread = facts.vectors_per_thread
    row.threads = facts.warp_size * facts.num_warps * max(1, facts.num_ctas)
    limit = _shared_limit(row)
    if limit is not None and limit * row.element_bytes < facts.vector_bytes:
        row.predicted_vector_bytes = max(row.element_bytes, limit * row.element_bytes)
        row.predicted_vectors_per_thread = max(1, facts.elements_per_thread // max(1, limit))


def _shared_limit(row: AccessRow) -> int | None:
    """Elements one shared-memory access can cover given the memdesc's swizzled layout, None if no limit.

    A swizzled shared layout keeps `vec` elements contiguous along its order[0]; when the register
    layout runs along another dim, consecutive registers are not consecutive in shared memory.
    """
    site = row.sites[0]
    shared = site.shared_layout
    vec = getattr(shared, "vec", None)
    order = getattr(shared, "order", None)
    bases = getattr(shared, "offset_bases", None)
    if bases:  # padded / linear shared layouts: the offset bases say which dim runs first, and how far
        first = bases[0]
        dim = next((i for i, v in enumerate(first) if v), None)
        if dim is None:
            return None
        run = 1
        for b in bases:
            if b[dim] == run and all(v == 0 for i, v in enumerate(b) if i != dim):
                run *= 2
            else:
                break
        order, vec = (dim,), run
    if shared is None or vec is None or not order:
        return None
    if row.fastest_dim is not None and order[0] != row.fastest_dim:
        row.prediction_note = (f"#{site.shared_layout_name} keeps dim {order[0]} contiguous, the registers run "
                               f"along dim {row.fastest_dim}: one element per shared access")
        return 1
    # Without swizzling (maxPhase 1) a whole row is contiguous, whatever `vec` says.
    if getattr(shared, "max_phase", 2) > 1 and vec < (row.contiguous_per_thread or 1):
        row.prediction_note = f"#{site.shared_layout_name} swizzles in groups of vec={vec} elements"
        return vec
    return None


def _alignment(row: AccessRow, graph: ValueGraph) -> None:
    site = row.sites[0]
    facts: list[dict] = []
    for name, value in site.attrs.items():
        facts.append({"value": site.op.op, "attr": name, "n": value})
    if site.address:
        ops, args = graph.slice(site.address)
        for a in sorted(args, key=lambda a: a.name):
            entry: dict = {"value": a.name, "type": a.type}
            entry.update({k: v for k, v in a.attrs.items()})
            facts.append(entry)
        for op in ops:
            for m in re.finditer(r"\b(tt\.divisibility|tt\.contiguity|tt\.constancy)\s*=\s*dense<\[?(\d+)", op.text):
                facts.append({"value": op.text.split("=")[0].strip(), "attr": m.group(1), "n": int(m.group(2))})
    row.alignment = facts


# --------------------------------------------------------------------------- joining lower stages

def _sass_line_remap(raw_ptx: Module, ptx: Module) -> dict[tuple[int, str], int]:
    """(line ptxas saw, kind) -> source line, from PTX memory ops whose `.loc` was an inline-asm offset."""
    table: dict[tuple[int, str], collections.Counter] = collections.defaultdict(collections.Counter)
    fixed = {op.lineno: op for op in ptx.ops}
    for op in raw_ptx.ops:
        acc = memops.classify("ptx", op)
        good = fixed.get(op.lineno)
        if acc is None or op.loc is None or good is None or good.loc is None:
            continue
        table[(op.loc.outermost().line, acc.kind)][good.loc.outermost().line] += 1
    return {k: c.most_common(1)[0][0] for k, c in table.items() if len(c) == 1}


def _join(stage: str, module: Module, rows: list[AccessRow], unattributed: list[dict],
          line_remap: dict[tuple[int, str], int]) -> None:
    by_line: dict[int, list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        by_line[r.line].append(r)
    leftovers: collections.Counter = collections.Counter()
    for op in module.ops:
        acc = memops.classify(stage, op)
        if acc is None:
            continue
        key = _loc_key(op.loc)
        outer = op.loc.outermost() if op.loc is not None else None
        line = outer.line if outer is not None else 0
        line = line_remap.get((line, acc.kind), line)
        col = outer.col if outer is not None else 0
        candidates = by_line.get(line, [])
        if acc.kind == "other_mem":
            for r in candidates:
                r.other_forms.setdefault(stage, collections.Counter())[acc.form] += 1
            if not candidates:
                leftovers[(line, col, acc.kind, acc.form)] += 1
            continue
        chosen, level = _choose(stage, acc, key, line, col, candidates)
        if not chosen:
            leftovers[(line, col, acc.kind, acc.form)] += 1
            continue
        if len(chosen) == 1:
            r = chosen[0]
            r.stages.setdefault(stage, {}).setdefault(acc.form, 0)
            r.stages[stage][acc.form] += 1
            r.widths.setdefault(stage, {})[acc.form] = acc.width_bytes
            if level == "line" and stage not in LINE_ONLY_STAGES:
                r.line_matched = True
        else:
            for r in chosen:
                r.ambiguous.setdefault(stage, {}).setdefault(acc.form, 0)
                r.ambiguous[stage][acc.form] += 1
                r.widths.setdefault(stage, {})[acc.form] = acc.width_bytes
                for o in chosen:
                    label = f"{o.line}:{o.col} {o.op}"
                    if o is not r and label not in r.ambiguous_with:
                        r.ambiguous_with.append(label)
    for r in rows:
        if stage in r.other_forms:
            r.other_forms[stage] = dict(r.other_forms[stage])
    for (line, col, kind, form), n in sorted(leftovers.items()):
        unattributed.append({"stage": stage, "line": line, "col": col, "kind": kind, "form": form, "count": n})


def _choose(stage: str, acc: memops.MemAccess, key: tuple, line: int, col: int,
            candidates: list[AccessRow]) -> tuple[list[AccessRow], str]:
    fitting = [r for r in candidates if acc.kind in ACCEPTS.get(r.kind, ())]
    if not fitting:
        return [], ""
    levels = [("exact", [r for r in fitting if _loc_key(r.sites[0].op.loc) == key]),
              ("exact", [r for r in fitting if r.col == col])]
    # Shared-memory traffic on a line is often a layout conversion: with columns, only an exact match counts;
    # without (SASS), only rows whose PTX has an instruction of the same kind and width.
    if stage in LINE_ONLY_STAGES and acc.kind.startswith("shared"):
        levels.append(("line", [r for r in fitting if _guide_has(r, "ptx", acc)]))
    elif not acc.kind.startswith("shared"):
        levels.append(("line", fitting))
    for level, found in levels:
        if not found:
            continue
        if len(found) > 1:
            primary = [r for r in found if ACCEPTS[r.kind][0] == acc.kind]
            found = primary or found
        if len(found) > 1 and acc.width_bytes is not None:
            same_width = [r for r in found if r.predicted_vector_bytes == acc.width_bytes]
            found = same_width if len(same_width) == 1 else found
        return found, level
    return [], ""


def _guide_has(row: AccessRow, guide: str, acc: memops.MemAccess) -> bool:
    """Whether `row` got a `guide`-stage instruction as wide as `acc` (True when the guide stage is absent)."""
    if guide not in row.stages and guide not in row.ambiguous:
        return True
    widths = row.widths.get(guide, {})
    forms = {**row.stages.get(guide, {}), **row.ambiguous.get(guide, {})}
    return any(widths.get(f) == acc.width_bytes for f in forms)


def _split_ambiguous(stage: str, guide: str, rows: list[AccessRow]) -> None:
    """Share out a line-only stage's ambiguous instructions the way the guide stage attributed its own.

    SASS has no columns: two 16-byte loads on one line are ambiguous there, but PTX (with columns) says
    which access each of its 16-byte loads belongs to; when the counts of that width agree, SASS follows.
    """
    groups: dict[tuple[int, str], list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        for form in r.ambiguous.get(stage, {}):
            groups[(r.line, form)].append(r)
    for (_, form), members in groups.items():
        total = members[0].ambiguous[stage][form]
        width = members[0].widths.get(stage, {}).get(form)
        if width is None:
            continue
        share = {id(r): sum(n for f, n in r.stages.get(guide, {}).items() if r.widths.get(guide, {}).get(f) == width)
                 for r in members}
        if sum(share.values()) != total:
            continue
        for r in members:
            del r.ambiguous[stage][form]
            if not r.ambiguous[stage]:
                del r.ambiguous[stage]
            if share[id(r)]:
                r.stages.setdefault(stage, {})[form] = share[id(r)]
            if not r.ambiguous:
                r.ambiguous_with = []


def _mark_branch_guarded(llir: Module, rows: list[AccessRow]) -> None:
    """Count each row's LLIR accesses that sit in a block entered through `br i1` (masking by branch)."""
    guarded_lines: set[int] = set()
    last_terminator_conditional = False
    for op in llir.ops:
        if op.op in LLIR_TERMINATORS:
            last_terminator_conditional = bool(LLIR_CONDITIONAL_BRANCH.match(op.text))
            continue
        if last_terminator_conditional and memops.classify("llir", op) is not None:
            guarded_lines.add(op.lineno)
    if not guarded_lines:
        return
    positions = collections.Counter()
    for op in llir.ops:
        if op.lineno in guarded_lines and op.loc is not None:
            o = op.loc.outermost()
            positions[(o.line, o.col)] += 1
    for r in rows:
        if r.kind.endswith("load") or r.kind.endswith("store"):
            r.llir_guarded = positions.get((r.line, r.col), 0) if "llir" in r.stages else 0


# --------------------------------------------------------------------------- verdicts and reasons

def _verdict(row: AccessRow, final: str | None, graph: ValueGraph) -> None:
    stage = final if final and (row.stages.get(final) or row.ambiguous.get(final)) else None
    if stage is None and final == "sass":
        # SASS lines can fold several accesses; fall back to the PTX Triton wrote.
        stage = "ptx" if row.stages.get("ptx") or row.ambiguous.get("ptx") else None
    if stage is None:
        row.verdict = "unknown"
        row.attribution = "none" if not row.stages else row.attribution
        if final is None:
            row.reasons = [Reason("no-isa", "this entry has no PTX/SASS/AMDGCN (a partial or failed compile)")]
        else:
            row.reasons = [Reason("no-isa-match", f"no {final} memory instruction was attributed to "
                                                  f"{row.line}:{row.col} (removed, merged, or located elsewhere)")]
        return
    forms = row.stages.get(stage) or row.ambiguous.get(stage, {})
    widths = [row.widths[stage][f] for f in forms if row.widths.get(stage, {}).get(f) is not None]
    row.vector_stage = stage
    if row.kind in ("tma_load", "tma_store") and any(row.widths[stage].get(f) is None for f in forms):
        row.verdict = "as-predicted"
        return
    if not widths:
        row.verdict = "unknown"
        row.reasons = [Reason("no-width", f"the {stage} forms {sorted(forms)} do not state a width")]
        return
    row.vector_bytes = max(widths)
    elements = row.vector_bytes // row.element_bytes
    predicted = row.predicted_vector_bytes
    if elements <= 1:
        row.verdict = "scalar"
    elif predicted is not None and row.vector_bytes < predicted:
        row.verdict = "narrower"
    else:
        row.verdict = "as-predicted"
    if row.verdict != "as-predicted":
        row.reasons = _reasons(row, graph)


def _reasons(row: AccessRow, graph: ValueGraph) -> list[Reason]:
    """Why an access is narrower than a 16-byte vector, most basic cause first, each with its evidence."""
    out: list[Reason] = []
    site = row.sites[0]
    predicted = row.predicted_vector_bytes
    narrower_than_layout = predicted is not None and row.vector_bytes is not None and row.vector_bytes < predicted
    layout_is_scalar = bool(row.shape) and row.contiguous_per_thread == 1
    missing = [a for a in row.alignment if "type" in a and "tt.divisibility" not in a]
    compiler = [a for a in row.alignment if a.get("attr") == "contiguity"]
    if missing:
        names = ", ".join(f"{a['value']} ({a['type']})" for a in missing)
        consequence = ("; the coalesce pass therefore gave the layout 1 contiguous element per thread"
                       if layout_is_scalar else f": the compiler cannot prove {predicted}-byte alignment")
        out.append(Reason("unknown-alignment", f"no tt.divisibility on {names}, used in the address{consequence}"))
    elif narrower_than_layout and compiler and compiler[0]["n"] * row.element_bytes < (predicted or 0):
        out.append(Reason("unknown-alignment",
                          f"the compiler's own contiguity = {compiler[0]['n']} on {site.op.op} "
                          f"({compiler[0]['n'] * row.element_bytes} bytes)"))
    if layout_is_scalar and row.elements_per_thread:
        spt = getattr(site.layout, "size_per_thread", None)
        detail = f"sizePerThread={list(spt)}, " if spt else ""
        out.append(Reason("layout-contiguity-1",
                          f"#{row.layout} ({detail}order[0]={row.fastest_dim}) gives each thread 1 contiguous "
                          f"element along dim {row.fastest_dim}: {row.element_bytes}-byte accesses at most"))
    if row.prediction_note and row.kind.startswith("shared") and site.shared_layout is not None:
        out.append(Reason("shared-layout", row.prediction_note))
    if not row.shape:
        out.append(Reason("scalar-access", "a scalar (0-d) access moves one element by definition"))
    if narrower_than_layout:
        if site.mask and row.fastest_dim is not None and graph.varies_along(site.mask, row.fastest_dim):
            _, mask_args = graph.slice([site.mask])
            bounds = [a for a in mask_args if not a.type.startswith("!tt.ptr") and "tt.divisibility" not in a.attrs]
            bound_text = ""
            if bounds:
                names = ", ".join(f"{a.name} ({a.type})" for a in bounds)
                bound_text = f"; its bound {names} has no tt.divisibility, so no group of elements shares a mask bit"
            out.append(Reason("mask-on-contiguous-dim",
                              f"mask {site.mask} varies along dim {row.fastest_dim}, the contiguous dim: each "
                              f"element may be masked separately{bound_text}"))
        n_llir = sum(row.counts("llir").values())
        llir_widths = [w for w in row.widths.get("llir", {}).values() if w]
        if row.llir_guarded * 2 >= n_llir > 0 and llir_widths and max(llir_widths) < predicted:
            out.append(Reason("branch", f"{row.llir_guarded} of {n_llir} LLIR accesses sit in their own block "
                                        f"behind `br i1`, {max(llir_widths)} bytes each (a mask lowered to "
                                        f"branches, one per access)"))
    if row.dtype in ("i1",) or row.dtype.startswith("!tt.ptr") or (0 < row.element_bits < 8):
        out.append(Reason("dtype", f"element type {row.dtype} ({row.element_bits} bits) limits the vector"))
    if narrower_than_layout and not any(r.code not in ("layout-contiguity-1", "shared-layout") for r in out):
        out.append(Reason("unexplained", "nothing in TTGIR explains it; compare the LLIR forms"))
    return out
