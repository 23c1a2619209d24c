"""AMDGCN disassembly as `llvm-objdump -d --line-numbers` prints it (stage `hsaco-asm`).

`0000000000001700 <softmax_kernel>:` starts a function, `; /path/kernels.py:77` sets the line of the
instructions that follow (llvm-objdump prints it only when it changes), `; name():` names the function
the line belongs to. llvm-objdump 19 prints only the innermost line of inlined code and no column.
"""

from __future__ import annotations

import re

from tritonscope.stages.common import Module, Op, SourceLoc

FUNCTION_START = re.compile(r"^[0-9a-fA-F]+ <([^>]+)>:$")
LINE_COMMENT = re.compile(r"^; (.+?):(\d+)(?::(\d+))?(?: \(discriminator \d+\))?$")
FUNCTION_NAME_COMMENT = re.compile(r"^; .*\(\):$")
INSTRUCTION = re.compile(r"^([a-z_][\w]*)")
_HEADER_MARKERS = ("file format", "Disassembly of section")


def parse(text: str, path: str | None = None, stage: str = "hsaco-asm") -> Module:
    module = Module(stage=stage, path=path)
    function: str | None = None
    current: SourceLoc | None = None
    cache: dict[tuple[str, int, int], SourceLoc] = {}
    files: dict[str, str] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line == "...":
            continue
        if line[0] == ";":
            m = LINE_COMMENT.match(line)
            if m:
                key = (m.group(1), int(m.group(2)), int(m.group(3) or 0))
                current = cache.get(key)
                if current is None:
                    current = cache[key] = SourceLoc(*key)
                files.setdefault(m.group(1), m.group(1))
            elif not FUNCTION_NAME_COMMENT.match(line):
                module.unparsed.append((lineno, line))
            continue
        m = FUNCTION_START.match(line)
        if m:
            function, current = m.group(1), None
            module.functions.append(function)
            continue
        if any(marker in line for marker in _HEADER_MARKERS):
            continue
        m = INSTRUCTION.match(line)
        if m is None or function is None:
            module.unparsed.append((lineno, line))
            continue
        module.ops.append(Op(lineno=lineno, op=m.group(1), text=line, loc=current, function=function))
    module.files = {str(i): f for i, f in enumerate(files, 1)}
    return module
