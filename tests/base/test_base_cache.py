"""Cache management as one thread sees it (Power ISA v3.1 Book II 4.3): dcbz
zeroes the 128-byte block holding EA; the touch, store and flush hints leave
registers and memory as they were; reserved operand values trap.  Words are
GNU as's (tests/data/gnu_scalar_pairs.tsv holds them with every alias); the
dcbz block size is confirmed against QEMU."""
import pytest

from conftest import qemu_probe_lines
from isa_ext.asm import assemble
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

BUF = 0x20000
PATTERN = bytes(1 + i % 200 for i in range(256))  # no zero byte


@pytest.fixture(scope="module")
def isa():
    return ISA(extensions=["base"])


def run(isa, text, **gprs):
    sim = Simulator(isa=isa)
    sim.load_words(assemble(text, isa=isa, base=0x1000).words, addr=0x1000)
    sim.state.mem.write_bytes(BUF, PATTERN)
    for n, v in gprs.items():
        sim.state.gpr[int(n[1:])] = v
    res = sim.run(max_steps=100)
    return res, sim.state.mem.read_bytes(BUF, 256)


def test_dcbz_zeroes_the_aligned_128_byte_block(isa):
    # EA = 0x20000 + 0x85 lies in the block 0x20080..0x200ff (128-aligned)
    res, mem = run(isa, "dcbz 3,4\n", r3=BUF, r4=0x85)
    assert res.stop == "end"
    assert mem[:128] == PATTERN[:128]
    assert mem[128:] == bytes(128)


def test_dcbz_with_ra_0_uses_rb_alone(isa):
    res, mem = run(isa, "dcbz 0,4\n", r4=BUF + 3)
    assert mem[:128] == bytes(128) and mem[128:] == PATTERN[128:]


@pytest.mark.parametrize("line", [
    "dcbt 3,4", "dcbt 3,4,16", "dcbtst 3,4,10", "dcbtt 3,4", "dcbtstct 3,4,4",
    "dcbst 3,4", "dcbf 3,4", "dcbfl 3,4", "dcbflp 3,4", "dcbfps 3,4", "dcbstps 3,4",
    "icbt 2,3,4", "wait", "waitrsv", "pause_short"])
def test_hints_and_flushes_change_nothing(isa, line):
    res, mem = run(isa, f"{line}\n", r3=BUF, r4=0x85)
    assert res.stop == "end" and res.trap is None
    assert mem == PATTERN
    assert res.gpr[3] == BUF and res.gpr[4] == 0x85


@pytest.mark.parametrize("word, why", [
    # dcbf 3,4,2: PO 31 | L=2 at bits 8:10 | RA 3 | RB 4 | XO 86
    ((31 << 26) | (2 << 21) | (3 << 16) | (4 << 11) | (86 << 1), "reserved L"),
    # wait 3: PO 31 | WC=3 at bits 9:10 | XO 30
    ((31 << 26) | (3 << 21) | (30 << 1), "reserved WC"),
])
def test_reserved_values_trap(isa, word, why):
    sim = Simulator(isa=isa)
    sim.load_words([word], addr=0x1000)
    res = sim.run(max_steps=10)
    assert res.stop == "trap", why
    assert res.trap.kind == "illegal"


PROBE = r"""
#include <stdio.h>
static unsigned char buf[512] __attribute__((aligned(256)));
int main(void) {
    for (int i = 0; i < 512; i++) buf[i] = 0xa5;
    __asm__ volatile("dcbz %0,%1" :: "b"(buf), "r"(0x85L) : "memory");
    int first = -1, last = -1;
    for (int i = 0; i < 512; i++)
        if (buf[i] == 0) { if (first < 0) first = i; last = i; }
    printf("%d %d\n", first, last);
    return 0;
}
"""


def test_qemu_dcbz_block_is_128_bytes(tmp_path):
    # the block QEMU zeroes for EA = buf + 0x85 is buf + 128 .. buf + 255
    assert qemu_probe_lines(tmp_path, PROBE) == ["128 255"]
