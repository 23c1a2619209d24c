"""Renderers: plain data in, terminal text / JSON / HTML / SVG out. No analysis here.

One convention (tests/test_render_convention.py holds every renderer to it):
- a terminal renderer is `render_<what>(data, console, ...) -> None`: it prints `data` on a Console its
  caller made (the command owns the console: `render.terminal.make_console()`, or a recording one in a
  test); no renderer makes its own;
- a document renderer (`render_text`, `render_markdown`, the HTML pages, SVG, PNG) returns the document
  as a `str` (or `bytes`) and writes nothing.
"""
