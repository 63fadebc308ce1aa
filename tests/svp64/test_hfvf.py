"""isa_ext.hfvf: each SVP64 instruction run horizontal-first (HF) and as the
vertical-first (VF) loop generated from it, end states compared, differences
named with their cause class and verdict (issue 21, docs/hfvf.md).

Expected values come from outside the code under test:

* seed 001 (../shared/seeds/001_5e27fe21ccfd3bd7.md): an HF overlap of
  sv.mv.swiz sources and destinations is UNDEFINED, VF keeps strict order
  (every source of a group read before its destinations are written); the
  pack / unpack index walks of its MVRM-2P-2S1D section.  The VF end states
  are derived by hand below.
* hand-derived end states (derivations in the comments);
* libre-soc's own VF test programs (openpower-isa 3cb597b9,
  src/openpower/decoder/isa/test_caller_svstate.py test_svstep_add_1 and
  test_caller_svp64_fft.py test_sv_remap_fpmadds_fft / _svstep): their
  expected values, and their VF loop against the HF form of the instruction.
"""
import pytest

from isa_ext.hfvf import (compare, assert_hf_equals_vf, dependencies, AGREE, LEGAL,
                          UNDEFINED, BUG, EXIT_STATUS)
from isa_ext.hfvf.classify import Difference, verdict_of
from isa_ext.hfvf.report import text
from isa_ext.svp64 import svstate as SV

M64 = (1 << 64) - 1


def only_item(report):
    items = report.compared
    assert len(items) == 1, text(report)
    return items[0]


def kinds(item):
    return {c.kind for c in item.causes}


# --- seed 001: sv.mv.swiz, HF overlap UNDEFINED, VF strict order ----------------

A, B, C, D = 0xA0, 0xB0, 0xC0, 0xD0


def test_swizzle_pack_overlap_is_undefined_and_vf_keeps_order():
    # Pack (seed 001: SUBVL=2, src_SUBVL=1): source planar, sub-element k of
    # group g is element k*VL + g; destination interleaved, g*2 + k.  VL=2, RT=RA=r8,
    # 64-bit elements, "XY" copies source X to X and Y to Y.
    # r8..r11 = A B C D.  VF, strict order, each group reads its sources first:
    #   group 0 reads (r8, r10) = (A, C), writes r8=A r9=C     -> A C C D
    #   group 1 reads (r9, r11) = (C, D), writes r10=C r11=D   -> A C C D
    # (a true pack would end A C B D: group 1's r9 was already overwritten)
    prog = 'setvl 0,0,2,0,1,1\nsv.mv.swiz/vec2 *8, *8, "XY"\n'
    report = compare(prog, gpr={8: A, 9: B, 10: C, 11: D})
    item = only_item(report)
    assert item.verdict == UNDEFINED
    assert report.exit_status == EXIT_STATUS[UNDEFINED] == 4
    cause = next(c for c in item.causes if c.kind == "swizzle-overlap")
    assert cause.registers == ["r8", "r9", "r10", "r11"]
    assert item.vf_state.gpr[8:12] == [A, C, C, D]
    assert "UNDEFINED" in text(report)


def test_swizzle_unpack_overlap_is_undefined_and_vf_keeps_order():
    # Unpack (SUBVL=1, src_SUBVL=2): source interleaved g*2 + k, destination planar
    # k*VL + g.  r8..r11 = A B C D, VF:
    #   group 0 reads (r8, r9) = (A, B), writes r8=A r10=B     -> A B B D
    #   group 1 reads (r10, r11) = (B, D), writes r9=B r11=D   -> A B B D
    # (a true unpack would end A C B D)
    prog = 'setvl 0,0,2,0,1,1\nsv.mv.swiz/svec2 *8, *8, "XY"\n'
    item = only_item(compare(prog, gpr={8: A, 9: B, 10: C, 11: D}))
    assert item.verdict == UNDEFINED
    assert item.vf_state.gpr[8:12] == [A, B, B, D]
    # each group's accesses, as the seed's index walks give them
    steps = item.dependencies.steps
    assert [[a.name for a in s.reads] for s in steps] == [["r8", "r9"], ["r10", "r11"]]
    assert [[a.name for a in s.writes] for s in steps] == [["r8", "r10"], ["r9", "r11"]]


@pytest.mark.parametrize("mods, want", [
    # pack into r16..: planar source (r8, r10), (r9, r11) -> r16 r17 = A C, r18 r19 = B D
    ("/vec2", [A, C, B, D]),
    # unpack: interleaved source (r8, r9), (r10, r11) -> planar r16 r18 = A B, r17 r19 = C D
    ("/svec2", [A, C, B, D]),
    # per-group swizzle "YX": each pair swapped
    ("/vec2/svec2", [B, A, D, C]),
])
def test_swizzle_without_overlap_agrees(mods, want):
    sel = '"YX"' if mods == "/vec2/svec2" else '"XY"'
    prog = f"setvl 0,0,2,0,1,1\nsv.mv.swiz{mods} *16, *8, {sel}\n"
    item = only_item(compare(prog, gpr={8: A, 9: B, 10: C, 11: D}))
    assert item.verdict == AGREE, text(compare(prog, gpr={8: A, 9: B, 10: C, 11: D}))
    assert item.hf_state.gpr[16:20] == item.vf_state.gpr[16:20] == want


# --- hand-derived: the sv.add *1, *0, *0 chain ----------------------------------

def test_add_chain_agrees_and_names_the_raw_chain():
    # r0 = 1, VL = 4.  Element i computes r(i+1) = r(i) + r(i), reading what element
    # i-1 just wrote.  Both HF (a hardware for-loop in element order) and the VF loop
    # (one element per iteration, the same order) end with
    #   r1 = 2, r2 = 4, r3 = 8, r4 = 16.
    # The overlap is reported (HF order is observable there) but nothing differs.
    prog = "setvl 0,0,4,0,1,1\nsv.add *1, *0, *0\n"
    report = compare(prog, gpr={0: 1})
    item = only_item(report)
    assert item.verdict == AGREE and report.exit_status == 0
    assert item.hf_state.gpr[1:5] == item.vf_state.gpr[1:5] == [2, 4, 8, 16]
    raw = {(o.earlier, o.later, o.first.name) for o in item.dependencies.overlaps
           if o.kind == "RAW"}
    assert raw == {(0, 1, "r1"), (1, 2, "r2"), (2, 3, "r3")}
    assert kinds(item) == {"cross-element-overlap"}


def test_add_chain_over_its_own_predicate_legally_differs():
    # sv.add/m=~r3 *1, *0, *0 with r0 = 1, r3 = 0 (~r3: every element), r4 = 0x55,
    # VL = 4.  HF reads the mask once (all enabled):
    #   r1 = 2, r2 = 4, r3 = 8 (element 2 overwrites the mask register), r4 = 16.
    # VF reads the mask at every iteration: elements 0-2 as HF; then
    #   sv.svstep./m=~r3 sees ~8: element 2 still enabled, element 3 not, so the
    #   loop ends and r4 keeps 0x55.
    prog = "setvl 0,0,4,0,1,1\nsv.add/m=~r3 *1, *0, *0\n"
    report = compare(prog, gpr={0: 1, 3: 0, 4: 0x55})
    item = only_item(report)
    assert item.hf_state.gpr[1:5] == [2, 4, 8, 16]
    assert item.vf_state.gpr[1:5] == [2, 4, 8, 0x55]
    assert [(d.name, d.hf, d.vf) for d in item.differences] == [("r4", 16, 0x55)]
    assert "predicate-changed" in item.differences[0].causes
    assert item.verdict == LEGAL and report.exit_status == EXIT_STATUS[LEGAL] == 3
    pred = [o for o in item.dependencies.overlaps if o.kind == "PRED"]
    assert [(o.earlier, o.first.name) for o in pred] == [(2, "r3")]


# --- hand-derived: map-reduce -------------------------------------------------------

def test_scalar_destination_legally_differs():
    # sv.add 20, 20, *40 (no /mr), r20 = 1, r40..r43 = 2 3 4 5, VL = 4.  HF: a scalar
    # destination ends the loop at its first write: r20 = 1 + 2 = 3.  The VF loop runs
    # the instruction at every step: r20 = 1 + 2 + 3 + 4 + 5 = 15.
    item = only_item(compare("setvl 0,0,4,0,1,1\nsv.add 20, 20, *40\n",
                             gpr={20: 1, 40: 2, 41: 3, 42: 4, 43: 5}))
    assert [(d.name, d.hf, d.vf) for d in item.differences] == [("r20", 3, 15)]
    assert item.differences[0].causes == ["map-reduce"]
    assert item.verdict == LEGAL


def test_map_reduce_agrees():
    # sv.add/mr: HF accumulates too: r20 = 1 + 2 + 3 + 4 + 5 = 15, as the VF loop.
    item = only_item(compare("setvl 0,0,4,0,1,1\nsv.add/mr 20, 20, *40\n",
                             gpr={20: 1, 40: 2, 41: 3, 42: 4, 43: 5}))
    assert item.verdict == AGREE
    assert item.hf_state.gpr[20] == item.vf_state.gpr[20] == 15
    assert "map-reduce" in kinds(item)


# --- hand-derived: fail-first --------------------------------------------------------

def test_fail_first_stop():
    # sv.add./ff=eq *2, *8, *12, VL = 4: r8..r11 = 3, -1, 6, 7; r12..r15 = 0, 1, 0, 0.
    # Rc=1 on a vector: element k's CR field is the vector CR base + k.
    # Element 0: r2 = 3 (CR gt, no stop).  Element 1: -1 + 1 = 0, CR eq: fail-first
    # stops, VLi=0 discards the element (r3 keeps 0x77), VL = 1.  The VF loop stops at
    # the same iteration (its second) with VL = 1; the hand-written loop's prefixed
    # svstep. would not run again (steps past VL), the generated one ends there.
    prog = "setvl 0,0,4,0,1,1\nsv.add./ff=eq *2, *8, *12\n"
    item = only_item(compare(prog, gpr={8: 3, 9: M64, 10: 6, 11: 7, 12: 0, 13: 1, 3: 0x77}))
    for s in (item.hf_state, item.vf_state):
        assert s.gpr[2:4] == [3, 0x77]
        assert SV.get(s.svstate, "vl") == 1
        # two consecutive CR fields written: gt (element 0), eq (element 1, kept)
        written = [(i, v) for i, v in enumerate(s.cr) if v]
        assert [v for _i, v in written] == [0b0100, 0b0010]
        assert written[1][0] == written[0][0] + 1
    assert item.vf_iterations == 2
    assert item.verdict == AGREE
    assert "fail-first" in kinds(item)


# --- non-overlapping instructions agree -------------------------------------------------

@pytest.mark.parametrize("line, regs", [
    ("sv.add *8, *16, *24", {16: 1, 17: 2, 18: 3, 19: 4, 24: 10, 25: 20, 26: 30, 27: 40}),
    ("sv.add/m=r3 *8, *16, *24", {3: 0b1010, 16: 1, 17: 2, 24: 5, 25: 6}),
    ("sv.add/m=~r30/sz *8, *16, *24", {30: 0b0110, 16: 1, 17: 2, 24: 5, 25: 6}),
    ("sv.addi/sm=r3/dm=r30 *8, *16, 7", {3: 0b0011, 30: 0b1100, 16: 1, 17: 2}),
    ("sv.add/w=16 *8, *16, *24", {16: 0x0001000200030004, 24: 0x0010002000300040}),
    ("sv.add/vec2 *8, *16, *24", {16: 1, 17: 2, 18: 3, 19: 4, 24: 10, 25: 20}),
    ("sv.subf./m=r3 *8, *16, *24", {3: 0b1101, 16: 5, 24: 5, 25: 1}),
    ("sv.neg/sats/w=8 *8, *16", {16: 0x80_7F_00_01}),
])
def test_non_overlapping_agree(line, regs):
    assert_hf_equals_vf(f"setvl 0,0,4,0,1,1\n{line}\n", gpr=regs)
    item = only_item(compare(f"setvl 0,0,4,0,1,1\n{line}\n", gpr=regs))
    assert item.dependencies.overlaps == [] and item.causes == []


def test_hand_derived_agreeing_values():
    # sv.add/m=r3 *8, *16, *24, r3 = 0b1010: elements 1 and 3 only:
    # r9 = 2 + 6 = 8, r11 = 0 + 0 = 0 (and r8, r10 untouched: 0x11)
    item = only_item(compare("setvl 0,0,4,0,1,1\nsv.add/m=r3 *8, *16, *24\n",
                             gpr={3: 0b1010, 16: 1, 17: 2, 24: 5, 25: 6, 8: 0x11, 10: 0x11,
                                  11: 0x11}))
    assert item.hf_state.gpr[8:12] == item.vf_state.gpr[8:12] == [0x11, 8, 0x11, 0]


# --- element dependencies ------------------------------------------------------------

def test_dependencies_after_elwidth_and_subvl():
    # sv.add/w=16/vec2 *8, *16, *24 with VL = 2: 4 sub-element steps, 16-bit elements
    # packed four per register from the least significant end: element k of r8's
    # vector is bits 16k..16k+15 of r8.
    item = only_item(compare("setvl 0,0,2,0,1,1\nsv.add/w=16/vec2 *8, *16, *24\n"))
    got = [(s.srcstep, s.ssubstep, [(a.name, a.lo, a.hi) for a in s.writes])
           for s in item.dependencies.steps]
    assert got == [(0, 0, [("r8", 0, 15)]), (0, 1, [("r8", 16, 31)]),
                   (1, 0, [("r8", 32, 47)]), (1, 1, [("r8", 48, 63)])]


def test_dependencies_follow_remap():
    # The FFT butterfly of openpower-isa's test_sv_remap_fpmadds_fft_4 (svshape
    # 2, 1, 1, 1, 0 + svremap 31, 1, 0, 2, 0, 1, 0; sv.ffmadds *0, *8, *0, VL=1):
    # one butterfly on elements 0 and 1: FRT reads f0 and writes f0, FRS writes
    # f1, FRA reads the coefficient f8.
    prog = ("svshape 2, 1, 1, 1, 0\nsvremap 31, 1, 0, 2, 0, 1, 0\n"
            "sv.ffmadds *0, *8, *0\n")
    item = only_item(compare(prog))
    (step,) = item.dependencies.steps
    assert {a.name for a in step.writes} == {"f0", "f1"}
    assert {a.name for a in step.reads} >= {"f0", "f1", "f8"}


# --- verdicts ----------------------------------------------------------------------

def test_unexplained_difference_is_a_bug():
    # no cause covers r7: the two forms of one instruction must not disagree there
    assert verdict_of([Difference("r7", 1, 2)], []) == BUG
    assert verdict_of([], []) == AGREE
    assert EXIT_STATUS == {AGREE: 0, LEGAL: 3, UNDEFINED: 4, BUG: 5}


def test_assert_helper_fails_with_the_report():
    with pytest.raises(AssertionError, match="predicate or VL changed inside the loop"):
        assert_hf_equals_vf("setvl 0,0,4,0,1,1\nsv.add/m=~r3 *1, *0, *0\n", gpr={0: 1})
    # accepted when the caller allows legal differences
    assert_hf_equals_vf("setvl 0,0,4,0,1,1\nsv.add/m=~r3 *1, *0, *0\n", gpr={0: 1},
                        allow=(LEGAL,))


def test_helper_is_exported_by_the_pytest_plugin():
    from isa_ext import pytest_plugin
    assert pytest_plugin.assert_hf_equals_vf is assert_hf_equals_vf


def test_dependencies_api():
    from isa_ext.sim import Simulator
    sim = Simulator()
    sim.load_asm("sv.add *1, *0, *0\n")
    sim.state.svstate = SV.make(maxvl=2, vl=2)
    mem = sim.state.mem
    deps = dependencies(sim.isa, sim.state, mem.read_word(0x1000), mem.read_word(0x1004),
                        0x1000)
    assert [[a.name for a in s.writes] for s in deps.steps] == [["r1"], ["r2"]]


# --- libre-soc's own VF programs ---------------------------------------------------------

def test_libresoc_svstep_add_1_vf_program():
    # openpower-isa test_caller_svstate.py test_svstep_add_1: VL=2, VF, the loop
    # body 'sv.add 1, *5, *9' / 'sv.addi *12, 1, 1' / 'svstep. 0, 0, 1, 0' unrolled
    # twice; r9 = 0x1234, r10 = 0x1111, r5 = 0x4321, r6 = 0x2223.  Their expected:
    # r1 = 0x3334, r12 = 0x5556, r13 = 0x3335.
    from isa_ext.sim import Simulator
    regs = {9: 0x1234, 10: 0x1111, 5: 0x4321, 6: 0x2223}
    sim = Simulator()
    sim.load_asm("setvl 0, 0, 2, 1, 1, 1\nsv.add 1, *5, *9\nsv.addi *12, 1, 1\n"
                 "svstep. 0, 0, 1, 0\nsv.add 1, *5, *9\nsv.addi *12, 1, 1\n"
                 "svstep. 0, 0, 1, 0\n")
    for r, v in regs.items():
        sim.state.gpr[r] = v
    res = sim.run(max_steps=20)
    assert (res.gpr[1], res.gpr[12], res.gpr[13]) == (0x3334, 0x5556, 0x3335)
    # The HF form of their first instruction, sv.add 1, *5, *9 (scalar
    # destination): HF ends at element 0, r1 = 0x4321 + 0x1234 = 0x5555; the
    # generated VF loop ends with their VF value 0x3334 (= 0x2223 + 0x1111).
    item = only_item(compare("setvl 0, 0, 2, 0, 1, 1\nsv.add 1, *5, *9\n", gpr=regs))
    assert (item.hf_state.gpr[1], item.vf_state.gpr[1]) == (0x5555, 0x3334)
    assert item.verdict == LEGAL and kinds(item) == {"map-reduce"}
    # Their second instruction with r1 held (no overlap): HF and VF agree, and
    # give their per-element values for that r1: r12 = r13 = r1 + 1.
    item = only_item(compare("setvl 0, 0, 2, 0, 1, 1\nsv.addi *12, 1, 1\n",
                             gpr={1: 0x5555}))
    assert item.verdict == AGREE and item.vf_state.gpr[12:14] == [0x5556, 0x5556]


def test_libresoc_fft_vf_loop_agrees_with_hf():
    # openpower-isa test_caller_svp64_fft.py: test_sv_remap_fpmadds_fft (HF) and
    # test_sv_remap_fpmadds_fft_svstep (the same sv.ffmadds as a VF loop); both
    # expect transform_radix2(av, coe).  The in-place butterflies overlap across
    # elements (RAW), yet element order is the same both ways: they agree, and
    # match the radix-2 reference of tests/svp64/test_svp64_fft_dct.py.
    from test_svp64_fft_dct import PROGRAMS, unfp, single
    lines, fprs, _mem, svstate, expected, tol = PROGRAMS["fft_8"]
    report = compare("\n".join(lines) + "\n", fpr=fprs, spr={"svstate": svstate})
    item = only_item(report)
    assert item.verdict == AGREE, text(report)
    assert "cross-element-overlap" in kinds(item)
    for r, want in expected.items():
        got = unfp(item.vf_state.fpr[r])
        assert abs(got - single(want)) <= tol * abs(single(want)), (r, got, want)
    # and their VF program, run as written, ends in the same FPRs
    from test_svp64_fft_dct import _sim
    from isa_ext.isa import ISA
    res = _sim(ISA(), "fft_8_svstep").run(max_steps=400)
    assert res.fpr[:16] == item.vf_state.fpr[:16] == item.hf_state.fpr[:16]


# --- random programs: no false alarms ----------------------------------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402
from test_svp64_one_behaviour import TEMPLATES, draw_line, DATA  # noqa: E402


@st.composite
def one_line_programs(draw):
    """A random line of tests/svp64/test_svp64_one_behaviour.py's templates (destinations
    from r80 / CR8 up: no element overwrites a predicate, r0 or the LD/ST base),
    with random registers and a VL of 1..8."""
    line, vf_ok, _mods = draw_line(draw, TEMPLATES, ["", "/vec2", "/vec3", "/vec4"])
    vl = draw(st.integers(1, 8))
    words = st.integers(0, M64)
    gpr = {r: draw(words) for r in list(range(1, 50)) + list(range(51, 128))}
    gpr[50] = DATA
    fpr = {r: draw(words) for r in range(32, 128)}
    data = draw(st.binary(min_size=1024, max_size=1024))
    return line, vf_ok, vl, gpr, fpr, {DATA - 512: data}


_ISA = []  # one ISA for every example (building one per compare() is slow)


def _isa():
    if not _ISA:
        from isa_ext.isa import ISA
        _ISA.append(ISA())
    return _ISA[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=one_line_programs())
def test_random_lines_give_no_bug(prog):
    # The one-behaviour file checks that these lines' VF loops end as their HF
    # runs (its "VF-able" ones; the rest are map-reduce, fail-first or CR0
    # results).  hfvf must agree there, and never call a difference a bug.
    line, vf_ok, vl, gpr, fpr, memory = prog
    report = compare(f"setvl 0,0,{vl},0,1,1\n{line}\n", gpr=gpr, fpr=fpr, memory=memory,
                     isa=_isa())
    for item in report.compared:
        assert item.verdict != BUG, text(report)
        if vf_ok and not item.causes and not item.vf_trap and not item.hf_trap:
            assert item.verdict == AGREE, text(report)


def test_skipped_instructions():
    # VL = 0 runs no element; a program already in vertical-first mode (setvl's
    # vf=1) is not an HF instruction to compare; setvl / svstep are loop control
    report = compare("sv.add *8, *16, *24\n", spr={"svstate": SV.make(maxvl=4, vl=0)})
    assert [(i.pc, i.skipped) for i in report.instructions] == [
        (0x1000, "VL is 0: no element runs")]
    report = compare("setvl 0,0,2,1,1,1\nsv.add *8, *16, *24\nsvstep. 0, 0, 1, 0\n")
    assert [(i.pc, i.skipped) for i in report.instructions] == [
        (0x1004, "the program runs it vertical-first already")]
    assert report.compared == [] and report.exit_status == 0


def test_no_enabled_element_agrees():
    # sv.add/m=r3 with r3 = 0: no element runs either way; r8 keeps 7
    item = only_item(compare("setvl 0,0,4,0,1,1\nsv.add/m=r3 *8, *16, *24\n",
                             gpr={3: 0, 8: 7, 16: 1}))
    assert item.verdict == AGREE and item.hf_state.gpr[8] == item.vf_state.gpr[8] == 7


def test_scalar_destination_status_register_difference_is_legal():
    # sv.addo 20, 20, *40, VL = 2, r20 = 1, r40 = 0x7FFF_FFFF_FFFF_FFFF, r41 = 0.
    # HF ends after element 0: r20 = 0x8000_0000_0000_0000, a signed overflow:
    #   XER.OV = 1 (bit 30 of XER), OV32 = 0 (0xFFFFFFFF + 1); XER.SO is not
    #   written by a prefixed instruction (errata SV-24), so it stays 0.
    # VF runs element 1 too: r20 + 0 = the same r20, no overflow: OV = 0.
    item = only_item(compare("setvl 0,0,2,0,1,1\nsv.addo 20, 20, *40\n",
                             gpr={20: 1, 40: (1 << 63) - 1, 41: 0}))
    assert item.hf_state.gpr[20] == item.vf_state.gpr[20] == 1 << 63
    assert [(d.name, d.hf, d.vf) for d in item.differences] == [
        ("xer", 0x4000_0000, 0)]
    assert item.differences[0].causes == ["map-reduce"] and item.verdict == LEGAL


def test_libresoc_fft_scalar_temp_instruction():
    # openpower-isa test_caller_svp64_fft.py test_sv_remap_fpmadds_fft_svstep_scalar_temp:
    # its VF loop body starts 'svremap 5, 1, 0, 2, 0, 0, 0' / 'sv.fmuls 24, *0, *8'
    # ("RA: jh (S1) ... RC: k (S2) RT: scalar"), a scalar temporary per butterfly.
    # The HF form of that instruction (svshape 8, 1, 1, 1, 0) has a scalar
    # destination: it ends at butterfly 0 (size 2, j=0: jh=1, k=0):
    #   f24 = av[1] * coe[0] = -9.8 * -0.25;
    # the VF loop writes f24 at every butterfly and ends with the last (size 8, j=3:
    # jh=7, k=3): f24 = av[7] * coe[3] = 31.3 * 6.2 (fmuls rounds to single).
    from test_svp64_fft_dct import AV8, COE4, _fprs, unfp, single
    prog = "svshape 8, 1, 1, 1, 0\nsvremap 5, 1, 0, 2, 0, 0, 0\nsv.fmuls 24, *0, *8\n"
    item = only_item(compare(prog, fpr=_fprs((0, AV8, 1), (8, COE4, 1))))
    assert unfp(item.hf_state.fpr[24]) == single(-9.8 * -0.25)
    assert unfp(item.vf_state.fpr[24]) == single(31.3 * 6.2)
    assert item.verdict == LEGAL and item.differences[0].causes == ["map-reduce"]


# --- the generated VF loops on libre-soc's ISACaller -----------------------------------

# (instruction, svstep modifiers or None for a plain svstep., VL, registers,
# whether ISACaller can run the VF loop).  The predicated chain's VF loop cannot
# end on ISACaller: once no enabled element is left it resets the steps to 0
# (docs/errata.md SV-5), so only its HF run is compared there.
ISACALLER_LOOPS = [
    ("sv.add/m=~r3 *1, *0, *0", "/m=~r3", 4, {0: 1, 3: 0, 4: 0x55}, False),
    ("sv.add 20, 20, *40", None, 4, {20: 1, 40: 2, 41: 3, 42: 4, 43: 5}, True),
    ("sv.add./ff=eq *2, *8, *12", None, 4, {8: 3, 9: M64, 10: 6, 11: 7, 12: 0, 13: 1,
                                            3: 0x77}, True),
]


def test_vf_loops_on_isacaller(isacaller):
    # The VF loop hfvf generates, written out as a program (instruction, svstep.,
    # bc 4,3 back) and run by ISACaller (openpower-isa 3cb597b9), ends in the
    # vertical-first state hfvf reports (r0 and CR0 are the loop's own: svstep.
    # writes them); and ISACaller's HF run of the instruction matches hfvf's HF
    # state under the openpower-isa profile (ISACaller reads a predicate again
    # before every element: docs/compat.md).
    from isa_ext.asm import assemble
    from isa_ext.compat.isacaller import run_batch, NGPR
    from isa_ext.hfvf.vfloop import step_line
    from isa_ext.isa import ISA
    isa = ISA(extensions=["base", "svp64"])
    batch, want = [], []
    for line, mods, vl, regs, _vf in ISACALLER_LOOPS:
        sv = SV.make(maxvl=vl, vl=vl)
        gpr = [regs.get(i, 0) for i in range(NGPR)]
        loop = f"loop:\n{line}\n{step_line(mods)}\nbc 4, 3, loop\n"
        for text, svstate in ((line + "\n", sv), (loop, sv | 1)):
            batch.append({"words": assemble(text, isa=isa).words, "gpr": gpr,
                          "fpr": [0] * NGPR, "cr": 0, "svstate": svstate, "max_steps": 100})
        spec = only_item(compare(f"{line}\n", gpr=regs, spr={"svstate": sv}))
        prof = only_item(compare(f"{line}\n", gpr=regs, spr={"svstate": sv},
                                 profile="openpower-isa"))
        want.append((prof.hf_state, spec.vf_state))
    results = run_batch(isacaller.root, batch)
    for k, (hf_state, vf_state) in enumerate(want):
        hf, vf = results[2 * k], results[2 * k + 1]
        assert "error" not in hf, hf
        assert hf["gpr"] == list(hf_state.gpr), ISACALLER_LOOPS[k]
        if ISACALLER_LOOPS[k][4]:
            assert "error" not in vf, vf
            assert vf["gpr"][1:] == list(vf_state.gpr[1:]), ISACALLER_LOOPS[k]
