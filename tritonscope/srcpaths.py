"""Finding the Python source a cache names, when the cache was made on another machine.

Like gdb: `--substitute-path OLD NEW` rewrites a path prefix (tried in the order given), and
`--source-root DIR` looks for the file's trailing path components under DIR (`xx/name.py`, then
`name.py`), then for its basename anywhere below DIR. Nothing is guessed silently: the result says
which rule found the file, or that it is missing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

_MAX_WALK_FILES = 50000


@dataclass
class SourceText:
    """The lines of a found source file, or why there are none."""

    requested: str  # the path the IR names
    path: str | None = None  # where it was found
    how: str | None = None  # 'as is' | 'substitute-path' | 'source-root'
    lines: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def found(self) -> bool:
        return self.path is not None

    def line(self, n: int) -> str | None:
        return self.lines[n - 1] if 0 < n <= len(self.lines) else None

    def to_json(self) -> dict:
        return {"requested": self.requested, "path": self.path, "how": self.how, "found": self.found,
                "error": self.error}


@dataclass(frozen=True)
class SourceFinder:
    roots: tuple[str, ...] = ()
    substitutions: tuple[tuple[str, str], ...] = ()

    def locate(self, requested: str) -> tuple[str | None, str | None]:
        for old, new in self.substitutions:
            rest = _strip_prefix(requested, old)
            if rest is not None:
                candidate = os.path.join(new, rest) if rest else new
                if os.path.isfile(candidate):
                    return candidate, "substitute-path"
        if requested and os.path.isfile(requested):
            return requested, "as is"
        parts = [p for p in Path(requested).parts if p not in ("/", "")]
        for root in self.roots:
            for k in range(len(parts), 0, -1):
                candidate = os.path.join(root, *parts[-k:])
                if os.path.isfile(candidate):
                    return candidate, "source-root"
        if parts:
            for root in self.roots:
                hit = _find_by_name(root, parts[-1])
                if hit:
                    return hit, "source-root"
        return None, None

    def read(self, requested: str) -> SourceText:
        path, how = self.locate(requested)
        text = SourceText(requested, path, how)
        if path is None:
            text.error = "source not found" + ("" if self.roots or self.substitutions else
                                               " (try --source-root DIR or --substitute-path OLD NEW)")
            return text
        try:
            with open(path, "rb") as fh:
                text.lines = fh.read().decode("utf-8", "replace").splitlines()
        except OSError as e:
            text.path, text.error = None, f"cannot read {path}: {e.strerror or e}"
        return text


def _strip_prefix(path: str, prefix: str) -> str | None:
    """The rest of `path` below `prefix`, matching whole components only ('/a/b' is not under '/a/bc')."""
    prefix = prefix.rstrip("/") or "/"
    if path == prefix:
        return ""
    head = prefix if prefix.endswith("/") else prefix + "/"
    return path[len(head):] if path.startswith(head) else None


def _find_by_name(root: str, name: str) -> str | None:
    seen = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if name in filenames:
            return os.path.join(dirpath, name)
        seen += len(filenames)
        if seen > _MAX_WALK_FILES:
            break
    return None


def expression_span(text: str, col: int, one_based: bool) -> tuple[int, int] | None:
    """The [start, end) of the expression a location column points at, for highlighting.

    From the column, take the dotted name and, if a call or subscript follows, its bracketed arguments;
    at a bracket, the bracketed group; otherwise the single token.
    """
    start = col - 1 if one_based else col
    if start < 0 or start >= len(text):
        return None
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
