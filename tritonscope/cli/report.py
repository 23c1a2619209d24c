"""`tritonscope report`: write one self-contained HTML page for a kernel."""

from __future__ import annotations

import os
import re
import sys

import click

from tritonscope.cli.common import Selection, selection_options, write_atomically
from tritonscope.errors import UsageError
from tritonscope.render.visible import one_line

# Characters kept from a kernel name in the default output file name.
UNSAFE_FILENAME_CHARS = re.compile(r"[^\w.-]+")


def default_output(name: str) -> str:
    """`<kernel>.report.html` in the working directory, the name made safe: no separator or odd character,
    not hidden (a crafted name '.x' or '..'), never empty."""
    return (UNSAFE_FILENAME_CHARS.sub("_", name)[:100].lstrip(".") or "kernel") + ".report.html"


@click.command("report")
@selection_options()
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Where to write the page (default: <kernel>.report.html here; '-' for stdout).")
@click.option("--stages", "stages", default=None, metavar="LIST",
              help="Stages to show beside the source, comma-separated, e.g. ttgir,llir,ptx,sass "
              "(default: ttgir,llir and the target's assembly).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
@click.option("--no-source", "no_source", is_flag=True,
              help="Embed no Python source (the page then holds only the entry's own files).")
def report_cmd(sel: Selection, output: str | None, stages: str | None, open_browser: bool, no_source: bool) -> None:
    """Write a self-contained HTML report of KERNEL: source and stages side by side with
    click-to-highlight, layouts (a Gluon kernel's written ones too), loads and metadata. Needs no network to
    view. The loads table is `tritonscope loads`'s, read to the final ISA (SASS where nvdisasm reads the
    CUBIN) whatever stages are shown.

    The page embeds the kernel's own Python source and the files of the helpers it inlined from other
    modules (a button each above the source; a helper's line selects the ops written there): .py files
    that the kernel's locations name, every line named lying in a Triton jit function, never a symlink
    leaving its directory, a hidden or a binary file. It lists every named file with whether it was
    embedded (and why not), and cautions where a file embedded was modified after the kernel was
    compiled; --no-source embeds none."""
    from tritonscope.render.html import render_report
    from tritonscope.report import ReportOptions, build_report, default_stages
    from tritonscope.stages.common import DERIVED_STAGES

    if output == "":
        from tritonscope.errors import UsageError

        raise UsageError("-o: an empty path (give a file name, or '-' for stdout)")
    entry = sel.one()
    path = None
    if output != "-":
        path = output or default_output(entry.name)
        sel.refuse_output_inside_caches(path, "-o" if output else "the default output (give -o)", [entry])
    chosen = parse_stages(stages)
    for stage in chosen or default_stages(entry):  # a stage over the size limit: one line, before any work
        if DERIVED_STAGES.get(stage, stage) in entry.files:
            entry.stage_path(DERIVED_STAGES.get(stage, stage))
    model = build_report(entry, ReportOptions(stages=chosen, source_roots=sel.search_roots,
                                              substitutions=sel.substitutions, read_source=not no_source,
                                              kept=sel.kept_source))
    if not no_source:  # Inductor's records are files other than the entry's: --no-source reads none
        model.provenance = sel.inductor_link(entry)
    page = render_report(model)
    if output == "-":
        sys.stdout.buffer.write(page.encode("utf-8", "backslashreplace"))
        return
    write_atomically(path, page)
    size = os.path.getsize(path)
    shown = ", ".join(p.stage for p in model.stages if p.text) or "no IR stage (the entry keeps none)"
    source = "source + " if model.source.text is not None else ""  # (2.0 names no file; --no-source; refused)
    click.echo(one_line(f"wrote {path} ({size / 1024:.0f} KiB: {source}{shown})"),
               err=True)
    for pane in model.stages:  # a stage asked for or kept whose pane has no text says why (its note)
        if not pane.text:
            click.echo(one_line(f"  not shown: {pane.note or f'{pane.stage}: empty'}"), err=True)
    for s in model.sources:
        why = (f"caution: {s.caution}" if s.caution else None) if s.embedded else s.reason
        click.echo(one_line(f"  {'embedded' if s.embedded else 'not embedded'}: {s.ir_path}"
                            + (f" ({why})" if why else "")), err=True)
    if open_browser:
        import pathlib
        import webbrowser

        webbrowser.open(pathlib.Path(os.path.abspath(path)).as_uri())


def parse_stages(text: str | None) -> tuple[str, ...] | None:
    """`ttgir,llir,ptx,sass` -> stage names (hsaco/cubin mean their disassembly), checked."""
    if not text:
        return None
    from tritonscope.report import REPORT_STAGES
    from tritonscope.srcmap.kernelmap import STAGE_ALIASES

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
