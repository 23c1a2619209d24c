"""SASS line numbers that ptxas copied from LLVM's inline-asm `.loc` offsets, moved back.

ptxas builds the SASS line table from the raw PTX `.loc`s, including the ones LLVM writes inside
inline-asm blocks (asm line numbers; see stages/ptx.py), so a `LDG` of line 173 says line 174. Every
consumer of an entry's SASS gets it corrected once, here, through `correct_entry_sass`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from tritonscope.errors import TritonscopeError
from tritonscope.stages.common import Module, SourceLoc

if TYPE_CHECKING:
    from tritonscope.cache import KernelEntry

MOVED_NOTE = "moved {} memory instructions back from inline-asm line offsets " \
             "(ptxas copied LLVM's asm line numbers into the line table)"


def correct_entry_sass(entry: KernelEntry, sass: Module, ptx: Module | None = None) -> int:
    """Correct `sass` (parsed from `entry`'s cubin) from the entry's PTX, once; how many moved."""
    from tritonscope.stages import parse_entry_stage
    from tritonscope.stages import ptx as ptx_parser
    from tritonscope.stages.common import read_text

    if "ptx" not in entry.files or any(n.startswith(MOVED_NOTE.split("{")[0]) for n in sass.notes):
        return 0
    try:
        ptx = ptx or parse_entry_stage(entry, "ptx")
        if not ptx.notes:  # no inline-asm `.loc`s were ignored: SASS lines need no correction
            return 0
        path = str(entry.stage_path("ptx"))
        raw = ptx_parser.parse(read_text(path), path, inline_asm_locs=True)
    except TritonscopeError:
        return 0
    return correct_sass_lines(sass, raw, ptx)


def correct_sass_lines(sass: Module, raw_ptx: Module, ptx: Module) -> int:
    """Move SASS memory instructions back to the source line PTX really meant; how many moved.

    ptxas builds the SASS line table from the raw PTX `.loc`s, including the ones LLVM writes inside
    inline-asm blocks (asm line numbers; see stages/ptx.py), so a `LDG` of line 173 says line 174. The
    PTX parser ignores those; here the memory instructions PTX placed on a raw line are mapped, kind by
    kind, to the line the corrected PTX gives them, where that is unambiguous.
    """
    from tritonscope import memops

    table: dict[tuple[int, str], Counter[int]] = {}
    fixed = {op.lineno: op for op in ptx.ops}
    for op in raw_ptx.ops:
        acc = memops.classify("ptx", op)
        good = fixed.get(op.lineno)
        if acc is None or op.loc is None or good is None or good.loc is None:
            continue
        table.setdefault((op.loc.outermost().line, acc.kind), Counter())[good.loc.outermost().line] += 1
    remap = {k: c.most_common(1)[0][0] for k, c in table.items() if len(c) == 1 and k[0] not in c}
    moved = 0
    for op in sass.ops:
        if op.loc is None:
            continue
        acc = memops.classify("sass", op)
        if acc is None:
            continue
        new_line = remap.get((op.loc.outermost().line, acc.kind))
        if new_line is not None:
            op.loc = _with_outer_line(op.loc, new_line)
            moved += 1
    if moved:
        sass.notes.append(MOVED_NOTE.format(moved))
    return moved


def _with_outer_line(loc: SourceLoc, line: int) -> SourceLoc:
    chain = loc.chain()
    out: SourceLoc | None = None
    for i, p in enumerate(reversed(chain)):
        out = SourceLoc(p.file, line if i == 0 else p.line, p.col, out, p.name)
    assert out is not None
    return out


