"""SVP64: signed element-width sources, predicate- and SUBVL-aware vertical-first
stepping (svstep), and sv.svstep.  Expected values are derived by hand in the
comments (svp64 overview "Signed arithmetic" / "Source and Destination
overrides", setvl.mdwn "Vertical First Mode", openpower-isa's test_caller_setvl
facts for sv.svstep)."""
import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV

M64 = (1 << 64) - 1


def sim_for(isa, text, vl, regs=(), vfirst=0, cr=()):
    sim = Simulator(isa=isa)
    sim.load_asm(text)
    sim.state.svstate = SV.make(maxvl=max(vl, 1), vl=vl, vfirst=vfirst)
    for i, v in dict(regs).items():
        sim.state.gpr[i] = v & M64
    for i, v in dict(cr).items():
        sim.state.cr[i] = v
    return sim


def run(isa, text, vl, regs=(), **kw):
    r = sim_for(isa, text, vl, regs, **kw).run(max_steps=1000)
    assert r.stop == "end", r.trap
    return r


# --- signed sources under ELWIDTH_SRC -------------------------------------------

def test_cmp_sign_extends_byte_sources(svisa):
    # bytes of r8: e0 = 0xFF (-1), e1 = 0x80 (-128), e2 = 0x05; r16: e0..e2 = 1, 1, 5.
    # cmp (signed): -1 < 1 -> lt 0b1000; -128 < 1 -> lt; 5 = 5 -> eq 0b0010.
    # CR fields *0: element k -> CR(0<<3 | 0<<2) + k = CR0, CR1, CR2.
    r = run(svisa, "sv.cmp/sw=8 *0, 1, *8, *16\n", 3, {8: 0x0580FF, 16: 0x050101})
    assert r.state.cr[0:3] == [0b1000, 0b1000, 0b0010]
    # cmpl (unsigned): 0xFF > 1 -> gt 0b0100, 0x80 > 1 -> gt, 5 = 5 -> eq
    r = run(svisa, "sv.cmpl/sw=8 *0, 1, *8, *16\n", 3, {8: 0x0580FF, 16: 0x050101})
    assert r.state.cr[0:3] == [0b0100, 0b0100, 0b0010]


def test_extsw_of_halfword_elements(svisa):
    # sw=16: r8 halfwords e0 = 0x8000 (-32768), e1 = 0x0001.  Sign-extended to 64
    # bits, (RS)[32:63] = 0xFFFF8000 -> EXTS -> 0xFFFFFFFFFFFF8000; e1 -> 1.
    r = run(svisa, "sv.extsw/sw=16 *1, *8\n", 2, {8: 0x0001_8000, 3: 77})
    assert r.gpr[1:4] == [0xFFFF_FFFF_FFFF_8000, 1, 77]


def test_extsb_byte_source_to_halfword_dest(svisa):
    # sw=8 dw=16: byte 0x90 (-112) -> EXTS -> ...FF90, truncated to 16 bits 0xFF90;
    # byte 0x10 -> 0x0010.  Destination halfwords pack into r1 bits 0:15, 16:31.
    r = run(svisa, "sv.extsb/sw=8/dw=16 *1, *8\n", 2, {8: 0x1090, 1: 0xAAAA_0000_0000})
    assert r.gpr[1] == 0xAAAA_0010_FF90


def test_mulhw_signed_vs_mulhwu(svisa):
    # bytes -3 (0xFD) and 5: signed product -15 = 0xFFFFFFFFFFFFFFF1 as 64 bits;
    # mulhw RT = 0x00000000 || prod[0:31] = 0x00000000FFFFFFFF (dw=64).
    r = run(svisa, "sv.mulhw/sw=8 *1, *8, *16\n", 1, {8: 0xFD, 16: 5})
    assert r.gpr[1] == 0xFFFF_FFFF
    # mulhwu zero-extends: 253 * 5 = 1265 < 2**32 -> high word 0
    r = run(svisa, "sv.mulhwu/sw=8 *1, *8, *16\n", 1, {8: 0xFD, 16: 5, 1: 9})
    assert r.gpr[1] == 0


def test_sraw_vs_srw_byte_sources(svisa):
    # byte 0xF0 (-16) >> 2: sraw sign-extends -> (RS)[32:63] = 0xFFFFFFF0, shifted
    # arithmetically = 0xFFFFFFFC, RA = EXTS = -4; no 1 bits shifted out -> CA 0.
    r = run(svisa, "sv.sraw/sw=8 *1, *8, *16\n", 1, {8: 0xF0, 16: 2})
    assert r.gpr[1] == M64 - 3 and r.state.ca == 0
    # byte 0xF1 (-15) >> 2 = -4 with a 1 bit shifted out of a negative value: CA 1
    r = run(svisa, "sv.sraw/sw=8 *1, *8, *16\n", 1, {8: 0xF1, 16: 2})
    assert r.gpr[1] == M64 - 3 and r.state.ca == 1
    # srw zero-extends: 0xF0 >> 2 = 0x3C
    r = run(svisa, "sv.srw/sw=8 *1, *8, *16\n", 1, {8: 0xF0, 16: 2})
    assert r.gpr[1] == 0x3C


def test_rc_cr0_follows_truncated_element(svisa):
    # w=8: 0x7F + 0x01 = 0x80 at 8 bits, negative -> CR0 lt (0b1000) although the
    # 64-bit sum 128 is positive; 0xFF + 0x01 = 0x00 -> eq (0b0010).
    # CR fields: RT *1 -> vector spec 0b101 also extends CR0 -> CR4, CR5.
    r = run(svisa, "sv.add./w=8 *1, *8, *16\n", 2, {8: 0xFF7F, 16: 0x0101})
    assert r.gpr[1] & 0xFFFF == 0x0080
    assert r.state.cr[4:6] == [0b1000, 0b0010]


def test_load_address_register_not_narrowed(svisa):
    # sw=8 must not narrow the address base: EA = r10 (0x8001_00) + 0, unit stride
    sim = sim_for(svisa, "sv.lbz/sw=8 *4, 0(10)\n", 2, {10: 0x8100})
    sim.state.mem.write(0x8100, 1, 0x11)
    sim.state.mem.write(0x8101, 1, 0x22)
    r = sim.run()
    assert r.stop == "end" and r.gpr[4:6] == [0x11, 0x22]


# --- vertical-first stepping ------------------------------------------------------

def _elements(events):
    return [(e["srcstep"], e["ssubstep"]) for e in events if e["type"] == "element"]


def _vf(isa, body, vl, regs, **kw):
    sim = sim_for(isa, "loop:\n" + body + " bc 4, 3, loop\n", vl, regs, vfirst=1, **kw)
    events = []
    sim.tracer = events.append
    r = sim.run(max_steps=1000)
    assert r.stop == "end", r.trap
    return r, events


REGS = {5: 1, 6: 2, 7: 3, 8: 4, 9: 10, 10: 20, 11: 30, 12: 40, 1: 91, 2: 92, 3: 93, 4: 94}


@pytest.mark.parametrize("step", ["svstep. 0, 0, 1, 0", "sv.svstep./m=r30 0, 0, 0, 0"])
def test_vf_predicated_loop_skips_masked_elements(svisa, step):
    # m=r30 = 0b0101, VL=4: pass 1 runs element 0, svstep -> 1; pass 2: sv.add moves
    # over masked element 1 to 2 and runs it; svstep -> 3 (or, predicated, straight
    # past 3 to the end); pass 3 (plain svstep): 3 is masked, no element left ->
    # steps at VL, svstep ends the loop.  Elements 0 and 2 only, as HF.
    regs = {**REGS, 30: 0b0101}
    hf = run(svisa, "sv.add/m=r30 *1, *5, *9\n", 4, regs)
    vf, events = _vf(svisa, " sv.add/m=r30 *1, *5, *9\n " + step + "\n", 4, regs)
    assert hf.gpr[1:5] == vf.gpr[1:5] == [11, 92, 33, 94]
    adds = [(e["srcstep"], e["dststep"]) for e in events
            if e["type"] == "element" and e["mnemonic"] == "sv.add"]
    assert adds == [(0, 0), (2, 2)]
    assert SV.get(vf.state.svstate, "vfirst") == 0 and SV.get(vf.state.svstate, "srcstep") == 0


def test_vf_subvl_stepping_with_sv_svstep(svisa):
    # vec2, VL=2: sv.svstep./vec2 advances ssubstep 0 -> 1, then the element:
    # (0,0) (0,1) (1,0) (1,1) -- 4 sub-element operations, the HF result.
    hf = run(svisa, "sv.add/vec2 *1, *5, *9\n", 2, REGS)
    vf, events = _vf(svisa, " sv.add/vec2 *1, *5, *9\n sv.svstep./vec2 0, 0, 0, 0\n", 2, REGS)
    adds = [(e["srcstep"], e["ssubstep"]) for e in events
            if e["type"] == "element" and e["mnemonic"] == "sv.add"]
    assert adds == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert vf.gpr[1:5] == hf.gpr[1:5] == [11, 22, 33, 44]


def test_vf_subvl_with_plain_svstep_steps_whole_elements(svisa):
    # plain svstep has SUBVL 1: ssubstep stays 0, so each pass runs sub-element 0
    # of the next group: r1 = r5 + r9, r3 = r7 + r11; r2, r4 untouched.
    vf, _ = _vf(svisa, " sv.add/vec2 *1, *5, *9\n svstep. 0, 0, 1, 0\n", 2, REGS)
    assert vf.gpr[1:5] == [11, 92, 33, 94]


def test_sv_svstep_hf_reads_steps(svisa):
    # openpower-isa test_caller_setvl: sv.svstep *0, 0, 5, 1 with VL=4 puts srcstep
    # of each element in r0..r3; SVi=6 (dststep) likewise.
    r = run(svisa, "sv.svstep *0, 0, 5, 1\nsv.svstep *4, 0, 6, 1\n", 4)
    assert r.gpr[0:8] == [0, 1, 2, 3, 0, 1, 2, 3]
    # predicated m=r30 = 0b10101, VL=5: only elements 0, 2, 4 are written
    r = run(svisa, "sv.svstep/m=r30 *0, 0, 5, 1\n", 5, {30: 0b10101, 1: 7, 3: 7})
    assert r.gpr[0:5] == [0, 7, 2, 7, 4]


def test_vf_no_enabled_element_runs_nothing(svisa):
    # mask 0 in VF: the instruction writes nothing and leaves the steps at VL;
    # the following svstep. ends the loop (CR0.SO = 1) after one pass.
    sim = sim_for(svisa, "sv.add/m=r30 *1, *5, *9\nsvstep. 0, 0, 1, 0\n", 3,
                  {**REGS, 30: 0}, vfirst=1)
    r = sim.run()
    assert r.gpr[1:4] == [91, 92, 93] and r.state.cr[0] & 1 == 1
    assert SV.get(r.state.svstate, "vfirst") == 0
