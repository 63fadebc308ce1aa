"""``openpower.decoder.isafunctions.double2single``: the helper class
openpower-isa's FFT/DCT tests use to round their double-precision
expectations to single precision (``fph.DOUBLE2SINGLE(fp64toselectable(x))``).

``DOUBLE2SINGLE`` (openpower-isa's alias of ``FRSP``, the frsp model of Power
ISA v3.1B Book I A.1) rounds a double-format value to single precision and
returns it in double format, here by isa_ext's own frsp arithmetic
(:func:`isa_ext.pseudocode.fp.fp_round_single`) under the FPSCR rounding mode
(round to nearest when no FPSCR is given).
"""
from ...pseudocode.fp import fp_round_single
from .selectable_int import SelectableInt

__all__ = ["ISACallerFnHelper_double2single"]


class _FPState:
    """The little machine state fp_round_single reads and updates: the FPSCR."""

    def __init__(self, fpscr):
        self.fpscr = fpscr
        self.fp_elfmt = None


class ISACallerFnHelper_double2single:
    """``ISACallerFnHelper_double2single(XLEN=64, FPSCR=None)``; the tests
    set ``namespace`` themselves and call :meth:`DOUBLE2SINGLE`."""

    def __init__(self, XLEN=64, FPSCR=None):
        self.XLEN = XLEN
        self.FPSCR = FPSCR
        self.namespace = {}

    def FRSP(self, FRB):
        fpscr = int(self.FPSCR) if self.FPSCR is not None else 0
        return SelectableInt(fp_round_single(_FPState(fpscr), int(FRB)), 64)

    def DOUBLE2SINGLE(self, FRS):
        return self.FRSP(FRS)
