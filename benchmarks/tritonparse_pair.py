"""tritonscope vs tritonparse on the same compilations (issue 19): ratios measured back to back.

    python benchmarks/tritonparse_pair.py REC [--tritonparse-path DIR] [--repeat 5] [--json out.json]

REC is what benchmarks/record_tritonparse.py wrote on a GPU machine (REC/triton_cache, REC/trace).
tritonparse is imported from --tritonparse-path (a `pip install --target DIR tritonparse orjson zstandard`)
or the environment; it is not a dependency of tritonscope and CI never runs this.

Rows (each the median of per-pair ratios, baseline = tritonparse's `unified_parse` of the trace, in a
fresh process, as a user runs it):
- `map --stats --json`, every stage incl. SASS, disassembly cache cold (emptied before each run);
- the same, warm (the cache filled by the previous run: the second look at the same compilations);
- the same without SASS (`--stages source,ttir,ttgir,llir,ptx`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import cli_env, cpu_pressure, paired  # noqa: E402

UNIFIED_PARSE = """
import sys
from tritonparse.parse.utils import unified_parse
unified_parse(source=sys.argv[1], out=sys.argv[2], overwrite=True, skip_logger=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rec", type=Path)
    ap.add_argument("--tritonparse-path", default=None)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", dest="json_out", default=None)
    a = ap.parse_args()
    cache, trace = a.rec / "triton_cache", a.rec / "trace"
    work = Path(tempfile.mkdtemp(prefix="tp-pair-"))
    disasm = work / "disasm"
    tp_env = {**os.environ}
    if a.tritonparse_path:
        tp_env["PYTHONPATH"] = a.tritonparse_path + os.pathsep + tp_env.get("PYTHONPATH", "")

    def tritonparse() -> None:
        subprocess.run([sys.executable, "-c", UNIFIED_PARSE, str(trace), str(work / "tp_out")], check=True,
                       env=tp_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def scope(*extra: str, cold: bool = False):
        def run() -> None:
            if cold:
                shutil.rmtree(disasm, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "tritonscope", "map", "--stats", "--json", "--cache-dir",
                            str(cache), *extra], check=True, stdout=subprocess.DEVNULL,
                           env={**cli_env(), "TRITONSCOPE_DISASM_CACHE": str(disasm)})
        return run

    entries = json.loads(subprocess.run([sys.executable, "-m", "tritonscope", "ls", "--json", "--cache-dir",
                                         str(cache)], capture_output=True, text=True, env=cli_env(),
                                        check=True).stdout)["count"]
    rows = []
    for name, fn, goal in (("map --stats, all stages incl. SASS, cold", scope(cold=True), None),
                           ("map --stats, all stages incl. SASS, warm", scope(), 1.0),
                           ("map --stats, no SASS", scope("--stages", "source,ttir,ttgir,llir,ptx"), 0.5)):
        base, tool, ratio = paired(tritonparse, fn, a.repeat)
        rows.append({"bench": name, "entries": entries, "baseline": "tritonparse unified_parse",
                     "baseline_s": base, "tool_s": tool, "ratio": ratio, "goal": goal})
        print(f"{name:44} {entries:3} entries  tritonparse {base:6.2f} s  tritonscope {tool:6.2f} s  "
              f"ratio {ratio:5.2f}" + (f"  (goal <= {goal:g})" if goal else ""))
    print(cpu_pressure())
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(rows, indent=2) + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
