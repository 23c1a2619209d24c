"""Layout dataclass -> LinearMap for the shared-memory layouts (in-dims offset and block), after Triton's
LinearLayoutConversions.cpp: swizzled (and 3.2's `shared`), AMD rotating, NVMMA, padded, explicit bases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tritonscope.errors import TritonscopeError
from tritonscope.layouts import releases
from tritonscope.layouts.combine import ID, combine_cta_cga_with_shape, labeled_shape, shape_per_cta, std_names
from tritonscope.layouts.linear import LinearMap, dim, ensure_not_larger, ensure_not_smaller, identity_standard_nd
from tritonscope.layouts.model import (
    CTALayout,
    NvmmaSharedLayout,
    PaddedSharedLayout,
    SharedLinearLayout,
    SwizzledSharedLayout,
)


def swizzled_to_linear(s: SwizzledSharedLayout, shape: Sequence[int], element_bits: int | None) -> LinearMap:
    if s.has_leading_offset:
        return nvmma_to_linear(_leading_offset_as_nvmma(s, element_bits), shape)
    rank = len(shape)
    names = std_names(rank)
    rotating = s.spelling == "amd_rotating_shared"
    per_cta = list(shape) if rotating else shape_per_cta(s.cta, shape)
    if rank == 1:
        return combine_cta_cga_with_shape(ID(per_cta[0], "offset", names[0]), s.cta, shape)
    col_dim, row_dim = s.order[0], s.order[1]
    num_cols, num_rows = per_cta[col_dim], per_cta[row_dim]
    bases: list[tuple[int, int]] = []
    col = 1
    while col < num_cols:
        bases.append((0, col))
        col *= 2
    row = 1
    while row < num_rows:
        phase = (row // s.per_phase) % s.max_phase
        if rotating:
            phase ^= row // s.max_phase // s.per_phase % s.max_phase
        bases.append((row, (s.vec * phase) % num_cols))
        row *= 2
    cta = LinearMap({"offset": bases}, [names[row_dim], names[col_dim]])
    for d in s.order[2:]:
        cta = cta * ID(per_cta[d], "offset", names[d])
    return combine_cta_cga_with_shape(cta, s.cta, shape)


def _leading_offset_as_nvmma(s: SwizzledSharedLayout, element_bits: int | None) -> NvmmaSharedLayout:
    """3.2's `shared<{hasLeadingOffset = true}>` is 3.3's nvmma_shared; the swizzle width follows phases."""
    if element_bits is None:
        raise TritonscopeError("shared layout with hasLeadingOffset: the element type is needed (--dtype)")
    width = {(4, 2): 32, (2, 4): 64, (1, 8): 128}.get((s.per_phase, s.max_phase), 0)
    transposed = s.order[0] != len(s.order) - 1
    return NvmmaSharedLayout(width, transposed, element_bits, False, s.cta, len(s.order))


def tma_block_shape(per_cta: Sequence[int], ebw: int, swizzle: int, fp4: bool, transposed: bool) -> list[int]:
    block = list(per_cta)
    contig = 0 if transposed else len(block) - 1
    if fp4:
        block[contig] *= 2
    block = [min(b, 256) for b in block]
    if swizzle:
        contig_size = 8 * swizzle // ebw
        if block[contig] < contig_size:
            raise TritonscopeError(
                f"nvmma_shared: the contiguous dimension {per_cta[contig]} is smaller than "
                f"the {swizzle}-byte swizzle ({contig_size} elements)"
            )
        block[contig] = contig_size
    if fp4:
        block[contig] //= 2
    return block


def nvmma_to_linear(s: NvmmaSharedLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    if rank > 2 and s.cta.trivial and (s.printed_rank or 2) < rank:
        # a multi-buffered memdesc of a rank-2 layout; a layout of this rank (3.9's `rank = 5` on a TMA
        # block) collapses its outer dims into the swizzle's rows instead, as Triton does
        return stack_buffers(nvmma_to_linear(s, shape[-2:]), shape, 2)
    if s.cta.trivial and len(s.cta.cta_order) != rank:  # the rank comes from the memdesc, not the attribute
        s = replace(s, cta=CTALayout((1,) * rank, (1,) * rank, tuple(range(rank - 1, -1, -1))))
    names = std_names(rank)
    per_cta = shape_per_cta(s.cta, shape)
    tma = tma_block_shape(per_cta, s.element_bit_width, s.swizzling_byte_width, s.fp4_padded, s.transposed)
    if s.swizzling_byte_width == 0:
        # Unswizzled: row-major from the contiguous dim (dim0 first when transposed; up to 3.7 `transposed`
        # was ignored here).
        transposed = s.transposed and releases.active().has("nvmma-unswizzled-transposed")
        if transposed and rank > 2:
            # (Triton 3.9 pads such a buffer and orders its dims otherwise, a layout no kernel seen has used:
            # 4x8x8 f16 is [0,1,0] [0,2,0] [1,0,0] [2,0,0] [0,0,0] ... there; not guessed here)
            raise TritonscopeError(
                f"nvmma_shared: an unswizzled transposed layout of rank {rank} is not decoded (its offsets, as "
                "Triton computes them since 3.8, are not modelled: only rank 2, or a stack of rank-2 buffers)")
        dims = [0, *range(rank - 1, 0, -1)] if transposed else list(range(rank - 1, -1, -1))
        layout = LinearMap.empty()
        for i in dims:
            layout = layout * ID(tma[i], "offset", names[i])
        layout = ensure_not_smaller(layout, labeled_shape(per_cta))
        return combine_cta_cga_with_shape(layout, s.cta, shape)
    if rank < 2:
        raise TritonscopeError("nvmma_shared needs a tensor of rank 2 or more")
    rows = 1
    for t in tma[:-1]:
        rows *= t
    collapsed = [rows, tma[-1]]
    if s.transposed:
        collapsed.reverse()
    tile = core_matrix(s)
    two = std_names(2)
    if collapsed[1] * (2 if s.fp4_padded else 1) < tile.out_size(two[1]) or collapsed[0] < tile.out_size(two[0]):
        raise TritonscopeError(
            f"nvmma_shared: shape {'x'.join(map(str, shape))} is smaller than one "
            f"{tile.out_size(two[0])}x{tile.out_size(two[1])} swizzle tile"
        )
    layout = ensure_not_smaller(tile, {two[0]: collapsed[0], two[1]: collapsed[1]}, two)
    target = list(tma)
    if s.transposed:
        target = target[1:] + target[:1]
    layout = reshape_outs_row_major(layout, target)
    if s.transposed:
        order = [rank - 1] + list(range(rank - 1))
        layout = transpose_dims(layout, order)
    layout = ensure_not_smaller(layout, labeled_shape(per_cta), names)
    return combine_cta_cga_with_shape(layout, s.cta, shape)


def stack_buffers(one: LinearMap, shape: Sequence[int], rank: int, in_dim: str = "offset") -> LinearMap:
    """A multi-buffered memdesc (NxMxK with a rank-2 layout): buffers one after another, row-major, along
    `in_dim` (shared memory offsets; tensor memory columns, where buffer i starts i buffers' columns on)."""
    lead = len(shape) - rank
    one = one.transpose_outs(std_names(rank))
    bases = {k: [(0,) * lead + tuple(b) for b in v] for k, v in one.in_bases.items()}
    for d in range(lead - 1, -1, -1):
        for i in range(shape[d].bit_length() - 1):
            bases[in_dim].append(tuple((1 << i) if j == d else 0 for j in range(len(shape))))
    return LinearMap(bases, [(dim(i), s) for i, s in enumerate(shape)])


def core_matrix(s: NvmmaSharedLayout) -> LinearMap:
    ebw, width = s.element_bit_width, s.swizzling_byte_width
    vec = 128 // ebw
    per_phase, max_phase = {32: (4, 2), 64: (2, 4), 128: (1, 8)}.get(width, (1, 1))
    tile_rows, tile_cols = 8, 8 * max(16, width) // ebw
    bases: list[tuple[int, int]] = []
    col = 1
    while col < tile_cols:
        bases.append((0, col // 16 * 8 + col % 8) if s.fp4_padded else (0, col))
        col *= 2
    row = 1
    while row < tile_rows:
        c = vec * ((row // per_phase) % max_phase)
        bases.append((row, c // 16 * 8 + c % 8) if s.fp4_padded else (row, c))
        row *= 2
    return LinearMap({"offset": bases}, std_names(2))


def reshape_outs_row_major(layout: LinearMap, shape: Sequence[int]) -> LinearMap:
    """Flatten the out-dims row-major (dim0 slowest) and split again into `shape` (reshapeLayout)."""
    names = layout.out_names
    sizes = [layout.out_size(n) for n in names]
    new_names = std_names(len(shape))
    bases: dict[str, list[tuple[int, ...]]] = {}
    for k, bs in layout.in_bases.items():
        out = []
        for b in bs:
            flat = 0
            for v, s in zip(b, sizes, strict=False):
                flat = flat * s + v
            coords = []
            for s in reversed(shape):
                coords.append(flat % s)
                flat //= s
            out.append(tuple(reversed(coords)))
        bases[k] = out
    return LinearMap(bases, list(zip(new_names, shape, strict=False)))


def transpose_dims(layout: LinearMap, order: Sequence[int]) -> LinearMap:
    """transposeLinearLayout: new out-dim i is old out-dim order[i]."""
    names = layout.out_names
    bases = {k: [tuple(b[o] for o in order) for b in bs] for k, bs in layout.in_bases.items()}
    return LinearMap(bases, [(dim(i), layout.out_size(names[o])) for i, o in enumerate(order)])


def padded_to_linear(p: PaddedSharedLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    names = std_names(rank)
    if p.offset_bases is not None:
        ll = LinearMap({"offset": list(p.offset_bases), "block": list(p.block_bases)}, names)
        labeled = labeled_shape(shape)
        ll = ensure_not_smaller(ll, labeled)
        return ensure_not_larger(ll, labeled)
    cta = identity_standard_nd("offset", shape, p.order)
    return cta.transpose_outs(names) * LinearMap({"block": []}, names)


def shared_linear_to_linear(s: SharedLinearLayout, shape: Sequence[int]) -> LinearMap:
    names = std_names(len(shape))
    return LinearMap({"offset": list(s.offset_bases), "block": list(s.block_bases)}, names)
