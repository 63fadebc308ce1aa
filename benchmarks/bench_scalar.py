"""Scalar simulation speed: instructions per second of an addi/cmpd/bne loop.

    python benchmarks/bench_scalar.py [--iterations N] [--runs R] [--translate on|off|both]
                                      [--clock wall|cpu]

Each run assembles the loop, runs it to the end and times ``Simulator.run``
alone (decoding and compiling happen once, before the timed runs).  With
``--translate both`` (the default) the runs alternate between block
translation on and off, so both rates come from the same minutes of a shared
machine.
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


def one_run(isa, iterations, translate=True, clock=time.perf_counter):
    sim = Simulator(isa=isa, translate=translate)
    sim.load_asm(LOOP)
    sim.state.gpr[4] = iterations
    start = clock()
    res = sim.run(max_steps=10 * iterations)
    elapsed = clock() - start
    if res.stop != "end" or res.gpr[3] != iterations:
        raise SystemExit(f"benchmark loop misbehaved: {res.stop}, r3={res.gpr[3]}")
    return res.steps / elapsed


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--iterations", type=int, default=300_000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--translate", choices=("on", "off", "both"), default="both",
                   help="block translation on, off, or both alternating (default both)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="time by the wall clock (default) or by this process's CPU time "
                        "(steadier on a machine other work is using)")
    args = p.parse_args(argv)
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    modes = {"on": [True], "off": [False], "both": [False, True]}[args.translate]
    isa = ISA()
    for mode in modes:
        one_run(isa, 100, mode)  # warm up: compile the three instructions
    rates = {mode: [] for mode in modes}
    for _ in range(args.runs):
        for mode in modes:
            rates[mode].append(one_run(isa, args.iterations, mode, clock))
    print(f"python {platform.python_version()} ({platform.python_implementation()})")
    print(f"command: {' '.join([sys.executable] + sys.argv)}")
    print(f"scalar addi/cmpd/bne loop, {3 * args.iterations + 1} instructions x {args.runs} runs"
          f" ({args.clock} clock)")
    for mode in modes:
        label = "translated" if mode else "per-instruction"
        print(f"{label:16} best   {max(rates[mode]):,.0f} instr/s")
        print(f"{label:16} median {statistics.median(rates[mode]):,.0f} instr/s")
    if len(modes) == 2:
        ratio = statistics.median(rates[True]) / statistics.median(rates[False])
        print(f"translated / per-instruction (medians): {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
