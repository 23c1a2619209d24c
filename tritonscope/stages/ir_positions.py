"""Positions of an IR file that LLVM's debug info wrote as lines of the kernel's Python file.

When Triton parses IR text (a `.ttir`/`.ttgir` given to `triton.compile`, a kernel override, tritonscope's
own `compile ENTRY --target` retarget), a value printed without a location (an `scf.for`'s `iter_args`:
the loop-carried values) gets the IR file's own position from MLIR's parser:
`loc("/.../kernel.ttir":77:298)`. The MLIR stages keep that file, but Triton's LLVM debug info writes only
the line and column under the kernel function's DIFile, so the LLIR, PTX/AMDGCN and SASS ops derived from
such a value read as line 77 of the Python kernel, which the author never wrote there.

`relabel` gives those ops their IR file back, where the position is unambiguous: its (line, column) is one
the last MLIR stage gives an IR file and never a Python file (a line alone, for the disassembled binaries,
whose line tables keep no column).
"""

from __future__ import annotations

from dataclasses import dataclass

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, SourceLoc, unescape_llvm

IR_SUFFIXES = (".ttir", ".ttgir", ".mlir", ".llir")
# `"file":line:col` in an MLIR location (a bare FileLineColLoc, or one inside callsite()/fused[])
_FILE_LOC = lazy_compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
NOTE = "{} ops at positions of {} (values its text gave no location; Triton's LLVM debug info wrote them as " \
       "lines of the kernel's file): shown as that file's"


def is_ir_file(path: str) -> bool:
    return path.endswith(IR_SUFFIXES)


@dataclass(frozen=True, slots=True)
class IRPositions:
    """What one MLIR stage's locations say: IR-file positions, and the positions of every other file."""

    ir: dict[tuple[int, int], str]  # (line, col) -> IR file, where no other file has that (line, col)
    ir_lines: dict[int, str]  # line -> IR file, where no other file has that line at all

    def __bool__(self) -> bool:
        return bool(self.ir)


NONE = IRPositions({}, {})


def scan(mlir_text: str) -> IRPositions:
    """The IR-file positions of an MLIR stage's text (C-speed test first: most texts name no IR file)."""
    if not any(f'{suffix}":' in mlir_text for suffix in IR_SUFFIXES):
        return NONE
    ir: dict[tuple[int, int], str] = {}
    other: set[tuple[int, int]] = set()
    for file, line, col in _FILE_LOC.findall(mlir_text):
        file = unescape_llvm(file)
        key = (int(line), int(col))
        if is_ir_file(file):
            ir.setdefault(key, file)
        else:
            other.add(key)
    other_lines = {line for line, _ in other}
    return IRPositions({k: f for k, f in ir.items() if k not in other},
                       {line: f for (line, _), f in ir.items() if line not in other_lines})


def relabel(module: Module, positions: IRPositions) -> int:
    """Give ops at an IR position their IR file back; how many moved (a note on the module says so)."""
    if not positions:
        return 0
    moved = 0
    files: set[str] = set()
    for op in module.ops:
        loc = op.loc
        if loc is None or loc.inlined_at is not None or not loc.line or is_ir_file(loc.file):
            continue
        file = positions.ir.get((loc.line, loc.col)) if loc.col else positions.ir_lines.get(loc.line)
        if file is not None:
            op.loc = SourceLoc(file, loc.line, loc.col, None, loc.name)
            files.add(file)
            moved += 1
    if moved:
        module.notes.append(NOTE.format(moved, ", ".join(sorted(files))))
    return moved
