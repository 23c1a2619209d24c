"""The Outcome of a command decides its exit status in one place (black's `Report.return_code`)."""

import errno

from click.testing import CliRunner

from tritonscope.cli import main
from tritonscope.cli.outcome import Outcome
from tritonscope.errors import ExitStatus, ParseError, TritonscopeError, UsageError


def test_return_code_from_what_happened():
    assert Outcome().return_code is ExitStatus.OK
    o = Outcome()
    o.failed("rule regs")
    assert o.return_code is ExitStatus.FAILED
    assert Outcome(error=TritonscopeError("no such kernel", "/c")).return_code is ExitStatus.FAILED
    assert Outcome(error=UsageError("--line 0")).return_code is ExitStatus.USAGE
    assert Outcome(error=ParseError("bad", "k.ttgir", 3)).return_code == 1
    assert Outcome(error=KeyboardInterrupt()).return_code == 130
    assert Outcome(error=BrokenPipeError()).return_code is ExitStatus.OK
    assert Outcome(error=ValueError("x")).return_code is ExitStatus.FAILED


def test_error_lines():
    assert Outcome(error=ParseError("bad op", "k.ttgir", 3)).error_line() == "tritonscope: error: k.ttgir:3: bad op"
    assert Outcome(error=KeyboardInterrupt()).error_line() == "tritonscope: interrupted"
    assert Outcome(error=BrokenPipeError()).error_line() is None
    err = OSError(errno.EACCES, "Permission denied", "/c/x.ptx")
    assert Outcome(error=err).error_line() == "tritonscope: error: /c/x.ptx: Permission denied"
    assert Outcome(error=ValueError("x")).error_line() == (
        "tritonscope: internal error: ValueError: x (run with --debug for a traceback)")
    assert Outcome(error=ValueError("x"), debug=True).error_line() == "tritonscope: internal error: ValueError: x"


def test_unparsed_notes_once_per_file():
    o = Outcome(unparsed={("ptx", "/c/k.ptx"): [(4, "weird")], ("ptx", None): [(4, "weird")],
                          ("llir", None): [(1, "x"), (2, "y")]})
    assert o.unparsed_lines() == [
        "tritonscope: note: llir text: unparsed lines: 2 (--debug shows them)",
        "tritonscope: note: /c/k.ptx: unparsed lines: 1 (--debug shows them)",
    ]
    o.debug = True
    assert "  /c/k.ptx:4: weird" in o.unparsed_lines()


def test_cli_statuses(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["ls", "--cache-dir", str(tmp_path / "missing")])
    assert r.exit_code == ExitStatus.FAILED
    assert r.stderr == f"tritonscope: error: {tmp_path / 'missing'}: no such cache directory\n"
    r = runner.invoke(main, ["map", "k", "--cache-dir", str(tmp_path), "--line", "0"])
    assert r.exit_code == ExitStatus.USAGE and r.stderr == "tritonscope: error: --line 0: source lines start at 1\n"
    r = runner.invoke(main, ["ls", "--no-such-flag"])
    assert r.exit_code == ExitStatus.USAGE
    r = runner.invoke(main, ["ls", "--cache-dir", str(tmp_path)])
    assert r.exit_code == ExitStatus.OK, r.output
