"""Entry-level hazards made for real (tests/test_cache_hazards.py covers the walk itself): stage files that
are directories, dangling symlinks, sockets, unreadable files, files deleted between listing and reading,
a cache path that is a file. Every command either skips what it cannot read or says so in one line.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading

import pytest
from click.testing import CliRunner

from tritonscope.artifacts.cache import Cache
from tritonscope.cli import main

ADD_90 = "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"  # add_kernel cuda:90, Triton 3.9.0
COMMANDS = {
    "ls": ["ls", "--cache-dir", "{cache}", "--all"],
    "show": ["show", "{entry}", "--stage", "{stage}"],
    "map": ["map", "{entry}"],
    "map --stats": ["map", "--stats", "--cache-dir", "{cache}"],
    "layout": ["layout", "{entry}"],
    "loads": ["loads", "{entry}", "--no-sass"],
    "snapshot": ["snapshot", "--cache-dir", "{cache}", "--out", "{tmp}/snap"],
    "report": ["report", "{entry}", "-o", "{tmp}/r.html"],
}


def _invoke(args: list[str]):
    return CliRunner().invoke(main, args, env={"NO_COLOR": "1"})


def _graceful(r, where: str) -> None:
    """Exit 0, or exit 1 with exactly one `tritonscope: error:` line; never a traceback."""
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), (where, r.exception)
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, (where, r.stderr)
    if r.exit_code != 0:
        errors = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
        assert r.exit_code == 1 and len(errors) == 1, (where, r.exit_code, r.stderr)


@pytest.fixture
def entry(cache39, tmp_path):
    return shutil.copytree(cache39 / ADD_90, tmp_path / "cache" / ADD_90)


def _run_all(entry, tmp_path, stage: str) -> dict[str, object]:
    out = {}
    for name, template in COMMANDS.items():
        args = [a.format(cache=entry.parent, entry=entry, stage=stage, tmp=tmp_path) for a in template]
        r = _invoke(args)
        _graceful(r, name)
        out[name] = r
    return out


@pytest.mark.parametrize("stage", ["ttgir", "llir", "ptx", "cubin"])
def test_stage_file_is_a_directory(entry, tmp_path, stage):
    p = entry / f"add_kernel.{stage}"
    p.unlink()
    (p / "inside").mkdir(parents=True)
    (e,) = Cache(entry.parent).entries()
    assert stage not in e.files
    results = _run_all(entry, tmp_path, "sass" if stage == "cubin" else stage)
    assert results["ls"].exit_code == 0 and results["map --stats"].exit_code == 0
    assert results["map"].exit_code == 0  # the stage is simply absent
    # the error names the file and what it is, not only that the stage is missing (`sass` asks for the cubin)
    shown = "cubin" if stage == "cubin" else stage
    assert results["show"].exit_code == 1 and \
        f"{p}: the {shown} stage is a folder, not a file" in results["show"].stderr, results["show"].stderr
    r = _invoke(["map", str(entry), "--stages", "sass" if stage == "cubin" else stage])
    assert r.exit_code == 1 and f"{p}: the {shown} stage is a folder, not a file" in r.stderr, r.stderr


@pytest.mark.parametrize("stage", ["ttgir", "ptx"])
def test_stage_file_is_a_dangling_symlink(entry, tmp_path, stage):
    p = entry / f"add_kernel.{stage}"
    p.unlink()
    os.symlink(entry / "gone" / f"add_kernel.{stage}", p)
    results = _run_all(entry, tmp_path, stage)
    assert results["ls"].exit_code == 0 and results["map"].exit_code == 0
    assert results["show"].exit_code == 1


@pytest.mark.parametrize("stage", ["ttgir", "llir"])
def test_stage_file_is_a_socket(entry, tmp_path, stage, monkeypatch):
    """A socket cannot be opened, not even by root: a real unreadable file on any machine."""
    p = entry / f"add_kernel.{stage}"
    p.unlink()
    s = socket.socket(socket.AF_UNIX)
    try:
        monkeypatch.chdir(entry)  # a socket path is limited to 108 bytes: bind it relative
        s.bind(p.name)
        monkeypatch.undo()
        results = _run_all(entry, tmp_path, stage)
    finally:
        s.close()
    assert results["ls"].exit_code == 0 and results["map"].exit_code == 0
    # not a regular file: the cache does not count it as the stage (it is never opened)
    assert results["show"].exit_code == 1 and f"{p}: the {stage} stage is a socket, not a file" in \
        results["show"].stderr, results["show"].stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_stage_file_without_read_permission(entry, tmp_path):
    p = entry / "add_kernel.ptx"
    p.chmod(0)
    try:
        results = _run_all(entry, tmp_path, "ptx")
    finally:
        p.chmod(0o644)
    assert results["show"].exit_code == 1 and "permission denied" in results["show"].stderr


def test_files_deleted_while_commands_read(cache39, tmp_path):
    """A thread deletes and restores stage files while map/loads/layout/snapshot read them."""
    root = tmp_path / "cache"
    shutil.copytree(cache39, root)
    victims = sorted(p for p in root.glob("*/*") if p.suffix in (".ttgir", ".llir", ".ptx", ".json", ".amdgcn"))
    saved = {p: p.read_bytes() for p in victims}
    stop = threading.Event()
    flips = [0]

    def churn():
        i = 0
        while not stop.is_set():
            p = victims[i % len(victims)]
            try:
                p.unlink()
                p.write_bytes(saved[p])
            except OSError:
                pass
            i += 1
            flips[0] = i

    t = threading.Thread(target=churn, daemon=True)
    t.start()
    try:
        entries = [p for p in sorted(root.iterdir()) if p.is_dir()][:8]
        for e in entries:
            for args in (["map", str(e)], ["layout", str(e)], ["loads", str(e), "--no-sass"]):
                _graceful(_invoke(args), " ".join(args))
        _graceful(_invoke(["map", "--stats", "--cache-dir", str(root), "--stages", "ttgir,llir,ptx"]), "stats")
        _graceful(_invoke(["ls", "--cache-dir", str(root), "--all"]), "ls")
    finally:
        stop.set()
        t.join()
    assert flips[0] > 50  # the churn really ran alongside


def test_entry_directory_removed_after_listing(cache39, tmp_path):
    """Listed, then gone before its stages are read: a one-line error naming the path."""
    root = tmp_path / "cache"
    shutil.copytree(cache39 / ADD_90, root / ADD_90)
    (e,) = Cache(root).entries()
    shutil.rmtree(root / ADD_90)
    from tritonscope.errors import TritonscopeError
    from tritonscope.stages import parse_entry_stage

    with pytest.raises(TritonscopeError) as info:
        parse_entry_stage(e, "ttgir")
    assert str(root / ADD_90 / "add_kernel.ttgir") in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("command", ["ls", "map --stats", "snapshot", "diff"])
def test_cache_path_is_a_file(tmp_path, command):
    f = tmp_path / "notacache.txt"
    f.write_text("x\n")
    args = {"ls": ["ls", "--cache-dir", str(f)], "map --stats": ["map", "--stats", "--cache-dir", str(f)],
            "snapshot": ["snapshot", "--cache-dir", str(f), "--out", str(tmp_path / "s")],
            "diff": ["diff", str(f), str(f)]}[command]
    r = _invoke(args)
    _graceful(r, command)
    assert r.exit_code == 1 and str(f) in r.stderr


def test_a_stage_that_does_not_read_is_skipped_by_map_unless_asked_for(entry):
    """Helper 124: a `.source` with a bad byte stopped `map` (exit 1) though its IR stages read, where `loads`,
    `report` and `snapshot` went on with a note. `map` maps the others and says the stage was skipped, with the
    file, line and why; asked for by name, the stage is still an error."""
    p = entry / "add_kernel.source"
    data = p.read_bytes()
    p.write_bytes(data[:200] + b"\xff\xfe" + data[202:])
    r = _invoke(["map", str(entry)])
    _graceful(r, "map")
    assert r.exit_code == 0 and f"source: skipped: {p}:" in r.output and "not UTF-8" in r.output, r.output
    asked = _invoke(["map", str(entry), "--stages", "source"])
    _graceful(asked, "map --stages source")
    assert asked.exit_code == 1 and "not UTF-8" in asked.stderr
