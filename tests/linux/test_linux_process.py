"""Process start and the system-call layer through the Python API, with
hand-assembled programs (GNU as) and expectations from the Linux ABI: the
ELFv2 initial stack (argc at r1, then argv, NULL, envp, NULL, auxv), the
ppc64 error convention (CR0.SO set, positive errno in r3), -ENOSYS listed in
the diagnostics, and the memory limit applied to brk and mmap."""
import os
import subprocess

import pytest

from conftest import need_tool
from isa_ext.sim import Simulator

ENOSYS, ENOMEM, EBADF = 38, 12, 9


def build(tmp_path, body):
    asm, ld = need_tool("powerpc64le-linux-gnu-as"), need_tool("powerpc64le-linux-gnu-ld")
    src = tmp_path / "p.s"
    src.write_text("        .abiversion 2\n        .globl _start\n_start:\n" + body)
    subprocess.run([asm, "-o", str(tmp_path / "p.o"), str(src)], check=True)
    subprocess.run([ld, "-static", "-o", str(tmp_path / "p"), str(tmp_path / "p.o")], check=True)
    return str(tmp_path / "p")


def words(sim, addr, n):
    return [sim.state.mem.read(addr + 8 * i, 8) for i in range(n)]


def cstr(sim, addr):
    out = b""
    while True:
        b = sim.state.mem.read_bytes(addr + len(out), 1)
        if b == b"\0":
            return out
        out += b


def test_initial_stack_and_registers(tmp_path):
    exe = build(tmp_path, "        li 0,1\n        sc\n")
    sim = Simulator().load_elf(exe, argv=["prog", "x y"], env={"A": "1", "B": "two"})
    s = sim.state
    sp = s.gpr[1]
    assert sp % 16 == 0
    argc, a0, a1, null, e0, e1, null2 = words(sim, sp, 7)
    assert (argc, null, null2) == (2, 0, 0)
    assert [cstr(sim, a) for a in (a0, a1)] == [b"prog", b"x y"]
    assert [cstr(sim, e) for e in (e0, e1)] == [b"A=1", b"B=two"]
    # r3..r6 = argc, argv, envp, auxv; r7 = 0; r12 = the entry (ELFv2)
    assert s.gpr[3:8] == [2, sp + 8, sp + 32, sp + 56, 0]
    assert s.gpr[12] == s.pc
    aux = {}
    addr = sp + 56
    while True:
        k, v = words(sim, addr, 2)
        addr += 16
        if k == 0:
            break
        aux[k] = v
    assert aux[6] == 4096 and aux[9] == s.pc             # AT_PAGESZ, AT_ENTRY
    assert cstr(sim, aux[31]) == exe.encode()            # AT_EXECFN
    assert aux[16] & 0x40000000 and aux[16] & 0x08000000  # AT_HWCAP: 64-bit, FPU
    assert len(sim.state.mem.read_bytes(aux[25], 16)) == 16  # AT_RANDOM
    ph = aux[3]                                          # AT_PHDR: the program headers
    assert s.mem.read(ph, 4) == 6 or s.mem.read(ph, 4) == 1  # PT_PHDR or PT_LOAD


def test_errors_set_cr0_so_and_unknown_calls_are_listed(tmp_path):
    # write(77, ...) -> EBADF; syscall 9999 -> ENOSYS; then exit(r3 of the last)
    exe = build(tmp_path, """        li 0,4
        li 3,77
        sc
        mfcr 20
        mr 21,3
        li 0,9999
        sc
        mfcr 22
        mr 23,3
        li 0,1
        sc
""")
    sim = Simulator().load_elf(exe)
    res = sim.run(max_steps=100)
    assert res.stop == "exit" and res.exit_status == ENOSYS
    s = sim.state
    assert (s.gpr[21], s.gpr[23]) == (EBADF, ENOSYS)
    assert s.gpr[20] >> 28 & 1 and s.gpr[22] >> 28 & 1     # CR0.SO
    assert [d.kind for d in res.diagnostics] == ["unsupported-syscall"]
    assert "9999" in str(res.diagnostics[0])


def test_success_clears_cr0_so(tmp_path):
    # set SO in CR0 first (cmp cannot; use mtcrf), then getpid
    exe = build(tmp_path, """        lis 9,0x1000
        mtcrf 0x80,9
        li 0,20
        sc
        mfcr 20
        li 0,1
        li 3,0
        sc
""")
    sim = Simulator().load_elf(exe)
    sim.run(max_steps=100)
    assert sim.state.gpr[20] >> 28 & 1 == 0


def test_brk_and_mmap_respect_the_memory_limit(tmp_path):
    # brk(0); brk(+32 MiB) with a 16 MiB limit keeps the old break; mmap 32 MiB -> ENOMEM
    exe = build(tmp_path, """        li 0,45
        li 3,0
        sc
        mr 20,3
        addis 3,20,0x200
        li 0,45
        sc
        mr 21,3
        li 0,90
        li 3,0
        lis 4,0x200
        li 5,3
        li 6,0x22
        li 7,-1
        li 8,0
        sc
        mr 22,3
        mfcr 23
        li 0,1
        sc
""")
    sim = Simulator(mem_limit=16 << 20).load_elf(exe)
    sim.run(max_steps=100)
    s = sim.state
    assert s.gpr[21] == s.gpr[20]
    assert s.gpr[22] == ENOMEM and s.gpr[23] >> 28 & 1


def test_stdin_bytes_and_captured_output(tmp_path):
    # read(0, sp-64, 16) then write(1, sp-64, n)
    exe = build(tmp_path, """        li 0,3
        li 3,0
        addi 4,1,-64
        li 5,16
        sc
        mr 5,3
        li 0,4
        li 3,1
        addi 4,1,-64
        sc
        li 0,1
        li 3,0
        sc
""")
    sim = Simulator().load_elf(exe, stdin=b"from stdin")
    res = sim.run(max_steps=100)
    assert res.stop == "exit" and bytes(sim.state.stdout) == b"from stdin"


@pytest.mark.parametrize("translate", [False, True])
def test_same_result_translated_or_not(tmp_path, translate):
    exe = build(tmp_path, """        li 0,20
        sc
        mr 31,3
        li 0,1
        sc
""")
    sim = Simulator(translate=translate).load_elf(exe)
    res = sim.run(max_steps=100)
    assert res.exit_status == 1000 & 0xFF


def test_elf_run_fixture(tmp_path, elf_run):
    # write(1, argv[1], 3) then exit(argc)
    exe = build(tmp_path, """        ld 4,16(1)
        li 0,4
        li 3,1
        li 5,3
        sc
        ld 3,0(1)
        li 0,1
        sc
""")
    r = elf_run(exe, argv=["p", "abcdef", "x"])
    assert (r.stdout, r.stderr, r.status) == (b"abc", b"", 3)


SCV_PROGRAM = """        bl 1f
        .ascii "scv!\\n"
        .balign 4
1:      mflr 4
        li 0,4
        li 3,1
        li 5,5
        scv 0
        mr 20,3
        li 0,4
        li 3,77
        scv 0
        neg 3,3
        add 3,3,20
        li 0,1
        scv 0
"""


@pytest.mark.parametrize("translate", [False, True])
def test_scv_returns_minus_errno(tmp_path, translate):
    # The kernel's scv ABI (Documentation/powerpc/syscall64-abi.rst): an error
    # comes back as -errno in r3.  write(1, "scv!\\n", 5) = 5, write(77, ...) =
    # -EBADF, so exit(5 + 9).  (QEMU 7.2's linux-user raises SIGILL on scv, so
    # it cannot be the oracle here.)
    asm = need_tool("powerpc64le-linux-gnu-as")
    src = tmp_path / "p.s"
    src.write_text("        .abiversion 2\n        .globl _start\n_start:\n" + SCV_PROGRAM)
    subprocess.run([asm, "-mpower9", "-o", str(tmp_path / "p.o"), str(src)], check=True)
    subprocess.run([need_tool("powerpc64le-linux-gnu-ld"), "-static", "-o", str(tmp_path / "p"),
                    str(tmp_path / "p.o")], check=True)
    sim = Simulator(translate=translate).load_elf(str(tmp_path / "p"))
    res = sim.run(max_steps=100)
    assert (bytes(sim.state.stdout), res.exit_status) == (b"scv!\n", 5 + EBADF)


def test_scv_outside_a_linux_program_traps(asm_run):
    res = asm_run("scv 0")
    assert res.stop == "trap" and "scv" in res.trap.reason


@pytest.mark.parametrize("translate", [False, True])
def test_time_base_reads_advance(asm_run, translate):
    # mfspr 268 (TB) twice and 269 (TBU): a counter at 512 MHz, 1 us a read
    res = asm_run("mfspr r3, 268\nmfspr r4, 268\nmfspr r5, 269")
    assert res.stop == "end"
    assert (res.gpr[3], res.gpr[4], res.gpr[5]) == (512, 1024, 0)
    res = asm_run("mtspr 268, r3")       # writing it is the supervisor's
    assert res.stop == "trap"


def test_dynamic_program_starts_in_its_interpreter(tmp_path):
    """A PIE linked against glibc: ld64.so.2 from the sysroot is loaded, the run
    starts at its entry, AT_BASE is where it went and AT_ENTRY/AT_PHDR are the
    program's, moved by the same amount (values from readelf)."""
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    readelf = need_tool("powerpc64le-linux-gnu-readelf")
    src = tmp_path / "d.c"
    src.write_text("int main(void) { return 0; }\n")
    exe = str(tmp_path / "d")
    subprocess.run([gcc, "-O2", "-o", exe, str(src)], check=True)
    sysroot = "/usr/powerpc64le-linux-gnu"
    heads = subprocess.run([readelf, "-lhW", exe], capture_output=True, text=True).stdout
    interp_heads = subprocess.run([readelf, "-hW", sysroot + "/lib64/ld64.so.2"],
                                  capture_output=True, text=True).stdout

    def field(text, name):
        return int(next(line for line in text.splitlines()
                        if line.strip().startswith(name)).split()[-1], 16)
    phdr = next(int(line.split()[2], 16) for line in heads.splitlines()
                if line.strip().startswith("PHDR"))
    sim = Simulator().load_elf(exe, sysroot=sysroot)
    s = sim.state
    sp = s.gpr[1]
    aux, addr = {}, s.gpr[6]
    while True:
        k, v = words(sim, addr, 2)
        addr += 16
        if k == 0:
            break
        aux[k] = v
    base = aux[7]
    assert base != 0 and s.pc == base + field(interp_heads, "Entry point address:")
    bias = aux[9] - field(heads, "Entry point address:")
    assert bias != 0 and aux[3] == phdr + bias
    assert words(sim, sp, 1) == [1]
    res = sim.run(max_steps=200_000)
    # ld.so runs (it opens libc through the sysroot) until glibc's first VSX
    # instruction or the end
    assert res.steps > 1000, res
    assert res.stop == "exit" or "no instruction matches" in res.trap.reason, res.trap


def test_dynamic_program_without_sysroot_is_refused(tmp_path):
    from isa_ext.errors import IsaExtError
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    src = tmp_path / "d.c"
    src.write_text("int main(void) { return 0; }\n")
    subprocess.run([gcc, "-O2", "-o", str(tmp_path / "d"), str(src)], check=True)
    with pytest.raises(IsaExtError, match="--sysroot"):
        Simulator().load_elf(str(tmp_path / "d"))


def test_host_files_are_closed_at_exit(tmp_path):
    # openat(AT_FDCWD, path, O_RDONLY) and exit without closing it
    (tmp_path / "f").write_text("x")
    exe = build(tmp_path, f"""        bl 1f
        .asciz "{tmp_path}/f"
        .balign 4
1:      mflr 4
        li 3,-100
        li 5,0
        li 0,286
        sc
        li 0,1
        sc
""")
    before = len(os.listdir("/proc/self/fd"))
    sim = Simulator().load_elf(exe, read=[str(tmp_path)])
    res = sim.run(max_steps=100)
    assert res.exit_status == 3           # the first free descriptor
    assert len(os.listdir("/proc/self/fd")) == before


# Each pass: getpid (succeeds: CR0.SO clear), mfcr; close(-1) (fails with
# EBADF: CR0.SO set, the Linux system call ABI), mfcr.  r8 counts SO after the
# failing call, r9 after the succeeding one: 40 and 0 over 40 passes, exit(r8
# + 100 * r9) = 40.  The loop is hot: its block, which holds both system calls
# and the mfcr after each, is translated after its first runs.
SO_AFTER_SYSCALLS = """
        li 8, 0
        li 9, 0
        li 7, 40
        mtctr 7
1:      li 0, 20
        sc
        mfcr 4
        rlwinm 4, 4, 4, 31, 31
        add 9, 9, 4
        li 0, 6
        li 3, -1
        sc
        mfcr 4
        rlwinm 4, 4, 4, 31, 31
        add 8, 8, 4
        bdnz 1b
        mulli 9, 9, 100
        add 3, 8, 9
        li 0, 1
        sc
"""


@pytest.mark.parametrize("translate", [False, True])
def test_a_block_reads_the_cr_a_system_call_set(tmp_path, translate):
    sim = Simulator(translate=translate).load_elf(build(tmp_path, SO_AFTER_SYSCALLS))
    sim.hot_after = 2
    res = sim.run(max_steps=10_000)
    assert (res.stop, res.exit_status) == ("exit", 40)
