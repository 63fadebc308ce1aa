"""Correctly rounded transcendental functions for libre-soc's draft fptrans
pages (openpower-isa ``openpower/isa/fptrans.mdwn``): the IEEE 754-2019
section 9.2 recommended operations (sin ... atan2pi, exp ... log10p1, pow,
pown, powr, rootn, hypot, rsqrt) plus cbrt, recip, fmod and remainder.

A page writes ``FRT <- FPSIN((FRB), 64)``: one intrinsic per function, named
``FP`` + the page's function name (bfp64_SIN -> FPSIN), its last argument the
result precision.  Every function is a row of :data:`FUNCTIONS`: its operand
kinds, its special values (zeros, infinities, domain errors, poles; IEEE 754
9.2.1 wording) and an arbitrary-precision evaluator (mpmath's ``libmp``, whose
functions take the precision as an argument, so no context is shared).

Rounding: a finite result is evaluated at P bits, P = 3 * precision + 64 plus
twice the operands' largest binary exponent (so that x - sin(x) for the
tiniest x still shows), with mpmath's error well under 2**(16-P) relative.
If the value lies farther than that bound from every rounding boundary (the
multiples of half an ulp of the target format) it rounds as the true result
would; otherwise it is taken to BE that boundary point: an exact result (no XX),
or an exact tie.  Exact results are common (pow(2, 3), hypot(3, 4), log2(8));
a transcendental value that close to a boundary without being on it would need
a worst case beyond the known ones (under 2**-120 relative for doubles).

Exceptions: an SNaN operand sets VXSNAN; a domain error (IEEE invalid
operation: log(-1), asin(2), sin(inf), powr(0, 0) ...) gives the default QNaN
and sets VXSQRT, the ISA's invalid-operand bit for fsqrt/frsqrte (the page
names no bit of its own: docs/fptrans.md); a pole (log(0), atanh(1), 1/0 ...)
gives an infinity and sets ZX, as fdiv does.  VE=1 / ZE=1 leave FRT unchanged.
"""
import sys

from . import fp as F
from .fp import (DEFAULT_QNAN, RN_MASK, VXSQRT, ZX, finish, finite_parts,
                 infinity, is_inf, is_nan, is_snan, is_zero, op_fmt, quiet, round_enabled,
                 sign_of, to_single_nan)
from .library import intrinsic, runtime


class _LazyLibmp:
    """mpmath's ``libmp``, imported at its first use (45 ms of every start-up
    otherwise, for the transcendental pages alone).  The function table below
    names its functions at import: those forward to the module when called."""

    def __getattr__(self, name):
        if name.startswith("mpf_") and "mpmath.libmp" not in sys.modules:
            return lambda *args: getattr(_libmp(), name)(*args)
        return getattr(_libmp(), name)


def _libmp():
    global L
    from mpmath import libmp
    L = libmp   # (from now on the module itself)
    return libmp


L = _LazyLibmp()


def Fraction(*args):  # noqa: N802 (the class, once imported)
    """fractions.Fraction, imported at the first use (with decimal, 2 ms of
    every start-up otherwise); the name is the class from then on."""
    global Fraction
    from fractions import Fraction
    return Fraction(*args)

RND = "n"   # mpmath's libmp.round_nearest
# mpmath's result is within a few of its own ulps; this many bits of it are trusted
TRUSTED_LOSS = 16
# a result of magnitude beyond 2**HUGE overflows every format; below 2**-HUGE underflows
HUGE = 1 << 14


class Operand:
    """A decoded FP operand: kind 'nan', 'inf', 'zero' or 'fin', its sign, and
    for a finite one its exact value (a Fraction) and libmp number."""
    __slots__ = ("kind", "sign", "value", "mpf", "top")

    def __init__(self, image):
        self.sign = sign_of(image)
        self.value = self.mpf = None
        self.top = 0
        if is_nan(image):
            self.kind = "nan"
        elif is_inf(image):
            self.kind = "inf"
        elif is_zero(image):
            self.kind = "zero"
            self.mpf = L.fzero   # hypot(0, y) evaluates with it
        else:
            self.kind = "fin"
            sign, m, e = finite_parts(image)
            self.value = Fraction(-m if sign else m) * Fraction(2) ** e
            self.mpf = L.from_man_exp(-m if sign else m, e)
            self.top = m.bit_length() - 1 + e

    @property
    def finite(self):
        return self.kind in ("fin", "zero")

    def num(self):
        """The exact value of a finite operand (0 for a zero)."""
        return self.value if self.kind == "fin" else Fraction(0)


# --- outcomes of the special-value rules ------------------------------------------

INVALID = ("invalid",)


def pole(sign):
    return ("pole", sign)


def exact(value, sign=None):
    """An exact result: ``value`` (a number, or 'inf'); ``sign`` for a zero or
    an infinity (1 = negative)."""
    return ("exact", value, sign)


def constant(fn, sign=0):
    """A result that is a constant to evaluate (atan(inf) = pi/2): ``fn(prec)``."""
    return ("eval", lambda prec: fn(prec), sign)


def _is_int(q):
    return q.denominator == 1


def _is_odd_int(q):
    return q.denominator == 1 and q.numerator % 2 == 1


def _half_pi(prec):
    return L.mpf_shift(L.mpf_pi(prec), -1)


def _div(a, b, prec):
    return L.mpf_div(a, b, prec, RND)


# --- special values, per function (x, y: Operand; n: int) -------------------------
# Each returns None when the operand is an ordinary finite one for the evaluator.

def _odd_through_zero(x):
    """sin, tan, asinh, ...: f(+-0) = +-0, else evaluate."""
    return exact(0, x.sign) if x.kind == "zero" else None


def _sp_sin(x):
    return INVALID if x.kind == "inf" else _odd_through_zero(x)


def _sp_cos(x):
    if x.kind == "inf":
        return INVALID
    return exact(1) if x.kind == "zero" else None


def _sp_asin(x):
    if x.kind == "inf" or (x.kind == "fin" and abs(x.value) > 1):
        return INVALID
    return _odd_through_zero(x)


def _sp_acos(x):
    if x.kind == "inf" or (x.kind == "fin" and abs(x.value) > 1):
        return INVALID
    if x.kind == "fin" and x.value == 1:
        return exact(0, 0)
    return None


def _sp_atan(x):
    if x.kind == "inf":
        return constant(_half_pi, x.sign)
    return _odd_through_zero(x)


def _sp_sinpi(x):
    if x.kind == "inf":
        return INVALID
    if x.kind == "zero":
        return exact(0, x.sign)
    if _is_int(x.value):
        return exact(0, x.sign)   # sinPi(+n) = +0, sinPi(-n) = -0
    if _is_int(2 * x.value):      # n + 1/2: +-1
        k = int(x.value - Fraction(1, 2))  # floor for the half-integer
        return exact(-1 if k % 2 else 1)
    return None


def _sp_cospi(x):
    if x.kind == "inf":
        return INVALID
    if x.kind == "zero":
        return exact(1)
    if _is_int(x.value):
        return exact(-1 if x.value.numerator % 2 else 1)
    if _is_int(2 * x.value):
        return exact(0, 0)        # cosPi(n + 1/2) = +0
    return None


def _sp_tanpi(x):
    if x.kind == "inf":
        return INVALID
    if x.kind == "zero":
        return exact(0, x.sign)
    if _is_int(x.value):
        # +0 for positive even and negative odd n, -0 for negative even and positive odd
        return exact(0, x.sign ^ (x.value.numerator % 2))
    if _is_int(2 * x.value):      # n + 1/2: +inf for even n, -inf for odd n
        k = (x.value - Fraction(1, 2)).numerator
        return pole(k % 2)
    return None


def _sp_asinpi(x):
    return _sp_asin(x)


def _sp_acospi(x):
    return _sp_acos(x)


def _sp_atanpi(x):
    if x.kind == "inf":
        return exact(Fraction(-1 if x.sign else 1, 2))
    return _odd_through_zero(x)


def _sp_sinh(x):
    if x.kind == "inf":
        return exact("inf", x.sign)
    if x.kind == "fin" and x.top > 14:
        return ("huge", x.sign)
    return _odd_through_zero(x)


def _sp_cosh(x):
    if x.kind == "inf":
        return exact("inf", 0)
    if x.kind == "zero":
        return exact(1)
    if x.top > 14:
        return ("huge", 0)
    return None


def _sp_tanh(x):
    if x.kind == "inf":
        return exact(-1 if x.sign else 1)
    if x.kind == "fin" and x.top > 14:
        return ("near_one", x.sign)
    return _odd_through_zero(x)


def _sp_asinh(x):
    if x.kind == "inf":
        return exact("inf", x.sign)
    return _odd_through_zero(x)


def _sp_acosh(x):
    if (x.kind == "inf" and x.sign) or (x.finite and x.num() < 1):
        return INVALID
    if x.kind == "inf":
        return exact("inf", 0)
    if x.value == 1:
        return exact(0, 0)
    return None


def _sp_atanh(x):
    if x.kind == "inf" or (x.kind == "fin" and abs(x.value) > 1):
        return INVALID
    if x.kind == "fin" and abs(x.value) == 1:
        return pole(x.sign)
    return _odd_through_zero(x)


def _sp_exp(x):
    if x.kind == "inf":
        return exact(0, 0) if x.sign else exact("inf", 0)
    if x.kind == "zero":
        return exact(1)
    if x.top > 14:
        return ("tiny", 0) if x.sign else ("huge", 0)
    return None


def _sp_expm1(x):
    if x.kind == "inf":
        return exact(-1) if x.sign else exact("inf", 0)
    if x.kind == "zero":
        return exact(0, x.sign)
    if x.top > 14:
        return ("minus_one", 1) if x.sign else ("huge", 0)
    return None


def _sp_log(x):
    if x.kind == "nan":
        return None
    if x.kind == "zero":
        return pole(1)
    if x.sign:
        return INVALID
    if x.kind == "inf":
        return exact("inf", 0)
    if x.value == 1:
        return exact(0, 0)
    return None


def _sp_logp1(x):
    if x.kind == "zero":
        return exact(0, x.sign)
    if x.kind == "inf":
        return INVALID if x.sign else exact("inf", 0)
    if x.value == -1:
        return pole(1)
    if x.value < -1:
        return INVALID
    return None


def _sp_rsqrt(x):
    if x.kind == "zero":
        return pole(x.sign)
    if x.sign:
        return INVALID
    if x.kind == "inf":
        return exact(0, 0)
    return None


def _sp_cbrt(x):
    if x.kind in ("zero", "inf"):
        return exact(0 if x.kind == "zero" else "inf", x.sign)
    return None


def _sp_recip(x):
    if x.kind == "zero":
        return pole(x.sign)
    if x.kind == "inf":
        return exact(0, x.sign)
    return exact(1 / x.value)   # a rational: rounded exactly


def _sp_atan2(y, x, unit):
    """atan2 / atan2pi (unit: the value of pi, pi or 1): IEEE 754 9.2.1."""
    def mult(k, sign):     # k * unit / 4 with the sign
        if unit == "pi":
            return constant(lambda p: L.mpf_shift(L.mpf_mul(L.from_int(k), L.mpf_pi(p), p, RND),
                                                  -2), sign)
        return exact(Fraction(-k if sign else k, 4))
    if y.kind == "zero":
        if x.sign:        # atan2(+-0, -0 or x < 0) = +-pi
            return mult(4, y.sign)
        return exact(0, y.sign)
    if y.kind == "inf":
        if x.kind == "inf":
            return mult(1 if not x.sign else 3, y.sign)
        return mult(2, y.sign)
    if x.kind == "zero":
        return mult(2, y.sign)
    if x.kind == "inf":
        return mult(4, y.sign) if x.sign else exact(0, y.sign)
    return None


def _sp_hypot(x, y):
    if x.kind == "inf" or y.kind == "inf":
        return exact("inf", 0)   # even with a quiet NaN (checked before NaNs)
    if x.kind == "zero" and y.kind == "zero":
        return exact(0, 0)
    return None


def _pow_sign(x, y):
    """The sign of pow(x, y) for x < 0 and an odd integer y."""
    return x.sign if y.kind == "fin" and _is_odd_int(y.value) else 0


def _sp_pow(x, y):
    if y.kind == "zero":
        return exact(1)
    if x.kind == "fin" and x.value == 1:
        return exact(1)
    if x.kind == "zero":
        s = _pow_sign(x, y)
        if y.kind == "inf":
            return exact(0, 0) if not y.sign else exact("inf", 0)
        return pole(s) if y.sign else exact(0, s)
    if y.kind == "inf":
        mag = abs(x.value) if x.kind == "fin" else None
        if mag == 1:
            return exact(1)
        bigger = x.kind == "inf" or mag > 1
        return exact("inf", 0) if bigger != bool(y.sign) else exact(0, 0)
    if x.kind == "inf":
        s = _pow_sign(x, y)
        return exact(0, s) if y.sign else exact("inf", s)
    if x.sign and not _is_int(y.value):
        return INVALID
    return _huge_or_tiny(x, y.value, _pow_sign(x, y))


def _huge_or_tiny(x, power, sign):
    """|x| ** power certainly out of every format's range: ('huge' | 'tiny', sign)."""
    import math
    magnitude = float(power) * math.log2(abs(float(x.value))) if abs(x.top) < 1000 else \
        float(power) * x.top
    if magnitude > HUGE:
        return ("huge", sign)
    if magnitude < -HUGE:
        return ("tiny", sign)
    return None


def _sp_powr(x, y):
    if x.sign and x.kind != "zero":
        return INVALID
    if x.kind == "zero":
        if y.kind == "zero":
            return INVALID
        return (pole(0) if y.kind == "fin" else exact("inf", 0)) if y.sign else exact(0, 0)
    if x.kind == "inf":
        if y.kind == "zero":
            return INVALID
        return exact(0, 0) if y.sign else exact("inf", 0)
    if x.value == 1:
        return INVALID if y.kind == "inf" else exact(1)
    if y.kind == "zero":
        return exact(1)
    if y.kind == "inf":
        return exact("inf", 0) if (x.value > 1) != bool(y.sign) else exact(0, 0)
    return _huge_or_tiny(x, y.value, 0)


def _sp_pown(x, n):
    if n == 0:
        return exact(1)
    s = x.sign if n % 2 else 0
    if x.kind == "zero":
        return pole(s) if n < 0 else exact(0, s)
    if x.kind == "inf":
        return exact(0, s) if n < 0 else exact("inf", s)
    return _huge_or_tiny(x, n, s)


def _sp_rootn(x, n):
    if n == 0:
        return INVALID
    odd = n % 2
    if x.sign and not odd and x.kind != "zero":
        return INVALID
    s = x.sign if odd else 0
    if x.kind == "zero":
        return pole(s) if n < 0 else exact(0, s)
    if x.kind == "inf":
        return exact(0, s) if n < 0 else exact("inf", s)
    return None


def _sp_mod(x, y, nearest):
    """fmod (quotient truncated) / remainder (quotient rounded to even): exact."""
    if x.kind == "inf" or y.kind == "zero":
        return INVALID
    if x.kind == "zero" or y.kind == "inf":
        return exact(x.num(), x.sign) if x.kind == "fin" else exact(0, x.sign)
    q = x.value / y.value
    k = int(q)                      # truncated
    if nearest:
        k = round(q)                # Python rounds halves to even
    r = x.value - k * y.value
    return exact(r, x.sign) if r == 0 else exact(r)


# --- evaluators (finite, in-domain operands; libmp numbers, precision p) -------------

def _ln2(p):
    return L.mpf_ln2(p)


def _ln10(p):
    return L.mpf_ln10(p)


def _expm1(a, p):
    # exp(a) - 1 loses top(a) bits to cancellation for small a: P covers it
    return L.mpf_sub(L.mpf_exp(a, p + 8, RND), L.fone, p, RND)


def _log1p(a, p):
    return L.mpf_log(L.mpf_add(a, L.fone), p, RND)   # 1 + a exactly (no precision)


def _scaled(fn, k):
    """fn(a * k(p)) for exp2/exp10 and friends."""
    # |a| < 2**14 here: 32 more bits keep a * k's error under the result's ulp
    return lambda a, p: fn(L.mpf_mul(a, k(p + 32), p + 32, RND), p)


def _over(fn, k):
    """fn(a) / k(p) for log2, asinpi and friends."""
    return lambda a, p: _div(fn(a, p + 8), k(p + 8), p)


def _pi(p):
    return L.mpf_pi(p)


def _tanpi(a, p):
    return _div(L.mpf_sin_pi(a, p + 8), L.mpf_cos_pi(a, p + 8), p)


def _pow(a, b, p):
    """|a| ** b, negated for a < 0 and an odd integer b (a normalised libmp
    number has an odd mantissa: an odd integer is one with exponent 0); a < 0
    reaches here only with an integer b."""
    r = L.mpf_pow(L.mpf_abs(a), b, p, RND)
    return L.mpf_neg(r) if L.mpf_sign(a) < 0 and b[2] == 0 else r


def _pown(a, n, p):
    return L.mpf_pow_int(a, n, p, RND)


def _rootn(a, n, p):
    root = L.mpf_nthroot(L.mpf_abs(a), abs(n), p + 8, RND)
    if n < 0:
        root = _div(L.fone, root, p)
    return L.mpf_neg(root) if L.mpf_sign(a) < 0 else root


def _hypot(a, b, p):
    return L.mpf_hypot(a, b, p, RND)


def _rsqrt(a, p):
    return _div(L.fone, L.mpf_sqrt(a, p + 8, RND), p)


def _atan2pi(a, b, p):
    return _div(L.mpf_atan2(a, b, p + 8, RND), L.mpf_pi(p + 8), p)


def _unary(fn):
    return lambda a, p: fn(a, p, RND)


def _odd(fn):
    """f(-a) = -f(a), for a libmp function defined on a >= 0 only (cbrt)."""
    return lambda a, p: L.mpf_neg(fn(L.mpf_neg(a), p)) if L.mpf_sign(a) < 0 else fn(a, p)


# name: (operand kinds ("f" an FPR value, "i" a 64-bit signed integer),
#        special-value rule, evaluator)
FUNCTIONS = {
    "SIN": ("f", _sp_sin, _unary(L.mpf_sin)),
    "COS": ("f", _sp_cos, _unary(L.mpf_cos)),
    "TAN": ("f", _sp_sin, _unary(L.mpf_tan)),
    "ASIN": ("f", _sp_asin, _unary(L.mpf_asin)),
    "ACOS": ("f", _sp_acos, _unary(L.mpf_acos)),
    "ATAN": ("f", _sp_atan, _unary(L.mpf_atan)),
    "SINPI": ("f", _sp_sinpi, _unary(L.mpf_sin_pi)),
    "COSPI": ("f", _sp_cospi, _unary(L.mpf_cos_pi)),
    "TANPI": ("f", _sp_tanpi, _tanpi),
    "ASINPI": ("f", _sp_asinpi, _over(_unary(L.mpf_asin), _pi)),
    "ACOSPI": ("f", _sp_acospi, _over(_unary(L.mpf_acos), _pi)),
    "ATANPI": ("f", _sp_atanpi, _over(_unary(L.mpf_atan), _pi)),
    "SINH": ("f", _sp_sinh, _unary(L.mpf_sinh)),
    "COSH": ("f", _sp_cosh, _unary(L.mpf_cosh)),
    "TANH": ("f", _sp_tanh, _unary(L.mpf_tanh)),
    "ASINH": ("f", _sp_asinh, _unary(L.mpf_asinh)),
    "ACOSH": ("f", _sp_acosh, _unary(L.mpf_acosh)),
    "ATANH": ("f", _sp_atanh, _unary(L.mpf_atanh)),
    "EXP": ("f", _sp_exp, _unary(L.mpf_exp)),
    "EXPM1": ("f", _sp_expm1, _expm1),
    "EXP2": ("f", _sp_exp, _scaled(_unary(L.mpf_exp), _ln2)),
    "EXP2M1": ("f", _sp_expm1, _scaled(_expm1, _ln2)),
    "EXP10": ("f", _sp_exp, _scaled(_unary(L.mpf_exp), _ln10)),
    "EXP10M1": ("f", _sp_expm1, _scaled(_expm1, _ln10)),
    "LOG": ("f", _sp_log, _unary(L.mpf_log)),
    "LOGP1": ("f", _sp_logp1, _log1p),
    "LOG2": ("f", _sp_log, _over(_unary(L.mpf_log), _ln2)),
    "LOG2P1": ("f", _sp_logp1, _over(_log1p, _ln2)),
    "LOG10": ("f", _sp_log, _over(_unary(L.mpf_log), _ln10)),
    "LOG10P1": ("f", _sp_logp1, _over(_log1p, _ln10)),
    "RSQRT": ("f", _sp_rsqrt, _rsqrt),
    "CBRT": ("f", _sp_cbrt, _odd(_unary(L.mpf_cbrt))),
    "RECIP": ("f", _sp_recip, None),
    "ATAN2": ("ff", lambda y, x: _sp_atan2(y, x, "pi"),
              lambda a, b, p: L.mpf_atan2(a, b, p, RND)),
    "ATAN2PI": ("ff", lambda y, x: _sp_atan2(y, x, 1), _atan2pi),
    "HYPOT": ("ff", _sp_hypot, _hypot),
    "POW": ("ff", _sp_pow, _pow),
    "POWR": ("ff", _sp_powr, _pow),
    "POWN": ("fi", _sp_pown, _pown),
    "ROOTN": ("fi", _sp_rootn, _rootn),
    "MOD": ("ff", lambda x, y: _sp_mod(x, y, False), None),
    "REMAINDER": ("ff", lambda x, y: _sp_mod(x, y, True), None),
}

# special rules that hold even for a quiet NaN operand (IEEE 754 9.2.1:
# hypot(inf, qNaN) = +inf, pow(x, +-0) = 1, pow(+1, y) = 1, pown(x, 0) = 1)
QUIET_NAN_RULES = {"HYPOT", "POW", "POWN"}


# --- the operation ----------------------------------------------------------------------

def fp_trans(s, name, bits, *operands, keep=False):
    """FRT image of function ``name`` of the operand images (an "i" operand:
    a 64-bit two's-complement integer), rounded to ``bits`` precision under
    FPSCR[RN], recording the FPSCR effects."""
    kinds, special, evaluate = FUNCTIONS[name]
    rn = s.fpscr & RN_MASK
    fmt = op_fmt(s, bits)
    fps = [x for x, k in zip(operands, kinds) if k == "f"]
    args = [Operand(x) if k == "f" else (x - (1 << 64) if x >> 63 else x)
            for x, k in zip(operands, kinds)]
    snan = F.VXSNAN if any(is_snan(x) for x in fps) else 0
    nans = [x for x in fps if is_nan(x)]
    outcome = None
    if nans and not snan and name in QUIET_NAN_RULES:
        outcome = _quiet_nan_rule(name, args)
    if nans and outcome is None:
        r = quiet(nans[0])
        return finish(s, to_single_nan(r) if bits == 32 else r, snan, False, keep=keep)
    if outcome is None:
        outcome = special(*args)
    if outcome is None:
        outcome = ("eval", None, 0)
    result, flags, up = _resolve(s, outcome, evaluate, args, fmt, rn)
    return finish(s, result, flags, up, keep=keep)


def _quiet_nan_rule(name, args):
    if name == "HYPOT":
        return _sp_hypot(*args) if any(a.kind == "inf" for a in args) else None
    if name == "POWN":
        return exact(1) if args[1] == 0 else None
    x, y = args
    if y.kind == "zero" or (x.kind == "fin" and x.value == 1):
        return exact(1)
    return None


def _resolve(s, outcome, evaluate, args, fmt, rn):
    kind = outcome[0]
    if kind == "invalid":
        return DEFAULT_QNAN, VXSQRT, False
    if kind == "pole":
        return infinity(outcome[1]), ZX, False
    if kind == "exact":
        value, sign = outcome[1], outcome[2]
        if value == "inf":
            return infinity(sign), 0, False
        q = Fraction(value)
        if q == 0:
            return sign << 63, 0, False
        return _round_fraction(s, q, fmt, rn)
    if kind == "huge":   # beyond every format: overflows under any rounding mode
        return round_enabled(s, outcome[1], 1, HUGE + 2, True, fmt, rn)
    if kind == "tiny":
        return round_enabled(s, outcome[1], 1, -HUGE - 2, True, fmt, rn)
    if kind in ("near_one", "minus_one"):  # -1 < result < -1 + 2**-HUGE (or toward +1)
        return round_enabled(s, outcome[1], (1 << HUGE) - 1, -HUGE, True, fmt, rn)
    fn, sign = outcome[1], outcome[2]
    prec = _working_precision(fmt, args)
    if fn is not None:
        v = fn(prec)
        if sign:
            v = L.mpf_neg(v)
    else:
        try:
            v = evaluate(*[a.mpf if isinstance(a, Operand) else a for a in args], prec)
        except (ValueError, ArithmeticError) as e:  # a special-value rule missed a case
            from ..errors import Trap
            raise Trap(f"fptrans: no value for these operands ({e}); "
                       "a special-value rule is missing", "illegal") from None
    return _round_mpf(s, v, prec, fmt, rn)


def _working_precision(fmt, args):
    extra = 0
    for a in args:
        if isinstance(a, Operand):
            extra = max(extra, 2 * abs(a.top))
        else:
            extra = max(extra, a.bit_length())
    return 3 * fmt.precision + 64 + min(extra, 4400)


def _round_fraction(s, q, fmt, rn):
    sign = 1 if q < 0 else 0
    q = abs(q)
    num, den = q.numerator, q.denominator
    if den & (den - 1) == 0:   # dyadic: exact bits
        return round_enabled(s, sign, num, -(den.bit_length() - 1), False, fmt, rn)
    extra = fmt.precision + 3 + den.bit_length() - num.bit_length() + 1
    extra = max(extra, 0)
    m, r = divmod(num << extra, den)
    return round_enabled(s, sign, m, -extra, r != 0, fmt, rn)


def _round_mpf(s, v, prec, fmt, rn):
    """Round an approximation ``v`` (libmp, within 2**(TRUSTED_LOSS - prec)
    relative of the true value): snapped to a half-ulp boundary point when
    that close to one (see the module docstring)."""
    neg, man, exp, bc = v
    if not man:
        return 0, 0, False
    sign = 1 if neg else 0
    top = bc - 1 + exp
    h = max(top, fmt.emin) - (fmt.precision - 1) - 1   # half an ulp of the result
    tol_exp = top + 1 - (prec - TRUSTED_LOSS)
    e0 = min(exp, h, tol_exp)
    m = man << (exp - e0)
    unit = 1 << (h - e0)
    k = (m + unit // 2) // unit
    if abs(m - k * unit) <= 1 << (tol_exp - e0):
        if k == 0:
            return sign << 63, 0, False
        return round_enabled(s, sign, k, h, False, fmt, rn)
    return round_enabled(s, sign, man, exp, False, fmt, rn)


runtime("_fp_trans")(fp_trans)


def _i_trans(name):
    def gen(comp, *args):
        from .fp import _bits_arg, _state_call
        kinds = FUNCTIONS[name][0]
        if len(args) != len(kinds) + 1:
            raise TypeError(f"FP{name} takes {len(kinds)} operand(s) and the precision")
        operands = ", ".join(a.code for a in args[:-1])
        comp.calls_transcendental = True  # (PageCompiler's fptrans_fpscr)
        return _state_call(comp, f"_fp_trans(s, {name!r}, {_bits_arg(args[-1])}, {operands})",
                           64)
    return gen


for _name in FUNCTIONS:
    intrinsic("FP" + _name)(_i_trans(_name))
