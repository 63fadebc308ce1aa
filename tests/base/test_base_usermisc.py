"""User-level v3.0/v3.1 instructions the simulated process does not offer
(pseudocode/base/usermisc.mdwn): each traps as an illegal instruction naming
why, with registers and memory untouched; cpabort is a no-op.  QEMU 7.2
linux-user also raises SIGILL for scv, copy and paste. and runs cpabort."""
import pytest

from isa_ext.asm import assemble
from isa_ext.isa import ISA
from isa_ext.sim import Simulator


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def run(isa, line):
    sim = Simulator(isa=isa)
    sim.load_words(assemble(line + "\n", isa=isa, base=0x1000).words, addr=0x1000)
    sim.state.gpr[3], sim.state.gpr[4], sim.state.gpr[1] = 0x20000, 0x5, 0x30000
    sim.state.mem.write_bytes(0x20000, bytes(range(1, 65)))
    res = sim.run(max_steps=10)
    return res, sim.state.mem.read_bytes(0x20000, 64)


@pytest.mark.parametrize("line, why", [
    ("scv 0", "system call vectored"), ("copy 3,4", "copy-paste"),
    ("paste. 3,4", "copy-paste"), ("lwat 5,3,0", "atomic"), ("ldat 5,3,8", "atomic"),
    ("stwat 4,3,0", "atomic"), ("stdat 4,3,1", "atomic"),
    ("hashst 4,-8(1)", "HASHKEYR"), ("hashchk 4,-512(1)", "HASHKEYR")])
def test_not_offered_traps_with_its_reason(isa, line, why):
    res, mem = run(isa, line)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert why in res.trap.reason
    assert mem == bytes(range(1, 65)) and res.gpr[5] == 0 and res.cr == 0


def test_cpabort_does_nothing(isa):
    res, mem = run(isa, "cpabort")
    assert res.stop == "end" and mem == bytes(range(1, 65))


def test_hash_offset_field():
    # hashst RB,D(RA): offset = EXTS(0b1 || DX || D || 0b000); GNU as writes
    # hashst 2,-8(3) as 0x7fe315a5 (DX=1, D=31) and -512 as DX=0, D=0
    isa = ISA(extensions=["base"])
    assert assemble("hashst 2,-8(3)\nhashst 2,-512(3)\n", isa=isa).words == [
        0x7FE315A5, 0x7C0315A4]
