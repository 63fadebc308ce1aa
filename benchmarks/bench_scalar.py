"""Scalar simulation speed: instructions per second of an addi/cmpd/bne loop.

    python benchmarks/bench_scalar.py [--iterations N] [--runs R]

Each run assembles the loop, runs it to the end and times ``Simulator.run``
alone (decoding and compiling happen once, before the timed runs).
"""
import argparse
import os
import platform
import statistics
import sys
import time

# run from a checkout without installing: the package sits beside benchmarks/
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from isa_ext.isa import ISA  # noqa: E402
from isa_ext.sim import Simulator  # noqa: E402

LOOP = """
        li      r3, 0
loop:   addi    r3, r3, 1
        cmpd    r3, r4
        bne     loop
"""


def one_run(isa, iterations):
    sim = Simulator(isa=isa)
    sim.load_asm(LOOP)
    sim.state.gpr[4] = iterations
    start = time.perf_counter()
    res = sim.run(max_steps=10 * iterations)
    elapsed = time.perf_counter() - start
    if res.stop != "end" or res.gpr[3] != iterations:
        raise SystemExit(f"benchmark loop misbehaved: {res.stop}, r3={res.gpr[3]}")
    return res.steps / elapsed


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=300_000)
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    isa = ISA()
    one_run(isa, 100)  # warm up: compile the three instructions
    rates = [one_run(isa, args.iterations) for _ in range(args.runs)]
    print(f"python {platform.python_version()} ({platform.python_implementation()})")
    print(f"command: {' '.join([sys.executable] + sys.argv)}")
    print(f"scalar addi/cmpd/bne loop, {3 * args.iterations + 1} instructions x {args.runs} runs")
    print(f"best   {max(rates):,.0f} instr/s")
    print(f"median {statistics.median(rates):,.0f} instr/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
