"""A user module that asks torch what GPU this is when it is imported, and constexprs that are tuples.

Kernel libraries test the device at import (Triton's Gluon attention example evaluates
`torch.cuda.get_device_capability()` in a decorator; others pick block sizes from it). Without a GPU
torch refuses ("Torch not compiled with CUDA enabled"); `compile` then imports the module again with
that one question answered by the target compiled for, as on that GPU."""

from __future__ import annotations

import json
import os
import re
import textwrap

import pytest
from conftest import run_cli

from tritonscope.compile.gluon import target_capability
from tritonscope.compile.signatures import parse_constant

MODULE = textwrap.dedent('''
    import torch
    import triton
    import triton.language as tl

    MAJOR = torch.cuda.get_device_capability()[0]
    BLOCK = tl.constexpr(256 if MAJOR >= 10 else 128)


    @triton.jit
    def scale_kernel(x_ptr, SHAPE: tl.constexpr):
        offs = tl.arange(0, BLOCK * SHAPE[0] // SHAPE[1])
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
''')


def _torch_has_a_gpu() -> bool:
    import torch

    try:
        torch.cuda.get_device_capability()
    except (AssertionError, RuntimeError):
        return False
    return True


def test_the_module_is_imported_for_the_target_torch_cannot_name(tmp_path):
    if _torch_has_a_gpu():
        pytest.skip("torch answers with this machine's GPU")
    (tmp_path / "lib_kernels.py").write_text(MODULE)
    sizes = {}
    for target in ("cuda:100", "cuda:90"):
        out = tmp_path / target.replace(":", "")
        r = run_cli("compile", f"{tmp_path / 'lib_kernels.py'}::scale_kernel", "--signature", "x_ptr=*fp32",
                    "--constexpr", "SHAPE=(4, 4)", "--target", target, "--cache-dir", str(out))
        assert r.returncode == 0, r.stderr
        (ttir,) = out.glob("*/*.ttir")
        (size,) = set(re.findall(r"tt\.make_range \{end = (\d+) : i32", ttir.read_text()))
        sizes[target] = int(size)
    assert sizes == {"cuda:100": 256, "cuda:90": 128}


NAMED = textwrap.dedent('''
    import torch
    import triton
    import triton.language as tl

    # flash-linear-attention's fla/utils/hardware.py, at import
    IS_NVIDIA_HOPPER = 'NVIDIA H' in torch.cuda.get_device_name(0) or torch.cuda.get_device_capability()[0] == 9
    BLOCK = tl.constexpr(128 if IS_NVIDIA_HOPPER else 64)


    @triton.jit
    def named_kernel(x_ptr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
''')


def test_the_device_name_is_answered_without_a_product_and_said(tmp_path):
    """Helper 62: flash-linear-attention tests `'NVIDIA H' in torch.cuda.get_device_name(0)` at import; only the
    capability was answered, so its import failed (`Torch not compiled with CUDA enabled`) for every target. The
    name is the vendor and architecture, no product (the capability decides here), and the command says what it
    answered."""
    if _torch_has_a_gpu():
        pytest.skip("torch answers with this machine's GPU")
    (tmp_path / "named.py").write_text(NAMED)
    sizes = {}
    for target in ("cuda:90", "cuda:80", "hip:gfx942"):
        out = tmp_path / target.replace(":", "")
        r = run_cli("compile", f"{tmp_path / 'named.py'}::named_kernel", "--signature", "x_ptr=*fp32",
                    "--target", target, "--cache-dir", str(out))
        assert r.returncode == 0, r.stderr
        arch = target.split(":")[1]
        name = f"NVIDIA sm_{arch}" if target.startswith("cuda") else f"AMD {arch}"
        assert (f"named.py asked torch.cuda.get_device_name() at import, answered '{name} (a tritonscope "
                "cross-compile target: no product)': a test of the name for a product takes its other branch"
                ) in r.stdout + r.stderr, r.stdout + r.stderr
        (ttir,) = out.glob("*/*.ttir")
        (size,) = set(re.findall(r"tt\.make_range \{end = (\d+) : i32", ttir.read_text()))
        sizes[target] = int(size)
    assert sizes == {"cuda:90": 128, "cuda:80": 64, "hip:gfx942": 128}  # (gfx942: capability (9, 4))
    # helper 64: asked by a module the kernel imports (the note named the kernel's file), through the idiom
    # `get_device_name(torch.cuda.current_device())` (current_device() was torch's: it refused)
    probe = "import torch\nNAME = torch.cuda.get_device_name(torch.cuda.current_device())\n"
    (tmp_path / "hw_probe.py").write_text(probe)
    (tmp_path / "uses_probe.py").write_text(NAMED.replace("import torch\n", "import torch\nimport hw_probe\n", 1))
    r = run_cli("compile", f"{tmp_path / 'uses_probe.py'}::named_kernel", "--signature", "x_ptr=*fp32",
                "--target", "cuda:90", "--cache-dir", str(tmp_path / "probe"))
    assert r.returncode == 0, r.stderr
    assert "hw_probe.py (imported by uses_probe.py) asked torch.cuda.get_device_name() at import" in r.stdout + r.stderr
    # helper 120: an autotuned kernel's every config got the note, said once a config (4 lines alike)
    tuned = NAMED.replace("import torch\n", "import torch\nimport hw_probe\n", 1).replace(
        "@triton.jit\ndef named_kernel", "@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in "
        "(1, 2, 4)], key=[])\n@triton.jit\ndef named_kernel")
    assert "triton.autotune" in tuned
    (tmp_path / "tuned.py").write_text(tuned)
    r = run_cli("compile", f"{tmp_path / 'tuned.py'}::named_kernel", "--signature", "x_ptr=*fp32",
                "--target", "cuda:90", "--cache-dir", str(tmp_path / "tuned"))
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stderr.splitlines() if "asked torch.cuda.get_device_name()" in line]
    assert len(said) == 1 and "tuned.py::named_kernel [3 configs]: hw_probe.py" in said[0], r.stderr


def test_capability_of_each_target_kind():
    from triton.backends.compiler import GPUTarget

    assert target_capability(GPUTarget("cuda", 100, 32)) == (10, 0)
    assert target_capability(GPUTarget("cuda", 90, 32)) == (9, 0)
    assert target_capability(GPUTarget("cuda", 120, 32)) == (12, 0)
    assert target_capability(GPUTarget("hip", "gfx942", 64)) == (9, 4)
    assert target_capability(GPUTarget("hip", "gfx90a", 64)) == (9, 0)
    assert target_capability(GPUTarget("hip", "gfx1100", 32)) == (11, 0)


def test_tuple_and_list_constexprs():
    assert parse_constant("()") == ()
    assert parse_constant("((1, 0),)") == ((1, 0),)
    assert parse_constant("[1, 2]") == [1, 2]
    # Gluon code in brackets stays the code it is (read later as a Gluon value)
    assert parse_constant("[gl.BlockedLayout([1], [32], [4], [0])]") == "[gl.BlockedLayout([1], [32], [4], [0])]"
    assert parse_constant("(1,") == "(1,"


KERNEL = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.jit
    def add_kernel(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)
''')


def test_launch_options_reach_the_compile_and_a_misspelt_one_is_refused(tmp_path):
    import json

    (tmp_path / "k.py").write_text(KERNEL)
    kernel = f"{tmp_path / 'k.py'}::add_kernel"
    common = ("--signature", "x_ptr=*fp32", "--constexpr", "BLOCK=256", "--target", "cuda:90")
    r = run_cli("compile", kernel, *common, "--option", "maxnreg=96", "--option", "num_stages=2",
                "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    (meta,) = (tmp_path / "c").glob("*/add_kernel.json")
    doc = json.loads(meta.read_text())
    assert (doc["maxnreg"], doc["num_stages"]) == (96, 2)
    # Triton's parse_options drops a name it does not know: here it is one line, before any compile
    r = run_cli("compile", kernel, *common, "--option", "num_cta=2", "--cache-dir", str(tmp_path / "d"))
    (line,) = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: error:")]
    assert r.returncode != 0 and "--option num_cta: the cuda backend of Triton has no such option" in line
    assert "num_ctas" in line and not (tmp_path / "d").exists() or not any((tmp_path / "d").glob("*/*.json"))
    for bad in ("num_ctas", "2=num_ctas", "num_warps=4"):
        r = run_cli("compile", kernel, *common, "--option", bad, "--cache-dir", str(tmp_path / "e"))
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (bad, r.stderr)


PACKAGED = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.jit
    def scaled_copy(x_ptr, y_ptr, n, scale=2.0, stride=128, GROUPS: tl.constexpr = 4, FLAG: tl.constexpr = None):
        offs = tl.arange(0, 64 * GROUPS)
        x = tl.load(x_ptr + offs * stride, mask=offs < n)
        if FLAG is not None:
            x = x + 1
        tl.store(y_ptr + offs, x * scale, mask=offs < n)
''')


def test_a_file_whose_package_does_not_import_compiles_without_its_init_and_with_its_defaults(tmp_path):
    """SGLang's Gluon kernels live in a package whose __init__ needs what a compile machine lacks: the file
    compiles with the packages' __init__ files left out (its relative imports of siblings still work),
    with a note. Arguments a launch leaves out take their defaults, specialized as the JIT specializes
    those values."""
    import json

    pkg = tmp_path / "biglib" / "ops"
    pkg.mkdir(parents=True)
    (tmp_path / "biglib" / "__init__.py").write_text("import a_dependency_not_installed_here\n")
    (pkg / "__init__.py").write_text("")
    (pkg / "consts.py").write_text("SHIFT = 1\n")
    (pkg / "copy.py").write_text("from .consts import SHIFT  # noqa: F401\n" + PACKAGED)
    r = run_cli("compile", f"{pkg / 'copy.py'}::scaled_copy", "--signature", "x_ptr=*fp32,y_ptr=*fp32,n=i32",
                "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"), "--json")
    assert r.returncode == 0, r.stderr
    (result,) = json.loads(r.stdout)["results"]
    assert result["notes"] == ["copy.py imported without the __init__.py of its package biglib, which does not "
                               "import here (ModuleNotFoundError: No module named 'a_dependency_not_installed_here')"]
    args = {a["name"]: a for a in result["spec"]["args"]}
    assert args["GROUPS"]["value"] == 4 and args["FLAG"]["value"] is None
    assert args["scale"]["type"] == "fp32" and args["stride"]["type"] == "i32"
    (ttir,) = (tmp_path / "c").glob("*/*.ttir")
    assert "tt.make_range {end = 256 : i32" in ttir.read_text()
    assert re.search(r"%stride: i32 \{tt\.divisibility = 16 : i32\}", ttir.read_text())
    # a file that fails on its own is reported as itself, its package notwithstanding
    (pkg / "broken.py").write_text("import another_missing_module\n" + PACKAGED)
    r = run_cli("compile", f"{pkg / 'broken.py'}::scaled_copy", "--signature", "x_ptr=*fp32,y_ptr=*fp32,n=i32",
                "--target", "cuda:90", "--cache-dir", str(tmp_path / "d"))
    assert r.returncode == 1 and "No module named 'a_dependency_not_installed_here'" in r.stderr



NAMESPACED = textwrap.dedent('''
    import triton
    import triton.language as tl
    from nslib.experimental.kern import consts

    WIDTH = tl.constexpr(64 * consts.SCALE)


    @triton.jit
    def ns_copy(x_ptr, y_ptr):
        offs = tl.arange(0, WIDTH)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs))
''')


@pytest.mark.parametrize("top_init", [None, "", "import a_dependency_not_installed_here\n"])
def test_a_file_importing_its_tree_through_a_namespace_package_is_imported_by_its_full_name(tmp_path, top_init):
    """QA (fbgemm): `fbgemm_gpu/experimental/gemm/triton_gemm/grouped_gemm.py`, `experimental/` and `gemm/`
    without an __init__.py, imports `from fbgemm_gpu.experimental.gemm.triton_gemm import utils`; it was
    imported from above its last __init__.py only, and failed with "No module named 'fbgemm_gpu'". It is
    imported as Python would with the folder above `fbgemm_gpu` on sys.path, by its full name, said in a
    note; the top folder's own __init__.py runs, or where it does not import here is left out, as before."""
    kern = tmp_path / "src" / "nslib" / "experimental" / "kern"
    kern.mkdir(parents=True)
    (kern / "__init__.py").write_text("")
    (kern / "consts.py").write_text("SCALE = 2\n")
    (kern / "ns_kernel.py").write_text(NAMESPACED)
    if top_init is not None:
        (tmp_path / "src" / "nslib" / "__init__.py").write_text(top_init)
    r = run_cli("compile", f"{kern / 'ns_kernel.py'}::ns_copy", "--signature", "x_ptr=*fp32,y_ptr=*fp32",
                "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"), "--json")
    assert r.returncode == 0, r.stderr
    (result,) = json.loads(r.stdout)["results"]
    src = os.path.relpath(tmp_path / "src", os.getcwd())
    note = (f"ns_kernel.py imported as nslib.experimental.kern.ns_kernel from {src}: it imports 'nslib', the folder "
            f"{os.path.join(src, 'nslib')} above it (folders between without an __init__.py taken as namespace "
            "packages, as Python takes them)")
    assert result["notes"][0] == note
    if top_init:
        assert result["notes"][1].startswith("ns_kernel.py imported without the __init__.py of its package nslib")
    (ttir,) = (tmp_path / "c").glob("*/*.ttir")
    assert "tt.make_range {end = 128 : i32" in ttir.read_text()


def test_a_folder_named_triton_imported_as_a_package_is_refused_in_one_line(tmp_path):
    """QA (flash-attn's `ops/triton/` extracted alone: an __init__.py in it, none above): the file was imported
    as `triton.rotary`, its folder replacing the installed Triton, and the error was "module 'triton' has no
    attribute '__version__'". It is one line naming the folder, exit 1, before anything is imported."""
    folder = tmp_path / "ops" / "triton"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    (folder / "rotary.py").write_text(PACKAGED)
    for extra in (("--explain-spec",), ("--cache-dir", str(tmp_path / "c"))):
        r = run_cli("compile", f"{folder / 'rotary.py'}::scaled_copy", "--signature", "x_ptr=*fp32,y_ptr=*fp32,n=i32",
                    "--target", "cuda:90", *extra)
        assert r.returncode == 1 and r.stdout == "", r.stderr
        (line,) = r.stderr.splitlines()
        assert line.startswith(f"tritonscope: error: {folder / 'rotary.py'}: the folder "
                               f"{os.path.relpath(folder)} is imported as the package 'triton'")
        assert "which would shadow the installed Triton" in line
    assert not (tmp_path / "c").exists()


ACTIVE_CHECK = textwrap.dedent('''
    import triton
    import triton.language as tl
    from triton.backends import backends

    # vLLM's triton_utils: Triton is swapped for placeholders unless exactly one backend's driver is active
    ACTIVE = [name for name, b in backends.items() if b.driver.is_active()]
    if len(ACTIVE) != 1:
        raise RuntimeError(f"{len(ACTIVE)} active drivers")
    WIDTH = tl.constexpr(64 if ACTIVE[0] == "amd" else 32)


    @triton.jit
    def fill(x_ptr):
        offs = tl.arange(0, WIDTH)
        tl.store(x_ptr + offs, offs)
''')


def test_the_backend_of_the_target_is_the_active_one_at_import(tmp_path):
    import json

    from triton.backends import backends

    before = {name: b.driver.__dict__.get("is_active") for name, b in backends.items()}
    (tmp_path / "active.py").write_text(ACTIVE_CHECK)
    sizes = {}
    for target in ("cuda:90", "hip:gfx942"):
        r = run_cli("compile", f"{tmp_path / 'active.py'}::fill", "--signature", "x_ptr=*i32", "--target", target,
                    "--cache-dir", str(tmp_path / target.replace(":", "")), "--json")
        assert r.returncode == 0, r.stderr
        (result,) = json.loads(r.stdout)["results"]
        (ttir,) = (tmp_path / target.replace(":", "")).glob("*/*.ttir")
        sizes[target] = int(re.search(r"tt\.make_range \{end = (\d+) : i32", ttir.read_text())[1])
        assert result["error"] is None
    assert sizes == {"cuda:90": 32, "hip:gfx942": 64}
    # in this process nothing changed (the compile ran in its own)
    assert before == {name: b.driver.__dict__.get("is_active") for name, b in backends.items()}


HELPERS_KERNEL = textwrap.dedent('''
    import triton
    import triton.language as tl

    from helpers import SCALE, WIDTH


    @triton.jit
    def probe(n=0):
        tl.device_print("x", tl.arange(0, WIDTH) * SCALE + n)
''')


def test_each_kernel_and_target_imports_its_own_folders_helpers(tmp_path):
    """A lone file's `from helpers import ...` stayed loaded for every later kernel and target of the
    command: another folder's helpers.py, or one that chose its values for the previous target, was reused
    and the kernel compiled wrong, reported as compiled."""
    for folder, scale in (("a", 2), ("b", 3)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "kern.py").write_text(HELPERS_KERNEL)
        (tmp_path / folder / "helpers.py").write_text(textwrap.dedent(f'''
            import triton.language as tl
            from triton.runtime import driver

            SCALE = tl.constexpr({scale})
            # a module that sets itself up for the GPU it is imported for
            WIDTH = tl.constexpr(64 if driver.active.get_current_target().backend == "hip" else 32)
        '''))
    out = tmp_path / "cache"
    r = run_cli("compile", f"{tmp_path / 'a' / 'kern.py'}::probe", f"{tmp_path / 'b' / 'kern.py'}::probe",
                "--target", "hip:gfx942", "--target", "cuda:90", "--cache-dir", str(out))
    assert r.returncode == 0, r.stderr
    found = set()
    for ttir in out.glob("*/*.ttir"):
        text = ttir.read_text()
        (width,) = set(re.findall(r"tt\.make_range \{end = (\d+) : i32", text))
        (scale,) = set(re.findall(r"arith\.constant dense<(\d+)> : tensor<\d+xi32>", text))
        backend = "hip" if (ttir.parent / "probe.hsaco").exists() else "cuda"
        found.add((backend, int(width), int(scale)))
    assert found == {("hip", 64, 2), ("hip", 64, 3), ("cuda", 32, 2), ("cuda", 32, 3)}


FLAGGED = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.jit(do_not_specialize=["n_rows", "seed"], do_not_specialize_on_alignment=["x_ptr"])
    def dropout_rows(x_ptr, out_ptr, n_rows, n_cols, seed, p, base: tl.int64 = 0, BLOCK: tl.constexpr = 64):
        offs = base + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + n_cols + offs)
        tl.store(out_ptr + offs, tl.where(tl.rand(seed, offs) > p, x, 0.0), mask=offs < n_rows)


    @triton.jit(debug=True)
    def checked(x_ptr, n):
        tl.device_assert(n > 0)
        tl.store(x_ptr, n)
''')


def _explain(tmp_path, kernel: str, signature: str, target: str, env: dict | None = None) -> dict:
    (tmp_path / "flagged.py").write_text(FLAGGED)
    r = run_cli("compile", f"{tmp_path / 'flagged.py'}::{kernel}", "--signature", signature, "--target", target,
                "--explain-spec", "--json", env=env)
    assert r.returncode == 0, r.stderr
    (k,) = json.loads(r.stdout)["kernels"]
    return {"args": {a["name"]: (a["type"], a["hints"]) for a in k["spec"]["args"]}, "options": k["spec"]["options"]}


SIG = "x_ptr=*fp32,out_ptr=*fp32,n_rows=i32:16,n_cols=i32:16,seed=i32:16,p=fp32"


def test_the_kernels_own_specialization_flags_and_annotations_are_the_jits(tmp_path):
    """do_not_specialize / do_not_specialize_on_alignment of the decorator applied to samples only: a
    user kernel's n_rows kept its :16 and x_ptr its alignment; an annotated default (`base: tl.int64 =
    0`) was typed by its value (i32). test_the_cross_compile_is_the_jits_launch checks the result against
    the JIT's own warmup."""
    cuda = _explain(tmp_path, "dropout_rows", SIG, "cuda:90")["args"]
    assert cuda["x_ptr"] == ("*fp32", []) and cuda["out_ptr"] == ("*fp32", ["tt.divisibility=16"])
    assert cuda["n_rows"] == ("i32", ["not specialized"]) and cuda["seed"] == ("i32", ["not specialized"])
    assert cuda["n_cols"] == ("i32", ["tt.divisibility=16"]) and cuda["base"] == ("i64", ["tt.divisibility=16"])
    hip = _explain(tmp_path, "dropout_rows", SIG, "hip:gfx942")["args"]
    assert hip["x_ptr"] == ("*fp32", ["tt.pointer_range=32"])  # the range is no alignment: kept
    assert hip["out_ptr"] == ("*fp32", ["tt.divisibility=16", "tt.pointer_range=32"])
    off = _explain(tmp_path, "dropout_rows", SIG, "hip:gfx942", env={"AMDGCN_USE_BUFFER_OPS": "0"})["args"]
    assert off["out_ptr"] == ("*fp32", ["tt.divisibility=16"])  # no buffer ops: no range hint


@pytest.mark.parametrize(("signature", "error"), [
    (SIG + ",base=i32", "argument 'base' is annotated i64 in the kernel"),
    (SIG.replace("p=fp32", "p=fp32:16"), "argument 'p': hints are for integers and pointers"),
    (SIG.replace("x_ptr=*fp32", "x_ptr=*fp32:1"), "argument 'x_ptr': a pointer takes only the :16 hint"),
])
def test_a_signature_a_launch_could_not_give_is_refused(tmp_path, signature, error):
    (tmp_path / "flagged.py").write_text(FLAGGED)
    r = run_cli("compile", f"{tmp_path / 'flagged.py'}::dropout_rows", "--signature", signature,
                "--target", "cuda:90", "--explain-spec")
    assert r.returncode == 2 and error in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_bool_tensors_and_debug_are_compiled_as_a_launch_would(tmp_path):
    """`*u1` (a torch.bool tensor, as 3.4+ names it) was an unknown pointer type; `@triton.jit(debug=True)`
    and TRITON_DEBUG=1 were ignored, so the kernel's device_asserts were compiled out."""
    args = _explain(tmp_path, "checked", "x_ptr=*u1,n=i32", "cuda:90")
    assert args["args"]["x_ptr"] == ("*u1", ["tt.divisibility=16"]) and args["options"].get("debug") is True
    assert _explain(tmp_path, "checked", "x_ptr=*i1,n=i32", "cuda:90")["args"]["x_ptr"][0] == "*u1"
    out = tmp_path / "cache"
    r = run_cli("compile", f"{tmp_path / 'flagged.py'}::checked", "--signature", "x_ptr=*u1,n=i32",
                "--target", "cuda:90", "--cache-dir", str(out))
    assert r.returncode == 0, r.stderr
    (ttir,) = out.glob("*/checked.ttir")
    assert "tt.assert" in ttir.read_text()


# Triton's own answer without a GPU: the JIT's warmup (its binder, specialization and cache key) with a
# stand-in driver that names the target, in a process of its own. Its cache entries are what a launch makes.
JIT_WARMUP = textwrap.dedent('''
    import importlib.util, os, sys
    import torch
    from triton.backends.compiler import GPUTarget
    from triton.runtime.driver import driver
    from triton.runtime.jit import MockTensor

    backend, arch = sys.argv[2].split(":")
    target = GPUTarget(backend, int(arch) if backend == "cuda" else arch, 32 if backend == "cuda" else 64)

    class StandIn:
        def get_current_target(self): return target
        def get_current_device(self): return 0
        def get_current_stream(self, device=None): return 0
        def get_active_torch_device(self): return torch.device("cpu")
        def is_active(self): return True

    driver.set_active(StandIn())
    spec = importlib.util.spec_from_file_location("flagged", sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.dropout_rows.warmup(MockTensor(torch.float32), MockTensor(torch.float32), 100, 1024, 7, 0.5, grid=(1,))
    module.checked.warmup(MockTensor(torch.bool), 5, grid=(1,))
''')


@pytest.mark.parametrize("target", ["cuda:90", "hip:gfx942"])
def test_the_cross_compile_is_the_jits_launch(tmp_path, target):
    """The same cache entries as the JIT's warmup of the same kernels with the values the signatures
    describe (n_cols=1024: :16; n_rows and seed unspecialized by the decorator; a bool tensor; debug)."""
    import subprocess
    import sys

    (tmp_path / "flagged.py").write_text(FLAGGED)
    (tmp_path / "warmup.py").write_text(JIT_WARMUP)
    jit, cross = tmp_path / "jit", tmp_path / "cross"
    env = {k: v for k, v in os.environ.items() if k != "TRITON_DEBUG"}
    r = subprocess.run([sys.executable, str(tmp_path / "warmup.py"), str(tmp_path / "flagged.py"), target],
                       env={**env, "TRITON_CACHE_DIR": str(jit)}, capture_output=True, text=True)
    if r.returncode != 0 and "MockTensor" in r.stderr:
        pytest.skip("this Triton has no MockTensor warmup")
    assert r.returncode == 0, r.stderr[-2000:]
    for kernel, sig in (("dropout_rows", "x_ptr=*fp32,out_ptr=*fp32,n_rows=i32,n_cols=i32:16,seed=i32,p=fp32"),
                        ("checked", "x_ptr=*u1,n=i32")):
        r = run_cli("compile", f"{tmp_path / 'flagged.py'}::{kernel}", "--signature", sig, "--target", target,
                    "--cache-dir", str(cross))
        assert r.returncode == 0, r.stderr
    kernels = {p.name for p in jit.iterdir() if any(p.glob("*.json"))}
    assert len(kernels) == 2 and kernels == {p.name for p in cross.iterdir() if any(p.glob("*.json"))}


OPS_PACKAGE = textwrap.dedent('''
    import torch
    import triton
    import triton.language as tl

    # torchao's kernel/intmm_triton.py: an operator library defined at the module's top, for the whole process
    lib = torch.library.Library("tritonscope_qa", "FRAGMENT")
    lib.define("scaled(Tensor a) -> Tensor")


    @triton.autotune(configs=[triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})], key=[])
    @triton.jit
    def ops_kernel(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
''')


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_module_defining_torch_library_operators_is_imported_again(tmp_path, jobs):
    """Helper 66: every kernel of torchao failed to compile: its modules define operators at their top
    (`lib.define(...)`), and `compile` imports a module afresh for each use (the autotune configs, then the
    compile; each target), the second import raising "Tried to register an operator ... multiple times".
    The library objects of the module imported before are destroyed as it is dropped."""
    pkg = tmp_path / "opspkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "ops.py").write_text(OPS_PACKAGE)
    (tmp_path / "lone_ops.py").write_text(OPS_PACKAGE.replace("tritonscope_qa", "tritonscope_qa_lone"))
    for kernel in (pkg / "ops.py", tmp_path / "lone_ops.py"):
        out = tmp_path / f"c{jobs}{kernel.stem}"
        r = run_cli("compile", f"{kernel}::ops_kernel", "--signature", "x_ptr=*fp32", "--target", "cuda:90",
                    "--target", "hip:gfx942", "-j", jobs, "--cache-dir", str(out))
        assert r.returncode == 0, r.stdout + r.stderr
        assert "4 of 4 compiled" in r.stdout + r.stderr, r.stdout + r.stderr


HEURISTIC_DEFAULT = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK"] == 0})
    @triton.jit
    def hk_kernel(x_ptr, K, BLOCK: tl.constexpr, EVEN_K: tl.constexpr = False):
        offs = tl.arange(0, BLOCK)
        if EVEN_K:
            x = tl.load(x_ptr + offs)
        else:
            x = tl.load(x_ptr + offs, mask=offs < K)
        tl.store(x_ptr + offs, x * 2)
''')


def test_a_heuristic_constexpr_left_at_its_default_is_said(tmp_path):
    """Helper 72: gemlite's `@triton.heuristics` computes `EVEN_K = K % BLOCK_SIZE_K == 0` from a launch's K,
    and the kernel defaults it to False: compiled without `--constexpr EVEN_K`, every load was masked as no
    launch with K a multiple would be, and nothing said so. A note names the defaulted values."""
    (tmp_path / "hk.py").write_text(HEURISTIC_DEFAULT)
    common = ("--signature", "x_ptr=*fp32,K=i32", "--constexpr", "BLOCK=128", "--target", "cuda:90")
    r = run_cli("compile", f"{tmp_path / 'hk.py'}::hk_kernel", *common, "--cache-dir", str(tmp_path / "a"))
    assert r.returncode == 0, r.stderr
    assert "EVEN_K=False: computed by @triton.heuristics from a launch's arguments, compiled with its default " \
        "(give --constexpr EVEN_K=... to compile as a launch with those arguments would)" in r.stdout + r.stderr
    r = run_cli("compile", f"{tmp_path / 'hk.py'}::hk_kernel", *common, "--constexpr", "EVEN_K=True",
                "--cache-dir", str(tmp_path / "b"))
    assert r.returncode == 0 and "EVEN_K=False" not in r.stdout + r.stderr, r.stderr


TUNED = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=2, num_stages=2),
                              triton.Config({"BLOCK": 128}, num_warps=8, num_stages=4)], key=[])
    @triton.jit
    def tuned_kernel(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
''')


def test_constexprs_naming_a_config_compile_it_with_its_launch_options(tmp_path):
    """Helper 74: `--constexpr` giving an autotune config's tuned values compiled them with the launch's
    defaults (4 warps, 3 stages; attorch's linear config asks 8 warps): every metric described a kernel no
    launch runs, and nothing said so. The config they name is compiled with its num_warps and num_stages,
    said in a note; values naming no config are said to."""
    (tmp_path / "tuned.py").write_text(TUNED)
    kernel = f"{tmp_path / 'tuned.py'}::tuned_kernel"
    common = ("--signature", "x_ptr=*fp32", "--target", "cuda:90")
    r = run_cli("compile", kernel, *common, "--constexpr", "BLOCK=128", "--cache-dir", str(tmp_path / "a"))
    assert r.returncode == 0, r.stderr
    (meta,) = (tmp_path / "a").glob("*/tuned_kernel.json")
    doc = json.loads(meta.read_text())
    assert (doc["num_warps"], doc["num_stages"]) == (8, 4)
    assert "BLOCK=128 picks the autotuner's config 2 of 2: compiled with its num_warps and num_stages" in \
        r.stdout + r.stderr
    r = run_cli("compile", kernel, *common, "--constexpr", "BLOCK=128", "--num-warps", "4", "--cache-dir",
                str(tmp_path / "b"))
    (meta,) = (tmp_path / "b").glob("*/tuned_kernel.json")
    assert json.loads(meta.read_text())["num_warps"] == 4  # (--num-warps says)
    r = run_cli("compile", kernel, *common, "--constexpr", "BLOCK=256", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0 and "BLOCK=256 is none of the autotuner's 2 configs: compiled with the launch's own " \
        "options (num_warps, num_stages), not a config's" in r.stdout + r.stderr



TUNED_GRID = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=w, num_stages=s)
                              for b in (64, 128) for s in (3, 4) for w in (4, 8)], key=[])
    @triton.jit
    def grid_kernel(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
''')


def test_configs_the_command_lines_options_make_alike_are_compiled_once_and_said_replaced(tmp_path):
    """QA: `--num-warps 8 --option num_stages=3` over the four configs BLOCK=128 names were four compiles of one
    kernel (one hash, three '(cached)') under a note saying each was compiled with its own num_warps and
    num_stages. The note says the command line's values replaced the configs', and what then compiles the
    same is compiled once, said; over every config too."""
    (tmp_path / "grid.py").write_text(TUNED_GRID)
    kernel = f"{tmp_path / 'grid.py'}::grid_kernel"
    common = ("--signature", "x_ptr=*fp32", "--target", "cuda:90", "--json")

    def compiled(*args: str, cache: str) -> list[dict]:
        r = run_cli("compile", kernel, *common, *args, "--cache-dir", str(tmp_path / cache))
        assert r.returncode == 0, r.stderr
        results = json.loads(r.stdout)["results"]
        assert len({x["hash"] for x in results}) == len(results)  # (no kernel compiled twice)
        return results

    (one,) = compiled("--constexpr", "BLOCK=128", "--num-warps", "8", "--option", "num_stages=3", cache="a")
    assert (one["options"]["num_warps"], one["options"]["num_stages"]) == (8, 3)
    assert one["notes"] == ["BLOCK=128 picks the autotuner's configs 5, 6, 7, 8 of 8: --num-warps 8 replaces their "
                            "num_warps (4, 8); --option num_stages=3 replaces their num_stages (3, 4); the 4 configs "
                            "then compile the same: compiled once"]
    pair = compiled("--constexpr", "BLOCK=128", "--num-warps", "8", cache="b")
    assert [(x["autotune_config"]["index"], x["options"]["num_stages"]) for x in pair] == [(4, 3), (6, 4)]
    assert pair[0]["notes"] == ["BLOCK=128 picks the autotuner's configs 5, 6, 7, 8 of 8: compiled with their "
                                "num_stages; --num-warps 8 replaces their num_warps (4, 8); configs that then compile "
                                "the same are compiled once: 6 as 5; 8 as 7"]
    every = compiled("--num-warps", "8", cache="c")
    assert [x["autotune_config"]["index"] for x in every] == [0, 2, 4, 6]
    assert every[0]["notes"] == ["--num-warps 8 replaces the configs' num_warps (4, 8)",
                                 "its 8 configs are 4 distinct compiles with the command line's options: each "
                                 "compiled once (configs compiled as an earlier one: 2 as 1; 4 as 3; 6 as 5; 8 as 7)"]


HEURISTIC_CAPABILITY = textwrap.dedent('''
    import torch
    import triton
    import triton.language as tl


    def wide():
        return torch.cuda.get_device_capability()[0] >= 9


    @triton.heuristics({"WIDE": lambda _: wide()})
    @triton.jit
    def cap_kernel(x_ptr, BLOCK: tl.constexpr, WIDE: tl.constexpr):
        offs = tl.arange(0, BLOCK * 2 if WIDE else BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
''')


def test_a_heuristic_of_no_launch_argument_is_computed_as_a_launch_would(tmp_path):
    """Helper 74: attorch's `@triton.heuristics({'tf32': lambda _: allow_tf32()})` reads no argument of a
    launch (a capability test), yet `compile` asked for `--constexpr tf32=V`, "computed from the launch's
    arguments". It is computed, as a launch computes it, torch answering the target's capability."""
    if _torch_has_a_gpu():
        pytest.skip("torch answers with this machine's GPU")
    (tmp_path / "cap.py").write_text(HEURISTIC_CAPABILITY)
    sizes = {}
    for target in ("cuda:90", "cuda:80"):
        out = tmp_path / target.replace(":", "")
        r = run_cli("compile", f"{tmp_path / 'cap.py'}::cap_kernel", "--signature", "x_ptr=*fp32", "--constexpr",
                    "BLOCK=128", "--target", target, "--cache-dir", str(out))
        assert r.returncode == 0, r.stderr
        wide = target == "cuda:90"
        assert f"WIDE={wide!r}: computed by @triton.heuristics from no argument of a launch, as a launch would" in \
            r.stdout + r.stderr
        (ttir,) = out.glob("*/*.ttir")
        (size,) = set(re.findall(r"tt\.make_range \{end = (\d+) : i32", ttir.read_text()))
        sizes[target] = int(size)
    assert sizes == {"cuda:90": 256, "cuda:80": 128}


ALIASED_GLUON = textwrap.dedent('''
    from triton.experimental import gluon
    from triton.experimental.gluon import language as ttgl
    from triton.experimental.gluon.language import BlockedLayout


    @gluon.jit
    def copy_kernel(x_ptr, layout: ttgl.constexpr):
        offs = ttgl.arange(0, 128, layout=layout)
        ttgl.store(x_ptr + offs, ttgl.load(x_ptr + offs) + 1)
    ''')


@pytest.mark.parametrize("value", ["ttgl.BlockedLayout([2], [32], [4], [0])", "BlockedLayout([2], [32], [4], [0])"])
def test_a_constexpr_written_as_code_over_the_modules_names_is_what_it_builds(tmp_path, value):
    """Helper 79: Triton's Gluon tests import the language as `ttgl`, and kernels import layout classes by
    name; `--constexpr layout=ttgl.BlockedLayout(...)` reached the kernel as the string ('str' object has no
    attribute 'rank'). It is built in the kernel's module, as a launch written there would pass it."""
    (tmp_path / "aliased.py").write_text(ALIASED_GLUON)
    r = run_cli("compile", f"{tmp_path / 'aliased.py'}::copy_kernel", "--signature", "x_ptr=*fp32", "--target",
                "cuda:90", "--constexpr", f"layout={value}", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    (ttgir,) = (tmp_path / "c").glob("*/copy_kernel.ttgir")
    assert "sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]" in ttgir.read_text()
    bad = run_cli("compile", f"{tmp_path / 'aliased.py'}::copy_kernel", "--signature", "x_ptr=*fp32", "--target",
                  "cuda:90", "--constexpr", "layout=ttgl.BlockedLayout(1)", "--cache-dir", str(tmp_path / "d"))
    assert bad.returncode == 2 and "--constexpr 'ttgl.BlockedLayout(1)': TypeError" in bad.stderr, bad.stderr


@pytest.mark.parametrize("value,says", [
    ("ttgl.__builtins__['__import__']('os').system('touch {tmp}/PWNED')", "the attribute __builtins__: not built here"),
    ("ttgl.__class__", "the attribute __class__: not read here"),
    ("ttgl.BlockedLayout([2], [32], [4], [0]) or 16", "boolop expressions: not built here"),
    ("ttgl.BlockedLayout([2], [32], [4], [0]) if 1 else 0", "ifexp expressions: not built here"),
    ("ttgl.BlockedLayout([2], [32], [4], [open('x')], [0])", "the name open, not one of the kernel module's"),
])
def test_constexpr_code_holds_only_the_modules_public_names_calls_and_literals(tmp_path, value, says):
    """Helper 81: with builtins removed, the module's names still reached them (`triton.__builtins__`) and ran
    `os.system`; other code (`X(...) or 16`) silently stayed text. Only the module's names, their public
    attributes, calls, literals and arithmetic are built; anything else is a usage error, never run."""
    (tmp_path / "aliased.py").write_text(ALIASED_GLUON)
    r = run_cli("compile", f"{tmp_path / 'aliased.py'}::copy_kernel", "--signature", "x_ptr=*fp32", "--target",
                "cuda:90", "--constexpr", f"layout={value.format(tmp=tmp_path)}", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "PWNED").exists() and not (tmp_path / "c").exists()


def test_arguments_given_to_a_kernel_of_none_are_said_so(tmp_path):
    """Helper 79: 'unknown argument(s) out; the kernel takes ' ended there for a kernel of no arguments."""
    (tmp_path / "none.py").write_text("import triton\n\n\n@triton.jit\ndef none_kernel():\n    pass\n")
    r = run_cli("compile", f"{tmp_path / 'none.py'}::none_kernel", "--signature", "out=*i32", "--target", "cuda:90",
                "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 2 and r.stderr.rstrip().endswith("unknown argument(s) out; the kernel takes no arguments"), \
        r.stderr


HEURISTIC_POINTERS = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.heuristics({"HAS_BIAS": lambda args: args["bias_ptr"] is not None})
    @triton.heuristics({"HAS_IDX": lambda args: args["idx_ptr"] is not None})
    @triton.heuristics({"BIAS_F16": lambda args: args["bias_ptr"].dtype == "fp16"})
    @triton.jit
    def bias_kernel(x_ptr, bias_ptr, idx_ptr, BLOCK: tl.constexpr, HAS_BIAS: tl.constexpr, HAS_IDX: tl.constexpr,
                    BIAS_F16: tl.constexpr = False):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
        if HAS_BIAS:
            x += tl.load(bias_ptr + offs)
        if HAS_IDX:
            x += tl.load(idx_ptr)
        tl.store(x_ptr + offs, x)
''')


def test_a_heuristic_of_a_pointer_being_given_is_computed_from_the_signature(tmp_path):
    """Helper 125: mamba's `HAS_D: args["D_ptr"] is not None` (FLA's `USE_INITIAL_STATE: args["h0"] is not
    None`) was not computed though the signature types the argument as a pointer (a tensor a launch passes):
    --constexpr HAS_D=... was asked for. A pointer of the signature is not None; a heuristic that reads more
    of the tensor (its dtype) is not asked, and its default is compiled with, as before."""
    (tmp_path / "bias.py").write_text(HEURISTIC_POINTERS)
    r = run_cli("compile", f"{tmp_path / 'bias.py'}::bias_kernel", "--signature", "x_ptr=*fp32, bias_ptr=*fp32:16",
                "--constexpr", "idx_ptr=None", "--constexpr", "BLOCK=64", "--target",
                "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    said = r.stdout + r.stderr
    assert ("HAS_BIAS=True: computed by @triton.heuristics from the signature (bias_ptr: a pointer, a tensor a "
            "launch passes, not None), as a launch would") in said, said
    assert "HAS_IDX=False: computed by @triton.heuristics from --constexpr idx_ptr, as a launch would" in said, said
    assert "BIAS_F16=False: computed by @triton.heuristics from a launch's arguments, compiled with its default" \
        in said, said
    (ttir,) = (tmp_path / "c").glob("*/*.ttir")
    assert ttir.read_text().count("tt.load") == 2  # x and the bias; no index load


THREE_CONFIGS = textwrap.dedent('''
    import triton
    import triton.language as tl


    @triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=4), triton.Config({"BLOCK": 512}, num_warps=4),
                              triton.Config({"BLOCK": 512}, num_warps=8)], key=["n"])
    @triton.jit
    def ak(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
''')


def test_a_note_of_every_config_is_said_for_them_all(tmp_path):
    """Helper 126: '--num-warps 32 replaces the configs' num_warps (4, 8)' and 'its 3 configs are 2 distinct
    compiles' are of every config, but were said with config 1's label ('[config 1/3]: ...')."""
    (tmp_path / "ak.py").write_text(THREE_CONFIGS)
    r = run_cli("compile", f"{tmp_path / 'ak.py'}::ak", "--num-warps", "2", "--signature",
                "x_ptr=*fp32,o_ptr=*fp32,n=i32", "--target", "cuda:90", "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    notes = [ln for ln in r.stderr.splitlines() if ln.startswith("tritonscope: note:")]
    assert any(ln.endswith("ak.py::ak [2 configs]: --num-warps 2 replaces the configs' num_warps (4, 8)")
               for ln in notes), notes
    assert any("ak.py::ak [2 configs]: its 3 configs are 2 distinct compiles" in ln for ln in notes), notes
    assert not any("[config 1/3]:" in ln for ln in notes), notes
