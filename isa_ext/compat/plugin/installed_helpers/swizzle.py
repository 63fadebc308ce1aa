"""The swizzle extension's helpers for openpower-isa (a part of the
installed helper module: see :mod:`.common`).

SVP64 element groups (category MVRM-2P-2S1D: sv.mv.swiz, sv.fmv.swiz).  The
plugin's hook in ISACaller.call(), placed before its SVP64 element loop (which would
read the predicates as if this were an ordinary row, maybe skip the instruction, and
run the page per element on raw fields), calls ISA_EXT_SV_CALL: for an installed
group walk it runs the instruction's page once and ends the instruction there.  The
installed page walks the groups itself:

    if ISA_EXT_SVP64() = 1 then
        do g = 0 to ISA_EXT_GROUPS('mv.swiz') - 1
            ISA_EXT_GROUP(g)
            ... the group page (SRC_SUB, DST_SUB_assign, SRC_N, DST_N, IN_PLACE, FP_ONE)
            ISA_EXT_GROUP_END()
        ISA_EXT_GROUPS_END()
    else
        ... the scalar page

ISA_EXT_GROUPS decodes the prefix (RM of MVRM-2P-2S1D: EXTRA2 registers, SUBVL,
src_SUBVL, ELWIDTH/ELWIDTH_SRC, MASK / MASK_SRC twin predicates, dz/sz) as isa_ext
does (docs/swizzle.md, isa_ext/ext/swizzle/sv.py) and lists the groups to run,
horizontal-first from SVSTATE's steps; a group's writes land when
ISA_EXT_GROUP_END commits them.  With no group to run (VL=0, all masked out) one
group runs that reads zeros and writes nothing, so the page's encoding checks
(ILLEGAL) apply whatever the predicate, as isa_ext checks them at decode.
"""
from .common import FP_ELWIDTH, INT_ELWIDTH, IsaExtIllegal, M64  # one module when installed
from .common import PROVIDED, SV_ROWS, SelectableInt, _bits, _extra2  # one module when installed
from .common import _int, _offsets, _plain_hf_mode, _predicate  # one module when installed
from .common import _prefix_rm, _register, _word  # one module when installed

class _Walk:
    """One sv.* group walk: the decoded prefix and the groups to run."""

    def __init__(self, self_, row):
        pc = self_.pc.CIA.value
        rm = _prefix_rm(_word(self_, pc))
        suffix = _word(self_, pc + 4)
        name = "sv." + row["mnemonic"]
        mode = _plain_hf_mode(self_, rm, f"{name}: only the plain mode (zeroing sz/dz) "
                              "applies to MVRM-2P-2S1D", f"{name}: vertical-first mode is "
                              "not supported by the isa_ext plugin for openpower-isa")
        self.dz, self.sz = (mode >> 1) & 1, mode & 1
        self.regs = self_.fpr if row["regfile"] == "FPR" else self_.gpr
        ewd, ews = _bits(rm, 4, 5, 24), _bits(rm, 6, 7, 24)
        if row["regfile"] == "FPR":
            (self.ew, self.fp_one), self.ews = FP_ELWIDTH[ewd], FP_ELWIDTH[ews][0]
        else:
            self.ew, self.ews, self.fp_one = INT_ELWIDTH[ewd], INT_ELWIDTH[ews], 0
        (dfirst, dlast), (sfirst, slast) = row["dst_bits"], row["src_bits"]
        self.rt, self.rt_vec = _extra2(_bits(suffix, dfirst, dlast, 32), _bits(rm, 10, 11, 24))
        self.ra, self.ra_vec = _extra2(_bits(suffix, sfirst, slast, 32), _bits(rm, 12, 13, 24))
        subvl, src_subvl = _bits(rm, 8, 9, 24) + 1, _bits(rm, 14, 15, 24) + 1
        # pack/unpack (errata 001-3): a side with SUBVL 1 is planar, the other's size
        self.dst_n = src_subvl if subvl == 1 else subvl
        self.src_n = subvl if src_subvl == 1 else src_subvl
        self.dst_planar = subvl == 1 and src_subvl > 1
        self.src_planar = src_subvl == 1 and subvl > 1
        self.in_place = int(self.rt == self.ra and self.ew == self.ews
                            and self.rt_vec == self.ra_vec)
        vl = self.vl = self_.svstate.vl
        # isa_ext's register-file-end rule (isa_ext/svp64/regfile_end.py): a
        # vector running past r127/f127 traps before any group runs
        for what, base, vec, n, width in (("RT", self.rt, self.rt_vec, self.dst_n, self.ew),
                                          ("RA", self.ra, self.ra_vec, self.src_n, self.ews)):
            last = base + (vl * n * width - 1) // 64
            if vec and vl and last > 127:
                raise IsaExtIllegal(f"{name}: vector operand {what} at {base} runs past "
                                    f"127 ({vl * n} elements end in {last})")
        mmode = _bits(rm, 0, 0, 24)
        dmask = _predicate(self_, mmode, _bits(rm, 1, 3, 24), vl)
        smask = _predicate(self_, mmode, _bits(rm, 16, 18, 24), vl)
        self.groups = []  # (srcstep, dststep, source zeroed, destination zeroed)
        src, dst = self_.svstate.srcstep, self_.svstate.dststep
        while src < vl and dst < vl:
            if not self.sz:
                while src < vl and not (smask >> src) & 1:
                    src += 1
            if not self.dz:
                while dst < vl and not (dmask >> dst) & 1:
                    dst += 1
            if src >= vl or dst >= vl:
                break
            self.groups.append((src, dst, self.sz and not (smask >> src) & 1,
                                self.dz and not (dmask >> dst) & 1))
            if not self.rt_vec and (dmask >> dst) & 1:
                break  # a scalar destination ends the loop at its first written group
            src, dst = src + 1, dst + 1
        # no group enabled: one group that reads zeros and writes nothing, for the
        # page's checks (and openpower-isa's RANGE(0, -1) counts down: the page's
        # loop cannot run zero times)
        self.discard = not self.groups
        if self.discard:
            self.groups = [(0, 0, True, True)]
        self.current, self.writes = None, {}

    def element(self, base, index, width):
        bit = index * width
        return _register(base + bit // 64), bit % 64

    def src(self, k):
        srcstep, _d, src_zero, _z = self.current
        if k >= self.src_n or src_zero:
            return 0
        off = _offsets(srcstep, self.src_n, self.vl, self.src_planar, self.ra_vec)[k]
        reg, sh = self.element(self.ra, off, self.ews)
        return (self.regs(reg).value >> sh) & ((1 << self.ews) - 1)

    def set_dst(self, i, value):
        if not self.current[3]:  # a dz-zeroed group keeps its zeros
            self.writes[i] = value & ((1 << self.ew) - 1)

    def begin(self, g):
        self.current = self.groups[g]
        self.writes = {i: 0 for i in range(self.dst_n)} if self.current[3] else {}

    def commit(self):
        if self.discard:
            return
        dststep = self.current[1]
        offs = _offsets(dststep, self.dst_n, self.vl, self.dst_planar, self.rt_vec)
        for i, v in self.writes.items():
            reg, sh = self.element(self.rt, offs[i], self.ew)
            m = ((1 << self.ew) - 1) << sh
            old = self.regs(reg).value
            self.regs[reg] = SelectableInt((old & ~m & M64) | (v << sh), 64)
        self.writes = {}



def _walk(self):
    w = getattr(self, "_isa_ext_walk", None)
    if w is None:
        raise IsaExtIllegal("isa_ext group helper called outside ISA_EXT_GROUPS")
    return w



def ISA_EXT_GROUPS(self, mnemonic):
    row = SV_ROWS.get(str(mnemonic) if not isinstance(mnemonic, str) else mnemonic)
    if row is None:
        raise IsaExtIllegal(f"sv.{mnemonic}: its SVP64 form is not installed in openpower-isa")
    self._isa_ext_walk = _Walk(self, row)
    # counts are plain integers: the page's "do g = 0 to N - 1" becomes RANGE(),
    # which needs int bounds
    return len(self._isa_ext_walk.groups)


def ISA_EXT_GROUP(self, g):
    _walk(self).begin(_int(g))


def ISA_EXT_GROUP_END(self):
    _walk(self).commit()


def ISA_EXT_GROUPS_END(self):
    self._isa_ext_walk = None


def SRC_SUB(self, k):
    return SelectableInt(_walk(self).src(_int(k)), 64)


def DST_SUB_assign(self, i, value):
    _walk(self).set_dst(_int(i), _int(value))


def SRC_N(self):
    return _walk(self).src_n


def DST_N(self):
    return _walk(self).dst_n


def IN_PLACE(self):
    return SelectableInt(_walk(self).in_place, 1)


def FP_ONE(self):
    return SelectableInt(_walk(self).fp_one, 64)

# --- FPADD(a, b, bits): the quad swizzles' add forms --------------------------------
#
# isa_ext's FPADD (isa_ext/pseudocode/fp.py, docs/fpscr.md): the exact sum rounded
# once, to double (bits 64) or single precision (bits 32, the result held as a
# double) in FPSCR.RN; Power NaN propagation (the first NaN operand, quieted);
# FPSCR: the sticky exception bits with FX, FR/FI of this add, FPRF of the
# result, the VX/FEX summaries.  openpower-isa's FPADD64/FPADD32 are Python
# float additions that leave the FPSCR alone, so the page cannot use them.

def _fpscr_bit(n):
    return 1 << (63 - n)  # MSB0 bit n of the 64-bit FPSCR


FX, FEX, VX, OX, UX, ZX, XX = (_fpscr_bit(n) for n in range(32, 39))
VXSNAN, VXISI = _fpscr_bit(39), _fpscr_bit(40)
FR, FI = _fpscr_bit(45), _fpscr_bit(46)
FPRF_SHIFT = 63 - 51
VE, OE, UE, ZE, XE = (_fpscr_bit(n) for n in range(56, 61))
INVALID = sum(_fpscr_bit(n) for n in (39, 40, 41, 42, 43, 44, 53, 54, 55))
EXCEPTIONS = OX | UX | ZX | XX | INVALID
RESERVED = (((1 << 29) - 1) << 35) | _fpscr_bit(52)
MSR_FE = (1 << 11) | (1 << 8)  # MSR.FE0, MSR.FE1
QNAN = 0x7FF8_0000_0000_0000
# (precision, emin, emax) of the result
FP_FORMATS = {64: (53, -1022, 1023), 32: (24, -126, 127)}


def _nan(x):
    return (x >> 52) & 0x7FF == 0x7FF and x & ((1 << 52) - 1)


def _inf(x):
    return x & ~(1 << 63) == 0x7FF0_0000_0000_0000


def _finite(x):
    """(sign, mantissa, exponent): |x| = mantissa * 2**exponent."""
    e, frac = (x >> 52) & 0x7FF, x & ((1 << 52) - 1)
    return (x >> 63, frac, -1074) if e == 0 else (x >> 63, frac | (1 << 52), e - 1075)


def _pack(sign, mant, exp):
    """The double image of sign * mant * 2**exp (representable as a double)."""
    if mant == 0:
        return sign << 63
    shift = mant.bit_length() - 53
    mant, exp = (mant >> shift, exp + shift) if shift > 0 else (mant << -shift, exp + shift)
    biased = exp + 1075
    if biased <= 0:
        return (sign << 63) | (mant >> (1 - biased))
    return (sign << 63) | (biased << 52) | (mant & ((1 << 52) - 1))


def _round(sign, mant, exp, fmt, rn):
    """(image, exception bits among XX OX UX, rounded up) of sign * mant * 2**exp
    rounded to ``fmt`` in mode rn (0 nearest even, 1 zero, 2 +inf, 3 -inf);
    tininess before rounding (Power ISA)."""
    precision, emin, emax = fmt
    top = mant.bit_length() - 1 + exp
    quantum = max(top, emin) - (precision - 1)
    shift = quantum - exp
    if shift <= 0:
        kept, half, more = mant << -shift, False, False
    else:
        kept, rest = mant >> shift, mant & ((1 << shift) - 1)
        half, more = rest >> (shift - 1) == 1, rest & ((1 << (shift - 1)) - 1) != 0
    inexact = half or more
    up = (half and (more or kept & 1)) if rn == 0 else \
        (inexact and (sign == 1 if rn == 3 else sign == 0)) if rn in (2, 3) else False
    kept += int(bool(up))
    flags = (XX if inexact else 0) | (UX if inexact and top < emin else 0)
    if kept.bit_length() - 1 + quantum > emax:
        if rn == 0 or (rn == 2 and not sign) or (rn == 3 and sign):
            return (sign << 63) | 0x7FF0_0000_0000_0000, flags | OX | XX, True
        return _pack(sign, (1 << precision) - 1, emax - precision + 1), flags | OX | XX, False
    return _pack(sign, kept, quantum), flags, bool(up)


def _round_enabled(fpscr, sign, mant, exp, fmt, rn):
    """_round, with OE=1 / UE=1: an overflow or a tiny result is delivered with its
    exponent adjusted into range (1536 for double, 192 for single; Book I 4.4.4/5),
    OX or UX set and XX only if that result is inexact."""
    result, flags, up = _round(sign, mant, exp, fmt, fpscr & 3)
    adjust = 3 * (fmt[2] + 1) // 2
    if flags & OX and fpscr & OE:
        result, again, up = _round(sign, mant, exp - adjust, fmt, fpscr & 3)
        return result, OX | (again & XX), up
    if fpscr & UE and mant and mant.bit_length() - 1 + exp < fmt[1]:
        result, again, up = _round(sign, mant, exp + adjust, fmt, fpscr & 3)
        return result, UX | (again & XX), up
    return result, flags, up


def _fprf(x):
    sign = x >> 63
    if _nan(x):
        return 0b10001
    if _inf(x):
        return 0b01001 if sign else 0b00101
    if x & ~(1 << 63) == 0:
        return 0b10010 if sign else 0b00010
    if (x >> 52) & 0x7FF == 0:
        return 0b11000 if sign else 0b10100
    return 0b01000 if sign else 0b00100


def _fp_finish(self, result, exceptions, up):
    old = self.fpscr.value
    if exceptions & INVALID and old & VE:
        # isa_ext traps here too: the result would be "FRT unchanged", which a
        # lane's write through a helper cannot express
        raise IsaExtIllegal("an enabled invalid-operation or zero-divide exception (FPSCR "
                            "VE/ZE=1) inside this instruction is not implemented")
    new = (old & ~(FR | FI)) | exceptions
    if exceptions & XX:
        new |= FI | (FR if up else 0)
    new = (new & ~(0x1F << FPRF_SHIFT)) | (_fprf(result) << FPRF_SHIFT)
    if (new & ~old) & EXCEPTIONS:
        new |= FX
    new &= ~(VX | FEX | RESERVED)
    if new & INVALID:
        new |= VX
    if (new & VX and new & VE) or any(new & x and new & e for x, e in
                                      ((OX, OE), (UX, UE), (ZX, ZE), (XX, XE))):
        new |= FEX
    if self.msr.value & MSR_FE and any(exceptions & x and new & e for x, e in
                                       ((INVALID, VE), (OX, OE), (UX, UE), (XX, XE))):
        raise IsaExtIllegal("a floating-point enabled exception interrupt (MSR.FE0/FE1 "
                            "not 0) inside an isa_ext instruction is not supported by "
                            "the isa_ext plugin for openpower-isa")
    self.fpscr.value = new
    return SelectableInt(result, 64)


def FPADD(self, a, b, bits):
    a, b, bits = _int(a), _int(b), _int(bits)
    fmt, rn = FP_FORMATS[bits], self.fpscr.value & 3
    snan = VXSNAN if any(_nan(x) and not x & (1 << 51) for x in (a, b)) else 0
    for x in (a, b):
        if _nan(x):
            x |= 1 << 51
            return _fp_finish(self, x & ~((1 << 29) - 1) if bits == 32 else x, snan, False)
    if _inf(a) or _inf(b):
        if _inf(a) and _inf(b) and a >> 63 != b >> 63:
            return _fp_finish(self, QNAN, VXISI, False)
        return _fp_finish(self, a if _inf(a) else b, 0, False)
    (sa, ma, ea), (sb, mb, eb) = _finite(a), _finite(b)
    e = min(ea, eb)
    total = (-1) ** sa * (ma << (ea - e)) + (-1) ** sb * (mb << (eb - e))
    if total == 0:
        # an exact zero: the operands' sign if they agree, else +0 (-0 rounding down)
        sign = sa if sa == sb and ma == mb == 0 else int(rn == 3)
        return _fp_finish(self, sign << 63, 0, False)
    result, flags, up = _round_enabled(self.fpscr.value, int(total < 0), abs(total), e, fmt, rn)
    return _fp_finish(self, result, flags, up)


PROVIDED += ('ISA_EXT_GROUPS', 'ISA_EXT_GROUP', 'ISA_EXT_GROUP_END',
             'ISA_EXT_GROUPS_END', 'SRC_SUB', 'DST_SUB_assign', 'SRC_N', 'DST_N',
             'IN_PLACE', 'FP_ONE', 'FPADD',)
