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
from ...errors import IsaExtError
from ...extension import Extension
from . import vector_scope
from .float_formats import F16, F32

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


# --- surface-atomic floating point: float_formats (also installed for openpower-isa) ---


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
