"""Stage parsers against real corpus artifacts: exact op counts and location chains per source line."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tritonscope.artifacts import tools
from tritonscope.stages import parse
from tritonscope.stages.common import read_text
from tritonscope.stages.memops import accesses

GEMV_TILE_GFX942_39 = "P5FBTXR7YPPEX6SO3CE2G6VTD2NUMM4LUJDTFFAAVCRPGGXEVR7A/gemv_tile_kernel"
SOFTMAX_SM80_39 = "SDT4GEZUZXPDOIAKMFIAGGVMNGGDN7MFRWXNJHJCXBZAIBR55PIA/softmax_kernel"
SOFTMAX_SM90_32 = "kVzsSJ-wA7zq3O4zU7_Q1r4wf1tgmQWGhsBvMqTxCLw/softmax_kernel"
SOFTMAX_GFX942_32 = "3ptR0gaWxxj4KiQUW8vbtyfbaeEjhWNXz3Tqf0ivVrM/softmax_kernel"
SOFTMAX_GFX942_39 = "HAAWWFOXTFRVDUNSJLAGO7AUZVMEVRANPZ5QAPVAV6GMGKJLULMQ/softmax_kernel"


def stage(cache, base: str, name: str):
    path = cache / f"{base}.{name}"
    return parse(name, read_text(path), str(path))


def op_counts(module, line: int) -> Counter:
    return Counter(op.op for op in module.ops_for_line(line))


def test_gemv_tile_line_173_gfx942_39(cache39):
    assert op_counts(stage(cache39, GEMV_TILE_GFX942_39, "ttgir"), 173) == Counter(
        {"arith.constant": 1, "tt.expand_dims": 1, "tt.broadcast": 1, "tt.load": 1})
    llir = stage(cache39, GEMV_TILE_GFX942_39, "llir")
    assert op_counts(llir, 173) == Counter({"br": 32, "load": 16, "phi": 16})
    loads = [op.text for op in llir.ops_for_line(173) if op.op == "load"]
    assert all(t.startswith("%") and "= load <8 x half>, ptr addrspace(1)" in t for t in loads)
    amdgcn = stage(cache39, GEMV_TILE_GFX942_39, "amdgcn")
    assert op_counts(amdgcn, 173)["global_load_dwordx4"] == 16
    assert op_counts(amdgcn, 174)["global_load_dwordx4"] == 1  # xk = tl.load(x_ptr + offs_k)
    assert sum(op.op == "global_load_dwordx4" for op in amdgcn.ops) == 17


@pytest.mark.parametrize("cache_name,base,stages", [
    ("cache32", SOFTMAX_SM90_32, ("ttir", "ttgir", "llir", "ptx")),
    ("cache39", SOFTMAX_SM80_39, ("ttir", "ttgir", "llir", "ptx")),
    ("cache32", SOFTMAX_GFX942_32, ("ttir", "ttgir", "llir", "amdgcn")),
    ("cache39", SOFTMAX_GFX942_39, ("ttir", "ttgir", "llir", "amdgcn")),
])
def test_softmax_helpers_attributed_to_call_sites(request, cache_name, base, stages):
    """_row_max (kernels.py:36) is called at line 91, _exp_shifted (43-44) at 92: inner lines stay visible."""
    cache = request.getfixturevalue(cache_name)
    for name in stages:
        module = stage(cache, base, name)
        for op in module.ops:
            assert op.loc is None or op.loc.outermost().line not in (36, 37, 43, 44), (name, op.text)
        at_91 = module.ops_for_line(91)
        at_92 = module.ops_for_line(92)
        assert at_91 and at_92, name
        # the helper's body is in the chain, under the call site
        assert any(len(op.loc.chain()) > 1 for op in at_91), name
        inner_92 = {loc.line for op in at_92 for loc in op.loc.chain()[:-1]}
        assert inner_92 & {43, 44}, (name, inner_92)


def test_mlir_namelocs_and_callsite_chains_39(cache39):
    ttgir = stage(cache39, SOFTMAX_SM80_39, "ttgir")
    by_line = {op.lineno: op for op in ttgir.ops}
    assert by_line[29].op == "tt.load" and by_line[29].loc.describe() == "kernels.py:90:11"
    assert by_line[29].loc.name == "row"
    assert by_line[30].op == "tt.reduce"  # generic form `"tt.reduce"(...)`, loc after the region
    assert by_line[30].loc.describe() == "standard.py:216:16 @ kernels.py:36:9 @ kernels.py:91:15"
    assert by_line[32].op == "arith.maxnumf"
    assert by_line[32].loc.describe() == \
        "standard.py:196:12 @ standard.py:216:16 @ kernels.py:36:9 @ kernels.py:91:15"
    assert by_line[37].loc.describe() == "kernels.py:44:11 @ kernels.py:92:17"
    assert [loc.name for loc in by_line[37].loc.chain()] == ["num", "numerator"]
    assert by_line[20].op == "arith.constant" and not by_line[20].loc.known  # loc(unknown)
    assert ttgir.functions == ["softmax_kernel"] and ttgir.unparsed == []
    assert len(ttgir.ops) == 27


def test_mlir_32_triton_gpu_dialect(cache32):
    ttgir = stage(cache32, SOFTMAX_SM90_32, "ttgir")
    ops = Counter(op.op for op in ttgir.ops)
    assert ops["tt.load"] == 1 and ops["tt.reduce"] == 2 and ttgir.unparsed == []
    assert [op.loc.col for op in ttgir.ops if op.op == "tt.load"] == [18]  # 0-based column before 3.8


def test_ptx_39_multi_level_inlined_at(cache39):
    ptx = stage(cache39, SOFTMAX_SM80_39, "ptx")
    chains = Counter(op.loc.describe() for op in ptx.ops if op.loc.inlined_at is not None)
    assert chains == Counter({
        "standard.py:216:16 @ kernels.py:36:9 @ kernels.py:91:15": 16,
        "kernels.py:44:11 @ kernels.py:92:17": 16,
        "standard.py:196:12 @ standard.py:216:16 @ kernels.py:36:9 @ kernels.py:91:15": 14,
        "standard.py:287:12 @ standard.py:314:12 @ kernels.py:93:19": 14,
        "standard.py:314:12 @ kernels.py:93:19": 11,
        "kernels.py:43:15 @ kernels.py:92:17": 8,
    })
    assert ptx.files["2"].endswith("/triton/language/standard.py")
    assert len(ptx.ops) == 146 and ptx.functions == ["softmax_kernel"] and ptx.unparsed == []
    lds = [op for op in ptx.ops_for_line(90) if op.op.startswith("ld.global")]
    assert [op.op for op in lds] == ["ld.global.b32"] * 8  # `@%p1 ld.global.b32 { %r2 }, [ %rd1 + 0 ];`


def test_ptx_32_inlining_from_dwarf_ranges(cache32):
    ptx = stage(cache32, SOFTMAX_SM90_32, "ptx")
    chains = Counter(op.loc.describe() for op in ptx.ops if op.loc.inlined_at is not None)
    assert chains["kernels.py:44:17 @ kernels.py:92:34"] == 16
    assert chains["kernels.py:43:18 @ kernels.py:92:34"] == 8
    assert chains["standard.py:163:27 @ kernels.py:91:23"] == 14
    assert Counter(op.loc.outermost().line for op in ptx.ops)[91] == 53


def test_amdgcn_comment_chain_and_unknown_line(cache39, cache32):
    amd = stage(cache39, SOFTMAX_GFX942_39, "amdgcn")
    deepest = [op for op in amd.ops if len(op.loc.chain()) == 4]
    assert deepest and all(op.loc.chain()[0].file.endswith("triton/language/standard.py") for op in deepest)
    assert deepest[0].loc.outermost().file == "/tmp/irkernels/kernels.py"
    amd32 = stage(cache32, SOFTMAX_GFX942_32, "amdgcn")
    unknown = [op for op in amd32.ops if op.loc is not None and not op.loc.outermost().known]
    assert len(unknown) == 14  # `.loc 1 0 ...`: counted apart, not attributed
    assert sum(op.loc is None for op in amd32.ops) == 1  # before the first `.loc`


def test_sass_inlined_runs_from_cubin(cache39):
    text = tools.disassemble_cubin(cache39 / f"{SOFTMAX_SM80_39}.cubin")
    sass = parse("sass", text)
    assert sass.unparsed == [] and sass.functions == ["softmax_kernel"]
    assert all(op.loc is not None and op.loc.known for op in sass.ops)
    deep = [op for op in sass.ops if op.op == "FMNMX" and len(op.loc.chain()) == 4]
    assert deep[0].loc.describe() == "standard.py:196:0 @ standard.py:216:0 @ kernels.py:36:0 @ kernels.py:91:0"
    at_90 = Counter(op.op for op in sass.ops_for_line(90))
    assert at_90["LDG.E"] == 8


def test_hsaco_objdump_lines(cache39):
    base = cache39 / GEMV_TILE_GFX942_39
    try:
        text = tools.disassemble_hsaco(f"{base}.hsaco", "gfx942")
    except tools.ToolMissing as e:  # pragma: no cover - depends on the machine
        pytest.skip(str(e))
    module = parse("hsaco-asm", text)
    assert module.functions == ["gemv_tile_kernel"] and module.unparsed == []
    assert op_counts(module, 173)["global_load_dwordx4"] == 16


def test_hsaco_words_llvm_objdump_cannot_decode_are_ops():
    """llvm-objdump 19 prints gfx1100's `v_pk_add_f16` (Triton 3.9's add_kernel) as `.long` data words: each
    is an instruction of the kernel, at the current line, of no memory kind, and a note says so."""
    text = ("\nk.hsaco:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n"
            "0000000000001700 <add_kernel>:\n; /tmp/k.py:9\n"
            "\tbuffer_load_b128 v[4:7], v8, s[4:7], 0 offen             // 000000001798: E05C0000 80410408\n"
            "; /tmp/k.py:11\n"
            "\t.long 0xcc0f4000                                           // 0000000017A8: CC0F4000\n"
            "\t.long 0x1a020900                                           // 0000000017AC: 1A020900\n"
            "\ts_endpgm                                                   // 0000000017D0: BFB00000\n"
            "\t.long 0x12345678\n")
    module = parse("hsaco-asm", text)
    assert module.unparsed == []
    # (0xcc0f4000 opens an 8-byte VOP3P encoding: 0x1a020900 after it is its second word, one instruction)
    assert [(op.op, op.loc.line) for op in module.ops] == [
        ("buffer_load_b128", 9), ("(undecoded)", 11), ("s_endpgm", 11), ("(undecoded)", 11)]
    assert module.notes == ["llvm-objdump printed 2 instruction(s) as `.long` words: instructions its LLVM cannot "
                            "decode (the AMDGCN stage Triton wrote names them); counted as `(undecoded)` ops, of no "
                            "memory kind (1 of them 8- or 12-byte encodings whose later words llvm-objdump "
                            "printed as other words or instructions: not counted again)"]
    kinds = [a.kind if a is not None else None for a in accesses("hsaco-asm", module)]
    assert kinds == ["buffer_load", None, None, None]


def test_unparseable_lines_are_kept_not_dropped():
    module = parse("ttir", 'module {\n  tt.func @f() {\n    %0 = arith.constant 1 : i32 loc(callsite(x))\n'
                           '    ??? what\n    tt.return loc(unknown)\n  } loc(unknown)\n} loc(unknown)\n')
    assert [ln for ln, _ in module.unparsed] == [4, 3]
    assert [op.op for op in module.ops] == ["arith.constant", "tt.return"]
    assert module.ops[0].loc is None


def test_source_stage_keeps_helpers_as_functions(cache39):
    """`.source` is TTIR before inlining: helpers are functions of their own, located at their own lines."""
    source = stage(cache39, SOFTMAX_SM80_39, "source")
    assert "softmax_kernel" in source.functions
    assert any(f.startswith("kernels._row_max") for f in source.functions)
    helper_ops = [op for op in source.ops if (op.function or "").startswith("kernels._row_max")]
    assert {op.loc.outermost().line for op in helper_ops} <= {0, 34, 36, 37}


GEMLITE = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6" / "gemlite"
SPLITK = GEMLITE / "2BZ2DJ3BNDLDD7KP327T6D5DIC476IUZ3IOPFABHTMDGCASLK5IQ" / "gemm_splitK_INT_kernel.ptx"


def test_ptx_36_chains_from_loc_comments():
    """Triton 3.4-3.8 PTX: `.loc 3 24 23 // utils.py:24:23 @[ gemm_splitK_kernels.py:431:46 ]`: the chain
    is the comment's (basenames mapped back to the `.file` paths), not the overlapping DWARF ranges'."""
    ptx = parse("ptx", read_text(SPLITK))
    copies = [op for op in ptx.ops if op.op == "cp.async.ca.shared.global"]
    assert Counter(op.loc.describe() for op in copies) == {"gemm_splitK_kernels.py:441:29": 5,
                                                           "gemm_splitK_kernels.py:449:32": 5}
    (helper,) = {op.loc for op in ptx.ops if op.loc.describe() == "utils.py:24:23 @ gemm_splitK_kernels.py:431:46"}
    assert helper.file == "/packages/gemlite/triton_kernels/utils.py"
    assert helper.inlined_at.file == "/packages/gemlite/triton_kernels/gemm_splitK_kernels.py"


def test_ptx_dwarf_range_of_a_pipelined_helper():
    """The same PTX without its `.loc` comments, as a release before 3.4 prints it: the chain comes from
    the DWARF ranges. `load_ptr`'s range (called at 431:46) spans the software-pipelined prologue and loop;
    the kernel-file ops inside it are not inlined there: the call has no nested call to tell its callee's
    file, the first instruction of its range does (utils.py)."""
    bare = re.sub(r"(\.loc\s+\d+\s+\d+\s+\d+)\s*//.*", r"\1", read_text(SPLITK))
    assert "@[" not in bare
    dwarf, comments = parse("ptx", bare), parse("ptx", read_text(SPLITK))
    copies = [op for op in dwarf.ops if op.op == "cp.async.ca.shared.global"]
    assert Counter(op.loc.outermost().line for op in copies) == {441: 5, 449: 5}
    # each instruction's chain is one DWARF path (a call and its parents), never sibling calls stacked:
    # against the comments' chains, 528 of 615 agree (410 when every holding range was stacked); what is
    # left is two calls of `load_ptr`, whose ranges overlap and whose instructions have one position
    same = [a.loc.describe() == b.loc.describe() for a, b in zip(dwarf.ops, comments.ops, strict=True)]
    assert (sum(same), len(same)) == (528, 615)
    # the kernel calls helpers; no helper calls the kernel: one kernel position per chain, the outermost
    assert all(sum(p.file.endswith("gemm_splitK_kernels.py") for p in op.loc.chain()) == 1 for op in dwarf.ops)


def test_ptx_comment_chain_with_two_files_of_one_basename():
    """`utils.py` twice (a library's `a/utils.py` and `b/utils.py`): a caller named by basename is the
    file whose id has that position among the `.loc`s."""
    text = """
.visible .entry k()
{
\t.loc\t1 10 5                          // k.py:10:5
\tmov.u32 \t%r1, 0;
\t.loc\t2 3 7                           // utils.py:3:7 @[ utils.py:20:9 @[ k.py:11:5 ] ]
\tadd.s32 \t%r2, %r1, 1;
\t.loc\t3 20 9                          // utils.py:20:9 @[ k.py:11:5 ]
\tadd.s32 \t%r3, %r2, 1;
\tret;
}
\t.file\t1 "/src/k.py"
\t.file\t2 "/src/a/utils.py"
\t.file\t3 "/src/b/utils.py"
"""
    ops = parse("ptx", text).ops
    assert [[(p.file, p.line) for p in op.loc.chain()] for op in ops[:3]] == [
        [("/src/k.py", 10)],
        [("/src/a/utils.py", 3), ("/src/b/utils.py", 20), ("/src/k.py", 11)],
        [("/src/b/utils.py", 20), ("/src/k.py", 11)],
    ]


NOINLINE = Path(__file__).parent / "data" / "stages" / "noinline_cache" / \
    "OUCFGA3JGEDGDD4M32LE4KYQTIKAMC5REY5T2FXYS57LOC7BNCAA"
HELPER = "noinline_kernels_$_copy_block__Pfp32_Pfp32_i32_i32_c256"


def test_ptx_noinline_helper_function_maps():
    """A `.func` helper (declared first, defined after the kernel) and the `.entry` both map."""
    ptx = parse("ptx", read_text(NOINLINE / "noinline_kernel.ptx"))
    assert ptx.functions == ["noinline_kernel", HELPER] and ptx.unparsed == []
    by_function = Counter(op.function for op in ptx.ops)
    assert by_function == Counter({"noinline_kernel": 16, HELPER: 25})  # = instruction lines per body
    assert all(op.loc is not None and op.loc.known for op in ptx.ops)
    calls = [op for op in ptx.ops if op.op == "call.uni"]
    assert [op.loc.line for op in calls] == [23, 24]
    helper_loads = [op for op in ptx.ops if op.function == HELPER and op.op.startswith("ld.global")]
    assert helper_loads and {op.loc.line for op in helper_loads} == {14}
    inlined = [op.loc.describe() for op in ptx.ops if op.loc.inlined_at is not None]
    assert inlined == ["noinline_kernels.py:7:12 @ noinline_kernels.py:15:9"] * 2


def test_sass_noinline_helper_label_starts_a_function():
    sass = parse("sass", tools.disassemble_cubin(NOINLINE / "noinline_kernel.cubin"))
    helper = f"$noinline_kernel${HELPER}"
    assert sass.functions == ["noinline_kernel", helper]
    # (the helper ends with RET.REL.NODEC, then the BRA-to-itself and 8 NOPs of its padding: no ops)
    assert Counter(op.function for op in sass.ops) == Counter({"noinline_kernel": 18, helper: 29})
    assert {op.loc.outermost().line for op in sass.ops if op.function == helper} == {11, 12, 13, 14, 15, 16}


@pytest.mark.parametrize("cache_name,base,expected", [
    ("cache32", SOFTMAX_GFX942_32, {91: 70, 92: 34, 93: 47}),
    ("cache39", SOFTMAX_GFX942_39, {91: 50, 92: 34, 93: 33}),
])
def test_hsaco_inlined_call_sites_from_dwarf(request, cache_name, base, expected):
    """llvm-objdump prints the helper's own line; llvm-dwarfdump's inlined ranges give the call site,
    so the disassembly attributes exactly like the AMDGCN text of the same compile."""
    from tritonscope.artifacts.cache import Cache, resolve_one
    from tritonscope.stages import parse_entry_stage

    cache = request.getfixturevalue(cache_name)
    entry = resolve_one(Cache(cache / base.split("/")[0]), None, None)
    try:
        module = parse_entry_stage(entry, "hsaco-asm")
    except tools.ToolMissing as e:  # pragma: no cover - depends on the machine
        pytest.skip(str(e))
    amdgcn = parse_entry_stage(entry, "amdgcn")
    for line, n in expected.items():
        assert len(module.ops_for_line(line)) == n == len(amdgcn.ops_for_line(line))
    assert not module.ops_for_line(36) and not module.ops_for_line(44)
    chains = {op.loc.describe() for op in module.ops_for_line(92)}
    assert "kernels.py:44:0 @ kernels.py:92:" + ("34" if cache_name == "cache32" else "17") in chains


def test_hsaco_padding_after_the_code_is_no_op(cache39):
    """llvm-objdump prints the code object's alignment padding (256 `s_nop 0` after s_endpgm) as more of the
    kernel, repeating its last line (54). It is never executed: no op of the kernel (it made 256 of 337
    'ops': hsaco-asm looked 24% attributed), with or without the DWARF code ranges."""
    from tritonscope.artifacts.cache import Cache, resolve_one
    from tritonscope.stages import parse_entry_stage

    entry = resolve_one(Cache(cache39), "add_kernel", "hip:gfx942")
    try:
        module = parse_entry_stage(entry, "hsaco-asm")
        text = tools.disassemble_hsaco(str(entry.files["hsaco"]), "gfx942")
    except tools.ToolMissing as e:  # pragma: no cover - depends on the machine
        pytest.skip(str(e))
    assert text.count("s_nop 0") >= 256
    for m in (module, parse("hsaco-asm", text)):
        assert m.ops[-1].op == "s_endpgm" and m.ops[-1].loc.line == 54
        assert all(op.loc is not None and op.loc.known for op in m.ops)
    # a s_nop the code runs (a hazard wait) stays, and padding is only what follows a final s_endpgm
    body = "0000000000001600 <k>:\n; k.py:3\n\ts_nop 1 // 1600: BF800001\n\ts_endpgm // 1604: BF810000\n" \
           "\ts_nop 0 // 1608: BF800000\n"
    m = parse("hsaco-asm", body)
    assert [op.op for op in m.ops] == ["s_nop", "s_endpgm"]
    m = parse("hsaco-asm", body.replace("s_endpgm", "s_waitcnt"))
    assert [op.op for op in m.ops] == ["s_nop", "s_waitcnt", "s_nop"]


def test_iter_lines_is_the_whole_texts_lines_in_chunks(monkeypatch):
    """Large stages are split a chunk at a time, at `\n` only (a U+2028, NEL or form feed in a PTX comment's
    file name split the line, and every later line was numbered one off), the same at every cut."""
    import random

    from tritonscope.stages import common

    monkeypatch.setattr(common, "_LINE_CHUNK", 7)
    rng = random.Random(0)
    for _ in range(5000):
        text = "".join(rng.choice("ab \n\n\r\x0b\u2028") for _ in range(rng.randint(0, 60)))
        assert list(common.iter_lines(text)) == common._split_lines(text), repr(text)
        assert list(common.iter_lines(text)) == [line.rstrip("\r") for line in text.split("\n")][
            :len(text.split("\n")) - (text.endswith("\n") or text == "")], repr(text)


def test_a_line_separator_in_a_ptx_comment_numbers_no_line(cache39):
    """A kernel file named with U+2028 shows up raw in PTX and AMDGCN `.loc` comments (`// k\\u2028x.py:8:12`):
    str.splitlines broke the line there, and `map --at 40` named the op on line 36, the report's rows carried
    other ops' lines."""
    ptx_path = next(cache39.glob("7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ/*.ptx"))
    text = ptx_path.read_text().replace("// kernels.py:", "// kern\u2028els.py:")
    assert "\u2028" in text
    module = parse("ptx", text)
    lines = text.split("\n")
    assert module.ops and all(lines[op.lineno - 1].strip().startswith(op.text.strip()[:12]) for op in module.ops)
