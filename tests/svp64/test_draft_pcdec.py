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
    # code "0"; input "111111": nodes 3, 7, 15, 31, 63 are no codes, the sixth
    # bit reaches node 127 (>= 64: not looked up) and the six bits are all the
    # page decodes.  Not found, input not ended: mode 0 consumes nothing (RS =
    # RC), RT = the tree index 127, CR0 = 0 || big 1 || 0 || 0 = 0b0100
    (("0",), 0, "111111", 127, input_bits("111111"), 0b0100),
])
def test_hand_derived(isa, codes, mode, bits, rt, rs, cr0):
    assert run(isa, tree_of(*codes) | mode, input_bits(bits)) == (rt, rs, cr0)


CODES = ("0", "11", "1001", "10101", "10111")
INPUTS = ["", "10111", "0_1001_10101", "0_11_1001_10101_10111_10111_10101_1001_11_0",
          "1000_10101", "0_1001_10101_1000_10101", "0_1001_10000000",
          "0_11_1001_10101_10111_10111_10101_1001_11_0" + "10111" * 6]


def test_against_isacaller_live(isacaller):
    # openpower-isa's prefix_codes_cases.py inputs: bits beyond 63 go to RA
    from isa_ext.compat.isacaller import run_batch
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


# --- SVP64 (RM-1P-3S1D.csv: pcdec,NORMAL,,1P,EXTRA2,NO,d:RT;d:CR0,s:RA,s:RB,s:RC) --

def test_svp64_encoding_matches_svp64asm(isa):
    # SVP64Asm (openpower-isa 3cb597b9)
    assert assemble("sv.pcdec. *8,*16,*24,*32\nsv.pcdec. 3,4,5,6\n", isa=isa).words == \
        [0x05402A80, 0x10443238, 0x05400000, 0x106429B8]


def sv_chain(isa, tree, bits, vl):
    from isa_ext.svp64 import svstate as SV
    sim = Simulator(isa=isa)
    sim.load_asm("sv.pcdec. *8,0,24,32\n")
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    sim.state.gpr[24], sim.state.gpr[32] = tree, input_bits(bits)
    assert sim.run(max_steps=3).stop == "end"
    return sim.state


def test_svp64_scalar_rc_chains_the_input(isa):
    # a vector RT with a scalar RC: RS is RC itself (as for the bigint rows), so
    # each element decodes where the previous one stopped.  Codes "0" and "11",
    # mode 0, input "0110": element 0 reads "0" (index 2), element 1 "11"
    # (index 7), element 2 "0" (index 2); nothing is left (RS = the bare marker
    # 1).  Each element records "found" (0b0010) in its own CR field, CR0..CR2.
    s = sv_chain(isa, tree_of("0", "11"), "0110", 3)
    assert [s.gpr[8], s.gpr[9], s.gpr[10], s.gpr[32]] == [2, 7, 2, 1]
    assert s.crval == 0x22200000


def test_svp64_every_execution_path_agrees(svisa):
    from isa_ext.svp64 import svstate as SV
    from test_svp64_one_behaviour import all_modes
    init = {"svstate": SV.make(maxvl=4, vl=4),
            "gpr": {24: tree_of(*CODES) | 2, 25: tree_of("0") | 1, 26: tree_of("10111"),
                    27: tree_of(*CODES) | 3, 32: input_bits("0_11_1001".replace("_", "")),
                    33: 0, 34: input_bits("10101"), 35: input_bits("1" * 20), 16: 0x5555}}
    for line in ("sv.pcdec. *8,0,24,32", "sv.pcdec. *8,*16,*24,*32", "sv.pcdec. *8,16,*24,32"):
        all_modes(svisa, [line], init)


def test_svp64_against_isacaller_live(isacaller):
    # GPRs (RT and RS elements) agree.  Not compared: the CR, since under SVP64
    # openpower-isa's decoder takes a forced-Rc row's Rc from RM.RC1 and records
    # nothing without /RC1 (docs/compat.md, as for sv.dsld.), and a scalar RT
    # with vector sources (isa_ext ends such a loop at the first element
    # written, docs/compat.md "scalar destination, vector source").
    import random
    from isacaller_compare import run_on_both
    isa = ISA(profile="openpower-isa")
    rng = random.Random(1524)
    programs = []
    for line in ("sv.pcdec. *8,0,*24,*32", "sv.pcdec. *8,*16,*24,*32", "sv.pcdec. *8,0,24,*32",
                 "sv.pcdec. *8,0,24,32", "sv.pcdec. *8,16,24,32", "sv.pcdec. 8,0,24,32"):
        for vl in (1, 3, 4):
            for _ in range(2):
                gpr = [rng.getrandbits(64) for _ in range(128)]
                gpr[0] = 0
                for i in range(8):
                    gpr[24 + i] = tree_of(*rng.choice([CODES, ("0",), ("10111",)])) | rng.randrange(4)
                    gpr[32 + i] = input_bits("".join(rng.choice("01")
                                                     for _ in range(rng.randrange(40))))
                programs.append(([f"setvl 0,0,{vl},0,1,1", line], gpr, None, 0))
    for lines, res, t in run_on_both(isacaller.root, isa, programs):
        assert "error" not in t and res.stop == "end", (lines, t, res.trap)
        assert list(res.gpr[:128]) == t["gpr"][:128], lines
