"""The `ls` table."""

from __future__ import annotations

import time
from pathlib import Path

from rich.table import Table

from tritonscope.cache import KernelEntry
from tritonscope.render.terminal import human_age, human_size, make_console

_KIND_STYLE = {"partial": "yellow", "launcher": "dim", "empty": "dim", "tmp": "dim", "binary-only": "cyan"}


def render_ls(root: Path, entries: list[KernelEntry]) -> None:
    console = make_console()
    if not entries:
        console.print(f"no kernel entries in {root}")
        return
    now = time.time()
    table = Table(title=f"{root}  ({len(entries)} entries)", title_justify="left", box=None, pad_edge=False)
    for col, kw in (("name", {"overflow": "fold"}), ("hash", {}), ("target", {}), ("warps/stages", {}),
                    ("smem", {"justify": "right"}), ("stages", {}), ("triton", {}), ("age", {"justify": "right"})):
        table.add_column(col, **kw)
    for e in entries:
        t = e.target
        warps = e.meta("num_warps")
        stages_n = e.meta("num_stages")
        ws = f"{warps if warps is not None else '-'}/{stages_n if stages_n is not None else '-'}"
        stages = " ".join(s for s in e.stages if s != "json")
        if e.kind not in ("kernel",):
            stages = f"[{_KIND_STYLE.get(e.kind, '')}]{e.kind}[/]" + (f" {stages}" if stages else "")
        smem = e.meta("shared")
        name = f"{e.name} [magenta]gluon[/]" if e.language == "gluon" else e.name
        table.add_row(
            name, e.hash[:10], str(t) if t else "-", ws,
            human_size(smem) if isinstance(smem, int) else "-",
            stages, e.triton_version or "-", human_age(now - e.mtime))
    console.print(table)
