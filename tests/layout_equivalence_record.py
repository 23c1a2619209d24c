"""Record Triton 3.4 / 3.5's verdict on tritonscope's layouts (tests/layout_equivalence.py), as JSON the
tests compare against.

    pip download --no-deps --only-binary=:all: --python-version 3.11 triton==3.5.1 -d wheels
    unzip -q wheels/triton-3.5.1-*.whl -d /tmp/triton-3.5.1
    python tests/layout_equivalence_record.py /tmp/triton-3.5.1   # writes tests/data/layout-oracle/equivalence-3.5.json

The cases are the distributed ones of `layout_cases.oracle_cases()` (the releases' records use the same);
for each, tritonscope's bases under that release's semantics are written as a `#ttg.linear` and the release
says whether converting the case's layout to it is trivial. The record keeps the bases it judged:
tests/test_layout_releases.py checks that tritonscope still gives those bases and that every verdict is
`trivial` (or the refusal recorded).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "data" / "layout-oracle"


def distributed_cases(version: tuple[int, int]) -> list[dict]:
    sys.path.insert(0, str(HERE))
    from layout_cases import oracle_cases
    from layout_equivalence import linear_text

    from tritonscope.layouts import releases
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.tensor import to_linear

    semantics = releases.Semantics(version, "record")
    out = []
    for c in oracle_cases() + mfma_tile_cases():
        if c.get("shared") or c.get("tmem"):
            continue
        layout = parse_layout(c["text"])
        bases = to_linear(layout, c["shape"], c["bits"], semantics=semantics).to_json()
        row = {k: c[k] for k in ("kind", "text", "shape", "bits", "warps", "lanes", "ctas") if k in c}
        out.append({**row, "bases": bases, "linear": linear_text(bases)})
    return out


def mfma_tile_cases() -> list[dict]:
    """MFMA operands whose parent repeats tiles per warp (few random cases do): the difference 3.5 shows."""
    out = []
    for version, instr in ((3, "[32, 32, 8]"), (4, "[16, 16, 32]")):
        for tiles in ("[2, 1]", "[1, 2]", "[1, 4]", "[2, 2]"):
            for warps, n in (("[2, 2]", 4), ("[4, 1]", 4), ("[1, 4]", 4)):
                for op in (0, 1):
                    parent = (f"#ttg.amd_mfma<{{version = {version}, warpsPerCTA = {warps}, instrShape = {instr}, "
                              f"isTransposed = true, tilesPerWarp = {tiles}}}>")
                    out.append({"kind": "dot_op(amd_mfma) tiles", "shape": [128, 128], "bits": 16, "warps": n,
                                "lanes": 64, "text": f"#ttg.dot_op<{{opIdx = {op}, parent = {parent}, kWidth = 8}}>"})
    return out


def record(folder: str) -> Path:
    sys.path.insert(0, str(HERE))
    from layout_equivalence import run
    from layout_oracle import release_of, write_record

    version = release_of(folder)
    major_minor = tuple(int(x) for x in version.split(".")[:2])
    cases = distributed_cases(major_minor)
    results = run(cases, folder)
    rows = [{**{k: v for k, v in c.items() if k != "linear"}, **r} for c, r in zip(cases, results, strict=True)]
    path = OUT / f"equivalence-{major_minor[0]}.{major_minor[1]}.json"
    write_record(path, version, "tests/layout_equivalence_record.py: GluonOpBuilder.is_convert_layout_trivial (the "
                 "check of Gluon's convert_layout(assert_trivial=True)) from each case's layout to a #ttg.linear of "
                 "tritonscope's bases, in a TTGIR module parsed by this release's ir.parse_mlir_module", rows,
                 indent=0)
    return path


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/layout_equivalence_record.py RELEASE_FOLDER")
    print(record(sys.argv[1]))
