"""Inlined calls from DWARF printed without comments (LLVM before Triton 3.2: `.b8 29`, `.byte 29`, no
`// Abbrev [4] ... DW_TAG_inlined_subroutine`): decoded from the bytes with `.debug_abbrev`. And Triton
2.x's call sites, which name the callee's file.

The oracle is the printer's own comments: every PTX and AMDGCN of the test data and the corpus whose DWARF
is commented, with its debug sections' comments stripped, locates every op as the commented file does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tritonscope.stages import parse
from tritonscope.stages.common import read_text

DATA = Path(__file__).parent / "data"
CORPUS = Path(__file__).parent.parent.parent / "shared" / "corpus"
RELEASES = DATA / "releases-3.0-3.4"


def _commented() -> list[Path]:
    files = []
    for root in (DATA, CORPUS):
        for suffix in ("*.ptx", "*.amdgcn"):
            files += [f for f in sorted(root.rglob(suffix)) if "DW_TAG_inlined_subroutine" in read_text(f)]
    return files


def _strip_debug_comments(text: str) -> str:
    """Comments off every line from the first DWARF section on (ops and `.loc` lines come before it)."""
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if re.match(r"\s*\.section\s+\.debug_", line))
    return "\n".join(lines[:first] + [re.sub(r"\s*(//|;).*$", "", line) for line in lines[first:]])


def _locs(path: Path, text: str) -> list:
    stage = path.suffix[1:]
    return [(op.lineno, op.op, op.loc) for op in parse(stage, text, str(path)).ops]


def test_every_commented_dwarf_decodes_the_same_from_its_bytes():
    files = _commented()
    assert len(files) >= 60
    inlined = by_dwarf = 0
    for f in files:
        text = read_text(f)
        by_dwarf += "@[" not in text  # no comment chains: the ops' calls come from the DWARF
        want = _locs(f, text)
        assert _locs(f, _strip_debug_comments(text)) == want, f
        inlined += any(loc is not None and loc.chain for _, _, loc in want)
    assert inlined >= 20 and by_dwarf >= 9


@pytest.mark.parametrize(("entry", "stage", "line", "ops"), [  # (ops whose outermost position is the kernel's line)
    # 3.0 PTX: tl.sum's shuffles and shared-memory reduction, inlined at the kernel's line 31
    ("3.0/472f2db48e277c5f0023245f8ef29a9a0281cd7e30dec0eef0f094c9f5c5b55f/layer_norm_kernel", "ptx", 31, 63),
    # 3.1 AMDGCN: `DW_AT_ranges` into .debug_ranges; the unit's length is a label difference
    ("3.1/da3a4addcb4383952a9edebd25927219042fdb0abe1640e05436fefbe8ecc8c7/softmax_kernel", "amdgcn", 23, 71),
    # 2.2: the kernel's call of tl.max is scoped in a DILexicalBlockFile of standard.py (LLIR), and its
    # DWARF call_file is standard.py: 8 ops each (the fsub), the reduction at `standard.py:26`
    ("../releases-2.0-2.2/2.2/28415eb6824cf6c1bfde1d11a5d63965/softmax_kernel", "llir", 26, 58),
    ("../releases-2.0-2.2/2.2/28415eb6824cf6c1bfde1d11a5d63965/softmax_kernel", "ptx", 26, 62),
])
def test_uncommented_dwarf_of_old_releases_places_inlined_ops_at_their_call(entry, stage, line, ops):
    """These ops were attributed to standard.py (8 PTX ops and 0 AMDGCN ops at the kernel's line)."""
    path = RELEASES / f"{entry}.{stage}"
    module = parse(stage, read_text(path), str(path))
    kernel_file = "layer_norm.py" if "layer_norm" in entry else "kernels2x.py" if "2.2" in entry else "softmax.py"
    assert len(module.ops_for_line(line, kernel_file)) == ops


def _die(offset: int, size: int, line: str) -> list[str]:
    return [f".b8 4  // Abbrev [4] {offset:#x}:{size:#x} DW_TAG_inlined_subroutine",
            ".b64 $L__tmp1  // DW_AT_low_pc", ".b64 $L__tmp2  // DW_AT_high_pc",
            ".b8 1  // DW_AT_call_file", f"{line}  // DW_AT_call_line", ".b8 5  // DW_AT_call_column"]


def test_nesting_follows_the_entries_extents_and_a_damaged_line_is_no_line():
    """Calls nest by their entries' byte extents (found in one pass: the pairwise search took minutes on
    30,000 inlined calls); a call line of 2**64 - 1 (damaged) made every stage's source 'not the source it
    was compiled from' (no source shown at all): it is no line."""
    from tritonscope.stages.dwarf_inline import read_inlined_calls

    lines = _die(0x10, 0x40, ".b8 7") + _die(0x20, 0x10, ".b8 8") + _die(0x60, 0x10, ".b64 18446744073709551615")
    a, b, c = read_inlined_calls(lines, [])
    assert (a.depth, a.parent, b.depth, b.parent, c.depth, c.parent) == (0, None, 1, a, 0, None)
    assert (a.call_line, b.call_line, c.call_line) == (7, 8, 0)
