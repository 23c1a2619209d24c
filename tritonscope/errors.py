"""The project's exceptions. The CLI turns each into one line and an exit code."""

from __future__ import annotations


class TritonscopeError(Exception):
    """An error the user can act on: bad input, nothing matched, a missing tool. Exit code 1."""

    exit_code = 1

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
    """A wrong combination of arguments. Exit code 2."""

    exit_code = 2


class ToolMissing(TritonscopeError):
    """An external disassembler is not installed or does not know the architecture."""
