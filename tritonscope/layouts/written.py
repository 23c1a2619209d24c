"""The layouts a Gluon programmer wrote: every layout constructor call in a kernel's Python source
(`gl.BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])`, `gl.SliceLayout(1, layout)`, `gl.AutoLayout()`),
with the literal values of its arguments and the lines that use the name it is bound to.

Pure: source text in (read with `ast`, never imported or run), dataclasses out. Arguments that are not
literals (a constexpr parameter `SPT`, `gl.num_warps()`) stay symbolic: the TTGIR says what they were.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tritonscope.lazyre import lazy_compile

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
    # a swizzled layout of fixed fields (nvidia/ampere/mbarrier.py, amd/cdna5/mbarrier.py: IMPLIED)
    "MBarrierLayout": ("swizzled_shared", ()),
}
# The fields a class sets itself, whatever its arguments
IMPLIED: dict[str, dict[str, Any]] = {"MBarrierLayout": {"vec": 1, "per_phase": 1, "max_phase": 1, "order": [0]}}
# The defaults of compared fields a call may leave out, by (class, factory or None): Gluon's own (an
# NVMMASharedLayout not said transposed is not; one of no rank is 2-D; get_default_for's rank is its block's)
DEFAULTS: dict[tuple[str, str | None], dict[str, Any]] = {
    ("NVMMASharedLayout", None): {"transposed": False, "rank": 2},
    ("NVMMASharedLayout", "get_default_for"): {"transposed": False},
}
# Attributes every Gluon object of some kind has (a descriptor's `.layout`, a tensor's `.shape`): a read of
# `x.layout` is an aggregate's layout attribute of that name only on `self` (`_Scanner.attr_reads`)
_GENERIC_ATTRIBUTES = frozenset({"layout", "shape", "dtype", "type", "value", "block_type", "numel", "rank"})
# Static factories of those classes: (class, method) -> the method's parameters in positional order and the
# class fields it computes from them (their TTGIR values are shown as filled in); a parameter of the same name
# as a field (`transposed`) is that field.
FACTORIES: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ("NVMMASharedLayout", "get_default_for"): (("block_shape", "dtype", "transposed", "fp4_padded", "cga_layout"),
                                               ("swizzle_byte_width", "element_bitwidth")),
    ("PaddedSharedLayout", "with_identity_for"): (("interval_padding_pairs", "shape", "order", "cga_layout"),
                                                  ("offset_bases",)),
}


@dataclass(frozen=True)
class Symbol:
    """An argument that is not a literal: its source text (`SPT`, `gl.num_warps()`)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Either:
    """A name bound to a layout more than once in its scope (each branch of a constexpr `if`): the compiler
    took one of them."""

    options: tuple[WrittenLayout, ...]


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
    factory: str | None = None  # the static factory called (`get_default_for`); args are its parameters
    returned: bool = False  # `function` returns it (a `@gluon.constexpr_function` helper): used where called
    use_functions: dict[str, tuple[int, int]] = field(default_factory=dict)  # the functions `uses` are in: lines
    # uses in a function it is passed to, as a parameter (`_parameters_given`): line -> the functions passing
    # it there first (those a kernel must be, or reach, for the line to be its use)
    passed_from: dict[int, set[str | None]] = field(default_factory=dict)
    # the lines converting to it (`gl.convert_layout(x, L)`): there it is the convert's result, not whatever the
    # line's other ops (a reshape of x) were inferred to hold
    convert_lines: set[int] = field(default_factory=set)
    # written in another module of the kernel's package (a helper it imports): that file, and its line's text
    file: str | None = None
    line_text: str | None = None

    @property
    def chosen_by_compiler(self) -> bool:
        return self.kind is None

    @property
    def symbolic(self) -> list[str]:
        """Fields whose value the source does not spell out."""
        computed = FACTORIES.get((self.cls, self.factory or ""), ((), ()))[1]
        return [k for k, v in self.args.items() if _has_symbol(v)] + [k for k in computed if k not in self.args]

    def lines(self) -> list[int]:
        """Its own line and the lines that use it through its name (of the scanned source: not its own line
        where it is written in another file)."""
        return sorted({self.line, *self.uses}) if self.file is None else sorted(set(self.uses))

    def where(self, source_name: str) -> str:
        """`file:line`, the scanned source named `source_name`."""
        return f"{file_name(self.file) if self.file else source_name}:{self.line}"

    def to_json(self) -> dict:
        return {"line": self.line, "col": self.col, "class": self.cls, "kind": self.kind, "text": self.text,
                "name": self.name, "uses": self.uses, "function": self.function, "factory": self.factory,
                "returned": self.returned, "file": self.file,
                "args": {k: _value_json(v) for k, v in self.args.items()}}


def file_name(path: str) -> str:
    """A file by its name (`/pkg/layouts.py`: `layouts.py`; a Windows path's too)."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _has_symbol(v: Any) -> bool:
    return isinstance(v, Symbol) or (isinstance(v, list) and any(_has_symbol(x) for x in v))


def _value_json(v: Any) -> Any:
    if isinstance(v, Either):
        return {"one_of": [_value_json(o) for o in v.options]}
    if isinstance(v, WrittenLayout):
        return {"layout_at_line": v.line, "name": v.name, "text": v.text,
                "returned_by": v.function if v.returned else None}
    if isinstance(v, Symbol):
        return {"symbol": v.text}
    if isinstance(v, list):
        return [_value_json(x) for x in v]
    return v


def _name(node: ast.AST) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def _callee(node: ast.Call) -> tuple[str, str | None] | None:
    """(class, factory) of a layout constructor call (`gl.BlockedLayout(...)`: factory None) or of a static
    factory of one (`gl.NVMMASharedLayout.get_default_for(...)`)."""
    name = _name(node.func)
    if name in GLUON_LAYOUTS:
        return name, None
    if isinstance(node.func, ast.Attribute) and (_name(node.func.value), name) in FACTORIES:
        return _name(node.func.value), name  # type: ignore[return-value]
    return None


def _returns(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    """The `return X` statements of `fn` itself (not of functions defined in it)."""
    out: list[ast.Return] = []
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return) and node.value is not None:
            out.append(node)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return sorted(out, key=lambda r: (r.lineno, r.col_offset))


def _branches(node: ast.AST) -> list[ast.AST]:
    """What an expression can be: each arm of a conditional expression, `gl.constexpr(X)` unwrapped."""
    node = _unwrap_constexpr(node)
    if isinstance(node, ast.IfExp):
        return _branches(node.body) + _branches(node.orelse)
    return [node]


def _unwrap_constexpr(node: ast.AST) -> ast.AST:
    """`gl.constexpr(X)` -> X: module-level layouts are often wrapped so kernels can read them."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and _name(node.func) == "constexpr":
        return node.args[0]
    return node


# A sibling module of the kernel's: (dotted module, relative-import level, importing file or None for the
# scanned source) -> (its path, its text), or None where none is found
Resolver = Callable[[str, int, "str | None"], "tuple[str, str] | None"]
_MAX_IMPORT_DEPTH = 3
_LINE = lazy_compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


class _Scanner(ast.NodeVisitor):
    def __init__(self, source: str, resolver: Resolver | None = None, path: str | None = None,
                 depth: int = 0, scans: dict[str, _Scanner] | None = None) -> None:
        self.source = source
        self.resolver, self.path, self.depth = resolver, path, depth
        self.lines = source.splitlines() if path is not None else []  # (an imported module's: its lines' text)
        self._lines_kept: list[str] | None = None  # (_segment's lines, ends kept)
        self.scans = {} if scans is None else scans  # path -> its scan: one module imported twice is one
        self.module_scans: dict[str, _Scanner | None] = {}  # `import helpers as h`: h -> its scan, once read
        self.lazy_imports: dict[str, tuple[str, int, str]] = {}  # name -> (module, level, its name there)
        self.found: list[WrittenLayout] = []
        self.bound: dict[tuple[str | None, str], WrittenLayout] = {}  # (function, name) -> layout
        self.bindings: dict[tuple[str | None, str], list[WrittenLayout]] = {}  # ... every layout bound to it
        self.reads: list[tuple[str | None, str, int]] = []  # (function, name, line)
        # the first line of each call being read, innermost last: a name on a later line of a call spread over
        # several (`gl.arange(\n 0, 128,\n layout=layout,\n)`) is used where Triton locates the call's op
        self.calls_open: list[int] = []
        self.stores: set[tuple[str | None, str]] = set()  # (function, name) bound there: shadows a module's
        self.aliases: list[tuple[str | None, str, WrittenLayout]] = []  # `A2: gl.constexpr = A`, `A = helper()`
        self.returns: dict[str, list[WrittenLayout]] = {}  # function -> the layouts it returns
        self.helper_calls: list[tuple[WrittenLayout, str | None, int]] = []  # (a layout a helper returns,
        # the function calling it, the call's line)
        self.forwards: dict[str, list[str]] = {}  # function -> the functions whose call it returns
        self.spans: dict[str, tuple[int, int]] = {}  # function -> its first and last line
        self.params: dict[str, list[str]] = {}  # function -> its parameters' names, in order
        # names passed to a function of this source: (caller, callee, position or keyword, the name passed),
        # by a call or as a warp-specialized partition's arguments (`gl.warp_specialize([(f, (a, L))], ...)`)
        self.passes: list[tuple[str | None, str, int | str, str]] = []
        # layouts from functions of other modules (`from helpers import row_layout`), which are not read:
        self.imported: dict[str, str] = {}  # name -> `module.name` it was imported as
        self.modules: dict[str, str] = {}  # `import helpers as h`: h -> helpers
        self.foreign_bound: dict[tuple[str | None, str], tuple[int, str]] = {}  # (function, name) -> (line, call)
        self.foreign: list[Foreign] = []
        # layouts computed while compiling, which no reading of the source gives: a method's result bound to a
        # name (`reg_layout: gl.constexpr = acc_tmem.get_reg_layout()`), the kernel's parameters used as layouts
        self.computed_bound: dict[tuple[str | None, str], tuple[int, str]] = {}  # (function, name) -> (line, call)
        self.helper_bound: dict[tuple[str | None, str], tuple[int, str]] = {}  # ... of a helper not followed
        self.defined: set[str] = set()  # the source's top-level functions
        self.computed_attrs: dict[str, list[tuple[str | None, int, str]]] = {}  # attribute -> (class, line, call)
        self.unread: list[Unread] = []
        # attributes used as layouts: (function, class, receiver, attribute, line, the function's lines, text)
        self.attr_layout_uses: list[tuple] = []
        # (function, `L` of `gl.convert_layout(x, L)`, line)
        self.convert_targets: list[tuple[str | None, ast.AST, int]] = []
        self.by_node: dict[int, WrittenLayout] = {}  # id(ast.Call) -> the layout it builds
        self.function: str | None = None
        self.function_lines: tuple[int, int] | None = None
        # an aggregate's layout attributes (`self.row_layout = gl.constexpr(gl.BlockedLayout(...))` in a method
        # of a class) and the attributes read (`cfg.row_layout`), with the class of what an attribute is read
        # on where the source says: `self` in a method, a name bound to a call of a class of the source
        # (`cfg = Conf(N)`) or a parameter annotated with one, an attribute a class binds to such a call
        # (`self.inner = Inner()`)
        self.klass: str | None = None
        self.classes: set[str] = set()
        self.attr_layouts: dict[tuple[str, str], list[WrittenLayout]] = {}  # (class, attribute) -> layouts
        self.attr_classes: dict[tuple[str, str], str] = {}  # (class, attribute) -> the class called to bind it
        self.instances: dict[tuple[str | None, str], str] = {}  # (function, name) -> the class called to bind it
        # (function, the class whose method it is, what the attribute is read on, attribute, line)
        self.attr_reads: list[tuple[str | None, str | None, tuple | None, str, int]] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer, self.klass = self.klass, node.name
        self.classes.add(node.name)
        self.generic_visit(node)
        self.klass = outer

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Load):
            receiver = _receiver(node.value)
            self.attr_reads.append((self.function, self.klass, receiver, node.attr, node.lineno))
            if self.calls_open and self.calls_open[-1] != node.lineno:
                self.attr_reads.append((self.function, self.klass, receiver, node.attr, self.calls_open[-1]))
        self.generic_visit(node)

    def class_of(self, receiver: tuple | None, function: str | None, klass: str | None) -> str | None:
        """The class of the source that `receiver` (`_receiver`) is an instance of, where the source says."""
        depth = 0
        path: list[str] = []
        while receiver is not None and receiver[0] == "attr" and depth < 16:
            path.append(receiver[2])
            receiver, depth = receiver[1], depth + 1
        if receiver is None or receiver[0] == "attr":
            return None
        cls = klass if receiver == ("name", "self") and klass else \
            self.instances.get((function, receiver[1])) or self.instances.get((None, receiver[1]))
        for attr in reversed(path):
            cls = self.attr_classes.get((cls, attr)) if cls else None
        return cls if cls in self.classes else None

    def visit_Module(self, node: ast.Module) -> None:
        # functions that return a layout (`@gluon.constexpr_function def row_layout(...)`) first, with the
        # module's own statements, so a kernel above them in the file still reads what they return
        helpers = [s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and any(isinstance(v, (ast.Call, ast.Name)) for r in _returns(s) for v in _branches(r.value))]
        self.defined = {s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for stmt in node.body:
            if stmt in helpers or not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.visit(stmt)
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt not in helpers:
                self.visit(stmt)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self.function, self.function_lines
        self.function, self.function_lines = node.name, (node.lineno, node.end_lineno or node.lineno)
        self.spans[node.name] = self.function_lines
        a = node.args
        for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, [a.vararg, a.kwarg])]:
            self.stores.add((node.name, arg.arg))
            if isinstance(arg.annotation, ast.Name):  # (`def load(p: PartitionArgs)`: checked against classes)
                self.instances[(node.name, arg.arg)] = arg.annotation.id
        self.params[node.name] = [arg.arg for arg in [*a.posonlyargs, *a.args]]
        for stmt in node.body:
            self.visit(stmt)
        returned: list[WrittenLayout] = []
        for ret in _returns(node):
            for value in _branches(ret.value):  # (`return A if wide else B`: either)
                if isinstance(value, ast.Call) and id(value) in self.by_node:
                    layouts = [self.by_node[id(value)]]
                elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                    # `return inner(nw)`: what that helper returns (read when this one is called)
                    self.forwards.setdefault(node.name, []).append(value.func.id)
                    continue
                elif isinstance(value, ast.Name):  # every binding of the name (one per branch of an `if`)
                    scope = node.name if (node.name, value.id) in self.bindings else None
                    layouts = self.bindings.get((scope, value.id), []) if self._lookup(value.id) else []
                else:
                    continue
                for layout in layouts:
                    if layout not in returned:
                        layout.returned = layout.returned or layout.function == node.name
                        returned.append(layout)
        if returned:
            self.returns[node.name] = returned
        self.function, self.function_lines = outer

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    # Imports are read when a function of the module is called where a layout is taken (`_imported_returns`):
    # a module imported for anything else is never opened.
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            self.modules[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = "." * node.level + (node.module or "")
        for a in node.names:
            self.imported[a.asname or a.name] = f"{module}.{a.name}" if node.module else f"{module}{a.name}"
            if node.module:
                self.lazy_imports[a.asname or a.name] = (node.module, node.level, a.name)

    def _imported_returns(self, name: str) -> list[WrittenLayout]:
        """What function `name`, imported from a module the resolver finds, returns (its scan, once)."""
        if name in self.returns or name not in self.lazy_imports:
            return self.returns.get(name, [])
        module, level, attr = self.lazy_imports.pop(name)
        sub = self._scan_module(module, level)
        layouts = sub._returns_of(attr, set()) if sub is not None else []
        if layouts:  # a helper of the kernel's package (or of the release that compiled it)
            self.returns[name] = layouts
            self.imported.pop(name, None)
            self._adopt(layouts)
        return layouts

    def _imported_layout(self, name: str) -> None:
        """`from layouts import ROW` where that module (one the resolver finds) binds ROW to a layout at its
        top level: the name is that layout here, read as a module-level name of this source."""
        if name not in self.lazy_imports or (None, name) in self.bound or (self.function, name) in self.stores:
            return
        module, level, attr = self.lazy_imports[name]
        sub = self._scan_module(module, level)
        layout = sub.bound.get((None, attr)) if sub is not None else None
        if layout is None:
            return
        self.bound[(None, name)] = layout
        self.aliases.append((None, name, layout))
        self.imported.pop(name, None)
        self._adopt([layout])

    def _module_returns(self, alias: str, attr: str) -> list[WrittenLayout]:
        """What `alias.attr` returns, `alias` a module imported whole (`import layouts as L`)."""
        if alias not in self.module_scans:
            if alias not in self.modules:
                return []
            self.module_scans[alias] = self._scan_module(self.modules[alias], 0)  # (None: not found)
        sub = self.module_scans[alias]
        if sub is None:
            return []
        layouts = sub._returns_of(attr, set())
        self._adopt(layouts)
        return layouts

    def _scan_module(self, module: str, level: int) -> _Scanner | None:
        """The scan of a module the resolver finds (one of the kernel's package), else None."""
        if self.resolver is None or self.depth >= _MAX_IMPORT_DEPTH:
            return None
        found = self.resolver(module, level, self.path)
        if found is None:
            return None
        path, text = found
        if path in self.scans:
            return self.scans[path]
        sub = self.scans[path] = _Scanner(text, self.resolver, path, self.depth + 1, self.scans)
        try:
            sub.visit(ast.parse(text))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self.scans[path] = None  # type: ignore[assignment]
            return None
        return sub

    def _adopt(self, layouts: list[WrittenLayout]) -> None:
        """Layouts another module's helper returns (and those they are built from) are this scan's too."""
        todo = list(layouts)
        while todo:
            w = todo.pop()
            if any(w is f for f in self.found):
                continue
            self.found.append(w)
            for v in w.args.values():
                todo.extend(o for o in (v.options if isinstance(v, Either) else [v]) if isinstance(o, WrittenLayout))

    def _foreign_call(self, node: ast.AST) -> str | None:
        """`module.function` of a call of a function imported from another module, else None."""
        if not isinstance(node, ast.Call) or _callee(node):
            return None
        f = node.func
        if isinstance(f, ast.Name) and f.id in self.imported and not self._imported_returns(f.id) \
                and (self.function, f.id) not in self.stores:
            return self.imported[f.id]
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.modules \
                and (self.function, f.value.id) not in self.stores and not self._module_returns(f.value.id, f.attr):
            return f"{self.modules[f.value.id]}.{f.attr}"
        return None

    def _as_layout(self, node: ast.AST, computed: bool = True) -> None:
        """`node` is used as a layout: a call of another module's function, or a name bound to one, is a
        layout this reading cannot see; so are a method's result and a parameter of the function (`Unread`)."""
        called = self._foreign_call(_unwrap_constexpr(node))
        if called is not None:
            self.foreign.append(Foreign(node.lineno, None, called, self.function))
        elif not computed:  # (an argument of a layout class that may be no layout: `version=VERSION`)
            return
        elif self._method_call(_unwrap_constexpr(node)):
            self._unread(node.lineno, None, self._text(_unwrap_constexpr(node)), node.lineno)
        elif self._helper_call(_unwrap_constexpr(node)):  # `pick(W, "reg")`: what it returns is not followed
            self._unread(node.lineno, None, self._text(_unwrap_constexpr(node)), node.lineno, what="helper")
        elif isinstance(node, ast.Subscript):  # `layouts[0]`: an element of a tuple a helper returned
            self._unread(node.lineno, self._text(node), None, node.lineno, what="element")
        elif isinstance(node, ast.Attribute):  # (what its class binds is known once every class is read: scan)
            self.attr_layout_uses.append((self.function, self.klass, _receiver(node.value), node.attr, node.lineno,
                                          self.function_lines, self._text(node)))
        elif isinstance(node, ast.Name):
            key = (self.function, node.id) if (self.function, node.id) in self.foreign_bound else (None, node.id)
            if key in self.foreign_bound and (self.function, node.id) not in self.bound:
                line, called = self.foreign_bound[key]
                self.foreign.append(Foreign(line, node.id, called, self.function))
            elif (self.function, node.id) in self.computed_bound and (self.function, node.id) not in self.bound:
                line, text = self.computed_bound[(self.function, node.id)]
                self._unread(line, node.id, text, node.lineno)
            elif (self.function, node.id) in self.helper_bound and (self.function, node.id) not in self.bound:
                line, text = self.helper_bound[(self.function, node.id)]
                self._unread(line, node.id, text, node.lineno, what="helper")
            elif node.id in self.params.get(self.function or "", ()) and (self.function, node.id) not in self.bound:
                self._unread(node.lineno, node.id, None, node.lineno)

    def _unread(self, line: int, name: str | None, call: str | None, used: int, what: str = "computed") -> None:
        self.unread.append(Unread(line, name, call, self.function, used, what, span=self.function_lines))

    def _helper_call(self, node: ast.AST) -> bool:
        """A call of a function of this source whose result this reading does not follow (`{...}[key]`, a
        computed layout): not a layout class, nor a helper returning written layouts."""
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.defined \
            and not _callee(node) and (self.function, node.func.id) not in self.stores and not self._returned(node)

    def _method_call(self, node: ast.AST) -> bool:
        """A call of a method of a value of the function (`acc_tmem.get_reg_layout()`: its receiver a name the
        function binds or takes), not of a module (`gl.num_warps()`) nor a layout's factory."""
        if not isinstance(node, ast.Call) or _callee(node) or not isinstance(node.func, ast.Attribute):
            return False
        receiver = node.func.value
        while isinstance(receiver, ast.Attribute):
            receiver = receiver.value
        return isinstance(receiver, ast.Name) and (self.function, receiver.id) in self.stores \
            and receiver.id not in self.modules

    def _segment(self, node: ast.AST) -> str | None:
        """ast.get_source_segment(self.source, node), the source split into lines once (that function splits
        the whole text again at each call: 377 calls on a 1,551-line Gluon tutorial were 12 of its 16 s)."""
        end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if end_line is None or end_col is None or not hasattr(node, "lineno"):
            return None
        if self._lines_kept is None:
            self._lines_kept = _LINE.findall(self.source)  # (as ast splits: \r\n, \r, \n; not \f)
        lines, first, col = self._lines_kept, node.lineno - 1, node.col_offset
        if end_line - 1 == first:
            return lines[first].encode()[col:end_col].decode()  # (columns are UTF-8 byte offsets)
        return "".join([lines[first].encode()[col:].decode(), *lines[first + 1:end_line - 1],
                        lines[end_line - 1].encode()[:end_col].decode()])

    def _text(self, node: ast.AST) -> str:
        return " ".join((self._segment(node) or "?").split())

    def _bind(self, target: ast.AST, value: ast.AST) -> bool:
        value = _unwrap_constexpr(value)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self" \
                and self.klass is not None and self.function is not None:
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                self.attr_classes[(self.klass, target.attr)] = value.func.id  # (`self.inner = Inner()`)
            return self._bind_attribute(target.attr, value)
        if isinstance(target, ast.Name) and isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            self.instances[(self.function, target.id)] = value.func.id  # (`cfg = Conf(N)`: a class of the source?)
        called = self._foreign_call(value)
        if isinstance(target, ast.Name) and called is not None:
            self.foreign_bound[(self.function, target.id)] = (value.lineno, called)
        elif isinstance(target, ast.Name) and self._method_call(value):
            self.computed_bound[(self.function, target.id)] = (value.lineno, self._text(value))
        elif isinstance(target, ast.Name) and self._helper_call(value):
            self.helper_bound[(self.function, target.id)] = (value.lineno, self._text(value))
        if isinstance(target, ast.Name) and isinstance(value, ast.Call) and _callee(value):
            layout = self.layout(value)
            layout.name = target.id
            self.bound[(self.function, target.id)] = layout
            self.bindings.setdefault((self.function, target.id), []).append(layout)
            self.stores.add((self.function, target.id))
            return True
        returned = self._returned(value)
        if isinstance(target, ast.Name) and returned:  # `layout: gl.constexpr = row_layout(gl.num_warps())`
            self.generic_visit(value)
            self.reads.append((self.function, target.id, value.lineno))
            self.bound[(self.function, target.id)] = returned[0]
            self.bindings.setdefault((self.function, target.id), []).extend(returned)
            self.stores.add((self.function, target.id))
            self.aliases.extend((self.function, target.id, layout) for layout in returned)
            return True
        if isinstance(target, ast.Name) and isinstance(value, ast.Name):
            bound = self._lookup(value.id)
            if bound is not None:  # another name for a layout: its reads are the layout's uses
                self._read(value.id, value.lineno)
                self.bound[(self.function, target.id)] = bound
                self.stores.add((self.function, target.id))
                self.aliases.append((self.function, target.id, bound))
                return True
        return False

    def _bind_attribute(self, attr: str, value: ast.AST) -> bool:
        """`self.attr = <layout>` in a method of a class (a `@gluon.aggregate`'s `__init__`): a layout
        constructor, what a helper returns, or a name bound to a layout."""
        if isinstance(value, ast.Call) and _callee(value):
            layout = self.layout(value)
            layout.name = f"self.{attr}"
            layouts = [layout]
        elif returned := self._returned(value):
            self.generic_visit(value)
            layouts = returned
        elif isinstance(value, ast.Name) and (bound := self._lookup(value.id)) is not None:
            self._read(value.id, value.lineno)
            layouts = [bound]
        else:
            if self._method_call(value):  # `self.qk_layout = gl.constexpr(ty.get_reg_layout(...))`
                self.computed_attrs.setdefault(attr, []).append((self.klass, value.lineno, self._text(value)))
            return False
        mine = self.attr_layouts.setdefault((self.klass, attr), [])
        mine.extend(w for w in layouts if w not in mine)
        return True

    def _passes(self, node: ast.Call) -> None:
        """The names a call passes to a function (`f(a, L)`, `f(layout=L)`) or to a warp-specialized
        partition (`gl.warp_specialize([(f, (a, L)), ...], ...)`, and 3.5's `(default_args, default_fn,
        worker_args, worker_fns, ...)` form is read alike where its pairs are written as tuples)."""
        def passed(callee: str, args: list[ast.expr], keywords: list[ast.keyword] = ()) -> None:
            for i, arg in enumerate(args):
                if isinstance(arg, ast.Name):
                    self.passes.append((self.function, callee, i, arg.id))
            for k in keywords:
                if k.arg and isinstance(k.value, ast.Name):
                    self.passes.append((self.function, callee, k.arg, k.value.id))

        if isinstance(node.func, ast.Name):
            passed(node.func.id, node.args, node.keywords)
        if _name(node.func) == "warp_specialize" and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
            for pair in node.args[0].elts:
                if isinstance(pair, ast.Tuple) and len(pair.elts) == 2 and isinstance(pair.elts[0], ast.Name) \
                        and isinstance(pair.elts[1], (ast.Tuple, ast.List)):
                    passed(pair.elts[0].id, pair.elts[1].elts)

    def _read(self, name: str, line: int) -> None:
        self.reads.append((self.function, name, line))
        if self.calls_open and self.calls_open[-1] != line:
            self.reads.append((self.function, name, self.calls_open[-1]))

    def _returned(self, node: ast.AST) -> list[WrittenLayout]:
        """The layouts a call of a function of this source (or of a module it imports that the resolver
        found) returns; none: not such a call."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and self._lookup(node.func.id) is None \
                and (self.function, node.func.id) not in self.stores:
            return self._returns_of(node.func.id, set())
        f = node.func if isinstance(node, ast.Call) else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.modules \
                and (self.function, f.value.id) not in self.stores:
            return self._module_returns(f.value.id, f.attr)
        return []

    def _returns_of(self, function: str, seen: set[str]) -> list[WrittenLayout]:
        """What `function` returns: its own layouts and those of the helpers it returns the call of, through
        any chain of them (a stack of its own: a chain thousands long raised RecursionError)."""
        out: list[WrittenLayout] = []
        todo = [function]
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            out += [w for w in self._imported_returns(f) if w not in out]
            todo.extend(reversed(self.forwards.get(f, [])))
        return out

    def _lookup(self, name: str) -> WrittenLayout | None:
        """The layout `name` is bound to here: the function's own binding, else the module's unless the
        function binds that name to something else."""
        if (self.function, name) in self.bound:
            return self.bound[(self.function, name)]
        if (self.function, name) in self.stores:
            return None
        return self.bound.get((None, name))

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and self._imports_module(node.targets[0], node.value):
            return
        if not (len(node.targets) == 1 and self._bind(node.targets[0], node.value)):
            self.generic_visit(node)

    def _imports_module(self, target: ast.expr, value: ast.expr) -> bool:
        """`t5 = importlib.import_module("05-wgmma")` at module level (Triton's tutorials import each other so:
        their file names are no identifiers): as `import ... as t5`."""
        if self.function is not None or not isinstance(target, ast.Name) or not isinstance(value, ast.Call):
            return False
        f = value.func
        named = (isinstance(f, ast.Attribute) and f.attr == "import_module" and isinstance(f.value, ast.Name)
                 and f.value.id == "importlib") or (
            isinstance(f, ast.Name) and f.id == "import_module"
            and self.imported.get("import_module") == "importlib.import_module")
        if not named or not value.args or not isinstance(value.args[0], ast.Constant) \
                or not isinstance(value.args[0].value, str) or value.args[0].value.startswith("."):
            return False
        self.modules[target.id] = value.args[0].value
        return True

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is None or not self._bind(node.target, node.value):
            self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _callee(node):
            self.layout(node)
            return
        # `layout=row_layout(4)`: the line uses what the helper returns
        self.helper_calls.extend((layout, self.function, node.lineno) for layout in self._returned(node))
        position = _LAYOUT_ARGUMENT.get(_name(node.func) or "")
        self._passes(node)
        self.calls_open.append(node.lineno)
        try:
            for k in node.keywords:
                if k.arg == "layout":
                    self._as_layout(k.value)
            if position is None and _name(node.func) == "load" and self._method_call(node):
                position = 0  # a shared or tensor memory descriptor's `.load(layout)` (gl.load takes a pointer)
            if position is not None and len(node.args) > position:
                self._as_layout(node.args[position])
            if _name(node.func) == "convert_layout":
                target = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "layout"), None)
                if target is not None:
                    self.convert_targets.append((self.function, _unwrap_constexpr(target), node.lineno))
            self.generic_visit(node)
        finally:
            self.calls_open.pop()

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._imported_layout(node.id)
            self._read(node.id, node.lineno)
        elif self.function is not None:
            self.stores.add((self.function, node.id))

    def layout(self, node: ast.Call) -> WrittenLayout:
        callee = _callee(node)
        assert callee is not None
        cls, factory = callee
        kind, fields = GLUON_LAYOUTS[cls]
        if factory is not None:
            fields = FACTORIES[cls, factory][0]
        segment = self._segment(node) or cls
        written = WrittenLayout(node.lineno, node.col_offset + 1, cls, kind, " ".join(segment.split()),
                                function=self.function, function_lines=self.function_lines, factory=factory)
        if self.path is not None:  # (a module the kernel's source imports)
            written.file = self.path
            written.line_text = self.lines[node.lineno - 1].strip() if node.lineno <= len(self.lines) else None
        named = list(zip(fields, node.args, strict=False)) + [(k.arg, k.value) for k in node.keywords if k.arg]
        # positional arguments past the fields read (a 3.8 BlockedLayout's cga_layout, 3.7's ctas_per_cga: their
        # names differ by release): shown as written, by position, matched against nothing
        named += [(f"argument {i + 1}", v) for i, v in enumerate(node.args) if i >= len(fields)]
        for key, value in named:
            written.args[key] = self.value(value, layout_field=key == "parent")
        written.args.update(IMPLIED.get(cls, {}))
        self.found.append(written)
        self.by_node[id(node)] = written
        return written

    def value(self, node: ast.AST, layout_field: bool = False) -> Any:
        """An argument of a layout class (`layout_field`: one that is a layout, a slice's parent)."""
        if isinstance(node, ast.Call) and _callee(node):
            return self.layout(node)
        returned = self._returned(node)
        if returned:  # `gl.SliceLayout(0, row_layout(4))`
            self.visit(node)
            return Either(tuple(returned)) if len(returned) > 1 else returned[0]
        if isinstance(node, (ast.Name, ast.Call, ast.Attribute)):
            self._as_layout(node, computed=layout_field)  # (a parent, an operand's layout: another module's?)
        if isinstance(node, ast.Name):
            self._read(node.id, node.lineno)
            bound = self._lookup(node.id)
            if bound is not None:
                scope = self.function if (self.function, node.id) in self.bound else None
                every = self.bindings.get((scope, node.id), [])
                return Either(tuple(every)) if len(every) > 1 else bound
        try:
            return ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        if isinstance(node, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in node.elts):
            # `[config.SPLIT_M, 1]`: the literal elements still say something; the others are symbols
            items = [self.value(e) for e in node.elts]
            if not all(isinstance(x, Symbol) for x in items):
                return items
            return Symbol(self._segment(node) or "?")
        self.visit(node)
        return Symbol(self._segment(node) or "?")


@dataclass(frozen=True)
class Foreign:
    """A layout a function of another module returns (`L: gl.constexpr = helpers.row_layout(4)`), used as
    a layout at `line` (or bound there to `name`): the layouts written in that module are not read."""

    line: int
    name: str | None
    called: str  # `module.function`
    function: str | None  # the function using it

    def sentence(self, file: str) -> str:
        what = f"{self.name} is what {self.called}() returns" if self.name else f"{self.called}() returns a layout"
        return f"{file}:{self.line}: {what}, written in another module: the layouts written there are not read"


@dataclass(frozen=True)
class Unread:
    """A layout computed while compiling, used as a layout at `used` (bound to `name` at `line`, or written
    there): a method's result (`call`: `acc_tmem.get_reg_layout()`, an aggregate's attribute bound to one);
    `call` None, a parameter of `function` (the kernel's: the launch gives it); `what` "value", another
    value's layout (`x.type.layout`). The source does not say what it is; the TTGIR does."""

    line: int
    name: str | None
    call: str | None
    function: str | None
    used: int
    what: str = "computed"  # or "value": another value's layout (`x.type.layout`), `name` its text; or
    # "element": an element of a computed value (`layouts[0]`), `name` its text; or "helper": a call of a
    # function of the source whose result is not followed (`pick(W, "reg")`)
    span: tuple[int, int] | None = field(default=None, compare=False)  # the using function's lines

    @property
    def parameter(self) -> bool:
        return self.call is None and self.what == "computed"

    def sentence(self, file: str, used: list[int] | None = None) -> str:
        """One line; `used`: every line using it (of the Unreads of one binding or parameter)."""
        used = sorted(set(used or [self.used]))
        lines = f"line{'s' if len(used) > 1 else ''} {', '.join(map(str, used))}"
        if self.what == "value":
            return (f"{file}:{self.line}: {self.name}, another value's layout, is used as a layout on {lines}: "
                    "what Triton gave that value, not read from the source")
        if self.what == "element":
            return (f"{file}:{self.line}: {self.name}, an element of a value the source computes (a helper's "
                    f"tuple or list of layouts), is used as a layout on {lines}: not read from the source (the "
                    f"TTGIR's layouts on {'those lines' if len(used) > 1 else 'that line'} are what it was)")
        if self.call is None:
            return (f"{file}:{self.line}: {self.name}, a parameter of {self.function}, is used as a layout on "
                    f"{lines}: its value is the launch's, not read from the source (the TTGIR's layouts on "
                    f"{'those lines' if len(used) > 1 else 'that line'} are what it was)")
        what = f"{self.name} is what {self.call} returns" if self.name else f"{self.call} returns a layout"
        how = "a helper of the source whose result this reading does not follow" if self.what == "helper" else \
            "a method run while compiling"
        return (f"{file}:{self.line}: {what}, {how}: not read from the source (the "
                f"TTGIR's layouts on {lines}, which use{'' if len(used) > 1 else 's'} it, are what it returned)")


def unread_notes(unread: list[Unread], file: str) -> list[str]:
    """A sentence per layout computed while compiling: one per method call, or per parameter or name bound
    to one (its uses listed), in line order."""
    groups: dict[tuple, list[Unread]] = {}
    for u in unread:
        # (a parameter is its function's; a binding, its line's, whichever function uses it)
        key = (u.name, u.line) if u.call is not None else (u.function, u.name, u.what) if u.name else (u.line, u.call)
        groups.setdefault(key, []).append(u)
    firsts = sorted(groups.values(), key=lambda us: min(u.line for u in us))
    return [min(us, key=lambda u: u.line).sentence(file, [u.used for u in us]) for us in firsts]


# Gluon functions taking a layout positionally: name -> its index (gl.arange(0, N, L), gl.zeros(shape,
# dtype, L), gl.full(shape, value, dtype, L), gl.convert_layout(x, L), gl.allocate_shared_memory(dtype,
# shape, L), gl.set_auto_layout(x, L))
_LAYOUT_ARGUMENT = {"arange": 2, "zeros": 2, "full": 3, "convert_layout": 1, "allocate_shared_memory": 2,
                    "set_auto_layout": 1}


def _parameters_given(names: list[tuple[str | None, str]], scanner: _Scanner,
                      passes: dict[tuple[str | None, str], list[tuple[str, int | str]]]) -> dict[tuple[str, str], set]:
    """The parameters of this source's functions that the names are passed to, and on through their calls:
    (function, parameter) -> the functions holding the names that pass it first. A name read in the callee
    is the layout's use there, as a helper's lines are the ops of its call (a warp-specialized partition's
    ops carry no call site to give them back to their caller). `passes`: the scanner's passes by (caller,
    the name passed)."""
    out: dict[tuple[str, str], set] = {}
    todo = [(scope, name, scope) for scope, name in names]
    seen = set(names)
    while todo and len(seen) < 256:
        scope, name, root = todo.pop()
        for callee, where in passes.get((scope, name), ()):
            if callee not in scanner.params:
                continue
            params = scanner.params[callee]
            param = where if isinstance(where, str) else params[where] if where < len(params) else None
            if param is None or (callee, param) in names:
                continue
            out.setdefault((callee, param), set()).add(root)
            if (callee, param) not in seen:
                seen.add((callee, param))
                todo.append((callee, param, root))
    return out


def _receiver(node: ast.AST) -> tuple | None:
    """What an attribute is read on, as `_Scanner.class_of` follows it: ("name", n), ("attr", inner, a)."""
    if isinstance(node, ast.Name):
        return ("name", node.id)
    if isinstance(node, ast.Attribute):
        inner = _receiver(node.value)
        return ("attr", inner, node.attr) if inner is not None else None
    return None


def _attribute_reads(scanner: _Scanner) -> dict[tuple[str, str], set[tuple[str | None, int]]]:
    """(class, attribute) of an aggregate's layout attribute -> the (function, line) pairs reading it: on an
    instance of that class where the source says which (`self`, `cfg = Conf(N)`, a parameter annotated
    `Conf`, `o.inner`), else on anything only where one class binds an attribute of that name, not one every
    Gluon object of a kind has (`desc.layout`). Read once per scan."""
    binders: dict[str, set[str]] = {}
    for cls, attr in scanner.attr_layouts:
        binders.setdefault(attr, set()).add(cls)
    out: dict[tuple[str, str], set[tuple[str | None, int]]] = {}
    for fn, klass, receiver, attr, line in scanner.attr_reads:
        if attr not in binders:
            continue
        cls = scanner.class_of(receiver, fn, klass)
        if cls is None and len(binders[attr]) == 1 and attr not in _GENERIC_ATTRIBUTES:
            cls = next(iter(binders[attr]))
        if cls is not None and (cls, attr) in scanner.attr_layouts:
            out.setdefault((cls, attr), set()).add((fn, line))
    return out


@dataclass
class Scan:
    layouts: list[WrittenLayout]  # every layout constructor call, in line order (written_layouts)
    foreign: list[Foreign]  # the layouts functions of other modules return, once each
    unread: list[Unread] = field(default_factory=list)  # layouts computed while compiling, once each


def _attribute_unreads(scanner: _Scanner) -> list[Unread]:
    """The attributes used as layouts that no reading of the source gives: an aggregate's attribute its class
    binds to a method's result (`self.qk_layout = gl.constexpr(ty.get_reg_layout())`, read as
    `config.qk_layout`), another value's layout (`x.type.layout`, `desc.layout`). An attribute a class binds to
    a written layout is that layout's use (`_attribute_reads`), never a note."""
    out = []
    for fn, klass, receiver, attr, used, span, text in scanner.attr_layout_uses:
        written = {c for c, a in scanner.attr_layouts if a == attr}
        computed = scanner.computed_attrs.get(attr, [])
        cls = scanner.class_of(receiver, fn, klass)
        if cls is not None:  # (the receiver's class, where the source says: its own bindings only)
            if (cls, attr) in scanner.attr_layouts:
                continue
            computed = [c for c in computed if c[0] == cls]
        elif written:  # (some class binds it to a written layout: perhaps this one's)
            continue
        if computed and len({c for c, _, _ in computed}) == 1:  # (its first binding: one per branch of an `if`)
            binder, line, call = computed[0]
            out.append(Unread(line, f"{binder}.{attr}", call, fn, used, span=span))
        elif attr == "layout" and not computed:
            out.append(Unread(used, text, None, fn, used, "value", span=span))
    return out


def written_layouts(source: str) -> list[WrittenLayout]:
    """Every layout constructor call of a Python source, in line order, with the lines using its name.

    Raises SyntaxError for text that is not Python (the caller names the file)."""
    return scan(source).layouts


def scan(source: str, resolver: Resolver | None = None) -> Scan:
    """The layouts a Python source writes, and those it takes from other modules' functions: read where
    `resolver` finds the module (a helper of the kernel's package), else listed as `foreign`."""
    scanner = _Scanner(source, resolver)
    scanner.visit(ast.parse(source))
    passes: dict[tuple[str | None, str], list[tuple[str, int | str]]] = {}  # (caller, name) -> (callee, where)
    for caller, callee, where, given in scanner.passes:
        passes.setdefault((caller, given), []).append((callee, where))
    attribute_reads = _attribute_reads(scanner)
    for layout in scanner.found:
        # the names it goes by: its own and its aliases (a name bound to what a helper returns is one), each
        # read in its scope (a module-level name is read in every function that does not bind that name
        # itself), and the lines calling a helper that returns it
        own = layout.file is None  # (one written in an imported module: only this source's names for it)
        names = [(layout.function, layout.name)] if layout.name and own else []
        names += [(fn, a) for fn, a, w in scanner.aliases if w is layout]
        given = _parameters_given(names, scanner, passes)  # (function, parameter) -> who passes it first
        sites = {(fn, line) for w, fn, line in scanner.helper_calls if w is layout}
        sites |= {(fn, line) for fn, name, line in scanner.reads if (line != layout.line or not own)
                  and any(name == n and (fn == scope or (scope is None and (fn, n) not in scanner.stores))
                          for scope, n in names)}
        for owner, bound in scanner.attr_layouts.items():  # (an aggregate's attribute bound to it: its reads)
            if any(w is layout for w in bound):
                sites |= attribute_reads.get(owner, set())
        layout.passed_from = {}
        for fn, name, line in scanner.reads if given else ():
            roots = given.get((fn, name))
            if roots and (fn, line) not in sites:
                layout.passed_from.setdefault(line, set()).update(roots)
                sites.add((fn, line))
        layout.uses = sorted({line for _, line in sites})
        layout.convert_lines = {
            line for fn, target, line in scanner.convert_targets
            if scanner.by_node.get(id(target)) is layout or (isinstance(target, ast.Name) and any(
                target.id == n and (fn == scope or (scope is None and (fn, n) not in scanner.stores))
                for scope, n in names))}
        layout.use_functions = {fn: scanner.spans[fn] for fn, _ in sites if fn in scanner.spans}
    return Scan(sorted(scanner.found, key=lambda w: (w.file is not None, w.file or "", w.line, w.col)),
                list(dict.fromkeys(scanner.foreign)), list(dict.fromkeys(scanner.unread + _attribute_unreads(scanner))))
