"""The indexed and update forms of the floating-point loads and stores, fsubs and
fnmadds: each written out as assembly (so their spec-site pages name this test),
words checked against GNU as, results derived by hand from Power ISA v3.0B
Book I 4.6.2-4.6.3 (EA = (RA|0) + RB or D, the update forms write EA to RA;
lfs widens, stfs narrows) and 4.6.5-4.6.6 (single-precision arithmetic rounds
its result to binary32)."""
import struct


from conftest import gnu_as_words
from isa_ext.asm import assemble
from isa_ext.sim import Simulator

ONE, TWO = 0x3FF0000000000000, 0x4000000000000000   # binary64 1.0, 2.0
ONE_F, TWO_F = 0x3F800000, 0x40000000               # binary32 1.0, 2.0


def d(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def run(isa, text, gpr=None, fpr=None, mem=None):
    sim = Simulator(isa)
    sim.load_asm(text)
    for r, v in (gpr or {}).items():
        sim.state.gpr[r] = v
    for r, v in (fpr or {}).items():
        sim.state.fpr[r] = v
    for addr, (n, v) in (mem or {}).items():
        sim.state.mem.write(addr, n, v)
    res = sim.run(max_steps=10)
    assert res.stop == "end", res.trap
    return sim


LINES = ["lfsx 1,4,5", "lfsux 1,4,5", "lfdu 1,16(4)", "lfdx 1,4,5", "stfsx 5,4,7",
         "stfsux 5,4,7", "stfdux 5,4,7", "fsubs 1,2,3", "fsubs. 1,2,3",
         "fnmadds 1,2,3,4", "fnmadds. 1,2,3,4"]


def test_words_match_gnu_as(isa, tmp_path):
    ours = [w for line in LINES for w in assemble(line, isa=isa).words]
    assert ours == gnu_as_words(tmp_path, LINES)


def test_indexed_and_update_loads(isa):
    # lfsx: EA = r4 + r5 = 0x2008; binary32 1.0 widens to binary64 1.0
    sim = run(isa, "lfsx 1,4,5", gpr={4: 0x2000, 5: 8}, mem={0x2008: (4, ONE_F)})
    assert sim.state.fpr[1] == ONE and sim.state.gpr[4] == 0x2000
    # lfsux: the same EA, and r4 becomes it
    sim = run(isa, "lfsux 1,4,5", gpr={4: 0x2000, 5: 8}, mem={0x2008: (4, TWO_F)})
    assert sim.state.fpr[1] == TWO and sim.state.gpr[4] == 0x2008
    # lfdu: EA = r4 + 16, eight bytes, r4 updated
    sim = run(isa, "lfdu 1,16(4)", gpr={4: 0x2000}, mem={0x2010: (8, TWO)})
    assert sim.state.fpr[1] == TWO and sim.state.gpr[4] == 0x2010
    # lfdx with RA = 0: EA = 0 + r5 (not r0's 0x999)
    sim = run(isa, "lfdx 1,0,5", gpr={0: 0x999, 5: 0x2000}, mem={0x2000: (8, ONE)})
    assert sim.state.fpr[1] == ONE


def test_indexed_and_update_stores(isa):
    # stfsx: binary64 1.0 narrows to binary32 0x3F800000 at r4 + r7 = 0x2004
    sim = run(isa, "stfsx 5,4,7", gpr={4: 0x2000, 7: 4}, fpr={5: ONE})
    assert sim.state.mem.read(0x2004, 4) == ONE_F and sim.state.gpr[4] == 0x2000
    # stfsux: the same, and r4 becomes 0x2004
    sim = run(isa, "stfsux 5,4,7", gpr={4: 0x2000, 7: 4}, fpr={5: TWO})
    assert sim.state.mem.read(0x2004, 4) == TWO_F and sim.state.gpr[4] == 0x2004
    # stfdux: eight bytes at 0x2010, r4 becomes 0x2010
    sim = run(isa, "stfdux 5,4,7", gpr={4: 0x2000, 7: 0x10}, fpr={5: TWO})
    assert sim.state.mem.read(0x2010, 8) == TWO and sim.state.gpr[4] == 0x2010


def test_fsubs_rounds_to_single(isa):
    # 3.5 - 1.25 = 2.25 exactly: 1.125 * 2**1 -> exponent 0x400, fraction 2**-3
    sim = run(isa, "fsubs 1,2,3", fpr={2: d(3.5), 3: d(1.25)})
    assert sim.state.fpr[1] == 0x4002000000000000
    # 1 - 2**-30 lies between binary32 1 - 2**-24 and 1.0, nearer 1.0: rounds to
    # 1.0 (fsub would keep it); inexact: XX and FX set, so CR1 (FX FEX VX OX) = 0b1000
    sim = run(isa, "fsubs. 1,2,3", fpr={2: ONE, 3: d(2.0 ** -30)})
    assert sim.state.fpr[1] == ONE and sim.state.cr[1] == 0b1000


def test_fnmadds_negates_the_single_rounded_sum(isa):
    # -(2 * 3 + 1) = -7.0: 1.75 * 2**2 -> sign, exponent 0x401, fraction 0.75
    sim = run(isa, "fnmadds 1,2,3,4", fpr={2: d(2.0), 3: d(3.0), 4: ONE})
    assert sim.state.fpr[1] == 0xC01C000000000000
    # 1 * 1 + 2**-30 rounds to binary32 1.0 before the negation: -1.0; CR1 as above
    sim = run(isa, "fnmadds. 1,2,3,4", fpr={2: ONE, 3: ONE, 4: d(2.0 ** -30)})
    assert sim.state.fpr[1] == 0xBFF0000000000000 and sim.state.cr[1] == 0b1000
