"""Joining the memory instructions of LLIR, PTX, SASS and AMDGCN to the TTGIR accesses of `loads`.

An instruction goes to the access row(s) on its source line whose kind it can implement, preferring the
same location chain, then the same column, then the line; widths break ties; what stays shared between
rows is `ambiguous`, what no row takes is `unattributed`. Line-only stages (SASS) follow PTX where PTX
could tell accesses apart.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import math
import os
import re

from tritonscope.loads.model import AccessRow, Reason
from tritonscope.stages import memops
from tritonscope.stages.common import Module, SourceLoc, same_file
from tritonscope.stages.table import LINE_ONLY_STAGES

# Which instruction kinds of lower stages can implement an access of a TTGIR kind (first: the usual one).
ACCEPTS: dict[str, tuple[str, ...]] = {
    "global_load": ("global_load", "buffer_load", "scalar_load"),
    "global_store": ("global_store", "buffer_store"),
    "buffer_load": ("buffer_load", "global_load", "scalar_load"),
    "buffer_store": ("buffer_store", "global_store"),
    "atomic": ("atomic",),
    "async_copy": ("async_copy", "global_load", "buffer_load"),
    "tma_load": ("tma", "global_load", "buffer_load"),
    "tma_store": ("tma", "global_store", "buffer_store"),
    "shared_load": ("shared_load",),
    "shared_store": ("shared_store",),
    "mma_shared": ("mma",),
    "tmem_load": ("tmem_load",),
    "tmem_store": ("tmem_store",),
    "tmem_copy": ("tmem_copy",),
}
# MMA instructions that read shared memory through descriptors (no load of their own), every stage's form.
# (Hopper SASS spells wgmma by its type: HGMMA f16/bf16/tf32, QGMMA fp8, IGMMA int8, BGMMA b1)
MMA_FROM_SHARED = re.compile(r"^(wgmma\.mma_async|tcgen05\.mma|[HQIB]GMMA|UTC\w*MMA)")
# Stages without source columns: joined by line only.
# The address operand of a PTX memory instruction: `[ %rd1 + 0 ]`, `[%rd5+16]`.
PTX_ADDRESS = re.compile(r"\[\s*([^\]]+?)\s*\]")
LLIR_CONDITIONAL_BRANCH = re.compile(r"^\s*br\s+i1\s")
LLIR_TERMINATORS = ("br", "switch", "ret", "unreachable", "indirectbr", "callbr")


def loc_key(loc: SourceLoc | None) -> tuple:
    """A location chain as comparable data: ((basename, line, col), ...) innermost first."""
    if loc is None:
        return ()
    return tuple((os.path.basename(p.file), p.line, p.col) for p in loc.chain())


def join_stage(stage: str, module: Module, rows: list[AccessRow], unattributed: list[dict]) -> None:
    by_line: dict[int, list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        by_line[r.line].append(r)
    leftovers: collections.Counter = collections.Counter()
    widths: dict[str, int | None] = {}
    scalar_claims: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    # which AMD scalar loads read kernel arguments: from the kernel descriptor where the stage has one, else
    # those of column 0 (the prologue's, on the kernel's `def` line or none)
    described = stage in ("amdgcn", "hsaco-asm") and module.user_sgprs.get("kernarg_segment_ptr") == 1
    arguments = memops.kernel_argument_loads(module) if described else set()
    for op, acc in zip(module.ops, memops.accesses(stage, module), strict=True):
        if acc is None:
            form = _mma_form(stage, op)
            if form is None:
                continue
            acc = memops.MemAccess("mma", form, None, None, "shared")
        key = loc_key(op.loc)
        outer = op.loc.outermost() if op.loc is not None else None
        line = outer.line if outer is not None else 0
        col = outer.col if outer is not None else 0
        if acc.kind == "scalar_load" and (op.lineno in arguments if described else col == 0):
            acc = dataclasses.replace(acc, kind="other_mem")  # a kernel argument, no access's data
        candidates = by_line.get(line, [])
        if acc.kind == "other_mem":  # no access's data: listed once, and named on the rows of its line
            for r in candidates:
                r.other_forms.setdefault(stage, collections.Counter())[acc.form] += 1
            leftovers[(line, col, acc.kind, acc.form, None)] += 1
            widths[acc.form] = acc.width_bytes
            continue
        # (SASS located through the PTX has its columns and helpers: matched by them, listed by line alone)
        inner = op.loc.written() if op.loc is not None and (stage not in LINE_ONLY_STAGES or col) else None
        written = (inner.line, inner.col, inner.file) if inner is not None else None
        chosen, level = _choose(stage, acc, key, line, col, candidates, written[:2] if written else None)
        if not chosen and written is not None and stage in _CALLER_ADDED:
            # the stage names a call its instruction was inlined at where TTGIR's location of the access has
            # none (Triton 3.3's pipelined local_load in an inlined helper: its PTX's debug info adds the call
            # at 180:50 to 167:16): the access written at that position with no call of its own
            bare = [r for r in by_line.get(written[0], []) if r.col == written[1] and " @ " not in r.where
                    and (not written[2] or not r.file or same_file(r.file, written[2]))]
            chosen, level = _choose(stage, acc, (), written[0], written[1], bare) if bare else ([], "")
        if stage in LINE_ONLY_STAGES and not col:  # (nvdisasm's own line table: no column, no helper frame)
            written = None
        if not chosen:
            leftovers[(line, col, acc.kind, acc.form, written)] += 1
            widths[acc.form] = acc.width_bytes
            continue
        if len(chosen) == 1:
            r = chosen[0]
            r.stages.setdefault(stage, {}).setdefault(acc.form, 0)
            r.stages[stage][acc.form] += 1
            if acc.kind == "scalar_load":
                scalar_claims[id(r)][(line, col, acc.form)] += 1
            r.widths.setdefault(stage, {})[acc.form] = acc.width_bytes
            address = PTX_ADDRESS.search(op.text) if stage == "ptx" else None
            if address:
                seen = r.addresses.setdefault(stage, {})
                key_ = " ".join(address.group(1).split())
                seen[key_] = seen.get(key_, 0) + 1
            if level == "line" and stage not in LINE_ONLY_STAGES:
                r.line_matched = True
        else:
            for r in chosen:
                r.ambiguous.setdefault(stage, {}).setdefault(acc.form, 0)
                r.ambiguous[stage][acc.form] += 1
                r.widths.setdefault(stage, {})[acc.form] = acc.width_bytes
                for o in chosen:
                    label = f"{o.label or f'{o.line}:{o.col}'} {o.op}"  # (an unlocated access: its TTGIR line)
                    if o is not r and o.op == r.op and o.where == r.where and o.sites:
                        label += f" (ttgir:{o.sites[0].op.lineno})"  # one position, another layout
                    if o is not r and label not in r.ambiguous_with:
                        r.ambiguous_with.append(label)
    for r in rows:
        if stage in r.other_forms:
            r.other_forms[stage] = dict(r.other_forms[stage])
        claims = scalar_claims.get(id(r))
        if claims and _lanes_cover_llir(r, stage, {form for _, _, form in claims}):
            for (line, col, form), n in claims.items():
                widths[form] = r.widths.get(stage, {}).get(form)
                r.stages[stage][form] -= n
                if not r.stages[stage][form]:
                    del r.stages[stage][form]
                    r.widths.get(stage, {}).pop(form, None)
                leftovers[(line, col, "scalar_load", form, None)] += n
            if not r.stages[stage]:
                del r.stages[stage]
    for (line, col, kind, form, written), n in sorted(leftovers.items(), key=lambda kv: (*kv[0][:4], kv[0][4] or ())):
        entry = {"stage": stage, "line": line, "col": col, "kind": kind, "form": form, "count": n,
                 "bytes": widths.get(form)}
        if written is not None:  # inlined from a helper: where it was written (a line of the helper)
            entry["written"] = f"{written[0]}:{written[1]}"
            entry["written_file"] = written[2]
        unattributed.append(entry)


def _lanes_cover_llir(r: AccessRow, stage: str, scalar_forms: set[str]) -> bool:
    """Whether a tensor access's per-lane instructions in `stage` move every byte its LLIR loads do, so
    the AMD scalar loads (`s_load_*`, one address for the wavefront) on its line are not its copy: SGLang's
    gfx950 decode attention loads an `if` arm's arguments (`s_load_dwordx4`) on the line of a gathered
    64x512 load. A uniform tensor load whose LLIR became scalar loads only (gemlite's group scales) keeps
    them: its lanes move nothing."""
    if not r.shape or all(d == 1 for d in r.shape):
        return False
    lanes, llir = r.stage_bytes(stage, scalar_forms), r.stage_bytes("llir")
    return lanes is not None and llir is not None and llir > 0 and lanes >= llir


def _mma_form(stage: str, op) -> str | None:
    """The MMA-from-shared instruction `op` is (LLIR: inside its inline asm), else None."""
    if MMA_FROM_SHARED.match(op.op):
        return op.op
    if stage == "llir" and "asm" in op.text:
        m = _LLIR_ASM_MMA.search(op.text)
        return m.group(1) if m else None
    return None


# (Triton 3.9 predicates Blackwell's MMA on the elected thread inside the asm: `"@$5 tcgen05.mma...`)
_LLIR_ASM_MMA = re.compile(
    r'asm\s+(?:sideeffect\s+)?(?:convergent\s+)?"\s*(?:@!?\$\d+\s+)?((?:wgmma\.mma_async|tcgen05\.mma)[\w.:]*)')


_TRANSPOSED_BITS = re.compile(r"(?:\bds\.read\.tr|_tr_b)(\d+)")
_LLVM_FLOATS = {"bfloat": "bf16", "half": "f16", "float": "f32", "double": "f64"}
_LLVM_FLOAT = re.compile(r"(?:<\d+ x |\s)(bfloat|half|float|double)>?$")


# stages whose debug info may add an inlining call TTGIR's location of an access lacks
_CALLER_ADDED = ("ptx", "sass")


def _choose(stage: str, acc: memops.MemAccess, key: tuple, line: int, col: int,
            candidates: list[AccessRow], written: tuple[int, int] | None = None) -> tuple[list[AccessRow], str]:
    fitting = [r for r in candidates if acc.kind in ACCEPTS.get(r.kind, ())]
    if acc.kind == "atomic" and stage in ("llir", "amdgcn"):
        # an AMD buffer atomic lowers to a buffer instruction and nothing else does: a plain `atomicrmw` at a
        # buffer atomic's position is another access's (gfx942 gives a scalar `tl.atomic_add(c_ptr, 1)` the
        # position of the vector buffer atomic before it; helper 126)
        fitting = [r for r in fitting if r.op.startswith("amdg.buffer") == ("buffer" in acc.form)]
    if not fitting:
        return [], ""
    shape = memops.tcgen05_shape(acc.form) if stage in LINE_ONLY_STAGES else None
    if shape is not None:
        # a tensor memory move keeps its data-path shape (PTX `16x32bx2` is SASS `16dp32bit`, `32x32b` plain):
        # only rows whose PTX moved that shape (triton_kernels' persistent MXFP4 matmul for cuda:100: its
        # scales' 16x32bx2 store beside the accumulator's 32x32b one at one position)
        shaped = [r for r in fitting if any(memops.tcgen05_shape(f) == shape for f in r.stages.get("ptx", {}))]
        fitting = shaped or fitting
    # at the kernel's position, not where a helper of another line wrote it (an instruction a helper inlined
    # at the same call wrote at 134:24, a layout conversion, is no access the helper wrote at 127:9)
    def same_writer(r: AccessRow) -> bool:  # (written: where a helper wrote the instruction, when known)
        return written is None or r.written is None or (r.written[1], r.written[2]) == written

    levels = [("exact", [r for r in fitting if loc_key(r.sites[0].op.loc) == key]),
              ("exact", [r for r in fitting if r.col == col and same_writer(r)])]
    # Shared-memory traffic on a line is often a layout conversion: with columns, only an exact match counts;
    # without (SASS), only rows whose PTX has an instruction of its family, transposition and width, and
    # where SASS has the PTX's positions, only rows a helper wrote where it wrote the instruction (flex
    # attention's backward: a conversion's `ldmatrix.trans` and `st.shared.v4`, inlined at one call with
    # three operands' plain `ldmatrix` and their tiles' stores)
    if stage in LINE_ONLY_STAGES and acc.kind.startswith("shared"):
        levels.append(("line", [r for r in fitting if _guide_has(r, "ptx", acc) and same_writer(r)]))
    elif not acc.kind.startswith("shared"):
        levels.append(("line", fitting))
    for level, found in levels:
        if not found:
            continue
        if len(found) > 1:
            primary = [r for r in found if ACCEPTS[r.kind][0] == acc.kind]
            found = primary or found
        if len(found) > 1 and acc.kind.startswith("shared") and stage in _GUIDE:
            # rows of one position that the previous stage told apart by instruction: an ldmatrix goes
            # to the row whose LLIR had ldmatrix, a plain `ld.shared` to the one whose LLIR had loads
            fam, guide = family(acc.form), _GUIDE[stage]
            scores = [(_guide_score(r, guide, fam), r) for r in found]
            best = max(score for score, _ in scores)
            if best > 0:
                found = [r for score, r in scores if score == best]
        if len(found) > 1 and stage in ("llir", "amdgcn"):
            # AMD's buffer ops (`amdg.buffer_*`) lower to buffer instructions and nothing else does: a
            # `buffer_load_dwordx4` at a position is the buffer op's, a `global_load_lds_dwordx4` the other's
            # (a pipelined copy whose prologue became `amdg.buffer_load_to_local`, its loop body
            # `ttg.async_copy_global_to_local`)
            buffer = "buffer" in acc.form
            kept = [r for r in found if r.op.startswith("amdg.buffer") == buffer]
            found = kept or found
        if len(found) > 1 and stage in ("llir", "amdgcn"):
            # AMD's transposing LDS reads name their element width (`ds.read.tr8`, `ds_read_b64_tr_b16`): an
            # int8 dot operand's, not the bf16 one's read at the same position (gemlite's A8 GEMM on gfx950)
            bits = _TRANSPOSED_BITS.search(acc.form)
            typed = [r for r in found if bits and r.element_bits == int(bits.group(1))]
            found = typed or found
        if len(found) > 1 and stage == "llir":
            # an LLVM float type names the element: a `<4 x bfloat>` read is the bf16 access's, not the f32
            # one's at the same position (FLA's two dot operands at one line); integer types say nothing
            element = _LLVM_FLOAT.search(acc.form)
            typed = [r for r in found if element and r.dtype == _LLVM_FLOATS[element.group(1)]]
            found = typed or found
        if len(found) > 1 and acc.kind == "mma" and _wgmma_type(acc.form):
            # Hopper's MMAs name their operand type in every stage (`wgmma...s32.s8.s8` is SASS's IGMMA):
            # the rows of one line whose previous stage had an MMA of this type (sageattention's int8 QK
            # and f16 PV dots, both inlined from one helper at one call line, which SASS knows by line only)
            before = PREVIOUS.get(stage)
            typed = [r for r in found if any(_wgmma_type(f) == _wgmma_type(acc.form)
                                             for f in r.stages.get(before, {}))]
            found = typed or found
            # and by its shape (`m64n64k16` is SASS's `HGMMA.64x64x16`): MInference's streaming attention, a
            # 64x64 QK and a 64x128 PV dot of one type inlined at one call line
            shaped = [r for r in found if any(_wgmma_shape(f) == _wgmma_shape(acc.form)
                                              for f in r.stages.get(before, {}))]
            found = shaped if shaped and _wgmma_shape(acc.form) else found
        if len(found) > 1 and acc.width_bytes is not None:
            same_width = [r for r in found if _expected_width(r) == acc.width_bytes]
            if acc.kind.startswith("tmem"):
                if len(same_width) != 1:
                    # a tile too big for one tcgen05.ld/st is split in equal parts: a part fits only a tile it
                    # divides
                    same_width = [r for r in found if (_expected_width(r) or 0) >= acc.width_bytes
                                  and (_expected_width(r) or 0) % acc.width_bytes == 0]
                found = same_width or found  # the rows it can be part of (share_identical may split them)
            else:
                # a global access narrower than a row's predicted vector may be that row's (the prediction is
                # what the layout allows; a runtime stride or unproven alignment narrows it: lmdeploy's load
                # rematerialized in two layouts). Shared-memory widths are the compiler's own choice.
                able = [r for r in found if (_expected_width(r) or 0) >= acc.width_bytes]
                unique = len(same_width) == 1 and (acc.space == "shared" or len(able) == 1)
                found = same_width if unique else found
        return found, level
    return [], ""


# the stage before each later stage (the one a stage's attribution is checked against)
PREVIOUS = {"ptx": "llir", "sass": "ptx", "amdgcn": "llir"}
_SASS_GMMA = {"HGMMA": "float", "IGMMA": "int", "QGMMA": "fp8", "BGMMA": "b1"}
_PTX_WGMMA_TYPE = re.compile(r"\.(s8|u8|e4m3|e5m2|b1|f16|bf16|tf32)\b")


def _wgmma_type(form: str) -> str | None:
    """The operand type class of a Hopper MMA form in any stage: 'int', 'fp8', 'b1' or 'float' (f16, bf16,
    tf32); None for any other form."""
    if form[:5] in _SASS_GMMA:
        return _SASS_GMMA[form[:5]]
    if not form.startswith("wgmma.mma_async"):
        return None
    types = set(_PTX_WGMMA_TYPE.findall(form))
    if types & {"s8", "u8"}:
        return "int"
    if types & {"e4m3", "e5m2"}:
        return "fp8"
    if "b1" in types:
        return "b1"
    return "float" if types else None


_GMMA_SHAPE = re.compile(r"^[HIQB]GMMA\.(\d+)x(\d+)x(\d+)|^wgmma\.mma_async\S*?\.m(\d+)n(\d+)k(\d+)\b")


def _wgmma_shape(form: str) -> tuple[int, int, int] | None:
    """M, N and K of a Hopper MMA form in any stage (`HGMMA.64x128x16.F32`, `wgmma.mma_async...m64n128k16`)."""
    m = _GMMA_SHAPE.match(form)
    if m is None:
        return None
    dims = m.group(1, 2, 3) if m.group(1) else m.group(4, 5, 6)
    return int(dims[0]), int(dims[1]), int(dims[2])


def _expected_width(row: AccessRow) -> int | None:
    """The bytes one instruction of this row should move per thread: the predicted vector; for a tensor
    memory access, the whole tensor's share of a thread when one tcgen05.ld/st moves it (as Triton emits
    for a tile of up to 128 registers)."""
    if row.kind in ("tmem_load", "tmem_store"):
        return row.elements_per_thread * row.element_bits // 8 if row.elements_per_thread else None
    return row.predicted_vector_bytes


# The stage whose attribution guides the next one's between rows of one position (SASS follows PTX by
# `split_ambiguous`, and lines only).
_GUIDE = {"ptx": "llir", "amdgcn": "llir"}


_MATRIX = ("ldmatrix", "stmatrix", "LDSM", "STSM")


def addressing(form: str) -> str | None:
    """How an AMD instruction reaches global memory, which no pass after TTGIR changes: 'buffer' through a
    buffer resource (LLIR `raw.ptr.buffer.*`, AMDGCN `buffer_*`, `s_buffer_*` for a uniform address),
    'pointer' through an address (LLIR `load`/`store`, AMDGCN `global_*`, `flat_*`, `s_load_*`); None for
    any other form (NVIDIA's, shared memory's, LDS copies'), which any instruction may implement."""
    if form.startswith(("buffer_", "s_buffer_")) or ".ptr.buffer." in form or "raw.buffer." in form:
        return "buffer"
    if form.startswith(("global_load_", "global_store_", "flat_load_", "flat_store_", "s_load_", "load ", "store ")
                       ) and "_lds" not in form:
        return "pointer"
    return None


def family(form: str) -> str:
    """Which instructions implement the same thing in every stage: a matrix access (`ldmatrix`/`stmatrix`,
    LLIR's intrinsics, SASS `LDSM`/`STSM`), an AMD transposing LDS read (LLIR `ds.read.tr16.b64`, AMDGCN
    `ds_read_b64_tr_b16`), or a plain one."""
    if form.startswith(_MATRIX) or ".ldmatrix" in form or ".stmatrix" in form:
        return "matrix"
    return "transposed" if "ds.read.tr" in form or (form.startswith("ds_read") and "_tr_b" in form) else "plain"


def _guide_score(row: AccessRow, guide: str, fam: str) -> int:
    """2: the guide stage gave the row instructions of this family; 1: it shares such instructions with
    other rows and has none of its own (of another family); 0: neither."""
    own = {family(f) for f in row.stages.get(guide, {})}
    if fam in own:
        return 2
    shared = {family(f) for f in row.ambiguous.get(guide, {})}
    return 1 if fam in shared and not own else 0


def _guide_has(row: AccessRow, guide: str, acc: memops.MemAccess) -> bool:
    """Whether `row` got a `guide`-stage instruction that `acc` can be the lowering of: as wide, of the
    same family, a matrix one of the same transposition (ptxas turns `ldmatrix.trans` into `LDSM.16.MT88`
    and nothing else into it, a plain `st.shared.v4` into `STS.128`, never an `stmatrix`). True when the
    guide stage is absent."""
    if guide not in row.stages and guide not in row.ambiguous:
        return True
    widths = row.widths.get(guide, {})
    forms = {**row.stages.get(guide, {}), **row.ambiguous.get(guide, {})}
    return any(_lowers_alike(acc.form, acc.width_bytes, f, widths.get(f)) for f in forms)


def split_ambiguous(stage: str, guide: str, rows: list[AccessRow]) -> None:
    """Share out a line-only stage's ambiguous instructions the way the guide stage attributed its own.

    SASS has no columns: two 16-byte loads on one line are ambiguous there, but PTX (with columns) says
    which access each of its 16-byte loads belongs to; when the counts of that width agree, SASS follows.
    """
    for form, members in _ambiguous_groups(stage, rows):
        total = members[0].ambiguous[stage][form]
        width = members[0].widths.get(stage, {}).get(form)
        reps = memops.tcgen05_reps(form)
        if width is None and all(r.kind.startswith("tmem") for r in members) and reps:
            # `STTM.16dp32bit_t0_t15.x32` states no width, but its `.x32` is the PTX instruction's: each
            # PTX tcgen05.st of that count became one SASS instruction of this form
            share = {id(r): sum(n for f, n in r.stages.get(guide, {}).items() if memops.tcgen05_reps(f) == reps)
                     for r in members}
        elif width is None and all(r.kind == "mma_shared" for r in members) and MMA_FROM_SHARED.match(form):
            # ptxas never splits an MMA: when the rows' MMAs here, their own and these, number exactly their
            # guide's, none was lost either, and each row takes its guide's count less its own (Triton's
            # fused-attention tutorial for cuda:90: QK and PV dots of 8 wgmma each inlined at one call, 6 and
            # 2 HGMMA on their lines, 8 shared: 2 and 6)
            own = {id(r): r.stages.get(stage, {}).get(form, 0) for r in members}
            if any(set(r.stages.get(stage, {})) - {form} for r in members):
                continue
            add = [sum(r.stages.get(guide, {}).values()) - own[id(r)] for r in members]
            if min(add) >= 0 and sum(add) == total:
                _settle(stage, form, members, [own[id(r)] + n for r, n in zip(members, add, strict=True)])
            continue
        elif width is None:
            continue
        else:  # (of the same family: a plain 4-byte LDS is no ldmatrix's, though as wide)
            # the guide's count less what the row holds of its own already (two tiles' stores with two
            # each of their own, sharing two more: none is theirs)
            def alike(r: AccessRow, in_stage: str, form: str = form, width: int = width) -> int:
                widths = r.widths.get(in_stage, {})
                return sum(n for f, n in r.stages.get(in_stage, {}).items()
                           if _lowers_alike(form, width, f, widths.get(f)))

            share = {id(r): alike(r, guide) - alike(r, stage) for r in members}
        if sum(share.values()) != total or min(share.values()) < 0:
            continue
        _settle(stage, form, members, [r.stages.get(stage, {}).get(form, 0) + share[id(r)] for r in members])


def _lowers_alike(form: str, width: int, other: str, other_width: int | None) -> bool:
    """Whether a memory instruction `other` of any stage is one `form` may be the lowering of (or
    another of its kind): as wide, of its family, a matrix one of its transposition."""
    fam = family(form)
    return other_width == width and family(other) == fam and \
        (fam != "matrix" or _transposed(other) == _transposed(form))


def unclaimed_items(stage: str, kinds: set[str] | tuple[str, ...], unattributed: list[dict]) -> list[dict]:
    """The unattributed entries of `stage` of one of `kinds` with instructions left."""
    return [u for u in unattributed if u["stage"] == stage and u["kind"] in kinds and u["count"] > 0]


def settle_mma_by_shape(stage: str, guide: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """Hopper MMA rows whose MMAs of one shape in `stage` (SASS: lines only), their own, those they share on
    their lines and those no access claimed, number exactly their guide's of that shape (PTX) over the whole
    kernel: ptxas merged none (a merge would leave fewer, and it never splits one), so each row has its
    guide's count, however the line table spread them (Triton's fused-attention tutorial for cuda:90:
    dK/dV's four dots inlined at 438:14, 14 + 2 `HGMMA.64x32x16` on two of their lines for 8 + 8 wgmma;
    launched on an H100 by Triton 3.6, some on no line or on a helper's `def` line). Where unclaimed ones
    were among them, each row whose count changed gets a `relocated` count change."""
    mma = [r for r in rows if r.kind == "mma_shared" and r.stages.get(guide)]
    if not mma or any(r.ambiguous.get(guide) for r in mma):
        return

    def of_shape(table: dict, shape: tuple) -> int:
        return sum(n for f, n in table.items() if _wgmma_shape(f) == shape)

    forms = {f for r in mma for f in (*r.stages.get(stage, {}), *r.ambiguous.get(stage, {}))}
    forms |= {u["form"] for u in unclaimed_items(stage, ("mma",), unattributed)}
    for form in sorted(forms):
        shape = _wgmma_shape(form)
        if shape is None or len([f for f in forms if _wgmma_shape(f) == shape]) != 1:
            continue
        want = [of_shape(r.stages[guide], shape) for r in mma]
        own = [of_shape(r.stages.get(stage, {}), shape) for r in mma]
        shared = {(r.line, f): n for r in mma for f, n in r.ambiguous.get(stage, {}).items()
                  if _wgmma_shape(f) == shape}
        loose = [u for u in unclaimed_items(stage, ("mma",), unattributed) if u["form"] == form]
        spare = sum(u["count"] for u in loose)
        if own == want and not shared and not spare or sum(own) + sum(shared.values()) + spare != sum(want) or \
                any(set(r.ambiguous.get(stage, {})) - {form} for r in mma if form in r.ambiguous.get(stage, {})):
            continue
        places = ", ".join(sorted({f"{u['line']}:{u['col']}" for u in loose}))
        for r, n, had in zip(mma, want, own, strict=True):
            held = (r.stages.get(stage, {}).get(form, 0), r.ambiguous.get(stage, {}).get(form, 0))
            for table in (r.stages, r.ambiguous):
                table.get(stage, {}).pop(form, None)
                if stage in table and not table[stage]:
                    del table[stage]
            if n:
                r.stages.setdefault(stage, {})[form] = n
                r.widths.setdefault(stage, {})[form] = None
            if not r.ambiguous:
                r.ambiguous_with = []
            if spare and n and n != had and (n, 0) != held:
                r.relocations.append(Reason(
                    "relocated", f"{stage}: the kernel's {sum(want)} {form} (on the dots' lines, shared there, and "
                                 f"{spare} claimed by no access: {places}) number exactly its dots' {guide} ones of "
                                 f"that shape: none was merged, none is split, so it has its {guide} count, {n}"))
        for u in loose:
            u["count"] = 0
        unattributed[:] = [u for u in unattributed if u["count"] > 0]


def _one_holder(stage: str, rows: list[AccessRow], kinds: tuple[str, ...]):
    """Per position (kind and where) of rows of `kinds`: (the one row holding `stage` instructions, the rows
    holding none, not even shared), where exactly one holds some and others none."""
    groups: dict[tuple, list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        if r.kind in kinds and r.line:
            groups[(r.kind, r.where)].append(r)
    for members in groups.values():
        holders = [r for r in members if r.stages.get(stage)]
        empty = [r for r in members if not r.stages.get(stage) and not r.ambiguous.get(stage)]
        if len(holders) == 1 and empty:
            yield holders[0], empty


def settle_matrix_beside_complete(stage: str, rows: list[AccessRow]) -> None:
    """Shared-memory rows of one position and kind where the join gave one row both plain instructions and
    ldmatrix/stmatrix while another got none: when the plain ones of the row's predicted width are every
    vector its layout needs, the matrix instructions (8x8 tiles, no vector of a row: their width matched
    the row's by chance) are the empty row's, when they are exactly its registers' worth (Triton's
    persistent TMA matmul tutorial on an H100: a blocked tile's 8 `st.shared.v4` and the mma accumulator's
    8 `stmatrix.x4`, all given to the tile)."""
    for holder, empty in _one_holder(stage, rows, ("shared_load", "shared_store")):
        if len(empty) != 1:
            continue
        (other,) = empty
        matrix = [f for f in holder.stages[stage] if family(f) == "matrix"]
        if len(matrix) != 1 or len(holder.stages[stage]) < 2:
            continue
        (form,) = matrix
        if not _has_every_vector(holder, stage, without=form):
            continue
        width = holder.widths.get(stage, {}).get(form)
        if not width or _matrix_need(other, stage, width) != holder.stages[stage][form]:
            continue
        other.stages[stage] = {form: holder.stages[stage].pop(form)}
        other.widths.setdefault(stage, {})[form] = width


def settle_by_counts(stage: str, rows: list[AccessRow]) -> None:
    """Instructions that rows of one position (copies of one access in other layouts, a dot's operands)
    hold in common, shared out where the rows' own needs decide it:
    - matrix loads/stores: not to a row whose own ones are all of the other transposition; to operands
      read by them alone, each its registers' worth, when those add up;
    - global: to the one row still lacking instructions, when every other row's own instructions of its
      predicted width number its predicted vectors (FLA's load kept as a dot operand's slice, one 4-byte
      element a thread, and as a blocked slice, one 16-byte vector: the 4-byte load is the first's);
    - global and shared: each open row its predicted vectors, when they add up to the shared ones;
    - global, one element an instruction: each row its elements, when they add up (aiter's MLA decode on
      gfx942: one gathered index load kept in three layouts, 1 + 8 + 8 elements a thread, 17
      `buffer_load_dword`)."""
    for form, members in _ambiguous_groups(stage, rows):
        width = members[0].widths.get(stage, {}).get(form)
        # only copies of one access (one position, line known): rows of other columns or without a source
        # line share instructions for other reasons
        if width is None or not all(r.kind in _COUNTED_KINDS and r.line and r.where == members[0].where
                                    for r in members):
            continue
        total = members[0].ambiguous[stage][form]
        if family(form) == "matrix":
            # an operand is read by ldmatrix of one transposition: a row whose own matrix instructions are all
            # of the other is not this one's (lmdeploy's two dot operands at one position, one `.trans`)
            able = [r for r in members if not _other_transposition(r, stage, form)]
            if len(able) == 1:
                _settle(stage, form, members, [total if r is able[0] else 0 for r in members])
            elif len(able) == len(members) and width:
                # the operands of one dot read at its position: each thread loads its registers of each
                # operand once; when those bytes, in instructions of this width, add up, each takes its own;
                # a row whose own plain instructions already hold every vector of its layout takes none
                # (Triton's persistent-matmul tutorial: a blocked tile's 8 16-byte `st.shared` beside the mma
                # accumulator's 8 `stmatrix.x4` at one position)
                shares = _open_shares(stage, members, total, [_matrix_need(r, stage, width) for r in members])
                if shares is not None:
                    _settle(stage, form, members, shares)
            continue
        # bytes: one row's own instructions here move fewer bytes than its instructions in the stage before,
        # every other row's exactly as many, and the shared ones are exactly what that row lacks (an i8 dot
        # operand whose 8-byte LLIR reads became `ds_read2_b64`, beside an f32 operand's `ds_read_b32` that
        # match its LLIR one for one)
        lacking = _lacking_bytes(stage, members)
        if lacking is not None and lacking[1] == total * width:
            _settle(stage, form, members, [total if r is lacking[0] else 0 for r in members])
            continue
        open_rows = [r for r in members if not _has_every_vector(r, stage)]
        if len(open_rows) == 1 and len(members) > 1 and (_expected_width(open_rows[0]) or 0) >= width \
                and all(r.kind in _GLOBAL_KINDS for r in members):
            # (shared-memory traffic at a position is also the compiler's layout conversions: not for it)
            _settle(stage, form, members, [total if r is open_rows[0] else 0 for r in members])
            continue
        # a load rematerialized in several layouts of one vector width (vLLM's slices of one tile along
        # either dimension): when the vectors each row's layout needs add up to the instructions, each row
        # takes its own number
        if open_rows and all(_expected_width(r) == width for r in open_rows) and \
                all(_has_every_vector(r, stage) for r in members if r not in open_rows):
            need = [(r.predicted_vectors_per_thread or 0) * r.instances - _own_vectors(r, stage)
                    if r in open_rows else 0 for r in members]
            if all(n > 0 for n, r in zip(need, members, strict=True) if r in open_rows) and sum(need) == total:
                _settle(stage, form, members, need)
                continue
        # copies of an unrolled access (`tl.static_range` over `o_ptr + i * stride + offs`) in layouts of other
        # widths, the coalesce pass giving each the alignment it proves (copy 1: 2-byte stores, copy 2 with
        # `2 * stride`: 4-byte ones): the instructions of a width go to the open rows whose layout predicts
        # that width, when the vectors they lack add up to them (helper 126)
        if open_rows and all(r.kind in _GLOBAL_KINDS for r in members):
            fit = [r for r in open_rows if _expected_width(r) == width]
            if fit and len(fit) < len(open_rows):
                need = [(r.predicted_vectors_per_thread or 0) * r.instances - _own_vectors(r, stage)
                        if r in fit else 0 for r in members]
                if all(n > 0 for n, r in zip(need, members, strict=True) if r in fit) and sum(need) == total:
                    _settle(stage, form, members, need)
                    continue
        # copies whose every element is loaded by an instruction of its own (a gather, a runtime stride):
        # each row's elements, when they add up to the shared instructions and no row has others here
        # (or, where the compiler loaded each distinct address once, as ptxas does a replicated layout's
        # registers, each row its distinct elements: an Inductor reduction's 8x1 tile, 32 registers of 4
        # elements, and its 1-element copy: 4 + 1 LDGs)
        # A copy whose own instructions already hold every vector its layout needs takes none of them (an
        # Inductor reduction's 2x1 tile in three layouts: one `LDG.E.EL.64` of its own, and two `LDG.E.EL`
        # that are the other two copies' distinct elements, 1 + 1).
        if not all(r.kind in _GLOBAL_KINDS for r in members):
            continue
        for distinct in (False, True):
            shares = _open_shares(stage, members, total, [_element_need(r, stage, width, distinct) for r in members])
            if shares is not None:
                _settle(stage, form, members, shares)
                break
    _settle_matrix_forms(stage, rows)


def _settle_matrix_forms(stage: str, rows: list[AccessRow]) -> None:
    """Dot operands of one position sharing matrix instructions of several forms (`ldmatrix .x4` and `.x2`)
    that no one form's count settles: whole forms to each row, where exactly one way gives every row its
    registers' bytes, or else its distinct elements' (a layout that repeats values in registers: AutoAWQ's
    1x128 f16 scales, 32 registers of 4 values a thread, read by one `.x2` beside the weights' 8 `.x4`)."""
    groups: dict[tuple[int, ...], tuple[list[AccessRow], list[str]]] = {}
    for form, members in _ambiguous_groups(stage, rows):
        if family(form) == "matrix":
            groups.setdefault(tuple(id(r) for r in members), (members, []))[1].append(form)
    for members, forms in groups.values():
        widths = [members[0].widths.get(stage, {}).get(f) for f in forms]
        if not 1 < len(forms) <= 4 or len(members) > 4 or None in widths or not all(
                r.kind in _COUNTED_KINDS and r.line and r.where == members[0].where and not r.stages.get(stage)
                and r.elements_per_thread and r.element_bits and not r.element_bits % 8 for r in members):
            continue
        totals = [members[0].ambiguous[stage][f] for f in forms]
        for distinct in (False, True):
            needs = [(r.distinct_per_thread if distinct else r.elements_per_thread) * r.element_bits // 8
                     * r.instances if (r.distinct_per_thread or not distinct) else None for r in members]
            if None in needs:
                continue
            fits = [owners for owners in itertools.product(range(len(members)), repeat=len(forms))
                    if all(sum(t * w for t, w, o in zip(totals, widths, owners, strict=True) if o == i) == need
                           for i, need in enumerate(needs))]
            if len(fits) == 1:
                for form, total, owner in zip(forms, totals, fits[0], strict=True):
                    _settle(stage, form, members, [total if i == owner else 0 for i in range(len(members))])
                break


def _open_shares(stage: str, members: list[AccessRow], total: int, needs: list[int | None]) -> list[int] | None:
    """Each row's share of `total` instructions the rows hold in common: none for a row whose own ones
    already hold every vector of its layout, its need (`needs`, row by row) for the others; None unless some
    row is open, every open row has a need and the needs add up to `total`."""
    complete = [_has_every_vector(r, stage) for r in members]
    shares = [0 if done else n for n, done in zip(needs, complete, strict=True)]
    if all(complete) or not all(n or done for n, done in zip(shares, complete, strict=True)) or sum(shares) != total:
        return None
    return shares


def settle_by_family(stage: str, rows: list[AccessRow]) -> None:
    """Copies of one shared-memory access in several layouts, holding in common instructions of several
    families (plain `ld.shared` and `ldmatrix`): Triton lowers one `local_load` or `local_store` by one
    method, so each copy's instructions are all of one family. When no copy has instructions of its own and
    exactly one way of giving each copy one family's instructions moves each copy's bytes (its elements, all
    instances), each takes its family's (GPTQModel's `g_idx` kept in two slice layouts: 2 elements a
    thread in 4-byte `ld.shared`, 1 in `ldmatrix.x1`). Else, where exactly one way of giving each form
    wholly to one copy does, each takes its forms (triton_kernels' MXFP4 matmul on Hopper: the packed
    weight tile read in two layouts at one position, 128 bytes a thread as 128 `ld.shared.b8` and 32 as
    8 `ld.shared.b32`, which LLVM combined from 32 byte loads)."""
    groups: dict[tuple, list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        if r.ambiguous.get(stage) and r.kind in ("shared_load", "shared_store") and r.line:
            groups[(r.file, r.line, r.col, r.written)].append(r)
    for members in groups.values():
        totals = dict(members[0].ambiguous[stage])  # (every copy was chosen for every one of them)
        if len(members) < 2 or any(r.stages.get(stage) or r.ambiguous[stage] != totals for r in members):
            continue
        forms = sorted(totals)
        widths = members[0].widths.get(stage, {})
        need = [r.elements_per_thread * r.element_bits // 8 * r.instances
                if r.elements_per_thread and r.element_bits and r.element_bits % 8 == 0 else None for r in members]
        if None in need or any(widths.get(f) is None for f in forms):
            continue
        families: dict[str, list[str]] = collections.defaultdict(list)
        for f in forms:
            families[family(f)].append(f)
        moved = {fam: sum(totals[f] * widths[f] for f in fs) for fam, fs in families.items()}
        fits = [[families[fam] for fam in p] for p in itertools.permutations(families)
                if all(moved[fam] == n for fam, n in zip(p, need, strict=True))] \
            if len(families) == len(members) else []
        if len(fits) != 1 and len(members) ** len(forms) <= 4096:
            fits = []
            for owner in itertools.product(range(len(members)), repeat=len(forms)):
                given = [[f for f, o in zip(forms, owner, strict=True) if o == i] for i in range(len(members))]
                if all(given) and all(sum(totals[f] * widths[f] for f in fs) == n
                                      for fs, n in zip(given, need, strict=True)):
                    fits.append(given)
        if len(fits) != 1:
            continue
        for r, given in zip(members, fits[0], strict=True):
            del r.ambiguous[stage]
            for f in given:
                r.stages.setdefault(stage, {})[f] = totals[f]
            if not r.ambiguous:
                r.ambiguous_with = []


def _lacking_bytes(stage: str, rows: list[AccessRow]) -> tuple[AccessRow, int] | None:
    """(the row, how many bytes a thread it lacks) where exactly one of the rows has fewer bytes of its own
    in `stage` than in the stage before and every other has exactly as many; None otherwise."""
    before = PREVIOUS.get(stage)
    if before is None:
        return None
    lacking = []
    for r in rows:
        had, own = r.stage_bytes(before), r.stage_bytes(stage)
        if had is None or own is None or own > had or (r.ambiguous.get(before)):
            return None
        if own < had:
            lacking.append((r, had - own))
    return lacking[0] if len(lacking) == 1 else None


def _element_need(row: AccessRow, stage: str, width: int, distinct: bool = False) -> int | None:
    """Instructions of `width` bytes the row needs when each moves one of its elements: its elements (or
    its distinct ones), all instances; None where `width` is no element of the row, or the row has
    instructions of its own here (then how many of its elements those cover is not known)."""
    if not row.elements_per_thread or not row.element_bits or row.element_bits != width * 8 or row.stages.get(stage):
        return None
    elements = row.distinct_per_thread if distinct else row.elements_per_thread
    return elements * row.instances if elements else None


def _matrix_need(row: AccessRow, stage: str, width: int) -> int | None:
    """How many matrix instructions of `width` bytes the row's registers take (all instances), for a row
    with no instruction of its own in `stage`: None otherwise or where that is not a whole number."""
    if not row.elements_per_thread or not row.element_bits or row.element_bits % 8 or row.stages.get(stage):
        return None  # (a row with instructions of its own here reads part of its registers otherwise)
    need = row.elements_per_thread * row.element_bits // 8 * row.instances
    return need // width if need % width == 0 else None


def _transposed(form: str) -> bool:
    return ".trans" in form or ".MT" in form  # ldmatrix/stmatrix `.trans`; SASS `LDSM.16.MT88`


def _other_transposition(row: AccessRow, stage: str, form: str) -> bool:
    """The row's own matrix instructions in `stage` are all of the other transposition than `form`."""
    own = [f for f in row.stages.get(stage, {}) if family(f) == "matrix"]
    return bool(own) and all(_transposed(f) != _transposed(form) for f in own)


_GLOBAL_KINDS = ("global_load", "global_store", "buffer_load", "buffer_store", "async_copy")
_COUNTED_KINDS = (*_GLOBAL_KINDS, "shared_load", "shared_store")


_LLVM_TYPES = {"f16": "half", "bf16": "bfloat", "f32": "float", "f64": "double", "i8": "i8", "i16": "i16",
               "i32": "i32", "i64": "i64"}


def settle_conversion_surplus(stage: str, rows: list[AccessRow], ttgir: Module, unattributed: list[dict]) -> None:
    """A shared-memory row that got, beside every vector its layout needs (of its predicted width), another
    form of its kind, where a layout conversion of the TTGIR stands at the row's position: that form is the
    conversion's (its round trip through shared memory: `ttg.convert_layout` and a `ttg.local_alloc` of one
    `tl.dot_scaled` operand, both at 46:9, the convert's 4 `st.shared.v4.b32` had gone to the 128
    `st.shared.b16` of the alloc), listed with the instructions of no access."""
    converts = {loc_key(op.loc) for op in ttgir.ops if op.op == "ttg.convert_layout" and op.loc is not None}
    if not converts:
        return
    for row in rows:
        forms = row.stages.get(stage, {})
        if row.kind not in ("shared_load", "shared_store") or len(forms) < 2 or not row.sites \
                or loc_key(row.sites[0].op.loc) not in converts:
            continue
        width = row.predicted_vector_bytes
        widths = row.widths.get(stage, {})
        need = (row.elements_per_thread or 0) * (row.element_bits // 8) * row.instances

        def moved(chosen, forms=forms, widths=widths) -> int:
            return sum(forms[f] * (widths.get(f) or 0) for f in chosen)

        if _has_every_vector(row, stage):
            others = [f for f in forms if widths.get(f) != width]
        elif stage == "llir":
            # (LLVM types its loads: those of another element type than the row's, where the row's own move
            # every byte of its registers)
            own_type = _LLVM_TYPES.get(row.dtype)
            mine = [f for f in forms if own_type and re.search(rf"\b{own_type}\b", f)]
            others = [f for f in forms if f not in mine] if mine and need and moved(mine) == need else []
        else:  # (untyped: the one set of its forms that moves every byte of the row's registers, if one)
            subsets = [c for k in range(1, len(forms)) for c in itertools.combinations(sorted(forms), k)
                       if moved(c) == need] if need and len(forms) <= 6 else []
            others = [f for f in forms if f not in subsets[0]] if len(subsets) == 1 else []
        if not others or any(family(f) != family(others[0]) for f in others):
            continue
        for form in others:
            n = forms.pop(form)
            unattributed.append({"stage": stage, "line": row.line, "col": row.col, "kind": row.kind, "form": form,
                                 "count": n, "bytes": row.widths.get(stage, {}).pop(form, None)})


def _has_every_vector(row: AccessRow, stage: str, without: str | None = None) -> bool:
    """The row's own instructions of its predicted width (the form `without` left out) number its predicted
    vectors (all instances)."""
    vectors = row.predicted_vectors_per_thread
    return bool(row.predicted_vector_bytes and vectors) and \
        _own_vectors(row, stage, without) == vectors * row.instances


def _own_vectors(row: AccessRow, stage: str, without: str | None = None) -> int:
    """The row's own (not shared) instructions of its predicted width (the form `without` left out)."""
    width = row.predicted_vector_bytes
    return sum(n for f, n in row.stages.get(stage, {}).items()
               if f != without and row.widths.get(stage, {}).get(f) == width)


def _ambiguous_groups(stage: str, rows: list[AccessRow]) -> list[tuple[str, list[AccessRow]]]:
    """(form, the rows of one line holding instructions of that form in common), per line and form."""
    groups: dict[tuple[int, str], list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        for form in r.ambiguous.get(stage, {}):
            groups[(r.line, form)].append(r)
    return [(form, members) for (_, form), members in groups.items()]


def _settle(stage: str, form: str, members: list[AccessRow], shares: list[int]) -> None:
    """Give each row its share of instructions of `form` the rows held in common: no longer ambiguous."""
    for r, n in zip(members, shares, strict=True):
        del r.ambiguous[stage][form]
        if not r.ambiguous[stage]:
            del r.ambiguous[stage]
        if n:
            r.stages.setdefault(stage, {})[form] = n
        if not r.ambiguous:
            r.ambiguous_with = []


_MEMDESC = re.compile(r"!ttg\.memdesc<[^>]*>")


def _lowering_key(row: AccessRow) -> tuple | None:
    """What a tensor memory access's lowering depends on: its kind, the register tensor's type and layout
    and the memdesc's type (tcgen05.ld/st are chosen from these alone, never from values)."""
    if not row.kind.startswith("tmem") or not row.sites:
        return None
    memdesc = [m.replace(", mutable", "") for m in _MEMDESC.findall(row.sites[0].op.text.split(" loc(")[0])]
    return (row.kind, row.shape, row.dtype, row.layout_text, tuple(memdesc[-1:]))


def share_identical(stage: str, rows: list[AccessRow]) -> None:
    """Tensor memory accesses of one position that share instructions get them shared out when the counts
    leave one way to do it: each instance moves its whole tile (elements per thread times their bytes),
    so a row takes instances x tile / width instructions when every tile is a multiple of the form's
    width and the shares add up to the total; else, rows whose lowering is the same (same kind, types and
    layouts: a `tmem_alloc %v` beside a `tmem_store` of one tile) take equal shares per instance when the
    total divides evenly. Otherwise the instructions stay ambiguous."""
    for form, members in _ambiguous_groups(stage, rows):
        if not all(r.kind.startswith("tmem") for r in members):
            continue
        total = members[0].ambiguous[stage][form]
        width = members[0].widths.get(stage, {}).get(form)
        tiles = [_expected_width(r) for r in members]
        if all(r.kind == "tmem_copy" for r in members):  # (a copy is issued for the whole tile, by the CTA)
            width = _tcgen05_cp_bytes(form)
            tiles = [_tile_bytes(r) for r in members]
        shares = None
        if width and all(tiles) and all(t % width == 0 for t in tiles):
            shares = [r.instances * t // width for r, t in zip(members, tiles, strict=True)]
        if shares is None or sum(shares) != total:
            keys = {_lowering_key(r) for r in members}
            instances = sum(r.instances for r in members)
            if len(keys) != 1 or None in keys or total % instances:
                continue
            shares = [r.instances * total // instances for r in members]
        _settle(stage, form, members, shares)


def settle_tma_by_copies(stage: str, rows: list[AccessRow]) -> None:
    """TMA copies of one position sharing their bulk-copy instructions: every copy issues at least one, so
    when the rows' copies (instances) number exactly the shared instructions, each copy issued one and each
    row takes its instances (Triton's descriptor-persistent matmul tutorial on an H100: after pipelining,
    the A tile's two copies and the B tile's one all at the kernel's `def`, 3 `cp.async.bulk.tensor`)."""
    for form, members in _ambiguous_groups(stage, rows):
        if len(members) < 2 or not all(r.kind in ("tma_load", "tma_store") for r in members):
            continue
        if sum(r.instances for r in members) == members[0].ambiguous[stage][form]:
            _settle(stage, form, members, [r.instances for r in members])


def settle_tensor_memory_surplus(stage: str, rows: list[AccessRow]) -> None:
    """Tensor memory accesses of one position and kind where the join gave every instruction of one form to
    one row (the only one whose whole tile that width moves) while the others, tiles a multiple of that
    width, got none: the holder keeps instances x tile / width, each other row takes its own so many, when
    that accounts for every instruction (Triton's fused-attention tutorial for cuda:100: the rescaled f32
    accumulator, 128x64 in two copies, and the f16 P tile stored at one inlined position, five
    `tcgen05.st...32x32b.x32`: 2 + 2 and 1)."""
    for holder, lacking in _one_holder(stage, rows, ("tmem_load", "tmem_store")):
        if len(holder.stages[stage]) != 1:
            continue
        (form, have), = holder.stages[stage].items()
        width, tile = holder.widths.get(stage, {}).get(form), _expected_width(holder)
        if not width or not tile or tile % width:
            continue
        needs = [r.instances * t // width if (t := _expected_width(r)) and t % width == 0 else 0 for r in lacking]
        own = holder.instances * tile // width
        if not all(needs) or own + sum(needs) != have:
            continue
        holder.stages[stage][form] = own
        for r, n in zip(lacking, needs, strict=True):
            r.stages[stage] = {form: n}
            r.widths.setdefault(stage, {})[form] = width


# The shared-memory bytes one tcgen05.cp reads: its shape's rows x bits (PTX `.32x128b.warpx4`, SASS
# `UTCCP.T.S.4x32dp128bit`: 32 rows of 128 bits, multicast to the four warps' lanes).
_CP_SHAPE = re.compile(r"\.(\d+)x(\d+)b(?:\.|$)|\.(?:\d+x)?(\d+)dp(\d+)bit\b")


def _tcgen05_cp_bytes(form: str) -> int | None:
    m = _CP_SHAPE.search(form)
    if m is None:
        return None
    rows, bits = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return int(rows) * int(bits) // 8


def _tile_bytes(row: AccessRow) -> int | None:
    return math.prod(row.shape) * row.element_bits // 8 if row.shape and row.element_bits else None


def mark_branch_guarded(llir: Module, rows: list[AccessRow]) -> None:
    """Count each row's LLIR accesses that sit in a block entered through a `br i1` at their own position (a
    mask lowered to a branch per access, as AMD's backend lowers masked loads and stores).

    Counted per location and instruction form, as the join matches them (the whole inlining chain where a
    row's is an instruction's, else the user's position): a position's other accesses (the shared-memory
    copy of a global load, a helper's other access inlined at one call) keep theirs; rows that hold one
    form in common (copies of an access in other layouts) each get the guarded ones that must be theirs,
    all of them where every instruction of the form is guarded."""
    guarded_lines: set[int] = set()
    branch_key = None  # the position of the `br i1` that entered the current block (None: another entry)
    kept = memops.accesses("llir", llir)
    for op, acc in zip(llir.ops, kept, strict=True):
        if op.op in LLIR_TERMINATORS:
            conditional = bool(LLIR_CONDITIONAL_BRANCH.match(op.text))
            branch_key = loc_key(op.loc) if conditional and op.loc is not None else None
            continue
        # a mask lowered to a branch: Triton gives the `br i1` the access's own position; a block of the
        # program's `if` (or a loop's) is entered by a branch at the condition's position instead
        if acc is not None and branch_key is not None and op.loc is not None and loc_key(op.loc) == branch_key:
            guarded_lines.add(op.lineno)
    if not guarded_lines:
        return
    row_keys = {loc_key(r.sites[0].op.loc) for r in rows if r.sites}
    guarded, accesses = collections.Counter(), collections.Counter()
    for op, acc in zip(llir.ops, kept, strict=True):
        if acc is None or op.loc is None:
            continue
        key = loc_key(op.loc)
        outer = op.loc.outermost()
        where = key if key in row_keys else (outer.line, outer.col)
        accesses[(where, acc.form)] += 1
        guarded[(where, acc.form)] += op.lineno in guarded_lines
    for r in rows:
        if not (r.kind.endswith("load") or r.kind.endswith("store")):
            continue
        key = loc_key(r.sites[0].op.loc) if r.sites else None
        total = 0
        for form, n in r.stages.get("llir", {}).items():
            where = key if (key, form) in accesses else (r.line, r.col)
            held = accesses[(where, form)]
            total += max(0, guarded[(where, form)] - (held - min(n, held)))
        r.llir_guarded = total
