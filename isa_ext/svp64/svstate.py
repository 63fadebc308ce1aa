"""SVSTATE, the SVP64 loop-state SPR (SPR 720), laid out as libre-soc does.

MSB0 bit ranges of the 64-bit register::

    0:6 maxvl   7:13 vl   14:20 srcstep   21:27 dststep
    28:29 dsubstep   30:31 ssubstep   32:46 REMAP (mi0 mi1 mi2 mo0 mo1 SVme)
    53 pack   54 unpack   55:61 hphint   62 RMpst   63 vfirst

Helpers read and write one field of an integer SVSTATE value; they never
touch the machine, so an engine can work on a local copy and commit it once.
"""

from .bitfields import Layout

FIELDS = {
    "maxvl": (0, 6), "vl": (7, 13), "srcstep": (14, 20), "dststep": (21, 27),
    "dsubstep": (28, 29), "ssubstep": (30, 31),
    "mi0": (32, 33), "mi1": (34, 35), "mi2": (36, 37), "mo0": (38, 39), "mo1": (40, 41),
    "SVme": (42, 46), "pack": (53, 53), "unpack": (54, 54), "hphint": (55, 61),
    "RMpst": (62, 62), "vfirst": (63, 63),
}

LAYOUT = Layout("SVSTATE", 64, FIELDS)

SH_MAXVL, SH_VL, SH_SRC, SH_DST = 57, 50, 43, 36
SH_DSUB, SH_SSUB = 34, 32
SH_PACK, SH_UNPACK, SH_VFIRST = 10, 9, 0
# every REMAP field (mi0 mi1 mi2 mo0 mo1 SVme, RMpst): non-zero means REMAP is active
REMAP_MASK = (((1 << 15) - 1) << (63 - 46)) | (1 << (63 - 62))
# SVme (which operands REMAP applies to) and RMpst (REMAP persists)
SVME_MASK = ((1 << 5) - 1) << (63 - 46)
RMPST_BIT = 1 << (63 - 62)
# every step field: srcstep dststep dsubstep ssubstep
STEPS_MASK = (0x7F << SH_SRC) | (0x7F << SH_DST) | (3 << SH_DSUB) | (3 << SH_SSUB)


get, put, decode = LAYOUT.get, LAYOUT.put, LAYOUT.decode
make = LAYOUT.make  # make(maxvl=8, vl=8)


def remap_active(state, sv, cia):
    """Whether REMAP applies to the SVP64 instruction at ``cia`` (SVSTATE
    ``sv``): some operand is enabled (SVme) and either RMpst is set or the
    instruction is the one-shot REMAP target ``state.remap_next`` (set by
    svremap/svindex/svshape2, carried over consecutive SVP64 instructions;
    openpower-isa's simulator ``last_op_svshape``)."""
    return bool(sv & SVME_MASK) and (bool(sv & RMPST_BIT) or state.remap_next == cia)


def with_steps(sv, srcstep, dststep, ssubstep=0, dsubstep=0):
    sv &= ~STEPS_MASK
    return sv | (srcstep << SH_SRC) | (dststep << SH_DST) | (ssubstep << SH_SSUB) | \
        (dsubstep << SH_DSUB)


def set_vl(state, vl, maxvl=None):
    """Convenience for tests and programs: set VL (and MAXVL, default VL)."""
    sv = put(state.svstate, "maxvl", vl if maxvl is None else maxvl)
    state.svstate = put(sv, "vl", vl)
