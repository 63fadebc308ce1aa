"""Process start as Linux lays it out for a ppc64 ELF (fs/binfmt_elf.c
create_elf_tables): from the stack top down, the file name, the platform
string and 16 random bytes, the argument and environment strings, then (16-byte
aligned) argc, argv[], NULL, envp[], NULL and the auxiliary vector of
(type, value) pairs ending in AT_NULL.  r1 points at argc; r3..r6 hold argc,
argv, envp and auxv as QEMU's linux-user sets them, r7 = 0 (no rtld_fini),
r12 = the entry point (ELFv2 global entry)."""
from ..records import record, factory

STACK_TOP = 0x7FFF_FFFF_0000
STACK_LIMIT = 8 << 20          # RLIMIT_STACK, as Linux's default
PAGE_SIZE = 4096
CACHE_LINE = 128               # POWER's L1 line (AT_DCACHEBSIZE and friends)
L1_SIZE = 32 << 10             # POWER9's L1 caches: 32 KiB, 8-way, 128-byte lines
L1_GEOMETRY = (8 << 16) | CACHE_LINE   # (associativity << 16) | line size

AT_NULL, AT_PHDR, AT_PHENT, AT_PHNUM, AT_PAGESZ, AT_BASE = 0, 3, 4, 5, 6, 7
AT_FLAGS, AT_ENTRY, AT_UID, AT_EUID, AT_GID, AT_EGID = 8, 9, 11, 12, 13, 14
AT_PLATFORM, AT_HWCAP, AT_CLKTCK, AT_SECURE = 15, 16, 17, 23
AT_RANDOM, AT_HWCAP2, AT_EXECFN = 25, 26, 31
AT_DCACHEBSIZE, AT_ICACHEBSIZE, AT_UCACHEBSIZE = 19, 20, 21
AT_L1I_CACHESIZE, AT_L1I_CACHEGEOMETRY = 40, 41
AT_L1D_CACHESIZE, AT_L1D_CACHEGEOMETRY = 42, 43

# arch/powerpc/include/uapi/asm/cputable.h
PPC_FEATURE_32, PPC_FEATURE_64 = 0x80000000, 0x40000000
PPC_FEATURE_HAS_ALTIVEC, PPC_FEATURE_HAS_FPU = 0x10000000, 0x08000000
PPC_FEATURE_HAS_MMU, PPC_FEATURE_HAS_VSX = 0x04000000, 0x00000080
PPC_FEATURE_ARCH_2_05, PPC_FEATURE_ARCH_2_06 = 0x00001000, 0x00000100
PPC_FEATURE_HAS_DFP, PPC_FEATURE_TRUE_LE = 0x00000400, 0x00000002
PPC_FEATURE2_ARCH_2_07, PPC_FEATURE2_HTM = 0x80000000, 0x40000000
PPC_FEATURE2_ISEL, PPC_FEATURE2_TAR = 0x08000000, 0x04000000
PPC_FEATURE2_VEC_CRYPTO, PPC_FEATURE2_ARCH_3_00 = 0x02000000, 0x00800000
PPC_FEATURE2_HAS_IEEE128, PPC_FEATURE2_DARN = 0x00400000, 0x00200000
PPC_FEATURE2_SCV, PPC_FEATURE2_ARCH_3_1 = 0x00100000, 0x00040000
PPC_FEATURE2_MMA = 0x00020000

# What each AT_HWCAP / AT_HWCAP2 bit promises, as the instructions the ISA
# must have (and the extension they come from): a bit is advertised only when
# the simulator's ISA has every one, so glibc never chooses code isa_ext
# cannot run.  A facility is named by its characteristic instructions; an
# architecture level by instructions it added in each of its categories
# (docs/linux.md lists the bits).  Always set: 64-bit (and 32-bit mode), an
# MMU, true little-endian.  Never: HTM (no transactional memory), and bits of
# other processors or of facilities no row describes (SPE, DSCR, EBB...).
ALWAYS_HWCAP = PPC_FEATURE_32 | PPC_FEATURE_64 | PPC_FEATURE_HAS_MMU | PPC_FEATURE_TRUE_LE
_VMX = "lvx stvx lvsl vaddubm vperm vsldoi vspltw vmaddfp vcmpequb. mfvscr mtvscr"
_VSX = "lxvd2x stxvd2x lxsdx xxlor xxpermdi xsadddp xsmaddadp xvadddp xvmaddadp"
HWCAP_NEEDS = {
    PPC_FEATURE_HAS_FPU: (None, "lfd stfd fadd fmul fdiv fsqrt fmadd fcmpu mffs mtfsf"),
    PPC_FEATURE_HAS_ALTIVEC: ("vector", _VMX),
    PPC_FEATURE_HAS_VSX: ("vector", _VSX),
    PPC_FEATURE_HAS_DFP: (None, "dadd dmul ddiv dcmpu dqua"),
    PPC_FEATURE_ARCH_2_05: (None, "cmpb popcntb prtyw prtyd lfiwax fcpsgn frin lfdp stfdp"),
    PPC_FEATURE_ARCH_2_06: ("vector", "popcntd ldbrx divwe divde bpermd lfiwzx isel "
                            + _VMX + " " + _VSX),
}
HWCAP2_NEEDS = {
    PPC_FEATURE2_HTM: None,
    PPC_FEATURE2_ISEL: (None, "isel"),
    PPC_FEATURE2_TAR: (None, "bctar mtspr mfspr"),   # and SPR 815 (machine.SPR_ATTRS)
    PPC_FEATURE2_DARN: (None, "darn"),
    PPC_FEATURE2_SCV: (None, "scv"),                  # served by the Linux layer
    PPC_FEATURE2_VEC_CRYPTO: ("vector", "vcipher vcipherlast vncipher vshasigmaw vpmsumd "
                              "vpermxor"),
    PPC_FEATURE2_ARCH_2_07: ("vector", "lqarx stqcx. mfvsrd mtvsrd mfvsrwz lxsiwax stxsiwx "
                             "xsaddsp vaddudm vpkudum vmrgew vbpermq vclzd vpopcntd "
                             "vaddcuq bctar"),
    PPC_FEATURE2_HAS_IEEE128: ("vector", "xsaddqp xsmulqp xsdivqp xscvdpqp"),
    PPC_FEATURE2_ARCH_3_00: ("vector", "darn cnttzd modsd maddld setb cmprb cmpeqb addpcis "
                             "lxv stxv lxvl stxvl xxperm xxextractuw vextublx mtvsrdd "
                             "vclzlsbb xscmpexpdp"),
    PPC_FEATURE2_ARCH_3_1: ("vector", "paddi plxv pstxv brh brw setbc setnbc lxvp stxvp "
                            "xxgenpcvbm vextractbm vclrlb mtvsrbm"),
    PPC_FEATURE2_MMA: ("vector", "xvi8ger4 xxmfacc xxmtacc"),
}


def _has_all(isa, needs):
    if needs is None:
        return False
    extension, mnemonics = needs
    if extension is not None and extension not in getattr(isa, "extensions", ()):
        return False
    names = getattr(isa, "by_mnemonic", {})   # prefixed rows too
    return all(m in names for m in mnemonics.split())


def hwcaps(isa):
    """(AT_HWCAP, AT_HWCAP2): exactly the facilities the simulator's ISA has."""
    from ..machine import SPR_ATTRS
    cap = ALWAYS_HWCAP | sum(b for b, n in HWCAP_NEEDS.items() if _has_all(isa, n))
    cap2 = sum(b for b, n in HWCAP2_NEEDS.items() if _has_all(isa, n)
               and (b != PPC_FEATURE2_TAR or 815 in SPR_ATTRS))
    return cap, cap2


GUEST_UID = GUEST_GID = 1000   # a fixed, unprivileged identity (reproducible)


@record
class LinuxOptions:
    """What a Linux process starts with (``isa-ext run`` flags, the API's
    ``Simulator.load_elf(path, argv=, env=, ...)``)."""
    argv: list = None            # default: [program path]
    env: dict = factory(lambda: dict(DEFAULT_ENV))
    read: tuple = ()             # host directories the guest may read
    write: tuple = ()            # host directories the guest may write
    cwd: str = None              # the guest's working directory (host cwd)
    seed: int = 0                # getrandom, AT_RANDOM
    clock: str = "virtual"       # "virtual" (deterministic) or "host"
    sysroot: str = None          # the dynamic loader's and libraries' root (qemu -L)
    stdin: object = b""          # bytes, or a host file descriptor (int)
    stdout: object = None        # None: collect in State.stdout; else a binary stream
    stderr: object = None


DEFAULT_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C"}


def hash_key(seed):
    """The process's hashst/hashchk key (HASHKEYR): Linux draws one per
    process, here from the run's ``--seed`` (so runs repeat), apart from
    getrandom's stream so that the bytes a program reads do not change."""
    import random   # (an ELF's start: 2 ms a run of assembly need not take)
    return random.Random(f"HASHKEYR {seed}").getrandbits(64)


def build_stack(s, argv, env, auxv, execfn, random16, platform=b"power9"):
    """Write the initial stack into ``s.mem``; set r1 and r3..r7.  ``auxv`` is
    [(type, value)] without AT_RANDOM/AT_PLATFORM/AT_EXECFN (added here)."""
    mem = s.mem
    sp = STACK_TOP

    def push_bytes(data):
        nonlocal sp
        sp -= len(data)
        mem.load(sp, data)
        return sp

    execfn_addr = push_bytes(execfn + b"\0")
    platform_addr = push_bytes(platform + b"\0")
    sp &= ~15
    random_addr = push_bytes(random16)
    env_addrs = [push_bytes(e + b"\0") for e in env]
    arg_addrs = [push_bytes(a + b"\0") for a in argv]
    auxv = list(auxv) + [(AT_RANDOM, random_addr), (AT_PLATFORM, platform_addr),
                         (AT_EXECFN, execfn_addr), (AT_NULL, 0)]
    words = [len(argv)] + arg_addrs + [0] + env_addrs + [0]
    for k, v in auxv:
        words += [k, v]
    sp = (sp - 8 * len(words)) & ~15
    for i, w in enumerate(words):
        mem.write(sp + 8 * i, 8, w)
    s.gpr[1] = sp
    s.gpr[3] = len(argv)
    s.gpr[4] = sp + 8
    s.gpr[5] = sp + 8 * (len(argv) + 2)
    s.gpr[6] = sp + 8 * (len(argv) + len(env) + 3)
    s.gpr[7] = 0
    return sp
