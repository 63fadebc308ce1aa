"""The one classifier of prefix words (primary opcode 1).

Every word whose primary opcode is 1 begins an 8-byte instruction: a Power
ISA v3.1 prefix (Book I 1.6.3) or libre-soc's SVP64 prefix.  The fetch loop,
the translator, the disassembler, the tracer and gdb's stepi ask this module
what a prefix is, so that they agree on which words are 8 bytes long.

    v3.1   PO=1 (0:5) | type (6:7) | ST (8) | ...
           type 0b00 8LS (8-byte load/store), 0b01 8RR (8-byte register to
           register), 0b10 MLS (modified load/store: a 34-bit immediate),
           0b11 MRR (modified register to register; ST=1: MMIRR)
    SVP64  PO=1 with MSB0 bits 7 and 9 set (bit 9 is reserved 0 in the v3.1
           8RR, MRR and MMIRR prefixes, so the two never meet)

The pairing of a prefix with its suffix (a table row of a 64-bit form, the
gpu extension's header-index form, the SVP64 executor) is
:meth:`isa_ext.isa.ISA.prefixed`.
"""
from .encoding import is_svp64_prefix

LS8, RR8, MLS, MRR, MMIRR, SVP64 = "8LS", "8RR", "MLS", "MRR", "MMIRR", "SVP64"
_TYPES = {0: LS8, 1: RR8, 2: MLS, 3: MRR}

# a v3.1 prefixed instruction may not cross a 64-byte boundary (Book I 1.6.3:
# an alignment interrupt); GNU as puts a nop before one that would
BOUNDARY = 64


def is_prefix(word):
    """The word begins an 8-byte instruction."""
    return word >> 26 == 1


def kind(word):
    """The prefix's kind (LS8, RR8, MLS, MRR, MMIRR or SVP64), or None for a
    word that is no prefix."""
    if word >> 26 != 1:
        return None
    if is_svp64_prefix(word):
        return SVP64
    k = _TYPES[(word >> 24) & 3]
    if k == MRR and (word >> 23) & 1:
        return MMIRR
    return k


def crosses_boundary(pc):
    """An 8-byte instruction at ``pc`` would cross a 64-byte boundary."""
    return pc % BOUNDARY == BOUNDARY - 4
