"""The Program Priority Register (SPR 896) and the or Rx,Rx,Rx priority hints.

PRI is bits 11:13 of the 64-bit PPR (MSB 0), the other bits reserved.  The
hints `or 1,1,1` (low, 010), `or 6,6,6` (medium low, 011) and `or 2,2,2`
(medium, 100) are the ones a problem-state program may use; `or 31,31,31`
(very low), `or 5,5,5`, `or 3,3,3` (privileged) and `or 7,7,7` (hypervisor)
leave PRI alone there, as does `or.` (a record form is no hint).  QEMU 7.2's
linux-user is the oracle for the hints; for mtspr it stores all 64 bits and
any priority, where the architecture keeps PRI unless the value is one a
problem-state program may set (IBM's A2 manual 2.3.4.1, "access violations or
writing a value of zero will result in a nop"; docs/gnu_scalar.md): that is
checked by hand.
"""
import pytest

from conftest import qemu_probe_lines
from isa_ext.isa import ISA
from isa_ext.machine import INIT_PPR
from isa_ext.sim import Simulator

HINTS = (1, 6, 2, 31, 5, 3, 7, 0, 4, 27, 29, 30)
MEDIUM = 0b100 << 50


def xfx(xo, reg, spr):
    swapped = ((spr & 0x1F) << 5) | (spr >> 5)
    return (31 << 26) | (reg << 21) | (swapped << 11) | (xo << 1)


def or_word(n, rc=0):
    return (31 << 26) | (n << 21) | (n << 16) | (n << 11) | (444 << 1) | rc


MFPPR3 = xfx(339, 3, 896)


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def _ppr_after(isa, words, translate, ppr=MEDIUM):
    sim = Simulator(isa=isa, translate=translate)
    sim.hot_after = 0
    sim.load_words(words + [MFPPR3])
    sim.state.ppr = ppr
    res = sim.run(max_steps=100)
    assert res.stop == "end", res
    assert res.gpr[3] == sim.state.ppr
    return sim.state.ppr


@pytest.fixture(scope="module")
def qemu(tmp_path_factory):
    # each hint after "or 2,2,2" (medium), then mfppr; the record form too
    body = []
    for n in HINTS:
        for rc, dot in ((0, ""), (1, ".")):
            # (or N,N,N leaves rN as it was: only CR0 is clobbered, by or.)
            body.append(f'__asm__ volatile("or 2,2,2\\n\\tor{dot} {n},{n},{n}\\n\\tmfspr %0,896"'
                        f' : "=r"(v) : : "cr0"); printf("{n}{dot} %lx\\n", v);')
    source = ("#include <stdio.h>\nint main(void) { unsigned long v;\n"
              + "\n".join(body) + "\nreturn 0; }\n")
    lines = qemu_probe_lines(tmp_path_factory.mktemp("ppr"), source, cpu="power10")
    return dict(line.split() for line in lines)


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
@pytest.mark.parametrize("n", HINTS)
def test_priority_hints_as_qemu(isa, qemu, n, translate):
    for rc, dot in ((0, ""), (1, ".")):
        got = _ppr_after(isa, [or_word(2), or_word(n, rc)], translate, ppr=0)
        assert got == int(qemu[f"{n}{dot}"], 16), (n, dot)


def test_hints_by_hand(isa):
    # PRI 010, 011, 100 in bits 11:13 = bits 52:50 counted from the right
    assert _ppr_after(isa, [or_word(1)], False) == 0x0008000000000000
    assert _ppr_after(isa, [or_word(6)], False) == 0x000C000000000000
    assert _ppr_after(isa, [or_word(1), or_word(2)], False) == 0x0010000000000000
    assert _ppr_after(isa, [or_word(31)], False) == MEDIUM


@pytest.mark.parametrize("value, want", [
    (0x0008000000000000, 0x0008000000000000),   # low: allowed
    (0x000C000000000000, 0x000C000000000000),   # medium low
    (0x0010000000000001, 0x0010000000000000),   # medium, a reserved bit dropped
    (0x0004000000000000, MEDIUM),               # very low: privileged, PRI kept
    (0x0014000000000000, MEDIUM),               # medium high: privileged
    (0x001C000000000000, MEDIUM),               # very high: hypervisor
    (0, MEDIUM),                                # 000: a nop
    ((1 << 64) - 1, MEDIUM)])                   # PRI 111
def test_mtppr_keeps_what_problem_state_may_set(isa, value, want):
    sim = Simulator(isa=isa)
    sim.load_words([xfx(467, 5, 896), MFPPR3])
    sim.state.ppr = MEDIUM
    sim.state.gpr[5] = value
    res = sim.run(max_steps=100)
    assert res.stop == "end" and res.gpr[3] == want


def test_a_thread_starts_at_medium_low_as_linux_starts_one():
    # Linux's INIT_PPR (arch/powerpc/include/asm/processor.h: 3 << 50);
    # QEMU 7.2's linux-user starts at 0 (PRI 000, no priority): a departure
    assert INIT_PPR == 0x000C000000000000
    sim = Simulator(ISA(extensions=["base"]))
    sim.load_words([MFPPR3])
    assert sim.run(max_steps=100).gpr[3] == INIT_PPR
