"""``SelectableInt``: a fixed-width integer indexed MSB0, as openpower-isa's
tests use it (``openpower.decoder.selectable_int``).

Behaviour follows openpower-isa 3cb597b9 where its tests can observe it:

* the value is masked to ``bits`` (``SelectableInt(-1, 8).value == 0xff``);
* ``x[i]`` is bit i counted from the most significant end, a 1-bit
  SelectableInt; ``x[a:b]`` is bits a..b-1, ``b - a`` bits wide; items and
  slices can be assigned;
* with an ``int`` operand the int takes the SelectableInt's width; two
  SelectableInts must have the same width (except ``*``, whose result is as
  wide as both together);
* ``<``, ``<=``, ``==`` give a 1-bit SelectableInt and ``>``, ``>=``, ``!=`` a
  bool, and ordering compares the values as signed;
* ``asint()`` is the unsigned value, ``to_signed_int()`` the signed one.

Where openpower-isa differs by accident (``int - x`` there is 1024 bits wide;
``int * x`` raises TypeError) this class gives the plain arithmetic result at
the SelectableInt's width.  Anything else (true division, floats, None)
raises rather than guess.
"""
import operator
import struct

__all__ = ["SelectableInt", "FieldSelectableInt", "selectconcat"]


def _mask(bits):
    return (1 << bits) - 1


class SelectableInt:
    __slots__ = ("value", "bits")

    def __init__(self, value, bits=64):
        if isinstance(value, SelectableInt):
            value = value.value
        if not isinstance(value, int) or not isinstance(bits, int) or bits < 0:
            raise TypeError(f"SelectableInt({value!r}, {bits!r}): value and bits must be ints")
        self.bits = bits
        self.value = value & _mask(bits)

    # -- conversions --------------------------------------------------------
    def asint(self):
        return self.value

    def to_signed_int(self):
        if self.bits and self.value >> (self.bits - 1):
            return self.value - (1 << self.bits)
        return self.value

    def narrow(self, bits):
        if bits > self.bits:
            raise ValueError(f"narrow({bits}) of a {self.bits}-bit SelectableInt")
        return SelectableInt(self.value, bits)

    def __int__(self):
        return self.value

    def __float__(self):
        """The IEEE 754 binary32/binary64 value of a 32/64-bit SelectableInt."""
        formats = {32: "<f", 64: "<d"}
        if self.bits not in formats:
            raise TypeError(f"float() of a {self.bits}-bit SelectableInt (only 32 or 64 bits)")
        return struct.unpack(formats[self.bits], self.value.to_bytes(self.bits // 8, "little"))[0]

    def __bool__(self):
        return self.value != 0

    def __len__(self):
        return self.bits

    def __repr__(self):
        return f"SelectableInt(value={self.value:#x}, bits={self.bits})"

    __str__ = __repr__

    __hash__ = None  # mutable (item assignment), like openpower-isa's

    # -- operands -------------------------------------------------------------
    def _operand(self, other, op):
        """``other`` as a SelectableInt of this width (ints take our width)."""
        if isinstance(other, SelectableInt):
            if other.bits != self.bits:
                raise ValueError(f"SelectableInt {op}: widths differ ({self.bits} and {other.bits})")
            return other
        if isinstance(other, int):  # bools too: True == 1
            return SelectableInt(int(other), self.bits)
        raise TypeError(f"SelectableInt {op} {type(other).__name__}: unsupported operand")

    def _arith(self, other, fn, op):
        o = self._operand(other, op)
        return SelectableInt(fn(self.value, o.value), self.bits)

    def __add__(self, other):
        return self._arith(other, operator.add, "+")

    __radd__ = __add__

    def __sub__(self, other):
        return self._arith(other, operator.sub, "-")

    def __rsub__(self, other):
        return SelectableInt(self._operand(other, "-").value - self.value, self.bits)

    def __mul__(self, other):
        if isinstance(other, SelectableInt):
            return SelectableInt(self.value * other.value, self.bits + other.bits)
        o = self._operand(other, "*")
        return SelectableInt(self.value * o.value, 2 * self.bits)

    __rmul__ = __mul__

    def __floordiv__(self, other):
        o = self._operand(other, "//")
        if o.value == 0:
            raise ZeroDivisionError("SelectableInt // 0")
        return SelectableInt(self.value // o.value, self.bits)

    def __mod__(self, other):
        o = self._operand(other, "%")
        if o.value == 0:
            raise ZeroDivisionError("SelectableInt % 0")
        return SelectableInt(self.value % o.value, self.bits)

    def __truediv__(self, other):
        raise TypeError("SelectableInt / : use // (openpower-isa has no true division)")

    def __and__(self, other):
        return self._arith(other, operator.and_, "&")

    __rand__ = __and__

    def __or__(self, other):
        return self._arith(other, operator.or_, "|")

    __ror__ = __or__

    def __xor__(self, other):
        return self._arith(other, operator.xor, "^")

    __rxor__ = __xor__

    def __lshift__(self, other):
        return SelectableInt(self.value << int(other), self.bits)

    def __rshift__(self, other):
        return SelectableInt(self.value >> int(other), self.bits)

    def __neg__(self):
        return SelectableInt(-self.value, self.bits)

    def __invert__(self):
        return SelectableInt(~self.value, self.bits)

    # -- comparison (signed, as openpower-isa's) -------------------------------
    def _signed_pair(self, other, op):
        return self.to_signed_int(), self._operand(other, op).to_signed_int()

    def __eq__(self, other):
        if isinstance(other, FieldSelectableInt):
            other = other.get_range()
        a, b = self._signed_pair(other, "==")
        return SelectableInt(a == b, 1)

    def __ne__(self, other):
        if isinstance(other, FieldSelectableInt):
            other = other.get_range()
        a, b = self._signed_pair(other, "!=")
        return a != b

    def __lt__(self, other):
        a, b = self._signed_pair(other, "<")
        return SelectableInt(a < b, 1)

    def __le__(self, other):
        a, b = self._signed_pair(other, "<=")
        return SelectableInt(a <= b, 1)

    def __gt__(self, other):
        a, b = self._signed_pair(other, ">")
        return a > b

    def __ge__(self, other):
        a, b = self._signed_pair(other, ">=")
        return a >= b

    # -- MSB0 bit selection -------------------------------------------------------
    def _range(self, key):
        """(shift, width) in the LSB0 value for an MSB0 index or slice."""
        if isinstance(key, SelectableInt):
            key = key.value
        if isinstance(key, int):
            if not 0 <= key < self.bits:
                raise IndexError(f"bit {key} of a {self.bits}-bit SelectableInt")
            return self.bits - 1 - key, 1
        if isinstance(key, slice):
            start, stop = key.start, key.stop
            if isinstance(start, SelectableInt):
                start = start.value
            if isinstance(stop, SelectableInt):
                stop = stop.value
            if key.step is not None or start is None or stop is None \
                    or not 0 <= start < stop <= self.bits:
                raise IndexError(f"slice [{key.start}:{key.stop}"
                                 f"{'' if key.step is None else ':' + str(key.step)}] of a "
                                 f"{self.bits}-bit SelectableInt (needs 0 <= start < stop <= bits, no step)")
            return self.bits - stop, stop - start
        raise TypeError(f"SelectableInt index {key!r}")

    def __getitem__(self, key):
        shift, width = self._range(key)
        return SelectableInt(self.value >> shift, width)

    def __setitem__(self, key, value):
        shift, width = self._range(key)
        if isinstance(value, SelectableInt):
            if value.bits != width:
                raise ValueError(f"assigning {value.bits} bits to a {width}-bit selection")
            value = value.value
        m = _mask(width)
        self.value = (self.value & ~(m << shift)) | ((int(value) & m) << shift)


class FieldSelectableInt:
    """A view of some bits (MSB0 positions) of a SelectableInt, as
    ``CRFields.crl[i]`` is: reads and writes go to the underlying value."""

    def __init__(self, si, positions):
        self.si = si
        self.positions = list(positions)

    def get_range(self):
        v = 0
        for p in self.positions:
            v = (v << 1) | self.si[p].value
        return SelectableInt(v, len(self.positions))

    @property
    def value(self):
        return self.get_range().value

    def asint(self, msb0=False):
        """The field's value; with ``msb0=False`` its bits reversed (position 0
        as the least significant bit), as openpower-isa's FieldSelectableInt."""
        v = self.get_range().value
        if msb0:
            return v
        n = len(self.positions)
        return int(f"{v:0{n}b}"[::-1], 2) if n else 0

    def __getitem__(self, key):
        return self.get_range()[key]

    def __setitem__(self, key, value):
        field = self.get_range()
        field[key] = value
        for i, p in enumerate(self.positions):
            self.si[p] = field[i].value

    def eq(self, value):
        self[0:len(self.positions)] = value

    def __len__(self):
        return len(self.positions)

    def __int__(self):
        return self.get_range().value

    def __eq__(self, other):
        if isinstance(other, FieldSelectableInt):
            other = other.get_range()
        return self.get_range() == other

    def __ne__(self, other):
        if isinstance(other, FieldSelectableInt):
            other = other.get_range()
        return self.get_range() != other

    __hash__ = None

    def __repr__(self):
        return f"FieldSelectableInt(si={self.si!r}, positions={self.positions})"


def selectconcat(*parts):
    """The concatenation of SelectableInts, first part most significant."""
    v = bits = 0
    for p in parts:
        if not isinstance(p, SelectableInt):
            raise TypeError(f"selectconcat of {type(p).__name__}")
        v, bits = (v << p.bits) | p.value, bits + p.bits
    return SelectableInt(v, bits)
