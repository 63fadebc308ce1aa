"""Whole blocks and regions kept across runs (isa_ext/translate/block_store.py):
a kept block is the block translated afresh and runs alike (to the end, to a
trap mid-block); its key changes with every byte it could hold, the end
address and the byte order; what it cannot name (an SVP64 prefix, pages laid
over the spec's) is never kept; a damaged or stale entry is translated again."""
import marshal
import os

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from isa_ext.translate import block, block_store

# 100 passes of a loop of two blocks (the bc splits it): r3 = 7 * 100 = 700,
# r7 = the passes with bit 0 of r3 set = 50 (r3 = 7k is odd for odd k)
PROGRAM = """
    li 3, 0
    li 4, 100
    li 7, 0
    mtctr 4
loop:
    addi 3, 3, 7
    andi. 5, 3, 1
    beq even
    addi 7, 7, 1
even:
    rldicl 6, 3, 3, 50
    std 6, 0x100(1)
    bdnz loop
"""


def _sim(translate=True):
    sim = Simulator(ISA(extensions=["base"]), translate=translate)
    sim.hot_after = 0
    sim.region_after = 4
    return sim


def _run(program=PROGRAM, translate=True, steps=10_000):
    sim = _sim(translate)
    sim.load_asm(program)
    sim.state.gpr[1] = 0x8000
    res = sim.run(max_steps=steps)
    sources = sorted({b.source for b in sim._blocks.values() if b})
    return (res.stop, res.steps, list(res.gpr), sim.state.pc,
            sim.state.mem.read(0x8100, 8)), sources


def _entries(root):
    return [os.path.join(d, f) for d, _, files in os.walk(root / "translated") for f in files
            if f.endswith(".marshal")]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder, and counts of entries saved from 0 (a process
    saves at most SAVES_PER_PROCESS of each, which a long test process
    reaches before these tests run)."""
    from isa_ext.translate import code_store, store
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    for module in (block_store, store, code_store):
        monkeypatch.setattr(module, "_saved", 0)
    return tmp_path


def _no_translating(monkeypatch):
    """From here on a block or region made afresh fails the test."""
    def fail(*a, **k):
        raise AssertionError("translated again, not loaded")
    monkeypatch.setattr(block, "_gather", fail)
    monkeypatch.setattr(block, "_compile", fail)


def test_kept_blocks_and_regions_are_those_translated(cache, monkeypatch):
    cold, sources = _run()
    assert cold[2][3] == 700 and cold[2][7] == 50
    assert cold[0] == "end" and cold[:3] == _run(translate=False)[0][:3]
    assert any("_nia ==" in s and "elif" in s or "_nia <" in s for s in sources)  # a region
    kept = _entries(cache)
    assert len(kept) >= 3
    loads = []
    real = block_store.load_block
    monkeypatch.setattr(block_store, "load_block",
                        lambda *a, **k: loads.append(1) or real(*a, **k))
    _no_translating(monkeypatch)
    assert _run() == (cold, sources)
    assert loads and sorted(_entries(cache)) == sorted(kept)


def test_a_kept_block_stops_at_a_trap_where_the_instructions_do(cache, monkeypatch):
    # the third instruction traps (tw 31,0,0: unconditional, Power ISA book I
    # 3.3.11): the run stops there, two instructions done, r4 written and r5 not
    program = "li 3, 5\naddi 4, 3, 1\ntrap\naddi 5, 3, 2\n"
    interpreted = _run(program, translate=False)[0]
    assert interpreted[0] == "trap" and interpreted[1] == 2 and interpreted[3] == 0x1008
    assert interpreted[2][4] == 6 and interpreted[2][5] == 0
    cold = _run(program)[0]
    _no_translating(monkeypatch)
    assert _run(program)[0] == cold == interpreted


def _key(sim, start=0x1000, end=None):
    return block_store.block_key(sim, start, sim.end if end is None else end)


def test_the_key_names_every_byte_a_block_could_hold(cache):
    sim = _sim()
    sim.load_asm(PROGRAM)
    mem, a = sim.state.mem, _key(sim)
    assert a is not None and a == _key(sim)
    assert _key(sim, end=sim.end + 4) != a
    assert _key(sim, start=0x1004) != a
    last = 0x1000 + 8 * block.MAX_LENGTH - 1   # the last byte a block could hold, then past it
    mem.write(last, 1, mem.read(last, 1) ^ 1)
    assert _key(sim) != a
    mem.write(last, 1, mem.read(last, 1) ^ 1)
    assert _key(sim) == a
    mem.write(last + 1, 1, 0x5A)
    assert _key(sim) == a
    other = _sim()
    other.state.mem.little = False
    other.load_asm(PROGRAM)
    assert _key(other) != a


def test_what_the_bytes_do_not_name_is_not_kept(cache):
    # an SVP64 prefix (its translation follows SVSTATE) anywhere in the window
    sim = Simulator(ISA(), translate=True)
    sim.load_asm("addi 3, 3, 1\nsv.add 1, 2, 3\n")
    assert _key(sim) is None
    # an ISA whose pages the spec files do not alone make
    assert ISA(extensions=["base"], use_cache=False).translation_tag is None
    assert ISA(extensions=["base"]).translation_tag is not None


def test_a_damaged_or_stale_entry_is_translated_again(cache):
    cold = _run()
    paths = _entries(cache)
    blocks = []
    for i, path in enumerate(paths):
        with open(path, "rb") as f:
            entry = marshal.loads(f.read())
        if "insns" in entry and not blocks:
            # kept for other instructions than the words now decode to (a
            # stale entry): its code, wrong for these words, is not run
            pc, size, word, suffix, mnemonic, fields = entry["insns"][0]
            entry["insns"][0] = (pc, size, word, suffix, "not-" + mnemonic, fields)
            entry["code"] = compile("def run(s, _budget, _nia=0):\n"
                                    "    s.gpr[3] = 12345\n    return 0, 1\n", "<stale>", "exec")
            blocks.append(path)
            data = marshal.dumps(entry)
        else:
            data = [b"\x80not marshal", marshal.dumps([1, 2]), marshal.dumps({"code": 1})][i % 3]
        with open(path, "wb") as f:
            f.write(data)
    assert blocks
    assert _run() == cold


@pytest.mark.parametrize("batch", range(2))
def test_random_programs_run_the_same_from_kept_blocks(batch, cache, monkeypatch):
    # the random programs and loops of test_translate (traps, stores into the
    # program, chained regions, step limits) run per instruction, translated
    # afresh into an empty store, and again from what that run kept: one outcome
    from test_translate import fresh, loop_program, outcome, random_program
    import random
    rng = random.Random(4400 + batch)
    loaded = []
    real = block_store.load_block
    def load(*a, **k):
        got = real(*a, **k)
        loaded.append(got is not None)
        return got
    monkeypatch.setattr(block_store, "load_block", load)
    for i in range(40):
        text = (loop_program if i % 2 else random_program)(rng)
        seed, steps = rng.getrandbits(32), rng.choice([1, 3, 10, 57, 400, 3000])
        outs = []
        for way in (False, True, True):
            sim = fresh(seed, text, translate=way)
            sim.isa = ISA()   # (no block kept in memory by the ISA between the runs)
            outs.append(outcome(sim, sim.run(max_steps=steps)))
        assert outs[1] == outs[0] and outs[2] == outs[0], (seed, steps, text)
    assert sum(loaded) > 20   # the warm runs' blocks, from the store


def test_the_key_names_the_last_byte_of_the_longest_block(cache):
    # the longest block: MAX_LENGTH prefixed (8-byte) instructions; a change
    # to its very last byte is another key
    sim = _sim()
    sim.load_asm("paddi 3, 3, 1, 0\n" * (block.MAX_LENGTH + 8))
    sim.run(max_steps=block.MAX_LENGTH)
    b = sim._blocks[0x1000]
    assert b.length == block.MAX_LENGTH and b.end == 0x1000 + 8 * block.MAX_LENGTH
    mem, a = sim.state.mem, _key(sim)
    mem.write(b.end - 1, 1, mem.read(b.end - 1, 1) ^ 0x80)
    assert _key(sim) != a
