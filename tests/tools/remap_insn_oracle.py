"""Record libre-soc's words, disassembly and ISACaller results for the REMAP
management instructions (svshape, svshape2, svremap, svindex).

Runs under openpower-isa's Python (the ISACaller venv), never imports isa_ext:

    export AS=powerpc64le-linux-gnu-as LD=powerpc64le-linux-gnu-ld \
           OBJCOPY=powerpc64le-linux-gnu-objcopy
    SILENCELOG=1 /work/isacaller/venv/bin/python tests/tools/remap_insn_oracle.py \
        [--cases IN.json] OUT.json

Each case: ``{"asm": "svshape 2,2,1,0,0", "svstate": int, "svshape": [4 ints]}``
(``svstate``/``svshape`` the state before; omit ``svstate`` to only assemble).
The output adds ``words`` (hex), ``disasm`` and, when run, ``after``:
``{"svstate": int, "svshape": [4 ints]}``.
"""
import json
import os
import random
import sys
import tempfile
from io import BytesIO

from openpower.insndb.asm import SVP64Asm
from openpower.insndb.core import Style
from openpower.insndb.disasm import dump, load


def standard_cases():
    rng = random.Random(20261124)
    cases = []

    def add(text, run=True):
        case = {"asm": text}
        if run:
            maxvl = rng.choice([0, 1, 4, 10, 17, 64, 100, 127])
            # random steps and REMAP fields before, to see what each page keeps
            case["svstate"] = (maxvl << 57 | rng.randrange(maxvl + 1) << 50
                               | rng.getrandbits(50))
            # Matrix shapes (mode 0, permute 0-5): ISACaller builds every
            # SVSHAPE's schedule after the instruction, and fails on some
            # reserved random values
            case["svshape"] = [rng.getrandbits(32) & ~(0b111 << 11 | 0b11)
                               | rng.randrange(6) << 11 for _ in range(4)]
        cases.append(case)

    def svshape2_text(name):
        mm = rng.randrange(2)
        rmm = (rng.randrange(5) << 2 | rng.randrange(4)) if mm else rng.randrange(32)
        if name == "svshape2":
            return "svshape2 %d,%d,%d,%d,%d,%d" % (rng.randrange(16), rng.randrange(2), rmm,
                                                  rng.randint(1, 31), rng.randrange(2), mm)
        return "svindex %d,%d,%d,%d,%d,%d,%d" % (rng.randrange(32), rmm, rng.randint(1, 31),
                                                rng.randrange(4), rng.randrange(2), mm,
                                                rng.randrange(2))

    # Each ISACaller run takes seconds: run a sample, assemble many more.
    # svshape: every defined SVrm, sizes 1..32
    for svrm in (0, 1, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15):
        for i in range(14):
            x = rng.choice([1, 2, 4, 8, 16, 32, rng.randint(1, 32)])
            y = rng.choice([1, 2, 3, rng.randint(1, 32)])
            z = rng.choice([1, 2, rng.randint(1, 32)])
            add("svshape %d,%d,%d,%d,%d" % (x, y, z, svrm, rng.randrange(2)), run=i < 5)
    for x in (1, 2, 3, 5, 8, 16):
        add("svshape %d,3,1,7,0" % x)      # prefix sum (SVyd field = 2)
        add("svshape %d,1,1,7,0" % x)      # reduction
    # svremap: all fields
    for i in range(40):
        add("svremap %d,%d,%d,%d,%d,%d,%d" % (
            rng.randrange(32), rng.randrange(4), rng.randrange(4), rng.randrange(4),
            rng.randrange(4), rng.randrange(4), rng.randrange(2)), run=i < 12)
    # svshape2 / svindex, mm=0 and mm=1 (operand number 0-4); SVd up to 31
    # (libre-soc's page wraps SVd=32 to 0 with its 5-bit arithmetic)
    for name in ("svshape2", "svindex"):
        for i in range(60):
            add(svshape2_text(name), run=i < 22)
    return cases


def assemble(text):
    out = list(SVP64Asm([text]))
    return [int(line.split()[1], 16) for line in out]


def disassemble(words):
    data = b"".join(w.to_bytes(4, "little") for w in words)
    return list(dump(load(BytesIO(data)), style=Style.SHORT))


def loops_for_ever(text, svstate):
    """libre-soc's svshape2/svindex count the second dimension (MAXVL / size,
    rounded up) in a 6-bit register: above 63 the loop never ends."""
    name, operands = text.split(None, 1)
    if name not in ("svshape2", "svindex"):
        return False
    size = int(operands.split(",")[3 if name == "svshape2" else 2])
    maxvl = svstate >> 57
    return -(-maxvl // size) > 63


_DECODER = []


def run(words, svstate, shapes):
    from openpower.decoder.isa.caller import SVP64State
    from openpower.decoder.isa.test_runner import run_tst
    from openpower.decoder.power_decoder import create_pdecode
    from openpower.decoder.power_decoder2 import PowerDecode2
    from openpower.simulator.program import Program
    if not _DECODER:  # building the decoder is most of a run's time
        _DECODER.append(PowerDecode2(create_pdecode()))
    state = SVP64State(svstate)
    sprs = {"SVSHAPE%d" % i: v for i, v in enumerate(shapes)}
    with Program([".long 0x%08x" % w for w in words], bigendian=False) as program:
        sim = run_tst(program, [0] * 32, initial_sprs=sprs, svstate=state,
                      pdecode2=_DECODER[0])
        return {"svstate": int(sim.svstate.value),
                "svshape": [int(sim.spr["SVSHAPE%d" % i].value) for i in range(4)]}


def main(argv):
    if argv[1] == "--cases":
        with open(argv[2]) as f:
            cases = json.load(f)
        out_path = argv[3]
    else:
        cases = standard_cases()
        out_path = argv[1]
    out_path = os.path.abspath(out_path)
    # ISACaller's test runner writes simulator.vcd/.gtkw into the current directory
    os.chdir(tempfile.mkdtemp(prefix="remap_oracle_"))
    results = []
    for case in cases:
        words = assemble(case["asm"])
        case = dict(case, words=["%08x" % w for w in words], disasm=disassemble(words))
        if "svstate" in case and loops_for_ever(case["asm"], case["svstate"]):
            case["error"] = "not run: libre-soc's page loops for ever"
        elif "svstate" in case:
            try:
                case["after"] = run(words, case["svstate"], case["svshape"])
            except Exception as e:  # e.g. svshape at size 32: its 5-bit loop overruns
                case["error"] = "%s: %s" % (type(e).__name__, str(e)[:80])
        results.append(case)
    with open(out_path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in results)
                + "\n]\n")


if __name__ == "__main__":
    main(sys.argv)
