"""Vector Facility (VMX) floating point: single-precision word elements
(Power ISA v3.1 Book I 6.13).

VMX arithmetic rounds to nearest even whatever FPSCR.RN says, records no
exception anywhere and never touches the FPSCR.  VSCR.NJ=1 (non-Java mode)
treats a denormal operand as a zero of its sign and delivers a result that
is tiny before rounding as a zero of its sign; NJ=0 (Java mode) follows IEEE
754.  Each helper runs the scalar helpers of fp.py on a scratch FPSCR (RN=0,
nothing enabled), so their NaN rules apply: the first NaN operand (VRA, VRB,
VRC) quieted; an invalid operation gives 0x7FC00000.

The estimates (vrefp, vrsqrtefp, vexptefp, vlogefp) are implementation
specific: the book only bounds their error.  These return what QEMU 7.2
returns: 1/x and 1/sqrt(x) each step rounded to single precision; 2**x and
log2(x) as QEMU's softfloat float32_exp2 and float32_log2 compute them.
"""
from types import SimpleNamespace

from . import fp
from .fp import (DOUBLE_FMT, SINGLE_FMT, UX, double_to_single, finite_parts, is_inf,
                 is_nan, is_zero, pack_exact, round_to, sign_of, single_to_double)
from .library import intrinsic, runtime, _val

VSCR_NJ, VSCR_SAT = 0x10000, 1
DEFAULT_NAN = 0x7FC00000
ONE = 0x3F800000


def _scratch():
    return SimpleNamespace(fpscr=0, msr=0)


def _denormal(w):
    return (w >> 23) & 0xFF == 0 and w & 0x7FFFFF != 0


def _operand(s, w):
    """A word operand as a double, a denormal flushed to zero under NJ=1."""
    if s.vscr & VSCR_NJ and _denormal(w):
        w &= 0x80000000
    return single_to_double(w)


def _result(s, scratch, x):
    """The single image of a helper's rounded double result; under NJ=1 a
    result tiny before rounding (denormal, or flagged UX) becomes zero."""
    w = double_to_single(x)
    if s.vscr & VSCR_NJ and not is_nan(x) and (_denormal(w) or scratch.fpscr & UX):
        return w & 0x80000000
    return w


def _arith(s, helper, *args):
    scratch = _scratch()
    return _result(s, scratch, helper(scratch, *args))


def vmx_add(s, a, b):
    return _arith(s, lambda t, x, y: fp.fp_muladd(t, x, 0, y, False, False, 32, False),
                  _operand(s, a), _operand(s, b))


def vmx_sub(s, a, b):
    return _arith(s, lambda t, x, y: fp.fp_muladd(t, x, 0, y, True, False, 32, False),
                  _operand(s, a), _operand(s, b))


def vmx_madd(s, a, c, b):
    """vmaddfp: a*c + b rounded once."""
    return _arith(s, lambda t, x, z, y: fp.fp_muladd(t, x, z, y, False, False, 32),
                  _operand(s, a), _operand(s, c), _operand(s, b))


def vmx_nmsub(s, a, c, b):
    """vnmsubfp: -(a*c - b) rounded once (a NaN result is not negated)."""
    return _arith(s, lambda t, x, z, y: fp.fp_muladd(t, x, z, y, True, True, 32),
                  _operand(s, a), _operand(s, c), _operand(s, b))


def _order_key(x):
    mag = x & ~fp.SIGN64 & fp.M64
    return -mag - 1 if sign_of(x) else mag


def vmx_max_min(s, a, b, is_max):
    """vmaxfp/vminfp: the larger/smaller (+0 above -0); a NaN operand gives
    the first NaN, quieted."""
    x, y = _operand(s, a), _operand(s, b)
    if is_nan(x) or is_nan(y):
        return double_to_single(fp.quiet(x if is_nan(x) else y))
    kx, ky = _order_key(x), _order_key(y)
    pick = x if (kx >= ky if is_max else kx <= ky) else y
    return double_to_single(pick)


def vmx_round_int(s, b, mode):
    """vrfin (0: nearest even), vrfiz (1), vrfip (2), vrfim (3)."""
    x = _operand(s, b)
    if is_nan(x):
        return double_to_single(fp.quiet(x))
    if is_inf(x) or is_zero(x):
        return double_to_single(x)
    sign, m, e = finite_parts(x)
    if e >= 0:
        return double_to_single(x)
    whole, rest = m >> -e, m & ((1 << -e) - 1)
    half = 1 << (-e - 1)
    rn = (fp.RN_NEAREST, fp.RN_ZERO, fp.RN_UP, fp.RN_DOWN)[mode]
    whole += fp.rounds_up(rn, sign, whole & 1, rest >= half, bool(rest & (half - 1)))
    return double_to_single(pack_exact(sign, whole, 0))


def vmx_estimate(s, b, rsqrt):
    """vrefp / vrsqrtefp: (the square root, then) 1/x, each rounded to single."""
    scratch = _scratch()
    x = _operand(s, b)
    if rsqrt:
        x = fp.fp_sqrt(scratch, x, 32)
        x = single_to_double(_result(s, scratch, x))
    return _result(s, scratch, fp.fp_div(scratch, 0x3FF0000000000000, x, 32))


def vmx_from_int(s, b, is_signed, uim):
    """vcfsx / vcfux: the word as an integer, divided by 2**UIM, rounded."""
    v = b - (1 << 32) if is_signed and b >> 31 else b
    x, _flags, _up = round_to(1 if v < 0 else 0, abs(v), -uim, False, SINGLE_FMT,
                              fp.RN_NEAREST)
    return double_to_single(x)


def vmx_to_int_sat(s, b, is_signed, uim):
    """vctsxs / vctuxs: the element times 2**UIM, truncated, saturated to a
    word (VSCR.SAT when saturated); a NaN converts to 0."""
    x = _operand(s, b)
    lo, hi = (-(1 << 31), (1 << 31) - 1) if is_signed else (0, (1 << 32) - 1)
    if is_nan(x):
        return 0
    if is_inf(x):
        v = lo if sign_of(x) else hi
        s.vscr |= VSCR_SAT
        return v & 0xFFFFFFFF
    sign, m, e = finite_parts(x)
    e += uim
    mag = m << e if e >= 0 else m >> -e
    v = -mag if sign else mag
    if v < lo or v > hi:
        v = lo if v < lo else hi
        s.vscr |= VSCR_SAT
    return v & 0xFFFFFFFF


def vmx_compare(s, a, b):
    """The 4-bit LT GT EQ UN code of two elements (NJ flushing applied)."""
    x, y = _operand(s, a), _operand(s, b)
    if is_nan(x) or is_nan(y):
        return 0b0001
    kx, ky = fp._compare_key(x), fp._compare_key(y)
    return 0b1000 if kx < ky else 0b0100 if kx > ky else 0b0010


def vmx_bounds(s, a, b):
    """vcmpbfp's two bits: a > b (not a <= b), a < -b (not a >= -b); both 1
    for a NaN."""
    x, y = _operand(s, a), _operand(s, b)
    if is_nan(x) or is_nan(y):
        return 0b11
    kx, ky = fp._compare_key(x), fp._compare_key(y)
    return (int(not kx <= ky) << 1) | int(not kx >= -ky)


for _name, _fn in (("_vmx_add", vmx_add), ("_vmx_sub", vmx_sub), ("_vmx_madd", vmx_madd),
                   ("_vmx_nmsub", vmx_nmsub), ("_vmx_max_min", vmx_max_min),
                   ("_vmx_round_int", vmx_round_int), ("_vmx_estimate", vmx_estimate),
                   ("_vmx_from_int", vmx_from_int), ("_vmx_to_int_sat", vmx_to_int_sat),
                   ("_vmx_compare", vmx_compare), ("_vmx_bounds", vmx_bounds)):
    runtime(_name)(_fn)


def _call(comp, py, args, width=32, writes=False, consts=()):
    """A VMX helper call: it reads VSCR (NJ) through the state ``s``."""
    if writes:
        comp.note_write()
    parts = [a.code for a in args] + [str(c) for c in consts]
    return _val(f"{py}(s, {', '.join(parts)})", width)


def _const(v, what, allowed):
    from .fp import _const_arg
    c = _const_arg(v, what)
    if c not in allowed:
        raise TypeError(f"{what}: one of {sorted(allowed)}")
    return c


@intrinsic("VMXADD")
def _i_add(comp, a, b):
    return _call(comp, "_vmx_add", (a, b))


@intrinsic("VMXSUB")
def _i_sub(comp, a, b):
    return _call(comp, "_vmx_sub", (a, b))


@intrinsic("VMXMADD")
def _i_madd(comp, a, c, b):
    return _call(comp, "_vmx_madd", (a, c, b))


@intrinsic("VMXNMSUB")
def _i_nmsub(comp, a, c, b):
    return _call(comp, "_vmx_nmsub", (a, c, b))


@intrinsic("VMXMAXMIN")
def _i_maxmin(comp, a, b, is_max):
    return _call(comp, "_vmx_max_min", (a, b), consts=(_const(is_max, "max", (0, 1)),))


@intrinsic("VMXROUNDINT")
def _i_roundint(comp, b, mode):
    return _call(comp, "_vmx_round_int", (b,), consts=(_const(mode, "mode", (0, 1, 2, 3)),))


@intrinsic("VMXESTIMATE")
def _i_estimate(comp, b, rsqrt):
    return _call(comp, "_vmx_estimate", (b,), consts=(_const(rsqrt, "rsqrt", (0, 1)),))


@intrinsic("VMXFROMINT")
def _i_fromint(comp, b, is_signed, uim):
    return _val(f"_vmx_from_int(s, {b.code}, {_const(is_signed, 'signed', (0, 1))}, "
                f"{uim.code})", 32)


@intrinsic("VMXTOINTSAT")
def _i_tointsat(comp, b, is_signed, uim):
    comp.note_write()  # VSCR.SAT
    return _val(f"_vmx_to_int_sat(s, {b.code}, {_const(is_signed, 'signed', (0, 1))}, "
                f"{uim.code})", 32)


@intrinsic("VMXCOMPARE")
def _i_compare(comp, a, b):
    return _call(comp, "_vmx_compare", (a, b), width=4)


@intrinsic("VMXBOUNDS")
def _i_bounds(comp, a, b):
    return _call(comp, "_vmx_bounds", (a, b), width=2)


# --- vexptefp and vlogefp: QEMU 7.2's softfloat float32_exp2 / float32_log2 ------
# Estimates, so implementation-specific: reproduced step by step.  A value is
# (sign, exp, frac) with frac a 64-bit (or, widened, 128-bit) integer whose top
# bit is the units bit: value = frac * 2**(exp - 63) (2**(exp - 127) widened).
# Bits shifted out are jammed into the last bit (a sticky bit).

M64_ = (1 << 64) - 1
LN2 = 0x3FE62E42FEFA39EF
EXP2_COEFFICIENTS = (   # 1/n! for n = 1 .. 15, as doubles
    0x3FF0000000000000, 0x3FE0000000000000, 0x3FC5555555555555, 0x3FA5555555555555,
    0x3F81111111111111, 0x3F56C16C16C16C17, 0x3F2A01A01A01A01A, 0x3EFA01A01A01A01A,
    0x3EC71DE3A556C734, 0x3E927E4FB7789F5C, 0x3E5AE64567F544E4, 0x3E21EED8EFF8D898,
    0x3DE6124613A86D09, 0x3DA93974A8C07C9D, 0x3D6AE7F3E733B81F)


def _parts(x):
    """A finite non-zero double as (sign, exp, frac64)."""
    sign, m, e = finite_parts(x)
    n = m.bit_length()
    return sign, e + n - 1, m << (64 - n)


def _shrjam(frac, n):
    if n <= 0:
        return frac
    if n >= frac.bit_length() + 1:
        return int(frac != 0)
    return (frac >> n) | int(frac & ((1 << n) - 1) != 0)


def _truncjam(wide):
    return (wide >> 64) | int(wide & M64_ != 0)


def _mul_wide(a, b):
    """The exact 128-bit product, normalised so bit 127 is set."""
    sign, exp, frac = a[0] ^ b[0], a[1] + b[1] + 1, a[2] * b[2]
    if not frac >> 127:
        frac <<= 1
        exp -= 1
    return sign, exp, frac


def _mul(a, b):
    sign, exp, wide = _mul_wide(a, b)
    return sign, exp, _truncjam(wide)


def _muladd(a, b, c):
    """a*b + c with one 128-bit intermediate, narrowed with a sticky bit."""
    p = _mul_wide(a, b)
    cw = (c[0], c[1], c[2] << 64)
    if p[0] == cw[0]:
        (ps, pe, pf), (_, ce, cf) = p, cw
        if pe >= ce:
            cf, exp = _shrjam(cf, pe - ce), pe
        else:
            pf, exp = _shrjam(pf, ce - pe), ce
        frac = pf + cf
        if frac >> 128:
            frac = _shrjam(frac, 1)
            exp += 1
        sign = ps
    else:
        (sign, pe, pf), (_, ce, cf) = p, cw
        if pe > ce:
            frac, exp = pf - _shrjam(cf, pe - ce), pe
        elif pe < ce:
            frac, exp, sign = cf - _shrjam(pf, ce - pe), ce, sign ^ 1
        else:
            frac, exp = pf - cf, pe
            if frac < 0:
                frac, sign = -frac, sign ^ 1
        if frac == 0:
            return None
        shift = 128 - frac.bit_length()
        frac <<= shift
        exp -= shift
    return sign, exp, _truncjam(frac)


def vmx_exp2(s, b):
    x = _operand(s, b)
    if is_nan(x):
        return double_to_single(fp.quiet(x))
    if is_inf(x):
        return 0 if sign_of(x) else double_to_single(x)
    if is_zero(x):
        return ONE
    xp = _mul(_parts(x), _parts(LN2))
    xnp, rp = xp, _parts(0x3FF0000000000000)
    for coefficient in EXP2_COEFFICIENTS:
        rp = _muladd(_parts(coefficient), xnp, rp)
        if rp is None:   # an exact zero sum: not reached for a finite x
            return 0
        xnp = _mul(xnp, xp)
    sign, exp, frac = rp
    scratch = _scratch()
    result, flags, _up = round_to(sign, frac, exp - 63, False, SINGLE_FMT, fp.RN_NEAREST)
    scratch.fpscr |= flags
    return _result(s, scratch, result)


IMPLICIT = 1 << 63


def _frac_sub(a, b):
    """|a| - |b| of two (sign, exp, frac64) values, sign of a (flipped when
    |b| is larger), normalised; None for an exact zero."""
    sign, ea, fa = a
    _, eb, fb = b
    if ea > eb:
        frac, exp = fa - _shrjam(fb, ea - eb), ea
    elif ea < eb:
        frac, exp, sign = fb - _shrjam(fa, eb - ea), eb, sign ^ 1
    else:
        frac, exp = fa - fb, ea
        if frac < 0:
            frac, sign = -frac, sign ^ 1
    if frac == 0:
        return None
    shift = 64 - frac.bit_length()
    return sign, exp - shift, frac << shift


def _frac_add(a, b):
    sign, ea, fa = a
    _, eb, fb = b
    if ea >= eb:
        fb, exp = _shrjam(fb, ea - eb), ea
    else:
        fa, exp = _shrjam(fa, eb - ea), eb
    frac = fa + fb
    if frac >> 64:
        frac = _shrjam(frac, 1) | IMPLICIT
        exp += 1
    return sign, exp, frac


def vmx_log2(s, b):
    """QEMU 7.2's float32_log2 (softfloat's parts log2): the integer part is
    the exponent; the fraction's bits come from repeated squaring."""
    x = _operand(s, b)
    if is_nan(x):
        return double_to_single(fp.quiet(x))
    if is_zero(x):
        return 0xFF800000   # -infinity
    if sign_of(x):
        return DEFAULT_NAN
    if is_inf(x):
        return double_to_single(x)
    _sign, a_exp, a0 = _parts(x)
    wide = a0 << 64          # a0:a1, binary point below bit 127
    f_exp, r, t = -1, 0, IMPLICIT
    n = 23 + 2 if a_exp != -1 else min(23 * 2 + 2, 62)
    i = 0
    exact = False
    while i < n:
        hi, lo = wide >> 64, wide & M64_
        if lo:
            wide = (wide * wide) >> 128
        elif hi & 0xFFFFFFFF:
            wide = hi * hi
        elif hi & ~IMPLICIT:
            wide = ((hi >> 32) ** 2) << 64
        else:
            exact = True
            break
        if wide >> 127:
            if a_exp == 0 and r == 0:
                # a value just above 1: restart at the top of the fraction
                f_exp -= i
                t = r = IMPLICIT
                i = 0
            else:
                r |= t
        else:
            wide <<= 1
        t >>= 1
        i += 1
    if not exact:
        r |= int(wide & M64_ != 0 or (wide >> 64) & ~IMPLICIT != 0)
    if a_exp:
        n_ = abs(a_exp)
        whole = (int(a_exp < 0), n_.bit_length() - 1, n_ << (64 - n_.bit_length()))
    if r == 0:
        value = whole if a_exp else None
    else:
        shift = 64 - r.bit_length()
        f = (0, f_exp - shift, r << shift)
        value = f if a_exp == 0 else (_frac_sub(whole, f) if a_exp < 0 else _frac_add(whole, f))
    if value is None:
        return 0
    sign, exp, frac = value
    result, _flags, _up = round_to(sign, frac, exp - 63, False, SINGLE_FMT, fp.RN_NEAREST)
    return double_to_single(result)


runtime("_vmx_exp2")(vmx_exp2)
runtime("_vmx_log2")(vmx_log2)


@intrinsic("VMXEXP2")
def _i_exp2(comp, b):
    return _call(comp, "_vmx_exp2", (b,))


@intrinsic("VMXLOG2")
def _i_log2(comp, b):
    return _call(comp, "_vmx_log2", (b,))
