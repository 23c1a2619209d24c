"""A cache entry cannot make tritonscope print or embed a file that is not the kernel's own Python source.

Real corpus entries (softmax_kernel, whose helpers are inlined: callsite chains in every stage) get their
source file renamed in EVERY stage's location syntax: MLIR `loc("...")` (source, TTIR, TTGIR), LLVM
`!DIFile`, PTX `.file`, AMDGCN `.file`, and the DWARF line tables inside the CUBIN and the HSACO (so
nvdisasm's SASS and llvm-objdump's listing name it too). Binaries keep their length: the planted names
are as long as `kernels.py`. Each planted file holds a marker; no output of any command may show it.

A control plants nothing but points at a genuine copy of kernels.py with a marker: the marker must
appear there, so the planted cases cannot pass by never reading anything.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tritonscope.srcmap.paths import SourceFinder, SourceRefused, read_checked

SOFTMAX_90 = "TWWPLXS2UOETQNB37UVKIJKEJSGQVY6IHVAXHM37QTBLWHZ7HVBA"
SOFTMAX_GFX90A = "DH4EPRESOTY3ZNCKGWNY7MGTWHWOETCM5XCZC2QEF3IMS6KCUSCQ"
IR_DIR = "/tmp/irkernels"  # where the corpus was compiled; every stage names it
GENUINE = b"kernels.py"
JIT_KERNEL = "import triton\n\n@triton.jit\ndef softmax_kernel(x):\n    pass\n"

# name (as long as kernels.py, so binaries keep their layout) -> (how to make it, why it must not be read)
PLANTS = {
    "secret.txt": "not a Python source",
    ".bashrc.py": "a hidden file",
    "linked_.py": "a symlink that leaves its directory",
    "binary_.py": "binary",
    "nojit__.py": "defines no Triton function",
    # another Triton file (it has every line the kernel names): not the kernel's def where the IR locates it
    "other__.py": "is not `def softmax_kernel(`, where the IR locates that function",
    # the kernel's def where the IR locates it, but comments where its ops are: not the source compiled
    "comment.py": "which this kernel's locations name, is a comment",
    # not a regular file: never opened (a FIFO would block a reader), and said to be what it is (it was
    # "source not found", helper 115)
    "fifo___.py": "fifo___.py is a FIFO, not a regular file",
    "adir___.py": "adir___.py is a folder, not a regular file",
    "zero___.py": "zero___.py is a character device (a symbolic link to it), not a regular file",
}


def _marker(name: str) -> str:
    return f"PLANTED-{name.strip('._').upper()}-MARKER"


def _make_plants(folder: Path) -> None:
    folder.mkdir()
    outside = folder.parent / "outside"
    outside.mkdir()
    (folder / "secret.txt").write_text(f"{_marker('secret.txt')}\n@triton.jit\n" * 400)
    (folder / ".bashrc.py").write_text(JIT_KERNEL + f"# {_marker('.bashrc.py')}\n" * 400)
    (outside / "real.py").write_text(JIT_KERNEL + f"# {_marker('linked_.py')}\n" * 400)
    os.symlink(outside / "real.py", folder / "linked_.py")
    (folder / "binary_.py").write_bytes((JIT_KERNEL + f"# {_marker('binary_.py')}\n").encode() * 400 + b"\0\1\2")
    (folder / "nojit__.py").write_text(f"API_TOKEN = '{_marker('nojit__.py')}'\n" * 400)
    from conftest import CORPUS

    lines = (CORPUS / "kernels.py").read_text().splitlines()
    (folder / "comment.py").write_text("\n".join(ln if ln.lstrip().startswith(("def ", "@")) or not ln.strip()
                                                else f"# {_marker('comment.py')}" for ln in lines) + "\n")
    (folder / "other__.py").write_text("import triton\n\n@triton.jit\ndef proprietary(x):\n    pass\n"
                                       + f"# {_marker('other__.py')}\n" * 400)
    os.mkfifo(folder / "fifo___.py")
    (folder / "adir___.py").mkdir()
    os.symlink("/dev/zero", folder / "zero___.py")


def _plant_entry(src: Path, dst: Path, name: str | None, absolute: str | None = None) -> Path:
    """A copy of a corpus entry whose every stage names `name` (same length as kernels.py) instead of
    kernels.py; with `absolute`, the text stages name that absolute path instead (binaries unchanged)."""
    entry = shutil.copytree(src, dst)
    for f in entry.iterdir():
        if f.suffix == ".json":
            continue
        data = f.read_bytes()
        if absolute is not None:
            if f.suffix in (".cubin", ".hsaco"):
                continue
            folder, base = os.path.split(absolute)
            data = data.replace(f"{IR_DIR}/{GENUINE.decode()}".encode(), absolute.encode())
            data = data.replace(IR_DIR.encode(), folder.encode()).replace(GENUINE, base.encode())
        else:
            assert len(name.encode()) == len(GENUINE)
            data = data.replace(GENUINE, name.encode())
        f.write_bytes(data)
    return entry


def _outputs(cli, entry: Path, plants: Path, tmp: Path, hip: bool) -> str:
    """Everything the source-showing commands print or write for one entry, concatenated."""
    sub = ["--substitute-path", IR_DIR, str(plants)]
    stages = "ttgir,llir,amdgcn,hsaco-asm" if hip else "ttir,ttgir,llir,ptx,sass"
    out = []
    page = tmp / f"{entry.name}.html"
    r = cli("report", str(entry), "-o", str(page), "--stages", stages, *sub)
    assert r.returncode == 0, r.stderr
    out += [r.stdout, r.stderr, page.read_text()]
    listing = cli("map", str(entry), "--json", *sub)
    assert listing.returncode == 0, listing.stderr
    out += [listing.stdout, listing.stderr]
    lines = [row["line"] for row in json.loads(listing.stdout)["lines"]]
    for args in (("map", str(entry), "--line", str(lines[len(lines) // 2]), "--json"),
                 ("map", str(entry)),
                 ("map", str(entry), "--stage", "llir", "--grep", "load", "--json"),
                 # (an ISA alone does not locate the kernel's def: its file must still define it)
                 ("map", str(entry), "--stages", "amdgcn" if hip else "ptx", "--line", str(lines[len(lines) // 2])),
                 ("loads", str(entry), "--explain", str(lines[len(lines) // 2]), "--no-sass"),
                 ("layout", str(entry))):
        r = cli(*args, *sub)
        out += [r.stdout, r.stderr]
    return "\n".join(out)


@pytest.fixture(scope="module")
def plants(tmp_path_factory, corpus) -> Path:
    root = tmp_path_factory.mktemp("plants")
    _make_plants(root / "src")
    genuine = (corpus / "kernels.py").read_text()
    (root / "src" / "kernels.py").write_text(genuine + "# GENUINE-SOURCE-MARKER\n")
    return root / "src"


@pytest.mark.parametrize("entry_hash,hip", [(SOFTMAX_90, False), (SOFTMAX_GFX90A, True)], ids=["cuda90", "gfx90a"])
def test_control_genuine_source_is_shown(cli, cache39, plants, tmp_path, entry_hash, hip):
    entry = shutil.copytree(cache39 / entry_hash, tmp_path / "c" / entry_hash)
    text = _outputs(cli, entry, plants, tmp_path, hip)
    assert "GENUINE-SOURCE-MARKER" in text  # the page embeds the real source: the test can see a leak
    assert "embedded: /tmp/irkernels/kernels.py" in text


@pytest.mark.parametrize("name", sorted(PLANTS))
@pytest.mark.parametrize("entry_hash,hip", [(SOFTMAX_90, False), (SOFTMAX_GFX90A, True)], ids=["cuda90", "gfx90a"])
def test_planted_file_never_reaches_output(cli, cache39, plants, tmp_path, name, entry_hash, hip):
    entry = _plant_entry(cache39 / entry_hash, tmp_path / "c" / entry_hash, name)
    text = _outputs(cli, entry, plants, tmp_path, hip)
    assert _marker(name) not in text
    assert "GENUINE-SOURCE-MARKER" not in text
    # the report names the file and says why it was not read
    assert f"not embedded: {IR_DIR}/{name} (" in text
    assert PLANTS[name] in text


@pytest.mark.parametrize("absolute", ["/etc/passwd", "/root/.ssh/id_rsa", "/proc/self/environ"])
def test_absolute_system_paths_never_read(cli, cache39, plants, tmp_path, absolute):
    entry = _plant_entry(cache39 / SOFTMAX_90, tmp_path / "c" / SOFTMAX_90, None, absolute=absolute)
    text = _outputs(cli, entry, plants, tmp_path, hip=False)
    assert "root:x:0:0" not in text and "PATH=" not in text
    assert f"not embedded: {absolute} (not read: not a Python source" in text


def test_file_option_cannot_name_another_file(cli, cache39, plants, tmp_path):
    entry = shutil.copytree(cache39 / SOFTMAX_90, tmp_path / "c" / SOFTMAX_90)
    r = cli("map", str(entry), "--line", "3", "--file", str(plants / "nojit__.py"), "--json",
            "--substitute-path", IR_DIR, str(plants))
    assert _marker("nojit__.py") not in r.stdout + r.stderr
    assert r.returncode == 2 and "no location of this kernel names that file" in r.stderr


def test_no_source_embeds_nothing(cli, cache39, plants, tmp_path):
    entry = shutil.copytree(cache39 / SOFTMAX_90, tmp_path / "c" / SOFTMAX_90)
    page = tmp_path / "p.html"
    r = cli("report", str(entry), "-o", str(page), "--no-source", "--substitute-path", IR_DIR, str(plants))
    assert r.returncode == 0, r.stderr
    assert "GENUINE-SOURCE-MARKER" not in page.read_text()
    assert "not embedded (--no-source)" in page.read_text()


# ---- a helper's file (the report embeds the files helpers were inlined from) -----------------------------

HELPER_DIR = "/tmp/venvs/triton-3.9.0/lib/python3.11/site-packages/triton/language"  # tl.max's standard.py
HELPER_PLANTS = {  # as long as standard.py
    "nojit___.py": "defines no Triton function",
    "secret_.txt": "not a Python source",
    ".bashrc_.py": "a hidden file",
    "linked__.py": "a symlink that leaves its directory",
}


@pytest.fixture(scope="module")
def helper_plants(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("helper_plants") / "lang"
    folder.mkdir()
    outside = folder.parent / "outside"
    outside.mkdir()
    (folder / "nojit___.py").write_text(f"TOKEN = '{_marker('nojit___.py')}'\n" * 200)
    (folder / "secret_.txt").write_text(f"{_marker('secret_.txt')}\n@triton.jit\n" * 200)
    (folder / ".bashrc_.py").write_text(JIT_KERNEL + f"# {_marker('.bashrc_.py')}\n" * 200)
    (outside / "real.py").write_text(JIT_KERNEL + f"# {_marker('linked__.py')}\n" * 200)
    os.symlink(outside / "real.py", folder / "linked__.py")
    # (the IR names lines up to 314: code lines, as in the real file; a blank or comment line is refused)
    (folder / "standard.py").write_text(JIT_KERNEL + "    x = 1  # GENUINE-HELPER-MARKER\n" * 400)
    return folder


@pytest.mark.parametrize("name", [None, *sorted(HELPER_PLANTS)])
def test_helper_file_follows_the_source_policy(cli, cache39, plants, helper_plants, tmp_path, name):
    """The file of tl.max (standard.py, named only by inner elements of the chains) renamed in every stage:
    the report embeds it only as the policy allows; the control (name None) embeds the genuine one."""
    entry = shutil.copytree(cache39 / SOFTMAX_90, tmp_path / "c" / SOFTMAX_90)
    if name is not None:
        for f in entry.iterdir():
            if f.suffix != ".json":
                f.write_bytes(f.read_bytes().replace(b"standard.py", name.encode()))
    page = tmp_path / "p.html"
    r = cli("report", str(entry), "-o", str(page), "--substitute-path", IR_DIR, str(plants),
            "--substitute-path", HELPER_DIR, str(helper_plants))
    assert r.returncode == 0, r.stderr
    text = r.stdout + r.stderr + page.read_text()
    if name is None:
        assert "GENUINE-HELPER-MARKER" in text and f"embedded: {HELPER_DIR}/standard.py" in text
        return
    assert _marker(name) not in text and "GENUINE-HELPER-MARKER" not in text
    assert f"not embedded: {HELPER_DIR}/{name} (" in text and HELPER_PLANTS[name] in text


# ---- the policy itself, file by file (no CLI) ----------------------------------------------------------


def test_policy_reads_a_kernel_source(tmp_path):
    f = tmp_path / "k.py"
    f.write_text(JIT_KERNEL)
    found = SourceFinder().read(str(f), {str(f)})
    assert found.found and found.lines[2] == "@triton.jit"


@pytest.mark.parametrize("decorator", ["@triton.jit", "@jit", "@gluon.jit", "@triton.jit(do_not_specialize=[1])"])
def test_policy_accepts_every_jit_spelling(tmp_path, decorator):
    f = tmp_path / "k.py"
    f.write_text(f"{decorator}\ndef k():\n    pass\n")
    assert read_checked(str(f)).startswith(decorator)


def test_policy_refuses_files_no_location_names(tmp_path):
    f = tmp_path / "k.py"
    f.write_text(JIT_KERNEL)
    found = SourceFinder().read(str(f), {"/elsewhere/k.py"})
    assert not found.found and "no location of this kernel names it" in found.error


def test_symlink_within_its_directory_is_read(tmp_path):
    (tmp_path / "real.py").write_text(JIT_KERNEL)
    os.symlink("real.py", tmp_path / "alias.py")
    assert "softmax_kernel" in read_checked(str(tmp_path / "alias.py"))


def test_symlink_to_a_non_python_file_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text(JIT_KERNEL)
    os.symlink("notes.txt", tmp_path / "alias.py")
    with pytest.raises(SourceRefused, match="not a Python source") as refused:
        read_checked(str(tmp_path / "alias.py"))
    assert "notes.txt" not in str(refused.value)  # (where a link leads is not said: reports are shared)
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "sub" / ".." / ".." / "elsewhere.py", tmp_path / "sub" / "away.py")
    with pytest.raises(SourceRefused, match="leaves its directory") as refused:
        read_checked(str(tmp_path / "sub" / "away.py"))
    assert "elsewhere" not in str(refused.value)


def test_oversized_source_is_refused(tmp_path):
    f = tmp_path / "big.py"
    with open(f, "wb") as fh:
        fh.write(JIT_KERNEL.encode())
        fh.truncate(9 << 20)  # sparse
    with pytest.raises(SourceRefused, match="more than a source file") as refused:
        read_checked(str(f))
    assert str(9 << 20) not in str(refused.value)


def test_non_utf8_source_is_refused(tmp_path):
    f = tmp_path / "latin.py"
    f.write_bytes(JIT_KERNEL.encode() + "# caf\xe9\n".encode("latin-1"))
    with pytest.raises(SourceRefused, match="not UTF-8"):
        read_checked(str(f))
    # one that declares its encoding (PEP 263) is read as Python reads it: `compile` took it, `map` refused it
    f.write_bytes(b"# -*- coding: latin-1 -*-\n" + JIT_KERNEL.encode() + "# caf\xe9\n".encode("latin-1"))
    assert read_checked(str(f)).endswith("# caf\xe9\n")
    # declared, it wins over UTF-8 even where the bytes are UTF-8 too (Python reads `\xc3\xa9` as two letters)
    f.write_bytes(b"# -*- coding: latin-1 -*-\n" + JIT_KERNEL.encode() + "# caf\xe9\n".encode())
    assert read_checked(str(f)).endswith("# caf\xc3\xa9\n")
    f.write_bytes(b"# -*- coding: no-such-codec -*-\n" + JIT_KERNEL.encode() + b"# caf\xe9\n")
    with pytest.raises(SourceRefused, match="not text in the encoding its first lines declare"):
        read_checked(str(f))


@pytest.mark.parametrize("text", ["import jax\ndef g(x):\n    return x\nf = jax.jit(g)\n",
                                  "import torch\n@torch.jit.script\ndef g(x):\n    return x\n",
                                  "import numba\n@numba.jit(nopython=True)\ndef g(x):\n    return x\n",
                                  "# call jit(f) later\nTOKEN = 1\n"])
def test_policy_refuses_files_of_other_jits(tmp_path, text):
    """JAX's, torch's and numba's qualified jits (and a comment saying `jit(`) are no Triton function."""
    f = tmp_path / "k.py"
    f.write_text(text)
    found = SourceFinder().read(str(f), {str(f)})
    assert not found.found and "defines no Triton function" in found.error


def test_policy_refuses_a_file_shorter_than_the_lines_the_kernel_names(tmp_path):
    f = tmp_path / "k.py"
    f.write_text(JIT_KERNEL)
    assert SourceFinder().read(str(f), {str(f): 5}).found
    found = SourceFinder().read(str(f), {str(f): 206})
    assert not found.found and "5 lines" in found.error and "line 206" in found.error


@pytest.mark.parametrize("how", ["dotdot", "dir link", "substitute dotdot", "substitute dir link"])
def test_lookups_under_a_root_stay_inside_it(tmp_path, how):
    """A `..` in the IR's path, or a directory link in the tree, never takes a --source-root or
    --substitute-path lookup out of the directory the user gave."""
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "evil.py").write_text(JIT_KERNEL + "# SECRET\n")
    root = tmp_path / "root" / "a"
    root.mkdir(parents=True)
    if how in ("dotdot", "substitute dotdot"):
        requested = "/ir/x/../../secret/evil.py"
    else:
        (root / "lib").symlink_to(secret, target_is_directory=True)
        requested = "/ir/x/lib/evil.py"
    finder = (SourceFinder(roots=(str(root),)) if how in ("dotdot", "dir link")
              else SourceFinder(substitutions=(("/ir/x", str(root)),)))
    if how == "substitute dotdot":  # (../../secret from root/a is tmp_path/secret: outside root/a)
        requested = "/ir/x/../../secret/evil.py"
    found = finder.read(requested, {requested})
    assert not found.found and "SECRET" not in "\n".join(found.lines)
    if how != "dotdot":
        assert "outside" in found.error, found.error


def test_a_source_root_thousands_of_folders_deep_is_searched_without_error(tmp_path):
    """The search by name below a --source-root keeps its own stack (os.walk recursed: a tree ~1,000 deep
    raised RecursionError; here 300 deep under a recursion limit 200 frames above this test's) and goes 64
    levels down at most."""
    import sys

    root = tmp_path / "root"
    root.mkdir()
    deep = root
    for _ in range(300):  # (one level at a time: mkdir(parents=True) recurses too)
        deep = deep / "d"
        deep.mkdir()
    (root / "b" / "x").mkdir(parents=True)
    (root / "b" / "x" / "k.py").write_text(JIT_KERNEL)
    (root / "c").mkdir()
    (root / "c" / "k.py").write_text(JIT_KERNEL)
    (root / "a").mkdir()
    (root / "a" / "k.py").symlink_to(root / "c", target_is_directory=True)  # a folder link: no file, not entered
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 200)
    try:
        found = SourceFinder(roots=(str(root),)).read("/elsewhere/x/k.py", {"/elsewhere/x/k.py"})
        missing = SourceFinder(roots=(str(root),)).read("/elsewhere/none.py", {"/elsewhere/none.py"})
    finally:
        sys.setrecursionlimit(limit)
    assert found.found and found.path == str(root / "b" / "x" / "k.py")  # its folder x is the IR's
    assert missing.error == "source not found"


def test_a_relative_path_does_not_climb_out_of_the_working_directory(tmp_path, monkeypatch):
    """An IR location `../outside/secret.py` (a crafted cache: Triton writes absolute paths) was opened
    relative to the working directory, whatever --source-root said: run from root/, the report embedded
    ../outside/secret.py. It is looked up under the roots by its trailing components only."""
    from tritonscope.srcmap.paths import SourceFinder

    (tmp_path / "root").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.py").write_text(JIT_KERNEL)
    (tmp_path / "root" / "k.py").write_text(JIT_KERNEL)
    monkeypatch.chdir(tmp_path / "root")
    finder = SourceFinder(roots=(str(tmp_path / "root"),))
    assert finder.locate("../outside/secret.py") == (None, None)
    assert finder.locate("k.py") == ("k.py", "as is")  # (a relative path inside it still is)
    assert finder.locate("../elsewhere/k.py") == (str(tmp_path / "root" / "k.py"), "source-root")


def test_the_def_is_where_the_ir_locates_it_in_every_release(cli, tmp_path):
    """Every release locates a kernel at its `def` line (2.3.1's mangled `dot_kernel_0d1d2d3d4d5d6d` too, which
    was refused as another function); a decorator there is a file edited since (a line added above the
    kernel: accepted, every line shown one off)."""
    from pathlib import Path

    from tritonscope.srcmap.paths import def_line

    data = Path(__file__).parent / "data" / "triton-2.3.1"
    args = ("map", "dot_kernel", "--cache-dir", str(data / "cache"), "--target", "cuda:80", "--line", "40",
            "--stages", "ttir", "--substitute-path", "/tmp/tritonscope-fixtures")
    read = cli(*args, str(data))
    assert "(via substitute-path)" in read.stdout.splitlines()[1], read.stdout
    edited = tmp_path / "kernels23.py"
    edited.write_text("# one line added\n" + (data / "kernels23.py").read_text())
    refused = cli(*args, str(tmp_path))
    assert "line 33 is not `def dot_kernel_0d1d2d3d4d5d6d(`" in refused.stdout.splitlines()[1], refused.stdout
    lines = ["@triton.jit", "def k(x):", "def my(x):", "def fused__to_copy(x):"]
    assert [def_line(lines, "k", 1), def_line(lines, "k", 2), def_line(lines, "my__kernel", 3),
            def_line(lines, "pkg.mod.my__Pfp32", 3), def_line(lines, "fused__to_copy", 4)] == [None, 2, None, 3, 4]


def test_a_source_with_old_mac_line_ends_is_a_source(tmp_path):
    f = tmp_path / "k.py"
    f.write_bytes(b"import triton\r\r@triton.jit\rdef k(x):\r    pass\r")
    assert SourceFinder().read(str(f), {str(f)}).found


RENAMED = '''\
import triton
import triton.language as tl


def _name(specialization):
    return "renamed_scale"


@triton.jit(repr=_name)
def scale_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)
'''

GLUON_RENAMED = '''\
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


def _name(specialization):
    return "gluon_renamed"


@gluon.jit(repr=_name)
def copy_kernel(x_ptr):
    offs = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.store(x_ptr + offs, gl.load(x_ptr + offs) + 1)
'''


def test_a_kernel_renamed_by_repr_is_read_from_its_def(cli, tmp_path):
    """Helper 68: Triton's Gluon attention example names its kernel with `@gluon.jit(repr=...)`: the IR's
    function and the metadata are `gluon_attention`, the cache's files `attention_kernel.*`, the def
    `def attention_kernel(`. Its source was refused everywhere ("line 891 is not `def gluon_attention(`: not
    the source it was compiled from"), and `layout` matched no written layout ("the file changed"). The
    stage file's name is the def's other name; any other name at that line is still refused."""
    for name, text, kernel, shown in (("rk.py", RENAMED, "scale_kernel", "renamed_scale"),
                                      ("gk.py", GLUON_RENAMED, "copy_kernel", "gluon_renamed")):
        (tmp_path / name).write_text(text)
        cache = tmp_path / f"c_{kernel}"
        r = cli("compile", f"{tmp_path / name}::{kernel}", "--signature", "x_ptr=*fp32", "--target", "cuda:90",
                "--cache-dir", str(cache), *(("--constexpr", "BLOCK=128") if kernel == "scale_kernel" else ()))
        assert r.returncode == 0, r.stderr
        doc = json.loads(cli("map", shown, "--cache-dir", str(cache), "--line", "12", "--json").stdout)
        assert (doc["source"]["path"], doc["source"]["found"], doc["source"]["error"]) == (
            str(tmp_path / name), True, None), doc["source"]
        r = cli("report", shown, "--cache-dir", str(cache), "-o", str(tmp_path / f"{kernel}.html"))
        assert f"  embedded: {tmp_path / name}" in r.stderr.splitlines(), r.stderr
        # (helper 71: with no IR stage read, which names no def line, the def is looked for by both names too)
        doc = json.loads(cli("map", shown, "--cache-dir", str(cache), "--stages", "ptx", "--line", "12", "--json"
                             ).stdout)
        assert doc["source"]["found"] and doc["source"]["error"] is None, doc["source"]
        if kernel == "copy_kernel":
            written = json.loads(cli("layout", shown, "--cache-dir", str(cache), "--json").stdout)["written"]
            assert written.get("error") is None and [w["written"]["line"] for w in written["layouts"]] == [11]
        # (another def at that line is refused as before)
        (tmp_path / name).write_text(text.replace(f"def {kernel}(", "def other_kernel("))
        r = cli("map", shown, "--cache-dir", str(cache), "--line", "12")
        assert f"is not `def {shown}(`" in r.stdout + r.stderr


def test_a_fifo_at_the_sources_path_is_said_to_be_no_regular_file(tmp_path):
    """Helper 58: a FIFO where the IR names the kernel's `.py` was never opened (no hang), but reported as
    "source not found (try --source-root ...)", which sends the user looking for a file that is there."""
    fifo = tmp_path / "kern.py"
    os.mkfifo(fifo)
    text = SourceFinder().read(str(fifo), {str(fifo): 3})
    assert not text.found and text.error == f"not read: {fifo} is a FIFO, not a regular file", text.error


def _named(path, *lines):
    """NamedFiles naming `lines` of `path`, as an inlined helper's callsite locations do (no def)."""
    from tritonscope.srcmap.kernelmap import NamedFiles

    named = NamedFiles()
    named[str(path)] = max(lines)
    named.lines[str(path)] = set(lines)
    return named


@pytest.mark.parametrize("text, line, reason", [
    # numba's bare @jit: the file has a `jit` decorator, not Triton's (it was embedded as a helper's file)
    ("from numba import jit\n\n@jit\ndef conf(x):\n    SECRET = 'MARKER'\n    return x\n", 5,
     "defines no Triton function"),
    # `triton.jit(` said in a comment or a string only (embedded: the call form matched anywhere)
    ("# reach it through triton.jit( here\nAWS_SECRET = 'MARKER'\n", 2, "defines no Triton function"),
    ("HELP = 'call triton.jit(fn)'\nAWS_SECRET = 'MARKER'\n", 2, "defines no Triton function"),
    # a real Triton function, but the line the IR names lies outside it
    ("import triton\n\n@triton.jit\ndef other(x):\n    return x\n\nSECRET = 'MARKER'\n", 7,
     "line 7, which this kernel's locations name, is in no Triton jit function"),
])
def test_a_helpers_file_is_read_only_where_its_named_lines_are_in_triton_functions(tmp_path, text, line, reason):
    """A file the IR names only through an inlined call's location (no `def` located in it) is read only where
    each line named lies in a function a Triton jit marks: a crafted cache naming a config file with numba's
    `@jit`, or a comment saying `triton.jit(`, got it embedded in a shared report."""
    f = tmp_path / "conf.py"
    f.write_text(text)
    found = SourceFinder().read(str(f), _named(f, line))
    assert not found.found and reason in found.error and "MARKER" not in found.error


@pytest.mark.parametrize("text, line", [
    ("from triton import jit\n\n@jit\ndef h(x):\n    return x + 1\n", 5),
    ("from ..runtime.jit import jit, constexpr_function\n\n@jit\ndef h(x):\n    return x + 1\n", 5),
    ("import triton\n\ndef h(x):\n    return x + 1\n\nh2 = triton.jit(h)\n", 4),
    ("from triton.experimental import gluon\n\nclass Impl:\n    @gluon.jit\n    def h(self):\n        y = 1\n"
     "        return y\n", 6),
    ("import triton\n\n@triton.autotune(configs=[\n    1,\n], key=[])\n@triton.jit\ndef k(\n    a,\n):\n"
     "    '''doc'''\n\n    # step\n    x = a + 1\n    return x\n", 13),
    # helper 95: a jit call with options, then the function (sglang's Wan VAE kernel); one over lines
    # (unsloth's RMS layernorm backward); the module's aliases; a stray triple quote in a string or a
    # comment elsewhere in the file, and a bracket closed at column 0
    ("import triton\n\ndef _cat(x):\n    y = x + 1\n    return y\n\n\n"
     "_cat_k = triton.jit(do_not_specialize=['n'])(_cat)\n", 4),
    ("import triton\n\ndef _bwd(x):\n    y = x + 1\n    return y\n\n\n_bwd_k = triton.jit(\n    _bwd,\n"
     "    do_not_specialize=['n'],\n)\n", 4),
    ("import triton as tr\n\n@tr.jit\ndef k(x):\n    y = x + 1\n", 5),
    ("from triton import jit as tjit\n\n@tjit\ndef k(x):\n    y = x + 1\n", 5),
    ("from triton import (\n    autotune,\n    jit,\n)\n\n@jit\ndef k(x):\n    y = x + 1\n", 8),
    ("from triton.experimental import gluon as glu\n\n@glu.jit\ndef k(x):\n    y = x + 1\n", 5),
    ('import triton\nQUOTE = \'"""\'  # """\n\n@triton.jit\ndef k(x):\n    y = tl.inline_asm_elementwise(\n'
     '        asm="""{\nmov.b32 $0, $1;\n}""",\n        args=(x,),\n    )\n    z = foo(x,\nx)\n    return y\n', 13),
    # an inline asm's text over lines at column 0 (sglang's and vLLM's `convert_rs_fp16x2`)
    ('import triton\n\n@triton.jit\ndef cvt(x):\n    y = tl.inline_asm_elementwise(\n        asm="""{\n'
     'cvt.rs.f16x2.f32 $0, $2, $1, $3;\n}""",\n        args=(x,),\n    )\n    return y\n', 11),
])
def test_a_helpers_file_in_every_jit_spelling_is_read(tmp_path, text, line):
    """The spellings real helper files use: `from triton import jit`, Triton's own relative import,
    `triton.jit(fn)`, a Gluon aggregate's method, decorators and a signature over several lines."""
    f = tmp_path / "helpers.py"
    f.write_text(text)
    found = SourceFinder().read(str(f), _named(f, line))
    assert found.found, found.error


def test_a_source_modified_after_the_kernel_was_compiled_is_shown_with_a_caution(cli, cache39, corpus, tmp_path):
    """Helper 103: a source edited in place after the compile (same lines, same defs: the policy's checks
    hold) was embedded and mapped as the text compiled, with no word. A file whose mtime is later than the
    entry's (its folder's: when Triton wrote it) is shown with a caution on the terminal, in JSON and on
    the page; an older one without."""
    entry = shutil.copytree(cache39 / SOFTMAX_90, tmp_path / "c" / SOFTMAX_90)
    src = tmp_path / "src" / "kernels.py"
    src.parent.mkdir()
    src.write_text((corpus / "kernels.py").read_text())
    sub = ["--substitute-path", IR_DIR, str(src.parent)]
    compiled = entry.stat().st_mtime

    def shown(mtime: float) -> tuple[dict, str, str, str]:
        os.utime(src, (mtime, mtime))
        listing = cli("map", str(entry), "--json", *sub)
        text = cli("map", str(entry), *sub)
        page = tmp_path / "r.html"
        report = cli("report", str(entry), "-o", str(page), *sub)
        assert listing.returncode == text.returncode == report.returncode == 0, report.stderr
        return json.loads(listing.stdout)["source"], text.stdout, report.stderr, page.read_text()

    source, text, err, page = shown(compiled - 3600)
    assert source["found"] and source["caution"] is None
    assert "modified after" not in text + err + page
    source, text, err, page = shown(compiled + 3600)
    assert source["found"] and source["caution"].startswith(f"{src} was modified after this kernel was compiled (")
    assert source["caution"].endswith("): its lines may not be the ones compiled")
    assert f"source: {src} was modified after this kernel was compiled" in text
    assert f"embedded: {IR_DIR}/kernels.py (caution: {src} was modified after" in err
    assert page.count("its lines may not be the ones compiled") >= 2  # (the pane's note, the sources table)


def test_an_inductor_kernel_file_copied_later_has_no_caution(cli, corpus, tmp_path):
    """Helper 107: Inductor's kernel files copied with `cp -r` (new mtimes, the same text) were all cautioned.
    Such a file is named by the hash of its text: its mtime says nothing about it."""
    src = corpus / "inductor-h200-triton3.6"
    copy = tmp_path / "isrc"
    shutil.copytree(src / "inductor_src", copy, copy_function=shutil.copyfile)  # (no mtimes kept)
    future = (src / "triton_cache").stat().st_mtime + 86400
    for f in copy.rglob("*.py"):
        os.utime(f, (future, future))
    entry = next(e for e in (src / "triton_cache").iterdir() if e.is_dir() and any(e.glob("*.ttir")))
    r = cli("map", str(entry), "--json", "--substitute-path", "/tmp/rc/inductor", str(copy))
    assert r.returncode == 0, r.stderr
    source = json.loads(r.stdout)["source"]
    assert source["found"] and source["caution"] is None, source
