"""Fixed-point rotate and shift instructions.

Expected values are derived by hand from the Power ISA v3.0B Book I 3.3.14
(the comment on each case shows the working).  RS is r6, RB r5, RA r4.
XER CA/CA32 start as 1 for the logical shifts and rotates, which must not
change them, and as the opposite of the expected value for the algebraic
shifts.
"""
import pytest

from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

M64 = (1 << 64) - 1
RA, RB, RS = 4, 5, 6
CR0_UNTOUCHED = 0b1111
LT, GT, EQ = 8, 4, 2
X = 0x0123456789ABCDEF


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def run(isa, mnemonic, rs, rb=0, ra=0xDEAD, ca=1, **fields):
    row, _ = isa.by_mnemonic[mnemonic]
    names = {o.field for o in row.operands}
    values = {"RA": RA, "RB": RB, "RS": RS}
    values.update(fields)
    sim = Simulator(isa=isa)
    sim.load_words([encode(isa, mnemonic, **{k: v for k, v in values.items() if k in names})])
    s = sim.state
    s.gpr[RS], s.gpr[RB], s.gpr[RA] = rs & M64, rb & M64, ra & M64
    s.ca = s.ca32 = ca
    s.cr[0] = CR0_UNTOUCHED
    res = sim.run(max_steps=2)
    assert res.stop == "end"
    return res


def rot(mnemonic, rs, expected, cr0=CR0_UNTOUCHED, rb=0, ra=0xDEAD, **fields):
    return pytest.param(mnemonic, rs, rb, ra, fields, expected, cr0,
                        id=f"{mnemonic}-{rs & M64:x}-{'-'.join(map(str, fields.values()))}-{rb}")


ROTATE = [
    # rlwinm: rotl32(0x12345678, 8) = 0x34567812, mask bits 56..63 -> 0x12
    rot("rlwinm", 0x12345678, 0x12, SH=8, MB=24, ME=31),
    # rotate 0 with mask 32..63 clears the high word
    rot("rlwinm", 0xFFFFFFFF00000001, 1, SH=0, MB=0, ME=31),
    # mb > me wraps: MASK(60, 35) = bits 0..35 and 60..63 = 0xffff_ffff_f000_000f;
    # rotl32(0x12345678, 4) = 0x23456781 in both words -> 0x23456781_20000001
    rot("rlwinm.", 0x12345678, 0x2345678120000001, GT, SH=4, MB=28, ME=3),
    # rlwnm uses RB[59:63] only: 36 -> 4; mask 32..63
    rot("rlwnm", 0x12345678, 0x23456781, rb=36, MB=0, ME=31),
    # rlwimi inserts rotl32(RS, 8) = 0x34567812 under mask bits 48..55 (0xff00)
    rot("rlwimi", 0x12345678, 0xFFFFFFFFFFFF78FF, ra=M64, SH=8, MB=16, ME=23),
    # rldicl: rotl64(X, 8), mask from 0
    rot("rldicl", X, 0x23456789ABCDEF01, sh=8, mb=0),
    # rotate 0, clear the high word (mb = 32)
    rot("rldicl", X, 0x89ABCDEF, sh=0, mb=32),
    # sh = 60 is rotate right 4: 0xf0123456789abcde, mb = 4 clears the top nibble
    rot("rldicl.", X, 0x00123456789ABCDE, GT, sh=60, mb=4),
    # rldicr: rotl64(X, 4) = 0x123456789abcdef0, keep bits 0..31
    rot("rldicr", X, 0x1234567800000000, sh=4, me=31),
    # me = 59 clears the low nibble
    rot("rldicr", X, 0x0123456789ABCDE0, sh=0, me=59),
    # rldic: 0xff rotated left 40 = 0xff << 40; MASK(20, 63-40=23) keeps bits 20..23
    # (from the right 43..40) -> 0x00000f00_00000000
    rot("rldic", 0xFF, 0x00000F0000000000, sh=40, mb=20),
    # rldimi: rotl64(0x1234, 16) = 0x12340000 under MASK(32, 47) = 0xffff0000
    rot("rldimi", 0x1234, 0xFFFFFFFF1234FFFF, ra=M64, sh=16, mb=32),
    # rldcl uses RB[58:63]: 0x104 -> 4; mask from bit 40 keeps the low 24 bits
    rot("rldcl", X, 0xBCDEF0, rb=0x104, mb=40),
    # rldcr: rotl64(X, 4) with mask 0..7 -> 0x12 in the top byte
    rot("rldcr", X, 0x1200000000000000, rb=4, me=7),
    # rldcr. with a negative result
    rot("rldcr.", 1 << 60, 1 << 63, LT, rb=3, me=63),
]


@pytest.mark.parametrize("mnemonic,rs,rb,ra,fields,expected,cr0", ROTATE)
def test_rotate(isa, mnemonic, rs, rb, ra, fields, expected, cr0):
    res = run(isa, mnemonic, rs, rb, ra, **fields)
    assert res.gpr[RA] == expected, f"{res.gpr[RA]:#x}"
    assert res.crf[0] == cr0
    assert (res.state.ca, res.state.ca32) == (1, 1)


LOGICAL_SHIFT = [
    # slw: low word 0x80000001 << 1 = 0x00000002 (the high word is cleared)
    rot("slw", 0xFFFFFFFF80000001, 2, rb=1),
    # << 31 = 0x80000000, zero-extended
    rot("slw", 0xFFFFFFFF80000001, 0x80000000, rb=31),
    # amounts 32..63 (RB[58]=1) give 0
    rot("slw.", 0x80000001, 0, EQ, rb=32),
    rot("slw", 0x80000001, 0, rb=63),
    # only RB[58:63] count: 64 -> shift 0, the zero-extended low word
    rot("slw", 0xFFFFFFFF80000001, 0x80000001, rb=64),
    # srw
    rot("srw", 0x80000000, 0x08000000, rb=4),
    rot("srw", 0xFFFFFFFF00000010, 1, rb=4),
    rot("srw", 0xFFFFFFFF, 0, rb=32),
    # sld: 1 << 63
    rot("sld.", 1, 1 << 63, LT, rb=63),
    # 64..127 (RB[57]=1) give 0
    rot("sld", 1, 0, rb=64),
    # RB[57:63] only: 128 -> shift 0
    rot("sld", X, X, rb=128),
    # srd
    rot("srd", 1 << 63, 1, rb=63),
    rot("srd", M64, 0, rb=64),
    rot("srd", X, 0x0123456789ABCDE, rb=4),
    # extswsli: EXTS(0x80000000) << 4 = 0xffffffff_80000000 << 4
    rot("extswsli", 0x80000000, 0xFFFFFFF800000000, sh=4),
    # sh = 32 moves the low word to the high word
    rot("extswsli.", 0xFFFFFFFF00000001, 1 << 32, GT, sh=32),
]


@pytest.mark.parametrize("mnemonic,rs,rb,ra,fields,expected,cr0", LOGICAL_SHIFT)
def test_logical_shift(isa, mnemonic, rs, rb, ra, fields, expected, cr0):
    res = run(isa, mnemonic, rs, rb, ra, **fields)
    assert res.gpr[RA] == expected, f"{res.gpr[RA]:#x}"
    assert res.crf[0] == cr0
    assert (res.state.ca, res.state.ca32) == (1, 1)


def sra(mnemonic, rs, expected, carry, cr0=CR0_UNTOUCHED, rb=0, **fields):
    return pytest.param(mnemonic, rs, rb, fields, expected, carry, cr0,
                        id=f"{mnemonic}-{rs & M64:x}-{'-'.join(map(str, fields.values()))}-{rb}")


ALGEBRAIC = [
    # sraw: low word 0x80000000 >> 4 with sign fill = 0xf8000000, sign-extended;
    # only zeros shifted out -> CA = 0
    sra("sraw", 0x80000000, 0xFFFFFFFFF8000000, 0, rb=4),
    # a one shifted out of a negative word -> CA = 1
    sra("sraw", 0x80000001, 0xFFFFFFFFF8000000, 1, rb=4),
    # amounts >= 32: all sign bits; negative with ones lost -> CA = 1
    sra("sraw.", 0xFFFFFFF0, M64, 1, LT, rb=40),
    sra("sraw", 0x7FFFFFFF, 0, 0, rb=40),
    # shift 0 sign-extends the low word (the high word of RS is ignored)
    sra("sraw", 0x12345678_80000000, 0xFFFFFFFF80000000, 0, rb=0),
    # positive values never set CA even when ones are lost
    sra("sraw", 0x7FFFFFFF, 0x07FFFFFF, 0, rb=4),
    # srawi: -5 >> 1 = -3 (rounds towards -inf), a one was lost -> CA = 1
    sra("srawi", 0xFFFFFFFB, -3, 1, SH=1),
    sra("srawi.", 0xFFFFFFFB, -5, 0, LT, SH=0),
    sra("srawi", 0x7FFFFFFF, 0, 0, SH=31),
    # srad: MIN64 >> 63 = -1, only zeros lost -> CA = 0
    sra("srad", 1 << 63, -1, 0, rb=63),
    sra("srad", (1 << 63) | 1, 0xC000000000000000, 1, rb=1),
    # RB[57] set: all sign bits
    sra("srad", -2, -1, 1, rb=64),
    sra("srad.", 1 << 62, 0, 0, EQ, rb=100),
    # sradi: -5 >> 1 = -3, CA = 1; sh = 63 and sh = 32 use the split field
    sra("sradi", -5, -3, 1, sh=1),
    sra("sradi", 1 << 63, -1, 0, sh=63),
    sra("sradi.", 0xFFFFFFFF00000000, -1, 0, LT, sh=32),
    sra("sradi", 0x7FFFFFFF_00000000, 0x7FFFFFFF, 0, sh=32),
]


@pytest.mark.parametrize("mnemonic,rs,rb,fields,expected,carry,cr0", ALGEBRAIC)
def test_algebraic_shift(isa, mnemonic, rs, rb, fields, expected, carry, cr0):
    res = run(isa, mnemonic, rs, rb, ca=1 - carry, **fields)
    assert res.gpr[RA] == expected & M64, f"{res.gpr[RA]:#x}"
    assert (res.state.ca, res.state.ca32) == (carry, carry)
    assert res.crf[0] == cr0
