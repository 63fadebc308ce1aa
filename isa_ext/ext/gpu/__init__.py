"""The gpu extension: GPU cross-lane operations (seeds 000, 002, 003, 004).

Semantics are the pages of ``pseudocode/gpu/``, encodings ``decoder/gpu/gpu.csv``,
GLSL-style names ``decoder/gpu/aliases/glsl.csv``.  This package holds only what
is not semantics: the vector-scope engine (:mod:`.vector_scope`), SURED's
header-index form (:mod:`.header_index`), the machine's GPU identity
(:mod:`.identity`, ``Simulator(gpu=...)``) and, here, the ``Extension`` object,
the assembly notation ``surfdim`` of a surface reduction's dimensionality
(``1d 1d_buffer 1d_array 2d 2d_array 3d``, or the encoded number), and the
floating-point helpers of the surface atomics.
"""
import math
import struct

from ...errors import IsaExtError
from ...extension import Extension
from . import vector_scope

SURFACE_DIMS = ("1d", "1d_buffer", "1d_array", "2d", "2d_array", "3d")


class SurfaceDim:
    @staticmethod
    def parse(text):
        name = text.strip().lower()
        if name.isdigit() and int(name) < 8:  # the encoded number (6, 7 reserved)
            return int(name)
        if name not in SURFACE_DIMS:
            raise IsaExtError(f"surface dimension {text!r}: expected one of "
                              f"{', '.join(SURFACE_DIMS)}")
        return SURFACE_DIMS.index(name)

    @staticmethod
    def format(code):
        return SURFACE_DIMS[code] if code < len(SURFACE_DIMS) else str(code)


# --- surface-atomic floating point: flush-to-zero, round to nearest even, no FPSCR ---
# (GPU atomics neither read nor write the Power FPSCR).  A NaN result is the
# format's canonical quiet NaN; min/max return the other operand when one is NaN.

class _Format:
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


F32 = _Format("f", 32, 8, 0x7FC00000)
F16 = _Format("e", 16, 5, 0x7E00)


def _halves(fn):
    return lambda a, b: (fn(a >> 16, b >> 16) << 16) | fn(a & 0xFFFF, b & 0xFFFF)


def _configure_gpu(sim, value):
    """``Simulator(gpu=...)``: the GPU identity and geometry the gpu pages read."""
    from .identity import GpuIdentity
    sim.state.gpu = GpuIdentity.of(value)


class Gpu(Extension):
    name = "gpu"
    machine_options = {"gpu": _configure_gpu}

    def setup(self, reg):
        from .header_index import HeaderIndexForm
        reg.runtime_function("F32ADD_FTZ_RN", 32, "_f32add_ftz_rn", F32.add)
        reg.runtime_function("F16X2ADD_FTZ_RN", 32, "_f16x2add_ftz_rn", _halves(F16.add))
        reg.runtime_function("F16X2MIN", 32, "_f16x2min",
                             _halves(lambda a, b: F16.pick(a, b, True)))
        reg.runtime_function("F16X2MAX", 32, "_f16x2max",
                             _halves(lambda a, b: F16.pick(a, b, False)))
        reg.operand_type("surfdim", SurfaceDim)
        vector_scope.install(reg)
        reg.prefixed_form(HeaderIndexForm(reg.isa))


EXTENSION = Gpu()
