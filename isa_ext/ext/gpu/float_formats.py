"""The floating point of the GPU surface atomics (binary32, binary16).

Standard library only: ``isa-ext openpower install`` also puts this file's
text into the helper module it writes for openpower-isa (a part of
:mod:`isa_ext.compat.plugin.installed_helpers`), so both simulators run the
same code."""
import math
import struct

# Flush-to-zero, round to nearest even, no FPSCR (GPU atomics neither read nor
# write the Power FPSCR).  A NaN result is the format's canonical quiet NaN;
# min/max return the other operand when one is NaN.

class Format:
    def __init__(self, code, bits, exp_bits, qnan):
        self.code, self.bits, self.exp_bits, self.qnan = code, bits, exp_bits, qnan
        self.man_bits = bits - 1 - exp_bits
        self.sign = 1 << (bits - 1)

    def flush(self, x):
        """A subnormal becomes a zero of the same sign."""
        if (x >> self.man_bits) & ((1 << self.exp_bits) - 1) == 0:
            return x & self.sign
        return x

    def value(self, x):
        return struct.unpack("<" + self.code, x.to_bytes(self.bits // 8, "little"))[0]

    def encode(self, v):
        if math.isnan(v):
            return self.qnan
        try:
            raw = struct.pack("<" + self.code, v)
        except OverflowError:  # rounds beyond the largest finite value
            raw = struct.pack("<" + self.code, math.copysign(math.inf, v))
        return self.flush(int.from_bytes(raw, "little"))

    def add(self, a, b):
        # the double-precision sum rounded once more is correctly rounded for
        # binary32 and binary16 operands (53 >= 2p + 2)
        return self.encode(self.value(self.flush(a)) + self.value(self.flush(b)))

    def pick(self, a, b, smaller):
        a, b = self.flush(a), self.flush(b)
        va, vb = self.value(a), self.value(b)
        if math.isnan(va) and math.isnan(vb):
            return self.qnan
        if math.isnan(va):
            return b
        if math.isnan(vb):
            return a
        # -0 orders below +0
        ka, kb = (va, -1 if a & self.sign else 0), (vb, -1 if b & self.sign else 0)
        return a if (ka <= kb) == smaller else b


F32 = Format("f", 32, 8, 0x7FC00000)
F16 = Format("e", 16, 5, 0x7E00)
