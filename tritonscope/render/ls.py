"""The `ls` table."""

from __future__ import annotations

import time
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from tritonscope.artifacts.cache import KernelEntry, release_text
from tritonscope.render.terminal import human_age, human_size
from tritonscope.render.visible import one_line

_KIND_STYLE = {"partial": "yellow", "launcher": "dim", "empty": "dim", "tmp": "dim", "binary-only": "cyan"}


# resource -> (its short name, how its limit reads): shared memory in bytes, tensor memory in columns
_OVER = {"shared": ("smem", human_size), "tensor memory columns": ("tmem", lambda n: f"{n}col"),
         "threads": ("threads", str)}
_COLUMNS = ("name", "hash", "target", "warps/stages", "smem", "stages", "triton", "age")
_TMEM_COLUMNS = ("name", "hash", "target", "warps/stages", "smem", "tmem", "stages", "triton", "age")
_RIGHT = frozenset({"smem", "tmem", "age"})


def ls_rows(entries: list[KernelEntry], now: float, tmem: bool = False) -> list[tuple[tuple[str, ...], str | None]]:
    """One tuple of cell texts per entry, and the style of its stages cell (by entry kind); with `tmem`, a
    cell of tensor memory columns after smem."""
    rows = []
    for e in entries:
        t = e.target
        warps = e.meta_int("num_warps")
        stages_n = e.meta_int("num_stages")
        ws = f"{warps if warps is not None else '-'}/{stages_n if stages_n is not None else '-'}"
        stages = " ".join(s for s in e.stages if s != "json")
        style = None
        if e.kind != "kernel":
            style = _KIND_STYLE.get(e.kind) or None
            stages = e.kind + (f" {stages}" if stages else "")
        smem = e.meta_int("shared")
        name = one_line(e.name) + (" gluon" if e.language == "gluon" else "")  # (a name is one cell, one line)
        local = e.local_bytes
        if local:  # register spills / stack: flagged where the eye lands
            name += f" spills:{local}B"
        for over in e.over_limits_on(t):  # a launch raises OutOfResources: said beside the name too
            short, unit = _OVER.get(over["resource"], (over["resource"], str))
            name += f" {short}>{unit(over['limit'])}"
        # (the hash is a folder's name and the target the metadata's text, the cache author's both: each cell is
        # measured as it is shown)
        cells = [name, one_line(e.hash[:10]), one_line(str(t)) if t else "-", ws,
                 human_size(smem) if isinstance(smem, int) else "-"]
        if tmem:
            cols = e.tmem_columns
            cells.append(f"{cols} col" if cols else "-")
        release = one_line(release_text(e.triton_version, e.triton_version_inferred, "-"))
        rows.append(((*cells, stages, release, human_age(now - e.mtime)), style))
    return rows


def render_ls(entries: list[KernelEntry], console: Console, root: Path) -> None:
    """The table as one Text: aligned by display width, built in one pass (a rich Table measures every
    cell through its layout engine: 45 s for 20,000 entries, this well under a second)."""
    if not entries:
        console.print(Text(one_line(f"no kernel entries in {root}")))
        return
    tmem = any(e.tmem_columns for e in entries)
    columns = _TMEM_COLUMNS if tmem else _COLUMNS
    rows = ls_rows(entries, time.time(), tmem)
    widths = [cell_len(c) for c in columns]
    for cells, _ in rows:
        for i, c in enumerate(cells):
            n = cell_len(c)
            if n > widths[i]:
                widths[i] = n
    out = Text(f"{root}  ({len(entries)} entries)\n", end="")
    out.append(_line(columns, widths, names=columns) + "\n", style="bold")
    stages_col = columns.index("stages")
    for cells, style in rows:
        if style is None:
            out.append(_line(cells, widths, names=columns) + "\n")
            continue
        before = _line(cells[:stages_col], widths[:stages_col], names=columns)
        out.append(before + ("  " if before else ""))
        kind = cells[stages_col].split(" ", 1)
        out.append(kind[0], style=style)
        rest = cells[stages_col][len(kind[0]):]
        pad = " " * (widths[stages_col] - cell_len(cells[stages_col]))
        after = _line(cells[stages_col + 1:], widths[stages_col + 1:], first_column=stages_col + 1, names=columns)
        out.append(rest + pad + "  " + after + "\n")
    console.print(out, soft_wrap=True, highlight=False)


def _line(cells, widths, first_column: int = 0, names: tuple[str, ...] = _COLUMNS) -> str:
    parts = []
    for i, (c, w) in enumerate(zip(cells, widths, strict=False)):
        pad = " " * (w - cell_len(c))
        parts.append(pad + c if names[first_column + i] in _RIGHT else c + pad)
    return "  ".join(parts).rstrip() if first_column + len(cells) == len(names) else "  ".join(parts)


def _or_dash(v: int | None) -> str:
    return "-" if v is None else str(v)


def render_ls_inductor(rows: list[tuple[KernelEntry, object]], console: Console, root: Path) -> None:
    """`ls --inductor`: per torch.compile kernel (entry, its srcmap.inductor.Link), its graph and role, the
    ATen ops fused into it and the model lines its FX nodes came from."""
    from tritonscope.srcmap.inductor import (  # the plain `ls` table needs none of it
        USER_KERNEL_TEXT,
        call_text,
        model_lines,
        other_calls_text,
        stack_text,
    )

    entries = [e for e, _ in rows]
    links = [link for _, link in rows]
    if not entries:
        console.print(f"no torch.compile kernels in {root}")
        return
    out = Text(f"{root}  ({len(entries)} torch.compile entries)\n", end="")
    names = [one_line(e.name) for e in entries]
    width = max(cell_len(n) for n in names)
    for e, name, link in zip(entries, names, links, strict=True):
        b = link.block
        head = f"{name}{' ' * (width - cell_len(name))}  {one_line(e.hash[:10])}  "
        out.append(head, style="bold" if b is not None else None)
        if b is None:
            out.append(f"{link.role}\n", style="dim")
            for k in link.same_problem:
                out.append("    sizes  ", style="dim")
                out.append(f"as {k.name} ({k.wrapper.graph}): {', '.join(k.aten_ops)}\n", style="dim")
            continue
        cfg = f"warps {_or_dash(e.meta_int('num_warps'))} stages {_or_dash(e.meta_int('num_stages'))}"
        out.append(f"{b.wrapper.graph}  {cfg}\n")
        if b.aten_ops:
            out.append("    ATen   ", style="dim")
            out.append(", ".join(b.aten_ops) + "\n")
        if b.defined_at is not None:
            out.append("    user   ", style="dim")
            out.append(f"{Path(b.defined_at[0]).name}:{b.defined_at[1]}", style="cyan")
            out.append(f"  {USER_KERNEL_TEXT}\n")
        rows = model_lines(b.nodes)
        if not rows:
            for st in b.stacks:  # no FX node of its own (a user-defined kernel): where torch saw it called
                out.append("    stack  ", style="dim")
                out.append(stack_text([f.to_json() for f in st]), style="cyan")
                out.append(f"  {st[-1].code}\n")
        for r in rows:
            out.append("    model  ", style="dim")
            out.append(f"{Path(r['file']).name}:{r['line']}", style="cyan")
            inferred = f", {r['inferred']} inferred" if r["inferred"] else ""
            out.append(f"  {r['code']}  ({len(r['nodes'])} node{'s' if len(r['nodes']) != 1 else ''}{inferred})")
            out.append(call_text(r), style="dim")
            out.append("\n")
        for o in link.others:
            out.append("    also   ", style="dim")
            lines = ", ".join(f"{Path(r['file']).name}:{r['line']}" for r in model_lines(o.nodes))
            out.append(f"{o.name} in graph {o.wrapper.graph}: {', '.join(o.aten_ops)}"
                       + (f"; model lines {lines}" if lines else "") + "\n")
        launched = b.wrapper.launches(b.name)
        if launched["other_calls"]:
            out.append("    calls  ", style="dim")
            out.append(other_calls_text(b.wrapper.graph, launched["other_calls"], launched["launches"]) + "\n",
                       style="dim")
        unplaced = [n.name for n in b.nodes if n.model is None]
        if unplaced and b.wrapper.fx_graph is not None:
            out.append("    model  ", style="dim")
            out.append(f"no line recorded: {', '.join(unplaced)}\n", style="yellow")
    console.print(out, soft_wrap=True, highlight=False)

