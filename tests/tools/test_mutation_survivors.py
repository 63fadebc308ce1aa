"""Tests written for mutants that survived tools/mutation.py (docs/testing.md,
"Survivors and decisions"): each names the mutant it kills.  Expected values are
derived by hand from the Power ISA text in the comments."""
import pytest

from isa_ext.cli import build_parser, parse
from isa_ext.encoding import encode
from isa_ext.sim import Simulator

ONE = 0x3FF0000000000000  # 1.0 as a double; as a single it is 0x3F800000


def run_one(isa, mnemonic, gpr=(), fpr=(), mem=(), **fields):
    sim = Simulator(isa)
    sim.load_words([encode(isa, mnemonic, **fields)])
    for i, v in gpr:
        sim.state.gpr[i] = v
    for i, v in fpr:
        sim.state.fpr[i] = v
    for addr, data in mem:
        sim.state.mem.write_bytes(addr, data)
    return sim.run(max_steps=2)


@pytest.mark.parametrize("mnemonic,stored", [
    # stfsu: MEM(EA, 4) <- SINGLE((FRS)); 1.0 = 0x3F800000, little-endian bytes
    ("stfsu", b"\x00\x00\x80\x3f\xaa\xaa\xaa\xaa"),
    # stfdu: MEM(EA, 8) <- (FRS)
    ("stfdu", b"\x00\x00\x00\x00\x00\x00\xf0\x3f"),
])
def test_float_store_with_update_through_r1(isa, mnemonic, stored):
    # kills fpstore.mdwn "if RA = 0" -> "RA != 0" and "RA = 1": RA=1 is a valid
    # form.  EA = (r1) + 8 = 0x2008; r1 <- EA
    res = run_one(isa, mnemonic, gpr=[(1, 0x2000)], fpr=[(2, ONE)],
                  mem=[(0x2008, b"\xaa" * 8)], FRS=2, RA=1, D=8)
    assert res.stop == "end", res.trap
    assert res.memory.read_bytes(0x2008, 8) == stored
    assert res.gpr[1] == 0x2008


@pytest.mark.parametrize("mnemonic", ["stfsu", "stfdu"])
def test_float_store_with_update_ra0_is_an_invalid_form(isa, mnemonic):
    # Power ISA: "If RA=0, the instruction form is invalid" -> illegal, nothing stored
    res = run_one(isa, mnemonic, fpr=[(2, ONE)], FRS=2, RA=0, D=0x100)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "invalid form" in res.trap.reason
    assert res.memory.read_bytes(0x100, 8) == bytes(8)


def test_stfiwx_stores_exactly_four_bytes(isa):
    # kills fpintword.mdwn MEM(EA, 4) -> MEM(EA, 5): the byte after the word keeps
    # its value.  Low word of 0x1122334455667788 = 0x55667788, little-endian
    res = run_one(isa, "stfiwx", gpr=[(5, 0x3000)], fpr=[(2, 0x1122334455667788)],
                  mem=[(0x3000, b"\xaa" * 8)], FRS=2, RA=0, RB=5)
    assert res.memory.read_bytes(0x3000, 8) == b"\x88\x77\x66\x55\xaa\xaa\xaa\xaa"


def test_positionals_after_an_option_are_appended():
    # kills cli.py _take_intermixed "+ extras" -> "& extras": the extension named
    # after --root joins the one before it
    args = parse(build_parser(), ["openpower", "install", "swizzle", "--root", "/x", "gpu"])
    assert args.extensions == ["swizzle", "gpu"] and args.root == "/x"


def test_traced_run_counts_steps_and_stops_on_a_trap(isa):
    # kills sim.py _run_traced "steps += 1" -> "+= 2" and its "except (Trap, ...)"
    # replaced: addi r3,r3,1 (0x38630001) runs, then the word 0 (primary opcode 0,
    # illegal) traps at 0x1004: one step, stop "trap", r3 = 1
    sim = Simulator(isa)
    sim.load_words([0x38630001, 0x00000000])
    res = sim.run(max_steps=10, trace=True)
    assert res.stop == "trap" and res.steps == 1
    assert (res.trap.pc, res.trap.word, res.trap.kind) == (0x1004, 0, "illegal")
    assert res.gpr[3] == 1
    sim = Simulator(isa)
    sim.load_words([0x38630001, 0x38630001])
    res = sim.run(max_steps=10, trace=True)
    assert res.stop == "end" and res.steps == 2 and res.gpr[3] == 2


def test_vertical_first_loop_is_interrupted_and_resumes(svisa):
    # kills executor.py "element_ops >= interrupt_after" -> "<" on the vertical-first
    # path: with interrupt_after=0 the loop's first sv.add element (VL=3, vfirst=1)
    # is interrupted before it runs -- the PC stays on the sv.add at 0x1000 with
    # srcstep 0, nothing written -- and the resumed run ends with
    # r80+i = r40+i + r60+i: 1+10, 2+20, 3+30.
    from isa_ext.svp64 import svstate as SV
    sim = Simulator(isa=svisa)
    sim.load_asm("loop:\n sv.add *80, *40, *60\n sv.svstep. 0, 0, 0, 0\n bc 4, 3, loop\n")
    sim.state.svstate = SV.make(maxvl=3, vl=3) | 1
    for i in range(3):
        sim.state.gpr[40 + i], sim.state.gpr[60 + i] = i + 1, 10 * (i + 1)
    sim.interrupt_after = 0
    first = sim.run(max_steps=100)
    assert first.stop == "interrupt" and first.pc == 0x1000
    assert SV.get(sim.state.svstate, "srcstep") == 0
    assert sim.state.gpr[80:83] == [0, 0, 0]
    res = sim.run(max_steps=100)
    assert res.stop == "end" and res.gpr[80:83] == [11, 22, 33]


def test_vertical_first_subvector_loop_is_interrupted_between_sub_elements(svisa):
    # kills executor.py's VF interrupt "k // subvl" -> "k ** subvl": with SUBVL=2
    # (vec2) and VL=2 the loop runs sub-elements k = 0 1 2 3 (element k // 2,
    # sub-element k % 2), one per sv.add, each followed by sv.svstep./vec2; every
    # one of them is one element operation.  interrupt_after=6 lets six run (add,
    # step, add, step, add, step) and stops before the fourth add, k = 3: the PC
    # on the sv.add, SVSTATE at srcstep 1, ssubstep 1; r80 r81 r82 are written,
    # r83 not yet.  The resumed run adds the last: r80+i = r40+i + r60+i = 11 22 33 44.
    from isa_ext.svp64 import svstate as SV
    sim = Simulator(isa=svisa)
    sim.load_asm("loop:\n sv.add/vec2 *80, *40, *60\n sv.svstep./vec2 0, 0, 0, 0\n"
                 " bc 4, 3, loop\n")
    sim.state.svstate = SV.make(maxvl=2, vl=2) | 1
    for i in range(4):
        sim.state.gpr[40 + i], sim.state.gpr[60 + i] = i + 1, 10 * (i + 1)
    sim.interrupt_after = 6
    first = sim.run(max_steps=100)
    assert first.stop == "interrupt" and first.pc == 0x1000
    st = sim.state.svstate
    assert (SV.get(st, "srcstep"), SV.get(st, "ssubstep")) == (1, 1)
    assert sim.state.gpr[80:84] == [11, 22, 33, 0]
    res = sim.run(max_steps=100)
    assert res.stop == "end" and res.gpr[80:84] == [11, 22, 33, 44]


def test_ascii_directives_emit_the_string_bytes(isa):
    # kills asm.py ".ascii" check "len(o.text) >= 2" -> "<= 2": GNU as semantics,
    # .ascii emits the bytes, .asciz adds a NUL
    from isa_ext.asm import assemble
    prog = assemble('.ascii "hi"\n.asciz "ok"\n', isa=isa)
    assert bytes(prog.data) == b"hiok\x00"


def test_load_bytes_defaults_to_0x1000(isa):
    # kills sim.py load_bytes(addr=0x1000) -> 0x1001: the program (addi r3,r3,1 =
    # 0x38630001, little-endian) is placed and entered at 0x1000
    sim = Simulator(isa)
    sim.load_bytes(bytes.fromhex("01006338"))
    res = sim.run(max_steps=5)
    assert res.stop == "end" and res.gpr[3] == 1 and res.pc == 0x1004


def test_assembler_expression_xor(isa):
    # kills asm.py expression "^" -> "/": 6 ^ 3 = 0b110 ^ 0b011 = 0b101 = 5
    from isa_ext.asm import assemble
    assert assemble(".long 6 ^ 3\n", isa=isa).words == [5]


def test_signed_immediate_range_is_16_bits(isa):
    # kills asm.py "lo = -(1 << (width - 1))" mutated: SI is 16-bit signed,
    # -32768..32767 (GNU as rejects -32769 too); addi 3,3,-32768 = 0x38638000
    from isa_ext.asm import assemble
    from isa_ext.errors import AsmError
    assert assemble("addi 3,3,-32768\n", isa=isa).words == [0x38638000]
    with pytest.raises(AsmError, match="out of range -32768..32767"):
        assemble("addi 3,3,-32769\n", isa=isa)


def test_passthrough_takes_what_follows_the_double_dash():
    # kills cli.py "argv[cut + 1:]" -> "argv[cut // 1:]" (which keeps the "--")
    args = parse(build_parser(), ["openpower", "test", "x.py", "--", "-k", "foo"])
    assert args.passthrough == ["-k", "foo"] and args.paths == ["x.py"]


def test_layout_problem_names_its_line():
    # kills compat/plugin/rewriter.py "i + 1" -> "i * 1" in the layout checker's message:
    # line 5 of the page is the stray description
    from isa_ext.compat import plugin as openpower
    text = "# T\n\nX-Form\n\nsome description\n* t RT\n\nPseudo-code:\n\n    x <- 1\n"
    assert openpower.compat_problems(text, "t.mdwn")[0].startswith("t.mdwn:5: ")


def test_unsigned_immediate_range_is_16_bits(isa):
    # kills asm.py "hi = (1 << width) - 1" -> "(1 << width) * 1": UI is 0..65535,
    # and the error points at the operand (column 9), not at the line;
    # ori 3,3,0xffff = 0x60000000 | RS=3<<21 | RA=3<<16 | 0xffff = 0x6063ffff
    from isa_ext.asm import assemble
    from isa_ext.errors import AsmError
    assert assemble("ori 3,3,65535\n", isa=isa).words == [0x6063FFFF]
    with pytest.raises(AsmError, match="out of range 0..65535") as e:
        assemble("ori 3,3,65536\n", isa=isa)
    assert (e.value.line, e.value.column) == (1, 9)


def test_shflvi_segment_code_7_is_reserved(isa):
    # kills gpu/shuffle.mdwn "SEGW >u 6" -> ">u 7": SEGW is the log2 segment width,
    # 6 = 64 lanes is the largest warp (docs/gpu-ops.md: SEGW 7..31 reserved), so the
    # first reserved code, 7, traps as illegal with RT unchanged.
    sim = Simulator(isa)
    sim.load_asm("shflvi.up r3,1,7\n")
    sim.state.gpr[3] = 0x77
    res = sim.run(max_steps=5)
    assert res.stop == "trap" and res.trap.kind == "illegal" and res.trap.pc == 0x1000
    assert "reserved" in res.trap.reason and sim.state.gpr[3] == 0x77


def sured_once(isa, op, rb, element, esize):
    """One SURED on a 1-D surface (tests/ext/gpu/test_gpu.py's descriptor, esize-byte
    elements) whose element 0 holds ``element``, x = r2 = 0, Rb = ``rb``: the
    element afterwards."""
    from test_gpu import DESC_AT, SURF, descriptor
    sim = Simulator(isa)
    sim.load_asm(f"sured.{op} r2,r4,r6,1d\n")
    sim.state.gpr[2], sim.state.gpr[4], sim.state.gpr[6] = 0, rb, DESC_AT
    sim.state.mem.write_bytes(DESC_AT, descriptor(esize=esize))
    sim.state.mem.write_bytes(SURF, element.to_bytes(8, "little"))
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    return int.from_bytes(sim.state.mem.read_bytes(SURF, esize), "little")


@pytest.mark.parametrize("op,esize,expected", [
    # seed 004's table: AND/OR/XOR of the element M with Rb.
    # M = 0xF0F0_0000_0000_00FF, Rb = 0x8000_0000_0000_0F0F
    ("and.u64", 8, 0x8000_0000_0000_000F),
    ("or.u64", 8, 0xF0F0_0000_0000_0FFF),
    # 32-bit elements: M = 0x0000_00FF (the low word), Rb's low word 0x0000_0F0F
    ("and.u32", 4, 0x0000_000F),
])
def test_sured_logical_ops(isa, op, esize, expected):
    # kills gpu/surface.mdwn "SROP = 5" -> "SROP = 6" (32- and 64-bit branches) and
    # "m & v" -> "m | v"
    assert sured_once(isa, op, 0x8000_0000_0000_0F0F, 0xF0F0_0000_0000_00FF, esize) == expected


@pytest.mark.parametrize("ra,ca,ca32", [
    # subfze: RT <- ¬(RA) + CA; CA32 is the carry out of the low 32 bits of that sum
    # (Power ISA 3.0B, 3.3.9: "CA32 ... carry out of bit 32").
    (0xFFFF_FFFF_8000_0000, 1, 0),  # low word of ¬RA 0x7FFFFFFF + 1 = 0x80000000: no carry
    (0xFFFF_FFFF_0000_0001, 1, 0),  # 0xFFFFFFFE + 1 = 0xFFFFFFFF: no carry
    (0xFFFF_FFFF_0000_0000, 1, 1),  # 0xFFFFFFFF + 1 = 0x1_00000000: carry
    (0xFFFF_FFFF_0000_0000, 0, 0),  # 0xFFFFFFFF + 0: no carry
])
def test_subfze_ca32_is_the_carry_out_of_the_low_word(isa, ra, ca, ca32):
    # kills fixedarith.mdwn subfze "a[32:63]" -> "a[33:63]" / "a[32:62]" (each drops a bit
    # of the low word, moving where the 32-bit carry is read)
    sim = Simulator(isa)
    sim.load_words([encode(isa, "subfze", RT=3, RA=4)])
    sim.state.gpr[4] = ra
    sim.state.ca = ca
    res = sim.run(max_steps=2)
    assert res.stop == "end", res.trap
    assert sim.state.gpr[3] == ((~ra & (1 << 64) - 1) + ca) & ((1 << 64) - 1)
    assert sim.state.ca32 == ca32


@pytest.mark.parametrize("segw,mask", [
    # seed 003 SHFL.DOWN by 1 with the segment width W = 2**SEGW (c's wlow = W - 1):
    # W = 1: lane i's source i + 1 is always in the next segment -> no lane in range
    (0, 0x00),
    # W = 2: lanes 0, 2, 4, 6 read their odd neighbour inside the pair -> bits 0 2 4 6
    (1, 0x55),
])
def test_shflvi_validity_mask_by_segment_width(isa, segw, mask):
    # kills gpu/shuffle.mdwn "wlow <- 0b000000" -> "0b000001" (W = 2 for SEGW = 0)
    sim = Simulator(isa)
    sim.load_asm(f"setvl 0,0,8,0,1,1\nsv.shflvi.down r3,1,{segw}\n")
    sim.state.gpr[3] = 0x77
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    assert sim.state.gpr[3] == mask


def test_sured_max_f16x2_is_per_half(isa):
    # kills gpu/surface.mdwn "SRSZ = 5" -> "6" in MAX (f16x2 compared as one s32).
    # seed 004 MAX.F16x2: each 16-bit half is a binary16, maxed separately:
    # M = (1.0, 2.0) = 0x3C00_4000, Rb = (-1.0, 3.0) = 0xBC00_4200 -> (1.0, 3.0)
    assert sured_once(isa, "max.f16x2", 0xBC00_4200, 0x3C00_4000, 4) == 0x3C00_4200


def test_sured_sd64_min_reads_doublewords(isa):
    # kills gpu/surface.mdwn "SRSZ = 7" -> "8" in the element size (sd64 would read 4
    # bytes).  seed 004: MIN .SD64 is a signed 64-bit min: M = 5, Rb = -1 -> -1 in all
    # 8 bytes of the element
    assert sured_once(isa, "min.sd64", (1 << 64) - 1, 5, 8) == (1 << 64) - 1


def test_ldst_fail_first_els_without_vli_leaves_vli_clear(svisa):
    # svp64/asm.py: in LD/ST fail-first "VLi is bit 0 (RM[19], the MODE field's
    # first bit), els moves to bit 3".  sv.ld/ff=RC1/els and
    # sv.ld/ff=RC1/vli/els differ in VLi alone: RM[19] is prefix bit 8 + 19 =
    # 27 (MSB0), 1 << (31 - 27) = 0x10 in the prefix word; the suffix is the
    # same.  (A mutant testing each modifier with `<` for "vli" set VLi for
    # any modifier that sorts before it, "ff=rc1" included.)
    from conftest import sv_words
    els = sv_words(svisa, "sv.ld/ff=RC1/els *4, 8(10)")
    both = sv_words(svisa, "sv.ld/ff=RC1/vli/els *4, 8(10)")
    assert (els[0] ^ both[0], els[1] ^ both[1]) == (0x10, 0)
    assert els[0] & 0x10 == 0


def test_scalar_cr_field_32_cannot_be_encoded(svisa):
    # EXTRA3 for a scalar CR field: the 3-bit field holds n & 7 and the EXTRA
    # slot n >> 3 with its top (vector) bit clear, so CR0..CR31 only; CR32
    # would need EXTRA = 0b100, the vector marker (svp64/extra.py).  CR31 by
    # hand: suffix mcrf 7, 0 = PO 19 (0x4C000000) | BF 7 << 23 = 0x4F800000;
    # prefix 0x05400000 | EXTRA3 slot 0 (RM[10:12], prefix bits 18:20 MSB0) =
    # 31 >> 3 = 0b011: bits 19 and 20 MSB0 = 0x1000 | 0x800
    from conftest import sv_words
    from isa_ext.svp64.asm import SVAsmError
    assert sv_words(svisa, "sv.mcrf 31, 0") == [0x05401800, 0x4F800000]
    with pytest.raises(SVAsmError, match="beyond CR31"):
        sv_words(svisa, "sv.mcrf 32, 0")


def test_index_map_tables_for_some_slots_only():
    # IndexMap.tables(n, slots): "only those" slots.  in1 comes first in the
    # map and is not asked for; out is: its table is still built (a mutant
    # that stopped at the first slot left out returned none)
    from isa_ext.svp64.indexmap import IndexMap
    m = IndexMap({"in1": [1, 0, 3, 2], "out": [3, 2, 1, 0]})
    assert m.tables(4, slots={"out"}) == {"out": [3, 2, 1, 0]}
    assert m.tables(2) == {"in1": [1, 0], "out": [3, 2]}


@pytest.mark.parametrize("text, signed, exact, page, disagrees", [
    # sat_exact.txt "; low 32": checked only where the exact result lies in the
    # 32-bit range of the mode's signedness (signed: -2^31 .. 2^31 - 1,
    # unsigned: 0 .. 2^32 - 1), on the low 32 bits.  Just inside the top of
    # the signed range, a page result 0 disagrees (0x7FFFFFFF's low word is not
    # 0); just outside it nothing is checked.  (A mutant making the signed top
    # 1 + (32 - 1) - 1 = 31 let every exact result from 32 up go unchecked.)
    ("sw(RS) << (RB & 63) ; low 32", True, (1 << 31) - 1, 0, True),
    ("sw(RS) << (RB & 63) ; low 32", True, 100, 0, True),
    ("sw(RS) << (RB & 63) ; low 32", True, 1 << 31, 0, False),
    ("sw(RS) << (RB & 63) ; low 32", True, -(1 << 31), 0, True),
    ("sw(RS) << (RB & 63) ; low 32", True, -(1 << 31) - 1, 0, False),
    # the low 32 bits agree (the page's upper word is not compared)
    ("sw(RS) << (RB & 63) ; low 32", True, 100, 100 | 0xFFFF << 32, False),
    ("uw(RS) << (RB & 63) ; low 32", False, (1 << 32) - 1, 0, True),
    ("uw(RS) << (RB & 63) ; low 32", False, 1 << 32, 0, False),
    # no clause: 64 bits, checked whatever the exact result (modulo 2^64)
    ("RA + RB", True, (1 << 64) + 5, 5, False),
    ("RA + RB", True, 6, 5, True),
])
def test_sat_exact_self_check_range(text, signed, exact, page, disagrees):
    # kills satexact.py's range guard "(1 << (bits - 1)) - 1" -> "(1 + (bits - 1)) - 1"
    from isa_ext.svp64.satexact import Exact
    e = Exact("x", "s" if signed else "u", text, "test")
    assert e.disagrees(exact, page, signed) is disagrees


def _element_events(isa, line, vl, cr):
    from isa_ext.svp64 import svstate as SV
    sim = Simulator(isa=isa)
    sim.load_asm(line + "\n")
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    for field, v in cr.items():
        sim.state.cr[field] = v
    events = []
    sim.tracer = events.append
    res = sim.run()
    assert res.stop == "end", res.trap
    return [e for e in events if e["type"] == "element"]


def test_trace_element_values_of_cr_operands(svisa):
    # kills executor.py _element_values "o.cls == 'crf'" / "== 'crb'" -> ">":
    # the trace's read_values / write_values of CR-field and CR-bit operands.
    # sv.mcrf *8, *16, VL=2: element i copies CR(16+i) to CR(8+i); CR16 = 0b1010,
    # CR17 = 0b0101
    el = _element_events(svisa, "sv.mcrf *8, *16", 2, {16: 0b1010, 17: 0b0101})
    assert [(e["reads"], e["read_values"], e["writes"], e["write_values"]) for e in el] == [
        ({"BFA": 16}, {"BFA": 0b1010}, {"BF": 8}, {"BF": 0b1010}),
        ({"BFA": 17}, {"BFA": 0b0101}, {"BF": 9}, {"BF": 0b0101})]
    # sv.crand *33, *65, *97, VL=2: CR-bit vectors step by 4 bits (one field),
    # element i: bit 33+4i <- bit 65+4i & bit 97+4i.  Bit 65 is CR16's bit 1
    # (GT: 0b0100), bit 97 CR24's; element 1 reads bits 69 (CR17) and 101 (CR25)
    el = _element_events(svisa, "sv.crand *33, *65, *97", 2,
                         {16: 0b0100, 24: 0b0100, 17: 0b0100, 25: 0})
    assert [(e["reads"], e["read_values"], e["writes"], e["write_values"]) for e in el] == [
        ({"BA": 65, "BB": 97}, {"BA": 1, "BB": 1}, {"BT": 33}, {"BT": 1}),
        ({"BA": 69, "BB": 101}, {"BA": 1, "BB": 0}, {"BT": 37}, {"BT": 0})]


def test_sured_big_endian_reads_the_descriptor_in_big_endian(isa):
    # kills gpu/surface.mdwn "base <- MEM(dp, 8)" -> "MEM(dp, 9)": in
    # little-endian mode the ninth byte lands above bit 63 and the base stays
    # the same; in big-endian mode it shifts the base up a byte.  The seed 004
    # example of tests/ext/gpu/test_gpu.py (SURED.ADD.U32 2D, x = 3, y = 2, operand 2,
    # pitch 64, 4-byte elements: address 0x20000 + 2*64 + 3*4 = 0x2008C, 40 + 2
    # = 42) with the descriptor's fields and the element stored big-endian
    from test_gpu import DESC_AT, SURF
    desc = (SURF.to_bytes(8, "big") + (64).to_bytes(4, "big") + (256).to_bytes(4, "big")
            + (16).to_bytes(4, "big") + (4).to_bytes(4, "big") + (1).to_bytes(4, "big")
            + bytes([4, 1, 0, 0]))  # esize 4, enabled, clamp near
    sim = Simulator(isa, little=False)
    sim.load_asm("sured.add.u32 r2,r4,r6,2d\n")
    sim.state.gpr[2], sim.state.gpr[3], sim.state.gpr[4] = 3, 2, 2
    sim.state.gpr[6] = DESC_AT
    sim.state.mem.write_bytes(DESC_AT, desc)
    sim.state.mem.write_bytes(0x2008C, (40).to_bytes(4, "big"))
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    assert sim.state.mem.read_bytes(0x2008C, 4) == (42).to_bytes(4, "big")


@pytest.mark.parametrize("svremap", ["svremap 0, 0, 0, 0, 0, 0, 1", "svremap 0, 1, 2, 3, 0, 1, 0"])
def test_svremap_with_no_slot_enabled_leaves_the_loop_plain(svisa, svremap):
    # SVSTATE.SVme = 0: no operand is remapped (svp64 remap.mdwn: each SVme bit
    # enables one of in1 in2 in3 out out2), whether REMAP persists (RMpst = 1)
    # or is one-shot for the next instruction.  setvl VL = 3; sv.add *8, *16,
    # *24 then adds in step order: r8+i = r16+i + r24+i = 11, 22, 33.
    sim = Simulator(isa=svisa)
    sim.load_asm(f"setvl 0, 0, 3, 0, 1, 1\n{svremap}\nsv.add *8, *16, *24\n")
    for i in range(3):
        sim.state.gpr[16 + i], sim.state.gpr[24 + i] = i + 1, 10 * (i + 1)
    res = sim.run(max_steps=10)
    assert res.stop == "end", res.trap
    assert res.gpr[8:11] == [11, 22, 33]


@pytest.mark.parametrize("line, steps", [
    # sv.addex with CY = 3 traps at its first element (fixedextra.mdwn: "addex
    # with CY != 0 is reserved"), nothing written.  Resumed at srcstep =
    # dststep = 2 (VL = 4, as after an element interrupt), the trap leaves the
    # steps where the instruction restarts: 2/2
    ("sv.addex *8, *16, *24, 3", (2, 2, 0, 0)),
    # SUBVL = 2, resumed at element 2's second sub-element (sub-element k = 5):
    # steps 2/2, substeps 1/1
    ("sv.addex/vec2 *8, *16, *24, 3", (2, 2, 1, 1)),
])
def test_trap_on_the_fast_path_leaves_the_steps_at_the_element(svisa, line, steps):
    # kills executor.py _run_fast's "k // subvl" -> "k % subvl" after a trap
    from isa_ext.svp64 import svstate as SV
    sim = Simulator(isa=svisa)
    sim.load_asm(line + "\n")
    sim.state.svstate = SV.with_steps(SV.make(maxvl=4, vl=4), *steps)
    sim.state.gpr[8:16] = [0x99] * 8
    res = sim.run()
    assert res.stop == "trap" and res.trap.kind == "illegal" and res.pc == 0x1000
    assert "CY" in res.trap.reason
    d = SV.decode(sim.state.svstate)
    assert (d["srcstep"], d["dststep"], d["ssubstep"], d["dsubstep"]) == steps
    assert res.gpr[8:16] == [0x99] * 8


def test_cr_bit_names_only_for_cr_bit_operands(svisa):
    # kills svp64/asm.py "cls == 'crb'" -> ">=": the CR-bit names (lt gt eq so,
    # cr0..cr7, as in "4*cr1+eq") are symbols only in CR-bit operands.  A GPR
    # or CR-field operand written "eq" is an undefined symbol, not 2.
    from isa_ext.asm import assemble
    from isa_ext.errors import AsmError
    for line in ("sv.add *8, eq, *16", "sv.mcrf cr1, eq"):
        with pytest.raises(AsmError, match="undefined symbol 'eq'"):
            assemble(line + "\n", isa=svisa)
    # crand BT = 4*1+2 = 6, BA = lt = 0, BB = gt = 1: PO 19 (0x4C000000) | 6 << 21
    # | 1 << 11 | XO 257 << 1 = 0x4CC00A02, behind the all-scalar prefix 0x05400000
    assert assemble("sv.crand 4*cr1+eq, lt, gt\n", isa=svisa).words == [0x05400000, 0x4CC00A02]


def test_immediate_in_a_register_place_error_names_the_operand(isa):
    # kills asm.py prefixed_form_words "operand {i + 1}" -> "{i - 1}": addi has no
    # 64-bit form taking an immediate (#) in RA's place.  RA is addi's second
    # operand (addi RT,RA,SI), and "#4" begins at column 8 of "addi 3,#4,5"
    from isa_ext.asm import assemble
    from isa_ext.errors import AsmError
    with pytest.raises(AsmError, match=r"addi has no form with an immediate \(#\) as "
                                       r"operand 2$") as e:
        assemble("addi 3,#4,5\n", isa=isa)
    assert (e.value.line, e.value.column) == (1, 8)


def test_cr_bit_operand_names_stop_at_cr7(isa):
    # kills asm.py "%cr{i}" names "range(8)" -> "range(9)": CR has eight 4-bit
    # fields, cr0..cr7, so %cr8 (like cr8) names no field and is an error (GNU as
    # rejects "crand %cr8,0,0" as well).  crand %cr7,0,0: PO 19 = 0x4C000000,
    # BT = 7 << 21 = 0x00E00000, XO 257 << 1 = 0x202 -> 0x4CE00202
    from isa_ext.asm import assemble
    from isa_ext.errors import AsmError
    assert assemble("crand %cr7,0,0\n", isa=isa).words == [0x4CE00202]
    for name in ("%cr8", "cr8"):
        with pytest.raises(AsmError, match=f"register {name} where a number is expected") as e:
            assemble(f"crand {name},0,0\n", isa=isa)
        assert (e.value.line, e.value.column) == (1, 7)


@pytest.mark.parametrize("name,bits", [
    # openpower-isa sprs.csv: SVSHAPE0-3 (SPRs 705-708) are 32 bits wide; XER and
    # CR are 32-bit in the 64-bit machine's view; LR, CTR, TAR, SVSTATE, FPSCR 64
    *[(f"svshape{i}", 32) for i in range(4)], ("xer", 32), ("cr", 32),
    ("lr", 64), ("ctr", 64), ("tar", 64), ("svstate", 64), ("fpscr", 64),
])
def test_spr_option_values_fit_the_register_width(name, bits):
    # kills commands/machine_options.py SPECIAL_REGS widths "32" -> "33" (and the
    # like): the largest value fits, one more does not, and -1 wraps to all ones
    from isa_ext.commands.machine_options import parse_special
    from isa_ext.errors import IsaExtError
    top = (1 << bits) - 1
    assert parse_special([f"{name}={top:#x}"]) == {name: top}
    assert parse_special([f"{name}=-1"]) == {name: top}
    with pytest.raises(IsaExtError, match=f"does not fit in {bits} bits"):
        parse_special([f"{name}={top + 1:#x}"])


@pytest.mark.parametrize("clamp", ["trap", "ign"])
def test_sured_2d_row_0_is_inside_the_surface(isa, clamp):
    # kills gpu/surface.mdwn "inside & y >= 0 & y < height" -> "y > 0": row 0 is
    # inside (0 <= y < height, seed 004), so with the trap or ignore clamp modes
    # the add at x = 3, y = 0 neither traps nor is dropped.  Address = base +
    # 0 * pitch + 3 * 4 = 0x2000C (tests/ext/gpu/test_gpu.py's descriptor: base 0x20000,
    # 4-byte elements); 40 + 2 = 42
    from test_gpu import DESC_AT, descriptor
    sim = Simulator(isa)
    sim.load_asm("sured.add.u32 r2,r4,r6,2d\n")
    sim.state.gpr[2], sim.state.gpr[3], sim.state.gpr[4], sim.state.gpr[6] = 3, 0, 2, DESC_AT
    sim.state.mem.write_bytes(DESC_AT, descriptor(clamp=clamp))
    sim.state.mem.write_bytes(0x2000C, (40).to_bytes(4, "little"))
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    assert int.from_bytes(sim.state.mem.read_bytes(0x2000C, 4), "little") == 42
