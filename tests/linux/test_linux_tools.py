"""The tools on a Linux program: examples/c/svp64_vadd.c (glibc around an
SVP64 kernel) under --interrupt-after/--resume, hfvf and diag.  Expected
output: the uninterrupted run's (and the example's arithmetic: the sum of
a[i] + b[i] = 3i + 1 for i < 1024 is 3 N(N-1)/2 + N = 1572352)."""
import os
import subprocess
import sys

import pytest

from conftest import TESTS_DIR, need_tool

EXAMPLE = os.path.join(os.path.dirname(TESTS_DIR), "examples", "c", "svp64_vadd.c")
OUTPUT = b"sum of 1024 = 1572352\n"


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    exe = str(tmp_path_factory.mktemp("tools") / "svp64_vadd")
    subprocess.run([need_tool("powerpc64le-linux-gnu-gcc"), "-O2", "-static", "-o", exe,
                    EXAMPLE], check=True, capture_output=True)
    return exe


def isa_ext(*args):
    return subprocess.run([sys.executable, "-m", "isa_ext", *args], capture_output=True,
                          timeout=900)


@pytest.mark.parametrize("k", [1, 3, 64, 700])
def test_interrupted_and_resumed_run_prints_what_an_uninterrupted_one_does(example, k):
    # the interrupt lands inside the SVP64 kernel's element loop; resumed, the
    # program's own stdout is untouched (isa-ext's note goes to stderr)
    r = isa_ext("run", "--linux", "--interrupt-after", str(k), "--resume", example)
    assert (r.stdout, r.returncode) == (OUTPUT, 0)
    assert r.stderr.startswith(f"isa-ext: interrupt: pc=0x".encode()), r.stderr
    assert f"after {k} element operations".encode() in r.stderr


def test_hfvf_compares_the_kernel_of_a_linux_program(example):
    r = isa_ext("hfvf", example)
    text = r.stdout.decode()
    assert r.returncode == 0, text
    assert "sv.add *8, *16, *24" in text and "verdict: agree" in text
    assert "result: agree" in text


def test_diag_runs_a_linux_program_to_its_exit(example):
    r = isa_ext("diag", example)
    assert r.returncode == 0 and b"stop: exit" in r.stdout, r.stdout + r.stderr
    assert b"Traceback" not in r.stderr


def test_hfvf_runs_keep_the_programs_memory_protection():
    # hfvf's HF and VF runs start from a copy of the program's state: a
    # read-only page (held as bytes) must stay read-only there and a page
    # outside the map must fault as in the program, not become writable
    from isa_ext.errors import Trap
    from isa_ext.hfvf import vfloop
    from isa_ext.isa import ISA
    from isa_ext.sim import Simulator
    isa = ISA()

    def outside(addr, write):   # as the Linux layer's fault: protection, else no mapping
        if addr >> 12 == 0x20:
            raise Trap(f"SIGSEGV: write to read-only address 0x{addr:x}", "segv")
        raise Trap(f"SIGSEGV: unmapped 0x{addr:x}", "segv")

    sim = Simulator(isa=isa)
    sim.load_words([0x90A30000, 0x90A40000], addr=0x1000)   # stw 5,0(3); stw 5,0(4)
    sim.state.mem.pages[0x20] = bytes(4096)          # 0x20000: read-only
    sim.state.mem.fault = outside
    sim.state.gpr[3], sim.state.gpr[4], sim.state.gpr[5] = 0x20000, 0x50000, 7
    for pc, why in ((0x1000, "read-only"), (0x1004, "unmapped 0x50000")):
        copy = vfloop.clone(lambda: Simulator(isa=isa), sim.state)
        copy.state.pc, copy.end = pc, pc + 4
        res = copy.run(max_steps=1)
        assert res.stop == "trap" and res.trap.kind == "segv" and why in str(res.trap), res
        assert copy.state.mem.read(0x20000, 4) == 0 and 0x50 not in copy.state.mem.pages
