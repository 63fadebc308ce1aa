"""The add/subtract-with-carry family against a separately written integer model.

Power ISA v3.0B Book I 3.3.9 defines every one of these as RT <- a + b + c with
(a, b, c) per instruction (below), CA the carry out of the 64-bit sum, CA32 the
carry out of the low 32 bits, OV "the result does not fit in 64 bits as a signed
integer" and OV32 the same for the low 32 bits.  The model computes those with
Python integers (no bit slicing, nothing shared with the pages), over boundary
operands where every carry and overflow flips.
"""
import itertools

import pytest

from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

M64, M32 = (1 << 64) - 1, (1 << 32) - 1
ONES = M64
BOUNDARY = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000,
            0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, ONES, 0x8000_0000_7FFF_FFFF]

# mnemonic: (a, b, c) from RA, RB, CA; sets CA/CA32?
FAMILY = {
    "add": (lambda ra, rb, ca: (ra, rb, 0), False),
    "addc": (lambda ra, rb, ca: (ra, rb, 0), True),
    "adde": (lambda ra, rb, ca: (ra, rb, ca), True),
    "addme": (lambda ra, rb, ca: (ra, ONES, ca), True),
    "addze": (lambda ra, rb, ca: (ra, 0, ca), True),
    "subf": (lambda ra, rb, ca: (~ra & M64, rb, 1), False),
    "subfc": (lambda ra, rb, ca: (~ra & M64, rb, 1), True),
    "subfe": (lambda ra, rb, ca: (~ra & M64, rb, ca), True),
    "subfme": (lambda ra, rb, ca: (~ra & M64, ONES, ca), True),
    "subfze": (lambda ra, rb, ca: (~ra & M64, 0, ca), True),
    "neg": (lambda ra, rb, ca: (~ra & M64, 0, 1), False),
}


def signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def model(mnemonic, ra, rb, ca, so):
    operands, sets_ca = FAMILY[mnemonic]
    a, b, c = operands(ra, rb, ca)
    total = a + b + c
    rt = total & M64
    out = {"rt": rt, "so": so, "ov": 0, "ov32": 0, "ca": ca, "ca32": 0}
    if sets_ca:
        out["ca"] = total >> 64
        out["ca32"] = ((a & M32) + (b & M32) + c) >> 32
    return out, signed(a, 64) + signed(b, 64) + c, \
        signed(a & M32, 32) + signed(b & M32, 32) + c


def run(isa, mnemonic, ra, rb, ca, so):
    row, _ = isa.by_mnemonic[mnemonic]
    names = {o.field for o in row.operands}
    sim = Simulator(isa=isa)
    sim.load_words([encode(isa, mnemonic, **{k: v for k, v in
                                               {"RT": 3, "RA": 4, "RB": 5}.items()
                                               if k in names})])
    s = sim.state
    s.gpr[4], s.gpr[5] = ra, rb
    s.ca, s.so, s.ca32 = ca, so, 0
    res = sim.run(max_steps=2)
    assert res.stop == "end", res.trap
    return s


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


@pytest.mark.parametrize("base", sorted(FAMILY))
@pytest.mark.parametrize("oe,rc", [(0, 0), (1, 0), (1, 1)])
def test_carry_family_matches_the_integer_model(isa, base, oe, rc):
    mnemonic = base + ("o" if oe else "") + ("." if rc else "")
    rbs = BOUNDARY if base in ("add", "addc", "adde", "subf", "subfc", "subfe") else [0]
    bad = []
    for ra, rb, ca, so in itertools.product(BOUNDARY, rbs, (0, 1), (0, 1) if oe else (0,)):
        want, wide, wide32 = model(base, ra, rb, ca, so)
        if oe:
            want["ov"] = int(not -(1 << 63) <= wide < 1 << 63)
            want["ov32"] = int(not -(1 << 31) <= wide32 < 1 << 31)
            want["so"] = so | want["ov"]
        s = run(isa, mnemonic, ra, rb, ca, so)
        got = {"rt": s.gpr[3], **{k: int(getattr(s, k)) for k in
                                  ("so", "ov", "ov32", "ca", "ca32")}}
        if rc:
            v = signed(want["rt"], 64)
            want["cr0"] = (8 if v < 0 else 4 if v > 0 else 2) | want["so"]
            got["cr0"] = s.cr[0]
        if got != want:
            bad.append((hex(ra), hex(rb), ca, so, want, got))
    assert not bad, bad[:3]
