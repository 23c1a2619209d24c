"""AMDGCN assembly: one Op per instruction, located by the `.loc` directive in force.

`.file N "dir" "name"`, `.loc N line col [flags]` with a comment that spells the inline chain:
`; standard.py:196:12 @[ standard.py:216:16 @[ kernels.py:36:9 @[ kernels.py:91:15 ] ] ]` (Triton
3.9). Where no comment carries `@[` (older releases), the chain comes from the DWARF inlined-subroutine
ranges in `.debug_info`. `.loc 1 0 0` is an explicit "no line" (line 0). Labels and instructions
inherit the last `.loc`.
"""

from __future__ import annotations

import os
from sys import intern

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op, iter_lines, unescape_c
from tritonscope.stages.dwarf_inline import call_sites_by_line, read_inlined_calls
from tritonscope.stages.loc_comments import CommentChains, Position

FILE_DIRECTIVE = lazy_compile(r'^\.file\s+(\d+)\s+"((?:[^"\\]|\\.)*)"(?:\s+"((?:[^"\\]|\\.)*)")?')
# line and column numbers of at most 9 digits: a longer one is not a position (and int() refuses > 4300)
LOC_DIRECTIVE = lazy_compile(r"^\.loc\s+(\d+)\s+(\d{1,9})\s+(\d{1,9})(?!\d)")
FUNCTION_TYPE = lazy_compile(r"^\.type\s+([\w.$]+)\s*,\s*@function")
FUNCTION_END = lazy_compile(r"^\.Lfunc_end\d+:")
SECTION = lazy_compile(r"^\.section\s+([^\s,]+)")
LABEL = lazy_compile(r"^[\w.$]+:")
INSTRUCTION = lazy_compile(r"^([a-z_][\w]*)")
# Outside directives, one match per line: a label (no group) or an instruction (its mnemonic in group 1).
LABEL_OR_INSTRUCTION = lazy_compile(LABEL.pattern + "|" + INSTRUCTION.pattern)



def parse(text: str, path: str | None = None, stage: str = "amdgcn") -> Module:
    module = Module(stage=stage, path=path)
    files: dict[str, str] = {}
    function_names: set[str] = set()
    labels: dict[str, int] = {}
    op_locs: list[tuple[Op, Position, str | None]] = []  # op, .loc position, its `@[` comment chain
    section_lines: dict[str, list[str]] = {}
    section = ".text"
    in_metadata = False
    metadata_ended = False  # (LLVM ends every AMDGCN text with its `.amdgpu_metadata` block)
    function: str | None = None
    current: tuple[Position, str | None] | None = None
    has_chains = False
    label_or_instruction = LABEL_OR_INSTRUCTION.match  # looked up once: the loop runs once per line
    ops_append = module.ops.append

    for lineno, raw in enumerate(iter_lines(text), 1):
        line = raw.strip()
        if not line or line[0] == ";":
            continue
        if in_metadata:
            in_metadata = not line.startswith(".end_amdgpu_metadata")
            metadata_ended = not in_metadata
            continue
        first = line[0]
        if first == ".":
            if line.startswith(".loc"):
                m = LOC_DIRECTIVE.match(line)
                if m is None:
                    module.unparsed.append((lineno, line))
                    continue
                chain = None
                semi = line.find(";")
                if semi >= 0 and "@[" in line:
                    chain = line[semi + 1:]
                    has_chains = True
                current = ((m.group(1), int(m.group(2)), int(m.group(3))), chain)
                continue
            if section.startswith(".debug_") and not line.startswith((".section", ".text")):
                section_lines[section].append(line)
                continue
            if line.startswith(".file"):
                m = FILE_DIRECTIVE.match(line)
                if m:
                    second = m.group(3)
                    files[m.group(1)] = _join(unescape_c(m.group(2)), None if second is None else unescape_c(second))
                else:
                    module.unparsed.append((lineno, line))
                continue
            if line.startswith(".section"):
                m = SECTION.match(line)
                section = m.group(1).strip('"') if m else line
                section_lines.setdefault(section, [])
                continue
            if line.startswith(".text"):
                section = ".text"
                continue
            if line.startswith(".amdgpu_metadata"):
                in_metadata = True
                continue
            if line.startswith(".amdhsa_user_sgpr_"):
                parts = line[len(".amdhsa_user_sgpr_"):].split(None, 1)
                if len(parts) == 2 and parts[1].strip().isdigit() and len(parts[1].strip()) < 10:
                    module.user_sgprs[parts[0]] = int(parts[1])
                continue
            m = FUNCTION_TYPE.match(line)
            if m:
                function_names.add(m.group(1))
                continue
            if LABEL.match(line):
                if FUNCTION_END.match(line):
                    labels[line[:line.index(":")]] = lineno
                    function, current = None, None
                elif function is not None:
                    labels[line[:line.index(":")]] = lineno
                continue
            continue  # other directives: .globl, .p2align, .cfi_*, .amdhsa_*, ...
        m = label_or_instruction(line)
        if m is not None and m[1] is None:  # a label
            name = line[:line.index(":")]
            if name in function_names:
                function, current = name, None
                module.functions.append(name)
            labels[name] = lineno
            continue
        if function is None:
            if not section.startswith(".debug_"):
                module.unparsed.append((lineno, line))
            continue
        if m is None:
            module.unparsed.append((lineno, line))
            continue
        op = Op(lineno, intern(m[1]), line, None, function)
        ops_append(op)
        if current is not None:
            op_locs.append((op, current[0], current[1]))

    module.files = files
    # (LLVM ends each function with its `.Lfunc_endN:` label and the file with `.end_amdgpu_metadata`)
    module.cut_short(
        f"it ends inside function {function} (no `.Lfunc_end` label)" if function is not None else "",
        "it ends inside its `.amdgpu_metadata` block" if in_metadata else "",
        "it ends before its kernel" if not module.functions else
        "it ends before its `.amdgpu_metadata` block" if function is None and not in_metadata
        and not metadata_ended else "")
    resolver = CommentChains(files, lambda: {pos for _, pos, _ in op_locs})
    dwarf_sites: dict = {}
    if not has_chains:
        calls = read_inlined_calls(section_lines.get(".debug_info", []), section_lines.get(".debug_ranges", []),
                                   section_lines.get(".debug_abbrev"))
        dwarf_sites = call_sites_by_line(calls, labels, [op.lineno for op, _, _ in op_locs],
                                         {op.lineno: pos for op, pos, _ in op_locs})
    for op, pos, chain in op_locs:
        if chain is not None:
            op.loc = resolver.from_comment(pos, chain)
        else:
            sites = dwarf_sites.get(op.lineno)
            op.loc = resolver.with_dwarf(pos, sites) if sites else resolver.position(pos)
    return module


def _join(first: str, second: str | None) -> str:
    if second is None:
        return first
    if not first or os.path.isabs(second):
        return second
    return f"{first.rstrip('/')}/{second}"
