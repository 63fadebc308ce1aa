"""libre-soc's bigint rows (maddedu maddedus divmod2du dsld dsrd), Power ISA
v3.1's cfuged cntlzdm cnttzdm pdepd pextd and libre-soc's gbbd
(decoder/svp64/bigint.csv, bitmanip.csv).

Expected values come from: libre-soc's SVP64Asm (the words below, checked live
when an ISACaller is built), GNU as -mpower10, QEMU 7.2 -cpu power10 (a C
probe), openpower-isa 3cb597b9's test files (src/openpower/test/bigint/
bigint_cases.py, test/logical/svp64_cases.py, decoder/isa/
test_caller_svp64_pospopcount.py: programs, values and models cited per
case), hand derivations in the comments and ISACaller run live.
"""
import random

import pytest

from conftest import gnu_as_words, qemu_probe_lines
from isacaller_compare import assert_same_registers, run_on_both
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV
from svp64asm_golden import svp64asm_word_tests, words_of
from test_svp64_one_behaviour import all_modes

M64 = (1 << 64) - 1

# libre-soc's SVP64Asm (openpower-isa 3cb597b9, /work/isacaller), each line
# assembled on its own: the 32-bit words in order.
SVP64ASM_WORDS = [
    ("maddedu 3,5,6,7", [0x106531f2]),
    ("maddedus 3,5,6,7", [0x106531f9]),
    ("divmod2du 3,5,6,7", [0x106531fa]),
    ("dsld 3,4,5,6", [0x106429b4]),
    ("dsld. 3,4,5,6", [0x106429b5]),
    ("dsrd 3,4,5,6", [0x106429b6]),
    ("dsrd. 3,4,5,6", [0x106429b7]),
    ("cfuged 3,4,5", [0x7c8329b8]),
    ("cntlzdm 3,4,5", [0x7c832876]),
    ("cnttzdm 3,4,5", [0x7c832c76]),
    ("pdepd 3,4,5", [0x7c832938]),
    ("pextd 3,4,5", [0x7c832978]),
    ("gbbd 8,6", [0x590602ec]),
    ("sv.maddedu *16,*16,3,4", [0x05402800, 0x10841932]),
    ("sv.maddedus *16,*16,3,4", [0x05402800, 0x10841939]),
    ("sv.maddedu 6,5,3,4", [0x05400000, 0x10c51932]),
    ("sv.maddedu *4,*32,36,8", [0x05402900, 0x10282232]),
    ("sv.dsrd/mrr *16,*16,3,5", [0x05402805, 0x10841976]),
    ("sv.dsld *16,*16,3,5", [0x05402800, 0x10841974]),
    ("sv.dsld. *16,*16,3,5", [0x05402800, 0x10841975]),
    ("sv.dsrd/mrr *36,*32,3,0", [0x05402805, 0x11281836]),
    ("sv.divmod2du/mrr *16,*16,3,4", [0x05402805, 0x1084193a]),
    ("sv.divmod2du/m=1<<r3 9,*20,10,11", [0x05500800, 0x112552fa]),
    ("sv.cfuged *10,*20,*30", [0x054034c0, 0x7ca239b8]),
    ("sv.cntlzdm *10,*20,*30", [0x054034c0, 0x7ca23876]),
    ("sv.cnttzdm *10,*20,*30", [0x054034c0, 0x7ca23c76]),
    ("sv.pdepd *10,*20,*30", [0x054034c0, 0x7ca23938]),
    ("sv.pextd *10,*20,*30", [0x054034c0, 0x7ca23978]),
    ("sv.gbbd *8,*6", [0x05402600, 0x584102ec]),
    ("sv.gbbd/m=r3 *8,*70", [0x05602640, 0x585102ec]),
    ("sv.cfuged 100,*20,120", [0x05401c60, 0x7ca4c1b8]),
]
V31 = ["cfuged", "cntlzdm", "cnttzdm", "pdepd", "pextd"]


(test_assembles_as_svp64asm, test_disassembles_to_the_same_words,
 test_svp64asm_words_live) = svp64asm_word_tests(SVP64ASM_WORDS)


def test_random_lines_match_svp64asm_live(isa, isacaller, tmp_path):
    # random SVP64 lines of these rows (predicates, widths, modes: the
    # generator of tests/svp64/test_libresoc_asm.py); every line SVP64Asm accepts
    # must give the same words; it rejects only for its known reasons
    from isa_ext.compat.libresoc import svp64asm
    from isa_ext.diffcheck.svp64_lines import random_lines
    from test_libresoc_asm import KNOWN_REJECTIONS
    names = {"maddedu", "maddedus", "divmod2du", "dsld", "dsrd", "gbbd", *V31}
    lines = random_lines(isa, 1515, 60, rows=[r for r in isa.rows if r.mnemonic in names])
    accepted = []
    for line, (status, texts) in zip(lines, svp64asm(isacaller.root, lines)):
        if status == "error":
            assert any(p.search(texts) for p in KNOWN_REJECTIONS.values()), (line, texts)
        else:
            accepted.append((line, texts))
    # GNU as turns SVP64Asm's texts (".long" words) into words, in one run
    words = gnu_as_words(tmp_path, [t for _, texts in accepted for t in texts],
                         extra_args=["-mpower10"])
    for line, texts in accepted:
        theirs, words = words[:len(texts)], words[len(texts):]
        assert words_of(isa, line) == theirs, line
    assert len(accepted) >= 50


def test_gnu_as_v31(isa, tmp_path):
    lines = [f"{m} {ra},{rs},{rb}" for m in V31 for ra, rs, rb in
             ((3, 4, 5), (31, 0, 17), (0, 31, 1))]
    want = gnu_as_words(tmp_path, lines, extra_args=["-mpower10"])
    assert [w for line in lines for w in words_of(isa, line)] == want


# --- scalar semantics -------------------------------------------------------------

def run_scalar(lines, gpr, isa=None, xer_so=0):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for r, v in gpr.items():
        sim.state.gpr[r] = v & M64
    res = sim.run(max_steps=50)
    assert res.stop == "end", res.trap
    return res


def exts(v):
    return v - (1 << 64) if v >> 63 else v


def test_maddedu_bigint_cases():
    # bigint_cases.py case_maddedu: r3 = low, r7 (RC, the implicit RS) = high
    # half of r5 * r6 + r7
    g = {5: 0x123456789ABCDEF, 6: 0xFEDCBA9876543210, 7: 0x02468ACE13579BDF}
    v = g[5] * g[6] + g[7]
    res = run_scalar(["maddedu 3,5,6,7"], g)
    assert (res.gpr[3], res.gpr[7], res.gpr[8]) == (v % 2**64, v >> 64, 0)


def test_maddedus_bigint_cases():
    # case_maddedus: r5 unsigned times r6 signed plus r7 signed
    g = {5: 0x8123456789ABCDEF, 6: 0xFEDCBA9876543210, 7: 0x82468ACE13579BDF}
    v = g[5] * exts(g[6]) + exts(g[7])
    res = run_scalar(["maddedus 3,5,6,7"], g)
    assert (res.gpr[3], res.gpr[7]) == (v % 2**64, (v >> 64) % 2**64)


def test_divmod2du_bigint_cases():
    # case_divmod2du: (r7 || r5) divided by r6: quotient r3, remainder r7
    g = {5: 0x123456789ABCDEF, 6: 0xFEDCBA9876543210, 7: 0x02468ACE13579BDF}
    v = g[5] | g[7] << 64
    res = run_scalar(["divmod2du 3,5,6,7"], g)
    assert (res.gpr[3], res.gpr[7], res.state.ov) == (v // g[6], v % g[6], 0)


@pytest.mark.parametrize("rb, rc", [(5, 5), (5, 6), (0, 0)])
def test_divmod2du_overflow(rb, rc):
    # svfixedarith.mdwn: RC not below RB, or RB zero: RT all ones, RS zero and
    # (Special Registers Altered) XER.OV; the openpower-isa profile, like
    # ISACaller, leaves XER alone (docs/compat.md)
    g = {5: 0x1234, 6: rb, 7: rc}
    res = run_scalar(["divmod2du 3,5,6,7"], g)
    assert (res.gpr[3], res.gpr[7]) == (M64, 0)
    assert res.state.ov == 1
    prof = run_scalar(["divmod2du 3,5,6,7"], g, isa=ISA(profile="openpower-isa"))
    assert (prof.gpr[3], prof.gpr[7], prof.state.ov) == (M64, 0, 0)


SHIFTS = list(range(-64, 128, 16)) + [1, 63]   # bigint_cases.py _SHIFT_TEST_RANGE


@pytest.mark.parametrize("sh", SHIFTS)
def test_dsld_dsrd_shift_range(sh):
    # case_dsld0 / case_dsrd0: r4 shifted by r5 % 64 with r6 shifted in, the
    # bits shifted out into r6 (the files' models, written out again here)
    ra, rc, n = 0xFEDCBA9876543210, 0x123456789ABCDEF, sh % 64
    g = {4: ra, 5: sh, 6: rc}
    v = ra << n | rc & ((1 << n) - 1)
    res = run_scalar(["dsld 3,4,5,6"], g)
    assert (res.gpr[3], res.gpr[6]) == (v % 2**64, v >> 64)
    v = (ra << 64) >> n | (rc & ~(M64 >> n) & M64) << 64
    res = run_scalar(["dsrd 3,4,5,6"], g)
    assert (res.gpr[3], res.gpr[6]) == (v >> 64, v % 2**64)


def cr_calc(val, ov):
    # bigint_cases.py cr_calc: LT GT EQ of the 64-bit result, SO = "overflow"
    # (the bits shifted out are not zero)
    return (8 if val >> 63 else 4 if val else 2) | (1 if ov else 0)


@pytest.mark.parametrize("ra, rb, rc", [
    # bigint_cases.py case_dsld0_
    (0, 0, 0), (0x8000_0000_0000_0000, 1, 0), (0xffff_ffff_ffff_ffff, 1, 1),
    (0x0fff_ffff_ffff_fff0, 1, 0x8000_0000_0000_0001),
    (0xdfff_ffff_ffff_ffff, 1, 0x8000_0000_0000_0000)])
def test_dsld_record(ra, rb, rc):
    v = ra << (rb % 64) | rc & ((1 << (rb % 64)) - 1)
    res = run_scalar(["dsld. 3,4,5,6"], {4: ra, 5: rb, 6: rc})
    assert (res.gpr[3], res.gpr[6]) == (v % 2**64, v >> 64)
    assert res.crf[0] == cr_calc(v % 2**64, v >> 64)


def test_dsrd_record_so_from_xer():
    # dsrd. with nothing shifted out (n = 0: RT = RA = 1, RS = 0): CR0 = GT,
    # and SO copies XER[SO] (here 1): 0b0101
    sim = Simulator()
    sim.load_asm("dsrd. 3,4,5,6\n")
    sim.state.gpr[4] = 1
    sim.state.so = 1
    res = sim.run(max_steps=5)
    assert (res.gpr[3], res.gpr[6], res.crf[0]) == (1, 0, 0b0101)


def gbbd_model(v):
    # bitmanip.mdwn: bit k*8+j (MSB0) of RA goes to bit j*8+k: a transpose of
    # the 8x8 bit matrix whose rows are RA's bytes
    out = 0
    for j in range(8):
        for k in range(8):
            out |= (v >> (63 - (k * 8 + j)) & 1) << (63 - (j * 8 + k))
    return out


@pytest.mark.parametrize("ra, want", [
    # byte 0 all ones (row 0): column 0 of every row, the MSB of each byte
    (0xFF00_0000_0000_0000, 0x8080_8080_8080_8080),
    # the LSB of every byte (column 7 of each row) -> row 7: the last byte
    (0x0101_0101_0101_0101, 0x0000_0000_0000_00FF),
    # the main diagonal stays put
    (0x8040_2010_0804_0201, 0x8040_2010_0804_0201),
])
def test_gbbd_hand_derived(ra, want):
    assert gbbd_model(ra) == want
    assert run_scalar(["gbbd 8,6"], {6: ra}).gpr[8] == want


def test_gbbd_is_its_own_inverse():
    rng = random.Random(15)
    for _ in range(20):
        v = rng.getrandbits(64)
        res = run_scalar(["gbbd 8,6", "gbbd 9,8"], {6: v})
        assert res.gpr[9] == v and res.gpr[8] == gbbd_model(v)


def cfuged_model(rs, rb):
    # svp64_cases.py case_cfuged: the bits of RS under RB's ones (LSB first)
    # then those under its zeros, packed from the LSB
    ones = [rs >> i & 1 for i in range(64) if rb >> i & 1]
    zeros = [rs >> i & 1 for i in range(64) if not rb >> i & 1]
    return sum(b << i for i, b in enumerate(ones + zeros))


V31_PROBE = r"""
#include <stdio.h>
#include <stdint.h>
static const uint64_t in[][2] = { INPUTS };
int main(void) {
    for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {
        uint64_t s = in[i][0], b = in[i][1], r1, r2, r3, r4, r5;
        __asm__("cfuged %0,%1,%2" : "=r"(r1) : "r"(s), "r"(b));
        __asm__("cntlzdm %0,%1,%2" : "=r"(r2) : "r"(s), "r"(b));
        __asm__("cnttzdm %0,%1,%2" : "=r"(r3) : "r"(s), "r"(b));
        __asm__("pdepd %0,%1,%2" : "=r"(r4) : "r"(s), "r"(b));
        __asm__("pextd %0,%1,%2" : "=r"(r5) : "r"(s), "r"(b));
        printf("%llx %llx %llx %llx %llx\n", (unsigned long long)r1,
               (unsigned long long)r2, (unsigned long long)r3,
               (unsigned long long)r4, (unsigned long long)r5);
    }
    return 0;
}
"""


def v31_inputs():
    rng = random.Random(31)
    pairs = [(0, 0), (M64, M64), (0xF0F0, 0xFF00), (0x8000_0000_0000_0001, M64),
             (0x1234_5678_9ABC_DEF0, 0), (0, 0x8000_0000_0000_0000)]
    return pairs + [(rng.getrandbits(64), rng.getrandbits(64) & rng.getrandbits(64))
                    for _ in range(40)]


def qemu_power10_lines(tmp_path, source):
    return qemu_probe_lines(tmp_path, source, cpu="power10")


def test_v31_against_qemu_power10(tmp_path):
    pairs = v31_inputs()
    inputs = ", ".join(f"{{0x{s:x}ULL, 0x{b:x}ULL}}" for s, b in pairs)
    lines = qemu_power10_lines(tmp_path, V31_PROBE.replace("INPUTS", inputs))
    assert len(lines) == len(pairs)
    sim_lines = [f"{m} {10 + i},4,5" for i, m in enumerate(V31)]
    for (s, b), line in zip(pairs, lines):
        want = [int(x, 16) for x in line.split()]
        res = run_scalar(sim_lines, {4: s, 5: b})
        assert res.gpr[10:15] == want, (hex(s), hex(b))
        assert want[0] == cfuged_model(s, b)


# --- SVP64 ---------------------------------------------------------------------

def vec(base, values):
    return {base + i: v for i, v in enumerate(values)}


SV_CASES = {
    # bigint_cases.py case_sv_bigint_mul_by_scalar: r16..r18 times r3 plus the
    # carry r4; each element's high half is the next one's carry (RS = RC, r4)
    "mul_by_scalar": (["sv.maddedu *16,*16,3,4"], 3,
                      {**vec(16, [0x1357_0000_9BDF_0000, 0x9ABC_0000_DEF0_0000,
                                  0x1234_0000_5678_0000]), 3: 0x1_0001, 4: 0xFEDC},
                      {16: 0x1357_9BDF_9BDF_FEDC, 17: 0x9ABC_DEF0_DEF0_1357,
                       18: 0x1234_5678_5678_9ABC, 4: 0x1234}),
    # case_sv_bigint_scalar_maddedu: all scalar, VL=16: RS is RC (r4), not
    # RT+1 nor RT+MAXVL, and the instruction runs once
    "scalar_maddedu": (["sv.maddedu 6,5,3,4"], 16,
                       {5: 0x1357_0000_9BDF_0000, 3: 0x1_0001, 4: 0xFEDC},
                       {6: 0x1357_9BDF_9BDF_FEDC, 4: 0x1357, 7: 0, 22: 0}),
    # case_sv_unsigned_bigint_mul_by_signed_scalar
    "mul_by_signed_scalar": (["sv.maddedus *16,*16,3,4"], 3,
                             {**vec(16, [0x1357_0000_9BDF_0000, 0x9ABC_0000_DEF0_0000,
                                         0x1234_0000_5678_0000]),
                              3: -0x1_0001 % 2**64, 4: -0xFEDC % 2**64},
                             {16: 0xECA8_6420_6420_0124, 17: 0x6543_210F_210F_ECA8,
                              18: 0xEDCB_A987_A987_6543, 4: 0xFFFF_FFFF_FFFF_EDCB}),
    # case_sv_bigint_div_by_scalar: reverse gear, r4 the remainder carried down
    "div_by_scalar": (["sv.divmod2du/mrr *16,*16,3,4"], 3,
                      {**vec(16, [0x1357_9BDF_9BDF_FEDC, 0x9ABC_DEF0_DEF0_1357,
                                  0x1234_5678_5678_9ABC]), 3: 0x1_0001, 4: 0x1234},
                      {16: 0x1357_0000_9BDF_0000, 17: 0x9ABC_0000_DEF0_0000,
                       18: 0x1234_0000_5678_0000, 4: 0xFEDC}),
    # case_sv_bigint_shift_right_by_scalar (its docstring derives it)
    "shift_right": (["sv.dsrd/mrr *16,*16,3,5"], 3,
                    {5: 0x9000_0000_0000_0000, **vec(16, [M64, 0x8000_8000_8000_8001,
                                                          0x0000_0000_5000_0002]), 3: 4},
                    {5: 0xf000_0000_0000_0000, 16: 0x1fff_ffff_ffff_ffff,
                     17: 0x2800_0800_0800_0800, 18: 0x9000_0000_0500_0000}),
    # case_sv_bigint_shift_left_by_scalar
    "shift_left": (["sv.dsld *16,*16,3,5"], 3,
                   {5: 0xa, **vec(16, [0x4000_0000_0000_0001, 0x3fff_ffff_ffff_ffff,
                                       0x9000_0000_0001_0002]), 3: 4},
                   {5: 9, 16: 0x1a, 17: 0xffff_ffff_ffff_fff4, 18: 0x0000_0000_0010_0023}),
    # case_sv_bigint_shift_left_then_back: r5 and r16 as the file expects
    "shift_left_then_back": (["sv.dsrd/mrr *16,*16,3,5", "sv.dsld *16,*16,3,5"], 3,
                             {5: 0x9000_0000_0000_0000,
                              **vec(16, [M64, 0x8000_8000_8000_8001, 0x5000_0002]), 3: 4},
                             {5: 9, 16: 0xffff_ffff_ffff_fff0}),
    # a vector RC: RS is RC's element MAXVL on (power_decoder2.py
    # extend_rc_maxvl): element i: r(10+i) * r3 + r(20+i) -> low r(30+i),
    # high r(20+i+MAXVL) = r(22+i).  Element 0: (2^64-1)^2 + 2^64-1 =
    # 2^128 - 2^64: low 0, high 2^64-1; element 1 (r3 = 2^64-1 too):
    # 2 * (2^64-1) + 4 = 2^65 + 2: low 2, high 2
    "vector_rc": (["sv.maddedu *30,*10,3,*20"], 2,
                  {10: M64, 11: 2, 3: M64, 20: M64, 21: 4},
                  {30: 0, 22: M64, 31: 2, 23: 2, 20: M64, 21: 4}),
}


def test_svp64_dsld_record_vector(isa):
    # case_sv_bigint_shift_left_by_scalar with Rc=1: each element records its
    # RT against 0 with SO = "bits shifted out" into its own CR field
    # (CR0+i).  e0: RT 0x1a, out 4 -> GT|SO 0b0101; e1: RT 0xff..f4 (negative),
    # out 3 -> LT|SO 0b1001; e2: RT 0x100023, out 9 -> 0b0101.  (ISACaller
    # writes no CR here: docs/compat.md)
    lines, vl, gpr, want = SV_CASES["shift_left"]
    res = all_modes(isa, ["sv.dsld. *16,*16,3,5"],
                    {"svstate": SV.make(maxvl=vl, vl=vl), "gpr": gpr})
    assert {r: res.gpr[r] for r in want} == want
    assert res.state.cr[0:4] == [0b0101, 0b1001, 0b0101, 0]


@pytest.mark.parametrize("name", sorted(SV_CASES))
def test_svp64_bigint_programs(isa, name):
    lines, vl, gpr, want = SV_CASES[name]
    # single forward-running vector lines also as a vertical-first loop
    # (sv.svstep.; an all-scalar line would run once per step there)
    vf = "" if len(lines) == 1 and "/mrr" not in lines[0] and "*" in lines[0] else None
    res = all_modes(isa, lines, {"svstate": SV.make(maxvl=vl, vl=vl), "gpr": gpr}, vf)
    assert {r: res.gpr[r] for r in want} == want


def test_svp64_cfuged_and_friends():
    # svp64_cases.py case_cfuged's model on VL=5 vectors r20.., r30.. -> r10..
    rng = random.Random(5)
    rs = [rng.getrandbits(64) for _ in range(5)]
    rb = [rng.getrandbits(64) for _ in range(5)]
    res = all_modes(ISA(), ["sv.cfuged *10,*20,*30"],
                    {"svstate": SV.make(maxvl=5, vl=5), "gpr": {**vec(20, rs), **vec(30, rb)}},
                    "")
    assert res.gpr[10:15] == [cfuged_model(s, b) for s, b in zip(rs, rb)]


def test_svp64_gbbd_predicated():
    # sv.gbbd/m=r3 *8,*70, VL=4, r3 = 0b0101: elements 0 and 2 transposed,
    # 1 and 3 untouched (r9, r11 keep their sentinel)
    vals = [0xFF00_0000_0000_0000, 1, 0x0101_0101_0101_0101, 2]
    res = all_modes(ISA(), ["sv.gbbd/m=r3 *8,*70"],
                    {"svstate": SV.make(maxvl=4, vl=4),
                     "gpr": {3: 0b0101, 9: 0x99, 11: 0xBB, **vec(70, vals)}})
    assert res.gpr[8:12] == [0x8080_8080_8080_8080, 0x99, 0xFF, 0xBB]


# pospopcount (test_caller_svp64_pospopcount.py test_sv_pospopcount): the
# count of set bits at each of the 8 bit positions over a byte array: gbbd
# turns 8 loaded bytes into 8 bytes of bit-columns, popcntd/sw=8 counts them
POSPOP = ["mtspr 9, 3", "setvl 3,0,8,0,1,1", "addi 6, 0, 0", "sv.lbzu/pi/dw=8 *6, 1(4)",
          "gbbd 8,6", "setvl 0,0,8,0,1,1", "sv.popcntd/sw=8 *24,*8", "sv.add *16,*16,*24",
          "sv.bc/all 16, *0, -0x28"]


def test_pospopcount_program():
    data = [23, 19, 25, 189, 76, 255, 32, 191, 67, 205, 0, 39, 107]
    sim = Simulator()
    sim.load_asm("\n".join(POSPOP) + "\n")
    sim.state.gpr[3], sim.state.gpr[4] = len(data), 256 - 8
    sim.state.mem.write_bytes(256 - 8, bytes(data))
    res = sim.run(max_steps=200)
    assert res.stop == "end", res.trap
    assert res.gpr[16:24] == [sum(c >> j & 1 for c in data) for j in range(8)]


# --- what traps ------------------------------------------------------------------

def run_trap(lines, svstate=0):
    sim = Simulator()
    sim.load_asm("\n".join(lines) + "\n")
    sim.state.svstate = svstate
    res = sim.run(max_steps=20)
    assert res.stop == "trap"
    return res.trap


@pytest.mark.parametrize("line", ["sv.dsrd/w=16 *16,*16,3,5", "sv.dsld/sw=32 *16,*16,3,5",
                                  "sv.cfuged/w=16 *10,*20,*30", "sv.gbbd/dw=8 *8,*6"])
def test_elwidth_overrides_trap(line):
    # their pages walk XLEN bits / double-width values (decoder/svp64/xlen_rows.txt)
    # and are written for 64 bits only (maddedu, maddedus and divmod2du, written
    # at XLEN, run: tests/svp64/test_svp64_xlen_rows.py)
    trap = run_trap([line], SV.make(maxvl=2, vl=2))
    assert "element-width overrides" in trap.reason and "not implemented" in trap.reason


@pytest.mark.parametrize("svme", [31, 4])
def test_remap_of_rc_following_result_traps(svme):
    # a vector RC under REMAP (all five slots, or RC's in3 alone): where RS goes
    # is defined by no source; the trap writes nothing
    lines = ["svshape 2, 1, 1, 0, 0", f"svremap {svme}, 1, 0, 0, 0, 0, 0",
             "sv.maddedu *30,*10,3,*20"]
    sim = Simulator()
    sim.load_asm("\n".join(lines) + "\n")
    sim.state.gpr[10], sim.state.gpr[3], sim.state.gpr[20] = 5, 7, 1
    res = sim.run(max_steps=20)
    assert res.stop == "trap" and res.trap.pc == 0x1008
    assert "REMAP" in res.trap.reason and "RS" in res.trap.reason
    assert (res.gpr[30], res.gpr[22], res.gpr[20]) == (0, 0, 1)


@pytest.mark.parametrize("suffix", [0x10841932, 0x10841974])
def test_extra_bit_8_traps(suffix):
    # sv.maddedu / sv.dsld *16,*16,3,4 (SVP64Asm: prefix 0x05402800) with EXTRA
    # bit 8 (RM bit 18: prefix bit 26, 0x20) set: svfixedarith.mdwn's comment
    # makes RS RT+MAXVL, libre-soc's decoder ignores the bit; neither is taken
    sim = Simulator()
    sim.load_words([0x05402800 | 0x20, suffix])
    sim.state.gpr[16] = 7
    res = sim.run(max_steps=3)
    assert res.stop == "trap" and "EXTRA bit 8" in res.trap.reason
    assert res.gpr[16] == 7


@pytest.mark.parametrize("word, name", [(0x7c8329b8 | 1, "cfuged"), (0x590602ec | 1, "gbbd")])
def test_reserved_bit_31_traps(word, name):
    sim = Simulator()
    sim.load_words([word])
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and f"invalid form of {name}" in res.trap.reason


# --- ISACaller live ----------------------------------------------------------------

def test_against_isacaller_live(isacaller):
    isa = ISA(profile="openpower-isa")
    rng = random.Random(1515)
    progs = [
        ["maddedu 3,5,6,7"], ["maddedus 3,5,6,7"], ["divmod2du 3,5,6,7"],
        ["dsld. 3,4,5,6"], ["dsrd. 3,4,5,6"], ["gbbd 8,6"],
        ["cfuged 3,4,5"], ["cntlzdm 3,4,5"], ["cnttzdm 3,4,5"], ["pdepd 3,4,5"],
        ["pextd 3,4,5"],
        ["setvl 0,0,3,0,1,1", "sv.maddedu *16,*16,3,4"],
        ["setvl 0,0,2,0,1,1", "sv.maddedu *30,*10,3,*20"],
        ["setvl 0,0,3,0,1,1", "sv.divmod2du/mrr *16,*16,3,4"],
        ["setvl 0,0,3,0,1,1", "sv.dsrd/mrr *16,*16,3,5"],
        ["setvl 0,0,3,0,1,1", "sv.dsld. *16,*16,3,5"],
        ["setvl 0,0,4,0,1,1", "sv.gbbd/m=r3 *8,*70"],
        ["setvl 0,0,4,0,1,1", "sv.pdepd *10,*20,*30"],
    ]
    programs = []
    for lines in progs:
        for _ in range(3):
            gpr = [rng.getrandbits(64) for _ in range(128)]
            gpr[0] = 0
            gpr[3] = rng.choice([rng.getrandbits(64), 0b1011, 4])
            gpr[5] = rng.getrandbits(6) if lines[-1].startswith(("dsld", "dsrd")) else gpr[5]
            gpr[4] = rng.getrandbits(64) >> rng.choice([0, 1, 40])  # a carry below RB
            programs.append((lines, gpr, None, 0))
    for lines, res, t in run_on_both(isacaller.root, isa, programs):
        # ISACaller takes sv.dsld.'s Rc from RM.RC1 (minor_4.csv gives the row
        # rc ONE, like stbcx.): no CR written (docs/compat.md)
        dsld_dot = lines[-1].startswith("sv.dsld.")
        assert_same_registers(lines, res, t, cr=not dsld_dot)
        if dsld_dot:
            assert t["cr"] == 0


# --- the table notation ------------------------------------------------------------

@pytest.mark.parametrize("item, offset", [("RS=RC+MAXVL:0", 0), ("RS=RT+MAXVL", 1),
                                          ("RS=RC+MAXVL:2", 2)])
def test_implicit_scalar_offset_notation(isa, item, offset):
    # decoding maddedu 3,5,6,7 with the row's RS rule rewritten: RS = RC + offset
    from isa_ext.tables import parse_table
    text = ("mnemonic,form,match,syntax,suffix,in,out,rc,sv,extra\n"
            f'maddedu,VA,PO=4 XO=50,"RT,RA,RB,RC",,RA RB RC,RT {item},,,\n')
    (spec,) = parse_table(text, isa.forms, "t", "t.csv")
    base = item.split("=")[1].split("+")[0]
    assert spec.implicit == {"RS": base} and spec.implicit_scalar_offset == {"RS": offset}


@pytest.mark.parametrize("item", ["RS=RC+MAXVL:x", "RS=RC+MAXVL:", "RS=RC+1", "RS=RZ+MAXVL"])
def test_bad_implicit_notation_names_the_row(isa, item):
    from isa_ext.errors import SpecError
    from isa_ext.tables import parse_table
    text = ("mnemonic,form,match,syntax,suffix,in,out,rc,sv,extra\n"
            f'maddedu,VA,PO=4 XO=50,"RT,RA,RB,RC",,RA RB RC,RT {item},,,\n')
    with pytest.raises(SpecError) as e:
        parse_table(text, isa.forms, "t", "t.csv")
    assert "t.csv:2" in str(e.value) and "bad implicit operand" in str(e.value)
