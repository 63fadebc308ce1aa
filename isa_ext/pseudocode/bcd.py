"""Decimal integer (packed BCD) helpers of the Vector Facility (Power ISA
v3.1 Book I 6.17: bcdadd. ... bcdutrunc.; docs/vector.md "Decimal").

A signed packed decimal is 31 digits (nibbles 0..30, most significant
first) and a sign code in nibble 31: 0xA 0xC 0xE 0xF plus, 0xB 0xD minus,
below 0xA invalid, as is a digit above 9.  A generated plus sign is 0xC
(PS=0) or 0xF (PS=1), a minus sign 0xD.  An unsigned packed decimal is 32
digits.

Each helper returns the 128-bit result above the 4-bit CR6 value
(LT GT EQ SO): ``r <- BCD_ADD((VRA), (VRB), PS)`` then ``VRT <- r[0:127]``
and ``CR[56:59] <- r[128:131]``.  CR6 is the book's: an invalid operand
gives 0b0001; otherwise LT/GT/EQ compare the value the book names with 0
and SO is the overflow.  Where the book leaves VRT undefined (an invalid
operand, bcdcfsq.'s overflow) the helpers give what QEMU 7.2 writes: the
previous VRT (``t``) when QEMU leaves it unchanged, else its partial result.
"""
from . import library

DIGITS = 31
MODULUS = 10 ** DIGITS
MASK128 = (1 << 128) - 1
INVALID = 0b0001


def nibble(x, i):
    """Nibble i of a 128-bit value (0 the most significant)."""
    return (x >> (4 * (31 - i))) & 0xF


def is_minus(sign):
    return sign in (0xB, 0xD)


def preferred_sign(minus, ps):
    return 0xD if minus else 0xF if ps else 0xC


def packed_digits(value, ndigits):
    """``value`` (< 10**ndigits) as ndigits BCD nibbles."""
    out = 0
    for ch in f"{value:0{ndigits}d}":
        out = out << 4 | int(ch)
    return out


def digits_value(x, first, last):
    """The decimal number of nibbles first..last (all <= 9)."""
    v = 0
    for i in range(first, last + 1):
        v = v * 10 + nibble(x, i)
    return v


def digits_valid(x, first, last):
    return all(nibble(x, i) <= 9 for i in range(first, last + 1))


def signed_decimal(x):
    """(valid, magnitude, minus) of a signed packed decimal."""
    sign = x & 0xF
    valid = sign >= 0xA and digits_valid(x, 0, 30)
    return valid, digits_value(x, 0, 30) if valid else 0, is_minus(sign)


def signed_result(magnitude, minus, ps):
    return packed_digits(magnitude, DIGITS) << 4 | preferred_sign(minus, ps)


def cr6(lt=False, gt=False, eq=False, so=False):
    return int(lt) << 3 | int(gt) << 2 | int(eq) << 1 | int(so)


def compared(magnitude, minus, so=False):
    """CR6 comparing a signed decimal with zero (a minus zero is zero)."""
    return cr6(minus and magnitude != 0, not minus and magnitude != 0, magnitude == 0, so)


def out(result, cr):
    return (result & MASK128) << 4 | cr


def _byte(x, i):
    return (x >> (8 * (15 - i))) & 0xFF


def _hword(x, i):
    return (x >> (16 * (7 - i))) & 0xFFFF


def _signed_byte7(x):
    n = _byte(x, 7)
    return n - 256 if n & 0x80 else n


# --- add and subtract -----------------------------------------------------

def add(a, b, ps, negate_b=False):
    va, ma, na = signed_decimal(a)
    vb, mb, nb = signed_decimal(b)
    if not (va and vb):
        return out(MASK128, INVALID)            # undefined: QEMU writes all ones
    r = (-ma if na else ma) + (mb if nb == negate_b else -mb)
    ox = abs(r) > MODULUS - 1
    return out(signed_result(abs(r) % MODULUS, r < 0, ps), cr6(r < 0, r > 0, r == 0, ox))


library.runtime_function("BCD_ADD", 132, "_bcd_add")(lambda a, b, ps: add(a, b, ps))
library.runtime_function("BCD_SUB", 132, "_bcd_sub")(lambda a, b, ps: add(a, b, ps, True))


# --- national (UTF-16 '0'..'9', '+' / '-') ----------------------------------

@library.runtime_function("BCD_CFN", 132, "_bcd_cfn")
def from_national(b, ps):
    sign = _hword(b, 7)
    valid = sign in (0x2B, 0x2D) and all(0x30 <= _hword(b, i) <= 0x39 for i in range(7))
    minus = sign == 0x2D
    if valid:
        mag = sum((_hword(b, i) & 0xF) * 10 ** (6 - i) for i in range(7))
        return out(signed_result(mag, minus, ps), compared(mag, minus))
    r = 0                                       # undefined: QEMU's partial result
    for i in range(6, -1, -1):
        if not 0x30 <= _hword(b, i) <= 0x39:
            break
        r |= (_hword(b, i) & 0xF) << (4 * (7 - i))
    return out(r | preferred_sign(sign != 0x2B, ps), INVALID)


@library.runtime_function("BCD_CTN", 132, "_bcd_ctn")
def to_national(b):
    valid, mag, minus = signed_decimal(b)
    sign_hword = 0x2D if minus else 0x2B
    if valid:
        r = sign_hword
        for i in range(7):
            r |= (0x30 + nibble(b, 24 + i)) << (16 * (7 - i))
        ox = any(nibble(b, i) for i in range(24))
        return out(r, compared(mag, minus, ox))
    # undefined: QEMU converts digits from the right up to the first invalid
    # one (included), and checks only those seven digits
    r, bad = sign_hword, (b & 0xF) < 0xA
    for i in range(6, -1, -1):
        d = nibble(b, 24 + i)
        bad = bad or d > 9
        r |= (0x30 + d) << (16 * (7 - i))
        if bad:
            break
    return out(r, INVALID)


# --- zoned (one digit a byte: zone nibble, digit nibble) --------------------

@library.runtime_function("BCD_CFZ", 132, "_bcd_cfz")
def from_zoned(b, ps):
    zone = 0xF if ps else 0x3
    sign_zone = _byte(b, 15) >> 4
    minus = is_minus(sign_zone) if ps else bool(sign_zone & 0x4)
    valid = (not ps or sign_zone >= 0xA) and (_byte(b, 15) & 0xF) <= 9 and all(
        _byte(b, i) >> 4 == zone and _byte(b, i) & 0xF <= 9 for i in range(15))
    sign = 0xD if minus else 0xC
    if valid:
        mag = sum((_byte(b, i) & 0xF) * 10 ** (15 - i) for i in range(16))
        return out(packed_digits(mag, DIGITS) << 4 | sign, compared(mag, minus))
    r = 0                                       # undefined: QEMU's partial result
    for i in range(15, -1, -1):
        by = _byte(b, i)
        if (i < 15 and by >> 4 != zone) or by & 0xF > 9:
            break
        r |= (by & 0xF) << (4 * (16 - i))
    return out(r | sign, INVALID)


@library.runtime_function("BCD_CTZ", 132, "_bcd_ctz")
def to_zoned(b, ps):
    valid, mag, minus = signed_decimal(b)
    zone = 0xF if ps else 0x3
    sign_zone = (0xD if minus else 0xC) if ps else (0x7 if minus else 0x3)
    if valid:
        r = 0
        for i in range(16):
            r |= (zone << 4 | nibble(b, 15 + i)) << (8 * (15 - i))
        r = (r & ~(0xF0)) | sign_zone << 4
        ox = any(nibble(b, i) for i in range(15))
        return out(r, compared(mag, minus, ox))
    # undefined: QEMU converts digits from the right up to the first invalid one
    # (excluded), checks only those sixteen, and reads an invalid sign as minus
    r = 0
    if (b & 0xF) >= 0xA:
        for i in range(15, -1, -1):
            d = nibble(b, 15 + i)
            if d > 9:
                break
            r |= (zone << 4 | d) << (8 * (15 - i))
    sign_zone = (0xC if (b & 0xF) >= 0xA and not minus else 0xD) if ps else \
        (0x3 if (b & 0xF) >= 0xA and not minus else 0x7)
    return out((r & ~0xF0) | sign_zone << 4, INVALID)


# --- signed quadword -------------------------------------------------------

@library.runtime_function("BCD_CFSQ", 132, "_bcd_cfsq")
def from_signed_quadword(b, t, ps):
    v = b - (1 << 128) if b >> 127 else b
    ox = abs(v) > MODULUS - 1
    cr = cr6(v < 0, v > 0, v == 0, ox)
    if ox:
        return out(t, cr)                       # undefined: QEMU leaves VRT
    return out(signed_result(abs(v), v < 0, ps), cr)


@library.runtime_function("BCD_CTSQ", 132, "_bcd_ctsq")
def to_signed_quadword(b):
    valid, mag, minus = signed_decimal(b)
    if valid:
        return out(-mag if minus else mag, compared(mag, minus))
    # undefined: QEMU accumulates digits from the left (at least two) up to the
    # first invalid one, an invalid digit at its face value
    v, bad = nibble(b, 0), (b & 0xF) < 0xA or nibble(b, 0) > 9
    for i in range(1, 31):
        v = v * 10 + nibble(b, i)
        bad = bad or nibble(b, i) > 9
        if bad:
            break
    return out(-v if minus else v, INVALID)


# --- signs -----------------------------------------------------------------

@library.runtime_function("BCD_SETSGN", 132, "_bcd_setsgn")
def set_sign(b, ps):
    valid, mag, minus = signed_decimal(b)
    r = (b & ~0xF) | preferred_sign(minus, ps)
    return out(r, compared(mag, minus) if valid else INVALID)


@library.runtime_function("BCD_CPSGN", 132, "_bcd_cpsgn")
def copy_sign(a, b, t):
    va, ma, _ = signed_decimal(a)
    vb, _, nb = signed_decimal(b)
    if (a & 0xF) < 0xA or (b & 0xF) < 0xA:
        return out(t, INVALID)                  # undefined: QEMU leaves VRT
    r = (a & ~0xF) | (b & 0xF)
    return out(r, compared(ma, nb) if va and vb else INVALID)


# --- shifts and truncation ---------------------------------------------------
# CR6's LT/GT/EQ compare the source (VRB) with zero, as the book's RTL has it.

def _shifted(mag, n, ndigits, limit, rounded=False):
    """(digits, overflow) of mag shifted left n digits (right when n <= 0),
    the count clamped to ``limit``; ``rounded``: a right shift adds 1 when the
    first digit shifted out is 5 or more."""
    modulus = 10 ** ndigits
    if n > 0:
        sh = min(n, limit)
        return (mag * 10 ** sh) % modulus, mag * 10 ** sh >= modulus
    sh = min(-n, limit)
    r = mag // 10 ** sh
    if rounded and sh and (mag // 10 ** (sh - 1)) % 10 >= 5:
        r += 1
    return r, False


def _signed_shift(a, b, t, ps, rounded):
    valid, mag, minus = signed_decimal(b)
    if not valid:
        return out(t, INVALID)                  # undefined: QEMU leaves VRT
    r, ox = _shifted(mag, _signed_byte7(a), DIGITS, DIGITS, rounded)
    return out(signed_result(r, minus, ps), compared(mag, minus, ox))


library.runtime_function("BCD_SHIFT", 132, "_bcd_shift")(
    lambda a, b, t, ps: _signed_shift(a, b, t, ps, False))
library.runtime_function("BCD_SHIFT_ROUND", 132, "_bcd_shift_round")(
    lambda a, b, t, ps: _signed_shift(a, b, t, ps, True))


@library.runtime_function("BCD_USHIFT", 132, "_bcd_ushift")
def unsigned_shift(a, b, t):
    if not digits_valid(b, 0, 31):
        return out(t, INVALID)
    v = digits_value(b, 0, 31)
    r, ox = _shifted(v, _signed_byte7(a), 32, 32)
    return out(packed_digits(r, 32), cr6(False, v != 0, v == 0, ox))


@library.runtime_function("BCD_TRUNC", 132, "_bcd_trunc")
def truncate(a, b, t, ps):
    valid, mag, minus = signed_decimal(b)
    if not valid:
        return out(t, INVALID)
    length = _hword(a, 3)
    r = mag % 10 ** length if length < DIGITS else mag
    return out(signed_result(r, minus, ps), compared(mag, minus, r != mag))


@library.runtime_function("BCD_UTRUNC", 132, "_bcd_utrunc")
def unsigned_truncate(a, b, t):
    if not digits_valid(b, 0, 31):
        return out(t, INVALID)
    v = digits_value(b, 0, 31)
    length = _hword(a, 3)
    r = v % 10 ** length if length < 32 else v
    return out(packed_digits(r, 32), cr6(False, v != 0, v == 0, r != v))
