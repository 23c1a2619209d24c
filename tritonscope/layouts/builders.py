"""Attribute text (as read by syntax.py) -> the layout dataclasses of model.py, one builder per kind.

Each builder reads its fields through `_Fields`, which checks types and reports the offending field by
name ("sizePerThread: expected a list of integers"); a field no builder reads is an error too.
"""

from __future__ import annotations

import re

from tritonscope.errors import ParseError
from tritonscope.layouts.model import (
    AmdMfmaLayout,
    AmdWmmaLayout,
    BlockedLayout,
    CTALayout,
    DotOperandLayout,
    Layout,
    LinearEncoding,
    NvidiaMmaLayout,
    NvmmaSharedLayout,
    OpaqueLayout,
    PaddedSharedLayout,
    SharedLinearLayout,
    SliceLayout,
    SwizzledSharedLayout,
    TensorMemoryLayout,
    TensorMemoryScalesLayout,
)
from tritonscope.layouts.syntax import AliasRef, AttrText


class UnknownLayoutKind(ParseError):
    """A layout attribute of a kind no builder reads (a release newer than this tritonscope may print one)."""


def to_layout(value: object, aliases: dict, text: str, name: str | None = None, lenient: bool = False) -> Layout:
    """The layout `value` spells. `lenient` (a module's layouts): one of a kind not known, or built on one,
    is an OpaqueLayout saying so instead of an error: the module's other layouts, and every command that needs
    no layout, still read; asking for its numbers says why there are none."""
    try:
        return _to_layout(value, aliases, text)
    except UnknownLayoutKind as exc:
        if lenient and isinstance(value, AttrText):
            return _stamped(OpaqueLayout(name=_qualified(value), unknown=exc.message), value, text)
        raise


def _to_layout(value: object, aliases: dict, text: str) -> Layout:
    if isinstance(value, AliasRef):
        if value.name not in aliases:
            raise ParseError(f"unknown layout alias #{value.name}")
        return aliases[value.name]
    if not isinstance(value, AttrText):
        raise ParseError(f"expected a layout attribute like #ttg.blocked<{{...}}>, got {text[:60]!r}")
    builder = _BUILDERS.get(value.kind)
    if builder is None:
        raise UnknownLayoutKind(f"unknown layout kind {_qualified(value)}")
    fields = _Fields(value, aliases)
    layout = builder(fields)
    fields.check_all_used()
    return _stamped(layout, value, text)


def _qualified(value: AttrText) -> str:
    """`ttg.blocked`: the attribute's kind with its dialect."""
    return f"{value.dialect + '.' if value.dialect else ''}{value.kind}"


def _stamped(layout: Layout, value: AttrText, text: str) -> Layout:
    """`layout` with the dialect and text it was read from (frozen fields set once, here)."""
    object.__setattr__(layout, "dialect", value.dialect)
    object.__setattr__(layout, "text", text)
    return layout


class _Fields:
    """Typed access to an attribute's `{key = value}` dictionary, with errors that name the field."""

    def __init__(self, attr: AttrText, aliases: dict):
        self.attr = attr
        self.values = dict(attr.fields)
        self.aliases = aliases
        self.used: set[str] = set()

    def has(self, key: str) -> bool:
        return key in self.values

    def _get(self, key: str, required: bool):
        self.used.add(key)
        if key not in self.values:
            if required:
                raise ParseError(f"{self.attr.kind}: missing field {key}")
            return None
        return self.values[key]

    def ints(self, key: str, required: bool = True) -> tuple[int, ...] | None:
        v = self._get(key, required)
        if v is None:
            return None
        if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise ParseError(f"{key}: expected a list of integers, got {_show(v)}")
        return tuple(v)

    def int(self, key: str, required: bool = True, default: int | None = None) -> int | None:
        v = self._get(key, required and default is None)
        if v is None:
            return default
        if not isinstance(v, int) or isinstance(v, bool):
            raise ParseError(f"{key}: expected an integer, got {_show(v)}")
        return v

    def bool(self, key: str, default: bool = False) -> bool:
        v = self._get(key, False)
        if v is None:
            return default
        if not isinstance(v, bool):
            raise ParseError(f"{key}: expected true or false, got {_show(v)}")
        return v

    def word(self, key: str, required: bool = True) -> str | None:
        """A bare keyword value (`blockRepOrder = kThenMn`)."""
        v = self._get(key, required)
        if v is None:
            return None
        if not isinstance(v, str):
            raise ParseError(f"{key}: expected a keyword, got {_show(v)}")
        return v

    def bases(self, key: str, required: bool = True) -> tuple[tuple[int, ...], ...] | None:
        v = self._get(key, required)
        if v is None:
            return None
        if not isinstance(v, list) or not all(
            isinstance(b, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in b) for b in v
        ):
            raise ParseError(f"{key}: expected a list of integer lists like [[0, 1], [1, 0]], got {_show(v)}")
        if any(x < 0 for b in v for x in b):  # coordinates combine by XOR: a negative one has no meaning
            raise ParseError(f"{key}: expected non-negative coordinates, got {_show(v)}")
        return tuple(tuple(b) for b in v)

    def layout(self, key: str) -> Layout:
        v = self._get(key, True)
        if isinstance(v, (AliasRef, AttrText)):
            try:
                layout = to_layout(v, self.aliases, str(v))
            except UnknownLayoutKind as exc:
                raise UnknownLayoutKind(f"{key}: {exc.message}") from None
            except ParseError as exc:
                raise ParseError(f"{key}: {exc.message}") from None
            if getattr(layout, "unknown", ""):  # (a slice or operand of a kind not known: not known either)
                raise UnknownLayoutKind(f"{key}: {layout.unknown}")
            return layout
        raise ParseError(f"{key}: expected a layout (#alias or #ttg.<layout><...>), got {_show(v)}")

    def cta(self, rank: int, order: tuple[int, ...] | None) -> CTALayout:
        per_cga = self.ints("CTAsPerCGA", required=False)
        split = self.ints("CTASplitNum", required=False)
        cta_order = self.ints("CTAOrder", required=False)
        cga_bases = self.bases("CGALayout", required=False)
        for key, v in (("CTAsPerCGA", per_cga), ("CTASplitNum", split), ("CTAOrder", cta_order)):
            if v is not None and len(v) != rank:
                raise ParseError(f"{key}: expected {rank} entries (the layout's rank), got {len(v)}")
        _check_pow2("CTAsPerCGA", per_cga)
        _check_pow2("CTASplitNum", split)
        return CTALayout(
            ctas_per_cga=per_cga or (1,) * rank,
            cta_split_num=split or per_cga or (1,) * rank,
            cta_order=cta_order or order or tuple(range(rank - 1, -1, -1)),
            cga_bases=cga_bases,
        )

    def check_all_used(self) -> None:
        unknown = [k for k in self.values if k not in self.used]
        if unknown:
            raise ParseError(f"{self.attr.kind}: unknown field {unknown[0]}")


def _show(v: object) -> str:
    s = str(v)
    return s if len(s) <= 40 else s[:37] + "..."


def _same_rank(kind: str, **lists: tuple[int, ...] | None) -> int:
    ranks = {k: len(v) for k, v in lists.items() if v is not None}
    first_key, rank = next(iter(ranks.items()))
    for k, r in ranks.items():
        if r != rank:
            raise ParseError(f"{k}: expected {rank} entries like {first_key}, got {r}")
    return rank


def _check_order(key: str, order: tuple[int, ...]) -> None:
    if sorted(order) != list(range(len(order))):
        raise ParseError(f"{key}: expected a permutation of 0..{len(order) - 1}, got {list(order)}")


# What one CTA can hold: a warp has 32 lanes (NVIDIA, RDNA) or 64 (CDNA); a CTA at most 1,024 threads, so
# 32 warps (Triton's largest num_warps is 32; 1,024 leaves room). A layout past these is no layout Triton
# makes, and modelling it would cost time and memory in proportion (65,536 lanes: minutes, gigabytes).
_MAX_PRODUCT = {"threadsPerWarp": 64, "warpsPerCTA": 1024}


def _check_pow2(key: str, values) -> None:
    """Counts of threads, warps, CTAs and tiles: positive powers of two (a 0 would divide by zero below),
    lanes and warps within what a CTA holds (_MAX_PRODUCT)."""
    if values is None:
        return
    if any(x <= 0 or x & (x - 1) for x in values):
        raise ParseError(f"{key}: expected powers of two, got {list(values)}")
    limit = _MAX_PRODUCT.get(key)
    total = 1
    for x in values:
        total *= x
    if limit is not None and total > limit:
        what = "lanes than a warp" if key == "threadsPerWarp" else "warps than a CTA"
        raise ParseError(f"{key}: {list(values)} make {total}, more {what} has ({limit} at most)")


def _build_blocked(f: _Fields) -> Layout:
    spt, tpw, wpc, order = f.ints("sizePerThread"), f.ints("threadsPerWarp"), f.ints("warpsPerCTA"), f.ints("order")
    rank = _same_rank("blocked", sizePerThread=spt, threadsPerWarp=tpw, warpsPerCTA=wpc, order=order)
    _check_order("order", order)
    for key, v in (("sizePerThread", spt), ("threadsPerWarp", tpw), ("warpsPerCTA", wpc)):
        _check_pow2(key, v)
    return BlockedLayout(spt, tpw, wpc, order, f.cta(rank, order))


def _build_slice(f: _Fields) -> Layout:
    dim = f.int("dim")
    parent = f.layout("parent")
    if not 0 <= dim < parent.rank:
        raise ParseError(f"dim: {dim} is outside the parent's rank {parent.rank}")
    return SliceLayout(dim, parent)


def _build_nvidia_mma(f: _Fields) -> Layout:
    major, minor = f.int("versionMajor"), f.int("versionMinor", default=0)
    wpc = f.ints("warpsPerCTA")
    _check_pow2("warpsPerCTA", wpc)
    instr = f.ints("instrShape", required=False) or ()
    if major not in (1, 2, 3, 5):
        raise ParseError(f"versionMajor: expected 1, 2, 3 or 5, got {major}")
    if major in (3, 5) and len(instr) < 2:  # wgmma/tcgen05 tiles are instrShape [M, N, K]; without it, no tile
        raise ParseError(f"instrShape: versionMajor {major} needs [M, N, K], got {list(instr)}")
    return NvidiaMmaLayout(major, minor, wpc, instr, f.cta(len(wpc), None))


def _build_amd_mfma(f: _Fields) -> Layout:
    version = f.int("version", required=False)
    if version is None:  # up to 3.2: versionMajor/versionMinor, instrShape [M, N]
        version = f.int("versionMajor")
        f.int("versionMinor", default=0)
    wpc = f.ints("warpsPerCTA")
    _check_pow2("warpsPerCTA", wpc)
    instr = f.ints("instrShape", required=False)
    if instr is None:  # 3.0/3.1 printed MDim/NDim
        instr = (f.int("MDim"), f.int("NDim"))
    transposed = f.bool("isTransposed")
    tiles = f.ints("tilesPerWarp", required=False) or (1,) * len(wpc)
    _check_pow2("tilesPerWarp", tiles)
    ebw = f.int("elementBitWidth", required=False, default=32)
    element_type = f._get("elementType", False)  # 3.5 only: the result's type (3.6 on: its width, for 64)
    if element_type is not None:
        if not isinstance(element_type, str) or not re.fullmatch(r"[a-z]+\d+", element_type):
            raise ParseError(f"elementType: expected an element type (i32, f32, f64, ...), got {_show(element_type)}")
        ebw = 64 if element_type.endswith("64") else 32  # (64-bit MFMA tiles are one row high: convert.py)
    if len(instr) < 2 or instr[0] not in (4, 16, 32, 64) or instr[1] not in (4, 16, 32, 64):
        raise ParseError(f"instrShape: expected [M, N(, K)] with M, N in 4/16/32/64, got {list(instr)}")
    return AmdMfmaLayout(version, wpc, instr, transposed, tiles, ebw, f.cta(len(wpc), None))


def _build_amd_wmma(f: _Fields) -> Layout:
    """Up to 3.8: `warpsPerCTA = [...]`; 3.9: `ctaLayout = {register = [[..]], warp = [[..]]}` in tile units."""
    version = f.int("version", default=1)
    if version not in (1, 2, 3):  # (Triton's own parser: "WMMA version must be in the [1, 3] range")
        raise ParseError(f"version: WMMA versions are 1 to 3, got {version}")
    transposed = f.bool("isTranspose") if f.has("isTranspose") else f.bool("isTransposed")
    instr = f.ints("instrShape", required=False)
    if instr is None and version == 3:  # (v3 prints its shape: one is not guessed)
        raise ParseError("instrShape: a WMMA v3 layout names its instruction shape")
    instr = instr or (16, 16, 16)
    f.ints("tilesPerWarp", required=False)
    reg_bases: tuple[tuple[int, ...], ...] = ()
    if f.has("ctaLayout"):
        cta_layout = f._get("ctaLayout", True)
        if not isinstance(cta_layout, dict):
            raise ParseError("ctaLayout: expected {register = [[...]], warp = [[...]]}")
        sub = _Fields(AttrText(None, "amd_wmma ctaLayout", list(cta_layout.items())), f.aliases)
        warp_bases = sub.bases("warp", required=False) or ()
        reg_bases = sub.bases("register", required=False) or ()
        sub.check_all_used()
        rank = len((warp_bases or reg_bases or ((0, 0),))[0])
        wpc = None
    else:
        wpc = f.ints("warpsPerCTA")
        _check_pow2("warpsPerCTA", wpc)
        rank = len(wpc)
        order = list(range(rank - 1, -1, -1))  # warps fill the tile grid row-major (Triton's default MMA order)
        warp_bases = tuple(
            tuple((1 << i) if j == d else 0 for j in range(rank)) for d in order for i in range(wpc[d].bit_length() - 1)
        )
    return AmdWmmaLayout(version, transposed, tuple(warp_bases), tuple(reg_bases), instr, f.cta(rank, None), rank)


def _build_dot_op(f: _Fields) -> Layout:
    op_idx = f.int("opIdx")
    if op_idx not in (0, 1):
        raise ParseError(f"opIdx: expected 0 or 1, got {op_idx}")
    parent = f.layout("parent")
    k_width = f.int("kWidth", required=False, default=0)
    if k_width:  # (0: not given; 3 or 6 registers along K is no layout: Triton aborts on it)
        _check_pow2("kWidth", (k_width,))
    f.bool("isMMAv1Row")  # 2.3's Volta operands: parsed, but mma v1 has no linear layout
    if op_idx == 1 and getattr(parent, "kind", None) == "nvidia_mma" and parent.version_major == 3:
        raise ParseError("opIdx: a Hopper (versionMajor 3) MMA reads its B operand from shared memory: it has no "
                         "operand layout 1 (Triton refuses it)")
    return DotOperandLayout(op_idx, parent, k_width)


def _build_linear(f: _Fields, spelling: str = "linear") -> Layout:
    reg, lane, warp = f.bases("register"), f.bases("lane"), f.bases("warp")
    block = f.bases("block", required=False) or ()
    dims = {len(b) for b in (*reg, *lane, *warp, *block)}
    if len(dims) > 1:
        raise ParseError(f"bases: every basis must have the same rank, got ranks {sorted(dims)}")
    # a distributed layout is a permutation once its broadcast (zero) bases are left out: each other basis
    # one power of two along one dim, no two alike (Triton refuses any other: an element held by two
    # threads that no broadcast explains). A generic one (3.8 on) only keeps register, lane and block bases
    # along one dim: its warp bases may move along several, and two bases may be alike.
    generic = spelling == "generic_linear"
    seen: dict[tuple[int, int], str] = {}
    for name, bases in (("register", reg), ("lane", lane), ("warp", warp), ("block", block)):
        for b in bases:
            nonzero = [(d, v) for d, v in enumerate(b) if v]
            if not nonzero or (generic and name == "warp"):
                continue
            if len(nonzero) > 1 or nonzero[0][1] & (nonzero[0][1] - 1):
                raise ParseError(f"{name} basis {list(b)}: a distributed linear layout's {name} basis is one power "
                                 "of two along one dim (or all zeros)")
            if nonzero[0] in seen and not generic:
                raise ParseError(f"{name} basis {list(b)} repeats a {seen[nonzero[0]]} basis: not a permutation once "
                                 "the zero bases are left out (Triton refuses it)")
            seen[nonzero[0]] = name
    return LinearEncoding({"register": reg, "lane": lane, "warp": warp, "block": block}, spelling)


def _build_swizzled(f: _Fields, kind: str) -> Layout:
    vec, per_phase, max_phase = f.int("vec"), f.int("perPhase"), f.int("maxPhase")
    for name, value in (("vec", vec), ("perPhase", per_phase), ("maxPhase", max_phase)):
        if value < 1:
            raise ParseError(f"{name}: expected a positive integer, got {value}")
    order = f.ints("order")
    _check_order("order", order)
    has_leading_offset = f.bool("hasLeadingOffset")
    return SwizzledSharedLayout(
        vec, per_phase, max_phase, order, f.cta(len(order), order), has_leading_offset, spelling=kind
    )


def _build_nvmma_shared(f: _Fields) -> Layout:
    width = f.int("swizzlingByteWidth")
    if width not in (0, 32, 64, 128):
        raise ParseError(f"swizzlingByteWidth: expected 0, 32, 64 or 128, got {width}")
    transposed = f.bool("transposed")
    ebw = f.int("elementBitWidth")
    if ebw < 1:
        raise ParseError(f"elementBitWidth: expected a positive width, got {ebw}")
    fp4 = f.bool("fp4Padded")
    if fp4 and width != 128:
        raise ParseError(f"fp4Padded: padded FP4 is laid out with 128-byte swizzling only, got {width}")
    rank_hint = f.ints("CTAsPerCGA", required=False) or f.ints("CTAOrder", required=False)
    cga = f.bases("CGALayout", required=False)
    rank = len(rank_hint) if rank_hint else (len(cga[0]) if cga else 2)
    return NvmmaSharedLayout(width, transposed, ebw, fp4, f.cta(rank, None), f.int("rank", required=False))


def _build_padded_shared(f: _Fields) -> Layout:
    intervals = f.attr.intervals
    offset = f.bases("offset", required=False)
    order = f.ints("order", required=False)
    shape = f.ints("shape", required=False)
    block = f.bases("block", required=False) or ()
    if offset is None and (order is None or shape is None):
        raise ParseError("padded_shared: expected offset = [[...]] or order and shape")
    for interval, padding in intervals or ():
        _check_pow2("padding interval", (interval, padding))  # Triton's verifier asks powers of two
    if order is not None:
        _check_order("order", order)
        if shape is not None and len(shape) != len(order):
            raise ParseError(f"shape: expected {len(order)} entries (the order's rank), got {len(shape)}")
        if shape is not None and any(x <= 0 for x in shape):
            raise ParseError(f"shape: expected positive sizes, got {list(shape)}")
    return PaddedSharedLayout(tuple(intervals or ()), offset, order, shape, block)


def _build_shared_linear(f: _Fields) -> Layout:
    offset = f.bases("offset")
    block = f.bases("block", required=False) or ()
    alignment = f.int("alignment", required=False, default=16)
    return SharedLinearLayout(offset, block, alignment)


def _tmem_ctas(f: _Fields) -> tuple[tuple[int, int] | None, tuple[tuple[int, ...], ...] | None]:
    """The CTA fields of a tensor memory encoding: 3.6/3.7's CTASplitM/N or 3.8's CGALayout bases."""
    split_m, split_n = f.int("CTASplitM", required=False), f.int("CTASplitN", required=False)
    cga = f.bases("CGALayout", required=False)
    split = None
    if split_m is not None or split_n is not None:
        split = (split_m or 1, split_n or 1)
        _check_pow2("CTASplitM/CTASplitN", split)
        if cga is not None:
            raise ParseError("CTASplitM/CTASplitN and CGALayout are two releases' spellings: give one")
    if cga is not None and any(len(b) != 2 for b in cga):
        raise ParseError(f"CGALayout: expected bases of 2 coordinates (tensor memory is 2-D), got {_show(list(cga))}")
    return split, cga


def _build_tensor_memory(f: _Fields) -> Layout:
    block_m, block_n = f.int("blockM"), f.int("blockN")
    if block_m not in (64, 128):
        raise ParseError(f"blockM: expected 64 or 128 (tensor memory has 128 lanes), got {block_m}")
    _check_pow2("blockN", (block_n,))
    unpacked = None
    if f.has("unpacked"):
        if f.has("colStride"):
            raise ParseError("unpacked and colStride are two releases' spellings: give one")
        unpacked = f.bool("unpacked")
        col_stride = 1
    else:
        col_stride = f.int("colStride")
        _check_pow2("colStride", (col_stride,))
        if col_stride > 32:
            raise ParseError(f"colStride: expected at most 32 (one 32-bit column per bit), got {col_stride}")
    split, cga = _tmem_ctas(f)
    return TensorMemoryLayout(block_m, block_n, col_stride, unpacked, split, cga, f.bool("twoCTAs"),
                              f.bool("fp4Padded"))


def _build_tensor_memory_scales(f: _Fields) -> Layout:
    split, cga = _tmem_ctas(f)
    order = f.word("blockRepOrder", required=False) or "mnThenK"
    if order not in ("mnThenK", "kThenMn"):
        raise ParseError(f"blockRepOrder: expected mnThenK or kThenMn, got {order}")
    return TensorMemoryScalesLayout(split, cga, order == "kThenMn")


_BUILDERS = {
    "blocked": _build_blocked,
    "slice": _build_slice,
    "nvidia_mma": _build_nvidia_mma,
    "mma": _build_nvidia_mma,
    "amd_mfma": _build_amd_mfma,
    "amd_wmma": _build_amd_wmma,
    "dot_op": _build_dot_op,
    "linear": _build_linear,
    "generic_linear": lambda f: _build_linear(f, "generic_linear"),
    "shared": lambda f: _build_swizzled(f, "shared"),
    "swizzled_shared": lambda f: _build_swizzled(f, "swizzled_shared"),
    "amd_rotating_shared": lambda f: _build_swizzled(f, "amd_rotating_shared"),
    "nvmma_shared": _build_nvmma_shared,
    "padded_shared": _build_padded_shared,
    "shared_linear": _build_shared_linear,
    "tensor_memory_encoding": _build_tensor_memory,
    "tensor_memory_scales_encoding": _build_tensor_memory_scales,
}
