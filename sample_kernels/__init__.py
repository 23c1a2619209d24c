"""tritonscope's own Triton kernels: one per module, each with a launch, a torch reference and the
launch-time values its compile specialization is derived from (see `_sample.py`).

Importing this package imports nothing heavy; `load(name)` imports one sample (and triton with it).
"""

from __future__ import annotations

import importlib

# Sample name -> module, in the order `tritonscope compile` lists them.
SAMPLE_MODULES: dict[str, str] = {
    "vector_add": "vector_add",
    "softmax": "softmax",
    "matmul": "matmul",
    "gemv": "gemv",
    "gemv_int4": "gemv_int4",
    "layer_norm": "layer_norm",
    "flash_attention": "flash_attention",
    "gluon_mask": "gluon_mask",
    "gluon_mask_auto": "gluon_mask_auto",
    "gluon_axpy": "gluon_axpy",
    "gluon_transpose": "gluon_transpose",
}
# The Gluon samples (@gluon.jit): the warp size their hand-written layouts are for, and the first Triton
# release with every Gluon feature they use (Gluon itself: 3.4; AutoLayout and set_auto_layout: 3.5).
# `compile` and `compile --run` without kernel names build each only where both fit; named, it is tried.
GLUON_SAMPLES: dict[str, tuple[int, tuple[int, int]]] = {
    "gluon_mask": (32, (3, 4)),
    "gluon_mask_auto": (32, (3, 5)),
    "gluon_axpy": (32, (3, 4)),
    "gluon_transpose": (32, (3, 4)),
}


def names() -> list[str]:
    return list(SAMPLE_MODULES)


def fits(name: str, warp_size: int, release: tuple[int, int]) -> bool:
    """Whether sample `name` is written for this warp size and Triton release (always for @triton.jit)."""
    if name not in GLUON_SAMPLES:
        return True
    lanes, since = GLUON_SAMPLES[name]
    return warp_size == lanes and release >= since


def load(name: str):
    """The `Sample` declared by one sample module."""
    module = importlib.import_module(f"{__name__}.{SAMPLE_MODULES[name]}")
    return module.SAMPLE
