"""Reserved instruction bits: a word that matches an instruction except for a
non-zero reserved bit is an invalid form (Power ISA Book I 1.8.2) and traps as
an illegal instruction, naming the instruction and the bits, state untouched."""
import pytest

from isa_ext.sim import Simulator


@pytest.mark.parametrize("word,mnemonic,bits", [
    # addme 3,4: 31<<26 | 3<<21 | 4<<16 | 234<<1 = 0x7C6401D4; bits 16:20 reserved.
    # RB-position value 5 = 0b00101 sets bits 18 and 20.
    (0x7C6429D4, "addme", "18, 20"),
    # lwzx 3,4,5: 31<<26 | 3<<21 | 4<<16 | 5<<11 | 23<<1 = 0x7C64282E; bit 31 reserved
    (0x7C64282F, "lwzx", "31"),
    # cmp 1,1,4,5 (0x7CA42000 | ...): 31<<26 | 1<<23 | 1<<21 | 4<<16 | 5<<11 = 0x7CA42800;
    # bit 9 (between BF and L) reserved: | 1<<22
    (0x7CE42800, "cmp", "9"),
])
def test_invalid_form_traps_with_reason(isa, word, mnemonic, bits):
    sim = Simulator(isa)
    sim.load_words([word])
    sim.state.gpr[4], sim.state.gpr[5] = 0x1000, 8
    before = sim.state.copy_registers()
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert res.trap.pc == 0x1000 and res.trap.word == word
    assert f"invalid form of {mnemonic}" in res.trap.reason
    assert f"bit(s) {bits} set" in res.trap.reason
    assert sim.state.copy_registers() == before


def test_valid_form_still_runs(isa):
    sim = Simulator(isa)
    sim.load_words([0x7C6401D4])          # addme 3,4: RT = RA + CA - 1
    sim.state.gpr[4], sim.state.ca = 10, 1
    res = sim.run(max_steps=2)
    assert res.stop == "end" and res.gpr[3] == 10
