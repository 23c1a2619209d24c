"""The tool's own cache of disassembler output, outside every Triton cache.

nvdisasm takes ~0.3 s even for a vector add and runs again for every look at the same unchanged cubin;
its output depends only on the binary's bytes, the disassembler build and its flags. So a record is
keyed by sha256(binary) + the tool's identity (resolved path, size, mtime) + its arguments, and holds the
output as it was printed (a header with its length and CRC-32).

Where: `$TRITONSCOPE_DISASM_CACHE` (a directory, or `off`), else `$XDG_CACHE_HOME/tritonscope/disasm`,
else `~/.cache/tritonscope/disasm`. A directory inside a Triton cache is never used (inspection never
writes there). Safe under concurrent processes: a record is written to a temporary file in the same
directory and renamed into place, so a reader sees a whole record or none; each record carries a header
with its length and checksum, so a corrupt or truncated one is ignored (and rewritten by the next run).
Bounded: past `max_bytes` the least recently used records are dropped (a hit refreshes its mtime).
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass
from pathlib import Path

from tritonscope.artifacts.cache import default_cache_dir

ENV = "TRITONSCOPE_DISASM_CACHE"
DEFAULT_MAX_BYTES = 512 << 20
_MAGIC = b"tritonscope-disasm 2"  # 1: sha256 checksums (records of 1 read as corrupt: rewritten)

try:  # the digest hashlib gives, from the builtin module: hashlib loads OpenSSL, ~2.5 ms of every start
    from _sha256 import sha256  # CPython <= 3.11
except ImportError:
    try:
        from _sha2 import sha256  # CPython >= 3.12
    except ImportError:
        from hashlib import sha256
_SUFFIX = ".sass"


@dataclass(frozen=True)
class DisasmCache:
    root: Path
    max_bytes: int = DEFAULT_MAX_BYTES

    @classmethod
    def default(cls, env: dict[str, str] | None = None) -> DisasmCache | None:
        """The cache the environment asks for; None when it is off or would sit inside a Triton cache."""
        env = os.environ if env is None else env
        value = env.get(ENV, "")
        if value.strip().lower() in ("off", "0", "no", "none", "false"):
            return None
        if value:
            root = Path(value).expanduser()
        else:
            base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            root = Path(base) / "tritonscope" / "disasm"
        if _inside_triton_cache(root, env):
            return None
        return cls(root)

    def key(self, tool: str, args: list[str], binary: bytes) -> str:
        h = sha256()
        h.update(_tool_identity(tool).encode())
        h.update(b"\0".join(a.encode() for a in args))
        h.update(b"\0\0")
        h.update(sha256(binary).digest())
        return h.hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / (key + _SUFFIX)

    def get(self, key: str) -> str | None:
        path = self._path(key)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            return None
        payload = _unwrap(data)
        if payload is None:
            return None  # corrupt or truncated: a miss; the next put replaces it
        try:
            os.utime(path)  # recently used
        except OSError:
            pass
        return payload.decode("utf-8", "replace")

    def put(self, key: str, text: str) -> None:
        """Store atomically; any failure (read-only home, full disk) leaves the cache as it was."""
        path = self._path(key)
        payload = text.encode("utf-8", "surrogateescape")
        import tempfile  # only a miss writes

        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(_wrap(payload))
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return
        self.trim()

    def trim(self) -> None:
        """Drop the least recently used records until the cache fits in max_bytes."""
        records = []
        total = 0
        try:
            for sub in os.scandir(self.root):
                if not sub.is_dir(follow_symlinks=False):
                    continue
                for de in os.scandir(sub.path):
                    if de.name.endswith(_SUFFIX) or de.name.startswith(".tmp-"):
                        try:
                            st = de.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        records.append((st.st_mtime, st.st_size, de.path))
                        total += st.st_size
        except OSError:
            return
        if total <= self.max_bytes:
            return
        for _, size, path in sorted(records):
            try:
                os.unlink(path)
            except OSError:
                continue
            total -= size
            if total <= self.max_bytes:
                break


def _wrap(payload: bytes) -> bytes:
    # CRC-32: the record is the user's own file, checked for truncation and damage, not for forgery; a
    # megabyte of SASS costs 0.1 ms here against 3 ms for the builtin sha256
    return b"%s %d %08x\n" % (_MAGIC, len(payload), zlib.crc32(payload)) + payload


def _unwrap(data: bytes) -> bytes | None:
    head, sep, payload = data.partition(b"\n")
    parts = head.split(b" ")
    if not sep or len(parts) != 4 or b" ".join(parts[:2]) != _MAGIC:
        return None
    try:
        length = int(parts[2])
    except ValueError:
        return None
    if length != len(payload) or b"%08x" % zlib.crc32(payload) != parts[3]:
        return None
    return payload


def _tool_identity(tool: str) -> str:
    """A disassembler build: its resolved path, size and mtime (a new wheel or toolkit changes them)."""
    real = os.path.realpath(tool)
    try:
        st = os.stat(real)
    except OSError:
        return real
    return f"{real}:{st.st_size}:{int(st.st_mtime)}"


def _inside_triton_cache(root: Path, env) -> bool:
    try:
        r = os.path.realpath(root)
        t = os.path.realpath(default_cache_dir(env))
    except OSError:
        return False
    return r == t or r.startswith(t.rstrip(os.sep) + os.sep)
