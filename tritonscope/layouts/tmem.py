"""Blackwell tensor memory layouts -> LinearMap, after Triton's `tensorMemoryToLinearLayout` and
`tensorMemoryScalesToLinearLayout` (lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp).

Tensor memory (TMEM) is 128 lanes ("row") by 512 32-bit columns per SM. Triton's layout maps
(col, row, block) -> (dim0, dim1): `col` counts units of one element's width (a packed f16 pair shares a
32-bit column; `colStride` > 1 adds zero column bases, so one element spans colStride units), `row` is the
lane, `block` the CTA of a CGA. A zero row basis at lane 32 or 64 means the element is repeated in another
warp's quarter of TMEM; any other zero row or column basis means those lanes or columns hold nothing.

Two spellings convert differently, and the text tells which: 3.6/3.7's `CTASplitM/CTASplitN` (and
`twoCTAs` alone) put the CTA split on extra column bases; 3.8's `CGALayout` gives the CTAs a `block`
in-dim, and a 64-row two-CTA block moves its last column basis to the rows. Recorded against each
release's own `to_linear_layout` (tests/data/layout-oracle, 3.7 to 3.9; 3.6's Python binding cannot
return a tensor memory layout).
"""

from __future__ import annotations

from collections.abc import Sequence

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.linear import LinearMap, ensure_not_larger
from tritonscope.layouts.model import TensorMemoryLayout, TensorMemoryScalesLayout

TMEM_COLUMNS = 512  # 32-bit columns of an SM's tensor memory (128 lanes each)
_OUT = ("dim0", "dim1")

Bases = list[tuple[int, int]]


def _log2(n: int) -> int:
    return max(0, n.bit_length() - 1)


def _identity(size: int, step: int, d: int) -> Bases:
    """log2(size) bases along dim d, starting at `step` (identity1D composed after a tile of that size)."""
    return [((step << i), 0) if d == 0 else (0, (step << i)) for i in range(_log2(size))]


def _map(cols: Bases, rows: Bases, blocks: Bases, out: tuple[int, int]) -> LinearMap:
    return LinearMap({"col": cols, "row": rows, "block": blocks}, list(zip(_OUT, out, strict=True)))


def _cga(bases: Sequence[Sequence[int]] | None) -> tuple[Bases, tuple[int, int]]:
    """The CGA bases and the CTA split per dim they imply (getCTASplitNum: the out size of the CGA layout)."""
    blocks = [(int(b[0]), int(b[1])) for b in bases or ()]
    split = tuple(max([1] + [1 << v.bit_length() for v in (b[d] for b in blocks)]) for d in (0, 1))
    return blocks, split  # type: ignore[return-value]


def _scaled(blocks: Bases, out: tuple[int, int]) -> Bases:
    """`tile * cgaLL`: a CGA basis counts whole CTA tiles."""
    return [(b0 * out[0], b1 * out[1]) for b0, b1 in blocks]


def _smaller(what: str, shape: Sequence[int], tile: tuple[int, int]) -> TritonscopeError:
    return TritonscopeError(
        f"a {'x'.join(map(str, shape))} tensor per CTA is smaller than the {tile[0]}x{tile[1]} block of this "
        f"{what} (Triton's verifier refuses such an allocation)"
    )


def _tmem_tile(t: TensorMemoryLayout, s0: int, s1: int, m64_split: bool) -> tuple[Bases, Bases, tuple[int, int]]:
    """One CTA's (cols, rows, out sizes) for a per-CTA shape s0 x s1, before the repetitions."""
    block_n = min(t.block_n, s1)
    stride = t.col_stride * (2 if t.fp4_padded else 1)  # padded FP4: a byte of two FP4 values takes two bytes
    cols: Bases = [(0, 0)] * _log2(stride)
    if t.block_m == 64 and m64_split:  # 16 lanes of each warp's quarter: rows 16-63 come from lanes 32..127
        rows = _identity(16, 1, 0)
        cols += _identity(block_n, 1, 1)
        if s0 > 64:
            rows.append((64, 0))
        elif s1 > block_n:
            rows.append((0, block_n))
        else:
            rows.append((0, 0))  # the block fits: those lanes hold nothing
        rows += [(16, 0), (32, 0)]
        # LinearLayout(bases, dims) sizes each dim by its largest basis
        return cols, rows, (128 if s0 > 64 else 64, 2 * block_n if s0 <= 64 and s1 > block_n else block_n)
    rows = _identity(t.block_m, 1, 0)
    cols += _identity(block_n, 1, 1)
    if t.block_m == 64 and not m64_split:  # 3.8+ two-CTA M=64: the last column basis becomes lanes 64..127
        if len(cols) <= _log2(stride):
            raise TritonscopeError("a 64-row two-CTA tensor memory block needs at least 2 columns (blockN >= 2)")
        rows.append(cols.pop())
    return cols, rows, (t.block_m, block_n)


def _repeat(cols: Bases, out: tuple[int, int], s0: int, s1: int, what: str, shape, m_first: bool = True,
            ceil: bool = False) -> tuple[int, int]:
    """Broadcast the remaining tile repetitions onto the columns (dim0 first unless m_first is False)."""
    div = (lambda a, b: -(-a // b)) if ceil else (lambda a, b: a // b)
    reps = (div(s0, out[0]), div(s1, out[1]))
    if reps[0] < 1 or reps[1] < 1:
        raise _smaller(what, shape, out)
    for d in ((0, 1) if m_first else (1, 0)):
        cols += _identity(reps[d], out[d], d)
    return out[0] * reps[0], out[1] * reps[1]


def tmem_to_linear(t: TensorMemoryLayout, shape: Sequence[int], element_bits: int | None) -> LinearMap:
    if len(shape) != 2:
        raise TritonscopeError(f"a tensor memory layout is 2-D; shape {'x'.join(map(str, shape))} is not")
    if t.unpacked:  # <= 3.5: an unpacked element takes a whole 32-bit column, as 3.6 spells colStride
        t = TensorMemoryLayout(t.block_m, t.block_n, max(1, 32 // (element_bits or 32)), None, t.cta_split,
                               t.cga_bases, t.two_ctas, t.fp4_padded)
    if t.legacy_ctas:
        return _legacy_tmem(t, shape[0], shape[1], shape)
    blocks, split = _cga(t.cga_bases)
    s0, s1 = max(1, shape[0] // split[0]), max(1, shape[1] // split[1])
    cols, rows, out = _tmem_tile(t, s0, s1, m64_split=not t.two_ctas)
    out = _repeat(cols, out, s0, s1, "tensor memory layout", (s0, s1))
    return _map(cols, rows, _scaled(blocks, out), out)


def _legacy_tmem(t: TensorMemoryLayout, s0: int, s1: int, shape) -> LinearMap:
    """3.6/3.7: each CTA split is one more column basis, N's innermost ((tile * splitM) * splitN)."""
    split_m, split_n = t.cta_split or (1, 1)
    c0, c1 = max(1, s0 // split_m), max(1, s1 // split_n)
    cols, rows, out = _tmem_tile(t, c0, c1, m64_split=True)
    out = _repeat(cols, out, c0, c1, "tensor memory layout", (c0, c1))
    return _map(cols, rows, [], _split_on_columns(cols, out, split_m, split_n))


def _split_on_columns(cols: Bases, out: tuple[int, int], split_m: int, split_n: int) -> tuple[int, int]:
    """3.6/3.7's CTA split: one more column basis per split, M's then N's ((tile * splitM) * splitN)."""
    cols += _identity(split_m, out[0], 0)
    cols += _identity(split_n, out[1], 1)
    return out[0] * split_m, out[1] * split_n


def tmem_scales_to_linear(t: TensorMemoryScalesLayout, shape: Sequence[int], element_bits: int | None) -> LinearMap:
    """PTX's tcgen05 scale-factor layout: 32 lanes (repeated in each warp's quarter), 4 scales per column."""
    if len(shape) != 2:
        raise TritonscopeError(f"a tensor memory scales layout is 2-D; shape {'x'.join(map(str, shape))} is not")
    if t.cga_bases is None and t.cta_split is not None:
        split_m, split_n = t.cta_split
        blocks: Bases = []
    else:
        blocks, (split_m, split_n) = _cga(t.cga_bases)
    s0, s1 = max(1, shape[0] // split_m), max(1, shape[1] // split_n)
    rows = _identity(32, 1, 0) + [(0, 0), (0, 0)]
    cols = _identity(4, 1, 1) + [(32, 0)]
    # one MMA block is 128 rows x 4 scales: its rows first, then the blocks in blockRepOrder
    first = -(-min(s0, 128) // 64)
    cols += _identity(first, 64, 0)
    out = _repeat(cols, (64 * first, 4), s0, s1, "tensor memory scales layout", (s0, s1), m_first=not t.k_first,
                  ceil=True)
    fitted = ensure_not_larger(_map(cols, rows, [], out), {"dim0": s0, "dim1": s1})
    cols, rows = list(fitted.in_bases["col"]), list(fitted.in_bases["row"])
    out = (min(out[0], s0), min(out[1], s1))
    if t.cga_bases is None and t.cta_split is not None:  # 3.7: the split on the columns
        return _map(cols, rows, [], _split_on_columns(cols, out, split_m, split_n))
    return _map(cols, rows, _scaled(blocks, out), out)


def tmem_columns(col_units: int, element_bits: int) -> int:
    """32-bit TMEM columns that `col_units` units of one element's width fill (packed elements share one)."""
    return max(1, -(-col_units * element_bits // 32))
