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
    # puts RS at r128 (found by tests/test_fuzz.py: it was a Python IndexError)
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
