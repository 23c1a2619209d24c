"""LLVM IR text: one Op per instruction, located through `!dbg !N` debug metadata.

`!N = !DILocation(line:, column:, scope:, inlinedAt:)`; the scope leads through DILexicalBlockFile /
DILexicalBlock / DISubprogram (each has a `file:`) to `!DIFile(filename:, directory:)`. Metadata is
printed after the functions, so one pass collects instructions and metadata, then locations resolve.
A `switch` lists its cases one per line (`switch i8 %18, label %19 [` ... `], !dbg !12`: warp-specialized
kernels dispatch their partitions with one): one Op, its text the joined lines, its `!dbg` on the last.
"""

from __future__ import annotations

import os
from sys import intern

from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import Module, Op, SourceLoc, iter_lines, unescape_llvm

DEFINE = lazy_compile(r"^define\b[^@]*@(\"[^\"]+\"|[\w.$-]+)\(")
# `%5 = tail call ...` / `store ...` / `br label %7`: optional result, then the opcode.
INSTRUCTION = lazy_compile(r"^(?:%[\w.$-]+|%\"[^\"]+\")\s*=\s*(?:(?:tail|musttail|notail)\s+)?([a-z][\w.]*)"
                           r"|^(?:(?:tail|musttail|notail)\s+)?([a-z][\w.]*)")
DBG_REF = lazy_compile(r"!dbg !(\d+)")
# `!12 = distinct !DILocation(line: 3, ...)`: the node id, its kind and its field list.
METADATA_NODE = lazy_compile(r"^!(\d+) = (?:distinct )?!(DI\w+)\((.*)\)\s*$")
FIELD = lazy_compile(r'(\w+): (?:"((?:[^"\\]|\\.)*)"|!(\d+)|([\w.|-]+))')
LABEL = lazy_compile(r'^(?:[\w.$-]+|"[^"]+"):')
# Inside a function, one match per line: a label (no group) or an instruction (its opcode in group 1 or 2).
LABEL_OR_INSTRUCTION = lazy_compile(LABEL.pattern + "|" + INSTRUCTION.pattern)
# Module-level lines that are neither instructions nor metadata nodes.
TOP_LEVEL_PREFIXES = ("declare", "attributes", "target", "source_filename", "@", "!", "$", "%", "module",
                      "uselistorder", "define")
_MAX_CHAIN = 64


def parse(text: str, path: str | None = None, stage: str = "llir") -> Module:
    module = Module(stage=stage, path=path)
    nodes: dict[str, tuple[str, dict[str, str]]] = {}
    pending: list[tuple[Op, str]] = []
    function: str | None = None
    # bound methods looked up once: this loop runs once per line of files of 100,000 lines
    label_or_instruction = LABEL_OR_INSTRUCTION.match
    dbg_ref = DBG_REF.search
    ops_append = module.ops.append
    cont_parts: list[str] | None = None  # the lines so far of an instruction that continues (`switch ... [`)
    cont_op: Op | None = None
    subprograms: list[tuple[str, str]] = []
    for lineno, raw in enumerate(iter_lines(text), 1):
        line = raw.strip()
        if not line or line[0] == ";":
            continue
        if cont_parts is not None:
            if line[0] == "]":
                module.continued[lineno] = cont_op
                cont_parts.append(line)
                cont_op.text = " ".join(cont_parts)
                d = dbg_ref(line)
                if d:
                    pending.append((cont_op, d[1]))
                cont_parts = cont_op = None
                continue
            if line != "}" and not LABEL.match(line):  # a case; a brace or label: damaged, it ends there
                module.continued[lineno] = cont_op
                cont_parts.append(line)
                continue
            cont_parts = cont_op = None
        if function is None:
            if line[0] == "!":
                m = METADATA_NODE.match(line)
                if m:
                      nodes[m.group(1)] = (m.group(2), _fields(m.group(3)))
                continue
            dm = DEFINE.match(line)
            if dm:
                if line.endswith("{"):
                      function = dm.group(1).strip('"')
                      module.functions.append(function)
                      d = dbg_ref(line)  # (its DISubprogram: the def's file and line)
                      if d:
                          subprograms.append((function, d[1]))
                continue
            if line.startswith(TOP_LEVEL_PREFIXES) or line == "}":
                if line.startswith("target triple"):
                    module.triple = line.partition("=")[2].strip().strip('"') or None
                continue
            module.unparsed.append((lineno, line))
            continue
        if line == "}":
            function = None
            continue
        m = label_or_instruction(line)
        if m is None:
            module.unparsed.append((lineno, line))
            continue
        opcode = m[1] or m[2]
        if opcode is None:  # a label
            continue
        op = Op(lineno, intern(opcode), line, None, function)
        ops_append(op)
        if line[-1] == "[":
            cont_parts, cont_op = [line], op
            continue
        d = dbg_ref(line)
        if d:
            pending.append((op, d[1]))

    resolver = _DebugInfo(nodes)
    for op, node_id in pending:
        op.loc = resolver.location(node_id)
    missing = {node_id for _, node_id in pending if node_id not in nodes}
    module.cut_short(f"it ends inside function {function}" if function is not None else "",
                     "it ends before its first function (`define`)" if not module.functions else "",
                     f"its instructions name {len(missing)} debug-metadata node(s) it never defines "
                     f"(!{min(missing, key=_numeric_order)}, ...): their instructions have no line" if missing else "")
    for function, node_id in subprograms:
        node = nodes.get(node_id)
        if node is not None and node[0] == "DISubprogram" and _int(node[1].get("line")) > 0:
            module.function_locs[function] = SourceLoc(resolver.scope_file("!" + node_id), _int(node[1]["line"]), 0)
    module.files = {k: v for k, v in resolver.file_table().items()}
    return module


def _numeric_order(digits: str) -> tuple[int, str]:
    """Numeric order of a string of digits, however long (int() refuses more than 4300 digits)."""
    return len(digits.lstrip("0")), digits.lstrip("0")


def _fields(body: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in FIELD.finditer(body):
        s, ref, word = m.group(2), m.group(3), m.group(4)
        out[m.group(1)] = s if s is not None else ("!" + ref if ref is not None else word)
    return out


class _DebugInfo:
    def __init__(self, nodes: dict[str, tuple[str, dict[str, str]]]):
        self.nodes = nodes
        self.loc_cache: dict[str, SourceLoc] = {}
        self.file_cache: dict[str, str] = {}

    def location(self, node_id: str, depth: int = 0) -> SourceLoc:
        hit = self.loc_cache.get(node_id)
        if hit is not None:
            return hit
        node = self.nodes.get(node_id)
        if node is None or node[0] != "DILocation" or depth > _MAX_CHAIN:
            loc = SourceLoc("", 0, 0)
        else:
            fields = node[1]
            inlined = fields.get("inlinedAt")
            caller = self.location(inlined[1:], depth + 1) if inlined and inlined.startswith("!") else None
            if depth and caller is None:
                # the outermost call site of an inlined chain is in the kernel's own code: its function's
                # file (Triton 2.x scoped it in a DILexicalBlockFile of the callee's file, `tl.max` at
                # `standard.py:26` for the kernel's line 26; from 3.0 the two files agree)
                file = self.scope_file(fields.get("scope", ""), function=True)
            else:
                file = self.scope_file(fields.get("scope", ""))
            loc = SourceLoc(file, _int(fields.get("line")), _int(fields.get("column")), caller)
        self.loc_cache[node_id] = loc
        return loc

    def scope_file(self, ref: str, function: bool = False) -> str:
        """The file of a scope: its own `file:` field, else its parent scope's (`function`: the file of the
        DISubprogram the scope is in, lexical blocks passed over)."""
        key = "^" + ref if function else ref
        hit = self.file_cache.get(key)
        if hit is not None:
            return hit
        file = ""
        seen = 0
        cur = ref
        while cur.startswith("!") and seen < _MAX_CHAIN:
            seen += 1
            node = self.nodes.get(cur[1:])
            if node is None:
                break
            kind, fields = node
            if kind == "DIFile":
                file = _join(fields)
                break
            f = fields.get("file")
            if function and kind.startswith("DILexicalBlock"):
                cur = fields.get("scope", "")
                continue
            if f and f.startswith("!"):
                fnode = self.nodes.get(f[1:])
                if fnode is not None and fnode[0] == "DIFile":
                      file = _join(fnode[1])
                      break
            cur = fields.get("scope", "")
        self.file_cache[key] = file
        return file

    def file_table(self) -> dict[str, str]:
        return {k: _join(f) for k, (kind, f) in self.nodes.items() if kind == "DIFile"}


def _join(fields: dict[str, str]) -> str:
    name = unescape_llvm(fields.get("filename", ""))
    directory = unescape_llvm(fields.get("directory", ""))
    if not directory or os.path.isabs(name):
        return name
    return f"{directory.rstrip('/')}/{name}"


def _int(value: str | None) -> int:
    try:
        return int(value) if value is not None else 0
    except ValueError:
        return 0
