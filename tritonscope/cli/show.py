"""`tritonscope show`: one stage of one kernel, highlighted, paged."""

from __future__ import annotations

import json
import sys

import click

from tritonscope.cli.common import Selection, selection_options
from tritonscope.stages.table import SHOWN_STAGES

STAGE_CHOICES = SHOWN_STAGES


@click.command("show")
@selection_options()
@click.option("--stage", "-s", type=click.Choice(STAGE_CHOICES), default=None,
              help="Stage to print (default: ttgir, else the first text stage present).")
@click.option("--meta", is_flag=True, help="Print the metadata json instead.")
@click.option("--no-provenance", "no_provenance", is_flag=True,
              help="Leave out the torch.compile provenance comment block of an Inductor kernel.")
def show_cmd(sel: Selection, stage: str | None, meta: bool, no_provenance: bool) -> None:
    """Print one stage of KERNEL with syntax highlighting (plain when piped or NO_COLOR is set).

    On a terminal, control characters in the text are shown escaped; piped, the stage's text is written as
    it is, byte for byte (`show K -s ptx > k.ptx`), as `cat` would, after the comment block a torch.compile
    kernel's provenance gets in a text stage (`--no-provenance` leaves it out).

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
        stage = next((s for s in ("ttgir", "ttir", "llir", "ptx", "amdgcn", "source", "glir") if s in entry.files),
                     None)
        if stage is None:
            raise TritonscopeError(f"no text stage in this entry (stages: {', '.join(entry.stages) or 'none'})",
                                   str(entry.path))
    text = stage_text(entry, stage)
    _note_cut(entry, stage)
    prov = None if no_provenance else sel.inductor_link(entry)
    # a kernel whose records were not found stays plain unless the user pointed at Inductor's dir
    if prov is not None and (prov["role"] != "unknown" or sel.inductor_dirs):
        from tritonscope.stages.table import COMMENT_MARKS

        if stage in COMMENT_MARKS:
            text = provenance_comment(prov, stage) + text
        else:  # no comment syntax (the metadata json): a block would make the text invalid
            from tritonscope.cli.outcome import outcome

            outcome().note(f"torch.compile provenance left out of the {stage} stage, which has no comment "
                           "syntax: see it with another stage or in `ls --json`'s \"inductor\" field")
    if sys.stdout.isatty():  # a terminal: the stage's escape sequences shown, not obeyed (render/visible.py)
        from tritonscope.render.visible import visible

        text = visible(text)
    page(highlight(text, stage), exact=True)


def _note_cut(entry, stage: str) -> None:
    """A text stage that looks cut short (stages/common.py `Module.cut`) is said after it, as every command
    that parses it says it: shown as it is, the text would pass for a whole kernel. Its unparsed lines are
    not the shown text's business, and are not noted."""
    from tritonscope.stages import PARSERS, collecting_unparsed, entry_stages
    from tritonscope.stages.table import TEXT_STAGES

    if stage not in PARSERS or stage not in TEXT_STAGES:  # (a disassembly is whole, or its tool failed)
        return
    with collecting_unparsed():
        cut = entry_stages(entry).module(stage).cut
    if cut:
        from tritonscope.cli.outcome import outcome
        from tritonscope.stages.common import CUT_NOTE

        outcome().note(f"{entry.files[stage]}: {CUT_NOTE}: {cut}")


def provenance_comment(prov: dict, stage: str) -> str:
    """The torch.compile provenance as comment lines of the stage's own syntax (the text stays valid)."""
    from tritonscope.stages.table import COMMENT_MARKS

    mark = COMMENT_MARKS[stage]  # (a stage without comment syntax gets no block: show_cmd)
    if not prov.get("kernel"):
        lines = [f"torch.compile: {prov['role']}: {prov['note']}"]
    else:
        lines = [f"torch.compile: graph {prov['graph']}, kernel {prov['kernel']}",
                 f"  wrapper: {prov['wrapper']}:{prov['wrapper_line']}"]
        if prov["aten_ops"]:
            lines.append(f"  ATen: {', '.join(prov['aten_ops'])}")
        if prov["source_nodes"]:
            lines.append(f"  source nodes: {', '.join(prov['source_nodes'])}")
        for row in prov["model_lines"]:
            lines.append(f"  model: {row['file']}:{row['line']} in {row['function']}: {row['code']}  "
                         f"[{', '.join(row['nodes'])}]")
        for o in prov.get("also_in", []):
            lines.append(f"  also: {o['kernel']} in graph {o['graph']} ({o['wrapper']}:{o['wrapper_line']})")
        if prov.get("other_calls"):
            from tritonscope.srcmap.inductor import other_calls_text

            lines.append(f"  calls: {other_calls_text(prov['graph'], prov['other_calls'], prov.get('launches'))}")
    return "".join(f"{mark} {line}\n" for line in lines) + "\n"
