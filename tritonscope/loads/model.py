"""The rows `loads` produces: one AccessRow per memory access, a LoadsReport per kernel (plain data)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from tritonscope.loads.sites import AccessSite
from tritonscope.stages.common import file_label, same_file
from tritonscope.stages.ir_positions import is_ir_file

VERDICTS = ("as-predicted", "narrower", "scalar", "unknown")


def where_label(file: str, line: int, col: int, written: tuple[str, int, int] | None) -> str:
    """`173:9`; a helper's access: `290:35 @ 340:12` (the kernel's file), `utils.py:93:17 @ 436:110`; a
    position of an IR file (stages/ir_positions.py): `kernel.ttir:77:298`."""
    own = f"{os.path.basename(file)}:{line}:{col}" if is_ir_file(file) else f"{line}:{col}"
    if written is None:
        return own
    prefix = "" if same_file(written[0], file) else file_label(written[0], file) + ":"
    return f"{prefix}{written[1]}:{written[2]} @ {own}"


# Column titles of the stages whose instructions a loads row counts (the text table, the report's).
STAGE_TITLE = {"llir": "LLIR", "ptx": "PTX", "sass": "SASS", "amdgcn": "AMDGCN"}


def shown_counts(own: dict[str, int] | None, shared: dict[str, int] | None) -> dict[str, int]:
    """A row's instructions of one stage as the tables show them: its own, else those it shares with another
    access, marked (the text table, the report's)."""
    return own or {f"{k} (ambiguous)": v for k, v in (shared or {}).items()}

@dataclass
class Reason:
    code: str
    evidence: str

    def to_json(self) -> dict:
        return {"code": self.code, "evidence": self.evidence}


def disambiguate(rows: list[AccessRow]) -> None:
    """Rows whose short labels are alike but whose chains differ (one helper's access reached through two
    calls inside one call of the kernel's line: SGLang's `_load_compact` for a row's data and for its
    scales) are labelled with every call from where the access was written to the kernel's line; rows
    still alike with the same op get their TTGIR line (`516:23 (ttgir:133)`)."""
    groups: dict[str, list[AccessRow]] = {}
    for r in rows:
        groups.setdefault(r.where, []).append(r)
    for group in groups.values():
        if len(group) < 2 or len({r.chain for r in group}) < 2:
            continue
        for r in group:
            loc = r.sites[0].op.loc if r.sites else None
            if loc is None:
                continue
            frames = loc.chain()
            start = next((i for i, f in enumerate(frames) if r.written is not None
                          and (f.file, f.line, f.col) == r.written), 0)
            r.label = " @ ".join(f"{f.line}:{f.col}" if same_file(f.file, r.file) and not is_ir_file(f.file)
                                 else f"{file_label(f.file, r.file)}:{f.line}:{f.col}" for f in frames[start:])
    # rows of one position and op in different layouts or types (a load Triton rematerialized in two
    # layouts): told apart by their TTGIR lines
    same: dict[tuple[str, str], list[AccessRow]] = {}
    for r in rows:
        same.setdefault((r.where, r.op), []).append(r)
    for (where, _), group in same.items():
        if len(group) > 1 and all(r.sites for r in group):
            for r in group:
                r.label = f"{where} (ttgir:{r.sites[0].op.lineno})"


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
    distinct_per_thread: int | None = None  # registers holding distinct elements (broadcast copies left out)
    contiguous_per_thread: int | None = None
    fastest_dim: int | None = None
    predicted_vector_bytes: int | None = None
    predicted_vectors_per_thread: int | None = None
    threads: int | None = None
    warp_size: int | None = None  # lanes of one warp (not in the JSON: `threads` is)
    # a cluster's CTAs (num_ctas > 1; `threads` counts all of theirs) and the part of the tensor one CTA holds
    ctas: int = 1
    cta_elements: int | None = None
    prediction_note: str | None = None
    alignment: list[dict] = field(default_factory=list)
    # the loads the address is computed from (a gather): (source line `505` or `505 @ 1746` or None, op name,
    # whether it loads one value for the whole tensor)
    gather: list[tuple[str | None, str, bool]] = field(default_factory=list)
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
    # why a later stage has fewer (merged) or more (split) instructions than the one before it
    count_changes: list[Reason] = field(default_factory=list)
    # PTX address operands of the row's instructions (`%rd1 + 0` -> n), to tell merges of equal addresses
    addresses: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)
    # instructions found on another line than the access's (loadreclaim): `relocated`, `at-use` reasons
    relocations: list[Reason] = field(default_factory=list)
    moved_to: dict[str, int] = field(default_factory=dict, repr=False)  # stage -> line its instructions sit on
    # the access whose wider instruction the backend merged this one into (loadreclaim.combined)
    combined_with: AccessRow | None = field(default=None, repr=False)
    attribution: str = "exact"  # exact | line | ambiguous | moved | none
    line_matched: bool = False  # some instruction joined by line only, in a stage that has columns
    sites: list[AccessSite] = field(default_factory=list, repr=False)
    # where a helper inlined at `line` wrote the access (SourceLoc.written): (file, line, col), else None
    written: tuple[str, int, int] | None = None
    # the label with the calls between where it was written and the kernel's line, where another row has
    # the same short one (`disambiguate`)
    label: str | None = None
    # why `instances` > 1 (analyze.copies_cause): 'unrolled' (the copies share their loop or straight-line
    # code), 'pipelined-prologue', 'pipelined-epilogue', 'pipelined-prologue-epilogue', 'copied' (in
    # different loops of one depth: a loop compiled in two versions)
    copies: str | None = None
    # whether TTIR's access at this position has a mask (None: no TTIR); the TTGIR's copies may carry the
    # pipeliner's mask where the source wrote none (said by --explain, not in the JSON)
    source_mask: bool | None = None

    @property
    def where(self) -> str:
        return self.label or where_label(self.file, self.line, self.col, self.written)

    def stage_bytes(self, stage: str, without: frozenset[str] | set[str] = frozenset()) -> int | None:
        """Bytes per thread the row's instructions in `stage` move (forms in `without` left out); None where
        a width is unknown."""
        widths = self.widths.get(stage, {})
        total = 0
        for form, n in self.stages.get(stage, {}).items():
            if form in without:
                continue
            if widths.get(form) is None:
                return None
            total += n * widths[form]
        return total

    def at_line(self, line: int, file: str | None = None) -> bool:
        """The access is on `line` of `file` (default: the kernel's file; a basename or a path's tail is
        enough): the line that holds it or calls the helper that does, or a helper's line it was written on."""
        want = file or self.file
        if self.line == line and same_file(self.file, want):
            return True
        loc = self.sites[0].op.loc if self.sites else None
        return loc is not None and loc.names(want, line, inner=True)

    @property
    def element_bytes(self) -> int:
        return max(1, self.element_bits // 8)

    def counts(self, stage: str) -> dict[str, int]:
        return self.stages.get(stage, {})

    def to_json(self, isa_stage: str | None) -> dict:
        return {
            "line": self.line, "col": self.col, "file": self.file, "chain": self.chain, "where": self.where,
            "written_at": None if self.written is None else
            {"file": self.written[0], "line": self.written[1], "col": self.written[2]},
            "op": self.op,
            "kind": self.kind, "instances": self.instances, "copies": self.copies, "shape": list(self.shape),
            "dtype": self.dtype,
            "layout": self.layout, "layout_text": self.layout_text, "mask": self.mask, "other": self.other,
            "eviction_policy": self.eviction, "cache_modifier": self.cache,
            "threads": self.threads, "ctas": self.ctas, "elements_per_thread": self.elements_per_thread,
            "distinct_per_thread": self.distinct_per_thread,
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
            "count_changes": [r.to_json() for r in self.count_changes],
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
    # local-memory (register spill) instructions per source line: PTX ld/st.local, SASS LDL/STL, AMD scratch_
    spills: list[dict] = field(default_factory=list)
    # which release's layout decoding made the predictions (layouts.releases.Semantics.to_json())
    layout_semantics: dict | None = None

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "hash": self.hash, "target": self.target, "isa_stage": self.isa_stage,
                "stages": self.stages, "notes": self.notes, "layout_semantics": self.layout_semantics,
                "rows": [r.to_json(self.isa_stage) for r in self.rows], "unattributed": self.unattributed,
                "spills": self.spills}
