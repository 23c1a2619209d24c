"""The verdict of one access row (widest final-ISA access vs the layout's prediction) and its reasons."""

from __future__ import annotations

from collections.abc import Callable

from tritonscope.lazyre import lazy_compile
from tritonscope.loads.model import AccessRow, Reason
from tritonscope.loads.sites import ValueGraph
from tritonscope.stages.memops import addresses

# Why a Triton kernel's access has a non-blocked layout (a Gluon kernel's is written: loads/gluon.py says where)
PROPAGATED = (": the access takes the layout its result's uses need, propagated by the compiler's layout passes; "
              "the coalesce pass picks blocked layouts only")


def decide(row: AccessRow, final: str | None, graph: ValueGraph, no_isa: str | None = None,
           cut: bool = False) -> None:
    """`no_isa`: why no ISA stage is there to decide by, where not for want of one; `cut`: the final stage's
    text looks cut short (what it lacks may be past the cut)."""
    stage = final if final and (row.stages.get(final) or row.ambiguous.get(final)) else None
    if stage is None and final == "sass":
        # SASS lines can fold several accesses; fall back to the PTX Triton wrote.
        stage = "ptx" if row.stages.get("ptx") or row.ambiguous.get("ptx") else None
    if stage is None:
        row.verdict = "unknown"
        row.attribution = "none" if not row.stages else row.attribution
        if final is None:
            row.reasons = [Reason("no-isa", no_isa or "this entry has no PTX/SASS/AMDGCN (a partial or failed "
                                                      "compile)")]
        else:
            why = f"its {final.upper()} looks cut short: see its note" if cut else \
                "removed, merged, or located elsewhere"
            row.reasons = [Reason("no-isa-match", f"no {final} memory instruction was attributed to "
                                                  f"{row.line}:{row.col} ({why})")]
        return
    forms = row.stages.get(stage) or row.ambiguous.get(stage, {})
    # (an access is one address's: `ds_write2st64_b64` moves two 8-byte values at two addresses, 8 each)
    widths = [row.widths[stage][f] // addresses(f) for f in forms if row.widths.get(stage, {}).get(f) is not None]
    row.vector_stage = stage
    if row.kind in ("tma_load", "tma_store", "mma_shared", "tmem_copy") and \
            any(row.widths[stage].get(f) is None for f in forms):
        row.verdict = "as-predicted"
        return
    if row.kind in ("tmem_load", "tmem_store"):  # whole registers per lane: joined is all there is to check
        if not widths and stage == "sass":  # `LDTM.16dp32bit_t0_t15.x32` states no width: PTX's form does
            ptx = row.stages.get("ptx") or row.ambiguous.get("ptx", {})
            widths = [row.widths["ptx"][f] for f in ptx if row.widths.get("ptx", {}).get(f) is not None]
            row.vector_stage = "ptx" if widths else stage
        row.vector_bytes = max(widths) if widths else None
        row.verdict = "as-predicted"
        return
    if not widths:
        row.verdict = "unknown"
        row.reasons = [Reason("no-width", f"the {stage} forms {sorted(forms)} do not state a width")]
        return
    row.vector_bytes = max(widths)
    cas = _cas_loop(row, stage, forms) if row.kind == "atomic" else None
    if cas is not None:
        # a compare-and-swap of a word holding less of the row's data (sm_80's bf16 add: a 16-bit half of a
        # `cas.b32`, the rest masked): the bytes it updates are the LLIR atomic's
        rmw = [w for f, w in row.widths.get("llir", {}).items() if w and _rmw_name(f)]
        row.vector_bytes = min(row.vector_bytes, max(rmw)) if rmw else row.vector_bytes
    elements = row.vector_bytes // row.element_bytes
    predicted = row.predicted_vector_bytes
    # (an access of one element a thread, 0-d or not, whose instruction is wider carries another's element too)
    if elements <= 1 or not row.shape or row.distinct_per_thread == 1:
        row.verdict = "scalar"
    elif predicted is not None and row.vector_bytes < predicted:
        row.verdict = "narrower"
    elif predicted is None:  # (a layout not decoded: nothing to hold the instruction against)
        row.verdict = "unknown"
        row.reasons = [_no_prediction(row)]
        return
    else:
        row.verdict = "as-predicted"
    if row.verdict != "as-predicted":
        row.reasons = reasons(row, graph)
    elif predicted and (uneven := _narrower_copies(row, stage, forms, predicted)):
        # copies of the access not alike (an unrolled `tl.static_range` whose copy i adds `i * stride`): the
        # widest is as predicted, the others are not, and why is the same question as for a narrower row
        row.reasons = [uneven, *reasons(row, graph, narrower=True)]
    elif predicted and row.vector_bytes > predicted and row.kind == "shared_load" and \
            (transposing := _transposing(forms)):
        # wider than the layout allows, which the table showed with no word (8/2 as-predicted): said
        row.reasons = [Reason("transposed-read", f"{', '.join(transposing)}: an LDS read that transposes between "
                              f"lanes as it loads reads the operand across its contiguous dimension in shared "
                              f"memory, {row.vector_bytes} bytes a lane where the layout's contiguity allows "
                              f"{predicted}")]
    elif predicted and row.vector_bytes > predicted and row.kind == "shared_load" and \
            (matrix := sorted(f for f in forms if _MATRIX_LOAD.match(f))):
        # (NVIDIA's `ldmatrix`/`LDSM`: wider than the layout's contiguity, which the table showed with no word)
        trans = any(".trans" in f or ".MT" in f for f in matrix)
        row.reasons = [Reason("matrix-load", f"{', '.join(matrix)}: a matrix load: the lanes address the 16-byte "
                              f"rows of 8x8 matrices in shared memory{' and read them transposed' if trans else ''},"
                              f" each receiving its fragment of every matrix: {row.vector_bytes} bytes a lane where "
                              f"the layout's contiguity allows {predicted}")]
    before = {"sass": "ptx", "ptx": "llir", "amdgcn": "llir"}.get(stage)
    if row.vector_bytes < row.element_bytes and before and row.kind.endswith("load"):
        held = row.stages.get(before) or row.ambiguous.get(before, {})
        was = [w for f, w in row.widths.get(before, {}).items() if w and f in held]
        if was and max(was) >= row.element_bytes:
            row.reasons.insert(0, Reason(
                "partial-element", f"{stage} reads {row.vector_bytes} of each {row.dtype} element's "
                f"{row.element_bytes} bytes ({before} read {max(was)}): the backend dropped the bytes no use of "
                f"the value needs (e.g. the high half of an i64 converted to i32)"))
    if cas is not None:
        row.reasons.append(cas)


_MATRIX_LOAD = lazy_compile(r"ldmatrix\.|LDSM\.")
_CAS = lazy_compile(r"cmpswap|\.cas\b|\.CAS\b")


def _cas_loop(row: AccessRow, stage: str, forms) -> Reason | None:
    """An atomic read-modify-write (LLIR `atomicrmw fadd <2 x bfloat>`) that the final stage does by compare-
    and-swap: the backend expanded it into a loop, where the target has no such atomic (Liger's embedding
    backward, a bf16 `tl.atomic_add`, on gfx90a: `global_atomic_cmpswap`; gfx942 has
    `global_atomic_pk_add_bf16`) or where LLVM does not use the one it has for that memory (gfx90a's f32 add
    and integer max, which gfx942 does natively from the same LLIR). In part, too: gfx942 adds a bf16 pair of
    neighbouring lanes natively and loops for the lanes it cannot pair (`atomicrmw fadd bfloat` twice beside
    `<2 x bfloat>` once), and that is said with the forms' counts."""
    llir = row.stages.get("llir") or row.ambiguous.get("llir", {})
    rmw = sorted({_rmw_name(f) for f in llir if _rmw_name(f)})
    cas = sorted(f for f in forms if _CAS.search(f))
    if not rmw or len(rmw) != len(llir) or not cas:  # (a `cmpxchg` in LLIR is the kernel's own `tl.atomic_cas`)
        return None
    native = sorted(f for f in forms if f not in cas)
    if native:
        counts = forms if isinstance(forms, dict) else {}

        def listed(names):
            return ", ".join(f"{f} x{counts[f]}" if counts.get(f) else f for f in names)

        return Reason("cas-loop", f"the backend made part of the `{', '.join(rmw)}` atomic a compare-and-swap loop "
                                  f"in {stage} ({listed(cas)}, beside {listed(native)}, which it does natively: "
                                  "the loop takes what the native instruction cannot, e.g. an element it cannot "
                                  "pair with a neighbour's): it reads the old value, then retries the swap until "
                                  "no other thread changed it in between; each retry is another round trip to "
                                  "memory under contention")
    return Reason("cas-loop", f"the backend made the `{', '.join(rmw)}` atomic a compare-and-swap loop in {stage} "
                              f"({', '.join(cas)}; the target has no such atomic, or the backend does not "
                              "use it for this memory): it reads the old value, then retries the swap until no "
                              "other thread changed it in between; each retry is another round trip to memory "
                              "under contention")


def _rmw_name(form: str) -> str | None:
    """An LLIR read-modify-write atomic form, as named in a reason: `atomicrmw fadd <2 x bfloat>` as
    `fadd <2 x bfloat>`; NVIDIA's inline asm (`red.global.gpu.relaxed.add.noftz.bf16`, `atom.global.add.f32`)
    as it is. None for anything else (a `cmpxchg`, an inline `atom...cas`: the kernel's own compare-and-swap)."""
    if form.startswith("atomicrmw "):
        parts = form.split(None, 2)
        return f"{parts[1]} {parts[2]}" if len(parts) > 2 else None
    if form.startswith(("red.", "atom.")) and not _CAS.search(form):
        return form
    return None


# the prediction note of an AMD atomic (analyze._predict): no ISA of theirs has a vector atomic
AMD_ATOMICS = "AMD GPUs have no vector atomics"


def _narrower_copies(row: AccessRow, stage: str, forms, predicted: int) -> Reason | None:
    """Copies of one access (`instances` > 1) whose final instructions are not alike: beside the widest, as wide
    as predicted, some narrower than the layout allows (helper 116: `tl.static_range(4)` over
    `x_ptr + i * stride + offs`, f16: 1 `ld.global.v2.b32`, 2 `ld.global.b32`, 8 `ld.global.b16`). The verdict
    is the widest's; this says the rest."""
    if row.instances < 2 or row.kind.startswith(("shared", "tmem")) or row.kind in ("mma_shared", "tma_load",
                                                                                   "tma_store", "tmem_copy"):
        return None
    counts = forms if isinstance(forms, dict) else {}
    widths = row.widths.get(stage, {})
    narrow = {f: n for f, n in counts.items() if widths.get(f) and widths[f] // addresses(f) < predicted}
    if not narrow or len(narrow) == len(counts):
        return None
    wide = {f: n for f, n in counts.items() if f not in narrow}
    listed = ", ".join(f"{n}x {f} ({widths[f] // addresses(f)} B)" for f, n in sorted(narrow.items()))
    return Reason("narrower-copies", f"its {row.instances} copies ({row.copies or 'copies'}) are not alike: beside "
                                     f"{', '.join(f'{n}x {f}' for f, n in sorted(wide.items()))} (as wide as "
                                     f"predicted, or wider), {stage} has {sum(narrow.values())} narrower instructions: "
                                     f"{listed}; the verdict is the widest's")


def reasons(row: AccessRow, graph: ValueGraph, narrower: bool = False) -> list[Reason]:
    """Why an access is narrower than a 16-byte vector, most basic cause first, each with its evidence.
    `narrower`: some of its instructions are narrower than the layout allows, though not the widest (copies
    not alike: `_narrower_copies`)."""
    out: list[Reason] = []
    site = row.sites[0]
    if row.kind == "atomic" and row.prediction_note and row.prediction_note.startswith(AMD_ATOMICS):
        return [Reason("atomic-width", row.prediction_note)]  # (the ISA has no wider one: nothing else to say)
    predicted = row.predicted_vector_bytes
    narrower_than_layout = predicted is not None and row.vector_bytes is not None and \
        (row.vector_bytes < predicted or narrower)
    layout_is_scalar = bool(row.shape) and row.contiguous_per_thread == 1
    kind = getattr(site.layout, "kind", None)
    # the alignment a wider access needs: what the layout allows, else a full 16-byte vector
    need = predicted if narrower_than_layout else 16
    # an argument matters only if some term it adds to the address is not a multiple of `need` bytes
    # (`pid_m * 64` keeps 64-element steps whatever EM, in pid_m, is); one reached only through a
    # loaded value ("multiple" absent) does not decide the address's alignment: the loaded data does
    missing = [a for a in row.alignment if "type" in a and "tt.divisibility" not in a and "multiple" in a
               and (a["multiple"] * row.element_bytes) % need] if row.shape else []  # (0-d: one element)
    compiler = [a for a in row.alignment if a.get("attr") == "contiguity"]
    # a shared-memory access's operand is a buffer (or, for local_alloc, the data stored): the compiler's own
    # allocation decides its alignment, not the kernel's arguments, and loaded data is no gather
    in_shared = site.kind.startswith("shared")
    # a tensor 1 element wide along the layout's fastest dim (a 1x256 row whose order names dim 0): its
    # elements run along the one dim longer than 1, if exactly one is
    fastest = row.fastest_dim
    one_wide = bool(row.shape) and fastest is not None and fastest < len(row.shape) and row.shape[fastest] == 1
    long = [i for i, n in enumerate(row.shape) if n > 1] if one_wide else []
    wide = long[0] if len(long) == 1 else None
    step = None  # how the address steps along the dim the elements run along (below)
    constant_along = False
    total = 1
    for n in row.shape:
        total *= n
    # (a cluster's CTA (num_ctas > 1) holds its part of the tensor over its own threads)
    threads = (row.threads or 0) // row.ctas
    if row.ctas > 1 and row.cta_elements:
        total = row.cta_elements
    one_each = bool(layout_is_scalar and row.elements_per_thread == 1 and threads and total <= threads)
    if in_shared:
        missing = []
    dim = row.fastest_dim if wide is None else wide
    if row.shape and row.fastest_dim is not None and site.address and not in_shared and dim is not None:
        # the layout's fastest dim, or, where the tensor is 1 element wide along it, the one dim its
        # elements run along (a 1x256 tile whose order names dim 0: how dim 1 steps decides); a loaded
        # value that does not vary along it (a row's index broadcast along the row) leaves it readable
        steps = graph.steps(site.address, len(row.shape))
        step = _step(steps.get(dim, []))
        # (no term varies along it, all followed: a splat of one pointer, `tl.zeros` offsets, a stride of 0)
        constant_along = row.shape[dim] > 1 and not one_each and (
            step is not None and step[0] == 0 or step is None and dim not in steps)
    gathered = row.gather and row.shape and not in_shared
    lines = ", ".join(sorted({f"{op} at line {line}" if line else op for line, op, _ in row.gather}))
    # (values loaded once for the whole tensor, a ragged sequence's start, are the same for every element)
    once = all(uniform for _, _, uniform in row.gather)
    if gathered and (step is None or (step[2] == 1 and not step[1] and step[0] <= 1)):
        if once and step is not None and step[0] == 1:
            out.append(Reason("gather", f"the address adds values loaded once for the whole tensor ({lines}): each "
                                        f"run along dim {dim} is contiguous, but where it starts is read from "
                                        "memory, so no alignment can be proven for it"))
        elif once:
            out.append(Reason("gather", f"the address is computed from values loaded once for the whole tensor "
                                        f"({lines}): no alignment can be proven for where it starts (how the "
                                        f"address steps along dim {dim} is not followed here)"))
        elif step is not None and step[0] == 1:  # (the loaded values are the same along the dim: a row gather)
            out.append(Reason("gather", f"the address adds loaded values ({lines}) that are the same "
                                        f"along dim {dim}: each run along it is contiguous, but where it starts "
                                        "is read from memory, so no alignment can be proven for it (a row "
                                        "gather: rows of a table picked by loaded indices)"))
        else:
            out.append(Reason("gather", f"the address is computed from loaded values ({lines}): "
                                        "no contiguity or alignment can be proven for it"))
    elif row.shape and row.fastest_dim is not None and site.address and not in_shared:
        divisors = _runtime_divisors(step[1]) if step is not None else []
        strides = sorted(f for f in step[1] if not f.startswith("/")) if step is not None else []
        if constant_along:
            out.append(Reason("repeated-address",
                              f"the address does not vary along dim {dim}: every element a thread holds along it "
                              "reads one address (one value for the whole run: a splat of one pointer, zero "
                              "offsets, a stride of 0), which no vector covers"))
        elif step is not None and step[2] > 1:
            out.append(Reason("repeated-address",
                              f"along dim {dim} the index is divided by {step[2]}: each run of {step[2]} "
                              "consecutive elements reads one address (a per-block scale or bias), which no "
                              "vector covers"))
        elif divisors:
            out.append(Reason("repeated-address",
                              f"along dim {dim} the index is divided by {' and by '.join(divisors)}, known only at "
                              "run time: each run of that many consecutive elements reads one address (a "
                              "per-block scale), which no vector covers"))
        elif strides and any(f.startswith("@") for f in strides):  # (a stride read from memory)
            loaded = sorted(f[1:] for f in strides if f.startswith("@"))
            out.append(Reason("runtime-stride",
                              f"along dim {dim} the address steps by a value loaded from memory ({', '.join(loaded)})"
                              " per element: consecutive elements are not known to be adjacent (no launch argument "
                              "is its value: nothing can specialize it)"))
        elif strides:
            out.append(Reason("runtime-stride",
                              f"along dim {dim} the address steps by {' * '.join(strides)}"
                              + (f" * {step[0]}" if step[0] > 1 else "") + " per element, a runtime value: "
                              "consecutive elements are not known to be adjacent (a JIT launch passing 1 gets it "
                              "specialized to the constant 1, unless the argument is in do_not_specialize)"))
        elif step is not None and step[0] > 1:
            out.append(Reason("strided", f"along dim {dim} consecutive elements are {step[0]} elements "
                                         f"({step[0] * row.element_bytes} bytes) apart in memory (the index is "
                                         f"scaled by {step[0]}): no two of them form a vector"))
    if any(r.code in ("strided", "runtime-stride", "repeated-address") for r in out):
        missing = []  # no alignment would make adjacent elements of these one vector: not a cause
    if one_wide:
        missing = []  # one element along the contiguous dim: no vector to align
    if one_each:
        missing = []  # one element a thread: no vector to align, whatever the alignment (one-per-thread says it)
    if missing:
        names = ", ".join(f"{a['value']} ({a['type']})" for a in missing)
        consequence = ("; the coalesce pass therefore gave the layout 1 contiguous element per thread"
                       if layout_is_scalar and kind == "blocked" and not row.gather
                       and not getattr(graph, "layouts_written", False)  # (Gluon's layouts are written)
                       else f": the compiler cannot prove {need}-byte alignment")
        out.append(Reason("unknown-alignment", f"no tt.divisibility on {names}, used in the address{consequence}"))
    elif narrower_than_layout and compiler and compiler[0]["n"] * row.element_bytes < (predicted or 0):
        out.append(Reason("unknown-alignment",
                          f"the compiler's own contiguity = {compiler[0]['n']} on {site.op.op} "
                          f"({compiler[0]['n'] * row.element_bytes} bytes)"))
    if one_each:
        # (fewer warps help only a tensor larger than one warp: a smaller one leaves lanes empty anyway)
        fewer = "a larger tile, or fewer warps," if total > (row.warp_size or 0) else "only a larger tile"
        held = (f"the {total}-element tensor over {threads} threads" if row.ctas == 1 else
                f"the {total}-element part of the tensor each of the {row.ctas} CTAs holds, over its {threads} "
                "threads,")
        if getattr(graph, "layouts_written", False) and total > 1:  # (Gluon: a layout may replicate it, wider)
            out.append(Reason("one-per-thread", f"{held} leaves each thread one element with the layout written: a "
                                                "layout with fewer threads along the tensor (replicating it over "
                                                "the others), or a larger tile, would give each thread several"))
        else:
            out.append(Reason("one-per-thread", f"{held} leaves each thread one element: no vector is possible "
                                                f"({fewer} would give each thread several)"))
    if layout_is_scalar and row.elements_per_thread:
        spt = getattr(site.layout, "size_per_thread", None)
        detail = f"sizePerThread={list(spt)}, " if spt else ""
        article = "an" if kind and kind[:1] in "aeiou" else "a"
        origin = "" if kind in (None, "blocked") else f" ({article} {kind} layout{PROPAGATED})"
        narrow = ""
        if one_wide and total > 1:
            shape = "x".join(map(str, row.shape))
            adjacent = wide is not None and step == (1, frozenset(), 1)  # (step was read along `wide`)
            narrow = f", where the {shape} tensor is 1 element wide" + (
                f" (its elements run along dim {wide}{', adjacent in memory' if adjacent else ''})"
                if wide is not None else "")
        out.append(Reason("layout-contiguity-1",
                          f"#{row.layout} ({detail}order[0]={row.fastest_dim}) gives each thread 1 contiguous "
                          f"element along dim {row.fastest_dim}{narrow}: {row.element_bytes}-byte accesses at "
                          f"most{origin}"))
    if getattr(site.shared_layout, "unknown", ""):  # (nothing known of it: no cause to give)
        out.append(_no_prediction(row))
    elif row.prediction_note and row.kind.startswith("shared") and site.shared_layout is not None:
        out.append(Reason("shared-layout", row.prediction_note))
    if not row.shape:
        out.append(Reason("scalar-access", "a scalar (0-d) access moves one element by definition"))
    if narrower_than_layout:
        vector = (row.predicted_vector_bytes or 0) // max(1, row.element_bytes or 1)
        run = graph.mask_run(site.mask, row.fastest_dim) if site.mask and row.fastest_dim is not None else None
        if site.mask and row.fastest_dim is not None and graph.varies_along(site.mask, row.fastest_dim) and \
                not (run and vector and run % vector == 0):  # (one bit per vector: the mask splits none)
            along = graph.mask_bounds(site.mask, row.fastest_dim)  # (the bounds of that dim's comparison)
            _, mask_args = graph.slice(along if along else [site.mask])
            bounds = [a for a in mask_args if not a.type.startswith("!tt.ptr") and "tt.divisibility" not in a.attrs]
            bound_text = ""
            if bounds:
                names = ", ".join(f"{a.name} ({a.type})" for a in bounds)
                bound_text = f"; its bound {names} has no tt.divisibility, so no group of elements shares a mask bit"
            out.append(Reason("mask-on-contiguous-dim",
                              f"mask {site.mask.split('@')[0]} varies along dim {row.fastest_dim}, the contiguous dim: "
                              f"each element may be masked separately{bound_text}"))
        n_llir = sum(row.counts("llir").values())
        llir_widths = [w for w in row.widths.get("llir", {}).values() if w]
        # (where the address explains the width, each access in its own block is how it was lowered, no cause)
        explained = any(r.code in ("repeated-address", "strided", "runtime-stride", "gather") for r in out)
        if row.llir_guarded * 2 >= n_llir > 0 and llir_widths and max(llir_widths) < predicted and not explained:
            out.append(Reason("branch", f"{row.llir_guarded} of {n_llir} LLIR accesses sit in their own block "
                                        f"behind `br i1`, {max(llir_widths)} bytes each (a mask lowered to "
                                        f"branches, one per access)"))
    transposing = _transposing(row.counts(row.vector_stage or "")) \
        if narrower_than_layout and in_shared else []
    if transposing:
        out.append(Reason("transposed-read",
                          f"{', '.join(transposing)}: an LDS read that transposes between lanes as it loads, "
                          f"{row.vector_bytes} bytes per lane at most by design: the compiler reads the dot "
                          f"operand across its contiguous dimension in shared memory with it"))
    if row.dtype in ("i1",) or row.dtype.startswith("!tt.ptr") or (0 < row.element_bits < 8):
        out.append(Reason("dtype", f"element type {row.dtype} ({row.element_bits} bits) limits the vector"))
    if narrower_than_layout and not in_shared and not any(
            r.code in ("strided", "runtime-stride", "repeated-address", "gather") for r in out):
        const = graph.constant_offset(site)
        if const and (const * row.element_bytes) % need:
            out.append(Reason("misaligned-offset",
                              f"the address adds {const} element{'s' if abs(const) != 1 else ''} "
                              f"({const * row.element_bytes} bytes), not a multiple of {need}: every vector "
                              f"it would read starts off a {need}-byte boundary"))
    if narrower_than_layout and not any(r.code not in ("layout-contiguity-1", "shared-layout") for r in out):
        out.append(Reason("unexplained", "nothing in TTGIR explains it; compare the LLIR forms"))
    return out


def _step(terms: list) -> tuple[int, frozenset, int] | None:
    """(constant factor, runtime factors, divisor) by which the address moves from one element to the next
    along a dim (`terms`: `ValueGraph.steps` along it), when every term that varies along it says the same;
    None when unknown or nothing varies."""
    if not terms or None in terms or len(set(terms)) != 1:
        return None
    return terms[0]


def _runtime_divisors(factors: frozenset) -> list[str]:
    """The runtime values a step's index is divided by (`ValueGraph.steps` names them "/group_n")."""
    return sorted(f[1:] for f in factors if f.startswith("/"))


def repeating_dims(row: AccessRow, graph: ValueGraph) -> str | None:
    """Where a global access's address is the same for several of a thread's elements along a dim other than
    the contiguous one (it does not vary along it, or its index is divided there), in words; None when every
    dim's step is unknown or moves. (Loads of equal addresses LLVM may merge into one.)"""
    site = row.sites[0]
    if not row.shape or site.kind.startswith("shared") or not site.address or row.fastest_dim is None:
        return None
    steps = graph.steps(site.address, len(row.shape))
    if any(None in terms for terms in steps.values()):
        return None  # (a term this reading does not follow: nothing can be said of any dim)
    out = []
    for dim, n in enumerate(row.shape):
        if dim == row.fastest_dim or n == 1:
            continue
        terms = steps.get(dim, [])
        if not terms:
            out.append(f"does not vary along dim {dim}")
        elif len(set(terms)) == 1 and terms[0][2] > 1:
            out.append(f"is divided by {terms[0][2]} along dim {dim}, of {n} elements")
        elif len(set(terms)) == 1 and (divisors := _runtime_divisors(terms[0][1])):
            out.append(f"is divided by {' and by '.join(divisors)} along dim {dim}, of {n} elements")
    return f"the address {' and '.join(out)}" if out else None


def _transposing(forms) -> list[str]:
    """The forms that are transposing LDS reads (AMDGCN `ds_read_b64_tr_b16`, LLIR `ds.read.tr16.b64`)."""
    return sorted(f for f in forms if "_tr_" in f or f.endswith("_tr") or "read.tr" in f)


def _no_prediction(row: AccessRow) -> Reason:
    return Reason("no-prediction", f"no width predicted ({row.prediction_note or 'no layout'})")


def _paired(row: AccessRow, after: str, n: int) -> list[str]:
    """The two-address forms of the row's `after` instructions where, each counted as its two accesses, they
    are exactly `before`'s (AMDGPU's load/store optimizer: `ds_write2st64_b64` for two 8-byte stores; some
    paired, the others left one a piece); none where they are not."""
    counts = row.counts(after)
    pairs = [f for f in counts if addresses(f) == 2]
    return sorted(pairs) if pairs and n == sum(c * addresses(f) for f, c in counts.items()) else []


def explain_counts(row: AccessRow, stages: list[str], trips: int | None = None,
                   copied_loop: str | None = None, in_runtime_loop: bool = False,
                   repeats: Callable[[], str | None] | None = None) -> None:
    """Why consecutive stages hold different numbers of the row's instructions (per thread, static), and
    why LLIR holds more than the layout's vectors (`unrolled`: a constant-bound loop LLVM unrolled).

    Fewer: `merged-identical-address` when the PTX instructions read fewer distinct addresses than
    they are (ptxas issues one load per address: the rows of a packed-int4 tile read the same word),
    else `merged` (LLVM or ptxas combined or removed some). More: `unrolled` when the access runs
    `trips` times (the constant-bound `scf.for` loops around it), no instruction got narrower and the
    count is at most trips times the one before (bitsandbytes' 8-step binary search over its code table:
    4 PTX loads, 29 SASS); else `split` (a vector cut into narrower instructions, or a loop unrolled by
    the assembler). `copied_loop`: a copy of the access sits in a loop of run-time trip count, and what LLVM
    did to such loops, read from its block names (`analyze._copied_loops`: "unrolled or peeled", "unswitched"):
    the access may be there several times. `in_runtime_loop`: the access sits in a loop of run-time trip
    count; more SASS instructions than PTX ones, none narrower (no vector was cut), are then ptxas's
    unrolling of that loop (colossalai's `for i in range(0, cur_seq_idx): tl.load(...)`: 1 PTX, 8 SASS).
    Fewer LLIR instructions of a global access than the layout's vectors, each as wide as predicted, are
    `merged` (LLVM combined loads of equal addresses, or removed or moved some; `repeats`, asked only
    then, says where the address repeats (`repeating_dims`): sglang's GPTQ MoE scale
    `(offs_k[:, None] + BLOCK_K * k) // group_size`, 3 copies of 2 vectors, 2 in llir on gfx942)."""
    row.count_changes = []
    totals = [(s, sum(row.stages[s].values())) for s in stages if row.stages.get(s)]
    expected = (row.predicted_vectors_per_thread or 0) * row.instances
    width = row.predicted_vector_bytes
    if totals and totals[0][0] == "llir" and expected and width:
        m = totals[0][1]
        forms = row.stages["llir"]
        widths = [row.widths.get("llir", {}).get(f) for f in forms]
        same = all(w == width for w in widths)
        moved = sum(n * (row.widths.get("llir", {}).get(f) or 0) for f, n in forms.items())
        per_run = expected * width
        if trips and trips > 1 and same and expected < m <= expected * trips and m % expected == 0:
            # a loop of constant trip count that LLVM unrolled: the layout's vectors, once per iteration
            row.count_changes.append(Reason(
                "unrolled", f"the layout gives {expected} vector(s) per run, {m} in llir: the access runs {trips} "
                f"times per launch (the constant-bound scf.for loops around it) and LLVM unrolled the loop "
                f"({trips} x {expected} = {trips * expected} at most)"))
        elif trips and trips > 1 and not same and all(widths) and per_run < moved <= per_run * trips \
                and moved % per_run == 0:
            # the same, each run's bytes in narrower instructions (the verdict's reasons say why narrower)
            row.count_changes.append(Reason(
                "unrolled", f"the layout gives {expected} vector(s) of {width} B per run, {m} llir instructions "
                f"move {moved} B: {moved // per_run} runs' bytes; the access runs {trips} times per launch (the "
                f"constant-bound scf.for loops around it) and LLVM unrolled the loop, in narrower instructions"))
        elif row.distinct_per_thread and row.elements_per_thread and row.distinct_per_thread < row.elements_per_thread \
                and same and m < expected and m * row.elements_per_thread == expected * row.distinct_per_thread:
            # the layout's registers repeat elements (a broadcast dim): the lowering moves each distinct one once
            row.count_changes.append(Reason(
                "distinct-only", f"the layout gives {expected} vector(s) over its {row.elements_per_thread} "
                f"registers, {m} in llir: they hold {row.distinct_per_thread} distinct elements, each "
                f"{row.elements_per_thread // row.distinct_per_thread} times, and Triton's lowering moves each "
                f"distinct element once"))
        elif same and m < expected and not row.kind.startswith("shared"):
            # (a shared-memory dot operand's instructions spread over the dot's lines: nothing to say there)
            copies = f" ({row.instances} copies x {row.predicted_vectors_per_thread})" if row.instances > 1 else ""
            row.count_changes.append(Reason(
                "merged", f"the layout gives {expected} vector(s){copies}, {m} in llir, each as wide as predicted: "
                "LLVM combined loads of equal addresses, or removed or moved some"
                + (f": {where}" if repeats is not None and (where := repeats()) else "")))
        elif copied_loop and same and m > expected and m % (row.predicted_vectors_per_thread or expected) == 0:
            # (whole copies of one instance's vectors: a pipelined access's loop copy peeled, its prologue not)
            copies = []
            if "unrolled" in copied_loop:
                copies.append("its unrolled body, remainder or peeled iterations hold copies of the access: "
                              "LLVM's `.epil`, `.unr`, `.peel` blocks in llir")
            if "unswitched" in copied_loop:
                copies.append("one copy of the loop for each value of a condition that does not change in it: "
                              "LLVM's `.us` blocks in llir")
            row.count_changes.append(Reason(
                "unswitched" if copied_loop == "unswitched" else "unrolled",
                f"the layout gives {expected} vector(s) per run, {m} in llir: the access sits in a "
                f"loop whose trip count is known only at run time, and LLVM {copied_loop} that loop "
                f"({'; '.join(copies)})"))
    for (before, n), (after, m) in zip(totals, totals[1:], strict=False):
        if m < n:
            addresses = row.addresses.get(before, {})
            distinct = len(addresses)
            repeated = row.distinct_per_thread and row.elements_per_thread and \
                row.distinct_per_thread < row.elements_per_thread and row.kind.endswith("load") and \
                n == row.elements_per_thread * row.instances and m == row.distinct_per_thread * row.instances
            if row.copies == "float-atomic" and after == "sass" and _one_sign_kept(row, before, after):
                row.count_changes.append(Reason(
                    "merged", f"{n} {before} instructions, {m} in {after}: of the two integer atomics Triton "
                    f"gives a float atomic max or min, one for each sign of the value, {after} keeps one kind: "
                    "ptxas proved the other sign's branch never runs (the value's sign is known)"))
            elif before == "ptx" and addresses and sum(addresses.values()) == n and distinct == m:
                row.count_changes.append(Reason(
                    "merged-identical-address",
                    f"{n} {before} instructions, {m} in {after}: they read {distinct} distinct addresses, and "
                    f"ptxas issues one per address (equal pointers in the tensor, e.g. rows of a packed tile)"))
            elif repeated:
                row.count_changes.append(Reason(
                    "merged-identical-address",
                    f"{n} {before} instructions, {m} in {after}: the layout repeats elements (its "
                    f"{row.elements_per_thread} registers hold {row.distinct_per_thread} distinct ones), one "
                    f"{before} load each, and {after} loads each distinct element once"))
            elif forms := _paired(row, after, n):
                pairs = sum(row.counts(after)[f] for f in forms)
                row.count_changes.append(Reason(
                    "merged", f"{n} {before} instructions, {m} in {after}: each {', '.join(forms)} moves two values "
                    f"at two addresses, as {before} moved one each: the backend paired "
                    + ("them" if pairs == m else f"{2 * pairs} of them")))
            else:
                row.count_changes.append(Reason(
                    "merged", f"{n} {before} instructions, {m} in {after}: the compiler combined or removed some"))
        elif m > n and trips and trips > 1 and m <= n * trips and _no_narrower(row, before, after) \
                and stages.index(after) == stages.index(before) + 1:  # (no stage between them lost its count)
            tool = "ptxas" if after == "sass" else "LLVM's backend" if before == "llir" else "the assembler"
            row.count_changes.append(Reason(
                "unrolled", f"{n} {before} instructions, {m} in {after}: the access runs {trips} times per "
                f"launch (the constant-bound scf.for loops around it) and no {after} instruction is narrower: "
                f"{tool} unrolled the loop ({trips} x {n} = {trips * n} at most)"))
        elif m > n and in_runtime_loop and (before, after) == ("ptx", "sass") and _no_narrower(row, before, after):
            row.count_changes.append(Reason(
                "unrolled", f"{n} {before} instructions, {m} in {after}, none narrower (no vector was cut): the "
                f"access sits in a loop whose trip count is known only at run time, and ptxas unrolled that loop "
                f"(its unrolled body and remainder each hold copies)"))
        elif m > n and m == 2 * n and after == "sass" and _halved_tensor_memory_moves(row, before, after):
            row.count_changes.append(Reason(
                "split", f"{n} {before} instructions, {m} in {after}: ptxas issues a `16x32bx2` tensor memory move as "
                f"two instructions, one for threads 0-15 and one for threads 16-31 (`_t0_t15`, `_t16_t31`)"))
        elif m > n and _no_narrower(row, before, after):
            row.count_changes.append(Reason(
                "split", f"{n} {before} instructions, {m} in {after}, none narrower (no vector was cut): copies of "
                f"them, from a loop the assembler unrolled or code it duplicated"))
        elif m > n:
            row.count_changes.append(Reason(
                "split", f"{n} {before} instructions, {m} in {after}: an instruction became several (a vector cut into "
                f"narrower ones, or a loop unrolled by the assembler)"))


def _one_sign_kept(row: AccessRow, before: str, after: str) -> bool:
    """A float atomic's two integer operations in `before` (PTX `atom.max.s32` and `atom.min.u32`), one of
    them in `after` (SASS `ATOMG.E.MAX.S32` alone)."""
    def kinds(stage: str) -> set[str]:
        out = set()
        for form in row.stages.get(stage, {}):
            low = form.lower()
            out |= {k for k in ("max", "min") if f".{k}" in low or f"_{k}" in low}
        return out
    return len(kinds(before)) == 2 and len(kinds(after)) == 1


def _halved_tensor_memory_moves(row: AccessRow, before: str, after: str) -> bool:
    """Whether the row's `before` instructions are all `16x32bx2` tcgen05 moves and its `after` ones the
    two halves SASS spells `_t0_t15` and `_t16_t31`, as many of each."""
    low = sum(n for f, n in row.stages.get(after, {}).items() if "_t0_t15" in f)
    high = sum(n for f, n in row.stages.get(after, {}).items() if "_t16_t31" in f)
    return bool(row.stages.get(before)) and all(".16x32bx2." in f for f in row.stages[before]) and \
        low == high == sum(row.stages[before].values()) and low + high == sum(row.stages[after].values())


def _no_narrower(row: AccessRow, before: str, after: str) -> bool:
    """Whether every instruction of `after` moves at least as many bytes as the widest of `before` (so
    no vector was cut into narrower pieces); False where a width is unknown."""
    def widths(stage: str) -> list:
        return [row.widths.get(stage, {}).get(form) for form in row.stages.get(stage, {})]

    was, now = widths(before), widths(after)
    if not was or not now or None in was or None in now:
        return False
    return min(now) >= max(was)
