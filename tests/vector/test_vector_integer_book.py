"""Vector integer instructions derived by hand from the Power ISA v3.1 book
and from the standards it names (FIPS-197 for AES, FIPS 180-4 for the SHA-2
sigma functions), independent of QEMU; and the places where QEMU 7.2
departs from the book (docs/vector.md)."""
import pytest

from isa_ext.sim import Simulator


@pytest.fixture(autouse=True)
def _shared_isa(isa):
    global ISA_
    ISA_ = isa


def run(line, **vrs):
    """Run one instruction with VRs set (v1=..., v2=...); the Simulator."""
    sim = Simulator(isa=ISA_)
    sim.load_asm(line + "\n")
    for name, value in vrs.items():
        if name == "vscr":
            sim.state.vscr = value
        else:
            sim.state.vr[int(name[1:])] = value
    res = sim.run(max_steps=2)
    assert res.stop == "end", (res.stop, res.trap)
    return sim


def test_vrldmi_inserts_under_the_mask():
    """Book I 6.9.4: dword i of VRT = (ROTL64(src1, n) & MASK(b, e)) |
    (VRT & ~MASK(b, e)), b = src2[42:47], e = src2[50:55], n = src2[58:63].
    dword 0: b=56, e=63, n=8: ROTL64(0x11..88, 8) = 0x2233445566778811, its
    low byte 0x11 replaces VRT's; dword 1: b=0, e=7, n=0: VRA's high byte.
    QEMU 7.2 writes only the rotated, masked value (its vector path for
    vrldmi is vrldnm's), leaving 0x11 and 0xAB00..00."""
    src2 = (56 << 16 | 63 << 8 | 8) << 64 | (0 << 16 | 7 << 8 | 0)
    sim = run("vrldmi 1,2,3", v1=0xFFFFFFFFFFFFFFFF_0123456789ABCDEF,
              v2=0x1122334455667788_ABCDEF0123456789, v3=src2)
    assert sim.state.vr[1] == 0xFFFFFFFFFFFFFF11_AB23456789ABCDEF


def test_vrlwmi_inserts_under_the_mask():
    """Word 0: b=24, e=31, n=4: ROTL32(0x12345678, 4) = 0x23456781, low byte
    0x81 into VRT's word; words 1-3: b=0, e=31, n=0: VRA's word whole."""
    src2 = (24 << 16 | 31 << 8 | 4) << 96 | sum((31 << 8) << (32 * k) for k in range(3))
    sim = run("vrlwmi 1,2,3", v1=0xAAAAAAAA_BBBBBBBB_CCCCCCCC_DDDDDDDD,
              v2=0x12345678_11111111_22222222_33333333, v3=src2)
    assert sim.state.vr[1] == 0xAAAAAA81_11111111_22222222_33333333


# FIPS-197 Appendix C.1 (AES-128): round 1's start, s_box, s_row, m_col and key
START1 = 0x00102030405060708090A0B0C0D0E0F0
SBOX1 = 0x63CAB7040953D051CD60E0E7BA70E18C
SROW1 = 0x6353E08C0960E104CD70B751BACAD0E7
MCOL1 = 0x5F72641557F5BC92F7BE3B291DB9F91A
KEY1 = 0xD6AA74FDD2AF72FADAA678F1D6AB76FE
START2 = 0x89D810E8855ACE682D1843D8CB128FE4
# round 10: start, k_sch and the output
START10 = 0xBD6E7C3DF2B5779E0B61216E8B10B689
KEY10 = 0x13111D7FE3944A17F307A78B4D2B30C5
OUTPUT = 0x69C4E0D86A7B0430D8CDB78070B4C55A


def test_vcipher_is_one_fips197_round():
    assert START2 == MCOL1 ^ KEY1
    assert run("vcipher 1,2,3", v2=START1, v3=KEY1).state.vr[1] == START2


def test_vcipherlast_is_the_final_fips197_round():
    assert run("vcipherlast 1,2,3", v2=START10, v3=KEY10).state.vr[1] == OUTPUT


def test_vsbox_is_subbytes():
    assert run("vsbox 1,2", v2=START1).state.vr[1] == SBOX1


def test_vncipher_inverts_a_round():
    """FIPS-197 5.3 (the equivalent inverse cipher's order as the book gives
    it): vncipher(x, k) = InvMixColumns(InvSubBytes(InvShiftRows(x)) ^ k).
    With x = vcipherlast's output on round 10 and k = 0:
    InvSubBytes(InvShiftRows(OUTPUT ^ KEY10)) = START10."""
    got = run("vncipherlast 1,2,3", v2=OUTPUT ^ KEY10, v3=0).state.vr[1]
    assert got == START10
    # InvMixColumns(MixColumns(s)) = s: vncipher on round 1's m_col with key 0
    got = run("vncipher 1,2,3", v2=START2 ^ KEY1, v3=0).state.vr[1]
    # = InvMixColumns(InvSubBytes(InvShiftRows(m_col)))
    from isa_ext.pseudocode import crypto
    assert got == crypto.mix_columns(crypto.sub_bytes(crypto.shift_rows(MCOL1, -1), crypto.INV_SBOX),
                                     crypto.INV_MIX)


def test_vshasigmaw_by_hand():
    """FIPS 180-4 4.1.2 on x = 1: sigma0 = ROTR7 ^ ROTR18 ^ SHR3 = 0x02004000,
    sigma1 = ROTR17 ^ ROTR19 ^ SHR10 = 0x0000A000, Sigma0 = ROTR2 ^ ROTR13 ^
    ROTR22 = 0x40080400, Sigma1 = ROTR6 ^ ROTR11 ^ ROTR25 = 0x04200080; SIX
    picks per word (bit i for word i)."""
    one = 0x00000001_00000001_00000001_00000001
    assert run("vshasigmaw 1,2,0,0b0101", v2=one).state.vr[1] == \
        0x02004000_0000A000_02004000_0000A000
    assert run("vshasigmaw 1,2,1,0b0011", v2=one).state.vr[1] == \
        0x40080400_40080400_04200080_04200080


def test_vshasigmad_by_hand():
    """FIPS 180-4 4.1.3 on x = 1: sigma0 = ROTR1 ^ ROTR8 ^ SHR7 =
    0x8100000000000000, Sigma0 = ROTR28 ^ ROTR34 ^ ROTR39 = 0x0000001042000000,
    Sigma1 = ROTR14 ^ ROTR18 ^ ROTR41 = 0x0004400000800000; SIX bit 0 picks
    for dword 0, bit 2 for dword 1."""
    one = 1 << 64 | 1
    assert run("vshasigmad 1,2,0,0", v2=one).state.vr[1] == 0x8100000000000000 << 64 | 0x8100000000000000
    assert run("vshasigmad 1,2,1,0b0010", v2=one).state.vr[1] == \
        0x0000001042000000 << 64 | 0x0004400000800000


def test_vpmsumb_carry_less():
    """Halfword 0: 0x03 clmul 0x03 = 0x05 (x+1 squared: x^2+1) xor
    0xFF clmul 0x02 = 0x1FE: 0x1FB; the other halfwords 0."""
    sim = run("vpmsumb 1,2,3", v2=0x03FF << 112, v3=0x0302 << 112)
    assert sim.state.vr[1] == 0x01FB << 112


def test_vpmsumd_carry_less():
    """(x^63) * (x^63) = x^126; xor (x^0 * 1) = 1."""
    sim = run("vpmsumd 1,2,3", v2=1 << 127 | 1, v3=1 << 127 | 1)
    assert sim.state.vr[1] == 1 << 126 | 1


@pytest.mark.parametrize("line,a,b,want,sat", [
    # vpkshss: halfwords 0x7FFF -> 0x7F (sat), 0x8000 -> 0x80 (sat), 0x0042 -> 0x42
    ("vpkshss 1,2,3", 0x7FFF_8000_0042 << 80, 0, 0x7F8042 << 104, 1),
    # vpkshus: 0xFFFF (-1) -> 0 (sat), 0x00FF -> 0xFF
    ("vpkshus 1,2,3", 0xFFFF_00FF << 96, 0, 0x00FF << 112, 1),
    # vpkuhus: 0x0100 -> 0xFF (sat)
    ("vpkuhus 1,2,3", 0x0100 << 112, 0, 0xFF << 120, 1),
    ("vpkuhus 1,2,3", 0x00FE << 112, 0x0001, 0xFE << 120 | 0x01, 0),
    # vavgsb: (-1 + 0 + 1) >> 1 = 0; (127 + 127 + 1) >> 1 = 127; vavgub: (255 + 0 + 1) >> 1 = 128
    ("vavgsb 1,2,3", 0xFF7F << 112, 0x007F << 112, 0x007F << 112, 0),
    ("vavgub 1,2,3", 0xFF << 120, 0, 0x80 << 120, 0),
    # vsum4sbs: word 3: 0x7F*4 + 0x7FFFFFFF saturates to 0x7FFFFFFF
    ("vsum4sbs 1,2,3", 0x7F7F7F7F, 0x7FFFFFFF, 0x7FFFFFFF, 1),
    ("vsum4sbs 1,2,3", 0x80FF0102, 10, (10 - 128 - 1 + 1 + 2) & 0xFFFFFFFF, 0),
])
def test_saturating_by_hand(line, a, b, want, sat):
    sim = run(line, v2=a, v3=b, vscr=0)
    assert sim.state.vr[1] == want
    assert sim.state.vscr & 1 == sat


def test_vmhraddshs_rounds_then_saturates():
    """0x4000 * 0x4000 = 0x10000000; + 0x4000, >> 15 = 0x2000; + 0x7000 =
    0x9000 > 0x7FFF: 0x7FFF, SAT.  Halfword 1: -1 * 1 = -1, + 0x4000 >> 15 = 0;
    + 5 = 5."""
    sim = run("vmhraddshs 1,2,3,4", v2=0x4000_FFFF << 96, v3=0x4000_0001 << 96,
              v4=0x7000_0005 << 96, vscr=0)
    assert sim.state.vr[1] == 0x7FFF_0005 << 96
    assert sim.state.vscr & 1


def test_quadword_carries_by_hand():
    ones = (1 << 128) - 1
    assert run("vaddcuq 1,2,3", v2=ones, v3=1).state.vr[1] == 1
    assert run("vaddecuq 1,2,3,4", v2=ones, v3=0, v4=1).state.vr[1] == 1
    assert run("vaddeuqm 1,2,3,4", v2=ones, v3=0, v4=1).state.vr[1] == 0
    assert run("vsubcuq 1,2,3", v2=5, v3=5).state.vr[1] == 1   # no borrow
    assert run("vsubcuq 1,2,3", v2=4, v3=5).state.vr[1] == 0
    assert run("vsubeuqm 1,2,3,4", v2=4, v3=5, v4=0).state.vr[1] == ones - 1  # 4 - 5 - 1
    assert run("vmul10cuq 1,2", v2=ones).state.vr[1] == 9
    assert run("vmul10euq 1,2,3", v2=7, v3=3).state.vr[1] == 73


def test_vcmpsq_records_the_cr_field():
    """-1 < 1 signed: CR field 3 = LT (0b1000); unsigned: GT (0b0100)."""
    ones = (1 << 128) - 1
    assert run("vcmpsq 3,2,3", v2=ones, v3=1).state.cr[3] == 0b1000
    assert run("vcmpuq 3,2,3", v2=ones, v3=1).state.cr[3] == 0b0100
    assert run("vcmpuq 3,2,3", v2=7, v3=7).state.cr[3] == 0b0010


def test_mask_expand_extract_move_by_hand():
    """Book I 6.13: vexpandbm copies each byte's bit 0 over the byte;
    vextractbm gathers bit 0 of byte i into RT bit 48+i; mtvsrbm spreads
    RB bit 48+i over byte i."""
    v = 0x80_00_FF_7F << 96 | 0x81
    assert run("vexpandbm 1,2", v2=v).state.vr[1] == 0xFF_00_FF_00 << 96 | 0xFF
    sim = Simulator(isa=ISA_)
    sim.load_asm("vextractbm 3,2\nvextractwm 4,2\nmtvsrbm 1,5\nmtvsrdm 6,5\n")
    sim.state.vr[2] = v
    sim.state.gpr[5] = 0b1010000000000001
    assert sim.run(max_steps=5).stop == "end"
    assert sim.state.gpr[3] == 0b1010000000000001
    assert sim.state.gpr[4] == 0b1000
    assert sim.state.vr[1] == 0xFF_00_FF << 104 | 0xFF
    assert sim.state.vr[6] == 0xFFFFFFFFFFFFFFFF  # RB bits 62, 63 = 0, 1


def test_clear_bytes_by_hand():
    """vclrlb keeps the rightmost (RB) bytes, vclrrb the leftmost; (RB) >= 16
    keeps all."""
    a = int.from_bytes(bytes(range(1, 17)), "big")
    sim = Simulator(isa=ISA_)
    sim.load_asm("vclrlb 1,2,5\nvclrrb 3,2,5\nvclrlb 4,2,6\n")
    sim.state.vr[2] = a
    sim.state.gpr[5], sim.state.gpr[6] = 3, 16
    assert sim.run(max_steps=4).stop == "end"
    assert sim.state.vr[1] == 0x0E0F10
    assert sim.state.vr[3] == 0x010203 << 104
    assert sim.state.vr[4] == a


def test_bit_gather_scatter_by_hand():
    """Doubleword 1 only (doubleword 0 zero): src 0b1011_0110, mask
    0b1111_0000: centrifuge puts src's bits under mask ones (1011) right,
    those under zeros (..0_0110, 60 bits) left: 0b0110 << 4 | 0b1011 =
    0x6B; pdep of 0b0101 under mask: 0b0101_0000; pext: 0b1011."""
    for line, want in (("vcfuged 1,2,3", 0x6B), ("vpdepd 1,2,3", 0x50), ("vpextd 1,2,3", 0b1011)):
        src = 0b0101 if line.startswith("vpdepd") else 0b10110110
        assert run(line, v2=src, v3=0xF0).state.vr[1] == want, line


def test_count_zeros_under_mask_by_hand():
    """Mask 0xF0F0... puts bits 0-3 and 8-11 under the mask.  src 0x0020...
    (bit 10): 0-3, 8, 9 are zero, then a one: 6; src 0x0010... (bit 11): 7;
    src 0x0800... (bit 4, not under the mask): every masked bit is zero: 8."""
    m = 0xF0F0000000000000 << 64
    assert run("vclzdm 1,2,3", v2=0x0020000000000000 << 64, v3=m).state.vr[1] == 6 << 64
    assert run("vclzdm 1,2,3", v2=0x0010000000000000 << 64, v3=m).state.vr[1] == 7 << 64
    assert run("vclzdm 1,2,3", v2=0x0800000000000000 << 64, v3=m).state.vr[1] == 8 << 64
    # trailing: mask 0x0F over src 0x04: positions 63, 62 are 0, 61 is 1: 2
    assert run("vctzdm 1,2,3", v2=0x04, v3=0x0F).state.vr[1] == 2


def test_quadword_rotates_and_shifts_by_hand():
    one = 1
    assert run("vslq 1,2,3", v2=one, v3=127 << 64).state.vr[1] == 1 << 127
    assert run("vsrq 1,2,3", v2=1 << 127, v3=(128 + 3) << 64).state.vr[1] == 1 << 124
    assert run("vsraq 1,2,3", v2=1 << 127, v3=3 << 64).state.vr[1] == 0xF << 124
    assert run("vrlq 1,2,3", v2=1 << 127 | 1, v3=1 << 64).state.vr[1] == 0b11
    # vrlqnm: n = 4, b = 120, e = 127 (VRB bits 41:47, 49:55, 57:63 of dword 0)
    vrb = (120 << 16 | 127 << 8 | 4) << 64
    assert run("vrlqnm 1,2,3", v2=0xAB << 120, v3=vrb).state.vr[1] == 0x0A
    # vrlqmi inserts the same into VRT's low byte, the rest kept
    assert run("vrlqmi 1,2,3", v1=(1 << 128) - 1, v2=0xAB << 120, v3=vrb).state.vr[1] == \
        ((1 << 128) - 1) & ~0xFF | 0x0A
    # b > e wraps: b = 124, e = 3: bits 124..127 and 0..3
    vrb = (124 << 16 | 3 << 8 | 0) << 64
    assert run("vrlqnm 1,2,3", v2=(1 << 128) - 1, v3=vrb).state.vr[1] == 0xF << 124 | 0xF


def test_vextsd2q_and_rightmost_loads_by_hand():
    assert run("vextsd2q 1,2", v2=0x8000000000000000).state.vr[1] == \
        ((1 << 64) - 1) << 64 | 0x8000000000000000
    sim = Simulator(isa=ISA_)
    sim.load_asm("lxvrhx 33,5,6\nstxvrwx 33,5,7\nlwz 8,8(5)\n")
    base = 0x20000
    sim.state.gpr[5], sim.state.gpr[6], sim.state.gpr[7] = base, 2, 8
    sim.state.vr[1] = (1 << 128) - 1
    sim.state.mem.write_bytes(base, bytes(range(16)))
    assert sim.run(max_steps=4).stop == "end"
    assert sim.state.vr[1] == 0x0302  # little-endian halfword at base + 2, the rest zeroed
    assert sim.state.gpr[8] == 0x0302


def test_insert_from_gpr_by_hand():
    """vinswlx: index (RA)[60:63] = 4 from the left: bytes 4-7 <- (RB)[32:63];
    vinshrx: index 14 - 2 = 12: bytes 12-13; vinsw UIM 8: bytes 8-11."""
    sim = Simulator(isa=ISA_)
    sim.load_asm("vinswlx 1,5,6\nvinshrx 2,7,6\nvinsw 3,6,8\n")
    sim.state.gpr[5], sim.state.gpr[6], sim.state.gpr[7] = 0x14, 0x1122334455667788, 2
    assert sim.run(max_steps=4).stop == "end"
    assert sim.state.vr[1] == 0x55667788 << 64
    assert sim.state.vr[2] == 0x7788 << 16
    assert sim.state.vr[3] == 0x55667788 << 32


def test_insert_past_the_last_element_keeps_vrt():
    """vinsdlx index 9 > 8: undefined by the book; VRT kept (as QEMU 7.2)."""
    sim = Simulator(isa=ISA_)
    sim.load_asm("vinsdlx 1,5,6\n")
    sim.state.gpr[5], sim.state.gpr[6] = 9, 0x1122334455667788
    sim.state.vr[1] = 0xABCDEF
    assert sim.run(max_steps=2).stop == "end"
    assert sim.state.vr[1] == 0xABCDEF


def test_vinsw_immediate_past_the_last_word_traps(isa):
    """UIM > 12 is undefined: the word (assembled by hand: vinsw v1,r3,13)
    decodes and traps as illegal when run, naming the reason."""
    word = 4 << 26 | 1 << 21 | 13 << 16 | 3 << 11 | 207
    sim = Simulator(isa=isa)
    sim.load_words([word])
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and "UIM > 12" in str(res.trap)


def test_extract_double_by_hand():
    """vextduhvlx: index (RC)[59:63] = 15 in VRA || VRB: bytes 15, 16 (the
    last of VRA, the first of VRB) into doubleword 0; vextdubvrx index 31 - 0
    = 31: the last byte of VRB."""
    sim = Simulator(isa=ISA_)
    sim.load_asm("vextduhvlx 1,2,3,5\nvextdubvrx 4,2,3,6\n")
    sim.state.vr[2] = 0xAA
    sim.state.vr[3] = 0xBB << 120 | 0xCC
    sim.state.gpr[5], sim.state.gpr[6] = 15, 0
    assert sim.run(max_steps=3).stop == "end"
    assert sim.state.vr[1] == 0xAABB << 64
    assert sim.state.vr[4] == 0xCC << 64


def test_string_isolate_by_hand():
    """vstribl. keeps the bytes left of the first zero byte and records
    CR6 EQ (0b0010); with no zero byte all stay and CR6 is 0."""
    s = int.from_bytes(b"AB\0CDEFGHIJKLMNO", "big")
    sim = run("vstribl. 1,2", v2=s)
    assert sim.state.vr[1] == int.from_bytes(b"AB" + bytes(14), "big")
    assert sim.state.cr[6] == 0b0010
    full = int.from_bytes(b"ABCDEFGHIJKLMNOP", "big")
    sim = run("vstribr. 1,2", v2=full)
    assert sim.state.vr[1] == full and sim.state.cr[6] == 0
    sim = run("vstrihr 1,2", v2=0x0041_0000 << 96 | 0x0042_0043)
    assert sim.state.vr[1] == 0x0042_0043


def test_mask_count_and_immediate_by_hand():
    """vcntmbb counts bytes whose bit 0 equals MP: 3 of 16 set: RT = 3 << 56;
    MP=0: 13 << 56.  mtvsrbmi 0x8001: bytes 0 and 15 all ones."""
    v = 0x80_80_80 << 104
    sim = Simulator(isa=ISA_)
    sim.load_asm("vcntmbb 3,2,1\nvcntmbb 4,2,0\nvcntmbd 5,2,1\nmtvsrbmi 1,0x8001\n")
    sim.state.vr[2] = v
    assert sim.run(max_steps=5).stop == "end"
    assert sim.state.gpr[3] == 3 << 56
    assert sim.state.gpr[4] == 13 << 56
    assert sim.state.gpr[5] == 1 << 59
    assert sim.state.vr[1] == 0xFF << 120 | 0xFF


def test_shift_double_by_bit_immediate_by_hand():
    a, b = 1, 1 << 127
    assert run("vsldbi 1,2,3,1", v2=a, v3=b).state.vr[1] == 0b11
    assert run("vsrdbi 1,2,3,3", v2=a, v3=b).state.vr[1] == 1 << 125 | 1 << 124


def test_xxeval_immediate_names_minterms():
    """Book I 7.6 xxeval: result bit = IMM bit (a || b || c), IMM bit 0 the
    most significant.  IMM 1 (bit 7: a = b = c = 1): AND of the three;
    IMM 0x7F (every minterm but 000): OR; IMM 0b01111000 (minterms 001,
    010, 011, 100: a differs from b | c): a XOR (b OR c)."""
    a, b, c = 0xF0 << 120, 0xCC << 120, 0xAA << 120
    def xxeval(imm):
        sim = Simulator(isa=ISA_)
        sim.load_asm(f"xxeval 33,34,35,36,{imm}\n")
        for n, v in ((2, a), (3, b), (4, c)):
            sim.state.vr[n] = v
        assert sim.run(max_steps=2).stop == "end"
        return sim.state.vr[1] >> 120
    assert xxeval(1) == 0xF0 & 0xCC & 0xAA
    assert xxeval(0x7F) == 0xF0 | 0xCC | 0xAA
    assert xxeval(0b01111000) == 0xF0 ^ (0xCC | 0xAA)


def test_xxblendv_and_xxpermx_by_hand():
    """xxblendvw takes XB's word where XC's word has its sign bit set;
    xxpermx byte i: when XC byte i's bits 0:2 equal UIM, byte (bits 3:7) of
    XA || XB, else 0."""
    sim = Simulator(isa=ISA_)
    sim.load_asm("xxblendvw 33,34,35,36\nxxpermx 37,34,35,38,2\n")
    sim.state.vr[2] = 0x11111111_22222222_33333333_44444444
    sim.state.vr[3] = 0xAAAAAAAA_BBBBBBBB_CCCCCCCC_DDDDDDDD
    sim.state.vr[4] = 0x80000000_7FFFFFFF_FFFFFFFF_00000000
    sim.state.vr[6] = (0b010_00000 << 120) | (0b010_10000 << 112) | (0b011_00000 << 104)
    assert sim.run(max_steps=3).stop == "end"
    assert sim.state.vr[1] == 0xAAAAAAAA_22222222_CCCCCCCC_44444444
    assert sim.state.vr[5] == 0x11_AA << 112


PREFIXED_XX4 = ["xxeval vs33,vs34,vs35,vs36,150", "xxeval 0,63,31,32,1",
                "xxpermx vs33,vs34,vs35,vs36,5", "xxpermx vs1,vs2,vs3,vs60,7",
                "xxblendvb vs33,vs34,vs35,vs36", "xxblendvh vs0,vs1,vs2,vs3",
                "xxblendvw vs63,vs62,vs61,vs60", "xxblendvd vs10,vs42,vs11,vs43"]


def test_prefixed_xx4_rows_assemble_as_gnu_as(tmp_path):
    """GNU as 2.40 -mpower10 writes the same 8 bytes (prefix word, then
    suffix, little-endian), and our disassembly of them reassembles to them."""
    from conftest import gnu_as_words
    from isa_ext.asm import assemble
    from isa_ext.disasm import Disassembler
    want = gnu_as_words(tmp_path, PREFIXED_XX4, extra_args=["-mpower10"])
    ours = assemble("".join(f"{t}\n" for t in PREFIXED_XX4), isa=ISA_, base=0).words
    assert ours == want
    dis = Disassembler(ISA_)
    for i in range(0, len(ours), 2):
        text = dis.prefixed(ours[i], ours[i + 1])
        assert assemble(text + "\n", isa=ISA_, base=0).words == ours[i:i + 2], text


def test_vgnb_by_hand(isa):
    """N = 3: VRB bits 0, 3, 6, ..., 126 (43 bits) left-justified in RT.
    VRB with bits 0, 1, 3 and 125 set (1 and 125 not gathered): RT bits 0
    and 1."""
    sim = Simulator(isa=isa)
    sim.load_asm("vgnb 3,2,3\nvgnb 4,2,2\n")
    sim.state.vr[2] = 0b1101 << 124 | 1 << 2
    assert sim.run(max_steps=3).stop == "end"
    assert sim.state.gpr[3] == 0b11 << 62
    # N = 2: bits 0, 2, ..., 126: bit 0 -> RT bit 0, bit 2 -> RT bit 1 (0)
    assert sim.state.gpr[4] == 1 << 63
    word = 4 << 26 | 3 << 21 | 1 << 16 | 2 << 11 | 1228  # vgnb r3,v2,1
    sim = Simulator(isa=isa)
    sim.load_words([word])
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and "N < 2" in str(res.trap)


@pytest.mark.parametrize("uim,want", [
    (1, 0x3FFF << 112),            # +1.0: exponent 16383, fraction 0
    (3, 0x40008 << 108),           # +3.0 = 1.1b * 2^1
    (7, 0x4001C << 108),           # +7.0 = 1.11b * 2^2
    (8, 0x7FFF << 112),            # +infinity
    (9, 0x7FFF8 << 108),           # the default quiet NaN
    (16, 1 << 127),                # -0.0
    (21, 0xC0014 << 108),          # -5.0 = -1.01b * 2^2
    (24, 0xFFFF << 112),           # -infinity
])
def test_lxvkq_quad_precision_constants(uim, want):
    sim = Simulator(isa=ISA_)
    sim.load_asm(f"lxvkq 33,{uim}\n")
    assert sim.run(max_steps=2).stop == "end"
    assert sim.state.vr[1] == want


@pytest.mark.parametrize("uim", [0, 10, 15, 25, 31])
def test_lxvkq_reserved_values_trap(uim):
    word = 60 << 26 | 1 << 21 | 31 << 16 | uim << 11 | 360 << 1 | 1  # lxvkq vs33,uim
    sim = Simulator(isa=ISA_)
    sim.load_words([word])
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and "reserved" in str(res.trap)


def test_xxgenpcv_by_hand():
    """Mask bytes 2 and 5 (their bit 0 set).  IMM 1, big-endian compression:
    XT bytes 0, 1 = 2, 5, the rest 0.  IMM 0, expansion: byte 2 = 0,
    byte 5 = 1, every other byte k = 0x10 + k (its all-zeros index).
    xxgenpcvhm IMM 3, little-endian compression of halfword 7 (the rightmost,
    byte index 0 from the right): the last halfword of XT = 1, 0."""
    mask = 0x80 << (8 * (15 - 2)) | 0x80 << (8 * (15 - 5))
    sim = Simulator(isa=ISA_)
    sim.load_asm("xxgenpcvbm 33,2,1\nxxgenpcvbm 35,2,0\nxxgenpcvhm 36,5,3\n")
    sim.state.vr[2] = mask
    sim.state.vr[5] = 0x8000
    assert sim.run(max_steps=4).stop == "end"
    assert sim.state.vr[1] == 0x0205 << 112
    want = bytes(0x10 + k for k in range(16))
    want = want[:2] + b"\x00" + want[3:5] + b"\x01" + want[6:]
    assert sim.state.vr[3].to_bytes(16, "big") == want
    assert sim.state.vr[4] == 0x0100
