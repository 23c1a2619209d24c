"""TTIR an older Triton release wrote, respelled where a newer release prints the same op another way.

`compile ENTRY` hands an entry's TTIR to the installed Triton. Some releases changed only how an op is
printed, and the newer parser refuses the old form:

- 3.8: a tensor descriptor type names its block shape directly, `!tt.tensordesc<64x64xf16>`, where 3.7 and
  before wrapped a tensor type, `!tt.tensordesc<tensor<64x64xf16>>` ("tensor descriptors must not wrap
  tensor types"); so does the result type `tt.make_tensor_descriptor` prints, `: <f16>, <64x64xf16>`.
- 3.9: `tt.load`/`tt.store` carry their cache hints as one attribute, `{cachePolicy =
  #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>}`, where 3.8 and before printed
  keywords, `cacheModifier = cg evictionPolicy = evict_last` (the unnamed one defaulting to `none` and
  `evict_normal`, as the new attribute spells them).

`upgrade` applies the rules of the releases after the writer's, up to the installed one. Each rewrite stays
on its line, so the positions Triton's parser gives the TTIR itself (values printed without a location)
stay true. Anything else a newer release refuses is left alone: its parser's error is the answer. That
the respelled TTIR compiles to what the newer release makes of the same source is checked in
tests/test_compile_retarget.py (a kernel compiled by Triton 3.6, tests/data/compile/ttir-3.6).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# `!tt.tensordesc<tensor<64x64xf16>>` and, in TTGIR, `!tt.tensordesc<tensor<64x64xf16, #shared>>`; also the
# result type `tt.make_tensor_descriptor` prints without its prefix, `: <f16>, <tensor<64x64xf16>>`
_WRAPPED_DESC = re.compile(r"(!tt\.tensordesc<|tt\.make_tensor_descriptor\b.*:\s*<[^<>]*>,\s*<)"
                           r"tensor<([^<>]*(?:<[^<>]*>[^<>]*)*)>>")
# a load or store: its operands, then the old keywords (either order), then an attr-dict or the type
_HINTED = re.compile(
    # (an operand may name one result of a multi-result op: `%acc_6#1`, a loop's result, as 3.6 prints it)
    r"(?P<head>\btt\.(?:load|store)\s+%[\w.$-]+(?:#\d+)?(?:\s*,\s*%[\w.$-]+(?:#\d+)?)*)"
    r"(?P<hints>(?:\s+(?:cacheModifier|evictionPolicy)\s*=\s*\w+)+)"
    r"(?P<dict>\s*\{)?")
_HINT = re.compile(r"(cacheModifier|evictionPolicy)\s*=\s*(\w+)")
# the same keywords after any op's operands (TTGIR's `ttg.async_copy_global_to_local`, `amdg.buffer_store`)
_HINTED_ANY_OP = re.compile(r"(?P<head>(?:%[\w.$-]+(?:#\d+)?|\]))"
                            r"(?P<hints>(?:\s+(?:cacheModifier|evictionPolicy)\s*=\s*\w+)+)(?P<dict>\s*\{)?")


def _unwrap_descriptors(text: str) -> tuple[str, int]:
    return _WRAPPED_DESC.subn(r"\1\2>", text)


def _cache_policies(text: str, pattern: re.Pattern = _HINTED) -> tuple[str, int]:
    def policy(m: re.Match) -> str:
        hints = dict(_HINT.findall(m.group("hints")))
        attr = (f"cachePolicy = #tt.cache_policy<cache_modifier = {hints.get('cacheModifier', 'none')}, "
                f"eviction_policy = {hints.get('evictionPolicy', 'evict_normal')}>")
        if m.group("dict"):  # merged into the op's own attr-dict (`{isVolatile = true}`)
            return f"{m.group('head')} {{{attr}, "
        return f"{m.group('head')} {{{attr}}}"

    return pattern.subn(policy, text)


def respell_cache_hints(text: str) -> str:
    """Any op's cache-hint keywords (3.8 and before: a load's, a store's, TTGIR's async copies and AMD buffer
    ops') as 3.9's `{cachePolicy = ...}` attribute (the normalizer of `diff` folds the two spellings so)."""
    return _cache_policies(text, _HINTED_ANY_OP)[0]


# (the first release that reads only the new spelling, what changed, the rewrite)
RULES: list[tuple[tuple[int, int], str, Callable[[str], tuple[str, int]]]] = [
    ((3, 8), "tensor descriptor types as !tt.tensordesc<shape x element>", _unwrap_descriptors),
    ((3, 9), "load and store cache hints as #tt.cache_policy", _cache_policies),
]


def upgrade(text: str, written: tuple[int, int] | None, installed: tuple[int, int]) -> tuple[str, list[str]]:
    """`text` respelled for `installed` by the rules after the release that `written` names (None: not
    known, every rule up to `installed`); and what was respelled, in words, with how many times."""
    done = []
    for release, what, rewrite in RULES:
        if (written is not None and written >= release) or installed < release:
            continue
        text, n = rewrite(text)
        if n:
            done.append(f"{what} ({n}x)")
    return text, done
