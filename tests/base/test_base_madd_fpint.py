"""maddld/maddhd/maddhdu and lfiwax/lfiwzx/stfiwx: the instructions gcc emits
for the C suite's matmul -O2 and fpkernel.  Expected values derived by hand."""

import pytest

from conftest import gnu_as_words
from isa_ext.encoding import encode
from isa_ext.sim import Simulator

M64 = (1 << 64) - 1


def run(isa, mnemonic, gpr=(), fpr=(), mem=(), **fields):
    sim = Simulator(isa)
    sim.load_words([encode(isa, mnemonic, **fields)])
    for i, v in gpr:
        sim.state.gpr[i] = v & M64
    for i, v in fpr:
        sim.state.fpr[i] = v
    for addr, data in mem:
        sim.state.mem.write_bytes(addr, data)
    res = sim.run(max_steps=2)
    assert res.stop == "end", res.trap
    return res


@pytest.mark.parametrize("mnemonic,ra,rb,rc,expected", [
    # (-3) * 5 + 7 = -8
    ("maddld", -3, 5, 7, -8 & M64),
    # low half of 2^64-1 squared (= 2^128 - 2^65 + 1) plus 2^64-1: 1 + (2^64-1) = 2^64 -> 0
    ("maddld", -1 & M64, -1 & M64, -1, 0),
    # -2^63 * 2 = -2^64; + (-1) = -2^64 - 1; high doubleword = floor(x / 2^64) = -2
    ("maddhd", -(1 << 63), 2, -1, -2 & M64),
    # (-1) * (-1) + (-1) = 0: signed high doubleword 0
    ("maddhd", -1, -1, -1, 0),
    # unsigned: (2^64-1)^2 + (2^64-1) = 2^128 - 2^64: high doubleword 2^64 - 1
    ("maddhdu", -1, -1, -1, M64),
    # unsigned 2^63 * 2 = 2^64: high doubleword 1 (signed would give -1)
    ("maddhdu", 1 << 63, 2, 0, 1),
])
def test_multiply_add(isa, mnemonic, ra, rb, rc, expected):
    res = run(isa, mnemonic, gpr=[(4, ra), (5, rb), (6, rc)], RT=3, RA=4, RB=5, RC=6)
    assert res.gpr[3] == expected


def test_lfiwax_sign_extends_the_word(isa):
    # word 0x80000001 at 0x2000 (little-endian bytes 01 00 00 80)
    res = run(isa, "lfiwax", gpr=[(4, 0x1F00), (5, 0x100)], mem=[(0x2000, b"\x01\x00\x00\x80")],
              FRT=1, RA=4, RB=5)
    assert res.fpr[1] == 0xFFFFFFFF80000001


def test_lfiwzx_zero_extends_the_word(isa):
    res = run(isa, "lfiwzx", gpr=[(4, 0x1F00), (5, 0x100)], mem=[(0x2000, b"\x01\x00\x00\x80")],
              FRT=1, RA=4, RB=5)
    assert res.fpr[1] == 0x0000000080000001


def test_stfiwx_stores_the_low_word(isa):
    # RA=0 means base 0: EA = (RB) = 0x3000; low word of 0x1122334455667788 is 0x55667788
    res = run(isa, "stfiwx", gpr=[(5, 0x3000)], fpr=[(2, 0x1122334455667788)],
              FRS=2, RA=0, RB=5)
    assert res.memory.read_bytes(0x3000, 8) == b"\x88\x77\x66\x55\x00\x00\x00\x00"


def test_encodings_match_gnu_as(isa, tmp_path):
    lines = ["maddld 3,4,5,6", "maddhd 7,8,9,10", "maddhdu 31,1,2,3",
             "lfiwax 1,4,5", "lfiwzx 2,0,5", "stfiwx 3,6,7"]
    ours = [encode(isa, "maddld", RT=3, RA=4, RB=5, RC=6),
            encode(isa, "maddhd", RT=7, RA=8, RB=9, RC=10),
            encode(isa, "maddhdu", RT=31, RA=1, RB=2, RC=3),
            encode(isa, "lfiwax", FRT=1, RA=4, RB=5),
            encode(isa, "lfiwzx", FRT=2, RA=0, RB=5),
            encode(isa, "stfiwx", FRS=3, RA=6, RB=7)]
    assert gnu_as_words(tmp_path, lines) == ours
