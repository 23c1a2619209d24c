"""Bad input: one line naming the path and the problem, exit 1 (2 for usage), never a traceback."""

from __future__ import annotations

import json
import os
import shutil

import pytest


def _one_line_error(r, code=1):
    assert r.returncode == code, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    return r.stderr


@pytest.fixture
def entry_copy(tmp_path, cache39):
    src = next(p for p in sorted(cache39.iterdir()) if (p / "add_kernel.ptx").exists())
    dst = tmp_path / "cache" / src.name
    shutil.copytree(src, dst)
    return dst


def test_non_utf8_ir(cli, entry_copy):
    p = entry_copy / "add_kernel.ttgir"
    data = p.read_bytes()
    p.write_bytes(data[:200] + b"\xff\xfe" + data[200:])
    err = _one_line_error(cli("show", str(entry_copy), "--stage", "ttgir"))
    assert str(p) in err and "not UTF-8" in err


def test_nul_bytes_in_text_stage(cli, entry_copy):
    p = entry_copy / "add_kernel.llir"
    p.write_bytes(b"define void @f() {\n\x00\x00\n")
    err = _one_line_error(cli("show", str(entry_copy), "--stage", "llir"))
    assert f"{p}:2" in err and "NUL" in err


def test_truncated_ir_still_shows(cli, entry_copy):
    p = entry_copy / "add_kernel.ttir"
    p.write_bytes(p.read_bytes()[:100])
    r = cli("show", str(entry_copy), "--stage", "ttir")
    assert r.returncode == 0 and len(r.stdout) >= 90


def test_malformed_json(cli, entry_copy):
    (entry_copy / "add_kernel.json").write_text("{not json")
    err = _one_line_error(cli("show", str(entry_copy), "--meta"))
    assert "add_kernel.json" in err
    r = cli("ls", "--cache-dir", str(entry_copy.parent), "--json")
    assert r.returncode == 0 and '"partial"' in r.stdout


def test_cache_dir_is_a_file(cli, tmp_path):
    f = tmp_path / "notacache.txt"
    f.write_text("x")
    err = _one_line_error(cli("ls", "--cache-dir", str(f)))
    assert str(f) in err and "not a Triton artifact" in err


def test_cache_dir_missing(cli, tmp_path):
    err = _one_line_error(cli("ls", "--cache-dir", str(tmp_path / "missing")))
    assert "no such cache directory" in err


def test_cache_dir_neither_file_nor_directory(cli, tmp_path):
    """A device or a FIFO is not read (a FIFO would block the read); a link to nothing is named as one."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "gone")
    for path, what in ((fifo, "not a regular file or directory"), (dangling, "a symbolic link to nothing")):
        for cmd in (("ls",), ("map", "k", "--stats")):
            err = _one_line_error(cli(*cmd, "--cache-dir", str(path)))
            assert str(path) in err and what in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads unreadable directories")
def test_unreadable_directory(cli, tmp_path):
    d = tmp_path / "locked"
    d.mkdir()
    d.chmod(0)
    try:
        err = _one_line_error(cli("ls", "--cache-dir", str(d)))
        assert "permission denied" in err
    finally:
        d.chmod(0o755)


def test_stage_file_is_a_directory(cli, entry_copy):
    p = entry_copy / "add_kernel.ttgir"
    p.unlink()
    p.mkdir()
    r = cli("show", str(entry_copy), "--stage", "ttgir")
    err = _one_line_error(r)
    # a directory named like a stage is not a stage file, and is said to be one (helper 113)
    assert f"{p}: the ttgir stage is a folder, not a file" in err, err


def test_unknown_command_and_option_are_usage_errors(cli):
    assert cli("frobnicate").returncode == 2
    assert cli("ls", "--no-such-option").returncode == 2


def test_debug_shows_traceback(cli, tmp_path):
    r = cli("--debug", "ls", "--cache-dir", str(tmp_path / "missing"))
    assert r.returncode == 1 and "Traceback" in r.stderr


def test_a_launcher_entry_named_as_kernel_says_what_it_holds(cli, tmp_path):
    """An entry directory that holds only Triton's compiled launcher (every JIT cache has some), named as
    KERNEL: one line saying so, not 'nothing matches any kernel'."""
    entry = tmp_path / "2LFHMSTJ34JS2PG267B5IA66PPU4FSR7VX3VRU4BYNFLAHLBRNUQ"
    entry.mkdir()
    (entry / "__triton_launcher.cpython-312-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    for command in ("loads", "map", "layout"):
        proc = cli(command, str(entry))
        assert proc.returncode == 1
        assert proc.stderr.splitlines() == [
            f"tritonscope: error: {entry}: this cache entry holds Triton's compiled launcher only, no kernel stages"]


@pytest.mark.parametrize("args", [["map", "{entry}", "--stage", "ptx", "--at", "-1"],
                                  ["map", "{entry}", "--line", "3", "--context", "-1"],
                                  ["loads", "{entry}", "--explain", "0"]])
def test_line_numbers_below_one_are_usage_errors(cli, cache39, args):
    """An IR line, a source line to explain and a context are counted from 1 (0): -1 is a usage error that
    names the option (`--at -1` answered 'no instruction', `--explain 0` was reported as `--line 0`)."""
    entry = cache39 / "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
    r = cli(*[a.format(entry=entry) for a in args])
    option = next(a for a in args if a.startswith("--") and a != "--stage" and a != "--line")
    assert r.returncode == 2 and option in r.stderr, r.stderr


def test_a_layout_kind_of_a_newer_release_leaves_the_rest_readable(cli, entry_copy):
    """Helper 79: one layout of a kind tritonscope does not know (3.8's generic_linear, before it was read)
    stopped map --line, loads and layout whole ('unknown layout kind'). The kind is said where its numbers
    are asked, its tensors keep the memory their type names, and an access on it has no prediction (its
    verdict unknown, not 'as-predicted')."""
    p = entry_copy / "add_kernel.ttgir"
    text = p.read_text()
    assert "#ttg.blocked<" in text
    p.write_text(text.replace("#ttg.blocked<", "#ttg.future_blocked<"))
    r = cli("map", str(entry_copy), "--line", "1")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    r = cli("layout", str(entry_copy))
    assert r.returncode == 0, r.stderr
    assert "in registers" in r.stdout and "unknown layout kind ttg.future_blocked: not decoded" in r.stdout
    r = cli("loads", str(entry_copy), "--json")
    assert r.returncode == 0, r.stderr
    import json

    rows = json.loads(r.stdout)["rows"]
    assert rows and all(row["verdict"] == "unknown" for row in rows if row["shape"])
    assert all("no-prediction" in row["reasons"] and "future_blocked" in row["evidence"]["no-prediction"]
               for row in rows if row["shape"])
    # an attribute given alone is still an error: nothing else to read
    _one_line_error(cli("layout", "#ttg.future_blocked<{a = 1}>"))


def _as_user_without_override() -> list[str] | None:
    """A command prefix under which permission bits hold: none for a normal user; for root, setpriv dropping
    the capabilities that read past them (None where there is no setpriv)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        return None
    caps = "-dac_override,-dac_read_search,-fowner"
    return ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}"]


def test_entry_directories_that_cannot_be_listed_are_said_not_dropped(tmp_path, cache39):
    """Helper 80: an entry directory this user cannot list vanished from ls, map --stats, snapshot and diff
    with no word (a diff against it said the kernel was removed), and `show HASH` blamed the pattern."""
    import json
    import subprocess
    import sys

    prefix = _as_user_without_override()
    if prefix is None:
        pytest.skip("root without setpriv reads every directory")
    cache = shutil.copytree(cache39, tmp_path / "cache")
    locked = sorted(p for p in cache.iterdir() if p.is_dir())[0]
    tmp_path.chmod(0o755)
    locked.chmod(0)
    try:
        def run(*args):
            return subprocess.run([*prefix, sys.executable, "-m", "tritonscope", *args], capture_output=True,
                                  text=True, env={**os.environ, "TRITONSCOPE_RECORDS_CACHE": "off"}, timeout=600)

        for args in (("ls", "--cache-dir", str(cache)), ("map", "--stats", "--cache-dir", str(cache)),
                     ("snapshot", "--cache-dir", str(cache), "--out", str(tmp_path / "snap"))):
            r = run(*args)
            assert r.returncode == 0, (args, r.stderr)
            assert f"{locked}: permission denied" in r.stderr and "left out" in r.stderr, (args, r.stderr)
        doc = json.loads(run("ls", "--cache-dir", str(cache), "--json").stdout)  # (helper 87: machine-readable)
        assert doc["unreadable"] == [str(locked)] and str(locked) not in {e["path"] for e in doc["entries"]}
        r = run("diff", str(cache39), str(cache), "--format", "json")
        assert any(str(locked) in d and "permission denied" in d for d in json.loads(r.stdout)["damage"])
        err = _one_line_error(run("show", locked.name[:6], "--cache-dir", str(cache)))
        assert str(locked) in err and "permission denied" in err
    finally:
        locked.chmod(0o755)


def test_an_alias_of_an_alias_and_an_unknown_shared_layout(cli, cache39, tmp_path):
    """Helper 81: `#blocked1 = #blocked` (an alias of an alias) was no layout at all: `layout` failed on
    'unknown layout alias #blocked1' and `loads` called the access scalar; an access through a shared layout
    of an unknown kind was 'as-predicted' from its registers alone."""
    import json

    src = next(p for p in sorted(cache39.iterdir()) if (p / "matmul_kernel.ttgir").exists()
               and "#ttg.swizzled_shared" in (p / "matmul_kernel.ttgir").read_text()
               and "#blocked1 = #ttg.blocked" in (p / "matmul_kernel.ttgir").read_text())
    entry = shutil.copytree(src, tmp_path / "cache" / src.name)
    ttgir = entry / "matmul_kernel.ttgir"
    text = ttgir.read_text()
    blocked1 = next(ln for ln in text.splitlines() if ln.startswith("#blocked1 = "))
    ttgir.write_text(text.replace(blocked1, "#blocked1 = #blocked9").replace(
        "#blocked = ", blocked1.replace("#blocked1 = ", "#blocked9 = ") + "\n#blocked = ", 1))
    r = cli("layout", str(entry))
    assert r.returncode == 0 and "\n#blocked1 = #ttg.blocked<" in r.stdout, r.stdout + r.stderr
    rows = json.loads(cli("loads", str(entry), "--json").stdout)["rows"]
    assert not any(r["verdict"] == "scalar" and "scalar-access" in r["reasons"] for r in rows if r["shape"])
    ttgir.write_text(text.replace("#ttg.swizzled_shared<", "#ttg.future_shared<"))
    rows = json.loads(cli("loads", str(entry), "--json").stdout)["rows"]
    local = [r for r in rows if r["op"] == "ttg.local_load"]
    # (a 2-byte read is scalar whatever the layouts: no cause is given for it)
    assert local and all(r["verdict"] in ("unknown", "scalar") and r["reasons"] == ["no-prediction"] for r in local)
    assert "the shared layout is not decoded" in local[0]["evidence"]["no-prediction"]


def test_metadata_fields_of_a_type_triton_never_writes_are_named(cli, entry_copy):
    """`"num_warps": "four"` read as unknown without a word (ls showed `-`, diff `4 -> ?`): helper 111."""
    p = entry_copy / "add_kernel.json"
    meta = json.loads(p.read_text())
    meta.update(num_warps="four", shared=[1], target="hip")
    p.write_text(json.dumps(meta))
    for args in (("ls", "--cache-dir", str(entry_copy.parent)), ("map", str(entry_copy)),
                 ("loads", str(entry_copy)), ("show", str(entry_copy), "-s", "ttir")):
        r = cli(*args)
        assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr)
        assert any(line.startswith(f"tritonscope: note: {p}: ") and 'num_warps="four"' in line and "shared=[1]" in line
                   and 'target="hip"' in line and "not as Triton writes them" in line
                   for line in r.stderr.splitlines()), (args, r.stderr)


def test_a_count_triton_never_writes_below_one_is_named_and_read_as_unknown(cli, entry_copy):
    """Helper 124: `"num_warps": 0` and `"warp_size": 0` were taken as real (ls showed `0/3`), where
    `num_warps: 1e400` was named and read as unknown."""
    p = entry_copy / "add_kernel.json"
    meta = json.loads(p.read_text())
    meta.update(num_warps=0, warp_size=-32)
    p.write_text(json.dumps(meta))
    r = cli("ls", "--cache-dir", str(entry_copy.parent), "--json")
    assert r.returncode == 0 and "num_warps=0, warp_size=-32, not as Triton writes them" in r.stderr, r.stderr
    (e,) = json.loads(r.stdout)["entries"]
    assert e["num_warps"] is None and e["target"]["warp_size"] == 32  # (NVIDIA's: 32 whatever the field says)


def test_a_count_triton_never_writes_below_zero_is_named_read_as_unknown_and_not_compiled_with(cli, entry_copy,
                                                                                               tmp_path):
    """Helper 126: `"num_stages": -5` and `"shared": -5` passed silently (ls showed `4/-5` and `-5B`), and
    compile from the entry compiled with num_stages -5 (Triton wrote it back)."""
    p = entry_copy / "add_kernel.json"
    meta = json.loads(p.read_text())
    meta.update(num_stages=-5, shared=-5)
    p.write_text(json.dumps(meta))
    r = cli("ls", "--cache-dir", str(entry_copy.parent), "--json")
    assert r.returncode == 0 and "num_stages=-5, shared=-5, not as Triton writes them" in r.stderr, r.stderr
    (e,) = json.loads(r.stdout)["entries"]
    assert e["num_stages"] is None and e["shared"] is None
    meta.update(num_stages=0, shared=0)  # (AMD's kernels are written with num_stages 0)
    p.write_text(json.dumps(meta))
    r = cli("ls", "--cache-dir", str(entry_copy.parent), "--json")
    assert r.returncode == 0 and "not as Triton writes" not in r.stderr, r.stderr
    assert json.loads(r.stdout)["entries"][0]["num_stages"] == 0
    meta.update(num_stages=-5)
    p.write_text(json.dumps(meta))
    r = cli("compile", str(entry_copy), "--target", "cuda:90", "--cache-dir", str(tmp_path / "out"), "--json")
    assert r.returncode == 0, r.stderr
    (res,) = json.loads(r.stdout)["results"]
    assert res["options"]["num_stages"] == 3  # Triton's default for cuda
    assert any("the metadata's num_stages -5 is not as Triton writes it: not taken" in n for n in res["notes"]), res


def test_single_kernel_commands_say_what_of_the_entry_does_not_read(cli, entry_copy):
    """ls, report, snapshot and diff named a metadata file cut short; map, loads and show said nothing."""
    p = entry_copy / "add_kernel.json"
    p.write_bytes(p.read_bytes()[:60])
    for args in (("map", str(entry_copy)), ("loads", str(entry_copy)), ("show", str(entry_copy), "-s", "ttir")):
        r = cli(*args)
        assert r.returncode == 0 and f"tritonscope: note: {p}: metadata not read (" in r.stderr, (args, r.stderr)


def test_an_isa_text_that_does_not_read_is_no_failed_compile(cli, entry_copy):
    p = entry_copy / "add_kernel.ptx"
    p.write_bytes(b"\x00" * 64)
    r = cli("loads", str(entry_copy), "--no-sass")
    assert r.returncode == 0, r.stderr
    assert "no-isa: its PTX did not read (see the note)" in r.stdout and "failed compile" not in r.stdout


def test_a_count_written_as_a_boolean_is_not_compiled_with(cli, entry_copy, tmp_path):
    """Helper 130: `"num_stages": true` read as unknown in ls, but compile from the entry took it (a bool is an
    int to Python) and wrote `num_stages: true` into the new entry's metadata."""
    p = entry_copy / "add_kernel.json"
    meta = json.loads(p.read_text())
    meta.update(num_stages=True)
    p.write_text(json.dumps(meta))
    r = cli("compile", str(entry_copy), "--target", "cuda:90", "--cache-dir", str(tmp_path / "out"), "--json")
    assert r.returncode == 0, r.stderr
    (res,) = json.loads(r.stdout)["results"]
    assert res["options"]["num_stages"] == 3
    assert any("the metadata's num_stages True is not as Triton writes it: not taken" in n for n in res["notes"]), res
