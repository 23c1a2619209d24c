"""Shared fixtures: copies of the real corpus caches (never the originals), CLI runner helpers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# CI clones the repo with shared/ beside it; a developer checkout has it at ../shared as well.
CORPUS_CANDIDATES = [REPO.parent / "shared" / "corpus", REPO / "shared" / "corpus"]
CORPUS = next((p for p in CORPUS_CANDIDATES if p.is_dir()), CORPUS_CANDIDATES[0])

# Fixture modules contributed by feature areas (each file beside this one, loaded if present).
pytest_plugins = [m for m in ("fixtures_compile", "fixtures_fuzz") if (Path(__file__).parent / f"{m}.py").exists()]


@pytest.fixture(scope="session", autouse=True)
def _private_disasm_cache(tmp_path_factory):
    """The tests' disassemblies go to a cache of their own (subprocesses inherit it), never the user's; one
    for every worker of a parallel run (pytest -n: the folder above each worker's own temporary folder), so
    that a cubin is disassembled once in the run, as in a run of one process (the cache is safe under
    concurrent processes: tests/test_disasm_cache.py)."""
    if "TRITONSCOPE_DISASM_CACHE" not in os.environ or os.environ.get("CI"):
        if os.environ.get("PYTEST_XDIST_WORKER"):
            shared = tmp_path_factory.getbasetemp().parent / "disasm-cache"
            shared.mkdir(exist_ok=True)
            os.environ["TRITONSCOPE_DISASM_CACHE"] = str(shared)
        else:
            os.environ["TRITONSCOPE_DISASM_CACHE"] = str(tmp_path_factory.mktemp("disasm-cache"))
    yield


@pytest.fixture(scope="session", autouse=True)
def _no_records_cache():
    """Records are computed afresh in every test (tests patch the analyses in-process, and a record kept by
    one test must not answer another); tests/test_records_cache.py turns the cache on where it is tested.
    TRITONSCOPE_TEST_RECORDS_CACHE=DIR runs the whole suite through a cache there instead."""
    os.environ["TRITONSCOPE_RECORDS_CACHE"] = os.environ.get("TRITONSCOPE_TEST_RECORDS_CACHE") or "off"
    yield


def _copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, symlinks=True)
    for root, dirs, files in os.walk(dst):
        for n in dirs + files:
            p = os.path.join(root, n)
            if not os.path.islink(p):
                os.chmod(p, 0o755 if os.path.isdir(p) else 0o644)
    return dst


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> Path:
    """A private, writable copy of ../shared/corpus (the originals are read-only and shared)."""
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    return _copy_tree(CORPUS, tmp_path_factory.mktemp("corpus") / "corpus")


@pytest.fixture(scope="session")
def cache32(corpus) -> Path:
    return corpus / "triton-3.2.0"


@pytest.fixture(scope="session")
def cache39(corpus) -> Path:
    return corpus / "triton-3.9.0"


@pytest.fixture(scope="session")
def cache23(tmp_path_factory) -> Path:
    """A real Triton 2.3.1 cache (cuda:80 and cuda:90) committed under tests/data (see its README)."""
    return _copy_tree(REPO / "tests" / "data" / "triton-2.3.1" / "cache", tmp_path_factory.mktemp("c23") / "cache")


@pytest.fixture(scope="session")
def releases2_cache(tmp_path_factory) -> Path:
    """Caches of Triton 2.0, 2.1 and 2.2 (one folder each) committed under tests/data (see its README)."""
    return _copy_tree(REPO / "tests" / "data" / "releases-2.0-2.2", tmp_path_factory.mktemp("crel2") / "releases")


@pytest.fixture(scope="session")
def releases_cache(tmp_path_factory) -> Path:
    """Caches of Triton 3.0, 3.1, 3.3 and 3.4 (one folder each) committed under tests/data (see its README)."""
    return _copy_tree(REPO / "tests" / "data" / "releases-3.0-3.4", tmp_path_factory.mktemp("crel") / "releases")


@pytest.fixture(scope="session")
def releases35_cache(tmp_path_factory) -> Path:
    """One aiter kernel as Triton 3.5, 3.7 and 3.8 compile it (one folder each; see its README)."""
    return _copy_tree(REPO / "tests" / "data" / "releases-3.5-3.8", tmp_path_factory.mktemp("crel35") / "releases")


@pytest.fixture(scope="session")
def inductor_cache(corpus) -> Path:
    return corpus / "inductor-h200-triton3.6" / "triton_cache"


@pytest.fixture(scope="session")
def inductor_src(corpus) -> Path:
    return corpus / "inductor-h200-triton3.6" / "inductor_src"


def run_cli(*args: str, env: dict | None = None, input: str | None = None) -> subprocess.CompletedProcess:
    """Run `python -m tritonscope ARGS` in a subprocess (real exit codes, real imports)."""
    full_env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    return subprocess.run([sys.executable, "-m", "tritonscope", *args], capture_output=True, text=True,
                          env=full_env, input=input, timeout=600)


@pytest.fixture
def cli():
    return run_cli
