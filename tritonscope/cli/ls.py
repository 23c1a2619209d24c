"""`tritonscope ls`: the entries of a cache, newest first, without reading any IR."""

from __future__ import annotations

import re
import time

import click

from tritonscope.cli.common import Selection, emit_json, json_option, selection_options
from tritonscope.errors import UsageError

_SINCE = re.compile(r"^(\d+(?:\.\d+)?)([smhdw])$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_since(text: str) -> float:
    m = _SINCE.match(text.strip())
    if not m:
        raise UsageError(f"--since: expected a duration like 30m, 2h, 7d, got '{text}'")
    return float(m.group(1)) * _UNITS[m.group(2)]


@click.command("ls")
@selection_options(metavar="PATTERN")
@click.option("--since", "since", default=None, metavar="AGE", help="Only entries newer than AGE (30m, 2h, 7d).")
@click.option("--partial", is_flag=True, help="Only partial entries (failed compiles: IR but no metadata).")
@click.option("--all", "include_all", is_flag=True, help="Also launcher (.so), empty and tmp.* entries.")
@json_option
def ls_cmd(sel: Selection, since: str | None, partial: bool, include_all: bool, as_json: bool) -> None:
    """List the kernels in a Triton cache, newest first.

    PATTERN is a kernel name, a glob (`triton_red_*`), or a hash prefix.
    """
    from tritonscope.artifacts.cache import select

    cache = sel.cache()
    entries = select(cache.kernels(include_all or partial), sel.kernel, sel.target)
    if partial:
        entries = [e for e in entries if e.kind == "partial"]
    if since:
        cutoff = time.time() - parse_since(since)
        entries = [e for e in entries if e.mtime >= cutoff]
    entries.sort(key=lambda e: (-e.mtime, e.name, e.hash))
    if as_json:
        emit_json({"cache": str(cache.root), "count": len(entries), "entries": [e.to_json() for e in entries]},
                  "ls")
        return
    from tritonscope.render.ls import render_ls
    from tritonscope.render.terminal import make_console

    render_ls(entries, make_console(), cache.root)
