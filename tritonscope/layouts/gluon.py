"""Written against resolved: for each layout a Gluon kernel's source constructs, the TTGIR layout(s) it
became, found through the source lines that carry it (its own line, and the lines reading its name).

A written layout is 'as written' when the TTGIR layout has every field the source spells out; 'filled in'
when some fields were symbols (a constexpr, `gl.num_warps()`) and the TTGIR gives their values; 'chosen by
the compiler' for AutoLayout / CoalescedLayout; 'differs' when the lines carry layouts of its kind but none
with its fields; 'not in TTGIR' when no op of those lines carries a layout of its kind (unused, or its
lines produced no op). Pure: texts in, dataclasses out.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.attrs import iter_shaped_types, parse_layout_aliases, parse_tensor_type
from tritonscope.layouts.model import Layout
from tritonscope.layouts.views import facts_for
from tritonscope.layouts.written import DEFAULTS, Either, Scan, Symbol, WrittenLayout, scan, unread_notes
from tritonscope.stages import parse_ttgir
from tritonscope.stages.common import kernel_source_file, same_file

# written field -> attribute of the tritonscope.layouts.model class of that kind
FIELDS: dict[str, dict[str, str]] = {
    "blocked": {"size_per_thread": "size_per_thread", "threads_per_warp": "threads_per_warp",
                "warps_per_cta": "warps_per_cta", "order": "order"},
    "slice": {"dim": "dim", "parent": "parent"},
    "dot_op": {"operand_index": "op_idx", "parent": "parent", "k_width": "k_width"},
    "nvidia_mma": {"version": "version", "warps_per_cta": "warps_per_cta", "instr_shape": "instr_shape"},
    "amd_mfma": {"version": "version", "warps_per_cta": "warps_per_cta", "instr_shape": "instr_shape",
                 "transposed": "is_transposed"},
    "swizzled_shared": {"vec": "vec", "per_phase": "per_phase", "max_phase": "max_phase", "order": "order"},
    "nvmma_shared": {"swizzle_byte_width": "swizzling_byte_width", "element_bitwidth": "element_bit_width",
                     "transposed": "transposed", "rank": "rank"},
    "tensor_memory_encoding": {"block": "block_shape", "col_stride": "col_stride", "two_ctas": "two_ctas",
                               "fp4_padded": "fp4_padded"},
    "amd_wmma": {"version": "version", "transposed": "is_transposed", "warp_bases": "warp_bases"},
    "padded_shared": {"interval_padding_pairs": "intervals", "offset_bases": "offset_bases"},
}
# DistributedLinearLayout's bases against the TTGIR's `#ttg.linear` ones, per input dim
LINEAR_FIELDS = {"reg_bases": "register", "lane_bases": "lane", "warp_bases": "warp", "block_bases": "block"}


@dataclass
class TensorOnLine:
    """A tensor type on a TTGIR line whose op comes from a given source line."""

    name: str  # alias (`blocked1`) or the inline attribute text
    layout: Layout
    shape: tuple[int, ...]
    dtype: str
    access_bits: int
    memory: str
    view_of: tuple[int, ...] | None = None  # a shared-memory view's allocation (`TensorType.view_of`)
    converted: bool = False  # a convert_layout's result: the layout the line converts to
    ttgir_line: int = 0  # the TTGIR line of the op holding it


@dataclass
class Resolution:
    written: WrittenLayout
    status: str
    resolved: list[TensorOnLine] = field(default_factory=list)  # one per distinct layout, largest tensor
    filled: dict[str, str] = field(default_factory=dict)  # symbolic field -> the value in the TTGIR
    on_lines: list[int] = field(default_factory=list)  # source lines whose ops carry the resolved layout
    seen: list[str] = field(default_factory=list)  # layouts of its lines, when none matched


# The status of a written layout no op of its lines carries, whose fields a TTGIR layout has
ELSEWHERE = "in TTGIR, on no op of its lines"
ONE_OF = "one of these: each fits its written fields, and no op of its lines says which"


def one_of(r: dict) -> bool:
    """Whether a written layout (as `resolution_json` gives it) on no op of its lines fits several."""
    return r.get("status") == ELSEWHERE and len(r.get("resolved") or ()) > 1


def _norm(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_norm(x) for x in v)
    return v


def same_kind(written: str, resolved: str) -> bool:
    """A written layout's kind against a TTGIR layout's: a DistributedLinearLayout prints as `linear`, or as
    `generic_linear` (3.8 on) where its warp bases move along several dims or two bases are alike."""
    return resolved == written or (written, resolved) == ("linear", "generic_linear")


def matches(written: WrittenLayout, layout: Layout | None) -> bool:
    """Whether `layout` has every field `written` spells out (symbols match anything)."""
    if layout is None:
        return False
    if written.kind is None:
        return not layout.shared
    if not same_kind(written.kind, layout.kind):
        return False
    defaults = DEFAULTS.get((written.cls, written.factory), {})
    for key, attr in FIELDS.get(written.kind, {}).items():
        value = written.args.get(key, defaults.get(key))  # (a field the call leaves out: Gluon's default)
        if value is not None and not _agrees(value, _field(layout, attr)):
            return False
    if written.kind == "linear":  # (its fields are the bases of each input dim)
        bases = getattr(layout, "bases", {}) or {}
        for key, in_dim in LINEAR_FIELDS.items():
            value = written.args.get(key)
            if value is not None and not _agrees(value, tuple(tuple(b) for b in bases.get(in_dim, ()))):
                return False
    return True


def _field(layout: Layout | None, attr: str) -> Any:
    """A field of a TTGIR layout as the Gluon constructor takes it: a padded layout printed with `order` and
    `shape` (its identity offsets, as `with_identity_for` builds them) has those offset bases."""
    value = getattr(layout, attr, None)
    if value is None and attr == "offset_bases" and getattr(layout, "order", None) and getattr(layout, "shape", None):
        rank = len(layout.shape)
        value = tuple(tuple(1 << b if i == dim else 0 for i in range(rank))
                      for dim in layout.order for b in range(max(layout.shape[dim], 1).bit_length() - 1))
    return value


def _agrees(value: Any, got: Any) -> bool:
    """A written field against the layout's: symbols agree with anything, lists element by element."""
    if isinstance(value, Symbol):
        return True
    if isinstance(value, Either):
        return any(matches(o, got) for o in value.options)
    if isinstance(value, WrittenLayout):
        return matches(value, got)
    if isinstance(value, list) and any(isinstance(x, (Symbol, WrittenLayout, Either, list)) for x in value):
        return isinstance(got, (list, tuple)) and len(got) == len(value) and all(map(_agrees, value, got))
    return got is None or _norm(value) == _norm(got)  # (a field the TTGIR leaves unsaid: a rank any fits)


def _exact(written: WrittenLayout, matched: dict[str, Layout]) -> dict[str, Layout]:
    """Of several layouts a written one matches, those saying every field it spells out (a rank-3
    NVMMASharedLayout is the `rank = 3` one, not the one that prints no rank), where there are any."""
    spelled = [attr for key, attr in FIELDS.get(written.kind or "", {}).items()
               if key in written.args and not isinstance(written.args[key], Symbol)]
    exact = {n: lay for n, lay in matched.items() if all(_field(lay, a) is not None for a in spelled)}
    return exact if exact and len(matched) > 1 else matched


def _with_parents(name: str, layout: Layout | None, names: dict[Layout, str]) -> list[tuple[str, Layout]]:
    """A tensor's layout and the layouts it derives from (a slice's parent, a dot operand's parent)."""
    out = []
    while layout is not None:
        out.append((name, layout))
        layout = getattr(layout, "parent", None)
        if layout is not None:
            name = names.get(layout) or layout.text or layout.to_text()
    return out


@dataclass
class KernelTensors:
    """Source line -> the tensor types of the TTGIR ops it produced; alias names of layouts."""

    by_line: dict[int, list[TensorOnLine]]
    names: dict[Layout, str]
    reached: frozenset[int] = frozenset()  # every line of the source file some op's chain names
    every: dict[Layout, str] = field(default_factory=dict)  # every layout of the TTGIR's types (and parents)
    frames: dict[int, set[int]] = field(default_factory=dict)  # TTGIR line -> source lines of its op's chain
    # how to read the values each TTGIR op defines and uses, and the layouts its types carry (`flow`): read
    # only where several written layouts became one TTGIR layout (`_values_of`)
    flow_of: Callable[[], list[Flow]] | None = None

    @functools.cached_property
    def flow(self) -> list[Flow]:
        return self.flow_of() if self.flow_of is not None else []


@dataclass
class Flow:
    """A TTGIR op's values: what it defines and uses (a region's arguments, as `pairs`: the operand each
    one is), on which lines, and the layouts their types carry."""

    lines: list[int]
    defs: set[str] = field(default_factory=set)
    uses: set[str] = field(default_factory=set)
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (operand, region argument it becomes)
    carries: set[str] = field(default_factory=set)


_VALUE = r"%[A-Za-z0-9_.$-]+"


def _value_flow(ttgir: str, module, carries: dict[int, set[str]]) -> list[Flow]:
    """Each op's values (`%name`s), from its lines' text: what it defines before its `=`, what it uses after;
    a warp_specialize partition's arguments are its operands in order, a loop's `iter_args(%a = %v)` `%v`.
    A partition is isolated: its names (`%6` again) are its own, told apart by the line of its header."""
    text = ttgir.splitlines()
    rest: dict[int, list[int]] = {}
    for lineno, op in module.continued.items():
        rest.setdefault(op.lineno, []).append(lineno)
    regions: list[tuple[int, int]] = []  # (a partition's header line, the op's next line after it)
    for lines in rest.values():
        lines.sort()
        regions += [(a, b) for a, b in zip(lines, lines[1:], strict=False)
                    if re.match(r"\s*partition\d+\(", _line_of(text, a))]

    def scope(lineno: int) -> int:
        return next((a for a, b in regions if a < lineno < b), 0)

    out = []
    for op in module.ops:
        f = Flow([op.lineno, *rest.get(op.lineno, ())])
        here = scope(op.lineno)
        for i, lineno in enumerate(f.lines):
            line = re.sub(r'\bloc\((?:[^()"]|"[^"]*"|\([^()]*\))*\)', "", _line_of(text, lineno))
            f.carries |= carries.get(lineno, set())
            header = re.match(r"\s*partition\d+\((.*)", line) if i else None
            if header:  # (a partition's arguments: the warp_specialize's operands, in order)
                operands = re.findall(_VALUE, re.sub(r"\).*", "", _line_of(text, op.lineno).split("(", 1)[-1]))
                f.pairs += [(f"{here}{v}", f"{lineno}{a}")
                            for v, a in zip(operands, re.findall(rf"({_VALUE}):", header.group(1)), strict=False)]
                continue
            m = re.match(rf"\s*((?:{_VALUE}(?::\d+)?\s*,?\s*)+)=(.*)", line)
            defs = []
            if m:
                defs = re.findall(_VALUE, m.group(1))
                line = m.group(2)
            defs += re.findall(rf"({_VALUE})\s*=", line)  # (iter_args)
            uses = re.findall(_VALUE, re.sub(rf"{_VALUE}\s*=", "", line))  # (`%r#1`: a result of `%r`)
            f.defs.update(f"{here}{v}" for v in defs)
            f.uses.update(f"{here}{v}" for v in uses)
        out.append(f)
    return out


def _line_of(text: list[str], lineno: int) -> str:
    return text[lineno - 1] if 0 < lineno <= len(text) else ""


def tensors_by_source_line(ttgir: str, source_file: str, path: str | None = None) -> KernelTensors:
    """Source line (of `source_file`, any frame of an op's location) -> the tensor types of its ops."""
    aliases = parse_layout_aliases(ttgir, path)
    names = {layout: name for name, layout in aliases.items()}
    module = parse_ttgir(ttgir, path)
    frames: dict[int, set[int]] = {}
    # each op's first line, and the later lines of a multi-line op: a tt.reduce's result type is on its
    # closing line (`}) : (tensor<32x16xf32, #blocked>) -> tensor<32xf32, #ttg.slice<...>>`)
    for lineno, op in [*((op.lineno, op) for op in module.ops), *module.continued.items()]:
        if op.loc is None:
            continue
        lines = {p.line for p in op.loc.chain() if p.line and p.file and same_file(p.file, source_file)}
        if lines:
            frames.setdefault(lineno, set()).update(lines)
    out: dict[int, list[TensorOnLine]] = {}
    every = {layout: name for name, layout in aliases.items()}
    types = iter_shaped_types(ttgir)
    # a convert_layout's line carries its result's layout: its operand's is its producer's (a reshape's
    # inferred layout on the line before), not one the line's written layout became
    converts = {op.lineno for op in module.ops if op.op.endswith(".convert_layout")}
    last = {lineno: i for i, (lineno, _) in enumerate(types) if lineno in converts}
    carries: dict[int, set[str]] = {}
    for i, (lineno, type_text) in enumerate(types):
        try:
            tt = parse_tensor_type(type_text, aliases)
        except TritonscopeError as exc:
            raise TritonscopeError(f"line {lineno}: {exc}", path) from None
        if tt.encoding is None:
            continue
        name = tt.encoding_name or names.get(tt.encoding) or tt.encoding.text or tt.encoding.to_text()
        if tt.encoding not in every:
            every.update((lay, n) for n, lay in _with_parents(name, tt.encoding, names) if lay not in every)
        carries.setdefault(lineno, set()).update(n for n, _ in _with_parents(name, tt.encoding, names))
        if lineno not in frames or last.get(lineno, i) != i:
            continue
        t = TensorOnLine(name, tt.encoding, tt.shape, tt.pointee_dtype or tt.dtype, tt.access_bits, tt.memory,
                         tt.view_of, lineno in last, lineno)
        for line in frames[lineno]:
            out.setdefault(line, []).append(t)
    return KernelTensors(out, names, frozenset().union(*frames.values()), every, frames,
                         lambda: _value_flow(ttgir, module, carries))


def _rank(t: TensorOnLine) -> tuple[int, bool, bool]:
    return (_numel(t.shape), t.dtype.startswith(("f", "bf")),
            t.dtype not in ("i1",) and not t.dtype.startswith("!tt.ptr"))


def resolve(written: WrittenLayout, kernel: KernelTensors, claimed: frozenset[str] = frozenset()) -> Resolution:
    """What `written` became: the layouts of its lines' ops that match it, but those in `claimed`."""
    # AutoLayout/CoalescedLayout: what the ops of its own line hold (nothing to read through a name)
    direct = written.kind is None
    seen: dict[str, Layout] = {}
    matched: dict[str, Layout] = {}
    for line in [written.line] if direct else written.lines():
        here: list[tuple[str, Layout, bool]] = []
        for t in kernel.by_line.get(line, []):
            chain = [(t.name, t.layout)] if direct else _with_parents(t.name, t.layout, kernel.names)
            for name, layout in chain:
                seen.setdefault(name, layout)
                if name not in claimed and matches(written, layout):
                    here.append((name, layout, t.converted))
        # a line converting to it uses it there as the convert's result: the other ops of the line (a reshape
        # whose result it converts, `gl.convert_layout(a.reshape(...), L)`) hold what the compiler inferred
        converted = line in written.convert_lines and any(c for _, _, c in here)
        for name, layout, c in here:
            if c or not converted:
                matched.setdefault(name, layout)
    matched = _exact(written, matched)
    if not matched:
        kind_seen = [n for n, lay in seen.items() if written.kind is None or same_kind(written.kind, lay.kind)]
        if not kind_seen and not direct and written.function is not None:
            # (written in the kernel or a helper: a module's layout no line uses is left out as before)
            # no op of its lines carries it, but the TTGIR has a layout with its fields: a constant the
            # compiler hoisted to no line (a gl.zeros accumulator), an op merged with an identical one
            # (the lines whose ops do carry it are said: an accumulator's layout flows to its dot's lines)
            elsewhere = {n: lay for lay, n in kernel.every.items() if matches(written, lay)}
            if elsewhere:
                found, on_lines = _carried(elsewhere, kernel)
                # (several fit its written fields: which it is, nothing says, nor which of their lines are its)
                return Resolution(written, ELSEWHERE, found, _filled(written, found, kernel),
                                  on_lines if len(found) == 1 else [])
        return Resolution(written, "differs" if kind_seen else "not in TTGIR", seen=kind_seen)
    resolved, on_lines = _carried(matched, kernel, set(written.lines()))
    status = "chosen by the compiler" if direct else "filled in" if written.symbolic else "as written"
    return Resolution(written, status, resolved, _filled(written, resolved, kernel), on_lines)


def _type(t: TensorOnLine) -> tuple:
    """A value's type as the TTGIR prints it: its layout, shape, element type, memory and allocation."""
    return t.layout, t.shape, t.dtype, t.memory, t.view_of


def _carried(matched: dict[str, Layout], kernel: KernelTensors, own: set[int] = frozenset(),
             allowed: dict[str, set[tuple]] | None = None) -> tuple[list[TensorOnLine], list[int]]:
    """Per layout, the tensor to describe it by: the largest on the lines that write or name it (`own`:
    three barriers of one MBarrierLayout class, [3, 1], [3, 1] and [1], each described by its own; two
    NVMMASharedLayouts of one TTGIR layout, 128x64 and 64x64 buffers, each by its buffers), else the largest
    anywhere (a layout only ever seen as a parent has no tensor of its own: no shape to describe it with);
    and the source lines whose ops carry any of them. `allowed`: layout -> the (TTGIR line, type) of the values
    that are this written layout's, where other written layouts became that layout too (`_values_of`)."""
    allowed = allowed or {}
    best: dict[str, TensorOnLine] = {}
    mine: dict[str, TensorOnLine] = {}  # the largest on its own lines
    carrying: dict[str, list[TensorOnLine]] = {}
    on_lines: set[int] = set()
    for line, tensors in kernel.by_line.items():
        for t in tensors:
            for name, layout in _with_parents(t.name, t.layout, kernel.names):
                if name not in matched or name in allowed and (t.ttgir_line, _type(t)) not in allowed[name]:
                    continue
                on_lines.add(line)
                if layout is not t.layout:
                    continue
                carrying.setdefault(name, []).append(t)
                # the largest tensor; of equal ones a float one (the data), else not a mask (i1) or pointers
                if name not in best or _rank(t) > _rank(best[name]):
                    best[name] = t
                if line in own and (name not in mine or _rank(t) > _rank(mine[name])):
                    mine[name] = t
    for name, t in mine.items():  # (of that shape, the data: `offsets` on its line, the load it feeds)
        best[name] = max((c for c in carrying[name] if c.shape == t.shape), key=_rank)
    resolved = [best.get(n) or TensorOnLine(n, lay, (), "", 0, "registers") for n, lay in matched.items()]
    return resolved, sorted(on_lines)


def _filled(written: WrittenLayout, resolved: list[TensorOnLine], kernel: KernelTensors) -> dict[str, str]:
    """The TTGIR's values of the fields the source left symbolic, where it resolved to one layout."""
    if len(resolved) != 1 or written.kind is None:
        return {}
    attrs = FIELDS.get(written.kind, {})
    return {k: _text(_field(resolved[0].layout, attrs[k]), kernel.names) for k in written.symbolic if k in attrs}


def _claimed_by_literals(out: list[Resolution], kernel: KernelTensors) -> None:
    """A layout with symbolic fields matches more than it became where its lines hold other layouts of its
    kind (`gl.convert_layout(x, b)`: x's layout too). A layout another written one became as written, with
    every field spelled out, is that one's: the symbolic one became the others, where there are others."""
    claimed: dict[str | None, set[str]] = {}  # layout kind -> what fully written layouts became
    for o in out:
        if o.status == "as written" and len(o.resolved) == 1 and not o.written.symbolic:
            claimed.setdefault(o.written.kind, set()).add(o.resolved[0].name)
    for i, r in enumerate(out):
        if r.status != "filled in" or len(r.resolved) < 2:
            continue
        theirs = frozenset(claimed.get(r.written.kind, ()))
        if theirs & {t.name for t in r.resolved} and {t.name for t in r.resolved} - theirs:
            out[i] = resolve(r.written, kernel, theirs)


def _shared_by_several(out: list[Resolution], kernel: KernelTensors) -> None:
    """Several written layouts that became one TTGIR layout through their own lines (two TensorMemoryLayouts
    of alike fields, one #tmem): each is described, and carried, by the values of its own lines' types, not by
    the TTGIR layout's largest tensor and every line carrying it."""
    own = [r for r in out if r.status in ("as written", "filled in", "chosen by the compiler")]
    claimants: dict[str, list[Resolution]] = {}
    for r in own:
        for t in r.resolved:
            claimants.setdefault(t.name, []).append(r)
    allowed: dict[int, dict[str, set[tuple]]] = {}
    for name, rs in claimants.items():
        if len(rs) > 1:
            for i, values in enumerate(_values_of(name, [set(r.written.lines()) for r in rs], kernel)):
                allowed.setdefault(id(rs[i]), {})[name] = values
    for r in own:
        if id(r) in allowed:
            r.resolved, r.on_lines = _carried({t.name: t.layout for t in r.resolved}, kernel,
                                              set(r.written.lines()), allowed[id(r)])


def _values_of(name: str, owners: list[set[int]], kernel: KernelTensors) -> list[set[tuple]]:
    """For written layouts that each became the TTGIR layout `name` (`owners`: each one's source lines), the
    (TTGIR line, type) of its values: what the ops of its lines define, and every op that uses one of those
    (or defines one: a view of an allocation, a partition's argument), followed op to op through those of
    `name`. An op holding the values of several (an MMA of two tensor-memory operands) gives each the types
    its other ops hold, those no other's hold."""
    ops = [f for f in kernel.flow if name in f.carries]
    mine: list[set[int]] = []  # per owner, the indices of its ops
    for lines in owners:
        seeds = {i for i, f in enumerate(ops) if any(kernel.frames.get(n, set()) & lines for n in f.lines)}
        values = set().union(*(ops[i].defs for i in seeds))
        grew = True
        while grew:  # (a loop's values come back from its yield: follow until nothing is added)
            grew = False
            for f in ops:
                new = {a for v, a in f.pairs if v in values} | (f.defs if f.uses & values and not f.pairs else set())
                if new - values:
                    values |= new
                    grew = True
        mine.append(seeds | {i for i, f in enumerate(ops) if (f.defs | f.uses | {a for _, a in f.pairs}) & values})
    held = [{(n, _type(t)) for i in m for n in ops[i].lines for t in _tensors_at(kernel, n, name)} for m in mine]
    only = []  # per owner, the types its ops no other owner's hold
    for k, m in enumerate(mine):
        others = set().union(*(o for j, o in enumerate(mine) if j != k))
        only.append({_type(t) for i in m - others for n in ops[i].lines for t in _tensors_at(kernel, n, name)})
    return [{(n, ty) for n, ty in held[k] if ty in only[k] or not any(ty in o for j, o in enumerate(only) if j != k)}
            for k in range(len(owners))]


def _tensors_at(kernel: KernelTensors, ttgir_line: int, name: str) -> list[TensorOnLine]:
    """The tensors of a TTGIR line whose layout, or a layout it derives from, is `name`."""
    return [t for line in kernel.frames.get(ttgir_line, ()) for t in kernel.by_line.get(line, ())
            if t.ttgir_line == ttgir_line and any(n == name for n, _ in _with_parents(t.name, t.layout, kernel.names))]


def _through_children(out: list[Resolution], kernel: KernelTensors) -> None:
    """A layout only ever used inside another written one (`parent` in `gl.SliceLayout(0, parent)`) has no
    line of its own with ops: it resolves to the field of what that one resolved to, where it matches."""
    for r in out:
        if r.status not in ("not in TTGIR", ELSEWHERE):  # (a child that resolved says more than the TTGIR's list)
            continue
        found: dict[str, Layout] = {}
        for child in out:
            if not child.resolved:
                continue
            for key, value in child.written.args.items():
                attr = FIELDS.get(child.written.kind or "", {}).get(key)
                if not (value is r.written or (isinstance(value, Either) and r.written in value.options)) \
                        or attr is None:
                    continue
                for t in child.resolved:
                    inner = getattr(t.layout, attr, None)
                    if isinstance(inner, Layout) and matches(r.written, inner):
                        found.setdefault(_text(inner, kernel.names).lstrip("#"), inner)
        if found:
            r.resolved = [TensorOnLine(n, lay, (), "", 0, "registers") for n, lay in found.items()]
            r.status = "filled in" if r.written.symbolic else "as written"
            r.filled, r.seen = _filled(r.written, r.resolved, kernel), []


def _branches_not_taken(out: list[Resolution]) -> None:
    """A name bound to layouts in each branch of a constexpr `if` (or a helper returning one from each): the
    one that resolved was compiled; the others 'differ' only by not being taken."""
    def alternatives(w: WrittenLayout) -> tuple | None:  # a name's bindings, or a helper's returns
        return (w.function, w.name) if w.name else (w.function, "return") if w.returned else None

    taken = {alternatives(r.written) for r in out if r.resolved} - {None}
    for r in out:
        if r.status == "differs" and alternatives(r.written) in taken:
            r.status, r.seen = "not in TTGIR", []


def _in_kernel(w: WrittenLayout, function: str, kernel: KernelTensors) -> bool:
    """Whether `w` is the kernel `function`'s: written in it, at module level (used or not), in a function
    the kernel reached, or used in one of those (what a `@gluon.constexpr_function` returns: no op has its
    lines). Its uses are cut to the kernel's own: not another kernel's lines, not the helper's."""
    def ours(fn: str) -> bool:
        first, last = w.use_functions[fn]
        return fn == function or any(first <= line <= last for line in kernel.reached)

    theirs = [span for fn, span in w.use_functions.items() if not ours(fn)]
    # a use in a function the layout is passed to is the kernel's where the kernel (or a function it
    # reached) passes it there
    passers = {fn for roots in w.passed_from.values() for fn in roots if fn is not None}
    mine = {fn for fn in passers if fn in w.use_functions and ours(fn)} | ({function} & passers)
    w.uses = [u for u in w.uses if not any(first <= u <= last for first, last in theirs)
              and (u not in w.passed_from or w.passed_from[u] & mine or None in w.passed_from[u])]
    used_here = any(ours(fn) for fn in w.use_functions)
    return (w.file is None and w.function in (function, None)) or _reached(w, kernel) or (
        used_here and any(u not in w.passed_from for u in w.uses)) or bool(mine)


def _reached(written: WrittenLayout, kernel: KernelTensors) -> bool:
    """Whether the function `written` is in has a line some op of the kernel came from (a function of
    another file's has none of the kernel file's lines)."""
    if written.function_lines is None or written.file is not None:
        return False
    first, last = written.function_lines
    return any(first <= line <= last for line in kernel.reached)


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _text(v: Any, names: dict[Layout, str] | None = None) -> str:
    if isinstance(v, tuple):
        return "[" + ", ".join(_text(x, names) for x in v) + "]"
    if isinstance(v, Layout):  # a parent layout: its alias, as the TTGIR names it
        name = (names or {}).get(v)
        return f"#{name.lstrip('#')}" if name else v.to_text()
    return str(v)


def written_vs_resolved(source: str, source_file: str, ttgir: str, ttgir_path: str | None = None,
                        function: str | None = None, scanned: Scan | None = None,
                        kernel: KernelTensors | None = None) -> list[Resolution]:
    """Every layout written in `source` against the TTGIR: with `function` given, those written in it, in
    the functions the kernel reached (helpers, warp-specialized partitions: a line of theirs is in some op's
    chain), at module level, and those a function returns (`@gluon.constexpr_function`, run while compiling:
    no op has its lines) to a line the kernel reached. `kernel`: the TTGIR's tensors by source line, where
    the caller has them."""
    kernel = kernel or tensors_by_source_line(ttgir, source_file, ttgir_path)
    written = (scanned or scan(source)).layouts
    if function is not None:
        written = [w for w in written if _in_kernel(w, function, kernel)]
    out = [resolve(w, kernel) for w in written]
    _claimed_by_literals(out, kernel)
    _shared_by_several(out, kernel)
    _through_children(out, kernel)
    _branches_not_taken(out)
    # module-level layouts this kernel does not use belong to other kernels of the file
    return [r for r in out if r.written.function is not None or r.status != "not in TTGIR"]


@dataclass
class WrittenSource:
    """A Gluon kernel's source as its TTGIR names it, and its written layouts against the TTGIR's: `error`
    (the TTGIR names no file, the file is not found, it is not Python) where there are none."""

    requested: str | None  # the file the TTGIR's locations name
    source: Any = None  # srcmap.paths.SourceText, when looked for
    resolutions: list[Resolution] | None = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)  # what is not read (layouts other modules' functions return)

    def resolutions_json(self) -> list[dict]:
        """Each written layout as `layout --json`'s `written.layouts` has it (`resolution_json`), with the text
        of its line (a module's line where it is written in another file)."""
        return [resolution_json(r, r.written.line_text if r.written.file else
                                (self.source.line(r.written.line) or "").strip()) for r in self.resolutions or ()]


def written_in_source(ttgir: str, ttgir_path: str, function: str | None, finder,
                      triton_version: str | None = None, compiled_at: float | None = None) -> WrittenSource:
    """Find the kernel's source with `finder` (a srcmap.paths.SourceFinder; read-only) and resolve the layouts
    `function` writes there against the TTGIR: what `layout`, `map` and `loads` show of a Gluon kernel."""
    from tritonscope.srcmap.kernelmap import named_files

    module = parse_ttgir(ttgir, ttgir_path)
    requested = kernel_source_file([module])
    if requested is None:
        return WrittenSource(None, error="the TTGIR names no source file")
    # (the lines, defs and last line the TTGIR names: the policy the source pane applies, the same file refused alike)
    source = finder.read(requested, named_files([module]), compiled_at)
    if not source.found:
        return WrittenSource(requested, source, error=source.error)
    stale = _changed_since_compiled(source, module, ttgir, function, requested)
    if stale:
        return WrittenSource(requested, source, error=stale)
    text = "\n".join(source.lines)
    try:
        scanned = scan(text, package_modules(source.path, installed_triton(triton_version)) if source.path else None)
    except SyntaxError as exc:
        return WrittenSource(requested, source, error=f"{source.path}:{exc.lineno}: not Python ({exc.msg})")
    except (RecursionError, MemoryError):  # (an expression of a thousand terms: Python's compiler copes, ast walks)
        return WrittenSource(requested, source, error=f"{source.path}: an expression nests too deeply for its "
                                                      "layouts to be read")
    kernel = tensors_by_source_line(ttgir, requested, ttgir_path)
    resolved = written_vs_resolved(text, requested, ttgir, ttgir_path, function, scanned, kernel)
    name = os.path.basename(source.path or requested)
    notes = [f.sentence(name) for f in scanned.foreign if function is None or f.function in (function, None)]
    # (a parameter of the kernel is the launch's; a helper's is its caller's, whose layouts are read; another
    # layout computed while compiling where a function the kernel reached uses it)
    notes += unread_notes([u for u in scanned.unread if function is None or u.function == function or (
        not u.parameter and u.span and any(u.span[0] <= n <= u.span[1] for n in kernel.reached))], name)
    return WrittenSource(requested, source, resolved, notes=notes)


_MAX_MODULE_BYTES = 1 << 20  # a module of the kernel's package read for its layouts, at most
_MAX_MODULES, _MAX_MODULES_BYTES = 32, 4 << 20  # all of them, for one kernel


def package_modules(kernel_path: str, triton_root: Path | None = None):
    """A written.Resolver for the modules of the kernel's own package: a relative import from the
    importing file's folder, an absolute one from the kernel's folder or a folder of its package (up while
    the folder holds an `__init__.py`); nothing whose real path is outside the folder above the top package,
    at most 32 modules and 4 MiB for one kernel (1 MiB each). Read-only. Triton's own modules (the Gluon
    translator's helpers) only from `triton_root`, the folder holding the installed `triton` package where
    its release is the one that compiled (`installed_triton`); never its language packages (they define
    the layout classes, no helper of the kernel's)."""
    home = Path(kernel_path).parent
    tops = [home]
    while (tops[-1] / "__init__.py").is_file() and tops[-1].parent != tops[-1] and len(tops) < 16:
        tops.append(tops[-1].parent)
    try:
        trees = [(tops[-1], tops[-1].resolve())]
        if triton_root is not None:
            trees.append((triton_root / "triton", (triton_root / "triton").resolve()))
    except (OSError, RuntimeError):
        return lambda module, level, importer: None
    budget = {"modules": _MAX_MODULES, "bytes": _MAX_MODULES_BYTES}  # (all modules read for one kernel)

    def resolve(module: str, level: int, importer: str | None):
        top = module.split(".")[0]
        if not module or budget["modules"] <= 0 or (not level and top == "torch"):
            return None
        if not level and top == "triton":
            if triton_root is None or module.startswith(("triton.language", "triton.experimental.gluon")):
                return None
            roots, tree = [triton_root], trees[-1][1]
        elif level:
            start = Path(importer).parent if importer else home
            for _ in range(level - 1):
                start = start.parent
            # (beyond the top-level package, or Triton's: Python refuses it too)
            spelled, tree = next(((t, real) for t, real in trees if start.is_relative_to(t)), (None, None))
            if spelled is None:
                return None
            roots = [start]
        else:
            roots, tree = tops, trees[0][1]
        for root in roots:
            base = root.joinpath(*module.split("."))
            for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                try:
                    # a plain file whose real path is in the package's tree (a link out of it is not read)
                    if not candidate.is_file() or not candidate.resolve().is_relative_to(tree):
                        continue
                    size = candidate.stat().st_size
                    if size > min(_MAX_MODULE_BYTES, budget["bytes"]):
                        continue
                    budget["modules"] -= 1
                    budget["bytes"] -= size
                    from tritonscope.srcmap.paths import python_text

                    text = python_text(candidate.read_bytes())  # (as Python reads it: a declared encoding)
                    if text is None:
                        continue
                    return str(candidate), text
                except (OSError, ValueError, RuntimeError):
                    continue
        return None

    return resolve


@functools.lru_cache(maxsize=8)
def installed_triton(version: str | None) -> Path | None:
    """The folder holding the installed `triton` package (`tools.triton_package_dirs`, never imported)
    where its release, as its `__init__.py` says, is `version`; else None."""
    from tritonscope.artifacts.tools import triton_package_dirs

    if not version:
        return None
    want = version.split("+")[0]
    for package in triton_package_dirs():
        init = package / "__init__.py"
        try:
            if not init.is_file() or init.stat().st_size > _MAX_MODULE_BYTES:
                continue
            m = re.search(r"""^__version__\s*=\s*['"]([^'"]+)['"]""", init.read_text(encoding="utf-8"), re.M)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        if m and m.group(1).split("+")[0] == want:
            return package.parent
    return None


def _named_arguments(ttgir: str, function: str) -> list[str]:
    """The argument names of `function`'s `tt.func` line (`%src_ptr: ...`; none before Triton 3.5's `%arg0`)."""
    m = re.search(rf"^\s*tt\.func\s+(?:public\s+|private\s+)?@{re.escape(function)}\((.*)$", ttgir, re.M)
    if m is None:
        return []
    return [n for n in re.findall(r"(?:^|, )%([A-Za-z_]\w*):", m.group(1)) if not re.fullmatch(r"arg\d+", n)]


def _changed_since_compiled(source, module, ttgir: str, function: str | None, requested: str) -> str | None:
    """Why the file found is not the source the TTGIR was compiled from, or None: the TTGIR locates the
    kernel's function at a line of it, where the file must have `def <function>(` (`paths.def_line`). An
    edited file (lines moved) or another file of the same path would otherwise get its layouts matched,
    with confidence, against a kernel they did not make."""

    loc = module.function_locs.get(function) if function else None
    if loc is None or not loc.line or not same_file(loc.file, requested):
        return None
    at = loc.line
    if source.line(at) is None:
        return f"{source.path} has no line {at}, where the TTGIR locates {function}: not the source compiled"
    from tritonscope.srcmap.paths import def_line, kernel_names

    found = def_line(source.lines, kernel_names(function, getattr(module, "path", None)), at)
    changed = ("the file changed since it was compiled (or is another file of that path); its layouts are "
               "not matched")
    if found is None:
        return f"{source.path}:{at} is not `def {function}(`, where the TTGIR locates the kernel: {changed}"
    # the arguments the TTGIR names (Triton >= 3.5 keeps their names; constexprs are compiled away) must be
    # parameters of that def
    declared = _parameters("\n".join(source.lines[found - 1:found + 40]))
    missing = [a for a in _named_arguments(ttgir, function) if a not in declared]
    if missing:
        return (f"{source.path}:{found}: `def {function}(` has no parameter {missing[0]!r}, an argument of the "
                f"compiled kernel: {changed}")
    return None


def _parameters(text: str) -> set[str]:
    """The parameter names of the `def name(...)` that `text` starts with, read as Python's tokenizer reads
    them (comments (Triton's tutorials end each wrapped line with `,  #`), strings, nested brackets of
    annotations and defaults)."""
    import io
    import tokenize

    names: set[str] = set()
    depth = 0
    previous = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
                if depth == 0:
                    break
            elif tok.type == tokenize.NAME and depth == 1 and previous in ("(", ",", "*", "**"):
                names.add(tok.string)
            if tok.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE):
                previous = tok.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # (the text may stop inside a string or bracket: what came before is read)
    return names


def resolution_json(r: Resolution, source_line: str | None) -> dict:
    """One written layout, what it became, and the numbers of its largest tensor."""
    resolved = []
    for t in r.resolved:
        doc = {"name": t.name, "kind": t.layout.kind, "text": t.layout.text or t.layout.to_text(),
               "shape": list(t.shape), "dtype": t.dtype or None, "memory": t.memory, "facts": None}
        if t.view_of:
            doc["view_of"] = list(t.view_of)
        if t.shape:
            try:
                doc["facts"] = facts_for(t.layout, t.view_of or t.shape, t.access_bits).to_json()
            except TritonscopeError as exc:
                doc["error"] = str(exc)
        resolved.append(doc)
    return {"written": r.written.to_json(), "source": source_line, "status": r.status, "filled": r.filled,
            "resolved": resolved, "on_lines": r.on_lines, "seen": r.seen}


def written_by_line(resolutions: list[Resolution]) -> dict[int, list[dict]]:
    """Source line -> the layouts written there, each with what it became (for `map`)."""
    out: dict[int, list[dict]] = {}
    for r in resolutions:
        if r.written.file is not None:  # (written in another file: no line of this one)
            continue
        out.setdefault(r.written.line, []).append({
            "class": r.written.cls, "text": r.written.text, "status": r.status, "filled": r.filled,
            "resolved": [t.name if t.name.startswith("#") else f"#{t.name}" for t in r.resolved],
            "on_lines": r.on_lines})
    return out
