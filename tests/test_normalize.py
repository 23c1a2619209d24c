"""Normalization for diff/snapshot on the real corpus: what must vanish and what must stay."""

from __future__ import annotations

import difflib
import re
import textwrap
from pathlib import Path

import pytest

from tritonscope.artifacts.cache import Cache
from tritonscope.diff.normalize import NormalizeOptions, normalize, strip_mlir_locs

FOLD_OFF = NormalizeOptions(fold_renames=False)


def _entry_file(cache: Path, name: str, target: str, stage: str) -> Path:
    found = [e for e in Cache(cache).kernels() if e.name == name and str(e.target) == target and stage in e.files]
    assert len(found) == 1, (name, target, stage, found)
    return found[0].files[stage]


def _diff(a: str, b: str) -> list[str]:
    return [ln for ln in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
            if ln.startswith(("+", "-")) and not ln.startswith(("+++", "---"))]


def test_dialect_rename_alone_is_no_difference(cache32):
    text = _entry_file(cache32, "matmul_kernel", "cuda:90", "ttgir").read_text()
    assert text.count("triton_nvidia_gpu.") == 3 and "ttg." not in text
    renamed = text.replace("triton_nvidia_gpu.", "ttng.").replace("triton_gpu.", "ttg.")
    assert _diff(normalize("ttgir", text), normalize("ttgir", renamed)) == []
    # With the fold off, every line that spelled a prefix the old way is a difference.
    lines = _diff(normalize("ttgir", text, FOLD_OFF), normalize("ttgir", renamed, FOLD_OFF))
    assert sum(ln.startswith("-") for ln in lines) == 59
    assert sum(ln.startswith("+") for ln in lines) == 59
    assert all("triton_gpu." in ln or "triton_nvidia_gpu." in ln for ln in lines if ln.startswith("-"))


def test_named_ssa_values_fold_to_positional_names(cache32, cache39):
    # Triton 3.9 names SSA values after the Python variables (%pid, %offsets_1); 3.2 numbers them.
    a = _entry_file(cache32, "add_kernel", "cuda:80", "ttgir").read_text()
    b = _entry_file(cache39, "add_kernel", "cuda:80", "ttgir").read_text()
    assert "%pid = tt.get_program_id" in b and "%0 = tt.get_program_id" in a
    assert _diff(normalize("ttgir", a), normalize("ttgir", b)) == [
        '-module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", '
        '"ttg.threads-per-warp" = 32 : i32} {',
        '+module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", '
        '"ttg.threads-per-warp" = 32 : i32, "ttng.two-ctas" = false} {',
    ]
    off = _diff(normalize("ttgir", a, FOLD_OFF), normalize("ttgir", b, FOLD_OFF))
    assert any("%pid = tt.get_program_id x : i32" in ln for ln in off)
    assert any("triton_gpu.blocked" in ln for ln in off)


def test_positional_renaming_makes_renumbering_no_difference(cache32):
    ptx = _entry_file(cache32, "gemv_loop_kernel", "cuda:90", "ptx").read_text()
    shifted = re.sub(r"%(r|rd|f|p|rs)(\d+)\b", lambda m: f"%{m.group(1)}{int(m.group(2)) + 100}", ptx)
    shifted = re.sub(r"\$L__BB0_(\d+)", lambda m: f"$L__BB0_{int(m.group(1)) + 7}", shifted)
    assert shifted != ptx
    assert normalize("ptx", shifted) == normalize("ptx", ptx)
    llir = _entry_file(cache32, "matmul_kernel", "hip:gfx942", "llir").read_text()
    shifted = re.sub(r"%(\d+)\b", lambda m: f"%{int(m.group(1)) + 1000}", llir)
    shifted = re.sub(r"^(\d+):", lambda m: f"{int(m.group(1)) + 1000}:", shifted, flags=re.MULTILINE)
    assert normalize("llir", shifted) == normalize("llir", llir)
    gcn = _entry_file(cache32, "softmax_kernel", "hip:gfx942", "amdgcn").read_text()
    # the registers the kernel writes, allocated elsewhere: no difference
    shifted = re.sub(r"\bv(\d+)\b", lambda m: f"v{int(m.group(1)) + 40}", gcn)
    shifted = re.sub(r"\bv\[(\d+):(\d+)\]", lambda m: f"v[{int(m.group(1)) + 40}:{int(m.group(2)) + 40}]", shifted)
    assert shifted != gcn and normalize("amdgcn", shifted) == normalize("amdgcn", gcn)
    # a register it never writes, an input the hardware set (here the workgroup ids s8 and s9), keeps its
    # name: reading s40 instead is another kernel
    inputs = sorted(set(re.findall(r"\$s\d+", normalize("amdgcn", gcn))))
    assert inputs == ["$s8", "$s9"]
    moved_input = re.sub(r"\bs8\b", "s40", gcn)
    assert normalize("amdgcn", moved_input) != normalize("amdgcn", gcn)


@pytest.mark.parametrize("stage", ["source", "ttir", "ttgir", "llir", "ptx", "amdgcn"])
def test_no_debug_info_paths_or_hashes_survive(cache39, stage):
    seen = 0
    for e in Cache(cache39).kernels():
        if stage not in e.files:
            continue
        seen += 1
        raw = e.files[stage].read_text()
        out = normalize(stage, raw)
        assert "/tmp/" in raw  # every stage names its source file in the debug info
        for gone in ("/tmp/", "loc(", "#loc", "!dbg", "!DI", ".debug_", "\t.loc", "\t.file"):
            assert gone not in out, (e.name, str(e.target), gone)
        assert not re.search(r"^\s*\.(loc|file)\b", out, re.MULTILINE)
        assert e.meta("hash") not in out
        assert out.endswith("\n") and "\n\n" not in out
    assert seen == {"source": 30, "ttir": 30, "ttgir": 30, "llir": 30, "ptx": 10, "amdgcn": 20}[stage]


def test_real_instructions_survive(cache32, cache39):
    a = normalize("ptx", _entry_file(cache32, "gemv_tile_kernel", "cuda:80", "ptx").read_text())
    b = normalize("ptx", _entry_file(cache39, "gemv_tile_kernel", "cuda:80", "ptx").read_text())
    loads_a = [ln for ln in a.splitlines() if "ld.global" in ln]
    loads_b = [ln for ln in b.splitlines() if "ld.global" in ln]
    assert len(loads_a) == len(loads_b) == 33
    assert sum("ld.global.L1::evict_first.v4.b32" in ln for ln in loads_a) == 32
    # Triton 3.9 adds an L2 cache-policy operand to the same 32 loads: a real change, kept.
    assert sum("ld.global.L1::evict_first.L2::cache_hint.v4.b32" in ln for ln in loads_b) == 32
    gcn = normalize("amdgcn", _entry_file(cache32, "add_kernel", "hip:gfx942", "amdgcn").read_text())
    assert "; NumVgprs: 6" in gcn.splitlines() and "; Occupancy: 8" in gcn.splitlines()
    assert "    global_load_dwordx2 v[2:+1], v[2:+1], off" in gcn.splitlines()


def test_small_forms():
    assert strip_mlir_locs('%0 = tt.load %1 : tensor<4xf16> loc(callsite(#loc1 at "a(b)":3:4))') == \
        "%0 = tt.load %1 : tensor<4xf16>"
    text = ('source_filename = "/home/u/x/kernels.py"\n'
            '; built 2026-01-02T03:04:05Z from 3fe922c41ac14f3492da1b481129ada495784614d1dca8d8e0111d9cbeca4241\n'
            '@k = constant [52 x i8] c"7LC5OE4NJYDFZ24QSU5JNYTEXMSI524PDIHUVHTGL4SHRJ662IDA"\n')
    out = normalize("text", text)
    assert out == ('source_filename = "kernels.py"\n'
                   '; built <timestamp> from <hash>\n'
                   '@k = constant [52 x i8] c"<hash>"\n')


def test_whole_text_prefilter_changes_nothing():
    """normalize() runs a path/hash/timestamp substitution on the lines only when a C-speed test over the
    whole text says some line may need it: the output equals running every substitution on every line."""
    from tritonscope.diff import normalize as N

    def reference(text: str) -> str:
        out = [N._tidy_line(ln) for ln in text.splitlines()]  # every substitution, every line
        return "\n".join(ln for ln in out if ln.strip()) + "\n"

    cases = [
        'module attributes {x = "/home/u/k.py"} {\n  %0 = arith.constant 1 : i32\n}',
        "; ModuleID = 'deadbeefdeadbeefdeadbeefdeadbeef12'\n  ret void",
        "key 0123456789abcdef0123456789ABCDEF end",  # exactly 32 hex digits
        "// 22DEHI5GLKYT77W72DN4UG3TFAV35EG7JOWP3SURLM42AZGJNRJQ here\n",
        "built 2026-11-25T01:02:03Z by\tsomeone   twice",
        "no match at all\n\tjust  spaces",
        "٢٠٢٦-١١-٢٥ ٠١:٠٢:٠٣ unicode digits \u00e9 'x/y'",
        "deadbeefdeadbeefdeadbeefdeadbee short hex, 2026-11-2 not a date",
    ]
    for text in cases:
        assert N.normalize("unknown-stage", text) == reference(text), text


# The LLVM IR filters as they were applied line by line before the fast paths (the literal `, !dbg !N`
# pass over the whole text, the word test before the debug-line regexes): the oracle they are held to,
# on every LLIR file of the corpus and on texts made to trip a fast path.
_OLD_DBG_ATTACHMENT = re.compile(r",?\s*!dbg !\d+")
_OLD_DEBUG_LINE = re.compile(
    r"^\s*(?:!\d+ = (?:distinct )?!DI|!llvm\.dbg\.|#dbg_|(?:tail )?call void @llvm\.dbg\.|declare void @llvm\.dbg\.)")
_OLD_DEBUG_FLAG = re.compile(r'^!\d+ = !\{i32 \d+, !"(?:Debug Info Version|Dwarf Version)"')
_OLD_PREDS_COMMENT = re.compile(r"\s+;\s*(?:preds = .*|No predecessors!)$")


def _old_llir_filter(text: str) -> list[str]:
    kept = []
    for line in text.splitlines():
        if line.startswith(";") or _OLD_DEBUG_LINE.match(line) or _OLD_DEBUG_FLAG.match(line):
            continue
        kept.append(_OLD_PREDS_COMMENT.sub("", _OLD_DBG_ATTACHMENT.sub("", line)))
    return kept


def test_llir_fast_paths_equal_the_line_by_line_filters(corpus):
    from tritonscope.diff.normalize import _llir_prepass, _normalize_llir

    tricky = [
        "define void @k() {\n\n  !0 = !DILocation(line: 1)\n  ret void, !dbg !4\n}\n",  # blank line, then debug
        "a, !dbg !3\r\nb ; preds = %1\r\n; comment\r\nc\x0c!5 = !DIFile()\x0cd,   !dbg !7",  # CR LF, form feeds
        "x\n !dbg !9\n  ; preds = %2\nlast ; No predecessors!\ny,!dbg !10 ,\t!dbg !11",  # other spellings
        "  %3 = load i32, ptr %2, align 4, !dbg !12 ; preds = %0\u2028!1 = !DISubprogram()\n",
        '!7 = !{i32 2, !"Debug Info Version", i32 3}\n!8 = !{i32 7, !"Dwarf Version", i32 4}\n!llvm.ident = !{}',
        "  #dbg_value(ptr %1, !5, !DIExpression(), !6)\n  tail call void @llvm.dbg.value(metadata i32 0)\n",
    ]
    files = sorted(corpus.rglob("*.llir"))
    assert len(files) > 50
    options = NormalizeOptions()
    for text in tricky + [f.read_text() for f in files]:
        assert _normalize_llir(_llir_prepass(text).splitlines(), options) == \
            _normalize_llir(_old_llir_filter(text), options)


DIGESTS = Path(__file__).resolve().parent / "data" / "normalize-digests.json"


def _corpus_digests(corpus: Path) -> dict[str, str]:
    """sha256 of every normalized stage file, per (release cache, stage, option), files in path order."""
    import hashlib

    from tritonscope.diff.normalize import NORMALIZED_STAGES

    out = {}
    for cache in sorted(p for p in corpus.iterdir() if p.is_dir()):
        for stage in NORMALIZED_STAGES:
            files = sorted(cache.rglob(f"*.{stage}"))
            if not files:
                continue
            for options in (NormalizeOptions(), FOLD_OFF):
                h = hashlib.sha256()
                for f in files:
                    h.update(normalize(stage, f.read_text(encoding="utf-8"), options).encode())
                out[f"{cache.name} {stage} fold={options.fold_renames}"] = h.hexdigest()
    return out


def test_normalized_corpus_is_unchanged(corpus):
    """Every normalized stage of the shared corpus, pinned: a change to any normalizer (or its fast
    paths) that alters one byte fails here. After an intended change, rewrite the digests with
    TRITONSCOPE_REGEN_DIGESTS=1 and say in the commit what changed in the snapshots."""
    import json
    import os

    digests = _corpus_digests(corpus)
    if os.environ.get("TRITONSCOPE_REGEN_DIGESTS"):
        DIGESTS.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    assert len(digests) >= 20
    assert digests == json.loads(DIGESTS.read_text())


def test_llvm20_byte_geps_fold_with_scalar_ones():
    """Triton 3.8 (LLVM 20) prints a scalar GEP over bytes: 3.7's `getelementptr half, ptr addrspace(1)
    %0, i64 %39` is 3.8's `getelementptr [2 x i8], ...`, the same address. Folded; i8 and struct GEPs stay."""
    old = ("define void @k(ptr addrspace(1) %0, i64 %1) {\n  %3 = getelementptr half, ptr addrspace(1) %0, i64 %1\n"
           "  %4 = getelementptr inbounds float, ptr addrspace(1) %0, i64 %1\n"
           "  %5 = getelementptr inbounds nuw i8, ptr addrspace(3) @global_smem, i32 128\n  ret void\n}\n")
    new = old.replace("getelementptr half,", "getelementptr [2 x i8],").replace("inbounds float,",
                                                                                   "inbounds [4 x i8],")
    assert normalize("llir", old) == normalize("llir", new)
    assert "getelementptr inbounds nuw i8," in normalize("llir", old)
    assert _diff(normalize("llir", old, FOLD_OFF), normalize("llir", new, FOLD_OFF)) != []


def test_quoted_path_precheck_agrees_with_the_pattern():
    """The test before the path substitution (tried at each quote-slash only) says yes exactly when the
    pattern matches somewhere: strings drawn from the characters the pattern turns on."""
    import random

    from tritonscope.diff.normalize import QUOTED_ABS_PATH, _may_hold_quoted_path

    rng = random.Random(19)
    for _ in range(20000):
        text = "".join(rng.choice("\"'/ab \n") for _ in range(rng.randrange(1, 14)))
        assert _may_hold_quoted_path(text, text.encode()) == bool(QUOTED_ABS_PATH.search(text)), repr(text)


LLIR_FRAGMENTS = ("define void @k(ptr %0) {", "}", "7:", "L.x:", '"a b":', "target: x", "attributes #0 = { }",
                  "  %8 = add i32 %0, 1", '  call void asm "%r1 // \\"", "=r"(i32 %8)', '  %"q r" = load',
                  "%struct.S = type { i32 }", '  br label %7, !llvm.loop !12', '  unterminated " %x', "",
                  "source_filename = \"a\"", "@g = global i32 0", "  ret void ; %y")


def test_llir_renaming_a_function_at_once_matches_line_by_line():
    """Values and labels renamed over a whole function's text number exactly as the line-by-line reference
    does: labels where they are defined, names inside strings untouched, lines that only look like labels
    (`target: ...`) and quoted labels, unterminated quotes, type names at column 0."""
    import random

    from tritonscope.diff.normalize import _rename_llir_function, _rename_llir_lines, _Renamer

    rng = random.Random(311)
    for _ in range(3000):
        text = "\n".join(rng.choice(LLIR_FRAGMENTS) for _ in range(rng.randrange(1, 12)))
        expected = "\n".join(_rename_llir_lines(text.split("\n"), _Renamer("%v")))
        assert _rename_llir_function(text) == expected, repr(text)


def test_llir_normalization_renames_each_function_from_zero():
    text = ("define void @a(ptr %x) {\n3:\n  %y = load i32, ptr %x\n  br label %3\n}\n"
            "define void @b(ptr %p) {\n  %q = load i32, ptr %p\n  ret void\n}\n")
    assert normalize("llir", text) == ("define void @a(ptr %v0) {\nv1:\n  %v2 = load i32, ptr %v0\n  br label %v1\n}\n"
                                       "define void @b(ptr %v0) {\n  %v1 = load i32, ptr %v0\n  ret void\n}\n")


MLIR_FRAGMENTS = ('%0 = tt.load %arg0 : tensor<4xf32>', '^bb1(%1: i32):', 'cf.br ^bb1(%0 : i32)',
                  'tt.call @f(%x) {s = "%0 ^bb2"}', '%a_b.c = arith.addi %0, %0', 'unterminated " %q ^bb3', "",
                  'tt.return', '}', '%1:2 = "op"(%0) : (i32) -> (i32, i32)')


def test_mlir_renaming_a_function_at_once_matches_line_by_line():
    """Values and blocks renamed over a function's joined text get the numbers line-by-line renaming gives
    (values, then blocks, on each line in turn): names in strings untouched, unterminated quotes."""
    import random
    import re

    from tritonscope.diff.normalize import (
        _MLIR_BLOCK_LABEL_GROUP,
        NormalizeOptions,
        _rename_all,
        _rename_mlir_function,
        _Renamer,
    )

    def line_by_line(lines):
        """The reference: each value token in turn, outside strings; a definition (a line's results before its
        ` = `, a name followed by ` = ` or `: `) of a name defined before takes a new number (sibling regions)."""
        values, blocks, defined = {}, _Renamer("^bb"), set()
        out = []
        for ln in lines:
            pieces = re.split(r'("(?:\\.|[^"\\\n])*")', ln)
            code = "".join(p if i % 2 == 0 else " " * len(p) for i, p in enumerate(pieces))
            head = re.match(r"\s*(%[\w$.\-]+(?::\d+)?(?:, %[\w$.\-]+(?::\d+)?)*) = ", code)
            new = []
            for m in re.finditer(r"%[A-Za-z0-9_$.\-]+", code):
                name, end = m.group(0), m.end()
                is_def = bool(head and m.start() < head.end(1)) or code.startswith((" = ", ": "), end)
                if (is_def and name in defined) or name not in values:
                    values[name] = f"%v{next(counter)}"
                if is_def:
                    defined.add(name)
                new.append((m.start(), end, values[name]))
            for start, end, repl in reversed(new):
                ln = ln[:start] + repl + ln[end:]
            out.append(_rename_all(_MLIR_BLOCK_LABEL_GROUP, blocks, ln))
        return out

    import itertools

    rng = random.Random(173)
    for _ in range(3000):
        lines = [rng.choice(MLIR_FRAGMENTS) for _ in range(rng.randrange(1, 10))]
        counter = itertools.count()
        assert _rename_mlir_function(lines, NormalizeOptions()) == line_by_line(lines), lines


def _assert_strings(folder: str, typed: bool = False) -> tuple[str, str]:
    """debug=True's assert strings of one kernel compiled from `folder` (real Triton 3.9 lines; `typed`: the
    typed-pointer GEP an older LLVM wrote for its use)."""
    path = f"{folder}/k.py"
    n = len(path.encode()) + 1
    use = (f"getelementptr inbounds ([{n} x i8], [{n} x i8]* @assertFile_0, i64 0, i64 0)" if typed
           else "@assertFile_0")
    llir = (f'@assertFile_0 = internal constant [{n} x i8] c"{path}\\00"\n'
            '@assertMessage_0 = internal constant [8 x i8] c"too far\\00"\n'
            "define void @k() {\n"
            f"  tail call void @__assertfail(ptr nonnull @assertMessage_0, ptr nonnull {use}, i32 8)\n"
            "  ret void\n}\n")
    ptx = (f".global .align 1 .b8 assertFile_0[{n}] = {{{', '.join(str(b) for b in path.encode())}}};\n"
           ".visible .entry k()\n{\n\tmov.b64 \t%rd4, assertFile_0;\n\tret;\n}\n")
    return llir, ptx


@pytest.mark.parametrize("folder,typed", [("/tmp/d5/bbbbbbbb", False), ("/tmp/d5/bbbbbbbb", True),
                                          ("/tmp/d5/with space", False), ("/tmp/d5/it's", False),
                                          ("/tmp/d5/tab\tdir", False)])
def test_an_assert_path_in_another_folder_is_no_difference(folder, typed):
    """debug=True keeps the kernel's file path in a string constant: its file name was kept, but the size
    ([17 x i8], .b8 assertFile_0[17]) and, in PTX, the bytes of the whole path still differed between the
    same kernel compiled in /tmp/d5/a/x and in /tmp/d5/bbbbbbbb; a folder with a space, a quote or a tab
    kept the whole path (QA helper 29)."""
    a, b = _assert_strings("/tmp/d5/a/x", typed), _assert_strings(folder, typed)
    if "\t" in folder:  # (LLVM prints a tab in a string as \09)
        b = (b[0].replace("\t", "\\09"), b[1])
    for i, stage in enumerate(("llir", "ptx")):
        assert normalize(stage, a[i]) == normalize(stage, b[i])
    llir = normalize("llir", a[0])
    assert '@assertFile_0 = internal constant [5 x i8] c"k.py\\00"' in llir
    assert '[8 x i8] c"too far\\00"' in llir and "[17 x i8]" not in llir
    assert ".b8 assertFile_0[5] = {107, 46, 112, 121};" in normalize("ptx", a[1])


def test_a_snapshot_written_before_the_size_fold_refolds_to_the_same_text():
    """A snapshot committed by an older tritonscope kept `[17 x i8] c"k.py\\00"` and the PTX bytes of the
    whole path: `refold` brings it to today's normalization, so CI does not report the kernel changed."""
    from tritonscope.diff.normalize import refold

    llir, ptx = _assert_strings("/tmp/d5/a/x")
    old_llir = normalize("llir", llir).replace("[5 x i8]", "[17 x i8]")
    old_ptx = ".global .align 1 .b8 assertFile_0[17] = {" + ", ".join(str(b) for b in b"/tmp/d5/a/x/k.py") + "};\n"
    assert refold("llir", old_llir) == normalize("llir", llir)
    assert refold("ptx", old_ptx) == ".global .align 1 .b8 assertFile_0[5] = {107, 46, 112, 121};\n"


@pytest.mark.parametrize("text,old,new", [
    # a second destination (a carry mask), an RDNA dual's second half, a gfx12 returning atomic, gfx9's
    # v_cmpx_e64 mask, a register of a loaded range: written, so renamed (they were kept as inputs: noise)
    ("v_add_co_u32_e64 v1, s[0:1], v0, 4\nv_addc_co_u32_e64 v2, s[0:1], 0, v3, s[0:1]", r"s\[0:1\]", "s[2:3]"),
    ("v_dual_mov_b32 v1, 0 :: v_dual_mov_b32 v2, 1\nv_add_f32 v3, v1, v2", r"\bv2\b", "v4"),
    ("global_atomic_add_u32 v3, v1, v2, s[0:1] th:TH_ATOMIC_RETURN\nv_mov_b32 v4, v3", r"\bv3\b", "v5"),
    ("v_cmpx_lt_f32_e64 s[4:5], v1, v2\ns_and_b64 s[6:7], s[4:5], exec", r"s\[4:5\]", "s[8:9]"),
    ("global_load_dwordx2 v[4:5], v[0:1], off\nv_add_f32 v6, v4, v5", r"v\[4:5\]|\bv4\b|\bv5\b",
     lambda m: {"v[4:5]": "v[8:9]", "v4": "v8", "v5": "v9"}[m.group(0)]),
])
def test_an_amdgcn_register_written_is_renamed_wherever_its_destination_stands(text, old, new):
    moved = re.sub(old, new, text)
    assert moved != text and normalize("amdgcn", moved) == normalize("amdgcn", text)


@pytest.mark.parametrize("old,new", [
    ("global_load_lds_dwordx4 v[2:3], off", "global_load_lds_dwordx4 v[4:5], off"),  # (an address, into LDS)
    ("buffer_load_dword v1, s[0:3], 0 offen lds", "buffer_load_dword v9, s[0:3], 0 offen lds"),
    ("ds_gws_init v1", "ds_gws_init v9"),
    ("global_atomic_add_f32 v1, v2, s[0:1]", "global_atomic_add_f32 v7, v2, s[0:1]"),  # (returns nothing)
])
def test_an_amdgcn_register_only_read_keeps_its_name(old, new):
    assert normalize("amdgcn", old) != normalize("amdgcn", new)


def test_helper_symbols_mangled_by_release_fold_to_their_name_and_order():
    """Helper 70: the `source` stage keeps helpers as calls, each named by its qualified name and a
    specialization every release mangles its own way (3.6 `@"...zeros____(0, 0)cconstexpr_512__(1,)cconstexpr_fp32_"`,
    3.8 `@...zeros__Tc512T_cfp32`): every kernel's source stage changed across an upgrade, so `--fail-on any`
    could not pass. Folded, each helper is its name and the order it is declared in; unfolded, as written."""
    from tritonscope.diff.normalize import refold

    def module(zeros: str, other: str) -> str:
        return textwrap.dedent(f"""\\
            module {{
              tt.func public @k(%arg0: !tt.ptr<f32>) {{
                %0 = tt.call @{zeros}() : () -> tensor<512xf32>
                %1 = tt.call @{other}(%0) : (tensor<512xf32>) -> tensor<512xf32>
                tt.return
              }}
              tt.func private @{zeros}() -> tensor<512xf32> attributes {{noinline = false}} {{
                tt.return
              }}
              tt.func private @{other}(%arg0: tensor<512xf32>) -> tensor<512xf32> attributes {{noinline = false}} {{
                tt.return %arg0 : tensor<512xf32>
              }}
            }}
            """)

    v36 = module('"triton.language.standard.zeros____(0, 0)cconstexpr_512__(1,)cconstexpr_fp32_"',
                 '"kernels.helper__fp32S512S_fp32__"')
    v38 = module("triton.language.standard.zeros__Tc512T_cfp32", "kernels.helper__fp32S512S_fp32")
    a, b = normalize("source", v36), normalize("source", v38)
    assert a == b and "@\"triton.language.standard.zeros__<0>\"()" in a and "@\"kernels.helper__<1>\"(" in a, a
    raw = NormalizeOptions(fold_renames=False)
    assert normalize("source", v36, raw) != normalize("source", v38, raw)
    # a snapshot written before this fold (the mangled names in it) is folded again when read
    assert refold("source", normalize("source", v36, raw)) == refold("source", a)


def test_folds_hide_no_real_difference():
    """Helper 73, on the folds: a helper only declared (no body) is known by its name alone, so it keeps it
    (`@lib.fast__exp` vs `@lib.fast__log` folded alike); a folded name is no symbol a module spells (a public
    `@h__0` and a helper `@h__x` compared equal); a string naming a function renames nothing; a pointer whose
    pointee nests three deep, or printed without a space (`!tt.ptr<f32,1>`), folds as the others do; address
    spaces other than 1 stay."""
    from tritonscope.diff.normalize import fold_helper_symbols, fold_pointer_address_space

    decl = "  tt.func private @lib.fast__{}(f32) -> f32\n  %x = tt.call @lib.fast__{}(%v) : (f32) -> f32\n"
    assert fold_helper_symbols(decl.format("exp", "exp")) != fold_helper_symbols(decl.format("log", "log"))
    public = "  tt.func public @h__0() {\n    tt.call @h__x() : () -> ()\n  }\n  tt.func private @h__x() {\n  }\n"
    selfcall = public.replace("tt.call @h__x", "tt.call @h__0")
    assert fold_helper_symbols(public) != fold_helper_symbols(selfcall)
    printed = '  tt.print " func private @k__y(" {\n  %0 = tt.call @k__y() : () -> ()\n'
    assert fold_helper_symbols(printed) == printed
    deep = "!tt.ptr<tensor<64x64xf16, #triton_gpu.dot_op<{opIdx = 0, parent = #triton_gpu.mma<{versionMajor = 2}>}>>"
    assert fold_pointer_address_space(deep + ", 1>") == deep + ">"
    assert fold_pointer_address_space("!tt.ptr<f32,1>") == "!tt.ptr<f32>"
    for kept in ("!tt.ptr<f32, 3>", "!tt.ptr<f32, 10>", "tensor<4xi32, 1>"):
        assert fold_pointer_address_space(kept) == kept


def test_a_name_defined_again_in_a_sibling_region_is_a_value_of_its_own():
    """Helper 128: MLIR reuses a value name in sibling regions (Triton 3.5+ names values after Python's
    variables: three loops over `off`). Numbered by name, the second loop's `%off` was the first's, so
    renaming it in Python (`o2`) renumbered the loop, and `--fail-on any` failed on a kernel whose code had
    not changed. Each definition is a value of its own: both spellings normalize alike."""
    text = ("tt.func public @k(%x: !tt.ptr<f32>, %n: i32) {\n"
            "  %c0 = arith.constant 0 : i32\n"
            "  %a = scf.for %off = %c0 to %n step %c0 iter_args(%acc = %c0) -> (i32)  : i32 {\n"
            "    %s = arith.addi %acc, %off : i32\n    scf.yield %s : i32\n  }\n"
            "  %b:2 = scf.for %off = %c0 to %n step %c0 iter_args(%acc = %a, %t = %c0) -> (i32, i32)  : i32 {\n"
            "    %s, %u = tt.call @two(%acc, %off) : (i32, i32) -> (i32, i32)\n    scf.yield %s, %u : i32, i32\n"
            "  }\n"
            "  %r = \"tt.reduce\"(%b#0) <{axis = 0 : i32}> ({\n  ^bb0(%p: i32, %q: i32):\n"
            "    %m = arith.maxsi %p, %q : i32\n    tt.reduce.return %m : i32\n  }) : (i32) -> i32\n"
            "  %r2 = \"tt.reduce\"(%r) <{axis = 0 : i32}> ({\n  ^bb0(%p: i32, %q: i32):\n"
            "    %m = arith.minsi %p, %q : i32\n    tt.reduce.return %m : i32\n  }) : (i32) -> i32\n"
            "  tt.return\n}\n")
    renamed = text.replace("scf.for %off = %c0 to %n step %c0 iter_args(%acc = %a", "scf.for %o2 = %c0 to %n "
                           "step %c0 iter_args(%acc = %a")
    renamed = renamed.replace("tt.call @two(%acc, %off)", "tt.call @two(%acc, %o2)")
    assert renamed != text
    assert normalize("ttgir", text) == normalize("ttgir", renamed)
    lines = normalize("ttgir", text).splitlines()
    loops = [ln for ln in lines if "scf.for" in ln]
    # the second loop's variable and accumulator are values of their own, used as such in its body
    iv = [ln.split("scf.for ")[1].split(" ")[0] for ln in loops]
    assert len(set(iv)) == 2, loops
    assert f"tt.call @two(%v{int(iv[1][2:]) + 1}, {iv[1]})" in "\n".join(lines)
    minmax = [ln for ln in lines if "arith.maxsi" in ln or "arith.minsi" in ln]
    assert minmax[0].split(" = ")[1].split(" ", 1)[1] != minmax[1].split(" = ")[1].split(" ", 1)[1], minmax
    assert normalize("ttgir", text, FOLD_OFF).count("%off") == 4  # (names kept: nothing renumbered)
    # a snapshot written before (numbered by name) reads as one written now
    from tritonscope.diff.normalize import _MLIR_SSA_GROUP, _rename_all, _Renamer, refold

    by_name = _rename_all(_MLIR_SSA_GROUP, _Renamer("%v"), normalize("ttgir", text, FOLD_OFF))
    assert by_name != normalize("ttgir", text) and refold("ttgir", by_name) == normalize("ttgir", text)


def test_printer_only_changes_between_releases_fold():
    """Helper 128: two spellings of one op, 3.8's and 3.9's, were changed lines in every diff across them: a
    load's cache hints (keywords, then one `#tt.cache_policy` attribute) and an AMD buffer op's types (3.9
    prints the pointer's first). Real lines of gemv (3.6 / 3.9) and Liger's rms_norm (3.8 / 3.9, gfx942)."""
    old = ("tt.func public @k() {\n"
           "    %w_16 = tt.load %w_ptrs_13, %w_15, %w evictionPolicy = evict_first : tensor<64x256x!tt.ptr<f16>>\n"
           "    %x = tt.load %p cacheModifier = cg : tensor<64x!tt.ptr<f16>>\n"
           "    %X_row_9 = amdg.buffer_load %X_ptr[%X_row_8], %mask_3 : tensor<2048xbf16, #blocked>\n"
           "    amdg.buffer_store %7, %Y_ptr[%5], %mask_4 : tensor<2048xbf16, #blocked1>\n  tt.return\n}\n")
    new = ("tt.func public @k() {\n"
           "    %w_18 = tt.load %w_ptrs_15, %w_17, %w {cachePolicy = #tt.cache_policy<cache_modifier = none, "
           "eviction_policy = evict_first>} : tensor<64x256x!tt.ptr<f16>>\n"
           "    %x = tt.load %p {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>}"
           " : tensor<64x!tt.ptr<f16>>\n"
           "    %X_row_9 = amdg.buffer_load %X_ptr[%X_row_8], %mask_3 : !tt.ptr<bf16> -> tensor<2048xbf16, #blocked>\n"
           "    amdg.buffer_store %7, %Y_ptr[%5], %mask_4 : !tt.ptr<bf16> -> tensor<2048xbf16, #blocked1>\n"
           "  tt.return\n}\n")
    assert normalize("ttgir", old) == normalize("ttgir", new)
    assert _diff(normalize("ttgir", old, FOLD_OFF), normalize("ttgir", new, FOLD_OFF)) != []
    # TTGIR's other ops with hints (helper 130): an async copy, a buffer op after its offsets' `]`
    old_ops = ("tt.func public @k() {\n    %9 = ttg.async_copy_global_to_local %7, %8 mask %m cacheModifier = cg "
               "evictionPolicy = evict_first {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> "
               "<64x32xf16, #shared, #smem, mutable>\n    amdg.buffer_store %7, %Y[%5] cacheModifier = cs "
               "{contiguity = 4 : i32} : tensor<64xf32, #mma>\n  tt.return\n}\n")
    new_ops = ("tt.func public @k() {\n    %9 = ttg.async_copy_global_to_local %7, %8 mask %m {cachePolicy = "
               "#tt.cache_policy<cache_modifier = cg, eviction_policy = evict_first>, contiguity = 8 : i32} : "
               "tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>\n    amdg.buffer_store "
               "%7, %Y[%5] {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = evict_normal>, "
               "contiguity = 4 : i32} : !tt.ptr<f32> -> tensor<64xf32, #mma>\n  tt.return\n}\n")
    assert normalize("ttgir", old_ops) == normalize("ttgir", new_ops)
    # a real change of hint still shows
    assert normalize("ttgir", old) != normalize("ttgir", old.replace("evict_first", "evict_last"))
    # a snapshot written before these folds reads as one written now
    from tritonscope.diff.normalize import refold

    assert refold("ttgir", normalize("ttgir", new)) == normalize("ttgir", new)
    unfolded = normalize("ttgir", old, FOLD_OFF).replace("%w_16", "%v0").replace("%w_ptrs_13", "%v1")
    assert refold("ttgir", unfolded).count("#tt.cache_policy<") == 2
