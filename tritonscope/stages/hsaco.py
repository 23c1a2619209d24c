"""AMDGCN disassembly as `llvm-objdump -d --line-numbers` prints it (stage `hsaco-asm`).

`0000000000001700 <softmax_kernel>:` starts a function, `; /path/kernels.py:77` sets the line of the
instructions that follow (llvm-objdump prints it only when it changes), `; name():` names the function
the line belongs to. llvm-objdump 19 prints only the innermost line of inlined code and no column; the
call sites of inlined code come from `llvm-dwarfdump --debug-info` (its DW_TAG_inlined_subroutine
address ranges), matched to each instruction's address, when that text is given.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from sys import intern

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op, SourceLoc, drop_trailing_padding, iter_lines

FUNCTION_START = lazy_compile(r"^([0-9a-fA-F]{1,16}) <([^>]+)>:$")
# `s_branch 56    // 00000000171C: BF820038 <_fwd_kernel_stage2+0x100>`: where a branch goes
BRANCH_TARGET = lazy_compile(r"<([^>+]+)\+0x([0-9a-fA-F]{1,16})>\s*$")
LINE_COMMENT = lazy_compile(r"^; (.+?):(\d{1,9})(?::(\d{1,9}))?(?: \(discriminator \d+\))?$")  # <= 9 digits: int()
FUNCTION_NAME_COMMENT = lazy_compile(r"^; .*\(\):$")
INSTRUCTION = lazy_compile(r"^([a-z_][\w]*)")
# `s_waitcnt lgkmcnt(0)    // 000000001718: BF8CC07F`: the instruction's address
ADDRESS = lazy_compile(r"//\s*([0-9A-Fa-f]+):")
# `.long 0xcc0f4000    // 0000000017A8: CC0F4000`: a word llvm-objdump could not decode as an instruction
UNDECODED = lazy_compile(r"^\.long\s+0x[0-9a-fA-F]+\b")
UNDECODED_WORD = lazy_compile(r"^\.long\s+0x([0-9a-fA-F]{1,8})\b")
UNDECODED_OP = "(undecoded)"
# llvm-objdump's comment after an instruction: its address and its encoding's words (`// 00000000003C60: 0201FF15`)
ENCODING_WORDS = lazy_compile(r"//\s*[0-9A-Fa-f]+:\s*([0-9A-Fa-f]{8})(?:\s+([0-9A-Fa-f]{8}))?")
# llvm-dwarfdump: `0x00000041:     DW_TAG_inlined_subroutine`, attributes, and `[lo, hi)` range lines
DIE = lazy_compile(r"^0x[0-9a-fA-F]+:(\s+)(DW_TAG_\w+|NULL)")
DIE_ATTRIBUTE = lazy_compile(r"^\s+(DW_AT_\w+)\s+\((.*)$")
ADDRESS_RANGE = lazy_compile(r"\[0x([0-9a-fA-F]+), 0x([0-9a-fA-F]+)\)")
_HEADER_MARKERS = ("file format", "Disassembly of section")
# llvm-dwarfdump --debug-line: `0x0000000000001900      0      0      1   0             0       0` (address, line)
LINE_SECTION = ".debug_line contents:"
LINE_ROW = lazy_compile(r"^0x([0-9a-fA-F]{1,16})\s+(\d{1,9})\s+\d+\s+\d+\s")


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
    bases: dict[str, int] = {}  # function -> its address
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
            function, current = m.group(2), None
            module.functions.append(function)
            bases[function] = int(m.group(1), 16)
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
    if any(op.op == UNDECODED_OP for op in module.ops):
        halves = _second_words(module, addresses)
        undecoded = sum(op.op == UNDECODED_OP for op in module.ops)
        module.notes.append(f"llvm-objdump printed {undecoded} instruction(s) as `.long` words: instructions its "
                            "LLVM cannot decode (the AMDGCN stage Triton wrote names them); counted as "
                            f"`{UNDECODED_OP}` ops, of no memory kind"
                            + (f" ({halves} of them 8- or 12-byte encodings whose later words llvm-objdump "
                               "printed as other words or instructions: not counted again)" if halves else ""))
    if dwarf:
        info, _, lines = dwarf.partition(LINE_SECTION)
        _unknown_where_the_table_says(module, addresses, read_line_rows(lines))
        _add_call_sites(module, addresses, read_inlined_calls(info))
    _drop_jumped_padding(module, addresses, bases)
    _drop_padding(module)
    return module


def _second_words(module: Module, addresses: list[tuple[int, int]]) -> int:
    """After a word it cannot decode, llvm-objdump goes on 4 bytes later: where that word opens an 8-byte
    encoding (its two top bits set: VOP3, VOP3P, VOPD, DS, SMEM, FLAT, MUBUF/VBUFFER, MIMG on every GCN/RDNA
    generation), what it prints at the next address is the instruction's second word read as an
    instruction (gfx12's `v_cmp_o_f32_e64` as `.long 0xd4170002` and a `v_cndmask_b32_e32`): left out, and
    a literal third word after it. Returns how many instructions were so."""
    at = dict(addresses)  # address -> op index
    index_address = {i: a for a, i in addresses}
    drop: set[int] = set()
    opened = 0  # the instructions whose later words are left out
    for i, op in enumerate(module.ops):
        if op.op != UNDECODED_OP or i in drop or i not in index_address:
            continue
        word = UNDECODED_WORD.match(op.text)
        if word is None or int(word.group(1), 16) >> 30 != 3:
            continue
        second = at.get(index_address[i] + 4)
        if second is not None and second == i + 1:
            drop.add(second)
            opened += 1
            # a VOP3 whose second word names a literal operand (source field 255: gfx10 on) is 12 bytes: its
            # third word, the literal, is no instruction either (`v_lshlrev_b32_e64 v19, v21, 0xffff` on
            # gfx11 printed as `.long`, an instruction, and `.long 0x0000ffff`)
            words = ENCODING_WORDS.search(module.ops[second].text)
            third = at.get(index_address[i] + 8)
            if words and not words.group(2) and third == i + 2 and module.ops[third].op == UNDECODED_OP and \
                    0xFF in (int(words.group(1), 16) >> shift & 0x1FF for shift in (0, 9, 18)):
                drop.add(third)
    _remove(module, addresses, drop)
    return opened


def _remove(module: Module, addresses: list[tuple[int, int]], drop: set[int]) -> None:
    """Leave the ops at `drop` out, the addresses' op indexes following."""
    if not drop:
        return
    kept = {old: new for new, old in enumerate(i for i in range(len(module.ops)) if i not in drop)}
    module.ops = [op for i, op in enumerate(module.ops) if i not in drop]
    addresses[:] = [(a, kept[i]) for a, i in addresses if i in kept]


_PADDING = ("s_nop", "s_code_end")
_UNCONDITIONAL_END = ("s_endpgm", "s_branch", "s_setpc_b64", "s_endpgm_saved")


def _drop_jumped_padding(module: Module, addresses: list[tuple[int, int]], bases: dict[str, int]) -> None:
    """`s_branch` over a run of `s_nop 0` to the instruction right after it: alignment padding inside a
    function (gfx942's kernel-argument preload prologue jumps over its padding to the kernel's code at
    +0x100), which nothing falls through into; so is 3.2's, after an `s_trap 2` at the function's start.
    Left out as the padding after a function's end is."""
    where = {index: address for address, index in addresses}
    drop: set[int] = set()
    ops = module.ops
    for i, op in enumerate(ops):
        if i not in where:
            continue
        if op.op == "s_trap" and where[i] == bases.get(op.function or "") and op.text.split()[1:2] == ["2"]:
            # Triton 3.2's preload header: `s_trap 2` (firmware that cannot preload the arguments stops there)
            # and `.fill 63` s_nop to +0x100, where firmware that can starts the kernel: never executed
            target = where[i] + 0x100
        elif op.op == "s_branch" and (m := BRANCH_TARGET.search(op.text)) is not None and m.group(1) in bases:
            target = bases[m.group(1)] + int(m.group(2), 16)
        else:
            continue
        j = i + 1
        # (padding is `s_nop 0`, and gfx10+'s `s_code_end`: an `s_nop 7` waits, it pads nothing)
        while j < len(ops) and ops[j].op in _PADDING and ops[j].text.split()[1:2] in ([], ["0"]) and \
                ops[j].function == op.function and where.get(j, target) < target:
            j += 1
        if j > i + 1 and where.get(j) == target:
            drop.update(range(i + 1, j))
    _remove(module, addresses, drop)


def _drop_padding(module: Module) -> None:
    """The code object pads a kernel's code to its alignment with `s_nop 0` (gfx9) or `s_code_end` (gfx10+),
    which llvm-objdump prints as more instructions of the function, under its last line: hundreds of them
    after a small kernel. A run of those at the end of a function, after an instruction that never falls
    through, is never executed: not an op of the kernel (left out, as docs/map.md says)."""
    drop_trailing_padding(module, lambda _, op: op.op in _PADDING, lambda op: op.op in _UNCONDITIONAL_END)


def read_line_rows(text: str) -> list[tuple[int, int, bool]]:
    """(address, line, ends a sequence) of each row of `llvm-dwarfdump --debug-line`'s line tables."""
    rows = []
    for line in text.splitlines():
        m = LINE_ROW.match(line)
        if m:
            rows.append((int(m.group(1), 16), int(m.group(2)), "end_sequence" in line))
    rows.sort(key=lambda r: r[0])
    return rows


def _unknown_where_the_table_says(module: Module, addresses: list[tuple[int, int]],
                                  rows: list[tuple[int, int, bool]]) -> None:
    """An instruction whose line-table row has line 0 (the AMDGCN's `.loc 1 0 5`: code the compiler could
    give no line, hoisted or merged) has no line: llvm-objdump prints no comment for such a row, so it
    read as the line printed before it. Such instructions count as line 0, as the AMDGCN stage does."""
    if not rows:
        return
    starts = [r[0] for r in rows]
    for address, index in addresses:
        k = bisect.bisect_right(starts, address) - 1
        if k < 0 or rows[k][2] or rows[k][1] != 0:
            continue
        op = module.ops[index]
        module.ops[index] = replace(op, loc=_line_zero(op.loc))


def _line_zero(loc: SourceLoc | None) -> SourceLoc:
    return SourceLoc(loc.file if loc is not None else "", 0, 0)


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
        if op.loc is None:  # (a line-0 instruction inside an inlined call is that call's, as in the AMDGCN)
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
