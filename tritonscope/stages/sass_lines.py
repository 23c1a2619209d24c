"""SASS instructions located through the PTX they were compiled from, once per module.

Where the cubin embeds its PTX (every Triton cubin seen, 3.2 to 3.9), `nvdisasm -gp` names, per SASS
instruction, the line of the cache's `.ptx` ptxas compiled it from. Such an instruction takes that PTX
instruction's location (the whole inline chain, DWARF inlined ranges and the inline-asm correction of
stages/ptx.py included): a helper called on four lines of the kernel gives four callers' SASS, where the
cubin's own line table holds only the helper's line. What -gp cannot place (a PTX line that is a
directive or a brace, a PTX op without a location) keeps nvdisasm's `-gi` location, with the callers
PTX gives every instruction of that file and line where they are one chain.

Without -gp lines (a cubin without embedded PTX), the fallback is the older heuristic: ptxas built the
SASS line table from the raw PTX `.loc`s, including the ones LLVM writes inside inline-asm blocks (asm
line numbers), so memory instructions are moved back to the line the corrected PTX gives them. Every
consumer of an entry's SASS gets it corrected once, through `tritonscope.stages.correct_entry_sass`
(which reads the entry; this module holds the pure corrections).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from tritonscope.stages import memops
from tritonscope.stages.common import Module, SourceLoc

MOVED_NOTE = "moved {} memory instructions back from inline-asm line offsets " \
             "(ptxas copied LLVM's asm line numbers into the line table)"
PLACED_NOTE = "{} of {} instructions located through their PTX line (nvdisasm -gp)"
NO_PTX_LINES_NOTE = "no PTX line table in the cubin (nvdisasm -gp): SASS lines are the cubin's own"
NO_PTX_NOTE = ("the entry has no PTX to locate SASS through: its lines are the cubin's own table, where ptxas may "
               "give an instruction its mask's or its use's line")


def corrected(sass: Module) -> bool:
    """Whether `sass` went through this module already: one of its notes is one of this module's own,
    matched whole (a parser's own note may say " of " or "moved" too)."""
    import re  # (re caches the compiled pattern)

    own = "|".join("^" + r"\d+".join(map(re.escape, n.split("{}"))) + "$"
                   for n in (MOVED_NOTE, PLACED_NOTE, NO_PTX_LINES_NOTE, NO_PTX_NOTE))
    return any(re.match(own, n) for n in sass.notes)


_GENERIC = ("LD", "ST")  # SASS loads and stores through a generic address (LDG/STG, LDS/STS name their space)


def place_through_ptx(sass: Module, ptx: Module) -> int:
    """Each SASS instruction takes the location of the PTX instruction on its -gp line; how many did.

    One that -gp cannot place keeps the cubin's own location, which before Triton 3.9 names no caller: a
    prologue `ULDC` of `tl.cdiv` says `standard.py:43` alone. Where every PTX instruction of that file
    and line was inlined through one and the same chain of callers, it gets that chain."""
    by_line = {op.lineno: op for op in ptx.ops}
    placed = 0
    unplaced = []
    for op in sass.ops:
        src = by_line.get(op.ptx_line) if op.ptx_line is not None else None
        if src is not None and op.op.split(".", 1)[0] in _GENERIC:  # (a generic address: PTX's space says more)
            acc = memops.classify("ptx", src)
            if acc is not None and acc.space == "shared":
                sass.generic_spaces[op.lineno] = acc.space
        if src is not None and src.loc is not None:
            op.loc = src.loc
            placed += 1
        elif op.loc is not None and op.loc.inlined_at is None:
            unplaced.append(op)
    if unplaced:
        callers: dict[tuple[str, int], set] = {}
        for op in ptx.ops:
            if op.loc is not None:
                callers.setdefault((op.loc.file, op.loc.line), set()).add(op.loc.inlined_at)
        for op in unplaced:
            found = callers.get((op.loc.file, op.loc.line), set())
            if len(found) == 1 and None not in found:
                op.loc = dataclasses.replace(op.loc, inlined_at=next(iter(found)))
    sass.notes.append(PLACED_NOTE.format(placed, len(sass.ops)))
    return placed


def correct_sass_lines(sass: Module, raw_ptx: Module, ptx: Module) -> int:
    """Move SASS memory instructions back to the source line PTX really meant; how many moved.

    ptxas builds the SASS line table from the raw PTX `.loc`s, including the ones LLVM writes inside
    inline-asm blocks (asm line numbers; see stages/ptx.py), so a `LDG` of line 173 says line 174. The
    PTX parser ignores those; here the memory instructions PTX placed on a raw line are mapped, kind by
    kind, to the line the corrected PTX gives them, where that is unambiguous.
    """
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


