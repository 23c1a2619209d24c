"""The layout dataclasses that attrs.py produces (one per attribute kind Triton prints).

`kind` is the 3.3+ spelling (`nvidia_mma` for 2.3's `mma`, `swizzled_shared` for 3.2's `shared` without a
leading offset is kept as `shared`: see SwizzledSharedLayout.kind). `to_text()` prints the layout in Triton
3.9's syntax, which lets tests hand it to Triton's own parser.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _ints(v) -> str:
    return "[" + ", ".join(str(x) for x in v) + "]"


def _bases(v) -> str:
    return "[" + ", ".join(_ints(b) for b in v) + "]"


@dataclass(frozen=True)
class CTALayout:
    """How a CGA's blocks (CTAs) split the tensor. Defaults: one CTA."""

    ctas_per_cga: tuple[int, ...]
    cta_split_num: tuple[int, ...]
    cta_order: tuple[int, ...]
    cga_bases: tuple[tuple[int, ...], ...] | None = None  # 3.9's `CGALayout = [[...]]` block bases

    @property
    def trivial(self) -> bool:
        return not self.cga_bases and all(c == 1 for c in self.ctas_per_cga)

    @property
    def num_ctas(self) -> int:
        if self.cga_bases:
            return 1 << len(self.cga_bases)
        n = 1
        for c in self.ctas_per_cga:
            n *= c
        return n

    def block_bases(self) -> tuple[tuple[int, ...], ...]:
        """The CGA as block bases (Triton's makeCgaLayout): split dims get identity bases, the rest zeros."""
        if self.cga_bases:
            return self.cga_bases
        rank = len(self.cta_order)
        bases: list[tuple[int, ...]] = []
        for d in self.cta_order:
            split, ctas = self.cta_split_num[d], self.ctas_per_cga[d]
            bases += [tuple((1 << i) if j == d else 0 for j in range(rank)) for i in range(split.bit_length() - 1)]
            bases += [(0,) * rank for _ in range((ctas // split).bit_length() - 1)]
        return tuple(bases)

    def text_fields(self) -> str:
        """The CTA fields in 3.9's spelling (`CGALayout = [[...]]`), empty for one CTA."""
        if self.trivial:
            return ""
        return f", CGALayout = {_bases(self.block_bases())}"


@dataclass(frozen=True)
class LayoutBase:
    dialect: str | None = field(default=None, init=False, compare=False, repr=False)
    text: str | None = field(default=None, init=False, compare=False, repr=False)

    kind = "layout"
    shared = False  # True for shared-memory layouts (in-dims offset/block, not register/lane/warp/block)
    tensor_memory = False  # True for Blackwell tensor memory (in-dims col/row/block)

    @property
    def rank(self) -> int:
        raise NotImplementedError


@dataclass(frozen=True)
class BlockedLayout(LayoutBase):
    size_per_thread: tuple[int, ...] = ()
    threads_per_warp: tuple[int, ...] = ()
    warps_per_cta: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    cta: CTALayout | None = None
    kind = "blocked"

    @property
    def rank(self) -> int:
        return len(self.order)

    def to_text(self) -> str:
        return (
            f"#ttg.blocked<{{sizePerThread = {_ints(self.size_per_thread)}, threadsPerWarp = "
            f"{_ints(self.threads_per_warp)}, warpsPerCTA = {_ints(self.warps_per_cta)}, order = "
            f"{_ints(self.order)}{self.cta.text_fields()}}}>"
        )


@dataclass(frozen=True)
class SliceLayout(LayoutBase):
    dim: int = 0
    parent: Layout | None = None
    kind = "slice"

    @property
    def rank(self) -> int:
        return self.parent.rank - 1

    def to_text(self) -> str:
        return f"#ttg.slice<{{dim = {self.dim}, parent = {self.parent.to_text()}}}>"


@dataclass(frozen=True)
class NvidiaMmaLayout(LayoutBase):
    version_major: int = 2
    version_minor: int = 0
    warps_per_cta: tuple[int, ...] = ()
    instr_shape: tuple[int, ...] = ()
    cta: CTALayout | None = None
    kind = "nvidia_mma"

    @property
    def version(self) -> tuple[int, int]:
        """(major, minor), as Gluon's NVMMADistributedLayout writes it (`version=[3, 0]`)."""
        return (self.version_major, self.version_minor)

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    def to_text(self) -> str:
        return (
            f"#ttg.nvidia_mma<{{versionMajor = {self.version_major}, versionMinor = {self.version_minor}, "
            f"warpsPerCTA = {_ints(self.warps_per_cta)}{self.cta.text_fields()}, "
            f"instrShape = {_ints(self.instr_shape)}}}>"
        )


@dataclass(frozen=True)
class AmdMfmaLayout(LayoutBase):
    version: int = 3
    warps_per_cta: tuple[int, ...] = ()
    instr_shape: tuple[int, ...] = ()  # [M, N] up to 3.2, [M, N, K] after
    is_transposed: bool = False
    tiles_per_warp: tuple[int, ...] = ()
    element_bit_width: int = 32
    cta: CTALayout | None = None
    kind = "amd_mfma"

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta)

    def to_text(self) -> str:
        instr = self.instr_shape if len(self.instr_shape) == 3 else (*self.instr_shape, 8)
        tiles = "" if all(t == 1 for t in self.tiles_per_warp) else f", tilesPerWarp = {_ints(self.tiles_per_warp)}"
        ebw = "" if self.element_bit_width == 32 else f", elementBitWidth = {self.element_bit_width}"
        return (
            f"#ttg.amd_mfma<{{version = {self.version}, warpsPerCTA = {_ints(self.warps_per_cta)}, "
            f"instrShape = {_ints(instr)}, isTransposed = {str(self.is_transposed).lower()}"
            f"{self.cta.text_fields()}{tiles}{ebw}}}>"
        )


@dataclass(frozen=True)
class AmdWmmaLayout(LayoutBase):
    """3.9 describes the CTA as bases over instruction tiles (`ctaLayout`); older text gives warpsPerCTA."""

    version: int = 1
    is_transposed: bool = False
    warp_bases: tuple[tuple[int, ...], ...] = ()  # in units of one instrShape tile
    register_bases: tuple[tuple[int, ...], ...] = ()
    instr_shape: tuple[int, ...] = (16, 16, 16)
    cta: CTALayout | None = None
    layout_rank: int = 2
    kind = "amd_wmma"

    @property
    def rank(self) -> int:
        return self.layout_rank

    @property
    def warps_per_cta(self) -> tuple[int, ...]:
        counts = [1] * self.layout_rank
        for b in self.warp_bases:
            for d, v in enumerate(b):
                if v:
                    counts[d] *= 2
        return tuple(counts)

    def to_text(self) -> str:
        reg = f"register = {_bases(self.register_bases)}, " if self.register_bases else ""
        instr = "" if tuple(self.instr_shape) == (16, 16, 16) else f", instrShape = {_ints(self.instr_shape)}"
        return (
            f"#ttg.amd_wmma<{{version = {self.version}, isTranspose = {str(self.is_transposed).lower()}, "
            f"ctaLayout = {{{reg}warp = {_bases(self.warp_bases)}}}{self.cta.text_fields()}{instr}}}>"
        )


@dataclass(frozen=True)
class DotOperandLayout(LayoutBase):
    op_idx: int = 0
    parent: Layout | None = None
    k_width: int = 0  # 0: not printed (FMA dots, 2.3's mma v1)
    kind = "dot_op"

    @property
    def rank(self) -> int:
        return self.parent.rank

    def to_text(self) -> str:
        kw = f", kWidth = {self.k_width}" if self.k_width else ""
        return f"#ttg.dot_op<{{opIdx = {self.op_idx}, parent = {self.parent.to_text()}{kw}}}>"


@dataclass(frozen=True)
class LinearEncoding(LayoutBase):
    """`#ttg.linear<{register = [...], lane = [...], warp = [...], block = [...]}>`: explicit bases."""

    bases: dict = field(default_factory=dict, hash=False)
    # `linear`, or `generic_linear` (3.8 on): the same bases, but warp bases may move along several dims and
    # the layout need not be one-to-one (an element held by two threads no zero basis explains)
    spelling: str = "linear"

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.spelling

    @property
    def rank(self) -> int:
        for bs in self.bases.values():
            for b in bs:
                return len(b)
        return 1

    def to_text(self) -> str:
        return f"#ttg.{self.spelling}<{{" + ", ".join(f"{k} = {_bases(v)}" for k, v in self.bases.items()) + "}>"


@dataclass(frozen=True)
class SwizzledSharedLayout(LayoutBase):
    vec: int = 1
    per_phase: int = 1
    max_phase: int = 1
    order: tuple[int, ...] = ()
    cta: CTALayout | None = None
    has_leading_offset: bool = False  # 3.2's `shared<{..., hasLeadingOffset = true}>` is an NVMMA layout
    spelling: str = "swizzled_shared"  # shared (<= 3.2), swizzled_shared, amd_rotating_shared
    shared = True

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.spelling

    @property
    def rank(self) -> int:
        return len(self.order)

    def to_text(self, element_bits: int = 16) -> str:
        """3.3+ text; 3.2's leading-offset form is an nvmma_shared, whose text needs the element width."""
        if self.has_leading_offset:
            width = {(4, 2): 32, (2, 4): 64, (1, 8): 128}.get((self.per_phase, self.max_phase), 0)
            transposed = str(self.order[0] != len(self.order) - 1).lower()
            return (
                f"#ttg.nvmma_shared<{{swizzlingByteWidth = {width}, transposed = {transposed}, "
                f"elementBitWidth = {element_bits}{self.cta.text_fields()}}}>"
            )
        name = "amd_rotating_shared" if self.spelling == "amd_rotating_shared" else "swizzled_shared"
        return (
            f"#ttg.{name}<{{vec = {self.vec}, perPhase = {self.per_phase}, maxPhase = {self.max_phase}, "
            f"order = {_ints(self.order)}{self.cta.text_fields()}}}>"
        )


@dataclass(frozen=True)
class NvmmaSharedLayout(LayoutBase):
    swizzling_byte_width: int = 128
    transposed: bool = False
    element_bit_width: int = 16
    fp4_padded: bool = False
    cta: CTALayout | None = None
    printed_rank: int | None = None
    kind = "nvmma_shared"
    shared = True

    @property
    def rank(self) -> int | None:
        """None when any rank fits: the attribute does not print one unless it has CTA fields."""
        if self.printed_rank:
            return self.printed_rank
        return None if self.cta.trivial else len(self.cta.cta_order)

    def to_text(self) -> str:
        fp4 = ", fp4Padded = true" if self.fp4_padded else ""
        # (3.9 prints the rank of a trivially placed layout of rank other than 2: a 3-D or 5-D TMA block's)
        rank = f", rank = {self.printed_rank}" if self.printed_rank not in (None, 2) and self.cta.trivial else ""
        return (
            f"#ttg.nvmma_shared<{{swizzlingByteWidth = {self.swizzling_byte_width}, transposed = "
            f"{str(self.transposed).lower()}, elementBitWidth = {self.element_bit_width}{fp4}{rank}"
            f"{self.cta.text_fields()}}}>"
        )


@dataclass(frozen=True)
class PaddedSharedLayout(LayoutBase):
    intervals: tuple[tuple[int, int], ...] = ()  # (every N elements, pad P elements)
    offset_bases: tuple[tuple[int, ...], ...] | None = None
    order: tuple[int, ...] | None = None
    shape: tuple[int, ...] | None = None
    block_bases: tuple[tuple[int, ...], ...] = ()
    kind = "padded_shared"
    shared = True

    @property
    def rank(self) -> int:
        if self.offset_bases:
            return len(self.offset_bases[0])
        return len(self.order or self.shape or (0, 0))

    def to_text(self) -> str:
        iv = ", ".join(f"{i}:+{p}" for i, p in self.intervals)
        if self.offset_bases is not None:
            body = f"offset = {_bases(self.offset_bases)}, block = {_bases(self.block_bases)}"
        else:
            body = f"order = {_ints(self.order)}, shape = {_ints(self.shape)}"
        return f"#ttg.padded_shared<[{iv}] {{{body}}}>"


@dataclass(frozen=True)
class SharedLinearLayout(LayoutBase):
    offset_bases: tuple[tuple[int, ...], ...] = ()
    block_bases: tuple[tuple[int, ...], ...] = ()
    alignment: int = 16
    kind = "shared_linear"
    shared = True

    @property
    def rank(self) -> int:
        return len(self.offset_bases[0]) if self.offset_bases else 1

    def to_text(self) -> str:
        return (
            f"#ttg.shared_linear<{{offset = {_bases(self.offset_bases)}, block = {_bases(self.block_bases)}}}, "
            f"alignment = {self.alignment}>"
        )


def _tmem_cta_fields(split: tuple[int, int] | None, cga: tuple[tuple[int, ...], ...] | None) -> list[str]:
    """A tensor memory encoding's CTA fields as the text spelled them (3.6/3.7 split factors, 3.8 bases)."""
    fields = [f"CTASplitM = {split[0]}", f"CTASplitN = {split[1]}"] if split is not None else []
    return fields + ([f"CGALayout = {_bases(cga)}"] if cga else [])


@dataclass(frozen=True)
class TensorMemoryLayout(LayoutBase):
    """Blackwell tensor memory (`#ttng.tensor_memory_encoding`): where each element of an MMA accumulator or
    operand sits among TMEM's 128 lanes (rows) and 32-bit columns. Three spellings: `unpacked` (up to
    Triton 3.5), `colStride` with `CTASplitM/N` (3.6, 3.7) and `colStride` with `CGALayout` (3.8 on);
    the fields keep the one the text used, and it decides the conversion (layouts/tmem.py)."""

    block_m: int = 128
    block_n: int = 128
    col_stride: int = 1
    unpacked: bool | None = None  # the <= 3.5 spelling, instead of colStride
    cta_split: tuple[int, int] | None = None  # (CTASplitM, CTASplitN): the 3.6/3.7 spelling
    cga_bases: tuple[tuple[int, ...], ...] | None = None  # CGALayout: the 3.8+ spelling
    two_ctas: bool = False
    fp4_padded: bool = False
    kind = "tensor_memory_encoding"
    tensor_memory = True

    @property
    def rank(self) -> int:
        return 2

    @property
    def block_shape(self) -> tuple[int, int]:
        return (self.block_m, self.block_n)

    @property
    def legacy_ctas(self) -> bool:
        """CTAs spelled as 3.6/3.7 did: split factors (not CGA bases), which that conversion puts on columns."""
        return self.cga_bases is None and (self.cta_split is not None or self.two_ctas)

    def to_text(self) -> str:
        width = f"unpacked = {str(self.unpacked).lower()}" if self.unpacked is not None else \
            f"colStride = {self.col_stride}"
        fields = [f"blockM = {self.block_m}", f"blockN = {self.block_n}", width,
                  *_tmem_cta_fields(self.cta_split, self.cga_bases)]
        if self.two_ctas:
            fields.append("twoCTAs = true")
        if self.fp4_padded:
            fields.append("fp4Padded = true")
        return f"#ttng.tensor_memory_encoding<{', '.join(fields)}>"


@dataclass(frozen=True)
class TensorMemoryScalesLayout(LayoutBase):
    """The scale factors of a block-scaled tcgen05 MMA in tensor memory
    (`#ttng.tensor_memory_scales_encoding`): PTX's scale-factor layout, 32 lanes repeated in each warp's
    quarter of TMEM, four 8-bit scales to a 32-bit column."""

    cta_split: tuple[int, int] | None = None
    cga_bases: tuple[tuple[int, ...], ...] | None = None
    k_first: bool = False  # blockRepOrder = kThenMn (3.9): repetitions along K before M/N
    kind = "tensor_memory_scales_encoding"
    tensor_memory = True
    block_shape = (128, 4)  # one MMA block: 128 rows of 4 scales

    @property
    def rank(self) -> int:
        return 2

    def to_text(self) -> str:
        fields = _tmem_cta_fields(self.cta_split, self.cga_bases)
        if self.k_first:
            fields.append("blockRepOrder = kThenMn")
        return f"#ttng.tensor_memory_scales_encoding<{', '.join(fields)}>"


@dataclass(frozen=True)
class OpaqueLayout(LayoutBase):
    """A layout attribute tritonscope reads but cannot decode (Blackwell tensor memory, ...): kept by name
    so a kernel using it still lists its other layouts; to_linear raises a one-line error for it."""

    name: str = ""
    unknown: str = ""  # why: a kind tritonscope does not know (its text is kept); "" for a known one

    @property
    def shared(self) -> bool:  # type: ignore[override]
        """Tensor memory encodings are no register layouts; of a kind not known, the type says (memdesc)."""
        return not self.unknown

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.name

    @property
    def rank(self) -> None:
        return None

    def to_text(self) -> str:
        return self.text or f"#{self.name}<>"


Layout = (
    BlockedLayout
    | SliceLayout
    | NvidiaMmaLayout
    | AmdMfmaLayout
    | AmdWmmaLayout
    | DotOperandLayout
    | LinearEncoding
    | SwizzledSharedLayout
    | NvmmaSharedLayout
    | PaddedSharedLayout
    | SharedLinearLayout
    | TensorMemoryLayout
    | TensorMemoryScalesLayout
    | OpaqueLayout
)
