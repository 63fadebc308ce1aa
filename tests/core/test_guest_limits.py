"""Guest resource limits (issue 20): a guest program cannot exhaust the host.

* Memory a guest writes into existence is bounded (default 1 GiB,
  `--mem-limit`, `Simulator(mem_limit=...)`); the store that would pass it stops
  the run with a "limit" trap and writes nothing.
* write(2) validates its buffer as Linux does (fs/read_write.c, mm): an
  unmapped buffer is EFAULT (14); a buffer that ends in unmapped memory, or a
  count above the per-call cap, gives a short write of what can be read.
Before this, `li 0,4 / li 3,1 / li 4,0 / lis 5,0x7fff / sc` allocated 2 GB
(MemoryError under a 4 GB limit) and a wide store loop grew memory unbounded.
"""
import subprocess
import sys

import pytest

from isa_ext.machine import DEFAULT_MEM_LIMIT, MAX_WRITE_BYTES
from isa_ext.sim import Simulator


def test_default_limit_is_one_gib():
    assert DEFAULT_MEM_LIMIT == 1 << 30
    assert Simulator().state.mem.limit == 1 << 30


def test_store_loop_stops_at_the_limit(isa):
    # one new 4 KiB page per store (r5 steps by 64 KiB); 1 MiB = 256 pages, the
    # program's own page is one, so store number 256 (r5 = 255 * 64 KiB) traps
    sim = Simulator(isa, mem_limit=1 << 20)
    sim.load_asm("li r5,0\nloop:\nstd r5,0x2000(r5)\naddis r5,r5,1\nb loop\n")
    res = sim.run(max_steps=10_000)
    assert res.stop == "trap" and res.trap.kind == "limit" and res.trap.pc == 0x1004
    assert "limit" in res.trap.reason and sim.state.gpr[5] == 255 << 16
    assert len(sim.state.mem.pages) == 256
    assert sim.state.mem.read(0x2000 + (255 << 16), 8) == 0  # the trapping store wrote nothing


def test_large_load_past_the_limit_traps_before_writing(isa):
    sim = Simulator(isa, mem_limit=1 << 16)
    from isa_ext.errors import Trap
    with pytest.raises(Trap, match="limit"):
        sim.state.mem.load(0x100000, bytes(1 << 17))
    assert not sim.state.mem.pages


def test_two_gigabyte_write_from_unmapped_memory_is_efault(isa):
    # the repro: write(1, 0, 0x7fff0000); address 0 was never written
    sim = Simulator(isa)
    sim.load_asm("li 0,4\nli 3,1\nli 4,0\nlis 5,0x7fff\nsc\n")
    res = sim.run()
    assert res.stop == "end" and sim.state.gpr[3] == 14 and sim.state.cr[0] & 1
    assert res.stdout == b""


def test_write_ending_in_unmapped_memory_is_short(isa):
    # "hi" sits 2 bytes before the end of its page (0x1ffe); 0x2000 is unmapped:
    # write(1, 0x1ffe, 100) writes 2 bytes and returns 2
    sim = Simulator(isa)
    sim.load_asm("li 0,4\nli 3,1\nli 4,0x1ffe\nli 5,100\nsc\n")
    sim.state.mem.write_bytes(0x1ffe, b"hi")
    res = sim.run()
    assert res.stdout == b"hi" and sim.state.gpr[3] == 2 and not sim.state.cr[0] & 1


def test_write_above_the_cap_is_short(isa):
    # a mapped buffer of cap + 4096 bytes: one call writes MAX_WRITE_BYTES
    sim = Simulator(isa)
    sim.load_asm("li 0,4\nli 3,1\nlis 4,0x100\nlis 5,0x101\nsc\n")
    assert MAX_WRITE_BYTES == 0x1000000  # 16 MiB, documented in docs/limits.md
    sim.state.mem.load(0x1000000, b"x" * (0x1010000))
    res = sim.run()
    assert sim.state.gpr[3] == MAX_WRITE_BYTES and len(res.stdout) == MAX_WRITE_BYTES


def test_bad_fd_is_ebadf(isa):
    sim = Simulator(isa)
    sim.load_asm("li 0,4\nli 3,7\nli 4,0x1000\nli 5,4\nsc\n")
    sim.run()
    assert sim.state.gpr[3] == 9 and sim.state.cr[0] & 1


def test_cli_mem_limit(tmp_path):
    src = tmp_path / "grow.s"
    src.write_text("li r5,0\nloop:\nstd r5,0(r5)\naddis r5,r5,1\nb loop\n")
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", str(src), "--mem-limit", "1M"],
                       capture_output=True, text=True)
    # a trap's exit status is 132 (docs/cli.md "Exit status"; isa_ext.commands.run.EXIT_TRAP)
    assert r.returncode == 132 and "(limit)" in r.stdout and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", str(src), "--mem-limit", "1x"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "bad size" in r.stderr
