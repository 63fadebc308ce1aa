"""Underflow at the normal/denormal boundary 2**emin (double emin = -1022,
single emin = -126): UX, XX, FI and FR for results just above it, just below
it, and tiny results that round up to it (issue 36: a tininess test moved to
``top <= emin`` set UX for inexact results in the smallest normal binade and
no test noticed).

Power ISA v3.0B Book I 4.4.5: with UE=0, underflow (UX) is signalled when the
result is tiny -- nonzero and below 2**emin in magnitude *before rounding*
(the exact result) -- and inexact.  XX and FI mark an inexact result, FR one
whose fraction was incremented (4.3.6).  The hand derivations are in the
comments; the QEMU differential below draws operands whose exact result lies
within a few ulps of 2**emin, in every rounding mode (QEMU never sets FR:
docs/fpscr.md, so FR is checked by the hand-derived cases only).
"""
import math
import random
import struct

import pytest

from isa_ext.diffcheck import fp_boundary
from isa_ext.encoding import encode
from isa_ext.sim import Simulator
from conftest import qemu_probe_lines


def bit(n):
    """FPSCR bit n (MSB0 of the 64-bit register)."""
    return 1 << (63 - n)


FX, OX, UX, XX, FR, FI = bit(32), bit(35), bit(36), bit(38), bit(45), bit(46)
FPRF = sum(bit(n) for n in range(47, 52))
RN_NEAREST, RN_ZERO, RN_UP, RN_DOWN = 0, 1, 2, 3  # FPSCR[62:63]
FLAGS = UX | XX | FR | FI | OX


def d(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def fprf(code):
    return code << (63 - 51)


PLUS_NORMAL, MINUS_NORMAL, PLUS_DENORMAL = 0b00100, 0b01000, 0b10100


def run(isa, mnemonic, a=0, b=0, c=0, fpscr=0):
    """FRT=1 <- op(FRA=2, FRB=3, FRC=4); (result, FPSCR)."""
    row, _ = isa.by_mnemonic[mnemonic]
    fields = {op.field: {"FRT": 1, "FRA": 2, "FRB": 3, "FRC": 4}[op.field]
              for op in row.operands}
    sim = Simulator(isa)
    sim.load_words([encode(isa, mnemonic, **fields)])
    st = sim.state
    st.fpr[2], st.fpr[3], st.fpr[4] = a, b, c
    st.fpscr = fpscr
    res = sim.run(max_steps=4)
    assert res.stop == "end", res.trap
    return st.fpr[1], st.fpscr


# (1 + 2**-52) * 2**-511 is 0x2000000000000001 (biased exponent -511 + 1023 =
# 512 = 0x200, fraction 1); (1 + 2**-51) * 2**-511 is 0x2000000000000002.
# Their product is (1 + 3 * 2**-52 + 2**-103) * 2**-1022: in the smallest
# normal binade [2**-1022, 2**-1021), so NOT tiny.  Kept: 1 + 3 * 2**-52
# (0x0010000000000003); the discarded 2**-103 is below half an ulp (2**-53),
# so to nearest and toward zero/-inf keep it (XX FI, no FR), toward +inf
# increments to 0x0010000000000004 (XX FI FR).  Never UX.
A1, C1 = 0x2000000000000001, 0x2000000000000002
# (1 - 2**-30) * 2**-511 and (1 + 2**-30) * 2**-511 (exact doubles): product
# (1 - 2**-60) * 2**-1022, tiny (below 2**-1022) and 2**-1082 under it.  The
# denormal ulp is 2**-1074: to nearest and toward +inf it rounds up to
# 2**-1022 = 0x0010000000000000 (UX XX FI FR, a normal result: tiny before
# rounding, not after); toward zero/-inf it truncates to the largest denormal
# (2**52 - 1) * 2**-1074 = 0x000FFFFFFFFFFFFF (UX XX FI, no FR).
A2, C2 = d(math.ldexp(1 - 2.0 ** -30, -511)), d(math.ldexp(1 + 2.0 ** -30, -511))
# exact results at the boundary: 2**-511 * 2**-511 = 2**-1022 exactly (no
# flags), and (1 + 2**-52) * 2**-511 * 2**-511 = 0x0010000000000001 exactly
P511 = d(2.0 ** -511)

DOUBLE = [
    # mnemonic, a, c, rounding, result, flags (among UX XX FR FI OX), FPRF
    ("fmul", A1, C1, RN_NEAREST, 0x0010000000000003, XX | FI, PLUS_NORMAL),
    ("fmul", A1, C1, RN_ZERO, 0x0010000000000003, XX | FI, PLUS_NORMAL),
    ("fmul", A1, C1, RN_UP, 0x0010000000000004, XX | FI | FR, PLUS_NORMAL),
    ("fmul", A1, C1, RN_DOWN, 0x0010000000000003, XX | FI, PLUS_NORMAL),
    # negated: toward -inf now increments the magnitude, toward +inf truncates
    ("fmul", A1 | 1 << 63, C1, RN_DOWN, 0x8010000000000004, XX | FI | FR, MINUS_NORMAL),
    ("fmul", A1 | 1 << 63, C1, RN_UP, 0x8010000000000003, XX | FI, MINUS_NORMAL),
    ("fmul", A2, C2, RN_NEAREST, 0x0010000000000000, UX | XX | FI | FR, PLUS_NORMAL),
    ("fmul", A2, C2, RN_UP, 0x0010000000000000, UX | XX | FI | FR, PLUS_NORMAL),
    ("fmul", A2, C2, RN_ZERO, 0x000FFFFFFFFFFFFF, UX | XX | FI, PLUS_DENORMAL),
    ("fmul", A2, C2, RN_DOWN, 0x000FFFFFFFFFFFFF, UX | XX | FI, PLUS_DENORMAL),
    ("fmul", P511, P511, RN_NEAREST, 0x0010000000000000, 0, PLUS_NORMAL),
    ("fmul", 0x2000000000000001, P511, RN_UP, 0x0010000000000001, 0, PLUS_NORMAL),
    # fmadd adds FRB = +0: the same exact products, so the same roundings
    ("fmadd", A1, C1, RN_NEAREST, 0x0010000000000003, XX | FI, PLUS_NORMAL),
    ("fmadd", A2, C2, RN_ZERO, 0x000FFFFFFFFFFFFF, UX | XX | FI, PLUS_DENORMAL),
]

# Single precision (emin = -126, 24-bit significand): (1 + 2**-23) * 2**-63 is
# the double 0x3C00000020000000 (exponent 960 = 0x3C0, single fraction bit 23
# = double fraction 1 << 29), (1 + 2**-22) * 2**-63 is 0x3C00000040000000.
# Product (1 + 3 * 2**-23 + 2**-45) * 2**-126: smallest normal single binade,
# not tiny.  Kept (1 + 3 * 2**-23) * 2**-126 = double 0x3810000060000000
# (exponent 1023 - 126 = 897 = 0x381, fraction 3 << 29); toward +inf
# (1 + 4 * 2**-23) = 0x3810000080000000 with FR.
SA1, SC1 = 0x3C00000020000000, 0x3C00000040000000
# (1 -/+ 2**-30) * 2**-63: product (1 - 2**-60) * 2**-126, tiny; the single
# denormal ulp is 2**-149: nearest/+inf round up to 2**-126 = 0x3810000000000000
# (UX XX FI FR), zero/-inf truncate to (2**23 - 1) * 2**-149 = (1 - 2**-23) *
# 2**-126 = 1.11...1 (22 ones) * 2**-127: double exponent 896 = 0x380,
# fraction (2**22 - 1) << 30 = 0xFFFFFC0000000 -> 0x380FFFFFC0000000.
SA2, SC2 = d(math.ldexp(1 - 2.0 ** -30, -63)), d(math.ldexp(1 + 2.0 ** -30, -63))

SINGLE = [
    ("fmuls", SA1, SC1, RN_NEAREST, 0x3810000060000000, XX | FI),
    ("fmuls", SA1, SC1, RN_ZERO, 0x3810000060000000, XX | FI),
    ("fmuls", SA1, SC1, RN_UP, 0x3810000080000000, XX | FI | FR),
    ("fmuls", SA2, SC2, RN_NEAREST, 0x3810000000000000, UX | XX | FI | FR),
    ("fmuls", SA2, SC2, RN_UP, 0x3810000000000000, UX | XX | FI | FR),
    ("fmuls", SA2, SC2, RN_ZERO, 0x380FFFFFC0000000, UX | XX | FI),
    ("fmuls", SA2, SC2, RN_DOWN, 0x380FFFFFC0000000, UX | XX | FI),
    ("fmadds", SA1, SC1, RN_UP, 0x3810000080000000, XX | FI | FR),
]


@pytest.mark.parametrize("mnemonic,a,c,rn,result,flags,cls", DOUBLE)
def test_double_boundary(isa, mnemonic, a, c, rn, result, flags, cls):
    r, f = run(isa, mnemonic, a=a, c=c, fpscr=rn)
    assert r == result
    assert f & FLAGS == flags
    assert f & FPRF == fprf(cls)
    assert bool(f & FX) == bool(flags & (UX | XX))


@pytest.mark.parametrize("mnemonic,a,c,rn,result,flags", SINGLE)
def test_single_boundary(isa, mnemonic, a, c, rn, result, flags):
    r, f = run(isa, mnemonic, a=a, c=c, fpscr=rn)
    assert r == result
    assert f & FLAGS == flags


def test_frsp_just_below_the_single_boundary(isa):
    # frsp of the double (1 - 2**-40) * 2**-126: tiny for single; nearest
    # rounds up to 2**-126 (0x3810000000000000: UX XX FI FR), toward zero
    # truncates to the largest single denormal 0x380FFFFFC0000000 (UX XX FI)
    x = d(math.ldexp(1 - 2.0 ** -40, -126))
    assert run(isa, "frsp", b=x) == (0x3810000000000000,
                                     FX | UX | XX | FI | FR | fprf(PLUS_NORMAL))
    r, f = run(isa, "frsp", b=x, fpscr=RN_ZERO)
    assert (r, f & FLAGS) == (0x380FFFFFC0000000, UX | XX | FI)
    # (1 + 2**-40) * 2**-126: smallest normal single binade, inexact, not tiny
    r, f = run(isa, "frsp", b=d(math.ldexp(1 + 2.0 ** -40, -126)))
    assert (r, f & FLAGS) == (0x3810000000000000, XX | FI)


# --- QEMU differential at the boundary --------------------------------------------

ROWS = [("fmul", "ac"), ("fmuls", "ac"), ("fdiv", "ab"), ("fdivs", "ab"), ("fmadd", "acb"),
        ("fmadds", "acb"), ("fmsub", "acb"), ("fmsubs", "acb"), ("fadds", "ab"),
        ("fsubs", "ab"), ("frsp", "b")]


QEMU_PROBE = r"""
#include <stdio.h>
#include <string.h>
static double D(unsigned long x) { double f; memcpy(&f, &x, 8); return f; }
static unsigned long U(double f) { unsigned long x; memcpy(&x, &f, 8); return x; }
#define P(insn, RN, A, B, C) do { double r, a = D(A), b = D(B), c = D(C), z = D(RN), fs; \
  asm volatile("mtfsf 0xff,%4\n " insn "\n mffs %1" \
               : "=&f"(r), "=&f"(fs) : "f"(a), "f"(b), "f"(z), "f"(c)); \
  printf("%lx %lx\n", U(r), U(fs) & 0xffffffffUL); } while (0)
int main(void) {
@CASES@
    return 0;
}
"""
# the asm text per operand shape: %0 FRT, %2 FRA, %3 FRB, %5 FRC
ASM = {"ac": "{m} %0,%2,%5", "ab": "{m} %0,%2,%3", "acb": "{m} %0,%2,%5,%3", "b": "{m} %0,%3"}


def test_qemu_agrees_at_the_normal_denormal_boundary(isa, tmp_path):
    """Every row above, every rounding mode, operands drawn so that the exact
    result is within a few ulps of +-2**emin (isa_ext/diffcheck/fp_boundary.py,
    which the diffcheck also draws from): the result and the FPSCR (but FR,
    which QEMU 7.2 never sets) agree with qemu-ppc64le -cpu power9."""
    rng = random.Random(36)
    cases = []
    for mnemonic, shape in ROWS:
        for rn in range(4):
            for _ in range(12):
                ops = fp_boundary.operands(rng, mnemonic)
                cases.append((mnemonic, shape, rn, ops.get("FRA", 0), ops.get("FRB", 0),
                              ops.get("FRC", 0)))
    lines = [f'    P("{ASM[shape].format(m=m)}", {rn}UL, 0x{a:x}UL, 0x{b:x}UL, 0x{c:x}UL);'
             for m, shape, rn, a, b, c in cases]
    out = qemu_probe_lines(tmp_path, QEMU_PROBE.replace("@CASES@", "\n".join(lines)))
    assert len(out) == len(cases)
    compared = 0xFFFFFFFF & ~FR & ~bit(52)  # FPSCR[32:63] without FR, reserved 52
    tiny = inexact_normal = 0
    for (m, shape, rn, a, b, c), line in zip(cases, out):
        q_r, q_f = (int(x, 16) for x in line.split())
        r, f = run(isa, m, a=a, b=b, c=c, fpscr=rn)
        assert (r, f & compared) == (q_r, q_f & compared), \
            f"{m} rn={rn} a={a:#x} b={b:#x} c={c:#x}: ours {r:#x} {f:#x}, QEMU {q_r:#x} {q_f:#x}"
        tiny += bool(f & UX)
        inexact_normal += bool(f & XX and not f & UX)
    # the draw reaches both sides of the boundary
    assert tiny > 40 and inexact_normal > 40, (tiny, inexact_normal)
