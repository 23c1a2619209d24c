"""Gluon (`@gluon.jit`) kernels without a GPU (issue 17): compiled as the Gluon JIT compiles them, marked by
`ls`, their written layouts read from the source and set beside what the TTGIR resolved (`layout`, `map`),
and `loads` naming the written layout that caps a vector."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tritonscope.layouts.written import Symbol, written_layouts

# The minimal user kernel, as a user would write it.
USER_KERNEL = textwrap.dedent("""\
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl


    @gluon.jit
    def copy_kernel(src_ptr, dst_ptr, n, BLOCK: gl.constexpr):
        layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
        offsets = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=layout)
        mask = offsets < n
        gl.store(dst_ptr + offsets, gl.load(src_ptr + offsets, mask=mask), mask=mask)
    """)


# ---- reading the layouts a source writes (pure) -------------------------------------------------------


def test_written_layouts_of_the_worked_example():
    source = (Path(__file__).parent.parent / "sample_kernels" / "gluon_mask.py").read_text()
    found = written_layouts(source)
    assert [(w.line, w.cls, w.name) for w in found] == [
        (16, "BlockedLayout", "layout"), (17, "SliceLayout", None), (18, "SliceLayout", None)]
    blocked = found[0]
    assert blocked.args == {"size_per_thread": [1, 1], "threads_per_warp": [1, 32], "warps_per_cta": [1, 4],
                            "order": [1, 0]}
    assert blocked.uses == [17, 18] and blocked.function == "gluon_mask_kernel"
    assert found[1].args == {"dim": 1, "parent": blocked}


def test_written_layouts_keep_symbols_and_module_constants():
    source = textwrap.dedent("""\
        LAYOUT = gl.constexpr(gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))

        @gluon.jit
        def k(x_ptr, SPT: gl.constexpr):
            lay: gl.constexpr = gl.BlockedLayout(size_per_thread=[SPT], threads_per_warp=[32],
                                                 warps_per_cta=[gl.num_warps()], order=[0])
            a = gl.arange(0, 128, layout=gl.AutoLayout())
            s = gl.allocate_shared_memory(gl.float16, [64, 64], LAYOUT)
        """)
    shared, blocked, auto = written_layouts(source)
    assert (shared.line, shared.name, shared.function, shared.uses) == (1, "LAYOUT", None, [8])
    assert blocked.args["size_per_thread"] == Symbol("[SPT]")
    assert blocked.args["warps_per_cta"] == Symbol("[gl.num_warps()]")
    assert blocked.symbolic == ["size_per_thread", "warps_per_cta"]
    assert (auto.line, auto.cls, auto.kind, auto.args) == (7, "AutoLayout", None, {})


def test_a_list_with_some_symbols_keeps_its_literals():
    from tritonscope.layouts.gluon import matches
    from tritonscope.layouts.model import BlockedLayout

    (w,) = written_layouts("lay = gl.BlockedLayout([1, 2], [1, 32], [1, gl.num_warps()], [1, 0])\n")
    assert w.args["warps_per_cta"] == [1, Symbol("gl.num_warps()")] and w.symbolic == ["warps_per_cta"]

    def blocked(warps):
        return BlockedLayout(size_per_thread=(1, 2), threads_per_warp=(1, 32), warps_per_cta=warps, order=(1, 0))

    assert matches(w, blocked((1, 4))) and matches(w, blocked((1, 8)))
    assert not matches(w, blocked((2, 2)))  # the literal 1 must hold


# ---- compile -------------------------------------------------------------------------------------------


def test_user_gluon_kernel_compiles_for_cuda90(tmp_path, cli):
    (tmp_path / "gk.py").write_text(USER_KERNEL)
    proc = cli("compile", f"{tmp_path / 'gk.py'}::copy_kernel", "--signature", "src_ptr=*fp32,dst_ptr=*fp32,n=i32",
               "--constexpr", "BLOCK=512", "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no teardown noise from Triton's extension (nanobind "leaked instance" lines)
    result = json.loads(proc.stdout)["results"][0]
    assert result["error"] is None
    assert result["stages"] == ["source", "glir", "ttgir", "llir", "ptx", "cubin", "json"]
    ttgir = (Path(result["entry"]) / "copy_kernel.ttgir").read_text()
    assert ("#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], "
            "order = [0]}>") in ttgir
    # the written layout is described with the data it carries (f32), not the offsets or the mask of
    # the same shape (before: `512 i32`, the first of them)
    shown = cli("layout", "copy_kernel", "--cache-dir", str(tmp_path / "c"))
    assert "            512 f32: 4 elements/thread over 128 threads, each element held by one thread" in \
        shown.stdout.splitlines()


def test_worked_example_on_64_lane_wavefronts_is_one_line(cli, tmp_path):
    proc = cli("compile", "gluon_mask", "--target", "hip:gfx942", "--cache-dir", str(tmp_path))
    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if line.startswith("tritonscope: error:")]
    assert len(errors) == 1 and "Traceback" not in proc.stderr
    # the error line, then the source line and a caret under column 12: nothing else
    assert proc.stderr.splitlines()[1:] == ["   17 |     rows = gl.arange(0, N, layout=gl.SliceLayout(1, layout))",
                                            " " * 19 + "^"]
    assert errors[0].startswith("tritonscope: error: gluon_mask (hip:gfx942): ")
    assert errors[0].endswith("gluon_mask.py:17:12: Result has an invalid layout: #ttg.slice<...>: "
                              "Layout has 32 threads per warp, but the module specifies 64 threads per warp.")


def test_release_without_gluon_says_from_which_release():
    from tritonscope.compile.diagnostics import import_failure
    from tritonscope.compile.gluon import gluon_release, is_missing_gluon
    from tritonscope.errors import UsageError

    with pytest.raises(UsageError, match=r"^Gluon kernels \(triton.experimental.gluon\) exist from Triton 3.4 on "
                                         r"\(installed: 3.3.1\)$"):
        gluon_release("3.3.1")
    assert gluon_release("3.4.0").target_from_driver and not gluon_release("3.5.1").target_from_driver
    assert gluon_release("3.9.0").first_stage == "glir" and gluon_release("3.8.0").first_stage == "ttgir"
    exc = ModuleNotFoundError("No module named 'triton.experimental'", name="triton.experimental")
    assert is_missing_gluon(exc)
    failure = import_failure(exc, "gk.py")
    assert failure.kind == "usage" and failure.message.startswith("Gluon kernels (triton.experimental.gluon) exist")
    # a symbol another release's Gluon has (Triton's 06-tcgen05 tutorial on 3.9) is no missing Gluon
    api = ImportError("cannot import name 'get_tmem_32x32b_reg_layout' from "
                      "'triton.experimental.gluon.language.nvidia.blackwell'",
                      name="triton.experimental.gluon.language.nvidia.blackwell")
    assert not is_missing_gluon(api)
    failure = import_failure(api, "gk.py")
    assert failure.kind == "import" and "get_tmem_32x32b_reg_layout" in failure.message


def test_interpreter_refuses_gluon_samples(cli):
    proc = cli("compile", "--run", "--interpret", "gluon_mask")
    assert proc.returncode == 2
    assert "Triton's interpreter does not run Gluon kernels (gluon_mask)" in proc.stderr


# ---- inspecting Gluon entries --------------------------------------------------------------------------


def test_language_of_entries(compiled_entries, tmp_path):
    from tritonscope.artifacts.cache import load_entry

    assert load_entry(compiled_entries["gluon_mask", "cuda:90"]).language == "gluon"
    assert load_entry(compiled_entries["vector_add", "cuda:90"]).language == "triton"
    # Triton 3.4-3.8 write no .glir: the .source module carries the TTGIR attributes already. The head of
    # the .source a JIT launch of gluon_mask wrote on an H100 with Triton 3.6.0 (its path cut to the name):
    entry = tmp_path / "E"
    entry.mkdir()
    (entry / "k.source").write_text(
        '#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], '
        'order = [1, 0]}>\n#loc1 = loc("gluon_mask.py":15:0)\n#loc14 = loc("out_ptr"(#loc1))\n'
        'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", '
        '"ttg.threads-per-warp" = 32 : i32} {\n')
    (entry / "k.ttgir").write_text("module {\n}\n")
    assert load_entry(entry).language == "gluon"
    (entry / "k.source").write_text('#loc = loc("k.py":3:0)\nmodule {\n')
    assert load_entry(entry).language == "triton"


def test_ls_marks_gluon_entries(compiled_cache, cli):
    proc = cli("ls", "gluon_mask_kernel", "--cache-dir", str(compiled_cache))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[2].split()[:2] == ["gluon_mask_kernel", "gluon"]
    doc = json.loads(cli("ls", "--cache-dir", str(compiled_cache), "--json").stdout)
    languages = {e["name"]: e["language"] for e in doc["entries"]}
    assert languages["gluon_mask_kernel"] == "gluon" and languages["add_kernel"] == "triton"


def test_layout_reads_the_worked_example(compiled_entries, cli):
    cache = str(compiled_entries["gluon_mask", "cuda:90"].parent)
    proc = cli("layout", "gluon_mask_kernel", "--cache-dir", cache)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "gluon_mask_kernel (Gluon): 3 layouts written in gluon_mask.py, as written and as resolved"
    assert lines[1] == "gluon_mask.py:16   layout: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [1, 4], [1, 0])"
    assert lines[2] == ("  written   BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], "
                        "warps_per_cta=[1, 4], order=[1, 0])")
    assert lines[3] == ("  resolved  #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
                        "warpsPerCTA = [1, 4], order = [1, 0]}>")
    assert lines[4] == "            as written; carried by lines 17-20"
    assert lines[5] == ("            16x16 i32: 16 elements/thread over 128 threads, each element held by 8 threads "
                        "(replicated along dim 1)")


def test_layout_shows_what_autolayout_became(compiled_entries, cli):
    cache = str(compiled_entries["gluon_mask_auto", "cuda:90"].parent)
    doc = json.loads(cli("layout", "gluon_mask_auto_kernel", "--cache-dir", cache, "--json").stdout)
    assert doc["language"] == "gluon"
    rows = {r["written"]["line"]: r for r in doc["written"]["layouts"]}
    assert sorted(rows) == [16, 17, 20]
    assert rows[16]["written"]["class"] == "AutoLayout" and rows[16]["status"] == "chosen by the compiler"
    assert [t["text"] for t in rows[16]["resolved"]] == ["#ttg.slice<{dim = 1, parent = #blocked}>"]
    assert [t["text"] for t in rows[17]["resolved"]] == ["#ttg.slice<{dim = 0, parent = #blocked}>"]
    assert rows[20]["status"] == "as written" and rows[20]["resolved"][0]["name"] == "blocked"
    facts = rows[20]["resolved"][0]["facts"]
    assert (facts["elements_per_thread"], facts["threads"], facts["threads_per_element"],
            facts["replicated_dims"]) == (16, 128, 8, [1])


def test_layout_fills_in_a_constexpr_size_per_thread(compile_kernel, cli):
    result = compile_kernel("gluon_axpy-spt1")
    doc = json.loads(cli("layout", result.hash[:12], "--cache-dir", str(Path(result.entry).parent), "--json").stdout)
    (row,) = doc["written"]["layouts"]
    assert row["status"] == "filled in" and row["filled"] == {"size_per_thread": "[1]"}
    assert row["written"]["args"]["size_per_thread"] == {"symbol": "[SPT]"}


def test_map_shows_the_layout_line(compiled_entries, cli):
    cache = str(compiled_entries["gluon_mask", "cuda:90"].parent)
    doc = json.loads(cli("map", "gluon_mask_kernel", "--cache-dir", cache, "--json").stdout)
    rows = {r["line"]: r for r in doc["lines"]}
    assert [w["resolved"] for w in rows[16]["written_layouts"]] == [["#blocked"]]
    assert all(c == 0 for c in rows[16]["counts"].values())  # the constexpr line itself makes no op
    assert rows[17]["written_layouts"][0]["resolved"] == ["#ttg.slice<{dim = 1, parent = #blocked}>"]
    assert rows[19]["written_layouts"] == [] and rows[19]["counts"]["ttgir"] == 5


def test_loads_names_the_written_layout_and_a_vectorizing_size_per_thread(compile_kernel, cli):
    narrow = compile_kernel("gluon_axpy-spt1")
    doc = json.loads(cli("loads", narrow.hash[:12], "--cache-dir", str(Path(narrow.entry).parent), "--json").stdout)
    load = doc["rows"][0]
    assert (load["line"], load["verdict"]) == (21, "scalar")
    assert load["reasons"] == ["layout-contiguity-1", "written-layout"]
    assert load["evidence"]["written-layout"] == (
        "gluon_axpy.py:17 writes size_per_thread=[SPT] (= [1]) for #blocked: 1 contiguous f16 per thread along "
        "dim 0, 2-byte accesses at most; size_per_thread=[8] would give 16-byte vectors where the addresses run "
        "contiguously along dim 0")
    # ... and size_per_thread=[8] does give them.
    wide = compile_kernel("gluon_axpy")
    doc = json.loads(cli("loads", wide.hash[:12], "--cache-dir", str(Path(wide.entry).parent), "--json").stdout)
    assert [(r["vector_bytes"], r["verdict"], r["reasons"]) for r in doc["rows"]] == [(16, "as-predicted", [])] * 3


def test_a_source_changed_since_compiling_is_not_matched(tmp_path, cli):
    """The layouts of a Gluon source are matched against the TTGIR only while the file is the one compiled:
    the TTGIR locates the kernel's `def` and names its arguments. Lines moved (two comment lines added), or
    another kernel of the same name and path, are said to be no longer the source; before, their layouts were
    matched with confidence against a kernel they did not make."""
    src = tmp_path / "gk.py"

    def compiled_as_written(text: str, cache: str) -> None:
        src.write_text(text)
        proc = cli("compile", f"{src}::copy_kernel", "--signature", "src_ptr=*fp32,dst_ptr=*fp32,n=i32",
                   "--constexpr", "BLOCK=512", "--target", "cuda:90", "--cache-dir", str(tmp_path / cache))
        assert proc.returncode == 0, proc.stderr
        shown = cli("layout", "copy_kernel", "--cache-dir", str(tmp_path / cache))
        assert "as written" in shown.stdout and "changed since it was compiled" not in shown.stdout

    compiled_as_written(USER_KERNEL, "c")
    src.write_text("# a comment\n# another\n" + USER_KERNEL)
    moved = cli("layout", "copy_kernel", "--cache-dir", str(tmp_path / "c"))
    # (refused as the source pane refuses it: the def is not where the IR locates it)
    assert moved.returncode == 0 and "line 6 is not `def copy_kernel(`, where the IR locates that function: not " \
        "the source it was compiled from" in moved.stdout
    assert "as written" not in moved.stdout
    src.write_text(USER_KERNEL.replace("src_ptr", "a_ptr"))
    other = cli("layout", "copy_kernel", "--cache-dir", str(tmp_path / "c"))
    assert "has no parameter 'src_ptr'" in other.stdout and "as written" not in other.stdout
    # Triton's tutorials wrap a signature with `,  #` line ends: the file is the one compiled (its
    # parameters after a comment were missed, and every written layout dropped as "the file changed")
    wrapped = USER_KERNEL.replace("def copy_kernel(src_ptr, dst_ptr, n, BLOCK: gl.constexpr):",
                                  "def copy_kernel(src_ptr,  #\n               dst_ptr,  # (out)\n"
                                  "               n, BLOCK: gl.constexpr):")
    compiled_as_written(wrapped, "w")


def test_mma_layouts_match_on_every_field_written():
    """`transposed` and `version` are compared too: a written AMD MFMA layout matched both the transposed
    and the plain TTGIR layout of a kernel that converts between them (and `version` an MMA of another)."""
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.gluon import matches
    from tritonscope.layouts.written import written_layouts

    source = ("from triton.experimental.gluon import language as gl\n"
              "M2: gl.constexpr = gl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=False, "
              "warps_per_cta=[2, 2])\n"
              "A: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], "
              "instr_shape=[16, 64, 16])\n")
    m2, acc = written_layouts(source)
    mfma = "#ttg.amd_mfma<{{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = {}}}>"
    assert matches(m2, parse_layout(mfma.format("false"))) and not matches(m2, parse_layout(mfma.format("true")))
    mma = "#ttg.nvidia_mma<{{versionMajor = {}, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}}>"
    assert matches(acc, parse_layout(mma.format(3))) and not matches(acc, parse_layout(mma.format(2)))


NUM_WARPS_PARAM = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def nw_kernel(x_ptr, N: gl.constexpr, num_warps: gl.constexpr):
    L: gl.constexpr = gl.BlockedLayout([1], [32], [num_warps], [0])
    offs = gl.arange(0, N, layout=L)
    gl.store(x_ptr + offs, offs.to(gl.float32))
'''


def test_a_num_warps_parameter_is_the_launch_option_too(tmp_path, cli):
    """Gluon kernels take `num_warps: gl.constexpr` (the tutorials' wgmma kernels): a launch's num_warps=8
    binds the parameter and the option at once. --num-warps 8 left the parameter without a value, and
    --constexpr num_warps=8 compiled with 4 warps (Triton refused the 8-warp layout). Both give the JIT's
    cache key (checked against its warmup with a stand-in driver)."""
    (tmp_path / "nw.py").write_text(NUM_WARPS_PARAM)
    hashes = set()
    for how in (["--num-warps", "8"], ["--constexpr", "num_warps=8"]):
        r = cli("compile", f"{tmp_path / 'nw.py'}::nw_kernel", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
                "--constexpr", "N=1024", *how, "--cache-dir", str(tmp_path / "c"), "--json")
        assert r.returncode == 0, r.stderr
        (res,) = json.loads(r.stdout)["results"]
        assert res["options"]["num_warps"] == 8
        hashes.add(res["hash"])
    assert len(hashes) == 1


SYMBOLIC_AND_CONCRETE = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def spt_kernel(x_ptr, y_ptr, z_ptr, N: gl.constexpr, SPT: gl.constexpr):
    L: gl.constexpr = gl.BlockedLayout([SPT], [32], [4], [0])
    Lw: gl.constexpr = gl.BlockedLayout([2], [32], [4], [0])
    offs_w = gl.arange(0, N, layout=Lw)
    xw = gl.load(x_ptr + offs_w)
    gl.store(z_ptr + offs_w, xw)
    y = gl.convert_layout(xw, L)
    offs = gl.arange(0, N, layout=L)
    gl.store(y_ptr + offs, y)
'''


def test_written_layout_advice_names_the_layout_the_access_uses(tmp_path, cli):
    """`L = BlockedLayout([SPT], ...)` (SPT=1) matches any blocked layout of its lines, Lw's [2] too: the load
    written through Lw (line 8) was blamed on line 7 with 'SPT (= [2])', and the store through L read [2]."""
    (tmp_path / "k.py").write_text(SYMBOLIC_AND_CONCRETE.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'k.py'}::spt_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp16,y_ptr=*fp16,z_ptr=*fp16", "--constexpr", "N=1024", "--constexpr", "SPT=1",
            "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "spt_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    why = {row["line"]: row["evidence"]["written-layout"] for row in doc["rows"] if "written-layout" in row["reasons"]}
    assert why[10].startswith("k.py:8 writes size_per_thread=[2] for #blocked")
    assert why[14].startswith("k.py:7 writes size_per_thread=[SPT] (= [1]) for #blocked1")


def test_wmma_and_linear_layouts_match_on_their_bases():
    """AMDWMMALayout's warp_bases and DistributedLinearLayout's bases are compared with the TTGIR's: before,
    a written WMMA layout matched every `#ttg.amd_wmma` of its version, and a linear layout any `#ttg.linear`."""
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.gluon import matches
    from tritonscope.layouts.written import written_layouts

    source = ("from triton.experimental.gluon import language as gl\n"
              "W: gl.constexpr = gl.amd.AMDWMMALayout(version=1, transposed=True, warp_bases=[[0, 1], [0, 2]])\n"
              "L: gl.constexpr = gl.DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0], [2, 0]], "
              "warp_bases=[], block_bases=[], shape=[4, 2])\n")
    w, lin = written_layouts(source)
    wmma = "#ttg.amd_wmma<{{version = 1, isTranspose = true, ctaLayout = {{warp = {}}}}}>"
    assert matches(w, parse_layout(wmma.format("[[0, 1], [0, 2]]")))
    assert not matches(w, parse_layout(wmma.format("[[1, 0], [2, 0]]")))
    linear = "#ttg.linear<{{register = [[0, 1]], lane = {}, warp = [], block = []}}>"
    assert matches(lin, parse_layout(linear.format("[[1, 0], [2, 0]]")))
    assert not matches(lin, parse_layout(linear.format("[[2, 0], [1, 0]]")))
    # (3.8 on prints one whose warp bases move along several dims, or with two alike bases, as generic_linear)
    generic = "#ttg.generic_linear<{{register = [[0, 1]], lane = {}, warp = [], block = []}}>"
    assert matches(lin, parse_layout(generic.format("[[1, 0], [2, 0]]")))
    assert not matches(lin, parse_layout(generic.format("[[2, 0], [1, 0]]")))


ZEROS_ACCUMULATOR = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def zeros_kernel(x_ptr, y_ptr, N: gl.constexpr):
    L: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    acc = gl.zeros([N], gl.float32, layout=L)
    offs = gl.arange(0, N, layout=acc.type.layout)
    acc += gl.load(x_ptr + offs)
    gl.store(y_ptr + offs, acc)
'''


def test_a_layout_only_a_hoisted_constant_carries_is_in_ttgir(tmp_path, cli):
    """L is used only by gl.zeros, a constant the compiler keeps at no line (the other ops take the layout
    from `acc.type.layout`): no op of L's lines carries #blocked, yet the TTGIR has it with L's fields. It was
    said to be 'not in TTGIR'."""
    (tmp_path / "z.py").write_text(ZEROS_ACCUMULATOR.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'z.py'}::zeros_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "N=512", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "zeros_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    (row,) = doc["written"]["layouts"]
    # (the lines whose ops carry it are said all the same: the layout flows to them through `acc`)
    assert (row["status"], [r["name"] for r in row["resolved"]], row["on_lines"]) == (
        "in TTGIR, on no op of its lines", ["blocked"], [9, 10, 11])


ALIASES_AND_SHADOWS = '''from triton.experimental.gluon import language as gl
L: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
A: gl.constexpr = gl.BlockedLayout([2], [32], [4], [0])

@gluon.jit
def k(x, layout: gl.constexpr):
    L: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    A2: gl.constexpr = A
    o = gl.arange(0, 128, layout=L)
    p = gl.arange(0, 128, layout=A2)
    s: gl.constexpr = gl.SliceLayout(0, A2)
    q = gl.arange(0, 128, layout=layout)

@gluon.jit
def j(x, layout: gl.constexpr):
    o = gl.arange(0, 128, layout=L)
'''


def test_uses_follow_aliases_and_stop_at_shadowing_names():
    """`A2: gl.constexpr = A` reads A wherever A2 is read (before, A2's lines were no use of A and
    SliceLayout(0, A2) had a symbol for a parent); a kernel's own `L` hides the module's `L` there (its
    lines were uses of both)."""
    module_l, a, local_l, s = written_layouts(ALIASES_AND_SHADOWS)
    assert (module_l.line, module_l.uses) == (2, [16])
    assert (a.line, a.uses) == (3, [8, 10, 11])
    assert (local_l.line, local_l.uses) == (7, [9])
    assert s.args["parent"] is a


def test_a_static_factory_is_read_and_its_computed_fields_filled_in(tmp_path, cli):
    """`gl.NVMMASharedLayout.get_default_for(...)` was not read at all (only constructors were): the
    kernel's shared layout was missing from `layout`. Its computed fields are filled in from the TTGIR."""
    (w,) = written_layouts("import gl\nP = gl.PaddedSharedLayout.with_identity_for([[64, 8]], [32, 64], [1, 0])\n")
    assert (w.cls, w.factory, w.kind, w.symbolic) == ("PaddedSharedLayout", "with_identity_for", "padded_shared",
                                                      ["offset_bases"])
    assert w.args == {"interval_padding_pairs": [[64, 8]], "shape": [32, 64], "order": [1, 0]}
    (tmp_path / "f.py").write_text(textwrap.dedent('''\
        from triton.experimental import gluon
        from triton.experimental.gluon import language as gl


        @gluon.jit
        def factory_kernel(x_ptr, y_ptr):
            blk: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
            sl: gl.constexpr = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)
            r = gl.arange(0, 64, layout=gl.SliceLayout(1, blk))
            c = gl.arange(0, 64, layout=gl.SliceLayout(0, blk))
            s = gl.allocate_shared_memory(gl.float16, [64, 64], sl, gl.load(x_ptr + r[:, None] * 64 + c[None, :]))
            gl.store(y_ptr + r[:, None] * 64 + c[None, :], s.load(blk))
        '''))
    r = cli("compile", f"{tmp_path / 'f.py'}::factory_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp16,y_ptr=*fp16", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "factory_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    row = next(x for x in doc["written"]["layouts"] if x["written"]["line"] == 8)
    assert (row["written"]["factory"], row["status"], row["filled"]) == (
        "get_default_for", "filled in", {"swizzle_byte_width": "128", "element_bitwidth": "16"})
    assert [t["name"] for t in row["resolved"]] == ["shared"]
    shown = cli("layout", "factory_kernel", "--cache-dir", str(tmp_path / "c")).stdout
    assert "written   NVMMASharedLayout.get_default_for(block_shape=[64, 64], dtype=gl.float16)" in shown


QA_KERNELS = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def cse_kernel(x_ptr, y_ptr, N: gl.constexpr):
    B: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    r = gl.arange(0, N, layout=gl.SliceLayout(1, B))
    c = gl.arange(0, N, layout=gl.SliceLayout(0, B))
    x = gl.load(x_ptr + r[:, None] * N + c[None, :])
    r2 = gl.arange(0, N, layout=gl.SliceLayout(1, B))
    gl.store(y_ptr + r2[:, None] * N + c[None, :], x)


@gluon.jit
def cond_kernel(x_ptr, y_ptr, N: gl.constexpr, ROWMAJOR: gl.constexpr):
    if ROWMAJOR:
        L: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    else:
        L: gl.constexpr = gl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    r = gl.arange(0, N, layout=gl.SliceLayout(1, L))
    c = gl.arange(0, N, layout=gl.SliceLayout(0, L))
    x = gl.load(x_ptr + r[:, None] * N + c[None, :])
    gl.store(y_ptr + r[:, None] * N + c[None, :], x)


@gluon.jit
def pad_kernel(x_ptr, y_ptr, M: gl.constexpr, K: gl.constexpr):
    blk: gl.constexpr = gl.BlockedLayout([1, 8], [8, 8], [4, 1], [1, 0])
    p1: gl.constexpr = gl.PaddedSharedLayout.with_identity_for([[32, 8]], [64, 32], [1, 0])
    p2: gl.constexpr = gl.PaddedSharedLayout(
        interval_padding_pairs=[[64, 4]], cga_layout=[], shape=[64, 32],
        offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]])
    r = gl.arange(0, M, layout=gl.SliceLayout(1, blk))
    c = gl.arange(0, K, layout=gl.SliceLayout(0, blk))
    x = gl.load(x_ptr + r[:, None] * K + c[None, :])
    s1 = gl.allocate_shared_memory(gl.float16, [M, K], p1, x)
    s2 = gl.allocate_shared_memory(gl.float16, [M, K], p2, s1.load(blk))
    gl.store(y_ptr + r[:, None] * K + c[None, :], s2.load(blk))


@gluon.jit
def helper_kernel(x_ptr, y_ptr, N: gl.constexpr, ROWMAJOR: gl.constexpr):
    H: gl.constexpr = pick_layout(ROWMAJOR, gl.num_warps())
    r = gl.arange(0, N, layout=gl.SliceLayout(1, H))
    c = gl.arange(0, N, layout=gl.SliceLayout(0, pick_layout(ROWMAJOR, gl.num_warps())))
    x = gl.load(x_ptr + r[:, None] * N + c[None, :])
    gl.store(y_ptr + r[:, None] * N + c[None, :], x)


@gluon.jit
def convert_kernel(x_ptr, y_ptr, N: gl.constexpr, SPT: gl.constexpr):
    a: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    b: gl.constexpr = gl.BlockedLayout([SPT], [32], [4], [0])
    x = gl.load(x_ptr + gl.arange(0, N, layout=a))
    y = gl.convert_layout(x, b)
    gl.store(y_ptr + gl.arange(0, N, layout=b), y)


@gluon.jit
def shared_helper_kernel(x_ptr, y_ptr, N: gl.constexpr):
    L: gl.constexpr = outer_layout(gl.num_warps())
    x = gl.load(x_ptr + gl.arange(0, N, layout=L))
    gl.store(y_ptr + gl.arange(0, N, layout=L), x)


@gluon.jit
def zeros_helper_kernel(y_ptr, N: gl.constexpr):
    L: gl.constexpr = outer_layout(gl.num_warps())
    L1: gl.constexpr = gl.BlockedLayout([1], [32], [gl.num_warps()], [0])
    z = gl.zeros([N], gl.float32, L)
    gl.store(y_ptr + gl.arange(0, N, layout=L1), gl.convert_layout(z, L1) + 1.0)


@gluon.constexpr_function
def outer_layout(num_warps):
    return inner_layout(num_warps)


@gluon.constexpr_function
def inner_layout(num_warps):
    if num_warps == 4:
        lay = gl.BlockedLayout([2], [32], [num_warps], [0])
    else:
        lay = gl.BlockedLayout([4], [32], [num_warps], [0])
    return lay


@gluon.constexpr_function
def either_layout(wide, num_warps):
    return gl.BlockedLayout([4], [32], [num_warps], [0]) if wide else gl.BlockedLayout([1], [32], [num_warps], [0])


@gluon.constexpr_function
def pick_layout(rowmajor, num_warps):
    if rowmajor:
        return gl.BlockedLayout([1, 4], [4, 8], [num_warps, 1], [1, 0])
    return gl.BlockedLayout([4, 1], [8, 4], [1, num_warps], [0, 1])
'''


def _qa_line(text: str, which: int | None = None) -> int:
    found = [i for i, line in enumerate(QA_KERNELS.lstrip("\n").splitlines(), 1) if text in line]
    if which is not None:
        return found[which]
    (n,) = found
    return n


def _statuses(tmp_path, cli, kernel: str, target: str, signature: str, *constexprs: str) -> dict[int, tuple]:
    (tmp_path / "qa.py").write_text(QA_KERNELS.lstrip("\n"))
    args = [x for c in constexprs for x in ("--constexpr", c)]
    cache = tmp_path / kernel
    r = cli("compile", f"{tmp_path / 'qa.py'}::{kernel}", "--target", target, "--signature", signature, *args,
            "--cache-dir", str(cache))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", kernel, "--cache-dir", str(cache), "--json").stdout)
    return {w["written"]["line"]: (w["status"], [t["name"] for t in w["resolved"]], w["filled"])
            for w in doc["written"]["layouts"]}


def test_a_slice_merged_into_an_identical_one_is_in_ttgir(tmp_path, cli):
    """Line 11's SliceLayout(1, B) makes the same op as line 8's, which the compiler keeps: none of line 11's
    ops carries it, yet the TTGIR has it (inline, never aliased). It was 'not in TTGIR'."""
    got = _statuses(tmp_path, cli, "cse_kernel", "cuda:90", "x_ptr=*fp32,y_ptr=*fp32", "N=32")
    slice1 = "#ttg.slice<{dim = 1, parent = #blocked}>"
    assert got[_qa_line("r = gl.arange(0, N, layout=gl.SliceLayout(1, B))")] == ("as written", [slice1], {})
    assert got[_qa_line("r2 = gl.arange")] == ("in TTGIR, on no op of its lines", [slice1], {})


@pytest.mark.parametrize("rowmajor", [1, 0])
def test_a_name_bound_in_each_branch_of_an_if(tmp_path, cli, rowmajor):
    """`L` is bound in both branches of a constexpr `if`: the slices of L were matched against the last
    binding only ('differs' when the first branch was compiled), and the branch not taken 'differed'."""
    got = _statuses(tmp_path, cli, "cond_kernel", "cuda:90", "x_ptr=*fp32,y_ptr=*fp32", "N=32",
                    f"ROWMAJOR={rowmajor}")
    first = _qa_line("L: gl.constexpr = gl.BlockedLayout([1, 4]")
    taken, other = (first, first + 2) if rowmajor else (first + 2, first)
    assert got[taken] == ("as written", ["blocked"], {}) and got[other] == ("not in TTGIR", [], {})
    assert got[first + 3][:2] == ("as written", ["#ttg.slice<{dim = 1, parent = #blocked}>"])
    assert got[first + 4][:2] == ("as written", ["#ttg.slice<{dim = 0, parent = #blocked}>"])


def test_helpers_returning_layouts_are_read_where_they_are_called():
    """`H: gl.constexpr = pick_layout(...)` (a `@gluon.constexpr_function` defined below the kernel) binds H
    to what the helper returns: its layouts' uses are the caller's lines (they had none, and the kernel's
    slices had a symbol `H` for a parent)."""
    found = {w.line: w for w in written_layouts(QA_KERNELS.lstrip("\n"))}
    first, second = found[_qa_line("return gl.BlockedLayout([1, 4]")], found[_qa_line("return gl.BlockedLayout([4, 1]")]
    bind, c = _qa_line("H: gl.constexpr = pick_layout"), _qa_line("c = gl.arange(0, N, layout=gl.SliceLayout(0, pick")
    assert first.returned and second.returned and first.name is None
    assert first.uses == second.uses == [bind, bind + 1, c]
    assert found[bind + 1].args["parent"].options == (first, second)  # `H` is either
    assert found[c].args["parent"].options == (first, second)


def test_helpers_returning_a_name_bound_in_branches_a_conditional_or_another_helper():
    """`lay` bound in each branch and returned: only the last binding was returned; `A if c else B` and
    `return inner_layout(...)` (a helper above the one it calls) returned nothing."""
    found = {w.line: w for w in written_layouts(QA_KERNELS.lstrip("\n"))}
    first, second = _qa_line("lay = gl.BlockedLayout([2]"), _qa_line("lay = gl.BlockedLayout([4]")
    wide = _qa_line("return gl.BlockedLayout([4], [32], [num_warps], [0]) if wide")
    assert found[first].returned and found[second].returned and found[wide].returned
    shared = _qa_line("L: gl.constexpr = outer_layout", 0)
    assert shared in found[first].uses and shared in found[second].uses
    assert {"shared_helper_kernel", "zeros_helper_kernel", "inner_layout"} <= set(found[first].use_functions)


def test_a_helpers_layout_is_the_calling_kernels_its_lines_only_and_filled_in_where_hoisted(tmp_path, cli):
    """outer_layout() -> inner_layout(), used by two kernels: each listed the other's lines (and the
    helper's own `return lay`) as its uses; a kernel using it only through `gl.zeros` (a constant with no
    line) did not list it at all; and 'on no op of its lines' filled nothing in."""
    got = _statuses(tmp_path, cli, "zeros_helper_kernel", "cuda:90", "y_ptr=*fp32", "N=512")
    first, second = _qa_line("lay = gl.BlockedLayout([2]"), _qa_line("lay = gl.BlockedLayout([4]")
    assert got[first] == ("in TTGIR, on no op of its lines", ["blocked"], {"warps_per_cta": "[4]"})
    assert got[second] == ("not in TTGIR", [], {})
    doc = json.loads(cli("layout", "zeros_helper_kernel", "--cache-dir", str(tmp_path / "zeros_helper_kernel"),
                         "--json").stdout)
    (row,) = [r for r in doc["written"]["layouts"] if r["written"]["line"] == first]
    zeros = _qa_line("L: gl.constexpr = outer_layout", 1)
    assert row["written"]["uses"] == [zeros, zeros + 2]  # its own kernel's lines, not the helper's


@pytest.mark.parametrize("rowmajor", [1, 0])
def test_a_layout_a_helper_returns_resolves_in_the_kernel_that_calls_it(tmp_path, cli, rowmajor):
    """The helper's layouts were left out of the kernel's (no op has a constexpr_function's lines): the one
    returned resolves where the kernel uses it, its `num_warps` filled in; the other branch is not in TTGIR."""
    got = _statuses(tmp_path, cli, "helper_kernel", "cuda:90", "x_ptr=*fp32,y_ptr=*fp32", "N=32",
                    f"ROWMAJOR={rowmajor}")
    first = _qa_line("return gl.BlockedLayout([1, 4]")
    taken, other = (first, first + 1) if rowmajor else (first + 1, first)
    warps = "[4, 1]" if rowmajor else "[1, 4]"
    assert got[taken] == ("filled in", ["blocked"], {"warps_per_cta": warps})
    assert got[other] == ("not in TTGIR", [], {})
    bind = _qa_line("H: gl.constexpr = pick_layout")
    assert got[bind + 1][:2] == ("as written", ["#ttg.slice<{dim = 1, parent = #blocked}>"])
    assert got[bind + 2][:2] == ("as written", ["#ttg.slice<{dim = 0, parent = #blocked}>"])
    shown = cli("layout", "helper_kernel", "--cache-dir", str(tmp_path / "helper_kernel")).stdout
    assert f"returned by pick_layout() to lines {bind}-{bind + 2}" in shown
    assert "SliceLayout(dim=1, parent=pick_layout(...))" in shown


def test_a_symbolic_layout_converted_to_is_not_the_layout_converted_from(tmp_path, cli):
    """b = BlockedLayout([SPT], ...) matches both sides of `gl.convert_layout(x, b)`: it resolved to both,
    nothing filled in and carried by a's lines too. a (every field written) is the source's."""
    got = _statuses(tmp_path, cli, "convert_kernel", "cuda:90", "x_ptr=*fp32,y_ptr=*fp32", "N=1024", "SPT=4")
    assert got[_qa_line("a: gl.constexpr = gl.BlockedLayout([1], [32]")] == ("as written", ["blocked"], {})
    assert got[_qa_line("b: gl.constexpr = gl.BlockedLayout([SPT]")] == (
        "filled in", ["blocked1"], {"size_per_thread": "[4]"})


def test_padded_shared_layouts_match_on_their_padding_and_offsets(tmp_path, cli):
    """Two padded layouts on one line (a load from one stored into the other): each written one resolved to
    both, whatever its padding; the TTGIR prints identity offsets as order + shape, now compared too."""
    got = _statuses(tmp_path, cli, "pad_kernel", "hip:gfx950", "x_ptr=*fp16,y_ptr=*fp16", "M=64", "K=32")
    identity = "[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]]"
    assert got[_qa_line("p1: gl")] == ("filled in", ["shared"], {"offset_bases": identity})
    assert got[_qa_line("p2: gl")] == ("as written", ["shared1"], {})


SLICE_NARROW = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def slice_narrow_kernel(x_ptr, y_ptr, N: gl.constexpr):
    B: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    offs = gl.arange(0, N, layout=gl.SliceLayout(1, B))
    x = gl.load(x_ptr + offs)
    gl.store(y_ptr + offs, x)
'''


def test_a_written_slice_layout_is_not_blamed_on_the_compiler(tmp_path, cli):
    """In a Gluon kernel the programmer wrote the slice the narrow load takes: its evidence said the layout
    was 'propagated by the compiler's layout passes'; it names the line that writes it."""
    (tmp_path / "s.py").write_text(SLICE_NARROW.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 's.py'}::slice_narrow_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "N=64", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "slice_narrow_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    why = [row["evidence"]["layout-contiguity-1"] for row in doc["rows"]]
    assert len(why) == 2 and all(w.endswith("4-byte accesses at most (a slice layout: written at s.py:8)")
                                 for w in why)


def test_layouts_of_helpers_the_kernel_imports(tmp_path, cli):
    """Triton's Gluon translator imports its layout helpers (`default_blocked_layout`), and so do kernels of
    a package: a kernel whose layouts all came from another module's functions showed '0 layouts written'
    and nothing said why. A module of the kernel's package is read (`import m`, `from m import f as g`, one
    scan for both); Triton's own modules where the installed release is the one that compiled it."""
    (tmp_path / "layouts_of_mine.py").write_text(textwrap.dedent("""\
        from triton.experimental import gluon
        from triton.experimental.gluon import language as gl


        @gluon.constexpr_function
        def ext_layout(num_warps):
            return gl.BlockedLayout([2], [32], [num_warps], [0])
        """))
    (tmp_path / "ext.py").write_text(textwrap.dedent("""\
        from triton.experimental import gluon
        from triton.experimental.gluon import language as gl
        from triton.tools.triton_to_gluon_translator.common_helpers import default_blocked_layout
        import layouts_of_mine as lm
        from layouts_of_mine import ext_layout as EL


        @gluon.jit
        def ext_kernel(x_ptr, y_ptr, N: gl.constexpr):
            L: gl.constexpr = EL(gl.num_warps())
            x = gl.load(x_ptr + gl.arange(0, N, layout=L))
            gl.store(y_ptr + gl.arange(0, N, layout=lm.ext_layout(4)), x)
            T: gl.constexpr = default_blocked_layout([N], gl.num_warps())
            gl.store(y_ptr + gl.arange(0, N, layout=T), gl.convert_layout(x, T))
        """))
    r = cli("compile", f"{tmp_path / 'ext.py'}::ext_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "N=512", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "ext_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)["written"]
    (mine,) = [r for r in doc["layouts"] if r["written"]["file"].endswith("layouts_of_mine.py")]
    (triton_s,) = [r for r in doc["layouts"] if r is not mine]
    assert (mine["written"]["file"], mine["written"]["line"], mine["written"]["uses"]) == (
        str(tmp_path / "layouts_of_mine.py"), 7, [10, 11, 12])
    assert (mine["status"], mine["filled"], mine["source"]) == (
        "filled in", {"warps_per_cta": "[4]"}, "return gl.BlockedLayout([2], [32], [num_warps], [0])")
    # the release that compiled it is the one installed: its translator helper is read from that install
    assert triton_s["written"]["file"].endswith("triton_to_gluon_translator/common_helpers.py")
    assert (triton_s["status"], triton_s["written"]["uses"], doc["notes"]) == ("filled in", [13, 14], [])
    text = cli("layout", "ext_kernel", "--cache-dir", str(tmp_path / "c")).stdout
    assert "written in ext.py and common_helpers.py, layouts_of_mine.py (imported)" in text
    assert "layouts_of_mine.py:7 " in text
    # compiled by another release: Triton's module is not read (the installed one may differ), and said so
    (meta,) = (tmp_path / "c").glob("*/ext_kernel.json")
    doc = json.loads(meta.read_text())
    meta.write_text(json.dumps({**doc, "triton_version": "3.8.0"}))
    doc = json.loads(cli("layout", "ext_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)["written"]
    assert len(doc["layouts"]) == 1 and doc["notes"] == [
        "ext.py:13: T is what triton.tools.triton_to_gluon_translator.common_helpers.default_blocked_layout() "
        "returns, written in another module: the layouts written there are not read"]


def test_modules_of_the_kernels_package_are_found_and_nothing_above_it(tmp_path):
    """The resolver for imported helpers: relative imports from the importing file's package, absolute
    ones from the kernel's folder up its packages; never beyond the folder above the top package (a crafted
    source's `from ......etc import x`, a link out of it: a symlinked module was read and its line shown),
    never Triton's own modules, and within a budget (40 modules of 4 MB each made `layout` hang)."""
    from tritonscope.layouts.gluon import package_modules

    pkg = tmp_path / "proj" / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for f in (pkg / "__init__.py", pkg / "sub" / "__init__.py"):
        f.write_text("")
    (pkg / "util.py").write_text("U = 1\n")
    (tmp_path / "secret.py").write_text("S = 1\n")
    resolve = package_modules(str(pkg / "sub" / "k.py"))
    assert resolve("util", 2, None) == (str(pkg / "util.py"), "U = 1\n")
    assert resolve("pkg.util", 0, None) == (str(pkg / "util.py"), "U = 1\n")
    assert resolve("secret", 4, None) is None and resolve("secret", 0, None) is None
    assert resolve("triton.language.standard", 0, None) is None
    # a link whose real path leaves the tree (a module, or a folder on the way) is not read
    (pkg / "linked.py").symlink_to(tmp_path / "secret.py")
    (pkg / "out").symlink_to(tmp_path, target_is_directory=True)
    assert resolve("linked", 2, None) is None and resolve("out.secret", 2, None) is None
    # a budget for one kernel: 1 MiB a module, 32 modules
    (pkg / "big.py").write_text("#" * (1 << 20) + "\n")
    assert resolve("big", 2, None) is None
    for i in range(40):
        (pkg / f"m{i}.py").write_text("M = 1\n")
    found = [resolve(f"m{i}", 2, None) for i in range(40)]
    assert sum(f is not None for f in found) == 32 - 2  # (util.py and pkg.util read above)
    # Triton's own modules from the install of the release that compiled it, never its language packages
    site = tmp_path / "site"
    for sub in ("tools", "language"):
        (site / "triton" / sub).mkdir(parents=True)
        (site / "triton" / sub / "h.py").write_text("H = 1\n")
    (site / "triton" / "tools" / "evil.py").symlink_to(tmp_path / "secret.py")
    with_triton = package_modules(str(pkg / "sub" / "k.py"), site)
    assert with_triton("triton.tools.h", 0, None) == (str(site / "triton" / "tools" / "h.py"), "H = 1\n")
    assert with_triton("triton.language.h", 0, None) is None and with_triton("triton.tools.evil", 0, None) is None
    assert with_triton("h", 1, str(site / "triton" / "tools" / "x.py"))[0] == str(site / "triton" / "tools" / "h.py")


def test_loads_does_not_blame_a_coalesce_pass_gluon_does_not_run(tmp_path, cli):
    """A Gluon kernel's layouts are its programmer's: Gluon runs no coalesce pass. An unaligned argument
    said `the coalesce pass therefore gave the layout 1 contiguous element per thread`."""
    src = tmp_path / "gk.py"
    src.write_text(USER_KERNEL.replace("BlockedLayout([4], [32]", "BlockedLayout([1], [32]"))
    proc = cli("compile", f"{src}::copy_kernel", "--signature", "src_ptr=*fp32,dst_ptr=*fp32,n=i32",
               "--constexpr", "BLOCK=512", "--target", "cuda:90", "--no-specialize", "src_ptr",
               "--cache-dir", str(tmp_path / "c"))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(cli("loads", "copy_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    load = next(r for r in doc["rows"] if r["op"] == "tt.load")
    assert "unknown-alignment" in load["reasons"]
    said = load["evidence"]["unknown-alignment"]
    assert "coalesce" not in said and said.endswith("the compiler cannot prove 16-byte alignment")


PASSED_KERNELS = textwrap.dedent("""\
    import importlib

    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl

    hm = importlib.import_module("helpmod")


    @gluon.jit
    def helper(ptr, layout: gl.constexpr):
        offs = gl.arange(0, 128, layout=layout)
        gl.store(ptr + offs, 1.0)


    @gluon.jit
    def worker(ptr):
        pass


    @gluon.jit
    def k_direct(ptr):
        layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
        helper(ptr, layout)


    @gluon.jit
    def k_ws(ptr):
        layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
        gl.warp_specialize([(helper, (ptr, layout)), (worker, (ptr,))], [1], [24])


    @gluon.jit
    def k_multiline(ptr):
        layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
        offs = gl.arange(
            0,
            128,
            layout=layout,
        )
        gl.store(ptr + offs, 1.0)


    @gluon.jit
    def k_imported(ptr, num_warps: gl.constexpr):
        layout: gl.constexpr = hm.pick_layout(num_warps)
        offs = gl.arange(0, 128, layout=layout)
        gl.store(ptr + offs, 1.0)
    """)

HELPMOD = textwrap.dedent("""\
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl


    @gluon.constexpr_function
    def pick_layout(num_warps):
        return gl.BlockedLayout([1], [32], [num_warps], [0])
    """)


@pytest.mark.parametrize("kernel,where,carried", [
    ("k_ws", "kernels.py:28", "carried by lines 11-12"),  # a warp-specialized partition's arguments: its lines
    ("k_direct", "kernels.py:22", "carried by lines 11-12, 23"),
    ("k_multiline", "kernels.py:34", "carried by lines 35, 40"),  # the name on the 4th line of line 35's call
    ("k_imported", "helpmod.py:7", "carried by lines 46-47"),  # importlib.import_module("helpmod").pick_layout
])
def test_layouts_passed_on_spread_over_a_call_or_imported_by_importlib(tmp_path, cli, kernel, where, carried):
    """A layout given to a warp-specialized partition (its ops carry no call site), named on a later line of
    a call spread over several, or returned by a helper of a module imported with importlib.import_module
    (Triton's tutorials import each other so) was `on no op of its lines`, or not read at all."""
    (tmp_path / "kernels.py").write_text(PASSED_KERNELS)
    (tmp_path / "helpmod.py").write_text(HELPMOD)
    proc = cli("compile", f"{tmp_path / 'kernels.py'}::{kernel}", "--signature", "ptr=*fp32", "--target", "cuda:90",
               "--cache-dir", str(tmp_path / "c"), *(["--constexpr", "num_warps=4"] if kernel == "k_imported" else []))
    assert proc.returncode == 0, proc.stderr
    shown = cli("layout", kernel, "--cache-dir", str(tmp_path / "c"))
    assert shown.returncode == 0, shown.stderr
    assert "1 layout written in kernels.py" in shown.stdout.splitlines()[0]
    assert f"\n{where} " in shown.stdout and carried in shown.stdout, shown.stdout


def test_a_chain_of_helpers_thousands_long_is_read_without_recursion():
    # r0() returns r1(), ..., r2999() returns a BlockedLayout: RecursionError (an internal error in layout
    # and report) from about 1000 on
    from tritonscope.layouts.written import scan

    n = 3000
    source = "\n".join(["from triton.experimental import gluon", "from triton.experimental.gluon import language as gl",
                        "@gluon.jit", "def k(x):", "    L: gl.constexpr = r0()", "    gl.arange(0, 128, layout=L)"]
                       + [f"def r{i}():\n    return r{i + 1}()" for i in range(n)]
                       + [f"def r{n}():\n    return gl.BlockedLayout([1], [32], [4], [0])"]) + "\n"
    [layout] = scan(source).layouts
    assert layout.cls == "BlockedLayout" and 5 in layout.uses


AGGREGATE = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier
from lay_helpers import SHARED_BLK


@gluon.aggregate
class Conf:
    N: gl.constexpr
    row_layout: gl.constexpr

    @gluon.constexpr_function
    def __init__(self, N):
        self.N = gl.constexpr(N)
        self.row_layout = gl.constexpr(gl.BlockedLayout([1, 2], [4, 8], [4, 1], [1, 0]))

    @gluon.jit
    def offs(self, layout: gl.constexpr):
        r = gl.arange(0, self.N, layout=gl.SliceLayout(1, layout))
        c = gl.arange(0, 16, layout=gl.SliceLayout(0, layout))
        return r[:, None] * 16 + c[None, :]


@gluon.jit
def agg_kernel(x_ptr, y_ptr, N: gl.constexpr):
    cfg = Conf(N)
    x = gl.load(x_ptr + cfg.offs(cfg.row_layout))
    y = gl.load(y_ptr + cfg.offs(SHARED_BLK))
    gl.store(x_ptr + cfg.offs(cfg.row_layout), gl.convert_layout(y, cfg.row_layout) + x)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.invalidate(bar)
'''


def test_layouts_of_an_aggregate_an_imported_module_and_mbarriers(tmp_path, cli):
    """Helper 50's kernels: a layout an aggregate's `__init__` binds to `self.row_layout` (read as
    `cfg.row_layout`), one another module binds at its top level (`from lay_helpers import SHARED_BLK`), and
    `mbarrier.MBarrierLayout()` (a swizzled layout of fixed fields) were missing from `layout`'s written list."""
    (tmp_path / "lay_helpers.py").write_text(
        "from triton.experimental.gluon import language as gl\n"
        "SHARED_BLK = gl.constexpr(gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]))\n")
    (tmp_path / "agg.py").write_text(AGGREGATE.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'agg.py'}::agg_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "N=32", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "agg_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    rows = {(row["written"]["file"] and Path(row["written"]["file"]).name, row["written"]["line"]): row
            for row in doc["written"]["layouts"]}
    row = rows[(None, 15)]  # self.row_layout = ...
    assert (row["written"]["name"], row["status"], [t["name"] for t in row["resolved"]]) == (
        "self.row_layout", "as written", ["blocked"])
    assert {27, 29} <= set(row["on_lines"])
    row = rows[("lay_helpers.py", 2)]
    assert (row["status"], row["resolved"][0]["text"]) == (
        "as written", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
                      "order = [1, 0]}>")
    assert 28 in row["on_lines"]
    row = rows[(None, 30)]  # MBarrierLayout()
    assert (row["written"]["class"], row["status"], row["resolved"][0]["text"]) == (
        "MBarrierLayout", "as written", "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>")


ROWSUM = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def rowsum_kernel(x_ptr, y_ptr):
    L: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    S: gl.constexpr = gl.SliceLayout(1, L)
    r = gl.arange(0, 32, layout=S)
    c = gl.arange(0, 16, layout=gl.SliceLayout(0, L))
    x = gl.load(x_ptr + r[:, None] * 16 + c[None, :])
    s = gl.sum(x, axis=1)
    gl.store(y_ptr + r, s)
'''


def test_a_reductions_result_layout_is_carried_by_its_line(tmp_path, cli):
    """`gl.sum(x, axis=1)`'s result is `#slice<{dim = 1, ...}>`, a type TTGIR prints on the tt.reduce's closing
    line (`}) : (...) -> tensor<32xf32, #ttg.slice<...>>`), not its first: line 12 was missing from the
    lines carrying S, though its tensor was among S's uses."""
    (tmp_path / "rowsum.py").write_text(ROWSUM.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'rowsum.py'}::rowsum_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "rowsum_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    (row,) = [w for w in doc["written"]["layouts"] if w["written"]["name"] == "S"]
    assert row["status"] == "as written" and 12 in row["on_lines"], row["on_lines"]


TWO_CLASSES = '''
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.aggregate
class Inner:
    layout: gl.constexpr

    @gluon.constexpr_function
    def __init__(self):
        self.layout = gl.constexpr(gl.BlockedLayout([1, 1], [2, 16], [4, 1], [1, 0]))


@gluon.aggregate
class Unused:
    layout: gl.constexpr

    @gluon.constexpr_function
    def __init__(self):
        self.layout = gl.constexpr(gl.BlockedLayout([4, 1], [4, 8], [4, 1], [0, 1]))


@gluon.aggregate
class Outer:
    inner: Inner

    @gluon.constexpr_function
    def __init__(self):
        self.inner = Inner()


@gluon.jit
def offs(layout: gl.constexpr):
    r = gl.arange(0, 32, layout=gl.SliceLayout(1, layout))
    c = gl.arange(0, 16, layout=gl.SliceLayout(0, layout))
    return r[:, None] * 16 + c[None, :]


@gluon.jit
def nested_kernel(x_ptr):
    o = Outer()
    x = gl.load(x_ptr + offs(o.inner.layout))
    gl.store(x_ptr + offs(o.inner.layout), x + 1)
    z = gl.load(x_ptr + offs(gl.BlockedLayout([4, 1], [4, 8], [4, 1], [0, 1])))
    gl.store(x_ptr + offs(gl.BlockedLayout([4, 1], [4, 8], [4, 1], [0, 1])), z)
'''


def test_an_aggregate_attribute_is_the_class_its_receiver_is(tmp_path, cli):
    """Helper 53: two classes binding `self.layout`: reads were matched by the attribute's name alone, so
    the class never built (`Unused`) was 'carried' by the lines reading `o.inner.layout`; and `layout`, an
    attribute every descriptor has, was read nowhere but on `self`, so `Inner`'s was left out."""
    (tmp_path / "nested.py").write_text(TWO_CLASSES.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'nested.py'}::nested_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "nested_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    rows = {w["written"]["line"]: w for w in doc["written"]["layouts"]}
    assert (rows[11]["written"]["name"], rows[11]["status"], rows[11]["written"]["uses"]) == (
        "self.layout", "as written", [42, 43])
    assert 20 not in rows  # Unused's: built nowhere (the inline layouts of lines 44-45 are its fields)


def test_the_report_lists_the_written_layouts_as_layout_does(tmp_path, cli):
    """Helper 54: the page's Layouts panel had the TTGIR's cards only, never what the source writes (status,
    what it became, the lines carrying it), which `layout` says for every Gluon kernel."""
    import html as htmllib
    import re

    (tmp_path / "rowsum.py").write_text(ROWSUM.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'rowsum.py'}::rowsum_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "rowsum_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    written = doc["written"]["layouts"]
    out = tmp_path / "r.html"
    assert cli("report", "rowsum_kernel", "--cache-dir", str(tmp_path / "c"), "-o", str(out)).returncode == 0
    section = re.search(r'<section class="written">(.*?)</section>', out.read_text(), re.S)
    assert section and f"Written in the source ({len(written)})" in section.group(1)
    items = [htmllib.unescape(re.sub(r"<[^>]+>", "", li)) for li in re.findall(r"<li>(.*?)</li>", section.group(1))]
    assert len(items) == len(written)
    for item, w in zip(items, written, strict=True):
        assert item.startswith(f"line {w['written']['line']} {w['written']['text']}: {w['status']}"), item
        if w["on_lines"]:
            assert item.endswith("carried by lines " + ", ".join(map(str, w["on_lines"]))), item


def test_a_layout_module_declaring_its_encoding_is_read(tmp_path, cli):
    """Helper 56: a module of the package declaring latin-1 (a byte 0xe9 in a comment) imports in Python, but
    was read as UTF-8 and skipped: its layout was missing from the written list, with no note."""
    (tmp_path / "lay_helpers.py").write_bytes(
        b"# -*- coding: latin-1 -*-\n# caf\xe9\nfrom triton.experimental.gluon import language as gl\n"
        b"SHARED_BLK = gl.constexpr(gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]))\n")
    (tmp_path / "agg.py").write_text(AGGREGATE.lstrip("\n"))
    r = cli("compile", f"{tmp_path / 'agg.py'}::agg_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "N=32", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "agg_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    (row,) = [w for w in doc["written"]["layouts"] if (w["written"]["file"] or "").endswith("lay_helpers.py")]
    assert (row["written"]["line"], row["status"]) == (4, "as written")
    out = tmp_path / "r.html"
    r = cli("report", "agg_kernel", "--cache-dir", str(tmp_path / "c"), "--no-source", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "<h3>Written in the source</h3>" in out.read_text()  # (not read: no count of 0 said)


COMPUTED = '''\
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, allocate_tensor_memory


@gluon.jit
def computed_kernel(x_ptr, y_ptr, L: gl.constexpr, VERSION: gl.constexpr):
    x = gl.load(x_ptr + gl.arange(0, 128, layout=L))
    gl.store(x_ptr + gl.arange(0, 128, layout=L), x * 2)
    acc = allocate_tensor_memory(gl.float32, [128, 64], TensorMemoryLayout((128, 64), col_stride=VERSION))
    reg: gl.constexpr = acc.get_reg_layout()
    v = acc.load(reg)
    rows = gl.arange(0, 128, gl.SliceLayout(1, reg))
    cols = gl.arange(0, 64, gl.SliceLayout(0, reg))
    gl.store(y_ptr + rows[:, None] * 64 + cols[None, :], v)
'''


def test_layouts_computed_while_compiling_are_said_not_read(cli, tmp_path):
    """Helper 61: a layout the kernel takes as a constexpr parameter (the launch's) and one a method returns
    (`acc.get_reg_layout()`) were left out of the written layouts without a word (`notes == []`). Each is now
    a note naming its line and the lines using it; a parameter that is a field's value (`col_stride=VERSION`)
    is no layout and said of nothing."""
    (tmp_path / "comp.py").write_text(COMPUTED)
    r = cli("compile", f"{tmp_path / 'comp.py'}::computed_kernel", "--target", "cuda:100", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "L=gl.BlockedLayout([1], [32], [4], [0])", "--constexpr",
            "VERSION=1", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "computed_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    assert doc["written"]["notes"] == [
        "comp.py:8: L, a parameter of computed_kernel, is used as a layout on lines 8, 9: its value is the "
        "launch's, not read from the source (the TTGIR's layouts on those lines are what it was)",
        "comp.py:11: reg is what acc.get_reg_layout() returns, a method run while compiling: not read from the "
        "source (the TTGIR's layouts on lines 12, 13, 14, which use it, are what it returned)"]
    assert [(w["written"]["line"], w["status"]) for w in doc["written"]["layouts"]] == [
        (10, "filled in"), (13, "filled in"), (14, "filled in")]
    text = cli("layout", "computed_kernel", "--cache-dir", str(tmp_path / "c"), "--no-picture").stdout
    assert "note: comp.py:11: reg is what acc.get_reg_layout() returns" in text


BARRIERS = '''\
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier


@gluon.jit
def bars_kernel(x_ptr, STAGES: gl.constexpr):
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    done = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)
    mbarrier.init(done, count=1)
    offs = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.store(x_ptr + offs, gl.load(x_ptr + offs) + 1)
'''


def test_a_written_layout_is_described_by_the_tensor_of_its_own_line(cli, tmp_path):
    """Helper 61: two MBarrierLayout() of one TTGIR layout, a [3, 1] and a [1] allocation: both lines said
    "3x1 i64: in shared memory, 3 consecutive elements" (the largest tensor with the layout), the [1] one's
    too. Each is described by the tensor its own line allocates."""
    (tmp_path / "bars.py").write_text(BARRIERS)
    r = cli("compile", f"{tmp_path / 'bars.py'}::bars_kernel", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
            "--constexpr", "STAGES=3", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "bars_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)["written"]
    shapes = {w["written"]["line"]: [t["shape"] for t in w["resolved"]] for w in doc["layouts"]}
    assert shapes == {8: [[3, 1]], 9: [[1]], 13: [[128]]}, shapes
    text = cli("layout", "bars_kernel", "--cache-dir", str(tmp_path / "c"), "--no-picture").stdout
    assert "1 i64: in shared memory, 1 consecutive element along dim 0" in text, text


def test_a_line_converting_to_a_written_layout_carries_only_the_converted_one():
    """Helper 68 (Triton's Gluon attention example, `gl.convert_layout(x.reshape([N]), layout)` with `layout`
    a DistributedLinearLayout its helper computes): the reshape's inferred #linear5 on the same line matched
    the written layout as well as the convert's #linear1, and a convert's operand type (its producer's layout)
    counted for its line. A line converting to a layout the written one matches uses that one there."""
    from tritonscope.layouts.gluon import written_vs_resolved

    src = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl


        def k(x, R: gl.constexpr, W: gl.constexpr):
            L: gl.constexpr = gl.DistributedLinearLayout(R, [[1], [2], [4], [8], [16]], W, [], [128])
            y = gl.convert_layout(x.reshape([128]), L)
        """)
    head = textwrap.dedent("""\
        #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1,0]}>
        #linear5 = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[64], [32]], block = []}>
        #linear1 = #ttg.linear<{register = [], lane = [[1], [2], [4], [8], [16]], warp = [[32], [64]], block = []}>
        module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
          tt.func public @k(%x: tensor<2x64xf32, #blocked> loc("x"(#loc1))) attributes {noinline = false} {
        """)
    tail = textwrap.dedent("""\
            tt.return loc(#loc4)
          } loc(#loc1)
        } loc(#loc)
        #loc = loc(unknown)
        #loc1 = loc("/src/k.py":4:0)
        #loc2 = loc("/src/k.py":6:28)
        #loc3 = loc("/src/k.py":6:8)
        #loc4 = loc("/src/k.py":6:4)
        """)
    ops = ("    %r = tt.reshape %x : tensor<2x64xf32, #blocked> -> tensor<128xf32, #linear5> loc(#loc2)\n"
           "    %c = ttg.convert_layout %r : tensor<128xf32, #linear5> -> tensor<128xf32, #linear1> loc(#loc3)\n")
    (r,) = written_vs_resolved(src, "/src/k.py", head + ops + tail, None, "k")
    assert (r.written.line, r.status, [t.name for t in r.resolved]) == (5, "filled in", ["linear1"])
    # without the convert, what the line's ops hold is all there is to go by: both
    ops = ops.splitlines(keepends=True)[0] + "    %c = arith.addf %r, %r : tensor<128xf32, #linear5> loc(#loc3)\n"
    (r,) = written_vs_resolved(src, "/src/k.py", head + ops + tail, None, "k")
    assert [t.name for t in r.resolved] == ["linear5"]


def test_a_layout_on_no_op_of_its_lines_fitting_several_names_no_lines():
    """Helper 68: a `SliceLayout(1, config.qk_layout)` whose op Triton hoisted to no line was "in TTGIR, on no
    op of its lines" with five dim-1 slices of the kernel and the lines of all five as "carried by": lines of
    another partition it never reached. Fitting several, it says one of them, and claims none of their lines."""
    from tritonscope.layouts.gluon import ELSEWHERE, ONE_OF, one_of, resolution_json, written_vs_resolved

    src = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl


        def k(x, P: gl.constexpr):
            S: gl.constexpr = gl.SliceLayout(1, P)
            y = gl.full([128], 0.0, gl.float32, S)
            z = x + 1
        """)
    ttgir = textwrap.dedent("""\
        #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1,0]}>
        #blocked1 = #ttg.blocked<{sizePerThread = [1,1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0,1]}>
        module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
          tt.func public @k(%x: tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> loc("x"(#loc1))) {
            %c = arith.constant dense<0.0> : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc)
            %z = arith.addf %x, %x : tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked1}>> loc(#loc3)
            tt.return loc(#loc3)
          } loc(#loc1)
        } loc(#loc)
        #loc = loc(unknown)
        #loc1 = loc("/src/k.py":4:0)
        #loc3 = loc("/src/k.py":7:8)
        """)
    (r,) = written_vs_resolved(src, "/src/k.py", ttgir, None, "k")
    assert r.status == ELSEWHERE and len(r.resolved) == 2 and r.on_lines == [], (r.status, r.resolved, r.on_lines)
    assert one_of(resolution_json(r, None)) and "no op of its lines says which" in ONE_OF


def test_layouts_taken_from_values_and_aggregate_methods_are_said_not_read():
    """Helper 68 (Triton's attention example): an aggregate's `self.qk_layout = gl.constexpr(ty.get_reg_layout())`
    read as `config.qk_layout`, and `x.type.layout` (another value's layout) used as a layout, were left out
    without a word. Each is a note: the binding's line and the lines using it; a value's layout once per
    function, with its lines."""
    from tritonscope.layouts.written import scan, unread_notes

    src = textwrap.dedent("""\
        from triton.experimental import gluon
        from triton.experimental.gluon import language as gl


        @gluon.aggregate
        class Config:
            qk_layout: gl.constexpr

            @gluon.constexpr_function
            def __init__(self, ty):
                self.qk_layout = gl.constexpr(ty.get_reg_layout(num_warps=4))


        @gluon.jit
        def tile(config, x, m_i):
            s: gl.constexpr = gl.SliceLayout(1, config.qk_layout)
            y = gl.convert_layout(x, m_i.type.layout)
            z = gl.convert_layout(y, gl.SliceLayout(1, m_i.type.layout))
            return gl.arange(0, 16, layout=s)
        """)
    notes = unread_notes(scan(src).unread, "k.py")
    assert notes == [
        "k.py:11: Config.qk_layout is what ty.get_reg_layout(num_warps=4) returns, a method run while compiling: not "
        "read from the source (the TTGIR's layouts on line 16, which uses it, are what it returned)",
        "k.py:17: m_i.type.layout, another value's layout, is used as a layout on lines 17, 18: what Triton gave that "
        "value, not read from the source"], notes


def test_written_layout_advice_never_suggests_replicating_elements(cli, tmp_path):
    """Helper 68: a store of 128 f32 over a written BlockedLayout([1], [32], [4], [0]) (128 threads: one element
    each) was told "size_per_thread=[4] would give 16-byte vectors" beside `one-per-thread`: four elements a
    thread over 128 threads is a 512-wide tile, each element held four times. The advice now says so."""
    (tmp_path / "bars.py").write_text(BARRIERS)
    r = cli("compile", f"{tmp_path / 'bars.py'}::bars_kernel", "--target", "cuda:90", "--signature", "x_ptr=*fp32",
            "--constexpr", "STAGES=3", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "bars_kernel", "--cache-dir", str(tmp_path / "c"), "--json", "--no-sass").stdout)
    rows = [r for r in doc["rows"] if r["line"] == 14 and r["kind"] in ("global_load", "global_store")]
    assert len(rows) == 2
    for row in rows:
        advice = row["evidence"]["written-layout"]
        assert "would give 16-byte vectors" not in advice, advice
        assert advice.endswith("the tensor has 128 elements along dim 0: over the layout's 128 threads there a wider "
                               "size_per_thread would replicate them; fewer threads along dim 0 would give wider "
                               "vectors"), advice


def test_written_layout_advice_says_elements_replicated_already(cli, tmp_path):
    """Helper 122: Triton's AMD MFMA test kernel loads a 32x16 f16 tile through a BlockedLayout of
    size_per_thread [4, 4] over 16 threads along dim 1 (64 wide): its elements are replicated 4 times, and
    the advice said "a wider size_per_thread would replicate them"."""
    from pathlib import Path

    src = Path(__file__).parent / "data" / "loads" / "gluon_mfma.py"
    r = cli("compile", f"{src}::mfma_kernel", "--target", "hip:gfx942", "--signature",
            "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp16,stride_am=i32,stride_ak=i32:1,stride_bk=i32,stride_bn=i32:1,"
            "stride_cm=i32,stride_cn=i32:1", "--constexpr", "BLOCK_SIZE_M=32", "--constexpr", "BLOCK_SIZE_N=32",
            "--constexpr", "BLOCK_SIZE_K=16", "--constexpr", "NUM_WARPS=4", "--constexpr", "KDIM=8",
            "--constexpr", "K_WIDTH=4", "--constexpr", "VER=3", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "mfma_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    (row,) = [r for r in doc["rows"] if r["line"] == 29]  # a = buffer_load(a_ptr, offs_a): 32x16 f16
    advice = row["evidence"]["written-layout"]
    assert advice.endswith("the tensor has 16 elements along dim 1: its 16 threads there x 4 span 64, so its "
                           "elements are replicated already; fewer threads along dim 1 would give wider vectors"), \
        advice


CONVERT_AND_ARANGE = '''\
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def g_kernel(x_ptr, y_ptr, SPT: gl.constexpr):
    S: gl.constexpr = gl.BlockedLayout([SPT], [32], [4], [0])
    offs = gl.arange(0, 512, layout=gl.BlockedLayout([2], [32], [4], [0]))
    x = gl.load(x_ptr + offs)
    y = gl.convert_layout(x, gl.BlockedLayout([4], [32], [4], [0])); o = gl.arange(0, 512, layout=S)
    gl.store(y_ptr + offs, gl.convert_layout(y, offs.type.layout) + gl.convert_layout(o, offs.type.layout))
'''


def test_a_line_converting_to_another_layout_keeps_the_written_ones_own(cli, tmp_path):
    """Helper 71: the convert preference (a line converting to a layout that fits uses that one) took any
    convert of the line: `S` (size_per_thread=[SPT]), used by an arange on a line that also converts to a
    [4]-per-thread layout, resolved to that convert's #blocked1, "filled in (size_per_thread=[4])". Only a line
    converting to the written layout itself prefers the convert's result."""
    (tmp_path / "g2.py").write_text(CONVERT_AND_ARANGE)
    r = cli("compile", f"{tmp_path / 'g2.py'}::g_kernel", "--target", "cuda:90", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "SPT=1", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("layout", "g_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)["written"]
    got = {w["written"]["line"]: ([t["text"] for t in w["resolved"]], w["filled"]) for w in doc["layouts"]}
    (s_layouts, filled) = got[7]
    assert len(s_layouts) == 1 and "sizePerThread = [1]" in s_layouts[0] and filled == {"size_per_thread": "[1]"}, got
    assert "sizePerThread = [4]" in got[10][0][0]


def test_attribute_layout_notes_follow_the_receivers_class():
    """Helper 71, on the notes of layouts taken from attributes: an aggregate's written `self.layout` read as
    `cfg.layout` was also "another value's layout ... not read"; class A's computed `self.reg` was said of
    class B's written `b.reg`; a class binding `self.reg` to a method's result in both arms of an `if` had no
    note. Each attribute is judged by its receiver's class, once every class is read."""
    from tritonscope.layouts.written import scan, unread_notes

    src = textwrap.dedent("""\
        from triton.experimental import gluon
        from triton.experimental.gluon import language as gl


        @gluon.jit
        def kernel(x, h):
            cfg = Cfg(4)
            b = B(4)
            a = A(h, True)
            u = gl.arange(0, 256, layout=cfg.layout)
            v = gl.arange(0, 256, layout=b.reg)
            w = gl.arange(0, 256, layout=a.reg)


        @gluon.aggregate
        class Cfg:
            layout: gl.constexpr

            @gluon.constexpr_function
            def __init__(self, warps):
                self.layout = gl.constexpr(gl.BlockedLayout([2], [32], [warps], [0]))


        @gluon.aggregate
        class B:
            reg: gl.constexpr

            @gluon.constexpr_function
            def __init__(self, warps):
                self.reg = gl.constexpr(gl.BlockedLayout([1], [32], [warps], [0]))


        @gluon.aggregate
        class A:
            reg: gl.constexpr

            @gluon.constexpr_function
            def __init__(self, h, wide):
                if wide:
                    self.reg = gl.constexpr(h.make(2))
                else:
                    self.reg = gl.constexpr(h.make(1))
        """)
    assert unread_notes(scan(src).unread, "k.py") == [
        "k.py:40: A.reg is what h.make(2) returns, a method run while compiling: not read from the source (the "
        "TTGIR's layouts on line 12, which uses it, are what it returned)"]


def test_a_source_nested_too_deeply_for_the_layout_reading_is_said(cli, tmp_path):
    """Helper 71: a Gluon file with an unrelated 1000-term expression (Python compiles it; the AST walk
    recursed past the interpreter's limit) stopped `layout`, `loads` and `report` with `internal error:
    RecursionError`. The written layouts are said not to be read; the rest of each command goes on."""
    body = COMPUTED.replace("from triton.experimental.gluon.language.nvidia.blackwell import", "import sys\nfrom "
                            "triton.experimental.gluon.language.nvidia.blackwell import", 1)
    deep = "\n\ndef unrelated(a):\n    return " + " + ".join(["a"] * 1000) + "\n"
    (tmp_path / "comp.py").write_text(body + deep)
    r = cli("compile", f"{tmp_path / 'comp.py'}::computed_kernel", "--target", "cuda:100", "--signature",
            "x_ptr=*fp32,y_ptr=*fp32", "--constexpr", "L=gl.BlockedLayout([1], [32], [4], [0])", "--constexpr",
            "VERSION=1", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    for args in (("layout", "--json"), ("loads", "--json", "--no-sass"),
                 ("report", "-o", str(tmp_path / "r.html"))):
        p = cli(args[0], "computed_kernel", "--cache-dir", str(tmp_path / "c"), *args[1:])
        assert p.returncode == 0 and "internal error" not in p.stderr, (args, p.stderr[-500:])
    doc = json.loads(cli("layout", "computed_kernel", "--cache-dir", str(tmp_path / "c"), "--json").stdout)
    assert doc["written"]["error"] == f"{tmp_path / 'comp.py'}: an expression nests too deeply for its layouts to " \
        "be read", doc["written"]


def _allocs_module(aliases: list[str], allocs: list[tuple[str, str, int]],
                   ops: list[tuple[str, int]] = ()) -> str:
    """A TTGIR module of `k` (/src/k.py, line 4) holding one `ttg.local_alloc` per (memdesc shape and type,
    layout alias, source line of /src/k.py), under `aliases` (`ttng.tmem_alloc` for a `tmem` alias: the
    allocations are `%v0`, `%v1`, ...), then `ops` (op text, source line)."""
    def alloc(shape: str, alias: str) -> str:
        if alias.startswith("tmem"):
            return f"ttng.tmem_alloc : () -> !ttg.memdesc<{shape}, #{alias}, #ttng.tensor_memory, mutable>"
        return f"ttg.local_alloc : () -> !ttg.memdesc<{shape}, #{alias}, #smem, mutable>"

    body = [(f"%v{i} = {alloc(shape, alias)}", line) for i, (shape, alias, line) in enumerate(allocs)] + list(ops)
    lines = "".join(f"    {text} loc(#loc{i + 2})\n" for i, (text, _) in enumerate(body))
    locs = "".join(f'#loc{i + 2} = loc("/src/k.py":{line}:8)\n' for i, (_, line) in enumerate(body))
    return ("\n".join(aliases) + "\n#smem = #ttg.shared_memory\n"
            'module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {\n'
            "  tt.func public @k() attributes {noinline = false} {\n" + lines +
            "    tt.return loc(#loc1)\n  } loc(#loc1)\n} loc(#loc)\n#loc = loc(unknown)\n"
            '#loc1 = loc("/src/k.py":4:0)\n' + locs)


def test_two_written_layouts_of_one_ttgir_layout_are_each_described_by_their_own_buffers():
    """Helper 79 (Triton's test_warpgroup_mma_wait multi-warpgroup kernel): `smem_a` and `smem_b`, two
    NVMMASharedLayout.get_default_for calls that become one #shared, were both described by the largest
    buffer (a_smem's 128x64): smem_b's own buffers are 64x64."""
    from tritonscope.layouts.gluon import written_vs_resolved

    src = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl


        def k(M: gl.constexpr, D: gl.constexpr):
            smem_b: gl.constexpr = gl.NVMMASharedLayout.get_default_for([D, D], gl.bfloat16)
            smem_a: gl.constexpr = gl.NVMMASharedLayout.get_default_for([M, D], gl.bfloat16)
            a = gl.allocate_shared_memory(gl.bfloat16, [M, D], smem_a)
            b = gl.allocate_shared_memory(gl.bfloat16, [D, D], smem_b)
        """)
    ttgir = _allocs_module([
        "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
    ], [("128x64xbf16", "shared", 7), ("64x64xbf16", "shared", 8)])
    b, a = written_vs_resolved(src, "/src/k.py", ttgir, None, "k")
    assert [t.name for t in b.resolved] == ["shared"] == [t.name for t in a.resolved]
    assert (b.written.line, b.resolved[0].shape) == (5, (64, 64))
    assert (a.written.line, a.resolved[0].shape) == (6, (128, 64))


def test_a_positional_cta_argument_is_shown_and_an_element_of_a_helpers_tuple_is_said_unread():
    """Helper 79 (Triton's Gluon tests): `BlockedLayout([1], [32], [W], [0], _make_cga_broadcast(1, N))`'s
    fifth argument vanished from 'written' (a keyword one was listed); `layouts = create_shared_layouts(...)`
    then `layouts[0]` as a layout was left out with no word."""
    from tritonscope.layouts.attrs import parse_layout
    from tritonscope.layouts.gluon import matches
    from tritonscope.layouts.written import scan, unread_notes

    src = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl


        @gl.constexpr_function
        def shared_pair():
            return (gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), gl.SwizzledSharedLayout(4, 1, 1, [1, 0]))


        def k(W: gl.constexpr, N: gl.constexpr):
            b: gl.constexpr = gl.BlockedLayout([1], [32], [W], [0], cga(1, N))
            layouts: gl.constexpr = shared_pair()
            s = gl.allocate_shared_memory(gl.float16, [16, 16], layouts[0])
        """)
    found = scan(src)
    blocked = next(w for w in found.layouts if w.cls == "BlockedLayout")
    assert blocked.to_json()["args"]["argument 5"] == {"symbol": "cga(1, N)"}
    assert matches(blocked, parse_layout("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                                         "warpsPerCTA = [4], order = [0]}>"))
    (note,) = [n for n in unread_notes(found.unread, "k.py") if "layouts[0]" in n]
    assert note.startswith("k.py:12: layouts[0], an element of a value the source computes")


def test_a_helper_called_with_two_ranks_ties_each_written_rank_to_its_own_layout():
    """Helper 79 (Triton's test_nvmma_layout_rank_mangling): `rank2` and `rank3`, passed to one helper that
    allocates with each, both resolved to #shared and #shared1: the rank was no field compared. A rank-2
    layout is not the one printing `rank = 3`; a rank-3 one is that one rather than one printing none."""
    from tritonscope.layouts.gluon import written_vs_resolved

    src = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl


        def k():
            r2: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=2)
            r3: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=3)
            a = gl.allocate_shared_memory(gl.float16, [16, 16], r2)
            b = gl.allocate_shared_memory(gl.float16, [2, 16, 16], r3)
        """)
    ttgir = _allocs_module([
        "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>",
        "#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16, "
        "rank = 3}>",
    ], [("16x16xf16", "shared", 7), ("2x16x16xf16", "shared1", 7), ("16x16xf16", "shared", 8),
        ("2x16x16xf16", "shared1", 8)])
    r2, r3 = written_vs_resolved(src, "/src/k.py", ttgir, None, "k")
    assert [t.name for t in r2.resolved] == ["shared"] and [t.name for t in r3.resolved] == ["shared1"]


def test_fields_a_call_leaves_out_are_gluons_defaults_and_an_unfollowed_helpers_result_is_said():
    """Helper 86: `NVMMASharedLayout(128, 16)` (not said transposed: Gluon's default False) resolved to the
    transposed layout of another call too, 'as written'; a helper returning `{...}[key]` bound to a name or
    used inline was left out with no word."""
    from tritonscope.layouts.gluon import written_vs_resolved
    from tritonscope.layouts.written import scan, unread_notes

    src = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl


        def k():
            plain: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16)
            trans: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, transposed=True)
            a = gl.allocate_shared_memory(gl.float16, [64, 64], plain)
            b = gl.allocate_shared_memory(gl.float16, [64, 64], trans)
        """)
    ttgir = _allocs_module([
        "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>",
        "#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>",
    ], [("64x64xf16", "shared1", 7), ("64x64xf16", "shared", 8)])
    plain, trans = written_vs_resolved(src, "/src/k.py", ttgir, None, "k")
    assert [t.name for t in plain.resolved] == ["shared1"] and [t.name for t in trans.resolved] == ["shared"]
    helpers = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl


        def pick(w, key):
            return {"reg": gl.BlockedLayout([1], [32], [w], [0])}[key]


        def k(W: gl.constexpr):
            r: gl.constexpr = pick(W, "reg")
            x = gl.arange(0, 128, layout=r)
            y = gl.arange(0, 128, layout=pick(W, "reg"))
        """)
    notes = unread_notes(scan(helpers).unread, "k.py")
    assert any(n.startswith('k.py:9: r is what pick(W, "reg") returns, a helper of the source') for n in notes), notes
    assert any(n.startswith('k.py:11: pick(W, "reg") returns a layout, a helper of the source') for n in notes), notes


def test_two_tensor_memory_layouts_of_one_ttgir_layout_are_each_described_and_carried_by_their_own_values():
    """QA (Triton's tcgen05 tutorial, small_mma_kernel on cuda:100): `acc_tmem_layout` and `lhs_tmem_layout`,
    alike TensorMemoryLayouts that become one #tmem, were both described by the alias's first tensor (the
    128x128 f32 accumulator: 128 columns; the f16 operand takes 64) and both carried by every line of #tmem.
    Each is its own allocation's, and the ops using it (an MMA holding both gives each its own type)."""
    from tritonscope.layouts.gluon import resolution_json, written_vs_resolved

    src = textwrap.dedent("""\
        from triton.experimental.gluon import language as gl
        from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, allocate_tensor_memory

        def k(B: gl.constexpr):
            acc_layout: gl.constexpr = TensorMemoryLayout(B, col_stride=1)
            acc = allocate_tensor_memory(gl.float32, [128, 128], acc_layout)
            acc.store(x)
            lhs_layout: gl.constexpr = TensorMemoryLayout(B, col_stride=1)
            lhs = allocate_tensor_memory(gl.float16, [128, 128], lhs_layout)
            lhs.store(y)
            tcgen05_mma(lhs, b, acc)
            z = acc.load(r)
        """)
    f32 = "!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>"
    f16 = "!ttg.memdesc<128x128xf16, #tmem, #ttng.tensor_memory, mutable>"
    ttgir = _allocs_module([
        "#blocked = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], "
        "order = [0, 1]}>",
        "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
    ], [("128x128xf32", "tmem", 6), ("128x128xf16", "tmem", 9)], [
        (f"ttng.tmem_store %x, %v0, %true : tensor<128x128xf32, #blocked> -> {f32}", 7),
        (f"ttng.tmem_store %y, %v1, %true : tensor<128x128xf16, #blocked> -> {f16}", 10),
        (f"%m = ttng.tc_gen5_mma %v1, %v0[], %true, %true : {f16}, {f32}", 11),
        (f"%z = ttng.tmem_load %v0 : {f32} -> tensor<128x128xf32, #blocked>", 12),
    ])
    acc, lhs = written_vs_resolved(src, "/src/k.py", ttgir, None, "k")
    assert [t.name for t in acc.resolved] == ["tmem"] == [t.name for t in lhs.resolved]
    assert (acc.written.line, acc.resolved[0].dtype, acc.on_lines) == (5, "f32", [6, 7, 11, 12])
    assert (lhs.written.line, lhs.resolved[0].dtype, lhs.on_lines) == (8, "f16", [9, 10, 11])
    columns = [resolution_json(r, None)["resolved"][0]["facts"]["columns"] for r in (acc, lhs)]
    assert columns == [128, 64]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_the_scanners_segments_are_ast_get_source_segment(newline):
    """written.py splits the source once for every node's text (ast.get_source_segment splits it again per
    call: 12 of 16 s on a 1,551-line Gluon tutorial); the text is the same, byte offsets and line ends alike."""
    import ast

    from tritonscope.layouts.written import _Scanner

    # (every node of a small source; of written.py, every 97th: ast.get_source_segment, the slow way this
    # replaces, takes a minute over all its nodes)
    sources = [((Path(__file__).parent.parent / "tritonscope" / "layouts" / "written.py").read_text(), 97),
               ('x = gl.BlockedLayout([1, 2], [4, 8], [4, 1], [1, 0])  # é\nname = "ü" + f(\n  a,\n  b)\n'
                "tail = 1", 1)]  # (no newline at the end)
    for source, step in sources:
        source = newline.join(source.split("\n"))
        scanner = _Scanner(source)
        nodes = list(ast.walk(ast.parse(source)))[::step]
        assert len(nodes) > 20 and all(scanner._segment(n) == ast.get_source_segment(source, n) for n in nodes)


def test_the_written_line_spells_values_as_the_source_does():
    """`written   TensorMemoryLayout(..., two_ctas=true)` for the source's `two_ctas=True` (helper 110)."""
    from tritonscope.render.layout import _arg

    assert [_arg(v) for v in (True, False, 4, [1, True], {"symbol": "cga_layout"})] == \
        ["True", "False", "4", "[1, True]", "cga_layout"]


ORDER_ACROSS = '''\
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def k2d(in_ptr, out_ptr, ynumel, XBLOCK: gl.constexpr, YBLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    xs = gl.arange(0, XBLOCK, layout=gl.SliceLayout(1, layout))
    ys = gl.arange(0, YBLOCK, layout=gl.SliceLayout(0, layout))
    offs = xs[:, None] * ynumel + ys[None, :]
    gl.store(out_ptr + offs, gl.load(in_ptr + offs))


@gluon.jit
def g1(x_ptr, out_ptr, BLOCK_X: gl.constexpr):
    lay: gl.constexpr = gl.BlockedLayout([1], [32], [gl.num_warps()], [0])
    v = gl.load(x_ptr + gl.arange(0, BLOCK_X, lay))
    gl.store(out_ptr + gl.arange(0, BLOCK_X, lay), v)
'''


def test_written_order_across_the_addresses_and_one_element_a_thread_are_said_truly(cli, tmp_path):
    """Helper 129: a layout written with order=[0, 1] and size_per_thread=[4, 1] over addresses adjacent along
    dim 1 is 16 scalar loads; `loads` blamed only the row stride ('a JIT launch passing 1...') and gave no
    written-layout advice (order=[1, 0], size_per_thread=[1, 4] gives 4 `ld.global.v4.b32`). And a 32-element
    tensor over 128 threads was 'one-per-thread: no vector is possible (only a larger tile ...)', where a
    written layout of size_per_thread=[4] (replicated over the other threads) gives one 16-byte vector."""
    (tmp_path / "k.py").write_text(ORDER_ACROSS)
    cache = str(tmp_path / "c")
    r = cli("compile", f"{tmp_path / 'k.py'}::k2d", "--target", "cuda:90", "--signature",
            "in_ptr=*fp32,out_ptr=*fp32,ynumel=i32:16", "--constexpr", "XBLOCK=32", "--constexpr", "YBLOCK=64",
            "--cache-dir", cache)
    assert r.returncode == 0, r.stderr
    r = cli("compile", f"{tmp_path / 'k.py'}::g1", "--target", "cuda:90", "--signature", "x_ptr=*i32,out_ptr=*i32",
            "--constexpr", "BLOCK_X=32", "--cache-dir", cache)
    assert r.returncode == 0, r.stderr
    doc = json.loads(cli("loads", "k2d", "--cache-dir", cache, "--json").stdout)
    (row,) = [r for r in doc["rows"] if r["line"] == 11 and r["op"] == "tt.load"]
    assert row["verdict"] == "scalar" and "written-layout" in row["reasons"], row
    assert row["evidence"]["written-layout"] == (
        "k.py:7 writes order=[0, 1] and size_per_thread=[4, 1] for #blocked: each thread's 4 contiguous f32 run "
        "along dim 0, where the addresses are not adjacent; they are adjacent along dim 1: order=[1, 0] with "
        "size_per_thread=[1, 4] (threads_per_warp and warps_per_cta covering the tile along it) would give "
        "16-byte vectors")
    doc = json.loads(cli("loads", "g1", "--cache-dir", cache, "--json").stdout)
    (row,) = [r for r in doc["rows"] if r["op"] == "tt.load"]
    assert row["evidence"]["one-per-thread"].endswith(
        "leaves each thread one element with the layout written: a layout with fewer threads along the tensor "
        "(replicating it over the others), or a larger tile, would give each thread several")
    assert "no vector is possible" not in row["evidence"]["one-per-thread"]
