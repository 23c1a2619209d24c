"""Every renderer follows the one convention of tritonscope/render/__init__.py: `render_<what>(data,
console, ...) -> None` printing on its caller's console, or a document renderer returning str/bytes."""

import ast
import pathlib

import tritonscope.render

RENDER = pathlib.Path(tritonscope.render.__file__).parent


def _public_functions():
    for path in sorted(RENDER.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                yield path.name, node


def test_terminal_renderers_take_data_then_the_callers_console():
    seen = 0
    for module, fn in _public_functions():
        params = [a.arg for a in fn.args.args]
        takes_console = "console" in params
        returns = ast.unparse(fn.returns) if fn.returns else None
        if takes_console:
            assert fn.name.startswith("render_"), f"{module}:{fn.name} prints on a console: name it render_*"
            assert params.index("console") == 1, f"{module}:{fn.name}: (data, console, ...) expected, got {params}"
            assert returns == "None", f"{module}:{fn.name} prints, returns {returns}"
            seen += 1
        elif fn.name.startswith("render_"):
            assert returns in ("str", "bytes"), f"{module}:{fn.name}: prints on no console, returns no document"
    assert seen >= 10


def test_no_renderer_makes_its_own_console():
    for path in sorted(RENDER.glob("*.py")):
        if path.name in ("terminal.py", "__init__.py"):  # where make_console lives; the convention's words
            continue
        text = path.read_text()
        assert "make_console(" not in text and "Console(" not in text, path.name
