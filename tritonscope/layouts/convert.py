"""Layout dataclass -> LinearMap for the distributed (register) layouts, one function per kind, after
Triton's lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp (the 3.9 line; names follow Triton's so the
two read side by side). Shared-memory layouts are in shared.py; `layout_to_linear` dispatches to both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tritonscope.errors import TritonscopeError
from tritonscope.layouts import releases
from tritonscope.layouts.combine import (
    ID,
    ZEROS,
    broadcasted_dot_operand_layout,
    combine_cta_cga_with_shape,
    dot_operand_order,
    matrix_order,
    std_names,
)
from tritonscope.layouts.linear import LinearMap, dim, ensure_not_larger, ensure_not_smaller, identity_standard_nd
from tritonscope.layouts.model import (
    AmdMfmaLayout,
    AmdWmmaLayout,
    BlockedLayout,
    CTALayout,
    DotOperandLayout,
    LinearEncoding,
    NvidiaMmaLayout,
    NvmmaSharedLayout,
    PaddedSharedLayout,
    SharedLinearLayout,
    SliceLayout,
    SwizzledSharedLayout,
    TensorMemoryLayout,
    TensorMemoryScalesLayout,
)
from tritonscope.layouts.shared import (
    nvmma_to_linear,
    padded_to_linear,
    shared_linear_to_linear,
    stack_buffers,
    swizzled_to_linear,
)
from tritonscope.layouts.tmem import tmem_scales_to_linear, tmem_to_linear

# --- distributed layouts -------------------------------------------------------------------------------------


def blocked_to_linear(b: BlockedLayout, shape: Sequence[int]) -> LinearMap:
    cta = (
        identity_standard_nd("register", b.size_per_thread, b.order)
        * identity_standard_nd("lane", b.threads_per_warp, b.order)
        * identity_standard_nd("warp", b.warps_per_cta, b.order)
    )
    # 3.9 drops the registers that only repeat an element; up to 3.8 they stay as zero bases.
    drop = releases.active().has("blocked-drops-broadcast-registers")
    return combine_cta_cga_with_shape(cta, b.cta, shape, broadcast_registers=not drop)


def slice_to_linear(s: SliceLayout, shape: Sequence[int], element_bits: int | None) -> LinearMap:
    parent_shape = list(shape)
    parent_shape.insert(s.dim, 1)
    parent_ll = layout_to_linear(s.parent, parent_shape, element_bits)
    tile = parent_ll.natural_tile
    parent = parent_ll.transpose_outs(std_names(len(parent_shape)))
    keep = [i for i in range(len(parent_shape)) if i != s.dim]
    bases = {k: [tuple(b[i] for i in keep) for b in v] for k, v in parent.in_bases.items()}
    if releases.active().has("slice-drops-broadcast-registers") or tile is None:
        bases["register"] = [b for b in bases.get("register", []) if any(b)]
    else:
        # Up to 3.2 a slice drops only the registers that held other elements of the sliced dim: those
        # that repeat an element along a kept dim stay. The parent over one tile along the sliced dim tells
        # them apart (registers along it are not zero there).
        parent_shape[s.dim] = tile[s.dim]
        full = layout_to_linear(s.parent, parent_shape, element_bits).transpose_outs(std_names(len(parent_shape)))
        if releases.active().has("slice-broadcast-registers-last"):
            kept = [tuple(b[i] for i in keep) for b in full.in_bases.get("register", []) if not any(b)]
            bases["register"] = [b for b in bases.get("register", []) if any(b)] + kept
        else:  # up to 2.3 they keep their place in the parent's register order
            bases["register"] = [tuple(b[i] for i in keep) for b in full.in_bases.get("register", [])
                                 if not b[s.dim]]
    ret = LinearMap(bases, std_names(len(shape)))
    if tile is not None:
        ret.natural_tile = tuple(t for i, t in enumerate(tile) if i != s.dim)
    return ret


def nvidia_mma_tile(
    tile_shape: Sequence[int], k_width: int, order: Sequence[int], rep_order: Sequence[int]
) -> LinearMap:
    rank = len(rep_order)
    cta = identity_standard_nd("register", [1] * rank, rep_order)
    inner, outer = order[0], order[1]
    m, n = tile_shape[outer], tile_shape[inner]
    cta = cta * ID(k_width, "register", dim(inner))
    cta = cta * ID(4, "lane", dim(inner))
    cta = cta * ID(8, "lane", dim(outer))
    cta = cta * ID(m // 8, "register", dim(outer))
    cta = cta * ID(n // (k_width * 4), "register", dim(inner))
    return cta


def nvidia_mma_to_linear(mma: NvidiaMmaLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    if mma.version_major == 2:
        tile = list(mma.instr_shape[-rank:]) if len(mma.instr_shape) >= rank else [1] * (rank - 2) + [16, 8]
        if len(tile) < rank:
            tile = [1] * (rank - len(tile)) + tile
    elif mma.version_major in (3, 5):
        tile = [1] * (rank - 2) + [mma.instr_shape[0], mma.instr_shape[1]]
    else:
        raise TritonscopeError(f"nvidia_mma version {mma.version_major}: no linear layout (Triton has none)")
    order = matrix_order(rank, True)
    cta = nvidia_mma_tile(tile, 2, order, matrix_order(rank, True))
    hopper = mma.version_major == 3
    warps = identity_standard_nd("warp", mma.warps_per_cta, matrix_order(rank, not hopper))
    cta = cta * warps.transpose_outs(cta.out_names)
    return combine_cta_cga_with_shape(cta, mma.cta, shape)


def nvidia_dot_to_linear(dot: DotOperandLayout, mma: NvidiaMmaLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    k_width = dot.k_width or 2
    is_a = dot.op_idx == 0
    tile = [1] * rank
    # fp64's m8n8k4: from 3.8 its MMA prints instrShape = [8, 8] (up to 3.7 [16, 8], laid out as any other)
    fp64 = mma.version_major == 2 and tuple(mma.instr_shape[-2:]) == (8, 8)
    # (fp64's K per instruction is 4 elements a kWidth of 1: the tile is 4 * kWidth along K, not 8 * kWidth)
    k_tile = k_width * (4 if fp64 else 8)
    if is_a:
        tile[rank - 2], tile[rank - 1] = 8 if fp64 else 16, k_tile
    else:
        tile[rank - 2], tile[rank - 1] = k_tile, 8
    order = dot_operand_order(dot.op_idx, rank, True)
    cta = nvidia_mma_tile(tile, k_width, order, dot_operand_order(dot.op_idx, rank, True))
    k_dim = rank - 1 if is_a else rank - 2
    hopper = mma.version_major == 3
    warps = broadcasted_dot_operand_layout(mma.warps_per_cta, matrix_order(rank, not hopper), k_dim, "warp")
    cta = cta * warps.transpose_outs(cta.out_names)
    return combine_cta_cga_with_shape(cta, dot_cta(mma.cta, k_dim), shape)


def dot_cta(parent: CTALayout, k_dim: int) -> CTALayout:
    """A dot operand's CTA layout: its parent's, not split along K (Triton's `getCTALayout(dot)`,
    `DotOperandEncodingAttr::getCTASplitNum`: "Do not split CTA in K dimension"); a block basis along K
    becomes a broadcast. (MFMA operands take their parent's as it is: `mfmaDotToLinearLayout`.)"""
    if parent.trivial:
        return parent
    if parent.cga_bases:
        bases = tuple(tuple(0 if d == k_dim else v for d, v in enumerate(b)) for b in parent.cga_bases)
        return replace(parent, cga_bases=bases)
    split = tuple(1 if d == k_dim else v for d, v in enumerate(parent.cta_split_num))
    return replace(parent, cta_split_num=split)


def fma_dot_to_linear(dot: DotOperandLayout, blocked: BlockedLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    order = blocked.order
    k_dim = rank - 1 if dot.op_idx == 0 else rank - 2
    thread_size = list(blocked.size_per_thread)
    thread_size[k_dim] = shape[k_dim]
    rep_names = [dim(d) for d in order]
    regs = identity_standard_nd("register", thread_size, order)
    lanes = broadcasted_dot_operand_layout(blocked.threads_per_warp, order, k_dim, "lane")
    warps = broadcasted_dot_operand_layout(blocked.warps_per_cta, order, k_dim, "warp")
    cta = regs.transpose_outs(rep_names) * lanes.transpose_outs(rep_names) * warps.transpose_outs(rep_names)
    return combine_cta_cga_with_shape(cta, dot_cta(blocked.cta, k_dim), shape)


def mfma_to_linear(mfma: AmdMfmaLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    batch = rank == 3
    m_index, n_index = int(batch), 1 + int(batch)
    names = std_names(rank)
    order = matrix_order(rank, True)
    dim_m, dim_n = names[order[1]], names[order[0]]
    m_dim, n_dim = mfma.instr_shape[0], mfma.instr_shape[1]
    height = 1 if mfma.element_bit_width == 64 else 4
    warp_size = 64
    tiles = (m_dim * n_dim) // (warp_size * height)
    if not mfma.is_transposed:
        regs = ID(height, "register", dim_m)
        lanes = ID(n_dim, "lane", dim_n) * ID(warp_size // n_dim, "lane", dim_m)
        tile = regs * lanes
        if tiles > 0:
            tile = tile * ID(tiles, "register", dim_m)
    else:
        regs = ID(height, "register", dim_n)
        lanes = ID(m_dim, "lane", dim_m) * ID(warp_size // m_dim, "lane", dim_n)
        tile = regs * lanes
        if tiles > 0:
            tile = tile * ID(tiles, "register", dim_n)
    tile = tile.transpose_outs([dim_n, dim_m])
    tpw = mfma.tiles_per_warp or (1,) * rank
    wpc = mfma.warps_per_cta
    tile = tile * ID(tpw[n_index], "register", dim_n)
    tile = tile * ID(wpc[n_index], "warp", dim_n)
    tile = tile * ID(shape[n_index] // (n_dim * wpc[n_index] * tpw[n_index]), "register", dim_n)
    tile = tile * ID(tpw[m_index], "register", dim_m)
    tile = tile * ID(wpc[m_index], "warp", dim_m)
    if batch:
        tile = tile * ID(1, "register", names[order[2]])
        tile = tile * ID(1, "lane", names[order[2]])
        tile = tile * ID(wpc[0], "warp", names[order[2]])
    ret = combine_cta_cga_with_shape(tile, mfma.cta, shape)
    if mfma.is_transposed and m_dim == n_dim == 16 and not releases.active().has("mfma-16x16-transposed-warp-order"):
        # up to 3.1: that layout numbers its warps along M first
        kn, km = wpc[n_index].bit_length() - 1, wpc[m_index].bit_length() - 1
        warps = ret.in_bases.get("warp", [])
        ret.in_bases["warp"] = warps[kn:kn + km] + warps[:kn] + warps[kn + km:]
    return ret


def mfma_dot_to_linear(dot: DotOperandLayout, mfma: AmdMfmaLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    batch = rank == 3
    names = std_names(rank)
    k_width = dot.k_width
    non_k_index = rank - 2 if dot.op_idx == 0 else rank - 1
    tpw = mfma.tiles_per_warp or (1,) * rank
    m_dim, n_dim = mfma.instr_shape[0], mfma.instr_shape[1]
    non_k_dim = m_dim if dot.op_idx == 0 else n_dim
    warp_size = 64
    k_index = rank - 1 if dot.op_idx == 0 else rank - 2
    k_size = shape[k_index]
    order = dot_operand_order(dot.op_idx, rank, True)
    dim_k, dim_non_k = names[order[0]], names[order[1]]
    regs = ID(k_width, "register", dim_k)
    lanes = ID(non_k_dim, "lane", dim_non_k) * ID(warp_size // non_k_dim, "lane", dim_k)
    tile = regs * lanes
    k_tile = warp_size // non_k_dim * k_width
    if (m_dim == 64 and n_dim == 4 and dot.op_idx == 0) or (m_dim == 4 and n_dim == 64 and dot.op_idx == 1):
        tile = tile * ID(16, "register", dim_k)
        k_tile *= 16
    if k_size > k_tile:
        tile = tile * ID(k_size // k_tile, "register", dim_k)
    # up to 3.5 the tiles along the non-K dim were counted by the other dim's tilesPerWarp
    tiles_index = non_k_index if releases.active().has("mfma-operand-tiles-per-warp") else k_index
    tile = tile * ID(tpw[tiles_index], "register", dim_non_k)
    tile = tile.transpose_outs([dim_k, dim_non_k])
    if batch:
        tile = tile * ID(1, "register", names[order[2]])
        tile = tile * ID(1, "lane", names[order[2]])
    warps = identity_standard_nd("warp", mfma.warps_per_cta, matrix_order(rank, True))
    return combine_cta_cga_with_shape(tile * warps, mfma.cta, shape)


def wmma_to_linear(wmma: AmdWmmaLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    names = std_names(rank)
    thread_order = matrix_order(rank, not wmma.is_transposed)
    outs = [names[thread_order[0]], names[thread_order[1]]]
    if wmma.version == 1:
        tile = LinearMap({"register": [(0, 2), (0, 4), (0, 8)], "lane": [(1, 0), (2, 0), (4, 0), (8, 0), (0, 1)]}, outs)
    else:
        tile = LinearMap({"register": [(0, 1), (0, 2), (0, 4)], "lane": [(1, 0), (2, 0), (4, 0), (8, 0), (0, 8)]}, outs)
    if rank == 3:
        tile = tile * ID(1, "register", names[0]) * ID(1, "lane", names[0])
    rep = [names[d] for d in matrix_order(rank, True)]
    # ctaLayout bases count instruction tiles; the product scales them by the tile's size.
    tiles = LinearMap({"register": list(wmma.register_bases), "warp": list(wmma.warp_bases)}, names)
    tiles = tiles.transpose_outs(names)
    cta = tile.transpose_outs(rep) * tiles.transpose_outs(rep)
    return combine_cta_cga_with_shape(cta, wmma.cta, shape)


def wmma_dot_to_linear(dot: DotOperandLayout, wmma: AmdWmmaLayout, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    names = std_names(rank)
    order = dot_operand_order(dot.op_idx, rank, True)
    dim_k, dim_non_k = names[order[0]], names[order[1]]
    instr = wmma.instr_shape
    k_dim = instr[2]
    non_k_dim = instr[0] if dot.op_idx == 0 else instr[1]
    k_width = dot.k_width
    depth = 32 // non_k_dim
    tile = ID(k_width, "register", dim_k) * ID(non_k_dim, "lane", dim_non_k)
    tile = tile * (ZEROS(depth, "lane", dim_k) if wmma.version == 1 else ID(depth, "lane", dim_k))
    tile = tile * ID(k_dim // (depth * k_width), "register", dim_k)
    if rank == 3:
        tile = tile * ID(1, "register", names[order[2]]) * ID(1, "lane", names[order[2]])
    k_idx = rank - 1 if dot.op_idx == 0 else rank - 2
    # Warps (and tile repetitions) of the parent, broadcast along K.
    # Warps of the parent broadcast along K (zero bases kept); tile repetitions along K are not the
    # operand's (it repeats along K on its own), so those register bases are dropped.
    warp_bases = [tuple(0 if d == k_idx else v for d, v in enumerate(b)) for b in wmma.warp_bases]
    reg_bases = [tuple(0 if d == k_idx else v for d, v in enumerate(b)) for b in wmma.register_bases]
    reg_bases = [b for b in reg_bases if any(b)]
    tiles = LinearMap({"register": reg_bases, "warp": warp_bases}, names)
    rep = [names[d] for d in order]
    for n in names:
        if n not in tile.out_names:
            tile = tile * ID(1, "register", n)
    return combine_cta_cga_with_shape(tile.transpose_outs(rep) * tiles.transpose_outs(rep), dot_cta(wmma.cta, k_idx),
                                      shape)


def linear_encoding_to_linear(enc: LinearEncoding, shape: Sequence[int]) -> LinearMap:
    rank = len(shape)
    names = std_names(rank)
    ll = LinearMap({k: list(v) for k, v in enc.bases.items()}, names)
    order = linear_encoding_order(enc, rank)
    permuted = [names[d] for d in order]
    labeled = {names[d]: shape[d] for d in order}
    ll = ll.transpose_outs(permuted)
    ll = ensure_not_smaller(ll, labeled)
    ll = ensure_not_larger(ll, labeled, broadcast_registers=False)
    return ll.transpose_outs(names)


def linear_encoding_order(enc: LinearEncoding, rank: int) -> list[int]:
    """Dims in the order the register bases first move along them, then the rest from the last dim down
    (Triton's LinearEncodingAttr::getOrder: lane, warp and block bases have no say)."""
    order: list[int] = []
    for b in enc.bases.get("register", ()):
        d = next((d for d, v in enumerate(b) if v), None)
        if d is not None and d not in order:
            order.append(d)
    order += [d for d in range(rank - 1, -1, -1) if d not in order]
    return order


def _dot_to_linear(dot: DotOperandLayout, shape: Sequence[int], element_bits: int | None) -> LinearMap:
    convert = _DOT_BY_PARENT.get(type(dot.parent))
    if convert is None:
        raise TritonscopeError(f"dot_op with a {dot.parent.kind} parent has no linear layout")
    if not dot.k_width and isinstance(dot.parent, NvidiaMmaLayout):
        # (Triton 2.0/2.1 print no kWidth: an MMA operand packs 32 bits a register, 32 / the element's bits)
        dot = replace(dot, k_width=max(1, 32 // element_bits) if element_bits else 2)
    return convert(dot, dot.parent, shape)


# Layout type -> its conversion, (layout, shape, element_bits) -> LinearMap; a new kind is one row here.
_TO_LINEAR = {
    BlockedLayout: lambda x, shape, bits: blocked_to_linear(x, shape),
    SliceLayout: slice_to_linear,
    NvidiaMmaLayout: lambda x, shape, bits: nvidia_mma_to_linear(x, shape),
    AmdMfmaLayout: lambda x, shape, bits: mfma_to_linear(x, shape),
    AmdWmmaLayout: lambda x, shape, bits: wmma_to_linear(x, shape),
    DotOperandLayout: _dot_to_linear,
    LinearEncoding: lambda x, shape, bits: linear_encoding_to_linear(x, shape),
    SwizzledSharedLayout: swizzled_to_linear,
    NvmmaSharedLayout: lambda x, shape, bits: nvmma_to_linear(x, shape),
    PaddedSharedLayout: lambda x, shape, bits: padded_to_linear(x, shape),
    SharedLinearLayout: lambda x, shape, bits: shared_linear_to_linear(x, shape),
    TensorMemoryLayout: tmem_to_linear,
    TensorMemoryScalesLayout: tmem_scales_to_linear,
}
# A dot operand's parent type -> its conversion, (dot, parent, shape) -> LinearMap.
_DOT_BY_PARENT = {
    BlockedLayout: fma_dot_to_linear,
    AmdMfmaLayout: mfma_dot_to_linear,
    AmdWmmaLayout: wmma_dot_to_linear,
    NvidiaMmaLayout: nvidia_dot_to_linear,
}


def layout_to_linear(layout, shape: Sequence[int], element_bits: int | None = None) -> LinearMap:
    rank = layout.rank
    if (layout.shared or layout.tensor_memory) and rank and len(shape) > rank:  # (rank 0 would recurse forever)
        one = layout_to_linear(layout, shape[-rank:], element_bits)
        return stack_buffers(one, shape, rank, "col" if layout.tensor_memory else "offset")
    convert = _TO_LINEAR.get(type(layout))
    if convert is None and getattr(layout, "unknown", ""):
        raise TritonscopeError(f"{layout.unknown}: not decoded (a Triton release newer than this tritonscope?)")
    if convert is None:
        raise TritonscopeError(f"no linear layout for {layout.kind} in tritonscope")
    return convert(layout, shape, element_bits)
