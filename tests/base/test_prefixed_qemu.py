"""Power ISA v3.1 prefixed instructions run as under QEMU 7.2 (-cpu power10).

Random programs of every v3.1 prefixed scalar instruction (paddi and its
extended mnemonics, the MLS and 8LS loads and stores, R=0 on a base register
and R=1 CIA-relative, pnop), built by GNU as and ld (whose nops keep each
prefixed instruction off a 64-byte boundary), print their registers and data
area; isa_ext's output must equal QEMU's, translated and one instruction at a
time.  Behaviour QEMU cannot show (it aborts on the alignment interrupt) is
derived by hand from the book.
"""
import random
import subprocess

import pytest

from conftest import need_tool
from isa_ext.diffcheck import tools
from isa_ext.isa import ISA
from isa_ext.sim import Simulator

GPRS = range(3, 21)  # the registers the cases write (r30: the data area)
MLS_LOADS = ("plbz", "plhz", "plha", "plwz")
LS8_LOADS = ("plwa", "pld")
STORES = ("pstb", "psth", "pstw", "pstd")

PRELUDE = """\
    .abiversion 2
    .text
    .globl _start
_start:
    pla 30,buf@pcrel
"""
# registers and the data area to standard output, then exit(0)
EPILOGUE = """\
    pla 29,out@pcrel
{stores}
    li 0,4
    li 3,1
    mr 4,29
    li 5,{size}
    sc
    li 0,4
    li 3,1
    mr 4,30
    li 5,256
    sc
    li 0,1
    li 3,0
    sc
    .data
    .p2align 4
buf:
{data}
    .bss
    .p2align 4
out: .space {size}
"""


def random_program(seed, count=150):
    rng = random.Random(seed)
    reg = lambda: rng.choice(GPRS)  # noqa: E731
    imm34 = lambda: rng.choice([rng.randrange(-1 << 33, 1 << 33),  # noqa: E731
                                rng.randrange(-300, 300), -1 << 33, (1 << 33) - 1])
    lines = [f"    pli {r},{imm34()}" for r in GPRS]
    lines += [f"    plfd {f},{8 * f}(30)" for f in range(16)]
    for _ in range(count):
        k = rng.randrange(12)
        off = rng.randrange(0, 240)
        if k == 0:
            lines.append(f"    paddi {reg()},{rng.choice([0, 30, reg()])},{imm34()}")
        elif k == 1:
            lines.append(rng.choice([f"    pli {reg()},{imm34()}",
                                     f"    psubi {reg()},{reg()},{-imm34()}",  # (psubi's range: -SI fits)
                                     f"    pla {reg()},{rng.randrange(-5000, 5000)}",
                                     f"    paddi {reg()},0,{rng.randrange(-99, 99)},1",
                                     "    pnop"]))
        elif k in (2, 3):
            lines.append(f"    {rng.choice(MLS_LOADS + LS8_LOADS)} {reg()},{off}(30)")
        elif k == 4:
            op = rng.choice(MLS_LOADS + LS8_LOADS)
            lines.append(f"    {op} {reg()},buf+{off}@pcrel")
        elif k in (5, 6):
            lines.append(f"    {rng.choice(STORES)} {reg()},{off}(30)")
        elif k == 7:
            lines.append(f"    {rng.choice(STORES)} {reg()},buf+{off}@pcrel")
        elif k == 8:
            rt = rng.choice(range(4, 20, 2))
            q = 16 * rng.randrange(0, 15)
            lines.append(rng.choice([f"    plq {rt},{q}(30)", f"    pstq {rt},{q}(30)",
                                     f"    pstq {rt},buf+{q}@pcrel"]))
        elif k == 9:
            op = rng.choice(("plfs", "plfd", "pstfs", "pstfd"))
            lines.append(f"    {op} {rng.randrange(16)},{off & ~7}(30)")
        elif k == 10:
            op = rng.choice(("plfs", "plfd", "pstfs", "pstfd"))
            lines.append(f"    {op} {rng.randrange(16)},buf+{off & ~7}@pcrel")
        else:  # a 32-bit instruction between them, moving the 64-byte phase
            lines.append(f"    addi {reg()},{reg()},{rng.randrange(-9, 9)}")
    stores = [f"    std {r},{8 * i}(29)" for i, r in enumerate(GPRS)]
    stores += [f"    stfd {f},{8 * (len(GPRS) + f)}(29)" for f in range(16)]
    size = 8 * (len(GPRS) + 16)
    data = [f"    .quad 0x{rng.getrandbits(64):016x}" for _ in range(32)]
    return PRELUDE + "\n".join(lines) + "\n" + EPILOGUE.format(
        stores="\n".join(stores), size=size, data="\n".join(data))


def build(tmp_path, source, name="p"):
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    src, elf = tmp_path / f"{name}.S", tmp_path / f"{name}.elf"
    src.write_text(source)
    r = subprocess.run([gcc, "-mcpu=power10", "-nostdlib", "-static", "-o", str(elf), str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[:2000]
    return str(elf)


@pytest.fixture(scope="module")
def base():
    return ISA(extensions=["base"])


def run_sim(isa, elf, translate):
    sim = Simulator(isa=isa, translate=translate)
    sim.hot_after = 0
    sim.load_elf(elf)
    res = sim.run(max_steps=100_000)
    return res, bytes(sim.state.stdout)


@pytest.mark.parametrize("seed", range(4))
def test_random_prefixed_programs_match_qemu(base, tmp_path, seed):
    need_tool("qemu-ppc64le")
    elf = build(tmp_path, random_program(seed))
    q = tools.run_qemu(elf)
    assert q.signal is None and q.status == 0, q.stderr
    assert len(q.stdout) == 8 * 34 + 256
    for translate in (False, True):
        res, out = run_sim(base, elf, translate)
        assert (res.stop, res.exit_status) == ("exit", 0), res.trap
        assert out == q.stdout, f"translate={translate}: differs from QEMU"


def _words_program(words, nops):
    body = "\n".join(["    nop"] * nops + [f"    .long 0x{w:08x}" for w in words])
    return (".abiversion 2\n.text\n.globl _start\n_start:\n    .p2align 6\n"
            f"{body}\n    li 0,1\n    li 3,7\n    sc\n")


@pytest.mark.parametrize("words,qemu_signal,kind", [
    ((0x06100000, 0x38640005), 4, "illegal"),  # paddi R=1 RA=4: SIGILL
    ((0x04100000, 0xE4640010), 4, "illegal"),  # pld R=1 RA=4
    ((0x06800000, 0x38640005), 4, "illegal"),  # MLS prefix, ST=1, before addi
    ((0x07003000, 0x00000000), 4, "illegal"),  # pnop with reserved prefix bits
    ((0x07000000, 0x60000000), None, None),    # pnop: the suffix is ignored
    ((0x07000000, 0x4C000000), None, None),    # ... mcrf (XL form, XO 0)
    ((0x07000000, 0x48000000), 4, "illegal"),  # ... but for a branch: b
    ((0x07000000, 0x40000000), 4, "illegal"),  # bc
    ((0x07000000, 0x4C000020), 4, "illegal"),  # bclr
    ((0x07000000, 0x44000002), 4, "illegal"),  # sc
])
def test_invalid_pairs_trap_as_under_qemu(base, tmp_path, words, qemu_signal, kind):
    need_tool("qemu-ppc64le")
    elf = build(tmp_path, _words_program(words, 4))
    q = tools.run_qemu(elf)
    assert q.signal == qemu_signal
    for translate in (False, True):
        res, _out = run_sim(base, elf, translate)
        if kind is None:
            assert (res.stop, res.exit_status, q.status) == ("exit", 7, 7)
        else:
            assert res.stop == "trap" and res.trap.kind == kind
            assert res.trap.pc % 64 == 16  # the prefix, after 4 nops


# --- by hand (Power ISA v3.1 Book I) --------------------------------------------

def test_crossing_a_64_byte_boundary_is_an_alignment_interrupt(base):
    """Book I 1.6.3: a prefixed instruction may not cross a 64-byte boundary.
    (QEMU 7.2's user mode aborts there: "Unknown exception 0x5".)"""
    for translate in (False, True):
        sim = Simulator(isa=base, translate=translate)
        sim.hot_after = 0
        sim.load_words([0x60000000] * 15 + [0x06000000, 0x38600007], addr=0x1000)
        before = sim.state.copy_registers()
        res = sim.run()
        assert res.stop == "trap" and res.trap.kind == "alignment" and res.trap.pc == 0x103C
        assert res.steps == 15
        assert sim.state.copy_registers() == before  # (nops change no register)


def test_cia_relative_forms_by_hand(base):
    """pla RT,D: RT <- CIA + EXTS(D); pld RT,D,R=1: EA <- CIA + EXTS(D);
    the next instruction is at CIA + 8."""
    sim = Simulator(isa=base, translate=False)
    sim.load_words([0x0613FFFF, 0x3860FFF8,   # 0x1000 pla r3,-8 -> 0xFF8
                    0x04100000, 0xE4800010,   # 0x1008 pld r4,16 (R=1): EA 0x1018
                    0x07000000, 0x00000000,   # 0x1010 pnop
                    0x89ABCDEF, 0x01234567],  # 0x1018 data
                   addr=0x1000)
    sim.end = 0x1018
    res = sim.run()
    assert res.stop == "end" and res.steps == 3
    assert sim.state.gpr[3] == 0xFF8 and sim.state.gpr[4] == 0x0123456789ABCDEF


@pytest.mark.parametrize("words,reason", [
    ((0x06100000, 0x38640005), "invalid form of paddi: R=1 (CIA-relative) with RA=4, not 0"),
    ((0x07003000, 0x00000000), "invalid form of pnop: reserved bit(s) 18, 19 set"),
    ((0x04000000, 0xE0A30000), "plq needs an even RTp"),
    ((0x06800000, 0x38640005), "no instruction matches the MLS-type prefix 0x06800000"),
    ((0x05000000, 0x38640005), "no instruction matches the 8RR-type prefix 0x05000000"),
])
def test_illegal_pairs_say_why_and_change_nothing(base, words, reason):
    sim = Simulator(isa=base)
    sim.load_words(list(words))
    before = sim.state.copy_registers()
    res = sim.run(max_steps=2)
    assert res.stop == "trap" and res.trap.kind == "illegal" and reason in res.trap.reason
    assert sim.state.copy_registers() == before
