"""SASS as `nvdisasm -c -gi -gp` prints it: one Op per instruction, located by the `//##` lines before it.

`//## File "/path/k.py", line 36 inlined at "/path/k.py", line 91` lines come in runs, innermost
first, ending with the user's line (`//## File "/path/k.py", line 91`); without `-gi` (or for code
that was not inlined) a run is a single line. SASS lines carry no column. Instructions inherit the
last run within their function (`.section .text.NAME`).

`-gp` adds `//## File ".nv_debug_ptx_txt", line N` where the cubin embeds its PTX: N is the line of the
cache's `.ptx` that ptxas compiled the instruction from, kept on the Op (`ptx_line`) and never taken
for a source position; stages/sass_lines.py then gives each instruction its PTX line's location.
"""

from __future__ import annotations

from sys import intern

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op, SourceLoc, drop_trailing_padding, iter_lines, unescape_c

# line numbers of at most 9 digits: a longer one is not a position (and int() refuses > 4300 digits)
LINE_INFO = lazy_compile(r'^//## File "((?:[^"\\]|\\.)*)", line (\d{1,9})(?!\d)'
                         r'(?: inlined at "((?:[^"\\]|\\.)*)", line (\d{1,9})(?!\d))?')
# `/*0040*/  @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;` -> address, mnemonic with modifiers
INSTRUCTION = lazy_compile(r"^/\*([0-9a-fA-F]+)\*/\s*(?:\{\s*)?(?:@!?U?P[\w]+\s+)?([A-Z0-9_][\w.]*)")
TEXT_SECTION = lazy_compile(r"^\.section\s+\.text\.([^\s,]+)")
FUNCTION_TYPE = lazy_compile(r"^\.type\s+([^\s,]+)\s*,\s*@function")
# A noinline helper is printed inside its kernel's section as `$kernel$helper:`.
LABEL = lazy_compile(r"^([^\s/:]+):$")
OTHER_SECTION = lazy_compile(r"^\.section\s+")
# The file name nvdisasm -gp gives the PTX embedded in the cubin.
PTX_TEXT_FILE = ".nv_debug_ptx_txt"


def parse(text: str, path: str | None = None, stage: str = "sass") -> Module:
    module = Module(stage=stage, path=path)
    function: str | None = None
    run: list[tuple[str, int, str | None, int]] = []  # the current `//##` run, innermost first
    run_open = False  # True while `//##` lines follow each other
    current: SourceLoc | None = None
    ptx_line: int | None = None
    files: dict[str, str] = {}
    cache: dict[tuple, SourceLoc] = {}
    function_names: set[str] = set()
    labels: dict[int, str] = {}  # index of the op a label (`.L_x_0:`) stands before -> the label

    for lineno, raw in enumerate(iter_lines(text), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("//##"):
            m = LINE_INFO.match(line)
            if m is None:
                module.unparsed.append((lineno, line))
                continue
            if m.group(1) == PTX_TEXT_FILE:  # -gp: a PTX line, not a source position
                ptx_line = int(m.group(2))
                continue
            if not run_open:
                run = []
                run_open = True
            file = unescape_c(m.group(1))
            run.append((file, int(m.group(2)), unescape_c(m.group(3)) if m.group(3) is not None else None,
                        int(m.group(4) or 0)))
            files.setdefault(file, file)
            continue
        if run_open:
            key = tuple(run)
            current = cache.get(key)
            if current is None:
                current = cache[key] = _chain(run)
            run_open = False
        if line[0] == "/" and line.startswith("/*"):
            m = INSTRUCTION.match(line)
            if m is None:
                module.unparsed.append((lineno, line))
                continue
            if function is None:
                module.unparsed.append((lineno, line))
                continue
            module.ops.append(Op(lineno=lineno, op=intern(m.group(2)), text=line, loc=current, function=function,
                                 ptx_line=ptx_line))
            continue
        if line[0] == ".":
            if line[-1] == ":":  # a label: `.L_x_0:`
                labels[len(module.ops)] = line[:-1]
                continue
            m = TEXT_SECTION.match(line)
            if m:
                function, current, ptx_line = m.group(1), None, None
                module.functions.append(function)
            elif OTHER_SECTION.match(line):
                function, current, ptx_line = None, None, None
            else:
                t = FUNCTION_TYPE.match(line)
                if t:
                    function_names.add(t.group(1))
            continue
        lm = LABEL.match(line)
        if lm:
            labels[len(module.ops)] = lm.group(1)
        if lm and lm.group(1) in function_names and lm.group(1) != function:
            # a function of its own (a noinline helper, ptxas's 64-bit division or trap subroutine after
            # the kernel's EXIT): nothing of the previous one's position carries over
            function, current, ptx_line = lm.group(1), None, None
            if function not in module.functions:
                module.functions.append(function)
        # other labels (`.L_x_0:`), `//` comments, `{`/`}` of dual-issue pairs: not instructions;
        # anything else is not nvdisasm syntax we know, and is reported rather than dropped
        elif lm is None and not line.startswith(("//", "{", "}")):
            module.unparsed.append((lineno, line))
    module.files = {str(i): f for i, f in enumerate(files, 1)}
    _drop_padding(module, labels)
    return module


def _unpredicated(op: Op) -> bool:
    return not op.text.split("*/", 1)[-1].lstrip(" {").startswith("@")


def _drop_padding(module: Module, labels: dict[int, str]) -> None:
    """ptxas ends a function's code with `.L_x_N:` `BRA (.L_x_N)` (a branch to itself, after the last EXIT)
    and NOPs up to its alignment: never executed, though nvdisasm lists them under the function's last
    line (usually its `def`: a dozen SASS instructions on the kernel's first line). Left out (docs/map.md
    says so; a note on every command that reads SASS would say it about every kernel)."""

    def is_padding(index: int, op: Op) -> bool:
        if op.op == "NOP":
            return True
        label = labels.get(index)  # the label standing right before it: a branch to itself
        return op.op == "BRA" and label is not None and f"({label})" in op.text and _unpredicated(op)

    drop_trailing_padding(module, is_padding,
                          lambda op: op.op.split(".")[0] in ("EXIT", "BRA", "RET") and _unpredicated(op))


def _chain(run: list[tuple[str, int, str | None, int]]) -> SourceLoc:
    loc: SourceLoc | None = None
    last = run[-1]
    if last[2] is not None:  # the run ends with an inlined-at that has no line of its own
        loc = SourceLoc(last[2], last[3], 0)
    for file, line, _, _ in reversed(run):
        loc = SourceLoc(file, line, 0, loc)
    assert loc is not None
    return loc
