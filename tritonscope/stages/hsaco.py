"""AMDGCN disassembly as `llvm-objdump -d --line-numbers` prints it (stage `hsaco-asm`).

`0000000000001700 <softmax_kernel>:` starts a function, `; /path/kernels.py:77` sets the line of the
instructions that follow (llvm-objdump prints it only when it changes), `; name():` names the function
the line belongs to. llvm-objdump 19 prints only the innermost line of inlined code and no column; the
call sites of inlined code come from `llvm-dwarfdump --debug-info` (its DW_TAG_inlined_subroutine
address ranges), matched to each instruction's address, when that text is given.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from sys import intern

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op, SourceLoc, drop_trailing_padding, iter_lines

FUNCTION_START = lazy_compile(r"^[0-9a-fA-F]+ <([^>]+)>:$")
LINE_COMMENT = lazy_compile(r"^; (.+?):(\d{1,9})(?::(\d{1,9}))?(?: \(discriminator \d+\))?$")  # <= 9 digits: int()
FUNCTION_NAME_COMMENT = lazy_compile(r"^; .*\(\):$")
INSTRUCTION = lazy_compile(r"^([a-z_][\w]*)")
# `s_waitcnt lgkmcnt(0)    // 000000001718: BF8CC07F`: the instruction's address
ADDRESS = lazy_compile(r"//\s*([0-9A-Fa-f]+):")
# `.long 0xcc0f4000    // 0000000017A8: CC0F4000`: a word llvm-objdump could not decode as an instruction
UNDECODED = lazy_compile(r"^\.long\s+0x[0-9a-fA-F]+\b")
UNDECODED_OP = "(undecoded)"
# llvm-dwarfdump: `0x00000041:     DW_TAG_inlined_subroutine`, attributes, and `[lo, hi)` range lines
DIE = lazy_compile(r"^0x[0-9a-fA-F]+:(\s+)(DW_TAG_\w+|NULL)")
DIE_ATTRIBUTE = lazy_compile(r"^\s+(DW_AT_\w+)\s+\((.*)$")
ADDRESS_RANGE = lazy_compile(r"\[0x([0-9a-fA-F]+), 0x([0-9a-fA-F]+)\)")
_HEADER_MARKERS = ("file format", "Disassembly of section")


FUNCTION_DEPTH = -1


@dataclass
class _InlinedCall:
    depth: int
    ranges: list[tuple[int, int]] = field(default_factory=list)
    low: int | None = None
    call_file: str = ""
    call_line: int = 0
    call_col: int = 0


def parse(text: str, path: str | None = None, stage: str = "hsaco-asm", dwarf: str | None = None) -> Module:
    module = Module(stage=stage, path=path)
    function: str | None = None
    current: SourceLoc | None = None
    cache: dict[tuple[str, int, int], SourceLoc] = {}
    files: dict[str, str] = {}
    addresses: list[tuple[int, int]] = []  # (instruction address, index into module.ops)
    for lineno, raw in enumerate(iter_lines(text), 1):
        line = raw.strip()
        if not line or line == "...":
            continue
        if line[0] == ";":
            m = LINE_COMMENT.match(line)
            if m:
                key = (m.group(1), int(m.group(2)), int(m.group(3) or 0))
                current = cache.get(key)
                if current is None:
                    current = cache[key] = SourceLoc(*key)
                files.setdefault(m.group(1), m.group(1))
            elif not FUNCTION_NAME_COMMENT.match(line):
                module.unparsed.append((lineno, line))
            continue
        m = FUNCTION_START.match(line)
        if m:
            function, current = m.group(1), None
            module.functions.append(function)
            continue
        if any(marker in line for marker in _HEADER_MARKERS):
            continue
        m = INSTRUCTION.match(line)
        if function is None or (m is None and not UNDECODED.match(line)):
            module.unparsed.append((lineno, line))
            continue
        # (no instruction matched: one this llvm-objdump cannot decode, printed as a data word)
        name = intern(m.group(1)) if m is not None else UNDECODED_OP
        module.ops.append(Op(lineno=lineno, op=name, text=line, loc=current, function=function))
        a = ADDRESS.search(line)
        if a:
            addresses.append((int(a.group(1), 16), len(module.ops) - 1))
    module.files = {str(i): f for i, f in enumerate(files, 1)}
    undecoded = sum(op.op == UNDECODED_OP for op in module.ops)
    if undecoded:
        module.notes.append(f"llvm-objdump printed {undecoded} instruction word(s) as `.long`: instructions its "
                            "LLVM cannot decode (the AMDGCN stage Triton wrote names them); counted as "
                            f"`{UNDECODED_OP}` ops, of no memory kind")
    if dwarf:
        _add_call_sites(module, addresses, read_inlined_calls(dwarf))
    _drop_padding(module)
    return module


_PADDING = ("s_nop", "s_code_end")
_UNCONDITIONAL_END = ("s_endpgm", "s_branch", "s_setpc_b64", "s_endpgm_saved")


def _drop_padding(module: Module) -> None:
    """The code object pads a kernel's code to its alignment with `s_nop 0` (gfx9) or `s_code_end` (gfx10+),
    which llvm-objdump prints as more instructions of the function, under its last line: hundreds of them
    after a small kernel. A run of those at the end of a function, after an instruction that never falls
    through, is never executed: not an op of the kernel (left out, as docs/map.md says)."""
    drop_trailing_padding(module, lambda _, op: op.op in _PADDING, lambda op: op.op in _UNCONDITIONAL_END)


def read_inlined_calls(dwarf: str) -> list[_InlinedCall]:
    """DW_TAG_inlined_subroutine entries of `llvm-dwarfdump --debug-info` output, nesting depth set;
    DW_TAG_subprogram entries come along with depth FUNCTION_DEPTH (their ranges bound the code)."""
    calls: list[_InlinedCall] = []
    stack: list[tuple[int, bool]] = []  # (indent, is an inlined call) of the enclosing entries
    current: _InlinedCall | None = None
    in_ranges = False
    for line in dwarf.splitlines():
        m = DIE.match(line)
        if m:
            indent = len(m.group(1))
            while stack and stack[-1][0] >= indent:
                stack.pop()
            current, in_ranges = None, False
            if m.group(2) == "DW_TAG_inlined_subroutine":
                current = _InlinedCall(depth=sum(1 for _, inl in stack if inl))
                calls.append(current)
            elif m.group(2) in ("DW_TAG_subprogram", "DW_TAG_compile_unit"):  # ranges of real code
                current = _InlinedCall(depth=FUNCTION_DEPTH)
                calls.append(current)
            if m.group(2) != "NULL":
                stack.append((indent, m.group(2) == "DW_TAG_inlined_subroutine"))
            continue
        if current is None:
            continue
        a = DIE_ATTRIBUTE.match(line)
        if a:
            name, value = a.group(1), a.group(2)
            in_ranges = name == "DW_AT_ranges"
            if name == "DW_AT_low_pc":
                current.low = _hex(value)
            elif name == "DW_AT_high_pc" and current.low is not None:
                high = _hex(value)
                if high is not None:
                    current.ranges.append((current.low, high))
            elif name == "DW_AT_call_file":
                current.call_file = value.rstrip(")").strip('"')
            elif name == "DW_AT_call_line":
                current.call_line = _dec(value)
            elif name == "DW_AT_call_column":
                current.call_col = _dec(value)
        if in_ranges:
            current.ranges.extend((int(lo, 16), int(hi, 16)) for lo, hi in ADDRESS_RANGE.findall(line))
    return calls


def _hex(value: str) -> int | None:
    try:
        return int(value.rstrip(")").split()[0], 16)
    except (ValueError, IndexError):
        return None


def _dec(value: str) -> int:
    try:
        return int(value.rstrip(")").split()[0], 0)
    except (ValueError, IndexError):
        return 0


def _add_call_sites(module: Module, addresses: list[tuple[int, int]], calls: list[_InlinedCall]) -> None:
    """Extend each instruction's (innermost) line with the call sites of the inlined ranges holding it.
    Instructions outside every function's range (the s_nop padding llvm-objdump prints after the last
    line) get no location: llvm-objdump only repeats the last line it printed."""
    addresses.sort()
    keys = [a for a, _ in addresses]
    code = sorted(r for c in calls if c.depth == FUNCTION_DEPTH for r in c.ranges)
    if code:
        inside = [False] * len(keys)
        for lo, hi in code:
            for k in range(bisect.bisect_left(keys, lo), bisect.bisect_left(keys, hi)):
                inside[k] = True
        for k, (_, index) in enumerate(addresses):
            if not inside[k]:
                module.ops[index].loc = None
    sites: dict[int, list[_InlinedCall]] = {}
    for call in calls:
        if call.depth == FUNCTION_DEPTH or call.call_line <= 0:
            continue
        for lo, hi in call.ranges:
            for k in range(bisect.bisect_left(keys, lo), bisect.bisect_left(keys, hi)):
                sites.setdefault(addresses[k][1], []).append(call)
    cache: dict[tuple, SourceLoc] = {}
    for index, found in sites.items():
        op = module.ops[index]
        if op.loc is None or not op.loc.known:
            continue
        key = (op.loc, tuple(id(c) for c in found))
        loc = cache.get(key)
        if loc is None:
            outer: SourceLoc | None = None
            for call in sorted(found, key=lambda c: c.depth):  # the user's call (depth 0) outermost
                if (call.call_file, call.call_line) != (op.loc.file, op.loc.line) or outer is not None:
                    outer = SourceLoc(call.call_file, call.call_line, call.call_col, outer)
            loc = cache[key] = SourceLoc(op.loc.file, op.loc.line, op.loc.col, outer)
        op.loc = loc
