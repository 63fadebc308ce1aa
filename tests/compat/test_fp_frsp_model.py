"""FRSP_MODEL (isa_ext/pseudocode/fp_frsp_model.py): Power ISA Book I Appendix
A.1's Round to Single-Precision Model as openpower-isa's double2single.mdwn
writes it, one test per branch of the model.  Each expectation is worked out
by hand from that text in the comment; FPSCR values are the low 32 bits
(FX 0x80000000 FEX 0x40000000 VX 0x20000000 OX 0x10000000 UX 0x08000000
XX 0x02000000 VXSNAN 0x01000000 FR 0x40000 FI 0x20000, FPRF = C FL FG FE FU
0x10000 0x8000 0x4000 0x2000 0x1000, VE 0x80 OE 0x40 UE 0x20, RN the low two
bits).  The same model is run live against ISACaller by
tests/compat/test_profile.py::test_single_precision_fp_arithmetic_agrees_with_isacaller."""
import pytest

from isa_ext.errors import Trap
from isa_ext.pseudocode.fp_frsp_model import frsp_model


class State:
    def __init__(self, fpscr):
        self.fpscr, self.msr = fpscr, 0


def run(b, fpscr=0):
    s = State(fpscr)
    return frsp_model(s, b), s.fpscr & 0xFFFFFFFF


TWO_M200 = (1023 - 200) << 52   # 2**-200: below the single denormal range
TWO_P200 = (1023 + 200) << 52   # 2**200: above the single range


def test_normal_operand_rounds_to_nearest():
    # 1.1 (double 0x3ff199999999999a): fraction 0x199999999999a; its first 23
    # bits 0001 1001 1001 1001 1001 100, then guard 1 and more bits: round
    # up to ...1101, fraction 0x19999a << 28 -> 0x3ff19999a0000000; FR FI,
    # XX |= FI, FPRF + normal (FG); no FX
    assert run(0x3FF199999999999A) == (0x3FF19999A0000000, 0x02064000)


def test_disabled_underflow_assigns_ux():
    # 2**-200 with UE=0: denormalised to exponent -126 its one bit passes frac
    # and G, R into X: UX = 1 (tiny, bits lost), round to nearest: G = 0, no
    # increment, FI = 1, XX = 1, the fraction 0: +0, FPRF + zero (FE)
    assert run(TWO_M200) == (0, 0x0A022000)
    # 2**-139 (exact as a single denormal) with UX, XX set before: shifted 13
    # places nothing is lost, so UX <- 0 (assigned, not sticky), FI = FR = 0,
    # XX stays; FPRF + denormalized (C FG); FRT 2**-139 as a double
    # (exponent 1023 - 139 = 884 = 0x374)
    assert run(884 << 52, 0x0A000000) == (0x3740000000000000, 0x02014000)


def test_disabled_underflow_round_toward_plus_infinity():
    # 2**-200 with RN = 0b10: X = 1 and sign 0, so increment: the smallest
    # single denormal 2**-149 (exponent 874 = 0x36a); FPRF + denormalized,
    # UX XX FI FR
    assert run(TWO_M200, 2) == (0x36A0000000000000, 0x0A074002)


def test_enabled_underflow_adjusts_the_exponent():
    # UE=1: UX = 1, 2**-200 normalised, rounded exactly, exponent + 192:
    # 2**-8 = 0x3f70000000000000, FPRF + normal; FEX (UX and UE)
    assert run(TWO_M200, 0x20) == (0x3F70000000000000, 0x48004020)


def test_disabled_overflow_by_rounding_mode():
    # 2**200, OE=0: OX = 1, FR = 0 (undefined(0)), FI = XX = 1; round to
    # nearest gives +inf (FPRF FG FU), toward zero the largest single
    # 0x47efffffe0000000 (FPRF + normal)
    assert run(TWO_P200) == (0x7FF0000000000000, 0x12025000)
    assert run(TWO_P200, 1) == (0x47EFFFFFE0000000, 0x12024001)
    # toward -inf a negative one gives -inf (FPRF FL FU)
    assert run(TWO_P200 | 1 << 63, 3) == (0xFFF0000000000000, 0x12029003)


def test_enabled_overflow_adjusts_the_exponent():
    # OE=1: rounded exactly, OX = 1, exponent - 192: 2**8 = 0x4070000000000000,
    # FPRF + normal; FEX (OX and OE)
    assert run(TWO_P200, 0x40) == (0x4070000000000000, 0x50004040)


def test_normal_operand_rounding_past_the_largest_single():
    # the largest single's fraction (23 ones) with the guard bit set: round
    # to nearest increments, the fraction wraps, exponent 128 > 127: the
    # disabled-overflow result, +inf, OX FI XX, FR = 0
    assert run(0x47EFFFFFF0000000) == (0x7FF0000000000000, 0x12025000)
    # with OE=1 the model calls FRSP_Enabled_Overflow, which it never defines
    with pytest.raises(Trap, match="FRSP_Enabled_Overflow"):
        run(0x47EFFFFFF0000000, 0x40)


def test_zero_and_infinity_keep_fr_fi():
    # FRSP_Zero_Operand / _Infinity_Operand: FRT = FRB, FPRF set; their
    # FPSCR[FRFI] <- 0b00 names no FPSCRState field, so FR FI stay set
    assert run(1 << 63, 0x60000) == (1 << 63, 0x72000)          # - zero: C FE
    assert run(0x7FF0000000000000, 0x60000) == (0x7FF0000000000000, 0x65000)


def test_nan_operands():
    # QNaN: the fraction cut to 23 bits, FPRF QNaN (C FU), FR = FI = 0
    assert run(0x7FF8000000000001, 0x60000) == (0x7FF8000000000000, 0x11000)
    # SNaN, VE=0: VXSNAN (and VX), quieted and cut, FPRF QNaN
    assert run(0x7FF4000000000000) == (0x7FFC000000000000, 0x21011000)
    # SNaN, VE=1: FRT = 0, FPRF left as it was; FEX (VX and VE)
    assert run(0x7FF4000000000000, 0x80) == (0, 0x61000080)
