"""Cases (tests/vsx_probe.py's format) for the VSX Matrix-Multiply Assist
rows (decoder/vector/mma.csv): random accumulators and operands, extreme
elements for the saturating forms, every mask shape of the pm* forms.  Each
case clears VSCR first and reads it back in v31 (VSR 63, which no
accumulator reaches), so VSCR.SAT is compared too."""
import random

INTEGER = ("xvi4ger8", "xvi4ger8pp", "xvi8ger4", "xvi8ger4pp", "xvi8ger4spp",
           "xvi16ger2", "xvi16ger2pp", "xvi16ger2s", "xvi16ger2spp")
# products per word: the width of PMSK in the pm* form
PRODUCTS = {"xvi4ger8": 8, "xvi8ger4": 4, "xvi16ger2": 2}


def _products(mnemonic):
    return next(n for stem, n in PRODUCTS.items() if mnemonic.startswith(stem))


def _operand(rng):
    """128 bits of words that are often extreme (saturation) or small."""
    v = 0
    for _ in range(4):
        pick = rng.random()
        w = rng.choice((0x7FFF7FFF, 0x80008000, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF,
                        0x77777777, 0x88888888)) if pick < 0.3 else rng.getrandbits(32)
        v = v << 32 | w
    return v


def _accumulator_word(rng):
    return rng.choice((0x7FFFFFFF, 0x80000000, 0x7FFFFF00, 0x800000FF, 0)) \
        if rng.random() < 0.3 else rng.getrandbits(32)


def _registers(rng, at):
    """Two VSR operands outside ACC[at] and below VSR 63."""
    free = [r for r in range(63) if r // 4 != at]
    return rng.choice(free), rng.choice(free)


def case(rng, line, at, xa, xb):
    init = {f"vs{4 * at + i}": sum(_accumulator_word(rng) << (32 * j) for j in range(4))
            for i in range(4)}
    init[f"vs{xa}"] = _operand(rng)
    init[f"vs{xb}"] = _operand(rng)
    lines = ["vxor 31,31,31", "mtvscr 31", line, "mfvscr 31"]
    return init, lines, [f"vs{4 * at + i}" for i in range(4)] + ["v31"]


def integer_cases(seed=33, per_row=12):
    rng = random.Random(seed)
    cases = []
    for mnemonic in INTEGER:
        for n in range(per_row):
            at = rng.randrange(8)
            xa, xb = _registers(rng, at)
            cases.append(case(rng, f"{mnemonic} {at},{xa},{xb}", at, xa, xb))
            xmsk, ymsk = rng.getrandbits(4), rng.getrandbits(4)
            pmsk = rng.getrandbits(_products(mnemonic))
            if n == 0:
                xmsk = ymsk = pmsk = 0
            cases.append(case(rng, f"pm{mnemonic} {at},{xa},{xb},{xmsk},{ymsk},{pmsk}",
                              at, xa, xb))
    return cases


def move_cases(seed=34):
    """xxsetaccz, xxmtacc, xxmfacc, and an accumulate after each."""
    rng = random.Random(seed)
    cases = []
    for at in range(8):
        xa, xb = _registers(rng, at)
        for seq in (["xxsetaccz {at}"], ["xxmtacc {at}", "xxmfacc {at}"],
                    ["xxsetaccz {at}", "xvi16ger2pp {at},{xa},{xb}", "xxmfacc {at}"]):
            init, lines, outs = case(rng, "nop", at, xa, xb)
            lines[2:3] = [s.format(at=at, xa=xa, xb=xb) for s in seq]
            cases.append((init, lines, outs))
    return cases
