"""The few pseudocode helpers openpower-isa's SVP64 tests import from
``openpower.decoder.helpers``: ``exts``, ``fp64toselectable``, ``SINGLE``."""
import struct

from ...pseudocode.fp import double_to_single
from .selectable_int import SelectableInt

__all__ = ["exts", "fp64toselectable", "SINGLE"]


def exts(value, bits):
    """``value``'s low ``bits`` bits as a signed Python int."""
    sign = 1 << (bits - 1)
    return (value & (sign - 1)) - (value & sign)


def fp64toselectable(number):
    """A Python float's IEEE 754 double bits as a 64-bit SelectableInt."""
    return SelectableInt(int.from_bytes(struct.pack("<d", number), "little"), 64)


def SINGLE(frs):
    """The 32-bit single-precision image of a double-format value (Power ISA
    v3.0B 4.6.3, as stfs stores it), by isa_ext's own conversion."""
    return SelectableInt(double_to_single(int(frs)), 32)
