"""The `tritonscope` command group.

Each command is declared in its own module under tritonscope/cli/ and loaded only when invoked, so
`tritonscope --help` and the inspection commands start without importing what they do not use (and
never triton or torch). Errors from the project become one line and an exit code here.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from tritonscope import __version__, relax_gc
from tritonscope.errors import ExitStatus

# command name -> "module:attribute"; order is the order of `--help`.
COMMANDS: dict[str, tuple[str, str]] = {
    "ls": ("tritonscope.cli.ls:ls_cmd", "List the kernels in a Triton cache."),
    "show": ("tritonscope.cli.show:show_cmd", "Print one stage of a kernel, highlighted."),
    "compile": ("tritonscope.cli.compile:compile_cmd", "Compile sample or user kernels into a cache."),
    "map": ("tritonscope.cli.map:map_cmd", "Map ops of every stage back to Python source lines."),
    "layout": ("tritonscope.cli.layout:layout_cmd", "Decode TTGIR layouts: who owns which element."),
    "loads": ("tritonscope.cli.loads:loads_cmd", "Per-thread loads/stores and vectorization, per stage."),
    "diff": ("tritonscope.cli.diff:diff_cmd", "Compare IR between caches, snapshots or kernels."),
    "snapshot": ("tritonscope.cli.diff:snapshot_cmd", "Write normalized IR and metrics for committing."),
    "report": ("tritonscope.cli.report:report_cmd", "Write a self-contained HTML report of a kernel."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, (target, _) in COMMANDS.items() if _module_exists(target)]

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        """The group's own options parsed; a wrong one is one line, exit 2 (click prints three)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            if isinstance(exc, getattr(click.exceptions, "NoArgsIsHelpError", ())):
                raise  # (no arguments: the help)
            click.echo(f"tritonscope: error: {exc.format_message()}", err=True)
            raise click.exceptions.Exit(ExitStatus.USAGE) from None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        target = COMMANDS[name][0]
        if not _module_exists(target):
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Short help from the table: listing commands must not import every command module.
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context):
        """Run the command with an Outcome on the context; the Outcome alone decides the exit status."""
        from tritonscope.cli.outcome import Outcome
        from tritonscope.stages import collecting_unparsed

        outcome = ctx.ensure_object(Outcome)
        outcome.debug = bool(ctx.params.get("debug"))
        result = None
        with collecting_unparsed() as unparsed:
            outcome.unparsed = unparsed  # one report per command (in-process callers invoke many)
            try:
                result = super().invoke(ctx)
            except click.exceptions.Exit:  # --help / --version of a command
                outcome.report()
                raise
            except click.UsageError as exc:  # a command's arguments, as click parsed them: one line, exit 2
                from tritonscope.errors import UsageError

                outcome.error = UsageError(exc.format_message())
            except (click.ClickException, click.Abort):
                raise
            except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - recorded, then one line
                outcome.error = exc
        outcome.report()
        code = outcome.return_code
        if code != ExitStatus.OK:
            sys.exit(int(code))
        return result


def _module_exists(target: str) -> bool:
    module_name = target.split(":")[0]
    rel = module_name.split(".")[-1] + ".py"
    return os.path.exists(os.path.join(os.path.dirname(__file__), rel))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tritonscope")
@click.option("--debug", is_flag=True, help="Show tracebacks and unparsed-line examples.")
@click.option("--disasm-cache", "disasm_cache", default=None, metavar="DIR|off",
              help="Where disassemblies are kept between runs (default: $TRITONSCOPE_DISASM_CACHE, else "
              "$XDG_CACHE_HOME/tritonscope/disasm, else ~/.cache/tritonscope/disasm); 'off': none.")
@click.option("--records-cache", "records_cache", default=None, metavar="DIR|off",
              help="Where snapshot/diff records are kept between runs (default: $TRITONSCOPE_RECORDS_CACHE, else "
              "$XDG_CACHE_HOME/tritonscope/records, else ~/.cache/tritonscope/records); 'off': none.")
def main(debug: bool, disasm_cache: str | None, records_cache: str | None) -> None:
    """Inspect the artifacts of the Triton GPU compiler.

    Reads the Triton cache ($TRITON_CACHE_DIR, else $TRITON_HOME/.triton/cache, else ~/.triton/cache)
    read-only. Only `compile` writes, and only into the cache it is given. Disassemblies (nvdisasm) are
    kept in a cache of the tool's own, outside every Triton cache (--disasm-cache), and so are the
    records `snapshot` and `diff` compute (--records-cache).
    """
    import os

    # the environment carries them to pool workers and the modules that open the caches
    if disasm_cache is not None:
        os.environ["TRITONSCOPE_DISASM_CACHE"] = disasm_cache
    if records_cache is not None:
        os.environ["TRITONSCOPE_RECORDS_CACHE"] = records_cache


def _cleanup_on_termination() -> None:
    """SIGTERM and SIGHUP (a CI timeout, a closed terminal) end the command as Ctrl-C does: through its
    cleanup (a snapshot's or report's temporary files removed, a lock released), exit status 128 + signal."""
    import signal

    from tritonscope.errors import Terminated

    def terminated(signum, frame):
        raise Terminated(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name) and signal.getsignal(getattr(signal, name)) == signal.SIG_DFL:
            signal.signal(getattr(signal, name), terminated)


# True where the command runs as a program (`run`, the console entry point), not inside another process (a test
# runner's CliRunner): only then may it fork a process to watch it (compile/supervise.py)
AS_PROGRAM = False


def run() -> None:
    """The console entry point: `main`, then, where a compile loaded Triton's C++ extension, an exit that
    skips interpreter teardown. Triton's Gluon front end keeps IR attributes alive in module globals, and
    nanobind prints dozens of "leaked instance" lines at teardown: noise after a clean result, or after a
    one-line error; and where Ctrl-C or a termination ended a process pool's workers (the pool's thread may
    never end: parallel._end_workers). Our own output is flushed first; nothing of ours runs at exit."""
    global AS_PROGRAM
    AS_PROGRAM = True
    relax_gc()
    _cleanup_on_termination()
    try:
        main(standalone_mode=True)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    # (and where Ctrl-C ended a process pool's workers, whose thread the interpreter's exit would wait on)
    if "triton._C.libtriton" in sys.modules or getattr(sys.modules.get("tritonscope.parallel"), "POOL_ABANDONED",
                                                       False):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)
