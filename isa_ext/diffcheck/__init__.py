"""Differential testing of the scalar core against QEMU and GNU's cross toolchain.

Cases are generated from the ISA tables (:mod:`.generate`), written as one GNU
assembly program per batch (:mod:`.program`), assembled and linked with GNU
binutils into a static ppc64le ELF, run under ``qemu-ppc64le`` and, case by
case, under isa_ext (:mod:`.runner`).  Every case's final state (GPRs, FPRs,
CR, XER, LR, CTR, FPSCR and a 128-byte memory window) is compared; a mismatch
is reduced to its first differing instruction and written out as a standalone
reproducer (:mod:`.report`).  :mod:`.cprograms` does the same for whole C
programs.  See ``docs/diffcheck.md``.
"""
from .runner import DiffCheck, Figures  # noqa: F401
