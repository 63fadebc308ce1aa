"""C program speed: a gcc -O2 build of tests/c/sort.c, block translation on
against one instruction at a time, alternating in one run, by CPU time.

    python benchmarks/bench_c.py [--n 1200] [--runs 3] [--opt -O2]

The suite's programs finish in well under a second; ``--n`` rebuilds
sort.c with more keys (its insertion sort grows as N^2) so that the rate is
the program's, not the start-up's.  Needs powerpc64le-linux-gnu-gcc.
"""
import argparse
import os
import platform
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from isa_ext.diffcheck import cprograms  # noqa: E402
from isa_ext.isa import ISA  # noqa: E402
from isa_ext.sim import Simulator  # noqa: E402

C_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "c")


def build(n, opt, workdir):
    src = open(os.path.join(C_DIR, "sort.c")).read()
    if "#define N 300" not in src:
        raise SystemExit("tests/c/sort.c no longer defines N 300")
    path = os.path.join(workdir, "sort.c")
    with open(path, "w") as f:
        f.write(src.replace("#define N 300", f"#define N {n}"))
    with open(os.path.join(workdir, "rt.h"), "w") as f:
        f.write(open(os.path.join(C_DIR, "rt.h")).read())
    _sources, start = cprograms.suite_sources(C_DIR)
    return cprograms.compile_program(path, start, opt, os.path.join(workdir, "sort.elf"))


def one_run(isa, elf, translate):
    sim = Simulator(isa=isa, translate=translate)
    sim.load_elf(elf)
    t = time.process_time()
    res = sim.run(max_steps=10 ** 10)
    dt = time.process_time() - t
    if res.stop != "exit":
        raise SystemExit(f"sort stopped by {res.stop}: {res.trap}")
    return res.steps, res.steps / dt, res.exit_status


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=1200)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--opt", default="-O2")
    args = p.parse_args(argv)
    isa = ISA(extensions=["base"])
    with tempfile.TemporaryDirectory() as d:
        elf = build(args.n, args.opt, d)
        rates = {False: [], True: []}
        for _ in range(args.runs):
            for mode in (False, True):
                steps, rate, status = one_run(isa, elf, mode)
                rates[mode].append(rate)
    print(f"python {platform.python_version()} ({platform.python_implementation()})")
    print(f"command: {' '.join([sys.executable] + sys.argv)}")
    print(f"sort.c {args.opt} N={args.n}: {steps:,} instructions, exit status {status}, "
          f"{args.runs} runs each way (CPU time)")
    off, on = statistics.median(rates[False]), statistics.median(rates[True])
    print(f"one instruction at a time: median {off:,.0f} instr/s")
    print(f"translated:                median {on:,.0f} instr/s")
    print(f"translated / one instruction at a time: {on / off:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
