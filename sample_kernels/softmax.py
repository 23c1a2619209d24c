"""Row-wise fused softmax: one program per row, the whole row in registers."""

import triton
import triton.language as tl

from ._sample import Launch, Sample


@triton.jit
def softmax_kernel(
    out_ptr,
    in_ptr,
    in_row_stride,
    out_row_stride,
    n_cols,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    # Padding lanes read -inf so that they vanish from the max and the sum.
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    x_max = tl.max(x, axis=0)
    numerator = tl.exp(x - x_max)
    denominator = tl.sum(numerator, axis=0)
    y = numerator / denominator
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


def launch(new, n_rows: int = 1823, n_cols: int = 781) -> Launch:
    x = new((n_rows, n_cols), "fp32")
    out = new((n_rows, n_cols), "fp32", "empty")
    return Launch(
        args={"out_ptr": out, "in_ptr": x, "in_row_stride": x.stride(0), "out_row_stride": out.stride(0),
              "n_cols": n_cols, "BLOCK": triton.next_power_of_2(n_cols)},
        grid=(n_rows,),
        outputs=("out_ptr",),
        num_warps=4,
    )


def reference(args):
    import torch

    return {"out_ptr": torch.softmax(args["in_ptr"], dim=1)}


SAMPLE = Sample(
    name="softmax",
    description="row-wise fused softmax, fp32",
    kernel=softmax_kernel,
    launch=launch,
    reference=reference,
    atol=1e-5,
    rtol=1e-4,
    interpreter_sizes={"n_rows": 37, "n_cols": 781},
)
