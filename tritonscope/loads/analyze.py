"""`loads`: every memory access of a kernel, what its layout allows, and what each stage made of it.

One row per TTGIR access (clones made by the pipeliner fold into one row, counted in `instances`):
the layout's prediction (elements per thread, contiguous run, vector bytes capped at 16), the alignment
facts the compiler had, and the LLIR / PTX / SASS / AMDGCN instructions joined to it by source position
(outermost line and column, then line; kinds must agree, widths break ties). Counts are static
instruction counts: per thread for straight-line code, per iteration plus prologue inside loops.
A verdict compares the widest final-ISA access with the prediction; reasons carry their evidence.
"""

from __future__ import annotations

import re
from collections import Counter
from math import gcd, prod

from tritonscope.errors import TritonscopeError
from tritonscope.layouts import releases
from tritonscope.layouts.attrs import parse_layout_aliases
from tritonscope.layouts.gluon import written_in_source
from tritonscope.layouts.views import describe, shape_in_cta
from tritonscope.loads import reclaim as loadreclaim
from tritonscope.loads.join import (
    ACCEPTS,
    join_stage,
    loc_key,
    mark_branch_guarded,
    settle_by_counts,
    settle_by_family,
    settle_conversion_surplus,
    settle_matrix_beside_complete,
    settle_mma_by_shape,
    settle_tensor_memory_surplus,
    settle_tma_by_copies,
    share_identical,
    split_ambiguous,
)
from tritonscope.loads.model import VERDICTS, AccessRow, LoadsReport, Reason, disambiguate
from tritonscope.loads.sites import AccessSite, ValueGraph, access_sites
from tritonscope.loads.verdict import AMD_ATOMICS, decide, explain_counts, reasons, repeating_dims
from tritonscope.srcmap.paths import SourceFinder
from tritonscope.stages import entry_stages
from tritonscope.stages.common import Module, SourceLoc
from tritonscope.stages.memops import accesses

# TMA/descriptor ops that write global memory.
TMA_WRITES = re.compile(r"store|local_to_global|scatter|reduce")

__all__ = ["VERDICTS", "AccessRow", "LoadsReport", "Reason", "analyze_entry", "analyze_modules"]


def analyze_entry(entry, *, line: int | None = None, sass: bool = True, finder=None,
                  file: str | None = None, read_source: bool = True, written_source=None) -> LoadsReport:
    """Read the stages of a cache entry (read-only; SASS through nvdisasm when available) and analyze.
    `finder` (a SourceFinder) locates a Gluon kernel's source, whose written layouts explain widths;
    `read_source` False: no file but the entry's is opened (the written layouts are not read);
    `written_source`: those layouts as the caller read them already (layouts.gluon.written_in_source)."""
    if "ttgir" not in entry.files:
        raise TritonscopeError("no TTGIR in this entry: loads needs it to find the accesses", str(entry.path))
    parsed = entry_stages(entry)  # read and parsed once, shared with whatever else reads this entry
    ttgir_text = parsed.text("ttgir")
    modules: dict[str, Module] = {"ttgir": parsed.module("ttgir")}
    notes: list[str] = []
    no_isa = None
    for stage in ("llir", "ptx", "amdgcn"):
        if stage not in entry.files:
            continue
        entry.stage_path(stage)  # a stage over the size limit stops the command (one line), as everywhere
        try:
            modules[stage] = parsed.module(stage)
            notes.extend(f"{stage.upper()}: {n}" for n in modules[stage].notes)
        except TritonscopeError as exc:  # one unreadable stage must not hide the others
            notes.append(f"{stage} not joined: {exc}")
            if stage != "llir":  # (not "a partial or failed compile": the rows' reason says why)
                no_isa = f"its {stage.upper()} did not read (see the note): no instruction is joined"
    if sass and "cubin" in entry.files:
        from tritonscope.errors import ToolMissing

        try:
            modules["sass"] = parsed.module("sass")  # located through the PTX, once
            notes.extend(f"SASS: {n}" for n in modules["sass"].notes)
        except (ToolMissing, TritonscopeError) as exc:
            notes.append(f"SASS not joined: {exc}")
    target = entry.target
    written = None
    if entry.language == "gluon":
        if read_source:
            written = _gluon_written(entry, ttgir_text, notes, finder, written_source)
        else:
            notes.append("Gluon: the kernel's source not read (--no-source): the layouts written there are not shown")
    semantics = releases.for_entry(entry)
    report = analyze_modules(modules, target=str(target) if target else None, kernel=entry.name, hash=entry.hash,
                             ttgir_text=ttgir_text, line=line, notes=notes, written=written, semantics=semantics,
                             file=file, gluon=entry.language == "gluon", no_isa=no_isa)
    if "ttir" in entry.files and any(r.mask for r in report.rows):
        try:
            _source_masks(report.rows, parsed.module("ttir"))
        except TritonscopeError:
            pass  # (what TTIR says of masks only adds a remark: an unreadable TTIR leaves it out)
    return report


def _source_masks(rows: list[AccessRow], ttir: Module) -> None:
    """Whether TTIR's access at each masked row's position has a mask operand (read as the TTGIR's are,
    `access_sites`): the pipeliner masks the copies it makes of an access the source wrote unmasked
    (`tl.load(a_ptrs)` in a pipelined loop)."""
    masked: dict[tuple, list[bool]] = {}
    for site in access_sites(ttir, {}):
        if site.op.loc is None:
            continue
        outer = site.op.loc.outermost()
        masked.setdefault((outer.file, outer.line, outer.col), []).append(site.mask is not None)
    for r in rows:
        seen = masked.get((r.file, r.line, r.col))
        if r.mask and seen:
            r.source_mask = any(seen)


def _gluon_written(entry, ttgir_text: str, notes: list[str], finder=None, found=None):
    """A Gluon kernel's written layouts against its TTGIR, from the source file the IR names (read-only), or
    `found`, where the caller read them."""
    found = found or written_in_source(ttgir_text, str(entry.stage_path("ttgir")), entry.name,
                                       finder or SourceFinder(), entry.triton_version,
                                       entry.compiled_at)
    if found.resolutions is None:
        if found.source is not None and found.source.found:  # read, but not Python: the error names the file
            notes.append(f"Gluon: {found.error}; written layouts not shown")
        else:
            notes.append(f"Gluon: {found.requested or 'the kernel source'}: {found.error}; the layouts written "
                         "there are not shown")
        return None
    notes.extend(f"Gluon: {n}" for n in found.notes)
    return found.requested, found.resolutions


def analyze_modules(modules: dict[str, Module], *, target: str | None, kernel: str, hash: str = "",
                    ttgir_text: str, line: int | None = None, file: str | None = None,
                    notes: list[str] | None = None, written: tuple[str, list] | None = None,
                    semantics=None, gluon: bool = False, no_isa: str | None = None) -> LoadsReport:
    """The pure analysis: parsed stages in, report out. `written`: (source file, the Gluon kernel's
    written-vs-resolved layouts), whose written layouts then explain the vector widths they allow.
    `semantics` (layouts.releases.Semantics): the release whose layout decoding predicts the rows (default
    the newest: up to 3.8 a tensor smaller than its blocked tile keeps its repeated registers). `gluon`: the
    kernel's layouts are its programmer's (Gluon), no coalesce pass's. `no_isa`: why `modules` has no ISA
    stage where the entry has one (it did not read), for the rows' reason."""
    semantics = semantics or releases.DEFAULT
    ttgir = modules["ttgir"]
    notes = list(notes or [])
    unread = None  # why the layouts did not read: then no access has a shape or layout to judge it by
    try:
        aliases = parse_layout_aliases(ttgir_text, ttgir.path)
    except TritonscopeError as exc:
        aliases, unread = {}, str(exc)
        notes.append(f"layouts not read ({exc}): no predictions")
    graph = ValueGraph(ttgir, ttgir_text)
    graph.layouts_written = gluon
    sites = access_sites(ttgir, aliases, graph.lines)
    for site in sites:  # the values an access uses, as the graph's keys (a name may be defined twice)
        site.address = graph.at(site.op, site.address)
        site.mask = graph.at(site.op, [site.mask])[0] if site.mask else site.mask
    rows = _rows(sites)
    for row in rows:
        if row.instances > 1:
            row.copies = copies_cause([s.op for s in row.sites], ttgir.parents)
    amd = (target or "").startswith("hip") or "amdgcn" in modules  # (an AMD kernel's target, else its ISA)
    with releases.using(semantics):
        for row in rows:
            _predict(row, amd)
            with graph.through(row.sites[0].calls):  # (a called function's copy: its call's values)
                _alignment(row, graph)
    if semantics.release != releases.NEWEST or semantics.guessed:
        notes.append(semantics.sentence())
    isa_stage = "amdgcn" if "amdgcn" in modules else "ptx" if "ptx" in modules else None
    stages = [s for s in ("llir", "ptx", "sass", "amdgcn") if s in modules]
    unattributed: list[dict] = []
    # an access whose op names no source line (TTGIR up to 2.2; every op under TRITON_DISABLE_LINE_INFO=1) is
    # joined by line 0 only where the later stages have no lines either: where they have, line 0 holds just
    # the instructions LLVM left without one
    unlocated = [r for r in rows if _unlocated_row(r)]
    lined = bool(unlocated) and len(unlocated) == len(rows) and any(_has_lines(modules[s]) for s in stages)
    located = [r for r in rows if not _unlocated_row(r)] if lined else rows

    def same_value(a, name_a: str, b, name_b: str) -> bool:  # (two stores' operands: one value, or computed alike)
        return graph.equivalent(graph.at(a, [name_a])[0], graph.at(b, [name_b])[0])

    def element_offset(a: AccessRow, b: AccessRow) -> int | None:
        """How many elements b's address lies after a's: scalars, or tensors of one shape and layout (each
        thread's i-th element of b then lies that far after its i-th element of a); a pointer, or a buffer
        op's base and offsets. None where not a constant."""
        if not a.sites or not b.sites or a.shape != b.shape or a.layout != b.layout:
            return None
        address_a, address_b = a.sites[0].address, b.sites[0].address
        if len(address_a) != len(address_b) or len(address_a) not in (1, 2):
            return None
        keys_a, keys_b = graph.at(a.sites[0].op, address_a), graph.at(b.sites[0].op, address_b)
        if len(keys_a) == 1:
            return graph.element_offset(keys_a[0], keys_b[0])
        return graph.index_offset(keys_a[1], keys_b[1]) if keys_a[0] == keys_b[0] else None

    for stage in stages:
        join_stage(stage, modules[stage], located, unattributed)
        share_identical(stage, located)
        settle_tma_by_copies(stage, located)
        settle_tensor_memory_surplus(stage, located)
        settle_matrix_beside_complete(stage, located)
        settle_conversion_surplus(stage, located, ttgir, unattributed)
        loadreclaim.atomics_by_operation(stage, located)
        settle_by_counts(stage, located)
        settle_by_family(stage, located)
        if stage == "llir":
            loadreclaim.at_use(modules[stage], ttgir, located, unattributed)
            loadreclaim.atomics_off_position(located, unattributed)
            loadreclaim.sunk_arms(located, graph.lines, same_value, unattributed)
        else:
            loadreclaim.relocate(stage, located, unattributed, ttgir)
            loadreclaim.unlocated(stage, located, unattributed)
            loadreclaim.paired_on_no_line(stage, located, unattributed)
    if "sass" in modules and "ptx" in modules:
        split_ambiguous("sass", "ptx", located)
        settle_mma_by_shape("sass", "ptx", located, unattributed)
    for r in located:
        r.attribution = ("ambiguous" if r.ambiguous else "moved" if r.relocations else
                         "line" if r.line_matched else "exact")
    for stage in stages:
        loadreclaim.selected(stage, ttgir, located, unattributed)
        loadreclaim.arms_merged(stage, located, graph.lines, unattributed)
        if modules[stage].cut is None:  # (both prove by the whole kernel's counts: a cut text has no whole)
            loadreclaim.removed(stage, located, unattributed)
            loadreclaim.combined(stage, located, unattributed, element_offset)
    if "llir" in modules:
        mark_branch_guarded(modules["llir"], located)
    final = "sass" if "sass" in modules else isa_stage
    copied_loops = _copied_loops(modules["llir"]) if "llir" in modules else None
    for row in rows:
        with graph.through(row.sites[0].calls):
            decide(row, final, graph, no_isa, cut=final in modules and modules[final].cut is not None)
        if unread is not None:  # (its tensor read as no tensor: a "scalar access" it is not)
            row.verdict, row.predicted_vector_bytes, row.predicted_vectors_per_thread = "unknown", None, None
            row.prediction_note = None
            row.reasons = [Reason("layouts-unread", f"the TTGIR's layouts did not read ({unread}): no shape or "
                                                    "layout to predict its accesses from")]
        trips = [graph.loop_trips(s.op) for s in row.sites]  # (each copy's loops: a prologue's are not the loop's)
        explain_counts(row, stages, trips[0] if trips else None, copied_loops if None in trips else None,
                       in_runtime_loop=None in trips and any(graph.in_loop(s.op) for s in row.sites),
                       repeats=lambda row=row: _repeating(row, graph))
        row.count_changes.extend(row.relocations)
    for row in rows:  # an access combined into another's wider instruction has that one's verdict
        partner = row.combined_with
        if partner is not None and row.verdict == "unknown" and partner.verdict != "unknown":
            row.verdict, row.vector_bytes, row.vector_stage = partner.verdict, partner.vector_bytes, \
                partner.vector_stage
            # why its own access is no wider (a scalar, one element a thread), as for any row of that verdict
            with graph.through(row.sites[0].calls):
                row.reasons = reasons(row, graph) if row.verdict != "as-predicted" else []
    _unlocated(unlocated, len(rows), lined, notes, ttgir.cut is not None)
    _copy_fills(located, unattributed)
    _descriptor_builds(ttgir, unattributed)
    _tensor_memory_allocation(modules, unattributed)
    loadreclaim.common_subexpressions(located)
    loadreclaim.merged_arms(located, graph.lines, same_value)
    if "llir" in modules and not any(modules[s].cut is not None for s in stages):
        loadreclaim.not_emitted(located, unattributed)  # (proven by every stage's whole text)
    disambiguate(rows)
    spills = spill_sites(modules)
    if written is not None:
        from tritonscope.loads.gluon import written_layout_reasons

        written_layout_reasons(rows, written[1], written[0], unit_dim=lambda row: _unit_dim(row, graph))
    if line is not None:
        from tritonscope.stages.common import kernel_source_file, same_file

        own = kernel_source_file(modules.values())  # (ttgir first: the order analyze_entry parses them)
        if file is not None:
            from tritonscope.srcmap.kernelmap import named_files
            from tritonscope.stages.common import resolve_file

            file = resolve_file(file, named_files(modules.values()), prefer=own)
        rows = [r for r in rows if r.at_line(line, file)]
        want = file or own
        # the compiler's own instructions on the line, or written on it by a helper inlined elsewhere
        unattributed = [u for u in unattributed if (file is None and u["line"] == line)
                        or (u.get("written") and u["written"].split(":")[0] == str(line)
                            and same_file(u.get("written_file"), want))]
        spills = [s for s in spills if s["line"] == line] if file is None else []
    return LoadsReport(kernel, hash, target, isa_stage, stages, rows, unattributed, notes, spills,
                       semantics.to_json())


def spill_sites(modules: dict[str, Module]) -> list[dict]:
    """Local-memory traffic (register spills and stack) of the assembly stages, per source line and
    instruction: {stage, line, col, file, instruction, count, bytes} (bytes per instruction, per thread)."""
    counts: dict[tuple, int] = {}
    widths: dict[tuple, int | None] = {}
    for stage in ("ptx", "sass", "amdgcn"):
        module = modules.get(stage)
        if module is None:
            continue
        for op, acc in zip(module.ops, accesses(stage, module), strict=True):
            if acc is None or acc.space != "local":
                continue
            outer = op.loc.outermost() if op.loc is not None else None
            key = (stage, outer.line if outer else 0, outer.col if outer else 0, outer.file if outer else None,
                   op.op)
            counts[key] = counts.get(key, 0) + 1
            widths[key] = acc.width_bytes
    order = {"ptx": 0, "sass": 1, "amdgcn": 2}
    ranked = sorted(counts.items(), key=lambda kv: (order[kv[0][0]], kv[0][1], kv[0][2], kv[0][3] or "", kv[0][4]))
    return [{"stage": k[0], "line": k[1], "col": k[2], "file": k[3], "instruction": k[4], "count": n,
             "bytes": widths[k]} for k, n in ranked]


def _rows(sites: list[AccessSite]) -> list[AccessRow]:
    groups: dict[tuple, AccessRow] = {}
    for s in sites:
        kind = s.kind
        if kind == "tma":
            kind = "tma_store" if TMA_WRITES.search(s.op.op) else "tma_load"
        outer = s.op.loc.outermost() if s.op.loc else SourceLoc("?", 0, 0)
        # an op without a source line (TTGIR before 2.3, TRITON_DISABLE_LINE_INFO=1) is its own access, not
        # one with every other
        where = loc_key(s.op.loc) if outer.line else (("", s.op.lineno, -1),)
        layout_text = s.layout.to_text() if s.layout is not None and hasattr(s.layout, "to_text") else None
        # by the layout itself: two inline layouts of one kind (`#ttg.slice<...>` of a dot operand and of a
        # blocked layout, a load Triton rematerialized) share their name
        # and by the shared layout it reads or writes: two `local_load`s of one line into one register layout
        # from two buffers of other swizzles (one `ds_read_b64`s, the other `ds_read_u16`s) are two accesses
        key = (where, kind, s.op.op, s.shape, s.dtype, s.layout_name, layout_text, s.shared_layout_name)
        row = groups.get(key)
        if row is None:
            row = AccessRow(
                file=outer.file, line=outer.line, col=outer.col,
                chain=s.op.loc.describe() if s.op.loc else "?", op=s.op.op, kind=kind, instances=0,
                shape=s.shape, dtype=s.dtype, element_bits=s.element_bits, layout=s.layout_name,
                layout_text=layout_text, mask=s.mask is not None, other=s.other is not None,
                eviction=s.eviction, cache=s.cache)
            written = s.op.loc.written() if s.op.loc else None
            if written is not None:
                row.written = (written.file, written.line, written.col)
            if not outer.line:
                row.label = f"ttgir:{s.op.lineno} (no loc)"
            groups[key] = row
        row.instances += 1
        row.sites.append(s)
    order = {k: i for i, k in enumerate(ACCEPTS)}
    return sorted(groups.values(), key=lambda r: (r.line, r.col, order.get(r.kind, 99), r.op))


_LOOPS = ("scf.for", "scf.while")
_RMW_KIND = re.compile(r"\btt\.atomic_rmw\s+(\w+)")


def _copy_fills(rows: list[AccessRow], unattributed: list[dict]) -> None:
    """A masked async copy with `other` that its backend lowers to a copy plus a shared-memory store of the
    `other` value where the mask is off (gfx1250's `global.load.async.to.lds` and a `store ... zeroinitializer`
    to the LDS address a select picks): the stores at its position, one per copy instruction, are named as
    its fill (`of`), not left as no access's."""
    copies = {(r.line, r.col): r for r in rows if r.kind == "async_copy" and r.other}
    for u in unattributed:
        r = copies.get((u["line"], u["col"]))
        if r is None or u["kind"] != "shared_store" or "of" in u:
            continue
        if u["count"] == sum(r.stages.get(u["stage"], {}).values()):  # (one fill a copy instruction)
            u["of"] = f"{r.where} {r.op}: the fill of its masked-off elements (its `other` value)"


def _positions(module, names: tuple[str, ...]) -> Counter:
    """(line, col) -> how many of the module's ops whose name starts with one of `names` sit there."""
    at: Counter = Counter()
    for op in module.ops:
        if op.op.startswith(names) and op.loc is not None:
            outer = op.loc.outermost()
            if outer.known:
                at[(outer.line, outer.col)] += 1
    return at


def _descriptor_builds(ttgir, unattributed: list[dict]) -> None:
    """The memory instructions at a `ttng.tensormap_create`'s position (`tl.make_tensor_descriptor`: a TMA
    descriptor built on the device) are named as its (`of`): PTX's `tensormap.replace` of each field in
    shared memory and the 128-byte `tensormap.cp_fenceproxy` to global memory, which ptxas lowers to shared
    loads and stores and a global exchange (`ATOMG.E.EXCH`): no load or store of the kernel's, no atomic of
    its own either."""
    at = _positions(ttgir, ("ttng.tensormap_create",))
    for u in unattributed:
        if (u["line"], u["col"]) in at and "of" not in u and u["kind"] in ("tensormap", "shared_load", "shared_store",
                                                                            "atomic", "global_store"):
            u["of"] = ("ttng.tensormap_create (tl.make_tensor_descriptor): the TMA descriptor it builds in shared "
                       "memory and copies to global memory")


def _tensor_memory_allocation(modules: dict, unattributed: list[dict]) -> None:
    """At a `tcgen05.alloc`/`dealloc`'s position (PTX; the kernel's own `def` line, Triton allocating its tensor
    memory), the shared load of the address the allocation wrote and SASS's `ATOMS.OR`/`ATOMS.AND` (ptxas's
    allocator state) are named as the allocation's (`of`): they were bare `atomic`s on the def line (helper
    88). Other shared-memory instructions there stay unexplained."""
    ptx = modules.get("ptx")
    if ptx is None:
        return
    allocations = _positions(ptx, ("tcgen05.alloc",))
    at = allocations | _positions(ptx, ("tcgen05.dealloc",))
    for u in unattributed:
        if (u["line"], u["col"]) not in at or "of" in u:
            continue
        # (the 32-bit address read back: as many such loads as allocations there, none else taken for it)
        if u["stage"] in ("llir", "ptx") and u["kind"] == "shared_load" and u.get("bytes") == 4 and \
                u["count"] == allocations[(u["line"], u["col"])]:
            u["of"] = ("the kernel's tensor memory allocation (tcgen05.alloc at this position): each warp reads back "
                       "the address it got, written to shared memory")
        elif u["stage"] == "sass" and u["kind"] == "atomic" and u["form"].startswith("ATOMS."):
            u["of"] = ("the kernel's tensor memory allocation (tcgen05.alloc/dealloc at this position): ptxas keeps "
                       "the allocator's state in shared memory")


def _unit_dim(row: AccessRow, graph: ValueGraph) -> int | None:
    """The one dim along which an access's address steps one element at a time (every term that varies
    along it, `ys[None, :]`), None where no dim or several do, or a term is not followed."""
    site = row.sites[0]
    if not row.shape or not site.address:
        return None
    with graph.through(site.calls):
        steps = graph.steps(site.address, len(row.shape))
    if any(None in terms for terms in steps.values()):
        return None
    units = [d for d, terms in steps.items() if terms and all(t == (1, frozenset(), 1) for t in terms)]
    return units[0] if len(units) == 1 else None


def _repeating(row: AccessRow, graph: ValueGraph) -> str | None:
    with graph.through(row.sites[0].calls):
        return repeating_dims(row, graph)


def copies_cause(ops: list, parents: dict) -> str:
    """Why one access is several TTGIR ops, from the loops that hold each copy: copies outside the loop
    that holds the others are the pipeliner's (prologue before it, epilogue after it); copies that share
    their loop (or straight-line code) were written out several times: an unrolled `tl.static_range`, a
    Python loop or a helper at this position called again."""
    def loops(op) -> tuple[int, ...]:
        out, parent = [], parents.get(op.lineno)
        while parent is not None:
            if parent.op in _LOOPS:
                out.append(parent.lineno)
            parent = parents.get(parent.lineno)
        return tuple(out)

    held = [loops(op) for op in ops]
    kinds = {m.group(1) for op in ops if (m := _RMW_KIND.search(op.text))}
    if len(kinds) == 2 and len(ops) == 2 and kinds in ({"max", "umin"}, {"min", "umax"}) and held[0] == held[1]:
        return "float-atomic"  # (tl.atomic_max/min of floats: an integer atomic per sign, one position)
    if len(set(held)) == 1:
        return "unrolled"
    deepest = max(held, key=len)
    outside = [op for op, h in zip(ops, held, strict=True) if len(h) < len(deepest)]
    if not outside:
        return "copied"  # in loops of the same depth
    loop_line = deepest[0]
    before = any(op.lineno < loop_line for op in outside)
    after = any(op.lineno > loop_line for op in outside)
    return "pipelined" + ("-prologue" if before else "") + ("-epilogue" if after else "")


def _unlocated_row(row: AccessRow) -> bool:
    """The access's op names no source line: no location (TTGIR before 2.3) or `loc(unknown)`."""
    return row.line == 0 and bool(row.sites)


def _has_lines(module: Module) -> bool:
    """Some op of the stage has a source line."""
    return any(op.loc is not None and op.loc.outermost().line for op in module.ops)


_BRANCH_LABEL = re.compile(r"label %([-\w.$]+)")


def _copied_loops(llir: Module) -> str | None:
    """What LLVM did to the kernel's loops of run-time trip count that leaves copies of their bodies, read from
    the block names its passes give in the branches: runtime unrolling and peeling (`.epil.preheader`,
    `.prol.preheader`, `.unr-lcssa`, `.peel.next`), loop unswitching (`.us`: one copy of the loop for each
    value of a condition that does not change in it). None when the LLIR shows neither."""
    found = []
    for op in llir.ops:
        if op.op != "br":
            continue
        for label in _BRANCH_LABEL.findall(op.text):
            parts = label.split(".")
            if "us" in parts and "unswitched" not in found:
                found.append("unswitched")
            if ("epil" in parts or "prol" in parts or "unr-lcssa" in parts or "peel" in parts) \
                    and "unrolled or peeled" not in found:
                found.append("unrolled or peeled")
    return " and ".join(sorted(found, reverse=True)) or None


def _unlocated(unlocated: list[AccessRow], of: int, lined: bool, notes: list[str], cut: bool = False) -> None:
    """Accesses whose TTGIR op names no source line (labelled with their TTGIR line by `_rows`). Where every
    access is so and the later stages have lines (Triton 2.1/2.2 print none into TTIR/TTGIR, only into LLIR and PTX),
    none was joined: say so instead of 'no instruction attributed to 0:0'. Where nothing has a line
    (TRITON_DISABLE_LINE_INFO=1, Triton 2.0) each access shares the kernel's instructions of its kind."""
    for row in unlocated:
        lineno = row.sites[0].op.lineno
        if lined and row.verdict == "unknown" and any(r.code == "no-isa-match" for r in row.reasons):
            row.reasons = [Reason("no-location", f"the TTGIR op (line {lineno}) carries no source location: "
                                                 "its instructions cannot be found by line")]
    if not unlocated or len(unlocated) != of:
        return
    if lined:
        why = "the TTGIR looks cut short: see its note" if cut else "Triton before 2.3 prints none into TTIR and TTGIR"
        notes.append(f"TTGIR: no access carries a source location ({why}): each row is labelled with its TTGIR "
                     "line and joined to no instruction (the later stages' memory instructions are listed below as "
                     "they are located)")
    else:
        notes.append("no access and no instruction carries a source location (TRITON_DISABLE_LINE_INFO=1, or "
                     "Triton 2.0): each row is labelled with its TTGIR line and shares all the kernel's "
                     "instructions of its kind with the other rows of that kind")


def _predict(row: AccessRow, amd: bool = False) -> None:
    site = row.sites[0]
    if row.kind in ("tma_load", "tma_store"):
        row.prediction_note = "a bulk tensor copy (gfx1250's tensor data mover): a wave issues it for the whole " \
            "tile, its descriptor in scalar registers" if "_tdm_" in site.op.op else \
            "a bulk tensor copy: one thread issues it for the whole tile"
        return
    if row.kind == "tmem_copy":
        row.prediction_note = "a shared-to-tensor-memory copy (tcgen05.cp): one thread issues it for the whole tile"
        return
    if row.kind == "mma_shared":
        row.prediction_note = (f"{site.mma_operands or 'its operands'} read by the MMA straight from shared "
                               "memory (matrix descriptors): no register load")
        return
    if row.kind in ("tmem_load", "tmem_store") and site.layout is not None:
        facts = _register_facts(row, site)
        if facts is None:
            return
        load = row.kind == "tmem_load"
        row.prediction_note = (f"tensor memory {'to' if load else 'from'} registers: {facts.elements_per_thread} "
                               f"elements per thread, moved by tcgen05.{'ld' if load else 'st'} in whole 32-bit "
                               "registers (no vector width to predict)")
        return
    if not row.shape:
        row.elements_per_thread = row.contiguous_per_thread = row.distinct_per_thread = 1
        row.predicted_vector_bytes = row.element_bytes
        row.predicted_vectors_per_thread = 1
        row.prediction_note = "a scalar access: one element"
        return
    if site.layout is None:
        row.prediction_note = "no layout on the tensor type"
        return
    facts = _register_facts(row, site)
    if facts is None:
        return
    unknown_shared = getattr(site.shared_layout, "unknown", "")
    if unknown_shared:  # (the shared side bounds an access as the registers do: not decoded, no width known)
        row.contiguous_per_thread = facts.contiguous_per_thread
        row.fastest_dim = facts.fastest_dim
        row.prediction_note = f"the shared layout is not decoded ({unknown_shared})"
        return
    row.contiguous_per_thread = facts.contiguous_per_thread
    row.fastest_dim = facts.fastest_dim
    row.predicted_vector_bytes = facts.vector_bytes
    row.predicted_vectors_per_thread = facts.vectors_per_thread
    limit = _shared_limit(row)
    if limit is not None and limit * row.element_bytes < facts.vector_bytes:
        row.predicted_vector_bytes = max(row.element_bytes, limit * row.element_bytes)
        row.predicted_vectors_per_thread = max(1, facts.elements_per_thread // max(1, limit))
    if amd and row.kind == "atomic" and row.element_bytes and row.predicted_vector_bytes > max(4, row.element_bytes):
        # AMD GPUs have no vector atomics: one element an instruction (`buffer_atomic_add_f32`), a pair of
        # 16-bit values at most (`global_atomic_pk_add_f16`)
        per = max(4, row.element_bytes)
        row.predicted_vector_bytes = per
        row.predicted_vectors_per_thread = max(1, facts.elements_per_thread * row.element_bytes // per)
        row.prediction_note = (f"{AMD_ATOMICS}: {per} bytes an instruction at most (one element"
                               + (", or a pair of 16-bit values)" if row.element_bytes < 4 else ")"))


# describe() per (layout, shape, element width, release semantics), kept for the process: the variants of
# an autotuned kernel repeat a few layouts (454 real entries: 2,640 calls, 194 distinct; 5% of a snapshot).
_FACTS: dict = {}
_FACTS_MAX = 4096


def _described(layout, shape: tuple[int, ...], element_bits: int):
    key = (layout, shape, element_bits, releases.active().basis)
    try:
        facts = _FACTS.get(key)
    except TypeError:  # a layout with an unhashable field: not kept
        return describe(layout, shape, element_bits)
    if facts is None:
        facts = describe(layout, shape, element_bits)  # (an error is raised again on every call)
        if len(_FACTS) >= _FACTS_MAX:
            _FACTS.clear()
        _FACTS[key] = facts
    return facts


def _register_facts(row: AccessRow, site):
    """The register layout's numbers for the row (elements, distinct ones, threads), or None with a note."""
    try:
        facts = _described(site.layout, tuple(row.shape), row.element_bits)
    except (TritonscopeError, ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
        row.prediction_note = f"layout not modelled: {exc}"
        return None
    row.elements_per_thread = facts.elements_per_thread
    row.distinct_per_thread = facts.distinct_per_thread
    row.threads = facts.warp_size * facts.num_warps * max(1, facts.num_ctas)
    row.ctas = max(1, facts.num_ctas)
    if row.ctas > 1:
        row.cta_elements = prod(shape_in_cta(facts.bases, tuple(row.shape)))
    row.warp_size = facts.warp_size
    return facts


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
    if getattr(shared, "kind", None) == "nvmma_shared" and len(row.shape) >= 2:
        # Triton's getOrder: the last dim runs first, the one before it when `transposed` (an unswizzled
        # layout ignored `transposed` up to 3.7); a swizzled one keeps 16-byte chunks contiguous
        from tritonscope.layouts import releases

        rank = len(row.shape)
        transposed = shared.transposed and (shared.swizzling_byte_width > 0
                                            or releases.active().has("nvmma-unswizzled-transposed"))
        order = (rank - 2,) if transposed else (rank - 1,)
        vec = max(1, 128 // shared.element_bit_width) if shared.swizzling_byte_width else 1 << 30
        if shared.fp4_padded:  # (each 8 bytes of packed fp4 take 16 in shared memory, for the MMA's operand)
            run = max(1, 64 // row.element_bits)
            if run < (row.contiguous_per_thread or 1):
                row.prediction_note = (f"#{site.shared_layout_name} pads packed fp4 (fp4Padded): every 8 bytes take "
                                       "16 in shared memory, so 8 bytes are contiguous there")
                return run
    if getattr(shared, "kind", None) == "padded_shared" and not bases and order:
        # (written by its order and shape: a row along order[0] runs unswizzled up to the first padding)
        vec = min((i for i, _ in shared.intervals), default=1 << 30)
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
        if (row.contiguous_per_thread or 1) > 1:  # (a register run of one is the register layout's doing)
            row.prediction_note = (f"#{site.shared_layout_name} keeps dim {order[0]} contiguous, the registers "
                                   f"run along dim {row.fastest_dim}: one element per shared access")
        return 1
    # Without swizzling (maxPhase 1) a whole row is contiguous, whatever `vec` says.
    # (a run of 16 bytes or more limits nothing: no access is wider)
    if getattr(shared, "max_phase", 2) > 1 and vec < (row.contiguous_per_thread or 1) \
            and vec * row.element_bytes < 16:
        row.prediction_note = f"#{site.shared_layout_name} swizzles in groups of vec={vec} elements"
        return vec
    return None


def _where(op) -> str | None:
    """An op's line as a row names its own: `505` in the kernel, `505 @ 1746` inlined from a helper (its own
    line, then the kernel's call), None where it has none."""
    if not (op.loc and op.loc.known):
        return None
    chain = op.loc.chain()
    if len(chain) == 1:
        return str(chain[0].line)
    return f"{chain[0].line} @ {chain[-1].line}"


def _uniform(op) -> bool:
    """A load of one value for the whole tensor (its result is no tensor)."""
    return "tensor<" not in op.text.split(" loc(")[0].rpartition(" : ")[2]


def _alignment(row: AccessRow, graph: ValueGraph) -> None:
    """The facts that decide the row's alignment: the compiler's own attributes on the access, and each kernel
    argument its address uses, with the factor every use carries (`multiple`). Over every copy of the access
    in the same calls: an unrolled `tl.static_range` copy `i` adds `i * stride`, and the copies the first does
    not show (`0 * stride` folded away) decide their own widths (helper 116); an argument is as aligned as its
    least multiple over them."""
    site = row.sites[0]
    facts: list[dict] = []
    for name, value in site.attrs.items():
        facts.append({"value": site.op.op, "attr": name, "n": value})
    if site.address:
        ops, args = graph.slice(site.address)
        load_factors: dict[int, int] = {}
        multiples, loads = graph.multiples(site.address, load_factors=load_factors)
        for other in row.sites[1:]:
            if other.address and other.calls == site.calls and other.address != site.address:
                more_ops, more_args = graph.slice(other.address)
                their, _ = graph.multiples(other.address)
                listed = {id(op) for op in ops}
                ops = ops + [op for op in more_ops if id(op) not in listed]
                names = {a.name for a in args}
                args = args + [a for a in more_args if a.name not in names]
                for name, m in their.items():  # (as `multiples` joins the paths of one address: their gcd)
                    multiples[name] = gcd(m, multiples[name]) if name in multiples else m
        for a in sorted(args, key=lambda a: a.name):
            entry: dict = {"value": a.name, "type": a.type}
            entry.update({k: v for k, v in a.attrs.items()})
            if a.name in multiples:  # (an argument reached only through a loaded value has no entry)
                entry["multiple"] = multiples[a.name]
            facts.append(entry)
        # a value loaded once for the whole tensor (a row's index, a group's offset) whose terms all carry a
        # factor of 16 bytes shifts the base by whole vectors: no gather (megablocks' `index * NUM_COLUMNS`)
        loads = [op for op in loads if not (_uniform(op) and
                                            load_factors.get(op.lineno, 1) * row.element_bytes % 16 == 0)]
        row.gather = [(_where(op), op.op, _uniform(op)) for op in loads]
        for op in ops:
            for m in re.finditer(r"\b(tt\.divisibility|tt\.contiguity|tt\.constancy)\s*=\s*dense<\[?(\d+)", op.text):
                facts.append({"value": op.text.split("=")[0].strip(), "attr": m.group(1), "n": int(m.group(2))})
    row.alignment = facts


