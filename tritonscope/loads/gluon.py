"""`loads` on a Gluon kernel: the programmer, not the coalesce pass, chose each access's layout. When that
layout caps an access below a full vector (its contiguous run per thread times the element size is under
16 bytes), say where the layout is written and which size_per_thread would give full vectors.

Pure: access rows and the written-vs-resolved layouts (tritonscope.layouts.gluon) in, reasons added.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.attrs import parse_layout
from tritonscope.layouts.gluon import Resolution
from tritonscope.layouts.views import MAX_VECTOR_BYTES
from tritonscope.loads.model import AccessRow, Reason
from tritonscope.loads.verdict import PROPAGATED

# Accesses whose register layout decides the global access width (shared-memory accesses also depend on
# the shared layout, which `loads` explains on its own).
_GLOBAL_KINDS = ("global_load", "global_store", "buffer_load", "buffer_store")


def _written_for(alias: str | None, resolutions: list[Resolution]) -> Resolution | None:
    """The BlockedLayout call whose TTGIR layout is `alias`: one that spells every field out ("as written")
    before one with a symbol (`[SPT]`, which any value matches), else the first in the source."""
    found = [r for r in resolutions if r.written.kind == "blocked" and any(t.name == alias for t in r.resolved)]
    exact = [r for r in found if r.status == "as written"]
    return (exact or found or [None])[0]


def written_layout_reasons(rows: list[AccessRow], resolutions: list[Resolution], source_file: str,
                           unit_dim: Callable[[AccessRow], int | None] | None = None) -> None:
    """Add a `written-layout` reason to each global access whose written layout caps its vectors: its
    size_per_thread along its fastest dim, or (`unit_dim`: the dim along which an access's address steps one
    element at a time) an order whose fastest dim is not the one its addresses run along."""
    name = os.path.basename(source_file)
    for row in rows:
        _written_not_propagated(row, resolutions, name)
        if row.kind not in _GLOBAL_KINDS or not row.shape or row.fastest_dim is None:
            continue
        if unit_dim is not None and _order_across(row, resolutions, name, unit_dim):
            continue
        element_bytes = max(1, row.element_bits // 8)
        run = row.contiguous_per_thread or 1
        if run * element_bytes >= MAX_VECTOR_BYTES:
            continue
        r = _written_for(row.layout, resolutions)
        if r is None or not r.resolved:
            continue
        # (the access's own layout: a written layout may resolve to several)
        own = next((t for t in r.resolved if t.name == row.layout), r.resolved[0])
        spt = getattr(own.layout, "size_per_thread", None)
        if not spt:
            continue
        d = row.fastest_dim
        # (the threads along dim d: a wider size_per_thread than the tensor leaves each of them replicates)
        tpw, wpc = getattr(own.layout, "threads_per_warp", None), getattr(own.layout, "warps_per_cta", None)
        threads = tpw[d] * wpc[d] if tpw and wpc and d < min(len(tpw), len(wpc)) else 1
        want = list(spt)
        want[d] = min(MAX_VECTOR_BYTES // element_bytes, max(1, row.shape[d] // threads))
        written = r.written.args.get("size_per_thread")
        value = f"size_per_thread={_ints(spt)}"
        if written is not None and not isinstance(written, (list, tuple)):
            value = f"size_per_thread={written} (= {_ints(spt)})"
        gain = (f"size_per_thread={_ints(want)} would give {want[d] * element_bytes}-byte vectors where the "
                f"addresses run contiguously along dim {d}")
        if want[d] <= spt[d] and threads > 1 and row.shape[d] // threads <= spt[d] < min(
                MAX_VECTOR_BYTES // element_bytes, row.shape[d]):
            spans = spt[d] * threads
            held = (f"its {threads} threads there x {spt[d]} span {spans}, so its elements are replicated already"
                    if spans > row.shape[d] else
                    f"over the layout's {threads} threads there a wider size_per_thread would replicate them")
            gain = (f"the tensor has {row.shape[d]} elements along dim {d}: {held}; fewer threads along dim {d} "
                    "would give wider vectors")
        elif want[d] <= spt[d]:
            gain = f"the tensor has {row.shape[d]} elements along dim {d}: no wider vector fits"
        row.reasons.append(Reason(
            "written-layout",
            f"{r.written.where(name)} writes {value} for #{row.layout}: {run} contiguous {row.dtype} per thread "
            f"along dim {d}, {run * element_bytes}-byte accesses at most; {gain}"))


def _order_across(row: AccessRow, resolutions: list[Resolution], name: str,
                  unit_dim: Callable[[AccessRow], int | None]) -> bool:
    """A written layout whose order runs each thread's elements along a dim the addresses do not run along
    (`order=[0, 1]` over `xs[:, None] * ynumel + ys[None, :]`): narrower than its layout allows, its addresses
    adjacent along another dim. Says which order and size_per_thread would give vectors; True where said."""
    if row.vector_bytes is None or not row.predicted_vector_bytes or row.vector_bytes >= row.predicted_vector_bytes:
        return False
    u, d = unit_dim(row), row.fastest_dim
    if u is None or u == d or row.shape[u] < 2:
        return False
    r = _written_for(row.layout, resolutions)
    if r is None or not r.resolved:
        return False
    own = next((t for t in r.resolved if t.name == row.layout), r.resolved[0])
    spt, order = getattr(own.layout, "size_per_thread", None), getattr(own.layout, "order", None)
    if not spt or not order or len(order) != len(row.shape):
        return False
    element_bytes = max(1, row.element_bits // 8)
    want = [1] * len(row.shape)
    want[u] = min(MAX_VECTOR_BYTES // element_bytes, row.shape[u])
    new_order = [u, *(o for o in order if o != u)]
    row.reasons.append(Reason(
        "written-layout",
        f"{r.written.where(name)} writes order={_ints(order)} and size_per_thread={_ints(spt)} for #{row.layout}: "
        f"each thread's {row.contiguous_per_thread or 1} contiguous {row.dtype} run along dim {d}, where the "
        f"addresses are not adjacent; they are adjacent along dim {u}: order={_ints(new_order)} with "
        f"size_per_thread={_ints(want)} (threads_per_warp and warps_per_cta covering the tile along it) would give "
        f"{want[u] * element_bytes}-byte vectors"))
    return True


def _written_not_propagated(row: AccessRow, resolutions: list[Resolution], name: str) -> None:
    """A slice, dot-operand or linear layout of a Gluon kernel was written, not propagated by the compiler:
    the `layout-contiguity-1` evidence names where (or says the source wrote it)."""
    for i, reason in enumerate(row.reasons):
        if reason.code != "layout-contiguity-1" or PROPAGATED not in reason.evidence:
            continue
        try:
            layout = parse_layout(row.layout_text or "")
        except TritonscopeError:
            layout = None
        places = sorted({(r.written.file or "", r.written.line, r.written.where(name)) for r in resolutions
                         if layout is not None and any(t.layout == layout for t in r.resolved)})
        mine = [str(line) for file, line, _ in places if not file]
        where = ", ".join(([f"{name}:{', '.join(mine)}"] if mine else []) + [w for file, _, w in places if file])
        where = f": written at {where}" if where else ": in a Gluon kernel the source writes each layout"
        row.reasons[i] = Reason(reason.code, reason.evidence.replace(PROPAGATED, where))


def _ints(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"
