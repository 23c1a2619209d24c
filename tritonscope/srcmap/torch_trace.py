"""torch's structured trace (TORCH_TRACE, what tlparse reads): the records that tell where a torch.compile
kernel came from, with the whole call stack of each model operation.

Run with `TORCH_TRACE=DIR` (and `INDUCTOR_PROVENANCE=1`, or TORCH_COMPILE_DEBUG=1), torch writes one log a
process, `DIR/dedicated_log_torch_trace_<x>.log`, one record a line in glog's form,

    V1126 18:26:43.559000 544 torch/_inductor/graph.py:2575] {"inductor_output_code": {...}, "frame_id": 0, ...}
    \t<payload line>
    \t<payload line>

a JSON head whose payload, if it has one (`has_payload`), is the tab-indented lines after it. Per compiled
graph (forward, backward, each recompile) this module reads, in the order torch writes them:
- `artifact` `inductor_post_grad_graph`: the post-grad FX graph, nodes under `# File: ...` comments (as
  the debug dir's fx_graph_transformed.py);
- `inductor_output_code`: the wrapper module (its `filename` in Inductor's cache, its text as payload);
  with provenance tracking on, above each kernel call `# [Provenance debug handles] NAME:N`;
- `artifact` `inductor_provenance_tracking_kernel_stack_traces`: `{"NAME:N": [stack, ...]}`, every FX node's
  full Python stack (outermost frame first, as a traceback prints it) of each kernel call N.

Those FX graphs keep only a node's innermost frame: an op implemented in torch's own Python (`F.rms_norm`,
FlexAttention's wrapper) names torch's line there. The stacks add the model line that called it.

It reads; it never writes. A damaged record (bad JSON, truncated payload; a last record the log ends inside
of, without the newline torch ends every record with, or cut at a line's end, which the md5 torch writes of
each payload as `has_payload` tells) is skipped and counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass

from tritonscope.lazyre import lazy_compile

# glog's prefix: level, MMDD, time, thread, file:line]; then the JSON head
_RECORD = lazy_compile(r"^[VIWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\]]*\] (\{.*)$")
_PREFIX = lazy_compile(rb"^[VIWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\]\n]*\] \{")
_ARTIFACT_NAME = lazy_compile(r'"artifact": \{"name": "([^"]*)"')
_STACKS = "inductor_provenance_tracking_kernel_stack_traces"
_POST_GRAD = "inductor_post_grad_graph"
_FRAME = lazy_compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d{1,9}), in (?P<func>.+?)\s*$')
_HEAD_BYTES = 4096
# A payload larger than this is not kept (a wrapper of a large model is a few MB), and a log's kept
# payloads add up to at most MAX_LOG_TEXT_BYTES (past that, records are counted as not read).
MAX_PAYLOAD_BYTES = 64 << 20
MAX_LOG_TEXT_BYTES = 512 << 20


@dataclass(frozen=True)
class Frame:
    """One frame of a stack, as a traceback prints it."""

    file: str
    line: int
    function: str
    code: str

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "function": self.function, "code": self.code}


@dataclass
class TraceGraph:
    """One compiled graph of a trace: its wrapper, post-grad FX graph and kernel stacks, where recorded."""

    log: str
    line: int  # of the output code's record
    wrapper_path: str | None  # where Inductor wrote the wrapper (its cache), as recorded
    wrapper_text: str | None
    fx_text: str | None = None
    fx_line: int | None = None
    stacks: dict[str, list[str]] | None = None  # "NAME:N" -> stack traces

    @property
    def where(self) -> str:
        return f"{self.log}:{self.line}"


def is_trace_log(path: str, follow: bool = False) -> bool:
    """A structured-trace log: a regular file whose first line is a glog record with a JSON head. A link is
    followed only where the user named it (`follow`), never one met while walking a folder."""
    try:
        st = os.stat(path) if follow else os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return False
        with open(path, "rb") as fh:
            head = fh.read(_HEAD_BYTES)
    except OSError:
        return False
    return bool(_PREFIX.match(head))


def _key(meta: dict) -> tuple:
    """The compile a record belongs to (a rank's log holds one process: the key is within one log)."""
    # (a value of another type, from a damaged or foreign log, is no id: all such are one)
    return tuple(v if v is None or isinstance(v, int | str) else "?"
                 for v in (meta.get(k) for k in ("frame_id", "frame_compile_id", "attempt", "compiled_autograd_id")))


def _kind(meta: dict) -> str | None:
    if "inductor_output_code" in meta:
        return "output_code"
    art = meta.get("artifact")
    if isinstance(art, dict):
        if art.get("name") == _STACKS:
            return "stacks"
        if art.get("name") == _POST_GRAD:
            return "post_grad"
    return None


def read_trace(path: str) -> tuple[list[TraceGraph], list[str]]:
    """The compiled graphs of one log, and notes on what could not be read."""
    graphs: list[TraceGraph] = []
    notes: list[str] = []
    post_grad: dict[tuple, tuple[str, int]] = {}
    awaiting: dict[tuple, TraceGraph] = {}
    damaged = 0
    record: tuple[str, dict, int] | None = None
    payload: list[bytes] | None = None
    size = 0
    kept = 0  # bytes of the payloads kept so far
    hashes_hold: bool | None = None  # whether the log's first payload has torch's md5 (None: none read yet)

    def finish() -> None:
        nonlocal damaged, kept, hashes_hold
        if record is None:
            return
        kind, meta, at = record
        dropped = size > MAX_PAYLOAD_BYTES or kept + size > MAX_LOG_TEXT_BYTES
        if dropped:  # not kept: counted here, not again below
            damaged += 1
            text = None
        else:
            text = b"\n".join(payload).decode("utf-8", "replace") if payload is not None else None
            kept += size
            if hashes_hold is None and payload is not None and _is_md5(meta.get("has_payload")):
                # (the first payload read whole tells whether this log's hashes are torch's: a log edited
                # since, its paths rewritten or its line ends, has none that hold, and a last payload whose
                # hash fails then says nothing of a cut)
                hashes_hold = _md5_of(payload) == meta["has_payload"]
        key = _key(meta)
        if kind == "post_grad":
            if text:
                post_grad[key] = (text, at + 1)
        elif kind == "output_code":
            info = meta.get("inductor_output_code")
            name = info.get("filename") if isinstance(info, dict) else None
            fx = post_grad.pop(key, None)
            g = TraceGraph(path, at, name if isinstance(name, str) else None, text,
                           fx[0] if fx else None, fx[1] if fx else None)
            graphs.append(g)
            awaiting[key] = g
        elif kind == "stacks":
            g = awaiting.pop(key, None)
            stacks = _stack_table(text)
            if stacks is None:
                damaged += not dropped
            elif g is not None:
                g.stacks = stacks

    try:
        fh = open(path, "rb")
    except OSError as exc:
        return [], [f"{path}: not read ({exc.strerror or exc})"]
    with fh:
        for lineno, (raw, length) in enumerate(_lines(fh), 1):
            if raw[:1] == b"\t":
                if payload is not None:
                    size += length
                    if size <= MAX_PAYLOAD_BYTES:
                        payload.append(raw[1:].rstrip(b"\r\n"))
                continue
            finish()
            record, payload, size = None, None, 0
            # (a byte test first: most records are of kinds not read, and are not decoded)
            if b"] {" not in raw or (b'"inductor_output_code"' not in raw and b'"artifact"' not in raw):
                continue
            m = _RECORD.match(raw.decode("utf-8", "replace"))
            if not m:
                continue
            try:
                meta = json.loads(m.group(1))
            except (ValueError, RecursionError):
                # a head cut short (a killed process) or garbled: damaged, unless it names another artifact
                named = _ARTIFACT_NAME.search(m.group(1))
                damaged += named is None or named.group(1) in (_STACKS, _POST_GRAD) \
                    or '"inductor_output_code"' in m.group(1)
                continue
            if not isinstance(meta, dict):
                continue
            kind = _kind(meta)
            if kind is None:
                continue
            record = (kind, meta, lineno)
            payload = [] if meta.get("has_payload") else None
        if record is not None and payload is not None and size <= MAX_PAYLOAD_BYTES:
            if not ((not payload or _ends_with_newline(fh))
                    and _payload_whole(payload, record[1].get("has_payload") if hashes_hold is not False else None)):
                # torch ends every record with a newline and hashes each payload: a log whose last payload lacks
                # either was cut in it (a killed process; a cut at a line's end leaves the newline)
                record = None
                damaged += 1
            elif hashes_hold is False and _is_md5(record[1].get("has_payload")):
                notes.append(f"{path}: edited since torch wrote it (its payloads' md5s do not hold): whether its "
                             "last record was cut at a line's end cannot be told")
        finish()
    if damaged:
        notes.append(f"{path}: {damaged} provenance record(s) not read (damaged or truncated)")
    return graphs, notes


def _ends_with_newline(fh) -> bool:
    try:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"
    except OSError:  # (not seekable: a FIFO named .log; nothing says it was cut)
        return True


def _payload_whole(lines: list[bytes], digest) -> bool:
    """Whether a payload's lines, as kept (without their tab and line end), are the ones torch wrote: their md5
    is the record's `has_payload`, where that is an md5 (a log of another writer may carry another value: not
    checked)."""
    if not _is_md5(digest):
        return True
    if _md5_of(lines) == digest:
        return True
    # (a few blank lines after it, which torch never writes: appended by something else, the record is whole)
    lines = list(lines)
    for _ in range(8):
        if not lines or lines[-1].strip():
            break
        lines.pop()
        if _md5_of(lines) == digest:
            return True
    return False


def _is_md5(value) -> bool:
    return isinstance(value, str) and len(value) == 32


def _md5_of(lines) -> str:
    """The md5 torch writes of a payload (`has_payload`): its lines, without their tab, joined by newlines (a
    line's carriage return left out, as the lines kept are)."""
    return hashlib.md5(b"\n".join(ln.rstrip(b"\r") for ln in lines), usedforsecurity=False).hexdigest()


def _lines(fh, limit: int | None = None):
    """(the line, its length) for each line of a binary file; a line longer than `limit` comes as its first
    `limit` bytes with its whole length (the rest is read in pieces and dropped: a log of one endless line
    is never held whole)."""
    limit = limit or MAX_PAYLOAD_BYTES + 2
    while raw := fh.readline(limit):
        length = len(raw)
        if length == limit and not raw.endswith(b"\n"):
            while (rest := fh.readline(limit)):
                length += len(rest)
                if rest.endswith(b"\n"):
                    break
        yield raw, length


def _stack_table(text: str | None) -> dict[str, list[str]] | None:
    if not text:
        return None
    try:
        table = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(table, dict):
        return None
    return {k: [s for s in v if isinstance(s, str)] for k, v in table.items()
            if isinstance(k, str) and isinstance(v, list)}


def parse_stack(text: str) -> tuple[Frame, ...]:
    """The frames of one stack trace, outermost first (each `File "f", line N, in func` and its code line)."""
    frames = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _FRAME.match(line)
        if m:
            code = lines[i + 1].strip() if i + 1 < len(lines) and not _FRAME.match(lines[i + 1]) else ""
            frames.append(Frame(m.group("file"), int(m.group("line")), m.group("func"), code))
    return tuple(frames)


# torch's own Python: an installed torch (site-/dist-packages) or a source checkout's package
_TORCH_FILE = lazy_compile(
    r"(?:^|/)(?:site|dist)-packages/torch/|(?:^|/)torch/(?:nn|_higher_order_ops|_refs|_decomp|_prims|_functorch|"
    r"_dynamo|_inductor|fx|utils|autograd|ao|_library|distributed|sparse|masked|special|linalg|fft|"
    r"_ops\.py|functional\.py|_tensor\.py|overrides\.py|_jit_internal\.py)")


def is_torch_file(path: str) -> bool:
    """A file of torch's own Python (where an op implemented in Python, not the model, holds the line)."""
    return bool(_TORCH_FILE.search(path.replace("\\", "/")))
