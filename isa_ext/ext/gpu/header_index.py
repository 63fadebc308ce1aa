"""SURED's immediate header-index form (seed 004 ``#tsPtrIdxU13``), a 64-bit
prefixed instruction (docs/errata.md 004-12, docs/gpu-ops.md).

    SURED.D.2D.ADD.U32 [R2], R4, #5      (seed 004's first syntax)
    sured.add.u32 r2, r4, #5, 2d         (isa_ext)

No 32-bit word can hold RA, RB, a 13-bit index, the operation/size (34 pairs)
and the dimension (6): that is 32 bits of operands.  The immediate therefore
sits in a prefix word, as a Power ISA v3.1 MLS ("modified") prefix supplies
paddi's immediate to an addi suffix:

    prefix  PO=1 (0:5) | 0b10 (6:7, the MLS type) | 0 (8:18) | HIDX (19:31)
    suffix  a GSR-form sured row (PO 22), its RC field (16:20) reserved 0

v3.1 gives an MLS prefix no PO 22 suffix (isa_ext/prefix.py classifies the
prefix, ISA.prefixed pairs it with the v3.1 rows first, then with this form
only for a GSR-form suffix), and an SVP64 prefix has MSB0 bit 7
set (this one has 0), so the pair collides with neither.  One word cannot carry
two prefixes: the form is a one-lane warp, never SVP64-prefixed (a warp uses
the register form with a scalar RC, the descriptor address).

The page (pseudocode/gpu/surface.mdwn) reads the 32-bit constant-bank entry
``HEADER_INDEX`` (samplerPtr[31:20] | headerPtr[19:0]), checks headerPtr
against the pool's MaximumIndex (an invalid texture traps) and takes header
headerPtr of the pool as the surface descriptor; the bank, pool and maximum
are the machine configuration (isa_ext/ext/gpu/identity.py).
"""
from ...errors import Trap
from .vector_scope import VectorScopeInsn

PREFIX = 0x06000000       # PO 1, MSB0 bits 6:7 = 0b10, bits 8:18 = 0
PREFIX_MASK = 0xFFFFE000  # all but HIDX (MSB0 bits 19:31)
WIDTH = 13


class HeaderIndexForm:
    """The prefixed form the ISA's ``prefixed_forms`` hook knows: the fetch
    loop builds its executor, the assembler writes it for a ``#N`` operand in
    the place of RC, the disassembler prints it back."""
    replaces = "RC"
    width = WIDTH
    name = "header-index"

    def __init__(self, isa):
        self.isa = isa

    def matches(self, prefix, suffix):
        """The pair is this form: its prefix, and a GSR-form suffix (a v3.1
        MLS prefix takes no PO 22 suffix, so a real MLS instruction never
        pairs here: isa_ext.isa.ISA.prefixed tries the v3.1 rows first)."""
        if prefix & PREFIX_MASK != PREFIX:
            return False
        d = self.isa.decode(suffix)
        return d is not None and self.accepts(d.spec)

    @staticmethod
    def accepts(row):
        return row.form.name == "GSR"

    @staticmethod
    def prefix_word(index):
        return PREFIX | index

    def decode(self, prefix, suffix):
        """(row, fields) of the suffix, or a Trap saying why the pair is not
        an instruction."""
        d = self.isa.decode(suffix)
        if d is None or not self.accepts(d.spec):
            return Trap(f"a v3.1 MLS-type prefix (0x{prefix:08x}) before 0x{suffix:08x}: "
                        f"only SURED's header-index form is implemented there", "illegal")
        if d.fields["RC"]:
            return Trap(f"{d.mnemonic} header-index form: the suffix's RC field is reserved "
                        f"(0), not {d.fields['RC']}", "illegal")
        return d

    def build(self, sim, prefix, suffix):
        d = self.decode(prefix, suffix)
        if isinstance(d, Trap):
            raise d
        return VectorScopeInsn(self.isa, sim, d.spec, d.fields,
                               header_index=prefix & ((1 << WIDTH) - 1))

    def disassemble(self, dis, prefix, suffix, pc):
        d = self.decode(prefix, suffix)
        if isinstance(d, Trap):
            return None
        texts = dis.operand_texts(d, pc)
        fields = [op.field for op in d.spec.operands]
        texts[fields.index(self.replaces)] = f"#{prefix & ((1 << WIDTH) - 1)}"
        return f"{d.mnemonic} {','.join(texts)}"
