"""`tritonscope show`: one stage of one kernel, highlighted, paged."""

from __future__ import annotations

import json

import click

from tritonscope.cli.common import Selection, selection_options
from tritonscope.stages.table import SHOWN_STAGES

STAGE_CHOICES = SHOWN_STAGES


@click.command("show")
@selection_options()
@click.option("--stage", "-s", type=click.Choice(STAGE_CHOICES), default=None,
              help="Stage to print (default: ttgir, else the first text stage present).")
@click.option("--meta", is_flag=True, help="Print the metadata json instead.")
def show_cmd(sel: Selection, stage: str | None, meta: bool) -> None:
    """Print one stage of KERNEL with syntax highlighting (plain when piped or NO_COLOR is set).

    `--stage sass` disassembles the cubin with nvdisasm; `--stage hsaco-asm` the hsaco with llvm-objdump.
    """
    from tritonscope.errors import TritonscopeError
    from tritonscope.render.terminal import highlight, page
    from tritonscope.stages import stage_text

    entry = sel.one()
    if meta:
        if entry.metadata is None:
            raise TritonscopeError(entry.metadata_error or "no metadata json in this entry", str(entry.path))
        page(highlight(json.dumps(entry.metadata, indent=2), "json"))
        return
    if stage is None:
        stage = next((s for s in ("ttgir", "ttir", "llir", "ptx", "amdgcn", "source") if s in entry.files), None)
        if stage is None:
            raise TritonscopeError(f"no text stage in this entry (stages: {', '.join(entry.stages) or 'none'})",
                                   str(entry.path))
    text = stage_text(entry, stage)
    page(highlight(text, stage))
