"""A program's block starts kept across runs (isa_ext/translate/hot_starts.py):
a later run of the program translates the blocks an earlier one made hot at
their first visit, with the same results; a list whose pages now hold other
bytes, or that is damaged, is not used; nothing is kept where blocks are not
(an ISA without a disk cache) or where every block is translated at once."""
import os

import pytest

from isa_ext.asm import assemble
from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.translate import block_store, code_store, hot_starts, store

# The entry (0x1000) jumps through CTR to a loop on another page (0x3000):
# 50 passes of addi 3,3,7 (r3 = 350), then back through CTR to the end, 0x1010
ENTRY = "lis 9, 0\nori 9, 9, 0x3000\nmtctr 9\nbctr\n"
FAR = """
    li 3, 0
    li 4, 50
loop:
    addi 3, 3, 7
    addi 4, 4, -1
    cmpdi 4, 0
    bne loop
    li 9, 0x1010
    mtctr 9
    bctr
"""
LOOP = 0x3008
# steps to the loop's first visit through its bne: 4 at the entry, 6 on to it
TO_LOOP = 10


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder; saved-entry counts from 0."""
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    for module in (block_store, store, code_store, hot_starts):
        monkeypatch.setattr(module, "_saved", 0)
    return tmp_path


def _sim(isa=None, hot_after=16, translate=True):
    sim = Simulator(isa or ISA(extensions=["base"]), translate=translate)
    sim.hot_after = hot_after
    isa = sim.isa
    far = assemble(FAR, isa=isa, base=0x3000, little=True)
    sim.state.mem.load(0x3000, far.data)
    sim.load_asm(ENTRY)
    return sim


def _outcome(res):
    return res.stop, res.steps, list(res.gpr)


def _kept(root):
    return [f for _, _, files in os.walk(root / "hot") for f in files if f.endswith(".marshal")]


def test_a_later_run_translates_the_hot_blocks_at_their_first_visit(cache):
    first = _sim()
    done = _outcome(first.run())
    assert done[0] == "end" and done[2][3] == 350
    assert first._blocks.get(LOOP) and _kept(cache)
    # a run of the program with no list: the loop is not hot at its first visit
    fresh = _sim(ISA(extensions=["base"], use_cache=False))
    fresh.run(max_steps=TO_LOOP + 4)
    assert not fresh._blocks.get(LOOP)
    later = _sim()
    later.run(max_steps=TO_LOOP + 4)
    assert later._blocks.get(LOOP), "the loop's block, hot in the first run, not translated"
    # and the same outcome to the end as the first run and the per-instruction path
    assert _outcome(_sim().run()) == done == _outcome(_sim(translate=False).run())


def test_a_list_whose_pages_changed_is_not_used(cache):
    _sim().run()
    changed = _sim()
    changed.state.mem.write(0x3f00, 4, 0x60000000)   # a word the program never runs
    changed.run(max_steps=TO_LOOP + 4)
    assert not changed._blocks.get(LOOP)


def test_a_damaged_list_is_not_used(cache):
    _sim().run()
    assert len(_kept(cache)) == 1
    for root, _, files in os.walk(cache / "hot"):
        for f in files:
            with open(os.path.join(root, f), "wb") as out:
                out.write(b"\x00not marshal")
    sim = _sim()
    res = sim.run(max_steps=TO_LOOP + 4)
    assert res.steps == TO_LOOP + 4 and not sim._blocks.get(LOOP)


@pytest.mark.parametrize("how", ["no disk cache", "eager"])
def test_nothing_is_kept_where_translation_is_not_deferred_or_kept(cache, how):
    sim = _sim(ISA(extensions=["base"], use_cache=False)) if how == "no disk cache" \
        else _sim(hot_after=0)
    assert sim.run().gpr[3] == 350
    assert not _kept(cache)


def test_a_program_loaded_into_the_same_simulator_has_a_list_of_its_own(cache):
    sim = _sim()
    sim.run()
    assert len(_kept(cache)) == 1
    # another program (its entry page differs: one more word) in the same simulator
    sim.state.mem.load(0x3000, assemble(FAR, isa=sim.isa, base=0x3000, little=True).data)
    sim.load_asm("nop\n" + ENTRY, addr=0x1000)
    sim.state.mem.write(0x3000 + 4 * 8, 4, 0x39201014)   # li 9,0x1014: the new end
    assert sim.run().gpr[3] == 350
    assert len(_kept(cache)) == 2


def test_the_kept_starts_stay_hot_when_decoded_code_is_forgotten(cache):
    # a Linux process's mmap, munmap or mprotect forgets every decoded
    # instruction and block (Simulator.invalidate): the program's kept block
    # starts are still translated at their first visit after it
    _sim().run()
    later = _sim()
    later.run(max_steps=2)
    later.invalidate()
    later.run(max_steps=TO_LOOP + 4 - 2)
    assert later._blocks.get(LOOP), "the kept start lost with the decoded code"
