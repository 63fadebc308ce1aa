"""SPR moves and the system call.

Instruction words for the well-known extended mnemonics (mflr, mtctr, ...) are
written out by hand from the XFX-form layout; the split spr field holds the SPR
number's two 5-bit halves swapped (Power ISA v3.0B Book I 3.3.17).
"""
import pytest

from isa_ext.encoding import encode
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

M64 = (1 << 64) - 1
PC = 0x1000


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def xfx(xo, reg, spr):
    """PO=31 | reg | spr[5:9]||spr[0:4] | XO | 0, independent of the tables."""
    swapped = ((spr & 0x1F) << 5) | (spr >> 5)
    return (31 << 26) | (reg << 21) | (swapped << 11) | (xo << 1)


MFSPR, MTSPR = 339, 467


def test_xfx_helper_matches_known_words():
    # mflr 0 = 0x7c0802a6 and mtlr 0 = 0x7c0803a6 appear in every ppc64 prologue
    assert xfx(MFSPR, 0, 8) == 0x7C0802A6
    assert xfx(MTSPR, 0, 8) == 0x7C0803A6


def run(isa, words, **regs):
    sim = Simulator(isa=isa)
    sim.load_words(words, addr=PC)
    for name, value in regs.items():
        if name.startswith("r"):
            sim.state.gpr[int(name[1:])] = value
        else:
            setattr(sim.state, name, value)
    return sim.run(max_steps=100)


@pytest.mark.parametrize("spr,attr", [(8, "lr"), (9, "ctr"), (815, "tar"), (720, "svstate")])
def test_mtspr_mfspr_round_trip(isa, spr, attr):
    value = 0xDEADBEEF_01234567
    res = run(isa, [xfx(MTSPR, 5, spr), xfx(MFSPR, 6, spr)], r5=value)
    assert res.stop == "end"
    assert getattr(res.state, attr) == value
    assert res.gpr[6] == value


def test_mfspr_reads_lr_set_by_bl(isa):
    # bl +8 from 0x1000 sets LR=0x1004; at 0x1008 mflr 3 reads it
    words = [encode(isa, "bl", LI=2), 0, xfx(MFSPR, 3, 8)]
    res = run(isa, words)
    assert res.gpr[3] == 0x1004


@pytest.mark.parametrize("written,read", [
    # XER bits SO OV CA at 32..34 (LSB0 31..29), OV32 CA32 at 44 45 (LSB0 19 18),
    # the 7-bit byte count at 57..63; everything else reads back as zero.
    (0xE00C0055, 0xE00C0055),
    (M64, 0xE00C007F),
    (0x40000000, 0x40000000),  # OV only
])
def test_xer_round_trip(isa, written, read):
    res = run(isa, [xfx(MTSPR, 5, 1), xfx(MFSPR, 6, 1)], r5=written)
    assert res.gpr[6] == read
    assert res.xer == read


def test_mtxer_sets_individual_bits(isa):
    res = run(isa, [xfx(MTSPR, 5, 1)], r5=0x20040000)  # CA and CA32
    s = res.state
    assert (s.so, s.ov, s.ca, s.ov32, s.ca32) == (0, 0, 1, 0, 1)


@pytest.mark.parametrize("word", [xfx(MFSPR, 3, 3), xfx(MTSPR, 3, 268), xfx(MFSPR, 3, 1023)])
def test_unknown_spr_traps_with_registers_intact(isa, word):
    res = run(isa, [word], r3=0x1234)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert res.state.copy_registers() == res.initial
    assert res.state.pc == PC


def test_encode_splits_spr_field(isa):
    # the table's spr operand is the raw field: TAR 815 = 0b11001_01111 -> 0b01111_11001
    assert encode(isa, "mfspr", RT=3, spr=(15 << 5) | 25) == xfx(MFSPR, 3, 815)


# ---------------------------------------------------------------------------
# sc: Linux user system calls (number in r0, arguments r3.., result r3)


def li(isa, rt, value):
    return encode(isa, "addi", RT=rt, RA=0, SI=value)


def test_sc_write_then_exit(isa):
    sim = Simulator(isa=isa)
    sim.state.mem.load(0x2000, b"hello\n")
    words = [li(isa, 0, 4), li(isa, 3, 1), li(isa, 4, 0x2000), li(isa, 5, 6),
             encode(isa, "sc", LEV=0),
             li(isa, 7, 0), encode(isa, "addi", RT=7, RA=3, SI=0),  # r7 = write's result
             li(isa, 0, 1), li(isa, 3, 3), encode(isa, "sc", LEV=0),
             li(isa, 9, 9)]  # never reached
    sim.load_words(words)
    res = sim.run(max_steps=100)
    assert res.stop == "exit"
    assert res.exit_status == 3
    assert res.stdout == b"hello\n"
    assert res.gpr[7] == 6   # bytes written
    assert res.gpr[9] == 0
    assert res.steps == 10


def test_sc_write_to_stderr_and_exit_group(isa):
    sim = Simulator(isa=isa)
    sim.state.mem.load(0x2000, b"oops")
    words = [li(isa, 0, 4), li(isa, 3, 2), li(isa, 4, 0x2000), li(isa, 5, 4),
             encode(isa, "sc", LEV=0), li(isa, 0, 234), li(isa, 3, 0), encode(isa, "sc", LEV=0)]
    sim.load_words(words)
    res = sim.run(max_steps=100)
    assert res.stop == "exit" and res.exit_status == 0
    assert bytes(res.state.stderr) == b"oops" and res.stdout == b""


def test_sc_word_is_gnu_encoding(isa):
    # "sc" assembles to 0x44000002: PO=17, bit 30 set
    assert encode(isa, "sc", LEV=0) == 0x44000002


def test_sc_nonzero_lev_traps(isa):
    res = run(isa, [encode(isa, "sc", LEV=1)], r0=1, r3=5)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert res.state.copy_registers() == res.initial
