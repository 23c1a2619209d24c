"""The project's exceptions and exit statuses. The CLI turns each exception into one line and a status."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """Every status the `tritonscope` command exits with (the CLI's `Outcome.return_code` picks one)."""

    OK = 0
    FAILED = 1  # an error the user can act on, a failed compile or run, a diff rule that failed
    USAGE = 2  # a wrong combination of arguments (click's own usage errors exit 2 too)
    INTERRUPTED = 130  # Ctrl-C, as a shell expects (128 + SIGINT)


class TritonscopeError(Exception):
    """An error the user can act on: bad input, nothing matched, a missing tool. Exit status 1."""

    exit_code = ExitStatus.FAILED

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ParseError(TritonscopeError):
    """Text that a stage parser cannot read. Carries the file and 1-based line number where known."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        super().__init__(message, path)
        self.line = line

    def __str__(self) -> str:
        where = self.path or "<text>"
        if self.line is not None:
            where += f":{self.line}"
        return f"{where}: {self.message}"


class UsageError(TritonscopeError):
    """A wrong combination of arguments. Exit status 2."""

    exit_code = ExitStatus.USAGE


class ToolMissing(TritonscopeError):
    """An external disassembler is not installed or does not know the architecture."""


class Terminated(SystemExit):
    """SIGTERM or SIGHUP: the command ends as Ctrl-C ends it, exit status 128 + the signal. A SystemExit, so
    that cleanup runs; its own class, so that code catching a user module's `sys.exit` lets it through."""
