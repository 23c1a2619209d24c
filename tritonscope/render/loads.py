"""The `loads` table and the `--explain` walk-through: words and columns around a LoadsReport, no analysis."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tritonscope.loads.analyze import AccessRow, LoadsReport
from tritonscope.loads.model import STAGE_TITLE, shown_counts
from tritonscope.render.visible import one_line
from tritonscope.stages.common import file_label, same_file

_VERDICT_STYLE = {"as-predicted": "green", "narrower": "yellow", "scalar": "red", "unknown": "dim"}
# TTGIR op (without dialect) -> what the user wrote or what the compiler made of it.
_OP_WORDS = {
    "load": "tl.load", "store": "tl.store", "atomic_rmw": "atomic read-modify-write", "atomic_cas": "atomic CAS",
    "async_copy_global_to_local": "async copy global->shared (from a pipelined tl.load)",
    "insert_slice_async": "async copy global->shared (from a pipelined tl.load)",
    "buffer_load": "AMD buffer load (a tl.load)", "buffer_store": "AMD buffer store (a tl.store)",
    "buffer_load_to_local": "AMD buffer load to LDS (from a pipelined tl.load)",
    "local_load": "shared-memory load", "local_store": "shared-memory store",
    "local_alloc": "shared-memory store (local_alloc of a tensor)",
    "descriptor_load": "tensor-descriptor load", "descriptor_store": "tensor-descriptor store",
    "async_tma_copy_global_to_local": "TMA load", "async_tma_copy_local_to_global": "TMA store",
}


def op_words(op: str) -> str:
    return _OP_WORDS.get(op.split(".", 1)[-1], op)


def forms_text(counts: dict[str, int] | None) -> str:
    if not counts:
        return "-"
    return ", ".join(f"{n}x {form}" for form, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _shape(row: AccessRow) -> str:
    if not row.shape and row.dtype == "?":  # (a type that did not read: no scalar)
        return "?"
    shapes = row.sites[0].mma_shapes if row.kind == "mma_shared" and row.sites else None
    if shapes:  # (an MMA's operands read from shared memory, each its own shape: `A 128x64, B 64x128 f16`)
        return f"{shapes} {row.dtype}"
    return ("x".join(str(d) for d in row.shape) or "scalar") + f" {row.dtype}"


def _prediction(row: AccessRow) -> str:
    if row.predicted_vector_bytes is None:
        return "-"
    return (f"{row.elements_per_thread}/{row.contiguous_per_thread} -> "
            f"{row.predicted_vectors_per_thread}x{row.predicted_vector_bytes}B")


def render_loads(report: LoadsReport, console: Console) -> None:
    title = one_line(f"{report.kernel}  {report.target or '?'}  ({len(report.rows)} accesses; counts per thread)")
    if not report.rows:
        console.print(f"{title}\nno memory accesses in this kernel's TTGIR")
    else:
        table = Table(title=title, title_justify="left", box=None, pad_edge=False)
        isa = report.isa_stage
        columns = ["line:col", "access", "shape", "layout", "mask", "elems/contig -> pred", "LLIR"]
        if isa:
            columns.append(STAGE_TITLE.get(isa, isa))
        if "sass" in report.stages:
            columns.append("SASS")
        columns += ["bytes", "verdict", "reasons"]
        for c in columns:
            table.add_column(c, overflow="fold")
        for r in report.rows:
            access = r.op + (f" (x{r.instances})" if r.instances > 1 else "")
            cells: list = [r.where, access, _shape(r), r.layout or "-",
                           "yes" if r.mask else "-", _prediction(r), forms_text(_counts(r, "llir"))]
            if isa:
                cells.append(forms_text(_counts(r, isa)))
            if "sass" in report.stages:
                cells.append(forms_text(_counts(r, "sass")))
            cells += [f"{r.vector_bytes}/{r.predicted_vector_bytes or '-'}" if r.vector_bytes else "-",
                      Text(r.verdict, style=_VERDICT_STYLE.get(r.verdict, "")),
                      ", ".join(dict.fromkeys(x.code for x in [*r.reasons, *r.count_changes])) or "-"]
            table.add_row(*cells)
        console.print(table)
        evidence = [(r, x) for r in report.rows for x in [*r.reasons, *r.count_changes]]
        if evidence:
            console.print("\nreasons:")
            shared = {r.where for r in report.rows if sum(o.where == r.where for o in report.rows) > 1}
            for r, x in evidence:  # (rows of one position told apart by their op)
                where = f"{r.where} {op_words(r.op)}" if r.where in shared else r.where
                console.print(f"  {where} {x.code}: {x.evidence}", markup=False)
        ambiguous = [r for r in report.rows if r.attribution == "ambiguous"]
        for r in ambiguous:
            console.print(f"  {r.where} attribution ambiguous with {', '.join(r.ambiguous_with)}: "
                          f"shared instructions {_ambiguous_text(r)}", markup=False)
    if report.spills:
        total = sum(s["count"] for s in report.spills if s["stage"] in ("sass", "amdgcn")) or \
            sum(s["count"] for s in report.spills)
        console.print(f"\nspills (local memory: registers spilled to the stack; {total} instructions per thread):")
        for s in report.spills:
            size = f", {s['bytes']} B each" if s["bytes"] else ""
            console.print(f"  {s['stage']:7} {_line(s['line'], s['col'])}  {s['count']}x {s['instruction']}{size}",
                          markup=False)
    render_no_access(report, console, spills_shown=True)
    for note in report.notes:
        console.print(f"note: {note}", markup=False)


def render_no_access(report: LoadsReport, console: Console, spills_shown: bool = False) -> None:
    """The memory instructions that are no load or store of the kernel's; with `spills_shown`, not the spills
    the list above them gave (every spill was listed twice, burying the rest). Those of one stage and position
    that one op explains (`of`: a device-side TMA descriptor's ten field writes, its copy and ptxas's shared
    loads and stores for them) are one line, its forms folded by their first two words."""
    listed = {(s["stage"], s["line"], s["col"], s["instruction"]) for s in report.spills} if spills_shown else set()
    rest = [u for u in report.unattributed if (u["stage"], u["line"], u["col"], u["form"]) not in listed]
    if not rest:
        return
    what = "layout conversions, reductions, " + ("arguments" if listed else "spills, arguments")
    console.print(f"\nmemory instructions of no access ({what}):")
    kernel_file = next((r.file for r in report.rows if r.file), None)
    groups: dict[tuple, list[dict]] = {}
    for u in rest:
        key = (u["stage"], u["line"], u["col"], u.get("written"), u.get("written_file"), u.get("of")) if u.get("of") \
            else (id(u),)
        groups.setdefault(key, []).append(u)
    for members in groups.values():
        u = members[0]
        at = ""
        if u.get("written"):  # a helper's line: its file named where it is another (as rows' `where` does)
            helper = u.get("written_file")
            other = helper and kernel_file and not same_file(helper, kernel_file)
            at = f"{file_label(helper, kernel_file) + ':' if other else ''}{u['written']} @ "
        of = f": {u['of']}" if u.get("of") else ""
        where = f"line {at}{u['line']}:{u['col']}" if at else _line(u["line"], u["col"])
        console.print(f"  {u['stage']:7} {where}  {_forms(members)}{of}", markup=False)


def _forms(members: list[dict]) -> str:
    """`3x LDS (shared_load)`; several forms whose first two words agree, `10x tensormap.replace.* (8 forms,
    tensormap)`."""
    folded: dict[str, list[dict]] = {}
    for u in members:
        words = u["form"].split(".")
        folded.setdefault(".".join(words[:2]) + ".*" if len(words) > 2 else u["form"], []).append(u)
    out = []
    for head, us in folded.items():
        kinds = ", ".join(dict.fromkeys(x["kind"] for x in us))
        if len(us) == 1:
            out.append(f"{us[0]['count']}x {us[0]['form']} ({kinds})")
        else:
            out.append(f"{sum(x['count'] for x in us)}x {head} ({len(us)} forms, {kinds})")
    return ", ".join(out)


def _line(line: int, col: int) -> str:
    """`line 42:9`; line 0 is no source line (the backend's own code, or a location dropped): said so."""
    return f"line {line}:{col}" if line else "no source line"


_COPIES = {
    "unrolled": "written out in one block, as an unrolled tl.static_range or a Python loop does",
    "pipelined-prologue": "pipeline prologue and loop",
    "pipelined-epilogue": "loop and its peeled last iteration(s)",
    "pipelined-prologue-epilogue": "pipeline prologue, loop and peeled last iteration(s)",
    "copied": "in different loops",
    "float-atomic": "a float atomic max or min, which Triton lowers to two integer atomics, one for "
                    "non-negative values and one for negative ones",
}


def _counts(row: AccessRow, stage: str) -> dict[str, int]:
    return shown_counts(row.stages.get(stage), row.ambiguous.get(stage))


def _ambiguous_text(row: AccessRow) -> str:
    return "; ".join(f"{STAGE_TITLE.get(s, s)} {forms_text(c)}" for s, c in row.ambiguous.items())


def explain_lines(report: LoadsReport) -> list[str]:
    """The walk-through of every row of the report (already filtered to one line), as sentences."""
    out: list[str] = []
    for r in report.rows:
        head = f"{r.where}: one {op_words(r.op)} of a {_shape(r)}"
        head += " tile" if len(r.shape) > 1 else " vector" if r.shape else ""
        if r.instances > 1:
            head += f" ({r.instances} copies in TTGIR: {_COPIES.get(r.copies, 'copied')})"
        out.append(head + _summary(r, report))
        layout = (f"layout #{r.layout}" + (f" = {r.layout_text}" if r.layout_text else "")) if r.layout else \
            "layout not read" if _shape(r) == "?" else "no layout (a scalar)" if not r.shape else "no layout"
        masked = sum(1 for site in r.sites if site.mask is not None)
        mask = "yes" if r.mask else "no"
        if 0 < masked < len(r.sites):  # (the pipeliner masks a peeled or prologue copy of an unmasked access)
            mask += f" ({masked} of its {len(r.sites)} copies: yes)" if not r.mask else \
                f" ({len(r.sites) - masked} of its {len(r.sites)} copies: no)"
        if r.mask and r.source_mask is False:
            mask += " (the pipeliner's: TTIR's access has none)"
        out.append(f"  TTGIR: {r.op}, {layout}"
                   + f"; mask: {mask}" + (", other: yes" if r.other else "")
                   + (f"; eviction {r.eviction}" if r.eviction else "") + (f"; cache {r.cache}" if r.cache else ""))
        if r.predicted_vector_bytes is not None and r.shape:
            words = []
            if r.threads:
                words.append(_threads(r))
            words.append(f"{r.elements_per_thread} elements per thread")
            words.append(f"{r.contiguous_per_thread} contiguous per thread along dim {r.fastest_dim} "
                         f"-> {r.predicted_vector_bytes}-byte vectors")
            words.append(f"expect {r.predicted_vectors_per_thread} vector accesses per thread")
            out.append("  layout: " + "; ".join(words))
        if r.prediction_note:
            out.append(f"  note: {r.prediction_note}")
        # (a shared-memory access's address is the compiler's own allocation: the kernel's arguments, which
        # `alignment` lists for every access of the kernel, decide nothing there)
        facts = [_fact(a) for a in r.alignment] if not r.kind.startswith("shared") else []
        if facts:
            out.append("  alignment the compiler had: " + "; ".join(facts))
        for stage in report.stages:
            counts = r.stages.get(stage)
            if counts:
                widths = r.widths.get(stage, {})
                parts = [f"{n} `{form}`" + (f" ({widths[form]} B each)" if widths.get(form) else "")
                         for form, n in sorted(counts.items(), key=lambda kv: -kv[1])]
                guarded = f", {r.llir_guarded} behind a conditional branch" if stage == "llir" and r.llir_guarded \
                    else ""
                out.append(f"  {STAGE_TITLE.get(stage, stage)}: {', '.join(parts)} per thread{guarded}")
            elif r.ambiguous.get(stage):
                out.append(f"  {STAGE_TITLE.get(stage, stage)}: {forms_text(r.ambiguous[stage])} shared with "
                           f"{', '.join(r.ambiguous_with)} (ambiguous)")
            else:
                out.append(f"  {STAGE_TITLE.get(stage, stage)}: nothing attributed to this access")
        if r.count_changes:  # why the counts differ from stage to stage (moved, merged, unrolled, removed)
            out.append("  between the stages:")
            out.extend(f"    {x.code}: {x.evidence}" for x in r.count_changes)
        verdict = f"  verdict: {r.verdict}"
        if r.vector_bytes:
            verdict += f" ({r.vector_bytes}-byte accesses in {STAGE_TITLE.get(r.vector_stage or '', '?')}"
            predicted = r.predicted_vector_bytes
            if predicted and r.vector_bytes > predicted:  # (wider than a thread's own contiguous elements; a
                # transposing LDS read says why among the reasons)
                verdict += f", wider than the {predicted} the layout's contiguity allows)"
            else:
                verdict += f", the layout allows {predicted})" if predicted else ")"
        out.append(verdict)
        for x in r.reasons:
            out.append(f"    {x.code}: {x.evidence}")
    return out


def _summary(r: AccessRow, report: LoadsReport) -> str:
    """The issue's one-line form: `; 64 threads; 256 elements per thread; 8 contiguous ... per thread`."""
    parts = []
    if r.threads:
        parts.append(_threads(r))
    if r.elements_per_thread is not None and r.shape:
        parts.append(f"{r.elements_per_thread} elements per thread")
        if r.contiguous_per_thread is not None and r.predicted_vector_bytes is not None:
            parts.append(f"{r.contiguous_per_thread} contiguous per thread per round -> "
                         f"{r.predicted_vector_bytes}-byte vectors")
    final = r.vector_stage or report.isa_stage
    counts = r.stages.get(final or "", {})
    if counts:
        parts.append(", ".join(f"{n} {form}" for form, n in sorted(counts.items(), key=lambda kv: -kv[1]))
                     + " per thread")
    return "".join(f"; {p}" for p in parts)


def _fact(a: dict) -> str:
    if "type" in a:
        attrs = ", ".join(f"{k}={v}" for k, v in a.items() if k not in ("value", "type", "multiple"))
        text = f"{a['value']} ({a['type']}): {attrs or 'no tt.divisibility'}"
        if "multiple" not in a:
            text += (" (adds no term to the address: it reaches it only through a loaded value, a comparison or "
                     "select, or a scalar quotient or remainder its value does not scale)")
        elif a["multiple"] > 1:
            text += f" (in multiples of {a['multiple']} elements)"
        return text
    return f"{a['value']}: {a.get('attr')}={a.get('n')}"


def render_explain(report: LoadsReport, console: Console) -> None:
    console.print(one_line(f"{report.kernel}  {report.target or '?'}"), markup=False)
    for line in explain_lines(report):
        console.print(line, markup=False, highlight=False)
    for note in report.notes:
        console.print(f"note: {note}", markup=False)


def _threads(r: AccessRow) -> str:
    """`128 threads`; a cluster's (num_ctas > 1): `128 threads in each of 2 CTAs`."""
    return f"{r.threads} threads" if r.ctas == 1 else f"{r.threads // r.ctas} threads in each of {r.ctas} CTAs"
