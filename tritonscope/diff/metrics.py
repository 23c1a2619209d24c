"""Numbers per kernel and stage, for `diff` deltas and `--fail-on` rules.

A kernel's metrics are one flat dict of name -> number, so that deltas and rules need no schema:
- resources: `regs`, `spills`, `smem` (Triton's shared memory), `tmem` (the tensor memory columns Triton
  allocated on Blackwell), `static_smem`, `stack`, `local`, `scratch`,
  `occupancy`, `vgprs`, `sgprs`, `agprs`, `lds`, `num_warps`, `num_stages` (None where unknown);
- `ops:<class>`: op counts of the kernel's ISA text (PTX or AMDGCN), `ops:<class>@<stage>` for every
  text stage; memory classes by width (`ops:global_load.16B`) and cache hints (`ops:hint:L2::cache_hint`)
  from `memops.classify`;
- `lines:<stage>`: normalized lines; `code_bytes`: machine code size (CUBIN .text, AMDGCN codeLenInByte);
- `vector-width`: the narrowest load site (bytes); `loads:<verdict>`: `loads` verdicts of global loads.
Vector width per load site (`file:line` -> bytes per access, from `loads`) comes beside them, for the
`vector-width<` rule.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field

from tritonscope.artifacts.cache import is_int, parse_target
from tritonscope.artifacts.nvinfo import cubin_resources
from tritonscope.diff.normalize import DIALECT_RENAMES
from tritonscope.errors import ParseError
from tritonscope.stages import memops, parse
from tritonscope.stages.common import Module
from tritonscope.stages.table import TEXT_ISA_STAGES

# Resource comments and YAML keys of an AMDGCN listing -> metric name.
# (numbers of at most 18 digits: int() refuses 4300+)
GCN_RESOURCE_COMMENT = re.compile(
    r"^\s*;\s*(NumVgprs|NumAgprs|TotalNumVgprs|TotalNumSgprs|NumSgprs|ScratchSize|Occupancy|LDSByteSize)"
    r"\s*:\s*(\d{1,18})(?!\d)|^\s*;\s*(codeLenInByte)\s*=\s*(\d{1,18})(?!\d)", re.MULTILINE)
GCN_YAML_FIELD = re.compile(
    r"^\s*-?\s*\.(vgpr_count|sgpr_count|agpr_count|vgpr_spill_count|sgpr_spill_count|"
    r"group_segment_fixed_size|private_segment_fixed_size):\s+(\d{1,18})(?!\d)", re.MULTILINE)
# gfx90a and later keep VGPRs and AGPRs in one file: the kernel descriptor says where the AGPRs start
GCN_ACCUM_OFFSET = re.compile(r"^\s*\.amdhsa_accum_offset\s+(\d{1,9})(?!\d)", re.MULTILINE)

# Op classes beyond memory traffic, per stage family: (class, regex on Op.op).
MLIR_CLASSES = (
    ("mma", re.compile(r"^tt\.dot(?:_scaled)?$")),
    ("wgmma", re.compile(r"^ttng\.warp_group_dot$")),
    ("tcgen05_mma", re.compile(r"^ttng\.tc_gen5_mma(?:_scaled)?$")),
    ("barrier", re.compile(r"^gpu\.barrier$|^ttng\.barrier|^ttg\.barrier")),
    ("branch", re.compile(r"^scf\.(?:for|while|if)$|^cf\.(?:br|cond_br)$")),
    ("convert_layout", re.compile(r"^ttg\.convert_layout$")),
    ("reduce", re.compile(r"^tt\.reduce$")),
)
LLIR_CLASSES = (
    ("branch", re.compile(r"^(?:br|switch|indirectbr)$")),
    ("call", re.compile(r"^call$")),
)
LLIR_TEXT_CLASSES = (
    ("mma", re.compile(r"mma\.sync|@llvm\.nvvm\.mma")),
    ("wgmma", re.compile(r"wgmma\.mma_async|@llvm\.nvvm\.wgmma")),
    ("tcgen05_mma", re.compile(r"tcgen05\.mma\b|@llvm\.nvvm\.tcgen05\.mma")),
    ("mfma", re.compile(r"@llvm\.amdgcn\.mfma")),
    ("wmma", re.compile(r"@llvm\.amdgcn\.wmma")),
    # (gfx12 splits a barrier into `s.barrier.signal` and `s.barrier.wait`: one barrier, the signal counted)
    ("barrier", re.compile(r"@llvm\.nvvm\.barrier|\bbar\.sync|barrier\.sync|@llvm\.amdgcn\.s\.barrier(?!\.wait)")),
)


def may_match_llir_text_class(text: str) -> bool:
    """False when no LLIR_TEXT_CLASSES pattern can match (each names one of these words): the ~95% of
    LLVM IR lines skip the five searches. tests/test_diff_metrics.py holds every pattern to it."""
    return "mma" in text or "bar" in text or "mfma" in text

PTX_CLASSES = (
    ("mma", re.compile(r"^mma\.")),
    ("wgmma", re.compile(r"^wgmma\.mma_async")),
    ("tcgen05_mma", re.compile(r"^tcgen05\.mma\b")),
    ("barrier", re.compile(r"^(?:bar|barrier)\.|^mbarrier\.")),
    ("branch", re.compile(r"^bra\b")),
    ("local", re.compile(r"^(?:ld|st)\.local")),
)
GCN_CLASSES = (
    ("mfma", re.compile(r"^v_mfma")),
    ("wmma", re.compile(r"^v_wmma")),
    ("barrier", re.compile(r"^s_barrier(?!_wait)")),  # (gfx12: s_barrier_signal, then s_barrier_wait: one)
    ("branch", re.compile(r"^s_(?:cbranch|branch)")),
    ("scratch", re.compile(r"^scratch_|^buffer_(?:load|store)_dword.*\boff(?:set)?\b.*\bs\[0:3\]")),
)
STAGE_CLASSES = {"source": MLIR_CLASSES, "ttir": MLIR_CLASSES, "ttgir": MLIR_CLASSES, "llir": LLIR_CLASSES,
                 "ptx": PTX_CLASSES, "amdgcn": GCN_CLASSES}
ISA_STAGES = TEXT_ISA_STAGES
# Where vector width per load site is read, first found wins: LLIR carries each tt.load's own location
# (Triton vectorizes while lowering), while the ISA's line table moves with LLVM's scheduling.
SITE_STAGES = ("llir", "ptx", "amdgcn")
# Loads from global memory, whatever the instruction form (AMD buffer loads included).
GLOBAL_LOAD_KINDS = ("global_load", "buffer_load")
_MLIR_FOLD = re.compile(r"^(" + "|".join(re.escape(o) for o, _ in DIALECT_RENAMES) + ")")
_MLIR_NEW = dict(DIALECT_RENAMES)


@dataclass(slots=True)
class StageOps:
    """Op counts of one stage, and the narrowest global load per source line."""

    counts: Counter = field(default_factory=Counter)
    load_sites: dict[str, int] = field(default_factory=dict)


def classify_ops(stage: str, module: Module) -> StageOps:
    """Count a parsed stage's ops by class; memory traffic by kind and width through memops."""
    out = StageOps()
    counts = out.counts
    classes = STAGE_CLASSES.get(stage, ())
    mlir = stage in ("source", "ttir", "ttgir")
    ops = module.ops
    for op, access in zip(ops, memops.accesses(stage, module), strict=True):
        if stage == "llir":
            text = op.text
            if may_match_llir_text_class(text):
                for cls, pattern in LLIR_TEXT_CLASSES:
                    if pattern.search(text):
                        counts[cls] += 1
        if access is None:
            continue
        kind = access.kind
        counts[kind] += 1
        width = access.width_bytes
        if width:
            # AMD's two-address LDS forms move two values at two addresses: `ds_read2_b64` is `.2x8B`, apart
            # from `ds_read_b128`'s `.16B`
            pair = memops.addresses(access.form) == 2
            counts[f"{kind}.2x{width // 2}B" if pair else f"{kind}.{width}B"] += 1
        for hint in access.cache_hints:
            counts[f"hint:{hint}"] += 1
        if kind in GLOBAL_LOAD_KINDS and width and op.loc is not None and op.loc.known:
            outer = op.loc.outermost()
            site = f"{site_file(outer.file)}:{outer.line}"
            out.load_sites[site] = min(width, out.load_sites.get(site, width))
    # Classes by op name: tested once per distinct name (a kernel has thousands of ops, a few dozen names)
    for name, n in Counter(op.op for op in ops).items():
        counts["total"] += n
        if mlir:
            name = _MLIR_FOLD.sub(lambda m: _MLIR_NEW[m.group(1)], name)
        for cls, pattern in classes:
            if pattern.search(name):
                counts[cls] += n
    return out


def amdgcn_resources(text: str) -> dict[str, int]:
    """Registers, spills, scratch, LDS and occupancy from an AMDGCN listing's comments and YAML."""
    found: dict[str, int] = {}
    for m in GCN_RESOURCE_COMMENT.finditer(text):
        key, value = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        found.setdefault(key, int(value))
    for m in GCN_YAML_FIELD.finditer(text):
        found.setdefault("." + m.group(1), int(m.group(2)))
    out: dict[str, int] = {}
    vgprs = found.get("NumVgprs")
    total = found.get(".vgpr_count")
    if vgprs is None and total is not None:
        # (no listing comment: Triton before 3.3) `.vgpr_count` is the unified file's total where AGPRs
        # share it (gfx90a on: the descriptor's accum_offset is where they start); VGPRs alone elsewhere
        accum = GCN_ACCUM_OFFSET.search(text)
        vgprs = min(total, int(accum.group(1))) if accum is not None and found.get(".agpr_count") else total
    if vgprs is not None:
        out["vgprs"] = vgprs
    if "NumAgprs" in found or ".agpr_count" in found:
        out["agprs"] = found.get("NumAgprs", found.get(".agpr_count", 0))
    sgprs = found.get("TotalNumSgprs", found.get(".sgpr_count", found.get("NumSgprs")))
    if sgprs is not None:
        out["sgprs"] = sgprs
    # Registers a wave holds: unified VGPR file (VGPRs + AGPRs) where the listing says so.
    regs = found.get("TotalNumVgprs", total if total is not None else vgprs)
    if regs is not None:
        out["regs"] = regs
    if ".vgpr_spill_count" in found or ".sgpr_spill_count" in found:
        out["spills"] = found.get(".vgpr_spill_count", 0) + found.get(".sgpr_spill_count", 0)
    scratch = found.get("ScratchSize", found.get(".private_segment_fixed_size"))
    if scratch is not None:
        out["scratch"] = scratch
    lds = found.get("LDSByteSize", found.get(".group_segment_fixed_size"))
    if lds is not None:
        out["lds"] = lds
    if "codeLenInByte" in found:
        out["code_bytes"] = found["codeLenInByte"]
    if "Occupancy" in found:
        out["occupancy"] = found["Occupancy"]
    return out


# The unit whose LDS a workgroup shares with others and over whose SIMDs their waves spread: a CDNA / GCN
# compute unit (wave64, 4 SIMDs), an RDNA (1 to 4) work-group processor in WGP mode (LLVM's default from gfx10:
# 2 CUs, 4 SIMD32s, one 128 KiB LDS). (bytes of LDS, SIMDs, name): the AMD ISA guides of each
_CU, _WGP = (65536, 4, "CU"), (131072, 4, "WGP")
LDS_UNITS = {"gfx906": _CU, "gfx908": _CU, "gfx90a": _CU, "gfx940": _CU, "gfx941": _CU, "gfx942": _CU,
             "gfx950": (163840, 4, "CU"), "gfx1010": _WGP, "gfx1011": _WGP, "gfx1012": _WGP, "gfx1030": _WGP,
             "gfx1031": _WGP, "gfx1032": _WGP, "gfx1034": _WGP, "gfx1035": _WGP, "gfx1036": _WGP,
             "gfx1100": _WGP, "gfx1101": _WGP, "gfx1102": _WGP, "gfx1103": _WGP,
             "gfx1150": _WGP, "gfx1151": _WGP, "gfx1200": _WGP, "gfx1201": _WGP}


def lds_bound_occupancy(occupancy: int, lds: int, arch: str | None, warps: int | None) -> tuple[int, str] | None:
    """(waves a SIMD holds, why) where the LDS a workgroup takes (`lds`: static + Triton's dynamic, given at
    launch) holds fewer than LLVM's occupancy, which counts the static LDS only; None where it does not bind
    or the unit is not known."""
    unit = LDS_UNITS.get(arch or "")
    if unit is None or not lds or not warps or warps <= 0:
        return None
    per_unit, simds, name = unit
    # the workgroups a unit's LDS holds, their waves spread over its SIMDs: the most one SIMD holds
    limit = -(-(per_unit // lds) * warps // simds)
    return (limit, f"{lds} B of LDS a workgroup, {per_unit} B a {name}") if limit < occupancy else None


def cubin_metrics(data: bytes, kernel: str, path: str | None = None) -> dict[str, int]:
    res = cubin_resources(data, path)
    r = res.get(kernel) or (next(iter(res.values())) if len(res) == 1 else None)
    if r is None:  # (every CUBIN of the test data and corpus names its kernel: this one's tables are damaged)
        named = ", ".join(sorted(res)[:4]) or "none"
        raise ParseError(f"its ELF tables name no resources of kernel {kernel} (they name: {named})", path)
    return {"regs": r.registers, "stack": r.stack_bytes, "static_smem": r.static_shared_bytes,
            "local": r.local_bytes, "code_bytes": r.code_bytes}


# Access kinds of `loads` rows that read global memory (async copies and TMA land in shared memory).
LOADS_GLOBAL_KINDS = ("global_load", "buffer_load", "async_copy", "tma_load")


# A kernel file TorchInductor writes is named by the hash of its text (`c<51 base32 letters>.py`): another
# run names the same kernel's file otherwise. Its sites are named `inductor.py:LINE`, in every run alike.
_INDUCTOR_FILE = re.compile(r"c[a-z2-7]{51}\.py")


def site_file(path: str) -> str:
    """The file part of a load site: the basename, the same for every run of an Inductor kernel."""
    name = os.path.basename(path)
    return "inductor.py" if _INDUCTOR_FILE.fullmatch(name) else name


def load_sites_from_report(report) -> tuple[dict[str, int], Counter]:
    """(site -> vector bytes, verdict counts) from a `loads.LoadsReport`: one site per TTGIR load.

    A site is `file:line` of the user's code (`#2`, `#3` for further loads on that line, in column order),
    so it is stable across releases whose column conventions differ.
    """
    sites: dict[str, int] = {}
    verdicts: Counter = Counter()
    seen: Counter = Counter()
    for row in sorted(report.rows, key=lambda r: (site_file(r.file), r.line, r.col)):
        if row.kind not in LOADS_GLOBAL_KINDS:
            continue
        verdicts[row.verdict] += 1
        base = f"{site_file(row.file)}:{row.line}"
        seen[base] += 1
        if row.vector_bytes:
            sites[base if seen[base] == 1 else f"{base}#{seen[base]}"] = row.vector_bytes
    return sites, verdicts


def metadata_metrics(meta: dict | None) -> dict[str, int]:
    if not meta:
        return {}
    out: dict[str, int] = {}
    for key, name in (("shared", "smem"), ("tmem_size", "tmem"), ("num_warps", "num_warps"),
                      ("num_stages", "num_stages"), ("n_regs", "regs"), ("n_spills", "spills")):
        v = meta.get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            out[name] = v
    if "tmem_size" not in meta and "num_warps" in out:  # (a release from before tensor memory allocates none)
        out["tmem"] = 0
    return out


@dataclass(slots=True)
class KernelMetrics:
    values: dict[str, int | None] = field(default_factory=dict)
    load_sites: dict[str, int] = field(default_factory=dict)
    unread: list[tuple[str, str]] = field(default_factory=list)  # (file, why) of a binary that did not read

    def to_json(self) -> dict:
        return {"metrics": dict(sorted(self.values.items())), "load_sites": dict(sorted(self.load_sites.items()))}


def kernel_metrics(stage_texts: dict[str, str], normalized: dict[str, str], meta: dict | None,
                   binaries: dict[str, tuple[bytes, str | None]], kernel: str, loads_report=None,
                   modules=None) -> KernelMetrics:
    """Every metric of one kernel from its stage texts (raw and normalized), metadata and binaries.

    With a `loads` report, load sites are its TTGIR loads (final-ISA width); without one (no TTGIR),
    the narrowest global load per source line of the LLIR, else of the ISA. `modules` (a
    stages.ParsedEntry) gives the stages already parsed, else each text is parsed here.
    """
    km = KernelMetrics()
    values = km.values
    # Sizes are of normalized text: raw sizes move with debug info and path lengths.
    sites_by_stage: dict[str, dict[str, int]] = {}
    for stage, text in sorted(stage_texts.items()):
        if stage in normalized:
            values[f"lines:{stage}"] = normalized[stage].count("\n")
        ops = classify_ops(stage, modules.module(stage) if modules is not None else parse(stage, text))
        for cls, n in ops.counts.items():
            values[f"ops:{cls}@{stage}"] = n
        if stage in ISA_STAGES:
            for cls, n in ops.counts.items():
                values[f"ops:{cls}"] = n
        if ops.load_sites:
            sites_by_stage[stage] = ops.load_sites
    km.load_sites = next((sites_by_stage[s] for s in SITE_STAGES if s in sites_by_stage), {})
    if loads_report is not None:
        sites, verdicts = load_sites_from_report(loads_report)
        km.load_sites = sites
        for verdict, n in verdicts.items():
            values[f"loads:{verdict}"] = n
    if km.load_sites:
        values["vector-width"] = min(km.load_sites.values())
    for stage, (data, path) in sorted(binaries.items()):
        if stage == "cubin":
            try:
                values.update(cubin_metrics(data, kernel, path))
            except ParseError as exc:  # a damaged CUBIN: its resources are unknown, the rest is measured
                km.unread.append((exc.path or path or stage, exc.message))
    if "amdgcn" in stage_texts:
        values.update(amdgcn_resources(stage_texts["amdgcn"]))
    values.update(metadata_metrics(meta))  # the launcher's own numbers win where present
    shared, warps = (meta or {}).get("shared"), (meta or {}).get("num_warps")
    if "occupancy" in values and is_int(shared) and shared > 0 and is_int(warps):
        # (Triton's shared memory is LDS it asks for at launch: LLVM's occupancy counted none of it)
        target = parse_target(meta.get("target"))
        bound = lds_bound_occupancy(values["occupancy"], values.get("lds", 0) + shared,
                                    target.arch if target is not None else None, warps)
        if bound is not None:
            values["occupancy"] = bound[0]
    return km
