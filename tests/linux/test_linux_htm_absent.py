"""Transactional memory is not there, as on a Power ISA v3.1 machine: the
book v3.1 dropped the TM facility (its tbegin./tend./tabort./tcheck/tsr./
treclaim./trechkpt. words are no instructions), and Linux tells programs so
through AT_HWCAP2 (no PPC_FEATURE2_HTM, HTM_NOSC or HTM_NO_SUSPEND bit: glibc's
lock elision and GCC's __builtin_tbegin users check it before using TM).  A
program that runs tbegin. anyway ends with an illegal-instruction trap, where
Linux delivers SIGILL for a TM instruction with the facility unavailable.

QEMU 7.2's linux-user departs (docs/gnu_scalar.md): it advertises no HTM bit
either, but its degenerate tbegin. "always fails" - CR0 = 0b1011, execution
continues - so a program that ignores HWCAP2 runs on there.
"""
import subprocess

import pytest

from conftest import need_tool
from isa_ext.sim import Simulator

HTM_BITS = 0x40000000 | 0x01000000 | 0x00080000   # HTM, HTM_NOSC, HTM_NO_SUSPEND
AT_HWCAP2 = 26
TM_WORDS = {"tbegin. 0": 0x7c00051d, "tend. 0": 0x7c00055d, "tabort. 5": 0x7c05071d,
            "tcheck 7": 0x7f80059c, "tsr. 0": 0x7c0005dd, "treclaim. 24": 0x7c18075d,
            "trechkpt.": 0x7c0007dd}   # gas's power8.s/.d


def build(tmp_path, body):
    asm, ld = need_tool("powerpc64le-linux-gnu-as"), need_tool("powerpc64le-linux-gnu-ld")
    src = tmp_path / "p.s"
    src.write_text("        .abiversion 2\n        .globl _start\n_start:\n" + body)
    subprocess.run([asm, "-o", str(tmp_path / "p.o"), str(src)], check=True)
    subprocess.run([ld, "-static", "-o", str(tmp_path / "p"), str(tmp_path / "p.o")], check=True)
    return str(tmp_path / "p")


@pytest.mark.parametrize("name", sorted(TM_WORDS))
def test_tm_words_are_illegal(name):
    sim = Simulator()
    sim.load_asm(f".long {TM_WORDS[name]:#x}\n")
    res = sim.run(max_steps=5)
    assert res.stop == "trap" and "illegal" in str(res.trap), (name, res.stop, res.trap)
    assert sim.state.crval == 0   # nothing written


def test_hwcap2_advertises_no_htm_and_tbegin_traps(tmp_path):
    exe = build(tmp_path, "        .long 0x7c00051d\n        li 0,1\n        li 3,0\n        sc\n")
    sim = Simulator().load_elf(exe)
    sp, aux = sim.state.gpr[1], {}
    addr = sim.state.gpr[6]                     # r6 = auxv (ELFv2 start)
    while True:
        k, v = sim.state.mem.read(addr, 8), sim.state.mem.read(addr + 8, 8)
        addr += 16
        if k == 0:
            break
        aux[k] = v
    assert sp and aux.get(AT_HWCAP2, 0) & HTM_BITS == 0
    res = sim.run(max_steps=50)
    assert res.stop == "trap" and "illegal" in str(res.trap), (res.stop, res.trap)


def test_qemu_departure_is_pinned(tmp_path):
    # the departure docs/gnu_scalar.md states: QEMU 7.2 runs on past tbegin.
    qemu = need_tool("qemu-ppc64le")
    exe = build(tmp_path, "        .long 0x7c00051d\n        mfcr 3\n        srdi 3,3,28\n"
                          "        li 0,1\n        sc\n")
    r = subprocess.run([qemu, "-cpu", "power10", exe], capture_output=True)
    assert r.returncode == 0b1011
