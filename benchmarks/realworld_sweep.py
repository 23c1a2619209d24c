"""Figures of `loads` over real caches (e.g. those `record_thirdparty.py` records): for every kernel entry,
every access row's verdict, whether each global load/store/atomic joined SASS, how many SASS memory
instructions got their line through the embedded PTX (`nvdisasm -gp`), and the spills found.

    python benchmarks/realworld_sweep.py CACHE_DIR [CACHE_DIR ...] [--json OUT] [--no-sass]

Prints one table per cache and a total; with --json writes the figures and every `unknown` row.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time

GLOBAL = ("global_load", "global_store", "atomic", "async_copy", "tma_load", "tma_store")


def sweep(cache_dir: str, sass: bool = True) -> dict:
    from tritonscope.artifacts.cache import Cache
    from tritonscope.loads.analyze import analyze_entry

    figures: collections.Counter = collections.Counter()
    verdicts: collections.Counter = collections.Counter()
    kinds: collections.Counter = collections.Counter()
    unknown: list[dict] = []
    unjoined: list[dict] = []
    reasons: collections.Counter = collections.Counter()
    t0 = time.perf_counter()
    for entry in Cache(cache_dir).kernels():
        if "ttgir" not in entry.files:
            continue
        figures["entries"] += 1
        report = analyze_entry(entry, sass=sass)
        has_sass = "sass" in report.stages
        figures["entries_with_sass"] += has_sass
        figures["spill_sites"] += len(report.spills)
        figures["spill_instructions"] += sum(s["count"] for s in report.spills)
        for note in report.notes:
            m = re.match(r"SASS: (\d+) of (\d+) instructions located through their PTX line", note)
            if m:
                figures["sass_placed_gp"] += int(m.group(1))
                figures["sass_instructions"] += int(m.group(2))
            elif note.startswith("SASS: no PTX line table"):
                figures["entries_without_gp"] += 1
        for row in report.rows:
            figures["rows"] += 1
            verdicts[row.verdict] += 1
            kinds[row.kind] += 1
            for cc in row.count_changes:
                reasons[cc.code] += 1
            if row.verdict == "unknown":
                unknown.append({"entry": entry.hash, "kernel": entry.name, "line": row.line, "op": row.op,
                                "kind": row.kind, "reasons": [r.code for r in row.reasons]})
            if row.kind in GLOBAL and has_sass:
                figures["global"] += 1
                if sum(row.counts("sass").values()):
                    figures["global_sass_joined"] += 1
                elif any(c.code == "removed" for c in row.count_changes):
                    figures["global_sass_removed"] += 1  # ptxas emitted nothing for it (proven by counts)
                elif row.ambiguous.get("sass"):
                    figures["global_sass_ambiguous"] += 1  # its instructions are shared with another row's
                else:
                    unjoined.append({"entry": entry.hash, "kernel": entry.name, "line": row.line, "op": row.op,
                                     "file": row.file, "ptx": row.counts("ptx")})
    figures["seconds"] = round(time.perf_counter() - t0, 1)
    return {"cache": cache_dir, "figures": dict(figures), "verdicts": dict(verdicts), "kinds": dict(kinds),
            "count_change_reasons": dict(reasons), "unknown": unknown, "unjoined_global": unjoined}


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("caches", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--no-sass", action="store_true")
    args = ap.parse_args(argv)
    results = [sweep(c, sass=not args.no_sass) for c in args.caches]
    total: collections.Counter = collections.Counter()
    for r in results:
        f, v = r["figures"], r["verdicts"]
        total.update(f)
        total.update({"unknown_rows": v.get("unknown", 0)})
        print(f"{r['cache']}: {f.get('entries', 0)} entries, {f.get('rows', 0)} accesses, unknown "
              f"{v.get('unknown', 0)} ({_pct(v.get('unknown', 0), f.get('rows', 0))}), global joined to SASS "
              f"{f.get('global_sass_joined', 0)}/{f.get('global', 0)} "
              f"({_pct(f.get('global_sass_joined', 0), f.get('global', 0))}), removed by ptxas "
              f"{f.get('global_sass_removed', 0)}, ambiguous {f.get('global_sass_ambiguous', 0)}, spills "
              f"{f.get('spill_instructions', 0)} instr at {f.get('spill_sites', 0)} sites, {f.get('seconds')}s")
        print("   verdicts", v, "\n   kinds", r["kinds"], "\n   count changes", r["count_change_reasons"])
    print(f"total: {total['entries']} entries, {total['rows']} accesses, unknown {total['unknown_rows']} "
          f"({_pct(total['unknown_rows'], total['rows'])}), global joined to SASS {total['global_sass_joined']}/"
          f"{total['global']} ({_pct(total['global_sass_joined'], total['global'])})")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
