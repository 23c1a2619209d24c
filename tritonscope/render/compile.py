"""Terminal output of `tritonscope compile`: the summary table, failures with their source line,
`--explain-spec` tables and `--run` checks."""

from __future__ import annotations

import os

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tritonscope.compile.diagnostics import CompileFailure

STAGE_SHORT = {
    "source": "src",
    "glir": "glir",
    "ttir": "ttir",
    "ttgir": "ttgir",
    "llir": "llir",
    "ptx": "ptx",
    "cubin": "cubin",
    "amdgcn": "amdgcn",
    "hsaco": "hsaco",
    "json": "json",
}


def failure_lines(label: str, failure: CompileFailure) -> list[str]:
    """`file:line:col: message` (the one line), then the source line with a caret under the column."""
    lines = [f"tritonscope: error: {label}: {failure.headline()}"]
    if failure.source_line is not None:
        number = f"{failure.line:>5} | "
        lines.append(number + failure.source_line)
        if failure.col:
            lines.append(" " * (len(number) + failure.col - 1) + "^")
    return lines


def render_results(results: list, console: Console, cache_dir: str) -> None:
    table = Table(title=None, show_edge=False, pad_edge=False, box=None, header_style="bold")
    for col, justify in (
        ("kernel", "left"),
        ("target", "left"),
        ("hash", "left"),
        ("seconds", "right"),
        ("stages written", "left"),
    ):
        table.add_column(col, justify=justify, no_wrap=col != "stages written")
    shown = 0
    for r in results:
        if not r.ok:
            continue
        shown += 1
        seconds = f"{r.seconds:.2f}" + (" (cached)" if r.cached else "")
        table.add_row(
            Text(r.request.label),
            str(r.request.target),
            (r.hash or "-")[:16],
            seconds,
            " ".join(STAGE_SHORT.get(s, s) for s in r.stages),
        )
    if shown:
        console.print(table)
    ok = sum(1 for r in results if r.ok)
    if not ok and not os.path.isdir(cache_dir):  # (the command removed the empty folder it had made)
        console.print(Text(f"0 of {len(results)} compiled: nothing written to {cache_dir}"))
        return
    console.print(Text(f"{ok} of {len(results)} compiled into {cache_dir}"))


def render_explain(
    spec_rows: list[tuple[str, str, str]], console: Console, label: str, target: str, options: dict
) -> None:
    console.print(Text(f"{label} for {target}"))  # (a label's `[config 1/3]` is text, not markup)
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("argument")
    table.add_column("type / constant")
    table.add_column("attributes")
    for row in spec_rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)
    console.print(Text("options: " + ", ".join(f"{k}={v}" for k, v in options.items())))
    console.print()


def render_run(checks: list, console: Console) -> None:
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    for col in ("kernel", "device", "output", "max abs error", "result", "seconds"):
        table.add_column(col, justify="right" if col in ("max abs error", "seconds") else "left")
    for c in checks:
        for out in c.outputs or [None]:
            table.add_row(
                c.label,
                c.device,
                out.name if out else "-",
                f"{out.max_abs_error:.3g}" if out else "-",
                "ok" if (out.ok if out else c.error is None) else "FAIL",
                f"{c.seconds:.2f}",
            )
    console.print(table)
