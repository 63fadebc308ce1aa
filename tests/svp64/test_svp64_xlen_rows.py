"""Element-width overrides on the rows whose operation depends on XLEN
(decoder/svp64/xlen_rows.txt): minmax's word mode and libre-soc's bigint rows
maddedu, maddedus and divmod2du run their page at XLEN = the operation width
(libre-soc's av.mdwn and svfixedarith.mdwn are written at XLEN; under SVP64
XLEN is the element width: docs/errata.md SV-22).  dsld and dsrd, whose pages
are written for 64 bits only, keep trapping, and so do saturation of these
rows and maddedus with a narrower ELWIDTH_SRC.

Expected values are derived by hand in the comments from those pages; the
same programs run on openpower-isa's ISACaller (which runs pages at XLEN =
the element width) when ISA_EXT_ISACALLER names one.  Each hand-derived
program runs on every path (tests/svp64/test_svp64_one_behaviour.py's all_modes).
"""
import random

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV
from test_svp64_one_behaviour import all_modes
from svp64asm_golden import svp64asm_word_tests

M64 = (1 << 64) - 1
LT, GT, EQ = 0b1000, 0b0100, 0b0010

# (lines, initial GPRs, expected GPRs, expected CR fields)
CASES = {
    # minmax word mode at XLEN=16 (MMM=0b100: unsigned minimum of the low
    # XLEN/2 = 8 bits, the whole selected element written).  Elements of
    # r16: 0x00ff, 0x0034; of r18: 0x01fe, 0x0000.  Low bytes 0xff vs 0xfe:
    # the second is smaller, RT = 0x01fe; 0x34 vs 0x00: RT = 0x0000.  r8's
    # bits above the two 16-bit elements stay.
    "minmax_word_w16": (["setvl 0,0,2,0,1,1", "sv.minmax/w=16 *8, *16, *18, 4"],
                        {8: M64, 16: 0x0034_00FF, 18: 0x0000_01FE},
                        {8: 0xFFFF_FFFF_0000_01FE}, {}),
    # minmax. word mode, signed, maximum (MMM=0b111) at XLEN=8: the low
    # nibbles compared as signed 4-bit values.  Element 0: 0x08 (-8) vs 0x07
    # (7): maximum 7, RT = (RB) = 0x07; CR0 records (RA) < (RB): LT.
    # Element 1: 0x1F (-1) vs 0x2E (-2): maximum -1, RT = (RA) = 0x1F; CR1 GT.
    "minmax_word_signed_max_w8": (["setvl 0,0,2,0,1,1", "sv.minmax./w=8 *8, *16, *18, 7"],
                                  {8: M64, 16: 0x1F08, 18: 0x2E07},
                                  {8: 0xFFFF_FFFF_FFFF_1F07}, {0: LT, 1: GT}),
    # maddedu at XLEN=32, VL=2 (RS = RC's element MAXVL further on: r21).
    # Element 0: 0xFFFFFFFF * 0xFFFFFFFF + 0xFFFFFFFF = 0xFFFFFFFF_00000000:
    # RT = 0, RS = 0xFFFFFFFF.  Element 1: 0x12345678 * 0x10 + 7 =
    # 0x1_23456787: RT = 0x23456787, RS = 1.
    "maddedu_w32": (["setvl 0,0,2,0,1,1", "sv.maddedu/w=32 *8, *16, *18, *20"],
                    {16: 0x1234_5678_FFFF_FFFF, 18: 0x0000_0010_FFFF_FFFF,
                     20: 0x0000_0007_FFFF_FFFF},
                    {8: 0x2345_6787_0000_0000, 21: 0x0000_0001_FFFF_FFFF}, {}),
    # maddedus at XLEN=16, VL=1: RA = 0xFFFF unsigned (65535), RB = 0xFFFF
    # signed (-1), RC = 0xFFFE signed (-2): 65535 * -1 - 2 = -65537, as 32
    # bits 0xFFFE_FFFF: RT = 0xFFFF, RS = 0xFFFE (RC's element 1: r20 bits
    # 16..31).
    "maddedus_w16": (["setvl 0,0,1,0,1,1", "sv.maddedus/w=16 *8, *16, *18, *20"],
                     {16: 0xFFFF, 18: 0xFFFF, 20: 0xFFFE},
                     {8: 0xFFFF, 20: 0xFFFE_FFFE}, {}),
    # divmod2du at XLEN=8, VL=2 (RS: r20's elements 2 and 3).  Element 0:
    # RC=0x02 < RB=0x10: (0x02 || 0x34) = 564 = 16 * 35 + 4: RT = 0x23,
    # RS = 0x04.  Element 1: RB = 0: the quotient does not fit, RT = 0xFF
    # (all ones at XLEN=8), RS = 0.
    "divmod2du_w8": (["setvl 0,0,2,0,1,1", "sv.divmod2du/w=8 *8, *16, *18, *20"],
                     {16: 0x0034, 18: 0x0010, 20: 0x0002},
                     {8: 0xFF23, 20: 0x0004_0002}, {}),
}


# the lines above as libre-soc's SVP64Asm assembles them (openpower-isa
# 3cb597b9, run in /work/isacaller; test_svp64asm_words_live repeats it)
SVP64ASM_WORDS = [
    ("sv.minmax/w=16 *8, *16, *18, 4", [0x054a24c0, 0x4c442406]),
    ("sv.minmax./w=8 *8, *16, *18, 7", [0x054f24c0, 0x4c442707]),
    ("sv.maddedu/w=32 *8, *16, *18, *20", [0x05452b80, 0x10442172]),
    ("sv.maddedus/w=16 *8, *16, *18, *20", [0x054a2b80, 0x10442179]),
    ("sv.divmod2du/w=8 *8, *16, *18, *20", [0x054f2b80, 0x1044217a]),
    ("sv.minmax/sw=16 *8, *16, *18, 6", [0x054224c0, 0x4c442606]),
    ("sv.dsld/sw=32 *16, *16, 3, 5", [0x05412800, 0x10841974]),
    ("sv.maddedus/w=16/sw=8 *8, *16, *18, *20", [0x054b2b80, 0x10442179]),
]
(test_assembles_as_svp64asm, test_disassembles_to_the_same_words,
 test_svp64asm_words_live) = svp64asm_word_tests(SVP64ASM_WORDS)


def _init(regs):
    return {"gpr": dict(regs)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_xlen_rows_at_the_element_width(svisa, name):
    lines, regs, want, crs = CASES[name]
    res = all_modes(svisa, lines, _init(regs))
    assert res.stop == "end", res.trap
    for r, v in want.items():
        assert res.gpr[r] == v, (name, r, hex(res.gpr[r]))
    for f, v in crs.items():
        assert res.state.cr[f] == v, (name, f)


@pytest.mark.parametrize("name", ["minmax_word_w16", "maddedu_w32", "divmod2du_w8"])
def test_same_under_the_openpower_profile(name):
    # ISACaller runs these pages at XLEN = the element width as well
    isa = ISA(extensions=["base", "svp64"], profile="openpower-isa")
    lines, regs, want, _crs = CASES[name]
    res = all_modes(isa, lines, _init(regs))
    for r, v in want.items():
        assert res.gpr[r] == v, (name, r)


# the openpower-isa profile's XLEN pages (pseudocode/profiles/openpower_isa/:
# ISACaller's values, derived by hand in tests/compat/test_profile.py
# test_elwidth_xlen, live in its LIVE list) on every path, VL=2 with element
# 1 zero where the first element is the derived one
PROFILE_CASES = {
    "extsw_sw8": (["setvl 0,0,2,0,1,1", "sv.extsw/sw=8 *8, *16"], {16: 0x80},
                  {8: 0x80, 9: 0}),
    "sraw_w16": (["setvl 0,0,2,0,1,1", "sv.sraw/w=16 *8, *16, *24"],
                 {8: M64, 16: 0x80, 24: 4}, {8: 0xFFFF_FFFF_0000_FFF8}),
    "mulhd_w8": (["setvl 0,0,2,0,1,1", "sv.mulhd/w=8 *8, *16, *24"],
                 {8: M64, 16: 0x80, 24: 3}, {8: 0xFFFF_FFFF_FFFF_00FE}),
    "mulli_dw16_sw8": (["setvl 0,0,2,0,1,1", "sv.mulli/dw=16/sw=8 *8, *16, -3"],
                       {8: M64, 16: 0x80}, {8: 0xFFFF_FFFF_0000_FE80}),
    "slw_w16": (["setvl 0,0,2,0,1,1", "sv.slw/w=16 *8, *16, *24"],
                {8: M64, 16: 0x12, 24: 4}, {8: 0xFFFF_FFFF_0000_0020}),
}


@pytest.mark.parametrize("name", sorted(PROFILE_CASES))
def test_profile_xlen_pages_on_every_path(name):
    isa = ISA(extensions=["base", "svp64"], profile="openpower-isa")
    lines, regs, want = PROFILE_CASES[name]
    res = all_modes(isa, lines, _init(regs))
    assert res.stop == "end", res.trap
    for r, v in want.items():
        assert res.gpr[r] == v, (name, r, hex(res.gpr[r]))


def test_word_mode_with_64_bit_operation_width(svisa):
    # sv.minmax/sw=16 with a 64-bit destination: the operation width is 64,
    # so the 64-bit page compares the low words of the sources sign-extended
    # from 16 bits (signed_sources.txt: MMM[1]).  0x8000 -> -32768,
    # 0x7FFF -> 32767: the signed minimum is the first, written extended
    lines = ["setvl 0,0,1,0,1,1", "sv.minmax/sw=16 *8, *16, *18, 6"]
    res = all_modes(svisa, lines, _init({16: 0x8000, 18: 0x7FFF}))
    assert res.gpr[8] == 0xFFFF_FFFF_FFFF_8000


@pytest.mark.parametrize("line, why", [
    # pages written for 64 bits only (shift amount (RB)[58:63], 64-bit masks),
    # under any element-width override (a 64-bit operation width too: which
    # extension the draft rows' narrower sources take is not written)
    ("sv.dsld/w=32 *8, *16, *18, *20", "written for 64 bits only"),
    ("sv.dsld/sw=32 *16, *16, 3, 5", "written for 64 bits only"),
    ("sv.dsrd./w=16 *8, *16, *18, *20", "written for 64 bits only"),
    # maddedus: RA unsigned, RB and RC signed -- no single extension rule
    ("sv.maddedus/w=16/sw=8 *8, *16, *18, *20", "ELWIDTH_SRC"),
    # saturation: the exact result of an XLEN-wide page is not known
    ("sv.minmax/sats/w=16 *8, *16, *18, 4", "saturation"),
    ("sv.maddedu/satu/w=32 *8, *16, *18, *20", "saturation"),
])
def test_undefined_combinations_trap(svisa, line, why):
    sim = Simulator(isa=svisa)
    sim.load_asm(line + "\n")
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    for r in (8, 16, 18, 20, 21):
        sim.state.gpr[r] = 0x1111 * r
    res = sim.run(max_steps=3)
    assert res.stop == "trap" and why in res.trap.reason, res.trap
    assert "not implemented" in res.trap.reason and res.pc == 0x1000
    assert [res.gpr[r] for r in (8, 16, 18, 20, 21)] == [0x1111 * r for r in
                                                         (8, 16, 18, 20, 21)]


def _live_programs():
    rng = random.Random(22)
    programs = []
    for w in (8, 16, 32):
        for line in (f"sv.minmax/w={w} *8, *16, *24, 4", f"sv.minmax./w={w} *8, *16, *24, 6",
                     f"sv.minmax./w={w} *8, *16, *24, 7", f"sv.minmax/w={w} *8, *16, *24, 5",
                     f"sv.maddedu/w={w} *8, *16, *24, *32",
                     f"sv.maddedus/w={w} *8, *16, *24, *32",
                     f"sv.divmod2du/w={w} *8, *16, *24, *32"):
            for _ in range(2):
                gpr = [rng.getrandbits(64) for _ in range(128)]
                gpr[0] = 0
                if "divmod2du" in line:
                    # half the dividends' high parts below the divisor
                    gpr[32:40] = [v >> rng.choice([0, 1]) * w // 2 for v in gpr[32:40]]
                programs.append((["setvl 0,0,5,0,1,1", line], gpr, None, 0))
    # a 64-bit operation width with narrower sources: the 64-bit page
    for line in ("sv.minmax/sw=16 *8, *16, *24, 4", "sv.maddedu/sw=32 *8, *16, *24, *32",
                 "sv.divmod2du/sw=16 *8, *16, *24, *32"):
        gpr = [rng.getrandbits(64) for _ in range(128)]
        gpr[0], gpr[3] = 0, rng.getrandbits(6)
        programs.append((["setvl 0,0,3,0,1,1", line], gpr, None, 0))
    return programs


@pytest.mark.parametrize("profile", ["spec", "openpower-isa"])
def test_live_isacaller(isacaller, profile):
    # the same GPRs as ISACaller (and CR under the openpower-isa profile;
    # the spec profile's divmod2du also sets XER[OV], not compared here)
    from isacaller_compare import run_on_both, assert_same_registers
    isa = ISA(extensions=["base", "svp64"], profile=profile)
    for lines, res, t in run_on_both(isacaller.root, isa, _live_programs()):
        assert_same_registers(lines, res, t, cr=True)
