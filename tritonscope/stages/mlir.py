"""MLIR text (TTIR, TTGIR, `.source`): one Op per operation line, each with its resolved location.

Locations come in every form MLIR prints: `#locN = loc(...)` alias tables (top and bottom of the
file), inline `loc("file":l:c)`, `loc(#locN)`, `loc(unknown)`, NameLoc `loc("x"(#locN))` (3.5+),
`callsite(#callee at #caller)` (nested: the callee may itself be a callsite), `fused[...]` and
`fused<...>[...]`. Aliases may refer to aliases defined later, so op locations are resolved after the
one pass over the lines, lazily and memoized, with a guard against cycles.
"""

from __future__ import annotations

from sys import intern

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op, SourceLoc, iter_lines, unescape_llvm

# `#loc12 = loc("file":1:2)`; other `#name = ...` aliases are layout attributes, not locations.
LOC_ALIAS_DEF = lazy_compile(r"^(#[\w.$-]+)\s*=\s*loc\((.*)\)\s*$")
ATTR_ALIAS_DEF = lazy_compile(r"^#[\w.$-]+\s*=")
# `%0 = tt.load ...`, `%a:2 = "tt.reduce"(...)`, `tt.store ...`: the results, then the op name.
OP_LINE = lazy_compile(r'^(?:%[^=]*?=\s*)?("[A-Za-z_][\w.$]*"|[A-Za-z_][\w.$]*)')
# Function headers are not ops; their name scopes the ops inside.
FUNC_HEADER = lazy_compile(r"^(?:tt\.func|func\.func|llvm\.func)\b[^@]*@([\w.$-]+|\"[^\"]+\")")
FUNC_PREFIXES = ("tt.func", "func.func", "llvm.func")  # a cheap test before FUNC_HEADER, once per line
FILE_LINE_COL = lazy_compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
# Most alias bodies are one plain position: read those without the recursive reader.
# (numbers of at most 9 digits: longer ones take the slow path, which turns int()'s refusal into unknown)
PLAIN_POSITION = lazy_compile(r'"((?:[^"\\]|\\.)*)":(\d{1,9}):(\d{1,9})\s*$')
ALIAS_REF = lazy_compile(r"#[\w.$-]+")
INT = lazy_compile(r"\d+")

UNKNOWN = SourceLoc("", 0, 0)
_MAX_DEPTH = 200
_MAX_CHAIN = 64  # positions in one chain, as llir/ptx: `callsite(#a at #a)` doubles a chain per alias


def parse(text: str, path: str | None = None, stage: str = "ttgir") -> Module:
    module = Module(stage=stage, path=path)
    aliases: dict[str, str] = {}
    pending: list[tuple[Op, str]] = []  # op, raw loc text (resolved once all aliases are known)
    # Open regions: (op or None for a function/module, brace depth before it opened).
    regions: list[tuple[Op | None, int]] = []
    depth = 0
    function: str | None = None
    function_depth = -1
    op_line = OP_LINE.match  # looked up once: the loop runs once per line
    last_at_depth: dict[int, Op] = {}  # the last op line at each brace depth
    continued = module.continued
    parents = module.parents
    ops_append = module.ops.append
    function_locs: list[tuple[str, str]] = []  # a function's name, its closing line's loc text
    saw_module = False

    for lineno, raw in enumerate(iter_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        first = line[0]
        if first == "#":
            m = LOC_ALIAS_DEF.match(line)
            if m:
                aliases[m.group(1)] = m.group(2)
            elif not ATTR_ALIAS_DEF.match(line):
                module.unparsed.append((lineno, line))
            continue
        net = line.count("{") - line.count("}")
        if first == "}" or first == ")":
            depth += net
            # The location of an op with regions is printed after its closing brace.
            while regions and depth <= regions[-1][1]:
                owner, _ = regions.pop()
                if owner is not None:
                    continued[lineno] = owner  # its result types follow: `}) : (...) -> ...`
                    loc_text = _trailing_loc(line)
                    if loc_text is not None:
                        pending.append((owner, loc_text))
            if function is not None and depth <= function_depth:
                loc_text = _trailing_loc(line)
                if loc_text is not None:
                    function_locs.append((function, loc_text))
                function = None
            continue
        if first == "^":  # block label with its arguments (their locs are not ops)
            depth += net
            continue
        fm = FUNC_HEADER.match(line) if line.startswith(FUNC_PREFIXES) else None
        if fm:
            name = fm.group(1).strip('"')
            module.functions.append(name)
            if net > 0:  # a definition, not a declaration: its body's ops belong to it
                function, function_depth = name, depth
                regions.append((None, depth))
            depth += net
            continue
        if line.startswith("module"):
            saw_module = True
            if net > 0:
                regions.append((None, depth))
            depth += net
            continue
        m = op_line(line)
        if m is None:
            module.unparsed.append((lineno, line))
            depth += net
            continue
        name = m[1]
        if net > 0 and "." not in name and name[0] != '"':
            # `default {` / `partition0(%a: ...) num_warps(4) {`: a region of the op before at this depth
            # (ttg.warp_specialize), whose location follows its last region's `}`; not an op
            owner = last_at_depth.get(depth)
            if owner is not None:
                continued[lineno] = owner
                regions.append((owner, depth))
                depth += net
                continue
        op = Op(lineno, intern(name.strip('"')), line, None, function)
        ops_append(op)
        if regions and regions[-1][0] is not None:
            parents[lineno] = regions[-1][0]
        last_at_depth[depth] = op
        loc_text = _trailing_loc(line)
        if loc_text is not None:
            pending.append((op, loc_text))
        if net > 0:
            regions.append((op, depth))
        depth += net

    resolver = LocResolver(aliases, path)
    for op, loc_text in pending:
        op.loc = resolver.resolve_text(loc_text)
        if op.loc is None:
            module.unparsed.append((op.lineno, f"unreadable location: loc({loc_text})"))
    for name, loc_text in function_locs:
        loc = resolver.resolve_text(loc_text)
        if loc is not None:
            module.function_locs[name] = loc
    module.files = {str(i): f for i, f in enumerate(sorted(resolver.files))}
    open_regions = sum(1 for owner, _ in regions if owner is not None)
    first = sorted(resolver.undefined, key=lambda a: (len(a), a))[:3]  # (#loc2 before #loc10)
    module.cut_short(
        # (its head only: the attribute and `#loc` aliases Triton prints above the module)
        "it ends before its module" if not saw_module and not module.ops and not module.functions
        and (aliases or text.lstrip().startswith("#")) else "",
        (f"it ends inside {'the module' if not open_regions else f'{open_regions} op region(s)'} (a `{{` never "
         "closed)") if regions else "",
        (f"its ops name {len(resolver.undefined)} location alias(es) it never defines ({', '.join(first)}"
         f"{', ...' if len(resolver.undefined) > 3 else ''}): their ops have no line") if resolver.undefined else "")
    return module


def _trailing_loc(line: str) -> str | None:
    """The body of the `loc(...)` that ends the line, if any."""
    if not line.endswith(")"):
        return None
    i = line.rfind(" loc(")
    if i < 0:
        return line[4:-1] if line.startswith("loc(") else None
    return line[i + 5:-1]


class LocResolver:
    """Turns loc syntax into SourceLoc chains; aliases are resolved on first use and memoized."""

    def __init__(self, aliases: dict[str, str], path: str | None = None):
        self.aliases = aliases
        self.path = path
        self.alias_cache: dict[str, SourceLoc] = {}
        self.text_cache: dict[str, SourceLoc | None] = {}
        self.in_progress: set[str] = set()
        self.files: set[str] = set()
        self.undefined: set[str] = set()  # aliases used, never defined (a text cut before its `#loc` lines)

    def resolve_text(self, text: str) -> SourceLoc | None:
        """The location `text` spells, or None where it is not location syntax we can read."""
        if text in self.text_cache:
            return self.text_cache[text]
        try:
            hit: SourceLoc | None = self._expr(text, 0, 0)[0]
        except (IndexError, ValueError, AttributeError):
            hit = None
        self.text_cache[text] = hit
        return hit

    def alias(self, name: str, depth: int) -> SourceLoc:
        hit = self.alias_cache.get(name)
        if hit is not None:
            return hit
        body = self.aliases.get(name)
        if body is None or name in self.in_progress or depth > _MAX_DEPTH:
            if body is None:
                self.undefined.add(name)
            return UNKNOWN  # undefined alias or a cycle: say "unknown" rather than loop
        plain = PLAIN_POSITION.match(body)
        if plain is not None:  # what _expr reads from it, without the recursion
            file = unescape_llvm(plain[1])
            self.files.add(file)
            loc = SourceLoc(file, int(plain[2]), int(plain[3]))
            self.alias_cache[name] = loc
            return loc
        self.in_progress.add(name)
        try:
            loc, _ = self._expr(body, 0, depth + 1)
        except (IndexError, ValueError, AttributeError):
            loc = UNKNOWN  # an alias we cannot read: its users still parse
        finally:
            self.in_progress.discard(name)
        self.alias_cache[name] = loc
        return loc

    def _expr(self, s: str, i: int, depth: int) -> tuple[SourceLoc, int]:
        if depth > _MAX_DEPTH:  # `callsite(callsite(...` nested inline, not through aliases
            raise ValueError("location nested too deep")
        while s[i] == " ":
            i += 1
        c = s[i]
        if c == "#":
            m = ALIAS_REF.match(s, i)
            return self.alias(m.group(0), depth), m.end()
        if c == '"':
            m = FILE_LINE_COL.match(s, i)
            if m:
                end = m.end()
                if s.startswith(" to ", end):  # FileLineColRange: keep the start
                    end = _skip_range_end(s, end + 4)
                file = unescape_llvm(m.group(1))
                self.files.add(file)
                return SourceLoc(file, int(m.group(2)), int(m.group(3))), end
            j = _string_end(s, i)
            name = s[i + 1:j - 1]
            if j < len(s) and s[j] == "(":
                child, k = self._expr(s, j + 1, depth + 1)
                return _with_name(child, name), _expect(s, k, ")")
            return SourceLoc("", 0, 0, name=name), j
        if s.startswith("unknown", i):
            return UNKNOWN, i + 7
        if s.startswith("callsite(", i):
            callee, k = self._expr(s, i + 9, depth + 1)
            while s[k] == " ":
                k += 1
            if not s.startswith("at ", k):
                raise ValueError("callsite without 'at'")
            caller, k = self._expr(s, k + 3, depth + 1)
            return inline_into(callee, caller), _expect(s, k, ")")
        if s.startswith("fused", i):
            k = i + 5
            if s[k] == "<":
                k = _matching(s, k, "<", ">")
            k = _expect(s, k, "[")
            parts: list[SourceLoc] = []
            while True:
                while s[k] == " ":
                    k += 1
                if s[k] == "]":
                    k += 1
                    break
                part, k = self._expr(s, k, depth + 1)
                parts.append(part)
                while s[k] == " ":
                    k += 1
                if s[k] == ",":
                    k += 1
            best = next((p for p in parts if p.outermost().known), parts[0] if parts else UNKNOWN)
            return best, k
        raise ValueError(f"unexpected location syntax at {s[i:i + 20]!r}")


def inline_into(callee: SourceLoc, caller: SourceLoc) -> SourceLoc:
    """`callsite(callee at caller)`: the callee's chain, continued by the caller's chain."""
    if not caller.known and caller.inlined_at is None:
        return callee
    if not callee.known and callee.inlined_at is None:
        return caller  # an unknown position inside a known call: the call site is all we know
    if callee.inlined_at is None:
        return SourceLoc(callee.file, callee.line, callee.col, caller, callee.name)
    # Iterative and capped at _MAX_CHAIN (innermost and outermost halves kept): aliases can double a
    # chain at each step, and a recursive rebuild of a long chain overflowed the stack.
    positions = callee.chain() + caller.chain()
    if len(positions) > _MAX_CHAIN:
        positions = positions[: _MAX_CHAIN // 2] + positions[-(_MAX_CHAIN // 2):]
    loc: SourceLoc | None = None
    for p in reversed(positions):
        loc = SourceLoc(p.file, p.line, p.col, loc, p.name)
    assert loc is not None
    return loc


def _with_name(loc: SourceLoc, name: str) -> SourceLoc:
    return SourceLoc(loc.file, loc.line, loc.col, loc.inlined_at, name)


def _string_end(s: str, i: int) -> int:
    j = i + 1
    while s[j] != '"':
        j += 2 if s[j] == "\\" else 1
    return j + 1


def _expect(s: str, i: int, ch: str) -> int:
    while s[i] == " ":
        i += 1
    if s[i] != ch:
        raise ValueError(f"expected {ch!r}")
    return i + 1


def _matching(s: str, i: int, open_ch: str, close_ch: str) -> int:
    level = 0
    while True:
        c = s[i]
        if c == '"':
            i = _string_end(s, i)
            continue
        if c == open_ch:
            level += 1
        elif c == close_ch:
            level -= 1
            if level == 0:
                return i + 1
        i += 1


def _skip_range_end(s: str, i: int) -> int:
    # `to 3:4`, `to :4`
    if s[i] == ":":
        i += 1
    m = INT.match(s, i)
    i = m.end()
    if i < len(s) and s[i] == ":":
        m = INT.match(s, i + 1)
        i = m.end()
    return i
