"""Fixed-point logical, compare, select and trap instructions.

Expected values are derived by hand from the Power ISA v3.0B Book I 3.3.10,
3.3.11 and 3.3.13; the comment on each case shows the working.  Operands:
RS is r6, RB r5, RA (the target of the logical ops) r4, r0 holds a nonzero
value that (RA|0) must not use.
"""
import pytest

from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

M64 = (1 << 64) - 1
RT, RA, RB, RS = 3, 4, 5, 6
CR0_UNTOUCHED = 0b1111
LT, GT, EQ, SO = 8, 4, 2, 1


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def run(isa, mnemonic, gpr, cr=None, so=0, **fields):
    """Run one instruction; ``gpr`` {n: value}, ``cr`` {field: nibble}."""
    row, _ = isa.by_mnemonic[mnemonic]
    names = {o.field for o in row.operands}
    values = {"RT": RT, "RA": RA, "RB": RB, "RS": RS}
    values.update(fields)
    sim = Simulator(isa=isa)
    sim.load_words([encode(isa, mnemonic, **{k: v for k, v in values.items() if k in names})])
    s = sim.state
    s.gpr[0] = 0x5A5A
    for n, v in gpr.items():
        s.gpr[n] = v & M64
    s.cr[0] = CR0_UNTOUCHED
    for f, v in (cr or {}).items():
        s.cr[f] = v
    s.so = so
    return sim.run(max_steps=2)


def logical(mnemonic, rs, rb, ra, cr0=CR0_UNTOUCHED, so=0, **fields):
    return pytest.param(mnemonic, rs, rb, ra, cr0, so, fields,
                        id=f"{mnemonic}-{rs & M64:x}-{rb & M64:x}")


LOGICAL = [
    # and/andc/or/orc/xor/nand/nor/eqv of 0xf0f0 and 0xff00
    logical("and", 0xF0F0, 0xFF00, 0xF000),
    logical("andc", 0xF0F0, 0xFF00, 0x00F0),                  # 0xf0f0 & ~0xff00
    logical("or", 0xF0F0, 0xFF00, 0xFFF0),
    logical("orc", 0xF0F0, 0xFF00, 0xFFFFFFFFFFFFF0FF),       # 0xf0f0 | 0xff..ff00ff
    logical("xor", 0xF0F0, 0xFF00, 0x0FF0),
    logical("nand", 0xF0F0, 0xFF00, 0xFFFFFFFFFFFF0FFF),      # ~0xf000
    logical("nor", 0xF0F0, 0xFF00, 0xFFFFFFFFFFFF000F),       # ~0xfff0
    logical("eqv", 0xF0F0, 0xFF00, 0xFFFFFFFFFFFFF00F),       # ~0x0ff0
    # Rc=1: zero -> EQ, negative -> LT, positive -> GT, SO copied
    logical("and.", 0xF0F0, 0x0F0F, 0, cr0=EQ),
    logical("or.", 1 << 63, 0, 1 << 63, cr0=LT),
    logical("xor.", 3, 1, 2, cr0=GT | SO, so=1),
    logical("nor.", 0, 0, M64, cr0=LT),
    # immediates: andi./andis. always record CR0
    logical("andi.", 0xFFFFFFFFFFFF1234, 0, 0x34, cr0=GT, UI=0x00FF),
    logical("andi.", M64, 0, 0, cr0=EQ, UI=0),
    # andis.: UI << 16 zero-extended: 0xfff..f0000000 & 0xffff0000 = 0xf0000000 (positive)
    logical("andis.", 0xFFFFFFFFF0000000, 0, 0xF0000000, cr0=GT, UI=0xFFFF),
    logical("ori", 0x1000, 0, 0x1234, UI=0x0234),
    # oris: 0x8000 << 16 is not sign-extended
    logical("oris", 1, 0, 0x80000001, UI=0x8000),
    logical("xori", 0xFFFF, 0, 0xFF0F, UI=0x00F0),
    logical("xoris", 0xFFFFFFFF, 0, 0x0000FFFF, UI=0xFFFF),
    # sign extension
    logical("extsb", 0x1234_5680, 0, 0xFFFFFFFFFFFFFF80),
    logical("extsb.", 0xFFFF_FF7F, 0, 0x7F, cr0=GT),
    logical("extsh", 0x8000, 0, 0xFFFFFFFFFFFF8000),
    logical("extsw.", 0x80000000, 0, 0xFFFFFFFF80000000, cr0=LT),
    logical("extsw", 0xFFFFFFFF7FFFFFFF, 0, 0x7FFFFFFF),
    # counts: 0x00010000 has bit 16 (from the right) set
    logical("cntlzw", 0x00010000, 0, 15),
    logical("cntlzw", 0xFFFFFFFF00000000, 0, 32),             # only the low word counts
    logical("cntlzw.", 0, 0, 32, cr0=GT),
    logical("cntlzd", 1, 0, 63),
    logical("cntlzd", 0, 0, 64),
    logical("cntlzd.", 1 << 63, 0, 0, cr0=EQ),
    logical("cnttzw", 0x00010000, 0, 16),
    logical("cnttzw", 0xFFFFFFFF00000000, 0, 32),
    logical("cnttzd", 1 << 63, 0, 63),
    logical("cnttzd", 0, 0, 64),
    # popcntb: bytes ff 01 03 00 07 80 f0 0f -> 8 1 2 0 3 1 4 4
    logical("popcntb", 0xFF01030007 << 24 | 0x80F00F, 0, 0x0801020003010404),
    # popcntw: 32 ones in the high word, 2 in the low
    logical("popcntw", 0xFFFFFFFF00000003, 0, 0x0000002000000002),
    logical("popcntd", 0xFFFFFFFF00000003, 0, 34),
    # cmpb: bytes 11/11 22/00 33/33 44/44 55/00 66/66 77/77 88/00
    logical("cmpb", 0x1122334455667788, 0x1100334400667700, 0xFF00FFFF00FFFF00),
]


@pytest.mark.parametrize("mnemonic,rs,rb,ra,cr0,so,fields", LOGICAL)
def test_logical(isa, mnemonic, rs, rb, ra, cr0, so, fields):
    res = run(isa, mnemonic, {RS: rs, RB: rb, RA: 0xDEAD}, so=so, **fields)
    assert res.stop == "end"
    assert res.gpr[RA] == ra & M64, f"{res.gpr[RA]:#x}"
    assert res.crf[0] == cr0
    assert res.state.so == so  # logical ops never change XER


def test_logical_reads_sources_before_writing(isa):
    """or 5,5,6 with RA = RB: the old RB value is used."""
    res = run(isa, "or", {RB: 0x0F, RS: 0xF0}, RA=RB)
    assert res.gpr[RB] == 0xFF


# ---------------------------------------------------------------------------
# isel and setb


@pytest.mark.parametrize("bc,cr,ra_field,expected", [
    # CR0 = GT (0b0100): BC=1 is CR0 GT -> RA
    (1, {0: 0b0100}, RA, 111),
    # BC=0 is CR0 LT, clear -> RB
    (0, {0: 0b0100}, RA, 222),
    # BC=6 is CR1 EQ (4*1+2), set -> RA
    (6, {1: 0b0010}, RA, 111),
    # RA=0 selects the value 0, not r0
    (1, {0: 0b0100}, 0, 0),
])
def test_isel(isa, bc, cr, ra_field, expected):
    res = run(isa, "isel", {RA: 111, RB: 222}, cr=cr, RA=ra_field, BC=bc)
    assert res.gpr[RT] == expected


@pytest.mark.parametrize("field_value,expected", [
    (0b1000, M64),      # LT -> -1
    (0b1100, M64),      # LT wins over GT
    (0b0100, 1),        # GT -> 1
    (0b0010, 0),        # EQ -> 0
    (0b0001, 0),        # SO alone -> 0
])
def test_setb(isa, field_value, expected):
    res = run(isa, "setb", {RT: 0xDEAD}, cr={5: field_value}, BFA=5)
    assert res.gpr[RT] == expected


# ---------------------------------------------------------------------------
# compare


@pytest.mark.parametrize("mnemonic,l,ra,other,so,expected", [
    # cmp L=0: low words -1 < 0 -> LT; L=1: 0x1_ffffffff > 0 -> GT
    ("cmp", 0, 0x1FFFFFFFF, 0, 0, LT),
    ("cmp", 1, 0x1FFFFFFFF, 0, 0, GT),
    # equal, with SO copied into the field
    ("cmp", 1, -5, -5, 1, EQ | SO),
    # L=0 ignores the high words: 0xaaaa_0000_0007 vs 7
    ("cmp", 0, 0xAAAA00000007, 7, 0, EQ),
    # cmpi sign-extends SI: -5 = -5
    ("cmpi", 1, -5, -5, 0, EQ),
    # cmpi L=0: low word 0x80000000 is negative -> LT; L=1 it is positive -> GT
    ("cmpi", 0, 0x80000000, 0, 0, LT),
    ("cmpi", 1, 0x80000000, 0, 0, GT),
    # cmpl: unsigned 0xffffffff > 1
    ("cmpl", 0, 0xFFFFFFFF, 1, 0, GT),
    # cmpl L=0: low words 0 < 1; L=1: 2^32 > 1
    ("cmpl", 0, 1 << 32, 1, 0, LT),
    ("cmpl", 1, 1 << 32, 1, 0, GT),
    # cmpl L=1: all ones is the largest unsigned value
    ("cmpl", 1, -1, 0, 1, GT | SO),
    # cmpli zero-extends UI: 0x8000 < 0xffff, 0xffff = 0xffff
    ("cmpli", 1, 0x8000, 0xFFFF, 0, LT),
    ("cmpli", 0, 0xFFFF_0000FFFF, 0xFFFF, 0, EQ),
])
def test_compare(isa, mnemonic, l, ra, other, so, expected):
    imm = mnemonic.endswith("i")
    key = ("UI" if mnemonic == "cmpli" else "SI") if imm else "RB"
    value = other if imm else RB
    res = run(isa, mnemonic, {RA: ra, RB: other}, so=so, BF=3, L=l, **{key: value})
    assert res.crf[3] == expected
    assert res.crf[0] == CR0_UNTOUCHED  # only field BF changes


# ---------------------------------------------------------------------------
# traps: TO bits (MSB first) lt gt eq ltu gtu


@pytest.mark.parametrize("mnemonic,to,ra,other,traps", [
    ("tw", 0b00100, 5, 5, True),                  # eq
    ("tw", 0b00100, 5, 6, False),
    ("tw", 0b00100, 0x1_00000005, 5, True),       # low words only
    ("td", 0b00100, 0x1_00000005, 5, False),      # whole doublewords
    ("twi", 0b10000, -1, 0, True),                # -1 < 0 signed
    ("twi", 0b00010, -1, 0, False),               # 0xffffffff is not <u 0
    ("twi", 0b00001, -1, 0, True),                # but it is >u 0
    ("td", 0b00001, 1 << 63, 0, True),            # 2^63 >u 0
    ("tdi", 0b01000, 1 << 63, 0, False),          # MIN64 is not > 0 signed
    ("tdi", 0b01000, 1, 0, True),
    ("tw", 0b11111, 1, 2, True),                  # any condition true
    ("tw", 0b00000, 1, 1, False),                 # TO=0 never traps
])
def test_trap(isa, mnemonic, to, ra, other, traps):
    imm = mnemonic.endswith("i")
    fields = {"SI": other} if imm else {}
    res = run(isa, mnemonic, {RA: ra, RB: other, RT: 0x77}, TO=to, **fields)
    if traps:
        assert res.stop == "trap" and res.trap.kind == "program"
        assert res.pc == 0x1000  # the trapping instruction did not complete
    else:
        assert res.stop == "end"
    assert res.gpr[RA] == ra & M64 and res.gpr[RT] == 0x77


TRAP_VALUES = [0, 1, 5, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0005,
               1 << 63, M64]


def trap_model(to, a, b, bits):
    # Power ISA 3.3.11: trap if any TO bit's comparison holds (MSB first:
    # signed <, signed >, =, unsigned <, unsigned >) on the low `bits` bits
    mask = (1 << bits) - 1
    ua, ub = a & mask, b & mask
    sa = ua - (1 << bits) if ua >> (bits - 1) else ua
    sb = ub - (1 << bits) if ub >> (bits - 1) else ub
    holds = [sa < sb, sa > sb, ua == ub, ua < ub, ua > ub]
    return any(h and (to >> (4 - k)) & 1 for k, h in enumerate(holds))


@pytest.mark.parametrize("mnemonic", ["tw", "td", "twi", "tdi"])
def test_trap_every_to_against_a_model(isa, mnemonic):
    # every TO value (0..31) over operands where signed and unsigned orders differ
    imm = mnemonic.endswith("i")
    bits = 32 if mnemonic.startswith("tw") else 64
    others = [0, 1, 5, -1, -0x8000, 0x7FFF] if imm else TRAP_VALUES
    bad = []
    for to in range(32):
        for ra in TRAP_VALUES:
            for other in others:
                b = other & M64  # SI is sign-extended to 64 bits
                fields = {"SI": other} if imm else {}
                res = run(isa, mnemonic, {RA: ra, RB: b, RT: 0x77}, TO=to, **fields)
                want = trap_model(to, ra, b, bits)
                if (res.stop == "trap") != want:
                    bad.append((to, hex(ra), other, want))
    assert not bad, bad[:5]
