"""Cross-compile kernels2x.py with the Triton 2.x on sys.path, without a GPU, into $TRITON_CACHE_DIR:
add, softmax and dot kernels for cuda:80 and cuda:90 (2.0's cache key ignores the target: one entry each).

    TRITON_CACHE_DIR=/tmp/tritonscope-fixtures/cache-2.2 venv-2.2/bin/python make.py

Each release builds the kernel's C launcher after writing the stages; that needs CUDA's driver library, so
the launcher build is skipped (2.0 and 2.1 build it before writing the metadata, 2.2 after): the cache
holds what a GPU machine's would, less the launcher's own entry."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton  # noqa: E402

if triton.__version__.startswith("2.0"):
    import triton.compiler as compiler
else:
    import triton.compiler.compiler as compiler
compiler.make_stub = lambda *a, **k: "/nonexistent/launcher.so"

from kernels2x import add_kernel, dot_kernel, softmax_kernel  # noqa: E402

KERNELS = [
    (add_kernel, "*fp16,*fp16,*fp16,i32", {"BLOCK": 1024}),
    (softmax_kernel, "*fp32,*fp32,i32,i32", {"BLOCK": 1024}),
    (dot_kernel, "*fp16,*fp16,*fp16,i32,i32,i32,i32", {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}),
]
for cc in (80, 90):
    for fn, sig, consts in KERNELS:
        names = fn.arg_names
        signature = {i: t for i, t in enumerate(sig.split(","))}
        try:
            triton.compile(fn, signature=signature, constants={names.index(k): v for k, v in consts.items()},
                           num_warps=4, cc=cc, device_type="cuda")
        except ImportError:  # the launcher that was not built
            pass
        print(triton.__version__, fn.__name__, cc)
