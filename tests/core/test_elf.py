"""Static ELF programs built by GCC, run under qemu-user (the oracle) and under
isa_ext: same stdout and exit status, little- and big-endian (ELFv1)."""
import re
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


READELF_SYMBOL = re.compile(r"^\s*\d+: ([0-9a-f]+)\s+(\d+|0x[0-9a-f]+) FUNC\s+\w+\s+\w+"
                            r"(?:\s+\[<localentry>: (\d+)\])?\s+\S+\s+(\S+)$")
READELF_LOAD = re.compile(r"^\s*LOAD\s+0x([0-9a-f]+) 0x([0-9a-f]+) 0x[0-9a-f]+ "
                          r"0x([0-9a-f]+) 0x([0-9a-f]+) ([RWE ]{3})")


@pytest.mark.parametrize("kind", ["static", "dynamic"])
def test_segments_and_function_symbols_as_readelf_reads_them(tmp_path, kind):
    # isa_ext.elf_file against GNU readelf on glibc programs: the PT_LOAD
    # segments, and .symtab's functions (address, size, name, ELFv2 local entry)
    from conftest import glibc_builds
    from isa_ext.elf_file import ElfFile, PT_LOAD
    source = tmp_path / "f.c"
    source.write_text("#include <stdio.h>\nlong g;\n"
                      "long f(long x) { return x + g; }\n"
                      "int main(void) { printf(\"%ld\\n\", f(2)); return 0; }\n")
    exe = glibc_builds(tmp_path, str(source))[kind]
    readelf = need_tool("powerpc64le-linux-gnu-readelf")
    symbols = subprocess.run([readelf, "-sW", exe], capture_output=True, text=True,
                             check=True).stdout
    symtab = symbols[symbols.index("'.symtab'"):]
    want = []
    for line in symtab.splitlines():
        m = READELF_SYMBOL.match(line)
        if m and int(m.group(1), 16):
            want.append((int(m.group(1), 16), int(m.group(2), 0), m.group(4),
                         int(m.group(3) or 0)))
    assert len(want) > 5 and any(local == 8 for *_, local in want)
    elf = ElfFile(open(exe, "rb").read())
    entries, extents = elf.function_symbols(bias=0x1000)
    assert extents == [(addr + 0x1000, size, name) for addr, size, name, _ in want]
    # each function by its entry, and by its local entry (readelf prints its
    # offset in bytes; 1 is the ABI's "no separate local entry"); of
    # functions sharing an address, the first in the table names it
    named = {}
    for addr, _size, name, local in want:
        named.setdefault(addr + 0x1000, name)
        if local >= 2:
            named.setdefault(addr + 0x1000 + local, name)
    assert entries == named
    program = subprocess.run([readelf, "-lW", exe], capture_output=True, text=True,
                             check=True).stdout
    loads = [(int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16),
              int(m.group(4), 16), m.group(5).strip())
             for m in map(READELF_LOAD.match, program.splitlines()) if m]
    flags = {"R": 4, "W": 2, "E": 1}
    assert loads and [(s.p_offset, s.p_vaddr, s.p_filesz, s.p_memsz, s.p_flags)
                      for s in elf.segments() if s.p_type == PT_LOAD] == \
        [(o, v, fs, ms, sum(flags[c] for c in f if c != " ")) for o, v, fs, ms, f in loads]


def test_a_symbol_table_name_on_another_kind_of_section_names_nothing(tmp_path):
    # a section called .symtab that is not a symbol table (a corrupt or
    # hand-made file): pyelftools raised AttributeError (a traceback); the
    # program loads and runs, no function named
    import struct
    code = b"\x01\x00\x60\x38"                       # li r3,1
    names = b"\0.symtab\0.shstrtab\0"
    body_end = 0x78 + len(code)
    shoff = body_end + len(names)
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    ehdr += struct.pack("<HHIQQQIHHHHHH", 2, 21, 1, 0x10000078, 64, shoff, 2, 64, 56, 1,
                        64, 3, 2)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x10000000, 0x10000000, body_end, body_end,
                       0x10000)
    sections = bytes(64)
    sections += struct.pack("<IIQQQQIIQQ", 1, 1, 0, 0, 0x78, 4, 0, 0, 4, 24)    # PROGBITS
    sections += struct.pack("<IIQQQQIIQQ", 9, 3, 0, 0, body_end, len(names), 0, 0, 1, 0)
    path = tmp_path / "odd.elf"
    path.write_bytes(ehdr + phdr + code + names + sections)
    sim = Simulator()
    sim.load_elf(str(path))
    assert sim.symbols == {}
    sim.run(max_steps=1)
    assert sim.state.gpr[3] == 1
