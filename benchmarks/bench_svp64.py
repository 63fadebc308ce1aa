"""SVP64 engine speed.

    python3 benchmarks/bench_svp64.py

1. horizontal-first ``sv.add *0, *64, *64`` with VL=64: element operations/second;
2. vertical-first loop (``sv.add``, ``svstep.``, ``bc``): instructions/second;
3. REMAP'd horizontal-first matrix multiply (``svshape 4, 4, 4``: 4x4 times
   4x4, VL=64, ``sv.maddld`` under persistent REMAP): element operations/second;
4. the HF ``sv.add`` VL=64 in a loop (four of them and ``bdnz``), and the VF
   loop run 300 times: the hot code block translation is for, translated
   against one instruction at a time, alternating in one run, by process CPU
   time (steadier on a shared machine).

The first three run 400 straight-line copies once: code run once is never
translated (a block start must be reached isa_ext.sim.HOT_AFTER times), so
they measure the one-instruction path either way.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from isa_ext.isa import ISA  # noqa: E402
from isa_ext.sim import Simulator  # noqa: E402
from isa_ext.svp64 import svstate as SV  # noqa: E402


def hf(isa, reps=400):
    sim = Simulator(isa=isa)
    body = []
    for _ in range(reps):
        body += isa.sv_assemble("sv.add", ["*0", "*64", "*64"], 0, int)
    sim.load_words(body)
    sim.state.svstate = SV.make(maxvl=64, vl=64)
    t = time.perf_counter()
    r = sim.run()
    dt = time.perf_counter() - t
    assert r.stop == "end", r.trap
    return reps * 64 / dt


def vf(isa, vl=64, outer=60, translate=None, clock=time.perf_counter):
    sim = Simulator(isa=isa, translate=translate)
    sim.load_asm("loop:\n sv.add *0, *64, *64\n svstep. 1, 0, 1, 0\n bc 4, 3, loop\n")
    total = 0
    t = clock()
    for _ in range(outer):
        sim.state.pc = 0x1000
        sim.state.svstate = SV.make(maxvl=vl, vl=vl, vfirst=1)
        r = sim.run()
        assert r.stop == "end", r.trap
        total += r.steps
    dt = clock() - t
    return total / dt


def hf_matrix(isa, reps=400):
    sim = Simulator(isa=isa)
    sim.load_asm("svshape 4, 4, 4, 0, 0\nsvremap 31, 1, 2, 3, 0, 0, 1\n"
                 + "sv.maddld *0, *16, *32, *0\n" * reps)
    for i in range(32):
        sim.state.gpr[16 + i] = i + 1
    t = time.perf_counter()
    r = sim.run()
    dt = time.perf_counter() - t
    assert r.stop == "end", r.trap
    return reps * 64 / dt


HF_LOOP = "loop:\n" + " sv.add *0, *64, *64\n" * 4 + " bdnz loop\n"


def hf_loop(isa, translate, passes=2000):
    """Element operations per CPU second of HF_LOOP (``passes`` times round)."""
    sim = Simulator(isa=isa, translate=translate)
    sim.load_asm(HF_LOOP)
    sim.state.svstate = SV.make(maxvl=64, vl=64)
    sim.state.ctr = passes
    t = time.process_time()
    r = sim.run()
    dt = time.process_time() - t
    assert r.stop == "end" and r.steps == 5 * passes, r.trap
    return passes * 4 * 64 / dt


def main():
    isa = ISA(extensions=["base", "svp64"])
    rates = {True: [], False: []}
    hf_loop(isa, True, 100)
    for _ in range(5):
        for mode in (False, True):
            rates[mode].append(hf_loop(isa, mode))
    on, off = sorted(rates[True])[2], sorted(rates[False])[2]
    print(f"HF sv.add VL=64 in a loop, median of 5, CPU time: translated {on:,.0f}, "
          f"one instruction at a time {off:,.0f} element operations/s ({on / off:.2f}x)")
    rates = {True: [], False: []}
    for _ in range(5):
        for mode in (False, True):
            rates[mode].append(vf(isa, translate=mode, outer=300, clock=time.process_time))
    on, off = sorted(rates[True])[2], sorted(rates[False])[2]
    print(f"VF loop (sv.add, svstep., bc) x 300 runs, median of 5, CPU time: translated "
          f"{on:,.0f}, one instruction at a time {off:,.0f} instructions/s ({on / off:.2f}x)")
    hf(isa, 10)
    vf(isa, 4, 1)
    print(f"HF sv.add VL=64: {hf(isa):,.0f} element operations/s")
    print(f"VF loop (sv.add, svstep., bc): {vf(isa):,.0f} instructions/s")
    hf_matrix(isa, 10)
    print(f"HF REMAP matrix sv.maddld VL=64: {hf_matrix(isa):,.0f} element operations/s")


if __name__ == "__main__":
    main()
