"""FRSP_MODEL(x): Power ISA Book I Appendix A.1's "Round to Single-Precision
Model", run as written, for the openpower-isa profile's single-precision pages
(pseudocode/profiles/openpower_isa/fparith.mdwn).

openpower-isa (3cb597b9) rounds every single-precision arithmetic result
through that model: helpers.py ``FPADD32`` ... ``FPMULADD32`` compute the
host's double result and call ``DOUBLE2SINGLE``, i.e. ``FRSP``, whose page
(openpower/isafunctions/double2single.mdwn) is Appendix A.1 transcribed.  The
model differs from the ISA's instruction pages (and from isa_ext's
FPROUNDSINGLE) in what it records in the FPSCR:

* FX is never set (the model names no summary bit; openpower-isa's FPSCRState
  recomputes VX and FEX on every write, never FX);
* with UE=0 a tiny result *assigns* UX (tiny and inexact), clearing a UX an
  earlier instruction set;
* a zero or infinite operand leaves FR and FI as they were: the model's
  ``FPSCR[FRFI] <- 0b00`` names no field of openpower-isa's FPSCRState, so
  the assignment sets an unused Python attribute (run live: `fadds 10,1,2`
  of 1.0 + 0.1 then `fsubs 11,1,1` ends with FR FI still set, FPSCR
  0x2062000);
* an infinite operand records no OX or XX (the host's double arithmetic
  overflowed already);
* an overflow with OE=1 after rounding calls ``FRSP_Enabled_Overflow``, which
  the model never defines (openpower-isa raises AttributeError): a trap here.

The FPSCR's reserved bits are cleared and VX, FEX recomputed, as ever.
"""
from ..errors import Trap
from .fp import (SIGN64, M64, QUIET_BIT, OX, UX, XX, VXSNAN, FR, FI, FPRF_SHIFT,
                 FPRF_MASK, OE, UE, VE, RN_MASK, recompute_summary, note_enabled,
                 _state_call)
from .library import intrinsic, runtime

MANT = (1 << 52) - 1
FRAC_BITS = 53          # frac[0:52] of the model: the implicit bit and 52 more
LOW29 = (1 << 29) - 1   # frac[24:52]: what single precision drops

# FPRF codes (Book I figure "Floating-Point Result Flags"), by (class, sign)
FPRF = {("zero", 0): 0b00010, ("zero", 1): 0b10010,
        ("normal", 0): 0b00100, ("normal", 1): 0b01000,
        ("denormal", 0): 0b10100, ("denormal", 1): 0b11000,
        ("infinity", 0): 0b00101, ("infinity", 1): 0b01001, ("qnan", 0): 0b10001}


class _Model:
    """One run of the model: ``f`` the FPSCR as it goes."""

    def __init__(self, fpscr):
        self.f = fpscr

    def set(self, bit, on):
        self.f = (self.f | bit) if on else (self.f & ~bit)

    def fprf(self, kind, sign=0):
        self.f = (self.f & ~FPRF_MASK) | (FPRF[kind, sign] << FPRF_SHIFT)

    def round_single(self, sign, exp, frac, g, r, x):
        """Round_Single: keep frac[0:23], set FR and FI."""
        lsb, gbit, rbit = (frac >> 29) & 1, (frac >> 28) & 1, (frac >> 27) & 1
        xbit = bool(frac & ((1 << 27) - 1)) or bool(g | r | x)
        rn = self.f & RN_MASK
        if rn == 0:
            inc = int(bool(gbit and (lsb or rbit or xbit)))
        elif rn == 2:
            inc = int(not sign and bool(gbit or rbit or xbit))
        elif rn == 3:
            inc = int(bool(sign) and bool(gbit or rbit or xbit))
        else:
            inc = 0
        top = ((frac >> 29) + inc) & 0xFFFFFF
        if inc and top == 0:
            top, exp = 0x800000, exp + 1
        self.set(FR, inc)
        self.set(FI, gbit or rbit or xbit)
        return exp, top << 29

    def xx_from_fi(self):
        self.set(XX, self.f & (XX | FI))

    @staticmethod
    def pack(sign, exp, frac):
        return (sign << 63) | (((exp + 1023) & 0x7FF) << 52) | (frac & MANT)

    @staticmethod
    def operand(b):
        """(exp, frac[0:52]) of a non-zero finite double: a denormal one with
        exponent -1022 and no implicit bit."""
        e = (b >> 52) & 0x7FF
        if e == 0:
            return -1022, b & MANT
        return e - 1023, (1 << 52) | (b & MANT)

    def run(self, b):
        e, sign = (b >> 52) & 0x7FF, b >> 63
        if e < 897 and b & ~SIGN64 & M64:
            return self.enabled_underflow(b) if self.f & UE else self.disabled_underflow(b)
        if 1150 < e < 2047:
            return self.enabled_overflow(b) if self.f & OE else self.disabled_overflow(b)
        if 896 < e < 1151:
            return self.normal(b)
        if not b & ~SIGN64 & M64:
            self.fprf("zero", sign)  # FR FI kept (FPSCR[FRFI]: no such field)
            return b
        if not b & MANT:
            self.fprf("infinity", sign)  # FR FI kept, no OX
            return b
        if b & QUIET_BIT:
            self.fprf("qnan")
            self.set(FR, 0)
            self.set(FI, 0)
            return b & ~LOW29
        self.set(VXSNAN, 1)
        result = 0
        if not self.f & VE:
            result = (b | QUIET_BIT) & ~LOW29
            self.fprf("qnan")
        self.set(FR, 0)
        self.set(FI, 0)
        return result

    def disabled_underflow(self, b):
        sign = b >> 63
        exp, frac = self.operand(b)
        g = r = x = 0
        while exp < -126:
            exp += 1
            x |= r
            r = g
            g = frac & 1
            frac >>= 1
        self.set(UX, bool(frac & LOW29) or bool(g | r | x))
        exp, frac = self.round_single(sign, exp, frac, g, r, x)
        self.xx_from_fi()
        if frac == 0:
            self.fprf("zero", sign)
            return sign << 63
        self.fprf("normal" if frac >> 52 else "denormal", sign)
        while not frac >> 52:
            exp -= 1
            frac <<= 1
        return self.pack(sign, exp, frac)

    def enabled_underflow(self, b):
        self.set(UX, 1)
        sign = b >> 63
        exp, frac = self.operand(b)
        while not frac >> 52:
            exp -= 1
            frac <<= 1
        exp, frac = self.round_single(sign, exp, frac, 0, 0, 0)
        self.xx_from_fi()
        self.fprf("normal", sign)
        return self.pack(sign, exp + 192, frac)

    def disabled_overflow(self, b):
        sign = b >> 63
        self.set(OX, 1)
        rn = self.f & RN_MASK
        to_inf = rn == 0 or (rn == 2 and not sign) or (rn == 3 and sign)
        if to_inf:
            result = (sign << 63) | 0x7FF0000000000000
            self.fprf("infinity", sign)
        else:
            result = (sign << 63) | 0x47EFFFFFE0000000
            self.fprf("normal", sign)
        self.set(FR, 0)  # undefined(0)
        self.set(FI, 1)
        self.set(XX, 1)
        return result

    def enabled_overflow(self, b):
        sign = b >> 63
        exp, frac = self.round_single(sign, ((b >> 52) & 0x7FF) - 1023,
                                      (1 << 52) | (b & MANT), 0, 0, 0)
        self.xx_from_fi()
        self.set(OX, 1)
        self.fprf("normal", sign)
        return self.pack(sign, exp - 192, frac)

    def normal(self, b):
        sign = b >> 63
        exp, frac = self.round_single(sign, ((b >> 52) & 0x7FF) - 1023,
                                      (1 << 52) | (b & MANT), 0, 0, 0)
        self.xx_from_fi()
        if exp > 127:
            if self.f & OE:
                raise Trap("FRSP_MODEL: an overflow after rounding with FPSCR[OE]=1 calls "
                           "FRSP_Enabled_Overflow, which the model (openpower-isa's "
                           "double2single.mdwn) does not define", "illegal")
            return self.disabled_overflow(b)
        self.fprf("normal", sign)
        return self.pack(sign, exp, frac)


def frsp_model(s, b, keep=False):
    """FRT of the Appendix A.1 model for the double image ``b``; the FPSCR
    updated as the model does (see the module text)."""
    old = s.fpscr
    model = _Model(old)
    result = model.run(b & M64)
    s.fpscr = recompute_summary(model.f)
    note_enabled(s, model.f & ~old & (OX | UX | XX | VXSNAN))
    return result


runtime("_fp_frsp_model")(frsp_model)


@intrinsic("FRSP_MODEL")
def _i_frsp_model(comp, b):
    return _state_call(comp, f"_fp_frsp_model(s, {b.code})", 64)
