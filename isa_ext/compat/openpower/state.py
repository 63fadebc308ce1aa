"""State objects of openpower-isa's test API: ``SVP64State`` and ``CRFields``
(``openpower.decoder.isa.caller``), ``get_masked_reg``/``set_masked_reg``, and
the register and memory views a finished run answers with (``sim.gpr(i)``,
``sim.spr['CTR']``, ``sim.mem.dump()`` ...), read from an isa_ext machine.
"""
from ...svp64 import svstate as svfields
from .selectable_int import FieldSelectableInt, SelectableInt

__all__ = ["SVP64State", "CRFields", "get_masked_reg", "set_masked_reg"]

M64 = (1 << 64) - 1


class SVP64State(SelectableInt):
    """SVSTATE as a 64-bit SelectableInt with one property per field
    (``vl``, ``maxvl``, ``srcstep``, ``dststep``, ``vfirst``, ``mi0`` ...),
    the layout isa_ext.svp64.svstate defines.  Fields read as ints; a value
    that does not fit its field raises (openpower-isa would spill it into the
    neighbouring field)."""

    def __init__(self, value=0):
        super().__init__(int(value), 64)


def _field_property(name):
    def get(self):
        return svfields.get(self.value, name)

    def put(self, v):
        self.value = svfields.put(self.value, name, int(v))
    return property(get, put, doc=f"SVSTATE.{name}")


for _name in svfields.FIELDS:
    setattr(SVP64State, _name, _field_property(_name))
del _name


class CRFields:
    """The condition register: ``cr`` a 64-bit SelectableInt holding the 32-bit
    CR in its low half, ``crl[i]`` a 4-bit view of field CRi (bits LT GT EQ SO,
    MSB0 positions 0..3 within the field)."""
    LT = FL = 0
    GT = FG = 1
    EQ = FE = 2
    SO = FU = 3
    NFIELDS = 8

    def __init__(self, value=0):
        self.cr = SelectableInt(int(value), 64)
        self.crl = [FieldSelectableInt(self.cr, range(32 + 4 * i, 36 + 4 * i))
                    for i in range(self.NFIELDS)]


def _element(regs, base, offs, ew_bits):
    per_reg = 64 // ew_bits
    return base + offs // per_reg, (offs % per_reg) * ew_bits, (1 << ew_bits) - 1


def get_masked_reg(regs, base, offs, ew_bits):
    """Element ``offs`` of width ``ew_bits`` in registers packed from ``base``
    (elements fill each 64-bit register from its least significant end)."""
    reg, shift, mask = _element(regs, base, offs, ew_bits)
    return (int(regs[reg]) >> shift) & mask


def set_masked_reg(regs, base, offs, ew_bits, value):
    reg, shift, mask = _element(regs, base, offs, ew_bits)
    regs[reg] = (int(regs[reg]) & ~(mask << shift) & M64) | ((int(value) & mask) << shift)


# -- views of a finished (or running) isa_ext machine ---------------------------------

class RegisterFileView:
    """``sim.gpr(i)`` / ``sim.gpr[i]`` as 64-bit SelectableInts; ``dump()``."""

    def __init__(self, regs, name):
        self._regs, self._name = regs, name

    def __call__(self, i):
        return SelectableInt(self._regs[int(i)], 64)

    def __getitem__(self, i):
        return self(i)

    def __setitem__(self, i, value):
        self._regs[int(i)] = int(value) & M64

    def __len__(self):
        return len(self._regs)

    def dump(self, printout=True):
        values = list(self._regs[:32])
        if printout:
            for i in range(0, 32, 8):
                print(f"{self._name}{i:<3}", " ".join(f"{v:08x}" for v in values[i:i + 8]))
        return values


# SPR names openpower-isa's tests use -> isa_ext SPR numbers (Power ISA numbering).
SPR_NUMBERS = {"XER": 1, "LR": 8, "CTR": 9, "TAR": 815, "SVSTATE": 720}
# REMAP SPRs: named so that reading one says what is missing instead of a KeyError.
UNSUPPORTED_SPRS = {"SVSHAPE0", "SVSHAPE1", "SVSHAPE2", "SVSHAPE3"}
# Instructions that write SVSHAPE; while isa_ext has none, SVSHAPEn keep their reset value 0.
REMAP_MNEMONICS = ("svshape", "svshape2", "svindex", "svremap")


class SVSHAPEAtReset(SelectableInt):
    """SVSHAPEn (32 bits) holding 0, the only value it can have while isa_ext
    has no instruction writing it, decoded as openpower-isa decodes 0: each
    dimension size is its field plus one, every other field 0."""

    def __init__(self):
        super().__init__(0, 32)

    xdimsz = ydimsz = zdimsz = 1
    lims = property(lambda self: [1, 1, 1])
    invxyz = property(lambda self: [0, 0, 0])
    mode = submode2 = skip = offset = elwid = svgpr = 0

    def is_indexed(self):
        return False


def spr_number(key):
    if isinstance(key, int):
        return key
    name = str(key).upper()
    if name in SPR_NUMBERS:
        return SPR_NUMBERS[name]
    if name in UNSUPPORTED_SPRS:
        raise NotImplementedError(f"SPR {name}: isa_ext has no REMAP (SVSHAPE) registers yet")
    raise NotImplementedError(f"SPR {key!r} is not modelled by isa_ext's openpower facade")


class SPRView:
    """``sim.spr['LR']`` as a 64-bit SelectableInt (``SVSTATE`` as SVP64State)."""

    def __init__(self, state, isa=None):
        self._state = state
        self._isa = isa

    def __getitem__(self, key):
        if str(key).upper() in UNSUPPORTED_SPRS and self._isa is not None and \
                not any(m in self._isa.by_mnemonic for m in REMAP_MNEMONICS):
            return SVSHAPEAtReset()
        n = spr_number(key)
        value = self._state.spr_read(n)
        return SVP64State(value) if n == 720 else SelectableInt(value, 64)

    def __setitem__(self, key, value):
        self._state.spr_write(spr_number(key), int(value))

    def __contains__(self, key):
        try:
            spr_number(key)
        except NotImplementedError:
            return False
        return True

    def dump(self, printout=True):
        values = {name: self._state.spr_read(n) for name, n in SPR_NUMBERS.items()}
        if printout:
            for name, v in values.items():
                print(f"{name:8} {v:#x}")
        return values


class MemoryView:
    """openpower-isa's data memory (``Mem(row_bytes=8)``) over an isa_ext Memory.

    ``ld``/``st`` take ``swap=True`` to mean the value's bytes are reversed
    relative to little-endian storage (a big-endian access), as there.  ``mem``
    is ``{row index: 64-bit little-endian row value}`` for every 8-byte row
    written (initial contents and stores), which is what ``dump()`` lists as
    ``(row address, value)``."""
    ROW = 8

    def __init__(self, memory):
        self._memory = memory

    def _rows(self):
        return sorted(self._memory.rows_written)

    @property
    def mem(self):
        return {row: self._memory.read(row * self.ROW, self.ROW) for row in self._rows()}

    def ld(self, address, width=8, swap=True, check_in_mem=False, instr_fetch=False):
        if check_in_mem and (address // self.ROW) not in self._memory.rows_written:
            return None
        value = int.from_bytes(self._memory.read_bytes(int(address), width), "little")
        return _swap(value, width) if swap else value

    def st(self, address, value, width=8, swap=True):
        value = int(value) & ((1 << (8 * width)) - 1)
        if swap:
            value = _swap(value, width)
        self._memory.write_bytes(int(address), value.to_bytes(width, "little"))

    def dump(self, printout=True, asciidump=False):
        out = []
        for row, v in self.mem.items():
            out.append((row * self.ROW, v))
            if printout:
                text = ""
                if asciidump:
                    text = "".join(chr(b) if chr(b).isprintable() else "."
                                   for b in v.to_bytes(8, "little"))
                print(f"{row * self.ROW:016x}: {v:016x}", text)
        return out


def _swap(value, width):
    return int.from_bytes(value.to_bytes(width, "little"), "big")


class ProgramCounterView:
    """``sim.pc.CIA`` (and ``NIA``, the same once a run has finished)."""

    def __init__(self, state):
        self._state = state

    @property
    def CIA(self):
        return SelectableInt(self._state.pc, 64)

    NIA = CIA


def cr_view(state):
    """A CRFields snapshot of the machine's CR0..CR7."""
    return CRFields(state.crval)


__all__ += ["RegisterFileView", "SPRView", "MemoryView", "ProgramCounterView", "cr_view"]
