"""A kernel in a file named utils.py whose helper lives in another utils.py (../b/utils.py): the IR names
two files with one basename (tests/test_same_basename.py)."""

import importlib.util
import os

import triton
import triton.language as tl

_path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "b", "utils.py"))
_spec = importlib.util.spec_from_file_location("samebase_b_utils", _path)
_helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_helpers)
scaled_load = _helpers.scaled_load


@triton.jit
def scaled_copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = scaled_load(x_ptr, offs, mask)
    tl.store(y_ptr + offs, x, mask=mask)
