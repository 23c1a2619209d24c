"""Make a recorded cache entry path-free: the GPU machine's checkout path `/work/main/` becomes the
equally long `/checkout0/` in every file, binaries included (same length: the CUBIN's DWARF and ELF
layout stay valid). Run once on a copied entry: `python rewrite_paths.py ENTRY_DIR`."""

import sys
from pathlib import Path

OLD, NEW = b"/work/main/", b"/checkout0/"
assert len(OLD) == len(NEW)

for f in Path(sys.argv[1]).iterdir():
    data = f.read_bytes()
    if OLD in data:
        f.write_bytes(data.replace(OLD, NEW))
