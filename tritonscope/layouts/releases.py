"""Layout semantics per Triton release: which release changed how a layout becomes a linear layout.

Each change was found by recording every release's own answer on the same cases and diffing the records,
not assumed: its `to_linear_layout` from 3.6 (tests/layout_oracle_record.py;
tests/data/layout-oracle/triton-X.Y.json), for 3.5 its Gluon `convert_layout(..., assert_trivial=True)`
check (tests/layout_equivalence.py), and for every release from 2.2 its code generator: a TTGIR kernel
that hands each register of an element-index tensor in the layout to an inline asm, compiled by that
release, its LLVM IR evaluated per thread (tests/layout_codegen.py; codegen-X.Y.json). 2.0 and 2.1 (no
inline asm op to probe with) are decoded with 2.2's semantics. A conversion asks `active()`, which
`using()` sets for the duration of one call (a ContextVar: no parameter threaded through every converter).
"""

from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar
from dataclasses import dataclass

from tritonscope.errors import TritonscopeError, UsageError

NEWEST = (3, 9)
OLDEST_RECORDED = (2, 2)  # the oldest release checked (its code generator: tests/layout_codegen.py)
RECORDED = ((3, 6), (3, 7), (3, 8), (3, 9))  # releases with an oracle record in tests/data/layout-oracle
# releases whose own `to_linear_layout` is not exposed, checked through Gluon's `convert_layout(...,
# assert_trivial=True)` (tests/layout_equivalence.py; tests/data/layout-oracle/equivalence-X.Y.json):
# which lane, warp and block hold each element, not the order of a thread's registers
EQUIVALENCE_RECORDED = ((3, 5),)
# releases whose code generator placed each case's elements (tests/layout_codegen.py;
# tests/data/layout-oracle/codegen-X.Y.json): lanes, warps and the order of a thread's registers
CODEGEN_RECORDED = ((2, 2), (2, 3), (3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7), (3, 8),
                    (3, 9))


@dataclass(frozen=True, slots=True)
class Change:
    id: str
    since: tuple[int, int]  # the first release with the new behaviour
    kind: str
    what: str
    modelled: bool = True
    smaller_than_tile: bool = False  # only a tensor smaller than the layout's tile along some dim differs


CHANGES: tuple[Change, ...] = (
    Change("mfma-operand-tiles-per-warp", (3, 6), "dot_op(amd_mfma)",
           "an MFMA operand repeats its tiles along its non-K dim by the parent's tilesPerWarp of that dim; 3.5 "
           "reads them transposed (tilesPerWarp[1] along M for operand A): which lanes and warps hold which "
           "elements is checked against 3.5's own conversion check, the order of a thread's registers is not"),
    Change("mfma-16x16-transposed-warp-order", (3, 2), "amd_mfma",
           "a transposed 16x16 MFMA layout numbers its warps along N first (warpsPerCTA = [2, 2]: warp 1 holds "
           "the next 16 columns); up to 3.1 along M first (warp 1: the next 16 rows)"),
    Change("mma-smaller-than-tile", (3, 2), "nvidia_mma",
           "a tensor smaller than the MMA tile along a dim (an 8-row slice of a 16-row mma tile, an N smaller "
           "than wgmma's instrShape N) wraps its elements onto other lanes and registers up to 3.1 (2.2 and 2.3 "
           "leave some of its elements in no register at all). Not modelled: 3.2's placement is shown (tensors "
           "at least one tile large are the same)",
           modelled=False, smaller_than_tile=True),
    Change("slice-broadcast-registers-last", (3, 0), "slice",
           "the registers a slice keeps that only repeat an element along a kept dim (kept up to 3.2) come after "
           "the others; up to 2.3 they keep their place in the parent's register order (a [1, 128] slice of a "
           "sizePerThread = [2, 8, 4], order = [0, 1, 2] parent: the repeat is register bit 0 in 2.3, the last "
           "bit in 3.0)"),
    Change("slice-drops-broadcast-registers", (3, 3), "slice",
           "a slice drops the parent's registers that only repeat an element once the sliced dim is gone (a "
           "[1] slice of a [1, 8]-per-thread parent: 1 register per thread); up to 3.2 they stay as zero "
           "register bases (8 registers, each holding element 0)"),
    Change("blocked-drops-broadcast-registers", (3, 9), "blocked",
           "registers that would only repeat an element (a tensor smaller than the layout's tile) are dropped; "
           "up to 3.8 they stay as zero register bases (a 2x64 tensor under an 8x64 tile: 32 registers per "
           "thread in 3.8, 8 in 3.9)"),
    Change("nvmma-unswizzled-transposed", (3, 8), "nvmma_shared",
           "an unswizzled (swizzlingByteWidth = 0) transposed layout runs along dim 0; up to 3.7 `transposed` "
           "was ignored without a swizzle (dim 1 fastest)"),
    Change("wmma-dot-register-order", (3, 8), "dot_op(amd_wmma)",
           "a WMMA operand's register bases from the parent's ctaLayout repetitions come right after the "
           "kWidth registers; up to 3.7 after the K repetitions within the tile (the same registers in "
           "another order: elements per thread and vectors unchanged). Not modelled: the 3.8 order is shown",
           modelled=False),
)
_BY_ID = {c.id: c for c in CHANGES}


@dataclass(frozen=True, slots=True)
class Semantics:
    """How one release decodes layouts. `release` as asked (3.8), `basis` the recorded semantics used."""

    release: tuple[int, int]
    said: str  # where the release came from: 'default', '--triton-version', 'entry metadata', ...
    # the release is a guess (no metadata names it): loads says the sentence even for the newest release
    guessed: bool = False

    @property
    def basis(self) -> tuple[int, int]:
        return max(OLDEST_RECORDED, min(self.release, NEWEST))

    def has(self, change_id: str) -> bool:
        return self.basis >= _BY_ID[change_id].since

    @property
    def label(self) -> str:
        return f"{self.release[0]}.{self.release[1]}"

    def to_json(self) -> dict:
        return {"triton_version": self.label, "semantics_of": f"{self.basis[0]}.{self.basis[1]}",
                "from": self.said}

    def sentence(self) -> str:
        s = f"layouts decoded as Triton {self.label} does ({self.said})"
        if self.basis != self.release:
            s += f", with the semantics of {self.basis[0]}.{self.basis[1]}"
            if self.release < OLDEST_RECORDED:
                s += " (the oldest release checked)"
        return s

    def unmodelled(self, kind: str) -> list[Change]:
        """Changes to `kind` this release predates that are not modelled (the newer behaviour is shown)."""
        return [c for c in CHANGES if not c.modelled and c.kind == kind and self.basis < c.since]


DEFAULT = Semantics(NEWEST, "default: the newest known release", guessed=True)
_ACTIVE: ContextVar[Semantics] = ContextVar("tritonscope_layout_semantics", default=DEFAULT)
_VERSION = re.compile(r"^\s*(\d+)\.(\d+)(?:\.\d+)?\S*\s*$")


def parse_version(text: str | None) -> tuple[int, int] | None:
    m = _VERSION.match(text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def for_version(text: str | None, said: str) -> Semantics:
    """Semantics of a recorded version string (`3.6.0`); the default when there is none."""
    v = parse_version(text)
    return Semantics(v, said) if v else DEFAULT


def for_entry(entry) -> Semantics:
    """The semantics of a cache entry's release: its metadata's `triton_version` (3.3 and later), else the
    release its metadata's fields show (`KernelEntry.inferred_release`), else the default."""
    if entry.triton_version:
        v = parse_version(entry.triton_version)
        if v is not None:
            return _checked(entry, v) or Semantics(v, "the entry's metadata")
        # (a version with text after it, `3.6\x1b[2J`: no release to read; what the TTGIR shows decides)
        return _unread(entry, "the metadata's triton_version does not read as a release")
    raw = entry.meta("triton_version") if hasattr(entry, "meta") else None
    if raw is not None:  # (a number, a list: not as Triton writes it, a string; what the TTGIR shows decides)
        return _unread(entry, "the metadata's triton_version is not a string, as Triton writes it")
    inferred = entry.inferred_release
    if inferred:
        found = _from_dialect(entry, f"metadata fields of {inferred[1]} (no triton_version), but its TTGIR is "
                                     "later") if inferred[0] <= (3, 2) else None
        if found is not None and found.release > (3, 2):
            # (fields of 3.2 or older beside a TTGIR of the `ttg.` dialect 3.3 named: the TTGIR is the compile's)
            return found
        return Semantics(inferred[0], inferred[2])
    return _from_dialect(entry) or DEFAULT


def _unread(entry, why: str) -> Semantics:
    """A `triton_version` that names no release: what the TTGIR shows, else the newest, said to be a guess."""
    return _from_dialect(entry, why) or Semantics(NEWEST, f"{why}: read as the newest", guessed=True)


# Up to 3.2 the TritonGPU dialect was `triton_gpu.` (3.3 renamed it `ttg.`)
_OLD_DIALECT = "triton_gpu."
_DIALECT_HEAD = 1 << 16


_NEW_DIALECT = "#ttg."
# a named location, `loc("offs"(#loc3))`, came in 3.5 (MLIR's NameLoc on the values Triton names)
_NAME_LOC = re.compile(r'loc\("[^"\n]*"\(#loc')


def _read_dialect(entry) -> tuple[bool, str] | None:
    """(whether the TTGIR spells the dialect `triton_gpu.`, its text); None where the entry has no TTGIR, it
    does not read, or its head shows neither spelling. Read through the entry's shared stages
    (`stages.stage_text`): the command reading it too opens it once."""
    if "ttgir" not in (getattr(entry, "files", None) or {}):
        return None
    try:
        from tritonscope.stages import stage_text

        text = stage_text(entry, "ttgir")
    except (TritonscopeError, OSError):
        return None
    head = text[:_DIALECT_HEAD]
    if _OLD_DIALECT in head:
        return True, text
    if _NEW_DIALECT not in head:
        return None
    return False, text


def _checked(entry, v: tuple[int, int]) -> Semantics | None:
    """None where the metadata's release agrees with what the TTGIR shows; else what the TTGIR shows, said
    to contradict it (a `triton_version` edited, or copied from another entry's metadata)."""
    found = _read_dialect(entry)
    if found is None:
        return None
    old, text = found
    said = f"the metadata's triton_version {v[0]}.{v[1]} contradicts its TTGIR"
    if old and v >= (3, 3):
        return Semantics((3, 2), f"{said}: its `triton_gpu.` dialect is 3.2 or older; read as 3.2", guessed=True)
    if not old and (v <= (3, 2) or (v < (3, 5) and _NAME_LOC.search(text))):
        return _from_dialect(entry, said)
    return None


def _from_dialect(entry, why: str = "no metadata names the release") -> Semantics | None:
    """An entry without metadata that names its release (an interrupted compile, a metadata file cut short):
    a TTGIR that spells the dialect `triton_gpu.` was written by 3.2 or older, and is read with 3.2's
    semantics, the newest such release's. One that spells it `ttg.` is 3.3 or later (3.4 with a `.source`
    stage, 3.5 with named locations): read as the newest, said to be a guess, with the changes since the
    oldest release it may be from (`--triton-version` picks one)."""
    found = _read_dialect(entry)
    if found is None:
        return None
    old, text = found
    if old:
        return Semantics((3, 2), "no metadata; the TTGIR's `triton_gpu.` dialect: 3.2 or older")
    oldest, shown = (3, 3), "its TTGIR's `ttg.` dialect"
    if _NAME_LOC.search(text):
        oldest, shown = (3, 5), "its TTGIR's named locations"
    elif "source" in entry.files:
        oldest, shown = (3, 4), "its `.source` stage"
    changed = sorted({c.kind for c in CHANGES if c.modelled and c.since > oldest})
    since = f"{oldest[0]}.{oldest[1]}"
    before = (NEWEST[0], NEWEST[1] - 1)  # (the release before the newest: 3.8)
    older = since if oldest >= before else f"{since}-{before[0]}.{before[1]}"
    tail = (f"; {older} decode {', '.join(changed)} otherwise in some cases (--triton-version X.Y decodes as "
            "one)") if changed else ""
    return Semantics(NEWEST, f"{why}: {since} or later, by {shown}; read as the newest{tail}", guessed=True)


def from_option(text: str) -> Semantics:
    v = parse_version(text)
    if v is None:
        raise UsageError(f"--triton-version {text!r}: expected a release like 3.8 or 3.6.0")
    if v > NEWEST:
        raise UsageError(f"--triton-version {text}: the newest release known here is {NEWEST[0]}.{NEWEST[1]}")
    return Semantics(v, "--triton-version")


def layout_kind(layout) -> str:
    """`blocked`, or `dot_op(amd_wmma)` for an operand layout: the kinds CHANGES name."""
    parent = getattr(layout, "parent", None)
    return f"{layout.kind}({parent.kind})" if parent is not None and layout.kind == "dot_op" else layout.kind


def notes_for(layout, semantics: Semantics, shape=None, tile=None) -> list[str]:
    """Sentences for the changes this release predates that are not modelled for this layout's kind (one that
    only tensors smaller than the tile show: unless `shape` covers the layout's `tile`)."""
    def shown(c: Change) -> bool:
        return not (c.smaller_than_tile and shape is not None and tile is not None
                    and all(s >= t for s, t in zip(shape, tile, strict=False)))

    return [f"Triton {semantics.label}: {c.what}" for c in semantics.unmodelled(layout_kind(layout)) if shown(c)]


def active() -> Semantics:
    return _ACTIVE.get()


@contextlib.contextmanager
def using(semantics: Semantics | None):
    if semantics is None:
        yield active()
        return
    token = _ACTIVE.set(semantics)
    try:
        yield semantics
    finally:
        _ACTIVE.reset(token)
