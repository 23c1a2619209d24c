"""docs/commands.md from the click definitions: every command of `tritonscope.cli.COMMANDS`, its usage,
help text and every parameter, so the reference cannot drift from the code (docs/build.py writes it)."""

from __future__ import annotations

import inspect

import click

HELP_WIDTH = 100  # the width click wraps help text to, fixed so the file does not depend on the terminal

HEADER = """# Command reference

Generated from the click definitions by `python docs/build.py`; do not edit by hand. The tour is in
[../README.md](../README.md), a worked example in [tutorial.md](tutorial.md), the JSON outputs in
[json.md](json.md).
"""


def render_commands_md() -> str:
    from tritonscope.cli import COMMANDS, main

    root = click.Context(main, info_name="tritonscope", terminal_width=HELP_WIDTH,
                         max_content_width=HELP_WIDTH)
    parts = [HEADER, "## Commands\n", _command_index(COMMANDS), _render_group(main, root)]
    for name in COMMANDS:
        command = main.get_command(root, name)
        if command is None:
            raise SystemExit(f"docs/reference.py: command {name!r} of COMMANDS did not load")
        ctx = click.Context(command, info_name=name, parent=root, terminal_width=HELP_WIDTH,
                            max_content_width=HELP_WIDTH)
        parts.append(_render_command(command, ctx))
    return "\n".join(parts).rstrip("\n") + "\n"


def _command_index(commands: dict[str, tuple[str, str]]) -> str:
    rows = [f"- [`tritonscope {name}`](#tritonscope-{name}): {short}"
            for name, (_, short) in commands.items()]
    return "\n".join(rows) + "\n"


def _render_group(group: click.Group, ctx: click.Context) -> str:
    lines = ["## `tritonscope`\n", "```text", group.get_usage(ctx), "```\n",
             "```text\n" + _help_text(group.help or "") + "\n```\n"]
    lines.append(_params_table(group, ctx))
    return "\n".join(lines)


def _render_command(command: click.Command, ctx: click.Context) -> str:
    name = ctx.info_name
    lines = [f"## `tritonscope {name}`\n", "```text", command.get_usage(ctx), "```\n"]
    if command.help:
        lines.append("```text\n" + _help_text(command.help) + "\n```\n")
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    if arguments:
        names = ", ".join(f"`{a.make_metavar(ctx)}`" for a in arguments)
        lines.append(f"Arguments: {names}.\n")
    lines.append(_params_table(command, ctx))
    return "\n".join(lines)


def _help_text(text: str) -> str:
    """The help as `--help` prints it (click's paragraph rules: \\b blocks kept, the rest rewrapped)."""
    formatter = click.HelpFormatter(width=HELP_WIDTH, max_width=HELP_WIDTH)
    formatter.write_text(inspect.cleandoc(text))
    return "\n".join(line.rstrip() for line in formatter.getvalue().rstrip("\n").splitlines())


def _params_table(command: click.Command, ctx: click.Context) -> str:
    rows = ["| Option | Value | Default | Description |", "| --- | --- | --- | --- |"]
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option) or param.hidden:
            continue
        cells = (_option_names(param), _option_value(param, ctx), _option_default(param),
                 _cell(param.help or ""))
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _option_names(param: click.Option) -> str:
    names = ", ".join(f"`{o}`" for o in param.opts)
    if param.secondary_opts:
        names += " / " + ", ".join(f"`{o}`" for o in param.secondary_opts)
    return names


def _option_value(param: click.Option, ctx: click.Context) -> str:
    if param.is_flag or param.count:
        return ""
    metavar = param.make_metavar(ctx)
    if param.nargs > 1 and param.metavar:
        metavar = param.metavar
    extras = []
    describe_range = getattr(param.type, "_describe_range", None)
    if describe_range is not None:
        extras.append(describe_range())
    if param.multiple:
        extras.append("repeatable")
    if param.required:
        extras.append("required")
    suffix = f" ({', '.join(extras)})" if extras else ""
    return _cell(f"`{metavar}`") + suffix


def _option_default(param: click.Option) -> str:
    default = param.default
    if type(default).__name__ == "Sentinel":  # click >= 8.2: no default given
        return ""
    if callable(default) or default is None or default == () or param.multiple and not default:
        return ""
    if param.is_flag and not param.secondary_opts:
        return ""  # a plain flag is off unless given
    if isinstance(default, bool):
        return f"`{(param.opts if default else param.secondary_opts)[0]}`"
    return _cell(f"`{default}`")


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")
