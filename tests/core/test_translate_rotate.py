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
