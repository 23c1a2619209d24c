"""A lockstep evaluator for the straight-line integer LLVM IR Triton emits for a layout probe (tests only).

tests/layout_codegen.py compiles, with each Triton release, a kernel that computes every element's flat
index in a tensor of the probed layout and hands each register to a side-effecting inline asm (in register
order). This module runs that kernel's LLVM IR for every thread of the CTA at once (a list of values per
SSA name, one per thread): the thread id read, integer arithmetic, compares and selects, vector packing,
warp shuffles and `readfirstlane` (read from the source lane's value, as the hardware does). It returns,
for each thread, the integers passed to the asm calls in program order: the elements the thread holds,
register by register, as that release's code generator placed them.

Anything else (a branch, a load, an op it does not know) raises `Unsupported`: the probe then has no
verdict, never a guessed one.
"""

from __future__ import annotations

import re


class Unsupported(Exception):
    pass


_DEF = re.compile(r"^\s*(%[\w.]+)\s*=\s*(.*)$")
_TYPE_INT = re.compile(r"^i(\d+)$")
_VEC = re.compile(r"^<(\d+)\s*x\s*i(\d+)>$")
_ASM = re.compile(r'asm\s+(?P<effects>sideeffect\s+)?(?:alignstack\s+)?(?:inteldialect\s+)?"((?:[^"\\]|\\.)*)",'
                  r'\s*"((?:[^"\\]|\\.)*)"\s*\((.*)\)')
_CALL = re.compile(r"@([\w.$]+)\s*\((.*)\)")
_FLAGS = {"nuw", "nsw", "exact", "disjoint", "tail", "notail", "musttail", "nneg", "samesign", "range"}
_SREG = {
    "llvm.nvvm.read.ptx.sreg.tid.x": "tid", "llvm.amdgcn.workitem.id.x": "tid",
    "llvm.nvvm.read.ptx.sreg.laneid": "lane",
    "llvm.amdgcn.wave.id": "wave",
    "llvm.nvvm.read.ptx.sreg.tid.y": "zero", "llvm.nvvm.read.ptx.sreg.tid.z": "zero",
    "llvm.amdgcn.workitem.id.y": "zero", "llvm.amdgcn.workitem.id.z": "zero",
    # a CGA is launched as a cluster of (CTAs, 1, 1): its CTA id is ctaid.x, its size nctaid.x
    "llvm.nvvm.read.ptx.sreg.cluster.ctarank": "block", "llvm.nvvm.read.ptx.sreg.cluster.ctaid.x": "block",
    "llvm.nvvm.read.ptx.sreg.cluster.ctaid.y": "zero", "llvm.nvvm.read.ptx.sreg.cluster.ctaid.z": "zero",
    "llvm.nvvm.read.ptx.sreg.cluster.nctaid.x": "ctas", "llvm.nvvm.read.ptx.sreg.cluster.nctaid.y": "one",
    "llvm.nvvm.read.ptx.sreg.cluster.nctaid.z": "one", "llvm.nvvm.read.ptx.sreg.cluster.nctarank": "ctas",
    "llvm.nvvm.read.ptx.sreg.ctaid.x": "zero", "llvm.nvvm.read.ptx.sreg.ctaid.y": "zero",
    "llvm.nvvm.read.ptx.sreg.ctaid.z": "zero",
    "llvm.amdgcn.workgroup.id.x": "zero", "llvm.amdgcn.workgroup.id.y": "zero", "llvm.amdgcn.workgroup.id.z": "zero",
}


def _split_top(text: str) -> list[str]:
    """Split at commas outside brackets, braces, angles and parentheses."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _strip_meta(line: str) -> str:
    # `, !dbg !12`, `, !range !3` and `#1` attribute groups after a call
    line = re.sub(r",\s*!\w+\s+!\d+", "", line)
    return re.sub(r"\s+#\d+\s*$", "", line).strip()


class Lockstep:
    """Values of one CTA's threads: `threads` lanes per warp `lanes`, block id `block`."""

    def __init__(self, threads: int, lanes: int, block: int = 0, ctas: int = 1):
        self.n, self.lanes, self.block, self.ctas = threads, lanes, block, ctas
        self.values: dict[str, tuple[str, list]] = {}
        self.calls: list[list] = []  # per asm call: the per-thread list of its operands' integers

    # -- operands -----------------------------------------------------------------------------------
    def operand(self, ty: str, tok: str) -> list:
        tok = tok.strip()
        if tok.startswith("%"):
            if tok not in self.values:
                raise Unsupported(f"value {tok} used before it is defined")
            return self.values[tok][1]
        vec = _VEC.match(ty)
        if vec:
            count, bits = int(vec[1]), int(vec[2])
            if tok in ("poison", "undef", "zeroinitializer"):
                return [[0] * count for _ in range(self.n)]
            if tok.startswith("<") and tok.endswith(">"):
                items = [_split_top(tok[1:-1])[i].split()[-1] for i in range(count)]
                consts = [self._const(f"i{bits}", x) for x in items]
                return [list(consts) for _ in range(self.n)]
            raise Unsupported(f"vector constant {tok!r}")
        return [self._const(ty, tok)] * self.n

    @staticmethod
    def _const(ty: str, tok: str) -> int:
        m = _TYPE_INT.match(ty)
        if not m:
            raise Unsupported(f"type {ty!r}")
        bits = int(m[1])
        if tok == "true":
            return 1
        if tok in ("false", "poison", "undef", "zeroinitializer"):
            return 0
        try:
            return int(tok) & ((1 << bits) - 1)
        except ValueError:
            raise Unsupported(f"constant {tok!r}") from None

    def typed(self, text: str) -> tuple[str, list]:
        """`i32 %5` / `<2 x i16> %v` / `i1 true` (attributes like `noundef` skipped)."""
        text = text.strip()
        words = text.split()
        while words and words[0] in ("noundef", "signext", "zeroext", "inreg", "immarg"):
            words = words[1:]
        text = " ".join(words)
        if text.startswith("<"):
            end = text.index(">") + 1
            ty, tok = text[:end], text[end:].strip()
        else:
            ty, _, tok = text.partition(" ")
        while tok.split() and tok.split()[0] in ("noundef", "signext", "zeroext", "inreg", "immarg"):
            tok = tok.split(None, 1)[1]
        return ty, self.operand(ty, tok)

    # -- instructions -------------------------------------------------------------------------------
    def run(self, body: list[str]) -> None:
        for raw in body:
            line = _strip_meta(raw)
            if not line or line.startswith(";") or line == "ret void" or line.endswith(":"):
                continue
            if line.startswith("ret "):
                continue
            m = _DEF.match(line)
            name, rhs = (m[1], m[2]) if m else (None, line)
            value = self.eval(rhs)
            if name is not None:
                if value is None:
                    raise Unsupported(f"no value for {line!r}")
                self.values[name] = value

    def eval(self, rhs: str):
        words = rhs.split()
        while words and words[0] in _FLAGS:
            words = words[1:]
        op = words[0]
        rest = " ".join(words[1:])
        while rest.split() and rest.split()[0] in _FLAGS:
            rest = rest.split(None, 1)[1]
        if op == "call":
            return self._call(rest)
        if op in _BINOPS:
            ty, ops = _take_type(rest)
            a, b = _split_top(ops)
            return ty, _lift(_BINOPS[op], ty, self.operand(ty, a), self.operand(ty, b))
        if op == "icmp":
            pred, rest = rest.split(None, 1)
            ty, ops = _take_type(rest)
            a, b = _split_top(ops)
            bits = _bits(ty)
            f = _ICMP[pred]
            vec = _VEC.match(ty)
            values = _lift(lambda x, y, bits=bits: int(f(x, y, bits)), ty, self.operand(ty, a), self.operand(ty, b))
            return (f"<{vec[1]} x i1>" if vec else "i1"), values
        if op == "select":
            c, a, b = _split_top(rest)
            _, cv = self.typed(c)
            ty, av = self.typed(a)
            _, bv = self.typed(b)
            return ty, [x if k else y for k, x, y in zip(cv, av, bv, strict=True)]
        if op in ("zext", "sext", "trunc", "bitcast"):
            src, _, dst = rest.rpartition(" to ")
            ty, v = self.typed(src)
            return dst.strip(), _cast(op, ty, dst.strip(), v)
        if op == "freeze":
            return self.typed(rest)
        if op == "insertelement":
            vec, elem, idx = _split_top(rest)
            ty, vv = self.typed(vec)
            _, ev = self.typed(elem)
            _, iv = self.typed(idx)
            out = []
            for v, e, i in zip(vv, ev, iv, strict=True):
                v = list(v)
                v[i] = e
                out.append(v)
            return ty, out
        if op == "extractelement":
            vec, idx = _split_top(rest)
            ty, vv = self.typed(vec)
            _, iv = self.typed(idx)
            elem = f"i{_VEC.match(ty)[2]}"
            return elem, [v[i] for v, i in zip(vv, iv, strict=True)]
        if op == "shufflevector":
            a, b, mask = _split_top(rest)
            ty, av = self.typed(a)
            _, bv = self.typed(b)
            mty, _, mtok = mask.partition(">")
            idx = [int(x.split()[-1]) if x.split()[-1] not in ("poison", "undef") else 0
                   for x in _split_top(mtok.strip()[1:-1])] if mtok.strip() not in ("zeroinitializer",) else \
                [0] * int(_VEC.match(mty + ">")[1])
            out_ty = f"<{len(idx)} x i{_VEC.match(ty)[2]}>"
            return out_ty, [[(x + y)[i] for i in idx] for x, y in zip(av, bv, strict=True)]
        raise Unsupported(f"LLVM op {op!r}")

    def _call(self, rest: str):
        asm = _ASM.search(rest)
        ret_ty = rest.split()[0] if not rest.startswith("asm") else "void"
        if asm and not asm["effects"]:
            # Triton's own pure asm: a special register (a CGA's linear CTA id from %cluster_ctaid.x/y/z and
            # %cluster_nctaid, or %cluster_ctarank) is this CTA's `block`; anything else is not known here
            if "%cluster_ctarank" in asm[2] or "%cluster_ctaid" in asm[2]:
                return "i32", [self.block] * self.n
            raise Unsupported(f"asm {asm[2][:60]!r}")
        if asm:
            args = [self.typed(a) for a in _split_top(asm[4])]
            per_thread = []
            for t in range(self.n):
                row = []
                for _ty, v in args:
                    x = v[t]
                    if isinstance(x, list):
                        row.extend(x)
                    else:
                        row.append(x)
                per_thread.append(row)
            self.calls.append(per_thread)
            if ret_ty == "void":  # (the probe's calls: side effects, one per register, in order)
                return None
            vec = _VEC.match(ret_ty)
            return ret_ty, ([[0] * int(vec[1]) for _ in range(self.n)] if vec else [0] * self.n)
        m = _CALL.search(rest)
        if not m:
            raise Unsupported(f"call {rest[:80]!r}")
        fn, args = m[1], [self.typed(a) for a in _split_top(m[2])] if m[2].strip() else []
        ret_ty = rest.split()[0]
        if ret_ty == "void" and (fn.startswith("llvm.nvvm.barrier") or fn.startswith("llvm.amdgcn.s.barrier")):
            return None  # a barrier (3.9 fences a CGA's CTAs): no value, the same for every thread
        kind = _SREG.get(fn)
        if kind == "tid":
            return "i32", list(range(self.n))
        if kind == "lane":
            return "i32", [t % self.lanes for t in range(self.n)]
        if kind == "wave":  # the wave within the workgroup (gfx12's s_get_wave_id)
            return "i32", [t // self.lanes for t in range(self.n)]
        if kind == "zero":
            return "i32", [0] * self.n
        if kind == "block":
            return "i32", [self.block] * self.n
        if kind in ("ctas", "one"):
            return "i32", [self.ctas if kind == "ctas" else 1] * self.n
        if fn.startswith("llvm.nvvm.shfl.sync.idx"):
            (_, _mask), (_, v), (_, src), (_, clamp) = args
            return ret_ty, [v[(t // self.lanes) * self.lanes + (src[t] & 31)] for t in range(self.n)]
        if fn.startswith("llvm.amdgcn.readfirstlane"):
            (_, v), = args
            return ret_ty, [v[(t // self.lanes) * self.lanes] for t in range(self.n)]
        if fn.startswith("llvm.amdgcn.mbcnt.lo"):
            (_, mask), (_, acc) = args
            return "i32", [acc[t] + bin(mask[t] & ((1 << min(t % self.lanes, 32)) - 1)).count("1")
                           for t in range(self.n)]
        if fn.startswith("llvm.amdgcn.mbcnt.hi"):
            (_, mask), (_, acc) = args
            return "i32", [acc[t] + bin(mask[t] & ((1 << max(t % self.lanes - 32, 0)) - 1)).count("1")
                           for t in range(self.n)]
        for name, f in (("llvm.umin", min), ("llvm.umax", max)):
            if fn.startswith(name + "."):
                (ty, a), (_, b) = args
                return ty, _lift(lambda x, y, bits, f=f: f(x, y), ty, a, b)
        for name, f in (("llvm.smin", min), ("llvm.smax", max)):
            if fn.startswith(name + "."):
                (ty, a), (_, b) = args
                return ty, _lift(lambda x, y, bits, f=f: f(_signed(x, bits), _signed(y, bits)), ty, a, b)
        raise Unsupported(f"call of @{fn}")


def _take_type(text: str) -> tuple[str, str]:
    """(`<2 x i32>` or `i32`, the rest) of `TYPE operands`."""
    text = text.strip()
    if text.startswith("<"):
        end = text.index(">") + 1
        return text[:end], text[end:].strip()
    ty, _, rest = text.partition(" ")
    return ty, rest


def _bits(ty: str) -> int:
    m = _TYPE_INT.match(ty) or _VEC.match(ty)
    if not m:
        raise Unsupported(f"type {ty!r}")
    return int(m[m.lastindex])


def _signed(x: int, bits: int) -> int:
    return x - (1 << bits) if x >> (bits - 1) & 1 else x


def _lift(f, ty: str, a: list, b: list) -> list:
    bits = _bits(ty)
    mask = (1 << bits) - 1
    if _VEC.match(ty):
        return [[f(x, y, bits) & mask for x, y in zip(u, v, strict=True)] for u, v in zip(a, b, strict=True)]
    return [f(x, y, bits) & mask for x, y in zip(a, b, strict=True)]


def _cast(op: str, src: str, dst: str, v: list) -> list:
    sb, db = _bits(src), _bits(dst)
    sv, dv = _VEC.match(src), _VEC.match(dst)
    if op == "bitcast":
        if sv and not dv:  # <n x iK> -> iN: little-endian packing
            k = int(sv[2])
            return [sum(x << (k * i) for i, x in enumerate(row)) for row in v]
        if dv and not sv:
            n, k = int(dv[1]), int(dv[2])
            return [[(x >> (k * i)) & ((1 << k) - 1) for i in range(n)] for x in v]
        if sv and dv and sv[2] == dv[2]:
            return v
        if not sv and not dv:
            return v
        raise Unsupported(f"bitcast {src} to {dst}")
    if sv or dv:
        raise Unsupported(f"vector {op}")
    mask = (1 << db) - 1
    if op == "trunc" or op == "zext":
        return [x & mask for x in v]
    return [_signed(x, sb) & mask for x in v]  # sext


_BINOPS = {
    "add": lambda x, y, b: x + y,
    "sub": lambda x, y, b: x - y,
    "mul": lambda x, y, b: x * y,
    "and": lambda x, y, b: x & y,
    "or": lambda x, y, b: x | y,
    "xor": lambda x, y, b: x ^ y,
    "shl": lambda x, y, b: x << y if y < b else 0,
    "lshr": lambda x, y, b: x >> y,
    "ashr": lambda x, y, b: _signed(x, b) >> y,
    "udiv": lambda x, y, b: x // y,
    "urem": lambda x, y, b: x % y,
    "sdiv": lambda x, y, b: int(_signed(x, b) / _signed(y, b)),
    "srem": lambda x, y, b: _signed(x, b) - int(_signed(x, b) / _signed(y, b)) * _signed(y, b),
}
_ICMP = {
    "eq": lambda x, y, b: x == y, "ne": lambda x, y, b: x != y,
    "ult": lambda x, y, b: x < y, "ule": lambda x, y, b: x <= y,
    "ugt": lambda x, y, b: x > y, "uge": lambda x, y, b: x >= y,
    "slt": lambda x, y, b: _signed(x, b) < _signed(y, b), "sle": lambda x, y, b: _signed(x, b) <= _signed(y, b),
    "sgt": lambda x, y, b: _signed(x, b) > _signed(y, b), "sge": lambda x, y, b: _signed(x, b) >= _signed(y, b),
}


def kernel_body(llir: str, name: str = "k") -> list[str]:
    """The instruction lines of `define ... @name(...)`; a function with more than one block is refused."""
    lines = llir.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith("define") and f"@{name}(" in ln), None)
    if start is None:
        raise Unsupported(f"no function @{name} in the LLVM IR")
    body = []
    for ln in lines[start + 1:]:
        if ln.startswith("}"):
            break
        s = ln.strip()
        if s.endswith(":") or re.match(r"^\d+:", s) or s.startswith("br ") or " phi " in f" {s} ":
            raise Unsupported("control flow in the probe kernel")
        body.append(ln)
    return body


def asm_operands(llir: str, threads: int, lanes: int, block: int = 0, ctas: int = 1) -> list[list[int]]:
    """Per thread of CTA `block` (of `ctas`), the integers handed to the kernel's side-effecting inline asm
    calls, in program order."""
    state = Lockstep(threads, lanes, block, ctas)
    state.run(kernel_body(llir))
    return [[x for call in state.calls for x in call[t]] for t in range(threads)]
