"""The memory accesses of a TTGIR module and what the compiler knew about them.

For every `tt.load`, `tt.store`, atomic, TMA/descriptor op, async copy, AMD buffer op and local
(shared-memory) load/store: its tensor type and layout, mask/other, cache policy, and the alignment facts
(`tt.divisibility`, `tt.contiguity`, `tt.constancy` on kernel arguments and ops) found by walking the
address computation back to the kernel's arguments. A small use-def walk over the op texts does that;
locations and layouts come from the stage parser and `layouts.attrs`, not from here.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import re
from dataclasses import dataclass, field

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.attrs import dtype_bits, iter_shaped_types, parse_tensor_type
from tritonscope.layouts.model import Layout
from tritonscope.stages.common import Module, Op, SourceLoc, chained
from tritonscope.stages.memops import initialized_alloc_kind, mlir_hint_values, mlir_op_kind

# `%a, %b = ` / `%acc:9 = ` at the start of an op: the values it defines.
RESULTS = re.compile(r"^\s*(?P<names>%[\w.$-]+(?::\d+)?(?:\s*,\s*%[\w.$-]+(?::\d+)?)*)\s*=")
VALUE = re.compile(r"%[\w.$-]+")
VALUE_NUMBERED = re.compile(r"%[\w.$-]+(?:#\d{1,6})?")
# `{tt.divisibility = 16 : i32}` on an argument, `{tt.divisibility = dense<16> : tensor<1xi32>}` on an op.
# (at most 18 digits: int() refuses numbers of 4300+ digits)
ALIGNMENT_ATTR = re.compile(r"\b(tt\.divisibility|tt\.contiguity|tt\.constancy|contiguity)\s*=\s*"
                            r"(?:dense<\[?(?P<dense>\d{1,18}(?!\d)[\d,\s]*)\]?>|(?P<int>\d{1,18})(?!\d))")
# `tt.func public @k(%w_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc(...), %N: i32 loc(...))`
FUNC_LINE = re.compile(r"^\s*tt\.func\s+(?:public\s+|private\s+)?@(?P<name>[\w$.-]+)\((?P<args>.*)$")
ARG_START = re.compile(r"(%[\w.$-]+)\s*:\s*")
ITER_ARGS = re.compile(r"iter_args\((?P<body>.*?)\)\s*->")
ITER_ARG = re.compile(r"(%[\w.$-]+)\s*=\s*(%[\w.$-]+(?:#\d+)?)")
ATTR_DICT = re.compile(r"\{[^{}]*\}")
# Keyword operands: `%src, %dst mask %m other %o` (async_copy_global_to_local); AMD's buffer ops `%p[%off]
# mask = %m other = %o stride = %s into %dst` (buffer_load_to_local, buffer_load): a stride or a destination
# read as a positional mask made an unmasked copy masked.
KEYWORD_OPERAND = re.compile(r"\b(mask|other|stride|into)\s*=?\s*(%[\w.$-]+)")
# `arith.constant 64 : i32`, `arith.constant dense<64> : tensor<64xi32, ...>`
# (at most 18 digits: a longer number is no constant Triton prints, and int() refuses > 4300 digits)
SCF_FOR = re.compile(r"\bscf\.for\s+%[\w.$-]+\s*=\s*(%[\w.$-]+)\s+to\s+(%[\w.$-]+)\s+step\s+(%[\w.$-]+)")
INT_CONSTANT = re.compile(r"arith\.constant\s+(?:dense<)?(-?\d{1,18})>?\s*:\s*(?:i\d+|index|tensor<[\dx]*i\d+)")
_MAX_FACTOR = 1 << 40
_UNIT_CHANGING_OPS = frozenset(("tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int"))
_UNKNOWN_UNITS = 0  # a multiples() factor past a pointer cast: no factor known, none accumulates
_NO_TERM = -1  # multiples() below a _NO_TERM_OPS op: loads still make a gather, arguments add no term
# ops whose result is no sum of its operands' terms times factors: factors found below them do not count
_FACTOR_BREAKING_OPS = frozenset(("arith.divsi", "arith.divui", "arith.ceildivsi", "arith.floordivsi", "arith.remsi",
                                  "arith.remui", "arith.shrsi", "arith.shrui", "arith.andi", "arith.ori", "arith.xori"))
# ops whose result holds no term of their operands that an argument's divisibility could align: a comparison
# is 0 or 1, and Triton's AxisInfo knows nothing of a scan's or a reduction's result (a radix sort's
# `cumsum(digit == bin)` scatters to where the counts say, whatever the shift amount's divisibility)
_NO_TERM_OPS = frozenset(("arith.cmpi", "arith.cmpf", "tt.scan", "tt.reduce", "tt.histogram", "arith.fptosi",
                          "arith.fptoui"))
_FOR_IV = re.compile(r"\bscf\.for\s+(%[\w.$-]+)\s*=")
EXPAND_AXIS = re.compile(r"axis\s*=\s*(\d{1,9})(?!\d)")
# ops through which a term keeps its factor and its dims (the offsets of `tt.addptr` included)
_STEP_SAME_OPS = frozenset(("tt.addptr", "arith.addi", "arith.subi", "tt.broadcast", "arith.extsi", "arith.extui",
                            "arith.trunci", "ttg.convert_layout", "arith.index_cast"))
# ops whose result holds its one operand's value (a constant stays that constant)
_SAME_VALUE_OPS = frozenset(("tt.splat", "tt.broadcast", "tt.expand_dims", "arith.extsi", "arith.extui",
                             "arith.trunci", "ttg.convert_layout", "arith.index_cast"))
# those through which a sum keeps its terms and constant (a truncation may wrap: not it)
_TERM_KEEPING_OPS = _SAME_VALUE_OPS - {"arith.trunci"}

@dataclass
class Argument:
    name: str  # without %
    type: str
    attrs: dict[str, int] = field(default_factory=dict)


@dataclass
class AccessSite:
    """One memory op of TTGIR (one instance: the pipeliner may clone an access several times)."""

    op: Op
    kind: str  # memops kind: global_load, shared_load, async_copy, tma, ...
    shape: tuple[int, ...]
    dtype: str  # element type moved (the pointee for pointer tensors)
    element_bits: int
    layout: Layout | None
    layout_name: str | None  # alias without '#', or the inline layout kind
    mask: str | None
    other: str | None
    eviction: str | None
    cache: str | None
    address: list[str]  # SSA values of the pointer tensor, or of a buffer op's base and offsets
    attrs: dict[str, int] = field(default_factory=dict)  # alignment attrs on the op itself
    shared_layout: Layout | None = None  # the memdesc's layout, for local loads/stores and async copies
    shared_layout_name: str | None = None
    mma_operands: str | None = None  # mma_shared: which operands the MMA reads from shared memory ("A and B")
    mma_shapes: str | None = None  # mma_shared: those operands' shapes, "A 128x64, B 64x128" (the row's is B's)
    # the `tt.call`s this copy of an access in a called function runs through, innermost first: its values
    # are the call's operands there (ValueGraph.through)
    calls: tuple[Op, ...] = ()


class ValueGraph:
    """Use-def links between the SSA values of one TTGIR function, read from its text (regions only as far
    as their `scf.yield`s feed a loop's or an `if`'s values)."""

    def __init__(self, module: Module, ttgir_text: str):
        """MLIR numbers the values of sibling regions alike (`%31` of an `scf.if` branch and `%31` after
        it): a name defined again gets a key of its own, `%31@683` (its line), and each use is resolved
        to the nearest definition before it, the one in scope in SSA form. `at(op, names)` gives an op's
        operands as keys."""
        self.defs: dict[str, Op] = {}
        self.lines = ttgir_text.splitlines()  # the TTGIR's lines, split once (loop_trips, merged_arms)
        self.layouts_written = False  # a Gluon kernel's: its programmer's, no coalesce pass's (analyze sets it)
        self._by_line: dict[int, Op] = {op.lineno: op for op in module.ops}
        self.extra_sources: dict[str, list[str]] = {}  # loop-carried values: init and yielded value
        self.arguments: dict[str, Argument] = parse_arguments(self.lines)
        # each function's arguments as keys, in order: a name another function's value goes by gets a key
        # of its own (`%offset@_load_compact`), so that a called function's argument is never that value
        self.function_args: dict[str, list[str]] = {}
        self._bound: dict[str, str] = {}  # an argument of a called function -> the call's operand (through)
        headers = function_arguments(self.lines)
        self._uses: dict[int, dict[str, str]] = {}  # op line -> {name as written: key}, where they differ
        # an scf.for's or scf.if's results: result k is its k-th loop-carried value (init, then each
        # yield), or the k-th value either arm yields
        self._region_results: dict[str, list[str]] = {}
        current: dict[str, str] = {}
        # regions whose `scf.yield`s are pending: [the values they feed, yields still to come]
        open_regions: list[list] = []

        def fresh(name: str, op: Op) -> str:
            """The key of a name `op` defines (a loop's own arguments included), from here on."""
            key = current[name] = name if name not in current else f"{name}@{op.lineno}"
            return key

        function: object = object()
        for op in module.ops:
            if op.function != function:
                function = op.function
                if function in headers and function not in self.function_args:
                    keys = self.function_args[function] = []
                    for a in headers[function]:
                        name = f"%{a.name}"
                        key = current[name] = name if name not in current and name not in self.defs \
                            else f"{name}@{function}"
                        self.arguments[key[1:]] = a
                        keys.append(key)
            used = {n: current[n] for n in operands(op.text) if current.get(n, n) != n}
            if used:
                self._uses[op.lineno] = used
            m = RESULTS.match(op.text)
            feeds: list[str] = []
            if op.op == "scf.for":
                iv = _FOR_IV.search(op.text)
                if iv:  # the induction variable: a name of its own from here on (`%acc_56` of the loop and a
                    fresh(iv.group(1), op)  # `%acc_56 = tt.dot` after it were one value), no definition
                it = ITER_ARGS.search(op.text)
                for arg, init in ITER_ARG.findall(it.group("body")) if it else []:
                    key = fresh(arg, op)
                    self.extra_sources.setdefault(key, []).append(self._resolve(used, init))
                    feeds.append(key)
                if feeds:  # (a loop without iter_args prints no yield)
                    open_regions.append([feeds, 1])
            elif op.op == "scf.if" and m:  # (an scf.if without results prints no yields)
                count = sum(int(n.split(":")[1]) if ":" in n else 1 for n in m.group("names").split(","))
                feeds = [f"%if{op.lineno}#{k}" for k in range(count)]
                open_regions.append([feeds, 2])
            elif op.op == "scf.while":
                open_regions.append([[], 1])  # its yield feeds its own arguments: not followed
            elif op.op == "scf.yield" and open_regions:
                region = open_regions[-1]
                yielded = self.at(op, operands(op.text, result_numbers=True))
                if len(yielded) == len(region[0]):
                    for key, value in zip(region[0], yielded, strict=True):
                        self.extra_sources.setdefault(key, []).append(value)
                region[1] -= 1
                if region[1] == 0:
                    open_regions.pop()
            if m:
                for name in m.group("names").split(","):
                    key = fresh(name.strip().split(":")[0], op)
                    self.defs[key] = op
                    if feeds and op.op in ("scf.for", "scf.if"):
                        self._region_results[key] = feeds

    @contextlib.contextmanager
    def through(self, calls: tuple[Op, ...]):
        """Within: each argument of a called function is the operand its call (`calls`, innermost first)
        passes, followed into the caller (an SGLang helper loads `Cache + offset` for four calls, each
        passing its own offsets: how one copy's address steps is its call's)."""
        bound: dict[str, str] = {}
        for call in calls:
            m = _CALL_OPERANDS.search(call.text.split(" loc(", 1)[0])
            args = self.function_args.get(m.group(1).strip('"')) if m else None
            if not args:
                break
            passed = self.at(call, VALUE.findall(m.group(2)))
            if len(passed) != len(args):
                break
            bound.update((a, v) for a, v in zip(args, passed, strict=True) if a != v)
        saved, self._bound = self._bound, bound
        try:
            yield
        finally:
            self._bound = saved

    def _follow(self, value: str) -> str:
        """The caller's value a called function's argument is, through the calls bound (`through`)."""
        for _ in range(64):
            if value not in self._bound:
                break
            value = self._bound[value]
        return value

    def at(self, op: Op, names: list[str]) -> list[str]:
        """The keys of the values `op` uses by these names (`%11#2`: a loop's third result is its third
        loop-carried value)."""
        used = self._uses.get(op.lineno, {})
        return [self._resolve(used, n) for n in names]

    def _resolve(self, used: dict[str, str], name: str) -> str:
        base, _, number = name.partition("#")
        key = used.get(base, base)
        region = self._region_results.get(key)
        if region is not None and number and int(number) < len(region):
            return region[int(number)]
        return key

    def _operands(self, op: Op, value: str) -> list[str]:
        """What `op` (defining `value`) computes it from, as keys; a loop's or an if's result is the value
        its regions carry (not the loop's bounds and every other initial value: the op's own operands)."""
        region = self._region_results.get(value)
        if region is not None:
            return region[:1]  # a one-result op (a multi-result one is used as `%11#2`, below)
        own = value.split("@")[0]
        used = self._uses.get(op.lineno, {})
        return [self._resolve(used, v) for v in operands(op.text, result_numbers=True) if v.partition("#")[0] != own]

    def equivalent(self, a: str, b: str, depth: int = 0) -> bool:
        """Whether two values are one, or computed alike: the same pure op (`arith`, `math`, pointer and shape
        ops; never a load) with the same attributes and types from equivalent operands, as each arm of an
        `scf.if` recomputes `splat(ptr) + offsets` for its own store. LLVM sees one value in both."""
        if a == b:
            return True
        op_a, op_b = self.defs.get(a), self.defs.get(b)
        if op_a is None or op_b is None or depth > 8 or op_a.op != op_b.op or not _pure(op_a.op) \
                or a in self._region_results or b in self._region_results or a in self.extra_sources \
                or b in self.extra_sources or _shape_of(op_a.text) != _shape_of(op_b.text):
            return False
        srcs_a, srcs_b = self._operands(op_a, a), self._operands(op_b, b)
        return len(srcs_a) == len(srcs_b) and all(self.equivalent(x, y, depth + 1)
                                                   for x, y in zip(srcs_a, srcs_b, strict=True))

    def element_offset(self, a: str, b: str) -> int | None:
        """How many elements pointer `b` lies after pointer `a` where both are one pointer plus integer terms
        that differ by a constant only (`cu_seqlens + b` and `cu_seqlens + b + 1`: 1); None otherwise."""
        root_a, terms_a, const_a = self._pointer_terms(a, 0)
        root_b, terms_b, const_b = self._pointer_terms(b, 0)
        if root_a != root_b or terms_a != terms_b:
            return None
        return const_b - const_a

    def index_offset(self, a: str, b: str) -> int | None:
        """How much integer `b` exceeds integer `a` where both are sums that differ by a constant only (a
        buffer op's offsets: `cos + pair` and `cos + (pair + 1)`: 1); None otherwise."""
        terms_a, const_a = self._int_terms(a, 0)
        terms_b, const_b = self._int_terms(b, 0)
        return const_b - const_a if terms_a == terms_b else None

    def constant_offset(self, site: AccessSite) -> int:
        """The elements an access's address adds as a constant (`ptr + offs + 1`, `(x_ptr + 1) + offs`, a
        buffer op's `offs + 1`), through its pointer sums, scalar or splat; 0 where none."""
        if not site.address:
            return 0
        if site.op.op.split(".")[-1].startswith("buffer") and len(site.address) > 1:
            return self._int_terms(site.address[1], 0)[1]
        total, value = 0, site.address[0]
        for _ in range(16):  # (an addptr of a splat of an addptr: the scalar pointer's constant too)
            root, _, const = self._pointer_terms(self._follow(value), 0)
            total += const
            op = self.defs.get(root)
            if op is None or op.op not in ("tt.splat", "tt.broadcast", "ttg.convert_layout"):
                break
            srcs = self._operands(op, root)
            if len(srcs) != 1:
                break
            value = srcs[0]
        return total

    def _pointer_terms(self, value: str, depth: int) -> tuple[str, collections.Counter, int]:
        op = self.defs.get(value)
        if op is not None and op.op == "tt.addptr" and depth < 16:
            srcs = self._operands(op, value)
            if len(srcs) == 2:
                root, terms, const = self._pointer_terms(srcs[0], depth + 1)
                more, more_const = self._int_terms(srcs[1], depth + 1)
                return root, terms + more, const + more_const
        return value, collections.Counter(), 0

    def _int_terms(self, value: str, depth: int) -> tuple[collections.Counter, int]:
        """An integer as a sum: its non-constant terms (keys) and its constant part."""
        c = self.constant(value)
        if c is not None:
            return collections.Counter(), c
        op = self.defs.get(value)
        if op is not None and depth < 16:
            srcs = self._operands(op, value)
            if op.op == "arith.addi" and len(srcs) == 2:
                (t1, c1), (t2, c2) = self._int_terms(srcs[0], depth + 1), self._int_terms(srcs[1], depth + 1)
                return t1 + t2, c1 + c2
            # (casts that keep the value, and shape ops that keep each element's: `broadcast(x + 1)` is
            # `broadcast(x)` plus 1 element by element)
            if op.op in _TERM_KEEPING_OPS and len(srcs) == 1:
                return self._int_terms(srcs[0], depth + 1)
        return collections.Counter({value: 1}), 0

    def sources(self, value: str) -> list[str]:
        if value in self._bound:
            return [self._bound[value]]
        op = self.defs.get(value)
        out = list(self.extra_sources.get(value, []))
        if op is not None:
            out.extend(self._operands(op, value))
        return out

    def slice(self, values: list[str], limit: int = 2000) -> tuple[list[Op], list[Argument]]:
        """Ops and kernel arguments the values are computed from."""
        seen: set[str] = set()
        todo = list(values)
        ops: list[Op] = []
        listed: set[int] = set()  # ids of the ops in `ops` (an op defining several values is listed once)
        args: list[Argument] = []
        while todo and len(seen) < limit:
            v = todo.pop()
            if v in seen:
                continue
            seen.add(v)
            arg = self.arguments.get(v[1:])
            if arg is not None and v not in self.defs and v not in self._bound:
                args.append(arg)
                continue
            op = self.defs.get(v)
            if op is not None and id(op) not in listed:
                listed.add(id(op))
                ops.append(op)
            todo.extend(self.sources(v))
        return ops, args

    def _region_headers(self, op: Op):
        """The header lines of the regions around `op`, innermost first, as (line index, stripped text),
        up to its function; nothing for an op whose line is not in the module."""
        lines = self.lines
        i = op.lineno - 1
        if not 0 <= i < len(lines):
            return
        indent = len(lines[i]) - len(lines[i].lstrip())
        for j in range(i - 1, -1, -1):
            text = lines[j].lstrip()
            depth = len(lines[j]) - len(text)
            if not text or depth >= indent or text.startswith(("}", "^")):
                continue
            indent = depth  # a line less indented than the op: the header of a region around it
            if depth == 0 or text.startswith("tt.func"):
                return
            yield j, text

    def loop_trips(self, op: Op) -> int | None:
        """How many times `op` runs per launch by the `scf.for` loops around it (their trip counts
        multiplied), when every enclosing loop has constant bounds; 1 outside any loop; None otherwise
        (a runtime bound, or a region that is no `scf.for`, such as a `scf.while`)."""
        if not 0 < op.lineno <= len(self.lines):
            return None
        trips = 1
        for j, text in self._region_headers(op):
            m = SCF_FOR.search(text)
            head = self._by_line.get(j + 1)
            if m is None or head is None:
                if "scf.if" in text:
                    continue  # (an arm runs at most once per run of what encloses it)
                return None  # a region of another kind (scf.while, ...): how often it runs is unknown
            lo, hi, step = (self.constant(k) for k in self.at(head, list(m.groups())))
            if lo is None or hi is None or not step or step < 0:
                return None
            trips *= max(0, -(-(hi - lo) // step))
        return trips

    def in_loop(self, op: Op) -> bool:
        """Whether an `scf.for` or `scf.while` region encloses `op` (what runs it more than once a launch)."""
        return any("scf.for" in text or "scf.while" in text for _, text in self._region_headers(op))

    def constant(self, value: str, depth: int = 0) -> int | None:
        """The integer a value always holds: `arith.constant 64`, `dense<64>`, and splats, broadcasts,
        casts and layout conversions of one; None otherwise."""
        value = self._follow(value)
        op = self.defs.get(value)
        if op is None or depth > 16:
            return None
        if op.op == "arith.constant":
            m = INT_CONSTANT.search(op.text)
            return int(m.group(1)) if m else None
        if op.op in _SAME_VALUE_OPS:
            srcs = self._operands(op, value)
            return self.constant(srcs[0], depth + 1) if len(srcs) == 1 else None
        return None

    def mask_run(self, mask: str, dim: int) -> int | None:
        """How many consecutive elements along `dim`, from a multiple of that many, one mask bit covers, as
        Triton's AxisInfo gives a comparison's constancy: a unit-step index (`tt.make_range`, plus values
        that do not vary along `dim`) against a bound, `offs < 512` from 0: runs of gcd(the index's start
        divisibility, the bound's); `and`/`or` of masks: the gcd of theirs; a mask that does not vary along
        `dim`: any run. None where it cannot be told."""
        from math import gcd

        comparisons = self._mask_comparisons(mask, dim)
        if comparisons is None:
            return None
        run = _MAX_FACTOR
        for pred, index, bound, at, depth in comparisons:
            if pred not in ("slt", "ult", "sge", "uge", "sle", "ule", "sgt", "ugt"):
                return None  # (eq/ne: one position flips the bit)
            start = self._index_start(index, at, depth + 1)
            if start is None:
                return None
            # the bit flips where the index reaches the bound (`<`, `>=`) or passes it (`<=`, `>`)
            c = self.constant(bound)
            if pred in ("sle", "ule", "sgt", "ugt"):
                if c is None:
                    return None
                c += 1
            edge = (gcd(abs(c), _MAX_FACTOR) or _MAX_FACTOR) if c is not None else self.divisor(bound)
            run = gcd(run, gcd(start, edge))
        return run

    def mask_bounds(self, mask: str, dim: int) -> list[str] | None:
        """The values a mask compares an index that varies along `dim` against (`offs_k < K` in
        `(offs_m < M) & (offs_k < K)`, for the dim of `offs_k`). None where the mask is not made of such
        comparisons (its whole slice then)."""
        comparisons = self._mask_comparisons(mask, dim)
        return None if comparisons is None else [bound for _, _, bound, _, _ in comparisons]

    def _mask_comparisons(self, mask: str, dim: int, depth: int = 0) -> list[tuple[str, str, str, int, int]] | None:
        """The comparisons `index <pred> bound` a mask is made of, the index the side that varies along
        `dim` (`bound > index` read as `index < bound`), through layout conversions, broadcasts, reshapes
        and dims added (the dim followed to the comparison's own: `at`), `and`/`or`: (pred, index, bound,
        at, depth). [] for a mask that does not vary along `dim`; None where a part is no such comparison."""
        if depth > 32:
            return None
        mask = self._follow(mask)
        if self.varies_along(mask, dim) is False:
            return []
        op = self.defs.get(mask)
        if op is None:
            return None
        srcs = self._operands(op, mask)
        if op.op in _RESHAPING_OPS:
            moved = _reshaped_source(op, srcs, dim)
            return None if moved is None else self._mask_comparisons(*moved, depth + 1)
        if op.op in ("arith.andi", "arith.ori") and len(srcs) == 2:
            parts = [self._mask_comparisons(v, dim, depth + 1) for v in srcs]
            return None if None in parts else [c for p in parts for c in p]
        m = re.match(r"\s*(?:%[\w.$-]+\s*=\s*)?arith\.cmpi\s+(\w+)", op.text)
        if m is None or len(srcs) != 2:
            return None
        pred = m.group(1)
        varies = [self.varies_along(v, dim) for v in srcs]
        if varies == [True, False]:
            index, bound = srcs
        elif varies == [False, True]:  # `bound > index`: as `index < bound`
            bound, index = srcs
            pred = {"sgt": "slt", "ugt": "ult", "sge": "sle", "uge": "ule", "slt": "sgt", "ult": "ugt",
                    "sle": "sge", "ule": "uge"}.get(pred, pred)
        else:
            return None
        return [(pred, index, bound, dim, depth)]

    def _index_start(self, value: str, dim: int, depth: int) -> int | None:
        """For an index that steps by 1 along `dim` (`tt.make_range`, its layout conversions and
        broadcasts, plus a value that does not vary along `dim`): what every run's first index is a
        multiple of. None for any other index."""
        from math import gcd

        value = self._follow(value)
        if depth > 32:
            return None
        op = self.defs.get(value)
        if op is None:
            return None
        srcs = self._operands(op, value)
        if op.op == "tt.make_range":
            m = re.search(r"start\s*=\s*(-?\d+)", op.text)
            return None if m is None else (gcd(abs(int(m.group(1))), _MAX_FACTOR) or _MAX_FACTOR)
        if op.op in _RESHAPING_OPS:
            moved = _reshaped_source(op, srcs, dim)
            return None if moved is None else self._index_start(*moved, depth + 1)
        if op.op == "arith.addi" and len(srcs) == 2:
            varies = [self.varies_along(v, dim) for v in srcs]
            if varies == [True, False]:
                i, uniform = srcs
            elif varies == [False, True]:
                uniform, i = srcs
            else:
                return None
            start = self._index_start(i, dim, depth + 1)
            return None if start is None else gcd(start, self.divisor(uniform))
        return None

    def divisor(self, value: str, assume: int = 1) -> int:
        """A number the value is always a multiple of: a constant's own value, an argument's
        `tt.divisibility`, a product's factors multiplied, a sum's gcd, a remainder's gcd of both sides,
        a quotient by a power of two that divides it; 1 when nothing is known (as Triton's AxisInfo).
        A loop-carried value is the gcd of its initial and yielded values, assuming itself as divisible
        as those are (an induction: `i = 0; i += 64` stays a multiple of 64). `assume`: the divisibility
        of an argument that states none (what it would be if the launch were aligned)."""
        found = self._divisor(value, set(), 0, assume)
        return _MAX_FACTOR if found == 0 else found

    def _divisor(self, value: str, active: set[str], depth: int, assume: int = 1) -> int:
        """0: divisible by anything (the constant 0, or the value being computed again in a cycle)."""
        from math import gcd

        if value in active:
            return 0
        if depth > 24:
            return 1
        c = self.constant(value)
        if c is not None:
            return gcd(abs(c), _MAX_FACTOR)
        op = self.defs.get(value)
        arg = self.arguments.get(value[1:])
        if arg is not None and op is None and value not in self._bound:
            return arg.attrs.get("tt.divisibility", assume)
        active.add(value)
        try:
            srcs = self.sources(value)

            def sub(v: str) -> int:
                return self._divisor(v, active, depth + 1, assume)

            if op is None:  # loop-carried: its initial and yielded values
                out = 0
                for src in srcs:
                    out = gcd(out, sub(src))
                return out if srcs else 1
            name = op.op.strip('"')
            if name in ("arith.muli", "arith.shli") and len(srcs) == 2:
                a = sub(srcs[0])
                if name == "arith.shli":
                    shift = self.constant(srcs[1])
                    return 1 if shift is None or not 0 <= shift < 40 else gcd(a << shift, _MAX_FACTOR)
                b = sub(srcs[1])
                return 0 if a == 0 or b == 0 else gcd(a * b, _MAX_FACTOR)
            if name in ("arith.addi", "arith.subi") and len(srcs) == 2:
                return gcd(sub(srcs[0]), sub(srcs[1]))
            if name in ("arith.remsi", "arith.remui") and len(srcs) == 2:
                return max(1, gcd(sub(srcs[0]), sub(srcs[1])))
            if name in ("arith.divsi", "arith.divui") and len(srcs) == 2:
                c = self.constant(srcs[1])
                if c is not None and c > 0 and c & (c - 1) == 0:  # a power of two
                    a = sub(srcs[0])
                    return 0 if a == 0 else max(1, a // c)
                return 1
            if name in _SAME_VALUE_OPS and len(srcs) == 1:
                return sub(srcs[0])
            return 1
        finally:
            active.discard(value)

    def _aligns(self, values: list[str]) -> bool:
        """Whether arguments could make these values (a division's or remainder's operands) divisible by
        2 or more: with every argument that states no divisibility taken as divisible by 16."""
        from math import gcd

        out = 0
        for v in values:
            out = gcd(out, self.divisor(v, assume=16))
        return out != 1

    def multiples(self, values: list[str], limit: int = 4000,
                  load_factors: dict[int, int] | None = None) -> tuple[dict[str, int], list[Op]]:
        """Kernel argument -> the factor (in elements) by which every term it contributes to `values` is
        multiplied: a term under `arith.muli x, 64` counts 64 times whatever x is, so no value of x can
        change the address modulo 64 elements; under `arith.muli x, y`, `divisor(y)` times. Several
        paths: their gcd; 1 when nothing is known. And the loads whose results the values are computed
        from (a gather: the loaded data is not followed, what it holds is unknowable from the IR); into
        `load_factors`, where given, the factor each load's terms carry, the same way (its TTGIR line ->
        factor)."""
        from math import gcd

        out: dict[str, int] = {}
        loads: list[Op] = []
        load_factors = {} if load_factors is None else load_factors
        seen: set[tuple[str, int, bool]] = set()
        # (value, factor, frozen): below a division, remainder, shift right or bitwise op the value's own
        # terms no longer scale the address (`(rn * stride) // 128`: 32 * stride is divided), so the
        # factor reached there stays as it is (the quotient still counts `mult` times)
        todo = [(v, 1, False) for v in values]
        while todo and len(seen) < limit:
            v, mult, frozen = todo.pop()
            if mult > _MAX_FACTOR:  # only the power of two in it decides an alignment
                mult = gcd(mult, _MAX_FACTOR)
            if (v, mult, frozen) in seen:
                continue
            seen.add((v, mult, frozen))
            arg = self.arguments.get(v[1:])
            if arg is not None and v not in self.defs and v not in self._bound:
                if mult != _NO_TERM:
                    out[arg.name] = gcd(out.get(arg.name, 0), 1 if mult == _UNKNOWN_UNITS else mult)
                continue
            op = self.defs.get(v)
            if op is not None and (mlir_op_kind(op.op.strip('"')) or "").endswith("load"):
                if op not in loads:
                    loads.append(op)
                factor = mult if mult > 0 else 1  # (below a condition or a pointer cast: no factor known)
                load_factors[op.lineno] = gcd(load_factors.get(op.lineno, 0), factor)
                continue
            srcs = self.sources(v)
            if mult == _NO_TERM or (op is not None and op.op in _NO_TERM_OPS):
                todo.extend((src, _NO_TERM, True) for src in srcs)
                continue
            if op is not None and op.op == "arith.select":  # the condition picks a term, it adds none
                own = self._operands(op, v)
                todo.extend((src, _NO_TERM, True) for src in own[:1])
                srcs = list(self.extra_sources.get(v, [])) + own[1:]
            if op is not None and op.op in _UNIT_CHANGING_OPS:
                # offsets before a pointer cast count in another element size: nothing known past it
                todo.extend((src, _UNKNOWN_UNITS, True) for src in srcs)
                continue
            if op is not None and op.op in _FACTOR_BREAKING_OPS:
                # a scalar quotient by a runtime value, or a scalar remainder whose sides no argument
                # could make even, has AxisInfo's divisibility 1 whatever the arguments say: none of them
                # is to blame (`pid % num_groups`). A tensor's keeps them: the divisor's divisibility
                # decides how far `offs % W` stays contiguous
                own = op.op in ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui") and \
                    "tensor<" not in op.text.rpartition(":")[2]
                if own and len(srcs) == 2 and (
                        (op.op.startswith("arith.div") and self.constant(srcs[1]) is None)
                        or (op.op.startswith("arith.rem") and not self._aligns(srcs))):
                    todo.extend((src, _NO_TERM, True) for src in srcs)
                    continue
                todo.extend((src, mult, True) for src in srcs)
                continue
            # (a factor past a pointer cast, _UNKNOWN_UNITS, is always frozen)
            if not frozen and op is not None and op.op in ("arith.muli", "arith.shli") and len(srcs) == 2:
                c = self.constant(srcs[1])
                if c is not None and c > 0:
                    todo.append((srcs[0], mult * (c if op.op == "arith.muli" else 1 << min(c, 32)), False))
                    continue
                c = self.constant(srcs[0]) if op.op == "arith.muli" else None
                if c is not None and c > 0:
                    todo.append((srcs[1], mult * c, False))
                    continue
                if op.op == "arith.muli":  # `pid_b * stride_batch` with stride divisible by 16: pid_b's
                    # terms count 16 times whatever pid_b is (and the stride's, pid_b's divisor times)
                    todo.append((srcs[0], mult * self.divisor(srcs[1]), False))
                    todo.append((srcs[1], mult * self.divisor(srcs[0]), False))
                    continue
            todo.extend((src, mult, frozen) for src in srcs)
        return out, loads

    def steps(self, values: list[str], rank: int, limit: int = 4000,
              unknown_ops: list[Op] | None = None) -> dict[int, list[tuple[int, frozenset, int] | None]]:
        """How the address moves along each of its dims: dim -> one (constant factor, runtime factors,
        divisor) per `tt.make_range` term that varies along it (`ptr + offs * stride_n`: (1, {stride_n}, 1);
        `ptr + offs // 128`: (1, {}, 128), one address per run of 128; `offs // group_n`: "/group_n" among the
        runtime factors, a run known only at run time); None for a term seen through an op
        this reading does not follow (a reshape, a loaded value, a division by a runtime value, ...)."""
        out: dict[int, list[tuple[int, frozenset, int] | None]] = {}
        seen: set = set()
        todo = [(v, 1, frozenset(), tuple(range(rank)), 1) for v in values]
        while todo and len(seen) < limit:
            state = todo.pop()
            if state in seen:
                continue
            seen.add(state)
            v, mult, factors, dims, div = state
            if mult > _MAX_FACTOR or div > _MAX_FACTOR:  # no real stride: this reading says nothing
                self._unknown(out, dims, self.defs.get(v), unknown_ops)
                continue
            if not dims or all(d is None for d in dims):
                continue  # a scalar (a splat's source): the same for every element
            op = self.defs.get(v)
            srcs = self.sources(v)
            if op is None:
                if srcs:  # a loop-carried value: its initial and yielded values
                    todo.extend((src, mult, factors, dims, div) for src in srcs)
                    continue
                arg = self.arguments.get(v[1:])
                if arg is None or "tensor<" in arg.type:  # (a block's argument, a helper's tensor argument)
                    self._unknown(out, dims, None, unknown_ops)
                continue  # (else a kernel argument: a scalar)
            tensor = _tensor_result(op)
            if tensor is None:
                tensor = self._region_result_tensor(op)
            if tensor is None:  # (its type not read: a scan's or reduction's result, not followed)
                self._unknown(out, dims, op, unknown_ops)
                continue
            if not tensor:
                continue  # a scalar (a program id, a loaded scalar, ...): the same for every element
            shape = _result_shape(op)
            if len(shape) == len(dims) and 1 in shape:
                # one element wide along a dim (a [128, 1] column before its broadcast): the same along it,
                # whatever it is computed from (a loaded index varies along the rows only); the axis stays,
                # as None, so that an expand_dims below still drops the right one
                dims = tuple(None if n == 1 else d for d, n in zip(dims, shape, strict=True))
                if all(d is None for d in dims):
                    continue
            name = op.op.strip('"')
            if name == "tt.make_range":
                if dims[0] is not None:
                    out.setdefault(dims[0], []).append((mult, factors, div))
            elif name in ("tt.splat", "arith.constant"):
                continue  # the same for every element (a dense constant Triton prints is a splat)
            elif name in ("arith.divsi", "arith.divui") and len(srcs) == 2 and (self.constant(srcs[1]) or 0) > 1:
                # `offs // 128`: the same value for each run of 128 (the scales of a block-quantized matrix)
                todo.append((srcs[0], mult, factors, dims, div * self.constant(srcs[1])))
            elif name in ("arith.divsi", "arith.divui") and len(srcs) == 2 and self.constant(srcs[1]) is None \
                    and (divisor := self._splat_divisor(srcs[1])) is not None:
                # `offs_bn // group_n`: the same value for each run of group_n, known only at run time (a
                # block-scaled matmul's scales): the divisor named "/group_n" among the factors
                todo.append((srcs[0], mult, factors | {"/" + divisor}, dims, div))
            elif name in ("arith.remsi", "arith.remui") and len(srcs) == 2 and (
                    self.constant(srcs[1]) or self._splat_arguments(srcs[1]) is not None):
                # `x % 64` steps as x does, within runs of 64 (AxisInfo's contiguity = gcd(..., 64)); `x % N`
                # (every matmul's `offs_am % M`) within runs of N's divisibility
                todo.append((srcs[0], mult, factors, dims, div))
            elif name == "tt.expand_dims":
                axis = EXPAND_AXIS.search(op.text)
                if axis is None or not srcs:
                    self._unknown(out, dims, op, unknown_ops)
                    continue
                a = int(axis.group(1))
                todo.append((srcs[0], mult, factors, tuple(d for i, d in enumerate(dims) if i != a), div))
            elif name in _STEP_SAME_OPS:
                todo.extend((src, mult, factors, dims, div) for src in srcs)
            elif name in ("arith.muli", "arith.shli") and len(srcs) == 2:
                consts = [self.constant(x) for x in srcs]
                if consts[1] is not None:
                    c = consts[1] if name == "arith.muli" else 1 << min(consts[1], 32)
                    todo.append((srcs[0], mult * c, factors, dims, div))
                elif consts[0] is not None and name == "arith.muli":
                    todo.append((srcs[1], mult * consts[0], factors, dims, div))
                elif name == "arith.muli":
                    # `offs * stride`: a splat scalar scales the other side by a runtime value
                    for i, x in enumerate(srcs):
                        other = srcs[1 - i]
                        scalar = self._splat_arguments(x)
                        if scalar is not None:
                            todo.append((other, mult, factors | scalar, dims, div))
                            break
                    else:
                        self._unknown(out, dims, op, unknown_ops)
                else:
                    self._unknown(out, dims, op, unknown_ops)
            else:
                self._unknown(out, dims, op, unknown_ops)
        if todo:  # (cut at `limit`: the terms not followed are unknown, along every dim)
            self._unknown(out, tuple(range(rank)), None, None)
        return out

    def _region_result_tensor(self, op: Op, limit: int = 4000) -> bool | None:
        """Whether an op with a region (`"tt.reduce"(%x) <{axis = 0 : i32}> ({`) has a tensor result, from the
        type its region's closing line prints (`}) : (tensor<256xi32, #blocked>) -> i32`): a reduction to a
        scalar is the same for every element; None where that line is not found."""
        if not 0 < op.lineno <= len(self.lines):
            return None
        line = self.lines[op.lineno - 1]
        close = line[:len(line) - len(line.lstrip())] + "})"
        for text in self.lines[op.lineno:op.lineno + limit]:
            if text.startswith(close):
                sig = text.split(" loc(", 1)[0]
                return "tensor<" in sig.rsplit("->", 1)[1] if "->" in sig else None
        return None

    @staticmethod
    def _unknown(out: dict, dims: tuple, op: Op | None, unknown_ops: list[Op] | None) -> None:
        for d in dims:
            if d is not None:  # (an axis the value is one element wide along: no step along it)
                out.setdefault(d, []).append(None)
        if unknown_ops is not None and op is not None and op not in unknown_ops:
            unknown_ops.append(op)

    def _splat_scalar(self, value: str) -> str | None:
        """The scalar a tensor value is a splat of (through broadcasts and layout conversions), else None."""
        value = self._follow(value)
        op = self.defs.get(value)
        while op is not None and op.op in ("tt.broadcast", "ttg.convert_layout"):
            srcs = self._operands(op, value)
            value = srcs[0] if srcs else ""
            op = self.defs.get(value)
        if op is None or op.op != "tt.splat":
            return None
        return (self._operands(op, value) or [""])[0]

    def _splat_divisor(self, value: str) -> str | None:
        """A splat of a scalar known only at run time, in words: the kernel argument it is (`group_n`), "a
        value of a, b" computed from arguments, "a loaded value" computed from memory; None for no splat."""
        scalar = self._splat_scalar(value)
        if scalar is None:
            return None
        arg = self.arguments.get(scalar[1:])
        if arg is not None and scalar not in self.defs and scalar not in self._bound:
            return arg.name
        ops, args = self.slice([scalar])
        if any((mlir_op_kind(o.op.strip('"')) or "").endswith("load") for o in ops):
            return "a loaded value"
        return f"a value of {', '.join(sorted({a.name for a in args}))}" if args else None

    def _splat_arguments(self, value: str) -> frozenset | None:
        """The kernel arguments a splat of a scalar is computed from (`tt.splat %stride`), else None; a
        scalar loaded from memory (`s = tl.load(s_ptr)`) is named by its load, `@tt.load at line N`: no
        argument a launch passes is its value."""
        scalar = self._splat_scalar(value)
        if scalar is None:
            return None
        ops, args = self.slice([scalar])
        loads = [(op.op.strip('"'), op.loc) for op in ops if op.op.strip('"') in ("tt.load", "amdg.buffer_load")]
        if loads:
            return frozenset(f"@{name} at line {loc.outermost().line}" if loc and loc.known else f"@{name}"
                             for name, loc in loads)
        return frozenset(a.name for a in args) or None

    def varies_along(self, value: str, dim: int, depth: int = 0) -> bool | None:
        """Whether a tensor value can differ between positions along `dim` (None: cannot tell)."""
        if depth > 64:
            return None
        value = self._follow(value)
        op = self.defs.get(value)
        if op is None:
            return None if value in self.extra_sources else False  # loop-carried: unknown; argument: scalar
        name = op.op.split(".", 1)[-1]
        srcs = self._operands(op, value)
        if name in ("splat", "constant", "get_program_id", "get_num_programs"):
            return False
        if name == "make_range":
            return True
        if name == "broadcast":
            types = _shaped_types(op.text)
            if types and dim < len(types[0][0]) and types[0][0][dim] == 1:
                return False
            return self.varies_along(srcs[0], dim, depth + 1) if srcs else None
        if name == "expand_dims":
            axis = re.search(r"axis\s*=\s*(\d+)", op.text)
            if axis is None or not srcs:
                return None
            a = int(axis.group(1))
            if dim == a:
                return False
            return self.varies_along(srcs[0], dim - 1 if dim > a else dim, depth + 1)
        if op.op.startswith(("arith.", "tt.addptr", "math.")) and name not in ("constant",):
            results = [self.varies_along(s, dim, depth + 1) for s in srcs]
            if any(r is True for r in results):
                return True
            return None if any(r is None for r in results) else False
        if name == "convert_layout":
            return self.varies_along(srcs[0], dim, depth + 1) if srcs else None
        if name == "reshape" and srcs:  # (what a tensor descriptor's lowering masks with: [32] -> [1, 32])
            types = _shaped_types(op.text)
            if types and dim < len(types[-1][0]) and types[-1][0][dim] == 1:
                return False
            moved = _reshaped_source(op, srcs, dim)
            return None if moved is None else self.varies_along(*moved, depth + 1)
        return None


_RESHAPING_OPS = ("ttg.convert_layout", "tt.broadcast", "tt.expand_dims", "tt.reshape")


_PURE_OPS = frozenset(("tt.splat", "tt.addptr", "tt.broadcast", "tt.expand_dims", "tt.make_range", "tt.reshape",
                       "tt.trans", "tt.bitcast", "tt.int_to_ptr", "tt.ptr_to_int", "ttg.convert_layout"))


def _pure(name: str) -> bool:
    return name in _PURE_OPS or name.startswith(("arith.", "math."))


def _shape_of(text: str) -> str:
    """An op as written, its result names, SSA operand names and location left out (what two computations
    alike share)."""
    body = text.split("=", 1)[1] if RESULTS.match(text) else text
    return VALUE_NUMBERED.sub("%", body.split(" loc(", 1)[0]).strip()


def _reshaped_source(op: Op, srcs: list[str], dim: int) -> tuple[str, int] | None:
    """Through an op that only moves a value's elements (a layout conversion, a broadcast, an
    `expand_dims`, a `reshape` that adds or drops dims of size 1): its source and the same dim there; None
    without a source, for the dim `expand_dims` adds (what varies along it is not the source's), or for a
    reshape that merges or splits dims."""
    if not srcs:
        return None
    if op.op == "tt.reshape":
        types = _shaped_types(op.text)
        if len(types) < 2:
            return None
        (src, _), (dst, _) = types[0], types[-1]
        if [n for n in src if n != 1] != [n for n in dst if n != 1] or dim >= len(dst) or dst[dim] == 1:
            return None
        nth = sum(1 for n in dst[:dim] if n != 1)  # the dim's place among those of more than one element
        at = [i for i, n in enumerate(src) if n != 1]
        return srcs[0], at[nth]
    if op.op != "tt.expand_dims":
        return srcs[0], dim
    axis = re.search(r"axis\s*=\s*(\d+)", op.text)
    if axis is None or dim == int(axis.group(1)):
        return None
    return srcs[0], dim - 1 if dim > int(axis.group(1)) else dim


def _tensor_result(op: Op) -> bool | None:
    """Whether the op's result is a tensor (the type after its signature's last ` : `, and after `->`); None
    where its line does not print it (an op with a region, `%offs = "tt.scan"(%x) <{axis = 0 : i32}> ({`: the
    types follow its region's closing line)."""
    sig = op.text.split(" loc(", 1)[0]
    if sig.rstrip().endswith("{"):
        return None
    i = sig.rfind(" : ")
    if i < 0:
        return True  # no type printed: assume it may vary
    result = sig[i + 3:].rsplit("->", 1)[-1]
    return "tensor<" in result


def operands(text: str, *, result_numbers: bool = False) -> list[str]:
    """SSA values an op uses: after `=`, before the type signature, attribute dicts removed. With
    `result_numbers`, a use of one result of a multi-result op keeps its number (`%11#2`)."""
    body = text.split("=", 1)[1] if RESULTS.match(text) else text
    body = body.split(" loc(", 1)[0]
    body = ATTR_DICT.sub("", body)
    sig = body.find(" : ")
    if sig >= 0:
        body = body[:sig]
    if result_numbers:
        return VALUE_NUMBERED.findall(body)
    return [v.split("#")[0] for v in VALUE.findall(body)]


def function_arguments(ttgir_lines: list[str]) -> dict[str, list[Argument]]:
    """Each `tt.func`'s arguments, in order."""
    out: dict[str, list[Argument]] = {}
    for line in ttgir_lines:
        m = FUNC_LINE.match(line)
        if m:
            out[m.group("name")] = list(_header_arguments(m.group("args")).values())
    return out


def parse_arguments(ttgir_lines: list[str]) -> dict[str, Argument]:
    """Kernel arguments and their alignment attributes, from each `tt.func` header."""
    out: dict[str, Argument] = {}
    for line in ttgir_lines:
        m = FUNC_LINE.match(line)
        if not m:
            continue
        out.update(_header_arguments(m.group("args")))
    return out


def _header_arguments(args: str) -> dict[str, Argument]:
    out: dict[str, Argument] = {}
    starts = list(ARG_START.finditer(args))
    for i, a in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(args)
        chunk = args[a.end():end]
        ty = re.split(r"\s*(?:\{|loc\(|,\s*$|\)\s*(?:attributes|\{|$))", chunk, maxsplit=1)[0].strip().rstrip(",")
        attrs = {am.group(1): int((am.group("int") or am.group("dense")).split(",")[0])
                 for am in ALIGNMENT_ATTR.finditer(chunk.split("loc(")[0])}
        out[a.group(1)[1:]] = Argument(a.group(1)[1:], ty, attrs)
    return out


def _result_shape(op: Op) -> tuple[int, ...]:
    """The shape of an op's result as its text prints it: the last shaped type (`-> tensor<128x64xi32>` of a
    broadcast; a load's or an add's one type is its result's too); () when it prints none."""
    shaped = _shaped_types(op.text.split(" loc(", 1)[0])
    return shaped[-1][0] if shaped else ()


def _shaped_types(text: str) -> list[tuple[tuple[int, ...], str]]:
    out = []
    for _, t in iter_shaped_types(text):
        dims = re.match(r"^[^<]*<((?:\d+x)*)", t)
        shape = tuple(int(d) for d in dims.group(1).split("x") if d) if dims else ()
        out.append((shape, t))
    return out


def access_sites(module: Module, aliases: dict[str, Layout], lines: list[str] | None = None) -> list[AccessSite]:
    """Every memory access op of a parsed TTGIR (or TTIR) module, in text order; with the module's text
    `lines`, an access in a function the kernel calls (`tt.call`) once per call, as LLVM inlines it."""
    sites = []
    for op in module.ops:
        kind = mlir_op_kind(op.op.strip('"')) or initialized_alloc_kind(op)
        if kind is None and is_mma_from_shared(op):
            kind = "mma_shared"
        if kind is None:
            continue
        sites.append(_site(op, kind, aliases))
    return sites if lines is None else expand_calls(sites, module, lines)


_CALLEE = re.compile(r"\btt\.call\s+@([\w.$-]+|\"[^\"]+\")")
_CALL_OPERANDS = re.compile(r"\btt\.call\s+@([\w.$-]+|\"[^\"]+\")\(([^)]*)\)")
_FUNC_DEF = re.compile(r"^\s*tt\.func\s+(?:(public|private|nested)\s+)?@([\w.$-]+|\"[^\"]+\")")


def expand_calls(sites: list[AccessSite], module: Module, lines: list[str]) -> list[AccessSite]:
    """An access in a function that is called (`tt.call`: a Gluon kernel's helper the TTGIR keeps as a
    function, SGLang's `_load_compact`) runs once per call: LLVM inlines the function, and each copy's
    instructions carry the call's position as their caller. Each such access becomes one site per call,
    its location chained onto the call's (through callers that are themselves called). A function no call
    reaches (a variant of the helper no branch took) has no access that runs; one marked `noinline` stays
    one function in LLVM too, and keeps its one site per access."""
    defs: dict[str, tuple[str | None, bool]] = {}  # function -> (visibility, noinline)
    for line in lines:
        m = _FUNC_DEF.match(line)
        if m:
            defs[m.group(2).strip('"')] = (m.group(1), "noinline = true" in line)
    calls: dict[str, list[Op]] = {}
    for op in module.ops:
        if op.op == "tt.call":
            m = _CALLEE.search(op.text)
            if m:
                calls.setdefault(m.group(1).strip('"'), []).append(op)
    if not calls or len(defs) < 2:
        return sites
    chains: dict[str, list[tuple[SourceLoc | None, tuple[Op, ...]]]] = {}
    visiting: set[str] = set()
    kernel: list[tuple[SourceLoc | None, tuple[Op, ...]]] = [(None, ())]

    def call_chains(fn: str | None) -> list[tuple[SourceLoc | None, tuple[Op, ...]]]:
        """The full callers' positions a function runs at, with the calls it runs through (innermost
        first): [(None, ())] for a kernel (or an unknown function, or a cycle of calls, which Triton never
        emits: no expansion then)."""
        if fn is None or fn not in defs or fn in visiting:
            return kernel
        if fn in chains:
            return chains[fn]
        visibility, noinline = defs[fn]
        if noinline or (fn not in calls and visibility == "public"):
            chains[fn] = kernel
            return chains[fn]
        visiting.add(fn)
        out: list[tuple[SourceLoc | None, tuple[Op, ...]]] = []
        for call in calls.get(fn, []):
            for outer, through in call_chains(call.function):
                out.append((chained(call.loc.chain(), outer) if call.loc is not None else outer, (call, *through)))
                if len(out) > 4096:  # a damaged module's call graph: stop multiplying
                    break
        visiting.discard(fn)
        chains[fn] = out[:4096]
        return chains[fn]

    expanded: list[AccessSite] = []
    for site in sites:
        for outer, through in call_chains(site.op.function):
            if outer is None and not through:
                expanded.append(site)
            else:
                op = dataclasses.replace(site.op, loc=chained(site.op.loc.chain(), outer) if site.op.loc else outer)
                expanded.append(dataclasses.replace(site, op=op, calls=through))
    return expanded



# Positional operands per op (keyword operands such as `mask %m` aside): which are the address
# (pointer tensor, or buffer base and offsets), which the mask and which the `other` value.
_OPERANDS: dict[str, tuple[tuple[int, ...], int | None, int | None]] = {
    "load": ((0,), 1, 2), "store": ((0,), 2, None),
    "atomic_rmw": ((0,), 2, None), "atomic_cas": ((0,), None, None),
    "buffer_load": ((0, 1), 2, 3), "buffer_store": ((1, 2), 3, None),
    "buffer_atomic_rmw": ((1, 2), 3, None), "buffer_atomic_cas": ((2, 3), None, None),
    "buffer_load_to_local": ((0, 1), 2, 3),
    "insert_slice_async": ((0,), 3, 4),  # (2.x) `%ptrs, %buffers, %index, %mask, %other`
    "local_store": ((1,), None, None),
    "tmem_store": ((1,), None, None),  # `ttng.tmem_store %value, %tmem, %pred`
    "tmem_copy": ((1,), None, None),  # `ttng.tmem_copy %shared, %tmem`
}


# MMA ops that read operands straight from shared memory (matrix descriptors): Hopper's wgmma, Blackwell's
# tcgen05 MMA. Their memdesc operands are a shared-memory access with no load instruction of its own.
_MMA_FROM_SHARED = re.compile(r"\.(warp_group_dot|tc_gen5_mma|tc_gen5_mma_scaled)$")


def is_mma_from_shared(op: Op) -> bool:
    if not _MMA_FROM_SHARED.search(op.op.strip('"')):
        return False
    text = op.text.split(" loc(")[0]
    sig = text[text.find(" : ") + 3:] if " : " in text else ""
    return "memdesc<" in sig.split("->")[0]


def _mma_site(op: Op, aliases: dict[str, Layout]) -> AccessSite:
    """The shared-memory operands an MMA reads (of A and B): shape, type and layout of the last, and which."""
    text = op.text.split(" loc(")[0]
    sig = text[text.find(" : ") + 3:].split("->")[0]
    operands = [t for _, t in iter_shaped_types(sig)]
    # A and B come first; after them a tcgen05 MMA names its accumulator (and scales) in tensor memory
    # and its mbarriers (`memdesc<1xi64, ...>` in shared): read by no MMA as data. A from tensor memory
    # (tcgen05's TS form) is no shared read either.
    shared = [i for i, t in enumerate(operands[:2]) if "memdesc" in t and "tensor_memory" not in t]
    site = AccessSite(op, "mma_shared", (), "?", 0, None, None, None, None, None, None, [])
    try:
        md = parse_tensor_type(operands[shared[-1]], aliases)
    except (TritonscopeError, IndexError):
        return site
    site.shape, site.dtype, site.element_bits = md.shape, md.dtype, md.access_bits
    site.layout, site.layout_name = md.encoding, md.encoding_name
    site.shared_layout, site.shared_layout_name = md.encoding, md.encoding_name
    names = "AB"
    site.mma_operands = " and ".join(names[i] if i < 2 else f"operand {i}" for i in shared)
    shapes = []
    for i, t in enumerate(operands[:2]):
        if i not in shared and "tensor_memory" not in t:
            continue  # (a register operand: wgmma's A, none of shared memory's)
        try:
            of = md if i == shared[-1] else parse_tensor_type(t, aliases)
        except TritonscopeError:
            shapes.append(names[i])
            continue
        shape = f"{names[i]} {'x'.join(map(str, of.shape))}"
        if i not in shared:  # (tcgen05's A from tensor memory: read by the MMA, by no shared access)
            shape += " tmem"
        elif of.encoding_name != md.encoding_name:  # (the row's layout is the last operand's: another named)
            shape += f" {of.encoding_name}"
        shapes.append(shape)
    site.mma_shapes = ", ".join(shapes)
    return site


def _site(op: Op, kind: str, aliases: dict[str, Layout]) -> AccessSite:
    if kind == "mma_shared":
        return _mma_site(op, aliases)
    name = op.op.strip('"').split(".", 1)[-1]
    text = op.text.split(" loc(")[0]
    kw = dict(KEYWORD_OPERAND.findall(text))
    positional = [v for v in operands(op.text, result_numbers=True) if v.split("#")[0] not in kw.values()]
    addr_idx, mask_idx, other_idx = _OPERANDS.get(name, ((0,), None, None))
    address = [positional[i] for i in addr_idx if i < len(positional)]
    mask = positional[mask_idx] if mask_idx is not None and mask_idx < len(positional) else None
    other = positional[other_idx] if other_idx is not None and other_idx < len(positional) else None
    mask = kw.get("mask", mask)
    other = kw.get("other", other)
    hints: dict[str, str] = {}
    for key, value in mlir_hint_values(text):  # (each release's spelling, as the metrics read it)
        hints.setdefault(key, value)
    attrs = {m.group(1): int((m.group("int") or m.group("dense")).split(",")[0]) for m in ALIGNMENT_ATTR.finditer(text)}
    shape, dtype, bits, layout, layout_name = _access_type(text, aliases)
    site = AccessSite(op, kind, shape, dtype, bits, layout, layout_name, mask, other,
                      hints.get("eviction_policy"), hints.get("cache_modifier"), address, attrs)
    if kind.startswith("shared") or kind == "async_copy":
        sig = text[text.find(" : ") + 3:] if " : " in text else ""
        if kind == "async_copy":  # (its destination prints as `-> <128x64xf16, #shared, #smem, mutable>`)
            dst = sig.rpartition("->")[2].strip()
            sig = f"!ttg.memdesc{dst}" if dst.startswith("<") else dst
        memdesc = next((t for _, t in iter_shaped_types(sig) if "memdesc" in t), None)
        if memdesc is None and name == "insert_slice_async":  # (2.x: the buffers are a #shared tensor)
            memdesc = sig.rpartition("->")[2].strip() or None
        if memdesc is not None:
            try:
                md = parse_tensor_type(memdesc, aliases)
                site.shared_layout, site.shared_layout_name = md.encoding, md.encoding_name
            except TritonscopeError:
                pass
    return site


def _elements(type_text: str) -> int:
    dims = re.match(r"^[^<]*<((?:\d+x)*)", type_text)
    n = 1
    for d in (dims.group(1).split("x") if dims else []):
        if d:
            n *= int(d)
    return n


_BUFFER_BASE = re.compile(r"!tt\.ptr<(\w+)[^>]*>\[tensor<")


def _access_type(text: str, aliases: dict[str, Layout]):
    """(shape, element dtype moved, bits, layout, layout name) from the op's type signature."""
    sig = text[text.find(" : ") + 3:] if " : " in text else ""
    types = iter_shaped_types(sig)
    chosen = None
    # Prefer the register-side tensor (pointer tensor for global ops, the tensor of local_load/store).
    for _, t in types:
        if t.startswith("tensor<") and "!tt.ptr" in t:
            chosen = t
            break
    if chosen is None:
        chosen = next((t for _, t in types if t.startswith("tensor<")), None)
    if chosen is None and types:
        # TMA copies name only shared buffers: the tile is the largest (the other is the mbarrier).
        chosen = max((t for _, t in types), key=lambda t: _elements(t))
    if chosen is None:
        scalar = re.search(r"!tt\.ptr<([\w]+)", sig)
        dtype = scalar.group(1) if scalar else "?"
        return (), dtype, dtype_bits(dtype) or 0, None, None
    try:
        tt = parse_tensor_type(chosen, aliases)
    except TritonscopeError:
        return (), "?", 0, None, None
    dtype = tt.pointee_dtype or tt.dtype
    bits = tt.access_bits
    base = _BUFFER_BASE.search(sig)
    if base is not None and chosen.startswith("tensor<") and "!tt.ptr" not in chosen:
        # an AMD buffer op `!tt.ptr<bf16>[tensor<16x128xi32, #blocked>]`: the offsets' shape and layout, the
        # base's element type (the i32 is the offsets')
        dtype, bits = base.group(1), dtype_bits(base.group(1)) or bits
    name = tt.encoding_name or (tt.encoding.kind if tt.encoding is not None else None)
    return tt.shape, dtype, bits, tt.encoding, name
