"""Layout attribute text -> dataclasses.

Accepts what Triton prints in TTGIR: `#ttg.blocked<{...}>` (3.3+), `#triton_gpu.blocked<{...}>` (up to 3.2),
2.3's `#triton_gpu.mma<{...}>`, bare `#blocked<...>`, with or without a leading `#name = `; references to
other aliases (`parent = #blocked`) resolve through an alias table. Pure: no triton import, no file access.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tritonscope.errors import ParseError
from tritonscope.layouts.builders import to_layout
from tritonscope.layouts.model import Layout
from tritonscope.layouts.syntax import parse_value, split_top_level

__all__ = [
    "DTYPE_BITS",
    "ParseError",
    "TensorType",
    "dtype_bits",
    "iter_shaped_types",
    "parse_layout",
    "parse_layout_aliases",
    "parse_tensor_type",
]

# `#blocked1 = #ttg.blocked<{...}>` at the start of a TTGIR line.
ALIAS_LINE = re.compile(r"^#(?P<name>[A-Za-z_][\w$.]*)\s*=\s*(?P<value>#.*?)\s*$", re.MULTILINE)
# `tensor<64x256xf16, #blocked>`, `!ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>`.
TENSOR_TYPE = re.compile(r"^(?P<kind>tensor|!(?:ttg|triton_gpu|tt)\.memdesc|!tt\.tensordesc)<(?P<body>.*)>$", re.DOTALL)
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
    def view_of(self) -> tuple[int, ...] | None:
        """The allocation a shared-memory view lies in, where it is not the view's own shape: a memdesc's
        printed allocation shape, its last `rank` dims (a `memdesc_subslice` 16x128 of a 128x128 tile).
        Triton lays a memdesc out by these (`toLinearLayout(MemDescType)`: `getAllocShape().take_back(rank)`;
        a `memdesc_index` of a 3x64x256 buffer is its own 64x256). None for tensor memory: its views are
        described as themselves."""
        if self.memory != "shared" or self.alloc_shape is None or len(self.alloc_shape) < len(self.shape):
            return None
        alloc = self.alloc_shape[len(self.alloc_shape) - len(self.shape):]
        return alloc if alloc != self.shape else None

    @property
    def access_bits(self) -> int:
        """Bits moved per element by a load/store of this tensor (the pointee for pointer tensors)."""
        return self.pointee_bits if self.pointee_bits is not None else self.element_bits


def dtype_bits(dtype: str) -> int | None:
    if dtype in DTYPE_BITS:
        return DTYPE_BITS[dtype]
    if POINTER_TYPE.match(dtype):
        return 64
    # MLIR spells signedness (`ui8`, `si32`) and small floats by their bits (`f8E8M0FNU`, `f6E2M3FN`)
    m = re.fullmatch(r"(?:[iuf]|ui|si)(\d{1,4})|f(\d{1,4})E\d+M\d+[A-Z]*", dtype)
    bits = int(m.group(1) or m.group(2)) if m else 0
    return bits if 0 < bits <= 1024 else None  # (`i0`: no element; wider than any register file moves)


def parse_layout(text: str, aliases: dict[str, Layout] | None = None, lenient: bool = False) -> Layout:
    """One layout attribute; `#name = ` in front is allowed. ParseError names the offending field; `lenient`
    (a module's): a kind not known is an OpaqueLayout saying so."""
    text = text.strip()
    m = ALIAS_LINE.match(text)
    if m:
        text = m.group("value")
    value = parse_value(text)
    return to_layout(value, aliases or {}, text, lenient=lenient)


_BARE_ALIAS = re.compile(r"#[A-Za-z_][\w$.]*")


def parse_layout_aliases(ttgir_text: str, path: str | None = None) -> dict[str, Layout]:
    """Every `#name = #<dialect>.<layout><...>` alias of a TTGIR module; aliases may refer to earlier ones.
    A ParseError names `path`, the TTGIR's file, where given."""
    raw: dict[str, tuple[str, int]] = {}
    refs: list[tuple[str, str, int]] = []  # `#b = #a`: an alias of an alias, kept where `a` is a layout's
    for m in ALIAS_LINE.finditer(ttgir_text):
        value = m.group("value")
        line = ttgir_text.count("\n", 0, m.start()) + 1
        if _BARE_ALIAS.fullmatch(value.strip()):
            refs.append((m.group("name"), value.strip(), line))
            continue
        if value.startswith(("#loc", "loc(")) or _is_non_layout(value):
            continue
        raw[m.group("name")] = (value, line)
    for name, value, line in refs:
        if value[1:] in raw or any(value[1:] == n for n, _, _ in refs):
            raw[name] = (value, line)
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
            # (a kind of a newer release: the module's other layouts, and what needs none, still read)
            out[name] = to_layout(parse_value(text), _LazyAliases(resolve), text, name=name, lenient=True)
        except ParseError as exc:
            raise ParseError(f"#{name}: {exc.message}", line=line) from None
        resolving.discard(name)
        return out[name]

    try:
        for name in raw:
            resolve(name)
    except ParseError as exc:
        if exc.path is None and path is not None:
            exc.path = path
        raise
    return out


def parse_tensor_type(text: str, aliases: dict[str, Layout] | None = None) -> TensorType:
    """`tensor<64x256xf16, #blocked>`, `tensor<64x!tt.ptr<f16>, #ttg.slice<...>>`, `!ttg.memdesc<...>`."""
    aliases = aliases or {}
    text = text.strip()
    m = TENSOR_TYPE.match(text)
    if not m:
        raise ParseError(f"not a tensor or memdesc type: {text[:80]}")
    body = m.group("body")
    if m.group("kind") == "!tt.tensordesc" and body.startswith("tensor<") and body.endswith(">"):
        body = body[7:-1]  # `!tt.tensordesc<tensor<64x64xf16, #shared>>` (3.9: `!tt.tensordesc<64x64xf16, ...>`)
    parts = split_top_level(body)
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
            encoding = parse_layout(enc_text, aliases, lenient=True)
    for extra in parts[2:]:
        extra = extra.strip()
        if re.fullmatch(r"\d+(x\d+)*", extra):
            alloc_shape = tuple(int(d) for d in extra.split("x"))
    # a TMA descriptor's block: the tile a copy moves through shared memory, in its shared layout
    memory = "registers" if m.group("kind") == "tensor" else "shared"
    if memory == "registers" and getattr(encoding, "shared", False):
        memory = "shared"  # (up to 2.3 a tensor in shared memory is a `tensor<>` of a shared layout)
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
    """Memory spaces (`#ttg.shared_memory`, `#ttng.tensor_memory`) and cache hints (`#ttng.cache_policy<...>`)
    share the alias syntax but are no layouts;
    nor is any attribute of another dialect than Triton's GPU ones (gfx950's `#llvm.mmra_tag<...>` on its
    fences, an `#llvm.access_group`)."""
    m = re.match(r"#([\w]+)\.", value)
    if m is None or m.group(1) not in _LAYOUT_DIALECTS:
        return True
    return bool(re.match(r"#(ttg|triton_gpu|ttng)\.(shared_memory|tensor_memory)(?![\w<])", value)
                or re.match(r"#(ttng|triton_nvidia_gpu)\.cache_policy\b", value))  # (3.9's cache hints)


# the dialects whose attributes are layouts (every release's spelling; AMD's and Intel's layouts are ttg's or
# their own dialect's)
_LAYOUT_DIALECTS = frozenset(("ttg", "triton_gpu", "ttng", "triton_nvidia_gpu", "ttig", "triton_intel_gpu",
                              "amdg", "amdgpu", "triton_amdgpu"))


TYPE_START = re.compile(r"(?<![\w.])(tensor|!(?:ttg|triton_gpu|tt)\.memdesc|!tt\.tensordesc)<"
                        # a memdesc an op's custom form prints without its name (`ttg.async_copy_global_to_local
                        # ... -> <64x32xf16, #shared, #smem, mutable>`)
                        r"|(?<=-> )<(?=(?:\d+x)*(?:[fiu]\d|bf16|tf32|!tt\.ptr)[^,<>]*, #)")


def iter_shaped_types(text: str) -> list[tuple[int, str]]:
    """(1-based line, type text) of every `tensor<...>`, `!ttg.memdesc<...>` and `!tt.tensordesc<...>` in IR
    text, in order (the `tensor<...>` inside a tensordesc is part of it, not a type of its own)."""
    out: list[tuple[int, str]] = []
    line_starts = [0]
    covered = 0  # end of the last type found
    for m in TYPE_START.finditer(text):
        start = m.start()
        if start < covered:
            continue
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
        covered = i + 1
        out.append((text.count("\n", 0, start) + 1,
                    text[start : i + 1] if m.group(1) else "!ttg.memdesc" + text[start : i + 1]))
    return out
