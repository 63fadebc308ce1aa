"""The Python API's conveniences: a compact RunResult repr and the pytest
plugin's ``sim`` / ``asm_run`` fixtures (isa_ext/pytest_plugin.py), including
its documented example run by pytester as a user's test file would be."""
import os
import struct

import pytest

from isa_ext.sim import Simulator

from conftest import ROOT


def test_run_result_repr_is_one_short_line():
    sim = Simulator()
    sim.load_asm("li r3, 5\nli r4, 6\n.long 0\n")
    text = repr(sim.run())
    # li r3,5 and li r4,6 ran; the word 0 at 0x1008 trapped
    assert text.startswith("RunResult(stop='trap', steps=2, pc=0x1008, trap='trap (illegal)")
    assert text.endswith("changed={r3=0x5, r4=0x6})") and "\n" not in text
    assert "gpr" not in text and len(text) < 300  # not the 128-entry register files


def test_run_result_repr_caps_the_changes():
    sim = Simulator()
    sim.load_asm("".join(f"li r{i}, {i + 1}\n" for i in range(12)))
    text = repr(sim.run())
    # 12 registers changed: 8 named (r0=0x1 .. r7=0x8), then "+4 more"
    assert "r7=0x8, +4 more}" in text and "r8=" not in text


def test_sim_fixture_is_a_fresh_simulator(sim):
    sim.load_words([0x38630001])  # addi r3,r3,1 (PO 14, RT 3, RA 3, SI 1)
    sim.state.gpr[3] = 41
    assert sim.run().gpr[3] == 42


def test_asm_run_fixture(asm_run):
    # the plugin docstring's example: 2 + 40
    res = asm_run("add r5, r3, r4", gpr={3: 2, 4: 40})
    assert res.stop == "end" and res.gpr[5] == 42
    # FPR floats as doubles, raw ints as bits; 1.5 + 1.0 = 2.5 = 0x4004000000000000
    res = asm_run("fadd f3, f1, f2", fpr={1: 1.5, 2: 0x3FF0000000000000})
    assert res.fpr[3] == 0x4004000000000000
    # special registers and memory: mfctr, and ld of "ABCDEFGH" (little-endian)
    res = asm_run("mfctr r3\nlis r6, 2\nld r4, 0(r6)", spr={"ctr": 7},
                  mem={0x20000: b"ABCDEFGH"})
    assert res.gpr[3] == 7 and res.gpr[4] == struct.unpack("<Q", b"ABCDEFGH")[0]
    with pytest.raises(ValueError, match="unknown special register 'ctrl'"):
        asm_run("nop", spr={"ctrl": 1})


def test_documented_fixture_example_runs_in_a_user_project(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", ROOT)  # this checkout's isa_ext, not an installed one
    pytester.makeconftest('pytest_plugins = ["isa_ext.pytest_plugin"]\n')
    pytester.makepyfile('''
        def test_add(asm_run):
            res = asm_run("add r5, r3, r4", gpr={3: 2, 4: 40})
            assert res.stop == "end" and res.gpr[5] == 42
    ''')
    pytester.runpytest_subprocess("-p", "no:randomly").assert_outcomes(passed=1)


@pytest.mark.parametrize("trace", [False, True])
def test_ctrl_c_during_run_reports_pc_and_steps(trace):
    from isa_ext.sim import Interrupted
    sim = Simulator()
    sim.load_asm("li r3, 1\nli r4, 2\nsc\n")

    def ctrl_c(_state):  # Ctrl-C arriving while the sc (third instruction) runs
        raise KeyboardInterrupt
    sim.state.syscall_handler = ctrl_c
    with pytest.raises(Interrupted) as e:
        sim.run(trace=trace)
    # the two li completed; the sc at 0x1008 was running
    assert (e.value.pc, e.value.steps) == (0x1008, 2)
    assert isinstance(e.value, KeyboardInterrupt)
