"""Text from a cache, shown on a terminal: its control characters made visible.

A cache's kernel names, paths, versions and IR are anyone's text (caches travel as CI artifacts and bug
reports). An escape sequence in them, printed as is, would move the cursor, clear the screen, retitle the
terminal or hide what follows; a bidirectional override makes the text after it read in another order.
Everything the tool prints on a terminal (its consoles, `show`, its notes and error lines on stderr) and
its HTML pages show such a character as `\\x1b` (`\\u202e`); tabs and line breaks stay. `show` piped into
a file or program writes the stage's text as stored (as `cat` would); JSON escapes them itself.
"""

from __future__ import annotations

from tritonscope.lazyre import lazy_compile

# C0 controls but tab and line feed, DEL, the C1 controls (the 8-bit CSI among them), and the bidirectional
# embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which reorder how the text after them
# reads ("Trojan Source"): a kernel name or path could show as another
CONTROL = lazy_compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _shown(m) -> str:
    code = ord(m.group())
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
