"""Specialization exactly as the installed Triton's JIT would derive it, and the ASTSource that carries it.

A launch through the JIT turns every argument value into a type and a few hints: a pointer whose address
is a multiple of 16 gets `tt.divisibility = 16`, so does an integer that is a multiple of 16, an integer
equal to 1 becomes a constant, and on AMD a tensor smaller than 2 GiB gets `tt.pointer_range = 32`.
Cross-compiling is only trustworthy when it reproduces those hints, so `derive_spec` applies the JIT's
rules to launch-time values (real tensors or `TensorArg` placeholders), and `make_ast_source` hands them to
`ASTSource` in the form the installed release expects.

Everything that differs between releases sits in `RELEASE_RULES` below; nothing else here asks for a
version. Triton is imported only inside the functions that need it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tritonscope.errors import UsageError

# Triton's element type names, with the byte sizes a placeholder tensor needs.
ELEMENT_BYTES: dict[str, int] = {
    "fp8e4nv": 1,
    "fp8e5": 1,
    "fp8e4b15": 1,
    "fp8e4b8": 1,
    "fp8e5b16": 1,
    "i8": 1,
    "u8": 1,
    "i1": 1,
    "u1": 1,  # a bool tensor's element from 3.4 on (`"bool": "u1"`)
    "fp16": 2,
    "bf16": 2,
    "i16": 2,
    "u16": 2,
    "fp32": 4,
    "i32": 4,
    "u32": 4,
    "fp64": 8,
    "i64": 8,
    "u64": 8,
}
# torch dtype names (str(torch.float16) == 'torch.float16') -> Triton's names; as the JIT canonicalizes.
TORCH_TO_TRITON_DTYPE: dict[str, str] = {
    "float16": "fp16",
    "bfloat16": "bf16",
    "float32": "fp32",
    "float64": "fp64",
    "int8": "i8",
    "uint8": "u8",
    "int16": "i16",
    "uint16": "u16",
    "int32": "i32",
    "uint32": "u32",
    "int64": "i64",
    "uint64": "u64",
    "bool": "i1",
    "float8_e4m3fn": "fp8e4nv",
    "float8_e5m2": "fp8e5",
    "float8_e4m3fnuz": "fp8e4b8",
    "float8_e5m2fnuz": "fp8e5b16",
}
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
_MAX_POINTER_RANGE_32 = 2**31 - 1



@dataclass(frozen=True)
class ReleaseRules:
    """How one range of Triton releases spells a specialization (see the table below)."""

    since: tuple[int, int]
    # 'descriptor': AttrsDescriptor object, signature without constexprs, equal_to_1 ints stay typed
    # 'parse_attr': {(index,): backend.parse_attr("D")} dict, constexprs in the signature as 'constexpr'
    attrs_form: str
    ones_become_constexpr: bool  # the JIT turns an int == 1 into ("constexpr", 1) in the signature
    bool_type: str  # what the JIT calls a Python bool argument
    # AMD's `tt.pointer_range = 32` for tensors under 2 GiB: only when the buffer-ops knob is on
    pointer_range_needs_buffer_ops: bool
    # 'parse_attr' form: every constexpr gets an empty attrs entry (part of the cache key, not of the IR)
    constexpr_attr_entries: bool
    # what the JIT calls a torch.bool tensor's elements (`*u1` from 3.4: _utils.type_canonicalisation_dict)
    bool_tensor_type: str = "i1"


# Newest first; columns as in ReleaseRules. 3.0's and 3.1's JIT (runtime/jit.py, the same code in both
# wheels) key the signature by name as 3.2's does, with their own AttrsDescriptor(divisible_by_16,
# equal_to_1) of parameter indices (tests/data/compile/triton31_check.md); 2.x: not checked, not supported.
# The 3.9 row was read in 3.9.0's JITFunction._pack_args; 3.6.0 still had no constexpr
# entries (checked on a GPU); 3.7 and 3.8 are assumed to be like 3.6. tests/test_specialize.py replays
# the installed JIT's own binder to catch a wrong row. Bool tensors: `"bool": "i1"` in 3.0.0's to 3.3.1's
# runtime/jit.py, `"bool": "u1"` in 3.4.0's _utils.py (read in the wheels).
# fmt: off
RELEASE_RULES: tuple[ReleaseRules, ...] = (
    #            since   attrs_form     ones->constexpr bool  range needs buffer ops  constexpr entries  bool tensor
    ReleaseRules((3, 9), "parse_attr",  True,           "u1", True,                   True,              "u1"),
    ReleaseRules((3, 4), "parse_attr",  True,           "u1", True,                   False,             "u1"),
    ReleaseRules((3, 3), "parse_attr",  True,           "u1", False,                  False,             "i1"),
    ReleaseRules((3, 2), "descriptor",  False,          "i1", False,                  False,             "i1"),
    ReleaseRules((3, 0), "descriptor",  False,          "i1", False,                  False,             "i1"),
)
# fmt: on
MIN_RELEASE = RELEASE_RULES[-1].since


def parse_version(text: str) -> tuple[int, int]:
    m = re.match(r"(\d+)\.(\d+)", text)
    if not m:
        raise UsageError(f"cannot read a Triton version from '{text}'")
    return int(m.group(1)), int(m.group(2))


def rules_for(version: str) -> ReleaseRules:
    v = parse_version(version)
    for rules in RELEASE_RULES:
        if v >= rules.since:
            return rules
    raise UsageError(
        f"tritonscope compile needs Triton >= {MIN_RELEASE[0]}.{MIN_RELEASE[1]} (installed: {version})"
    )


@dataclass(frozen=True)
class TensorArg:
    """A tensor as a launch would pass it, without allocating it: what the JIT looks at is the dtype,
    the address (torch allocations are 256-byte aligned; `offset_bytes` models a view into one) and
    the size of the storage (AMD's 2 GiB test)."""

    shape: tuple[int, ...]
    dtype: str  # Triton name: fp16, fp32, i32, ...
    offset_bytes: int = 0

    def __post_init__(self) -> None:
        if self.dtype not in ELEMENT_BYTES:
            raise UsageError(
                f"unknown element type '{self.dtype}' (known: {', '.join(sorted(ELEMENT_BYTES))})"
            )

    def numel(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def element_size(self) -> int:
        return ELEMENT_BYTES[self.dtype]

    def stride(self, dim: int | None = None):
        strides, acc = [], 1
        for size in reversed(self.shape):
            strides.append(acc)
            acc *= size
        strides = tuple(reversed(strides))
        return strides if dim is None else strides[dim]

    def data_ptr(self) -> int:
        return 1 << 40 | self.offset_bytes

    def ptr_range(self) -> int:
        return self.numel() * self.element_size()


@dataclass(frozen=True)
class ArgSpec:
    """One kernel argument after specialization."""

    name: str
    type: str  # '*fp16', 'i32', 'fp32', 'u1', or 'constexpr'
    value: Any = None  # the constant, for 'constexpr' (and for 3.2's equal_to_1 ints)
    divisible_by_16: bool = False  # tt.divisibility = 16
    equal_to_1: bool = False  # an int launched with value 1
    pointer_range_32: bool = False  # tt.pointer_range = 32 (AMD)
    specialized: bool = True  # False: the JIT's do_not_specialize (no attribute entry at all)

    @property
    def is_constexpr(self) -> bool:
        return self.type == "constexpr"

    def hints(self) -> list[str]:
        out = []
        if self.divisible_by_16:
            out.append("tt.divisibility=16")
        if self.pointer_range_32:
            out.append("tt.pointer_range=32")
        if self.equal_to_1:
            out.append("equal_to_1")
        if not self.specialized:
            out.append("not specialized")
        return out


@dataclass(frozen=True)
class KernelSpec:
    """Everything `triton.compile` needs besides the function and the target."""

    args: tuple[ArgSpec, ...]
    options: Mapping[str, Any] = field(
        default_factory=dict
    )  # num_warps, num_stages, ... (absent: JIT default)

    def arg(self, name: str) -> ArgSpec:
        for a in self.args:
            if a.name == name:
                return a
        raise UsageError(f"no argument '{name}' (arguments: {', '.join(a.name for a in self.args)})")

    @property
    def constexprs(self) -> dict[str, Any]:
        return {a.name: a.value for a in self.args if a.is_constexpr}

    def to_json(self) -> dict:
        return {
            "args": [
                {
                    "name": a.name,
                    "type": a.type,
                    "value": _plain(a.value) if a.is_constexpr else None,
                    "hints": a.hints(),
                }
                for a in self.args
            ],
            "options": dict(self.options),
        }


def _plain(value: Any) -> Any:
    """A constexpr's value as JSON holds it, what `--json` prints: numbers, strings and lists of them as they
    are, anything else (a dtype, a JIT function, a class such as a Gluon aggregate) as its text. (The result
    crosses from a compile worker by pickle: a class defined inside a function would not.)"""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def dtype_name(dtype: Any) -> str:
    """Triton's name for a torch dtype, a Triton dtype or a name."""
    text = str(dtype).split(".")[-1]
    if text in ELEMENT_BYTES:
        return text
    if text in TORCH_TO_TRITON_DTYPE:
        return TORCH_TO_TRITON_DTYPE[text]
    raise UsageError(f"unknown tensor dtype '{dtype}'")


def _int_type(value: int) -> str:
    if _INT32_MIN <= value <= _INT32_MAX:
        return "i32"
    if 2**63 <= value <= 2**64 - 1:
        return "u64"
    return "i64"


def _within_2gb(value: Any) -> bool:
    if hasattr(value, "ptr_range"):
        return value.ptr_range() <= _MAX_POINTER_RANGE_32
    if hasattr(value, "untyped_storage"):  # a torch tensor
        return value.untyped_storage().size() <= _MAX_POINTER_RANGE_32
    return False


def specialize_value(
    name: str,
    value: Any,
    rules: ReleaseRules,
    backend: str,
    *,
    specialize: bool = True,
    align: bool = True,
    amd_buffer_ops: bool = True,
    is_const: bool = False,
) -> ArgSpec:
    """The JIT's rule for one non-constexpr argument value (`specialize_impl` in runtime/jit.py)."""
    if value is None:
        return ArgSpec(name, "constexpr", None)
    if isinstance(value, bool):
        return ArgSpec(name, rules.bool_type)
    if isinstance(value, int):
        if not specialize:
            return ArgSpec(name, _int_type(value), specialized=False)
        if value == 1 and rules.ones_become_constexpr:
            return ArgSpec(name, "constexpr", 1, equal_to_1=True)
        return ArgSpec(
            name,
            _int_type(value),
            1 if value == 1 else None,
            divisible_by_16=align and value % 16 == 0,
            equal_to_1=value == 1,
        )
    if isinstance(value, float):
        return ArgSpec(name, "fp32")
    if hasattr(value, "data_ptr"):
        element = dtype_name(value.dtype)
        ty = ("*k" if is_const else "*") + (rules.bool_tensor_type if element == "i1" else element)
        if not specialize:
            return ArgSpec(name, ty, specialized=False)
        buffer_ops = amd_buffer_ops or not rules.pointer_range_needs_buffer_ops
        # 3.2 leaves the range hint off for arguments marked do_not_specialize_on_alignment as well.
        range_ok = align or rules.attrs_form != "descriptor"
        return ArgSpec(
            name,
            ty,
            divisible_by_16=align and value.data_ptr() % 16 == 0,
            pointer_range_32=backend == "hip" and buffer_ops and range_ok and _within_2gb(value),
        )
    raise UsageError(f"argument '{name}': cannot specialize a value of type {type(value).__name__}")


def unknown_arguments(unknown: set[str], arg_names: list[str]) -> UsageError:
    """Names given that the kernel does not take, and those it does (every signature notation says it so)."""
    takes = ", ".join(arg_names) if arg_names else "no arguments"
    return UsageError(f"unknown argument(s) {', '.join(sorted(unknown))}; the kernel takes {takes}")


def derive_spec(
    arg_names: Iterable[str],
    constexpr_names: Iterable[str],
    values: Mapping[str, Any],
    rules: ReleaseRules,
    backend: str,
    *,
    no_specialize: Iterable[str] = (),
    no_align: Iterable[str] = (),
    amd_buffer_ops: bool = True,
    options: Mapping[str, Any] | None = None,
) -> KernelSpec:
    """Specialize every argument from its launch-time value, as a launch through the JIT would.

    `no_specialize` / `no_align` are the JIT's `do_not_specialize` / `do_not_specialize_on_alignment`
    (the decorator's lists and the command line's `--no-specialize` together).
    """
    arg_names = list(arg_names)
    constexpr_names, no_specialize, no_align = set(constexpr_names), set(no_specialize), set(no_align)
    unknown = (set(values) | no_specialize | no_align) - set(arg_names)
    if unknown:
        raise unknown_arguments(unknown, arg_names)
    missing = [n for n in arg_names if n not in values]
    if missing:
        raise UsageError(f"no value for argument(s) {', '.join(missing)}")
    args = []
    for name in arg_names:
        value = values[name]
        if name in constexpr_names:
            args.append(ArgSpec(name, "constexpr", value))
            continue
        args.append(
            specialize_value(
                name,
                value,
                rules,
                backend,
                specialize=name not in no_specialize,
                align=name not in no_align,
                amd_buffer_ops=amd_buffer_ops,
            )
        )
    return KernelSpec(tuple(args), dict(options or {}))


def without_specialization(spec: KernelSpec, names: Iterable[str]) -> KernelSpec:
    """`--no-specialize NAME` applied to an already derived spec (user signatures)."""
    names = set(names)
    for n in names:
        spec.arg(n)
    args = tuple(
        replace(a, divisible_by_16=False, pointer_range_32=False, equal_to_1=False, specialized=False)
        if a.name in names and not a.is_constexpr
        else a
        for a in spec.args
    )
    return replace(spec, args=args)


# ---- handing the spec to Triton --------------------------------------------------------------------


def _attr_desc(arg: ArgSpec) -> str:
    return ("D" if arg.divisible_by_16 else "") + ("S" if arg.pointer_range_32 else "")


def _attr_entry(arg: ArgSpec, rules: ReleaseRules) -> str | None:
    """The JIT's attribute string for one argument (None: no entry), as its `_pack_args` builds it."""
    if arg.is_constexpr:
        if rules.constexpr_attr_entries:
            return ""
        # Before 3.9 the constexpr's value stood in the attribute slot, kept only where it is a str.
        return arg.value if isinstance(arg.value, str) else None
    if not arg.specialized or arg.type in ("u1", "i1") or not (arg.type.startswith("*") or arg.type[0] in "iu"):
        return None
    return _attr_desc(arg)


def _descriptor_divisible(arg: ArgSpec) -> bool:
    if arg.is_constexpr:
        return arg.value is None or (isinstance(arg.value, int) and arg.value % 16 == 0)
    return arg.divisible_by_16


def _descriptor_equal_to_1(arg: ArgSpec) -> bool:
    if arg.is_constexpr:
        return isinstance(arg.value, int) and not isinstance(arg.value, bool) and arg.value == 1
    return arg.equal_to_1


def _constexpr_value(value: Any) -> Any:
    """`tl.bfloat16` (`--constexpr compute_type=tl.bfloat16`) is the dtype a launch passes; `gl.<Layout>(...)`
    (`--constexpr layout='gl.BlockedLayout([1], [32], [4], [0])'`) the Gluon layout object a launch passes,
    built from Gluon's own language module and nothing else; other values as given (`bf16` stays the
    string it is)."""
    if isinstance(value, str) and value.startswith(("tl.", "triton.language.")):
        import triton.language as tl

        name = value.rsplit(".", 1)[1]
        dtype = getattr(tl, name, None)
        if isinstance(dtype, tl.dtype):
            return dtype
        if callable(dtype) and not isinstance(dtype, type):
            return dtype  # (a function of triton.language, `tl.sum`, as a launch would pass it)
        if re.fullmatch(r"(?:tl|triton\.language)\.[A-Za-z_]\w*", value.strip()):
            known = sorted(k for k, v in vars(tl).items() if isinstance(v, tl.dtype) and not k.startswith("_")
                           and k not in ("void", "pi32_t"))
            what = f"has no {name!r}" if dtype is None else f"has {name!r}, which is no dtype"
            raise UsageError(f"--constexpr {value.strip()!r}: triton.language {what} (its dtypes: "
                             f"{', '.join(known)})")
    if isinstance(value, str) and GLUON_VALUE.match(value):
        return gluon_value(value)
    return value


GLUON_VALUE = re.compile(r"^\s*gl\.[A-Za-z_]\w*")


def gluon_value(text: str) -> Any:
    """A Gluon constexpr written as Gluon code: `gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])`,
    `gl.SliceLayout(1, gl.BlockedLayout(...))`, `gl.NVMMASharedLayout(swizzle_byte_width=128, ...)`,
    `gl.float16`. Evaluated with `gl` (triton.experimental.gluon.language) as its only name."""
    from triton.experimental.gluon import language as gl

    try:
        return eval(compile(text.strip(), "<--constexpr>", "eval"), {"__builtins__": {}, "gl": gl})  # noqa: S307
    except Exception as exc:  # noqa: BLE001 - any failure of the user's expression is a usage error
        raise UsageError(f"--constexpr {text.strip()!r}: {type(exc).__name__}: {exc}") from None


def make_ast_source(fn: Any, spec: KernelSpec, backend: Any, rules: ReleaseRules, source_cls: Any = None) -> Any:
    """`ASTSource(...)` for the installed release, built the way its JIT builds it (same dict order, same
    attribute entries), so that even the cache hash matches a JIT launch. `source_cls`: the class the JIT
    uses for `fn` (GluonASTSource for a Gluon kernel; it takes the same arguments)."""
    from triton.compiler import ASTSource

    ASTSource = source_cls or ASTSource  # noqa: N806 - the JIT's own name for it

    if rules.attrs_form == "parse_attr":
        signature = {a.name: a.type for a in spec.args}
        constexprs = {a.name: _constexpr_value(a.value) for a in spec.args if a.is_constexpr}
        # The JIT's attribute entries (even empty ones) are part of the cache key: same entries, same key.
        attrs = {(i,): backend.parse_attr(desc) for i, a in enumerate(spec.args)
                 if (desc := _attr_entry(a, rules)) is not None}
        return ASTSource(fn, signature, constexprs, attrs)
    # 'descriptor' (3.2): the signature lists runtime arguments only; ints equal to 1 keep their type
    # and appear among the constants as well as in the descriptor's `tt.equal_to` list.
    signature = {a.name: a.type for a in spec.args if not a.is_constexpr}
    constants = {a.name: _constexpr_value(a.value) for a in spec.args if a.is_constexpr or a.equal_to_1}
    # 3.2's JIT applies the value tests to constexpr arguments too (BLOCK=128 lands in tt.divisibility);
    # they change nothing in the IR but are part of the cache key.
    properties: dict[str, list[int]] = {
        "tt.divisibility": [i for i, a in enumerate(spec.args) if _descriptor_divisible(a)],
        "tt.equal_to": [i for i, a in enumerate(spec.args) if _descriptor_equal_to_1(a)],
    }
    if not hasattr(backend, "get_attrs_descriptor"):  # 3.0, 3.1: a plain (divisible_by_16, equal_to_1) of indices
        from triton.compiler import AttrsDescriptor

        return ASTSource(fn, signature, constants,
                         AttrsDescriptor(tuple(properties["tt.divisibility"]), tuple(properties["tt.equal_to"])))
    descriptor = backend.get_attrs_descriptor(None, None)
    if "tt.pointer_range" in descriptor.property_values:
        properties["tt.pointer_range"] = [i for i, a in enumerate(spec.args) if a.pointer_range_32]
    descriptor = type(descriptor).from_dict({"arg_properties": properties, "cls": type(descriptor).__name__})
    return ASTSource(fn, signature, constants, descriptor)


def explain(spec: KernelSpec) -> list[tuple[str, str, str]]:
    """(argument, type or constant, hints) rows for `--explain-spec`."""
    rows = []
    for a in spec.args:
        # (the value the compile is given: `tl.bfloat16` as the dtype, as a default dtype shows)
        shown = f"constexpr = {_constexpr_value(a.value)!r}" if a.is_constexpr else a.type
        rows.append((a.name, shown, ", ".join(a.hints())))
    return rows
