"""When REMAP applies, and what traps instead of running un-remapped.

openpower-isa's ISACaller (caller.py, snapshot 3cb597b9) remaps an SVP64
instruction when SVme is non-zero and either RMpst is set or the last
*non-SVP64* instruction was svremap, svindex or svshape2 (its
``last_op_svshape``, updated only by non-SVP64 instructions: consecutive SVP64
instructions after svremap are all remapped).  An operand whose SVSHAPE is 0
is not remapped (ISACaller: 'zero is "disabled"').  The programs below use svshape2's "offset 1, modulo 3" shape
on RA (test_caller_svshape2.py): remapped, ``sv.add *8, *0, *0`` with
r0..r5 = 0..5 gives r(8+i) = r(1 + i % 3) + r(i) = 1 + i % 3 + i; plain it
gives 2i.  test_live_isacaller runs them all through ISACaller."""
import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

VL6 = SV.make(maxvl=6, vl=6)
REGS = {i: i for i in range(6)}
REMAPPED = [1 + i % 3 + i for i in range(6)]
PLAIN = [2 * i for i in range(6)]
SHAPE = "svshape2 1, 0, 1, 3, 0, 0"

# name: (program, {first result register: expected r(n..n+5)})
PROGRAMS = {
    "next_instruction": ([SHAPE, "sv.add *8, *0, *0"], {8: REMAPPED}),
    "consecutive_svp64": ([SHAPE, "sv.add *8, *0, *0", "sv.add *16, *0, *0"],
                          {8: REMAPPED, 16: REMAPPED}),
    "scalar_insn_ends_it": ([SHAPE, "sv.add *8, *0, *0", "addi 30, 30, 1",
                             "sv.add *16, *0, *0"], {8: REMAPPED, 16: PLAIN}),
    "scalar_insn_between": ([SHAPE, "addi 30, 30, 1", "sv.add *8, *0, *0"], {8: PLAIN}),
    "svremap_rearms": ([SHAPE, "addi 30, 30, 1", "svremap 1, 0, 0, 0, 0, 0, 0",
                        "sv.add *8, *0, *0"], {8: REMAPPED}),
    "persistent": ([SHAPE, "svremap 1, 0, 0, 0, 0, 0, 1", "addi 30, 30, 1",
                    "sv.add *8, *0, *0", "addi 30, 30, 1", "sv.add *16, *0, *0"],
                   {8: REMAPPED, 16: REMAPPED}),
    # vertical-first loop under persistent REMAP: the same elements as HF
    # (setvl first: it rewrites SVSTATE's REMAP fields, in ISACaller too)
    "vertical_first": (["setvl 0, 0, 6, 1, 1, 1", SHAPE, "svremap 1, 0, 0, 0, 0, 0, 1",
                        "loop: sv.add *8, *0, *0", "svstep. 0, 0, 1, 0", "bc 4, 3, loop"],
                       {8: REMAPPED}),
    # one-shot REMAP in a vertical-first loop: bc (non-SVP64) ends it, so only
    # the first element (r8 = r1 + r0) is remapped, the others add r(i) + r(i)
    "vertical_first_one_shot": ([SHAPE, "setvl 0, 0, 6, 1, 1, 1", "svremap 1, 0, 0, 0, 0, 0, 0",
                                 "loop: sv.add *8, *0, *0", "svstep. 0, 0, 1, 0",
                                 "bc 4, 3, loop"], {8: [1] + PLAIN[1:]}),
    # slots are the decoder's register ports (openpower-isa's RM tables,
    # decoder/svp64/remap_ports.txt): xor RA,RS,RB reads RS on in1, so RS is
    # remapped: r(8+i) = r(1 + i % 3) ^ r(16+i) (r16.. = 0)
    "port_xor_rs_in1": ([SHAPE, "sv.xor *8, *0, *16"], {8: [1 + i % 3 for i in range(6)]}),
    # rldcl RA,RS,RB,mb has RB on in2 and RS on in3, nothing on in1: SVme=in1
    # remaps nothing (rotate by r16.. = 0: r(8+i) = r(i)) ...
    "port_rldcl_no_in1": ([SHAPE, "sv.rldcl *8, *0, *16, 0"], {8: list(range(6))}),
    # ... and SVme=in3 (svremap 4, mi2=0) remaps RS: r(8+i) = r(1 + i % 3)
    "port_rldcl_rs_in3": ([SHAPE, "svremap 4, 0, 0, 0, 0, 0, 0", "sv.rldcl *8, *0, *16, 0"],
                          {8: [1 + i % 3 for i in range(6)]}),
    # svshape clears SVme (RMpst=0) and is not a REMAP-arming instruction
    "svshape_clears": ([SHAPE, "svshape 6, 1, 1, 0, 0", "sv.add *8, *0, *0"], {8: PLAIN}),
    # every operand enabled, all SVSHAPEs 0: ISACaller's 'zero is "disabled"',
    # nothing remapped (r(8+i) = r(1+i) + r(1+i)); not in the live comparison,
    # docs/errata.md SV-11
    "zero_shapes": (["svremap 31, 0, 1, 2, 3, 0, 1", "sv.add *8, *1, *1"],
                    {8: [2, 4, 6, 8, 10, 0]}),  # r6 = 0
}


def _sim(isa, lines, svstate=VL6):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for r, v in REGS.items():
        sim.state.gpr[r] = v
    sim.state.svstate = svstate
    return sim


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("trace", [False, True])
def test_when_remap_applies(svisa, name, trace):
    lines, want = PROGRAMS[name]
    res = _sim(svisa, lines).run(max_steps=40, trace=trace)
    assert res.stop == "end", res.trap
    for base, values in want.items():
        assert res.gpr[base:base + 6] == values, base


def test_remap_fields_from_mtspr_do_not_apply(svisa):
    # mtspr is a non-SVP64 instruction: without RMpst the next SVP64 instruction
    # is not remapped, whatever SVme says (ISACaller's last_op_svshape is False)
    sim = _sim(svisa, [SHAPE, "mtspr 720, 30", "sv.add *8, *0, *0"])
    sim.state.gpr[30] = SV.put(VL6, "SVme", 1)
    res = sim.run(max_steps=10)
    assert res.stop == "end" and res.gpr[8:14] == PLAIN


# openpower-isa's RM tables key the minor_63 FP rows "XO/XO=name" (`1/8=fneg`
# in RM-1P-1S1D.csv); their ports are read by name like any other row's:
# fneg fmr fabs fnabs (and fcti* frsp ...) have FRB on in2 and nothing on in1.
# Found by the live differential: `svshape 1,2,2,0,0; svremap 19,2,0,2,1,3,0;
# sv.fneg *76, *1` took FRB through SVSHAPE2 (in1's) here, SVSHAPE0 (in2's)
# in ISACaller, so f77/f78 were swapped.  Hand-derived with SHAPE's schedule
# 1 2 3 1 2 3 on SVSHAPE0, f0..f5 = 1.0 .. 6.0 (0x3ff0.., 0x4000.., ...):
FP_PORT_PROGRAMS = [
    # SVme = in2 (2): FRB remapped, f(8+i) = -f(1 + i % 3)
    ("fneg_frb_in2", "svremap 2, 0, 0, 0, 0, 0, 0", "sv.fneg *8, *0", [1, 2, 3, 1, 2, 3], True),
    # SVme = in1 (1): fmr has no in1 register, nothing remapped: f(8+i) = f(i)
    ("fmr_no_in1", "svremap 1, 0, 0, 0, 0, 0, 0", "sv.fmr *8, *0", list(range(6)), False),
    # fcpsgn FRT,FRA,FRB: FRA on in1, FRB on in2: SVme = in2 remaps the
    # magnitude (all signs +): f(8+i) = f(1 + i % 3)
    ("fcpsgn_frb_in2", "svremap 2, 0, 0, 0, 0, 0, 0", "sv.fcpsgn *8, *0, *0",
     [1, 2, 3, 1, 2, 3], False),
]
FP_ONES = [0x3FF0000000000000, 0x4000000000000000, 0x4008000000000000,
           0x4010000000000000, 0x4014000000000000, 0x4018000000000000]  # 1.0 .. 6.0


@pytest.mark.parametrize("name,remap,line,sources,negated", FP_PORT_PROGRAMS)
@pytest.mark.parametrize("trace", [False, True])
def test_fp_rows_take_their_ports_by_name(svisa, name, remap, line, sources, negated, trace):
    sim = _sim(svisa, [SHAPE, remap, line])
    sim.state.fpr[0:6] = FP_ONES
    res = sim.run(max_steps=10, trace=trace)
    assert res.stop == "end", res.trap
    sign = (1 << 63) if negated else 0
    assert list(sim.state.fpr[8:14]) == [FP_ONES[k] | sign for k in sources]


def test_fp_ports_live_isacaller(svisa, isacaller):
    from isa_ext.asm import assemble
    from isa_ext.compat.isacaller import Case, NGPR, NFPR, run_isacaller, run_isa_ext, compare
    cases = []
    for k, (name, remap, line, _s, _n) in enumerate(FP_PORT_PROGRAMS):
        lines = [SHAPE, remap, line]
        words = assemble("\n".join(lines) + "\n", isa=svisa).words
        fpr = FP_ONES + [0] * (NFPR - 6)
        cases.append(Case(k, lines, words, [0] * NGPR, fpr, 0, VL6))
    theirs = run_isacaller(isacaller.root, cases)
    for case, t in zip(cases, theirs):
        assert compare(run_isa_ext(svisa, case), t) == [], case.lines


def test_live_isacaller(svisa, isacaller):
    from isa_ext.asm import assemble
    from isa_ext.compat.isacaller import (Case, NGPR, NFPR, run_isacaller, run_isa_ext,
                                             compare)
    cases = []
    for k, name in enumerate(sorted(set(PROGRAMS) - {"zero_shapes"})):
        lines, _want = PROGRAMS[name]
        words = assemble("\n".join(lines) + "\n", isa=svisa).words
        gpr = [REGS.get(i, 0) for i in range(NGPR)]
        cases.append(Case(k, lines, words, gpr, [0] * NFPR, 0, VL6))
    theirs = run_isacaller(isacaller.root, cases)
    for case, t in zip(cases, theirs):
        assert compare(run_isa_ext(svisa, case), t) == [], case.lines


# LD/ST under REMAP (remap.mdwn: "This even includes unit-strided LD/ST ...
# it will be the offset that is remapped"; SVme bit 4: "Effective Address /
# FRS (LD/ST-with-update has an implicit 2nd write register, RA)").  SHAPE
# maps RA's slot (in1) with the schedule 1 2 3 1 2 3 (offset 1, size 3), so a
# unit-strided access's element offset i becomes 1 2 3 1 2 3 (stores: at
# dststep, memory being their destination).  Every value derived by hand:
SCHED = [1, 2, 3, 1, 2, 3]
DATA = {8 + i: 0x100 + i for i in range(6)}
LDST_REMAP = [
    # std: EA_k = r3 + 8 + 8*SCHED[k]: r8..r10 at +16 +24 +32, then r11..r13
    # over them
    ("std_unit", [SHAPE, "sv.std *8, 8(3)"], {3: 0x2000, **DATA},
     {0x2008: 0, 0x2010: 0x103, 0x2018: 0x104, 0x2020: 0x105, 0x2028: 0}, {}),
    # /els: EA_k = r3 + 8*SCHED[k]: +8 +16 +24 get r11 r12 r13
    ("std_els", [SHAPE, "sv.std/els *8, 8(3)"], {3: 0x2000, **DATA},
     {0x2000: 0, 0x2008: 0x103, 0x2010: 0x104, 0x2018: 0x105, 0x2020: 0}, {}),
    # twin predication: dm = r30 = 0b110110 pairs (s0,d1) (s1,d2) (s2,d4)
    # (s3,d5); the offset follows dststep: SCHED[1 2 4 5] = 2 3 2 3 -> r8 r9
    # at +24 +32, then r10 r11 over them
    ("std_twin", [SHAPE, "sv.std/dm=r30 *8, 8(3)"], {3: 0x2000, 30: 0b110110, **DATA},
     {0x2010: 0, 0x2018: 0x102, 0x2020: 0x103}, {}),
    # stdu (strided update form: RA gets each EA and the next element re-reads
    # it): EA_k = EA_(k-1) + 8 + 8*SCHED[k] = +0x10 +0x28 +0x48 +0x58 +0x70 +0x90
    ("stdu_unit", [SHAPE, "sv.stdu *8, 8(3)"], {3: 0x2000, **DATA},
     {0x2010: 0x100, 0x2028: 0x101, 0x2048: 0x102, 0x2058: 0x103, 0x2070: 0x104,
      0x2090: 0x105, 0x2018: 0}, {3: 0x2090}),
    # ldu, scalar RA, the same EAs (memory holds each doubleword's address)
    ("ldu_unit", [SHAPE, "sv.ldu *8, 8(16)"], {16: 0x4000}, {},
     {8: 0x4010, 9: 0x4028, 10: 0x4048, 11: 0x4058, 12: 0x4070, 13: 0x4090, 16: 0x4090}),
    # ldu with a vector RA (r16+k = 0x4000 + 0x100*k): read through RA's slot
    # (r16+SCHED[k]), written in step order (out2 unmapped), in program order:
    # k0 r17+8 = 0x4108 -> r16; k1 r18+8 -> r17; k2 r19+8 -> r18; k3 r17+8 =
    # 0x4210 -> r19; k4 r18+8 = 0x4310 -> r20; k5 r19+8 = 0x4218 -> r21
    ("ldu_vector_ra", [SHAPE, "sv.ldu *8, 8(*16)"],
     {16 + i: 0x4000 + 0x100 * i for i in range(6)}, {},
     {8: 0x4108, 9: 0x4208, 10: 0x4308, 11: 0x4210, 12: 0x4310, 13: 0x4218,
      16: 0x4108, 17: 0x4208, 18: 0x4308, 19: 0x4210, 20: 0x4310, 21: 0x4218}),
    # /pi with RT remapped (SVme bit 3, svshape2 rmm=8): accesses at r16 before
    # each update, RT = r(8 + SCHED[k]): r9 r10 r11 get 0x4018 0x4020 0x4028
    ("ldu_pi_rt", ["svshape2 1, 0, 8, 3, 0, 0", "sv.ldu/pi *8, 8(16)"], {16: 0x4000}, {},
     {8: 0, 9: 0x4018, 10: 0x4020, 11: 0x4028, 12: 0, 16: 0x4030}),
]


@pytest.mark.parametrize("mode", ["plain", "trace", "interrupt"])
@pytest.mark.parametrize("name,lines,regs,mem,want", LDST_REMAP,
                         ids=[c[0] for c in LDST_REMAP])
def test_ldst_under_remap(svisa, mode, name, lines, regs, mem, want):
    for k in ((1, 3, 5) if mode == "interrupt" else (None,)):
        sim = Simulator(isa=svisa)
        sim.load_asm("\n".join(lines) + "\n")
        for r, v in regs.items():
            sim.state.gpr[r] = v
        for a in range(0x4000, 0x4600, 8):
            sim.state.mem.write(a, 8, a)
        sim.state.svstate = VL6
        sim.interrupt_after = k
        res = sim.run(max_steps=20, trace=mode == "trace")
        while res.stop == "interrupt":
            res = sim.run(max_steps=20)
        assert res.stop == "end", res.trap
        assert {a: sim.state.mem.read(a, 8) for a in mem} == mem
        assert {r: res.gpr[r] for r in want} == want


def test_category_executor_traps_under_remap(isa):
    # sv.mv.swiz (MVRM category executor) does not implement REMAP
    sim = _sim(isa, [SHAPE, 'sv.mv.swiz/vec2 *8, *16, "YX"'])
    res = sim.run(max_steps=10)
    assert res.stop == "trap" and "REMAP is not implemented for sv.mv.swiz" in \
        res.trap.reason and res.trap.pc == 0x1004
    assert res.gpr[8:12] == [0, 0, 0, 0]


def test_remap_mask_covers_exactly_the_remap_fields():
    # every REMAP field sets a bit of the mask; no other SVSTATE field does
    for name in SV.FIELDS:
        v = SV.put(0, name, 1)
        remap = name in ("mi0", "mi1", "mi2", "mo0", "mo1", "SVme", "RMpst")
        assert bool(v & SV.REMAP_MASK) == remap, name
        assert bool(v & SV.SVME_MASK) == (name == "SVme"), name
        assert bool(v & SV.RMPST_BIT) == (name == "RMpst"), name


@pytest.mark.parametrize("bit", ["pack", "unpack"])
def test_category_executor_traps_on_pack_with_subvectors(isa, bit):
    # sv.mv.swiz (MVRM category executor) steps whole groups in one order and does
    # not implement SVSTATE pack/unpack: with /vec2 it traps rather than ignore them
    sim = Simulator(isa=isa)
    sim.load_asm("mtspr 720, 3\nsv.mv.swiz/vec2 *8, *16, \"YX\"\n")
    sim.state.gpr[3] = SV.put(SV.make(maxvl=2, vl=2), bit, 1)
    r = sim.run(max_steps=10)
    assert r.stop == "trap" and "pack/unpack" in r.trap.reason and r.trap.pc == 0x1004
    assert r.gpr[8:12] == [0, 0, 0, 0]


def test_isel_with_a_vector_bc_traps_under_remap(svisa):
    # isel's BC is a CR bit on no REMAP port (openpower-isa's RM table:
    # decoder/svp64/remap_ports.txt `isel RA RB - RT -`): remapping RA RB RT
    # while BC stepped in order is defined by no source, so a vector BC
    # traps "not implemented", nothing written (ISACaller runs it: the live
    # differential leaves isel out of its REMAP cases, compat/isacaller.py
    # _NO_PORT).  A scalar BC has nothing to remap.
    for bc, stop in (("*0", "trap"), ("2", "end")):
        sim = Simulator(isa=svisa)
        sim.load_asm("\n".join(["svshape 2, 1, 1, 0, 0", "svremap 31, 1, 1, 1, 1, 1, 0",
                                f"sv.isel *8, *16, *24, {bc}"]) + "\n")
        for r in (8, 9):
            sim.state.gpr[r] = 0x99
        res = sim.run(max_steps=5)
        assert res.stop == stop, (bc, res.trap)
        if stop == "trap":
            assert "BC on no REMAP port is not implemented" in res.trap.reason
            assert res.gpr[8:10] == [0x99, 0x99]


@pytest.mark.parametrize("mode", [6, 14, 15])
@pytest.mark.parametrize("x", [3, 6])
def test_half_swap_schedule_over_a_non_power_of_two_traps(mode, x):
    # a bit reversal over 0..x-1 is a permutation only when x is a power of
    # two: at x = 3 (1 bit) it gives 0, 1, 0; Gray-code swapping i ^ (i >> 1)
    # reaches 3 from i = 2, past the vector (openpower-isa's halfrev2 indexes
    # vec[3] there).  The fuzz suite found `sv.svstep` over such a shape
    # ending in an IndexError; it must trap, naming the reason, and write
    # nothing
    from isa_ext.sim import Simulator
    sim = Simulator()
    sim.load_asm(f"svshape {x},1,1,{mode},0\nsv.svstep *8,0,1,0\n")
    sim.state.gpr[8] = 0x55
    r = sim.run()
    assert r.stop == "trap" and r.trap.pc == 0x1004
    assert "not a power of two" in r.trap.reason
    assert sim.state.gpr[8] == 0x55
