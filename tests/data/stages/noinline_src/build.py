"""Regenerate tests/data/stages/noinline: a Triton cache entry whose PTX has a `.func` noinline helper.

Run from /tmp/tritonscope-fixtures (the path the IR records) with Triton 3.9 installed:
    TRITON_CACHE_DIR=/tmp/tritonscope-fixtures/cache python build.py
then copy the one entry directory of ./cache to tests/data/stages/noinline/.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import noinline_kernels as k  # noqa: E402
import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

src = ASTSource(fn=k.noinline_kernel, signature={"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                                 "BLOCK": "constexpr"}, constexprs={"BLOCK": 256})
triton.compile(src, target=GPUTarget("cuda", 80, 32))
