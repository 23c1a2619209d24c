"""PTX: one Op per instruction, located by the `.loc` directive in force.

`.file N "path"` (usually after the code), `.loc N line col` and from Triton 3.9
`.loc N l c, function_name $L__info_stringK, inlined_at F L C`. An `inlined_at` names one level only:
the full chain comes from finding the caller's position among the other `.loc`s' own positions.
Triton 3.4 to 3.8 name no `inlined_at`, but LLVM comments each `.loc` with the instruction's whole chain
(`// utils.py:93:17 @[ gemm_kernels.py:436:110 ]`): read by `loc_comments.CommentChains`. Before 3.4
(no such comment) the chain comes from the DWARF inlined-subroutine ranges printed in
`.section .debug_info`, which overlap where calls were scheduled together. Lines without a `.loc`
inherit the previous one within their function; every `.entry` and `.func` maps.

Inside `// begin inline asm` ... `// end inline asm` LLVM numbers the k-th line of the asm string as
source line `call line + k`, and the position stays stale after the block: Triton's `ld.global` of
line 173 would sit under `.loc 1 174 9`. Those `.loc`s are not source positions, so by default they
are ignored and the asm keeps the position in force before the block (`inline_asm_locs=True` keeps
them, for joining SASS, whose line table ptxas built from the raw ones).

A statement may span lines: the LLVM of Triton <= 3.4 prints a call's operands one per line (`call.uni
(retval0),` / `vprintf,` / `(` / `param0,` / `param1` / `);`: `tl.device_print`), and every release a
`brx.idx` jump table as `.branchtargets` then one label per line (warp specialization). An instruction line
ending in `,` or `(` continues up to the line that ends with `;`: one Op, its text the joined lines.
"""

from __future__ import annotations

import bisect
from sys import intern

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op, SourceLoc, iter_lines, unescape_c
from tritonscope.stages.dwarf_inline import call_sites_by_line, read_inlined_calls
from tritonscope.stages.loc_comments import CommentChains, Position, Positions

FILE_DIRECTIVE = lazy_compile(r'^\.file\s+(\d+)\s+"((?:[^"\\]|\\.)*)"')
# line and column numbers of at most 9 digits: a longer one is not a position (and int() refuses > 4300)
LOC_DIRECTIVE = lazy_compile(r"^\.loc\s+(\d+)\s+(\d{1,9})\s+(\d{1,9})(?!\d)"
                             r"(?:.*?\binlined_at\s+(\d+)\s+(\d{1,9})\s+(\d{1,9})(?!\d))?")
FUNCTION_HEADER = lazy_compile(r"\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)")
SECTION = lazy_compile(r"^\.section\s+(\S+)")
LABEL = lazy_compile(r"^[$\w.]+:(?!:)")  # not `ld.global.L1::evict_last...` (`::` is a modifier)
# `@%p1 ld.global.v4.b32 {...}, [...];` -> predicate, mnemonic with every modifier.
INSTRUCTION = lazy_compile(r"^(?:@!?%?[\w]+\s+)?([a-z][\w.:]*)")
# Inside a function, one match per line: a label (no group) or an instruction (its mnemonic in group 1).
LABEL_OR_INSTRUCTION = lazy_compile(LABEL.pattern + "|" + INSTRUCTION.pattern)
# Directives that may appear inside a function body and are not instructions.
_MAX_CHAIN = 64



def parse(text: str, path: str | None = None, stage: str = "ptx", *, inline_asm_locs: bool = False) -> Module:
    module = Module(stage=stage, path=path)
    in_asm = False
    ignored_asm_locs = 0
    files: dict[str, str] = {}
    labels: dict[str, int] = {}
    # op -> (position, its own inlined_at position or None, its `.loc` comment's `@[` chain or None)
    op_locs: list[tuple[Op, Position, Position | None, str | None]] = []
    # position -> [(lineno, caller)] from every `.loc ... inlined_at` (for multi-level chains)
    callers: dict[Position, list[tuple[int, Position]]] = {}
    section: str | None = None
    section_lines: dict[str, list[str]] = {}
    function: str | None = None
    pending_function: str | None = None
    depth = 0
    current: tuple[Position, Position | None, str | None] | None = None
    has_chains = False
    # a statement continued on the lines that follow: its lines so far, and its Op (None: a directive)
    cont_parts: list[str] | None = None
    cont_op: Op | None = None

    label_or_instruction = LABEL_OR_INSTRUCTION.match  # looked up once: the loop runs once per line
    ops_append = module.ops.append

    for lineno, raw in enumerate(iter_lines(text), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("//"):
            if line.startswith("// begin inline asm"):
                in_asm = True
            elif line.startswith("// end inline asm"):
                in_asm = False
            continue
        if section is not None:
            if line == "}":
                section = None
            elif line != "{":
                section_lines[section].append(line)
            continue
        first = line[0]
        if cont_parts is not None:
            # a brace, a directive or a label cannot continue a statement (damaged text): it ends there
            if first in "{}." or LABEL.match(line):
                cont_parts = cont_op = None
            else:
                cont_parts.append(line)
                if cont_op is not None:
                    module.continued[lineno] = cont_op
                if _code(line).endswith(";"):
                    if cont_op is not None:
                        cont_op.text = " ".join(cont_parts)
                    cont_parts = cont_op = None
                continue
        if first == ".":
            if line.startswith((".loc ", ".loc\t")):  # not `.local .align 8 .b8 __local_depot0[48];`
                if in_asm and not inline_asm_locs:
                    ignored_asm_locs += 1
                    continue
                m = LOC_DIRECTIVE.match(line)
                if m is None:
                    module.unparsed.append((lineno, line))
                    continue
                pos = (m.group(1), int(m.group(2)), int(m.group(3)))
                caller = (m.group(4), int(m.group(5)), int(m.group(6))) if m.group(4) else None
                if caller is not None:
                    seen_callers = callers.setdefault(pos, [])
                    # keep one entry per change of caller: the lists stay short, lookups cheap
                    if not seen_callers or seen_callers[-1][1] != caller:
                        seen_callers.append((lineno, caller))
                chain = None
                if caller is None and "@[" in line:
                    i = line.find("//")
                    if i >= 0:
                        chain, has_chains = line[i + 2:], True
                current = (pos, caller, chain)
                continue
            if line.startswith(".file"):
                m = FILE_DIRECTIVE.match(line)
                if m:
                    files[m.group(1)] = unescape_c(m.group(2))
                else:
                    module.unparsed.append((lineno, line))
                continue
            if line.startswith(".section"):
                m = SECTION.match(line)
                name = m.group(1) if m else line
                if not line.rstrip().endswith("}"):  # `.section .debug_macinfo { }` is empty
                    section = name
                    section_lines.setdefault(name, [])
                continue
            fm = FUNCTION_HEADER.search(line) if function is None else None
            if fm and (".entry" in line or ".func" in line) and ".extern" not in line:
                pending_function = fm.group(1)  # a prototype ends with `;`, a definition opens `{`
            elif function is not None and _opens_target_list(line):
                cont_parts = [line]  # its labels follow, one per line, up to the one ending with `;`
            continue  # other directives: .reg, .param, .local, .version, .target, ...
        if (first == "{" or first == "}") and in_asm:
            continue  # an inline asm string's own scope (`{ .reg .b16 c; ... fma.rn.bf16 ..., c; }`, 3.1)
        if first == "{":
            if function is None and pending_function is not None and depth == 0:
                function, pending_function, current = pending_function, None, None
                module.functions.append(function)
            # (LLVM's own one-line scope: `{ .reg .b16 tmp; mov.b32 {tmp, %rs2}, %r2; }`, 3.1)
            depth += 1 if len(line) == 1 else max(line.count("{") - line.count("}"), 0)
            continue
        if first == "}":
            depth -= 1
            if depth <= 0:
                depth, function = 0, None
            continue
        if function is None and line in ("(", ")", ";"):  # parameter lists of headers and prototypes
            if line == ";":
                pending_function = None
            continue
        if first == ")":
            continue
        if function is None:
            module.unparsed.append((lineno, line))
            continue
        m = label_or_instruction(line)
        if m is None:
            module.unparsed.append((lineno, line))
            continue
        if m[1] is None:  # a label
            colon = line.index(":")
            labels[line[:colon]] = lineno
            if _opens_target_list(line[colon + 1:].lstrip()):  # `$L_brx_0: .branchtargets`
                cont_parts = [line]
            continue
        op = Op(lineno, intern(m[1]), line, None, function)
        ops_append(op)
        if current is not None:
            op_locs.append((op, *current))
        last = line[-1]
        if (last == "," or last == "(" or "//" in line) and _code(line).endswith((",", "(")):
            cont_parts, cont_op = [line], op

    module.files = files
    unnamed = sorted({pos[0] for _, pos, _, _ in op_locs} - files.keys(), key=lambda f: (len(f), f))
    module.cut_short(
        f"it ends inside function {function} (a `{{` never closed)" if function is not None else "",
        "it ends before its kernel (`.entry`)" if not module.functions else "",
        f"it ends inside its `{section}` section" if section is not None else "",
        # (`.file` lines are printed after the functions: a text cut between names none of its files)
        f"its `.loc` lines name {len(unnamed)} file(s) it never defines (`.file {unnamed[0]}`)" if unnamed else "")
    if ignored_asm_locs:
        module.notes.append(f"ignored {ignored_asm_locs} `.loc` lines inside inline asm blocks (LLVM numbers the "
                            "lines of an asm string from its call's line; they are not source positions)")
    dwarf_sites: dict = {}
    if not callers and not has_chains:  # neither `inlined_at` nor comments (before 3.4): the DWARF ranges
        dwarf_calls = read_inlined_calls(section_lines.get(".debug_info", []),
                                         section_lines.get(".debug_ranges", []), section_lines.get(".debug_abbrev"))
        dwarf_sites = call_sites_by_line(dwarf_calls, labels, [op.lineno for op, *_ in op_locs],
                                         {op.lineno: pos for op, pos, *_ in op_locs})
    resolver = _ChainResolver(files, callers)
    comments = CommentChains(files, lambda: {pos for _, pos, *_ in op_locs}) if has_chains else None
    for op, pos, caller, chain in op_locs:
        if caller is not None:
            op.loc = resolver.chain(pos, caller, op.lineno)
        elif chain is not None and comments is not None:
            op.loc = comments.from_comment(pos, chain)
        else:
            sites = dwarf_sites.get(op.lineno)
            op.loc = resolver.with_dwarf(pos, sites) if sites else resolver.position(pos)
    return module


def _opens_target_list(text: str) -> bool:
    """A jump table's or call's target list (`.branchtargets`, `.calltargets`) whose labels follow on the
    next lines, one per line, the last ending with `;`."""
    return text.startswith((".branchtargets", ".calltargets")) and not _code(text).endswith(";")


def _code(line: str) -> str:
    """The line without a trailing `//` comment."""
    i = line.find("//")
    return line if i < 0 else line[:i].rstrip()


def _nearest_before(options: list[tuple[int, Position]], lineno: int) -> Position:
    """The same helper position inlined at several call sites: the caller in force at this line."""
    i = bisect.bisect_right(options, lineno, key=lambda o: o[0])
    return options[i - 1][1] if i > 0 else options[0][1]


class _ChainResolver(Positions):
    def __init__(self, files: dict[str, str], callers: dict[Position, list[tuple[int, Position]]]):
        super().__init__(files)
        self.callers = callers
        self.cache: dict[tuple[Position, Position, int], SourceLoc] = {}

    def chain(self, pos: Position, caller: Position, lineno: int) -> SourceLoc:
        """pos inlined at caller, and the caller's own caller as the nearest earlier `.loc` says."""
        key = (pos, caller, 0)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        outer: list[Position] = [caller]
        ambiguous = False
        seen = {pos, caller}
        while len(outer) < _MAX_CHAIN:
            options = self.callers.get(outer[-1])
            if not options:
                break
            ambiguous = ambiguous or len(options) > 1
            nxt = options[0][1] if len(options) == 1 else _nearest_before(options, lineno)
            if nxt in seen:
                break
            seen.add(nxt)
            outer.append(nxt)
        loc: SourceLoc | None = None
        for p in reversed(outer):
            loc = self.position(p, loc)
        result = self.position(pos, loc)
        if not ambiguous:  # the chain does not depend on where the op is: reuse it
            self.cache[key] = result
        return result
