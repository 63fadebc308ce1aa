"""Simulator core behaviour: step limits and traps leave a consistent state."""
from isa_ext.sim import Simulator
from conftest import ROOT

# b . = PO 18, LI 0, AA 0, LK 0 -> 18 << 26
B_SELF = 18 << 26
# addi r3,r3,1 = 14<<26 | 3<<21 | 3<<16 | 1
ADDI_3_3_1 = 0x38630001


def test_step_limit_stops_infinite_loop(isa):
    sim = Simulator(isa=isa)
    sim.load_words([B_SELF])
    res = sim.run(max_steps=1000)
    assert res.stop == "step_limit"
    assert res.steps == 1000
    assert res.pc == 0x1000


def test_word_zero_traps_with_registers_intact(isa):
    sim = Simulator(isa=isa)
    sim.load_words([ADDI_3_3_1, 0, ADDI_3_3_1])
    sim.state.gpr[3] = 41
    res = sim.run(max_steps=100)
    assert res.stop == "trap"
    assert res.trap.pc == 0x1004
    assert res.trap.word == 0
    assert res.trap.reason
    assert res.gpr[3] == 42  # the first addi ran, nothing after the trap
    assert res.pc == 0x1004
    assert res.changed() == {"r3": (41, 42)}


def test_assembled_program_runs_like_hand_computation(isa):
    sim = Simulator(isa=isa)
    sim.load_asm("li r3,0\nli r4,4\nloop: add r3,r3,r4\naddi r4,r4,-1\ncmpdi r4,0\n"
                 "bne loop\n")
    # 4 + 3 + 2 + 1 = 10
    assert sim.run(max_steps=100).gpr[3] == 10


def test_benchmark_script_runs(capsys):
    import importlib.util
    import os
    path = os.path.join(ROOT,
                        "benchmarks", "bench_scalar.py")
    spec = importlib.util.spec_from_file_location("bench_scalar", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--iterations", "2000", "--runs", "1"]) == 0
    assert "instr/s" in capsys.readouterr().out


def test_a_lower_vsr_doubleword_shows_as_a_change():
    # VSR 0's doubleword 1 going from 5 to 0 (xxlxor 0,0,0 clears all 128
    # bits) is a change of vs0, whichever way the value moves
    from isa_ext.sim import Simulator, register_changes
    sim = Simulator()
    sim.load_asm("xxlxor 0,0,0\n")
    sim.state.vsr_dw1[0] = 5
    before = sim.state.copy_registers()
    sim.run()
    assert register_changes(before, sim.state.copy_registers())["vs0"] == (5, 0)
