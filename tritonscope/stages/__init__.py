"""Stage parsers: text of one compiler stage in, a Module of Ops with SourceLoc chains out.

Each syntax lives in its own module, imported only when that stage is parsed, so `tritonscope ls`
and friends never pay for parsers they do not use.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from tritonscope.errors import TritonscopeError, UsageError
from tritonscope.stages.common import CUT_NOTE, Module, gc_paused, read_text
from tritonscope.stages.table import MAPPED_STAGES, PARSERS

if TYPE_CHECKING:
    from tritonscope.artifacts.cache import KernelEntry
    from tritonscope.stages.ir_positions import IRPositions

# Where the lines the parsers left unparsed go, (stage, path) -> [(line, text)], while a caller collects
# them (`collecting_unparsed`): the CLI reports them after each command ("unparsed lines: N", examples
# under --debug) so unknown syntax is never silently lost. Outside a collection each Module keeps its own.
# An item of line 0 (FILE_REMARK) is said of the whole file (Module.cut: it looks cut short), in words.
Unparsed = dict[tuple[str, str | None], list[tuple[int, str]]]
_SINK: contextvars.ContextVar[Unparsed | None] = contextvars.ContextVar("tritonscope_unparsed", default=None)
# Stages above this many characters are parsed under a "parsing ..." line on a terminal (~2 s and up).
BUSY_CHARS = 32 << 20
FILE_REMARK = 0
# The order stages are listed in by `map` and friends.
PARSED_STAGES = MAPPED_STAGES

__all__ = ["PARSED_STAGES", "PARSERS", "Module", "ParsedEntry", "collecting_unparsed", "entry_stages", "note_unparsed",
           "parse", "parse_entry_stage", "parse_ttgir", "release", "stage_text"]


def parse(stage: str, text: str, path: str | None = None) -> Module:
    """Parse the text of `stage`; raises only ParseError (with path and line) on bad input."""
    try:
        module_name = PARSERS[stage]
    except KeyError:
        raise UsageError(f"no parser for stage {stage!r} (known: {', '.join(PARSERS)})") from None
    parser = importlib.import_module(f"tritonscope.stages.{module_name}")
    if len(text) < BUSY_CHARS:
        with gc_paused():
            module = parser.parse(text, path, stage=stage)
    else:
        from tritonscope.status import busy  # a large stage takes seconds to minutes: say so on a terminal

        with busy(f"parsing {stage} ({len(text) >> 20} MB{', ' + path if path else ''})"), gc_paused():
            module = parser.parse(text, path, stage=stage)
    if not text or text.isspace():  # (stops at the first character that is not blank: no copy of the text)
        module.cut = ""  # (no whole kernel's counts to prove by; the entry's note names the empty file)
    module.line_count = _line_count(text)
    return _noted(module)


def _line_count(text: str) -> int:
    return text.count("\n") + (not text.endswith("\n") and bool(text))


def parse_ttgir(text: str, path: str | None = None) -> Module:
    """A TTGIR text parsed alone (no entry around it), its warp-specialized partitions on their own lines
    as an entry's are (stages/partitions.py)."""
    from tritonscope.stages import partitions

    module = parse("ttgir", text, path)
    partitions.relocate(module, partitions.sites(module, text))
    return module


@contextlib.contextmanager
def collecting_unparsed() -> Iterator[Unparsed]:
    """Collect the unparsed lines of every stage parsed in this context (nested: the innermost)."""
    sink: Unparsed = {}
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


def note_unparsed(unparsed: Unparsed) -> None:
    """Add lines collected elsewhere (a pool worker's) to the current collection, if any."""
    sink = _SINK.get()
    if sink is not None:
        sink.update(unparsed)


def _noted(module: Module) -> Module:
    if module.unparsed or module.cut:  # (a blank text's cut is "": not remarked)
        remark = [(FILE_REMARK, f"{CUT_NOTE}: {module.cut}")] if module.cut else []
        note_unparsed({(module.stage, module.path): module.unparsed + remark})
    return module


class ParsedEntry:
    """One entry's stages, each read once and parsed once, on first use (the idea of Triton's
    `AsmDict.__missing__`): every command and analysis of the entry shares them. `entry_stages(entry)`
    gives the one attached to a KernelEntry; `release(entry)` drops it once a sweep is done with it."""

    def __init__(self, entry: KernelEntry):
        self.entry = entry
        self._texts: dict[str, str] = {}
        self._modules: dict[str, Module] = {}
        self._ir_positions: IRPositions | None = None
        self._partition_sites: frozenset | None = None

    def text(self, stage: str) -> str:
        """The text of a stage (read-only); `sass`/`hsaco-asm` run the disassembler over the binary."""
        if stage not in self._texts:
            self._texts[stage] = _read_stage_text(self.entry, stage)
        return self._texts[stage]

    def preload(self, stage: str, text: str) -> None:
        """A stage's text read elsewhere (the records cache's key reads every file of the entry once)."""
        self._texts.setdefault(stage, text)

    def module(self, stage: str) -> Module:
        """The parsed stage (SASS located through the PTX, hsaco-asm through the DWARF)."""
        if stage not in self._modules:
            self._modules[stage] = _parse_entry_stage(self, stage)
        return self._modules[stage]

    __getitem__ = module

    def ir_positions(self) -> IRPositions:
        """Positions of an IR file in the last MLIR stage's locations (stages/ir_positions.py), once."""
        if self._ir_positions is None:
            from tritonscope.stages import ir_positions

            files = self.entry.files
            stage = "ttgir" if "ttgir" in files else "ttir" if "ttir" in files else None
            try:
                self._ir_positions = ir_positions.scan(self.text(stage)) if stage else ir_positions.NONE
            except TritonscopeError:  # an unreadable MLIR stage: its own command says so
                self._ir_positions = ir_positions.NONE
        return self._ir_positions

    def partition_sites(self) -> frozenset:
        """Where Triton places warp-specialized partitions' calls (stages/partitions.py), once: set when
        the TTGIR is parsed; the TTGIR is parsed for it only where its text has a ttg.warp_specialize."""
        if self._partition_sites is None:
            self._partition_sites = frozenset()
            if "ttgir" in self.entry.files:
                try:
                    if "ttg.warp_specialize" in self.text("ttgir"):
                        self.module("ttgir")  # sets them
                except TritonscopeError:  # an unreadable TTGIR: its own command says so
                    pass
        return self._partition_sites

    def has_module(self, stage: str) -> bool:
        return stage in self._modules

    def cached_text(self, stage: str) -> str | None:
        """The stage's text if it was read already (and not dropped), else None: reads nothing."""
        return self._texts.get(stage)

    def drop_text(self, stage: str) -> None:
        """Forget a stage's text once nothing more will ask for it (a 64 MB LLIR need not stay twice)."""
        self._texts.pop(stage, None)


def entry_stages(entry: KernelEntry) -> ParsedEntry:
    parsed = getattr(entry, "_parsed", None)
    if parsed is None:
        parsed = ParsedEntry(entry)
        entry._parsed = parsed
    return parsed


def release(entry: KernelEntry) -> None:
    """Forget an entry's texts and modules (a sweep over many entries keeps memory flat)."""
    entry._parsed = None


def stage_text(entry: KernelEntry, stage: str) -> str:
    """The text of a stage; `sass`/`hsaco-asm` run the disassembler over the binary stage (read once)."""
    return entry_stages(entry).text(stage)


def _read_stage_text(entry: KernelEntry, stage: str) -> str:
    from tritonscope.artifacts import tools

    if stage == "sass":
        return tools.disassemble_cubin(entry.stage_path("cubin"))
    if stage == "hsaco-asm":
        path = entry.stage_path("hsaco")
        # the code object names the processor it is for (its ELF header's e_flags): that, not what the
        # metadata says, is what llvm-objdump must decode; an ELF of another machine is no code object
        arch = tools.hsaco_arch(path)
        if arch is None:
            target = entry.target
            if target is None:
                raise TritonscopeError("unknown target arch: no metadata to pick an llvm-objdump --mcpu, and the "
                                       "code object names none", str(path))
            arch = target.arch
        return tools.disassemble_hsaco(path, arch)
    return read_text(entry.stage_path(stage))


def parse_entry_stage(entry: KernelEntry, stage: str) -> Module:
    """Read (read-only) and parse one stage of a cache entry, once; disassembles for sass / hsaco-asm."""
    return entry_stages(entry).module(stage)


def _parse_entry_stage(parsed: ParsedEntry, stage: str) -> Module:
    entry = parsed.entry
    if stage == "sass":
        path = str(entry.stage_path("cubin"))
    elif stage == "hsaco-asm":
        from tritonscope.artifacts import tools
        from tritonscope.stages import hsaco

        path = str(entry.stage_path("hsaco"))
        text = parsed.text(stage)
        # llvm-objdump prints innermost lines only; the DWARF says where inlined code was called
        module = _noted(hsaco.parse(text, path, stage=stage, dwarf=tools.dwarfdump_hsaco(path)))
        module.line_count = _line_count(text)  # (as parse() counts it: `map --at N` is checked against it)
        _locate(parsed, module)
        return module
    else:
        path = str(entry.stage_path(stage))
    text = parsed.text(stage)
    module = parse(stage, text, path)
    if stage == "ttgir":
        from tritonscope.stages import partitions

        parsed._partition_sites = partitions.sites(module, text)
    if stage == "sass":
        correct_entry_sass(entry, module)
    else:
        _locate(parsed, module)
    return module


# Stages whose locations are LLVM's debug info: an IR file's position reads as the kernel file's there.
_BELOW_MLIR = ("llir", "ptx", "amdgcn", "sass", "hsaco-asm")


# Stages whose ops carry source chains (the source file itself and the binaries' listings do not).
_LOCATED_STAGES = ("source", "ttir", "ttgir", "glir", *_BELOW_MLIR)


def _locate(parsed: ParsedEntry, module: Module) -> None:
    """The entry-wide location corrections, once per parsed stage: warp-specialized partitions on their own
    lines (stages/partitions.py), below MLIR an IR file's positions back to it (stages/ir_positions.py)."""
    if module.stage in _LOCATED_STAGES:
        from tritonscope.stages import partitions

        partitions.relocate(module, parsed.partition_sites())
    if module.stage in _BELOW_MLIR:
        from tritonscope.stages import ir_positions

        ir_positions.relabel(module, parsed.ir_positions())


def correct_entry_sass(entry: KernelEntry, sass: Module, ptx: Module | None = None) -> int:
    """Correct `sass` (parsed from `entry`'s cubin) from the entry's PTX, once; how many moved. Every
    consumer of an entry's SASS comes through here (stages/sass_lines.py holds the corrections), and
    the positions of an IR file go back to it (stages/ir_positions.py)."""
    moved = _correct_entry_sass(entry, sass, ptx)
    _locate(entry_stages(entry), sass)  # what -gp placed has the PTX's chains, located already; the rest by line
    return moved


def _correct_entry_sass(entry: KernelEntry, sass: Module, ptx: Module | None) -> int:
    from tritonscope.stages import ptx as ptx_parser
    from tritonscope.stages import sass_lines

    if sass_lines.corrected(sass):
        return 0
    if "ptx" not in entry.files:  # (no PTX to place them through: the cubin's table, which ptxas built, stands)
        sass.notes.append(sass_lines.NO_PTX_NOTE)
        return 0
    has_ptx_lines = any(op.ptx_line is not None for op in sass.ops)
    try:
        ptx = ptx or parse_entry_stage(entry, "ptx")
        if has_ptx_lines:
            return sass_lines.place_through_ptx(sass, ptx)
        sass.notes.append(sass_lines.NO_PTX_LINES_NOTE)
        if not ptx.notes:  # no inline-asm `.loc`s were ignored: SASS lines need no correction
            return 0
        path = str(entry.stage_path("ptx"))
        raw = ptx_parser.parse(stage_text(entry, "ptx"), path, inline_asm_locs=True)
    except TritonscopeError:
        return 0
    return sass_lines.correct_sass_lines(sass, raw, ptx)
