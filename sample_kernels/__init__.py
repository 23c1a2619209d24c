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
}


def names() -> list[str]:
    return list(SAMPLE_MODULES)


def load(name: str):
    """The `Sample` declared by one sample module."""
    module = importlib.import_module(f"{__name__}.{SAMPLE_MODULES[name]}")
    return module.SAMPLE
