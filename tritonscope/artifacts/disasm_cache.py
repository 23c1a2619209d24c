"""The tool's own cache of disassembler output (an `own_cache.OwnCache`), outside every Triton cache.

nvdisasm takes ~0.3 s even for a vector add and runs again for every look at the same unchanged cubin;
its output depends only on the binary's bytes, the disassembler build and its flags. So a record is
keyed by sha256(binary) + the tool's identity (resolved path, size, mtime) + its arguments, and holds the
output as it was printed.

Where: `$TRITONSCOPE_DISASM_CACHE` (a directory, or `off`), else `$XDG_CACHE_HOME/tritonscope/disasm`,
else `~/.cache/tritonscope/disasm`; atomic, checked and bounded as every own cache is (own_cache.py).
"""

from __future__ import annotations

import os

from tritonscope.artifacts.own_cache import OwnCache, sha256

ENV = "TRITONSCOPE_DISASM_CACHE"


class DisasmCache(OwnCache):
    ENV = ENV
    SUBDIR = "disasm"
    SUFFIX = ".sass"
    MAGIC = b"tritonscope-disasm 2"  # 1: sha256 checksums (records of 1 read as corrupt: rewritten)

    def key(self, tool: str, args: list[str], binary: bytes) -> str:
        h = sha256()
        h.update(_tool_identity(tool).encode())
        h.update(b"\0".join(a.encode() for a in args))
        h.update(b"\0\0")
        h.update(sha256(binary).digest())
        return h.hexdigest()

    def get(self, key: str) -> str | None:
        payload = self.get_bytes(key)
        return None if payload is None else payload.decode("utf-8", "replace")

    def put(self, key: str, text: str) -> None:
        self.put_bytes(key, text.encode("utf-8", "surrogateescape"))


def _tool_identity(tool: str) -> str:
    """A disassembler build: its resolved path, size and mtime (a new wheel or toolkit changes them)."""
    real = os.path.realpath(tool)
    try:
        st = os.stat(real)
    except OSError:
        return real
    return f"{real}:{st.st_size}:{int(st.st_mtime)}"

