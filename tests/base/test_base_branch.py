"""Branches and condition-register instructions, one instruction at a time.

Expected values are derived by hand from the Power ISA v3.0B (Book I 2.4, 2.5,
3.3.17); the BO decoding below is a separate model written from the ISA's BO
table, not from the page's formula.
"""
import pytest

from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

M64 = (1 << 64) - 1
PC = 0x1000


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def step(isa, word, little=True, **regs):
    """Execute one instruction at PC with the given register values."""
    sim = Simulator(isa=isa, little=little)
    sim.load_words([word], addr=PC)
    s = sim.state
    for name, value in regs.items():
        if name.startswith("r"):
            s.gpr[int(name[1:])] = value
        else:
            setattr(s, name, value)
    return sim.run(max_steps=1)


def set_cr_bit(crval, bit, value):
    """CR bit numbers 0..31 here (ISA bit 32+n); bit 0 is the MSB of the 32-bit CR."""
    mask = 1 << (31 - bit)
    return (crval | mask) if value else (crval & ~mask)


def cr_bit(crval, bit):
    return (crval >> (31 - bit)) & 1


# ---------------------------------------------------------------------------
# I-form branches


@pytest.mark.parametrize("mnemonic,li,target,lr", [
    # b: NIA = CIA + EXTS(LI||0b00); LI=4 -> +16
    ("b", 4, PC + 16, None),
    # backwards: LI=-2 -> -8
    ("b", -2, PC - 8, None),
    # ba: NIA = EXTS(LI||0b00) = 0x800*4
    ("ba", 0x800, 0x2000, None),
    # ba with a negative LI sign-extends to the top of the address space
    ("ba", -(1 << 23), (-(1 << 25)) & M64, None),
    # bl: LR = CIA + 4
    ("bl", 3, PC + 12, PC + 4),
    ("bla", 0x10, 0x40, PC + 4),
])
def test_branch_iform(isa, mnemonic, li, target, lr):
    res = step(isa, encode(isa, mnemonic, LI=li), lr=0x5550)
    assert res.pc == target
    assert res.state.lr == (0x5550 if lr is None else lr)


# ---------------------------------------------------------------------------
# BO decoding, written from the ISA's table of BO encodings.
# z: ignored bit, a/t: branch-prediction hints (ignored by the outcome).

BO_CLASSES = [
    # pattern  decrement CTR, CTR test,  CR bit needed
    ("0000z", True, "nonzero", 0),
    ("0001z", True, "zero", 0),
    ("001at", False, None, 0),
    ("0100z", True, "nonzero", 1),
    ("0101z", True, "zero", 1),
    ("011at", False, None, 1),
    ("1a00t", True, "nonzero", None),
    ("1a01t", True, "zero", None),
    ("1z1zz", False, None, None),
]


def bo_class(bo):
    bits = f"{bo:05b}"
    found = [c for c in BO_CLASSES
             if all(p not in "01" or p == b for p, b in zip(c[0], bits))]
    assert len(found) == 1, (bo, found)
    return found[0]


def expected_bc(bo, crbit, ctr, sf=True):
    """(taken, CTR after) for a conditional branch, by the BO table."""
    _, dec, ctr_test, need = bo_class(bo)
    if dec:
        ctr = (ctr - 1) & M64
    low = ctr if sf else ctr & 0xFFFFFFFF
    ctr_ok = ctr_test is None or (ctr_test == "zero") == (low == 0)
    cond_ok = need is None or crbit == need
    return ctr_ok and cond_ok, ctr


BI = 6  # CR1 bit 2 (EQ of CR1)


@pytest.mark.parametrize("bo", range(32))
def test_bc_every_bo(isa, bo):
    word = encode(isa, "bc", BO=bo, BI=BI, BD=4)  # target CIA + 16
    for crbit in (0, 1):
        for ctr in (0, 1, 2):
            res = step(isa, word, crval=set_cr_bit(0, BI, crbit), ctr=ctr, lr=0x777)
            taken, ctr_after = expected_bc(bo, crbit, ctr)
            assert res.pc == (PC + 16 if taken else PC + 4), (bo, crbit, ctr)
            assert res.state.ctr == ctr_after
            assert res.state.lr == 0x777  # LK=0 leaves LR alone


def test_bc_32bit_mode_tests_low_ctr_word(isa):
    # MSR[SF]=0: only CTR[32:63] is tested.  CTR=0x1_0000_0001 -> 0x1_0000_0000
    # after the decrement, whose low word is zero, so BO=18 (branch if CTR=0) is taken.
    word = encode(isa, "bc", BO=18, BI=0, BD=4)
    res = step(isa, word, ctr=0x1_0000_0001, msr=1)  # LE, SF clear
    assert res.pc == PC + 16
    assert res.state.ctr == 0x1_0000_0000
    # the same in 64-bit mode: CTR is non-zero, not taken
    res = step(isa, word, ctr=0x1_0000_0001)
    assert res.pc == PC + 4


@pytest.mark.parametrize("mnemonic,bd,target,links", [
    ("bc", -3, PC - 12, False),        # backwards, CIA-relative
    ("bca", 0x40, 0x100, False),       # absolute: EXTS(BD||0b00)
    ("bca", -1, M64 - 3, False),       # absolute, sign-extended
    ("bcl", 1, PC + 4, True),          # "bcl 20,31,.+4": LR = CIA + 4
    ("bcla", 0x20, 0x80, True),
])
def test_bc_targets_and_link(isa, mnemonic, bd, target, links):
    res = step(isa, encode(isa, mnemonic, BO=20, BI=31, BD=bd), lr=0x4440)
    assert res.pc == target
    assert res.state.lr == (PC + 4 if links else 0x4440)


def test_bcl_links_even_when_not_taken(isa):
    # LR is written whenever LK=1, taken or not (BO=12: CR bit must be 1, it is 0)
    res = step(isa, encode(isa, "bcl", BO=12, BI=2, BD=8), lr=0x4440)
    assert res.pc == PC + 4
    assert res.state.lr == PC + 4


# ---------------------------------------------------------------------------
# bclr / bcctr / bctar


@pytest.mark.parametrize("bo", range(32))
def test_bclr_every_bo(isa, bo):
    word = encode(isa, "bclr", BO=bo, BI=BI, BH=0)
    for crbit in (0, 1):
        for ctr in (1, 2):
            # target is LR[0:61]||0b00: the low two bits of LR are dropped
            res = step(isa, word, crval=set_cr_bit(0, BI, crbit), ctr=ctr, lr=0x8003)
            taken, ctr_after = expected_bc(bo, crbit, ctr)
            assert res.pc == (0x8000 if taken else PC + 4)
            assert res.state.ctr == ctr_after
            assert res.state.lr == 0x8003


def test_bclrl_uses_old_lr_then_links(isa):
    res = step(isa, encode(isa, "bclrl", BO=20, BI=0, BH=0), lr=0x9000)
    assert res.pc == 0x9000
    assert res.state.lr == PC + 4


@pytest.mark.parametrize("bh", [0, 1, 3])
def test_bclr_bh_is_only_a_hint(isa, bh):
    res = step(isa, encode(isa, "bclr", BO=20, BI=0, BH=bh), lr=0x9000)
    assert res.pc == 0x9000


@pytest.mark.parametrize("bo", [b for b in range(32) if b & 0b00100])
def test_bcctr_conditions(isa, bo):
    # only BO values with BO[2]=1 (no CTR decrement) are valid for bcctr
    word = encode(isa, "bcctr", BO=bo, BI=BI, BH=3)
    for crbit in (0, 1):
        res = step(isa, word, crval=set_cr_bit(0, BI, crbit), ctr=0xA007)
        taken, ctr_after = expected_bc(bo, crbit, 0xA007)
        assert ctr_after == 0xA007
        assert res.pc == (0xA004 if taken else PC + 4)
        assert res.state.ctr == 0xA007


def test_bcctrl_links(isa):
    res = step(isa, encode(isa, "bcctrl", BO=20, BI=0, BH=0), ctr=0xA000, lr=1)
    assert res.pc == 0xA000
    assert res.state.lr == PC + 4


@pytest.mark.parametrize("bo", [0, 2, 8, 16, 18])
def test_bcctr_decrement_is_invalid_form(isa, bo):
    res = step(isa, encode(isa, "bcctr", BO=bo, BI=0, BH=0), ctr=0xA000, lr=0x44)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert res.state.ctr == 0xA000 and res.state.lr == 0x44
    assert res.state.pc == PC


@pytest.mark.parametrize("bo", range(32))
def test_bctar_every_bo(isa, bo):
    # bctar tests CTR and the CR bit by the same BO table as bc/bclr (its page
    # is bclr's with TAR): taken to TAR[0:61] || 0b00, the low two bits dropped
    word = encode(isa, "bctar", BO=bo, BI=BI, BH=0)
    for crbit in (0, 1):
        for ctr in (1, 2):
            res = step(isa, word, crval=set_cr_bit(0, BI, crbit), ctr=ctr, tar=0xB00E)
            taken, ctr_after = expected_bc(bo, crbit, ctr)
            assert res.pc == (0xB00C if taken else PC + 4), (bo, crbit, ctr)
            assert res.state.ctr == ctr_after


def test_bctar(isa):
    # BO=16: decrement CTR, branch if CTR != 0 -> 3-1=2, taken to TAR[0:61]||0b00
    res = step(isa, encode(isa, "bctarl", BO=16, BI=0, BH=0), ctr=3, tar=0xB00E)
    assert res.pc == 0xB00C
    assert res.state.ctr == 2
    assert res.state.lr == PC + 4


# ---------------------------------------------------------------------------
# CR logical operations: truth tables from the ISA's definitions.

TRUTH = {  # result for (a,b) = (0,0) (0,1) (1,0) (1,1)
    "crand": (0, 0, 0, 1),
    "crnand": (1, 1, 1, 0),
    "cror": (0, 1, 1, 1),
    "crxor": (0, 1, 1, 0),
    "crnor": (1, 0, 0, 0),
    "creqv": (1, 0, 0, 1),
    "crandc": (0, 0, 1, 0),  # a & ~b
    "crorc": (1, 0, 1, 1),   # a | ~b
}


@pytest.mark.parametrize("mnemonic", sorted(TRUTH))
@pytest.mark.parametrize("background", [0x00000000, 0xFFFFFFFF, 0x5A5AA5A5])
def test_cr_logical_truth_table(isa, mnemonic, background):
    bt, ba, bb = 13, 5, 30  # CR3 bit1, CR1 bit1, CR7 bit2
    word = encode(isa, mnemonic, BT=bt, BA=ba, BB=bb)
    for i, (a, b) in enumerate([(0, 0), (0, 1), (1, 0), (1, 1)]):
        cr = set_cr_bit(set_cr_bit(background, ba, a), bb, b)
        res = step(isa, word, crval=cr)
        want = set_cr_bit(cr, bt, TRUTH[mnemonic][i])
        assert res.cr == want, (mnemonic, a, b)


def test_cr_logical_same_bit(isa):
    # crxor 6,6,6 clears CR1[2] (the "crclr" idiom); creqv sets it ("crset")
    res = step(isa, encode(isa, "crxor", BT=6, BA=6, BB=6), crval=0xFFFFFFFF)
    assert res.cr == 0xFDFFFFFF
    res = step(isa, encode(isa, "creqv", BT=6, BA=6, BB=6), crval=0)
    assert res.cr == 0x02000000


def test_cr_logical_reaches_extended_fields(isa):
    # the BT/BA/BB numbering continues past CR7 only through SVP64; scalar code
    # names bits 0..31 and must leave CR8+ alone
    sim = Simulator(isa=isa)
    sim.load_words([encode(isa, "cror", BT=0, BA=31, BB=31)])
    sim.state.cr[7] = 1
    sim.state.cr[8] = 0xF
    res = sim.run()
    assert res.crf[0] == 0b1000 and res.crf[8] == 0xF


def test_mcrf(isa):
    # CR = 0x12345678: CR5 = 6 copied into CR2
    res = step(isa, encode(isa, "mcrf", BF=2, BFA=5), crval=0x12345678)
    assert res.cr == 0x12645678


def test_mfcr(isa):
    res = step(isa, encode(isa, "mfcr", RT=9), crval=0x89ABCDEF, r9=M64)
    assert res.gpr[9] == 0x89ABCDEF


@pytest.mark.parametrize("fxm,want", [
    # FXM bit n (MSB first) selects CR field n, taken from RS[4n+32:4n+35].
    # RS low word 0x89ABCDEF, CR 0x12345678:
    (0b10100001, 0x82A4567F),   # fields 0, 2, 7
    (0xFF, 0x89ABCDEF),
    (0x00, 0x12345678),
    (0b00010000, 0x123B5678),   # field 3
])
def test_mtcrf_field_mask(isa, fxm, want):
    res = step(isa, encode(isa, "mtcrf", FXM=fxm, RS=4), crval=0x12345678,
               r4=0xFFFFFFFF_89ABCDEF)
    assert res.cr == want


def test_mtocrf_one_field(isa):
    # FXM=0x04 selects field 5: RS[52:55] = 0xD
    res = step(isa, encode(isa, "mtocrf", FXM=0x04, RS=4), crval=0x12345678,
               r4=0x89ABCDEF)
    assert res.cr == 0x12345D78


def test_mfocrf_one_field(isa):
    # FXM=0x20 selects field 2 (value 3) placed at RT[40:43]; the rest is cleared
    res = step(isa, encode(isa, "mfocrf", RT=3, FXM=0x20), crval=0x12345678, r3=M64)
    assert res.gpr[3] == 0x00300000


def test_mcrxrx(isa):
    # CR field BF <- OV OV32 CA CA32
    res = step(isa, encode(isa, "mcrxrx", BF=6), ov=1, ov32=0, ca=1, ca32=1, so=1)
    assert res.crf[6] == 0b1011
    assert res.cr & ~0xF0 == 0
