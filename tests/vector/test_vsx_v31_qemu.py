"""The vector instructions of tests/vsx_v31_cases.py (what gcc emits for
POWER8/9/10 beyond the first vector rows) against ``qemu-ppc64le -cpu
power10``, interpreted and in eager translated blocks (tests/vsx_probe.py);
and by hand from the book where QEMU cannot say (undefined divisions trap,
the paired loads' register order)."""
import pytest

import vsx_probe as vp
import vsx_v31_cases
from conftest import need_tool
from isa_ext.sim import Simulator


def test_v31_vector_cases_match_qemu(tmp_path):  # long (tests/slow_tests.txt)
    need_tool("qemu-ppc64le")
    bad = vp.compare(tmp_path, vsx_v31_cases.CASES, cpu="power10")
    assert not bad, bad[:10]


@pytest.mark.parametrize("line,a,b", [
    ("vdivsw v1,v2,v3", 5, 0),                       # a divisor of 0
    ("vdivsd v1,v2,v3", 1 << 63, (1 << 64) - 1),     # most negative / -1
    ("vmodsq v1,v2,v3", 7 << 64, 0),
    ("vdiveuw v1,v2,v3", 3, 3),                      # (3 * 2^32) / 3 needs 34 bits
    ("vdivesd v1,v2,v3", 1, 1),                      # 2^64 / 1 does not fit 64 signed bits
])
def test_undefined_divisions_trap_before_writing(line, a, b):
    """Power ISA v3.1 Book I 6.9.1: these results are undefined; isa_ext
    traps as illegal, naming it, and VRT keeps its value."""
    sim = Simulator()
    sim.load_asm(line + "\n")
    width = 32 if line.split()[0].endswith("w") else 64 if line.split()[0].endswith("d") else 128
    rep = 128 // width
    sim.state.vr[1] = 0x1234
    sim.state.vr[2] = sum(a << (width * i) for i in range(rep))
    sim.state.vr[3] = sum(b << (width * i) for i in range(rep))
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "undefined" in res.trap.reason
    assert sim.state.vr[1] == 0x1234


def test_divisions_by_hand():
    """Book I 6.9.1: vdivesw divides (VRA) || 0^32 by EXTS(VRB): -1 * 2^32 /
    2^30 = -4 (fits); vmodsw keeps the dividend's sign: -7 mod 2 = -1."""
    sim = Simulator()
    sim.load_asm("vdivesw v1,v2,v3\nvmodsw v4,v5,v6\n")
    sim.state.vr[2] = 0xFFFFFFFF << 96
    sim.state.vr[3] = 0x40000000 << 96 | 1 << 64 | 1 << 32 | 1
    sim.state.vr[5] = (-7 & 0xFFFFFFFF) << 96 | 9 << 64
    sim.state.vr[6] = 2 << 96 | 4 << 64 | 1 << 32 | 3
    assert sim.run(max_steps=3).stop == "end"
    assert sim.state.vr[1] >> 96 == 0xFFFFFFFC      # -2^32 / 2^30 = -4
    assert sim.state.vr[4] == 0xFFFFFFFF << 96 | 1 << 64


@pytest.mark.parametrize("line,index", [("vextuhlx r3,r9,v3", 15), ("vextuwrx r3,r9,v3", 13)])
def test_extract_index_past_the_last_element_traps(line, index):
    """Book I 6.8.8: a halfword index > 14 or word index > 12 is undefined."""
    sim = Simulator()
    sim.load_asm(line + "\n")
    sim.state.gpr[9] = index
    sim.state.gpr[3] = 77
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and "undefined" in res.trap.reason
    assert sim.state.gpr[3] == 77


def test_paired_load_register_order_by_hand():
    """Book I 7.6.1.3 (little-endian): lxvp puts the quadword at EA in VSR
    XTp+1 and the one at EA+16 in XTp; each as lxvx would (byte 15 of the VSR
    is the byte at EA)."""
    sim = Simulator()
    sim.load_asm("lxvp vs34,0(r4)\nstxvp vs34,32(r4)\n")
    sim.state.gpr[4] = 0x10000
    sim.state.mem.write_bytes(0x10000, bytes(range(32)))
    assert sim.run(max_steps=3).stop == "end"
    assert sim.state.vsr_read(35) == int.from_bytes(bytes(range(16)), "little")
    assert sim.state.vsr_read(34) == int.from_bytes(bytes(range(16, 32)), "little")
    assert sim.state.mem.read_bytes(0x10020, 32) == bytes(range(32))


def test_svp64_prefix_on_a_vector_row_of_each_table_traps(isa):
    """No VMX/VSX row is SVP64-capable (libre-soc's tables, docs/svp64.md):
    an SVP64 prefix before a word of each decoder/vector table traps as
    illegal, naming why, and writes nothing; before a v3.1 prefixed word
    (plxv ...) it traps too.  (One row per table: the trap's reason costs
    seconds for some forms.)"""
    from isa_ext.asm import assemble
    prefix = assemble("sv.add 1,2,3\n", isa=isa, base=0).words[0]
    first = {}
    for r in isa.rows:
        if r.extension == "vector":
            first.setdefault(r.where.split(":")[0], r)
    rows = list(first.values()) + [r for r in isa.rows if r.mnemonic in ("plxv", "pstxvp")]
    assert len(rows) > 20
    sim = Simulator(isa=isa)
    for row in rows:
        suffix = row.value >> 32 if row.form.prefixed else row.value
        sim.load_words([prefix, suffix, 0, 0])
        before = sim.state.copy_registers()
        res = sim.run(max_steps=3)
        assert res.stop == "trap" and res.trap.kind == "illegal" and res.steps == 0, row.mnemonic
        if not row.form.prefixed:
            assert f"{row.mnemonic} is not SVP64-capable" in res.trap.reason
        assert sim.state.copy_registers() == before, row.mnemonic


@pytest.mark.parametrize("line,why", [("lxvp vs33,0(r3)", "multiple of 2"),
                                      ("plxvp 3,8(r3)", "multiple of 2"),
                                      ("stxvpx vs64,r3,r4", "out of range")])
def test_a_pair_names_an_even_vsr(line, why):
    """Book I 7.6.1.3: XTp is 32*TX + 2*Tp, an even VSR (GNU as refuses an odd one)."""
    from isa_ext.asm import assemble
    from isa_ext.errors import AsmError
    with pytest.raises(AsmError, match=why):
        assemble(line + "\n")
