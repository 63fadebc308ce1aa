"""poll's rules where QEMU cannot be the oracle (isa_ext/linux/poll.py):
nothing runs beside the program, so waiting for ever on descriptors only it
could make ready is a deadlock, which stops the run with a trap saying so;
a timeout instead moves the virtual clock on by the time asked."""
import struct

import pytest

from isa_ext.errors import Trap
from isa_ext.linux import LinuxOptions
from isa_ext.linux.syscalls import LinuxProcess
from isa_ext.sim import Simulator

POLL, PIPE2 = 167, 317
FDS, PIPE_FDS = 0x10000000, 0x10000100


@pytest.fixture
def proc():
    sim = Simulator()
    p = LinuxProcess(sim, __file__, LinuxOptions(), 0x20000000)
    p.mappings[0x10000000] = 0x10000
    yield p
    p.close()


def call(p, number, *args):
    s = p.sim.state
    s.gpr[0] = number
    s.gpr[3:3 + len(args)] = [a & (2**64 - 1) for a in args]
    p.syscall(s, vectored=True)
    return s.gpr[3] - 2**64 if s.gpr[3] >> 63 else s.gpr[3]


def empty_pipe(p):
    assert call(p, PIPE2, PIPE_FDS, 0) == 0
    read_end, _write_end = struct.unpack("<ii", p.mem.read_bytes(PIPE_FDS, 8))
    p.mem.write_bytes(FDS, struct.pack("<ihh", read_end, 1, 0))   # POLLIN


def test_waiting_for_ever_on_an_empty_pipe_is_a_deadlock(proc):
    empty_pipe(proc)
    with pytest.raises(Trap, match="poll would wait for ever"):
        call(proc, POLL, FDS, 1, -1)


def test_a_timeout_moves_the_virtual_clock(proc):
    empty_pipe(proc)
    before = proc.now_ns(1)
    assert call(proc, POLL, FDS, 1, 250) == 0
    assert proc.now_ns(1) - before == 250 * 10**6
