"""The per-word and per-address caches are bounded (issue 17, memory): past
their limit they are emptied and refilled, and results stay exact."""
from isa_ext.isa import ISA
from isa_ext.sim import Simulator


def addi(rt, ra, si):
    """addi RT,RA,SI: D-form, primary opcode 14 (Power ISA 3.1 Book I 3.3.9)."""
    return (14 << 26) | (rt << 21) | (ra << 16) | (si & 0xFFFF)


def test_decode_cache_stays_under_its_limit():
    isa = ISA(extensions=["base"])
    isa.DECODE_CACHE_LIMIT = 50
    for si in range(200):
        d = isa.decode(addi(3, 3, si))
        assert d.mnemonic == "addi" and d.fields["SI"] == si
        assert len(isa._decode_cache) <= 50
    assert isa.decode(addi(3, 3, 7)).fields["SI"] == 7  # refilled after emptying


def test_executable_and_code_caches_stay_under_their_limits():
    isa = ISA(extensions=["base"])
    isa.DECODE_CACHE_LIMIT = 8
    sim = Simulator(isa=isa)
    sim.CODE_CACHE_LIMIT = 8
    # 40 distinct straight-line addis: r3 = 1 + 2 + ... + 40 = 820
    sim.load_words([addi(3, 3, k) for k in range(1, 41)])
    res = sim.run()
    assert res.stop == "end" and res.gpr[3] == 820 and res.steps == 40
    assert len(sim._cache) <= 8 and len(isa._exec_cache) <= 8
    # a loop run twice over the bounded caches: the same answer both times
    sim.load_words([addi(3, 3, k) for k in range(1, 41)])
    sim.state.gpr[3] = 0
    assert sim.run().gpr[3] == 820
