"""SVP64 FP element-width overrides (svp64.mdwn "Elwidth for FP Registers").

Element images below are worked out by hand from the IEEE 754 formats:
binary32 = 1 sign, 8 exponent (bias 127), 23 fraction bits; binary16 = 1, 5 (bias
15), 10.  Elements pack little-endian in an FPR (element 0 in the low bits)."""
import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

FX, OX, XX = 1 << 31, 1 << 28, 1 << 25          # FPSCR bits 32, 35, 38 (MSB0)
FR, FI = 1 << 18, 1 << 17                       # bits 45, 46
FPRF_SHIFT = 12                                 # FPRF = bits 47:51


def run(isa, line, vl, fprs):
    mn, _, ops = line.partition(" ")
    sim = Simulator(isa=isa)
    sim.load_words(isa.sv_assemble(mn, ops.split(","), 0, lambda t: int(t, 0)))
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    for i, v in fprs.items():
        sim.state.fpr[i] = v
    return sim, sim.run()


def test_fp32_elements_round_to_single(svisa):
    # golden sv.fadd/w=32 *32, *64, *96, VL=2, two binary32 elements per FPR.
    # element 0: 1.0 (0x3F800000) + 3*2**-25 (exp -24 -> biased 103 = 0x67, fraction
    #   0.5 -> 0x400000: 0x33C00000).  Exact sum 1 + 0.75 ulp(1.0 in binary32) rounds
    #   (nearest) up to 1 + 2**-23 = 0x3F800001.  (A double result truncated to
    #   single would give 0x3F800000.)
    # element 1: 2.5 (0x40200000) + 0.25 (0x3E800000) = 2.75 = 0x40300000 exact.
    sim, r = run(svisa, "sv.fadd/w=32 *32, *64, *96", 2,
                 {64: 0x40200000_3F800000, 96: 0x3E800000_33C00000})
    assert r.stop == "end"
    assert r.fpr[32] == 0x40300000_3F800001
    fpscr = sim.state.fpscr
    # element 0 was inexact (XX sticky, FX); element 1 exact: FI/FR clear at the end
    assert fpscr & XX and fpscr & FX and not fpscr & FI
    assert (fpscr >> FPRF_SHIFT) & 0x1F == 0b00100  # +normal (element 1)


def test_fp32_overflow_is_detected_at_element_precision(svisa):
    # max binary32 0x7F7FFFFF + itself = 2**129 - ... > max: +inf 0x7F800000 with OX,
    # although the sum is an ordinary double.  Element 1 (upper half) keeps its
    # old value: VL=1 writes element 0 only.
    sim, r = run(svisa, "sv.fadd/w=32 *32, *64, *96", 1,
                 {64: 0x7F7FFFFF, 96: 0x7F7FFFFF, 32: 0x12345678_00000000})
    assert r.fpr[32] == 0x12345678_7F800000
    assert sim.state.fpscr & OX


def test_fp16_elements(svisa):
    # sv.fadd/w=16, VL=2: binary16 1.0 = 0x3C00; 3*2**-12 = 1.5*2**-11: biased 4,
    # fraction 0x200 -> 0x1200.  1 + 0.75 ulp rounds up to 1 + 2**-10 = 0x3C01.
    # element 1: 2.0 (0x4000) + 0.5 (0x3800) = 2.5 = 0x4100.
    _, r = run(svisa, "sv.fadd/w=16 *32, *64, *96", 2,
               {64: 0x4000_3C00, 96: 0x3800_1200})
    assert r.fpr[32] & 0xFFFFFFFF == 0x4100_3C01


def test_single_op_on_fp32_elements_runs_at_half_precision(svisa):
    # svp64.mdwn: an "s" operation runs at half the ELWIDTH: sv.fadds/w=32 is a
    # binary16 operation padded to binary32.  1.0 + 3*2**-12 (binary32 0x3A400000):
    # binary16 rounding gives 1 + 2**-10, as binary32 0x3F802000 (2**-10 is
    # fraction bit 13).  Binary32 rounding would keep 0x3F801800.
    _, r = run(svisa, "sv.fadds/w=32 *32, *64, *96", 1,
               {64: 0x3F800000, 96: 0x3A400000})
    assert r.fpr[32] & 0xFFFFFFFF == 0x3F802000
    _, r = run(svisa, "sv.fadd/w=32 *32, *64, *96", 1, {64: 0x3F800000, 96: 0x3A400000})
    assert r.fpr[32] & 0xFFFFFFFF == 0x3F801800


def test_golden_fneg_w32(svisa):
    # golden sv.fneg/w=32 *32, *64, VL=3: 1.0 -> 0xBF800000, -2.0 (0xC0000000) ->
    # 0x40000000, +inf -> -inf 0xFF800000 (element 2 in the low half of f33)
    _, r = run(svisa, "sv.fneg/w=32 *32, *64", 3,
               {64: 0xC0000000_3F800000, 65: 0x7F800000, 33: 0xAAAAAAAA_00000000})
    assert r.fpr[32] == 0x40000000_BF800000
    assert r.fpr[33] == 0xAAAAAAAA_FF800000


def test_fp32_sources_to_double_destination(svisa):
    # sv.fadd/sw=32 *32, *64, *96: binary32 sources widened exactly, double result:
    # 1.0 + 3*2**-25 = 1 + 3*2**27 * 2**-52: 0x3FF0000018000000 (no rounding)
    _, r = run(svisa, "sv.fadd/sw=32 *32, *64, *96", 1, {64: 0x3F800000, 96: 0x33C00000})
    assert r.fpr[32] == 0x3FF0000018000000


def test_fp32_denormal_and_nan_elements(svisa):
    # fmul/w=32: smallest binary32 denormal 2**-149 (0x00000001) * 2.0 (0x40000000)
    # = 2**-148 = 0x00000002.  Element 1: a quiet NaN 0x7FC00001 * 2.0 propagates
    # the NaN (payload kept): 0x7FC00001.
    _, r = run(svisa, "sv.fmul/w=32 *32, *64, *96", 2,
               {64: 0x7FC00001_00000001, 96: 0x40000000_40000000})
    assert r.fpr[32] == 0x7FC00001_00000002


@pytest.mark.parametrize("line,why", [
    ("sv.fadds/w=16 *32, *64, *96", "not defined"),   # half of binary16
    ("sv.fadd/w=8 *32, *64, *96", "bf16"),            # ELWIDTH=11 reserved
    ("sv.lfd/w=32 *32, 0(10)", "not implemented"),
])
def test_undefined_fp_widths_trap_cleanly(svisa, line, why):
    sim, r = run(svisa, line, 2, {64: 0x3F800000, 96: 0x3F800000, 32: 0x77})
    assert r.stop == "trap" and why in r.trap.reason
    assert r.fpr[32] == 0x77 and sim.state.fpscr == 0


def _struct_image(x, w):
    """Python's struct packing of double ``x`` as a ``w``-bit IEEE element
    (round to nearest even): the independent reference for from_double."""
    import math
    import struct
    code, mask = {16: ("<e", "<H"), 32: ("<f", "<I")}[w]
    try:
        return struct.unpack(mask, struct.pack(code, x))[0]
    except OverflowError:  # too large for the format: nearest rounds to infinity
        top = (1 << {16: 5, 32: 8}[w]) - 1
        return (int(math.copysign(1, x) < 0) << (w - 1)) | (top << {16: 10, 32: 23}[w])


@pytest.mark.parametrize("w", [16, 32])
def test_from_double_matches_struct_packing(w):
    # every class: normals, values that round into (and out of) the narrow
    # format's denormals, both signs, overflow, zeros, infinities; NaNs below
    import random
    import struct
    from isa_ext.svp64.fpelw import from_double, to_double
    rng = random.Random(w)
    emin = {16: -14, 32: -126}[w]
    xs = [0.0, -0.0, float("inf"), -float("inf"), 2.0 ** (emin - 10), -(2.0 ** (emin - 10)),
          -(2.0 ** (emin - 1)) * 1.75, 65504.0, -65520.0, 1e300, -1e300]
    for _ in range(3000):
        e = rng.randint(emin - 30, -emin + 2)
        xs.append(rng.choice((1, -1)) * rng.uniform(1, 2) * 2.0 ** e)
    for x in xs:
        bits = struct.unpack("<Q", struct.pack("<d", x))[0]
        got = from_double(bits, w, 0)
        assert got == _struct_image(x, w), (x, hex(got))
        # and back: the element's exact double image is the rounded value
        ref = struct.unpack({16: "<e", 32: "<f"}[w], struct.pack({16: "<H", 32: "<I"}[w], got))[0]
        assert to_double(got, w) == struct.unpack("<Q", struct.pack("<d", ref))[0]


def test_from_double_negative_nan_keeps_its_sign():
    # -qNaN (0xFFF8...) as binary16: sign 1, exponent 11111, quiet bit (fraction
    # bit 9): 0x8000 | 0x7C00 | 0x0200 = 0xFE00; as binary32 0xFFC00000
    from isa_ext.svp64.fpelw import from_double
    assert from_double(0xFFF8000000000000, 16, 0) == 0xFE00
    assert from_double(0xFFF8000000000000, 32, 0) == 0xFFC00000
    assert from_double(0x7FF8000000000000, 16, 0) == 0x7E00
