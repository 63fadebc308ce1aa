"""The amaranth swizzle decoder against the Python decoder and the SVP64 engine's
RM/EXTRA2 decoding, in simulation; its Verilog read back by yosys."""
import random
import subprocess


from amaranth.sim import Simulator as HdlSimulator

from isa_ext.encoding import encode
from isa_ext.ext.swizzle import decode_words, SwizzleDecode, KIND_COPY, KIND_ONE
from isa_ext.ext.swizzle.hdl import SwizzleDecoder
from isa_ext.svp64 import rm as rmmod, extra as extramod

from conftest import need_tool


def simulate(cases):
    """[(word0, word1)] -> [dict of decoder outputs] from amaranth simulation."""
    dut = SwizzleDecoder()
    results = []

    async def bench(ctx):
        for w0, w1 in cases:
            ctx.set(dut.word0, w0)
            ctx.set(dut.word1, w1)
            out = {}
            for name in SwizzleDecode.FIELDS:
                if name in ("sel_kind", "sel_src"):
                    out[name] = [ctx.get(getattr(dut, name)[p]) for p in range(4)]
                else:
                    out[name] = ctx.get(getattr(dut, name))
            results.append(out)

    sim = HdlSimulator(dut)
    sim.add_testbench(bench)
    sim.run()
    return results


def spec_prefix(rm, bit7=1, bit9=1):
    """A prefix word built from the SVP64 spec's layout (independent of the engine):
    PO=1 in bits 0:5, RM[0] at bit 6, bit 7, RM[1] at bit 8, bit 9, RM[2:23] at 10:31
    (MSB0 bit b is 2**(31-b))."""
    return (1 << 26) | ((rm >> 23) & 1) << 25 | bit7 << 24 | ((rm >> 22) & 1) << 23 | \
        bit9 << 22 | (rm & ((1 << 22) - 1))


def compare(isa, cases):
    hw = simulate(cases)
    bad = [(hex(w0), hex(w1), h, decode_words(isa, w0, w1).as_dict())
           for (w0, w1), h in zip(cases, hw) if h != decode_words(isa, w0, w1).as_dict()]
    return bad


def swizzle_word(isa, imm, rt, ra, floating):
    names = ("FRTp", "FRAp") if floating else ("RTp", "RAp")
    return encode(isa, "fmv.swiz" if floating else "mv.swiz",
                  **{names[0]: rt, names[1]: ra, "imm": imm})


def test_all_immediates_unprefixed(isa):
    # representative registers: even pairs, odd RT, both odd, r0; word1 is noise
    rng = random.Random(3)
    regs = [(4, 6), (5, 8), (30, 31), (0, 0)]
    cases = []
    for imm in range(4096):
        rt, ra = regs[imm % len(regs)]
        cases.append((swizzle_word(isa, imm, rt, ra, imm & 1), rng.randrange(1 << 32)))
    hw = simulate(cases)
    assert all(h["prefixed"] == 0 and h["rm"] == 0 and h["match"] == 1 for h in hw)
    assert compare(isa, cases) == []


def test_all_immediates_with_random_rm(isa):
    rng = random.Random(1)
    cases = []
    for imm in range(4096):
        word = swizzle_word(isa, imm, rng.randrange(32), rng.randrange(32), imm & 2)
        cases.append((spec_prefix(rng.randrange(1 << 24)), word))
    hw = simulate(cases)
    # the decoded prefix: prefixed, and RM back exactly as it was put in
    assert all(h["prefixed"] == 1 for h in hw)
    assert [h["rm"] for h in hw] == [
        ((w0 >> 25) & 1) << 23 | ((w0 >> 23) & 1) << 22 | (w0 & 0x3FFFFF) for w0, _ in cases]
    assert compare(isa, cases) == []


def test_prefix_recognition(isa):
    # PO=1 words with bits 7 and 9 in all four combinations: only 1/1 is an SVP64
    # prefix; otherwise word0 is the instruction (a PO=1 word: not a swizzle)
    word = swizzle_word(isa, 0o4567, 8, 16, False)
    for b7 in (0, 1):
        for b9 in (0, 1):
            w0 = spec_prefix(0x123456, b7, b9)
            h = simulate([(w0, word)])[0]
            assert (h["prefixed"], h["match"]) == ((1, 1) if b7 and b9 else (0, 0))
    # a prefix followed by a word that is not a swizzle: nothing matches
    h = simulate([(spec_prefix(0xFFFFFF), 0x38630001)])[0]   # addi r3, r3, 1
    assert (h["prefixed"], h["match"], h["rm"]) == (0, 0, 0)


def test_other_words_do_not_match(isa):
    rng = random.Random(2)
    cases = [(rng.randrange(1 << 32), rng.randrange(1 << 32)) for _ in range(300)]
    # prefixes with random bits 7 and 9 before swizzle words and before noise
    cases += [(spec_prefix(rng.randrange(1 << 24), rng.randint(0, 1), rng.randint(0, 1)),
               rng.choice([rng.randrange(1 << 32),
                           swizzle_word(isa, rng.randrange(4096), 2, 4, False)]))
              for _ in range(300)]
    # near misses: PO 22 with other XO values
    cases += [((22 << 26) | (rng.randrange(1 << 22) << 4) | xo, 0) for xo in range(16)]
    assert compare(isa, cases) == []


def test_mvrm_decode_matches_the_svp64_engine(isa):
    # the SVP64 engine's own RM / EXTRA2 decoding (isa_ext/svp64/rm.py, extra.py, the
    # category's length field for src_SUBVL) against the hardware, random RM values
    cat = isa.category("MVRM-2P-2S1D")
    assert cat.etype == 2
    sa, sb = cat.length_fields["s"]
    rng = random.Random(5)
    cases, want = [], []
    for _ in range(1500):
        floating = rng.random() < 0.5
        row = next(r for r in isa.rows if r.mnemonic == ("fmv.swiz" if floating else "mv.swiz"))
        rt_name, ra_name = ("FRTp", "FRAp") if floating else ("RTp", "RAp")
        slots = extramod.parse_slots(row.extra)
        slot = {name: i for i, entries in enumerate(slots) for _d, name in entries}
        rm = rng.randrange(1 << 24)
        rt, ra = rng.randrange(32), rng.randrange(32)
        r = rmmod.RM(rm, ptype=2)
        rt_ext, rt_vec = extramod.ext_reg(rt, extramod.slot_spec(r.extra, slot[rt_name], 2), 2)
        ra_ext, ra_vec = extramod.ext_reg(ra, extramod.slot_spec(r.extra, slot[ra_name], 2), 2)
        cases.append((rmmod.prefix_of(rm), swizzle_word(isa, rng.randrange(4096), rt, ra,
                                                        floating)))
        want.append({"prefixed": 1, "rm": rmmod.rm_of(cases[-1][0]), "rt_ext": rt_ext,
                     "rt_vec": int(rt_vec), "ra_ext": ra_ext, "ra_vec": int(ra_vec),
                     "subvl": r.subvl, "src_subvl": rmmod.bits(rm, sa, sb) + 1,
                     "mask_src": r.smask})
    hw = simulate(cases)
    got = [{k: h[k] for k in want[0]} for h in hw]
    assert got == want


def test_engine_prefix_rm_layout_matches_the_hardware():
    # rm.prefix_of / rm_of (the engine) against the spec layout the hardware uses
    rng = random.Random(6)
    for _ in range(2000):
        rm = rng.randrange(1 << 24)
        assert rmmod.prefix_of(rm) == spec_prefix(rm)
        assert rmmod.rm_of(spec_prefix(rm)) == rm


def test_engine_prefix_recognition_requires_bits_7_and_9():
    for b7 in (0, 1):
        for b9 in (0, 1):
            assert rmmod.is_prefix(spec_prefix(0, b7, b9)) == bool(b7 and b9)


def test_hand_derived_decodes(isa):
    # mv.swiz 4,6,"W.Y1" = imm 0o7053, unprefixed: X copy W(3), Y skip, Z copy Y(1), W one
    word = encode(isa, "mv.swiz", RTp=4, RAp=6, imm=0o7053)
    # RM (MSB0): SUBVL(8:9)=0b01 -> 2, Rdest_EXTRA2(10:11)=0b10 vector -> 4<<2 = 16,
    # Rsrc_EXTRA2(12:13)=0b01 scalar -> 32+6 = 38, src_SUBVL(14:15)=0b01 -> 2,
    # MASK_SRC(16:18)=0b101.  Bits 8..18 = 01 10 01 01 101, MSB0 bit b is 2**(23-b).
    rm = 0b01_10_01_01_101 << 5
    hw_plain, hw_sv = simulate([(word, 0), (spec_prefix(rm), word)])
    assert hw_plain["sel_kind"] == [KIND_COPY, 0, KIND_COPY, KIND_ONE]
    assert hw_plain["sel_src"] == [3, 0, 1, 0]
    assert (hw_plain["illegal"], hw_plain["atomic"], hw_plain["rt_ext"]) == (0, 1, 4)
    assert (hw_sv["rt_ext"], hw_sv["rt_vec"], hw_sv["ra_ext"], hw_sv["ra_vec"]) == (16, 1, 38, 0)
    assert (hw_sv["subvl"], hw_sv["src_subvl"], hw_sv["mask_src"]) == (2, 2, 0b101)
    # groups of 2: position X copies W (index 3) from a 2-element source group: illegal;
    # positions Z and W do not exist and do not count
    assert (hw_sv["illegal_range"], hw_sv["illegal"]) == (1, 1)
    odd = encode(isa, "mv.swiz", RTp=5, RAp=6, imm=0o4567)
    assert simulate([(odd, 0)])[0]["illegal_odd"] == 1
    assert simulate([(spec_prefix(0), odd)])[0]["illegal"] == 0  # SVP64: no pair rule


def test_hdl_command_writes_verilog_that_yosys_reads(tmp_path):
    yosys = need_tool("yosys")
    from isa_ext.cli import main
    assert main(["hdl", "--out", str(tmp_path)]) == 0
    v = tmp_path / "swizzle_decoder.v"
    il = tmp_path / "swizzle_decoder.il"
    assert v.is_file() and il.is_file()
    for cmd in (f"read_verilog {v}; hierarchy -top swizzle_decoder; proc; check -assert",
                f"read_rtlil {il}; hierarchy -top swizzle_decoder; check -assert"):
        r = subprocess.run([yosys, "-q", "-p", cmd], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
