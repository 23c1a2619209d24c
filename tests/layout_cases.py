"""Layout/shape cases for the oracle comparison: every layout alias of the corpus TTGIR with the shapes that
use it, and seeded random layouts of every kind Triton can build."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tritonscope.layouts.attrs import iter_shaped_types, parse_layout, parse_layout_aliases, parse_tensor_type


def _ints(v) -> str:
    return "[" + ", ".join(map(str, v)) + "]"


def corpus_cases(corpus: Path) -> list[dict]:
    """One case per distinct (layout, shape, element bits) that a corpus TTGIR type uses."""
    seen: dict[tuple, dict] = {}
    for path in sorted(corpus.rglob("*.ttgir")):
        text = path.read_text()
        aliases = parse_layout_aliases(text)
        ctas = re.search(r'"?t(?:riton_)?t?g(?:pu)?\.num-ctas"?\s*=\s*(\d+)', text)  # (the module's CTAs)
        for line, type_text in iter_shaped_types(text):
            tt = parse_tensor_type(type_text, aliases)
            if tt.encoding is None:
                continue
            shared = tt.memory == "shared"
            tmem = tt.memory == "tensor_memory"
            bits = tt.element_bits if shared or tmem else 16
            # a shared-memory view is laid out as its allocation (Triton's toLinearLayout(MemDescType))
            shape = tt.view_of or tt.shape
            key = (tt.encoding.to_text(), shape, bits, shared)
            case = {
                "layout": tt.encoding,
                "shape": list(shape),
                "bits": tt.element_bits,
                "shared": shared,
                "where": f"{path.relative_to(corpus)}:{line}",
            }
            if tmem:  # (asked of a `ttng.tmem_alloc` of that type, as the recorded tensor memory cases are)
                case.update(tmem=True, ctas=1)
            if ctas and int(ctas.group(1)) > 1:  # (a layout across CTAs needs a module of as many)
                case["ctas"] = int(ctas.group(1))
            seen.setdefault(key, case)
    return list(seen.values())


def _split(rng: random.Random, total_log2: int, rank: int) -> list[int]:
    parts = [0] * rank
    for _ in range(total_log2):
        parts[rng.randrange(rank)] += 1
    return [1 << p for p in parts]


def _shape(rng: random.Random, rank: int, max_log2: int = 14) -> list[int]:
    while True:
        shape = [1 << rng.randint(0, 8) for _ in range(rank)]
        total = 1
        for s in shape:
            total *= s
        if total <= 1 << max_log2:
            return shape


def _cga(rng: random.Random, rank: int) -> str:
    """Sometimes a CGA of 2 or 4 CTAs (3.9's `CGALayout = [[...]]`), split along one or two dims or broadcast."""
    if rng.random() > 0.15:
        return ""
    bases = []
    for _ in range(rng.randint(1, 2)):
        d = rng.randrange(rank)
        b = [0] * rank
        if rng.random() < 0.8:
            b[d] = 1 << sum(1 for x in bases if x[d])
        bases.append(b)
    return ", CGALayout = [" + ", ".join(_ints(b) for b in bases) + "]"


def random_blocked(rng: random.Random, rank: int, lanes: int | None = None, cga: bool = True) -> str:
    lanes = lanes or rng.choice([32, 64])
    order = list(range(rank))
    rng.shuffle(order)
    spt = [1 << rng.randint(0, 3) for _ in range(rank)]
    tpw = _split(rng, lanes.bit_length() - 1, rank)
    wpc = _split(rng, rng.randint(0, 3), rank)
    return (
        f"#ttg.blocked<{{sizePerThread = {_ints(spt)}, threadsPerWarp = {_ints(tpw)}, warpsPerCTA = "
        f"{_ints(wpc)}, order = {_ints(order)}{_cga(rng, rank) if cga else ''}}}>"
    )


def random_nvidia_mma(rng: random.Random, version: int | None = None) -> str:
    version = version or rng.choice([2, 3])
    if version == 2:
        wpc = _split(rng, rng.randint(0, 3), 2)
        return (
            f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {_ints(wpc)}, instrShape = [16, 8]}}>"
        )
    wpc = [4 * rng.choice([1, 2]), rng.choice([1, 2])]
    n = rng.choice([8, 16, 32, 64, 128, 256])
    return (
        f"#ttg.nvidia_mma<{{versionMajor = 3, versionMinor = 0, warpsPerCTA = {_ints(wpc)}, "
        f"instrShape = [16, {n}, 16]}}>"
    )


def random_mfma(rng: random.Random, rank: int = 2) -> str:
    version = rng.choice([2, 3, 4])
    m = rng.choice([16, 32])
    k = {16: rng.choice([16, 32]) if version == 4 else 16, 32: rng.choice([8, 16]) if version == 4 else 8}[m]
    wpc = _split(rng, rng.randint(0, 3), rank)
    tiles = (
        ""
        if rng.random() < 0.7
        else f", tilesPerWarp = {_ints([1] * (rank - 2) + [rng.choice([1, 2]), rng.choice([1, 2])])}"
    )
    return (
        f"#ttg.amd_mfma<{{version = {version}, warpsPerCTA = {_ints(wpc)}, instrShape = [{m}, {m}, {k}], "
        f"isTransposed = {rng.choice(['true', 'false'])}{tiles}}}>"
    )


def random_wmma(rng: random.Random) -> str:
    """3.9's spelling: warps (and tile repetitions) as bases over 16x16 instruction tiles."""
    version = rng.choice([1, 2, 3])
    k = 32 if version == 3 else 16
    n_warps = rng.randint(0, 3)
    dims = [rng.randrange(2) for _ in range(n_warps)]
    warp = []
    for d in dims:
        b = [0, 0]
        b[d] = 1 << sum(1 for x in warp if x[d])
        warp.append(b)
    reg = ""
    if rng.random() < 0.3:
        d = rng.randrange(2)
        b = [0, 0]
        b[d] = 1 << sum(1 for x in warp if x[d])
        reg = f"register = [{_ints(b)}], "
    return (
        f"#ttg.amd_wmma<{{version = {version}, isTranspose = {rng.choice(['true', 'false'])}, "
        f"ctaLayout = {{{reg}warp = [" + ", ".join(_ints(b) for b in warp) + f"]}}, instrShape = [16, 16, {k}]}}>"
    )


def random_cases(seed: int = 5, per_kind: int = 60) -> list[dict]:
    rng = random.Random(seed)
    cases: list[dict] = []

    def add(kind: str, text: str, shape: list[int], bits: int = 16, shared: bool = False) -> None:
        cases.append({"kind": kind, "text": text, "shape": shape, "bits": bits, "shared": shared})

    for _ in range(per_kind):
        rank = rng.choice([1, 2, 2, 3])
        add("blocked", random_blocked(rng, rank), _shape(rng, rank))
    for _ in range(per_kind):
        rank = rng.choice([2, 2, 3])
        parent = random_blocked(rng, rank)
        add("slice(blocked)", f"#ttg.slice<{{dim = {rng.randrange(rank)}, parent = {parent}}}>", _shape(rng, rank - 1))
    for _ in range(per_kind):
        text = random_nvidia_mma(rng)
        add("nvidia_mma", text, [1 << rng.randint(4, 8), 1 << rng.randint(3, 8)])
    for _ in range(per_kind // 2):
        text = random_nvidia_mma(rng)
        add("slice(nvidia_mma)", f"#ttg.slice<{{dim = {rng.randrange(2)}, parent = {text}}}>", [1 << rng.randint(0, 8)])
    for _ in range(per_kind):
        version = rng.choice([2, 3])
        op = 0 if version == 3 else rng.randrange(2)
        kw = rng.choice([1, 2, 4, 8]) if version == 2 else rng.choice([1, 2, 4])
        text = f"#ttg.dot_op<{{opIdx = {op}, parent = {random_nvidia_mma(rng, version)}, kWidth = {kw}}}>"
        add("dot_op(nvidia_mma)", text, [1 << rng.randint(4, 8), 1 << rng.randint(4, 8)])
    for _ in range(per_kind):
        add("amd_mfma", random_mfma(rng), [1 << rng.randint(4, 8), 1 << rng.randint(4, 8)])
    for _ in range(per_kind // 3):
        add(
            "amd_mfma(batch)",
            random_mfma(rng, 3),
            [1 << rng.randint(0, 2), 1 << rng.randint(4, 7), 1 << rng.randint(4, 7)],
        )
    for _ in range(per_kind // 3):
        wpc = _split(rng, rng.randint(0, 3), 3)
        text = (
            f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {_ints(wpc)}, "
            "instrShape = [1, 16, 8]}>"
        )
        add("nvidia_mma(batch)", text, [1 << rng.randint(0, 2), 1 << rng.randint(4, 7), 1 << rng.randint(3, 7)])
    for _ in range(per_kind // 3):
        kw = rng.choice([2, 4, 8])
        text = f"#ttg.dot_op<{{opIdx = {rng.randrange(2)}, parent = {random_nvidia_mma(rng, 2)}, kWidth = {kw}}}>"
        add("slice(dot_op)", f"#ttg.slice<{{dim = {rng.randrange(2)}, parent = {text}}}>", [1 << rng.randint(0, 8)])
    for _ in range(per_kind // 2):
        parent = random_mfma(rng)
        add("slice(amd_mfma)", f"#ttg.slice<{{dim = {rng.randrange(2)}, parent = {parent}}}>", [1 << rng.randint(0, 8)])
    for _ in range(per_kind):
        kw = rng.choice([4, 8, 16])
        text = f"#ttg.dot_op<{{opIdx = {rng.randrange(2)}, parent = {random_mfma(rng)}, kWidth = {kw}}}>"
        add("dot_op(amd_mfma)", text, [1 << rng.randint(5, 8), 1 << rng.randint(5, 8)])
    for _ in range(per_kind // 2):
        add("amd_wmma", random_wmma(rng), [1 << rng.randint(4, 7), 1 << rng.randint(4, 7)])
    for _ in range(per_kind // 2):
        kw = rng.choice([8, 16])
        text = f"#ttg.dot_op<{{opIdx = {rng.randrange(2)}, parent = {random_wmma(rng)}, kWidth = {kw}}}>"
        add("dot_op(amd_wmma)", text, [1 << rng.randint(5, 7), 1 << rng.randint(5, 7)])
    for _ in range(per_kind // 2):
        text = f"#ttg.dot_op<{{opIdx = {rng.randrange(2)}, parent = {random_blocked(rng, 2, cga=False)}}}>"
        add("dot_op(blocked)", text, _shape(rng, 2, 12))
    for _ in range(per_kind // 2):  # explicit bases: a random blocked layout's bases at another shape
        from tritonscope.layouts.tensor import to_linear

        rank = rng.choice([1, 2])
        blocked = parse_layout(random_blocked(rng, rank, cga=False))
        bases = to_linear(blocked, _shape(rng, rank)).bases
        body = ", ".join(f"{k} = [" + ", ".join(_ints(b) for b in v) + "]" for k, v in bases.items())
        add("linear", f"#ttg.linear<{{{body}}}>", _shape(rng, rank))
    for _ in range(per_kind):
        rank = rng.choice([2, 2, 3])
        order = list(range(rank))
        rng.shuffle(order)
        spelling = rng.choice(["swizzled_shared", "amd_rotating_shared"])
        vec, per_phase, max_phase = rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8])
        text = (
            f"#ttg.{spelling}<{{vec = {vec}, perPhase = {per_phase}, maxPhase = {max_phase}, order = {_ints(order)}}}>"
        )
        add(spelling, text, _shape(rng, rank), bits=16, shared=True)
    for _ in range(per_kind // 3):  # explicit shared bases: a random swizzled layout's offsets
        from tritonscope.layouts.tensor import to_linear

        shape = [1 << rng.randint(1, 6), 1 << rng.randint(1, 6)]
        swz = parse_layout(
            f"#ttg.swizzled_shared<{{vec = {rng.choice([1, 2, 4, 8])}, perPhase = "
            f"{rng.choice([1, 2])}, maxPhase = {rng.choice([1, 2, 4, 8])}, order = [1, 0]}}>"
        )
        offsets = to_linear(swz, shape).bases["offset"]
        text = (
            "#ttg.shared_linear<{offset = [" + ", ".join(_ints(b) for b in offsets) + "], block = []}, alignment = 16>"
        )
        add("shared_linear", text, shape, shared=True)
    for _ in range(per_kind):
        bits = rng.choice([8, 16, 32])
        width = rng.choice([0, 32, 64, 128])
        transposed = rng.random() < 0.4
        rank = 2  # 3.9 cannot read a rank-3 nvmma_shared without CTA fields: ours follows the memdesc's rank
        contig = max(8 * max(width, 16) // bits, 8)
        shape = [1 << rng.randint(3, 7) for _ in range(rank)]
        shape[0 if transposed else rank - 1] = contig * rng.choice([1, 2, 4])
        text = (
            f"#ttg.nvmma_shared<{{swizzlingByteWidth = {width}, transposed = {str(transposed).lower()}, "
            f"elementBitWidth = {bits}}}>"
        )
        add("nvmma_shared", text, shape, bits=bits, shared=True)
    return cases


def generic_linear_cases(seed: int = 9, count: int = 60) -> list[dict]:
    """Triton 3.9's `#ttg.generic_linear`: a random blocked layout's bases with warp bases that move along
    several dims (one XORed with a register or lane basis: the same span) and extra warp bases alike another
    basis (an element held by two threads no zero basis explains). Every case reaches every element, as
    Triton's verifier asks; each at the layout's own shape and at another."""
    from tritonscope.layouts.tensor import to_linear

    rng = random.Random(seed)
    cases: list[dict] = []
    while len(cases) < count:
        rank = rng.choice([2, 2, 3])
        shape = _shape(rng, rank, 12)
        bases = {k: [list(b) for b in v]
                 for k, v in to_linear(parse_layout(random_blocked(rng, rank, cga=False)), shape).bases.items()}
        others = [b for b in bases["register"] + bases["lane"] if any(b)]
        if not others:
            continue
        warp = bases["warp"]
        if not warp or rank < 2:
            continue
        # (a swizzled warp basis in every case: Gluon's Python layout, through which Triton is asked, builds
        # an unswizzled one as a `linear` layout, whose verifier aborts on alike bases)
        i = rng.randrange(len(warp))
        warp[i] = [a ^ c for a, c in zip(warp[i], rng.choice(others), strict=True)]
        if warp[i] == [0] * rank or sum(1 for v in warp[i] if v) < 2:
            continue
        if len(warp) < 4 and rng.random() < 0.7:
            warp.insert(rng.randrange(len(warp) + 1), list(rng.choice(others + warp)))
        body = ", ".join(f"{k} = [" + ", ".join(_ints(b) for b in bases[k]) + "]"
                         for k in ("register", "lane", "warp")) + ", block = []"
        for s in (shape, _shape(rng, rank, 12)):
            cases.append({"kind": "generic_linear", "text": f"#ttg.generic_linear<{{{body}}}>", "shape": s,
                          "bits": 16, "shared": False})
    return cases


def fp64_mma_cases() -> list[dict]:
    """fp64's m8n8k4 MMA, printed `instrShape = [8, 8]` from 3.8, its operands and the [16, 8] ones beside
    them, on tensors smaller and larger than the tile (helper 78: the A operand was laid out 16 rows tall)."""
    cases: list[dict] = []
    for instr in ("[8, 8]", "[16, 8]"):
        for warps in ("[2, 2]", "[4, 1]", "[1, 4]"):
            mma = (f"#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = {warps}, "
                   f"instrShape = {instr}}}>")
            for shape in ([8, 4], [4, 8], [8, 8], [16, 4], [4, 4], [64, 64], [16, 16], [32, 8], [8, 32]):
                cases.append({"kind": "nvidia_mma", "text": mma, "shape": shape, "bits": 64, "shared": False})
                for op in (0, 1):
                    for k_width, bits in ((1, 64), (2, 32)):
                        cases.append({"kind": "dot_op(nvidia_mma)", "shape": shape, "bits": bits, "shared": False,
                                      "text": f"#ttg.dot_op<{{opIdx = {op}, parent = {mma}, kWidth = {k_width}}}>"})
    return cases


# Kinds no release converts through its Python bindings (docs/json-layout.md).
NO_ORACLE_KINDS = ("amd_rotating_shared", "padded_shared")
# The example (a 2x64 tensor under a 8x64 tile) and other tensors smaller than their tile.
SMALL_TENSOR_CASES = [
    ("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 16], warpsPerCTA = [2, 1], order = [1, 0]}>", [2, 64]),
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>", [1, 256]),
    ("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>", [64]),
    ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>",
     [16, 16]),
    ("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [0, 1]}>", [4, 8]),
    ("#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], "
     "warpsPerCTA = [4, 1], order = [1, 0]}>}>", [16]),
]


def tmem_cases() -> list[dict]:
    """Blackwell tensor memory encodings in every spelling (3.6/3.7's CTASplitM/N, 3.8's CGALayout, the
    64-row blocks, packed and unpacked widths, padded FP4, two CTAs) and the scales encoding, over shapes
    equal to, larger than and smaller than the block. A release refuses the other releases' spellings."""
    t, sc = "#ttng.tensor_memory_encoding<", "#ttng.tensor_memory_scales_encoding<"
    cases: list[dict] = []

    def add(kind: str, text: str, shape: list[int], bits: int, ctas: int = 1) -> None:
        cases.append({"kind": kind, "text": text, "shape": shape, "bits": bits, "shared": False, "tmem": True,
                      "ctas": ctas})

    for bm in (64, 128):
        for bn in (16, 64, 256):
            for stride, bits in ((1, 32), (1, 16), (2, 16), (4, 8)):
                for shape in ([bm, bn], [256, bn], [bm, 2 * bn], [128, 4 * bn], [bm, bn // 2]):
                    add("tensor_memory_encoding", f"{t}blockM = {bm}, blockN = {bn}, colStride = {stride}>", shape,
                        bits)
    for bm in (64, 128):
        for shape in ([128, 128], [256, 64], [bm, 256]):
            add("tensor_memory_encoding", f"{t}blockM = {bm}, blockN = 64, colStride = 1, fp4Padded = true>", shape, 8)
    tmem_ctas = [
        ("blockM = 128, blockN = 128, colStride = 1, twoCTAs = true", [256, 128], 32, 2),
        ("blockM = 64, blockN = 128, colStride = 1, twoCTAs = true", [128, 128], 32, 2),
        ("blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2", [256, 128], 32, 2),
        ("blockM = 128, blockN = 64, colStride = 1, CTASplitN = 2", [128, 128], 32, 2),
        ("blockM = 64, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true", [128, 128], 32, 2),
        ("blockM = 64, blockN = 64, colStride = 2, CTASplitM = 2, CTASplitN = 2", [256, 256], 16, 4),
        ("blockM = 128, blockN = 128, colStride = 1, CGALayout = [[1, 0]]", [256, 128], 32, 2),
        ("blockM = 128, blockN = 64, colStride = 1, CGALayout = [[0, 1]]", [128, 128], 32, 2),
        ("blockM = 128, blockN = 128, colStride = 1, CGALayout = [[1, 0]], twoCTAs = true", [256, 128], 32, 2),
        ("blockM = 64, blockN = 128, colStride = 1, CGALayout = [[1, 0]], twoCTAs = true", [128, 128], 32, 2),
        ("blockM = 64, blockN = 64, colStride = 2, CGALayout = [[1, 0], [0, 1]]", [256, 256], 16, 4),
        ("blockM = 128, blockN = 64, colStride = 1, CGALayout = [[0, 1], [1, 0]]", [256, 256], 32, 4),
        ("blockM = 128, blockN = 64, colStride = 1, CGALayout = [[1, 0], [0, 0]]", [256, 64], 32, 4),
        ("blockM = 64, blockN = 64, colStride = 1, CGALayout = [[1, 0], [0, 1]], twoCTAs = true", [256, 256], 32, 4),
    ]
    for fields, shape, bits, ctas in tmem_ctas:
        add("tensor_memory_encoding", f"{t}{fields}>", shape, bits, ctas)
    for order in ("", "blockRepOrder = kThenMn"):
        for shape in ([128, 4], [128, 8], [64, 4], [32, 2], [256, 16], [512, 4], [64, 8], [256, 32], [128, 2]):
            add("tensor_memory_scales_encoding", f"{sc}{order}>", shape, 8)
    for fields, shape, ctas in (("CTASplitM = 2", [256, 4], 2), ("CTASplitM = 2, CTASplitN = 2", [256, 8], 4),
                                ("CGALayout = [[1, 0]]", [256, 4], 2), ("CGALayout = [[1, 0], [0, 1]]", [256, 8], 4),
                                ("CGALayout = [[0, 1]], blockRepOrder = kThenMn", [256, 16], 2)):
        add("tensor_memory_scales_encoding", f"{sc}{fields}>", shape, 8, ctas)
    return cases


def oracle_cases(seed: int = 5, per_kind: int = 60) -> list[dict]:
    """The cases recorded per release (tests/layout_oracle_record.py): the random ones of every kind a
    release can convert, plus tensors smaller than their tile; each with the warps and lanes it spans."""
    from tritonscope.layouts.tensor import to_linear

    out = []
    cases = random_cases(seed, per_kind) + [
        {"kind": "small", "text": t, "shape": s, "bits": 16, "shared": False} for t, s in SMALL_TENSOR_CASES]
    for c in cases:
        layout = parse_layout(c["text"])
        text = layout.to_text(c["bits"]) if getattr(layout, "has_leading_offset", False) else layout.to_text()
        if text.split("<", 1)[0].split(".", 1)[-1] in NO_ORACLE_KINDS:
            continue
        if layout.shared and (layout.rank or 2) < len(c["shape"]):
            continue  # a multi-buffered memdesc: Triton converts one buffer, not this
        ll = to_linear(layout, c["shape"], c["bits"])
        out.append({**c, "text": text, "warps": 1 if c["shared"] else ll.size("warp"),
                    "lanes": 32 if c["shared"] else ll.size("lane")})
    # tensor memory: kept as written (each release spells its CTA fields its own way); one warp group
    out += [{**c, "warps": 4, "lanes": 32} for c in tmem_cases()]
    return out
