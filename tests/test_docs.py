"""The docs stay true: every command output they show is what the tool prints now (docs/build.py --check
on the session's compiled samples), every option they name exists, every relative link resolves."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

from conftest import REPO

GUIDES = ("README.md", "docs/tutorial.md")
CODE_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
INLINE_CODE = re.compile(r"`([^`\n]+)`")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.M)
# the options of one command in docs/commands.md: "## `tritonscope NAME`" ... up to the next heading
COMMAND_SECTION = re.compile(r"^## `tritonscope(?: (?P<name>[\w-]+))?`\n(?P<body>.*?)(?=^## |\Z)",
                             re.S | re.M)


def test_docs_match_what_the_tool_prints(compiled_cache):
    done = subprocess.run([sys.executable, str(REPO / "docs" / "build.py"), "--check", "--cache-dir",
                           str(compiled_cache)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (
        "the docs differ from what the tool prints now; run `python docs/build.py` and commit the result\n"
        + done.stdout[-6000:] + done.stderr[-3000:])


def _options_by_command() -> dict[str, set[str]]:
    text = (REPO / "docs" / "commands.md").read_text()
    found = {m["name"] or "": set(OPTION.findall(m["body"])) for m in COMMAND_SECTION.finditer(text)}
    assert {"", "ls", "map", "layout", "loads", "diff", "compile"} <= set(found), sorted(found)
    return found


def _command_lines(markdown: str) -> list[str]:
    """`tritonscope ...` invocations in code blocks: `$ ` lines of console blocks and bash commands."""
    lines = []
    for block in CODE_FENCE.findall(markdown):
        for line in block.splitlines():
            line = line.removeprefix("$ ")
            lines += [part.strip() for part in line.split("&&") if part.strip().startswith("tritonscope ")]
    return lines


def test_every_option_in_readme_and_tutorial_exists():
    options = _options_by_command()
    everywhere = set().union(*options.values())
    for name in GUIDES:
        markdown = (REPO / name).read_text()
        for line in _command_lines(markdown):
            argv = shlex.split(line)
            command = argv[1]
            assert command in options, f"{name}: `{line}`: no command {command!r} in docs/commands.md"
            for opt in OPTION.findall(line):
                assert opt in options[command] | options[""], f"{name}: `{line}`: {command} has no {opt}"
        prose = CODE_FENCE.sub("", markdown)
        for code in INLINE_CODE.findall(prose):
            if code.startswith("tritonscope "):
                command = code.split()[1]
                assert command in options, f"{name}: `{code}`: no command {command!r} in docs/commands.md"
                known = options[command] | options[""]
            elif code.startswith("-"):  # an option on its own, e.g. `--fail-on 'vector-width<'`
                known = everywhere
            else:
                continue  # another program's command line (python, pip, export)
            for opt in OPTION.findall(code):
                assert opt in known, f"{name}: `{code}` names {opt}, which it does not have"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_relative_links_resolve():
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        text = CODE_FENCE.sub("", page.read_text())
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # http(s), mailto: not checked offline
            path_part, _, anchor = target.partition("#")
            dest = (page.parent / path_part).resolve() if path_part else page
            if not dest.exists():
                broken.append(f"{page.relative_to(REPO)}: {target}: no such file")
                continue
            if anchor and dest.suffix == ".md":
                anchors = {_slug(h) for h in HEADING.findall(CODE_FENCE.sub("", dest.read_text()))}
                if anchor not in anchors:
                    broken.append(f"{page.relative_to(REPO)}: {target}: no heading #{anchor}")
    assert not broken, "\n".join(broken)


def test_json_doc_covers_every_kind_emitted():
    """Every `kind` a command passes to emit_json is named in docs/json.md."""
    json_md = (REPO / "docs" / "json.md").read_text()
    kinds = set()
    for module in (REPO / "tritonscope" / "cli").glob("*.py"):
        source = module.read_text()
        # (calls only: from `def emit_json(` the lazy span would run on into whatever string comes next)
        kinds |= set(re.findall(r'(?<!def )\bemit_json\((?:.|\n)*?,\s*"([\w.-]+)"\s*(?:,\s*\w+=[^)]*)?,?\s*\)',
                                source))
        if "map.py" == module.name:
            kinds |= set(re.findall(r'"(map\.\w+)"', source))
    assert {"ls", "loads", "diff", "layout"} <= kinds
    missing = sorted(k for k in kinds if f"`{k}`" not in json_md)
    assert not missing, f"docs/json.md does not name these JSON kinds: {missing}"
