"""Record builders: element widths.  FP element formats (fpelw), the XLEN
a page runs at, saturation's clamp and the width of the Rc=1 CR field's
result (normal.mdwn "sat mode", errata SV-6, decoder/svp64/*.txt).

Each builder takes the :class:`~.record.SVRecord` being built and sets the
attributes it decides (see record.py's module docstring for the whole)."""
import re

from ..errors import Trap
from ..pseudocode import compiler as pcompiler
from . import satexact
from .rowlists import fields_hold, signed_sources, xlen_rows


def fp_element_width(rec):
    """``rec.fp_elw``: binary32 / binary16 FP elements (``rec.fp_fmt``);
    bf16 is reserved and mixed or LD/ST rows are not implemented."""
    d, r = rec.d, rec.rm
    gops = [o for o in rec.ops if o.cls == "gpr"]
    fops = [o for o in rec.ops if o.cls == "fpr"]
    # FP element widths (fpelw): binary32 / binary16 elements; bf16 reserved
    rec.fp_elw = bool(fops) and (r.ew != 64 or r.ews != 64)
    if rec.fp_elw:
        if r.ew == 8 or r.ews == 8:
            raise Trap("SVP64 FP ELWIDTH=11 (bf16) is reserved", "illegal")
        if gops or rec.kind == "ldst":
            raise Trap("SVP64 FP element-width overrides on FP loads/stores and "
                       "GPR/FPR-mixed instructions are not implemented", "illegal")
        if rec.maxvl_ops:
            # no source shows an FP butterfly at an element width (the
            # integer ones count the MAXVL offset in elements)
            raise Trap(f"SVP64 FP element-width overrides on {d.mnemonic} (an "
                       "operand MAXVL elements on) are not implemented", "illegal")
        for j, o in enumerate(fops):
            o.sidx = j
        rec.fops = fops
        from .fpelw import elfmt
        rec.fp_fmt = elfmt(r.ew)


def page_xlen(rec):
    """``rec.xlen``, the width a page written in XLEN runs at under element
    widths (recompiling ``rec.c`` there), and ``rec.sext``, whether narrow
    sources are sign-extended (decoder/svp64/signed_sources.txt)."""
    isa, d, row, r = rec.isa, rec.d, rec.row, rec.rm
    fields = d.fields
    gops = [o for o in rec.ops if o.cls == "gpr"]
    fops = [o for o in rec.ops if o.cls == "fpr"]
    signed = signed_sources().get(row.mnemonic)
    rec.sext = signed is not None and fields_hold(signed, fields)
    # profile "elwidth_xlen" (openpower-isa): a page that names XLEN runs at
    # XLEN = the operation width max(source, destination), its sources
    # zero-extended to it, instead of at 64 bits with the result truncated
    # (at XLEN = 64 too: `sv.extsw/sw=8` reads its byte zero-extended)
    rec.xlen = 64
    opw = max(r.ew, r.ews)
    xlen = xlen_rows().get(row.mnemonic)
    xlen_row = (r.ew != 64 or r.ews != 64) and xlen is not None and fields_hold(
        [t for t in xlen if "&" in t], fields)
    if xlen_row and r.mode == "sat":
        # the exact result of an XLEN-wide page is not the 64-bit one the
        # saturation reads (decoder/svp64/sat_exact.txt)
        raise Trap(f"SVP64 saturation of {d.mnemonic} under element-width "
                   "overrides is not implemented (its operation depends on XLEN)",
                   "illegal")
    if (isa.profile.elwidth_xlen and (r.ew != 64 or r.ews != 64) and gops and not fops
            and rec.kind != "ldst" and pcompiler.names_xlen(row.page)):
        rec.xlen = opw
        if opw != 64:
            rec.c = isa.compiled(row, opw, svp64_so=rec.svp64_so)
        rec.sext = False
    elif (xlen_row and isa.profile.elwidth_xlen and opw == 64 and gops and not fops
          and rec.kind != "ldst"):
        # (profile "elwidth_xlen") at XLEN = 64 a page written for 64
        # bits only runs as it is, its narrower sources zero-extended
        rec.sext = False
    elif xlen_row:
        # the operation depends on XLEN (word halves, double-width
        # products): a page written at XLEN runs at XLEN = the operation
        # width (libre-soc: XLEN is the element width), its sources
        # extended as signed_sources.txt says and cut to XLEN bits; a page
        # written for 64 bits only defines no narrower operation (nor,
        # for its signed rows, how narrower sources extend)
        if not pcompiler.names_xlen(row.page) or fops or not gops:
            raise Trap(f"SVP64 element-width overrides on {d.mnemonic} are not "
                       "implemented (its operation depends on XLEN and its page is "
                       "written for 64 bits only)", "illegal")
        if r.ews != r.ew and "sources=mixed" in xlen:
            raise Trap(f"SVP64 ELWIDTH_SRC other than ELWIDTH on {d.mnemonic} is not "
                       "implemented (its sources differ in signedness, so one "
                       "extension rule cannot widen them)", "illegal")
        if opw != 64:
            rec.xlen = opw
            rec.c = isa.compiled(row, opw)


def saturation(rec):
    """``rec.sat``: None, or (result Op, Exact or None, the expression's
    fields or None) of a saturating row (decoder/svp64/sat_exact.txt)."""
    isa, d, row, r, c = rec.isa, rec.d, rec.row, rec.rm, rec.c
    gops = [o for o in rec.ops if o.cls == "gpr"]
    fops = [o for o in rec.ops if o.cls == "fpr"]
    signed = signed_sources().get(row.mnemonic)
    # saturation (normal.mdwn "sat mode"): clamp the exact result to ELWIDTH
    rec.sat = None
    if r.mode == "sat":
        if fops:
            raise Trap("SVP64 saturation of FP results is not implemented", "illegal")
        if "CA" in row.outs:
            raise Trap(f"SVP64 saturation of {d.mnemonic}: prohibited on operations "
                       "with a carry output (normal.mdwn)", "illegal")
        res = next((o for n in row.outs for o in gops if o.dst and o.field == n), None)
        if res is None:
            raise Trap(f"SVP64 saturation of {d.mnemonic}: no integer result",
                       "illegal")
        exact = satexact.rows().get(row.mnemonic)
        if exact is not None and r.sat not in exact.modes:
            raise Trap(f"SVP64 /sat{r.sat} of {d.mnemonic} is not implemented (its page "
                       f"reads its sources {'un' if r.sat == 's' else ''}signed; "
                       "decoder/svp64/sat_exact.txt)", "illegal")
        if exact is not None:
            exact = exact.get(r.sat)
        if exact is None and r.ews == 64:
            raise Trap(f"SVP64 /sat{r.sat} of {d.mnemonic} with 64-bit source elements "
                       "is not implemented (its exact result is not known: "
                       "decoder/svp64/sat_exact.txt)", "illegal")
        env = None
        if exact is not None and exact.expr is not None:
            # the fields the expression reads: register sources (their
            # Op) or immediates (their parameter position and width)
            srcs = {o.field: o for o in gops if o.src}
            env = []
            for name in exact.names:
                if name in srcs:
                    env.append((name, srcs[name], None, None))
                elif name in c.params:
                    fw = row.form.fields[name].width
                    env.append((name, None, c.params.index(name),
                                fw if name in isa.forms.signed else None))
                else:
                    raise Trap(f"decoder/svp64/sat_exact.txt: {d.mnemonic} has no "
                               f"source field {name}", "illegal")
        if r.sat == "u" and r.ews != 64 and rec.sext and signed:
            # a row whose fields choose signed sources (minmax's signed
            # comparison): zero-extending them (N=0) would change it
            raise Trap(f"SVP64 /satu of {d.mnemonic} with narrower signed source "
                       "elements is not implemented", "illegal")
        # (result Op, Exact or None, the expression's fields or None)
        rec.sat = (res, exact, env)
        rec.sext = r.sat == "s"


def rc_width(rec):
    """The Rc=1 CR0 of a narrow result: ``rec.rc_op``, recomputed from the
    element truncated to ``rec.rc_bits``, negative by bit ``rc_sign_bits``
    (profile ``rc_width``, ``rc_zero_extended_rows``)."""
    isa, d, row, r, c = rec.isa, rec.d, rec.row, rec.rm, rec.c
    gops = [o for o in rec.ops if o.cls == "gpr"]
    # Rc=1 CR0 of a narrow result: recomputed from the element truncated to
    # rc_bits (the destination width, or the operation's under a profile)
    rec.rc_op = None
    rec.rc_bits = r.ew if isa.profile.rc_width == "destination" else max(r.ew, r.ews)
    # the width whose top bit makes that CR negative: rc_bits, or 64 for
    # rows whose result the profile reads zero-extended (rc_zero_extended_rows)
    zext = isa.profile.rc_zero_extended_rows
    rec.rc_sign_bits = 64 if zext and re.match(zext, d.mnemonic) else rec.rc_bits
    if rec.rc and row.rc == "CR0" and rec.rc_bits != 64 and not c.records_cr0:
        rec.rc_op = next((o for n in row.outs for o in gops if o.dst and o.field == n),
                         None)
