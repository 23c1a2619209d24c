"""Per source line, the ops of every stage: the join of all stages through their SourceLoc chains.

An op belongs to the user's line of its OUTERMOST location: code of an inlined helper (`_row_max`,
`tl.sum` in standard.py) counts for the line that called it, while the inner chain stays on the op
for display. Ops with no location, with line 0 / `loc(unknown)`, or whose outermost position lies in
another file are counted apart, never guessed.

Plain data in, plain data out: loading stages is `load_kernel_map`, everything else is pure.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tritonscope.artifacts import tools
from tritonscope.errors import ToolMissing, TritonscopeError, UsageError
from tritonscope.srcmap.paths import kernel_names
from tritonscope.stages import memops, parse, parse_entry_stage
from tritonscope.stages.common import Module, Op, SourceLoc, kernel_source_file, same_file
from tritonscope.stages.table import MAPPED_STAGES

if TYPE_CHECKING:
    from tritonscope.artifacts.cache import KernelEntry
    from tritonscope.artifacts.tools import RunningTool

# The stages `map` shows, in pipeline order.
MAP_STAGES = MAPPED_STAGES
# Stage aliases accepted by --stages: `hsaco` means its disassembly.
STAGE_ALIASES = {"hsaco": "hsaco-asm", "cubin": "sass"}
_BINARY_OF = {"sass": "cubin", "hsaco-asm": "hsaco"}


@dataclass
class KernelMap:
    """The parsed stages of one kernel and which stages were skipped (and why)."""

    name: str
    hash: str
    target: str | None
    triton_version: str | None
    stages: dict[str, Module] = field(default_factory=dict)
    # the release the metadata's fields show where it names none (KernelEntry.triton_version_inferred): `3.2`, `2.2`
    triton_version_inferred: str | None = None
    skipped: dict[str, str] = field(default_factory=dict)
    source_file: str | None = None  # the user's file, as the IR names it
    compiled_at: float | None = None  # when Triton wrote the entry (its folder's mtime), where known

    def ops_at(self, stage: str, line: int, file: str | None = None, col: int | None = None) -> list[Op]:
        """Ops attributed to `line` of the user's file (by their outermost position), and the ops of a
        helper defined in that file that were written on the line (an inner element of their chain is
        it: FlagGems' `global_quick_unique_flat_impl`, inlined at its call, has its own lines). For another
        file (a helper library such as triton/language/standard.py), ops whose chain passes through that
        line."""
        file = file or self.source_file
        if self.is_user_file(file):
            return [op for op in self.stages[stage].ops
                    if op.loc is not None and (_attributed_to(op, file, line, col)
                                               or op.loc.names(file, line, col, inner=True))]
        return [op for op in self.stages[stage].ops if op.loc is not None and op.loc.names(file, line, col)]

    def is_user_file(self, file: str | None) -> bool:
        return file is None or self.source_file is None or same_file(file, self.source_file)

    def named_files(self) -> dict[str, int]:
        """Every file a location of this kernel names (its own function's and its inlined callees'), with
        the last line named in it. The only files whose text the tool may read (srcmap.paths). Where no
        stage parsed locates the kernel's def (PTX, SASS and AMDGCN do not), its file must define it
        somewhere (`NamedFiles.defs`' line 0)."""
        named = named_files(self.stages.values())
        if self.source_file and self.source_file in named and not named.defs.get(self.source_file):
            stage_path = next((m.path for m in self.stages.values() if getattr(m, "path", None)), None)
            named.defs[self.source_file] = {(kernel_names(self.name, stage_path), 0)}  # (a `repr=` name too)
        return named


_FAITHFUL_STAGES = frozenset(("source", "glir", "ttir", "ttgir", "llir", "ptx", "amdgcn"))


class NamedFiles(dict):
    """File -> the last line a kernel's locations name in it; `.defs`: file -> {(function, line)}, where the
    IR locates a function's `def` (MLIR's `tt.func ... loc(...)`: the kernel and the helpers it keeps);
    `.lines`: file -> every line the IR names in it (not a binary's line table: SASS, hsaco-asm)."""

    def __init__(self) -> None:
        super().__init__()
        self.defs: dict[str, set[tuple[str, int]]] = {}
        self.lines: dict[str, set[int]] = {}


def named_files(modules) -> NamedFiles:
    """File -> the last line the modules' locations name in it (0: none but unknown lines), with the
    functions' def lines (`NamedFiles.defs`)."""
    out = NamedFiles()
    for module in modules:
        for function, loc in getattr(module, "function_locs", {}).items():
            if loc is not None and loc.file and loc.line > 0 and function:
                out.defs.setdefault(loc.file, set()).add((kernel_names(function, getattr(module, "path", None)),
                                                          loc.line))
        seen: set[int] = set()
        # (the IR's own locations, PTX's and AMDGCN's as their parsers read them; a binary's line table, as
        # nvdisasm or llvm-objdump print it, also names the lines LLVM numbered inside an inline asm string
        # from its call's line: a blank line after the call, no source position)
        faithful = getattr(module, "stage", None) in _FAITHFUL_STAGES
        for op in module.ops:
            loc = op.loc
            if loc is None or id(loc) in seen:
                continue
            seen.add(id(loc))
            for p in loc.chain():
                if p.file and out.get(p.file, -1) < p.line:
                    out[p.file] = p.line
                if p.file and p.line > 0 and faithful:
                    out.lines.setdefault(p.file, set()).add(p.line)
    return out


@dataclass
class Coverage:
    """How many ops of a stage have a real user line, an explicit no-line, or no location at all."""

    stage: str
    ops: int = 0
    attributed: int = 0  # outermost location has a line > 0
    unknown: int = 0  # line 0 / loc(unknown) / `.loc 1 0 0`
    no_loc: int = 0  # nothing in the file locates it
    other_file: int = 0  # attributed, but to a file other than the user's (a subset of `attributed`)

    @property
    def percent(self) -> float:
        return 100.0 * self.attributed / self.ops if self.ops else 0.0

    def to_json(self) -> dict:
        return {"stage": self.stage, "ops": self.ops, "attributed": self.attributed, "unknown": self.unknown,
                "no_loc": self.no_loc, "other_file": self.other_file, "percent": round(self.percent, 2)}


def default_stages(entry: KernelEntry) -> list[str]:
    out = []
    for stage in MAP_STAGES:
        files = entry.files
        if stage in files or (stage in _BINARY_OF and _BINARY_OF[stage] in files):
            out.append(stage)
    return out


def parse_stage_list(text: str | None, entry: KernelEntry, option: str = "--stages") -> tuple[list[str], bool]:
    """`--stages ttir,ptx,sass` -> stage names; (default stages, False) when not given. `option` is named in
    the error for an unknown stage."""
    if not text:
        return default_stages(entry), False
    out = []
    for raw in text.split(","):
        name = STAGE_ALIASES.get(raw.strip().lower(), raw.strip().lower())
        if not name:
            continue
        if name not in MAP_STAGES:
            raise UsageError(f"{option}: unknown stage {raw.strip()!r} (known: {', '.join(MAP_STAGES)})")
        if name not in out:
            out.append(name)
    return out, True


def kernel_map_of(entry: KernelEntry) -> KernelMap:
    """An entry's KernelMap with no stage parsed yet."""
    target = entry.target
    return KernelMap(entry.name, entry.hash, str(target) if target else None, entry.triton_version,
                     triton_version_inferred=entry.triton_version_inferred, compiled_at=entry.compiled_at)


def load_kernel_map(entry: KernelEntry, stages: list[str], explicit: bool = False) -> KernelMap:
    """Parse each stage. A stage whose disassembler is missing, or whose text does not read (not UTF-8, a NUL
    byte), is skipped with the reason, unless the user named it (`explicit`), in which case the error
    propagates."""
    kmap = kernel_map_of(entry)
    # nvdisasm takes longer than parsing every text stage of the largest kernel: start it first and
    # parse the others while it runs (its errors surface at the sass stage, as before).
    sass = _start_sass(entry) if "sass" in stages and "cubin" in entry.files else None
    try:
        for stage in stages:
            binary = _BINARY_OF.get(stage)
            if stage not in entry.files and (binary is None or binary not in entry.files):
                if explicit:
                    raise entry.missing_stage(binary or stage)
                continue
            try:
                if stage == "sass" and sass is not None:
                    kmap.stages[stage] = _finish_sass(entry, sass)
                else:
                    kmap.stages[stage] = parse_entry_stage(entry, stage)
            except ToolMissing as e:
                if explicit:
                    raise
                kmap.skipped[stage] = e.message
            except TritonscopeError as e:
                if explicit:
                    raise
                # (a text stage that does not read, `.source` not UTF-8: the others are mapped, as `loads` and
                # `report` go on; its file and line said with the skip)
                kmap.skipped[stage] = e.message if e.path and str(e.path) in e.message else str(e)
    finally:
        if sass is not None and not isinstance(sass, TritonscopeError):
            sass.close()
    if "sass" in kmap.stages:
        from tritonscope.stages import correct_entry_sass

        correct_entry_sass(entry, kmap.stages["sass"], kmap.stages.get("ptx"))
    kmap.source_file = user_file(kmap)
    return kmap


def _start_sass(entry: KernelEntry) -> RunningTool | TritonscopeError:
    try:
        return tools.start_disassemble_cubin(entry.stage_path("cubin"))
    except TritonscopeError as e:
        return e


def _finish_sass(entry: KernelEntry, sass: RunningTool | TritonscopeError) -> Module:
    if isinstance(sass, TritonscopeError):
        raise sass
    return parse("sass", sass.output(), str(entry.stage_path("cubin")))


def user_file(kmap: KernelMap) -> str | None:
    """The file most ops of the first stages trace back to: the kernel's own source."""
    return kernel_source_file(kmap.stages[s] for s in _SOURCE_ORDER if s in kmap.stages)


# The stages whose locations say best which file is the kernel's, first first.
_SOURCE_ORDER = ("ttir", "ttgir", "source", "llir", "ptx", "amdgcn", "sass", "hsaco-asm")


def _attributed_to(op: Op, file: str | None, line: int, col: int | None) -> bool:
    if op.loc is None:
        return False
    outer = op.loc.outermost()
    return outer.line == line and same_file(outer.file, file) and (col is None or outer.col == col)


def inlined_line_counts(module: Module, user: str | None) -> Counter[int]:
    """Lines of the user's file -> ops written there inside a helper and counted (by `_count`) at the line
    that called it: each op once per line an inner element of its chain names (not its outermost line)."""
    counts: Counter[int] = Counter()
    per_loc: dict[int, tuple[int, ...]] = {}  # ops share their SourceLoc objects: one walk per distinct one
    in_user_file: dict[str, bool] = {}
    for op in module.ops:
        loc = op.loc
        if loc is None or loc.inlined_at is None:
            continue
        lines = per_loc.get(id(loc))
        if lines is None:
            chain = loc.chain()
            outer = chain[-1].line
            found = set()
            for p in chain[:-1]:
                same = in_user_file.get(p.file)
                if same is None:
                    same = in_user_file[p.file] = same_file(p.file, user)
                if same and p.line and p.line != outer:
                    found.add(p.line)
            lines = per_loc[id(loc)] = tuple(found)
        for n in lines:
            counts[n] += 1
    return counts


def helper_line_counts(module: Module, user: str | None) -> dict[str, Counter[int]]:
    """Files other than the user's that ops were written in (a helper inlined from another module: an
    inner element of the op's chain; a function kept as a call: its outermost) -> line -> ops written
    there: each op once per (file, line) its chain names."""
    out: dict[str, Counter[int]] = {}
    for places in helper_places(module, user):
        for f, n in places:
            out.setdefault(f, Counter())[n] += 1
    return out


def helper_places(module: Module, user: str | None):
    """Per op with a location: the (file, line) pairs of its chain outside the user's file."""
    per_loc: dict[int, tuple[tuple[str, int], ...]] = {}  # ops share their SourceLoc objects
    in_user_file: dict[str, bool] = {}
    for op in module.ops:
        loc = op.loc
        if loc is None:
            continue
        places = per_loc.get(id(loc))
        if places is None:
            found = set()
            for p in loc.chain():
                if not p.file or not p.line:
                    continue
                same = in_user_file.get(p.file)
                if same is None:
                    same = in_user_file[p.file] = same_file(p.file, user)
                if not same:
                    found.add((p.file, p.line))
            places = per_loc[id(loc)] = tuple(found)
        yield places


def stage_has_columns(module: Module) -> bool:
    return any(op.loc is not None and op.loc.outermost().col for op in module.ops)


def coverage(module: Module, user: str | None = None) -> Coverage:
    return _count(module, user)[1]


def _count(module: Module, user: str | None) -> tuple[Counter[int], Coverage]:
    """One pass over a stage's ops: lines of the user's file -> op count, and the coverage."""
    cov = Coverage(module.stage, ops=len(module.ops))
    counts: Counter[int] = Counter()
    in_user_file: dict[str, bool] = {}  # same_file per distinct file: ops share a handful of files
    for op in module.ops:
        if op.loc is None:
            cov.no_loc += 1
            continue
        outer = op.loc.outermost()
        if not outer.known:
            cov.unknown += 1
            continue
        cov.attributed += 1
        same = in_user_file.get(outer.file)
        if same is None:
            same = in_user_file[outer.file] = same_file(outer.file, user)
        if same:
            counts[outer.line] += 1
        elif user is not None:
            cov.other_file += 1
    return counts, cov


def line_counts(kmap: KernelMap, file: str | None = None) -> tuple[dict[str, Counter[int]], dict[str, Coverage]]:
    """Per stage: source line -> number of ops attributed to it (in the user's file); and coverage."""
    file = file or kmap.source_file
    per_stage: dict[str, Counter[int]] = {}
    covs: dict[str, Coverage] = {}
    for stage, module in kmap.stages.items():
        per_stage[stage], covs[stage] = _count(module, file)
    return per_stage, covs


def kind_counts(stage: str, ops: list[Op]) -> Counter[str]:
    """Op kinds in first-seen order (Counter keeps insertion order)."""
    return Counter(op.op for op in ops)


def memory_kind(stage: str, op: Op) -> str | None:
    """A short name for a memory access (`load <8 x half>`, `global_load_dwordx4`), else None.

    The classification is memops' (the one table of memory forms); LLIR inline asm keeps an `asm` prefix
    so that the flow line says where the instruction came from.
    """
    acc = memops.classify(stage, op)
    if acc is None:
        return None
    if stage == "llir" and op.op == "call" and " asm " in op.text:
        return f"asm {acc.form}"
    return acc.form


def memory_flow(per_stage_kinds: dict[str, list[str | None]]) -> list[tuple[str, Counter[str]]]:
    """`tt.load x1 -> load <8 x half> x16 -> global_load_dwordx4 x16` as data: per stage, kind -> count,
    from each stage's `memory_kind` of its ops (None: not a memory access)."""
    return [(stage, Counter(k for k in kinds if k)) for stage, kinds in per_stage_kinds.items()]


def find_ops(module: Module, at: int | None = None, grep: str | None = None) -> list[Op]:
    """Reverse lookup: the op at text line `at` (the op it continues, or the next op when `at` is a
    directive), or every op whose text matches the regular expression `grep`."""
    if grep is not None:
        try:
            pattern = re.compile(grep)
        except re.error as e:
            raise UsageError(f"--grep: bad regular expression: {e}") from None
        return [op for op in module.ops if pattern.search(op.text)]
    if at is None:
        return []
    owner = module.continued.get(at)  # a later line of a multi-line op (a tt.reduce's `}) : ...`)
    if owner is not None:
        return [owner]
    for op in module.ops:
        if op.lineno >= at:
            return [op]
    return []


def chain_json(loc: SourceLoc | None) -> list[dict]:
    """The chain innermost first, as flat records (easier to consume than nested inlined_at)."""
    if loc is None:
        return []
    out = []
    for p in loc.chain():
        d = {"file": p.file, "line": p.line, "col": p.col}
        if p.name:
            d["name"] = p.name
        out.append(d)
    return out
