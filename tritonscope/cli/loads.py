"""`tritonscope loads`: per-thread memory accesses and their vector widths, stage by stage."""

from __future__ import annotations

import click

from tritonscope.cli.common import Selection, emit_json, json_option, selection_options


@click.command("loads")
@selection_options()
@click.option("--line", "-l", "line", type=int, default=None, metavar="L", help="Only the accesses of source line L.")
@click.option("--file", "file", default=None, metavar="F",
              help="Source file of --line/--explain (default: the kernel's own file; a basename or the path's "
                   "last folders are enough): a helper module's line.")
@click.option("--explain", "explain", type=click.IntRange(min=1), default=None, metavar="L",
              help="Walk the accesses of source line L through every stage, in words.")
@click.option("--sass/--no-sass", "sass", default=True, show_default=True,
              help="Disassemble the cubin with nvdisasm and join SASS too (NVIDIA).")
@json_option
def loads_cmd(sel: Selection, line: int | None, file: str | None, explain: int | None, sass: bool,
              as_json: bool) -> None:
    """Every load, store, atomic, async copy and shared-memory access of KERNEL: what its layout allows
    (elements per thread, contiguous run, vector bytes) and what LLIR, PTX, SASS and AMDGCN made of it.

    \b
    loads KERNEL                    the table (counts are per thread: static instruction counts)
    loads KERNEL --line 173         the accesses of one source line (a helper's line: those it wrote)
    loads KERNEL -l 93 --file F     line 93 of a helper module F: the accesses it wrote, every call
    loads KERNEL --explain 173      one line's accesses walked through every stage, in words
    loads KERNEL --json             rows for CI scripts (docs/json-loads.md)

    Verdicts: as-predicted, narrower (wider than one element but narrower than the layout allows),
    scalar (one element per instruction), unknown (no ISA instruction found for the access).
    """
    from tritonscope.errors import UsageError
    from tritonscope.loads.analyze import analyze_entry

    if line is not None and explain is not None and line != explain:
        raise UsageError("--line and --explain name different lines: give one")
    wanted = explain if explain is not None else line
    if file is not None and wanted is None:
        raise UsageError("--file names the file of --line or --explain: give one of them")
    if wanted is not None and wanted < 1:
        raise UsageError(f"--line {wanted}: source lines start at 1")
    entry = sel.one()
    report = analyze_entry(entry, line=wanted, sass=sass, finder=sel.finder(), file=file)
    moved = None  # (a note: TTIR's access on the line that TTGIR locates elsewhere)
    if wanted is not None and not report.rows:
        check_line(entry, sel, wanted, file, "--explain" if explain is not None else "--line")
        ops = ttir_only_accesses(entry, wanted, file)
        if ops:
            moved = (f"TTIR has {ops} on line {wanted}; TTGIR locates it at another line (a warp-specialized "
                     "partition's or a pipelined copy takes the location of its users): run `tritonscope loads` "
                     "for the list")
            report.notes.append(moved)
    if as_json:
        emit_json(report.to_json(), "loads")
        return
    from tritonscope.render.loads import render_explain, render_loads, render_no_access
    from tritonscope.render.terminal import make_console

    console = make_console()

    if explain is not None and report.rows:
        render_explain(report, console)
    elif wanted is not None and not report.rows:
        if explain is not None and not report.unattributed and not moved:
            raise UsageError(f"no memory access on line {explain} (run `tritonscope loads` for the list)")
        where = f"line {wanted}" + (f" of {file}" if file else "")
        console.print(f"{report.kernel}  {report.target or '?'}\nno load or store of the kernel's on {where} "
                      "(run `tritonscope loads` for the list)", markup=False)
        render_no_access(report, console)
        if moved:
            console.print(f"note: {moved}", markup=False)
    else:
        render_loads(report, console)


def ttir_only_accesses(entry, line: int, file: str | None) -> str | None:
    """The memory ops TTIR locates at `line` (of `file`, else the kernel's), in words, where TTIR is kept:
    asked where TTGIR has none there."""
    import collections

    from tritonscope.stages import entry_stages
    from tritonscope.stages.common import kernel_source_file, same_file
    from tritonscope.stages.memops import mlir_op_kind

    if "ttir" not in entry.files:
        return None
    module = entry_stages(entry).module("ttir")
    want = file or kernel_source_file([module])
    found: collections.Counter = collections.Counter()
    for op in module.ops:
        outer = op.loc.outermost() if op.loc is not None else None
        name = op.op.strip('"')
        if outer is not None and outer.line == line and (want is None or same_file(outer.file, want)) \
                and mlir_op_kind(name):
            found[name] += 1
    return ", ".join(f"{n} {name}" for name, n in sorted(found.items())) or None


def check_line(entry, sel: Selection, line: int, file: str | None = None, option: str = "--line") -> None:
    """A line with no access: a usage error when it lies outside the source file (the kernel's, or --file,
    which some location must name), or, when the file cannot be read, past the last line its locations name."""
    from tritonscope.errors import UsageError
    from tritonscope.srcmap.kernelmap import load_kernel_map, parse_stage_list
    from tritonscope.srcmap.report import last_named_line, read_source

    names, _ = parse_stage_list("ttgir" if "ttgir" in entry.files else None, entry)
    kmap = load_kernel_map(entry, names[:1])
    source = read_source(kmap, sel.finder(), file)
    if file is not None and source.requested not in kmap.named_files():
        raise UsageError(f"--file {file}: no location of this kernel names that file")
    if source.found and line > len(source.lines):
        raise UsageError(f"{option} {line}: {source.path} has {len(source.lines)} lines")
    last = last_named_line(kmap, source.requested or kmap.source_file)
    if not source.found and last is not None and line > last:
        raise UsageError(f"{option} {line}: no location names a line past {last} of {source.requested}")
