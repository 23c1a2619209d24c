"""Which tritonscope build computes records (snapshot markers name it, diffs compare it, the records cache
keys by it)."""

from __future__ import annotations

import functools
from pathlib import Path


def tool_build() -> dict:
    """Which tritonscope computes records: its version and a digest of its own source (the version alone
    stays while the analysis changes), so that a diff can say when its two sides came from different
    builds (their metrics may differ for the tool's sake, not the kernels')."""
    return dict(_tool_build())


@functools.cache
def _tool_build() -> dict:  # (the source read and digested once per process: a diff of two caches asks twice)
    from tritonscope import __version__
    from tritonscope.artifacts.own_cache import sha256

    root = Path(__file__).resolve().parent.parent
    digest = sha256()
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] == "sample_kernels":  # (installed there, beside it in a checkout)
            continue
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            continue
    return {"version": __version__, "build": digest.hexdigest()[:12]}
