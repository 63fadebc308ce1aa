"""Load static 64-bit PowerPC ELF executables (little- or big-endian) with pyelftools.

PT_LOAD segments are copied into memory (the bss tail stays zero), the machine's
byte order follows the ELF's, execution starts at the entry point (ELFv1
big-endian: the entry points at a function descriptor holding the code address
and the TOC pointer for r2), and r1 points into zeroed memory below
``STACK_TOP`` (the stack grows down from there).  The program runs until it exits (``sim.end = None``).
"""
import os
import struct

from .errors import IsaExtError
from .machine import State

EM_PPC64 = 21
PT_LOAD = 1
ELF64_HEADER_BYTES = 64
STACK_TOP = 0x7FFF_FFFF_0000
# room above the initial r1 (Linux puts argc, argv, envp, auxv there)
STACK_RESERVED = 512


class ElfError(IsaExtError):
    pass


def is_elf(data):
    return data[:4] == b"\x7fELF"


def load_elf(sim, path):
    try:
        from elftools.elf.elffile import ELFFile
        from elftools.common.exceptions import ELFError
    except ImportError:  # pragma: no cover - pyelftools is a dependency
        raise ElfError("pyelftools is needed to load ELF files (pip install pyelftools)")
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        try:
            elf = ELFFile(f)
            header = elf.header
            if elf.elfclass != 64 or header["e_machine"] != "EM_PPC64":
                raise ElfError(f"{path}: not a 64-bit PowerPC ELF "
                               f"({elf.elfclass}-bit {header['e_machine']})")
            little = elf.little_endian
            if sim.state.mem.little != little:
                sim.state = State(little=little, mem_limit=sim.state.mem.limit)
            mem = sim.state.mem
            loaded = False
            for seg in elf.iter_segments():
                if seg["p_type"] != "PT_LOAD":
                    continue
                # what the kernel checks before mapping: the bytes exist in the
                # file, the file part fits the memory part, the range fits 64 bits
                off, filesz, memsz = seg["p_offset"], seg["p_filesz"], seg["p_memsz"]
                if off + filesz > size or filesz > memsz or seg["p_vaddr"] + memsz > 1 << 64:
                    raise ElfError(f"{path}: PT_LOAD segment (offset 0x{off:x}, file size "
                                   f"0x{filesz:x}, memory size 0x{memsz:x}) does not fit")
                data = seg.data()
                mem.load(seg["p_vaddr"], data[:seg["p_filesz"]])
                loaded = True
            if not loaded:
                raise ElfError(f"{path}: no loadable segments")
            entry = header["e_entry"]
            abi_v1 = not little and (header["e_flags"] & 3) != 2
        except (ELFError, ValueError, OverflowError, OSError, struct.error) as e:
            # pyelftools reports a corrupt header in any of these (OSError: a seek
            # past the end)
            size = os.path.getsize(path)
            if size < ELF64_HEADER_BYTES:
                raise ElfError(f"{path}: truncated ELF file: {size} bytes, but a 64-bit "
                               f"ELF header alone is {ELF64_HEADER_BYTES}") from None
            raise ElfError(f"{path}: malformed ELF file (pyelftools: {e})") from None
    s = sim.state
    if abi_v1:
        # ELFv1: e_entry is a function descriptor {code address, TOC, environment}
        s.gpr[2] = mem.read(entry + 8, 8)
        entry = mem.read(entry, 8)
    else:
        # ELFv2: a function's global entry derives the TOC from r12, which the
        # kernel sets to the entry address
        s.gpr[12] = entry
    s.pc = entry
    # r1 -> argc = 0, then null argv/envp/auxv: memory is zero where unwritten
    s.gpr[1] = STACK_TOP - STACK_RESERVED
    s.lr = 0
    sim.end = None
    sim.invalidate()
    return sim
