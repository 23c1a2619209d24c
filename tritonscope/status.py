"""One-line progress on stderr for long single steps (a cache walk, a parse of a huge stage), when stderr
is a terminal; nothing otherwise. A leaf module: anything may import it."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


def stderr_console():
    """The console of every progress line on stderr: no markup and no emoji codes (what it shows holds paths and
    kernel names: `[red]` and `:100:` are text there), their control characters made visible (a stage's file
    name is the cache author's: render/visible.py)."""
    from tritonscope.render.terminal import VisibleConsole

    return VisibleConsole(stderr=True)


@contextlib.contextmanager
def counting_status(label: str) -> Iterator[Callable[[int], None]]:
    """A one-line `label: N` on stderr while work of unknown length runs (a cache walk), when stderr
    is a terminal; a no-op otherwise."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.text import Text

    # (a Text, not a str: a status reads a str as markup and emoji codes, a path's `[red]` or `:100:` with it)
    with stderr_console().status(Text(f"{label}...")) as status:
        yield lambda n: status.update(Text(f"{label}: {n} entries"))


@contextlib.contextmanager
def busy(label: str) -> Iterator[None]:
    """A spinner with `label` on stderr while one long step runs, when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield
        return
    from rich.text import Text

    with stderr_console().status(Text(label)):
        yield
