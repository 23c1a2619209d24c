"""`loads` on IR without source lines: Triton 3.x under TRITON_DISABLE_LINE_INFO=1 writes `loc(unknown)` for
every op of every stage (TTIR and TTGIR included); each access stays its own row, labelled with its TTGIR
line, and shares the kernel's instructions of its kind with the other rows of that kind. (Triton 2.0-2.2,
whose TTGIR has no locations at all, are covered by tests/test_release_caches.py.)"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tritonscope.cli import main


def test_every_access_stays_its_own_row_without_source_lines(tmp_path):
    r = CliRunner().invoke(main, ["compile", "layer_norm", "--target", "cuda:90", "--cache-dir", str(tmp_path)],
                           env={"TRITON_DISABLE_LINE_INFO": "1"})
    assert r.exit_code == 0, r.output
    (entry,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    ttgir = next(entry.glob("*.ttgir")).read_text()
    assert "#loc = loc(unknown)" in ttgir and 'loc("/' not in ttgir  # no op names a file: nothing to join by
    r = CliRunner().invoke(main, ["loads", str(entry), "--json", "--no-sass"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    rows = doc["rows"]
    # the five loads and three stores of layer_norm, not one row of 5 "instances" and one of 3
    assert [(row["op"], row["instances"]) for row in rows].count(("tt.load", 1)) == 5
    assert len(rows) == 8 and len({row["where"] for row in rows}) == 8
    lines = ttgir.splitlines()
    for row in rows:
        n = int(row["where"].removeprefix("ttgir:").removesuffix(" (no loc)"))
        assert row["op"] in lines[n - 1] and row["line"] == 0
    loads = [row for row in rows if row["op"] == "tt.load"]
    assert {row["attribution"] for row in loads} == {"ambiguous"}
    assert all(row["verdict"] == "as-predicted" and row["vector_bytes"] == 8 for row in loads)
    assert any(n.startswith("no access and no instruction carries a source location") for n in doc["notes"])


def test_instructions_of_a_rows_line_with_no_column_count_with_those_of_no_line(cli):
    """fla's parallel attention on gfx950: 96 `ds_read_b64_tr_b16` for LLIR's 32 + 32 + 16 + 16, of which 40 on
    no line and 8 at 167:0 (one line, its columns merged) beside the row at 167:43. The four rows were
    `merged` (the compiler combined or removed some), their counts short by half (helper 112)."""
    cache = Path(__file__).parent / "data" / "thirdparty-gfx950-triton3.9" / "fla"
    r = cli("loads", "TCWFTMH2", "--cache-dir", str(cache), "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    rows = {row["where"]: row for row in report["rows"] if row["op"] == "ttg.local_load"}
    got = {w: row["stages"]["amdgcn"]["ds_read_b64_tr_b16"] for w, row in rows.items()
           if "ds_read_b64_tr_b16" in row["stages"].get("amdgcn", {})}
    assert got == {"111:15": 32, "132:43": 16, "146:15": 32, "167:43": 16}
    assert all(any(c["code"] == "unlocated" for c in rows[w]["count_changes"]) for w in got)
    assert not any(u["form"] == "ds_read_b64_tr_b16" for u in report["unattributed"])


def test_a_load_combined_by_address_beside_another_access_that_gained_bytes(cli):
    """fla's attention on gfx1201: `chunk_indices + i_t * 2` and `+ 1` in one `s_load_b64` on the first's line,
    while another load (90:16) gained bytes from LLVM's locations: the second was `unknown`, no-isa-match,
    as the bytes-only rule found the gains and the missing bytes unequal (helper 112)."""
    cache = Path(__file__).parent / "data" / "thirdparty-rdna-triton3.9" / "fla"
    r = cli("loads", "FSJPD2", "--cache-dir", str(cache), "--json", "--line", "62")
    assert r.returncode == 0, r.stderr
    rows = {row["where"]: row for row in json.loads(r.stdout)["rows"]}
    second = rows["62:67"]
    assert second["verdict"] == "scalar" and [c["code"] for c in second["count_changes"]] == ["combined"]
    assert "62:20 tt.load moves 4 more bytes per thread than in llir (1x s_load_b64)" in \
        second["count_changes"][0]["evidence"]
