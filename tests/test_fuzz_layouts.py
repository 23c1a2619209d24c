"""Property-based fuzzing of the layout parser: attribute text, alias tables, tensor types, linear layouts.

Seeds are the layout lines of real TTGIR (NVIDIA blocked/slice/mma/dot_op/shared, AMD mfma, 3.2 and 3.9
spellings). The layout functions are pure (no file), so the contract is: a result, or ParseError (a
TritonscopeError from the layers above it) with a one-line message; never another exception, never a hang.
"""

from __future__ import annotations

import re

from fuzz_seeds import CORPUS, STATS, fuzz_settings, mutate, mutated_inputs, no_hang
from hypothesis import given
from hypothesis import strategies as st

from tritonscope.errors import ParseError, TritonscopeError
from tritonscope.layouts.attrs import iter_shaped_types, parse_layout, parse_layout_aliases, parse_tensor_type
from tritonscope.layouts.tensor import to_linear
from tritonscope.layouts.uses import kernel_layout_uses

CI_EXAMPLES = 150
LAYOUT_SEEDS = [
    "triton-3.9.0/FK4O4HMCRZ6DFM26ERZ3UIFTYT6Y773NJLTKAD5U4NY362Y33QPQ/matmul_kernel.ttgir",  # cuda:90 wgmma
    "triton-3.9.0/X67W3NLPIRBF3NWZX7PMQTL6VZG7VFUBKROUREUL2ZNRQYJS7QTA/matmul_kernel.ttgir",  # cuda:80 mma
    "triton-3.9.0/AYJIRKHPESPUQYN2QFLY4TIMHL4B3NXV45FRJOUBLTQMREITZBDQ/matmul_kernel.ttgir",  # gfx942 mfma
    "triton-3.2.0/qlGsSm5mOoPkSbZav7LoVTr1RK20ghlDc8lLInvzjNI/matmul_kernel.ttgir",  # 3.2 spelling
    "triton-3.9.0/TWWPLXS2UOETQNB37UVKIJKEJSGQVY6IHVAXHM37QTBLWHZ7HVBA/softmax_kernel.ttgir",  # slice
]
LAYOUT_LINE = re.compile(rb"^#\w+ = #(?:ttg|triton_gpu|ttng)\.\w+<.*$", re.MULTILINE)
MAX_ELEMENTS = 1 << 20  # linear layouts are built for tensors up to this size (a mutated 2^40 is not a test)


def _seed_files() -> list[tuple[str, bytes]]:
    return [(p.split("/")[-1], (CORPUS / p).read_bytes()) for p in LAYOUT_SEEDS]


# Blackwell tensor memory in every spelling (the corpus has no cuda:100 entry): 3.8+, 3.6/3.7, <= 3.5, scales
TMEM_LINES = [
    "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
    "#tmem1 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 2, CGALayout = [[1, 0], [0, 1]], "
    "twoCTAs = true>",
    "#tmem2 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitM = 2, CTASplitN = 2>",
    "#tmem3 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 32, unpacked = true>",
    "#tmem4 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, fp4Padded = true>",
    "#tmem_scales = #ttng.tensor_memory_scales_encoding<CGALayout = [[0, 1]], blockRepOrder = kThenMn>",
]


def _layout_lines() -> list[str]:
    lines: set[str] = set(TMEM_LINES)
    for _, data in _seed_files():
        lines.update(m.group(0).decode() for m in LAYOUT_LINE.finditer(data))
    return sorted(lines)


def _check_error(exc: TritonscopeError) -> None:
    assert "\n" not in str(exc), f"error message spans lines: {str(exc)!r}"


def test_seed_layouts_parse_and_convert():
    """Every alias of the seeds parses, and every tensor type using one converts to a linear layout."""
    for name, data in _seed_files():
        text = data.decode()
        aliases = parse_layout_aliases(text)
        assert aliases, name
        uses = kernel_layout_uses(text, name)
        assert {u.name for u in uses} >= set(aliases), name
        for u in uses:
            for use in u.uses:
                to_linear(u.layout, use.shape, use.access_bits)


def test_mutated_layout_attributes():
    lines = [(str(i), line.encode()) for i, line in enumerate(_layout_lines())]
    assert len(lines) >= 10

    @fuzz_settings(CI_EXAMPLES)
    @given(mutated_inputs(lines), st.sampled_from(["1024", "64x64", "128x32", "16x16x16", "8"]))
    def run(case, shape_text):
        _name, _kinds, data = case
        text = data.decode("utf-8", "replace")
        try:
            with no_hang():
                layout = parse_layout(text)
        except ParseError as exc:
            _check_error(exc)
            STATS.record("layout-attr", "parse-error")
            return
        shape = tuple(int(s) for s in shape_text.split("x"))
        try:
            with no_hang():
                to_linear(layout, shape, 16)
            STATS.record("layout-attr", "parsed+linear")
        except TritonscopeError as exc:
            _check_error(exc)
            STATS.record("layout-attr", "parsed, linear refused")

    run()


def test_mutated_ttgir_layout_tables():
    """Whole TTGIR files mutated: alias tables, tensor types and where each layout is used."""
    seeds = _seed_files()

    @fuzz_settings(CI_EXAMPLES // 2)
    @given(mutated_inputs(seeds))
    def run(case):
        name, _kinds, data = case
        text = data.decode("utf-8", "replace")
        try:
            with no_hang():
                for _lineno, type_text in iter_shaped_types(text):
                    try:
                        parse_tensor_type(type_text)
                    except ParseError as exc:
                        _check_error(exc)
                uses = kernel_layout_uses(text, f"fuzz/{name}")
                for u in uses:
                    for use in u.uses:
                        if _elements(use.shape) <= MAX_ELEMENTS:
                            try:
                                to_linear(u.layout, use.shape, use.access_bits)
                            except TritonscopeError as exc:
                                _check_error(exc)
        except TritonscopeError as exc:
            _check_error(exc)
            STATS.record("layout-ttgir", "error")
            return
        STATS.record("layout-ttgir", "parsed")

    run()


def _elements(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= max(s, 1)
    return n


def test_layout_alias_cycles_and_depth():
    text = ("#a = #ttg.slice<{dim = 0, parent = #b}>\n#b = #ttg.slice<{dim = 0, parent = #a}>\n"
            "#c = #ttg.slice<{dim = 0, parent = #c}>\n")
    try:
        parse_layout_aliases(text)
        raise AssertionError("a cycle of aliases must not parse")
    except ParseError as exc:
        assert "refers to itself" in str(exc) and exc.line in (1, 2)
    # a chain of 1000 aliases, each a slice of the next (resolved depth first, before any rank check)
    chain = [f"#l{i} = #ttg.slice<{{dim = 0, parent = #l{i + 1}}}>" for i in range(1000)]
    chain.append("#l1000 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>")
    try:
        with no_hang(60):
            parse_layout_aliases("\n".join(chain))
        raise AssertionError("1000 slices of a rank-1 layout must not parse")
    except ParseError as exc:
        _check_error(exc)
        assert "more than 64 deep" in str(exc)
    nested = "#ttg.slice<{dim = 0, parent = " * 1000 + "#ttg.blocked<{}>" + "}>" * 1000
    try:
        parse_layout(nested)
    except ParseError as exc:
        _check_error(exc)


def test_layout_text_junk():
    rnd_lines = _layout_lines()
    import random

    rnd = random.Random(7)
    for line in rnd_lines:
        for kind in ("truncate", "flip", "splice", "nul"):
            text = mutate(kind, line.encode(), rnd).decode("utf-8", "replace")
            try:
                parse_layout(text)
            except ParseError as exc:
                _check_error(exc)
