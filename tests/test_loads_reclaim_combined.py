"""loadreclaim.combined on rows built by hand: the backend's merge of narrow accesses into one wider
instruction is claimed only when exactly one access gained exactly the missing bytes."""

from __future__ import annotations

from tritonscope.loads.model import AccessRow
from tritonscope.loads.reclaim import combined


def _store(col: int, llir: int = 1, amdgcn: dict[str, tuple[int, int]] | None = None) -> AccessRow:
    row = AccessRow("k.py", 203, col, f"k.py:203:{col}", "tt.store", "global_store", 1, (), "i8", 8, None, None,
                    False, False, None, None)
    row.stages = {"llir": {"store <1 x i8>": llir}}
    row.widths = {"llir": {"store <1 x i8>": 1}}
    for form, (n, width) in (amdgcn or {}).items():
        row.stages.setdefault("amdgcn", {})[form] = n
        row.widths.setdefault("amdgcn", {})[form] = width
    return row


def test_four_byte_stores_in_one_dword():
    """vLLM's TurboQuant fp8 store on MI300: four 1-byte stores, one `global_store_dword` at the last."""
    rows = [_store(8), _store(12), _store(59), _store(12 + 100, 1, {"global_store_dword": (1, 4)})]
    combined("amdgcn", rows, [])
    assert [r.combined_with is rows[3] for r in rows] == [True, True, True, False]
    assert all(r.relocations[0].code == "combined" for r in rows[:3])


def _store_at(line: int, col: int, amdgcn: dict[str, tuple[int, int]] | None = None) -> AccessRow:
    row = _store(col, 1, amdgcn)
    row.line = line
    return row


def test_two_wider_stores_each_take_their_own_lines():
    """vLLM's TurboQuant MSE store on MI300: three 1-byte stores of line 334 merged into the dword store of
    that line, and the one of line 322 into the short store of line 324, the only access left."""
    dword = _store_at(334, 12, {"global_store_dword": (1, 4)})
    short = _store_at(324, 52, {"global_store_short": (1, 2)})
    rows = [_store_at(322, 53), short, _store_at(334, 55), _store_at(334, 12 + 100), _store_at(334, 59), dword]
    combined("amdgcn", rows, [])
    assert [r.combined_with for r in rows] == [short, None, dword, dword, dword, None]
    assert rows[0].relocations[0].evidence.endswith("the backend combined its 1 byte into that wider instruction")


def test_no_claim_when_the_bytes_do_not_add_up_or_are_unclaimed_elsewhere():
    rows = [_store(8), _store(12), _store(99, 1, {"global_store_dword": (1, 4)})]  # 2 missing bytes, 3 gained
    combined("amdgcn", rows, [])
    assert all(r.combined_with is None for r in rows)
    rows = [_store(8), _store(99, 1, {"global_store_short": (1, 2)})]
    combined("amdgcn", rows, [{"stage": "amdgcn", "kind": "global_store", "count": 1, "line": 7, "col": 3,
                               "form": "global_store_byte", "bytes": 1}])
    assert rows[0].combined_with is None  # an unclaimed store of the kind: it may be the missing one's


def _tmem_store(op: str, layout: str, instances: int, elements: int, ptx: dict[str, tuple[int, int]]) -> AccessRow:
    from tritonscope.loads.sites import AccessSite
    from tritonscope.stages.common import Op

    row = AccessRow("k.py", 360, 24, "k.py:360:24", op, "tmem_store", instances, (128, 128), "f32", 32, layout,
                    f"#ttg.linear<{layout}>", False, False, None, None, elements_per_thread=elements)
    text = (f"{op} %a, %b, %true : tensor<128x128xf32, #{layout}> -> !ttg.memdesc<128x128xf32, #tmem, "
            "#ttng.tensor_memory, mutable>")
    row.sites = [AccessSite(Op(1, op, text), "tmem_store", (128, 128), "f32", 32, None, layout, None, None, None,
                            None, [])]
    for form, (n, width) in ptx.items():
        row.ambiguous.setdefault("ptx", {})[form] = n
        row.widths.setdefault("ptx", {})[form] = width
    return row


def test_tensor_memory_instructions_shared_out_by_tiles():
    """vLLM's attention on cuda:100: two stores of a 128x128 f32 tile (3 instances each, other register
    layouts) share 6 `tcgen05.st.32x32b.x128` on one line: a tile is 512 bytes a thread, one x128 each."""
    from tritonscope.loads.join import share_identical

    form = "tcgen05.st.sync.aligned.32x32b.x128.b32"
    a = _tmem_store("ttng.tmem_store", "linear", 3, 128, {form: (6, 512)})
    b = _tmem_store("ttng.tmem_store", "linear2", 3, 128, {form: (6, 512)})
    share_identical("ptx", [a, b])
    assert (a.stages["ptx"], b.stages["ptx"], a.ambiguous, b.ambiguous) == ({form: 3}, {form: 3}, {}, {})
    # shares that do not add up to the total leave the instructions ambiguous
    a = _tmem_store("ttng.tmem_store", "linear", 3, 128, {form: (5, 512)})
    b = _tmem_store("ttng.tmem_store", "linear2", 3, 128, {form: (5, 512)})
    share_identical("ptx", [a, b])
    assert a.ambiguous and b.ambiguous and not a.stages
