"""Read-only model of a Triton cache: find it, enumerate entries, read their metadata.

Nothing here parses IR; `ls` on thousands of entries reads one small json per entry. Every open is
read-only, and nothing is ever created, locked or removed.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from tritonscope.errors import TritonscopeError, UsageError
from tritonscope.stages.common import STAGE_SUFFIXES

# Utility modules Triton caches next to kernels (compiled C launchers); not kernels themselves.
LAUNCHER_SUFFIXES = (".so", ".pyd", ".dll", ".dylib")
# The order stages are shown in.
STAGE_ORDER = ("source", "ttir", "ttgir", "llir", "ptx", "cubin", "amdgcn", "hsaco", "json")
_SUFFIX_TO_STAGE = {v: k for k, v in STAGE_SUFFIXES.items()}
# Triton 2.3 mangles the signature into the kernel name: add_kernel_0d1d2d3de.
_MANGLED_23 = re.compile(r"^(?P<base>.+?)_(?P<sig>(?:\d+[cde]*)+)$")
_MAX_NESTING = 3


@dataclass(frozen=True, slots=True)
class Target:
    backend: str  # 'cuda' | 'hip' | other
    arch: str  # '90', 'gfx942'
    warp_size: int | None = None

    def __str__(self) -> str:
        return f"{self.backend}:{self.arch}"

    def matches(self, spec: str) -> bool:
        """`cuda`, `hip`, `cuda:90`, `hip:gfx942`, `sm90`, `gfx942`."""
        spec = spec.strip().lower()
        if ":" in spec:
            backend, arch = spec.split(":", 1)
            return self.backend == backend and self.arch.lower() == arch
        if spec in ("cuda", "hip", self.backend):
            return self.backend == spec
        if spec.startswith("sm"):
            return self.backend == "cuda" and self.arch == spec[2:].lstrip("_")
        return self.arch.lower() == spec


def parse_target(raw: object) -> Target | None:
    """Metadata `target` in every release's form: dict (3.0+), list/tuple (2.3), or 'cuda:90'."""
    if isinstance(raw, dict):
        backend = raw.get("backend")
        arch = raw.get("arch")
        if backend is None or arch is None:
            return None
        warp = raw.get("warp_size")
        return Target(str(backend), str(arch), int(warp) if isinstance(warp, int) else None)
    if isinstance(raw, (list, tuple)) and len(raw) >= 2:
        warp = raw[2] if len(raw) > 2 and isinstance(raw[2], int) else None
        return Target(str(raw[0]), str(raw[1]), warp)
    if isinstance(raw, str) and ":" in raw:
        backend, arch = raw.split(":", 1)
        return Target(backend, arch)
    return None


def demangle(name: str) -> str:
    """Triton 2.3's `add_kernel_0d1d2d3de` -> `add_kernel`; other names unchanged."""
    m = _MANGLED_23.match(name)
    return m.group("base") if m and any(c in m.group("sig") for c in "cde") else name


@dataclass(slots=True)
class KernelEntry:
    """One directory of a cache (or one artifact file given alone). Nothing parsed yet."""

    path: Path
    kind: str  # 'kernel' | 'partial' | 'binary-only' | 'launcher' | 'empty' | 'tmp' | 'file'
    files: dict[str, Path] = field(default_factory=dict)  # stage -> file
    other_files: list[str] = field(default_factory=list)
    metadata: dict | None = None
    metadata_error: str | None = None
    mangled_name: str | None = None
    sizes: dict[str, int] = field(default_factory=dict)
    mtime: float = 0.0
    cache_root: Path | None = None

    @property
    def hash(self) -> str:
        return self.path.name

    @property
    def name(self) -> str:
        if self.mangled_name:
            return demangle(self.mangled_name)
        return self.hash

    @property
    def is_kernel(self) -> bool:
        return self.kind in ("kernel", "partial", "binary-only", "file")

    @property
    def target(self) -> Target | None:
        if self.metadata:
            t = parse_target(self.metadata.get("target"))
            if t is not None:
                if t.warp_size is None and isinstance(self.metadata.get("warp_size"), int):
                    return Target(t.backend, t.arch, self.metadata["warp_size"])
                return t
        return self._target_from_ir()

    def _target_from_ir(self) -> Target | None:
        # Partial entries have no json; the TTGIR module header names the target.
        ttgir = self.files.get("ttgir")
        if ttgir is None:
            return None
        try:
            with open(ttgir, "rb") as fh:
                head = fh.read(16384).decode("utf-8", "replace")
        except OSError:
            return None
        m = re.search(r'(?:triton_gpu|ttg)\.target\s*=\s*"(\w+):(\w+)"', head)
        if not m:
            return None
        w = re.search(r'"(?:triton_gpu|ttg)\.threads-per-warp"\s*=\s*(\d+)', head)
        return Target(m.group(1), m.group(2), int(w.group(1)) if w else None)

    def meta(self, key: str, default=None):
        return self.metadata.get(key, default) if self.metadata else default

    @property
    def triton_version(self) -> str | None:
        v = self.meta("triton_version")
        return str(v) if v is not None else None

    @property
    def stages(self) -> list[str]:
        return [s for s in STAGE_ORDER if s in self.files]

    def stage_path(self, stage: str) -> Path:
        try:
            return self.files[stage]
        except KeyError:
            have = ", ".join(self.stages) or "none"
            raise TritonscopeError(f"no {stage} stage in this entry (stages: {have})", str(self.path)) from None

    def label(self) -> str:
        t = self.target
        return f"{self.name} {self.hash[:10]} {t if t else '?'}"

    def to_json(self) -> dict:
        t = self.target
        return {
            "name": self.name,
            "mangled_name": self.mangled_name if self.mangled_name and self.mangled_name != self.name else None,
            "hash": self.hash,
            "path": str(self.path),
            "kind": self.kind,
            "target": {"backend": t.backend, "arch": t.arch, "warp_size": t.warp_size} if t else None,
            "num_warps": self.meta("num_warps"),
            "num_stages": self.meta("num_stages"),
            "num_ctas": self.meta("num_ctas"),
            "shared": self.meta("shared"),
            "triton_version": self.triton_version,
            "stages": self.stages,
            "sizes": {s: self.sizes[s] for s in self.stages if s in self.sizes},
            "other_files": sorted(self.other_files),
            "mtime": self.mtime,
            "metadata_error": self.metadata_error,
        }


def default_cache_dir(env: dict[str, str] | None = None) -> Path:
    """Triton's own rule: TRITON_CACHE_DIR, else TRITON_HOME/.triton/cache, else ~/.triton/cache."""
    env = os.environ if env is None else env
    if env.get("TRITON_CACHE_DIR"):
        return Path(env["TRITON_CACHE_DIR"]).expanduser()
    home = env.get("TRITON_HOME") or os.path.expanduser("~")
    return Path(home) / ".triton" / "cache"


def _read_metadata(path: Path) -> tuple[dict | None, str | None]:
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e).split("\n")[0]
        return None, f"{path.name}: {reason}"
    if not isinstance(data, dict):
        return None, f"{path.name}: not a json object"
    return data, None


def load_entry(path: Path, cache_root: Path | None = None) -> KernelEntry:
    """Classify one directory from its file names, and read its metadata json if it has one."""
    files: dict[str, Path] = {}
    other: list[str] = []
    sizes: dict[str, int] = {}
    mtime = 0.0
    stems: dict[str, str] = {}
    grp_stem: str | None = None
    try:
        it = os.scandir(path)
    except FileNotFoundError:
        return KernelEntry(path=path, kind="empty", cache_root=cache_root)  # deleted while walking
    except PermissionError:
        return KernelEntry(path=path, kind="empty", metadata_error="permission denied", cache_root=cache_root)
    except NotADirectoryError:
        return entry_for_file(path)
    with it:
        for de in it:
            name = de.name
            try:
                st = de.stat(follow_symlinks=False)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                other.append(name)
                continue
            mtime = max(mtime, st.st_mtime)
            if name.startswith("__grp__"):
                grp_stem = name[len("__grp__"):].rsplit(".", 1)[0]
                other.append(name)
                continue
            stem, dot, ext = name.rpartition(".")
            stage = _SUFFIX_TO_STAGE.get(dot + ext) if dot else None
            if stage is None:
                other.append(name)
                continue
            if stage in files:  # two kernels' files in one dir: keep the first, note the rest
                other.append(name)
                continue
            files[stage] = Path(de.path)
            sizes[stage] = st.st_size
            stems[stage] = stem
    meta = err = None
    if "json" in files:
        meta, err = _read_metadata(files["json"])
    name = None
    if meta and isinstance(meta.get("name"), str):
        name = meta["name"]
    else:
        for s in ("json", "ttir", "ttgir", "llir", "ptx", "amdgcn", "cubin", "hsaco", "source"):
            if s in stems:
                name = stems[s]
                break
        name = name or grp_stem
    text_stages = {"source", "ttir", "ttgir", "llir", "ptx", "amdgcn"}
    if files:
        if "json" not in files or meta is None and err:
            kind = "partial"
        elif not (text_stages & set(files)) and ({"cubin", "hsaco"} & set(files)):
            kind = "binary-only"
        elif not (set(files) - {"json"}):
            kind = "partial"
        else:
            kind = "kernel"
    elif any(o.endswith(LAUNCHER_SUFFIXES) for o in other):
        kind = "launcher"
        name = next(o for o in other if o.endswith(LAUNCHER_SUFFIXES)).rsplit(".", 1)[0]
    else:
        kind = "empty"
    if path.name.startswith("tmp."):
        kind = "tmp"
    if mtime == 0.0:
        try:
            mtime = path.stat().st_mtime
        except OSError:
            pass
    return KernelEntry(path=path, kind=kind, files=files, other_files=other, metadata=meta,
                       metadata_error=err, mangled_name=name, sizes=sizes, mtime=mtime, cache_root=cache_root)


def entry_for_file(path: Path) -> KernelEntry:
    """A single artifact given alone: one stage, inferred from its suffix."""
    stage = _SUFFIX_TO_STAGE.get(path.suffix)
    if stage is None:
        known = ", ".join(sorted(STAGE_SUFFIXES.values()))
        raise TritonscopeError(f"not a Triton artifact (expected one of {known})", str(path))
    try:
        st = path.stat()
    except OSError as e:
        raise TritonscopeError(f"cannot read: {e.strerror}", str(path)) from None
    entry = KernelEntry(path=path, kind="file", files={stage: path}, mangled_name=path.stem,
                        sizes={stage: st.st_size}, mtime=st.st_mtime)
    if stage == "json":
        entry.metadata, entry.metadata_error = _read_metadata(path)
    else:
        sibling = path.with_suffix(".json")
        if sibling.is_file():
            entry.metadata, entry.metadata_error = _read_metadata(sibling)
    return entry


def _looks_like_entry(path: Path) -> bool:
    try:
        with os.scandir(path) as it:
            for de in it:
                if de.is_file(follow_symlinks=False):
                    n = de.name
                    if n.endswith(LAUNCHER_SUFFIXES) or os.path.splitext(n)[1] in _SUFFIX_TO_STAGE:
                        return True
    except OSError:
        return False
    return False


class Cache:
    """A cache directory (or a folder of caches, or one entry, or one file), read-only."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        if not os.path.lexists(self.root):
            raise TritonscopeError("no such cache directory", str(self.root))
        self._entries: list[KernelEntry] | None = None

    @classmethod
    def discover(cls, cache_dir: str | os.PathLike | None = None) -> Cache:
        return cls(cache_dir if cache_dir else default_cache_dir())

    def entry_dirs(self) -> list[tuple[Path, Path]]:
        """(entry directory, the cache it belongs to) for every entry under the root."""
        if self.root.is_file():
            return []
        if not self.root.is_dir():
            raise TritonscopeError("not a directory", str(self.root))
        if _looks_like_entry(self.root):
            return [(self.root, self.root.parent)]
        out: list[tuple[Path, Path]] = []
        self._walk(self.root, 0, out)
        return out

    def _walk(self, cache: Path, depth: int, out: list[tuple[Path, Path]]) -> None:
        try:
            children = sorted(os.scandir(cache), key=lambda d: d.name)
        except PermissionError:
            raise TritonscopeError("permission denied", str(cache)) from None
        except OSError as e:
            if depth == 0:
                raise TritonscopeError(f"cannot list: {e.strerror}", str(cache)) from None
            return
        for de in children:
            if not de.is_dir(follow_symlinks=False):
                continue
            p = Path(de.path)
            if de.name.startswith("tmp.") or _looks_like_entry(p):
                out.append((p, cache))
                continue
            has_subdirs = _has_subdirs(p)
            if not has_subdirs:
                out.append((p, cache))  # empty, or files of no known kind: listed as an empty entry
            elif depth < _MAX_NESTING and _is_nested_cache(p, _MAX_NESTING - depth):
                self._walk(p, depth + 1, out)
            # else: a folder beside the cache (sources, logs): not part of it

    def entries(self) -> list[KernelEntry]:
        if self._entries is None:
            if self.root.is_file():
                self._entries = [entry_for_file(self.root)]
            else:
                self._entries = [load_entry(p, root) for p, root in self.entry_dirs()]
        return self._entries

    def kernels(self, include_all: bool = False) -> list[KernelEntry]:
        """Kernel entries (complete, partial, binary-only); with include_all also launchers/empty/tmp."""
        return [e for e in self.entries() if include_all or e.is_kernel]


def _has_subdirs(path: Path) -> bool:
    try:
        with os.scandir(path) as it:
            return any(de.is_dir(follow_symlinks=False) for de in it)
    except OSError:
        return False


def _is_nested_cache(path: Path, levels: int) -> bool:
    """A folder holding entry directories, at most `levels` folders down (a folder of caches)."""
    try:
        with os.scandir(path) as it:
            subdirs = [Path(de.path) for de in it if de.is_dir(follow_symlinks=False)]
    except OSError:
        return False
    for d in subdirs[:256]:
        if d.name.startswith("tmp.") or _looks_like_entry(d):
            return True
    return levels > 1 and any(_is_nested_cache(d, levels - 1) for d in subdirs[:16])


def select(entries: list[KernelEntry], spec: str | None, target: str | None = None) -> list[KernelEntry]:
    """Entries matching a name, glob, hash prefix, or entry path; then a target filter."""
    out = entries
    if spec:
        if any(c in spec for c in "*?["):
            out = [e for e in out if fnmatch.fnmatchcase(e.name, spec) or fnmatch.fnmatchcase(e.hash, spec)]
        else:
            by_name = [e for e in out if e.name == spec or e.mangled_name == spec]
            if by_name:
                out = by_name
            else:
                low = spec.lower()
                out = [e for e in out if e.hash.lower().startswith(low) or str(e.path) == spec]
    if target:
        out = [e for e in out if e.target is not None and e.target.matches(target)]
    return out


def resolve_one(cache: Cache, spec: str | None, target: str | None = None) -> KernelEntry:
    """The one kernel entry a command works on; an error that lists candidates when ambiguous."""
    if spec and os.path.exists(spec) and (os.path.isfile(spec) or _looks_like_entry(Path(spec))):
        p = Path(spec)
        return entry_for_file(p) if p.is_file() else load_entry(p, p.parent)
    if cache.root.is_file():
        return entry_for_file(cache.root)
    kernels = cache.kernels()
    found = select(kernels, spec, target)
    if not found:
        what = f"'{spec}'" if spec else "any kernel"
        t = f" for target {target}" if target else ""
        names = sorted({e.name for e in kernels})
        hint = f" (kernels here: {', '.join(names[:8])}{', ...' if len(names) > 8 else ''})" if names else ""
        raise TritonscopeError(f"nothing matches {what}{t}{hint}", str(cache.root))
    if len(found) > 1:
        found.sort(key=lambda e: -e.mtime)
        lines = [f"  {e.hash[:12]}  {e.name}  {e.target or '?'}  {e.kind}" for e in found[:20]]
        more = f"\n  ... and {len(found) - 20} more" if len(found) > 20 else ""
        raise AmbiguousKernel(
            f"{len(found)} entries match '{spec or '*'}'; narrow with a hash prefix or --target:\n"
            + "\n".join(lines) + more, str(cache.root))
    return found[0]


class AmbiguousKernel(UsageError):
    """Several entries match and the command takes one."""
