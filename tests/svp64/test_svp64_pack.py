"""SVSTATE pack/unpack (set by ``svstep`` with SVi[3:4] = 0b11): the programs and
expected values of openpower-isa's ``src/openpower/decoder/isa/test_caller_svp64_pack.py``
(snapshot 3cb597b9), and the same programs run by its ISACaller on this machine
(which agreed with those expectations).

pack (SVSTATE[53]) makes the sub-element the outer loop of the source side,
unpack (SVSTATE[54]) of the destination side; the element register index stays
``step * SUBVL + substep``.  With VL=4, SUBVL=2, operation n of an ``sv.ori/vec2``
copy therefore reads (pack) source element ``(n % 4) * 2 + n // 4`` and writes
destination n, or (unpack) reads source n and writes ``(n % 4) * 2 + n // 4``.

Every program is run plain (fast path where it applies), traced, and interrupted
after each element operation then resumed: all must give the expected state.
"""
import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

# openpower-isa's test file names the loop indices so:
#   offs = j*4 + i (sub-element outer), skew = i*2 + j (element outer)
INDICES = [(j * 4 + i, i * 2 + j, i, j) for j in range(2) for i in range(4)]
FILL = 0xffffffff


def _expect_pack2():
    # test_svstep_pack2: gpr(0+offs) == skew
    return {offs: skew for offs, skew, _i, _j in INDICES}


def _expect_unpack():
    # the first test_svstep_unpack (shadowed in that file by a later one of the same
    # name, but run here): gpr(0+skew) == offs
    return {skew: offs for offs, skew, _i, _j in INDICES}


def _expect_predicate_pack():
    # test_svstep_predicate_pack, mask 0b0110, no zeroing: the enabled skews in
    # pack order go to the enabled offs in turn; the rest keep 0xffffffff.
    mask = 0b0110
    taken = [skew for _o, skew, _i, _j in INDICES if mask & (1 << (skew >> 1))]
    out = {}
    for offs, _s, _i, _j in INDICES:
        out[8 + offs] = taken.pop(0) if mask & (1 << (offs >> 1)) else FILL
    return out


def _expect_predicate_unpack():
    # the second test_svstep_unpack, mask 0b0101
    mask = 0b0101
    taken = [offs for offs, _s, _i, _j in INDICES if mask & (1 << (offs >> 1))]
    out = {}
    for _o, skew, _i, _j in INDICES:
        out[8 + skew] = taken.pop(0) if mask & (1 << (skew >> 1)) else FILL
    return out


def _expect_steps():
    # test_svstep_pack: with pack, srcstep runs inner: r0+offs = i, r8+skew = i
    # (dststep), r16+offs = j (ssubstep), r24+skew = j (dsubstep)
    out = {}
    for offs, skew, i, j in INDICES:
        out.update({offs: i, 8 + skew: i, 16 + offs: j, 24 + skew: j})
    return out


SRC32 = {32 + i: i for i in range(8)}
SRC16 = {**{i: FILL for i in range(64)}, **{16 + i: i for i in range(8)}}

PROGRAMS = {
    "pack2": (["setvl 0, 0, 4, 0, 1, 1", "svstep 0, 0, 15, 0", "sv.ori/vec2 *0, *32, 0"],
              SRC32, _expect_pack2(), 1, 0),
    "unpack": (["setvl 0, 0, 4, 0, 1, 1", "svstep 0, 0, 14, 0", "sv.ori/vec2 *0, *32, 0"],
               SRC32, _expect_unpack(), 0, 1),
    "predicate_pack": (["setvl 0, 0, 4, 0, 1, 1", "svstep 0, 0, 15, 0",
                        "sv.ori/vec2/m=r3 *8, *16, 0"],
                       {**SRC16, 3: 0b0110}, _expect_predicate_pack(), 1, 0),
    "predicate_unpack": (["setvl 0, 0, 4, 0, 1, 1", "svstep 0, 0, 14, 0",
                          "sv.ori/vec2/m=r3 *8, *16, 0"],
                         {**SRC16, 3: 0b0101}, _expect_predicate_unpack(), 0, 1),
    "steps": (["setvl 0, 0, 4, 0, 1, 1", "svstep 0, 0, 15, 0",
               "sv.svstep./vec2 *0,0,5,1", "sv.svstep./vec2 *8,0,6,1",
               "sv.svstep./vec2 *16,0,7,1", "sv.svstep./vec2 *24,0,8,1"],
              {}, _expect_steps(), 1, 0),
}


def _sim(isa, name):
    lines, regs, _want, _p, _u = PROGRAMS[name]
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for r, v in regs.items():
        sim.state.gpr[r] = v
    return sim


def _check(name, sim, res):
    _lines, _regs, want, pack, unpack = PROGRAMS[name]
    assert res.stop == "end", res.trap
    for r, v in want.items():
        assert res.gpr[r] == v, (name, r, res.gpr[r], v)
    sv = sim.state.svstate
    # test file: vl = maxvl = 4, steps 0 afterwards; ISACaller: pack/unpack as set
    assert (SV.get(sv, "vl"), SV.get(sv, "maxvl"), SV.get(sv, "srcstep"),
            SV.get(sv, "dststep")) == (4, 4, 0, 0)
    assert (SV.get(sv, "pack"), SV.get(sv, "unpack")) == (pack, unpack)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("trace", [False, True])
def test_pack_programs(svisa, name, trace):
    sim = _sim(svisa, name)
    _check(name, sim, sim.run(max_steps=100, trace=trace))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_pack_programs_interrupted(svisa, name):
    for k in range(9):
        sim = _sim(svisa, name)
        sim.interrupt_after = k
        res = sim.run(max_steps=100)
        if res.stop == "interrupt":
            res = sim.run(max_steps=100)
        _check(name, sim, res)


def test_svstep_pack_cr0_records_the_end(svisa):
    # test_svstep_pack: CR0 = LT 0, GT 0, EQ 0, SO 1 after the last sv.svstep.
    sim = _sim(svisa, "steps")
    sim.run(max_steps=100)
    assert sim.state.cr[0] == 0b0001


def test_pack_changes_nothing_without_subvl(svisa):
    # SUBVL=1: the sub-element loop has one iteration, so both orders coincide
    # (openpower-isa's src_iterate with subvl 0): a plain copy
    sim = Simulator(isa=svisa)
    sim.load_asm("setvl 0, 0, 4, 0, 1, 1\nsvstep 0, 0, 16, 0\nsv.ori *0, *32, 0\n")
    for i in range(4):
        sim.state.gpr[32 + i] = 10 + i
    res = sim.run(max_steps=100)
    assert res.gpr[0:4] == [10, 11, 12, 13]


@pytest.mark.parametrize("name", ["pack2", "unpack"])
def test_pack_vertical_first_matches(svisa, name):
    # the same copy as a vertical-first loop: sv.svstep./vec2 advances in the
    # pack/unpack order (openpower-isa's src_iterate/dst_iterate), so the loop
    # visits the same (element, sub-element) pairs as the HF instruction
    lines, regs, _w, _p, _u = PROGRAMS[name]
    sim = Simulator(isa=svisa)
    sim.load_asm("\n".join(lines[:2]) + "\nsetvl 0, 0, 4, 1, 1, 1\nloop:\n " + lines[2]
                 + "\n sv.svstep./vec2 0, 0, 0, 0\n bc 4, 3, loop\n")
    for r, v in regs.items():
        sim.state.gpr[r] = v
    _check(name, sim, sim.run(max_steps=200))


@pytest.mark.parametrize("bits", [(1, 0), (0, 1)])
def test_fail_first_with_pack_or_unpack_traps(svisa, bits):
    # fail-first truncates VL at a failing element, but with pack/unpack the
    # elements of later sub-element passes at steps beyond the new VL have
    # already run (neither normal.mdwn nor the pack description says which
    # survive; ISACaller sets VL = srcstep + VLi as without pack): traps,
    # nothing written, steps left at 0
    pack, unpack = bits
    sim = Simulator(isa=svisa)
    sim.load_asm("sv.add./vec2/ff=eq *8, *20, *20\n")
    sim.state.svstate = SV.make(maxvl=4, vl=4, pack=pack, unpack=unpack)
    for i in range(8):
        sim.state.gpr[20 + i] = i + 1
    res = sim.run(max_steps=5)
    assert res.stop == "trap" and "pack/unpack is not implemented" in res.trap.reason
    assert res.gpr[8:16] == [0] * 8 and res.pc == 0x1000
    assert SV.get(sim.state.svstate, "srcstep") == 0
