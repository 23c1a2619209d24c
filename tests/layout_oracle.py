"""Triton's own linear layouts, as an oracle for tritonscope.layouts (tests only; needs triton >= 3.9).

Run as a script in a subprocess (a bad layout can abort the process inside libtriton): reads a JSON list of
cases `{"text": "#ttg.blocked<...>", "shape": [64, 256], "bits": 16, "shared": false, "warps": 4,
"lanes": 32}` (`"tmem": true` for a tensor memory encoding, `"ctas": 2` for a module of two CTAs) on
stdin, writes one TTGIR module per (warps, lanes, CTAs) group, lets MLIR parse it (`ir.parse_mlir_module`),
reads each value's layout back (`GluonOpBuilder.get_gluon_layout_from_tensor`, `_from_memdesc`)
and asks `GluonOpBuilder.to_linear_layout(attr, shape)` for the bases. Prints a JSON list of
`{"bases": {...}}` or `{"error": "..."}`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

FLOAT_OF_BITS = {8: "i8", 16: "f16", 32: "f32", 64: "f64"}
CTAS_OF = "ctas"  # a case's CTAs per CGA (module attribute ttg.num-ctas); 1 unless the case says


def _value_line(i: int, case: dict) -> str:
    shape = "x".join(str(s) for s in case["shape"])
    elem = FLOAT_OF_BITS.get(case.get("bits") or 16, "f16")
    if case.get("tmem"):
        return (f"    %v{i} = ttng.tmem_alloc : () -> !ttg.memdesc<{shape}x{elem}, {case['text']}, "
                f"#ttng.tensor_memory, mutable>")
    if case.get("shared"):
        return f"    %v{i} = ttg.local_alloc : () -> !ttg.memdesc<{shape}x{elem}, {case['text']}, #smem, mutable>"
    zero = "0" if elem.startswith("i") else "0.000000e+00"
    return f"    %v{i} = arith.constant dense<{zero}> : tensor<{shape}x{elem}, {case['text']}>"


def _module(cases: list[tuple[int, dict]], warps: int, lanes: int, ctas: int = 1) -> str:
    return "#smem = #ttg.shared_memory\n" + module_text("\n".join(_value_line(i, c) for i, c in cases),
                                                       warps, lanes, ctas)


def module_text(body: str, warps: int, lanes: int, ctas: int, prefix: str = "ttg", target: str | None = None,
                args: str = "", legacy: bool = False) -> str:
    """A TTGIR module of one function `@k(args)` holding `body`, for that many warps, lanes and CTAs; its
    attributes spelled with `prefix` (`triton_gpu` up to 3.2), naming `target` when given (`legacy`: as 2.x
    does, `"triton_gpu.compute-capability" = 90`)."""
    named = f'{prefix}.target = "{target}", ' if target else ""
    if legacy and target:
        named = f'"{prefix}.compute-capability" = {target.split(":")[1]} : i32, '
    return (
        f'module attributes {{"{prefix}.num-ctas" = {ctas} : i32, "{prefix}.num-warps" = {warps} : i32, '
        f'{named}"{prefix}.threads-per-warp" = {lanes} : i32}} {{\n  tt.func public @k({args}) {{\n{body}\n'
        f"    tt.return\n  }}\n}}\n"
    )


def _bases_of(ll) -> dict:
    if hasattr(ll, "rows"):  # tensor memory: (row, col) -> element; Triton's Python object has no block bases
        return {"row": ll.rows, "col": ll.cols}
    if hasattr(ll, "reg_bases"):
        return {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases, "block": ll.block_bases}
    return {"offset": ll.offset_bases, "block": ll.block_bases}


def triton_builder():
    """(ir, context, GluonOpBuilder) of the Triton on sys.path, its dialects loaded."""
    import triton._C.libtriton as lib

    ir = lib.ir
    ctx = ir.context()
    ir.load_dialects(ctx)
    return ir, ctx, lib.gluon_ir.GluonOpBuilder(ctx)


def grouped(cases: list[dict]) -> dict[tuple[int, int, int], list[tuple[int, dict]]]:
    """Cases by the module they need: (warps, lanes, CTAs), each with its index."""
    groups: dict[tuple[int, int, int], list[tuple[int, dict]]] = {}
    for i, c in enumerate(cases):
        groups.setdefault((c.get("warps", 4), c.get("lanes", 32), c.get(CTAS_OF, 1)), []).append((i, c))
    return groups


def parsed_parts(ir, ctx, cases: list[dict], module_of, results: list[dict], error_chars: int | None = None):
    """Each (warps, lanes, CTAs) group of cases as one module (`module_of(part, warps, lanes, ctas)`) that
    Triton's parser reads: yields (part, module). One bad case fails its module: then the group's cases
    are parsed one by one, and a case the parser refuses gets that error in `results`."""
    with tempfile.TemporaryDirectory() as tmp:
        for (warps, lanes, ctas), group in grouped(cases).items():
            path = os.path.join(tmp, f"m{warps}_{lanes}_{ctas}.ttgir")
            parts = [group]
            for part in parts:
                with open(path, "w") as f:
                    f.write(module_of(part, warps, lanes, ctas))
                try:
                    module = ir.parse_mlir_module(path, ctx)
                except Exception as exc:  # noqa: BLE001 - reported per case
                    if len(part) > 1:
                        parts.extend([x] for x in part)
                    else:
                        results[part[0][0]] = {"error": f"Triton's parser refused it: {str(exc)[:error_chars]}"}
                    continue
                yield part, module


def oracle_main() -> None:
    cases = json.load(sys.stdin)
    ir, ctx, builder = triton_builder()
    results: list[dict] = [{"error": "not run"} for _ in cases]
    for part, module in parsed_parts(ir, ctx, cases, _module, results):
        _read_back(builder, part, module, results)
    sys.stdout.write(json.dumps(results))
    sys.stdout.flush()
    os._exit(0)  # skip nanobind's leak report at interpreter exit


def _read_back(builder, group: list[tuple[int, dict]], module, results: list[dict]) -> None:
    ops: list = []
    module.walk(ops.append)
    values = [op for op in ops if op.get_name() in ("arith.constant", "ttg.local_alloc", "ttng.tmem_alloc")]
    for (i, c), op in zip(group, values, strict=False):
        try:
            v = op.get_result(0)
            memdesc = c.get("shared") or c.get("tmem")
            layout = builder.get_gluon_layout_from_memdesc(v) if memdesc else builder.get_gluon_layout_from_tensor(v)
            attr = layout._to_ir(builder)
            order = re.search(r"blockRepOrder = (\w+)", c["text"])
            if order:  # Gluon's TensorMemoryScalesLayout drops blockRepOrder: build the attribute with it
                attr = builder.get_tensor_memory_scales_layout([list(b) for b in layout.cga_layout], order[1])
            ll = builder.to_linear_layout(attr, list(c["shape"]))
            results[i] = {"bases": _bases_of(ll)}
        except Exception as exc:  # noqa: BLE001
            results[i] = {"error": f"{type(exc).__name__}: {exc}"}


def run_oracle(cases: list[dict]) -> list[dict]:
    """Triton's bases for each case; a batch that crashes libtriton is split until the culprit stands alone."""
    return run_script(__file__, cases)


def run_script(script: str, cases: list[dict], env: dict | None = None) -> list[dict]:
    """`script`'s JSON answer for the cases, run in a subprocess (a bad layout can abort libtriton): a
    batch that crashes is split until the culprit stands alone and is recorded as crashed."""
    if not cases:
        return []
    # the script's temp folder inside one of ours: a process libtriton aborts cannot remove its own
    with tempfile.TemporaryDirectory() as scratch:
        proc = subprocess.run([sys.executable, script], input=json.dumps(cases), capture_output=True, text=True,
                              timeout=900, check=False, env={**(env or os.environ), "TMPDIR": scratch})
    if proc.returncode == 0:
        return json.loads(proc.stdout)
    if len(cases) == 1:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return [{"error": f"crashed (rc {proc.returncode}): {tail[:200]}"}]
    mid = len(cases) // 2
    return run_script(script, cases[:mid], env) + run_script(script, cases[mid:], env)


def same_threads(a: dict, b: dict) -> bool:
    """Two bases dicts put every element on the same lane, warp and block (registers aside)."""
    return {k: v for k, v in a.items() if k != "register"} == {k: v for k, v in b.items() if k != "register"}


def register_permutation(a: dict, b: dict) -> bool:
    """The same registers in another order, every other basis the same."""
    return sorted(map(tuple, a["register"])) == sorted(map(tuple, b["register"])) and same_threads(a, b)


def release_of(folder: str | None) -> str:
    """The version of the Triton in `folder` (None: the installed one), asked in a subprocess."""
    env = {**os.environ, "PYTHONPATH": folder} if folder else None
    code = "import triton; print(triton.__version__)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=env).stdout.strip()


def write_record(path, version: str, how: str, rows: list[dict], **dumps) -> None:
    """A release's record: `{"triton": version, "how": ..., "cases": rows}` (json.dumps keywords as given)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"triton": version, "how": how, "cases": rows}, **dumps) + "\n")


def triton_has_oracle() -> bool:
    try:
        import triton._C.libtriton as lib
    except Exception:  # noqa: BLE001
        return False
    return (
        hasattr(getattr(lib, "gluon_ir", None), "GluonOpBuilder")
        and hasattr(lib.gluon_ir.GluonOpBuilder, "to_linear_layout")
        and hasattr(lib.ir, "parse_mlir_module")
    )


if __name__ == "__main__":
    oracle_main()
