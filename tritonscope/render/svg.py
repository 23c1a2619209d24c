"""SVG pictures of layouts: the tensor grid, each cell coloured by warp and labelled thread/register.

Self-contained SVG 1.1 (no scripts, no external fonts), so it can go into docs and the HTML report as is.
"""

from __future__ import annotations

from html import escape

from tritonscope.layouts.tensor import to_linear
from tritonscope.layouts.views import LayoutFacts, LayoutGrid, TensorMemoryFacts, layout_grid, tmem_grid
from tritonscope.render.layout import WARP_COLOURS, cell_colour, cell_lines, x

CELL_W, CELL_H = 46, 30
MARGIN_LEFT, MARGIN_TOP = 44, 86


def layout_svg(layout, facts: LayoutFacts | TensorMemoryFacts, max_rows: int = 32, max_cols: int = 32,
               title: str | None = None) -> str:
    """The picture of `layout` for facts.shape (the HTML report and `layout --svg` call this)."""
    ll = to_linear(layout, facts.shape, facts.element_bits)
    make = tmem_grid if isinstance(facts, TensorMemoryFacts) else layout_grid
    grid = make(ll, facts, max_rows=max_rows, max_cols=max_cols)
    text = title or (getattr(layout, "text", None) or layout.to_text())
    return grid_svg(grid, facts, text)


def grid_svg(grid: LayoutGrid, facts: LayoutFacts | TensorMemoryFacts, title: str) -> str:
    n_rows, n_cols = len(grid.rows), len(grid.cols)
    width = MARGIN_LEFT + n_cols * CELL_W + 10
    legend_h = 24 if not grid.shared else 0
    height = MARGIN_TOP + n_rows * CELL_H + 16 + legend_h
    width = max(width, 420)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="8" y="16" font-size="12" font-weight="bold">{escape(_clip(title, width // 7))}</text>',
    ]
    sub = (
        f"{x(facts.shape)}, {facts.element_bits}-bit: CTA tile {x(facts.cta_tile)}, {facts.rounds} round(s), "
        f"{facts.elements_per_thread} elements/thread, {facts.vectors_per_thread} x {facts.vector_bytes} B vectors"
    ) if not grid.tensor_memory else (
        f"{x(facts.shape)}, {facts.element_bits}-bit, tensor memory: {facts.lanes_holding} lanes, "
        f"{facts.columns} 32-bit columns; cells show each element's lane and column"
    )
    if grid.shared:
        sub = f"{x(facts.shape)}, {facts.element_bits}-bit, shared memory: cells show the offset of each element"
    out.append(f'<text x="8" y="33" font-size="11" fill="#333">{escape(sub)}</text>')
    if grid.note:
        out.append(f'<text x="8" y="49" font-size="10" fill="#666">folded: {escape(grid.note)}</text>')
    out.append(f'<text x="{MARGIN_LEFT}" y="{MARGIN_TOP - 16}" font-size="10" fill="#333">{grid.col_label} →</text>')
    out.append(f'<text x="4" y="{MARGIN_TOP - 4}" font-size="10" fill="#333">{grid.row_label} ↓</text>')
    for j, c in enumerate(grid.cols):
        cx = MARGIN_LEFT + j * CELL_W + CELL_W / 2
        out.append(f'<text x="{cx:g}" y="{MARGIN_TOP - 4}" font-size="9" text-anchor="middle" fill="#555">{c}</text>')
    for i, (r, row) in enumerate(zip(grid.rows, grid.cells, strict=True)):
        y = MARGIN_TOP + i * CELL_H
        out.append(
            f'<text x="{MARGIN_LEFT - 4}" y="{y + CELL_H / 2 + 3:g}" font-size="9" text-anchor="end" '
            f'fill="#555">{r}</text>'
        )
        for j, cell in enumerate(row):
            cx = MARGIN_LEFT + j * CELL_W
            owner = cell.first
            fill = "#eeeeee" if owner is None else cell_colour(grid, owner)
            top, bottom = cell_lines(grid, cell)
            tip = escape(f"({', '.join(map(str, cell.coord))}): " + "; ".join(_where(grid, o) for o in cell.owners))
            out.append(
                f'<g><title>{tip}</title><rect x="{cx}" y="{y}" width="{CELL_W - 1}" height="{CELL_H - 1}" '
                f'fill="{fill}" stroke="#ffffff"/>'
            )
            if not bottom:
                out.append(
                    f'<text x="{cx + CELL_W / 2:g}" y="{y + 18}" font-size="10" '
                    f'text-anchor="middle">{escape(top)}</text></g>'
                )
            else:
                out.append(
                    f'<text x="{cx + CELL_W / 2:g}" y="{y + 13}" font-size="10" text-anchor="middle" '
                    f'font-weight="bold">{escape(top)}</text>'
                )
                out.append(
                    f'<text x="{cx + CELL_W / 2:g}" y="{y + 25}" font-size="9" text-anchor="middle" '
                    f'fill="#333">{escape(bottom)}</text></g>'
                )
    if grid.tensor_memory:
        y = MARGIN_TOP + n_rows * CELL_H + 14
        out.append(f'<text x="8" y="{y}" font-size="10" fill="#333">L&lt;lane&gt;, c&lt;32-bit column&gt;; '
                   f"colour = lane quarter (the warp of a warpgroup that reaches it):</text>")
        for q in range(4):
            lx = 8 + q * 64
            out.append(
                f'<rect x="{lx}" y="{y + 6}" width="60" height="12" fill="{WARP_COLOURS[q]}"/>'
                f'<text x="{lx + 30}" y="{y + 16}" font-size="9" text-anchor="middle">{32 * q}-{32 * q + 31}</text>'
            )
    elif not grid.shared:
        y = MARGIN_TOP + n_rows * CELL_H + 14
        out.append(
            f'<text x="8" y="{y}" font-size="10" fill="#333">T&lt;thread&gt; (warp*{grid.warp_size}+lane), '
            f"r&lt;register&gt;; colour = warp:</text>"
        )
        for w in range(min(facts.num_warps, 12)):
            lx = 8 + w * 34
            out.append(
                f'<rect x="{lx}" y="{y + 6}" width="30" height="12" fill="{WARP_COLOURS[w]}"/>'
                f'<text x="{lx + 15}" y="{y + 16}" font-size="9" text-anchor="middle">w{w}</text>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _where(grid: LayoutGrid, o: tuple[int, ...]) -> str:
    """One place of a cell, in words (its tooltip)."""
    if grid.tensor_memory:
        bit = f" from bit {o[3]}" if o[3] else ""
        return f"lane {o[1]} column {o[2]}{bit}" + (f" block {o[0]}" if o[0] else "")
    if grid.shared:
        return f"offset {o[1]}"
    return f"warp {o[1]} lane {o[2]} reg {o[3]}" + (f" block {o[0]}" if o[0] else "")


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: max(0, n - 1)] + "…"
