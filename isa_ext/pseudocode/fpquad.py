"""Quad-precision helpers of the VSX pages (pseudocode/vector/vsx_quad.mdwn)
beyond the format-generic ones of fp.py (which take binary128 operands as
128-bit values: FPADD(a, b, 128, RO), FPCOMPARE, FPTOINT, FPCONVERT ...).

* ``FPROUNDQP(x, RMODE, EX, p)``: xsrqpi[x] (``p`` 0: to an integral value)
  and xsrqpxp (``p`` 64: to a 64-bit significand in quad's exponent range,
  the book's double-extended precision).  ``RMODE`` is R || RMC (3 bits):
  0b000 nearest, ties away from zero; 0b011 FPSCR.RN; 0b100 .. 0b111 nearest
  even, toward zero, +infinity, -infinity (0b001 and 0b010 are reserved: the
  page traps on them first).  An SNaN gives its quiet NaN with VXSNAN; FPRF
  is the result's class.  xsrqpi (EX=0) never reports inexact: XX, FI and FR
  are left as 0/unchanged as the book's RTL says (FR, FI cleared); xsrqpix
  (EX=1) sets XX and FI when the result is inexact.
* ``BFP_ISNAN(x)``, ``BFP_ISSNAN(x)``: 1-bit class tests of a 128-bit
  (binary128) or 64-bit (double) operand.
"""
from .fp import (DOUBLE_FMT, EXTENDED_FMT, QUAD_FMT, RN_MASK, RN_TIES_AWAY, _snan_flag,
                 finish, finite_parts, is_inf, is_nan, is_snan, is_zero, pack_exact, quiet,
                 round_to, rounds_up, _const_arg, _state_call)
from .library import intrinsic, runtime, _val

# R || RMC -> rounding mode (fp.RN_* values); None: reserved
_RMODES = {0b000: RN_TIES_AWAY, 0b011: None, 0b100: 0, 0b101: 1, 0b110: 2, 0b111: 3}


def _rmode(s, code):
    if code == 0b011:
        return s.fpscr & RN_MASK
    return _RMODES[code]


def fp_round_quad(s, b, code, report_inexact, precision, keep=False):
    """xsrqpi[x] (precision 0) / xsrqpxp (64): see the module's notes."""
    img = QUAD_FMT
    rn = _rmode(s, code)
    if is_nan(b, img):
        return finish(s, quiet(b, img), _snan_flag(b, img=img), False, keep=keep, img=img)
    if is_inf(b, img) or is_zero(b, img):
        return finish(s, b, 0, False, keep=keep, img=img)
    sign, m, e = finite_parts(b, img)
    if precision:  # a significand of ``precision`` bits, quad's exponent range
        result, flags, up = round_to(sign, m, e, False, EXTENDED_FMT, rn)
        return finish(s, result, flags, up, keep=keep, img=img)
    if e >= 0:
        return finish(s, b, 0, False, keep=keep, img=img)
    whole, rest = m >> -e, m & ((1 << -e) - 1)
    half = 1 << (-e - 1)
    up = rounds_up(rn, sign, whole & 1, rest >= half, bool(rest & (half - 1)))
    result = pack_exact(sign, whole + up, 0, img)
    if rest and report_inexact:
        from .fp import XX
        return finish(s, result, XX, up, keep=keep, img=img)
    return finish(s, result, 0, False, keep=keep, img=img)


runtime("_fp_round_quad")(fp_round_quad)


@intrinsic("FPROUNDQP")
def _i_fproundqp(comp, b, rmode, ex, precision):
    p = _const_arg(precision, "the precision")
    if p not in (0, 64):
        raise TypeError("the precision is 0 (to an integral value) or 64 (double-extended)")
    return _state_call(comp, (f"_fp_round_quad(s, {b.code}, {rmode.code}, "
                              f"bool({ex.code}), {p})"), 128)


def _image(v):
    if v.width not in (64, 128):
        raise TypeError("a binary128 (128-bit) or double (64-bit) operand")
    return QUAD_FMT if v.width == 128 else DOUBLE_FMT


runtime("_bfp_isnan")(lambda x, img: int(is_nan(x, img)))
runtime("_bfp_issnan")(lambda x, img: int(is_snan(x, img)))


@intrinsic("BFP_ISNAN")
def _i_isnan(comp, x):
    return _val(f"_bfp_isnan({x.code}, {'_fp_quad' if _image(x) is QUAD_FMT else '_fp_double'})", 1)


@intrinsic("BFP_ISSNAN")
def _i_issnan(comp, x):
    return _val(f"_bfp_issnan({x.code}, {'_fp_quad' if _image(x) is QUAD_FMT else '_fp_double'})", 1)
