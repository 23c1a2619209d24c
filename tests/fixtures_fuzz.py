"""Fuzzing options and summary (a pytest plugin loaded by conftest.py).

`--long` (or TRITONSCOPE_FUZZ_LONG=1) runs the fuzz tests with 40x the CI example count and a random
seed per run (CI is derandomized: the same inputs every run). At the end of a run that fuzzed anything,
a summary says how many inputs each parser saw and how they ended.
"""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", default=False,
                     help="tritonscope: deep fuzzing run (40x the CI inputs, random seeds); see tests/fuzz_seeds.py")


def pytest_configure(config: pytest.Config) -> None:
    # fuzz_seeds reads the variable when the test modules are imported (after this hook)
    if config.getoption("long"):
        os.environ["TRITONSCOPE_FUZZ_LONG"] = "1"


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    import sys

    seeds = sys.modules.get("fuzz_seeds")
    if seeds is None or not seeds.STATS.outcomes:
        return
    mode = "long" if seeds.LONG else "CI"
    terminalreporter.section(f"fuzz inputs ({mode} budget)")
    for line in seeds.STATS.lines():
        terminalreporter.write_line(line)
