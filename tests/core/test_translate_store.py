"""Specialised bodies kept across runs (isa_ext/translate/store.py): a block
built from stored bodies is the block built from scratch, and runs alike; a
damaged entry is specialised again."""
import os

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator

@pytest.fixture(autouse=True)
def fresh_save_count(monkeypatch):
    """Each test its own count of entries saved: a process saves at most
    store.SAVES_PER_PROCESS, which a long test process reaches before these
    tests run (then nothing is saved and an empty store is what they see)."""
    from isa_ext.translate import store
    monkeypatch.setattr(store, "_saved", 0)


PROGRAM = """
    li 3, 0
    li 4, 100
    mtctr 4
loop:
    addi 3, 3, 7
    rldicl 5, 3, 3, 50
    xor 6, 5, 3
    std 6, 0x100(1)
    bdnz loop
"""


def _run(tmp_path):
    sim = Simulator(ISA(extensions=["base"]), translate=True)
    sim.hot_after = 0
    sim.load_asm(PROGRAM)
    sim.state.gpr[1] = 0x8000
    res = sim.run(max_steps=10_000)
    sources = sorted(b.source for b in sim._blocks.values() if b)
    return (res.stop, res.steps, list(res.gpr), sim.state.mem.read(0x8100, 8)), sources


def _entries(root):
    return [os.path.join(d, f) for d, _, files in os.walk(root / "specialised") for f in files]


def test_stored_bodies_build_the_same_blocks(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    cold = _run(tmp_path)
    stored = _entries(tmp_path)
    assert len(stored) >= 6          # one per distinct word specialised
    warm = _run(tmp_path)
    assert warm == cold and cold[1]
    assert sorted(_entries(tmp_path)) == sorted(stored)   # nothing specialised again


def test_a_damaged_entry_is_specialised_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    cold = _run(tmp_path)
    for path in _entries(tmp_path):
        with open(path, "wb") as f:
            f.write(b"\x80\x05not a pickle")
    assert _run(tmp_path) == cold


def test_the_key_names_what_the_body_depends_on(tmp_path, monkeypatch):
    from isa_ext.translate import store

    class Page:   # a compiled page's parts the key reads
        source, library = "def sem(s, f_RT, f_SI): ...", None
    a = store.key(Page, {"RT": 3, "SI": 1}, {})
    assert a == store.key(Page, {"SI": 1, "RT": 3}, {})
    assert a != store.key(Page, {"RT": 3, "SI": 2}, {})
    assert a != store.key(Page, {"RT": 3, "SI": 1}, {"_crf": 1})
    Page.source += " "
    assert a != store.key(Page, {"RT": 3, "SI": 1}, {})


def test_the_key_covers_the_code_that_writes_a_body(monkeypatch):
    # a body holds the specialiser's folds, the block writer's lines, the
    # machine's plain SPRs and the library helpers' inline forms: a change to
    # any of those modules is another key
    from isa_ext import disk_cache
    from isa_ext.translate import store
    seen = []
    monkeypatch.setattr(disk_cache, "code_digest",
                        lambda modules, extra="": seen.extend(m.__name__ for m in modules) or "d")
    monkeypatch.setattr(store, "_code_digest", None)
    store._own_digest()
    assert {"isa_ext.translate.specialise", "isa_ext.translate.block", "isa_ext.machine",
            "isa_ext.pseudocode.library", "isa_ext.translate.store"} <= set(seen)


# the specialiser's switches, each making the bodies another text: PyPy's
# form of the word arithmetic; page views (CPython, little-endian host) or
# struct calls for inline accesses
@pytest.mark.parametrize("switch", ["PYPY_ARITH", "VIEWS"])
def test_the_key_follows_the_specialisers_switches(monkeypatch, switch):
    import isa_ext.translate.specialise as sp
    from isa_ext.translate import store

    class Page:
        source, library = "def sem(s, f_RT): ...", None
    a = store.key(Page, {"RT": 3}, {})
    monkeypatch.setattr(sp, switch, not getattr(sp, switch))
    assert store.key(Page, {"RT": 3}, {}) != a


def test_an_entry_holds_what_the_block_writer_reads_of_its_lines(tmp_path, monkeypatch):
    # block.locals_info parses a body's lines again (on a cold PyPy, two thirds
    # of a block's translation): an entry keeps its answer, which is the one a
    # fresh reading of the stored lines gives
    import copy

    from isa_ext.translate import block, block_store, store
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    # (whole blocks kept too would skip the bodies' store: not this test's)
    monkeypatch.setattr(block_store, "block_key", lambda sim, start, end: None)
    cold = _run(tmp_path)
    loaded = []
    real_load = store.load

    def load(k):
        got = real_load(k)
        # (as loaded: the block writer reads the object afterwards)
        loaded.append((got, got is not None and "_locals_info" in vars(got)))
        return got
    monkeypatch.setattr(store, "load", load)
    assert _run(tmp_path) == cold
    assert len(loaded) >= 6
    for sp, held in loaded:
        assert held
        fresh = copy.copy(sp)
        del fresh._locals_info
        assert block.locals_info(fresh) == sp._locals_info


def test_an_entry_of_another_shape_is_specialised_again(tmp_path, monkeypatch):
    # readable, but not a body's attributes (an older layout, another writer)
    import marshal
    monkeypatch.setenv("ISA_EXT_CACHE", str(tmp_path))
    cold = _run(tmp_path)
    for i, path in enumerate(_entries(tmp_path)):
        with open(path, "wb") as f:
            marshal.dump([{"lines": ["_g3 = 0"]}, {"lines": []}, (1, 2)][i % 3], f)
    assert _run(tmp_path) == cold
