"""State objects of openpower-isa's test API: ``SVP64State`` and ``CRFields``
(``openpower.decoder.isa.caller``), ``get_masked_reg``/``set_masked_reg``, and
the register and memory views a finished run answers with (``sim.gpr(i)``,
``sim.spr['CTR']``, ``sim.mem.dump()`` ...), read from an isa_ext machine.
"""
from ...svp64 import remap
from ...svp64 import svstate as svfields
from .selectable_int import FieldSelectableInt, SelectableInt

__all__ = ["SVP64State", "SVSHAPE", "CRFields", "get_masked_reg", "set_masked_reg"]

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
SPR_NUMBERS = {"XER": 1, "LR": 8, "CTR": 9, "TAR": 815, "SVSTATE": 720,
               "SVSHAPE0": 705, "SVSHAPE1": 706, "SVSHAPE2": 707, "SVSHAPE3": 708}
SVSHAPE_SPRS = range(705, 709)


# SVSHAPE fields, MSB0 bit ranges of the 32-bit SPR (libre-soc's remap page:
# XDIMSZ 0:5, YDIMSZ 6:11, ZDIMSZ 12:17, PERMUTE 18:20, INVXYZ 21:23,
# OFFSET 24:27, SKIP 28:29, MODE 30:31)
SVSHAPE_FIELDS = {"xdimsz": (0, 5), "ydimsz": (6, 11), "zdimsz": (12, 17), "permute": (18, 20),
                  "invxyz": (21, 23), "offset": (24, 27), "skip": (28, 29), "mode": (30, 31)}


class SVSHAPE(SelectableInt):
    """An SVSHAPE SPR (REMAP shape) with openpower-isa's field properties:
    ``xdimsz``/``ydimsz``/``zdimsz`` are the field plus one, ``invxyz`` a list
    [x, y, z] of the field's bits from its least significant end, ``mode``,
    ``skip``, ``offset``, ``submode2`` (the PERMUTE field).  In Indexed mode
    (MODE 0, PERMUTE 6 or 7) there is no Z dimension: zdimsz reads 1, invxyz
    keeps x and y, and skip is INVXYZ's top bit."""

    def __init__(self, value=0, gpr=None):
        super().__init__(int(value), 32)
        self.gpr = gpr

    def _get(self, name):
        a, b = SVSHAPE_FIELDS[name]
        return self[a:b + 1].value

    def _put(self, name, value):
        a, b = SVSHAPE_FIELDS[name]
        if not 0 <= value < 1 << (b - a + 1):
            raise ValueError(f"SVSHAPE.{name}={value} does not fit")
        self[a:b + 1] = value

    def is_indexed(self):
        return self._get("mode") == 0 and self._get("permute") in (6, 7)

    xdimsz = property(lambda self: self._get("xdimsz") + 1,
                      lambda self, v: self._put("xdimsz", v - 1))
    ydimsz = property(lambda self: self._get("ydimsz") + 1,
                      lambda self, v: self._put("ydimsz", v - 1))
    zdimsz = property(lambda self: 1 if self.is_indexed() else self._get("zdimsz") + 1,
                      lambda self, v: self._put("zdimsz", v - 1))
    mode = property(lambda self: self._get("mode"), lambda self, v: self._put("mode", v))
    offset = property(lambda self: self._get("offset"), lambda self, v: self._put("offset", v))
    submode2 = property(lambda self: self._get("permute"),
                        lambda self, v: self._put("permute", v))
    elwid = property(lambda self: self._get("skip"))
    svgpr = property(lambda self: self._get("zdimsz") << 1)

    @property
    def lims(self):
        return [self.xdimsz, self.ydimsz, self.zdimsz]

    @lims.setter
    def lims(self, sizes):
        self.xdimsz, self.ydimsz, self.zdimsz = sizes

    @property
    def invxyz(self):
        inv = self._get("invxyz") & (0b011 if self.is_indexed() else 0b111)
        return [inv & 1, (inv >> 1) & 1, (inv >> 2) & 1]

    @invxyz.setter
    def invxyz(self, bits):
        self._put("invxyz", bits[0] | (bits[1] << 1) | (bits[2] << 2))

    @property
    def skip(self):
        return self._get("invxyz") >> 2 if self.is_indexed() else self._get("skip")

    @skip.setter
    def skip(self, value):
        self._put("skip", value)

    @property
    def order(self):
        """The dimension order PERMUTE selects, least significant dimension
        first, e.g. (1, 0, 2) for y,x,z; Indexed mode's 6/7 are x,y and y,x."""
        table = remap.INDEXED_PERMUTATIONS if self.is_indexed() else remap.PERMUTATIONS
        permute = self._get("permute")
        if permute not in table:
            raise ValueError(f"SVSHAPE.order: PERMUTE={permute} names no dimension order "
                             "outside Indexed mode")
        return table[permute]

    @order.setter
    def order(self, dims):
        by_order = {v: k for k, v in remap.PERMUTATIONS.items()}
        if tuple(dims) not in by_order:
            raise ValueError(f"SVSHAPE.order={dims!r}: not a permutation of (0, 1, 2)")
        self._put("permute", by_order[tuple(dims)])


def spr_number(key):
    if isinstance(key, int):
        return key
    name = str(key).upper()
    if name in SPR_NUMBERS:
        return SPR_NUMBERS[name]
    raise NotImplementedError(f"SPR {key!r} is not modelled by isa_ext's openpower facade")


class SPRView:
    """``sim.spr['LR']`` as a 64-bit SelectableInt (``SVSTATE`` as SVP64State)."""

    def __init__(self, state, isa=None):
        self._state = state
        self._isa = isa

    def __getitem__(self, key):
        n = spr_number(key)
        value = self._state.spr_read(n)
        if n in SVSHAPE_SPRS:
            return SVSHAPE(value)
        return SVP64State(value) if n == 720 else SelectableInt(value, 64)

    def __setitem__(self, key, value):
        self._state.spr_write(spr_number(key), int(value))

    def __call__(self, key):
        # ISACaller's SPR object is also callable: sim.spr('CTR')
        return self[key]

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
