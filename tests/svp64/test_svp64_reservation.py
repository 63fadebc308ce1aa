"""Load-and-reserve / store-conditional under SVP64 (openpower-isa 3cb597b9
LDSTRM-2P-2S1D.csv: lbarx lharx lwarx ldarx lqarx, LDSTRM-2P-3S.csv: stbcx.
sthcx. stwcx. stdcx. stqcx., all LDST_IDX, EXTRA2).  Each element is one
larx / stcx. of the reservation model (pseudocode/base/fixedsync.mdwn); a stcx.
element records its own CR field.

Oracles: SVP64Asm for the encodings (its prefix words; the suffix words it
leaves to GNU as, which the scalar tests pin), ISACaller for the larx results
(live: it runs sv.lXarx; it raises KeyError 'stwcx' on every sv.stXcx. and
KeyError 'NONE' on sv.lqarx), and hand-derived cases for the rest.
"""
import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV
from svp64asm_golden import svp64asm_word_tests
from test_svp64_one_behaviour import all_modes

A = 0x10000

SVP64ASM_WORDS = [
    # SVP64Asm: prefix words as listed; the suffix is its text ("lwarx 2,0,4,0")
    # assembled by GNU as
    ("sv.lwarx *8,0,*16,0", [0x05402200, 0x7c402028]),
    ("sv.lwarx 8,3,4,0", [0x05400000, 0x7d032028]),
    ("sv.ldarx *8,*4,4,1", [0x05402800, 0x7c4120a9]),
    ("sv.lbarx/els *8,3,4,0", [0x05402010, 0x7c432068]),
    ("sv.lqarx *8,0,*16,0", [0x05402200, 0x7c402228]),
    ("sv.stwcx. *8,0,*16", [0x05402200, 0x7c40212d]),
    ("sv.stdcx. 8,3,4", [0x05400000, 0x7d0321ad]),
    ("sv.stwcx./els *8,0,*16", [0x05402210, 0x7c40212d]),
]

(test_assembles_as_svp64asm, test_disassembles_to_the_same_words,
 test_svp64asm_words_live) = svp64asm_word_tests(SVP64ASM_WORDS)


def test_stqcx_keeps_its_rc_bit(isa):
    # SVP64Asm writes sv.stqcx. *8,0,*16 as 0x05402200 0x7c40216c: Rc=0, a word
    # no stqcx. has (GNU as: stqcx. 2,0,4 is 0x7c40216d).  isa_ext keeps Rc=1
    # (docs/compat.md)
    from isa_ext.asm import assemble
    assert assemble("sv.stqcx. *8,0,*16\n", isa=isa).words == [0x05402200, 0x7c40216d]


def machine(isa, text, vl, gpr, mem=()):
    sim = Simulator(isa=isa)
    sim.load_asm(text)
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    for r, v in gpr.items():
        sim.state.gpr[r] = v
    for addr, v in mem:
        sim.state.mem.write(addr, 8, v)
    return sim


def test_vector_stcx_succeeds_once(isa):
    # lwarx reserves the word at A; sv.stwcx. with both elements at A: element
    # 0 finds the reservation (the store happens, CR0 = EQ 0b0010) and clears
    # it; element 1 finds none (no store, its field CR1 = 0).  The word at A
    # (little-endian, the low half of the doubleword) becomes r24's low word.
    sim = machine(isa, "lwarx 8,0,16\nsv.stwcx. *24,0,*16\n", 2,
                  {16: A, 17: A, 24: 0xAAAA0001, 25: 0xBBBB0002},
                  [(A, 0x1111222233334444)])
    assert sim.run(max_steps=5).stop == "end"
    assert sim.state.mem.read(A, 8) == 0x11112222AAAA0001
    assert sim.state.crval == 0x20000000


def test_vector_larx_last_element_holds_the_reservation(isa):
    # sv.ldarx over A, A+8: each element reserves its doubleword, the last one
    # (A+8) is left; a scalar stdcx. to A+8 then succeeds, to A it would not
    sim = machine(isa, "sv.ldarx *8,0,*16\nstdcx. 24,0,17\nstdcx. 25,0,16\n", 2,
                  {16: A, 17: A + 8, 24: 0x77, 25: 0x99}, [(A, 5), (A + 8, 6)])
    assert sim.run(max_steps=5).stop == "end"
    assert (sim.state.gpr[8], sim.state.gpr[9]) == (5, 6)
    assert sim.state.mem.read(A + 8, 8) == 0x77 and sim.state.mem.read(A, 8) == 5
    assert sim.state.cr[0] == 0b0000  # the second stdcx. found no reservation


@pytest.mark.parametrize("line", ["sv.lwarx/els *8,16,4", "sv.lwarx/sw=32 *8,0,*16",
                                  "sv.stwcx./els *8,16,4"])
def test_strided_or_narrow_memory_traps(isa, line):
    # the reservation holds the page's EA, which an element stride or a memory
    # element width would move: not implemented, nothing written
    sim = machine(isa, f"lwarx 30,0,16\n{line}\n", 2,
                  {16: A, 4: 8, 8: 0x1234}, [(A, 0x5555)])
    res = sim.run(max_steps=5)
    assert res.stop == "trap" and "not implemented" in res.trap.reason
    assert sim.state.gpr[8] == 0x1234 and sim.state.mem.read(A, 8) == 0x5555
    assert sim.state.crval == 0


@pytest.mark.parametrize("lines", [
    ["lwarx 8,0,16", "sv.stwcx. *24,0,*16"],
    ["sv.lbarx *8,0,*16", "sv.stbcx. *24,0,*16"],
    ["sv.ldarx/m=r3 *8,0,*16", "sv.stdcx./m=r3 *24,0,*16"],
])
def test_every_execution_path_agrees(svisa, lines):
    init = {"svstate": SV.make(maxvl=3, vl=3),
            "gpr": {3: 0b101, 16: 0x10000 - 512, 17: 0x10000 - 512, 18: 0x10000 - 504,
                    24: 0x11, 25: 0x22, 26: 0x33},
            "data": bytes(range(256)) * 4}
    all_modes(svisa, lines, init)


def test_larx_against_isacaller_live(isacaller):
    import random
    from isacaller_compare import assert_same_registers, run_on_both
    isa = ISA(profile="openpower-isa")
    rng = random.Random(1525)
    programs = []
    # the reserved address is A (which the closing stXcx. of the same length
    # names, so it must store) or one in another reservation granule (then it
    # must not): never the cases the ISA leaves undefined
    for line, stcx in (("sv.lwarx *8,0,*16", "stwcx."), ("sv.ldarx *8,0,*16", "stdcx."),
                       ("sv.lbarx *8,16,*4", "stbcx."), ("sv.lharx *8,16,*4", "sthcx."),
                       ("sv.ldarx *8,16,4", "stdcx.")):
        for vl in (1, 2, 4):
            for _ in range(2):
                gpr = [rng.getrandbits(64) for _ in range(128)]
                gpr[0] = 0
                for i in range(4):
                    gpr[16 + i] = rng.choice([A, A + 0x1000])
                    gpr[4 + i] = rng.choice([0, 0x1000])
                gpr[20] = A
                programs.append((["std 22,0(20)", f"setvl 0,0,{vl},0,1,1", line,
                                  f"{stcx} 26,0,20", "ld 30,0(20)"], gpr, None, 0))
    for lines, res, t in run_on_both(isacaller.root, isa, programs, max_steps=20):
        assert_same_registers(lines, res, t)
