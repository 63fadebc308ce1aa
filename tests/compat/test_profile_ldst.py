"""LD/ST profile switches (isa_ext/profile.py ``indexed_els``,
``pi_without_update``, ``ldst_zeroing``): the default follows ldst.mdwn and
the SVP64 RM tables, the openpower-isa profile what ISACaller (openpower-isa
3cb597b9) does.  Each program's two outcomes are worked out by hand in its
comment; the last test runs the same programs on ISACaller and compares whole
final states, the data region's memory included.

Memory: the doubleword at BASE + 8i holds TAG + i, so a loaded value names
its address; the doubleword at 8 holds LOW (the program is at 0x1000 here).
"""
import pytest

from isa_ext.asm import assemble
from isa_ext.compat import isacaller as D
from isa_ext.diffcheck import ldst_place
from isa_ext.isa import ISA
from isa_ext.profile import PROFILES
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV
from isacaller_compare import live_differences

M64 = (1 << 64) - 1
BASE = ldst_place.REGION_BASE  # 0x10000
TAG = 0x1000
LOW = 0x77


@pytest.fixture(scope="module")
def isas():
    return {name: ISA(extensions=["base", "svp64"], profile=name) for name in PROFILES}


def region():
    return [TAG + i for i in range(128)]


def run(isa, line, vl, regs):
    sim = Simulator(isa=isa)
    sim.load_asm(line + "\n")
    for i, w in enumerate(region()):
        sim.state.mem.write(BASE + 8 * i, 8, w)
    sim.state.mem.write(8, 8, LOW)
    for r, v in regs.items():
        sim.state.gpr[r] = v & M64
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    return sim, sim.run()


def dword(sim, addr):
    return sim.state.mem.read(addr, 8)


# --- indexed_els -------------------------------------------------------------------

def test_indexed_element_stride(isas):
    # sv.ldx/els *20, 8, 12, VL=3, r8 = BASE, r12 = 0x10.
    # spec (ldst.mdwn element stride, RA and RB scalar): EA_i = (RA) + i*(RB)
    #   = BASE, BASE+0x10, BASE+0x20: r20..r22 = TAG+0, TAG+2, TAG+4.
    # ISACaller: /els ignored (check_replace_d rewrites D only): every element
    #   at (RA)+(RB) = BASE+0x10: TAG+2 three times.
    regs = {8: BASE, 12: 0x10}
    _, res = run(isas["spec"], "sv.ldx/els *20, 8, 12", 3, regs)
    assert res.stop == "end" and res.gpr[20:23] == [TAG, TAG + 2, TAG + 4]
    _, res = run(isas["openpower-isa"], "sv.ldx/els *20, 8, 12", 3, regs)
    assert res.stop == "end" and res.gpr[20:23] == [TAG + 2] * 3


def test_indexed_element_stride_store(isas):
    # sv.stdx/els *4, 8, 12, VL=3, r4..r6 = 0xA, 0xB, 0xC: spec stores them at
    # BASE, BASE+0x10, BASE+0x20; ISACaller all at BASE+0x10, the last (0xC)
    # standing, BASE and BASE+0x20 keeping TAG+0, TAG+4.
    regs = {8: BASE, 12: 0x10, 4: 0xA, 5: 0xB, 6: 0xC}
    sim, res = run(isas["spec"], "sv.stdx/els *4, 8, 12", 3, regs)
    assert [dword(sim, BASE + 0x10 * i) for i in range(3)] == [0xA, 0xB, 0xC]
    sim, res = run(isas["openpower-isa"], "sv.stdx/els *4, 8, 12", 3, regs)
    assert [dword(sim, BASE + 0x10 * i) for i in range(3)] == [TAG, 0xC, TAG + 4]


# --- pi_without_update --------------------------------------------------------------

@pytest.mark.parametrize("line, isacaller_r20_21", [
    # unit stride, /pi ignored: EA_i = (RA) + 8 + 8i = BASE+8, BASE+16
    ("sv.ld/pi *20, 8(8)", [TAG + 1, TAG + 2]),
    # plain indexed, both scalar: every element at (RA)+(RB) = BASE+0x10
    ("sv.ldx/pi *20, 8, 12", [TAG + 2, TAG + 2]),
])
def test_post_increment_off_an_update_form(isas, line, isacaller_r20_21):
    # spec: /pi applies to update forms only: illegal, nothing written.
    # ISACaller (caller.py: the post-increment page only when the mnemonic
    # has a "u"): the element runs as without /pi; RA is not written.
    regs = {8: BASE, 12: 0x10, 20: 0x99, 21: 0x99}
    _, res = run(isas["spec"], line, 2, regs)
    assert res.stop == "trap" and res.trap.kind == "illegal" and "/pi" in res.trap.reason
    assert res.gpr[20:22] == [0x99, 0x99]
    _, res = run(isas["openpower-isa"], line, 2, regs)
    assert res.stop == "end" and res.gpr[20:22] == isacaller_r20_21 and res.gpr[8] == BASE


# --- ldst_zeroing ---------------------------------------------------------------------

ZREGS = {3: 0b101, 8: BASE, 9: BASE + 0x100, 10: BASE + 0x200,
         4: 0x44, 5: 0x55, 6: 0x66, 20: 0x99, 21: 0x99, 22: 0x99}


def test_source_zeroed_update_load(isas):
    # sv.ldu/sm=r3/sz *20, 8(*8), VL=3, r3 = 0b101 (zz: sz = dz; no dm, so
    # every destination is enabled).  Elements 0 and 2: EA = r8+8, r10+8:
    # r20 = TAG+1, r8 = BASE+8; r22 = TAG+0x41, r10 = BASE+0x208.
    # Element 1, source masked out:
    #   spec: the loaded element is 0, no access, RA kept: r21 = 0, r9 = BASE+0x100
    #   ISACaller: RA read as 0, EA = 0 + 8 = 8: r21 = LOW, r9 <- EA = 8
    common = {20: TAG + 1, 8: BASE + 8, 22: TAG + 0x41, 10: BASE + 0x208}
    for name, want in (("spec", {21: 0, 9: BASE + 0x100}), ("openpower-isa", {21: LOW, 9: 8})):
        _, res = run(isas[name], "sv.ldu/sm=r3/sz *20, 8(*8)", 3, ZREGS)
        assert res.stop == "end"
        assert {r: res.gpr[r] for r in (*common, *want)} == {**common, **want}, name


def test_destination_zeroed_update_store(isas):
    # sv.stdu/dm=r3/dz *4, 8(*8), VL=3, r3 = 0b101: element 1's destination
    # (the memory element) masked out.
    #   spec: the masked-out element's data is not stored (the overview's
    #     zeroing runs no operation for it; whether "set element to zero"
    #     stores a zero in memory is left open here) and RA is kept
    #     (docs/svp64.md): BASE+0x108 does not hold r5, r9 = BASE+0x100
    #   ISACaller: the element runs: r5 stored at r9+8 = BASE+0x108, and
    #     its register result, the RA update, zeroed: r9 = 0
    # Elements 0, 2 store r4, r6 at BASE+8, BASE+0x208 and update r8, r10.
    for name in ("spec", "openpower-isa"):
        sim, res = run(isas[name], "sv.stdu/dm=r3/dz *4, 8(*8)", 3, ZREGS)
        assert res.stop == "end"
        if name == "spec":
            assert dword(sim, BASE + 0x108) != 0x55 and res.gpr[9] == BASE + 0x100
        else:
            assert (dword(sim, BASE + 0x108), res.gpr[9]) == (0x55, 0)
        assert (dword(sim, BASE + 8), dword(sim, BASE + 0x208)) == (0x44, 0x66)
        assert (res.gpr[8], res.gpr[10]) == (BASE + 8, BASE + 0x208)


def test_source_zeroed_store(isas):
    # sv.std/sm=r3/sz *4, 8(8), VL=3, unit stride EA_i = (RA) + 8 + 8i.
    # Element 1 (source masked out) stores its zeroed RS:
    #   spec: at BASE+0x10 (RA kept as the address): 0 there
    #   ISACaller: RA read as 0 too: at 0 + 8 + 8 = 0x10; BASE+0x10 keeps TAG+2
    for name, (m, low) in (("spec", (0, None)), ("openpower-isa", (TAG + 2, 0))):
        sim, res = run(isas[name], "sv.std/sm=r3/sz *4, 8(8)", 3, ZREGS)
        assert res.stop == "end"
        assert [dword(sim, BASE + 8 * i) for i in (1, 2, 3)] == [0x44, m, 0x66], name
        if low is not None:
            assert dword(sim, 0x10) == low


def test_destination_zeroed_load_zeroes_the_update(isas):
    # sv.ldu/dm=r3/dz *20, 8(8), VL=3, scalar RA: unit stride with update
    # compounds (EA_i = (RA) + 8 + 8i, RA <- EA).  Element 0: EA = BASE+8,
    # r20 = TAG+1, r8 = BASE+8.  Element 1 (destination masked out):
    #   spec: r21 = 0, r8 kept; element 2: EA = BASE+8 + 8 + 16 = BASE+0x20:
    #     r22 = TAG+4, r8 = BASE+0x20
    #   ISACaller: the load runs, RT and the RA update written 0: r21 = 0,
    #     r8 = 0; element 2: EA = 0 + 8 + 16 = 0x18: r22 = the doubleword at
    #     0x18 (0: nothing written there), r8 = 0x18
    for name, (r22, r8) in (("spec", (TAG + 4, BASE + 0x20)), ("openpower-isa", (0, 0x18))):
        _, res = run(isas[name], "sv.ldu/dm=r3/dz *20, 8(8)", 3, ZREGS)
        assert res.stop == "end"
        assert (res.gpr[20], res.gpr[21], res.gpr[22], res.gpr[8]) == (TAG + 1, 0, r22, r8), name


def test_source_zeroed_indexed_post_increment(isas):
    # sv.ldux/pi/sm=r3/sz *20, 8, 12, VL=3, r3 = 0b101, r8 = BASE, r12 = 0x10
    # (post-increment indexed: EA = (RA), then RA <- (RA) + (RB)).
    # Element 0: r20 = TAG, r8 = BASE+0x10.  Element 1 (source masked out):
    #   spec: r21 = 0, no access, r8 kept; element 2: EA = BASE+0x10:
    #     r22 = TAG+2, r8 = BASE+0x20
    #   ISACaller: RA and RB read as 0: EA = 0 (the doubleword there is 0;
    #     the one at 2^64-0x10, 0x5A, is not read), r8 <- 0 + 0 = 0;
    #     element 2: EA = 0: r22 = 0, r8 = 0 + 0x10
    for name, want in (("spec", [TAG, 0, TAG + 2, BASE + 0x20]),
                       ("openpower-isa", [TAG, 0, 0, 0x10])):
        sim = Simulator(isa=isas[name])
        sim.load_asm("sv.ldux/pi/sm=r3/sz *20, 8, 12\n")
        for i, w in enumerate(region()):
            sim.state.mem.write(BASE + 8 * i, 8, w)
        sim.state.mem.write(M64 - 15, 8, 0x5A)
        for r, v in {3: 0b101, 8: BASE, 12: 0x10, 20: 0x99, 21: 0x99, 22: 0x99}.items():
            sim.state.gpr[r] = v
        sim.state.svstate = SV.make(maxvl=3, vl=3)
        res = sim.run()
        assert res.stop == "end" and [*res.gpr[20:23], res.gpr[8]] == want, name


# --- live ----------------------------------------------------------------------------

LIVE = [
    ("sv.ldx/els *20, 8, 12", 3, {8: BASE, 12: 0x10}),
    ("sv.stdx/els *4, 8, 12", 3, {8: BASE, 12: 0x10, 4: 0xA, 5: 0xB, 6: 0xC}),
    ("sv.ldux/els *20, 8, 12", 3, {8: BASE, 12: 0x10}),
    ("sv.ld/pi *20, 8(8)", 2, {8: BASE}),
    ("sv.ldx/pi *20, 8, 12", 2, {8: BASE, 12: 0x10}),
    ("sv.lbz/pi *20, 8(*8)", 2, {8: BASE, 9: BASE + 0x100}),
    ("sv.ldux/pi *20, 8, 12", 3, {8: BASE, 12: 0x10}),
    ("sv.ldux/pi *20, *8, 12", 3, {8: BASE, 9: BASE + 0x100, 10: BASE + 0x200, 12: 0x10}),
    ("sv.stdux/pi *4, *8, 12", 3, {8: BASE, 9: BASE + 0x100, 10: BASE + 0x200, 12: 0x10,
                                   4: 0xA, 5: 0xB, 6: 0xC}),
    ("sv.ldu/sm=r3/sz *20, 8(*8)", 3, ZREGS),
    ("sv.stdu/dm=r3/dz *4, 8(*8)", 3, ZREGS),
    ("sv.std/sm=r3/sz *4, 8(8)", 3, ZREGS),
    ("sv.ldu/dm=r3/dz *20, 8(8)", 3, ZREGS),
    ("sv.ldux/sm=r3/sz *20, 8, 12", 3, {**ZREGS, 12: 0x10}),
    ("sv.ldux/pi/sm=r3/sz *20, 8, 12", 3, {**ZREGS, 12: 0x10}),
    ("sv.lfsu/sm=r3/sz *20, 4(*8)", 3, ZREGS),
    ("sv.lwz/els/m=r3/sz *20, 4(8)", 3, ZREGS),
]


def test_ldst_switches_agree_with_isacaller_under_the_profile(isacaller, isas):
    # the programs above (and a few more shapes), from the same registers and
    # data region on both (the programs at isacaller.PROGRAM_BASE, away from
    # the low addresses a zeroed RA's EA lands on)
    isa = isas["openpower-isa"]
    cases = []
    for k, (line, vl, regs) in enumerate(LIVE):
        lines = [f"setvl 0,0,{vl},0,1,1", line]
        gpr = [0] * D.NGPR
        for r, v in regs.items():
            gpr[r] = v
        words = assemble("\n".join(lines) + "\n", isa=isa).words
        cases.append(D.Case(k, lines, words, gpr, [0] * D.NFPR, 0, mem=region()))
    bad = live_differences(isa, isacaller.root, cases)
    assert not bad, "\n".join(bad)
