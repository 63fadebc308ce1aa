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
    proc.mappings[0x10000000] = 0x10000   # the paths' page, mapped (else every pointer faults)
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


def test_random_system_calls_with_a_writable_directory_and_escapes(tmp_path):
    # --write gives the guest one directory, which holds symlinks out of it (a
    # file and a directory outside) and is named through "..": random calls,
    # their pointer arguments often one of these paths, may change only what
    # lies inside it (docs/linux.md, "The sandbox")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("keep")
    (outside / "dir").mkdir()
    (outside / "dir" / "inner").write_text("keep too")
    sandbox = tmp_path / "sandbox"
    (sandbox / "sub").mkdir(parents=True)
    (sandbox / "own").write_text("mine")
    (sandbox / "link-file").symlink_to(outside / "secret")
    (sandbox / "link-dir").symlink_to(outside / "dir")
    (sandbox / "link-new").symlink_to(outside / "created")
    before = snapshot(outside)
    names = [sandbox / "own", sandbox / "new", sandbox / "sub" / "x", sandbox / "link-file",
             sandbox / "link-dir" / "inner", sandbox / "link-dir" / "fresh",
             sandbox / "link-new", sandbox / ".." / "outside" / "secret",
             sandbox / "sub" / ".." / ".." / "outside" / "made", outside / "direct"]
    paths = [0x10000000 + 0x200 * i for i in range(len(names))]
    rng = random.Random(36)
    values = [0, 1, 2, 3, -1, -100, 0o777, 0o644, 0x41, 0x241, 0x242, 2**64 - 1, 4096]
    sim = Simulator(mem_limit=64 << 20)
    proc = LinuxProcess(sim, __file__, LinuxOptions(write=(str(sandbox),), read=(str(sandbox),),
                                                    cwd=str(sandbox)), 0x20000000)
    sim.state.syscall_handler = proc.syscall
    proc.mappings[0x10000000] = 0x10000   # the paths' page, mapped (else every pointer faults)
    for addr, name in zip(paths, names):
        sim.state.mem.load(addr, str(name).encode() + b"\0")
    sim.state.mem.load(0x10004000, b"relative/../own\0")
    paths.append(0x10004000)
    sim.state.mem.load(0x10005000, b"DATA")
    # ppc64's open flags: O_WRONLY 1, O_RDWR 2, O_CREAT 0x40, O_TRUNC 0x200,
    # O_APPEND 0x400, O_DIRECTORY 0x4000, O_NOFOLLOW 0x8000
    flags = [0, 1, 2, 0x41, 0x241, 0x242, 0x441, 0x4000, 0x8041, 0xC0]
    opened = 0

    def call(number, *args):
        s = sim.state
        s.gpr[0] = number
        for r, v in zip(range(3, 9), args):
            s.gpr[r] = v & (2**64 - 1)
        try:
            proc.syscall(s)
        except (ProgramExit, Trap):
            pass
        assert 0 <= s.gpr[3] < 2**64
        return None if s.cr[0] & 1 else s.gpr[3]   # CR0.SO: an error (r3 the errno)

    for _ in range(4000):
        if rng.random() < 0.35:   # a plausible open, then a write into what it opened
            fd = call(286, -100, rng.choice(paths), rng.choice(flags), 0o644)
            if fd is not None:
                opened += 1
                call(4, fd, 0x10005000, 4)
                call(6, fd)
            continue
        call(rng.choice(INTERESTING) if rng.random() < 0.9 else rng.getrandbits(16),
             *[rng.choice(paths) if rng.random() < 0.4 else rng.choice(values)
               if rng.random() < 0.8 else rng.getrandbits(64) for _ in range(6)])
    proc.close()
    assert snapshot(outside) == before
    assert sorted(os.listdir(outside)) == ["dir", "secret"]
    assert (outside / "secret").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside", "sandbox"]
    # (and the calls did reach the file system: files opened, the directory
    # they may write changed)
    assert opened > 20 and (sandbox / "new").exists()
    assert (sandbox / "own").read_text().startswith("DATA")
