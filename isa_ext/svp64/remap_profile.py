"""REMAP readings the profile switches (isa_ext/profile.py), applied to a
remapped run's index tables ({slot: element index per sub-element step},
executor.sub_tables) before the element loop reads them:

* ``remap_reverse`` "twice": under reverse gear openpower-isa reverses the
  remapped index again (:func:`reversed_twice`);
* ``remap_step_side`` "shape": openpower-isa steps an SVSHAPE by dststep or
  srcstep by its number, not by the operand using it (:func:`step_tables`);
* ``remap_ldst_offsets`` "load-mi0": a load's memory offsets follow
  SVSHAPE[mi0] whenever REMAP is active (:data:`LOAD_OFFSETS`, the slot
  :func:`load_offsets_shape` adds).

docs/compat.md (Profiles) gives the spec text and openpower-isa's code for each.
"""
from ..errors import Trap
from . import remap
from . import svstate as SV
from .indexmap import HOOK_SLOT, LOAD_OFFSETS, StepTables


def for_profile(tables, profile, svstate, n, rg):
    """A remapped run's ``tables`` (``n`` = VL * SUBVL steps, ``rg``
    reverse gear) as ``profile`` reads them: :func:`reversed_twice` under
    ``remap_reverse`` "twice", :func:`step_tables` under
    ``remap_step_side`` "shape"."""
    if rg and profile.remap_reverse == "twice":
        tables = reversed_twice(tables, n)
    if profile.remap_step_side == "shape":
        tables = step_tables(tables, svstate)
    return tables


def reversed_twice(tables, n):
    """openpower-isa's reverse gear under REMAP: its steps march up, the remapped
    index is looked up at the forward step and its decoder then reverses it
    (power_decoder2.py ``vmax-1-step``, step = remapstep * SUBVL + substep).
    The executor's step-order number k under reverse gear counts down from
    n - 1, so the element at k is n-1 - table[n-1-k].  A remapped index past
    n - 1 would reverse to a negative offset (openpower-isa's 7-bit offset wraps
    round): that traps "not implemented"."""
    out = {slot: [n - 1 - t[n - 1 - k] for k in range(n)] for slot, t in tables.items()}
    for slot, t in out.items():
        if t and min(t) < 0:
            raise Trap(f"REMAP under reverse gear: {slot}'s index {n - 1 - min(t)} is past "
                       f"VL*SUBVL-1 = {n - 1}, reversed below element 0 (not implemented "
                       f"under this profile)", "illegal")
    return out


def step_tables(tables, svstate):
    """``tables`` with the slots whose SVSHAPE steps the other side marked
    cross (caller.py get_remap_indices: ``step = dststep if (i in [3, 4])
    else srcstep`` over SVSHAPE i): a destination slot on SVSHAPE0-2 follows
    srcstep, a source slot (the load-offset pseudo-slot included, on mi0) on
    SVSHAPE3 dststep."""
    cross = set()
    fields = dict(remap.SLOTS)
    fields[LOAD_OFFSETS] = "mi0"
    for slot, field in fields.items():
        hook = HOOK_SLOT.get(slot, slot)
        if hook in tables and (SV.get(svstate, field) == 3) != field.startswith("mo"):
            cross.add(hook)
    return StepTables(tables, cross)


def load_offsets_shape(svstate, shapes, mnemonic):
    """The SVSHAPE value a load's offsets follow under ``remap_ldst_offsets``
    "load-mi0": SVSHAPE[mi0] when any SVme bit is set (caller.py
    check_replace_d: ``offsmul = in1_step`` whenever remap_active), else None.
    An SVSHAPE[mi0] of 0 traps: openpower-isa leaves in1_step as an earlier
    instruction set it (get_remap_indices skips "disabled" shapes)."""
    if not SV.get(svstate, "SVme"):
        return None
    value = shapes[SV.get(svstate, "mi0")]
    if not value:
        raise Trap(f"REMAP load offsets through an SVSHAPE of 0 (mi0) are not implemented "
                   f"under this profile ({mnemonic})", "illegal")
    return value
