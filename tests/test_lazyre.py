"""lazy_compile: compiled on first use only, then the compiled pattern's own methods, same results."""

from __future__ import annotations

import re

from tritonscope.lazyre import lazy_compile


def test_compiles_on_first_use_and_binds_methods():
    p = lazy_compile(r"(?P<word>[a-z]+)(\d+)", re.I)
    assert "match" not in vars(p)  # nothing compiled at import
    assert p.match("ABC12").group("word") == "ABC"  # flags honored
    assert vars(p)["search"].__self__ is p.compiled()  # later calls go straight to the compiled pattern
    assert p.groupindex == {"word": 1} and p.groups == 2  # other attributes pass through
    assert p.sub(lambda m: m.group(2), "ab1 cd22") == "1 22"
    assert p.findall("x1 y2") == [("x", "1"), ("y", "2")]
    assert p.pattern == r"(?P<word>[a-z]+)(\d+)"


def test_bad_pattern_fails_at_first_use():
    p = lazy_compile("(")
    try:
        p.match("x")
    except re.error:
        pass
    else:
        raise AssertionError("an invalid pattern must raise re.error")


def test_every_module_pattern_compiles():
    """A lazy pattern of the project is only compiled when used: compile every one here, so a typo in a
    rarely used pattern fails CI rather than the user's command."""
    import importlib
    import pkgutil

    import tritonscope
    from tritonscope.lazyre import LazyPattern

    seen = 0
    for mod in pkgutil.walk_packages(tritonscope.__path__, "tritonscope."):
        if mod.name.startswith(("tritonscope.compile", "tritonscope.__main__")):
            continue  # imports triton
        module = importlib.import_module(mod.name)
        for value in vars(module).values():
            patterns = value.values() if isinstance(value, dict) else [value]
            for p in patterns:
                if isinstance(p, LazyPattern):
                    p.compiled()
                    seen += 1
    assert seen > 50


def test_copies_and_pickles_behave():
    import copy
    import pickle

    p = lazy_compile(r"a(b+)")
    for q in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert q.match("abbb").group(1) == "bbb"
    p.match("ab")
    for q in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert q.search("xab").start() == 1
