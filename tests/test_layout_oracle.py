"""tritonscope.layouts against Triton's own linear layouts (triton >= 3.9's Gluon bindings), case by case.

Skipped when the installed triton has no `GluonOpBuilder.to_linear_layout`. Triton runs in a subprocess
(tests/layout_oracle.py) so that an abort inside libtriton cannot take pytest down.
"""

from __future__ import annotations

import collections
import math

import pytest
from layout_cases import corpus_cases, random_cases
from layout_oracle import run_oracle, triton_has_oracle

from tritonscope.errors import TritonscopeError
from tritonscope.layouts.attrs import parse_layout
from tritonscope.layouts.tensor import to_linear

pytestmark = pytest.mark.skipif(not triton_has_oracle(), reason="triton with Gluon's to_linear_layout not installed")

# Kinds Triton 3.9 cannot turn into a linear layout through its Python bindings (see docs/json-layout.md).
NO_ORACLE = {
    "amd_rotating_shared": "Gluon has no Python class for it (get_gluon_layout_from_memdesc: Unhandled encoding)",
    "padded_shared": "Triton: 'padded shared encoding has no linear layout'",
}


def _kind(text: str) -> str:
    return text.split("<", 1)[0].split(".", 1)[-1]


def _compare(cases: list[dict]) -> tuple[collections.Counter, list[str]]:
    stats: collections.Counter = collections.Counter()
    batch, ours, sources = [], [], []
    refused: list[tuple[dict, str, str]] = []  # (the oracle's case, our refusal, where), asked in one batch
    for c in cases:
        layout = c["layout"] if "layout" in c else parse_layout(c["text"])
        text = layout.to_text(c["bits"]) if getattr(layout, "has_leading_offset", False) else layout.to_text()
        kind = c.get("kind") or _kind(text)
        try:
            ll = to_linear(layout, c["shape"], c["bits"])  # every case must decode, or Triton refuse it too
        except TritonscopeError as exc:
            refused.append(({"text": text, "shape": c["shape"], "bits": c["bits"], "shared": c["shared"],
                             "warps": 1, "lanes": 32}, str(exc), c.get("where", "random")))
            stats[(kind, "refused by both")] += 1
            continue
        if _kind(text) in NO_ORACLE:
            stats[(kind, "no oracle")] += 1
            continue
        if layout.shared and math.prod(c["shape"]) <= c.get("ctas", 1):  # (one element a CTA)
            # One element: no offset bases, which Gluon's SharedLinearLayout (the Python object Triton's
            # answer comes back as) refuses to hold ("offset_bases must not be empty"): no oracle.
            stats[(kind, "no oracle (one element)")] += 1
            continue
        if (layout.shared or c.get("tmem")) and (layout.rank or 2) < len(c["shape"]):
            # Multi-buffered memdesc (5x64x32 with a rank-2 layout): Triton asks for the layout of one
            # buffer (memdesc_index); its to_linear_layout aborts on the rank mismatch, so no oracle here.
            stats[(kind, "no oracle (multi-buffer memdesc)")] += 1
            continue
        batch.append(
            {
                "text": text,
                "shape": c["shape"],
                "bits": c["bits"],
                "shared": c["shared"],
                "warps": 1 if c["shared"] else 4 if c.get("tmem") else ll.size("warp"),
                "lanes": 32 if c["shared"] or c.get("tmem") else ll.size("lane"),
                # (the module's ttg.num-ctas, for a layout placed across CTAs; one that names no CTAs, a
                # descriptor's block in a two-CTA kernel, is one CTA's, as Triton parses it alone)
                "ctas": c.get("ctas", 1) if any(k in text for k in ("CGALayout", "CTAsPerCGA", "block = [[")) else 1,
                **({"tmem": True} if c.get("tmem") else {}),
            }
        )
        mine = ll.to_json()
        if c.get("tmem"):  # Triton's Python object for a tensor memory layout carries no block bases
            mine = {k: mine[k] for k in ("row", "col")}
        ours.append(mine)
        sources.append((kind, c.get("where", "random")))
    problems: list[str] = []
    if refused:
        for (case, exc, where), theirs in zip(refused, run_oracle([r[0] for r in refused]), strict=True):
            if "error" not in theirs:
                problems.append(f"{case['text']} {case['shape']} ({where}): we refused ({exc}), "
                                f"Triton gave {theirs['bases']}")
    for case, mine, theirs, (kind, where) in zip(batch, ours, run_oracle(batch), sources, strict=True):
        if "error" in theirs:
            problems.append(f"Triton refused {case['text']} {case['shape']} ({where}): {theirs['error'][:200]}")
        elif theirs["bases"] == mine:
            stats[(kind, "match")] += 1
        else:
            problems.append(f"{case['text']} {case['shape']} ({where}):\n  ours   {mine}\n  triton {theirs['bases']}")
    return stats, problems


def test_every_corpus_layout_matches_triton(corpus):
    cases = corpus_cases(corpus)
    stats, problems = _compare(cases)
    print("\n".join(f"{k}: {v}" for k, v in sorted(stats.items())))
    assert not problems, "\n".join(problems[:10])
    matched = sum(v for (_, what), v in stats.items() if what == "match")
    assert matched == len(cases) - sum(v for (_, what), v in stats.items()
                                       if what.startswith("no oracle") or what == "refused by both")
    # what the corpus holds (distinct layout/shape/element-width uses), so a lost case shows up here
    assert {k for (k, what) in stats if what == "match"} >= {
        "blocked",
        "slice",
        "dot_op",
        "nvidia_mma",
        "amd_mfma",
        "linear",
        "swizzled_shared",
        "nvmma_shared",
    }
    assert stats[("padded_shared", "no oracle")] == 4


def test_blackwell_tutorial_layouts_match_triton_tensor_memory_included():
    """Triton's own Blackwell tutorials (tests/data/tutorials-cuda100-triton3.9): every layout their TTGIR
    uses, the accumulators' tensor memory encodings and the scales' asked of a `ttng.tmem_alloc` as
    Triton lays them out, against `to_linear_layout`."""
    from pathlib import Path

    cases = corpus_cases(Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9")
    assert any(c.get("tmem") for c in cases)
    # the multi-CTA Gluon matmul example (BCHWVK37): layouts across two CTAs, asked in a module of two
    two = [c for c in cases if c.get("ctas") == 2 and "CGALayout" in c["layout"].to_text()]
    assert len(two) >= 5
    stats, problems = _compare(cases)
    assert not problems, "\n".join(problems[:10])
    assert stats[("tensor_memory_encoding", "match")] >= 2 and stats[("tensor_memory_scales_encoding", "match")] >= 2
    two_stats, two_problems = _compare(two)
    assert not two_problems and sum(v for (_, what), v in two_stats.items() if what == "match") >= 5  # (the
    # others are multi-buffered or one element a CTA: no oracle)


def test_random_layouts_match_triton():
    cases = random_cases(seed=5, per_kind=60)
    stats, problems = _compare(cases)
    print("\n".join(f"{k}: {v}" for k, v in sorted(stats.items())))
    assert not problems, "\n".join(problems[:10])
    assert sum(v for (_, what), v in stats.items() if what == "match") >= 600


def test_legacy_spellings_match_triton():
    """3.2's `triton_gpu.*` text, 2.3's `mma`, CTA fields and `shared<{hasLeadingOffset}>`, via 3.9 text."""
    texts = [
        (
            "#triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
            "order = [1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>",
            [128, 64],
            False,
        ),
        (
            "#triton_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], "
            "CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]}>",
            [1024],
            False,
        ),
        (
            "#triton_gpu.mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CTAsPerCGA = [1, 1], "
            "CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 8]}>",
            [64, 64],
            False,
        ),
        (
            "#triton_gpu.amd_mfma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [32, 32], "
            "isTransposed = true}>",
            [128, 64],
            False,
        ),
        (
            "#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = true}>",
            [64, 64],
            True,
        ),
        (
            "#triton_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], hasLeadingOffset = true}>",
            [64, 64],
            True,
        ),
        (
            "#triton_gpu.shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>",
            [32, 64],
            True,
        ),
    ]
    cases = [{"text": t, "shape": s, "bits": 16, "shared": sh, "kind": "legacy"} for t, s, sh in texts]
    stats, problems = _compare(cases)
    assert not problems, "\n".join(problems)
    assert stats[("legacy", "match")] == len(texts)


def test_nvmma_layouts_of_a_printed_rank_match_triton():
    """Triton 3.9 prints `rank = N` on an NVMMA layout of a 3-D or 5-D TMA block (triton_kernels' persistent
    matmuls for cuda:100: `!tt.tensordesc<1x1x1x128x128xbf16, #shared>`); spelled back without it, Triton
    parsed a rank-2 layout and refused the block. Each is laid out as Triton lays it, fp4-padded too."""
    texts = [
        ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 5}>",
         [1, 1, 1, 128, 128], 16),
        ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>",
         [1, 64, 256], 16),
        ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, fp4Padded = true, "
         "rank = 3}>", [1, 256, 64], 8),
        ("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>",
         [1, 2, 1, 2, 256], 8),
        # the MX scales' block of triton_kernels' persistent matmul: its outer dims collapse into the
        # swizzle's 8 rows (1 x 4 x 1 x 2), not stacked as buffers of a 2x256 tile (too small for one)
        ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8, rank = 5}>",
         [1, 4, 1, 2, 256], 8),
    ]
    for text, _, _ in texts:
        assert parse_layout(text).to_text() == text  # (the spelling kept)
    cases = [{"text": t, "shape": s, "bits": b, "shared": True, "kind": "ranked"} for t, s, b in texts]
    stats, problems = _compare(cases)
    assert not problems, "\n".join(problems)
    assert stats[("ranked", "match")] == len(texts)
    # a rank-2 block of one row under a 128-byte swizzle: Triton calls it an illegal shared layout, and so
    # do we (`layout` says it cannot derive the numbers): refused by both, no disagreement
    small = [{"text": "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>",
              "shape": [1, 128], "bits": 8, "shared": True, "kind": "small"}]
    stats, problems = _compare(small)
    assert not problems and stats[("small", "refused by both")] == 1


def test_dot_operands_of_a_cga_parent_are_not_split_along_k():
    """A dot operand of an NVIDIA MMA, WMMA or blocked (FMA) parent spread over CTAs keeps K whole in
    every CTA (Triton's `getCTALayout(dot)`: "Do not split CTA in K dimension"); the parent's split along
    K was kept, so the operand's second half of K was read as another CTA's. An MFMA operand takes its
    parent's CTAs as they are (`mfmaDotToLinearLayout`)."""
    mma2 = ("#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], CGALayout = {cga}, "
            "instrShape = [16, 8]}}>")
    mma3 = ("#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = {cga}, "
            "instrShape = [16, 64, 16]}}>")
    blocked = ("#ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], "
               "order = [1, 0], CGALayout = {cga}}}>")
    mfma = ("#ttg.amd_mfma<{{version = 3, warpsPerCTA = [1, 1], instrShape = [32, 32, 8], isTransposed = true, "
            "CGALayout = {cga}}}>")
    texts = [
        (f"#ttg.dot_op<{{opIdx = 1, parent = {mma2.format(cga='[[1, 0]]')}, kWidth = 4}}>", [64, 8]),
        (f"#ttg.dot_op<{{opIdx = 0, parent = {mma2.format(cga='[[0, 1]]')}, kWidth = 2}}>", [32, 64]),
        (f"#ttg.dot_op<{{opIdx = 0, parent = {mma2.format(cga='[[1, 0]]')}, kWidth = 2}}>", [32, 64]),
        (f"#ttg.dot_op<{{opIdx = 0, parent = {mma3.format(cga='[[0, 1]]')}, kWidth = 2}}>", [64, 64]),
        (f"#ttg.dot_op<{{opIdx = 0, parent = {blocked.format(cga='[[0, 1]]')}}}>", [32, 32]),
        (f"#ttg.dot_op<{{opIdx = 1, parent = {blocked.format(cga='[[1, 0]]')}}}>", [32, 32]),
        (f"#ttg.dot_op<{{opIdx = 0, parent = {mfma.format(cga='[[0, 1]]')}, kWidth = 8}}>", [64, 64]),
    ]
    cases = [{"text": t, "shape": s, "bits": 16, "shared": False, "kind": "cga dot operand", "ctas": 2}
             for t, s in texts]
    stats, problems = _compare(cases)
    assert not problems, "\n".join(problems)
    assert stats[("cga dot operand", "match")] == len(texts)


def test_fp64_mma_operands_of_every_k_width_on_short_k_match_triton():
    """Helper 105: the operands of fp64's MMA (`instrShape = [8, 8]`) with kWidth 2 to 8 on a tensor shorter
    along K than kWidth lost the registers Triton keeps as zero bases (4x4 at kWidth 8: 4 registers a
    thread, Triton's 8): their tile was 8 * kWidth long along K where the instruction's is 4 * kWidth."""
    cases = []
    for k_width in (1, 2, 4, 8):
        for op in (0, 1):
            for k in (1, 2, 4, 8, 16, 32, 64):
                for warps in ("[2, 2]", "[4, 1]"):
                    mma = (f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {warps}, "
                           "instrShape = [8, 8]}>")
                    cases.append({"text": f"#ttg.dot_op<{{opIdx = {op}, parent = {mma}, kWidth = {k_width}}}>",
                                  "shape": [16, k] if op == 0 else [k, 16], "bits": 64, "shared": False,
                                  "kind": "fp64 operand"})
    stats, problems = _compare(cases)
    assert not problems, "\n".join(problems)
    assert stats[("fp64 operand", "match")] == len(cases)
