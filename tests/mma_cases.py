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


FLOAT = tuple(f"{stem}{suf}" for stem in ("xvf16ger2", "xvbf16ger2", "xvf32ger", "xvf64ger")
              for suf in ("", "pp", "pn", "np", "nn"))
SPECIAL_SINGLES = (0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7FA00001,
                   1, 0x807FFFFF, 0x00800000, 0x3F800000, 0xBFC00000, 0x7F7FFFFF, 0x0C800000)
SPECIAL_HALVES = (0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7D01, 1, 0x83FF, 0x0400, 0x3C00,
                  0x7BFF, 0xC000, 0x0001)
SPECIAL_BF16 = (0, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x7FA1, 1, 0x807F, 0x0080, 0x3F80,
                0x7F7F, 0xC000, 0x0C80)
SPECIAL_DOUBLES = (0, 1 << 63, 0x7FF << 52, 0xFFF << 52, 0x7FF8 << 48, 0x7FF4 << 48 | 1,
                   1, 0x000FFFFFFFFFFFFF, 1 << 52, 0x3FF << 52, 0xBFF8 << 48,
                   0x7FEFFFFFFFFFFFFF, 0x3800000000000000)


def _elements(rng, width, specials, near):
    """128 bits of ``width``-bit elements: special values, random ones, and
    values near ``near`` (a common exponent, so sums cancel and round)."""
    v = 0
    for _ in range(128 // width):
        pick = rng.random()
        if pick < 0.3:
            e = rng.choice(specials)
        elif pick < 0.7:
            e = near ^ rng.getrandbits(width // 2 + 1) ^ (rng.getrandbits(1) << (width - 1))
        else:
            e = rng.getrandbits(width)
        v = v << width | e
    return v


OPERAND_FORMAT = {"xvf16ger2": (16, SPECIAL_HALVES, 0x3C00), "xvbf16ger2": (16, SPECIAL_BF16, 0x3F80),
                  "xvf32ger": (32, SPECIAL_SINGLES, 0x3F800000),
                  "xvf64ger": (64, SPECIAL_DOUBLES, 0x3FF << 52)}
PMSK_BITS = {"xvf16ger2": 2, "xvbf16ger2": 2, "xvf32ger": 0, "xvf64ger": 0}
FPSCR_OX, FPSCR_UX = 1 << (63 - 35), 1 << (63 - 36)


def _stem(mnemonic):
    return next(s for s in OPERAND_FORMAT if mnemonic.startswith(s))


def float_case(rng, line, stem, at, xa, xb, rn):
    width, specials, near = OPERAND_FORMAT[stem]
    acc_width = 64 if stem == "xvf64ger" else 32
    acc_specials = SPECIAL_DOUBLES if acc_width == 64 else SPECIAL_SINGLES
    acc_near = 0x3FF << 52 if acc_width == 64 else 0x3F800000
    init = {f"vs{4 * at + i}": _elements(rng, acc_width, acc_specials, acc_near) for i in range(4)}
    for r in (xa, xa + 1) if stem == "xvf64ger" else (xa,):
        init[f"vs{r}"] = _elements(rng, width, specials, near)
    init[f"vs{xb}"] = _elements(rng, width, specials, near)
    # FPSCR: exceptions and enables clear, RN as drawn (mtfsfi: no FPR used)
    lines = [f"mtfsfi {f},0" for f in range(7)] + [f"mtfsfi 7,{rn}", line]
    return init, lines, [f"vs{4 * at + i}" for i in range(4)] + ["fpscr"]


def float_cases(seed=35, per_row=16):
    rng = random.Random(seed)
    cases = []
    for mnemonic in FLOAT:
        stem = _stem(mnemonic)
        for n in range(per_row):
            at = rng.randrange(8)
            free = [r for r in range(64) if r // 4 != at]
            if stem == "xvf64ger":
                xa = rng.choice([r for r in free if r % 2 == 0 and r + 1 in free])
            else:
                xa = rng.choice(free)
            xb = rng.choice(free)
            # the negative multiply-adds under RN = +/-infinity: docs/fpscr.md
            rn = rng.randrange(2 if mnemonic.endswith(("np", "nn")) else 4)
            cases.append(float_case(rng, f"{mnemonic} {at},{xa},{xb}", stem, at, xa, xb, rn))
            xmsk, ymsk = rng.getrandbits(4), rng.getrandbits(2 if stem == "xvf64ger" else 4)
            masks = f"{xmsk},{ymsk}"
            if PMSK_BITS[stem]:
                masks += f",{rng.getrandbits(PMSK_BITS[stem])}"
            cases.append(float_case(rng, f"pm{mnemonic} {at},{xa},{xb},{masks}", stem, at, xa,
                                    xb, rn))
    return cases


def qemu_departure(case, register, qemu_value):
    """Bits not to compare where QEMU 7.2 departs from the book, or None:
    one element overflows and another underflows, QEMU records OX only
    (docs/vector.md, as for the other vector FP instructions)."""
    if register == "fpscr" and qemu_value & FPSCR_OX:
        return FPSCR_UX
    return None


MOVES = ("xxmfacc", "xxmtacc", "xxsetaccz")
# the MMA mnemonics these cases draw (test_mma_qemu.py checks they are all of
# decoder/vector/mma.csv; test_vsx_qemu.py leaves them to this differential)
MNEMONICS = {line.split()[0] for _init, lines, _outs in
             integer_cases() + move_cases() + float_cases() for line in lines} & \
    set(MOVES + INTEGER + FLOAT + tuple("pm" + m for m in INTEGER + FLOAT))
