"""Inlined-call ranges from the DWARF `.debug_info` that PTX and AMDGCN assembly print as text.

Before Triton 3.9 (PTX) and in every AMDGCN without `@[ ... ]` comments, `.loc` directives name only
the innermost position: an instruction of `_row_max` says `kernels.py:36`, not that it was inlined at
line 91. The assembler's DWARF says so: each `DW_TAG_inlined_subroutine` has a label range
(`DW_AT_low_pc`/`DW_AT_high_pc`, or `DW_AT_ranges` into `.debug_ranges`) and the call site
(`DW_AT_call_file/line/column`). The LLVM printer comments every entry with
`Abbrev [N] 0xOFFSET:0xSIZE DW_TAG_...` and every attribute with its name, which is all we read.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from tritonscope.lazyre import lazy_compile

# `.b8 4  // Abbrev [4] 0x59:0x18 DW_TAG_inlined_subroutine` (PTX) / `.byte 4 ; Abbrev [4] ...` (AMDGCN)
DIE_START = lazy_compile(r"Abbrev \[\d+\] 0x([0-9a-f]+):0x([0-9a-f]+) (DW_TAG_\w+)")
# `.b64 $L__tmp1  // DW_AT_low_pc`, `.long .Ltmp10-.Ltmp9 ; DW_AT_high_pc`, `.b8 91 // DW_AT_call_line`
ATTRIBUTE = lazy_compile(r"^\s*\.(?:b8|b16|b32|b64|byte|short|long|quad|word|2byte|4byte|8byte)\s+([^\s/;]+)"
                         r"\s*(?://|;)\s*(DW_AT_\w+)")
# A bare `.b8 1` after an attribute: the next byte of a multi-byte value.
CONTINUATION_BYTE = lazy_compile(r"^\s*\.b8\s+(\d{1,3})\s*$")  # one byte; int() refuses > 4300 digits
RANGE_LIST_LABEL = lazy_compile(r"^\s*(\.L\w+|\$L\w+):")
RANGE_ENTRY = lazy_compile(r"^\s*\.(?:b64|quad|b32|long)\s+([^\s/;]+)")


@dataclass
class InlinedCall:
    offset: int
    size: int
    call_file: str = ""
    call_line: int = 0
    call_col: int = 0
    ranges: list[tuple[str, str]] = field(default_factory=list)  # (start label, end label)
    ranges_ref: str | None = None
    depth: int = 0


def read_inlined_calls(info_lines: list[str], ranges_lines: list[str]) -> list[InlinedCall]:
    """Every DW_TAG_inlined_subroutine with its label ranges and call site, nesting depth set."""
    calls: list[InlinedCall] = []
    current: InlinedCall | None = None
    low: str | None = None
    last_attr: str | None = None
    shift = 0
    for line in info_lines:
        m = DIE_START.search(line)
        if m:
            current = None
            last_attr = None
            if m.group(3) == "DW_TAG_inlined_subroutine":
                current = InlinedCall(int(m.group(1), 16), int(m.group(2), 16))
                calls.append(current)
                low = None
            continue
        if current is None:
            continue
        a = ATTRIBUTE.match(line)
        if a:
            value, name = a.group(1), a.group(2)
            last_attr, shift = name, 8
            if name == "DW_AT_low_pc":
                low = value
            elif name == "DW_AT_high_pc" and low is not None:
                current.ranges.append((low, value.split("-")[0]))
            elif name == "DW_AT_ranges":
                current.ranges_ref = value
            elif name in ("DW_AT_call_file", "DW_AT_call_line", "DW_AT_call_column"):
                setattr(current, _CALL_FIELDS[name], _to_int(value))
            continue
        c = CONTINUATION_BYTE.match(line)
        if c and last_attr in _CALL_FIELDS:
            attr = _CALL_FIELDS[last_attr]
            setattr(current, attr, getattr(current, attr) + (int(c.group(1)) << shift))
            shift += 8
    if any(c.ranges_ref for c in calls):
        lists = _range_lists(ranges_lines)
        for call in calls:
            if call.ranges_ref:
                call.ranges.extend(lists.get(call.ranges_ref, []))
    # Nesting from the entries' byte extents: a call inside another was inlined into that helper.
    for call in calls:
        call.depth = sum(1 for o in calls if o is not call and o.offset < call.offset < o.offset + o.size)
    for call in calls:
        call.call_file = str(call.call_file)
    return calls


_CALL_FIELDS = {"DW_AT_call_file": "call_file", "DW_AT_call_line": "call_line", "DW_AT_call_column": "call_col"}


def _to_int(value: str) -> int:
    try:
        return int(value, 0)
    except ValueError:
        return 0


def _range_lists(lines: list[str]) -> dict[str, list[tuple[str, str]]]:
    """`.Ldebug_ranges0:` then `.quad .LtmpA-.Lfunc_begin0` / `.quad .LtmpB-...` pairs, ended by 0, 0."""
    out: dict[str, list[tuple[str, str]]] = {}
    name: str | None = None
    pending: str | None = None
    for line in lines:
        m = RANGE_LIST_LABEL.match(line)
        if m:
            name, pending = m.group(1), None
            out[name] = []
            continue
        e = RANGE_ENTRY.match(line)
        if e is None or name is None:
            continue
        value = e.group(1).split("-")[0]
        if pending is None:
            pending = value
        else:
            if pending != "0" and value != "0":
                out[name].append((pending, value))
            pending = None
    return out


def callee_files(calls: list[InlinedCall], first_op_files: dict[int, str] | None = None) -> dict[int, str]:
    """offset of a call -> the file its callee's code is in, where its nested calls say so: a call made
    from inside the callee is made from the callee's file (Triton's DWARF names no decl_file). A call with
    no nested call: the file of the first instruction of its range (`first_op_files`: the label that opens
    an inlined range is printed before the callee's first instruction)."""
    out: dict[int, str] = {}
    for call in calls:
        nested = [o for o in calls if o.depth == call.depth + 1 and call.offset < o.offset < call.offset + call.size]
        files = {o.call_file for o in nested}
        if len(files) == 1:
            out[call.offset] = files.pop()
        elif not nested and first_op_files and call.offset in first_op_files:
            out[call.offset] = first_op_files[call.offset]
    return out


def call_sites_by_line(calls: list[InlinedCall], labels: dict[str, int], op_lines: list[int],
                       op_files: dict[int, str] | None = None) -> dict[int, list[tuple[int, InlinedCall]]]:
    """For each op line inside an inlined range: [(depth, call)] of every range holding it.

    NVPTX writes one low/high pair per inlined call, and scheduling moves the caller's own instructions
    into it (a load of the kernel's line 36 between the instructions of a `tl.sum` called at line 39). With
    `op_files` (op line -> the file id of its `.loc`), an op whose file is not the file its innermost
    holding call's callee lives in (`callee_files`) is not inside that call: such calls are dropped from
    its list, innermost first, until one fits or none is left.

    The range of a call whose instructions were software-pipelined can hold most of the kernel (gemlite's
    `load_ptr` helper of utils.py, called at line 431 of its split-K GEMM: its one pair spans the prologue
    and the loop), so without the file test every kernel line of that stretch would read as inlined there."""
    out: dict[int, list[tuple[int, InlinedCall]]] = {}
    first_op_files: dict[int, str] = {}
    for call in calls:
        if call.call_line <= 0:
            continue
        first: int | None = None
        for start_label, end_label in call.ranges:
            start, end = labels.get(start_label), labels.get(end_label)
            if start is None or end is None:
                continue
            i = bisect.bisect_left(op_lines, start)
            j = bisect.bisect_left(op_lines, end)
            if i < j and (first is None or op_lines[i] < first):
                first = op_lines[i]
            for k in range(i, j):
                out.setdefault(op_lines[k], []).append((call.depth, call))
        if first is not None and op_files and first in op_files:
            first_op_files[call.offset] = op_files[first]
    if op_files:
        callee = callee_files(calls, first_op_files)
        for line in list(out):
            sites = sorted(out[line], key=lambda s: -s[0])
            file = op_files.get(line)
            while sites and file is not None and callee.get(sites[0][1].offset, file) != file:
                sites.pop(0)
            if sites:
                out[line] = sites
            else:
                del out[line]
    return out
