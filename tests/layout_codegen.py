"""Any Triton release's code generator as a layout oracle (tests only): which element each register of each
thread holds, in register order, as that release's own lowering places it.

Releases before 3.6 expose no `to_linear_layout` to Python (3.5 only a yes/no conversion check,
tests/layout_equivalence.py). But every release compiles a TTGIR file (`triton.compile(path.ttgir,
target=...)`), no GPU needed. The probe kernel, in the release's own spelling of the case's layout:

    offsets = sum over dims d of expand_dims(make_range(0, S_d) in L sliced to d) * stride_d   (in L)
    tt.elementwise_inline_asm (side effects) on trunci(offsets) to the case's element width

Triton lowers the asm once per register, in register order, each taking that register's value; LLVM keeps
side-effecting asm calls in order. Evaluating the kernel's LLVM IR for every thread of the CTA at once
(tests/llvm_eval.py: thread id reads, integer arithmetic, shuffles) gives, per thread, the flat index of the
element in each register. Fitting a linear layout to that map (register bit i = the element of register
2^i of thread 0, lane and warp bits likewise) and checking every (thread, register) against the fit gives
bases in the format of tests/data/layout-oracle/triton-X.Y.json, register order included.

The layout text the release printed back (its TTGIR after parsing: a field it does not know is dropped, not
refused) is what is recorded and what tritonscope decodes: what a cache of that release would hold.

Run as a script in a subprocess with the release's folder first on PYTHONPATH: reads a JSON list of
`{"module": TTGIR text, "target": "cuda:90"}` on stdin, prints `[{"llir": ..., "ttgir": ...} | {"error"}]`.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile

ELEM_OF_BITS = {8: "i8", 16: "i16", 32: "i32", 64: "i64"}
ASM_OF_BITS = {8: ("mov.b16 $0, $1;", "=c,c"), 16: ("mov.b16 $0, $1;", "=h,h"), 32: ("mov.b32 $0, $1;", "=r,r"),
               64: ("mov.b64 $0, $1;", "=l,l")}


class Unspellable(Exception):
    pass


def _ints(v) -> str:
    return "[" + ", ".join(map(str, v)) + "]"


def _bases(v) -> str:
    return "[" + ", ".join(_ints(b) for b in v) + "]"


def prefix(release: tuple[int, int]) -> str:
    return "triton_gpu" if release <= (3, 2) else "ttg"


def spell(layout, release: tuple[int, int]) -> str:
    """The case's layout in `release`'s spelling (3.9's cases carry 3.9's); Unspellable where the release has
    no way to say it (a CGA of several CTAs, a WMMA layout built from bases, a linear layout before 3.3)."""
    p = prefix(release)
    if release >= (3, 6) and layout.text:
        return layout.text  # the cases are written in 3.9's spelling; its parser says what it reads
    kind = layout.kind
    rank = getattr(layout, "rank", None) or 2
    cga = _legacy_cga(getattr(layout, "cta", None), rank)
    if release < (3, 0) and kind in ("blocked", "nvidia_mma") and not cga:  # 2.x requires the fields
        cga = f", CTAsPerCGA = {_ints([1] * rank)}, CTASplitNum = {_ints([1] * rank)}, " \
              f"CTAOrder = {_ints(range(rank - 1, -1, -1))}"
    if kind == "blocked":
        return (f"#{p}.blocked<{{sizePerThread = {_ints(layout.size_per_thread)}, threadsPerWarp = "
                f"{_ints(layout.threads_per_warp)}, warpsPerCTA = {_ints(layout.warps_per_cta)}, "
                f"order = {_ints(layout.order)}{cga}}}>")
    if kind == "slice":
        return f"#{p}.slice<{{dim = {layout.dim}, parent = {spell(layout.parent, release)}}}>"
    if kind == "nvidia_mma":
        name = "mma" if release < (3, 0) else "nvidia_mma"  # 2.x: `#triton_gpu.mma`
        return (f"#{p}.{name}<{{versionMajor = {layout.version_major}, versionMinor = {layout.version_minor}, "
                f"warpsPerCTA = {_ints(layout.warps_per_cta)}{cga}, instrShape = {_ints(layout.instr_shape)}}}>")
    if kind == "dot_op":
        k = f", kWidth = {layout.k_width}" if layout.k_width else ""
        return f"#{p}.dot_op<{{opIdx = {layout.op_idx}, parent = {spell(layout.parent, release)}{k}}}>"
    if release < (3, 0) and kind.startswith("amd_"):
        raise Unspellable(f"{kind}: 2.x wheels have no AMD backend")
    if cga:
        raise Unspellable(f"a CGA of several CTAs on {kind}")
    if kind == "amd_mfma":
        version = (f"version = {layout.version}" if release >= (3, 5)
                   else f"versionMajor = {layout.version}, versionMinor = 0")
        instr = layout.instr_shape[:2] if release <= (3, 5) else layout.instr_shape
        tiles = ""
        if layout.tiles_per_warp and any(t != 1 for t in layout.tiles_per_warp):
            if release < (3, 5):
                raise Unspellable("tilesPerWarp (3.5+)")
            tiles = f", tilesPerWarp = {_ints(layout.tiles_per_warp)}"
        return (f"#{p}.amd_mfma<{{{version}, warpsPerCTA = {_ints(layout.warps_per_cta)}{tiles}, "
                f"instrShape = {_ints(instr)}, isTransposed = {str(layout.is_transposed).lower()}}}>")
    if kind == "linear":
        if release < (3, 3):
            raise Unspellable("a linear layout (3.3+)")
        b = layout.bases
        return (f"#{p}.linear<{{register = {_bases(b.get('register', []))}, lane = {_bases(b.get('lane', []))}, "
                f"warp = {_bases(b.get('warp', []))}, block = {_bases(b.get('block', []))}}}>")
    if kind == "amd_wmma":
        return _old_wmma(layout, p, release)
    raise Unspellable(f"{kind} is not probed before 3.6")


def _old_wmma(layout, p: str, release: tuple[int, int]) -> str:
    """Up to 3.6 a WMMA layout names its warpsPerCTA (3.7 writes bases over tiles, `ctaLayout`)."""
    from tritonscope.layouts.attrs import parse_layout

    if layout.register_bases:
        raise Unspellable("WMMA register bases in ctaLayout (3.7+)")
    transpose = ""
    if release >= (3, 3):
        transpose = f", isTranspose = {str(layout.is_transposed).lower()}"
    elif layout.is_transposed:
        raise Unspellable("a transposed WMMA layout (3.3+)")
    text = f"#{p}.amd_wmma<{{version = {layout.version}{transpose}, warpsPerCTA = {_ints(layout.warps_per_cta)}}}>"
    if parse_layout(text).warp_bases != layout.warp_bases:
        raise Unspellable("WMMA warps in an order warpsPerCTA cannot say")
    return text


def _legacy_cga(cta, rank: int) -> str:
    """3.9's `CGALayout = [[...]]` as the `CTAsPerCGA`/`CTASplitNum`/`CTAOrder` fields releases before 3.8
    spell (checked by converting them back); "" for one CTA; Unspellable where the fields cannot say it."""
    if cta is None or cta.trivial:
        return ""
    if not cta.cga_bases:
        return (f", CTAsPerCGA = {_ints(cta.ctas_per_cga)}, CTASplitNum = {_ints(cta.cta_split_num)}, "
                f"CTAOrder = {_ints(cta.cta_order)}")
    from tritonscope.layouts.combine import make_cga_layout
    from tritonscope.layouts.model import CTALayout

    order: list[int] = []
    split, ctas = [1] * rank, [1] * rank
    for b in cta.cga_bases:
        dims = [d for d, v in enumerate(b) if v]
        if len(dims) > 1:
            raise Unspellable("a CGA basis along two dims")
        if dims:
            d = dims[0]
            if order and order[-1] != d and d in order or ctas[d] != split[d]:
                raise Unspellable("a CGA the legacy fields cannot order")
            if not order or order[-1] != d:
                order.append(d)
            split[d] *= 2
            ctas[d] *= 2
        else:
            if not order:
                raise Unspellable("a CGA that starts broadcast")
            ctas[order[-1]] *= 2
    order += [d for d in range(rank) if d not in order]
    legacy = CTALayout(tuple(ctas), tuple(split), tuple(order))
    if make_cga_layout(legacy, rank).in_bases.get("block") != [tuple(b) for b in cta.cga_bases]:
        raise Unspellable("a CGA the legacy fields cannot say")
    return f", CTAsPerCGA = {_ints(ctas)}, CTASplitNum = {_ints(split)}, CTAOrder = {_ints(order)}"


def ctas_of(layout) -> int:
    """CTAs per CGA of a layout (its root's CTA layout)."""
    node = layout
    while getattr(node, "parent", None) is not None:
        node = node.parent
    cta = getattr(node, "cta", None)
    return 1 if cta is None else cta.num_ctas


def target_of(layout, lanes: int) -> str:
    """A target whose backend lowers the layout: an MFMA version's GPU, else cuda:90 (warp 32) or gfx942."""
    node = layout
    while getattr(node, "parent", None) is not None:
        node = node.parent
    if node.kind == "amd_mfma":
        return {1: "hip:gfx908", 2: "hip:gfx90a", 3: "hip:gfx942", 4: "hip:gfx950"}.get(node.version, "hip:gfx942")
    if node.kind == "amd_wmma":
        return "hip:gfx1200" if node.version >= 2 else "hip:gfx1100"
    return "cuda:90" if lanes == 32 else "hip:gfx942"


def probe_module(text: str, shape: list[int], bits: int, warps: int, lanes: int, release: tuple[int, int],
                 target: str, store: bool = False, ctas: int = 1) -> str:
    """The probe kernel `@k` for one layout (text in the release's spelling) and shape. `store`: instead of
    the asm calls, each thread stores its `%tid.x` at `out + element index` (`@k(%out)`, NVIDIA: the
    hardware check of tests/test_gpu_layout_probe.py; one holder of each element writes it)."""
    p = prefix(release)
    rank = len(shape)
    full = "x".join(map(str, shape))
    lines = []

    def fn(ty: str) -> str:
        """An op's source type: up to 2.3 written as a function type's argument, `(tensor<...>) -> ...`."""
        return f"({ty})" if release < (3, 0) else ty

    def sliced(keep: int) -> str:
        """L with every dim but `keep` sliced away, highest first: a 1-D layout along `keep`."""
        out = "#L"
        for d in reversed(range(rank)):
            if d != keep:
                out = f"#{p}.slice<{{dim = {d}, parent = {out}}}>"
        return out

    terms = []
    for d in range(rank):
        lay = sliced(d)
        cur = f"%r{d}"
        lines.append(f"    {cur} = tt.make_range {{end = {shape[d]} : i32, start = 0 : i32}} : "
                     f"tensor<{shape[d]}xi32, {lay}>")
        cur_shape = [shape[d]]
        cur_dims = [d]
        for e in range(rank):  # expand back one dim at a time, in increasing order
            if e == d:
                continue
            pos = sorted(cur_dims + [e]).index(e)
            cur_dims = sorted(cur_dims + [e])
            new_shape = [shape[x] if x in cur_dims and x == d else 1 for x in cur_dims]
            src_lay = lay
            lay = "#L"
            for x in reversed(range(rank)):
                if x not in cur_dims:
                    lay = f"#{p}.slice<{{dim = {x}, parent = {lay}}}>"
            src_ty = f"tensor<{'x'.join(map(str, cur_shape))}xi32, {src_lay}>"
            dst_ty = f"tensor<{'x'.join(map(str, new_shape))}xi32, {lay}>"
            nxt = f"%e{d}_{e}"
            lines.append(f"    {nxt} = tt.expand_dims {cur} {{axis = {pos} : i32}} : {fn(src_ty)} -> {dst_ty}")
            cur, cur_shape = nxt, new_shape
        if rank > 1:
            ty = f"tensor<{'x'.join(map(str, cur_shape))}xi32, #L>"
            lines.append(f"    %b{d} = tt.broadcast {cur} : {fn(ty)} -> tensor<{full}xi32, #L>")
            cur = f"%b{d}"
        stride = 1
        for x in shape[d + 1:]:
            stride *= x
        if stride != 1:
            lines.append(f"    %s{d} = arith.constant dense<{stride}> : tensor<{full}xi32, #L>")
            lines.append(f"    %m{d} = arith.muli {cur}, %s{d} : tensor<{full}xi32, #L>")
            cur = f"%m{d}"
        terms.append(cur)
    acc = terms[0]
    for i, t in enumerate(terms[1:]):
        lines.append(f"    %a{i} = arith.addi {acc}, {t} : tensor<{full}xi32, #L>")
        acc = f"%a{i}"
    if store:
        i32 = f"tensor<{full}xi32, #L>"
        ptrs = f"tensor<{full}x!tt.ptr<i32>, #L>"
        lines += [f'    %tid = tt.elementwise_inline_asm "mov.u32 $0, %tid.x;" {{constraints = "=r,r", '
                  f"packed_element = 1 : i32, pure = false}} {acc} : {i32} -> {i32}",
                  f"    %sp = tt.splat %out : {fn('!tt.ptr<i32>')} -> {ptrs}",
                  f"    %ptr = tt.addptr %sp, {acc} : {ptrs}, {i32}",
                  f"    tt.store %ptr, %tid : {ptrs}"]
    parts = [] if store else [acc] if bits >= 16 else [acc, None]  # 8 bits: the low byte, then the high byte
    for i, part in enumerate(parts):
        src = part
        if part is None:
            lines.append(f"    %c8 = arith.constant dense<8> : tensor<{full}xi32, #L>")
            lines.append(f"    %hi = arith.shrui {acc}, %c8 : tensor<{full}xi32, #L>")
            src = "%hi"
        elem = ELEM_OF_BITS[bits]
        val = src
        if bits != 32:
            op = "arith.extsi" if bits == 64 else "arith.trunci"
            lines.append(f"    %t{i} = {op} {src} : tensor<{full}xi32, #L> to tensor<{full}x{elem}, #L>")
            val = f"%t{i}"
        asm, constraints = ASM_OF_BITS[bits] if target.startswith("cuda") else ("v_mov_b32 $0, $1", "=v,v")
        lines.append(f'    %x{i} = tt.elementwise_inline_asm "{asm}" {{constraints = "{constraints}", '
                     f'packed_element = 1 : i32, pure = false}} {val} : tensor<{full}x{elem}, #L> -> '
                     f'tensor<{full}x{elem}, #L>')
    from layout_oracle import module_text

    args = "%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}" if store else ""
    return f"#L = {text}\n" + module_text("\n".join(lines), warps, lanes, ctas, p, target, args,
                                          legacy=release < (3, 0))


def _compile_2x(triton, path: str, target: str):
    """2.2 and 2.3 compile a TTGIR file with their own calls (no GPUTarget); a 2.2 compile then builds its
    launcher, which needs CUDA's driver library: the stages are in the cache by then, so it is skipped."""
    arch = int(target.split(":")[1])
    if tuple(int(x) for x in triton.__version__.split(".")[:2]) >= (2, 3):
        return triton.compile(path, target=("cuda", arch))
    import triton.compiler.compiler as compiler

    compiler.make_stub = lambda *a, **k: "/nonexistent/launcher.so"
    return triton.compile(path, cc=arch)


def main() -> None:
    import glob

    import triton
    import triton._C.libtriton as lib

    legacy = triton.__version__.startswith("2.")
    if legacy:
        ir = lib.triton.ir
        ctx = ir.context()
    else:
        from triton.backends.compiler import GPUTarget

        ir = lib.ir
        ctx = ir.context()
        ir.load_dialects(ctx)
    for extra in ("nvidia", "amd"):
        try:
            getattr(lib, extra).load_dialects(ctx)
        except Exception:  # noqa: BLE001,S110 - a release without that backend's dialects
            pass

    jobs = json.load(sys.stdin)
    done = open(sys.argv[1], "a") if len(sys.argv) > 1 else None  # one line per finished job
    # AMD's backend asks for ROCm's linker before it compiles anything; the probe needs no HSACO (its
    # LLVM IR is read from the cache when the link then fails)
    os.environ.setdefault("TRITON_HIP_LLD_PATH", "/bin/true")
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, job in enumerate(jobs):
            backend, arch = job["target"].split(":")
            if not legacy:
                target = GPUTarget(backend, int(arch) if backend == "cuda" else arch, 32 if backend == "cuda"
                                   else (32 if arch.startswith("gfx11") or arch.startswith("gfx12") else 64))
            path = os.path.join(tmp, f"p{i}.ttgir")
            with open(path, "w") as f:
                f.write(job["module"])
            cache = os.path.join(tmp, f"c{i}")
            os.environ["TRITON_CACHE_DIR"] = cache
            try:
                printed = str(ir.parse_mlir_module(path, ctx))
            except Exception as exc:  # noqa: BLE001
                out.append({"error": f"Triton's parser refused it: {' '.join(str(exc).split())[:300]}"})
                _done(done, out[-1])
                continue
            try:
                if legacy:
                    k = _compile_2x(triton, path, job["target"])
                else:
                    k = triton.compile(path, target=target, options={"num_ctas": job.get("ctas", 1)})
                out.append({"llir": k.asm["llir"], "ttgir": printed})
            except Exception as exc:  # noqa: BLE001 - a later stage may fail: the LLVM IR is what we read
                llir = glob.glob(os.path.join(cache, "*", "*.llir"))
                if llir:
                    out.append({"llir": open(llir[0]).read(), "ttgir": printed})
                else:
                    msg = " ".join(str(exc).split())
                    out.append({"error": f"{type(exc).__name__}: {msg[:300]}"})
            _done(done, out[-1])
    sys.stdout.write(json.dumps(out))
    sys.stdout.flush()
    os._exit(0)


def _done(f, result: dict) -> None:
    if f is not None:
        f.write(json.dumps(result) + "\n")
        f.flush()


def run(jobs: list[dict], folder: str) -> list[dict]:
    """The release in `folder` compiles every job. Each answer is written as it comes (a line of a file),
    so a job that aborts libtriton is recorded as crashed and the rest run on in a new process."""
    import subprocess

    env = {**os.environ, "PYTHONPATH": folder + os.pathsep + os.environ.get("PYTHONPATH", "")}
    results: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        env["TMPDIR"] = tmp  # the script's temp folders inside ours: a process libtriton aborts leaves them
        while len(results) < len(jobs):
            lines = os.path.join(tmp, "done.jsonl")
            open(lines, "w").close()
            proc = subprocess.run([sys.executable, __file__, lines], input=json.dumps(jobs[len(results):]),
                                  capture_output=True, text=True, timeout=3600, check=False, env=env)
            with open(lines) as f:
                results.extend(json.loads(line) for line in f if line.strip())
            if proc.returncode != 0 and len(results) < len(jobs):
                tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
                results.append({"error": f"crashed (rc {proc.returncode}): {tail[:200]}"})
    return results


def printed_layout(ttgir: str) -> str | None:
    """The probed layout as the release printed it back (aliases expanded): the asm result's encoding."""
    aliases = dict(re.findall(r"^(#[\w.]+) = (.*)$", ttgir, re.M))
    m = re.search(r"tt\.elementwise_inline_asm[^\n]*-> tensor<[0-9x]+x?i\d+, (.*)>\s*(?:loc\(.*\))?$", ttgir, re.M)
    if not m:
        return None
    text = m[1]
    for _ in range(8):
        new = re.sub(r"#[\w]+(?![\w.<])", lambda a: aliases.get(a[0], a[0]), text)
        if new == text:
            break
        text = new
    return text


def coords(flat: int, shape: list[int]) -> list[int]:
    out = []
    for s in reversed(shape):
        out.append(flat % s)
        flat //= s
    return out[::-1]


def fit(per_thread: list[list[int]], shape: list[int], warps: int, lanes: int, ctas: int = 1) -> dict:
    """The linear layout bases a (thread -> elements by register) map is, or an error naming the first
    (thread, register) no linear layout explains. With several CTAs, `per_thread` runs over every CTA's
    threads in turn (CTA c's thread t at c * warps * lanes + t)."""
    regs = len(per_thread[0])
    if any(len(r) != regs for r in per_thread):
        return {"error": "threads hold different numbers of registers"}
    if regs & (regs - 1) or lanes & (lanes - 1) or warps & (warps - 1) or ctas & (ctas - 1):
        return {"error": f"not a power of two: {regs} registers"}
    per_cta = warps * lanes

    def c(t, k):
        return coords(per_thread[t][k], shape)

    if per_thread[0][0] != 0:
        return {"error": "thread 0's register 0 does not hold element 0"}
    bases = {
        "register": [c(0, 1 << i) for i in range(regs.bit_length() - 1)],
        "lane": [c(1 << i, 0) for i in range(lanes.bit_length() - 1)],
        "warp": [c(lanes << i, 0) for i in range(warps.bit_length() - 1)],
        "block": [c(per_cta << i, 0) for i in range(ctas.bit_length() - 1)],
    }
    for t in range(ctas * per_cta):
        lane, warp, block = t % lanes, t % per_cta // lanes, t // per_cta
        base = [0] * len(shape)
        for i, b in enumerate(bases["block"]):
            if block >> i & 1:
                base = [x ^ y for x, y in zip(base, b, strict=True)]
        for i, b in enumerate(bases["lane"]):
            if lane >> i & 1:
                base = [x ^ y for x, y in zip(base, b, strict=True)]
        for i, b in enumerate(bases["warp"]):
            if warp >> i & 1:
                base = [x ^ y for x, y in zip(base, b, strict=True)]
        for k in range(regs):
            want = list(base)
            for i, b in enumerate(bases["register"]):
                if k >> i & 1:
                    want = [x ^ y for x, y in zip(want, b, strict=True)]
            if c(t, k) != want:
                return {"error": f"not linear: thread {t} register {k} holds {c(t, k)}, the fit says {want}"}
    total = 1
    for s in shape:
        total *= s
    held = {x for r in per_thread for x in r}
    if len(held) != total:  # no layout leaves an element unheld: the lowering disagrees with itself
        return {"bases": bases, "unheld": total - len(held)}
    return {"bases": bases}


if __name__ == "__main__":
    main()
