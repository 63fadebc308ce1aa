"""Floating-point operands whose exact result lies within a few ulps of the
normal/denormal boundary +-2**emin (double emin -1022, single -126), where
tininess (UX), FR and FI are decided (Power ISA Book I 4.4.5: tiny means below
2**emin *before* rounding).  Uniformly random operands almost never land
there (issue 36); the differential draws some of its FP cases from here.
"""
import re
import struct
from fractions import Fraction

# (emin, precision) of each result format
FORMATS = {64: (-1022, 53), 32: (-126, 24)}
# the rows drawn: multiply, divide, add/subtract, the fused forms and frsp
ROWS = re.compile(r"^(f(mul|div|add|sub|madd|msub|nmadd|nmsub)s?|frsp)\.?$")


def image(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def value(x):
    """The exact rational value of a finite double image."""
    return Fraction(struct.unpack("<d", struct.pack("<Q", x))[0])


def nearest(q):
    """The double nearest the rational ``q`` (int/int division is correctly
    rounded in Python), as an image."""
    return image(q.numerator / q.denominator)


def result_width(mnemonic):
    base = mnemonic.rstrip(".")
    return 32 if base.endswith("s") or base == "frsp" else 64


def operands(rng, mnemonic):
    """{FRA, FRB, FRC: image} for ``mnemonic`` (a row ROWS matches): the exact
    result is t = +-(2**emin + k/8 ulp), k in -40..40, or within a double ulp
    of it (far below the result format's ulp for single precision)."""
    base = mnemonic.rstrip(".")
    emin, p = FORMATS[result_width(mnemonic)]
    ulp = Fraction(2) ** (emin - p + 1)
    t = (Fraction(2) ** emin + ulp * rng.randint(-40, 40) / 8) * rng.choice((1, -1))

    def scale():  # a random double in [1, 2) * 2**e, e about emin / 2
        return Fraction(rng.getrandbits(52) + (1 << 52), 1 << 52) * \
            Fraction(2) ** rng.randint(emin // 2 - 4, emin // 2 + 4)

    if base.startswith("fmul"):
        a = nearest(scale())
        return {"FRA": a, "FRC": nearest(t / value(a))}
    if base.startswith("fdiv"):
        b = nearest(scale())
        return {"FRA": nearest(t * value(b)), "FRB": b}
    if base.startswith(("fmadd", "fmsub", "fnmadd", "fnmsub")):
        # FRB a few ulps either way (or 0); the product lands next to t -+ FRB
        # (the fnm forms negate the rounded sum: the same magnitudes)
        b = nearest(ulp * rng.randint(-16, 16) / rng.choice((1, 3, 8)))
        target = t - value(b) if "madd" in base else t + value(b)
        a = nearest(scale())
        return {"FRA": a, "FRB": b, "FRC": nearest(target / value(a))}
    if base.startswith(("fadd", "fsub")):
        d = Fraction(2) ** emin * Fraction(rng.randint(1, 1 << 20), 1 << 18) * \
            rng.choice((1, -1))
        return {"FRA": nearest(t + d), "FRB": nearest(-d if base.startswith("fadd") else d)}
    # frsp: the value itself, with bits below the single ulp
    return {"FRB": nearest(t + ulp * Fraction(rng.getrandbits(20), 1 << 24))}
