"""Replay Triton 3.1's JIT (runtime/jit.py `JITFunction.run`: binder, `_get_config`, signature, constants) on
each sample's launch values, without a GPU, and compare the ASTSource it would compile with tritonscope's.

Run with the python of a venv holding triton==3.1.0 and tritonscope (see triton31_check.md)."""

from triton.compiler import ASTSource, make_backend

from tritonscope.compile.driver import (
    CompileRequest,
    KernelRef,
    installed_rules,
    parse_target,
    placeholder_factory,
    resolve_spec,
    sample_launch,
)
from tritonscope.compile.specialize import make_ast_source

SAMPLES = ["vector_add", "softmax", "matmul", "gemv", "gemv-kmask", "gemv_int4", "layer_norm", "flash_attention"]
TORCH = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "i8": "int8", "i16": "int16", "i32": "int32",
         "i64": "int64", "u8": "uint8", "i1": "bool", "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}


class Dtype:
    def __init__(self, name: str):
        self.name = name

    def __str__(self) -> str:
        return "torch." + self.name


class FakeTensor:
    """What 3.1's JIT reads of a tensor: its dtype's name and its data pointer."""

    def __init__(self, placeholder):
        self.dtype = Dtype(TORCH[placeholder.dtype])
        self.offset = getattr(placeholder, "offset_bytes", 0)

    def data_ptr(self) -> int:
        return (1 << 20) + self.offset


def main() -> None:
    same = 0
    for target in ("cuda:90", "hip:gfx942"):
        t = parse_target(target)
        backend = make_backend(t.gpu_target())
        for name in SAMPLES:
            base, _, variant = name.partition("-")
            ref = KernelRef(sample=base, variant=variant or None)
            fn, spec = resolve_spec(CompileRequest(ref, t))
            _, launch = sample_launch(ref, placeholder_factory)
            if fn.binder is None:
                fn.create_binder()
            args = {k: FakeTensor(v) if hasattr(v, "shape") else v for k, v in launch.args.items()}
            bound_args, sig_and_spec, _, _, _ = fn.binder(**args, **launch.options())
            bound = tuple(bound_args.values())
            keys = [fn.params[i].name for i in fn.non_constexpr_indices]
            signature = {k: ("*i8" if v == "none" else v) for k, v in zip(keys, sig_and_spec[:len(keys)], strict=True)}
            config = fn._get_config(*bound)
            constants = {p.name: v for v, p in zip(bound, fn.params, strict=True)
                         if p.is_constexpr or p.num in config.equal_to_1 or v is None}
            theirs = ASTSource(fn, signature, constants, config)
            ours = make_ast_source(fn, spec, backend, installed_rules())
            verdict = "same" if ours.hash() == theirs.hash() else f"DIFFERENT: {ours.attrs} vs {theirs.attrs}"
            print(target, name, verdict)
            same += ours.hash() == theirs.hash()
    print(f"{same} of {2 * len(SAMPLES)} keys equal")


if __name__ == "__main__":
    main()
