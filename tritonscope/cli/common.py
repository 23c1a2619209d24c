"""Options and helpers shared by the commands: kernel selection, output format."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click

from tritonscope.artifacts.cache import (
    DEFAULT_MAX_STAGE_BYTES,
    TARGET_FORMS,
    Cache,
    KernelEntry,
    parse_target_spec,
    resolve_one,
    select,
)
from tritonscope.errors import TritonscopeError, UsageError

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Selection:
    """What every command that reads entries was asked to read, from one option set (`selection_options`):
    which kernels, in which cache, for which target, where their sources are, and how large a stage may be."""

    kernels: tuple[str, ...] = ()
    cache_dir: str | None = None
    target: str | None = None  # canonical: cuda, hip, cuda:90, hip:gfx942
    substitutions: tuple[tuple[str, str], ...] = ()
    source_roots: tuple[str, ...] = ()
    max_stage_bytes: int | None = DEFAULT_MAX_STAGE_BYTES
    inductor_dirs: tuple[str, ...] = ()

    @property
    def kernel(self) -> str | None:
        return self.kernels[0] if self.kernels else None

    @property
    def search_roots(self) -> tuple[str, ...]:
        """Where kernel sources are looked for: --source-root, then each --inductor-dir (which holds the
        kernel sources too, xx/c<hash>.py, as --source-root finds them)."""
        return self.source_roots + self.inductor_dirs

    def finder(self):
        from tritonscope.srcmap.paths import SourceFinder

        return SourceFinder(self.search_roots, self.substitutions, kept=self.kept_source)

    def kept_source(self, requested: str) -> tuple[str, str] | None:
        """A torch.compile kernel's source not on this machine, as Inductor's records hold it (a wrapper
        read from --inductor-dir or a torch trace); asked only of files not found, named as Inductor names
        kernel files."""
        from tritonscope.srcmap.paths import INDUCTOR_KERNEL_FILE

        if not INDUCTOR_KERNEL_FILE.fullmatch(os.path.basename(requested)):
            return None
        return self.inductor().kernel_source(requested)

    def inductor(self):
        """TorchInductor's records for the kernels torch.compile wrote (--inductor-dir, else torch's
        default dir); read once per command."""
        from tritonscope.srcmap.inductor import InductorIndex

        ctx = click.get_current_context(silent=True)
        memo = ctx.meta.setdefault("tritonscope.inductor", {}) if ctx is not None else {}
        if self.inductor_dirs not in memo:
            memo[self.inductor_dirs] = InductorIndex.load(self.inductor_dirs)
        return memo[self.inductor_dirs]

    def inductor_links(self, entries: list[KernelEntry], asked: bool = False) -> list:
        """Each entry's link to TorchInductor's records (srcmap.inductor.Link; None: not a torch.compile
        kernel); what could not be read becomes a note on stderr, and, when provenance was asked for
        (`asked`, or --inductor-dir), kernels left without records too."""
        from tritonscope.cli.outcome import outcome
        from tritonscope.srcmap.inductor import link_notes

        if not self.inductor_dirs and not any(e.name.startswith("triton") for e in entries):
            # none named as Inductor names kernels: the default Inductor dir (thousands of files on a busy
            # machine) is not walked; a user kernel called inside a compiled graph links with --inductor-dir
            return [None] * len(entries)
        index = self.inductor()
        links = [index.link(e) if e.is_kernel else None for e in entries]
        for text in link_notes(index, links, asked=asked or bool(self.inductor_dirs)):
            outcome().note(text)
        return links

    def inductor_link(self, entry: KernelEntry) -> dict | None:
        """The entry's provenance in TorchInductor's records as JSON (None: not a torch.compile kernel)."""
        link = self.inductor_links([entry])[0]
        return link.to_json() if link is not None else None

    def provenance_cache(self) -> Cache:
        """The cache of a torch.compile question (`ls --inductor`, `map --model-line`): --cache-dir, else
        where torch.compile had Triton write (`<Inductor dir>/triton/<device>` unless TRITON_CACHE_DIR
        is set), else the default Triton cache."""
        if self.cache_dir is None:
            from tritonscope.srcmap.inductor import torch_triton_caches

            found = torch_triton_caches(self.inductor_dirs)
            if found is not None:
                return replace(self, cache_dir=str(found)).cache()
        return self.cache()

    def cache(self) -> Cache:
        """The cache, walked (with a count on a terminal: 20,000 entries take seconds)."""
        from tritonscope.status import counting_status

        cache = Cache.discover(self.cache_dir)
        if cache.root.is_dir():
            with counting_status(f"reading {cache.root}") as progress:
                cache.entries(progress)
            from tritonscope.cli.outcome import outcome

            # what the walk left out, each kind in one note: the first path and how many more
            for paths, why in (
                    ([str(e.path) for e in cache.unreadable()],
                     "permission denied: an entry directory this user cannot list, left out"),
                    (cache.linked_caches, "a cache that is a symbolic link, not followed (a cache's links may lead "
                                          "anywhere): give it as --cache-dir to read it"),
                    (cache.linked, "an entry directory that is a symbolic link, not followed (a cache's links may "
                                   "lead anywhere): give it as KERNEL to read it")):
                if paths:
                    outcome().note(paths[0] + (f" and {len(paths) - 1} more" if len(paths) > 1 else "") + f": {why}")
        return cache

    def one(self, spec: str | None = None) -> KernelEntry:
        """The one entry a single-kernel command works on (KERNEL may also be an entry dir or a file)."""
        spec = self.kernel if spec is None else spec
        if spec and self.cache_dir is None and os.path.exists(spec):
            entry = resolve_one(Cache(Path(spec)), None, self.target)
        else:
            entry = resolve_one(self.cache(), spec, self.target)
        entry.max_stage_bytes = self.max_stage_bytes
        from tritonscope.cli.outcome import outcome

        for line in entry.damage(empty_stages=True):  # (said after the command's output, as every note)
            outcome().note(line)
        return entry

    def read_roots(self, entries: list[KernelEntry] = ()) -> list[str]:
        """The caches and entries this command reads: --inductor-dir, --cache-dir (else each directory or file
        given as KERNEL) and the entries read."""
        roots = list(self.inductor_dirs)
        roots += [self.cache_dir] if self.cache_dir is not None else [k for k in self.kernels if os.path.exists(k)]
        return roots + [str(e.path) for e in entries if e.kind != "file"]

    def refuse_output_inside_caches(self, path: str, option: str, entries: list[KernelEntry] = ()) -> None:
        """Inspection never writes into a Triton or Inductor cache: an output (`option` PATH) inside the cache
        read (--cache-dir, a cache or entry given as KERNEL, an entry read), Triton's or Inductor's default
        cache or an --inductor-dir is a usage error, before any work."""
        from tritonscope.artifacts.cache import (
            cache_entry_in,
            default_compiler_caches,
            enclosing_compiler_cache,
            enclosing_inductor_cache,
        )
        from tritonscope.artifacts.own_cache import within
        from tritonscope.errors import UsageError

        read = self.read_roots(entries)
        # an entry (or a file of one) given to read lies in a cache: its folder is that cache, outputs beside
        # the entries included
        read += [str(c) for c in map(enclosing_compiler_cache, read) if c is not None]
        for root in [*map(str, default_compiler_caches()), *read]:
            if within(path, root):
                raise UsageError(f"{option} {path} is inside {root}, a Triton or Inductor cache (or an entry of one): "
                                 "inspection never writes there; give a path outside it")
        # any other Triton cache, told by its entries' names and what they hold: the path's folder (its links
        # resolved: a link to an entry is that entry) in an entry, or holding entries
        folder = os.path.realpath(os.path.dirname(os.path.abspath(path)) or ".")
        other = enclosing_compiler_cache(folder)
        if other is not None:
            raise UsageError(f"{option} {path} is inside {other}, a Triton cache (the path is in one of its entries): "
                             "inspection never writes there; give a path outside it")
        entry = cache_entry_in(folder)
        if entry is not None:
            raise UsageError(f"{option} {path} is in {folder}, which holds a Triton cache entry "
                             f"({os.path.basename(entry)}): a Triton cache, or a copy of one; inspection never writes "
                             "there: give a path in a folder that holds no entry")
        # and TorchInductor's, named or not: told by its files (`c<hash>.py`) and folders
        inductor = enclosing_inductor_cache(folder)
        if inductor is not None:
            raise UsageError(f"{option} {path} is inside {inductor}, a TorchInductor cache (it holds Inductor's "
                             "hash-named files or its graph caches): inspection never writes there; give a path "
                             "outside it")

    def many(self, include_all: bool = False) -> list[KernelEntry]:
        """Every entry matching any KERNEL spec (all when none is given) and --target."""
        if self.cache_dir is None and self.kernels and all(os.path.exists(k) for k in self.kernels):
            # entry directories, artifact files or caches named as KERNEL, as single-kernel commands take them
            found = [e for k in self.kernels for e in select(Cache(Path(k)).kernels(include_all), None, self.target)]
            for e in found:
                e.max_stage_bytes = self.max_stage_bytes
            return found
        cache = self.cache()
        entries = cache.kernels(include_all)
        if not self.kernels:
            found = select(entries, None, self.target)
        else:
            seen: dict[str, KernelEntry] = {}
            for spec in self.kernels:
                matched = select(entries, spec, self.target)
                if not matched:
                    raise TritonscopeError(
                        f"nothing matches '{spec}'" + (f" for target {self.target}" if self.target else ""),
                        str(cache.root))
                for e in matched:
                    seen.setdefault(str(e.path), e)
            found = list(seen.values())
        for e in found:
            e.max_stage_bytes = self.max_stage_bytes
        return found


def parse_size(text: str) -> int | None:
    """`256M`, `1G`, `512K`, `1000000` (bytes); `0` or `none`: no limit."""
    t = text.strip().lower().removesuffix("b").removesuffix("i")
    if t in ("0", "none", "unlimited"):
        return None
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}.get(t[-1:], 1)
    digits = t[:-1] if t[-1:] in "kmgt" else t
    try:
        value = float(digits)
    except ValueError:
        raise UsageError(f"--max-stage-size: not a size '{text}' (e.g. 256M, 2G, or none)") from None
    if value < 0 or value != value or value > 1 << 60:
        raise UsageError(f"--max-stage-size: not a size '{text}' (e.g. 256M, 2G, or none)")
    if int(value * mult) < 1:  # (`0.5`: a limit no file is under, not "no limit" as 0 is)
        raise UsageError(f"--max-stage-size: '{text}' is less than a byte (0 or none: no limit)")
    return int(value * mult)


_SELECTION_PARAMS = ("kernels", "cache_dir", "target", "substitutions", "source_roots", "max_stage_bytes",
                     "inductor_dirs")


def _target_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return parse_target_spec(value)
    except UsageError as exc:
        raise UsageError(f"--target: {exc.message}") from None


def _size_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    return DEFAULT_MAX_STAGE_BYTES if value is None else parse_size(value)


def selection_options(kernel: str = "argument", metavar: str = "KERNEL") -> Callable:
    """The one kernel-selection and source option set of every command that reads entries, passed to the
    command as `sel: Selection`. `kernel` says how kernels are named: "argument" (one optional KERNEL),
    "arguments" (KERNEL...), "option" (`--kernel/-k`, for commands whose arguments are other things)."""

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            values = {k: kwargs.pop(k) for k in _SELECTION_PARAMS}
            raw = values.pop("kernels")
            kernels = tuple(raw) if isinstance(raw, (tuple, list)) else ((raw,) if raw else ())
            return f(*args, sel=Selection(kernels=kernels, substitutions=tuple(values.pop("substitutions")),
                                          source_roots=tuple(values.pop("source_roots")),
                                          inductor_dirs=tuple(values.pop("inductor_dirs")), **values), **kwargs)

        opts = [
            click.option("--cache-dir", "cache_dir", type=click.Path(), default=None,
                         help="Cache to read (default: $TRITON_CACHE_DIR, $TRITON_HOME/.triton/cache, "
                         "~/.triton/cache). May also be a folder of caches, one entry directory, or one "
                         "artifact file."),
            click.option("--target", "target", default=None, metavar="T", callback=_target_callback,
                         help=f"Only entries for this target: {TARGET_FORMS}."),
            click.option("--substitute-path", "substitutions", nargs=2, multiple=True, metavar="OLD NEW",
                         help="Read sources named under OLD from NEW instead (repeatable, like gdb)."),
            click.option("--source-root", "source_roots", multiple=True, type=click.Path(file_okay=False),
                         metavar="DIR", help="Look for the kernel's Python sources under DIR (repeatable)."),
            click.option("--inductor-dir", "inductor_dirs", multiple=True, type=click.Path(), metavar="DIR",
                         help="TorchInductor's cache or debug dir, or a torch trace (TORCH_TRACE's dir or log), "
                         "for the provenance of torch.compile kernels (repeatable; default: "
                         "$TORCHINDUCTOR_CACHE_DIR, else <tmp>/torchinductor_<user>, and $TORCH_TRACE)."),
            click.option("--max-stage-size", "max_stage_bytes", default=None, metavar="SIZE",
                         envvar="TRITONSCOPE_MAX_STAGE_SIZE", callback=_size_callback,
                         help="Refuse stage files larger than SIZE (default 256M; 'none' or 0: no limit)."),
        ]
        if kernel == "argument":
            opts.insert(0, click.argument("kernels", required=False, metavar=f"[{metavar}]"))
        elif kernel == "arguments":
            opts.insert(0, click.argument("kernels", nargs=-1, metavar=f"[{metavar}]..."))
        else:
            opts.insert(0, click.option("--kernel", "-k", "kernels", default=None, metavar="NAME",
                                        help="Only kernels matching NAME (name, glob or hash prefix)."))
        for opt in reversed(opts):
            wrapper = opt(wrapper)
        return wrapper

    return decorate


def json_option(f: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/json.md).")(f)


def emit_json(payload: Any, kind: str) -> None:
    """Every JSON output is an object with `schema` and `kind`, so consumers can check the contract.

    Written indented to two levels (each top-level field on its line, each element of a top-level list or
    object on its own line), everything deeper on that line: json's indenting encoder is pure Python and
    cost more than the work on large outputs (`ls --json` of a large cache, `map --line` of a large
    kernel); the C encoder writes the rest."""
    doc = {"schema": SCHEMA_VERSION, "kind": kind}
    if isinstance(payload, dict):
        doc.update(payload)
    else:
        doc["items"] = payload
    sys.stdout.write(dumps_shallow(doc) + "\n")


def dumps_shallow(value: Any, levels: int = 2, indent: int = 0) -> str:
    """JSON of `value`, indented for its first `levels` levels of containers and compact below."""
    if levels == 0 or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, default=str)
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(str(k))}: {dumps_shallow(v, levels - 1, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dumps_shallow(v, levels - 1, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def pass_console(f: Callable) -> Callable:
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        from tritonscope.render.terminal import make_console

        return f(*args, console=make_console(), **kwargs)

    return wrapper


def write_atomically(path: str, data: str | bytes) -> None:
    """Write beside the destination and rename: an interrupted or failed write leaves neither a partial
    file nor a temporary file behind, and a link at the destination is replaced, never written through
    (an output path anyone could have planted a link at: /tmp), and a file replaced keeps its permissions. A
    device or pipe there is written into."""
    import stat
    import tempfile

    if isinstance(data, str):  # a path of undecodable bytes (surrogate escapes) is written as its \\x escapes
        data = data.encode("utf-8", "backslashreplace")
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode) or stat.S_ISDIR(mode)):
        # a device or a pipe (`-o /dev/null`, a FIFO a reader waits on): written into, as any tool does,
        # never replaced by a file (as root, a rename over /dev/null would replace the device)
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:  # (a full device fails on the flush, naming no file: name the one asked for)
            raise OSError(exc.errno, exc.strerror, path) from None
        return
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tritonscope-", suffix=".tmp", dir=folder)
    except OSError as exc:  # (named after the file asked for, not the temporary one beside it)
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        if mode is not None and stat.S_ISREG(mode):
            os.fchmod(fd, mode & 0o777)  # a file written again keeps its permissions (a private report stays so)
        else:
            mask = os.umask(0o022)
            os.umask(mask)
            os.fchmod(fd, 0o666 & ~mask)  # (the mode open() would give it; mkstemp's is 0600)
        with os.fdopen(fd, mode="wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
