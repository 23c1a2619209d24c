"""`tritonscope diff A B` and `tritonscope snapshot --out DIR`: compare IR for CI, write committable IR."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from tritonscope.cli.common import Selection, selection_options
from tritonscope.cli.outcome import outcome
from tritonscope.parallel import progress_bar
from tritonscope.render.visible import one_line
from tritonscope.stages.table import DIFFED_STAGES

FORMATS = ("text", "markdown", "json", "html")
DIFF_STAGES = DIFFED_STAGES


def _fold_option(f: Callable) -> Callable:
    return click.option("--fold-renames/--no-fold-renames", "fold_renames", default=True, show_default=True,
                        help="Treat spellings that only changed name between Triton releases as equal "
                        "(triton_gpu. vs ttg., named vs numbered SSA values).")(f)


@click.command("diff")
@click.argument("a")
@click.argument("b")
@selection_options(kernel="option")
@click.option("--stage", "-s", "stages", multiple=True, type=click.Choice(DIFF_STAGES),
              help="Diff only these stages and the metrics counted in them, not the kernel's resources "
              "(repeatable; default: every text stage, and every metric). A --fail-on rule on a named metric "
              "still applies.")
@click.option("--context", "-U", "context", type=click.IntRange(0), default=3, show_default=True,
              help="Lines of context around each change.")
@click.option("--stat", is_flag=True, help="Summary and per-stage line counts only, no diff text.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text (terminal), markdown (a pull-request comment), json (docs/json-diff.md), html (a "
              "side-by-side page, from render/html.py).")
@click.option("--fail-on", "fail_on", multiple=True, metavar="RULE",
              help="Exit 1 when a rule fails: any, regs>+5%, spills>0, smem>+0, vector-width<, "
              "ops:global_load>+0 (repeatable, or comma-separated).")
@click.option("--all-metrics", is_flag=True, help="Show per-stage op counts (ops:CLASS@STAGE) too.")
@_fold_option
def diff_cmd(a: str, b: str, sel: Selection, stages: tuple[str, ...], context: int,
             stat: bool, fmt: str, fail_on: tuple[str, ...], all_metrics: bool, fold_renames: bool) -> None:
    """Compare A and B: two caches, two snapshot directories, or two kernel entries / artifact files;
    A and B may also name two entries (name or hash prefix) of --cache-dir, else of the cache the other
    commands read ($TRITON_CACHE_DIR, $TRITON_HOME/.triton/cache, ~/.triton/cache).

    Kernels match by name, target and argument types (two libraries' kernels of one name are two
    kernels), then by specialization (num_warps, num_stages, argument hints) and shared IR; unmatched
    ones are listed as added/removed. A stage's line diff pairs lines up to a renumbering of their values.
    Exit status: 0 when no --fail-on rule failed, 1 when one did, 2 for usage errors.
    """
    from tritonscope.diff.core import diff_sides, load_side
    from tritonscope.diff.normalize import NormalizeOptions
    from tritonscope.diff.snapshot import snapshot_fold_renames
    from tritonscope.diff.verdicts import Verdict, parse_rules
    from tritonscope.render.diff import RenderOptions, diff_payload, renderer
    from tritonscope.render.terminal import color_enabled

    rules = parse_rules(fail_on)  # bad rule text: UsageError (exit 2) before any work
    render = None if fmt == "json" else renderer(fmt)
    options = NormalizeOptions(fold_renames=fold_renames)
    kernel, target = sel.kernel, sel.target
    a, b = _side_path(a, sel), _side_path(b, sel)
    _records_apart(a, b, sel.cache_dir, *sel.inductor_dirs)
    # Compare like with like: a side read from its cache is normalized the way the snapshot on the other
    # side was written (A's, else B's: a committed baseline is either)
    which, snapshot_fold = next(((side, f) for side in (a, b) if (f := snapshot_fold_renames(side)) is not None),
                                (None, None))
    if snapshot_fold is not None and snapshot_fold != fold_renames:
        options = NormalizeOptions(fold_renames=snapshot_fold)
        click.echo(one_line(f"tritonscope: note: {which} was written with fold_renames={snapshot_fold}; using that "
                            "for both sides"), err=True)
    side_a = load_side(a, options, kernel, target, progress_bar, sel.max_stage_bytes)
    side_b = load_side(b, options, kernel, target, progress_bar, sel.max_stage_bytes)
    for line in dict.fromkeys(side_a.damage + side_b.damage):
        click.echo(one_line(f"tritonscope: note: {line}"), err=True)
    if side_b.kind == "snapshot" and side_b.fold_renames is not None and side_b.fold_renames != options.fold_renames:
        click.echo(one_line(f"tritonscope: note: {b} was written with fold_renames={side_b.fold_renames}, A with "
                            f"{options.fold_renames}: renamed spellings will show as differences"), err=True)
    _something_to_compare(side_a, side_b, kernel, target)
    builds = [side.tool.get("build") if side.tool else None for side in (side_a, side_b)]
    if len(set(builds)) > 1:
        said = [f"build {s.tool.get('build')} ({s.tool.get('version')})" if s.tool else
                "a tritonscope from before snapshots recorded their build" for s in (side_a, side_b)]
        click.echo(one_line(f"tritonscope: note: A's records were computed by {said[0]}, B's by {said[1]}: metric "
                            "differences may come from the tool as well as from the kernels (snapshot both with one "
                            "build to compare the kernels alone)"), err=True)
    result = diff_sides(side_a, side_b, stages or None, context,
                        pair_singletons=side_a.kind == "entry" and side_b.kind == "entry")
    # (a record of no release, a snapshot written before records kept one, is not said to differ)
    apart = [p for p in result.pairs if p.a.triton_version and p.b.triton_version
             and p.a.triton_version != p.b.triton_version]
    releases = sorted({(p.a.triton_version, p.b.triton_version) for p in apart})
    if releases:
        shown = "; ".join(f"A's by Triton {a}, B's by {b}" for a, b in releases[:3])
        click.echo(one_line(f"tritonscope: note: {len(apart)} "
                            f"matched kernel(s) were built by different releases ({shown}"
                            f"{'; ...' if len(releases) > 3 else ''}): their differences may come from the compiler "
                            "as well as from the kernels, and a stage one release writes alone (`source`) shows as "
                            "added or removed"), err=True)
    # kernels of one name left unpaired because their targets differ (two caches built for cuda:90 and
    # cuda:100): said, with the way to compare them (the diff listed them added and removed, no word)
    crossed = sorted({r.name for r in result.removed} & {r.name for r in result.added})
    targets = pair_targets(result, crossed) if crossed else ""
    if targets:
        click.echo(one_line(f"tritonscope: note: {len(crossed)} kernel name(s) are on both sides for other targets "
                            f"({targets}): kernels pair by name and target; give the two entries (`tritonscope diff "
                            "A_ENTRY B_ENTRY`) to compare a kernel across targets"), err=True)
    # (between two AMD targets of other wave sizes: NVIDIA's occupancy is not measured, nothing to compare)
    waves = sorted({(p.a.target, p.b.target) for p in result.pairs
                    if _wave(p.a.target) and _wave(p.b.target) and _wave(p.a.target) != _wave(p.b.target)
                    and any(d.name == "occupancy" for d in p.deltas)})
    if waves:
        a, b = waves[0]
        click.echo(one_line(f"tritonscope: note: occupancy counts waves a SIMD: {a}'s waves are {_wave(a)} lanes, "
                            f"{b}'s {_wave(b)}: the two counts are not of one unit"), err=True)
    uncompared = result.uncompared
    if uncompared:
        chosen = ", ".join(result.stages or ())
        click.echo(one_line(f"tritonscope: note: {len(uncompared)} matched kernel(s) have no {chosen} stage on "
                            f"either side ({_first_kernels(uncompared)}): nothing of them was compared, and "
                            "they are counted 'not compared', not unchanged (rules naming a metric still judge "
                            "them)"), err=True)
    verdict = Verdict(rules).evaluate(result)
    for line in verdict.unknown_notes():
        click.echo(one_line(f"tritonscope: note: {line}"), err=True)
    if render is None:
        from tritonscope.cli.common import emit_json

        emit_json(diff_payload(result, verdict), "diff")
    else:
        opts = RenderOptions(stat=stat, all_metrics=all_metrics, color=fmt == "text" and color_enabled(),
                             verdict=verdict)
        sys.stdout.write(render(result, opts))
        sys.stdout.flush()
    for rule in verdict.failed_rules:
        outcome().failed(f"diff rule {rule}")


def _something_to_compare(side_a, side_b, kernel: str | None, target: str | None) -> None:
    """No kernel on either side is an error, not a comparison that passes every rule (a -k typo, an empty
    compile step in CI); -k that selects on one side only by what the other cannot hold (a hash prefix
    against a snapshot, which keeps names) is a usage error rather than an 'added' or 'removed' kernel."""
    from tritonscope.errors import TritonscopeError, UsageError

    what = "".join(filter(None, [f" named {kernel!r}" if kernel else "", f" for {target}" if target else ""]))
    if not side_a.records and not side_b.records:
        raise TritonscopeError(f"no kernel{what} in A or B: nothing to compare", f"{side_a.path}, {side_b.path}")
    if kernel and not any(c in kernel for c in "*?["):
        for side, other in ((side_a, side_b), (side_b, side_a)):
            if side.kind == "snapshot" and not side.records and other.records and \
                    not any(r.name == kernel for r in other.records):
                raise UsageError(f"-k {kernel}: {side.path} is a snapshot, which keeps kernel names and not "
                                 "entry hashes; select by name or glob")


def pair_targets(result, names: list[str]) -> str:
    """`cuda:90 in A, cuda:100 in B` for kernels of those names found under other targets on each side
    ('' where their targets are the same: unpaired for other reasons, argument types)."""
    a = sorted({r.target for r in result.removed if r.name in names})
    b = sorted({r.target for r in result.added if r.name in names})
    return "" if a == b else f"{', '.join(a)} in A, {', '.join(b)} in B"


def _first_kernels(pairs, most: int = 3) -> str:
    """`name target` of the first pairs, and how many more."""
    named = ", ".join(f"{p.b.name} {p.b.target}" for p in pairs[:most])
    return named + (f", and {len(pairs) - most} more" if len(pairs) > most else "")


def _wave(target: str | None) -> int | None:
    """An AMD target's wave size as Triton compiles for it: 64 lanes on GCN/CDNA (gfx9), 32 on RDNA (gfx10 on);
    None for others."""
    arch = (target or "").partition(":")[2]
    return 64 if arch.startswith("gfx9") else 32 if arch.startswith("gfx1") else None


def _side_path(spec: str, sel: Selection) -> str:
    """A or B as a path; else a name or hash prefix of the entries of --cache-dir, or of the cache the other
    commands read by default ($TRITON_CACHE_DIR, ...)."""
    import os

    from tritonscope.errors import TritonscopeError

    if os.path.exists(spec):
        return spec
    if sel.cache_dir is not None:
        return str(sel.one(spec).path)
    from tritonscope.artifacts.cache import AmbiguousKernel, default_cache_dir

    try:
        return str(sel.one(spec).path)
    except AmbiguousKernel:
        raise
    except TritonscopeError as exc:
        raise TritonscopeError(f"no such file or directory, nor an entry of the default cache {default_cache_dir()} "
                               f"({exc.message}; give --cache-dir to name another)", spec) from None


def _records_apart(*roots: str | None) -> None:
    """The records cache and every cache, entry or output the command reads or writes lie apart, neither
    inside the other; else this command keeps and reads no record. Each entry's own cache is checked as it
    is read, but a diff reads two (a records cache inside B must not take A's records), an --inductor-dir
    (a log given as one: its directory), $TORCH_TRACE and a snapshot's --out are no cache of any entry, and
    a records cache around a cache read would put its `<xx>/` directories beside, or into, that cache's
    entries."""
    import os

    from tritonscope.artifacts.cache import default_compiler_caches
    from tritonscope.diff.records_cache import ENV, RecordsCache, overlaps

    cache = RecordsCache.default()
    if cache is None:
        return
    # (a torch trace read by default; a log given as an --inductor-dir stands for its directory)
    roots = (*roots, os.environ.get("TORCH_TRACE"), *map(str, default_compiler_caches()))
    for root in [os.path.dirname(os.path.abspath(r)) if os.path.isfile(r) else r for r in roots if r]:
        if overlaps(str(cache.root), root):
            os.environ[ENV] = "off"  # (the environment carries it to the pool's workers)
            return


@click.command("snapshot")
@selection_options(kernel="arguments")
@click.option("--out", "-o", "out", required=True, type=click.Path(file_okay=False),
              help="Directory to write (replaced if it holds a previous snapshot).")
@_fold_option
def snapshot_cmd(sel: Selection, out: str, fold_renames: bool) -> None:
    """Write normalized IR and metrics of KERNELS (names, globs, hash prefixes; default all) to --out.

    The tree DIR/<kernel>/<target>/<stage> plus metrics.json is byte-for-byte deterministic, meant to
    be committed and compared with `tritonscope diff OLD_DIR NEW_DIR`.
    """
    from pathlib import Path

    from tritonscope.diff.normalize import NormalizeOptions
    from tritonscope.diff.snapshot import SnapshotWriter
    from tritonscope.errors import TritonscopeError

    entries = sel.many()
    if not entries:
        raise TritonscopeError("no kernels to snapshot", str(sel.cache().root))
    sel.refuse_output_inside_caches(out, "--out", entries)
    _records_apart(out, *sel.read_roots(entries))
    for e in entries:
        for line in e.damage(empty_stages=True):
            click.echo(one_line(f"tritonscope: note: {line}"), err=True)
    options = NormalizeOptions(fold_renames=fold_renames)
    writer = SnapshotWriter(Path(out), options)
    try:
        with progress_bar(len(entries), "snapshot") as advance:
            records = writer.write_records(entries, progress=advance)
        for line in (d for r in records for d in r.damage_notes()):
            click.echo(one_line(f"tritonscope: note: {line}"), err=True)
        if len(records) < len(entries):
            click.echo(f"tritonscope: note: {len(entries) - len(records)} entries were removed from the cache "
                       "while being read; left out", err=True)
        paths = writer.finish(records)
    finally:
        writer.close()
    click.echo(one_line(f"wrote {len(paths)} kernel(s) to {out}"), err=True)
