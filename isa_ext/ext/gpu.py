"""The gpu extension: GPU cross-lane operations (seeds 000, 002, 003, 004).

Semantics are the pages of ``pseudocode/gpu/``, encodings ``decoder/gpu/gpu.csv``,
GLSL-style names ``decoder/gpu/aliases/glsl.csv``.  This module holds only what is
not semantics: the vector-scope engine hook (:mod:`isa_ext.gpu.vector_scope`) and
the assembly notations of two immediates:

* ``segwidth``: a shuffle's immediate c operand, written as the segment width
  (a power of two 1..64) and encoded as its base-2 logarithm;
* ``surfdim``: a surface reduction's dimensionality, ``1d 1d_buffer 1d_array 2d
  2d_array 3d``.
"""
from ..errors import IsaExtError
from ..isa import EXTENSION_HOOKS
from ..gpu import vector_scope

SEGMENT_WIDTHS = {1 << k: k for k in range(7)}
SURFACE_DIMS = ("1d", "1d_buffer", "1d_array", "2d", "2d_array", "3d")


class SegmentWidth:
    @staticmethod
    def parse(text):
        body = text.strip()
        while body.startswith("(") and body.endswith(")"):
            body = body[1:-1].strip()
        try:
            width = int(body, 0)
        except ValueError:
            raise IsaExtError(f"segment width {text!r}: expected a number "
                              f"(1, 2, 4, 8, 16, 32 or 64)") from None
        if width not in SEGMENT_WIDTHS:
            raise IsaExtError(f"segment width {width} is not a power of two from 1 to 64")
        return SEGMENT_WIDTHS[width]

    @staticmethod
    def format(code):
        return str(1 << code) if code < 7 else f"reserved({code})"


class SurfaceDim:
    @staticmethod
    def parse(text):
        name = text.strip().lower()
        if name not in SURFACE_DIMS:
            raise IsaExtError(f"surface dimension {text!r}: expected one of "
                              f"{', '.join(SURFACE_DIMS)}")
        return SURFACE_DIMS.index(name)

    @staticmethod
    def format(code):
        return SURFACE_DIMS[code] if code < len(SURFACE_DIMS) else f"reserved({code})"


def activate(isa):
    isa.operand_types["segwidth"] = SegmentWidth
    isa.operand_types["surfdim"] = SurfaceDim
    vector_scope.install(isa)


EXTENSION_HOOKS["gpu"] = activate
