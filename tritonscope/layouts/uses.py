"""Where a kernel's TTGIR uses each layout: the tensor types naming it, their ops and source lines."""

from __future__ import annotations

from dataclasses import dataclass, field

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.attrs import TensorType, iter_shaped_types, parse_layout_aliases, parse_tensor_type
from tritonscope.layouts.model import Layout


@dataclass
class LayoutUse:
    """One (shape, element type) a layout is used with, and every TTGIR line that uses it so."""

    shape: tuple[int, ...]
    dtype: str
    access_dtype: str  # the pointee for tensors of pointers: what a load/store through them moves
    access_bits: int
    memory: str  # registers | shared
    ttgir_lines: list[int] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)  # op names, in line order, one per ttgir line
    source_lines: list[tuple[str, int]] = field(default_factory=list)  # (file, line) of the user's code
    # a view's allocation (`TensorType.view_of`): the shape the layout is laid out for, as Triton does
    view_of: tuple[int, ...] | None = None

    @property
    def laid_out(self) -> tuple[int, ...]:
        """The shape whose numbers describe this use: the allocation of a view, else its own."""
        return self.view_of or self.shape


@dataclass
class AliasUses:
    name: str  # alias without `#`, or the attribute text for an inline encoding
    layout: Layout
    defined_at: int | None  # TTGIR line of `#name = ...`
    uses: list[LayoutUse] = field(default_factory=list)


def kernel_layout_uses(ttgir_text: str, path: str | None = None) -> list[AliasUses]:
    """Every layout alias of a TTGIR module (also unused ones), with the tensor types that use it."""
    aliases = parse_layout_aliases(ttgir_text, path)
    defined = _definition_lines(ttgir_text)
    table: dict[str, AliasUses] = {n: AliasUses(n, layout, defined.get(n)) for n, layout in aliases.items()}
    ops_by_line = _ops_by_line(ttgir_text, path)
    for lineno, type_text in iter_shaped_types(ttgir_text):
        if lineno in defined.values():
            continue
        try:
            tt = parse_tensor_type(type_text, aliases)
        except TritonscopeError as exc:
            raise TritonscopeError(f"line {lineno}: {exc}", path) from None
        if tt.encoding is None:
            continue
        name = tt.encoding_name or tt.encoding.text or tt.encoding.to_text()
        entry = table.setdefault(name, AliasUses(name, tt.encoding, None))
        use = _use_for(entry, tt)
        if lineno not in use.ttgir_lines:
            op, source = ops_by_line.get(lineno, (None, None))
            use.ttgir_lines.append(lineno)
            use.ops.append(op or "?")
            if source is not None and source not in use.source_lines:
                use.source_lines.append(source)
    for entry in table.values():
        for use in entry.uses:
            use.source_lines.sort()
    return list(table.values())


def _use_for(entry: AliasUses, tt: TensorType) -> LayoutUse:
    access = tt.pointee_dtype or tt.dtype
    for use in entry.uses:
        if use.shape == tt.shape and use.dtype == tt.dtype and use.memory == tt.memory and use.view_of == tt.view_of:
            return use
    use = LayoutUse(tt.shape, tt.dtype, access, tt.access_bits, tt.memory, view_of=tt.view_of)
    entry.uses.append(use)
    return use


def _definition_lines(text: str) -> dict[str, int]:
    import re

    out = {}
    for i, line in enumerate(text.splitlines(), 1):
        m = re.match(r"#([A-Za-z_][\w$.]*)\s*=\s*#", line)
        if m:
            out[m.group(1)] = i
    return out


def _ops_by_line(text: str, path: str | None) -> dict[int, tuple[str, tuple[str, int] | None]]:
    """TTGIR line -> (op name, the user's (file, line)) from the stage parser, when it is available."""
    try:
        from tritonscope.stages import parse_ttgir
        from tritonscope.stages.mlir import FUNC_PREFIXES
    except ImportError:
        return {}
    module = parse_ttgir(text, path)
    out: dict[int, tuple[str, tuple[str, int] | None]] = {}
    # an op's first line, and the lines it continues on (the types of a tt.reduce follow its region)
    for lineno, op in [*module.continued.items(), *((op.lineno, op) for op in module.ops)]:
        source = None
        if op.loc is not None and op.loc.known:
            outer = op.loc.outermost()
            if outer.line:
                source = (outer.file, outer.line)
        out[lineno] = (op.op, source)
    for lineno, line in enumerate(text.splitlines(), 1):  # a function's arguments (a TMA descriptor's)
        if lineno not in out and line.lstrip().startswith(FUNC_PREFIXES):
            out[lineno] = (line.split(None, 1)[0], None)
    return out
