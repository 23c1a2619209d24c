"""Options and helpers shared by the commands: kernel selection, output format."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any

import click

from tritonscope.cache import Cache, KernelEntry, resolve_one, select

SCHEMA_VERSION = 1


def cache_option(f: Callable) -> Callable:
    return click.option(
        "--cache-dir", "cache_dir", type=click.Path(), default=None,
        help="Cache to read (default: $TRITON_CACHE_DIR, $TRITON_HOME/.triton/cache, ~/.triton/cache). "
        "May also be a folder of caches, one entry directory, or one artifact file.")(f)


def target_option(f: Callable) -> Callable:
    return click.option(
        "--target", "target", default=None, metavar="T",
        help="Only entries for this target: cuda, hip, cuda:90, hip:gfx942.")(f)


def kernel_options(f: Callable) -> Callable:
    """KERNEL (name, glob, hash prefix, entry dir or artifact file), --target, --cache-dir."""
    f = target_option(f)
    f = cache_option(f)
    return click.argument("kernel", required=False)(f)


def json_option(f: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON (see docs/json.md).")(f)


def open_cache(cache_dir: str | None) -> Cache:
    return Cache.discover(cache_dir)


def resolve_kernel(kernel: str | None, cache_dir: str | None, target: str | None) -> KernelEntry:
    """The one entry a single-kernel command works on."""
    import os

    if kernel and cache_dir is None and os.path.exists(kernel):
        from pathlib import Path

        p = Path(kernel)
        return resolve_one(Cache(p), None, target)
    return resolve_one(open_cache(cache_dir), kernel, target)


def resolve_many(kernel: str | None, cache_dir: str | None, target: str | None,
                 include_all: bool = False) -> list[KernelEntry]:
    cache = open_cache(cache_dir)
    return select(cache.kernels(include_all), kernel, target)


def emit_json(payload: Any, kind: str) -> None:
    """Every JSON output is an object with `schema` and `kind`, so consumers can check the contract."""
    doc = {"schema": SCHEMA_VERSION, "kind": kind}
    if isinstance(payload, dict):
        doc.update(payload)
    else:
        doc["items"] = payload
    sys.stdout.write(json.dumps(doc, indent=2, sort_keys=False, default=str) + "\n")


def pass_console(f: Callable) -> Callable:
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        from tritonscope.render.terminal import make_console

        return f(*args, console=make_console(), **kwargs)

    return wrapper
