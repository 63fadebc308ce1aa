"""The virtual clock (docs/linux.md): time is the instructions retired so far
at NS_PER_INSTRUCTION (1 ns each) plus the time slept, so two runs give the
same bytes and the clock moves with the instruction count, whichever loop runs
the program (interpreted, translated, eagerly translated, traced)."""
import os
import struct
import subprocess
import sys

import pytest

from conftest import TESTS_DIR, need_tool
from isa_ext.sim import Simulator

PROGS = os.path.join(TESTS_DIR, "linux", "progs")
EPOCH = 1_700_000_000     # docs/linux.md: the virtual CLOCK_REALTIME's start


@pytest.fixture(scope="module")
def clock_prog(tmp_path_factory):
    out = tmp_path_factory.mktemp("clock")
    obj, exe = out / "clock.o", out / "clock"
    subprocess.run([need_tool("powerpc64le-linux-gnu-as"), "-o", str(obj),
                    os.path.join(PROGS, "clock.S")], check=True)
    subprocess.run([need_tool("powerpc64le-linux-gnu-ld"), "-o", str(exe), str(obj)], check=True)
    return str(exe)


def times(stdout):
    return [s * 10**9 + ns for s, ns in struct.iter_unpack("<qq", stdout)]


def run(exe, **sim_kw):
    trace = sim_kw.pop("trace", False)
    eager = sim_kw.pop("eager", False)
    sim = Simulator(**sim_kw).load_elf(exe)
    if eager:
        sim.hot_after = 0
    res = sim.run(trace=trace)
    assert res.stop == "exit" and res.exit_status == 0, res
    return bytes(sim.state.stdout)


@pytest.mark.parametrize("how", ["interpreted", "translated", "eager", "traced"])
def test_clock_moves_with_retired_instructions(clock_prog, how):
    kw = {"interpreted": dict(translate=False), "translated": dict(translate=True),
          "eager": dict(translate=True, eager=True), "traced": dict(trace=True)}[how]
    t0, t1, t2, real = times(run(clock_prog, **kw))
    # hand count (clock.S): 4 instructions before the first sc, which reads
    # the clock at 4 retired; between the reads, that sc, li + mtctr, 1000
    # bdnz and li, li, addi: 1006
    assert t0 == 4
    assert t1 - t0 == 1006
    # then that sc, 8 instructions and the nanosleep sc, 1.5 s, 3 more to the sc
    assert t2 - t1 == 1 + 8 + 1 + 3 + 1_500_000_000
    # CLOCK_REALTIME: the epoch plus the same clock, 4 instructions later
    assert real == EPOCH * 10**9 + t2 + 4


def test_two_runs_of_a_glibc_program_are_byte_identical(tmp_path):
    """glibc's clock_gettime, gettimeofday, time, nanosleep and clock() twice:
    the same bytes, and the times printed are the virtual clock's."""
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    exe = tmp_path / "demo"
    subprocess.run([gcc, "-O2", "-static", "-o", str(exe), os.path.join(PROGS, "glibc_demo.c")],
                   check=True, capture_output=True)
    outs = [subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", str(exe), "--",
                            "time"], capture_output=True, timeout=600) for _ in range(2)]
    assert outs[0].returncode == 0, outs[0].stderr
    assert outs[0].stdout == outs[1].stdout and outs[0].stderr == outs[1].stderr
    fields = dict(line.split("=") for line in outs[0].stdout.decode().split())
    # time() and gettimeofday: the epoch, the 2.5 s slept and well under a
    # tenth of a second of instructions
    assert int(fields["time"]) == EPOCH + 2
    assert fields["tv"].startswith(f"{EPOCH + 2}.5")
    # the 2.5 s nanosleep shows on CLOCK_MONOTONIC, not on the CPU clock
    assert 2.5 < float(fields["slept"]) < 2.6
    assert float(fields["cpu"]) < 0.1


@pytest.mark.parametrize("clock", ["virtual", "host"])
def test_time_base_runs_at_512_mhz_on_the_process_clock(tmp_path, clock):
    # POWER's Time Base counts 512 MHz (512 ticks a microsecond): read beside
    # clock_gettime(CLOCK_MONOTONIC), over a loop and a sleep, the two agree
    # to a tick (the floor of each reading); virtual runs repeat byte for byte.
    # (QEMU 7.2's linux-user counts the host's cycle counter instead.)
    exe = str(tmp_path / "timebase")
    subprocess.run([need_tool("powerpc64le-linux-gnu-gcc"), "-O1", "-static", "-o", exe,
                    os.path.join(TESTS_DIR, "linux", "progs", "timebase.c")],
                   check=True, capture_output=True)

    def go(*flags):
        r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", "--clock", clock,
                            *flags, exe], capture_output=True, timeout=600, check=True)
        return r.stdout

    out = go()
    ticks, ns = int(out.split()[1]), int(out.split()[3])
    assert ns >= 250_000_000
    if clock == "virtual":
        assert abs(ticks - ns * 512 // 1000) <= 1
        assert go() == out == go("--no-translate")   # read mid-block as one at a time
    else:   # (the two host readings are a few instructions apart)
        assert abs(ticks * 1000 / ns - 512) < 512 * 0.01
