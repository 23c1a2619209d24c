"""PNG pictures of layouts with the standard library only (zlib + struct), no imaging package.

Cells are filled with the warp's colour and labelled with the thread number (top) and register (bottom)
in a built-in 3x5 pixel font: small, but readable when zoomed, and always available.
"""

from __future__ import annotations

import struct
import zlib

from tritonscope.layouts.views import LayoutGrid
from tritonscope.render.layout import cell_colour, cell_lines

# 3x5 glyphs, rows top to bottom, 3 bits each (MSB = left column).
GLYPHS = {
    "0": (7, 5, 5, 5, 7),
    "1": (2, 6, 2, 2, 7),
    "2": (7, 1, 7, 4, 7),
    "3": (7, 1, 7, 1, 7),
    "4": (5, 5, 7, 1, 1),
    "5": (7, 4, 7, 1, 7),
    "6": (7, 4, 7, 5, 7),
    "7": (7, 1, 1, 1, 1),
    "8": (7, 5, 7, 5, 7),
    "9": (7, 5, 7, 1, 7),
    "r": (0, 6, 4, 4, 4),
    "T": (7, 2, 2, 2, 2),
    "@": (7, 5, 7, 4, 7),
    "+": (0, 2, 7, 2, 0),
    "-": (0, 0, 7, 0, 0),
    "b": (4, 4, 7, 5, 7),
    "L": (4, 4, 4, 4, 7),
    "c": (0, 0, 7, 4, 7),
}
SCALE = 2
CELL_W, CELL_H = 4 * 7 * SCALE, 14 * SCALE  # room for 7 glyphs per line, 2 lines


def _hex(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def grid_png(grid: LayoutGrid) -> bytes:
    rows, cols = len(grid.cells), max((len(r) for r in grid.cells), default=0)
    width, height = max(1, cols * CELL_W), max(1, rows * CELL_H)
    pixels = [bytearray(b"\xff\xff\xff" * width) for _ in range(height)]

    def fill(x0: int, y0: int, w: int, h: int, rgb: tuple[int, int, int]) -> None:
        for y in range(y0, min(y0 + h, height)):
            line = pixels[y]
            for xx in range(x0, min(x0 + w, width)):
                line[3 * xx : 3 * xx + 3] = bytes(rgb)

    def text(x0: int, y0: int, s: str) -> None:
        for k, ch in enumerate(s):
            glyph = GLYPHS.get(ch)
            if glyph is None:
                continue
            for gy, bits in enumerate(glyph):
                for gx in range(3):
                    if bits >> (2 - gx) & 1:
                        fill(x0 + (k * 4 + gx) * SCALE, y0 + gy * SCALE, SCALE, SCALE, (0, 0, 0))

    for i, row in enumerate(grid.cells):
        for j, cell in enumerate(row):
            owner = cell.first
            if owner is None:
                rgb = (238, 238, 238)
            else:
                rgb = _hex(cell_colour(grid, owner))
            x0, y0 = j * CELL_W, i * CELL_H
            fill(x0, y0, CELL_W - 1, CELL_H - 1, rgb)
            top, bottom = cell_lines(grid, cell)
            text(x0 + SCALE, y0 + SCALE, top[:7])
            if bottom:
                text(x0 + SCALE, y0 + 7 * SCALE, bottom[:7])
    raw = b"".join(b"\x00" + bytes(line) for line in pixels)
    return _png(width, height, raw)


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
