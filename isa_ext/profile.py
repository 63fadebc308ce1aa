"""Profiles: which reading of the specification a simulator follows.

The default profile, ``spec``, follows the specification text where it is
explicit and the openpower-isa pages where the text is silent or TBD.  The
``openpower-isa`` profile reproduces what libre-soc's simulator (openpower-isa
3cb597b9) observably does where it departs from that reading, so that
libre-soc's own tests, which encode that simulator's behaviour, can be run as
they are.  docs/compat.md lists every switch with the spec text, the
simulator's behaviour and the test that pins it.

Switches name the behaviour they select, never a program: each value says
what the loop does (``scalar_dest="first-step"``), and the comments below say
which reading takes it (the specification, or openpower-isa: its code is cited
in docs/compat.md).

A profile is two things, both read when an instruction is decoded (never in
the element loop):

* a few engine switches (:class:`Profile` fields) for behaviour that belongs
  to the SVP64 loop rather than to one instruction;
* an overlay of pseudocode pages (``pseudocode/profiles/<folder>/*.mdwn``):
  a page there replaces the page of the same mnemonic, so an instruction whose
  result differs (integer division by zero ...) differs in its page, not in
  Python.
"""
from .records import record

from .errors import IsaExtError


@record(frozen=True)
class Profile:
    name: str
    #: first CR field of CR-predicate masks: element i tests CR[offset + i]
    cr_pred_offset: int = 32
    #: the Rc=1 CR field of a vector result: "extra" (the field extended by the
    #: destination's EXTRA slot, one per element) or "cr0" (CR0/CR1 + element;
    #: the Rc=0 fail-first field of a row without an Rc column, a load's
    #: included, CR0 for every element)
    vector_rc_field: str = "extra"
    #: the Rc=1 CR0 of an element-width result: from the element as written
    #: ("destination" width) or from the result at the operation's width,
    #: max(source, destination) ("operation", as openpower-isa's XLEN); likewise
    #: the CR a fail-first test records, a load's (its loaded value) included
    rc_width: str = "destination"
    #: single-predicate zeroing: "spec" (sz and dz both mean: a masked-out
    #: element is written as zero, docs/svp64.md "1P zeroing") or "twin" (as
    #: with twin predication under one mask: sz steps the source over
    #: masked-out elements with zero sources, dz the destination, each alone)
    single_pred_zeroing: str = "spec"
    #: when a scalar destination ends the element loop: "first-write" (after
    #: its first write, unless map-reduce: the spec) or "first-step" (after
    #: the first step, even one that zeroed the destination; twin-predicated
    #: rows with a vector source, and fail-first, run on to VL; an all-scalar
    #: LD/ST runs once: openpower-isa)
    scalar_dest: str = "first-write"
    #: a vector RA-or-zero operand (``sv.addi *8, *0, 5``): its element in r0
    #: reads r0 ("register", the element is a register like any other) or 0
    #: ("zero", openpower-isa's decoder tests the element's register number)
    vector_ra0: str = "register"
    #: under reverse gear (/mrr) a predicate bit belongs to the "element" it
    #: names (spec), or to the "step" (openpower-isa: step 0 tests bit 0 and runs
    #: element VL-1)
    reverse_gear_mask: str = "element"
    #: under reverse gear with SUBVL > 1 the sub-elements of each element
    #: run "forward" (isa_ext's reading: normal.mdwn's RG reverses "the
    #: Vector Loop order (VL-1 downto 0)", the elements) or "reversed" as
    #: well (openpower-isa: the last sub-element of element VL-1 first)
    reverse_subvl: str = "forward"
    #: saturation (MODE ``1 0 N dz sz``, ``/sats`` ``/satu``): the result is
    #: "clamp"ed to the destination's signed / unsigned range (normal.mdwn
    #: "sat mode"), or "none": the mode decodes (its sz/dz stand) but the
    #: element runs as in normal mode, unclamped (openpower-isa: power_svp64_rm.py
    #: decodes SVP64Sat and nothing reads it)
    saturation: str = "clamp"
    #: a destination-zeroed element (``dz``, or sz/dz stepping it as such):
    #: its destination registers are written with 0 and nothing else is
    #: "skipped" (the overview's zeroing pseudocode: ``else if zeroing:
    #: ireg[RT+id] = 0``), or its page is "run" on its sources and every
    #: write but its register results and Rc=1 CR field stands: XER CA CA32
    #: (addex's OV OV32), FPSCR (openpower-isa: caller.py zeroes the output in
    #: check_write only and skips Rc=1 under pred_dst_zero)
    dest_zeroed_page: str = "skipped"
    #: under reverse gear (/mrr) a vector CR-field or CR-bit operand (BFA,
    #: BI, BC ...) of a row that is not a CR op belongs to the "element" the
    #: step runs (normal.mdwn: RG inverts the Vector Loop order, the whole
    #: element), or to the "step" (openpower-isa: power_decoder2.py reverses GPR
    #: and FPR element offsets, `vmax-1-step`, but adds the plain step to a
    #: vector CR field)
    reverse_cr_fields: str = "element"
    #: Rc=0 data-dependent fail-first (``/ff=RC1``) with no vector source
    #: on a row without an Rc column (addi, xoris) runs over VL like any
    #: vector instruction ("vl"), or "once" (openpower-isa's loop test under
    #: fail-first looks at the inputs only, a row's Rc=1 CR field one of them)
    ffirst_scalar_sources: str = "vl"
    #: rows without an Rc column whose Rc=0 fail-first CR field is one per
    #: element even where vector_rc_field is "cr0" (a regex of mnemonics, or
    #: None): openpower-isa's RM table gives them a CR0 output (RM-1P-2S1D.csv
    #: `addg6s ... d:RT;d:CR0`, RM-2P-1S1D.csv `mulli ... d:RT;d:CR0`: of
    #: the rows with a CR0 output there, the two without an Rc column), so
    #: its get_cr_out steps the field
    ffirst_cr_vector_rows: str = None
    #: rows whose Rc=0 fail-first CR field is "as if Rc=1" of the whole CR
    #: instead of the result (a regex of mnemonics, or None): openpower-isa's
    #: pages of setb, the setbc family and isel return ``(CR, RT)`` (they read CR),
    #: and its Rc=1 handling takes the first output, so the field is GT when
    #: any of CR0-CR7 is non-zero and EQ otherwise (SO copied)
    ffirst_cr_whole_cr_rows: str = None
    # -- fail-first on CR results and the CR of narrow results (s28) --
    #: rows with a CR-field result whose fail-first MODE is read as the
    #: arithmetic table's Rc=0 row ``VLi 1 inv zz RC1`` (a regex of mnemonics,
    #: or None: cr_ops.mdwn's 3-bit variant, ``VLi 1 inv CR-bit``, for all):
    #: EQ of the result field is tested, and only when RC1 is set.  openpower-isa
    #: marks CR ops by name (cmp*, cr*: crop_rows), so mcrf's RM decodes as
    #: an arithmetic row's (power_svp64_rm.py: Rc=0 fail-first, "EQ bit index
    #: is implicit")
    ffirst_cr_field_rc1_rows: str = None
    #: rows whose CR field (Rc=1, or a fail-first test) reads the result at
    #: the operation width zero-extended to 64 bits, so never negative below
    #: 64 (a regex of mnemonics, or None): openpower-isa's extswsli page computes
    #: ``ROTL64(EXTS64(...)) & MASK(0, XLEN-1-n)``, a 64-bit value whose bits
    #: past XLEN the XLEN-bit mask clears, and takes its CR from that
    rc_zero_extended_rows: str = None
    #: the predicate mask is read "once" before the loop, or again before
    #: "every element" (openpower-isa), which an element writing the mask
    #: register can observe
    mask_read: str = "once"
    #: Rc=0 data-dependent fail-first with RC1 (``/ff=RC1``): the result of
    #: each element is "discarded" (normal.mdwn: "stores CRs but not the
    #: result") or "stored" as well (openpower-isa)
    rc1_results: str = "discarded"
    #: rows whose fail-first element keeps the XER (CA CA32 OV OV32 SO) its
    #: page wrote when the element's results are discarded (a failing
    #: element with VLi=0, an RC1 element); None: no row (normal.mdwn: the
    #: failing element's operations are discarded, RC1 stores no results,
    #: so XER and FPSCR are restored with the registers).  openpower-isa: every
    #: row but those whose page returns CA as an output (sraw srawi srad
    #: sradi), which do_outregs skips on a fail-first hit; handle_carry_
    #: writes the others' carry before the test
    ffirst_kept_xer_rows: str = None
    #: data-dependent fail-first truncates VL at the failing "destination"
    #: element (normal.mdwn: "the new VL comprises a contiguous vector of
    #: results", plus one with VLi) or at the "source" step (openpower-isa's
    #: check_ffirst: VL = srcstep + VLi, arithmetic rows and loads, not
    #: stores); they differ under a twin predicate
    ffirst_vl_step: str = "destination"
    #: data-dependent fail-first with SUBVL > 1 and no VLi: a failing
    #: sub-element's group is "discarded", the results of its earlier
    #: sub-elements too (VL counts whole groups), or those are "kept"
    #: (openpower-isa writes each sub-element as it goes and withholds only the
    #: failing one's); arithmetic rows and loads, not stores
    ffirst_subvl_group: str = "discarded"
    #: VLi of Rc=1 data-dependent fail-first (``sv.add./ff=lt/vli``): the
    #: failing element is included ("honoured", normal.mdwn "VLi 1 inv
    #: CR-bit") or VLi reads as 0 ("ignored": openpower-isa's RM decoder sets VLi
    #: "only when Rc=0")
    rc_ffirst_vli: str = "honoured"
    #: the vector CR-field operands (BF BFA BT BA BB BI ...) of the first
    #: element an instruction runs: at that "element" (spec), or at the
    #: steps the instruction "start"ed from, before masked-out elements were
    #: skipped (openpower-isa decodes them before its pre-increment skips)
    cr_field_steps: str = "element"
    #: under SUBVL > 1 a vector CR-field operand has one field per
    #: "element" counted with its sub-elements (spec), or one per "step"
    #: (openpower-isa: BF + dststep, each sub-element overwriting its element's
    #: field, as its Rc=1 CR0 + dststep)
    cr_field_subvl: str = "element"
    #: rows decoded with openpower-isa's CR-op RM reading (a regex of mnemonics,
    #: None: none): its table marks every cmp* and cr* row CROP (sv_analysis.py
    #: by name, cmpb's GPR result included), and its RM decoder extracts no
    #: sz/dz, no reverse gear and no element widths for CROP rows
    crop_rows: str = None
    #: zeroing (sz/dz) of CR-field and CR-bit operands: masked-out ones
    #: are "zero" (cr_ops.mdwn: "put zeros into the dest (or as src ...)"),
    #: or "none": read and written as if enabled (openpower-isa zeroes only GPR
    #: and FPR reads and writes), the zeroing's stepping unchanged
    cr_field_zeroing: str = "zero"
    #: Rc=1 fail-first with VLi (MODE 1 1 inv CR-bit): no zeroing (False,
    #: normal.mdwn has no zeroing bit there), or sz = dz = the CR-bit's high
    #: bit (True: openpower-isa's RM decoder still reads MODE[0:1] = 0b11 with
    #: Rc=1 as the old pred-result mode, whose bit 3 was zz)
    ffirst_vli_zz: bool = False
    #: under an element-width override, a page that names XLEN runs at 64
    #: bits and its result is truncated (False: errata SV-6) or at XLEN = the
    #: operation width max(source, destination), its sources zero-extended
    #: to it (True: openpower-isa, whose pages are written in XLEN)
    elwidth_xlen: bool = False
    #: what the openpower facade's ``sim.msr`` reads: the "machine" MSR
    #: (whose SF and LE bits set isa_ext's mode) or the "register" run_tst
    #: was given (openpower-isa: a plain register, 0 by default, that does not
    #: change its 64-bit little-endian running)
    msr: str = "machine"
    #: XER under SVP64: "element-so" (the SVP64 appendix, "XER, SO and other
    #: global flags" and "OE=1": a prefixed instruction neither reads nor
    #: writes XER.SO, so an element's Rc=1 SO is its own overflow when OE=1
    #: and 0 otherwise; OV/OV32 are written as the page says, which the
    #: appendix permits) or "oe-ignored" (OE reads as 0 under SVP64, so XER
    #: is not written, and CR fields copy XER.SO as in scalar code:
    #: openpower-isa's caller.py skips handle_overflow "in parallel processing")
    svp64_xer: str = "element-so"
    #: ``/els`` on an indexed LD/ST with scalar RA and RB: element stride
    #: EA_i = (RA) + i*(RB) ("stride", ldst.mdwn "register-strided"), or
    #: "ignored": every element at (RA) + (RB) as without it (openpower-isa:
    #: its decoder sets ELSTRIDE, but caller.py check_replace_d rewrites only
    #: a D-form displacement)
    indexed_els: str = "stride"
    #: ``/pi`` on a LD/ST that is not an update form: "illegal" (post-increment
    #: applies to update forms only) or "ignored", the element run as without
    #: it (openpower-isa: caller.py redirects to the post-increment page only when
    #: the mnemonic has a ``u``)
    pi_without_update: str = "illegal"
    #: LD/ST zeroing (``/zz``: sz = dz): the "data" element alone (a zeroed
    #: load element is 0 with no memory access, a zeroed store source stores
    #: 0, RA left alone) or every "register" as for any other row (openpower-isa:
    #: a source-zeroed element reads RA, RB and RS as 0 and accesses memory
    #: at the EA those give; a destination-zeroed element runs, its access
    #: included, and writes 0 to RT and to an update form's RA)
    ldst_zeroing: str = "data"
    # -- REMAP (s29) --
    #: reverse gear (/mrr) under REMAP: the steps march VL-1 downto 0 and
    #: the schedule maps each step "once" (svp64 overview "REMAP and other
    #: reordering": element = remap(step)), or the remapped index is reversed
    #: again, "twice" (openpower-isa: its steps march up, its decoder reverses
    #: every vector offset, remapped or not: element VL-1-remap(VL-1-step),
    #: sub-elements reversed as well)
    remap_reverse: str = "once"
    #: which step a REMAP slot's schedule follows: the "slot"'s own side
    #: (remap.mdwn: in1-in3 srcstep, out/out2 dststep) or its SVSHAPE's
    #: "shape" number (openpower-isa's get_remap_indices: SVSHAPE3 dststep,
    #: SVSHAPE0-2 srcstep, whichever operand uses them); they differ only
    #: when srcstep and dststep do (twin predication, sz/dz stepping)
    remap_step_side: str = "slot"
    #: the memory offsets of a unit- or element-strided LD/ST under REMAP:
    #: "ea-slot" (a load's follow the EA slot, else RA's, else step order; a
    #: store's likewise at dststep: LdSt.offset_slot; the spec) or
    #: "load-mi0" (a load's follow SVSHAPE[mi0] whenever REMAP is active,
    #: whatever SVme enables; a store's are never remapped: openpower-isa's
    #: caller.py check_replace_d)
    remap_ldst_offsets: str = "ea-slot"
    #: the FPSCR around a page that calls a transcendental (FP<name> of
    #: pseudocode/fptrans.py: fsin ...): "page" (the updates the page's
    #: helpers make, docs/fptrans.md) or "kept" (saved before the page and
    #: put back after it, as openpower-isa's helpers.py bfp64_SIN ... return the
    #: host's math result and alter no FPSCR bit; CR1 of the Rc=1 forms then
    #: copies the unchanged FPSCR)
    fptrans_fpscr: str = "page"
    #: folder of the page overlay under pseudocode/profiles/, or None
    pages: str = None
    #: one line for ``--help`` and docs
    summary: str = ""


PROFILES = {
    "spec": Profile(
        "spec",
        summary="the specification text"),
    "openpower-isa": Profile(
        "openpower-isa", cr_pred_offset=4, vector_rc_field="cr0",
        rc_width="operation", single_pred_zeroing="twin",
        scalar_dest="first-step", vector_ra0="zero",
        reverse_gear_mask="step", mask_read="every element",
        rc1_results="stored", msr="register", elwidth_xlen=True,
        ffirst_kept_xer_rows=r"(?!sra[wd]i?\.?$)",
        rc_ffirst_vli="ignored", cr_field_steps="start",
        cr_field_subvl="step", cr_field_zeroing="none",
        crop_rows=r"(cmp|cr)|(mfcr|mfocrf|mtcrf|mtocrf)$", reverse_subvl="reversed",
        ffirst_scalar_sources="once", ffirst_vli_zz=True, pages="openpower_isa",
        svp64_xer="oe-ignored", ffirst_cr_vector_rows=r"(addg6s|mulli)$",
        ffirst_cr_whole_cr_rows=r"(set(b|n?bcr?)|isel)$", ffirst_vl_step="source",
        ffirst_subvl_group="kept", remap_reverse="twice", remap_step_side="shape",
        remap_ldst_offsets="load-mi0", fptrans_fpscr="kept",
        ffirst_cr_field_rc1_rows=r"mcrf$", rc_zero_extended_rows=r"extswsli\.?$",
        saturation="none", dest_zeroed_page="run", reverse_cr_fields="step",
        indexed_els="ignored", pi_without_update="ignored", ldst_zeroing="registers",
        summary="what libre-soc's simulator (openpower-isa 3cb597b9) does"),
}

DEFAULT = PROFILES["spec"]


def get(profile):
    """A :class:`Profile` from its name (or a Profile, returned as it is)."""
    if profile is None:
        return DEFAULT
    if isinstance(profile, Profile):
        return profile
    try:
        return PROFILES[profile]
    except KeyError:
        raise IsaExtError(f"unknown profile {profile!r}; have {', '.join(PROFILES)}") from None
