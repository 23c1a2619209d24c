"""The one ordered table of stages (modelled on the stage list of Triton's `compiler.py`): a new stage
is one row here plus one parser module under `tritonscope/stages/`.

Rows are in the order a cache entry's files are listed (the compile pipeline, each binary after the
assembly it was built from, disassemblies after the binaries, metadata last). Every stage list of the
code is a view of this table, below.
"""

from __future__ import annotations

from dataclasses import dataclass

BOTH = ("cuda", "hip")


@dataclass(frozen=True, slots=True)
class Stage:
    name: str
    suffix: str | None  # the file in a cache entry ('.ttgir'); None for a disassembly
    form: str  # 'text' | 'binary' | 'disassembly' (of `derived_from`, by an external tool) | 'metadata'
    title: str
    backends: tuple[str, ...] = BOTH
    derived_from: str | None = None
    parser: str | None = None  # module under tritonscope.stages that parses its text
    mapped: bool = False  # listed by map / report / show's parse (glir is the same text as source)
    columns: bool = True  # its locations carry columns (disassemblies: lines only)
    isa: bool = False  # an assembly the hardware runs (or its disassembly)
    diffed: bool = False  # normalized and compared by diff / snapshot
    default_view: bool = False  # in report's default panes (for the entry's backend)
    comment: str | None = "//"  # what starts a line comment in its text (None: no comments, or no text)


STAGES: tuple[Stage, ...] = (
    Stage("source", ".source", "text", "Source module (TTIR before passes; Gluon: the Gluon module)",
          parser="mlir", mapped=True, diffed=True),
    Stage("glir", ".glir", "text", "Gluon IR as built (Triton 3.9+)", parser="mlir"),
    Stage("ttir", ".ttir", "text", "Triton IR", parser="mlir", mapped=True, diffed=True),
    Stage("ttgir", ".ttgir", "text", "Triton GPU IR", parser="mlir", mapped=True, diffed=True, default_view=True),
    Stage("llir", ".llir", "text", "LLVM IR", parser="llir", mapped=True, diffed=True, default_view=True,
          comment=";"),
    Stage("ptx", ".ptx", "text", "PTX", ("cuda",), parser="ptx", mapped=True, isa=True, diffed=True,
          default_view=True),
    Stage("cubin", ".cubin", "binary", "CUBIN", ("cuda",), comment=None),
    Stage("amdgcn", ".amdgcn", "text", "AMDGCN", ("hip",), parser="amdgcn", mapped=True, isa=True, diffed=True,
          default_view=True, comment=";"),
    Stage("hsaco", ".hsaco", "binary", "HSACO", ("hip",), comment=None),
    Stage("sass", None, "disassembly", "SASS (nvdisasm)", ("cuda",), derived_from="cubin", parser="sass",
          mapped=True, columns=False, isa=True),
    Stage("hsaco-asm", None, "disassembly", "HSACO disassembly (llvm-objdump)", ("hip",), derived_from="hsaco",
          parser="hsaco", mapped=True, columns=False, isa=True, comment=";"),
    Stage("json", ".json", "metadata", "Triton's metadata", comment=None),
)
BY_NAME = {s.name: s for s in STAGES}

# Views of the table.
STAGE_SUFFIXES: dict[str, str] = {s.name: s.suffix for s in STAGES if s.suffix}
FILE_STAGES = tuple(STAGE_SUFFIXES)  # what a cache entry holds, in display order
TEXT_STAGES = tuple(s.name for s in STAGES if s.form == "text")
BINARY_STAGES = tuple(s.name for s in STAGES if s.form == "binary")
DERIVED_STAGES: dict[str, str] = {s.name: s.derived_from for s in STAGES if s.derived_from}
PARSERS: dict[str, str] = {s.name: s.parser for s in STAGES if s.parser}
MAPPED_STAGES = tuple(s.name for s in STAGES if s.mapped)
SHOWN_STAGES = tuple(s.name for s in STAGES if s.form != "binary")
DIFFED_STAGES = tuple(s.name for s in STAGES if s.diffed)
ISA_STAGES = tuple(s.name for s in STAGES if s.isa)
TEXT_ISA_STAGES = tuple(s.name for s in STAGES if s.isa and s.form == "text")
LINE_ONLY_STAGES = tuple(s.name for s in STAGES if s.mapped and not s.columns)
COMMENT_MARKS: dict[str, str] = {s.name: s.comment for s in STAGES if s.comment}


def default_view(backend: str | None) -> tuple[str, ...]:
    """report's default panes for a backend (both backends' when it is unknown)."""
    return tuple(s.name for s in STAGES if s.default_view and (backend is None or backend in s.backends))
