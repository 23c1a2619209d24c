"""`tritonscope layout`: the worked example, ownership queries, pictures, KERNEL mode on the corpus, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

WORKED = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0, 1]}>"


def test_worked_example_in_words(cli):
    r = cli("layout", WORKED, "--shape", "64x256", "--dtype", "f16", "--warp-size", "64", "--max-rows", "8")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == WORKED
    assert lines[1] == "  a 64x256 f16 tensor (16-bit elements) over 2 warp(s) of 64 lanes"
    assert lines[2] == ("  a CTA covers 64x16 per round; each thread holds 8 contiguous elements along dim 0 per round "
                        "and 16 rounds (1 x 16 per dim): 128 elements, 16 vectors of 16 bytes")
    assert lines[3] == "  no replication: every element is held by exactly one thread"
    assert "  register = [[1, 0], [2, 0], [4, 0], [0, 16], [0, 32], [0, 64], [0, 128]]" in lines
    assert "  lane     = [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2], [0, 4]]" in lines
    assert ("folded: one CTA tile shown (64x16 of 64x256); the other 15 rounds repeat it in later registers; "
            "cut to the first 8x16") in lines
    grid = lines[lines.index("dim0      0      1      2      3      4      5      6      7      8      9     10     "
                             "11     12     13     14     15  <- dim1"):]
    assert grid[1].split() == ["0"] + [f"T{8 * i}:0" for i in range(16)]
    assert grid[2].split()[1:3] == ["T0:1", "T8:1"]
    assert len(grid) == 9


def test_element_and_thread(cli):
    r = cli("layout", WORKED, "--shape", "64x256", "--element", "3,17")
    assert r.stdout.splitlines() == ["element (3, 17) is held by 1 thread slot:",
                                     "  block 0 warp 0 lane 8 (thread 8) register 11"]
    r = cli("layout", WORKED, "--shape", "64x256", "--thread", "5", "--warp", "1")
    lines = r.stdout.splitlines()
    assert lines[0] == "thread 69 (warp 1, lane 5) holds 128 elements:"
    assert lines[1] == "  r0-r7      (40, 8) .. (47, 8)"
    assert lines[16] == "  r120-r127  (40, 248) .. (47, 248)"
    same = cli("layout", WORKED, "--shape", "64x256", "--thread", "69")
    assert same.stdout == r.stdout
    doc = json.loads(cli("layout", WORKED, "--shape", "64x256", "--element", "3,17", "--json").stdout)
    assert doc["kind"] == "layout" and doc["layout_kind"] == "blocked"
    assert doc["owners"] == [{"block": 0, "warp": 0, "lane": 8, "thread": 8, "register": 11}]
    assert doc["bases"]["warp"] == [[0, 8]] and doc["elements_per_thread"] == 128
    # too few or many coordinates is not "outside the tensor" (helper 110)
    r = cli("layout", WORKED, "--shape", "64x256", "--element", "3")
    assert r.returncode == 1 and "element [3] has 1 coordinate(s), the tensor 2 dims (shape [64, 256])" in r.stderr
    r = cli("layout", WORKED, "--shape", "64x256", "--element", "64,0")
    assert r.returncode == 1 and "element [64, 0] is outside the tensor shape [64, 256]" in r.stderr


def test_broadcast_owner_lists_every_copy(cli):
    r = cli("layout", WORKED, "--shape", "16x4", "--element", "9,3")
    lines = r.stdout.splitlines()
    assert lines[0] == "element (9, 3) is held by 16 thread slots:"
    assert lines[1] == "  block 0 warp 0 lane 25 (thread 25) register 1"


def test_pictures(cli, tmp_path):
    svg, png = tmp_path / "l.svg", tmp_path / "l.png"
    r = cli("layout", WORKED, "--shape", "64x256", "--svg", str(svg), "--png", str(png), "--no-picture")
    assert r.returncode == 0, r.stderr
    text = svg.read_text()
    assert text.startswith("<svg xmlns=") and text.count("<rect x=") == 64 * 16 + 2  # cells, 2 legend swatches
    assert ">T8</text>" in text and "warp 1 lane 0 reg 0" in text
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == 16 * 56 and int.from_bytes(data[20:24], "big") == 64 * 28


def test_errors_are_one_line(cli):
    r = cli("layout", WORKED.replace("[8, 1]", "[8, x]"), "--shape", "64x256")
    assert r.returncode == 1
    assert r.stderr == ("tritonscope: error: layout attribute: sizePerThread: expected a list of integers, "
                        "got [8, 'x']\n")
    r = cli("layout", WORKED, "--shape", "64x256", "--warp-size", "32")
    assert (r.returncode, r.stderr) == (1, "tritonscope: error: --warp-size 32: this blocked layout has 64 lanes "
                                           "per warp\n")
    r = cli("layout", WORKED, "--shape", "64x256", "--num-warps", "4")
    assert (r.returncode, r.stderr) == (2, "tritonscope: error: --num-warps 4: this layout spreads over 2 warp(s)\n")
    r = cli("layout", WORKED, "--shape", "64x2x3")
    assert r.returncode == 1 and "has rank 3, the blocked layout has rank 2" in r.stderr
    r = cli("layout", "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>")
    assert r.returncode == 2 and "needs --shape" in r.stderr
    assert "Traceback" not in r.stderr
    # MMA-family layouts of rank 1 (found by the layout fuzzer: an IndexError in the MFMA conversion) or 4,
    # as themselves, as a dot operand's or a slice's parent
    for text in ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2], instrShape = [32, 32, 8], isTransposed = true}>",
                 "#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                 "warpsPerCTA = [4], instrShape = [16, 8]}>, kWidth = 2}>",
                 "#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2]}>",
                 "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1, 2, 2], instrShape = [32, 32, 8], "
                 "isTransposed = true}>",
                 "#ttg.slice<{dim = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1, 2, 2], "
                 "instrShape = [32, 32, 8], isTransposed = true}>}>"):
        for shape in (("--shape", "1024"), ()):
            r = cli("layout", text, *shape, "--no-picture")
            assert r.returncode == 1 and len(r.stderr.splitlines()) == 1, r.stderr
            assert "layout: an MMA layout has rank 2 or 3" in r.stderr, r.stderr


def test_kernel_mode_lists_every_alias_with_uses(cli, cache39):
    r = cli("layout", "matmul_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx950")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("matmul_kernel: 16 layouts in ")
    i = lines.index("#mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], "
                    "isTransposed = true}>   (line 7)")
    assert lines[i + 1] == ("  64x64 f32 in registers: 10 ops (arith.constant, arith.select, arith.truncf, scf.for, "
                            "scf.if, scf.yield, tt.dot)")
    assert lines[i + 2] == ("    CTA tile 64x64, 1 round: 16 elements/thread, 4 contiguous along dim 1, "
                            "4 x 16 B vectors")
    assert lines[i + 3] == "    ttgir lines 22, 96, 120, 121, 127, 128, 129, 131, 133, 136"
    assert lines[i + 4] == "    source kernels.py lines 130, 131, 134, 137"
    doc = json.loads(cli("layout", "matmul_kernel", "--cache-dir", str(cache39), "--target", "hip:gfx950",
                         "--json").stdout)
    assert doc["kind"] == "layout-kernel"
    names = [a["name"] for a in doc["layouts"] if a["alias"]]
    assert names == ["blocked", "blocked1", "linear", "linear1", "linear2", "mma", "shared", "shared1"]
    shared = next(a for a in doc["layouts"] if a["name"] == "shared")
    assert shared["kind"] == "padded_shared" and [u["shape"] for u in shared["uses"]] == [[2, 64, 32], [64, 32]]


def test_kernel_alias_uses_its_largest_shape(cli, cache32):
    """Of the 64x32 uses (i32 offsets first, then an f16 constant, the pointers an async copy reads, an i1
    mask), the one a memory op moves: its pointee, f16 (helper 90: an MFMA layout was shown for its i1 mask,
    the first of its largest uses, not the f32 accumulator of the dot)."""
    r = cli("layout", "matmul_kernel", "--cache-dir", str(cache32), "--target", "cuda:90", "--alias", "blocked",
            "--json")
    doc = json.loads(r.stdout)
    assert doc["kind"] == "layout" and doc["shape"] == [64, 32] and doc["dtype"] == "f16"
    assert doc["layout"].startswith("#blocked = #triton_gpu.blocked<")
    assert [u["shape"] for u in doc["uses"]][:3] == [[64, 32], [64, 32], [64, 1]]
    r = cli("layout", "matmul_kernel", "--cache-dir", str(cache32), "--target", "cuda:90", "--alias", "nope")
    assert r.returncode == 2 and "no such layout alias in this TTGIR (aliases: blocked, blocked1" in r.stderr


def test_every_corpus_kernel_decodes(corpus):
    """Acceptance: every alias of every TTGIR decodes for the shapes that use it (in-process: 90 kernels)."""
    from tritonscope.layouts.uses import kernel_layout_uses
    from tritonscope.layouts.views import describe

    kernels = aliases = uses = 0
    for ttgir in sorted(corpus.rglob("*.ttgir")):
        kernels += 1
        for a in kernel_layout_uses(ttgir.read_text(), str(ttgir)):
            aliases += a.defined_at is not None
            for u in a.uses:
                describe(a.layout, u.shape, u.access_bits)
                uses += 1
    assert (kernels, aliases, uses) == (90, 232, 1578)


def test_every_typed_line_names_its_op(corpus):
    """A tt.reduce prints its types after its region (`}) : (tensor<...>) -> ...`), ttg.warp_specialize its
    partitions' arguments on region headers, a kernel its TMA descriptors on its header: each such line
    is that op's (or the function's), never '?', and carries the op's source line."""
    from pathlib import Path

    from tritonscope.layouts.uses import kernel_layout_uses

    tests = Path(__file__).parent
    paths = sorted(corpus.glob("*/*/*.ttgir")) + sorted((tests / "data").glob("thirdparty-*/*/*/*.ttgir"))
    paths.append(tests / "lit" / "ws_partitions.ttgir")
    seen = set()
    for p in paths:
        for alias in kernel_layout_uses(p.read_text(), str(p)):
            for use in alias.uses:
                assert "?" not in use.ops, (p, alias.name, use.ttgir_lines, use.ops)
                seen.update(use.ops)
    assert {"tt.reduce", "ttg.warp_specialize", "tt.func"} <= seen


def test_tensor_descriptor_blocks_are_in_shared_memory():
    """`!tt.tensordesc<tensor<1x64x64xbf16, #shared>>` (3.6) and `!tt.tensordesc<128x64xf16, #shared>` (3.9):
    the block a TMA copy moves, in its shared layout; not a register tensor, not left out."""
    from pathlib import Path

    from tritonscope.layouts.uses import kernel_layout_uses

    data = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "liger"
    swiglu = next(data.glob("MHPEY66N*/*.ttgir"))
    uses = {(a.name, u.shape, u.memory): u for a in kernel_layout_uses(swiglu.read_text()) for u in a.uses}
    assert ("shared", (1, 64, 64), "registers") not in uses
    desc = uses[("shared", (1, 64, 64), "shared")]
    assert desc.ops[0] == "tt.func" and "ttng.async_tma_copy_global_to_local" in desc.ops
    ws = Path(__file__).parent / "lit" / "ws_partitions.ttgir"
    uses = {(a.name, u.shape, u.memory): u for a in kernel_layout_uses(ws.read_text()) for u in a.uses}
    assert "ttng.reinterpret_tensor_descriptor" in uses[("shared", (128, 64), "shared")].ops


def test_a_shared_view_is_described_as_its_allocation(cli):
    """triton_kernels' bf16 x MXFP4 matmul: the activation tile's `memdesc_subslice` views, 16x16 of a 128x16
    allocation in a 128-byte-swizzled NVMMA layout. Triton lays a memdesc out by its allocation's shape
    (a 16-element contiguous dim alone is narrower than the swizzle), so the numbers are the allocation's."""
    from pathlib import Path

    entry = next((Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "triton_kernels").iterdir())
    doc = json.loads(cli("layout", str(entry), "--json").stdout)
    (shared3,) = [a for a in doc["layouts"] if a["name"] == "shared3"]
    view = next(u for u in shared3["uses"] if u["shape"] == [16, 16])
    assert view["view_of"] == [128, 16] and view["facts"] is not None and "error" not in view
    whole = next(u for u in shared3["uses"] if u["shape"] == [128, 16])
    assert whole["view_of"] is None and whole["facts"] == view["facts"]
    text = cli("layout", str(entry)).stdout
    assert "16x16 bf16 in shared (a view of a 128x16 allocation: its numbers)" in text


@pytest.mark.parametrize("option", ["--svg", "--png"])
def test_a_picture_replaces_a_link_at_its_path_never_writes_through_it(cli, tmp_path, option):
    """An output path in a shared folder may hold a link someone planted: it is replaced by the picture,
    and the file it pointed to is left as it was."""
    victim = tmp_path / "victim.txt"
    victim.write_text("VICTIM\n")
    out = tmp_path / ("p.svg" if option == "--svg" else "p.png")
    out.symlink_to(victim)
    r = cli("layout", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
            "--shape", "128", option, str(out))
    assert r.returncode == 0, r.stderr
    assert victim.read_text() == "VICTIM\n" and not out.is_symlink() and out.stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out.name, "victim.txt"])


def test_a_picture_written_to_a_pipe_goes_into_the_pipe(cli, tmp_path):
    """A device or a pipe at the output path (`--svg /dev/null`, a FIFO a reader waits on) is written
    into, not replaced by a file (as root, a rename over /dev/null replaced the device)."""
    import os
    import threading

    fifo = tmp_path / "p.svg"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = cli("layout", "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
            "--shape", "128", "--svg", str(fifo))
    reader.join(timeout=60)
    assert r.returncode == 0, r.stderr
    assert fifo.is_fifo() and got and got[0].startswith(b"<svg")


@pytest.mark.parametrize("bad", ["threadsPerWarp = [65536, 65536], warpsPerCTA = [1, 1]",
                                 "threadsPerWarp = [8, 4], warpsPerCTA = [4096, 1]"])
def test_a_layout_with_more_lanes_or_warps_than_a_cta_holds_is_refused(cli, bad):
    """65,536 lanes per warp took minutes and gigabytes to model: one line instead."""
    r = cli("layout", f"#ttg.blocked<{{sizePerThread = [1, 1], {bad}, order = [0, 1]}}>", "--shape", "64x64")
    assert r.returncode == 1 and "at most" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


@pytest.mark.parametrize("dtype", ["i0", "f0", "i99999999999999999999"])
def test_an_element_type_of_no_bits_is_a_usage_error(cli, dtype):
    r = cli("layout", WORKED, "--shape", "64x256", "--dtype", dtype)
    assert r.returncode == 2 and "--dtype" in r.stderr and "internal error" not in r.stderr, r.stderr


def test_a_memdesc_of_five_buffers_holds_five(cli):
    """A 5-stage pipeline's 5x64x128 memdesc was counted as 8 buffers: 65,536 slots, 24,576 of them
    'replicated' (past the 5th buffer), where the allocation holds 40,960 elements and no copies."""
    import json

    shared = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
    for shape, n in (("5x64x128", 5 * 8192), ("4x64x128", 4 * 8192), ("3x2x64x128", 6 * 8192)):
        r = cli("layout", shared, "--shape", shape, "--json")
        assert r.returncode == 0, r.stderr
        facts = json.loads(r.stdout)
        assert (facts["elements_per_thread"], facts["slots"], facts["distinct_elements"], facts["replicated"]) == \
            (n, n, n, 0), shape


def test_a_tensor_dim_that_is_no_power_of_two_is_refused(cli):
    """Triton's tensors have power-of-two dims; a 48x64 shape was laid out with rows past 47 reported as
    held (and 'replicated' slots that were not copies)."""
    blocked = ("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], "
               "order = [0, 1]}>")
    r = cli("layout", blocked, "--shape", "48x64")
    assert r.returncode == 2 and "48 is not a power of two" in r.stderr and r.stderr.count("\n") == 1
    r = cli("layout", "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
            "--shape", "5x48x128")
    assert r.returncode == 2 and "48 is not a power of two" in r.stderr


@pytest.mark.parametrize(("text", "error"), [
    ("#ttg.linear<{register = [[0, 1]], lane = [[0, 1], [1, 0], [2, 0], [4, 0], [8, 0]], warp = [], block = []}>",
     "repeats a register basis"),
    ("#ttg.linear<{register = [[1, 1]], lane = [[0, 2], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [], block = []}>",
     "one power of two along one dim"),
    ("#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
     "instrShape = [16, 64, 16]}>, kWidth = 2}>", "reads its B operand from shared memory"),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8, fp4Padded = true}>",
     "128-byte swizzling only"),
])
def test_a_layout_triton_refuses_is_refused(cli, text, error):
    """Attributes Triton 3.9 refuses were decoded as if valid: a linear layout whose element two threads
    hold with no broadcast to say so (its facts then contradicted --element), a Hopper MMA's B operand in
    registers, padded FP4 without 128-byte swizzling."""
    r = cli("layout", text, "--shape", "64x64", "--no-picture")
    assert r.returncode == 1 and error in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_a_dot_operands_broadcast_warps_are_no_tile_along_k(cli):
    """An MFMA operand of a parent with warps along N lays them out along K and drops what passes the
    tensor: the copy is a broadcast (2 threads an element), not a second K tile; the tile read 64x256 and
    'replicated along dim 1' for a 64x128 operand."""
    import json

    text = ("#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = "
            "[32, 32, 8], isTransposed = true}>, kWidth = 4}>")
    facts = json.loads(cli("layout", text, "--shape", "64x128", "--json").stdout)
    assert (facts["cta_tile"], facts["replicated_dims"], facts["threads_per_element"]) == ([64, 128], [], 2)


def test_an_alias_used_by_a_three_buffer_memdesc(cli):
    """Triton's pipelined persistent matmul (cuda:100) keeps 3 buffers of its NVMMA layout: `--alias shared`
    asked for that use's 3x64x256 shape and refused it as no power of two (a shape the user never gave),
    and its facts counted 4 buffers."""
    import json
    from pathlib import Path

    entry = (Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9" /
             "3KDH47HNH4OSX2AUNWC5BDSICOFBVZV7SUIBSLJIZQTCY2GA2TVQ")
    r = cli("layout", str(entry), "--alias", "shared", "--json")
    assert r.returncode == 0, r.stderr
    facts = json.loads(r.stdout)
    assert facts["shape"] == [3, 64, 256] and (facts["elements_per_thread"], facts["replicated"]) == (49152, 0)


@pytest.mark.parametrize("shape", ["64xx64", "64x", "x64", "", "64x6a"])
def test_a_shape_with_a_field_left_out_is_a_usage_error(cli, shape):
    # `64xx64` was taken as 64x64 and `64x` as a rank-1 shape (then blamed on the layout's rank)
    blocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>"
    proc = cli("layout", blocked, "--shape", shape)
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        f"tritonscope: error: --shape: expected integers separated by 'x', got {shape!r}"]


def test_an_nvmma_shared_layout_s_element_width_is_its_dtype_unless_told(cli):
    # without --dtype, f16 was assumed (a 32-bit layout's widths halved); a --dtype of another width was taken
    # without a word, while the swizzle is the layout's (as Triton computes it)
    import json

    wide = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>"
    doc = json.loads(cli("layout", wide, "--shape", "64x64", "--json").stdout)
    assert doc["element_bits"] == 32
    said = "--dtype not given: 32-bit elements, the layout's elementBitWidth (f32 for the vector widths)"
    assert said in doc["notes"]
    narrow = wide.replace("= 32}", "= 16}")
    doc = json.loads(cli("layout", narrow, "--shape", "64x64", "--dtype", "f32", "--json").stdout)
    assert any(n.startswith("--dtype f32 is 32-bit, the layout's elementBitWidth 16") for n in doc["notes"])


def test_a_layout_the_ttgir_file_spells_wrong_is_an_error_naming_the_file(cli, tmp_path):
    """Helper 56: `layout FILE.ttgir` with an alias Triton's parser refuses said `<text>:8: ...`."""
    ttgir = tmp_path / "v4.ttgir"
    ttgir.write_text('#mma = #ttg.amd_wmma<{version = 4, isTranspose = true, ctaLayout = {warp = [[0, 1]]}}>\n'
                     'module attributes {"ttg.num-warps" = 2 : i32, "ttg.threads-per-warp" = 32 : i32} {\n}\n')
    p = cli("layout", str(ttgir))
    assert p.returncode == 1
    assert p.stderr == f"tritonscope: error: {ttgir}:1: #mma: version: WMMA versions are 1 to 3, got 4\n"


@pytest.mark.parametrize("order,dim", [("[1, 0]", 2), ("[0, 1]", 1)])
def test_a_multi_buffered_shared_layout_runs_along_its_buffers_dim(cli, order, dim):
    """Helper 76 (unsloth/lightllm's fused MoE on gfx942, `memdesc<2x64x64xbf16, #shared>`): the rank-2
    order was read against the 3-D shape, so the offsets ran along the buffer index: '1 consecutive element
    along dim 1', where one buffer's own view said 64 along its last dim."""
    text = f"#ttg.swizzled_shared<{{vec = 4, perPhase = 1, maxPhase = 16, order = {order}}}>"
    r = cli("layout", text, "--shape", "2x64x64", "--dtype", "bf16", "--json")
    assert r.returncode == 0, r.stderr
    facts = json.loads(r.stdout)
    assert (facts["fastest_dim"], facts["contiguous_per_thread"]) == (dim, 64)


def test_kernel_alias_of_a_dot_is_shown_for_the_dots_tensor(cli):
    """flash-attn's AMD attention for gfx942: `#mma`'s largest uses are a 64x64 i1 mask (first), the f32
    accumulator of `tt.dot`, i32 offsets and the f16 output: the dot's f32 tile is shown (16-byte vectors),
    not the mask's bytes."""
    entry = next((Path(__file__).parent / "data" / "thirdparty-gfx942-triton3.9" / "flashattn").iterdir())
    r = cli("layout", str(entry), "--alias", "mma", "--no-picture")
    assert r.returncode == 0, r.stderr
    assert "a 64x64 f32 tensor (32-bit elements) over 4 warp(s) of 64 lanes" in r.stdout, r.stdout
