"""SVP64 normal-mode features: Rc=0 fail-first (RC1), fail-first over
sub-vectors, saturation, the removed predicate-result mode.  Expected values
are derived by hand in the comments from normal.mdwn (libre-soc wiki) and the
MODE table of openpower-isa's RM decoder (``VLi 1 inv zz RC1``, ``1 0 N dz sz``)."""
import pytest

from conftest import sv_words as words

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV, rm as RM

M64 = (1 << 64) - 1


def run(isa, prog, vl, regs=(), cr=(), so=0):
    sim = Simulator(isa=isa)
    ws = []
    for p in prog:
        ws += words(isa, p) if isinstance(p, str) else list(p)
    sim.load_words(ws)
    sim.state.svstate = SV.make(maxvl=max(vl, 1), vl=vl)
    for i, v in dict(regs).items():
        sim.state.gpr[i] = v & M64
    for i, v in dict(cr).items():
        sim.state.cr[i] = v
    sim.state.so = so
    return sim.run()


def vl_of(r):
    return SV.get(r.state.svstate, "vl")


def with_mode(isa, line, mode):
    pre, suf = words(isa, line)
    return [RM.prefix_of(RM.put_bits(RM.rm_of(pre), 19, 23, mode)), suf]


# --- Rc=0 fail-first -------------------------------------------------------------

def test_ff_rc1_encoding(svisa):
    # MODE = VLi 1 inv zz RC1: ff=RC1 -> 01001, ff=~RC1/vli/zz -> 11111; the rest of
    # RM equals the unmodified instruction's
    plain = RM.rm_of(words(svisa, "sv.subf *0, 8, *0")[0])
    for mods, mode in (("ff=RC1", 0b01001), ("ff=~RC1/vli/zz", 0b11111),
                       ("ff=RC1/vli", 0b11001)):
        pre, _ = words(svisa, f"sv.subf/{mods} *0, 8, *0")
        assert RM.rm_of(pre) == RM.put_bits(plain, 19, 23, mode)
        assert svisa.sv_disassemble(*words(svisa, f"sv.subf/{mods} *0, 8, *0")) == \
            f"sv.subf/{mods} *0, 8, *0"


def test_ff_rc1_stores_crs_not_results(svisa):
    # subf RT=RB-RA: r0..r3 = 9 8 3 4, r8 = 3 -> results 6 5 0 1.  RC1: CR(0+i) as if
    # Rc=1 = GT GT EQ; EQ set at element 2 != inv 0 -> stop, VL = 2.  normal.mdwn:
    # "when RC1=1 the result elements are never stored, only the CRs": r0..r3 unchanged,
    # CR3 never computed.
    r = run(svisa, ["sv.subf/ff=RC1 *0, 8, *0"], 4, {0: 9, 1: 8, 2: 3, 3: 4, 8: 3},
            cr={3: 0b0001})
    assert r.stop == "end"
    assert r.gpr[0:4] == [9, 8, 3, 4]
    assert r.state.cr[0:4] == [0b0100, 0b0100, 0b0010, 0b0001]
    assert vl_of(r) == 2 and SV.get(r.state.svstate, "srcstep") == 0


def test_ff_rc1_vli_and_zero_vl(svisa):
    # /vli: the failing element counts: VL = 3
    r = run(svisa, ["sv.subf/ff=RC1/vli *0, 8, *0"], 4, {0: 9, 1: 8, 2: 3, 3: 4, 8: 3})
    assert vl_of(r) == 3 and r.gpr[0:4] == [9, 8, 3, 4]
    # element 0 is 3-3 = 0: without VLi VL becomes 0 (data-dependent ffirst may set 0)
    r = run(svisa, ["sv.subf/ff=RC1 *0, 8, *0"], 4, {0: 3, 1: 8, 8: 3})
    assert vl_of(r) == 0 and r.state.cr[0] == 0b0010 and r.state.cr[1] == 0
    # with VLi it is 1
    r = run(svisa, ["sv.subf/ff=RC1/vli *0, 8, *0"], 4, {0: 3, 1: 8, 8: 3})
    assert vl_of(r) == 1


def test_ff_not_rc1_inverted(svisa):
    # ~RC1 (inv=1): stop at the first non-zero result.  r0..r2 = 3 3 5, r8 = 3 ->
    # 0 0 2: CR EQ EQ GT (SO 0 though XER.SO=1: an SVP64 instruction does not
    # read XER.SO, errata SV-24); element 2 EQ=0 != inv -> VL = 2
    r = run(svisa, ["sv.subf/ff=~RC1 *0, 8, *0"], 3, {0: 3, 1: 3, 2: 5, 8: 3}, so=1)
    assert vl_of(r) == 2
    assert r.state.cr[0:3] == [0b0010, 0b0010, 0b0100] and r.state.so == 1


def test_ff_rc1_on_row_without_rc(svisa):
    # addi has no Rc: the as-if-Rc=1 field is CR0 + element.  r0..r2 = 5 3 7, SI=-3
    # -> 2 0 4: CR0 GT, CR1 EQ -> VL = 1, r0..r2 unchanged
    r = run(svisa, ["sv.addi/ff=RC1 *0, *0, -3"], 3, {0: 5, 1: 3, 2: 7})
    assert vl_of(r) == 1 and r.gpr[0:3] == [5, 3, 7]
    assert r.state.cr[0:3] == [0b0100, 0b0010, 0]


def test_ff_rc0_without_rc1_tests_zero_keeps_results(svisa):
    # MODE 01000 (Rc=0, RC1=0, "z/nonz"): results stored, no CR written, test = result
    # zero.  6 5 0 1: element 2 is zero -> VL = 2, its result discarded (r2 keeps 3)
    prog = [with_mode(svisa, "sv.subf *0, 8, *0", 0b01000)]
    r = run(svisa, prog, 4, {0: 9, 1: 8, 2: 3, 3: 4, 8: 3}, cr={0: 0b0001, 2: 0b0001})
    assert r.gpr[0:4] == [6, 5, 3, 4] and vl_of(r) == 2
    assert r.state.cr[0:4] == [0b0001, 0, 0b0001, 0]
    # VLi (MODE 11000): the zero result is written, VL = 3
    prog = [with_mode(svisa, "sv.subf *0, 8, *0", 0b11000)]
    r = run(svisa, prog, 4, {0: 9, 1: 8, 2: 3, 3: 4, 8: 3})
    assert r.gpr[0:4] == [6, 5, 0, 4] and vl_of(r) == 3
    # no assembly spelling: disassembles to nothing (printed as words)
    assert svisa.sv_disassemble(*with_mode(svisa, "sv.subf *0, 8, *0", 0b01000)) is None


def test_ff_rc1_zz_zeroes_masked_out(svisa):
    # /zz (bit 3) zeroes on both sides: m=r3=0b101, elements 0..2; element 1 masked
    # out -> zeroed destination; RC1 never stores results, so the zeroed element is the
    # only write: r1 = 0.  Results 6 . 1 -> CR0 GT, CR2 GT, no fail: VL stays 3
    r = run(svisa, ["sv.subf/ff=RC1/zz/m=r3 *0, 8, *0"], 3,
            {0: 9, 1: 8, 2: 4, 3: 0b101, 8: 3})
    assert r.gpr[0:3] == [9, 0, 4] and vl_of(r) == 3
    assert r.state.cr[0] == 0b0100 and r.state.cr[2] == 0b0100


# --- fail-first with SUBVL > 1 ----------------------------------------------------

def test_ff_subvl_discards_group(svisa):
    # sv.subf./vec2/ff=eq *0, 8, *0, VL=3 groups of 2: r0..r5 = 9 8 3 7 5 6, r8 = 3 ->
    # 6 5 0 4 2 3.  Sub-element 2 (group 1, first) is zero: EQ -> VL = 1 (VL counts
    # groups), group 1 discarded (r2, r3 keep 3, 7), CR2 = EQ kept, later ones untouched
    r = run(svisa, ["sv.subf./vec2/ff=eq *0, 8, *0"], 3,
            {0: 9, 1: 8, 2: 3, 3: 7, 4: 5, 5: 6, 8: 3})
    assert r.gpr[0:6] == [6, 5, 3, 7, 5, 6] and vl_of(r) == 1
    assert r.state.cr[0:4] == [0b0100, 0b0100, 0b0010, 0]
    # failing on the second sub-element: 9 8 7 3 -> 6 5 4 0: group 1's first result
    # (4) is discarded with it
    r = run(svisa, ["sv.subf./vec2/ff=eq *0, 8, *0"], 3,
            {0: 9, 1: 8, 2: 7, 3: 3, 4: 5, 5: 6, 8: 3})
    assert r.gpr[0:6] == [6, 5, 7, 3, 5, 6] and vl_of(r) == 1


def test_ff_subvl_vli(svisa):
    # /vli: VL = 2 includes group 1; the failing sub-element is written, the loop ends
    # there (r3 not computed: keeps 7, CR3 untouched)
    r = run(svisa, ["sv.subf./vec2/ff=eq/vli *0, 8, *0"], 3,
            {0: 9, 1: 8, 2: 3, 3: 7, 4: 5, 5: 6, 8: 3})
    assert r.gpr[0:6] == [6, 5, 0, 7, 5, 6] and vl_of(r) == 2
    assert r.state.cr[3] == 0


def test_ff_subvl_rc1_vl0(svisa):
    # RC1 over vec2: 3 9 -> 0 6: sub-element 0 zero -> VL 0, nothing stored
    r = run(svisa, ["sv.subf/vec2/ff=RC1 *0, 8, *0"], 2, {0: 3, 1: 9, 8: 3})
    assert vl_of(r) == 0 and r.gpr[0:2] == [3, 9] and r.state.cr[0] == 0b0010


# --- saturation -------------------------------------------------------------------

def test_sat_encoding(svisa):
    # MODE = 1 0 N dz sz: satu 10000, sats 10100, sats/dz 10110
    plain = RM.rm_of(words(svisa, "sv.add/w=8 *1, *5, *9")[0])
    for mods, mode in (("w=8/satu", 0b10000), ("w=8/sats", 0b10100),
                       ("w=8/sats/dz", 0b10110)):
        pre, suf = words(svisa, f"sv.add/{mods} *1, *5, *9")
        assert RM.rm_of(pre) == RM.put_bits(plain, 19, 23, mode)
        assert svisa.sv_disassemble(pre, suf) == f"sv.add/{mods} *1, *5, *9"


def test_satu_w8(svisa):
    # bytes: 200+100 = 300 -> 255; 10+20 = 30; the other bytes of r1 are kept
    r = run(svisa, ["sv.add/satu/w=8 *1, *5, *9"], 2,
            {1: 0x1111111111111111, 5: 0x0AC8, 9: 0x1464})
    assert r.gpr[1] == 0x1111111111111EFF
    # subf RT = RB - RA: 100 - 200 = -100 -> 0; 50 - 20 = 30
    r = run(svisa, ["sv.subf/satu/w=8 *1, *5, *9"], 2, {5: 0x14C8, 9: 0x3264})
    assert r.gpr[1] & 0xFFFF == 0x1E00


def test_sats_w8(svisa):
    # subf RB - RA, signed bytes: -128-100 = -228 -> -128 (0x80); 100-(-100) = 200 -> 127;
    # 3-5 = -2 (0xFE)
    r = run(svisa, ["sv.subf/sats/w=8 *1, *5, *9"], 3, {5: 0x059C64, 9: 0x036480})
    assert r.gpr[1] & 0xFFFFFF == 0xFE7F80


def test_sat_mixed_widths(svisa):
    # 16-bit sources, 8-bit destination: 300 + 0 -> 255 (satu); -200 + 0 -> -128 (sats)
    r = run(svisa, ["sv.add/satu/dw=8/sw=16 *1, *5, *9"], 1, {5: 300})
    assert r.gpr[1] & 0xFF == 0xFF
    r = run(svisa, ["sv.add/sats/dw=8/sw=16 *1, *5, *9"], 1, {5: 0x10000 - 200})
    assert r.gpr[1] & 0xFF == 0x80


def test_sat_mulld_narrow(svisa):
    # 32-bit unsigned: 0xFFFFFFFF^2 > 2^32-1 -> 0xFFFFFFFF; 3*5 = 15
    r = run(svisa, ["sv.mulld/satu/w=32 *1, *5, *9"], 2,
            {5: 0x3FFFFFFFF, 9: 0x5FFFFFFFF})
    assert r.gpr[1] == 0xFFFFFFFFF
    # 16-bit signed: 300*200 = 60000 -> 32767; -300*200 -> -32768 (0x8000)
    r = run(svisa, ["sv.mulld/sats/w=16 *1, *5, *9"], 2,
            {5: ((0x10000 - 300) << 16) | 300, 9: (200 << 16) | 200})
    assert r.gpr[1] & 0xFFFFFFFF == 0x80007FFF


def test_sats_add_64bit_overflow(svisa):
    # (2^63-1) + 1 -> 2^63-1; -2^63 + -1 -> -2^63; 5 + -7 = -2.  XER untouched (OE=0)
    r = run(svisa, ["sv.add/sats *1, *5, *9"], 3,
            {5: (1 << 63) - 1, 9: 1, 6: -(1 << 63), 10: -1, 7: 5, 11: -7})
    assert r.gpr[1:4] == [(1 << 63) - 1, 1 << 63, M64 - 1]
    assert (r.state.ov, r.state.so) == (0, 0)


# Saturation with 64-bit source elements (decoder/svp64/sat_exact.txt): the
# exact result, from the sources read as signed (/sats) or unsigned (/satu),
# clamped to the destination range; every value worked out by hand.
H = 1 << 63


@pytest.mark.parametrize("line,vl,regs,want", [
    # unsigned add: (2^64-16) + 32 = 2^64+16 -> 2^64-1; 5 + 6 = 11
    ("sv.add/satu *1, *5, *9", 2, {5: M64 - 15, 9: 32, 6: 5, 10: 6}, [M64, 11]),
    # unsigned subf (RB - RA): 3 - 5 = -2 -> 0; 9 - 4 = 5
    ("sv.subf/satu *1, *5, *9", 2, {5: 5, 9: 3, 6: 4, 10: 9}, [0, 5]),
    # unsigned neg: -5 -> 0; -0 = 0
    ("sv.neg/satu *1, *5", 2, {5: 5, 6: 0}, [0, 0]),
    # signed neg: -(-2^63) = 2^63 -> 2^63-1
    ("sv.neg/sats *1, *5", 1, {5: H}, [H - 1]),
    # signed 64x64 products: 2^62 * 4 = 2^64 -> 2^63-1; -2^62 * 4 -> -2^63; 3 * -5 = -15
    ("sv.mulld/sats *1, *5, *9", 3, {5: 1 << 62, 9: 4, 6: -(1 << 62), 10: 4, 7: 3, 11: -5},
     [H - 1, H, M64 - 14]),
    # unsigned: 2^32 * 2^32 = 2^64 -> 2^64-1; (2^63) * 1 = 2^63 (fits unsigned)
    ("sv.mulld/satu *1, *5, *9", 2, {5: 1 << 32, 9: 1 << 32, 6: H, 10: 1}, [M64, H]),
    # immediates stay signed: (2^63-1) + 1 -> 2^63-1 (sats); 5 + (-10) = -5 -> 0 (satu)
    ("sv.addi/sats *1, *5, 1", 1, {5: H - 1}, [H - 1]),
    ("sv.addi/satu *1, *5, -10", 1, {5: 5}, [0]),
    # (RA|0): RA=0 is 0, not r0 (r0 = 100): 0 + 5 = 5, 0 + (-5) -> 0 (satu)
    ("sv.addi/sats *1, 0, 5", 1, {0: 100}, [5]),
    ("sv.addi/satu *1, 0, -5", 1, {0: 100}, [0]),
    # addis: 2^62 + 0x4000 * 2^16 = 2^62 + 2^30 (fits); 2^63-1 + 2^16 -> 2^63-1
    ("sv.addis/sats *1, *5, 0x4000", 2, {5: 1 << 62, 6: H - 1}, [(1 << 62) + (1 << 30), H - 1]),
    # mulli: 2^62 * 2 = 2^63 -> 2^63-1 (sats); 2^63 * 2 -> 2^64-1 (satu)
    ("sv.mulli/sats *1, *5, 2", 1, {5: 1 << 62}, [H - 1]),
    ("sv.mulli/satu *1, *5, 2", 1, {5: H}, [M64]),
    # maddld: 2^63 * 2 + 1 = 2^64+1 -> 2^64-1 (satu)
    ("sv.maddld/satu 1, 5, 9, 13", 1, {5: H, 9: 2, 13: 1}, [M64]),
    # high halves fit their signedness; a narrower destination clamps them:
    # mulhdu 2^63 * 2^34 = 2^97, high half 2^33 -> 32-bit unsigned max
    ("sv.mulhdu/satu/dw=32 *1, *5, *9", 1, {1: 0, 5: H, 9: 1 << 34}, [0xFFFFFFFF]),
    # sld: 3 << 62 = 3 * 2^62 -> 2^63-1 (sats); 1 << 70 (amount 70: the page
    # gives 0) -> 2^64-1 (satu); 5 << 1 = 10
    ("sv.sld/sats *1, *5, *9", 1, {5: 3, 9: 62}, [H - 1]),
    ("sv.sld/satu *1, *5, *9", 2, {5: 1, 9: 70, 6: 5, 10: 1}, [M64, 10]),
    # bitwise: 0x1FF & 0xFF = 0xFF = 255 -> 127 at a signed byte (sats/dw=8)
    ("sv.and/sats/dw=8 *1, *5, *9", 1, {1: 0, 5: 0x1FF, 9: 0xFF}, [0x7F]),
    # divisions (exact quotient, truncated towards zero): -2^63 / -1 = 2^63 ->
    # 2^63-1; 7 / -2 = -3
    ("sv.divd/sats *1, *5, *9", 2, {5: H, 9: M64, 6: 7, 10: -2}, [H - 1, -3]),
    # 100 / 7 = 14; a 32-bit unsigned destination: 2^40 / 2 = 2^39 -> 2^32-1
    ("sv.divdu/satu *1, *5, *9", 1, {5: 100, 9: 7}, [14]),
    ("sv.divdu/satu/dw=32 *1, *5, *9", 1, {1: 0, 5: 1 << 40, 9: 2}, [0xFFFFFFFF]),
    # divw: the low words signed, 0x8000_0000 / -1 = 2^31 (fits 64 bits, positive);
    # -6 / 3 = -2, sign-extended (the non-saturating page leaves RT[0:31] 0)
    ("sv.divw/sats *1, *5, *9", 2, {5: 0x80000000, 9: 0xFFFFFFFF, 6: 0xFFFFFFFA, 10: 3},
     [1 << 31, -2]),
    # ... and clamped at a 32-bit destination: 2^31 -> 2^31-1
    ("sv.divw/sats/dw=32 *1, *5, *9", 1, {1: 0, 5: 0x80000000, 9: 0xFFFFFFFF},
     [0x7FFFFFFF]),
    # divwu: 0xFFFF_FFFF / 0x10 = 0x0FFF_FFFF; at a byte: 255
    ("sv.divwu/satu *1, *5, *9", 1, {5: 0xFFFFFFFF, 9: 0x10}, [0x0FFFFFFF]),
    ("sv.divwu/satu/dw=8 *1, *5, *9", 1, {1: 0, 5: 0xFFFFFFFF, 9: 0x10}, [0xFF]),
    # extended divisions: (1 || 32 zeros) / 1 = 2^32 (fits 64 bits), -> 2^31-1 at
    # 32 bits; (1 || 64 zeros) / 1 = 2^64 -> 2^64-1 (satu), / 4 = 2^62;
    # divde (1 << 64) / 2 = 2^63 -> 2^63-1; (-1 << 64) / 2 = -2^63 (fits)
    ("sv.divwe/sats *1, *5, *9", 1, {5: 1, 9: 1}, [1 << 32]),
    ("sv.divwe/sats/dw=32 *1, *5, *9", 1, {1: 0, 5: 1, 9: 1}, [0x7FFFFFFF]),
    ("sv.divweu/satu/dw=32 *1, *5, *9", 1, {1: 0, 5: 3, 9: 2}, [0xFFFFFFFF]),
    ("sv.divdeu/satu *1, *5, *9", 2, {5: 1, 9: 1, 6: 1, 10: 4}, [M64, 1 << 62]),
    ("sv.divde/sats *1, *5, *9", 2, {5: 1, 9: 2, 6: M64, 10: 2}, [H - 1, H]),
    # remainders (the dividend's sign): 300 mod 1000 = 300 -> 127 at a signed byte;
    # -7 mod 2 = -1
    ("sv.modsd/sats/dw=8 *1, *5, *9", 1, {1: 0, 5: 300, 9: 1000}, [0x7F]),
    ("sv.modsw/sats *1, *5, *9", 1, {5: 0xFFFFFFF9, 9: 2}, [-1]),
    # high words: 0x7FFF_FFFF^2 = 2^62 - 2^32 + 1, high word 2^30 - 1 -> 2^15-1
    # at 16 bits; -1 * 1 = -1, high word -1 (sign-extended at 64 bits)
    ("sv.mulhw/sats/dw=16 *1, *5, *9", 1, {1: 0, 5: 0x7FFFFFFF, 9: 0x7FFFFFFF}, [0x7FFF]),
    ("sv.mulhw/sats *1, *5, *9", 1, {5: M64, 9: 1}, [-1]),
    # 0xFFFF_FFFF^2 >> 32 = 0xFFFF_FFFE -> 255 at a byte
    ("sv.mulhwu/satu/dw=8 *1, *5, *9", 1, {1: 0, 5: 0xFFFFFFFF, 9: 0xFFFFFFFF}, [0xFF]),
    # slw: the word shifted without losing bits: 0x4000_0000 << 1 = 2^31 (sats,
    # fits 64 bits); -1 << 4 = -16; 0x8000_0000 << 1 = 2^32 -> 2^32-1 (satu at
    # 32 bits); 1 << 40 = 2^40 (the page gives 0: amounts 32..63 shift out)
    ("sv.slw/sats *1, *5, *9", 2, {5: 0x40000000, 9: 1, 6: M64, 10: 4}, [1 << 31, -16]),
    ("sv.slw/satu/dw=32 *1, *5, *9", 1, {1: 0, 5: 0x80000000, 9: 1}, [0xFFFFFFFF]),
    ("sv.slw/satu *1, *5, *9", 1, {5: 1, 9: 40}, [1 << 40]),
    # extswsli: 0x4000_0000 (2^30) << 33 = 2^63 -> 2^63-1
    ("sv.extswsli/sats *1, *5, 33", 1, {5: 0x40000000}, [H - 1]),
    # rotates and selections: the 64-bit result read as the mode's signedness;
    # rlwinm RS=0x1FF, rotate 0, mask 24:31 -> 0xFF = 255 -> 127 (sats byte),
    # 255 (satu byte); rldicl 1 rotate left 63 (= right 1) mask 0:63 -> 2^63,
    # negative -> -128 (0x80) at a signed byte
    ("sv.rlwinm/sats/dw=8 *1, *5, 0, 24, 31", 1, {1: 0, 5: 0x1FF}, [0x7F]),
    ("sv.rlwinm/satu/dw=8 *1, *5, 0, 24, 31", 1, {1: 0, 5: 0x1FF}, [0xFF]),
    ("sv.rldicl/sats/dw=8 *1, *5, 63, 0", 1, {1: 0, 5: 1}, [0x80]),
    # isel: CR0.LT (bit 0) clear -> RB = 300 -> 255 (satu byte)
    ("sv.isel/satu/dw=8 1, 5, 9, 0", 1, {1: 0, 5: 7, 9: 300}, [0xFF]),
])
def test_sat_64bit_sources(svisa, line, vl, regs, want):
    r = run(svisa, [line], vl, regs)
    assert r.stop == "end", r.trap
    assert r.gpr[1:1 + len(want)] == [w & M64 for w in want]
    assert (r.state.ov, r.state.so) == (0, 0)  # OE=0: XER untouched


def test_sat_oe1_keeps_the_pages_xer(svisa):
    # addo/sats: (2^63-1) + 1 saturates to 2^63-1; the 64-bit add overflowed,
    # so the page's OV stands (OE=1); XER.SO is not written under SVP64
    # (errata SV-24)
    r = run(svisa, ["sv.addo/sats *1, *5, *9"], 1, {5: H - 1, 9: 1})
    assert r.gpr[1] == H - 1 and (r.state.ov, r.state.so) == (1, 0)


def test_sat_divo_keeps_the_pages_xer(svisa):
    # divdo/sats: -2^63 / -1 saturates to 2^63-1; the page's OV/SO of the
    # overflowing division stand (OE=1), as for addo: OV only (errata SV-24)
    r = run(svisa, ["sv.divdo/sats *1, *5, *9"], 1, {5: H, 9: M64})
    assert r.gpr[1] == H - 1 and (r.state.ov, r.state.so) == (1, 0)


def test_sat_division_by_zero_takes_the_pages_result(svisa):
    # x / 0 has no exact result; the ISA leaves RT undefined, so the saturated
    # element is whatever the plain instruction writes, clamped (here at 64
    # bits: unchanged) -- compare with the non-saturating run
    for line, regs in (("sv.divd{} *1, *5, *9", {5: 12345, 9: 0}),
                       ("sv.divwu{} *1, *5, *9", {5: 0xFFFFFFFF, 9: 0}),
                       ("sv.modud{} *1, *5, *9", {5: 99, 9: 0})):
        sat = "/sats" if "divd" in line else "/satu"
        plain = run(svisa, [line.format("")], 1, regs)
        r = run(svisa, [line.format(sat)], 1, regs)
        assert r.stop == plain.stop == "end"
        assert r.gpr[1] == plain.gpr[1]


def test_sat_rc1_so_is_saturation(svisa):
    # Rc=1: CR per element, SO bit = saturation occurred (XER.SO ignored even if set).
    # 100+100 = 200 -> 127: GT|SO = 0b0101; 1+1 = 2: GT only.  CR0 shares RT's EXTRA3
    # slot: *1 is field 0 with spec 0b1_01 -> CR (0<<3 | 1<<2) = CR4 + element
    r = run(svisa, ["sv.add./sats/w=8 *1, *5, *9"], 2, {5: 0x0164, 9: 0x0164}, so=1)
    assert r.gpr[1] & 0xFFFF == 0x027F
    assert r.state.cr[4:6] == [0b0101, 0b0100] and r.state.cr[0:4] == [0] * 4


def test_sat_predicated_dz(svisa):
    # m=r3=0b01: element 0 saturates (250+10 -> 255), element 1 masked out, dz -> 0
    r = run(svisa, ["sv.add/satu/w=8/m=r3/dz *1, *5, *9"], 2,
            {1: 0xFFFF, 3: 1, 5: 0x01FA, 9: 0x010A})
    assert r.gpr[1] == 0x00FF


@pytest.mark.parametrize("line,why", [
    ("sv.addc/sats *1, *5, *9", "carry"),
    ("sv.fadd/sats *1, *5, *9", "not implemented"),
    # not in decoder/svp64/sat_exact.txt: exact result unknown with 64-bit sources
    # (a double-width result split over RT and RS: no single result to clamp)
    ("sv.maddedu/satu 1, 5, 9, 13", "not implemented"),
    ("sv.divmod2du/satu 1, 5, 9, 13", "not implemented"),
    ("sv.divd/satu *1, *5, *9", "reads its sources signed"),
    ("sv.divwu/sats *1, *5, *9", "reads its sources unsigned"),
    ("sv.srd/sats *1, *5, *9", "reads its sources unsigned"),
    # listed, but the page reads its sources with the other signedness
    ("sv.mulhdu/sats *1, *5, *9", "reads its sources unsigned"),
    ("sv.mulhd/satu/w=8 *1, *5, *9", "reads its sources signed"),
    ("sv.extsw/satu *1, *5", "reads its sources signed"),
])
def test_sat_traps_leave_no_state(svisa, line, why):
    r = run(svisa, [line], 2, {1: 77, 5: 1, 9: 2})
    assert r.stop == "trap" and why in r.trap.reason
    assert r.gpr[1] == 77 and r.pc == 0x1000 and vl_of(r) == 2


def test_assembler_rejects(svisa):
    from isa_ext.svp64.asm import SVAsmError
    for line, why in (("sv.add/pr=eq *1, *5, *9", "removed"),
                      ("sv.add/sats/ff=eq *1, *5, *9", "saturation"),
                      ("sv.add/sats/mr *1, *5, *9", "saturation"),
                      ("sv.subf/ff=RC1/sz *0, 8, *0", "zz")):
        with pytest.raises(SVAsmError, match=why):
            words(svisa, line)


def test_no_mode_encoding_is_left_for_pred_result(svisa):
    # every MODE value of an Rc=0 sv.add decodes to a mode (or reserved 00110/00111):
    # 11xxx is fail-first with VLi, so predicate-result has no encoding
    for mode in range(32):
        r = RM.RM(RM.put_bits(0, 19, 23, mode), 1)
        if mode in (0b00110, 0b00111):
            with pytest.raises(Exception, match="reserved"):
                RM.decode_mode(r, "normal", False, False)
            continue
        RM.decode_mode(r, "normal", False, False)
        assert r.mode in ("normal", "mapreduce", "ffirst", "sat")


def test_isacaller_does_not_saturate(svisa, isacaller):
    # openpower-isa 3cb597b9's ISACaller decodes /sats /satu but wraps: the
    # difference docs/compat.md records.  sv.add/satu/w=8 of bytes 0xFA+0x0A
    # and 0x01+0x01: 0x04, 0x02 (isa_ext 0xFF, 0x02); sv.add/sats of
    # (2^63-1) + 1: 2^63 (isa_ext 2^63-1)
    from isa_ext.asm import assemble
    from isa_ext.compat.isacaller import Case, NGPR, NFPR, run_isacaller
    progs = [("sv.add/satu/w=8 *1, *5, *9", 2, {5: 0x01FA, 9: 0x010A}),
             ("sv.add/sats *1, *5, *9", 1, {5: (1 << 63) - 1, 9: 1})]
    cases = [Case(k, [line], assemble(line + "\n", isa=svisa).words,
                  [regs.get(i, 0) for i in range(NGPR)], [0] * NFPR, 0,
                  SV.make(maxvl=vl, vl=vl))
             for k, (line, vl, regs) in enumerate(progs)]
    narrow, wide = run_isacaller(isacaller.root, cases)
    assert narrow["gpr"][1] & 0xFFFF == 0x0204
    assert wide["gpr"][1] == 1 << 63
    ours = run(svisa, [progs[0][0]], 2, progs[0][2])
    assert ours.gpr[1] & 0xFFFF == 0x02FF


def test_sat_exact_table_agrees_with_the_pages(svisa):
    # every sat_exact.txt expression must equal its page modulo 2^64 (the
    # executor traps "internal" otherwise): random sources, both modes, 64-bit
    # and 8-bit source elements; and every "fits" row runs in its modes
    import random
    from isa_ext.svp64 import satexact
    from isa_ext.svp64.record import xlen_rows
    rng = random.Random(5)
    vals = [0, 1, 2, 63, 64, 127, M64, H, H - 1, 1 << 32, 0xFFFFFFFF]
    for name, exact in sorted(satexact.rows().items()):
        row, _flags = svisa.by_mnemonic[name]
        for mode in sorted(exact.modes):
            for j, width in enumerate(("", "/sw=8", "", "/sw=8", "")):
                if width and name in xlen_rows():
                    continue  # element-width overrides trap on these rows
                ops, regs = [], {0: 100}
                for k, f in enumerate(o.field for o in row.operands):
                    if f == "RA" and "RA0" in row.ins and j % 2:
                        ops.append("0")  # (RA|0): the value 0, not r0
                    elif svisa.forms.regclass.get(f) == "gpr":
                        ops.append(str(1 + 4 * k))
                        regs[1 + 4 * k] = rng.choice(vals) if k else 0
                    else:
                        fw = row.form.fields[f].width
                        lo = -(1 << (fw - 1)) if f in svisa.forms.signed else 0
                        ops.append(str(rng.randint(lo, lo + (1 << fw) - 1)))
                line = f"sv.{name}/sat{mode}{width} {', '.join(ops)}"
                r = run(svisa, [line], 1, regs)
                assert r.stop == "end", (line, r.trap)


# --- source zeroing of FP and CR operands --------------------------------------------
# Twin predication with sz: a masked-out source element reads as zero (docs/svp64.md
# "2P: sz = zero source element"), whatever register file it lives in.
def _fp(x):
    import struct
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def test_source_zeroing_fpr(svisa):
    # sv.fmr/sm=r3/sz, r3 = 0b10: step 0's source is masked out -> fmr of +0.0
    # (all bits 0) into f80; step 1 copies f41 (2.5) into f81
    from isa_ext.sim import Simulator
    sim = Simulator(isa=svisa)
    sim.load_words(words(svisa, "sv.fmr/sm=r3/sz *80, *40"))
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    sim.state.gpr[3] = 0b10
    sim.state.fpr[40:42] = [_fp(1.5), _fp(2.5)]
    sim.state.fpr[80:82] = [_fp(9.0), _fp(9.0)]
    r = sim.run()
    assert r.stop == "end", r.trap
    assert r.fpr[80:82] == [0, _fp(2.5)]


def test_source_zeroing_fpr_element_width(svisa):
    # /w=32: binary32 elements packed in f40 = 2.5f : 1.5f (high : low); element
    # 0's source is zeroed, element 1 copies 2.5f: f80 = 0x40200000_00000000
    from isa_ext.sim import Simulator
    sim = Simulator(isa=svisa)
    sim.load_words(words(svisa, "sv.fmr/sm=r3/sz/w=32 *80, *40"))
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    sim.state.gpr[3] = 0b10
    sim.state.fpr[40] = 0x40200000_3FC00000
    sim.state.fpr[80] = 0x11111111_22222222
    r = sim.run()
    assert r.stop == "end", r.trap
    assert r.fpr[80] == 0x40200000_00000000


def test_source_zeroing_cr_field(svisa):
    # sv.mcrf/sm=r3/sz *8, *16, r3 = 0b10: CR8 <- 0 (zeroed source field), CR9 <- CR17
    r = run(svisa, ["sv.mcrf/sm=r3/sz *8, *16"], 2, {3: 0b10},
            cr={16: 5, 17: 6, 8: 15, 9: 15})
    assert r.stop == "end", r.trap
    assert r.state.cr[8:10] == [0, 6] and r.state.cr[16:18] == [5, 6]


def test_source_zeroing_cr_field_past_element_0(svisa):
    # the zeroed field is source element 1 (r3 = 0b101): CR8 <- CR16, CR9 <- 0
    # (not CR17), CR10 <- CR18; the sources themselves are left alone
    r = run(svisa, ["sv.mcrf/sm=r3/sz *8, *16"], 3, {3: 0b101},
            cr={16: 8, 17: 4, 18: 2, 8: 15, 9: 15, 10: 15})
    assert r.stop == "end", r.trap
    assert r.state.cr[8:11] == [8, 0, 2] and r.state.cr[16:19] == [8, 4, 2]


def test_source_zeroing_cr_bit(svisa):
    # sv.setbc/sm=r3/sz *8, *32 (libre-soc's SVP64Asm: 0x05402441 0x7c440300):
    # element k reads CR bit 32 + 4k (CR(8+k).LT); r3 = 0b101 zeroes source
    # element 1, so with every LT set r8, r9, r10 = 1, 0, 1
    r = run(svisa, ["sv.setbc/sm=r3/sz *8, *32"], 3, {3: 0b101, 8: 7, 9: 7, 10: 7},
            cr={8: 8, 9: 8, 10: 8})
    assert r.stop == "end", r.trap
    assert r.gpr[8:11] == [1, 0, 1] and r.state.cr[8:11] == [8, 8, 8]


@pytest.mark.parametrize("zeroing", ["zz", "dz", "sz"])
def test_destination_zeroing_cr_bit(svisa, zeroing):
    # cr_ops.mdwn "Fields": sz / dz "will put zeros into the dest (or as src in
    # the case of twin pred) when the predicate bit is zero"; single-predicated,
    # either one zeroes the destination.  sv.crand/m=r3/<z> *33, *65, *97, VL = 3,
    # r3 = 0b101: element k is CR(8+k).GT <- CR(16+k).GT & CR(24+k).GT.  Elements
    # 0 and 2: 1 & 1 -> GT set; element 1 masked out: CR9.GT <- 0.  The other
    # bits of each field are kept.
    r = run(svisa, [f"sv.crand/m=r3/{zeroing} *33, *65, *97"], 3, {3: 0b101},
            cr={8: 0b1011, 9: 0b0110, 10: 0b0110, **{f: 0b0100 for f in (16, 17, 18, 24, 25, 26)}})
    assert r.stop == "end", r.trap
    assert r.state.cr[8:11] == [0b1111, 0b0010, 0b0110]


def test_destination_zeroing_cr_bit_openpower_isa_profile():
    # ISACaller (openpower-isa 3cb597b9) extracts no sz/dz for CR-op rows
    # (docs/compat.md `crop_rows`): the masked-out element is skipped and its
    # bit kept.  Run on it: sv.crand/m=r3/zz *0, *1, *2, VL = 2, r3 = 0b10,
    # CR all ones left CR = 0xffffffff (bit 0, element 0's destination, kept).
    from isa_ext.isa import ISA
    isa = ISA(extensions=["base", "svp64"], profile="openpower-isa")
    r = run(isa, ["sv.crand/m=r3/zz *33, *65, *97"], 3, {3: 0b101},
            cr={8: 0b1011, 9: 0b0110, 10: 0b0110, **{f: 0b0100 for f in (16, 17, 18, 24, 25, 26)}})
    assert r.stop == "end", r.trap
    assert r.state.cr[8:11] == [0b1111, 0b0110, 0b0110]


def test_source_zeroed_cr_bit_destination_is_copied_back():
    # A CR-bit destination written on the source-zeroing path (the page runs on
    # a CR copy whose source bits are 0, then the destination bit is copied
    # back).  No shipped profile reaches it (CR-bit destinations are all 1P,
    # where a zeroed source means a zeroed destination), so this uses the spec
    # profile with single_pred_zeroing="twin": 1P sz zeroes the source side and
    # the destination skips masked-out elements, pairing them as docs/svp64.md
    # records for ISACaller's sv.add/m=r3/sz.
    # sv.crand/m=r3/sz *33, *65, *97, VL = 3, r3 = 0b101: element k is CR(8+k).GT
    # <- CR(16+k).GT & CR(24+k).GT.  Source steps 0, 1 pair with destination
    # steps 0, 2 (step 1 masked out): CR8.GT <- 1 & 1; CR10.GT <- 0 & 0 (source
    # element 1 zeroed, although CR17/CR25.GT are 1); CR9 untouched; every other
    # bit of a field kept.
    from isa_ext import records
    from isa_ext.isa import ISA
    from isa_ext.profile import DEFAULT
    isa = ISA(extensions=["base", "svp64"],
              profile=records.replace(DEFAULT, name="twin-1p", single_pred_zeroing="twin"))
    r = run(isa, ["sv.crand/m=r3/sz *33, *65, *97"], 3, {3: 0b101},
            cr={8: 0b1011, 9: 0b0110, 10: 0b0110, **{f: 0b0100 for f in (16, 17, 18, 24, 25, 26)}})
    assert r.stop == "end", r.trap
    assert r.state.cr[8:11] == [0b1111, 0b0110, 0b0010]


def test_source_zeroing_fp_store(svisa):
    # sv.stfd/sm=r3/zz *40, 0(10), r3 = 0b10: destination (memory) step 0 gets the
    # zeroed source element (0), step 1 f41 = 2.5 at r10+8
    from isa_ext.sim import Simulator
    sim = Simulator(isa=svisa)
    sim.load_words(words(svisa, "sv.stfd/sm=r3/zz *40, 0(10)"))
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    sim.state.gpr[3], sim.state.gpr[10] = 0b10, 0x3000
    sim.state.fpr[40:42] = [_fp(1.5), _fp(2.5)]
    sim.state.mem.write(0x3000, 8, 0xEE)
    r = sim.run()
    assert r.stop == "end", r.trap
    assert [sim.state.mem.read(0x3000 + 8 * i, 8) for i in range(2)] == [0, _fp(2.5)]


def test_bigint_vector_maddedu_with_extra_bit_8_clear_runs(svisa):
    # sv.maddedu *16,*16,3,4 (libre-soc's SVP64Asm: 0x05402800 0x10841932): EXTRA
    # is non-zero (vector RT, RA) but its bit 8 (RS=RT+MAXVL, which traps as not
    # implemented) is clear, so it runs.  bigint.mdwn: sum = (RC) + (RA)*(RB),
    # RT = low half, RS (= RC, r4, when RC is scalar) = high half: the carry chain
    # of a bigint-by-word multiply.  VL=2, r16 = 2^63, r17 = 3, r3 = 4, r4 = 1:
    # element 0: 1 + 2^65 -> r16 = 1, r4 = 2; element 1: 2 + 12 -> r17 = 14, r4 = 0.
    r = run(svisa, [[0x05402800, 0x10841932]], 2,
            {16: 1 << 63, 17: 3, 3: 4, 4: 1})
    assert r.stop == "end", r.trap
    assert (r.gpr[16], r.gpr[17], r.gpr[4]) == (1, 14, 0)


def test_failing_fail_first_element_leaves_ca_alone():
    # sv.sraw./ff=lt *8, *16, *24, VL=2, r16 = r24 = -1, XER = 0: element 0
    # shifts -1 right by RB[58:63] = 63 (> 31: every bit the sign), so RA =
    # -1, CA = CA32 = 1 (a negative value with 1-bits shifted out), CR0 = LT;
    # /ff=lt fails on LT, VLi=0: VL = 0 and the element's operations are
    # discarded (normal.mdwn "discards all element operations at and above
    # the current one"): r8 and XER untouched, only CR0 written (isa_ext
    # kept the CA until 2026-11-24; docs/compat.md ffirst_kept_xer_rows)
    from isa_ext.isa import ISA
    from isa_ext.sim import Simulator
    from isa_ext.svp64 import svstate as SV
    sim = Simulator(isa=ISA(extensions=["base", "svp64"]))
    sim.load_asm("setvl 0,0,2,0,1,1\nsv.sraw./ff=lt *8, *16, *24\n")
    st = sim.state
    st.gpr[8] = 0x55
    st.gpr[16] = st.gpr[24] = (1 << 64) - 1
    assert sim.run(max_steps=10).stop == "end"
    assert SV.get(st.svstate, "vl") == 0
    assert st.gpr[8] == 0x55
    assert st.cr[0] & 0b1000
    assert st.xer == 0
