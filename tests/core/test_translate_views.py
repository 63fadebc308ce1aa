"""Translated blocks' inline accesses through page views (Memory.fill_views,
specialise._InlineLoads on CPython): a view is a shortcut, never a way round
what a store must do -- clear a reservation, reach decoded code, fault on a
read-only page -- nor a way to see a page that is gone.  Expected values are
hand-derived from the programs (Power ISA Book I 3.3.2-3.3.3 loads and
stores, Book II 1.7.3 reservations) and from the interpreter path."""
import pytest

from isa_ext.asm import assemble
from isa_ext.isa import ISA
from isa_ext.machine import Memory
from isa_ext.sim import Simulator
from isa_ext.translate import specialise

BUF = 0x20000


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def word(isa, line):
    return int.from_bytes(assemble(line, isa=isa).data[:4], "little")


# A warm loop of stores gives BUF's page its views before the lwarx; the
# store after the lwarx must still clear the reservation (isa_ext's model:
# any store does, Book II 1.7.3.1), so the stwcx. fails: CR0 = 0b0000 and
# BUF keeps 0x11111111.
RESERVE_THEN_STORE = """
    li 7, 40
    mtctr 7
warm:
    stw 5, 64(3)
    lwz 6, 68(3)
    bdnz warm
    lwarx 6, 0, 3
    stw 5, 64(3)
    stwcx. 4, 0, 3
    mfcr 8
"""


@pytest.mark.parametrize("translate", [True, False])
def test_a_store_through_a_warm_page_still_clears_the_reservation(isa, translate):
    sim = Simulator(isa, translate=translate)
    sim.hot_after, sim.region_after = 0, 1
    sim.load_asm(RESERVE_THEN_STORE)
    s = sim.state
    s.gpr[3], s.gpr[4], s.gpr[5] = BUF, 0x22222222, 0x33
    s.mem.write(BUF, 4, 0x11111111)
    res = sim.run(max_steps=10_000)
    assert res.stop == "end"
    assert s.gpr[8] >> 28 == 0            # CR0: store not performed, SO clear
    assert s.mem.read(BUF, 4) == 0x11111111
    assert s.mem.read(BUF + 64, 4) == 0x33
    if translate and specialise.VIEWS:   # the warm stores went through the page's view
        assert BUF >> 12 in s.mem.write4


# Each pass stores a new `addi 3,3,N` over `target` and then runs it:
# N = 100, 101, 102 (r8 starts at the word of addi 3,3,100 and is bumped),
# so r3 = 303 (isa_ext runs self-modifying code exactly, docs/architecture.md).
PATCH_AHEAD = """
    li 3, 0
    li 9, 3
    mtctr 9
loop:
    stw 8, 0(10)
target:
    addi 3, 3, 1
    addi 8, 8, 1
    bdnz loop
"""


@pytest.mark.parametrize("translate", [True, False])
def test_stores_into_decoded_code_reach_the_next_fetch_each_time(isa, translate):
    sim = Simulator(isa, translate=translate)
    sim.hot_after, sim.region_after = 0, 1
    target = sim.load_asm(PATCH_AHEAD).symbols["target"]
    s = sim.state
    assert s.mem.read(target, 4) == word(isa, "addi 3, 3, 1")
    s.gpr[8] = word(isa, "addi 3, 3, 100")
    s.gpr[10] = target
    res = sim.run(max_steps=1_000)
    assert res.stop == "end"
    assert s.gpr[3] == 100 + 101 + 102


@pytest.mark.parametrize("change", [
    "replace", "delete", "pop", "popitem", "clear", "update", "setdefault", "assign"])
def test_a_page_replaced_or_removed_loses_its_views(change):
    mem = Memory()
    mem.write(BUF, 8, 0x0102030405060708)
    key = BUF >> 12
    mem.fill_views(key)
    assert mem.read8[key][0] == 0x0102030405060708 and mem.write4[key][1] == 0x01020304
    pages = mem.pages
    if change == "replace":   # mprotect(PROT_READ): the page becomes bytes
        pages[key] = bytes(pages[key])
    elif change == "delete":
        del pages[key]
    elif change == "pop":
        pages.pop(key)
    elif change == "popitem":
        pages.popitem()
    elif change == "clear":
        pages.clear()
    elif change == "update":
        pages.update({key: bytearray(4096)})
    elif change == "setdefault":
        pages.setdefault(key, bytearray(4096))
    else:
        mem.pages = {key: bytearray(4096)}
    assert all(key not in v for v in mem.views), change


def test_a_read_only_page_has_read_views_only_and_a_store_faults():
    mem = Memory()
    key = BUF >> 12
    mem.pages[key] = bytes(range(256)) * 16
    mem.fill_views(key)
    assert mem.read4[key][1] == 0x07060504         # bytes 4..7, little-endian
    assert all(key not in v for v in (mem.write1, mem.write2, mem.write4, mem.write8))
    with pytest.raises(Exception) as e:
        mem.block_write(BUF, 4, 0)
    assert "read-only" in str(e.value)


def test_pages_under_a_reservation_or_holding_code_get_no_write_views():
    mem = Memory()
    mem.write(BUF, 4, 1)
    mem.write(BUF + 4096, 4, 1)
    key = BUF >> 12
    mem.fill_views(key)
    assert key in mem.write4
    mem.reserve = 1                       # lwarx: every store must clear it
    assert key not in mem.write4
    mem.fill_views(key)
    assert key not in mem.write4 and key in mem.read4
    mem.block_write(BUF, 4, 2)            # the store clears the reservation ...
    assert mem.reserve == 0 and key in mem.write4    # ... and the view comes back
    mem.watch_code(BUF + 4096, BUF + 4100)
    mem.fill_views(key + 1)
    assert key + 1 in mem.read4 and key + 1 not in mem.write4
    mem.watch_code(BUF, BUF + 4)          # code decoded later drops the write view
    assert key not in mem.write4


def test_a_big_endian_memory_gets_no_views_and_blocks_stay_exact(isa):
    src = "li 7, 40\nmtctr 7\nloop:\nldx 5, 3, 4\nstwx 5, 3, 6\naddi 4, 4, 8\nbdnz loop\n"
    got = []
    for translate in (True, False):
        sim = Simulator(isa, translate=translate)
        sim.hot_after, sim.region_after = 0, 1
        s = sim.state
        s.mem.little = False
        sim.load_asm(src)
        s.gpr[3], s.gpr[4], s.gpr[6] = BUF, 0, 0x800
        for i in range(64):
            s.mem.write(BUF + 8 * i, 8, 0x1122334455667700 + i)
        res = sim.run(max_steps=10_000)
        assert res.stop == "end"
        assert not s.mem.read4
        got.append((s.gpr[5], s.mem.read(BUF + 0x800, 4)))
    # the last doubleword read is the 40th (i = 39), its low word stored
    assert got[0] == got[1] == (0x1122334455667727, 0x55667727)
