"""layouts.attrs: layout attribute text -> dataclasses, alias tables, tensor types, one-line errors."""

from __future__ import annotations

import re

import pytest

from tritonscope.errors import ParseError
from tritonscope.layouts.attrs import parse_layout, parse_layout_aliases, parse_tensor_type
from tritonscope.layouts.model import (
    AmdMfmaLayout,
    AmdWmmaLayout,
    BlockedLayout,
    DotOperandLayout,
    LinearEncoding,
    NvidiaMmaLayout,
    NvmmaSharedLayout,
    PaddedSharedLayout,
    SliceLayout,
    SwizzledSharedLayout,
)

BLOCKED_BODY = "{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0, 1]}"


@pytest.mark.parametrize(
    "text",
    [
        f"#ttg.blocked<{BLOCKED_BODY}>",
        f"#triton_gpu.blocked<{BLOCKED_BODY}>",
        f"#blocked<{BLOCKED_BODY}>",
        f"#blocked1 = #ttg.blocked<{BLOCKED_BODY}>",
        "#ttg.blocked<{sizePerThread=[8,1], threadsPerWarp=[8,8], warpsPerCTA=[1,2], order=[0,1]}>",
    ],
)
def test_blocked_in_every_spelling(text):
    layout = parse_layout(text)
    assert isinstance(layout, BlockedLayout)
    assert (layout.size_per_thread, layout.threads_per_warp, layout.warps_per_cta, layout.order) == (
        (8, 1),
        (8, 8),
        (1, 2),
        (0, 1),
    )
    assert layout.cta.trivial and layout.rank == 2
    assert layout.to_text() == f"#ttg.blocked<{BLOCKED_BODY}>"


def test_every_kind_parses():
    cases = {
        (
            "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], "
            "instrShape = [16, 32, 16]}>"
        ): NvidiaMmaLayout,
        "#triton_gpu.mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CTAsPerCGA = [1, 1], "
        "CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 8]}>": NvidiaMmaLayout,
        "#triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [32, 32], "
        "isTransposed = true}>": AmdMfmaLayout,
        "#ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true, "
        "tilesPerWarp = [2, 2], elementBitWidth = 64}>": AmdMfmaLayout,
        "#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {register = [[0, 0]], warp = [[0, 1], "
        "[1, 0]]}}>": AmdWmmaLayout,
        "#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2, 2]}>": AmdWmmaLayout,
        "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4]], lane = [[0, 8], [0, 16], [4, 0], [8, 0], [16, 0], "
        "[32, 0]], warp = [[1, 0], [2, 0]], block = []}>": LinearEncoding,
        "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>": SwizzledSharedLayout,
        (
            "#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], "
            "hasLeadingOffset = true}>"
        ): SwizzledSharedLayout,
        "#ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>": SwizzledSharedLayout,
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>": NvmmaSharedLayout,
        (
            "#ttg.padded_shared<[512:+8] {offset = [[0, 1], [0, 2], [4, 0], [1, 0], [2, 0]], "
            "block = []}>"
        ): PaddedSharedLayout,
    }
    for text, cls in cases.items():
        assert isinstance(parse_layout(text), cls), text
    wmma = parse_layout("#ttg.amd_wmma<{version = 1, isTranspose = false, warpsPerCTA = [2, 4]}>")
    assert wmma.warps_per_cta == (2, 4)
    padded = parse_layout("#ttg.padded_shared<[512:+8, 1024:+16] {offset = [[0, 1], [1, 0]], block = []}>")
    assert padded.intervals == ((512, 8), (1024, 16))
    legacy = parse_layout(
        "#triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], "
        "order = [0], CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]}>"
    )
    assert legacy.cta.num_ctas == 2 and legacy.cta.block_bases() == ((1,),)
    assert "CGALayout = [[1]]" in legacy.to_text()


def test_aliases_refer_to_aliases():
    text = (
        "#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], "
        "order = [1, 0]}>\n"
        "#mma = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>\n"
        "#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 8}>\n"
        "#sl = #ttg.slice<{dim = 1, parent = #blocked}>\n"
        "#smem = #ttg.shared_memory\n"
        '#loc = loc("/tmp/k.py":10:1)\n'
    )
    aliases = parse_layout_aliases(text)
    assert list(aliases) == ["blocked", "mma", "dot", "sl"]
    assert isinstance(aliases["dot"], DotOperandLayout) and aliases["dot"].parent is aliases["mma"]
    assert isinstance(aliases["sl"], SliceLayout) and aliases["sl"].parent is aliases["blocked"]
    assert aliases["sl"].rank == 1


def test_every_corpus_alias_decodes(corpus):
    files = sorted(corpus.rglob("*.ttgir"))
    total = {}
    for path in files:
        for layout in parse_layout_aliases(path.read_text()).values():
            total[(path.parent.parent.name, layout.kind)] = total.get((path.parent.parent.name, layout.kind), 0) + 1
    assert len(files) == 90
    assert sum(total.values()) == 232
    assert total[("triton-3.2.0", "shared")] == 11  # 3.2's spelling, kept as its own kind
    assert total[("triton-3.9.0", "padded_shared")] == 2
    assert total[("triton_cache", "nvmma_shared")] > 0


def test_tensor_types():
    aliases = parse_layout_aliases(f"#blocked = #ttg.blocked<{BLOCKED_BODY}>\n")
    tt = parse_tensor_type("tensor<64x256xf16, #blocked>", aliases)
    assert (tt.shape, tt.dtype, tt.element_bits, tt.encoding_name, tt.memory) == (
        (64, 256),
        "f16",
        16,
        "blocked",
        "registers",
    )
    ptr = parse_tensor_type("tensor<64x256x!tt.ptr<f16>, #blocked>", aliases)
    assert (ptr.dtype, ptr.element_bits, ptr.pointee_dtype, ptr.pointee_bits, ptr.access_bits) == (
        "!tt.ptr<f16>",
        64,
        "f16",
        16,
        16,
    )
    inline = parse_tensor_type("tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>", aliases)
    assert isinstance(inline.encoding, SliceLayout) and inline.encoding_name is None and inline.shape == (64,)
    mem = parse_tensor_type(
        "!ttg.memdesc<16x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
        "order = [1, 0]}>, #smem, mutable, 32x64>",
        aliases,
    )
    assert (mem.memory, mem.shape, mem.alloc_shape) == ("shared", (16, 64), (32, 64))
    assert mem.view_of == (32, 64)  # a subslice: laid out as its allocation
    indexed = parse_tensor_type("!ttg.memdesc<16x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, "
                                "maxPhase = 8, order = [1, 0]}>, #smem, mutable, 3x16x64>", aliases)
    assert indexed.view_of is None  # one buffer of three: its own shape
    assert parse_tensor_type("tensor<128xf32>", aliases).encoding is None


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "#ttg.blocked<{sizePerThread = [8, x], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0, 1]}>",
            "sizePerThread: expected a list of integers, got [8, 'x']",
        ),
        (
            "#ttg.blocked<{sizePerThread = 8, threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0, 1]}>",
            "sizePerThread: expected a list of integers, got 8",
        ),
        (
            "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], order = [0, 1]}>",
            "blocked: missing field warpsPerCTA",
        ),
        (
            "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0, 0]}>",
            "order: expected a permutation of 0..1, got [0, 0]",
        ),
        (
            "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0]}>",
            "order: expected 2 entries like sizePerThread, got 1",
        ),
        (
            "#ttg.blocked<{sizePerThread = [3, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0, 1]}>",
            "sizePerThread: expected powers of two, got [3, 1]",
        ),
        (
            "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 2], order = [0, 1], "
            "colour = [1]}>",
            "blocked: unknown field colour",
        ),
        ("#ttg.slice<{dim = 1, parent = #blocked}>", "parent: unknown layout alias #blocked"),
        (
            "#ttg.dot_op<{opIdx = 2, parent = #ttg.blocked<" + BLOCKED_BODY[0:-1] + "}>}>",
            "opIdx: expected 0 or 1, got 2",
        ),
        ("#ttg.fancy<{a = 1}>", "unknown layout kind ttg.fancy"),
        ("#ttg.blocked<{sizePerThread = [8, 1]", "unexpected end of text"),
        ("blocked", "expected a layout attribute"),
    ],
)
def test_errors_name_the_field(text, message):
    with pytest.raises(ParseError) as info:
        parse_layout(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_tensor_memory_is_decoded_and_an_unknown_ttng_kind_listed():
    """Blackwell's TMEM encodings decode (tests/test_tmem.py); a ttng encoding of a later release is kept by
    name and must not stop a kernel's other layouts from decoding."""
    from tritonscope.errors import TritonscopeError
    from tritonscope.layouts.tensor import to_linear

    text = (
        f"#blocked = #ttg.blocked<{BLOCKED_BODY}>\n"
        "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n"
        "#later = #ttng.tensor_memory_future_encoding<stride = 3>\n"
        "#smem = #ttg.shared_memory\n#tm = #ttng.tensor_memory\n"
    )
    aliases = parse_layout_aliases(text)
    assert {k: v.kind for k, v in aliases.items()} == {
        "blocked": "blocked", "tmem": "tensor_memory_encoding", "later": "ttng.tensor_memory_future_encoding"}
    tt = parse_tensor_type("!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>", aliases)
    assert tt.memory == "tensor_memory"
    assert to_linear(tt.encoding, (128, 128), 32).bases["row"][-1] == [64, 0]
    with pytest.raises(TritonscopeError, match="unknown layout kind ttng.tensor_memory_future_encoding: not decoded"):
        to_linear(aliases["later"], (128, 128))


def test_mlir_signedness_and_small_float_types():
    """Triton prints a descriptor of uint8 as `ui8` (the nvfp4 operands of a block-scaled matmul) and the
    e8m0 scales as `f8E8M0FNU`: their widths come from their names; an unknown name stays unknown."""
    from tritonscope.layouts.attrs import dtype_bits

    assert [dtype_bits(t) for t in ("ui8", "si32", "f8E8M0FNU", "f6E2M3FN", "f4E2M1FN", "xyz")] == \
        [8, 32, 8, 6, 4, None]
    tt = parse_tensor_type("!tt.tensordesc<128x128xui8, #shared>",
                           parse_layout_aliases("#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
                                                "transposed = false, elementBitWidth = 8}>"))
    assert (tt.shape, tt.dtype, tt.element_bits) == ((128, 128), "ui8", 8)


def test_attributes_of_other_dialects_are_no_layouts():
    """A TTGIR module aliases more than layouts: gfx950 fences carry `#llvm.mmra_tag<...>` (SageAttention's
    attention on gfx950, Triton 3.9); `layout` on such a kernel failed on it. Only Triton's GPU dialects'
    aliases are layouts; an unknown ttg kind is one that is not decoded (helper 79: it stopped every
    command), and is still an error given alone."""
    text = (f"#blocked = #ttg.blocked<{BLOCKED_BODY}>\n"
            '#mmra_tag = #llvm.mmra_tag<"amdgpu-synchronize-as":"local">\n'
            "#group = #llvm.access_group<id = distinct[0]<>>\n")
    assert set(parse_layout_aliases(text)) == {"blocked"}
    assert parse_layout_aliases(text + "#f = #ttg.fancy<{a = 1}>\n")["f"].unknown == "unknown layout kind ttg.fancy"
    with pytest.raises(ParseError, match="unknown layout kind ttg.fancy"):
        parse_layout("#ttg.fancy<{a = 1}>")


def test_a_memdesc_printed_without_its_name_is_a_type(cli, corpus):
    """`ttg.async_copy_global_to_local ... -> <64x32xf16, #shared, #smem, mutable>`: the op's custom form
    prints its result memdesc without `!ttg.memdesc`; `layout` left the copies out of #shared's uses (the
    report's layout card listed them)."""
    import json

    from tritonscope.layouts.attrs import iter_shaped_types

    line = ("%a = ttg.async_copy_global_to_local %p, %b mask %m : tensor<64x32x!tt.ptr<f16>, #blocked1> -> "
            "<64x32xf16, #shared, #smem, mutable> loc(#loc64)")
    assert [t for _, t in iter_shaped_types(line)] == [
        "tensor<64x32x!tt.ptr<f16>, #blocked1>", "!ttg.memdesc<64x32xf16, #shared, #smem, mutable>"]
    assert iter_shaped_types("%x = arith.select %c, %a, %b : i1 -> <unknown, #foo>") == []
    entry = next((corpus / "triton-3.9.0").glob("FK4O4HMCRZ*"))
    doc = json.loads(cli("layout", str(entry), "--json").stdout)
    shared = next(la for la in doc["layouts"] if la["name"] == "shared")
    view = next(u for u in shared["uses"] if u["shape"] == [64, 32])
    text = (entry / "matmul_kernel.ttgir").read_text().splitlines()
    copies = [n for n, t in enumerate(text, 1) if "async_copy_global_to_local" in t and "#shared," in t]
    assert copies and set(copies) <= set(view["ttgir_lines"])


@pytest.mark.parametrize(("text", "why"), [
    ("#ttg.amd_wmma<{version = 4, isTranspose = true, ctaLayout = {warp = [[0, 1]]}}>",
     "version: WMMA versions are 1 to 3, got 4"),
    ("#ttg.amd_wmma<{version = 0, isTranspose = true, ctaLayout = {warp = [[0, 1]]}}>",
     "version: WMMA versions are 1 to 3, got 0"),
    ("#ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {warp = [[0, 1]]}}>",
     "instrShape: a WMMA v3 layout names its instruction shape"),
])
def test_wmma_layouts_triton_refuses_are_refused(text, why):
    """Triton 3.9's parser: "WMMA version must be in the [1, 3] range", "invalid WMMA v3 instruction shape";
    they were decoded (version 4 as 3, a v3 shape guessed as 16x16x16)."""
    with pytest.raises(ParseError, match=re.escape(why)):
        parse_layout(text)
