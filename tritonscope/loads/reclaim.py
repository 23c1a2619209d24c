"""Accesses whose instructions a lower stage put on another source line, or folded into another access.

The join (loadjoin) attributes by source position. Real kernels break that in three ways, each proven
here from counts and the TTGIR, and recorded on the row as a `count_changes` reason:

- `relocated`: stage S holds none of the row's instructions, the stage before held N of one kind and
  width, and S holds exactly N unclaimed instructions of that kind, width and family (plain or matrix) on
  one other line: LLVM's scheduler (or ptxas) moved them next to their use, e.g. the int8 B operand of an
  `mma` loaded on the `tl.dot` line; or on the row's own line at another column (the dot's), when no other
  access of the line lacks instructions of that kind; or, for accesses side by side in memory, one element
  an instruction, on the lines of others of the run, none wider than an element (`_one_line_run`); or an
  atomic operation's instructions in a compare-and-swap's row, the kernel's one read-modify-write of that
  operation having none (`atomics_by_operation`: gfx942 puts a spin lock's release on its acquire's line);
  in LLIR, an atomic with none whose operation and type the kernel's only unclaimed atomics have, at one
  position of no atomic access (`atomics_off_position`: a scalar `tl.atomic_add` on a load's line).
- `at-use`: LLIR holds none of a load's instructions, and the line of a TTGIR op that uses the loaded
  value holds unclaimed instructions of the row's kind moving exactly the row's bytes per thread (the
  lowering of a dot operand put them there): every register's bytes, or only the distinct registers'
  where the layout repeats elements (LLVM loads a repeated shared-memory element once: vLLM's packed-int4
  attention, a 16x16 tf32 operand whose 16 registers hold 8 elements, read as 8 x 4 bytes at the dot).
- `removed`: stage S holds none of the row's instructions, the stage before held N, and S holds no
  unclaimed instruction of the row's kinds anywhere in the kernel, while no other access of those kinds
  moves more bytes in S than the stage before (which a merge into its instructions would show): the
  assembler emitted nothing for them (vLLM's TurboQuant decode loads the high byte of a 16-bit code
  whose bits the mask then drops; ptxas removes the dead load).
- `combined`: stage S holds none of the row's instructions, and exactly one other access of its kind moves
  exactly the row's bytes more in S than in the stage before: the backend merged the two into one wider
  instruction (AMDGPU on gfx950: vLLM's two adjacent `seq_lens` reads, one `global_load_dwordx2`). The row
  takes that access's verdict.
- `cse`: no stage holds any instruction, and another access reads the same operand (memdesc, or pointer
  and mask) and has them: LLVM's common-subexpression elimination kept one copy. The row takes the other
  access's verdict; its instruction counts stay empty (nothing is counted twice).
- `selected`: two loads with no instruction in a stage whose values only an `arith.select` chooses between,
  the select's position holding, unclaimed, exactly one load's instructions of the stage before: the
  backend loads from the address the condition selects (AMDGPU on FlagGems' generated `where`). The true
  value's row takes them, the other is combined with it.
- `merged-arms`: a store with no instruction anywhere, in one arm of an `scf.if` whose other arm stores
  the same type with the same mask and either the same value or to the same address, and that store has
  them: LLVM sank the two into one store of what the condition selects (mamba's `if c < nchunks - 1:
  store(out) else: store(final_states)`: one value, the address selected; Transformer Engine's MoE
  permute, `if prob == 0.0: store(out, 0.0) else: store(out, inp)`: one address, the value selected). The
  two successors of one `cf.cond_br` are such arms too (an early `return`: its cross entropy's `if y ==
  ignore_idx: store(loss, 0.0); return`, and the `store(loss, ...)` after it). Loads too: one whose other
  arm loads from the same address with the same `other`, whatever the mask (triton_kernels' SwiGLU on
  gfx950: LLVM merged the two arms' buffer loads into one of the mask the condition selects).
  The same bookkeeping as `cse`. In a lower stage (`arms_merged`): an access with no instruction there
  whose twin in the other arm (same op, type, layout, written position and instructions the stage before)
  has them, no instruction of its kind unclaimed: the backend merged the arms' copies (ptxas, SGLang's
  Blackwell decode attention: `_load_v4` of the main and of the extra KV cache, one set of LDGs).

- `unlocated`: stage S holds fewer of a row's instructions of one width than the stage before, and S's
  instructions with no source location of the row's kind, width and family number exactly the shortfall,
  no other row lacking them: the backend dropped their debug location (gfx950's transposed LDS reads).

Nothing is guessed: a match must be unique and exact, else the row stays as the join left it.
"""

from __future__ import annotations

import collections
import re

from tritonscope.loads.join import ACCEPTS, PREVIOUS, addressing, family, unclaimed_items
from tritonscope.loads.model import AccessRow, Reason
from tritonscope.loads.sites import operands
from tritonscope.stages.common import Module
from tritonscope.stages.table import LINE_ONLY_STAGES

_RESULT = re.compile(r"^\s*(%[\w.$-]+)(?::\d+)?\s*=")
_OPERAND = re.compile(r"%[\w.$-]+")
def _take(stage: str, row: AccessRow, items: list[dict], n: int, unattributed: list[dict],
          follow: bool = True) -> tuple[int, int, int]:
    """Move n instructions from `items` (unattributed entries) into the row; returns (line, col, moved).
    `follow`: the next stage looks for the row's instructions on their line first (`_follow`)."""
    line, col, moved = items[0]["line"], items[0]["col"], 0
    for item in items:
        if moved >= n:
            break
        k = min(item["count"], n - moved)
        if k <= 0:
            continue  # (an item an earlier row of the same pool used up)
        if not moved:
            line, col = item["line"], item["col"]
        row.stages.setdefault(stage, {}).setdefault(item["form"], 0)
        row.stages[stage][item["form"]] += k
        row.widths.setdefault(stage, {})[item["form"]] = item.get("bytes")
        item["count"] -= k
        moved += k
    unattributed[:] = [u for u in unattributed if u["count"] > 0]
    if follow:
        row.moved_to[stage] = line
    return line, col, moved


def _pool(stage: str, unattributed: list[dict], kinds: tuple[str, ...], width, fam: str, via: str | None = None
          ) -> dict[int, list[dict]]:
    """Unclaimed instructions of `stage` of these kinds, width and family, by line; with `via` (`addressing`:
    of the instructions the stage before had), only those that can implement them (a buffer load is no
    `s_load_dword`'s lowering: a scalar `tl.load` beside pipelined buffer loads, all on line 0, on gfx942).
    Line 0 (no source location) is left out where the stage before has unclaimed ones of no location of
    the same kinds: those are their lowering (a store LLVM sank out of an `if`'s arms), no other access's."""
    by_line: dict[int, list[dict]] = collections.defaultdict(list)
    for u in unattributed:
        if (u["stage"] == stage and u["kind"] in kinds and u.get("bytes") == width and family(u["form"]) == fam
                and u["count"] > 0 and (via is None or addressing(u["form"]) in (None, via))):
            by_line[u["line"]].append(u)
    before = PREVIOUS.get(stage)
    if 0 in by_line and before and any(u["stage"] == before and u["line"] == 0 and u["kind"] in kinds
                                       and u["count"] > 0 for u in unattributed):
        del by_line[0]
    return by_line


def relocate(stage: str, rows: list[AccessRow], unattributed: list[dict], ttgir: Module | None = None) -> None:
    """`relocated`: rows with no instruction in `stage` whose previous stage had some (see module doc).
    Where two rows lacking instructions of one kind and width could each take either of two lines', a line
    holding an op that uses one row's loaded value is that row's (LLVM schedules a load next to its use):
    TE's chunk sort on gfx942, a probability loaded for the store that writes it, the other load's
    instruction on no line."""
    before = PREVIOUS.get(stage)
    if before is None:
        return
    _relocate_mma(stage, before, rows, unattributed)
    _follow(stage, before, rows, unattributed)
    _in_line(stage, before, rows, unattributed)
    # (accepted kinds, width, family) -> [(row, count)]
    needs: dict[tuple, list[tuple[AccessRow, int]]] = collections.defaultdict(list)
    for r in rows:
        if not _lacks(r, stage, before):
            continue
        per: collections.Counter = collections.Counter()
        for form, n in r.stages[before].items():
            per[(r.widths.get(before, {}).get(form), family(form), addressing(form))] += n
        for (width, fam, via), n in per.items():
            if width is not None:
                needs[(ACCEPTS[r.kind], width, fam, via)].append((r, n))
    for (kinds, width, fam, via), members in needs.items():
        pool = _pool(stage, unattributed, kinds, width, fam, via)
        own = {r.line for r, _ in members}
        totals = {line: sum(u["count"] for u in items) for line, items in pool.items() if line not in own}
        whole = sum(n for _, n in members)
        lines = [line for line, t in totals.items() if t == whole]
        if len(lines) == 1:
            for r, n in members:
                _record(stage, before, r, *_take(stage, r, pool[lines[0]], n, unattributed))
            continue
        counts = collections.Counter(n for _, n in members)
        left = []
        for r, n in members:
            fits = [line for line, t in totals.items() if t == n]
            if len(fits) == 1 and counts[n] == 1:
                _record(stage, before, r, *_take(stage, r, pool[fits[0]], n, unattributed))
                del totals[fits[0]]
            else:
                left.append((r, n))
        if len(left) > 1 and ttgir is not None:
            _by_use(stage, before, left, pool, totals, ttgir, unattributed)


    _relocate_by_bytes(stage, before, rows, unattributed)
    _relocate_partial(stage, before, rows, unattributed)


def _by_use(stage: str, before: str, members: list[tuple[AccessRow, int]], pool: dict, totals: dict,
            ttgir: Module, unattributed: list[dict]) -> None:
    """Rows that each fit several lines: a row takes the one fitting line where an op uses its loaded value,
    when no other row uses that line; then, each line taken, a row left with exactly one fitting line and
    the only row fitting it takes it."""
    users = _use_lines(ttgir)
    uses = {id(r): users.get(m.group(1), set()) if (m := _RESULT.match(r.sites[0].op.text)) else set()
            for r, _ in members if r.sites}
    open_ = list(members)
    progress = True
    while open_ and progress:
        progress = False
        for r, n in list(open_):
            fits = [line for line, t in totals.items() if t == n]
            rivals = [o for o, m in open_ if o is not r and m == n]  # (they fit the same lines)
            mine = [line for line in fits if line in uses.get(id(r), set())
                    and not any(line in uses.get(id(o), set()) for o in rivals)]
            if len(mine) == 1:
                choice = mine[0]
            elif len(fits) == 1 and not rivals:
                choice = fits[0]
            else:
                continue
            _record(stage, before, r, *_take(stage, r, pool[choice], n, unattributed))
            del totals[choice]
            open_.remove((r, n))
            progress = True


def _use_lines(ttgir: Module) -> dict[str, set[int]]:
    """TTGIR value name -> the source lines (outermost: the kernel's) of the ops using it (`at_use`,
    `_by_use`)."""
    users: dict[str, set[int]] = collections.defaultdict(set)
    for op in ttgir.ops:
        if op.loc is None or op.loc.outermost() is None:
            continue
        m = _RESULT.match(op.text)
        body = op.text[m.end():] if m else op.text
        for name in set(_OPERAND.findall(body.split(" loc(")[0])):
            users[name].add(op.loc.outermost().line)
    return users


def _relocate_partial(stage: str, before: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """The same, where each instruction now moves part of what it moved before (AMDGPU on gfx950 loading
    the low 4 bytes of an i64 that is converted to i32, on the line of the conversion's store): the only
    row of its kind lacking instructions, the only other line holding unclaimed ones of its kind and
    family, and there exactly its count, all of one width dividing its own."""
    lacking = [r for r in rows if _lacks(r, stage, before) and r.kind.endswith("load")]
    for r in lacking:
        forms = r.stages[before]
        widths = {r.widths.get(before, {}).get(f) for f in forms}
        if len(forms) != 1 or len(widths) != 1 or None in widths:
            continue
        (form, n), (width,) = next(iter(forms.items())), widths
        kinds = ACCEPTS[r.kind]
        if any(o is not r and set(ACCEPTS[o.kind]) & set(kinds) for o in lacking):
            continue
        by_line: dict[int, list[dict]] = collections.defaultdict(list)
        for u in unclaimed_items(stage, kinds, unattributed):
            if family(u["form"]) == family(form):
                by_line[u["line"]].append(u)
        if len(by_line) != 1:
            continue
        (line, items), = by_line.items()
        parts = {u.get("bytes") for u in items}
        if line in (0, r.line) or sum(u["count"] for u in items) != n or len(parts) != 1:
            continue
        (part,) = parts
        if not part or part >= width or width % part:
            continue
        _, col, moved = _take(stage, r, items, n, unattributed)
        _moved(r, Reason(
            "relocated", f"{stage}: none of its instructions sit on {r.line}:{r.col}, where {before} had {n}; the "
                         f"only unclaimed ones of its kind, {moved}, each moving {part} of the {width} bytes, sit on "
                         f"line {line}:{col}: the backend loads there only the bytes the value's use needs"))


def unlocated(stage: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """`unlocated`: a row with fewer instructions of a width in `stage` than the stage before had, where the
    stage's instructions with no source location (line 0) of its kind, width and family number exactly its
    shortfall, and no other row falls short of them: the backend dropped their debug location (AMDGPU on
    gfx950: aiter's transposed LDS reads, `ds_read_b64_tr_b16`, 8 on the line and 16 on none, of 24). Rows
    short of the same kind and width take their own counts where line 0 holds exactly their shortfalls
    together (a block-fp8 matmul's two scale loads on gfx950, 2 + 16 `buffer_load_dword`)."""
    before = PREVIOUS.get(stage)
    if before is None:
        return
    needs: dict[tuple, list[tuple[AccessRow, int]]] = collections.defaultdict(list)
    for r in rows:
        if r.kind not in ACCEPTS or r.ambiguous.get(stage) or r.ambiguous.get(before) or not r.stages.get(stage):
            continue  # (a row with none here is relocate's)
        want: collections.Counter = collections.Counter()
        have: collections.Counter = collections.Counter()
        vias: dict[tuple, set] = {}
        for form, n in r.stages.get(before, {}).items():
            want[(r.widths.get(before, {}).get(form), family(form))] += n
            vias.setdefault((r.widths.get(before, {}).get(form), family(form)), set()).add(addressing(form))
        for form, n in r.stages[stage].items():
            have[(r.widths.get(stage, {}).get(form), family(form))] += n
        for (width, fam), n in want.items():
            if width is not None and n > have[(width, fam)]:
                via = next(iter(vias[(width, fam)])) if len(vias[(width, fam)]) == 1 else None
                needs[(ACCEPTS[r.kind], width, fam, via)].append((r, n - have[(width, fam)]))
    for (kinds, width, fam, via), members in needs.items():
        by_line = _pool(stage, unattributed, kinds, width, fam, via)
        pool = by_line.get(0, [])
        total, need = sum(u["count"] for u in pool), sum(n for _, n in members)
        columnless: list[dict] = []
        if members and total != need:
            # and those of a row's own line with no column: LLVM gives an instruction it merged from several
            # columns of one line that line alone (fla's attention on gfx950: 48 `ds_read_b64_tr_b16` four
            # rows lack, 40 on no line, 8 at 167:0 beside the row at 167:43)
            columnless = [u for line in sorted({r.line for r, _ in members}) for u in by_line.get(line, [])
                          if u["col"] == 0 and line]
            total += sum(u["count"] for u in columnless)
        if not members or total != need:
            continue
        forms = " and ".join(sorted({u["form"] for u in pool + columnless}))
        nowhere = "no source location (line 0)" + (" or their line with no column" if columnless else "")
        # (several rows short of the same kind and width: line 0 holds exactly their shortfalls together, each
        # takes its own count; which of those instructions is whose, the counts do not say)
        where = " and ".join(sorted({o.where for o, _ in members}))
        for r, n in members:
            own = [u for u in columnless if u["line"] == r.line]  # (its line's first)
            _take(stage, r, own + pool, n, unattributed, follow=False)  # (a part of its instructions: its line stays)
            head = f"{stage}: {n} of its {before} instructions {'has' if n == 1 else 'have'} no counterpart on " \
                "its line; "
            _moved(r, Reason("unlocated", head + (
                f"{n} {forms} with {nowhere}, claimed by no access and lacking from no other, "
                "make them up: the backend dropped their debug location" if len(members) == 1 else
                f"{total} {forms} with {nowhere}, claimed by no access, are what the accesses at "
                f"{where} lack together: each takes its own count (which is whose, counts do not say); the backend "
                "dropped their debug location")))


_TWO_ADDRESS = re.compile(r"^ds_(?:(?:read|write)2(?:st64)?|(?:load|store)_2addr(?:_stride64)?)_b(\d+)$")


def paired_on_no_line(stage: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """Shared-memory rows of one kind that all lack `stage` instructions, each of one form and width W in the
    stage before, while the stage's only unclaimed instructions of that kind are one two-address LDS form
    on no line (`ds_write2st64_b64`: two W-byte values at two addresses), exactly half as many as the rows'
    instructions together: AMDGPU's load/store optimizer paired them, and LLVM gave the pairs no line. The
    rows share those instructions (`ambiguous`): which value pairs with which, counts do not tell (Liger's
    fused MoE on gfx942: the gate and up tiles' `local_store`s, 4 + 4, in 4 `ds_write2st64_b64`)."""
    before = PREVIOUS.get(stage)
    if before is None or stage != "amdgcn":
        return
    groups: dict[str, list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        if r.kind in ("shared_load", "shared_store") and _lacks(r, stage, before) and not r.relocations:
            groups[r.kind].append(r)
    for kind, members in groups.items():
        widths = {w for r in members for w in r.widths.get(before, {}).values()}
        if len(members) < 2 or len(widths) != 1 or None in widths or \
                any(len(r.stages[before]) != 1 for r in members):
            continue
        (width,) = widths
        pool = unclaimed_items(stage, (kind,), unattributed)
        two = _TWO_ADDRESS.match(pool[0]["form"]) if len(pool) == 1 else None
        if two is None or pool[0]["line"] != 0 or int(two.group(1)) // 8 != width or \
                2 * pool[0]["count"] != sum(sum(r.stages[before].values()) for r in members):
            continue
        (item,) = pool
        n, form = item["count"], item["form"]
        for r in members:
            r.ambiguous.setdefault(stage, {})[form] = n
            r.widths.setdefault(stage, {})[form] = item.get("bytes")
            r.ambiguous_with.extend(f"{o.line}:{o.col} {o.op}" for o in members if o is not r)
            others = ", ".join(f"{o.line}:{o.col}" for o in members if o is not r)
            _moved(r, Reason(
                "unlocated", f"{stage}: none of its instructions sit on {r.line}:{r.col}; the {n} unclaimed {form} "
                             f"on no line, each moving two {width}-byte values at two addresses, hold its "
                             f"{sum(r.stages[before].values())} {before} accesses and those of {others} together: "
                             f"the backend paired them (which with which, the counts do not tell)"))
        item["count"] = 0
        unattributed[:] = [u for u in unattributed if u["count"] > 0]


def _in_line(stage: str, before: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """A row whose `stage` instructions sit on its own line at another column (LLVM gave a dot operand's
    loads the dot's position: xformers' lightning attention, 16 `ld.shared.b32` on 393:59 for the local_load
    at 393:44): the same count and widths, or the same bytes, of its kind and family, and no other row of
    the line missing instructions of those kinds. Stages without columns joined the line already."""
    if stage in LINE_ONLY_STAGES:
        return
    missing = [r for r in rows if _lacks(r, stage, before)]
    for r in missing:
        if any(o is not r and o.line == r.line and set(ACCEPTS[o.kind]) & set(ACCEPTS[r.kind]) for o in missing):
            continue
        _take_matching(stage, before, r, r.line, unattributed, other_col=r.col)
        if _lacks(r, stage, before) and r.written is not None:
            # a helper's access whose instructions LLVM gave another line of the helper at the same call
            # (xformers' split-K: a dot operand's reads written at 903:45, sitting on the dot's 901:28)
            groups: dict[str, list[dict]] = collections.defaultdict(list)
            for u in unattributed:
                if u["stage"] == stage and u["line"] == r.line and u["col"] == r.col and u.get("written") and \
                        u["written"] != f"{r.written[1]}:{r.written[2]}":
                    groups[u["written"]].append(u)
            fits = [w for w, items in groups.items() if _matches(r, before, items)]
            if len(fits) == 1:
                items = groups[fits[0]]
                line, col, moved = _take(stage, r, items, sum(u["count"] for u in items), unattributed)
                _moved(r, Reason(
                    "relocated", f"{stage}: none of its instructions sit on {r.written[1]}:{r.written[2]}, where "
                                 f"{before} had them; exactly {moved} of the same kind and width sit on "
                                 f"{fits[0]} at the same call ({line}:{col}), claimed by no access there: LLVM's "
                                 f"code generation moved them next to their use"))


def _matches(r: AccessRow, before: str, items: list[dict]) -> bool:
    """Whether unclaimed `items` are exactly the row's `before` instructions again: the same count and
    widths, of its kind and family."""
    forms = r.stages.get(before, {})
    widths = r.widths.get(before, {})
    if not forms or any(widths.get(f) is None for f in forms):
        return False
    fams = {family(f) for f in forms}
    if any(u["kind"] not in ACCEPTS[r.kind] or family(u["form"]) not in fams or not u.get("bytes") for u in items):
        return False
    return sum(u["count"] for u in items) == sum(forms.values()) and \
        {u["bytes"] for u in items} == set(widths.values())


def _take_matching(stage: str, before: str, r: AccessRow, line: int, unattributed: list[dict],
                   other_col: int | None = None) -> None:
    """Move onto `r` the unclaimed `stage` instructions of `line` (at a column other than `other_col`, when
    given) that are exactly its `before` instructions: the same count and widths, or the same bytes."""
    forms = r.stages.get(before, {})
    widths = r.widths.get(before, {})
    if not forms or any(widths.get(f) is None for f in forms):
        return
    fams = {family(f) for f in forms}
    if len(fams) != 1:
        return
    items = [u for u in unattributed if u["stage"] == stage and u["line"] == line and u["count"] > 0
             and (other_col is None or u["col"] != other_col)
             and u["kind"] in ACCEPTS[r.kind] and u.get("bytes") and family(u["form"]) in fams]
    count, nbytes = sum(forms.values()), r.stage_bytes(before)
    if not items:
        return
    if _matches(r, before, items):
        _record(stage, before, r, *_take(stage, r, items, count, unattributed))
    elif sum(u["count"] * u["bytes"] for u in items) == nbytes:
        _record(stage, before, r, *_take(stage, r, items, sum(u["count"] for u in items), unattributed), nbytes)


def _follow(stage: str, before: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """A row whose `before` instructions were found on another line: `stage`'s are looked for on that line
    first (same count, or the same bytes re-vectorized, of the row's kind and family)."""
    for r in rows:
        line = r.moved_to.get(before)
        if line is None or r.stages.get(stage) or r.ambiguous.get(stage) or r.kind not in ACCEPTS:
            continue
        _take_matching(stage, before, r, line, unattributed)


def _relocate_mma(stage: str, before: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """MMA rows short of instructions against the stage before (4 wgmma, 3 HGMMA on the line) while the
    stage holds exactly that many unclaimed MMA instructions of the same form elsewhere: ptxas' line table
    put them there (an HGMMA's -gp line can be the PTX line after its inline-asm block)."""
    short: dict[str, list[tuple[AccessRow, int]]] = collections.defaultdict(list)
    for r in rows:
        if r.kind != "mma_shared":
            continue
        have, had = sum(r.stages.get(stage, {}).values()), sum(r.stages.get(before, {}).values())
        forms = set(r.stages.get(stage, {}))
        if had > have and len(forms) <= 1:
            short[next(iter(forms), "")].append((r, had - have))
    for form, members in short.items():
        pool = [u for u in unclaimed_items(stage, ("mma",), unattributed) if u["form"] == form or not form]
        if not pool and not form:
            _mma_surplus(stage, before, rows, members)
            continue
        if len({u["form"] for u in pool}) != 1 or sum(u["count"] for u in pool) != sum(n for _, n in members):
            continue
        for r, n in members:
            lines = ", ".join(sorted({f"{u['line']}:{u['col']}" for u in pool if u["count"] > 0}))
            _, _, moved = _take(stage, r, pool, n, unattributed)
            _moved(r, Reason(
                "relocated", f"{stage}: {moved} of its MMA instructions sit on {lines}, where the line table put "
                             f"them; with them it has as many as {before} ({sum(r.stages[before].values())}), "
                             f"and no other MMA of the kernel is unclaimed"))


def _mma_surplus(stage: str, before: str, rows: list[AccessRow], members: list[tuple[AccessRow, int]]) -> None:
    """MMA rows with none of their instructions in `stage`, none unclaimed, while other MMA rows hold more of
    one form than the stage before had, as many more in all as the lacking rows had: the line table gave
    the lacking rows' instructions to those rows' lines (Triton's Gluon persistent-matmul tutorial for
    cuda:100: its MMA helper called in the loop, 669:29, and in the drain, 684:29, 4 `tcgen05.mma` each in
    LLIR, all 8 on the loop's line in PTX). Each lacking row takes what the stage before had."""
    surplus = []
    for r in rows:
        forms = r.stages.get(stage, {})
        had = sum(r.stages.get(before, {}).values())
        if r.kind == "mma_shared" and len(forms) == 1 and had and sum(forms.values()) > had \
                and not r.ambiguous.get(stage):
            surplus.append((r, next(iter(forms)), sum(forms.values()) - had))
    extra = sum(e for *_, e in surplus)
    if not surplus or len({f for _, f, _ in surplus}) != 1 or extra != sum(n for _, n in members) or \
            any(set(r.stages.get(before, {})) != set(h.stages.get(before, {}))
                for r, _ in members for h, *_ in surplus):
        return
    form = surplus[0][1]
    holders = (f"{surplus[0][0].line}:{surplus[0][0].col} has {extra} more {form} than {before} gave it"
               if len(surplus) == 1 else
               ", ".join(f"{h.line}:{h.col} ({e})" for h, _, e in surplus) + f" have {extra} more {form} than "
               f"{before} gave them")
    whose = "this row" if len(members) == 1 else "the rows lacking them"
    for h, _, e in surplus:
        h.stages[stage][form] -= e
    for r, n in members:
        r.stages[stage] = {form: n}
        r.widths.setdefault(stage, {})[form] = None
        _moved(r, Reason(
            "relocated", f"{stage}: none of its {n} MMA instructions sit on {r.line}:{r.col}; {holders}, as many as "
                         f"{before} gave {whose}, and no MMA instruction is unclaimed: the line table put them there"))


def _relocate_by_bytes(stage: str, before: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """The same, where the stage re-vectorized what it moved (8 x `load i32` became 4 x `ld.shared.v2.b32`):
    one other line holds exactly the row's bytes per thread in instructions of its kind and family."""
    needs: dict[tuple, list[tuple[AccessRow, int]]] = collections.defaultdict(list)
    for r in rows:
        if not _lacks(r, stage, before):
            continue
        per: collections.Counter = collections.Counter()
        for form, n in r.stages[before].items():
            width = r.widths.get(before, {}).get(form)
            if width is None:
                per.clear()
                break
            per[family(form)] += n * width
        for fam, total in per.items():
            needs[(ACCEPTS[r.kind], fam)].append((r, total))
    for (kinds, fam), members in needs.items():
        by_line: dict[int, list[dict]] = collections.defaultdict(list)
        for u in unattributed:
            if (u["stage"] == stage and u["kind"] in kinds and u.get("bytes") and family(u["form"]) == fam
                    and u["count"] > 0):
                by_line[u["line"]].append(u)
        own = {r.line for r, _ in members}
        totals = {line: sum(u["count"] * u["bytes"] for u in items) for line, items in by_line.items()
                  if line not in own}
        counts = collections.Counter(b for _, b in members)
        for r, need in members:
            fits = [line for line, t in totals.items() if t == need]
            if len(fits) != 1 or counts[need] != 1:
                continue
            items = by_line[fits[0]]
            line, col, moved = _take(stage, r, items, sum(u["count"] for u in items), unattributed)
            del totals[fits[0]]
            _record(stage, before, r, line, col, moved, need)


def _moved(row: AccessRow, reason: Reason) -> None:
    """The row's instructions were found off its position: the reason, and attribution `moved`."""
    row.relocations.append(reason)
    row.attribution = "moved"


# A read-modify-write's operation in each stage's spelling of an atomic instruction: LLIR `atomicrmw xchg`,
# PTX `atom.global.gpu.acq_rel.exch.b32`, AMDGCN `global_atomic_swap`/`buffer_atomic_swap` (TTGIR: `exch`)
_RMW_OP = re.compile(r"^atomicrmw\s+(\w+)|^atom\.(?:\w+\.)*?(exch|add|and|or|xor|max|min|inc|dec)\b"
                     r"|^(?:global|buffer|flat)_atomic_([a-z]+)")
_RMW_SPELLINGS = {"xchg": "exch", "swap": "exch", "smax": "max", "smin": "min", "umax": "umax", "umin": "umin",
                  "fadd": "fadd", "add": "add"}
_CAS_FORM = re.compile(r"cmpxchg|cmpswap|\.cas\b")


def atomics_by_operation(stage: str, rows: list[AccessRow]) -> None:
    """A compare-and-swap row holding another atomic operation's instructions, where the kernel's one
    read-modify-write access of that operation has none in the stage: they are its (a CAS lowers to no
    exchange). AMD's backend put a spin lock's release, `tl.atomic_xchg(lock, 0)`, on the acquiring
    `tl.atomic_cas` line in the line table."""
    for cas in [r for r in rows if r.kind == "atomic" and r.op.endswith("atomic_cas")]:
        for form in [f for f in cas.stages.get(stage, {}) if not _CAS_FORM.search(f)]:
            m = _RMW_OP.match(form)
            if m is None:
                continue
            op = next(g for g in m.groups() if g)
            op = _RMW_SPELLINGS.get(op, op)
            lacking = [r for r in rows if r.kind == "atomic" and r.op.endswith("atomic_rmw") and not r.stages.get(stage)
                       and r.sites and re.search(rf"atomic_rmw\s+{re.escape(op)}\b", r.sites[0].op.text)]
            if len(lacking) != 1:
                continue
            (row,) = lacking
            n = cas.stages[stage].pop(form)
            row.stages[stage] = {form: n}
            row.widths.setdefault(stage, {})[form] = cas.widths.get(stage, {}).pop(form, None)
            _moved(row, Reason("relocated", f"{stage}: its {n} `{form}` sit on the compare-and-swap's position "
                                            f"{cas.line}:{cas.col} in the line table; a compare-and-swap lowers to "
                                            f"no {op}, and this is the kernel's one {op} access without one"))


# TTGIR element type -> its LLIR spelling in an atomic's form (`atomicrmw add i64`, `atomicrmw fadd <2 x bfloat>`)
_LL_TYPES = {"f32": "float", "f16": "half", "bf16": "bfloat", "f64": "double"}


def atomics_off_position(rows: list[AccessRow], unattributed: list[dict]) -> None:
    """`relocated` in LLIR: an atomic with no LLIR instruction, where the kernel's only unclaimed LLIR atomics
    of its operation and element type sit on one other position, at which no atomic access is: the lowering
    gave them that position (Triton 3.9 on gfx942: a scalar `tl.atomic_add(i64_ptr, 1)` at 92:5, its
    `atomicrmw add i64` on the `tl.load` of line 89, helper 116). One row per (operation, type) lacking, one
    position holding them: else nothing is moved."""
    # (a position holding only an AMD buffer atomic has no access a plain atomic there could be)
    atomic_lines = {(r.line, r.col) for r in rows if r.kind == "atomic" and not r.op.startswith("amdg.buffer")}
    lacking: dict[tuple[str, str], list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        if r.kind != "atomic" or r.stages.get("llir") or r.ambiguous.get("llir") or not r.sites:
            continue
        m = _TT_ATOMIC.search(r.sites[0].op.text)
        if m is None:
            continue
        op = "cmpxchg" if m.group(1) == "cas" else m.group(2)
        lacking[(op, _LL_TYPES.get(r.dtype, r.dtype))].append(r)
    for (op, ll_type), members in lacking.items():
        if len(members) != 1:
            continue
        (row,) = members
        items = [u for u in unattributed if u["stage"] == "llir" and u["kind"] == "atomic" and u["count"] > 0
                 and (u["line"], u["col"]) not in atomic_lines and _atomic_form(u["form"]) == (op, ll_type)]
        if not items or len({(u["line"], u["col"]) for u in items}) != 1:
            continue
        n = sum(u["count"] for u in items)
        line, col, moved = _take("llir", row, items, n, unattributed)
        there = ("where only an AMD buffer atomic is (which lowers to buffer instructions alone)"
                 if any(r.kind == "atomic" and (r.line, r.col) == (line, col) for r in rows)
                 else "where no atomic access is")
        _moved(row, Reason("relocated", f"llir: none of its instructions sit on {row.line}:{row.col}; its {moved} "
                                        f"`{items[0]['form']}`, the kernel's only unclaimed ones, sit on {line}:{col}, "
                                        f"{there}: the lowering gave them that position"))


_TT_ATOMIC = re.compile(r"\batomic_(cas|rmw)\b\s*(\w+)?")
_LL_ATOMIC = re.compile(r"^(?:atomicrmw\s+(\w+)|(cmpxchg))\s+(?:volatile\s+)?(?:<\d+ x )?([\w.]+)")


def _atomic_form(form: str) -> tuple[str, str] | None:
    """An LLIR atomic form's (operation, element type): `atomicrmw add i64` -> ("add", "i64"),
    `cmpxchg i32` -> ("cmpxchg", "i32"); None for any other."""
    m = _LL_ATOMIC.match(form)
    return ((m.group(1) or m.group(2)), m.group(3)) if m else None


def _record(stage: str, before: str, row: AccessRow, line: int, col: int, moved: int,
            nbytes: int | None = None) -> None:
    same = (f"exactly {moved} of the same kind and width" if nbytes is None else
            f"{moved} of the same kind moving exactly its {nbytes} bytes per thread (re-vectorized)")
    if line == 0 and row.moved_to.get(before) == 0:  # (its instructions had none the stage before either)
        _moved(row, Reason(
            "unlocated", f"{stage}: its {before} instructions had no source location, and {same} have none "
                         f"(line 0), claimed by no access: their lowering"))
    elif line == 0:  # no source location at all: nothing moved them, the backend lost their location
        _moved(row, Reason(
            "unlocated", f"{stage}: none of its instructions sit on {row.line}:{row.col}, where {before} had them; "
                         f"{same} have no source location (line 0), claimed by no access: the backend dropped "
                         f"their debug location"))
    elif row.moved_to.get(before) == line:  # (followed: the stage before had them on that line too)
        _moved(row, Reason(
            "relocated", f"{stage}: none of its instructions sit on {row.line}:{row.col}; {same} sit on line "
                         f"{line}:{col}, where its {before} instructions were found, claimed by no access there"))
    else:
        who = ("the SASS lines follow the PTX (or ptxas moved them)" if stage == "sass"
               else "LLVM's code generation moved them next to their use")
        _moved(row, Reason(
            "relocated", f"{stage}: none of its instructions sit on {row.line}:{row.col}, where {before} had "
                         f"them; {same} sit on line {line}:{col}, claimed by no access there: {who}"))


def at_use(module: Module, ttgir: Module, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """`at-use` in LLIR: a load with no LLIR instruction whose bytes sit on the line of an op using it."""
    use_lines = _use_lines(ttgir)
    for r in rows:
        if r.stages.get("llir") or r.ambiguous.get("llir") or not r.kind.endswith("load") or not r.elements_per_thread:
            continue
        # the bytes of every register, or of the distinct ones where registers repeat an element (a
        # broadcast basis): LLVM loads a repeated shared-memory element once
        wants = {r.elements_per_thread * r.element_bytes: r.elements_per_thread}
        if r.distinct_per_thread and r.distinct_per_thread < r.elements_per_thread:
            wants[r.distinct_per_thread * r.element_bytes] = r.distinct_per_thread
        result = _RESULT.match(r.sites[0].op.text)
        if result is None:
            continue
        lines = use_lines.get(result.group(1), set()) - {r.line}
        matches = []
        for line in lines:
            items = [u for u in unattributed if u["stage"] == "llir" and u["line"] == line
                     and u["kind"] in ACCEPTS.get(r.kind, ()) and u.get("bytes") and u["count"] > 0]
            if items and sum(u["count"] * u["bytes"] for u in items) in wants:
                matches.append((line, items))
        if len(matches) != 1:
            continue
        line, items = matches[0]
        n = sum(u["count"] for u in items)
        want = sum(u["count"] * u["bytes"] for u in items)
        elements = wants[want]
        repeat = "" if elements == r.elements_per_thread else (
            f": its {r.elements_per_thread} registers hold {elements} distinct elements, each "
            f"{r.elements_per_thread // elements} times")
        _, col, moved = _take("llir", r, items, n, unattributed)
        r.relocations.append(Reason(
            "at-use", f"llir: the lowering put its {moved} instructions ({want} bytes per thread, exactly the "
                      f"access's {elements} x {r.element_bytes} bytes{repeat}) on line {line}:{col}, the op "
                      f"that uses the loaded value, not on {r.line}:{r.col}"))


def selected(stage: str, ttgir: Module, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """`selected`: two loads that `stage` has no instruction of, whose values only an `arith.select` chooses
    between, while the select's position holds, unclaimed, exactly the instructions one of them had in the
    stage before: the backend loads from the address the condition selects (`select(c, load a, load b)`
    became `load(select(c, a, b))`: AMDGPU on FlagGems' generated `where` of two scalar operands). The
    true value's row takes the instructions; the other is combined with it (nothing is counted twice)."""
    before = PREVIOUS.get(stage)
    if before is None:
        return
    by_result: dict[str, AccessRow] = {}
    for r in rows:
        if r.kind.endswith("load") and r.sites and _lacks(r, stage, before):
            m = _RESULT.match(r.sites[0].op.text)
            if m:
                by_result[m.group(1)] = r
    if len(by_result) < 2:
        return
    for op in ttgir.ops:
        if op.op != "arith.select" or op.loc is None:
            continue
        names = operands(op.text)
        if len(names) < 3 or names[1] not in by_result or names[2] not in by_result or names[1] == names[2]:
            continue
        a, b = by_result[names[1]], by_result[names[2]]
        if a.stages.get(stage) or b.stages.get(stage) or a.stages[before] != b.stages[before] \
                or a.kind != b.kind or a.sites[0].op.function != op.function:
            continue
        outer = op.loc.outermost()
        items = [u for u in unattributed if u["stage"] == stage and (u["line"], u["col"]) == (outer.line, outer.col)
                 and u["kind"] in ACCEPTS.get(a.kind, ()) and u["count"] > 0]
        n = sum(a.stages[before].values())
        want = a.stage_bytes(before)
        if not items or sum(u["count"] for u in items) != n or want is None \
                or sum(u["count"] * (u.get("bytes") or 0) for u in items) != want:
            continue
        _take(stage, a, items, n, unattributed)
        b.combined_with = a
        forms = ", ".join(f"{k}x {f}" for f, k in a.stages[stage].items())
        for r, other in ((a, b), (b, a)):
            r.relocations.append(Reason(
                "selected", f"{stage}: {before}'s loads of {a.line}:{a.col} and {b.line}:{b.col} are one in "
                            f"{stage}, {forms} at {outer.line}:{outer.col}, the arith.select between their values: "
                            f"the backend loads from the address the condition selects (the other: "
                            f"{other.line}:{other.col})"))


def arms_merged(stage: str, rows: list[AccessRow], ttgir_lines: list[str], unattributed: list[dict]) -> None:
    """`merged-arms` in a lower stage: the row has no instruction in `stage`, and exactly one access in the
    other arm of its `scf.if` is its twin (the same op, kind, type, layout and written position, the same
    instructions in the stage before) and has them: the backend merged the two arms' copies into one
    (ptxas on SGLang's decode attention: one helper's loads, called in both arms with another cache
    pointer, become one set of LDGs). The row takes the twin's verdict; nothing is counted twice. Not
    where the stage has an unclaimed instruction of the row's kinds (its copy may be elsewhere)."""
    before = PREVIOUS.get(stage)
    if before is None:
        return
    for r in rows:
        if not _lacks(r, stage, before) or not r.sites or _unclaimed(stage, set(ACCEPTS[r.kind]), unattributed):
            continue
        twins = [p for p in rows if p is not r and p.sites and p.stages.get(stage) and not p.ambiguous.get(stage)
                 and (p.op, p.kind, p.shape, p.dtype, p.layout, p.written) == (r.op, r.kind, r.shape, r.dtype,
                                                                              r.layout, r.written)
                 and p.stages.get(before) == r.stages.get(before)
                 and _other_arms(ttgir_lines, r.sites[0].op.lineno, p.sites[0].op.lineno)]
        if len(twins) != 1:
            continue
        (p,) = twins
        n = sum(r.stages[before].values())
        tool = {"sass": "ptxas", "ptx": "LLVM's NVPTX backend", "amdgcn": "LLVM's AMDGPU backend"}[stage]
        forms = ", ".join(f"{k}x {f}" for f, k in p.stages[stage].items())
        r.combined_with = p
        r.relocations.append(Reason(
            "merged-arms", f"{stage}: none of its {n} {before} instructions has a counterpart; the other arm of "
                           f"its scf.if has the same access at {p.where} with the same {before} instructions, "
                           f"and {tool} merged the two arms' copies into one ({forms} serve both)"))


def removed(stage: str, rows: list[AccessRow], unattributed: list[dict]) -> None:
    """`removed`: rows whose instructions the stage dropped, proven by the whole kernel's counts."""
    before = PREVIOUS.get(stage)
    if before is None:
        return
    for r in rows:
        if not _lacks(r, stage, before) or any(c.code in ("merged-arms", "selected") for c in r.relocations):
            continue
        kinds = set(ACCEPTS[r.kind])
        if _unclaimed(stage, kinds, unattributed):
            continue
        others = [o for o in rows if o is not r and kinds & set(ACCEPTS.get(o.kind, ()))
                  and (o.stages.get(stage) or o.ambiguous.get(stage))]
        if any(o.ambiguous.get(stage) or o.stage_bytes(stage) is None or o.stage_bytes(before) is None
               or o.stage_bytes(stage) > o.stage_bytes(before) for o in others):
            continue
        n = sum(r.stages[before].values())
        tool = {"sass": "ptxas", "ptx": "LLVM's NVPTX backend", "amdgcn": "LLVM's AMDGPU backend"}[stage]
        why = (" (a load whose value is never used, e.g. bits a mask drops, or that never executes)"
               if r.kind.endswith("load") else "")
        r.relocations.append(Reason(
            "removed", f"{stage}: none of its {n} {before} instructions has a counterpart, and no {stage} "
                       f"instruction of its kind is unclaimed anywhere in the kernel while no other access "
                       f"gained bytes: {tool} emitted nothing for them{why}"))


def combined(stage: str, rows: list[AccessRow], unattributed: list[dict], offset=None) -> None:
    """`combined`: the rows of one kind that the stage has no instructions of, while exactly one other
    access of that kind gained exactly their bytes together over the stage before: the backend merged
    them into its wider instruction (AMDGPU: two adjacent 4-byte scalar loads, one `global_load_dwordx2`;
    four 1-byte stores, one `global_store_dword`). Each takes that access's verdict; nothing is counted
    twice. Any other gain, or an unclaimed instruction of the kind, and nothing is claimed. `offset(a, b)`:
    how many elements row b's address lies after row a's (None where not a constant), which pairs rows
    when several gained."""
    before = PREVIOUS.get(stage)
    if before is None:
        return
    if offset is not None:
        _one_line_run(stage, before, rows, unattributed, offset)
    groups: dict[tuple[str, ...], list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        if not _lacks(r, stage, before):
            continue
        if not any(c.code in ("removed", "merged-arms", "selected") for c in r.relocations):
            groups[ACCEPTS[r.kind]].append(r)
    for accepts, missing in groups.items():
        kinds = set(accepts)
        if offset is not None and len(missing) > 1:
            _combined_unclaimed(stage, before, missing, kinds, unattributed, offset)
            missing = [r for r in missing if _lacks(r, stage, before) and r.combined_with is None]
        if offset is not None and missing:
            _combined_spread(stage, before, missing, rows, kinds, unattributed, offset)
            missing = [r for r in missing if _lacks(r, stage, before) and r.combined_with is None]
        if not missing or any(not r.stage_bytes(before) for r in missing):
            continue
        gained = [o for o in rows if o not in missing and kinds & set(ACCEPTS.get(o.kind, ()))
                  and not o.ambiguous.get(stage) and o.stage_bytes(stage) is not None
                  and o.stage_bytes(before) is not None and o.stage_bytes(stage) > o.stage_bytes(before)]
        if not _unclaimed(stage, kinds, unattributed):
            plan = _combination(missing, gained, stage, before, offset)
        elif offset is not None and gained:
            # another unclaimed instruction of the kind could be where the bytes went: only addresses decide,
            # each missing row's element within the bytes of one gaining access's instruction (Conch's NMS on
            # gfx942 by Triton 3.8: a box's x1, y1, x2, y2 at `boxes + 0` to `+ 3`, one `s_load_dwordx4` on
            # x1's line, while a copy of the column boxes' `buffer_load_dwordx4` sits unclaimed on no line)
            gain = {id(p): p.stage_bytes(stage) - p.stage_bytes(before) for p in gained}
            plan = _by_address(missing, gained, gain, before, stage, offset) \
                if sum(gain.values()) == sum(r.stage_bytes(before) for r in missing) else []
        else:
            continue
        for p, group in plan:
            gain = p.stage_bytes(stage) - p.stage_bytes(before)
            forms = ", ".join(f"{n}x {f}" for f, n in p.stages[stage].items())
            others = f" with {len(group) - 1} other access{'es' if len(group) > 2 else ''}" if len(group) > 1 else ""
            for r in group:
                r.combined_with = p
                r.relocations.append(Reason(
                    "combined", f"{stage}: none of its {sum(r.stages[before].values())} {before} instructions has "
                                f"a counterpart; {p.line}:{p.col} {p.op} moves {gain} more bytes per thread than in "
                                f"{before} ({forms}): the backend combined its {r.stage_bytes(before)} "
                                f"byte{'s' if r.stage_bytes(before) != 1 else ''}{others} into that wider instruction"))


def _combined_unclaimed(stage: str, before: str, missing: list[AccessRow], kinds: set[str],
                        unattributed: list[dict], offset) -> None:
    """Rows of one element an instruction (scalars, or tensors of one shape and layout whose threads hold one
    element each, or one contiguous element at a time) that all lack `stage` instructions, whose elements lie
    side by side (their addresses a constant number of elements apart, together one run of bytes in each
    thread), while exactly one unclaimed instruction form of their kind moves exactly that run, as many times
    as each row had instructions, on no line or on one of theirs: the backend combined their loads, the i-th
    of each into one, and gave them to none (Transformer Engine's cross entropy backward on gfx942 by Triton
    3.7: `m` and `d` at `stats + 2 * row` and `+ 1`, one `s_load_dwordx2` on no line; torchtitan's MLA RoPE:
    cos and sin at `cache + base` and `+ 1`, one `buffer_load_dwordx2`; Conch's BEV pooling: a point's x, y,
    z and batch at `geom + 0` to `+ 3`, 8 elements a thread, 8 `buffer_load_dwordx4`). The lowest address's
    row takes them; the others are `combined` with it."""
    scalars = [r for r in missing if _one_each(r, before)]
    if len(scalars) < 2 or len({sum(r.stages[before].values()) for r in scalars}) != 1:
        return
    first = scalars[0]
    count, size = sum(first.stages[before].values()), first.element_bits // 8
    if any(r.element_bits != first.element_bits for r in scalars):
        return
    ordered = _adjacent_run(first, scalars, [], offset)
    if ordered is None:
        return
    total = size * len(ordered)
    lines = {0} | {r.line for r in ordered}
    pool = unclaimed_items(stage, kinds, unattributed)
    fits = [u for u in pool if u["count"] == count and u.get("bytes") == total and u["line"] in lines]
    if len(fits) != 1 or len(pool) != 1:  # (any other unclaimed instruction of the kind: not proven)
        return
    (item,) = fits
    low = ordered[0]
    line, col, _ = _take(stage, low, [item], count, unattributed)
    where = "no source location (line 0)" if line == 0 else f"line {line}:{col}"
    others = ", ".join(f"{r.line}:{r.col}" for r in ordered[1:])
    if count == 1:
        what = (f"the one unclaimed {item['form']} ({total} bytes, on {where}) moves its element and the "
                f"{len(ordered) - 1} beside it of {others}: the backend combined their loads into one")
    else:
        what = (f"the {count} unclaimed {item['form']} ({total} bytes each, on {where}) move its {count} elements "
                f"and, beside each, those of {others}: the backend combined their loads, the i-th of each into "
                f"the i-th")
    _moved(low, Reason("unlocated" if line == 0 else "relocated",
                       f"{stage}: none of its instructions sit on {low.line}:{low.col}; {what}"))
    _mark_combined(stage, before, ordered, item["form"], count, "has a counterpart")


def _adjacent_run(first: AccessRow, rows: list[AccessRow], optional: list[AccessRow], offset) -> list | None:
    """`rows` and those of `optional` whose address is a constant number of elements from `first`'s,
    ordered by address, when their elements lie side by side (one run of bytes); None otherwise, or where a
    row of `rows` has no constant offset (an `optional` one without is of another run)."""
    size = first.element_bits // 8
    starts = {}
    for r in [*rows, *optional]:
        k = 0 if r is first else offset(first, r)
        if k is None:
            if r in rows:
                return None
            continue
        starts[id(r)] = k * size
    ordered = sorted([r for r in [*rows, *optional] if id(r) in starts], key=lambda r: starts[id(r)])
    base = starts[id(ordered[0])]
    if [starts[id(r)] - base for r in ordered] != [i * size for i in range(len(ordered))]:
        return None  # (not one run of adjacent elements)
    return ordered


def _mark_combined(stage: str, before: str, ordered: list[AccessRow], form: str, count: int, own: str) -> None:
    """Every row of the run after the first is `combined` with the first, whose `form` instructions move
    the whole run (`own`: what none of its instructions of the stage before is: 'has a counterpart')."""
    low, size = ordered[0], ordered[0].element_bits // 8
    moves = "both" if len(ordered) == 2 else f"all {len(ordered)}"
    for r in ordered[1:]:
        r.combined_with = low
        r.relocations.append(Reason(
            "combined", f"{stage}: none of its {sum(r.stages[before].values())} {before} instructions {own}; "
                        f"{'its element lies' if count == 1 else 'each of its elements lies'} beside "
                        f"{low.line}:{low.col}'s, whose {form} moves {moves}: the backend combined its {size} bytes"
                        f"{'' if count == 1 else ' an instruction'} into that wider instruction"))


def _one_each(r: AccessRow, before: str) -> bool:
    """One element an instruction in `before` (a scalar, or a tensor whose threads hold one element each or
    one contiguous element at a time), whole bytes."""
    n = sum(r.stages.get(before, {}).values())
    return bool(r.sites and n and r.element_bits and r.element_bits % 8 == 0) and \
        r.stage_bytes(before) == n * (r.element_bits // 8) and \
        (not r.shape or r.distinct_per_thread == 1 or r.contiguous_per_thread == 1)


def _combined_spread(stage: str, before: str, missing: list[AccessRow], rows: list[AccessRow], kinds: set[str],
                     unattributed: list[dict], offset) -> None:
    """`_combined_unclaimed`'s run where the combined instructions sit on the lines of some of the run's rows
    (each where the scheduler put it) rather than on none: rows of one element an instruction, n each, side
    by side; those holding instructions hold only the run's wide form, and with the unclaimed ones of that
    form (on no line or one of theirs, and no other unclaimed instruction of the kind) there are exactly n
    (Conch's BEV pooling on gfx942 by Triton 3.5.1: x, y, z and batch at `geom + 0` to `+ 3`, 7 of the 8
    `global_load_dwordx4` on x's line, 1 on the batch's). The lowest address's row takes them all; the
    others are `combined` with it."""
    lacking = [r for r in missing if _one_each(r, before)]
    if not lacking:
        return
    first = lacking[0]
    count, size = sum(first.stages[before].values()), first.element_bits // 8

    def alike(r: AccessRow) -> bool:
        return _one_each(r, before) and sum(r.stages[before].values()) == count and r.element_bits == first.element_bits

    holders = [r for r in rows if r not in missing and kinds & set(ACCEPTS.get(r.kind, ())) and alike(r)
               and not r.ambiguous.get(stage) and len(r.stages.get(stage, {})) == 1
               and all((w or 0) > size for w in r.widths.get(stage, {}).values())]
    if not holders or not all(alike(r) for r in lacking):
        return
    ordered = _adjacent_run(first, lacking, holders, offset)  # (a holder of no constant offset: another run's)
    if ordered is None:
        return
    total = size * len(ordered)
    held = [r for r in ordered if r.stages.get(stage)]
    forms = {f for r in held for f in r.stages[stage]}
    if len(forms) != 1 or any(r.widths[stage][f] != total for r in held for f in r.stages[stage]):
        return
    (form,) = forms
    lines = {0} | {r.line for r in ordered}
    pool = unclaimed_items(stage, kinds, unattributed)
    fits = [u for u in pool if u["form"] == form and u["line"] in lines]
    if len(fits) != len(pool) or sum(r.stages[stage][form] for r in held) + sum(u["count"] for u in fits) != count:
        return
    if len(held) == 1 and not fits:
        return  # (one row holds them all on its line: `combined`'s gain finds the others' place)
    low = ordered[0]
    placed = [f"{r.stages[stage][form]} on {r.line}:{r.col}'s line" for r in held]
    for r in held:
        if r is not low:
            n = r.stages[stage].pop(form)
            r.widths[stage].pop(form, None)
            del r.stages[stage]
            low.stages.setdefault(stage, {}).setdefault(form, 0)
            low.stages[stage][form] += n
            low.widths.setdefault(stage, {})[form] = total
    if fits:
        placed.append(f"{sum(u['count'] for u in fits)} unclaimed on no line or theirs")
        _take(stage, low, fits, sum(u["count"] for u in fits), unattributed, follow=False)
    others = ", ".join(f"{r.line}:{r.col}" for r in ordered[1:])
    _moved(low, Reason("relocated", f"{stage}: its {count} {form} ({total} bytes each) move its {count} elements and, "
                                    f"beside each, those of {others}: the backend combined their loads, the i-th of "
                                    f"each into the i-th, and placed them where it scheduled them "
                                    f"({', '.join(placed)})"))
    _mark_combined(stage, before, ordered, form, count, "is its own")


def _one_line_run(stage: str, before: str, rows: list[AccessRow], unattributed: list[dict], offset) -> None:
    """Rows alike (one op kind, and in the stage before n instructions of one width W each), some lacking
    `stage` instructions while the others hold only one form of width W, n for each of them in all, and no
    instruction of that width and kind is unclaimed: the backend put their instructions on the lines of
    some of them, none combined or cut. Each takes n. Side by side in memory, one element an instruction, a
    run (Conch's NMS on gfx1201: a box's x1, y1, x2, y2 at `boxes + 0` to `+ 3`, four `s_load_b32` on x1's
    line; the column boxes', four `buffer_load_b32` on y2's; on gfx1100, 2 on x1's line and 2 on y1's); else
    every alike row of the kernel together (Liger's group norm backward on gfx1201: `mean` and `rstd`, two
    bf16 scalars at one offset of two tensors, both `global_load_d16_b16` on mean's line; its MoE backward on
    gfx1100: two 64x64 bf16 tiles, 2 `buffer_load_b128` each, all 4 on the first's line). Alike, the rows
    take the same whichever instruction is whose."""
    def shape(r: AccessRow) -> tuple[int, int] | None:  # (n, W) of `before`: one width, known
        widths = {r.widths.get(before, {}).get(f) for f in r.stages.get(before, {})}
        return (sum(r.stages[before].values()), widths.pop()) if len(widths) == 1 and None not in widths else None

    lacking = [r for r in rows if _lacks(r, stage, before) and r.combined_with is None and not r.relocations
               and shape(r)]

    def holds(r: AccessRow, form: str) -> bool:
        return (not r.relocations and not r.ambiguous.get(stage) and list(r.stages.get(stage) or {}) == [form]
                and shape(r) is not None)

    for first in rows:
        if not lacking:
            return
        forms = first.stages.get(stage) or {}
        if len(forms) != 1 or not holds(first, next(iter(forms))):
            continue
        (form, have), = forms.items()
        n, width = shape(first)
        if first.widths.get(stage, {}).get(form) != width or have <= n or have % n or \
                any(u.get("bytes") == width for u in unclaimed_items(stage, ACCEPTS[first.kind], unattributed)):
            continue
        alike = [r for r in rows if r is not first and r.kind == first.kind and r.stages.get(before)
                 and shape(r) == (n, width)]
        candidates = [r for r in alike if r in lacking] + [
            r for r in alike if r not in lacking and holds(r, form) and r.widths.get(stage, {}).get(form) == width]
        run = _adjacent_run(first, [first], [r for r in candidates if _one_each(r, before)], offset) \
            if _one_each(first, before) and width == first.element_bits // 8 else None
        side_by_side = run is not None and len(run) > 1
        group = run if side_by_side else sorted(  # (the rows lacking and those holding more than n: the others
            [r for r in (first, *candidates) if r in lacking or r.stages[stage][form] != n],  # hold their own)
            key=lambda r: (r.line, r.col))
        held = [r for r in group if r not in lacking]
        if len(held) == len(group) or sum(r.stages[stage][form] for r in held) != n * len(group):
            continue
        lines = ", ".join(f"{r.line}:{r.col}" for r in group)
        placed = ", ".join(f"{r.line}:{r.col}'s line ({r.stages[stage][form]})" for r in held)
        where = f"{held[0].line}:{held[0].col}'s line" if len(held) == 1 else placed
        which = (f"the {len(group)} accesses side by side in memory ({lines}), one element an instruction"
                 if side_by_side else f"the {len(group)} alike accesses ({lines})")
        for r in group:
            if r in held:
                r.stages[stage][form] = n
                continue
            r.stages[stage] = {form: n}
            r.widths.setdefault(stage, {})[form] = width
            lacking.remove(r)
            _moved(r, Reason(
                "relocated", f"{stage}: none of its instructions sit on {r.line}:{r.col}; the {n * len(group)} {form} "
                             f"({width} bytes each) of {which}, as {before} had them, sit on {where}: {n} for each, "
                             f"none combined or cut"))


def _combination(missing: list[AccessRow], gained: list[AccessRow], stage: str, before: str, offset=None):
    """Which missing rows went into which gaining access, when the bytes leave one answer: one access
    gaining them all; or each access gaining exactly the bytes of the missing rows on its own line, with
    at most one access left to take the rest; or each missing row's address within the bytes of exactly
    one gaining access's wider instruction (aiter-style varlen attention on gfx942: `cu_seqlens + b` and
    `+ b + 1`, twice, two `s_load_dwordx2`). Nothing unless every byte and every row is accounted for; but
    by address alone, the accesses the rows fall in may be some of those that gained, each gaining exactly
    its rows' bytes (another's gain is no combining: fla's attention on gfx1201, `chunk_indices + i_t * 2` and
    `+ 1` in one `s_load_b64`, while a load whose line LLVM gave 31 of a pipelined loop's loads gained too)."""
    gain = {id(p): p.stage_bytes(stage) - p.stage_bytes(before) for p in gained}
    if not gained:
        return []
    if sum(gain.values()) != sum(r.stage_bytes(before) for r in missing):
        return _by_address(missing, gained, gain, before, stage, offset, every=False) if offset is not None else []
    if len(gained) == 1:
        return [(gained[0], missing)]
    plan, left, open_ = [], list(missing), []
    for p in gained:
        own = [r for r in left if r.line == p.line]
        if own and sum(r.stage_bytes(before) for r in own) == gain[id(p)]:
            plan.append((p, own))
            left = [r for r in left if r not in own]
        else:
            open_.append(p)
    if not open_ and not left:
        return plan
    if len(open_) == 1 and left and sum(r.stage_bytes(before) for r in left) == gain[id(open_[0])]:
        return [*plan, (open_[0], left)]
    return _by_address(missing, gained, gain, before, stage, offset) if offset is not None else []


def _by_address(missing: list[AccessRow], gained: list[AccessRow], gain: dict, before: str, stage: str, offset,
                every: bool = True):
    """Each missing row with the one gaining access whose instruction's bytes its address falls in: its
    element lies a constant number of elements from that access's, before or after it, within the bytes
    that instruction moves now (the access's own and its gain). Tensors of one shape and layout pair
    instruction by instruction: each thread's i-th element of the row within the access's i-th instruction,
    where both had one instruction an element and the access as many now (torchtitan's MLA RoPE for gfx942
    by Triton 3.5.1: `q + 2 * pair` and `+ 1`, two elements a thread, two `global_load_dword`). `every`: each
    gaining access takes some row (else only those the rows' addresses fall in)."""
    by: dict[int, list[AccessRow]] = collections.defaultdict(list)
    for r in missing:
        fits = []
        for p in gained:
            k = offset(p, r)
            if not k or r.element_bits != p.element_bits or r.element_bits % 8:
                continue
            n = sum(p.stages[before].values())
            if r.shape and (p.contiguous_per_thread != 1 or r.contiguous_per_thread != 1 or
                            sum(r.stages[before].values()) != n or sum(p.stages[stage].values()) != n or
                            n * r.element_bits // 8 != p.stage_bytes(before)):
                continue
            n = n if r.shape else 1
            distance = k * r.element_bits // 8
            if -gain[id(p)] // n <= distance < (p.stage_bytes(before) + gain[id(p)]) // n:
                fits.append(p)
        if len(fits) != 1:
            return []
        by[id(fits[0])].append(r)
    plan = [(p, by[id(p)]) for p in gained if by.get(id(p))]
    if any(sum(r.stage_bytes(before) for r in group) != gain[id(p)] for p, group in plan) or \
            (every and len(plan) != len(gained)):
        return []
    return plan


def _lacks(r: AccessRow, stage: str, before: str) -> bool:
    """Whether `stage` holds none of the row's instructions (not even shared) while `before` held some."""
    return not (r.stages.get(stage) or r.ambiguous.get(stage)) and bool(r.stages.get(before)) and r.kind in ACCEPTS


def _unclaimed(stage: str, kinds: set[str], unattributed: list[dict]) -> bool:
    """Whether `stage` has an instruction of one of `kinds` that no access claimed."""
    return bool(unclaimed_items(stage, kinds, unattributed))



def _source(row: AccessRow) -> tuple | None:
    site = row.sites[0]
    if site.address:
        return (row.op, " ".join(site.address), site.mask)
    m = _RESULT.match(site.op.text)
    body = site.op.text[m.end():] if m else site.op.text
    operands = _OPERAND.findall(body.split(":")[0])
    return (row.op, operands[0]) if operands else None


def common_subexpressions(rows: list[AccessRow]) -> None:
    """`cse`: a load row with no instruction anywhere takes the verdict of the row reading the same operand."""
    by_source: dict[tuple, list[AccessRow]] = collections.defaultdict(list)
    for r in rows:
        key = _source(r)
        if key is not None:
            by_source[key].append(r)
    for r in rows:
        if r.stages or r.ambiguous or not r.kind.endswith("load") or r.verdict != "unknown":
            continue
        key = _source(r)
        partners = [p for p in by_source.get(key, []) if p is not r and p.stages and p.verdict != "unknown"]
        if not partners:
            continue
        p = partners[0]
        r.verdict, r.vector_bytes, r.vector_stage = p.verdict, p.vector_bytes, p.vector_stage
        r.reasons = [Reason("cse", f"no stage has instructions of its own: it reads {key[1]} like {p.line}:{p.col} "
                                   f"{p.op}, whose instructions serve both (LLVM kept one copy); verdict of "
                                   f"{p.line}:{p.col}")]


def merged_arms(rows: list[AccessRow], ttgir_lines: list[str], same_value) -> None:
    """`merged-arms`: see the module docstring. `same_value(op_a, name_a, op_b, name_b)`: whether the names
    mean one value at the two ops, or values computed alike (the graph's resolution: sibling regions reuse
    names, and each arm may compute its own copy of an address)."""
    arms = [r for r in rows if r.op in _MERGEABLE and r.sites and _parts(r) is not None]
    for r in arms:
        if r.stages or r.ambiguous or r.verdict != "unknown":
            continue
        for p in arms:
            if p is r or not p.stages or p.verdict == "unknown" or p.op != r.op or _op_type(p) != _op_type(r):
                continue
            alike = _arms_alike(r, p, ttgir_lines, same_value)
            if alike is None:
                continue
            one_value, branch = alike
            if r.op not in _STORES:
                what = ("loads from the same address", "one load (of the mask the condition selects)")
            elif one_value:
                what = ("stores the same value with the same mask", "one store (to an address the condition selects)")
            else:
                what = ("stores to the same address with the same mask",
                        "one store (of the value the condition selects)")
            r.verdict, r.vector_bytes, r.vector_stage = p.verdict, p.vector_bytes, p.vector_stage
            r.reasons = [Reason("merged-arms", f"no stage has instructions of its own: the other arm of its "
                                               f"{branch} {what[0]} at {p.line}:{p.col}, and LLVM merged the "
                                               f"two into {what[1]}; verdict of {p.line}:{p.col}")]
            break


def sunk_arms(rows: list[AccessRow], ttgir_lines: list[str], same_value, unattributed: list[dict]) -> None:
    """`merged-arms` where LLVM's merged store or load has no source line: the stores of two arms (of an
    `scf.if`, or the two successors of a `cf.cond_br`, as an early `return` makes) of one type and mask,
    sharing their address or their value (or two loads of one address and `other`), neither with an LLIR
    instruction, and LLIR's unclaimed instructions of no source location (line 0) of their kind number
    exactly one arm's vectors, of its width: LLVM merged the two into one (a store sunk into the block
    after the branch, a load of the mask the condition selects), and a merged debug location is none. The
    first arm takes them (its next stages follow them to line 0), the other is `merged-arms` with it
    (Transformer Engine's cross entropy on gfx942: `if y == ignore_idx: store(loss, 0.0); return`, then
    `store(loss, ...)`: one `global_store_dword` on no line; triton_kernels' SwiGLU on gfx950: two
    `raw.ptr.buffer.load`s). Only a unique such pair."""
    arms = [r for r in rows if r.op in _MERGEABLE and r.sites and _parts(r) is not None and not r.stages
            and not r.ambiguous and r.kind in ACCEPTS]
    pairs = []
    for i, r in enumerate(arms):
        for p in arms[i + 1:]:
            if p.op == r.op and _op_type(p) == _op_type(r) and \
                    _arms_alike(r, p, ttgir_lines, same_value) is not None:
                pairs.append((r, p))
    if len(pairs) != 1:
        return
    r, p = pairs[0]
    width, vectors = r.predicted_vector_bytes, r.predicted_vectors_per_thread
    if not width or not vectors or (p.predicted_vector_bytes, p.predicted_vectors_per_thread) != (width, vectors):
        return
    need = vectors * r.instances
    pool = [u for u in unattributed if u["stage"] == "llir" and u["line"] == 0 and u["kind"] in ACCEPTS[r.kind]
            and u["count"] > 0]
    if sum(u["count"] for u in pool) != need or {u.get("bytes") for u in pool} != {width}:
        return
    forms = " and ".join(sorted({u["form"] for u in pool}))
    _take("llir", r, pool, need, unattributed)
    what = ("store", "sank the two stores into the block after the branch as one") if r.op in _STORES else \
        ("load", "merged the two loads into one, of the mask the condition selects")
    _moved(r, Reason(
        "unlocated", f"llir: it and the other arm's {what[0]} at {p.line}:{p.col} have no instruction on their "
                     f"lines; {need} {forms} with no source location (line 0), claimed by no access, is their "
                     f"vectors: LLVM {what[1]}, whose merged debug location is none"))


def _arms_alike(r: AccessRow, p: AccessRow, ttgir_lines: list[str], same_value) -> tuple[bool, str] | None:
    """Whether LLVM can merge two accesses of one op into one selecting what differs: in two arms of one
    branch; stores with one mask, and one address or one value; loads from one address with one `other`
    (the mask selected). (whether the value is what they share, the branch: `scf.if` or `cf.cond_br (an
    early return)`) where it can, else None."""
    address, value, mask = _parts(r)
    p_address, p_value, p_mask = _parts(p)
    one_address = len(address) == len(p_address) and all(
        _alike(r, p, a, b, same_value) for a, b in zip(address, p_address, strict=True))
    if r.op in _STORES:
        if (mask is None) != (p_mask is None) or (mask is not None and not _alike(r, p, mask, p_mask, same_value)):
            return None
        one_value = _alike(r, p, value, p_value, same_value)
        if not (one_value or one_address):
            return None
    else:  # (a load's `other` is its value where masked off)
        if not one_address or (value is None) != (p_value is None) or \
                (value is not None and not _alike(r, p, value, p_value, same_value)):
            return None
        one_value = False
    at = (ttgir_lines, r.sites[0].op.lineno, p.sites[0].op.lineno)
    if _other_arms(*at):
        return one_value, "scf.if"
    return (one_value, "cf.cond_br (an early return)") if _branch_targets(*at) else None


def not_emitted(rows: list[AccessRow], unattributed: list[dict]) -> None:
    """`not-emitted`: an access no stage has an instruction of (after `cse` and `merged-arms` found no
    partner), while LLIR has no unclaimed instruction of its kinds anywhere and no other access of those
    kinds moves more LLIR bytes than its own elements: LLVM emitted nothing for it (code that never runs,
    a branch it proved dead; or a value never used). The verdict stays unknown; the reason is proven."""
    for r in rows:
        if r.stages or r.ambiguous or r.verdict != "unknown" or r.kind not in ACCEPTS \
                or any(x.code in ("cse", "merged-arms") for x in r.reasons):
            continue
        kinds = set(ACCEPTS[r.kind])
        if _unclaimed("llir", kinds, unattributed):
            continue
        others = [o for o in rows if o is not r and kinds & set(ACCEPTS.get(o.kind, ())) and o.stages.get("llir")]
        if any(o.ambiguous.get("llir") or o.stage_bytes("llir") is None or o.elements_per_thread is None
               or o.stage_bytes("llir") > o.elements_per_thread * o.element_bytes for o in others):
            continue
        r.reasons = [Reason("not-emitted", "no stage has an instruction of it: LLVM emitted nothing for this access, "
                                           "no LLIR instruction of its kind is unclaimed anywhere in the kernel, and "
                                           "no other access moves more than its own elements' bytes (code that "
                                           "never runs, behind a condition LLVM proved false, or a value never "
                                           "used)")]


_STORES = ("tt.store", "amdg.buffer_store")
_MERGEABLE = (*_STORES, "tt.load", "amdg.buffer_load")  # (accesses LLVM may merge across two arms)


def _parts(row: AccessRow) -> tuple[tuple[str, ...], str | None, str | None] | None:
    """(the address's operands, the value, the mask or None) of `tt.store %ptr, %value[, %mask]` or AMD's
    `amdg.buffer_store %value, %base[%offsets][, %mask]`; for `tt.load %ptr[, %mask[, %other]]` and
    `amdg.buffer_load %base[%offsets][, %mask[, %other]]` the value is `other` (or None); as written;
    None for another form."""
    names = operands(row.sites[0].op.text)
    if row.op == "tt.store" and len(names) in (2, 3):
        return (names[0],), names[1], names[2] if len(names) == 3 else None
    if row.op == "amdg.buffer_store" and len(names) in (3, 4):
        return (names[1], names[2]), names[0], names[3] if len(names) == 4 else None
    if row.op == "tt.load" and 1 <= len(names) <= 3:
        return (names[0],), names[2] if len(names) == 3 else None, names[1] if len(names) >= 2 else None
    if row.op == "amdg.buffer_load" and 2 <= len(names) <= 4:
        return (names[0], names[1]), names[3] if len(names) == 4 else None, names[2] if len(names) >= 3 else None
    return None


def _alike(r: AccessRow, p: AccessRow, a: str, b: str, same_value) -> bool:
    """Whether name `a` at r's store and `b` at p's mean one value, or values computed alike."""
    return same_value(r.sites[0].op, a, p.sites[0].op, b)


def _op_type(row: AccessRow) -> str:
    """The type an access op is written with (after its last top-level `:`): two arms' must agree."""
    text = row.sites[0].op.text
    text = text[:text.rfind(" loc(")] if " loc(" in text else text
    return text.rsplit(" : ", 1)[-1].strip()


_BLOCK_LABEL = re.compile(r"^\s*\^(bb\d+)(?:\([^)]*\))?:\s*// pred: \^(bb\d+)\s*$")
_COND_BR = re.compile(r"\bcf\.cond_br\b[^,]*,\s*\^(bb\d+)(?:\([^)]*\))?,\s*\^(bb\d+)")


def _block_of(lines: list[str], n: int) -> tuple[str, str] | None:
    """(the block, its one predecessor) that TTGIR line n (1-based) sits in directly: the nearest block label
    above, two columns left of it, that MLIR printed with a single predecessor; None otherwise."""
    indent = len(lines[n - 1]) - len(lines[n - 1].lstrip())
    for line in reversed(lines[:n - 1]):
        stripped = line.strip()
        if not stripped:
            continue
        depth = len(line) - len(line.lstrip())
        if depth < indent:
            m = _BLOCK_LABEL.match(line)
            return (m.group(1), m.group(2)) if m and depth == indent - 2 else None
    return None


def _branch_targets(lines: list[str], a: int, b: int) -> bool:
    """Whether TTGIR lines a and b sit in the two successors of one `cf.cond_br` (an early `return` in an
    `if` splits the function into blocks: `^bb1` stores and returns, `^bb2` goes on), each block entered
    from that branch alone."""
    block_a, block_b = _block_of(lines, a), _block_of(lines, b)
    if block_a is None or block_b is None or block_a[0] == block_b[0] or block_a[1] != block_b[1]:
        return False
    targets = {block_a[0], block_b[0]}
    return any(set(m.groups()) == targets for line in lines if "cf.cond_br" in line
               for m in [_COND_BR.search(line)] if m)


def _other_arms(lines: list[str], a: int, b: int) -> bool:
    """Whether TTGIR lines a and b (1-based) sit in the two arms of one `scf.if`: same indentation, and
    between them a `} else {` two columns left of it, the region never left in between."""
    lo, hi = sorted((a, b))
    if hi > len(lines):
        return False
    indent = len(lines[lo - 1]) - len(lines[lo - 1].lstrip())
    if indent < 2 or len(lines[hi - 1]) - len(lines[hi - 1].lstrip()) != indent:
        return False
    elses = 0
    for line in lines[lo:hi - 1]:
        stripped = line.strip()
        if not stripped:
            continue
        depth = len(line) - len(line.lstrip())
        if depth < indent - 2 or (depth == indent - 2 and stripped != "} else {"):
            return False
        elses += depth == indent - 2
    return elses == 1
