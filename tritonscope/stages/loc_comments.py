"""Inline chains spelled in the comment of a `.loc` directive.

LLVM's assembly printers comment each `.loc` with the instruction's DILocation, inlined-at chain
included: `.loc 3 93 17 // utils.py:93:17 @[ gemm_kernels.py:436:110 ]` (PTX of Triton 3.4 to 3.8),
`.loc 2 196 12 ; standard.py:196:12 @[ standard.py:216:16 @[ kernels.py:36:9 ] ]` (AMDGCN). That chain
is the compiler's own, exact where the DWARF ranges are not (NVPTX writes one low/high pair per inlined
call, and scheduling interleaves calls). It names files by basename: `CommentChains` maps a basename
back to the `.file` path where only one has it, else to the one whose id has that position among the
module's `.loc`s (two `utils.py` of one library), else keeps the basename.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import SourceLoc

# `file:line:col` positions of a `.loc` comment chain.
CHAIN_POSITION = lazy_compile(r"([^\s@\[\]]*):(\d{1,9}):(\d{1,9})(?!\d)")
# as the other stages, at most 64 positions (outermost kept: the user's line); no deeper linked chain,
# which would overflow the recursion of to_json/==
_MAX_CHAIN = 64

Position = tuple[str, int, int]  # (file id, line, col)


class Positions:
    """`.loc` positions (file id, line, col) as SourceLocs, one object per distinct plain position."""

    def __init__(self, files: dict[str, str]):
        self.files = files
        self.plain: dict[Position, SourceLoc] = {}

    def position(self, pos: Position, inlined_at: SourceLoc | None = None) -> SourceLoc:
        if inlined_at is None:  # one object per distinct position (ops under one `.loc` share it)
            hit = self.plain.get(pos)
            if hit is None:
                hit = self.plain[pos] = SourceLoc(self.files.get(pos[0], f"<file {pos[0]}>"), pos[1], pos[2])
            return hit
        return SourceLoc(self.files.get(pos[0], f"<file {pos[0]}>"), pos[1], pos[2], inlined_at)

    def with_dwarf(self, pos: Position, sites: list) -> SourceLoc:
        """`pos` inlined through the DWARF calls `dwarf_inline.call_sites_by_line` found for its op."""
        loc: SourceLoc | None = None
        for _, call in sorted(sites, key=lambda s: s[0]):  # outermost call (depth 0) first
            site = (call.call_file, call.call_line, call.call_col)
            if site != pos:
                loc = self.position(site, loc)
        return self.position(pos, loc)


class CommentChains(Positions):
    def __init__(self, files: dict[str, str], positions: Callable[[], set[Position]] | None = None):
        """`positions`: the module's `.loc` positions, asked for only when a basename is ambiguous."""
        super().__init__(files)
        self._positions = positions
        self._known: set[Position] | None = None
        by_base: dict[str, set[str]] = {}
        for p in files.values():
            by_base.setdefault(os.path.basename(p), set()).add(p)
        self.by_basename = {b: next(iter(ps)) for b, ps in by_base.items() if len(ps) == 1}
        self.ambiguous = {b for b, ps in by_base.items() if len(ps) > 1}
        self.cache: dict[tuple[Position, str], SourceLoc] = {}

    def from_comment(self, pos: Position, chain: str) -> SourceLoc:
        """`pos` (the `.loc`'s own position) inlined at the callers the comment names after it."""
        key = (pos, chain)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        callers = CHAIN_POSITION.findall(chain)[1:]  # the first is the `.loc` position itself
        callers = callers[-(_MAX_CHAIN - 1):]
        loc: SourceLoc | None = None
        for name, line, col in reversed(callers):
            loc = SourceLoc(self._path(name, int(line), int(col)), int(line), int(col), loc)
        hit = self.position(pos, loc)
        self.cache[key] = hit
        return hit

    def _path(self, name: str, line: int, col: int) -> str:
        path = self.by_basename.get(name)
        if path is not None or name not in self.ambiguous:
            return path or name
        if self._known is None:
            self._known = self._positions() if self._positions is not None else set()
        ids = [i for i, p in self.files.items() if os.path.basename(p) == name and (i, line, col) in self._known]
        return self.files[ids[0]] if len(ids) == 1 else name
