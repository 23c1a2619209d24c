"""Seeds, mutations and the contract check shared by the fuzz tests (tests/test_fuzz_*.py).

Seeds are real artifacts: small corpus files per stage, plus disassembler output committed under
tests/data/fuzz/ (nvdisasm -c -gi and llvm-objdump-19 --line-numbers of corpus binaries; see its README).
Mutations are the ways real files go bad: truncation at any byte, byte flips, lines deleted, duplicated,
shuffled, spliced, invalid UTF-8, NUL bytes, CRLF line endings, syntax-shaped junk.

The contract: bytes go through `decode_text` and the parser; the only exception that may escape is
ParseError naming the path and a line. `STATS` counts what ran, `fixtures_fuzz.py` prints it.
"""

from __future__ import annotations

import json
import os
import random
import signal
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tritonscope.errors import ParseError
from tritonscope.stages.common import Module, decode_text

TESTS = Path(__file__).resolve().parent
FUZZ_DATA = TESTS / "data" / "fuzz"
CORPUS = next((p for p in (TESTS.parent.parent / "shared" / "corpus", TESTS.parent / "shared" / "corpus")
               if p.is_dir()), TESTS.parent.parent / "shared" / "corpus")

# stage -> seed files: the smallest real artifacts that still hold every location form of that stage
# (3.2 and 3.9 syntax, inlined helpers, Inductor's NameLocs), relative to the corpus or tests/data.
SEEDS: dict[str, list[str]] = {
    "source": ["corpus:triton-3.9.0/7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ/add_kernel.source"],
    "ttir": ["corpus:triton-3.9.0/7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ/add_kernel.ttir",
             "corpus:triton-3.2.0/YggLLav5s053cqeBrXL-kOCDM8B3b1VPeCYxsGAG2aw/add_kernel.ttir"],
    "ttgir": ["corpus:triton-3.9.0/TWWPLXS2UOETQNB37UVKIJKEJSGQVY6IHVAXHM37QTBLWHZ7HVBA/softmax_kernel.ttgir",
              "corpus:triton-3.2.0/YggLLav5s053cqeBrXL-kOCDM8B3b1VPeCYxsGAG2aw/add_kernel.ttgir",
              "corpus:inductor-h200-triton3.6/triton_cache/ZW2VSHEADG6ADYVUDWSPKQWKYSLHLCIEPTSTG46JKXLXNJAHMOXQ/"
              "triton_poi_fused__unsafe_view_add_clone_select_squeeze_transpose_unsqueeze_view_5.ttgir",
              # a Gluon kernel whose TTGIR keeps helpers as functions (tt.call), one never called
              "data:thirdparty-gfx950-triton3.9/sglang/DUELNOYX4WPDNXI7DJYSF2JFESR3OND7M2TGJJRFTK5YN7EVNU5A/"
              "_compact_attention_kernel.ttgir"],
    "llir": ["corpus:triton-3.9.0/7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ/add_kernel.llir",
             "corpus:triton-3.9.0/DSGZWRL6F75J7DKUJWNCQUBGNNHCHP5D6VCKUMARQG3WTYEXZQ6A/add_kernel.llir"],
    "ptx": ["corpus:triton-3.9.0/7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ/add_kernel.ptx",
            "corpus:triton-3.2.0/YggLLav5s053cqeBrXL-kOCDM8B3b1VPeCYxsGAG2aw/add_kernel.ptx"],
    "amdgcn": ["corpus:triton-3.9.0/DSGZWRL6F75J7DKUJWNCQUBGNNHCHP5D6VCKUMARQG3WTYEXZQ6A/add_kernel.amdgcn",
               "corpus:triton-3.2.0/DxlJ3mxuryloflPzWu1tm5a4YynUiO3aOkv6PaXVFm0/add_kernel.amdgcn"],
    "sass": ["data:fuzz/add_kernel.cuda90.sass", "data:fuzz/gemv_loop_kernel.cuda90.part.sass"],
    "hsaco-asm": ["data:fuzz/add_kernel.gfx942.hsaco-asm", "data:fuzz/gemv_loop_kernel.gfx942.part.hsaco-asm"],
}
PARSED = tuple(SEEDS)

# Lines shaped like each syntax's location and op forms, spliced in to reach the parsers' odd corners.
JUNK_LINES: list[bytes] = [
    b"#loc9 = loc(callsite(#loc9 at #loc9))", b"#loc = loc(", b'loc("x"(#loc404))', b"loc(fused[#loc1, unknown])",
    b'#loc1 = loc("f.py":99999999999999999999999:1)', b'%0 = "tt.reduce"(%a) ({', b"}) : (tensor<4xf32>) -> f32",
    b"} loc(#loc3)", b"tt.func public @k(", b"!5 = !DILocation(line: 3, column: 2, scope: !5, inlinedAt: !5)",
    b"!6 = distinct !DISubprogram(name: \"k\", file: !6)", b'!7 = !DIFile(filename: "a.py", directory: "")',
    b"  %x = load i32, ptr %p, !dbg !404", b".loc 1 2 3, function_name $L__info_string0, inlined_at 1 2 3",
    b".loc 99 4294967296 -1", b'.file 1 "/tmp/a.py"', b".file 2 \"d\" \"n.py\"", b"@%p1 bra $L__BB0_1;",
    b"{", b"}", b"ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1 + 0];", b"\t//## File \"k.py\", line 12",
    b'\t//## File "k.py", line 7 inlined at "k.py", line 7', b"/*0040*/ @!PT LDG.E.128 R4, desc[UR4][R2.64] ;",
    b"; k.py:12:3 @[ k.py:40:1 @[ k.py:40:1 ] ]", b"; /tmp/k.py:77", b"0000000000001700 <k>:",
    b"  s_waitcnt lgkmcnt(0)  // 000000001718: BF8CC07F", b"; NumVgprs: 99999999999999999999",
    b"#blocked = #ttg.blocked<{sizePerThread = [1, 4", b"x" * 300, b"9" * 5000, b"(" * 500, b"<" * 500,
]
INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"]
MUTATIONS = ("truncate", "flip", "delete_lines", "duplicate_line", "shuffle_lines", "swap_lines", "splice",
             "junk_line", "invalid_utf8", "nul", "crlf", "cut_middle")

LONG = os.environ.get("TRITONSCOPE_FUZZ_LONG") == "1"
# How many inputs each example count stands for under --long (a deep run: minutes, not seconds).
LONG_FACTOR = 40
HANG_SECONDS = 120  # far above any real parse (< 1 s); only a hang or a quadratic blow-up reaches it


def examples(ci: int) -> int:
    return ci * LONG_FACTOR if LONG else ci


def fuzz_settings(ci: int) -> settings:
    """Settings for one fuzz test: `ci` examples (x LONG_FACTOR under --long), no example database
    written into the repo, no deadline (the machine is shared; hangs are caught by `no_hang`)."""
    return settings(max_examples=examples(ci), deadline=None, database=None, derandomize=not LONG,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example, HealthCheck.filter_too_much])


def seed_path(ref: str) -> Path:
    where, rel = ref.split(":", 1)
    return (CORPUS if where == "corpus" else TESTS / "data") / rel


def seed_bytes(stage: str) -> list[tuple[str, bytes]]:
    return [(Path(ref).name, seed_path(ref).read_bytes()) for ref in SEEDS[stage]]


# --- mutations ---------------------------------------------------------------------------------------------


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def mutate(kind: str, data: bytes, rnd: random.Random) -> bytes:
    n = len(data)
    lines = _lines(data)
    if kind == "truncate":
        return data[: rnd.randint(0, n)]
    if kind == "flip":
        out = bytearray(data or b"\n")
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(len(out))
            out[i] ^= 1 << rnd.randrange(8) if rnd.random() < 0.7 else rnd.randrange(1, 256)
        return bytes(out)
    if kind == "delete_lines":
        i = rnd.randrange(len(lines))
        del lines[i : i + rnd.randint(1, 20)]
    elif kind == "duplicate_line":
        i = rnd.randrange(len(lines))
        lines[i:i] = [lines[i]] * rnd.randint(1, 50)
    elif kind == "shuffle_lines":
        i = rnd.randrange(len(lines))
        window = lines[i : i + rnd.randint(2, 200)]
        rnd.shuffle(window)
        lines[i : i + len(window)] = window
    elif kind == "swap_lines":
        i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "splice":  # part of one line glued into another
        a, b = rnd.choice(lines), rnd.randrange(len(lines))
        cut = rnd.randint(0, len(a))
        at = rnd.randint(0, len(lines[b]))
        lines[b] = lines[b][:at] + a[cut:] + lines[b][at:]
    elif kind == "junk_line":
        lines.insert(rnd.randint(0, len(lines)), rnd.choice(JUNK_LINES))
    elif kind == "invalid_utf8":
        i = rnd.randint(0, n)
        return data[:i] + rnd.choice(INVALID_UTF8) + data[i:]
    elif kind == "nul":
        i = rnd.randint(0, n)
        return data[:i] + b"\x00" * rnd.randint(1, 4) + data[i:]
    elif kind == "crlf":
        return data.replace(b"\n", b"\r\n") if rnd.random() < 0.8 else data.replace(b"\n", b"\r")
    elif kind == "cut_middle":
        i = rnd.randint(0, n)
        return data[:i] + data[rnd.randint(i, n):]
    return b"\n".join(lines)


@st.composite
def mutated_inputs(draw: Callable, seeds: list[tuple[str, bytes]]) -> tuple[str, list[str], bytes]:
    """(seed name, mutations applied, bytes): a real artifact with 1 to 4 mutations."""
    name, data = draw(st.sampled_from(seeds))
    kinds = draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=4))
    rnd = draw(st.randoms(use_true_random=False))
    for kind in kinds:
        data = mutate(kind, data, rnd)
    return name, kinds, data


# --- the contract -----------------------------------------------------------------------------------------


class FuzzStats:
    """Per target: inputs run, and outcomes (parsed / ParseError while decoding / ParseError parsing)."""

    def __init__(self) -> None:
        self.outcomes: dict[str, Counter[str]] = defaultdict(Counter)

    def record(self, target: str, outcome: str) -> None:
        self.outcomes[target][outcome] += 1

    def lines(self) -> Iterator[str]:
        for target in sorted(self.outcomes):
            c = self.outcomes[target]
            detail = ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
            yield f"{target:<16} {sum(c.values()):>7} inputs ({detail})"


STATS = FuzzStats()


class Hang(Exception):
    """A parse that ran for HANG_SECONDS: a loop that does not end or a quadratic blow-up."""


@contextmanager
def no_hang(seconds: int = HANG_SECONDS) -> Iterator[None]:
    def _alarm(signum, frame):
        raise Hang(f"still running after {seconds}s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def check_parse_error(exc: ParseError, path: str) -> None:
    assert exc.path == path, f"ParseError without the file: {exc!r}"
    assert isinstance(exc.line, int) and exc.line >= 1, f"ParseError without a line: {exc}"
    assert "\n" not in str(exc), f"ParseError message spans lines: {str(exc)!r}"


def check_module(module: Module, stage: str, text: str, path: str) -> None:
    """What a parsed Module promises whatever its input: op lines point at the text's lines,
    every location chain is finite, everything serializes. Lines are numbered as the parsers and the
    report number them (at `\n` only, as `sed -n` does: a lone CR, a form feed or a U+2028 in a line is part
    of it)."""
    from tritonscope.stages.common import _split_lines

    assert module.stage == stage and module.path == path
    lines = _split_lines(text)
    for op in module.ops:
        assert 1 <= op.lineno <= len(lines), (op.lineno, len(lines))
        # an op's text starts with its line (a statement that spans lines goes on with the lines it continues)
        first = lines[op.lineno - 1].strip()
        assert op.text.strip()[:20] in lines[op.lineno - 1] or op.text.startswith(first), \
            (op.lineno, op.text[:80], lines[op.lineno - 1][:80])
        if op.loc is not None:
            assert len(op.loc.chain()) <= 64
            op.loc.describe()
    for lineno, op in module.continued.items():  # later lines of a multi-line op: after its first
        assert op.lineno < lineno <= len(lines), (op.lineno, lineno, len(lines))
    for lineno, _ in module.unparsed:
        assert 1 <= lineno <= len(lines)
    json.dumps([op.to_json() for op in module.ops])


def run_stage_parser(stage: str, data: bytes, path: str, target: str | None = None,
                     parse: Callable[[str, str], Module] | None = None) -> Module | None:
    """Decode and parse `data` as `stage`; record the outcome; fail on anything but a proper ParseError."""
    from tritonscope import stages

    target = target or stage
    try:
        text = decode_text(data, path)
    except ParseError as exc:
        check_parse_error(exc, path)
        STATS.record(target, "decode-error")
        return None
    try:
        with no_hang():
            module = parse(text, path) if parse else stages.parse(stage, text, path)
    except ParseError as exc:
        check_parse_error(exc, path)
        STATS.record(target, "parse-error")
        return None
    check_module(module, stage, text, path)
    STATS.record(target, "parsed+unparsed" if module.unparsed else "parsed")
    return module
