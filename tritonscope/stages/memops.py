"""Which instructions of a stage touch memory, and how wide: one `classify(stage, op)` per Op.

Every stage names its memory instructions differently (LLVM `load <8 x half>`, inline-asm PTX inside an
LLVM `call`, PTX `ld.global.v4.b32`, AMDGCN `global_load_dwordx4`, SASS `LDG.E.128`, TTGIR `tt.load`);
this module turns each into one `MemAccess` so analyses (`loads`, `diff` metrics) compare like with like.
Anything that looks like memory but matches no known form is `other_mem`, never dropped. Instructions
that read kernel parameters (`ld.param`, SASS `LDC`/`ULDC`) or only synchronise (`cp.async.wait_group`,
`mbarrier`, `ds_swizzle`) are not memory accesses: `classify` returns None for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op

KINDS = ("global_load", "global_store", "shared_load", "shared_store", "atomic", "async_copy", "tma",
         "buffer_load", "buffer_store", "scalar_load", "tmem_load", "tmem_store", "tmem_copy", "other_mem")


@dataclass(frozen=True, slots=True)
class MemAccess:
    """One memory instruction, normalized.

    `width_bytes` is what one instruction moves per thread (None where the form does not say, as for
    TMA); `elements` the lanes of the instruction's own type (`load <8 x half>`: 8, `ld.global.v4.b32`: 4)
    where the form states them. `predicated` is True where the instruction itself carries a mask
    (`@%p` guard, `llvm.masked.*`, cp.async src-size); a load guarded by a branch is found by the caller.
    """

    kind: str
    form: str
    width_bytes: int | None = None
    elements: int | None = None
    space: str = "global"  # global | shared | local | generic | constant | scalar | tensor | tensor_memory
    predicated: bool = False
    cache_hints: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"kind": self.kind, "form": self.form, "width_bytes": self.width_bytes,
                "elements": self.elements, "space": self.space, "predicated": self.predicated,
                "cache_hints": list(self.cache_hints)}


def classify(stage: str, op: Op) -> MemAccess | None:
    """The memory access `op` performs in `stage`, or None when it touches no memory.

    An instruction that looks like memory but has no known form is `other_mem` (space 'unknown').
    Most ops are no access, and for most stages that follows from the op's name alone (`_never_by_name`):
    such names are remembered, so a sweep over a cache runs the classifier once per distinct name, not
    once per op (`classify_uncached` is the same answer without the shortcut; a test holds them equal).
    """
    if stage == "llir":
        # every LLVM IR form below names one of these words: the rest is no access, at C speed
        text = op.text
        if "load" not in text and "store" not in text and "call " not in text and "atomicrmw" not in text \
                and "cmpxchg" not in text:
            return None
    else:
        key = (stage, op.op)
        never = _NEVER.get(key)
        if never is None:
            if len(_NEVER) >= _NEVER_LIMIT:  # a stage's vocabulary is hundreds of names; damaged text is not
                _NEVER.clear()
            never = _NEVER[key] = _never_by_name(stage, op.op)
        if never:
            return None
    return classify_uncached(stage, op)


def accesses(stage: str, module) -> list[MemAccess | None]:
    """`classify(stage, op)` for every op of a parsed stage (a stages.common.Module), in op order; kept on
    the module, as `diff`'s metrics, `loads`' join and its spill sites each walk the same ops."""
    kept = module.memory_accesses
    if kept is None or kept[0] != stage or len(kept[1]) != len(module.ops):
        found = [classify(stage, op) for op in module.ops]
        if stage == "llir" and not _amdgpu_triple(module.triple):
            found = [_nvptx_cluster_shared(op, acc) for op, acc in zip(module.ops, found, strict=True)]
        elif stage == "sass" and module.generic_spaces:
            found = [_generic_shared(acc) if acc is not None and op.lineno in module.generic_spaces else acc
                     for op, acc in zip(module.ops, found, strict=True)]
        kept = module.memory_accesses = (stage, found)
    return kept[1]


def _generic_shared(acc: MemAccess) -> MemAccess:
    """A SASS `LD.E`/`ST.E` (generic address) that ptxas compiled from a shared-memory PTX instruction
    (`ld.shared::cluster`: Module.generic_spaces): a shared access, as PTX and LLIR say, not a global one."""
    return _as_shared(acc) if acc.space == "generic" else acc


def _as_shared(acc: MemAccess) -> MemAccess:
    """The access as one of shared memory (another CTA's, reached as global or generic): loads and stores
    become shared loads and stores, atomics stay atomics."""
    kind = {"global_load": "shared_load", "global_store": "shared_store"}.get(acc.kind, acc.kind)
    return replace(acc, kind=kind, space="shared")


def _amdgpu_triple(triple: str | None) -> bool:
    """Whether an LLIR's triple is AMDGPU's (`amdgcn-amd-amdhsa`; Triton 3.9 `amdgpu9.42-amd-amdhsa`): every
    recorded AMD LLIR has one, while Triton's NVIDIA LLIR has none (its triple is set after the stage is kept)."""
    return bool(triple) and ("amdgcn" in triple or "amdgpu" in triple)


def _nvptx_cluster_shared(op: Op, acc: MemAccess | None) -> MemAccess | None:
    """NVPTX's address space 7 is another CTA's shared memory in the cluster (`ld.shared::cluster` in PTX,
    through `llvm.nvvm.mapa.shared.cluster`), where AMDGPU's is a buffer (global) pointer (`_LL_ADDRSPACE`)."""
    if acc is None or acc.space != "global" or "addrspace(7)" not in op.text:
        return acc
    # the form _classify_llir read it by, in its order
    m = next((m for rx in ((_LL_STORE,) if op.op == "call" else (_LL_LOAD, _LL_STORE)) + (_LL_ATOMICRMW, _LL_CMPXCHG)
              if (m := rx.search(op.text))), None)
    if m is None or m.group("as") != "7":
        return acc
    return _as_shared(acc)


def classify_uncached(stage: str, op: Op) -> MemAccess | None:
    fn = _BY_STAGE.get(stage)
    if fn is None:
        return None
    if stage == "sass" and _SASS_NEVER.search(op.text.split(op.op)[0] if op.op in op.text else ""):
        return None  # never executed
    acc = fn(op)
    if acc is not None:
        return acc
    if _other_memory_looking(stage, op.op):
        return MemAccess("other_mem", op.op, None, None, "unknown")
    return None


def _other_memory_looking(stage: str, op_name: str) -> bool:
    rx = _OTHER_MEMORY_LOOKING.get("amdgcn" if stage == "hsaco-asm" else stage)
    return bool(rx and rx.match(op_name) and not _is_known_non_memory(stage, op_name))


_NEVER: dict[tuple[str, str], bool] = {}
_NEVER_LIMIT = 1 << 16


def _never_by_name(stage: str, name: str) -> bool:
    """True when no op of this name is an access in `stage`, whatever its operands: each stage's
    classifier below decides None from the name alone in these cases (operands only refine a hit)."""
    if stage not in _BY_STAGE:
        return True
    if _other_memory_looking(stage, name):
        return False
    if stage in ("ttir", "ttgir", "source"):
        bare = name.strip('"')
        return mlir_op_kind(bare) is None and not bare.endswith((".local_alloc", ".tmem_alloc"))
    if stage == "ptx":
        return _classify_ptx_mnemonic(name) is None
    if stage in ("amdgcn", "hsaco-asm"):
        return not _AMD_MNEMONIC.match(name.split()[0] if name else "")
    if stage == "sass":
        return _classify_sass(Op(0, name, name)) is None  # the text only says whether it is predicated
    return False


# --------------------------------------------------------------------------- TTIR / TTGIR (MLIR)

# dialect-free op name -> kind; prefixes (tt., ttg., triton_gpu., ttng., amdgpu., amdg.) vary by release.
_MLIR_KINDS: dict[str, str] = {
    "load": "global_load", "store": "global_store",
    "atomic_rmw": "atomic", "atomic_cas": "atomic", "buffer_atomic_rmw": "atomic", "buffer_atomic_cas": "atomic",
    "descriptor_load": "tma", "descriptor_store": "tma", "descriptor_gather": "tma", "descriptor_scatter": "tma",
    "descriptor_reduce": "tma", "experimental_descriptor_load": "tma", "experimental_descriptor_store": "tma",
    "async_tma_copy_global_to_local": "tma", "async_tma_copy_local_to_global": "tma",
    "async_tma_gather": "tma", "async_tma_scatter": "tma", "async_tma_reduce": "tma",
    # gfx1250's tensor data mover: a descriptor's tile copied between global memory and LDS, as NVIDIA's TMA
    "async_tdm_copy_global_to_local": "tma", "async_tdm_copy_local_to_global": "tma",
    "async_copy_global_to_local": "async_copy", "buffer_load_to_local": "async_copy",
    "async_copy_local_to_global": "async_copy",
    "insert_slice_async": "async_copy",  # Triton 2.x's pipelined load: `triton_gpu.insert_slice_async`
    "buffer_load": "buffer_load", "buffer_store": "buffer_store",
    "local_load": "shared_load", "local_store": "shared_store",
    "tmem_load": "tmem_load", "tmem_store": "tmem_store",  # Blackwell tensor memory <-> registers
    "tmem_copy": "tmem_copy",  # shared -> tensor memory (tcgen05.cp: MMA scales)
}
_MLIR_DIALECTS = ("tt", "ttg", "triton_gpu", "ttng", "triton_nvidia_gpu", "amdgpu", "amdg", "triton_amdgpu")
# A load's hints in each release's spelling (2.x `cache = 3 : i32, evict = 2 : i32`, the numbers of Triton's
# TT_CacheModifierAttr and TT_EvictionPolicyAttr; 3.2 `evictionPolicy = evict_first`, `cacheModifier = cg`;
# 3.9 `#tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>`), named in the one spelling
# of the newest (metrics and rules compare releases); the defaults are no hint.
_MLIR_EVICTION = lazy_compile(r"\b(?:eviction_?[pP]olicy|evict)\s*=\s*(\w+)")
_MLIR_CACHE = lazy_compile(r"\bcache(?:_?[mM]odifier)?\s*=\s*(\w+)")
_MLIR_HINT_NUMBERS = {"eviction_policy": ("evict_normal", "evict_first", "evict_last"),
                      "cache_modifier": ("none", "ca", "cg", "wb", "cs", "wt", "cv")}
_MLIR_HINT_DEFAULTS = frozenset(("none", "normal", "NORMAL", "NONE", "evict_normal", "EVICT_NORMAL"))


def mlir_hint_values(text: str):
    """(key, value) of each hint an MLIR op's text gives, `eviction_policy` first, then `cache_modifier`, in
    the newest release's spelling; the defaults are none (`loads` shows them, metrics count them)."""
    for rx, key in ((_MLIR_EVICTION, "eviction_policy"), (_MLIR_CACHE, "cache_modifier")):
        for m in rx.finditer(text):
            value = m.group(1)
            if value.isdigit():  # (2.x's enum numbers count from 1)
                names = _MLIR_HINT_NUMBERS[key]
                value = names[int(value) - 1] if 0 < int(value) <= len(names) else value
            if value not in _MLIR_HINT_DEFAULTS:
                yield key, value


def _mlir_hints(text: str) -> tuple[str, ...]:
    return tuple(f"{key}={value}" for key, value in mlir_hint_values(text))
_MLIR_LOCAL_ALLOC_WITH_VALUE = lazy_compile(r"(?:local|tmem)_alloc\s+%")


def initialized_alloc_kind(op: Op) -> str | None:
    """`ttg.local_alloc %v` / `ttng.tmem_alloc %v`: an allocation given a tensor writes it (to shared or
    tensor memory): `shared_store` / `tmem_store`; None for an empty allocation or any other op."""
    name = op.op.strip('"')
    if not name.endswith((".local_alloc", ".tmem_alloc")) or not _MLIR_LOCAL_ALLOC_WITH_VALUE.search(op.text):
        return None
    return "shared_store" if name.endswith(".local_alloc") else "tmem_store"


def mlir_op_kind(op_name: str) -> str | None:
    """`tt.load` -> 'global_load', `ttg.local_load` -> 'shared_load'; None for other ops."""
    dialect, _, name = op_name.partition(".")
    if dialect not in _MLIR_DIALECTS:
        return None
    return _MLIR_KINDS.get(name)


def _classify_mlir(op: Op) -> MemAccess | None:
    name = op.op.strip('"')
    kind = mlir_op_kind(name) or initialized_alloc_kind(op)
    if kind is None:
        return None
    hints = _mlir_hints(op.text)
    space = "shared" if kind.startswith("shared") else "tensor" if kind == "tma" else \
        "tensor_memory" if kind.startswith("tmem") else "global"
    return MemAccess(kind, name, space=space, cache_hints=hints)


# --------------------------------------------------------------------------- LLVM IR

_LL_TYPE = r"(?P<ty><\d+ x [^>]+>|[\w.]+|ptr(?: addrspace\(\d+\))?)"
_LL_LOAD = lazy_compile(r"=\s*load\s+(?:atomic\s+)?(?:volatile\s+)?" + _LL_TYPE +
                        r"\s*,\s*ptr(?:\s+addrspace\((?P<as>\d+)\))?")
_LL_STORE = lazy_compile(r"^\s*store\s+(?:atomic\s+)?(?:volatile\s+)?" + _LL_TYPE +
                         r"\s+[^,]+,\s*ptr(?:\s+addrspace\((?P<as>\d+)\))?")
_LL_ATOMICRMW = lazy_compile(r"atomicrmw\s+(?:volatile\s+)?(?P<op>\w+)\s+ptr(?:\s+addrspace\((?P<as>\d+)\))?\s+[^,]+,"
                             r"\s*(?P<ty><\d+ x [^>]+>|[\w.]+)")
_LL_CMPXCHG = lazy_compile(r"cmpxchg\s+(?:weak\s+)?(?:volatile\s+)?ptr(?:\s+addrspace\((?P<as>\d+)\))?\s+[^,]+,"
                           r"\s*(?P<ty>[\w.]+)")
_LL_CALLEE = lazy_compile(r"@(?P<name>llvm\.[\w.]+)\s*\((?P<args>.*)")
_LL_CALL_RET = lazy_compile(r"call\s+(?:\w+\s+)*?(?P<ret><\d+ x [^>]+>|\{[^}]*\}|[\w.]+)\s+(?:asm|@)")
_LL_ASM_BODY = lazy_compile(r'\basm\s+(?:sideeffect\s+)?(?:alignstack\s+)?(?:inteldialect\s+)?'
                            r'"(?P<body>(?:[^"\\]|\\.)*)"')
_LL_VECTOR = lazy_compile(r"<(?P<n>\d+) x (?P<el>[^>]+)>")
_LL_FIRST_ARG_TYPE = lazy_compile(r"^\s*(?P<ty><\d+ x [^>]+>|[\w.]+)\s")
_LL_TOP_LEVEL_INT_ARG = lazy_compile(r"^\s*i32\s+(\d+)\s*$")


def _lds_copy_bytes(args: str) -> int | None:
    """The size operand of an AMDGPU copy into LDS (`global.load.lds(src, dst, i32 size, ...)`, the buffer
    and async forms alike): the first i32 constant argument at the top level, not one inside the
    destination's constant expression (`getelementptr (i8, ptr addrspace(3) @global_smem, i32 32944)`)."""
    depth, start = 0, 0
    for i, ch in enumerate(args + ","):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            m = _LL_TOP_LEVEL_INT_ARG.match(args[start:i])
            if m:
                return int(m.group(1))
            start = i + 1
    return None
_LL_SCALAR_BITS = {"half": 16, "bfloat": 16, "float": 32, "double": 64, "fp128": 128, "ptr": 64}

# NVPTX and AMDGPU agree on these address spaces for what Triton emits (AMDGPU 4 is constant, 5 private).
_LL_ADDRSPACE = {None: "generic", "0": "generic", "1": "global", "3": "shared", "4": "constant", "5": "local",
                 "7": "global", "8": "global"}


def _ll_type_bits(ty: str) -> tuple[int | None, int]:
    """(total bits, lanes) of an LLVM type spelled `<8 x half>`, `i16`, `float`, `ptr addrspace(1)`."""
    ty = ty.strip()
    m = _LL_VECTOR.fullmatch(ty)
    if m:
        el_bits, _ = _ll_type_bits(m.group("el"))
        n = int(m.group("n"))
        return (el_bits * n if el_bits else None), n
    if ty.startswith("ptr"):
        return 64, 1
    if re.fullmatch(r"i\d+", ty):
        bits = int(ty[1:])
        return (8 if bits == 1 else bits), 1  # i1 is stored as a byte
    return _LL_SCALAR_BITS.get(ty), 1


def _ll_access(kind: str, form: str, ty: str, space: str, predicated: bool = False,
               hints: tuple[str, ...] = ()) -> MemAccess:
    bits, lanes = _ll_type_bits(ty)
    return MemAccess(kind, form, bits // 8 if bits else None, lanes, space, predicated, hints)


def _ll_space_kind(addrspace: str | None, load: bool) -> tuple[str, str]:
    space = _LL_ADDRSPACE.get(addrspace, "generic")
    if space == "shared":
        return space, "shared_load" if load else "shared_store"
    if space in ("global", "generic"):
        return space, "global_load" if load else "global_store"
    return space, "other_mem"


def _classify_llir(op: Op) -> MemAccess | None:
    text = op.text
    hints = ("nontemporal",) if "!nontemporal" in text else ()
    if "volatile" in text.split("!")[0]:
        hints += ("volatile",)
    m = _LL_LOAD.search(text)
    if m and op.op != "call":
        space, kind = _ll_space_kind(m.group("as"), load=True)
        return _ll_access(kind, f"load {m.group('ty')}", m.group("ty"), space, hints=hints)
    m = _LL_STORE.search(text)
    if m:
        space, kind = _ll_space_kind(m.group("as"), load=False)
        return _ll_access(kind, f"store {m.group('ty')}", m.group("ty"), space, hints=hints)
    m = _LL_ATOMICRMW.search(text)
    if m:
        space = _LL_ADDRSPACE.get(m.group("as"), "generic")
        return _ll_access("atomic", f"atomicrmw {m.group('op')} {m.group('ty')}", m.group("ty"), space)
    m = _LL_CMPXCHG.search(text)
    if m:
        space = _LL_ADDRSPACE.get(m.group("as"), "generic")
        return _ll_access("atomic", f"cmpxchg {m.group('ty')}", m.group("ty"), space)
    if "call " not in text:
        return None
    asm = _LL_ASM_BODY.search(text)
    if asm:
        return _classify_inline_asm(asm.group("body"))
    callee = _LL_CALLEE.search(text)
    if callee:
        ret = _LL_CALL_RET.search(text)
        return _classify_llvm_intrinsic(callee.group("name"), callee.group("args"),
                                        ret.group("ret") if ret else "void")
    return None


def _classify_inline_asm(body: str) -> MemAccess | None:
    """The PTX memory instruction inside an inline-asm string (Triton puts one per asm block)."""
    body = body.replace("\\0A", "\n").replace("\\09", " ").replace("\\22", '"')
    for stmt in re.split(r"[;\n]", body):
        stmt = stmt.strip()
        if not stmt or stmt.startswith("//"):
            continue
        pred = _PTX_PREDICATE.match(stmt)
        mnemonic = stmt[pred.end():].split(None, 1) if pred else stmt.split(None, 1)
        if not mnemonic:
            continue
        rest = mnemonic[1] if len(mnemonic) > 1 else ""
        acc = _classify_ptx_mnemonic(mnemonic[0], rest, predicated=bool(pred))
        if acc is not None:
            return acc
    return None


def _classify_llvm_intrinsic(name: str, args: str, ret: str) -> MemAccess | None:
    short = name[len("llvm."):]
    if short.startswith(("masked.load", "masked.gather", "masked.expandload")):
        op = ".".join(short.split(".")[:2])
        space = "shared" if ".p3" in short else "global"
        return _ll_access("shared_load" if space == "shared" else "global_load", f"{op} {ret}", ret, space, True)
    if short.startswith(("masked.store", "masked.scatter", "masked.compressstore")):
        op = ".".join(short.split(".")[:2])
        ty = _LL_FIRST_ARG_TYPE.match(args)
        space = "shared" if ".p3" in short else "global"
        ty_text = ty.group("ty") if ty else ""
        kind = "shared_store" if space == "shared" else "global_store"
        return _ll_access(kind, f"{op} {ty_text or '?'}", ty_text, space, True)
    if short.startswith("amdgcn."):
        return _classify_amdgcn_intrinsic(short[len("amdgcn."):], args, ret)
    if short.startswith("nvvm."):
        return _classify_nvvm_intrinsic(short[len("nvvm."):], args, ret)
    if short.startswith(("memcpy", "memset", "memmove")):
        return MemAccess("other_mem", short.split(".")[0], space="generic")
    return None


_AMD_BUFFER_INTRINSIC = lazy_compile(r"(?P<variant>(?:raw|struct)(?:\.ptr)?(?:\.t)?)\.buffer\.(?P<op>load|store|atomic)"
                                     r"(?P<rest>[\w.]*)")


def _classify_amdgcn_intrinsic(short: str, args: str, ret: str) -> MemAccess | None:
    m = _AMD_BUFFER_INTRINSIC.match(short)
    if m:
        op = m.group("op")
        lds = ".lds" in m.group("rest")
        if op == "load":
            kind = "async_copy" if lds else "buffer_load"
            ty = ret
        elif op == "store":
            kind = "buffer_store"
            tm = _LL_FIRST_ARG_TYPE.match(args)
            ty = tm.group("ty") if tm else ""
        else:
            kind = "atomic"
            ty = ret
        # (gfx950's `raw.ptr.buffer.load.async.lds` keeps its `.async`: the form is the intrinsic's name)
        form = f"{m.group('variant')}.buffer.{op}{'.async' if '.async.' in m.group('rest') + '.' else ''}" \
            f"{'.lds' if lds else ''}"
        if lds:
            return MemAccess(kind, form, _lds_copy_bytes(args), None, "global")
        return _ll_access(kind, f"{form} {ty}".strip(), ty, "global")
    if short.startswith(("tensor.load.to.lds", "tensor.store.from.lds")):  # (gfx1250's tensor data mover)
        return MemAccess("tma", short, None, None, "tensor")
    if short.startswith(("global.load.lds", "global.load.async.lds", "load.to.lds", "global.load.async")):
        return MemAccess("async_copy", short, _lds_copy_bytes(args), None, "global")
    if short.startswith(("ds.read.tr", "ds.load.tr", "global.load.tr")):
        space = "shared" if short.startswith("ds.") else "global"
        return _ll_access("shared_load" if space == "shared" else "global_load", f"{short} {ret}", ret, space)
    if short.startswith(("global.atomic", "flat.atomic", "ds.fadd", "ds.fmin", "ds.fmax", "ds.ordered")):
        return _ll_access("atomic", f"{short} {ret}", ret, "shared" if short.startswith("ds.") else "global")
    if short.startswith(("s.buffer.load", "s.load")):
        return _ll_access("scalar_load", f"{short} {ret}", ret, "scalar")
    return None


_NVVM_CP_ASYNC_SYNC = ("cp.async.commit", "cp.async.wait", "cp.async.mbarrier")


def _classify_nvvm_intrinsic(short: str, args: str, ret: str) -> MemAccess | None:
    if short.startswith(("tcgen05.ld.", "tcgen05.st.", "tcgen05.cp.")):
        return _tcgen05_access(short)
    if short.startswith("ldmatrix"):
        return MemAccess("shared_load", short, _ldmatrix_bytes(short), None, "shared")
    if short.startswith("stmatrix"):
        return MemAccess("shared_store", short, _ldmatrix_bytes(short), None, "shared")
    if short.startswith(("cp.async.bulk.commit", "cp.async.bulk.wait")):
        return None  # bulk-group synchronisation
    if short.startswith(("cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor")):
        return MemAccess("tma", short, None, None, "tensor")
    if short.startswith(("cp.async.bulk", "cp.reduce.async.bulk")):
        return MemAccess("tma", short, None, None, "global")
    if short.startswith("cp.async.") and not short.startswith(_NVVM_CP_ASYNC_SYNC):
        size = re.search(r"\.(\d+)(?:\.|$)", short)
        return MemAccess("async_copy", short, int(size.group(1)) if size else None, None, "global")
    if short.startswith(("atomic.", "red.")):
        return _ll_access("atomic", f"{short} {ret}", ret, "global")
    if short.startswith(("ld.global", "ldg.global", "ldu.global")):
        return _ll_access("global_load", f"{short} {ret}", ret, "global")
    if short.startswith("prefetch"):
        return MemAccess("other_mem", short, None, None, "global")
    return None


# tcgen05.ld/st shapes: 32-bit registers per thread for each repetition (`.x<N>`), after the PTX ISA's
# tcgen05 data-movement shapes (16x32bx2 splits a 16x64b access in two halves).
_TCGEN05_REGS = {"32x32b": 1, "16x64b": 1, "16x128b": 2, "16x256b": 4, "16x32bx2": 1}


_TCGEN05_REPS = lazy_compile(r"\.x(\d+)(?:\.|$)")


def tcgen05_reps(form: str) -> int | None:
    """The repetition count of a tensor memory move (`.x32`), spelled alike in PTX (`tcgen05.ld...x32.b32`)
    and SASS (`LDTM.16dp32bit_t0_t15.x32`); None where the form has none."""
    m = _TCGEN05_REPS.search(form)
    return int(m.group(1)) if m else None


# SASS spells a tensor memory move's data-path shape `16dp32bit` (PTX `16x32bx2`, issued as halves `_t0_t15`
# and `_t16_t31`), `16dp256bit` (`16x256b`), ...; PTX's `32x32b` not at all (`STTM.x32`).
_SASS_TMEM_SHAPE = lazy_compile(r"^(?:LDTM|STTM)(?:\.(16|32)dp(32|64|128|256)bit)?(?:[._]|$)")


def tcgen05_shape(form: str) -> tuple[int, int] | None:
    """(data paths, bits) of a tensor memory load or store in PTX (`tcgen05.st...16x32bx2.x1.b32`: (16, 32))
    or SASS (`STTM.16dp32bit_t0_t15`: (16, 32); `LDTM.x64`: (32, 32)); None for any other form."""
    tokens = form.split(".")
    if tokens[0] == "tcgen05" and len(tokens) > 1 and tokens[1] in ("ld", "st"):
        shape = next((t for t in tokens if t in _TCGEN05_REGS), None)
        if shape is None:
            return None
        paths, bits = shape.split("x")[:2]
        return int(paths), int(bits.rstrip("b"))
    m = _SASS_TMEM_SHAPE.match(form)
    if m is None:
        return None
    return (int(m.group(1)), int(m.group(2))) if m.group(1) else (32, 32)


def _tcgen05_access(form: str, predicated: bool = False) -> MemAccess | None:
    """`tcgen05.ld.sync.aligned.32x32b.x64.b32`: a tensor memory load of 64 registers per thread."""
    tokens = form.split(".")
    if len(tokens) >= 2 and tokens[1] == "cp":  # shared -> tensor memory, issued for the whole tile
        return MemAccess("tmem_copy", form, None, None, "tensor_memory", predicated)
    if len(tokens) < 2 or tokens[1] not in ("ld", "st"):
        return None  # tcgen05.mma/commit/wait/alloc: no data movement of their own
    per = next((_TCGEN05_REGS[t] for t in tokens if t in _TCGEN05_REGS), None)
    width = 4 * per * (tcgen05_reps(form) or 1) if per is not None else None
    kind = "tmem_load" if tokens[1] == "ld" else "tmem_store"
    return MemAccess(kind, form, width, None, "tensor_memory", predicated)


def _ldmatrix_bytes(form: str) -> int:
    """ldmatrix/stmatrix `.x4` moves four 32-bit registers per thread."""
    m = re.search(r"\.x(\d)", form)
    return 4 * int(m.group(1)) if m else 4


# --------------------------------------------------------------------------- PTX

_PTX_PREDICATE = lazy_compile(r"@!?%?\$?\w+\s+")
_PTX_TYPE_BITS = {"b8": 8, "u8": 8, "s8": 8, "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16,
                  "e4m3x2": 16, "e5m2x2": 16, "b32": 32, "u32": 32, "s32": 32, "f32": 32, "f16x2": 32,
                  "bf16x2": 32, "b64": 64, "u64": 64, "s64": 64, "f64": 64, "b128": 128, "tf32": 32}
_PTX_SPACES = {"global": "global", "shared": "shared", "shared::cta": "shared", "shared::cluster": "shared",
               "local": "local", "const": "constant", "param": "param", "param::entry": "param",
               "param::func": "param", "tex": "global"}
_PTX_VECTOR = lazy_compile(r"^v(\d+)$")
_PTX_CP_SIZE = lazy_compile(r"\],\s*(?P<size>0x[0-9a-fA-F]+|\d+)\s*(?P<src>,\s*[^;\s]+)?")
_PTX_SYNC_ONLY = ("cp.async.commit_group", "cp.async.wait_group", "cp.async.wait_all", "cp.async.mbarrier",
                  "cp.async.bulk.commit_group", "cp.async.bulk.wait_group")
_PTX_MEMORY_PREFIXES = ("ld.", "ldu.", "st.", "atom.", "red.", "cp.", "ldmatrix", "stmatrix", "multimem.",
                          "prefetch", "tensormap", "ld", "st")


# ld/st qualifiers besides state spaces, vectors and types (`L1::evict_first`-style ones contain `::`).
_PTX_LDST_QUALIFIERS = {"relaxed", "acquire", "release", "weak", "volatile", "mmio", "cta", "cluster", "gpu", "sys",
                          "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "unified"}


def _ptx_width(tokens: list[str]) -> tuple[int | None, int | None]:
    lanes = 1
    bits = None
    for t in tokens:
        vm = _PTX_VECTOR.match(t)
        if vm:
            lanes = int(vm.group(1))
        elif t in _PTX_TYPE_BITS:
            bits = _PTX_TYPE_BITS[t]
    if bits is None:
        return None, None
    return bits * lanes // 8, lanes


def _ptx_hints(tokens: list[str]) -> tuple[str, ...]:
    skip = set(_PTX_SPACES) | set(_PTX_TYPE_BITS) | {"global", "shared", "sync", "aligned"}
    return tuple(t for t in tokens if t not in skip and not _PTX_VECTOR.match(t))


def _classify_ptx_mnemonic(mnemonic: str, operands: str = "", predicated: bool = False) -> MemAccess | None:
    if mnemonic.startswith(_PTX_SYNC_ONLY) or mnemonic.startswith(("mbarrier", "fence")):
        return None
    tokens = mnemonic.split(".")
    if tokens[0] == "tensormap":
        # a device-side TMA descriptor (`tl.make_tensor_descriptor`): each field written into a 128-byte copy in
        # shared memory (`tensormap.replace.tile.box_dim.shared::cta.b1024.b32`), then published to global memory
        # with the proxy fence (`tensormap.cp_fenceproxy.global.shared::cta...sync.aligned [g], [s], 128`)
        if tokens[1:2] == ["replace"]:
            return MemAccess("tensormap", mnemonic, _ptx_width(tokens[-1:])[0], None, "shared", predicated)
        if tokens[1:2] == ["cp_fenceproxy"]:
            size = _PTX_CP_SIZE.search(operands)
            return MemAccess("tensormap", mnemonic, int(size.group("size"), 0) if size else None, None, "global",
                             predicated)
        return None
    head = tokens[0]
    if head in ("ld", "ldu", "st"):
        rest = tokens[1:]
        space = "generic"
        for t in rest:
            if t in _PTX_SPACES:
                space = _PTX_SPACES[t]
                break
        if space == "param":
            return None
        width, lanes = _ptx_width(rest)
        known = all(t in _PTX_SPACES or t in _PTX_TYPE_BITS or t in _PTX_LDST_QUALIFIERS or "::" in t
                    or _PTX_VECTOR.match(t) for t in rest)
        if not known:
            return MemAccess("other_mem", mnemonic, width, lanes, space, predicated, _ptx_hints(rest))
        is_load = head != "st"
        if space in ("global", "generic"):
            kind = "global_load" if is_load else "global_store"
        elif space == "shared":
            kind = "shared_load" if is_load else "shared_store"
        else:
            kind = "other_mem"
        return MemAccess(kind, mnemonic, width, lanes, space, predicated, _ptx_hints(rest))
    if head in ("atom", "red"):
        rest = tokens[1:]
        space = next((_PTX_SPACES[t] for t in rest if t in _PTX_SPACES), "generic")
        width, lanes = _ptx_width(rest)
        return MemAccess("atomic", mnemonic, width, lanes, space, predicated, _ptx_hints(rest))
    if mnemonic.startswith(("cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor")):
        return MemAccess("tma", mnemonic, None, None, "tensor", predicated)
    if mnemonic.startswith(("cp.async.bulk", "cp.reduce.async.bulk")):
        return MemAccess("tma", mnemonic, None, None, "global", predicated)
    if mnemonic.startswith("cp.async"):
        size = _PTX_CP_SIZE.search(operands)
        width = int(size.group("size"), 0) if size else None
        hints = tuple(t for t in tokens[2:] if t in ("ca", "cg") or "::" in t)
        # A src-size operand is how Triton masks cp.async (bytes beyond it are zero-filled).
        masked = predicated or bool(size and size.group("src"))
        return MemAccess("async_copy", mnemonic, width, None, "global", masked, hints)
    if head == "tcgen05":
        return _tcgen05_access(mnemonic, predicated)
    if head == "ldmatrix":
        return MemAccess("shared_load", mnemonic, _ldmatrix_bytes(mnemonic), None, "shared", predicated)
    if head == "stmatrix":
        return MemAccess("shared_store", mnemonic, _ldmatrix_bytes(mnemonic), None, "shared", predicated)
    if head in ("multimem", "prefetch", "prefetchu", "tld4", "tex", "suld", "sust"):
        return MemAccess("other_mem", mnemonic, None, None, "global", predicated)
    return None


def _classify_ptx(op: Op) -> MemAccess | None:
    mnemonic = op.op
    text = op.text
    pred = bool(_PTX_PREDICATE.match(text))
    operands = text.split(None, 2)
    rest = text[text.find(mnemonic) + len(mnemonic):] if mnemonic in text else (operands[-1] if operands else "")
    return _classify_ptx_mnemonic(mnemonic, rest, pred)


# --------------------------------------------------------------------------- AMDGCN

_AMD_SIZE_SUFFIX = {"dwordx4": 16, "dwordx3": 12, "dwordx2": 8, "dword": 4, "b128": 16, "b96": 12, "b64": 8,
                    "b32": 4, "short": 2, "ushort": 2, "sshort": 2, "u16": 2, "i16": 2, "b16": 2, "d16": 2,
                    "byte": 1, "ubyte": 1, "sbyte": 1, "u8": 1, "i8": 1, "b8": 1, "short_d16": 2,
                    "short_d16_hi": 2, "ubyte_d16": 1, "sbyte_d16": 1, "ubyte_d16_hi": 1, "sbyte_d16_hi": 1,
                    "d16_b16": 2, "d16_hi_b16": 2, "d16_u8": 1, "d16_i8": 1, "d16_hi_u8": 1, "d16_hi_i8": 1,
                    "dwordx8": 32, "dwordx16": 64, "b256": 32, "b512": 64, "f32": 4, "f64": 8, "f16": 2,
                    "u32": 4, "i32": 4, "u64": 8, "i64": 8}
_AMD_MNEMONIC = lazy_compile(r"^(?P<unit>global|buffer|flat|scratch|ds|s|tbuffer|tensor)_(?P<rest>\w+)$")
_AMD_DS_NON_MEMORY = ("swizzle", "bpermute", "permute", "nop", "gws_", "consume", "append")
_AMD_CACHE_BITS = lazy_compile(r"\b(glc|slc|dlc|nt|sc0|sc1|lds|th:\w+|scope:\w+)\b")


_AMD_OP_WORD = lazy_compile(r"^(?:load|store|read2st64|write2st64|read2|write2|read|write|atomic)_")
# LDS reads and writes of two values at two addresses: `ds_read2_b32`, `ds_write2st64_b64` (GCN, CDNA), named
# `ds_load_2addr_b32`, `ds_store_2addr_stride64_b64` from gfx11 on.
_AMD_TWO_ADDRESS = lazy_compile(r"(?:read|write|load|store)2(?:st64)?_|(?:load|store)_2addr_")
def addresses(form: str) -> int:
    """The separate addresses one instruction of `form` moves its bytes at: 2 for AMD's two-address LDS forms
    (`ds_read2_b64`, `ds_write2st64_b64`, gfx11's `ds_load_2addr_b32`), each of whose values has an offset of
    its own: the backend pairs two accesses into one instruction, whose offsets (0 and 2 elements apart in
    every such read of the recorded caches) need not be adjacent; else 1."""
    m = _AMD_MNEMONIC.match(form.split()[0]) if form else None
    return 2 if m and m.group("unit") == "ds" and _AMD_TWO_ADDRESS.match(m.group("rest")) else 1


def _amd_width(rest: str) -> int | None:
    """Bytes moved by `load_dwordx4`, `read2_b64`, `load_short_d16_hi`, `write_b16_d16_hi`, `read_b64_tr_b16`,
    and packed atomics (`atomic_pk_add_f16`/`_bf16`: two 16-bit halves in one dword)."""
    if re.match(r"atomic_pk_\w+_(?:b?f16|i16|u16)$", rest):
        return 4
    operand = _AMD_OP_WORD.sub("", rest)
    width = _AMD_SIZE_SUFFIX.get(operand)
    if width is None:
        width = next((_AMD_SIZE_SUFFIX[p] for p in operand.split("_") if p in _AMD_SIZE_SUFFIX), None)
    if width is not None and _AMD_TWO_ADDRESS.match(rest):
        width *= 2
    if width is None and rest.startswith("atomic_"):
        # GCN names no type on most atomics (`global_atomic_cmpswap`, `buffer_atomic_add`, `_umax`): a dword,
        # `_x2` two (`global_atomic_cmpswap_x2`); the compare-and-swap's data operand pairs the two values
        width = 8 if rest.endswith("_x2") else 4
    return width


def _classify_amdgcn(op: Op) -> MemAccess | None:
    mnemonic = op.op.split()[0] if op.op else ""
    m = _AMD_MNEMONIC.match(mnemonic)
    if not m:
        return None
    unit, rest = m.group("unit"), m.group("rest")
    if unit == "tensor":  # gfx1250's tensor data mover: `tensor_load_to_lds s[20:23], s[4:11]`, a descriptor's tile
        return MemAccess("tma", mnemonic, None, None, "tensor") if rest in ("load_to_lds", "store_from_lds") else None
    hints = tuple(_AMD_CACHE_BITS.findall(op.text.split(";")[0])) if unit != "ds" else ()
    width = _amd_width(rest)
    if unit == "s":
        # a load whose address is uniform across the wave goes through the scalar cache: `s_load_dword`
        # for a global pointer (and for the kernel's arguments), `s_buffer_load_dword` for a buffer
        if rest.startswith(("load", "buffer_load")):
            return MemAccess("scalar_load", mnemonic, width, None, "scalar", False, hints)
        if rest.startswith(("scratch_load", "store", "buffer_store")):
            return MemAccess("other_mem", mnemonic, width, None, "scalar", False, hints)
        return None
    if unit == "ds":
        if rest.startswith(_AMD_DS_NON_MEMORY):
            return None
        if rest.startswith(("read", "load")):
            return MemAccess("shared_load", mnemonic, width, None, "shared")
        if rest.startswith(("write", "store")):
            return MemAccess("shared_store", mnemonic, width, None, "shared")
        # ds_add_u32, ds_max_f32, ds_cmpst_b32...: LDS atomics.
        return MemAccess("atomic", mnemonic, width, None, "shared")
    if rest.startswith("atomic"):
        space = "local" if unit == "scratch" else "generic" if unit == "flat" else "global"
        return MemAccess("atomic", mnemonic, width, None, space, False, hints)
    is_load = rest.startswith("load")
    is_store = rest.startswith("store")
    if not (is_load or is_store):
        if rest.startswith(_AMD_CACHE_MAINTENANCE):
            return None  # cache maintenance: no data of its own
        return MemAccess("other_mem", mnemonic, width, None, "global", False, hints)
    # global_load_lds_dwordx4 / buffer_load_dword ... lds: straight from global memory into LDS.
    to_lds = "_lds_" in f"_{rest}_" or (unit == "buffer" and "lds" in hints)
    if to_lds:
        return MemAccess("async_copy", mnemonic, width, None, "global", False, hints)
    if unit == "scratch":
        return MemAccess("other_mem", mnemonic, width, None, "local", False, hints)
    if unit in ("buffer", "tbuffer"):
        return MemAccess("buffer_load" if is_load else "buffer_store", mnemonic, width, None, "global", False, hints)
    space = "generic" if unit == "flat" else "global"
    return MemAccess("global_load" if is_load else "global_store", mnemonic, width, None, space, False, hints)


# --------------------------------------------------------------------------- SASS

_SASS_PREDICATE = lazy_compile(r"@!?U?P[T\d]")
_SASS_SIZE = {"U8": 1, "S8": 1, "U16": 2, "S16": 2, "32": 4, "64": 8, "128": 16, "U.128": 16, "256": 32}
_SASS_HINT_TOKENS = {"EF", "EL", "LU", "EN", "NA", "CONSTANT", "STRONG", "GPU", "SYS", "SM", "BYPASS", "LTC64B",
                     "LTC128B", "LTC256B", "ZFILL", "PRIVATE", "MMIO", "NOALLOC"}


# Atomic operand types: `ATOMG.E.ADD.F32x2...` moves two floats.
_SASS_ATOMIC_TYPE = {"F32x2": 8, "F16x2": 4, "BF16x2": 4, "F32": 4, "F64": 8, "S32": 4, "U32": 4, "S64": 8,
                     "U64": 8, "64": 8, "F16": 2, "BF16": 2, "F32x4": 16, "F16x8": 16, "BF16x8": 16,
                     "F16x4": 8, "BF16x4": 8, "F32x8": 32, "E4M3x4": 4, "E5M2x4": 4, "E4M3x8": 8, "E5M2x8": 8}


def _sass_width(tokens: list[str], default: int | None = 4) -> int | None:
    for t in tokens:
        if t in _SASS_SIZE:
            return _SASS_SIZE[t]
    return default


def _sass_matrix_bytes(mods: list[str]) -> int:
    """LDSM.16.M88.4 loads four 8x8 b16 matrices: four 32-bit registers per thread; no count means one."""
    n = mods[-1] if mods and mods[-1] in ("1", "2", "4") else "1"
    return 4 * int(n)


# `@!PT LDS RZ, [RZ]`: guarded by "not true", never executed. ptxas pads with these (e.g. after LDGSTS);
# they move no data and are no access.
_SASS_NEVER = lazy_compile(r"@!U?PT\s")


def _classify_sass(op: Op) -> MemAccess | None:
    mnemonic = op.op
    tokens = mnemonic.split(".")
    head, mods = tokens[0], tokens[1:]
    pred = bool(_SASS_PREDICATE.search(op.text.split(mnemonic)[0])) if mnemonic in op.text else False
    hints = tuple(t for t in mods if t in _SASS_HINT_TOKENS)
    if head in ("LDG", "LD"):
        space = "global" if head == "LDG" else "generic"
        return MemAccess("global_load", mnemonic, _sass_width(mods), None, space, pred, hints)
    if head in ("STG", "ST"):
        space = "global" if head == "STG" else "generic"
        return MemAccess("global_store", mnemonic, _sass_width(mods), None, space, pred, hints)
    if head == "LDS":
        return MemAccess("shared_load", mnemonic, _sass_width(mods), None, "shared", pred)
    if head == "STS":
        return MemAccess("shared_store", mnemonic, _sass_width(mods), None, "shared", pred)
    if head in ("LDSM", "STSM"):
        kind = "shared_load" if head == "LDSM" else "shared_store"
        return MemAccess(kind, mnemonic, _sass_matrix_bytes(mods), None, "shared", pred)
    if head == "LDGSTS":
        return MemAccess("async_copy", mnemonic, _sass_width(mods), None, "global", pred, hints)
    if head in ("UTMALDG", "UTMASTG", "UTMAREDG", "UTMAPF", "UBLKCP", "UBLKRED", "UBLKPF"):
        return MemAccess("tma", mnemonic, None, None, "tensor" if head.startswith("UTMA") else "global", pred)
    if head in ("ATOMG", "ATOM", "ATOMS", "RED", "REDG", "REDAS"):
        space = "shared" if head == "ATOMS" else "global"
        width = next((_SASS_ATOMIC_TYPE[t] for t in mods if t in _SASS_ATOMIC_TYPE), 4)
        return MemAccess("atomic", mnemonic, width, None, space, pred, hints)
    if head in ("LDL", "STL"):
        return MemAccess("other_mem", mnemonic, _sass_width(mods), None, "local", pred)
    if head in ("LDC", "ULDC", "LDGDEPBAR", "DEPBAR", "ARRIVES", "SYNCS", "MEMBAR", "CCTL", "ERRBAR", "UTMACCTL",
                "UTMACMDFLUSH", "FENCE"):
        return None  # parameter/constant-bank reads, synchronisation, TMA descriptor-cache control
    if head == "UTCCP":  # shared -> tensor memory copy (tcgen05.cp)
        return MemAccess("tmem_copy", mnemonic, None, None, "tensor_memory", pred)
    if head in ("LDTM", "STTM"):  # tensor memory <-> registers; `.x64`: 64 registers of the 32x32b shape
        reps = tcgen05_reps(mnemonic)
        plain = all(re.fullmatch(r"x\d+", t) for t in mods)  # other shapes spell themselves: width not stated
        kind = "tmem_load" if head == "LDTM" else "tmem_store"
        return MemAccess(kind, mnemonic, 4 * reps if reps and plain else None, None, "tensor_memory", pred)
    if head in ("LDTRAM", "SUST", "SULD", "TLD", "TEX", "CCTLL", "SUATOM", "SURED"):
        return MemAccess("other_mem", mnemonic, None, None, "global", pred)
    return None


_BY_STAGE = {
    "ttir": _classify_mlir, "ttgir": _classify_mlir, "source": _classify_mlir,
    "llir": _classify_llir,
    "ptx": _classify_ptx,
    "amdgcn": _classify_amdgcn, "hsaco-asm": _classify_amdgcn,
    "sass": _classify_sass,
}

# Memory-looking mnemonics `classify` does not know, for the `other` bucket of analyses: recognised by
# prefix so that a new form is listed rather than lost.
_OTHER_MEMORY_LOOKING = {
    "ptx": lazy_compile(r"^(ld|st|atom|red|cp|ldu|ldmatrix|stmatrix|multimem|tcgen05\.(ld|st|cp))\b"),
    "amdgcn": lazy_compile(r"^(global|buffer|flat|scratch|tbuffer)_"),
    "sass": lazy_compile(r"^(LD|ST|ATOM|RED(?!UX)|UTMA|UBLK)"),  # (REDUX: a warp's reduction in registers)
}


# Cache maintenance (`buffer_wbinvl1_vol` on gfx90a, `buffer_inv sc1` on gfx942, `buffer_gl0_inv` on
# gfx11, `global_inv`/`global_wb` on gfx12): writes back or invalidates caches around a barrier or an
# atomic, moves no data of the kernel's, like SASS's CCTL and PTX's fences.
_AMD_CACHE_MAINTENANCE = ("wbinvl1", "inv", "wb", "gl0_inv", "gl1_inv")


def _is_known_non_memory(stage: str, mnemonic: str) -> bool:
    if stage in ("amdgcn", "hsaco-asm"):
        unit, _, rest = mnemonic.partition("_")
        return unit in ("buffer", "global") and rest.startswith(_AMD_CACHE_MAINTENANCE)
    if stage == "ptx":
        return mnemonic.startswith(_PTX_SYNC_ONLY) or mnemonic.startswith(("ld.param", "st.param"))
    if stage == "sass":
        return mnemonic.split(".")[0] in ("LDC", "ULDC", "LDGDEPBAR", "DEPBAR", "UTMACCTL", "UTMACMDFLUSH")
    return False


# The order the AMDGPU ABI fills user SGPRs in, with each one's size, up to the kernel-argument pointer.
_USER_SGPRS_BEFORE_KERNARGS = (("private_segment_buffer", 4), ("dispatch_ptr", 2), ("queue_ptr", 2))
_SGPR = lazy_compile(r"^s(?:(\d{1,4})|\[(\d{1,4}):(\d{1,4})\])$")  # (106 SGPRs at most; no 5000-digit number)


def _sgprs(operand: str) -> frozenset[int]:
    m = _SGPR.match(operand.strip())
    if m is None:
        return frozenset()
    if m.group(1) is not None:
        return frozenset((int(m.group(1)),))
    return frozenset(range(int(m.group(2)), int(m.group(3)) + 1))


def _operands(op: Op) -> list[str]:
    text = op.text.split(";", 1)[0].split("//", 1)[0].strip()
    parts = text.split(None, 1)
    return [o.strip() for o in parts[1].split(",")] if len(parts) == 2 else []


def kernel_argument_loads(module: Module) -> set[int]:
    """The lines of the AMD scalar loads that read the kernel-argument segment: based on the SGPR pair the
    ABI loads its address into (`s[0:1]` when the kernel descriptor's `.amdhsa_user_sgpr_*` put nothing
    before it), or on a copy of it (`s_mov_b64 s[34:35], s[0:1]`), until an instruction writes over that
    pair (the scheduler reuses s[0:1] for data pointers once the arguments are read). One pass in text
    order per function; any instruction whose first operand overlaps a pair ends that pair's holding it
    (a store's or compare's too: only ever fewer loads are called arguments). A pair spilled to VGPR lanes
    (`v_writelane_b32 v206, s4, 0` and `s5, 1`) and read back (`v_readlane_b32 s4, v206, 0` and `s5, 1`)
    holds the address again: long kernels that run out of SGPRs reload their arguments so."""
    sgprs = module.user_sgprs
    if sgprs.get("kernarg_segment_ptr") != 1:
        return set()
    first = sum(size for name, size in _USER_SGPRS_BEFORE_KERNARGS if sgprs.get(name) == 1)
    entry = frozenset((first, first + 1))
    out: set[int] = set()
    function = object()
    holders: set[frozenset[int]] = set()
    lanes: dict[tuple[str, str], int] = {}  # (vgpr, lane) -> 0 or 1: which half of an address it keeps
    halves: dict[int, int] = {}  # sgpr -> the half of an address read back into it
    for op in module.ops:
        if op.function != function:
            function, holders, lanes, halves = op.function, {entry}, {}, {}
        operands = _operands(op)
        if not operands:
            continue
        if op.op.startswith("s_load") and len(operands) >= 2 and _sgprs(operands[1]) in holders:
            out.add(op.lineno)
        if op.op == "v_writelane_b32" and len(operands) >= 3:
            src = _sgprs(operands[1])
            half = next((sorted(h).index(r) for h in holders for r in src if r in h), None) if len(src) == 1 else None
            if half is None:
                lanes.pop((operands[0], operands[2]), None)
            else:
                lanes[(operands[0], operands[2])] = half
            continue  # (writes a VGPR lane, no SGPR)
        dst = _sgprs(operands[0])
        if op.op == "s_mov_b64" and len(operands) >= 2 and _sgprs(operands[1]) in holders:
            holders = {h for h in holders if not (h & dst)} | {dst}
        elif dst:
            holders = {h for h in holders if not (h & dst)}
            for r in dst:
                halves.pop(r, None)
            if op.op == "v_readlane_b32" and len(operands) >= 3 and len(dst) == 1 and \
                    (operands[1], operands[2]) in lanes:
                (r,) = dst
                halves[r] = lanes[(operands[1], operands[2])]
                low = r if halves[r] == 0 else r - 1
                if halves.get(low) == 0 and halves.get(low + 1) == 1:
                    holders.add(frozenset((low, low + 1)))
    return out
