"""The results of `tritonscope map` as plain, JSON-ready data (schema: docs/json-map.md).

The terminal renderer and `--json` read the same dictionaries, so the two views cannot disagree.
"""

from __future__ import annotations

import re
from collections import Counter

from tritonscope.errors import TritonscopeError
from tritonscope.srcmap.kernelmap import (
    MAP_STAGES,
    KernelMap,
    coverage,
    find_ops,
    helper_places,
    inlined_line_counts,
    kernel_map_of,
    line_counts,
    load_kernel_map,
    memory_flow,
    memory_kind,
    parse_stage_list,
    stage_has_columns,
)
from tritonscope.srcmap.paths import SourceFinder, SourceText, columns_are_one_based, expression_span
from tritonscope.stages import release
from tritonscope.stages.common import Op, resolve_file, same_file
from tritonscope.stages.partitions import NOTE as _PARTITIONS_NOTE

DEFAULT_CONTEXT = 2
# Uncounted source lines shown between two counted ones in the listing, at most.
LISTING_MAX_GAP = 8


def kernel_json(kmap: KernelMap) -> dict:
    return {"name": kmap.name, "hash": kmap.hash, "target": kmap.target, "triton_version": kmap.triton_version,
            "triton_version_inferred": kmap.triton_version_inferred, "source_file": kmap.source_file}


def op_json(op: Op, source: SourceText | None = None) -> dict:
    d = {"lineno": op.lineno, "op": op.op, "text": op.text, "function": op.function, "chain": _chain(op)}
    if source is not None:  # (an op with no location has no source line: null, as docs/json-map.md says)
        outer = op.loc.outermost() if op.loc is not None else None
        # a line of the kernel's own file only (a helper's file kept as a call, or a library's, is the chain's)
        own = outer is not None and outer.known and same_file(outer.file, source.requested or None)
        d["source_line"] = outer.line if own else None
        d["source_text"] = source.line(outer.line) if own and source.found else None
    return d


def _chain(op: Op) -> list[dict]:
    if op.loc is None:
        return []
    out = []
    for p in op.loc.chain():
        d = {"file": p.file, "line": p.line, "col": p.col}
        if p.name:
            d["name"] = p.name
        out.append(d)
    return out


def read_source(kmap: KernelMap, finder: SourceFinder, file: str | None) -> SourceText:
    requested = _resolve_file_arg(kmap, file)
    if requested is None:
        return SourceText("", error="no stage names a source file (no locations in this kernel)")
    return finder.read(requested, kmap.named_files(), kmap.compiled_at)


def _resolve_file_arg(kmap: KernelMap, file: str | None) -> str | None:
    """`--file kernels.py` or a full path: the path as the IR spells it, when some op names it."""
    if file is None:
        return kmap.source_file
    return resolve_file(file, kmap.named_files(), prefer=kmap.source_file)


def _columns_one_based(kmap: KernelMap) -> bool | None:
    """Whether the kernel's columns count from 1 (3.8 on) or 0: read from its MLIR, where the kernel's own
    function is located at its `def` line's column 1 or 0 (an entry compiled again from an older release's
    TTIR keeps that release's columns under the new release's metadata), else from its release."""
    for stage in ("ttir", "ttgir", "source"):
        module = kmap.stages.get(stage)
        if module is None:
            continue
        cols = {loc.col for loc in module.function_locs.values() if loc is not None and loc.known}
        if cols == {0}:
            return False
        if cols == {1}:
            return True
    return columns_are_one_based(kmap.triton_version)


def line_result(kmap: KernelMap, finder: SourceFinder, line: int, file: str | None = None,
                col: int | None = None, context: int = DEFAULT_CONTEXT) -> dict:
    source = read_source(kmap, finder, file)
    requested = source.requested or None
    one_based = _columns_one_based(kmap)
    stages = []
    per_stage_kinds: dict[str, list[str | None]] = {}
    for stage, module in kmap.stages.items():
        has_cols = stage_has_columns(module)
        # A stage without columns (SASS, llvm-objdump) cannot narrow to one expression: show the line.
        ops = kmap.ops_at(stage, line, requested, col if has_cols else None)
        kinds = per_stage_kinds[stage] = [memory_kind(stage, op) for op in ops]
        # (the partitions' note concerns the lines their ops moved from and to, not every line asked)
        notes = [n for n in module.notes if PARTITIONS_NOTE_HEAD not in n or line in module.partition_lines]
        stages.append({"stage": stage, "count": len(ops), "kinds": dict(Counter(op.op for op in ops)),
                       "columns": has_cols, "col_filtered": col is not None and has_cols,
                       "ops": [{**op_json(op), "memory": kind} for op, kind in zip(ops, kinds, strict=True)],
                       "notes": notes})
    _note_vanished(kmap, stages)
    _note_warp_specialize_call(kmap, stages, source, line)
    ctx = []
    if source.found:  # (no more lines than the file has, whatever --context asks for)
        context = min(context, max(line, len(source.lines)))
    else:
        context = min(context, 0)
    for n in range(max(1, line - context), line + context + 1):
        text = source.line(n) if source.found else None
        if source.found and text is None:
            continue
        ctx.append({"line": n, "text": text, "current": n == line})
    highlight = None
    if col is not None and source.found and source.line(line) is not None and one_based is not None:
        span = expression_span(source.line(line), col, one_based)
        if span:
            highlight = {"start": span[0], "end": span[1]}
    flow = [{"stage": s, "kinds": dict(k)} for s, k in memory_flow(per_stage_kinds)]
    return {"kernel": kernel_json(kmap), "source": source.to_json(),
            "source_line_count": len(source.lines) if source.found else None,
            "last_named_line": last_named_line(kmap, requested),
            "query": {"file": requested, "line": line, "col": col, "match": _match(kmap, stages, requested, line)},
            "columns": None if one_based is None else ("1-based" if one_based else "0-based"),
            "context": ctx, "highlight": highlight, "stages": stages, "flow": flow, "skipped": kmap.skipped}


def _note_warp_specialize_call(kmap: KernelMap, stages: list[dict], source, line: int) -> None:
    """A `gl.warp_specialize(...)` call's line holds no op: Triton locates the `ttg.warp_specialize` it makes
    at the kernel's def. Said on the MLIR stages that have none there (they showed 0 ops, no word)."""
    text = source.line(line) if source.found else None
    if not text or "warp_specialize" not in text or not _WARP_SPECIALIZE_CALL.search(text):
        return
    for st in stages:
        module = kmap.stages.get(st["stage"])
        if st["count"] or module is None:
            continue
        ws = next((op for op in module.ops if op.op == "ttg.warp_specialize" and op.loc is not None), None)
        if ws is not None and ws.loc.outermost().line not in (0, line):
            st["notes"].insert(0, f"the ttg.warp_specialize this call makes is located at line "
                                  f"{ws.loc.outermost().line} (the kernel's def, as Triton gives it); its "
                                  "partitions' ops are at their functions' lines")


PARTITIONS_NOTE_HEAD = _PARTITIONS_NOTE.split("{}")[1]  # (after the count)
_WARP_SPECIALIZE_CALL = re.compile(r"\bwarp_specialize\s*\(")


def _note_vanished(kmap: KernelMap, stages: list[dict]) -> None:
    """A stage with no op of the line after one with some: say so there (tl.cumsum's call on a line whose
    scan equals another line's: one tt.scan is left, on that line)."""
    for before, after in zip(stages, stages[1:], strict=False):
        if before["count"] and not after["count"]:
            n = before["count"]
            head = f"this line's {n} {before['stage']} op{'s are' if n != 1 else ' is'} in no {after['stage']} op"
            if kmap.stages[after["stage"]].cut is not None:  # (not the compiler's doing)
                after["notes"].insert(0, f"{head}: the {after['stage']} file looks cut short (see its note)")
            else:
                after["notes"].insert(0, f"{head}: folded, removed as unused, or merged with the same computation "
                                         "on another line (whose ops then do this line's work)")
            return


def _match(kmap: KernelMap, stages: list[dict], file: str | None, line: int) -> str:
    """How the ops matched: "outermost" (the line wrote them or called the helper that did), "inlined"
    (a helper's line: an inner element of their chain; always so for another file than the kernel's),
    "outermost+inlined" (the kernel's file, both kinds among the ops)."""
    if not kmap.is_user_file(file):
        return "inlined"
    kinds = {"outermost" if op["chain"][-1]["line"] == line and same_file(op["chain"][-1]["file"], file)
             else "inlined" for st in stages for op in st["ops"] if op["chain"]}
    return "+".join(k for k in ("outermost", "inlined") if k in kinds) or "outermost"


def last_named_line(kmap: KernelMap, file: str | None) -> int | None:
    """The highest line of `file` that any location of any parsed stage names."""
    best = None
    for module in kmap.stages.values():
        for op in module.ops:
            if op.loc is None:
                continue
            for p in op.loc.chain():
                if p.line and (file is None or p.file == file) and (best is None or p.line > best):
                    best = p.line
    return best


def listing_result(kmap: KernelMap, finder: SourceFinder, file: str | None = None) -> dict:
    source = read_source(kmap, finder, file)
    counts, covs = line_counts(kmap, source.requested or None)
    # ops a helper defined in this file wrote on a line, counted above at the line that called it
    inlined = {s: inlined_line_counts(m, source.requested or kmap.source_file) for s, m in kmap.stages.items()}
    lines_with_ops = sorted({n for c in counts.values() for n in c} | {n for c in inlined.values() for n in c})
    rows = []
    if lines_with_ops:
        numbers = _with_small_gaps(lines_with_ops) if source.found else lines_with_ops
        for n in numbers:
            row = {"line": n, "text": source.line(n) if source.found else None,
                   "counts": {s: counts[s].get(n, 0) for s in kmap.stages}}
            if any(c.get(n) for c in inlined.values()):
                row["inlined"] = {s: inlined[s].get(n, 0) for s in kmap.stages}
            rows.append(row)
    unattributed = {s: {"unknown": c.unknown, "no_loc": c.no_loc, "other_file": c.other_file}
                    for s, c in covs.items()}
    return {"kernel": kernel_json(kmap), "source": source.to_json(), "stages": list(kmap.stages),
            "lines": rows, "unattributed": unattributed, "coverage": [c.to_json() for c in covs.values()],
            "helper_files": helper_files(kmap, source.requested or kmap.source_file),
            "skipped": kmap.skipped}


def helper_files(kmap: KernelMap, shown: str | None) -> list[dict]:
    """The other files ops were written in (helpers inlined from another module, Triton's own `tl.sum`):
    per file, how many of its lines hold ops and the ops per stage, each op once per file; `map --file F`
    lists one of them."""
    per_file: dict[str, dict] = {}
    for stage, module in kmap.stages.items():
        for places in helper_places(module, shown):  # (file, line) pairs of one op's chain
            for f in {f for f, _ in places}:
                entry = per_file.setdefault(f, {"file": f, "lines": set(), "ops": {}})
                entry["ops"][stage] = entry["ops"].get(stage, 0) + 1
            for f, n in places:
                per_file[f]["lines"].add(n)
    return [{"file": e["file"], "lines": len(e["lines"]), "ops": {s: e["ops"].get(s, 0) for s in kmap.stages}}
            for e in sorted(per_file.values(), key=lambda e: e["file"])]


def _with_small_gaps(lines: list[int], max_gap: int = LISTING_MAX_GAP) -> list[int]:
    """The counted lines plus the lines between two of them when they are close (the body of a
    statement); a wide gap (another function between helper and kernel) is left out."""
    out = [lines[0]]
    for n in lines[1:]:
        if n - out[-1] <= max_gap:
            out.extend(range(out[-1] + 1, n))
        out.append(n)
    return out


def reverse_result(kmap: KernelMap, finder: SourceFinder, stage: str, at: int | None,
                   grep: str | None) -> dict:
    module = kmap.stages[stage]
    ops = find_ops(module, at, grep)
    source = read_source(kmap, finder, None)
    by_line: Counter[int] = Counter()
    for op in ops:
        if op.loc is not None and op.loc.outermost().known and \
                same_file(op.loc.outermost().file, source.requested or None):
            by_line[op.loc.outermost().line] += 1
    return {"kernel": kernel_json(kmap), "stage": stage, "query": {"at": at, "grep": grep},
            "source": source.to_json(), "matches": [op_json(op, source) for op in ops],
            "by_line": [{"line": n, "count": c, "text": source.line(n) if source.found else None}
                        for n, c in sorted(by_line.items())]}


def _stage_rank(stage: str) -> int:
    return MAP_STAGES.index(stage) if stage in MAP_STAGES else len(MAP_STAGES)


def stats_result(kmaps: list[KernelMap]) -> dict:
    return combine_stats([kernel_stats(kmap) for kmap in kmaps])


def kernel_stats(kmap: KernelMap) -> dict:
    """One kernel's coverage rows: small, so a pool worker returns this rather than the parsed stages."""
    rows = [coverage(module, kmap.source_file).to_json() for module in kmap.stages.values()]
    return {"kernel": kernel_json(kmap), "stages": rows, "skipped": kmap.skipped}


def entry_stats(job: tuple) -> dict:
    """`map --stats` of one cache entry: (entry, --stages text, explicit) -> kernel_stats (pool job)."""
    entry, stages_text, strict = job
    names, explicit = parse_stage_list(stages_text, entry)
    # over a whole cache, --stages is a filter: an entry without one of them is not an error, and an
    # entry that cannot be read (a stage over the size limit, a damaged file) is skipped with the reason
    try:
        return kernel_stats(load_kernel_map(entry, names, explicit and strict))
    except TritonscopeError as exc:
        if strict:
            raise
        kmap = kernel_map_of(entry)
        kmap.skipped["entry"] = str(exc)
        return kernel_stats(kmap)
    finally:
        release(entry)  # over a whole cache: memory stays flat


def combine_stats(kernels: list[dict]) -> dict:
    totals: dict[str, dict[str, int]] = {}
    for kernel in kernels:
        for row in kernel["stages"]:
            t = totals.setdefault(row["stage"], {"ops": 0, "attributed": 0, "unknown": 0, "no_loc": 0,
                                                 "other_file": 0})
            for key in t:
                t[key] += row[key]
    total_rows = []
    for stage, t in sorted(totals.items(), key=lambda kv: _stage_rank(kv[0])):
        pct = round(100.0 * t["attributed"] / t["ops"], 2) if t["ops"] else 0.0
        total_rows.append({"stage": stage, **t, "percent": pct})
    return {"kernels": kernels, "totals": total_rows}
