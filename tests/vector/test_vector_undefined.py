"""Encodings whose result the book leaves undefined and that isa_ext traps
rather than guess (docs/vector.md): the element positions past the last whole
element of vextractu[hw]/vextractd/vinsert[hwd]/xxextractuw/xxinsertw (Power
ISA v3.1 Book I 6.8.x: "If UIM is greater than N, the result is undefined").
The trap leaves every register as it was."""
import pytest

from isa_ext.sim import Simulator


@pytest.mark.parametrize("line,ok_line", [
    ("vextractuh v1,v2,15", "vextractuh v1,v2,14"),
    ("vextractuw v1,v2,13", "vextractuw v1,v2,12"),
    ("vextractd v1,v2,9", "vextractd v1,v2,8"),
    ("vinserth v1,v2,15", "vinserth v1,v2,14"),
    ("vinsertw v1,v2,13", "vinsertw v1,v2,12"),
    ("vinsertd v1,v2,9", "vinsertd v1,v2,8"),
    ("xxextractuw vs1,vs2,13", "xxextractuw vs1,vs2,12"),
    ("xxinsertw vs1,vs2,13", "xxinsertw vs1,vs2,12"),
])
def test_element_position_past_the_end_traps(line, ok_line):
    sim = Simulator()
    sim.load_asm(line + "\n")
    sim.state.vr[1] = sim.state.vr[2] = (1 << 128) - 1
    sim.state.vsr_write(1, 5)
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "undefined" in res.trap.reason
    assert sim.state.vr[1] == (1 << 128) - 1 and sim.state.vsr_read(1) == 5
    sim = Simulator()
    sim.load_asm(ok_line + "\n")
    assert sim.run(max_steps=2).stop == "end"
