"""Random system-call numbers and arguments (seeded) straight into the
system-call layer: every call ends in a result, an exit or a trap (never a
Python exception), and no host file outside the sandbox is touched."""
import os
import random

from isa_ext.errors import Trap
from isa_ext.linux import LinuxOptions
from isa_ext.linux.syscalls import SYSCALLS, LinuxProcess
from isa_ext.machine import ProgramExit
from isa_ext.sim import Simulator

# numbers worth hitting often: the table's own, and their neighbours
INTERESTING = sorted(SYSCALLS) + [0, 9999, 2**64 - 1]


def snapshot(root):
    out = {}
    for d, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            out[p] = (os.lstat(p).st_size, os.lstat(p).st_mtime_ns)
    return out


def test_random_system_calls(tmp_path):
    watched = tmp_path / "host"
    watched.mkdir()
    (watched / "file").write_text("keep")
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    before = snapshot(tmp_path)
    rng = random.Random(2026)
    values = [0, 1, 2, 3, -1, -100, 2**63, 2**64 - 1, 0x1000, 0x10000000, 4096, 1 << 40]
    sim = Simulator(mem_limit=64 << 20)
    proc = LinuxProcess(sim, __file__, LinuxOptions(cwd=str(watched)), 0x20000000)
    sim.state.syscall_handler = proc.syscall
    # a path in guest memory that names the watched file, and one that names a new one
    sim.state.mem.load(0x10000000, str(watched / "file").encode() + b"\0")
    sim.state.mem.load(0x10000100, str(watched / "new").encode() + b"\0")
    calls = 0
    for _ in range(3000):
        s = sim.state
        s.gpr[0] = rng.choice(INTERESTING) if rng.random() < 0.9 else rng.getrandbits(16)
        for r in range(3, 9):
            s.gpr[r] = (rng.choice(values) if rng.random() < 0.7 else
                        rng.getrandbits(rng.choice((8, 32, 64)))) & (2**64 - 1)
        if s.gpr[0] in (1, 234, 37, 208, 250) or (rng.random() < 0.2 and s.gpr[0] == 286):
            s.gpr[4] = rng.choice((0x10000000, 0x10000100))
        try:
            proc.syscall(s)
        except (ProgramExit, Trap):
            pass
        calls += 1
        assert 0 <= s.gpr[3] < 2**64
    assert calls == 3000
    assert snapshot(tmp_path) == before
