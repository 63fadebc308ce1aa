"""The vector-scalar register file (docs/vector.md): VSR i < 32 shares
doubleword 0 with FPR i, VSR 32 + i is VR i, FPRs 32..127 stay SVP64's.
Expected values are derived by hand from the Power ISA v3.1 register model
(Book I 7.2.1: FPR i is doubleword 0 of VSR i; VR i is VSR 32 + i)."""
import pytest

from isa_ext.machine import State
from isa_ext.sim import Simulator, register_changes


def test_fpr_is_doubleword_0_of_vsr():
    s = State()
    s.vsr_write(5, 0x1111222233334444_5555666677778888)
    assert s.fpr[5] == 0x1111222233334444
    assert s.vsr_dw1[5] == 0x5555666677778888
    s.fpr[5] = 0xAAAA
    assert s.vsr_read(5) == 0xAAAA << 64 | 0x5555666677778888


def test_vr_is_vsr_32_up_and_fpr_32_up_is_separate():
    s = State()
    s.vsr_write(33, (1 << 127) | 7)
    assert s.vr[1] == (1 << 127) | 7
    assert s.fpr[33] == 0  # SVP64's FPR 33, not VSR 33
    s.fpr[40] = 9
    assert s.vsr_read(40) == 0


def test_snapshot_round_trip_carries_vector_state():
    s = State()
    s.vsr_write(2, 3 << 64 | 4)
    s.vr[31] = 5
    s.vscr, s.vrsave = 0x1, 0xFFFF0000
    snap = s.copy_registers()
    t = State()
    t.restore_registers(snap)
    assert (t.vsr_read(2), t.vr[31], t.vscr, t.vrsave) == (3 << 64 | 4, 5, 0x1, 0xFFFF0000)


def test_register_changes_name_vsr_and_vr():
    s = State()
    before = s.copy_registers()
    s.vsr_dw1[3] = 1
    s.fpr[3] = 2
    s.vr[4] = 6
    s.vscr = 1
    ch = register_changes(before, s.copy_registers())
    assert ch["vs3"] == (0, 2 << 64 | 1)
    assert ch["f3"] == (0, 2)
    assert ch["v4"] == (0, 6)
    assert ch["vscr"] == (0x10000, 1)


def test_vscr_starts_with_nj_as_linux_starts_a_process():
    # Linux start_thread: vscr = 0x00010000 (NJ=1); tests/vector/test_vsx_qemu.py
    # reads it with mfvscr on qemu-ppc64le too
    assert State().vscr == 0x10000


def test_vrsave_is_spr_256():
    sim = Simulator()
    sim.load_asm("mtspr 256,3\nmfspr 4,256\n")
    sim.state.gpr[3] = 0x123456789
    res = sim.run(max_steps=10)
    assert res.stop == "end"
    assert sim.state.vrsave == 0x23456789 and sim.state.gpr[4] == 0x23456789


@pytest.mark.parametrize("translate", [False, True])
def test_fp_load_then_vsx_move_sees_the_fpr(translate, monkeypatch):
    """lfd writes FPR 1 = doubleword 0 of VSR 1; mfvsrd reads it back, and
    mfvsrld reads doubleword 1, which lfd leaves alone."""
    if translate:
        monkeypatch.setenv("ISA_EXT_TRANSLATE", "eager")
    sim = Simulator(translate=translate)
    sim.load_asm("lfd 1,0(3)\nmfvsrd 4,vs1\nmfvsrld 5,vs1\n")
    sim.state.gpr[3] = 0x8000
    sim.state.mem.write(0x8000, 8, 0x400921FB54442D18)
    sim.state.vsr_dw1[1] = 0x77
    res = sim.run(max_steps=10)
    assert res.stop == "end"
    assert sim.state.gpr[4] == 0x400921FB54442D18
    assert sim.state.gpr[5] == 0x77
