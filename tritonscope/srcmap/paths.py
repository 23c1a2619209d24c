"""Finding the Python source a cache names, when the cache was made on another machine, and reading
it only when it is the kernel's own Python source.

Like gdb: `--substitute-path OLD NEW` rewrites a path prefix (tried in the order given), and
`--source-root DIR` looks for the file's trailing path components under DIR (`xx/name.py`, then
`name.py`), then for its basename anywhere below DIR (of several, the one whose folders match more of
the IR's path; where two match as well, none). Nothing is guessed silently: the result says which rule
found the file, or that it is missing.

A cache is untrusted input (caches travel as CI artifacts and bug reports) and every path in its
locations is the cache author's choice, while reports are made to be shared. So a file is read only
when all of these hold (`SourcePolicy`), else the result names it with the reason it was not read:
- some location of the kernel names it (the kernel's function or an inlined callee is located in it);
- the name the IR gives and the file found both end in `.py` and are not hidden (`.name`);
- it is a regular file, reached through no symlink that leaves the directory it was named in, opened
  without following a link swapped in after the check; found under a --source-root or a --substitute-path
  directory, it lies inside that directory once every link is resolved (a `..` in the IR's path, or a link
  in the tree, does not take a lookup out of it);
- it is at most `MAX_SOURCE_BYTES`, UTF-8 text without NUL bytes;
- it defines a Triton function (a Triton or Gluon `jit` decorator or call, through the module's aliases and
  names bound to it too: not torch's, JAX's or numba's), and every line the IR names in it lies in one
  (`jit_spans`, strings and comments read as Python reads them): a kernel's source always does;
- it has every line the kernel's locations name in it (a shorter file is not the source compiled), and
  where the IR locates a function's `def` in it (the kernel's, a helper's it keeps), that line is the
  `def` of that function (another file with a Triton function, or one edited since, is not the source
  compiled; with only PTX, SASS or AMDGCN read, which locate no def, the file must define the kernel); and
  no line the IR's locations (TTIR to PTX/AMDGCN: not a binary's line table, which also numbers the lines
  of an inline asm string) name in it is blank or a comment (a file the IR names only as an inlined call's
  is held to that).

A path the IR names is read as is where it exists on this machine, through whatever links its directories
are (a venv's `lib64 -> lib`, a cluster's `/home -> /gpfs/home`): the IR could name the file behind such a
link directly, so the checks on the file itself are what guard it.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import source_lines

_MAX_WALK_FILES = 50000
_MAX_WALK_DEPTH = 64
# The largest Python source read: real kernel files are a few hundred KB (Inductor's largest ~1 MB).
MAX_SOURCE_BYTES = 8 << 20
SOURCE_SUFFIX = ".py"
# The name Inductor gives a kernel's source file (`c` and its text's hash): a file whose text Inductor's
# records may hold (`SourceFinder.kept`), asked without loading those records for any other name.
INDUCTOR_KERNEL_FILE = lazy_compile(r"c[a-z0-9]{50,}\.py")


@dataclass
class SourceText:
    """The lines of a found source file, or why there are none."""

    requested: str  # the path the IR names
    path: str | None = None  # where it was found
    how: str | None = None  # 'as is' | 'substitute-path' | 'source-root' | "Inductor's wrapper" (path: its file:line)
    lines: list[str] = field(default_factory=list)
    error: str | None = None
    note: str | None = None  # why a file found was passed over for the text Inductor's wrapper holds
    # a file found whose mtime is later than the kernel's compile: its text may not be the text compiled
    caution: str | None = None

    @property
    def found(self) -> bool:
        return self.path is not None

    def line(self, n: int) -> str | None:
        return self.lines[n - 1] if 0 < n <= len(self.lines) else None

    def to_json(self) -> dict:
        return {"requested": self.requested, "path": self.path, "how": self.how, "found": self.found,
                "error": self.error, "note": self.note, "caution": self.caution}


@dataclass(frozen=True)
class SourceFinder:
    roots: tuple[str, ...] = ()
    substitutions: tuple[tuple[str, str], ...] = ()
    # The texts records hold of files not on this machine: a torch.compile kernel's source as Inductor's
    # wrapper holds it (a torch trace, a wrapper whose kernel files are gone), by the path the IR names:
    # requested -> (text, where it is held), else None. Tried when no file is found.
    kept: Callable[[str], tuple[str, str] | None] | None = None

    def locate(self, requested: str) -> tuple[str | None, str | None]:
        """(the file, the rule that found it), or (None, None); a file found under a directory the user gave
        that lies outside it once links are resolved is (None, why)."""
        outside = None
        for old, new in self.substitutions:
            rest = _strip_prefix(requested, old)
            if rest is not None:
                candidate = os.path.join(new, rest) if rest else new
                if os.path.isfile(candidate):
                    if rest and not _inside(candidate, new):
                        outside = outside or f"{candidate} is outside {new} once its links are resolved"
                        continue
                    return candidate, "substitute-path"
                outside = outside or _not_regular(candidate)
        # (a relative path is taken from the working directory only where it does not climb out of it)
        if requested and (os.path.isabs(requested) or ".." not in Path(requested).parts):
            if os.path.isfile(requested):
                return requested, "as is"
            outside = outside or _not_regular(requested)  # (a FIFO, a device, a folder of that name: never opened)
        parts = [p for p in Path(requested).parts if p not in ("/", "")]
        # (the trailing components below the last `..`: a lookup under a root never climbs out of it)
        tail = parts[len(parts) - next((i for i, p in enumerate(reversed(parts)) if p in ("..", ".")), len(parts)):]
        for root in self.roots:
            for k in range(len(tail), 0, -1):
                candidate = os.path.join(root, *tail[-k:])
                if os.path.isfile(candidate):
                    if not _inside(candidate, root):
                        outside = outside or f"{candidate} is outside {root} once its links are resolved"
                        continue
                    return candidate, "source-root"
                outside = outside or _not_regular(candidate)
        if tail:
            for root in self.roots:
                hits = [h for h in _find_by_name(root, tail[-1], most=16) if _inside(h, root)]
                # the file whose folders match most of the IR's path (`ops/utils.py` for .../ops/utils.py);
                # where two match as well, which is the kernel's is not known: none is guessed
                best = _most_alike(hits, tail)
                if len(best) > 1:
                    return None, (f"{tail[-1]} is in more than one place under {root} ({best[0]}, {best[1]}): "
                                  "give --substitute-path OLD NEW, or a --source-root that holds one of them")
                if best:
                    return best[0], "source-root"
        return None, outside

    def read(self, requested: str, named: Collection[str], compiled_at: float | None = None) -> SourceText:
        """The lines of `requested` when the policy allows it; `named` holds the files that the
        kernel's own locations name (anything else is refused before the file system is asked). A file
        modified after `compiled_at` (the entry's time: when Triton wrote it) is read with a caution: the
        policy checks where the kernel's lines and defs are, not what they say."""
        text = SourceText(requested)
        refused = name_refusal(requested, named)
        if refused:
            text.error = f"not read: {refused}"
            return text
        path, how = self.locate(requested)
        if path is None and how is not None:
            text.error = f"not read: {how}"
            return text
        if path is None:
            held = self.kept(requested) if self.kept is not None else None
            if held is not None:
                return self._held(text, held, named)
            text.error = "source not found" + ("" if self.roots or self.substitutions else
                                               " (try --source-root DIR or --substitute-path OLD NEW)")
            return text
        try:
            lines = source_lines(read_checked(path))
            if self.kept is not None and INDUCTOR_KERNEL_FILE.fullmatch(os.path.basename(path)):
                # Inductor names a kernel's file by the hash of its text: where its wrapper holds the text of
                # that name and the file differs, the file was edited since (every line shown one off)
                held = self.kept(requested)
                if held is not None and [x.rstrip() for x in source_lines(held[0].strip())] != \
                        [x.rstrip() for x in source_lines("\n".join(lines).strip())]:
                    text.note = (f"{path} differs from the text Inductor compiled, which its name is the hash "
                                 "of (edited since): not read")
                    return self._held(text, held, named)
            spans = _triton_spans(lines)
            _check_length(lines, _last_line(named, requested))
            _check_defs(lines, _defs(named, requested))
            _check_named_lines(lines, named, requested)
            _check_in_spans(spans, lines, named, requested)
        except SourceRefused as e:
            text.error = f"not read: {path}: {e}"
            return text
        except OSError as e:
            text.error = f"cannot read {path}: {e.strerror or e}"
            return text
        text.path, text.how = path, how
        text.lines = lines
        # (an Inductor kernel's file is named by the hash of its text, which a copy keeps and an edit breaks:
        # its mtime says nothing; the check above compares it with the text its wrapper holds, where known)
        if not INDUCTOR_KERNEL_FILE.fullmatch(os.path.basename(path)):
            text.caution = modified_after(path, compiled_at)
        return text


    @staticmethod
    def _held(text: SourceText, held: tuple[str, str], named: Collection[str]) -> SourceText:
        """`text` read from what Inductor's wrapper holds of it, `held` = (its text, where it is held)."""
        try:
            text.lines = checked_lines(held[0].encode("utf-8"), _last_line(named, text.requested))
            spans = _triton_spans(text.lines)
            _check_defs(text.lines, _defs(named, text.requested))
            _check_named_lines(text.lines, named, text.requested)
            _check_in_spans(spans, text.lines, named, text.requested)
        except SourceRefused as e:
            text.error = f"not read: {held[1]}: {e}"
            return text
        text.path, text.how = held[1], "Inductor's wrapper"
        return text


# (a copy of a cache and its sources, made together, can write the source a moment after the entry)
_MTIME_SLACK_S = 2.0


def modified_after(path: str, compiled_at: float | None) -> str | None:
    """A caution where `path` was modified after `compiled_at` (an epoch time), else None."""
    if not compiled_at:
        return None
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return None
    if mtime <= compiled_at + _MTIME_SLACK_S:
        return None
    import time

    def when(t: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))

    return (f"{path} was modified after this kernel was compiled ({when(mtime)}, the entry {when(compiled_at)}): "
            "its lines may not be the ones compiled")


class SourceRefused(Exception):
    """A file that the policy does not read; the message is the reason."""


def _last_line(named: Collection[str], requested: str) -> int:
    """The last line of `requested` the kernel's locations name, where `named` says (a mapping file ->
    line, as kernelmap.named_files gives), else 0."""
    return named.get(requested, 0) if isinstance(named, Mapping) else 0


def _check_length(lines: list[str], last: int) -> None:
    if len(lines) < last:
        raise SourceRefused(f"{len(lines)} lines, and this kernel's locations name line {last} of it: not the "
                            "source it was compiled from")


def _defs(named: Collection[str], requested: str) -> set[tuple[str, int]]:
    """The (function, line) pairs where the kernel's IR locates a `def` in `requested` (kernelmap.NamedFiles)."""
    return getattr(named, "defs", {}).get(requested, set())


def _check_named_lines(lines: list[str], named: Collection[str], requested: str) -> None:
    """No op is written on a blank line or a comment: a file where the kernel's locations name one is not
    the source compiled (or another file of its path)."""
    for n in sorted(getattr(named, "lines", {}).get(requested, ())):
        text = lines[n - 1].strip() if 0 < n <= len(lines) else None
        if text is not None and (not text or text.startswith("#")):
            raise SourceRefused(f"line {n}, which this kernel's locations name, is {'a comment' if text else 'blank'}:"
                                " not the source it was compiled from")


def _triton_spans(lines: list[str]) -> list[tuple[int, int]]:
    """The file's Triton functions (`jit_spans`: `@triton.jit`, `@gluon.jit`, `@jit` imported from Triton, an
    alias of either, `triton.jit(fn)`), or SourceRefused where it has none: a file that only says `triton.jit(`
    in a comment, or one of numba's `@jit`, is no kernel's source."""
    spans = jit_spans(lines)
    if not spans:
        raise SourceRefused("defines no Triton function (no jit decorator): not a kernel source")
    return spans


def _check_in_spans(spans: list[tuple[int, int]], lines: list[str], named: Collection[str], requested: str) -> None:
    """Every line the kernel's locations name lies in one of the file's Triton functions: a file marking
    another function is not the kernel's source, however the IR names it (an inlined helper's file is named by
    no `def`)."""
    for n in sorted(getattr(named, "lines", {}).get(requested, ())):
        if 0 < n <= len(lines) and not any(a <= n <= b for a, b in spans):
            raise SourceRefused(f"line {n}, which this kernel's locations name, is in no Triton jit function: "
                                "not the source it was compiled from")


# Python's strings and comments, left to right (a `#` or quote inside a string is the string's): what the
# code of a line is once they are blanked
_STRING_OR_COMMENT = lazy_compile(r"#[^\n]*|(?P<q>\"\"\"|\'\'\')(?:\\.|[^\\])*?(?P=q)"
                                  r"|\"(?:\\.|[^\"\\\n])*\"|\'(?:\\.|[^\'\\\n])*\'", re.S)
# what binds a name to Triton's or Gluon's jit: `import triton as tr` (tr.jit), `from triton.experimental import
# gluon as glu`, `from triton import jit as tjit`, `from ..runtime.jit import jit` (Triton's own files, relative),
# `jit = triton.jit`; numba's `from numba import jit` does not
_MODULE_ALIAS = lazy_compile(r"^[ \t]*import[ \t]+triton(?:\.[\w.]+)?[ \t]+as[ \t]+(\w+)"
                             r"|^[ \t]*from[ \t]+triton[\w.]*[ \t]+import[ \t]+(?:gluon|language)[ \t]+as[ \t]+(\w+)",
                             re.M)
_JIT_IMPORT = lazy_compile(r"^[ \t]*from[ \t]+(?:triton\b[\w.]*|\.+[\w.]*)[ \t]+import[ \t]*(?:\(([^)]*)\)|([^\n]*))",
                           re.M)
_JIT_ASSIGNED = lazy_compile(r"^[ \t]*(\w+)[ \t]*=[ \t]*(?:triton|gluon)(?:\.\w+)*\.jit[ \t]*$")
_DECORATOR_NAME = lazy_compile(r"@[ \t(]*([\w.]+)")


def _code(lines: list[str]) -> tuple[list[str], set[int]]:
    """Each line's code with strings and comments blanked (a string's quotes kept, its text gone), and the
    indices of the lines inside a string begun on an earlier line (an inline asm's text at column 0)."""
    text = "\n".join(lines)
    if "#" not in text and "\"" not in text and "\'" not in text:
        return lines, set()
    inside: set[int] = set()
    out: list[str] = []
    pos = 0
    line_no = 0
    for m in _STRING_OR_COMMENT.finditer(text):
        out.append(text[pos:m.start()])
        body = m.group(0)
        breaks = body.count("\n")
        line_no += text.count("\n", pos, m.start())  # (the line the string or comment begins on)
        inside.update(range(line_no + 1, line_no + breaks + 1))
        line_no += breaks
        out.append("" if body.startswith("#") else "''" + "\n" * breaks)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out).split("\n"), inside


def _jit_names(code: list[str]) -> tuple[set[str], set[str]]:
    """(module names whose `.jit` is Triton's: triton, gluon, tl and their aliases; bare names bound to it),
    read from the lines that say `jit` or import Triton (an import in brackets, over lines, whole)."""
    roots, bare = {"triton", "gluon", "tl"}, set()
    for i, line in enumerate(code):
        if "triton" not in line and "jit" not in line:
            continue
        if " as " in line and "import" in line:
            for a, b in _MODULE_ALIAS.findall(line):
                roots.add(a or b)
        if "import" in line and "from" in line:
            chunk = line
            if "(" in line and ")" not in line:  # (`from triton import (\n    autotune,\n    jit,\n)`)
                j = i + 1
                while j < len(code) and j < i + 64 and ")" not in code[j - 1]:
                    chunk += "\n" + code[j]
                    j += 1
            for grouped, single in _JIT_IMPORT.findall(chunk):
                for part in (grouped or single).split(","):
                    words = part.split()
                    if words and words[0] == "jit":
                        bare.add(words[2] if len(words) == 3 and words[1] == "as" else "jit")
        if "=" in line and ".jit" in line:
            bare.update(_JIT_ASSIGNED.findall(line))
    return roots, bare


def _is_jit_decorator(body: str, roots: set[str], bare: set[str]) -> bool:
    m = _DECORATOR_NAME.match(body)
    if m is None:
        return False
    name = m.group(1)
    return name in bare or (name.endswith(".jit") and name.split(".")[0] in roots)


def _called(code: list[str], roots: set[str]) -> set[str]:
    """The functions a `triton.jit(f)` call (`triton.jit(fn=f)`, `triton.jit(do_not_specialize=...)(f)`,
    over a few lines too) makes Triton functions."""
    root = "|".join(sorted(map(re.escape, roots)))
    out: set[str] = set()
    for i, line in enumerate(code):
        if ".jit" not in line or line.lstrip().startswith("@"):
            continue
        chunk = " ".join(code[i:i + 4])
        out.update(re.findall(rf"\b(?:{root})(?:\.\w+)*\.jit\s*\(\s*(?:fn\s*=\s*)?([A-Za-z_]\w*)\s*[,)]", chunk))
        out.update(re.findall(rf"\b(?:{root})(?:\.\w+)*\.jit\s*\((?:[^()]|\([^()]*\))*\)\s*\(\s*([A-Za-z_]\w*)",
                              chunk))
    return out


def _opened(code: str) -> int:
    """Brackets a line of code opens, less those it closes."""
    return code.count("(") + code.count("[") + code.count("{") - code.count(")") - code.count("]") - code.count("}")


def _indent(code: str) -> int:
    body = code.lstrip()
    return len(code) - len(body) if "\t" not in code else len(code.expandtabs()) - len(body.expandtabs())


def _bracket_end(code: list[str], i: int, most: int = 400) -> int:
    """The index of the line where the brackets opened on line `i` close (a decorator's or a def's
    arguments over several lines)."""
    depth = 0
    for j in range(i, min(len(code), i + most)):
        depth += _opened(code[j])
        if depth <= 0:
            return j
    return i


def jit_spans(lines: list[str]) -> list[tuple[int, int]]:
    """The (first, last) lines, 1-based, of each function a Triton jit decorator marks (from that decorator
    to the last line of its body, by indentation), and of each `def f` that `triton.jit(f)` names. Module
    aliases (`import triton as tr`), names bound to jit (`from triton import jit as tjit`, `jit = triton.jit`,
    Triton's own relative imports) count; numba's `from numba import jit` does not. Strings and comments are
    read as Python reads them: a string over lines, a bracket or a backslash continuing a line at column 0
    does not end a body."""
    code, inside = _code(lines)
    roots, bare = _jit_names(code)
    called = _called(code, roots)
    spans: list[tuple[int, int]] = []
    pending: tuple[int, int] | None = None  # (first decorator line, its indentation) of a jit decorator
    i, n = 0, len(lines)
    while i < n:
        line = code[i]
        body = line.lstrip()
        indent = _indent(line)
        if body.startswith("@"):
            if _is_jit_decorator(body, roots, bare) and pending is None:
                pending = (i + 1, indent)
            elif pending is not None and pending[1] != indent:
                pending = None
            i = _bracket_end(code, i) + 1
            continue
        m = _DEF.match(line)
        if m:
            start = pending[0] if pending is not None and pending[1] == indent else \
                i + 1 if m.group(1) in called else None
            pending = None
            end = head = _bracket_end(code, i)
            if start is not None:
                depth, continued = 0, False
                for j in range(head + 1, n):
                    text = code[j].strip()
                    within = j in inside or depth > 0 or continued  # (a continuation of an earlier line)
                    if text and not within and _indent(code[j]) <= indent:
                        break
                    if text or j in inside:
                        end = j
                    if depth or "(" in code[j] or "[" in code[j] or "{" in code[j]:
                        depth = max(0, depth + _opened(code[j]))
                    continued = code[j].rstrip().endswith("\\")
                spans.append((start, end + 1))
            i = head + 1
            continue
        if body:
            pending = None
        i += 1
    return spans


def _check_defs(lines: list[str], defs: set[tuple[str, int]]) -> None:
    for function, line in sorted(defs, key=lambda d: d[1]):
        shown = function if isinstance(function, str) else function[0]
        if not line:  # (where the def is, the stages read do not say: anywhere in the file)
            if not any(def_line(lines, function, n) for n, text in enumerate(lines, 1) if "def" in text):
                raise SourceRefused(f"defines no `def {shown}(`: not the source it was compiled from")
        elif def_line(lines, function, line) is None:
            raise SourceRefused(f"line {line} is not `def {shown}(`, where the IR locates that function: not "
                                "the source it was compiled from")


_DEF = lazy_compile(r"\s*(?:async\s+)?def\s+(\w+)\s*\(")


def def_line(lines: list[str], function: str | tuple[str, ...], at: int) -> int | None:
    """`at` where that line is `def function(`, else None. Every release seen (2.3 to 3.9, Gluon's too)
    locates a function at its `def`, below its decorators: a decorator there is a file edited since (a line
    added above). `function` may be the IR's name of a helper (`pkg.mod.helper__Pfp32_i32`: module, name,
    specialization) or Triton 2.x's (`add_kernel_0d1d2d3d`); a tuple names alternatives (`kernel_names`: a
    kernel the JIT renamed with `repr=`)."""
    from tritonscope.artifacts.cache import demangle

    head = lines[at - 1] if 0 < at <= len(lines) else None
    m = _DEF.match(head) if head is not None else None
    if m is None:
        return None
    name = m.group(1)
    for f in (function,) if isinstance(function, str) else function:
        if name in (f, demangle(f), demangle(f, legacy=True)) or f.endswith("." + name) \
                or f".{name}__" in f:  # (a helper's: a module path before it, its specialization after)
            return at
    return None


def kernel_names(function: str, stage_path: str | None) -> str | tuple[str, str]:
    """The names a kernel's `def` may have: the IR's, and where the stage file is named otherwise, its file's
    name (`@triton.jit(repr=...)` / `@gluon.jit(repr=...)` name the IR's function and the metadata by the
    repr, `gluon_attention`, and the cache's files by the Python function, `attention_kernel.ttgir`)."""
    if not stage_path or "." in function:
        return function
    stem = os.path.basename(stage_path).split(".")[0]
    return (function, stem) if stem and stem != function and stem.isidentifier() else function


def checked_lines(data: bytes, last: int = 0) -> list[str]:
    """checked_text's lines, holding line `last`."""
    lines = source_lines(checked_text(data))
    _check_length(lines, last)
    return lines


def _not_regular(path: str) -> str | None:
    """Why a path that exists is no source to read (a FIFO, a device, a folder, or a link to one: never
    opened), else None."""
    if not os.path.lexists(path) or os.path.isfile(path):
        return None
    from tritonscope.artifacts.cache import file_kind

    kind = file_kind(path, follow=True)
    link = " (a symbolic link to it)" if os.path.islink(path) else ""
    return f"{path} is {kind}{link}, not a regular file"


def _inside(path: str, folder: str) -> bool:
    """Whether the directory of `path`, every link resolved, lies in `folder` (resolved too). (The file
    itself may be a link: read_checked judges it, and says so.)"""
    real, top = os.path.realpath(os.path.dirname(path)), os.path.realpath(folder)
    return os.path.commonpath([real, top]) == top


def name_refusal(requested: str, named: Collection[str]) -> str | None:
    """Why a path named by the IR (or by --file) is not read, judged on its name alone."""
    if requested not in named:
        return "no location of this kernel names it"
    return _name_problem(requested)


_UNDEFINED_FILE = re.compile(r"<file \d+>")  # stages/loc_comments.py: a `.loc` file number no `.file` defines


def _name_problem(path: str) -> str | None:
    if _UNDEFINED_FILE.fullmatch(path):
        return ("a file number the stage's `.loc` lines name and its `.file` lines never define (a text cut "
                "before its file table: see its note)")
    base = os.path.basename(path)
    if not base.endswith(SOURCE_SUFFIX):
        return f"not a Python source ({SOURCE_SUFFIX} file)"
    if base.startswith("."):
        return "a hidden file"
    if "\0" in path:
        return "a NUL byte in the path"
    return None


def read_checked(path: str) -> str:
    """The text of a source file found on disk, or SourceRefused with the reason."""
    problem = _name_problem(path)
    if problem:
        raise SourceRefused(problem)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    target = path
    if os.path.islink(path):
        real = os.path.realpath(path)
        home = os.path.realpath(os.path.dirname(path) or ".")
        if os.path.commonpath([real, home]) != home:
            raise SourceRefused("a symlink that leaves its directory")  # (where to is not said: reports are shared)
        problem = _name_problem(real)
        if problem:
            raise SourceRefused(f"a symlink to a file that is {problem}")
        target = real
    try:
        fd = os.open(target, flags)
    except OSError as e:
        if e.errno == getattr(os, "ELOOP", -1):  # swapped for a symlink after the check
            raise SourceRefused("a symlink") from None
        raise
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise SourceRefused("not a regular file")
        if st.st_size > MAX_SOURCE_BYTES:
            raise SourceRefused(f"more than a source file ({MAX_SOURCE_BYTES >> 20} MiB at most)")
        data = fh.read(MAX_SOURCE_BYTES + 1)
    return checked_text(data)


def checked_text(data: bytes) -> str:
    """The text of a source's bytes, wherever they were read, or SourceRefused with the reason."""
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceRefused(f"more than {MAX_SOURCE_BYTES} bytes")
    if b"\0" in data:
        raise SourceRefused("binary (NUL bytes), not text")
    text = python_text(data)  # (UTF-8, or the encoding its first two lines declare: as Python reads it)
    if text is None:
        raise SourceRefused("not text in the encoding its first lines declare" if _declares(data) else
                            f"not UTF-8 text (byte {_bad_byte(data)})")
    return text


_CODING = lazy_compile(rb"^[ \t\f]*#.*?coding[:=]", re.M)


def python_text(data: bytes) -> str | None:
    """A Python source's text as Python reads it: in the encoding its first two lines declare (PEP 263,
    `# -*- coding: latin-1 -*-`), whatever UTF-8 would make of the bytes, else UTF-8; None where the bytes
    do not decode (or declare what Python refuses)."""
    if _declares(data):
        import io
        import tokenize

        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            return data.decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError):
            return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _declares(data: bytes) -> bool:
    """Whether a source's first two lines hold a PEP 263 coding comment."""
    return _CODING.search(b"\n".join(data.split(b"\n", 2)[:2])) is not None


def _bad_byte(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return 0


def _strip_prefix(path: str, prefix: str) -> str | None:
    """The rest of `path` below `prefix`, matching whole components only ('/a/b' is not under '/a/bc')."""
    prefix = prefix.rstrip("/") or "/"
    if path == prefix:
        return ""
    head = prefix if prefix.endswith("/") else prefix + "/"
    return path[len(head):] if path.startswith(head) else None


def _most_alike(paths: list[str], tail: list[str]) -> list[str]:
    """Those of `paths` that share the most trailing components with `tail`."""
    def shared(path: str) -> int:
        parts = Path(path).parts
        n = 0
        while n < min(len(parts), len(tail)) and parts[-1 - n] == tail[-1 - n]:
            n += 1
        return n

    if not paths:
        return []
    scores = [shared(p) for p in paths]
    top = max(scores)
    return [p for p, n in zip(paths, scores, strict=True) if n == top]


def _find_by_name(root: str, name: str, most: int = 2) -> list[str]:
    """The first `most` files named `name` below `root` in os.walk's order (a folder's files, then its
    subfolders in sorted order, depth first; links not followed), up to _MAX_WALK_FILES files and
    _MAX_WALK_DEPTH levels, with a stack of its own (os.walk recursed: a tree thousands deep raised
    RecursionError)."""
    seen = 0
    found: list[str] = []
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as it:
                listed = list(it)
        except OSError:
            continue
        folders = []
        for de in listed:
            try:
                if de.is_dir():  # (as os.walk: a link to a folder is a folder, never entered)
                    if not de.is_symlink():
                        folders.append(de.name)
                elif de.name == name:
                    found.append(de.path)
                    if len(found) >= most:
                        return found
            except OSError:
                continue
        seen += len(listed) - len(folders)
        if seen > _MAX_WALK_FILES:
            return found
        if depth < _MAX_WALK_DEPTH:
            stack.extend((os.path.join(folder, d), depth + 1) for d in sorted(folders, reverse=True))
    return found


def expression_span(text: str, col: int, one_based: bool) -> tuple[int, int] | None:
    """The [start, end) of the expression a location column points at, for highlighting.

    From the column, take the dotted name and, if a call or subscript follows, its bracketed arguments;
    at a bracket, the bracketed group; otherwise the single token. The column counts UTF-8 bytes, as
    Python's ast (and so Triton) does; the span counts characters.
    """
    offset = col - 1 if one_based else col
    raw = text.encode("utf-8", "surrogatepass")
    if offset < 0 or offset >= len(raw):
        return None
    start = len(raw[:offset].decode("utf-8", "ignore"))
    i = start
    if text[i].isalnum() or text[i] == "_":
        while i < len(text) and (text[i].isalnum() or text[i] in "_."):
            i += 1
        while i < len(text) and text[i] in "([":
            i = _close(text, i)
    elif text[i] in "([":
        i = _close(text, i)
    else:
        while i < len(text) and not text[i].isspace():
            i += 1
    return (start, i) if i > start else None


def _close(text: str, i: int) -> int:
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    while i < len(text):
        c = text[i]
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        elif c in "'\"":
            j = text.find(c, i + 1)
            i = j if j > 0 else len(text) - 1
        i += 1
    return i


def columns_are_one_based(triton_version: str | None) -> bool | None:
    """Triton >= 3.8 writes 1-based expression starts, older releases 0-based; None if unreadable.

    Metadata without `triton_version` comes from a release older than 3.8 (the field predates it)."""
    if not triton_version:
        return False
    try:
        major, minor = (int(x) for x in triton_version.split(".")[:2])
    except ValueError:
        return None
    return (major, minor) >= (3, 8)
