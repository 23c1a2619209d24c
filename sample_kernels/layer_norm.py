"""Layer norm forward: one program per row; mean and variance in a first pass, normalize in a second."""

import triton
import triton.language as tl

from ._sample import Launch, Sample


@triton.jit
def layer_norm_kernel(
    x_ptr,
    y_ptr,
    w_ptr,
    b_ptr,
    mean_ptr,
    rstd_ptr,
    stride,
    N,
    eps,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride

    # First pass: the row's mean and variance, accumulated in fp32 BLOCK columns at a time.
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc_var = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        diff = tl.where(cols < N, x - mean, 0.0)
        acc_var += diff * diff
    rstd = 1 / tl.sqrt(tl.sum(acc_var, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)

    # Second pass: normalize, scale and shift.
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_ptr + cols, y.to(tl.float16), mask=mask)


def launch(new, M: int = 1151, N: int = 8192) -> Launch:
    x = new((M, N), "fp16")
    y = new((M, N), "fp16", "empty")
    w = new((N,), "fp16")
    b = new((N,), "fp16")
    mean = new((M,), "fp32", "empty")
    rstd = new((M,), "fp32", "empty")
    return Launch(
        args={"x_ptr": x, "y_ptr": y, "w_ptr": w, "b_ptr": b, "mean_ptr": mean, "rstd_ptr": rstd,
              "stride": x.stride(0), "N": N, "eps": 1e-5, "BLOCK": 1024},
        grid=(M,),
        outputs=("y_ptr", "mean_ptr", "rstd_ptr"),
        num_warps=8,
    )


def reference(args):
    import torch

    x, N = args["x_ptr"].float(), args["N"]
    y = torch.nn.functional.layer_norm(x, (N,), args["w_ptr"].float(), args["b_ptr"].float(), args["eps"])
    var, mean = torch.var_mean(x, dim=1, correction=0)
    return {"y_ptr": y.half(), "mean_ptr": mean, "rstd_ptr": 1 / torch.sqrt(var + args["eps"])}


SAMPLE = Sample(
    name="layer_norm",
    description="layer norm forward, fp16 in/out, fp32 statistics",
    kernel=layer_norm_kernel,
    launch=launch,
    reference=reference,
    atol=1e-2,
    rtol=1e-2,
    interpreter_sizes={"M": 16, "N": 1500},
)
