"""User kernel signatures, in Triton's AOT notation (`*fp16:16, i32, 1024`, as `python -m
triton.tools.compile --signature` takes it) or named (`x_ptr=*fp16, n=i32:16`), read into `ArgSpec`s."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from tritonscope.compile.specialize import ELEMENT_BYTES, ArgSpec, ReleaseRules, unknown_arguments
from tritonscope.errors import UsageError
from tritonscope.layouts.syntax import split_top_level

SCALAR_TYPES = {"i1", "u1", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "fp16", "bf16", "fp32", "fp64"}
# One argument of Triton's AOT notation: `*fp16:16`, `i32:1`, `i32`, `1024`, `0.5`.
_AOT_ENTRY = re.compile(r"^(?P<type>\*?k?[a-z][a-z0-9]*)(?::(?P<hint>\d+))?$")
_NUMBER = re.compile(r"^-?\d+(\.\d*)?([eE]-?\d+)?$")
# A host tensor descriptor (Triton 3.4+), as the JIT writes it: `tensordesc<fp16[64, 64]>`; a Gluon one
# adds its shared layout as repr() writes it: `tensordesc<fp16[64, 64],NVMMASharedLayout(...)>`.
_DESCRIPTOR = re.compile(r"^tensordesc(?:_im2col)?<(?P<dtype>[a-z][a-z0-9]*)\[\s*\d+(?:\s*,\s*\d+)*\s*\]"
                         r"(?P<layout>,.+)?>$", re.S)



def _unread_entry(entry: str, name: str) -> str:
    """The usage error of a --signature entry that reads as no type; a tuple of types said to be one."""
    if entry[:1] in "([":
        return (f"--signature: '{entry}' for argument '{name}': a tuple argument, which --signature does not "
                f"take; give it as a constexpr (--constexpr {name}=(1, 2)) where its values are constants, or "
                "compile a kernel that takes its elements as arguments")
    return f"--signature: cannot read '{entry}' for argument '{name}'"

def split_entries(text: str) -> list[str]:
    """Split a signature on its top-level commas (a descriptor's `[64, 64]` and its layout's
    `NVMMASharedLayout(a=1, b=2)` keep theirs)."""
    return [e.strip() for e in split_top_level(text)]


def _descriptor_arg(name: str, ty: str) -> ArgSpec:
    m = _DESCRIPTOR.match(ty)
    if not m:
        raise UsageError(f"argument '{name}': cannot read descriptor type '{ty}' (write it as the JIT does: "
                         "tensordesc<fp16[64, 64]>, for Gluon tensordesc<fp16[64, 64],NVMMASharedLayout(...)>)")
    if m.group("dtype") not in ELEMENT_BYTES:
        raise UsageError(f"argument '{name}': unknown descriptor element type '{m.group('dtype')}'")
    # the JIT gives a descriptor no alignment attribute: its address is the descriptor's, not the data's
    return ArgSpec(name, re.sub(r"\[\s*([^\]]*?)\s*\]", lambda b: "[" + ", ".join(
        d.strip() for d in b.group(1).split(",")) + "]", ty, count=1))



def parse_constant(text: str) -> Any:
    """`1024`, `0.5`, `True`, `None` (an argument a launch passes as None: a constexpr None), a tuple or
    list of such (`((1, 0),)`: a Gluon CGA layout), `fp16` (a dtype name stays a string)."""
    text = text.strip()
    if text in ("True", "False", "true", "false"):
        return text.lower() == "true"
    if text == "None":
        return None
    if text[:1] in "([" and text:
        import ast

        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = text  # not a literal (Gluon code, `[gl.BlockedLayout(...)]`): read as the code it is
        if isinstance(value, (tuple, list)):
            return value
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def _typed_arg(name: str, ty: str, hint: int | None, rules: ReleaseRules) -> ArgSpec:
    base = ty.lstrip("*").lstrip("k") if ty.startswith("*") else ty
    if ty.startswith("*"):
        if base not in ELEMENT_BYTES:
            raise UsageError(f"argument '{name}': unknown pointer element type '{ty}'")
        if base in ("i1", "u1"):  # a bool tensor's pointer, as the installed release names it
            ty = ty[:len(ty) - len(base)] + rules.bool_tensor_type
        if hint not in (None, 16):
            raise UsageError(f"argument '{name}': a pointer takes only the :16 hint (16-byte aligned), got :{hint}")
    elif ty not in SCALAR_TYPES:
        raise UsageError(f"argument '{name}': unknown type '{ty}' (use *fp16, i32, fp32, ... or a constant)")
    elif hint is not None and not ty.startswith(("i", "u")):
        raise UsageError(f"argument '{name}': hints are for integers and pointers; the JIT gives a {ty} none")
    if ty in ("i1", "u1"):
        if hint is not None:
            raise UsageError(f"argument '{name}': hints are for integers and pointers; the JIT gives a bool none")
        ty = rules.bool_type
    if hint is None:
        return ArgSpec(name, ty)
    if hint == 16:
        return ArgSpec(name, ty, divisible_by_16=True)
    if hint == 1:
        if rules.ones_become_constexpr:
            return ArgSpec(name, "constexpr", 1, equal_to_1=True)
        return ArgSpec(name, ty, 1, equal_to_1=True)
    raise UsageError(f"argument '{name}': only :16 and :1 are valid hints, got :{hint}")


def parse_aot_signature(text: str, arg_names: list[str], rules: ReleaseRules) -> list[ArgSpec]:
    """Triton's AOT notation (`python -m triton.tools.compile --signature`): one entry per argument, in
    order, `*fp16:16` (type and hint) or a bare constant for a constexpr. Hints are exactly as written."""
    entries = split_entries(text)
    if len(entries) != len(arg_names):
        raise UsageError(
            f"--signature has {len(entries)} entries but the kernel takes {len(arg_names)} "
            f"arguments ({', '.join(arg_names)})"
        )
    out = []
    for name, entry in zip(arg_names, entries, strict=True):
        if _NUMBER.match(entry) or entry in ("True", "False"):
            out.append(ArgSpec(name, "constexpr", parse_constant(entry)))
            continue
        if entry.startswith("tensordesc"):
            out.append(_descriptor_arg(name, entry))
            continue
        m = _AOT_ENTRY.match(entry)
        if not m:
            raise UsageError(_unread_entry(entry, name))
        out.append(
            _typed_arg(name, m.group("type"), int(m.group("hint")) if m.group("hint") else None, rules)
        )
    return out


def named_entries(text: str) -> dict[str, str]:
    """`x_ptr=*fp16,n=i32:16` as {name: type as written}; UsageError for an entry that is no NAME=TYPE or a
    name given twice."""
    given: dict[str, str] = {}
    for part in filter(None, split_entries(text)):
        if "=" not in part:
            raise UsageError(f"--signature: expected NAME=TYPE, got '{part}'")
        name, ty = (s.strip() for s in part.split("=", 1))
        if name in given:  # (the last would win, as if the first were not written)
            raise UsageError(f"--signature: argument '{name}' given twice ({given[name]}, {ty})")
        given[name] = ty
    return given


def parse_named_signature(
    text: str, arg_names: list[str], constexprs: Mapping[str, Any], rules: ReleaseRules, backend: str,
    *, no_specialize: Collection[str] = (), no_align: Collection[str] = (),
    annotations: Mapping[str, str] | None = None, amd_buffer_ops: bool = True,
    constexpr_params: Collection[str] = (),
) -> list[ArgSpec]:
    """`x_ptr=*fp16,n=i32:16`: named types with optional AOT hints. Pointers are assumed to come from
    torch allocations, as in a JIT launch: 16-byte aligned (and under 2 GiB on AMD, where the release gives
    that hint) unless `--no-specialize` says otherwise. Integers get hints only where written. The
    kernel's own `do_not_specialize` (`no_specialize`) and `do_not_specialize_on_alignment` (`no_align`)
    take hints away as the JIT's would; an annotated parameter (`n: tl.int64`) is of its annotation's type."""
    given = named_entries(text)
    unknown = (set(given) | set(constexprs)) - set(arg_names)
    if unknown:
        raise unknown_arguments(unknown, arg_names)
    for name, ty in given.items():
        if name in constexprs:  # (a launch passing it twice: Triton's "Conflicting meta-parameters")
            raise UsageError(f"argument '{name}' has a type in --signature ({ty}) and a value as a constexpr "
                             f"({constexprs[name]!r}): give one")
        if name in constexpr_params and not _NUMBER.match(ty):
            raise UsageError(f"argument '{name}' is a tl.constexpr: give its value ({name}=V in --signature, or "
                             f"--constexpr {name}=V), not a type ({ty})")
    out = []
    for name in arg_names:
        if name in constexprs:
            out.append(ArgSpec(name, "constexpr", constexprs[name]))
            continue
        if name not in given:
            raise UsageError(
                f"no type for argument '{name}': add it to --signature or give --constexpr {name}=V"
            )
        entry = given[name]
        if _NUMBER.match(entry):
            out.append(ArgSpec(name, "constexpr", parse_constant(entry)))
            continue
        if entry.startswith("tensordesc"):
            out.append(_descriptor_arg(name, entry))
            continue
        m = _AOT_ENTRY.match(entry)
        if not m:
            raise UsageError(_unread_entry(entry, name))
        ty, hint = m.group("type"), int(m.group("hint")) if m.group("hint") else None
        annotated = (annotations or {}).get(name)
        if annotated and ty != annotated and not (ty in ("i1", "u1") and annotated in ("i1", "u1")):
            raise UsageError(f"argument '{name}' is annotated {annotated} in the kernel: a launch passes it as "
                             f"that type (give {name}={annotated})")
        if name in no_specialize or (annotated or "")[:2] in ("fp", "bf", "u1"):
            hint = None  # the JIT specializes none of these on their value
        elif name in no_align and hint == 16:
            hint = None
        arg = _typed_arg(name, ty, hint, rules)
        if ty.startswith("*") and name not in no_specialize:
            buffer_ops = amd_buffer_ops or not rules.pointer_range_needs_buffer_ops
            in_range = backend == "hip" and buffer_ops and (name not in no_align or rules.attrs_form != "descriptor")
            arg = replace(arg, divisible_by_16=name not in no_align, pointer_range_32=in_range)
        if name in no_specialize and not arg.is_constexpr:
            arg = replace(arg, specialized=False)
        out.append(arg)
    return out
