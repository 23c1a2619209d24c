"""The model every stage parser produces: a Module of Ops, each with a SourceLoc chain.

SourceLoc is the one currency all stages speak, so joining stages is a lookup by (file, line),
not a per-pair special case.
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tritonscope.errors import ParseError
from tritonscope.lazyre import lazy_compile

# Views of the stage table (tritonscope/stages/table.py), re-exported for their many importers.
from tritonscope.stages.table import BINARY_STAGES, DERIVED_STAGES, STAGE_SUFFIXES, TEXT_STAGES  # noqa: F401

# Triton's own jit functions (`tl.sum`, `tl.cumsum`, philox, Gluon's): their ops count for the line that
# called them, they are nobody's "written here"
TRITON_LIBRARY = lazy_compile(r"/triton/(?:experimental/gluon/)?language/")


# How the stages quote a file name. MLIR locations and LLVM IR (`llvm::printEscapedString`): `\\` and `\XX`
# (two hex digits) for `"`, `\` and every byte outside printable ASCII, so `josé` is `jos\C3\A9`. PTX,
# AMDGCN and nvdisasm's SASS (LLVM's MC printer, C style): `\\`, `\"`, `\b\f\n\r\t` and `\ooo` (octal).
_LLVM_ESCAPE = lazy_compile(rb"\\(\\|[0-9A-Fa-f]{2})")
_C_ESCAPE = lazy_compile(rb'\\([0-7]{1,3}|[\\"\'?abfnrtv])')
_C_NAMED = {b"a": 7, b"b": 8, b"f": 12, b"n": 10, b"r": 13, b"t": 9, b"v": 11}


def unescape_llvm(text: str) -> str:
    """A file name as MLIR or LLVM IR quotes it, decoded (its bytes as UTF-8)."""
    if "\\" not in text:
        return text
    raw = _LLVM_ESCAPE.sub(lambda m: m.group(1) if m.group(1) == b"\\" else bytes((int(m.group(1), 16),)),
                           text.encode("utf-8", "surrogateescape"))
    return raw.decode("utf-8", "backslashreplace")


def unescape_c(text: str) -> str:
    """A file name as PTX, AMDGCN or SASS quotes it, decoded (its bytes as UTF-8)."""
    if "\\" not in text:
        return text

    def byte(m) -> bytes:
        e = m.group(1)
        if e[:1].isdigit():
            return bytes((int(e, 8) & 0xFF,))
        return bytes((_C_NAMED[e],)) if e in _C_NAMED else e

    return _C_ESCAPE.sub(byte, text.encode("utf-8", "surrogateescape")).decode("utf-8", "backslashreplace")


def source_lines(text: str) -> list[str]:
    """A Python file's lines as Python and Triton number them: broken at `\n`, `\r\n` and `\r` only.
    (`str.splitlines` also breaks at form feeds, `\x1c`-`\x1e`, NEL and U+2028/9, which a source may
    hold in a comment or a string: every line after one would be shown against the wrong number.)"""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def same_file(a: str, b: str | None) -> bool:
    """Whether two paths name one source file. `b` None: any file. Two absolute paths (as the IR records
    them) are one file only if they are equal once normalized: a helper's `utils.py` in another package
    is not the kernel's `utils.py`. A name or a relative path (`--file utils.py`, `ops/utils.py`, a
    script run by a relative name) matches by its trailing components."""
    if b is None or a == b:
        return True
    if os.path.basename(a) != os.path.basename(b):
        return False
    if os.path.isabs(a) and os.path.isabs(b):
        return os.path.normpath(a) == os.path.normpath(b)
    pa, pb = Path(a).parts, Path(b).parts
    short, long = (pa, pb) if len(pa) <= len(pb) else (pb, pa)
    return long[len(long) - len(short):] == short


def file_label(path: str, kernel_file: str) -> str:
    """A helper file as a label names it: its basename, with as many parent folders as set it apart from
    the kernel's file of the same name (`b/utils.py` beside the kernel's `a/utils.py`)."""
    parts, own = Path(path).parts, Path(kernel_file).parts
    if not parts or parts == own:  # (the kernel's file itself, listed beside another shown: `map --file F`)
        return parts[-1] if parts else path
    n = 1
    while n < len(parts) and parts[-n:] == own[-n:]:
        n += 1
    return str(Path(*parts[-n:]))  # (all of an absolute path: one leading `/`)


def resolve_file(asked: str, recorded, prefer: str | None = None) -> str:
    """The recorded path (as the IR spells it) that a user's `--file` names: itself; else those ending with
    its trailing components (`utils.py`, `ops/utils.py`); else, for an absolute path elsewhere (the user's
    own checkout of the file), those sharing the most trailing components with it (its basename at
    least). Several: `prefer` (the kernel's file) if among them, else a usage error naming them. None:
    `asked` unchanged (no location names it). A bare name that a recorded path ends with is that path as
    comment chains spell it (PTX and AMDGCN `@[ utils.py:24:23 ]`), no file of its own."""
    recorded = set(recorded)
    spelled = {Path(f).name for f in recorded if Path(f).name != f}
    recorded = {f for f in recorded if f not in spelled}
    if asked in recorded:
        return asked
    found = sorted(f for f in recorded if same_file(f, asked))
    if not found and os.path.isabs(asked):
        def shared(f: str) -> int:
            n = 0
            for x, y in zip(reversed(Path(f).parts), reversed(Path(asked).parts), strict=False):
                if x != y:
                    break
                n += 1
            return n

        best = max((shared(f) for f in recorded), default=0)
        found = sorted(f for f in recorded if best and shared(f) == best)
    if len(found) == 1:
        return found[0]
    if not found:
        return asked
    if prefer in found:
        return prefer
    from tritonscope.errors import UsageError

    raise UsageError(f"--file {asked} names {len(found)} files of this kernel: {', '.join(found)} "
                     "(give more of the path)")


@dataclass(frozen=True, slots=True)
class SourceLoc:
    """A source position with the chain of call sites it was inlined into.

    `inlined_at` points to the caller's position (the user's line that called the helper); the
    outermost position of the chain is the one a user wrote in the kernel being compiled.
    `line == 0` means the compiler emitted a location with no line (`.loc 1 0 0`).
    """

    file: str
    line: int
    col: int = 0
    inlined_at: SourceLoc | None = None
    name: str | None = None  # MLIR NameLoc (named SSA value, Triton >= 3.5)

    @property
    def known(self) -> bool:
        return self.line > 0

    def chain(self) -> list[SourceLoc]:
        """Innermost first: [helper position, ..., user's call site]."""
        out: list[SourceLoc] = []
        loc: SourceLoc | None = self
        while loc is not None and len(out) < 64:
            out.append(loc)
            loc = loc.inlined_at
        return out

    def outermost(self) -> SourceLoc:
        """The user's position: the last call site in the chain (as `chain()[-1]`, without the list:
        every per-line map asks this of every op)."""
        loc = self
        n = 1
        while loc.inlined_at is not None and n < 64:
            loc = loc.inlined_at
            n += 1
        return loc

    @property
    def basename(self) -> str:
        return os.path.basename(self.file)

    def short(self) -> str:
        return f"{self.basename}:{self.line}:{self.col}"

    def names(self, file: str | None, line: int, col: int | None = None, *, inner: bool = False) -> bool:
        """Whether an element of the chain (with `inner`, one other than the outermost: a line a helper
        was written on) is `line` (and `col`) of `file`."""
        chain = self.chain()
        return any(p.line == line and same_file(p.file, file) and (col is None or p.col == col)
                   for p in (chain[:-1] if inner else chain))

    def written(self) -> SourceLoc | None:
        """Where the kernel's author wrote the op when that is not the outermost position: the innermost
        element of the chain outside Triton's own language files (a helper of the kernel's file or of
        another module, inlined at its call); None for an op of the kernel's own body or of Triton's
        library only (`tl.sum`'s ops belong to the line that called it)."""
        if self.inlined_at is None:
            return None
        for loc in self.chain()[:-1]:
            if loc.line and not TRITON_LIBRARY.search(loc.file.replace("\\", "/")):
                return loc
        return None

    def describe(self) -> str:
        """`standard.py:196:12 @ kernels.py:36:9 @ kernels.py:91:15` (innermost first)."""
        return " @ ".join(loc.short() for loc in self.chain())

    def to_json(self) -> dict:
        d: dict = {"file": self.file, "line": self.line, "col": self.col}
        if self.name:
            d["name"] = self.name
        if self.inlined_at is not None:
            d["inlined_at"] = self.inlined_at.to_json()
        return d


def kernel_source_file(modules) -> str | None:
    """The file most ops of the first module (in the order given) that has located ops trace back to
    (their outermost frame): the kernel's own source, as the IR spells it."""
    from collections import Counter

    for module in modules:
        counts: Counter[str] = Counter()
        for op in module.ops:
            if op.loc is not None:
                outer = op.loc.outermost()
                if outer.known and outer.file:
                    counts[outer.file] += 1
        if counts:
            return counts.most_common(1)[0][0]
    return None


def chained(frames: list[SourceLoc], caller: SourceLoc | None) -> SourceLoc | None:
    """The chain of `frames` (innermost first), without the callers they had, `caller` calling the last."""
    out = caller
    for p in reversed(frames):
        out = SourceLoc(p.file, p.line, p.col, out, p.name)
    return out


@dataclass(slots=True)
class Op:
    """One operation (MLIR op, LLVM instruction, PTX/AMDGCN/SASS instruction) of a stage."""

    lineno: int  # 1-based line in the stage's text
    op: str  # op name or opcode: 'tt.load', 'load', 'ld.global.v4.b32', 'global_load_dwordx4', 'LDG.E.128'
    text: str  # the line, stripped
    loc: SourceLoc | None = None  # None: no location at all; loc.known False: line 0 / unknown
    function: str | None = None
    # SASS only: the line of the cache's .ptx that ptxas compiled this instruction from (nvdisasm -gp)
    ptx_line: int | None = None

    def to_json(self) -> dict:
        return {
            "lineno": self.lineno,
            "op": self.op,
            "text": self.text,
            "loc": self.loc.to_json() if self.loc else None,
            "function": self.function,
            **({"ptx_line": self.ptx_line} if self.ptx_line is not None else {}),
        }


# How the note on a stage whose text looks cut short (Module.cut) begins, on stderr and on a report's page.
CUT_NOTE = "the file looks cut short"


@dataclass(slots=True)
class Module:
    """A parsed stage: its ops in text order, and what the parser could not read."""

    stage: str
    path: str | None
    ops: list[Op] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    # (1-based line, text) of lines that looked like code but matched no rule; reported, never dropped.
    unparsed: list[tuple[int, str]] = field(default_factory=list)
    # Source files named by the stage's own file table (e.g. PTX `.file`), id -> path.
    files: dict[str, str] = field(default_factory=dict)
    # What the parser corrected or could not know, in words (shown by the commands that use the stage).
    notes: list[str] = field(default_factory=list)
    # Why the text looks cut short (it ends before or inside a function or region, or its ops name location
    # records it never prints: a file truncated by a full disk or a killed copy), said once per file after
    # each command (stages.FILE_REMARK); what reads the stage says what it lost to it. None: it ends as its
    # stage's text ends ("" for an empty text, which the entry's own note names).
    cut: str | None = None
    # line -> the op that line continues, for the lines of a multi-line op after its first: an MLIR op's
    # region headers and closing line (`}) : (tensor<...>) -> ...` of a tt.reduce), a switch's cases,
    # a PTX call's operand lines
    continued: dict[int, Op] = field(default_factory=dict)
    # lines of the text parsed (`map --at N` past them is a usage error)
    line_count: int = 0
    # MLIR: each function's own location (printed after its closing brace), name -> loc
    function_locs: dict[str, SourceLoc] = field(default_factory=dict)
    # MLIR: an op's line -> the op whose region holds it (scf.for, scf.if, ...), for ops inside one
    parents: dict[int, Op] = field(default_factory=dict)
    # AMDGCN: the kernel descriptor's `.amdhsa_user_sgpr_*` directives (name without prefix -> value):
    # which SGPRs the ABI fills, the kernel-argument segment's pointer among them
    user_sgprs: dict[str, int] = field(default_factory=dict)
    # LLIR: its `target triple` (`nvptx64-nvidia-cuda`, `amdgcn-amd-amdhsa`): what its address spaces mean
    triple: str | None = None
    # SASS: a generic `LD`/`ST`'s line -> the state space of the PTX instruction ptxas compiled it from (-gp),
    # where that says more: `ld.shared::cluster` (another CTA's shared memory) is `LD.E` through a generic
    # address (memops.accesses reads it as shared)
    generic_spaces: dict[int, str] = field(default_factory=dict)
    # warp-specialized partitions (stages.partitions.relocate): the lines their ops were moved from (the
    # kernel's def) and to (the worker functions' lines), where its note concerns a line
    partition_lines: set[int] = field(default_factory=set)
    # memops.accesses: (stage, the memory access of each op), computed on first use
    memory_accesses: tuple[str, list] | None = field(default=None, repr=False, compare=False)

    def cut_short(self, *why: str) -> None:
        """Record that the text looks cut short, for the reasons given (those that hold: empty ones dropped)."""
        reasons = [w for w in why if w]
        if reasons:
            self.cut = "; ".join(reasons)

    def ops_for_line(self, line: int, file: str | None = None) -> list[Op]:
        """Ops whose user-level (outermost) position is `line` (of `file`, if given: stages.common.same_file)."""
        out = []
        for op in self.ops:
            if op.loc is None:
                continue
            outer = op.loc.outermost()
            if outer.line == line and same_file(outer.file, file):
                out.append(op)
        return out


def drop_trailing_padding(module: Module, is_padding, never_falls_through) -> None:
    """Leave out, at the end of each function, the run of instructions `is_padding(index, op)` that follows
    one that `never_falls_through(op)`: alignment padding a disassembler lists as more of the function
    (hsaco-asm's `s_nop 0`, SASS's NOPs and branch to itself), never executed, no op of the kernel."""
    ops = module.ops
    drop: set[int] = set()
    end = len(ops)
    while end > 0:
        function = ops[end - 1].function
        start = end
        while start > 0 and ops[start - 1].function == function:
            start -= 1
        k = end
        while k > start and is_padding(k - 1, ops[k - 1]):
            k -= 1
        if start < k < end and never_falls_through(ops[k - 1]):
            drop.update(range(k, end))
        end = start
    if drop:
        module.ops = [op for i, op in enumerate(ops) if i not in drop]


_LINE_CHUNK = 1 << 20


def _split_lines(text: str) -> list[str]:
    """Lines as the stage's tools (and `sed -n`, `grep -n`) number them: broken at `\n` only (the `\r`s
    before it dropped).
    `str.splitlines` also breaks at U+2028, NEL, form feeds and `\x1c`-`\x1e`, which a file name in a
    PTX or AMDGCN comment (`// k\u2028x.py:8:12`) may hold: every later line was numbered one off."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [line.rstrip("\r") for line in lines]
    return lines


def iter_lines(text: str) -> Iterator[str]:
    """The text's lines (`_split_lines`) one chunk of about a megabyte at a time: the same lines, numbered
    the same, without a list of every line of a large file alive beside the Ops made from it."""
    if len(text) <= _LINE_CHUNK:
        yield from _split_lines(text)
        return
    start, n = 0, len(text)
    while start < n:
        end = text.find("\n", start + _LINE_CHUNK)
        if end < 0:
            end = n
        # the cut's own "\n" put back: a blank line just before the cut splits as in the whole text
        yield from _split_lines(text[start:end] + "\n" if end < n else text[start:end])
        start = end + 1


def read_regular(path: str | os.PathLike, limit: int | None = None, *, follow_links: bool = True) -> bytes:
    """A regular file's bytes: opened without blocking (a pipe is refused, never waited on), through no link
    when `follow_links` is false, and read up to its size (a device is refused, never read without end).
    OSError for anything else, or for a file over `limit` bytes. For files anyone may have put there: the
    tool's own cache records, a snapshot's files."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0))
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError("not a regular file")
        if limit is not None and st.st_size > limit:
            raise OSError(f"larger than {limit >> 20} MiB")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(st.st_size + 1)
    finally:
        os.close(fd)


_FIRST_READ = 64 << 10  # every metadata json we have seen is a few KB


def read_at_most(path: str | os.PathLike, limit: int) -> bytes | None:
    """The file's bytes, None when it is larger than `limit`. One open, one read and one close for a
    file under 64 KiB (`open()` adds an fstat and buffering, read(limit + 1) would allocate `limit`);
    only a larger file is sized with fstat first. `ls` reads one metadata json per entry this way."""
    fd = os.open(path, os.O_RDONLY)
    try:
        raw = os.read(fd, _FIRST_READ)
        if len(raw) < _FIRST_READ:  # a short read of a regular file is its end
            return raw
        if os.fstat(fd).st_size > limit:
            return None
        parts = [raw]
        total = len(raw)
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > limit:  # grew while read
                return None
            parts.append(chunk)
        return b"".join(parts)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike, *, max_bytes: int | None = None) -> str:
    """Read an artifact read-only as UTF-8; a bad byte becomes a ParseError naming the line."""
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            data = fh.read() if max_bytes is None else fh.read(max_bytes)
    except IsADirectoryError:
        raise ParseError("is a directory, expected a file", str(p)) from None
    except PermissionError:
        raise ParseError("permission denied", str(p)) from None
    except FileNotFoundError:
        raise ParseError("no such file", str(p)) from None
    except OSError as e:
        raise ParseError(f"cannot read: {e.strerror or e}", str(p)) from None
    return decode_text(data, str(p))


def decode_text(data: bytes, path: str | None = None) -> str:
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise ParseError("binary data (NUL byte) in a text stage", path, line)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ParseError(f"not UTF-8 (byte 0x{data[e.start]:02x} at offset {e.start})", path, line) from None


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while building many objects that form no cycles (a parse's ops, a
    cache's entries): its passes over the growing heap were ~10% of a full parse. Nests; restores."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
