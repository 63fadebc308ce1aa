"""The openpower-isa profile's REMAP switches (docs/compat.md, Profiles:
``remap_reverse``, ``remap_step_side``, ``remap_ldst_offsets``), each with
the spec default and the profile asserted.

The programs are tests/svp64/test_svp64_remap_pred.py's: ``svindex 8, R, 1, 0, 0,
0, 0`` makes the operands SVme ``R`` names follow the indices IDXS = 1 0 5 2
4 3 in r16.. through SVSHAPE0 (svindex leaves mi0..mo1 at 0), VL = 6,
r0..r5 = 0..5, r8..r13 = 100..105 before.  The profile's values were run
on ISACaller (openpower-isa 3cb597b9); ``test_live_isacaller`` runs them
again.
"""
import pytest

from isa_ext.asm import assemble
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

import test_svp64_remap_pred as P

MEM = 0x10000  # the diffcheck data region (ldst_place.REGION_BASE)
WORDS = {40 + j: 0x1000 + j for j in range(6)}  # r40.. stored as doublewords 0..5


def _isa(profile):
    return ISA(extensions=["base", "svp64"], profile=profile)


# name: (lines, extra GPRs, VL, {profile: (first GPR, values)} or
# {profile: ("mem", doublewords at MEM)})
PROGRAMS = {
    # reverse gear, RT remapped.  Spec: the steps march 5 downto 0 and step
    # j writes r(8 + IDXS[j]) = r(j) + r(j) = 2j: r8..r13 = 2 0 6 10 8 4.
    # ISACaller: its steps k march 0..5, sources at 5-k (2(5-k)), RT at
    # 5 - IDXS[k]: k=0 r12=10, k=1 r13=8, k=2 r8=6, k=3 r11=4, k=4 r9=2,
    # k=5 r10=0: r8..r13 = 6 2 0 4 10 8
    "reverse_gear": ([P.RT_IDX, "sv.add/mrr *8, *0, *0"], {}, 6,
                     {"spec": (8, [2, 0, 6, 10, 8, 4]),
                      "openpower-isa": (8, [6, 2, 0, 4, 10, 8])}),
    # reverse gear, RT through svshape2's offset shape 1 + (i % 3) (steps
    # 0..5 -> 1 2 3 1 2 3).  Spec: steps 5..0 write r(8 + 1 + j%3) = 2j, the
    # last (steps 2, 1, 0) standing: r11 = 4, r10 = 2, r9 = 0.  ISACaller:
    # k = 0..5, RT at 5 - (1 + k%3) = 4 3 2 4 3 2 with 2(5-k) = 10 8 6 4 2 0:
    # r12 = 4, r11 = 2, r10 = 0 (k = 3, 4, 5 last)
    "reverse_gear_overlap": (["svshape2 1, 0, 1, 3, 0, 0", "svremap 8, 0, 0, 0, 0, 0, 0",
                              "sv.add/mrr *8, *0, *0"], {}, 6,
                             {"spec": (8, [100, 0, 2, 4, 104, 105]),
                              "openpower-isa": (8, [100, 101, 0, 2, 4, 105])}),
    # twin predication, RT remapped (SVSHAPE0): sm = r3 = 0b11 (srcsteps 0,
    # 1), dm = r30 = 0b1100 (dststeps 2, 3); the n-th enabled source goes
    # to the n-th enabled destination.  Spec: RT follows dststep: r0 ->
    # element IDXS[2] = 5 (r13 = 0), r1 -> IDXS[3] = 2 (r10 = 1).
    # ISACaller: SVSHAPE0 follows srcstep: r0 -> IDXS[0] = 1 (r9 = 0), r1 ->
    # IDXS[1] = 0 (r8 = 1)
    "twin_predicate": ([P.RT_IDX, "sv.extsw/sm=r3/dm=r30 *8, *0"], {3: 0b11, 30: 0b1100}, 6,
                       {"spec": (8, [100, 101, 1, 103, 104, 0]),
                        "openpower-isa": (8, [1, 0, 102, 103, 104, 105])}),
    # the other way round: RS (extsw's in1, SVme 1) through SVSHAPE3, a copy
    # of svindex's SVSHAPE0 (SPRs 705, 708), the same twin predicates.
    # Spec: RS follows srcstep: pair (src 0, dst 2) reads r(IDXS[0]) = r1 =
    # 1 into r10, pair (1, 3) r(IDXS[1]) = r0 = 0 into r11.  ISACaller:
    # SVSHAPE3 follows dststep: r(IDXS[2]) = r5 = 5 into r10, r(IDXS[3]) =
    # r2 = 2 into r11
    "twin_predicate_source_on_svshape3": (
        [P.RA_IDX, "mfspr 22, 705", "mtspr 708, 22", "svremap 1, 3, 0, 0, 0, 0, 0",
         "sv.extsw/sm=r3/dm=r30 *8, *0"], {3: 0b11, 30: 0b1100}, 6,
        {"spec": (8, [100, 101, 1, 0, 104, 105]),
         "openpower-isa": (8, [100, 101, 5, 2, 104, 105])}),
    # a unit-strided load with only RT remapped (SVme 8): doublewords
    # 0x1000 + j at MEM + 8j (stored before REMAP is set up).  Spec: no EA
    # or RA slot enabled, so step i loads doubleword i into r(8 + IDXS[i]):
    # r9 = 0x1000, r8 = 0x1001, r13 = 0x1002, r10 = 0x1003, r12 = 0x1004,
    # r11 = 0x1005.  ISACaller: the offset is SVSHAPE[mi0] = SVSHAPE0's
    # index IDXS[i] too: doubleword IDXS[i] into r(8 + IDXS[i]): in order
    "load_rt_remapped": (["sv.std *40, 0(50)", P.RT_IDX, "sv.ld *8, 0(50)"],
                         {**WORDS, 50: MEM}, 6,
                         {"spec": (8, [0x1001, 0x1000, 0x1003, 0x1005, 0x1004, 0x1002]),
                          "openpower-isa": (8, [0x1000 + j for j in range(6)])}),
    # a unit-strided store with RA remapped (SVme 1; RA scalar, so only the
    # offsets can move).  Spec: the offsets follow RA's slot at dststep:
    # step i stores r(40 + i) at doubleword IDXS[i]: 0x1001 0x1000 0x1003
    # 0x1005 0x1004 0x1002.  ISACaller: a store's offsets are never
    # remapped: in order
    "store_ra_remapped": ([P.RA_IDX, "sv.std *40, 0(50)"], {**WORDS, 50: MEM}, 6,
                          {"spec": ("mem", [0x1001, 0x1000, 0x1003, 0x1005, 0x1004, 0x1002]),
                           "openpower-isa": ("mem", [0x1000 + j for j in range(6)])}),
}


def _sim(isa, name):
    lines, extra, vl, _want = PROGRAMS[name]
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for r, v in {**P.BASE, **extra}.items():
        sim.state.gpr[r] = v
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    return sim


@pytest.mark.parametrize("profile", ["spec", "openpower-isa"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("trace", [False, True])
def test_remap_profile_switches(name, profile, trace):
    sim = _sim(_isa(profile), name)
    res = sim.run(max_steps=20, trace=trace)
    assert res.stop == "end", res.trap
    where, want = PROGRAMS[name][3][profile]
    if where == "mem":
        got = [sim.state.mem.read(MEM + 8 * j, 8) for j in range(len(want))]
    else:
        got = list(res.gpr[where:where + len(want)])
    assert got == want


def test_reverse_gear_past_vl_traps_under_the_profile():
    # svshape2's offset shape 1 + (i % 3) at VL = 3 maps RT to 1 2 3; under
    # reverse gear ISACaller's element is VL-1 - 3 = -1 at one step (its
    # 7-bit offset wraps round): the profile traps, nothing written.  The
    # spec runs steps 2, 1, 0: r11 = 4, r10 = 2, r9 = 0
    lines = ["svshape2 1, 0, 1, 3, 0, 0", "svremap 8, 0, 0, 0, 0, 0, 0",
             "sv.add/mrr *8, *0, *0"]
    for profile in ("spec", "openpower-isa"):
        sim = Simulator(isa=_isa(profile))
        sim.load_asm("\n".join(lines) + "\n")
        for r, v in P.BASE.items():
            sim.state.gpr[r] = v
        sim.state.svstate = SV.make(maxvl=3, vl=3)
        res = sim.run(max_steps=10)
        if profile == "spec":
            assert res.stop == "end" and res.gpr[8:12] == [100, 0, 2, 4]
        else:
            assert res.stop == "trap" and "reverse gear" in res.trap.reason, res.trap
            assert res.gpr[8:14] == P.MARK


def test_load_offsets_through_a_zero_svshape_trap_under_the_profile():
    # ISACaller's load offset is SVSHAPE[mi0]'s index whenever REMAP is on;
    # with SVSHAPE[mi0] = 0 it keeps whatever an earlier instruction left:
    # the profile traps.  svindex sets SVSHAPE0 only; svremap 8,0,0,0,1,0
    # (RT through SVSHAPE1 = 0, mi0 = SVSHAPE0) then svremap 8,1,... (mi0 =
    # SVSHAPE1 = 0)
    for mi0, ok in ((0, True), (1, False)):
        sim = Simulator(isa=_isa("openpower-isa"))
        sim.load_asm("\n".join([P.RT_IDX, f"svremap 8, {mi0}, 0, 0, 0, 0, 0",
                                "sv.ld *8, 0(50)"]) + "\n")
        for r, v in {**P.BASE, 50: MEM}.items():
            sim.state.gpr[r] = v
        sim.state.svstate = SV.make(maxvl=6, vl=6)
        res = sim.run(max_steps=10)
        assert (res.stop == "end") == ok, res.trap
        if not ok:
            assert "SVSHAPE of 0" in res.trap.reason


def test_live_isacaller(isacaller):
    # the programs on ISACaller against the openpower-isa profile (registers,
    # CR, SVSTATE and the data region compared)
    from isa_ext.compat.isacaller import (Case, NGPR, NFPR, run_isacaller, run_isa_ext,
                                             compare)
    from isa_ext.diffcheck.ldst_place import REGION_WORDS
    isa = _isa("openpower-isa")
    cases = []
    for k, name in enumerate(sorted(PROGRAMS)):
        lines, extra, vl, _want = PROGRAMS[name]
        regs = {**P.BASE, **extra}
        gpr = [regs.get(i, 0) for i in range(NGPR)]
        cases.append(Case(k, lines, assemble("\n".join(lines) + "\n", isa=isa).words, gpr,
                          [0] * NFPR, 0, SV.make(maxvl=vl, vl=vl), mem=[0] * REGION_WORDS))
    theirs = run_isacaller(isacaller.root, cases)
    bad = {name: compare(run_isa_ext(isa, case), t)
           for name, case, t in zip(sorted(PROGRAMS), cases, theirs)}
    assert {n: d for n, d in bad.items() if d} == {}
    for name, t in zip(sorted(PROGRAMS), theirs):
        where, want = PROGRAMS[name][3]["openpower-isa"]
        got = t["mem"][:len(want)] if where == "mem" else t["gpr"][where:where + len(want)]
        assert got == want, name


@pytest.mark.parametrize("profile, order", [
    # the element each step writes (reverse_gear's derivation above): spec
    # steps 5..0 write IDXS[5..0] = 3 4 2 5 0 1; ISACaller 5 - IDXS[0..5]
    ("spec", [11, 12, 10, 13, 8, 9]),
    ("openpower-isa", [12, 13, 8, 11, 9, 10])])
def test_hfvf_dependencies_follow_the_profile(profile, order):
    # isa_ext's HF/VF dependency analysis steps the operands as the executor
    # does, the profile's REMAP switches included
    from isa_ext.hfvf import dependencies
    sim = _sim(_isa(profile), "reverse_gear")
    sim.run(max_steps=1)  # svindex
    mem = sim.state.mem
    pc = sim.state.pc
    deps = dependencies(sim.isa, sim.state, mem.read_word(pc), mem.read_word(pc + 4), pc)
    assert [[a.name for a in s.writes] for s in deps.steps] == [[f"r{n}"] for n in order]
