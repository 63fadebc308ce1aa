"""Bits set in unused EXTRA slots (issue 20, deliverable 4; docs/svp64.md
"Reserved EXTRA bits").  The 9-bit EXTRA field (RM[10:18]) holds the slots
the row's EXTRA column names: EXTRA3 slots of 3 bits from RM[10], EXTRA2
slots of 2 bits, and under twin predication RM[16:18] is MASK_SRC, not EXTRA.
A bit outside the used slots spells nothing, so it is reserved, as reserved
bits of a 32-bit word are: strict mode traps (illegal instruction, nothing
written), permissive mode ignores the bits and records a diagnostic, and the
disassembler prints the words as `.long`.

The reserved masks below are by hand from decoder/svp64 EXTRA columns:
  fmvis    RM-1P-1D, EXTRA3, one slot (d:FRS at RM[10:12]): RM[13:18] reserved;
           RM[13] is EXTRA bit 5 (EXTRA bit i = RM[18-i]) -> 0x020
  mffs     RM-2P-1S1D, EXTRA3, one slot (d:FRT;d:CR1): RM[13:15] reserved
           (RM[16:18] is MASK_SRC); RM[15] -> EXTRA bit 3 -> 0x008
  absdacu  RM-1P-3S1D (always EXTRA2), three slots at RM[10:15]: RM[16:18]
           reserved; RM[17] -> EXTRA bit 1 -> 0x002
  shfl.idx EXTRA2, four slots at RM[10:17]: RM[18] reserved -> 0x001
"""
import pytest

from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.sim import Simulator
from isa_ext.svp64 import rm as R, svstate as SV

CASES = [("sv.fmvis *8, 0x3f80", 13, 0x020), ("sv.mffs *8", 15, 0x008),
         ("sv.absdacu *8, *16, *24", 17, 0x002),
         ("sv.shfl.idx *r32,*r64,r5,r6", 18, 0x001)]


def words(isa, text, rm_bit=None):
    prefix, suffix = assemble(text + "\n", isa=isa).words
    if rm_bit is not None:
        prefix = R.prefix_of(R.put_bits(R.rm_of(prefix), rm_bit, rm_bit, 1))
    return prefix, suffix


def sim_with(isa, pair, strict):
    sim = Simulator(isa=isa, strict=strict)
    sim.load_words(list(pair), addr=0)
    sim.state.svstate = SV.put(SV.put(0, "maxvl", 2), "vl", 2)
    return sim


@pytest.mark.parametrize("trace", [False, True])
@pytest.mark.parametrize("text,rm_bit,mask", CASES)
def test_strict_mode_traps_on_a_reserved_extra_bit(isa, text, rm_bit, mask, trace):
    pair = words(isa, text, rm_bit)
    sim = sim_with(isa, pair, strict=True)
    before = sim.state.copy_registers()
    res = sim.run(max_steps=1, trace=trace)
    assert res.stop == "trap" and res.trap.kind == "illegal" and res.trap.pc == 0
    assert f"reserved EXTRA bit(s) 0x{mask:03x}" in res.trap.reason
    assert sim.state.copy_registers() == before


@pytest.mark.parametrize("text,rm_bit,mask", CASES)
def test_disassembler_prints_reserved_extra_bits_as_words(isa, text, rm_bit, mask):
    dis = Disassembler(isa)
    clean = words(isa, text)
    assert dis.prefixed(*clean) is not None  # the word without the bit is text
    prefix, suffix = words(isa, text, rm_bit)
    assert dis.prefixed(prefix, suffix) is None
    data = prefix.to_bytes(4, "little") + suffix.to_bytes(4, "little")
    lines = [t for _a, _w, t in dis.lines(data, base=0)]
    # the prefix prints as a word; the suffix alone is an ordinary 32-bit word
    assert lines[0] == f".long 0x{prefix:08x}" and len(lines) == 2
    assert assemble("\n".join(lines) + "\n", isa=isa).data == data


def test_permissive_mode_ignores_the_bits_and_says_so(isa):
    # fmvis FRS <- the bf16 immediate widened: 0x3f80 is 1.0, binary64
    # 0x3FF0000000000000, in f8 and f9 (VL=2)
    sim = sim_with(isa, words(isa, "sv.fmvis *8, 0x3f80", 13), strict=False)
    res = sim.run(max_steps=1)
    assert res.stop != "trap"
    assert sim.state.fpr[8] == sim.state.fpr[9] == 0x3FF0000000000000
    assert [d.kind for d in sim.diagnostics] == ["reserved-extra"]
    assert "0x020" in sim.diagnostics[0].message


def test_bits_the_row_gives_a_meaning_are_not_reserved(isa):
    # mffs is twin-predicated: RM[16] is MASK_SRC (/sm=r10), not an EXTRA bit
    prefix, suffix = words(isa, "sv.mffs *8", 16)
    assert Disassembler(isa).prefixed(prefix, suffix) == "sv.mffs/sm=r10 *8"
    sim = sim_with(isa, (prefix, suffix), strict=True)
    assert sim.run(max_steps=1).stop != "trap"
