"""FP element-width overrides (svp64.mdwn "Elwidth for FP Registers").

ELWIDTH 01 = IEEE 754 binary32, 10 = binary16, 11 = bf16 (reserved: traps).
Elements pack little-endian into the FPRs like integer elements.  A source
element is widened exactly to a double image; the unmodified 64-bit page runs
with its rounding redirected (``s.fp_elfmt``, read by the helpers in
:mod:`isa_ext.pseudocode.fp`): a double-precision operation rounds to the
destination element format, a single-precision one (``fadds``) to the format of
half that width (binary32 elements -> binary16; binary16 elements -> undefined,
trapped).  The result is then encoded in the destination element format,
rounded by FPSCR.RN if it is not representable there (only possible for
operations that do not round, e.g. ``fmr`` from wider source elements).
"""
from ..pseudocode import fp as F

# ELWIDTH code -> (bits, exponent bits, stored fraction bits, Format)
HALF_FMT = F.Format(11, -14, 15)
FORMATS = {64: (11, 52, F.DOUBLE_FMT), 32: (8, 23, F.SINGLE_FMT), 16: (5, 10, HALF_FMT)}
HALF_OF = {64: F.SINGLE_FMT, 32: HALF_FMT, 16: None}


def elfmt(ew):
    """``s.fp_elfmt`` for destination element width ``ew``."""
    return (FORMATS[ew][2], HALF_OF[ew])


def to_double(v, w):
    """The exact double image of a ``w``-bit IEEE binary element."""
    if w == 64:
        return v
    eb, fb, fmt = FORMATS[w]
    sign = v >> (w - 1)
    e = (v >> fb) & ((1 << eb) - 1)
    frac = v & ((1 << fb) - 1)
    if e == (1 << eb) - 1:  # infinity / NaN: fields move, payload left-aligned
        return (sign << 63) | (0x7FF << 52) | (frac << (52 - fb))
    if e == 0:
        return F.pack_exact(sign, frac, fmt.emin - fb)
    return F.pack_exact(sign, frac | (1 << fb), e - fmt.emax - fb)


def from_double(x, w, rn):
    """Encode double image ``x`` as a ``w``-bit IEEE binary element (rounded by
    ``rn`` when not representable; NaNs keep the top payload bits, stay quiet
    if they were)."""
    if w == 64:
        return x
    eb, fb, fmt = FORMATS[w]
    sign = x >> 63
    top_e = (1 << eb) - 1
    if F.is_nan(x):
        frac = (x & ((1 << 52) - 1)) >> (52 - fb)
        if frac == 0:
            frac = 1 << (fb - 1)
        return (sign << (w - 1)) | (top_e << fb) | frac
    if F.is_inf(x):
        return (sign << (w - 1)) | (top_e << fb)
    if F.is_zero(x):
        return sign << (w - 1)
    _, m, e = F.finite_parts(x)
    r, _flags, _up = F.round_to(sign, m, e, False, fmt, rn)
    if F.is_inf(r):
        return (sign << (w - 1)) | (top_e << fb)
    if F.is_zero(r):
        return sign << (w - 1)
    _, m, e = F.finite_parts(r)
    shift = m.bit_length() - fmt.precision  # normalise to precision bits
    m, e = (m >> shift, e + shift) if shift >= 0 else (m << -shift, e + shift)
    top = e + fmt.precision - 1
    if top >= fmt.emin:
        biased = top + fmt.emax
        return (sign << (w - 1)) | (biased << fb) | (m & ((1 << fb) - 1))
    # denormal: value = frac * 2**(emin - fb)
    d = (fmt.emin - fb) - e
    return (sign << (w - 1)) | (m >> d)
