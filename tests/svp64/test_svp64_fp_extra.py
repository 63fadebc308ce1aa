"""The new scalar FP rows under SVP64 (openpower-isa's RM tables list frin &c.
as RM-2P-1S1D, fmrgew/fmrgow as RM-1P-2S1D): each element is the scalar
instruction on that element's registers.  Values by hand: frin rounds to
nearest with ties away from zero, friz truncates; fmrgew takes each source's
high word."""
import struct

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV


def d(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def run(isa, line, vl, fprs):
    mn, _, ops = line.partition(" ")
    sim = Simulator(isa=isa)
    sim.load_words(isa.sv_assemble(mn, ops.split(","), 0, lambda t: int(t, 0)))
    sim.state.svstate = SV.make(maxvl=vl, vl=vl)
    for i, v in fprs.items():
        sim.state.fpr[i] = v
    return sim.run()


def test_sv_frin_rounds_each_element(svisa):
    src = [1.5, -2.5, 0.4, 7.0]
    r = run(svisa, "sv.frin *40, *48", 4, {48 + i: d(v) for i, v in enumerate(src)})
    assert r.stop == "end"
    assert r.fpr[40:44] == [d(2.0), d(-3.0), d(0.0), d(7.0)]


def test_sv_friz_truncates_each_element(svisa):
    src = [1.5, -2.5, 0.4, -7.9]
    r = run(svisa, "sv.friz *40, *48", 4, {48 + i: d(v) for i, v in enumerate(src)})
    assert r.fpr[40:44] == [d(1.0), d(-2.0), d(0.0), d(-7.0)]


def test_sv_fmrgew_merges_each_element(svisa):
    r = run(svisa, "sv.fmrgew *40, *48, *56", 2,
            {48: 0x11111111_22222222, 49: 0x33333333_44444444,
             56: 0x55555555_66666666, 57: 0x77777777_88888888})
    assert r.fpr[40:42] == [0x11111111_55555555, 0x33333333_77777777]
