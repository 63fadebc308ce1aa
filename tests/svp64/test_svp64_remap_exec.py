"""REMAP applied by the executor: the programs of openpower-isa's REMAP tests
(snapshot 3cb597b9: src/openpower/decoder/isa/test_caller_svp64_matrix.py,
test_caller_svindex.py, test_caller_svshape2.py,
test_caller_svp64_parallel_reduce.py and src/openpower/test/svp64/
parallel_prefix_sum.py), assembled by isa_ext and run by isa_ext's Simulator.

Expected values are those files' expectations (their formulas, evaluated by
hand in the comments), and every program is also run by openpower-isa's
ISACaller when ISA_EXT_ISACALLER names one (test_live_isacaller), final GPRs,
FPRs and SVSTATE compared.  Each program runs plain, traced and interrupted
after every element operation then resumed (a one-shot REMAP must survive the
interrupt)."""
import struct

import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV
from test_svp64_one_behaviour import all_modes


def fp(x):
    """The FPR image (double) of a Python float."""
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def matmul(x, y):
    return [sum(a * b for a, b in zip(row, col)) for row in x for col in zip(*y)]


# test_sv_maddld_remap1 / test_sv_remap1: X (2 rows of 3) times Y (3 rows of 2),
# expected = matmult(X, Y) flattened:
#   [1*6+2*8+3*10, 1*7+2*9+3*11, 3*6+4*8+5*10, 3*7+4*9+5*11] = [52, 58, 100, 112]
X1 = [[1, 2, 3], [3, 4, 5]]
Y1 = [[6, 7], [8, 9], [10, 11]]
assert matmul(X1, Y1) == [52, 58, 100, 112]
# test_sv_remap2: X2 (3x3) times Y2 (3 rows of 4); first row:
#   12*5+7*6+3*4 = 114, 12*8+7*7+3*5 = 160, 12*1+7*3+3*9 = 60, 12*2+7*0+3*1 = 27
X2 = [[12, 7, 3], [4, 5, 6], [7, 8, 9]]
Y2 = [[5, 8, 1, 2], [6, 7, 3, 0], [4, 5, 9, 1]]
assert matmul(X2, Y2)[:4] == [114, 160, 60, 27]


def flat(m):
    return [v for row in m for v in row]


def _matrix_regs(x, y, conv=int):
    regs = {16 + i: conv(v) for i, v in enumerate(flat(x))}
    regs.update({32 + i: conv(v) for i, v in enumerate(flat(y))})
    return regs


# horizontal OR (test_sv_remap3_horizontal_or): each row of X ORed together
XOR = [[0x1, 0x10, 0x100], [0x2, 0x40, 0x300], [0x9, 0x70, 0x800], [0x3, 0x71, 0x460]]

# svindex / svshape2 programs: r0..r5 = 0..5, indices [1, 0, 5, 2, 4, 3] at r16
IDXS = [1, 0, 5, 2, 4, 3]
IDX_REGS = {**{i: i for i in range(6)}, **{16 + i: v for i, v in enumerate(IDXS)}}
VL6 = SV.make(maxvl=6, vl=6)

# test_caller_svindex test_3: the same indices as 8-bit elements packed in r16
IDX8 = sum(v << (8 * i) for i, v in enumerate(IDXS))

# parallel reduction (test_caller_svp64_parallel_reduce test_sv_remap1, preduce_y):
# vec = [1, 2, 3, 4, 9, 5, 6]; pairs (0,1) (2,3) (4,5) -> 3, 7, 14; then (0,2)
# (4,6) -> 10, 20; then (0,4) -> 30; the other elements keep their values.
REDUCE_VEC = [1, 2, 3, 4, 9, 5, 6]

# (program, initial GPRs, initial FPRs, initial SVSTATE, expected GPRs, expected FPRs)
PROGRAMS = {
    "maddld_matrix": (
        ["svshape 2, 2, 3, 0, 0", "svremap 31, 1, 2, 3, 0, 0, 0",
         "sv.maddld *0, *16, *32, *0"],
        _matrix_regs(X1, Y1), {}, 0,
        dict(enumerate(matmul(X1, Y1))), {}),
    # fmadds FRT,FRA,FRC,FRB is FRA*FRC + FRB, and REMAP's in1 in2 in3 are FRA FRB
    # FRC (openpower-isa's fmadds row): the accumulator FRB needs SVSHAPE3 (the
    # result order) and FRC (Y) SVSHAPE2, so svremap 31, 1, 3, 2
    "fmadds_matrix": (
        ["svshape 2, 2, 3, 0, 0", "svremap 31, 1, 3, 2, 0, 0, 0",
         "sv.fmadds *0, *16, *32, *0"],
        {}, _matrix_regs(X1, Y1, lambda v: fp(float(v))), 0,
        {}, {i: fp(float(v)) for i, v in enumerate(matmul(X1, Y1))}),
    # libre-soc's own test_sv_remap1 uses svremap 31, 1, 2, 3 for fmadds (as for
    # maddld RT,RA,RB,RC) and asserts nothing; its ISACaller ends with
    # f0..f3 = 18.0 21.0 40.0 45.0 (run on this machine), which isa_ext reproduces
    "fmadds_matrix_libresoc_order": (
        ["svshape 2, 2, 3, 0, 0", "svremap 31, 1, 2, 3, 0, 0, 0",
         "sv.fmadds *0, *16, *32, *0"],
        {}, _matrix_regs(X1, Y1, lambda v: fp(float(v))), 0,
        {}, {0: fp(18.0), 1: fp(21.0), 2: fp(40.0), 3: fp(45.0)}),
    "fmadds_matrix_3x4": (
        ["svshape 4, 3, 3, 0, 0", "svremap 31, 1, 3, 2, 0, 0, 0",
         "sv.fmadds *0, *16, *32, *0"],
        {}, _matrix_regs(X2, Y2, lambda v: fp(float(v))), 0,
        {}, {i: fp(float(v)) for i, v in enumerate(matmul(X2, Y2))}),
    "horizontal_or": (
        ["svshape 3, 4, 1, 0, 0", "svremap 31, 1, 3, 1, 1, 1, 0", "sv.or *0, *0, *6"],
        {6 + i: v for i, v in enumerate(flat(XOR))}, {}, 0,
        # expected[i] = reduce(or, X1[i]): 0x111 0x342 0x879 0x473
        {0: 0x111, 1: 0x342, 2: 0x879, 3: 0x473}, {}),
    "svindex_add": (
        # test_0_sv_index_add: RA indexed by r16.., RB and RT linear:
        # r(8+i) = r(idxs[i]) + r(i) = idxs[i] + i
        ["svindex 8, 1, 1, 0, 0, 0, 0", "sv.add *8, *0, *0"],
        IDX_REGS, {}, VL6, {8 + i: IDXS[i] + i for i in range(6)}, {}),
    "svindex_add_dim3": (
        # test_1_sv_index_add: dimension 3, RA = r(idxs[i % 3]) + r(i)
        ["svindex 8, 1, 3, 0, 0, 0, 0", "sv.add *8, *0, *0"],
        IDX_REGS, {}, VL6, {8 + i: IDXS[i % 3] + i for i in range(6)}, {}),
    "svindex_add_yx": (
        # test_2_sv_index_add: dimension 3, yx: RA = r(idxs[i // 3 + (i % 3) * 2]) + r(i)
        ["svindex 8, 1, 3, 0, 1, 0, 0", "sv.add *8, *0, *0"],
        IDX_REGS, {}, VL6, {8 + i: IDXS[i // 3 + (i % 3) * 2] + i for i in range(6)}, {}),
    "svindex_add_elwidth8": (
        # test_3_sv_index_add_elwidth: 8-bit indices packed in r16
        ["svindex 8, 1, 1, 3, 0, 0, 0", "sv.add *8, *0, *0"],
        {**{i: i for i in range(6)}, 16: IDX8}, {}, VL6,
        {8 + i: IDXS[i] + i for i in range(6)}, {}),
    "svshape2_offset_mod": (
        # test_caller_svshape2 (offs=1, mod=3): RA = r(1 + i % 3), RB = r(i)
        ["svshape2 1, 0, 1, 3, 0, 0", "sv.add *8, *0, *0"],
        {i: i for i in range(6)}, {}, VL6, {8 + i: 1 + i % 3 + i for i in range(6)}, {}),
    "parallel_reduce_add": (
        ["svshape 7, 1, 1, 7, 0", "svremap 31, 0, 1, 0, 0, 0, 0", "sv.add *0, *0, *0"],
        dict(enumerate(REDUCE_VEC)), {}, 0,
        dict(enumerate([30, 2, 7, 4, 20, 5, 6])), {}),
    "prefix_sum": (
        # (libre-soc writes SVme as 0o13 = 11: RA, RB, RT)
        # case_prefix_sum: inclusive scan of 1, 2, 4 ... 0x80 = 0x1 0x3 0x7 ... 0xff
        ["svshape 8, 3, 1, 0x7, 0", "svremap 11, 0, 1, 0, 1, 0, 0", "sv.add *10, *10, *10"],
        {10 + i: 1 << i for i in range(8)}, {}, 0,
        {10 + i: (2 << i) - 1 for i in range(8)}, {}),
    "prefix_scan_subf": (
        # case_scan_sub: prefix_sum(range(8), sub) = [0, -1, -3, 0, -4, 1, -5, 0] (u64)
        ["svshape 8, 3, 1, 0x7, 0", "svremap 11, 1, 0, 0, 1, 0, 0",
         "sv.subf *10, *10, *10"],
        {10 + i: i for i in range(8)}, {}, 0,
        {10 + i: v % (1 << 64) for i, v in enumerate([0, -1, -3, 0, -4, 1, -5, 0])}, {}),
}


def _sim(isa, name):
    lines, gprs, fprs, svstate, _g, _f = PROGRAMS[name]
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for r, v in gprs.items():
        sim.state.gpr[r] = v
    for r, v in fprs.items():
        sim.state.fpr[r] = v
    sim.state.svstate = svstate
    return sim


def _check(name, res):
    _l, _g, _f, _s, want_gpr, want_fpr = PROGRAMS[name]
    assert res.stop == "end", res.trap
    assert {r: res.gpr[r] for r in want_gpr} == want_gpr
    assert {r: res.state.fpr[r] for r in want_fpr} == want_fpr


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("trace", [False, True])
def test_remap_programs(svisa, name, trace):
    sim = _sim(svisa, name)
    _check(name, sim.run(max_steps=20, trace=trace))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_remap_programs_interrupted(svisa, name):
    # an interrupt inside the remapped instruction, then resume: still remapped
    for k in range(12):
        sim = _sim(svisa, name)
        sim.interrupt_after = k
        res = sim.run(max_steps=20)
        if res.stop == "interrupt":
            res = sim.run(max_steps=20)
        _check(name, res)


def test_live_isacaller(svisa, isacaller):
    from isa_ext.compat.isacaller import (Case, NGPR, NFPR, run_isacaller, run_isa_ext,
                                             compare)
    from isa_ext.asm import assemble
    cases = []
    for k, name in enumerate(sorted(PROGRAMS)):
        lines, gprs, fprs, svstate, _g, _f = PROGRAMS[name]
        words = assemble("\n".join(lines) + "\n", isa=svisa).words
        gpr = [gprs.get(i, 0) for i in range(NGPR)]
        fpr = [fprs.get(i, 0) for i in range(NFPR)]
        cases.append(Case(k, lines, words, gpr, fpr, 0, svstate))
    theirs = run_isacaller(isacaller.root, cases)
    for case, t in zip(cases, theirs):
        assert compare(run_isa_ext(svisa, case), t) == [], case.lines


# svstep SVi 1..4 (the REMAP index of SVSHAPE0..3): openpower-isa's
# test_caller_setvl.py test_svstep_inner_loop_8_jl ("FFT triple butterfly mode
# with persistent REMAP"): sv.svstep *0, 0, 1, 1 (SVSHAPE0: j + halfsize) and
# sv.svstep *16, 0, 3, 1 (SVSHAPE2: k in exptable[k]); its expectations:
J_H = [0, 2, 4, 6, 0, 1, 4, 5, 0, 1, 2, 3]
K_E = [0, 0, 0, 0, 0, 2, 0, 2, 0, 1, 2, 3]
SVSTEP_REMAP = ["svshape 8, 1, 1, 1, 0", "svremap 0, 0, 0, 2, 0, 1, 1",
                "sv.svstep *0, 0, 1, 1", "sv.svstep *16, 0, 3, 1"]


@pytest.mark.parametrize("trace", [False, True])
def test_svstep_remap_index(svisa, trace):
    sim = Simulator(isa=svisa)
    sim.load_asm("\n".join(SVSTEP_REMAP) + "\n")
    res = sim.run(max_steps=10, trace=trace)
    assert res.stop == "end", res.trap
    assert res.gpr[0:12] == J_H and res.gpr[16:28] == K_E
    sv = sim.state.svstate
    assert (SV.get(sv, "vl"), SV.get(sv, "maxvl"), SV.get(sv, "srcstep"),
            SV.get(sv, "dststep"), SV.get(sv, "vfirst")) == (12, 12, 0, 0, 0)


# Prefixed svstep REMAP index modes with Rc=1 and with vf=0.  Values from
# openpower-isa 3cb597b9's ISACaller, run on this machine (the live test below
# repeats the runs), except where noted; J_H and K_E are test_caller_setvl.py's.
# HF sv.svstep.: CR0 is written per element (the page's CR[32:35]), the last
# element's stands: NOT(its schedule's loop ends) || whether a step ends the
# loop -- at step 11 of the FFT-8 schedule every loop ends: 0b0001.
# ~r30 = bits 0 3 6 8 9 11 (r30 = 0b0100_1011_0110): K_E at those steps.
FFT8 = ["svshape 8, 1, 1, 1, 0", "svremap 0, 0, 0, 2, 0, 1, 1"]
FFT8_VF = ["svshape 8, 1, 1, 1, 1", "svremap 31, 1, 0, 2, 0, 1, 1"]
SVSTEP_FORMS = [
    ("hf_rc1", FFT8 + ["sv.svstep. *0, 0, 1, 1", "mfcr 24"],
     {0: J_H}, {24: 0x10000000}, (0, 0)),
    ("hf_rc1_svshape2_pred", FFT8 + ["sv.svstep./m=~r30 *0, 0, 3, 1", "mfcr 24"],
     {0: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3]}, {24: 0x10000000}, (0, 0)),
    # vertical-first, SVme=31: svstep's own RT is remapped too (out: SVSHAPE0, j,
    # at dststep).  sv.svstep. *0,0,1,1 reads j at step 0 (0) into r0, CR0 0b1100
    # (the size-2 pass's inner loop ends at every step); svstep. 20,0,2,0 steps
    # (r20 = 0); sv.svstep. *0,0,2,1 at step 1: j+halfsize = 3 into r(j=2),
    # CR0 0b1100; three steps (r21..r23 = 2, 4, 6: j at steps 1..3); at step 4
    # sv.svstep. *0,0,3,1 reads k = 0 into r(j=0), CR0 0b1110 (no loop ends at
    # the first element of the size-4 pass)
    ("vf_rc1", FFT8_VF + ["sv.svstep. *0, 0, 1, 1", "mfcr 24", "svstep. 20, 0, 2, 0",
                          "mfcr 25", "sv.svstep. *0, 0, 2, 1", "mfcr 26",
                          "svstep. 21, 0, 2, 0", "svstep. 22, 0, 2, 0",
                          "svstep. 23, 0, 2, 0", "sv.svstep. *0, 0, 3, 1", "mfcr 27"],
     {0: [0, 0, 3, 0], 20: [0, 2, 4, 6]},
     {24: 0xC0000000, 25: 0xC0000000, 26: 0xC0000000, 27: 0xE0000000}, (4, 1)),
    # vertical-first vf=0 steps, as the plain form: step 0 -> 1, then
    # sv.svstep. *0,0,2,0 at step 1 writes 3 into r2 and steps to 2
    ("vf_vf0", FFT8_VF + ["sv.svstep *0, 0, 1, 0", "mfcr 24", "sv.svstep. *0, 0, 2, 0",
                          "mfcr 25"],
     {0: [0, 0, 3, 0]}, {24: 0, 25: 0xC0000000}, (2, 1)),
    # a VF loop on sv.svstep. SVi 3 (k), vf=0: k at steps 0..11 into r(j):
    # the last write to each of r0..r3 wins; the loop ends with CR0 SO
    ("vf_loop", FFT8_VF + ["loop:", "sv.svstep. *0, 0, 3, 0", "mfcr 24", "bc 4, 3, loop",
                           "mfcr 25"],
     {0: [0, 1, 2, 3, 0, 2, 0, 0]}, {24: 0x10000000, 25: 0x10000000}, (0, 0)),
    # vf=0 steps for srcstep/dststep reads too (VF): steps 0 -> 1 -> 2 -> 3,
    # dststep 1 into r9
    ("vf_vf0_steps", ["setvl 0, 0, 4, 1, 1, 1", "sv.svstep *8, 0, 5, 0",
                      "sv.svstep. *8, 0, 6, 0", "mfcr 24", "sv.svstep. *8, 0, 7, 0",
                      "mfcr 25"],
     {8: [0, 1, 0, 0]}, {24: 0, 25: 0}, (3, 1)),
]
SVSTEP_INIT = {30: 0b0100_1011_0110}


def _svstep_run(isa, lines, trace=False, interrupt_after=None):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for r, v in SVSTEP_INIT.items():
        sim.state.gpr[r] = v
    if interrupt_after is not None:
        sim.interrupt_after = interrupt_after
    res = sim.run(max_steps=200, trace=trace)
    if res.stop == "interrupt":
        res = sim.run(max_steps=200)
    return sim, res


@pytest.mark.parametrize("mode", ["plain", "trace", "interrupt"])
@pytest.mark.parametrize("name,lines,gprs,crs,steps", SVSTEP_FORMS,
                         ids=[f[0] for f in SVSTEP_FORMS])
def test_svstep_remap_prefixed_forms(svisa, mode, name, lines, gprs, crs, steps):
    sim, res = _svstep_run(svisa, lines, trace=mode == "trace",
                           interrupt_after=5 if mode == "interrupt" else None)
    assert res.stop == "end", res.trap
    for base, want in gprs.items():
        assert res.gpr[base:base + len(want)] == want, base
    for r, want in crs.items():
        assert res.gpr[r] == want, r
    sv = sim.state.svstate
    assert (SV.get(sv, "srcstep"), SV.get(sv, "vfirst")) == steps


def test_svstep_remap_hf_vf0_reads_per_element(svisa):
    # horizontal-first, prefixed, vf=0: the element loop steps, so every element
    # reads its step's index as with vf=1 (J_H), the steps end at 0.  ISACaller
    # runs one element and steps once instead (r0 = 0, srcstep 1: docs/compat.md)
    sim, res = _svstep_run(svisa, FFT8 + ["sv.svstep *0, 0, 1, 0"])
    assert res.stop == "end" and res.gpr[0:12] == J_H
    assert SV.get(sim.state.svstate, "srcstep") == 0


def test_svstep_remap_hf_rc1_end_respects_the_predicate(svisa):
    # sv.svstep./m=r30 *0,0,2,1 (SVSHAPE1: j+halfsize 1 3 5 7 | 2 3 6 7 | 4 5 6 7)
    # with r30 = bits 1 2 4 5 7 10: r1 3, r2 5, r4 2, r5 3, r7 7, r10 6 (ISACaller
    # agrees).  CR0 of the last element (step 10): no loop ends there (LT GT EQ);
    # SO: no enabled element follows, so a step ends the loop -> 0b1111.
    # ISACaller gives 0b1110 (its end test ignores the mask: docs/compat.md)
    sim, res = _svstep_run(svisa, FFT8 + ["sv.svstep./m=r30 *0, 0, 2, 1"])
    assert res.stop == "end"
    assert res.gpr[0:12] == [0, 3, 5, 0, 2, 3, 0, 7, 0, 0, 6, 0]
    assert sim.state.cr[0] == 0b1111


# REMAP not persistent (RMpst=0): the svstep appendix defines SVi 1..4 from
# the SVSHAPE alone, so a one-shot svremap gives the same indices as the
# persistent program (ISACaller agrees: test_svstep_remap_index_live), and so
# does no svremap at all: SVSHAPE1 of "svshape 8, 1, 1, 1, 0" is the FFT's
# j + halfsize -- size 2: j = 0 2 4 6 -> 1 3 5 7; size 4: j = 0 1 4 5 -> 2 3 6 7;
# size 8: j = 0..3 -> 4..7 (ISACaller returns the indices it last computed,
# all 1 here: docs/compat.md)
SVSTEP_ONE_SHOT = ["svshape 8, 1, 1, 1, 0", "svremap 0, 0, 0, 2, 0, 1, 0",
                   "sv.svstep *0, 0, 1, 1", "sv.svstep *16, 0, 3, 1"]
J_PLUS_HALF = [1, 3, 5, 7, 2, 3, 6, 7, 4, 5, 6, 7]


def test_svstep_remap_index_not_persistent(svisa):
    res = all_modes(svisa, SVSTEP_ONE_SHOT, {})
    assert res.stop == "end", res.trap
    assert res.gpr[0:12] == J_H and res.gpr[16:28] == K_E
    assert SV.get(res.state.svstate, "RMpst") == 0


def test_svstep_remap_index_without_svremap(svisa):
    res = all_modes(svisa, ["svshape 8, 1, 1, 1, 0", "sv.svstep *0, 0, 2, 1"], {})
    assert res.stop == "end", res.trap
    assert res.gpr[0:12] == J_PLUS_HALF


def test_svstep_remap_prefixed_forms_live(svisa, isacaller):
    from isa_ext.compat.isacaller import Case, NGPR, NFPR, run_isacaller, run_isa_ext, \
        compare
    from isa_ext.asm import assemble
    gpr = [0] * NGPR
    for r, v in SVSTEP_INIT.items():
        gpr[r] = v
    cases = [Case(k, lines, assemble("\n".join(lines) + "\n", isa=svisa).words, gpr,
                  [0] * NFPR, 0, 0) for k, (_n, lines, *_rest) in enumerate(SVSTEP_FORMS)]
    theirs = run_isacaller(isacaller.root, cases)
    for case, t in zip(cases, theirs):
        assert compare(run_isa_ext(svisa, case), t) == [], case.lines


def test_svstep_remap_index_live(svisa, isacaller):
    from isa_ext.compat.isacaller import (Case, NGPR, NFPR, run_isacaller, run_isa_ext,
                                             compare)
    from isa_ext.asm import assemble
    cases = [Case(k, lines, assemble("\n".join(lines) + "\n", isa=svisa).words,
                  [0] * NGPR, [0] * NFPR, 0, 0)
             for k, lines in enumerate((SVSTEP_REMAP, SVSTEP_ONE_SHOT))]
    for case, theirs in zip(cases, run_isacaller(isacaller.root, cases)):
        assert compare(run_isa_ext(svisa, case), theirs) == [], case.lines
