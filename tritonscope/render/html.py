"""The HTML report: one self-contained page (inline CSS and JS, no network) from a report.ReportModel.

Every string taken from an artifact (kernel names, paths, IR text, metadata values, load rows) is escaped
here: IR text through pygments' HtmlFormatter, everything else through `esc`; the data blob the script
reads is JSON with `<`, `>` and `&` written as \\u escapes, so nothing in it can close the script element.
SVG pictures are embedded as base64 `data:` images, which browsers never run scripts from.
html_diff.py builds the side-by-side diff pages from the same parts (it imports this module, not the reverse).
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
from importlib import resources

from tritonscope.render.lexers import lexer_for_stage
from tritonscope.render.visible import visible
from tritonscope.stages.common import same_file

# Characters of a line that get syntax colours; the rest of a longer line is plain (escaped) text.
HIGHLIGHT_CHARS = 400
# Panes larger than this are shown without syntax colours (pygments would take seconds per MB).
HIGHLIGHT_MAX_CHARS = 4 << 20
STAGE_TITLES = {"source": "TTIR (source)", "ttir": "TTIR", "ttgir": "TTGIR", "llir": "LLVM IR", "ptx": "PTX",
                "amdgcn": "AMDGCN", "sass": "SASS", "hsaco-asm": "AMDGCN (from HSACO)", "python": "Python"}
# `<span class="no">#blocked1</span>`: a layout alias reference as the MLIR lexer highlights it.
HIGHLIGHTED_ALIAS = re.compile(r'<span class="no">#([A-Za-z_][\w$.]*)</span>')
# A run of blanks inside a line of nvdisasm output (column padding).
SASS_PADDING = re.compile(r"(?<=\S) {3,}")


def esc(value: object) -> str:
    """Text for the page: HTML-escaped, its control and bidirectional characters shown (render/visible.py)."""
    return html.escape(visible(str(value)), quote=True)


def _visible_data(data: object) -> object:
    """`data` with every string (keys too) passed through `visible`."""
    if isinstance(data, str):
        return visible(data)
    if isinstance(data, dict):
        return {_visible_data(k): _visible_data(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_visible_data(v) for v in data]
    return data


def json_for_script(data: object) -> str:
    """JSON that is inert inside <script type="application/json">, whatever strings it holds (their control
    and bidirectional characters shown, as the page's own text shows them)."""
    text = json.dumps(_visible_data(data), separators=(",", ":"), ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def highlight_lines(text: str, lexer_name: str) -> list[str]:
    """The text highlighted as a whole (so multi-line tokens keep their state), split into one HTML
    fragment per source line; pygments closes its spans at every line end. Past HIGHLIGHT_CHARS a line
    goes on unhighlighted (LLVM's 64-member struct types would otherwise multiply the page size)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    if not text:
        return []
    text = visible(text)
    raw = text.split("\n")
    if text.endswith("\n"):
        raw.pop()
    if len(text) > HIGHLIGHT_MAX_CHARS:  # pygments runs at ~1 MB/s: a huge pane stays plain
        return [esc(line) for line in raw]
    tails = {i: line[HIGHLIGHT_CHARS:] for i, line in enumerate(raw) if len(line) > HIGHLIGHT_CHARS}
    if tails:
        text = "\n".join(line[:HIGHLIGHT_CHARS] if i in tails else line for i, line in enumerate(raw)) + "\n"
    if lexer_name == "diff":
        from pygments.lexers.diff import DiffLexer

        lexer = DiffLexer()
    else:
        lexer = lexer_for_stage(lexer_name)
    lexer.stripnl = False  # blank lines at the start must keep their numbers
    out = highlight(text, lexer, HtmlFormatter(nowrap=True)).split("\n")
    lines = [_drop_plain_spans(line) for line in (out + [""] * len(raw))[:len(raw)]]
    for i, tail in tails.items():
        lines[i] += esc(tail)
    return lines


def asset(name: str) -> str:
    return resources.files("tritonscope.render").joinpath(name).read_text(encoding="utf-8")


def _token_palette() -> dict[str, str]:
    """pygments CSS class -> style, for every token type under one of TOKEN_STYLES' types."""
    from pygments import token as t
    from pygments.token import STANDARD_TYPES

    styles = {
        t.Comment: "color:#6e7781;font-style:italic", t.Keyword: "color:#cf222e", t.Keyword.Type: "color:#8250df",
        t.Name.Builtin: "color:#8250df", t.Name.Function: "color:#6639ba;font-weight:600",
        t.Name.Variable: "color:#953800", t.Name.Constant: "color:#0550ae", t.Name.Label: "color:#116329",
        t.Name.Class: "color:#6639ba;font-weight:600", t.Name.Decorator: "color:#8250df",
        t.Name.Attribute: "color:#0550ae", t.String: "color:#0a3069", t.Number: "color:#0550ae",
        t.Operator.Word: "color:#cf222e", t.Generic.Deleted: "color:#82071e;background:#ffebe9",
        t.Generic.Inserted: "color:#116329;background:#dafbe1", t.Generic.Subheading: "color:#8250df",
        t.Generic.Heading: "color:#0550ae;font-weight:600",
    }
    out = {}
    for ttype, css_class in STANDARD_TYPES.items():
        for parent in (ttype, *reversed(ttype.split()[:-1])):
            if parent in styles and css_class:
                out[css_class] = styles[parent]
                break
    return out


TOKEN_PALETTE: dict[str, str] = {}
# `<span class="p">:</span>`: a pygments token span, to drop where its class has no colour.
TOKEN_SPAN = re.compile(r'<span class="([\w-]+)(?: [\w -]+)?">([^<]*)</span>')
# Two spans of one class with only blanks or punctuation between them: `<span class="kt">float</span>,
# <span class="kt">` (LLVM struct types repeat `float` 64 times); merged, the punctuation takes the colour.
ADJACENT_SAME_SPANS = re.compile(
    r'<span class="([\w-]+)">([^<]*)</span>((?:[\s,;(){}\[\]]|&lt;|&gt;)*)<span class="\1">')


def pygments_css() -> str:
    return "\n".join(f".body .{cls}{{{css}}}" for cls, css in sorted(_palette().items()))


def _palette() -> dict[str, str]:
    if not TOKEN_PALETTE:
        TOKEN_PALETTE.update(_token_palette())
    return TOKEN_PALETTE


def _drop_plain_spans(fragment: str) -> str:
    """Spans of uncoloured tokens (whitespace, punctuation, plain names) add bytes and nothing else."""
    palette = _palette()
    fragment = TOKEN_SPAN.sub(
        lambda m: f'<span class="{m.group(1)}">{m.group(2)}</span>' if m.group(1) in palette else m.group(2),
        fragment)
    merged = ADJACENT_SAME_SPANS.sub(r'<span class="\1">\2\3', fragment)
    while merged != fragment:
        fragment, merged = merged, ADJACENT_SAME_SPANS.sub(r'<span class="\1">\2\3', merged)
    return fragment


def page(title: str, body: str, data: object) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        f"<title>{esc(title)}</title>\n<style>\n{asset('report.css')}\n{pygments_css()}\n</style></head>\n"
        f"<body>\n{body}\n<script type=\"application/json\" id=\"ts-data\">{json_for_script(data)}</script>\n"
        f"<script>\n{asset('report.js')}\n</script>\n</body></html>\n")


# --- the report page -------------------------------------------------------------------------------


def render_report(model) -> str:
    """The page for one kernel (model: report.ReportModel)."""
    k = model.kernel
    shown = model.source.ir_path
    stages = [p.stage for p in model.stages]
    data = {
        "files": model.files, "chains": model.chains, "stages": stages,
        "srcFiles": [i for i, f in enumerate(model.files) if shown and same_file(f, shown)],
    }
    body = "\n".join([
        header(k, model.metadata),
        '<main>',
        f'<section id="panes" class="panes with-src" style="--n:{len(model.stages)}">',
        source_pane(model.source, stages, model.helpers),
        *(stage_pane(p, {i.alias for i in model.layouts}) for p in model.stages),
        '</section>',
        '<div id="status" class="status">Click a source line or an instruction to follow it through '
        'the stages. <kbd>Esc</kbd> clears.</div>',
        panels(model),
        '</main>',
    ])
    return page(f"{k['name']} · tritonscope report", body, data)


# Metadata shown in the header, by their labels in the metadata panel -> (chip label, value unit).
HEADER_CHIPS = {"target": ("target", ""), "warps": ("warps", ""), "stages": ("stages", ""),
                "shared memory (bytes)": ("smem", "B"), "tensor memory (columns)": ("tmem", " col"),
                "registers / thread": ("regs", ""),
                "VGPRs": ("VGPRs", ""), "AGPRs": ("AGPRs", ""),  # (CDNA's MFMA accumulators: occupancy counts both)
                "local memory (spills, bytes)": ("local", "B"), "spills": ("spills", "")}


def header(kernel: dict, metadata: list[tuple[str, str]]) -> str:
    chips = [(HEADER_CHIPS[label][0], _with_unit(value, HEADER_CHIPS[label][1]))
             for label, value in metadata if label in HEADER_CHIPS]
    chips.append(("triton", kernel["triton"]))
    chips_html = "".join(f'<span class="chip"><b>{esc(label)}</b> {esc(value)}</span>' for label, value in chips)
    return (f'<header class="top"><div class="brand">tritonscope</div>'
            f'<h1 title="{esc(kernel["entry"])}">{esc(kernel["name"])}</h1>'
            f'<span class="hash">{esc(kernel["hash"][:16])}</span><div class="chips">{chips_html}</div></header>')


def _with_unit(value: str, unit: str) -> str:
    if unit != "B" or not value.isdigit():
        return value + unit if unit and unit != "B" else value
    n = int(value)
    return f"{n} B" if n < 1024 else f"{n / 1024:.1f} KiB"


def source_pane(src, stages: list[str], helpers=()) -> str:
    """The Python source, one <div> per line (numbered by CSS counters), with per-stage op counts; below
    its title, when helpers were written in other files, one button per file, each file a body of its
    own (data-file: its index in the chains' file table), shown one at a time."""
    title = esc(os.path.basename(src.ir_path)) if src.ir_path else "source"
    legend = "".join(f'<i class="st{n}" title="ops per line in {esc(s)}">{esc(STAGE_TITLES.get(s, s))}</i>'
                     for n, s in enumerate(stages))
    files = ""
    if helpers:
        buttons = [f'<button class="sf on" data-file="main" title="{esc(src.ir_path or "")}">{title}</button>']
        for h in helpers:
            lines = len(h.counts)
            buttons.append(f'<button class="sf" data-file="{"" if h.file_index is None else h.file_index}" '
                           f'title="{esc(h.ir_path)}: ops written on {lines} line{"s" if lines != 1 else ""}">'
                           f'{esc(os.path.basename(h.ir_path))}</button>')
        files = f'<div class="files">{"".join(buttons)}</div>'
    head = (f'<div class="head"><span class="title">Python · {title}</span>'
            f'<span class="legend">{legend}</span></div>{files}')
    extra = "".join(_helper_body(h, stages) for h in helpers)
    if src.text is None:
        return (f'<div class="pane src" data-stage="python" style="--gut:{len(stages)}">{head}'
                f'<div data-file="main">{empty(src.note)}</div>{extra}</div>')
    where = f' title="{esc(src.path)}"' if src.path else ""
    caution = f'<div class="note" data-file="main">{esc(src.caution)}</div>' if src.caution else ""
    return (f'<div class="pane src" data-stage="python" style="--gut:{len(stages)}"{where}>{head}{caution}'
            f'<div class="body" data-file="main">{"".join(_source_rows(src, stages))}</div>{extra}</div>')


def _helper_body(h, stages: list[str]) -> str:
    """A helper's file, hidden until its button is pressed: its lines with the ops written on them."""
    where = f' title="{esc(h.path)}"' if h.path else ""
    index = "" if h.file_index is None else h.file_index
    if h.text is None:
        return f'<div class="off" data-file="{index}">{empty(h.note)}</div>'
    caution = f'<div class="note off" data-file="{index}">{esc(h.caution)}</div>' if h.caution else ""
    return f'{caution}<div class="body off" data-file="{index}"{where}>{"".join(_source_rows(h, stages))}</div>'


def _source_rows(src, stages: list[str]) -> list[str]:
    rows = []
    blank_gutter = '<span class="gut"></span>'
    for n, line in enumerate(highlight_lines(src.text, "python"), 1):
        counts = src.counts.get(n) or {}
        inlined = src.inlined.get(n) or {}
        if counts or inlined:
            # a count of its own, else (dim) the ops a helper wrote on the line, counted at its call's line
            gutter = "".join(f'<i class="st{i}">{counts[s]}</i>' if counts.get(s) else
                             f'<i class="st{i} inl" title="written here by a helper, counted at its call">'
                             f'{inlined[s]}</i>' if inlined.get(s) else "<i></i>"
                             for i, s in enumerate(stages))
            rows.append(f'<div class="has"><span class="gut">{gutter}</span>{line}</div>')
        else:
            rows.append(f'<div>{blank_gutter}{line}</div>')
    return rows


def stage_pane(pane, aliases: set[str]) -> str:
    """One stage, one <div> per text line; op lines carry data-c (their chain) and data-s (source line)."""
    title = esc(STAGE_TITLES.get(pane.stage, pane.stage))
    count = f'<span class="count">{pane.op_count} located ops</span>' if pane.text is not None else ""
    head = f'<div class="head"><span class="title">{title}</span>{count}</div>'
    stage = esc(pane.stage)
    if pane.text is None:
        return f'<div class="pane" data-stage="{stage}">{head}{empty(pane.note)}</div>'
    rows = []
    text = pane.text
    if pane.stage == "sass":  # nvdisasm pads columns with dozens of blanks; keep the instruction in view
        text = SASS_PADDING.sub("  ", text)
    for n, line in enumerate(highlight_lines(text, pane.stage), 1):
        if pane.layout_refs.get(n):
            line = HIGHLIGHTED_ALIAS.sub(lambda m: _alias_link(m, aliases), line)
        if n in pane.chain:
            src = f' data-s="{pane.source_line[n]}"' if n in pane.source_line else ""
            kind = "op cont" if n in pane.continued else "op"  # (a later line of a multi-line op: not counted)
            rows.append(f'<div class="{kind}" data-c="{pane.chain[n]}"{src}>{line}</div>')
        else:
            rows.append(f'<div>{line}</div>')
    note = f'<div class="note">{esc(pane.note)}</div>' if pane.note else ""
    return (f'<div class="pane" data-stage="{stage}" title="{esc(pane.path or "")}">{head}{note}'
            f'<div class="body">{"".join(rows)}</div></div>')


def _alias_link(m: re.Match, aliases: set[str]) -> str:
    alias = html.unescape(m.group(1))
    if alias not in aliases:
        return m.group(0)
    return f'<a class="lay" href="#layout-{esc(alias)}">#{esc(alias)}</a>'


def empty(note: str | None) -> str:
    return f'<div class="empty">{esc(note or "not available")}</div>'


# --- panels under the panes ----------------------------------------------------------------------


def panels(model) -> str:
    tabs = [("layouts", f"Layouts ({len(model.layouts)})", layouts_panel(model)),
            ("loads", f"Loads &amp; stores ({len(model.loads)})", loads_panel(model)),
            ("meta", "Metadata", metadata_panel(model))]
    if model.provenance is not None:
        tabs.insert(0, ("torch-compile", "torch.compile", provenance_panel(model.provenance)))
    buttons = "".join(f'<button class="tab{" on" if i == 0 else ""}" data-tab="{key}">{label}</button>'
                      for i, (key, label, _) in enumerate(tabs))
    bodies = "".join(f'<div class="panel{" on" if i == 0 else ""}" id="panel-{key}">{content}</div>'
                     for i, (key, _, content) in enumerate(tabs))
    return f'<section class="panels"><nav class="tabs">{buttons}</nav>{bodies}</section>'


def provenance_panel(prov: dict) -> str:
    """What TorchInductor recorded of this kernel: its graph, fused ATen ops, FX nodes and model lines."""
    from tritonscope.srcmap.inductor import call_text
    if not prov.get("kernel"):
        return empty(f"{prov['role']}: {prov['note']}")
    facts = [("graph", prov["graph"]), ("kernel in the wrapper", prov["kernel"]),
             ("wrapper", f"{prov['wrapper']}:{prov['wrapper_line']}"), ("linked by", prov["linked_by"]),
             ("ATen ops", ", ".join(prov["aten_ops"]) or "-"),
             ("source nodes", ", ".join(prov["source_nodes"]) or "-"),
             ("FX graph", prov["fx_graph"] or "none (written under TORCH_COMPILE_DEBUG=1)")]
    if prov.get("defined_at"):
        d = prov["defined_at"]
        facts.insert(2, ("user-defined kernel", f"{d['file']}:{d['line']} (compiled as written)"))
    facts += [("also in", f"{o['kernel']} in graph {o['graph']} ({o['wrapper']}:{o['wrapper_line']})")
              for o in prov.get("also_in", [])]
    if prov.get("other_calls"):
        from tritonscope.srcmap.inductor import other_calls_text

        facts.append(("launches", other_calls_text(prov["graph"], prov["other_calls"], prov.get("launches"))))
    head = "".join(f"<tr><th>{esc(a)}</th><td>{esc(b)}</td></tr>" for a, b in facts)
    lines = "".join(f"<tr><td>{esc(r['file'].rsplit('/', 1)[-1])}:{r['line']}</td><td>{esc(r['function'])}</td>"
                    f"<td><code>{esc(r['code'])}</code>{esc(call_text(r))}</td>"
                    f"<td>{esc(', '.join(r['nodes']))}</td></tr>"
                    for r in prov["model_lines"])
    model_html = (f'<h3>Model lines</h3><table class="grid"><tr><th>line</th><th>in</th><th>code</th>'
                  f'<th>FX nodes</th></tr>{lines}</table>') if lines else ""
    if not lines and prov.get("defined_at"):  # no FX node of its own: where torch saw it called, as map says
        from tritonscope.srcmap.inductor import stack_text

        calls = "".join(f"<tr><td>{esc(stack_text(st))}</td><td><code>{esc(st[-1]['code'])}</code></td></tr>"
                        for st in prov.get("stacks", []) if st)
        model_html = (f'<h3>Where the model called it (the torch trace\'s stacks, outermost frame first)</h3>'
                      f'<table class="grid"><tr><th>stack</th><th>code</th></tr>{calls}</table>' if calls else
                      '<p class="note">No FX node of its own: a torch trace\'s stacks say where the model called it '
                      '(TORCH_TRACE=DIR INDUCTOR_PROVENANCE=1).</p>')
    rows = []
    for n in prov["nodes"]:
        t = n.get("tensor")
        m = n.get("model")
        where = f"{m['file'].rsplit('/', 1)[-1]}:{m['line']}" if m else "-"
        how = f" ({m['how']})" if m and m["how"].startswith("inferred") else ""
        tensor = f"{t['dtype']}{t['shape']} stride {t['stride']}" if t else "-"
        rows.append(f"<tr><td>{esc(n['name'])}</td><td>{esc(n['target'] or n['op'])}</td><td>{esc(tensor)}</td>"
                    f"<td>{esc(n['source_node'] or '-')}</td><td>{esc(where + how)}</td></tr>")
    nodes_html = (f'<h3>FX nodes fused into the kernel ({len(rows)})</h3><table class="grid"><tr><th>node</th>'
                  f'<th>target</th><th>tensor</th><th>source node</th><th>model line</th></tr>{"".join(rows)}'
                  '</table>')
    return (f'<table class="kv">{head}</table>{model_html}{nodes_html}'
            '<p class="note">Inductor records these per kernel, not per kernel line.</p>')


def layouts_panel(model) -> str:
    if not model.layouts:
        return empty(model.layouts_note or "no layouts")
    cards = []
    for item in model.layouts:
        facts = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in item.facts)
        if item.shape:
            facts = f"<tr><th>used with shape</th><td>{esc('×'.join(map(str, item.shape)))}</td></tr>" + facts
        uses = " ".join(f'<a class="go" href="#ttgir-{n}">{n}</a>' for n in item.used_on[:40])
        more = f" … {len(item.used_on) - 40} more" if len(item.used_on) > 40 else ""
        picture = ""
        shape = "×".join(map(str, item.shape or ()))
        if item.svg:
            b64 = base64.b64encode(item.svg.encode("utf-8")).decode("ascii")
            picture = (f'<div class="pic"><img alt="#{esc(item.alias)} for {esc(shape)}" '
                       f'src="data:image/svg+xml;base64,{b64}"></div>')
        note = f'<p class="note">{esc(item.note)}</p>' if item.note else ""
        defined = f' · TTGIR line <a class="go" href="#ttgir-{item.line}">{item.line}</a>' if item.line else ""
        cards.append(
            f'<article class="card" id="layout-{esc(item.alias)}"><h3>#{esc(item.alias)} '
            f'<span class="kind">{esc(item.kind)}</span><small>{defined}</small></h3>'
            f'<code class="attr">{esc(item.text)}</code><table class="kv">{facts}</table>{picture}{note}'
            # (named: as the type's layout, or as the parent of a slice or dot operand layout; `layout --json`
            # lists the first only, per shape)
            f'<p class="uses">named on TTGIR lines (itself or as a parent): {uses or "none"}{more}</p></article>')
    note = f'<p class="note">{esc(model.layouts_note)}</p>' if model.layouts_note else ""
    return note + _written_section(model) + f'<div class="cards">{"".join(cards)}</div>'


def _written_section(model) -> str:
    """A Gluon kernel's written layouts: where each is written, what it became (a card's link), its status
    and the source lines whose ops carry it, as `tritonscope layout` says them."""
    from tritonscope.layouts.gluon import ONE_OF, one_of

    if not model.written and not getattr(model, "written_note", None):
        return ""
    from tritonscope.layouts.written import file_name

    cards = {i.alias for i in model.layouts}
    items = []
    for w in model.written:
        wr = w["written"]
        where = f"{file_name(wr['file'])}:{wr['line']}" if wr.get("file") else f"line {wr['line']}"
        here = f'<a class="go" href="#src-{wr["line"]}">{esc(where)}</a>' if not wr.get("file") else esc(where)
        resolved = ", ".join(f'<a class="lay" href="#layout-{esc(t["name"])}">#{esc(t["name"])}</a>'
                             if t["name"] in cards else f"<code>{esc(t['text'])}</code>" for t in w["resolved"])
        filled = "; ".join(f"{k}={v}" for k, v in (w.get("filled") or {}).items())
        carried = ", ".join(f'<a class="go" href="#src-{n}">{n}</a>' for n in w.get("on_lines") or [])
        items.append(f'<li>{here} <code>{esc(wr["text"])}</code>: {esc(w["status"])}'
                     + (f" ({esc(filled)})" if filled else "") + (f"; {resolved}" if resolved else "")
                     + (f"; carried by lines {carried}" if carried else "")
                     + (f"; {esc(ONE_OF)}" if one_of(w) else "") + "</li>")
    note = f'<p class="note">{esc(model.written_note)}</p>' if getattr(model, "written_note", None) else ""
    count = f" ({len(model.written)})" if model.written or not note else ""  # (none read: no count)
    return (f'<section class="written"><h3>Written in the source{count}</h3>{note}'
            f'<ul>{"".join(items)}</ul></section>')


LOAD_COLUMNS = ("where", "op", "kind", "shape", "layout", "predicted", "actual")  # + a column per stage, verdict, why


def loads_panel(model) -> str:
    if not model.loads:
        return empty(model.loads_note or "no loads")
    from tritonscope.loads.model import STAGE_TITLE, where_label
    from tritonscope.stages.common import same_file
    stages = [s for s in ("llir", "ptx", "amdgcn", "sass") if s in model.loads_stages]
    head = "".join(f"<th>{esc(label)}</th>" for label in
                   (*LOAD_COLUMNS, *(STAGE_TITLE.get(s, s) for s in stages), "verdict", "why"))
    cards = {i.alias for i in model.layouts}  # an inline layout (`#ttg.slice<...>`) has no card to link to
    rows = []
    for row in model.loads:
        layout = row.get("layout")
        written = row.get("written_at")
        where = row.get("where") or where_label(row.get("file") or "", row.get("line"), row.get("col"),
                                                (written["file"], written["line"], written["col"]) if written
                                                else None)
        cells = [
            where, row.get("op"), row.get("kind"),
            f"{'×'.join(map(str, row.get('shape') or []))} {row.get('dtype') or ''}",
            layout,
            _bytes(row.get("predicted_vector_bytes")),
            _bytes(row.get("vector_bytes")) + (f" ({row['vector_stage']})" if row.get("vector_stage") else ""),
            *(_forms(_stage_counts(row, s)) for s in stages), row.get("verdict"),
            # the reasons and, as the text table shows them too, why the counts change between stages
            ", ".join(dict.fromkeys(map(str, [*(row.get("reasons") or []),
                                              *(c.get("code") for c in row.get("count_changes") or [])]))),
        ]
        evidence = [f"{code}: {text}" for code, text in (row.get("evidence") or {}).items()]
        evidence += [f"{c.get('code')}: {c.get('evidence')}" for c in row.get("count_changes") or []]
        html_cells = []
        for i, value in enumerate(cells):
            if i == 4 and layout and str(layout).lstrip("#") in cards:
                name = str(layout).lstrip("#")
                html_cells.append(f'<td><a class="lay" href="#layout-{esc(name)}">#{esc(name)}</a></td>')
            elif i == 4 and layout:  # inline in its type: the layout's text on hover
                title = f' title="{esc(row["layout_text"])}"' if row.get("layout_text") else ""
                html_cells.append(f"<td{title}>{esc(layout)}</td>")
            elif i == len(cells) - 1 and evidence:
                html_cells.append(f'<td title="{esc(chr(10).join(evidence))}">{esc(value)}</td>')
            else:
                html_cells.append(f"<td>{esc('' if value is None else value)}</td>")
        verdict = re.sub(r"[^\w-]", "", str(row.get("verdict") or "unknown"))
        line = row.get("line")
        if written and same_file(written["file"], row.get("file") or ""):
            line = written["line"]  # a helper of the kernel's file: its own line (report.js selects by chain)
        attr = f' data-s="{line}"' if isinstance(line, int) else ""
        if row.get("_chain"):  # (a helper's access: its call's chain, which report.js selects by)
            attr += f' data-k="{esc(json.dumps(row["_chain"], separators=(",", ":")))}"'
        title = f' title="{esc(row["chain"])}"' if row.get("chain") else ""
        rows.append(f'<tr class="v-{verdict}"{attr}{title}>{"".join(html_cells)}</tr>')
    return f'<table class="grid loads"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _bytes(value: object) -> str:
    return f"{value} B" if isinstance(value, int) else "?"


def _stage_counts(row: dict, stage: str) -> dict:
    """A loads row's (JSON) instructions of one stage, as `tritonscope loads` shows them."""
    from tritonscope.loads.model import shown_counts

    return shown_counts((row.get("stages") or {}).get(stage), (row.get("ambiguous") or {}).get(stage))


def _forms(forms: object) -> str:
    """`{"ld.global.v4.b32": 2}` -> `ld.global.v4.b32 ×2`."""
    if not isinstance(forms, dict) or not forms:
        return "-"
    return ", ".join(f"{form} ×{n}" for form, n in forms.items())


def metadata_panel(model) -> str:
    rows = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in model.metadata)
    k = model.kernel
    where = [("kernel", k["name"]), ("entry", k["entry"]), ("hash", k["hash"]), ("triton", k["triton"])]
    if model.source.ir_path:
        where.append(("source (as the IR names it)", model.source.ir_path))
    where.append(("source (read from)", model.source.path or "not found"))
    where.extend((f"{p.stage} file", p.path or "missing") for p in model.stages)
    files = "".join(f"<tr><th>{esc(a)}</th><td>{esc(b)}</td></tr>" for a, b in where)
    notes = [n for n in [model.source.note, *(p.note for p in model.stages), *model.notes] if n]
    note_html = "".join(f'<li>{esc(n)}</li>' for n in notes)
    return (f'<div class="cols"><table class="kv">{rows}</table><table class="kv">{files}</table></div>'
            + sources_table(model.sources)
            + (f'<ul class="notes">{note_html}</ul>' if notes else ""))


def sources_table(sources) -> str:
    """Which named files the page embeds, and why the others are not on it."""
    if not sources:
        return ""

    def status(s) -> str:
        if not s.embedded:
            return s.reason
        return f"embedded, read from {s.path}" + (f" ({s.caution})" if s.caution else "")

    rows = "".join(f"<tr><th>{esc(s.ir_path)}</th><td>{esc(status(s))}</td></tr>" for s in sources)
    return f'<h3>Source files named by the locations</h3><table class="kv sources">{rows}</table>'


