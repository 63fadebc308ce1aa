"""Record builders: the RM mode, the operand sets the loop consults, and
when a scalar destination ends the loop.

Each builder takes the :class:`~.record.SVRecord` being built and sets the
attributes it decides (see record.py's module docstring for the whole)."""
import re

from . import rm as rmmod


def decode_mode(rec):
    """The RM's MODE bits read with the row's mode table (``rec.rm``), the
    profile's CR-op and saturation readings applied; ``rec.base_args``, the
    page's arguments with the EXTRA-extended register numbers."""
    isa, d, r, c, cat = rec.isa, rec.d, rec.rm, rec.c, rec.cat
    fields = d.fields
    rec.cr_dest = crdest = any(o.dst and o.cls in ("crf", "crb") for o in rec.ops)
    # an Rc=1 instruction whose page records CR0 itself (svstep.) uses the Rc=1 table
    rec.rc_bit = rc_field = bool(fields.get("Rc"))
    rmmod.decode_mode(r, rec.kind, rec.rc or rc_field, crdest)
    if cat.decode_mode is not None:
        cat.decode_mode(r, rec)
    crop = isa.profile.crop_rows
    rec.crop_row = bool(crop and re.match(crop, d.mnemonic))
    if rec.crop_row:
        # the profile's CR-op rows (openpower-isa's CROP): its RM decoder
        # extracts no zeroing, reverse gear or element widths for them
        r.sz = r.dz = 0
        r.rg = 0
        r.ew = r.ews = 64
    if r.mode == "sat" and isa.profile.saturation == "none":
        # the profile's saturation (openpower-isa): sz/dz as decoded, no
        # clamp, so none of saturation's traps either
        r.mode, r.sat = "normal", None
    rec.base_args = [fields[p] for p in c.params]
    if not rec.svp64_so and "OE" in c.params:
        rec.base_args[c.params.index("OE")] = 0  # openpower-isa ignores OE under SVP64
    for o in rec.ops:
        rec.base_args[o.pos] = o.base


def operand_sets(rec):
    """The operand lists and flags the element loop consults: vector
    operands, destinations, vector CR operands and which classes zeroing
    reaches (profile ``cr_field_zeroing``, ``cr_field_subvl``)."""
    isa, r = rec.isa, rec.rm
    rec.vecops = [o for o in rec.ops if o.vec]
    rec.dstops = [o for o in rec.ops if o.dst]
    # vector CR-field / CR-bit operands (profile switch cr_field_steps)
    rec.cr_field_ops = any(o.vec and o.cls in ("crf", "crb") for o in rec.ops)
    # which operand classes zeroing reaches besides GPRs (cr_field_zeroing):
    # a masked-out element whose destinations are all CR fields may run
    rec.zeroed_classes = ("fpr", "crf", "crb")
    if isa.profile.cr_field_zeroing == "none":
        rec.zeroed_classes = ("fpr",)
    rec.cr_result_kept = bool(rec.dstops) and not any(
        o.cls in ("gpr",) + rec.zeroed_classes for o in rec.dstops)
    # ... one per element, not per sub-element (profile switch cr_field_subvl)
    rec.cr_field_by_step = (rec.cr_field_ops and r.subvl > 1
                            and isa.profile.cr_field_subvl == "step")


def loop_end(rec):
    """``rec.scalar_dest``: whether a scalar destination ends the loop at its
    first write (profile ``scalar_dest``, ``ffirst_scalar_sources``), and
    ``rec.scalar_dest_zeroed_ends``: whether a zeroed write ends it too."""
    isa, d, row, r, cat = rec.isa, rec.d, rec.row, rec.rm, rec.cat
    regdst = [o for o in rec.dstops]
    # a scalar destination ends the loop at its first write (unless map-reduce)
    rec.scalar_dest = bool(regdst) and not any(o.vec for o in regdst) and \
        not (rec.rc and rec.crvec) and r.mode != "mapreduce"
    if r.mode == "ffirst" and any(o.vec and o.src for o in rec.ops):
        # normal.mdwn "Data-Dependent Fail-First implicit mapreduce mode": a
        # scalar destination is an accumulator, the loop goes on to the
        # failing element (openpower-isa likewise tests only the sources)
        rec.scalar_dest = False
    if rec.kind == "ldst":
        # ldst.mdwn: a scalar load destination ends the loop; a store's
        # destination is memory (a vector of stores, even to one address)
        data = row.operands[0].field
        rec.scalar_dest = "MEM" not in row.outs and not any(
            o.vec for o in rec.ops if o.field == data) and r.mode != "ffirst"
    # "first-step" ends a scalar-destination loop after its first step even
    # when that step zeroed the destination (dz); "first-write" runs on to a
    # real write
    first_step_ends = isa.profile.scalar_dest == "first-step"
    rec.scalar_dest_zeroed_ends = first_step_ends
    if first_step_ends and rec.scalar_dest and (
            cat.ptype == 2 and any(o.vec for o in rec.ops if o.src)):
        # ... but loops on while a twin-predicated row has a vector
        # source (its svp64_is_vector test): every LD/ST row is one, so a
        # scalar load destination with a vector RA or RB takes each
        # element's load in turn, the last one standing
        rec.scalar_dest = False
    vrows = isa.profile.ffirst_cr_vector_rows
    rec.cr_vector_row = cr_vector_row = bool(vrows and re.match(vrows, d.mnemonic))
    if (isa.profile.ffirst_scalar_sources == "once" and r.mode == "ffirst"
            and rec.kind != "ldst" and row.rc not in ("CR0", "CR1")
            and not cr_vector_row  # (their CR0 output counts as an Rc column's)
            # ... as does a vector CR-field or CR-bit destination (mcrf, cmp*)
            and not any(o.dst and o.vec and o.cls in ("crf", "crb") for o in rec.ops)
            and not any(o.vec for o in rec.ops if o.src)):
        # openpower-isa: under fail-first only a vector source keeps the loop
        # going (svp64_is_vector = in_vec, bug 1183); a row with an Rc
        # column (sv.and/ff=RC1 *61, 8, 72) runs on, its CR field
        # counting as one, so only rows without one (addi) run once
        rec.scalar_dest = True
    if first_step_ends and rec.kind == "ldst" and not any(o.vec for o in rec.ops):
        # ... and runs an all-scalar load/store once, where the spec's unit
        # stride makes a store with a scalar source a splat into memory
        rec.scalar_dest = True
