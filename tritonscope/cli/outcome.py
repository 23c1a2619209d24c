"""What one command invocation came to, and the one place that decides its exit status (modelled on
black's `Report`: commands record, `return_code` decides, `report` says it).

A command records failures it finds itself (a compile that failed, a diff rule that fired) with
`outcome().failed(...)`; errors raised out of a command are recorded by the command group; the lines the
parsers left unparsed are collected for the duration of the command. Nothing here calls `sys.exit`.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field

import click

from tritonscope.errors import ExitStatus
from tritonscope.render.visible import one_line

# A write that fails for want of room or of a device (`report -o - > /dev/full`)
_OUTPUT_ERRNOS = frozenset(n for n in (errno.ENOSPC, getattr(errno, "EDQUOT", None), errno.EFBIG, errno.EIO) if n)


@dataclass(slots=True)
class Outcome:
    debug: bool = False
    # (stage, path) -> [(line, text)] of every stage parsed by the command (workers' included).
    unparsed: dict = field(default_factory=dict)
    # What the command itself counts as failing: "2 kernel(s) failed to compile", "rule ptx-regs".
    failures: list[str] = field(default_factory=list)
    error: BaseException | None = None  # what ended the command, if anything did
    # One-line notes on what the command could not use (a missing Inductor dir, stale records).
    notes: list[str] = field(default_factory=list)

    def failed(self, what: str) -> None:
        self.failures.append(what)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    @property
    def return_code(self) -> ExitStatus:
        from tritonscope.errors import TritonscopeError

        exc = self.error
        if exc is None:
            return ExitStatus.FAILED if self.failures else ExitStatus.OK
        if isinstance(exc, TritonscopeError):
            return ExitStatus(exc.exit_code)
        if isinstance(exc, BrokenPipeError):  # `tritonscope ... | head`: the reader had enough
            return ExitStatus.OK
        if isinstance(exc, KeyboardInterrupt):
            return ExitStatus.INTERRUPTED
        return ExitStatus.FAILED

    def error_line(self) -> str | None:
        """The one line an error becomes (None for none, and for a closed pipe)."""
        from tritonscope.errors import TritonscopeError

        exc = self.error
        if exc is None or isinstance(exc, BrokenPipeError):
            return None
        if isinstance(exc, TritonscopeError):
            return f"tritonscope: error: {exc}"
        if isinstance(exc, KeyboardInterrupt):
            return "tritonscope: interrupted"
        if isinstance(exc, OSError) and exc.filename:
            return f"tritonscope: error: {exc.filename}: {exc.strerror}"
        if isinstance(exc, OSError) and exc.errno in _OUTPUT_ERRNOS:  # (a write that names no file: stdout's)
            return f"tritonscope: error: <stdout>: {exc.strerror or exc}"
        where = "" if self.debug else " (run with --debug for a traceback)"
        return f"tritonscope: internal error: {type(exc).__name__}: {exc}{where}"

    def unparsed_lines(self) -> list[str]:
        """`note: PATH: unparsed lines: N` per parsed file with lines no parser rule read; under --debug
        up to five examples each."""
        from tritonscope.stages import FILE_REMARK

        out: list[str] = []
        with_path = {(stage, len(lines)) for (stage, path), lines in self.unparsed.items() if path}
        for (stage, path), lines in sorted(self.unparsed.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
            if path is None and (stage, len(lines)) in with_path:
                continue  # the same text parsed again without its path (metrics): reported once
            where = path or f"{stage} text"
            out.extend(f"tritonscope: note: {where}: {text}" for n, text in lines if n == FILE_REMARK)
            lines = [item for item in lines if item[0] != FILE_REMARK]
            if not lines:
                continue
            hint = "" if self.debug else " (--debug shows them)"
            out.append(f"tritonscope: note: {where}: unparsed lines: {len(lines)}{hint}")
            if self.debug:
                out.extend(f"  {where}:{lineno}: {text[:160]}" for lineno, text in lines[:5])
        return out

    def report(self) -> None:
        """Say on stderr what the exit status alone does not: the error's line, or the unparsed notes."""
        if self.error is not None:
            if self.debug and not isinstance(self.error, BrokenPipeError):
                import traceback

                traceback.print_exception(type(self.error), self.error, self.error.__traceback__)
            line = self.error_line()
            if line:
                click.echo(one_line(line), err=True)
            return
        for text in self.notes:
            click.echo(one_line(f"tritonscope: note: {text}"), err=True)
        for line in self.unparsed_lines():
            click.echo(one_line(line), err=True)


def outcome() -> Outcome:
    """The Outcome of the command running now (a fresh one outside the command group, e.g. in tests
    that call a command's function directly)."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_object(Outcome) if ctx is not None else None
    return obj if obj is not None else Outcome()
