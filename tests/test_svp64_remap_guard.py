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


def test_live_isacaller(svisa, isacaller):
    from isa_ext.asm import assemble
    from isa_ext.diffcheck.isacaller import (Case, NGPR, NFPR, run_isacaller, run_isa_ext,
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


# REMAP combinations not implemented: they trap at the instruction, nothing
# written (predication, SUBVL, reverse gear, saturation, fail-first and
# element widths run remapped: tests/test_svp64_remap_pred.py)
NOT_IMPLEMENTED = [
    # loads are remapped (their registers, and unit/element-strided offsets
    # through RA's slot); a strided store's offsets are not (ISACaller neither)
    ("sv.std *8, 8(3)", "strided stores"),
    ("sv.ldu *8, 8(16)", "update-form"),
    # a vector RA of an update form (the page writes it): trapped too, not
    # read through RA's slot and written in step order
    ("sv.ldu *8, 8(*16)", "update-form"),
]


@pytest.mark.parametrize("insn,reason", NOT_IMPLEMENTED)
def test_not_implemented_combinations_trap(svisa, insn, reason):
    sim = _sim(svisa, [SHAPE, insn])
    sim.state.gpr[3] = 0b111111
    res = sim.run(max_steps=10)
    assert res.stop == "trap" and reason in res.trap.reason, res.trap
    assert "REMAP" in res.trap.reason and res.trap.pc == 0x1004
    assert res.gpr[8:14] == [0] * 6


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
