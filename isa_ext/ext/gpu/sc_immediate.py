"""SHFL's 13-bit immediate Sc (seed 003: "Sc may be either a register or a
13-bit immediate"; docs/errata.md 003-2), an SVP64 RM-immediate form.

    SHFL.IDX PT, Ry, Rx, 2, 0x1C03          (seed 003)
    sv.shfli.idx *r8, *r16, 2, #0x1c03      (isa_ext)

No 32-bit word holds RT, RA, b and a 13-bit Sc beside the PO 22 key, and a v3.1
prefix cannot carry it as SURED's header index does (errata 004-12): a shuffle
needs the SVP64 prefix, whose RM makes the warp.  So the prefix carries it: in
this form RM[10:23] -- EXTRA and MODE, 14 bits -- is Sc (clamp Sc[5:0], segment
mask Sc[13:8], the register form's layout: 13 bits for 32 lanes, 14 for 64).
The suffix is the immediate form's word (``shfli``, ``fshfli``, ``shflvi``) with
the segment-width code SEGW = 31, a code those rows reserve (0..6 are widths).
MASKMODE/MASK (the active lanes), ELWIDTH, ELWIDTH_SRC and SUBVL keep their
meaning; with EXTRA gone the operands' EXTRA specs are fixed: a shuffle's data
operands (RT/RA, FRT/FRA) are vectors as EXTRA3 ``0b100`` spells them
(``*r0``, ``*r4`` ... ``*r124``), the validity mask's RT a scalar (r0..r31);
with MODE gone the mode is normal without zeroing.  Unprefixed, SEGW = 31 is
reserved (the page traps).
"""
from ...svp64.rm import RMImmediate

# the segment-width code that says "Sc is in the prefix"
SEGW_CODE = 31
VECTOR, SCALAR = 0b100, 0b000


def accepts(row):
    """The shuffles' immediate forms: b is LB, c the code SEGW."""
    return row.form.name in ("GSHF", "GSHV") and {"LB", "SEGW"} <= set(row.fields_used)


def spec(row, field):
    # the validity mask (GSHV) is one value for the warp; data is per lane
    return SCALAR if row.form.name == "GSHV" else VECTOR


FORM = RMImmediate("SEGW", SEGW_CODE, accepts, spec)
