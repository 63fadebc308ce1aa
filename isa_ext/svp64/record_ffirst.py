"""Record builder: data-dependent fail-first (normal.mdwn, cr_ops.mdwn,
ldst.mdwn): which CR field each element tests (``rec.ffcr``) and what a
failing element keeps, as the profile reads it.

The builder takes the :class:`~.record.SVRecord` being built and sets the
attributes it decides (see record.py's module docstring for the whole)."""
import re

from ..errors import Trap


def fail_first(rec):
    """``rec.ffcr``: None, or (kind, Op) of the CR result a fail-first
    element tests: "rc1" (LD/ST), "rc" (Rc=1), "rc0" (Rc=0, the result's CR
    as if Rc=1), "op" (a CR-field result) or "bit" (a CR-bit result); and the
    profile's readings of what a failing element keeps."""
    isa, row, r = rec.isa, rec.row, rec.rm
    rec.ffcr = None
    rec.ffcr_whole_cr = False
    # normal-mode RC1 fail-first: the result is discarded (spec) or stored
    # as well (openpower-isa)
    rec.rc1_stores = isa.profile.rc1_results == "stored"
    # a discarded fail-first element's XER and FPSCR taken back with its
    # registers (spec), or the XER kept (profile ffirst_kept_xer_rows)
    kept = isa.profile.ffirst_kept_xer_rows
    rec.ffirst_xer_kept = bool(kept and re.match(kept, row.mnemonic))
    # (stores keep the spec's reading under every profile: openpower-isa's
    # store fail-first raises or tests the updated RA, docs/compat.md)
    store = rec.kind == "ldst" and "MEM" in row.outs
    rec.ffirst_vl_at_source = isa.profile.ffirst_vl_step == "source" and not store
    rec.ffirst_group_kept = isa.profile.ffirst_subvl_group == "kept" and not store
    # a load's fail-first CR field (RC1): CR0 + element, or CR0 for every
    # element where the profile's Rc=0 field of a row without an Rc
    # column is (vector_rc_field "cr0": openpower-isa's get_cr_out gives a
    # row with no CR output CR0 itself, "XXX TODO: offset CR0")
    rec.ld_ffcr_vec = isa.profile.vector_rc_field != "cr0"
    if r.mode == "ffirst":
        if rec.kind == "ldst":
            rec.ffcr = ("rc1", None)
        elif rec.rc or rec.rc_bit:
            rec.ffcr = ("rc", None)
            if rec.rc and r.vli and isa.profile.ffirst_vli_zz and rec.kind == "normal":
                # openpower-isa reads MODE[0:2] = 0b11 with Rc=1 as the old
                # pred-result mode's zz: sz = dz = the CR-bit's high bit
                r.sz = r.dz = (r.cr_sel >> 1) & 1
            if rec.rc and isa.profile.rc_ffirst_vli == "ignored":
                r.vli = 0  # openpower-isa decodes VLi only when Rc=0
        elif rec.kind == "normal" and not rec.cr_dest:
            _as_if_rc1(rec)
        else:
            _cr_result(rec)


def _as_if_rc1(rec):
    """Rc=0: the result's CR as if Rc=1 (normal.mdwn "Rc=0: ffirst z/nonz")."""
    isa, d, row, r = rec.isa, rec.d, rec.row, rec.rm
    res = next((o for n in row.outs for o in rec.ops
                if o.dst and o.field == n and o.cls in ("gpr", "fpr")), None)
    if res is None or res.cls != "gpr":
        raise Trap("SVP64 fail-first with Rc=0 on an instruction without a GPR "
                   "result is not implemented", "illegal")
    if not row.rc:
        # no Rc column: the as-if-Rc=1 field is CR0, a vector with
        # the result (spec) or CR0 for every element (openpower-isa)
        rec.crbase = 0
        rec.crvec = res.vec and (isa.profile.vector_rc_field != "cr0"
                                 or rec.cr_vector_row)
        if rec.crvec and isa.profile.vector_rc_field == "cr0":
            # openpower-isa's CR0 + dststep: one field per element,
            # each sub-element overwriting it (as its Rc=1 field)
            rec.cr_step_div = r.subvl
            rec.cr_by_step = True
    rec.ffcr = ("rc0", res)
    whole = isa.profile.ffirst_cr_whole_cr_rows
    rec.ffcr_whole_cr = bool(whole and re.match(whole, d.mnemonic))


def _cr_result(rec):
    """A CR operation (cr_ops.mdwn "Data-dependent fail-first on CR
    operations"): the CR result is the one tested.  A CR-field destination
    (mcrf, cmp): its bit MODE's CR-bit selects (the 3-bit variant); a CR-bit
    destination (crand, creqv): the bit just written (the 5-bit variant: bits
    22-23 are dz and unused, no CR-bit)."""
    isa, d, r = rec.isa, rec.d, rec.rm
    cro = [o for o in rec.dstops if o.cls == "crf"]
    crb = [o for o in rec.dstops if o.cls == "crb"]
    rc1_rows = isa.profile.ffirst_cr_field_rc1_rows
    if cro and rc1_rows and re.match(rc1_rows, d.mnemonic):
        # (profile) MODE read as the arithmetic table's Rc=0 row
        # `VLi 1 inv zz RC1`: EQ tested, and only when RC1 is set
        r.cr_sel, r.rc1 = 2, r.mode_bits & 1
        rec.ffcr = ("op", cro[0]) if r.rc1 else None
    elif cro:
        rec.ffcr = ("op", cro[0])
    elif crb:
        if not rec.crop_row:  # (the profile's CR ops have no dz)
            r.dz = (r.mode_bits >> 1) & 1
        r.cr_sel = None
        rec.ffcr = ("bit", crb[0])
    else:
        raise Trap("fail-first needs a CR result (Rc=1 or a CR field destination)",
                   "illegal")
