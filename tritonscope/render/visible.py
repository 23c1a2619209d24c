"""Text from a cache, shown on a terminal: its control characters made visible.

A cache's kernel names, paths, versions and IR are anyone's text (caches travel as CI artifacts and bug
reports). An escape sequence in them, printed as is, would move the cursor, clear the screen, retitle the
terminal or hide what follows; a bidirectional override makes the text after it read in another order.
Everything the tool prints on a terminal (its consoles, `show`, its notes and error lines on stderr) and
its HTML pages show such a character as `\\x1b` (`\\u202e`); tabs and line breaks stay. `show` piped into
a file or program writes the stage's text as stored (as `cat` would); JSON escapes them itself (`--json`
writes ASCII; a snapshot's metrics.json, which keeps other text as UTF-8, escapes these with `json_visible`).

A name or path that is not UTF-8 (a file name's bytes, as Python reads them: lone surrogates U+DC80-U+DCFF)
shows each such byte as `\\xNN`: written back as the byte it stands for, 0x9b is the 8-bit CSI, and a strict
UTF-8 stdout cannot write it at all.
"""

from __future__ import annotations

from tritonscope.lazyre import lazy_compile

# C0 controls but tab and line feed, DEL, the C1 controls (the 8-bit CSI among them); the bidirectional
# embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which reorder how the text after them
# reads ("Trojan Source"), and the marks that reorder the neutral characters around them (U+200E, U+200F,
# U+061C); the characters that show nothing, so that two names that read alike differ (U+200B, U+2060,
# U+FEFF), and the line and paragraph separators; lone surrogates (a name's undecodable bytes, or a JSON
# escape of one). The joiners U+200C and U+200D are left as they are: scripts and emoji need them.
CONTROL = lazy_compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069"
                       r"\ufeff\ud800-\udfff]")


def _shown(m) -> str:
    code = ord(m.group())
    if 0xDC80 <= code <= 0xDCFF:  # the byte Python's surrogateescape read it from
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with each control character written as `\\xNN` (a bidirectional control as `\\uNNNN`)."""
    if CONTROL.search(text) is None:
        return text
    return CONTROL.sub(_shown, text)


def one_line(text: str) -> str:
    """`visible(text)` with line breaks written as `\\n` too: an error or a note is one line on stderr
    whatever path or name it quotes."""
    return visible(text).replace("\n", "\\n")


def json_visible(text: str) -> str:
    """JSON text written with `ensure_ascii=False`, each character `CONTROL` matches (which JSON leaves raw but
    C0's) escaped as `\\uNNNN`: the same JSON value, and a file that `cat` or `git diff` shows as it reads."""
    if CONTROL.search(text) is None:
        return text
    return CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
