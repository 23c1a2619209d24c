"""Bounded work and one CLI behaviour (issue 21): stage size limit, memory, Ctrl-C, one option set.

Large inputs are generated here (sparse files and benchmarks/large_stage.py), never committed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from large_stage import make_large_entry  # noqa: E402

SOFTMAX_90 = "TWWPLXS2UOETQNB37UVKIJKEJSGQVY6IHVAXHM37QTBLWHZ7HVBA"
ADD_90 = "7TGS3L4PNH6SFCBYVF6SJ2O4WHUKOTD3KSYSL3ZSE57FYW2ZX7ZQ"
ENTRY_COMMANDS = ("ls", "show", "map", "layout", "loads", "report", "snapshot", "diff")
SHARED_OPTIONS = ("--cache-dir", "--target", "--substitute-path", "--source-root", "--max-stage-size")


@pytest.fixture
def sparse_entry(cache39, tmp_path) -> Path:
    """softmax_kernel whose LLIR is a 1 GiB sparse file (no disk used, nothing committed)."""
    import shutil

    entry = Path(shutil.copytree(cache39 / SOFTMAX_90, tmp_path / "cache" / SOFTMAX_90))
    shutil.copytree(cache39 / ADD_90, tmp_path / "cache" / ADD_90)
    llir = next(entry.glob("*.llir"))
    llir.chmod(0o644)
    with open(llir, "r+b") as fh:
        fh.truncate(1 << 30)
    return entry


@pytest.mark.parametrize("args", [
    ("map", "{e}"), ("map", "{e}", "--stages", "llir"), ("loads", "{e}"), ("show", "{e}", "--stage", "llir"),
    ("report", "{e}", "-o", "{tmp}/r.html"), ("snapshot", "{e}", "-o", "{tmp}/snap"),
    ("diff", "{e}", "{e}"), ("map", "--stats", "--cache-dir", "{e}/.."),
], ids=lambda a: " ".join(a[:2]))
def test_stage_over_the_limit_is_refused_in_one_line(cli, sparse_entry, tmp_path, args):
    t0 = time.perf_counter()
    r = cli(*(a.format(e=sparse_entry, tmp=tmp_path) for a in args))
    elapsed = time.perf_counter() - t0
    llir = next(sparse_entry.glob("*.llir"))
    if args[:2] == ("map", "--stats"):  # a whole-cache walk skips the entry and says why
        assert r.returncode == 0 and "over the stage size limit" in r.stdout + r.stderr
    elif args == ("map", "{e}"):  # the stage not asked for by name is skipped, named, and the others mapped
        assert r.returncode == 0, (r.stdout, r.stderr)
        assert (f"llir: skipped: {llir}: 1.0 GiB, over the stage size limit of 256.0 MiB (no real artifact is this "
                "large; raise it with --max-stage-size)") in r.stdout, r.stdout
    elif args[0] in ("snapshot", "diff"):  # the stage left out and named, its metrics unknown; the rest read
        assert r.returncode == 0, (r.stdout, r.stderr)
        assert r.stderr.splitlines()[0] == (
            f"tritonscope: note: {llir}: 1.0 GiB, over the stage size limit of 256.0 MiB (no real artifact is this "
            "large; raise it with --max-stage-size): its metrics are unknown")
    else:
        assert r.returncode == 1, (r.stdout, r.stderr)
        assert r.stderr.strip().splitlines() == [
            f"tritonscope: error: {llir}: 1.0 GiB, over the stage size limit of 256.0 MiB "
            "(no real artifact is this large; raise it with --max-stage-size)"]
    assert "Traceback" not in r.stderr
    assert elapsed < 120  # not a timing assertion: a bound that only reading 1 GiB could break


def test_limit_is_an_option_and_an_environment_variable(cli, sparse_entry):
    r = cli("show", str(sparse_entry), "--stage", "llir", "--max-stage-size", "512M")
    assert r.returncode == 1 and "over the stage size limit of 512.0 MiB" in r.stderr
    r = cli("show", str(sparse_entry), "--stage", "llir", env={"TRITONSCOPE_MAX_STAGE_SIZE": "100K"})
    assert "over the stage size limit of 100.0 KiB" in r.stderr
    r = cli("show", str(sparse_entry), "--stage", "ttgir", "--max-stage-size", "lots")
    assert r.returncode == 2 and "--max-stage-size: not a size 'lots'" in r.stderr
    r = cli("show", str(sparse_entry), "--stage", "ttgir", "--max-stage-size", "0.5")  # (not 0: no limit)
    assert r.returncode == 2 and "less than a byte" in r.stderr


def _peak_rss_mib(args: list[str]) -> float:
    """Peak resident memory of `python -m tritonscope ARGS` as a process of its own (ru_maxrss of a
    fresh parent's only child)."""
    probe = textwrap.dedent(f"""
        import resource, subprocess, sys
        subprocess.run([sys.executable, "-m", "tritonscope", *{args!r}], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    """)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) / 1024


@pytest.mark.parametrize("command", [["map", "--stages", "llir", "--json"], ["loads", "--no-sass"],
                                     ["report", "--stages", "llir", "-o", "{tmp}/r.html"]],
                         ids=["map", "loads", "report"])
def test_memory_stays_under_ten_times_the_largest_file(cache39, tmp_path, command):
    entry = make_large_entry(cache39 / SOFTMAX_90, tmp_path / "big", 24 << 20)
    size_mib = next(entry.glob("*.llir")).stat().st_size / (1 << 20)
    # the same command on the original entry: the imports and fixed costs, which do not grow with the file
    baseline = _peak_rss_mib([command[0], str(cache39 / SOFTMAX_90), *(a.format(tmp=tmp_path) for a in command[1:])])
    args = [command[0], str(entry), *(a.format(tmp=tmp_path) for a in command[1:])]
    peak = _peak_rss_mib(args)
    assert peak - baseline < 10 * size_mib, f"{args}: {peak:.0f} MiB peak, {baseline:.0f} baseline, {size_mib:.0f} MiB"


def _interrupt(args: list[str], cwd: Path, after: float) -> subprocess.CompletedProcess:
    """Start the command in its own process group with SIGINT at its default, then Ctrl-C the group."""
    p = subprocess.Popen([sys.executable, "-m", "tritonscope", *args], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(after)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=120)
    return subprocess.CompletedProcess(args, p.returncode, out, err)


@pytest.mark.parametrize("command", [["report", "-o", "r.html", "--stages", "llir"], ["snapshot", "-o", "snap"]],
                         ids=["report", "snapshot"])
def test_ctrl_c_exits_130_and_leaves_no_temporary_files(cache39, tmp_path, command):
    entry = make_large_entry(cache39 / SOFTMAX_90, tmp_path / "big", 48 << 20)
    work = tmp_path / "work"
    work.mkdir()
    r = _interrupt([command[0], str(entry), *command[1:]], work, after=2.0)
    assert r.returncode == 130, r.stderr
    assert r.stderr.strip() == "tritonscope: interrupted"
    assert list(work.iterdir()) == []  # no partial page, no temporary file or directory


@pytest.mark.parametrize("command", ENTRY_COMMANDS)
def test_every_entry_command_has_the_same_selection_options(cli, command):
    r = cli(command, "--help")
    assert r.returncode == 0
    for option in SHARED_OPTIONS:
        assert option in r.stdout, f"{command} lacks {option}"


@pytest.mark.parametrize("command", ENTRY_COMMANDS)
def test_an_unknown_target_is_one_usage_error_everywhere(cli, cache39, command):
    args = [command, str(cache39), str(cache39)] if command == "diff" else [command, "--cache-dir", str(cache39)]
    if command == "snapshot":
        args += ["-o", "/nonexistent/never-written"]
    r = cli(*args, "--target", "cuda90")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines()[-1] == (
        "tritonscope: error: --target: unknown target 'cuda90' "
        "(forms: cuda, hip, cuda:90 (or sm90), hip:gfx942 (or gfx942))")


@pytest.mark.parametrize("spelling", ["cuda:90", "sm90", "sm_90a", "CUDA:90"])
def test_every_spelling_selects_the_same_entries(cli, cache39, spelling):
    import json

    r = cli("ls", "--cache-dir", str(cache39), "--target", spelling, "--json")
    entries = json.loads(r.stdout)["entries"]
    assert entries and {(e["target"]["backend"], e["target"]["arch"]) for e in entries} == {("cuda", "90")}


@pytest.mark.parametrize("command", ["map", "loads"])
def test_line_outside_the_file_is_a_usage_error(cli, cache39, corpus, command):
    sub = ["--substitute-path", "/tmp/irkernels", str(corpus)]
    r = cli(command, str(cache39 / SOFTMAX_90), "--line", "9999", *sub)
    assert r.returncode == 2
    assert r.stderr.strip() == f"tritonscope: error: --line 9999: {corpus}/kernels.py has " \
        f"{len((corpus / 'kernels.py').read_text().splitlines())} lines"
    unread = cli(command, str(cache39 / SOFTMAX_90), "--line", "9999")  # the file is not here
    assert unread.returncode == 2 and "no location names a line past" in unread.stderr
    assert cli(command, str(cache39 / SOFTMAX_90), "--line", "0").returncode == 2


def test_python_m_works_from_the_repository_root_without_the_editable_finder():
    """After a plain `pip install .`, the checkout's tritonscope/ shadows the installed package from the
    repository root; the samples must still load (from the checkout's sample_kernels/)."""
    code = textwrap.dedent("""
        import sys
        sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
        sys.path.insert(0, "")
        from tritonscope.compile.request import sample_package
        samples = sample_package()
        print(samples.__file__, len(samples.names()))
    """)
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(str(REPO / "sample_kernels" / "__init__.py"))
    r = subprocess.run([sys.executable, "-m", "tritonscope", "compile", "--list"], cwd=REPO,
                       capture_output=True, text=True)
    assert r.returncode == 0 and "vector_add" in r.stdout, r.stderr


def test_a_binary_stage_skipped_names_its_file(cli, cache39):
    """Helper 126: map's skip of SASS over --max-stage-size said 'sass: skipped: 8.8 KiB, over ...' without its
    CUBIN, where every text stage skipped names its file."""
    r = cli("map", SOFTMAX_90, "--cache-dir", str(cache39), "--max-stage-size", "1K")
    assert r.returncode == 0, r.stderr
    cubin = next((cache39 / SOFTMAX_90).glob("*.cubin"))
    assert f"sass: skipped: {cubin}: " in r.stdout, r.stdout
