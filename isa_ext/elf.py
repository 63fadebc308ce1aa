"""Load 64-bit PowerPC ELF executables (little- or big-endian), read by
:mod:`isa_ext.elf_file`.

PT_LOAD segments are copied into memory (the bss tail stays zero), the machine's
byte order follows the ELF's, execution starts at the entry point (ELFv1
big-endian: the entry points at a function descriptor holding the code address
and the TOC pointer for r2), and the program starts as a Linux process
(isa_ext/linux: argv, envp and auxiliary vector on the stack, the system-call
layer installed).  It runs until it exits (``sim.end = None``).
"""
import os

from .elf_file import ET_DYN, ElfFile, ElfFormatError
from .errors import IsaExtError
from .machine import State
from .symbols import FunctionMap

EM_PPC64 = 21
PT_LOAD = 1
PT_INTERP = 3
ELF64_HEADER_BYTES = 64


class ElfError(IsaExtError):
    pass


def is_elf(data):
    return data[:4] == b"\x7fELF"


PIE_BASE = 0x1000_0000           # where a position-independent program is placed
INTERP_BASE = 0x7FFF_E000_0000   # where the program interpreter (ld64.so.2) is placed


class _Image:
    """One ELF file as loaded: where it went and what the process start needs."""


def load_elf(sim, path, linux=None):
    """Load ``path`` and start it as a Linux process (``linux``: a
    LinuxOptions; default: argv = [path], the clean environment).  A program
    with PT_INTERP also gets its interpreter, found under ``linux.sysroot``."""
    main = _load_image(sim, path, main=True)
    interp = None
    if main.interp is not None:
        sysroot = getattr(linux, "sysroot", None)
        if not sysroot:
            raise ElfError(f"{path}: a dynamically linked program (PT_INTERP "
                           f"{main.interp}): give --sysroot DIR (its libraries' root, e.g. "
                           f"/usr/powerpc64le-linux-gnu) or link it -static")
        root = os.path.realpath(sysroot)
        host = os.path.realpath(os.path.join(root, main.interp.lstrip("/")))
        if not host.startswith(root + "/") or not os.path.isfile(host):
            raise ElfError(f"{path}: its interpreter {main.interp} is not in {sysroot}")
        interp = _load_image(sim, host, main=False)
    s = sim.state
    mem = s.mem
    start = interp.entry if interp is not None else main.entry
    if main.abi_v1 and interp is None:
        # ELFv1: e_entry is a function descriptor {code address, TOC, environment}
        s.gpr[2] = mem.read(start + 8, 8)
        start = mem.read(start, 8)
    else:
        # ELFv2: a function's global entry derives the TOC from r12, which the
        # kernel sets to the entry address
        s.gpr[12] = start
    s.pc = start
    _start_process(sim, path, linux, main, interp)
    # names for --trace: the functions of the program (and its interpreter)
    sim.symbols = {**(interp.symbols if interp is not None else {}), **main.symbols}
    sim.functions = FunctionMap(main.functions + (interp.functions if interp is not None else []))
    s.lr = 0
    sim.end = None
    sim.program_loaded()
    return sim


def _load_image(sim, path, main):
    img = _Image()
    with open(path, "rb") as f:
        data = f.read()
    size = len(data)
    try:
        elf = ElfFile(data)
        if elf.elfclass != 64 or elf.machine != EM_PPC64:
            raise ElfError(f"{path}: not a 64-bit PowerPC ELF "
                           f"({elf.elfclass}-bit {elf.machine_name()})")
        little = elf.little
        if main and sim.state.mem.little != little:
            sim.state = State(little=little, mem_limit=sim.state.mem.limit)
        elif not main and sim.state.mem.little != little:
            raise ElfError(f"{path}: the interpreter's byte order is not the program's")
        mem = sim.state.mem
        dyn = elf.e_type == ET_DYN
        img.bias = bias = (PIE_BASE if main else INTERP_BASE) if dyn else 0
        img.interp = None
        loaded = False
        img.highest, img.lowest, img.phdr = 0, None, None
        img.segments = []    # (address, memory size, PROT_* bits)
        img.pages = 0        # pages the PT_LOAD segments span
        for seg in elf.segments():
            if seg.p_type == PT_INTERP and main:
                img.interp = elf.segment_data(seg).split(b"\0")[0].decode("utf-8", "replace")
            if seg.p_type != PT_LOAD:
                continue
            # what the kernel checks before mapping: the bytes exist in the
            # file, the file part fits the memory part, the range fits 64 bits
            off, filesz, memsz = seg.p_offset, seg.p_filesz, seg.p_memsz
            vaddr = seg.p_vaddr + bias
            if off + filesz > size or filesz > memsz or vaddr + memsz > 1 << 64:
                raise ElfError(f"{path}: PT_LOAD segment (offset 0x{off:x}, file size "
                               f"0x{filesz:x}, memory size 0x{memsz:x}) does not fit")
            # the image's pages must fit the guest memory limit, as a kernel
            # refuses a bss beyond the memory it can commit (ENOMEM): page
            # tables over the whole span are kept per page
            span = ((vaddr + memsz + 0xFFF) >> 12) - (vaddr >> 12)
            img.pages += span
            if img.pages << 12 > mem.limit:
                raise ElfError(f"{path}: PT_LOAD segments need {img.pages << 12} bytes of "
                               f"memory, beyond the guest memory limit of {mem.limit} "
                               f"bytes (--mem-limit, Simulator(mem_limit=...))")
            mem.load(vaddr, elf.segment_data(seg))
            loaded = True
            img.highest = max(img.highest, vaddr + memsz)
            flags = seg.p_flags   # PF_X 1, PF_W 2, PF_R 4 -> PROT_READ 1, WRITE 2, EXEC 4
            prot = (flags & 4) >> 2 | (flags & 2) | (flags & 1) << 2
            img.segments.append((vaddr, memsz, prot))
            img.lowest = vaddr if img.lowest is None else min(img.lowest, vaddr)
            if off <= elf.e_phoff < off + filesz:
                img.phdr = vaddr + elf.e_phoff - off
        if not loaded:
            raise ElfError(f"{path}: no loadable segments")
        img.entry = elf.e_entry + bias
        img.phent, img.phnum = elf.e_phentsize, elf.e_phnum
        img.abi_v1 = not little and (elf.e_flags & 3) != 2
        img.symbols, img.functions = elf.function_symbols(bias)
    except (ElfFormatError, ValueError, OverflowError) as e:
        if size < ELF64_HEADER_BYTES:
            raise ElfError(f"{path}: truncated ELF file: {size} bytes, but a 64-bit "
                           f"ELF header alone is {ELF64_HEADER_BYTES}") from None
        raise ElfError(f"{path}: malformed ELF file ({e})") from None
    return img


def _start_process(sim, path, linux, main, interp):
    """The initial stack and registers of a Linux process, and its system
    calls (isa_ext/linux)."""
    from .linux import process
    from .linux.syscalls import LinuxProcess
    opts = linux or process.LinuxOptions()
    s = sim.state
    argv = opts.argv if opts.argv is not None else [path]
    enc = (lambda v: v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogateescape"))
    env = [enc(k) + b"=" + enc(v) for k, v in opts.env.items()]
    kernel = LinuxProcess(sim, path, opts, main.highest)
    kernel.fixed_regions = [(img.lowest & ~0xFFF, (img.highest + 0xFFF) & ~0xFFF)
                            for img in (main, interp) if img is not None]
    kernel.fixed_regions.append((process.STACK_TOP - process.STACK_LIMIT, process.STACK_TOP))
    if interp is not None:   # mmap must not place anything over the interpreter
        kernel.mappings[interp.lowest & ~0xFFF] = \
            ((interp.highest + 0xFFF) & ~0xFFF) - (interp.lowest & ~0xFFF)
    hwcap, hwcap2 = process.hwcaps(sim.isa)
    auxv = [(process.AT_PHDR, main.phdr or 0), (process.AT_PHENT, main.phent),
            (process.AT_PHNUM, main.phnum), (process.AT_PAGESZ, process.PAGE_SIZE),
            (process.AT_BASE, interp.bias if interp is not None else 0), (process.AT_FLAGS, 0),
            (process.AT_ENTRY, main.entry),
            (process.AT_UID, process.GUEST_UID), (process.AT_EUID, process.GUEST_UID),
            (process.AT_GID, process.GUEST_GID), (process.AT_EGID, process.GUEST_GID),
            (process.AT_SECURE, 0), (process.AT_CLKTCK, 100),
            (process.AT_HWCAP, hwcap), (process.AT_HWCAP2, hwcap2),
            (process.AT_DCACHEBSIZE, process.CACHE_LINE),
            (process.AT_ICACHEBSIZE, process.CACHE_LINE),
            (process.AT_UCACHEBSIZE, 0),
            (process.AT_L1I_CACHESIZE, process.L1_SIZE),
            (process.AT_L1I_CACHEGEOMETRY, process.L1_GEOMETRY),
            (process.AT_L1D_CACHESIZE, process.L1_SIZE),
            (process.AT_L1D_CACHEGEOMETRY, process.L1_GEOMETRY)]
    for img in (main, interp):
        if img is not None:
            _protect_segments(kernel, img.segments)
    random16 = kernel.rng.randbytes(16)
    process.build_stack(s, [enc(a) for a in argv], env, auxv, enc(path), random16)
    s.hashkeyr = process.hash_key(opts.seed)
    # the Time Base follows the process's monotonic clock (virtual or host)
    s.tb_clock_ns = lambda: kernel.now_ns(1)   # CLOCK_MONOTONIC
    s.syscall_handler = kernel.syscall
    s.mem.fault = kernel.fault
    sim.linux = kernel


def _protect_segments(kernel, segments):
    """Each page of the images as its segments' flags say (a segment without
    PF_W is read-only).  A page two segments share gets both's rights, where
    Linux gives it the later mapping's: never a fault Linux would not raise."""
    rights = {}
    for addr, size, prot in segments:
        for k in range(addr >> 12, (addr + size + 0xFFF) >> 12):
            rights[k] = rights.get(k, 0) | prot
    for k, prot in sorted(rights.items()):
        if not prot & 2:
            kernel.protect(k << 12, 0x1000, prot)
