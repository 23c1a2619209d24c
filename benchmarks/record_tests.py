"""Record, without a GPU, the kernels that a file of pytest tests compiles, for an AMD or NVIDIA target: the
file is imported under `record_cross.py`'s stand-in driver (the target answers, nothing launches, `device=
"cuda"` allocations are CPU tensors), and each `test_*` function runs with up to N of its parametrized cases
(shuffled with a fixed seed). A test's comparison of results fails after its kernels compiled (nothing ran):
counted, not fatal. Upstream Triton's Gluon examples (`python/examples/gluon/*.py`) were recorded so.

    TRITON_CACHE_DIR=OUT python benchmarks/record_tests.py --target cuda:100 FILE.py [FILE.py ...]
        [--limit 6] [--path DIR ...]   # DIR: added to sys.path (the files' own imports)

A recording aid for test data and sweeps, not part of the tool.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import inspect
import itertools
import os
import random
import sys


def _cases(fn) -> list[dict]:
    """Every combination of a test's `pytest.mark.parametrize` marks, as keyword dicts."""
    axes = []
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names = [a.strip() for a in (mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0])]
        values = [v if len(names) > 1 else (v,) for v in mark.args[1]]
        axes.append([dict(zip(names, v, strict=True)) for v in values])
    return [{k: v for d in combo for k, v in d.items()} for combo in itertools.product(*axes)]


def record(path: str, limit: int) -> dict:
    import pytest

    name = os.path.basename(path)[:-3].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    outcomes: collections.Counter = collections.Counter()
    for test in [n for n in dir(module) if n.startswith("test_")]:
        fn = getattr(module, test)
        params = inspect.signature(fn).parameters
        cases = _cases(fn)
        random.Random(0).shuffle(cases)
        for case in cases[:limit]:
            if "device" in params:
                case.setdefault("device", "cuda")
            try:
                fn(**{k: v for k, v in case.items() if k in params})
                outcomes[(test, "passed")] += 1
            except pytest.skip.Exception:
                outcomes[(test, "skipped")] += 1
            except AssertionError:  # (its comparison of results no kernel computed)
                outcomes[(test, "compiled")] += 1
            except Exception as e:  # noqa: BLE001 - listed, the recording goes on
                outcomes[(test, f"{type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''}")] += 1
    return {f"{t}: {what}": n for (t, what), n in outcomes.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--target", required=True, help="cuda:100, hip:gfx950, ...")
    ap.add_argument("--limit", type=int, default=6, help="parametrized cases per test (default 6)")
    ap.add_argument("--path", action="append", default=[], help="a folder added to sys.path (repeatable)")
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import record_cross

    backend, arch = args.target.split(":")
    record_cross._install_driver(backend, arch)
    for p in [*args.path, *{os.path.dirname(os.path.abspath(f)) for f in args.files}]:
        sys.path.insert(0, os.path.abspath(p))
    for f in args.files:
        try:
            print(f, record(f, args.limit))
        except Exception as e:  # noqa: BLE001 - an import that fails here is listed
            print(f, f"not imported: {type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}")


if __name__ == "__main__":
    main()
