"""`tritonscope report`: write one self-contained HTML page for a kernel."""

from __future__ import annotations

import os
import re
import sys

import click

from tritonscope.cli.common import kernel_options, resolve_kernel
from tritonscope.errors import UsageError

# Characters kept from a kernel name in the default output file name.
UNSAFE_FILENAME_CHARS = re.compile(r"[^\w.-]+")


@click.command("report")
@kernel_options
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Where to write the page (default: <kernel>.report.html here; '-' for stdout).")
@click.option("--stages", "stages", default=None, metavar="LIST",
              help="Stages to show beside the source, comma-separated, e.g. ttgir,llir,ptx,sass "
              "(default: ttgir,llir and the target's assembly).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(file_okay=False), metavar="DIR",
              help="Look for the kernel's source file under DIR (repeatable).")
@click.option("--substitute-path", "substitutions", nargs=2, multiple=True, metavar="OLD NEW",
              help="Rewrite the source path prefix OLD to NEW (repeatable, like gdb).")
def report_cmd(kernel: str | None, cache_dir: str | None, target: str | None, output: str | None,
               stages: str | None, open_browser: bool, source_roots: tuple[str, ...],
               substitutions: tuple[tuple[str, str], ...]) -> None:
    """Write a self-contained HTML report of KERNEL: source and stages side by side with
    click-to-highlight, layouts, loads and metadata. Needs no network to view."""
    from tritonscope.render.html import render_report
    from tritonscope.report import ReportOptions, build_report

    entry = resolve_kernel(kernel, cache_dir, target)
    chosen = parse_stages(stages)
    model = build_report(entry, ReportOptions(stages=chosen, source_roots=tuple(source_roots),
                                              substitutions=tuple(substitutions)))
    page = render_report(model)
    if output == "-":
        sys.stdout.write(page)
        return
    path = output or UNSAFE_FILENAME_CHARS.sub("_", entry.name)[:100] + ".report.html"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page)
    size = len(page.encode("utf-8"))
    click.echo(f"wrote {path} ({size / 1024:.0f} KiB: source + {', '.join(p.stage for p in model.stages)})",
               err=True)
    if open_browser:
        import pathlib
        import webbrowser

        webbrowser.open(pathlib.Path(os.path.abspath(path)).as_uri())


def parse_stages(text: str | None) -> tuple[str, ...] | None:
    """`ttgir,llir,ptx,sass` -> stage names (hsaco/cubin mean their disassembly), checked."""
    if not text:
        return None
    from tritonscope.report import REPORT_STAGES
    from tritonscope.srcmap import STAGE_ALIASES

    out: list[str] = []
    for raw in text.split(","):
        name = raw.strip().lower()
        name = STAGE_ALIASES.get(name, name)
        if not name:
            continue
        if name not in REPORT_STAGES:
            raise UsageError(f"--stages: unknown stage {raw.strip()!r} (known: {', '.join(REPORT_STAGES)})")
        if name not in out:
            out.append(name)
    if not out:
        raise UsageError("--stages: name at least one stage")
    return tuple(out)
