"""Round to integral value, reciprocal estimates and the software-divide tests
of the scalar FP pages (Power ISA v3.1 Book I 4.6.6-4.6.8).

* ``FPROUNDINT(x, mode)``: frin (mode 0: to nearest, ties away from zero),
  friz (1: toward zero), frip (2: toward +infinity), frim (3: toward
  -infinity).  The result is an integral double; an SNaN gives its quiet NaN
  and VXSNAN; FR and FI are cleared and XX is never set (the book's "Special
  Registers Altered"); FPRF describes the result.
* ``FPRECIPEST(x, bits)`` / ``FPRSQRTEST(x, bits)``: fre(s) and frsqrte(s).
  The book only bounds an estimate's error (1/256 relative; 1/16384 with
  v2.06's bits); these return what QEMU 7.2 returns for every operand but a
  zero: the correctly rounded reciprocal (the reciprocal of the square root
  rounded to a double first, for the square-root estimate), rounded once to
  ``bits``.  A zero operand gives the book's infinity of its sign with ZX
  (QEMU writes 0.5 there).  The exceptions are those of the division (and
  square root): VXSNAN, ZX, VXSQRT, OX, UX, and XX with FI for an inexact
  result as QEMU reports them (the book leaves FR and FI undefined and does
  not list XX); FR is 0.
* ``FPTESTDIV(a, b)`` / ``FPTESTSQRT(b)``: ftdiv and ftsqrt's CR field
  ``0b1 || fg || fe || 0b0``; the exponents are the unbiased biased-exponent
  fields (a denormal's is -1023), as QEMU computes them.
"""
from types import SimpleNamespace

from .fp import (ENABLES, EXCEPTION_BITS, ZX, _bits_arg, _const_arg, _nan_result,
                 _snan_flag, _state_call, finish, finite_parts, fp_div, fp_sqrt, infinity,
                 is_inf, is_nan, is_zero, pack_exact, sign_of)
from .library import intrinsic, runtime, runtime_function

ONE = 0x3FF0000000000000
ALL_ENABLES = 0
for _bits, _enable in ENABLES:
    ALL_ENABLES |= _enable


def fp_round_int(s, b, mode, keep=False):
    """frin/friz/frip/frim: ``b`` rounded to an integral double under ``mode``."""
    if is_nan(b):
        return finish(s, _nan_result([b], 64), _snan_flag(b), False, keep=keep)
    if is_inf(b) or is_zero(b):
        return finish(s, b, 0, False, keep=keep)
    sign, m, e = finite_parts(b)
    if e >= 0:
        return finish(s, b, 0, False, keep=keep)
    whole, rest = m >> -e, m & ((1 << -e) - 1)
    if mode == 0:
        whole += rest >= 1 << (-e - 1)            # ties away from zero
    elif rest and mode == (3 if sign else 2):     # away from zero toward +/-inf
        whole += 1
    return finish(s, pack_exact(sign, whole, 0), 0, False, keep=keep)


def _shadow(s, helper, *args):
    """Run an arithmetic helper on a copy of the FPSCR with every exception
    disabled: (result, exception bits it raised)."""
    shadow = SimpleNamespace(fpscr=s.fpscr & ~ALL_ENABLES & ~EXCEPTION_BITS, msr=0)
    result = helper(shadow, *args)
    return result, shadow.fpscr & EXCEPTION_BITS


def fp_estimate(s, b, bits, rsqrt, keep=False):
    """fre(s)/frsqrte(s): see the module's notes."""
    if is_zero(b) and not is_nan(b):
        return finish(s, infinity(sign_of(b)), ZX, False, keep=keep)
    flags = 0
    if rsqrt:
        b, flags = _shadow(s, fp_sqrt, b, 64)
    result, more = _shadow(s, fp_div, ONE, b, bits)
    return finish(s, result, flags | more, False, keep=keep)


runtime("_fp_round_int")(fp_round_int)
runtime("_fp_estimate")(fp_estimate)


@intrinsic("FPROUNDINT")
def _i_fproundint(comp, b, mode):
    m = _const_arg(mode, "the rounding mode")
    if m not in (0, 1, 2, 3):
        raise TypeError("the rounding mode is 0 (nearest, ties away), 1 (zero), 2 (+inf), 3 (-inf)")
    return _state_call(comp, f"_fp_round_int(s, {b.code}, {m})", 64)


@intrinsic("FPRECIPEST")
def _i_fprecipest(comp, b, bits):
    return _state_call(comp, f"_fp_estimate(s, {b.code}, {_bits_arg(bits)}, False)", 64)


@intrinsic("FPRSQRTEST")
def _i_fprsqrtest(comp, b, bits):
    return _state_call(comp, f"_fp_estimate(s, {b.code}, {_bits_arg(bits)}, True)", 64)


def _exponent(x):
    return ((x >> 52) & 0x7FF) - 1023


def _denormal(x):
    return (x >> 52) & 0x7FF == 0 and not is_zero(x)


def test_div(a, b):
    """ftdiv's CR field: fe when a divide a/b needs the full software path."""
    ea, eb = _exponent(a), _exponent(b)
    fe = (is_nan(a) or is_inf(a) or is_nan(b) or is_inf(b) or is_zero(b)
          or eb <= -1022 or eb >= 1021
          or (not is_zero(a) and (ea - eb >= 1023 or ea - eb <= -1021 or ea <= -970)))
    fg = is_inf(a) or is_inf(b) or is_zero(b) or _denormal(b)
    return 0b1000 | (fg << 2) | (fe << 1)


def test_sqrt(b):
    """ftsqrt's CR field."""
    fe = (is_nan(b) or is_inf(b) or is_zero(b) or sign_of(b) == 1
          or _exponent(b) <= -970)
    fg = is_inf(b) or is_zero(b) or _denormal(b)
    return 0b1000 | (fg << 2) | (fe << 1)


runtime_function("FPTESTDIV", 4, "_fp_test_div")(test_div)
runtime_function("FPTESTSQRT", 4, "_fp_test_sqrt")(test_sqrt)
