"""Pygments lexers for Triton's MLIR dialects (TTIR/TTGIR), and the lexer for each stage."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace


class MLIRLexer(RegexLexer):
    """TTIR/TTGIR as Triton prints it: ops, SSA values, attribute aliases, types, loc(...)."""

    name = "MLIR (Triton)"
    aliases = ["mlir", "ttir", "ttgir"]
    filenames = ["*.mlir", "*.ttir", "*.ttgir", "*.source"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"//.*?$", Comment.Single),
            (r"\bloc\(", Comment.Special, "loc"),
            (r'"(\\\\|\\"|[^"])*"', String),
            (r"%[\w.$-]+(#\d+)?", Name.Variable),
            (r"\^[\w.$-]+", Name.Label),
            (r"@[\w.$-]+", Name.Function),
            (r"#[\w.$-]+", Name.Constant),
            (r"![\w.$-]+", Keyword.Type),
            (r"\b(tt|ttg|ttng|triton_gpu|triton_nvidia_gpu|amdgpu|arith|scf|cf|math|llvm|gpu|nvgpu|nvvm|rocdl|"
             r"tti|ttig|proton|gluon)\.[\w.]+", Name.Builtin),
            (r"\b(module|attributes|func|public|private|tensor|memdesc|ptr|dense|true|false|to|at|callsite|"
             r"fused|unknown)\b", Keyword),
            (r"\b[isuf]\d+\b|\bbf16\b|\bindex\b|\bf8E\w+\b", Keyword.Type),
            (r"-?\d+\.\d*(e[+-]?\d+)?", Number.Float),
            (r"0x[0-9a-fA-F]+", Number.Hex),
            (r"-?\d+", Number.Integer),
            (r"[=:<>()\[\]{},x*+-]|->", Punctuation),
            (r"[\w.]+", Text),
            (r".", Text),
        ],
        "loc": [
            (r"\(", Comment.Special, "#push"),
            (r"\)", Comment.Special, "#pop"),
            (r'"(\\\\|\\"|[^"])*"', Comment.Special),
            (r"[^()\"]+", Comment.Special),
        ],
    }


class SASSLexer(RegexLexer):
    """nvdisasm output: addresses, predicates, opcodes, registers, line-info comments."""

    name = "SASS"
    aliases = ["sass"]
    filenames = ["*.sass"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"//.*?$", Comment.Single),
            (r"/\*[0-9a-f]+\*/", Comment.Special),
            (r"\.[\w.]+", Keyword.Pseudo),
            (r"@!?U?P[T\d]+", Operator),
            (r"\b[A-Z][A-Z0-9]*(\.[A-Z0-9_]+)*\b", Keyword),
            (r"\b(U?R\d+|RZ|URZ|U?P[T\d]+|SR_\w+)\b", Name.Variable),
            (r"c\[0x[0-9a-f]+\]", Name.Constant),
            (r"-?0x[0-9a-fA-F]+|-?\d+(\.\d+)?", Number),
            (r"[\[\]{},;:|+\-~]", Punctuation),
            (r"[\w$.]+", Text),
            (r".", Text),
        ],
    }


def lexer_for_stage(stage: str):
    """A pygments lexer instance for a stage name, imported lazily."""
    if stage in ("ttir", "ttgir", "source"):
        return MLIRLexer()
    if stage == "llir":
        from pygments.lexers.asm import LlvmLexer

        return LlvmLexer()
    if stage == "ptx":
        from pygments.lexers import get_lexer_by_name

        return get_lexer_by_name("ptx")  # pygments.lexers.ptx, not .asm
    if stage in ("amdgcn", "hsaco-asm"):
        from pygments.lexers.asm import GasLexer

        return GasLexer()
    if stage == "sass":
        return SASSLexer()
    if stage == "json":
        from pygments.lexers.data import JsonLexer

        return JsonLexer()
    if stage == "python":
        from pygments.lexers.python import PythonLexer

        return PythonLexer()
    from pygments.lexers.special import TextLexer

    return TextLexer()


_ = (bygroups, include, Operator)  # keep imports for lexer authors extending these
