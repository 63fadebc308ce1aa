"""The exact ("infinitely precise") result of a saturating element
(``decoder/svp64/sat_exact.txt``): per row, the saturation modes it supports
with 64-bit source elements and either an integer expression over its source
fields or "fits" (the page's 64-bit result is exact)."""
import ast

from .. import specdata
from ..errors import Trap

M64 = (1 << 64) - 1
_ROWS = None


class Exact:
    """One row's entry: ``modes`` ("s"/"u" set), ``expr`` (compiled
    expression or None for "fits"), ``names`` (fields the expression reads)."""

    def __init__(self, mnemonic, modes, text, where):
        self.mnemonic, self.modes, self.text = mnemonic, frozenset(modes), text
        self.expr, self.names = None, ()
        if text != "fits":
            try:
                tree = ast.parse(text, mode="eval")
            except SyntaxError:
                raise Trap(f"{where}: bad expression {text!r}", "illegal") from None
            names = []
            for node in ast.walk(tree):
                if isinstance(node, ast.Name):
                    names.append(node.id)
                elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add,
                                           ast.Sub, ast.Mult, ast.LShift, ast.BitAnd,
                                           ast.USub, ast.Constant, ast.Load)) or (
                        isinstance(node, ast.Constant) and type(node.value) is not int):
                    raise Trap(f"{where}: only + - * << & and integers are allowed in "
                               f"{text!r}", "illegal")
            self.names = tuple(dict.fromkeys(names))
            self.expr = compile(tree, where, "eval")

    def value(self, env):
        """The exact result for ``env`` {field: integer}."""
        return eval(self.expr, {"__builtins__": {}}, env)  # noqa: S307 (checked AST)


def rows():
    """{base mnemonic: Exact} from ``decoder/svp64/sat_exact.txt``."""
    global _ROWS
    if _ROWS is None:
        where, text = specdata.source().read("decoder", "svp64", "sat_exact.txt")
        table = {}
        for n, line in enumerate(text.splitlines(), 1):
            words = line.split("#", 1)[0].split(None, 2)
            if words:
                table[words[0]] = Exact(words[0], words[1], words[2].strip(),
                                        f"{where}:{n}")
        _ROWS = table
    return _ROWS


def as_int(v, signed):
    """A 64-bit register value as a signed or unsigned integer."""
    v &= M64
    return v - (1 << 64) if signed and v >> 63 else v
