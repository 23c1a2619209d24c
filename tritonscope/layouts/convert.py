"""Layout dataclass -> LinearMap, one function per layout kind, after Triton's
lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp (the 3.9 line). Names follow Triton's so the two can
be read side by side."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.linear import (
    LinearMap,
    dim,
    ensure_not_larger,
    ensure_not_smaller,
    identity_standard_nd,
)
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
)

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


def _labeled(shape: Sequence[int]) -> dict[str, int]:
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
    labeled = _labeled(shape)
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


# --- distributed layouts -------------------------------------------------------------------------------------


def blocked_to_linear(b: BlockedLayout, shape: Sequence[int]) -> LinearMap:
    cta = (
        identity_standard_nd("register", b.size_per_thread, b.order)
        * identity_standard_nd("lane", b.threads_per_warp, b.order)
        * identity_standard_nd("warp", b.warps_per_cta, b.order)
    )
    return combine_cta_cga_with_shape(cta, b.cta, shape, broadcast_registers=False)


def slice_to_linear(s: SliceLayout, shape: Sequence[int], element_bits: int | None) -> LinearMap:
    parent_shape = list(shape)
    parent_shape.insert(s.dim, 1)
    parent_ll = layout_to_linear(s.parent, parent_shape, element_bits)
    tile = parent_ll.natural_tile
    parent = parent_ll.transpose_outs(std_names(len(parent_shape)))
    keep = [i for i in range(len(parent_shape)) if i != s.dim]
    bases = {k: [tuple(b[i] for i in keep) for b in v] for k, v in parent.in_bases.items()}
    bases["register"] = [b for b in bases.get("register", []) if any(b)]
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
    if is_a:
        tile[rank - 2], tile[rank - 1] = 16, k_width * 8
    else:
        tile[rank - 2], tile[rank - 1] = k_width * 8, 8
    order = dot_operand_order(dot.op_idx, rank, True)
    cta = nvidia_mma_tile(tile, k_width, order, dot_operand_order(dot.op_idx, rank, True))
    k_dim = rank - 1 if is_a else rank - 2
    hopper = mma.version_major == 3
    warps = broadcasted_dot_operand_layout(mma.warps_per_cta, matrix_order(rank, not hopper), k_dim, "warp")
    cta = cta * warps.transpose_outs(cta.out_names)
    return combine_cta_cga_with_shape(cta, mma.cta, shape)


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
    return combine_cta_cga_with_shape(cta, blocked.cta, shape)


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
    return combine_cta_cga_with_shape(tile, mfma.cta, shape)


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
    tile = tile * ID(tpw[non_k_index], "register", dim_non_k)
    tile = tile.transpose_outs([dim_k, dim_non_k])
    if batch:
        tile = tile * ID(1, "register", names[order[2]])
        tile = tile * ID(1, "lane", names[order[2]])
    warps = identity_standard_nd("warp", mfma.warps_per_cta, matrix_order(rank, True))
    return combine_cta_cga_with_shape(tile * warps, mfma.cta, shape)


def _wmma_tile_units(wmma: AmdWmmaLayout, rank: int) -> list[int]:
    instr = list(wmma.instr_shape[:2])
    return [1] * (rank - 2) + instr


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
    return combine_cta_cga_with_shape(tile.transpose_outs(rep) * tiles.transpose_outs(rep), wmma.cta, shape)


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
    """Dims in the order the register (then lane, warp, block) bases first move along them."""
    order: list[int] = []
    for in_dim in ("register", "lane", "warp", "block"):
        for b in enc.bases.get(in_dim, ()):
            for d, v in enumerate(b):
                if v and d not in order:
                    order.append(d)
    order += [d for d in range(rank - 1, -1, -1) if d not in order]
    return order


# --- shared layouts ------------------------------------------------------------------------------------------


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
    if rank > 2 and s.cta.trivial:
        return _stack_buffers(nvmma_to_linear(s, shape[-2:]), shape)
    if s.cta.trivial and len(s.cta.cta_order) != rank:  # the rank comes from the memdesc, not the attribute
        s = replace(s, cta=CTALayout((1,) * rank, (1,) * rank, tuple(range(rank - 1, -1, -1))))
    names = std_names(rank)
    per_cta = shape_per_cta(s.cta, shape)
    tma = tma_block_shape(per_cta, s.element_bit_width, s.swizzling_byte_width, s.fp4_padded, s.transposed)
    if s.swizzling_byte_width == 0:
        # Unswizzled: row-major from the contiguous dim (dim0 first when transposed).
        dims = [0, *range(rank - 1, 0, -1)] if s.transposed else list(range(rank - 1, -1, -1))
        layout = LinearMap.empty()
        for i in dims:
            layout = layout * ID(tma[i], "offset", names[i])
        layout = ensure_not_smaller(layout, _labeled(per_cta))
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
    layout = ensure_not_smaller(layout, _labeled(per_cta), names)
    return combine_cta_cga_with_shape(layout, s.cta, shape)


def _stack_buffers(one: LinearMap, shape: Sequence[int]) -> LinearMap:
    return _stack_buffers_nd(one, shape, 2)


def _stack_buffers_nd(one: LinearMap, shape: Sequence[int], rank: int) -> LinearMap:
    """A multi-buffered memdesc (NxMxK with a rank-2 layout): buffers one after another, row-major."""
    lead = len(shape) - rank
    one = one.transpose_outs(std_names(rank))
    bases = {k: [(0,) * lead + tuple(b) for b in v] for k, v in one.in_bases.items()}
    for d in range(lead - 1, -1, -1):
        for i in range(shape[d].bit_length() - 1):
            bases["offset"].append(tuple((1 << i) if j == d else 0 for j in range(len(shape))))
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
        labeled = _labeled(shape)
        ll = ensure_not_smaller(ll, labeled)
        return ensure_not_larger(ll, labeled)
    cta = identity_standard_nd("offset", shape, p.order)
    return cta.transpose_outs(names) * LinearMap({"block": []}, names)


def shared_linear_to_linear(s: SharedLinearLayout, shape: Sequence[int]) -> LinearMap:
    names = std_names(len(shape))
    return LinearMap({"offset": list(s.offset_bases), "block": list(s.block_bases)}, names)


def layout_to_linear(layout, shape: Sequence[int], element_bits: int | None = None) -> LinearMap:
    rank = layout.rank
    if layout.shared and rank is not None and len(shape) > rank:
        return _stack_buffers_nd(layout_to_linear(layout, shape[-rank:], element_bits), shape, rank)
    if isinstance(layout, BlockedLayout):
        return blocked_to_linear(layout, shape)
    if isinstance(layout, SliceLayout):
        return slice_to_linear(layout, shape, element_bits)
    if isinstance(layout, NvidiaMmaLayout):
        return nvidia_mma_to_linear(layout, shape)
    if isinstance(layout, AmdMfmaLayout):
        return mfma_to_linear(layout, shape)
    if isinstance(layout, AmdWmmaLayout):
        return wmma_to_linear(layout, shape)
    if isinstance(layout, DotOperandLayout):
        parent = layout.parent
        if isinstance(parent, BlockedLayout):
            return fma_dot_to_linear(layout, parent, shape)
        if isinstance(parent, AmdMfmaLayout):
            return mfma_dot_to_linear(layout, parent, shape)
        if isinstance(parent, AmdWmmaLayout):
            return wmma_dot_to_linear(layout, parent, shape)
        if isinstance(parent, NvidiaMmaLayout):
            return nvidia_dot_to_linear(layout, parent, shape)
        raise TritonscopeError(f"dot_op with a {parent.kind} parent has no linear layout")
    if isinstance(layout, LinearEncoding):
        return linear_encoding_to_linear(layout, shape)
    if isinstance(layout, SwizzledSharedLayout):
        return swizzled_to_linear(layout, shape, element_bits)
    if isinstance(layout, NvmmaSharedLayout):
        return nvmma_to_linear(layout, shape)
    if isinstance(layout, PaddedSharedLayout):
        return padded_to_linear(layout, shape)
    if isinstance(layout, SharedLinearLayout):
        return shared_linear_to_linear(layout, shape)
    raise TritonscopeError(f"no linear layout for {layout.kind} in tritonscope")
