"""User kernel signatures, in Triton's AOT notation (`*fp16:16, i32, 1024`, as `python -m
triton.tools.compile --signature` takes it) or named (`x_ptr=*fp16, n=i32:16`), read into `ArgSpec`s."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tritonscope.compile.specialize import ELEMENT_BYTES, ArgSpec, ReleaseRules
from tritonscope.errors import UsageError

SCALAR_TYPES = {"i1", "u1", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "fp16", "bf16", "fp32", "fp64"}
# One argument of Triton's AOT notation: `*fp16:16`, `i32:1`, `i32`, `1024`, `0.5`.
_AOT_ENTRY = re.compile(r"^(?P<type>\*?k?[a-z][a-z0-9]*)(?::(?P<hint>\d+))?$")
_NUMBER = re.compile(r"^-?\d+(\.\d*)?([eE]-?\d+)?$")



def parse_constant(text: str) -> Any:
    """`1024`, `0.5`, `True`, `fp16` (a dtype name stays a string)."""
    text = text.strip()
    if text in ("True", "False", "true", "false"):
        return text.lower() == "true"
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
    elif ty not in SCALAR_TYPES:
        raise UsageError(f"argument '{name}': unknown type '{ty}' (use *fp16, i32, fp32, ... or a constant)")
    if ty in ("i1", "u1"):
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
    entries = [e.strip() for e in text.split(",")]
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
        m = _AOT_ENTRY.match(entry)
        if not m:
            raise UsageError(f"--signature: cannot read '{entry}' for argument '{name}'")
        out.append(
            _typed_arg(name, m.group("type"), int(m.group("hint")) if m.group("hint") else None, rules)
        )
    return out


def parse_named_signature(
    text: str, arg_names: list[str], constexprs: Mapping[str, Any], rules: ReleaseRules, backend: str
) -> list[ArgSpec]:
    """`x_ptr=*fp16,n=i32:16`: named types with optional AOT hints. Pointers are assumed to come from
    torch allocations, as in a JIT launch: 16-byte aligned (and under 2 GiB on AMD) unless
    `--no-specialize` says otherwise. Integers get hints only where written."""
    given: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            raise UsageError(f"--signature: expected NAME=TYPE, got '{part}'")
        name, ty = (s.strip() for s in part.split("=", 1))
        given[name] = ty
    unknown = (set(given) | set(constexprs)) - set(arg_names)
    if unknown:
        raise UsageError(
            f"unknown argument(s) {', '.join(sorted(unknown))}; the kernel takes {', '.join(arg_names)}"
        )
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
        m = _AOT_ENTRY.match(entry)
        if not m:
            raise UsageError(f"--signature: cannot read '{entry}' for argument '{name}'")
        ty, hint = m.group("type"), int(m.group("hint")) if m.group("hint") else None
        arg = _typed_arg(name, ty, hint, rules)
        if ty.startswith("*"):
            arg = replace(arg, divisible_by_16=True, pointer_range_32=backend == "hip")
        out.append(arg)
    return out
