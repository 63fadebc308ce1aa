"""vmrgew / vmrgow (Power ISA v3.1 Book I 6.8.x, Vector Merge Even/Odd Word):
words numbered 0..3 from the most significant; even takes words 0 and 2 of
VRA and VRB in turn, odd words 1 and 3.  Expected values by hand."""
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

A = 0xA0A0A0A0_A1A1A1A1_A2A2A2A2_A3A3A3A3
B = 0xB0B0B0B0_B1B1B1B1_B2B2B2B2_B3B3B3B3


def run(text):
    sim = Simulator(ISA(), strict=True)
    sim.load_asm(text + "\n")
    sim.state.vr[2], sim.state.vr[3] = A, B
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    return sim.state.vr[1]


def test_merge_even_word():
    assert run("vmrgew 1,2,3") == 0xA0A0A0A0_B0B0B0B0_A2A2A2A2_B2B2B2B2


def test_merge_odd_word():
    assert run("vmrgow 1,2,3") == 0xA1A1A1A1_B1B1B1B1_A3A3A3A3_B3B3B3B3
