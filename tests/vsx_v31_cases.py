"""Cases (tests/vsx_probe.py's format) for the vector instructions gcc emits
for POWER8/9/10 that the first vector rows lacked: unpacks and pixel packs,
xxsldwi, vextu[hw][lr]x, the variable-length and paired stores and loads,
the v3.1 prefixed VSX loads/stores, the immediate splats and the v3.1
multiply/divide/modulo family.  The v3.1 rows need ``-cpu power10``.

Divisions stay inside what the book defines (no divisor 0, no most negative
value over -1, divide-extended quotients that fit); those cases trap here and
tests/vector/test_vector_programs.py pins them by hand."""
import random

SPECIAL_SINGLES = (0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00001, 1,
                   0x007FFFFF, 0x00800000, 0x3F800000, 0xBFC00000, 0x7F7FFFFF, 0x12345678)


def _elements(rng, width, n, pick):
    v = 0
    for _ in range(n):
        v = (v << width) | pick()
    return v


def _divide_operands(rng, width, signed, extended):
    """(VRA, VRB) of ``width``-bit elements the book defines a result for."""
    a = b = 0
    mask = (1 << width) - 1
    for _ in range(128 // width):
        while True:
            small = rng.random() < 0.3
            x = rng.getrandbits(rng.randrange(1, width + 1))
            y = rng.getrandbits(rng.randrange(1, 9 if small else width + 1))
            if rng.random() < 0.5:
                x = -x & mask
            if rng.random() < 0.5:
                y = -y & mask
            if y == 0:
                continue
            sx = x - (x >> (width - 1) << width) if signed else x
            sy = y - (y >> (width - 1) << width) if signed else y
            if extended:
                q = abs(sx << width) // abs(sy)
                if (sx < 0) != (sy < 0):
                    q = -q
                lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, mask)
                if not lo <= q <= hi:
                    continue
            elif signed and sx == -(1 << (width - 1)) and sy == -1:
                continue
            break
        a, b = (a << width) | x, (b << width) | y
    return a, b


WIDTH = {"w": 32, "d": 64, "q": 128}


def cases():
    rng = random.Random(31)
    out = []
    r128 = lambda: rng.getrandbits(128)  # noqa: E731

    def vx(mn, lines=None, init=None, n=6, outs=("v1",)):
        for _ in range(n):
            i = {"v1": r128(), "v2": r128(), "v3": r128()} | (init() if init else {})
            out.append((i, lines or [f"{mn} 1,2,3"], list(outs)))

    for e in ("b", "h", "w"):
        for hl in ("h", "l"):
            vx(f"vupk{hl}s{e}", [f"vupk{hl}s{e} 1,3"])
    vx("vupkhpx", ["vupkhpx 1,3"])
    vx("vupklpx", ["vupklpx 1,3"])
    vx("vpkpx")
    for e, last in (("h", 14), ("w", 12)):
        for lr in ("l", "r"):
            for idx in (0, 1, last - 1, last, rng.randrange(last + 1)):
                out.append(({"v3": r128(), "r9": rng.getrandbits(60) << 4 | idx},
                            [f"vextu{e}{lr}x 3,9,3"], ["r3"]))
    for mn in ("vmulld", "vmulhsw", "vmulhuw", "vmulhsd", "vmulhud",
               "vmulesd", "vmuleud", "vmulosd", "vmuloud"):
        vx(mn, init=lambda: {"v2": _elements(rng, 32, 4, lambda: rng.choice(
            (0, 1, 0xFFFFFFFF, 0x80000000, rng.getrandbits(32))))})
    for kind in ("div", "dive", "mod"):
        for s in ("s", "u"):
            for e, w in WIDTH.items():
                mn = f"v{kind}{s}{e}"
                for _ in range(6):
                    a, b = _divide_operands(rng, w, s == "s", kind == "dive")
                    out.append(({"v1": r128(), "v2": a, "v3": b}, [f"{mn} 1,2,3"], ["v1"]))
    for shw in range(4):
        out.append(({"vs33": r128(), "vs34": r128(), "vs35": r128()},
                    [f"xxsldwi 33,34,35,{shw}", f"xxsldwi 1,34,34,{shw}"], ["vs33", "vs1"]))
    for imm in SPECIAL_SINGLES:
        out.append(({"vs33": r128(), "vs2": r128()},
                    [f"xxspltiw 33,{imm}", f"xxspltidp 2,{imm}"], ["vs33", "vs2"]))
        out.append(({"vs33": r128(), "vs2": r128()},
                    [f"xxsplti32dx 33,0,{imm}", f"xxsplti32dx 2,1,{imm}"], ["vs33", "vs2"]))
    # stores with length: the count is RB's high byte (0..24: over 16 is 16)
    for mn in ("stxvl", "stxvll"):
        for nb in (0, 1, 7, 8, 15, 16, 17, 255):
            out.append(({"vs33": r128(), "r9": nb << 56 | rng.getrandbits(56), "r10": 16},
                        [f"{mn} 33,28,9", "lxvd2x 5,0,28", "lxvd2x 6,28,10"], ["vs5", "vs6"]))
    for t, off in ((34, 32), (2, 0), (62, -16), (0, 2032)):
        store = "lxvd2x 5,0,28\n addi 10,28,16\n lxvd2x 6,0,10\n addi 10,28,32\n lxvd2x 7,0,10"
        init = {f"vs{t}": r128(), f"vs{t + 1}": r128(), "r9": 48, "r11": 4096 - 64}
        out.append((init, [f"lxvp {t},{off % 4096 if off >= 0 else 48 + off}(28)"],
                    [f"vs{t}", f"vs{t + 1}"]))
        out.append((init, [f"lxvpx {t},28,9"], [f"vs{t}", f"vs{t + 1}"]))
        out.append((init, [f"stxvp {t},0(28)"] + store.split("\n"), ["vs5", "vs6", "vs7"]))
        out.append((init, ["addi 12,28,-48", f"stxvpx {t},12,9"] + store.split("\n"),
                    ["vs5", "vs6", "vs7"]))
    # prefixed: a 34-bit D from r28 (the scratch area), R=1 from the instruction
    for off in (0, 8, 13, 4000):
        init = {"vs33": r128(), "vs1": r128(), "v3": r128(), "v4": r128(), "vs40": r128(),
                "vs41": r128()}
        out.append((init, [f"plxv 33,{off}(28)", f"plxv 1,{off + 16}(28)", f"plxsd 3,{off}(28)",
                           f"plxssp 4,{off}(28)", f"plxvp 40,{off}(28)"],
                    ["vs33", "vs1", "v3", "v4", "vs40", "vs41"]))
        st = ["lxvd2x 5,0,28", "addi 10,28,16", "lxvd2x 6,0,10", "addi 10,28,32", "lxvd2x 7,0,10"]
        out.append((init, [f"pstxv 33,{off % 16}(28)", "pstxsd 3,16(28)", "pstxssp 4,20(28)"] + st,
                    ["vs5", "vs6", "vs7"]))
        out.append((init, [f"pstxvp 40,{off % 16}(28)"] + st, ["vs5", "vs6", "vs7"]))
    out.append(({"vs33": r128()}, ["plxv 33,scratch@pcrel", "plxv 34,scratch+5@pcrel"],
                ["vs33", "vs34"]))
    return out


CASES = cases()
MNEMONICS = {line.split()[0] for _init, lines, _outs in CASES for line in lines}
