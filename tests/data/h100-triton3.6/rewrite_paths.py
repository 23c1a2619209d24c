"""Make a recorded cache entry path-free: the recording machine's checkout path becomes an equally long
`/checkout0…/` in every file, binaries included (same length: the CUBIN's DWARF and ELF layout stay
valid). Run once on a copied entry: `python rewrite_paths.py ENTRY_DIR CHECKOUT_PATH/` (the path as the
IR names it, with its trailing slash; this entry's became `/checkout0/`)."""

import sys
from pathlib import Path

OLD = sys.argv[2].encode()
assert OLD.startswith(b"/") and OLD.endswith(b"/") and len(OLD) >= len(b"/checkout0/"), OLD
NEW = b"/checkout" + b"0" * (len(OLD) - len(b"/checkout/")) + b"/"
assert len(OLD) == len(NEW)

for f in Path(sys.argv[1]).iterdir():
    data = f.read_bytes()
    if OLD in data:
        f.write_bytes(data.replace(OLD, NEW))
