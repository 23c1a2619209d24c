"""The README's two set-up commands and .ci/run stay in sync."""

from __future__ import annotations

import re

from conftest import REPO


def _readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text()
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", setup, re.S)


def test_readme_has_exactly_two_setup_commands():
    cmds = _readme_commands()
    assert len(cmds) == 2 and all("\n" not in c for c in cmds)
    assert "tritonscope compile" in cmds[0] and "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert _readme_commands()[1] in ci
