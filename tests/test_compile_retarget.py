"""`compile ENTRY --target T`: a cache entry's TTIR compiled again for another target by the installed
Triton (triton.compile(path.ttir, target=...)), with the options its metadata records. The entries are
real: vLLM's TurboQuant decode recorded on an H100 with Triton 3.6 (tests/data/thirdparty-h100-triton3.6),
whose TTIR Triton 3.9 reads; liger's SwiGLU of the same release, whose TTIR it reads once respelled (its
descriptor types), and TTIR of Triton 2.2, which it cannot read."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import CORPUS, run_cli

DATA = Path(__file__).parent / "data" / "thirdparty-h100-triton3.6"
VLLM = DATA / "vllm" / "BMENN4NH2U5WOVJ6QFVCUGYAI4Y6M553F7NZPWLUHNEP4NLFSPOQ"
LIGER = DATA / "liger" / "MHPEY66NHTCPLJX6FR7LOHTN5N6R2JBMSN3NWFU3RGQXBSIJTH5Q"


def _triton() -> tuple[int, int]:
    import triton

    return tuple(int(x) for x in triton.__version__.split(".")[:2])


def _positions(cache: Path, target: str) -> set[tuple[int, int, str]]:
    r = run_cli("loads", "_tq_decode_stage1", "--cache-dir", str(cache), "--target", target, "--json")
    assert r.returncode == 0, r.stderr
    return {(row["line"], row["col"], row["kind"]) for row in json.loads(r.stdout)["rows"]}


def test_an_h100_entry_compiled_for_blackwell_and_mi300(tmp_path):
    if _triton() < (3, 6):
        pytest.skip("Triton 3.6's TTIR")
    out = tmp_path / "out"
    before = sorted(p.name for p in VLLM.iterdir())
    r = run_cli("compile", str(VLLM), "--target", "cuda:100", "--target", "hip:gfx942", "--cache-dir", str(out),
                "--json")
    assert r.returncode == 0, r.stderr
    results = json.loads(r.stdout)["results"]
    assert [(x["target"], x["kernel_name"], x["error"]) for x in results] == [
        ("cuda:100", "_tq_decode_stage1", None), ("hip:gfx942", "_tq_decode_stage1", None)]
    assert all(x["options"]["num_warps"] == 1 and x["spec"]["ir_triton_version"] == "3.6.0" for x in results)
    assert sorted(p.name for p in VLLM.iterdir()) == before  # the source entry is read, never written
    # every global access of the H100 entry is there on both new targets, at the same source position (on
    # gfx942 some are buffer loads and stores: AMD's backend turns pointer arithmetic into buffer offsets)
    h100 = _positions(DATA / "vllm", "cuda:90")
    assert h100 and h100 == _positions(out, "cuda:100")
    assert {p[:2] for p in h100} == {p[:2] for p in _positions(out, "hip:gfx942")}
    assert any(kind.startswith("buffer") for *_, kind in _positions(out, "hip:gfx942"))
    # the high byte of a 16-bit code that a mask then drops: ptxas removes its load on the H100 (`removed`
    # in SASS); on gfx942 LLVM already emits nothing for it, which `loads` proves (`not-emitted`)
    r = run_cli("loads", "_tq_decode_stage1", "--cache-dir", str(out), "--target", "hip:gfx942", "--json")
    (row,) = [x for x in json.loads(r.stdout)["rows"] if (x["line"], x["col"]) == (185, 16)]
    assert row["verdict"] == "unknown" and row["reasons"] == ["not-emitted"]
    assert not any(row[s] for s in ("llir", "isa"))


def test_what_cannot_be_compiled_again_says_why(tmp_path):
    out = str(tmp_path / "out")
    r = run_cli("compile", str(VLLM), "--constexpr", "BLOCK=4", "--cache-dir", out)
    assert r.returncode == 2 and "--constexpr: a cache entry's TTIR is specialized already" in r.stderr
    r = run_cli("compile", str(DATA / "vllm"), "--cache-dir", out)
    assert r.returncode == 2 and ".ttir files in this directory" in r.stderr
    gluon = tmp_path / "gluon_entry"  # a Gluon entry's files: no TTIR to compile again
    gluon.mkdir()
    for name in ("k.source", "k.glir", "k.ttgir", "k.json"):
        (gluon / name).write_text("")
    r = run_cli("compile", str(gluon), "--cache-dir", out)
    assert r.returncode == 2 and "a Gluon kernel keeps no TTIR" in r.stderr and len(r.stderr.splitlines()) == 1
    # before 3.9 no .glir: its .source is a module with TTGIR attributes (it said "no .ttir files")
    (gluon / "k.glir").unlink()
    (gluon / "k.source").write_text('module attributes {"ttg.num-warps" = 4 : i32} {\n}\n')
    r = run_cli("compile", str(gluon), "--cache-dir", out)
    assert r.returncode == 2 and "a Gluon kernel keeps no TTIR" in r.stderr and len(r.stderr.splitlines()) == 1
    # a .ttir with no function (emptied, truncated): Triton's compiler died of SIGSEGV on it
    for text in ("", "module {\n}\n"):
        empty = tmp_path / "empty" / "k.ttir"
        empty.parent.mkdir(exist_ok=True)
        empty.write_text(text)
        r = run_cli("compile", str(empty), "--target", "cuda:90", "--cache-dir", out)
        assert r.returncode == 1 and r.stderr.splitlines()[-1] == (
            f"tritonscope: error: {empty} (cuda:90): no tt.func in this TTIR: nothing to compile")
    if _triton() != (3, 9):
        return  # which TTIR another release refuses is release-specific
    # liger's 3.6 TTIR wraps tensor types in its descriptors, which 3.8 on refuses: respelled, it compiles
    r = run_cli("compile", str(LIGER), "--target", "cuda:100", "--cache-dir", out)
    assert r.returncode == 0, r.stderr
    assert "Triton 3.6.0's TTIR respelled for Triton 3.9.0: tensor descriptor types as !tt.tensordesc<shape x " \
           "element> (12x)" in r.stderr
    # a 2.2 entry names no release: the one its metadata's fields show
    old = Path(__file__).parent / "data" / "releases-2.0-2.2" / "2.2" / "1cdc060ec20b9218d416fa4524f65cc6"
    r = run_cli("compile", str(old), "--target", "cuda:90", "--cache-dir", out)
    (line,) = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
    assert r.returncode == 1 and "Triton 3.9.0 cannot read Triton 2.2's TTIR (the release its metadata shows): " \
        "line 2:58: expected string in `tt.func public @dot_kernel_0123456(%arg0: !tt.ptr<f16, 1>" in line


XFORMERS = DATA / "xformers" / "YFDNCOBXAZ7ERO5EQOUCBL7F5RHPOJDJV2WYFFIKCUDA7CVT7UZA"


def _retargeted_loads(entry: Path, target: str, kernel: str, tmp_path: Path) -> dict:
    """`loads --json` of an entry compiled again for `target` into a fresh cache."""
    out = tmp_path / "out"
    r = run_cli("compile", str(entry), "--target", target, "--cache-dir", str(out))
    assert r.returncode == 0, r.stderr
    return json.loads(run_cli("loads", kernel, "--cache-dir", str(out), "--json").stdout)


def _reps(form: str) -> int:
    (n,) = re.findall(r"\.x(\d+)(?:\.|$)", form)
    return int(n)


def test_lightning_attention_backward_on_blackwell(tmp_path):
    """xformers' lightning-attention backward (an H100 entry) compiled for cuda:100 by Triton 3.9: its five
    TMEM allocations take 224 columns, Triton allocates 128 (allocations that do not live at once share
    columns); each TMEM access joins its tcgen05.ld/st, and SASS's halves of a 64-row access
    (`LDTM.16dp32bit_t0_t15.x32`, no width in the spelling) follow PTX by their `.x` count."""
    from tritonscope.artifacts import tools

    if _triton() != (3, 9):
        pytest.skip("Triton 3.9's lowering for cuda:100")
    out = tmp_path / "out"
    r = run_cli("compile", str(XFORMERS), "--target", "cuda:100", "--cache-dir", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(run_cli("layout", "_bwd_inter_kernel", "--cache-dir", str(out), "--json").stdout)
    assert (doc["tmem_columns"], doc["tmem_allocations"]) == (128, {"count": 5, "columns": 224})
    # `diff` of the two entries tells the port: Hopper's wgmma became tcgen05 MMAs over tensor memory
    (entry,) = [p for p in out.iterdir() if p.is_dir()]
    r = run_cli("diff", str(XFORMERS), str(entry), "--format", "json")
    (changed,) = json.loads(r.stdout)["changed"]
    deltas = {m["name"]: (m["a"], m["b"]) for m in changed["metrics"]}
    assert deltas["ops:wgmma"] == (16, 0) and deltas["tmem"] == (0, 128)
    assert deltas["ops:tcgen05_mma"][0] == 0 < deltas["ops:tcgen05_mma"][1]
    assert deltas["ops:tmem_load"][0] == 0 < deltas["ops:tmem_load"][1]
    rows = json.loads(run_cli("loads", "_bwd_inter_kernel", "--cache-dir", str(out), "--json").stdout)["rows"]
    # Triton's parser gives the loop-carried values (iter_args print no location) the .ttir's own
    # positions (77:298, 173:383); LLVM's debug info writes them as lines of lightning_attn2.py, which
    # the kernel's text never holds there: their ops are the .ttir's again, in every lower stage
    at_ttir = {(r["line"], r["col"], r["op"]) for r in rows if r["file"].endswith(".ttir")}
    assert at_ttir == {(77, 298, "ttg.local_load"), (77, 298, "ttg.local_alloc"), (173, 383, "ttg.local_load"),
                       (173, 383, "ttg.local_alloc")}
    kernel_77, ttir_77 = (json.loads(run_cli("map", "_bwd_inter_kernel", "--cache-dir", str(out), "--line", "77",
                                             *more, "--json").stdout)["stages"]
                          for more in ((), ("--file", "_bwd_inter_kernel.ttir")))
    assert {s["stage"]: s["count"] for s in kernel_77} == {s["stage"]: 0 for s in kernel_77}
    counts = {s["stage"]: s["count"] for s in ttir_77}
    assert counts["ttgir"] == 2 and counts["llir"] > 0 and counts["ptx"] > 0
    assert counts.get("sass", 1) > 0
    tmem = [r for r in rows if r["kind"].startswith("tmem")]
    assert len(tmem) == 8 and all(not r["ambiguous"] and r["verdict"] == "as-predicted" for r in tmem)
    for r in tmem:  # a 16x32bx2 access moves one 32-bit register per repetition: its bytes come from PTX
        (ptx_form,) = r["stages"]["ptx"]
        assert ".16x32bx2." in ptx_form and r["vector_bytes"] == 4 * _reps(ptx_form)
    if tools.find_nvidia_tool("nvdisasm") is not None:
        for r in tmem:
            (ptx_form,) = r["stages"]["ptx"]
            assert all(f.endswith(f".x{_reps(ptx_form)}") for f in r["stages"]["sass"]), (r["line"], r["stages"])
            assert sum(r["stages"]["sass"].values()) == 2 * r["stages"]["ptx"][ptx_form]  # two halves each


VLLM_ATTN = DATA / "vllm" / "NZYWWBMS57LHP6LYOJ7AHNE73HR5ZAKWONQ3E6WHR4RLM4GTZIAQ"


def test_uniform_loads_on_amd_are_scalar_loads_not_removed(tmp_path):
    """vLLM's packed-int4 attention (an H100 entry) compiled for MI300: the sequence lookup its helper
    does with one program's index (`find_seq_idx`, four scalar i32 loads at 402:73) is uniform across the
    wave, and the AMDGPU backend reads it through the scalar cache (`s_load_dword`, `s_load_dwordx2`).
    Those rows join their scalar loads; before, nothing of their kind was found and `removed` was claimed."""
    if _triton() != (3, 9):
        pytest.skip("Triton 3.9's lowering for gfx942")
    doc = _retargeted_loads(VLLM_ATTN, "hip:gfx942", "_attn_packed", tmp_path)
    rows = doc["rows"]
    lookup = [r for r in rows if r["line"] == 402 and r["col"] == 73]
    assert len(lookup) == 4 and all(r["kind"] == "global_load" and r["dtype"] == "i32" for r in lookup)
    for r in lookup:
        forms = {**r["stages"].get("amdgcn", {}), **r["ambiguous"].get("amdgcn", {})}
        assert all(f.startswith("s_load_dword") for f in forms), forms
        assert r["verdict"] != "unknown" and not any(c["code"] == "removed" for c in r["count_changes"])
        # 73:54's `s_load_dword s60, s[0:1], 0x48` reads a kernel argument (the segment's pointer is
        # s[0:1]): no row's, listed beside them
        assert r["other_forms"]["amdgcn"] == {"s_load_dword": 1}
    # two adjacent i32 (73:32, 76:23) are one `s_load_dwordx2`: the second is `combined` into the first
    joined = {r["written_at"]["line"]: r for r in lookup}
    assert joined[73]["stages"]["amdgcn"] == {"s_load_dwordx2": 1}
    assert not joined[76]["stages"].get("amdgcn") and [c["code"] for c in joined[76]["count_changes"]] == ["combined"]
    # the kernel's own argument loads (column 0: its `def` line, and 73:54's) are no access's, listed once
    arguments = [u for u in doc["unattributed"] if u["form"].startswith("s_load")]
    assert arguments and all(u["kind"] == "other_mem" for u in arguments)
    assert any(u["col"] == 0 for u in arguments) and sum(u["line"] == 402 for u in arguments) == 1


def test_an_entry_compiled_again_with_other_options(tmp_path):
    if _triton() < (3, 6):
        pytest.skip("Triton 3.6's TTIR")
    out = tmp_path / "out"
    r = run_cli("compile", str(VLLM), "--target", "cuda:90", "--option", "num_stages=2", "--option", "maxnreg=64",
                "--cache-dir", str(out), "--json")
    assert r.returncode == 0, r.stderr
    (result,) = json.loads(r.stdout)["results"]
    assert result["spec"]["options"]["num_stages"] == 2 and result["options"]["num_stages"] == 2
    (meta,) = [p for p in out.glob("*/*.json") if not p.name.startswith("__grp__")]
    doc = json.loads(meta.read_text())
    assert (doc["num_stages"], doc["maxnreg"], doc["num_warps"]) == (2, 64, 1)  # num_warps still the entry's


FLAGGEMS_WHERE = DATA / "flaggems" / "2QEBBLSYPKC4UQJ6VTSOJOJNFZRYDPWZM7MJYDG62DB766SSHIKQ"


def test_a_select_between_two_loads_becomes_one_load_on_amd(tmp_path):
    """FlagGems' generated `where` (an H100 entry) on gfx942: its two bf16 operand loads (106:22, 108:22)
    are one `global_load_ushort` at the `arith.select` (111:37): AMDGPU loads from the address the
    condition selects. Both rows say so (`selected`), the first holds the instruction, the second takes
    its verdict; neither is `removed` or unknown."""
    if _triton() != (3, 9):
        pytest.skip("Triton 3.9's lowering for gfx942")
    rows = _retargeted_loads(FLAGGEMS_WHERE, "hip:gfx942", "where_inner_kernel_rank_2", tmp_path)["rows"]
    a, b = ([x for x in rows if (x["line"], x["col"]) == pos] for pos in ((106, 22), (108, 22)))
    (a,), (b,) = a, b
    assert a["isa"] == {"global_load_ushort": 1} and not b["isa"]
    for x in (a, b):
        assert [c["code"] for c in x["count_changes"]] == ["selected"] and x["verdict"] == a["verdict"] != "unknown"
        assert "1x global_load_ushort at 111:37, the arith.select" in x["count_changes"][0]["evidence"]


def test_a_pass_that_fails_says_where_in_the_source_and_what(tmp_path):
    """An fp8 (fnuz) dot compiled for gfx942, its TTIR compiled again for an H100 (tests/data/compile/
    fnuz-dot-gfx942, the kernel beside it): no NVIDIA MMA takes fnuz operands. Triton raises "PassManager::run
    failed"; the error MLIR printed names the source position and the reason, and the one line says that."""
    if _triton() != (3, 9):
        pytest.skip("the diagnostic's text is release-specific")
    folder = Path(__file__).parent / "data" / "compile" / "fnuz-dot-gfx942"
    (entry,) = [p for p in folder.iterdir() if p.is_dir()]
    r = run_cli("compile", str(entry), "--target", "cuda:90", "--cache-dir", str(tmp_path / "out"))
    assert r.returncode == 1
    (line,) = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
    assert line.endswith("fnuz_dot.ttir (cuda:90): fnuz_dot.py:10:9: unsupported MMA instruction for the given "
                         "operand/result types"), line


TTIR36 = Path(__file__).parent / "data" / "compile" / "ttir-3.6"


def test_respelling_older_ttir_keeps_every_line_and_changes_only_the_spelling():
    """`ttir_upgrade.upgrade`: 3.6's cache-hint keywords become 3.9's `#tt.cache_policy` attribute (merged into
    an attr-dict the op has), 3.7's wrapped descriptor types 3.8's; nothing for a writer already past a rule,
    or an installed release before it; every line stays on its line."""
    from tritonscope.compile.ttir_upgrade import upgrade

    text = (TTIR36 / "MMZS6PAOWAO7VBAHC563SF6TU6BLD4SDZD45XYIBOZMDEMTJXIFQ" / "hinted.ttir").read_text()
    new, done = upgrade(text, (3, 6), (3, 9))
    assert done == ["load and store cache hints as #tt.cache_policy (5x)"]
    assert len(new.splitlines()) == len(text.splitlines())
    assert "%c_13 = tt.load %c_12 {cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = " \
           "evict_last>, isVolatile = true} : tensor<256x!tt.ptr<f16>>" in new
    assert "tt.store %a_7, %a_8 {cachePolicy = #tt.cache_policy<cache_modifier = cs, eviction_policy = " \
           "evict_normal>} :" in new
    assert "evictionPolicy" not in new and "cacheModifier" not in new
    assert upgrade(text, (3, 9), (3, 9)) == (text, []) and upgrade(text, (3, 6), (3, 8)) == (text, [])
    desc = (TTIR36 / "725VVUWBOR4S4ZQQJMRJRHMOGWYLRXAM32ZAKV567WOFK3PJZZHQ" / "described.ttir").read_text()
    new, done = upgrade(desc, (3, 6), (3, 8))
    assert done == ["tensor descriptor types as !tt.tensordesc<shape x element> (4x)"]
    assert "tensordesc<tensor<" not in new and "!tt.tensordesc<64x64xf16>" in new
    assert upgrade("%x = tt.load %p : !tt.tensordesc<tensor<8xf16, #shared>>", None, (3, 9))[0] == \
        "%x = tt.load %p : !tt.tensordesc<8xf16, #shared>"


def _isa(entry: Path, suffix: str) -> list[str]:
    """An entry's code: its ISA up to the debug sections, without file table, line records, comments and
    path strings (they name the sources' folders)."""
    (f,) = entry.glob(f"*{suffix}")
    keep = []
    for line in f.read_text().splitlines():
        s = line.strip()
        if s.startswith(".section") and ".debug" in s:
            break  # DWARF: its bytes spell the sources' folders
        if s.startswith((".loc", ".file", ";", "//")) or not s or '"/' in s:  # (debug strings name folders)
            continue
        keep.append(line.split(";")[0].split("//")[0].rstrip().replace("@", ""))
    return keep


def test_a_36_entry_compiles_as_the_installed_release_compiles_its_source(tmp_path):
    """Triton 3.6's TTIR of three kernels (tests/data/compile/ttir-3.6: cache hints on gfx942, tensor
    descriptors from the host and made on the device, on an H100), which Triton 3.9 refuses as written,
    compiled again by the installed release after respelling, against that release's own compile of their
    Python source: the same AMDGCN and PTX, instruction for instruction. The note says what was respelled."""
    if _triton() < (3, 9):
        pytest.skip("the respelling rules apply from Triton 3.8/3.9")
    direct, again = tmp_path / "direct", tmp_path / "again"
    for kernel, target, sig, block in (("hinted", "hip:gfx942", "x=*fp16,y=*fp16,n=i32", 256),
                                       ("described", "cuda:90",
                                        "a_desc=tensordesc<fp16[64, 64]>,b_desc=tensordesc<fp16[64, 64]>", 64),
                                       ("mkdesc", "cuda:90", "a=*fp16,b=*fp16,M=i32,N=i32", 64)):
        src = TTIR36 / ("mkdesc.py" if kernel == "mkdesc" else "hinted.py")
        r = run_cli("compile", f"{src}::{kernel}", "--target", target, "--signature", sig, "--constexpr",
                    f"BLOCK={block}", "--cache-dir", str(direct / kernel))
        assert r.returncode == 0, r.stderr
        (entry,) = [p for p in TTIR36.iterdir() if (p / f"{kernel}.ttir").exists()]
        r = run_cli("compile", str(entry), "--target", target, "--cache-dir", str(again / kernel))
        assert r.returncode == 0, r.stderr
        assert "Triton 3.6.0's TTIR respelled for Triton" in r.stderr
        suffix = ".amdgcn" if target.startswith("hip") else ".ptx"
        (d,), (a,) = (direct / kernel).iterdir(), (again / kernel).iterdir()
        assert _isa(a, suffix) == _isa(d, suffix), kernel


def test_what_an_assembler_refuses_is_quoted(tmp_path):
    """lmdeploy's split reduction (Triton 3.6, H200) waits for the previous grid with PTX inline assembly,
    `griddepcontrol.wait`; compiled again for gfx950, AMD's assembler refuses it: the line quotes the
    instruction (not only "invalid instruction")."""
    if _triton() != (3, 9):
        pytest.skip("the assembler's wording is release-specific")
    entry = Path(__file__).parent / "data" / "thirdparty-h200-triton3.6" / "lmdeploy" / \
        "EQICVRLRUWGJCLCMXK5QOSHZK4ABNROVVPKD2JHFSD7HWIELQHDQ"
    r = run_cli("compile", str(entry), "--target", "hip:gfx950", "--cache-dir", str(tmp_path / "out"))
    (line,) = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
    assert r.returncode == 1 and "(hip:gfx950): RuntimeError: invalid instruction in `griddepcontrol.wait;" in line


def test_real_kernels_compiled_again_for_amd_join_their_instructions(tmp_path):
    """Four recorded kernels compiled again for AMD by the installed Triton, where the join meets what
    AMDGPU does differently: fbgemm's jagged attention reloads its argument pointer from VGPR lanes after a
    spill (its two scalar offset loads are one `s_load_dwordx4`, not an unknown); an Inductor int64 -> int32
    copy loads only the low 4 bytes, on the store's line (relocated, `partial-element`); FLA's two dot
    operands at one position, bf16 and f32, told apart by LLVM's element type and AMD's transposing LDS
    reads; xformers' split-K dot operand read by a helper at 903:45, its LDS reads on the dot's 901:28 at the
    same call, while the helper's layout conversions at that call stay unclaimed."""
    if _triton() != (3, 9):
        pytest.skip("the AMD code the installed release emits decides these")
    h200, h100 = Path(__file__).parent / "data" / "thirdparty-h200-triton3.6", DATA
    splitk = Path(__file__).parent / "data" / "compile" / "xformers-splitk"
    entries = {"gfx950": [h200 / "fbgemm" / "5UZYABKH7PEFEA5C7DBN3OGRR5M2TUCBP64GN3ZQXWWR3HKAL36A",
                          h200 / "cce" / "I7PYBENGT3CMUUY74GYDTAL3TQNINEPIZVFPN4CVOB74ISDFHDMA",
                          h100 / "fla" / "2W2UK4VH4ULAWWLMYHS5M7HGDSLXOIVJ7JJ2I4DMFGMOAFAWXLMA"],
               "gfx942": [next(p for p in splitk.iterdir() if p.is_dir())]}
    out = tmp_path / "out"
    for arch, paths in entries.items():
        r = run_cli("compile", *map(str, paths), "--target", f"hip:{arch}", "--cache-dir", str(out / arch))
        assert r.returncode == 0, r.stderr

    def rows(arch: str, kernel: str) -> list[dict]:
        r = run_cli("loads", kernel, "--cache-dir", str(out / arch), "--json")
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)["rows"]

    jagged = {r["where"]: r for r in rows("gfx950", "jagged_flash_attention_basic_kernel")}
    assert jagged["45:20"]["isa"] == {"s_load_dwordx4": 1}
    assert [c["code"] for c in jagged["46:18"]["count_changes"]] == ["combined"]
    assert jagged["46:18"]["verdict"] == "scalar"  # (0-d: one element, whatever the wider instruction carries)
    (copy,) = [r for r in rows("gfx950", "triton_poi_fused__to_copy_0") if r["kind"] == "global_load"]
    assert copy["isa"] == {"global_load_dword": 1} and copy["attribution"] == "moved"
    assert copy["reasons"][0] == "partial-element"
    operands = {r["dtype"]: r for r in rows("gfx950", "chunk_fwd_kernel_h")
                if r["line"] == 141 and r["kind"] == "shared_load"}
    assert operands["bf16"]["isa"] == {"ds_read_b64_tr_b16": 32} and operands["bf16"]["attribution"] == "exact"
    assert operands["f32"]["isa"] == {"ds_read2_b32": 64} and operands["f32"]["attribution"] == "exact"
    report = json.loads(run_cli("loads", "_fwd_kernel_splitK", "--cache-dir", str(out / "gfx942"), "--json").stdout)
    (dot,) = [r for r in report["rows"] if r["where"].startswith("splitk_kernels.py:903:45") and
              r["kind"] == "shared_load"]
    assert dot["isa"] == {"ds_read_b128": 4} and [c["code"] for c in dot["count_changes"]] == ["relocated"]
    assert "sit on 901:28 at the same call" in dot["count_changes"][0]["evidence"]
    assert {u.get("written") for u in report["unattributed"] if u["line"] == 140 and u["kind"] == "shared_load"} \
        >= {"773:25", "869:29"}


def test_copies_of_one_position_shared_out_by_what_each_lacks(tmp_path):
    """Two join rules on real kernels compiled again for gfx950. AMD's buffer ops lower to buffer
    instructions and nothing else does: Inductor's pipelined matmul copies each tile at one position by an
    `amdg.buffer_load_to_local` (its prologue) and a `ttg.async_copy_global_to_local` (its loop), and the
    `buffer_load_dwordx4`s are the first's, the `global_load_lds_dwordx4` the second's. And bytes: gemlite's
    int8 dot operand and its f32 scales, read from shared memory at one position; the scales' five LDS reads
    match their LLIR one for one, the operand's 8-byte LLIR reads became 40 `ds_read2_b64`, exactly the
    bytes it lacks: they are its, none is shared."""
    if _triton() != (3, 9):
        pytest.skip("the AMD code the installed release emits decides these")
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    mm = CORPUS / "inductor-h200-triton3.6" / "triton_cache" / "PCFIIJZ4OJEYDBOTEEGH7RTXAIB4PQR3IC3NGUC7SANZGL5I2RUA"
    rows = _retargeted_loads(mm, "hip:gfx950", "triton_mm", tmp_path)["rows"]
    copies = {(r["where"], r["op"]): r for r in rows if r["kind"] == "async_copy"}
    assert {w for w, _ in copies} == {"77:20", "82:20"}
    for where in ("77:20", "82:20"):
        prologue, loop = copies[(where, "amdg.buffer_load_to_local")], copies[(where, "ttg.async_copy_global_to_local")]
        assert prologue["isa"] == {"buffer_load_dwordx4": 2} and loop["isa"] == {"global_load_lds_dwordx4": 1}
        assert prologue["attribution"] == loop["attribution"] == "exact"
    gemlite = DATA / "gemlite" / "2LVMWLFPTNO3IEEFLGNQFM5ZOMRYBEPJKPLH2TZUOPMN3WERM6OA"
    rows = _retargeted_loads(gemlite, "hip:gfx950", "gemm_INT_kernel", tmp_path / "gemlite")["rows"]
    operands = {r["dtype"]: r for r in rows if r["where"].startswith("452:33") and r["kind"] == "shared_load"}
    assert operands["i8"]["isa"] == {"ds_read2_b64": 40} and operands["i8"]["attribution"] == "exact"
    assert operands["f32"]["isa"] == {"ds_read_b32": 5} and not operands["f32"]["ambiguous_with"]


def test_hinted_accesses_of_a_loops_results_are_respelled(tmp_path):
    """Triton 3.6 prints a loop's result operand as `%acc_6#0`: the respelling read only plain names, so a
    hinted load and store of a loop's results stayed in 3.6's spelling and Triton 3.9 refused the TTIR."""
    from tritonscope.compile.ttir_upgrade import upgrade

    entry = TTIR36 / "PYIJX7RJ7I75WJ5HE3IOJT6HTPKAWRHJBEYY4MBOEYY5U4EJE22A"
    text = (entry / "carried.ttir").read_text()
    assert "%acc_6#0 cacheModifier = cg" in text
    new, done = upgrade(text, (3, 6), (3, 9))
    assert "cacheModifier" not in new and "evictionPolicy" not in new
    assert "tt.load %acc_6#0 {cachePolicy = #tt.cache_policy<cache_modifier = cg" in new
    if _triton() < (3, 9):
        return
    r = run_cli("compile", str(entry), "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    (ptx,) = (tmp_path / "c").glob("*/*.ptx")
    assert "ld.global.cg" in ptx.read_text() and "st.global.cs" in ptx.read_text()


def test_a_retarget_launches_as_the_entry_was_launched(tmp_path):
    """A warp-specialized kernel's metadata counts every partition's warps (12 for Triton's Blackwell
    attention, launched with 4): passed back as num_warps it was refused ('num_warps must be a power of
    2'); a HIP kernel's own waves_per_eu was dropped for another HIP GPU; maxnreg, which HIP has no option
    for, was dropped without a word and still claimed in the spec."""
    import json
    import shutil

    if _triton() < (3, 9):
        pytest.skip("Triton 3.9's own entries")
    data = Path(__file__).parent / "data"
    attn = data / "tutorials-cuda100-triton3.9" / "7IQX35U3XE32IUCDGZQJFYARR4IW6XECL2QTPTJBU5QWXIFGIOMA"
    r = run_cli("compile", str(attn), "--target", "cuda:100", "--cache-dir", str(tmp_path / "ws"), "--json")
    assert r.returncode == 0, r.stderr
    (res,) = json.loads(r.stdout)["results"]
    assert res["spec"]["options"]["num_warps"] == 4 and any("warp-specialized" in n for n in res["notes"])
    aiter = next((data / "thirdparty-gfx942-triton3.9" / "aiter").glob("GQVHB6VX*"))
    r = run_cli("compile", str(aiter), "--target", "hip:gfx950", "--cache-dir", str(tmp_path / "amd"), "--json")
    (res,) = json.loads(r.stdout)["results"]
    assert res["spec"]["options"].get("waves_per_eu") == 4, res
    entry = shutil.copytree(TTIR36 /
                            "PYIJX7RJ7I75WJ5HE3IOJT6HTPKAWRHJBEYY4MBOEYY5U4EJE22A", tmp_path / "mr" / "E")
    meta = json.loads((entry / "carried.json").read_text())
    (entry / "carried.json").write_text(json.dumps({**meta, "maxnreg": 64}))
    r = run_cli("compile", str(entry), "--target", "hip:gfx942", "--cache-dir", str(tmp_path / "mrc"), "--json")
    (res,) = json.loads(r.stdout)["results"]
    assert "maxnreg" not in res["spec"]["options"]
    assert any("maxnreg=64: the hip backend has no such option" in n for n in res["notes"]), res["notes"]


def test_a_retargeted_entry_keeps_its_ttirs_column_convention(tmp_path, cache32):
    """Compiled again from Triton 3.2's TTIR, an entry's columns are 3.2's (0-based) under 3.9's metadata:
    map read them as 1-based and highlighted the expression before the one asked."""
    import json

    if _triton() < (3, 8):
        pytest.skip("the metadata of a release before 3.8 says 0-based anyway")
    src = next(p for p in cache32.iterdir() if (p / "add_kernel.ttir").exists() and (p / "add_kernel.json").exists()
               and '"cuda"' in (p / "add_kernel.json").read_text())
    r = run_cli("compile", str(src), "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    (entry,) = (tmp_path / "c").iterdir()
    doc = json.loads(run_cli("map", str(entry), "--line", "65", "--json").stdout)
    assert doc["columns"] == "0-based"


def test_the_entry_compiled_again_is_no_cache_to_write(tmp_path, cache39):
    """`compile ENTRY --cache-dir ENTRY` wrote the new entry inside the one it only reads."""
    import shutil

    entry = shutil.copytree(next(p for p in cache39.iterdir() if (p / "add_kernel.ttir").exists()), tmp_path / "e")
    before = sorted(p.name for p in entry.iterdir())
    r = run_cli("compile", str(entry), "--target", "cuda:90", "--cache-dir", str(entry))
    assert r.returncode == 2 and "is inside a Triton cache entry (an entry is only read)" in r.stderr
    assert sorted(p.name for p in entry.iterdir()) == before


def test_a_crashed_compile_of_a_ttir_still_says_what_was_asked():
    """A compile process killed by a signal had `spec` null: for a cache entry's TTIR, the file asked for."""
    from tritonscope.compile.driver import _crashed, requests_for
    from tritonscope.compile.request import CompileTarget

    (request,) = requests_for([str(VLLM)], [CompileTarget("cuda", "90", 32)])
    result = _crashed(request, -11, "")
    assert result.spec == {"from_ir": request.kernel.ir} and request.kernel.ir.endswith(".ttir")
    assert result.error.message == "Triton's compiler crashed: the process was killed by SIGSEGV"
