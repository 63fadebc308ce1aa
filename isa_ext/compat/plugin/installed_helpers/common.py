"""isa_ext's helpers for openpower-isa (copied by `isa-ext openpower install` into
src/openpower/decoder/isa_ext_helpers.py, removed by `isa-ext openpower uninstall`).

This file runs inside openpower-isa (PyPy 3.9): it must not import isa_ext.  The
plugin appends ``SV_ROWS``, the facts of each installed SVP64 form that ISACaller's
own decoder cannot give (it has no RM category for them): the register file, and
the bits of the destination / source fields in the suffix.

The functions are attached to ISACallerHelper, so generated pages call them as
``self.NAME(...)``; ``self`` is then the running ISACaller.

The module is installed in parts, one per extension, concatenated in this
order into one file: this one (the hook ISA_EXT_SV_CALL, SVP64 prefix
decoding, the page dialect's integer helpers, ``install``), then
:mod:`.swizzle`'s and :mod:`.gpu`'s.  Each part lists the helpers it
provides by adding them to ``PROVIDED``; lines marked ``# one module when
installed`` (the parts' imports of this one) are left out of the copy.
"""
import math
import struct

from openpower.decoder.selectable_int import SelectableInt


class IsaExtIllegal(Exception):
    """An isa_ext extension instruction's ILLEGAL(reason): raised before the
    page writes any register, so the instruction is aborted, nothing written."""


class IsaExtLaneTrap(Exception):
    """TRAP_AT_LANE(i, reason) of a vector-scope page (isa_ext/ext/gpu/vector_scope.py):
    a trap part-way through the lanes; memory the earlier lanes wrote stays,
    register results are discarded (the scope never commits)."""


def ILLEGAL(self, reason=""):
    raise IsaExtIllegal(str(reason))


def ISA_EXT_SCALAR_ONLY(self, name):
    """A page whose SVP64 form is not installed: ISACaller would run it per element
    on the raw (EXTRA-less) fields, so under a prefix it traps instead."""
    if self.is_svp64_mode:
        raise IsaExtIllegal(f"{name}: its SVP64 form is not installed in openpower-isa")


SV_ROWS = {}  # replaced by the plugin's data block at the end of this file
M64 = (1 << 64) - 1
INT_ELWIDTH = {0: 64, 1: 32, 2: 16, 3: 8}
# floating: (bits, 1.0 in that format); 0b11 is bf16 (isa_ext/ext/swizzle/sv.py)
FP_ELWIDTH = {0: (64, 0x3FF0_0000_0000_0000), 1: (32, 0x3F80_0000), 2: (16, 0x3C00),
              3: (16, 0x3F80)}
CR_PRED_FIELD0 = 4  # ISACaller's SVP64CROffs.CRPred: CR predicates test CR4 + i


def _bits(value, first, last, width):
    """MSB0 bits first..last of a ``width``-bit value."""
    return (value >> (width - 1 - last)) & ((1 << (last - first + 1)) - 1)


def _word(self, addr):
    return self.imem.ld(addr, 4, False, True, instr_fetch=True) & 0xFFFF_FFFF


def _prefix_rm(prefix):
    """RM[0:23] of a prefix word: RM[0] = bit 6, RM[1] = bit 8, RM[2:23] = bits 10:31."""
    return (_bits(prefix, 6, 6, 32) << 23) | (_bits(prefix, 8, 8, 32) << 22) | \
        (prefix & ((1 << 22) - 1))


def _extra2(field5, spec):
    """(register, is_vector) of a 5-bit field with its EXTRA2 spec: 0b0x scalar
    r0-63 (x = bit 5), 0b1x vector r0-126 step 2 (x = bit 1), as in svp64's EXTRA2."""
    if spec >> 1:
        return (field5 << 2) | ((spec & 1) << 1), True
    return ((spec & 1) << 5) | field5, False


def _predicate(self, mmode, code, vl):
    """Bit i set: element i enabled (SVP64 MASK / MASK_SRC, ISACaller's registers)."""
    if mmode:
        bit, want = {0: (0, 1), 1: (0, 0), 2: (1, 1), 3: (1, 0), 4: (2, 1), 5: (2, 0),
                     6: (3, 1), 7: (3, 0)}[code]
        if CR_PRED_FIELD0 + vl > len(self.crl):
            raise IsaExtIllegal(f"CR predicate over VL={vl}: CR{CR_PRED_FIELD0}+i runs past "
                                f"CR{len(self.crl) - 1}, the last CR field ISACaller has")
        out = 0
        for i in range(vl):
            if self.crl[CR_PRED_FIELD0 + i][bit].value == want:
                out |= 1 << i
        return out
    r3, r10, r30 = (self.gpr(n).value for n in (3, 10, 30))
    return {0: M64, 1: 1 << (r3 & 63), 2: r3, 3: ~r3 & M64, 4: r10, 5: ~r10 & M64,
            6: r30, 7: ~r30 & M64}[code]


def _plain_hf_mode(self_, rm, not_plain, not_hf):
    """The RM mode bits of a prefix whose category runs only the plain mode
    (sz/dz zeroing, RM[19:23] < 4) horizontal-first; else the matching trap."""
    mode = _bits(rm, 19, 23, 24)
    if mode >> 2:
        raise IsaExtIllegal(not_plain)
    if self_.svstate.vfirst:
        raise IsaExtIllegal(not_hf)
    return mode


def _register(n):
    """A register number inside the file: past 127 traps (as isa_ext does), never wraps."""
    if n > 127:
        raise IsaExtIllegal(f"register {n} is past the last register (127)")
    return n


def _offsets(step, n, vl, planar, vector):
    """Element offsets of sub-elements 0..n-1 of group ``step``: interleaved
    step*n + k, planar k*VL + step; a scalar operand is always its first group."""
    if not vector:
        step = 0
    return [k * vl + step if planar else step * n + k for k in range(n)]



def _int(value):
    return value.value if isinstance(value, SelectableInt) else int(value)



def ISA_EXT_SV_CALL(self, ins_name, info):
    """Called by the plugin's hook in ISACaller.call() for every instruction, before
    its SVP64 element loop.  An installed group walk (under a prefix) or
    vector-scope instruction (with or without one) runs its page once (the page
    writes through helpers; it returns nothing for ISACaller to write) and returns
    True: the hook then ends the instruction.  Horizontal-first, so the steps end
    at 0."""
    walk = self.is_svp64_mode and ins_name in SV_ROWS
    scope = VS_ROWS.get(ins_name)
    if not walk and scope is None:
        return False
    from openpower.decoder.isa.caller import create_full_args
    names = create_full_args(read_regs=info.read_regs, special_regs=info.special_regs,
                             uninit_regs=info.uninit_regs, write_regs=info.write_regs)
    if scope is not None:
        self._isa_ext_scope = _Scope(self, ins_name, scope)
        if self._isa_ext_scope.vl == 0:
            self._isa_ext_scope = None
            return True
    fpscr = self.fpscr.value
    try:
        info.func(self, *[SelectableInt(0, 64) for _ in names])
        if scope is not None:
            self._isa_ext_scope.commit()
    except IsaExtIllegal:
        self.fpscr.value = fpscr  # aborted: the lanes' FP helpers wrote nothing either
        raise
    finally:
        self._isa_ext_walk = self._isa_ext_scope = None
    if self.is_svp64_mode:
        self.svstate.srcstep = self.svstate.dststep = 0
    return True


def ISA_EXT_SVP64(self):
    return SelectableInt(int(bool(self.is_svp64_mode)), 1)

def ISA_EXT_INT(self, x):
    """x as a Python int (its unsigned value): the plugin's integer-width
    conversion wraps the operands combined with a loop index in it, so the
    arithmetic is integer there as it is in isa_ext (plugin.integer_width)."""
    return _int(x)



def ISA_EXT_EXTZ64(self, x):
    """Our EXTZ64: x zero-extended to 64 bits (openpower-isa's EXTZ64 keeps only
    its low 32 bits; plugin.RENAMED_CALLS)."""
    return SelectableInt(_int(x) & M64, 64)


def ISA_EXT_MEMVAL(self, value, size):
    """The value a "MEM(ea, size) <- value" of ours stores: its low size bytes, as
    the SelectableInt openpower-isa's memassign takes (plugin._mem_store)."""
    size = _int(size)
    return SelectableInt(_int(value) & ((1 << (8 * size)) - 1), 8 * size)


def EXTZ128(self, x):
    return SelectableInt(_int(x) & ((1 << 128) - 1), 128)




# every part adds the helpers it defines (install attaches them all)
PROVIDED = ('ILLEGAL', 'ISA_EXT_SCALAR_ONLY', 'ISA_EXT_SV_CALL', 'ISA_EXT_SVP64',
            'ISA_EXT_INT', 'ISA_EXT_EXTZ64', 'ISA_EXT_MEMVAL', 'EXTZ128',)


def install(cls):
    for name in PROVIDED:
        setattr(cls, name, globals()[name])
