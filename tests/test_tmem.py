"""Blackwell tensor memory layouts (`#ttng.tensor_memory_encoding`, `#ttng.tensor_memory_scales_encoding`).

Their row/col bases are compared with each release's own `to_linear_layout` in tests/test_layout_releases.py
(163 recorded cases, 3.7 to 3.9). Here: what the records cannot show (the block bases, which Triton's Python
object drops; the `unpacked` spelling of releases without the binding), the facts `layout` derives from the
bases, and the command's answers and refusals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import run_cli

from tritonscope.cli import main
from tritonscope.errors import ParseError
from tritonscope.layouts.attrs import parse_layout
from tritonscope.layouts.tensor import to_linear
from tritonscope.layouts.views import describe_tmem, tmem_places

T = "#ttng.tensor_memory_encoding<"


def _bases(text: str, shape, bits: int = 32) -> dict:
    return to_linear(parse_layout(text), shape, bits).to_json()


def test_cga_bases_count_whole_cta_tiles():
    """3.8+: `tile * cgaLL`, so a CGA basis [1, 0] over 128-row CTAs is block basis [128, 0]."""
    b = _bases(f"{T}blockM = 128, blockN = 128, colStride = 1, CGALayout = [[1, 0]]>", (256, 128))
    assert b["block"] == [[128, 0]] and b["row"][-1] == [64, 0] and len(b["col"]) == 7
    b = _bases(f"{T}blockM = 128, blockN = 64, colStride = 1, CGALayout = [[0, 1], [1, 0]]>", (256, 256))
    assert b["block"] == [[0, 128], [128, 0]] and b["col"][-1] == [0, 64]
    # 3.7's spelling of the same split has no block in-dim: the split is one more column basis
    b = _bases(f"{T}blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2>", (256, 128))
    assert b["block"] == [] and b["col"][-1] == [128, 0]


def test_unpacked_spelling_is_colstride_of_the_width():
    """Up to 3.5 `unpacked = true`; 3.6 renamed it colStride = 32 / bitwidth (its Gluon docstring)."""
    old = parse_layout(f"{T}blockM = 128, blockN = 64, unpacked = true>")
    new = parse_layout(f"{T}blockM = 128, blockN = 64, colStride = 2>")
    assert to_linear(old, (128, 64), 16).bases == to_linear(new, (128, 64), 16).bases
    assert to_linear(parse_layout(f"{T}blockM = 128, blockN = 64, unpacked = false>"), (128, 64), 16).bases["col"][0] \
        == [0, 1]
    assert old.to_text() == f"{T}blockM = 128, blockN = 64, unpacked = true>"


@pytest.mark.parametrize("text", [
    f"{T}blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, CTASplitN = 1, twoCTAs = true>",
    f"{T}blockM = 64, blockN = 128, colStride = 2, CGALayout = [[1, 0]], twoCTAs = true, fp4Padded = true>",
    "#ttng.tensor_memory_scales_encoding<CGALayout = [[0, 1]], blockRepOrder = kThenMn>",
    "#ttng.tensor_memory_scales_encoding<>",
])
def test_text_round_trips(text):
    assert parse_layout(text).to_text() == text


@pytest.mark.parametrize("text,says", [
    (f"{T}blockM = 96, blockN = 128, colStride = 1>", "blockM: expected 64 or 128"),
    (f"{T}blockM = 128, blockN = 96, colStride = 1>", "blockN: expected powers of two"),
    (f"{T}blockM = 128, blockN = 128, colStride = 3>", "colStride: expected powers of two"),
    (f"{T}blockM = 128, blockN = 128, colStride = 0>", "colStride: expected powers of two"),
    (f"{T}blockM = 128, blockN = 128, colStride = 64>", "colStride: expected at most 32"),
    (f"{T}blockM = 128, blockN = 128>", "missing field colStride"),
    (f"{T}blockM = 128, blockN = 128, colStride = 1, unpacked = true>", "two releases' spellings"),
    (f"{T}blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, CGALayout = [[1, 0]]>",
     "two releases' spellings"),
    (f"{T}blockM = 128, blockN = 128, colStride = 1, CGALayout = [[1, 0, 0]]>", "bases of 2 coordinates"),
    (f"{T}blockM = 128, blockN = 128, colStride = 1, CTASplitN = 3>", "expected powers of two"),
    (f"{T}blockM = 128, blockN = 128, colStride = 1, swizzle = 2>", "unknown field swizzle"),
    ("#ttng.tensor_memory_scales_encoding<blockRepOrder = sideways>", "expected mnThenK or kThenMn"),
])
def test_bad_fields_are_named(text, says):
    with pytest.raises(ParseError) as info:
        parse_layout(text)
    assert says in str(info.value) and "\n" not in str(info.value)


def test_facts_of_packed_unpacked_and_half_blocks():
    f = describe_tmem(parse_layout(f"{T}blockM = 128, blockN = 128, colStride = 1>"), (128, 256), 16)
    assert (f.elements_per_column, f.columns_per_buffer, f.lanes_holding) == (2, 128, 128)
    f = describe_tmem(parse_layout(f"{T}blockM = 128, blockN = 128, colStride = 2>"), (128, 256), 16)
    assert (f.elements_per_column, f.element_units, f.columns_per_buffer) == (1, 2, 256)
    # a 64-row block that fits: lanes 16-31 of each warp's quarter hold nothing
    f = describe_tmem(parse_layout(f"{T}blockM = 64, blockN = 64, colStride = 1>"), (64, 64), 32)
    assert (f.lanes, f.lanes_holding, f.columns) == (128, 64, 64)
    # scales: lanes 0-31 repeated in every warp's quarter, four 8-bit scales to a column
    f = describe_tmem(parse_layout("#ttng.tensor_memory_scales_encoding<>"), (128, 4), 8)
    assert (f.repeated_lanes, f.elements_per_column, f.columns) == ([32, 64], 4, 4)
    # buffers sit side by side along the columns
    f = describe_tmem(parse_layout(f"{T}blockM = 128, blockN = 64, colStride = 1>"), (3, 128, 64), 32)
    assert (f.buffers, f.columns_per_buffer, f.columns) == (3, 64, 192)


def test_element_places():
    layout = parse_layout(f"{T}blockM = 128, blockN = 128, colStride = 1>")
    ll = to_linear(layout, (128, 128), 16)
    facts = describe_tmem(layout, (128, 128), 16, ll=ll)
    assert tmem_places(ll.owner((5, 7)), facts) == [{"block": 0, "lane": 5, "column": 3, "bit": 16}]
    ll = to_linear(layout, (2, 128, 128), 32)
    facts = describe_tmem(layout, (2, 128, 128), 32, ll=ll)
    assert tmem_places(ll.owner((1, 0, 0)), facts) == [{"block": 0, "lane": 0, "column": 128, "bit": 0}]


def _cli(*args: str):
    return CliRunner().invoke(main, ["layout", *args])


def test_command_answers_and_refuses():
    text = f"{T}blockM = 128, blockN = 128, colStride = 1>"
    r = _cli(text)
    assert r.exit_code == 0, r.output
    assert "128 columns, one element per 32-bit column" in r.output and "--shape not given" in r.output
    assert "f32 assumed" in r.output
    r = _cli(text, "--shape", "128x128", "--dtype", "bf16", "--element", "3,9", "--json")
    doc = json.loads(r.output)
    assert doc["places"] == [{"block": 0, "lane": 3, "column": 4, "bit": 16}] and doc["columns"] == 64
    r = _cli(text, "--thread", "3")
    assert r.exit_code == 2 and "--element I,J says where an element sits" in r.output
    r = _cli(text, "--shape", "64x128")
    assert r.exit_code == 1 and "smaller than the 128x128 block" in r.output
    # more columns than an SM has: decoded, and said to be no allocation a kernel can make (helper 110)
    r = _cli(text, "--shape", "128x1024", "--dtype", "f32")
    assert r.exit_code == 0 and "1024 of the SM's 512 columns: more than the SM has, so no kernel can allocate it" \
        in r.output


def test_picture_shows_each_elements_lane_and_column(tmp_path):
    """The text picture: every cell is the element's first place (`tmem_places`); a 64-row block puts rows
    16-31 in lanes 32-47 (the second warp's quarter) and packs two f16 in a column."""
    from tritonscope.layouts.views import tmem_grid

    text = f"{T}blockM = 64, blockN = 64, colStride = 1>"
    layout = parse_layout(text)
    ll = to_linear(layout, (64, 128), 16)
    facts = describe_tmem(layout, (64, 128), 16, ll=ll)
    grid = tmem_grid(ll, facts, 40, 6)
    assert (len(grid.rows), len(grid.cols), grid.note) == (40, 6, "cut to the first 40x6 of 64x128")
    for r in grid.rows:
        for c in grid.cols:
            first = tmem_places(ll.owner((r, c)), facts)[0]
            assert grid.cells[r][c].owners[0] == (first["block"], first["lane"], first["column"], first["bit"])
    r = _cli(text, "--shape", "64x128", "--dtype", "f16", "--max-rows", "40", "--max-cols", "6")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "cells: L<lane>:<column>, the tensor memory lane and 32-bit column holding the element; packed " \
        "elements share a column; +n: n more places" in lines
    assert lines[lines.index("dim0     0     1     2     3     4     5  <- dim1") + 17].split() == [
        "16", "L32:0", "L32:0", "L32:1", "L32:1", "L32:2", "L32:2"]
    assert "L" not in _cli(text, "--shape", "64x128", "--no-picture").output.split("block    = []")[1]
    svg, png = tmp_path / "t.svg", tmp_path / "t.png"  # the same cells, as SVG (title: lane, column) and PNG
    r = _cli(text, "--shape", "64x128", "--dtype", "f16", "--svg", str(svg), "--png", str(png), "--no-picture")
    assert r.exit_code == 0, r.output
    assert "<title>(16, 2): lane 32 column 1</title>" in svg.read_text()
    assert "<title>(16, 3): lane 32 column 1 from bit 16</title>" in svg.read_text()
    assert png.read_bytes().startswith(b"\x89PNG")


TMEM_KERNEL = Path(__file__).parent / "data" / "kernels" / "tmem_alloc.py"


@pytest.mark.parametrize("m,n,block_m,stride,bufs,dtype", [
    (64, 64, 64, 1, 1, "float16"),  # packed halves, a 64-row block: 32 columns
    (128, 256, 128, 1, 1, "float32"),
    (64, 128, 64, 1, 2, "float32"),  # two buffers side by side
    (128, 64, 128, 2, 1, "bfloat16"),  # unpacked: one bf16 per column
    (128, 32, 128, 4, 1, "int8"),
    (256, 64, 128, 1, 1, "float32"),  # two 128-row blocks: their repetition goes to the columns
    (128, 128, 128, 2, 3, "float16"),  # 384 columns, allocated as 512
])
def test_columns_are_what_triton_allocated(tmp_path, m, n, block_m, stride, bufs, dtype):
    """Triton's TMEM allocation pass (cross-compiled for cuda:100) records the columns it took in the
    metadata, rounded up to a power of two of at least 32: the oracle for the columns derived here."""
    import triton

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 9):
        pytest.skip("the kernel is written for Triton 3.9's Gluon (tensor memory load without a layout)")
    cache = tmp_path / "cache"
    r = run_cli("compile", f"{TMEM_KERNEL}::tmem_kernel", "--signature", "out_ptr=*fp32", "--constexpr", f"M={m}",
                "--constexpr", f"N={n}", "--constexpr", f"BLOCK_M={block_m}", "--constexpr", f"STRIDE={stride}",
                "--constexpr", f"BUFS={bufs}", "--constexpr", f"DTYPE=tl.{dtype}", "--target", "cuda:100",
                "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    r = run_cli("layout", "tmem_kernel", "--cache-dir", str(cache), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    # the Gluon source's TensorMemoryLayout, beside the encoding it became
    (written,) = [w for w in doc["written"]["layouts"] if w["written"]["class"] == "TensorMemoryLayout"]
    assert written["status"] == "filled in" and written["filled"] == {"block": f"[{block_m}, {n}]",
                                                                     "col_stride": str(stride)}
    assert written["resolved"][0]["facts"]["buffers"] == bufs
    (alloc,) = [u["facts"] for a in doc["layouts"] for u in a["uses"] if "ttng.tmem_alloc" in u["ops"]]
    columns = alloc["columns"]
    assert doc["tmem_columns"] == max(32, 1 << (columns - 1).bit_length())
    assert doc["tmem_allocations"] == {"count": 1, "columns": columns}
    assert alloc["buffers"] == bufs and alloc["lanes_holding"] == min(m, 128)


def _compile_tmem(cache: Path, bufs: int) -> None:
    r = run_cli("compile", f"{TMEM_KERNEL}::tmem_kernel", "--signature", "out_ptr=*fp32", "--constexpr", "M=128",
                "--constexpr", "N=64", "--constexpr", "BLOCK_M=128", "--constexpr", "STRIDE=1", "--constexpr",
                f"BUFS={bufs}", "--constexpr", "DTYPE=tl.float32", "--target", "cuda:100", "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr


def test_ls_and_diff_show_the_tensor_memory_columns(tmp_path):
    """`ls` grows a tmem column where an entry has tensor memory, `diff` a `tmem` metric a rule can gate on."""
    import triton

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 9):
        pytest.skip("the kernel is written for Triton 3.9's Gluon")
    one, two = tmp_path / "one", tmp_path / "two"
    _compile_tmem(one, 1)
    _compile_tmem(two, 2)
    r = run_cli("ls", "--cache-dir", str(two))
    header, row = r.stdout.splitlines()[1:3]
    assert header.split()[4:6] == ["smem", "tmem"] and "128 col" in row
    r = run_cli("ls", "--cache-dir", str(one), "--json")
    assert json.loads(r.stdout)["entries"][0]["tmem_columns"] == 64
    r = run_cli("diff", str(one), str(two), "--format", "json", "--fail-on", "tmem>+0")
    doc = json.loads(r.stdout)
    assert r.returncode == 1 and [(f["rule"], f["detail"]) for f in doc["failed_rules"]] == [("tmem>+0", "64 -> 128")]
    r = run_cli("diff", str(two), str(one), "--format", "json", "--fail-on", "tmem>+0")
    assert r.returncode == 0, r.stdout[-2000:]


@pytest.mark.parametrize("stage,text,kind,width", [
    ("ptx", "tcgen05.ld.sync.aligned.32x32b.x128.b32 {%r1, %r2}, [%r3 + 0];", "tmem_load", 512),
    ("ptx", "@%p1 tcgen05.st.sync.aligned.16x256b.x2.b32 [%r1 + 0], {%r2};", "tmem_store", 32),
    ("ptx", "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd2, %rd3, %r4, %p5;", None, None),
    ("ptx", "tcgen05.wait::ld.sync.aligned;", None, None),
    ("llir", '%5 = tail call { i32, i32 } asm sideeffect "tcgen05.ld.sync.aligned.32x32b.x2.b32 {$0, $1}, '
             '[$2 + 0];", "=r,=r,r"(i32 %4)', "tmem_load", 8),
    ("llir", "%5 = call { i32 } @llvm.nvvm.tcgen05.ld.16x64b.x1(ptr addrspace(6) %4, i1 false)", "tmem_load", 4),
    ("sass", "LDTM.x64 R4, tmem[UR4] ;", "tmem_load", 256),
    ("sass", "STTM.16dp256bit.x4 tmem[UR4], R4 ;", "tmem_store", None),  # another shape: width not stated
    ("ttgir", "%3 = ttng.tmem_load %2 : !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable> -> "
              "tensor<128x64xf32, #linear>", "tmem_load", None),
    ("ttgir", "%3 = ttng.tmem_alloc %2 : (tensor<128x4xi8, #linear1>) -> !ttg.memdesc<128x4xi8, #tmem_scales, "
              "#ttng.tensor_memory>", "tmem_store", None),  # an allocation given its value writes it
    ("ttgir", "%3 = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #tmem_scales, #ttng.tensor_memory, mutable>",
     None, None),
    ("ptx", "tcgen05.cp.cta_group::1.warpx4.32x128b [%r1], %rd2;", "tmem_copy", None),
    ("ptx", "tcgen05.ld.sync.aligned.16x32bx2.x32.b32 {%r1}, [%r2 + 0], 16;", "tmem_load", 128),
    ("sass", "LDTM.16dp32bit_t0_t15.x32 R4, tmem[UR4] ;", "tmem_load", None),  # a half: width not stated
    ("sass", "UTCCP.T.S.4x32dp128bit tmem[UR4], gdesc[UR6] ;", "tmem_copy", None),
])
def test_tensor_memory_instructions_are_classified(stage, text, kind, width):
    from tritonscope.stages import memops
    from tritonscope.stages.common import Op

    # the op name as each stage's parser gives it (tests/test_memops.py does the same)
    name = {"llir": "call"}.get(stage) or (text.split(" = ", 1)[-1].split(" ", 1)[0] if stage == "ttgir"
                                            else text.split(" ", 1)[int(text[0] == "@")])
    op = Op(1, name, text)
    acc = memops.classify(stage, op)
    assert (acc.kind, acc.width_bytes, acc.space) == (kind, width, "tensor_memory") if kind else acc is None
    assert memops.classify_uncached(stage, op) == acc


def test_loads_rows_of_tensor_memory(compile_kernel):
    """The sample flash attention on cuda:100: S and O accumulate in TMEM (f32), P goes back as f16. Two
    stores on one line tell apart by the bytes a thread moves (64 f32: one x64; 64 f16 packed: one x32)."""
    import triton

    from tritonscope.artifacts.cache import Cache
    from tritonscope.loads.analyze import analyze_entry

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 9):
        pytest.skip("the counts below are Triton 3.9's lowering")
    result = compile_kernel("flash_attention", "cuda:100")
    assert result.ok, result.error
    (entry,) = [e for e in Cache(Path(result.entry).parent).kernels()]
    report = analyze_entry(entry, sass=False)
    tmem = [r for r in report.rows if r.kind.startswith("tmem")]
    assert {(r.kind, r.dtype) for r in tmem} >= {("tmem_load", "f32"), ("tmem_store", "f32"), ("tmem_store", "f16")}
    for r in tmem:
        assert r.verdict == "as-predicted" and not r.ambiguous, (r.kind, r.dtype, r.ambiguous)
        forms = r.stages["ptx"]
        expected = f"tcgen05.{'ld' if r.kind == 'tmem_load' else 'st'}.sync.aligned.32x32b.x" \
                   f"{r.elements_per_thread * r.element_bits // 32}.b32"
        assert set(forms) == {expected} and sum(forms.values()) == r.instances, (r.kind, forms)


SCALED = Path(__file__).parent / "data" / "kernels" / "scaled_dot.py"


def test_block_scaled_dot_keeps_its_scales_in_tensor_memory(tmp_path):
    """tl.dot_scaled (mxfp8) on cuda:100: the scales' TMEM layout decodes, their initialized allocations
    are stores joined to tcgen05.st, and the accumulator's load and store to tcgen05.ld/st of one tile."""
    import triton

    if tuple(int(x) for x in triton.__version__.split(".")[:2]) < (3, 9):
        pytest.skip("the counts below are Triton 3.9's lowering")
    cache = tmp_path / "cache"
    r = run_cli("compile", f"{SCALED}::scaled_dot_kernel", "--signature",
                "a_ptr=*fp8e4nv,b_ptr=*fp8e4nv,a_scale_ptr=*u8,b_scale_ptr=*u8,c_ptr=*fp32,K=i32", "--constexpr",
                "BLOCK_M=128", "--constexpr", "BLOCK_N=128", "--constexpr", "BLOCK_K=128", "--target", "cuda:100",
                "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    doc = json.loads(run_cli("layout", "scaled_dot_kernel", "--cache-dir", str(cache), "--json").stdout)
    (scales,) = [a for a in doc["layouts"] if a["kind"] == "tensor_memory_scales_encoding"]
    (use,) = scales["uses"]
    assert use["shape"] == [128, 4] and use["facts"]["columns"] == 4 and use["facts"]["repeated_lanes"] == [32, 64]
    rows = json.loads(run_cli("loads", "scaled_dot_kernel", "--cache-dir", str(cache), "--json").stdout)["rows"]
    tmem = {r["op"]: r for r in rows if r["kind"].startswith("tmem")}
    assert set(tmem) == {"ttng.tmem_alloc", "ttng.tmem_load", "ttng.tmem_store"}
    assert tmem["ttng.tmem_alloc"]["kind"] == "tmem_store" and tmem["ttng.tmem_alloc"]["instances"] == 2
    assert tmem["ttng.tmem_alloc"]["stages"]["ptx"] == {"tcgen05.st.sync.aligned.32x32b.x4.b32": 2}
    assert tmem["ttng.tmem_load"]["stages"]["ptx"] == {"tcgen05.ld.sync.aligned.32x32b.x128.b32": 1}
    assert all(not r["ambiguous"] and r["verdict"] == "as-predicted" for r in tmem.values())
    line = str(tmem["ttng.tmem_load"]["line"])
    r = run_cli("loads", "scaled_dot_kernel", "--cache-dir", str(cache), "--explain", line)
    assert r.returncode == 0 and "tensor memory to registers: 128 elements per thread" in r.stdout
    assert "None" not in r.stdout  # no vector width is claimed for a TMEM move


def test_a_sass_form_without_width_takes_the_ptx_width():
    """Triton 3.6's 64-row TMEM accesses: one PTX `tcgen05.ld.16x32bx2.x32` (32 registers) is two SASS
    LDTM halves whose spelling states no width; the row's bytes come from the PTX form."""
    from tritonscope.loads.model import AccessRow
    from tritonscope.loads.verdict import decide

    row = AccessRow("k.py", 117, 39, "k.py:117:39", "ttng.tmem_load", "tmem_load", 1, (64, 128), "f32", 32,
                    "linear", None, False, False, None, None, elements_per_thread=32)
    ptx, sass = "tcgen05.ld.sync.aligned.16x32bx2.x32.b32", ("LDTM.16dp32bit_t0_t15.x32", "LDTM.16dp32bit_t16_t31.x32")
    row.stages = {"ptx": {ptx: 1}, "sass": dict.fromkeys(sass, 1)}
    row.widths = {"ptx": {ptx: 128}, "sass": dict.fromkeys(sass)}
    decide(row, "sass", None)
    assert (row.verdict, row.vector_bytes, row.vector_stage) == ("as-predicted", 128, "ptx")
