"""srcmap: attribution by outermost location, coverage, memory flow; srcpaths: finding moved sources."""

from __future__ import annotations

from collections import Counter

from tritonscope.artifacts.cache import Cache, resolve_one
from tritonscope.srcmap.kernelmap import (
    coverage,
    line_counts,
    load_kernel_map,
    memory_flow,
    memory_kind,
    parse_stage_list,
)
from tritonscope.srcmap.paths import SourceFinder, columns_are_one_based, expression_span


def kernel_map(cache, name, target, stages=None):
    entry = resolve_one(Cache(cache), name, target)
    names, explicit = parse_stage_list(stages, entry)
    return load_kernel_map(entry, names, explicit)


def test_gemv_tile_173_memory_flow_gfx942_39(cache39):
    kmap = kernel_map(cache39, "gemv_tile_kernel", "hip:gfx942", "ttir,ttgir,llir,amdgcn")
    assert kmap.source_file == "/tmp/irkernels/kernels.py"
    kinds = {s: [memory_kind(s, op) for op in kmap.ops_at(s, 173)] for s in kmap.stages}
    flow = dict(memory_flow(kinds))
    assert flow == {"ttir": Counter({"tt.load": 1}), "ttgir": Counter({"tt.load": 1}),
                    "llir": Counter({"load <8 x half>": 16}), "amdgcn": Counter({"global_load_dwordx4": 16})}


def test_column_narrows_to_one_expression_39(cache39):
    kmap = kernel_map(cache39, "gemv_tile_kernel", "hip:gfx942", "ttgir")
    # line 175: `prod = w.to(tl.float32) * xk.to(tl.float32)[:, None]`; 1-based expression starts:
    # column 12 starts `w.to(...)` and the product, column 31 starts `xk.to(...)[:, None]`
    assert len(kmap.ops_at("ttgir", 175)) == 5
    assert Counter(op.op for op in kmap.ops_at("ttgir", 175, col=12)) == Counter(
        {"arith.extf": 1, "tt.broadcast": 1, "arith.mulf": 1})
    assert Counter(op.op for op in kmap.ops_at("ttgir", 175, col=31)) == Counter(
        {"arith.extf": 1, "tt.expand_dims": 1})


def test_softmax_line_counts_and_coverage_32(cache32):
    kmap = kernel_map(cache32, "softmax_kernel", "cuda:90", "ttir,ttgir,llir,ptx")
    counts, covs = line_counts(kmap)
    assert {s: (c[91], c[92], c[93]) for s, c in counts.items()} == {
        "ttir": (3, 3, 3), "ttgir": (3, 3, 3), "llir": (51, 24, 44), "ptx": (53, 24, 43)}
    assert not any(c[36] or c[43] or c[44] for c in counts.values())
    assert covs["ttir"].to_json() == {"stage": "ttir", "ops": 27, "attributed": 26, "unknown": 1, "no_loc": 0,
                                      "other_file": 0, "percent": 96.3}
    assert (covs["ptx"].ops, covs["ptx"].attributed) == (227, 227)


def test_coverage_counts_unknown_and_missing_apart(cache32):
    kmap = kernel_map(cache32, "softmax_kernel", "hip:gfx942", "amdgcn")
    cov = coverage(kmap.stages["amdgcn"], kmap.source_file)
    assert (cov.ops, cov.attributed, cov.unknown, cov.no_loc) == (260, 245, 14, 1)


def test_source_finder_rules(tmp_path):
    src = tmp_path / "src" / "ab" / "kernel.py"
    src.parent.mkdir(parents=True)
    src.write_text("@triton.jit\ndef k():\n    b = 2\n")  # (a Triton function: what the policy reads)
    sub = SourceFinder(substitutions=(("/tmp/rc/inductor", str(tmp_path / "src")),))
    assert sub.locate("/tmp/rc/inductor/ab/kernel.py") == (str(src), "substitute-path")
    assert sub.locate("/tmp/rc/inductorX/ab/kernel.py") == (None, None)  # whole components only
    root = SourceFinder(roots=(str(tmp_path / "src"),))
    assert root.locate("/elsewhere/ab/kernel.py") == (str(src), "source-root")
    assert root.locate("/elsewhere/zz/kernel.py") == (str(src), "source-root")  # by basename
    text = root.read("/elsewhere/ab/kernel.py", {"/elsewhere/ab/kernel.py"})
    assert text.found and text.line(3) == "    b = 2" and text.line(4) is None
    missing = SourceFinder().read("/nowhere/kernel.py", {"/nowhere/kernel.py"})
    assert not missing.found and "--source-root" in missing.error


def test_a_source_root_with_two_files_of_the_name_guesses_neither(tmp_path):
    """The search by name below a --source-root took the first of several same-named files, and the
    report said it was found: now the one whose folders match more of the IR's path, else none."""
    for folder in ("a", "b", "c/ops"):
        (tmp_path / "src" / folder).mkdir(parents=True)
        (tmp_path / "src" / folder / "kernels.py").write_text("@triton.jit\n")
    root = SourceFinder(roots=(str(tmp_path / "src"),))
    path, why = root.locate("/elsewhere/zz/kernels.py")
    assert path is None and why.startswith(f"kernels.py is in more than one place under {tmp_path / 'src'} (")
    assert "give --substitute-path" in why
    assert root.locate("/elsewhere/x/ops/kernels.py") == (str(tmp_path / "src" / "c" / "ops" / "kernels.py"),
                                                         "source-root")
    text = root.read("/elsewhere/zz/kernels.py", {"/elsewhere/zz/kernels.py"})
    assert not text.found and "more than one place" in text.error


def test_expression_span_and_column_convention():
    line = '    w = tl.load(w_ptrs, mask=n_mask[None, :], other=0.0, eviction_policy="evict_first")'
    start, end = expression_span(line, 9, one_based=True)
    assert line[start:end] == 'tl.load(w_ptrs, mask=n_mask[None, :], other=0.0, eviction_policy="evict_first")'
    start, end = expression_span("    row = tl.load(input_ptrs, mask=mask)", 18, one_based=False)
    assert "    row = tl.load(input_ptrs, mask=mask)"[start:end] == "input_ptrs"
    assert columns_are_one_based("3.9.0") is True
    assert columns_are_one_based("3.7.1") is False
    assert columns_are_one_based(None) is False  # no triton_version in the metadata: an older release


def test_expression_span_counts_the_columns_utf8_bytes():
    """Python's ast (and Triton's locations) count a column in UTF-8 bytes: after `ééé` (6 bytes, 3
    characters) the highlight was 3 characters off (`load(x_ptr + ...` for `tl.load(...)`)."""
    line = "    ééé = tl.load(x_ptr + offs, mask=m); ß = tl.exp(ééé)"
    for col, expected in ((14, "tl.load(x_ptr + offs, mask=m)"), (22, "x_ptr"), (50, "tl.exp(ééé)")):
        start, end = expression_span(line, col, one_based=True)
        assert line[start:end] == expected, col
    assert expression_span(line, len(line.encode()) + 1, one_based=True) is None
