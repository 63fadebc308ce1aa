"""Rows that record CR0 without an Rc bit (andi., andis., addic., pcdec.:
D-form words, the ``rc`` column set, no Rc field) under SVP64.

The decoder used to treat them as Rc=0 (the record looked for an Rc field):
no Rc=1 MODE table, and the register-file check skipped their per-element CR
field, so a long vector wrote CR fields past CR127 -- a Python IndexError out
of ``Simulator.run`` (issue 36: random SVP64 words after a ``setvl``).  ISA
Book I 3.3.9 records CR0 for andi./andis./addic. always; libre-soc's decoder
(RC_ONE in its CSV) reads them as Rc=1 for the SVP64 MODE.
"""
import pytest

from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

ISA_ALL = ISA()
M64 = (1 << 64) - 1

# issue 36's reproducer: setvl r0,r0,50,0,1,1 (VL=MAXVL=50), then an SVP64
# prefix with RM 0x69ef41 (SUBVL=4, twin predicate, dw=16 sw=32, EXTRA putting
# the vector CR result at CR4) before the D-form suffix.  200 sub-elements of
# CR fields from CR4 end in CR203: past CR127, an illegal instruction
# (remap.mdwn: "Over-running the register file ... illegal instruction
# exception"), nothing written.  (addic.'s operands in the same bits run RA
# past r127 first: its case is the assembled one below.)
SETVL, PREFIX = 0x580063B6, 0x05E9EF41
SUFFIXES = {"andi.": 0x70913F93, "andis.": 0x74913F93}


def fill(sim):
    s = sim.state
    for i in range(128):
        s.gpr[i] = (0x9E3779B97F4A7C15 * (i + 1)) & M64
        s.cr[i] = i & 15
    return list(s.gpr), list(s.cr)


def assert_cr_past_end(sim, res, name):
    assert res.stop == "trap" and res.trap.kind == "illegal", res.trap
    assert res.trap.pc == 0x1004
    assert res.trap.reason.startswith(f"sv.{name}: CR result field vector CR4 at cr4 runs "
                                      "past cr127"), res.trap.reason


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("name", sorted(SUFFIXES))
@pytest.mark.parametrize("trace", [False, True])
def test_issue_words_trap_past_cr127(name, strict, trace):
    sim = Simulator(ISA_ALL, strict=strict)
    sim.load_words([SETVL, PREFIX, SUFFIXES[name]])
    gpr, cr = fill(sim)
    res = sim.run(max_steps=10, trace=trace)
    assert_cr_past_end(sim, res, name)
    assert list(sim.state.gpr) == gpr and list(sim.state.cr) == cr


@pytest.mark.parametrize("name", ["andi.", "andis.", "addic."])
@pytest.mark.parametrize("trace", [False, True])
def test_cr_field_vector_past_cr127_traps(name, trace):
    # VL=127 bytes: RT r9..r24 and RA r40..r55 fit, the CR fields do not: *9
    # is EXTRA3 vector spec 0b101 (9 = 2 * 4 + 1), so CR0 extends to CR4
    # (svp64.mdwn: vector CR field = BF << 3 | spec[1:2] << 2), and 127
    # elements from CR4 end in CR130
    sim = Simulator(ISA_ALL, strict=True)
    sim.load_asm(f"setvl 0,0,127,0,1,1\nsv.{name}/w=8 *9, *40, 5\n")
    gpr, cr = fill(sim)
    res = sim.run(max_steps=10, trace=trace)
    assert_cr_past_end(sim, res, name)
    assert "(127 elements end in cr130)" in res.trap.reason
    assert list(sim.state.gpr) == gpr and list(sim.state.cr) == cr


# the CI fuzz's generator (tools/fuzz_campaign.py --pairs 200000 --seed 1, with
# the fix reverted) found these three in 140,000 pairs: (prefix, suffix),
# SVSTATE, strict.  VL*SUBVL CR fields from the slot's base pass CR127: VL is
# SVSTATE bits 7:13 (0x22 = 34, 0x55 = 85, 0x28 = 40), SUBVL-1 is RM bits 8:9,
# prefix bits 16:17 (0b11, 0b10, 0b11): 34*4 = 136, 85*3 = 255, 40*4 = 160.
FUZZ_FOUND = [
    ((0x057CF0D5, 0x760F4FB9), 0xFC88000000000000, True, "sv.andis.", 8, 136),
    ((0x05DAAF37, 0x7408B988), 0xAB54000000000000, True, "sv.andis.", 4, 255),
    ((0x077FE194, 0x732492CB), 0x76A0000000000000, False, "sv.andi.", 0, 160),
]


@pytest.mark.parametrize("words,svstate,strict,name,base,n", FUZZ_FOUND)
def test_fuzz_found_words_trap(words, svstate, strict, name, base, n):
    sim = Simulator(ISA_ALL, strict=strict)
    sim.load_words(list(words))
    sim.state.svstate = svstate
    gpr, cr = fill(sim)
    res = sim.run(max_steps=1)
    assert res.stop == "trap" and res.trap.kind == "illegal", res.trap
    assert res.trap.reason.startswith(f"{name}: CR result field vector CR{base} at cr{base} "
                                      f"runs past cr127 ({n} elements")
    assert list(sim.state.gpr) == gpr and list(sim.state.cr) == cr


def run(lines, gpr, svstate_vl=None):
    sim = Simulator(ISA_ALL)
    sim.load_words(list(assemble("\n".join(lines) + "\n", isa=ISA_ALL).words))
    for r, v in gpr.items():
        sim.state.gpr[r] = v & M64
    res = sim.run(max_steps=20)
    assert res.stop == "end", res.trap
    return sim.state


def test_andi_records_one_cr_field_per_element():
    # VL=3, andi. with UI=5 on r12..r14 = 5, 2, -1: results 5, 0, 5 (Book I
    # 3.3.13 andi.: RA <- (RS) & (48)0 || UI); CR0 per element (normal.mdwn:
    # the vector result's CR field steps with it; CR0's EXTRA3 vector spec
    # 0b100 puts it at CR0): GT, EQ, GT with SO = XER.SO = 0
    st = run(["setvl 0,0,3,0,1,1", "sv.andi. *8, *12, 5"], {12: 5, 13: 2, 14: -1})
    assert st.gpr[8:11] == [5, 0, 5]
    assert st.cr[0:3] == [0b0100, 0b0010, 0b0100]
    assert st.cr[3] == 0


# The same operation spelled with an Rc bit: and. with RB = UI, addc. with RB =
# SI (a signed immediate, so RB holds its sign extension).  An SVP64 mode is a
# property of the prefix, not of how the suffix says Rc=1, so each mode must
# give the same registers, CR and XER (before the fix the Rc-less rows took
# the Rc=0 MODE table: ff=eq meant "VLi 1 inv zz RC1" there).
MODES = ["", "/ff=eq", "/ff=ne", "/ff=lt", "/ff=gt", "/m=r3", "/m=~r3", "/vec2",
         "/dw=16", "/sw=8", "/mr", "/m=lt/dz", "/ff=so", "/ff=ns"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("imm_row, reg_row, imm", [
    ("andi.", "and.", 0x00F0), ("andis.", "and.", 0x00F0), ("addic.", "addc.", -7),
    ("addic.", "addc.", 7)])
def test_rc_always_rows_take_the_rc1_modes(mode, imm_row, reg_row, imm):
    if mode == "/sw=8" and imm < 0:
        return  # RB is read at 8 bits, SI is not: the positive case covers sw=8
    gpr = {3: 0b1011, 12: 0xF0, 13: 0x0F, 14: -1, 15: 0x100, 16: 7, 17: 0x70, 18: 6,
           19: 0}
    rb = imm << 16 if imm_row == "andis." else imm
    vl = ["setvl 0,0,8,0,1,1"]
    if mode == "/mr":
        a = run(vl + [f"sv.{imm_row}{mode} 8, *12, {imm}"], gpr)
        b = run(vl + [f"sv.{reg_row}{mode} 8, *12, 9"], {**gpr, 9: rb})
    else:
        a = run(vl + [f"sv.{imm_row}{mode} *20, *12, {imm}"], gpr)
        b = run(vl + [f"sv.{reg_row}{mode} *20, *12, 9"], {**gpr, 9: rb})
    b.gpr[9] = a.gpr[9]
    assert a.gpr == b.gpr
    assert a.cr == b.cr
    assert (a.xer, a.svstate) == (b.xer, b.svstate)


@pytest.mark.parametrize("line", ["sv.andi./ff=RC1 *8, *12, 5", "sv.and./ff=~RC1 *8, *12, 3",
                                  "sv.addic./ff=RC1/zz *8, *12, 5"])
def test_rc1_fail_first_is_refused_on_rc1_rows(line):
    # normal.mdwn's MODE table: "VLi 1 inv zz RC1" is the Rc=0 row; with Rc=1
    # the same bits are "VLi 1 inv CR-bit" (RC1 set reads as CR-bit bit 0:
    # ff=RC1 would assemble ff=gt), so the assembler says so
    from isa_ext.errors import AsmError
    with pytest.raises(AsmError, match="ff=RC1 is fail-first for Rc=0 instructions"):
        assemble(line + "\n", isa=ISA_ALL)


def test_rc1_fail_first_stays_on_rc0_rows():
    # and (Rc=0) keeps its RC1 spelling, and the disassembler prints it back
    data = assemble("sv.and/ff=RC1 *8, *12, 3\n", isa=ISA_ALL).data
    (_a, _w, text), = Disassembler(ISA_ALL).lines(data)
    assert text.startswith("sv.and/ff=RC1 ")
