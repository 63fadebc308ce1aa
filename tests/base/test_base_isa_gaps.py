"""The Power ISA base instructions issue 15 added: load-reserve/store-conditional
(lbarx .. lqarx, stbcx. .. stqcx.) with the reservation model of
pseudocode/base/fixedsync.mdwn, sync/lwsync/isync/eieio, bpermd, darn, addpcis
(lnia, subpcis), addex, BCD assist (addg6s, cdtbcd, cbcdtd), v3.1 brh/brw/brd
and setbc/setbcr/setnbc/setnbcr, lmw/stmw and the string instructions.

Oracles: GNU as -mpower10 for every encoding (-mbig for the instructions it
refuses in little-endian mode); QEMU 7.2 (qemu-ppc64le -cpu power10) runs the
same operands for everything it implements except darn (random); the rest is
worked by hand from the instruction descriptions (Power ISA v3.1 Book I 3.3,
Book II 4.4.2 and 4.6), each case's comment giving the derivation.
"""
import random

import pytest

from conftest import gnu_as_words, qemu_probe_lines
from isacaller_compare import assert_same_registers, run_on_both
from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.sim import Simulator

BUF = 0x20000
M64 = (1 << 64) - 1


def run(isa, src, gpr=(), mem=(), little=True, xer=0, cr=0, steps=200):
    sim = Simulator(isa=isa, little=little)
    sim.load_asm(src)
    for n, v in dict(gpr).items():
        sim.state.gpr[n] = v
    for addr, v in dict(mem).items():
        # bytes as they lie in memory, or a doubleword in the machine's order
        if isinstance(v, bytes):
            sim.state.mem.write_bytes(addr, v)
        else:
            sim.state.mem.write(addr, 8, v)
    sim.state.xer = xer
    sim.state.crval = cr
    res = sim.run(max_steps=steps)
    return sim.state, res


def ok(isa, src, **kw):
    state, res = run(isa, src, **kw)
    assert res.stop == "end", res.trap
    return state


# -- encodings ------------------------------------------------------------------

LITTLE_LINES = [
    "lbarx 3,4,5", "lbarx 3,0,5,1", "lharx 3,4,5", "lwarx 3,4,5", "lwarx 31,30,29,1",
    "ldarx 3,4,5", "lqarx 6,4,5", "lqarx 30,0,5,1",
    "stbcx. 3,4,5", "sthcx. 3,4,5", "stwcx. 3,4,5", "stdcx. 3,0,5", "stqcx. 6,4,5",
    "sync", "sync 0", "sync 1", "sync 2", "sync 4", "sync 5", "sync 1,1", "sync 0,3",
    "lwsync", "hwsync", "ptesync", "isync", "eieio",
    "bpermd 3,4,5", "darn 3,0", "darn 3,1", "darn 3,2",
    "addpcis 3,5", "addpcis 3,-1", "addpcis 3,0x7fff", "addpcis 3,-0x8000", "lnia 3",
    "subpcis 3,5", "addex 3,4,5,0", "addex 31,30,29,0",
    "addg6s 3,4,5", "cdtbcd 3,4", "cbcdtd 3,4", "brh 3,4", "brw 3,4", "brd 31,30",
    "setbc 3,5", "setbcr 3,4*cr7+so", "setnbc 3,0", "setnbcr 31,31",
]
# GNU as refuses these in little-endian mode ("invalid when little-endian")
BIG_LINES = ["lmw 26,8(1)", "lmw 3,-8(0)", "stmw 26,8(1)", "stmw 0,0(31)",
             "lswi 3,7,5", "lswi 5,4,0", "lswx 3,4,5", "stswi 3,4,5", "stswx 3,4,5",
             "stswi 31,4,0"]


def test_encodings_match_gnu_as(isa, tmp_path):
    want = gnu_as_words(tmp_path, LITTLE_LINES, extra_args=["-mpower10"])
    ours = assemble("".join(f"{t}\n" for t in LITTLE_LINES), isa=isa).words
    assert [hex(w) for w in ours] == [hex(w) for w in want]


def test_big_endian_only_encodings_match_gnu_as(isa, tmp_path):
    want = gnu_as_words(tmp_path, BIG_LINES, extra_args=["-mpower10", "-mbig"], name="big")
    # gnu_as_words reads the words little-endian; the object is big-endian
    want = [int.from_bytes(w.to_bytes(4, "little"), "big") for w in want]
    ours = assemble("".join(f"{t}\n" for t in BIG_LINES), isa=isa, little=False).words
    assert [hex(w) for w in ours] == [hex(w) for w in want]


@pytest.mark.parametrize("word, text", [
    # objdump -Mpower10 spells these words so (GNU binutils 2.40)
    (0x7C2004AC, "lwsync"), (0x7C0004AC, "hwsync"), (0x7C4004AC, "ptesync"),
    (0x4C600004, "lnia r3"), (0x4C00012C, "isync"), (0x7C0006AC, "eieio"),
])
def test_extended_mnemonics_disassemble(isa, word, text):
    assert Disassembler(isa).word(word, 0x1000).split() == text.split()


def test_reserved_sync_and_addex_values_are_illegal(isa):
    # sync L=3, 6, 7 are reserved (GNU as: "illegal L operand value"); addex
    # CY=1..3 are reserved (QEMU 7.2 raises SIGILL)
    for word in (0x7C6004AC, 0x7CC004AC, 0x7CE004AC):
        _, res = run(isa, f".long {word:#x}\n")
        assert res.stop == "trap" and res.trap.kind == "illegal", hex(word)
    _, res = run(isa, "addex 3,4,5,1\n")
    assert res.stop == "trap" and "addex with CY != 0 is reserved" in res.trap.reason
    _, res = run(isa, "darn 3,3\n")
    assert res.stop == "trap" and "darn with L=3 is reserved" in res.trap.reason


# -- the reservation model ---------------------------------------------------------

CR0_EQ = 0b0010   # stcx.: "store performed"
CR0_SO = 0b0001


def test_store_conditional_succeeds_after_its_reserve(isa):
    # lwarx reserves BUF (4 bytes); stwcx. to the same address and length
    # stores and sets CR0 = 0b00 || 1 || SO
    s = ok(isa, "lwarx 5,0,3\naddi 5,5,1\nstwcx. 5,0,3\n", gpr={3: BUF},
           mem={BUF: 0x1111111122222229})
    assert s.gpr[5] == 0x2222222A       # low word (little-endian) plus 1
    assert s.mem.read(BUF, 8) == 0x111111112222222A
    assert s.cr[0] == CR0_EQ
    assert s.mem.reserve == 0           # the store-conditional ends the reservation


def test_store_conditional_copies_so(isa):
    s = ok(isa, "lwarx 5,0,3\nstwcx. 5,0,3\n", gpr={3: BUF}, xer=1 << 31)
    assert s.cr[0] == CR0_EQ | CR0_SO
    s = ok(isa, "stwcx. 5,0,3\n", gpr={3: BUF}, xer=1 << 31)
    assert s.cr[0] == CR0_SO


@pytest.mark.parametrize("src, why", [
    ("stwcx. 4,0,3\n", "no reservation at all"),
    ("lwarx 5,0,3\naddi 6,3,8\nstwcx. 4,0,6\n", "reserved BUF, stores to BUF+8"),
    ("lwarx 5,0,3\nstw 5,0(3)\nstwcx. 4,0,3\n", "a store in between (even of the same value)"),
    ("lwarx 5,0,3\nstb 5,64(3)\nstwcx. 4,0,3\n", "a store elsewhere in between"),
    ("lbarx 5,0,3\nstwcx. 4,0,3\n", "reserved one byte, stores a word"),
    ("lwarx 5,0,3\nstdcx. 4,0,3\n", "reserved a word, stores a doubleword"),
])
def test_store_conditional_fails(isa, src, why):
    # CR0 = 0b00 || 0 || SO and memory unchanged, whatever the reason
    before = 0x0123456789ABCDEF
    s = ok(isa, src, gpr={3: BUF, 4: 0xFFFFFFFFFFFFFFFF}, mem={BUF: before})
    assert s.cr[0] == 0, why
    assert s.mem.read(BUF, 8) == before, why


def test_store_conditional_uses_up_the_reservation(isa):
    # the first stwcx. stores r4's low word; the second has no reservation left
    s = ok(isa, "lwarx 5,0,3\nstwcx. 4,0,3\nmfcr 6\nstwcx. 7,0,3\n",
           gpr={3: BUF, 4: 0xAAAAAAAA, 7: 0xBBBBBBBB}, mem={BUF: 0})
    assert s.gpr[6] >> 28 == CR0_EQ and s.cr[0] == 0
    assert s.mem.read(BUF, 8) == 0xAAAAAAAA


@pytest.mark.parametrize("load, store, size, value", [
    ("lbarx", "stbcx.", 1, 0xEF), ("lharx", "sthcx.", 2, 0xCDEF),
    ("lwarx", "stwcx.", 4, 0x89ABCDEF), ("ldarx", "stdcx.", 8, 0x0123456789ABCDEF),
])
def test_each_size_loads_zero_extended_and_stores(isa, load, store, size, value):
    # little-endian: the low-addressed bytes are the low-order ones
    s = ok(isa, f"{load} 5,0,3\n{store} 4,0,3\n", gpr={3: BUF, 4: M64},
           mem={BUF: 0x0123456789ABCDEF})
    assert s.gpr[5] == value
    assert s.cr[0] == CR0_EQ
    low = (1 << (8 * size)) - 1
    assert s.mem.read(BUF, 8) == (0x0123456789ABCDEF & ~low) | low


def test_quadword_reserve_pair(isa):
    # as lq/stq: the 16-byte value in little-endian order, the even register
    # getting its high-order half (the doubleword at BUF+8)
    s = ok(isa, "lqarx 8,0,3\nstqcx. 10,0,3\n", gpr={3: BUF, 10: 0xAAAA, 11: 0xBBBB},
           mem={BUF: 0x1111, BUF + 8: 0x2222})
    assert (s.gpr[8], s.gpr[9]) == (0x2222, 0x1111)
    assert s.cr[0] == CR0_EQ
    assert (s.mem.read(BUF, 8), s.mem.read(BUF + 8, 8)) == (0xBBBB, 0xAAAA)


@pytest.mark.parametrize("src, reason", [
    ("lwarx 5,0,3\n", "lwarx needs a word-aligned address"),
    ("lharx 5,0,3\n", "lharx needs a halfword-aligned address"),
    ("ldarx 5,0,6\n", "ldarx needs a doubleword-aligned address"),
    ("lqarx 8,0,6\n", "lqarx needs a quadword-aligned address"),
    ("stwcx. 5,0,3\n", "stwcx. needs a word-aligned address"),
    ("sthcx. 5,0,3\n", "sthcx. needs a halfword-aligned address"),
    ("stdcx. 5,0,6\n", "stdcx. needs a doubleword-aligned address"),
    ("stqcx. 8,0,6\n", "stqcx. needs a quadword-aligned address"),
])
def test_unaligned_reserve_traps(isa, src, reason):
    # r3 = BUF+1 (odd), r6 = BUF+4 (word- but not doubleword-aligned)
    state, res = run(isa, src, gpr={3: BUF + 1, 6: BUF + 4, 5: 7, 8: 7})
    assert res.stop == "trap" and res.trap.kind == "alignment"
    assert reason in res.trap.reason
    assert state.gpr[5] == 7 and state.gpr[8] == 7 and state.mem.reserve == 0


@pytest.mark.parametrize("word, reason", [
    # lqarx 9,4,5 (odd RTp), lqarx 4,4,5 (RTp = RA), lqarx 4,3,4 (RTp = RB),
    # stqcx. 9,4,5 (odd RSp): invalid forms (Book II 4.4.2)
    (0x7D242A28, "lqarx needs an even RTp"), (0x7C842A28, "lqarx needs an even RTp"),
    (0x7C832228, "lqarx needs an even RTp"), (0x7D24296D, "stqcx. needs an even RSp"),
])
def test_quadword_invalid_forms_trap(isa, word, reason):
    _, res = run(isa, f".long {word:#x}\n", gpr={4: BUF, 5: 0, 3: 0})
    assert res.stop == "trap" and res.trap.kind == "illegal" and reason in res.trap.reason


def test_ordering_instructions_change_nothing(isa):
    s = ok(isa, "lwarx 5,0,3\nsync\nlwsync\nisync\neieio\nsync 1,1\nstwcx. 5,0,3\n",
           gpr={3: BUF})
    # the reservation survives the ordering instructions
    assert s.cr[0] == CR0_EQ


RESERVE_PROBE = r"""
#include <stdio.h>
static unsigned long buf[4] __attribute__((aligned(16)));
#define S(body) do { unsigned long cr; \
  buf[0] = 0x0123456789abcdefUL; buf[1] = 0x1111222233334444UL; buf[2] = 0; buf[3] = 0; \
  asm volatile("mr 3,%1\n li 4,-1\n li 10,0x5a5\n li 11,0x7e7\n li 5,0\n mtxer 5\n mtcrf 128,5\n" \
               body "\n mfcr %0" : "=&r"(cr) : "r"(buf) \
               : "r3","r4","r5","r6","r7","r8","r9","r10","r11","cr0","xer","memory"); \
  printf("%lx %lx %lx %lx\n", (cr >> 28) & 15, buf[0], buf[1], buf[2]); } while (0)
int main(void) {
@CASES@
  return 0;
}
"""

RESERVE_CASES = [
    "lbarx 5,0,3; stbcx. 4,0,3", "lharx 5,0,3; sthcx. 4,0,3", "lwarx 5,0,3; stwcx. 4,0,3",
    "ldarx 5,0,3; stdcx. 4,0,3",
    # lqarx's pair (QEMU 7.2 fails stqcx. after it: docs/diffcheck.md)
    "lqarx 8,0,3; std 8,16(3)", "lqarx 8,0,3; std 9,16(3)",
    "lbarx 5,0,3; stwcx. 4,0,3", "lwarx 5,0,3; stdcx. 4,0,3",
    "stwcx. 4,0,3", "stdcx. 4,0,3",
    "lwarx 5,0,3; stwcx. 4,0,3; stwcx. 4,0,3",
    "lwarx 5,0,3; addi 6,3,8; stwcx. 4,0,6",
    "ldarx 5,0,3; li 6,7; std 6,0(3); stdcx. 4,0,3",
    "lis 5,0x8000; mtxer 5; lwarx 5,0,3; stwcx. 4,0,3",
    "lis 5,0x8000; mtxer 5; stwcx. 4,0,3",
    "lwarx 5,0,3; sync; lwsync; isync; eieio; stwcx. 4,0,3",
]


def test_reservation_cases_match_qemu(isa, tmp_path):
    # QEMU keeps the reserved address and value and compares both at the
    # store-conditional; these cases are ones where that and isa_ext's model
    # (any store ends the reservation) agree.  What they do not share is
    # pinned by test_store_conditional_fails and docs/compat.md.
    newline = "\\n "  # a C string's line break between instructions
    lines = [f'  S("{c.replace("; ", newline)}");' for c in RESERVE_CASES]
    out = qemu_probe_lines(tmp_path, RESERVE_PROBE.replace("@CASES@", "\n".join(lines)),
                           cpu="power10")
    assert len(out) == len(RESERVE_CASES)
    for case, line in zip(RESERVE_CASES, out):
        src = "li 4,-1\nli 10,0x5a5\nli 11,0x7e7\nli 5,0\nmtxer 5\nmtcrf 128,5\n" + \
            case.replace("; ", "\n") + "\n"
        s = ok(isa, src, gpr={3: BUF}, mem={BUF: 0x0123456789ABCDEF,
                                            BUF + 8: 0x1111222233334444})
        ours = (s.cr[0], s.mem.read(BUF, 8), s.mem.read(BUF + 8, 8), s.mem.read(BUF + 16, 8))
        assert ours == tuple(int(x, 16) for x in line.split()), case


# -- fixed-point -----------------------------------------------------------------------

def test_bpermd_worked_example(isa):
    # RS bytes 0,1,2,3,4,5,6,0x40 select RB bits 0..6 and "64 or more" (0);
    # RB = 0x8123... has bits 0..6 = 1,0,0,0,0,0,0: perm = 0b10000000
    s = ok(isa, "bpermd 3,4,5\n", gpr={4: 0x0001020304050640, 5: 0x8123456789ABCDEF})
    assert s.gpr[3] == 0x80
    # bits 63,62..56 of all ones, reversed index order: every selected bit is 1
    s = ok(isa, "bpermd 3,4,5\n", gpr={4: 0x3F3E3D3C3B3A3938, 5: 0xFF})
    assert s.gpr[3] == 0xFF


def test_byte_reverse_worked_example(isa):
    s = ok(isa, "brh 6,5\nbrw 7,5\nbrd 8,5\n", gpr={5: 0x0011223344556677})
    assert s.gpr[6] == 0x1100332255447766
    assert s.gpr[7] == 0x3322110077665544
    assert s.gpr[8] == 0x7766554433221100


def test_set_boolean_condition(isa):
    # CR = 0x40000000: only bit 1 (CR0 GT) is set
    s = ok(isa, "setbc 3,1\nsetbc 4,2\nsetbcr 5,1\nsetbcr 6,2\n"
           "setnbc 7,1\nsetnbc 8,2\nsetnbcr 9,1\nsetnbcr 10,2\n",
           cr=0x40000000, gpr={n: 0x5555 for n in range(3, 11)})
    assert s.gpr[3:11] == [1, 0, 0, 1, M64, 0, 0, M64]


def test_addpcis_is_relative_to_the_next_instruction(isa):
    # the program is loaded at 0x1000: addpcis at 0x1004 sees NIA = 0x1008
    s = ok(isa, "nop\naddpcis 3,2\nlnia 4\nsubpcis 5,1\n")
    assert s.gpr[3] == 0x1008 + 0x20000
    assert s.gpr[4] == 0x100C
    assert s.gpr[5] == (0x1010 - 0x10000) & M64


@pytest.mark.parametrize("ra, rb, ov, rt, ov_out, ov32_out", [
    # OV is the carry in: 1 + 2 + 1 = 4, no carries
    (1, 2, 1, 4, 0, 0),
    # all ones + 1 carries out of bit 0 and out of bit 32
    (M64, 1, 0, 0, 1, 1),
    # 0xFFFFFFFF + 0 + 1 carries out of the low word only
    (0xFFFFFFFF, 0, 1, 0x100000000, 0, 1),
])
def test_addex_uses_ov_as_its_carry(isa, ra, rb, ov, rt, ov_out, ov32_out):
    s = ok(isa, "addex 3,4,5,0\n", gpr={4: ra, 5: rb}, xer=(ov << 30) | (1 << 29))
    assert s.gpr[3] == rt and (s.ov, s.ov32) == (ov_out, ov32_out)
    assert s.ca == 1  # CA is left alone


def test_bcd_worked_examples(isa):
    # addg6s: 0x15 + 0x27 = 0x3c: no carry out of either nibble -> 6 in each
    # nibble; 0x19 + 0x08 carries out of the low nibble (9 + 8 = 17) -> 0 there
    s = ok(isa, "addg6s 3,4,5\naddg6s 6,7,8\n",
           gpr={4: 0x15, 5: 0x27, 7: 0x19, 8: 0x08})
    assert s.gpr[3] == 0x6666666666666666
    assert s.gpr[6] == 0x6666666666666660
    # DPD (Book I 5.3.4): 123 -> digits 1,2,3 all "small": 001 010 0 011 = 0x0A3;
    # 999 -> all "large": 00 1 11 1 1 11 1 = 0x0FF.  Word 0: declets 0x0A3, 0x0FF
    # (bits 12:31 = 0x0A3 << 10 | 0x0FF); word 1: declets 0x0FF, 0x0A3
    rs = ((0x0A3 << 10 | 0x0FF) << 32) | (0x0FF << 10 | 0x0A3)
    s = ok(isa, "cdtbcd 3,4\ncbcdtd 5,3\n", gpr={4: rs})
    assert s.gpr[3] == 0x0012399900999123
    assert s.gpr[5] == rs


FIXED_PROBE = r"""
#include <stdio.h>
#define B(insn, A, B) do { unsigned long r, a = (A), b = (B); \
  asm volatile(insn " %0,%1,%2" : "=&r"(r) : "r"(a), "r"(b)); printf("%lx\n", r); } while (0)
#define U(insn, A) do { unsigned long r, a = (A); \
  asm volatile(insn " %0,%1" : "=&r"(r) : "r"(a)); printf("%lx\n", r); } while (0)
#define X(A, B, C) do { unsigned long r, a = (A), b = (B), x = (C); \
  asm volatile("mtxer %1\n addex %0,%2,%3,0\n mfxer %1" : "=&r"(r), "+r"(x) \
               : "r"(a), "r"(b) : "xer"); printf("%lx %lx\n", r, x & 0xe00c0000UL); } while (0)
#define C(insn, BI, V) do { unsigned long r, c = (V); \
  asm volatile("mtcrf 255,%1\n " insn " %0," #BI : "=&r"(r) : "r"(c) \
               : "cr0","cr1","cr2","cr3","cr4","cr5","cr6","cr7"); printf("%lx\n", r); } while (0)
int main(void) {
@CASES@
  return 0;
}
"""


def _values(rng, n):
    corners = [0, 1, M64, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFF,
               0x0123456789ABCDEF, 0x9999999999999999, 0x3F3E3D3C3B3A3938]
    return corners + [rng.getrandbits(64) for _ in range(n)]


def _bcd(rng):
    """A valid six-digit BCD word pair (cbcdtd's defined inputs)."""
    v = 0
    for w in range(2):
        word = 0
        for _ in range(6):
            word = word << 4 | rng.randrange(10)
        v |= word << (32 * w)
    return v


def test_fixed_point_against_qemu(isa, tmp_path):
    rng = random.Random(20261124)
    cases = []   # (C line, asm for isa_ext, gpr, xer, cr, result parser)
    vals = _values(rng, 24)
    for a, b in zip(vals, reversed(vals)):
        # bpermd indexes: mostly below 64 so that RB's bits are selected
        idx = int.from_bytes(bytes(rng.randrange(72) for _ in range(8)), "big")
        cases.append((f'B("bpermd", {idx:#x}UL, {b:#x}UL);', "bpermd 3,4,5", {4: idx, 5: b}))
        cases.append((f'B("addg6s", {a:#x}UL, {b:#x}UL);', "addg6s 3,4,5", {4: a, 5: b}))
        for m in ("brh", "brw", "brd", "cdtbcd"):
            cases.append((f'U("{m}", {a:#x}UL);', f"{m} 3,4", {4: a}))
        # valid BCD, and any bits: the ISA leaves non-decimal digits undefined;
        # isa_ext codes them as QEMU 7.2 does
        for v in (_bcd(rng), a):
            cases.append((f'U("cbcdtd", {v:#x}UL);', "cbcdtd 3,4", {4: v}))
        for ov in (0, 1):
            cases.append((f'X({a:#x}UL, {b:#x}UL, {ov << 30:#x}UL);', "addex 3,4,5,0",
                          {4: a, 5: b, "xer": ov << 30}))
    for m in ("setbc", "setbcr", "setnbc", "setnbcr"):
        for bi in (0, 5, 17, 31):
            c = rng.getrandbits(32)
            cases.append((f'C("{m}", {bi}, {c:#x}UL);', f"{m} 3,{bi}", {"cr": c}))
    out = qemu_probe_lines(tmp_path, FIXED_PROBE.replace(
        "@CASES@", "\n".join(f"  {c}" for c, _, _ in cases)), cpu="power10")
    assert len(out) == len(cases)
    for (cline, src, regs), line in zip(cases, out):
        regs = dict(regs)
        xer, cr = regs.pop("xer", 0), regs.pop("cr", 0)
        s = ok(isa, src + "\n", gpr=regs, xer=xer, cr=cr)
        ours = f"{s.gpr[3]:x}"
        if src.startswith("addex"):
            ours += f" {s.xer & 0xE00C0000:x}"
        assert ours == line, cline


# -- darn -----------------------------------------------------------------------------

def test_darn_is_deterministic_and_seedable(isa):
    def numbers(seed=None):
        sim = Simulator(isa=isa)
        sim.load_asm("darn 3,1\ndarn 4,2\ndarn 5,0\n")
        if seed is not None:
            sim.state.darn_seed = seed
        assert sim.run(max_steps=10).stop == "end"
        return sim.state.gpr[3:6]
    assert numbers() == numbers()
    assert numbers(1) != numbers(2)
    # splitmix64's first output from state 0 is 0xE220A8397B1DCDAF (Vigna's
    # reference implementation, splitmix64.c); L=1 returns it whole
    assert numbers(0)[0] == 0xE220A8397B1DCDAF
    # L=0: a 32-bit number, zero-extended
    assert all(n >> 32 == 0 for n in (numbers(s)[2] for s in range(20)))


def test_darn_never_returns_the_error_value(isa):
    # a seed whose next splitmix64 output would be all ones is not needed to
    # show the rule: the model skips it, so 200 draws contain no all-ones value
    sim = Simulator(isa=isa)
    sim.load_asm("darn 3,1\n" * 200)
    seen = []
    sim.state.darn_seed = 5
    while sim.run(max_steps=1).stop == "step_limit":
        seen.append(sim.state.gpr[3])
    assert M64 not in seen and len(set(seen)) > 190


# -- load/store multiple and strings (big-endian only) ---------------------------------

@pytest.mark.parametrize("src", ["lmw 28,0(4)", "stmw 28,0(4)", "lswi 5,4,8",
                                 "lswx 5,4,6", "stswi 5,4,8", "stswx 5,4,6"])
def test_string_instructions_trap_in_little_endian_mode(isa, src):
    state, res = run(isa, src + "\n", gpr={4: BUF, 5: 0x77, 6: 0})
    mnemonic = src.split()[0]
    assert res.stop == "trap" and res.trap.kind == "alignment"
    assert f"{mnemonic} is not supported in little-endian mode" in res.trap.reason
    assert state.gpr[5] == 0x77 and state.mem.read(BUF, 8) == 0


def test_load_store_multiple_big_endian(isa):
    # stmw 29,8(4): the low words of r29, r30, r31 to BUF+8.. (big-endian: the
    # first word's bytes are r29's high-order byte first); lmw reads them back
    # into r26..r28 zero-extended
    s = ok(isa, "stmw 29,8(4)\nlmw 26,8(4)\n", little=False,
           gpr={4: BUF, 29: 0xAAAA0000_11223344, 30: 0x55667788, 31: M64, 26: 5})
    assert s.mem.read_bytes(BUF + 8, 12) == bytes.fromhex("11223344 55667788 ffffffff")
    # lmw 26 loads r26..r31: r29..r31 get the stored words back, zero-extended
    assert s.gpr[26:32] == [0x11223344, 0x55667788, 0xFFFFFFFF, 0, 0, 0]


def test_string_load_and_store_big_endian(isa):
    msg = b"Hello, wor"  # 10 bytes: r5 "Hell", r6 "o, w", r7 "or" + two zero bytes
    s = ok(isa, "lswi 5,4,10\n", little=False, gpr={4: BUF, 7: M64},
           mem={})
    assert s.gpr[5:8] == [0, 0, 0]  # memory is zero until written below
    sim = Simulator(isa=isa, little=False)
    sim.load_asm("lswi 5,4,10\nstswi 5,8,10\nlswx 10,4,9\nstswx 10,8,12\n")
    sim.state.mem.write_bytes(BUF, msg)
    sim.state.gpr[4], sim.state.gpr[8], sim.state.gpr[7] = BUF, BUF + 64, M64
    sim.state.gpr[9], sim.state.gpr[12] = 0, 16   # lswx at BUF, stswx at BUF+80
    sim.state.xer = 5  # XER[57:63]: 5 bytes for lswx / stswx
    assert sim.run(max_steps=10).stop == "end"
    g = sim.state.gpr
    assert g[5:8] == [0x48656C6C, 0x6F2C2077, 0x6F720000]
    assert g[10:12] == [0x48656C6C, 0x6F000000]
    # stswi wrote all 10 bytes at BUF+64; stswx then wrote 5 at BUF+64+16
    assert sim.state.mem.read_bytes(BUF + 64, 10) == msg
    assert sim.state.mem.read_bytes(BUF + 80, 6) == b"Hello\0"


def test_string_registers_wrap_to_r0(isa):
    # lswi 31,4,8: r31 then r0 (the range wraps), RA=4 outside it
    s = ok(isa, "lswi 31,4,8\n", little=False, gpr={4: BUF},
           mem={BUF: b"ABCDEFGH"})
    assert (s.gpr[31], s.gpr[0]) == (0x41424344, 0x45464748)


def test_indexed_and_store_string_registers_wrap_to_r0(isa):
    # lswx 31,4,5 with XER[57:63] = 8 bytes at EA = (r4) + (r5) = BUF: r31 then
    # r0, as lswi ("registers RT, RT+1, ... wrapping from r31 to r0"); RA = 4 and
    # RB = 5 lie outside {31, 0}.  Big-endian: the first byte is the high one.
    # stswi 31,6,8 / stswx 31,6,5 store r31's and then r0's low words back.
    # (pseudocode/base/stringldst.mdwn: GPR((RT + j) % 32), GPR((RS + k / 4) % 32);
    # r32 exists under SVP64, so a wrong modulus would go unnoticed elsewhere)
    s = ok(isa, "lswx 31,4,5\n", little=False, gpr={4: BUF, 5: 0}, xer=8,
           mem={BUF: b"ABCDEFGH"})
    assert (s.gpr[31], s.gpr[0], s.gpr[32]) == (0x41424344, 0x45464748, 0)
    for store in ("stswi 31,6,8", "stswx 31,6,5"):
        sim = Simulator(isa=isa, little=False)
        sim.load_asm(store + "\n")
        sim.state.gpr[31], sim.state.gpr[0], sim.state.gpr[32] = 0x61626364, 0x65666768, 0x7A7A7A7A
        sim.state.gpr[6], sim.state.gpr[5], sim.state.xer = BUF, 0, 8
        assert sim.run(max_steps=5).stop == "end"
        assert sim.state.mem.read_bytes(BUF, 8) == b"abcdefgh", store


@pytest.mark.parametrize("word, reason", [
    # lmw 4,0(5): RA=5 lies in r4..r31
    (0xB8850000, "lmw with RA in the range"),
    # lswi 3,4,8: two registers r3, r4, and RA=4 is one of them
    (0x7C6444AA, "lswi with RA in the range"),
    # lswx 3,4,3: RT = RB
    (0x7C641C2A, "lswx with RA or RB in the range"),
])
def test_string_invalid_forms_trap(isa, word, reason):
    state, res = run(isa, f".long {word:#x}\n", little=False,
                     gpr={5: BUF, 4: BUF, 3: 0x33}, xer=4)
    assert res.stop == "trap" and res.trap.kind == "illegal" and reason in res.trap.reason
    assert state.gpr[3] == 0x33


@pytest.mark.parametrize("line", ["sv.brd/w=16 *8,*16", "sv.bpermd/w=32 *8,*16,*24",
                                  "sv.addex/w=8 *8,*16,*24,0", "sv.cdtbcd/w=32 *8,*16"])
def test_xlen_dependent_rows_trap_under_element_width(svisa, line):
    # their result at an element width is not the 64-bit result truncated
    # (bytes reversed within XLEN, indices below XLEN, the carry out of bit 0,
    # words of declets): the pages run at 64 bits, so the override traps
    sim = Simulator(isa=svisa)
    sim.load_asm(f"setvl 0,0,2,0,1,1\n{line}\n")
    res = sim.run(max_steps=10)
    assert res.stop == "trap" and "element-width overrides" in res.trap.reason
    assert sim.state.gpr[8] == 0


def test_svp64_brd_and_setbc_vectors(svisa):
    # sv.brd reverses each element; sv.setbc takes a vector of CR bits BI
    # (EXTRA3 *8 = CR fields 8.., bit 0 of each: LT)
    sim = Simulator(isa=svisa)
    sim.load_asm("setvl 0,0,3,0,1,1\nsv.brd *8,*16\nsv.setnbc *20,*32\n")
    sim.state.gpr[16:19] = [0x0102030405060708, 0xFF, 0]
    sim.state.cr[8:11] = [0b1000, 0b0111, 0b1000]
    assert sim.run(max_steps=10).stop == "end"
    assert sim.state.gpr[8:11] == [0x0807060504030201, 0xFF00000000000000, 0]
    assert sim.state.gpr[20:23] == [M64, 0, M64]


LIVE_PROGRAMS = [
    ["bpermd 3,4,5"], ["brh 3,4"], ["brw 3,4"], ["brd 3,4"], ["addg6s 3,4,5"],
    ["cdtbcd 3,4"], ["cbcdtd 3,4"], ["setbc 3,5"], ["setbcr 3,17"], ["setnbc 3,31"],
    ["setnbcr 3,0"],
    ["setvl 0,0,3,0,1,1", "sv.bpermd *8,*16,*24"],
    ["setvl 0,0,3,0,1,1", "sv.brd *8,*16"],
    ["setvl 0,0,3,0,1,1", "sv.addg6s *8,*16,*24"],
    ["setvl 0,0,3,0,1,1", "sv.cdtbcd *8,*16"],
    ["setvl 0,0,2,0,1,1", "sv.setbc *8,*16"],
]


def test_against_isacaller_live(isacaller):
    # libre-soc's ISACaller runs openpower-isa's own pages for these.  Not
    # here: addex (its page has no OV update) and sync/isync (TODO pages),
    # compared with QEMU only; addpcis, on which ISACaller 3cb597b9 raises
    # KeyError 'NONE' (docs/compat.md), pinned by hand above
    from isa_ext.isa import ISA
    isa = ISA(profile="openpower-isa")
    rng = random.Random(20261124)
    programs = []
    for lines in LIVE_PROGRAMS:
        for _ in range(3):
            gpr = [rng.getrandbits(64) for _ in range(128)]
            gpr[0] = 0
            gpr[4] = int.from_bytes(bytes(rng.randrange(72) for _ in range(8)), "big") \
                if "bpermd" in lines[-1] else gpr[4]
            programs.append((lines, gpr, None, rng.getrandbits(32)))
    for lines, res, t in run_on_both(isacaller.root, isa, programs):
        assert_same_registers(lines, res, t)
