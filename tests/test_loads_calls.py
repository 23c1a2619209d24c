"""Accesses in functions the TTGIR keeps (`tt.call`), counted the way LLVM runs them (loads/sites.py,
`expand_calls`): once per call where the function is inlined later, once where it is `noinline`, not
at all where no call reaches it. The real case is SGLang's gfx950 compact attention (test_thirdparty.py)."""

from __future__ import annotations

from tritonscope.layouts.attrs import parse_layout_aliases
from tritonscope.loads.sites import access_sites
from tritonscope.stages import parse

TTGIR = '''#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#loc1 = loc("/k.py":30:0)
#loc2 = loc("/k.py":31:9)
#loc3 = loc("/k.py":32:9)
#loc4 = loc("/k.py":33:9)
#loc5 = loc("/k.py":5:12)
#loc6 = loc("/k.py":10:12)
#loc7 = loc("/k.py":15:12)
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @kernel(%x: !tt.ptr<f32>) attributes {noinline = false} {
    %a = tt.call @helper(%x) : (!tt.ptr<f32>) -> tensor<512xf32, #blocked> loc(#loc2)
    %b = tt.call @helper(%x) : (!tt.ptr<f32>) -> tensor<512xf32, #blocked> loc(#loc3)
    %c = tt.call @kept(%x) : (!tt.ptr<f32>) -> tensor<512xf32, #blocked> loc(#loc4)
    tt.return loc(#loc1)
  } loc(#loc1)
  tt.func private @helper(%p: !tt.ptr<f32>) -> tensor<512xf32, #blocked> attributes {noinline = false} {
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked> loc(#loc5)
    %v = tt.load %s : tensor<512x!tt.ptr<f32>, #blocked> loc(#loc5)
    tt.return %v : tensor<512xf32, #blocked> loc(#loc5)
  } loc(#loc5)
  tt.func private @kept(%p: !tt.ptr<f32>) -> tensor<512xf32, #blocked> attributes {noinline = true} {
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked> loc(#loc6)
    %v = tt.load %s : tensor<512x!tt.ptr<f32>, #blocked> loc(#loc6)
    tt.return %v : tensor<512xf32, #blocked> loc(#loc6)
  } loc(#loc6)
  tt.func private @unused(%p: !tt.ptr<f32>) -> tensor<512xf32, #blocked> attributes {noinline = false} {
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blocked> loc(#loc7)
    %v = tt.load %s : tensor<512x!tt.ptr<f32>, #blocked> loc(#loc7)
    tt.return %v : tensor<512xf32, #blocked> loc(#loc7)
  } loc(#loc7)
}
'''


def test_an_access_in_a_called_function_is_one_site_per_call():
    module = parse("ttgir", TTGIR, "/c/k.ttgir")
    aliases = parse_layout_aliases(TTGIR)
    flat = access_sites(module, aliases)  # without the text: every op once, as written
    assert [s.op.loc.describe() for s in flat] == ["k.py:5:12", "k.py:10:12", "k.py:15:12"]
    sites = access_sites(module, aliases, TTGIR.splitlines())
    assert [s.op.loc.describe() for s in sites] == [
        "k.py:5:12 @ k.py:31:9", "k.py:5:12 @ k.py:32:9",  # inlined later: once per call
        "k.py:10:12",  # noinline: one function in LLVM too
    ]  # @unused: no call reaches it
    assert sites[0].op.lineno == sites[1].op.lineno  # the same TTGIR op, two calls


def test_calls_in_a_cycle_do_not_multiply():
    """Triton never emits recursion; a damaged module that does stays finite (each site at most once per
    distinct chain, no hang)."""
    text = TTGIR.replace("tt.return %v : tensor<512xf32, #blocked> loc(#loc5)",
                         "%w = tt.call @helper(%p) : (!tt.ptr<f32>) -> tensor<512xf32, #blocked> loc(#loc5)\n"
                         "    %z = tt.call @helper(%p) : (!tt.ptr<f32>) -> tensor<512xf32, #blocked> loc(#loc5)\n"
                         "    tt.return %v : tensor<512xf32, #blocked> loc(#loc5)")
    module = parse("ttgir", text, "/c/k.ttgir")
    sites = access_sites(module, parse_layout_aliases(text), text.splitlines())
    assert 3 <= len(sites) <= 16
