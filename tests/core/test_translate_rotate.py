"""Rotations with constant amounts and masks run the same translated or not.

A block inlines ROTL64, ROTL32 and MASK when their count and bounds are
constants once the fields are folded (isa_ext.pseudocode.library's
``_rotl64``/``_rotl32``/``_mask64`` inline forms, specialise._inline_late):
every rotate-and-mask form, with random shifts, bounds and register values
(test_translate's random states), must end as the per-instruction path does
(the reference: what the base tests pin against QEMU).
"""
import random

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from test_translate import both_ways

FORMS = ("rlwinm{dot} {t}, {a}, {sh32}, {mb32}, {me32}",
         "rlwimi{dot} {t}, {a}, {sh32}, {mb32}, {me32}",
         "rlwnm{dot} {t}, {a}, {b}, {mb32}, {me32}",
         "rldicl{dot} {t}, {a}, {sh}, {mb}", "rldicr{dot} {t}, {a}, {sh}, {mb}",
         "rldic{dot} {t}, {a}, {sh}, {mb}", "rldimi{dot} {t}, {a}, {sh}, {mb}",
         "rldcl{dot} {t}, {a}, {b}, {mb}", "rldcr{dot} {t}, {a}, {b}, {mb}",
         "rotlwi {t}, {a}, {sh32}", "srwi {t}, {a}, {sh32}", "slwi {t}, {a}, {sh32}",
         "srdi {t}, {a}, {sh}", "sldi {t}, {a}, {sh}")


def line(rng):
    def r():  # r30, r31: the data and code areas
        return rng.randrange(1, 30)
    return rng.choice(FORMS).format(
        dot=rng.choice(["", "."]), t=r(), a=r(), b=r(),
        sh=rng.choice([0, 1, 63, rng.randrange(64)]),
        sh32=rng.choice([0, 1, 31, rng.randrange(32)]),
        mb=rng.choice([0, 63, rng.randrange(64)]), mb32=rng.randrange(32),
        me32=rng.randrange(32))


@pytest.mark.parametrize("batch", range(3))
def test_rotations_run_the_same_translated_or_not(batch):
    rng = random.Random(3500 + batch)
    for _ in range(40):
        n = rng.randrange(1, 12)
        # a loop run three times: the block is translated, then run again hot
        text = "\n".join(["li 28, 3", "mtctr 28", "L0:"] + [line(rng) for _ in range(n)]
                         + ["bdnz L0", "nop"]) + "\n"
        both_ways(rng.getrandbits(32), text, 400)


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
def test_a_rotation_by_0_is_a_mask_alone(translate):
    # by hand (Power ISA rlwinm/rldicl with SH = 0): clrlwi 8,8,24 keeps the
    # low byte 0xF0; rotlwi 7,6,0 the low word 0x12345678; clrldi 5,4,32 and
    # rlwinm 3,4,0,0,31 the low word 0xCAFEF00D; rotldi 9,4,0 all of r4.  A
    # block computes each as the mask alone: no shift by 0, no word shifted
    # down by 32 (nothing is left there), no register shifted by 64
    sim = Simulator(ISA(extensions=["base"]), translate=translate)
    sim.hot_after = 0
    sim.load_asm("clrlwi 8, 8, 24\nrotlwi 7, 6, 0\nclrldi 5, 4, 32\nrlwinm 3, 4, 0, 0, 31\n"
                 "rotldi 9, 4, 0\n")
    s = sim.state
    s.gpr[8], s.gpr[6], s.gpr[4] = 0x123456789ABCDEF0, 0xFFFF000012345678, 0xDEADBEEFCAFEF00D
    res = sim.run()
    assert [res.gpr[i] for i in (3, 5, 7, 8, 9)] == \
        [0xCAFEF00D, 0xCAFEF00D, 0x12345678, 0xF0, 0xDEADBEEFCAFEF00D]
    if translate:
        src = "".join(b.source for b in sim._blocks.values() if b)
        assert "<< 0" not in src and ">> 32" not in src and ">> 64" not in src, src
