"""CTR tests in 32-bit mode (MSR[SF] = 0): the branch pages test CTR[32:63] only
(Power ISA Book I 2.4, "M = 32 in 32-bit mode")."""
import pytest

from isa_ext.encoding import encode
from isa_ext.sim import Simulator

LE_ONLY = 1            # MSR: SF (bit 0) clear = 32-bit mode, LE set
SF_LE = (1 << 63) | 1  # 64-bit mode


@pytest.mark.parametrize("mnemonic,target_reg", [("bclr", "lr"), ("bctar", "tar")])
@pytest.mark.parametrize("msr,taken", [(LE_ONLY, False), (SF_LE, True)])
def test_decrement_tests_only_low_word_in_32_bit_mode(isa, mnemonic, target_reg, msr, taken):
    # BO=16: decrement CTR, branch if CTR != 0.  CTR = 0x1_0000_0001 becomes
    # 0x1_0000_0000: zero in its low word (not taken in 32-bit mode), non-zero as
    # a whole (taken in 64-bit mode).  Taken -> jump to the end, r3 stays 0;
    # not taken -> the addi runs, r3 = 1.
    words = [encode(isa, mnemonic, BO=16, BI=0, BH=0), encode(isa, "addi", RT=3, RA=0, SI=1)]
    sim = Simulator(isa)
    sim.load_words(words)
    sim.state.msr = msr
    sim.state.ctr = 0x1_0000_0001
    setattr(sim.state, target_reg, sim.end)
    res = sim.run(max_steps=3)
    assert res.stop == "end"
    assert res.state.ctr == 0x1_0000_0000
    assert res.gpr[3] == (0 if taken else 1)
