"""A vector operand that would run past the last register traps before any
element runs, instead of ending in a Python IndexError (found by the ISACaller
differential).  Spans by hand: n elements of w bits from rB end in
rB + (n*w - 1) // 64."""
import pytest

from isa_ext.asm import assemble
from isa_ext.sim import Simulator


def run(isa, text):
    sim = Simulator(isa=isa)
    sim.load_words(assemble(text, isa=isa).words, addr=0)
    return sim, sim.run(max_steps=10)


@pytest.mark.parametrize("trace", [False, True])
def test_past_r127_traps_and_writes_nothing(svisa, trace):
    # VL=8 64-bit elements from r126 end in r133
    sim = Simulator(isa=svisa)
    sim.load_words(assemble("setvl 0,0,8,0,1,1\nsv.addic *126, *48, 1\n", isa=svisa).words,
                   addr=0)
    res = sim.run(max_steps=10, trace=trace)
    assert res.stop == "trap" and "RT at r126 runs past r127" in res.trap.reason
    assert res.trap.pc == 4
    assert sim.state.gpr[126] == sim.state.gpr[127] == 0


@pytest.mark.parametrize("text,regs", [
    # 8 x 32 bits from r124 end in r127: r124..r127 each hold two elements 0 + 1
    ("setvl 0,0,8,0,1,1\nsv.addic/w=32 *124, *48, 1\n", {124: 0x1_00000001, 127: 0x1_00000001}),
    # 8 x 16 bits from r126 end in r127
    ("setvl 0,0,8,0,1,1\nsv.addic/w=16 *126, *48, 1\n", {126: 0x0001_0001_0001_0001,
                                                         127: 0x0001_0001_0001_0001}),
])
def test_packed_elements_up_to_r127_run(svisa, text, regs):
    sim, res = run(svisa, text)
    assert res.stop == "end"
    for r, v in regs.items():
        assert sim.state.gpr[r] == v


def test_source_vector_past_r127_traps(svisa):
    _, res = run(svisa, "setvl 0,0,4,0,1,1\nsv.add *8, *126, *16\n")
    assert res.stop == "trap" and "RA at r126 runs past r127 (4 elements end in r129)" \
        in res.trap.reason


@pytest.mark.parametrize("trace", [False, True])
def test_scalar_implicit_result_past_r127_traps(svisa, trace):
    # sv.maddsubrs writes RT and the implicit RS = RT+1 (scalar RT): RT=127
    # puts RS at r128 (found by tests/core/test_fuzz.py: it was a Python IndexError)
    sim = Simulator(isa=svisa)
    sim.load_words(assemble("setvl 0,0,4,0,1,1\nsv.maddsubrs 127,1,2,0\n",
                            isa=svisa).words, addr=0)
    sim.state.gpr[127], sim.state.gpr[1], sim.state.gpr[2] = 5, 3, 2
    res = sim.run(max_steps=10, trace=trace)
    assert res.stop == "trap" and res.trap.pc == 4
    assert "scalar operand RS would be r128, past r127" in res.trap.reason
    assert sim.state.gpr[127] == 5


def test_scalar_implicit_result_at_r127_runs(svisa):
    # RT=126: RT = 2*(5+3) = 16, RS = r127 = 2*(5-3) = 4 (SH=0: the low 64 bits)
    sim = Simulator(isa=svisa)
    sim.load_words(assemble("setvl 0,0,4,0,1,1\nsv.maddsubrs 126,1,2,0\n",
                            isa=svisa).words, addr=0)
    sim.state.gpr[126], sim.state.gpr[1], sim.state.gpr[2] = 5, 3, 2
    res = sim.run(max_steps=10)
    assert res.stop == "end"
    assert (sim.state.gpr[126], sim.state.gpr[127]) == (16, 4)


@pytest.mark.parametrize("base,traps", [(120, False), (122, True)])
def test_implicit_vector_result_counts_its_maxvl_offset(svisa, base, traps):
    # sv.maddsubrs with vector RT: RS = RT + MAXVL (butterfly.csv), so with
    # MAXVL=VL=4 RS's elements are r(base+4)..r(base+7): r124..r127 from *120
    # fit, r126..r129 from *122 do not (RT's own r122..r125 would).
    _, res = run(svisa, f"setvl 0,0,4,0,1,1\nsv.maddsubrs *{base},*0,*8,0\n")
    if traps:
        assert res.stop == "trap" and "RS at r122 runs past r127" in res.trap.reason \
            and "end in r129" in res.trap.reason
    else:
        assert res.stop == "end", res.trap


def test_vector_cr_result_past_cr127_traps(svisa):
    # sv.cmpi with a vector BF from CR60 and VL=70: fields CR60..CR129, the
    # last two past CR127 (70 elements from 60 end in 60 + 70 - 1 = 129)
    _, res = run(svisa, "setvl 0,0,70,0,1,1\nsv.cmpi *60, 0, *0, 5\n")
    assert res.stop == "trap"
    assert "BF at cr60 runs past cr127 (70 elements end in cr129)" in res.trap.reason


def test_vector_cr_result_up_to_cr127_runs(svisa):
    # VL=68 from CR60 ends exactly in CR127; r0..r67 are 0, below 5: LT in each
    sim, res = run(svisa, "setvl 0,0,68,0,1,1\nsv.cmpi *60, 0, *0, 5\n")
    assert res.stop == "end", res.trap
    assert sim.state.cr[60] == sim.state.cr[127] == 0b1000


# --- one rule for every path (issue 20 item 3; isa_ext/svp64/regfile_end.py) ---------
# Each case was a crash site (a Python IndexError) or a silent wrap modulo 128
# before the rule was shared; every one now traps before its first element
# with the reason below, on the fast and the traced path alike, and leaves
# every register (SVSTATE included) as it was.  The spans are by hand:
# n elements of w bits from register b end in b + (n*w - 1) // 64; CR fields
# step one per element, CR bits four per element; SUBVL multiplies n.

PAST_END = [
    # fast loop (64-bit GPR elements): 16 from r120 end in r135
    ("setvl 0,0,16,0,1,1\nsv.add *120, *0, *0",
     "sv.add: vector operand RT at r120 runs past r127 (16 elements end in r135)"),
    # element call through the GPR scratch file: 16 x 32 bits from r124 end in r131
    ("setvl 0,0,16,0,1,1\nsv.add/w=32 *0, *124, *0",
     "vector operand RA at r124 runs past r127 (16 elements end in r131)"),
    # FP scratch call (binary32 elements): 16 x 32 bits from f124 end in f131
    ("setvl 0,0,16,0,1,1\nsv.fadd/w=32 *124, *0, *0",
     "vector operand FRT at f124 runs past f127 (16 elements end in f131)"),
    # CR field set (Rc=1 of a vector result): VL=64 x vec4 = 256 elements, each
    # recording CR0 + element -> CR255 (the GPRs fit: 256 x 8 bits = r0..r31);
    # this was a Python IndexError
    ("setvl 0,0,64,0,1,1\nsv.add./vec4/w=8 *0, *0, *0",
     "CR result field vector CR0 at cr0 runs past cr127 (256 elements end in cr255)"),
    # the same field for fail-first Rc=0 (as if Rc=1): it was a silent wrap
    ("setvl 0,0,64,0,1,1\nsv.add/ff=ne/vec4/w=8 *0, *0, *0",
     "CR result field vector CR0 at cr0 runs past cr127 (256 elements end in cr255)"),
    # CR field get/set of a CR-field vector: 100 fields from CR60 end in CR159
    ("setvl 0,0,100,0,1,1\nsv.mcrf *60, *0",
     "vector operand BF at cr60 runs past cr127 (100 elements end in cr159)"),
    # CR bit vectors: 100 elements from bit 240 (CR60) end in bit 240 + 4*99 = 636
    ("setvl 0,0,100,0,1,1\nsv.crand *0, *240, *0",
     "vector operand BA at CR bit 240 runs past CR bit 511 (100 elements end in CR bit 636)"),
    ("setvl 0,0,100,0,1,1\nsv.bc/all 12, *240, 0x8",
     "vector operand BI at CR bit 240 runs past CR bit 511 (100 elements end in CR bit 636)"),
    # CR predicate read: element i tests CR32 + i (docs/svp64.md), so VL=100
    # reaches CR131; it used to read CR0..CR3 instead (a silent wrap)
    ("setvl 0,0,100,0,1,1\nsv.add/m=lt/w=8 *0, *0, *0",
     "CR predicate: element 99 would test cr131, past cr127 (VL=100, mask fields from cr32)"),
    # GPU vector-scope engine: 16 lanes from r120 (it wrapped into r0..r7)
    ("setvl 0,0,16,0,1,1\nsv.shfl.idx *r120,*r64,r5,r6",
     "sv.shfl.idx: vector operand RT at r120 runs past r127 (16 elements end in r135)"),
    # ... with sub-vectors: 16 lanes x vec4 = 64 elements from r120 end in r183
    ("setvl 0,0,16,0,1,1\nsv.ballot/vec4 *r120,*r64",
     "sv.ballot: vector operand RT at r120 runs past r127 (64 elements end in r183)"),
    # GPU GROUP reads: SURED 3d reads 3 coordinates per lane, 4 lanes x 3 from
    # r120 end in r131 (found by the ISA_EXT_FUZZ_SCALE=5 campaign, seed 1490:
    # an IndexError at lane 2); a scalar RA at r127 would read r127..r129
    ("setvl 0,0,4,0,1,1\nsv.sured.add.u32 *r120,*r40,r6,3d",
     "vector operand RA at r120 runs past r127 (12 elements end in r131)"),
    ("setvl 0,0,1,0,1,1\nsv.sured.add.u32 r127,r40,r6,3d",
     "scalar operand group RA at r127 runs past r127 (3 elements end in r129)"),
    # swizzle engine: 16 groups of 4 elements from r120 end in r183
    ("setvl 0,0,16,0,1,1\nsv.mv.swiz/vec4 *120,*0,0x123",
     "sv.mv.swiz: vector operand RT at r120 runs past r127 (64 elements end in r183)"),
    # an LD/ST base address is 64 bits whatever ELWIDTH_SRC says: 8 bases from
    # r124 end in r131 (counted at 16 bits they fitted in r124, and the scratch
    # path's 64-bit read was an IndexError: the ISA_EXT_FUZZ_SCALE=5 campaign,
    # seed 13520, sv.lhax/vec2/sw=16 43, *124, 5)
    ("setvl 0,0,8,0,1,1\nsv.lhax/sw=16 *0, *124, 5",
     "sv.lhax: vector operand RA at r124 runs past r127 (8 elements end in r131)"),
    # vertical-first single step: the rule holds before the first step
    ("setvl 0,0,16,1,1,1\nsv.add *120, *0, *0",
     "sv.add: vector operand RT at r120 runs past r127 (16 elements end in r135)"),
]


@pytest.mark.parametrize("trace", [False, True])
@pytest.mark.parametrize("text,reason", PAST_END)
def test_every_path_traps_past_the_file_end_writing_nothing(isa, text, reason, trace):
    # (isa: every extension, for the GPU and swizzle engines)
    sim = Simulator(isa=isa)
    sim.load_words(assemble(text + "\n", isa=isa).words, addr=0)
    first = sim.run(max_steps=1)  # the setvl
    assert first.stop != "trap"
    before = sim.state.copy_registers()
    res = sim.run(max_steps=10, trace=trace)
    assert res.stop == "trap" and res.trap.kind == "illegal", res
    assert res.trap.pc == 4 and reason in res.trap.reason
    assert sim.state.copy_registers() == before


@pytest.mark.parametrize("text", [
    # the boundary cases run: 8 lanes from r120 end in r127; 96 predicate
    # fields from CR32 end in CR127; 127 Rc=1 fields from CR0 end in CR126
    "setvl 0,0,8,0,1,1\nsv.shfl.idx *r120,*r64,r5,r6",
    "setvl 0,0,96,0,1,1\nsv.add/m=lt/w=8 *0, *0, *0",
    "setvl 0,0,127,0,1,1\nsv.add./w=8 *0, *0, *0",
    "setvl 0,0,2,0,1,1\nsv.mv.swiz/vec4 *120,*0,0x123",
    # 2 lanes x 3 coordinates from r120 end in r125 (the descriptor at 0 is all
    # zeros: a disabled surface, nothing written)
    "setvl 0,0,2,0,1,1\nsv.sured.add.u32 *r120,*r40,r6,3d",
])
def test_the_last_register_itself_is_reachable(isa, text):
    sim = Simulator(isa=isa)
    sim.load_words(assemble(text + "\n", isa=isa).words, addr=0)
    assert sim.run(max_steps=10).stop == "end"


@pytest.mark.parametrize("trace", [False, True])
def test_zeroed_svstate_page_element_counts_in_element_widths(isa, trace):
    # Found by the ISA_EXT_FUZZ_SCALE=5 campaign (seed 13520): sv.setvl with a
    # vector RT at r127, ELWIDTH=8, CR predicate m=ne, stepping from element 1.
    # regfile_end counts 4 x 8 bits from r127 (all in r127), but the zeroed
    # element's page call got register number 127 + 1 (an IndexError).  It now
    # runs on the element-width path as an enabled element does.  CR33.EQ=1
    # makes element 1 masked out (ne), so dz zeroes 8-bit element 1 of r127:
    # bits 8..15 of an all-ones r127 -> 0xffffffffffff00ff.
    prefix, suffix = 0x07DE3DAE, 0x5BF61276
    sim = Simulator(isa, strict=False)
    sim.load_words([prefix, suffix], addr=0x10000)
    s = sim.state
    s.pc, s.svstate = 0x10000, 0x810081000000000  # MAXVL=VL=4, srcstep=dststep=1
    s.gpr[127] = (1 << 64) - 1
    s.cr[33] = 0b0010
    sim.end = -1
    res = sim.run(max_steps=1, trace=trace)
    assert res.stop == "step_limit"
    assert s.gpr[127] == 0xFFFF_FFFF_FFFF_00FF


@pytest.mark.parametrize("trace", [False, True])
def test_remapped_rc_field_past_cr127_traps(svisa, trace):
    # REMAP'd: svindex 8, 8 (rmm=8: the out slot) makes RT follow the indices in
    # r16..r19 = 0, 1, 2, 200.  At 8-bit elements RT's element 200 is in
    # r8 + 200*8 // 64 = r33 (in the file), but the Rc=1 CR field follows the
    # out slot: CR0 + 200 = CR200 does not exist -> trap, nothing written
    sim = Simulator(isa=svisa)
    sim.load_asm("setvl 0,0,4,0,1,1\nsvindex 8, 8, 1, 0, 0, 0, 0\n"
                 "sv.add./w=8 *8, *40, *48\n")
    for k, v in enumerate([0, 1, 2, 200]):
        sim.state.gpr[16 + k] = v
    res = sim.run(max_steps=10, trace=trace)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "CR result field vector CR0 at cr0 runs past cr127 (201 elements end in " \
        "cr200)" in res.trap.reason
    assert sim.state.cr[:3] == [0, 0, 0]


def test_remapped_rc_field_in_the_file_runs(svisa):
    # index 100 instead: CR0, CR1, CR2 and CR100 record 0 + 0 = 0 (EQ: 0b0010)
    sim = Simulator(isa=svisa)
    sim.load_asm("setvl 0,0,4,0,1,1\nsvindex 8, 8, 1, 0, 0, 0, 0\n"
                 "sv.add./w=8 *8, *40, *48\n")
    for k, v in enumerate([0, 1, 2, 100]):
        sim.state.gpr[16 + k] = v
    assert sim.run(max_steps=10).stop == "end"
    assert [sim.state.cr[f] for f in (0, 1, 2, 3, 100)] == [2, 2, 2, 0, 2]


@pytest.mark.parametrize("trace", [False, True])
def test_sured_1d_coordinates_up_to_r127_run(isa, trace):
    # ISA_EXT_FUZZ_SCALE=5, seed 112992612: a 1d SURED has one coordinate per
    # lane, so 2 lanes from r126 end in r127; its page also reads the unused
    # c1/c2 (GROUP k = 1, 2), which for lane 1 were r128/r129: an IndexError.
    # GROUP's k outside 0..n-1 is 0 now.  Lanes add 1 at x = 0 and x = 1.
    from test_gpu import DESC_AT, SURF, descriptor, word_at
    sim = Simulator(isa=isa)
    sim.load_asm("setvl 0,0,2,0,1,1\nsv.sured.add.u32 *r126,*r40,r6,1d\n")
    g = sim.state.gpr
    g[126], g[127], g[40], g[41], g[6] = 0, 1, 1, 1, DESC_AT
    sim.state.mem.load(DESC_AT, descriptor())
    res = sim.run(max_steps=10, trace=trace)
    assert res.stop == "end", res.trap
    assert [word_at(sim, SURF + 4 * x) for x in range(3)] == [1, 1, 0]


def test_longest_vector_ends_at_r127_or_traps(svisa):
    # MAXVL = VL = 127 (the largest), 64-bit elements: from r1 the last element
    # is r1 + 126 = r127 and every one runs (r(1+k) = r0 + 1 = 1); from r2 it
    # would be r128, so the instruction traps and writes nothing.  (Spans of more
    # than 64 elements: (n*w - 1) // 64 must divide by 64 exactly.)
    sim, res = run(svisa, "setvl 0,0,127,0,1,1\nsv.addic *1, 0, 1\n")
    assert res.stop == "end", res.trap
    assert sim.state.gpr[1:128] == [1] * 127
    sim, res = run(svisa, "setvl 0,0,127,0,1,1\nsv.addic *2, 0, 1\n")
    assert res.stop == "trap" and "RT at r2 runs past r127" in res.trap.reason, res.trap
    assert sim.state.gpr[2:128] == [0] * 126
