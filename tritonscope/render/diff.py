"""Renderers of a DiffResult: terminal text (rich), markdown (a pull-request comment), JSON (a contract).

`RENDERERS` maps a `--format` name to a function (result, options) -> str; JSON is `diff_payload`, written
by `cli.common.emit_json`. HTML is the report helper's: `renderer("html")` loads
`tritonscope.render.html_diff:render_diff_result`.
"""

from __future__ import annotations

import html
import importlib
import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass

from tritonscope.diff.core import DiffResult, KernelPair, MetricDelta
from tritonscope.diff.records import KernelRecord
from tritonscope.diff.verdicts import Verdict
from tritonscope.errors import UsageError
from tritonscope.render.terminal import string_console
from tritonscope.render.visible import one_line, visible

# Metrics shown in summary tables, in this order (all of them are in the JSON and per-kernel detail).
HEADLINE_METRICS = ("regs", "spills", "smem", "tmem", "occupancy", "stack", "scratch", "code_bytes", "vector-width",
                    "ops:global_load", "ops:global_store", "ops:buffer_load", "ops:buffer_store", "ops:shared_load",
                    "ops:shared_store", "ops:async_copy", "ops:mma", "ops:wgmma", "ops:tcgen05_mma", "ops:tmem_load",
                    "ops:tmem_store", "ops:mfma", "ops:wmma", "ops:barrier",
                    "ops:branch")
# More is better for these; for every other metric an increase is shown as a cost.
HIGHER_IS_BETTER = ("occupancy", "vector-width", "loads:as-predicted")
MARKDOWN_BUDGET = 60000  # GitHub comments hold 65536 characters
MARKDOWN_STAGE_LINES = 150  # diff lines shown per stage in a comment


@dataclass(frozen=True, slots=True)
class RenderOptions:
    stat: bool = False  # summary and per-stage line counts only, no diff text
    all_metrics: bool = False  # per-stage `ops:...@stage` deltas too
    color: bool = False
    verdict: Verdict | None = None  # the --fail-on outcome, decided by the caller (black's Verdict)


def renderer(fmt: str) -> Callable[[DiffResult, RenderOptions], str]:
    """text and markdown here; json goes through `cli.common.emit_json(diff_payload(...))`."""
    if fmt in RENDERERS:
        return RENDERERS[fmt]
    if fmt == "html":  # loaded on demand: the page builder imports pygments
        return importlib.import_module("tritonscope.render.html_diff").render_diff_result
    raise UsageError(f"unknown --format {fmt!r} (text, markdown, json)")


def _fmt_num(v: float | None) -> str:
    if v is None:
        return "?"
    return str(int(v)) if float(v).is_integer() else f"{v:.2f}"


def _fmt_delta(d: MetricDelta) -> str:
    if d.delta is None:
        return f"{_fmt_num(d.a)} -> {_fmt_num(d.b)}"
    sign = "+" if d.delta > 0 else ""
    pct = f" ({sign}{d.percent:.1f}%)" if d.percent is not None else ""
    return f"{_fmt_num(d.a)} -> {_fmt_num(d.b)} ({sign}{_fmt_num(d.delta)}){pct}"


# an op class of one width (`ops:global_load.16B`, `ops:ds_read.8B@amdgcn`): fewer of one width says nothing
# alone (2 x 16B -> 0 is the same bytes in 8 x 4B, and counted there): neither better nor worse
_WIDTH_CLASS = re.compile(r"^ops:[^@]*\.\d+B(?:@|$)")


def variant_labels(pairs) -> dict[int, str]:
    """For pairs that share a kernel name and target with another (autotuning variants): `id(pair)` -> what
    tells them apart, B's specialization fields that differ within the group (`num_warps=8`; `signature 2`
    where only the argument types differ, numbered in order), else its hash. Others: no label."""
    groups: dict[tuple, list] = {}
    for p in pairs:
        groups.setdefault((p.b.name, _targets(p)), []).append(p)
    out: dict[int, str] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        keys = sorted({k for p in group for k in p.b.spec})
        differ = [k for k in keys if len({json.dumps(p.b.spec.get(k), sort_keys=True) for p in group}) > 1]
        signatures = list(dict.fromkeys(json.dumps(p.b.spec.get("ir_signature"), sort_keys=True) for p in group))
        labels = {}
        for p in group:
            parts = [f"{k}={p.b.spec.get(k)}" for k in differ if k != "ir_signature"]
            if "ir_signature" in differ:
                own = json.dumps(p.b.spec.get("ir_signature"), sort_keys=True)
                parts.append(f"signature {signatures.index(own) + 1}")
            labels[id(p)] = " ".join(parts)
        # (variants alike in every field kept, e.g. two configs of other constexprs and one num_warps: their hash)
        repeated = {text for text in labels.values() if list(labels.values()).count(text) > 1}
        for p in group:
            text = labels[id(p)]
            hashed = os.path.basename(str(p.b.origin))[:10]
            out[id(p)] = (f"{text} {hashed}" if text else hashed) if text in repeated or not text else text
    return out


def _is_worse(d: MetricDelta) -> bool | None:
    """Whether a change is for the worse (a cost went up, or a measure of quality down), for better (False),
    or neither (None: no change, unknown, or a count of one instruction width)."""
    if d.delta is None or d.delta == 0 or _WIDTH_CLASS.match(d.name):
        return None
    better_up = d.name in HIGHER_IS_BETTER
    return (d.delta < 0) if better_up else (d.delta > 0)


def _shown_deltas(pair: KernelPair, opts: RenderOptions) -> list[MetricDelta]:
    return [d for d in pair.deltas if opts.all_metrics or "@" not in d.name]


# --- JSON -------------------------------------------------------------------------------------


def _targets(p) -> str:
    """A pair's target, or both where they differ (two hashes of one kernel compiled for two GPUs)."""
    return p.b.target if p.a.target == p.b.target else f"{p.a.target} -> {p.b.target}"


def _record_json(r: KernelRecord) -> dict:
    return {"kernel": r.name, "target": r.target, "origin": r.origin, "spec_key": r.spec_key, "spec": r.spec,
            "triton_version": r.triton_version}


def diff_payload(result: DiffResult, report: Verdict | None = None) -> dict:
    """The documented contract (docs/json-diff.md); `emit_json` adds `schema` and `kind`."""
    changed = []
    for p in result.changed:
        changed.append({
            "kernel": p.b.name, "target": p.b.target, "a": _record_json(p.a), "b": _record_json(p.b),
            "stages": [{"stage": d.stage, "status": d.status, "added": d.added, "removed": d.removed,
                        "diff": "\n".join(d.lines)} for d in p.stage_diffs],
            "metrics": [d.to_json() for d in p.deltas],
        })
    return {
        "a": {"path": result.a.path, "kind": result.a.kind, "kernels": len(result.a.records), "tool": result.a.tool},
        "b": {"path": result.b.path, "kind": result.b.kind, "kernels": len(result.b.records), "tool": result.b.tool},
        "options": {"stages": list(result.stages) if result.stages else None, "context": result.context,
                    "fold_renames": result.b.fold_renames},
        "summary": {"matched": len(result.pairs), "changed": len(result.changed),
                    "unchanged": len(result.pairs) - len(result.changed) - len(result.uncompared),
                    "uncompared": len(result.uncompared), "added": len(result.added),
                    "removed": len(result.removed)},
        "matched": [{"kernel": p.b.name, "target": p.b.target, "changed": p.changed,
                     "a": _record_json(p.a), "b": _record_json(p.b)} for p in result.pairs],
        "added": [_record_json(r) for r in result.added],
        "removed": [_record_json(r) for r in result.removed],
        "changed": changed,
        # what of either side's entries did not read (stderr's notes): its metrics null above for that reason
        "damage": list(dict.fromkeys(result.a.damage + result.b.damage)),
        "rules": [r.text for r in report.rules] if report else [],
        "failed_rules": [f.to_json() for f in report.failures] if report else [],
        # rule -> the kernels whose metric for it is unknown: not judged (their notes on stderr say so)
        "unjudged": {rule: [f"{n} {t}" for n, t in kernels] for rule, kernels in report.unknown.items()}
        if report else {},
        "exit_code": report.exit_code if report else 0,
    }


# --- text -------------------------------------------------------------------------------------


def render_text(result: DiffResult, opts: RenderOptions) -> str:
    from rich.table import Table
    from rich.text import Text

    buf = io.StringIO()
    console = string_console(opts.color, buf)
    s = diff_payload(result)["summary"]
    console.print(f"A: {result.a.path} ({result.a.kind}, {len(result.a.records)} kernels)")
    console.print(f"B: {result.b.path} ({result.b.kind}, {len(result.b.records)} kernels)")
    console.print(f"matched {s['matched']}  changed {s['changed']}  unchanged {s['unchanged']}  "
                  + (f"not compared {s['uncompared']}  " if s["uncompared"] else "")
                  + f"added {s['added']}  removed {s['removed']}")
    for label, recs in (("added", result.added), ("removed", result.removed)):
        for r in recs:
            console.print(Text(f"{'+' if label == 'added' else '-'} {label}: {r.name} {r.target} ({r.origin})",
                               style="green" if label == "added" else "red"))
    variants = variant_labels(result.changed)  # (autotuning variants of one name and target told apart)
    if result.changed:
        table = Table(box=None, pad_edge=False, title="changed kernels", title_justify="left")
        for col in ("kernel", "target", "stages", "metrics"):
            table.add_column(col, overflow="fold")
        for p in result.changed:
            stages = ", ".join(f"{d.stage} {d.status}" + (f" +{d.added}/-{d.removed}" if d.status == "changed"
                                                          else "") for d in p.stage_diffs) or "-"
            cells = Text()
            for d in _headline(p):
                worse = _is_worse(d)
                cells.append(f"{d.name} {_fmt_delta(d)}  ", style="red" if worse else "green" if worse is False else "")
            label = variants.get(id(p))
            table.add_row(f"{p.b.name} [{label}]" if label else p.b.name, _targets(p), stages, cells)
        console.print(table)
    for p in result.changed:
        console.print()
        label = variants.get(id(p))
        console.print(Text(f"=== {p.b.name}{f' [{label}]' if label else ''} {_targets(p)}  "
                           f"({p.a.origin} -> {p.b.origin})", style="bold"))
        for d in _shown_deltas(p, opts):
            worse = _is_worse(d)
            console.print(Text(f"  {d.name}: {_fmt_delta(d)}", style="red" if worse else "green" if worse is False
                               else ""))
        for sd in p.stage_diffs:
            if sd.status != "changed":
                console.print(f"  stage {sd.stage}: only in {'B' if sd.status == 'added' else 'A'}")
                continue
            console.print(Text(f"--- a/{p.a.name}/{sd.stage}\n+++ b/{p.b.name}/{sd.stage}  (+{sd.added}/-{sd.removed})",
                               style="bold"))
            if opts.stat:
                continue
            for ln in sd.lines:
                style = "green" if ln.startswith("+") else "red" if ln.startswith("-") else \
                    "cyan" if ln.startswith("@@") else ""
                console.print(Text(ln, style=style))
    _render_verdict_text(opts.verdict, console)
    return buf.getvalue()


def _headline(p: KernelPair) -> list[MetricDelta]:
    by_name = {d.name: d for d in p.deltas}
    return [by_name[n] for n in HEADLINE_METRICS if n in by_name]


def _render_verdict_text(verdict: Verdict | None, console) -> None:
    from rich.text import Text

    report = verdict
    if not report or not report.rules:
        return
    if not report.failures:
        console.print(Text(f"rules passed: {', '.join(r.text for r in report.rules)}", style="green"))
        return
    console.print(Text(f"FAILED rules: {', '.join(report.failed_rules)}", style="bold red"))
    for f in report.failures:
        console.print(Text(f"  {f.rule}: {f.kernel} {f.target}: {f.detail}", style="red"))


# --- markdown ---------------------------------------------------------------------------------


def render_markdown(result: DiffResult, opts: RenderOptions) -> str:
    """The diff as a pull-request comment, at most MARKDOWN_BUDGET characters whatever the caches hold: each
    list and table is cut to a share of it with a line saying how many more there are (`--format json` has
    them all), the kernels that failed a rule first; then each changed kernel's details (its diffs, or its
    metrics and line counts only where they no longer fit, said so) while room is left."""
    s = diff_payload(result)["summary"]
    out: list[str] = [f"### tritonscope diff: {_code(str(result.a.path))} → {_code(str(result.b.path))}", ""]
    out.append(f"**{s['matched']}** matched · **{s['changed']}** changed · {s['unchanged']} unchanged · "
               + (f"{s['uncompared']} not compared · " if s["uncompared"] else "")
               + f"**{s['added']}** added · **{s['removed']}** removed")
    out.append("")
    report = opts.verdict
    failing = {(f.kernel, f.target) for f in report.failures} if report else set()
    if report and report.rules:
        if report.failures:
            out.append(f":x: **Failed rules:** {', '.join(f'`{r}`' for r in report.failed_rules)}")
            out.append("")
            out += _fit([f"- {_code(f.rule)} {_code(f.kernel)} {_code(f.target)}: {_text(f.detail)}"
                         for f in report.failures], MARKDOWN_BUDGET // 4,
                        "- _{} more rule failure(s); `--format json` lists every one._")
        else:
            out.append(f":white_check_mark: Rules passed: {', '.join(f'`{r.text}`' for r in report.rules)}")
        if report.unknown:  # (a gate that judged no kernel, or not all: said where the verdict is read)
            out.append("")
            out += _fit([f":warning: Not judged: {_text(line)}" for line in report.unknown_notes()],
                        MARKDOWN_BUDGET // 16, ":warning: _{} more not judged; `--format json` lists them._")
        out.append("")
    if result.added or result.removed:
        out.append("| | kernel | target |")
        out.append("|---|---|---|")
        out += _fit([f"| added | {_code(r.name)} | {_code(r.target)} |" for r in result.added]
                    + [f"| removed | {_code(r.name)} | {_code(r.target)} |" for r in result.removed],
                    MARKDOWN_BUDGET // 8, "\n_{} more kernel(s) added or removed; `--format json` lists them._")
        out.append("")
    # (the kernels that failed a rule first: what the reader of a failed check looks for)
    changed = sorted(result.changed, key=lambda p: (p.b.name, p.b.target) not in failing)
    variants = variant_labels(changed)
    if changed:
        out.append("| kernel | target | stages | metric changes |")
        out.append("|---|---|---|---|")
        rows = []
        for p in changed:
            stages = ", ".join(f"{d.stage} {f'+{d.added}/-{d.removed}' if d.status == 'changed' else d.status}"
                               for d in p.stage_diffs) or "-"
            metrics = "<br>".join(f"{_badge(d)} `{d.name}` {_fmt_delta(d)}" for d in _headline(p)) or "-"
            label = f" {_code(variants[id(p)])}" if id(p) in variants else ""
            rows.append(f"| {_code(p.b.name)}{label} | {_code(_targets(p))} | {stages} | {metrics} |")
        out += _fit(rows, MARKDOWN_BUDGET // 4, "\n_{} more changed kernel(s); `--format json` lists them._")
        out.append("")
    body = "\n".join(out)
    details: list[str] = []
    used = len(body) + 200  # (room for the closing line)
    counted, left_out = 0, 0
    for p in changed:
        # Full diffs (each stage capped), else metrics and line counts only, else left out.
        block = _markdown_kernel_details(p, opts, MARKDOWN_STAGE_LINES, label=variants.get(id(p)))
        if used + len(block) > MARKDOWN_BUDGET:
            block = _markdown_kernel_details(p, RenderOptions(stat=True, all_metrics=opts.all_metrics), 0,
                                             why="_Its diff lines are left out to fit a comment._",
                                             label=variants.get(id(p)))
            if used + len(block) > MARKDOWN_BUDGET:
                left_out += 1
                continue
            counted += 1
        details.append(block)
        used += len(block)
    if counted or left_out:
        said = [f"{counted} shown as line counts only" if counted else "",
                f"{left_out} left out" if left_out else ""]
        details.append(f"_Of {len(changed)} changed kernel(s), {' and '.join(x for x in said if x)} to fit a "
                       "comment; run `tritonscope diff` locally or use `--format json` for all of them._\n")
    return body + "\n" + "".join(details)


def _fit(lines: list[str], budget: int, more: str) -> list[str]:
    """The first of `lines` that fit in `budget` characters, then `more` formatted with how many did not."""
    size = 0
    for i, line in enumerate(lines):
        size += len(line) + 1
        if size > budget:
            return lines[:i] + [more.format(len(lines) - i)]
    return lines


def _badge(d: MetricDelta) -> str:
    worse = _is_worse(d)
    return ":small_red_triangle:" if worse else ":small_red_triangle_down:" if worse is False else ""


def _code(text: str) -> str:
    """`text` as one inline code span of a Markdown table cell, whatever it holds (a kernel name is the cache
    author's text): a fence longer than any run of backticks in it, `|` escaped (GitHub splits cells on it
    even inside code), control characters and line breaks as `\\xNN` (a line break would end the table)."""
    text = visible(text).replace("\n", "\\x0a")
    text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _text(text: str) -> str:
    """Plain text of a Markdown line from the artifacts: HTML and Markdown's own characters escaped."""
    return re.sub(r"([\\`*_{}\[\]<>|#])", r"\\\1", visible(text.replace("\n", " ")))


def _markdown_kernel_details(p: KernelPair, opts: RenderOptions, max_lines: int, why: str | None = None,
                             label: str | None = None) -> str:
    shown = f" <code>{html.escape(one_line(label))}</code>" if label else ""
    summary = (f"<code>{html.escape(one_line(p.b.name))}</code>{shown} <code>{html.escape(one_line(_targets(p)))}"
               f"</code>: {p.change_summary()}")
    lines = [f"<details><summary>{summary}</summary>", ""]
    deltas = _shown_deltas(p, opts)
    if deltas:
        lines += ["| metric | A | B | Δ |", "|---|---|---|---|"]
        for d in deltas:
            delta = "" if d.delta is None else f"{'+' if d.delta > 0 else ''}{_fmt_num(d.delta)}"
            lines.append(f"| `{d.name}` | {_fmt_num(d.a)} | {_fmt_num(d.b)} | {delta} {_badge(d)} |")
        lines.append("")
    for sd in p.stage_diffs:
        if sd.status != "changed":
            lines.append(f"- stage `{sd.stage}` only in {'B' if sd.status == 'added' else 'A'}")
            continue
        lines.append(f"**{sd.stage}** (+{sd.added}/-{sd.removed})")
        if not opts.stat:
            # (a fence in the IR's text broken by a zero-width space, added after the IR's own were made visible)
            shown = [visible(ln).replace("```", "`\u200b``") for ln in sd.lines[:max_lines]]
            lines += ["", "```diff", *shown, "```"]
            if len(sd.lines) > max_lines:
                lines.append(f"_{len(sd.lines) - max_lines} more diff lines not shown._")
        lines.append("")
    if why:
        lines += [why, ""]
    lines += ["</details>", ""]
    return "\n".join(lines) + "\n"


RENDERERS: dict[str, Callable[[DiffResult, RenderOptions], str]] = {
    "text": render_text,
    "markdown": render_markdown,
}
