"""Text from a cache, shown on a terminal: its control characters made visible.

A cache's kernel names, paths, versions and IR are anyone's text (caches travel as CI artifacts and bug
reports). An escape sequence in them, printed as is, would move the cursor, clear the screen, retitle the
terminal or hide what follows. Everything the tool prints on a terminal (its consoles, its notes and error
lines on stderr) shows such a character as `\\x1b`; tabs and line breaks stay. `show` prints a stage's
text as stored (as `cat` would); JSON escapes them itself.
"""

from __future__ import annotations

from tritonscope.lazyre import lazy_compile

# C0 controls but tab and line feed, DEL, and the C1 controls (the 8-bit CSI among them)
CONTROL = lazy_compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """`text` with each control character written as `\\xNN`."""
    if CONTROL.search(text) is None:
        return text
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def one_line(text: str) -> str:
    """`visible(text)` with line breaks written as `\\n` too: an error or a note is one line on stderr
    whatever path or name it quotes."""
    return visible(text).replace("\n", "\\n")
