"""The helper of ../a/utils.py, in a file of the same name. Its load sits on line 22, the line of the
kernel's store in ../a/utils.py."""

import triton
import triton.language as tl

# (lines kept so that the load below lands on the kernel file's store line)
#
#
#
#
#
#
#
#
#
#


@triton.jit
def scaled_load(ptr, offs, mask):
    return tl.load(ptr + offs, mask=mask) * 2
