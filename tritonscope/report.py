"""The model of `tritonscope report`: one kernel's source, stages, layouts, loads and metadata as plain data.

Everything here is computed from the analyses (stage parsers, srcmap, layouts, loads, CUBIN/AMDGCN resource
readers); render/html.py only turns it into a page. An analysis that fails or a stage that is missing
becomes a `note` on its pane or panel, so a partial cache still gives a page that says what it lacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tritonscope.artifacts.cache import KernelEntry, release_text
from tritonscope.errors import TritonscopeError
from tritonscope.layouts import releases, views
from tritonscope.layouts.attrs import dtype_bits, parse_layout_aliases
from tritonscope.loads import analyze as loads
from tritonscope.srcmap import kernelmap as srcmap
from tritonscope.srcmap.paths import SourceFinder, name_refusal
from tritonscope.stages import entry_stages, parse_entry_stage, release, stage_text
from tritonscope.stages.common import CUT_NOTE, DERIVED_STAGES, Module, same_file
from tritonscope.stages.table import MAPPED_STAGES, default_view

# Stages a report shows by default: the TTGIR, the LLVM IR and the ISA text of the target.
DEFAULT_STAGES = {"cuda": default_view("cuda"), "hip": default_view("hip")}
REPORT_STAGES = MAPPED_STAGES
# `#blocked1` in a TTGIR line: a reference to a layout alias.
LAYOUT_REF = re.compile(r"#([A-Za-z_][\w$.]*)")
# `tensor<128x64xf16, #blocked1>` / `!ttg.memdesc<128x64xf16, #shared, ...>`: the shape and element type
# a layout alias is used with.
TENSOR_WITH_ALIAS = re.compile(r"(?:tensor|memdesc)<((?:\d+x)+)([\w!.<>]+?), #([A-Za-z_][\w$.]*)[>,]")
_POINTEE = re.compile(r"^!tt\.ptr<([\w.]+)(?:, \d+)?>$")
# The picture of a layout in the report: one corner of the tensor, small enough for a page.
PICTURE_ROWS, PICTURE_COLS = 8, 16
# A pane shows at most this many lines (the largest real LLIR has ~200k): past it, a page of a
# pathological stage would take minutes and gigabytes to build and no browser would open it. Counts and
# the source pane still cover every op; `tritonscope show` prints the whole stage.
PANE_MAX_LINES = 200_000
# ... and of one line, at most this many characters (the longest real ones, LLIR's constant arrays and
# PTX's inline asm, are a few KB): one 20 MB comment line was embedded whole
PANE_MAX_LINE_CHARS = 64 << 10

Chain = tuple[tuple[int, int, int], ...]  # (file index, line, col) innermost first


@dataclass(slots=True)
class StagePane:
    """One stage's text and, per line of that text, the op it holds and where it came from."""

    stage: str
    path: str | None = None
    text: str | None = None
    note: str | None = None  # why the text is missing, or what went wrong mapping it
    source_line: dict[int, int] = field(default_factory=dict)  # stage line -> user line in the shown file
    chain: dict[int, int] = field(default_factory=dict)  # stage line -> index into ReportModel.chains
    layout_refs: dict[int, list[str]] = field(default_factory=dict)  # TTGIR line -> layout aliases used
    # the later lines of multi-line ops (a tt.reduce's closing line, a switch's cases): highlighted with their
    # op, never counted as ops of their own
    continued: set[int] = field(default_factory=set)
    # ops whose outermost position is line 0 (a helper's known line under an unknown call): kept for the
    # helper's lines, not counted as located ops (`map` counts them as line 0 / unknown)
    unplaced: set[int] = field(default_factory=set)

    @property
    def op_count(self) -> int:
        return len(self.chain) - len((self.continued | self.unplaced) & self.chain.keys())


@dataclass(slots=True)
class SourcePane:
    ir_path: str | None = None  # the path the IR names
    path: str | None = None  # where it was found on this machine
    text: str | None = None
    note: str | None = None
    caution: str | None = None  # text shown that may not be the text compiled (paths.SourceText.caution)
    counts: dict[int, dict[str, int]] = field(default_factory=dict)  # source line -> stage -> ops
    # source line -> stage -> ops a helper defined in the file wrote there (counted at its call's line)
    inlined: dict[int, dict[str, int]] = field(default_factory=dict)
    file_index: int | None = None  # a helper's file: its index in ReportModel.files (the chains' file table)


@dataclass(frozen=True, slots=True)
class SourceFileStatus:
    """A file the kernel's locations name: whether the page embeds its text, and if not, why."""

    ir_path: str  # as the IR names it
    embedded: bool
    path: str | None = None  # where it was read from
    reason: str | None = None
    caution: str | None = None  # embedded, but modified after the kernel was compiled


@dataclass(slots=True)
class LayoutItem:
    alias: str
    kind: str
    text: str
    line: int | None = None  # TTGIR line of the alias definition
    shape: tuple[int, ...] | None = None  # a shape it is used with in the kernel
    dtype: str | None = None  # the element type used with that shape
    facts: list[tuple[str, str]] = field(default_factory=list)
    svg: str | None = None
    used_on: list[int] = field(default_factory=list)  # TTGIR lines that use it
    note: str | None = None


@dataclass(slots=True)
class ReportModel:
    kernel: dict[str, str]  # name, hash, target, triton, entry path
    source: SourcePane
    stages: list[StagePane]
    files: list[str] = field(default_factory=list)  # file table of the chains
    chains: list[Chain] = field(default_factory=list)
    layouts: list[LayoutItem] = field(default_factory=list)
    layouts_note: str | None = None
    # a Gluon kernel: the layouts its source writes against the TTGIR's (`layout --json`'s `written`)
    written: list[dict] = field(default_factory=list)
    written_note: str | None = None
    loads: list[dict] = field(default_factory=list)
    loads_note: str | None = None
    loads_stages: list[str] = field(default_factory=list)  # the instruction columns: llir, ptx/amdgcn, sass
    metadata: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sources: list[SourceFileStatus] = field(default_factory=list)  # every named file, embedded or not
    # files of helpers the kernel inlined from other files: their text, and per line the ops written there
    helpers: list[SourcePane] = field(default_factory=list)
    provenance: dict | None = None  # torch.compile: the `inductor` record of docs/json.md


@dataclass(frozen=True, slots=True)
class ReportOptions:
    stages: tuple[str, ...] | None = None
    source_roots: tuple[str, ...] = ()
    substitutions: tuple[tuple[str, str], ...] = ()
    read_source: bool = True  # False: --no-source, no file other than the entry's is opened
    kept: Callable[[str], tuple[str, str] | None] | None = None  # SourceFinder.kept


def default_stages(entry: KernelEntry) -> tuple[str, ...]:
    target = entry.target
    wanted = DEFAULT_STAGES.get(target.backend if target else "", default_view(None))
    present = tuple(s for s in wanted if s in entry.files)
    return present or tuple(s for s in ("ttir", "ttgir", "llir", "ptx", "amdgcn") if s in entry.files)


def build_report(entry: KernelEntry, options: ReportOptions) -> ReportModel:
    stages = options.stages or default_stages(entry)
    kernel = {
        "name": entry.name, "hash": entry.hash, "target": str(entry.target) if entry.target else "unknown",
        "triton": release_text(entry.triton_version, entry.triton_version_inferred, "unknown"),
        "entry": str(entry.path),
    }
    kmap = srcmap.kernel_map_of(entry)
    panes: list[StagePane] = []
    for stage in stages:
        pane, module = _load_stage(entry, stage)
        panes.append(pane)
        if module is not None:
            kmap.stages[stage] = module
    module = None  # kmap holds the parses until _map_lines is done with them
    # a stage cut short (the terminal's note goes to stderr; the page, shared, says it for itself)
    cut = [f"{pane.path}: {CUT_NOTE}: {kmap.stages[pane.stage].cut}" for pane in panes
           if pane.stage in kmap.stages and kmap.stages[pane.stage].cut]
    kmap.source_file = srcmap.user_file(kmap)
    named = kmap.named_files()
    unread = [p.stage for p in panes if not p.text]  # (missing, empty, or not read: each pane says why)
    model = ReportModel(kernel=kernel, source=_source_pane(kmap.source_file, named, options, unread, len(panes),
                                                            kmap.compiled_at),
                        stages=panes)
    _map_lines(model, kmap)
    model.helpers = _helper_panes(model, kmap, named, options)
    model.sources = _source_statuses(model.source, model.helpers, named, options)
    kmap.stages.clear()  # the panes keep their text; loads reuses the entry's parses
    _layouts(model, entry, next((p.text for p in panes if p.stage == "ttgir" and p.text), None),
             next((p for p in panes if p.stage == "ttgir"), None))
    finder = SourceFinder(options.source_roots, options.substitutions, options.kept)
    found = _written(model, entry, next((p for p in panes if p.stage == "ttgir" and p.text), None), options, finder)
    _loads(model, entry, options, finder, found)
    model.metadata = _metadata(entry, {p.stage: p.text for p in panes if p.text is not None}, model.notes)
    # what of the entry does not read (metadata, a stage's name on a link or on no file, an empty stage): the
    # page shows what it has, and says what it lacks and why
    model.notes[:0] = entry.damage(empty_stages=True) + cut
    for over in reversed(entry.over_limits):  # first thing a reader sees: this kernel cannot launch there
        model.notes.insert(0, f"over the launch limit: {over['resource']} {over['used']:,} > {over['limit']:,} on "
                              f"{entry.target} (Triton raises OutOfResources before the first launch)")
    release(entry)  # the model is plain data: the parsed stages go before the page is rendered
    return model


def _load_stage(entry: KernelEntry, stage: str) -> tuple[StagePane, Module | None]:
    """The text of a stage (disassembled once for sass/hsaco-asm) and its parse; a failure is a note."""
    pane = StagePane(stage=stage)
    needs = DERIVED_STAGES.get(stage, stage)
    if needs not in entry.files:
        pane.note = f"this entry has no {stage} stage" + (f" (no {needs} file)" if needs != stage else "")
        return pane, None
    pane.path = str(entry.files[needs])
    try:
        entry.stage_path(needs)  # over the size limit (a stage only loads reads): a note on its pane
        pane.text = stage_text(entry, stage)
    except TritonscopeError as exc:  # a disassembler missing or refusing the arch, an unreadable file
        pane.note = f"{stage} not available: {exc}"
        return pane, None
    full_text = pane.text
    pane.text, total = _first_lines(full_text, PANE_MAX_LINES)
    if total is not None:
        pane.note = (f"{stage} shown up to line {PANE_MAX_LINES} of {total} (all of its ops are counted; "
                     f"`tritonscope show --stage {stage}` prints it all)")
    pane.text, cut = _cut_long_lines(pane.text, PANE_MAX_LINE_CHARS)
    if cut:
        pane.note = ((pane.note + "; ") if pane.note else "") + (
            f"{cut} line(s) over {PANE_MAX_LINE_CHARS:,} characters shown up to that many (`tritonscope show "
            f"--stage {stage}` prints them whole)")
    try:
        module = parse_entry_stage(entry, stage)  # parsed once, shared with loads and the source map
        if stage not in ("ttgir", "amdgcn"):  # the layouts and the resources read those two again
            entry_stages(entry).drop_text(stage)
        return pane, module
    except TritonscopeError as exc:
        pane.note = f"{stage} shown without source mapping: {exc}"
        return pane, None


def _cut_long_lines(text: str, most: int) -> tuple[str, int]:
    """The text with each line past `most` characters cut there (an ellipsis after it), and how many were."""
    # (a line longer than `most` holds a whole aligned chunk of half as many characters with no line end:
    # chunks are tested by str.find, and only a text with such a chunk is split)
    step = max(1, most // 2)
    if all(text.find("\n", i, i + step) >= 0 for i in range(0, len(text) - step + 1, step)):
        return text, 0
    lines = text.split("\n")
    long = [i for i, line in enumerate(lines) if len(line) > most]
    for i in long:
        lines[i] = lines[i][:most] + " \u2026"
    return ("\n".join(lines), len(long)) if long else (text, 0)


def _first_lines(text: str, n: int) -> tuple[str, int | None]:
    """The first n lines of text and, when it has more, how many it has (None when it fits)."""
    end = -1
    for _ in range(n):
        end = text.find("\n", end + 1)
        if end < 0:
            return text, None
    if end + 1 >= len(text):
        return text, None
    return text[: end + 1], text.count("\n") + (0 if text.endswith("\n") else 1)


def _source_pane(ir_path: str | None, named: set[str], options: ReportOptions,
                 unread: list[str] = (), shown: int = 1, compiled_at: float | None = None) -> SourcePane:
    pane = SourcePane(ir_path=ir_path)
    if ir_path is None:
        pane.note = (f"no stage shown names a source file ({', '.join(unread)}: missing, empty or not read, as its "
                     "pane says)" if unread else "no stage shown names a source file (compiled without line info?)"
                     if shown else "no IR stage to name a source file: the entry keeps none of its text stages")
        return pane
    if not options.read_source:
        pane.note = f"{ir_path}: not embedded (--no-source)"
        return pane
    found = SourceFinder(options.source_roots, options.substitutions, options.kept).read(ir_path, named, compiled_at)
    if not found.found:
        pane.note = f"{ir_path}: {found.error}"
        return pane
    pane.path, pane.caution = found.path, found.caution
    pane.text = "\n".join(found.lines) + "\n"
    return pane


def _helper_panes(model: ReportModel, kmap, named: set[str], options: ReportOptions) -> list[SourcePane]:
    """The files of helpers written outside the kernel's file (another module's @jit functions, Triton's
    own `tl.sum`): per line, the ops of each stage written there, and the file's text where the source
    policy lets it be read (the same as the kernel's own file: named by the IR, a Python source)."""
    per_file: dict[str, dict[int, dict[str, int]]] = {}
    for stage, module in kmap.stages.items():
        for f, lines in srcmap.helper_line_counts(module, kmap.source_file).items():
            for line, n in lines.items():
                per_file.setdefault(f, {}).setdefault(line, {})[stage] = n
    panes = []
    for f in sorted(per_file):
        pane = SourcePane(ir_path=f, counts=per_file[f],
                          file_index=model.files.index(f) if f in model.files else None)
        if not options.read_source:
            pane.note = f"{f}: not embedded (--no-source)"
        else:
            found = SourceFinder(options.source_roots, options.substitutions, options.kept).read(
                f, named, kmap.compiled_at)
            if found.found:
                pane.path, pane.text, pane.caution = found.path, "\n".join(found.lines) + "\n", found.caution
            else:
                pane.note = f"{f}: {found.error}"
        panes.append(pane)
    return panes


def _source_statuses(pane: SourcePane, helpers: list[SourcePane], named: set[str],
                     options: ReportOptions) -> list[SourceFileStatus]:
    """The page embeds the kernel's own file (the source pane) and the files its helpers were written in
    (a file list in that pane); every other named file is listed by name with why its text is not on the
    page. Nothing else is opened to say so."""
    out = []
    by_file = {h.ir_path: h for h in helpers}
    for f in sorted(named):
        shown = pane if f == pane.ir_path else by_file.get(f)
        if shown is not None and shown.text is not None:
            out.append(SourceFileStatus(f, True, shown.path, caution=shown.caution))
        elif shown is not None:
            out.append(SourceFileStatus(f, False, reason=(shown.note or "").removeprefix(f + ": ")))
        elif not options.read_source:
            out.append(SourceFileStatus(f, False, reason="not embedded (--no-source)"))
        else:
            why = name_refusal(f, named)
            out.append(SourceFileStatus(f, False, reason=f"not read: {why}" if why else
                                        "no op of the stages shown was written in it"))
    return out


def _map_lines(model: ReportModel, kmap) -> None:
    """Per stage line: the user's source line and the inline chain; per source line: op counts per stage
    (srcmap.line_counts, the numbers `tritonscope map` prints)."""
    shown = kmap.source_file
    in_shown: dict[str, bool] = {}  # per file an op names: whether it is the kernel's own (same_file)
    file_index: dict[str, int] = {}
    chain_index: dict[Chain, int] = {}
    per_stage, _ = srcmap.line_counts(kmap)
    for stage, counts in per_stage.items():
        for line, n in counts.items():
            model.source.counts.setdefault(line, {})[stage] = n
        for line, n in srcmap.inlined_line_counts(kmap.stages[stage], kmap.source_file).items():
            model.source.inlined.setdefault(line, {})[stage] = n
    for pane in model.stages:
        module = kmap.stages.get(pane.stage)
        if module is None:
            continue
        last = pane.text.count("\n") + 1 if pane.text else 0
        # each op's first line, and the later lines of a multi-line op (a tt.reduce's closing line)
        for lineno, op in [*((op.lineno, op) for op in module.ops), *module.continued.items()]:
            # (an op whose own line is 0 inside a call whose line is known is that line's, as map counts it)
            if op.loc is None or not (op.loc.known or op.loc.outermost().known) or lineno > last:
                continue
            chain = tuple((file_index.setdefault(loc.file, len(file_index)), loc.line, loc.col)
                          for loc in op.loc.chain())
            pane.chain[lineno] = chain_index.setdefault(chain, len(chain_index))
            if lineno != op.lineno:
                pane.continued.add(lineno)
            outer = op.loc.outermost()
            if not outer.known:
                pane.unplaced.add(lineno)
            if outer.known and shown is not None:
                own = in_shown.get(outer.file)
                if own is None:
                    own = in_shown[outer.file] = same_file(outer.file, shown)
                if own:
                    pane.source_line[lineno] = outer.line
        if pane.stage == "ttgir" and pane.text:
            for lineno, line in enumerate(pane.text.split("\n"), 1):  # (numbered as the parsers number them)
                refs = [m.group(1) for m in LAYOUT_REF.finditer(line) if not m.group(1).startswith("loc")]
                if refs:
                    pane.layout_refs[lineno] = refs
    model.files = list(file_index)
    model.chains = list(chain_index)


def _layouts(model: ReportModel, entry: KernelEntry, ttgir: str | None, pane: StagePane | None = None) -> None:
    if ttgir is None:
        model.layouts_note = ("no TTGIR in this entry: layouts are read from it" if "ttgir" not in entry.files else
                              "no TTGIR: layouts are read from it (add ttgir to --stages)" if pane is None else
                              f"no TTGIR text: layouts are read from it ({pane.note or 'the stage is empty'})")
        return
    try:
        aliases = parse_layout_aliases(ttgir, pane.path if pane is not None else None)
    except TritonscopeError as exc:
        model.layouts_note = f"cannot read the layouts: {exc}"
        return
    lines = ttgir.splitlines()
    definitions = {m.group(1): i for i, line in enumerate(lines, 1)
                   if (m := re.match(r"#([A-Za-z_][\w$.]*)\s*=", line))}
    shapes: dict[str, tuple[tuple[int, ...], str, tuple[int, bool]]] = {}
    for m in TENSOR_WITH_ALIAS.finditer(ttgir):
        shape = tuple(int(d) for d in m.group(1).rstrip("x").split("x"))
        # a pointer tensor's elements are what it points at (the access's data), as layout and loads read it
        dtype = _POINTEE.sub(r"\1", m.group(2))
        # the largest tensor a layout is used with is the one worth a picture; of those, a float one
        # (the data, not its masks or offsets)
        key = (_elements(shape), dtype.startswith(("f", "bf")))
        if m.group(3) not in shapes or key > shapes[m.group(3)][2]:
            shapes[m.group(3)] = (shape, dtype, key)
    ttgir_pane = next((p for p in model.stages if p.stage == "ttgir"), None)
    for alias, layout in aliases.items():
        item = LayoutItem(alias=alias, kind=getattr(layout, "kind", "layout"),
                          text=getattr(layout, "text", None) or layout.to_text(),
                          line=definitions.get(alias))
        item.shape, item.dtype, _ = shapes.get(alias, (None, None, None))
        if ttgir_pane is not None:
            item.used_on = [n for n, refs in ttgir_pane.layout_refs.items()
                            if alias in refs and n != item.line]
        _describe_layout(item, layout, entry)
        model.layouts.append(item)
    if not aliases:
        model.layouts_note = "this TTGIR defines no layout aliases"


def _elements(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _describe_layout(item: LayoutItem, layout, entry: KernelEntry) -> None:
    """Numbers (layouts.views) and a picture (render/svg) for the first shape the kernel uses it with."""
    if item.shape is None:
        item.note = "not used with a tensor shape in this kernel: no numbers or picture"
        return
    bits = dtype_bits(item.dtype or "") or 32
    semantics = releases.for_entry(entry)
    try:
        with releases.using(semantics):
            facts = views.facts_for(layout, item.shape, bits)
    except (TritonscopeError, NotImplementedError, ValueError, KeyError) as exc:
        item.note = f"cannot derive its numbers for shape {'x'.join(map(str, item.shape))}: {exc}"
        return
    if isinstance(facts, views.TensorMemoryFacts):
        _tmem_facts(item, facts)
    else:
        _register_facts(item, facts)
    from tritonscope.render import svg

    try:  # (decoded as the entry's release, as the numbers are)
        with releases.using(semantics):
            item.svg = svg.layout_svg(layout, facts, max_rows=PICTURE_ROWS, max_cols=PICTURE_COLS)
    except (TritonscopeError, NotImplementedError, ValueError, KeyError) as exc:
        item.note = f"no picture: {exc}"


def _register_facts(item: LayoutItem, facts) -> None:
    """A layout held by threads (or shared memory): its tile, rounds and vectors."""
    if facts.shared:  # (offsets in one CTA's buffer: no warps, lanes or threads to count)
        item.facts = [
            ("element", f"{item.dtype or '?'} ({facts.element_bits} bits)"),
            ("elements / CTA", str(facts.elements_per_thread)),
            ("consecutive", f"{facts.contiguous_per_thread} along dim {facts.fastest_dim} before the next row, "
                            "swizzle or padding"),
            ("CTAs", str(facts.num_ctas)),
        ]
        return
    item.facts = [
        ("element", f"{item.dtype or '?'} ({facts.element_bits} bits)"),
        ("CTA tile", "×".join(map(str, facts.cta_tile))),
        ("rounds", f"{facts.rounds} ({'×'.join(map(str, facts.rounds_per_dim))})"),
        ("warps × lanes", f"{facts.num_warps} × {facts.warp_size}"),
        ("elements / thread", str(facts.elements_per_thread)),
        ("contiguous / thread", f"{facts.contiguous_per_thread} along dim {facts.fastest_dim}"),
        ("widest vector", f"{facts.vector_bytes} B ({facts.vector_elements} elements), "
                          f"{facts.vectors_per_thread} per thread"),
        ("replicated slots", str(facts.replicated)),
    ]


def _tmem_facts(item: LayoutItem, facts) -> None:
    """A tensor memory layout: its lanes and 32-bit columns (its picture: each element's lane and column)."""
    from tritonscope.render.layout import tmem_sentences

    _, lanes, columns, budget = tmem_sentences(facts, item.dtype or "?")
    item.facts = [("element", f"{item.dtype or '?'} ({facts.element_bits} bits)"), ("lanes", lanes),
                  ("columns", columns), ("tensor memory", budget)]


def _written(model: ReportModel, entry: KernelEntry, pane: StagePane | None, options: ReportOptions, finder):
    """A Gluon kernel's written layouts (layouts.gluon.written_in_source), as `layout --json` has them; what
    was read (a WrittenSource) for the loads table's reasons, else None."""
    if entry.language != "gluon" or pane is None:
        return None
    if not options.read_source:
        model.written_note = "the layouts its source writes: not read (--no-source)"
        return None
    from tritonscope.layouts.gluon import written_in_source

    try:
        found = written_in_source(pane.text, pane.path or "", entry.name, finder, entry.triton_version,
                                  entry.compiled_at)
    except TritonscopeError as exc:
        model.written_note = f"the layouts its source writes: not read ({exc})"
        return None
    if found.resolutions is None:
        model.written_note = f"the layouts its source writes: not read ({found.error})"
        return found
    model.written = found.resolutions_json()
    model.notes.extend(f"layouts: {n}" for n in found.notes)
    return found


def _loads(model: ReportModel, entry: KernelEntry, options: ReportOptions, finder, found=None) -> None:
    """The `loads` rows (loads.analyze_entry), as its JSON rows; `found`: the written layouts `_written` read
    (read once for the page's two panels)."""
    try:
        # (read to SASS whatever panes are shown, as `tritonscope loads` reads it: ptxas merges and splits)
        result = loads.analyze_entry(entry, sass=True, finder=finder, read_source=options.read_source,
                                     written_source=found)
    except TritonscopeError as exc:
        model.loads_note = f"loads analysis not available: {exc}"
        return
    doc = result.to_json()
    model.loads = doc["rows"]
    model.loads_stages = list(result.stages)  # (as `tritonscope loads` shows them: SASS beside the PTX)
    files = {f: i for i, f in enumerate(model.files)}  # (the chains' file table, _map_lines's)
    for row, access in zip(model.loads, result.rows, strict=False):
        loc = access.sites[0].op.loc if access.sites else None
        chain = loc.chain() if loc is not None else []
        if len(chain) > 1 and all(c.file in files for c in chain):  # a helper's access: selected by its chain
            row["_chain"] = [[files[c.file], c.line] for c in chain]
    model.notes.extend(f"loads: {n}" for n in doc.get("notes", []))
    spills = [s for s in result.spills if s["stage"] in ("sass", "amdgcn")] or result.spills
    if spills:  # flagged where a reader looks first
        lines = sorted({s["line"] for s in spills})
        model.notes.insert(0, f"spills: {sum(s['count'] for s in spills)} local-memory instructions per thread "
                              f"({spills[0]['stage']}) on source line(s) {', '.join(map(str, lines[:12]))}"
                              + (" ..." if len(lines) > 12 else "") + " (tritonscope loads lists them)")
    if not model.loads:
        model.loads_note = "no memory accesses in this kernel's TTGIR"


def _json_text(value: object) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def _metadata(entry: KernelEntry, texts: dict[str, str], notes: list[str]) -> list[tuple[str, str]]:
    """The metadata table's rows; a fact a reader must see first (spills) goes to the front of `notes`."""
    out: list[tuple[str, str]] = [("target", str(entry.target) if entry.target else "unknown")]
    for key, label in (("num_warps", "warps"), ("num_stages", "stages"), ("num_ctas", "CTAs"),
                       ("shared", "shared memory (bytes)"), ("tmem_size", "tensor memory (columns)"),
                       ("maxnreg", "max registers"),
                       ("cluster_dims", "cluster dims")):
        value = entry.meta(key)
        if value is None or (key == "tmem_size" and not value):  # (0 before Blackwell: nothing to say)
            continue
        count = entry.meta_int(key)
        if key != "cluster_dims" and (count is None or count < 0):
            # a count of another type (a damaged "8192", true, -5): shown as what it is, not as a number
            out.append((label, f"unknown (the metadata says {_json_text(value)[:40]})"))
            continue
        out.append((label, _plain(value)))
    out.extend(_resources(entry, texts, notes))
    return out


def _resources(entry: KernelEntry, texts: dict[str, str], notes: list[str]) -> list[tuple[str, str]]:
    if "cubin" in entry.files:
        from tritonscope.artifacts.nvinfo import cubin_resources
        from tritonscope.artifacts.tools import read_binary

        try:
            found = cubin_resources(read_binary(entry.stage_path("cubin")), str(entry.files["cubin"]))
        except (OSError, TritonscopeError) as exc:
            return [("registers", f"unknown ({exc})")]
        # (the kernel's symbol: the metadata's name where that read as one; a damaged list or dict is none)
        res = found.get(entry.mangled_name or entry.name) or next(iter(found.values()), None)
        if res is None:
            return [("registers", "unknown (no kernel in the CUBIN)")]
        # (ptxas puts spills in the stack frame: local memory is the larger of the two, as `ls` says it)
        local = max(res.local_bytes, res.stack_bytes)
        if local and not any(n.startswith("spills:") for n in notes):  # (loads found none: no SASS read)
            notes.insert(0, f"spills: {local} bytes of local memory per thread (register spills and stack, from "
                            "the CUBIN; its SASS, where nvdisasm reads it, has the instructions and their lines)")
        return [("registers / thread", str(res.registers)), ("local memory (spills, bytes)", str(local)),
                ("stack (bytes)", str(res.stack_bytes)), ("static shared (bytes)", str(res.static_shared_bytes))]
    text = texts.get("amdgcn")
    if text is None and "amdgcn" in entry.files:
        from tritonscope.stages import stage_text

        try:
            text = stage_text(entry, "amdgcn")
        except TritonscopeError:
            text = None
    if text is None:
        return []
    try:
        from tritonscope.diff.metrics import LDS_UNITS, amdgcn_resources, lds_bound_occupancy
    except ImportError:
        return []
    labels = {"vgprs": "VGPRs", "agprs": "AGPRs", "sgprs": "SGPRs", "spills": "spills", "scratch": "scratch (bytes)",
              "lds": "LDS (bytes)", "occupancy": "occupancy (waves/SIMD)"}
    res = amdgcn_resources(text)
    out = {key: str(res[key]) for key in labels if key in res}
    # Triton allocates its shared memory as dynamic LDS at launch (the metadata's `shared`): the kernel's
    # static LDS is 0, and LLVM's occupancy comment counts only that
    shared = entry.meta_int("shared")
    shared = shared if shared is not None and shared >= 0 else None  # (a damaged value is unknown)
    if shared and "occupancy" in res:
        occupancy, total = res["occupancy"], res.get("lds", 0) + shared
        target, warps = entry.target, entry.meta_int("num_warps")
        arch = target.arch if target is not None else None
        bound = lds_bound_occupancy(occupancy, total, arch, warps)
        if bound is not None:
            out["occupancy"] = f"{bound[0]} (LDS-bound: {bound[1]}; LLVM's {occupancy} counted no dynamic LDS)"
        elif arch not in LDS_UNITS or not warps:  # (else LLVM's figure stands: the LDS does not bind)
            out["occupancy"] = f"{occupancy} (LLVM's, counting static LDS only: Triton adds {shared} B at launch)"
    # the launch option waves_per_eu: Triton 3.7 on gives LLVM `"amdgpu-waves-per-eu"="N,N"`, a most it
    # honours (earlier releases "N", a least): an occupancy of that most is the option's, whatever registers allow
    cap = _WAVES_PER_EU.search(texts.get("llir") or "")
    if cap and cap.group(2) and out.get("occupancy") == cap.group(2):
        out["occupancy"] = (f"{cap.group(2)} (the most that waves_per_eu={entry.meta('waves_per_eu')} asks of LLVM, "
                            f"`amdgpu-waves-per-eu`=\"{cap.group(1)},{cap.group(2)}\": its registers may allow more)")
    if "lds" in out or shared is not None:
        out["lds"] = f"{res.get('lds', 0)} static" + (f" + {shared} dynamic (Triton's, at launch)" if shared else "")
    return [(labels[key], out[key]) for key in labels if key in out]


_WAVES_PER_EU = re.compile(r'"amdgpu-waves-per-eu"="(\d{1,4})(?:,(\d{1,4}))?"')


def _plain(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return "×".join(str(v) for v in value) if all(isinstance(v, int) for v in value) else str(list(value))
    return str(value)
