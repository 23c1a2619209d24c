"""Terminal views of `tritonscope map` results (the dictionaries of srcmap_report)."""

from __future__ import annotations

import os

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tritonscope.artifacts.cache import release_text
from tritonscope.render.terminal import color_enabled
from tritonscope.render.visible import one_line
from tritonscope.stages.common import file_label

_MAX_OP_TEXT = 110


def _header(console: Console, result: dict) -> None:
    k = result["kernel"]
    head = Text(one_line(k["name"]), style="bold")  # (names and paths from a cache: one line each)
    release = release_text(k["triton_version"], k.get("triton_version_inferred"), "?")
    head.append(f"  {k['hash'][:12]}  {k['target'] or '?'}  triton {release}", style="dim")
    console.print(head)
    src = result.get("source")
    if src is not None:
        if src["found"]:
            how = f" (via {src['how']})" if src["how"] and src["how"] != "as is" else ""
            console.print(Text(one_line(f"source: {src['requested']}" + (f" -> {src['path']}{how}"
                                                                           if src["path"] != src["requested"] else "")),
                               style="dim"))
        else:
            console.print(Text(one_line(f"source: {src['requested'] or '?'}: {src['error']}"), style="yellow"))
        for key in ("note", "caution"):
            if src.get(key):
                console.print(Text(one_line(f"source: {src[key]}"), style="yellow"))
    if result.get("inductor"):
        render_provenance(result["inductor"], console, per_line="query" in result)


def render_provenance(prov: dict, console: Console, per_line: bool = False) -> None:
    """The torch.compile block: the graph and wrapper kernel, fused ATen ops, and the model lines."""
    from tritonscope.srcmap.inductor import (  # a linked kernel only: Inductor's module is loaded
        USER_KERNEL_TEXT,
        call_text,
        other_calls_text,
        stack_text,
    )
    if not prov.get("kernel"):
        console.print(Text(f"torch.compile: {prov['role']}: {prov['note']}", style="dim"))
        return
    head = Text("torch.compile: ", style="bold")
    head.append(f"graph {prov['graph']}, {prov['kernel']}")
    head.append(f"  ({prov['wrapper']}:{prov['wrapper_line']})", style="dim")
    console.print(head)
    if prov["aten_ops"]:
        console.print(Text("  ATen   ", style="dim") + Text(", ".join(prov["aten_ops"])))
    defined = prov.get("defined_at")
    if defined:
        where = f"{defined['file'].rsplit('/', 1)[-1]}:{defined['line']}"
        console.print(Text("  user   ", style="dim") + Text(where, style="cyan") + Text(f"  {USER_KERNEL_TEXT}"))
    for row in prov["model_lines"]:
        t = Text("  model  ", style="dim")
        t.append(f"{row['file'].rsplit('/', 1)[-1]}:{row['line']}", style="cyan")
        t.append(f" {row['function']}  {row['code']}  ")
        t.append(f"[{', '.join(row['nodes'])}]" + call_text(row), style="dim")
        console.print(t)
    if not prov["model_lines"] and defined:
        for st in prov["stacks"]:  # no FX node of its own: where torch saw it called
            console.print(Text("  stack  ", style="dim") + Text(stack_text(st), style="cyan")
                          + Text(f"  {st[-1]['code']}"))
        if not prov["stacks"]:
            console.print(Text("  model  no FX node of its own: a torch trace's stacks say where the model called it "
                               "(TORCH_TRACE=DIR INDUCTOR_PROVENANCE=1)", style="dim"))
    elif not prov["model_lines"]:
        console.print(Text("  model  no lines recorded (TORCH_COMPILE_DEBUG=1 writes them)", style="dim"))
    for o in prov.get("also_in", []):
        console.print(Text(f"  also   {o['kernel']} in graph {o['graph']} ({o['wrapper']}:{o['wrapper_line']})",
                           style="dim"))
    if prov.get("other_calls"):
        said = other_calls_text(prov["graph"], prov["other_calls"], prov.get("launches"))
        console.print(Text(f"  calls  {said}", style="dim"))
    if per_line:
        console.print(Text("  Inductor records these per kernel, not per kernel line", style="dim"))


def _skipped(console: Console, skipped: dict[str, str]) -> None:
    for stage, why in skipped.items():
        console.print(Text(f"{stage}: skipped: {why}", style="yellow"))


def _loc_text(chain: list[dict]) -> str:
    if not chain:
        return "no location"
    return " @ ".join(f"{c['file'].rsplit('/', 1)[-1]}:{c['line']}:{c['col']}" for c in chain)


def _kinds(kinds: dict[str, int]) -> str:
    return ", ".join(f"{k} x{n}" for k, n in kinds.items())


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_OP_TEXT else text[:_MAX_OP_TEXT - 1] + "…"


def _painter(stage: str):
    """Text -> rich Text, highlighted with the stage's pygments lexer when colour is on."""
    if not color_enabled():
        return Text
    from pygments import highlight
    from pygments.formatters import Terminal256Formatter

    from tritonscope.render.lexers import lexer_for_stage

    try:
        lexer = lexer_for_stage(stage)
    except Exception:  # noqa: BLE001 - no lexer: plain text is fine
        return Text
    formatter = Terminal256Formatter(style="monokai")
    return lambda text: Text.from_ansi(highlight(text, lexer, formatter).rstrip("\n"))


def shown_ops(ops: list[dict], max_ops: int) -> list[dict]:
    """At most `max_ops` ops in text order, memory ops kept first (0: all)."""
    if not max_ops or len(ops) <= max_ops:
        return ops
    keep = {i for i, op in enumerate(ops) if op.get("memory")}
    keep = set(sorted(keep)[:max_ops])
    for i in range(len(ops)):
        if len(keep) >= max_ops:
            break
        keep.add(i)
    return [op for i, op in enumerate(ops) if i in keep]


def render_line(result: dict, console: Console, max_ops: int = 0) -> None:
    _header(console, result)
    q = result["query"]
    where = f"{(q['file'] or '?').rsplit('/', 1)[-1]}:{q['line']}" + (f":{q['col']}" if q["col"] is not None else "")
    console.print()
    hl = result["highlight"]
    for row in result["context"]:
        mark = ">" if row["current"] else " "
        line = Text(f"{mark}{row['line']:6d} | ", style="bold" if row["current"] else "dim")
        if row["text"] is None:
            line.append("(source missing)", style="dim")
        elif row["current"] and hl:
            t = row["text"]
            line.append(t[:hl["start"]])
            line.append(t[hl["start"]:hl["end"]], style="bold reverse")
            line.append(t[hl["end"]:])
        else:
            line.append(row["text"], style=None if row["current"] else "dim")
        console.print(line)
    console.print()
    for w in result.get("written_layouts", []):
        became = ", ".join(w["resolved"]) or "nothing in the TTGIR"
        carried = f"; carried by source lines {', '.join(map(str, w['on_lines']))}" if w["on_lines"] else ""
        console.print(Text("layout: ", style="bold magenta")
                      + Text(f"{w['class']} written here -> {became} ({w['status']}){carried}"))
    steps: list[str] = []
    for f in result["flow"]:
        step = _kinds(f["kinds"])
        if step and (not steps or steps[-1] != step):  # ttir and ttgir usually agree: say it once
            steps.append(step)
    if steps:
        console.print(Text("memory: ", style="bold") + Text(" -> ".join(steps)))
    for st in result["stages"]:
        title = Text(f"{st['stage']}", style="bold cyan")
        title.append(f"  {st['count']} op{'s' if st['count'] != 1 else ''} at {where}")
        if q["col"] is not None and not st["col_filtered"]:
            title.append("  (no columns in this stage: whole line)", style="dim")
        if st["kinds"]:
            title.append(f": {_kinds(st['kinds'])}", style="dim")
        console.print(title)
        for note in st.get("notes", ()):
            console.print(Text(f"  note: {note}", style="dim"))
        paint = _painter(st["stage"])
        ops = shown_ops(st["ops"], max_ops)
        for op in ops:
            row = Text()
            row.append(f"  {op['lineno']:6d}  ", style="dim")
            row.append(paint(_clip(op["text"])))
            if len(op["chain"]) > 1:
                row.append(f"   [{_loc_text(op['chain'])}]", style="dim")
            console.print(row)
        if len(ops) < len(st["ops"]):
            console.print(Text(f"  ... {len(st['ops']) - len(ops)} more ops (memory ops are all shown first; "
                               "--max-ops 0 lists every op)", style="dim"))
    _skipped(console, result["skipped"])


def render_listing(result: dict, console: Console) -> None:
    _header(console, result)
    stages = result["stages"]
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("line", justify="right", style="dim")
    for s in stages:
        table.add_column(s, justify="right")
    table.add_column("code", overflow="fold")
    previous = None
    for row in result["lines"]:
        if previous is not None and row["line"] > previous + 1:
            table.add_row("⋮", *[""] * len(stages), Text(""))
        previous = row["line"]
        inlined = row.get("inlined", {})
        counts = [_listing_count(row["counts"][s], inlined.get(s, 0)) for s in stages]
        code = Text(row["text"] if row["text"] is not None else "")
        for w in row.get("written_layouts", []):
            code.append(f"  -> {', '.join(w['resolved']) or w['status']}", style="magenta")
        table.add_row(str(row["line"]), *counts, code)
    un = result["unattributed"]
    cov = {c["stage"]: c for c in result["coverage"]}
    table.add_section()
    table.add_row("", *[str(un[s]["unknown"]) for s in stages], Text("line 0 / loc(unknown)", style="dim"))
    table.add_row("", *[str(un[s]["no_loc"]) for s in stages], Text("no location", style="dim"))
    table.add_row("", *[str(un[s]["other_file"]) for s in stages],
                  Text("attributed to other files", style="dim"))
    table.add_row("", *[f"{cov[s]['percent']:.1f}%" for s in stages],
                  Text("ops with a source line", style="dim"))
    console.print(table)
    if any(row.get("inlined") for row in result["lines"]):
        console.print(Text("(n): ops a helper wrote on this line, counted at the line that called it "
                           "(`map --line` lists both)", style="dim"))
    if not result["source"]["found"]:
        console.print(Text("source text missing: line numbers only", style="yellow"))
    helpers = result.get("helper_files") or []
    if helpers:
        own = result["kernel"].get("source_file") or ""
        names = ", ".join(f"{file_label(h['file'], own)} ({h['lines']} line{'s' if h['lines'] != 1 else ''})"
                          for h in helpers)
        console.print(Text(f"also written in: {names}; `map KERNEL --file F` lists one", style="dim"))
    _skipped(console, result["skipped"])


def _listing_count(own: int, inlined: int) -> Text:
    text = Text(str(own) if own else "")
    if inlined:
        text.append(f"{' ' if own else ''}({inlined})", style="dim")
    return text


def render_reverse(result: dict, console: Console) -> None:
    _header(console, result)
    q = result["query"]
    if not result["matches"]:
        what = f"line {q['at']}" if q["at"] is not None else f"/{q['grep']}/"
        console.print(Text(f"no {result['stage']} instruction at {what}", style="yellow"))
        return
    first = result["matches"][0]["lineno"]
    if q["at"] is not None and first < q["at"]:
        console.print(Text(f"line {q['at']} of the {result['stage']} continues the instruction of line {first}",
                           style="dim"))
    elif q["at"] is not None and first != q["at"]:
        console.print(Text(f"line {q['at']} of the {result['stage']} is not an instruction; the next one "
                           f"is line {first}", style="dim"))
    for m in result["matches"]:
        row = Text(f"{result['stage']}:{m['lineno']}  ", style="bold")
        row.append(_clip(m["text"]))
        console.print(row)
        src = Text("    -> ")
        if m.get("source_line"):
            src.append(f"line {m['source_line']}", style="bold")
            if m.get("source_text") is not None:
                src.append(f"  {m['source_text'].strip()}")
        elif m.get("chain") and m["chain"][-1].get("line"):
            outer = m["chain"][-1]  # a line of another file (a library's, a helper kept as a call)
            src.append(one_line(f"{os.path.basename(outer['file'])}:{outer['line']}"), style="bold")
            src.append(" (not the kernel's file)", style="dim")
        else:
            src.append("no source line", style="yellow")
        console.print(src)
        if len(m["chain"]) > 1:
            console.print(Text(f"       inlined: {_loc_text(m['chain'])}", style="dim"))
    if q["grep"] is not None and result["by_line"]:
        console.print()
        console.print(Text(f"{len(result['matches'])} matches by source line:", style="bold"))
        for b in result["by_line"]:
            console.print(Text(f"  {b['line']:6d}  x{b['count']:<4d} {(b['text'] or '').strip()}"))


def render_stats(result: dict, console: Console) -> None:
    stages = [t["stage"] for t in result["totals"]]
    table = Table(box=None, pad_edge=False, title="ops with a source line (attributed / all; "
                  "unknown = line 0 / loc(unknown); none = no location; other = attributed to a line of "
                  "another file than the kernel's)", title_justify="left")
    table.add_column("kernel", overflow="fold")
    table.add_column("hash")
    table.add_column("target")
    for s in stages:
        table.add_column(s, justify="right")
    for k in result["kernels"]:
        by_stage = {c["stage"]: c for c in k["stages"]}
        cells = []
        for s in stages:
            c = by_stage.get(s)
            if c is None:
                cells.append("skipped" if s in k["skipped"] else "")
            else:
                cells.append(_cov_cell(c))
        table.add_row(k["kernel"]["name"], k["kernel"]["hash"][:10], k["kernel"]["target"] or "-", *cells)
    if len(result["kernels"]) > 1:
        table.add_section()
        table.add_row("total", "", "", *[_cov_cell(t) for t in result["totals"]])
    console.print(table)
    for k in result["kernels"]:
        for stage, why in k["skipped"].items():
            console.print(Text(f"{k['kernel']['name']} {k['kernel']['hash'][:10]} {stage}: skipped: {why}",
                               style="yellow"))


def _cov_cell(c: dict) -> str:
    extra = []
    if c["unknown"]:
        extra.append(f"unk {c['unknown']}")
    if c["no_loc"]:
        extra.append(f"none {c['no_loc']}")
    if c.get("other_file"):
        extra.append(f"other {c['other_file']}")
    tail = f" ({', '.join(extra)})" if extra else ""
    return f"{c['attributed']}/{c['ops']} {c['percent']:.1f}%{tail}"


def render_model_line(result: dict, console: Console) -> None:
    """`map --model-line`: per kernel, the nodes made from the model line and the entries compiled."""
    from tritonscope.srcmap.inductor import (  # only --model-line reads Inductor's records
        PLACEHOLDER_OPS,
        call_text,
        other_calls_text,
        same_file,
        stack_text,
    )

    q = result["query"]
    if not result["kernels"]:
        rec = result["recorded_lines"]
        more = f" (lines recorded for {q['file']}: {', '.join(map(str, rec))})" if rec else ""
        which = f"no kernel of {q['kernel']}" if q.get("kernel") else "no kernel"
        console.print(Text(f"{which} has an FX node or a call's stack from {q['file']}:{q['line']}{more}",
                           style="yellow"))
        return
    for k in result["kernels"]:
        head = Text(k["kernel"], style="bold")
        shown = f"{q['file'].rsplit('/', 1)[-1]}:{q['line']}"
        if k["nodes"] or not k.get("stacks"):
            # a node in torch's own Python that several model lines call (F.rms_norm from :55 and :59) is from
            # one of them: possibly this one, which the count says apart
            maybe = sum(1 for n in k["nodes"] if len((n.get("model") or {}).get("callers", [])) > 1
                        and (n["model"]["line"] != q["line"] or not same_file(n["model"]["file"], q["file"])))
            sure = len(k["nodes"]) - maybe
            count = f"{sure} of {k['all_nodes']} nodes from {shown}" if not maybe else \
                f"{maybe} of {k['all_nodes']} nodes possibly from {shown}" if not sure else \
                f"{sure} of {k['all_nodes']} nodes from {shown}, {maybe} more possibly"
            head.append(f"  graph {k['graph']}  {count}", style="dim")
        else:  # (a user's Triton kernel has no node of its own: the torch trace's stack of its call passes the line)
            head.append(f"  graph {k['graph']}  no node from {shown}; a stack the torch trace records for its call: "
                        f"{stack_text(k['stacks'][0])}", style="dim")
        if k.get("superseded_by"):
            head.append(f"  (an older run's records; {k['superseded_by']['wrapper']}, newer, has its nodes from "
                        "other lines)", style="yellow")
        console.print(head)
        codes = [n["model"] for n in k["nodes"] if n.get("model") and n["model"]["line"] == q["line"]]
        codes += [c for n in k["nodes"] if n.get("model") for c in n["model"].get("callers", [])
                  if c["line"] == q["line"]]
        codes += [f for st in k.get("stacks", []) for f in st if f["line"] == q["line"]]
        if codes:
            console.print(Text(f"  code   {codes[0]['code']}"))
        for n in k["nodes"]:
            t = Text(f"  node   {n['name']}", style="cyan")
            ten = n.get("tensor")
            shape = f" {ten['dtype']}{ten['shape']}" if ten else ""
            m = n.get("model") or {}
            how = m.get("how", "")
            target = "placeholder" if n["op"] in PLACEHOLDER_OPS else n["target"] or ""
            t.append(f"  {target}{shape}" + (f"  ({how})" if how.startswith("inferred") else ""),
                     style="dim")
            if m.get("inner") or m.get("callers"):
                where = "" if m.get("inner") else f"  in {m['file'].rsplit('/', 1)[-1]}:{m['line']} {m['function']},"
                t.append(where + call_text({"calls": [m["inner"]] if m.get("inner") else [],
                                            "callers": m.get("callers", [])}), style="dim")
            console.print(t)
        if k["entries"]:
            cfg = ", ".join(f"{e['hash'][:10]} w{e['num_warps']}/s{e['num_stages']}" for e in k["entries"])
            console.print(Text(f"  cache  {len(k['entries'])} entr{'y' if len(k['entries']) == 1 else 'ies'}: {cfg}"))
        else:
            console.print(Text("  cache  no entry of this kernel in the Triton cache", style="yellow"))
        if k.get("other_calls"):
            said = other_calls_text(k["graph"], k["other_calls"], k.get("launches"))
            console.print(Text(f"  calls  {said}", style="dim"))
        if k.get("candidates_same_problem"):
            console.print(Text(f"  tuned  {k['candidates_same_problem']} autotuning candidate(s) of the same "
                               "sizes and strides benchmarked", style="dim"))
        console.print()
    console.print(Text(result["granularity"], style="dim"))
