"""`tritonscope compile`: build sample or user kernels into a Triton cache, with or without a GPU."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import click

from tritonscope.artifacts.cache import is_int
from tritonscope.cli.common import emit_json, json_option
from tritonscope.cli.outcome import outcome
from tritonscope.errors import TritonscopeError, UsageError
from tritonscope.render.visible import one_line, visible


def _name_values(items: tuple[str, ...], flag: str, keyword: bool = False) -> tuple[tuple[str, object], ...]:
    """`NAME=VALUE` items, values as Python constants; `keyword`: NAME must be a launch keyword and VALUE
    not empty (--option)."""
    from tritonscope.compile.signatures import parse_constant

    out = []
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or keyword and (not name.isidentifier() or not value.strip()):
            hint = " as a launch keyword (num_ctas=2)" if keyword else ""
            raise UsageError(f"{flag}: expected NAME=VALUE{hint}, got '{item}'")
        if keyword and name == "num_warps":
            raise UsageError("--option num_warps: use --num-warps")
        parsed = parse_constant(value)
        if keyword and name in _INT_OPTIONS and (not is_int(parsed) or parsed < 0):
            raise UsageError(f"{flag} {name}={value.strip()}: expected a non-negative integer")
        if keyword and name in _BOOL_OPTIONS and not isinstance(parsed, bool):
            raise UsageError(f"{flag} {name}={value.strip()}: expected True or False")
        out.append((name, parsed))
    return tuple(out)


# Launch options of a known type, checked before the compile (Triton's own message for `num_stages=abc` is a
# pybind TypeError deep in its pass manager)
_INT_OPTIONS = ("num_stages", "num_ctas", "maxnreg", "waves_per_eu", "matrix_instr_nonkdim", "kpack")
_BOOL_OPTIONS = ("enable_fp_fusion", "debug", "launch_cooperative_grid", "launch_pdl")


@click.command("compile")
@click.argument("kernels", nargs=-1, metavar="[KERNEL]...")
@click.option(
    "--target",
    "targets",
    multiple=True,
    metavar="T",
    help="cuda:80, cuda:90, cuda:100, hip:gfx90a, hip:gfx942, hip:gfx950, ... (repeatable). "
    "Default: this machine's GPU; without one, cuda:90 and hip:gfx942.",
)
@click.option(
    "--cache-dir",
    "cache_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Cache to write (default: the one the inspection commands read: $TRITON_CACHE_DIR, "
    "$TRITON_HOME/.triton/cache, ~/.triton/cache).",
)
@click.option("--num-warps", type=click.IntRange(1, 64), default=None, help="Override num_warps.")
@click.option(
    "--option", "launch_options", multiple=True, metavar="NAME=V",
    help="A compile option as a launch passes it (repeatable): num_stages=3, num_ctas=2, maxnreg=128, "
    "enable_fp_fusion=False, AMD's waves_per_eu=2. Over an autotune config's and, for a cache entry, over "
    "its metadata's; a name the target's backend does not have is refused.",
)
@click.option(
    "--signature",
    default=None,
    metavar="SIG",
    help="User kernel argument types: named 'x_ptr=*fp16,n=i32:16' or Triton's AOT notation "
    "'*fp16:16, *fp16:16, i32:16, 1024'. A host TMA descriptor (Triton 3.4+) as the JIT writes it: "
    "'a_desc=tensordesc<fp16[64, 64]>' (Gluon: 'tensordesc<fp16[64, 64],NVMMASharedLayout(...)>', the "
    "layout's repr()). Named, hints are a launch's: the kernel's do_not_specialize, "
    "do_not_specialize_on_alignment, debug and type annotations (n: tl.int64) apply as the JIT applies them; "
    "a bool tensor is *u1.",
)
@click.option(
    "--constexpr", "constexprs", multiple=True, metavar="NAME=V",
    help="A constexpr value (repeatable): a number, True/False, None (an argument passed as None), a tuple "
    "or list of those ('CGA_LAYOUT=((1, 0),)'), a dtype as tl.bfloat16, a Gluon layout as Gluon code: "
    "'layout=gl.BlockedLayout([4], [32], [4], [0])', or as code over the kernel module's names "
    "('layout=ttgl.BlockedLayout(...)' where it imports the language as ttgl: its names, their public attributes, "
    "calls, literals and arithmetic only), a name of the kernel's module "
    "(a Gluon aggregate class, a @jit function, a constant: 'MMAImpl=WGMMA', with a note), or text "
    "('ACT=gelu'; quoted, "
    "'ACT=\"WGMMA\"', where the module has that name).",
)
@click.option(
    "--no-specialize",
    "no_specialize",
    multiple=True,
    metavar="NAME",
    help="Compile as if NAME were launched unaligned / not specialized (repeatable).",
)
@click.option(
    "--explain-spec", is_flag=True, help="Print the signature, constexprs and attributes; compile nothing."
)
@click.option(
    "--run",
    "run",
    is_flag=True,
    help="Launch the sample kernels through the JIT (GPU) and check them against their torch references.",
)
@click.option("--interpret", is_flag=True, help="With --run: run on the CPU under TRITON_INTERPRET=1.")
@click.option(
    "--jobs", "-j", type=click.IntRange(1, 256), default=None, help="Processes (default: one per core)."
)
@click.option("--list", "list_samples", is_flag=True, help="List the sample kernels and their variants.")
@json_option
def compile_cmd(
    kernels: tuple[str, ...],
    targets: tuple[str, ...],
    cache_dir: str | None,
    num_warps: int | None,
    launch_options: tuple[str, ...],
    signature: str | None,
    constexprs: tuple[str, ...],
    no_specialize: tuple[str, ...],
    explain_spec: bool,
    run: bool,
    interpret: bool,
    jobs: int | None,
    list_samples: bool,
    as_json: bool,
) -> None:
    """Compile sample kernels (default: all) or user kernels into a Triton cache.

    KERNEL is a sample name (see --list), a sample variant (gemv-unaligned, gemv-kmask) or
    path/to/file.py::kernel_name (a @triton.jit or a @gluon.jit function, or Class.kernel_name for one a
    class holds; under @triton.autotune each config is compiled, as a first launch would (the configs its
    early_config_prune keeps where it reads no other argument), or where --constexpr gives tuned values, the
    configs they name, each with its num_warps and num_stages (--num-warps and --option replace them; configs
    that then compile the same are compiled once, with a note); under
    @triton.heuristics give the values it would compute; a file inside a package is imported as the
    package's module (and by its full name, from above a namespace package (no __init__.py) where it
    imports the folder above it by name: fbgemm_gpu.experimental..., with a note; a package folder named
    triton, which would shadow the installed Triton, is refused), and code asking the driver for the
    current target or which backend is active at import gets the target compiled for; so does
    torch.cuda.get_device_capability() where torch has no GPU to ask, and get_device_name() the vendor
    and architecture, no product, with a note; a package whose __init__.py does not import here is left
    out, with a note). Without a GPU, kernels are
    cross-compiled with triton.compile(ASTSource(...), target=GPUTarget(...)) (GluonASTSource for Gluon
    kernels, Triton 3.4 and later), specialized exactly as a JIT launch with 16-byte-aligned torch
    tensors would be. Without KERNEL, the Gluon samples are built only for targets with the warp size
    their layouts are written for.

    KERNEL may also be a cache entry (its directory, or its .ttir): its TTIR is compiled again by the installed
    Triton for each --target, launched as it was: num_warps and num_ctas as its TTGIR records them (a
    warp-specialized kernel's metadata counts its partitions' warps too), num_stages, maxnreg and fp-fusion as
    its metadata does, and a HIP kernel's waves_per_eu, matrix_instr_nonkdim and kpack for another HIP GPU
    (--num-warps and --option override; an option the target's backend lacks is said and left out): what an
    H100 kernel becomes on cuda:100 or gfx942. The entry is
    only read; where an older release printed an op in a spelling the installed one no longer reads (3.6's
    cache-hint keywords and wrapped descriptor types), a respelled copy is compiled, and a note says so; a TTIR
    another release wrote may still not parse, and the error says so. Values the TTIR text
    prints without a location (a loop's carried values) get the .ttir's own position from Triton's parser;
    LLVM's debug info writes that line and column as the kernel file's, and the inspection commands give those
    ops back to the .ttir (`map --file NAME.ttir --line N` shows them).
    """
    from tritonscope.artifacts.cache import default_cache_dir
    from tritonscope.compile.driver import quiet_triton_warnings
    from tritonscope.render.terminal import make_console

    quiet_triton_warnings()
    if any("::" in k for k in kernels) and not list_samples:
        from tritonscope import cli

        if cli.AS_PROGRAM:  # (an import that crashes this process is said by the one watching it)
            from tritonscope.compile.supervise import watch

            watch()
    console = make_console()
    cache = str(cache_dir) if cache_dir else str(default_cache_dir())
    if interpret and not run:
        raise UsageError("--interpret goes with --run")
    if list_samples:
        _list_samples(console, as_json)
        return
    if run:
        _run(console, kernels, cache, interpret, as_json)
        return

    from tritonscope.compile import driver as comp

    target_list = [comp.parse_target(t) for t in targets] if targets else comp.default_targets()
    target_list = list(dict.fromkeys(target_list))  # (a target given twice is compiled once)
    requests = comp.requests_for(
        list(kernels),
        target_list,
        num_warps=num_warps,
        launch_options=_name_values(launch_options, "--option", keyword=True),
        signature=signature,
        constexprs=_name_values(constexprs, "--constexpr"),
        no_specialize=tuple(no_specialize),
    )
    if explain_spec:
        _explain(console, requests, as_json)
        return
    _cache_is_no_entry(cache, requests)
    existed = os.path.isdir(cache)
    results = _compile_with_progress(comp, requests, cache, jobs, quiet=as_json)
    usage = [r for r in results if not r.ok and r.error.kind == "usage"]
    if results and len(usage) == len(results):
        # the command line was wrong for every kernel (no such file or kernel, a constexpr missing): a usage
        # error, as --explain-spec says it; no cache is left behind for it
        if not existed:
            with contextlib.suppress(OSError):
                os.rmdir(cache)
        raise UsageError(f"{usage[0].request.label}: {usage[0].error.headline()}")
    failed_targets = _report_target_failures(results)
    kernel_failures = [r for r in results if not r.ok and r.error.kind != "target"]
    if not existed:  # (nothing compiled, every import failed: no empty cache folder is left behind)
        with contextlib.suppress(OSError):
            os.rmdir(cache)
    if as_json:
        emit_json({"cache": cache, "results": [_result_json(r) for r in results]}, "compile")
    else:
        from tritonscope.render.compile import failure_lines, render_results

        for note in _notes_once(results):
            click.echo(one_line(f"tritonscope: note: {note}"), err=True)
        # one error for every config of a kernel (a removed API the kernel calls): said once, for all of them
        same: dict[tuple, list] = {}
        for r in kernel_failures:
            same.setdefault((str(r.request.target), tuple(failure_lines("", r.error))), []).append(r)
        for (target, _), group in same.items():
            r = group[0]
            label = r.request.label if len(group) == 1 else \
                f"{r.request.label} and {len(group) - 1} more, the same error"
            for line in failure_lines(f"{label} ({target})", r.error):
                click.echo(visible(line), err=True)
            if outcome().debug and r.error.trace:  # (--debug: where the user's module raised)
                click.echo(r.error.trace.rstrip("\n"), err=True)
        render_results(results, console, cache)
    if (
        kernel_failures
        or not any(r.ok for r in results)
        or (failed_targets and len(failed_targets) == len({str(r.request.target) for r in results}))
    ):
        outcome().failed(f"{len(kernel_failures)} kernel compile(s) failed" if kernel_failures
                         else "no kernel compiled for any target")


def _compile_with_progress(comp, requests, cache: str, jobs: int | None, quiet: bool) -> list:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from tritonscope.status import stderr_console

    err_console = stderr_console()
    if quiet or not err_console.is_terminal:
        return comp.compile_many(requests, cache, jobs=jobs)
    with Progress(
        TextColumn("compiling"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}", markup=False),  # (a kernel's label: a path, no markup)
        console=err_console,
        transient=True,
    ) as progress:
        task = progress.add_task("", total=len(requests))

        def done(r) -> None:
            progress.update(task, advance=1, description=f"{r.request.label} {r.request.target}")

        return comp.compile_many(requests, cache, jobs=jobs, on_done=done)


def _report_target_failures(results: list) -> set[str]:
    """One line per target the installed Triton cannot build for."""
    seen: dict[str, str] = {}
    for r in results:
        if r.error is not None and r.error.kind == "target":
            seen.setdefault(str(r.request.target), r.error.message)
    if seen:
        import triton

        for target, reason in seen.items():
            click.echo(
                f"tritonscope: warning: {target}: Triton {triton.__version__} cannot compile for this "
                f"target: {reason}",
                err=True,
            )
    return set(seen)


def _notes_once(results) -> list[str]:
    """Each result's notes, `label: note`, once: a note every autotune config of a kernel got alike (its module
    asked the device's name at import) is said once for all of them (`[4 configs]`), not once a config."""
    configs: dict[tuple, list] = {}
    for r in results:
        if r.request.config:
            configs.setdefault((r.request.kernel.label, str(r.request.target)), []).append(r)
    out: list[str] = []
    for r in results:
        group = configs.get((r.request.kernel.label, str(r.request.target)), [])
        for n in r.notes:
            if len(group) > 1 and all(n in other.notes for other in group):
                out.append(f"{r.request.kernel.label} [{len(group)} configs]: {n}")
            else:
                out.append(f"{r.request.label}: {n}")
    return list(dict.fromkeys(out))


def _result_json(r) -> dict:
    return {
        "kernel": r.request.kernel.label,
        "autotune_config": None if r.request.config is None else
        {"index": r.request.config[0], "of": r.request.config[1]},
        "kernel_name": r.kernel_name,
        "target": str(r.request.target),
        "hash": r.hash,
        "entry": r.entry,
        "seconds": round(r.seconds, 3),
        "stages": r.stages,
        "cached": r.cached,
        "options": r.options,
        "spec": r.spec,
        "error": None if r.ok else {"kind": r.error.kind, "message": r.error.headline()},
        "notes": r.notes,
    }


def _explain(console, requests: list, as_json: bool) -> None:
    from tritonscope.compile import driver as comp
    from tritonscope.compile.specialize import explain

    docs = []
    for req in requests:
        if req.kernel.ir is not None:  # (a compiled kernel's TTIR: its specialization is in it already)
            raise UsageError(f"--explain-spec explains how a Python kernel's arguments specialize; {req.label} is "
                             "compiled IR (its TTIR states the specialization it was compiled with)")
        try:
            fn, spec = comp.resolve_spec(req)
        except TritonscopeError:
            raise
        except Exception as exc:  # noqa: BLE001 - a user module that does not import
            from tritonscope.compile.diagnostics import import_failure

            raise TritonscopeError(import_failure(exc, req.kernel.path).headline()) from None
        from triton.compiler import make_backend

        try:
            options = make_backend(req.target.gpu_target()).parse_options(dict(spec.options))
        except Exception as exc:  # noqa: BLE001 - the backend asserts on what it refuses (num_warps=3)
            raise TritonscopeError(f"{req.label}: options refused by the {req.target} backend: {exc}") from None
        effective = {k: getattr(options, k) for k in ("num_warps", "num_stages", "num_ctas")}
        if getattr(options, "maxnreg", None) is not None:  # (an autotune config's register cap)
            effective["maxnreg"] = options.maxnreg
        if as_json:
            docs.append(
                {
                    "kernel": req.label,
                    "kernel_name": fn.__name__,
                    "target": str(req.target),
                    "spec": spec.to_json(),
                    "options": effective,
                }
            )
            continue
        from tritonscope.render.compile import render_explain

        render_explain(explain(spec), console, f"{req.label} ({fn.__name__})", str(req.target), effective)
    if as_json:
        emit_json({"kernels": docs}, "compile-spec")


def _list_samples(console, as_json: bool) -> None:
    from tritonscope.compile.request import sample_package

    sample_kernels = sample_package()

    rows = []
    for name in sample_kernels.names():
        s = sample_kernels.load(name)
        rows.append((name, s.kernel_name, s.description))
        rows += [(f"{name}-{v}", s.kernel_name, var.description) for v, var in s.variants.items()]
    if as_json:
        emit_json({"samples": [{"name": n, "kernel": k, "description": d} for n, k, d in rows]}, "samples")
        return
    width = max(len(r[0]) for r in rows)
    for n, k, d in rows:
        console.print(f"{n:<{width}}  {k:<28} {d}")


def _run(console, kernels: tuple[str, ...], cache: str, interpret: bool, as_json: bool) -> None:
    if interpret:
        os.environ["TRITON_INTERPRET"] = "1"
    from tritonscope.compile import driver as comp
    from tritonscope.compile import launch
    from tritonscope.compile.request import sample_package

    sample_kernels = sample_package()
    device = "cpu" if interpret else launch.gpu_device()
    if kernels:
        refs = [comp.parse_kernel_ref(k) for k in kernels]
    elif interpret:  # Triton's interpreter runs @triton.jit functions only
        refs = [comp.KernelRef(sample=n) for n in comp.sample_names() if n not in sample_kernels.GLUON_SAMPLES]
    else:
        native, release = comp.native_target(), comp.installed_release()
        refs = [comp.KernelRef(sample=n) for n in comp.sample_names()
                if native is None or sample_kernels.fits(n, native.warp_size, release)]
    if any(r.path for r in refs):
        raise UsageError("--run launches sample kernels only (user kernels have no reference to check)")
    gluon = [r.label for r in refs if interpret and r.sample in sample_kernels.GLUON_SAMPLES]
    if gluon:
        raise UsageError(f"--interpret: Triton's interpreter does not run Gluon kernels ({', '.join(gluon)})")

    checks = []
    for ref in refs:
        sizes = (
            dict(sample_kernels.load(ref.sample).interpreter_sizes) if interpret and not ref.variant else None
        )
        checks.append(launch.run_sample(ref, device, sizes, cache_dir=cache))
    if as_json:
        emit_json(
            {
                "cache": cache,
                "device": device,
                "checks": [
                    {
                        "kernel": c.label,
                        "ok": c.ok,
                        "error": c.error,
                        "seconds": round(c.seconds, 3),
                        "outputs": [
                            {"name": o.name, "max_abs_error": o.max_abs_error, "ok": o.ok} for o in c.outputs
                        ],
                    }
                    for c in checks
                ],
            },
            "compile-run",
        )
    else:
        from tritonscope.render.compile import render_run

        for c in checks:
            if c.error:
                click.echo(one_line(f"tritonscope: error: {c.label}: {c.error}"), err=True)
        render_run(checks, console)
    if not all(c.ok for c in checks):
        outcome().failed(f"{sum(not c.ok for c in checks)} run check(s) failed")


def _cache_is_no_entry(cache: str, requests: list) -> None:
    """--cache-dir inside a Triton cache's entry (the entry compiled again, given as its own cache): the
    compile would write an entry into it, and an entry given to compile is only read."""
    from tritonscope.artifacts.cache import enclosing_compiler_cache
    from tritonscope.artifacts.own_cache import within

    sources = {str(Path(r.kernel.ir).parent) for r in requests if r.kernel.ir}
    if enclosing_compiler_cache(cache) is not None or any(within(cache, s) for s in sources):
        raise UsageError(f"--cache-dir {cache} is inside a Triton cache entry (an entry is only read): give the "
                         "cache's folder, or another")
