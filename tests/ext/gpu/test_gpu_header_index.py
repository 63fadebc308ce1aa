"""SURED's immediate header-index form, seed 004's `#tsPtrIdxU13` (issue 20;
docs/errata.md 004-12, isa_ext/ext/gpu/header_index.py).

Seed 004: "#tsPtrIdxU13  This immediate index (word address) is used to fetch
the packed header+sampler pointer entry from constant cache ... The constant
bank entry is 32 bit structure of the form samplerPtr[31:20] | headerPtr[19:0].
(Surface instructions ignore sample pointers).  Any header pointer greater than
one specified in SetTexHeaderPoolC.MaximumIndex will be regarded as an
'invalid' texture."

Encoding by hand (header_index.py): prefix = PO 1 (0x04000000) | MSB0 bits 6:7
= 0b10 (0x02000000) | HIDX in bits 19:31; suffix = the GSR row with RC = 0:
sured.add.u32 (PO 22 = 0x58000000, SROP 0, SRSZ 0) RA=2 (2 << 21 = 0x400000),
RB=4 (4 << 16 = 0x40000), 2d = dimension 3 = 0b011 in bits 27:28||30 (bit 28 ->
0x8, bit 30 -> 0x2): 0x5844000A.  The register form `sured.add.u32 r2,r4,r6,2d`
is the same word with RC=6 in bits 16:20 (6 << 11 = 0x3000): 0x5844300A.
"""
import pytest

from isa_ext.asm import assemble
from isa_ext.cli import main
from isa_ext.disasm import Disassembler
from isa_ext.errors import AsmError
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

from test_gpu import SURF, descriptor, word_at

BANK, POOL = 0x18000, 0x19000
MACHINE = dict(const_bank=BANK, header_pool=POOL, max_header_index=3)


@pytest.fixture(scope="module")
def isa():
    return ISA()


def run(isa, text, gpu=MACHINE, entries=None, headers=None, gpr=None, memory=None,
        trace=False, strict=True):
    """``entries`` {bank word index: 32-bit entry}, ``headers`` {header: descriptor}."""
    sim = Simulator(isa, gpu=gpu, strict=strict)
    sim.load_asm(text)
    for n, v in (gpr or {}).items():
        sim.state.gpr[n] = v
    for i, e in (entries or {}).items():
        sim.state.mem.load(BANK + 4 * i, e.to_bytes(4, "little"))
    for h, d in (headers or {}).items():
        sim.state.mem.load(POOL + 32 * h, d)
    for addr, data in (memory or {}).items():
        sim.state.mem.load(addr, data)
    return sim, sim.run(max_steps=100, trace=trace)


def test_encoding(isa):
    assert assemble("sured.add.u32 r2,r4,#5,2d\n", isa=isa).words == [0x06000005, 0x5844000A]
    # the seed's spelling with spaces, its default size .U32 and the largest index
    assert assemble("sured.add r2, r4, #8191, 2d\n", isa=isa).words == \
        [0x06001FFF, 0x5844000A]
    assert assemble("sured.add.u32 r2,r4,#(2+3),2d\n", isa=isa).words == \
        [0x06000005, 0x5844000A]
    # the register form is unchanged
    assert assemble("sured.add.u32 r2,r4,r6,2d\n", isa=isa).words == [0x5844300A]


def test_labels_after_the_8_byte_form(isa):
    p = assemble("sured.add.u32 r2,r4,#1,1d\nhere: b here\n", isa=isa)
    assert p.symbols["here"] == 0x1008


def test_disassembles_and_reassembles(isa):
    data = b"".join(w.to_bytes(4, "little") for w in (0x06000005, 0x5844000A))
    [(addr, words, text)] = list(Disassembler(isa).lines(data, 0x1000))
    assert text == "sured.add.u32 r2,r4,#5,2d" and words == [0x06000005, 0x5844000A]
    assert assemble(text + "\n", isa=isa).data == data


@pytest.mark.parametrize("words", [
    (0x06000005, 0x5844300A),  # RC (reserved 0 in this form) = 6
])
def test_other_pairs_print_as_words(isa, words):
    data = b"".join(w.to_bytes(4, "little") for w in words)
    lines = [t for _a, _w, t in Disassembler(isa).lines(data, 0)]
    assert lines[0] == f".long 0x{words[0]:08x}"
    assert assemble("\n".join(lines) + "\n", isa=isa).data == data


# 1d surface, esize 4: lane 0's x = r2 = 3 -> address SURF + 12 (surface.mdwn:
# base + x * 4).  Constant-bank word 5 holds sampler pointer 0xABC (ignored) and
# header pointer 2: header 2 of the pool is the descriptor.
@pytest.mark.parametrize("trace", [False, True])
def test_header_from_the_constant_bank(isa, trace):
    sim, res = run(isa, "sured.add.u32 r2,r4,#5,1d\n", entries={5: 0xABC00002},
                   headers={2: descriptor()}, gpr={2: 3, 4: 2},
                   memory={SURF + 12: (40).to_bytes(4, "little")}, trace=trace)
    assert res.stop == "end", res.trap
    assert word_at(sim, SURF + 12) == 42


def test_maximum_index_is_valid(isa):
    # header pointer 3 = MaximumIndex: "greater than" MaximumIndex is invalid, equal is not
    sim, res = run(isa, "sured.or r2,r4,#0,1d\n", entries={0: 3},
                   headers={3: descriptor()}, gpr={2: 0, 4: 0x0F},
                   memory={SURF: (0xF0).to_bytes(4, "little")})
    assert res.stop == "end", res.trap
    assert word_at(sim, SURF) == 0xFF


@pytest.mark.parametrize("trace", [False, True])
@pytest.mark.parametrize("entry,gpu", [
    (4, MACHINE),                                  # MaximumIndex + 1
    (0xFFFFF, MACHINE),                            # the largest 20-bit header pointer
    (0, dict(const_bank=BANK, header_pool=POOL)),  # no header pool configured
])
def test_header_beyond_maximum_index_is_an_invalid_texture(isa, entry, gpu, trace):
    # headers 0..4 are valid descriptors in memory: only MaximumIndex makes 4 invalid
    sim, res = run(isa, "sured.add.u32 r2,r4,#7,1d\n", gpu=gpu, entries={7: entry},
                   headers={h: descriptor() for h in range(5)}, gpr={2: 0, 4: 1},
                   trace=trace)
    assert res.stop == "trap" and res.trap.pc == 0x1000
    assert "invalid texture" in res.trap.reason and "MaximumIndex" in res.trap.reason
    assert word_at(sim, SURF) == 0  # nothing written


def test_reserved_rc_field_is_illegal(isa):
    sim = Simulator(isa, gpu=MACHINE)
    sim.load_words([0x06000005, 0x5844300A])
    res = sim.run(max_steps=1)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "RC field is reserved" in res.trap.reason


def test_mls_prefix_before_addi_is_v31_pli_not_this_form(isa):
    """The header-index prefix's bits are an MLS prefix with R=0 and d0=5:
    before an addi suffix the pair is v3.1's pli (Book I 3.3.9: RT <-
    EXTS(d0 || d1) = 5 << 16 | 1), never blocked by the gpu form."""
    sim = Simulator(isa)
    sim.load_words([0x06000005, 0x38600001])
    res = sim.run(max_steps=2)
    assert res.stop == "end" and res.steps == 1 and sim.state.gpr[3] == (5 << 16) | 1
    [(_a, _w, text)] = Disassembler(isa).lines(
        b"".join(w.to_bytes(4, "little") for w in (0x06000005, 0x38600001)), 0)
    assert text == "pli r3,327681"  # (GNU objdump 2.40 prints the same)


@pytest.mark.parametrize("text,col,why", [
    ("sured.add.u32 r2,r4,#8192,2d", 21, "#8192 out of range 0..8191"),
    ("sured.add.u32 r2,#4,r6,2d", 18, "no form with an immediate (#) as operand 2"),
    ("addi r3,r4,#5", 12, "no form with an immediate (#) as operand 3"),
    ("sured.add.u32 r2,r4,#(,2d", 23, "unexpected ','"),
    ("sured.add.u32 r2,r4,#-1,2d", 21, "#-1 out of range 0..8191"),
])
def test_assembler_errors_name_the_location(isa, text, col, why):
    with pytest.raises(AsmError) as e:
        assemble(text + "\n", filename="t.s", isa=isa)
    assert str(e.value).startswith(f"t.s:1:{col}: error:") and why in str(e.value)


def test_hash_after_a_comma_and_space_is_still_a_comment(isa):
    assert assemble("addi r3,r4,5 # comment\n", isa=isa).words == \
        assemble("addi r3,r4,5\n", isa=isa).words


def test_cli_machine_configuration(tmp_path, capsys):
    prog = tmp_path / "s.s"
    prog.write_text("sured.add.u32 r2,r4,#5,1d\n")
    args = ["run", str(prog), "--gpu", f"constbank={BANK},headerpool={POOL}"]
    assert main(args) != 0  # no MaximumIndex: no pool, an invalid texture
    got = capsys.readouterr()
    assert "invalid texture" in got.out + got.err and "Traceback" not in got.err


def test_header_pointer_uses_all_20_bits(isa):
    # headerPtr is the entry's low 20 bits (bits 12:31 MSB0): 0x80002 has its
    # top bit (bit 19) set.  With MaximumIndex 2^20 - 1 it is valid and names
    # header 0x80002 at POOL + 0x80002 * 32; header 2 (what 19 bits would give)
    # is left empty.  The seed 004 1d add: x = 3, 40 + 2 = 42 at SURF + 12
    gpu = dict(const_bank=BANK, header_pool=POOL, max_header_index=(1 << 20) - 1)
    sim, res = run(isa, "sured.add.u32 r2,r4,#5,1d\n", gpu=gpu, entries={5: 0xABC80002},
                   headers={0x80002: descriptor()}, gpr={2: 3, 4: 2},
                   memory={SURF + 12: (40).to_bytes(4, "little")})
    assert res.stop == "end", res.trap
    assert word_at(sim, SURF + 12) == 42
