"""A cluster's layouts (num_ctas > 1: Blackwell's 2-CTA MMA kernels, Hopper clusters): a CTA's tile, rounds and
threads are of the part of the tensor that CTA holds, and the words say which figures are per CTA.

The CTA's part is read from the layout's own bases (the coordinates its registers, lanes and warps reach in
block 0), not from the rule the tool computes it by."""

from __future__ import annotations

from itertools import product

import pytest

from tritonscope.layouts.attrs import parse_layout
from tritonscope.layouts.tensor import to_linear
from tritonscope.layouts.views import describe
from tritonscope.render.layout import held_sentence

# Gluon's 2-CTA matmul (Triton 3.9, cuda:100): the accumulator read out of tensor memory, rows split over CTAs
SPLIT = ("#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], "
         "[8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = [[128, 0]]}>")
# its barrier's phase: one value every CTA holds a copy of
COPIED = ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], "
          "CGALayout = [[0]]}>")


def _block0_box(ll, shape):
    """The extent along each dim of the coordinates block 0's threads and registers reach."""
    sizes = [ll.size(d) for d in ("register", "lane", "warp")]
    seen = [set() for _ in shape]
    for r, lane, w in product(*(range(n) for n in sizes)):
        for d, c in enumerate(ll.coord(register=r, lane=lane, warp=w, block=0)):
            seen[d].add(c)
    return tuple(max(s) + 1 for s in seen)


@pytest.mark.parametrize("text, shape", [(SPLIT, (256, 32)), (COPIED, (1,))])
def test_a_ctas_tile_is_the_part_of_the_tensor_it_holds(text, shape):
    layout = parse_layout(text)
    ll = to_linear(layout, shape, 32)
    facts = describe(layout, shape, 32, ll=ll)
    box = _block0_box(ll, shape)
    assert facts.num_ctas == 2
    assert all(t >= b for t, b in zip(facts.cta_tile, box, strict=True)), (facts.cta_tile, box)
    assert facts.rounds == 1  # (each CTA's registers cover its part once: no round repeats)
    if text == SPLIT:
        assert facts.cta_tile == box == (128, 32) and facts.ctas_per_element == 1
    else:
        assert facts.ctas_per_element == 2 and facts.replicated_dims == (0,)


def test_the_held_sentence_counts_one_ctas_threads():
    """`over 256 threads` was the cluster's 2 x 128 beside a 128-row CTA tile."""
    split = describe(parse_layout(SPLIT), (256, 32), 32).to_json()
    assert held_sentence(split) == ("32 elements/thread over 128 threads in each of 2 CTAs, each element held by "
                                    "one thread of one CTA")
    copied = describe(parse_layout(COPIED), (1,), 64).to_json()
    assert held_sentence(copied) == ("1 element/thread over 128 threads in each of 2 CTAs, each element held by "
                                     "128 threads of each CTA (replicated along dim 0)")


def test_the_picture_of_a_clusters_layout_says_where_the_rest_is(cli):
    """The 2-CTA Gluon matmul's accumulator (256x32, block = [[128, 0]]): the picture's note said "the other 0
    rounds repeat it in later registers"; rows 128-255 are the other CTA's (helper 100)."""
    from pathlib import Path

    entry = next((Path(__file__).parent / "data" / "tutorials-cuda100-triton3.9").glob("BCHWVK37*"))
    out = cli("layout", str(entry), "--alias", "linear").stdout
    assert "folded: one CTA tile shown (128x32 of 256x32); the cluster's other CTA holds the rest; cut to the " \
           "first 64x32" in out, out
