"""The exact ("infinitely precise") result of a saturating element
(``decoder/svp64/sat_exact.txt``): per row, the saturation modes it supports
with 64-bit source elements and either an integer expression over its source
fields or "fits" (the page's 64-bit result is exact)."""
import ast

from .. import specdata
from ..errors import Trap

M64 = (1 << 64) - 1
_ROWS = None


class NoExact(Exception):
    """The exact result does not exist (a division by zero): the page's
    result, which the ISA leaves undefined, is taken as it is."""


def _quot(a, b):
    # the ISA's DIVS/DIVU: the quotient truncated towards zero
    if b == 0:
        raise NoExact
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _rem(a, b):
    # the ISA's MODS/MODU: the remainder has the dividend's sign
    return a - _quot(a, b) * b


def _sw(x):
    # the low word as a signed integer
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def _uw(x):
    # the low word as an unsigned integer
    return x & 0xFFFFFFFF


FUNCTIONS = {"quot": _quot, "rem": _rem, "sw": _sw, "uw": _uw}
_GLOBALS = {"__builtins__": {}, **FUNCTIONS}
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.LShift,
          ast.RShift, ast.BitAnd, ast.USub, ast.Constant, ast.Load, ast.Call)


class Exact:
    """One row's entry: ``modes`` ("s"/"u" set), ``expr`` (compiled
    expression or None for "fits"), ``names`` (fields the expression reads),
    ``agree`` (how many low bits of the page's result the expression must
    match) and ``ranged`` (checked only where the exact result lies in the
    ``agree``-bit range of the mode's signedness: outside it the page's
    result is truncated or undefined)."""

    def __init__(self, mnemonic, modes, text, where):
        self.mnemonic, self.modes, self.text = mnemonic, frozenset(modes), text
        self.expr, self.names = None, ()
        self.agree, self.ranged = 64, False
        text, _, clause = text.partition(";")
        text = text.strip()
        if clause:
            words = clause.split()
            if len(words) != 2 or words[0] != "low" or words[1] not in ("32", "64"):
                raise Trap(f"{where}: the agreement clause is '; low 32' or '; low 64', "
                           f"not {clause.strip()!r}", "illegal")
            self.agree, self.ranged = int(words[1]), True
        if text != "fits":
            try:
                tree = ast.parse(text, mode="eval")
            except SyntaxError:
                raise Trap(f"{where}: bad expression {text!r}", "illegal") from None
            names = []
            calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Name):
                    if id(node) in calls:
                        if node.id not in FUNCTIONS:
                            raise Trap(f"{where}: unknown function {node.id!r} (known: "
                                       f"{', '.join(sorted(FUNCTIONS))})", "illegal")
                    else:
                        names.append(node.id)
                elif not isinstance(node, _NODES) or (
                        isinstance(node, ast.Constant) and type(node.value) is not int) or (
                        isinstance(node, ast.Call) and (node.keywords or
                                                        not isinstance(node.func, ast.Name))):
                    raise Trap(f"{where}: only + - * << >> &, integers and "
                               f"{', '.join(sorted(FUNCTIONS))}() are allowed in "
                               f"{text!r}", "illegal")
            self.names = tuple(dict.fromkeys(names))
            self.expr = compile(tree, where, "eval")

    def value(self, env):
        """The exact result for ``env`` {field: integer}, or None when it does
        not exist (division by zero)."""
        try:
            return eval(self.expr, _GLOBALS, env)  # noqa: S307
        except NoExact:
            return None

    def disagrees(self, exact, page, signed):
        """Whether the exact result ``exact`` contradicts the page's 64-bit
        result ``page`` on the low ``agree`` bits (see the class docstring)."""
        bits = self.agree
        if self.ranged:
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else \
                (0, (1 << bits) - 1)
            if not lo <= exact <= hi:
                return False
        return bool((exact - page) & ((1 << bits) - 1))


class Row:
    """A row's entries: ``modes`` (every mode some line gives) and
    :meth:`get` (the Exact of one mode); a row may have one line per mode
    when its modes read the sources differently (slw: the low word)."""

    def __init__(self):
        self.by_mode = {}
        self.modes = frozenset()

    def add(self, exact, where):
        for m in exact.modes:
            if m not in "su" or m in self.by_mode:
                raise Trap(f"{where}: mode {m!r} of {exact.mnemonic} is not s or u, or is "
                           "given twice", "illegal")
            self.by_mode[m] = exact
        self.modes = frozenset(self.by_mode)

    def get(self, mode):
        return self.by_mode[mode]


def rows():
    """{base mnemonic: Row} from ``decoder/svp64/sat_exact.txt``."""
    global _ROWS
    if _ROWS is None:
        where, text = specdata.source().read("decoder", "svp64", "sat_exact.txt")
        table = {}
        for n, line in enumerate(text.splitlines(), 1):
            words = line.split("#", 1)[0].split(None, 2)
            if words:
                at = f"{where}:{n}"
                table.setdefault(words[0], Row()).add(
                    Exact(words[0], words[1], words[2].strip(), at), at)
        _ROWS = table
    return _ROWS


def as_int(v, signed):
    """A 64-bit register value as a signed or unsigned integer."""
    v &= M64
    return v - (1 << 64) if signed and v >> 63 else v
