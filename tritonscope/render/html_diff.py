"""HTML diffs from the report's page parts: each changed stage of a kernel, A and B side by side.

`render_diff_result` is `tritonscope diff A B --format html` (a DiffResult of diff.py; the texts are the
normalized stages it compared, changed lines marked from its unified diffs). `render_diff_page` does the
same for one kernel from plain texts. Everything from artifacts goes through `esc` or pygments.
"""

from __future__ import annotations

import re

from tritonscope.render.diff import _fmt_num, _is_worse, _shown_deltas, _targets, diff_payload
from tritonscope.render.html import STAGE_TITLES, empty, esc, highlight_lines, page

# `@@ -12,7 +12,8 @@`: a hunk of a unified diff, with its old and new start lines.
UNIFIED_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
# Side-by-side panes are drawn for at most this many changed kernels; the rest get their unified diff.
MAX_SIDE_BY_SIDE = 3
NO_DATA = {"files": [], "chains": [], "stages": [], "srcFiles": []}


def changed_lines(unified: str) -> tuple[set[int], set[int]]:
    """Line numbers (1-based) removed from the old text and added in the new, from a unified diff."""
    removed: set[int] = set()
    added: set[int] = set()
    old = new = 0
    in_hunk = False
    for line in unified.splitlines():
        m = UNIFIED_HUNK.match(line)
        if m:
            old, new, in_hunk = int(m.group(1)), int(m.group(3)), True
            continue
        if not in_hunk:  # the ---/+++ header, when there is one
            continue
        if line.startswith("-"):
            removed.add(old)
            old += 1
        elif line.startswith("+"):
            added.add(new)
            new += 1
        elif line.startswith(" ") or line == "":
            old += 1
            new += 1
    return removed, added


def diff_pane(stage: str, side: str, name: str, text: str | None, changed: set[int], cls: str) -> str:
    head = f'<div class="head"><span class="title">{side} · {esc(name)}</span></div>'
    if text is None:
        return f'<div class="pane">{head}{empty(f"no {stage} on this side")}</div>'
    rows = "".join(f'<div{f" class={cls!r}" if n in changed else ""}>{line}</div>'
                   for n, line in enumerate(highlight_lines(text, stage), 1))
    return f'<div class="pane" data-stage="{esc(stage)}">{head}<div class="body">{rows}</div></div>'


def stage_section(stage: str, name_a: str, name_b: str, a: str | None, b: str | None, unified: str,
                  side_by_side: bool = True) -> str:
    removed, added = changed_lines(unified)
    summary = f"−{len(removed)} +{len(added)} lines" if unified else "identical"
    if a is None or b is None:
        summary = f"only in {'B' if a is None else 'A'}"
    panes = ""
    if side_by_side:
        panes = ('<div class="panes" style="--n:2">' + diff_pane(stage, "A", name_a, a, removed, "del")
                 + diff_pane(stage, "B", name_b, b, added, "ins") + "</div>")
    uni = ""
    if unified:
        lines = "".join(f"<div>{line}</div>" for line in highlight_lines(unified, "diff"))
        uni = (f'<details class="udiff"{"" if side_by_side else " open"}><summary>unified diff</summary>'
               f'<div class="body">{lines}</div></details>')
    return (f'<section class="dstage"><h3>{esc(STAGE_TITLES.get(stage, stage))} <small>{esc(summary)}</small>'
            f'</h3>{panes}{uni}</section>')


def render_diff_page(kernel_a: dict, kernel_b: dict, stage_texts_a: dict[str, str],
                     stage_texts_b: dict[str, str], unified_diffs: dict[str, str]) -> str:
    """One kernel: each stage of A next to the same stage of B, the lines `unified_diffs[stage]` (a unified
    diff of exactly those two texts) removes or adds marked. kernel_a/kernel_b: {"name", "hash", "target",
    "triton", "entry"}; a missing key shows as '-'."""
    stages = list(dict.fromkeys([*stage_texts_a, *stage_texts_b]))
    sections = [stage_section(s, kernel_a.get("name", "A"), kernel_b.get("name", "B"), stage_texts_a.get(s),
                              stage_texts_b.get(s), unified_diffs.get(s, "")) for s in stages]
    title = f"{kernel_a.get('name', 'A')} vs {kernel_b.get('name', 'B')}"
    chips = _chip("A", _describe(kernel_a)) + _chip("B", _describe(kernel_b))
    body = (_header(title, chips)
            + f'<main class="diff">{"".join(sections) or empty("no stages to compare")}</main>')
    return page(f"{title} · tritonscope diff", body, NO_DATA)


def render_diff_result(result, opts) -> str:
    """`tritonscope diff A B --format html`: summary, rule verdicts, then every changed kernel."""
    s = diff_payload(result)["summary"]
    report = opts.verdict
    parts = [f'<p class="lead"><code>{esc(result.a.path)}</code> → <code>{esc(result.b.path)}</code><br>'
             f"<b>{s['matched']}</b> matched · <b>{s['changed']}</b> changed · {s['unchanged']} unchanged · "
             f"<b>{s['added']}</b> added · <b>{s['removed']}</b> removed</p>"]
    if report and report.rules:
        if report.failures:
            items = "".join(f"<li><code>{esc(f.rule)}</code> {esc(f.kernel)} <code>{esc(f.target)}</code>: "
                            f"{esc(f.detail)}</li>" for f in report.failures)
            parts.append(f'<div class="verdict fail"><b>Failed rules</b><ul>{items}</ul></div>')
        else:
            rules = ", ".join(f"<code>{esc(r.text)}</code>" for r in report.rules)
            parts.append(f'<div class="verdict pass"><b>Rules passed:</b> {rules}</div>')
        if report.unknown:
            items = "".join(f"<li>{esc(line)}</li>" for line in report.unknown_notes())
            parts.append(f'<div class="verdict"><b>Not judged</b><ul>{items}</ul></div>')
    rows = [f'<tr><td>{kind}</td><td><code>{esc(r.name)}</code></td><td>{esc(r.target)}</td><td></td></tr>'
            for kind, records in (("added", result.added), ("removed", result.removed)) for r in records]
    for i, p in enumerate(result.changed):
        rows.append(f'<tr><td><a href="#k{i}">changed</a></td><td><code>{esc(p.b.name)}</code></td>'
                    f'<td>{esc(_targets(p))}</td><td>{esc(p.change_summary())}</td></tr>')
    if rows:
        parts.append('<table class="grid"><thead><tr><th></th><th>kernel</th><th>target</th><th>changes</th>'
                     f'</tr></thead><tbody>{"".join(rows)}</tbody></table>')
    for i, p in enumerate(result.changed):
        deltas = "".join(
            f'<tr class="{"worse" if _is_worse(d) else "better" if _is_worse(d) is False else ""}">'
            f"<th>{esc(d.name)}</th><td>{esc(_fmt_num(d.a))}</td><td>{esc(_fmt_num(d.b))}</td>"
            f"<td>{esc('' if d.delta is None else ('+' if d.delta > 0 else '') + _fmt_num(d.delta))}</td></tr>"
            for d in _shown_deltas(p, opts))
        table = (f'<table class="grid deltas"><thead><tr><th>metric</th><th>A</th><th>B</th><th>Δ</th></tr>'
                 f"</thead><tbody>{deltas}</tbody></table>") if deltas else ""
        sections = "" if opts.stat else "".join(
            stage_section(d.stage, f"{p.a.name} ({p.a.origin})", f"{p.b.name} ({p.b.origin})",
                          p.a.stages.get(d.stage), p.b.stages.get(d.stage), "\n".join(d.lines),
                          side_by_side=i < MAX_SIDE_BY_SIDE)
            for d in p.stage_diffs)
        parts.append(f'<section class="kernel" id="k{i}"><h2><code>{esc(p.b.name)}</code> '
                     f"<small>{esc(_targets(p))} · {esc(p.change_summary())}</small></h2>{table}{sections}</section>")
    if result.empty:
        parts.append(empty("no differences"))
    title = f"{result.a.path} → {result.b.path}"
    heading = f"{result.changed[0].b.name}" if len(result.changed) == 1 else "diff"
    chips = _chip("changed", str(s["changed"])) + _chip("added", str(s["added"])) + \
        _chip("removed", str(s["removed"]))
    if report and report.rules:
        chips += _chip("rules", "failed" if report.failures else "passed" + (" (some not judged)" if report.unknown
                                                                             else ""))
    body = _header(heading, chips) + f'<main class="diff">{"".join(parts)}</main>'
    return page(f"{title} · tritonscope diff", body, NO_DATA)


def _describe(kernel: dict) -> str:
    return " ".join(str(kernel.get(k, "-")) for k in ("target", "triton")) + " " + str(kernel.get("hash", ""))[:10]


def _chip(label: str, value: str) -> str:
    return f'<span class="chip"><b>{esc(label)}</b> {esc(value)}</span>'


def _header(title: str, chips: str) -> str:
    return (f'<header class="top"><div class="brand">tritonscope diff</div><h1>{esc(title)}</h1>'
            f'<div class="chips">{chips}</div></header>')
