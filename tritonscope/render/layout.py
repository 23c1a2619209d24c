"""`tritonscope layout` output: the derived numbers in words, the bases, and the tensor grid coloured by warp."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from tritonscope.layouts.gluon import ONE_OF, one_of
from tritonscope.layouts.tmem import TMEM_COLUMNS
from tritonscope.layouts.views import LayoutFacts, LayoutGrid, TensorMemoryFacts

# Background per warp (cycled), dark text on top: readable on light and dark terminals.
WARP_COLOURS = [
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#fdb462",
    "#b3de69",
    "#fccde5",
    "#d9d9d9",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
]


def x(shape) -> str:
    return "x".join(str(s) for s in shape)


def facts_sentences(f: LayoutFacts, dtype: str) -> list[str]:
    """The numbers in plain words, one sentence per line."""
    if f.shared:
        return [
            f"a {x(f.shape)} {dtype} tensor in shared memory ({f.element_bits}-bit elements), {f.num_ctas} CTA(s)",
            f"offsets run along dim {f.fastest_dim} first: {f.contiguous_per_thread} consecutive elements "
            f"({f.contiguous_per_thread * f.element_bits // 8} bytes) before the swizzle or the next row moves",
            *(["padding: " + ", ".join(f"{p} element{'s' if p != 1 else ''} after every {i}" for i, p in f.padding)
               + " (the offsets shown include it)"] if f.padding else []),
        ]
    per_round = max(1, f.elements_per_thread // max(1, f.rounds))
    lines = [
        f"a {x(f.shape)} {dtype} tensor ({f.element_bits}-bit elements) over {f.num_warps} warp(s) of "
        f"{f.warp_size} lanes" + (f", {f.num_ctas} CTAs" if f.num_ctas > 1 else ""),
        f"a CTA covers {x(f.cta_tile)} per round; each thread holds {f.contiguous_per_thread} contiguous "
        f"element{'s' if f.contiguous_per_thread != 1 else ''} along dim {f.fastest_dim} per round "
        + (f"({per_round} per round in all) " if per_round != f.contiguous_per_thread else "")
        + f"and {f.rounds} round{'s' if f.rounds != 1 else ''}"
        f"{' (' + ' x '.join(map(str, f.rounds_per_dim)) + ' per dim)' if f.rounds > 1 and len(f.shape) > 1 else ''}"
        f": {f.elements_per_thread} element{'s' if f.elements_per_thread != 1 else ''}, "
        f"{f.vectors_per_thread} vector{'s' if f.vectors_per_thread != 1 else ''} of {f.vector_bytes} "
        f"byte{'s' if f.vector_bytes != 1 else ''}",
    ]
    if f.replicated:
        copies = f.slots // max(1, f.distinct_elements)
        where = ", ".join(f"{n} {k}" for k, n in f.broadcast_bases.items() if n)
        lines.append(
            f"replicated: {f.replicated} of {f.slots} register slots hold copies "
            f"(each element held {copies} times; broadcast bases: {where or 'none'})"
        )
    else:
        lines.append("no replication: every element is held by exactly one thread")
    return lines


def _dims(ds: list[int]) -> str:
    return "dim " + ", ".join(map(str, ds)) if ds else "no dim"


def tmem_summary(f: dict) -> str:
    """One line for a kernel's listing: `tensor memory: 128 lanes x 128 columns, 2 buffers: 256 of 512 columns`."""
    text = f"tensor memory: {f['lanes_holding']} lanes x {f['columns_per_buffer']} 32-bit columns"
    if f["buffers"] > 1:
        text += f" x {f['buffers']} buffers"
    return text + f" = {f['columns']} of the SM's {TMEM_COLUMNS} columns" + (
        f" (in each of {f['num_ctas']} CTAs)" if f["num_ctas"] > 1 else "") + (
        ": more than the SM has" if f["columns"] > TMEM_COLUMNS else "")


def tmem_sentences(f: TensorMemoryFacts, dtype: str) -> list[str]:
    lines = [f"a {x(f.shape)} {dtype} tensor in tensor memory ({f.element_bits}-bit elements)"
             + (f", {f.num_ctas} CTAs" if f.num_ctas > 1 else "")]
    lanes = f"lanes run along {_dims(f.lanes_carry)}: {f.lanes_holding} of {f.lanes} lanes hold data"
    if f.repeated_lanes:
        lanes += "; repeated at lane " + ", ".join(f"+{r}" for r in f.repeated_lanes) + " (in other warps' quarters)"
    lines.append(lanes)
    slot = f.element_bits * f.element_units
    if f.elements_per_column > 1:
        packing = f"{f.elements_per_column} elements packed in each 32-bit column"
    elif slot == 32:
        packing = "one element per 32-bit column" + (f" (colStride {f.element_units}: unpacked)"
                                                       if f.element_units > 1 else "")
    else:
        packing = f"each element spans {slot // 32} columns"
    lines.append(f"columns run along {_dims(f.columns_carry)}: {f.columns_per_buffer} columns, {packing}")
    budget = f"{f.columns} of the SM's {TMEM_COLUMNS} columns"
    if f.buffers > 1:
        budget += f" ({f.buffers} buffers side by side)"
    if f.columns > TMEM_COLUMNS:  # (a layout given by hand: Triton's allocator refuses it)
        budget += ": more than the SM has, so no kernel can allocate it"
    lines.append(budget)
    return lines


def _numbers(console: Console, title: str, sentences: list[str], notes: list[str], bases: dict,
             bases_title: str) -> None:
    """The title, the facts in words, the notes, then the bases: the top of every `layout` answer."""
    console.print(Text(title, style="bold"))
    for line in sentences:
        console.print("  " + line, markup=False)
    for n in notes:
        console.print("  note: " + n, markup=False)
    console.print(bases_title, markup=False)
    for line in bases_lines(bases):
        console.print(line, markup=False)


def render_tmem_layout(f: TensorMemoryFacts, console: Console, title: str, dtype: str, notes: list[str],
                       grid: LayoutGrid | None = None, colour: bool = False) -> None:
    _numbers(console, title, tmem_sentences(f, dtype), notes, f.bases,
             "linear layout bases (dim0 first; col in units of one element's width):")
    if grid is not None:
        packed = "; packed elements share a column" if f.elements_per_column > 1 else ""
        _picture(console, grid, colour, "cells: L<lane>:<column>, the tensor memory lane and 32-bit column holding "
                 "the element" + (", coloured by lane quarter (the warp of a warpgroup that reaches those 32 lanes)"
                                  if colour else "") + packed + "; +n: n more places")


def _picture(console: Console, grid: LayoutGrid, colour: bool, legend: str) -> None:
    """The legend, how the tensor was folded, and the grid: the bottom of a `layout` answer with a picture."""
    console.print(legend, markup=False)
    if grid.note:
        console.print("folded: " + grid.note, markup=False)
    console.print(grid_text(grid, colour), end="")


def render_tmem_places(places: list[dict], console: Console, coord: tuple[int, ...]) -> None:
    where = "(" + ", ".join(map(str, coord)) + ")"
    if not places:
        console.print(f"element {where} is in no lane of this layout", markup=False)
        return
    for p in places:
        bit = f", bits from {p['bit']}" if p["bit"] else ""
        console.print(f"element {where} is at lane {p['lane']}, column {p['column']}{bit} (block {p['block']})",
                      markup=False)


def bases_lines(bases: dict[str, list[list[int]]]) -> list[str]:
    return [f"  {k:<8} = [{', '.join('[' + ', '.join(map(str, b)) + ']' for b in v)}]" for k, v in bases.items()]


def cell_label(owner: tuple[int, ...] | None, extra: int, warp_size: int, shared: bool,
               tensor_memory: bool = False) -> str:
    if owner is None:
        return "-"
    if tensor_memory:
        label = f"L{owner[1]}:{owner[2]}" if not owner[0] else f"b{owner[0]}L{owner[1]}:{owner[2]}"
    elif shared:
        label = f"@{owner[1]}"
    else:
        block, warp, lane, reg = owner
        label = f"T{warp * warp_size + lane}:{reg}"
        if block:
            label = f"b{block}" + label
    return label + (f"+{extra}" if extra else "")


def grid_cell_label(grid: LayoutGrid, cell) -> str:
    """`cell_label` of a grid's cell: its first owner, and how many more it has."""
    return cell_label(cell.first, len(cell.owners) - 1, grid.warp_size, grid.shared, grid.tensor_memory)


def cell_lines(grid: LayoutGrid, cell) -> tuple[str, str]:
    """A cell's label on two lines for the SVG and PNG pictures: `T5` over `r3` (a thread and its register),
    `L32` over `c1` (a tensor memory lane and column); a shared offset or an empty cell on one."""
    label = grid_cell_label(grid, cell)
    if grid.shared or cell.first is None:
        return label, ""
    top, _, bottom = label.partition(":")
    return top, ("c" if grid.tensor_memory else "r") + bottom


def cell_colour(grid: LayoutGrid, owner: tuple[int, ...]) -> str:
    """A cell's colour: its warp (registers), its group of 8 offsets (shared memory), its lane quarter (tensor
    memory: the warp of a warpgroup that reaches those 32 lanes)."""
    key = owner[1] // 32 if grid.tensor_memory else owner[1] // 8 if grid.shared else owner[1]
    return WARP_COLOURS[key % len(WARP_COLOURS)]


def grid_text(grid: LayoutGrid, colour: bool) -> Text:
    """The grid as rich Text: one cell per element, `T<thread>:<register>` on the warp's colour."""
    labels = [[grid_cell_label(grid, c) for c in row] for row in grid.cells]
    width = max([len(lbl) for row in labels for lbl in row] + [len(str(grid.cols[-1])) if grid.cols else 1])
    row_w = max(len(grid.row_label), len(str(grid.rows[-1])) if grid.rows else 1)
    out = Text()
    out.append(
        f"{grid.row_label:>{row_w}} " + " ".join(f"{c:>{width}}" for c in grid.cols) + f"  <- {grid.col_label}\n",
        style="bold",
    )
    for r, row, cells in zip(grid.rows, labels, grid.cells, strict=True):
        out.append(f"{r:>{row_w}} ", style="bold")
        for i, (lbl, cell) in enumerate(zip(row, cells, strict=True)):
            style = None
            if colour and cell.first is not None:
                style = f"black on {cell_colour(grid, cell.first)}"
            out.append(f"{lbl:>{width}}", style=style)
            if i + 1 < len(row):
                out.append(" ")
        out.append("\n")
    return out


def render_layout(
    facts: LayoutFacts,
    console: Console,
    title: str,
    dtype: str,
    grid: LayoutGrid | None,
    colour: bool,
    notes: list[str],
) -> None:
    _numbers(console, title, facts_sentences(facts, dtype), notes, facts.bases, "linear layout bases (dim0 first):")
    if grid is not None:
        legend = (
            "cells: T<thread>:<register>, thread = warp*"
            + str(grid.warp_size)
            + " + lane"
            + (", coloured by warp" if colour else "")
            + "; +n: n more copies elsewhere"
            if not grid.shared
            else "cells: @<offset> within the CTA's shared buffer"
        )
        _picture(console, grid, colour, legend)


def render_owners(
    owners: list[tuple[int, ...]], console: Console, coord: tuple[int, ...], warp_size: int, shared: bool
) -> None:
    where = "(" + ", ".join(map(str, coord)) + ")"
    if not owners:
        console.print(f"element {where} is held by no thread", markup=False)
        return
    if shared:
        for block, offset in owners:
            console.print(f"element {where} is at offset {offset} (block {block})", markup=False)
        return
    console.print(
        f"element {where} is held by {len(owners)} thread slot{'s' if len(owners) != 1 else ''}:", markup=False
    )
    for block, warp, lane, reg in owners:
        console.print(
            f"  block {block} warp {warp} lane {lane} (thread {warp * warp_size + lane}) register {reg}", markup=False
        )


def render_thread(elements: list[tuple[int, tuple[int, ...]]], console: Console, who: str) -> None:
    console.print(f"{who} holds {len(elements)} element{'s' if len(elements) != 1 else ''}:", markup=False)
    for start, end, first, last in register_runs(elements):
        regs = f"r{start}" if start == end else f"r{start}-r{end}"
        span = _coord(first) if first == last else f"{_coord(first)} .. {_coord(last)}"
        console.print(f"  {regs:<10} {span}", markup=False)


def register_runs(elements: list[tuple[int, tuple[int, ...]]]):
    """Consecutive registers whose coordinates step by one along one dim: (r0, r1, first, last)."""
    runs = []
    for reg, coord in elements:
        if runs:
            r0, r1, first, last = runs[-1]
            step = [b - a for a, b in zip(last, coord, strict=True)]
            if (
                reg == r1 + 1
                and sorted(step) == [0] * (len(step) - 1) + [1]
                and (
                    r0 == r1
                    or [b - a for a, b in zip(first, last, strict=True)].index(
                        max(b - a for a, b in zip(first, last, strict=True))
                    )
                    == step.index(1)
                )
            ):
                runs[-1] = (r0, reg, first, coord)
                continue
        runs.append((reg, reg, coord, coord))
    return runs


def _coord(c: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, c)) + ")"


def render_kernel_layouts(reports: list[dict], console: Console, kernel: str, path: str) -> None:
    """Every layout of a kernel: its text, then one line of numbers per (shape, dtype) use and where."""
    console.print(Text(f"{kernel}: {len(reports)} layout{'s' if len(reports) != 1 else ''} in {path}", style="bold"))
    for a in reports:
        head = f"#{a['name']} = {a['text']}" if a["alias"] else f"inline {a['text']}"
        where = f"  (line {a['defined_at']})" if a["defined_at"] else ""
        console.print(Text(head, style="bold cyan"), Text(where), soft_wrap=True)
        if not a["uses"]:
            console.print("  unused by any tensor type", markup=False)
        for u in a["uses"]:
            dtype = u["dtype"] if u["dtype"] == u["access_dtype"] else f"{u['dtype']} (-> {u['access_dtype']})"
            view = f" (a view of a {x(u['view_of'])} allocation: its numbers)" if u.get("view_of") else ""
            console.print(
                f"  {x(u['shape'])} {dtype} in {u['memory']}{view}: {len(u['ttgir_lines'])} op"
                f"{'s' if len(u['ttgir_lines']) != 1 else ''} ({', '.join(sorted(set(u['ops'])))})",
                markup=False,
            )
            f = u.get("facts")
            if f is None:
                console.print(f"    cannot derive the numbers: {u.get('error')}", markup=False)
            elif f.get("tensor_memory"):
                console.print("    " + tmem_summary(f), markup=False)
            elif f["shared"]:
                console.print(
                    f"    shared: {f['contiguous_per_thread']} consecutive elements along dim "
                    f"{f['fastest_dim']} before the next row, swizzle or padding",
                    markup=False,
                )
            else:
                console.print(
                    f"    CTA tile {x(f['cta_tile'])}, {f['rounds']} round{'s' if f['rounds'] != 1 else ''}: "
                    f"{f['elements_per_thread']} elements/thread"
                    + (f" ({f['distinct_per_thread']} distinct)"
                       if f.get("distinct_per_thread", f["elements_per_thread"]) != f["elements_per_thread"] else "")
                    + f", {f['contiguous_per_thread']} contiguous along dim {f['fastest_dim']}, "
                    f"{f['vectors_per_thread']} x {f['vector_bytes']} B vectors"
                    + (f", {f['replicated']} replicated" if f["replicated"] else ""),
                    markup=False,
                )
            lines = u["ttgir_lines"]
            shown = ", ".join(map(str, lines[:12])) + (f", ... ({len(lines)} in all)" if len(lines) > 12 else "")
            console.print(f"    ttgir lines {shown}", markup=False)
            if u["source_lines"]:
                files = {s["file"] for s in u["source_lines"]}
                src = ", ".join(
                    (f"{s['file'].rsplit('/', 1)[-1]}:" if len(files) > 1 else "") + str(s["line"])
                    for s in u["source_lines"][:12]
                )
                prefix = "" if len(files) > 1 else next(iter(files)).rsplit("/", 1)[-1] + " "
                console.print(f"    source {prefix}lines {src}", markup=False)


def held_sentence(f: dict) -> str:
    """`16 elements/thread over 128 threads, each element held by 8 threads (replicated along dim 1)`."""
    if f.get("tensor_memory"):
        return tmem_summary(f)
    if f["shared"]:
        n = f["contiguous_per_thread"]
        return f"in shared memory, {n} consecutive element{'' if n == 1 else 's'} along dim {f['fastest_dim']}"
    n, tpe = f["elements_per_thread"], f["threads_per_element"]
    distinct = f.get("distinct_per_thread", n)
    # a cluster's CTAs (num_ctas > 1) are told of apart: the threads of one CTA, and the CTAs holding an element
    ctas, cta_copies = f.get("num_ctas", 1) or 1, f.get("ctas_per_element", 1) or 1
    threads = f"{f['threads'] // ctas} threads in each of {ctas} CTAs" if ctas > 1 else f"{f['threads']} threads"
    if distinct != n:  # registers repeating an element (a zero register basis): the count of each
        text = (f"{distinct} element{'s' if distinct != 1 else ''}/thread, each in {n // distinct} registers, "
                f"over {threads}, ")
    else:
        text = f"{n} element{'s' if n != 1 else ''}/thread over {threads}, "
    tpe //= cta_copies
    where = "" if ctas == 1 else " of each CTA" if cta_copies == ctas else \
        f" of each of {cta_copies} CTAs" if cta_copies > 1 else " of one CTA"
    if tpe == 1:
        return text + f"each element held by one thread{where}"
    dims = ", ".join(map(str, f["replicated_dims"]))
    along = f" (replicated along dim{'s' if len(f['replicated_dims']) > 1 else ''} {dims})" if dims else ""
    return text + f"each element held by {tpe} threads{where}{along}"


def _line_span(lines: list[int]) -> str:
    """[17, 18, 19, 20, 24] -> '17-20, 24'."""
    out: list[str] = []
    for n in lines:
        if out and n == int(out[-1].split("-")[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def render_written_layouts(doc: dict, console: Console, kernel: str) -> None:
    """A Gluon kernel's layouts as its source writes them, each beside the TTGIR layout it became."""
    from tritonscope.layouts.written import file_name  # (a Gluon kernel's only: `ast` stays out of the start)

    src = doc.get("source") or {}
    name = (src.get("path") or src.get("requested") or "?").rsplit("/", 1)[-1]
    if doc.get("error"):
        console.print(Text(f"{kernel} (Gluon): layouts written in the source: {doc['error']}", style="bold"))
        console.print()
        return
    if src.get("caution"):
        console.print(Text(f"{kernel} (Gluon): {src['caution']}", style="yellow"))
    rows = doc["layouts"]
    others = sorted({file_name(r["written"]["file"]) for r in rows if r["written"].get("file")})
    files = name + (f" and {', '.join(others)} (imported)" if others else "")
    console.print(Text(f"{kernel} (Gluon): {len(rows)} layout{'s' if len(rows) != 1 else ''} written in {files}, "
                       "as written and as resolved", style="bold"))
    for r in rows:
        w = r["written"]
        where = f"{file_name(w['file']) if w.get('file') else name}:{w['line']}"
        console.print(Text(where, style="bold cyan"), Text(f"  {r['source'] or w['text']}"), soft_wrap=True)
        fields = ", ".join(f"{k}={_arg(v)}" for k, v in w["args"].items())
        callee = f"{w['class']}.{w['factory']}" if w.get("factory") else w["class"]
        console.print(f"  written   {callee}({fields})", markup=False, soft_wrap=True)
        if w.get("returned") and w["uses"]:
            console.print(f"            returned by {w['function']}() to lines {_line_span(w['uses'])}", markup=False)
        if not r["resolved"]:
            seen = f": its lines carry {', '.join(r['seen'])}" if r["seen"] else ""
            console.print(f"  resolved  {r['status']}{seen}", markup=False, soft_wrap=True)
            continue
        for i, t in enumerate(r["resolved"]):
            head = "  resolved  " if i == 0 else "            "
            name_text = f"#{t['name']} = {t['text']}" if not t["name"].startswith("#") else t["text"]
            console.print(f"{head}{name_text}", markup=False, soft_wrap=True)
        filled = ", ".join(f"{k}={v}" for k, v in r["filled"].items())
        console.print(f"            {r['status']}" + (f" ({filled})" if filled else "")
                      + (f"; carried by lines {_line_span(r['on_lines'])}" if r["on_lines"] else "")
                      + (f"; {ONE_OF}" if one_of(r) else ""), markup=False)
        for t in r["resolved"]:
            if t.get("facts"):
                view = f" (a view of a {x(t['view_of'])} allocation)" if t.get("view_of") else ""
                console.print(f"            {x(t['shape'])} {t['dtype']}{view}: {held_sentence(t['facts'])}",
                              markup=False)
    for note in doc.get("notes", []):
        console.print(f"note: {note}", markup=False, soft_wrap=True)
    console.print()


def _arg(v) -> str:
    if isinstance(v, dict):
        if v.get("one_of"):  # (a name bound in each branch of an `if`)
            return _arg(v["one_of"][0])
        returned = f"{v['returned_by']}(...)" if v.get("returned_by") else None
        return v.get("name") or returned or v.get("symbol") or v.get("text") or "?"
    if isinstance(v, list):
        return "[" + ", ".join(map(_arg, v)) + "]"
    return str(v)  # (as the source spells it: `two_ctas=True`)
