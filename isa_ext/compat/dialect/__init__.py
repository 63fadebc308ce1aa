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
# the prefix of a field a page reads in openpower-isa's bit order
# (root.form_for adds such fields; the compiler looks a field up under it first)
OPENPOWER_ORDER = "op__"
# the operands openpower-isa's parser treats as registers (parser.py regs, fregs)
REGISTER_OPERANDS = frozenset({"RA", "RB", "RC", "RS", "RT", "FRA", "FRB", "FRC", "FRS", "FRT"})


class _Indenter(compiler.PseudoIndenter):
    """openpower-isa's lexer makes no newline tokens inside brackets: a
    parenthesised expression may run over several lines."""
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]


compiler.register_dialect(compiler.Dialect(
    NAME, __name__, "grammar.lark", _Indenter,
    comment_starts=("#", "<!--"), helpers=helpers.INTRINSICS, names=helpers.NAMES,
    envelope=envelope, register_operands=REGISTER_OPERANDS, field_prefix=OPENPOWER_ORDER,
    # openpower-isa's simulator computes with SelectableInts of dynamic width:
    # ranges are checked when they run, "[x] * n" is a list of n x's, RANGE
    # counts down, a page may reuse a field's name for a variable
    checked_ranges=True, repeat_at_width=True, loops_count_down=True,
    assignable_fields=True, path_widths=True, overflow_variable=True, needs_code=True))
