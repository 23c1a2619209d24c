"""Terminal output: one rich Console, pygments highlighting, a pager for long text."""

from __future__ import annotations

import os
import shutil
import sys

from rich.console import Console


def color_enabled() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


class VisibleConsole(Console):
    """A Console whose text shows the control characters of what it prints (render/visible.py): a cache's
    names, paths and IR lines cannot move the cursor, clear the screen or retitle the terminal. Rich's own
    styles and control codes are untouched. No emoji codes (`utils.py:100:17` is a line and a column, never
    rich's `:100:`: it printed 💯), no markup (`[red]` in a path is text): styles come as Text and style=."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("emoji", False)
        kwargs.setdefault("markup", False)  # (a kernel's name or path holding `[red]` is text, never a style)
        super().__init__(*args, **kwargs)

    def render(self, renderable, options=None):
        from rich.segment import Segment

        from tritonscope.render.visible import CONTROL, visible

        for segment in super().render(renderable, options):
            if segment.control is None and CONTROL.search(segment.text):
                segment = Segment(visible(segment.text), segment.style)
            yield segment


def make_console() -> Console:
    if color_enabled():
        return VisibleConsole(highlight=False)
    # Piped or NO_COLOR: plain text, no width limit that would wrap IR lines.
    return VisibleConsole(highlight=False, no_color=True, color_system=None,
                          width=100000 if not sys.stdout.isatty() else None, soft_wrap=True)


def string_console(color: bool, buf) -> Console:
    """A Console writing into `buf` (a StringIO), for document renderers that return text: ANSI colour
    only when asked, a fixed width without."""
    return VisibleConsole(file=buf, force_terminal=color, no_color=not color, highlight=False,
                          width=200 if not color else None, soft_wrap=True)


def highlight(text: str, stage: str) -> str:
    """ANSI-highlighted text (pygments' terminal formatter), or the text unchanged without colour."""
    if not color_enabled():
        return text
    from pygments import highlight as pyg_highlight
    from pygments.formatters import Terminal256Formatter

    from tritonscope.render.lexers import lexer_for_stage

    return pyg_highlight(text, lexer_for_stage(stage), Terminal256Formatter(style="monokai"))


def page(text: str, exact: bool = False) -> None:
    """Write text; through $PAGER (less -R) when stdout is a terminal and the text is taller than it. A text
    without a final newline gets one, unless `exact` (a file's bytes, piped: a text cut mid-line stays so)."""
    if sys.stdout.isatty() and text.count("\n") > shutil.get_terminal_size().lines - 2:
        import pydoc
        pager = os.environ.get("PAGER") or "less -R"
        os.environ.setdefault("LESS", "FRX")
        if pager.split()[0] == "less":
            pydoc.pipepager(text, pager)
        else:
            pydoc.pager(text)
        return
    try:
        # (piped, `exact` writes the file's bytes: an empty stage is nothing, as `cat` writes it)
        sys.stdout.write(text if text.endswith("\n") or (exact and not sys.stdout.isatty()) else text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        try:
            sys.stdout.close()
        except OSError:
            pass


def human_size(n: int | None) -> str:
    if n is None:
        return "-"
    for unit in ("B", "K", "M", "G"):
        if n < 1024 or unit == "G":
            return f"{n:.0f}{unit}" if unit == "B" else f"{n:.1f}{unit}"
        n /= 1024
    return f"{n}"


def human_age(seconds: float) -> str:
    seconds = max(0, seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"
