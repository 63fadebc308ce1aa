"""Scalar floating point: hand-derived expectations.

Every expected image below is derived in its comment from the Power ISA
(v3.0B Book I chapter 4) or IEEE 754 binary64/binary32 encodings; FPSCR masks are
built from the ISA's bit numbers (MSB0 of the 64-bit register), not from the
implementation's constants.
"""
import math
import struct

import pytest

from isa_ext.encoding import encode
from isa_ext.sim import Simulator


def bit(n):
    """FPSCR bit n (MSB0, 64-bit register)."""
    return 1 << (63 - n)


FX, VX, OX, UX, ZX, XX = bit(32), bit(34), bit(35), bit(36), bit(37), bit(38)
VXSNAN, VXISI, VXIDI, VXZDZ, VXIMZ, VXVC = (bit(n) for n in range(39, 45))
FR, FI, VXSQRT, VXCVI = bit(45), bit(46), bit(54), bit(55)


def fprf(code):
    """FPRF (bits 47:51) holding a 5-bit class code C FL FG FE FU."""
    return code << (63 - 51)


PLUS_NORMAL, MINUS_NORMAL, PLUS_ZERO, MINUS_ZERO = 0b00100, 0b01000, 0b00010, 0b10010
PLUS_INF, MINUS_INF, QNAN, PLUS_DENORMAL = 0b00101, 0b01001, 0b10001, 0b10100

ONE = 0x3FF0000000000000       # 1.0: biased exponent 1023 = 0x3FF, fraction 0
TWO = 0x4000000000000000       # 2.0: exponent 1024
MINUS_ONE = 0xBFF0000000000000
INF = 0x7FF0000000000000
DEFAULT_QNAN = 0x7FF8000000000000


def d(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def run(isa, mnemonic, fpr=None, gpr=None, fpscr=0, mem=None, **fields):
    """Run one instruction; return the final state."""
    sim = Simulator(isa)
    sim.load_words([encode(isa, mnemonic, **fields)])
    st = sim.state
    for r, v in (fpr or {}).items():
        st.fpr[r] = v
    for r, v in (gpr or {}).items():
        st.gpr[r] = v
    for addr, (n, v) in (mem or {}).items():
        st.mem.write(addr, n, v)
    st.fpscr = fpscr
    res = sim.run(max_steps=10)
    return res


def arith(isa, mnemonic, a=0, b=0, c=0, fpscr=0):
    """FRT=1 <- op(FRA=2, FRB=3, FRC=4); returns (result, fpscr)."""
    row, _ = isa.by_mnemonic[mnemonic]
    names = [op.field for op in row.operands]
    fields = {n: {"FRT": 1, "FRA": 2, "FRB": 3, "FRC": 4}[n] for n in names}
    res = run(isa, mnemonic, fpr={2: a, 3: b, 4: c}, fpscr=fpscr, **fields)
    assert res.stop == "end", res.trap
    return res.fpr[1], res.state.fpscr


# --- basic arithmetic -----------------------------------------------------------

def test_one_plus_two(isa):
    # 3.0 = 1.5 * 2**1: exponent 1024 = 0x400, fraction .1000... = 0x8000000000000
    assert arith(isa, "fadd", a=ONE, b=TWO) == (0x4008000000000000, fprf(PLUS_NORMAL))


def test_point_one_plus_point_two(isa):
    # 0.1 = 0x1999999999999A * 2**-56 and 0.2 = 0x1999999999999A * 2**-55, so the
    # exact sum is 3 * 0x1999999999999A * 2**-56 = 0x4CCCCCCCCCCCCE * 2**-56 (55 bits).
    # Keeping 53 bits drops the two bits 0b10: exactly half an ulp, a tie; the kept
    # 0x13333333333333 is odd, so ties-to-even rounds up to 0x13333333333334 * 2**-54.
    # Exponent -54 + 52 = -2 -> biased 1021 = 0x3FD; fraction 0x3333333333334.
    # Inexact and incremented: XX (new, so FX), FI, FR; FPRF +normal.
    r, f = arith(isa, "fadd", a=d(0.1), b=d(0.2))
    assert r == 0x3FD3333333333334
    assert f == FX | XX | FR | FI | fprf(PLUS_NORMAL)


def test_ties_to_even(isa):
    # 1 + 2**-53 is exactly halfway between 1.0 (even) and 1 + 2**-52: stays 1.0,
    # inexact, not incremented
    r, f = arith(isa, "fadd", a=ONE, b=d(2.0 ** -53))
    assert (r, f) == (ONE, FX | XX | FI | fprf(PLUS_NORMAL))
    # 1 + 3 * 2**-53 is halfway between 1 + 2**-52 (odd last bit) and 1 + 2**-51
    # (even): rounds up to fraction 0b10 = 0x0000000000002
    r, f = arith(isa, "fadd", a=ONE, b=d(3 * 2.0 ** -53))
    assert (r, f) == (0x3FF0000000000002, FX | XX | FR | FI | fprf(PLUS_NORMAL))


@pytest.mark.parametrize("rn,expected", [
    (0b01, 0x3FF0000000000001),  # toward zero: truncate to 1 + 2**-52
    (0b10, 0x3FF0000000000002),  # toward +inf: up to 1 + 2**-51
    (0b11, 0x3FF0000000000001),  # toward -inf (positive value): truncate
])
def test_rounding_modes(isa, rn, expected):
    # 1 + 3 * 2**-53 = 1 + 1.5 ulp: between fractions 1 and 2
    r, f = arith(isa, "fadd", a=ONE, b=d(3 * 2.0 ** -53), fpscr=rn)
    assert r == expected
    assert f & (XX | FI) == XX | FI and f & 3 == rn


def test_fused_multiply_add_rounds_once(isa):
    # (1 + 2**-30)(1 - 2**-30) = 1 - 2**-60 exactly; + (-1) = -2**-60, exact.
    # Unfused, the product would round to 1.0 (2**-60 < half an ulp below 1, 2**-54)
    # and the sum would be +0.  -2**-60: biased exponent 1023 - 60 = 963 = 0x3C3.
    a, c = d(1 + 2.0 ** -30), d(1 - 2.0 ** -30)
    r, f = arith(isa, "fmadd", a=a, c=c, b=MINUS_ONE)
    assert r == 0xBC30000000000000
    assert f == fprf(MINUS_NORMAL)   # exact: no XX
    # fmsub: a*c - b with b = +1 gives the same; fnmadd/fnmsub negate it
    assert arith(isa, "fmsub", a=a, c=c, b=ONE)[0] == 0xBC30000000000000
    assert arith(isa, "fnmadd", a=a, c=c, b=MINUS_ONE)[0] == 0x3C30000000000000
    assert arith(isa, "fnmsub", a=a, c=c, b=ONE)[0] == 0x3C30000000000000


def test_multiply_and_divide(isa):
    # 3 * 0.5 = 1.5: exponent 1023, fraction .1 -> 0x3FF8000000000000
    assert arith(isa, "fmul", a=d(3.0), c=d(0.5))[0] == 0x3FF8000000000000
    # 1/3 = 0x15555555555555 * 2**-54 rounded: the next bit pattern is 0101..., below
    # half, so truncated; exponent -2 -> 0x3FD, fraction 0x5555555555555
    r, f = arith(isa, "fdiv", a=ONE, b=d(3.0))
    assert r == 0x3FD5555555555555
    assert f == FX | XX | FI | fprf(PLUS_NORMAL)


# --- special values ----------------------------------------------------------------

def test_signed_zero(isa):
    # x - x is +0 except when rounding toward -inf (IEEE 754 6.3)
    assert arith(isa, "fsub", a=ONE, b=ONE) == (0, fprf(PLUS_ZERO))
    assert arith(isa, "fsub", a=ONE, b=ONE, fpscr=0b11) == (1 << 63, fprf(MINUS_ZERO) | 0b11)
    # -0 + -0 = -0 ; +0 * -1 = -0
    assert arith(isa, "fadd", a=1 << 63, b=1 << 63)[0] == 1 << 63
    assert arith(isa, "fmul", a=0, c=MINUS_ONE)[0] == 1 << 63


def test_divide_by_zero(isa):
    # finite / 0: ZX, result infinity with the xor of the signs
    assert arith(isa, "fdiv", a=ONE, b=0) == (INF, FX | ZX | fprf(PLUS_INF))
    assert arith(isa, "fdiv", a=MINUS_ONE, b=0)[0] == INF | (1 << 63)
    # 0/0: invalid (VXZDZ), default QNaN
    assert arith(isa, "fdiv", a=0, b=0) == (DEFAULT_QNAN, FX | VX | VXZDZ | fprf(QNAN))
    # inf/inf: VXIDI
    assert arith(isa, "fdiv", a=INF, b=INF)[1] & VXIDI


def test_invalid_operations(isa):
    # inf - inf: VXISI; 0 * inf: VXIMZ; both give the default QNaN
    assert arith(isa, "fadd", a=INF, b=INF | 1 << 63) == (DEFAULT_QNAN, FX | VX | VXISI | fprf(QNAN))
    assert arith(isa, "fmul", a=0, c=INF) == (DEFAULT_QNAN, FX | VX | VXIMZ | fprf(QNAN))
    # sqrt of a negative number: VXSQRT
    assert arith(isa, "fsqrt", b=MINUS_ONE) == (DEFAULT_QNAN, FX | VX | VXSQRT | fprf(QNAN))


def test_overflow_and_underflow(isa):
    # 2**1000 * 2**100 = 2**1100 > largest finite: OX, XX, FI; RNE gives +inf
    r, f = arith(isa, "fmul", a=d(2.0 ** 1000), c=d(2.0 ** 100))
    assert r == INF and f & (OX | XX | FI | FX) == OX | XX | FI | FX
    # toward zero the result is the largest finite double 0x7FEFFFFFFFFFFFFF
    assert arith(isa, "fmul", a=d(2.0 ** 1000), c=d(2.0 ** 100), fpscr=1)[0] == 0x7FEFFFFFFFFFFFFF
    # 2**-1000 * 2**-60 = 2**-1060 is an exact denormal (fraction bit 2**(-1060+1074)
    # = 0x4000): no UX, since underflow with UE=0 needs inexactness
    assert arith(isa, "fmul", a=d(2.0 ** -1000), c=d(2.0 ** -60)) == (0x4000, fprf(PLUS_DENORMAL))
    # 2**-600 * 2**-600 = 2**-1200 rounds to +0: tiny and inexact -> UX XX FI
    r, f = arith(isa, "fmul", a=d(2.0 ** -600), c=d(2.0 ** -600))
    assert (r, f) == (0, FX | UX | XX | FI | fprf(PLUS_ZERO))


def test_tininess_is_detected_before_rounding(isa):
    # Smallest normal double 2**-1022 (emin); a result below it is tiny.
    # (1 + 2**-52) * 2**-1023 = 2**-1023 + 2**-1075: in [2**(emin-1), 2**emin), so tiny.
    # Denormal ulp 2**-1074: 2**-1075 is exactly half an ulp and 2**-1023 = 2**51 ulps
    # is even -> stays 0x0008000000000000 (fraction bit 51).  Tiny and inexact: UX XX FI
    # (FX), not incremented; FPRF +denormal.  qemu-ppc64le -cpu power9 gives 0x8a034000.
    r, f = arith(isa, "fmul", a=0x3FF0000000000001, c=0x0008000000000000)
    assert (r, f) == (0x0008000000000000, FX | UX | XX | FI | fprf(PLUS_DENORMAL))
    # (2 - 2**-52) * 2**-1023 = 2**-1022 - 2**-1075 = (2**52 - 1/2) ulps: a tie between
    # 2**52 - 1 (odd) and 2**52 (even) -> rounds up to 2**-1022, the smallest normal
    # 0x0010000000000000.  Tiny before rounding (not after), inexact -> UX set: the
    # Power ISA detects tininess before rounding.  QEMU: 0x8a024000 (it never sets FR).
    r, f = arith(isa, "fmul", a=0x3FFFFFFFFFFFFFFF, c=0x0008000000000000)
    assert r == 0x0010000000000000
    assert f == FX | UX | XX | FI | FR | fprf(PLUS_NORMAL)


SNAN = 0x7FF0000000000005        # exponent all ones, quiet bit (12) clear, payload 5
SNAN_QUIETED = 0x7FF8000000000005


def test_nan_propagation_order(isa):
    q1, q2, q3 = 0x7FF8000000000001, 0x7FF8000000000002, 0x7FF8000000000003
    # Power propagates the first NaN among FRA, FRB, FRC (signalling or not)
    assert arith(isa, "fmadd", a=q1, b=q2, c=q3)[0] == q1
    assert arith(isa, "fmadd", a=ONE, b=q2, c=q3)[0] == q2
    assert arith(isa, "fmadd", a=ONE, b=TWO, c=q3)[0] == q3
    # an SNaN is quieted (bit 12 set) and raises VXSNAN
    assert arith(isa, "fadd", a=ONE, b=SNAN) == (SNAN_QUIETED, FX | VX | VXSNAN | fprf(QNAN))
    # FRA's QNaN wins over FRB's SNaN, which still signals
    assert arith(isa, "fadd", a=q2, b=SNAN) == (q2, FX | VX | VXSNAN | fprf(QNAN))
    # fnmadd does not negate a NaN result; fmsub does not negate FRB's NaN
    assert arith(isa, "fnmadd", a=q1 | 1 << 63, b=q2, c=q3)[0] == q1 | 1 << 63
    assert arith(isa, "fmsub", a=ONE, b=q2, c=ONE)[0] == q2
    # 0 * inf + QNaN: the NaN is the result and VXIMZ is still raised
    r, f = arith(isa, "fmadd", a=0, c=INF, b=q2)
    assert r == q2 and f & VXIMZ


def test_single_precision_rounding(isa):
    # fadds 1 + 2**-24: a tie at single precision (ulp 2**-23) -> even -> 1.0
    assert arith(isa, "fadds", a=ONE, b=d(2.0 ** -24))[0] == ONE
    # 1 + 2**-24 + 2**-78 is just above that tie and must round up to 1 + 2**-23
    # (fraction bit 2**-23 is double fraction 1 << 29 = 0x20000000).  Rounding to
    # double first would lose 2**-78 and then tie down to 1.0: no double rounding.
    assert arith(isa, "fadds", a=d(1 + 2.0 ** -24), b=d(2.0 ** -78))[0] == 0x3FF0000020000000
    # a single-precision NaN result keeps 23 fraction bits (low 29 bits cleared)
    assert arith(isa, "fadds", a=0x7FF800000FFFFFFF, b=ONE)[0] == DEFAULT_QNAN
    # overflow is at the single range: 2**100 * 2**100 -> +inf
    assert arith(isa, "fmuls", a=d(2.0 ** 100), c=d(2.0 ** 100))[0] == INF


def test_single_precision_denormals(isa):
    # 1.5*2**-75 * 2**-75 = 0.75 * 2**-149: above half the smallest single denormal
    # 2**-149, rounds up to it; as a double 2**-149 has exponent 1023-149 = 874 = 0x36A
    r, f = arith(isa, "fmuls", a=d(1.5 * 2.0 ** -75), c=d(2.0 ** -75))
    assert r == 0x36A0000000000000
    assert f & (UX | XX | FI | FR) == UX | XX | FI | FR
    # FPRF classifies the double-format image in the FPR (a normal double)
    assert f & fprf(0b11111) == fprf(PLUS_NORMAL)
    # 2**-150 exactly: a tie between 0 (even) and 2**-149 -> +0
    assert arith(isa, "fmuls", a=d(2.0 ** -75), c=d(2.0 ** -75))[0] == 0
    # 3 * 2**-149 / 2 = 1.5 * 2**-149: tie between 1 and 2 units -> 2 units = 2**-148
    assert arith(isa, "fdivs", a=d(3 * 2.0 ** -149), b=TWO)[0] == d(2.0 ** -148)


def test_frsp(isa):
    # 1 + 2**-24 + 2**-30 (double) -> single: above the tie, up to 1 + 2**-23
    assert arith(isa, "frsp", b=d(1 + 2.0 ** -24 + 2.0 ** -30))[0] == 0x3FF0000020000000
    # 1e300 overflows single: OX -> +inf
    r, f = arith(isa, "frsp", b=d(1e300))
    assert r == INF and f & OX
    # an SNaN is quieted and narrowed to 23 fraction bits
    assert arith(isa, "frsp", b=0x7FF000000FFFFFFF)[0] == DEFAULT_QNAN


def test_sqrt(isa):
    # math.sqrt is IEEE correctly rounded on this host: an independent oracle
    assert arith(isa, "fsqrt", b=TWO)[0] == d(math.sqrt(2.0))
    assert arith(isa, "fsqrt", b=d(0.25))[0] == d(0.5)
    assert arith(isa, "fsqrt", b=1 << 63)[0] == 1 << 63   # sqrt(-0) = -0
    # single: 24-bit sqrt(2) = 0x3FB504F3 as a single -> double 0x3FF6A09E60000000
    assert arith(isa, "fsqrts", b=TWO)[0] == 0x3FF6A09E60000000


# --- conversions -------------------------------------------------------------------

@pytest.mark.parametrize("mnemonic,value,expected,flags", [
    ("fctiw", 2.5, 2, XX | FI),                    # RNE: tie to even 2
    ("fctiw", 3.5, 4, XX | FI | FR),               # tie to even 4, incremented
    ("fctiwz", -2.7, (1 << 64) - 2, XX | FI),      # truncate to -2, sign-extended
    ("fctiw", 3e9, 0x7FFFFFFF, VXCVI | VX),        # > 2**31-1: saturate
    ("fctiw", -3e9, 0xFFFFFFFF80000000, VXCVI | VX),
    ("fctiwu", -1.0, 0, VXCVI | VX),               # negative for unsigned
    ("fctiwu", -0.3, 0, XX | FI),                  # rounds to 0: in range, inexact
    ("fctiwuz", 5e9, 0xFFFFFFFF, VXCVI | VX),
    ("fctid", -2.0 ** 63, 1 << 63, 0),             # exactly the minimum
    ("fctidz", 2.0 ** 63, (1 << 63) - 1, VXCVI | VX),
    ("fctiduz", 2.0 ** 64, (1 << 64) - 1, VXCVI | VX),
    ("fctidu", 2.0 ** 63, 1 << 63, 0),
    # the first value past each format's largest integer saturates (every width and
    # signedness: 2^31, 2^32, 2^63, 2^64)
    ("fctiw", 2.0 ** 31, 0x7FFFFFFF, VXCVI | VX),
    ("fctiwz", 2.0 ** 31, 0x7FFFFFFF, VXCVI | VX),
    ("fctiwu", 2.0 ** 32, 0xFFFFFFFF, VXCVI | VX),
    ("fctiwuz", 2.0 ** 32, 0xFFFFFFFF, VXCVI | VX),
    ("fctid", 2.0 ** 63, (1 << 63) - 1, VXCVI | VX),
    ("fctidu", 2.0 ** 64, (1 << 64) - 1, VXCVI | VX),
])
def test_float_to_integer(isa, mnemonic, value, expected, flags):
    r, f = arith(isa, mnemonic, b=d(value))
    assert r == expected
    summary = FX if flags else 0
    invalid_fprf = fprf(QNAN) if flags & VXCVI else 0   # POWER9/QEMU: C and FU
    assert f == flags | summary | invalid_fprf


def test_float_to_integer_nan(isa):
    # NaN: the most negative integer (fctiw: word 0x80000000), VXCVI; an SNaN adds VXSNAN
    assert arith(isa, "fctiw", b=DEFAULT_QNAN)[0] == 0x80000000
    assert arith(isa, "fctid", b=SNAN) == (1 << 63, FX | VX | VXCVI | VXSNAN | fprf(QNAN))
    assert arith(isa, "fctidu", b=DEFAULT_QNAN)[0] == 0


def test_integer_to_float(isa):
    # 2**53 + 1 needs 54 bits: a tie between 2**53 (even) and 2**53 + 2 -> 2**53,
    # biased exponent 1023 + 53 = 1076 = 0x434
    assert arith(isa, "fcfid", b=(1 << 53) + 1) == (0x4340000000000000, FX | XX | FI | fprf(PLUS_NORMAL))
    # -1 as a signed doubleword is -1.0; unsigned it is 2**64 - 1, which rounds to
    # 2**64 (exponent 1023 + 64 = 0x43F)
    assert arith(isa, "fcfid", b=(1 << 64) - 1)[0] == MINUS_ONE
    assert arith(isa, "fcfidu", b=(1 << 64) - 1)[0] == 0x43F0000000000000
    assert arith(isa, "fcfidus", b=(1 << 64) - 1)[0] == 0x43F0000000000000
    # 2**24 + 1 to single: tie -> 2**24 (exponent 1023 + 24 = 0x417)
    assert arith(isa, "fcfids", b=(1 << 24) + 1)[0] == 0x4170000000000000


# --- compare and select --------------------------------------------------------------

@pytest.mark.parametrize("a,b,code", [
    (ONE, TWO, 0b1000), (TWO, ONE, 0b0100), (0, 1 << 63, 0b0010), (DEFAULT_QNAN, ONE, 0b0001),
    (INF | 1 << 63, 0xFFEFFFFFFFFFFFFF, 0b1000),
])
def test_fcmpu(isa, a, b, code):
    res = run(isa, "fcmpu", fpr={2: a, 3: b}, BF=3, FRA=2, FRB=3)
    assert res.crf[3] == code
    assert res.state.fpscr == fprf(code)       # FPCC = FPRF bits 48:51, C untouched


def test_fcmp_signalling(isa):
    res = run(isa, "fcmpu", fpr={2: SNAN, 3: ONE}, BF=0, FRA=2, FRB=3)
    assert res.state.fpscr == FX | VX | VXSNAN | fprf(0b0001)
    # fcmpo: an unordered compare is also invalid (VXVC)
    res = run(isa, "fcmpo", fpr={2: DEFAULT_QNAN, 3: ONE}, BF=0, FRA=2, FRB=3)
    assert res.state.fpscr == FX | VX | VXVC | fprf(0b0001)


def test_fcmpo_snan_with_invalid_enabled_skips_vxvc(isa):
    # Power ISA v3.0B Book I 4.6.8 fcmpo: "If one of the operands is an SNaN, then
    # VXSNAN is set, and if Invalid Operation is disabled (VE=0) then VXVC is set."
    # VE (bit 56) = 1: VXSNAN and VX only; VX with VE enabled sets FEX (bit 33).
    # (Not checked under QEMU: with VE=1 qemu-ppc64le delivers SIGFPE.)
    VE, FEX = bit(56), bit(33)
    res = run(isa, "fcmpo", fpr={2: SNAN, 3: ONE}, fpscr=VE, BF=0, FRA=2, FRB=3)
    assert res.state.fpscr == VE | FX | FEX | VX | VXSNAN | fprf(0b0001)


@pytest.mark.parametrize("a,expected", [
    (ONE, "FRC"), (1 << 63, "FRC"), (MINUS_ONE, "FRB"), (DEFAULT_QNAN, "FRB"), (INF, "FRC"),
])
def test_fsel(isa, a, expected):
    # FRA >= 0 (including -0) selects FRC; negative or NaN selects FRB
    res = run(isa, "fsel", fpr={2: a, 3: 0x1111, 4: 0x2222}, FRT=1, FRA=2, FRC=4, FRB=3)
    assert res.fpr[1] == (0x2222 if expected == "FRC" else 0x1111)


# --- moves -------------------------------------------------------------------------

def test_moves(isa):
    x = 0x7FF4000000000123  # an SNaN: moves copy bits without signalling
    assert run(isa, "fmr", fpr={3: x}, FRT=1, FRB=3).fpr[1] == x
    assert run(isa, "fneg", fpr={3: x}, FRT=1, FRB=3).fpr[1] == x | 1 << 63
    assert run(isa, "fabs", fpr={3: x | 1 << 63}, FRT=1, FRB=3).fpr[1] == x
    assert run(isa, "fnabs", fpr={3: x}, FRT=1, FRB=3).fpr[1] == x | 1 << 63
    assert run(isa, "fcpsgn", fpr={2: MINUS_ONE, 3: TWO}, FRT=1, FRA=2, FRB=3).fpr[1] == TWO | 1 << 63
    assert run(isa, "fmr", fpr={3: x}, FRT=1, FRB=3).state.fpscr == 0


def test_record_form_copies_fpscr_to_cr1(isa):
    # Rc=1: CR1 <- FPSCR[FX FEX VX OX].  0/0 sets FX and VX -> 0b1010
    res = run(isa, "fdiv.", fpr={2: 0, 3: 0}, FRT=1, FRA=2, FRB=3)
    assert res.crf[1] == 0b1010 and res.crf[0] == 0
    # fmr. with FX and OX already set -> 0b1001
    res = run(isa, "fmr.", fpr={3: ONE}, fpscr=FX | OX, FRT=1, FRB=3)
    assert res.crf[1] == 0b1001


# --- loads and stores ---------------------------------------------------------------

@pytest.mark.parametrize("word,double", [
    (0x3F800000, ONE),                  # 1.0f: exponent 127 -> 1023, fraction moves
    (0x00000001, 0x36A0000000000000),   # smallest denormal 2**-149: exponent 874
    (0x00400000, 0x3800000000000000),   # 2**-127: exponent 1023-127 = 896 = 0x380
    (0x80000000, 1 << 63),              # -0
    (0x7F800000, INF),
    (0x7F800001, 0x7FF0000020000000),   # SNaN stays signalling, payload shifted by 29
])
def test_lfs_widens_exactly(isa, word, double):
    res = run(isa, "lfs", gpr={4: 0x2000}, mem={0x2008: (4, word)}, FRT=1, RA=4, D=8)
    assert res.fpr[1] == double


@pytest.mark.parametrize("double,word", [
    (ONE, 0x3F800000),
    (0x36A0000000000000, 0x00000001),   # 2**-149 denormalises to the last bit
    (0x36A8000000000000, 0x00000001),   # 1.5 * 2**-149: truncated, never rounded
    (0x3690000000000000, 0x00000000),   # 2**-150 (exponent 873 < 874): zero
    (0x7FF0000020000000, 0x7F800001),
    (0x3FF0000010000000, 0x3F800000),   # bits below single precision are dropped
])
def test_stfs_narrows_by_truncation(isa, double, word):
    res = run(isa, "stfs", fpr={5: double}, gpr={4: 0x2000}, FRS=5, RA=4, D=-4)
    assert res.memory.read(0x1FFC, 4) == word


def test_update_and_indexed_forms(isa):
    res = run(isa, "lfdux", gpr={4: 0x2000, 7: 0x10}, mem={0x2010: (8, TWO)}, FRT=1, RA=4, RB=7)
    assert res.fpr[1] == TWO and res.gpr[4] == 0x2010
    res = run(isa, "stfsu", fpr={5: ONE}, gpr={4: 0x2000}, FRS=5, RA=4, D=4)
    assert res.memory.read(0x2004, 4) == 0x3F800000 and res.gpr[4] == 0x2004
    res = run(isa, "stfdx", fpr={5: TWO}, gpr={0: 0x999, 7: 0x2000}, FRS=5, RA=0, RB=7)
    assert res.memory.read(0x2000, 8) == TWO   # RA=0 means 0, not r0


def test_update_with_ra_zero_is_illegal(isa):
    res = run(isa, "lfsu", fpr={1: 0x1234}, FRT=1, RA=0, D=8)
    assert res.stop == "trap" and res.fpr[1] == 0x1234


# --- FPSCR moves ---------------------------------------------------------------------

def test_mffs(isa):
    res = run(isa, "mffs", fpscr=0x82024003, FRT=1)
    assert res.fpr[1] == 0x82024003


def test_mtfsf_fields_and_summaries(isa):
    # FLM=0x80 selects bits 32:35 (FX FEX VX OX) from 0xF0000000: FX and OX are
    # written, FEX and VX are computed (no invalid bit, no enable) -> 0
    res = run(isa, "mtfsf", fpr={3: 0xF0000000}, FLM=0x80, FRB=3, L=0, W=0)
    assert res.state.fpscr == FX | OX
    # FLM=0x40 writes bits 36:39, VXSNAN among them: VX follows, FX is not set
    res = run(isa, "mtfsf", fpr={3: VXSNAN}, FLM=0x40, FRB=3, L=0, W=0)
    assert res.state.fpscr == VX | VXSNAN
    # FLM=0x01 writes bits 60:63: RN = 0b11 and XE
    res = run(isa, "mtfsf", fpr={3: 0xB}, FLM=0x01, FRB=3, L=0, W=0, fpscr=FX)
    assert res.state.fpscr == FX | 0xB


def test_mtfsfi_and_bits(isa):
    # mtfsfi 7,1: bits 60:63 <- 0b0001 (RN = round toward zero)
    assert run(isa, "mtfsfi", BF=7, U=1, W=0).state.fpscr == 1
    # mtfsb1 7 sets bit 39 (VXSNAN); a new exception bit sets FX, VX follows
    assert run(isa, "mtfsb1", BT=7).state.fpscr == FX | VX | VXSNAN
    # mtfsb1 2 cannot set VX explicitly
    assert run(isa, "mtfsb1", BT=2).state.fpscr == 0
    # mtfsb0 7 clears VXSNAN and with it VX; FX stays
    assert run(isa, "mtfsb0", BT=7, fpscr=FX | VX | VXSNAN).state.fpscr == FX


def test_fx_only_on_new_exceptions(isa):
    # XX already set and FX cleared: another inexact result does not set FX again
    r, f = arith(isa, "fadd", a=d(0.1), b=d(0.2), fpscr=XX)
    assert f & FX == 0 and f & XX
