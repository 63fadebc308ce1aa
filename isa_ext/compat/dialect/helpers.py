"""The helper functions openpower-isa's pages call, for the "openpower" page
dialect (pages read from an openpower-isa checkout, :mod:`isa_ext.compat.root`).

Their meaning is the one openpower-isa's simulator gives them (its
``src/openpower/decoder/helpers.py`` and ``isa/caller.py``), written here over
isa_ext's integer values; they are looked up before the library's own
intrinsics, and only for pages of that dialect, so isa_ext's own pages keep the
Power ISA book's meaning of a name.  Where that simulator's meaning differs
from the book's, the difference is theirs and is kept on purpose:

* ``EXTZ64(x)`` keeps only the low 32 bits of ``x``;
* ``FPADD32`` ... ``FPMULADD64`` compute in binary64 with round-to-nearest
  (a single-precision result is then rounded again to binary32) and leave the
  FPSCR unchanged;
* ``undefined(x)`` is ``x``; ``real_addr(EA)`` is ``EA``.
"""
import math
import struct

from ...pseudocode import library
from ...pseudocode.fp import fp_muladd, fp_div, fp_round_single

INTRINSICS = {}  # name -> gen(compiler, *args) -> Val
# name -> (constant value, width): the simulator's 64-bit mode and its real
# page size (caller.py: 2 ** 12)
NAMES = {"mode_is_64bit": (1, 1), "REAL_PAGE_SIZE": (4096, None)}


def helper(name):
    def deco(fn):
        INTRINSICS[name] = fn
        return fn
    return deco


def _val(code, width, const=None):
    from ...pseudocode.compiler import Val
    return Val(code, width, const)


def _const(v, what):
    if v.const is None:
        raise TypeError(f"{what} must be a constant")
    return v.const


@helper("undefined")
def _undefined(comp, v):
    return v


@helper("real_addr")
def _real_addr(comp, ea):
    return ea


@helper("random")
def _random(comp, l):
    return library.INTRINSICS["RANDOM"](comp, l)


def _ext_xl(comp, v, bits, signed):
    n = comp.xlen if bits is None else _const(bits, "the bit count")
    mask = (1 << comp.xlen) - 1
    low = f"({v.code} & {hex((1 << n) - 1)})"
    if not signed:
        return _val(low, comp.xlen)
    bias = hex(1 << (n - 1))
    return _val(f"((({low} ^ {bias}) - {bias}) & {hex(mask)})", comp.xlen)


@helper("EXTSXL")
def _extsxl(comp, v, bits=None):
    """The low ``bits`` (XLEN if omitted) of v, sign-extended to XLEN."""
    return _ext_xl(comp, v, bits, True)


@helper("EXTZXL")
def _extzxl(comp, v, bits=None):
    return _ext_xl(comp, v, bits, False)


@helper("EXTZ64")
def _extz64(comp, v):
    """openpower-isa's EXTZ64 masks to 32 bits (helpers.py: "XXX should this
    explicitly extend from 32 to 64?")."""
    return _val(f"({v.code} & 0xffffffff)", 64)


@helper("EXTZ")
def _extz(comp, v):
    """Zero extension; an operand of no static width (a count) is taken as
    the number it is, at the GPR width."""
    if isinstance(v.width, int):
        return library.INTRINSICS["EXTZ"](comp, v)
    return _val(f"({v.code} & {hex((1 << comp.xlen) - 1)})", comp.xlen)


@helper("MASK32")
def _mask32(comp, x, y):
    """MASK(x + XLEN/2, y + XLEN/2)."""
    h = comp.xlen // 2
    return library.INTRINSICS["MASK"](comp, _val(f"({x.code} + {h})", None),
                                      _val(f"({y.code} + {h})", None))


# --- floating point: binary64 with round-to-nearest, FPSCR untouched --------

class _Scratch:
    """Machine state for an FP helper whose FPSCR effects are discarded:
    round to nearest, no exception enabled, no element-width override."""

    def __init__(self):
        self.fpscr = 0


@library.runtime()
def _op_fp(kind, a, b, c, bits, negate):
    """One openpower-isa FP helper: ``kind`` "add", "sub", "mul", "div" or
    "madd"/"msub"/"nmadd"/"nmsub" (a*c +- b, negated); ``bits`` 32 rounds the
    binary64 result again to single precision."""
    s = _Scratch()
    if kind == "div":
        r = fp_div(s, a, b, 64)
    elif kind in ("add", "sub"):
        r = fp_muladd(s, a, 0, b, kind == "sub", False, 64, has_product=False)
    elif kind == "mul":
        r = fp_muladd(s, a, c, 0, False, False, 64, has_addend=False)
    else:
        r = fp_muladd(s, a, c, b, kind in ("msub", "nmsub"), kind.startswith("n"), 64)
    if negate and kind in ("mul", "div"):
        r ^= 1 << 63
    if bits == 32:
        r = fp_round_single(s, r)
    return r


def _fp_helper(kind, bits):
    def gen(comp, a, b, sign=None):
        negate = sign is not None and _signed_const(sign) == -1
        if kind == "mul":  # FPMUL(FRA, FRC): the second operand is the product's
            return _val(f"_op_fp('mul', {a.code}, 0, {b.code}, {bits}, {negate})", 64)
        return _val(f"_op_fp({kind!r}, {a.code}, {b.code}, 0, {bits}, {negate})", 64)
    return gen


for _bits in (32, 64):
    for _kind in ("add", "sub", "mul", "div"):
        INTRINSICS[f"FP{_kind.upper()}{_bits}"] = _fp_helper(_kind, _bits)


def _fp_muladd_helper(bits):
    def gen(comp, a, c, b, mulsign, addsign):
        ms, ad = (_signed_const(x) for x in (mulsign, addsign))
        kinds = {(1, 1): "madd", (-1, 1): "nmsub", (1, -1): "msub", (-1, -1): "nmadd"}
        if (ms, ad) not in kinds:
            raise TypeError("FPMULADD's signs are 1 or -1")
        return _val(f"_op_fp({kinds[ms, ad]!r}, {a.code}, {b.code}, {c.code}, {bits}, False)",
                    64)
    return gen


def _signed_const(v):
    """A sign argument: the constant 1 or -1."""
    return _const(v, "a sign argument")


INTRINSICS["FPMULADD32"] = _fp_muladd_helper(32)
INTRINSICS["FPMULADD64"] = _fp_muladd_helper(64)


# --- fptrans: bfp32_NAME / bfp64_NAME ----------------------------------------
# helpers.py computes them with Python's math on the operands as floats
# ("FIXME: use proper implementation"), a binary32 result rounded to nearest
# from the binary64 one.  Where that raises (a domain or range error, 1/0),
# its simulator stops; here the IEEE default result is given instead: NaN for
# a domain error, an infinity for an overflow or a division by zero.

def _pi(f):
    return lambda x: f(x) / math.pi


_BFP = {
    "ATAN2PI": lambda a, b: math.atan2(a, b) / math.pi, "ATAN2": math.atan2,
    "HYPOT": math.hypot, "MOD": math.fmod, "REMAINDER": math.remainder,
    "POWR": pow, "POW": pow, "POWN": lambda a, n: pow(a, n),
    "ROOTN": lambda a, n: pow(a, 1 / n), "CBRT": lambda x: pow(x, 1 / 3),
    "SINPI": lambda x: math.sin(x * math.pi), "COSPI": lambda x: math.cos(x * math.pi),
    "TANPI": lambda x: math.tan(x * math.pi), "ASINPI": _pi(math.asin),
    "ACOSPI": _pi(math.acos), "ATANPI": _pi(math.atan),
    "RSQRT": lambda x: 1 / math.sqrt(x), "RECIP": lambda x: 1 / x,
    "SIN": math.sin, "COS": math.cos, "TAN": math.tan, "ASIN": math.asin,
    "ACOS": math.acos, "ATAN": math.atan, "SINH": math.sinh, "COSH": math.cosh,
    "TANH": math.tanh, "ASINH": math.asinh, "ACOSH": math.acosh, "ATANH": math.atanh,
    "EXP2M1": lambda x: pow(2, x) - 1, "LOG2P1": lambda x: math.log2(x + 1),
    "EXPM1": math.expm1, "LOGP1": math.log1p, "EXP10M1": lambda x: pow(10, x) - 1,
    "LOG10P1": lambda x: math.log10(x + 1), "EXP2": lambda x: pow(2, x),
    "LOG2": math.log2, "EXP": math.exp, "LOG": math.log, "EXP10": lambda x: pow(10, x),
    "LOG10": math.log10,
}
# the second operand of these is an integer (RB), taken as its unsigned value
_INTEGER_SECOND = ("POWN", "ROOTN")


@library.runtime()
def _op_bfp(name, bits, *args):
    fmt = "<f" if bits == 32 else "<d"
    # a 64-bit integer second operand (fpowns' RB) is not a float of ``bits``
    floats = args[:1] if name in _INTEGER_SECOND else args
    vals = [struct.unpack(fmt, a.to_bytes(bits // 8, "little"))[0] for a in floats]
    if name in _INTEGER_SECOND:
        vals.append(args[1])
    try:
        r = _BFP[name](*vals)
        if isinstance(r, complex):  # pow of a negative base to a fraction
            r = math.nan
    except ValueError:
        r = math.nan
    except ZeroDivisionError:
        r = math.copysign(math.inf, vals[0]) if name == "RECIP" else math.inf
    except OverflowError:
        r = math.inf
    try:
        return int.from_bytes(struct.pack(fmt, r), "little")
    except OverflowError:  # a finite binary64 beyond binary32's range
        return int.from_bytes(struct.pack(fmt, math.copysign(math.inf, r)), "little")


def _bfp_helper(name, bits):
    def gen(comp, *args):
        codes = ", ".join(a.code for a in args)
        return _val(f"_op_bfp({name!r}, {bits}, {codes})", bits)
    return gen


for _name in _BFP:
    for _bits in (32, 64):
        INTRINSICS[f"bfp{_bits}_{_name}"] = _bfp_helper(_name, _bits)
