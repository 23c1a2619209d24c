"""Renderers: plain data in, terminal text / JSON / HTML / SVG out. No analysis here."""
