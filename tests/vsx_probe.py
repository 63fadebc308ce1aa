"""Run vector (VMX/VSX) cases on qemu-ppc64le and on isa_ext, and read back
the registers each case names.

A case is ``(init, lines, outs)``: ``init`` maps register names to values
(``"vs0".."vs63"``: 128-bit, doubleword 0 in the high bits; ``"v0".."v31"``:
VSR 32 + n; ``"r3"``: 64-bit; ``"cr"``: 32-bit; ``"fpscr"``: set with mtfsf
through f0, so name it after any VSR it should not clobber, and in ``outs``
after vs0), ``lines`` is the assembly to
test, ``outs`` the register names to read after it (also ``"cr"``).  The
program, assembled and linked by GNU binutils, is the same ELF for both
machines: it loads each VSR with lxvd2x and stores it back with stxvd2x (whose
little-endian layout, doubleword 0 from the first 8 bytes, tests/vector
checks by hand), then writes the results to stdout.  Memory the cases may
use: r28 points at a 4 KiB scratch area (filled with bytes 0, 1, 2, ...
before each case) and may not be changed; r29, r30, r31 are reserved.
"""
import subprocess

from conftest import need_tool

SCRATCH = 4096


def _quad(v):
    return ((v >> 64) & (2**64 - 1)).to_bytes(8, "little") + (v & (2**64 - 1)).to_bytes(8, "little")


def _vsr_number(name):
    if name.startswith("vs"):
        return int(name[2:])
    return 32 + int(name[1:])


def program(cases):
    """(assembly source, expected stdout size)."""
    text = [".abiversion 2", ".text", ".globl _start", "_start:",
            "  lis 29,outbuf@ha", "  addi 29,29,outbuf@l",
            "  lis 28,scratch@ha", "  addi 28,28,scratch@l"]
    # the scratch pattern of case i is filltab + i % 256: bytes i, i+1, ...
    data = ["filltab: .byte " + ",".join(str(b & 0xFF) for b in range(SCRATCH + 256))]
    size = 0
    for i, (init, lines, outs) in enumerate(cases):
        # fill the scratch area: a byte pattern per case
        text += ["  lis 31,filltab@ha", "  addi 31,31,filltab@l", f"  addi 31,31,{i % 256}",
                 f"  li 0,{SCRATCH // 8}", "  mtctr 0", "  addi 27,28,-8", "  addi 31,31,-8",
                 "2: ldu 0,8(31)", "  stdu 0,8(27)", "  bdnz 2b"]
        data.append(f"in{i}:")
        text += [f"  lis 31,in{i}@ha", f"  addi 31,31,in{i}@l"]
        for name, value in init.items():
            if name.startswith("v"):
                data.append("  .byte " + ",".join(str(b) for b in _quad(value)))
                text += [f"  lxvd2x {_vsr_number(name)},0,31", "  addi 31,31,16"]
            elif name == "cr":
                data.append(f"  .quad {value}")
                text += ["  ld 0,0(31)", "  mtcr 0", "  addi 31,31,8"]
            elif name == "fpscr":  # (through f0's doubleword: set it after the VSRs)
                data.append(f"  .quad {value}")
                text += ["  lfd 0,0(31)", "  mtfsf 0xff,0,1,0", "  addi 31,31,8"]
            else:
                data.append(f"  .quad {value}")
                text += [f"  ld {int(name[1:])},0(31)", "  addi 31,31,8"]
        text += ["  " + line for line in lines]
        for name in outs:
            if name.startswith("v"):
                text += [f"  stxvd2x {_vsr_number(name)},0,29", "  addi 29,29,16"]
                size += 16
            elif name == "cr":
                text += ["  mfcr 0", "  std 0,0(29)", "  addi 29,29,8"]
                size += 8
            elif name == "fpscr":  # (through f0: read it after the VSRs)
                text += ["  mffs 0", "  stfd 0,0(29)", "  addi 29,29,8"]
                size += 8
            else:
                text += [f"  std {int(name[1:])},0(29)", "  addi 29,29,8"]
                size += 8
    text += ["  li 0,4", "  li 3,1", "  lis 4,outbuf@ha", "  addi 4,4,outbuf@l",
             f"  lis 5,{size >> 16}", f"  ori 5,5,{size & 0xFFFF}", "  sc", "  li 0,1", "  li 3,0", "  sc"]
    src = "\n".join(text) + "\n.data\n.balign 16\n" + "\n".join(data) + \
        f"\n.balign 16\nscratch: .space {SCRATCH}\noutbuf: .space {size + 16}\n"
    return src, size


def build(tmp_path, cases, cpu="power9", name="probe"):
    src, _size = program(cases)
    s, o, exe = tmp_path / f"{name}.s", tmp_path / f"{name}.o", tmp_path / name
    s.write_text(src)
    subprocess.run([need_tool("powerpc64le-linux-gnu-as"), "-a64", f"-m{cpu}", "-o", str(o), str(s)],
                   check=True, capture_output=True, text=True)
    subprocess.run([need_tool("powerpc64le-linux-gnu-ld"), "-o", str(exe), str(o)],
                   check=True, capture_output=True, text=True)
    return exe


def parse(cases, out):
    """[{register name: value}] per case from a probe's stdout bytes."""
    res, at = [], 0
    for _init, _lines, outs in cases:
        got = {}
        for name in outs:
            if name.startswith("v"):
                got[name] = int.from_bytes(out[at:at + 8], "little") << 64 | \
                    int.from_bytes(out[at + 8:at + 16], "little")
                at += 16
            else:
                got[name] = int.from_bytes(out[at:at + 8], "little")
                at += 8
        res.append(got)
    return res


def run_qemu(exe, cpu="power9"):
    r = subprocess.run([need_tool("qemu-ppc64le"), "-cpu", cpu, str(exe)],
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr[:2000]
    return r.stdout


def run_isa_ext(exe, translate=None, max_steps=10_000_000):
    from isa_ext.sim import Simulator
    kw = {} if translate is None else {"translate": translate}
    sim = Simulator(**kw)
    sim.load_elf(str(exe))
    res = sim.run(max_steps=max_steps)
    assert res.stop == "exit", (res.stop, res.trap)
    return bytes(sim.state.stdout)


# FPSCR.FR (bit 45): QEMU 7.2 never sets it, isa_ext does per the book
# (docs/fpscr.md, "Known differences from QEMU 7.2")
FPSCR_FR = 1 << (63 - 45)


def compare(tmp_path, cases, cpu="power9", departure=None):
    """[(case index, register, qemu value, isa_ext value)] where they differ,
    run interpreted and with eager block translation (FPSCR.FR not compared).
    ``departure(case, register, qemu value)``: a mask of bits not to compare
    there (a documented departure of QEMU's from the book), or None."""
    import os
    exe = build(tmp_path, cases, cpu)
    want = parse(cases, run_qemu(exe, cpu))
    bad = []
    for mode in (False, "eager"):
        old = os.environ.get("ISA_EXT_TRANSLATE")
        if mode == "eager":
            os.environ["ISA_EXT_TRANSLATE"] = "eager"
        try:
            got = parse(cases, run_isa_ext(exe, translate=bool(mode)))
        finally:
            if old is None:
                os.environ.pop("ISA_EXT_TRANSLATE", None)
            else:
                os.environ["ISA_EXT_TRANSLATE"] = old
        for i, (w, g) in enumerate(zip(want, got)):
            for k in w:
                mask = ~FPSCR_FR if k == "fpscr" else -1
                extra = departure(cases[i], k, w[k]) if departure else None
                if extra is not None:
                    mask &= ~extra
                if w[k] & mask != g[k] & mask:
                    bad.append((i, mode, cases[i][1], k, hex(w[k]), hex(g[k])))
    return bad
