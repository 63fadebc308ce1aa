"""SVP64 engine speed.

    python3 benchmarks/bench_svp64.py

1. horizontal-first ``sv.add *0, *64, *64`` with VL=64: element operations/second;
2. vertical-first loop (``sv.add``, ``svstep.``, ``bc``): instructions/second;
3. REMAP'd horizontal-first matrix multiply (``svshape 4, 4, 4``: 4x4 times
   4x4, VL=64, ``sv.maddld`` under persistent REMAP): element operations/second.
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


def vf(isa, vl=64, outer=60):
    sim = Simulator(isa=isa)
    sim.load_asm("loop:\n sv.add *0, *64, *64\n svstep. 1, 0, 1, 0\n bc 4, 3, loop\n")
    total = 0
    t = time.perf_counter()
    for _ in range(outer):
        sim.state.pc = 0x1000
        sim.state.svstate = SV.make(maxvl=vl, vl=vl, vfirst=1)
        r = sim.run()
        assert r.stop == "end", r.trap
        total += r.steps
    dt = time.perf_counter() - t
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


def main():
    isa = ISA(extensions=["base", "svp64"])
    hf(isa, 10)
    vf(isa, 4, 1)
    print(f"HF sv.add VL=64: {hf(isa):,.0f} element operations/s")
    print(f"VF loop (sv.add, svstep., bc): {vf(isa):,.0f} instructions/s")
    hf_matrix(isa, 10)
    print(f"HF REMAP matrix sv.maddld VL=64: {hf_matrix(isa):,.0f} element operations/s")


if __name__ == "__main__":
    main()
