"""Gluon: out = alpha * x + y in fp16, with a hand-chosen `size_per_thread`.

SPT consecutive elements per thread: 8 fp16 make one 16-byte vector per load and store. The `spt1`
variant writes `size_per_thread=[1]`: each thread then holds 8 elements 128 apart, and every access is
2 bytes wide (`tritonscope loads` says so, and which size_per_thread would give full vectors).
"""

import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

from ._sample import Launch, Sample, Variant


@gluon.jit
def gluon_axpy_kernel(x_ptr, y_ptr, out_ptr, n_elements, alpha, BLOCK: gl.constexpr, SPT: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout(size_per_thread=[SPT], threads_per_warp=[32], warps_per_cta=[4],
                                            order=[0])
    offsets = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=layout)
    mask = offsets < n_elements
    x = gl.load(x_ptr + offsets, mask=mask)
    y = gl.load(y_ptr + offsets, mask=mask)
    out = x.to(gl.float32) * alpha + y.to(gl.float32)
    gl.store(out_ptr + offsets, out.to(gl.float16), mask=mask)


def launch(new, n_elements: int = 98432, spt: int = 8) -> Launch:
    x = new((n_elements,), "fp16")
    y = new((n_elements,), "fp16")
    out = new((n_elements,), "fp16", "empty")
    BLOCK = 1024
    return Launch(
        args={"x_ptr": x, "y_ptr": y, "out_ptr": out, "n_elements": n_elements, "alpha": 0.5, "BLOCK": BLOCK,
              "SPT": spt},
        grid=(triton.cdiv(n_elements, BLOCK),),
        outputs=("out_ptr",),
        num_warps=4,
    )


def reference(args):
    return {"out_ptr": (args["x_ptr"].float() * args["alpha"] + args["y_ptr"].float()).half()}


SAMPLE = Sample(
    name="gluon_axpy",
    description="Gluon: fp16 alpha*x + y, size_per_thread=[8] chosen by hand (16-byte vectors)",
    kernel=gluon_axpy_kernel,
    launch=launch,
    reference=reference,
    variants={
        "spt1": Variant("size_per_thread=[1]: every access 2 bytes wide", sizes={"spt": 1}),
    },
)
