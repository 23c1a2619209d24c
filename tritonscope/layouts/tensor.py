"""A layout for one tensor shape: `to_linear(layout, shape)` and the `LinearLayout` it returns.

The front end over the LinearMap algebra (layouts/linear.py) and the per-kind conversions
(layouts/convert.py, layouts/shared.py): Triton's bases for a tensor shape with dim0 first, in the active
release's semantics (layouts/releases.py), and ownership queries (which thread holds an element, what a
thread holds).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tritonscope.errors import TritonscopeError
from tritonscope.layouts import releases
from tritonscope.layouts.convert import layout_to_linear
from tritonscope.layouts.linear import REGISTER_DIMS, SHARED_DIMS, TMEM_DIMS, LinearMap, dim


class LinearLayout:
    """The result of to_linear: bases in Triton's convention for one tensor shape, plus ownership queries."""

    def __init__(self, ll: LinearMap, shape: Sequence[int], in_dims: Sequence[str]):
        self.shape = tuple(shape)
        self.padded_shape = tuple(shape)  # the power-of-two shape the bases cover
        self.in_dims = tuple(in_dims)
        rank = len(shape)
        names = [dim(i) for i in range(rank)]
        for n in names:
            if n not in ll.out_names:
                ll = ll * LinearMap.identity1d(1, in_dims[0], n)
        tile = ll.natural_tile
        ll = ll.transpose_outs(names)
        self.ll = ll
        self.natural_tile = tile
        self.bases: dict[str, list[list[int]]] = {d: [list(b) for b in ll.in_bases.get(d, [])] for d in in_dims}
        self._solver: tuple | None = None
        # a padded shared layout's (interval, padding) pairs: the bases are its linear part, and an element's
        # offset in the buffer is that part's plus `padding` after every `interval` (padded_offset)
        self.pad_intervals: tuple[tuple[int, int], ...] = ()

    @property
    def shared(self) -> bool:
        return self.in_dims == SHARED_DIMS

    @property
    def tensor_memory(self) -> bool:
        return self.in_dims == TMEM_DIMS

    def size(self, in_dim: str) -> int:
        return 1 << len(self.bases.get(in_dim, []))

    def coord(self, **ins: int) -> tuple[int, ...]:
        out = [0] * len(self.shape)
        for d, idx in ins.items():
            for i, b in enumerate(self.bases.get(d, [])):
                if idx >> i & 1:
                    for j, v in enumerate(b):
                        out[j] ^= v
        return tuple(out)

    def _values(self, in_dim: str) -> list[tuple[int, ...]]:
        """coord of every index of one in-dim alone (index i -> XOR of its bits' bases)."""
        vals = [(0,) * len(self.shape)]
        for b in self.bases.get(in_dim, []):
            vals = vals + [tuple(x ^ y for x, y in zip(v, b, strict=False)) for v in vals]
        return vals

    def iter_all(self) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
        """((in indices in in_dims order), coord) for every input."""
        tables = [self._values(d) for d in self.in_dims]
        sizes = [len(t) for t in tables]

        def rec(k: int, idx: tuple[int, ...], acc: tuple[int, ...]):
            if k < 0:
                yield idx, acc
                return
            for i, v in enumerate(tables[k]):
                yield from rec(k - 1, (i, *idx), tuple(a ^ b for a, b in zip(acc, v, strict=False)))

        del sizes
        yield from rec(len(tables) - 1, (), (0,) * len(self.shape))

    def owner(self, coord: Sequence[int]) -> list[tuple[int, ...]]:
        """Every (block, warp, lane, register) (or (block, offset) for shared) holding this element.

        Solves L(x) = coord over GF(2) (the bases as bit columns): one solution plus the span of the kernel,
        so a broadcast element lists each of its copies, without enumerating the whole layout.
        """
        coord = tuple(coord)
        if len(coord) != len(self.shape):
            raise TritonscopeError(f"element {list(coord)} has {len(coord)} coordinate(s), the tensor "
                                   f"{len(self.shape)} dims (shape {list(self.shape)})")
        if any(not 0 <= c < s for c, s in zip(coord, self.shape, strict=True)):
            raise TritonscopeError(f"element {list(coord)} is outside the tensor shape {list(self.shape)}")
        if self._solver is None:
            self._solver = self._eliminate()
        pivots, kernel, columns = self._solver
        t, mask = self._flatten(coord), 0
        while t:
            top = t.bit_length() - 1
            if top not in pivots:
                return []
            vec, m = pivots[top]
            t ^= vec
            mask ^= m
        solutions = [mask]
        for k in kernel:
            solutions += [x ^ k for x in solutions]
        found = sorted(self._unflatten(x, columns) for x in solutions)
        if self.pad_intervals:  # (block, offset): the offset in the buffer, padding included
            found = [(block, padded_offset(offset, self.pad_intervals)) for block, offset in found]
        return found

    def _flatten(self, coord: Sequence[int]) -> int:
        flat, shift = 0, 0
        for c, s in zip(coord, self.padded_shape, strict=True):
            flat |= c << shift
            shift += max(0, (s - 1).bit_length())
        return flat

    def _eliminate(self):
        columns = [(d, i) for d in self.in_dims for i in range(len(self.bases.get(d, [])))]
        pivots: dict[int, tuple[int, int]] = {}
        kernel: list[int] = []
        for j, (d, i) in enumerate(columns):
            v, m = self._flatten(self.bases[d][i]), 1 << j
            while v:
                top = v.bit_length() - 1
                if top not in pivots:
                    pivots[top] = (v, m)
                    break
                pv, pm = pivots[top]
                v ^= pv
                m ^= pm
            if not v:
                kernel.append(m)
        return pivots, kernel, columns

    def _unflatten(self, mask: int, columns: list[tuple[str, int]]) -> tuple[int, ...]:
        idx = dict.fromkeys(self.in_dims, 0)
        for j, (d, i) in enumerate(columns):
            if mask >> j & 1:
                idx[d] |= 1 << i
        return tuple(idx[d] for d in reversed(self.in_dims))

    def elements(self, block: int = 0, warp: int = 0, lane: int = 0) -> list[tuple[int, tuple[int, ...]]]:
        """(register, coord) for every register of one thread."""
        if self.shared or self.tensor_memory:
            where = "offset" if self.shared else "lane and column"
            raise TritonscopeError(f"a {'shared' if self.shared else 'tensor'}-memory layout has no threads: ask "
                                   f"for an element's {where} instead")
        base = self.coord(block=block, warp=warp, lane=lane)
        return [
            (r, tuple(a ^ b for a, b in zip(base, v, strict=False))) for r, v in enumerate(self._values("register"))
        ]

    def to_json(self) -> dict:
        return {d: self.bases[d] for d in self.in_dims}


def padded_offset(offset: int, intervals: Sequence[tuple[int, int]]) -> int:
    """An offset of a padded shared layout's linear part as the buffer has it: `padding` elements after every
    `interval` (Triton's applyPadding: offset + sum of (offset >> log2 interval) << log2 padding)."""
    return offset + sum((offset // interval) * padding for interval, padding in intervals if interval > 0)


def to_linear(layout, shape: Sequence[int], element_bits: int | None = None, semantics=None) -> LinearLayout:
    """Triton's linear layout of `layout` for a tensor of `shape` (bases: dim0 first, zeros = broadcast), as
    the release of `semantics` (a releases.Semantics; default: the active one, normally the newest) has it."""
    shape = tuple(int(s) for s in shape)
    if layout.rank == 0:
        raise TritonscopeError(f"the {layout.kind} layout names no dimension: it has rank 0")
    root = layout  # a slice's or dot operand's parent is converted too (convert.slice_to_linear, ...)
    while getattr(root, "parent", None) is not None:
        root = root.parent
    if root.kind in ("nvidia_mma", "amd_mfma", "amd_wmma") and root.rank is not None and not 2 <= root.rank <= 3:
        raise TritonscopeError(f"a rank-{root.rank} {root.kind} layout: an MMA layout has rank 2 or 3 (M, N and "
                               "an optional batch dim)")
    memory = layout.shared or layout.tensor_memory
    buffered = memory and layout.rank is not None and len(shape) > layout.rank  # NxMxK memdesc
    if layout.rank is not None and len(shape) != layout.rank and not buffered:
        raise TritonscopeError(
            f"shape {'x'.join(map(str, shape))} has rank {len(shape)}, the {layout.kind} layout has rank {layout.rank}"
        )
    if any(s <= 0 for s in shape):
        raise TritonscopeError(f"shape {'x'.join(map(str, shape))}: every dimension must be positive")
    # Linear layouts cover power-of-two shapes; a multi-buffered memdesc (5x64x32) is laid out as its
    # power-of-two ceiling (8x64x32) and the extra rows are never addressed.
    padded = tuple(1 << (s - 1).bit_length() for s in shape)
    with releases.using(semantics):
        ll = layout_to_linear(layout, padded, element_bits)
    in_dims = TMEM_DIMS if layout.tensor_memory else SHARED_DIMS if layout.shared else REGISTER_DIMS
    ret = LinearLayout(ll, padded, in_dims)
    ret.shape = shape
    if layout.kind == "padded_shared":
        ret.pad_intervals = tuple(getattr(layout, "intervals", ()))
    return ret


