#!/usr/bin/env python3
"""Regenerate every command output shown in the docs by running the real commands.

    python docs/build.py                      compile the samples (cuda:90, hip:gfx942) into a temporary
                                              cache, run every example, rewrite the docs in place
    python docs/build.py --cache-dir DIR      reuse a cache that already holds the compiled samples
    python docs/build.py --check [...]        write nothing; exit 1 with a unified diff when the committed
                                              docs differ from what the tool prints now

An example is a block between `<!-- tritonscope:begin ID -->` and `<!-- tritonscope:end -->` in one of
DOCS; ID names an entry of docs/snippets.py (the command as the reader types it, and the excerpt shown).
docs/commands.md is rendered from the click definitions (docs/reference.py); pictures that examples write
(`--svg docs/img/...`) are generated files too.

Every command runs as `python -m tritonscope ...` in a scratch directory where `demo-cache` is the samples
cache (also $TRITON_CACHE_DIR), with COLUMNS=100 and NO_COLOR=1. What would differ between machines or
runs is rewritten by the rules in `stabilize` (paths) and in the snippet's own excerpt rule (ages,
timings), each stated where it is applied.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DOCS_DIR = Path(__file__).resolve().parent
REPO = DOCS_DIR.parent
sys.path.insert(0, str(DOCS_DIR))

import reference  # noqa: E402
import snippets  # noqa: E402

DOCS = ("README.md", "docs/tutorial.md", "docs/json.md")
COMMANDS_MD = "docs/commands.md"
TARGETS = ("cuda:90", "hip:gfx942")
SAMPLES_CACHE = "demo-cache"  # the name the README's set-up command gives the samples cache
TORCH_COMPILE_RUN = "torch-compile-run"  # tests/data/inductor-provenance-h100-triton3.6, as the docs name it
COMMAND_TIMEOUT_S = 300

BLOCK = re.compile(r"(<!-- tritonscope:begin (?P<id>[\w.-]+) -->\n)(?P<body>.*?)(<!-- tritonscope:end -->)",
                   re.S)
# the file names written by an example's --svg/--png, relative to the scratch directory
PICTURE_ARG = re.compile(r"--(?:svg|png)\s+(?P<path>docs/img/\S+)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed docs, write nothing")
    parser.add_argument("--cache-dir", type=Path, help="a cache holding the samples compiled for "
                        + " and ".join(TARGETS) + " (default: compile them into a temporary one)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="tritonscope-docs-") as scratch_name:
        scratch = Path(scratch_name).resolve()
        samples_cache = scratch / SAMPLES_CACHE
        if args.cache_dir is not None:
            if not args.cache_dir.is_dir():
                parser.error(f"--cache-dir {args.cache_dir}: not a directory")
            samples_cache.symlink_to(args.cache_dir.resolve(), target_is_directory=True)
        else:
            compile_samples(samples_cache)
        runner = Runner(scratch, samples_cache)
        texts = {name: (REPO / name).read_text() for name in DOCS}
        runner.run_all([m["id"] for text in texts.values() for m in BLOCK.finditer(text)])
        generated = {name: fill_blocks(texts[name], runner, name) for name in DOCS}
        generated[COMMANDS_MD] = reference.render_commands_md()
        generated.update(runner.pictures())

    return check(generated) if args.check else write(generated)


def compile_samples(cache: Path) -> None:
    cmd = [sys.executable, "-m", "tritonscope", "compile", "--cache-dir", str(cache)]
    for target in TARGETS:
        cmd += ["--target", target]
    # run beside the cache, not in the checkout: there `python -m` would import the checkout's
    # tritonscope/ ahead of an installed one, which is where a non-editable install keeps the samples
    done = subprocess.run(cmd, cwd=cache.parent, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S)
    if done.returncode != 0:
        sys.exit(f"docs/build.py: compiling the samples failed:\n{done.stdout}{done.stderr}")


class Runner:
    """Runs the examples in one scratch directory, each distinct command once, in the order asked."""

    def __init__(self, scratch: Path, samples_cache: Path) -> None:
        self.scratch = scratch
        self.samples_cache = samples_cache
        self.outputs: dict[str, str] = {}
        self.env = dict(os.environ, COLUMNS="100", LINES="50", NO_COLOR="1", TERM="dumb",
                        TRITON_CACHE_DIR=str(samples_cache))
        self.env.pop("FORCE_COLOR", None)
        self.replacements = path_replacements(scratch, samples_cache)
        (scratch / "docs" / "img").mkdir(parents=True, exist_ok=True)
        # a real torch.compile run (Triton and Inductor caches), read by the torch.compile examples
        recorded = scratch / TORCH_COMPILE_RUN
        if not recorded.exists():
            recorded.symlink_to(REPO / "tests" / "data" / "inductor-provenance-h100-triton3.6")

    def run_all(self, snippet_ids: list[str]) -> None:
        """Run what the blocks need: the compiles first (later examples read their caches), then the
        rest, each phase in parallel (every command only reads the caches and writes its own files)."""
        wanted = {self.snippet(i).command: self.snippet(i) for i in snippet_ids}
        compiles = [s for c, s in wanted.items() if c.startswith("tritonscope compile ")]
        others = [s for c, s in wanted.items() if not c.startswith("tritonscope compile ")]
        with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
            for phase in (compiles, others):
                list(pool.map(self.run, phase))

    def snippet(self, snippet_id: str) -> snippets.Snippet:
        snippet = snippets.SNIPPETS.get(snippet_id)
        if snippet is None:
            raise SystemExit(f"docs/build.py: no snippet {snippet_id!r} in docs/snippets.py")
        return snippet

    def render(self, snippet_id: str) -> str:
        return self.snippet(snippet_id).render(self.run(self.snippet(snippet_id)))

    def run(self, snippet: snippets.Snippet) -> str:
        if snippet.command not in self.outputs:
            argv = shlex.split(snippet.command)
            if argv[0] != "tritonscope":
                raise SystemExit(f"docs/build.py: {snippet.id}: a command must start with `tritonscope`")
            done = subprocess.run([sys.executable, "-m", "tritonscope", *argv[1:]], cwd=self.scratch,
                                  env=self.env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S)
            if done.returncode != snippet.exit_code:
                raise SystemExit(f"docs/build.py: {snippet.id}: `{snippet.command}` exited "
                                 f"{done.returncode}, expected {snippet.exit_code}:\n"
                                 f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
            # stderr (notes, warnings) after stdout: the two streams' interleaving is not reproducible
            self.outputs[snippet.command] = stabilize(done.stdout + done.stderr, self.replacements)
        return self.outputs[snippet.command]

    def pictures(self) -> dict[str, str]:
        """The pictures the examples wrote, keyed by their repository path."""
        found = {}
        for command in self.outputs:
            for match in PICTURE_ARG.finditer(command):
                path = match["path"]
                found[path] = stabilize((self.scratch / path).read_text(), self.replacements)
        return found


def path_replacements(scratch: Path, samples_cache: Path) -> list[tuple[str, str]]:
    """Machine paths -> what the docs print instead, longest first so a path never half-matches.

    - the samples cache (its real path too, when it is a symlink to --cache-dir) -> `demo-cache`
    - the scratch directory the commands run in -> `.` (so `./unaligned-cache` reads as typed)
    - the directory of the sample kernels -> `sample_kernels` (where a checkout keeps them)
    - the directory that holds the triton package -> `<site-packages>`
    """
    import importlib.util

    pairs = [(str(samples_cache.resolve()), SAMPLES_CACHE), (str(samples_cache), SAMPLES_CACHE),
             (str(scratch), ".")]
    samples_spec = importlib.util.find_spec("tritonscope.sample_kernels")  # imports no triton
    if samples_spec and samples_spec.submodule_search_locations:
        for location in samples_spec.submodule_search_locations:
            pairs.append((str(Path(location).resolve()), "sample_kernels"))
            pairs.append((str(Path(location)), "sample_kernels"))  # as imported, when it is a symlink
    pairs.append((str(REPO / "sample_kernels"), "sample_kernels"))
    # the build digest a diff reports (a digest of the tool's own source): any change of the code changes it
    from tritonscope.diff.snapshot import tool_build

    pairs.append((f'"build": "{tool_build()["build"]}"', '"build": "<digest of the source>"'))
    triton_spec = importlib.util.find_spec("triton")
    if triton_spec and triton_spec.submodule_search_locations:
        for location in triton_spec.submodule_search_locations:
            pairs.append((str(Path(location).resolve().parent), "<site-packages>"))
    return sorted(set(pairs), key=lambda pair: -len(pair[0]))


ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def stabilize(text: str, replacements: list[tuple[str, str]]) -> str:
    """Paths by `path_replacements`; no colour codes; no trailing blanks (rich pads table cells)."""
    for old, new in replacements:
        text = text.replace(old, new)
    text = ANSI_ESCAPE.sub("", text)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def fill_blocks(text: str, runner: Runner, name: str) -> str:
    def fill(match: re.Match) -> str:
        return match.group(1) + runner.render(match["id"]) + match.group(4)

    filled, count = BLOCK.subn(fill, text)
    begins = text.count("<!-- tritonscope:begin ")
    if begins != count:
        raise SystemExit(f"docs/build.py: {name}: {begins} begin markers but {count} complete blocks")
    return filled


def check(generated: dict[str, str]) -> int:
    stale = 0
    for name, new in generated.items():
        path = REPO / name
        old = path.read_text() if path.exists() else ""
        if old != new:
            stale += 1
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(keepends=True), new.splitlines(keepends=True),
                f"a/{name}", f"b/{name} (what the tool prints now)"))
    if stale:
        print(f"\ndocs/build.py --check: {stale} file(s) out of date; regenerate with `python docs/build.py`")
        return 1
    print(f"docs/build.py --check: {len(generated)} files up to date")
    return 0


def write(generated: dict[str, str]) -> int:
    for name, new in generated.items():
        path = REPO / name
        if not path.exists() or path.read_text() != new:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new)
            print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
