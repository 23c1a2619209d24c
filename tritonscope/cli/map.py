"""`tritonscope map`: every stage's ops mapped back to Python source lines, and the reverse."""

from __future__ import annotations

import os

import click

from tritonscope.cli.common import Selection, emit_json, json_option, selection_options


@click.command("map")
@selection_options()
@click.option("--line", "-l", "line", type=int, default=None, metavar="L",
              help="Show what source line L became in every stage.")
@click.option("--file", "file", default=None, metavar="F",
              help="Source file of --line (default: the kernel's own file; a basename or the path's last folders are "
                   "enough: two files of that name need more of the path).")
@click.option("--col", "col", type=int, default=None, metavar="C",
              help="Narrow --line to the expression at column C (columns as the IR writes them).")
@click.option("--stages", "stages", default=None, metavar="LIST",
              help="Stages to show, e.g. ttir,ttgir,llir,ptx,sass (default: every stage present).")
@click.option("--stage", "stage", default=None, metavar="S", help="Stage of --at / --grep (e.g. ptx, sass).")
@click.option("--at", "at", type=click.IntRange(min=1), default=None, metavar="N",
              help="Reverse lookup: which source line produced line N of --stage.")
@click.option("--grep", "grep", default=None, metavar="REGEX",
              help="Reverse lookup: the source lines of every --stage instruction matching REGEX.")
@click.option("--context", "context", type=click.IntRange(0), default=2, show_default=True,
              help="Source lines shown around --line.")
@click.option("--max-ops", "max_ops", type=int, default=40, show_default=True, metavar="N",
              help="Ops listed per stage in the --line view (memory ops first kept; 0: all). JSON lists all.")
@click.option("--model-line", "model_line", default=None, metavar="FILE:LINE",
              help="torch.compile: the kernels whose FX nodes came from LINE of the model's FILE (a path's tail "
              "is enough), from Inductor's records (--inductor-dir).")
@click.option("--stats", is_flag=True,
              help="Attribution coverage per stage (for every kernel of the cache when no KERNEL is given).")
@json_option
def map_cmd(sel: Selection, line: int | None, file: str | None, col: int | None, stages: str | None,
            stage: str | None, at: int | None, grep: str | None, context: int, max_ops: int,
            model_line: str | None, stats: bool, as_json: bool) -> None:
    """Map the ops of every stage of KERNEL back to its Python source lines.

    \b
    map KERNEL --line 91            what line 91 became, per stage (inlined helpers count for
                                    the line that called them; the inner chain is shown; a
                                    helper's own line lists what it wrote, in every call)
    map KERNEL                      annotated source: ops per stage for each line, (n) on a
                                    helper's lines
    map KERNEL --stage ptx --at 120 which source line produced line 120 of the PTX
    map KERNEL --stage sass --grep LDG
    map --stats                     coverage of every kernel in the cache
    map --model-line model.py:42    torch.compile: the kernels made from line 42 of the model
    """
    from tritonscope.errors import UsageError
    from tritonscope.srcmap.kernelmap import STAGE_ALIASES, load_kernel_map, parse_stage_list
    from tritonscope.srcmap.report import line_result, listing_result, reverse_result

    if at is not None and grep is not None:
        raise UsageError("--at and --grep are alternatives: give one")
    if (at is not None or grep is not None) and stage is None:
        raise UsageError("--at / --grep need --stage (e.g. --stage ptx)")
    if (at is not None or grep is not None) and line is not None:
        raise UsageError("--line maps forward, --at / --grep backward: give one")
    if stage is not None and at is None and grep is None:
        raise UsageError("--stage goes with --at or --grep; to choose the stages shown use --stages")
    if col is not None and line is None:
        raise UsageError("--col needs --line")
    if context < 0:
        raise UsageError("--context must be >= 0")
    if max_ops < 0:
        raise UsageError("--max-ops must be >= 0")
    if line is not None and line < 1:
        raise UsageError(f"--line {line}: source lines start at 1")
    if model_line is not None:
        if any(v is not None for v in (line, at, grep, stage)) or stats:
            raise UsageError("--model-line stands alone (no --line / --at / --grep / --stats)")
        _model_line(sel, model_line, as_json)
        return
    finder = sel.finder()

    if stats:
        if line is not None or at is not None or grep is not None:
            raise UsageError("--stats stands alone (no --line / --at / --grep)")
        from tritonscope.parallel import entry_bytes, pool_map, progress_bar
        from tritonscope.srcmap.report import combine_stats, entry_stats

        entries = [sel.one()] if sel.kernel else sel.many()
        jobs = [(entry, stages, sel.kernel is not None) for entry in entries]
        with progress_bar(len(jobs), "map --stats") as advance:
            result = combine_stats(pool_map(entry_stats, jobs, advance, weight=entry_bytes))
        _emit(result, "map.stats", as_json, "render_stats")
        return

    entry = sel.one()
    if at is not None or grep is not None:
        assert stage is not None
        name = STAGE_ALIASES.get(stage.lower(), stage.lower())
        names, _ = parse_stage_list(name, entry, "--stage")
        kmap = load_kernel_map(entry, names, explicit=True)
        lines = kmap.stages[names[0]].line_count
        if at is not None and at > lines:
            raise UsageError(f"--at {at}: the {names[0]} of this entry has {lines} lines")
        if kmap.source_file is None:
            # the user's file comes from the first IR stage when the chosen stage alone cannot tell
            others, _ = parse_stage_list(None, entry)
            first = [s for s in others if s in ("ttir", "ttgir")][:1]
            if first:
                kmap.source_file = load_kernel_map(entry, first).source_file
        result = reverse_result(kmap, finder, names[0], at, grep)
        result["inductor"] = sel.inductor_link(entry)
        _emit(result, "map.reverse", as_json, "render_reverse")
        return

    names, explicit = parse_stage_list(stages, entry)
    kmap = load_kernel_map(entry, names, explicit)
    if file is not None:
        _check_file_named(kmap, file)
    written = _written_layouts(entry, finder) if entry.language == "gluon" else None
    if line is not None:
        result = line_result(kmap, finder, line, file, col, context)
        check_line_in_file(result, line)
        result["inductor"] = sel.inductor_link(entry)
        if written is not None:
            result["written_layouts"] = written[0].get(line, [])
        if as_json:
            emit_json(result, "map.line")
        else:
            from tritonscope.render.map import render_line
            from tritonscope.render.terminal import make_console

            render_line(result, make_console(), max_ops=max_ops)
    else:
        result = listing_result(kmap, finder, file)
        result["inductor"] = sel.inductor_link(entry)
        if written is not None:
            _add_written(result, *written)
        _emit(result, "map.listing", as_json, "render_listing")


def _model_line(sel: Selection, spec: str, as_json: bool) -> None:
    """`--model-line FILE:LINE`: the kernels (and their cache entries) with an FX node from that line."""
    from tritonscope.errors import UsageError
    from tritonscope.srcmap.inductor import model_line_result, torch_triton_caches

    file, _, num = spec.rpartition(":")
    head, _, line_part = file.rpartition(":")
    if head and line_part.isdigit() and num.isdigit():  # (FILE:LINE:COL, as a traceback or an editor names it)
        file, num = head, line_part
    if not file or not num.isdigit() or int(num) < 1:
        raise UsageError(f"--model-line: expected FILE:LINE (e.g. model.py:42), got '{spec}'")
    from tritonscope.artifacts.cache import default_cache_dir
    from tritonscope.cli.outcome import outcome

    index = sel.inductor()
    if sel.kernel:
        entries = sel.many()
    elif sel.cache_dir is None and not default_cache_dir().is_dir() and not torch_triton_caches(sel.inductor_dirs):
        # Inductor's records answer alone; without a Triton cache there are just no entries to list
        outcome().note(f"no Triton cache at {default_cache_dir()}: kernels listed without their cache "
                       "entries (give --cache-dir)")
        entries = []
    else:
        entries = sel.provenance_cache().kernels()
    result = model_line_result(index, entries, file, int(num))
    if sel.kernel:  # the kernels of that line that KERNEL's entries compiled
        result["kernels"] = [k for k in result["kernels"] if k["entries"]]
        result["query"]["kernel"] = sel.kernel
    for text in result.pop("notes"):
        outcome().note(text)
    _emit(result, "map.model_line", as_json, "render_model_line")


def _written_layouts(entry, finder) -> tuple[dict[int, list[dict]], list[str]] | None:
    """A Gluon kernel: source line -> the layouts written there and the TTGIR layouts they became,
    and the source's lines."""
    from tritonscope.layouts.gluon import written_by_line, written_in_source
    from tritonscope.stages import stage_text

    if "ttgir" not in entry.files:
        return None
    found = written_in_source(stage_text(entry, "ttgir"), str(entry.stage_path("ttgir")), entry.name, finder,
                              entry.triton_version, entry.compiled_at)
    if found.resolutions is None:
        return None
    return written_by_line(found.resolutions), found.source.lines


def _add_written(result: dict, written: dict[int, list[dict]], lines: list[str]) -> None:
    """Listing rows gain the layouts written on them; a layout line with no op of its own gets a row."""
    rows = {r["line"]: r for r in result["lines"]}
    for n in written:
        if n not in rows and 1 <= n <= len(lines):
            text = lines[n - 1]
            rows[n] = {"line": n, "text": text, "counts": {s: 0 for s in result["stages"]}}
    for n, row in rows.items():
        row["written_layouts"] = written.get(n, [])
    result["lines"] = [rows[n] for n in sorted(rows)]


def _emit(result: dict, kind: str, as_json: bool, renderer: str) -> None:
    if as_json:
        emit_json(result, kind)
        return
    from tritonscope.render import map as render_map
    from tritonscope.render.terminal import make_console

    getattr(render_map, renderer)(result, make_console())


def _check_file_named(kmap, file: str) -> None:
    """`--file F` that no location of the kernel names (a typo, another kernel's file) is a usage error:
    every stage would answer "0 ops", as if the line had made nothing."""
    from tritonscope.errors import UsageError
    from tritonscope.stages.common import resolve_file

    named = kmap.named_files()
    if resolve_file(file, named, kmap.source_file) in named:
        return
    names = sorted({os.path.basename(f) or f for f in named})
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    raise UsageError(f"--file {file}: no location of this kernel names that file (its files: {shown or 'none'})")


def check_line_in_file(result: dict, line: int) -> None:
    """`--line` past the end of the source file is a usage error, not an empty answer. When the file
    cannot be read, a line that no location names past the last named one is refused the same way."""
    from tritonscope.errors import UsageError

    src = result["source"]
    n_lines = result.get("source_line_count")
    if src.get("found") and n_lines is not None and line > n_lines:
        raise UsageError(f"--line {line}: {src.get('path') or src.get('requested')} has {n_lines} lines")
    last = result.get("last_named_line")
    if not src.get("found") and last is not None and line > last and not any(s["count"] for s in result["stages"]):
        raise UsageError(f"--line {line}: no location names a line past {last} of "
                         f"{src.get('requested') or 'the source'} ({src.get('error')})")
