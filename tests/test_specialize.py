"""The JIT's specialization rules, per release, from launch-time values and from user signatures."""

from __future__ import annotations

import dataclasses

import pytest

from tritonscope.compile.signatures import parse_aot_signature, parse_named_signature
from tritonscope.compile.specialize import ArgSpec, TensorArg, derive_spec, rules_for, specialize_value
from tritonscope.errors import UsageError

R39, R36, R33, R32 = rules_for("3.9.0"), rules_for("3.6.0+git123"), rules_for("3.3.1"), rules_for("3.2.0")


def test_release_table_lookup():
    assert R39.attrs_form == "parse_attr" and R39.ones_become_constexpr and R39.pointer_range_needs_buffer_ops
    assert R39.constexpr_attr_entries and not R36.constexpr_attr_entries and R36.pointer_range_needs_buffer_ops
    assert R33.attrs_form == "parse_attr" and not R33.pointer_range_needs_buffer_ops
    assert R32.attrs_form == "descriptor" and not R32.ones_become_constexpr and R32.bool_type == "i1"
    # 3.0's and 3.1's JIT spell it as 3.2's (a name-keyed signature), with their own AttrsDescriptor
    # (make_ast_source); their keys were checked by replaying each wheel's JIT binder on every sample
    for version in ("3.0.0", "3.1.0"):  # tests/data/compile/triton31_check.md
        assert rules_for(version) == dataclasses.replace(R32, since=(3, 0))
    with pytest.raises(UsageError, match="needs Triton >= 3.0"):
        rules_for("2.3.1")


@pytest.mark.parametrize(("value", "rules", "expected"), [
    (16, R39, ArgSpec("a", "i32", divisible_by_16=True)),
    (17, R39, ArgSpec("a", "i32")),
    (1, R39, ArgSpec("a", "constexpr", 1, equal_to_1=True)),
    (1, R32, ArgSpec("a", "i32", 1, equal_to_1=True)),
    (2**31, R39, ArgSpec("a", "i64", divisible_by_16=True)),
    (2**63 + 16, R39, ArgSpec("a", "u64", divisible_by_16=True)),
    (True, R39, ArgSpec("a", "u1")),
    (True, R32, ArgSpec("a", "i1")),
    (0.5, R39, ArgSpec("a", "fp32")),
    (None, R39, ArgSpec("a", "constexpr", None)),
    (TensorArg((64,), "fp16"), R39, ArgSpec("a", "*fp16", divisible_by_16=True)),
    (TensorArg((64,), "fp16", offset_bytes=8), R39, ArgSpec("a", "*fp16")),
])
def test_specialize_value_cuda(value, rules, expected):
    assert specialize_value("a", value, rules, "cuda") == expected


def test_hip_pointer_range_follows_size_and_buffer_ops():
    small, huge = TensorArg((1024,), "fp32"), TensorArg((2**30,), "fp32")
    assert specialize_value("p", small, R39, "hip").pointer_range_32
    assert not specialize_value("p", huge, R39, "hip").pointer_range_32
    assert not specialize_value("p", small, R39, "hip", amd_buffer_ops=False).pointer_range_32
    assert specialize_value("p", small, R33, "hip", amd_buffer_ops=False).pointer_range_32
    assert not specialize_value("p", small, R39, "cuda").pointer_range_32


def test_not_specialized_values_keep_only_their_type():
    assert specialize_value("n", 1, R39, "cuda", specialize=False) == ArgSpec("n", "i32", specialized=False)
    assert specialize_value("p", TensorArg((4,), "fp16"), R39, "hip", specialize=False) == ArgSpec(
        "p", "*fp16", specialized=False)
    assert specialize_value("n", 32, R39, "cuda", align=False) == ArgSpec("n", "i32")


def test_matches_installed_jit_specialize_impl():
    """Our rules against the installed Triton's own `specialize_impl` (native from 3.5)."""
    libtriton = pytest.importorskip("triton._C.libtriton")
    impl = getattr(libtriton, "native_specialize_impl", None)
    if impl is None:
        pytest.skip("this Triton has no native_specialize_impl")
    import triton
    from triton.backends.amd.compiler import HIPBackend
    from triton.backends.compiler import BaseBackend

    rules = rules_for(triton.__version__)
    values = [0, 1, 15, 16, 48, -16, 2**31 - 16, 2**31, 2**40, True, False, 0.5,
              TensorArg((8,), "fp16"), TensorArg((8,), "fp32", offset_bytes=4), TensorArg((2**31,), "i8"),
              TensorArg((3, 5), "bf16")]
    for backend_cls, backend in ((BaseBackend, "cuda"), (HIPBackend, "hip")):
        for value in values:
            for specialize in (True, False):
                for align in (True, False):
                    ty, key = impl(backend_cls, value, False, specialize, align)
                    ours = specialize_value("a", value, rules, backend, specialize=specialize, align=align)
                    assert ours.type == ty, (backend, value, specialize, align)
                    if ty == "constexpr":
                        assert ours.value == key
                        continue
                    desc = (("D" if ours.divisible_by_16 else "") + ("S" if ours.pointer_range_32 else ""))
                    expected = None if not ours.specialized or ty in ("fp32", "u1") else desc
                    assert key == expected, (backend, value, specialize, align)


def test_derive_spec_from_launch_values():
    spec = derive_spec(["x", "n", "s", "BLOCK"], ["BLOCK"],
                       {"x": TensorArg((100,), "fp16"), "n": 100, "s": 1, "BLOCK": 128}, R39, "cuda",
                       no_specialize=["n"], options={"num_warps": 8})
    assert [(a.name, a.type, a.value) for a in spec.args] == [
        ("x", "*fp16", None), ("n", "i32", None), ("s", "constexpr", 1), ("BLOCK", "constexpr", 128)]
    assert spec.arg("x").divisible_by_16 and not spec.arg("n").specialized
    assert spec.options == {"num_warps": 8}
    with pytest.raises(UsageError, match="unknown argument"):
        derive_spec(["x"], [], {"x": 1, "y": 2}, R39, "cuda")
    with pytest.raises(UsageError, match="no value for argument"):
        derive_spec(["x", "y"], [], {"x": 1}, R39, "cuda")


def test_aot_signature_as_triton_tools_compile():
    names = ["x_ptr", "y_ptr", "n", "stride", "BLOCK"]
    args = parse_aot_signature("*fp16:16, *fp32, i32:16, i32:1, 1024", names, R39)
    assert args == [ArgSpec("x_ptr", "*fp16", divisible_by_16=True), ArgSpec("y_ptr", "*fp32"),
                    ArgSpec("n", "i32", divisible_by_16=True), ArgSpec("stride", "constexpr", 1, equal_to_1=True),
                    ArgSpec("BLOCK", "constexpr", 1024)]
    with pytest.raises(UsageError, match="has 2 entries but the kernel takes 5"):
        parse_aot_signature("*fp16, i32", names, R39)
    with pytest.raises(UsageError, match="a pointer takes only the :16 hint"):
        parse_aot_signature("*fp16:8, *fp32, i32, i32, 4", names, R39)
    with pytest.raises(UsageError, match="only :16 and :1"):
        parse_aot_signature("*fp16, *fp32, i32:8, i32, 4", names, R39)


def test_named_signature_assumes_aligned_tensors():
    names = ["x_ptr", "n", "BLOCK"]
    args = parse_named_signature("x_ptr=*fp16, n=i32", names, {"BLOCK": 64}, R39, "hip")
    assert args == [ArgSpec("x_ptr", "*fp16", divisible_by_16=True, pointer_range_32=True), ArgSpec("n", "i32"),
                    ArgSpec("BLOCK", "constexpr", 64)]
    with pytest.raises(UsageError, match="no type for argument 'n'"):
        parse_named_signature("x_ptr=*fp16", names, {"BLOCK": 64}, R39, "cuda")
    with pytest.raises(UsageError, match="unknown type 'float'"):
        parse_named_signature("x_ptr=*fp16, n=float", names, {"BLOCK": 64}, R39, "cuda")


def test_tensor_placeholder_mirrors_torch():
    t = TensorArg((4, 6, 8), "fp16")
    assert t.stride() == (48, 8, 1) and t.stride(1) == 8
    assert t.numel() == 192 and t.element_size() == 2 and t.ptr_range() == 384
    assert t.data_ptr() % 256 == 0
    with pytest.raises(UsageError, match="unknown element type"):
        TensorArg((4,), "float17")


def test_ast_source_key_equals_the_installed_jits():
    """Replay the installed JIT's own binder (`create_function_from_signature` + `_pack_args`, 3.3+) on each
    sample's launch values: the ASTSource it would compile must have the same cache key as ours."""
    jit = pytest.importorskip("triton.runtime.jit")
    if not hasattr(jit, "create_function_from_signature") or not hasattr(jit.JITFunction, "_pack_args"):
        pytest.skip("this Triton's JIT has another shape")
    from triton.compiler import ASTSource, make_backend
    from triton.experimental.gluon._runtime import GluonASTSource, GluonJITFunction

    from tritonscope.compile.driver import (
        CompileRequest,
        KernelRef,
        installed_rules,
        parse_target,
        placeholder_factory,
        resolve_spec,
        sample_launch,
        sample_names,
    )
    from tritonscope.compile.gluon import source_class
    from tritonscope.compile.specialize import make_ast_source

    checked = 0
    for target in ("cuda:90", "hip:gfx942"):
        t = parse_target(target)
        backend = make_backend(t.gpu_target())
        for name in sample_names(with_variants=True):
            base, _, variant = name.partition("-")
            if variant == "unaligned":  # do_not_specialize: the decorator would have to say so
                continue
            ref = KernelRef(sample=base, variant=variant or None)
            fn, spec = resolve_spec(CompileRequest(ref, t))
            _, launch = sample_launch(ref, placeholder_factory)
            binder = jit.create_function_from_signature(fn.signature, fn.params, backend)
            bound, specialization, options = binder(**launch.args, **launch.options())
            options, signature, constexprs, attrs = fn._pack_args(backend, launch.options(), bound,
                                                                  specialization, options)
            # GluonJITFunction.create_binder swaps in GluonASTSource (create_binder itself needs a GPU)
            theirs_cls = GluonASTSource if isinstance(fn, GluonJITFunction) else ASTSource
            theirs = theirs_cls(fn, signature, constexprs, attrs)
            ours = make_ast_source(fn, spec, backend, installed_rules(), source_class(fn))
            assert ours.hash() == theirs.hash(), (target, name, ours.attrs, theirs.attrs)
            assert ours.signature == theirs.signature
            assert type(ours) is type(theirs) and ours.ext == theirs.ext
            checked += 1
    assert checked == 26  # 8 samples and variants, 5 Gluon ones, on 2 targets


TMA_TRITON = """import triton
import triton.language as tl


@triton.jit
def tma_copy(in_desc, out_desc, n, BM: tl.constexpr):
    pid = tl.program_id(0)
    out_desc.store([pid * BM, 0], in_desc.load([pid * BM, 0]) * 2)
"""

TMA_GLUON = """from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier

# 3.9 names them async_load / async_store; earlier releases async_copy_global_to_shared / _shared_to_global
if not hasattr(tma, "async_load"):
    tma.async_load, tma.async_store = tma.async_copy_global_to_shared, tma.async_copy_shared_to_global


@gluon.jit
def tma_roundtrip(in_desc, out_desc):
    smem = gl.allocate_shared_memory(in_desc.dtype, in_desc.block_type.shape, in_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, in_desc.block_type.nbytes)
    tma.async_load(in_desc, [gl.program_id(0) * 64, 0], bar, smem)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    tma.async_store(out_desc, [gl.program_id(0) * 64, 0], smem)
    tma.store_wait(pendings=0)
"""


def test_tensor_descriptor_arguments_key_as_the_installed_jits(tmp_path):
    """Host TMA descriptors in --signature, written as the JIT writes them (`tensordesc<fp16[64, 64]>`, a
    Gluon one with its NVMMASharedLayout): the ASTSource has the installed JIT binder's cache key for
    real TensorDescriptor objects (before: `unknown type 'tensordesc'`)."""
    jit = pytest.importorskip("triton.runtime.jit")
    if not hasattr(jit, "create_function_from_signature") or not hasattr(jit.JITFunction, "_pack_args"):
        pytest.skip("this Triton's JIT has another shape")
    torch = pytest.importorskip("torch")
    from triton.compiler import ASTSource, make_backend
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon._runtime import GluonASTSource
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor as GluonDescriptor
    from triton.tools.tensor_descriptor import TensorDescriptor

    from tritonscope.compile.driver import CompileRequest, KernelRef, installed_rules, parse_target, resolve_spec
    from tritonscope.compile.gluon import source_class
    from tritonscope.compile.specialize import make_ast_source

    t = parse_target("cuda:90")
    backend = make_backend(t.gpu_target())
    data = torch.empty(256, 64, dtype=torch.float16)
    layout = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)
    (tmp_path / "tk.py").write_text(TMA_TRITON)
    (tmp_path / "gk.py").write_text(TMA_GLUON)
    plain = TensorDescriptor(data, list(data.shape), list(data.stride()), [64, 64])
    gluon = GluonDescriptor.from_tensor(data, [64, 64], layout)
    cases = [("tk.py", "tma_copy", "in_desc=tensordesc<fp16[64,64]>, out_desc=tensordesc<fp16[64, 64]>, n=i32",
              {"in_desc": plain, "out_desc": plain, "n": 7, "BM": 64}, (("BM", 64),), ASTSource),
             ("gk.py", "tma_roundtrip", f"in_desc=tensordesc<fp16[64, 64],{layout!r}>,"
                                        f"out_desc=tensordesc<fp16[64, 64],{layout!r}>",
              {"in_desc": gluon, "out_desc": gluon}, (), GluonASTSource)]
    for file, name, signature, values, constexprs, cls in cases:
        request = CompileRequest(KernelRef(path=str(tmp_path / file), name=name), t, signature=signature,
                                 constexprs=constexprs)
        fn, spec = resolve_spec(request)
        binder = jit.create_function_from_signature(fn.signature, fn.params, backend)
        bound, specialization, options = binder(**values)
        options, sig, consts, attrs = fn._pack_args(backend, {}, bound, specialization, options)
        ours = make_ast_source(fn, spec, backend, installed_rules(), source_class(fn))
        assert ours.signature == sig and ours.hash() == cls(fn, sig, consts, attrs).hash(), (name, ours.signature)
    with pytest.raises(UsageError, match=r"cannot read descriptor type 'tensordesc<fp16\[64\]'"):
        parse_named_signature("d=tensordesc<fp16[64]", ["d"], {}, R39, "cuda")


def test_tensor_descriptor_kernel_cross_compiles_and_reads(cli, tmp_path):
    (tmp_path / "tk.py").write_text(TMA_TRITON)
    proc = cli("compile", f"{tmp_path / 'tk.py'}::tma_copy", "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"),
               "--signature", "in_desc=tensordesc<fp16[64, 64]>,out_desc=tensordesc<fp16[64, 64]>,n=i32",
               "--constexpr", "BM=64")
    assert proc.returncode == 0, proc.stderr
    import json

    doc = json.loads(cli("loads", "tma_copy", "--cache-dir", str(tmp_path / "c"), "--no-sass", "--json").stdout)
    assert {r["kind"] for r in doc["rows"]} >= {"tma_load", "tma_store"}
    assert all(r["verdict"] == "as-predicted" for r in doc["rows"])


LAYOUT_ARG = """from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def copy_with_layout(in_ptr, out_ptr, n, XBLOCK: gl.constexpr, layout: gl.constexpr):
    offs = gl.program_id(0) * XBLOCK + gl.arange(0, XBLOCK, layout=layout)
    gl.store(out_ptr + offs, gl.load(in_ptr + offs, mask=offs < n), mask=offs < n)
"""


def test_gluon_layout_constexpr_keys_as_the_installed_jits(tmp_path, cli):
    """Triton's Gluon tutorials pass layouts as constexpr arguments (02-layouts' memcpy_1d_kernel):
    `--constexpr layout='gl.BlockedLayout(...)'` builds the object a launch passes, with the JIT
    binder's cache key (before: the string itself, a different kernel)."""
    jit = pytest.importorskip("triton.runtime.jit")
    if not hasattr(jit, "create_function_from_signature") or not hasattr(jit.JITFunction, "_pack_args"):
        pytest.skip("this Triton's JIT has another shape")
    from triton.compiler import make_backend
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon._runtime import GluonASTSource

    from tritonscope.compile.driver import CompileRequest, KernelRef, installed_rules, parse_target, resolve_spec
    from tritonscope.compile.specialize import make_ast_source

    (tmp_path / "lk.py").write_text(LAYOUT_ARG)
    t = parse_target("cuda:90")
    backend = make_backend(t.gpu_target())
    text = "gl.BlockedLayout([4], [32], [4], [0])"
    request = CompileRequest(KernelRef(path=str(tmp_path / "lk.py"), name="copy_with_layout"), t,
                             signature="in_ptr=*fp32,out_ptr=*fp32,n=i32",
                             constexprs=(("XBLOCK", 512), ("layout", text)))
    fn, spec = resolve_spec(request)
    binder = jit.create_function_from_signature(fn.signature, fn.params, backend)
    torch = pytest.importorskip("torch")
    x = torch.empty(1024)
    bound, specialization, options = binder(x, x, 1000, 512, gl.BlockedLayout([4], [32], [4], [0]))
    _, sig, consts, attrs = fn._pack_args(backend, {}, bound, specialization, options)
    ours = make_ast_source(fn, spec, backend, installed_rules(), GluonASTSource)
    assert ours.hash() == GluonASTSource(fn, sig, consts, attrs).hash()
    bad = cli("compile", f"{tmp_path / 'lk.py'}::copy_with_layout", "--target", "cuda:90", "--cache-dir",
              str(tmp_path / "c"), "--signature", "in_ptr=*fp32,out_ptr=*fp32,n=i32", "--constexpr", "XBLOCK=512",
              "--constexpr", "layout=gl.NoSuchLayout([4])")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert "--constexpr 'gl.NoSuchLayout([4])': AttributeError" in bad.stderr
