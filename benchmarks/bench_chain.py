"""Chaining: a loop over several blocks (an if/else and a call in its body),
translated with chaining (the default) against translated blocks left
unchained (``region_after = 0``), alternating in one run, by CPU time.

    python benchmarks/bench_chain.py [--n 983040] [--runs 3]

Every pass leaves a block for another: unchained, each transition goes back
through the dispatcher (a dictionary look-up and the registers written back
and reloaded); chained, the loop stays in one region function.
"""
import argparse
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from isa_ext.isa import ISA  # noqa: E402
from isa_ext.sim import REGION_AFTER, Simulator  # noqa: E402

# n passes: odd passes count in r4, even ones add 3 to r7, every pass calls sub
PROGRAM = """
        li      r3, 0
        lis     r6, {hi}
        ori     r6, r6, {lo}
loop:   addi    r3, r3, 1
        andi.   r5, r3, 1
        beq     even
        addi    r4, r4, 1
        b       next
even:   addi    r7, r7, 3
next:   bl      sub
        cmpd    r3, r6
        bne     loop
        b       done
sub:    add     r8, r8, r3
        blr
done:
"""


def one_run(isa, n, region_after):
    sim = Simulator(isa=isa, translate=True)
    sim.region_after = region_after
    sim.load_asm(PROGRAM.format(hi=n >> 16, lo=n & 0xFFFF))
    t = time.process_time()
    res = sim.run(max_steps=10 ** 10)
    dt = time.process_time() - t
    # the loop's sums: r3 = n passes, r4 the odd ones, r7 three per even one,
    # r8 = 1 + 2 + ... + n (the call's adds)
    if res.stop != "end" or res.gpr[3] != n or res.gpr[4] != (n + 1) // 2 \
            or res.gpr[7] != 3 * (n // 2) or res.gpr[8] != n * (n + 1) // 2:
        raise SystemExit(f"the loop ended wrong: {res}")
    return res.steps, res.steps / dt


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=983040)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    isa = ISA(extensions=["base"])
    rates = {0: [], REGION_AFTER: []}
    for _ in range(args.runs):
        for ra in rates:
            steps, rate = one_run(isa, args.n, ra)
            rates[ra].append(rate)
    print(f"python {platform.python_version()} ({platform.python_implementation()})")
    print(f"command: {sys.executable} {' '.join(sys.argv)}")
    print(f"if/else + call loop, {args.n:,} passes, {steps:,} instructions, "
          f"{args.runs} runs each way (CPU time)")
    off, on = statistics.median(rates[0]), statistics.median(rates[REGION_AFTER])
    print(f"blocks, unchained: median {off:,.0f} instr/s")
    print(f"chained:           median {on:,.0f} instr/s")
    print(f"chained / unchained: {on / off:.2f}x")
    try:
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    except OSError:
        pass


if __name__ == "__main__":
    main()
