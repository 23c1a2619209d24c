"""The stage table is the one list of stages: every view the commands use is read from it, in the order
outputs have always listed stages (a reordering would change `ls`, `map`, `show`, `diff` output)."""

from tritonscope.artifacts import cache
from tritonscope.diff.normalize import NORMALIZED_STAGES
from tritonscope.stages import PARSED_STAGES, Module, parse
from tritonscope.stages import table as T


def test_views_keep_the_established_orders():
    assert T.FILE_STAGES == ("source", "glir", "ttir", "ttgir", "llir", "ptx", "cubin", "amdgcn", "hsaco", "json")
    assert cache.STAGE_ORDER == T.FILE_STAGES
    assert T.TEXT_STAGES == ("source", "glir", "ttir", "ttgir", "llir", "ptx", "amdgcn")
    assert T.BINARY_STAGES == ("cubin", "hsaco")
    assert T.DERIVED_STAGES == {"sass": "cubin", "hsaco-asm": "hsaco"}
    assert PARSED_STAGES == T.MAPPED_STAGES == (
        "source", "ttir", "ttgir", "llir", "ptx", "amdgcn", "sass", "hsaco-asm")
    assert T.SHOWN_STAGES == ("source", "glir", "ttir", "ttgir", "llir", "ptx", "amdgcn", "sass", "hsaco-asm",
                              "json")
    assert T.DIFFED_STAGES == ("source", "ttir", "ttgir", "llir", "ptx", "amdgcn")
    assert T.ISA_STAGES == ("ptx", "amdgcn", "sass", "hsaco-asm")
    assert T.TEXT_ISA_STAGES == ("ptx", "amdgcn")
    assert T.LINE_ONLY_STAGES == ("sass", "hsaco-asm")
    assert T.COMMENT_MARKS == {"source": "//", "glir": "//", "ttir": "//", "ttgir": "//", "llir": ";", "ptx": "//",
                               "amdgcn": ";", "sass": "//", "hsaco-asm": ";"}
    assert T.default_view("cuda") == ("ttgir", "llir", "ptx")
    assert T.default_view("hip") == ("ttgir", "llir", "amdgcn")


def test_every_diffed_stage_has_a_normalizer():
    assert set(NORMALIZED_STAGES) == set(T.DIFFED_STAGES)


def test_every_parsed_stage_has_a_parser_module_that_parses():
    # Each row naming a parser is importable through `parse` and takes an empty text.
    for stage in T.PARSERS:
        module = parse(stage, "", path=f"empty.{stage}")
        assert isinstance(module, Module) and module.stage == stage, stage


def test_rows_are_consistent():
    names = [s.name for s in T.STAGES]
    assert len(names) == len(set(names))
    for s in T.STAGES:
        assert (s.suffix is None) == (s.form == "disassembly"), s.name
        assert (s.derived_from is not None) == (s.form == "disassembly"), s.name
        if s.derived_from:
            assert T.BY_NAME[s.derived_from].form == "binary"
            assert set(s.backends) <= set(T.BY_NAME[s.derived_from].backends)
        if s.mapped:
            assert s.parser, s.name
