"""Triton 3.4 and 3.5 as a layout oracle: no `to_linear_layout` in Python, but Gluon's
`convert_layout(..., assert_trivial=True)` check, `GluonOpBuilder.is_convert_layout_trivial`.

That check asks the release's own C++ (`minimalCvtLayout(src, dst)`) whether converting a tensor from one
layout to another moves no data between threads: true exactly when both layouts map every element to the
same (block, warp, lane), registers possibly in another order. So a case's layout converted to a
`#ttg.linear` built from tritonscope's bases is trivial iff tritonscope decodes which thread holds which
element as that release does (register order aside; tests/test_layout_releases.py says which cases).

Run as a script in a subprocess with the release's folder first on PYTHONPATH (as tests/layout_oracle.py):
reads a JSON list of cases (`text`, `shape`, `bits`, `warps`, `lanes`, `ctas`, `linear`: the `#ttg.linear`
text of tritonscope's bases) on stdin, writes one TTGIR module per (warps, lanes, CTAs) group with an
`arith.constant` in the case's layout and a `ttg.convert_layout` of it to `linear`, lets MLIR parse it
and prints a JSON list of `{"trivial": bool}` or `{"error": "..."}`.
"""

from __future__ import annotations

import json
import os
import sys

ELEM_OF_BITS = {8: "i8", 16: "f16", 32: "f32", 64: "f64"}


def linear_text(bases: dict) -> str:
    """`#ttg.linear<{register = [[0, 1]], lane = [...], warp = [...], block = []}>` of a bases dict."""
    def dim(name: str) -> str:
        return "[" + ", ".join("[" + ", ".join(map(str, b)) + "]" for b in bases.get(name, [])) + "]"

    return "#ttg.linear<{" + ", ".join(f"{k} = {dim(k)}" for k in ("register", "lane", "warp", "block")) + "}>"


def _lines(i: int, case: dict) -> str:
    ty = "x".join(str(s) for s in case["shape"]) + "x" + ELEM_OF_BITS.get(case.get("bits") or 16, "f16")
    zero = "0" if ty.endswith(("i8",)) else "0.000000e+00"
    return (f"    %v{i} = arith.constant dense<{zero}> : tensor<{ty}, {case['text']}>\n"
            f"    %w{i} = ttg.convert_layout %v{i} : tensor<{ty}, {case['text']}> -> tensor<{ty}, {case['linear']}>")


def _module(cases: list[tuple[int, dict]], warps: int, lanes: int, ctas: int) -> str:
    from layout_oracle import module_text

    return module_text("\n".join(_lines(i, c) for i, c in cases), warps, lanes, ctas)


def main() -> None:
    from layout_oracle import parsed_parts, triton_builder

    cases = json.load(sys.stdin)
    ir, ctx, builder = triton_builder()
    results: list[dict] = [{"error": "not run"} for _ in cases]
    for part, module in parsed_parts(ir, ctx, cases, _module, results, error_chars=300):
        ops: list = []
        module.walk(ops.append)
        converts = [op for op in ops if op.get_name() == "ttg.convert_layout"]
        for (i, _), op in zip(part, converts, strict=False):
            try:
                results[i] = {"trivial": bool(builder.is_convert_layout_trivial(
                    op.get_result(0).get_type(), op.get_operand(0)))}
            except Exception as exc:  # noqa: BLE001
                results[i] = {"error": f"{type(exc).__name__}: {exc}"}
    sys.stdout.write(json.dumps(results))
    sys.stdout.flush()
    os._exit(0)


def run(cases: list[dict], folder: str) -> list[dict]:
    """The release in `folder` judges each case; a batch that crashes libtriton is split until it stands alone."""
    from layout_oracle import run_script

    env = {**os.environ, "PYTHONPATH": folder + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return run_script(__file__, cases, env)


if __name__ == "__main__":
    main()
