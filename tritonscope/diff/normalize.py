"""Normalize a stage's text for comparison: what is left differs only where the code differs.

Each stage drops its debug information (MLIR `loc(...)`, LLVM `!dbg` and `!DI*` metadata, PTX/AMDGCN
`.loc`/`.file` and debug sections), absolute paths, hashes and timestamps, and renames SSA values,
block labels and registers by order of first appearance, so renumbering alone is no difference (an
AMDGCN register the kernel never writes, an input the hardware or the launch set, keeps its physical name
as `$s8`: reading another is another kernel).
Spellings that only changed name between Triton releases are folded behind `fold_renames` (on by
default): dialect prefixes, the named SSA values of Triton >= 3.5 (`%offs_k_4` vs `%12`), and LLVM 20's
byte-typed GEPs (Triton 3.8: `getelementptr [2 x i8]` for 3.7's `getelementptr half`).

Pure text in, text out; one function per stage, dispatched by `normalize(stage, text, options)`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NormalizeOptions:
    # Fold release-to-release spellings (dialect prefixes, named SSA values) into one form.
    fold_renames: bool = True


DEFAULT_OPTIONS = NormalizeOptions()

# Dialect spellings that changed name only (Triton 3.3 shortened the prefixes). Old -> new.
DIALECT_RENAMES: tuple[tuple[str, str], ...] = (
    ("triton_nvidia_gpu.", "ttng."),
    ("triton_gpu.", "ttg."),
    ("triton_amdgpu.", "amdgpu."),
)
_DIALECT_RENAME_RE = re.compile(r"\b(" + "|".join(re.escape(old) for old, _ in DIALECT_RENAMES) + ")")
_DIALECT_NEW = dict(DIALECT_RENAMES)

# --- shared by every stage -------------------------------------------------------------------
# An absolute path as a whole quoted string, its file name the group: folders may hold spaces, tabs and the
# other quote (`"/home/me/my project/it's/k.py"`), never the string's own quote or a line break.
QUOTED_ABS_PATH = re.compile(r'(?<=")/(?:[^"/\n]+/)+(?P<name>[^"/\n]*)(?=")'
                             r"|(?<=')/(?:[^'/\n]+/)+(?P<name2>[^'/\n]*)(?=')")


def _file_name(m: re.Match) -> str:
    return m.group("name") if m.group("name") is not None else m.group("name2")
HEX_HASH = re.compile(r"\b[0-9a-fA-F]{32,}\b")
BASE32_HASH = re.compile(r"\b[A-Z2-7]{52}\b")
TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b")
INNER_WHITESPACE = re.compile(r"(?<=\S)[ \t]+")
# a "string" (escapes kept), as a re.split group; never across a line break (texts of many lines are
# renamed at once, and must split as each of their lines would)
_STRING_LITERAL = re.compile(r'("(?:\\.|[^"\\\n])*")')

# --- MLIR (source, ttir, ttgir) ---------------------------------------------------------------
MLIR_LOC_ALIAS_LINE = re.compile(r"^#loc\d*\s*=\s*loc\(")
MLIR_FUNC_START = re.compile(r"^\s*(?:tt\.func|func\.func|llvm\.func)\b")
MLIR_SSA = re.compile(r"%[A-Za-z0-9_$.\-]+")
MLIR_NUMBERED_SSA = re.compile(r"^%(?:\d+|arg\d+)$")
MLIR_BLOCK_LABEL = re.compile(r"\^[A-Za-z0-9_$.\-]+")
MLIR_LOC_START = re.compile(r"\s*\bloc\(")
MLIR_LOC_ALIAS_REF = re.compile(r"\s*\bloc\(#loc\d*\)")
_MLIR_SSA_GROUP = re.compile(f"({MLIR_SSA.pattern})")  # the whole name as the group, for _rename_all
_MLIR_BLOCK_LABEL_GROUP = re.compile(f"({MLIR_BLOCK_LABEL.pattern})")
# Where a value is defined: the results before a line's ` = ` (`%a, %b = `, `%r:2 = `), a name followed by
# ` = ` inside a line (`scf.for %iv = `, `iter_args(%acc = `, `scf.while (%x = `), a block's or function's
# argument (`^bb0(%a: f32`, `(%arg0: !tt.ptr<f16>`). MLIR reuses a name in sibling regions (three loops over
# `%off`): each definition is a value of its own.
_MLIR_RESULT_LIST = r"(%[A-Za-z0-9_$.\-]+(?::\d+)?(?:, %[A-Za-z0-9_$.\-]+(?::\d+)?)*) = "
_MLIR_RESULTS = re.compile(r"^\s*" + _MLIR_RESULT_LIST)
_MLIR_RESULTS_ALL = re.compile(r"^[ \t]*" + _MLIR_RESULT_LIST, re.M)  # (each line of a function's text)
_MLIR_INLINE_DEF = re.compile(r"(%[A-Za-z0-9_$.\-]+)(?: = |: )")

# --- LLVM IR --------------------------------------------------------------------------------
LLIR_DBG_ATTACHMENT = re.compile(r",?\s*!dbg !\d+")
LLIR_DEBUG_LINE = re.compile(
    r"^\s*(?:!\d+ = (?:distinct )?!DI|!llvm\.dbg\.|#dbg_|(?:tail )?call void @llvm\.dbg\.|declare void @llvm\.dbg\.)")
LLIR_DEBUG_FLAG = re.compile(r'^!\d+ = !\{i32 \d+, !"(?:Debug Info Version|Dwarf Version)"')
LLIR_PREDS_COMMENT = re.compile(r"\s+;\s*(?:preds = .*|No predecessors!)$")
LLIR_LOCAL = re.compile(r'%(?:[-a-zA-Z$._0-9]+|"[^"\n]*")')
LLIR_LABEL_DEF = re.compile(r'^([-a-zA-Z$._0-9]+|"[^"\n]*"):')
# The same after a line break, searched in "\n" + text (a literal head is found at C speed; `^` with
# re.M is tried at every position): the line starts of `define`s and of label definitions.
_LLIR_DEFINE_AFTER_BREAK = re.compile(r"\ndefine\b")
_LLIR_LABEL_AFTER_BREAK = re.compile(r'\n(?:[-a-zA-Z$._0-9]+|"[^"\n]*"):')
# Lines that LLIR_LABEL_DEF matches but that are no label (`target: ...` would be a label's spelling)
_LLIR_NOT_LABELS = ("!", "@", "attributes", "target", "source_filename")
LLIR_METADATA_REF = re.compile(r"!(\d+)\b")
LLIR_ATTR_GROUP = re.compile(r"#(\d+)\b")
_LLIR_LOCAL_GROUP = re.compile(f"({LLIR_LOCAL.pattern})")  # the whole name as the group, for _rename_all

# --- PTX ------------------------------------------------------------------------------------
PTX_DEBUG_DIRECTIVE = re.compile(r"^\s*\.(?:loc|file)\b")
PTX_SECTION_START = re.compile(r"^\s*\.section\s+\.debug")
PTX_DEBUG_LABEL = re.compile(r"^\s*\$L__(?:tmp|func_begin|func_end|info_string|debug)\w*:\s*$")
PTX_COMMENT = re.compile(r"\s*//.*$")
PTX_FUNC_START = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)?\.(?:entry|func)\b")
PTX_LABEL = re.compile(r"\$L__BB\d+_\d+")
# A register (special registers keep their names) as re.split groups: the whole name, then its class.
_PTX_REGISTER_GROUPS = re.compile(r"(%(?!envreg|pm\d|clock|globaltimer|lanemask)([a-z]+)\d+\b)")
_PTX_LABEL_GROUP = re.compile(f"({PTX_LABEL.pattern})")

# --- AMDGCN ---------------------------------------------------------------------------------
GCN_DEBUG_DIRECTIVE = re.compile(r"^\s*\.(?:loc|file|cfi_\w+)\b")
GCN_SECTION = re.compile(r"^\s*\.section\s+(\S+)")
GCN_SECTION_END = re.compile(r"^\s*\.(?:text|amdgpu_metadata|end_amdgpu_metadata|data|rodata)\b")
GCN_DEBUG_LABEL = re.compile(r"^\.L(?:tmp|func_begin|cu_begin|debug|info_string|line_table|section)\w*:")
# Resource comments worth keeping in the text: `; NumVgprs: 20`, `; codeLenInByte = 172`.
GCN_RESOURCE_COMMENT = re.compile(r"^;\s*[A-Za-z][\w:]*\s*(?::|=)\s*\S")
GCN_COMMENT = re.compile(r"\s*;.*$")
GCN_REGISTER = re.compile(r"\b([vsa])(?:(\d+)\b|\[(\d{1,9}):(\d{1,9})\])")  # a range is int()ed: bounded
GCN_LABEL = re.compile(r"\.LBB\d+_\d+")
# Instructions with no destination register: every register they name is read (stores, compares into SCC
# or EXEC, branches, waits, messages, loads straight into LDS, the global data share)
_GCN_NO_DEST = re.compile(r"(?:s_cmp|s_bitcmp|s_cbranch|s_branch|s_setpc|s_wait|s_barrier|s_endpgm|s_nop|"
                          r"s_sendmsg(?!_rtn)|exp\b|s_setprio|s_sleep|s_dcache|s_icache|s_delay|s_setreg|s_trap|"
                          r"buffer_wb|buffer_inv|s_set_gpr_idx|(?:global|buffer|tbuffer|flat|scratch|s|s_buffer)_store|"
                          r"ds_write|ds_store|ds_gws|global_load_lds)")
_GCN_DS_NON_ATOMIC = ("read", "write", "load", "store", "swizzle", "permute", "append", "consume", "nop", "gws")
# Instructions with a second destination, a carry or condition mask (VOP3b: `v_add_co_u32_e64 v1, s[0:1], ...`)
_GCN_TWO_DEST = re.compile(r"v_(?:add|sub|subrev|addc|subb|subbrev)_co|v_div_scale|v_mad_[iu]64_[iu]32")
_GCN_RETURNS = re.compile(r"\b(?:glc|sc0|TH_ATOMIC_RETURN)\b")


def normalize(stage: str, text: str, options: NormalizeOptions = DEFAULT_OPTIONS) -> str:
    """The text of `stage` with debug info, paths and numbering removed; ends with one newline."""
    fn = _NORMALIZERS.get(stage, _normalize_plain)
    prepass = _PREPASSES.get(stage)
    lines = fn((prepass(text) if prepass else text).splitlines(), options)
    # The path/hash/timestamp substitutions cannot match across a line break: one test over the whole
    # text says which of them any line needs (most texts need none), instead of four subs per line.
    subs = _needed_subs("\n".join(lines))
    out = [_tidy_line(ln, subs) for ln in lines]
    text = "\n".join(ln for ln in out if ln.strip()) + "\n"
    if stage == "llir" and any(pattern is QUOTED_ABS_PATH for pattern, _ in subs):
        text = _fit_string_sizes(text)  # (a path shortened: a string constant's size with it)
    return text


def _byte_classes(members: bytes, keep: bytes = b"") -> bytes:
    """A bytes.translate table: `members` -> b"x", `keep` as they are, everything else -> b" "."""
    table = bytearray(b" " * 256)
    for c in members:
        table[c] = ord("x")
    for c in keep:
        table[c] = c
    return bytes(table)


_HEX_BYTES = _byte_classes(b"0123456789abcdefABCDEF")
_BASE32_BYTES = _byte_classes(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_DIGIT_BYTES = _byte_classes(b"0123456789", keep=b"-")
# (pattern, replacement, a necessary condition for a match in ASCII text, tested at C speed first: the
# patterns begin with a word boundary or a class, so a regex search tries every position of the text)
def _may_hold_quoted_path(text: str, raw: bytes) -> bool:
    """Whether QUOTED_ABS_PATH matches: tried at each quote-slash only. Inline asm comments (`asm sideeffect
    "// wait for regs ..."`) put `"/` in most LLIR, where a search from every position took 0.6 s over a
    real cache's 78 MB."""
    for mark in ('"/', "'/"):
        i = text.find(mark)
        while i != -1:
            if QUOTED_ABS_PATH.match(text, i + 1):
                return True
            i = text.find(mark, i + 2)
    return False


_TIDY_SUBS = (
    (QUOTED_ABS_PATH, _file_name, _may_hold_quoted_path),
    (HEX_HASH, "<hash>", lambda text, raw: b"x" * 32 in raw.translate(_HEX_BYTES)),
    (BASE32_HASH, "<hash>", lambda text, raw: b"x" * 52 in raw.translate(_BASE32_BYTES)),
    (TIMESTAMP, "<timestamp>", lambda text, raw: b"xxxx-xx-xx" in raw.translate(_DIGIT_BYTES)),
)
_ALL_SUBS = tuple((pattern, repl) for pattern, repl, _ in _TIDY_SUBS)


def _needed_subs(text: str) -> tuple:
    """The (pattern, replacement) pairs some line of `text` needs. Non-ASCII text goes straight to the
    regexes (their digit and word-boundary classes are Unicode-aware)."""
    raw = text.encode("ascii") if text.isascii() else None
    return tuple((pattern, repl) for pattern, repl, maybe in _TIDY_SUBS
                 if (raw is None or maybe(text, raw)) and pattern.search(text))


def _tidy_line(line: str, subs: tuple = _ALL_SUBS) -> str:
    line = line.rstrip()
    body = line.lstrip()
    indent = len(line[: len(line) - len(body)].expandtabs(4))
    for pattern, repl in subs:
        body = pattern.sub(repl, body)
    if "  " in body or "\t" in body:
        body = INNER_WHITESPACE.sub(" ", body)
    return " " * indent + body


def _normalize_plain(lines: list[str], options: NormalizeOptions) -> list[str]:
    return lines


# --- MLIR -------------------------------------------------------------------------------------


def strip_mlir_locs(line: str) -> str:
    """Remove every `loc(...)` (balanced parentheses, quotes respected) from one line."""
    # The common form, `loc(#loc12)`, in one C-speed pass (it holds no parenthesis or quote, so removing
    # it first leaves every other loc(...) balanced as it was); the rest by the walk below.
    line = MLIR_LOC_ALIAS_REF.sub("", line)
    if "loc(" not in line:
        return line
    out: list[str] = []
    pos = 0
    while True:
        m = MLIR_LOC_START.search(line, pos)
        if m is None:
            out.append(line[pos:])
            return "".join(out)
        out.append(line[pos:m.start()])
        pos = _skip_balanced(line, m.end())


def _skip_balanced(text: str, i: int) -> int:
    """Index just past the `)` closing a `(` that ended at i (quotes may contain parentheses)."""
    depth = 1
    in_str = False
    while i < len(text):
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def fold_dialect_renames(text: str) -> str:
    return _DIALECT_RENAME_RE.sub(lambda m: _DIALECT_NEW[m.group(1)], text)


# Up to 2.x a pointer printed its address space, `!tt.ptr<f32, 1>` (global memory, 1, the only one a kernel's
# pointers have); 3.x prints none for it: `!tt.ptr<f32>`. The pointee may itself hold `<...>`, three deep (a block
# pointer's `!tt.ptr<tensor<64x64xf16, #triton_gpu.dot_op<{parent = #triton_gpu.mma<{...}>}>>, 1>`).
_PTR_GLOBAL = re.compile(r"(!tt\.ptr<(?:[^<>]|<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>)*?),\s*1>")


# A private function of an MLIR module (a helper the frontend kept as a call: the `source` stage) is named by
# its qualified name and its specialization, which each release mangles its own way: 3.6
# `@"triton.language.standard.zeros____(0, 0)cconstexpr_512__(1,)cconstexpr_fp32_"`, 3.8
# `@triton.language.standard.zeros__Tc512T_cfp32`. Folded, each defined one (a body: a declaration's name is all
# that tells two apart) is its name up to the first `__` and the order it is defined in, `@"...zeros__<0>"`
# (no symbol a module spells itself).
_PRIVATE_FUNC = re.compile(r'^\s*(?:tt|func)\.func\s+private\s+@("[^"\n]*"|[\w.$-]+)(?=\().*\{\s*$', re.M)
_HELPER_NAME = re.compile(r"((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*?)__")


def fold_helper_symbols(text: str) -> str:
    symbols = list(dict.fromkeys(m.group(1) for m in _PRIVATE_FUNC.finditer(text))) if "private" in text else []
    renames = {}
    for symbol in symbols:
        m = _HELPER_NAME.match(symbol.strip('"'))
        if m:
            renames[symbol] = f'"{m.group(1)}__<{len(renames)}>"'
    if not renames:
        return text
    pattern = re.compile("@(" + "|".join(re.escape(s) for s in sorted(renames, key=len, reverse=True)) +
                         r")(?![\w.$-])")
    return pattern.sub(lambda m: "@" + renames[m.group(1)], text)


def fold_pointer_address_space(text: str) -> str:
    for _ in range(4):  # (a pointer to pointers: the inner one next)
        if "1>" not in text:
            break
        text, n = _PTR_GLOBAL.subn(r"\1>", text)
        if not n:
            break
    return text


# Printer-only changes between releases, folded to one spelling: 3.9 prints a load's or store's cache hints
# as one attribute, `{cachePolicy = #tt.cache_policy<cache_modifier = none, eviction_policy = evict_first>}`,
# where 3.8 and before printed keywords, `evictionPolicy = evict_first` (compile.ttir_upgrade respells them
# so for the installed Triton: the same rewrite); 3.9 prints an AMD buffer op's pointer type before its
# result's, `amdg.buffer_load %p[%o] : !tt.ptr<bf16> -> tensor<...>`, where 3.8 printed `: tensor<...>`.
_BUFFER_PTR_TYPE = re.compile(r"(\bamdg(?:pu)?\.buffer_\w+\b.*?\s:\s)!tt\.ptr<[^<>]*>\s->\s")


def fold_printer_changes(line: str) -> str:
    if "cacheModifier" in line or "evictionPolicy" in line:
        from tritonscope.compile.ttir_upgrade import respell_cache_hints

        line = respell_cache_hints(line)
    if "buffer_" in line and "-> " in line:
        line = _BUFFER_PTR_TYPE.sub(r"\1", line, count=1)
    return line


class _Renamer:
    """Names in order of first appearance: the first `%x` seen becomes `{prefix}0`, and so on."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.names: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        new = self.names.get(name)
        if new is None:
            new = self.names[name] = f"{self.prefix}{len(self.names)}"
        return new


def _normalize_mlir(lines: list[str], options: NormalizeOptions) -> list[str]:
    out: list[str] = []
    starts = [0]  # where each function's lines begin in `out`: its values and blocks are numbered anew
    for line in lines:
        # (each test on a literal the regex needs first: most lines fail it at C speed)
        if line.startswith("#loc") and MLIR_LOC_ALIAS_LINE.match(line):
            continue
        if "loc(" in line:
            line = strip_mlir_locs(line)
        if options.fold_renames and "triton_" in line:
            line = fold_dialect_renames(line)
        if options.fold_renames and "1>" in line and "!tt.ptr<" in line:
            line = fold_pointer_address_space(line)
        if options.fold_renames and ("Modifier" in line or "Policy" in line or "buffer_" in line):
            line = fold_printer_changes(line)
        if "func" in line and MLIR_FUNC_START.match(line):
            starts.append(len(out))
        out.append(line)
    starts.append(len(out))
    if options.fold_renames and any("private" in ln for ln in out):
        out = fold_helper_symbols("\n".join(out)).split("\n")
    renamed: list[str] = []
    for a, b in zip(starts, starts[1:], strict=False):
        if a < b:
            renamed += _rename_mlir_function(out[a:b], options)
    return renamed


def _rename_mlir_function(lines: list[str], options: NormalizeOptions) -> list[str]:
    """One function's values (`%x`) and blocks (`^bb1`) in order of first appearance. Folding renames, all
    values are renamed over the joined text at once, then all blocks (no value name holds a `^`: the same
    numbers as line by line); named values kept (no folding), line by line."""
    values = _Renamer("%v")
    blocks = _Renamer("^bb")
    if options.fold_renames:
        text = "\n".join(lines)
        if "%" in text:
            redefined = _redefined_names(text)
            if redefined:  # (a name defined again in a sibling region: numbered per definition)
                text = "\n".join(_mark_definitions(lines, redefined))
            text = _rename_all(_MLIR_SSA_GROUP, values, text)
        if "^" in text:
            text = _rename_all(_MLIR_BLOCK_LABEL_GROUP, blocks, text)
        return text.split("\n")
    out = []
    for line in lines:
        if "%" in line:  # named values (Triton >= 3.5) keep their names

            def rename_value(m: re.Match, values: _Renamer = values) -> str:
                name = m.group(0)
                return values(name) if MLIR_NUMBERED_SSA.match(name) else name

            line = _sub_outside_strings(MLIR_SSA, rename_value, line)
        if "^" in line:
            line = _rename_all(_MLIR_BLOCK_LABEL_GROUP, blocks, line)
        out.append(line)
    return out


def _definitions(line: str) -> list[tuple[int, str]]:
    """(position, name) of each value a line defines, outside strings (`_MLIR_RESULTS`, `_MLIR_INLINE_DEF`)."""
    if "%" not in line or ("=" not in line and ":" not in line):
        return []
    code = _STRING_LITERAL.sub(lambda m: " " * len(m.group(0)), line) if '"' in line else line
    out = []
    m = _MLIR_RESULTS.match(code)
    if m:
        out += [(m.start(1) + k.start(), k.group(0)) for k in MLIR_SSA.finditer(m.group(1))]
    out += [(k.start(1), k.group(1)) for k in _MLIR_INLINE_DEF.finditer(code, m.end() if m else 0)]
    return out


_COUNT_SUFFIX = re.compile(r":\d+$")


def _redefined_names(text: str) -> set[str]:
    """The value names a function's text defines more than once (in sibling regions); a superset where a
    string holds what reads as a definition (`_mark_definitions` looks outside strings)."""
    names = _MLIR_INLINE_DEF.findall(text)  # (a line's last result, `%x = `, among them)
    for group in _MLIR_RESULTS_ALL.findall(text):
        if ", " in group or ":" in group:
            found = MLIR_SSA.findall(group)
            names += found if _COUNT_SUFFIX.search(group) else found[:-1]
    if len(names) == len(set(names)):
        return set()
    seen: set[str] = set()
    return {n for n in names if n in seen or seen.add(n)}


def _mark_definitions(lines: list[str], redefined: set[str]) -> list[str]:
    """Each definition of a name in `redefined` spelled apart (`%off$$re1`, its uses in its region alike),
    so that numbering by first appearance gives each definition a number of its own, and its uses that one:
    a loop variable renamed in Python (`off` -> `o2` in the second of three loops over `off`) leaves the
    numbers as they were."""
    count: dict[str, int] = {}
    out = []
    holds = re.compile("|".join(map(re.escape, sorted(redefined, key=len, reverse=True)))).search
    for line in lines:
        if "%" not in line or not holds(line):
            out.append(line)
            continue
        defs = {pos for pos, name in _definitions(line) if name in redefined}
        if '"' in line:
            pieces, offset = [], 0
            for i, p in enumerate(_STRING_LITERAL.split(line)):
                pieces.append(p if i % 2 else _mark_piece(p, offset, defs, redefined, count))
                offset += len(p)
            out.append("".join(pieces))
        else:
            out.append(_mark_piece(line, 0, defs, redefined, count))
    return out


def _mark_piece(text: str, offset: int, defs: set[int], redefined: set[str], count: dict[str, int]) -> str:
    """`_mark_definitions` of a line's piece outside strings, which starts at `offset` of the line."""

    def mark(m: re.Match) -> str:
        name = m.group(0)
        if name not in redefined:
            return name
        if m.start() + offset in defs:
            count[name] = count.get(name, -1) + 1
        k = count.get(name, 0)
        return f"{name}$$re{k}" if k else name

    return MLIR_SSA.sub(mark, text)


def _sub_outside_strings(pattern: re.Pattern, repl: Callable[[re.Match], str], line: str) -> str:
    """pattern.sub, but never inside a "string" (inline asm and names keep their `%` and `^`)."""
    if '"' not in line:
        return pattern.sub(repl, line)
    parts = _STRING_LITERAL.split(line)
    return "".join(p if i % 2 else pattern.sub(repl, p) for i, p in enumerate(parts))


def _rename_all(pattern: re.Pattern, renamer: _Renamer, text: str) -> str:
    """`_sub_outside_strings(pattern, lambda m: renamer(m.group(1)), text)`, for a pattern with one group."""
    if '"' in text:
        parts = _STRING_LITERAL.split(text)
        return "".join(p if i % 2 else _rename_groups(pattern, renamer, p) for i, p in enumerate(parts))
    return _rename_groups(pattern, renamer, text)


def _rename_groups(pattern: re.Pattern, renamer: _Renamer, text: str) -> str:
    """`pattern.sub(lambda m: renamer(m.group(1)), text)` for a pattern with one group: `re.split` puts
    the groups at the odd places, and a name seen before is a dict lookup, not a callback with a match
    object (most names are uses of a value already defined)."""
    parts = pattern.split(text)
    if len(parts) == 1:
        return text
    get = renamer.names.get
    parts[1::2] = [get(p) or renamer(p) for p in parts[1::2]]
    return "".join(parts)


# --- LLVM IR ----------------------------------------------------------------------------------


# `!dbg` attachments as LLVM prints them (", !dbg !12"), removed from the whole text before the lines
# are split: a pattern with a literal head is searched at C speed, LLIR_DBG_ATTACHMENT (which starts
# with a class) tries every position. Any other spelling is left to LLIR_DBG_ATTACHMENT, line by line.
_LLIR_DBG_ATTACHMENT_PRINTED = re.compile(r", !dbg !\d+")


def _llir_prepass(text: str) -> str:
    return _LLIR_DBG_ATTACHMENT_PRINTED.sub("", text) if "!dbg" in text else text


# A string constant that held an absolute path (debug=True's `@assertFile_0 = internal constant [17 x i8]
# c"/home/me/k.py\00"`) keeps its file name (QUOTED_ABS_PATH): its size is made that of what is left, or
# the same kernel compiled in two folders differs by it; its uses (`[17 x i8]* @assertFile_0`) alike. A
# constant's size is its string's everywhere else, so this applies to older snapshots too (`refold`).
_LLIR_STRING_CONSTANT = re.compile(r'^(@[-\w$.]+) = ([^\n"]*)\[(\d+) x i8\] c"((?:\\.|[^"\\\n])*)"', re.M)
_LLVM_BYTE_ESCAPE = re.compile(r"\\(?:[0-9A-Fa-f]{2}|\\)")


def _fit_string_sizes(text: str) -> str:
    sizes: dict[str, tuple[str, str]] = {}

    def fit(m: re.Match) -> str:
        size = str(len(_LLVM_BYTE_ESCAPE.sub("x", m.group(4)).encode("utf-8")))
        if size == m.group(3):
            return m.group(0)
        sizes[m.group(1)] = (m.group(3), size)
        return f'{m.group(1)} = {m.group(2)}[{size} x i8] c"{m.group(4)}"'

    text = _LLIR_STRING_CONSTANT.sub(fit, text)
    for name, (old, new) in sizes.items():
        text = re.sub(rf"\[{old} x i8\](?=[^\n]*{re.escape(name)}(?![-\w$.]))", f"[{new} x i8]", text)
    return text


def _may_be_llir_debug_line(line: str) -> bool:
    """False when neither LLIR_DEBUG_LINE nor LLIR_DEBUG_FLAG can match: each of their alternatives holds
    one of these words (checked at C speed; the regexes run on the ~5% of lines that pass)."""
    return "dbg" in line or "!DI" in line or "Version" in line


# LLVM 20 (Triton 3.8) prints a GEP over a scalar as one over bytes: `getelementptr half, ptr %p, i64 %i`
# became `getelementptr [2 x i8], ...`, the same address. Folded to the bytes spelling.
_GEP_SCALAR = re.compile(r"\bgetelementptr((?: inbounds| nuw| nusw)*) (half|bfloat|i16|float|i32|double|i64),")
_GEP_BYTES = {"half": 2, "bfloat": 2, "i16": 2, "float": 4, "i32": 4, "double": 8, "i64": 8}


def _gep_as_bytes(m: re.Match) -> str:
    return f"getelementptr{m.group(1)} [{_GEP_BYTES[m.group(2)]} x i8],"


def refold(stage: str, normalized: str) -> str:
    """Folds added since `normalized` may have been written (a committed snapshot): applied again, so an
    older snapshot and a newer normalization of the same kernel still compare equal."""
    if stage == "llir":
        if "getelementptr" in normalized:
            normalized = _GEP_SCALAR.sub(_gep_as_bytes, normalized)
        if ' x i8] c"' in normalized:
            normalized = _fit_string_sizes(normalized)
    elif stage == "ptx" and ".b8" in normalized and "= {47," in normalized:
        normalized = _PTX_PATH_BYTES.sub(_ptx_path_bytes, normalized)
    elif stage in ("source", "ttir", "ttgir"):
        normalized = fold_helper_symbols(fold_pointer_address_space(normalized))
        if "Modifier" in normalized or "Policy" in normalized or "buffer_" in normalized:
            normalized = "\n".join(map(fold_printer_changes, normalized.split("\n")))
        if _redefined_names(normalized):  # (numbered by name before: each definition numbered anew)
            normalized = _renumber_definitions(normalized)
    return normalized


def _renumber_definitions(normalized: str) -> str:
    """A normalized MLIR text whose value numbers a name defined twice shares (written before values were
    numbered per definition), numbered again: the numbers a normalization of the raw text gives now."""
    lines = normalized.split("\n")
    starts = [i for i, ln in enumerate(lines) if "func" in ln and MLIR_FUNC_START.match(ln)]
    bounds = [0, *starts, len(lines)] if starts[:1] != [0] else [*starts, len(lines)]
    out: list[str] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        if a < b:
            part = lines[a:b]
            out += _rename_mlir_function(part, DEFAULT_OPTIONS) if _redefined_names("\n".join(part)) else part
    return "\n".join(out)


def _normalize_llir(lines: list[str], options: NormalizeOptions) -> list[str]:
    kept: list[str] = []
    for line in lines:
        if line.startswith(";") or (_may_be_llir_debug_line(line) and (
                LLIR_DEBUG_LINE.match(line) or LLIR_DEBUG_FLAG.match(line))):
            continue
        if "!dbg" in line:
            line = LLIR_DBG_ATTACHMENT.sub("", line)
        if ";" in line:
            line = LLIR_PREDS_COMMENT.sub("", line)
        if options.fold_renames and "getelementptr" in line:
            line = _GEP_SCALAR.sub(_gep_as_bytes, line)
        kept.append(line)
    # Renamed a function at a time over the joined text (one re.split per function, not per line); the
    # same names, in the same order, as line by line (_rename_llir_lines, kept as the reference).
    text = "\n".join(kept)
    bounds = sorted({0, len(text), *(m.start() for m in _LLIR_DEFINE_AFTER_BREAK.finditer("\n" + text))})
    text = "".join(_rename_llir_function(text[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))
    if "!" in text:
        text = _rename_all(LLIR_METADATA_REF, _Renamer("!"), text)
    if "#" in text:
        text = _rename_all(LLIR_ATTR_GROUP, _Renamer("#"), text)
    out = text.split("\n") if kept else []
    # Named metadata (`!llvm.module.flags = !{...}`) prints in a release-dependent order.
    body = [ln for ln in out if not ln.startswith("!")]
    meta = sorted(ln for ln in out if ln.startswith("!") and not ln[1:2].isdigit())
    numbered = [ln for ln in out if ln.startswith("!") and ln[1:2].isdigit()]
    return body + meta + numbered


def _rename_llir_function(text: str) -> str:
    """The values and labels of one function's lines (or of the lines before the first `define`) renamed
    in order of first appearance: a label definition (`7:`) takes its number where it stands."""
    values = _Renamer("%v")
    labels = [m.start() for m in _LLIR_LABEL_AFTER_BREAK.finditer("\n" + text)  # (line starts in text)
              if not text.startswith(_LLIR_NOT_LABELS, m.start())]
    if any(text.startswith('"', start) for start in labels):  # (`"a b":` holds a string: line by line)
        return "\n".join(_rename_llir_lines(text.split("\n"), values))
    label_lines = []
    if labels:  # each label as a `%` name where it is defined, so that one pass numbers it in its turn
        pieces, pos, line = [], 0, 0
        for start in labels:
            line += text.count("\n", pos, start)
            label_lines.append(line)
            pieces += [text[pos:start], "%"]
            pos = start
        text = "".join([*pieces, text[pos:]])
    if "%" in text:
        text = _rename_all(_LLIR_LOCAL_GROUP, values, text)
    if not labels:
        return text
    lines = text.split("\n")
    for line in label_lines:
        lines[line] = lines[line][1:]  # `%v7: ...` -> `v7: ...`
    return "\n".join(lines)


def _rename_llir_lines(lines: list[str], values: _Renamer) -> list[str]:
    """Values and labels renamed line by line: the reference for _rename_llir_function."""
    out = []
    for line in lines:
        m = LLIR_LABEL_DEF.match(line)
        if m and not line.startswith(_LLIR_NOT_LABELS):
            line = values("%" + m.group(1))[1:] + ":" + line[m.end():]
        if "%" in line:
            line = _rename_all(_LLIR_LOCAL_GROUP, values, line)
        out.append(line)
    return out


# --- PTX --------------------------------------------------------------------------------------


# A byte array holding an absolute path (debug=True's `.global .align 1 .b8 assertFile_0[17] = {47, 116, ...}`):
# its file name kept, as QUOTED_ABS_PATH keeps a quoted one's, and its size shrunk alike.
_PTX_PATH_BYTES = re.compile(r"\.b8 ([\w$]+)\[(\d+)\] = \{(47(?:, \d{1,3})*)\}")


def _ptx_path_bytes(m: re.Match) -> str:
    data = bytes(int(b) & 0xFF for b in m.group(3).split(", "))
    folder = QUOTED_ABS_PATH.match(f'"{data.decode("latin-1")}"', 1)
    if folder is None or b"\0" in data:
        return m.group(0)
    cut = folder.start(1) - 1  # (the match ran from the quote on)
    return (f".b8 {m.group(1)}[{max(int(m.group(2)) - cut, 0)}] = "
            f"{{{', '.join(str(b) for b in data[cut:])}}}")


def _normalize_ptx(lines: list[str], options: NormalizeOptions) -> list[str]:
    out: list[str] = []
    registers: dict[str, _Renamer] = {}
    labels = _Renamer("$L__BB")
    in_section = seen_brace = False  # inside a `.section .debug_* { ... }` block
    depth = 0
    for line in lines:
        # (each regex behind a word it needs, tested at C speed: most lines are instructions)
        if not in_section and ".section" in line and PTX_SECTION_START.match(line):
            in_section, seen_brace, depth = True, False, 0
        if in_section:
            depth += line.count("{") - line.count("}")
            seen_brace = seen_brace or "{" in line
            if seen_brace and depth <= 0:
                in_section = False
            continue
        if (("loc" in line or "file" in line) and PTX_DEBUG_DIRECTIVE.match(line)) or (
                "$L__" in line and PTX_DEBUG_LABEL.match(line)):
            continue
        if "//" in line and '"' not in line:
            line = PTX_COMMENT.sub("", line)
        if ".b8" in line and "= {47," in line:
            line = _PTX_PATH_BYTES.sub(_ptx_path_bytes, line)
        if ("entry" in line or "func" in line) and PTX_FUNC_START.match(line):
            registers = {}
            labels = _Renamer("$L__BB")

        if "%" in line:
            parts = _PTX_REGISTER_GROUPS.split(line)  # [text, register, class, text, register, class, ...]
            for i in range(1, len(parts), 3):
                r = registers.get(parts[i + 1])
                if r is None:
                    r = registers[parts[i + 1]] = _Renamer("%" + parts[i + 1])
                parts[i] = r.names.get(parts[i]) or r(parts[i])
                parts[i + 1] = ""
            line = "".join(parts)
        if "$L__BB" in line:
            line = _rename_groups(_PTX_LABEL_GROUP, labels, line)
        out.append(line)
    return out


# --- AMDGCN -----------------------------------------------------------------------------------


def _gcn_destinations(line: str) -> list[tuple[int, int]]:
    """The spans of `line` that an instruction writes (its destination operands; both halves of an RDNA
    `v_dual_*` pair), as (start, end)."""
    if "::" not in line:
        return _gcn_destinations_of(line)
    spans: list[tuple[int, int]] = []
    offset = 0
    for part in line.split("::"):
        spans += [(offset + a, offset + b) for a, b in _gcn_destinations_of(part)]
        offset += len(part) + 2
    return spans


_GCN_MNEMONIC = re.compile(r"\s*(\S+)\s*")
_GCN_SGPR_OPERAND = re.compile(r"\s*(?:s\[|s\d|vcc)")


def _gcn_destinations_of(text: str) -> list[tuple[int, int]]:
    m = _GCN_MNEMONIC.match(text)
    if m is None or m.end() == len(text):
        return []
    mnemonic, start = m.group(1), m.end()
    rest = text[start:]
    if _GCN_NO_DEST.match(mnemonic) or (" lds" in rest and mnemonic.startswith("buffer_load")):
        return []
    if mnemonic.startswith(("global_atomic", "buffer_atomic", "flat_atomic")) and not _GCN_RETURNS.search(rest):
        return []  # (an atomic that returns nothing)
    if mnemonic.startswith("ds_") and not any(w in mnemonic for w in _GCN_DS_NON_ATOMIC) and "_rtn" not in mnemonic:
        return []
    if mnemonic.startswith("v_cmpx") and not rest.startswith(("s[", "vcc")):
        return []  # (gfx10 on: EXEC only; gfx9's _e64 form names an SGPR pair first)
    first = text.find(",", start)
    if first < 0:
        return [(start, len(text))]
    if _GCN_TWO_DEST.match(mnemonic):  # (its second operand an SGPR mask, with more operands after it)
        second = text.find(",", first + 1)
        if second >= 0 and _GCN_SGPR_OPERAND.match(text, first + 1):
            return [(start, first), (first + 1, second)]
    return [(start, first)]


def _gcn_registers(m: re.Match) -> list[tuple[str, int]]:
    """Each register a GCN_REGISTER match names: `v5`, or every one of `v[4:7]`."""
    cls = m.group(1)
    if m.group(2) is not None:
        return [(cls, int(m.group(2)))]
    lo, hi = int(m.group(3)), int(m.group(4))
    return [(cls, k) for k in range(lo, min(hi, lo + 64) + 1)]


def _normalize_amdgcn(lines: list[str], options: NormalizeOptions) -> list[str]:
    """Registers renamed in order of first appearance, but those the kernel never writes (its inputs: v0 the
    work item's id, s[4:5] the kernel arguments, the workgroup ids), which keep their names as `$v0`."""
    kept: list[tuple[str, bool]] = []  # (line, whether an instruction)
    in_debug_section = False
    written: set[tuple[str, int]] = set()
    for line in lines:
        sec = GCN_SECTION.match(line)
        if sec:
            in_debug_section = sec.group(1).strip('"').startswith(".debug")
            if in_debug_section:
                continue
        elif in_debug_section:
            if not GCN_SECTION_END.match(line):
                continue
            in_debug_section = False
        stripped = line.strip()
        if stripped.startswith(";"):
            if GCN_RESOURCE_COMMENT.match(stripped):
                kept.append((stripped, False))
            continue
        if GCN_DEBUG_DIRECTIVE.match(line) or GCN_DEBUG_LABEL.match(line):
            continue
        line = GCN_COMMENT.sub("", line)
        instruction = not stripped.startswith(".")  # (directives name no registers)
        if instruction:
            for a, b in _gcn_destinations(line):
                for m in GCN_REGISTER.finditer(line, a, b):
                    written.update(_gcn_registers(m))
        kept.append((line, instruction))
    registers: dict[str, _Renamer] = {}
    labels = _Renamer(".LBB")
    is_input: dict[str, bool] = {}  # register as written -> whether the kernel never writes it (asked once)

    def rename_register(m: re.Match) -> str:
        spelled = m.group(0)
        kept_name = is_input.get(spelled)
        if kept_name is None:
            kept_name = is_input[spelled] = written.isdisjoint(_gcn_registers(m))
        if kept_name:
            return "$" + spelled  # (an input: its own name, which no renaming may equal)
        cls = m.group(1)
        r = registers.setdefault(cls, _Renamer(cls))
        if m.group(2) is not None:
            return r(m.group(2))
        lo, hi = int(m.group(3)), int(m.group(4))
        return f"{cls}[{r(m.group(3))[1:]}:+{hi - lo}]"

    out: list[str] = []
    for line, instruction in kept:
        if instruction:
            line = GCN_REGISTER.sub(rename_register, line)
        out.append(GCN_LABEL.sub(lambda m, lb=labels: lb(m.group(0)), line))
    return out


# --- the names the renamers above give ------------------------------------------------------
# Per stage: (the names a normalized text holds, as `l`ocal (numbered anew in each function) or `g`lobal
# groups, both always present; where a function starts; whether a line's definitions (an op's results, a
# block's arguments) name values anew, whatever came before: MLIR's regions, which Triton 3.2 printed with
# the same names in each `tt.reduce`). One op more or less renumbers every name after it; `diff` tells such
# texts apart from changed ones with these (core.stage_line_diff).
_NONE = "(?P<g>(?!))"
_NEVER = re.compile(r"(?!)")
_MLIR_NAMES = (re.compile(r"(?P<l>%v\d+|\^bb\d+)" + "|" + _NONE), MLIR_FUNC_START, True)
RENAMED_NAMES: dict[str, tuple[re.Pattern, re.Pattern, bool]] = {
    "source": _MLIR_NAMES,
    "ttir": _MLIR_NAMES,
    "ttgir": _MLIR_NAMES,
    "llir": (re.compile(r"(?P<l>%v\d+|^v\d+(?=:))|(?P<g>!\d+\b|(?<![\w\\])#\d+\b)"), re.compile(r"^define\b"),
             False),
    "ptx": (re.compile(r"(?P<l>%[a-z]+\d+\b|\$L__BB\d+)" + "|" + _NONE), PTX_FUNC_START, False),
    "amdgcn": (re.compile(r"(?P<l>(?!))|(?P<g>(?<!\$)\b[vsa]\d+\b|(?<!\$)\b[vsa]\[\d+|\.LBB\d+\b)"), _NEVER, False),
}


_NORMALIZERS: dict[str, Callable[[list[str], NormalizeOptions], list[str]]] = {
    "source": _normalize_mlir,
    "ttir": _normalize_mlir,
    "ttgir": _normalize_mlir,
    "llir": _normalize_llir,
    "ptx": _normalize_ptx,
    "amdgcn": _normalize_amdgcn,
}
NORMALIZED_STAGES = tuple(_NORMALIZERS)
_PREPASSES: dict[str, Callable[[str], str]] = {"llir": _llir_prepass}
