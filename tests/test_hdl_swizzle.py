"""The amaranth swizzle decoder against the Python decoder, in simulation; its
Verilog read back by yosys."""
import random
import subprocess

import pytest

from amaranth.sim import Simulator as HdlSimulator

from isa_ext.encoding import encode
from isa_ext.ext.swizzle import decode_swizzle, SwizzleDecode, KIND_COPY, KIND_ONE
from isa_ext.hdl.swizzle import SwizzleDecoder

from conftest import need_tool


def simulate(cases):
    """[(word, rm or None)] -> [dict of decoder outputs] from amaranth simulation."""
    dut = SwizzleDecoder()
    results = []

    async def bench(ctx):
        for word, rm in cases:
            ctx.set(dut.insn, word)
            ctx.set(dut.prefixed, rm is not None)
            ctx.set(dut.rm, rm or 0)
            out = {}
            for name in SwizzleDecode.FIELDS:
                if name == "prefixed":
                    out[name] = int(rm is not None) if ctx.get(dut.match) else 0
                elif name in ("sel_kind", "sel_src"):
                    out[name] = [ctx.get(getattr(dut, name)[p]) for p in range(4)]
                else:
                    out[name] = ctx.get(getattr(dut, name))
            results.append(out)

    sim = HdlSimulator(dut)
    sim.add_testbench(bench)
    sim.run()
    return results


def python_outputs(isa, word, rm):
    return decode_swizzle(isa, word, rm).as_dict()


def compare(isa, cases):
    hw = simulate(cases)
    bad = [(hex(w), rm, h, python_outputs(isa, w, rm)) for (w, rm), h in zip(cases, hw)
           if h != python_outputs(isa, w, rm)]
    return bad


def test_all_immediates_unprefixed(isa):
    regs = [(4, 6), (5, 8), (30, 31), (0, 0)]
    cases = []
    for imm in range(4096):
        rt, ra = regs[imm % len(regs)]
        mn, names = (("fmv.swiz", ("FRTp", "FRAp")) if imm & 1 else ("mv.swiz", ("RTp", "RAp")))
        cases.append((encode(isa, mn, **{names[0]: rt, names[1]: ra, "imm": imm}), None))
    assert compare(isa, cases) == []


def test_all_immediates_with_random_rm(isa):
    rng = random.Random(1)
    cases = []
    for imm in range(4096):
        mn, names = (("fmv.swiz", ("FRTp", "FRAp")) if imm & 2 else ("mv.swiz", ("RTp", "RAp")))
        word = encode(isa, mn, **{names[0]: rng.randrange(32), names[1]: rng.randrange(32),
                                  "imm": imm})
        cases.append((word, rng.randrange(1 << 24)))
    assert compare(isa, cases) == []


def test_other_words_do_not_match(isa):
    rng = random.Random(2)
    cases = [(rng.randrange(1 << 32), rng.choice([None, rng.randrange(1 << 24)]))
             for _ in range(300)]
    # near misses: PO 22 with other XO values
    cases += [((22 << 26) | (rng.randrange(1 << 22) << 4) | xo, None) for xo in range(16)]
    assert compare(isa, cases) == []


def test_hand_derived_decodes(isa):
    # mv.swiz 4,6,"W.Y1" = imm 0o7053, unprefixed: X copy W(3), Y skip, Z copy Y(1), W one
    word = encode(isa, "mv.swiz", RTp=4, RAp=6, imm=0o7053)
    # RM (MSB0): SUBVL(8:9)=0b01 -> 2, Rdest_EXTRA2(10:11)=0b10 vector -> 4<<2 = 16,
    # Rsrc_EXTRA2(12:13)=0b01 scalar -> 32+6 = 38, src_SUBVL(14:15)=0b01 -> 2,
    # MASK_SRC(16:18)=0b101.  Bits 8..18 = 01 10 01 01 101, MSB0 bit b is 2**(23-b).
    rm = 0b01_10_01_01_101 << 5
    hw_plain, hw_sv = simulate([(word, None), (word, rm)])
    assert hw_plain["sel_kind"] == [KIND_COPY, 0, KIND_COPY, KIND_ONE]
    assert hw_plain["sel_src"] == [3, 0, 1, 0]
    assert (hw_plain["illegal"], hw_plain["atomic"], hw_plain["rt_ext"]) == (0, 1, 4)
    assert (hw_sv["rt_ext"], hw_sv["rt_vec"], hw_sv["ra_ext"], hw_sv["ra_vec"]) == (16, 1, 38, 0)
    assert (hw_sv["subvl"], hw_sv["src_subvl"], hw_sv["mask_src"]) == (2, 2, 0b101)
    # groups of 2: position X copies W (index 3) from a 2-element source group: illegal;
    # positions Z and W do not exist and do not count
    assert (hw_sv["illegal_range"], hw_sv["illegal"]) == (1, 1)
    odd = encode(isa, "mv.swiz", RTp=5, RAp=6, imm=0o4567)
    assert simulate([(odd, None)])[0]["illegal_odd"] == 1
    assert simulate([(odd, 0)])[0]["illegal"] == 0  # SVP64: no pair rule


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
