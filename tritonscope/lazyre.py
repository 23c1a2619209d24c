"""Regular expressions compiled on first use.

Compiling a pattern costs 20-200 us in `re`'s pure-Python compiler; the modules a command imports hold
~150 of them, most of which one command never uses (the AMDGCN patterns while reading an NVIDIA kernel,
the Inductor wrapper patterns when there is no wrapper). `lazy_compile(p)` stands for `re.compile(p)` at
module level: the first method call compiles it and binds the compiled pattern's methods onto the
instance, so every later call is an ordinary attribute lookup with no indirection.
"""

from __future__ import annotations

import re

_METHODS = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer")


class LazyPattern:
    """`re.compile(pattern, flags)`, deferred until a method or attribute is first used."""

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern = pattern
        self._flags = flags

    def compiled(self) -> re.Pattern:
        rx = self.__dict__.get("_rx")
        if rx is None:
            rx = self._rx = re.compile(self.pattern, self._flags)
            for name in _METHODS:
                setattr(self, name, getattr(rx, name))
        return rx

    def __getattr__(self, name: str):  # only for attributes not yet bound: the first use
        if name.startswith("__") or name in ("pattern", "_flags", "_rx"):  # (a copy made without __init__)
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __reduce__(self):  # copies and pickles start uncompiled
        return (LazyPattern, (self.pattern, self._flags))

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r})"


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
