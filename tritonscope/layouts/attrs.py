"""Layout attribute text -> dataclasses.

Accepts what Triton prints in TTGIR: `#ttg.blocked<{...}>` (3.3+), `#triton_gpu.blocked<{...}>` (up to 3.2),
2.3's `#triton_gpu.mma<{...}>`, bare `#blocked<...>`, with or without a leading `#name = `; references to
other aliases (`parent = #blocked`) resolve through an alias table. Pure: no triton import, no file access.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
)
from tritonscope.layouts.syntax import AliasRef, AttrText, parse_value

__all__ = [
    "DTYPE_BITS",
    "ParseError",
    "TensorType",
    "parse_layout",
    "parse_layout_aliases",
    "parse_tensor_type",
]

# `#blocked1 = #ttg.blocked<{...}>` at the start of a TTGIR line.
ALIAS_LINE = re.compile(r"^#(?P<name>[A-Za-z_][\w$.]*)\s*=\s*(?P<value>#.*?)\s*$", re.MULTILINE)
# `tensor<64x256xf16, #blocked>`, `!ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>`.
TENSOR_TYPE = re.compile(r"^(?P<kind>tensor|!(?:ttg|triton_gpu|tt)\.memdesc)<(?P<body>.*)>$", re.DOTALL)
# `64x256x` dims prefix of a shaped type body.
SHAPE_PREFIX = re.compile(r"^((?:\d+x)*)")
POINTER_TYPE = re.compile(r"^!tt\.ptr<(?P<pointee>[^,>]+)(?:,\s*\d+)?>$")

# Bits per element of the scalar types Triton prints.
DTYPE_BITS: dict[str, int] = {
    "i1": 8,
    "i8": 8,
    "i16": 16,
    "i32": 32,
    "i64": 64,
    "f16": 16,
    "bf16": 16,
    "f32": 32,
    "f64": 64,
    "f8E4M3FN": 8,
    "f8E5M2": 8,
    "f8E4M3FNUZ": 8,
    "f8E5M2FNUZ": 8,
    "f8E4M3B11FNUZ": 8,
    "f4E2M1FN": 4,
    "tf32": 32,
    "fp8e4nv": 8,
    "fp8e5": 8,
    "u8": 8,
    "u16": 16,
    "u32": 32,
    "u64": 64,
    "index": 64,
}


@dataclass(frozen=True)
class TensorType:
    """A ranked tensor or shared-memory descriptor type with its layout."""

    shape: tuple[int, ...]
    dtype: str  # element type as printed (`f16`, `!tt.ptr<f16>`)
    element_bits: int  # bits of one element (64 for pointers)
    encoding: Layout | None
    encoding_name: str | None  # alias name without `#` when the type refers to an alias
    pointee_dtype: str | None = None  # for tensors of pointers: what a load through them reads
    pointee_bits: int | None = None
    memory: str = "registers"  # "registers" for tensor<>, "shared" for memdesc
    alloc_shape: tuple[int, ...] | None = None  # memdesc's trailing allocation shape, when printed

    @property
    def access_bits(self) -> int:
        """Bits moved per element by a load/store of this tensor (the pointee for pointer tensors)."""
        return self.pointee_bits if self.pointee_bits is not None else self.element_bits


def dtype_bits(dtype: str) -> int | None:
    if dtype in DTYPE_BITS:
        return DTYPE_BITS[dtype]
    if POINTER_TYPE.match(dtype):
        return 64
    m = re.fullmatch(r"[iuf](\d+)", dtype)
    return int(m.group(1)) if m else None


def parse_layout(text: str, aliases: dict[str, Layout] | None = None) -> Layout:
    """One layout attribute; `#name = ` in front is allowed. ParseError names the offending field."""
    text = text.strip()
    m = ALIAS_LINE.match(text)
    if m:
        text = m.group("value")
    value = parse_value(text)
    return _to_layout(value, aliases or {}, text)


def parse_layout_aliases(ttgir_text: str) -> dict[str, Layout]:
    """Every `#name = #<dialect>.<layout><...>` alias of a TTGIR module; aliases may refer to earlier ones."""
    raw: dict[str, tuple[str, int]] = {}
    for m in ALIAS_LINE.finditer(ttgir_text):
        value = m.group("value")
        if value.startswith(("#loc", "loc(")) or _is_non_layout(value):
            continue
        line = ttgir_text.count("\n", 0, m.start()) + 1
        raw[m.group("name")] = (value, line)
    out: dict[str, Layout] = {}
    resolving: set[str] = set()

    def resolve(name: str) -> Layout:
        if name in out:
            return out[name]
        if name not in raw:
            raise ParseError(f"unknown layout alias #{name}")
        if name in resolving:
            raise ParseError(f"layout alias #{name} refers to itself", line=raw[name][1])
        if len(resolving) >= 64:  # resolving recurses; real chains (slice of dot_op of mma) are < 5 deep
            raise ParseError(f"layout alias #{name}: aliases refer to aliases more than 64 deep", line=raw[name][1])
        resolving.add(name)
        text, line = raw[name]
        try:
            out[name] = _to_layout(parse_value(text), _LazyAliases(resolve), text, name=name)
        except ParseError as exc:
            raise ParseError(f"#{name}: {exc.message}", line=line) from None
        resolving.discard(name)
        return out[name]

    for name in raw:
        resolve(name)
    return out


def parse_tensor_type(text: str, aliases: dict[str, Layout] | None = None) -> TensorType:
    """`tensor<64x256xf16, #blocked>`, `tensor<64x!tt.ptr<f16>, #ttg.slice<...>>`, `!ttg.memdesc<...>`."""
    aliases = aliases or {}
    text = text.strip()
    m = TENSOR_TYPE.match(text)
    if not m:
        raise ParseError(f"not a tensor or memdesc type: {text[:80]}")
    body = m.group("body")
    parts = _split_top_level(body)
    dims_and_type = parts[0].strip()
    shape_text = SHAPE_PREFIX.match(dims_and_type).group(1)
    shape = tuple(int(d) for d in shape_text.split("x") if d)
    dtype = dims_and_type[len(shape_text) :].strip()
    bits = dtype_bits(dtype)
    if bits is None:
        raise ParseError(f"unknown element type {dtype!r} in {text[:80]}")
    pointee = pointee_bits = None
    pm = POINTER_TYPE.match(dtype)
    if pm:
        pointee = pm.group("pointee").strip()
        pointee_bits = dtype_bits(pointee)
    encoding: Layout | None = None
    encoding_name: str | None = None
    alloc_shape = None
    if len(parts) > 1:
        enc_text = parts[1].strip()
        if re.fullmatch(r"#[A-Za-z_][\w$.]*", enc_text) and "<" not in enc_text:
            encoding_name = enc_text[1:]
            if encoding_name not in aliases:
                raise ParseError(f"unknown layout alias #{encoding_name} in {text[:80]}")
            encoding = aliases[encoding_name]
        else:
            encoding = parse_layout(enc_text, aliases)
    for extra in parts[2:]:
        extra = extra.strip()
        if re.fullmatch(r"\d+(x\d+)*", extra):
            alloc_shape = tuple(int(d) for d in extra.split("x"))
    memory = "registers" if m.group("kind") == "tensor" else "shared"
    if any(p.strip().startswith("#ttng.tensor_memory") for p in parts[2:]):
        memory = "tensor_memory"
    return TensorType(shape, dtype, bits, encoding, encoding_name, pointee, pointee_bits, memory, alloc_shape)


class _LazyAliases(dict):
    """An alias table that resolves an alias the first time it is looked up (aliases refer to aliases)."""

    def __init__(self, resolve):
        super().__init__()
        self._resolve = resolve

    def __contains__(self, key: object) -> bool:  # every name is tried; resolve() raises when unknown
        return True

    def __getitem__(self, key: str) -> Layout:
        return self._resolve(key)


def _is_non_layout(value: str) -> bool:
    """Memory spaces (`#ttg.shared_memory`, `#ttng.tensor_memory`) share the alias syntax but are no layouts."""
    return bool(re.match(r"#(ttg|triton_gpu|ttng)\.(shared_memory|tensor_memory)(?![\w<])", value))


def _split_top_level(body: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch in "<[{(":
            depth += 1
        elif ch in ">]})":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return parts


# --- attribute -> dataclass ------------------------------------------------------------------------------


def _to_layout(value: object, aliases: dict, text: str, name: str | None = None) -> Layout:
    if isinstance(value, AliasRef):
        if value.name not in aliases:
            raise ParseError(f"unknown layout alias #{value.name}")
        return aliases[value.name]
    if not isinstance(value, AttrText):
        raise ParseError(f"expected a layout attribute like #ttg.blocked<{{...}}>, got {text[:60]!r}")
    kind = value.kind
    builder = _BUILDERS.get(kind)
    if builder is None and value.dialect == "ttng":  # tensor memory encodings: known, not decoded
        layout = OpaqueLayout(name=f"ttng.{kind}")
        object.__setattr__(layout, "dialect", value.dialect)
        object.__setattr__(layout, "text", text)
        return layout
    if builder is None:
        raise ParseError(f"unknown layout kind {value.dialect + '.' if value.dialect else ''}{kind}")
    fields = _Fields(value, aliases)
    layout = builder(fields)
    fields.check_all_used()
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

    def bases(self, key: str, required: bool = True) -> tuple[tuple[int, ...], ...] | None:
        v = self._get(key, required)
        if v is None:
            return None
        if not isinstance(v, list) or not all(
            isinstance(b, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in b) for b in v
        ):
            raise ParseError(f"{key}: expected a list of integer lists like [[0, 1], [1, 0]], got {_show(v)}")
        return tuple(tuple(b) for b in v)

    def layout(self, key: str) -> Layout:
        v = self._get(key, True)
        if isinstance(v, (AliasRef, AttrText)):
            try:
                return _to_layout(v, self.aliases, str(v))
            except ParseError as exc:
                raise ParseError(f"{key}: {exc.message}") from None
        raise ParseError(f"{key}: expected a layout (#alias or #ttg.<layout><...>), got {_show(v)}")

    def cta(self, rank: int, order: tuple[int, ...] | None) -> CTALayout:
        per_cga = self.ints("CTAsPerCGA", required=False)
        split = self.ints("CTASplitNum", required=False)
        cta_order = self.ints("CTAOrder", required=False)
        cga_bases = self.bases("CGALayout", required=False)
        for key, v in (("CTAsPerCGA", per_cga), ("CTASplitNum", split), ("CTAOrder", cta_order)):
            if v is not None and len(v) != rank:
                raise ParseError(f"{key}: expected {rank} entries (the layout's rank), got {len(v)}")
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


def _build_blocked(f: _Fields) -> Layout:
    spt, tpw, wpc, order = f.ints("sizePerThread"), f.ints("threadsPerWarp"), f.ints("warpsPerCTA"), f.ints("order")
    rank = _same_rank("blocked", sizePerThread=spt, threadsPerWarp=tpw, warpsPerCTA=wpc, order=order)
    _check_order("order", order)
    for key, v in (("sizePerThread", spt), ("threadsPerWarp", tpw), ("warpsPerCTA", wpc)):
        if any(x <= 0 or x & (x - 1) for x in v):
            raise ParseError(f"{key}: expected powers of two, got {list(v)}")
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
    instr = f.ints("instrShape", required=False) or ()
    if major not in (1, 2, 3, 5):
        raise ParseError(f"versionMajor: expected 1, 2, 3 or 5, got {major}")
    return NvidiaMmaLayout(major, minor, wpc, instr, f.cta(len(wpc), None))


def _build_amd_mfma(f: _Fields) -> Layout:
    version = f.int("version", required=False)
    if version is None:  # up to 3.2: versionMajor/versionMinor, instrShape [M, N]
        version = f.int("versionMajor")
        f.int("versionMinor", default=0)
    wpc = f.ints("warpsPerCTA")
    instr = f.ints("instrShape", required=False)
    if instr is None:  # 3.0/3.1 printed MDim/NDim
        instr = (f.int("MDim"), f.int("NDim"))
    transposed = f.bool("isTransposed")
    tiles = f.ints("tilesPerWarp", required=False) or (1,) * len(wpc)
    ebw = f.int("elementBitWidth", required=False, default=32)
    if len(instr) < 2 or instr[0] not in (4, 16, 32, 64) or instr[1] not in (4, 16, 32, 64):
        raise ParseError(f"instrShape: expected [M, N(, K)] with M, N in 4/16/32/64, got {list(instr)}")
    return AmdMfmaLayout(version, wpc, instr, transposed, tiles, ebw, f.cta(len(wpc), None))


def _build_amd_wmma(f: _Fields) -> Layout:
    """Up to 3.8: `warpsPerCTA = [...]`; 3.9: `ctaLayout = {register = [[..]], warp = [[..]]}` in tile units."""
    version = f.int("version", default=1)
    transposed = f.bool("isTranspose") if f.has("isTranspose") else f.bool("isTransposed")
    instr = f.ints("instrShape", required=False) or (16, 16, 16)
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
    f.bool("isMMAv1Row")  # 2.3's Volta operands: parsed, but mma v1 has no linear layout
    return DotOperandLayout(op_idx, parent, k_width)


def _build_linear(f: _Fields) -> Layout:
    reg, lane, warp = f.bases("register"), f.bases("lane"), f.bases("warp")
    block = f.bases("block", required=False) or ()
    dims = {len(b) for b in (*reg, *lane, *warp, *block)}
    if len(dims) > 1:
        raise ParseError(f"bases: every basis must have the same rank, got ranks {sorted(dims)}")
    return LinearEncoding({"register": reg, "lane": lane, "warp": warp, "block": block})


def _build_swizzled(f: _Fields, kind: str) -> Layout:
    vec, per_phase, max_phase = f.int("vec"), f.int("perPhase"), f.int("maxPhase")
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
    fp4 = f.bool("fp4Padded")
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
    return PaddedSharedLayout(tuple(intervals or ()), offset, order, shape, block)


def _build_shared_linear(f: _Fields) -> Layout:
    offset = f.bases("offset")
    block = f.bases("block", required=False) or ()
    alignment = f.int("alignment", required=False, default=16)
    return SharedLinearLayout(offset, block, alignment)


_BUILDERS = {
    "blocked": _build_blocked,
    "slice": _build_slice,
    "nvidia_mma": _build_nvidia_mma,
    "mma": _build_nvidia_mma,
    "amd_mfma": _build_amd_mfma,
    "amd_wmma": _build_amd_wmma,
    "dot_op": _build_dot_op,
    "linear": _build_linear,
    "shared": lambda f: _build_swizzled(f, "shared"),
    "swizzled_shared": lambda f: _build_swizzled(f, "swizzled_shared"),
    "amd_rotating_shared": lambda f: _build_swizzled(f, "amd_rotating_shared"),
    "nvmma_shared": _build_nvmma_shared,
    "padded_shared": _build_padded_shared,
    "shared_linear": _build_shared_linear,
}


TYPE_START = re.compile(r"(?<![\w.])(tensor|!(?:ttg|triton_gpu|tt)\.memdesc)<")


def iter_shaped_types(text: str) -> list[tuple[int, str]]:
    """(1-based line, type text) of every `tensor<...>` and `!ttg.memdesc<...>` in IR text, in order."""
    out: list[tuple[int, str]] = []
    line_starts = [0]
    for m in TYPE_START.finditer(text):
        start = m.start()
        depth, i = 0, m.end() - 1
        while i < len(text):
            ch = text[i]
            if ch == "<":
                depth += 1
            elif ch == ">" and text[i - 1] != "-":  # `->` of function types is not a bracket
                depth -= 1
                if depth == 0:
                    break
            elif ch == "\n":
                break
            i += 1
        if depth != 0:
            continue
        while line_starts[-1] < start:
            nxt = text.find("\n", line_starts[-1])
            if nxt == -1 or nxt >= start:
                break
            line_starts.append(nxt + 1)
        out.append((text.count("\n", 0, start) + 1, text[start : i + 1]))
    return out
