"""Property-based fuzzing of every stage parser, seeded with real artifacts (see fuzz_seeds.py).

Whatever the bytes, `decode_text` + `stages.parse` either return a Module that keeps its promises
(op lines point into the text, finite location chains, JSON-serializable) or raise ParseError with the
file and a line. Also: pathological inputs built on purpose (a 10 MB line, location cycles, call chains
1000 deep) finish without RecursionError or hang.
"""

from __future__ import annotations

import pytest
from fuzz_seeds import PARSED, fuzz_settings, mutated_inputs, no_hang, run_stage_parser, seed_bytes
from hypothesis import given

from tritonscope.stages import parse

# Inputs per stage parser in CI (x40 under --long); together with the layout fuzzing well under a minute.
CI_EXAMPLES = 150


@pytest.mark.parametrize("stage", PARSED)
def test_seeds_parse_cleanly(stage):
    """The unmutated seeds are real artifacts: they parse with nothing left over."""
    for name, data in seed_bytes(stage):
        module = run_stage_parser(stage, data, f"seed/{name}")
        assert module is not None and module.ops, name
        assert module.unparsed == [], (name, module.unparsed[:3])


@pytest.mark.parametrize("stage", PARSED)
def test_mutated_artifacts(stage):
    seeds = seed_bytes(stage)

    @fuzz_settings(CI_EXAMPLES)
    @given(mutated_inputs(seeds))
    def run(case):
        name, _kinds, data = case
        run_stage_parser(stage, data, f"fuzz/{name}")

    run()


def test_hsaco_with_mutated_dwarf():
    """hsaco-asm also reads llvm-dwarfdump text (inlined call ranges): mutate that side too."""
    from fuzz_seeds import FUZZ_DATA

    from tritonscope.stages import hsaco

    text = (FUZZ_DATA / "gemv_loop_kernel.gfx942.part.hsaco-asm").read_text()
    dwarf = [("gemv_loop_kernel.gfx942.dwarf", (FUZZ_DATA / "gemv_loop_kernel.gfx942.dwarf").read_bytes())]

    @fuzz_settings(CI_EXAMPLES // 2)
    @given(mutated_inputs(dwarf))
    def run(case):
        _name, _kinds, data = case
        dwarf_text = data.decode("utf-8", "replace")  # as tools.dwarfdump_hsaco decodes it
        run_stage_parser("hsaco-asm", text.encode(), "fuzz/gemv.hsaco-asm", target="hsaco+dwarf",
                         parse=lambda t, p: hsaco.parse(t, p, dwarf=dwarf_text))

    run()


# --- pathological inputs, built on purpose ------------------------------------------------------------------

TEN_MB = 10 * 1024 * 1024
LONG_LINES = {
    "source": b'%0 = tt.load %p loc("' + b"a" * TEN_MB + b'":1:2)',
    "ttir": b"#loc1 = loc(" + b"callsite(" * (TEN_MB // 9) + b"#loc1",
    "ttgir": b"#blocked = #ttg.blocked<{sizePerThread = [" + b"1, " * (TEN_MB // 3) + b"]}>",
    "llir": b"!5 = !DILocation(line: " + b"9" * TEN_MB + b", scope: !5)",
    "ptx": b".loc 1 " + b"9" * TEN_MB + b" 0",
    "amdgcn": b"\t.loc\t1 2 3 ; k.py:2:3 @[ " + b"k.py:1:1 @[ " * (TEN_MB // 12) + b"\n\tv_add_f32 v0, v1, v2",
    "sass": b'\t//## File "k.py", line 5 inlined at "k.py", line ' + b"7" * TEN_MB,
    "hsaco-asm": b"; /tmp/k.py:" + b"7" * TEN_MB,
}


@pytest.mark.parametrize("stage", PARSED)
def test_ten_megabyte_line(stage):
    """A single 10 MB line shaped like the stage's own syntax, alone and inside a real artifact."""
    _name, seed = seed_bytes(stage)[0]
    line = LONG_LINES[stage]
    assert len(line) >= TEN_MB
    run_stage_parser(stage, line, "fuzz/long-line", target=f"{stage} 10MB")
    half = seed.count(b"\n") // 2
    lines = seed.split(b"\n")
    run_stage_parser(stage, b"\n".join(lines[:half] + [line] + lines[half:]), "fuzz/long-line",
                     target=f"{stage} 10MB")


def _chain_mlir(n: int, cyclic: bool) -> str:
    defs = [f'#loc{i} = loc(callsite(#loc{i + 1} at "k.py":{i + 1}:0))' for i in range(1, n)]
    defs.append(f"#loc{n} = loc(callsite(#loc1 at #loc2))" if cyclic else f'#loc{n} = loc("h.py":7:1)')
    body = 'module {\n  tt.func public @k() {\n    tt.return loc(#loc1)\n  } loc(#loc1)\n} loc(#loc1)\n'
    return body + "\n".join(defs) + "\n"


@pytest.mark.parametrize("cyclic", [False, True], ids=["chain", "cycle"])
def test_mlir_callsite_alias_chain_1000_deep(cyclic):
    module = run_stage_parser("ttgir", _chain_mlir(1000, cyclic).encode(), "fuzz/chain.ttgir")
    assert module is not None
    (op,) = [op for op in module.ops if op.op == "tt.return"]
    assert op.loc is not None and 1 <= len(op.loc.chain()) <= 64


def test_mlir_inline_callsite_nesting_1000_deep():
    nested = "callsite(" * 1000 + '"h.py":1:1' + "".join(f' at "k.py":{i}:0)' for i in range(1000))
    text = f"module {{\n  tt.func @k() {{\n    tt.return loc({nested})\n  }} loc(unknown)\n}}\n"
    run_stage_parser("ttir", text.encode(), "fuzz/nested.ttir")


def test_mlir_self_and_mutual_alias_cycles():
    text = ('module {\n  tt.func @k() {\n    tt.return loc(#loc1)\n    tt.return loc(#loc3)\n'
            '    tt.return loc("x"(#loc4))\n  } loc(#loc2)\n} loc(#loc1)\n'
            "#loc1 = loc(#loc2)\n#loc2 = loc(#loc1)\n#loc3 = loc(callsite(#loc3 at #loc3))\n"
            "#loc4 = loc(fused[#loc4, #loc1])\n")
    module = run_stage_parser("ttgir", text.encode(), "fuzz/cycle.ttgir")
    assert module is not None and [op.op for op in module.ops] == ["tt.return"] * 3


def _llir_chain(n: int, cyclic: bool) -> str:
    nodes = ['!0 = !DIFile(filename: "k.py", directory: "/d")',
             '!1 = distinct !DISubprogram(name: "k", scope: !0, file: !0, line: 1)']
    for i in range(n):
        parent = f"!{10 + i + 1}" if i + 1 < n else ("!10" if cyclic else "")
        inl = f", inlinedAt: {parent}" if parent else ""
        nodes.append(f"!{10 + i} = !DILocation(line: {i + 1}, column: 1, scope: !1{inl})")
    return "define void @k() !dbg !1 {\n  ret void, !dbg !10\n}\n" + "\n".join(nodes) + "\n"


@pytest.mark.parametrize("cyclic", [False, True], ids=["chain", "cycle"])
def test_llir_inlined_at_chain_1000_deep(cyclic):
    module = run_stage_parser("llir", _llir_chain(1000, cyclic).encode(), "fuzz/chain.llir")
    assert module is not None
    (ret,) = [op for op in module.ops if op.op == "ret"]
    assert ret.loc is not None and ret.loc.line == 1 and len(ret.loc.chain()) <= 64


def test_llir_scope_cycle():
    text = ("define void @k() !dbg !1 {\n  ret void, !dbg !3\n}\n"
            "!1 = distinct !DILexicalBlockFile(scope: !2, file: !1)\n!2 = distinct !DILexicalBlock(scope: !1)\n"
            "!3 = !DILocation(line: 4, column: 1, scope: !2)\n")
    module = run_stage_parser("llir", text.encode(), "fuzz/scope.llir")
    assert module is not None and module.ops[-1].loc is not None and module.ops[-1].loc.line == 4


@pytest.mark.parametrize("cyclic", [False, True], ids=["chain", "cycle"])
def test_ptx_inlined_at_chain_1000_deep(cyclic):
    """3.9 PTX: `.loc F L C, function_name ..., inlined_at F L' C'`; every caller position is itself a
    `.loc` inlined somewhere else, 1000 deep, or round in a cycle."""
    locs = []
    n = 1000
    for i in range(n):
        caller = (i + 1) % n if cyclic else i + 1
        locs.append(f"\t.loc\t1 {i + 1} 1, function_name $L__info_string0, inlined_at 1 {caller + 1} 1")
        locs.append(f"\tadd.s32 \t%r{i}, %r{i}, 1;")
    text = ('.version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n' + "\n".join(locs)
            + '\n\tret;\n}\n\t.file\t1 "/tmp/k.py"\n')
    with no_hang(60):
        module = parse("ptx", text, "fuzz/chain.ptx")
    assert len([op for op in module.ops if op.op == "add.s32"]) == n
    assert all(len(op.loc.chain()) <= 64 for op in module.ops if op.loc is not None)


def test_sass_inlined_at_chain():
    lines = [".text.k:", "k:"]
    for i in range(1000):
        lines.append(f'\t//## File "k.py", line {i + 1} inlined at "k.py", line {i + 2}')
        lines.append(f"        /*{i * 16:04x}*/                   IADD3 R{i % 200}, R1, 0x1, RZ ;")
    run_stage_parser("sass", "\n".join(lines).encode(), "fuzz/chain.sass")


def test_amdgcn_comment_chain_5000_deep():
    """`.loc 1 2 3 ; k.py:2:3 @[ k.py:1:1 @[ ... ] ]`: the inlined-at chain AMDGCN prints in a comment."""
    text = ('\t.text\n\t.globl k\n\t.type k,@function\nk:\n\t.file 1 "/d" "k.py"\n\t.loc\t1 2 3 ; k.py:2:3 @[ '
            + "k.py:1:1 @[ " * 4999 + "k.py:9:9" + " ]" * 5000 + "\n\tv_add_f32 v0, v1, v2\n")
    module = run_stage_parser("amdgcn", text.encode(), "fuzz/chain.amdgcn")
    assert module is not None
    (op,) = module.ops
    assert op.loc is not None and (op.loc.line, op.loc.outermost().line) == (2, 9)


def test_mlir_alias_chain_doubling():
    """`#locN = loc(callsite(#locN-1 at #locN-1))`: each alias doubles the chain (2^24 positions)."""
    defs = ['#loc0 = loc("k.py":1:1)'] + [f"#loc{i} = loc(callsite(#loc{i - 1} at #loc{i - 1}))" for i in range(1, 25)]
    text = 'module {\n  tt.func @k() {\n    tt.return loc(#loc24)\n  } loc(#loc0)\n} loc(#loc0)\n' + "\n".join(defs)
    module = run_stage_parser("ttgir", text.encode(), "fuzz/doubling.ttgir")
    assert module is not None and len(module.ops[0].loc.chain()) == 64
