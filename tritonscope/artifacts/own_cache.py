"""The tool's own caches, outside every Triton cache: one record per file, keyed by a digest.

Two kinds use it: disassemblies (`disasm_cache.DisasmCache`) and snapshot/diff records
(`diff.records_cache.RecordsCache`). Each lives in its own directory: `$<ENV>` (a directory, or `off`),
else `$XDG_CACHE_HOME/tritonscope/<SUBDIR>`, else `~/.cache/tritonscope/<SUBDIR>`. A directory inside the
default Triton or Inductor cache is never used (inspection never writes there).

Safe under concurrent processes: a record is written to a temporary file in the same directory and
renamed into place, so a reader sees a whole record or none; each record carries a header with its
kind, length and CRC-32, so a corrupt or truncated one is ignored (and rewritten by the next run).
Bounded: past `max_bytes` the least recently used records are dropped (a hit refreshes its mtime); a
file larger than that is no record and is not read. Only the cache's own names are ever removed
(`<xx>/<64 hex digits><suffix>` and its writers' temporary files): a directory given as a cache may hold
the user's files. A record is never written through a link planted in place of a `<xx>` directory.
"""

from __future__ import annotations

import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from tritonscope.artifacts.cache import default_compiler_caches
from tritonscope.stages.common import read_regular

try:  # the digest hashlib gives, from the builtin module: hashlib loads OpenSSL, ~2.5 ms of every start
    from _sha256 import sha256  # CPython <= 3.11
except ImportError:
    try:
        from _sha2 import sha256  # CPython >= 3.12
    except ImportError:
        from hashlib import sha256

__all__ = ["OwnCache", "sha256", "within"]

_OFF = ("off", "0", "no", "none", "false")
# What trim may remove: a record (a sha256 key, its first two digits as its directory) and the temporary
# file a writer renames into one (tempfile.mkstemp's `.tmp-` plus 8 characters).
_KEY_DIR = re.compile(r"[0-9a-f]{2}")
_KEY = re.compile(r"[0-9a-f]{64}")
_TEMP_NAME = re.compile(r"\.tmp-[a-z0-9_]{8}")


@dataclass(frozen=True)
class OwnCache:
    root: Path
    max_bytes: int = 512 << 20

    ENV: ClassVar[str] = ""  # the environment variable that moves it or turns it off
    SUBDIR: ClassVar[str] = ""  # its directory under $XDG_CACHE_HOME/tritonscope
    SUFFIX: ClassVar[str] = ""  # its records' file suffix
    MAGIC: ClassVar[bytes] = b""  # its records' header: kind and format
    MAX_BYTES: ClassVar[int] = 512 << 20  # the bound of the default cache of this kind

    @classmethod
    def default(cls, env: dict[str, str] | None = None):
        """The cache the environment asks for; None when it is off or would sit inside Triton's or Inductor's
        cache."""
        env = os.environ if env is None else env
        value = env.get(cls.ENV, "")
        if value.strip().lower() in _OFF:
            return None
        if value:
            try:
                root = Path(value).expanduser()
            except RuntimeError:  # (`~nouser/x`: no such home; the path as written)
                root = Path(value)
        else:
            base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            root = Path(base) / "tritonscope" / cls.SUBDIR
        if _inside_compiler_cache(root, env):
            return None
        return cls(root, cls.MAX_BYTES)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / (key + self.SUFFIX)

    def get_bytes(self, key: str) -> bytes | None:
        """The record's payload, or None (missing, corrupt or truncated: a miss; the next put replaces it)."""
        path = self._path(key)
        try:  # a plain file only (a link or a pipe planted there is a miss, never followed or read), and no
            data = read_regular(path, self.max_bytes, follow_links=False)  # larger than the whole cache
        except OSError:
            return None
        payload = _unwrap(data, self.MAGIC)
        if payload is None:
            return None
        try:
            os.utime(path)  # recently used
        except OSError:
            pass
        return payload

    def put_bytes(self, key: str, payload: bytes, trim: bool = True) -> None:
        """Store atomically; any failure (read-only home, full disk) leaves the cache as it was. `trim=False`
        leaves the size bound to one `trim()` after a batch of puts (each trim lists the whole cache)."""
        path = self._path(key)
        import tempfile  # only a miss writes

        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.parent.is_symlink():  # (planted there: whatever it points to is not this cache)
                return
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(_wrap(payload, self.MAGIC))
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return
        if trim:
            self.trim()

    def trim(self) -> None:
        """Drop the least recently used records until the cache fits in max_bytes."""
        records = []
        total = 0
        try:
            for sub in os.scandir(self.root):
                if not (_KEY_DIR.fullmatch(sub.name) and sub.is_dir(follow_symlinks=False)):
                    continue
                for de in os.scandir(sub.path):
                    if self._is_own_name(sub.name, de.name):
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
            except FileNotFoundError:
                pass  # (another process trimming at once removed it: the cache is as small either way)
            except OSError:
                continue
            total -= size
            if total <= self.max_bytes:
                break

    def _is_own_name(self, subdir: str, name: str) -> bool:
        """A record's file name in its directory (`<xx>/<xx...: 64 hex><suffix>`) or a writer's temporary file."""
        if _TEMP_NAME.fullmatch(name):
            return True
        key = name[:-len(self.SUFFIX)] if self.SUFFIX else name
        return name.endswith(self.SUFFIX) and key.startswith(subdir) and _KEY.fullmatch(key) is not None


def _wrap(payload: bytes, magic: bytes) -> bytes:
    # CRC-32: the record is the user's own file, checked for truncation and damage, not for forgery; a
    # megabyte of SASS costs 0.1 ms here against 3 ms for the builtin sha256
    return b"%s %d %08x\n" % (magic, len(payload), zlib.crc32(payload)) + payload


def _unwrap(data: bytes, magic: bytes) -> bytes | None:
    head, sep, payload = data.partition(b"\n")
    parts = head.split(b" ")
    if not sep or len(parts) != 4 or b" ".join(parts[:2]) != magic:
        return None
    try:
        length = int(parts[2])
    except ValueError:
        return None
    if length != len(payload) or b"%08x" % zlib.crc32(payload) != parts[3]:
        return None
    return payload


def within(path, folder) -> bool:
    """Whether `path` is `folder` or lies under it (symlinks resolved)."""
    try:
        real, top = os.path.realpath(path), os.path.realpath(folder)
    except OSError:
        return False
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def _inside_compiler_cache(root: Path, env) -> bool:
    return any(within(root, d) for d in default_compiler_caches(env))
