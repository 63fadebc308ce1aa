"""libre-soc's draft integer instructions (openpower-isa 3cb597b9 isa/av.mdwn
and isa/bitmanip.mdwn): avgadd, absds, absdu, absdacu, absdacs, cprop, sadd,
saddw, sadduw, ternlogi, binlog.

Oracles: libre-soc's SVP64Asm for the encodings (the words below, checked live
when an ISACaller is built), ISACaller for the results on random operands
(live), and hand-derived cases (each comment gives the derivation).
"""
import random

import pytest

from isacaller_compare import assert_same_registers, run_on_both
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from svp64asm_golden import svp64asm_word_tests

M64 = (1 << 64) - 1

# libre-soc's SVP64Asm (openpower-isa 3cb597b9, /work/isacaller), each line
# assembled on its own
SVP64ASM_WORDS = [
    ("avgadd 3,4,5", [0x58642e9c]), ("avgadd. 3,4,5", [0x58642e9d]),
    ("absds 3,4,5", [0x58642cec]), ("absds. 3,4,5", [0x58642ced]),
    ("absdu 3,4,5", [0x58642dec]), ("absdu. 3,4,5", [0x58642ded]),
    ("absdacu 3,4,5", [0x58642fec]), ("absdacu. 3,4,5", [0x58642fed]),
    ("absdacs 3,4,5", [0x58642bec]), ("absdacs. 3,4,5", [0x58642bed]),
    ("cprop 3,4,5", [0x58642b1c]), ("cprop. 3,4,5", [0x58642b1d]),
    ("sadd 3,4,5,1", [0x58642adc]), ("sadd. 3,4,5,2", [0x58642cdd]),
    ("saddw 3,4,5,3", [0x58642f5c]), ("sadduw 3,4,5,0", [0x586429dc]),
    ("sadd 31,0,0,3", [0x5be006dc]),
    ("ternlogi 3,4,5,0x5a", [0x14642ad0]), ("ternlogi. 3,4,5,0xff", [0x14642ff9]),
    ("binlog 3,4,5,6,1", [0x586429a1]),
    ("sv.avgadd *8,*16,*24", [0x05402480, 0x5844369c]),
    ("sv.absdacu. *8,*16,*24", [0x05402a00, 0x584437ed]),
    ("sv.absds 3,*16,4", [0x05400400, 0x586424ec]),
    ("sv.ternlogi *8,*16,*24,0x80", [0x05402a00, 0x14443400]),
    ("sv.sadd *8,*16,*24,2", [0x05402480, 0x584434dc]),
    ("sv.absdacs *8,*16,*24", [0x05402a00, 0x584433ec]),
    ("sv.cprop. *8,*16,4", [0x05402400, 0x5844231d]),
    ("sv.binlog *8,*16,*24,*32,0", [0x05402a80, 0x58443201]),
    ("sv.binlog 8,*16,24,*32,1", [0x05400880, 0x5904c221]),
    ("sv.sadduw/m=r3 *8,*16,*24,3", [0x05602480, 0x584437dc]),
    ("sv.saddw. *8,*16,*24,1", [0x05402480, 0x5844335d]),
    ("sv.ternlogi. *8,*16,5,0x12", [0x05402800, 0x14442891]),
    ("bmask 3,4,5,6,1", [0x586429b1]), ("bmask 3,4,0,31,0", [0x586407d1]),
    ("bmask 31,30,29,17,1", [0x5bfeec71]), ("sv.bmask *8,*16,*24,10,0", [0x05402480, 0x58443291]),
]


(test_assembles_as_svp64asm, test_disassembles_to_the_same_words,
 test_svp64asm_words_live) = svp64asm_word_tests(SVP64ASM_WORDS)


def run(isa, lines, gpr, steps=10):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for n, v in gpr.items():
        sim.state.gpr[n] = v
    res = sim.run(max_steps=steps)
    assert res.stop == "end", res.trap
    return sim.state


@pytest.mark.parametrize("line, ra, rb, rt_in, want", [
    # avgadd: (RA + RB + 1) / 2 without losing the carry: (2^64-1 + 2^64-1 + 1)/2
    ("avgadd 3,4,5", M64, M64, 0, M64),
    ("avgadd 3,4,5", 1, 2, 0, 2),          # (1 + 2 + 1) / 2
    ("avgadd 3,4,5", 0, 0, 0, 0),
    # absds: signed: |-1 - 1| = 2; absdu: unsigned: 2^64-1 - 1
    ("absds 3,4,5", M64, 1, 0, 2),
    ("absdu 3,4,5", M64, 1, 0, M64 - 1),
    ("absdu 3,4,5", 3, 10, 0, 7),
    # absdacu / absdacs add the difference to RT (modulo 2^64)
    ("absdacu 3,4,5", 3, 10, 100, 107),
    ("absdacs 3,4,5", M64, 1, M64, 1),     # -1 + |(-1) - 1| = 1
    # cprop: P=0b0111, G=0b0001: (P|G)+G = 0b1000, XOR P = 0b1111 (a carry
    # generated at bit 0 propagates through bits 1, 2 into bit 3)
    ("cprop 3,4,5", 0b0111, 0b0001, 0, 0b1111),
    # sadd: RA + (RB << SH+1)
    ("sadd 3,4,5,0", 1, 3, 0, 7),
    ("sadd 3,4,5,3", 1, 3, 0, 49),
    ("sadd 3,4,5,0", 0, 1 << 63, 0, 0),    # shifted out
    # saddw sign-extends RB's low word, sadduw zero-extends it
    ("saddw 3,4,5,0", 0, 0xFFFFFFFF, 0, M64 - 1),
    ("sadduw 3,4,5,0", 0, 0xFFFFFFFF, 0, 0x1FFFFFFFE),
])
def test_hand_derived(isa, line, ra, rb, rt_in, want):
    assert run(isa, [line], {3: rt_in, 4: ra, 5: rb}).gpr[3] == want


def test_ternlogi_index_is_rt_ra_rb_from_tli_msb(isa):
    # TLI = 0b10000000 selects index 0 (its MSB): bits where RT, RA and RB are
    # all 0.  RT=0b1100, RA=0b1010, RB=0b1001 (low four bits; the other 60
    # bits are 0 in all three, index 0, so set): bit 63 (RT 0, RA 0, RB 1) is
    # index 1 -> 0; bit 62 (0,1,0) index 2 -> 0; bit 61 (1,0,0) -> 0;
    # bit 60 (1,1,1) -> 0
    s = run(isa, ["ternlogi 3,4,5,0x80"], {3: 0b1100, 4: 0b1010, 5: 0b1001})
    assert s.gpr[3] == M64 & ~0xF
    # majority of the three inputs: indices 3, 5, 6, 7 give 1, so TLI read
    # MSB-first (index 0 first) is 0,0,0,1,0,1,1,1 = 0x17
    s = run(isa, ["ternlogi 3,4,5,0x17"], {3: 0b1100, 4: 0b1010, 5: 0b1001})
    assert s.gpr[3] == 0b1000  # majority per bit: 1000 (bits 60..63)


def test_binlog_lookup(isa):
    # lut RC[60:63] = 0b0110 read MSB-first by index RA[i]||RB[i]: 0->0, 1->1,
    # 2->1, 3->0: XOR.  nh=1 takes RC[56:59] = 0b1000: index 0 only -> NOR
    s = run(isa, ["binlog 3,4,5,6,0", "binlog 7,4,5,6,1"],
            {4: 0b1100, 5: 0b1010, 6: 0x86})
    assert s.gpr[3] == 0b0110
    assert s.gpr[7] == M64 & ~0b1110


@pytest.mark.parametrize("bm, L, rb, want", [
    # RA = 0b01011000.  bm = 0b10100: bm[0:1] = 2 XOR, bm[2:3] = 2 a2 = RA+1,
    # bm[4] = 0 a1 = ~RA; all bits (RB field 0): ~RA ^ (RA+1)
    (0b10100, 0, 0, ~0b01011000 & M64 ^ 0b01011001),
    # bm = 0b01010: AND, a2 = RA-1, a1 = ~RA: the bits below RA's lowest set
    # bit, 0b00000111
    (0b01010, 0, 0, 0b00000111),
    # bm = 0b01000: AND, a2 = -RA, a1 = ~RA: ~RA & -RA = the bits above RA's
    # lowest set bit that RA does not have: ...1111 1010 0000
    (0b01000, 0, 0, M64 & ~0b01011111),
    # bm = 0b00011 (OR, a2 = RA-1, a1 = RA): RA | RA-1 fills the trailing
    # zeros: 0b01011111
    (0b00011, 0, 0, 0b01011111),
    # the same, masked to the low nibble by RB = r6 = 0xF: (RA & 0xF) = 0b1000,
    # OR (0b1000 - 1) = 0b1111; L=1 restores RA's bits outside the mask
    (0b00011, 0, 6, 0b00001111),
    (0b00011, 1, 6, 0b01011111),
    # bm[0:1] = 3 is undefined: 0, as libre-soc's page gives
    (0b11000, 0, 0, 0),
])
def test_bmask_hand_derived(isa, bm, L, rb, want):
    s = run(isa, [f"bmask 3,4,{rb},{bm},{L}"], {4: 0b01011000, 6: 0xF})
    assert s.gpr[3] == want


def test_record_form_cr0(isa):
    # Rc=1 records RT against 0 with SO: avgadd. of 0 and 0 is 0 (EQ)
    s = run(isa, ["avgadd. 3,4,5"], {4: 0, 5: 0})
    assert s.cr[0] == 0b0010
    s = run(isa, ["absds. 3,4,5"], {4: 0, 5: 1 << 63})  # |0 - (-2^63)| wraps to 2^63
    assert s.cr[0] == 0b1000


PROGRAMS = [
    ["avgadd. 3,4,5"], ["absds. 3,4,5"], ["absdu. 3,4,5"], ["absdacu. 3,4,5"],
    ["absdacs. 3,4,5"], ["cprop. 3,4,5"], ["sadd. 3,4,5,1"], ["saddw. 3,4,5,2"],
    ["sadduw. 3,4,5,3"], ["ternlogi. 3,4,5,0x5a"], ["ternlogi 3,4,5,0xe8"],
    ["binlog 3,4,5,6,0"], ["binlog 3,4,5,6,1"],
    ["bmask 3,4,5,6,1"], ["bmask 3,4,0,31,0"], ["bmask 3,4,5,16,0"], ["bmask 3,4,5,13,1"],
    ["bmask 3,4,5,26,0"], ["bmask 3,4,0,8,1"], ["bmask 3,4,5,29,1"],
    ["setvl 0,0,3,0,1,1", "sv.avgadd *8,*16,*24"],
    ["setvl 0,0,3,0,1,1", "sv.absdacu *8,*16,*24"],
    ["setvl 0,0,3,0,1,1", "sv.ternlogi *8,*16,*24,0x96"],
    ["setvl 0,0,3,0,1,1", "sv.binlog *8,*16,*24,*32,0"],
    ["setvl 0,0,3,0,1,1", "sv.sadd *8,*16,*24,2"],
]


def test_against_isacaller_live(isacaller):
    isa = ISA(profile="openpower-isa")
    rng = random.Random(20261124)
    programs = []
    for lines in PROGRAMS:
        for _ in range(3):
            gpr = [rng.getrandbits(64) >> rng.choice([0, 0, 1, 33]) for _ in range(128)]
            gpr[0] = 0
            programs.append((lines, gpr, None, 0))
    for lines, res, t in run_on_both(isacaller.root, isa, programs):
        assert_same_registers(lines, res, t)


@pytest.mark.parametrize("mnemonic", ["absds", "absdacs", "saddw", "sadduw"])
def test_xlen_dependent_rows_trap_under_element_width(isa, mnemonic):
    # signed comparisons at XLEN / XLEN/2-bit words: the pages run at 64 bits,
    # so an element-width override traps rather than compare at the wrong width
    ops = "*8,*16,*24" + (",1" if mnemonic.startswith("sadd") else "")
    sim = Simulator(isa=isa)
    sim.load_asm(f"setvl 0,0,2,0,1,1\nsv.{mnemonic}/w=8 {ops}\n")
    res = sim.run(max_steps=10)
    assert res.stop == "trap" and "element-width overrides" in res.trap.reason
    assert sim.state.gpr[8] == 0


def test_element_width_average(isa):
    # avgadd does not depend on XLEN: byte elements 0xff and 0xfe average to
    # 0xff (0x1fe / 2, the carry kept), 0 and 0 to 0
    s = run(isa, ["setvl 0,0,2,0,1,1", "sv.avgadd/w=8 *8,*16,*24"],
            {16: 0xFF, 24: 0xFE, 8: 0})
    assert s.gpr[8] == 0xFF
