"""AT_HWCAP / AT_HWCAP2 advertise exactly what the simulator's ISA runs: a
bit is set only when the ISA has the instructions (and extension) behind it.
Bit values: Linux arch/powerpc/include/uapi/asm/cputable.h."""
import types

from isa_ext.isa import ISA
from isa_ext.linux.process import hwcaps

PPC_FEATURE_64, HAS_ALTIVEC, HAS_FPU = 0x40000000, 0x10000000, 0x08000000
HAS_MMU, HAS_VSX, TRUE_LE, ARCH_2_06, HAS_DFP = 0x04000000, 0x80, 0x2, 0x100, 0x400
F2_ARCH_2_07, F2_HTM, F2_ISEL, F2_TAR = 0x80000000, 0x40000000, 0x08000000, 0x04000000
F2_ARCH_3_00, F2_DARN, F2_SCV, F2_ARCH_3_1, F2_MMA = 0x800000, 0x200000, 0x100000, 0x40000, 0x20000


def without(isa, *mnemonics, extensions=None):
    """An ISA view lacking some rows (or extensions)."""
    names = {m: r for m, r in isa.by_mnemonic.items() if m not in mnemonics}
    return types.SimpleNamespace(by_mnemonic=names,
                                 extensions=isa.extensions if extensions is None else extensions)


def test_base_isa_has_no_vector_bits():
    cap, cap2 = hwcaps(ISA(extensions=["base"]))
    assert cap & (PPC_FEATURE_64 | HAS_FPU | HAS_MMU | TRUE_LE) == \
        PPC_FEATURE_64 | HAS_FPU | HAS_MMU | TRUE_LE
    assert not cap & (HAS_ALTIVEC | HAS_VSX | ARCH_2_06 | HAS_DFP)
    # isel, darn, scv (served by the Linux layer), bctar with the TAR SPR are base rows
    assert cap2 & (F2_ISEL | F2_DARN | F2_SCV | F2_TAR) == F2_ISEL | F2_DARN | F2_SCV | F2_TAR
    assert not cap2 & (F2_HTM | F2_ARCH_2_07 | F2_ARCH_3_00 | F2_ARCH_3_1 | F2_MMA)


def test_each_bit_follows_its_rows():
    isa = ISA()
    cap, cap2 = hwcaps(isa)
    assert not cap2 & F2_HTM           # never: no transactional memory
    assert not cap & HAS_DFP           # no decimal floating point rows
    # a bit drops with any instruction behind it, or with its extension
    assert hwcaps(without(isa, "isel"))[1] & F2_ISEL == 0
    assert hwcaps(without(isa, "darn"))[1] & F2_DARN == 0
    assert hwcaps(without(isa, "scv"))[1] & F2_SCV == 0
    assert hwcaps(without(isa, "fsqrt"))[0] & HAS_FPU == 0
    if cap & HAS_VSX:
        assert hwcaps(without(isa, "xxpermdi"))[0] & HAS_VSX == 0
        assert hwcaps(without(isa, extensions=["base"]))[0] & HAS_VSX == 0
    # the architecture levels promise their VMX and VSX, which the vector
    # extension brings
    for lost in (without(isa, "lxvd2x"), without(isa, "vperm")):
        assert hwcaps(lost)[0] & ARCH_2_06 == 0
    # the flip side: with every row a bit names, the bit is set
    full = types.SimpleNamespace(by_mnemonic=_Everything(), extensions=["base", "vector"])
    c, c2 = hwcaps(full)
    assert c & (HAS_ALTIVEC | HAS_VSX | ARCH_2_06) == HAS_ALTIVEC | HAS_VSX | ARCH_2_06
    assert c2 & (F2_ARCH_2_07 | F2_ARCH_3_00 | F2_ARCH_3_1 | F2_MMA) == \
        F2_ARCH_2_07 | F2_ARCH_3_00 | F2_ARCH_3_1 | F2_MMA
    assert not c2 & F2_HTM


class _Everything(dict):
    def __contains__(self, key):
        return True


def test_process_start_passes_them(tmp_path):
    """The auxiliary vector of a started program holds the same two words."""
    from test_linux_process import build, words
    from isa_ext.sim import Simulator
    exe = build(tmp_path, "        li 0,1\n        sc\n")
    for extensions in (["base"], None):
        sim = Simulator(extensions=extensions).load_elf(exe)
        addr = sim.state.gpr[6]
        aux = {}
        while True:
            k, v = words(sim, addr, 2)
            addr += 16
            if k == 0:
                break
            aux[k] = v
        assert (aux[16], aux[26]) == hwcaps(sim.isa)   # AT_HWCAP, AT_HWCAP2
        if extensions == ["base"]:
            assert not aux[16] & HAS_VSX
