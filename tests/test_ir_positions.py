"""Positions of an IR file that LLVM's debug info wrote as the kernel file's (stages/ir_positions.py).

Triton's MLIR parser gives a value its text prints without a location (an scf.for's iter_args) the IR
file's own position; the LLIR's DILocation keeps only its line and column, under the kernel's DIFile. The
real case is in tests/test_compile_retarget.py (an H100 entry compiled again for cuda:100); here each rule
on a text small enough to read."""

from __future__ import annotations

from tritonscope.stages import ir_positions, llir
from tritonscope.stages.common import Module, Op, SourceLoc

TTGIR = '''#loc = loc("/src/k.py":10:0)
#loc3 = loc("/src/k.py":20:5)
#loc7 = loc("/tmp/e/k.ttir":77:298)
#loc8 = loc("/tmp/e/k.ttir":20:5)
#loc9 = loc("/tmp/e/k.ttir":30:1)
#loc10 = loc(callsite(#loc3 at "/src/k.py":30:9))
#loc11 = loc("/src/helper.py":31:2)
'''

LLIR = '''define void @k(ptr addrspace(1) %0) !dbg !5 {
  %2 = load <2 x i32>, ptr addrspace(3) %1, align 8, !dbg !9
  %3 = load <2 x i32>, ptr addrspace(3) %1, align 8, !dbg !10
  ret void, !dbg !11
}
!llvm.dbg.cu = !{!0}
!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "k.py", directory: "/src")
!5 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 10, type: !6, unit: !0)
!6 = !DISubroutineType(cc: DW_CC_normal, types: !7)
!7 = !{}
!9 = !DILocation(line: 77, column: 298, scope: !5)
!10 = !DILocation(line: 20, column: 5, scope: !5)
!11 = !DILocation(line: 10, column: 3, scope: !5)
'''


def test_scan_keeps_the_ir_positions_no_python_file_shares():
    pos = ir_positions.scan(TTGIR)
    # 20:5 is the .ttir's and k.py's: ambiguous, kept as written; 30:1 shares its line with k.py's 30:9
    assert pos.ir == {(77, 298): "/tmp/e/k.ttir", (30, 1): "/tmp/e/k.ttir"}
    assert pos.ir_lines == {77: "/tmp/e/k.ttir"}
    assert not ir_positions.scan(TTGIR.replace(".ttir", ".py"))  # no IR file named: nothing to do


def test_llir_ops_at_an_ir_position_go_back_to_the_ir_file():
    module = llir.parse(LLIR, "/c/k.llir")
    before = [(op.loc.file, op.loc.line) for op in module.ops if op.loc]
    assert ("/src/k.py", 77) in before
    assert ir_positions.relabel(module, ir_positions.scan(TTGIR)) == 1
    after = {op.loc.line: op.loc.file for op in module.ops if op.loc}
    assert after == {77: "/tmp/e/k.ttir", 20: "/src/k.py", 10: "/src/k.py"}
    assert module.notes[-1].startswith("1 ops at positions of /tmp/e/k.ttir")
    assert ir_positions.relabel(module, ir_positions.scan(TTGIR)) == 0  # once is enough


def test_a_line_without_a_column_matches_by_line_only_where_no_python_line_is_that_line():
    def op(line: int, inlined: bool = False) -> Op:
        caller = SourceLoc("/src/k.py", 40, 1) if inlined else None
        return Op(1, "LDS.64", "LDS.64 R0, [R1]", SourceLoc("/src/k.py", line, 0, caller))

    module = Module("sass", "/c/k.cubin", [op(77), op(30), op(77, inlined=True)])
    assert ir_positions.relabel(module, ir_positions.scan(TTGIR)) == 1
    assert [o.loc.file for o in module.ops] == ["/tmp/e/k.ttir", "/src/k.py", "/src/k.py"]
