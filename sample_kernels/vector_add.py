"""Masked vector add: out = x + y, one block of BLOCK elements per program."""

import triton
import triton.language as tl

from ._sample import Launch, Sample


@triton.jit
def add_kernel(
    x_ptr,
    y_ptr,
    out_ptr,
    n_elements,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    # The last block runs past the end: mask the tail.
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def launch(new, n_elements: int = 98432) -> Launch:
    x = new((n_elements,), "fp16")
    y = new((n_elements,), "fp16")
    out = new((n_elements,), "fp16", "empty")
    BLOCK = 1024
    return Launch(
        args={"x_ptr": x, "y_ptr": y, "out_ptr": out, "n_elements": n_elements, "BLOCK": BLOCK},
        grid=(triton.cdiv(n_elements, BLOCK),),
        outputs=("out_ptr",),
        num_warps=4,
    )


def reference(args):
    return {"out_ptr": args["x_ptr"] + args["y_ptr"]}


SAMPLE = Sample(
    name="vector_add",
    description="masked vector add, fp16",
    kernel=add_kernel,
    launch=launch,
    reference=reference,
    interpreter_sizes={"n_elements": 5000},
)
