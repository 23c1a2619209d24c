"""The examples of the docs: per block ID, the command as the reader types it and the excerpt shown.

A command runs in a scratch directory where `demo-cache` is the compiled samples cache and also
$TRITON_CACHE_DIR (see docs/build.py). An excerpt rule cuts what the command printed (`…` marks where),
or replaces what depends on when and how fast the cache was built (ages, timings, mtimes, sizes); each
rule's docstring says which, and the docs say so beside the example.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

Excerpt = Callable[[str], str]
CUT = "…"


@dataclass(frozen=True)
class Snippet:
    id: str
    command: str  # exactly what the reader types; starts with `tritonscope`
    excerpts: tuple[Excerpt, ...] = ()
    exit_code: int = 0
    json: bool = False  # output shown in a ```json block of its own

    def render(self, output: str) -> str:
        for excerpt in self.excerpts:
            output = excerpt(output)
        output = output.rstrip("\n") + "\n"
        status = f"(exit status {self.exit_code})\n" if self.exit_code else ""
        if self.json:
            return f"```console\n$ {self.command}\n```\n```json\n{output}```\n{status}"
        return f"```console\n$ {self.command}\n{output}{status}```\n"


# ---- excerpt rules -------------------------------------------------------------------------------------

def head(n: int) -> Excerpt:
    """The first n lines, then `…` when there were more."""
    def cut(text: str) -> str:
        lines = text.splitlines()
        return "\n".join(lines[:n] + ([CUT] if len(lines) > n else []))
    return cut


def head_and_from(n: int, pattern: str) -> Excerpt:
    """The first n lines, `…`, then everything from the first later line matching `pattern` (a regex)."""
    def cut(text: str) -> str:
        lines = text.splitlines()
        start = next((i for i in range(n, len(lines)) if re.match(pattern, lines[i])), len(lines))
        return "\n".join(lines[:n] + ([CUT] if start > n else []) + lines[start:])
    return cut


def section(start: str, stop: str | None = None) -> Excerpt:
    """From the first line matching `start` to the line before the next matching `stop` (regexes, from
    the line's beginning); `…` marks what was cut."""
    def cut(text: str) -> str:
        lines = text.splitlines()
        begin = next(i for i, line in enumerate(lines) if re.match(start, line))
        end = len(lines)
        if stop is not None:
            end = next((i for i in range(begin + 1, len(lines)) if re.match(stop, lines[i])), len(lines))
        kept = lines[begin:end]
        prefix = [CUT] if begin > 0 else []
        suffix = [CUT] if end < len(lines) else []
        return "\n".join(prefix + kept + suffix)
    return cut


def keep_lines(pattern: str, header: int = 0, until: str | None = None, gaps: bool = False) -> Excerpt:
    """The first `header` lines (or every line up to the first matching `until`), then only the lines
    matching `pattern` (a regex); `…` at the end when lines were left out, or (`gaps`) where each run of
    them was (kept lines far apart in the output: a reader would take them for the whole of it)."""
    def cut(text: str) -> str:
        lines = text.splitlines()
        first = header
        if until is not None:
            first = next(i for i, line in enumerate(lines) if re.match(until, line)) + 1
        kept = lines[:first]
        for line in lines[first:]:
            if re.search(pattern, line):
                kept.append(line)
            elif gaps and kept[-1:] != [CUT]:
                kept.append(CUT)
        dropped = len(lines) - len([k for k in kept if k != CUT])
        return "\n".join(kept + ([CUT] if dropped and not gaps else []))
    return cut


def ls_without_age(text: str) -> str:
    """`ls` sorts newest first and ends each row with the entry's age: both depend on when and in which
    order the compile wrote the entries. The docs drop the `age` column and sort rows by name, target."""
    lines = text.splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("name "))
    age_col = lines[header_at].rindex("age")
    rows = [line[:age_col].rstrip() for line in lines[header_at + 1:] if line.strip()]
    rows.sort(key=lambda row: (row.split()[0], row.split()[2]))
    return "\n".join(lines[:header_at] + [lines[header_at][:age_col].rstrip()] + rows)


def ls_inductor_by_name(text: str) -> str:
    """`ls --inductor` sorts newest first: the docs sort the kernels (each with its indented lines) by
    name and hash, so the page does not change with the order the run wrote its entries."""
    lines = text.splitlines()
    groups: list[list[str]] = []
    for line in lines[1:]:
        if not line.strip():
            continue
        if line.startswith(" ") and groups:
            groups[-1].append(line)
        else:
            groups.append([line])
    groups.sort(key=lambda g: g[0].split()[:2])
    return "\n".join([lines[0]] + [line for g in groups for line in g])


COMPILE_SECONDS = re.compile(r"^(?P<before>\S+\s+\S+\s+[A-Z2-7]{16}\s+)(?P<seconds>\d+\.\d+)(?=\s)")


def compile_without_seconds(text: str) -> str:
    """`compile` prints how long each kernel took; the docs show `-` in that column."""
    return "\n".join(COMPILE_SECONDS.sub(lambda m: m["before"] + "-".rjust(len(m["seconds"])), line)
                     for line in text.splitlines())


def json_trim(max_items: int = 2, zero: tuple[str, ...] = (), max_chars: int = 300) -> Excerpt:
    """Lists of objects longer than `max_items` keep their first items (lists of numbers or strings are
    kept whole); strings longer than `max_chars` (diff texts) keep their first 300 characters and `…`; values
    under a key in `zero` (they depend on when or where the cache was made) print as 0. docs/json.md
    states these rules above its examples."""
    def trim(value):
        if isinstance(value, dict):
            return {k: (_zeroed(v) if k in zero else trim(v)) for k, v in value.items()}
        if isinstance(value, list) and any(isinstance(v, dict) for v in value):
            return [trim(v) for v in value[:max_items]]
        if isinstance(value, list):
            return [trim(v) for v in value]
        if isinstance(value, str) and len(value) > max_chars:
            return value[:max_chars] + CUT
        return value

    def cut(text: str) -> str:
        return compact_json(trim(json.loads(text)))
    return cut


def _zeroed(value):
    if isinstance(value, dict):
        return {k: _zeroed(v) for k, v in value.items()}
    return 0 if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def compact_json(value, indent: int = 0, width: int = 100, lead: int = 0) -> str:
    """JSON indented by 2, except that an object or array that fits on its line is written on it
    (`lead`: characters already on the line before the value, e.g. its key)."""
    flat = json.dumps(value)
    if indent + lead + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        inner = [pad + compact_json(v, indent + 2, width) for v in value]
    else:
        inner = [f"{pad}{json.dumps(k)}: " + compact_json(v, indent + 2, width, len(json.dumps(k)) + 2)
                 for k, v in value.items()]
    brackets = "[]" if isinstance(value, list) else "{}"
    return brackets[0] + "\n" + ",\n".join(inner) + "\n" + " " * indent + brackets[1]


# ---- the examples --------------------------------------------------------------------------------------

GEMV_HIP = "gemv_kernel --target hip:gfx942"
GEMV_CUDA = "gemv_kernel --target cuda:90"
WEIGHT_LINE = 40  # sample_kernels/gemv.py: w = tl.load(w_ptrs, ...), the weight-tile load

UNALIGNED = "--cache-dir unaligned-cache"
TORCH_COMPILE = ("--cache-dir torch-compile-run/triton_cache "
                 "--inductor-dir torch-compile-run/inductor_cache")
KMASK = "--cache-dir kmask-cache"
STAGE_HEADER = r"^(source|ttir|ttgir|llir|ptx|sass|amdgcn|hsaco-asm)  \d+ ops? at "
UNTIL_MEMORY = r"^memory:"

_ALL = [
    # README: the 60-second tour
    Snippet("readme-ls", "tritonscope ls", (ls_without_age,)),
    Snippet("readme-map-line",
            f"tritonscope map {GEMV_HIP} --line {WEIGHT_LINE} --stages ttir,ttgir,llir,amdgcn",
            (keep_lines(STAGE_HEADER + "|buffer_load_dwordx4", until=UNTIL_MEMORY),)),
    Snippet("readme-layout", f"tritonscope layout {GEMV_HIP} --alias blocked --shape 64x256 --no-picture"),
    Snippet("readme-loads", f"tritonscope loads {GEMV_HIP}", (head(5),)),
    Snippet("compile-unaligned", "tritonscope compile gemv-unaligned --target cuda:90 --target hip:gfx942 "
            "--cache-dir unaligned-cache", (compile_without_seconds,)),
    Snippet("readme-diff", "tritonscope diff demo-cache unaligned-cache -k gemv_kernel --target hip:gfx942 "
            "--stat --fail-on 'vector-width<'", (keep_lines(r"^(FAILED|  vector-width)", header=3, gaps=True),),
            exit_code=1),

    Snippet("readme-torch-compile-ls", f"tritonscope ls --inductor {TORCH_COMPILE}", (ls_inductor_by_name,)),
    Snippet("readme-model-line", f"tritonscope map --model-line provenance_model.py:21 {TORCH_COMPILE}",
            (head(11),)),

    # docs/tutorial.md: the weight-tile load of sample_kernels/gemv.py, stage by stage
    Snippet("tut-listing", f"tritonscope map {GEMV_HIP} --stages source,ttir,ttgir"),
    Snippet("tut-line-ttir", f"tritonscope map {GEMV_HIP} --line {WEIGHT_LINE} --stages source,ttir"),
    Snippet("tut-line-ttgir", f"tritonscope map {GEMV_HIP} --line {WEIGHT_LINE} --stages ttgir",
            (section(r"memory:"),)),
    Snippet("tut-layout", f"tritonscope layout {GEMV_HIP} --alias blocked --shape 64x256 --max-rows 16 "
            "--svg docs/img/gemv-blocked-gfx942.svg", (section(r"#blocked", r"dim0"),)),
    Snippet("tut-layout-cuda", f"tritonscope layout {GEMV_CUDA} --alias blocked --shape 64x256 --no-picture",
            (head(4),)),
    Snippet("tut-llir", f"tritonscope map {GEMV_HIP} --line {WEIGHT_LINE} --stages llir",
            (keep_lines(STAGE_HEADER + "|buffer.load", until=UNTIL_MEMORY),)),
    Snippet("tut-amdgcn-grep", f"tritonscope map {GEMV_HIP} --stage amdgcn --grep buffer_load_dwordx4"),
    Snippet("tut-explain-hip", f"tritonscope loads {GEMV_HIP} --explain {WEIGHT_LINE}"),
    Snippet("tut-explain-cuda", f"tritonscope loads {GEMV_CUDA} --explain {WEIGHT_LINE}"),
    Snippet("tut-sass-grep", f"tritonscope map {GEMV_CUDA} --stage sass --grep 'LDG.E.EF'",
            (head_and_from(6, r"\d+ matches by source line"),)),
    Snippet("tut-spec", "tritonscope compile gemv gemv-unaligned gemv-kmask --target hip:gfx942 "
            "--explain-spec",
            (keep_lines(r"^(\S+ \(gemv_kernel\)|argument|w_ptr|K |EVEN_K)"),)),
    Snippet("tut-explain-unaligned", f"tritonscope loads {GEMV_HIP} {UNALIGNED} --explain {WEIGHT_LINE}"),
    Snippet("tut-loads-unaligned-cuda", f"tritonscope loads {GEMV_CUDA} {UNALIGNED} --line {WEIGHT_LINE}"),
    Snippet("compile-kmask", "tritonscope compile gemv-kmask --target cuda:90 --target hip:gfx942 "
            "--cache-dir kmask-cache", (compile_without_seconds,)),
    Snippet("tut-explain-kmask", f"tritonscope loads {GEMV_HIP} {KMASK} --explain {WEIGHT_LINE}"),
    Snippet("tut-loads-kmask-cuda", f"tritonscope loads {GEMV_CUDA} {KMASK} --line {WEIGHT_LINE}"),
    Snippet("tut-diff-kmask", "tritonscope diff demo-cache kmask-cache -k gemv_kernel "
            "--fail-on 'vector-width<'", (keep_lines(r"^(===|FAILED|  vector-width)", header=3),),
            exit_code=1),
    Snippet("tut-int4-loads", "tritonscope loads gemv_int4_kernel --target hip:gfx942", (head(6),)),
    Snippet("tut-gluon-layout", "tritonscope layout gluon_mask_kernel", (head(11),)),
    Snippet("compile-gluon-spt1", "tritonscope compile gluon_axpy-spt1 --target cuda:90 --cache-dir spt1-cache",
            (compile_without_seconds,)),
    Snippet("tut-gluon-loads", "tritonscope loads gluon_axpy_kernel --cache-dir spt1-cache --explain 21"),
    Snippet("compile-blackwell", "tritonscope compile flash_attention --target cuda:100 --cache-dir blackwell-cache",
            (compile_without_seconds,)),
    Snippet("tut-tmem-layout", "tritonscope layout attention_fwd_kernel --cache-dir blackwell-cache",
            (keep_lines(r"tensor_memory_encoding|tensor memory|in tensor_memory|allocated", header=1),)),
    Snippet("tut-tmem-loads", "tritonscope loads attention_fwd_kernel --cache-dir blackwell-cache",
            (keep_lines(r"tmem_|tc_gen5", header=2),)),

    # docs/json.md: one example per contract
    Snippet("json-ls", f"tritonscope ls {GEMV_HIP} --json", (json_trim(zero=("mtime", "sizes")),), json=True),
    Snippet("json-map-line", f"tritonscope map {GEMV_HIP} --line 41 --stages ttgir,amdgcn --context 1 --json",
            (json_trim(max_items=3),), json=True),
    Snippet("json-map-reverse", f"tritonscope map {GEMV_HIP} --stage amdgcn --at 116 --json",
            (json_trim(),), json=True),
    Snippet("json-layout", f"tritonscope layout {GEMV_HIP} --alias blocked1 --shape 256 --dtype f32 --json",
            (json_trim(),), json=True),
    Snippet("json-loads", f"tritonscope loads {GEMV_HIP} --line 41 --json", (json_trim(),), json=True),
    Snippet("json-diff", "tritonscope diff demo-cache unaligned-cache -k gemv_kernel --target hip:gfx942 "
            "-s ttgir --format json --fail-on 'vector-width<'", (json_trim(),), json=True, exit_code=1),
]

SNIPPETS: dict[str, Snippet] = {s.id: s for s in _ALL}
