"""Record libre-soc's REMAP schedules as test expectations.

Runs under openpower-isa's Python (the ISACaller venv), never imports isa_ext:

    SILENCELOG=1 /work/isacaller/venv/bin/python tests/tools/remap_oracle.py \
        tests/data/remap_schedules.json

(the reference generators print progress on stdout, so the result goes to a
file).  With ``--cases FILE`` before the output path it reads a JSON list of
cases instead of generating the standard table (the live comparison test uses
this).  Each case:
``{"shape": int, "count": n, "predicate": [0/1...] or null}``; the output adds
``"expected": [[index, loopends], ...]`` or ``"error": "ExceptionName"``.
"""
import json
import random
import sys

from openpower.decoder.isa.svshape import SVSHAPE
from openpower.decoder.isa.remap_preduce_yield import iterate_indices as preduce
from openpower.decoder.selectable_int import SelectableInt


def index_gpr_bytes(position):
    """Test register file for Indexed shapes: byte ``position`` of the GPR file
    (GPR r covers bytes 8r..8r+7, little-endian); small values so indices stay
    plausible element numbers."""
    return (position * 37 + 11) % 29


def read_index(gpr, element, width):
    start = gpr * 8 + element * width // 8
    return sum(index_gpr_bytes(start + b) << (8 * b) for b in range(width // 8))


def oracle_gpr(reg, is_vec, element, width):
    return SelectableInt(read_index(reg, element, width), 64)


def field(value, msb0_first, msb0_last):
    width = msb0_last - msb0_first + 1
    return value << (31 - msb0_last) & ((1 << width) - 1) << (31 - msb0_last)


def shape_value(xd=0, yd=0, zd=0, permute=0, inv=0, offset=0, skip=0, mode=0):
    """Raw field values (sizes minus one) at the bit ranges of the SVSHAPE
    table in libre-soc's remap.mdwn."""
    return (field(xd, 0, 5) | field(yd, 6, 11) | field(zd, 12, 17) | field(permute, 18, 20)
            | field(inv, 21, 23) | field(offset, 24, 27) | field(skip, 28, 29)
            | field(mode, 30, 31))


def standard_cases():
    rng = random.Random(20261123)
    cases = []

    def add(count=40, predicate=None, **fields):
        cases.append({"shape": shape_value(**fields), "count": count,
                      "predicate": predicate})

    # Matrix: every permutation, inversion and skip over small dimensions
    for permute in range(6):
        for inv in range(8):
            for skip in range(4):
                add(xd=rng.randrange(4), yd=rng.randrange(3), zd=rng.randrange(3),
                    permute=permute, inv=inv, skip=skip, offset=rng.choice([0, 0, 3, 15]))
    # Indexed (permute 6/7): dimensions, skip-1st-dimension (inv bit 2), element width
    for permute in (6, 7):
        for inv in range(8):
            for ew in range(4):
                add(xd=rng.randrange(4), yd=rng.choice([0, 1, 2, 63]), zd=rng.randrange(8),
                    permute=permute, inv=inv, skip=ew, offset=rng.choice([0, 5]))
    # FFT / DCT butterflies (mode 1 and 3), by schedule kind (ydimsz field)
    for mode in (1, 3):
        for yd in (0, 1, 2, 3, 4, 5, 6, 12, 13, 14):
            for permute in (0, 1, 3, 4):
                for skip in range(4):
                    for xd in (0, 1, 3, 7, 15):
                        add(count=64, xd=xd, yd=yd, zd=rng.choice([0, 0, 1]),
                            permute=permute, inv=rng.randrange(8), skip=skip,
                            offset=rng.choice([0, 2]), mode=mode)
    # parallel reduction (skip 0/1) and prefix sum (skip 2/3)
    for xd in range(16):
        for skip in range(4):
            for inv in (0, 1, 2, 3):
                add(count=64, xd=xd, skip=skip, inv=inv, mode=2, offset=rng.choice([0, 1]))
    # reduction under a predicate
    for xd in (2, 4, 6, 7, 12):
        for skip in (0, 1):
            for _ in range(4):
                n = xd + 1
                add(count=64, xd=xd, skip=skip, mode=2,
                    predicate=[rng.randrange(2) for _ in range(n)])
    return cases


def run_case(case):
    shape = SVSHAPE(case["shape"], oracle_gpr)
    pred = case.get("predicate")
    out = dict(case)
    try:
        if pred is not None:
            it = preduce(shape.copy(), pred)
        else:
            it = shape.get_iterator()
        got = []
        for index, ends in it:
            if len(got) == case["count"]:
                break
            got.append([int(index), int(ends)])
        out["expected"] = got
    except Exception as e:  # the reference leaves these combinations undefined
        out["error"] = type(e).__name__
    return out


def main(argv):
    if len(argv) > 3 and argv[1] == "--cases":
        with open(argv[2]) as f:
            cases = json.load(f)
        out_path = argv[3]
    else:
        cases = standard_cases()
        out_path = argv[1]
    results = [run_case(c) for c in cases]
    with open(out_path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in results)
                + "\n]\n")


if __name__ == "__main__":
    main(sys.argv)
