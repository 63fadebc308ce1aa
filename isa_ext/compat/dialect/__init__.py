"""The "openpower" pseudocode dialect: the pages of an openpower-isa checkout
(:mod:`isa_ext.compat.root`) as openpower-isa's own parser and simulator read
them -- its grammar (operator precedence), its line joining inside brackets,
its ``<!-- -->`` comment lines, its helper functions (:mod:`.helpers`) and the
XER updates its simulator makes around a page (:mod:`.envelope`).

Importing this package registers the dialect with the compiler and the
helpers' runtime functions with the library, before any page of the dialect
compiles or is loaded from the compiled-code cache.
"""
from ...pseudocode import compiler
from . import envelope, helpers

NAME = "openpower"


class _Indenter(compiler.PseudoIndenter):
    """openpower-isa's lexer makes no newline tokens inside brackets: a
    parenthesised expression may run over several lines."""
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]


compiler.register_dialect(compiler.Dialect(
    NAME, __name__, "grammar.lark", _Indenter,
    comment_starts=("#", "<!--"), helpers=helpers.INTRINSICS, names=helpers.NAMES,
    envelope=envelope))
