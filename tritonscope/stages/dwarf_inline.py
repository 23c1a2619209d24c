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
    origin: str = ""  # DW_AT_abstract_origin: the callee (one value per inlined function)
    parent: InlinedCall | None = None  # the call this one was inlined into (None: into the kernel)


def read_inlined_calls(info_lines: list[str], ranges_lines: list[str],
                       abbrev_lines: list[str] | None = None) -> list[InlinedCall]:
    """Every DW_TAG_inlined_subroutine with its label ranges and call site, nesting depth set: from the
    printer's comments, else (LLVM before Triton 3.2 printed none) decoded from the bytes with the
    `.debug_abbrev` table."""
    calls = _from_comments(info_lines)
    if calls is None:
        calls = _from_bytes(info_lines, abbrev_lines) if abbrev_lines else []
    if any(c.ranges_ref for c in calls):
        lists = _range_lists(ranges_lines)
        for call in calls:
            if call.ranges_ref:
                call.ranges.extend(lists.get(call.ranges_ref, []))
    # Nesting from the entries' byte extents: a call inside another was inlined into that helper (entries
    # nest, so one pass in offset order with the open ones on a stack: n log n, not n² for 30,000 calls)
    calls.sort(key=lambda c: (c.offset, -c.size))
    open_calls: list[InlinedCall] = []
    for call in calls:
        while open_calls and not call.offset < open_calls[-1].offset + open_calls[-1].size:
            open_calls.pop()
        call.depth = len(open_calls)
        call.parent = open_calls[-1] if open_calls else None
        open_calls.append(call)
    for call in calls:
        call.call_file = str(call.call_file)
        if not 0 <= call.call_line <= _MAX_LINE:  # (a damaged value: no line, not line 18446744073709551615)
            call.call_line = 0
        if not 0 <= call.call_col <= _MAX_LINE:
            call.call_col = 0
    return calls


_MAX_LINE = 999_999_999  # (as `.loc` reads at most 9 digits)


def _from_comments(info_lines: list[str]) -> list[InlinedCall] | None:
    """The calls the printer's `Abbrev [N] ... DW_TAG_...` comments describe; None: there are none."""
    calls: list[InlinedCall] = []
    commented = False
    current: InlinedCall | None = None
    low: str | None = None
    last_attr: str | None = None
    shift = 0
    for line in info_lines:
        m = DIE_START.search(line)
        if m:
            commented = True
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
            elif name == "DW_AT_abstract_origin":
                current.origin = value
            elif name in ("DW_AT_call_file", "DW_AT_call_line", "DW_AT_call_column"):
                setattr(current, _CALL_FIELDS[name], _to_int(value))
            continue
        c = CONTINUATION_BYTE.match(line)
        if c and last_attr in _CALL_FIELDS:
            attr = _CALL_FIELDS[last_attr]
            setattr(current, attr, getattr(current, attr) + (int(c.group(1)) << shift))
            shift += 8
    return calls if commented else None


# Raw DWARF as assemblers print it with no comments: `.b8 29` / `.b32 .debug_abbrev` / `.b64 $L__tmp1`
# (PTX), `.byte 29` / `.long .Ldebug_ranges0` / `.quad .Lfunc_begin0` / `.uleb128 5` (AMDGCN).
_DATA = lazy_compile(r"^\s*\.(b8|b16|b32|b64|byte|short|2byte|long|4byte|quad|8byte|uleb128|sleb128)\s+"
                     r"([^/;]*?)\s*(?:(?://|;).*)?$")
_SIZES = {"b8": 1, "byte": 1, "b16": 2, "short": 2, "2byte": 2, "b32": 4, "long": 4, "4byte": 4,
          "b64": 8, "quad": 8, "8byte": 8}
_INLINED_SUBROUTINE = 0x1D
# DW_AT_ -> InlinedCall field
_RAW_CALL_FIELDS = {0x58: "call_file", 0x59: "call_line", 0x57: "call_col"}
# fixed-size DW_FORMs: bytes (DW_FORM_addr and ref_addr take the unit's address / offset size)
_FORM_SIZES = {0x05: 2, 0x06: 4, 0x07: 8, 0x0B: 1, 0x0C: 1, 0x0E: 4, 0x11: 1, 0x12: 2, 0x13: 4, 0x14: 8,
               0x17: 4, 0x19: 0, 0x1E: 16, 0x1F: 4, 0x20: 8, 0x21: 0, 0x25: 1, 0x26: 2, 0x27: 3, 0x28: 4,
               0x29: 1, 0x2A: 2, 0x2B: 3, 0x2C: 4}
_FORM_ULEB = {0x0F, 0x15, 0x1A, 0x1B, 0x22, 0x23}  # udata, ref_udata, strx, addrx, loclistx, rnglistx
_FORM_BLOCK = {0x0A: 1, 0x03: 2, 0x04: 4, 0x09: 0, 0x18: 0}  # block1/2/4 (length bytes), block/exprloc (uleb)


class _Malformed(Exception):
    pass


class _Bytes:
    """A section's data directives as bytes: a number is its little-endian bytes, a label or expression one
    cell of its directive's size (read whole, as the value of an attribute of that size)."""

    def __init__(self, lines: list[str]) -> None:
        self.cells: list[int | tuple[str, int]] = []
        for line in lines:
            m = _DATA.match(line)
            if m is None:
                if line.rstrip().endswith(":") or not line.strip():
                    continue  # a label (`.Ldebug_info_start0:`)
                raise _Malformed(line)
            kind, values = m.group(1), [v.strip() for v in m.group(2).split(",")]
            for v in values:
                n = _number(v)
                if kind in ("uleb128", "sleb128"):
                    if n is None:
                        raise _Malformed(line)
                    self.cells.extend(_leb(n))
                elif n is None:
                    self.cells.append((v, _SIZES[kind]))
                else:
                    self.cells.extend((n >> (8 * i)) & 0xFF for i in range(_SIZES[kind]))
        self.i = 0
        self.offset = 0

    def more(self) -> bool:
        return self.i < len(self.cells)

    def read(self, size: int) -> int | str:
        if size == 0:
            return 0
        cell = self.cells[self.i] if self.i < len(self.cells) else None
        if isinstance(cell, tuple):
            if cell[1] != size:
                raise _Malformed(cell[0])
            self.i += 1
            self.offset += size
            return cell[0]
        value = 0
        for k in range(size):
            b = self.cells[self.i + k] if self.i + k < len(self.cells) else None
            if not isinstance(b, int):
                raise _Malformed("short data")
            value |= b << (8 * k)
        self.i += size
        self.offset += size
        return value

    def uleb(self) -> int:
        value, shift = 0, 0
        while True:
            b = self.read(1)
            if not isinstance(b, int) or shift > 63:
                raise _Malformed("bad LEB128")
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value


def _number(text: str) -> int | None:
    try:
        return int(text, 0)
    except ValueError:
        return None


def _leb(n: int) -> list[int]:
    out = []
    while True:
        b = n & 0x7F
        n >>= 7
        if (n == 0 and not b & 0x40) or (n == -1 and b & 0x40):
            return out + [b]
        out.append(b | 0x80)


def _abbrevs(data: _Bytes) -> dict[int, tuple[int, bool, list[tuple[int, int]]]]:
    """code -> (tag, has children, [(attribute, form)])."""
    table: dict[int, tuple[int, bool, list[tuple[int, int]]]] = {}
    while data.more():
        code = data.uleb()
        if code == 0:
            break
        tag, children = data.uleb(), data.read(1)
        attrs = []
        while True:
            attr, form = data.uleb(), data.uleb()
            if attr == 0 and form == 0:
                break
            if form == 0x21:  # implicit_const: its value is in the table
                data.uleb()
            attrs.append((attr, form))
        table[code] = (tag, bool(children), attrs)
    return table


def _from_bytes(info_lines: list[str], abbrev_lines: list[str]) -> list[InlinedCall]:
    """Decode `.debug_info` with its abbreviation table: only what inlined calls need. Anything it does
    not understand (64-bit DWARF, an unknown form, a label where a number must be) gives no calls."""
    try:
        table = _abbrevs(_Bytes(abbrev_lines))
        data = _Bytes(info_lines)
        calls: list[InlinedCall] = []
        while data.more():
            start = data.offset
            length = data.read(4)
            if isinstance(length, int) and length >= 0xFFFFFFF0:
                return []  # 64-bit DWARF (a length the assembler computes, `.Ldebug_info_end0-...`, is read on)
            version = data.read(2)
            if version == 5:
                data.read(1)  # unit type
                addr_size = data.read(1)
                data.read(4)
            else:
                data.read(4)
                addr_size = data.read(1)
            if not isinstance(addr_size, int) or addr_size not in (4, 8):
                return []
            open_dies: list[tuple[InlinedCall | None, int]] = []  # DIEs with children not yet closed
            end = None if isinstance(length, str) else start + 4 + length
            while data.more() and (end is None or data.offset < end):
                offset = data.offset
                code = data.uleb()
                if code == 0:
                    if not open_dies:
                        break
                    call, _ = open_dies.pop()
                    if call is not None:
                        call.size = data.offset - call.offset
                    continue
                tag, children, attrs = table[code]
                call = InlinedCall(offset, 0) if tag == _INLINED_SUBROUTINE else None
                low: str | int | None = None
                for attr, form in attrs:
                    value = _attribute(data, form, addr_size)
                    if call is None:
                        continue
                    if attr == 0x11:  # low_pc
                        low = value
                    elif attr == 0x12 and low is not None:  # high_pc: an address or `.Lend-.Lstart`
                        call.ranges.append((str(low), str(value).split("-")[0]))
                    elif attr == 0x55:
                        call.ranges_ref = str(value)
                    elif attr == 0x31:
                        call.origin = str(value)
                    elif attr in _RAW_CALL_FIELDS and isinstance(value, int):
                        setattr(call, _RAW_CALL_FIELDS[attr], value)
                if call is not None:
                    calls.append(call)
                    call.size = data.offset - offset
                if children:
                    open_dies.append((call, offset))
        return calls
    except (_Malformed, KeyError, IndexError, RecursionError):  # (indirect forms nest)
        return []


def _attribute(data: _Bytes, form: int, addr_size: int) -> int | str:
    if form in (0x01, 0x10):  # addr, ref_addr
        return data.read(addr_size if form == 0x01 else 4)
    if form in _FORM_SIZES:
        return data.read(_FORM_SIZES[form])
    if form in _FORM_ULEB or form == 0x0D:  # (sdata: the value is not needed, its bytes are skipped)
        return data.uleb()
    if form == 0x08:  # string
        while data.read(1) != 0:
            pass
        return 0
    if form in _FORM_BLOCK:
        size = _FORM_BLOCK[form]
        n = data.read(size) if size else data.uleb()
        if not isinstance(n, int):
            raise _Malformed("block length")
        for _ in range(n):
            data.read(1)
        return 0
    if form == 0x16:  # indirect
        return _attribute(data, data.uleb(), addr_size)
    raise _Malformed(f"DW_FORM {form:#x}")


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
    children: dict[int, list[InlinedCall]] = {}
    for o in calls:
        if o.parent is not None:
            children.setdefault(id(o.parent), []).append(o)
    for call in calls:
        nested = children.get(id(call), [])
        files = {o.call_file for o in nested}
        if len(files) == 1:
            out[call.offset] = files.pop()
        elif not nested and first_op_files and call.offset in first_op_files:
            out[call.offset] = first_op_files[call.offset]
    return out


def call_sites_by_line(calls: list[InlinedCall], labels: dict[str, int], op_lines: list[int],
                       op_positions: dict[int, tuple[str, int, int]] | None = None,
                       ) -> dict[int, list[tuple[int, InlinedCall]]]:
    """For each op line inside an inlined range: [(depth, call)], the call that holds it and the calls
    that one was inlined into, outermost (depth 0) to innermost.

    NVPTX writes one low/high pair per inlined call, and scheduling interleaves code: the caller's own
    instructions (a load of the kernel's line 36 between those of a `tl.sum` called at line 39) and other
    calls' (gemlite's GEMMs, whose software-pipelined `load_ptr` calls at lines 431 and 454 and a
    dequantizing helper at 457 have ranges that overlap over most of the kernel). With `op_positions`
    (op line -> the file id, line and column of its `.loc`):
    - a call whose callee lives in another file than the op's (`callee_files`) does not hold it;
    - of the holding calls, the deepest is the op's; where several calls of one depth hold it, those of
      the function the op's position belongs to (learned from the first instruction of each range: a
      position lies in one function), then the one whose range opened last before the op (measured
      against the `.loc` comment chains of 1,595 Triton 3.4-3.6 PTX files: 94.8% of the instructions get
      their user line; the range that opened first: 88.5%, closes first: 93.7%, the shortest: 94.3%);
    - its chain is that call and its DWARF parents, never a sibling call stacked on top."""
    held: dict[int, list[tuple[InlinedCall, int]]] = {}  # op line -> [(call, its range's start)]
    first_op: dict[int, int] = {}  # call offset -> the line of the first instruction of its ranges
    for call in calls:
        if call.call_line <= 0:
            continue
        for start_label, end_label in call.ranges:
            start, end = labels.get(start_label), labels.get(end_label)
            if start is None or end is None:
                continue
            i = bisect.bisect_left(op_lines, start)
            j = bisect.bisect_left(op_lines, end)
            if i < j and op_lines[i] < first_op.get(call.offset, op_lines[i] + 1):
                first_op[call.offset] = op_lines[i]
            for k in range(i, j):
                held.setdefault(op_lines[k], []).append((call, start))
    positions = op_positions or {}
    # A call made by the kernel itself is made from the kernel's file: the one file of the ops no inlined
    # range holds. Triton 2.x wrote the callee's file there (`standard.py:26` for the kernel's `tl.max`
    # at line 26, as its LLIR's DILexicalBlockFile does); from 3.0 the two agree.
    own = {positions[line][0] for line in op_lines if line not in held and line in positions}
    if len(own) == 1:
        (kernel_file,) = own
        for call in calls:
            if call.parent is None and call.call_file != kernel_file:
                call.call_file = kernel_file
    first_op_files = {off: positions[line][0] for off, line in first_op.items() if line in positions}
    callee = callee_files(calls, first_op_files)
    origins: dict[tuple[str, int, int], set[str]] = {}
    by_offset = {c.offset: c for c in calls}
    for off, line in first_op.items():
        if line in positions and by_offset[off].origin:
            origins.setdefault(positions[line], set()).add(by_offset[off].origin)
    out: dict[int, list[tuple[int, InlinedCall]]] = {}
    for line, holding in held.items():
        pos = positions.get(line)
        if pos is not None:
            holding = [h for h in holding if callee.get(h[0].offset, pos[0]) == pos[0]]
        if not holding:
            continue
        deepest = max(h[0].depth for h in holding)
        inner = [h for h in holding if h[0].depth == deepest]
        if len(inner) > 1 and pos is not None and len(origins.get(pos, ())) == 1:
            (origin,) = origins[pos]
            inner = [h for h in inner if h[0].origin == origin] or inner
        call: InlinedCall | None = max(inner, key=lambda h: h[1])[0]
        path: list[tuple[int, InlinedCall]] = []
        while call is not None and len(path) < 64:
            path.append((call.depth, call))
            call = call.parent
        out[line] = path[::-1]
    return out
