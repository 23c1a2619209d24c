"""`tritonscope loads`: per-thread memory accesses and their vector widths, stage by stage."""

from __future__ import annotations

import click

from tritonscope.cli.common import emit_json, json_option, kernel_options, resolve_kernel


@click.command("loads")
@kernel_options
@click.option("--line", "-l", "line", type=int, default=None, metavar="L", help="Only the accesses of source line L.")
@click.option("--explain", "explain", type=int, default=None, metavar="L",
              help="Walk the accesses of source line L through every stage, in words.")
@click.option("--sass/--no-sass", "sass", default=True, show_default=True,
              help="Disassemble the cubin with nvdisasm and join SASS too (NVIDIA).")
@json_option
def loads_cmd(kernel: str | None, cache_dir: str | None, target: str | None, line: int | None,
              explain: int | None, sass: bool, as_json: bool) -> None:
    """Every load, store, atomic, async copy and shared-memory access of KERNEL: what its layout allows
    (elements per thread, contiguous run, vector bytes) and what LLIR, PTX, SASS and AMDGCN made of it.

    \b
    loads KERNEL                    the table (counts are per thread: static instruction counts)
    loads KERNEL --line 173         the accesses of one source line
    loads KERNEL --explain 173      one line's accesses walked through every stage, in words
    loads KERNEL --json             rows for CI scripts (docs/json-loads.md)

    Verdicts: as-predicted, narrower (wider than one element but narrower than the layout allows),
    scalar (one element per instruction), unknown (no ISA instruction found for the access).
    """
    from tritonscope.errors import UsageError
    from tritonscope.loads import analyze_entry

    if line is not None and explain is not None and line != explain:
        raise UsageError("--line and --explain name different lines: give one")
    entry = resolve_kernel(kernel, cache_dir, target)
    report = analyze_entry(entry, line=explain if explain is not None else line, sass=sass)
    if as_json:
        emit_json(report.to_json(), "loads")
        return
    from tritonscope.render.loads import render_explain, render_loads

    if explain is not None:
        if not report.rows:
            raise UsageError(f"no memory access on line {explain} (run `tritonscope loads` for the list)")
        render_explain(report)
    else:
        render_loads(report)
