"""The layouts a Gluon programmer wrote: every layout constructor call in a kernel's Python source
(`gl.BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])`, `gl.SliceLayout(1, layout)`, `gl.AutoLayout()`),
with the literal values of its arguments and the lines that use the name it is bound to.

Pure: source text in (read with `ast`, never imported or run), dataclasses out. Arguments that are not
literals (a constexpr parameter `SPT`, `gl.num_warps()`) stay symbolic: the TTGIR says what they were.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

# Gluon's layout classes (triton/experimental/gluon/language/_layouts.py and amd/, nvidia/): the layout
# kind they build in TTGIR (as tritonscope.layouts.model names it; None: the compiler chooses) and their
# leading fields in positional order (the same in 3.4 through 3.9; the CTA fields after them are not read).
GLUON_LAYOUTS: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "BlockedLayout": ("blocked", ("size_per_thread", "threads_per_warp", "warps_per_cta", "order")),
    "SliceLayout": ("slice", ("dim", "parent")),
    "AutoLayout": (None, ()),
    "CoalescedLayout": (None, ()),
    "DistributedLinearLayout": ("linear", ("reg_bases", "lane_bases", "warp_bases", "block_bases", "shape")),
    "DotOperandLayout": ("dot_op", ("operand_index", "parent", "k_width")),
    "NVMMADistributedLayout": ("nvidia_mma", ("version", "warps_per_cta", "instr_shape")),
    "NVMMASharedLayout": ("nvmma_shared", ("swizzle_byte_width", "element_bitwidth", "rank", "transposed")),
    "SwizzledSharedLayout": ("swizzled_shared", ("vec", "per_phase", "max_phase", "order")),
    "PaddedSharedLayout": ("padded_shared", ("interval_padding_pairs", "offset_bases")),
    "SharedLinearLayout": ("shared_linear", ("offset_bases", "block_bases", "alignment")),
    "AMDMFMALayout": ("amd_mfma", ("version", "instr_shape", "transposed", "warps_per_cta")),
    "AMDWMMALayout": ("amd_wmma", ("version", "transposed", "warp_bases")),
    # Blackwell tensor memory: after (block, col_stride) the positional fields differ by release
    # (cta_split_num up to 3.7, cga_layout from 3.8): only keywords name them
    "TensorMemoryLayout": ("tensor_memory_encoding", ("block", "col_stride")),
    "TensorMemoryScalesLayout": ("tensor_memory_scales_encoding", ()),
}


@dataclass(frozen=True)
class Symbol:
    """An argument that is not a literal: its source text (`SPT`, `gl.num_warps()`)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass
class WrittenLayout:
    line: int
    col: int  # 1-based, where the constructor call starts
    cls: str  # Gluon class name: BlockedLayout, AutoLayout, ...
    kind: str | None  # the TTGIR layout kind it builds; None for AutoLayout/CoalescedLayout
    text: str  # the call as written, whitespace collapsed
    args: dict[str, Any] = field(default_factory=dict)  # field -> int | bool | list | WrittenLayout | Symbol
    name: str | None = None  # the variable the call is bound to (`layout: gl.constexpr = ...`)
    uses: list[int] = field(default_factory=list)  # lines that read `name`
    function: str | None = None  # the function it is written in (None: module level)
    function_lines: tuple[int, int] | None = None  # that function's first and last line

    @property
    def chosen_by_compiler(self) -> bool:
        return self.kind is None

    @property
    def symbolic(self) -> list[str]:
        """Fields whose value the source does not spell out."""
        return [k for k, v in self.args.items() if _has_symbol(v)]

    def lines(self) -> list[int]:
        """Its own line and the lines that use it through its name."""
        return sorted({self.line, *self.uses})

    def fields_text(self) -> str:
        return ", ".join(f"{k}={_value_text(v)}" for k, v in self.args.items())

    def to_json(self) -> dict:
        return {"line": self.line, "col": self.col, "class": self.cls, "kind": self.kind, "text": self.text,
                "name": self.name, "uses": self.uses, "function": self.function,
                "args": {k: _value_json(v) for k, v in self.args.items()}}


def _has_symbol(v: Any) -> bool:
    return isinstance(v, Symbol) or (isinstance(v, list) and any(_has_symbol(x) for x in v))


def _value_text(v: Any) -> str:
    if isinstance(v, WrittenLayout):
        return v.name or v.text
    if isinstance(v, list):
        return "[" + ", ".join(_value_text(x) for x in v) + "]"
    return str(v).replace("True", "true").replace("False", "false") if isinstance(v, bool) else str(v)


def _value_json(v: Any) -> Any:
    if isinstance(v, WrittenLayout):
        return {"layout_at_line": v.line, "name": v.name, "text": v.text}
    if isinstance(v, Symbol):
        return {"symbol": v.text}
    if isinstance(v, list):
        return [_value_json(x) for x in v]
    return v


def _callee(node: ast.Call) -> str | None:
    f = node.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    return name if name in GLUON_LAYOUTS else None


def _unwrap_constexpr(node: ast.AST) -> ast.AST:
    """`gl.constexpr(X)` -> X: module-level layouts are often wrapped so kernels can read them."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        if name == "constexpr":
            return node.args[0]
    return node


class _Scanner(ast.NodeVisitor):
    def __init__(self, source: str) -> None:
        self.source = source
        self.found: list[WrittenLayout] = []
        self.bound: dict[tuple[str | None, str], WrittenLayout] = {}  # (function, name) -> layout
        self.reads: list[tuple[str | None, str, int]] = []  # (function, name, line)
        self.function: str | None = None
        self.function_lines: tuple[int, int] | None = None

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self.function, self.function_lines
        self.function, self.function_lines = node.name, (node.lineno, node.end_lineno or node.lineno)
        for stmt in node.body:
            self.visit(stmt)
        self.function, self.function_lines = outer

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def _bind(self, target: ast.AST, value: ast.AST) -> bool:
        value = _unwrap_constexpr(value)
        if isinstance(target, ast.Name) and isinstance(value, ast.Call) and _callee(value):
            layout = self.layout(value)
            layout.name = target.id
            self.bound[(self.function, target.id)] = layout
            return True
        return False

    def visit_Assign(self, node: ast.Assign) -> None:
        if not (len(node.targets) == 1 and self._bind(node.targets[0], node.value)):
            self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is None or not self._bind(node.target, node.value):
            self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _callee(node):
            self.layout(node)
            return
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.reads.append((self.function, node.id, node.lineno))

    def layout(self, node: ast.Call) -> WrittenLayout:
        cls = _callee(node)
        assert cls is not None
        kind, fields = GLUON_LAYOUTS[cls]
        segment = ast.get_source_segment(self.source, node) or cls
        written = WrittenLayout(node.lineno, node.col_offset + 1, cls, kind, " ".join(segment.split()),
                                function=self.function, function_lines=self.function_lines)
        named = list(zip(fields, node.args, strict=False)) + [(k.arg, k.value) for k in node.keywords if k.arg]
        for key, value in named:
            written.args[key] = self.value(value)
        self.found.append(written)
        return written

    def value(self, node: ast.AST) -> Any:
        if isinstance(node, ast.Call) and _callee(node):
            return self.layout(node)
        if isinstance(node, ast.Name):
            self.reads.append((self.function, node.id, node.lineno))
            bound = self.bound.get((self.function, node.id)) or self.bound.get((None, node.id))
            if bound is not None:
                return bound
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        if isinstance(node, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in node.elts):
            # `[config.SPLIT_M, 1]`: the literal elements still say something; the others are symbols
            items = [self.value(e) for e in node.elts]
            if not all(isinstance(x, Symbol) for x in items):
                return items
            return Symbol(ast.get_source_segment(self.source, node) or "?")
        self.visit(node)
        return Symbol(ast.get_source_segment(self.source, node) or "?")


def written_layouts(source: str) -> list[WrittenLayout]:
    """Every layout constructor call of a Python source, in line order, with the lines using its name.

    Raises SyntaxError for text that is not Python (the caller names the file)."""
    scanner = _Scanner(source)
    scanner.visit(ast.parse(source))
    for layout in scanner.found:
        if layout.name is None:
            continue
        layout.uses = sorted({line for fn, name, line in scanner.reads
                              if name == layout.name and line != layout.line
                              and (fn == layout.function or layout.function is None)})
    return sorted(scanner.found, key=lambda w: (w.line, w.col))
