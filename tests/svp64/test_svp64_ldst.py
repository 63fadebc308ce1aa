"""SVP64 LD/ST modes (libre-soc ldst.mdwn, RM "LD/ST immed" / "LD/ST indexed" tables).

Every expectation is worked out by hand in the comment above it from the spec's
addressing rules; memory contents are chosen so that each element's source is
recognisable (value = its own address, or a marked byte)."""
import pytest

from conftest import gnu_as_words, sv_words as words

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

M64 = (1 << 64) - 1
BASE = 0x8000


def sim_for(isa, line, vl, regs=(), mem=(), memw=8):
    sim = Simulator(isa=isa)
    sim.load_words(words(isa, line))
    sim.state.svstate = SV.make(maxvl=max(vl, 1), vl=vl)
    for i, v in dict(regs).items():
        sim.state.gpr[i] = v & M64
    for a, v in dict(mem).items():
        sim.state.mem.write(a, memw, v)
    return sim


def tagged(sim, n=8, count=16):
    """Doublewords at BASE + 8i hold 0x1000 + i (so a load names its address)."""
    for i in range(count):
        sim.state.mem.write(BASE + 8 * i, 8, 0x1000 + i)


def vl_of(r):
    return SV.get(r.state.svstate, "vl")


# --- immediate forms ------------------------------------------------------------

def test_unit_stride_words(svisa):
    # sv.lwz *4, 4(10), r10 = BASE, VL=3: unit stride EA_i = (RA) + D + i*4
    # = BASE+4, BASE+8, BASE+12; the words there are 0x11, 0x22, 0x33.
    sim = sim_for(svisa, "sv.lwz *4, 4(10)", 3, {10: BASE},
                  {BASE + 4: 0x11, BASE + 8: 0x22, BASE + 12: 0x33}, memw=4)
    r = sim.run()
    assert r.stop == "end" and r.gpr[4:7] == [0x11, 0x22, 0x33]
    assert r.gpr[10] == BASE


def test_unit_stride_load_steps_memory_with_the_source_index(svisa):
    # sv.ld/sm=r3 *4, 0(10), r3 = 0b101, VL=3.  Loads: offs = immed + i*op_width
    # with i the source (RA-side) index.  Source steps 0, 2 are enabled; dest
    # steps 0, 1.  r4 <- MEM(BASE+0) = 0x1000, r5 <- MEM(BASE+16) = 0x1002; r6 kept.
    sim = sim_for(svisa, "sv.ld/sm=r3 *4, 0(10)", 3, {3: 0b101, 10: BASE, 6: 77})
    tagged(sim)
    r = sim.run()
    assert r.gpr[4:7] == [0x1000, 0x1002, 77]


def test_unit_stride_store_steps_memory_with_the_dest_index(svisa):
    # sv.std/dm=r3 *4, 0(10), r3 = 0b101, VL=3.  Stores: offs = j*op_width with j
    # the destination (memory-side) index: dest steps 0, 2 take r4, r5:
    # MEM(BASE) = r4, MEM(BASE+16) = r5; MEM(BASE+8) untouched.
    sim = sim_for(svisa, "sv.std/dm=r3 *4, 0(10)", 3,
                  {3: 0b101, 10: BASE, 4: 0xA, 5: 0xB, 6: 0xC}, {BASE + 8: 0x99})
    r = sim.run()
    m = sim.state.mem
    assert [m.read(BASE + 8 * i, 8) for i in range(3)] == [0xA, 0x99, 0xB]
    assert r.stop == "end"


def test_element_stride_zero_immediate_is_a_splat(svisa):
    # sv.ld/els *4, 0(10): EA_i = (RA) + i*0 = BASE for every element (LD-VSPLAT)
    sim = sim_for(svisa, "sv.ld/els *4, 0(10)", 3, {10: BASE})
    tagged(sim)
    assert sim.run().gpr[4:7] == [0x1000] * 3


def test_element_stride_store(svisa):
    # sv.std/els *4, 24(10), VL=3: EA_j = (RA) + j*24 = BASE, BASE+24, BASE+48
    sim = sim_for(svisa, "sv.std/els *4, 24(10)", 3, {10: BASE, 4: 1, 5: 2, 6: 3})
    sim.run()
    m = sim.state.mem
    assert [m.read(BASE + 24 * j, 8) for j in range(3)] == [1, 2, 3]
    assert m.read(BASE + 8, 8) == 0


def test_vector_ra_is_a_vector_of_addresses(svisa):
    # golden sv.lwz *4, 0(*10): EA_i = r(10+i) + 0
    sim = sim_for(svisa, "sv.lwz *4, 0(*10)", 3,
                  {10: BASE + 40, 11: BASE + 8, 12: BASE + 100},
                  {BASE + 40: 0xAAAA, BASE + 8: 0xBBBB, BASE + 100: 0xCCCC}, memw=4)
    assert sim.run().gpr[4:7] == [0xAAAA, 0xBBBB, 0xCCCC]


# --- indexed (X-form) --------------------------------------------------------------

def test_indexed_vector_rb(svisa):
    # sv.ldx *4, 10, *20: EA_i = r10 + r(20+i) = BASE + 16, + 0, + 8
    sim = sim_for(svisa, "sv.ldx *4, 10, *20", 3, {10: BASE, 20: 16, 21: 0, 22: 8})
    tagged(sim)
    assert sim.run().gpr[4:7] == [0x1002, 0x1000, 0x1001]


def test_golden_stdx_vector_ra_and_rb(svisa):
    # golden sv.stdx *4, *8, *12: EA_i = r(8+i) + r(12+i); MEM(EA_i) <- r(4+i)
    sim = sim_for(svisa, "sv.stdx *4, *8, *12", 2,
                  {4: 0x44, 5: 0x55, 8: BASE, 9: BASE + 100, 12: 8, 13: 4})
    sim.run()
    assert sim.state.mem.read(BASE + 8, 8) == 0x44
    assert sim.state.mem.read(BASE + 104, 8) == 0x55


def test_indexed_scalar_scalar_is_a_splat(svisa):
    # sv.ldx *4, 10, 11 with both scalar: every element loads from r10 + r11
    sim = sim_for(svisa, "sv.ldx *4, 10, 11", 3, {10: BASE, 11: 8})
    tagged(sim)
    assert sim.run().gpr[4:7] == [0x1001] * 3


def test_indexed_element_stride(svisa):
    # sv.ldx/els *4, 10, 11, both scalar: register-strided EA_i = r10 + i*r11
    # r11 = 24: BASE, BASE+24, BASE+48 -> tags 0x1000, 0x1003, 0x1006
    sim = sim_for(svisa, "sv.ldx/els *4, 10, 11", 3, {10: BASE, 11: 24})
    tagged(sim)
    assert sim.run().gpr[4:7] == [0x1000, 0x1003, 0x1006]


def test_indexed_element_stride_sea_sign_extends_the_stride(svisa):
    # sv.lbzx/els/sw=16/sea *4, 10, 11 (SVP64Asm: 0x05422011, lbzx 1,10,11):
    # the scalar RB is the stride, read at the 16-bit source width: r11 =
    # 0xFFF8 is -8 with /sea, so EA_i = r10 - 8i: BASE+16, BASE+8, BASE, whose
    # low bytes (tagged doublewords, little-endian) are 0x02, 0x01, 0x00;
    # without /sea the stride is +0xFFF8
    regs = {10: BASE + 16, 11: 0xFFF8}
    sim = sim_for(svisa, "sv.lbzx/els/sw=16/sea *4, 10, 11", 3, regs)
    tagged(sim)
    assert sim.run().gpr[4:7] == [0x02, 0x01, 0x00]
    sim = sim_for(svisa, "sv.lbzx/els/sw=16 *4, 10, 11", 3, regs)
    tagged(sim)
    sim.state.mem.write(BASE + 16 + 0xFFF8, 1, 0x5A)
    sim.state.mem.write(BASE + 16 + 2 * 0xFFF8, 1, 0x5B)
    assert sim.run().gpr[4:7] == [0x02, 0x5A, 0x5B]


def test_sea_sign_extends_rb_from_source_width(svisa):
    # sv.lbzx/sw=16/sea *4, 10, *20: RB elements are 16 bits (packed in r20):
    # element 0 = 0xFFFF, element 1 = 0x0002.  SEA sign-extends: EA = r10 - 1,
    # r10 + 2.  Without /sea, EA_0 = r10 + 0xFFFF.
    mem = {BASE - 1: 0x5A, BASE + 2: 0x3C, BASE + 0xFFFF: 0x77}
    regs = {10: BASE, 20: 0x0002FFFF}
    sim = sim_for(svisa, "sv.lbzx/sw=16/sea *4, 10, *20", 2, regs, mem, memw=1)
    assert sim.run().gpr[4:6] == [0x5A, 0x3C]
    sim = sim_for(svisa, "sv.lbzx/sw=16 *4, 10, *20", 2, regs, mem, memw=1)
    assert sim.run().gpr[4:6] == [0x77, 0x3C]


# --- post-increment and update forms ----------------------------------------------

def test_post_increment_load_and_store(svisa):
    # /pi: MEM at (RA) first, then RA <- (RA) + D.  VL=2, D=24:
    # sv.stwu/pi *4, 24(22), r22=BASE: stores r4 at BASE, r5 at BASE+24; r22 = BASE+48
    # sv.lwzu/pi *8, 24(20), r20=BASE: loads from BASE, BASE+24;        r20 = BASE+48
    sim = sim_for(svisa, "sv.stwu/pi *4, 24(22)", 2, {22: BASE, 4: 0x1234, 5: 0x1235})
    r = sim.run()
    assert sim.state.mem.read(BASE, 4) == 0x1234
    assert sim.state.mem.read(BASE + 24, 4) == 0x1235
    assert r.gpr[22] == BASE + 48
    sim2 = sim_for(svisa, "sv.lwzu/pi *8, 24(20)", 2, {20: BASE})
    sim2.state.mem.write(BASE, 4, 0x1234)
    sim2.state.mem.write(BASE + 24, 4, 0x1235)
    r2 = sim2.run()
    assert r2.gpr[8:10] == [0x1234, 0x1235] and r2.gpr[20] == BASE + 48


def test_post_increment_indexed_update_form(svisa):
    # /pi on an indexed update form (RM `els 0 PI zz SEA`; openpower-isa's
    # pifixedload.mdwn ldupx: EA <- (RA), then RA <- (RA) + (RB)).  VL=3,
    # r10 = BASE, r11 = 0x10, doubleword i at BASE + 8i holding 0x1000 + i:
    #   sv.ldux/pi *4, 10, 11: EAs BASE, BASE+0x10, BASE+0x20 (RA re-read each
    #   element): r4..r6 = 0x1000, 0x1002, 0x1004, r10 = BASE+0x30
    sim = sim_for(svisa, "sv.ldux/pi *4, 10, 11", 3, {10: BASE, 11: 0x10})
    tagged(sim)
    r = sim.run()
    assert r.stop == "end" and r.gpr[4:7] == [0x1000, 0x1002, 0x1004] and r.gpr[10] == BASE + 0x30
    #   sv.ldux/pi *4, *10, 11 (a vector RA, r10..r12 = BASE, BASE+0x20,
    #   BASE+0x40): each element at its own RA, then RA+i += 0x10
    sim = sim_for(svisa, "sv.ldux/pi *4, *10, 14", 3,
                  {10: BASE, 11: BASE + 0x20, 12: BASE + 0x40, 14: 0x10})
    tagged(sim)
    r = sim.run()
    assert r.stop == "end" and r.gpr[4:7] == [0x1000, 0x1004, 0x1008]
    assert r.gpr[10:13] == [BASE + 0x10, BASE + 0x30, BASE + 0x50]


def test_golden_lbzu_pi_dw8(svisa):
    # golden sv.lbzu/pi/dw=8 *4, 1(*10), VL=4: element i loads the byte at
    # r(10+i) (post-increment: before adding D), then r(10+i) += 1.  The bytes go
    # to 8-bit elements packed little-endian in r4: byte i of r4; bytes 4..7 of
    # r4 keep their old value (0xEE..).  Address registers stay 64-bit.
    addrs = [BASE + 3, BASE + 10, BASE + 0x200, BASE + 7]
    vals = [0x11, 0x22, 0x33, 0x44]
    regs = {10 + i: a for i, a in enumerate(addrs)}
    regs[4] = 0xEEEEEEEEEEEEEEEE
    sim = sim_for(svisa, "sv.lbzu/pi/dw=8 *4, 1(*10)", 4, regs,
                  dict(zip(addrs, vals)), memw=1)
    r = sim.run()
    assert r.gpr[4] == 0xEEEEEEEE44332211
    assert r.gpr[10:14] == [a + 1 for a in addrs]


def test_update_form_unit_stride_scalar_ra_compounds(svisa):
    # sv.lbzu *4, 1(10) with scalar RA, VL=3 (ldst.mdwn op_load: srcbase = ireg[RA]
    # read per element, offs = immed + i*op_width, RAupdate <- EA):
    #   i=0: EA = 0x100 + 1 + 0 = 0x101, r10 = 0x101
    #   i=1: EA = 0x101 + 1 + 1 = 0x103, r10 = 0x103
    #   i=2: EA = 0x103 + 1 + 2 = 0x106, r10 = 0x106
    mem = {BASE + k: k for k in range(8)}
    sim = sim_for(svisa, "sv.lbzu *4, 1(10)", 3, {10: BASE}, mem, memw=1)
    r = sim.run()
    assert r.gpr[4:7] == [1, 3, 6] and r.gpr[10] == BASE + 6


def test_trap_inside_update_loop_is_element_precise(svisa):
    # sv.lbzu *8, 1(10), VL=3 (scalar RA, unit stride, compounding as above):
    #   i=0: EA = BASE+1, r10 = BASE+1, r8 = MEM(BASE+1) = 0x61
    #   i=1: EA = BASE+1+1+1 = BASE+3, r10 = BASE+3, r9 = MEM(BASE+3) = 0x62
    #   i=2: RT = r10 = RA: the invalid form traps.  Elements 0, 1 stay done,
    #   SVSTATE steps at 2, PC at the instruction.
    mem = {BASE + 1: 0x61, BASE + 3: 0x62}
    sim = sim_for(svisa, "sv.lbzu *8, 1(10)", 3, {10: BASE}, mem, memw=1)
    r = sim.run()
    assert r.stop == "trap" and r.trap.kind == "illegal" and r.pc == 0x1000
    assert r.gpr[8:11] == [0x61, 0x62, BASE + 3]
    assert SV.get(r.state.svstate, "srcstep") == 2


def test_update_form_vector_ra_read_at_the_source_element(svisa):
    # sv.lbzu/sm=r3 *23, 24(*48), r3 = 0b110 (source elements 1, 2), VL=3,
    # r48..r50 = BASE+0x100, +0x200, +0x300, the byte at each + 24 = 1, 2, 3.
    # ldst.mdwn op_load: the address is `srcbase = ireg[RA+i]` with i the
    # source index, the data goes to RT+j, j the destination index:
    #   (i=1, j=0): EA = r49 + 24, r23 = 2;  (i=2, j=1): EA = r50 + 24, r24 = 3.
    # The update EA goes to RA's destination element (r48, r49), as ISACaller
    # does (run on openpower-isa 3cb597b9 with this program and memory, both
    # profiles here agreeing with it: r23..r25 = 2, 3, 0x77, r48..r50 =
    # 0x10218, 0x10318, 0x10300 over its base 0x10000).  Before, the address
    # was read from RA's destination element: r23 = MEM(r48 + 24).
    regs = {3: 0b110, 48: BASE + 0x100, 49: BASE + 0x200, 50: BASE + 0x300,
            23: 0x77, 24: 0x77, 25: 0x77}
    mem = {BASE + 0x118: 1, BASE + 0x218: 2, BASE + 0x318: 3}
    for trace in (False, True):
        sim = sim_for(svisa, "sv.lbzu/sm=r3 *23, 24(*48)", 3, regs, mem, memw=1)
        r = sim.run(trace=trace) if trace else sim.run()
        assert r.stop == "end"
        assert r.gpr[23:26] == [2, 3, 0x77]
        assert r.gpr[48:51] == [BASE + 0x218, BASE + 0x318, BASE + 0x300]


def test_scalar_load_destination_ends_the_loop(svisa):
    # ldst.mdwn op_load: "if (!RT.isvec) break": sv.lbzu/pi 5, 1(*10), VL=3 loads
    # once (element 0: r5 = MEM(r10), r10 += 1); r11, r12 untouched.
    sim = sim_for(svisa, "sv.lbzu/pi 5, 1(*10)", 3, {10: BASE, 11: 7, 12: 9},
                  {BASE: 0x42}, memw=1)
    r = sim.run()
    assert r.gpr[5] == 0x42 and r.gpr[10:13] == [BASE + 1, 7, 9]


# --- element widths -----------------------------------------------------------------

def test_golden_lwz_w32_packs_two_words_per_register(svisa):
    # golden sv.lwz/w=32 *4, 0(10), VL=3: unit stride 4 bytes; 32-bit elements
    # pack little-endian: r4 = w1:w0, r5 low half = w2, r5 high half unchanged.
    mem = {BASE: 0x11111111, BASE + 4: 0x22222222, BASE + 8: 0x33333333}
    sim = sim_for(svisa, "sv.lwz/w=32 *4, 0(10)", 3, {10: BASE, 5: 0xABCDEF0055555555},
                  mem, memw=4)
    r = sim.run()
    assert r.gpr[4] == 0x2222222211111111 and r.gpr[5] == 0xABCDEF0033333333


def test_load_truncates_to_source_width_then_zero_extends(svisa):
    # sv.lha/sw=16/dw=32 *4, 0(10): lha loads 0x80F0 sign-extended to 64 bits;
    # ldst.mdwn: truncate op width -> source elwidth (16: 0x80F0), then
    # zero-extend to the dest elwidth (32: 0x000080F0).  Without /sw the 64-bit
    # value truncates to 32 bits: 0xFFFF80F0.
    sim = sim_for(svisa, "sv.lha/sw=16/dw=32 *4, 0(10)", 1, {10: BASE}, {BASE: 0x80F0}, memw=2)
    assert sim.run().gpr[4] & 0xFFFFFFFF == 0x000080F0
    sim = sim_for(svisa, "sv.lha/dw=32 *4, 0(10)", 1, {10: BASE}, {BASE: 0x80F0}, memw=2)
    assert sim.run().gpr[4] & 0xFFFFFFFF == 0xFFFF80F0


def test_store_reads_narrow_source_elements(svisa):
    # sv.stw/sw=16 *4, 0(10), VL=3: RS elements are 16 bits packed in r4 (0x1111,
    # 0x2222, 0x3333), zero-extended, stored as words at BASE, +4, +8 (unit stride
    # at the 4-byte operation width).
    sim = sim_for(svisa, "sv.stw/sw=16 *4, 0(10)", 3, {10: BASE, 4: 0x4444333322221111})
    sim.run()
    m = sim.state.mem
    assert [m.read(BASE + 4 * i, 4) for i in range(3)] == [0x1111, 0x2222, 0x3333]


@pytest.mark.parametrize("line", ["sv.lhz/sw=8 *4, 0(10)", "sv.stw/dw=16 *4, 0(10)",
                                  "sv.ld/w=32 *4, 0(10)"])
def test_memory_width_narrower_than_operation_is_undefined(svisa, line):
    # ldst.mdwn: an elwidth on the memory side (sw for LD, dw for ST) smaller than
    # the operation width is UNDEFINED: trapped, nothing written.
    sim = sim_for(svisa, line, 2, {10: BASE, 4: 0x1234, 5: 0x5678})
    r = sim.run()
    assert r.stop == "trap" and "UNDEFINED" in r.trap.reason
    assert r.gpr[4] == 0x1234 and sim.state.mem.read(BASE, 8) == 0


# --- predication and zeroing -------------------------------------------------------

def test_load_dest_zeroing(svisa):
    # sv.ld/dm=r3/zz *4, 0(10), r3 = 0b101, VL=3: dest 1 is masked out and zeroed
    # (its source step 1 is consumed); dest 0 <- MEM(BASE), dest 2 <- MEM(BASE+16)
    sim = sim_for(svisa, "sv.ld/dm=r3/zz *4, 0(10)", 3, {3: 0b101, 10: BASE, 5: 99})
    tagged(sim)
    assert sim.run().gpr[4:7] == [0x1000, 0, 0x1002]


def test_load_source_zeroing_gives_zero_without_access(svisa):
    # sv.ld/sm=r3/zz *4, 0(10), r3 = 0b101: source element 1 masked out with zeroing:
    # the loaded element is 0 (no memory access); r4, r6 load BASE, BASE+16.
    sim = sim_for(svisa, "sv.ld/sm=r3/zz *4, 0(10)", 3, {3: 0b101, 10: BASE, 5: 99})
    tagged(sim)
    assert sim.run().gpr[4:7] == [0x1000, 0, 0x1002]


def test_store_source_zeroing_stores_zero(svisa):
    # sv.std/sm=r3/zz *4, 0(10): source 1 masked out, zeroed: MEM(BASE+8) <- 0
    sim = sim_for(svisa, "sv.std/sm=r3/zz *4, 0(10)", 3,
                  {3: 0b101, 10: BASE, 4: 7, 5: 8, 6: 9}, {BASE + 8: 0x55})
    sim.run()
    m = sim.state.mem
    assert [m.read(BASE + 8 * i, 8) for i in range(3)] == [7, 0, 9]


def test_golden_stw_source_mask_compresses(svisa):
    # golden sv.stw/sm=r3 *4, 0(10), r3 = 0b110, VL=3: sources 1, 2 go to memory
    # elements 0, 1: MEM(BASE) = r5, MEM(BASE+4) = r6; MEM(BASE+8) untouched.
    sim = sim_for(svisa, "sv.stw/sm=r3 *4, 0(10)", 3, {3: 0b110, 10: BASE, 4: 1, 5: 2, 6: 3})
    sim.run()
    m = sim.state.mem
    assert [m.read(BASE + 4 * i, 4) for i in range(3)] == [2, 3, 0]


# --- data-dependent fail-first -----------------------------------------------------

STR = b"hel\x00e\x00"


def _string_sim(isa, line):
    mem = {BASE + i: c for i, c in enumerate(STR)}
    regs = {16 + i: 0xBEEF00 + i for i in range(8)}
    regs[10] = BASE
    return sim_for(isa, line, 8, regs, mem, memw=1)


def test_ldst_ffirst_rc1_exclusive(svisa):
    # sv.lbz/ff=RC1 *16, 1(10), VL=8: loads "el\0" from BASE+1.. ; each element's
    # CR field (CR0+i) is set as if Rc=1 and EQ tested (inv=0): element 2 loads 0,
    # EQ=1 -> VL truncated to 2 (exclusive); r18 keeps its old value; CR2 = eq kept.
    r = _string_sim(svisa, "sv.lbz/ff=RC1 *16, 1(10)").run()
    assert vl_of(r) == 2
    assert r.gpr[16:19] == [ord("e"), ord("l"), 0xBEEF02]
    assert r.state.cr[0:3] == [0b0100, 0b0100, 0b0010]


def test_ldst_ffirst_rc1_inclusive(svisa):
    # /vli: the failing element is kept: VL = 3, r18 = 0
    r = _string_sim(svisa, "sv.lbz/ff=RC1/vli *16, 1(10)").run()
    assert vl_of(r) == 3 and r.gpr[16:20] == [ord("e"), ord("l"), 0, 0xBEEF03]


def test_ldst_ffirst_inverted(svisa):
    # sv.lbz/ff=~RC1 *16, 3(10): bytes at BASE+3.. are 0, 'e', 0: stop at the first
    # non-zero (EQ=0 equals inv=1) -> element 1: VL=1, r16 = 0, r17 kept.
    r = _string_sim(svisa, "sv.lbz/ff=~RC1 *16, 3(10)").run()
    assert vl_of(r) == 1 and r.gpr[16:18] == [0, 0xBEEF01]


def _without_rc1(svisa, line):
    # LD/ST fail-first MODE is "VLi 1 inv els RC1" (RM[19:23]); RC1 is RM[23],
    # the prefix word's least significant bit.  RC1=0 ("Rc=0: ffirst z/nonz")
    # has no assembly spelling: clear the bit of the RC1 line's prefix
    prefix, suffix = words(svisa, line)
    assert prefix & 1
    return [prefix & ~1, suffix]


def test_ldst_ffirst_load_without_rc1(svisa):
    # sv.lbz/ff=RC1 *16, 1(10) with RC1=0: the same z/nonz test (element 2 loads
    # 0: VL=2, r18 kept) but no CR field is recorded
    sim = _string_sim(svisa, "sv.lbz *16, 1(10)")
    sim.load_words(_without_rc1(svisa, "sv.lbz/ff=RC1 *16, 1(10)"))
    r = sim.run()
    assert r.stop == "end", r.trap
    assert vl_of(r) == 2 and r.gpr[16:19] == [ord("e"), ord("l"), 0xBEEF02]
    assert r.state.cr[0:3] == [0, 0, 0]


def test_ldst_ffirst_linked_list_walk(svisa):
    # sv.ld/ff=RC1/vli *17, 8(*16): element i loads MEM(r(16+i) + 8) into r(17+i),
    # which is the next element's address.  r16 = 24; the list: MEM(32) = 48,
    # MEM(56) = 8, MEM(16) = 80, MEM(88) = 0.  r17=48, r18=8, r19=80, r20=0 (EQ at
    # element 3, inclusive): VL = 4.
    mem = {32: 48, 56: 8, 16: 80, 88: 0}
    regs = {16 + i: 0xBEEF00 + i for i in range(9)}
    regs[16] = 24
    r = sim_for(svisa, "sv.ld/ff=RC1/vli *17, 8(*16)", 8, regs, mem).run()
    assert vl_of(r) == 4 and r.gpr[17:22] == [48, 8, 80, 0, 0xBEEF05]


# Data-dependent fail-first on stores (ldst.mdwn, "Load/Store Data-Dependent
# Fail-First"): the data to be stored is tested *before* the store (CR0 +
# element as if Rc=1, here the RS element at ELWIDTH_SRC); VLi=0 and failing:
# no store, no RA update, VL = the elements that passed; VLi=1: the store (and
# RA update) happens, then VL = the elements tested.  ISACaller (3cb597b9)
# raises a TypeError on sv.std/ff=RC1, so there is nothing to compare with.
STORE_REGS = {10: BASE, 4: 5, 5: 6, 6: 0, 7: 8}
GT, EQ = 0b0100, 0b0010


def _marked(sim):
    for i in range(5):
        sim.state.mem.write(BASE + 8 * i, 8, 0xEE)


@pytest.mark.parametrize("line,vl,stored,crs", [
    # RC1 (inv=0) stops at the first zero: r6 = 0 is element 2; 5, 6 stored at
    # BASE, BASE+8; BASE+16 keeps its marker; VL=2; CR0..CR2 = GT, GT, EQ
    ("sv.std/ff=RC1 *4, 0(10)", 2, [5, 6, 0xEE, 0xEE], [GT, GT, EQ, 0]),
    # VLi=1: the failing element is stored too (0 at BASE+16), VL=3
    ("sv.std/ff=RC1/vli *4, 0(10)", 3, [5, 6, 0, 0xEE], [GT, GT, EQ, 0]),
    # ~RC1 (inv=1) stops at the first non-zero: element 0 (5): nothing stored,
    # VL=0, CR0 = GT
    ("sv.std/ff=~RC1 *4, 0(10)", 0, [0xEE, 0xEE, 0xEE, 0xEE], [GT, 0, 0, 0]),
])
def test_ldst_ffirst_store(svisa, line, vl, stored, crs):
    sim = sim_for(svisa, line, 4, STORE_REGS)
    _marked(sim)
    r = sim.run()
    assert r.stop == "end", r.trap
    assert vl_of(r) == vl
    assert [sim.state.mem.read(BASE + 8 * i, 8) for i in range(4)] == stored
    assert r.state.cr[0:4] == crs


def test_ldst_ffirst_store_without_rc1(svisa):
    # RC1=0: the same test as RC1 (stop at the zero element 2: 5, 6 stored,
    # VL=2), no CR field recorded
    sim = sim_for(svisa, "sv.std *4, 0(10)", 4, STORE_REGS)
    sim.load_words(_without_rc1(svisa, "sv.std/ff=RC1 *4, 0(10)"))
    _marked(sim)
    r = sim.run()
    assert r.stop == "end", r.trap
    assert vl_of(r) == 2 and r.state.cr[0:4] == [0, 0, 0, 0]
    assert [sim.state.mem.read(BASE + 8 * i, 8) for i in range(4)] == [5, 6, 0xEE, 0xEE]


def test_ldst_ffirst_store_update_form(svisa):
    # sv.stdu/ff=RC1 *4, 8(10), VL=4: update form in unit-stride mode (RA gets
    # each element's full EA): e0 stores 5 at BASE+8, RA = BASE+8; e1 stores 6
    # at RA+8+8 = BASE+24, RA = BASE+24; e2 (r6 = 0) fails: no store and RA
    # keeps BASE+24 (ldst.mdwn: "RA does not receive a copy of the EA"), VL=2
    sim = sim_for(svisa, "sv.stdu/ff=RC1 *4, 8(10)", 4, STORE_REGS)
    _marked(sim)
    r = sim.run()
    assert r.stop == "end" and vl_of(r) == 2
    assert r.gpr[10] == BASE + 24
    assert [sim.state.mem.read(BASE + 8 * i, 8) for i in range(5)] == \
        [0xEE, 5, 0xEE, 6, 0xEE]


def test_ldst_ffirst_store_tests_the_source_element_width(svisa):
    # sv.stw/w=32/ff=RC1 *4, 0(10): RS elements are 32 bits (ELWIDTH_SRC), so
    # r4 = 0x0000000500000000 holds element 0 = 0 (low word) and element 1 = 5:
    # element 0 tests zero and fails at once: VL=0, CR0 = EQ, nothing stored
    sim = sim_for(svisa, "sv.stw/w=32/ff=RC1 *4, 0(10)", 2, {10: BASE, 4: 5 << 32})
    _marked(sim)
    r = sim.run()
    assert r.stop == "end" and vl_of(r) == 0 and r.state.cr[0] == EQ
    assert sim.state.mem.read(BASE, 8) == 0xEE


# SUBVL=2, VLi=0: VL counts groups; a failing sub-element discards its whole
# group (docs/svp64.md "Fail-first with SUBVL>1"), so the group's earlier
# stores (and RA updates) are taken back; the CR fields tested stay.
# r4..r7 = 5, 6, 7, 0: group 0 (5, 6) stored at BASE, BASE+8; group 1 stores
# 7 at BASE+16, then 0 fails: BASE+16 gets its marker back; VL=1; CR0..CR3 =
# GT GT GT EQ.  VLi=1: the failing sub-element is stored too, VL=2.
# stdu (unit-stride update: RA gets each full EA): 5 at BASE+8 (RA BASE+8),
# 6 at BASE+24 (RA BASE+24), 7 at BASE+48 (RA BASE+48), then 0 fails: BASE+48
# back to 0 (unmarked), RA back to BASE+24.
SUBVL_REGS = {10: BASE, 4: 5, 5: 6, 6: 7, 7: 0}


@pytest.mark.parametrize("mode", ["plain", "trace", "interrupt"])
@pytest.mark.parametrize("line,vl,stored,ra", [
    ("sv.std/vec2/ff=RC1 *4, 0(10)", 1, [5, 6, 0xEE, 0xEE, 0xEE, 0, 0], BASE),
    ("sv.std/vec2/ff=RC1/vli *4, 0(10)", 2, [5, 6, 7, 0, 0xEE, 0, 0], BASE),
    ("sv.stdu/vec2/ff=RC1 *4, 8(10)", 1, [0xEE, 5, 0xEE, 6, 0xEE, 0, 0], BASE + 24),
])
def test_ldst_ffirst_store_subvl(svisa, mode, line, vl, stored, ra):
    for k in ((1, 2, 3) if mode == "interrupt" else (None,)):
        sim = sim_for(svisa, line, 2, SUBVL_REGS)
        _marked(sim)
        sim.interrupt_after = k
        r = sim.run(trace=mode == "trace")
        while r.stop == "interrupt":
            r = sim.run()
        assert r.stop == "end", r.trap
        assert vl_of(r) == vl
        assert [sim.state.mem.read(BASE + 8 * i, 8) for i in range(7)] == stored
        assert r.gpr[10] == ra
        assert r.state.cr[0:4] == [GT, GT, GT, EQ]


@pytest.mark.parametrize("mode", ["plain", "trace", "interrupt", "forget"])
def test_ldst_ffirst_store_conditional_group_takes_back_the_reservation(svisa, mode):
    # lwarx 20, 0, 10 reserves the word at BASE (= 0x77).  sv.stwcx./vec2/ff=RC1
    # *8, 0, 10, VL=1, SUBVL=2: sub-element 0 tests r8 = 0x8888 (not zero: goes
    # on) and its store-conditional succeeds (CR0 = EQ, BASE = 0x8888), which
    # uses up the reservation; sub-element 1 tests r9 = 0 and fails (ff=RC1
    # fails on zero, CR1 = EQ), so the group is discarded as in
    # test_ldst_ffirst_store_subvl: BASE back to 0x77, VL = 0, and the
    # reservation taken back with the store that used it.  The scalar
    # stwcx. 8, 0, 10 after it therefore succeeds: BASE = 0x8888, CR0 = EQ.
    # "forget": the interrupted group resumes on a freshly decoded instruction
    # (sim.invalidate(), as a store into code or block translation does): the
    # group's snapshot is machine state, not the decoded instruction's
    text = "lwarx 20, 0, 10\nsv.stwcx./vec2/ff=RC1 *8, 0, 10\nstwcx. 8, 0, 10\n"
    for k in ((1,) if mode in ("interrupt", "forget") else (None,)):
        sim = Simulator(isa=svisa)
        sim.load_asm(text)
        sim.state.svstate = SV.make(maxvl=1, vl=1)
        sim.state.gpr[8], sim.state.gpr[9], sim.state.gpr[10] = 0x8888, 0, BASE
        sim.state.mem.write(BASE, 4, 0x77)
        sim.interrupt_after = k
        r = sim.run(trace=mode == "trace")
        while r.stop == "interrupt":
            if mode == "forget":
                sim.invalidate()
            r = sim.run()
        assert r.stop == "end", r.trap
        assert vl_of(r) == 0 and r.state.cr[1] == EQ
        assert (sim.state.mem.read(BASE, 4), r.state.cr[0]) == (0x8888, EQ)


# --- assembly ------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "sv.lbz/ff=RC1/vli *16, 1(10)", "sv.ld/ff=~RC1 *4, 16(2)", "sv.lwzu/pi *8, 24(20)",
    "sv.lbzx/sw=16/sea *4, 10, *20", "sv.ld/lf *4, 8(10)", "sv.ldx/els *4, 10, 11",
    "sv.ld/ff=RC1/vli/els *4, 8(10)"])
def test_ldst_modifiers_roundtrip(svisa, text):
    w = words(svisa, text)
    dis = svisa.sv_disassemble(*w)
    assert words(svisa, dis) == w
    assert set(dis.split(" ")[0].split("/")[1:]) == set(text.split(" ")[0].split("/")[1:])


# libre-soc's SVP64Asm (openpower.insndb.asm, run in the ISACaller venv) output for
# each line: the prefix word and the suffix as scalar assembly text (vector registers
# appear as their EXTRA3-encoded field, *16 -> 4).  sv.ld/ff=RC1/vli/els is absent:
# SVP64Asm fails on it (AttributeError 'els').
SVP64ASM_LDST = [
    ("sv.lbz/ff=RC1/vli *16, 1(10)", 0x05402019, "lbz 4,1(10)"),
    ("sv.ld/ff=~RC1 *4, 16(2)", 0x0540200D, "ld 1,16(2)"),
    ("sv.lwzu/pi *8, 24(20)", 0x05402004, ".long 0x84540018"),
    ("sv.lbzx/sw=16/sea *4, 10, *20", 0x05422201, "lbzx 1,10,5"),
    ("sv.ld/lf *4, 8(10)", 0x05402001, "ld 1,8(10)"),
    ("sv.ldx/els *4, 10, 11", 0x05402010, "ldx 1,10,11"),
]


def test_ldst_modifiers_match_svp64asm(svisa, tmp_path):
    # the suffix text is assembled by GNU as: two oracles, neither of them ours
    suffixes = gnu_as_words(tmp_path, [t for _, _, t in SVP64ASM_LDST])
    for (text, prefix, _), suffix in zip(SVP64ASM_LDST, suffixes):
        assert words(svisa, text) == [prefix, suffix], text


def test_ldst_ff_mode_bits_by_hand(svisa):
    # LD/ST fail-first MODE (RM[19:23]) = VLi 1 inv els RC1:
    # /ff=RC1/vli -> 0b11001; /ff=~RC1 -> 0b01101; /pi -> 0b00100; /lf -> 0b00001
    for text, mode in (("sv.lbz/ff=RC1/vli *16, 1(10)", 0b11001),
                       ("sv.lbz/ff=~RC1 *16, 1(10)", 0b01101),
                       ("sv.lbzu/pi *16, 1(10)", 0b00100),
                       ("sv.lbz/lf *16, 1(10)", 0b00001)):
        assert words(svisa, text)[0] & 0x1F == mode, text


@pytest.mark.parametrize("line", ["sv.lbz/pi *4, 1(10)", "sv.ldx/pi *4, 10, 11"])
def test_pi_without_update_form_traps_cleanly(svisa, line):
    # /pi is defined for update forms only (RA <- (RA)+D or (RA)+(RB) afterwards)
    sim = sim_for(svisa, line, 2, {10: BASE, 4: 5})
    r = sim.run()
    assert r.stop == "trap" and r.trap.kind == "illegal" and "/pi" in r.trap.reason
    assert r.gpr[4] == 5 and r.gpr[10] == BASE


def test_bad_ldst_modifiers_are_assembly_errors(svisa):
    from isa_ext.errors import IsaExtError
    for line in ("sv.ld/ff=eq *4, 0(10)", "sv.ld/ff=RC1/zz *4, 0(10)", "sv.add/sea *1, *2, *3"):
        with pytest.raises(IsaExtError):
            words(svisa, line)
