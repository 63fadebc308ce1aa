"""Reserved bits of the SVP64 branch RM (issue 20; docs/errata.md SV-26,
docs/svp64.md "Reserved EXTRA bits").  branches.mdwn "Format and fields" draws
the branch RM: MASKMODE 0, MASK 1:3, ALL SNZ CTi VSb at 4:7, SUBVL 8:9, EXTRA
10:18 (BI's EXTRA3 slot 0 at 10:12), CTR-test VLSET VLI LRu sz at 19:23; its
mode table marks VSb (RM[7]) and VLI (RM[21]) "/" unless VLSET (RM[20]) is
set, and nothing gives RM[13:15] a meaning.  Those bits are reserved as unused
EXTRA slots are (SV-20): strict mode traps (illegal, nothing written),
permissive mode runs as if they were clear with a `reserved-rm` diagnostic,
and the disassembler prints the words as `.long`.

Words by hand: `sv.bc 12,*2,0xc` is prefix 0x05402000 (libre-soc's SVP64Asm
gives 0x05402000 for `sv.bc 12,*2,...`, tests/svp64/test_svp64_branch.py GOLDEN) and
suffix bc 12,2,+0xc = 0x4182000C (PO 16, BO 12, BI 2, BD 3).  RM bit b (b >= 2)
is prefix bit 31-(23-b) MSB0, i.e. value 1 << (23 - b): RM[7] 0x10000, RM[13]
0x400, RM[14] 0x200, RM[15] 0x100, RM[20] 0x8, RM[21] 0x4.
"""
import pytest

from isa_ext.disasm import Disassembler
from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

CLEAN = 0x05402000
SUFFIX = 0x4182000C  # bc 12,2: branch if the CR bit (eq of CR0/CR1 here) is set
RESERVED = [(0x400, "RM[13]"), (0x200, "RM[14]"), (0x100, "RM[15]"),
            (0x10000, "RM[7] (VSb outside its mode)"),
            (0x4, "RM[21] (VLI outside its mode)")]
VL2 = SV.make(maxvl=2, vl=2)


def run(isa, prefix, strict, trace=False):
    """VL=2, CR0 = 0b0010 (eq): element 0's test succeeds, so the branch (ANY)
    is taken to 0x100C, skipping `addi 4,4,1`; r5 counts the landing."""
    sim = Simulator(isa=isa, strict=strict)
    sim.load_words([prefix, SUFFIX, 0x38840001, 0x38A50001])  # addi 4,4,1; addi 5,5,1
    sim.state.svstate = VL2
    sim.state.crval = 0x20000000
    sim.state.ctr = 7
    res = sim.run(max_steps=3, trace=trace)
    return res, sim


@pytest.mark.parametrize("trace", [False, True])
@pytest.mark.parametrize("bit,name", RESERVED, ids=[r[1] for r in RESERVED])
def test_strict_mode_traps_on_a_reserved_branch_rm_bit(svisa, bit, name, trace):
    res, sim = run(svisa, CLEAN | bit, strict=True, trace=trace)
    assert res.stop == "trap" and res.trap.kind == "illegal" and res.trap.pc == 0x1000
    assert "reserved SVP64 branch RM bit(s)" in res.trap.reason and name in res.trap.reason
    s = sim.state
    assert (s.gpr[4], s.gpr[5], s.ctr, s.svstate) == (0, 0, 7, VL2)


@pytest.mark.parametrize("bit,name", RESERVED, ids=[r[1] for r in RESERVED])
def test_permissive_mode_runs_as_if_clear_and_says_so(svisa, bit, name):
    res, sim = run(svisa, CLEAN | bit, strict=False)
    assert res.stop != "trap"
    # taken: addi 4 skipped, addi 5 ran (the clean word's behaviour, by hand)
    assert (sim.state.gpr[4], sim.state.gpr[5]) == (0, 1)
    assert [d.kind for d in sim.diagnostics] == ["reserved-rm"]
    assert name in sim.diagnostics[0].message


def test_the_clean_word_runs_in_strict_mode(svisa):
    res, sim = run(svisa, CLEAN, strict=True)
    assert res.stop != "trap" and (sim.state.gpr[4], sim.state.gpr[5]) == (0, 1)
    assert sim.diagnostics == []


@pytest.mark.parametrize("prefix", [
    CLEAN | 0x10000 | 0x8,   # /vsb: VSb with VLSET
    CLEAN | 0x4 | 0x8,       # /vsi: VLI with VLSET
    CLEAN | 0x20000,         # CTi without CTR-test: given a meaning by the prose (SV-12 b)
])
def test_mode_bits_inside_their_mode_are_not_reserved(svisa, prefix):
    res, sim = run(svisa, prefix, strict=True)
    assert res.stop != "trap", res.trap
    assert sim.diagnostics == []


@pytest.mark.parametrize("bit,name", RESERVED, ids=[r[1] for r in RESERVED])
def test_disassembler_prints_reserved_branch_bits_as_words(svisa, bit, name):
    data = b"".join(w.to_bytes(4, "little") for w in (CLEAN | bit, SUFFIX))
    lines = [t for _a, _w, t in Disassembler(svisa).lines(data, 0x1000)]
    assert lines[0] == f".long 0x{CLEAN | bit:08x}" and len(lines) == 2
