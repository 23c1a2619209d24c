"""On a real GPU (`pytest -m gpu`): the code-generator layout probe (tests/layout_codegen.py), whose records
check every release's layouts without a GPU, checked against the hardware.

For each NVIDIA case the probe's twin kernel stores every thread's `%tid.x` at `out + element index` (one
holder of each element writes it: Triton's store lowering masks the repeats), launched on the GPU by the
installed Triton. Every element must be written, by a thread that holds it both in tritonscope's decoding
(as the installed release decodes) and in the per-thread map tests/llvm_eval.py reads from the asm probe's
LLVM IR: the evaluator and the decoding against what the threads did. Set TRITONSCOPE_GPU_RESULTS=FILE to
append one JSON line with the counts.
"""

from __future__ import annotations

import json
import os

import pytest
from layout_cases import oracle_cases
from layout_codegen import probe_module
from llvm_eval import asm_operands

from tritonscope.layouts import releases
from tritonscope.layouts.attrs import parse_layout
from tritonscope.layouts.tensor import to_linear

pytestmark = pytest.mark.gpu

MAX_REGISTERS = 128


def _holders(ll, lanes: int, warps: int) -> dict[int, set[int]]:
    """Flat element index -> the threads (warp * lanes + lane) that hold it in a tritonscope LinearLayout
    (its `elements`, what `layout --thread` prints)."""
    out: dict[int, set[int]] = {}
    strides = [1] * len(ll.shape)
    for d in range(len(ll.shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * ll.shape[d + 1]
    for t in range(lanes * warps):
        for _, coord in ll.elements(warp=t // lanes, lane=t % lanes):
            out.setdefault(sum(c * s for c, s in zip(coord, strides, strict=True)), set()).add(t)
    return out


def test_probe_and_decoding_agree_with_the_hardware(tmp_path):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no GPU")
    import triton

    release = releases.parse_version(triton.__version__)
    semantics = releases.Semantics(release, "installed")
    cap = torch.cuda.get_device_capability()
    target = f"cuda:{cap[0] * 10 + cap[1]}"
    checked = evaluated = refused = 0
    problems = []
    for case in oracle_cases():
        layout = parse_layout(case["text"])
        if case.get("shared") or case.get("tmem") or case["lanes"] != 32 or case.get("ctas", 1) != 1 \
                or "CGALayout" in case["text"]:
            continue
        if "amd_" in case["text"] or (getattr(layout, "version_major", 0) == 3 and cap[0] != 9):
            continue
        ll = to_linear(layout, case["shape"], case["bits"], semantics=semantics)
        if ll.size("register") > MAX_REGISTERS:
            continue
        shape, warps, lanes = case["shape"], case["warps"], case["lanes"]
        total = 1
        for s in shape:
            total *= s
        path = tmp_path / f"c{checked}.ttgir"
        path.write_text(probe_module(case["text"], shape, case["bits"], warps, lanes, release, target, store=True))
        try:
            kernel = triton.compile(str(path))
        except Exception:  # noqa: BLE001 - a layout this release does not parse or lower is no check
            refused += 1
            continue
        out = torch.full((total,), -1, dtype=torch.int32, device="cuda")
        kernel[(1, 1, 1)](out)
        torch.cuda.synchronize()
        writer = out.cpu().tolist()
        ours = _holders(ll, lanes, warps)
        # the asm probe's LLVM IR, evaluated per thread, for the same case
        asm = tmp_path / f"a{checked}.ttgir"
        asm.write_text(probe_module(case["text"], shape, case["bits"], warps, lanes, release, target))
        llir = triton.compile(str(asm)).asm["llir"]
        per_thread = asm_operands(llir, warps * lanes, lanes)
        if case["bits"] == 8:
            half = len(per_thread[0]) // 2
            per_thread = [[lo | hi << 8 for lo, hi in zip(r[:half], r[half:], strict=True)] for r in per_thread]
        evaluated_holders: dict[int, set[int]] = {}
        for t, elems in enumerate(per_thread):
            for e in elems:
                evaluated_holders.setdefault(e, set()).add(t)
        for e in range(total):
            if writer[e] not in ours.get(e, ()) or writer[e] not in evaluated_holders.get(e, ()):
                problems.append(f"{case['text']} {shape}: element {e} written by thread {writer[e]}, "
                                f"held by {sorted(ours.get(e, ()))[:4]} (tritonscope), "
                                f"{sorted(evaluated_holders.get(e, ()))[:4]} (evaluated LLVM IR)")
                break
        else:
            checked += 1
        evaluated += 1
    results = os.environ.get("TRITONSCOPE_GPU_RESULTS")
    if results:
        with open(results, "a") as f:
            f.write(json.dumps({"test": "layout_probe", "triton": triton.__version__, "target": target,
                                "cases": evaluated, "agree": checked, "not compiled": refused,
                                "problems": problems[:20]}) + "\n")
    assert evaluated >= 200 and not problems, "\n".join(problems[:10])


def test_holders_of_a_small_layout():
    """The helper itself: a 4x8 blocked tile of one warp, 1 register, no repeats."""
    text = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>"
    ll = to_linear(parse_layout(text), (4, 8), 16)
    assert ll.to_json()["lane"] == [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]
    held = _holders(ll, 32, 1)
    assert held[0] == {0} and held[1] == {1} and held[8] == {8} and len(held) == 32
