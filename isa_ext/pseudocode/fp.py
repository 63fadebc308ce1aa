"""Binary floating point for the scalar FP pages: exact arithmetic, one rounding.

Every arithmetic result is computed exactly over integers (a finite value is
``mantissa * 2**exponent``) and rounded once to the target format, so fused
multiply-add and single-precision results are correctly rounded with no double
rounding.  Division and square root carry a sticky bit for the discarded
remainder.

The helpers take and return raw 64-bit FPR images.  Those that change the
FPSCR (arithmetic, conversions, compares) are intrinsics emitting a call with
the machine state ``s``; they never trap, so the atomicity rule holds.  Which
FPSCR fields are maintained, and how, is documented in ``docs/fpscr.md``.
"""
from ..records import record
from functools import cached_property
from math import isqrt

from .library import intrinsic, runtime, runtime_function, _val

M64 = (1 << 64) - 1
SIGN64 = 1 << 63


def fpscr_bit(n):
    """Mask of FPSCR bit n (MSB0 numbering of the 64-bit register)."""
    return 1 << (63 - n)


FX, FEX, VX, OX, UX, ZX, XX = (fpscr_bit(n) for n in range(32, 39))
VXSNAN, VXISI, VXIDI, VXZDZ, VXIMZ, VXVC = (fpscr_bit(n) for n in range(39, 45))
FR, FI = fpscr_bit(45), fpscr_bit(46)
FPRF_SHIFT = 63 - 51          # FPRF is bits 47:51 (C, then FPCC = FL FG FE FU)
FPRF_MASK = 0x1F << FPRF_SHIFT
FPCC_MASK = 0xF << FPRF_SHIFT
VXSOFT, VXSQRT, VXCVI = fpscr_bit(53), fpscr_bit(54), fpscr_bit(55)
VE, OE, UE, ZE, XE = (fpscr_bit(n) for n in range(56, 61))
RN_MASK = 0b11

RESERVED_BITS = (((1 << 29) - 1) << 35) | fpscr_bit(52)  # bits 0:28 and 52 read as 0
INVALID_BITS = VXSNAN | VXISI | VXIDI | VXZDZ | VXIMZ | VXVC | VXSOFT | VXSQRT | VXCVI
EXCEPTION_BITS = OX | UX | ZX | XX | INVALID_BITS

RN_NEAREST, RN_ZERO, RN_UP, RN_DOWN = 0, 1, 2, 3
# round to odd (the quad-precision "o" forms, RO=1) and to nearest with ties
# away from zero (xsrqpi): not FPSCR.RN values
RN_ODD, RN_TIES_AWAY = 4, 5

DEFAULT_QNAN = 0x7FF8000000000000
QUIET_BIT = 1 << 51


@record(frozen=True)
class Format:
    precision: int   # significand bits, including the implicit one
    emin: int        # exponent of the smallest normal number
    emax: int        # exponent of the largest finite number

    # the IEEE 754 interchange image of the format (sign, biased exponent,
    # fraction), for the formats results are stored in (double, quad)
    @cached_property
    def frac_bits(self):
        return self.precision - 1

    @cached_property
    def sign_shift(self):
        return self.frac_bits + (self.emax + 1).bit_length()

    @cached_property
    def sign_bit(self):
        return 1 << self.sign_shift

    @cached_property
    def mag_mask(self):
        return self.sign_bit - 1

    @cached_property
    def frac_mask(self):
        return (1 << self.frac_bits) - 1

    @cached_property
    def exp_mask(self):
        """The biased exponent of infinities and NaNs."""
        return (1 << (self.sign_shift - self.frac_bits)) - 1

    @cached_property
    def inf_bits(self):
        return self.exp_mask << self.frac_bits

    @cached_property
    def quiet_bit(self):
        return 1 << (self.frac_bits - 1)

    @cached_property
    def default_qnan(self):
        return self.inf_bits | self.quiet_bit


DOUBLE_FMT = Format(53, -1022, 1023)
SINGLE_FMT = Format(24, -126, 127)
QUAD_FMT = Format(113, -16382, 16383)
# xsrqpxp's double-extended precision: a 64-bit significand in quad's range
EXTENDED_FMT = Format(64, -16382, 16383)


def fmt_for(bits):
    return SINGLE_FMT if bits == 32 else QUAD_FMT if bits == 128 else DOUBLE_FMT


def image_of(fmt):
    """The image a result rounded to ``fmt`` is stored in: binary128 for the
    wider-than-double formats, otherwise the 64-bit double image (single and
    SVP64's narrower element formats are held as doubles)."""
    return QUAD_FMT if fmt.precision > 53 else DOUBLE_FMT


def op_fmt(s, bits):
    """The format an operation of precision ``bits`` rounds to.  An SVP64 FP
    element-width override sets ``s.fp_elfmt`` = (format of double-precision
    operations, format of single-precision operations or None if undefined)."""
    ov = getattr(s, "fp_elfmt", None)
    if ov is None or bits == 128:
        return fmt_for(bits)
    f = ov[0] if bits == 64 else ov[1]
    if f is None:
        from ..errors import Trap
        raise Trap("SVP64: a single-precision operation at half of an FP16 element "
                   "(8-bit FP) is not defined", "illegal")
    return f


# --- the stored image (64-bit double unless ``img`` says QUAD_FMT) ------------

def is_nan(x, img=DOUBLE_FMT):
    return x & img.mag_mask > img.inf_bits


def is_snan(x, img=DOUBLE_FMT):
    return is_nan(x, img) and not x & img.quiet_bit


def is_inf(x, img=DOUBLE_FMT):
    return x & img.mag_mask == img.inf_bits


def is_zero(x, img=DOUBLE_FMT):
    return x & img.mag_mask == 0


def sign_of(x, img=DOUBLE_FMT):
    return x >> img.sign_shift


def finite_parts(x, img=DOUBLE_FMT):
    """(sign, mantissa, exponent) of a finite value: |x| = mantissa * 2**exponent."""
    fb = img.frac_bits
    e = (x >> fb) & img.exp_mask
    frac = x & img.frac_mask
    if e == 0:
        return x >> img.sign_shift, frac, img.emin - fb
    return x >> img.sign_shift, frac | (1 << fb), e - img.emax - fb


def pack_exact(sign, mant, exp, img=DOUBLE_FMT):
    """The image of sign * mant * 2**exp, which must be representable."""
    if mant == 0:
        return sign << img.sign_shift
    shift = mant.bit_length() - img.precision
    mant, exp = (mant >> shift, exp + shift) if shift > 0 else (mant << -shift, exp + shift)
    biased = exp + img.emax + img.frac_bits
    if biased <= 0:  # denormal: shift right into the fixed minimum exponent
        mant >>= 1 - biased
        biased = 0
    else:
        mant &= img.frac_mask
    return (sign << img.sign_shift) | (biased << img.frac_bits) | mant


def infinity(sign, img=DOUBLE_FMT):
    return (sign << img.sign_shift) | img.inf_bits


def quiet(x, img=DOUBLE_FMT):
    return x | img.quiet_bit


def to_single_nan(x):
    """A NaN as a single-precision result: its fraction keeps 23 bits."""
    return x & ~((1 << 29) - 1)


# --- rounding ----------------------------------------------------------------

def rounds_up(rn, sign, lsb, half, more):
    """Whether rounding mode ``rn`` increments a magnitude whose last kept bit is
    ``lsb``, given the discarded part: ``half`` (its top bit) and ``more`` (any
    bit below it, or a sticky bit)."""
    if rn == RN_NEAREST:
        return bool(half and (more or lsb))
    if rn == RN_TIES_AWAY:
        return bool(half)
    if rn == RN_ZERO:
        return False
    inexact = half or more
    if rn == RN_ODD:  # truncate, then make an inexact result's last bit 1
        return bool(inexact and not lsb)
    return bool(inexact and (sign if rn == RN_DOWN else not sign))


def round_to(sign, mant, exp, sticky, fmt, rn):
    """Round sign * (mant + sticky fraction) * 2**exp to ``fmt``.

    ``sticky`` says non-zero bits were discarded below ``mant``'s last bit.
    Returns (the image_of(fmt) image, exception flags among XX OX UX, fraction rounded up).
    Tininess is detected before rounding (Power ISA, and QEMU's ppc target).
    """
    img = image_of(fmt)
    if mant == 0 and not sticky:
        return sign << img.sign_shift, 0, False
    top = mant.bit_length() - 1 + exp  # the exact value is in [2**top, 2**(top+1))
    tiny = top < fmt.emin
    quantum = max(top, fmt.emin) - (fmt.precision - 1)
    shift = quantum - exp
    if shift <= 0:
        kept, rest_half, rest_more = mant << -shift, False, sticky
    else:
        kept = mant >> shift
        rest = mant & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        rest_half = rest >= half
        rest_more = (rest & (half - 1)) != 0 or sticky
    inexact = rest_half or rest_more
    up = rounds_up(rn, sign, kept & 1, rest_half, rest_more)
    kept += up
    flags = XX if inexact else 0
    if tiny and inexact:
        flags |= UX
    if kept and kept.bit_length() - 1 + quantum > fmt.emax:
        flags |= OX | XX
        to_inf = (rn in (RN_NEAREST, RN_TIES_AWAY) or (rn == RN_UP and not sign)
                  or (rn == RN_DOWN and sign))
        if to_inf:
            return infinity(sign, img), flags, True
        largest = (1 << fmt.precision) - 1
        return pack_exact(sign, largest, fmt.emax - fmt.precision + 1, img), flags, False
    return pack_exact(sign, kept, quantum, img), flags, bool(up)


def exponent_adjust(fmt):
    """The exponent adjustment of an enabled overflow/underflow (Power ISA Book I
    4.4.4, 4.4.5): 1536 for double precision, 192 for single."""
    return 3 * (fmt.emax + 1) // 2


def round_enabled(s, sign, mant, exp, sticky, fmt, rn):
    """round_to, with the enabled overflow / underflow rules: OE=1 and an
    overflow, or UE=1 and a tiny result (exact or not), deliver the rounded
    result with its exponent adjusted by exponent_adjust(fmt) into range; OX/UX
    is set, and XX only if that adjusted result is inexact."""
    result, flags, up = round_to(sign, mant, exp, sticky, fmt, rn)
    fpscr = s.fpscr
    if flags & OX and fpscr & OE:
        result, f2, up = round_to(sign, mant, exp - exponent_adjust(fmt), sticky, fmt, rn)
        return result, OX | (f2 & XX), up
    if fpscr & UE and mant and mant.bit_length() - 1 + exp < fmt.emin:
        result, f2, up = round_to(sign, mant, exp + exponent_adjust(fmt), sticky, fmt, rn)
        return result, UX | (f2 & XX), up
    return result, flags, up


def exact_zero_sign(rn):
    """Sign of an exact zero sum of operands of opposite signs (IEEE 754 6.3)."""
    return 1 if rn == RN_DOWN else 0


# --- FPSCR bookkeeping ---------------------------------------------------------

def fprf_class(x, img=DOUBLE_FMT):
    """The 5-bit FPRF class code (C FL FG FE FU) of an image."""
    s = sign_of(x, img)
    if is_nan(x, img):
        return 0b10001
    if is_inf(x, img):
        return 0b01001 if s else 0b00101
    if is_zero(x, img):
        return 0b10010 if s else 0b00010
    if (x >> img.frac_bits) & img.exp_mask == 0:
        return 0b11000 if s else 0b10100
    return 0b01000 if s else 0b00100


def with_summary(old, new):
    """``new`` with FX set for every exception bit that went 0 -> 1 since ``old``,
    and the VX and FEX summaries recomputed from ``new``."""
    if (new & ~old) & EXCEPTION_BITS:
        new |= FX
    return recompute_summary(new)


def recompute_summary(x):
    """``x`` with VX = OR of the invalid-operation bits and FEX = OR of the
    enabled exceptions (FX is left as it is); reserved bits cleared."""
    x &= ~(VX | FEX | RESERVED_BITS)
    if x & INVALID_BITS:
        x |= VX
    enabled = ((x & VX and x & VE) or (x & OX and x & OE) or (x & UX and x & UE)
               or (x & ZX and x & ZE) or (x & XX and x & XE))
    if enabled:
        x |= FEX
    return x


ENABLES = ((INVALID_BITS, VE), (OX, OE), (UX, UE), (ZX, ZE), (XX, XE))
MSR_FE0, MSR_FE1 = 1 << 11, 1 << 8  # MSR bits 52 and 55 (MSB0)


def suppressed(s, exceptions, keep):
    """An enabled invalid operation (VE=1) or zero divide (ZE=1) leaves FRT
    unchanged, clears FR and FI and leaves FPRF alone (Book I 4.4.1, 4.4.2):
    record the exception and return True, the caller then returns None so the
    page keeps FRT (``keep``).  A caller that cannot keep FRT traps first."""
    fpscr = s.fpscr
    if not ((exceptions & INVALID_BITS and fpscr & VE) or (exceptions & ZX and fpscr & ZE)):
        return False
    if getattr(s, "fp_vector", None) is not None:
        # an element of a vector instruction: computed as if disabled; the
        # whole target is then left unchanged (fpvector.vector_fp_end)
        return False
    if not keep:
        from ..errors import Trap
        raise Trap("an enabled invalid-operation or zero-divide exception (FPSCR VE/ZE=1) "
                   "inside this instruction is not implemented", "illegal")
    s.fpscr = with_summary(fpscr, (fpscr & ~(FR | FI)) | exceptions)
    note_enabled(s, exceptions)
    return True


def note_enabled(s, exceptions):
    """With MSR.FE0/FE1 not both 0, an exception whose enable bit is 1 takes the
    floating-point enabled exception program interrupt once the instruction has
    completed (its results written): remembered here, raised by the page's
    epilogue (fp_interrupt)."""
    if getattr(s, "fp_vector", None) is not None:
        s.fp_vector |= exceptions   # a vector element's: judged after the last one
        return
    if not getattr(s, "msr", 0) & (MSR_FE0 | MSR_FE1):
        return
    fpscr = s.fpscr
    names = [name for (bits, enable), name in zip(ENABLES, ("VX", "OX", "UX", "ZX", "XX"))
             if exceptions & bits and fpscr & enable]
    if names:
        s.fp_interrupt = "/".join(names)


def fp_interrupt(s):
    """The epilogue of a page using the FP helpers: raise a pending interrupt."""
    pending = s.__dict__.pop("fp_interrupt", None)
    if pending:
        from ..errors import SIGFPE, Trap
        raise Trap(f"floating-point enabled exception program interrupt: {pending} with "
                   f"its FPSCR enable bit set and MSR.FE0/FE1 not 0 (results written)",
                   "program", signal=SIGFPE)


def finish(s, result, exceptions, rounded_up, set_fprf=True, keep=False, img=DOUBLE_FMT):
    """Record an arithmetic result (an ``img`` image) in the FPSCR: sticky
    exception bits, FR/FI for this instruction, FPRF for the result,
    summaries.  Returns None (FRT unchanged) for an enabled invalid operation
    or zero divide."""
    if suppressed(s, exceptions, keep):
        return None
    old = s.fpscr
    new = (old & ~(FR | FI)) | exceptions
    if exceptions & XX:
        new |= FI
        if rounded_up:
            new |= FR
    if set_fprf:
        new = (new & ~FPRF_MASK) | (fprf_class(result, img) << FPRF_SHIFT)
    s.fpscr = with_summary(old, new)
    if exceptions:
        note_enabled(s, exceptions)
    return result


# --- arithmetic ----------------------------------------------------------------

def _nan_result(operands, bits, img=DOUBLE_FMT):
    """Power NaN propagation: the first NaN operand in the instruction's
    precedence order, quieted (and narrowed for single-precision results)."""
    for x in operands:
        if is_nan(x, img):
            r = quiet(x, img)
            return to_single_nan(r) if bits == 32 else r
    return None


def _snan_flag(*xs, img=DOUBLE_FMT):
    return VXSNAN if any(is_snan(x, img) for x in xs) else 0


def _add_exact(s1, m1, e1, s2, m2, e2):
    """Exact signed sum of two finite values as (sign, mant, exp), mant >= 0."""
    e = min(e1, e2)
    v = (-1) ** s1 * (m1 << (e1 - e)) + (-1) ** s2 * (m2 << (e2 - e))
    return (1 if v < 0 else 0), abs(v), e


def _inf_or_finite(x, img=DOUBLE_FMT):
    return ("inf", sign_of(x, img)) if is_inf(x, img) else ("fin",) + finite_parts(x, img)


def _rounding(s, round_odd):
    return RN_ODD if round_odd else s.fpscr & RN_MASK


def fp_muladd(s, a, c, b, negate_addend, negate_result, bits, has_product=True,
              has_addend=True, keep=False, round_odd=False):
    """The general operation a*c + b (with either part optional), rounded once.

    add: a + b (no product: c unused, a is the left operand)
    mul: a * c (no addend)
    NaN precedence follows the A-form order FRA, FRB, FRC.  ``bits`` 128:
    binary128 operands and result; ``round_odd``: round to odd (RO=1).
    """
    rn = _rounding(s, round_odd)
    fmt = op_fmt(s, bits)
    img = image_of(fmt)
    order = [a] + ([b] if has_addend else []) + ([c] if has_product else [])
    snan = _snan_flag(*order, img=img)
    invalid = 0
    if has_product and ((is_zero(a, img) and is_inf(c, img)) or
                        (is_inf(a, img) and is_zero(c, img))):
        invalid = VXIMZ
    nan = _nan_result(order, bits, img)
    if nan is not None:
        return finish(s, nan, snan | invalid, False, keep=keep, img=img)
    if invalid:
        return finish(s, img.default_qnan, snan | invalid, False, keep=keep, img=img)
    # the left term: a product, or a alone
    if has_product:
        psign = sign_of(a, img) ^ sign_of(c, img)
        if is_inf(a, img) or is_inf(c, img):
            left = ("inf", psign)
        else:
            _, ma, ea = finite_parts(a, img)
            _, mc, ec = finite_parts(c, img)
            left = ("fin", psign, ma * mc, ea + ec)
    else:
        left = _inf_or_finite(a, img)
    if has_addend:
        right = _inf_or_finite(b, img)
        if negate_addend:
            right = (right[0], right[1] ^ 1) + right[2:]
    else:
        right = None
    if right is None:
        if left[0] == "inf":
            result, flags, up = infinity(left[1], img), 0, False
        else:
            result, flags, up = round_enabled(s, left[1], left[2], left[3], False, fmt, rn)
    elif left[0] == "inf" or right[0] == "inf":
        if left[0] == "inf" and right[0] == "inf" and left[1] != right[1]:
            return finish(s, img.default_qnan, VXISI, False, keep=keep, img=img)
        result = infinity(left[1] if left[0] == "inf" else right[1], img)
        flags, up = 0, False
    else:
        _, ls, lm, le = left
        _, rs, rm, re = right
        if lm == 0 and rm == 0:
            sign = ls if ls == rs else exact_zero_sign(rn)
            result, flags, up = sign << img.sign_shift, 0, False
        else:
            sign, m, e = _add_exact(ls, lm, le, rs, rm, re)
            if m == 0:
                sign = exact_zero_sign(rn)
            result, flags, up = round_enabled(s, sign, m, e, False, fmt, rn)
    if negate_result:
        result ^= img.sign_bit
    return finish(s, result, flags, up, keep=keep, img=img)


def fp_div(s, a, b, bits, keep=False, round_odd=False):
    rn = _rounding(s, round_odd)
    fmt = op_fmt(s, bits)
    img = image_of(fmt)
    snan = _snan_flag(a, b, img=img)
    nan = _nan_result([a, b], bits, img)
    if nan is not None:
        return finish(s, nan, snan, False, keep=keep, img=img)
    sign = sign_of(a, img) ^ sign_of(b, img)
    if is_inf(a, img) and is_inf(b, img):
        return finish(s, img.default_qnan, VXIDI, False, keep=keep, img=img)
    if is_zero(a, img) and is_zero(b, img):
        return finish(s, img.default_qnan, VXZDZ, False, keep=keep, img=img)
    if is_inf(a, img) or is_zero(b, img):
        return finish(s, infinity(sign, img), 0 if is_inf(a, img) else ZX, False,
                      keep=keep, img=img)
    if is_inf(b, img) or is_zero(a, img):
        return finish(s, sign << img.sign_shift, 0, False, keep=keep, img=img)
    _, ma, ea = finite_parts(a, img)
    _, mb, eb = finite_parts(b, img)
    # enough quotient bits for the precision, a guard bit and a sticky remainder
    extra = fmt.precision + 3 + mb.bit_length() - ma.bit_length() + 1
    extra = max(extra, 0)
    q, r = divmod(ma << extra, mb)
    result, flags, up = round_enabled(s, sign, q, ea - eb - extra, r != 0, fmt, rn)
    return finish(s, result, flags, up, keep=keep, img=img)


def fp_sqrt(s, b, bits, keep=False, round_odd=False):
    rn = _rounding(s, round_odd)
    fmt = op_fmt(s, bits)
    img = image_of(fmt)
    nan = _nan_result([b], bits, img)
    if nan is not None:
        return finish(s, nan, _snan_flag(b, img=img), False, keep=keep, img=img)
    if is_zero(b, img):
        return finish(s, b, 0, False, keep=keep, img=img)
    if sign_of(b, img):
        return finish(s, img.default_qnan, VXSQRT, False, keep=keep, img=img)
    if is_inf(b, img):
        return finish(s, b, 0, False, keep=keep, img=img)
    _, m, e = finite_parts(b, img)
    # sqrt(m * 2**e) = sqrt(m * 2**(e - k)) * 2**(k/2)... scale to an even
    # exponent with plenty of bits in the integer square root
    k = 2 * (fmt.precision + 3) - m.bit_length() + 2
    k = max(k, 0)
    if (e - k) % 2:
        k += 1
    n = m << k
    root = isqrt(n)
    result, flags, up = round_enabled(s, 0, root, (e - k) // 2, root * root != n, fmt, rn)
    return finish(s, result, flags, up, keep=keep, img=img)


def fp_round_single(s, b, keep=False):
    """frsp: round a double to single precision."""
    rn = s.fpscr & RN_MASK
    nan = _nan_result([b], 32)
    if nan is not None:
        return finish(s, nan, _snan_flag(b), False, keep=keep)
    if is_inf(b) or is_zero(b):
        return finish(s, b, 0, False, keep=keep)
    sign, m, e = finite_parts(b)
    result, flags, up = round_enabled(s, sign, m, e, False, op_fmt(s, 32), rn)
    return finish(s, result, flags, up, keep=keep)


# --- conversions -----------------------------------------------------------------

def fp_to_int(s, b, width, is_signed, toward_zero, keep=False, img=DOUBLE_FMT):
    """fcti*: a double (or an ``img`` image) to a saturated integer of
    ``width`` bits (a 64-bit image; 128 bits for width 128)."""
    rn = RN_ZERO if toward_zero else s.fpscr & RN_MASK
    lo = -(1 << (width - 1)) if is_signed else 0
    hi = (1 << (width - 1)) - 1 if is_signed else (1 << width) - 1
    old = s.fpscr
    if is_nan(b, img):
        # the most negative integer, as a zero-extended 32-bit word for fctiw[z]
        value, flags, up = (lo & ((1 << width) - 1), VXCVI | _snan_flag(b, img=img), False)
    elif is_inf(b, img):
        value, flags, up = (lo if sign_of(b, img) else hi), VXCVI, False
    else:
        sign, m, e = finite_parts(b, img)
        if e >= 0:
            exact, rest_half, rest_more = m << e, False, False
        else:
            exact = m >> -e
            rest = m & ((1 << -e) - 1)
            rest_half = rest >> (-e - 1) & 1 == 1
            rest_more = rest & ((1 << (-e - 1)) - 1) != 0
        inexact = rest_half or rest_more
        up = rounds_up(rn, sign, exact & 1, rest_half, rest_more)
        mag = exact + up
        v = -mag if sign else mag
        if v < lo or v > hi:
            value, flags, up = (lo if v < lo else hi), VXCVI, False
        else:
            value, flags = v, (XX if inexact else 0)
    if suppressed(s, flags, keep):
        return None
    new = (old & ~(FR | FI)) | flags
    if flags & XX:
        new |= FI
        if up:
            new |= FR
    if flags & VXCVI:
        # FPRF is undefined here by the ISA; POWER9 and QEMU give C and FU
        new = (new & ~FPRF_MASK) | (0b10001 << FPRF_SHIFT)
    s.fpscr = with_summary(old, new)
    if flags:
        note_enabled(s, flags)
    return value & ((1 << max(width, 64)) - 1)


def int_to_fp(s, x, is_signed, bits, keep=False, width=64):
    """fcfid*: a ``width``-bit integer to a single-, double- or (bits 128)
    quad-precision value."""
    rn = s.fpscr & RN_MASK
    v = x - (1 << width) if is_signed and x >> (width - 1) else x
    fmt = op_fmt(s, bits)
    result, flags, up = round_enabled(s, 1 if v < 0 else 0, abs(v), 0, False, fmt, rn)
    return finish(s, result, flags, up, keep=keep, img=image_of(fmt))


def fp_convert(s, b, src, bits, keep=False, round_odd=False):
    """A value of image ``src`` rounded to the precision ``bits`` (xscvdpqp,
    xscvqpdp[o]): an SNaN gives its quiet NaN with VXSNAN, a NaN keeps the
    most significant bits of its fraction that fit (widening appends zeros)."""
    rn = _rounding(s, round_odd)
    fmt = op_fmt(s, bits)
    img = image_of(fmt)
    sign = sign_of(b, src)
    if is_nan(b, src):
        frac = b & src.frac_mask
        shift = img.frac_bits - src.frac_bits
        frac = frac << shift if shift >= 0 else frac >> -shift
        nan = quiet((sign << img.sign_shift) | img.inf_bits | frac, img)
        if bits == 32:
            nan = to_single_nan(nan)
        return finish(s, nan, _snan_flag(b, img=src), False, keep=keep, img=img)
    if is_inf(b, src):
        return finish(s, infinity(sign, img), 0, False, keep=keep, img=img)
    _, m, e = finite_parts(b, src)
    result, flags, up = round_enabled(s, sign, m, e, False, fmt, rn)
    return finish(s, result, flags, up, keep=keep, img=img)


# --- compare -----------------------------------------------------------------------

def fp_compare(s, a, b, ordered, img=DOUBLE_FMT):
    """fcmpu/fcmpo: the 4-bit FL FG FE FU code, also recorded in FPCC."""
    if is_nan(a, img) or is_nan(b, img):
        code = 0b0001
    else:
        va, vb = _compare_key(a, img), _compare_key(b, img)
        code = 0b1000 if va < vb else 0b0100 if va > vb else 0b0010
    flags = _snan_flag(a, b, img=img)
    if ordered and (is_nan(a, img) or is_nan(b, img)):
        # fcmpo: any NaN is an invalid compare, unless an SNaN with VE=1
        if not (flags and s.fpscr & VE):
            flags |= VXVC
    old = s.fpscr
    new = (old & ~FPCC_MASK) | (code << FPRF_SHIFT) | flags
    s.fpscr = with_summary(old, new)
    if flags:
        note_enabled(s, flags)
    return code


def _compare_key(x, img=DOUBLE_FMT):
    """An integer ordering finite and infinite values by value (+0 == -0)."""
    mag = x & img.mag_mask
    return -mag if sign_of(x, img) else mag


# --- memory format conversions (no FPSCR effects) ---------------------------------

def single_to_double(w):
    """DOUBLE(): a 32-bit single image widened exactly to a double image.
    Normal, zero, infinity and NaN bit patterns move field by field (an SNaN
    stays signalling); a denormal single is normalised."""
    w &= 0xFFFFFFFF
    sign = w >> 31
    e = (w >> 23) & 0xFF
    frac = w & 0x7FFFFF
    if e == 0xFF:
        return (sign << 63) | (0x7FF << 52) | (frac << 29)
    if e == 0:
        # zero, or a denormal frac * 2**-149 (exact in double)
        return pack_exact(sign, frac, -149)
    return (sign << 63) | ((e - 127 + 1023) << 52) | (frac << 29)


def double_to_single(x):
    """SINGLE(): the 32-bit image stored by stfs, truncating (never rounding).
    Doubles in the single denormal range are denormalised by shifting; those
    too small for it (and double denormals) store a signed zero, as POWER and
    QEMU do where the ISA leaves the value undefined."""
    e = (x >> 52) & 0x7FF
    if e > 896 or x & ~SIGN64 & M64 == 0:
        return ((x >> 32) & 0xC0000000) | ((x >> 29) & 0x3FFFFFFF)
    sign = (x >> 63) << 31
    if e >= 874:
        mant = (1 << 52) | (x & ((1 << 52) - 1))
        return sign | (mant >> (29 + 897 - e))
    return sign


# --- pseudocode bindings --------------------------------------------------------

for _name, _fn in (("_fp_muladd", fp_muladd), ("_fp_div", fp_div), ("_fp_sqrt", fp_sqrt),
                   ("_fp_round_single", fp_round_single), ("_fp_to_int", fp_to_int),
                   ("_int_to_fp", int_to_fp), ("_fp_compare", fp_compare),
                   ("_fp_convert", fp_convert)):
    runtime(_name)(_fn)


def _const_arg(v, what):
    if v.const is None:
        raise TypeError(f"{what} must be a constant")
    return v.const


def _flag_arg(v, what):
    # a yes/no argument is spelled 0 or 1: any other constant is a typo in the page
    flag = _const_arg(v, what)
    if flag not in (0, 1):
        raise TypeError(f"{what} is 0 or 1")
    return bool(flag)


def _bits_arg(v):
    bits = _const_arg(v, "the precision argument")
    if bits not in (32, 64):
        raise TypeError("the precision argument is 32 or 64")
    return bits


def _state_call(comp, code, width):
    """An FP helper call: it updates the FPSCR, may leave a pending enabled-
    exception interrupt (raised by the page's epilogue) and, assigned straight
    to a register (``comp.fp_keep``: its keep-FRT form), may return None to leave that register as it
    was (an enabled invalid operation / zero divide)."""
    comp.note_write()  # the helper updates the FPSCR
    comp.fp_epilogue = True
    comp.fp_keep[code] = code[:-1] + ", keep=True)"
    return _val(code, width)


def _prec_arg(v, what="the precision argument", allowed=(32, 64, 128)):
    """A result precision of the helpers that handle quad precision too."""
    bits = _const_arg(v, what)
    if bits not in allowed:
        raise TypeError(f"{what} is one of {', '.join(map(str, allowed))}")
    return bits


def _image_arg(v):
    """The stored image an operand is read as: its width says (128 bits:
    binary128, else the 64-bit double image)."""
    return "_fp_quad" if v.width == 128 else "_fp_double"


def _round_odd_arg(args, n):
    """The optional trailing round-to-odd argument (the RO field) after ``n``
    fixed arguments: its run-time code, or False."""
    if len(args) == n:
        return "False"
    if len(args) != n + 1:
        raise TypeError(f"takes {n} arguments and an optional round-to-odd flag")
    return f"bool({args[n].code})"


def _muladd_intrinsic(has_product, has_addend, negate_addend, negate_result):
    def gen(comp, *args):
        n = 4 if has_product and has_addend else 3
        round_odd = _round_odd_arg(args, n)
        if has_product and has_addend:
            a, c, b, bits = args[:4]
        elif has_product:
            (a, c, bits), b = args[:3], None
        else:
            (a, b, bits), c = args[:3], None
        bits = _prec_arg(bits)
        return _state_call(comp, (
            f"_fp_muladd(s, {a.code}, {c.code if c else 0}, {b.code if b else 0}, "
            f"{negate_addend}, {negate_result}, {bits}, {has_product}, "
            f"{has_addend}, round_odd={round_odd})"), 128 if bits == 128 else 64)
    return gen


# FPADD(x, y, bits) ... FPNMSUB(a, c, b, bits): bits is the result precision
# (128: binary128 operands and result); an optional last argument 1 rounds
# to odd (the quad-precision RO=1 forms).
for _name, _spec in {
        "FPADD": (False, True, False, False), "FPSUB": (False, True, True, False),
        "FPMUL": (True, False, False, False),
        "FPMADD": (True, True, False, False), "FPMSUB": (True, True, True, False),
        "FPNMADD": (True, True, False, True), "FPNMSUB": (True, True, True, True)}.items():
    intrinsic(_name)(_muladd_intrinsic(*_spec))


@intrinsic("FPDIV")
def _i_fpdiv(comp, a, b, bits, *ro):
    bits = _prec_arg(bits)
    return _state_call(comp, f"_fp_div(s, {a.code}, {b.code}, {bits}, "
                             f"round_odd={_round_odd_arg(ro, 0)})", 128 if bits == 128 else 64)


@intrinsic("FPSQRT")
def _i_fpsqrt(comp, b, bits, *ro):
    bits = _prec_arg(bits)
    return _state_call(comp, f"_fp_sqrt(s, {b.code}, {bits}, "
                             f"round_odd={_round_odd_arg(ro, 0)})", 128 if bits == 128 else 64)


@intrinsic("FPROUNDSINGLE")
def _i_fpround(comp, b):
    return _state_call(comp, f"_fp_round_single(s, {b.code})", 64)


@intrinsic("FPCONVERT")
def _i_fpconvert(comp, b, bits, *ro):
    """FPCONVERT(x, bits[, round_odd]): x (128 bits wide: binary128, else a
    double) rounded to precision ``bits`` (xscvdpqp, xscvqpdp[o])."""
    bits = _prec_arg(bits)
    return _state_call(comp, f"_fp_convert(s, {b.code}, {_image_arg(b)}, {bits}, "
                             f"round_odd={_round_odd_arg(ro, 0)})", 128 if bits == 128 else 64)


@intrinsic("FPTOINT")
def _i_fptoint(comp, b, width, is_signed, toward_zero):
    """FPTOINT(x, width, signed, toward_zero): fcti* conversions; x 128 bits
    wide is binary128 (its integer may be 128 bits wide too)."""
    width = _prec_arg(width, "the integer width") if b.width == 128 else _bits_arg(width)
    return _state_call(comp, (
        f"_fp_to_int(s, {b.code}, {width}, "
        f"{_flag_arg(is_signed, 'signed')}, "
        f"{_flag_arg(toward_zero, 'toward_zero')}, img={_image_arg(b)})"), max(width, 64))


@intrinsic("INTTOFP")
def _i_inttofp(comp, x, is_signed, bits):
    """INTTOFP(x, signed, bits): fcfid* conversions; x 128 bits wide is a
    128-bit integer, bits 128 a binary128 result."""
    bits = _prec_arg(bits)
    width = 128 if x.width == 128 else 64
    return _state_call(comp, (
        f"_int_to_fp(s, {x.code}, {_flag_arg(is_signed, 'signed')}, "
        f"{bits}, width={width})"), 128 if bits == 128 else 64)


@intrinsic("FPCOMPARE")
def _i_fpcompare(comp, a, b, ordered):
    """FPCOMPARE(a, b, ordered): the FL FG FE FU code; sets FPCC, VXSNAN (VXVC).
    128-bit operands are binary128."""
    return _state_call(comp, (
        f"_fp_compare(s, {a.code}, {b.code}, {_flag_arg(ordered, 'ordered')}, "
        f"img={_image_arg(a)})"), 4)


runtime("_fp_quad")(QUAD_FMT)
runtime("_fp_double")(DOUBLE_FMT)


def fp_signal(s, flags, keep=False):
    """FPSIGNAL(bits): record the exception bits ``flags`` (sticky, with FX and
    the summaries) for an instruction that raises them outside an arithmetic
    helper (fminmax's VXSNAN); an enabled one takes the interrupt after the
    instruction completes, as the helpers' do.  Returns the new FPSCR."""
    old = s.fpscr
    s.fpscr = with_summary(old, old | (flags & EXCEPTION_BITS))
    note_enabled(s, flags)
    return s.fpscr


runtime("_fp_signal")(fp_signal)


@intrinsic("FPSIGNAL")
def _i_fpsignal(comp, flags):
    return _state_call(comp, f"_fp_signal(s, {flags.code})", 64)


runtime("_fp_interrupt")(fp_interrupt)
runtime_function("DOUBLE", 64, "_fp_single_to_double")(single_to_double)
runtime_function("SINGLE", 32, "_fp_double_to_single")(double_to_single)
runtime_function("FPSCR_SUMMARY", 64, "_fpscr_with_summary")(with_summary)
runtime_function("FPSCR_RECOMPUTE", 64, "_fpscr_recompute_summary")(recompute_summary)


# the transcendental helpers (fptrans.py) build on this module: imported last,
# so that importing fp first or library first both find every name defined
from . import fptrans  # noqa: E402,F401
from . import fpgpr  # noqa: E402,F401  (cffpr: FP to an integer in a GPR)
from . import fp_frsp_model  # noqa: E402,F401  (FRSP_MODEL: the openpower-isa profile's)
from . import fpestimate  # noqa: E402,F401  (round to integral, estimates, ftdiv/ftsqrt)
from . import fpvector  # noqa: E402,F401  (VSX vector FP: element rules, conversions)
from . import vmxfp  # noqa: E402,F401  (VMX floating point: VSCR.NJ, estimates)
from . import fpquad  # noqa: E402,F401  (the quad-precision VSX rounding and class tests)
