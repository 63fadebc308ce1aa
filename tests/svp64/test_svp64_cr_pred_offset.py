"""openpower-isa test_caller_svp64_predication.py's two CR-predicate tests
(test_sv_add_cr_pred, test_crpred_reentrant) fail through the compat facade
because of where CR predicate masks are read, not because of an isa_ext bug:
ISACaller tests CR fields CR4+i (SVP64CROffs.CRPred = 4, "TODO"), the spec
text and isa_ext CR32+i (docs/compat.md, docs/svp64.md).  The same programs
with their predicate fields moved from CR4.. to CR32.. give exactly the
file's expected registers here; left at CR4.. they give what the facade
reports (r1 = 0x5555, r8 = 0)."""
import pytest

from conftest import sv_words

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

EQ, LT = 0b0010, 0b1000


def run(svisa, line, vl, regs, cr, srcstep=0, dststep=0):
    sim = Simulator(isa=svisa)
    sim.load_words(sv_words(svisa, line))
    sim.state.svstate = SV.make(maxvl=vl, vl=vl, srcstep=srcstep, dststep=dststep)
    for r, v in regs.items():
        sim.state.gpr[r] = v
    for f, v in cr.items():
        sim.state.cr[f] = v
    res = sim.run(max_steps=5)
    assert res.stop == "end", res.trap
    return res


ADD_REGS = {1: 0xbeef, 9: 0x1234, 10: 0x1111, 5: 0x4321, 6: 0x2223}
EXTSB_REGS = {9: 0x90, 10: 0x91, 11: 0x92, 12: 0x93}


@pytest.mark.parametrize("base,r1,r2", [
    # test_sv_add_cr_pred: sv.add/m=ne *1, *5, *9, VL=2, "CR4.eq=1 and CR5.eq=0":
    # element 0 masked out (eq set), element 1 adds 0x2223+0x1111 = 0x3334
    (32, 0xbeef, 0x3334),
    # the file's CR4 setting read from CR32 (both 0): both elements run,
    # 0x4321+0x1234 = 0x5555 -- the facade's "reg 1 ... 5555"
    (4, 0x5555, 0x3334),
])
def test_sv_add_cr_pred(svisa, base, r1, r2):
    res = run(svisa, "sv.add/m=ne *1, *5, *9", 2, ADD_REGS, {base: EQ})
    assert res.gpr[1:3] == [r1, r2]


@pytest.mark.parametrize("base,r5_8", [
    # test_crpred_reentrant: sv.extsb/sm=eq/dm=lt *5, *9, VL=4, srcstep=1,
    # dststep=2; sources enabled at elements 0, 2 (eq), destinations at 1, 3
    # (lt): the source moves to 2 (0x92), the destination to 3 (r8):
    # r8 = extsb(0x92) = 0xffffffffffffff92, nothing else written
    (32, [0, 0, 0, 0xffffffffffffff92]),
    # the file's CR4..CR7 read from CR32..: no source enabled, nothing written
    # -- the facade's "reg 8 ... 0"
    (4, [0, 0, 0, 0]),
])
def test_crpred_reentrant(svisa, base, r5_8):
    cr = {base: EQ, base + 2: EQ, base + 1: LT, base + 3: LT}
    res = run(svisa, "sv.extsb/sm=eq/dm=lt *5, *9", 4, EXTSB_REGS, cr, srcstep=1, dststep=2)
    assert res.gpr[5:9] == r5_8
    assert res.gpr[9:13] == [0x90, 0x91, 0x92, 0x93]


def test_isacaller_reads_cr4(svisa, isacaller):
    # ISACaller, with the predicate fields at CR4.. as the file sets them,
    # gives the file's expected values (r1 untouched, r8 = ...ff92)
    from isa_ext.asm import assemble
    from isa_ext.compat.isacaller import Case, NGPR, NFPR, run_isacaller
    cr4 = lambda fields: sum(v << (4 * (7 - f)) for f, v in fields.items())
    cases = []
    for k, (line, vl, regs, fields, steps) in enumerate([
            ("sv.add/m=ne *1, *5, *9", 2, ADD_REGS, {4: EQ}, (0, 0)),
            ("sv.extsb/sm=eq/dm=lt *5, *9", 4, EXTSB_REGS,
             {4: EQ, 6: EQ, 5: LT, 7: LT}, (1, 2))]):
        gpr = [regs.get(i, 0) for i in range(NGPR)]
        words = assemble(line + "\n", isa=svisa).words
        sv = SV.make(maxvl=vl, vl=vl, srcstep=steps[0], dststep=steps[1])
        cases.append(Case(k, [line], words, gpr, [0] * NFPR, cr4(fields), sv))
    add, extsb = run_isacaller(isacaller.root, cases)
    assert add["gpr"][1:3] == [0xbeef, 0x3334]
    assert extsb["gpr"][5:9] == [0, 0, 0, 0xffffffffffffff92]
