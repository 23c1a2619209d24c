"""Record a Triton release's code generator's verdict on the layout cases (tests/layout_codegen.py), as JSON
tests/test_layout_releases.py compares tritonscope against.

    pip download --no-deps --only-binary=:all: --python-version 3.11 triton==3.2.0 -d wheels
    python -m zipfile -e wheels/triton-3.2.0-*.whl /tmp/triton-3.2.0
    chmod -R +x /tmp/triton-3.2.0/triton/backends/*/bin
    python tests/layout_codegen_record.py /tmp/triton-3.2.0     # writes tests/data/layout-oracle/codegen-3.2.json

2.2 and 2.3 the same way (their `triton/third_party/cuda/bin` made executable; 2.2 imports torch and
numpy, which this environment has): NVIDIA cases only, their wheels have no AMD backend. 2.0 and 2.1 have
no `tt.elementwise_inline_asm` to probe with.

The cases are the distributed ones of `layout_cases.oracle_cases()` (the to_linear_layout records' cases)
and the MFMA tile cases of the 3.5 equivalence record, each spelled as the release spells it (or skipped,
with the reason, where it cannot say it). Each case records the layout text the release printed back and
the bases fitted to what its code generator did (or why there are none).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "data" / "layout-oracle"
TOO_MANY_REGISTERS = 256  # elements per thread above which a case is not probed (the evaluator's time)


def jobs_for(release: tuple[int, int]) -> tuple[list[dict], list[dict]]:
    """(rows, jobs): a row per case (skipped ones carry `skipped`), a compile job per probed row."""
    sys.path.insert(0, str(HERE))
    from layout_cases import oracle_cases
    from layout_codegen import Unspellable, ctas_of, probe_module, spell, target_of
    from layout_equivalence_record import mfma_tile_cases

    from tritonscope.layouts import releases
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.tensor import to_linear

    rows, jobs = [], []
    for c in oracle_cases() + mfma_tile_cases():
        if c.get("shared") or c.get("tmem"):
            continue
        row = {k: c[k] for k in ("kind", "shape", "bits", "warps", "lanes") if k in c}
        row["case"] = c["text"]
        rows.append(row)
        layout = parse_layout(c["text"])
        try:
            text = spell(layout, release)
        except Unspellable as exc:
            row["skipped"] = str(exc)
            continue
        bits = c["bits"] or 16
        ll = to_linear(parse_layout(text), c["shape"], bits, semantics=releases.Semantics(release, "record"))
        if ll.size("register") > TOO_MANY_REGISTERS:
            row["skipped"] = f"{ll.size('register')} registers per thread"
            continue
        target = target_of(layout, c["lanes"])
        if release < (3, 0) and not target.startswith("cuda"):
            row["skipped"] = "2.x wheels have no AMD backend"
            continue
        ctas = ctas_of(layout)
        if ctas > 1 and not target.startswith("cuda"):
            row["skipped"] = "a CGA of several CTAs on a 64-lane target"
            continue
        row["target"] = target
        if ctas > 1:
            row["ctas"] = ctas
        row["job"] = len(jobs)
        jobs.append({"module": probe_module(text, c["shape"], bits, c["warps"], c["lanes"], release, target,
                                            ctas=ctas), "target": target, "ctas": ctas})
    return rows, jobs


def verdict(row: dict, result: dict) -> dict:
    from layout_codegen import fit, printed_layout
    from llvm_eval import Unsupported, asm_operands

    if "error" in result:
        return {"error": result["error"]}
    printed = printed_layout(result["ttgir"])
    if printed is None:
        return {"error": "the release printed no layout back"}
    threads = row["warps"] * row["lanes"]
    ctas = row.get("ctas", 1)
    try:  # every CTA of the CGA in turn: its threads read their cluster CTA id as `block`
        per_thread = [r for block in range(ctas)
                      for r in asm_operands(result["llir"], threads, row["lanes"], block, ctas)]
    except Unsupported as exc:
        return {"text": printed, "error": f"LLVM IR not evaluated: {exc}"}
    if (row["bits"] or 16) == 8:  # the low bytes' asm calls, then the high bytes'
        half = len(per_thread[0]) // 2
        per_thread = [[lo | hi << 8 for lo, hi in zip(r[:half], r[half:], strict=True)] for r in per_thread]
    return {"text": printed, **fit(per_thread, row["shape"], row["warps"], row["lanes"], ctas)}


def record(folder: str, limit: int | None = None) -> Path:
    sys.path.insert(0, str(HERE))
    from layout_codegen import run
    from layout_oracle import release_of, write_record

    version = release_of(folder)
    release = tuple(int(x) for x in version.split(".")[:2])
    rows, jobs = jobs_for(release)
    if limit is not None:
        rows = [r for r in rows if r.get("job", limit) < limit]
        jobs = jobs[:limit]
    results = run(jobs, folder)
    out = []
    for row in rows:
        job = row.pop("job", None)
        if job is not None:
            row.update(verdict(row, results[job]))
        out.append(row)
    path = OUT / f"codegen-{release[0]}.{release[1]}.json"
    write_record(path, version, "tests/layout_codegen_record.py: each case's layout, spelled as this release "
                 "spells it, in a TTGIR kernel that hands every register of the element-index tensor to a "
                 "side-effecting inline asm; triton.compile(kernel.ttgir, target=...) of this release; its LLVM IR "
                 "evaluated for every thread (tests/llvm_eval.py); the bases fitted to that map and checked "
                 "against every (thread, register); `text` is the layout as this release printed it back", out,
                 indent=0)
    return path


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python tests/layout_codegen_record.py RELEASE_FOLDER [LIMIT]")
    print(record(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else None))
