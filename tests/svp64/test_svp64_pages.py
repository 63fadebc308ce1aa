"""The SVP64 management pages (pseudocode/svp64/simplev.mdwn): every branch of
setvl and svstep, expectations worked out by hand from the page text."""
import pytest

from isa_ext.sim import Simulator
from isa_ext.svp64 import svstate as SV


def run(isa, text, sv=0, regs=()):
    sim = Simulator(isa=isa)
    sim.load_asm(text)
    sim.state.svstate = sv
    for i, v in dict(regs).items():
        sim.state.gpr[i] = v
    r = sim.run()
    assert r.stop == "end", r.trap
    return r


def test_setvl_ms0_keeps_maxvl_and_clamps_large_ra(svisa):
    # setvl 0,5,8,0,1,0: ms=0 -> newmvl = SVSTATE.maxvl = 10; vs=1, RA=5 != 0,
    # (RA)=200 >u 127 -> newvl = 127 -> > newmvl -> 10.  ms=0: SVSTATE keeps bits
    # 14:63 (srcstep 3 stays).  RT=0: no register write.
    sv = SV.make(maxvl=10, vl=2, srcstep=3)
    r = run(svisa, "setvl 0,5,8,0,1,0", sv, {5: 200})
    st = r.state.svstate
    assert SV.get(st, "maxvl") == 10 and SV.get(st, "vl") == 10
    assert SV.get(st, "srcstep") == 3 and r.gpr[0] == 0


def test_setvl_vl_from_ra(svisa):
    # (RA) = 6 <= 127: newvl = (RA)[57:63] = 6 (<= newmvl 10)
    r = run(svisa, "setvl 0,5,8,0,1,0", SV.make(maxvl=10, vl=2), {5: 6})
    assert SV.get(r.state.svstate, "vl") == 6


@pytest.mark.parametrize("ra, vl", [(64, 64), (100, 100), (127, 127), (128, 127),
                                   (2**64 - 1, 127)])
def test_setvl_vl_from_ra_uses_seven_bits_up_to_mvl_127(svisa, ra, vl):
    # setvl 3,5,127,0,1,1: the assembler operand is MVL (1..128) and the VLi field holds
    # MVL-1 = 126, so ms=1 -> newmvl = lim = VLi+1 = 127, the largest 7-bit value.
    # vs=1, RA=5 != 0: (RA) >u 127 -> 127, else (RA)[57:63], the low SEVEN bits:
    # 64 -> 64 (six bits would give 0), 100 -> 100 (six: 36), 127 -> 127 (six: 63);
    # none exceeds newmvl 127.  RT=3 <- VL.
    r = run(svisa, "setvl 3,5,127,0,1,1", SV.make(maxvl=4, vl=2), {5: ra})
    assert SV.get(r.state.svstate, "vl") == vl and r.gpr[3] == vl
    assert SV.get(r.state.svstate, "maxvl") == 127


@pytest.mark.parametrize("ctr, vl", [(64, 64), (100, 100), (300, 127)])
def test_setvl_vl_from_ctr_uses_seven_bits(svisa, ctr, vl):
    # setvl 3,0,127,0,1,1: vs=1, RA=0, RT=3 != 0 -> CTR path: CTR >u 127 -> 127, else
    # CTR[57:63] (seven bits: 64 stays 64, 100 stays 100).  newmvl = 127 as above.
    sim = Simulator(isa=svisa)
    sim.load_asm("setvl 3,0,127,0,1,1")
    sim.state.svstate = SV.make(maxvl=4, vl=2)
    sim.state.ctr = ctr
    r = sim.run()
    assert r.stop == "end", r.trap
    assert SV.get(r.state.svstate, "vl") == vl and r.gpr[3] == vl


@pytest.mark.parametrize("ctr,cr0", [
    # setvl. 3,0,127,0,1,1: the CTR path with MAXVL 127, so only CTR itself can
    # overflow: CTR = 200 >u 127 -> VL 127 and overflow (CR0 = 0b010 || 1: GT SO);
    # CTR = 100 fits (GT only)
    (200, 0b0101), (100, 0b0100),
])
def test_setvl_dot_ctr_above_127_sets_so(svisa, ctr, cr0):
    sim = Simulator(isa=svisa)
    sim.load_asm("setvl. 3,0,127,0,1,1")
    sim.state.svstate = SV.make(maxvl=4, vl=2)
    sim.state.ctr = ctr
    r = sim.run()
    assert r.stop == "end", r.trap
    assert r.state.cr[0] == cr0


@pytest.mark.parametrize("vl", [64, 100])
def test_setvl_vs0_keeps_a_seven_bit_vl(svisa, vl):
    # setvl 3,0,127,0,0,1: ms=1 -> newmvl = 127; vs=0 -> newvl = SVSTATE[7:13], all
    # seven bits of VL (64 = 0b1000000 would read 0 from six); RT=3 <- VL
    r = run(svisa, "setvl 3,0,127,0,0,1", SV.make(maxvl=8, vl=vl))
    assert SV.get(r.state.svstate, "vl") == vl and r.gpr[3] == vl


def test_setvl_vs0_keeps_vl_clipped_to_new_maxvl(svisa):
    # setvl 3,0,4,0,0,1: ms=1 -> newmvl = VLi+1 = 4; vs=0 -> newvl = SVSTATE.vl = 7,
    # > 4 -> 4; RT=3 <- 4
    r = run(svisa, "setvl 3,0,4,0,0,1", SV.make(maxvl=8, vl=7))
    assert SV.get(r.state.svstate, "vl") == 4 and r.gpr[3] == 4


def test_setvl_dot_zero_vl_sets_eq(svisa):
    # setvl. 0,5,8,0,1,0 with (RA)=0: newvl = 0; Rc=1 and VL=0 -> CR0 = 0b0010
    r = run(svisa, "setvl. 0,5,8,0,1,0", SV.make(maxvl=10, vl=2), {5: 0})
    assert SV.get(r.state.svstate, "vl") == 0 and r.state.cr[0] == 0b0010


@pytest.mark.parametrize("svi,pack,unpack", [(14, 1, 0), (13, 0, 1), (15, 1, 1), (12, 0, 0)])
def test_svstep_sets_pack_unpack(svisa, svi, pack, unpack):
    # SVi is 7 bits (MSB0 0:6): SVi[3:4] = 0b11 is SVi = 0b0011pu = 12 + 2p + u.
    # Scalar svstep is written as the field plus one (libre-soc's SVP64Asm, as setvl:
    # openpower-isa's test_caller_svp64_pack "svstep 0, 0, 15, 0  # set dst-pack").
    # SVSTATE[53] <- p (pack),
    # SVSTATE[54] <- u (unpack); RT <- [0]*62 || SVSTATE[53:54] = 2p + u.
    # Start with the opposite bits set to see them change.
    sv = SV.make(maxvl=4, vl=4, pack=1 - pack, unpack=1 - unpack)
    r = run(svisa, f"svstep 5,0,{svi + 1},0", sv)
    assert SV.get(r.state.svstate, "pack") == pack
    assert SV.get(r.state.svstate, "unpack") == unpack
    assert r.gpr[5] == 2 * pack + unpack
