"""Record Triton's own linear layouts, release by release, as JSON the tests compare against.

Triton exposes its layout -> linear layout conversion to Python from 3.6 on
(`GluonOpBuilder.to_linear_layout`; 3.4 and 3.5 have Gluon but not that method, 3.3 has no Gluon).
For each release, install its wheel into a folder of its own (no venv needed: the wheel is pure data plus
libtriton) and run, from the repository root:

    pip download --no-deps --only-binary=:all: --python-version 3.11 triton==3.8.0 -d wheels
    unzip -q wheels/triton-3.8.0-*.whl -d /tmp/triton-3.8.0
    python tests/layout_oracle_record.py /tmp/triton-3.8.0      # writes tests/data/layout-oracle/triton-3.8.json

(with no folder, the installed triton; `--extra`: the cases of record_extra).
The cases (layout text, shape, element bits, warps, lanes) come
from `layout_cases.oracle_cases()`: seeded random layouts of every kind Triton can convert, tensors
smaller than the layout's tile included, plus the legacy spellings. Triton runs in a subprocess
(`layout_oracle.py`) with the release folder first on PYTHONPATH; a case it refuses is recorded with its
error. tests/test_layout_releases.py compares tritonscope, under each release's semantics, to every
record committed here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "data" / "layout-oracle"


def record(folder: str | None) -> Path:
    sys.path.insert(0, str(HERE))
    from layout_cases import oracle_cases
    from layout_oracle import release_of, run_oracle, write_record

    version = release_of(folder)
    cases = oracle_cases()
    if folder:
        os.environ["PYTHONPATH"] = folder + os.pathsep + os.environ.get("PYTHONPATH", "")
    results = run_oracle(cases)
    rows = []
    for case, result in zip(cases, results, strict=True):
        row = {k: case[k] for k in ("kind", "text", "shape", "bits", "shared", "warps", "lanes", "tmem", "ctas")
               if k in case}
        row.update(result)
        rows.append(row)
    major_minor = ".".join(version.split(".")[:2])
    path = OUT / f"triton-{major_minor}.json"
    write_record(path, version, "tests/layout_oracle_record.py: GluonOpBuilder.to_linear_layout on a TTGIR module "
                 "parsed by this release's ir.parse_mlir_module, one value per case", rows, separators=(",", ":"))
    refused = sum(1 for r in rows if "error" in r)
    print(f"triton {version}: {len(rows)} cases, {refused} refused -> {path.relative_to(HERE.parent)}")
    return path


def record_extra() -> Path:
    """Cases beside the per-release ones, answered by the installed Triton (3.9 or later) and kept where it
    answers: 3.9's `#ttg.generic_linear` (`layout_cases.generic_linear_cases`; its `to_linear_layout` wraps
    every distributed answer back into a layout object, which aborts libtriton for most generic layouts, a
    `linear` one's verifier: those have no oracle and are counted, not kept) and fp64's MMA
    (`layout_cases.fp64_mma_cases`)."""
    sys.path.insert(0, str(HERE))
    from layout_cases import fp64_mma_cases, generic_linear_cases
    from layout_oracle import release_of, run_oracle, write_record

    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.tensor import to_linear

    cases = generic_linear_cases(count=240) + fp64_mma_cases()
    for c in cases:
        ll = to_linear(parse_layout(c["text"]), c["shape"], c["bits"])
        c.update(warps=ll.size("warp"), lanes=ll.size("lane"))
    results = run_oracle(cases)
    rows = [{**c, **r} for c, r in zip(cases, results, strict=True) if "error" not in r]
    version = release_of(None)
    path = OUT / f"extra-triton-{'.'.join(version.split('.')[:2])}.json"
    write_record(path, version, f"tests/layout_oracle_record.py --extra: GluonOpBuilder.to_linear_layout as for "
                 f"triton-X.Y.json; {len(cases) - len(rows)} of {len(cases)} cases aborted libtriton and are left "
                 "out", rows, separators=(",", ":"))
    print(f"triton {version}: {len(rows)} of {len(cases)} extra cases answered -> {path.relative_to(HERE.parent)}")
    return path


if __name__ == "__main__":
    if sys.argv[1:] == ["--extra"]:
        record_extra()
    else:
        record(sys.argv[1] if len(sys.argv) > 1 else None)
