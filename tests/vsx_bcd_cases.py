"""Cases (tests/vsx_probe.py's format) for the decimal (BCD) rows and the
data stream hints, with random valid and invalid operands: bad digits, bad
signs, overflow, both PS values; and ``qemu_departure`` (where QEMU 7.2
departs from the book: those bits are not compared; tests/vector/
test_vector_bcd.py pins the book's value by hand).  Whether a case is a
departure is read from its operands alone, never from isa_ext's result."""
import random

SIGNS = (0xA, 0xB, 0xC, 0xD, 0xE, 0xF)
CR6_LT_GT_EQ = 0xE0        # CR6's LT GT EQ in the 32-bit CR (SO is 0x10)
ALL = (1 << 128) - 1


def _nib(x, i):
    return (x >> (4 * (31 - i))) & 0xF


def _set_nib(x, i, v):
    s = 4 * (31 - i)
    return (x & ~(0xF << s)) | v << s


def packed(rng, ndigits=None, sign=None):
    """A signed packed decimal of up to ``ndigits`` random digits."""
    n = rng.choice((0, 1, 2, 5, 15, 16, 17, 24, 30, 31)) if ndigits is None else ndigits
    v = 0
    for i in range(31 - n, 31):
        v = _set_nib(v, i, rng.randrange(10))
    return v | (rng.choice(SIGNS) if sign is None else sign)


def spoil(rng, x, digits=range(31)):
    """x with an invalid digit or sign code."""
    if rng.random() < 0.4:
        return (x & ~0xF) | rng.randrange(10)
    return _set_nib(x, rng.choice(list(digits)), rng.randrange(10, 16))


def maybe_spoiled(rng, x, p=0.2, digits=range(31)):
    return spoil(rng, x, digits) if rng.random() < p else x


def national(rng):
    v = rng.choice((0x2B, 0x2D))
    for i in range(7):
        v |= (0x30 + rng.randrange(10)) << (16 * (7 - i))
    if rng.random() < 0.25:
        i = rng.randrange(8)
        v = (v & ~(0xFFFF << (16 * (7 - i)))) | rng.choice((0x2F, 0x3A, 0x2B, 0x130, rng.getrandbits(16))) << (16 * (7 - i))
    return v


def zoned(rng, ps):
    zone = 0xF if ps else 0x3
    v = 0
    for i in range(16):
        v = v << 8 | zone << 4 | rng.randrange(10)
    sign = rng.choice((0xA, 0xB, 0xC, 0xD, 0xE, 0xF)) if ps else rng.choice((0x3, 0x7, 0x2, 0x6, 0xB))
    v = (v & ~0xF0) | sign << 4
    if rng.random() < 0.25:
        i = rng.randrange(16)
        v ^= rng.choice((0x10, 0xA, 0xC0, 0x0F)) << (8 * (15 - i))
    return v


def quadword(rng):
    m = 10 ** 31 - 1
    v = rng.choice((0, 1, -1, m, -m, m + 1, -m - 1, rng.randrange(-m, m),
                    rng.randrange(-10 ** 12, 10 ** 12), rng.getrandbits(127) * rng.choice((1, -1))))
    return v & ALL


def _count(rng, value, byte_index, width):
    """A random register with ``value`` in the given byte/halfword."""
    x = rng.getrandbits(128)
    s = 128 - width * (byte_index + 1)
    return (x & ~(((1 << width) - 1) << s)) | (value & ((1 << width) - 1)) << s


def unsigned(rng):
    n = rng.choice((0, 1, 5, 16, 31, 32))
    v = 0
    for i in range(32 - n, 32):
        v = _set_nib(v, i, rng.randrange(10))
    return v


def cases():
    rng = random.Random(33)
    out = []

    def add(mn, operands, vra=None, vrb=None, n=1):
        for _ in range(n):
            init = {"cr": 0, "v1": rng.getrandbits(128), "v2": vra() if vra else rng.getrandbits(128),
                    "v3": vrb()}
            out.append((init, [f"{mn} 1,{operands}"], ["v1", "cr"]))

    for ps in (0, 1):
        for mn in ("bcdadd.", "bcdsub."):
            add(mn, f"2,3,{ps}", lambda: maybe_spoiled(rng, packed(rng)),
                lambda: maybe_spoiled(rng, packed(rng)), n=40)
            nines = lambda: packed(rng, 31) | 0x9999999999999999999999999999990  # noqa: E731
            add(mn, f"2,3,{ps}", nines, nines, n=6)
            zero = lambda: rng.choice(SIGNS)  # noqa: E731
            add(mn, f"2,3,{ps}", zero, lambda: packed(rng), n=4)
        add("bcdcfn.", f"3,{ps}", vrb=lambda: national(rng), n=30)
        add("bcdcfz.", f"3,{ps}", vrb=lambda: zoned(rng, ps), n=30)
        add("bcdctz.", f"3,{ps}", vrb=lambda: maybe_spoiled(rng, packed(rng), 0.2, range(15, 31)), n=30)
        add("bcdcfsq.", f"3,{ps}", vrb=lambda: quadword(rng), n=30)
        add("bcdsetsgn.", f"3,{ps}", vrb=lambda: maybe_spoiled(rng, packed(rng)), n=20)
        shift = lambda: _count(rng, rng.choice((0, 1, -1, 3, -3, 15, -15, 30, -30, 31, -31, 32, -32,  # noqa: E731
                                                40, -40, 127, -128)), 7, 8)
        for mn in ("bcds.", "bcdsr."):
            add(mn, f"2,3,{ps}", shift, lambda: maybe_spoiled(rng, packed(rng)), n=30)
        length = lambda: _count(rng, rng.choice((0, 1, 2, 15, 16, 17, 29, 30, 31, 32, 0x7FFF)), 3, 16)  # noqa: E731
        add("bcdtrunc.", f"2,3,{ps}", length, lambda: maybe_spoiled(rng, packed(rng)), n=30)
    add("bcdctn.", "3", vrb=lambda: maybe_spoiled(rng, packed(rng), 0.2, range(24, 31)), n=30)
    add("bcdctsq.", "3", vrb=lambda: maybe_spoiled(rng, packed(rng)), n=30)
    add("bcdcpsgn.", "2,3", lambda: maybe_spoiled(rng, packed(rng), 0.1),
        lambda: maybe_spoiled(rng, packed(rng), 0.1), n=30)
    ushift = lambda: _count(rng, rng.choice((0, 1, -1, 5, -5, 16, -16, 31, -31, 32, -32, 33, -33)), 7, 8)  # noqa: E731
    add("bcdus.", "2,3", ushift, lambda: maybe_spoiled(rng, unsigned(rng), 0.15, range(32)), n=30)
    ulength = lambda: _count(rng, rng.choice((0, 1, 2, 15, 16, 17, 31, 32, 33, 0x7FFF, 0x8000, 0xFFFF)), 3, 16)  # noqa: E731
    add("bcdutrunc.", "2,3", ulength, lambda: maybe_spoiled(rng, unsigned(rng), 0.15, range(32)), n=30)
    # the stream hints change nothing
    out.append(({"cr": 0x12345678, "r4": 0x1000, "r5": 0x20, "v1": 5},
                ["dst 5,4,1", "dstt 4,5,2", "dstst 5,4,3", "dststt 4,5,0", "dss 2", "dssall"],
                ["v1", "cr", "r4", "r5"]))
    return out


def _signed_valid(x):
    return (x & 0xF) >= 0xA and all(_nib(x, i) <= 9 for i in range(31))


def _minus(x):
    return (x & 0xF) in (0xB, 0xD)


def qemu_departure(case, register, qemu_value):
    """Bits of ``register`` not to compare: QEMU 7.2's departures from the book
    (docs/vector.md "Decimal"), decided from the case's operands."""
    init, lines, _outs = case
    mn = lines[0].split()[0]
    a, b = init.get("v2", 0), init.get("v3", 0)
    cr = register == "cr"
    if mn in ("bcdadd.", "bcdsub."):
        if _signed_valid(a) and _signed_valid(b) and a >> 4 == 0 and b >> 4 == 0:
            return CR6_LT_GT_EQ if cr else 0xF        # a zero sum: sign and CR
        minus_b = _minus(b) != (mn == "bcdsub.")
        bad_digit = not all(_nib(x, i) <= 9 for x in (a, b) for i in range(31))
        if bad_digit and (a & 0xF) >= 0xA and (b & 0xF) >= 0xA and _minus(a) != minus_b:
            return -1                                 # QEMU can miss the bad digit
    if mn == "bcdctn." and (b & 0xF) >= 0xA and not _signed_valid(b) and \
            all(_nib(b, i) <= 9 for i in range(24, 31)):
        return -1                                     # a bad digit QEMU does not check
    if mn == "bcdctz." and (b & 0xF) >= 0xA and not _signed_valid(b) and \
            all(_nib(b, i) <= 9 for i in range(15, 31)):
        return -1
    if cr and mn in ("bcds.", "bcdsr.", "bcdtrunc.", "bcdutrunc.") and \
            qemu_value & 0x20 and b >> (0 if mn == "bcdutrunc." else 4):
        return CR6_LT_GT_EQ                           # QEMU compares the result, the book VRB
    if cr and mn == "bcdus.":
        n = (a >> 64) & 0xFF
        return CR6_LT_GT_EQ | (0x10 if 32 <= n < 128 and b == 0 else 0)
    return None
CASES = cases()
MNEMONICS = {line.split()[0] for _init, lines, _outs in CASES for line in lines}
