"""VSX Matrix-Multiply Assist by hand (Power ISA v3.1 Book I 7.6.1.11):
accumulator layout (row i of ACC[AT] is VSR 4*AT+i), saturation and
VSCR.SAT, the masks (an element left out becomes 0, even in an accumulating
form), the four signs of the floating-point forms, xvf64ger's VSR pair, and
the VSX rule for an enabled exception (7.4: the target is not altered).
Values are exact binary fractions derived here."""
import struct

import pytest

from isa_ext.sim import Simulator

VE = 1 << (63 - 56)
FX, FEX, VX, VXSNAN = 1 << 63 - 32, 1 << 63 - 33, 1 << 63 - 34, 1 << 63 - 39
FE0 = 1 << 11  # MSR bit 52


def sgl(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def dbl(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def words(*ws):
    v = 0
    for w in ws:
        v = v << 32 | w
    return v


def run(lines, vsrs, fpscr=0, msr=0, translate=False):
    sim = Simulator(translate=translate)
    sim.load_asm("".join(line + "\n" for line in lines))
    for n, v in vsrs.items():
        sim.state.vsr_write(n, v)
    sim.state.fpscr = fpscr
    sim.state.msr |= msr
    sim.state.vscr = 0
    return sim, sim.run(max_steps=len(lines) + 1)


def acc(sim, at):
    return [sim.state.vsr_read(4 * at + i) for i in range(4)]


@pytest.mark.parametrize("translate", [False, True])
def test_saturating_rank2_update_clamps_and_sets_sat(translate):
    # (-32768)(-32768) + (-32768)(-32768) = 2**31: xvi16ger2s clamps it to
    # 0x7fffffff and sets VSCR.SAT; xvi16ger2 keeps the low 32 bits
    a = words(0x80008000, 0x00010002, 0, 0)
    b = words(0x80008000, 0x00030004, 0, 0)
    sim, res = run(["xvi16ger2s 1,32,33"], {32: a, 33: b}, translate=translate)
    assert res.stop == "end"
    row0 = acc(sim, 1)[0]
    assert row0 >> 96 == 0x7FFFFFFF
    # XA word 0 by XB word 1: -32768*3 + -32768*4 = -229376
    assert (row0 >> 64) & 0xFFFFFFFF == -229376 & 0xFFFFFFFF
    # XA word 1 by XB word 1: 1*3 + 2*4 = 11
    assert (acc(sim, 1)[1] >> 64) & 0xFFFFFFFF == 11
    assert sim.state.vscr & 1
    sim, _ = run(["xvi16ger2 1,32,33"], {32: a, 33: b}, translate=translate)
    assert acc(sim, 1)[0] >> 96 == 0x80000000 and not sim.state.vscr & 1


def test_accumulate_with_saturation_from_the_accumulator():
    # xvi8ger4spp: ACC word 0x7ffffff0 + 127*255 saturates; a negative
    # product pulls 0x80000005 below the minimum
    a = words(0x7F000000, 0xFF000000, 0, 0)      # signed bytes 127, -1
    b = words(0xFF000000, 0x06000000, 0, 0)      # unsigned bytes 255, 6
    vsrs = {8: words(0x7FFFFFF0, 0, 0, 0), 9: words(0, 0x80000005, 0, 0), 40: a, 41: b}
    sim, _ = run(["xvi8ger4spp 2,40,41"], vsrs)
    assert acc(sim, 2)[0] >> 96 == 0x7FFFFFFF                          # saturated
    assert (acc(sim, 2)[0] >> 64) & 0xFFFFFFFF == 127 * 6               # 0 + 762
    assert (acc(sim, 2)[1] >> 64) & 0xFFFFFFFF == 0x80000000           # -2**31 + 5 - 6
    assert sim.state.vscr & 1


def test_masks_zero_what_they_leave_out_even_when_accumulating():
    # pmxvi8ger4pp XMSK=0b1000 YMSK=0b0001 PMSK=0b0010: only ACC[0][0][3],
    # with only byte 2's product: 0x10 + (-2)*(200) = 16 - 400 = -384
    a = words(0x11220E44, 0x55667788, 0, 0)      # word 0 byte 2: 0xfe = -2
    a = a & ~(0xFF << 104) | 0xFE << 104
    b = words(0, 0, 0, 0x0103C804)               # word 3 byte 2: 200
    ones = words(0x10, 0x10, 0x10, 0x10)
    sim, _ = run(["pmxvi8ger4pp 0,40,41,8,1,2"], {0: ones, 1: ones, 2: ones, 3: ones, 40: a, 41: b})
    assert acc(sim, 0) == [words(0, 0, 0, -384 & 0xFFFFFFFF), 0, 0, 0]


def test_xxsetaccz_and_the_moves():
    sim, _ = run(["xxmtacc 3", "xxsetaccz 3", "xxmfacc 3"],
                 {n: n + 1 for n in range(12, 17)})
    assert acc(sim, 3) == [0, 0, 0, 0] and sim.state.vsr_read(16) == 17
    sim, _ = run(["xxmtacc 4", "xxmfacc 4"], {n: n + 1 for n in range(16, 20)})
    assert acc(sim, 4) == [17, 18, 19, 20]


@pytest.mark.parametrize("op,value", [("xvf32ger", 3.0), ("xvf32gerpp", 4.0), ("xvf32gerpn", 2.0),
                                      ("xvf32gernp", -2.0), ("xvf32gernn", -4.0)])
def test_the_four_signs(op, value):
    # every element 1.5 * 2.0 with ACC 1.0: ger 3, pp 3+1, pn 3-1, np -3+1, nn -3-1
    a = words(*[sgl(1.5)] * 4)
    b = words(*[sgl(2.0)] * 4)
    ones = words(*[sgl(1.0)] * 4)
    sim, _ = run([f"{op} 1,32,33"], {4: ones, 5: ones, 6: ones, 7: ones, 32: a, 33: b})
    assert acc(sim, 1) == [words(*[sgl(value)] * 4)] * 4


def test_f64_rows_come_from_the_vsr_pair():
    # xvf64ger 0,32,40: row i is doubleword i%2 of VSR 32+i//2, column j
    # doubleword j of VSR 40
    vsrs = {32: dbl(1.0) << 64 | dbl(2.0), 33: dbl(3.0) << 64 | dbl(4.0),
            40: dbl(0.5) << 64 | dbl(-1.0)}
    sim, _ = run(["xvf64ger 0,32,40"], vsrs)
    assert acc(sim, 0) == [dbl(x * 0.5) << 64 | dbl(-x) for x in (1.0, 2.0, 3.0, 4.0)]


def test_f16_products_are_summed_then_accumulated():
    # xvf16ger2pp: 1.5*2 + 0.5*(-1) = 2.5, then + 0.25 = 2.75
    a = words(0x3E003800, 0, 0, 0)       # halves 1.5, 0.5
    b = words(0x4000BC00, 0, 0, 0)       # halves 2.0, -1.0
    sim, _ = run(["xvf16ger2pp 1,32,33"], {4: words(sgl(0.25), 0, 0, 0), 32: a, 33: b})
    assert acc(sim, 1)[0] >> 96 == sgl(2.75)


@pytest.mark.parametrize("translate", [False, True])
def test_an_enabled_invalid_operation_leaves_the_accumulator(translate):
    # VE=1 and a signalling NaN element: VXSNAN recorded, ACC not altered
    # (7.4); with MSR.FE0=1 the enabled exception program interrupt follows
    kept = [words(sgl(1.0), 2, 3, 4)] * 4
    vsrs = {4 + i: v for i, v in enumerate(kept)}
    vsrs.update({32: words(0x7FA00000, 0, 0, 0), 33: words(sgl(1.0), 0, 0, 0)})
    sim, res = run(["xvf32gerpp 1,32,33"], vsrs, fpscr=VE, msr=FE0, translate=translate)
    assert res.stop == "trap" and res.trap.kind == "program"
    assert acc(sim, 1) == kept
    assert sim.state.fpscr == VE | VXSNAN | VX | FX | FEX


@pytest.mark.parametrize("line", ["xvf16ger2pp 1,32,33", "pmxvf16ger2pp 1,32,33,15,15,3",
                                  "xvf32gerpp 1,32,33", "xvi16ger2pp 1,32,33"])
def test_an_update_writes_its_four_vsrs_only(line):
    # ACC[1] is VSRs 4..7 (7.6.1.11): VSRs 3 and 8 next to it keep their values
    sentinel = words(0x12345678, 0x9ABCDEF0, 0x0F1E2D3C, 0x4B5A6978)
    sim, res = run([line], {3: sentinel, 8: sentinel, 32: words(0x3C003C00, 0, 0, 0),
                            33: words(0x3C003C00, 0, 0, 0)})
    assert res.stop == "end"
    assert sim.state.vsr_read(3) == sentinel and sim.state.vsr_read(8) == sentinel
