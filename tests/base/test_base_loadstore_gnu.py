"""Encodings of every base branch, CR, SPR, system-call and load/store variant
checked against GNU as, and lq/stq register order checked against qemu-ppc64le.

Each instance names the field values it means (read off the operands by hand:
displacements in DS/DQ/BD/LI fields count words/quadwords); GNU as assembles all
of them in one run and each resulting word must equal ``encode(...)`` and decode
back to the same mnemonic.
"""
import os
import subprocess

import pytest

from conftest import gnu_as_words, need_tool
from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

AS = "powerpc64le-linux-gnu-as"
LD = "powerpc64le-linux-gnu-ld"

INSTANCES = [
    # branches: "." is the instruction's own address, so ".+16" is LI=4
    ("b .+16", "b", dict(LI=4)),
    ("ba 0x2000", "ba", dict(LI=0x800)),
    ("bl .-8", "bl", dict(LI=-2)),
    ("bla 0x1000", "bla", dict(LI=0x400)),
    ("bc 12,2,.+8", "bc", dict(BO=12, BI=2, BD=2)),
    ("bca 4,6,0x100", "bca", dict(BO=4, BI=6, BD=0x40)),
    ("bcl 20,31,.+4", "bcl", dict(BO=20, BI=31, BD=1)),
    ("bcla 16,0,0x40", "bcla", dict(BO=16, BI=0, BD=0x10)),
    ("bclr 12,3,1", "bclr", dict(BO=12, BI=3, BH=1)),
    ("bclrl 16,1,0", "bclrl", dict(BO=16, BI=1, BH=0)),
    ("bcctr 4,5,3", "bcctr", dict(BO=4, BI=5, BH=3)),
    ("bcctrl 20,0,0", "bcctrl", dict(BO=20, BI=0, BH=0)),
    ("bctar 12,8,0", "bctar", dict(BO=12, BI=8, BH=0)),
    ("bctarl 20,0,0", "bctarl", dict(BO=20, BI=0, BH=0)),
    # condition register
    ("crand 8,16,24", "crand", dict(BT=8, BA=16, BB=24)),
    ("crnand 1,2,3", "crnand", dict(BT=1, BA=2, BB=3)),
    ("cror 31,0,17", "cror", dict(BT=31, BA=0, BB=17)),
    ("crxor 6,6,6", "crxor", dict(BT=6, BA=6, BB=6)),
    ("crnor 4,9,14", "crnor", dict(BT=4, BA=9, BB=14)),
    ("creqv 30,29,28", "creqv", dict(BT=30, BA=29, BB=28)),
    ("crandc 5,10,15", "crandc", dict(BT=5, BA=10, BB=15)),
    ("crorc 20,21,22", "crorc", dict(BT=20, BA=21, BB=22)),
    ("mcrf 4,7", "mcrf", dict(BF=4, BFA=7)),
    ("mfcr 9", "mfcr", dict(RT=9)),
    ("mfocrf 3,0x20", "mfocrf", dict(RT=3, FXM=0x20)),
    ("mtcrf 0xa1,5", "mtcrf", dict(FXM=0xA1, RS=5)),
    ("mtocrf 0x04,6", "mtocrf", dict(FXM=0x04, RS=6)),
    ("mcrxrx 3", "mcrxrx", dict(BF=3)),
    # SPR 815 = 0b11001_01111 is encoded with its halves swapped: 0b01111_11001
    ("mfspr 3,815", "mfspr", dict(RT=3, spr=(15 << 5) | 25)),
    ("mtspr 9,4", "mtspr", dict(spr=9 << 5, RS=4)),
    ("sc", "sc", dict(LEV=0)),
    ("scv 1", "scv", dict(LEV=1)),
    # loads
    ("lbz 3,-1(4)", "lbz", dict(RT=3, RA=4, D=-1)),
    ("lbzu 3,1(4)", "lbzu", dict(RT=3, RA=4, D=1)),
    ("lhz 5,2(6)", "lhz", dict(RT=5, RA=6, D=2)),
    ("lhzu 5,-2(6)", "lhzu", dict(RT=5, RA=6, D=-2)),
    ("lha 7,32767(8)", "lha", dict(RT=7, RA=8, D=32767)),
    ("lhau 7,-32768(8)", "lhau", dict(RT=7, RA=8, D=-32768)),
    ("lwz 9,8(10)", "lwz", dict(RT=9, RA=10, D=8)),
    ("lwzu 9,-8(10)", "lwzu", dict(RT=9, RA=10, D=-8)),
    ("lwa 3,12(4)", "lwa", dict(RT=3, RA=4, DS=3)),
    ("ld 4,8(10)", "ld", dict(RT=4, RA=10, DS=2)),
    ("ldu 4,-16(10)", "ldu", dict(RT=4, RA=10, DS=-4)),
    ("lbzx 3,4,5", "lbzx", dict(RT=3, RA=4, RB=5)),
    ("lbzux 6,7,8", "lbzux", dict(RT=6, RA=7, RB=8)),
    ("lhzx 9,0,11", "lhzx", dict(RT=9, RA=0, RB=11)),
    ("lhzux 12,13,14", "lhzux", dict(RT=12, RA=13, RB=14)),
    ("lhax 15,16,17", "lhax", dict(RT=15, RA=16, RB=17)),
    ("lhaux 18,19,20", "lhaux", dict(RT=18, RA=19, RB=20)),
    ("lwzx 21,22,23", "lwzx", dict(RT=21, RA=22, RB=23)),
    ("lwzux 24,25,26", "lwzux", dict(RT=24, RA=25, RB=26)),
    ("lwax 27,28,29", "lwax", dict(RT=27, RA=28, RB=29)),
    ("lwaux 30,31,1", "lwaux", dict(RT=30, RA=31, RB=1)),
    ("ldx 2,3,4", "ldx", dict(RT=2, RA=3, RB=4)),
    ("ldux 5,6,7", "ldux", dict(RT=5, RA=6, RB=7)),
    ("lhbrx 8,9,10", "lhbrx", dict(RT=8, RA=9, RB=10)),
    ("lwbrx 11,12,13", "lwbrx", dict(RT=11, RA=12, RB=13)),
    ("ldbrx 14,15,16", "ldbrx", dict(RT=14, RA=15, RB=16)),
    ("lq 4,32(6)", "lq", dict(RTp=4, RA=6, DQ=2)),
    # stores
    ("stb 3,-1(4)", "stb", dict(RS=3, RA=4, D=-1)),
    ("stbu 3,1(4)", "stbu", dict(RS=3, RA=4, D=1)),
    ("sth 5,2(6)", "sth", dict(RS=5, RA=6, D=2)),
    ("sthu 5,-2(6)", "sthu", dict(RS=5, RA=6, D=-2)),
    ("stw 9,8(10)", "stw", dict(RS=9, RA=10, D=8)),
    ("stwu 1,-32(1)", "stwu", dict(RS=1, RA=1, D=-32)),
    ("std 4,8(10)", "std", dict(RS=4, RA=10, DS=2)),
    ("stdu 1,-64(1)", "stdu", dict(RS=1, RA=1, DS=-16)),
    ("stq 6,-16(2)", "stq", dict(RSp=6, RA=2, DS=-4)),
    ("stbx 3,4,5", "stbx", dict(RS=3, RA=4, RB=5)),
    ("stbux 6,7,8", "stbux", dict(RS=6, RA=7, RB=8)),
    ("sthx 9,0,11", "sthx", dict(RS=9, RA=0, RB=11)),
    ("sthux 12,13,14", "sthux", dict(RS=12, RA=13, RB=14)),
    ("stwx 15,16,17", "stwx", dict(RS=15, RA=16, RB=17)),
    ("stwux 18,19,20", "stwux", dict(RS=18, RA=19, RB=20)),
    ("stdx 21,22,23", "stdx", dict(RS=21, RA=22, RB=23)),
    ("stdux 24,25,26", "stdux", dict(RS=24, RA=25, RB=26)),
    ("sthbrx 27,28,29", "sthbrx", dict(RS=27, RA=28, RB=29)),
    ("stwbrx 30,31,1", "stwbrx", dict(RS=30, RA=31, RB=1)),
    ("stdbrx 2,3,4", "stdbrx", dict(RS=2, RA=3, RB=4)),
    ("icbi 4,5", "icbi", dict(RA=4, RB=5)),
]

TABLES = ("branch.csv", "cr.csv", "spr.csv", "system.csv", "loadstore.csv")


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def test_instances_cover_every_variant(isa):
    """Every mnemonic variant of the rows in these tables has an instance."""
    variants = {name for row in isa.rows if row.where.split(":")[0].endswith(TABLES)
                for name in row.variants}
    assert variants == {m for _, m, _ in INSTANCES}


def test_encodings_match_gnu_as(isa, tmp_path):
    words = gnu_as_words(tmp_path, [f"    {text}" for text, _, _ in INSTANCES])
    assert len(words) == len(INSTANCES)
    mismatches = []
    for (text, mnemonic, fields), gnu in zip(INSTANCES, words):
        ours = encode(isa, mnemonic, **fields)
        decoded = isa.decode(gnu)
        if ours != gnu or decoded is None or decoded.mnemonic != mnemonic:
            mismatches.append(f"{text}: gnu 0x{gnu:08x} ours 0x{ours:08x} "
                              f"decodes as {decoded.mnemonic if decoded else None}")
    assert not mismatches, "\n".join(mismatches)


def test_golden_scalar_encodings(isa, shared_dir):
    golden = {}
    with open(os.path.join(shared_dir, "golden", "svp64_encodings.tsv")) as f:
        for line in f:
            asm, _, words = line.rstrip("\n").partition("\t")
            golden[asm] = [int(w, 16) for w in words.split()]
    assert encode(isa, "ld", RT=4, RA=10, DS=2) == golden["ld 4,8(10)"][0]
    assert encode(isa, "lq", RTp=4, RA=6, DQ=2) == golden["lq 4,32(6)"][0]


# ---------------------------------------------------------------------------
# lq/stq register order in little-endian mode, against qemu-ppc64le

QUAD_PROGRAM = """\
    .abiversion 2
    .section .rwtext,"awx",@progbits
    .globl _start
_start:
    bl 1f
1:  mflr 6
    addi 6,6,data-1b
    lq 4,0(6)           # the pair as loaded
    std 4,16(6)
    std 5,24(6)
    ld 8,0(6)           # r8 = first doubleword, r9 = second
    ld 9,8(6)
    stq 8,32(6)         # and stored back as a pair
    addi 0,0,4          # write(1, data+16, 32)
    addi 3,0,1
    addi 4,6,16
    addi 5,0,32
    sc
    addi 0,0,1          # exit(7)
    addi 3,0,7
    sc
    .balign 16
data:
    .byte 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .space 32
"""

# Power ISA v3.0B lq/stq in little-endian mode: the even register holds the
# doubleword at EA+8, the odd one the doubleword at EA.  lq then std of r4, r5
# therefore writes bytes 8..15 then 0..7; stq of r8 (bytes 0..7) and r9 (8..15)
# puts r9 at EA and r8 at EA+8: the same sequence.
QUAD_EXPECTED = bytes(range(8, 16)) + bytes(range(8)) + bytes(range(8, 16)) + bytes(range(8))


@pytest.fixture(scope="module")
def quad_elf(tmp_path_factory):
    need_tool(AS)
    need_tool(LD)
    d = tmp_path_factory.mktemp("quad")
    (d / "q.s").write_text(QUAD_PROGRAM)
    subprocess.run([AS, "-mpower9", "-o", str(d / "q.o"), str(d / "q.s")], check=True)
    subprocess.run([LD, "--no-warn-rwx-segments", "-o", str(d / "q"), str(d / "q.o")],
                   check=True, capture_output=True)
    return d / "q"


def test_lq_stq_order_on_qemu(quad_elf):
    qemu = need_tool("qemu-ppc64le")
    out = subprocess.run([qemu, str(quad_elf)], capture_output=True, timeout=60)
    assert out.returncode == 7
    assert out.stdout == QUAD_EXPECTED


def test_lq_stq_order_in_simulator(isa, quad_elf):
    from elftools.elf.elffile import ELFFile
    sim = Simulator(isa=isa)
    with open(quad_elf, "rb") as f:
        elf = ELFFile(f)
        for seg in elf.iter_segments():
            if seg["p_type"] == "PT_LOAD":
                sim.state.mem.load(seg["p_vaddr"], seg.data())
        sim.state.pc = elf["e_entry"]
    res = sim.run(max_steps=100)
    assert res.stop == "exit" and res.exit_status == 7
    assert res.stdout == QUAD_EXPECTED
