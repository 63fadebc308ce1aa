"""libre-soc's draft prefix-code decoder pcdec. (openpower-isa 3cb597b9
isa/prefix_codes.mdwn).  Oracles: SVP64Asm for the encoding, hand-derived
cases (the derivation in each comment), and ISACaller live on the inputs of
openpower-isa's prefix_codes_cases.py (its code set and bit strings, every
mode)."""
import pytest

from isa_ext.asm import assemble
from isa_ext.isa import ISA
from isa_ext.sim import Simulator


def tree_of(*codes):
    """RB's tree: node index 1 then, per bit, index*2+bit; a code sets bit
    63-index (MSB0), i.e. bit ``index`` counted from the LSB."""
    t = 0
    for code in codes:
        i = 1
        for b in code:
            i = 2 * i + int(b)
        t |= 1 << i
    return t


def input_bits(bits):
    """RC: the bits least significant first, above a leading 1 marker."""
    return int("1" + bits[::-1], 2)


def test_encoding_matches_svp64asm(isa):
    # SVP64Asm (openpower-isa 3cb597b9): pcdec. 3,4,5,6 -> 0x106429b8,
    # pcdec. 4,0,6,5 -> 0x10803178
    assert assemble("pcdec. 3,4,5,6\npcdec. 4,0,6,5\n", isa=isa).words == \
        [0x106429B8, 0x10803178]


def run(isa, rb, rc, ra=None):
    sim = Simulator(isa=isa)
    sim.load_asm(f"pcdec. 4,{7 if ra is not None else 0},6,5\n")
    sim.state.gpr[6], sim.state.gpr[5] = rb, rc
    if ra is not None:
        sim.state.gpr[7] = ra
    res = sim.run(max_steps=2)
    assert res.stop == "end", res.trap
    return sim.state.gpr[4], sim.state.gpr[5], sim.state.cr[0]


@pytest.mark.parametrize("codes, mode, bits, rt, rs, cr0", [
    # code "0" (tree index 2); input "0": one bit read, node 2 is a code:
    # RT = 2, nothing left (RS = the bare marker 1), CR0 = found (0b0010)
    (("0",), 0, "0", 2, 1, 0b0010),
    # input "1": node 3 is no code, then the input ends (RA field 0): not
    # found, so mode 0 consumes nothing (RS = RC); RT = 3; CR0 = hit_end
    (("0",), 0, "1", 3, input_bits("1"), 0b0001),
    # the same in mode 1: the input ended, so again nothing consumed
    (("0",), 1, "1", 3, input_bits("1"), 0b0001),
    # codes "0" and "11"; input "11": node 3, then node 7 = code "11".  Mode 2
    # gives its index among the codes in order ("0" first): 1
    (("0", "11"), 2, "11", 1, 1, 0b0010),
    # mode 0 gives the tree index, 7; two bits consumed of "110": RS = "0"
    (("0", "11"), 0, "110", 7, input_bits("0"), 0b0010),
])
def test_hand_derived(isa, codes, mode, bits, rt, rs, cr0):
    assert run(isa, tree_of(*codes) | mode, input_bits(bits)) == (rt, rs, cr0)


CODES = ("0", "11", "1001", "10101", "10111")
INPUTS = ["", "10111", "0_1001_10101", "0_11_1001_10101_10111_10111_10101_1001_11_0",
          "1000_10101", "0_1001_10101_1000_10101", "0_1001_10000000",
          "0_11_1001_10101_10111_10111_10101_1001_11_0" + "10111" * 6]


def test_against_isacaller_live(isacaller):
    # openpower-isa's prefix_codes_cases.py inputs: bits beyond 63 go to RA
    from isa_ext.diffcheck.isacaller import run_batch
    isa = ISA(profile="openpower-isa")
    batch, ours = [], []
    for bits in INPUTS:
        bits = bits.replace("_", "")
        rev = bits[::-1]
        ra = None
        if len(bits) >= 64:
            ra, rev = int(rev[:64], 2), rev[64:]
        rc = int("1" + rev, 2)
        for codes in (CODES, ("0",), ("10111",)):
            for mode in range(4):
                rb = tree_of(*codes) | mode
                line = f"pcdec. 4,{7 if ra is not None else 0},6,5"
                gpr = [0] * 128
                gpr[5], gpr[6], gpr[7] = rc, rb, ra or 0
                words = list(assemble(line + "\n", isa=isa, base=0).words)
                batch.append({"words": words, "gpr": gpr, "fpr": [0] * 128, "cr": 0,
                              "svstate": 0, "max_steps": 2})
                ours.append(((bits, codes, mode), run(isa, rb, rc, ra)))
    theirs = run_batch(isacaller.root, batch)
    for (what, (rt, rs, cr0)), t in zip(ours, theirs):
        assert "error" not in t, (what, t)
        assert (rt, rs, cr0) == (t["gpr"][4], t["gpr"][5], t["cr"] >> 28), what
