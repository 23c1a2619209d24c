"""Pieces every layout conversion shares, after Triton's LinearLayoutConversions.cpp and LayoutUtils.cpp:
dimension names and orders, the CGA (blocks) layout, and fitting a CTA layout to a tensor shape."""

from __future__ import annotations

from collections.abc import Sequence

from tritonscope.layouts.linear import LinearMap, dim, ensure_not_larger, ensure_not_smaller
from tritonscope.layouts.model import CTALayout

ID = LinearMap.identity1d
ZEROS = LinearMap.zeros1d


def std_names(rank: int) -> list[str]:
    return [dim(i) for i in range(rank)]


def matrix_order(rank: int, row_major: bool) -> list[int]:
    """getMatrixOrder: [rank-1, ..., 0], the two minor dims swapped when column-major."""
    order = list(range(rank - 1, -1, -1))
    if rank >= 2 and not row_major:
        order[0], order[1] = order[1], order[0]
    return order


def dot_operand_order(op_idx: int, rank: int, k_contig: bool) -> list[int]:
    return matrix_order(rank, row_major=bool(op_idx) != k_contig)


def labeled_shape(shape: Sequence[int]) -> dict[str, int]:
    return {dim(i): s for i, s in enumerate(shape)}


def make_cga_layout(cta: CTALayout, rank: int) -> LinearMap:
    names = std_names(rank)
    if cta.cga_bases:
        return LinearMap({"block": [tuple(b) for b in cta.cga_bases]}, names)
    ret = LinearMap.empty()
    for d in cta.cta_order:
        split, ctas = cta.cta_split_num[d], cta.ctas_per_cga[d]
        ret = ret * (ID(split, "block", names[d]) * ZEROS(ctas // split, "block", names[d]))
    for n in names:
        if n not in ret.out_names:
            ret = ret * ID(1, "block", n)
    return ret.transpose_outs(names)


def shape_per_cta(cta: CTALayout, shape: Sequence[int]) -> list[int]:
    if cta.cga_bases:
        cga = make_cga_layout(cta, len(shape))
        split = [1] * len(shape)
        for b in cga.in_bases["block"]:
            for i, v in enumerate(b):
                if v:
                    split[i] *= 2
        return [max(1, s // p) for s, p in zip(shape, split, strict=False)]
    return [max(1, s // p) for s, p in zip(shape, cta.cta_split_num, strict=False)]


def combine_cta_cga_with_shape(
    cta_ll: LinearMap, cta: CTALayout, shape: Sequence[int], broadcast_registers: bool = True
) -> LinearMap:
    """broadcast_registers=False drops the registers that would only repeat an element (3.9's blocked)."""
    rank = len(shape)
    names = std_names(rank)
    labeled = labeled_shape(shape)
    for n in names:  # every out-dim present, so transposes are permutations
        if n not in cta_ll.out_names:
            cta_ll = cta_ll * ID(1, next(iter(cta_ll.in_bases), "register"), n)
    cga = ensure_not_larger(make_cga_layout(cta, rank), labeled).transpose_outs(cta_ll.out_names)
    cta_shape = {n: max(1, labeled[n] // cga.out_size(n)) for n in cta_ll.out_names}
    natural_tile = {n: cta_ll.out_size(n) for n in names}
    cta_ll = ensure_not_smaller(cta_ll, cta_shape)
    cta_ll = ensure_not_larger(cta_ll, cta_shape, broadcast_registers=broadcast_registers)
    ret = (cta_ll * cga).transpose_outs(names)
    # What one CTA covers before wrapping or broadcasting: views.describe reports it as the "CTA tile".
    ret.natural_tile = tuple(natural_tile[n] for n in names)
    return ret


def broadcasted_dot_operand_layout(shape: Sequence[int], order: Sequence[int], k_dim: int, in_dim: str) -> LinearMap:
    layout = LinearMap.empty()
    for d in order:
        layout = layout * (ZEROS(shape[d], in_dim, dim(d)) if d == k_dim else ID(shape[d], in_dim, dim(d)))
    return layout
