"""SVP64 modifiers that ask for two rows of the MODE table at once have no
encoding: OR-ing their bits would silently encode a third row.

Normal-mode MODE (RM[19:23], openpower-isa's power_svp64_rm.py table):
  00 0 dz sz  simple      00 1 0 RG  map-reduce (00 1 1 x reserved)
  10 N dz sz  saturation  VLi 1 inv CR-bit / zz RC1  fail-first
So /mr with /sz would set bit 4 = RG (map-reduce reversed: /mrr), /mr with /dz
sets bit 3 (reserved), /ff=le with /mrr mixes bits of two rows."""
import pytest

from isa_ext.errors import IsaExtError
from test_svp64 import asm


@pytest.mark.parametrize("line,why", [
    ("sv.add/mr/sz *8, *16, *24", "no zeroing"),
    ("sv.add/mr/dz *8, *16, *24", "no zeroing"),
    ("sv.fsub./w=8/sz/mr *43, *21, *3", "no zeroing"),
    ("sv.xori/sw=32/mrr/mr 59, *24, 1", "separate SVP64 modes"),
    ("sv.popcntd/ff=le/mrr/vec2 *120, *119", "separate SVP64 modes"),
    ("sv.sradi./sw=8/ff=le/mrr 59, 42, 1", "separate SVP64 modes"),
    ("sv.add/sats/mr *8, *16, *24", "separate SVP64 modes"),
    ("sv.add/satu/ff=RC1 *8, *16, *24", "separate SVP64 modes"),
    ("sv.add/w=8/w=16 *8, *16, *24", "given twice"),
])
def test_conflicting_modes_are_rejected(svisa, line, why):
    with pytest.raises(IsaExtError, match=why):
        asm(svisa, [line])


def test_each_mode_alone_still_assembles(svisa):
    # MODE bits by hand from the table above (RM[19:23] are the prefix's low 5 bits)
    assert asm(svisa, ["sv.add/mr *8, *16, *24"])[0] & 0x1F == 0b00100
    assert asm(svisa, ["sv.add/mrr *8, *16, *24"])[0] & 0x1F == 0b00101
    assert asm(svisa, ["sv.add/sz *8, *16, *24"])[0] & 0x1F == 0b00001
    assert asm(svisa, ["sv.add/sats *8, *16, *24"])[0] & 0x1F == 0b10100


def test_cr_op_map_reduce_uses_the_cr_op_mode_table(svisa):
    # cr_ops.mdwn, CR-op MODE: 00 0 dz sz normal, 00 1 0 RG map-reduce.  libre-soc's
    # SVP64Asm (openpower-isa 3cb597b9) gives sv.mcrf/mrr 4,0 = 05400005 4e000000
    # (MODE 00101, the table's); for the 5-bit CR ops it drops /mr (sv.crxor/mr
    # 45,19,47 = 05400820) and writes /mrr as 00100: docs/compat.md.  Expected here:
    # its words with the table's MODE bits.
    assert asm(svisa, ["sv.crxor/mr 45, 19, 47"]) == [0x05400820 | 0b00100, 0x4DB37982]
    assert asm(svisa, ["sv.crxor/mrr 45, 19, 47"]) == [0x05400820 | 0b00101, 0x4DB37982]
    assert asm(svisa, ["sv.mcrf/mrr 4, 0"]) == [0x05400005, 0x4E000000]
    with pytest.raises(IsaExtError, match="no zeroing"):
        asm(svisa, ["sv.cmpli/mrr/sz *4, 1, *8, 0"])


def test_cr_op_reserved_mode_traps(svisa):
    # CR-op MODE 10xxx is RESERVED (cr_ops.mdwn); the prefix of sv.crxor 45,19,47
    # with MODE forced to 0b10000
    from isa_ext.sim import Simulator
    prefix, suffix = asm(svisa, ["sv.crxor 45, 19, 47"])
    sim = Simulator(isa=svisa)
    sim.load_words([(prefix & ~0x1F) | 0b10000, suffix])
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and "reserved SVP64 CR-op MODE=0b10000" in res.trap.reason
