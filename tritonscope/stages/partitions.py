"""Warp-specialized partitions, located where their code is written, not at the kernel's `def`.

`gl.warp_specialize([(default, args), (worker, args), ...], ...)` (Gluon) gives each worker partition a
region of the TTGIR's `ttg.warp_specialize` op; Triton inlines each worker function there with the
kernel function's own location as the call site: every op of every worker reads
`loc(callsite(<its line> at "kernel.py":891:1))`, 891 being the `def` line, in the TTGIR and in LLVM's
inlinedAt chains (LLIR, PTX, SASS). The default partition's ops carry no such caller. Left as they are,
every worker op's outermost position, the one `map` and `loads` list by, is the `def` line: 514 TTGIR ops
of Triton's Gluon attention example on one line that holds none of them, and six TMA loads of one helper
labelled alike (`192:5 @ 891:1`).

`relocate` drops that caller from each chain, so a worker's ops sit on the worker function's lines (as the
default partition's do) and a helper called there is labelled by its call in the worker. Only a chain that
ends at a function's own location, in a kernel whose TTGIR has a `ttg.warp_specialize`, changes.
"""

from __future__ import annotations

from tritonscope.stages.common import Module, SourceLoc, chained, same_file

NOTE = "{} ops of warp-specialized partitions: Triton gives each worker function's call the kernel's own " \
       "position ({}); shown at the worker's lines instead"

Site = tuple[str, int, int]  # file, line, col of a function's own location


def sites(ttgir: Module, text: str) -> frozenset[Site]:
    """The positions a worker partition's chain ends at: the functions' own locations, where the TTGIR
    holds a `ttg.warp_specialize` (none otherwise)."""
    if "ttg.warp_specialize" not in text:
        return frozenset()
    return frozenset((loc.file, loc.line, loc.col) for loc in ttgir.function_locs.values() if loc.line)


def relocate(module: Module, at: frozenset[Site]) -> int:
    """Drop the caller that is a function's own position from each op's chain; how many ops moved (a
    note on the module says so). Stages without columns (the disassembled binaries) match by line."""
    if not at:
        return 0
    lines = {(line, col) for _, line, col in at} | {(line, 0) for _, line, _ in at}
    # id(loc) -> (loc, its chain without the outermost): chains are shared; the loc is kept so its id stays its own
    dropped: dict[int, tuple[SourceLoc, SourceLoc]] = {}
    moved = 0
    where: set[str] = set()
    for op in module.ops:
        loc = op.loc
        if loc is None or loc.inlined_at is None:
            continue
        outer = loc.outermost()
        if (outer.line, outer.col) not in lines or not _is_site(outer, at):
            continue
        memo = dropped.get(id(loc))
        if memo is None:
            memo = dropped[id(loc)] = (loc, chained(loc.chain()[:-1], None))
        op.loc = memo[1]
        moved += 1
        where.add(f"{outer.basename}:{outer.line}")
        module.partition_lines.add(outer.line)
        if op.loc is not None:
            module.partition_lines.add(op.loc.outermost().line)
    if moved:
        module.notes.append(NOTE.format(moved, ", ".join(sorted(where))))
    return moved


def _is_site(outer: SourceLoc, at: frozenset[Site]) -> bool:
    return any(outer.line == line and (outer.col in (col, 0)) and same_file(outer.file, file)
               for file, line, col in at)

