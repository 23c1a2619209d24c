"""TorchInductor provenance: which model operations a Triton kernel written by torch.compile came from.

Inductor leaves two records beside its kernels, and this module reads both (it never writes anything):

- the wrapper module ("output code", first line `# AOT ID: [...]`), one per compiled graph, in its cache
  dir (`$TORCHINDUCTOR_CACHE_DIR`, else `<tmp>/torchinductor_<user>`) and, under TORCH_COMPILE_DEBUG=1,
  as `output_code.py` in the debug dir. Above each kernel it writes
      # kernel path: /tmp/torchinductor_u/r5/cr5yu73o....py
      # Topologically Sorted Source Nodes: [expand, div_2, ...], Original ATen: [aten.expand, aten.div, ...]
      # Source node to ATen node mapping:
      #   logits => convert_element_type_27
      # Graph fragment:
      #   %addmm_4 : Tensor "bf16[64, 16][16, 1]cuda:0" = PlaceHolder[target=addmm_4]
      #   %sub_5 : Tensor "f32[64, 16][16, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.sub.Tensor](...)
      triton_per_fused_..._0 = async_compile.triton('triton_per_fused_..._0', '''<kernel source>''', ...)
  The source nodes are the pre-grad (Dynamo) nodes; the right-hand sides and the fragment are the
  post-grad FX nodes fused into the kernel.
- with TORCH_COMPILE_DEBUG=1, per graph, `fx_graph_transformed.py` (the post-grad graph) and
  `fx_graph_readable.py`, whose nodes sit under `# File: /path/model.py:19 in forward, code: y = ...`.
- with TORCH_TRACE (and provenance tracking on), torch's structured trace: the wrappers' text, the
  post-grad graphs and every kernel call's full stacks (srcmap.torch_trace), which name the model line
  that called an op of torch's own Python where the FX graphs name torch's line.

A Triton cache entry is linked to its wrapper block by the basename of the kernel file its IR locations
name (Inductor names kernel files by the hash of their text, so the link holds for a recording moved to
another machine); where the kernel was compiled from a file that differs from the wrapper's `kernel path`
in whitespace only (autotuned templates are), by its name and its text. Kernels compiled while autotuning
(max-autotune's template choices, benchmark-fusion trials) are in no wrapper: Inductor records no nodes
for them, and the link says so.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from tritonscope.artifacts.cache import default_inductor_dir
from tritonscope.lazyre import lazy_compile
from tritonscope.srcmap.paths import INDUCTOR_KERNEL_FILE
from tritonscope.stages.common import read_at_most, source_lines, unescape_llvm

# A wrapper of a large model is a few MB; nothing Inductor writes is near this.
MAX_WRAPPER_BYTES = 64 << 20
_MAX_WALK_DEPTH = 6
# Inductor cache subdirectories that hold no wrapper or kernel source (compiled graphs, locks, other
# compilers' caches: CuTeDSL's `quack` from torch 2.14, FlyDSL's `flydsl_compile_cache` from 2.15): not walked.
_SKIP_DIRS = {"fxgraph", "aotautograd", "triton", "locks", "cache", "__pycache__", "pyinductor", "cudagraphs", "quack",
              "flydsl_compile_cache"}
_AOT_ID = b"# AOT ID:"
_ASYNC_SETUP = b"\nasync_compile = AsyncCompile()"
_PLACEHOLDER_NAME = "'kernel_name': 'Placeholder.DESCRIPTIVE_NAME'"
# How a graph fragment spells a kernel's inputs (the FX op of a placeholder node), per torch release.
PLACEHOLDER_OPS = ("PlaceHolder", "placeholder")

_KERNEL_PATH = lazy_compile(r"^# kernel path: (.+)$")
# the FX node of a call of a user-defined kernel: its target, or (a node the mapping names only) its name
_USER_KERNEL_CALL = lazy_compile(r"^(?:torch\.ops\.higher_order\.)?triton_kernel_wrapper_(?:mutation|functional)\b")
# above a user-defined kernel (a @triton.jit function the model calls, which Inductor copies into its
# wrapper as it is): where it was defined, `# Original path: /src/kernels.py:10`
_ORIGINAL_PATH = lazy_compile(r"^# Original path: (?P<file>.+):(?P<line>\d+)\s*$")
# above a kernel call, with provenance tracking on (torch >= 2.9): the key of its stacks in the torch trace
_HANDLE_MARK = "# [Provenance debug handles] "
_HANDLE = lazy_compile(r"^\s*# \[Provenance debug handles\] (([\w.]+):\d+)\s*$")
_LAUNCH = lazy_compile(r"^([A-Za-z_]\w*)\.run\(")
# `# Topologically Sorted Source Nodes: [...]` (torch >= 2.5; `Unsorted` across graphs), `# Source Nodes:`
# before; the mapping lines `#   src => a, b` after a header line, or `# src => a, b` right after the
# Source Nodes line (torch <= 2.4, no header, no graph fragment).
_SOURCE_NODES_HEAD = lazy_compile(r"# (?:(?:Topologically Sorted|Unsorted) )?Source Nodes: \[")
_ATEN = "], Original ATen: ["
_MAPPING = lazy_compile(r"^#\s+(\S*) ?=> (.+)$")  # a node made by a post-grad pass has an empty source
_FRAGMENT_HEAD = lazy_compile(r"#   %([\w.]+) : ")
_WORD = lazy_compile(r"\w")
_TENSOR_TYPE = lazy_compile(r'Tensor "(?P<dtype>\w+)(?P<shape>\[[^\]]*\])(?P<stride>\[[^\]]*\])(?P<device>[^"]*)"')
# `name = async_compile.triton('name', '''` (older torch: the placeholder 'triton_' as Triton's name)
_ASYNC_COMPILE = lazy_compile(r"^(\w+) = async_compile\.triton\('(\w+)', '''$")
_SOURCE_END = lazy_compile(r"^'''(?:,|\))")
# The summary comment torch.fx writes above each run of nodes (`Graph._python_code`): `# File: /m.py:19 in
# forward, code: ...` (before torch 2.3 without ` in forward`), after what fx puts first where a node has it:
# `# KEY: VALUE ` (print_readable's additional_meta), ` Annotation: {...}` (torch.fx.traceback.annotate),
# ` ac_graph_id: 2 - PREFER_RECOMPUTE` or ` recompute: ...` (activation checkpointing: the recomputed forward
# nodes of a backward graph), `Backward of forward node: ` (the backward graph's nodes, torch >= 2.14). Its
# stack part is either the file or `No stacktrace found for following nodes`. Missing one of these would
# leave the nodes under it with the previous comment's line.
_FX_FILE_TAIL = lazy_compile(r":(\d{1,9})(?: in ([^,]{1,1024}))?, code: ")
# (these lines are read by hand, match_fx_file / match_source_nodes / match_fragment_node: the patterns that
# read them before backtracked quadratically on a long line of repeated fragments, 24 s for 200 KB; they
# are the reference of those matchers in tests/test_fuzz_inductor.py)
_MAX_FX_CANDIDATES = 8
_MAX_FX_FILE_CHARS = 4096
_FX_NO_TRACE = lazy_compile(r"^\s*#(?:.*\s)?No stacktrace found for following nodes\s*$")
# activation checkpointing's policy in that comment: ` ac_graph_id: 2 - PREFER_RECOMPUTE`, ` recompute: MUST_SAVE`
_FX_CHECKPOINT = lazy_compile(r"^\s*#.*?\s(?:ac_graph_id: \S+ - |recompute: )(\w+)")
_FX_NODE = lazy_compile(r"^\s+(\w+)(?:\s*:\s*\"([^\"]*)\")?\s*=\s")
# what a printed FX node line computes, after its `= `: a call (`torch.ops.aten.mul.Tensor(a, b)`), an item
# of a tuple node (`cond[0]`), an attribute of the module (`self._tensor_constant0`)
_FX_CALL = lazy_compile(r"([A-Za-z_][\w.]*)\(")
_FX_ITEM = lazy_compile(r"[A-Za-z_]\w*\[-?\d+\]")
_FX_ATTR = lazy_compile(r"self\.([\w.]+)\s*(?:;|$)")
_LOC_FILE = lazy_compile(r'loc\("([^"]+)":\d+')
# The first IR file of an entry and how much of its head is read for the kernel's file.
_LOC_STAGES = ("source", "ttir", "ttgir", "llir")
_LOC_HEAD = 1 << 13


def torch_triton_caches(dirs: tuple[str, ...] | list[str] = (), env: dict[str, str] | None = None) -> Path | None:
    """Where torch.compile had Triton write its kernels when TRITON_CACHE_DIR was not set:
    `<Inductor dir>/triton/<device>` (torch._inductor.runtime.cache_dir_utils.triton_cache_dir); the
    folder of those per-device caches, or None."""
    env = os.environ if env is None else env
    if env.get("TRITON_CACHE_DIR"):
        return None
    for root in [Path(d) for d in dirs] or [default_inductor_dir(env)]:
        if (root / "triton").is_dir():
            return root / "triton"
    return None


@dataclass
class ModelLine:
    """A line of the user's model, as the FX graph's `# File:` comment records it."""

    file: str
    line: int
    function: str
    code: str
    how: str  # 'fx_graph_transformed' | 'fx_graph_readable' | 'inferred from its users' | ...
    # where the line calls into torch's own Python (F.rms_norm...): those frames, outermost first, as the
    # torch trace's stack names them; the FX graph itself named the innermost
    inner: tuple = ()
    # a line in torch's own Python that the stacks show called from several model lines: those frames
    callers: tuple = ()

    def to_json(self) -> dict:
        out = {"file": self.file, "line": self.line, "function": self.function, "code": self.code,
               "how": self.how}
        if self.inner:
            out["inner"] = [f.to_json() for f in self.inner]
        if self.callers:
            out["callers"] = [f.to_json() for f in self.callers]
        return out


@dataclass
class FxNode:
    """A post-grad FX node of a kernel's graph fragment."""

    name: str
    op: str  # call_function | PlaceHolder | ...
    target: str
    type: str  # 'Tensor "bf16[64, 16][16, 1]cuda:0"' as written
    source_node: str | None = None  # the pre-grad node it came from (the wrapper's mapping)
    model: ModelLine | None = None
    scope: str | None = None  # the FX subgraph it is in (a cond branch, a nested region), None: the graph's own
    # activation checkpointing: its policy (PREFER_RECOMPUTE, MUST_SAVE...), and whether it is a forward
    # node a backward graph computes again
    checkpoint: str | None = None
    recomputed: bool = False

    def tensor(self) -> dict | None:
        m = _TENSOR_TYPE.search(self.type)
        if not m:
            return None
        return {"dtype": m.group("dtype"), "shape": _dims(m.group("shape")), "stride": _dims(m.group("stride")),
                "device": m.group("device") or None}

    def to_json(self) -> dict:
        return {"name": self.name, "op": self.op, "target": self.target, "tensor": self.tensor(),
                "source_node": self.source_node, "model": self.model.to_json() if self.model else None,
                "scope": self.scope, "checkpoint": self.checkpoint, "recomputed": self.recomputed}


def _dims(text: str) -> list:
    inner = text.strip()[1:-1].strip()
    if not inner:
        return []
    return [int(d) if re.fullmatch(r"-?\d{1,18}", d.strip()) else d.strip() for d in inner.split(",")]


@dataclass
class KernelBlock:
    """One kernel of a wrapper: what Inductor wrote above its `async_compile.triton` call."""

    name: str
    kernel_path: str | None
    wrapper: Wrapper
    line: int  # of the `# kernel path:` (or the async_compile) line in the wrapper
    source_nodes: list[str] = field(default_factory=list)
    aten_ops: list[str] = field(default_factory=list)
    mapping: dict[str, list[str]] = field(default_factory=dict)  # source node -> post-grad nodes
    fragment: list[FxNode] = field(default_factory=list)
    source_digest: str | None = None  # of the kernel text, whitespace-normalized
    template_key: tuple | None = None  # a template kernel's problem sizes (M, N, K, strides)
    triton_name: str | None = None  # the name Triton compiles it under (older torch: 'triton_')
    # the file Inductor compiles the kernel from: its text's code hash (`c<51 base32>.py`), which the
    # `# kernel path` comment names when there is one (a user-defined kernel has none)
    text_file: str | None = None
    defined_at: tuple[str, int] | None = None  # a user-defined kernel's `# Original path` (file, line)
    # the text of the file named `text_file`: the wrapper's literal as Python reads it (where it holds no
    # escape sequence), which is what Inductor writes there
    file_text: str | None = field(default=None, repr=False)
    # every call's stacks (torch trace: one per FX node, outermost frame first), distinct
    stacks: list[tuple] = field(default_factory=list)
    _nodes: list[FxNode] | None = field(default=None, repr=False)

    @property
    def nodes(self) -> list[FxNode]:
        """The kernel's own nodes: the fragment's computed nodes and every mapped node (not its inputs)."""
        if self._nodes is None:
            self._nodes = self._own_nodes()
        return self._nodes

    def _own_nodes(self) -> list[FxNode]:
        seen: dict[str, FxNode] = {}
        mapped = {n for posts in self.mapping.values() for n in posts}
        # a node the kernel computes and reads back (a reduction's output re-read in the same kernel) is in
        # the fragment twice, as its op and as a PlaceHolder: the op is the node
        for n in sorted(self.fragment, key=lambda n: n.op in PLACEHOLDER_OPS):
            if n.op not in PLACEHOLDER_OPS or n.name in mapped:
                seen.setdefault(n.name, n)
        # Inductor lists each node once, under its source (utils.get_kernel_metadata): a name listed twice is
        # two nodes, of two FX scopes (a kernel across a graph and its cond branch or nested region, each
        # with its own `mul`), which _place_nodes tells apart
        listed: dict[str, int] = {}
        for posts in self.mapping.values():
            for p in posts:
                listed[p] = listed.get(p, 0) + 1
        made = dict.fromkeys(seen, 1)
        extra: list[FxNode] = []
        for src, posts in self.mapping.items():
            for p in posts:
                if p not in seen:
                    seen[p] = FxNode(p, "", "", "", source_node=src or None)
                    made[p] = 1
                elif made[p] < listed[p]:
                    extra.append(FxNode(p, "", "", "", source_node=src or None))
                    made[p] += 1
        nodes = [*seen.values(), *extra]
        if self.defined_at is None:
            # A user-defined kernel's call (a triton_kernel_wrapper_* node) is an extern call, never part
            # of a kernel Inductor generates; Inductor lists it among the nodes of the kernel whose output
            # that call then takes or writes (the buffer's origins), so it would give this kernel the
            # line that launches the user's kernel.
            nodes = [n for n in nodes if not _USER_KERNEL_CALL.match(n.target or n.name)]
        return nodes

    @property
    def inputs(self) -> list[FxNode]:
        return [n for n in self.fragment if n.op in PLACEHOLDER_OPS]


@dataclass
class Wrapper:
    path: str
    aot_id: str | None
    blocks: list[KernelBlock] = field(default_factory=list)
    fx_graph: str | None = None  # the FX graph file the model lines came from
    notes: list[str] = field(default_factory=list)
    # `# [Provenance debug handles] NAME:N` above each kernel call (provenance tracking on): NAME -> keys
    handles: dict[str, list[str]] = field(default_factory=dict)
    trace: str | None = None  # the torch trace record (LOG:LINE) it was read from or matched to
    # each kernel's launches in `call()` (`NAME.run(...)`): [(wrapper line, the source nodes its comment
    # names)]. Inductor writes a kernel's code, mapping and fragment once, for its first call's nodes
    calls: dict[str, list[tuple[int, list[str]]]] = field(default_factory=dict)
    trace_content: str | None = None  # digest of the FX graph and stacks its trace record gave

    def launches(self, name: str) -> dict:
        """Kernel `name`'s launches, as the JSON says them: `other_calls`, those after its first (their nodes
        are not the ones written with it; the first 1,000: a damaged wrapper can repeat a launch without
        end), and `launches`, how many in all."""
        calls = self.calls.get(name, [])
        return {"other_calls": [{"wrapper_line": line, "source_nodes": nodes} for line, nodes in calls[1:1001]],
                "launches": len(calls)}

    @property
    def graph(self) -> str:
        return self.aot_id or Path(self.path).stem

    @property
    def source(self) -> str:
        """Where it was read: its file, or the trace record (LOG:LINE) holding a text whose file is gone."""
        return self.trace if self.trace and not os.path.isfile(self.path) else self.path

    def key(self) -> tuple:
        """One graph: the copies Inductor writes of it (its cache, `<x>.debug`, a debug dir, a trace's record)
        are one. (Another run of an edited model may hold the same kernels under other model lines: told
        apart by the FX graphs beside them or the trace records, `InductorIndex.load`, `_merge_traces`.)"""
        return (self.aot_id, tuple((b.name, Path(b.kernel_path).name if b.kernel_path else None,
                                    b.source_digest) for b in self.blocks))


def code_file(text: str) -> str:
    """The name of the file Inductor writes a kernel's text to before compiling it: `c` and 51 characters of
    the base32 SHA-256 of the stripped text (torch._inductor.codecache.write, code_hash), `.py`. Matches a
    kernel literal of the wrapper when the literal holds no escape sequence (Python reads them)."""
    import base64
    import hashlib

    return "c" + base64.b32encode(hashlib.sha256(text.strip().encode()).digest())[:51].decode().lower() + ".py"


def _digest(text: str) -> str:
    import hashlib  # only wrappers need it; hashlib loads OpenSSL (~2.5 ms of a start)

    norm = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return hashlib.sha1(norm.encode()).hexdigest()


def _block_head(kernel_path: str | None, line: int) -> dict:
    """What the comment block above a kernel says, as parse_wrapper fills it in."""
    return {"kernel_path": kernel_path, "line": line, "source_nodes": [], "aten_ops": [], "mapping": {},
            "fragment": []}


def parse_wrapper(text: str, path: str) -> Wrapper:
    """The kernel blocks of one wrapper module."""
    lines = source_lines(text)  # (a kernel's text is cut out of these and hashed: Python's line breaks only)
    aot = None
    if lines and lines[0].startswith("# AOT ID:"):
        m = re.search(r"\['([^']*)'\]", lines[0])
        aot = m.group(1) if m else lines[0][len("# AOT ID:"):].strip()
    wrapper = Wrapper(path, aot)
    pending: dict | None = None
    section = None
    names: set[str] = set()  # the kernels defined so far (their launches follow, in `call()`)
    call_nodes: list[str] = []  # the source nodes the comment above the next launch names
    i = 0
    while i < len(lines):
        line = lines[i]
        if _HANDLE_MARK in line and (hm := _HANDLE.match(line)):
            wrapper.handles.setdefault(hm.group(2), []).append(hm.group(1))
            i += 1
            continue
        if line[:1] in (" ", "\t"):  # inside `call()`: a launch, and the comment above it
            stripped = line.lstrip()
            if stripped.startswith("# Topologically Sorted Source Nodes:") and (sm := match_source_nodes(stripped)):
                call_nodes = _names(sm[0])
            elif ".run(" in stripped and (rm := _LAUNCH.match(stripped)) and rm.group(1) in names:
                wrapper.calls.setdefault(rm.group(1), []).append((i + 1, call_nodes))
                call_nodes = []
            if pending is None:
                i += 1
                continue
        m = _KERNEL_PATH.match(line)
        if m:
            pending = _block_head(m.group(1).strip(), i + 1)
            section = None
            i += 1
            continue
        if line.startswith("# Original path: ") and (om := _ORIGINAL_PATH.match(line)):
            pending = _block_head(None, i + 1)
            pending["defined_at"] = (om.group("file"), int(om.group("line")))
            section = None
            i += 1
            continue
        if pending is None and line.startswith("# Topologically Sorted Source Nodes:"):
            pending, section = _block_head(None, i + 1), None  # a block whose `# kernel path:` line is gone
        if pending is not None and line.startswith("#"):
            m = match_source_nodes(line)
            if m:
                pending["source_nodes"] = _names(m[0])
                pending["aten_ops"] = _names(m[1])
                section = "mapping"  # older torch: the mapping follows with no header line
            elif line.startswith("# Source node to ATen node mapping:"):
                section = "mapping"
            elif line.startswith("# Graph fragment:"):
                section = "fragment"
            elif section == "mapping" and (mm := _MAPPING.match(line)):
                pending["mapping"][mm.group(1)] = _names(mm.group(2))
            elif section == "fragment" and (fm := match_fragment_node(line)):
                pending["fragment"].append(FxNode(fm[0], fm[2], fm[3], fm[1].strip()))
            i += 1
            continue
        m = _ASYNC_COMPILE.match(line)
        if m:
            j = i + 1
            while j < len(lines) and not _SOURCE_END.match(lines[j]):
                j += 1
            if j == len(lines):  # (its text never closes: the file was cut short in it)
                wrapper.notes.append(f"{path}: ends inside the text of kernel {m.group(1)} (line {i + 1}; cut "
                                     "short?): it and what would follow are not read")
                break
            info = pending or _block_head(None, i + 1)  # a kernel with no comment block above it
            kernel_text = "\n".join(lines[i + 1:j])
            block = KernelBlock(m.group(1), info["kernel_path"], wrapper, info["line"], info["source_nodes"],
                                info["aten_ops"], info["mapping"], info["fragment"], _digest(kernel_text),
                                template_key(kernel_text), triton_name=m.group(2),
                                text_file=code_file(kernel_text), defined_at=info.get("defined_at"),
                                file_text="\n" + kernel_text + "\n")
            by_post = {p: s for s, posts in block.mapping.items() for p in posts}
            for n in block.fragment:
                n.source_node = by_post.get(n.name) or None
            wrapper.blocks.append(block)
            names.add(block.name)
            pending, section = None, None
            i = j + 1
            continue
        if pending is not None and line.strip():
            pending, section = None, None  # a comment block not followed by a kernel
        i += 1
    return wrapper


_TEMPLATE = "@triton_heuristics.template("
_TEMPLATE_SIZE = lazy_compile(r"^\s+(M|N|K|stride_\w+)\s*=\s*(\d+)\s*$", re.M)


def template_key(text: str) -> tuple | None:
    """The problem a template kernel (mm, addmm, bmm...) computes, as its body spells it: the sizes and
    strides it was specialized to. None for other kernels."""
    if _TEMPLATE not in text:
        return None
    key = tuple(sorted(_TEMPLATE_SIZE.findall(text)))
    return key or None


def _names(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


Loc = tuple  # (file, line, function, code[, how]) of a node's model line


@dataclass
class FxScope:
    """One graph of a printed FX graph module: the module's own, or a subgraph torch.fx prints as a class
    nested in it (a `torch.cond` branch, a nested compile region's `invoke_subgraph`, a checkpointed
    region). Node names are unique within a scope only: `mul` of a cond branch is not the `mul` of the
    graph around it."""

    name: str
    located: dict[str, Loc | None] = field(default_factory=dict)  # node -> its model line
    uses: dict[str, list[str]] = field(default_factory=dict)  # node -> the names on its line after `=`
    checkpoint: dict[str, str] = field(default_factory=dict)  # node -> activation checkpointing's policy
    # node -> (op, target, type) as a graph fragment writes them: a kernel Inductor writes no fragment for
    # (one across a graph and its subgraphs: 'Unsorted Source Nodes') has them from here
    defs: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    returns: bool = False  # its forward's `return` was read (a graph cut short before it lacks it)

    def neighbours(self, node: str) -> set[str]:
        """The nodes it uses and the nodes that use it."""
        near = {u for u in self.uses.get(node, ()) if u in self.located and u != node}
        near.update(n for n, used in self.uses.items() if node in used and n != node)
        return near


def match_source_nodes(line: str) -> tuple[str, str] | None:
    """`# Source Nodes: [...], Original ATen: [...]`: (the source nodes, the ATen ops) in their brackets."""
    m = _SOURCE_NODES_HEAD.match(line)
    if m is None or not line.endswith("]"):
        return None
    k = line.rfind(_ATEN, m.end(), len(line) - 1)  # (the last: the first group is greedy)
    return None if k < 0 else (line[m.end():k], line[k + len(_ATEN):-1])


def match_fragment_node(line: str) -> tuple[str, str, str, str] | None:
    """A graph fragment's `#   %name : type = op[target=t](...)`: (name, type, op, target), the first
    `[target=` behind ` = <op>` and its `]`."""
    head = _FRAGMENT_HEAD.match(line)
    if head is None:
        return None
    at = line.find("[target=", head.end())
    while at >= 0:
        j = at
        while j > head.end() and _WORD.match(line, j - 1):  # (back over the op's name, \w+)
            j -= 1
        close = line.find("]", at + 8)
        if j < at and j - 3 >= head.end() and line.startswith(" = ", j - 3) and close >= 0:
            return head.group(1), line[head.end():j - 3], line[j:at], line[at + 8:close]
        at = line.find("[target=", at + 1)
    return None


def match_fx_file(line: str) -> tuple[str, int, str | None, str] | None:
    """A `# ... File: f:N in func, code: ...` comment's (file, line, function or None, code): the first
    `File: ` after the `#` that starts the comment or follows a space, with the shortest file name before
    `:N[ in func], code: ` (tried at a few such places at most, file names up to 4,096 characters, function
    names up to 1,024)."""
    body = line.lstrip()
    if not body.startswith("#"):
        return None
    h = len(line) - len(body) + 1
    p = line.find("File: ", h)
    tries = 0
    while p >= 0 and tries < _MAX_FX_CANDIDATES:
        if p == h or line[p - 1].isspace():
            tries += 1
            k = line.find(":", p + 7)
            while 0 <= k <= p + 6 + _MAX_FX_FILE_CHARS:
                m = _FX_FILE_TAIL.match(line, k)
                if m is not None:
                    return line[p + 6:k], int(m.group(1)), m.group(2), line[m.end():]
                k = line.find(":", k + 1)
        p = line.find("File: ", p + 1)
    return None


def parse_fx_scopes(text: str) -> list[FxScope]:
    """The scopes of a printed FX graph (the graph module's first, then each nested class), each node
    with (file, line, function, code) of the `# File:` comment it sits under; a node under `# No stacktrace
    found` (made by a graph pass) takes the one line its users in the scope agree on (else its
    producers'), marked with `how` = 'inferred from its users' / '... producers'."""
    scopes: list[FxScope] = []
    scope: FxScope | None = None
    current = None
    policy = None  # activation checkpointing's, from the same comment
    for line in text.splitlines():
        m = match_fx_file(line) if "File: " in line else None
        if m:
            current = (m[0], m[1], (m[2] or "").strip(), m[3].strip())
            policy = _checkpoint_policy(line)
            continue
        if m is None and "File: " in line and line.lstrip().startswith("#"):
            current, policy = None, _checkpoint_policy(line)  # a frame this does not read: no line, not the last
            continue
        if _FX_NO_TRACE.match(line):
            current, policy = None, _checkpoint_policy(line)
            continue
        stripped = line.lstrip()
        if stripped.startswith(("def ", "class ", "return ")) or stripped.rstrip() == "return":
            if stripped.startswith("class ") or scope is None:
                scope = FxScope(stripped[6:].split("(", 1)[0].strip(" :") if stripped.startswith("class ") else "")
                scopes.append(scope)
            elif stripped.startswith("return"):
                scope.returns = True
            current = policy = None
            continue
        m = _FX_NODE.match(line)
        if m:
            if scope is None:
                scope = FxScope("")
                scopes.append(scope)
            if m.group(1) not in scope.located:
                scope.located[m.group(1)] = current
                scope.uses[m.group(1)] = _IDENT.findall(line[m.end():])
                scope.defs[m.group(1)] = _fx_def(line[m.end():], m.group(2))
                if policy is not None:
                    scope.checkpoint[m.group(1)] = policy
    for sc in scopes:
        _infer_in_scope(sc)
    return [sc for sc in scopes if sc.located]


def _fx_def(expr: str, annotation: str | None) -> tuple[str, str, str]:
    """(op, target, type) of a printed FX node, as a graph fragment writes them: `call_function` and its
    target for a call or a tuple's item (operator.getitem), `get_attr` for the module's attribute; the type
    `Tensor "bf16[64, 256][256, 1]cuda:0"` for a tensor's annotation, else the annotation as written."""
    type_ = "" if annotation is None else f'Tensor "{annotation}"' if _TENSOR_TYPE.match(f'Tensor "{annotation}"') \
        else annotation
    expr = expr.strip()
    if m := _FX_CALL.match(expr):
        return "call_function", m.group(1), type_
    if _FX_ITEM.match(expr):
        return "call_function", "operator.getitem", type_
    if m := _FX_ATTR.match(expr):
        return "get_attr", m.group(1), type_
    return "", "", type_


def _checkpoint_policy(comment: str) -> str | None:
    if "ac_graph_id: " not in comment and "recompute: " not in comment:
        return None
    m = _FX_CHECKPOINT.match(comment)
    return m.group(1) if m else None


def _infer_in_scope(scope: FxScope) -> None:
    """Nodes without a line take the one line their users agree on, passes over the nodes in order until
    none changes; then the same with their producers. As those passes, a node is looked at again only once
    a neighbour got a line since it was last looked at (a node whose neighbours disagree never agrees
    later: lines are only added), at its place in this pass or the next: the same lines, in time linear in
    the graph (a chain of 10,000 nodes without a stack took 10 s)."""
    import heapq

    located, uses = scope.located, scope.uses
    users: dict[str, list[str]] = {}
    for name, used in uses.items():
        for u in used:
            if u in located and u != name:
                users.setdefault(u, []).append(name)
    order = {name: i for i, name in enumerate(located)}
    for rule, neighbours in (("users", users), ("producers", uses)):
        waiting_on: dict[str, list[str]] = {}  # a name -> the nodes that take it as a neighbour
        for name, near in neighbours.items():
            for n in near:
                waiting_on.setdefault(n, []).append(name)
        now = [order[name] for name, loc in located.items() if loc is None]  # (already in order: a heap)
        later: list[int] = []
        queued = set(now)
        names = list(located)
        while now or later:
            if not now:  # the next pass: the nodes a later node's new line may decide
                now, later = later, []
                heapq.heapify(now)
            i = heapq.heappop(now)
            queued.discard(i)
            name = names[i]
            if located[name] is not None:
                continue
            near = {located[n][:4] for n in neighbours.get(name, ()) if n in located and located[n] is not None}
            if len(near) != 1:
                continue
            located[name] = (*next(iter(near)), f"inferred from its {rule}")
            for dependent in waiting_on.get(name, ()):
                j = order.get(dependent)
                if j is not None and j not in queued and located[dependent] is None:
                    heapq.heappush(now if j > i else later, j)  # (this pass if it comes after, else the next)
                    queued.add(j)


def parse_fx_graph(text: str) -> dict[str, Loc | None]:
    """node name -> its model line (parse_fx_scopes), a name in several scopes taken from the first."""
    out: dict[str, Loc | None] = {}
    for sc in parse_fx_scopes(text):
        for name, loc in sc.located.items():
            out.setdefault(name, loc)
    return out


def scopes_of(node: str, kernel_nodes: set[str], scopes: list[FxScope]) -> list[FxScope]:
    """The scopes holding a kernel's node of that name, likeliest first: the one in which it is joined to
    the kernel's other nodes (it uses them or they use them: a kernel fuses producer-consumer chains),
    then the one holding most of the kernel's nodes, then the first."""
    having = [sc for sc in scopes if node in sc.located]
    if len(having) <= 1:
        return having
    return sorted(having, key=lambda sc: (-len(sc.neighbours(node) & kernel_nodes),
                                          -len(kernel_nodes & sc.located.keys())))


_IDENT = lazy_compile(r"\b[A-Za-z_]\w*\b")


def _read_small(path: str, limit: int = MAX_WRAPPER_BYTES) -> str | None:
    """A regular file's text (no link followed), None when it is not one or is too large."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        raw = read_at_most(path, limit)
    except OSError:
        return None
    return raw.decode("utf-8", "replace") if raw is not None else None


def _is_wrapper(path: str) -> bool:
    """A wrapper module: `# AOT ID:` on its first line (torch >= 2.4), else the AsyncCompile set-up in
    its import block (every release's wrapper has it; kernel sources do not)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(8192)
    except OSError:
        return False
    return head.startswith(_AOT_ID) or _ASYNC_SETUP in head


@dataclass
class Link:
    """What an entry's kernel is, in Inductor's records."""

    kernel_file: str | None  # as the entry's IR names it
    block: KernelBlock | None = None
    how: str | None = None  # 'kernel path' | 'kernel text hash' | 'kernel name and text'
    role: str = "unknown"  # 'graph kernel' | 'autotuning candidate' | 'unknown'
    note: str | None = None
    # a template candidate: the graph's template kernels specialized to the same sizes and strides
    same_problem: list[KernelBlock] = field(default_factory=list)
    # the same kernel (one text, one file) in other graphs or other places of the same graph
    others: list[KernelBlock] = field(default_factory=list)

    @property
    def blocks(self) -> list[KernelBlock]:
        return ([self.block] if self.block is not None else []) + self.others

    def to_json(self) -> dict:
        out: dict = {"role": self.role, "kernel_file": self.kernel_file, "linked_by": self.how, "note": self.note}
        b = self.block
        if b is None:
            if self.role == "autotuning candidate":
                out["same_problem_as"] = [_block_summary(k) for k in self.same_problem]
            return out
        nodes = b.nodes
        out.update({
            "kernel": b.name, "kernel_path": b.kernel_path,
            "defined_at": {"file": b.defined_at[0], "line": b.defined_at[1]} if b.defined_at else None,
            "wrapper": b.wrapper.path, "wrapper_line": b.line,
            "graph": b.wrapper.graph, "fx_graph": b.wrapper.fx_graph,
            "source_nodes": b.source_nodes, "aten_ops": b.aten_ops,
            "nodes": [n.to_json() for n in nodes],
            "inputs": [{"name": n.name, "tensor": n.tensor()} for n in b.inputs],
            "model_lines": model_lines(nodes),
            "stacks": [[f.to_json() for f in st] for st in b.stacks],
            "trace": b.wrapper.trace,
            "also_in": [{**_block_summary(o), "wrapper_line": o.line, "model_lines": model_lines(o.nodes)}
                        for o in self.others],
            **b.wrapper.launches(b.name),
        })
        return out


def _other_lines(w: Wrapper, other: Wrapper) -> bool:
    """Whether two wrappers' nodes come from other model lines: copies of one text that differ so are two runs."""
    return [model_lines(b.nodes) for b in w.blocks] != [model_lines(b.nodes) for b in other.blocks]


def _superseded(newest: KernelBlock, b: KernelBlock) -> bool:
    """Whether `b` is an older run's record of `newest`'s graph whose nodes come from other model lines
    (another graph calling the kernel, a graph break's, is a use of its own: not another run's record)."""
    return b is not newest and b.wrapper.graph == newest.wrapper.graph and \
        model_lines(b.nodes) != model_lines(newest.nodes)


def _linked(kernel_file: str, blocks: list[KernelBlock], how: str) -> Link:
    """The newest run's block (blocks come newest first), the others listed; where another run's nodes come
    from other model lines, a note says which is shown and where the others are."""
    link = Link(kernel_file, blocks[0], how, "graph kernel", others=blocks[1:])
    differ = [b for b in blocks[1:] if _superseded(blocks[0], b)]
    if differ:
        link.note = (f"{len(differ)} other graph(s) hold this kernel with nodes from other model lines (another "
                     f"run's records: {', '.join(sorted({b.wrapper.source for b in differ})[:3])}); shown: the "
                     f"newest, {blocks[0].wrapper.source}")
    return link


def _block_summary(b: KernelBlock) -> dict:
    return {"kernel": b.name, "graph": b.wrapper.graph, "wrapper": b.wrapper.path, "source_nodes": b.source_nodes,
            "aten_ops": b.aten_ops}


def model_lines(nodes: list[FxNode]) -> list[dict]:
    """The model lines of these nodes, in line order, with the nodes each produced (and how many of
    those were placed by inference)."""
    rows: dict[tuple[str, int], dict] = {}
    for n in nodes:
        if n.model is None:
            continue
        key = (n.model.file, n.model.line)
        row = rows.setdefault(key, {"file": n.model.file, "line": n.model.line, "function": n.model.function,
                                    "code": n.model.code, "nodes": [], "inferred": 0})
        row["nodes"].append(n.name)
        row["inferred"] += n.model.how.startswith("inferred")
        if n.model.inner:
            calls = row.setdefault("calls", [])
            inner = [f.to_json() for f in n.model.inner]
            if inner not in calls:
                calls.append(inner)
        for f in n.model.callers:
            callers = row.setdefault("callers", [])
            if f.to_json() not in callers:
                callers.append(f.to_json())
        if n.scope is not None and n.scope not in row.setdefault("scopes", []):
            row["scopes"].append(n.scope)
        if n.recomputed:
            row["recomputed"] = row.get("recomputed", 0) + 1
    for row in rows.values():
        if row.get("scopes") == []:
            del row["scopes"]
    return [rows[k] for k in sorted(rows)]


# what `ls --inductor`, `map` and `report` say of a user-defined kernel, after where it was defined
USER_KERNEL_TEXT = "a kernel the model calls, compiled as written"


def stack_text(stack: list[dict]) -> str:
    """A call stack (Frame.to_json()s, outermost first) as `model.py:76 > kernels.py:22`."""
    return " > ".join(f"{f['file'].rsplit('/', 1)[-1]}:{f['line']}" for f in stack)


def other_calls_text(graph: str, calls: list[dict], launches: int | None = None) -> str:
    """What `Wrapper.launches` says, in words ('' for a kernel launched once); `launches`: how many in all
    (the list is cut at 1,000)."""
    if not calls:
        return ""

    def nodes(names: list[str]) -> str:
        return ", ".join(names) if len(names) <= 6 else f"{', '.join(names[:5])}, ... ({len(names)} in all)"

    where = "; ".join(f"line {c['wrapper_line']}" + (f" (source nodes {nodes(c['source_nodes'])})"
                                                     if c["source_nodes"] else "") for c in calls[:5])
    if len(calls) > 5:
        where += f"; ... ({(launches or len(calls) + 1) - 1} in all)"
    return (f"launched {launches or len(calls) + 1} times in graph {graph}: the nodes shown are its first launch's; "
            f"the other{'s' if len(calls) > 1 else ''} at wrapper {where}")


def call_text(row: dict) -> str:
    """What a model_lines row says of torch's own Python: '  via functional.py:2954 rms_norm' under a
    model line, '  called from model.py:55 or :59' under a line in torch; of FX subgraphs: '  in
    true_graph_0' (nodes of a cond branch, a nested compile region); of activation checkpointing: '  9
    recomputed' (forward nodes a backward kernel computes again); empty for the others."""
    out = ""
    if row.get("recomputed"):
        out += f"  {row['recomputed']} recomputed (activation checkpointing)"
    if row.get("scopes"):
        out += "  in " + ", ".join(row["scopes"])
    for inner in row.get("calls", []):
        out += "  via " + " > ".join(f"{f['file'].rsplit('/', 1)[-1]}:{f['line']} {f['function']}" for f in inner)
    callers = row.get("callers", [])
    if callers:
        names = []
        for i, f in enumerate(callers):
            base = f["file"].rsplit("/", 1)[-1]
            same = i and callers[i - 1]["file"] == f["file"]
            names.append(f":{f['line']}" if same else f"{base}:{f['line']}")
        out += "  called from " + " or ".join(names)
    return out


class InductorIndex:
    """Every wrapper found under some directories, its kernel blocks, and the model lines of their nodes."""

    def __init__(self, roots: list[Path], wrappers: list[Wrapper], notes: list[str],
                 read: list[Path] | None = None):
        self.roots = roots  # where it looked (named in notes)
        self.given = False  # whether the user named them (--inductor-dir): notes then suggest no other
        self.read = roots if read is None else read  # where it read: kernel sources are looked up there
        self.wrappers = wrappers
        self.notes = notes
        self.unfollowed = 0  # links named like a wrapper or trace log, not followed (a note names them)
        # kernel file basename -> its blocks: the same kernel text (one file) can serve several graphs
        self.by_file: dict[str, list[KernelBlock]] = {}
        self.by_text_file: dict[str, list[KernelBlock]] = {}  # the file named by the kernel's text's hash
        self.by_name: dict[str, list[KernelBlock]] = {}
        # newest first (stable): a kernel whose text several runs' wrappers hold is linked to the latest run's
        # graph (an edited model's lines), the others listed after it
        for w in sorted(wrappers, key=lambda w: -_written(w)) if len(wrappers) > 1 else wrappers:
            for b in w.blocks:
                if b.kernel_path:
                    self.by_file.setdefault(Path(b.kernel_path).name, []).append(b)
                if b.text_file:
                    self.by_text_file.setdefault(b.text_file, []).append(b)
                self.by_name.setdefault(b.triton_name or b.name, []).append(b)

    @classmethod
    def load(cls, dirs: tuple[str, ...] | list[str] = (), env: dict[str, str] | None = None) -> InductorIndex:
        """The wrappers under each DIR given (none given: torch's default Inductor cache dir). A DIR that is
        missing is a note, not an error: provenance is extra to what the Triton cache holds."""
        roots = [Path(d) for d in dirs] if dirs else [default_inductor_dir(env)]
        notes: list[str] = []
        found: list[str] = []
        logs: list[str] = []
        read: list[Path] = []
        unfollowed = 0
        env = os.environ if env is None else env
        if not dirs and env.get("TORCH_TRACE") and os.path.isdir(env["TORCH_TRACE"]):
            roots.append(Path(env["TORCH_TRACE"]))  # where torch writes its structured trace
        for root in roots:
            if root.is_file():
                from tritonscope.srcmap.torch_trace import is_trace_log  # lazy: most commands read no trace

                if is_trace_log(str(root), follow=True):  # named by the user: a link to a log is the log
                    logs.append(str(root))
                    continue
            if not root.is_dir():
                if dirs:
                    notes.append(f"{root}: {'not a directory' if root.exists() else 'no such directory'} "
                                 "(--inductor-dir)")
                continue
            if not dirs and _foreign(root):
                # the default dir is in a shared /tmp: another user's files are not this user's records
                notes.append(f"{root}: not read, owned by another user (give --inductor-dir to read it)")
                continue
            read.append(root)
            links: list[str] = []
            _walk(str(root), 0, found, logs, links)
            links.sort()  # (named in one order, not the directory's)
            unfollowed += len(links)
            if links:  # (Inductor writes no links: one there leads anywhere, and is not followed)
                more = f" (and {len(links) - 1} more)" if len(links) > 1 else ""
                notes.append(f"{links[0]}{more}: a symbolic link, which is not followed: a wrapper or trace "
                             "log there is not read")
        wrappers: dict[tuple, Wrapper] = {}
        for path in sorted(found):
            text = _read_small(path)
            if text is None:
                notes.append(f"{path}: not read (not a regular file, or over {MAX_WRAPPER_BYTES >> 20} MiB)")
                continue
            w = parse_wrapper(text, path)
            if not w.blocks:
                notes.extend(w.notes)  # (one cut short in its first kernel)
                continue
            _attach_graph(w)
            key = w.key()
            old = wrappers.get(key)
            if old is not None and old.fx_graph and w.fx_graph and _other_lines(old, w):
                # the same wrapper text beside another FX graph: another run (a debug dir of an edited model's
                # run) whose nodes come from other lines, kept apart
                key = (*key, w.fx_graph)
                old = wrappers.get(key)
            # one graph is written up to three times (cache, cache/<x>.debug, debug dir): keep the one
            # with the FX graphs beside it
            if old is None or (old.fx_graph is None and w.fx_graph is not None) or (
                    (old.fx_graph is None) == (w.fx_graph is None) and old.path.endswith("output_code.py")):
                wrappers[key] = w
        _merge_traces(wrappers, sorted(set(logs)), notes)
        index = cls(roots, list(wrappers.values()), notes, read)
        index.unfollowed = unfollowed
        index.given = bool(dirs)
        for w in index.wrappers:
            notes.extend(w.notes)
        return index

    @property
    def found(self) -> bool:
        return bool(self.wrappers)

    @functools.cached_property
    def where(self) -> str:
        """The dirs looked in, as notes name them."""
        return ", ".join(str(r) for r in self.roots)

    def link(self, entry) -> Link | None:
        """The entry's kernel in the wrappers; None for an entry that is not Inductor's. Only entries named
        as Inductor names kernels (`triton_*`) or as a wrapper's kernel have their IR's head read."""
        if not (entry.name.startswith("triton") or entry.name in self.by_name):
            return None
        if not self.found:
            # nothing to link to: the name says whether Inductor wrote the kernel, else (a template's
            # `triton_<template>`, whose names change with each release) the file its IR names does
            files = entry_kernel_files(entry)
            if not (_INDUCTOR_NAME.match(entry.name) or any(_INDUCTOR_FILE.search(f) for f in files)):
                return None
            # the kernel's own source may be there (a dir of kernel files alone): named, not linked to a graph,
            # where that file defines it
            found = self._defining_source(entry, files)
            if found is None:
                every = entry_kernel_files(entry, every_stage=True)
                found = self._defining_source(entry, every) if len(every) > len(files) else None
            head = f"its source is {found[1]}, but" if found else "named as Inductor names kernels, but"
            return Link(found[0] if found else None, None, None, "unknown",
                        f"{head} no Inductor wrapper (a module headed `# AOT ID`) is under {self.where}"
                        + (": its graph and ATen ops are unknown" if found else "")
                        + ("" if self.given else " (give --inductor-dir)"))
        files = entry_kernel_files(entry)
        if not files:
            return None
        if not any(Path(f).name in self.by_file or Path(f).name in self.by_text_file for f in files):
            # (a stage another compile of the same key wrote may name the file a wrapper holds: every stage's)
            files = entry_kernel_files(entry, every_stage=True)
        for f in files:
            blocks = self.by_file.get(Path(f).name)
            if blocks:
                return _linked(f, blocks, "kernel path")
        for f in files:
            # no `# kernel path` names it (a user-defined kernel): the file is named by the text's hash
            blocks = self.by_text_file.get(Path(f).name)
            if blocks:
                return _linked(f, blocks, "kernel text hash")
        kernel_file = files[0]
        text = self._kernel_text(kernel_file)
        if text is not None:
            digest = _digest(text)
            same_text = [b for b in self.by_name.get(entry.name, []) if b.source_digest == digest]
            if same_text:
                return _linked(kernel_file, same_text, "kernel name and text")
            if _PLACEHOLDER_NAME in text:
                # Inductor names a kernel in its wrapper; one benchmarked before that keeps the placeholder
                key = template_key(text)
                same = [b for bs in self.by_name.values() for b in bs if key and b.template_key == key]
                note = ("benchmarked while autotuning (a max-autotune choice or a benchmark-fusion trial), in no "
                        "compiled graph: Inductor records no nodes for it")
                if same:
                    note += ("; it computes the same sizes and strides as the graph's " +
                             ", ".join(f"{b.name} ({b.wrapper.graph})" for b in same) +
                             " (the problem it was benchmarked for" + (", or one like it)" if len(same) == 1
                                                                       else ": one of these, or one like them)"))
                return Link(kernel_file, None, None, "autotuning candidate", note, same)
        if text is not None or _looks_inductor(entry.name, kernel_file):
            hint = "" if self.given else " (give --inductor-dir)"
            note = (f"a torch.compile kernel whose source is not under {self.where}{hint}" if text is None else
                    f"a torch.compile kernel that no wrapper under {self.where} names (its wrapper is gone or "
                    f"elsewhere{'' if self.given else ': give --inductor-dir'})")
            return Link(kernel_file, None, None, "unknown", note)
        return None

    def kernel_source(self, requested: str) -> tuple[str, str] | None:
        """The text of the kernel file `requested` (a path the IR names) as a wrapper holds it, and where
        (wrapper file:line, or the trace record's): for a kernel whose file is not on this machine. Only a
        file named as Inductor names kernel sources, by the hash of that very text (the table's keys)."""
        blocks = self.by_text_file.get(Path(requested).name)
        if not blocks or blocks[0].file_text is None:
            return None
        b = blocks[0]
        if b.wrapper.trace and not os.path.isfile(b.wrapper.path):
            return b.file_text, b.wrapper.trace  # read from the trace alone: its record, LOG:LINE
        return b.file_text, f"{b.wrapper.path}:{b.line}"

    def _kernel_text(self, kernel_file: str) -> str | None:
        """The kernel's Inductor source, under a dir read as Inductor lays it out (xx/c<hash>.py; only a
        file named as Inductor names kernel sources)."""
        found = self._kernel_source(kernel_file)
        return found[1] if found is not None else None

    def _defining_source(self, entry, files: list[str]) -> tuple[str, Path] | None:
        """(the IR's name of it, where it is) of the first of `files` found under the dirs read that defines
        the entry's kernel."""
        return next(((f, src[0]) for f in files if (src := self._kernel_source(f)) is not None
                     and f"def {entry.name}(" in src[1]), None)

    def _kernel_source(self, kernel_file: str) -> tuple[Path, str] | None:
        """(where, text) of `_kernel_text`."""
        name = Path(kernel_file).name
        if not INDUCTOR_KERNEL_FILE.fullmatch(name):
            return None
        for cand in [root / name[1:3] / name for root in self.read]:
            text = _read_small(str(cand), 16 << 20)
            if text is not None:
                return cand, text
        return None

    def newest(self, b: KernelBlock) -> KernelBlock:
        """The newest run's block of b's kernel (the one an entry of it is linked to)."""
        for table, key in ((self.by_file, Path(b.kernel_path).name if b.kernel_path else None),
                           (self.by_text_file, b.text_file), (self.by_name, b.triton_name or b.name)):
            blocks = table.get(key) if key else None
            if blocks and any(x is b for x in blocks):  # (by identity: a block's fields lead back to it)
                return blocks[0]
        return b

    def by_model_line(self, file: str, line: int) -> list[tuple[KernelBlock, list[FxNode], list[tuple]]]:
        """Every kernel with a node from FILE:LINE (FILE: a path or a path's tail), and those nodes; a kernel of
        no node (a user's Triton kernel the model launches) where a stack of its call (a torch trace's) passes
        through FILE:LINE, and those stacks. (A generated kernel's stacks are its nodes' stacks, and may hold
        a user kernel's call Inductor lists among them: its nodes answer for it.)"""
        out = []
        for w in self.wrappers:
            for b in w.blocks:
                hit = [n for n in b.nodes if n.model and any(
                    m.line == line and same_file(m.file, file) for m in (n.model, *n.model.callers))]
                through = [] if b.nodes else \
                    [st for st in b.stacks if any(f.line == line and same_file(f.file, file) for f in st)]
                if hit or through:
                    out.append((b, hit, through))
        return out


def same_file(recorded: str, asked: str) -> bool:
    """FILE as the user gives it matches a recorded path by its trailing components."""
    a = Path(asked).parts
    r = Path(recorded).parts
    return len(a) <= len(r) and tuple(r[-len(a):]) == tuple(a)


def _looks_inductor(name: str, kernel_file: str | None) -> bool:
    base = Path(kernel_file).name if kernel_file else ""
    return name.startswith("triton_") and bool(INDUCTOR_KERNEL_FILE.fullmatch(base))


# Inductor's kernel names: triton_{poi,red,per,tem,for,...}_fused_..., and the autotuning placeholders
# `triton_` / `triton_mm` / `triton_bmm` its candidates keep.
_INDUCTOR_NAME = lazy_compile(r"^triton_(?:(?:poi|red|per|tem|for|spl|cooperative_reduction|mm|bmm)_\w+|mm|bmm)?$")
# A kernel file in Inductor's code cache: `<dir>/<h[1:3]>/<h>.py`, h = "c" + 51 characters of a base32 hash
# (torch._inductor.codecache.code_hash and get_path: the same in torch 2.13 and 2.15 and in every recording).
_INDUCTOR_FILE = lazy_compile(r"(?:^|[/\\])([a-z2-7]{2})[/\\]c\1[a-z2-7]{49}\.py$")


def _foreign(root: Path) -> bool:
    getuid = getattr(os, "getuid", None)
    try:
        return getuid is not None and os.stat(root).st_uid != getuid()
    except OSError:
        return False


def _walk(path: str, depth: int, found: list[str], logs: list[str], links: list[str] | None = None) -> None:
    """Every wrapper module and torch trace log below PATH (links not followed, and those named like one
    listed in `links`; Inductor's non-source subdirs skipped)."""
    try:
        it = os.scandir(path)
    except OSError:
        return
    with it:
        for e in it:
            try:
                if e.is_dir(follow_symlinks=False):
                    if depth < _MAX_WALK_DEPTH and e.name not in _SKIP_DIRS:
                        _walk(e.path, depth + 1, found, logs, links)
                elif links is not None and e.is_symlink() and (
                        e.name.endswith((".py", ".log")) or (e.name not in _SKIP_DIRS and os.path.isdir(e.path))):
                    links.append(e.path)  # (a link to a folder of wrappers too: Inductor's two-letter dirs)
                elif e.name.endswith(".py") and e.is_file(follow_symlinks=False):
                    if _is_wrapper(e.path):
                        found.append(e.path)
                elif e.name.endswith(".log"):
                    from tritonscope.srcmap.torch_trace import is_trace_log  # lazy: few dirs hold a log

                    if is_trace_log(e.path):
                        logs.append(e.path)
            except OSError:
                continue


def _attach_graph(w: Wrapper) -> None:
    """Model lines for the wrapper's nodes from the FX graphs written with it under TORCH_COMPILE_DEBUG=1."""
    # the debug dir's output_code.py has them beside it; a cache wrapper c<hash>.py in c<hash>.debug/
    d = os.path.dirname(w.path)
    sibling = w.path[:-3] + ".debug"
    if os.path.isdir(sibling) and not os.path.islink(sibling):
        d = sibling
    graphs = [(name, os.path.join(d, name)) for name in ("fx_graph_transformed.py", "fx_graph_readable.py")]
    parsed = []
    for name, p in graphs:
        if os.path.isfile(p):
            text = _read_small(p)
            if text is not None:
                parsed.append((name[:-3], p, parse_fx_scopes(text)))
    _place_nodes(w, parsed)


def _place_nodes(w: Wrapper, parsed: list[tuple[str, str, list[FxScope]]]) -> None:
    """Each node's model line from the first FX graph (how, where, parse_fx_scopes' scopes) that has it,
    from the scope of that graph the node is in (scope_of)."""
    if not parsed:
        return
    w.fx_graph = parsed[0][1]
    missing = 0
    cut = [where for _, where, scopes in parsed if fx_cut_short(scopes)]
    for where in cut:
        w.notes.append(f"{where}: cut short (it does not end with its graph's `return`): nodes after the cut have "
                       "no model line from it")
    for b in w.blocks:
        nodes = b.nodes
        names = {n.name for n in nodes}
        nth: dict[str, int] = {}  # a name that is several nodes (of several scopes): which one this is
        for n in nodes:
            i = nth[n.name] = nth.get(n.name, -1) + 1
            if not any(n.name in sc.located for _, _, scopes in parsed for sc in scopes):
                missing += 1
                continue
            for how, _, scopes in parsed:
                having = scopes_of(n.name, names, scopes)
                if not having:
                    continue
                sc = having[min(i, len(having) - 1)]
                loc = sc.located.get(n.name)
                if not (n.op or n.target or n.type) and n.name in sc.defs:  # (no fragment wrote it)
                    n.op, n.target, n.type = sc.defs[n.name]
                if loc is not None:
                    n.model = ModelLine(loc[0], loc[1], loc[2], loc[3], loc[4] if len(loc) > 4 else how)
                    n.scope = sc.name if sc is not scopes[0] else None
                    n.checkpoint = sc.checkpoint.get(n.name)
                    # a backward graph's nodes under a recompute policy are the forward ones it computes again
                    n.recomputed = bool(n.checkpoint and n.checkpoint.endswith("RECOMPUTE")
                                        and (w.aot_id or "").endswith("backward"))
                    break
        _infer_from_siblings(b, nodes)
    if missing:
        w.notes.append(f"{w.fx_graph}: {missing} node(s) of {w.path} are not in it "
                       + ("(it is cut short)" if w.fx_graph in cut else "(files of another run?)"))


def fx_cut_short(scopes: list[FxScope]) -> bool:
    """Whether an FX graph's text ends before a `forward`'s `return` (a file or record cut short): torch
    prints each graph, the module's and each subgraph's after it, to its `return`."""
    return any(not sc.returns for sc in scopes)


def _infer_from_siblings(b: KernelBlock, nodes: list[FxNode]) -> None:
    """A node the FX graph gives no line (`# No stacktrace found`: made by a post-grad pass) takes the
    line of its source node's other nodes, where they all agree on one."""
    by_name = {n.name: n for n in nodes}
    for src, posts in b.mapping.items():
        lines = {(by_name[p].model.file, by_name[p].model.line, by_name[p].model.function, by_name[p].model.code)
                 for p in posts if p in by_name and by_name[p].model is not None}
        if len(lines) != 1:
            continue
        file, line, func, code = next(iter(lines))
        for p in posts:
            n = by_name.get(p)
            if n is not None and n.model is None:
                n.model = ModelLine(file, line, func, code, f"inferred from source node {src}")


def entry_kernel_files(entry, every_stage: bool = False) -> list[str]:
    """The Python files an entry's IR locations name, first one first (read from the head of its first
    IR stage; the whole file where the locations are printed at its end, as older releases do). A stage
    the command already read (stages.ParsedEntry) is not opened again. `every_stage`: the files of every IR
    stage, the first stage's first: two compiles of one cache key from two files (Inductor's autotuning
    benchmark copy, then the graph's kernel file) each write their stages into the one entry, and its
    `.source` may name a file its `.ttir` does not (the H200 corpus's L6WZNVM5F2: a benchmark file that is
    gone, and the kernel's file)."""
    if every_stage:
        out: dict[str, None] = {}
        for stage in _LOC_STAGES:
            if stage in entry.file_paths:
                out.update(dict.fromkeys(_stage_kernel_files(entry, stage)))
        return list(out)
    for stage in _LOC_STAGES:
        files = _stage_kernel_files(entry, stage)
        if files:
            return files
    return []


def _stage_kernel_files(entry, stage: str) -> list[str]:
    """The Python files one IR stage's locations name (`entry_kernel_files`)."""
    p = entry.file_paths.get(stage)
    if p is None:
        return []
    parsed = getattr(entry, "_parsed", None)
    cached = parsed.cached_text(stage) if parsed is not None else None
    if cached is not None:
        return _loc_files(cached[:_LOC_HEAD]) or _loc_files(cached)
    try:
        with open(p, "rb") as fh:
            head = fh.read(_LOC_HEAD).decode("utf-8", "replace")
            files = _loc_files(head)
            if not files:
                size = os.fstat(fh.fileno()).st_size
                limit = entry.max_stage_bytes
                if limit is None or size <= limit:
                    files = _loc_files(head + fh.read().decode("utf-8", "replace"))
    except OSError:
        return []
    return files


def _loc_files(text: str) -> list[str]:
    seen: dict[str, None] = {}
    for m in _LOC_FILE.finditer(text):
        seen.setdefault(unescape_llvm(m.group(1)), None)  # torchinductor_<user>: a user's name may need \XX
    return list(seen)


def coverage(index: InductorIndex) -> dict:
    """How many of the wrappers' kernel nodes have a model line (and how many of those were inferred)."""
    total = with_line = inferred = 0
    for w in index.wrappers:
        for b in w.blocks:
            for n in b.nodes:
                total += 1
                if n.model is not None:
                    with_line += 1
                    inferred += n.model.how.startswith("inferred")
    return {"nodes": total, "with_model_line": with_line, "inferred": inferred}


def link_notes(index: InductorIndex, links: list[Link | None], asked: bool = True) -> list[str]:
    """The one-line notes a command prints about the links it made: Inductor's own notes (unreadable or
    stale files: always), and, when provenance was asked for (`--inductor-dir`, `ls --inductor`), kernels
    left without records and model lines missing for want of the debug files. Without asking, a Triton
    cache of torch.compile kernels read on a machine without Inductor's dir prints no note per command:
    each record's `note` says it."""
    notes = list(index.notes)
    if not asked:
        return notes
    where = index.where
    unknown = sum(1 for link in links if link is not None and link.role == "unknown")
    if unknown:
        if not index.found:
            notes.append(f"{unknown} torch.compile kernel(s), but no Inductor wrapper under {where} "
                         + ("(none outside the links named above, which are not followed)" if index.unfollowed
                            else "(is it Inductor's cache or debug dir?)" if index.given else
                            "(give Inductor's cache or debug dir with --inductor-dir)"))
        else:
            notes.append(f"{unknown} torch.compile kernel(s) in no wrapper under {where} "
                         + ("(in a link not followed, named above, or another run's?)" if index.unfollowed else
                            "(another run's?)" if index.given else
                            "(another run's? give its dir with --inductor-dir)"))
    no_lines = {link.block.wrapper.path for link in links
                if link is not None and link.block is not None and link.block.wrapper.fx_graph is None}
    if no_lines:
        notes.append(f"no model lines for {len(no_lines)} graph(s): their FX graphs are written only under "
                     "TORCH_COMPILE_DEBUG=1 or TORCH_TRACE (give the debug or trace dir with --inductor-dir)")
    without_stacks = [link.block for link in links if link is not None and link.block is not None
                      and not link.block.stacks and any(n.model is not None for n in link.block.nodes)]
    in_torch: set[int] = set()
    if without_stacks:
        from tritonscope.srcmap.torch_trace import is_torch_file  # lazy: only model lines are tested

        in_torch = {id(b) for b in without_stacks
                    if any(n.model is not None and is_torch_file(n.model.file) for n in b.nodes)}
    if in_torch:
        notes.append(f"{len(in_torch)} kernel(s) with model lines in torch's own Python (an op torch implements "
                     "in Python, e.g. F.rms_norm): the model line that called it is in a torch trace's stacks "
                     "(run with TORCH_TRACE=DIR INDUCTOR_PROVENANCE=1, give DIR with --inductor-dir)")
    return notes


def model_line_result(index: InductorIndex, entries: list, file: str, line: int) -> dict:
    """The reverse question: which kernels have an FX node from FILE:LINE, with those nodes, and which
    cache entries (autotuning variants included) compiled each kernel."""
    hits = index.by_model_line(file, line)
    by_block: dict[int, list] = {id(b): [] for b, _, _ in hits}
    candidates: dict[int, list] = {id(b): [] for b, _, _ in hits}
    for e in entries:
        link = index.link(e) if e.is_kernel else None
        if link is None:
            continue
        for b in link.blocks:
            if id(b) in by_block:
                by_block[id(b)].append(e)
        for b in link.same_problem:
            if id(b) in candidates:
                candidates[id(b)].append(e)
    kernels = []
    for b, nodes, stacks in hits:
        newest = index.newest(b)
        superseded = _superseded(newest, b)
        if newest is not b and newest.wrapper.graph == b.wrapper.graph and not superseded:
            continue  # (an older run's record of the same graph's kernel, from the same lines: the newest's)
        kernels.append({
            "kernel": b.name, "graph": b.wrapper.graph, "wrapper": b.wrapper.source, "wrapper_line": b.line,
            "kernel_path": b.kernel_path, "aten_ops": b.aten_ops,
            "nodes": [n.to_json() for n in nodes], "all_nodes": len(b.nodes),
            # the calls' stacks (outermost frame first) through FILE:LINE: a kernel of no node's (by_model_line)
            "stacks": [[f.to_json() for f in st] for st in stacks],
            "entries": [{"hash": e.hash, "path": str(e.path), "num_warps": e.meta_int("num_warps"),
                         "num_stages": e.meta_int("num_stages")}
                        for e in sorted(by_block[id(b)], key=lambda e: e.hash)],
            "candidates_same_problem": len(candidates[id(b)]),
            # another run's records (newer) hold this kernel with nodes from other lines: this one is older
            "superseded_by": {"wrapper": newest.wrapper.source, "graph": newest.wrapper.graph} if superseded else None,
            **b.wrapper.launches(b.name),
        })
    recorded = sorted({n.model.line for w in index.wrappers for b in w.blocks for n in b.nodes
                       if n.model is not None and same_file(n.model.file, file)}
                      | {f.line for w in index.wrappers for b in w.blocks if not b.nodes for st in b.stacks for f in st
                         if same_file(f.file, file)})
    notes = list(index.notes)
    texts = sorted({m.code.strip() for _, nodes, stacks in hits for n in nodes for m in (n.model, *n.model.callers)
                    if m.line == line and same_file(m.file, file) and m.code.strip()}
                   | {f.code.strip() for _, _, stacks in hits for st in stacks for f in st
                      if f.line == line and same_file(f.file, file) and f.code.strip()})
    if len(texts) > 1:  # (records of two runs of a model edited between them, read together)
        notes.append(f"the records read hold {len(texts)} texts of {file}:{line} ("
                     + "; ".join(f"`{t}`" for t in texts[:3]) + (", ..." if len(texts) > 3 else "")
                     + "): runs of different versions of the file; each kernel's wrapper says which run it is of "
                     "(--json: `wrapper`)")
    if not any(w.fx_graph for w in index.wrappers):
        notes.append(f"no FX graphs with model lines under {index.where}: they are written under "
                     "TORCH_COMPILE_DEBUG=1 or TORCH_TRACE (give Inductor's cache, debug or trace dir with "
                     "--inductor-dir)")
    return {"query": {"file": file, "line": line}, "kernels": kernels, "recorded_lines": recorded,
            "granularity": "kernel: Inductor records the FX nodes of each kernel, not of each kernel line",
            "notes": notes}


def _written(w: Wrapper) -> float:
    """When a wrapper was written: its file's mtime, else its trace log's."""
    for path in (w.path, w.trace.rsplit(":", 1)[0] if w.trace else None):
        if path:
            try:
                return os.stat(path).st_mtime
            except OSError:
                continue
    return 0.0


def _merge_traces(wrappers: dict[tuple, Wrapper], logs: list[str], notes: list[str]) -> None:
    """What torch traces add to the wrappers: a graph's wrapper where no file of it was found (the trace
    holds its text), its post-grad FX graph where no debug dir gave one, and every kernel call's stacks."""
    if not logs:
        return
    from tritonscope.srcmap.torch_trace import read_trace

    for log in logs:
        graphs, log_notes = read_trace(log)
        notes.extend(log_notes)
        for g in graphs:
            if not g.wrapper_text:
                continue
            tw = parse_wrapper(g.wrapper_text, g.wrapper_path or g.where)
            if not tw.blocks:
                notes.extend(tw.notes)
                continue
            key = tw.key()
            w = wrappers.get(key)
            content = _digest(f"{g.fx_text or ''}\n{sorted(g.stacks.items()) if g.stacks else ''}")
            if w is not None and w.trace is not None and w.trace_content != content:
                # the same graph in another record whose FX graph or stacks differ (another run's log): kept
                # apart, never one run's graph with another's stacks
                key = (*key, g.where)
                w = wrappers.get(key)
            if w is None:
                w = wrappers[key] = tw
            w.trace, w.trace_content = g.where, content
            if not w.handles:
                w.handles = tw.handles
            if w.fx_graph is None and g.fx_text:
                _place_nodes(w, [("inductor_post_grad_graph", f"{g.log}:{g.fx_line}", parse_fx_scopes(g.fx_text))])
            if g.stacks:
                _attach_stacks(w, g.stacks)


def _attach_stacks(w: Wrapper, table: dict[str, list[str]]) -> None:
    """Each kernel's stacks (by its calls' handles; by name where the wrapper names none), and, for a node
    whose FX line is in torch's own Python, the model line that called it: the innermost frame outside
    torch of the one stack that ends at that line (several callers with different lines: left as is)."""
    from tritonscope.srcmap.torch_trace import is_torch_file, parse_stack

    by_name: dict[str, list[str]] = {}
    for key in table:
        by_name.setdefault(key.rsplit(":", 1)[0], []).append(key)
    parsed: dict[str, tuple] = {}  # each stack's text parsed once (a handle may be named on many lines)
    for b in w.blocks:
        keys = dict.fromkeys(w.handles.get(b.name) or by_name.get(b.name, []))
        stacks: dict[tuple, None] = {}
        for key in keys:
            for text in table.get(key, []):
                st = parsed.get(text)
                if st is None:
                    st = parsed[text] = parse_stack(text)
                if st:
                    stacks.setdefault(st, None)
        b.stacks = list(stacks)
        if not b.stacks:
            continue
        for n in b.nodes:
            m = n.model
            if m is None or not is_torch_file(m.file):
                continue
            callers = set()
            for st in b.stacks:
                last = st[-1]
                if last.file != m.file or last.line != m.line:
                    continue
                user = [i for i, f in enumerate(st) if not is_torch_file(f.file)]
                if user:
                    callers.add((st[user[-1]], st[user[-1] + 1:]))
            if len(callers) == 1:
                (caller, inner), = callers
                n.model = ModelLine(caller.file, caller.line, caller.function, caller.code,
                                    f"{m.how}, called from the torch trace's stack", inner)
            elif callers:
                m.callers = tuple(sorted({c for c, _ in callers}, key=lambda f: (f.file, f.line)))
