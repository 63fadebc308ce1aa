"""Measure the accuracy of isa_ext's fptrans instructions (docs/fptrans.md).

For every function, single and double, random operands over a wide domain
run through the instruction itself (one SVP64 vector instruction per batch,
so the pages and tables are what is measured) and each result is compared with
the exact value computed by mpmath at 1500 bits (its high-level functions, not
the libmp calls the implementation makes).  Reported per function: the largest
error in units in the last place of the exact value's binade, and how many
results differ from the correctly rounded one (round to nearest).

    python tools/fptrans_accuracy.py [--n 512] [--seed 1]      # a markdown table

A correctly rounded implementation shows at most 0.5 ulp and 0 misrounded.
Slow by design (minutes): not a unit test.
"""
import argparse
import math
import os
import random
import struct
import sys

import mpmath

# the isa_ext of this source tree, not an installed one
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CTX = mpmath.MPContext()
CTX.prec = 1500
M = CTX


def d(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f(image):
    return struct.unpack("<d", struct.pack("<Q", image))[0]


def single(x):
    """x rounded to single precision (beyond its range: the largest single)."""
    if abs(x) > 3.4e38:
        x = math.copysign(3.4e38, x)
    return struct.unpack("<f", struct.pack("<f", x))[0]


def u(lo, hi):
    return lambda r: r.uniform(lo, hi)


def lu(lo, hi, signed=False):
    """log-uniform magnitude 10**lo .. 10**hi (random sign if signed)."""
    return lambda r: (r.choice((-1, 1)) if signed else 1) * 10 ** r.uniform(lo, hi)


def mix(*gens):
    return lambda r: r.choice(gens)(r)


def ints(lo, hi, skip_zero=False):
    return lambda r: r.choice([n for n in range(lo, hi + 1) if n or not skip_zero])


# (operand generators, exact value); the domains reach tiny and large operands
FUNCTIONS = {
    "fsin": ([mix(u(-10, 10), lu(-300, 15, True))], M.sin),
    "fcos": ([mix(u(-10, 10), lu(-300, 15, True))], M.cos),
    "ftan": ([mix(u(-10, 10), lu(-300, 15, True))], M.tan),
    "fasin": ([mix(u(-1, 1), lu(-300, 0, True))], M.asin),
    "facos": ([u(-1, 1)], M.acos),
    "fatan": ([lu(-300, 300, True)], M.atan),
    "fsinpi": ([mix(u(-10, 10), lu(-300, 15, True))], M.sinpi),
    "fcospi": ([mix(u(-10, 10), lu(-300, 15, True))], M.cospi),
    "ftanpi": ([mix(u(-10, 10), lu(-300, 15, True))], lambda x: M.sinpi(x) / M.cospi(x)),
    "fasinpi": ([mix(u(-1, 1), lu(-300, 0, True))], lambda x: M.asin(x) / M.pi),
    "facospi": ([u(-1, 1)], lambda x: M.acos(x) / M.pi),
    "fatanpi": ([lu(-300, 300, True)], lambda x: M.atan(x) / M.pi),
    "fsinh": ([mix(u(-700, 700), lu(-300, 0, True))], M.sinh),
    "fcosh": ([u(-700, 700)], M.cosh),
    "ftanh": ([mix(u(-20, 20), lu(-300, 0, True))], M.tanh),
    "fasinh": ([lu(-300, 300, True)], M.asinh),
    "facosh": ([mix(lu(0, 300), u(1, 2))], M.acosh),
    "fatanh": ([mix(u(-1, 1), lu(-300, 0, True))], M.atanh),
    "fexp": ([u(-740, 709)], M.exp),
    "fexpm1": ([mix(u(-40, 709), lu(-300, 0, True))], M.expm1),
    "fexp2": ([u(-1070, 1023)], lambda x: M.power(2, x)),
    "fexp2m1": ([mix(u(-60, 1023), lu(-300, 0, True))], lambda x: M.power(2, x) - 1),
    "fexp10": ([u(-320, 308)], lambda x: M.power(10, x)),
    "fexp10m1": ([mix(u(-20, 308), lu(-300, 0, True))], lambda x: M.power(10, x) - 1),
    "flog": ([lu(-307, 308)], M.ln),
    "flogp1": ([mix(u(-1, 10), lu(-300, 300, False), lu(-300, 0, True))],
               lambda x: M.ln(1 + x)),
    "flog2": ([lu(-307, 308)], lambda x: M.ln(x) / M.ln(2)),
    "flog2p1": ([mix(u(-1, 10), lu(-300, 300, False), lu(-300, 0, True))],
                lambda x: M.ln(1 + x) / M.ln(2)),
    "flog10": ([lu(-307, 308)], lambda x: M.ln(x) / M.ln(10)),
    "flog10p1": ([mix(u(-1, 10), lu(-300, 300, False), lu(-300, 0, True))],
                 lambda x: M.ln(1 + x) / M.ln(10)),
    "frsqrt": ([lu(-307, 308)], lambda x: 1 / M.sqrt(x)),
    "fcbrt": ([lu(-307, 308, True)], lambda x: M.sign(x) * M.cbrt(abs(x))),
    "frecip": ([lu(-300, 300, True)], lambda x: 1 / x),
    "fatan2": ([lu(-150, 150, True), lu(-150, 150, True)], M.atan2),
    "fatan2pi": ([lu(-150, 150, True), lu(-150, 150, True)],
                 lambda y, x: M.atan2(y, x) / M.pi),
    "fhypot": ([lu(-150, 150, True), lu(-150, 150, True)], M.hypot),
    "fpow": ([lu(-3, 3), u(-100, 100)], M.power),
    "fpowr": ([lu(-3, 3), u(-100, 100)], M.power),
    "fpown": ([lu(-3, 3, True), ints(-100, 100)], M.power),
    "frootn": ([lu(-300, 300), ints(-50, 50, skip_zero=True)], lambda x, n: M.root(x, n)),
    "fmod": ([lu(-100, 100, True), lu(-100, 100, True)], lambda x, y: x - y * int(x / y)),
    "fremainder": ([lu(-10, 10, True), lu(-10, 10, True)],
                   lambda x, y: x - y * M.nint(x / y)),
}


# single-precision domains where the double one mostly leaves the single range
SINGLE_DOMAINS = {
    "fsinh": [mix(u(-89, 89), lu(-40, 0, True))], "fcosh": [u(-89, 89)],
    "fexp": [u(-103, 88)], "fexpm1": [mix(u(-20, 88), lu(-40, 0, True))],
    "fexp2": [u(-149, 127)], "fexp2m1": [mix(u(-30, 127), lu(-40, 0, True))],
    "fexp10": [u(-44, 38)], "fexp10m1": [mix(u(-10, 38), lu(-40, 0, True))],
    "fpow": [lu(-3, 3), u(-12, 12)], "fpowr": [lu(-3, 3), u(-12, 12)],
    "fpown": [lu(-3, 3, True), ints(-12, 12)],
    "fhypot": [lu(-18, 18, True), lu(-18, 18, True)], "frecip": [lu(-37, 37, True)],
}


def ulp_error(got, exact, bits):
    """|got - exact| in ulps of exact's binade (None where got is not finite
    but exact is representable, or exact is beyond the format)."""
    prec, emin = (53, -1022) if bits == 64 else (24, -126)
    if exact == 0:
        return 0.0 if got == 0 else math.inf
    e = max(int(M.floor(M.log(abs(exact), 2))), emin)
    ulp = M.ldexp(1, e - prec + 1)
    if math.isinf(got) or math.isnan(got):
        return math.inf
    return float(abs(M.mpf(got) - exact) / ulp)


def correctly_rounded(exact, bits):
    man = mpmath.libmp.mpf_pos(exact._mpf_, 53 if bits == 64 else 24, "n")
    return float(CTX.make_mpf(man))


def in_range(exact, bits):
    big, tiny = (1.7e308, 2.3e-308) if bits == 64 else (3.3e38, 1.2e-38)
    return exact == 0 or tiny <= abs(exact) <= big


def measure(isa, name, bits, n, seed):
    from isa_ext.sim import Simulator
    gens, fn = FUNCTIONS[name]
    if bits == 32:
        gens = SINGLE_DOMAINS.get(name, gens)
    r = random.Random(f"{seed}/{name}/{bits}")
    mnemonic = name + ("s" if bits == 32 else "")
    worst, misrounded, counted = 0.0, 0, 0
    vl = 32
    for _ in range(0, n, vl):
        batch = []
        while len(batch) < vl:
            args = [g(r) for g in gens]
            if bits == 32:
                args = [single(a) if isinstance(a, float) else a for a in args]
            if all(a != 0 for a in args if isinstance(a, float)):  # a single underflowed
                batch.append(args)
        sim = Simulator(isa=isa)
        # FRT *64, FRA (or the one operand) *32, FRB (or RB, a GPR vector) *96
        line = f"sv.{mnemonic} *64,*32" if len(gens) == 1 else f"sv.{mnemonic} *64,*32,*96"
        sim.load_asm(f"setvl 0,0,{vl},0,1,1\n{line}\n")
        for i, args in enumerate(batch):
            sim.state.fpr[32 + i] = d(args[0])
            if len(args) == 2:
                if isinstance(args[1], int):
                    sim.state.gpr[96 + i] = args[1] & ((1 << 64) - 1)
                else:
                    sim.state.fpr[96 + i] = d(args[1])
        res = sim.run(max_steps=5)
        if res.stop != "end":
            raise SystemExit(f"{line}: {res.trap}")
        for i, args in enumerate(batch):
            try:
                exact = fn(*[M.mpf(a) if isinstance(a, float) else a for a in args])
            except ZeroDivisionError:   # a pole (tanpi of a half-integer): no value
                continue
            if not in_range(exact, bits):
                continue
            got = f(sim.state.fpr[64 + i])
            counted += 1
            worst = max(worst, ulp_error(got, exact, bits))
            if got != correctly_rounded(exact, bits):
                misrounded += 1
    return worst, misrounded, counted


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=512, help="operands per function and precision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="comma-separated mnemonics (double names)")
    args = ap.parse_args(argv)
    from isa_ext.isa import ISA
    isa = ISA()
    names = args.only.split(",") if args.only else sorted(FUNCTIONS)
    print(f"{args.n} random operands per row, seed {args.seed}; exact: mpmath at "
          f"{CTX.prec} bits; results outside the normal range not counted\n")
    print("| function | double: max ulp | misrounded | single: max ulp | misrounded |")
    print("|---|---|---|---|---|")
    for name in names:
        cells = []
        for bits in (64, 32):
            worst, bad, counted = measure(isa, name, bits, args.n, args.seed)
            cells += [f"{worst:.3f}", f"{bad} of {counted}"]
        print(f"| `{name}` | " + " | ".join(cells) + " |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
