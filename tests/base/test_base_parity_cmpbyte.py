"""prtyw, prtyd, cmpeqb, cmprb (Power ISA v3.0B Book I 3.3.10 and 3.3.13) and
GNU as's either-signedness immediates of addis/cmpli.

Expected values are worked by hand from the instruction descriptions (the
comment on each case), or are openpower-isa's test_caller.py expectations; the
encodings are GNU as's (powerpc64le-linux-gnu-as -mpower9); QEMU
(qemu-ppc64le -cpu power9) runs the same instructions as a second oracle.
"""

import pytest

from conftest import gnu_as_words, need_tool, qemu_probe_lines
from isa_ext.asm import assemble
from isa_ext.sim import Simulator

GT = 0b0100


def run(isa, lines, gpr):
    sim = Simulator(isa=isa)
    sim.load_asm("\n".join(lines) + "\n")
    for n, v in gpr.items():
        sim.state.gpr[n] = v
    res = sim.run(max_steps=20)
    assert res.stop == "end", res.trap
    return sim.state


PARITY = [
    # openpower-isa test_caller.py test_prty: bytes de ad be ee | ca ff c0 de have low
    # bits 0 1 0 0 | 0 1 0 0: each word's parity is 1
    ("prtyw", 0xDEADBEEECAFFC0DE, 0x0000000100000001),
    # the same bytes as a doubleword: 1 ^ 1 = 0
    ("prtyd", 0xDEADBEEECAFFC0DE, 0),
    # only the low bit of each byte counts: 0xfe bytes give 0 either way
    ("prtyw", 0xFEFEFEFEFEFEFEFE, 0),
    # low bits of 01 00 00 00 | 00 00 00 01: parity 1 in each word
    ("prtyw", 0x0100000000000001, 0x0000000100000001),
    # 01 01 01 00 | 00 00 00 00: word 0 parity 1 (three ones), word 1 parity 0
    ("prtyw", 0x0101010000000000, 0x0000000100000000),
    ("prtyd", 0x0101010000000000, 1),
]


@pytest.mark.parametrize("mnemonic, rs, ra", PARITY)
def test_parity(isa, mnemonic, rs, ra):
    assert run(isa, [f"{mnemonic} 2, 1"], {1: rs, 2: 0x5555}).gpr[2] == ra


CMPBYTE = [
    # openpower-isa test_caller.py test_cmpeqb: 0x04 is byte 4 of 0x0102030405060708
    ("cmpeqb 0, 2, 1", 0x04, 0x0102030405060708, GT),
    ("cmpeqb 0, 2, 1", 0x10, 0x0102030405060708, 0),
    # only RA's low byte is compared: 0x...ff01 looks for 0x01 (the top byte)
    ("cmpeqb 0, 2, 1", 0xFF01, 0x0102030405060708, GT),
    # cmprb L=0: range lo=RB[56:63]=0x30, hi=RB[48:55]=0x39 ('0'..'9'); '5' is in it
    ("cmprb 0, 0, 2, 1", 0x35, 0x0000000000003930, GT),
    # bounds are inclusive: '9' in, ':' (0x3a) out
    ("cmprb 0, 0, 2, 1", 0x39, 0x0000000000003930, GT),
    ("cmprb 0, 0, 2, 1", 0x3A, 0x0000000000003930, 0),
    # L=0 ignores the second range (RB[32:47] = 'A'..'Z'); L=1 uses it
    ("cmprb 0, 0, 2, 1", 0x41, 0x000000005A413930, 0),
    ("cmprb 0, 1, 2, 1", 0x41, 0x000000005A413930, GT),
    # only RA's low byte: 0x1235 is '5'
    ("cmprb 0, 0, 2, 1", 0x1235, 0x0000000000003930, GT),
    # an empty range (lo > hi) holds nothing
    ("cmprb 0, 0, 2, 1", 0x35, 0x0000000000003039, 0),
    # bytes compare unsigned, whole: the second range 0x80..0xff (RB[40:47] lo,
    # RB[32:39] hi) holds 0x90; the first, 0..0, does not
    ("cmprb 0, 1, 2, 1", 0x90, 0x00000000FF800000, GT),
    # and the first range 0x80..0xff (RB[56:63] lo, RB[48:55] hi) likewise
    ("cmprb 0, 0, 2, 1", 0x90, 0x000000000000FF80, GT),
]


@pytest.mark.parametrize("line, ra, rb, field", CMPBYTE)
def test_compare_byte(isa, line, ra, rb, field):
    s = run(isa, ["mtcrf 255, 3", line.replace(" 0,", " 5,", 1)],
            {2: ra, 1: rb, 3: 0xFFFFFFFF})
    assert s.cr[5] == field  # LT, EQ and SO cleared, whatever they were
    assert s.cr[4] == 0xF and s.cr[6] == 0xF  # neighbours untouched


ENCODINGS = ["prtyw 2,1", "prtyd 2,1", "cmpeqb 3,1,2", "cmprb 3,0,1,2", "cmprb 3,1,1,2",
             "cmprb 7,1,31,30",
             # GNU as: addis/lis take SI signed or unsigned, cmpli/cmplwi/cmpldi UI too
             "addis 1,0,0xffff", "addis 1,0,-1", "addis 1,0,0x8000", "lis 1,0xffff",
             "addis 1,1,-32768", "subis 1,1,-32769", "subis 1,1,0x8000",
             "cmpli 0,0,1,-1", "cmpli 0,0,1,0xffff", "cmplwi 1,-32768", "cmpldi 1,-1"]


def test_encodings_match_gnu_as(isa, tmp_path):
    need_tool("powerpc64le-linux-gnu-as")
    ours = assemble("".join(f"{line}\n" for line in ENCODINGS), isa=isa, base=0).words
    assert ours == gnu_as_words(tmp_path, ENCODINGS, ["-mpower9"])


def test_encodings_as_gnu_as_printed_them(isa):
    # powerpc64le-linux-gnu-as -mpower9 / objdump -d (binutils 2.40)
    words = assemble("".join(f"{line}\n" for line in ENCODINGS[:9]), isa=isa, base=0).words
    assert words == [0x7C220134, 0x7C220174, 0x7D8111C0, 0x7D811180, 0x7DA11180, 0x7FBFF180,
                     0x3C20FFFF, 0x3C20FFFF, 0x3C208000]


@pytest.mark.parametrize("line", [
    # GNU as rejects each of these ("operand out of range")
    "addis 1,0,65536", "addis 1,0,-32769", "addi 1,0,0xffff", "subis 1,1,0xffff",
    "cmpli 0,0,1,-32769", "ori 1,1,-1", "cmpi 0,0,1,0x8000"])
def test_immediates_gnu_as_rejects(isa, line):
    from isa_ext.errors import IsaExtError
    with pytest.raises(IsaExtError, match="out of range"):
        assemble(line + "\n", isa=isa, base=0)


QEMU_PROBE = r"""
#include <stdio.h>
#define RES(insn, A) do { unsigned long r, a = (A); \
  asm volatile(insn " %0,%1" : "=&r"(r) : "r"(a)); printf("%lx\n", r); } while (0)
#define CMP(insn, A, B) do { unsigned long c, a = (A), b = (B); \
  asm volatile("li %0,-1\n mtcrf 255,%0\n " insn "%1,%2\n mfcr %0" \
               : "=&r"(c) : "r"(a), "r"(b) : "cr5"); printf("%lx\n", c); } while (0)
int main(void) {
@CASES@
    return 0;
}
"""


def test_qemu_agrees(isa, tmp_path):
    need_tool("powerpc64le-linux-gnu-gcc")
    need_tool("qemu-ppc64le")
    values = [0, 1, 0xDEADBEEECAFFC0DE, 0x0101010000000000, 0x35, 0x41, 0x3A, 0x1235,
              0x000000005A413930, 0x0000000000003039, 0x0102030405060708, 0xFFFFFFFFFFFFFFFF,
              0x90, 0x00000000FF800000, 0x000000000000FF80]
    cases, lines = [], []
    for v in values:
        for mnemonic in ("prtyw", "prtyd"):
            cases.append((f"{mnemonic} 2, 1", {1: v}, "gpr"))
            lines.append(f'    RES("{mnemonic}", 0x{v:x}UL);')
    for a in values:
        for b in values:
            # ours (RA=r2, RB=r1) and the C asm's prefix (operands %1, %2 follow)
            for insn, prefix in (("cmpeqb 5, 2, 1", "cmpeqb 5,"), ("cmprb 5, 0, 2, 1", "cmprb 5,0,"),
                                 ("cmprb 5, 1, 2, 1", "cmprb 5,1,")):
                cases.append((insn, {2: a, 1: b}, "cr"))
                lines.append(f'    CMP("{prefix}", 0x{a:x}UL, 0x{b:x}UL);')
    out = qemu_probe_lines(tmp_path, QEMU_PROBE.replace("@CASES@", "\n".join(lines)))
    assert len(out) == len(cases)
    for (line, gpr, kind), got in zip(cases, out):
        if kind == "gpr":
            assert run(isa, [line], {**gpr, 2: 0x5555}).gpr[2] == int(got, 16), (line, gpr)
        else:
            s = run(isa, ["mtcrf 255, 3", line], {**gpr, 3: 0xFFFFFFFF})
            assert s.cr[5] == (int(got, 16) >> 8) & 0xF, (line, gpr)


@pytest.mark.parametrize("word, mnemonic, bits", [
    # cmpeqb 3,1,2 is 0x7D8111C0 (GNU as); bit 10 (cmprb's L) is reserved in cmpeqb
    (0x7D8111C0 | 1 << 21, "cmpeqb", "10"),
    # prtyw 2,1 is 0x7C220134; bits 16:20 (an RB position) are reserved: 1<<11 is bit 20
    (0x7C220134 | 1 << 11, "prtyw", "20"),
])
def test_reserved_bits_trap(isa, word, mnemonic, bits):
    sim = Simulator(isa)
    sim.load_words([word])
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and f"invalid form of {mnemonic}" in res.trap.reason
    assert f"bit(s) {bits} set" in res.trap.reason
