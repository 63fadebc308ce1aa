"""libre-soc's draft FPR<->GPR moves (mffpr mffprs mtfpr mtfprs), FP immediates
(fmvis fishmv) and CR-bit logic (crternlogi crbinlog): openpower-isa 3cb597b9
isa/fpmove.mdwn, isa/av.mdwn, isa/bitmanip.mdwn.

Oracles: libre-soc's SVP64Asm for the encodings (the words below, checked live
when an ISACaller is built), ISACaller for results on random operands (live),
and hand-derived cases (each comment gives the derivation).
"""
import random

import pytest

from isacaller_compare import assert_same_registers, run_on_both
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from svp64asm_golden import svp64asm_word_tests

M64 = (1 << 64) - 1

SVP64ASM_WORDS = [
    ("mffpr 3,4", [0xfc60271c]), ("mffpr. 3,4", [0xfc60271d]),
    ("mffprs 3,4", [0xec60271c]), ("mffprs. 3,4", [0xec60271d]),
    ("mtfpr 3,4", [0xfc60271e]), ("mtfprs 3,4", [0xec60271e]),
    ("fmvis 3,0x1234", [0x587a1206]), ("fmvis 5,0xc000", [0x58a0c006]),
    ("fishmv 3,0x1234", [0x587a1216]),
    ("crternlogi 3,4,5,0x96", [0x14642cb6]), ("crternlogi 31,0,17,0x01", [0x17e0880e]),
    ("crbinlog 3,4,5", [0x5864a05d]), ("crbinlog 31,30,7", [0x5bfee05d]),
    ("sv.mffpr *3,*8", [0x05403c00, 0xfc00171c]),
    ("sv.mffprs. *3,*8", [0x05403c00, 0xec00171d]),
    ("sv.fmvis *4,0x3f80", [0x05402000, 0x58203f86]),
    ("sv.fishmv *4,0x1234", [0x05402400, 0x583a1216]),
    ("ctfpr 3,4,1", [0xfc68261e]), ("ctfpr. 3,4,0", [0xfc60261f]),
    ("ctfpr 3,4,2", [0xfc70261e]), ("ctfpr 3,4,3", [0xfc78261e]),
    ("ctfprs 3,4,0", [0xec60261e]), ("ctfprs. 31,30,3", [0xeff8f61f]),
    ("sv.ctfpr *8,*16,2", [0x05402400, 0xfc50261e]),
    ("crfternlogi 3,4,5,0x96,7", [0x15b3bc82]), ("crfternlogi 3,4,5,149,5", [0x15b1b483]),
    ("crfternlogi 7,0,1,0xff,8", [0x17c03fc3]),
    ("crfbinlog 3,4,5,15", [0x59f3a009]), ("crfbinlog 3,4,5,1", [0x5991a009]),
    ("crfbinlog 0,7,6,9", [0x585dc009]),
    ("sv.crfternlogi *8,*16,*24,0x96,15", [0x05402480, 0x14eb7c82]),
    ("sv.crfbinlog *8,*16,*24,3", [0x05402480, 0x588b6009]),
]


(test_assembles_as_svp64asm, test_disassembles_to_the_same_words,
 test_svp64asm_words_live) = svp64asm_word_tests(SVP64ASM_WORDS)


def run(isa, lines, gpr=(), fpr=(), cr=0):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for n, v in dict(gpr).items():
        sim.state.gpr[n] = v
    for n, v in dict(fpr).items():
        sim.state.fpr[n] = v
    sim.state.crval = cr
    res = sim.run(max_steps=20)
    assert res.stop == "end", res.trap
    return sim.state


def test_moves_hand_derived(isa):
    # 1.5 as a double is 0x3FF8000000000000, as a single 0x3FC00000
    s = run(isa, ["mffpr 3,4", "mffprs 5,4", "mtfpr 6,7", "mtfprs 8,9"],
            fpr={4: 0x3FF8000000000000}, gpr={7: 0x0123456789ABCDEF, 9: 0xFFFFFFFF3FC00000})
    assert s.gpr[3] == 0x3FF8000000000000
    assert s.gpr[5] == 0x3FC00000
    assert s.fpr[6] == 0x0123456789ABCDEF
    assert s.fpr[8] == 0x3FF8000000000000   # the low word widened; the high ignored


def test_fp_immediates_hand_derived(isa):
    # bfloat16 0x3F80 is 1.0 (single 0x3F800000); 0xC000 is -2.0; fishmv then
    # puts 0x0001 in the single's low half: 0x3F800001 = 1 + 2^-23, as a double
    # 0x3FF0000020000000 (the 23-bit fraction moved up 29 bits)
    s = run(isa, ["fmvis 3,0x3f80", "fmvis 4,0xc000", "fmvis 5,0x3f80", "fishmv 5,1"])
    assert s.fpr[3] == 0x3FF0000000000000
    assert s.fpr[4] == 0xC000000000000000
    assert s.fpr[5] == 0x3FF0000020000000


def test_cr_logic_hand_derived(isa):
    # CR = 0b1010 0000 ...: bits 0 and 2 set.  crternlogi 0,2,3,TLI: index =
    # CR0(1) CR2(1) CR3(0) = 0b110 = 6, TLI 0x02 has (MSB-first) bit 6 set -> 1;
    # crternlogi 2,1,0,0x02: index CR2(1) CR1(0) CR0(1) = 0b101 = 5 -> bit 5 of
    # 0x02 (MSB-first) is 0 -> CR2 cleared
    s = run(isa, ["crternlogi 0,2,3,0x02"], cr=0xA0000000)
    assert s.crval == 0xA0000000
    s = run(isa, ["crternlogi 2,1,0,0x02"], cr=0xA0000000)
    assert s.crval == 0x80000000
    # crbinlog 1,0,7: lut = CR7 = 0b0100 (MSB-first: index 1 set); index =
    # CR1(0) CR0(1) = 0b01 -> 1: CR1 set
    s = run(isa, ["crbinlog 1,0,7"], cr=0x80000004)
    assert s.crval == 0xC0000004


@pytest.mark.parametrize("line, rb, want, fpscr_changes", [
    # IT=0: the low word as a signed integer: 0xFFFFFFFF is -1.0, exactly, and
    # the FPSCR is left alone (libre-soc's page: "rounding never necessary")
    ("ctfpr 3,4,0", 0x12345678FFFFFFFF, 0xBFF0000000000000, False),
    # IT=1: unsigned word: 4294967295.0 = 0x41EFFFFFFFE00000
    ("ctfpr 3,4,1", 0x12345678FFFFFFFF, 0x41EFFFFFFFE00000, False),
    # IT=2: signed doubleword: -2 -> -2.0; FPRF = -normal (0b01000)
    ("ctfpr 3,4,2", M64 - 1, 0xC000000000000000, True),
    # IT=3: unsigned doubleword 2^64-1 rounds (to nearest) to 2^64 =
    # 0x43F0000000000000, inexact
    ("ctfpr 3,4,3", M64, 0x43F0000000000000, True),
    # ctfprs rounds to single: 2^24+1 (IT=0, a word) is not a single; to
    # nearest-even it is 2^24 = 0x4170000000000000 as a double
    ("ctfprs 3,4,0", 0x01000001, 0x4170000000000000, True),
])
def test_ctfpr_hand_derived(isa, line, rb, want, fpscr_changes):
    s = run(isa, [line], gpr={4: rb})
    assert s.fpr[3] == want
    assert (s.fpscr != 0) == fpscr_changes


def test_ctfpr_word_leaves_fpscr(isa):
    # FPSCR with XX and FPRF already set stays exactly as it was for IT=0/1
    sim = Simulator(isa=isa)
    sim.load_asm("ctfpr 3,4,0\nctfpr 5,4,1\n")
    sim.state.gpr[4] = 7
    sim.state.fpscr = 0x0002_1000 | 0x0200_0000
    assert sim.run(max_steps=5).stop == "end"
    assert sim.state.fpscr == 0x0002_1000 | 0x0200_0000
    assert sim.state.fpr[3] == sim.state.fpr[5] == 0x401C000000000000  # 7.0


def test_cr_field_logic_hand_derived(isa):
    # CR1 = 0b1100, CR2 = 0b1010, CR3 = 0b0110 (CR = 0x0CA60000).
    # crfternlogi 1,2,3,0x96,0b1011: TLI read MSB-first, 0x96 = 1001 0110 is
    # set at indices 0 3 5 6, the even-parity ones (three-input XNOR).  Per
    # bit i the index is CR1 CR2 CR3: 110, 101, 011, 000, all even: 1111;
    # msk 0b1011 keeps bit 1, which is 1 already: CR1 = 0b1111
    s = run(isa, ["crfternlogi 1,2,3,0x96,11"], cr=0x0CA60000)
    assert s.crval == 0x0FA60000
    # with TLI 0x69 (odd parity, XOR) every index above gives 0; bit 1 kept
    s = run(isa, ["crfternlogi 1,2,3,0x69,11"], cr=0x0CA60000)
    assert s.crval == 0x04A60000
    # crfbinlog 1,2,3,0b1111: lut = CR3 = 0b0110 (XOR, read MSB-first),
    # index bits of CR1 and CR2: 11 10 01 00 -> 0 1 1 0 = 0b0110
    s = run(isa, ["crfbinlog 1,2,3,15"], cr=0x0CA60000)
    assert s.crval == 0x06A60000

    # the last fields: crfbinlog 0,6,7,0b1111 with CR0 = 0b1100, CR6 = 0b1010
    # and the table in CR7 = 0b0010 (CR = 0xC00000A2): indices 11 10 01 00 pick
    # lut[3] lut[2] lut[1] lut[0] = 0 1 0 0, CR0 = 0b0100 (the table is
    # CR[4*BFB + 32:4*BFB + 35] = CR[60:63], the last bits of CR)
    s = run(isa, ["crfbinlog 0,6,7,15"], cr=0xC00000A2)
    assert s.crval == 0x400000A2


def test_crfbinlog_msk_zero_traps(isa):
    sim = Simulator(isa=isa)
    sim.load_asm(".long 0x5990a009\n")   # crfbinlog 3,4,5,1 with its msk bits cleared
    sim.state.crval = 0x12345678
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and "msk = 0" in res.trap.reason
    assert sim.state.crval == 0x12345678


PROGRAMS = [
    ["crfternlogi 3,4,5,0x96,7"], ["crfternlogi 0,1,2,0xe8,15"], ["crfbinlog 3,4,5,15"],
    ["crfbinlog 1,6,7,9"],
    ["ctfpr 3,4,0"], ["ctfpr 3,4,1"], ["ctfpr. 3,4,2"], ["ctfpr 3,4,3"],
    ["ctfprs 3,4,0"], ["ctfprs 3,4,1"], ["ctfprs. 3,4,2"], ["ctfprs 3,4,3"],
    ["mffpr. 3,4"], ["mffprs. 3,4"], ["mtfpr 3,4"], ["mtfprs 3,4"],
    ["fmvis 3,0x1234"], ["fmvis 3,0xc0a0", "fishmv 3,0x5678"],
    ["crternlogi 3,4,5,0x96"], ["crternlogi 31,0,17,0xe8"], ["crbinlog 3,4,5"],
    ["crbinlog 30,31,0"],
    ["setvl 0,0,3,0,1,1", "sv.mffpr *8,*16"],
]


def test_against_isacaller_live(isacaller):
    isa = ISA(profile="openpower-isa")
    rng = random.Random(20261124)
    programs = []
    singles = [0x3FF8000000000000, 0xC000000000000000, 0x3FB99999A0000000]
    for lines in PROGRAMS:
        for _ in range(3):
            gpr = [rng.getrandbits(64) for _ in range(128)]
            gpr[0] = 0
            # FPRs: doubles exactly representable as singles (mffprs of others
            # rounds, which the page leaves to SINGLE) and random bit patterns
            fpr = [rng.choice(singles) if rng.random() < 0.5 else rng.getrandbits(64) & ~(1 << 62)
                   for _ in range(128)]
            if "mtfprs" in lines[-1]:
                gpr[4] = (gpr[4] & ~0xFFFFFFFF) | 0x3FC00000 | rng.getrandbits(20)
            programs.append((lines, gpr, fpr, rng.getrandbits(32)))
    for lines, res, t in run_on_both(isacaller.root, isa, programs):
        assert_same_registers(lines, res, t, fpr=True)
