"""Read-only model of a Triton cache: find it, enumerate entries, read their metadata.

Nothing here parses IR; `ls` on thousands of entries reads one small json per entry. Every open is
read-only, and nothing is ever created, locked or removed.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tritonscope.errors import TritonscopeError, UsageError
from tritonscope.lazyre import lazy_compile
from tritonscope.stages.common import gc_paused, read_at_most
from tritonscope.stages.table import BINARY_STAGES, FILE_STAGES, STAGE_SUFFIXES, TEXT_STAGES

# Utility modules Triton caches next to kernels (compiled C launchers); not kernels themselves.
LAUNCHER_SUFFIXES = (".so", ".pyd", ".dll", ".dylib")
# The order stages are shown in.
STAGE_ORDER = FILE_STAGES
_SUFFIX_TO_STAGE = {v: k for k, v in STAGE_SUFFIXES.items()}
# Triton 2.3 mangles the signature into the kernel name: add_kernel_0d1d2d3de.
_MANGLED_23 = lazy_compile(r"^(?P<base>.+?)_(?P<sig>(?:\d+[cde]*)+)$")
_MAX_NESTING = 3
# Far above any real artifact (the largest LLIR seen is ~20 MB) and far below what fills memory.
DEFAULT_MAX_STAGE_BYTES = 256 << 20
# A metadata json is a few KB; a larger one is not metadata Triton wrote.
MAX_METADATA_BYTES = 16 << 20
_TEXT_STAGES = frozenset(TEXT_STAGES)
# A Gluon kernel's first module carries the TTGIR module attributes already (GluonASTSource sets them
# before generating code); a @triton.jit kernel's `.source` is TTIR: `module {` or `module attributes {`
# without them. Read up to the module line (after the layout and loc aliases), at most this much.
_GLUON_MODULE_ATTR = lazy_compile(rb'^module attributes \{[^\n]*"ttg\.num-warps"', re.MULTILINE)
_SOURCE_HEAD_BYTES = 1 << 16
_IR_HEAD_BYTES = 16384  # where a TTGIR's module attributes or a PTX's `.target` line stand


@dataclass(frozen=True, slots=True)
class Target:
    backend: str  # 'cuda' | 'hip' | other
    arch: str  # '90', 'gfx942'
    warp_size: int | None = None  # (NVIDIA's when not given: every NVIDIA GPU's warp is 32 threads)

    def __post_init__(self) -> None:
        if self.warp_size is None and self.backend == "cuda":  # (2.3's ["cuda", 80] names no warp size)
            object.__setattr__(self, "warp_size", 32)

    def __str__(self) -> str:
        return f"{self.backend}:{self.arch}"

    def matches(self, spec: str) -> bool:
        """Every spelling `parse_target_spec` accepts: `cuda`, `hip`, `cuda:90`, `sm90`, `hip:gfx942`,
        `gfx942`. A spelling it refuses matches nothing."""
        try:
            canon = parse_target_spec(spec)
        except UsageError:
            return False
        backend, _, arch = canon.partition(":")
        return self.backend == backend and (not arch or self.arch.lower() == arch)


# The one target grammar of every command (`--target`, `compile --target`): backend alone, or
# backend:arch, with NVIDIA's `sm90`/`sm_90a` and AMD's bare `gfx942` as aliases.
_TARGET_CUDA = lazy_compile(r"^(?:cuda:|sm_?)(?P<arch>\d{1,4})a?$")
_TARGET_HIP = lazy_compile(r"^(?:hip:)?(?P<arch>gfx[0-9a-f]{1,8})$")
TARGET_FORMS = "cuda, hip, cuda:90 (or sm90), hip:gfx942 (or gfx942)"


def parse_target_spec(text: str) -> str:
    """A target as the user spells it -> its canonical form (`cuda`, `hip`, `cuda:90`, `hip:gfx942`);
    anything else is a UsageError that names the accepted forms."""
    spec = text.strip().lower()
    if spec in ("cuda", "hip"):
        return spec
    if m := _TARGET_CUDA.match(spec):
        return f"cuda:{m.group('arch')}"
    if m := _TARGET_HIP.match(spec):
        return f"hip:{m.group('arch')}"
    raise UsageError(f"unknown target '{text}' (forms: {TARGET_FORMS})")


def parse_target(raw: object) -> Target | None:
    """Metadata `target` in every release's form: dict (3.0+; 2.2's `{"capability": 80, ...}` names an
    NVIDIA GPU), list/tuple (2.3), or 'cuda:90'."""
    if isinstance(raw, dict):
        backend = raw.get("backend")
        arch = raw.get("arch")
        if backend is None and arch is None and is_int(raw.get("capability")):
            return Target("cuda", str(raw["capability"]), 32)
        if not isinstance(backend, str) or not _is_name(arch):
            return None  # Intel's XPU backend writes its device's properties as `arch`: its TTGIR names it
        warp = raw.get("warp_size")
        return Target(backend, str(arch), warp if is_int(warp) and warp > 0 else None)
    if isinstance(raw, (list, tuple)) and len(raw) >= 2:
        if not isinstance(raw[0], str) or not _is_name(raw[1]):
            return None  # (a damaged field: no target rather than one spelled from a list's repr)
        warp = raw[2] if len(raw) > 2 and is_int(raw[2]) else None
        return Target(raw[0], str(raw[1]), warp)
    if isinstance(raw, str) and ":" in raw:
        backend, arch = raw.split(":", 1)
        return Target(backend, arch)
    return None


# Counts the metadata of every release writes as integers (what `ls` and `layout` read), where present.
_META_INTS = frozenset({"num_warps", "num_stages", "num_ctas", "shared", "tmem_size"})
# counts Triton never writes below 1 (a block of 0 warps, 0 threads a warp): 0 or less reads as unknown
_META_POSITIVE = frozenset({"num_warps", "num_ctas", "warp_size"})
# counts Triton never writes below 0 (stages, bytes of shared memory, tensor memory columns)
_META_NONNEGATIVE = frozenset({"num_stages", "shared", "tmem_size"})


def _positive(key: str, v: object) -> bool:
    """Whether a count is in the range Triton writes it in (a key of no such range: True)."""
    if key in _META_POSITIVE:
        return is_int(v) and v > 0
    if key in _META_NONNEGATIVE:
        return is_int(v) and v >= 0
    return True


def is_int(v: object) -> bool:
    """An int that is not a bool (JSON's `true` reads as one)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _is_name(v: object) -> bool:
    """An arch as metadata writes it: a string or a number (not a bool, a list or a dict)."""
    return isinstance(v, str) or is_int(v)


def demangle(name: str, legacy: bool = False) -> str:
    """Triton 2.x's `add_kernel_0d1d2d3de` -> `add_kernel`; other names unchanged. Triton up to 2.3 appends
    every non-constexpr argument's index in order, each followed by its specialization (`c` equal to 1, `d`
    divisible by 16, `e` by 8). A suffix of bare indices (`_0123`: no argument specialized) is taken off only
    for an entry known to be 2.x (`legacy`): a 3.x kernel may well be named `triton_poi_fused_add_0`."""
    m = _MANGLED_23.match(name)
    if m is None or not _signature_suffix(m.group("sig")):
        return name
    return m.group("base") if legacy or any(c in m.group("sig") for c in "cde") else name


def _signature_suffix(sig: str) -> bool:
    """`0d1d2c3` and `0123`: the indices 0, 1, 2, ... in order, each with its markers; `7` or `02` are not."""
    index = pos = 0
    while pos < len(sig):
        digits = str(index)
        if not sig.startswith(digits, pos):
            return False
        pos += len(digits)
        while pos < len(sig) and sig[pos] in "cde":
            pos += 1
        index += 1
    return index > 0


def infer_release(meta: object) -> tuple[tuple[int, int], str, str] | None:
    """(release, its label, how it shows) for metadata that names no `triton_version` (the field came in
    3.3), from the fields each release wrote: 3.2 `sanitize_overflow`; 3.0 and 3.1 (alike in every layout)
    `allow_fp8e4b15` beside a `{"backend", "arch"}` target; 2.3 the target as a list and
    `ids_of_folded_args`; 2.2 the target as `{"capability", ...}` and `enable_warp_specialization`; 2.1 an
    `arch` number beside `device_type`; 2.0 the stages' `ctime`."""
    if not isinstance(meta, dict) or "triton_version" in meta:
        return None
    target = meta.get("target")
    if "sanitize_overflow" in meta or "supported_fp8_dtypes" in meta:
        return (3, 2), "3.2", "inferred: metadata without triton_version, with 3.2's sanitize_overflow"
    if "allow_fp8e4b15" in meta and isinstance(target, dict) and "backend" in target:
        return (3, 1), "3.0-3.1", "inferred: 3.0/3.1 metadata (allow_fp8e4b15, no triton_version; they decode alike)"
    if "ids_of_folded_args" in meta or isinstance(target, list) or is_int(target):
        return (2, 3), "2.3", "inferred: 2.3 metadata (ids_of_folded_args, the target as a list)"
    if (isinstance(target, dict) and "capability" in target) or "enable_warp_specialization" in meta:
        return (2, 2), "2.2", "inferred: 2.2 metadata (the target as {capability}, enable_warp_specialization)"
    if "arch" in meta and "device_type" in meta:
        return (2, 1), "2.1", "inferred: 2.1 metadata (arch and device_type)"
    if isinstance(meta.get("ctime"), dict) and "num_warps" in meta:
        return (2, 0), "2.0", "inferred: 2.0 metadata (the stages' ctime)"
    return None


def file_kind(path: str, follow: bool = False) -> str:
    """What a path that is no regular file is, in words (for errors naming it); `follow`: what a link leads
    to (a link to /dev/zero: a character device)."""
    import stat

    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except OSError:
        return "gone"
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return words
    return "no regular file"


@dataclass
class KernelEntry:
    """One directory of a cache (or one artifact file given alone). Nothing parsed yet."""

    path: Path
    kind: str  # 'kernel' | 'partial' | 'binary-only' | 'launcher' | 'empty' | 'tmp' | 'file'
    # stage -> file path; kept as strings while walking (Path objects cost more than the walk itself)
    file_paths: dict[str, str] = field(default_factory=dict)
    other_files: list[str] = field(default_factory=list)
    metadata: dict | None = None
    metadata_error: str | None = None
    mangled_name: str | None = None
    mtime: float = 0.0
    cache_root: Path | None = None
    # Stage files larger than this are refused in one line (--max-stage-size); travels to pool workers.
    max_stage_bytes: int | None = DEFAULT_MAX_STAGE_BYTES
    _files: dict[str, Path] | None = field(default=None, repr=False, compare=False)
    _sizes: dict[str, int] | None = field(default=None, repr=False, compare=False)
    _name: str | None = field(default=None, repr=False, compare=False)
    # stages.ParsedEntry: the stages read and parsed so far (stages.entry_stages); never pickled
    _parsed: object | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_parsed"] = None  # a pool worker reads for itself
        return state

    @property
    def compiled_at(self) -> float | None:
        """When Triton wrote the entry (its folder's mtime: each file put in it touches it), None where unknown."""
        return self.mtime or None

    @property
    def files(self) -> dict[str, Path]:
        """stage -> Path of its file."""
        if self._files is None:
            self._files = {k: Path(v) for k, v in self.file_paths.items()}
        return self._files

    @property
    def sizes(self) -> dict[str, int]:
        """stage -> bytes, stat'ed on first use (files that vanished meanwhile are left out)."""
        if self._sizes is None:
            self._sizes = {}
            for stage, p in self.file_paths.items():
                try:
                    self._sizes[stage] = os.stat(p).st_size
                except OSError:
                    pass
        return self._sizes

    @property
    def hash(self) -> str:
        return self.path.name

    @property
    def name(self) -> str:
        name = self._name
        if name is None:  # asked for many times per entry by every listing: demangled once
            if self.mangled_name:
                inferred = self.inferred_release
                name = demangle(self.mangled_name, legacy=inferred is not None and inferred[0] < (3, 0))
            else:
                name = self.hash
            self._name = name
        return name

    @property
    def is_kernel(self) -> bool:
        return self.kind in ("kernel", "partial", "binary-only", "file")

    @property
    def target(self) -> Target | None:
        if self.metadata:
            t = parse_target(self.metadata.get("target"))
            if t is None and is_int(self.metadata.get("arch")) and self.metadata.get("device_type") == "cuda":
                t = Target("cuda", str(self.metadata["arch"]), 32)  # 2.1: `"arch": 80`
            if t is not None:
                if t.warp_size is None and is_int(self.metadata.get("warp_size")) and self.metadata["warp_size"] > 0:
                    return Target(t.backend, t.arch, self.metadata["warp_size"])
                return t
        return self._target_from_ir()

    def _target_from_ir(self) -> Target | None:
        """Partial entries have no json, 2.0's names no target: the TTGIR module header names it (up to 2.3
        as `triton_gpu.compute-capability`), else the PTX's `.target sm_80`, else the CUBIN's ELF header."""
        head = (_head(self.file_paths.get("ttgir"), _IR_HEAD_BYTES) or b"").decode("utf-8", "replace")
        m = _TTGIR_TARGET.search(head)
        if m:
            w = _TTGIR_WARP.search(head)
            backend, arch = (m.group(1), m.group(2)) if m.group(1) else ("cuda", m.group(3))
            return Target(backend, arch, int(w.group(1)) if w else None)
        m = _PTX_TARGET.search((_head(self.file_paths.get("ptx"), _IR_HEAD_BYTES) or b"").decode("utf-8", "replace"))
        if m:
            return Target("cuda", m.group(1), 32)
        from tritonscope.artifacts.nvinfo import cubin_arch

        arch = cubin_arch(_head(self.file_paths.get("cubin"), 64) or b"")  # (an entry keeping only its CUBIN)
        return Target("cuda", arch, 32) if arch else None

    @property
    def language(self) -> str | None:
        """'gluon' or 'triton' (the kernel's front end), None when the entry keeps no IR to tell by.

        Gluon compiles source -> TTGIR: no `.ttir`; from 3.9 a `.glir` stage; before, a `.source` whose
        module already has TTGIR attributes (Gluon exists from 3.4, where `.source` appeared too)."""
        files = self.file_paths
        if "glir" in files:
            return "gluon"
        if "ttir" in files:
            return "triton"
        if "source" not in files:
            return None
        head = _head(files["source"], _SOURCE_HEAD_BYTES)
        if head is None:
            return None
        return "gluon" if _GLUON_MODULE_ATTR.search(head) else "triton"

    @property
    def local_bytes(self) -> int | None:
        """Per-thread local memory of the kernel (register spills and stack: the cubin's frame size or
        `.nv.local` section, whichever is larger), read from the CUBIN's ELF; None without a readable one."""
        path = self.file_paths.get("cubin")
        if path is None:
            return None
        from tritonscope.artifacts.nvinfo import file_local_bytes  # lazy: only ls and --json ask for spills

        try:
            return file_local_bytes(path, self.mangled_name or self.name)
        except (OSError, TritonscopeError, struct.error):
            return None

    def meta(self, key: str, default=None):
        return self.metadata.get(key, default) if self.metadata else default

    def bad_fields(self) -> list[str]:
        """The metadata's fields of a type Triton never writes (`"num_warps": "four"`, `"target": "hip"`),
        each as `key=value` (its JSON, cut at 40 characters): each reads as unknown, silently but for this."""
        if not self.metadata:
            return []
        bad = []
        for key, value in self.metadata.items():
            fits = ((key not in _META_INTS or is_int(value)) and (key != "name" or isinstance(value, str))
                    and (key != "target" or parse_target(value) is not None)
                    and (value is None or _positive(key, value)))
            if not fits:
                shown = json.dumps(value, ensure_ascii=True)
                bad.append(f"{key}={shown[:40]}{'...' if len(shown) > 40 else ''}")
        return bad

    def meta_int(self, key: str) -> int | None:
        """A count the metadata holds (num_warps, shared), None where it is missing or not a number: a
        damaged `"4"`, `true` or list reads as unknown, never as a number."""
        v = self.meta(key)
        return v if is_int(v) and _positive(key, v) else None

    @property
    def tmem_columns(self) -> int | None:
        """The tensor memory columns Triton allocated (Blackwell; metadata `tmem_size`), else None."""
        v = self.meta("tmem_size")
        return v if is_int(v) and v > 0 else None

    @property
    def over_limits(self) -> list[dict]:
        """What the kernel asks of its target beyond what a launch may use (`over_limits_on` its target)."""
        return self.over_limits_on(self.target)

    def over_limits_on(self, t: Target | None) -> list[dict]:
        """What the kernel asks of target `t` (the entry's, which a caller holding it passes: an entry
        without metadata reads it from its IR) beyond what a launch may use, the checks Triton's
        `CompiledKernel._init_handles` makes before the first launch (it raises OutOfResources): shared memory
        over the target's per-block limit (`SHARED_LIMITS`), tensor memory over 512 columns (576 on sm_107),
        threads (num_warps x warp size) over the 1,024 a block may have on every NVIDIA and AMD GPU (the
        driver's `n_max_threads` is at most that; fewer where registers run out, which is not checked here).
        A cache keeps such entries (an autotuner's config that never ran, a cross-compile): listed as
        `{"resource", "used", "limit"}`. Empty where within the limits or the target's limit is not known."""
        out = []
        shared, limit = self.meta("shared"), shared_limit(t)
        if is_int(shared) and limit is not None and shared > limit:
            out.append({"resource": "shared", "used": shared, "limit": limit})
        warps = self.meta("num_warps")
        if is_int(warps) and t is not None and t.warp_size and warps * t.warp_size > MAX_THREADS_PER_BLOCK:
            # (the driver's n_max_threads is at most this, less where registers run out: the bound it always has)
            out.append({"resource": "threads", "used": warps * t.warp_size, "limit": MAX_THREADS_PER_BLOCK})
        cols = self.tmem_columns
        if cols is not None and t is not None and t.backend == "cuda":
            tmem_limit = 576 if t.arch == "107" else 512
            if cols > tmem_limit:
                out.append({"resource": "tensor memory columns", "used": cols, "limit": tmem_limit})
        return out

    @property
    def triton_version(self) -> str | None:
        v = self.meta("triton_version")
        return v if isinstance(v, str) else None  # (a list or a number there is no version: unknown)

    @property
    def inferred_release(self) -> tuple[tuple[int, int], str, str] | None:
        """For metadata without `triton_version`: the release its fields show (`infer_release`)."""
        return infer_release(self.metadata)

    @property
    def triton_version_inferred(self) -> str | None:
        """Where the metadata names no release: the label of the one its fields show (`3.2`, `3.0-3.1`, `2.2`)."""
        inferred = None if self.triton_version else self.inferred_release
        return inferred[1] if inferred else None

    @property
    def stages(self) -> list[str]:
        return [s for s in STAGE_ORDER if s in self.file_paths]

    def stage_path(self, stage: str) -> Path:
        """The file of a stage, to read: a missing stage or a file over the size limit is an error."""
        try:
            path = self.files[stage]
        except KeyError:
            raise self.missing_stage(stage) from None
        size = self.sizes.get(stage)
        if self.max_stage_bytes is not None and size is not None and size > self.max_stage_bytes:
            raise TritonscopeError(
                f"{format_size(size)}, over the stage size limit of {format_size(self.max_stage_bytes)} "
                "(no real artifact is this large; raise it with --max-stage-size)", str(path))
        return path

    def missing_stage(self, stage: str) -> TritonscopeError:
        """The error for a stage this entry has no readable file of: its name on a symbolic link (not followed:
        a cache's links may lead anywhere) or on what is no file (a folder, a FIFO) is said, not just missed."""
        have = ", ".join(self.stages) or "none"
        suffix = STAGE_SUFFIXES.get(stage)
        for name in sorted(self.other_files):
            if not (suffix and name.endswith(suffix)) or name.startswith("__grp__"):
                continue
            full = os.path.join(self.path, name)
            if os.path.islink(full):
                return TritonscopeError(f"the {stage} stage is a symbolic link, which is not followed "
                                        f"(stages: {have})", full)
            if not os.path.isfile(full):
                return TritonscopeError(f"the {stage} stage is {file_kind(full)}, not a file (stages: {have})", full)
        return TritonscopeError(f"no {stage} stage in this entry (stages: {have})", str(self.path))

    def damage(self, empty_stages: bool = False) -> list[str]:
        """What of this entry cannot be read, one line each naming the file (for commands that go on with the
        rest, `snapshot` and `diff`): metadata that does not read, a stage's name on what is no file; with
        `empty_stages` (commands that read the stages: a stat each), a text stage of 0 bytes, whose metrics
        are unknown (`diff.records` leaves it out: a truncated write is no kernel with no instructions)."""
        out = []
        if empty_stages:
            out.extend(f"{self.file_paths[stage]}: empty (0 bytes): its metrics are unknown"
                       for stage, size in sorted(self.sizes.items()) if size == 0 and stage in _TEXT_STAGES)
        if self.metadata_error:
            where = self.file_paths.get("json") or str(self.path)
            out.append(f"{where}: metadata not read ({self.metadata_error.split(': ', 1)[-1]}): what it gives "
                       "(num_warps, num_stages, shared memory, the release) is unknown")
        bad = self.bad_fields()
        if bad:
            out.append(f"{self.file_paths.get('json')}: {', '.join(bad)}, not as Triton writes "
                       f"{'them' if len(bad) > 1 else 'it'}: read as unknown")
        for name in sorted(self.other_files):
            dot = name.rfind(".")
            if dot > 0 and name[dot:] in _SUFFIX_TO_STAGE and not name.startswith("__grp__"):
                full = os.path.join(self.path, name)
                if os.path.islink(full):
                    out.append(f"{full}: a symbolic link, which is not followed: its stage is left out")
                elif not os.path.isfile(full):
                    out.append(f"{full}: not a file: its stage is left out")
        return out

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
            "num_warps": self.meta_int("num_warps"),
            "num_stages": self.meta_int("num_stages"),
            "num_ctas": self.meta_int("num_ctas"),
            "shared": self.meta_int("shared"),
            "tmem_columns": self.tmem_columns,
            "triton_version": self.triton_version,
            "triton_version_inferred": self.triton_version_inferred,
            "language": self.language,
            "local_bytes": self.local_bytes,
            "shared_limit": shared_limit(t),
            "over_limits": self.over_limits_on(t),
            "stages": self.stages,
            "sizes": {s: self.sizes[s] for s in self.stages if s in self.sizes},
            "other_files": sorted(self.other_files),
            "mtime": self.mtime,
            "metadata_error": self.metadata_error,
        }


_TTGIR_TARGET = lazy_compile(r'(?:triton_gpu|ttg)\.target"?\s*=\s*"(\w+):(\w+)"'
                             r'|"triton_gpu\.compute-capability"\s*=\s*(\d+)')
_TTGIR_WARP = lazy_compile(r'"(?:triton_gpu|ttg)\.threads-per-warp"\s*=\s*(\d+)')
_PTX_TARGET = lazy_compile(r"^\.target\s+sm_(\d+)a?\b", re.MULTILINE)


# The shared memory one block may use (bytes; Triton asks the device for its opt-in maximum, CUDA's
# cudaDevAttrMaxSharedMemoryPerBlockOptin, HIP's hipDeviceAttributeMaxSharedMemoryPerBlock), per target, from
# the vendors' per-architecture tables: NVIDIA's "Technical Specifications per Compute Capability" (every GPU
# of a compute capability has the same), AMD's LDS per workgroup. A target not here has no known limit.
SHARED_LIMITS = {
    ("cuda", "70"): 96 << 10, ("cuda", "72"): 96 << 10, ("cuda", "75"): 64 << 10,
    ("cuda", "80"): 163 << 10, ("cuda", "86"): 99 << 10, ("cuda", "87"): 163 << 10, ("cuda", "89"): 99 << 10,
    ("cuda", "90"): 227 << 10, ("cuda", "100"): 227 << 10, ("cuda", "103"): 227 << 10,
    ("cuda", "120"): 99 << 10, ("cuda", "121"): 99 << 10,
    ("hip", "gfx90a"): 64 << 10, ("hip", "gfx942"): 64 << 10, ("hip", "gfx950"): 160 << 10,
}


MAX_THREADS_PER_BLOCK = 1024


# RDNA (gfx10, gfx11, gfx12 up to gfx1201): a workgroup addresses 64 KiB of LDS, as on CDNA up to gfx942
_RDNA = lazy_compile(r"gfx1(?:0\d|1\d|20)[\da-f]")


def shared_limit(target: Target | None) -> int | None:
    """The per-block shared memory limit of a target (`SHARED_LIMITS`; RDNA's 64 KiB), None where not known."""
    if target is None:
        return None
    arch = target.arch.lower()
    if target.backend == "hip" and _RDNA.fullmatch(arch):
        return 64 << 10
    return SHARED_LIMITS.get((target.backend, arch))


def is_gluon_source(path: str | os.PathLike) -> bool:
    """Whether a `.source` stage is a Gluon kernel's (its module already has TTGIR attributes: 3.4 to 3.8,
    before the `.glir` stage told)."""
    head = _head(path, _SOURCE_HEAD_BYTES)
    return head is not None and _GLUON_MODULE_ATTR.search(head) is not None


def _head(path: str | os.PathLike | None, size: int) -> bytes | None:
    """The first `size` bytes of a file, None where there is none or it cannot be read."""
    if path is None:
        return None
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError:
        return None


def release_text(version: str | None, inferred: str | None, missing: str) -> str:
    """A release as listings print it: `3.6.0` as the metadata names it, `2.2?` as its fields show it."""
    return version or (f"{inferred}?" if inferred else missing)


def format_size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit}"
    return f"{n} bytes"


def default_cache_dir(env: dict[str, str] | None = None) -> Path:
    """Triton's own rule: TRITON_CACHE_DIR, else TRITON_HOME/.triton/cache, else ~/.triton/cache."""
    env = os.environ if env is None else env
    if env.get("TRITON_CACHE_DIR"):
        return Path(env["TRITON_CACHE_DIR"]).expanduser()
    home = env.get("TRITON_HOME") or os.path.expanduser("~")
    return Path(home) / ".triton" / "cache"


def default_inductor_dir(env: dict[str, str] | None = None) -> Path:
    """Where torch puts Inductor's cache: $TORCHINDUCTOR_CACHE_DIR, else <tmp>/torchinductor_<user>
    (torch._inductor.runtime.cache_dir_utils.default_cache_dir, user name sanitized the same way)."""
    env = os.environ if env is None else env
    if env.get("TORCHINDUCTOR_CACHE_DIR"):
        return Path(env["TORCHINDUCTOR_CACHE_DIR"])
    import getpass
    import tempfile

    try:
        user = getpass.getuser()
    except (KeyError, ModuleNotFoundError, OSError):  # no user name (no passwd entry): as torch falls back
        getuid = getattr(os, "getuid", None)
        user = f"uid_{getuid()}" if callable(getuid) else "unknown_user"
    return Path(tempfile.gettempdir()) / ("torchinductor_" + re.sub(r'[\\/:*?"<>|]', "_", user))


def default_compiler_caches(env: dict[str, str] | None = None) -> list[Path]:
    """The caches compilers write by default, which inspection never writes into: Triton's and Inductor's
    (torch.compile's Triton caches are under the latter)."""
    return [default_cache_dir(env), default_inductor_dir(env)]


def _no_number(constant: str) -> None:
    """JSON's non-standard NaN, Infinity and -Infinity in a metadata file: no value. Triton writes none; echoed,
    they would make every JSON the tool writes of it invalid."""
    return None


def _read_metadata(path: str | os.PathLike) -> tuple[dict | None, str | None]:
    try:
        raw = read_at_most(path, MAX_METADATA_BYTES)
        if raw is None:
            return None, f"{os.path.basename(path)}: larger than {format_size(MAX_METADATA_BYTES)}, not Triton metadata"
        data = json.loads(raw, parse_constant=_no_number)  # (NaN/Infinity: no value, never echoed as such)
    except RecursionError:  # (arrays nested thousands deep: no metadata)
        return None, f"{os.path.basename(path)}: nested too deep, not Triton metadata"
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e).split("\n")[0]
        return None, f"{os.path.basename(path)}: {reason}"
    if not isinstance(data, dict):
        return None, f"{os.path.basename(path)}: not a json object"
    return data, None


def load_entry(path: Path, cache_root: Path | None = None) -> KernelEntry:
    """Classify one directory from its file names, and read its metadata json if it has one.

    Names only (no stat per file): `ls` over ten thousand entries costs about one json.load each.
    The entry's time is its directory's mtime, which Triton bumps as it renames each file into place.
    """
    files: dict[str, str] = {}
    other: list[str] = []
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
    suffix_to_stage = _SUFFIX_TO_STAGE
    seconds: list[tuple[str, str, str]] = []  # (stage, name, path) of a stage's further files
    with it:
        for de in it:
            name = de.name
            dot = name.rfind(".")
            stage = suffix_to_stage.get(name[dot:]) if dot > 0 else None
            if stage is None or name.startswith("__grp__"):
                if name.startswith("__grp__"):
                    grp_stem = name[7:dot] if dot > 7 else name[7:]
                other.append(name)  # unknown, or a group file: noted, not used
                continue
            try:
                if not de.is_file(follow_symlinks=False):  # d_type: no syscall on Linux
                    other.append(name)
                    continue
            except OSError:
                continue
            if stage in files:
                seconds.append((stage, name, de.path))
                continue
            files[stage] = de.path
            stems[stage] = name[:dot]
    if seconds:  # two files of one stage (a second kernel's): the one named as the entry's kernel, whatever
        _choose_stage_files(files, stems, seconds, other)  # order the directory lists them in
    meta = err = None
    if "json" in files:
        meta, err = _read_metadata(files["json"])
    name = None
    if meta and isinstance(meta.get("name"), str) and len(meta["name"]) <= MAX_NAME:
        name = meta["name"]
    else:  # (a name of megabytes is no kernel's: every listing and message would repeat it)
        for s in ("json", "ttir", "ttgir", "llir", "ptx", "amdgcn", "cubin", "hsaco", "source", "glir"):
            if s in stems:
                name = stems[s]
                break
        name = name or grp_stem
    if files:
        if "json" not in files or (meta is None and err) or not (set(files) - {"json"}):
            kind = "partial"
        elif not (_TEXT_STAGES & set(files)) and (set(BINARY_STAGES) & set(files)):
            kind = "binary-only"
        else:
            kind = "kernel"
    elif any(o.endswith(LAUNCHER_SUFFIXES) for o in other):
        kind = "launcher"
        name = next(o for o in other if o.endswith(LAUNCHER_SUFFIXES)).rsplit(".", 1)[0]
    else:
        kind = "empty"
    if path.name.startswith("tmp."):
        kind = "tmp"
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        mtime = 0.0
    return KernelEntry(path=path, kind=kind, file_paths=files, other_files=other, metadata=meta,
                       metadata_error=err, mangled_name=name, mtime=mtime, cache_root=cache_root)


# The longest kernel name read from metadata (Inductor's fused names run to a few hundred characters).
MAX_NAME = 4096


def _choose_stage_files(files: dict[str, str], stems: dict[str, str], seconds: list[tuple[str, str, str]],
                        other: list[str]) -> None:
    """For each stage with several files: the metadata's (the first name of the .json files), then, for every
    other stage, the file with the metadata file's stem, else the first name; the rest noted, not used."""
    by_stage: dict[str, list[tuple[str, str]]] = {}
    for stage, name, path in seconds:
        by_stage.setdefault(stage, []).append((name, path))
    for stage, path in files.items():
        if stage in by_stage:
            by_stage[stage].append((os.path.basename(path), path))
    if "json" in by_stage:
        name, files["json"] = min(by_stage["json"])
        stems["json"] = name[:name.rfind(".")]
    kernel = stems.get("json")
    for stage, found in by_stage.items():
        found.sort()
        if stage != "json":
            name, files[stage] = next((f for f in found if f[0][:f[0].rfind(".")] == kernel), found[0])
            stems[stage] = name[:name.rfind(".")]
        other.extend(n for n, p in found if p != files[stage])


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
    entry = KernelEntry(path=path, kind="file", file_paths={stage: str(path)}, mangled_name=path.stem,
                        mtime=st.st_mtime)
    if stage == "json":
        entry.metadata, entry.metadata_error = _read_metadata(path)
    else:
        sibling = path.with_suffix(".json")
        if sibling.is_file():
            entry.metadata, entry.metadata_error = _read_metadata(sibling)
    return entry


def _looks_like_entry(path: str | Path) -> bool:
    """Cheap test on names only: the directory holds a stage file or a launcher module."""
    try:
        with os.scandir(path) as it:
            for de in it:
                n = de.name
                dot = n.rfind(".")
                if dot > 0 and (n[dot:] in _SUFFIX_TO_STAGE or n[dot:] in LAUNCHER_SUFFIXES):
                    return de.is_file(follow_symlinks=False) or _looks_like_entry_slow(path)
    except OSError:
        return False
    return False


# The names Triton gives cache entries: base32 of a sha256 (3.3 on), its urlsafe base64 (3.1, 3.2), its hex
# (3.0), an md5's hex (2.x).
_ENTRY_NAME = re.compile(r"^(?:[A-Z2-7]{52}|[A-Za-z0-9_-]{43}|[0-9a-f]{64}|[0-9a-f]{32})$")


def is_cache_entry_dir(path: str | Path) -> bool:
    """A directory named as Triton names cache entries that holds a stage file or a launcher: a Triton
    cache's entry, with or without its metadata json (an interrupted compile, a binary alone)."""
    return bool(_ENTRY_NAME.match(os.path.basename(os.path.normpath(str(path))))) and _looks_like_entry(path)


def enclosing_compiler_cache(path: str | Path) -> Path | None:
    """The Triton cache a path would land in, judged by the folders it lies in: a cache entry's parent when
    the path is in an entry (a few levels down at most). None: in no entry. (A folder holding entries is
    told by cache_entry_in: a cache to write no output into, but one `compile` may be asked to fill.)"""
    folder = Path(os.path.abspath(path))
    for d in [folder, *folder.parents][:4]:
        if is_cache_entry_dir(d):
            return d.parent
    return None


# What TorchInductor writes in its cache, named by a content hash: kernel and wrapper sources, their builds,
# debug folders and locks (`c<hash>.py`, `.cpp`, `.so`, `.main.cpp`, `.debug`, `.lock`: torch 2.1 to 2.13), FX
# graph entries (`fxgraph/<2>/f<hash>`) and AOTAutograd ones (`aotautograd/a<hash>`)
_INDUCTOR_ARTIFACT = lazy_compile(r"c[a-z0-9]{50,}(?:\.main)?\.(?:py|cpp|h|so|o|debug|lock|json|cubin|hsaco)")
_INDUCTOR_ENTRY = {"fxgraph": lazy_compile(r"f[a-z0-9]{50,}"), "aotautograd": lazy_compile(r"a[a-z0-9]{50,}")}


def _scan(folder: Path) -> list[tuple[str, bool]]:
    try:
        with os.scandir(folder) as it:
            return [(de.name, de.is_dir(follow_symlinks=False)) for de in it]
    except OSError:
        return []


def enclosing_inductor_cache(folder: str | Path) -> str | None:
    """The TorchInductor cache a folder is (or lies in, a few levels down at most), told by what it holds
    rather than by where torch would put it: a folder holding Inductor's hash-named files (its two-letter
    folders, `locks/`) lies in one; one holding such a folder, or `fxgraph/` or `aotautograd/` with their
    hash-named entries, is one. (An empty `fxgraph/`, or a project's two-letter folders, make none.) None:
    none."""
    start = Path(os.path.abspath(folder))
    for d in [start, *start.parents][:4]:
        names = _scan(d)
        if any(not is_dir or name.endswith(".debug") for name, is_dir in names
               if _INDUCTOR_ARTIFACT.fullmatch(name)):
            return str(d.parent if len(d.name) == 2 or d.name == "locks" else d)
        for name, is_dir in names:
            if not is_dir:
                continue
            if len(name) == 2 and any(_INDUCTOR_ARTIFACT.fullmatch(n) for n, _ in _scan(d / name)):
                return str(d)
            if name in _INDUCTOR_ENTRY and _holds_entries(d / name, _INDUCTOR_ENTRY[name]):
                return str(d)
    return None


def _holds_entries(folder: Path, entry) -> bool:
    """`fxgraph/<2>/f<hash>` or `aotautograd/a<hash>` (one level of two-letter folders or none)."""
    for name, is_dir in _scan(folder):
        if entry.fullmatch(name) or (is_dir and len(name) == 2 and any(entry.fullmatch(n) for n, _ in
                                                                        _scan(folder / name))):
            return True
    return False


def cache_entry_in(folder: str | Path) -> str | None:
    """A Triton cache entry among the folder's own directories, None where there is none: a folder holding
    one is a Triton cache (Triton's own, or a copy of one), whatever else it holds."""
    try:
        with os.scandir(folder) as it:
            return next((de.path for de in it if _ENTRY_NAME.match(de.name) and de.is_dir(follow_symlinks=False)
                         and _looks_like_entry(de.path)), None)
    except OSError:
        return None


def _is_entry_dir(path: str | Path) -> bool:
    """A directory given as the root is one entry: it holds a stage file and no entry directories (a
    `notes.json` or `diff.json` saved at a cache's root, or beside caches, made the whole tree one entry)."""
    return _looks_like_entry(path) and not _is_nested_cache(Path(path), _MAX_NESTING)


def _looks_like_entry_slow(path: str | Path) -> bool:
    try:
        with os.scandir(path) as it:
            return any(de.is_file(follow_symlinks=False) and os.path.splitext(de.name)[1] in
                       set(_SUFFIX_TO_STAGE) | set(LAUNCHER_SUFFIXES) for de in it)
    except OSError:
        return False


class Cache:
    """A cache directory (or a folder of caches, or one entry, or one file), read-only."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        if not os.path.lexists(self.root):
            raise TritonscopeError("no such cache directory", str(self.root))
        self._entries: list[KernelEntry] | None = None
        self.linked: list[str] = []  # entry directories that are symbolic links: not followed
        self.linked_caches: list[str] = []  # caches in a folder of caches that are symbolic links: not followed

    @classmethod
    def discover(cls, cache_dir: str | os.PathLike | None = None) -> Cache:
        return cls(cache_dir if cache_dir else default_cache_dir())

    def entries(self, progress: Callable[[int], None] | None = None) -> list[KernelEntry]:
        """Every entry under the root, loaded (names and metadata; no IR read), in name order.
        `progress(n)` is told every few hundred entries how many are loaded (a large cache takes seconds)."""
        if self._entries is None:
            if self.root.is_file():
                self._entries = [entry_for_file(self.root)]
            elif not self.root.is_dir():
                raise TritonscopeError("not a regular file or directory" if self.root.exists()
                                       else "a symbolic link to nothing", str(self.root))
            elif _is_entry_dir(self.root):
                self._entries = [load_entry(self.root, self.root.parent)]
            else:
                out: list[KernelEntry] = []
                with gc_paused():
                    self._walk(self.root, 0, out, progress)
                self._entries = out
        return self._entries

    def entry_dirs(self) -> list[tuple[Path, Path | None]]:
        """(entry directory, the cache it belongs to) for every entry under the root."""
        return [(e.path, e.cache_root) for e in self.entries()]

    def _walk(self, cache: Path, depth: int, out: list[KernelEntry],
              progress: Callable[[int], None] | None = None) -> None:
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
                try:
                    if de.is_symlink() and de.is_dir() and _ENTRY_NAME.match(de.name):
                        self.linked.append(de.path)  # an entry's name, but a link: not followed, and said
                    elif de.is_symlink() and de.is_dir() and depth < _MAX_NESTING and cache_entry_in(de.path):
                        self.linked_caches.append(de.path)  # a cache beside others, linked: said too
                except OSError:
                    pass
                continue
            p = Path(de.path)
            entry = load_entry(p, cache)  # one scandir per entry: it both classifies and loads
            if progress is not None and len(out) % 256 == 0:
                progress(len(out))
            if isinstance(entry.metadata, dict) and entry.metadata.get("format") == "tritonscope-snapshot":
                continue  # (a snapshot written beside the entries: its snapshot.json is no kernel's metadata)
            if entry.kind != "empty" or not entry.other_files:
                out.append(entry)
            elif not _has_subdirs(p):
                out.append(entry)  # files of no known kind only: listed as an empty entry
            elif depth < _MAX_NESTING and _is_nested_cache(p, _MAX_NESTING - depth):
                self._walk(p, depth + 1, out, progress)
            # else: a folder beside the cache (sources, logs): not part of it

    def kernels(self, include_all: bool = False) -> list[KernelEntry]:
        """Kernel entries (complete, partial, binary-only); with include_all also launchers/empty/tmp."""
        return [e for e in self.entries() if include_all or e.is_kernel]

    def unreadable(self) -> list[KernelEntry]:
        """Entry directories this user may not list (permission denied): no kernel is known to be there or
        not, so a command leaving them out says so."""
        return [e for e in self.entries() if e.kind == "empty" and e.metadata_error == "permission denied"]


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
    """Entries matching a name, glob, hash prefix, or entry path, else the name of their files; then a
    target filter."""
    out = entries
    if target:  # (first: a name another target's entry has must not hide the file names of this target's)
        out = [e for e in out if e.target is not None and e.target.matches(target)]
    if spec:
        exact = [e for e in out if e.name == spec] if any(c in spec for c in "*?[") else []
        if exact:  # (a name holding glob characters, `perm[red]X`, is that name before it is a pattern)
            out = exact
        elif any(c in spec for c in "*?["):
            out = [e for e in out if fnmatch.fnmatchcase(e.name, spec) or fnmatch.fnmatchcase(e.hash, spec)]
        else:
            by_name = [e for e in out if e.name == spec or e.mangled_name == spec]
            if by_name:
                out = by_name
            else:
                low = spec.lower()
                found = [e for e in out if e.hash.lower().startswith(low) or str(e.path) == spec]
                # else the name its files go by, where the metadata names the kernel otherwise (triton_kernels'
                # `_matmul.ttgir` of `_matmul_NNT_bf16xbf16xmxfp4_16x256x128x1`)
                out = found or [e for e in out if any(os.path.basename(p).rsplit(".", 1)[0] == spec
                                                      for p in e.file_paths.values())]
    return out


_CANDIDATES_SHOWN = 8


def resolve_one(cache: Cache, spec: str | None, target: str | None = None) -> KernelEntry:
    """The one kernel entry a command works on; an error that lists candidates when ambiguous."""
    if spec and os.path.exists(spec) and (os.path.isfile(spec) or _is_entry_dir(Path(spec))):
        p = Path(spec)
        return entry_for_file(p) if p.is_file() else load_entry(p, p.parent)
    if cache.root.is_file():
        return entry_for_file(cache.root)
    kernels = cache.kernels()
    found = select(kernels, spec, target)
    if not found and not spec and cache.root.is_dir() and _is_entry_dir(cache.root):
        # the directory named is one entry, and not a kernel's: say what it holds instead
        held = {"launcher": "Triton's compiled launcher only, no kernel stages",
                "tmp": "an unfinished compile's files only"}.get(cache.entries()[0].kind, "no kernel stages")
        raise TritonscopeError(f"this cache entry holds {held}", str(cache.root))
    if not found:
        what = f"'{spec}'" if spec else "any kernel"
        t = f" for target {target}" if target else ""
        denied = [e for e in cache.unreadable() if spec and e.hash.lower().startswith(spec.lower())]
        if denied:
            raise TritonscopeError("permission denied (the entry directory cannot be listed)", str(denied[0].path))
        names = sorted({e.name for e in kernels})
        hint = f" (kernels here: {', '.join(names[:8])}{', ...' if len(names) > 8 else ''})" if names else ""
        raise TritonscopeError(f"nothing matches {what}{t}{hint}", str(cache.root))
    if len(found) > 1:
        # one line, as every error: the newest candidates first, each as its hash prefix narrows to it
        found.sort(key=lambda e: -e.mtime)
        apart = _what_sets_apart(found[:_CANDIDATES_SHOWN])
        shown = ", ".join(f"{e.hash[:12]} {e.name} {e.target or '?'}" + apart.get(id(e), "")
                          + ("" if e.kind == "kernel" else f" ({e.kind})") for e in found[:_CANDIDATES_SHOWN])
        more = f", and {len(found) - _CANDIDATES_SHOWN} more" if len(found) > _CANDIDATES_SHOWN else ""
        how = "narrow with a hash prefix or --target"
        if len({e.hash for e in found}) < len(found):
            # (one entry copied into several caches of a folder: no prefix or target tells them apart)
            how = f"give one entry's directory as KERNEL ({found[0].path}, ...)"
        raise AmbiguousKernel(
            f"{len(found)} entries match '{spec or '*'}' (newest first: {shown}{more}); {how}", str(cache.root))
    return found[0]


def _what_sets_apart(entries: list[KernelEntry]) -> dict[int, str]:
    """For entries of one name and target (an autotuner's configs): the launch fields in which they differ,
    ` (8 warps, 3 stages)`, by id(entry); nothing where they differ only in what no metadata records."""
    groups: dict[tuple, list[KernelEntry]] = {}
    for e in entries:
        groups.setdefault((e.name, str(e.target)), []).append(e)
    out: dict[int, str] = {}
    fields = (("num_warps", "warps"), ("num_stages", "stages"), ("num_ctas", "CTAs"), ("shared", "B shared"))
    for group in groups.values():
        # (a field some entry lacks or holds damaged says nothing about how they differ: not shown)
        differ = [(key, word) for key, word in fields if None not in (seen := {e.meta_int(key) for e in group})
                  and len(seen) > 1]
        for e in group if len(group) > 1 and differ else ():
            out[id(e)] = f" ({', '.join(f'{e.meta_int(key)} {word}' for key, word in differ)})"
    return out


class AmbiguousKernel(UsageError):
    """Several entries match and the command takes one."""
