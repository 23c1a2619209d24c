"""`tritonscope ls`: the entries of a cache, newest first, without reading any IR."""

from __future__ import annotations

import time

import click

from tritonscope.cli.common import Selection, emit_json, json_option, selection_options
from tritonscope.errors import UsageError
from tritonscope.lazyre import lazy_compile

_SINCE = lazy_compile(r"^(\d+(?:\.\d+)?)([smhdw])$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_since(text: str) -> float:
    m = _SINCE.match(text.strip())
    if not m:
        raise UsageError(f"--since: expected a duration like 30m, 2h, 7d, got '{text}'")
    return float(m.group(1)) * _UNITS[m.group(2)]


@click.command("ls")
@selection_options(metavar="PATTERN")
@click.option("--since", "since", default=None, metavar="AGE", help="Only entries newer than AGE (30m, 2h, 7d).")
@click.option("--partial", is_flag=True,
              help="Only partial entries: IR but no readable metadata (a failed compile; damaged metadata gets a "
              "note naming its file).")
@click.option("--all", "include_all", is_flag=True, help="Also launcher (.so), empty and tmp.* entries.")
@click.option("--inductor", "inductor_view", is_flag=True,
              help="torch.compile kernels only: each one's graph, fused ATen ops and model lines.")
@json_option
def ls_cmd(sel: Selection, since: str | None, partial: bool, include_all: bool, inductor_view: bool,
           as_json: bool) -> None:
    """List the kernels in a Triton cache, newest first.

    PATTERN is a kernel name, a glob (`triton_red_*`), or a hash prefix.
    """
    from tritonscope.artifacts.cache import select

    cache = sel.provenance_cache() if inductor_view else sel.cache()
    entries = select(cache.kernels(include_all or partial), sel.kernel, sel.target)
    if partial:
        entries = [e for e in entries if e.kind == "partial"]
    if since is not None:
        cutoff = time.time() - parse_since(since)
        entries = [e for e in entries if e.mtime >= cutoff]
    entries.sort(key=lambda e: (-e.mtime, e.name, e.hash))
    for e in entries:  # (what of a listed entry does not read: its metadata, a stage file that is no file)
        for line in e.damage():
            from tritonscope.render.visible import one_line

            click.echo(one_line(f"tritonscope: note: {line}"), err=True)
    links = sel.inductor_links(entries, inductor_view) if (as_json or inductor_view) else [None] * len(entries)
    if inductor_view:
        kept = [(e, link) for e, link in zip(entries, links, strict=True) if link is not None]
        entries, links = [e for e, _ in kept], [link for _, link in kept]
    if as_json:
        rows = []
        for e, link in zip(entries, links, strict=True):
            row = e.to_json()
            row["inductor"] = link.to_json() if link is not None else None
            rows.append(row)
        emit_json({"cache": str(cache.root), "count": len(entries), "entries": rows,
                   # (what this user cannot list: no kernel is known to be there or not)
                   "unreadable": [str(e.path) for e in cache.unreadable()]}, "ls")
        return
    from tritonscope.render.terminal import make_console

    if inductor_view:
        from tritonscope.render.ls import render_ls_inductor

        render_ls_inductor(list(zip(entries, links, strict=True)), make_console(), cache.root)
        return
    from tritonscope.render.ls import render_ls

    render_ls(entries, make_console(), cache.root)
