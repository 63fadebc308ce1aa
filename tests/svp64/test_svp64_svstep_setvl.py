"""setvl. CR0 (with SO on VL overflow) and unprefixed svstep's modes.

setvl: openpower-isa's simplev.mdwn computes ``overflow`` (RA or CTR above 127,
or VL clipped to MAXVL) and the libre-soc setvl page says of it "sets CR.SO if
set and if Rc=1"; CR0's LT/GT/EQ compare VL with 0.  Expected values are
openpower-isa's test_caller_setvl.py expectations (test names cited).

svstep: SVSTATE_NEXT(SVi, vf) returns what SVi asks for, read before any step
(libre-soc's svstep appendix: 1..4 the REMAP index of SVSHAPE0..3, 5..8
srcstep/dststep/ssubstep/dsubstep, otherwise 0).  An unprefixed svstep steps
when vf=0 and only reads when vf=1; ``svstep.`` writes CR0 = NOT(the REMAP
schedule's loop-end flags, outer/middle/inner as LT/GT/EQ) || end-of-loop.
Expected values: test_caller_setvl.py expectations and, for the per-step
traces, openpower-isa 3cb597b9's ISACaller run on the same programs (each
prefix of the program run separately, r/CR0/steps printed after it).
"""
import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

LT, GT, EQ, SO = 8, 4, 2, 1


@pytest.fixture(scope="module")
def svisa():
    return ISA(extensions=["base", "svp64"])


def run(isa, lines, gpr=None, svstate=0, ctr=None, trace=False):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for i, v in (gpr or {}).items():
        sim.state.gpr[i] = v
    sim.state.svstate = svstate
    if ctr is not None:
        sim.state.spr_write(9, ctr)
    res = sim.run(max_steps=100, trace=trace)
    assert res.stop == "end", res.trap
    return sim.state


def steps(state):
    sv = state.svstate
    return tuple(SV.get(sv, f) for f in ("vl", "maxvl", "srcstep", "dststep", "vfirst"))


MVL5 = SV.put(0, "maxvl", 5)


@pytest.mark.parametrize("trace", [False, True])
@pytest.mark.parametrize("name, line, gpr, ctr, want_steps, want_rt, want_cr0", [
    # (test name in test_caller_setvl.py, ...): RT is r5 unless said
    ("test_1_setvl_zero_rc1", "setvl. 5, 4, 5, 0, 1, 1", {4: 0}, None, (0, 5), 0, EQ),
    ("test_2_setvl_nonzero_rc1", "setvl. 5, 4, 5, 0, 1, 1", {4: 4}, None, (4, 5), 4, GT),
    # RA=1000 > 127: VL clipped (to 127, then MAXVL) and overflow -> SO
    ("test_3_setvl_overflow_rc1", "setvl. 5, 4, 5, 0, 1, 1", {4: 1000}, None, (5, 5), 5,
     GT | SO),
    ("test_4_setvl_max_overflow_rc1", "setvl. 5, 4, 127, 0, 1, 1", {4: 1000}, None,
     (127, 127), 127, GT | SO),
    # RA=127 fits VL's 7 bits but exceeds MAXVL=5: overflow too
    ("test_5_setvl_rt0_rc1", "setvl. 0, 4, 5, 0, 1, 1", {4: 127}, None, (5, 5), 0, GT | SO),
    # RA=0, RT!=0: VL from CTR, 0x1000000000 > 127 -> 127, clipped to MAXVL=10 (r1 = RT)
    ("test_setvl_ctr_2_rc1", "setvl. 1, 0, 10, 0, 1, 1", {}, 0x1000000000, (10, 10), 10,
     GT | SO),
])
def test_setvl_rc1_cr0(svisa, trace, name, line, gpr, ctr, want_steps, want_rt, want_cr0):
    s = run(svisa, [line], gpr, MVL5, ctr, trace)
    rt = 1 if "ctr" in name else 5
    assert steps(s)[:2] == want_steps
    assert s.gpr[rt] == want_rt if "rt0" not in name else s.gpr[0] == 0
    assert s.cr[0] == want_cr0


def test_setvl_without_rc_leaves_cr0(svisa):
    s = run(svisa, ["setvl 5, 4, 5, 0, 1, 1"], {4: 1000}, MVL5)
    assert steps(s)[:2] == (5, 5) and s.cr[0] == 0


# -- svstep ------------------------------------------------------------------------------

@pytest.mark.parametrize("trace", [False, True])
def test_svstep_mode0_steps_and_returns_zero(svisa, trace):
    # test_caller_setvl.py test_svstep_1: two "svstep 0, 0, 1, 0" (SVi field 0, vf=0)
    # after setvl VL=MAXVL=10 vertical-first: steps 2, r0 stays 0
    s = run(svisa, ["setvl 0, 0, 10, 1, 1, 1", "svstep 0, 0, 1, 0", "svstep 0, 0, 1, 0"],
            trace=trace)
    assert steps(s) == (10, 10, 2, 2, 1) and s.gpr[0] == 0
    # test_svstep_add_1: "svstep. 3, 0, 1, 0" at the end of a VL=2 loop leaves r3 = 0
    s = run(svisa, ["setvl 0, 0, 2, 1, 1, 1", "svstep. 0, 0, 1, 0", "svstep. 3, 0, 1, 0"],
            {3: 0x77}, trace=trace)
    assert steps(s) == (2, 2, 0, 0, 0) and s.gpr[3] == 0 and s.cr[0] == SO


# ISACaller, VL=3 vertical-first (setvl 0,0,3,1,1,1), then "svstep. 12, 0, 6, 0" (SVi 5:
# srcstep) four times: r12 = 0, 1, 2 then 0; steps 1, 2, end (0, vfirst 0), then 1 again
# (vf=0 steps even outside vertical-first mode); CR0 0, 0, SO, 0
@pytest.mark.parametrize("count, r12, src, vfirst, cr0", [
    (1, 0, 1, 1, 0), (2, 1, 2, 1, 0), (3, 2, 0, 0, SO), (4, 0, 1, 0, 0)])
def test_svstep_srcstep_mode_reads_then_steps(svisa, count, r12, src, vfirst, cr0):
    s = run(svisa, ["setvl 0, 0, 3, 1, 1, 1"] + ["svstep. 12, 0, 6, 0"] * count, {12: 0x55})
    assert (s.gpr[12], SV.get(s.svstate, "srcstep"), SV.get(s.svstate, "vfirst"), s.cr[0]) \
        == (r12, src, vfirst, cr0)


def test_svstep_vf1_reads_without_stepping(svisa):
    # ISACaller: "svstep. 12, 0, 1, 1" (SVi 0, vf=1) three times at VL=3: no step, r12 = 0,
    # CR0 = 0; "svstep. 12, 0, 7, 1" (SVi 6: dststep) twice: no step, r12 = 0
    s = run(svisa, ["setvl 0, 0, 3, 1, 1, 1"] + ["svstep. 12, 0, 1, 1"] * 3, {12: 0x55})
    assert steps(s) == (3, 3, 0, 0, 1) and s.gpr[12] == 0 and s.cr[0] == 0
    s = run(svisa, ["setvl 0, 0, 3, 1, 1, 1"] + ["svstep. 12, 0, 7, 1"] * 2, {12: 0x55})
    assert steps(s) == (3, 3, 0, 0, 1) and s.gpr[12] == 0
    # ISACaller, VL=2: after one step, the read form at the last element ends the loop
    # (steps 0, vfirst 0, CR0 SO), and "svstep 4, 0, 6, 1" then reads srcstep 0
    s = run(svisa, ["setvl 0, 0, 2, 1, 1, 1", "svstep. 3, 0, 1, 0", "svstep. 3, 0, 1, 1",
                    "svstep 4, 0, 6, 1"], {3: 0x55, 4: 0x55})
    assert steps(s) == (2, 2, 0, 0, 0) and s.cr[0] == SO and (s.gpr[3], s.gpr[4]) == (0, 0)


# FFT 8 triple butterfly under persistent REMAP, vertical-first (test_caller_setvl.py
# test_svstep_inner_loop_*): "svstep. 0, 0, 2, 0" is SVi 1, the SVSHAPE0 (j) schedule
# 0, 2, 4, 6 | 0, 1, 4, 5 | ...: r0 is the index before the step; CR0 is NOT(loop ends)
# || end.  ISACaller, after 1..5 such svsteps: r0 0, 2, 4, 6, 0 and CR0 0b1100 (inner
# loop ends each step of the size-2 pass), 0b1100, 0b1100, 0b1000 (inner and middle end
# at j=6), 0b1110 (none ends at the first element of the size-4 pass); steps 1..5.
# test_svstep_inner_loop_3 expects r0 = 4, LT GT set, after three.
FFT_VF = ["svshape 8, 1, 1, 1, 1", "svremap 31, 1, 0, 2, 0, 1, 1"]


@pytest.mark.parametrize("trace", [False, True])
@pytest.mark.parametrize("count, r0, cr0", [
    (1, 0, LT | GT), (2, 2, LT | GT), (3, 4, LT | GT), (4, 6, LT), (5, 0, LT | GT | EQ)])
def test_svstep_remap_index_and_step(svisa, trace, count, r0, cr0):
    s = run(svisa, FFT_VF + ["svstep. 0, 0, 2, 0"] * count, {0: 0x55}, trace=trace)
    assert (s.gpr[0], s.cr[0]) == (r0, cr0)
    assert steps(s) == (12, 12, count, count, 1)


def test_svstep_remap_read_forms(svisa):
    # ISACaller, after four "svstep. 0, 0, 2, 0" of the FFT above (step 4): "svstep. 5, 0,
    # 2, 1" (SVSHAPE0, read) r5 = 0, CR0 0b1110, no step; "svstep. 6, 0, 4, 1" (SVSHAPE2:
    # k) r6 = 0, CR0 0b1110; "svstep. 7, 0, 5, 0" (SVSHAPE3, all zero after svshape: every
    # loop ends) r7 = 0, CR0 0, step to 5; "svstep. 8, 0, 3, 0" (SVSHAPE1: j + halfsize
    # at step 5) r8 = 3, CR0 0b1100, step to 6
    base = FFT_VF + ["svstep. 0, 0, 2, 0"] * 4
    for extra, reg, value, cr0, src in [
            (["svstep. 5, 0, 2, 1"], 5, 0, LT | GT | EQ, 4),
            (["svstep. 5, 0, 2, 1", "svstep. 6, 0, 4, 1"], 6, 0, LT | GT | EQ, 4),
            (["svstep. 7, 0, 5, 0"], 7, 0, 0, 5),
            (["svstep. 7, 0, 5, 0", "svstep. 8, 0, 3, 0"], 8, 3, LT | GT, 6)]:
        s = run(svisa, base + extra, {reg: 0x55})
        assert (s.gpr[reg], s.cr[0], SV.get(s.svstate, "srcstep")) == (value, cr0, src), extra
