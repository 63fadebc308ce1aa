"""REMAP is not implemented: while SVSTATE's REMAP fields (SVme, mi0..mo1, RMpst;
libre-soc's sprs.mdwn SVSTATE layout, bits 32:46 and 62) are non-zero, every
SVP64-prefixed instruction traps instead of running un-remapped."""
import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

FIELD_VALUES = [("mi0", 1), ("mi1", 2), ("mi2", 3), ("mo0", 1), ("mo1", 2),
                ("SVme", 0b00001), ("SVme", 0b10000), ("RMpst", 1)]


@pytest.mark.parametrize("field,value", FIELD_VALUES)
@pytest.mark.parametrize("insn", ["sv.add *8, *16, *24", "sv.addi *8, *16, 1",
                                  "sv.mv.swiz/vec2 *8, *16, \"YX\""])
def test_prefixed_instruction_traps_under_remap(isa, field, value, insn):
    # SVSTATE is set the way a program would: mtspr SVSTATE (SPR 720) from r3
    sv = SV.put(SV.make(maxvl=2, vl=2), field, value)
    sim = Simulator(isa=isa)  # all extensions: sv.mv.swiz runs a category executor
    sim.load_asm(f"mtspr 720, 3\n{insn}\n")
    sim.state.gpr[3] = sv
    for i in range(4):
        sim.state.gpr[16 + i], sim.state.gpr[24 + i] = 5 + i, 7
    r = sim.run(max_steps=10)
    assert r.stop == "trap" and "REMAP is not implemented" in r.trap.reason
    assert r.trap.pc == 0x1004
    assert r.gpr[8:12] == [0, 0, 0, 0]  # nothing written
    assert sim.state.svstate == sv


def test_no_remap_fields_runs(svisa):
    # the same program with REMAP fields clear: 5+7, 6+7 (control case)
    sim = Simulator(isa=svisa)
    sim.load_asm("mtspr 720, 3\nsv.add *8, *16, *24\n")
    sim.state.gpr[3] = SV.make(maxvl=2, vl=2)
    for i in range(2):
        sim.state.gpr[16 + i], sim.state.gpr[24 + i] = 5 + i, 7
    r = sim.run(max_steps=10)
    assert r.stop == "end" and r.gpr[8:10] == [12, 13]


def test_remap_mask_covers_exactly_the_remap_fields():
    # every REMAP field sets a bit of the mask; no other SVSTATE field does
    for name in SV.FIELDS:
        v = SV.put(0, name, 1)
        remap = name in ("mi0", "mi1", "mi2", "mo0", "mo1", "SVme", "RMpst")
        assert bool(v & SV.REMAP_MASK) == remap, name


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
