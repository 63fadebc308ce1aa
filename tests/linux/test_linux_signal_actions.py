"""A signal a glibc program sends itself (raise) under each action, against
qemu-ppc64le: the default action ends it (128 + SIGUSR1 = 138), SIG_IGN lets
it carry on, byte for byte as QEMU.  A handler would run under QEMU; isa-ext
does not run signal handlers (docs/linux.md), so the run stops there with a
trap that says so, never as if the default action had been taken silently; a
fault (SIGSEGV) the program has a handler for says the handler was not run.
A write to a pipe no one reads raises SIGPIPE (ending it, 141) or, ignored,
fails with EPIPE, as under QEMU."""
import os
import subprocess
import sys

import pytest

from conftest import TESTS_DIR, need_tool

SIGUSR1 = 10


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    exe = str(tmp_path_factory.mktemp("handler") / "handler")
    subprocess.run([need_tool("powerpc64le-linux-gnu-gcc"), "-O2", "-static", "-o", exe,
                    os.path.join(TESTS_DIR, "linux", "progs", "handler.c")],
                   check=True, capture_output=True)
    return exe


def runs(program, mode):
    q = subprocess.run([need_tool("qemu-ppc64le"), "-cpu", "power10", program, mode],
                       capture_output=True, timeout=120)
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", program, "--", mode],
                       capture_output=True, timeout=600)
    return q, r


@pytest.mark.parametrize("mode, status", [("default", 128 + SIGUSR1), ("ignore", 0)])
def test_default_and_ignored_actions_match_qemu(program, mode, status):
    q, r = runs(program, mode)
    q_status = 128 - q.returncode if q.returncode < 0 else q.returncode
    assert (r.stdout, r.returncode) == (q.stdout, q_status) and q_status == status


def test_a_handler_is_not_run_and_the_run_says_so(program):
    q, r = runs(program, "handler")
    assert q.returncode == 0 and q.stdout == b"before\nhandler 10\nafter\n"
    # the output up to the raise, then a trap naming the signal and the handler
    assert r.stdout == b"before\n" and r.returncode == 128 + SIGUSR1
    nm = subprocess.run([need_tool("powerpc64le-linux-gnu-nm"), program], capture_output=True,
                        text=True, check=True).stdout
    handler = next(int(line.split()[0], 16) for line in nm.splitlines()
                   if line.endswith(" t handler"))
    assert (f"signal {SIGUSR1} sent to itself has a handler at 0x{handler:x}: running signal "
            "handlers is not emulated").encode() in r.stderr, r.stderr
    assert b"killed by signal" not in r.stderr


def test_a_fault_with_a_handler_says_the_handler_is_not_run(program):
    q, r = runs(program, "segv")
    assert q.returncode == 3 and q.stdout == b"before\nsegv handler 11\n"
    assert r.stdout == b"before\n" and r.returncode == 139
    nm = subprocess.run([need_tool("powerpc64le-linux-gnu-nm"), program], capture_output=True,
                        text=True, check=True).stdout
    on_segv = next(int(line.split()[0], 16) for line in nm.splitlines()
                   if line.endswith(" t on_segv"))
    assert (f"SIGSEGV: write to unmapped address 0x0 (the program's handler for signal 11 at "
            f"0x{on_segv:x} is not run: running signal handlers is not emulated)\n").encode() \
        in r.stderr, r.stderr


@pytest.mark.parametrize("mode", ["pipe", "pipe-ignored"])
def test_writing_to_a_pipe_no_one_reads_matches_qemu(program, mode):
    # stdout a pipe whose read end is closed: SIGPIPE ends the process (141);
    # ignored, the write fails with EPIPE (the program says so and exits 7)
    def run(cmd):
        r, w = os.pipe()
        os.close(r)
        try:
            done = subprocess.run(cmd, stdout=w, stderr=subprocess.PIPE, timeout=600)
        finally:
            os.close(w)
        status = 128 - done.returncode if done.returncode < 0 else done.returncode
        return done.stderr, status
    q = run([need_tool("qemu-ppc64le"), "-cpu", "power10", program, mode])
    got = run([sys.executable, "-m", "isa_ext", "run", "--linux", program, "--", mode])
    assert q == ((b"", 141) if mode == "pipe" else (b"write: -1 Broken pipe\n", 7))
    # (isa-ext notes the signal as it does SIGABRT's, as QEMU would a core dump)
    note = b"".join(line for line in got[0].splitlines(keepends=True)
                    if not line.startswith(b"isa-ext: signal at pc="))
    assert (note, got[1]) == q
