"""`tritonscope layout`: decode TTGIR layouts into Triton's linear-layout model, in numbers and pictures."""

from __future__ import annotations

import dataclasses

import click

from tritonscope.cli.common import Selection, emit_json, json_option, selection_options


@dataclasses.dataclass(frozen=True, slots=True)
class LayoutQuery:
    """What `layout` was asked for one layout: the tensor it lays out, what to show, where to draw it."""

    shape_text: str | None = None  # --shape 64x256 (None: the layout's CTA tile)
    shape_of_use: bool = False  # shape_text is a use's in the TTGIR (Triton's own), not the user's
    dtype: str | None = None
    warp_size: int | None = None
    num_warps: int | None = None
    element: str | None = None  # --element 3,17: who holds it
    thread: int | None = None  # --thread / --warp / --block: what it holds
    warp: int | None = None
    block: int = 0
    svg_path: str | None = None
    png_path: str | None = None
    max_rows: int = 64
    max_cols: int = 64
    no_picture: bool = False
    as_json: bool = False


def _is_attribute(text: str | None) -> bool:
    return bool(text) and (text.lstrip().startswith("#") or "<" in text)


def _dtype_bits(dtype: str) -> int:
    """The width of --dtype's element type, or a usage error naming it."""
    from tritonscope.errors import UsageError
    from tritonscope.layouts.attrs import dtype_bits

    bits = dtype_bits(dtype)
    if bits is None:
        raise UsageError(f"--dtype {dtype}: unknown element type (f16, bf16, f32, f64, i8, i16, i32, i64, ...)")
    return bits


def _parse_ints(text: str, what: str, sep: str) -> tuple[int, ...]:
    from tritonscope.errors import UsageError

    parts = text.replace(" ", "").split(sep)
    try:
        if "" in parts:  # (`64xx64`, `64x`: a field left out is no dim to drop)
            raise ValueError
        return tuple(int(v) for v in parts)
    except ValueError:
        raise UsageError(f"{what}: expected integers separated by '{sep}', got {text!r}") from None


@click.command("layout")
@selection_options(metavar="KERNEL|ATTRIBUTE")
@click.option("--shape", "shape_text", default=None, metavar="AxB", help="Tensor shape, e.g. 64x256.")
@click.option(
    "--dtype", "dtype", default=None, metavar="T", help="Element type, e.g. f16, bf16, f32, i8 (default f16)."
)
@click.option("--warp-size", "warp_size", type=int, default=None, help="Check the layout's lanes per warp (32, 64).")
@click.option("--num-warps", "num_warps", type=int, default=None, help="Check the layout's warps per CTA.")
@click.option("--alias", "alias", default=None, metavar="NAME", help="Only this layout alias of KERNEL (blocked2).")
@click.option("--element", "element", default=None, metavar="I,J", help="Which thread(s) hold element (I, J).")
@click.option(
    "--thread",
    "thread",
    type=int,
    default=None,
    metavar="N",
    help="What lane N holds (with --warp; or a thread id warp*warp_size+lane when --warp is absent).",
)
@click.option("--warp", "warp", type=int, default=None, metavar="W", help="Warp of --thread.")
@click.option("--block", "block", type=int, default=0, show_default=True, help="CTA of --thread in a CGA.")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), default=None, help="Write the picture as SVG.")
@click.option(
    "--png",
    "png_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the picture as PNG (standard library encoder, 3x5 pixel labels).",
)
@click.option("--max-rows", type=int, default=64, show_default=True, help="Rows of the picture before folding.")
@click.option("--max-cols", type=int, default=32, show_default=True, help="Columns of the picture before folding.")
@click.option("--no-picture", is_flag=True, help="Numbers and bases only.")
@click.option("--triton-version", "triton_version", default=None, metavar="X.Y",
              help="Decode as this Triton release does (default: the release recorded in KERNEL's metadata, "
              "or for 2.0-3.2 metadata, which names none, the release its fields show; for an attribute, the "
              "newest known). Releases differ, e.g. up to 3.8 a blocked layout keeps the registers that repeat "
              "an element of a tensor smaller than its tile; every release from 2.2 is checked against its own "
              "code generator.")
@json_option
def layout_cmd(
    sel: Selection,
    shape_text: str | None,
    dtype: str | None,
    warp_size: int | None,
    num_warps: int | None,
    alias: str | None,
    element: str | None,
    thread: int | None,
    warp: int | None,
    block: int,
    svg_path: str | None,
    png_path: str | None,
    max_rows: int,
    max_cols: int,
    no_picture: bool,
    triton_version: str | None,
    as_json: bool,
) -> None:
    """Decode a layout attribute, or every layout of KERNEL's TTGIR, into Triton's linear layout.

    \b
    layout '#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2],
            order = [0, 1]}>' --shape 64x256 --dtype f16
    layout '#ttg.blocked<{...}>' --shape 64x256 --element 3,17     which thread holds (3, 17)
    layout '#ttg.blocked<{...}>' --shape 64x256 --thread 5 --warp 1
    layout KERNEL                 every layout alias of KERNEL's TTGIR, its uses and source lines;
                                  for a Gluon kernel first each layout its source writes, beside
                                  the one the compiler resolved
    layout KERNEL --alias blocked2 --shape 64x64 --svg blocked2.svg
    """
    from tritonscope.errors import UsageError
    from tritonscope.layouts import releases

    kernel = sel.kernel
    asked = releases.from_option(triton_version) if triton_version is not None else None
    if warp is not None and thread is None:
        raise UsageError("--warp goes with --thread")
    if element is not None and thread is not None:
        raise UsageError("--element and --thread are alternatives: give one")
    query = LayoutQuery(
        shape_text=shape_text,
        dtype=dtype,
        warp_size=warp_size,
        num_warps=num_warps,
        element=element,
        thread=thread,
        warp=warp,
        block=block,
        svg_path=svg_path,
        png_path=png_path,
        max_rows=max_rows,
        max_cols=max_cols,
        no_picture=no_picture,
        as_json=as_json,
    )
    for option, path in (("--svg", svg_path), ("--png", png_path)):
        if path:  # (an attribute reads no cache, but the defaults are still caches)
            sel.refuse_output_inside_caches(path, option)
    if _is_attribute(kernel):
        from tritonscope.errors import ParseError
        from tritonscope.layouts.attrs import parse_layout

        if alias is not None:
            raise UsageError("--alias picks a layout of a KERNEL; an attribute was given")
        try:
            layout = parse_layout(kernel)
        except ParseError as exc:  # one line naming the field, not the "<text>" placeholder
            raise ParseError(exc.message, "layout attribute") from None
        with releases.using(asked or releases.DEFAULT):
            _one_layout(kernel, kernel.strip(), None, query, layout=layout)
        return
    _kernel_layouts(sel, alias, asked, query)


def _one_layout(text: str | None, title: str, uses: list | None, q: LayoutQuery, layout=None) -> None:
    from tritonscope.errors import UsageError
    from tritonscope.layouts import releases
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.tensor import to_linear
    from tritonscope.layouts.views import cta_tile, describe, layout_grid
    from tritonscope.render.terminal import color_enabled, make_console

    layout = layout or parse_layout(text)
    shape_text, dtype, warp_size, num_warps = q.shape_text, q.dtype, q.warp_size, q.num_warps
    element, thread, warp, block = q.element, q.thread, q.warp, q.block
    svg_path, png_path, max_rows, max_cols, no_picture = q.svg_path, q.png_path, q.max_rows, q.max_cols, q.no_picture
    semantics = releases.active()
    notes: list[str] = [semantics.sentence()]
    if layout.tensor_memory:
        _tensor_memory_layout(layout, title, uses, q, notes + releases.notes_for(layout, semantics))
        return
    written_bits = layout.element_bit_width if layout.kind == "nvmma_shared" else None
    if dtype is None and written_bits in (8, 16, 32, 64):  # (the layout says its element's width)
        dtype = {8: "i8", 16: "f16", 32: "f32", 64: "f64"}[written_bits]
        notes.append(f"--dtype not given: {written_bits}-bit elements, the layout's elementBitWidth ({dtype} for "
                     "the vector widths)")
    if dtype is None:
        dtype = "f16"
        notes.append("--dtype not given: f16 assumed for the vector widths")
    bits = _dtype_bits(dtype)
    if written_bits is not None and bits != written_bits:
        notes.append(f"--dtype {dtype} is {bits}-bit, the layout's elementBitWidth {written_bits}: its swizzle is "
                     f"for {written_bits}-bit elements (as Triton computes it), the vector widths for {bits}-bit")
    if shape_text is not None:
        shape = _parse_ints(shape_text.lower(), "--shape", "x")
        if not q.shape_of_use:
            _check_pow2_shape(shape, layout)
    elif layout.shared:
        raise UsageError(f"a {layout.kind} layout needs --shape (shared layouts have no tile of their own)")
    else:
        shape = tuple(cta_tile(layout, to_linear(layout, (1,) * (layout.rank or 2), bits)))
        notes.append(f"--shape not given: the layout's CTA tile {'x'.join(map(str, shape))} is used")
    ll = to_linear(layout, shape, bits)
    notes[1:1] = releases.notes_for(layout, semantics, shape, None if layout.shared else cta_tile(layout, ll))
    facts = describe(layout, shape, bits, warp_size, ll=ll)
    if num_warps is not None and not facts.shared and num_warps != facts.num_warps:
        raise UsageError(f"--num-warps {num_warps}: this layout spreads over {facts.num_warps} warp(s)")
    owners = coord = elements = None
    who = ""
    if element is not None:
        coord = _parse_ints(element, "--element", ",")
        owners = ll.owner(coord)
    if thread is not None:
        if facts.shared:
            raise UsageError("--thread: a shared-memory layout is not held by threads")
        lane_of, warp_of = (thread, warp) if warp is not None else (thread % facts.warp_size, thread // facts.warp_size)
        if not 0 <= lane_of < facts.warp_size or not 0 <= warp_of < facts.num_warps or not 0 <= block < facts.num_ctas:
            raise UsageError(
                f"--thread {thread}{'' if warp is None else f' --warp {warp}'}: outside "
                f"{facts.num_warps} warp(s) of {facts.warp_size} lanes"
            )
        elements = ll.elements(block=block, warp=warp_of, lane=lane_of)
        who = f"thread {warp_of * facts.warp_size + lane_of} (warp {warp_of}, lane {lane_of}" + (
            f", block {block})" if facts.num_ctas > 1 else ")"
        )
    grid = None if no_picture and not (svg_path or png_path) else layout_grid(ll, facts, max_rows, max_cols)
    _write_pictures(grid, facts, title, svg_path, png_path)
    if q.as_json:
        facts_json = facts.to_json()
        facts_json.pop("kind")  # `kind` of the document is "layout"; the layout's own kind is layout_kind
        doc = {"layout": title, "layout_kind": layout.kind, "dtype": dtype, **facts_json,
               "semantics": semantics.to_json()}
        if uses is not None:
            doc["uses"] = uses
        if owners is not None:
            doc["element"] = list(coord)
            doc["owners"] = [_owner_json(o, facts) for o in owners]
        if elements is not None:
            doc["thread"] = {
                "block": block,
                "warp": warp_of,
                "lane": lane_of,
                "elements": [{"register": r, "coord": list(c)} for r, c in elements],
            }
        doc["notes"] = notes
        emit_json(doc, "layout")
        return
    from tritonscope.render import layout as render

    console = make_console()
    if owners is not None:
        render.render_owners(owners, console, coord, facts.warp_size, facts.shared)
        return
    if elements is not None:
        render.render_thread(elements, console, who)
        return
    render.render_layout(facts, console, title, dtype, None if no_picture else grid, color_enabled(), notes)


def _tensor_memory_layout(layout, title: str, uses: list | None, q: LayoutQuery, notes: list[str]) -> None:
    """A Blackwell tensor memory layout: lanes and 32-bit columns, not threads; its picture shows each
    element's lane and column."""
    from tritonscope.errors import UsageError
    from tritonscope.layouts.tensor import to_linear
    from tritonscope.layouts.views import describe_tmem, tmem_grid, tmem_places
    from tritonscope.render.terminal import color_enabled, make_console

    if q.thread is not None:
        raise UsageError(f"--thread: a {layout.kind} is held by tensor memory lanes and columns, not threads; "
                         "--element I,J says where an element sits")
    dtype = q.dtype
    if dtype is None:
        dtype = "i8" if layout.kind == "tensor_memory_scales_encoding" else "f32"
        notes.append(f"--dtype not given: {dtype} assumed for the column widths")
    bits = _dtype_bits(dtype)
    if q.shape_text is not None:
        shape = _parse_ints(q.shape_text.lower(), "--shape", "x")
        if not q.shape_of_use:
            _check_pow2_shape(shape, layout)
    else:
        shape = layout.block_shape
        notes.append(f"--shape not given: the layout's block {'x'.join(map(str, shape))} is used")
    ll = to_linear(layout, shape, bits)
    facts = describe_tmem(layout, shape, bits, ll=ll)
    places = coord = None
    if q.element is not None:
        coord = _parse_ints(q.element, "--element", ",")
        places = tmem_places(ll.owner(coord), facts)
    grid = None if q.no_picture and not (q.svg_path or q.png_path) else tmem_grid(ll, facts, q.max_rows, q.max_cols)
    _write_pictures(grid, facts, title, q.svg_path, q.png_path)
    if q.as_json:
        facts_json = facts.to_json()
        facts_json.pop("kind")
        doc = {"layout": title, "layout_kind": layout.kind, "dtype": dtype, **facts_json,
               "semantics": _semantics_json()}
        if uses is not None:
            doc["uses"] = uses
        if places is not None:
            doc["element"] = list(coord)
            doc["places"] = places
        doc["notes"] = notes
        emit_json(doc, "layout")
        return
    from tritonscope.render import layout as render

    console = make_console()
    if places is not None:
        render.render_tmem_places(places, console, coord)
        return
    render.render_tmem_layout(facts, console, title, dtype, notes, None if q.no_picture else grid, color_enabled())


def _semantics_json() -> dict:
    from tritonscope.layouts import releases

    return releases.active().to_json()


def _owner_json(o: tuple[int, ...], facts) -> dict:
    if facts.shared:
        return {"block": o[0], "offset": o[1]}
    return {"block": o[0], "warp": o[1], "lane": o[2], "thread": o[1] * facts.warp_size + o[2], "register": o[3]}


def _write_pictures(grid, facts, title: str, svg_path: str | None, png_path: str | None) -> None:
    if grid is None:
        return
    from tritonscope.cli.common import write_atomically

    if svg_path:
        from tritonscope.render.svg import grid_svg

        write_atomically(svg_path, grid_svg(grid, facts, title))
    if png_path:
        from tritonscope.render.png import grid_png

        write_atomically(png_path, grid_png(grid))


def _kernel_layouts(sel: Selection, alias: str | None, asked, q: LayoutQuery) -> None:
    from tritonscope.layouts import releases

    entry = sel.one()
    for option, path in (("--svg", q.svg_path), ("--png", q.png_path)):
        if path:
            sel.refuse_output_inside_caches(path, option, [entry])
    semantics = asked or releases.for_entry(entry)
    with releases.using(semantics):
        _kernel_layouts_as(sel, entry, alias, semantics, q)


def _kernel_layouts_as(sel: Selection, entry, alias: str | None, semantics, q: LayoutQuery) -> None:
    from tritonscope.errors import TritonscopeError, UsageError
    from tritonscope.layouts.uses import kernel_layout_uses
    from tritonscope.stages import stage_text

    if "ttgir" not in entry.files:
        raise TritonscopeError(f"no TTGIR in this entry (stages: {', '.join(entry.stages) or 'none'})", str(entry.path))
    path = entry.stage_path("ttgir")
    table = kernel_layout_uses(stage_text(entry, "ttgir"), str(path))
    if alias is not None:
        name = alias.lstrip("#")
        table = [a for a in table if a.name == name]
        if not table:
            names = ", ".join(a.name for a in kernel_layout_uses(stage_text(entry, "ttgir"), str(path)) if a.defined_at)
            raise UsageError(f"--alias {alias}: no such layout alias in this TTGIR (aliases: {names})")
        one = table[0]
        if q.shape_text is None and one.uses:
            # the largest tensor; of several that large, a dot's (an MFMA accumulator's f32 tile, not the i1
            # mask of the same shape that came first), else one a memory op moves (a loaded f16 tile, not its
            # i32 offsets), else the one most ops carry
            use = max(one.uses, key=lambda u: (_elements(u.shape), _role(u.ops), len(u.ttgir_lines)))
            q = dataclasses.replace(q, shape_text="x".join(map(str, use.shape)), dtype=q.dtype or use.access_dtype,
                                    shape_of_use=True)
        _one_layout(
            None,
            f"#{one.name} = {one.layout.text or one.layout.to_text()}",
            [_use_json(u, one.layout, None) for u in one.uses],
            q,
            layout=one.layout,
        )
        return
    for key in ("shape_text", "element", "thread", "svg_path", "png_path"):
        if getattr(q, key) is not None:
            flag = key.replace("_path", "").replace("_text", "").replace("_", "-")
            raise UsageError(f"--{flag} needs one layout: add --alias NAME")
    reports = [_alias_json(a, q.warp_size) for a in table]
    gluon = entry.language == "gluon"
    written = _written(entry, stage_text(entry, "ttgir"), str(path), sel.finder()) if gluon else None
    tmem = entry.tmem_columns  # the columns Triton's TMEM allocation pass gave the kernel (Blackwell)
    allocs = [u["facts"]["columns"] for a in reports for u in a["uses"]
              if u["facts"] and u["facts"].get("tensor_memory") for op in u["ops"] if op.endswith(".tmem_alloc")]
    if q.as_json:
        doc = {"kernel": entry.name, "hash": entry.hash, "ttgir": str(path), "language": entry.language,
               "semantics": semantics.to_json(), "tmem_columns": tmem,
               "tmem_allocations": {"count": len(allocs), "columns": sum(allocs)} if allocs else None,
               "layouts": reports}
        if written is not None:
            doc["written"] = written
        emit_json(doc, "layout-kernel")
        return
    from tritonscope.render.layout import render_kernel_layouts, render_written_layouts
    from tritonscope.render.terminal import make_console

    console = make_console()
    if written is not None:
        render_written_layouts(written, console, entry.name)
    render_kernel_layouts(reports, console, entry.name, str(path))
    if tmem is not None or allocs:
        from tritonscope.layouts.tmem import TMEM_COLUMNS

        if tmem is None:
            text = "note: the metadata records no tensor memory size"
        elif tmem > TMEM_COLUMNS:
            text = f"note: the metadata records {tmem} tensor memory columns, more than an SM's {TMEM_COLUMNS}"
        else:
            text = (f"note: Triton allocated {tmem} of the SM's {TMEM_COLUMNS} tensor memory columns to this kernel "
                    f"(tmem_size in its metadata: at most {TMEM_COLUMNS // tmem} of its CTAs hold their tensor "
                    "memory on an SM at once)")
        if allocs:
            total = sum(allocs)
            many = len(allocs) != 1
            text += f"; its {len(allocs)} allocation{'s take' if many else ' takes'} {total} columns"
            if tmem is not None and total > tmem:
                text += ": allocations whose lifetimes do not overlap share columns"
            elif tmem is not None and total < tmem:
                text += ", rounded up to a power of two of at least 32"
        console.print(text, highlight=False, soft_wrap=True)
    console.print(f"note: {semantics.sentence()}", highlight=False, soft_wrap=True)


def _written(entry, ttgir: str, path: str, finder) -> dict:
    """A Gluon kernel: the layouts its source writes against those of its TTGIR."""
    from tritonscope.layouts.gluon import written_in_source

    found = written_in_source(ttgir, path, entry.name, finder, entry.triton_version, entry.compiled_at)
    source = found.source
    return {"source": source.to_json() if source is not None else None, "error": found.error,
            "layouts": found.resolutions_json(), "notes": found.notes}


_DOT_OPS = ("tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")
_MEMORY_OP_WORDS = ("load", "store", "local_alloc", "atomic", "async_copy", "tmem_alloc")


def _role(ops: list[str]) -> int:
    """2: a dot's operand or result carries the tensor; 1: a memory op moves it; 0: neither."""
    if any(op in _DOT_OPS for op in ops):
        return 2
    return 1 if any(w in op for op in ops for w in _MEMORY_OP_WORDS) else 0


def _elements(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _alias_json(a, warp_size: int | None) -> dict:
    return {
        "name": a.name,
        "alias": a.defined_at is not None,
        "defined_at": a.defined_at,
        "kind": a.layout.kind,
        "text": a.layout.text or a.layout.to_text(),
        "uses": [_use_json(u, a.layout, warp_size) for u in a.uses],
    }


def _use_json(u, layout, warp_size: int | None) -> dict:
    from tritonscope.errors import TritonscopeError
    from tritonscope.layouts.views import facts_for

    doc = {
        "shape": list(u.shape),
        "dtype": u.dtype,
        "access_dtype": u.access_dtype,
        "memory": u.memory,
        "ttgir_lines": u.ttgir_lines,
        "ops": u.ops,
        "source_lines": [{"file": f, "line": n} for f, n in u.source_lines],
        "view_of": list(u.view_of) if u.view_of else None,
    }
    try:
        doc["facts"] = facts_for(layout, u.laid_out, u.access_bits, warp_size).to_json()
    except TritonscopeError as exc:
        doc["facts"] = None
        doc["error"] = str(exc)
    return doc


def _check_pow2_shape(shape: tuple[int, ...], layout) -> None:
    """Triton's tensors have power-of-two dims (its linear layouts assert so); a memdesc's leading dims, its
    buffers (`5x64x128` for five pipeline stages), may be any number."""
    from tritonscope.errors import UsageError

    if not (layout.shared or layout.tensor_memory) and layout.rank and len(shape) != layout.rank:
        return  # (the rank that does not match is said by the conversion)
    memory = layout.shared or layout.tensor_memory
    rank = layout.rank or (2 if memory else len(shape))  # (an NVMMA layout prints no rank below 3: it is 2-D)
    own = shape[-rank:] if memory else shape
    bad = [n for n in own if n & (n - 1)]
    if bad:
        raise UsageError(f"--shape {'x'.join(map(str, shape))}: {bad[0]} is not a power of two (Triton's tensors, and "
                         "a memory layout's own dims, are; only a memdesc's leading buffer dims may be any number)")
