"""mv.swiz / fmv.swiz as scalar instructions: encoding, semantics, traps."""
import pytest

from isa_ext.encoding import encode
from isa_ext.sim import Simulator

from test_swizzle_model import scalar_swizzle

BASE = 0x1000


def run_one(isa, mnemonic, regs, **fields):
    """Run one instruction from fresh state; ``regs``: {index: value} in the GPRs
    (mv.swiz) or FPRs (fmv.swiz).  Returns (result, word)."""
    sim = Simulator(isa)
    regfile = sim.state.fpr if mnemonic.startswith("f") else sim.state.gpr
    for i, v in regs.items():
        regfile[i] = v
    word = encode(isa, mnemonic, **fields)
    sim.load_words([word], addr=BASE)
    return sim.run(max_steps=10), word


def regfile_of(res, mnemonic):
    return res.fpr if mnemonic.startswith("f") else res.gpr


# --- encoding -------------------------------------------------------------------

def test_encoding_fields(isa):
    # PO=22 (0b010110) in bits 0:5, RT=4 bits 6:10, RA=6 bits 11:15,
    # imm=0o7053 bits 16:27, XO=0b0011 bits 28:31:
    # 010110 00100 00110 111000101011 0011
    word = encode(isa, "mv.swiz", RTp=4, RAp=6, imm=0o7053)
    assert word == 0b010110_00100_00110_111000101011_0011
    assert encode(isa, "fmv.swiz", FRTp=4, FRAp=6, imm=0o7053) == word ^ 0b1000
    d = isa.decode(word)
    assert d.mnemonic == "mv.swiz" and d.fields["imm"] == 0o7053
    assert isa.decode(word | 0b1000).mnemonic == "fmv.swiz"


# 11-bit keys (instruction bits 21:31, "-" = don't care) of the PO22 rows of
# openpower-isa's openpower/isatables/minor_22.csv (master), re-typed as facts.
OPENPOWER_PO22 = [
    ("setvl", "-----11011-"), ("svindex", "-----101001"), ("svremap", "-----111001"),
    ("svstep", "-----10011-"),
    ("svshape", "0000-011001"), ("svshape", "0001-011001"), ("svshape", "0010-011001"),
    ("svshape", "0011-011001"), ("svshape", "0100-011001"), ("svshape", "0101-011001"),
    ("svshape", "0110-011001"), ("svshape", "0111-011001"), ("svshape", "1010-011001"),
    ("svshape", "1011-011001"), ("svshape", "1100-011001"), ("svshape", "1101-011001"),
    ("svshape", "1110-011001"), ("svshape", "1111-011001"), ("svshape2", "100--011001"),
    ("avgadd", "1101001110-"), ("sadd", "--01101110-"), ("saddw", "--10101110-"),
    ("sadduw", "--11101110-"), ("absdu", "1011110110-"), ("absds", "1001110110-"),
    ("absdacu", "1111110110-"), ("absdacs", "0111110110-"), ("cprop", "0110001110-"),
    ("bmask", "------10001"), ("fmvis", "-----00011-"), ("fishmv", "-----01011-"),
    ("gbbd", "0101110110-"), ("binlog", "------00001"), ("crfbinlog", "-----001001"),
    ("crbinlog", "00001011101"),
]


def key_mask_value(pattern):
    """(mask, value) over the low 11 bits of the word (bit 21 = 2**10 ... bit 31 = 1)."""
    mask = value = 0
    for ch in pattern:
        mask, value = mask << 1, value << 1
        if ch != "-":
            mask |= 1
            value |= int(ch)
    return mask, value


def po22_collisions(mask, value):
    """The openpower-isa PO22 rows a row with 11-bit key (mask, value) could decode as."""
    out = []
    for name, pattern in OPENPOWER_PO22:
        m2, v2 = key_mask_value(pattern)
        if not (value ^ v2) & mask & m2:
            out.append(name)
    return out


def test_no_collision_with_openpower_po22(isa):
    ours = [r for r in isa.rows if r.extension == "swizzle"]
    assert {r.mnemonic for r in ours} == {"mv.swiz", "fmv.swiz"}
    for row in ours:
        assert row.match["PO"] == 22
        assert po22_collisions(row.mask & 0x7FF, row.value & 0x7FF) == [], row.mnemonic
    assert isa.overlaps() == []


def test_collision_check_finds_a_real_openpower_word():
    # The check can fail: libre-soc's golden encoding of "setvl 0,0,8,0,1,1" is
    # 0x58000fb6 (../shared golden data, test_asm_golden.py); a row fixing all 11 key
    # bits to that word's must collide with setvl and with nothing else.
    word = 0x58000FB6
    assert po22_collisions(0x7FF, word & 0x7FF) == ["setvl"]
    # and a row matching only PO22 with no key bits collides with every row
    assert len(po22_collisions(0, 0)) == len(OPENPOWER_PO22)


# --- the full selector sweep against the reference model ---------------------------

RA_VALUES = (0x8899AABB_CCDDEEFF, 0x01234567_89ABCDEF)
RT_VALUES = (0xF0F0F0F0_0F0F0F0F, 0x5A5A5A5A_A5A5A5A5)


@pytest.mark.parametrize("mnemonic", ["mv.swiz", "fmv.swiz"])
def test_all_selectors_match_reference_model(isa, mnemonic):
    floating = mnemonic == "fmv.swiz"
    rt_name, ra_name = ("FRTp", "FRAp") if floating else ("RTp", "RAp")
    sim = Simulator(isa)
    regs = sim.state.fpr if floating else sim.state.gpr
    mismatches = []
    for in_place in (True, False):
        ra, rt = 6, (6 if in_place else 10)
        for imm in range(4096):
            regs[6], regs[7] = RA_VALUES
            if not in_place:
                regs[10], regs[11] = RT_VALUES
            before = list(regs)
            word = encode(isa, mnemonic, **{rt_name: rt, ra_name: ra, "imm": imm})
            sim.load_words([word], addr=BASE)
            res = sim.run(max_steps=5)
            expected = scalar_swizzle(imm, RA_VALUES, RA_VALUES if in_place else RT_VALUES,
                                      in_place, floating)
            if expected is None:
                ok = res.stop == "trap" and res.trap.pc == BASE and res.trap.word == word \
                    and list(regs) == before
            else:
                after = list(before)
                after[rt], after[rt + 1] = expected
                ok = res.stop == "end" and list(regs) == after
            if not ok:
                mismatches.append((in_place, oct(imm)))
    assert mismatches == []


# --- sub-element placement, MSB0 ----------------------------------------------------

def test_x_is_low_half_msb0_bits_32_to_63(isa):
    # "Y..." separate, RA = 0xAAAAAAAA_BBBBBBBB: Y (RA bits 0:31, 0xAAAAAAAA) goes to
    # X (RT bits 32:63); everything else is zero.
    res, _ = run_one(isa, "mv.swiz", {4: 0xAAAA_AAAA_BBBB_BBBB, 5: 0xCCCC_CCCC_DDDD_DDDD},
                     RTp=8, RAp=4, imm=0o5000)
    assert (res.gpr[8], res.gpr[9]) == (0xAAAA_AAAA, 0)
    # "...X": X (RA bits 32:63, 0xBBBBBBBB) to W (RT+1 bits 0:31)
    res, _ = run_one(isa, "mv.swiz", {4: 0xAAAA_AAAA_BBBB_BBBB, 5: 0xCCCC_CCCC_DDDD_DDDD},
                     RTp=8, RAp=4, imm=0o0004)
    assert (res.gpr[8], res.gpr[9]) == (0, 0xBBBB_BBBB_0000_0000)
    # ".Z.." : Z (RA+1 bits 32:63, 0xDDDDDDDD) to Y (RT bits 0:31)
    res, _ = run_one(isa, "mv.swiz", {4: 0xAAAA_AAAA_BBBB_BBBB, 5: 0xCCCC_CCCC_DDDD_DDDD},
                     RTp=8, RAp=4, imm=0o0600)
    assert (res.gpr[8], res.gpr[9]) == (0xDDDD_DDDD_0000_0000, 0)


# --- illegal forms ------------------------------------------------------------------

@pytest.mark.parametrize("mnemonic,fields,reason", [
    ("mv.swiz", dict(RTp=5, RAp=4, imm=0o4567), "RTp must be even"),
    ("mv.swiz", dict(RTp=4, RAp=7, imm=0o4567), "RAp must be even"),
    ("mv.swiz", dict(RTp=4, RAp=6, imm=0o4517), "reserved"),
    ("fmv.swiz", dict(FRTp=3, FRAp=4, imm=0o4567), "FRTp must be even"),
    ("fmv.swiz", dict(FRTp=2, FRAp=4, imm=0o1000), "reserved"),
])
def test_illegal_traps_without_partial_state(isa, mnemonic, fields, reason):
    regs = {i: 0x1111_0000_0000_0000 * (i % 15 + 1) & (2**64 - 1) for i in range(2, 12)}
    res, word = run_one(isa, mnemonic, regs, **fields)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert res.trap.pc == BASE and res.trap.word == word
    assert reason in res.trap.reason
    rf = regfile_of(res, mnemonic)
    assert all(rf[i] == v for i, v in regs.items())


def test_fmv_constant_one_is_single_precision_one(isa):
    # "1111" separate: all four sub-elements 0x3F800000
    res, _ = run_one(isa, "fmv.swiz", {}, FRTp=2, FRAp=4, imm=0o3333)
    # 1.0 in IEEE single: sign 0, biased exponent 127 (0x7F << 23), fraction 0
    assert res.fpr[2] == res.fpr[3] == 0x3F80_0000_3F80_0000
