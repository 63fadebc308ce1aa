"""Static ELF programs built by GCC, run under qemu-user (the oracle) and under
isa_ext: same stdout and exit status, little- and big-endian (ELFv1)."""
import subprocess

import pytest

from conftest import need_tool
from isa_ext.sim import Simulator

HI_C = r"""
static long sys3(long n, long a, long b, long c)
{
    register long r0 __asm__("r0") = n;
    register long r3 __asm__("r3") = a;
    register long r4 __asm__("r4") = b;
    register long r5 __asm__("r5") = c;
    __asm__ volatile("sc" : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
                     : : "memory", "cr0", "r6", "r7", "r8", "r9", "r10", "r11", "r12");
    return r3;
}

void _start(void)
{
    static const char msg[] = "hi\n";
    sys3(4, 1, (long)msg, 3);   /* write(1, msg, 3) */
    sys3(1, 3, 0, 0);           /* exit(3) */
    for (;;) ;
}
"""

VARIANTS = {
    "le": ([], "qemu-ppc64le"),
    "be": (["-mbig-endian", "-mabi=elfv1"], "qemu-ppc64"),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("elf")
    (d / "hi.c").write_text(HI_C)
    return d


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_static_elf_matches_qemu(built, variant):
    flags, qemu = VARIANTS[variant]
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    exe = built / f"hi-{variant}"
    subprocess.run([gcc, "-nostdlib", "-static", "-O2", *flags, "-o", str(exe),
                    str(built / "hi.c")], check=True, capture_output=True)
    oracle = subprocess.run([need_tool(qemu), str(exe)], capture_output=True, timeout=60)
    assert (oracle.stdout, oracle.returncode) == (b"hi\n", 3)

    sim = Simulator()
    sim.load_elf(str(exe))
    assert sim.state.mem.little == (variant == "le")
    res = sim.run(max_steps=10_000)
    assert res.stop == "exit", res.trap
    assert res.stdout == oracle.stdout
    assert res.exit_status == oracle.returncode


def test_not_an_elf_for_powerpc(tmp_path):
    from isa_ext.errors import IsaExtError
    import shutil
    import sys
    # the Python interpreter is an ELF for another machine (or not an ELF at all)
    path = tmp_path / "other"
    shutil.copy(sys.executable if open(sys.executable, "rb").read(4) == b"\x7fELF"
                else __file__, path)
    with pytest.raises(IsaExtError):
        Simulator().load_elf(str(path))


def _elf_with_bss(memsz):
    """A static little-endian ELF64, one PT_LOAD of 0x7c file bytes and
    ``memsz`` memory bytes at 0x10000000 (System V gABI layout), entry li r3,1."""
    import struct
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    ehdr += struct.pack("<HHIQQQIHHHHHH", 2, 21, 1, 0x10000078, 64, 0, 2, 64, 56, 1, 0, 0, 0)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x10000000, 0x10000000, 0x7c, memsz, 0x10000)
    return ehdr + phdr + b"\x01\x00\x60\x38"


@pytest.mark.parametrize("memsz,fits", [(0x7c, True), (64 << 20, True),
                                        ((64 << 20) + 1, False), (0x5900_0000_007c, False)])
def test_an_image_beyond_the_memory_limit_is_refused(tmp_path, memsz, fits):
    # a read-only segment of 97 TB once held the fuzzing worker's memory until
    # it was killed: the segments' pages (0x10000000 is page-aligned, so
    # memsz rounded up to 4096) are weighed against the limit before anything
    from isa_ext.errors import IsaExtError
    path = tmp_path / "big.elf"
    path.write_bytes(_elf_with_bss(memsz))
    sim = Simulator(mem_limit=64 << 20)
    if fits:
        sim.load_elf(str(path))
        sim.run(max_steps=1)
        assert sim.state.gpr[3] == 1
    else:
        with pytest.raises(IsaExtError, match="beyond the guest memory limit of 67108864"):
            sim.load_elf(str(path))
