"""tritonscope: inspect the artifacts of the Triton GPU compiler."""

import gc

__version__ = "0.1.0"

# Cyclic collection thresholds for a tritonscope process (the CLI and its pool workers): a whole-cache
# command allocates tens of millions of short-lived objects that form no cycles (ops, lines, tokens);
# CPython's default (700, 10, 10) ran ~1,300 collections over them, 8-9% of a cold `snapshot` of 454
# real entries, against ~15 collections and ~2% with these. Cycles still get collected.
GC_THRESHOLDS = (100_000, 20, 100)


def relax_gc() -> None:
    """Collect cyclic garbage less often in this process (GC_THRESHOLDS); never more often than now."""
    current = gc.get_threshold()
    if current[0] and current[0] < GC_THRESHOLDS[0]:
        gc.set_threshold(*GC_THRESHOLDS)
