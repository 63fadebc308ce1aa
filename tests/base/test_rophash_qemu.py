"""hashst and hashchk (Power ISA v3.1B Book I 3.3.17.1) against QEMU 7.2.

The hash depends on HASHKEYR, a privileged SPR: QEMU's linux-user draws a
random key per run that a program cannot read, so the oracle here is QEMU's
*system* emulator (qemu-system-ppc64 -M powernv10, stopped at reset) driven
through its gdb stub, which sets HASHKEYR, RA and RB, single-steps the word
GNU as wrote and reads the doubleword at EA back.  The simulator runs the same
words under the same keys, per instruction and as a translated block.
"""
import random
import re
import socket
import subprocess

import pytest

from isa_ext.isa import ISA
from isa_ext.sim import Simulator
from conftest import gnu_as_words, need_tool

CODE = 0x10000          # where gdb writes the word (QEMU) / the program (isa_ext)
PROGRAM_VECTOR = 0x700  # a program interrupt (hashchk's trap) in real mode
ISA_ALL = ISA()


def _step_address(k):
    return CODE + 0x100 + 8 * k


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _qemu_steps(tmp_path, steps):
    """Run each step (word, key, {reg: value}, {address: doubleword}) on a
    stopped POWER10: (where the step went, relative to the word: 4 when it
    completed, or an interrupt vector's offset; the doubleword at each
    address named) per step."""
    need_tool("qemu-system-ppc64")
    need_tool("gdb-multiarch")
    firmware = tmp_path / "loop.bin"
    firmware.write_bytes(bytes.fromhex("48000000") * 64)   # b . (never run: -S)
    port = _free_port()
    qemu = subprocess.Popen(
        ["qemu-system-ppc64", "-M", "powernv10", "-S", "-gdb", f"tcp:127.0.0.1:{port}",
         "-bios", str(firmware), "-display", "none", "-serial", "none", "-monitor", "none",
         "-nographic"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # MSR.LE = 0 at reset: gdb writes and reads big-endian
    # (a first step, of a nop: the first resume out of reset goes to the
    # firmware's entry whatever pc says.  Then each word at an address of its
    # own, and pc set and read back before the registers: once r1 (the stack
    # pointer, with no symbols to unwind by) is set, gdb's $pc was seen to
    # read 0 and a write of it to be lost, the step running at the old pc)
    cmds = ["set architecture powerpc:common64", "set endian big",
            f"target remote 127.0.0.1:{port}", f"set *(unsigned int *){CODE:#x} = 0x60000000",
            f"set $pc = {CODE:#x}", "stepi"]
    for k, (word, key, regs, mem) in enumerate(steps):
        at = _step_address(k)
        cmds += [f"set *(unsigned int *){at:#x} = {word:#x}", f"set $pc = {at:#x}",
                 f'printf "S {k} AT %lx\\n", $pc', f"set $hashkeyr = {key:#x}"]
        cmds += [f"set $r{r} = {v:#x}" for r, v in regs.items()]
        cmds += [f"set *(unsigned long *){a:#x} = {v:#x}" for a, v in mem.items()]
        cmds += ["stepi", f'printf "S {k} PC %lx\\n", $pc']
        cmds += [f'printf "S {k} M {a:#x} %lx\\n", *(unsigned long *){a:#x}' for a in mem]
    try:
        out = subprocess.run(["gdb-multiarch", "-q", "-batch", "-nx"]
                             + [x for c in cmds for x in ("-ex", c)],
                             capture_output=True, text=True, timeout=300).stdout
    finally:
        qemu.kill()
        qemu.wait()
    pcs, mems = {}, {}
    starts = {int(k): int(v, 16) for k, v in re.findall(r"^S (\d+) AT ([0-9a-f]+)$", out, re.M)}
    assert starts == {k: _step_address(k) for k in range(len(steps))}, out[-2000:]
    for m in re.finditer(r"^S (\d+) PC ([0-9a-f]+)$", out, re.M):
        pcs[int(m.group(1))] = int(m.group(2), 16)
    for m in re.finditer(r"^S (\d+) M (0x[0-9a-f]+) ([0-9a-f]+)$", out, re.M):
        mems.setdefault(int(m.group(1)), {})[int(m.group(2), 16)] = int(m.group(3), 16)
    assert len(pcs) == len(steps), out[-2000:]
    return [(pcs[k] - _step_address(k), mems.get(k, {})) for k in range(len(steps))]


def _isa_ext_step(word, key, regs, mem, translate):
    """The same step on the simulator: (trapped, doubleword at each address)."""
    sim = Simulator(ISA_ALL, translate=translate)
    sim.hot_after = 0
    sim.load_words([word, 0x60000000], addr=CODE)   # (a nop: a block of two)
    sim.state.hashkeyr = key
    for r, v in regs.items():
        sim.state.gpr[r] = v
    for a, v in mem.items():
        sim.state.mem.write(a, 8, v)
    res = sim.run(max_steps=1)
    trapped = res.stop == "trap"
    if trapped:
        assert res.trap.kind == "program" and res.pc == CODE, res
    return trapped, {a: sim.state.mem.read(a, 8) for a in mem}


def _cases(tmp_path, n, seed):
    """n random hashst cases: key, RA (doubleword-aligned, in RAM), RB and an
    offset -512..-8, each line assembled by GNU as."""
    rng = random.Random(seed)
    cases = []
    for _ in range(n):
        key = rng.choice([0, (1 << 64) - 1, rng.getrandbits(64), rng.getrandbits(64)])
        ra = 0x40000 + 8 * rng.randrange(4096)
        rb = rng.choice([0, 1, 1 << 63, rng.getrandbits(64), rng.getrandbits(64)])
        off = -8 * rng.randint(1, 64)
        ra_reg, rb_reg = rng.sample(range(1, 32), 2)
        cases.append((key, ra_reg, ra, rb_reg, rb, off))
    words = gnu_as_words(tmp_path, [f"hashst {b},{off}({a})" for _, a, _, b, _, off in cases]
                         + [f"hashchk {b},{off}({a})" for _, a, _, b, _, off in cases],
                         extra_args=["-mpower10"])
    return cases, words[:n], words[n:]


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
def test_hashst_stores_qemus_hash_under_a_chosen_key(tmp_path, translate):
    cases, st_words, _ = _cases(tmp_path, 24, seed=1)
    steps = [(w, key, {a: ra, b: rb}, {ra + off: 0})
             for w, (key, a, ra, b, rb, off) in zip(st_words, cases)]
    for step, (pc, mem) in zip(steps, _qemu_steps(tmp_path, steps)):
        assert pc == 4, (step, pc)
        trapped, ours = _isa_ext_step(*step, translate=translate)
        assert not trapped
        assert ours == mem, (step, {a: hex(v) for a, v in mem.items()})
        assert list(mem.values()) != [0]


@pytest.mark.parametrize("translate", [False, True], ids=["per-insn", "block"])
def test_hashchk_traps_exactly_when_the_stored_hash_differs(tmp_path, translate):
    # the doubleword at EA: hashst's own result for the pair (no trap), the
    # same with one bit flipped, or hashst's result for another key (traps)
    cases, st_words, chk_words = _cases(tmp_path, 12, seed=2)
    steps = [(w, key, {a: ra, b: rb}, {ra + off: 0})
             for w, (key, a, ra, b, rb, off) in zip(st_words, cases)]
    stored = [next(iter(m.values())) for _, m in _qemu_steps(tmp_path, steps)]
    rng = random.Random(3)
    checks, expect_trap = [], []
    for w, (key, a, ra, b, rb, off), h in zip(chk_words, cases, stored):
        flip = rng.choice([None, None, 1 << rng.randrange(64), "key"])
        if flip == "key":
            key ^= 1 << rng.randrange(64)
        elif flip is not None:
            h ^= flip
        checks.append((w, key, {a: ra, b: rb}, {ra + off: h}))
        expect_trap.append(flip is not None)
    results = _qemu_steps(tmp_path, checks)
    for k, (step, want, (pc, mem)) in enumerate(zip(checks, expect_trap, results)):
        assert pc == (PROGRAM_VECTOR - _step_address(k) if want else 4), (step, pc)
        trapped, ours = _isa_ext_step(*step, translate=translate)
        assert trapped == want, step
        assert ours == mem   # hashchk writes no memory


@pytest.mark.parametrize("text", ["hashst 4,-8(0)", "hashchk 4,-512(0)"])
def test_ra_zero_is_an_invalid_form(text):
    # QEMU 7.2 (do_hash: "if RA=0, the instruction form is invalid") raises
    # an illegal-instruction program interrupt; no memory is written
    sim = Simulator(ISA_ALL)
    sim.load_asm(text)
    before = sim.state.copy_registers()
    res = sim.run(max_steps=1)
    assert res.stop == "trap" and res.trap.kind == "illegal"
    assert "RA=0" in str(res.trap)
    assert sim.state.copy_registers() == before
