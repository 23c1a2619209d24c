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

from tritonscope import __version__

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
        stages = sys.modules.get("tritonscope.stages")
        if stages is not None:
            stages.UNPARSED.clear()  # one report per command (in-process callers invoke many)
        try:
            result = super().invoke(ctx)
            report_unparsed(ctx)
            return result
        except (click.exceptions.Exit, SystemExit):
            report_unparsed(ctx)  # a command that sets its exit code (diff --fail-on) parsed too
            raise
        except (click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt as exc:  # click would print "Aborted!" and exit 1; a shell expects 130
            handle_error(exc, ctx)
        except Exception as exc:  # noqa: BLE001 - the one place errors become exit codes
            handle_error(exc, ctx)


def _module_exists(target: str) -> bool:
    module_name = target.split(":")[0]
    rel = module_name.split(".")[-1] + ".py"
    return os.path.exists(os.path.join(os.path.dirname(__file__), rel))


def report_unparsed(ctx: click.Context) -> None:
    """`unparsed lines: N` per parsed file that had lines no parser rule read (examples under --debug)."""
    stages = sys.modules.get("tritonscope.stages")  # not imported: nothing was parsed
    if stages is None or not stages.UNPARSED:
        return
    debug = bool(ctx.find_root().params.get("debug"))
    with_path = {(stage, len(lines)) for (stage, path), lines in stages.UNPARSED.items() if path}
    for (stage, path), lines in sorted(stages.UNPARSED.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if path is None and (stage, len(lines)) in with_path:
            continue  # the same text parsed again without its path (metrics): reported once
        where = path or f"{stage} text"
        hint = "" if debug else " (--debug shows them)"
        click.echo(f"tritonscope: note: {where}: unparsed lines: {len(lines)}{hint}", err=True)
        if debug:
            for lineno, text in lines[:5]:
                click.echo(f"  {where}:{lineno}: {text[:160]}", err=True)
    stages.UNPARSED.clear()


def handle_error(exc: BaseException, ctx: click.Context | None) -> None:
    from tritonscope.errors import TritonscopeError

    debug = bool(ctx and ctx.find_root().params.get("debug"))
    if debug:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__)
    if isinstance(exc, TritonscopeError):
        click.echo(f"tritonscope: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    if isinstance(exc, BrokenPipeError):
        sys.exit(0)
    if isinstance(exc, KeyboardInterrupt):
        click.echo("tritonscope: interrupted", err=True)
        sys.exit(130)
    if isinstance(exc, OSError) and exc.filename:
        click.echo(f"tritonscope: error: {exc.filename}: {exc.strerror}", err=True)
        sys.exit(1)
    where = "" if debug else " (run with --debug for a traceback)"
    click.echo(f"tritonscope: internal error: {type(exc).__name__}: {exc}{where}", err=True)
    sys.exit(1)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tritonscope")
@click.option("--debug", is_flag=True, help="Show tracebacks and unparsed-line examples.")
@click.option("--disasm-cache", "disasm_cache", default=None, metavar="DIR|off",
              help="Where disassemblies are kept between runs (default: $TRITONSCOPE_DISASM_CACHE, else "
              "$XDG_CACHE_HOME/tritonscope/disasm, else ~/.cache/tritonscope/disasm); 'off': none.")
def main(debug: bool, disasm_cache: str | None) -> None:
    """Inspect the artifacts of the Triton GPU compiler.

    Reads the Triton cache ($TRITON_CACHE_DIR, else $TRITON_HOME/.triton/cache, else ~/.triton/cache)
    read-only. Only `compile` writes, and only into the cache it is given. Disassemblies (nvdisasm) are
    kept in a cache of the tool's own, outside every Triton cache (--disasm-cache).
    """
    if disasm_cache is not None:  # the environment carries it to pool workers and the tools module
        import os

        os.environ["TRITONSCOPE_DISASM_CACHE"] = disasm_cache


def run() -> None:
    """The console entry point: `main`, then, where a compile loaded Triton's C++ extension, an exit that
    skips interpreter teardown. Triton's Gluon front end keeps IR attributes alive in module globals, and
    nanobind prints dozens of "leaked instance" lines at teardown: noise after a clean result, or after a
    one-line error. Our own output is flushed first; nothing of ours runs at exit."""
    try:
        main(standalone_mode=True)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    if "triton._C.libtriton" in sys.modules:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)
