"""Predicate masks: integer (r3 / ~r3 / 1<<r3 / r10 / ~r10 / r30 / ~r30) and CR
(lt ge gt le eq ne so ns over CR fields CR_PRED_OFFSET + i)."""

from . import regfile_end

M64 = (1 << 64) - 1
ALL = (1 << 128) - 1

# First CR field of CR-based predicate masks: element i tests CR[CR_PRED_OFFSET + i].
# libre-soc's spec text gives CR32 ("offs is defined as CR32"); see docs/svp64.md.
# The openpower-isa profile starts at CR4, as libre-soc's simulator does (isa_ext/profile.py).
CR_PRED_OFFSET = 32


def int_mask(gpr, code):
    if code == 0:
        return ALL
    if code == 1:
        return 1 << (gpr[3] & 63)
    reg = (3, 3, 10, 10, 30, 30)[code - 2]
    v = gpr[reg]
    return (v ^ M64) if code & 1 else v


def cr_mask(cr, code, vl, offset=CR_PRED_OFFSET):
    bit = 3 - (code >> 1)  # lt gt eq so -> field bit 3..0
    # element i tests CR[offset + i]: one past CR127 does not exist (regfile_end)
    regfile_end.check(regfile_end.predicate_past_end(offset, vl))
    want = 0 if code & 1 else 1
    m = 0
    for i in range(vl):
        if ((cr[offset + i] >> bit) & 1) == want:
            m |= 1 << i
    return m


def mask(state, mmode, code, vl, cr_offset=CR_PRED_OFFSET):
    """The predicate mask (bit i = element i enabled) for a MASK/MASK_SRC value;
    CR predicates test fields ``cr_offset`` + i."""
    if mmode:
        return cr_mask(state.cr, code, vl, cr_offset)
    return int_mask(state.gpr, code)


def zeroing(rec, profile):
    """(sz, dz, sskip, dskip) of a decoded record: which sides zero masked-out
    elements and which skip them.  Under single predication sz and dz share the
    one mask (dz wins); the openpower-isa profile treats them as twin does."""
    twin = rec.ptype == 2 or profile.single_pred_zeroing == "twin"
    sz, dz = rec.sz, rec.dz
    if not twin:
        sz = sz and not dz
    sskip = rec.predicated and not (sz if twin else (sz or dz))
    dskip = rec.predicated and not (dz if twin else (sz or dz))
    return sz, dz, sskip, dskip
