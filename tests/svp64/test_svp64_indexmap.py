"""The per-operand index-mapping hook (isa_ext/svp64/indexmap.py), where REMAP
schedules plug into the element-loop executor.  Expected values are worked out
by hand from the schedules given (element k of slot s uses schedule_s[k])."""
import pytest

from conftest import sv_words
from isa_ext.errors import Trap
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV
from isa_ext.svp64.engine import SVInsn, IndexMap, SLOTS


def executor(isa, line, vl, regs, schedules=None):
    sim = Simulator(isa=isa)
    pre, suf = sv_words(isa, line)
    insn = SVInsn(isa, sim, pre, suf)
    if schedules is not None:
        insn.index_map = IndexMap(schedules)
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    for r, v in regs.items():
        sim.state.gpr[r] = v
    return sim, insn


REGS = {**{16 + i: 10 * (i + 1) for i in range(4)}, **{24 + i: i + 1 for i in range(4)}}


def test_slots_of_add(svisa):
    # add RT,RA,RB: ins "RA RB" -> in1 in2; outs "RT" -> out
    _sim, insn = executor(svisa, "sv.add *8, *16, *24", 4, {})
    insn.rec.assign_slots()  # on demand (installing a non-identity map does it)
    assert {o.field: o.slot for o in insn.rec.ops} == {
        "RA": ("in1", None), "RB": ("in2", None), "RT": (None, "out")}


def test_identity_keeps_the_fast_loop(svisa):
    _sim, insn = executor(svisa, "sv.add *8, *16, *24", 4, {})
    assert insn.fast
    insn.index_map = IndexMap({"in1": [0, 1, 2, 3]})
    assert not insn.fast


def test_reversed_in1(svisa):
    # in1 (RA = *16) steps 3,2,1,0; RB and RT identity:
    # r8+k = r(16 + 3-k) + r(24+k) = 10*(4-k) + (k+1): 41, 32, 23, 14
    sim, insn = executor(svisa, "sv.add *8, *16, *24", 4, REGS, {"in1": [3, 2, 1, 0]})
    assert insn(sim.state, 0x1000) == 0x1008
    assert sim.state.gpr[8:12] == [41, 32, 23, 14]
    assert SV.get(sim.state.svstate, "srcstep") == 0  # loop completed


def test_permuted_out(svisa):
    # out steps 2,0,3,1: element k's result r16+k + r24+k = 11(k+1) lands in
    # r8 + out[k]: r10 = 11, r8 = 22, r11 = 33, r9 = 44
    sim, insn = executor(svisa, "sv.add *8, *16, *24", 4, REGS, {"out": [2, 0, 3, 1]})
    insn(sim.state, 0x1000)
    assert sim.state.gpr[8:12] == [22, 44, 11, 33]


def test_mapping_through_element_widths(svisa):
    # /w=32, VL=4: 32-bit elements packed two per register.  in2 (RB = *24) steps
    # 1,1,1,1: every element adds RB element 1.  r16 = 0x00000002_00000001,
    # r17 = 0x00000004_00000003, r24 = 0x00000064_0000000a (e0 = 10, e1 = 100):
    # results 1+100, 2+100, 3+100, 4+100 -> r8 = 0x66_00000065, r9 = 0x68_00000067
    regs = {16: 0x0000000200000001, 17: 0x0000000400000003, 24: 0x000000640000000A}
    sim, insn = executor(svisa, "sv.add/w=32 *8, *16, *24", 4, regs, {"in2": [1, 1, 1, 1]})
    insn(sim.state, 0x1000)
    assert sim.state.gpr[8:10] == [0x0000006600000065, 0x0000006800000067]


def test_short_schedule_traps(svisa):
    sim, insn = executor(svisa, "sv.add *8, *16, *24", 4, REGS, {"in1": [0, 1]})
    with pytest.raises(Trap, match="in1 schedule gives 2 of 4"):
        insn(sim.state, 0x1000)


def test_unknown_slot_rejected():
    with pytest.raises(ValueError, match="unknown index-mapping slot"):
        IndexMap({"in4": [0]})
    assert SLOTS == ("in1", "in2", "in3", "out", "out2")


def test_generator_factory_schedule(svisa):
    # a schedule is re-iterable: iter() once per run.  An object whose __iter__
    # yields 3,2,1,0 on in2: r8+k = r16+k + r(24+3-k) = 10(k+1) + (4-k): 14, 23, 32, 41
    class Reverse:
        def __iter__(self):
            return iter(range(3, -1, -1))
    sim, insn = executor(svisa, "sv.add *8, *16, *24", 4, REGS, {"in2": Reverse()})
    insn(sim.state, 0x1000)
    assert sim.state.gpr[8:12] == [14, 23, 32, 41]
    sim.state.gpr[8:12] = [0] * 4
    insn(sim.state, 0x1000)  # a second run iterates the schedule again
    assert sim.state.gpr[8:12] == [14, 23, 32, 41]
