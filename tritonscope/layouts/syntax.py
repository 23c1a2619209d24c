"""A small reader for MLIR attribute syntax as Triton prints layouts.

`#ttg.blocked<{sizePerThread = [8, 1], order = [0, 1]}>` -> AttrText(dialect, kind, fields); values are
ints, bools, bare words, lists, nested dicts, `#alias` references or nested attributes. Errors are ParseError
with the column where reading stopped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tritonscope.errors import ParseError

TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<attr>\#(?:(?P<dialect>[A-Za-z_]\w*)\.)?(?P<kind>[A-Za-z_]\w*)(?=<))
  | (?P<alias>\#[A-Za-z_][\w$.]*)
  | (?P<int>[-+]?\d+)
  | (?P<word>[A-Za-z_][\w.]*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<punct>[<>{}\[\],=:])
""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class AliasRef:
    name: str

    def __str__(self) -> str:
        return f"#{self.name}"


@dataclass
class AttrText:
    dialect: str | None
    kind: str
    fields: list[tuple[str, object]] = field(default_factory=list)
    intervals: list[tuple[int, int]] = field(default_factory=list)  # padded_shared's [512:+8, ...]
    source: str = ""

    def __str__(self) -> str:
        return self.source


_MAX_NESTING = 64  # attributes inside attributes (slice parents, dot_op parents): real ones are < 5


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.tokens: list[tuple[str, str, int, re.Match]] = []
        pos = 0
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m:
                raise ParseError(f"unexpected character {text[pos]!r} at column {pos + 1} of {_clip(text)}")
            if m.lastgroup != "ws":
                kind = "attr" if m.group("attr") else m.lastgroup
                self.tokens.append((kind, m.group(0), pos, m))
            pos = m.end()
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, str, int, re.Match] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def next(self) -> tuple[str, str, int, re.Match]:
        tok = self.peek()
        if tok is None:
            raise ParseError(f"unexpected end of text in {_clip(self.text)}")
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        _kind, text, pos, _ = self.next()
        if text != value:
            raise ParseError(f"expected {value!r} at column {pos + 1}, found {text!r} in {_clip(self.text)}")

    def accept(self, value: str) -> bool:
        tok = self.peek()
        if tok is not None and tok[1] == value:
            self.i += 1
            return True
        return False

    def value(self) -> object:
        # nesting is bounded: a slice of a slice of ... 1000 deep overflowed the stack (RecursionError)
        self.depth += 1
        try:
            if self.depth > _MAX_NESTING:
                raise ParseError(f"attribute nested more than {_MAX_NESTING} deep in {_clip(self.text)}")
            return self._value()
        finally:
            self.depth -= 1

    def _value(self) -> object:
        kind, text, pos, m = self.next()
        if kind == "int":
            if len(text) > 19:  # int() refuses > 4300 digits; no layout field is wider than 64 bits
                raise ParseError(f"number too long at column {pos + 1} in {_clip(self.text)}")
            return int(text)
        if kind == "word":
            return {"true": True, "false": False}.get(text, text)
        if kind == "string":
            return text[1:-1]
        if kind == "alias":
            return AliasRef(text[1:])
        if kind == "attr":
            return self.attr_body(m.group("dialect"), m.group("kind"), pos)
        if text == "[":
            items: list[object] = []
            if not self.accept("]"):
                items.append(self.value())
                while self.accept(","):
                    items.append(self.value())
                self.expect("]")
            return items
        if text == "{":
            return dict(self.dict_body())
        raise ParseError(f"unexpected {text!r} at column {pos + 1} in {_clip(self.text)}")

    def dict_body(self) -> list[tuple[str, object]]:
        """After `{`: `key = value, ...}`; a key without `= value` is a unit attribute (true)."""
        items: list[tuple[str, object]] = []
        if self.accept("}"):
            return items
        while True:
            kind, key, pos, _ = self.next()
            if kind not in ("word", "string"):
                raise ParseError(f"expected a field name at column {pos + 1}, found {key!r} in {_clip(self.text)}")
            if self.accept("="):
                try:
                    items.append((key.strip('"'), self.value()))
                except ParseError as exc:
                    raise ParseError(f"{key}: {exc.message}") from None
            else:
                items.append((key.strip('"'), True))
            if self.accept("}"):
                return items
            self.expect(",")

    def attr_body(self, dialect: str | None, kind: str, start: int) -> AttrText:
        attr = AttrText(dialect, kind)
        self.expect("<")
        if self.accept("["):  # padded_shared intervals: [512:+8, 1024:+16]
            while True:
                interval = self.value()
                self.expect(":")
                pad = self.value()
                if not isinstance(interval, int) or not isinstance(pad, int):
                    raise ParseError(f"padded_shared: expected [interval:+padding, ...] in {_clip(self.text)}")
                attr.intervals.append((interval, pad))
                if self.accept("]"):
                    break
                self.expect(",")
        while not self.accept(">"):
            if self.accept("{"):
                attr.fields.extend(self.dict_body())
            elif self.accept(","):
                continue
            else:
                kind_, key, pos, _ = self.next()
                if kind_ != "word":
                    raise ParseError(f"unexpected {key!r} at column {pos + 1} in {_clip(self.text)}")
                self.expect("=")
                attr.fields.append((key, self.value()))
        end = self.tokens[self.i - 1][2] + 1
        attr.source = self.text[start:end]
        return attr


def _clip(text: str) -> str:
    text = " ".join(text.split())  # errors are one line: text spanning lines (an alias table) is joined
    return text if len(text) <= 80 else text[:77] + "..."


def parse_value(text: str) -> object:
    """The one value in `text` (an attribute, an alias reference, a list...); the whole text must be used."""
    reader = _Reader(text)
    value = reader.value()
    rest = reader.peek()
    if rest is not None:
        raise ParseError(f"unexpected {rest[1]!r} at column {rest[2] + 1} after the layout in {_clip(text)}")
    return value


def split_top_level(body: str) -> list[str]:
    """`a, b<c, d>, e` -> [`a`, ` b<c, d>`, ` e`]: split at commas outside any bracket."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch in "<[{(":
            depth += 1
        elif ch in ">]})":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return parts
