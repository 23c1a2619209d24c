"""Synthesize large caches by copying real corpus entries under new hash names (for benchmarks)."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
from pathlib import Path


def corpus_entries(corpus: Path) -> list[Path]:
    out = []
    for cache in ("triton-3.2.0", "triton-3.9.0", "inductor-h200-triton3.6/triton_cache"):
        root = corpus / cache
        if root.is_dir():
            out.extend(sorted(p for p in root.iterdir() if p.is_dir() and any(p.glob("*.json"))))
    return out


def synth_cache(corpus: Path, dst: Path, n: int, seed: str = "a") -> Path:
    """A cache of `n` entries cycling through the corpus entries, named like Triton 3.3+ (base32 sha256)."""
    src = corpus_entries(corpus)
    if not src:
        raise SystemExit(f"no corpus entries under {corpus}")
    dst.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        digest = hashlib.sha256(f"{seed}{i}".encode()).digest()
        name = base64.b32encode(digest).decode().rstrip("=")
        target = dst / name
        if not target.exists():
            shutil.copytree(src[i % len(src)], target, copy_function=_link_or_copy)
    return dst


def _link_or_copy(s: str, d: str) -> None:
    # Hard links keep a 10,000-entry cache cheap on disk; the files read the same.
    try:
        os.link(s, d)
    except OSError:
        shutil.copy2(s, d)
