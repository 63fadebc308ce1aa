"""How a Linux program ends on a trap, against qemu-ppc64le -cpu power10:
the exit status a shell reports (128 + the signal Linux sends: SIGTRAP for a
trap instruction and a failing hashchk, SIGFPE for an enabled FP exception,
SIGILL for an illegal instruction) and the output before it, byte for byte.

The program is built with -mrop-protect, so every call that saves LR runs
hashst/hashchk under the process's key (QEMU draws a random one per run;
isa-ext one from --seed): a run that survives proves the two agree with
each other, a flipped hash proves hashchk traps."""
import os
import subprocess
import sys

import pytest

from conftest import TESTS_DIR, need_tool

PROGRAM = os.path.join(TESTS_DIR, "linux", "progs", "signals.c")
MODES = ["rop", "intact", "flip", "trap", "fpe", "ill"]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    exe = tmp_path_factory.mktemp("signals") / "signals"
    subprocess.run([need_tool("powerpc64le-linux-gnu-gcc"), "-O2", "-mcpu=power10",
                    "-mrop-protect", "-static", "-o", str(exe), PROGRAM, "-lm"],
                   check=True, capture_output=True)
    return str(exe)


def _status(returncode):
    return returncode if returncode >= 0 else 128 - returncode


@pytest.mark.parametrize("mode", MODES)
def test_trap_ends_the_program_as_under_qemu(program, mode):
    q = subprocess.run([need_tool("qemu-ppc64le"), "-cpu", "power10", program, mode],
                       capture_output=True, timeout=120)
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", program, "--", mode],
                       capture_output=True, timeout=600)
    assert (r.stdout, r.returncode) == (q.stdout, _status(q.returncode))
    if q.returncode < 0:   # isa-ext names where it stopped, on stderr after the output
        assert r.stderr.startswith(b"isa-ext: trap at pc=0x"), r.stderr
    else:
        assert r.stdout.endswith(b"survived\n")


def test_elf_run_fixture_reports_the_signal_status(program, elf_run):
    # the pytest fixture's status is the CLI's: a failing hashchk is SIGTRAP (133)
    run = elf_run(program, argv=[program, "flip"])
    assert (run.stdout, run.status) == (b"mode flip\n", 133)
    assert run.result.trap.kind == "program"


def test_the_hash_key_is_drawn_from_the_seed(program):
    # as Linux gives each process a key of its own: two seeds, two hashes of
    # the same registers; one seed, the same hash again (runs repeat)
    def show(seed):
        r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", "--seed", str(seed),
                            program, "--", "show"], capture_output=True, timeout=600, check=True)
        return r.stdout.split()[-3]   # "mode show", the hash, "show: survived"
    first = show(1)
    assert show(1) == first and show(2) != first
