"""The SVP64 element-loop executor: runs a decoded record (:mod:`.record`).

* Horizontal-first (SVSTATE.vfirst=0): the whole loop runs in one call.  The common
  case (no predicate, 64-bit elements, normal mode, identity index map, no
  pack/unpack) runs the record's generated loop (``Compiled.element_loop``;
  once the record is hot, its page specialised to the record's fields:
  ``translate.svp64.template_loop``).
* Vertical-first: one element at SVSTATE's current steps; ``svstep`` advances.
* The general path walks source and destination positions in stepping order
  (:mod:`.steps`: SUBVL, pack/unpack, predicate skipping), asks the index map
  (:mod:`.indexmap`, identity until REMAP) which element each operand uses,
  zeroes masked-out elements, applies element widths (a scratch register file
  holding the elements extended to 64 bits), saturation and fail-first, and
  emits trace events.
* Element widths below 64 (GPRs): elements are packed little-endian into the
  register file.  The page runs on a scratch register list holding the
  source elements extended to 64 bits (sign-extended for the rows listed in
  ``decoder/svp64/signed_sources.txt``, zero-extended otherwise); the
  destination element is written back truncated to its width, and an Rc=1 CR0
  field is recomputed from that truncated element.  The address register of a
  load/store is always read at 64 bits.
* Vertical-first with predication: before its element runs, an instruction
  moves srcstep / dststep forward over masked-out elements (unless zeroing) and
  records the new steps in SVSTATE; with no enabled element left the steps are
  left at VL and nothing runs (the next ``svstep`` ends the loop).
* A page that reads or writes SVSTATE (``svstep``) runs with SVSTATE holding
  the element's steps and ``s.sv_loop`` holding the stepping context
  (:class:`.steps.LoopContext`: SUBVL and predicate masks) of the prefixed
  instruction.
* Progress is kept in SVSTATE's steps: an element-level interrupt or a trap
  inside the loop leaves PC at the instruction and the steps at the element
  that did not complete, so running again resumes.
"""
from functools import lru_cache

from ..errors import Trap
from ..machine import MemoryView
from . import remap
from . import svstate as SV
from .elements import M64, read_elem, write_elem
from .indexmap import HOOK_SLOT, IDENTITY, IndexMap, element_index, slot_index
from .predication import mask as pred_mask, zeroing, ALL
from .record import SVRecord
from . import satexact
from . import regfile_end
from . import remap_profile
from .steps import settle_mid_element, LoopContext, settle, step_on, reverse_mask

# horizontal-first fast runs of one record before its specialised loop is built
# (building costs milliseconds: an instruction run a few times does without)
TEMPLATE_AFTER = 8


class ElementInterrupt(Trap):
    """An injected element-level interrupt (``Simulator.interrupt_after``)."""

    def __init__(self, reason):
        super().__init__(reason, "interrupt")


class SVInsn:
    """The executor of one prefixed instruction: ``f(s, CIA) -> NIA``.

    ``SVInsn(isa, sim, prefix, suffix)`` decodes the record itself; ``record=``
    passes one already decoded.  ``index_map`` (:class:`.indexmap.IndexMap`,
    identity by default) says which element each operand slot uses at each
    step; a non-identity map runs the general path."""

    def __init__(self, isa, sim, prefix, suffix, record=None):
        rec = self.rec = record if record is not None else SVRecord(isa, prefix, suffix)
        self.sim = sim
        self._read_values = {}  # the element's source values, while tracing
        # the hot path reads these on every call: kept on the executor itself
        self._loop = rec.fast_loop
        self.subvl = rec.subvl
        self.order_bits = rec.order_bits
        self.index_map = IDENTITY
        # per-run buffers: scratch register files for element widths (the
        # snapshot of a fail-first sub-vector group is machine state:
        # State.sv_group, which outlives an interrupt and this object)
        self.scratch = [0] * 128
        self.fp_scratch = [0] * 128 if rec.fp_elw else None
        self.fp_split = [0] * 128  # see _split_fp_call

    @property
    def index_map(self):
        return self._index_map

    @index_map.setter
    def index_map(self, imap):
        if not imap.identity:
            self.rec.assign_slots()
        self._index_map = imap
        self.fast = self.rec.fast and imap.identity

    def __call__(self, s, CIA):
        sv = s.svstate
        if sv & SV.SVME_MASK and (sv & SV.RMPST_BIT or s.remap_next == CIA):
            return self._run_remapped(s, CIA, sv)
        vl = (sv >> SV.SH_VL) & 0x7F
        if vl == 0:
            return CIA + 8
        overflow = self.rec.register_overflow(vl)
        if overflow:
            raise Trap(overflow, "illegal")
        sim = self.sim
        if self.fast and sim._sv_emit is None and not sv & self.order_bits:
            if not sv & 1:
                return self._run_fast(s, CIA, sv, vl)
            # vertical-first, unpredicated: the one (sub-)element at the steps
            subvl = self.subvl
            k = ((sv >> SV.SH_SRC) & 0x7F) * subvl + ((sv >> SV.SH_SSUB) & 3)
            if k < vl * subvl:
                if sim.interrupt_after is not None and sim.element_ops >= sim.interrupt_after:
                    self._interrupt(s, sv, k // subvl, k // subvl, k % subvl, k % subvl)
                self._loop(s, CIA, k, k + 1)
                sim.element_ops += 1
            return CIA + 8
        return self._run_general(s, CIA, sv, vl, sv & 1)

    def _hot_loop(self):
        """The record's generated loop; once the record has run
        TEMPLATE_AFTER times, the loop of its page specialised to its fields
        (translate.svp64.template_loop: constant tests folded, one statement
        where the generic loop binds every field per element), when there is
        one."""
        rec = self.rec
        loop = rec.__dict__.get("template_loop")
        if loop is not None:
            return loop
        runs = rec.__dict__.get("fast_runs", 0) + 1
        rec.fast_runs = runs
        if runs < TEMPLATE_AFTER:
            return self._loop
        from ..translate.svp64 import template_loop
        try:
            loop = template_loop(rec)
        except Exception:  # noqa: BLE001 - an optimisation: the generic loop is exact
            loop = None
        loop = rec.template_loop = loop or self._loop
        return loop

    def _budget(self):
        sim = self.sim
        if sim.interrupt_after is None:
            return None
        return max(0, sim.interrupt_after - sim.element_ops)

    def _interrupt(self, s, sv, srcstep, dststep, ssub, dsub):
        sim = self.sim
        s.svstate = SV.with_steps(sv, srcstep, dststep, ssub, dsub)
        sim.interrupt_after = None
        raise ElementInterrupt(f"element-level interrupt after {sim.element_ops} element "
                               f"operations (srcstep={srcstep} dststep={dststep})")

    def _run_fast(self, s, CIA, sv, vl, loop=None):
        subvl = self.subvl
        k0 = ((sv >> SV.SH_SRC) & 0x7F) * subvl + ((sv >> SV.SH_SSUB) & 3)
        n = vl * subvl
        budget = self._budget()
        k1 = n if budget is None else min(n, k0 + budget)
        sim = self.sim
        try:
            (loop or self._hot_loop())(s, CIA, k0, k1)
        except Trap as t:
            k = getattr(t, "sv_k", k0)
            sim.element_ops += k - k0
            s.svstate = SV.with_steps(sv, k // subvl, k // subvl, k % subvl, k % subvl)
            raise
        sim.element_ops += k1 - k0
        if k1 < n:
            self._interrupt(s, sv, k1 // subvl, k1 // subvl, k1 % subvl, k1 % subvl)
        s.svstate = sv & ~SV.STEPS_MASK
        return CIA + 8

    def _run_remapped(self, s, CIA, sv):
        """Run under REMAP: each operand SVme enables takes its element indices
        from its SVSHAPE's schedule (:mod:`.remap`) through the index-mapping
        hook, sources stepped by srcstep, destinations by dststep."""
        vl = (sv >> SV.SH_VL) & 0x7F
        rec = self.rec
        fast = (rec.fast and not sv & 1 and not sv & self.order_bits
                and self.sim._sv_emit is None)
        key = None
        if vl and fast:
            # a loop reruns the same shapes: the generated loop and its checked
            # tables, kept on the record, keyed by everything they depend on
            key = (sv & ~SV.STEPS_MASK, s.svshape0, s.svshape1, s.svshape2, s.svshape3)
            hit = rec.remap_runs.get(key)
            if hit is not None:
                s.sv_tables = hit[1]
                try:
                    self._run_fast(s, CIA, sv, vl, hit[0])
                finally:
                    s.sv_tables = None
                s.remap_next = CIA + 8
                return CIA + 8
        if vl:
            imap = remap_index_map(s, sv, self._load_offsets_shape(s, sv))
            if imap.identity:
                self._run_general(s, CIA, sv, vl, sv & 1, imap)
            else:
                self.rec.assign_slots()
                self._check_remappable()
                loop = None
                if fast:
                    slots = frozenset(imap.schedules)
                    loop = rec.remap_loops.get(slots, False)
                    if loop is False:  # generated once per slot set (and record)
                        loop = rec.remap_loops[slots] = rec.remapped_loop(slots)
                if loop is None:
                    self._run_general(s, CIA, sv, vl, sv & 1, imap)
                else:
                    # HF, unpredicated, 64-bit: the generated loop with the
                    # operands' indices from the tables
                    tables = self._checked_tables(imap, vl)
                    if not any(sched.indexed for sched in imap.schedules.values()):
                        rec.remap_runs[key] = (loop, tables)
                    s.sv_tables = tables
                    try:
                        self._run_fast(s, CIA, sv, vl, loop)
                    finally:
                        s.sv_tables = None
        # a one-shot REMAP carries on to the next SVP64 instruction (openpower-isa
        # keeps last_op_svshape until a non-SVP64 instruction runs); after a
        # trap or interrupt it stays here, so a resumed run is still remapped
        s.remap_next = CIA + 8
        return CIA + 8

    def _load_offsets_shape(self, s, sv):
        """The SVSHAPE a strided load's memory offsets follow under profile
        remap_ldst_offsets "load-mi0" (remap_profile.load_offsets_shape), or
        None (the spec: LdSt.offset_slot picks a register slot)."""
        ld = self.rec.ldst
        if ld is None or ld.store or ld.mode not in ("unit", "els", "xels") or \
                self.rec.isa.profile.remap_ldst_offsets != "load-mi0":
            return None
        return remap_profile.load_offsets_shape(
            sv, (s.svshape0, s.svshape1, s.svshape2, s.svshape3), self.rec.mnemonic)

    def _checked_tables(self, imap, vl):
        """The index tables of a remapped run, checked against the register
        files.  Shapes other than Indexed are pure functions of their SVSHAPE
        value, so their tables (and the check's outcome) are kept on the
        record, shared by every address running these words."""
        key = None
        if not any(sched.indexed for sched in imap.schedules.values()):
            key = (vl, tuple(sorted((slot, sched.value)
                                    for slot, sched in imap.schedules.items())))
            tables = self.rec.remap_tables.get(key)
            if tables is not None:
                return tables
        tables = self._remap_tables(imap, vl, self.subvl)
        self._check_remap_overflow(tables, {
            slot: _table_max(sched.value, vl) if not sched.indexed else None
            for slot, sched in imap.schedules.items()})
        if key is not None:
            self.rec.remap_tables[key] = tables
        return tables

    @staticmethod
    def _remap_tables(imap, n, subvl=1):
        """imap's tables for n steps (sub-elements, see :func:`sub_tables`);
        those of non-Indexed shapes (pure functions of the SVSHAPE value) are
        memoised."""
        return sub_tables({slot: _table(sched.value, n) if not sched.indexed
                           else imap.tables(n, (slot,))[slot]
                           for slot, sched in imap.schedules.items()}, subvl)

    def _check_remappable(self):
        """Trap on what REMAP is not implemented for (nothing written): a
        vector operand on no REMAP port (CR fields of CR ops, rows whose ports
        are unknown) would silently stay in step order.  Predication, element
        widths, reverse gear, SUBVL, saturation, fail-first, loads and stores
        (update forms too) run remapped (docs/svp64.md "REMAP applied by the
        executor")."""
        rec = self.rec
        lost = [o.field for o in rec.ops if o.vec and (
            (o.src and o.slot[0] is None) or (o.dst and o.slot[1] is None))]
        if lost:
            raise Trap(f"REMAP with vector operand(s) {', '.join(lost)} on no REMAP port "
                       f"is not implemented ({rec.mnemonic})", "illegal")

    def _check_remap_overflow(self, tables, step_max=None):
        """Trap (nothing written) when a remapped element index puts an
        operand past the last register of its file (remap.mdwn: "Over-running
        the register file clearly has to be detected and an illegal
        instruction exception thrown").  ``step_max``: {slot: the largest
        per-step index, or None} where already known (memoised shapes)."""
        rec = self.rec
        r = rec.rm
        subvl = self.subvl
        n = len(next(iter(tables.values()), ())) // subvl
        regfile_end.check(rec.unmapped_past_end(n))
        out = tables.get("out")
        if rec.crvec and rec.cr_result and not rec.cr_by_step and out:
            # the Rc=1 CR field follows the out slot
            regfile_end.check(regfile_end.vector_past_end(
                rec.mnemonic, f"CR{rec.crbase}", "crf", rec.crbase, max(out) + 1,
                what="CR result field vector"))
        for o in rec.vecops:
            for role, slot in ((o.src, o.slot[0]), (o.dst, o.slot[1])):
                if not role or slot not in tables or not tables[slot]:
                    continue
                m = step_max.get(slot) if step_max else None
                m = max(tables[slot]) if m is None else m * subvl + subvl - 1
                width = 64
                if o.cls in ("gpr", "fpr") and (o.cls == "gpr" or rec.fp_elw) and \
                        o.field != rec.addr_field:  # (LD/ST base: 64 bits)
                    width = r.ew if slot in ("out", "out2") else r.ews
                if o.cls in regfile_end.LAST and regfile_end.last_register(
                        o.cls, o.base, m, width) > regfile_end.LAST[o.cls]:
                    raise Trap(f"REMAP: element {m} of {o.field} ({slot}) runs past the "
                               f"register file ({rec.mnemonic})", "illegal")

    def _run_general(self, s, CIA, sv, vl, vf, imap=None):
        """The general element loop: predicates and zeroing, reverse gear,
        SUBVL with pack/unpack, REMAP, fail-first, interrupts; one element at
        a time (:meth:`_element`)."""
        rec = self.rec
        r = rec.rm
        sim = self.sim
        subvl = r.subvl
        srcstep, ssub, dststep, dsub, pack, unpack = self._start_steps(sv)
        profile = rec.isa.profile
        rg = r.rg
        # reverse gear: step i is element vl-1-i; masks are indexed by step, so
        # reversed unless the profile tests the step's own bit (openpower-isa)
        masks = self._mask_reader(s, vl, rg and profile.reverse_gear_mask == "element")
        smask, dmask = masks()
        # openpower-isa reads the predicate again before every element, so an
        # element that overwrites the mask register changes the later ones
        reread = r.predicated and profile.mask_read == "every element"
        # masked-out elements are skipped on a side that is not zeroing
        _sz, _dz, sskip, dskip = zeroing(r, profile)
        start = (srcstep, ssub, dststep, dsub)
        srcstep, ssub = settle(smask, srcstep, ssub, vl, subvl, sskip, pack)
        dststep, dsub = settle(dmask, dststep, dsub, vl, subvl, dskip, unpack)
        # openpower-isa decodes the CR-field operands before skipping masked-out
        # elements (the first element run takes them from the starting steps),
        # and one per element under SUBVL (the step, not the sub-element)
        from_start = profile.cr_field_steps == "start" and rec.cr_field_ops and \
            start != (srcstep, ssub, dststep, dsub)
        cr_by_step, cr_steps = self._cr_stepper(vl, rg)
        if vf and r.predicated:
            # vertical-first: the steps moved over masked-out elements are
            # recorded (spec: svstep "still respecting predicate masks";
            # openpower-isa's pre-increment)
            sv = SV.with_steps(sv, min(srcstep, vl), min(dststep, vl), ssub, dsub)
            s.svstate = sv
        ctx = LoopContext(subvl, smask, dmask, sskip, dskip) if rec.uses_sv else None
        tables = self._loop_tables(s, sv, vl, imap, rg)
        budget = self._budget()
        done = 0
        stop = None
        while srcstep < vl and dststep < vl:
            se = (smask >> srcstep) & 1
            de = (dmask >> dststep) & 1
            steps = (srcstep, ssub, dststep, dsub)
            if budget is not None and done >= budget:
                # nothing ran: resume where this run started, so that the
                # first element still takes its CR fields from there
                self._out_of_budget(s, sv, done, start if from_start and not done else steps)
            crk = crt = None
            if from_start and not done:
                crk = cr_steps(start)
                # ... while its fail-first test reads the field of the
                # element's own steps (openpower-isa's get_cr_out after the skip)
                crt = cr_steps(steps)
            elif cr_by_step:
                crk = cr_steps(steps)
            stop, sv, nia = self._step_element(s, CIA, sv, vl, vf, ctx, steps, se, de,
                                               tables, crk, crt, done)
            if nia is not None:
                return nia
            done += 1
            if vf:
                break
            smask, dmask, (srcstep, ssub, dststep, dsub) = self._advance(
                smask, dmask, steps, vl, sskip, dskip, pack, unpack, masks if reread else None)
            if stop is not None:  # fail-first: truncate VL
                sv = SV.put(sv, "vl", stop)
                break
            if rec.scalar_dest and (de or rec.scalar_dest_zeroed_ends):
                break
        sim.element_ops += done
        if vf:
            if stop is not None:
                s.svstate = SV.put(s.svstate, "vl", stop)
            return CIA + 8
        s.svstate = sv & ~SV.STEPS_MASK
        return CIA + 8

    def _out_of_budget(self, s, sv, done, at):
        """The instruction's element budget is spent: interrupt it at ``at`` =
        (srcstep, ssub, dststep, dsub), the ``done`` operations counted as on
        the fast path."""
        self.sim.element_ops += done
        self._interrupt(s, sv, at[0], at[2], at[1], at[3])

    def _start_steps(self, sv):
        """(srcstep, ssub, dststep, dsub, pack, unpack) of SVSTATE ``sv``:
        pack / unpack (set by svstep) make that side step sub-elements in the
        outer loop (openpower-isa's src_iterate / dst_iterate)."""
        rec = self.rec
        subvl = rec.rm.subvl
        pack = subvl > 1 and (sv >> SV.SH_PACK) & 1
        unpack = subvl > 1 and (sv >> SV.SH_UNPACK) & 1
        if (pack or unpack) and rec.ffcr is not None:
            raise Trap("SVP64 fail-first with SVSTATE pack/unpack is not implemented",
                       "illegal")
        return ((sv >> SV.SH_SRC) & 0x7F, (sv >> SV.SH_SSUB) & 3,
                (sv >> SV.SH_DST) & 0x7F, (sv >> SV.SH_DSUB) & 3, pack, unpack)

    def _mask_reader(self, s, vl, reversed_masks):
        """A function reading the (source, destination) predicate masks."""
        r = self.rec.rm
        offset = self.rec.isa.profile.cr_pred_offset

        def masks():
            if not r.predicated:
                return ALL, ALL
            dm = pred_mask(s, r.mmode, r.mask, vl, offset)
            sm = dm if r.ptype == 1 else pred_mask(s, r.mmode, r.smask, vl, offset)
            if reversed_masks:
                sm, dm = reverse_mask(sm, vl), reverse_mask(dm, vl)
            return sm, dm
        return masks

    def _cr_stepper(self, vl, rg):
        """(whether CR-field operands are numbered by step, the function giving
        their (ks, kd) from a (srcstep, ssub, dststep, dsub)): reverse gear
        reverses them unless the profile says otherwise (reverse_cr_fields),
        and one per element under SUBVL (cr_field_subvl)."""
        rec = self.rec
        subvl = rec.rm.subvl
        cr_rg = rg and rec.cr_field_ops and rec.isa.profile.reverse_cr_fields == "element"
        cr_by_step = rec.cr_field_by_step or (rg and rec.cr_field_ops and not cr_rg)

        def cr_steps(at):
            s_, ss_, d_, ds_ = at
            s_, d_ = (vl - 1 - s_, vl - 1 - d_) if cr_rg else (s_, d_)
            if rec.cr_field_by_step:
                return s_, d_
            return s_ * subvl + ss_, d_ * subvl + ds_
        return cr_by_step, cr_steps

    def _loop_tables(self, s, sv, vl, imap, rg):
        """The index tables of this run ({slot: element per step}, None for the
        identity), after placing MAXVL-relative operands (butterfly rows: FRS
        and a vector FRB sit MAXVL elements on unless remapped)."""
        rec = self.rec
        # the index-mapping hook: None (identity) or {slot: element index per step}
        if imap is None:
            imap = self._index_map
        if rec.maxvl_ops:
            rec.place_maxvl((sv >> SV.SH_MAXVL) & 0x7F,
                            () if imap.identity else imap.schedules)
            overflow = rec.register_overflow(vl)
            if overflow:
                raise Trap(overflow, "illegal")
        tables = None if imap.identity else sub_tables(imap.tables(vl), rec.rm.subvl)
        if tables:
            tables = remap_profile.for_profile(tables, rec.isa.profile, sv,
                                               vl * rec.rm.subvl, rg)
            self._check_remap_overflow(tables)
        return tables

    def _advance(self, smask, dmask, steps, vl, sskip, dskip, pack, unpack, reread):
        """(smask, dmask, the next steps): each side steps on and settles on an
        enabled element; ``reread`` (profile mask_read "every element"): the
        function reading the masks again, for :meth:`_settle_reread`."""
        subvl = self.rec.rm.subvl
        srcstep, ssub, dststep, dsub = steps
        srcstep, ssub = step_on(srcstep, ssub, vl, subvl, pack)
        srcstep, ssub = settle(smask, srcstep, ssub, vl, subvl, sskip, pack)
        dststep, dsub = step_on(dststep, dsub, vl, subvl, unpack)
        dststep, dsub = settle(dmask, dststep, dsub, vl, subvl, dskip, unpack)
        steps = (srcstep, ssub, dststep, dsub)
        if reread is not None:
            smask, dmask = reread()
            steps = self._settle_reread(smask, dmask, steps, vl, sskip, dskip, pack, unpack)
        return smask, dmask, steps

    def _settle_reread(self, smask, dmask, steps, vl, sskip, dskip, pack, unpack):
        """(profile mask_read "every element") the steps moved on under the masks
        read for the element just run (its post-increment, where the loop ends
        when they enable nothing further), settled again under the masks read
        anew (the pre-increment of the next element)."""
        subvl = self.rec.rm.subvl
        srcstep, ssub, dststep, dsub = steps
        srcstep, ssub = settle(smask, srcstep, ssub, vl, subvl, sskip, pack)
        dststep, dsub = settle(dmask, dststep, dsub, vl, subvl, dskip, unpack)
        if subvl > 1:
            # a mask bit cleared by this element's own earlier sub-element
            srcstep, ssub = settle_mid_element(smask, srcstep, ssub, vl, sskip, pack)
            dststep, dsub = settle_mid_element(dmask, dststep, dsub, vl, dskip, unpack)
        return srcstep, ssub, dststep, dsub

    def _step_element(self, s, CIA, sv, vl, vf, ctx, steps, se, de, tables, crk, crt, done):
        """Run the element at ``steps`` = (srcstep, ssub, dststep, dsub):
        (fail-first's new VL or None, SVSTATE, the next instruction's address
        when the run ends here (a vertical-first svstep) or None).  A trap
        records the element's steps in SVSTATE first."""
        rec = self.rec
        r = rec.rm
        sim = self.sim
        subvl = r.subvl
        srcstep, ssub, dststep, dsub = steps
        si = vl - 1 - srcstep if r.rg else srcstep
        di = vl - 1 - dststep if r.rg else dststep
        ks = si * subvl + ssub
        kd = di * subvl + dsub
        if r.rg and subvl > 1 and rec.isa.profile.reverse_subvl == "reversed":
            # openpower-isa: the sub-elements in reverse as well
            ks, kd = si * subvl + subvl - 1 - ssub, di * subvl + subvl - 1 - dsub
        if rec.ffcr is not None and subvl > 1 and not r.vli and (dsub == 0 or vf) \
                and not rec.ffirst_group_kept:
            # fail-first over sub-vectors: a failing sub-element discards its
            # group, and a store group's earlier memory writes too
            s.sv_group = (CIA, _snapshot(s),
                          _MemJournal(s.mem) if rec.ldst is not None and rec.ldst.store
                          else None)
        args = (s, CIA, ks, kd, not se, not de, sim._sv_emit, srcstep, dststep, ssub, dsub,
                se, de, tables, crk, crt)
        try:
            if not rec.uses_sv:
                return self._element(*args), sv, None
            s.svstate = SV.with_steps(sv, srcstep, dststep, ssub, dsub)
            s.sv_loop = ctx
            try:
                stop = self._element(*args)
            finally:
                s.sv_loop = None
        except Trap:
            sim.element_ops += done
            s.svstate = SV.with_steps(sv, srcstep, dststep, ssub, dsub)
            raise
        if not vf:
            return stop, s.svstate, None
        sim.element_ops += 1
        if stop is not None:
            # fail-first on a VF svstep: VL truncated; steps the page
            # moved to or past the new VL end the loop as svstep does
            nsv = SV.put(s.svstate, "vl", stop)
            if ((nsv >> SV.SH_SRC) & 0x7F) >= stop or ((nsv >> SV.SH_DST) & 0x7F) >= stop:
                nsv = (nsv & ~SV.STEPS_MASK) & ~1
            s.svstate = nsv
        return stop, sv, CIA + 8  # the page's SVSTATE stands (svstep advanced it)

    def _element(self, s, CIA, ks, kd, szero, dzero, emit, srcstep, dststep, ssub, dsub,
                 se, de, tables=None, crk=None, crt=None):
        """One element operation at step-order element numbers (ks, kd), each
        operand at the element the index map gives it (``tables``: None for the
        identity); returns the new VL if fail-first hit, else None.  ``crk``:
        (ks, kd) of the CR-field operands where they differ (profile switch
        ``cr_field_steps``); ``crt``: the steps whose CR field a fail-first
        test reads where that differs too (the same switch)."""
        rec = self.rec
        r = rec.rm
        args, crf = self._element_args(ks, kd, dststep, tables, crk)
        reads, writes = {}, {}
        ld = rec.ldst
        if szero and ld is not None and not ld.store and not rec.ldst_zero_regs:
            # a load's source element is the memory element: zero, no access
            dzero = True
        if dzero and ld is not None and rec.ldst_zero_regs:
            self._zeroed_ldst(s, CIA, args, crf, ks, kd, szero, tables)
            if emit is not None:
                reads.update((o.field, args[o.pos]) for o in rec.ops if o.src)
                writes.update((o.field, args[o.pos]) for o in rec.dstops)
                self._event(emit, CIA, srcstep, dststep, ssub, dsub, se, de, True, reads,
                            writes, tables, ks, kd)
            return None
        if dzero and rec.cr_result_kept:
            dzero = False  # openpower-isa: the CR-field result is written, not zeroed
        if dzero:
            self._zeroed_element(s, CIA, args, crf, ks, kd, szero, emit, srcstep, dststep,
                                 ssub, dsub, se, de, tables, crk, reads, writes)
            return None
        for o in rec.ops:
            if o.src:
                reads[o.field] = args[o.pos]
            if o.dst:
                writes[o.field] = args[o.pos]
        if emit is not None:
            self._read_values = self._element_values(s, ks, kd, tables, False)
        stcr = None
        if rec.ffcr is not None and rec.ffcr[0] == "rc1" and ld.store:
            stcr = self._ldst_cr(s, rec.data_op, ks, kd, tables, szero)
            if self._store_fails_first(s, CIA, stcr, emit, srcstep, dststep, ssub, dsub, se, de,
                                       reads):
                return dststep
        snap = None
        rc1 = rec.ffcr is not None and rec.ffcr[0] == "rc0" and r.rc1
        alone = r.subvl == 1 or rec.ffirst_group_kept  # the failing element alone undone
        if rc1 or (rec.ffcr is not None and not r.vli and alone):
            # RC1: the result is never stored; otherwise the failing element's
            # register results are discarded (CR kept)
            snap = _snapshot(s)
        self._run_page_in_view(s, CIA, args, crf, ks, kd, szero, tables, crk,
                               stcr is not None and r.subvl > 1)
        if emit is not None:
            self._event(emit, CIA, srcstep, dststep, ssub, dsub, se, de, False, reads, writes,
                        tables, ks, kd)
        if rec.ffcr is not None:
            crval = self._ffirst_cr_value(s, args, crf, ks, kd, tables, crt, stcr, snap)
            kind = rec.ffcr[0]
            if ((crval >> (3 - (3 if kind == "bit" else r.cr_sel))) & 1) != r.inv:
                if not r.vli:
                    group = _open_group(s, CIA) if r.subvl > 1 else None
                    back = snap if alone else (group[1] if group else None)
                    if back:
                        _restore(s, back, rec.ffirst_xer_kept)
                return (srcstep if rec.ffirst_vl_at_source else dststep) + (1 if r.vli else 0)
        return None

    def _run_page_in_view(self, s, CIA, args, crf, ks, kd, szero, tables, crk, journaled):
        """Run the element's page, an LD/ST's on its memory view (the element's
        offset and memory-side width) and, for a store in a fail-first group
        (``journaled``), through the group's journal; an update form's RA then
        gets the element's full EA."""
        rec = self.rec
        ld = rec.ldst
        mem = None
        group = _open_group(s, CIA) if journaled else None
        journal = group[2] if group is not None else None
        if rec.mview or journal is not None:
            mem = s.mem
            view = s.mem = journal.over(mem) if journal is not None else mem
            if rec.mview:
                view = s.mem = ld.view(s, s.mem, ks, kd, rec.rm.ews, tables,
                                       szero and rec.ldst_zero_regs)
        try:
            self._run_page(s, CIA, args, crf, ks, kd, szero, tables, crk)
        finally:
            if mem is not None:
                s.mem = mem
        if mem is not None and ld.update_op is not None and view.last:
            # the page set RA <- EA without the stride offset; RA gets the full EA
            n = ld.update_op.base
            s.gpr[n] = (s.gpr[n] + view.last) & M64

    def _element_args(self, ks, kd, dststep, tables, crk):
        """The page's arguments for element (ks, kd): each vector operand at the
        element the index map gives it (its CR-field operands at ``crk`` where
        given), and the Rc=1 CR field (it follows the out slot)."""
        rec = self.rec
        args = list(rec.base_args)
        for o in rec.ops:
            if o.vec:
                if crk is not None and o.cls in ("crf", "crb"):
                    k = element_index(o, crk[0], crk[1], tables, o.dst)
                else:
                    k = element_index(o, ks, kd, tables, o.dst)
                args[o.pos] = o.base + (4 * k if o.cls == "crb" else k)
        # an Rc=1 CR field follows the out slot
        if rec.cr_by_step:
            kcr = dststep  # openpower-isa: CR0 + dststep, reverse gear, REMAP or not
        elif tables and "out" in tables:
            kcr = slot_index(tables, "out", ks, kd)
        else:
            kcr = kd
        crf = rec.crbase + kcr if rec.crvec else rec.crbase
        return args, crf

    def _zeroed_element(self, s, CIA, args, crf, ks, kd, szero, emit, srcstep, dststep,
                        ssub, dsub, se, de, tables, crk, reads, writes):
        """A destination-zeroed element: its destination registers written 0
        (an LD/ST's data register only), its page run first where the record
        says (svstep's steps; profile dest_zeroed_page "run")."""
        rec = self.rec
        r = rec.rm
        ld = rec.ldst
        if rec.uses_sv:
            # a page using SVSTATE (svstep) still moves the steps when its
            # destination element is zeroed, or a VF loop over a zeroing
            # predicate never ends; its result is replaced by zero below
            # (openpower-isa runs the page and writes zero for the result);
            # on the path an unzeroed element takes, so that its register
            # numbers are those regfile_end counted (element widths run on
            # the scratch file)
            self._call(s, CIA, list(args), crf, ks, kd, szero, tables)
        elif rec.zeroed_page_runs:
            # profile dest_zeroed_page "run" (openpower-isa): the page runs on
            # the element's sources, so its XER (CA, CA32) and FPSCR
            # writes stand; its register results are zeroed below and
            # its CR writes (Rc=1) taken back
            cr = list(s.cr)
            self._run_page(s, CIA, list(args), crf, ks, kd, szero, tables, crk)
            s.cr[:] = cr
            reads.update((o.field, args[o.pos]) for o in rec.ops if o.src)
        for o in rec.dstops:
            if ld is not None and o is not rec.data_op:
                continue  # LD/ST zeroing: the data register only, RA keeps its value
            if o.cls in ("gpr", "fpr"):
                regs = s.gpr if o.cls == "gpr" else s.fpr
                write_elem(regs, o.base, element_index(o, ks, kd, tables, True) if o.vec else 0,
                           r.ew if o.cls == "gpr" or rec.fp_elw else 64, 0)
                writes[o.field] = args[o.pos]
            elif o.cls == "crf":
                s.cr[args[o.pos]] = 0
                writes[o.field] = args[o.pos]
            elif o.cls == "crb":
                bit = args[o.pos]
                s.cr[bit >> 2] &= ~(8 >> (bit & 3))
                writes[o.field] = bit
        if emit is not None:
            self._event(emit, CIA, srcstep, dststep, ssub, dsub, se, de, True, reads, writes,
                        tables, ks, kd)

    def _store_fails_first(self, s, CIA, stcr, emit, srcstep, dststep, ssub, dsub, se, de,
                           reads):
        """LD/ST data-dependent fail-first on a store (ldst.mdwn): the data to
        be stored (its CR value ``stcr``) is tested before the store; VLi=0
        and failing: no store, no RA update.  True when it fails."""
        rec = self.rec
        r = rec.rm
        if ((stcr >> (3 - r.cr_sel)) & 1) == r.inv or r.vli:
            return False
        group = _open_group(s, CIA) if r.subvl > 1 else None
        if group is not None:
            # the group is discarded: its earlier sub-elements' stores
            # and RA updates are taken back (CR fields kept)
            _restore(s, group[1], rec.ffirst_xer_kept)
            group[2].undo()
        if emit is not None:
            self._event(emit, CIA, srcstep, dststep, ssub, dsub, se, de, False,
                        reads, {})
        return True

    def _ffirst_cr_value(self, s, args, crf, ks, kd, tables, crt, stcr, snap):
        """The CR value a fail-first element tests (and, for LD/ST RC1 and Rc=0
        with RC1, records): by the record's ``ffcr`` kind."""
        rec = self.rec
        r = rec.rm
        kind, o = rec.ffcr
        if kind == "rc1" and stcr is not None:
            crval = stcr  # a store: tested (and recorded) before it ran
        elif kind == "rc1":
            # LD/ST RC1: CR field (CR0 + element, or CR0: record
            # ld_ffcr_vec) from the loaded element as if Rc=1
            o = rec.data_op
            w = r.ew if o.cls == "gpr" else 64
            if o.cls == "gpr" and rec.rc_bits != w and rec.scratch_needed:
                # (profile rc_width "operation") the load at the operation
                # width: the page's value cut to ELWIDTH_SRC, before ELWIDTH
                v = self.scratch[o.sidx] & ((1 << r.ews) - 1)
                w = rec.rc_bits
                v &= (1 << w) - 1
            else:
                v = read_elem(s.gpr if o.cls == "gpr" else s.fpr, o.base,
                              element_index(o, ks, kd, tables, True) if o.vec else 0, w)
            crval = (0b1000 if v >> (w - 1) else (0b0100 if v else 0b0010)) | _so(rec, s)
            if r.rc1:  # RC1=0: z/nonz tested, no CR recorded
                s.cr[kd if rec.ld_ffcr_vec else 0] = crval
        elif kind == "rc0":
            # Rc=0: CR of the result element as if Rc=1 (signed at ELWIDTH, SO
            # copied); stored only with RC1, which discards the result instead
            w = r.ew
            if rec.ffcr_whole_cr:
                # (profile ffirst_cr_whole_cr_rows) the CR as a 64-bit
                # value: never negative
                w, v = 64, int(any(s.cr[i] for i in range(8)))
            elif rec.rc_bits != w and rec.scratch_needed:
                # at the operation width (profile rc_width "operation", as
                # an Rc=1 record): the page's result before truncation
                w = rec.rc_bits
                v = self.scratch[o.sidx] & ((1 << w) - 1)
                w = rec.rc_sign_bits
            else:
                v = read_elem(s.gpr, o.base,
                              element_index(o, ks, kd, tables, True) if o.vec else 0, w)
                if rec.rc_sign_bits == 64:
                    w = 64  # (profile rc_zero_extended_rows) never negative
            crval = (0b1000 if v >> (w - 1) else (0b0100 if v else 0b0010)) | _so(rec, s)
            if r.rc1:
                s.cr[crf] = crval
                if not rec.rc1_stores:
                    _restore(s, snap, rec.ffirst_xer_kept)
        elif kind == "bit":
            # a CR-bit result: the bit just written is the test (8 >> 3
            # puts it where cr_sel 3 reads it)
            bit = args[o.pos]
            crval = (s.cr[bit >> 2] >> (3 - (bit & 3))) & 1
        elif kind == "op" and crt is not None and o.vec:
            # (profile cr_field_steps "start") the field written came from
            # the starting steps; the one tested is the element's
            crval = s.cr[o.base + element_index(o, crt[0], crt[1], tables, True)]
        else:
            crval = s.cr[crf if kind == "rc" else args[o.pos]]
        return crval

    def _zeroed_ldst(self, s, CIA, args, crf, ks, kd, szero, tables):
        """(profile ldst_zeroing "registers", openpower-isa) a destination-zeroed
        LD/ST element: it runs as an enabled one, its memory access included
        (on zeroed register sources when source-zeroed too), then each of
        its register results is written 0: RT (at ELWIDTH) and an update
        form's RA (at 64 bits: the address register has no element width)."""
        rec = self.rec
        mem = s.mem
        s.mem = rec.ldst.view(s, mem, ks, kd, rec.rm.ews, tables, szero)
        try:
            self._run_page(s, CIA, args, crf, ks, kd, szero, tables)
        finally:
            s.mem = mem
        for o in rec.dstops:
            if o.cls in ("gpr", "fpr"):
                width = 64 if o.field == rec.addr_field or (o.cls == "fpr" and not rec.fp_elw) \
                    else rec.rm.ew
                write_elem(s.gpr if o.cls == "gpr" else s.fpr, o.base,
                           element_index(o, ks, kd, tables, True) if o.vec else 0, width, 0)

    def _run_page(self, s, CIA, args, crf, ks, kd, szero, tables, crk=None):
        """Run the page for one enabled (or profile-run zeroed) element: on
        zeroed copies of its FPR and CR sources when it is source-zeroed and
        has such sources (:meth:`_zeroed_call`), else :meth:`_call`."""
        if szero and self.rec.zero_other_sources:
            self._zeroed_call(s, CIA, args, crf, ks, kd, szero, tables, crk)
        else:
            self._call(s, CIA, args, crf, ks, kd, szero, tables)

    def _call(self, s, CIA, args, crf, ks, kd, szero, tables):
        """Run the page for one element on the path its operands need (every
        register number in range: checked before the first element,
        regfile_end.py)."""
        rec = self.rec
        if rec.scratch_needed or (szero and rec.gops) or (tables and any(
                o.src and o.dst and o.vec and o.slot[0] != o.slot[1] for o in rec.gops)) \
                or (ks != kd and any(o.src and o.dst and o.vec for o in rec.gops)):
            # (a GPR read through one REMAP slot and written through
            # another -- rldimi's RA: in1 and out -- runs on the scratch
            # file, which reads and writes each through its own slot; so
            # does one read at srcstep and written at dststep under twin
            # predication: an update form's vector RA, read at the source
            # element, ldst.mdwn op_load `srcbase = ireg[RA+i]`)
            self._scratch_call(s, CIA, args, crf, ks, kd, szero, tables)
        elif rec.fp_elw:
            self._fp_scratch_call(s, CIA, args, crf, ks, kd, tables)
        elif tables and any(o.src and o.dst and o.vec and o.cls == "fpr"
                            and o.slot[0] != o.slot[1] for o in rec.ops):
            self._split_fp_call(s, CIA, args, crf, ks, kd, tables)
        else:
            rec.c.sem(s, CIA, *args, crf)

    def _zeroed_call(self, s, CIA, args, crf, ks, kd, szero, tables, crk=None):
        """Source zeroing (sz) of FPR and CR operands: the page runs on copies
        of the FPR file and CR in which the element's FP / CR-field / CR-bit
        sources are 0 (GPR sources are zeroed by the scratch path); the
        destination elements it writes (and an Rc=1 CR field) are copied back."""
        rec = self.rec
        r = rec.rm
        real_f, real_c = s.fpr, s.cr
        fw = r.ews if rec.fp_elw else 64
        fpr, cr = list(real_f), list(real_c)
        for o in rec.ops:
            if not o.src or o.cls not in rec.zeroed_classes:
                continue
            k = element_index(o, ks, kd, tables, False) if o.vec else 0
            if crk is not None and o.cls in ("crf", "crb") and o.vec:
                k = element_index(o, crk[0], crk[1], tables, False)
            if o.cls == "fpr":
                write_elem(fpr, o.base, k, fw, 0)
            elif o.cls == "crf":
                cr[o.base + k] = 0
            else:
                bit = o.base + 4 * k
                cr[bit >> 2] &= ~(8 >> (bit & 3))
        s.fpr, s.cr = fpr, cr
        try:
            self._call(s, CIA, args, crf, ks, kd, szero, tables)
        finally:
            s.fpr, s.cr = real_f, real_c
        fw = r.ew if rec.fp_elw else 64
        for o in rec.ops:
            # (pages write their CR-field and CR-bit destinations unconditionally;
            # the compiler lists only the register fields a page writes)
            if not o.dst or (o.cls == "fpr" and o.field not in rec.c.writes):
                continue
            k = element_index(o, ks, kd, tables, True) if o.vec else 0
            if crk is not None and o.cls in ("crf", "crb") and o.vec:
                k = element_index(o, crk[0], crk[1], tables, True)
            if o.cls == "fpr":
                write_elem(real_f, o.base, k, fw, read_elem(fpr, o.base, k, fw))
            elif o.cls == "crf":
                n = o.base + k
                real_c[n] = cr[n]
            elif o.cls == "crb":
                bit = o.base + 4 * k
                m = 8 >> (bit & 3)
                real_c[bit >> 2] = (real_c[bit >> 2] & ~m) | (cr[bit >> 2] & m)
        if rec.rc:
            real_c[crf] = cr[crf]

    def _ldst_cr(self, s, o, ks, kd, tables, szero):
        """The CR field (CR0 + element) of a store's data element as if Rc=1
        (signed at ELWIDTH_SRC for GPRs, SO copied), recorded when RC1; its value.  A
        source-zeroed element stores (and tests) 0."""
        w = self.rec.rm.ews if o.cls == "gpr" else 64
        v = 0 if szero else read_elem(s.gpr if o.cls == "gpr" else s.fpr, o.base,
                                      element_index(o, ks, kd, tables, False)
                                      if o.vec else 0, w)
        c = (0b1000 if v >> (w - 1) else (0b0100 if v else 0b0010)) | _so(self.rec, s)
        if self.rec.rm.rc1:  # RC1=0: z/nonz tested, no CR recorded
            s.cr[kd] = c
        return c

    def _scratch_call(self, s, CIA, args, crf, ks, kd, szero, tables=None):
        rec = self.rec
        r = rec.rm
        sc = self.scratch
        real = s.gpr
        ews, sext, xlen = r.ews, rec.sext, rec.xlen
        ld = rec.ldst
        index = ld.index if ld is not None else None
        for o in rec.gops:
            if o.field == rec.addr_field:
                # LD/ST base address: 64 bits, never zeroed (only the data is;
                # but under the profile's ldst_zeroing "registers")
                v = 0 if szero and rec.ldst_zero_regs else read_elem(
                    real, o.base, element_index(o, ks, kd, tables, False) if o.vec else 0, 64)
            elif o.src and szero and (o.field != index or rec.ldst_zero_regs):
                v = 0
            elif o.src:
                k = element_index(o, ks, kd, tables, False) if o.vec else 0
                if o.ra0 and o.vec and o.base + k == 0 and rec.vector_ra0_zero:
                    args[o.pos] = 0  # openpower-isa: the element in r0 is RA|0's 0
                    continue
                v = read_elem(real, o.base, k, ews)
                if (ld.sea if o.field == index else sext) and ews != 64 and v >> (ews - 1):
                    v |= M64 ^ ((1 << ews) - 1)
                    if xlen != 64:  # a page run at XLEN reads XLEN-bit registers
                        v &= (1 << xlen) - 1
            else:
                v = read_elem(real, o.base, element_index(o, ks, kd, tables, True)
                              if o.vec else 0, r.ew)
            sc[o.sidx] = v
            args[o.pos] = o.sidx
        sat = rec.sat
        env = None
        if sat is not None and sat[2] is not None:
            # the exact-result expression's operands, before the page runs
            env = {}
            for name, o, pos, width in sat[2]:
                if o is not None:
                    # (RA|0) with RA=0 (scratch slot 0) is the value 0
                    env[name] = 0 if o.ra0 and o.sidx == 0 else \
                        satexact.as_int(sc[o.sidx], r.sat == "s")
                else:
                    v = args[pos]
                    env[name] = v - (1 << width) if width and v >> (width - 1) else v
        s.gpr = sc
        try:
            rec.c.sem(s, CIA, *args, crf)
        finally:
            s.gpr = real
        if sat is not None:
            satd = self._saturate(sc, env)
        for o in rec.gops:
            if o.dst and o.field in rec.c.writes:
                w = 64 if o.field == rec.addr_field else r.ew
                v = sc[o.sidx]
                if ld is not None and o is rec.data_op and ews != 64:
                    v &= (1 << ews) - 1  # load: op width -> ELWIDTH_SRC -> ELWIDTH
                write_elem(real, o.base, element_index(o, ks, kd, tables, True)
                           if o.vec else 0, w, v)
        if sat is not None:
            if rec.rc:
                # Rc=1: CR of the saturated element; SO = saturation occurred
                v = sc[sat[0].sidx] & ((1 << r.ew) - 1)
                c = 0b1000 if v >> (r.ew - 1) else (0b0100 if v else 0b0010)
                s.cr[crf] = c | satd
            return
        o = rec.rc_op
        if o is not None:
            # CR0 of an element-width result: the truncated element, signed
            bits = rec.rc_bits
            v = sc[o.sidx] & ((1 << bits) - 1)
            f = crf
            c = 0b1000 if v >> (rec.rc_sign_bits - 1) else (0b0100 if v else 0b0010)
            s.cr[f] = c | (s.cr[f] & 1)

    def _saturate(self, sc, env):
        """Clamp the page's result (in scratch ``sc``) to the ELWIDTH range;
        returns 1 when it saturated.  The exact result comes from the row's
        sat_exact.txt expression (``env``: its operands), or is the 64-bit
        result read as signed (/sats) or unsigned (/satu) for a "fits" row,
        as signed for an unlisted row (narrow sources only)."""
        rec = self.rec
        r = rec.rm
        o, exact = rec.sat[0], rec.sat[1]
        v = sc[o.sidx] & M64
        e = exact.value(env) if env is not None else None
        if e is None:
            # "fits", or no exact result (x/0: the page's undefined result stands)
            e = satexact.as_int(v, exact is None or r.sat == "s")
        elif exact.disagrees(e, v, r.sat == "s"):
            raise Trap(f"internal: decoder/svp64/sat_exact.txt's {exact.text!r} for "
                       f"{rec.mnemonic} disagrees with its page (0x{v:x})", "illegal")
        w = r.ew
        lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if r.sat == "s" else (0, (1 << w) - 1)
        c = lo if e < lo else hi if e > hi else e
        sc[o.sidx] = c & M64
        return int(c != e)

    def _fp_scratch_call(self, s, CIA, args, crf, ks, kd, tables=None):
        """One element with FP element widths: sources widened exactly to
        doubles, rounding redirected to the element format, the result encoded
        back at ELWIDTH (see :mod:`.fpelw`)."""
        rec = self.rec
        from .fpelw import to_double, from_double
        r = rec.rm
        sc = self.fp_scratch
        real = s.fpr
        for o in rec.fops:
            if o.src:
                k = element_index(o, ks, kd, tables, False) if o.vec else 0
                sc[o.sidx] = to_double(read_elem(real, o.base, k, r.ews), r.ews)
            else:
                k = element_index(o, ks, kd, tables, True) if o.vec else 0
                sc[o.sidx] = to_double(read_elem(real, o.base, k, r.ew), r.ew)
            args[o.pos] = o.sidx
        s.fpr = sc
        s.fp_elfmt = rec.fp_fmt
        try:
            rec.c.sem(s, CIA, *args, crf)
        finally:
            s.fpr = real
            s.fp_elfmt = None
        rn = s.fpscr & 3
        for o in rec.fops:
            if o.dst and o.field in rec.c.writes:
                write_elem(real, o.base, element_index(o, ks, kd, tables, True) if o.vec else 0, r.ew,
                           from_double(sc[o.sidx], r.ew, rn))

    def _split_fp_call(self, s, CIA, args, crf, ks, kd, tables):
        """One element whose FP operand is read through one REMAP slot and
        written through another (ffmadds' FRT: in1 and out): the page runs on
        a scratch FPR file holding each operand's source element (or, for a
        pure destination, its destination element); results go back to the
        destination elements."""
        rec = self.rec
        sc = self.fp_split
        real = s.fpr
        fops = [o for o in rec.ops if o.cls == "fpr"]
        for j, o in enumerate(fops):
            k = element_index(o, ks, kd, tables, not o.src) if o.vec else 0
            sc[j] = real[o.base + k]
            args[o.pos] = j
        s.fpr = sc
        try:
            rec.c.sem(s, CIA, *args, crf)
        finally:
            s.fpr = real
        for j, o in enumerate(fops):
            if o.dst and o.field in rec.c.writes:
                k = element_index(o, ks, kd, tables, True) if o.vec else 0
                real[o.base + k] = sc[j]

    def _event(self, emit, CIA, srcstep, dststep, ssub, dsub, se, de, zeroed, reads, writes,
               tables=None, ks=0, kd=0):
        rec = self.rec
        event = {"type": "element", "pc": CIA, "mnemonic": rec.mnemonic,
                 "srcstep": srcstep, "dststep": dststep, "ssubstep": ssub, "dsubstep": dsub,
                 "src_pred": se, "dst_pred": de, "zeroed": zeroed,
                 "reads": dict(reads), "writes": dict(writes),
                 "op": self.sim.element_ops}
        # the element values moved: sources as read before the page ran
        # (_element records them), destinations as they are now
        if reads:
            event["read_values"] = {f: v for f, v in self._read_values.items() if f in reads}
        if writes:
            values = self._element_values(self.sim.state, ks, kd, tables, True)
            event["write_values"] = {f: v for f, v in values.items() if f in writes}
        if tables:
            # under REMAP: the element each remapped slot uses at this step
            # (sources at the source step, destinations at the destination step)
            event["remap"] = {slot: slot_index(tables, slot, ks, kd)
                              for slot in sorted(tables)}
        emit(event)


    def _element_values(self, s, ks, kd, tables, write):
        """{field: element value} of each register operand in its source
        (``write`` False) or destination role at step (ks, kd), at the width
        the operand has there (ELWIDTH_SRC / ELWIDTH)."""
        rec = self.rec
        r = rec.rm
        out = {}
        for o in rec.ops:
            if not (o.dst if write else o.src):
                continue
            k = element_index(o, ks, kd, tables, write) if o.vec else 0
            width = r.ew if write else r.ews
            if o.cls == "gpr":
                out[o.field] = read_elem(s.gpr, o.base, k, width)
            elif o.cls == "fpr":
                out[o.field] = read_elem(s.fpr, o.base, k, width if rec.fp_elw else 64)
            elif o.cls == "crf":
                out[o.field] = s.cr[(o.base + k) & 127]
            elif o.cls == "crb":
                bit = (o.base + 4 * k) & 511
                out[o.field] = (s.cr[bit >> 2] >> (3 - (bit & 3))) & 1
        return out


def _snapshot(s):
    """What a discarded fail-first element (or sub-vector group) takes back:
    the register files, XER and FPSCR."""
    return list(s.gpr), list(s.fpr), s.xer, s.fpscr


def _restore(s, snap, xer_kept=False):
    """Take back a :func:`_snapshot`; ``xer_kept``: the XER as the page left
    it (profile ffirst_kept_xer_rows)."""
    s.gpr[:] = snap[0]
    s.fpr[:] = snap[1]
    if not xer_kept:
        s.xer = snap[2]
    s.fpscr = snap[3]


def _open_group(s, CIA):
    """The fail-first sub-vector group open for the instruction at ``CIA``
    (State.sv_group), or None."""
    group = s.sv_group
    return group if group is not None and group[0] == CIA else None


class _MemJournal:
    """The memory writes of one store group (fail-first with SUBVL>1, VLi=0),
    so a failing sub-element can take back its group's earlier stores."""

    def __init__(self, mem):
        self.mem, self.entries = mem, []
        # a store-conditional in the group changes the reservation: taken back too
        self.reservation = mem.reservation

    def over(self, mem):
        return _JournalledMemory(mem, self.entries)

    def undo(self):
        for addr, old in reversed(self.entries):
            self.mem.write_bytes(addr, old)
        self.entries.clear()
        self.mem.reservation = self.reservation


class _JournalledMemory(MemoryView):
    """``mem`` recording the old bytes of every write into ``entries``."""

    _own = ("mem", "entries")

    def __init__(self, mem, entries):
        super().__init__(mem)
        self.entries = entries

    def write(self, addr, n, value):
        self.entries.append((addr, self.mem.read_bytes(addr, n)))
        self.mem.write(addr, n, value)

    def write_bytes(self, addr, data):
        self.entries.append((addr, self.mem.read_bytes(addr, len(data))))
        self.mem.write_bytes(addr, data)


class _Schedule:
    """The element indices of one SVSHAPE (re-iterable: a fresh schedule per
    ``iter()``, as the index-mapping hook requires)."""

    def __init__(self, value, read_index):
        self.value = value
        self.read_index = read_index
        self.indexed = (remap.get(value, "mode") == remap.MODE_MATRIX
                        and remap.get(value, "permute") in remap.INDEXED_PERMUTATIONS)

    def __iter__(self):
        return (index for index, _ends in remap.schedule(self.value, self.read_index))


def _so(rec, s):
    """SO of a CR field recorded "as if Rc=1" by the SVP64 loop: XER.SO, or 0
    where an SVP64 instruction does not read it (profile svp64_xer "element-so")."""
    return 0 if rec.svp64_so else s.so & 1


@lru_cache(maxsize=256)
def _table(value, n):
    """The first n element indices of a non-Indexed SVSHAPE ``value`` (a
    pure function of its arguments, memoised: programs rerun the same
    shapes); traps when the schedule is shorter."""
    return tuple(IndexMap({"in1": _Schedule(value, None)}).tables(n)["in1"])


def sub_tables(tables, subvl):
    """Per-step REMAP tables ({slot: element index per step}) as tables per
    sub-element step k = step * SUBVL + substep: REMAP moves whole sub-vectors,
    the sub-elements keep their order (svp64 overview "REMAP and other
    reordering": REMAP applies to the src/dst-step indices, never to the
    SUBVL step indices; docs/errata.md)."""
    if subvl == 1:
        return tables
    return {slot: [e * subvl + j for e in t for j in range(subvl)]
            for slot, t in tables.items()}


@lru_cache(maxsize=256)
def _table_max(value, n):
    """The largest of :func:`_table`'s indices (memoised with it)."""
    return max(_table(value, n))


def remap_index_map(s, sv, load_offsets=None):
    """The :class:`.indexmap.IndexMap` of the operands SVSTATE ``sv`` remaps,
    each through the schedule of its SVSHAPE (state ``s``).  An SVSHAPE of 0
    leaves its operand unmapped (openpower-isa: 'zero is "disabled"'; see
    docs/errata.md SV-11).  Indexed shapes read their indices from the GPRs when the instruction
    starts.  ``load_offsets``: an SVSHAPE value a load's memory offsets
    follow (profile remap_ldst_offsets, slot indexmap.LOAD_OFFSETS), or None."""
    shapes = (s.svshape0, s.svshape1, s.svshape2, s.svshape3)
    reader = remap.register_reader(s.gpr)
    schedules = {HOOK_SLOT[slot]: _Schedule(value, reader)
                 for slot, value in remap.operand_shapes(sv, shapes).items() if value}
    if load_offsets:
        schedules[remap_profile.LOAD_OFFSETS] = _Schedule(load_offsets, reader)
    return IndexMap(schedules)
