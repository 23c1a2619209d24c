"""Gluon kernels written for AMD GPUs (tests/data/gluon-amd-triton3.9, see its README): gfx1250's tensor data
mover, padded shared layouts, async copies to LDS with and without a mask (helper 102)."""

from __future__ import annotations

import json
from pathlib import Path

CACHE = Path(__file__).parent / "data" / "gluon-amd-triton3.9" / "gluon"


def _entry(prefix: str) -> Path:
    return next(CACHE.glob(f"{prefix}*"))


def test_tensor_data_mover_copies_are_accesses(cli):
    """`amdg.async_tdm_copy_global_to_local` (LLIR `llvm.amdgcn.tensor.load.to.lds`, AMDGCN `tensor_load_to_lds`)
    was in no row and in no list of instructions of no access: the gfx1250 GEMM's four tile copies were dropped,
    `--explain 172` said "no memory access"."""
    entry = _entry("BB3N4E6G")
    doc = json.loads(cli("loads", str(entry), "--json").stdout)
    tdm = [r for r in doc["rows"] if r["op"] == "amdg.async_tdm_copy_global_to_local"]
    assert len(tdm) == 4 and {r["kind"] for r in tdm} == {"tma_load"}, tdm
    assert all(r["llir"] == {"tensor.load.to.lds": 1} and r["isa"] == {"tensor_load_to_lds": 1} for r in tdm), tdm
    assert "tensor data mover" in tdm[0]["prediction_note"]
    assert not [u for u in doc["unattributed"] if "tensor" in u["form"]]
    out = cli("loads", str(entry), "--explain", "172", "--file", "f16_gemm_common_gfx1250.py").stdout
    assert "amdg.async_tdm_copy_global_to_local of a 128x64 f16 tile; 1 tensor_load_to_lds per thread" in out, out


def test_a_padded_shared_layouts_offsets_hold_its_padding(cli):
    """`#ttg.padded_shared<[32:+8] ...>` puts 8 elements of padding after every 32: element (32, 0) of the 64x32
    tile is at 1280, where the kernel's LLIR writes its second half (`getelementptr ... i32 2560` bytes of f16);
    the tool said 1024, the padding left out, and (3, 5) at 101 for 125."""
    entry = _entry("ADWBRRX6")
    assert "getelementptr inbounds nuw i8, ptr addrspace(3) %25, i32 2560" in next(entry.glob("*.llir")).read_text()
    common = ("layout", str(entry), "--alias", "shared", "--shape", "64x32", "--no-picture")
    assert cli(*common, "--element", "32,0").stdout == "element (32, 0) is at offset 1280 (block 0)\n"
    assert cli(*common, "--element", "3,5").stdout == "element (3, 5) is at offset 125 (block 0)\n"
    doc = json.loads(cli(*common, "--json").stdout)
    assert doc["padding"] == [[32, 8]]
    assert "padding: 8 elements after every 32 (the offsets shown include it)" in cli(*common).stdout


def test_an_unmasked_async_copy_to_lds_has_no_mask(cli):
    """`amdg.buffer_load_to_local %p[%off] into %smem` read its destination as a positional mask (`mask: yes`);
    a masked one (`mask = %m other = %o into %smem`) has both."""
    rows = json.loads(cli("loads", str(_entry("FBYLFTYD")), "--json").stdout)["rows"]
    (copy,) = [r for r in rows if r["op"] == "amdg.buffer_load_to_local"]
    assert (copy["mask"], copy["other"]) == (False, False), copy
    rows = json.loads(cli("loads", str(_entry("ULUDN656")), "--json").stdout)["rows"]
    (copy,) = [r for r in rows if r["op"] == "amdg.buffer_load_to_local"]
    assert (copy["mask"], copy["other"]) == (True, True), copy


def test_a_transposing_read_of_a_padded_tile_is_as_predicted(cli):
    """MFMA's B operand read from `#ttg.padded_shared<[64:+16] {order = [1, 0], ...}>` (contiguous along N) with
    its K run in registers: a plain LDS read could take one element, `ds_read_b64_tr_b16` takes 8 bytes. The
    padded layout written by its order set no limit, so the row was `narrower` than a 16-byte read that cannot
    be; it is as predicted, the transposing read said."""
    rows = json.loads(cli("loads", str(_entry("K7TOLIEP")), "--json").stdout)["rows"]
    (b,) = [r for r in rows if r["line"] == 89]
    assert (b["verdict"], b["predicted_vector_bytes"], b["vector_bytes"]) == ("as-predicted", 2, 8), b
    assert b["reasons"] == ["transposed-read"], b["reasons"]


def test_an_amd_atomic_is_predicted_one_element_wide(cli):
    """An f32 `buffer_atomic_rmw fadd` of 8 contiguous elements a thread was predicted as two 16-byte vectors
    and judged `scalar ... unexplained`: CDNA has no vector atomic, 8 `buffer_atomic_add_f32` are the best."""
    rows = json.loads(cli("loads", str(_entry("ULUDN656")), "--json").stdout)["rows"]
    (a,) = [r for r in rows if r["op"] == "amdg.buffer_atomic_rmw"]
    assert (a["predicted_vector_bytes"], a["predicted_vectors_per_thread"], a["vector_bytes"]) == (4, 8, 4), a
    assert a["reasons"] == ["atomic-width"] and a["isa"] == {"buffer_atomic_add_f32": 8}, a


def test_an_async_buffer_copys_llir_form_is_its_intrinsics_name(cli):
    """gfx950's `llvm.amdgcn.raw.ptr.buffer.load.async.lds` showed as `raw.ptr.buffer.load.lds`, a name no call
    of the LLIR has."""
    entry = _entry("FBYLFTYD")
    assert "@llvm.amdgcn.raw.ptr.buffer.load.async.lds(" in next(entry.glob("*.llir")).read_text()
    rows = json.loads(cli("loads", str(entry), "--json").stdout)["rows"]
    (copy,) = [r for r in rows if r["op"] == "amdg.buffer_load_to_local"]
    assert copy["llir"] == {"raw.ptr.buffer.load.async.lds": 1}, copy["llir"]


def test_the_report_header_shows_an_mfma_kernels_agprs():
    """The header's chips showed VGPRs 256 for a gfx942 MFMA kernel whose 160 AGPRs (TotalNumVgprs 416) set its
    occupancy; the metadata table had both."""
    from tritonscope.render.html import header

    kernel = {"name": "big_mfma", "entry": "/c/X", "hash": "X" * 52, "triton": "3.9.0"}
    html = header(kernel, [("VGPRs", "256"), ("AGPRs", "160")])
    assert "<b>VGPRs</b> 256</span>" in html and "<b>AGPRs</b> 160</span>" in html, html
