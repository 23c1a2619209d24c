"""Facts derived from a layout's linear form: tile, rounds, elements and vectors per thread, replication,
and the folded grid pictures are drawn from. Pure data; render/layout.py turns it into words and pictures."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from math import prod

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.model import AmdMfmaLayout, BlockedLayout, DotOperandLayout, Layout
from tritonscope.layouts.tensor import LinearLayout, to_linear

MAX_VECTOR_BYTES = 16  # the widest load/store one thread issues (128 bits) on NVIDIA and AMD GPUs


@dataclass
class LayoutFacts:
    kind: str
    shape: tuple[int, ...]
    element_bits: int
    shared: bool
    warp_size: int
    num_warps: int
    num_ctas: int
    cta_tile: tuple[int, ...]  # what one CTA covers per round (before wrapping/broadcasting)
    rounds: int  # how many times the CTA tile repeats to cover the tensor (1 when it broadcasts)
    rounds_per_dim: tuple[int, ...]
    elements_per_thread: int  # registers per thread (includes replicated copies)
    distinct_per_thread: int  # of those, registers holding distinct elements (2 ** rank of the register bases)
    fastest_dim: int  # the dim a thread's registers run along first (order[0])
    contiguous_per_thread: int  # consecutive elements along fastest_dim held in consecutive registers
    vector_bytes: int  # widest access for this dtype, capped at MAX_VECTOR_BYTES
    vector_elements: int
    vectors_per_thread: int
    distinct_elements: int  # elements of the tensor
    slots: int  # (block, warp, lane, register) slots; slots - distinct = replicated copies
    replicated: int
    broadcast_bases: dict[str, int] = field(default_factory=dict)  # zero bases per in-dim
    threads: int = 0  # threads the layout spreads over (lanes x warps x CTAs; 0 for shared layouts)
    threads_per_element: int = 1  # distinct threads holding each element (threads_holding_each)
    ctas_per_element: int = 1  # of the CTAs of a cluster (num_ctas > 1), those holding each element
    replicated_dims: tuple[int, ...] = ()  # dims the CTA tile overhangs the tensor along (the copies' cause)
    bases: dict[str, list[list[int]]] = field(default_factory=dict)
    # a padded shared layout's (interval, padding) pairs: `padding` elements after every `interval`
    padding: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict:
        d = asdict(self)
        for k in ("shape", "cta_tile", "rounds_per_dim", "replicated_dims"):
            d[k] = list(d[k])
        d["padding"] = [list(p) for p in self.padding]
        return d


def fastest_dim(layout: Layout, ll: LinearLayout) -> int:
    """order[0] for layouts that print one; otherwise where register 0 (else lane 0) moves."""
    order = getattr(layout, "order", None)
    if order:
        return order[0]
    for in_dim in ("register", "lane", "offset"):
        for b in ll.bases.get(in_dim, []):
            for d, v in enumerate(b):
                if v:
                    return d
    return len(ll.shape) - 1


def contiguous_run(ll: LinearLayout, d: int, in_dim: str = "register") -> int:
    """2**k where the first k bases of in_dim are 1, 2, 4, ... along d and zero elsewhere."""
    run = 1
    for b in ll.bases.get(in_dim, []):
        if b[d] == run and all(v == 0 for i, v in enumerate(b) if i != d):
            run *= 2
        else:
            break
    return run


def span_rank(bases: list[list[int]]) -> int:
    """The rank over GF(2) of `bases` (coordinates combine by XOR): 2**rank distinct coordinates are reached.
    A zero basis adds nothing; so does one that is the XOR of others."""
    pivots: dict[int, int] = {}  # highest set bit -> reduced vector
    for b in bases:
        v = 0
        for c in b:  # pack the coordinates; 32 bits per dim is more than any tensor dim needs
            v = (v << 32) | c
        while v:
            top = v.bit_length() - 1
            if top not in pivots:
                pivots[top] = v
                break
            v ^= pivots[top]
    return len(pivots)


def cta_tile(layout: Layout, ll: LinearLayout, own: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """What one CTA covers in one round; a layout that names no tile (a linear one) covers the part of the
    tensor one CTA holds (`own`, from shape_in_cta; the tensor's shape where not given)."""
    if isinstance(layout, BlockedLayout):
        return tuple(
            s * t * w
            for s, t, w in zip(layout.size_per_thread, layout.threads_per_warp, layout.warps_per_cta, strict=False)
        )
    if isinstance(layout, AmdMfmaLayout):
        tpw = layout.tiles_per_warp or (1,) * layout.rank
        instr = [1] * (layout.rank - 2) + list(layout.instr_shape[:2])
        return tuple(i * t * w for i, t, w in zip(instr, tpw, layout.warps_per_cta, strict=False))
    if ll.natural_tile is not None:
        tile = ll.natural_tile
        if isinstance(layout, DotOperandLayout) and len(tile) >= 2 and len(ll.shape) == len(tile):
            # an operand's warps along the parent's other dim are broadcast copies, not a second K tile
            # (MFMA operands lay the parent's warps out along K, then drop what passes the tensor): K is
            # covered once, by the tensor's K
            k = len(tile) - 1 if layout.op_idx == 0 else len(tile) - 2
            tile = tuple(min(t, ll.shape[k]) if i == k else t for i, t in enumerate(tile))
        return tile
    return own if own is not None else ll.shape


def threads_holding_each(ll: LinearLayout, of: tuple[str, ...] = ("lane", "warp", "block")) -> int:
    """Distinct threads (lane, warp, CTA) holding each element: 2 ** the thread bits whose move a thread's
    registers can undo (a zero basis, or, in a generic linear layout, one alike another thread's or a
    register's; the layout reaches every element alike). `of=("block",)`: the CTAs holding each element,
    the moves of a CTA's own threads undoing nothing (CTAs are told apart by their blocks alone)."""
    inside = [list(b) for x in ("register", "lane", "warp") if x not in of for b in ll.bases.get(x, [])]
    threads = [list(b) for x in of for b in ll.bases.get(x, [])]
    moved = span_rank(inside + threads) - span_rank(inside)
    return 2 ** (len(threads) - moved)


def shape_in_cta(bases: dict[str, list[list[int]]], shape: tuple[int, ...]) -> tuple[int, ...]:
    """The part of `shape` one CTA of a cluster holds: halved along a dim for each block basis that moves
    along it alone (a CGA split); a zero block basis (the CTAs hold copies) or none leaves the shape whole."""
    split = [1] * len(shape)
    for b in bases.get("block", []):
        moved = [i for i, v in enumerate(b) if v]
        if len(moved) == 1:
            split[moved[0]] *= 2
    return tuple(max(1, s // p) for s, p in zip(shape, split, strict=False))


def describe(
    layout: Layout, shape, element_bits: int, warp_size: int | None = None, ll: LinearLayout | None = None
) -> LayoutFacts:
    """The numbers of one layout for one tensor shape and element width (a tensor memory layout has its own:
    describe_tmem; facts_for picks)."""
    if layout.tensor_memory:
        raise TritonscopeError(f"a {layout.kind} is laid out over tensor memory lanes and columns, not threads")
    shape = tuple(shape)
    ll = ll or to_linear(layout, shape, element_bits)
    shared = ll.shared
    lanes = 1 if shared else ll.size("lane")
    if warp_size is not None and not shared and warp_size != lanes:
        raise TritonscopeError(f"--warp-size {warp_size}: this {layout.kind} layout has {lanes} lanes per warp")
    # a CTA of a cluster holds its part of the tensor (a CGA split): its tile and rounds are of that part
    in_cta = shape if shared else shape_in_cta(ll.bases, shape)
    tile = cta_tile(layout, ll, in_cta)
    rounds_per_dim = tuple(max(1, s // t) for s, t in zip(in_cta, tile, strict=False))
    d = fastest_dim(layout, ll)
    own_rank = layout.rank or 2  # (an NVMMA layout prints no rank below 3: it is 2-D)
    if getattr(layout, "order", None) and len(shape) > len(layout.order):
        d += len(shape) - len(layout.order)  # (a multi-buffered memdesc, 2x64x64: the order is one buffer's)
    in_dim = "offset" if shared else "register"
    per_thread = ll.size(in_dim)
    slots = prod(ll.size(x) for x in ll.in_dims)
    if shared and len(shape) > own_rank:
        # a multi-buffered memdesc (5x64x128): its offset bases cover the buffers rounded up to a power of
        # two; the allocation holds as many buffers as the leading dims say
        lead = len(shape) - own_rank
        own = [b for b in ll.bases.get("offset", []) if not any(b[:lead])]
        per_thread = (1 << len(own)) * prod(shape[:lead])
        slots = per_thread * ll.size("block")
    distinct_per_thread = per_thread if shared else 2 ** span_rank(ll.bases.get("register", []))
    contig = min(contiguous_run(ll, d, in_dim), max(1, shape[d]) if d < len(shape) else 1)  # (no run past the tensor)
    vec_bytes = max(1, min(contig * element_bits // 8, MAX_VECTOR_BYTES))
    vec_elems = max(1, vec_bytes * 8 // element_bits)
    distinct = prod(shape)
    broadcast = {k: sum(1 for b in v if not any(b)) for k, v in ll.bases.items()}
    return LayoutFacts(
        kind=layout.kind,
        shape=shape,
        element_bits=element_bits,
        shared=shared,
        warp_size=lanes,
        num_warps=1 if shared else ll.size("warp"),
        num_ctas=ll.size("block"),
        cta_tile=tuple(tile),
        rounds=prod(rounds_per_dim),
        rounds_per_dim=rounds_per_dim,
        elements_per_thread=per_thread,
        distinct_per_thread=distinct_per_thread,
        fastest_dim=d,
        contiguous_per_thread=contig,
        vector_bytes=vec_bytes,
        vector_elements=vec_elems,
        vectors_per_thread=max(1, per_thread // vec_elems),
        distinct_elements=distinct,
        slots=slots,
        replicated=max(0, slots - distinct),
        broadcast_bases=broadcast,
        bases=ll.bases,
        padding=tuple(ll.pad_intervals),
        threads=0 if shared else prod(ll.size(x) for x in ("lane", "warp", "block") if x in ll.in_dims),
        threads_per_element=1 if shared else threads_holding_each(ll),
        ctas_per_element=1 if shared else threads_holding_each(ll, ("block",)),
        replicated_dims=tuple(i for i, (s, t) in enumerate(zip(in_cta, tile, strict=False)) if t > s),
    )


# --- tensor memory: lanes and 32-bit columns instead of threads and registers ------------------------------


@dataclass
class TensorMemoryFacts:
    """Where a tensor sits in Blackwell tensor memory (128 lanes x 512 32-bit columns per SM), per CTA."""

    kind: str
    shape: tuple[int, ...]
    element_bits: int
    buffers: int  # a multi-buffered memdesc (2x128x128): buffers side by side along the columns
    num_ctas: int
    lanes: int  # lanes the layout spans (2 ** row bases)
    lanes_holding: int  # of those, lanes that hold data (a zero row basis below lane 32 leaves lanes empty)
    repeated_lanes: list[int]  # lane bits whose zero basis repeats the data in another warp's quarter (32, 64)
    element_units: int  # column units one element spans (colStride; 2x for padded FP4)
    elements_per_column: int  # elements packed in one 32-bit column (1: one element per column or wider)
    columns_per_buffer: int  # 32-bit columns of one buffer in one CTA
    columns: int  # all buffers
    lanes_carry: list[int]  # dims the lanes run along
    columns_carry: list[int]  # dims the columns run along
    tensor_memory: bool = True
    shared: bool = False  # for readers that branch on shared vs registers
    bases: dict[str, list[list[int]]] = field(default_factory=dict)

    def to_json(self) -> dict:
        d = asdict(self)
        d["shape"] = list(d["shape"])
        return d


def describe_tmem(layout: Layout, shape, element_bits: int, ll: LinearLayout | None = None) -> TensorMemoryFacts:
    from tritonscope.layouts.tmem import tmem_columns

    shape = tuple(shape)
    ll = ll or to_linear(layout, shape, element_bits)
    rank = len(shape)
    buffers = prod(shape[:-2]) if rank > 2 else 1
    cols, rows = ll.bases.get("col", []), ll.bases.get("row", [])
    lead = rank - 2
    own_cols = [b for b in cols if not any(b[:lead])]  # the buffer bases come last, along the leading dims
    stride = 0
    while stride < len(own_cols) and not any(own_cols[stride]):
        stride += 1
    units = 1 << len(own_cols)
    per_buffer = tmem_columns(units, element_bits)
    empty = [i for i, b in enumerate(rows) if not any(b) and i not in (5, 6)]
    slot_bits = element_bits << stride
    return TensorMemoryFacts(
        kind=layout.kind,
        shape=shape,
        element_bits=element_bits,
        buffers=buffers,
        num_ctas=ll.size("block"),
        lanes=ll.size("row"),
        lanes_holding=ll.size("row") >> len(empty),
        repeated_lanes=[1 << i for i, b in enumerate(rows) if not any(b) and i in (5, 6)],
        element_units=1 << stride,
        elements_per_column=max(1, 32 // slot_bits),
        columns_per_buffer=per_buffer,
        columns=per_buffer * buffers,
        lanes_carry=sorted({d for b in rows for d, v in enumerate(b) if v}),
        columns_carry=sorted({d for b in own_cols for d, v in enumerate(b) if v}),
        bases=ll.bases,
    )


def tmem_places(owners: list[tuple[int, ...]], f: TensorMemoryFacts) -> list[dict]:
    """Each (block, lane, 32-bit column) an element occupies, from LinearLayout.owner's (block, row, col) in
    column units; `bit` is where it starts inside a column shared by packed elements."""
    places: dict[tuple[int, int, int], dict] = {}
    for block, lane, unit in owners:
        column, bit = divmod(unit * f.element_bits, 32)
        key = (block, lane, column)
        if key not in places or bit < places[key]["bit"]:
            places[key] = {"block": block, "lane": lane, "column": column, "bit": bit}
    return [places[k] for k in sorted(places)]


def facts_for(layout: Layout, shape, element_bits: int, warp_size: int | None = None,
              ll: LinearLayout | None = None) -> LayoutFacts | TensorMemoryFacts:
    """describe() for registers and shared memory, describe_tmem() for tensor memory."""
    if layout.tensor_memory:
        return describe_tmem(layout, shape, element_bits, ll)
    return describe(layout, shape, element_bits, warp_size, ll)


# --- pictures: which thread holds each cell of a (folded) 2-D view of the tensor ---------------------------


@dataclass
class GridCell:
    coord: tuple[int, ...]
    owners: list[tuple[int, ...]]  # (block, warp, lane, register) or (block, offset) for shared layouts

    @property
    def first(self) -> tuple[int, ...] | None:
        return self.owners[0] if self.owners else None


@dataclass
class LayoutGrid:
    """Rows x cols of cells; `row_label`/`col_label` name what each row/column index is."""

    rows: list[int]
    cols: list[int]
    cells: list[list[GridCell]]
    row_label: str
    col_label: str
    note: str  # how the tensor was folded, in words; empty when the whole tensor is shown
    warp_size: int
    shared: bool
    tensor_memory: bool = False  # cells' owners are (block, lane, column, bit) of Blackwell tensor memory


def layout_grid(ll: LinearLayout, facts: LayoutFacts, max_rows: int = 64, max_cols: int = 32) -> LayoutGrid:
    """A 2-D view: dim0 x dim1 (leading dims of rank > 2 fixed at 0; 1-D tensors wrapped into rows).

    Larger tensors fold to one CTA tile (the other rounds reuse the same threads with later registers),
    then to max_rows x max_cols.
    """
    shape = ll.shape
    rank = len(shape)
    notes: list[str] = []
    if rank == 1:
        width = min(shape[0], max_cols)
        n = min(shape[0], width * max_rows)
        if facts.cta_tile[0] < shape[0] and facts.cta_tile[0] >= width:
            n = min(n, facts.cta_tile[0])
        rows = list(range(0, n, width))
        cols = list(range(width))
        cells = [[GridCell((r + c,), ll.owner((r + c,))) for c in cols if r + c < shape[0]] for r in rows]
        if n < shape[0]:
            notes.append(f"elements 0..{n - 1} of {shape[0]} shown")
        return LayoutGrid(rows, cols, cells, "index", "+", "; ".join(notes), facts.warp_size, facts.shared)
    lead = (0,) * (rank - 2)
    if rank > 2:
        notes.append(f"dims 0..{rank - 3} fixed at 0 (index [{', '.join('0' * 1 for _ in lead)}, :, :])")
    n_rows, n_cols = shape[-2], shape[-1]
    tile_rows, tile_cols = facts.cta_tile[-2], facts.cta_tile[-1]
    show_rows, show_cols = n_rows, n_cols
    if n_rows > max_rows or n_cols > max_cols:
        show_rows, show_cols = min(n_rows, tile_rows), min(n_cols, tile_cols)
        if show_rows < n_rows or show_cols < n_cols:
            # the rest of the tensor: later rounds of the same threads, and a cluster's other CTAs' parts
            parts = max(1, prod(shape) // max(1, prod(shape_in_cta(facts.bases, shape))))
            rest = [f"the other {facts.rounds - 1} round{'s' if facts.rounds != 2 else ''} repeat it in later "
                    "registers"] if facts.rounds > 1 else []
            if parts > 1:
                rest.append("the cluster's other CTA holds the rest" if parts == 2 else
                            f"the cluster's other {parts - 1} CTAs hold the rest")
            notes.append(f"one CTA tile shown ({show_rows}x{show_cols} of {n_rows}x{n_cols})"
                         + (f"; {'; '.join(rest)}" if rest else ""))
    if show_rows > max_rows or show_cols > max_cols:
        notes.append(f"cut to the first {min(show_rows, max_rows)}x{min(show_cols, max_cols)}")
        show_rows, show_cols = min(show_rows, max_rows), min(show_cols, max_cols)
    rows, cols = list(range(show_rows)), list(range(show_cols))
    cells = [[GridCell((*lead, r, c), ll.owner((*lead, r, c))) for c in cols] for r in rows]
    return LayoutGrid(
        rows, cols, cells, f"dim{rank - 2}", f"dim{rank - 1}", "; ".join(notes), facts.warp_size, facts.shared
    )


def tmem_grid(ll: LinearLayout, f: TensorMemoryFacts, max_rows: int = 64, max_cols: int = 32) -> LayoutGrid:
    """A 2-D view of a tensor memory layout: dim0 x dim1 of the first buffer (leading dims fixed at 0), cut to
    max_rows x max_cols; each cell's owners are the (block, lane, 32-bit column, bit) it occupies."""
    shape = ll.shape
    lead = (0,) * (len(shape) - 2)
    notes = [f"dims 0..{len(lead) - 1} fixed at 0 (the first buffer)"] if lead else []
    n_rows, n_cols = shape[-2], shape[-1]
    show_rows, show_cols = min(n_rows, max_rows), min(n_cols, max_cols)
    if (show_rows, show_cols) != (n_rows, n_cols):
        notes.append(f"cut to the first {show_rows}x{show_cols} of {n_rows}x{n_cols}")
    rows, cols = list(range(show_rows)), list(range(show_cols))
    cells = [[GridCell((*lead, r, c), [(p["block"], p["lane"], p["column"], p["bit"])
                                       for p in tmem_places(ll.owner((*lead, r, c)), f)]) for c in cols]
             for r in rows]
    return LayoutGrid(rows, cols, cells, f"dim{len(shape) - 2}", f"dim{len(shape) - 1}", "; ".join(notes), 32,
                      False, tensor_memory=True)
