"""FP to integer in a GPR: libre-soc's draft ``cffpr`` (openpower-isa 3cb597b9
isa/fpcvt.mdwn, "Floating Convert To Integer In GPR").

``FPTOGPR(x, IT, CVM)`` converts the double ``x`` to the integer type IT
(0 signed word, 1 unsigned word, 2 signed doubleword, 3 unsigned doubleword)
under the conversion mode CVM, and updates the FPSCR as that page does:

* rounding: toward zero when CVM is odd (or FPSCR[RN] says so), else FPSCR[RN];
* out of range: CVM 0/1 saturate, a NaN giving the type's minimum (the
  OpenPower fcti* convention); CVM 2/3 saturate, a NaN giving 0 (Java);
  CVM 4/5 wrap modulo 2**64 then to the type's width, an infinity, a NaN or a
  magnitude of 2**128 or more giving 0 (JavaScript's ToInt32 and kin).  CVM 6/7
  are illegal instructions: the page traps before calling this;
* VXCVI (and the page's ``overflow``) when the source is a NaN or the result
  is not the rounded value; else XX and FI when it is inexact, FR when its
  magnitude grew; VXSNAN for a signalling NaN; FPRF 0 when the result is
  written.  An enabled invalid operation (VE=1) leaves RT alone and clears
  FR and FI.

It returns 66 bits, ``written || overflow || result`` (result: 64 bits), so the
page decides what to write (RT, and OV/SO when OE=1) and stays readable.
"""
from .fp import (FI, FPRF_MASK, FR, M64, RN_MASK, RN_ZERO, VE, VXCVI, XX, _snan_flag,
                 finite_parts, is_inf, is_nan, note_enabled, rounds_up, sign_of,
                 with_summary)
from .library import _val, intrinsic, runtime

JS_LIMIT = 1 << 128  # the page's limit: magnitudes above 2**128 - 1 give 0


def _round(b, rn):
    """The signed integer ``b`` rounds to under ``rn``, and whether it was inexact."""
    sign, m, e = finite_parts(b)
    if e >= 0:
        return (-1 if sign else 1) * (m << e), False
    exact = m >> -e
    rest = m & ((1 << -e) - 1)
    half = rest >> (-e - 1) & 1 == 1
    more = rest & ((1 << (-e - 1)) - 1) != 0
    mag = exact + rounds_up(rn, sign, exact & 1, half, more)
    return (-mag if sign else mag), bool(half or more)


def _in_type(v, it):
    """``v`` (an integer of any size) as the page's result of type IT: its low
    64 bits, then, for a word type, its low word sign- or zero-extended; as
    (the 64-bit register image, the value that image stands for)."""
    if it < 2:
        w = v & 0xFFFF_FFFF
        value = w - (1 << 32) if it == 0 and w >> 31 else w
    else:
        w = v & M64
        value = w - (1 << 64) if it == 2 and w >> 63 else w
    return value & M64, value


def _bounds(it):
    width = 32 if it < 2 else 64
    if it in (0, 2):
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def fp_to_gpr(s, b, it, cvm):
    """cffpr's conversion of the double ``b`` (see the module docstring)."""
    it, cvm = int(it), int(cvm)
    lo, hi = _bounds(it)
    rn = RN_ZERO if cvm & 1 else s.fpscr & RN_MASK
    flags = _snan_flag(b)
    nan, inf = is_nan(b), is_inf(b)
    v, inexact = (0, False) if nan or inf else _round(b, rn)
    if cvm < 4:                                   # saturating (OpenPower, Java)
        if nan:
            raw = lo if cvm < 2 else 0
        elif inf:
            raw = lo if sign_of(b) else hi
        else:
            raw = min(max(v, lo), hi)
    else:                                         # JavaScript: modular
        raw = 0 if nan or inf or abs(v) >= JS_LIMIT else v
    image, value = _in_type(raw, it)
    overflow = nan or inf or value != v
    grew = False
    if overflow:
        flags |= VXCVI
        inexact = False
    elif inexact:
        # the magnitude grew when rounding went away from zero
        _, m, e = finite_parts(b)
        grew = abs(v) << -e > m if e < 0 else False
    if inexact:
        flags |= XX
    old = s.fpscr
    # an enabled invalid operation (VXSNAN, VXCVI with VE=1) leaves RT alone
    written = not (flags & ~XX and old & VE)
    if written:
        new = (old & ~(FR | FI | FPRF_MASK)) | flags
        if inexact:
            new |= FI
        if grew:
            new |= FR
    else:
        new = (old & ~(FR | FI)) | flags
    s.fpscr = with_summary(old, new)
    if flags:
        note_enabled(s, flags)
    return (int(written) << 65) | (int(overflow) << 64) | (image if written else 0)


runtime("_fp_to_gpr")(fp_to_gpr)


@intrinsic("FPTOGPR")
def _i_fptogpr(comp, x, it, cvm):
    """FPTOGPR(x, IT, CVM): cffpr's conversion; written || overflow || result."""
    comp.note_write()  # the helper updates the FPSCR
    comp.fp_epilogue = True  # an enabled exception's interrupt comes after the results
    return _val(f"_fp_to_gpr(s, {x.code}, {it.code}, {cvm.code})", 66)
