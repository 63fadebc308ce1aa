"""The decoded SVP64 instruction record: everything decided once per prefixed
word, before any element runs.

:class:`SVRecord` holds the suffix's table row and compiled page, the RM
fields and mode (fail-first, saturation, map-reduce, zeroing), the register
operands (:class:`Op`: field, class, EXTRA-extended base number, vector or
scalar, source/destination, and its index-mapping slot in1/in2/in3/out/out2),
element widths and SUBVL, predicate sources, the Rc=1 CR field, LD/ST
addressing (:class:`LdSt`), and the generated fast loop (``fast_loop``) for
the common case.  It never touches the machine; the executor
(:mod:`.executor`) runs it.

The record is built by small builders, each deciding one part from the
parts before it and the profile's switches (:mod:`isa_ext.profile`):

* :mod:`.record_operands`: the register operands and their EXTRA slots,
  implicit operands, the Rc=1 CR field;
* :mod:`.record_mode`: the RM mode, the operand sets the loop consults,
  when a scalar destination ends the loop;
* :mod:`.record_ffirst`: data-dependent fail-first;
* :mod:`.record_width`: FP element formats, the XLEN a page runs at,
  saturation, the width of the Rc=1 CR field's result;
* :mod:`.record_ldst`: LD/ST addressing and the element's memory view;
* :mod:`.rowlists`: the ``decoder/svp64/*.txt`` row lists they read.
"""
from ..errors import Trap
from . import rm as rmmod
from . import svstate as SV
from . import regfile_end
from .indexmap import assign_slots
from . import record_ffirst, record_ldst, record_mode, record_operands, record_width
# the record's parts, importable from here as before
from .record_operands import Op  # noqa: F401
from .record_ldst import LdSt  # noqa: F401
from .rowlists import fields_hold, remap_ports, signed_sources, xlen_rows  # noqa: F401


class SVRecord:
    """Everything decided once per prefixed word (see the module docstring)."""

    def __init__(self, isa, prefix, suffix):
        d = isa.decode(suffix)
        if d is None:
            raise Trap(f"SVP64 suffix 0x{suffix:08x} matches no instruction", "illegal")
        row = d.spec
        if not row.sv:
            raise Trap(f"{d.mnemonic} is not SVP64-capable (no RM category)", "illegal")
        self.cat = cat = isa.category(row.sv)
        self.isa, self.d, self.row = isa, d, row
        self.prefix, self.suffix = prefix, suffix
        self.mnemonic = "sv." + d.mnemonic
        from .asm import mode_kind
        self.kind = mode_kind(isa, row, cat)
        self.rm = rmmod.RM(rmmod.rm_of(prefix), cat.ptype)
        # profile svp64_xer: the element's XER.SO is not the register's (spec)
        self.svp64_so = isa.profile.svp64_xer == "element-so"
        self.c = isa.compiled(row, svp64_so=self.svp64_so)
        # Rc=1 (or no Rc bit: andi., addic. record always): the decoder's
        # MODE table, the CR field per element and its register-file check
        self.rc = row.records_cr(d.fields)
        # the builders, in order: each decides one part from the parts before
        where = record_operands.decode_operands(self)
        record_operands.rc_field(self, where)
        record_mode.decode_mode(self)
        record_mode.operand_sets(self)
        self._slots_assigned = False
        record_mode.loop_end(self)
        record_ffirst.fail_first(self)
        record_width.fp_element_width(self)
        record_ldst.ldst(self)
        record_width.page_xlen(self)
        record_width.saturation(self)
        record_width.rc_width(self)
        self._loop_paths()

    def _loop_paths(self):
        """Which element loop runs the record (the generated fast loop, or the
        general one with its scratch registers and zeroing copies), and the
        per-run caches."""
        isa, r, c = self.isa, self.rm, self.c
        gops = [o for o in self.ops if o.cls == "gpr"]
        # pages using SVSTATE (svstep) see the element's steps and the loop context
        self.uses_sv = "svstate" in c.source.lower()
        # a destination-zeroed element runs its page too (profile
        # dest_zeroed_page "run"; LD/ST zeroing never accesses memory)
        self.zeroed_page_runs = (isa.profile.dest_zeroed_page == "run"
                                 and self.kind != "ldst")
        ra0_vec = any(o.ra0 and o.vec and o.base == 0 for o in self.ops)
        # an RA-or-zero operand's element in r0 reads r0 (spec) or 0 (openpower-isa)
        self.vector_ra0_zero = ra0_vec and isa.profile.vector_ra0 == "zero"
        self.scratch_needed = bool(gops) and (r.ew != 64 or r.ews != 64 or ra0_vec
                                              or self.sat is not None)
        for j, o in enumerate(gops):
            o.sidx = 0 if (o.ra0 and not o.vec and o.base == 0) else j + 1
        self.gops = gops
        # source zeroing of FPR and CR operands runs on copies of those files
        self.zero_other_sources = any(o.src and o.cls in self.zeroed_classes
                                      for o in self.ops)
        self.fast = (not r.predicated and r.mode == "normal" and not self.scratch_needed
                     and not self.fp_elw
                     and not self.mview and not self.scalar_dest
                     and self.ffcr is None
                     and not self.maxvl_ops
                     and not self.uses_sv and not self.cr_field_by_step)
        self.fast_loop = self._gen_fast_loop() if self.fast else None
        self.subvl = r.subvl
        self._overflow = {}  # VL -> register_overflow() answer
        # under REMAP (executor): slot set -> generated loop (or None), and
        # (VL, SVSHAPE values) -> checked index tables
        self.remap_loops = {}
        self.remap_tables = {}
        # (SVSTATE without its steps, SVSHAPE0-3) -> (loop, tables) of a HF
        # remapped run whose shapes read no registers (not Indexed)
        self.remap_runs = {}
        # SVSTATE pack/unpack reorder the sub-element loop: only the general
        # path follows them (they change nothing when SUBVL is 1)
        self.order_bits = (1 << SV.SH_PACK | 1 << SV.SH_UNPACK) if r.subvl > 1 else 0

    def place_maxvl(self, maxvl, mapped=()):
        """Set the element offset of MAXVL-relative operands for a run with
        MAXVL ``maxvl`` (elements, so packed element widths stay packed:
        openpower-isa's sv.maddsubrs/w=16 *10 puts RS's four elements in r11);
        an operand whose slot is in ``mapped`` (REMAP) takes its elements
        from the schedule instead."""
        changed = False
        for o, base in self.follows_source:
            if o.vec and mapped:
                raise Trap(f"SVP64 REMAP with the implicit result {o.field} following the "
                           f"vector source {base} is not implemented", "illegal")
        for o in self.maxvl_ops:
            slot = o.slot[1] if o.dst else o.slot[0]
            e = 0 if slot in mapped else maxvl
            if o.eoff != e:
                o.eoff, changed = e, True
        if changed:
            self._overflow.clear()

    def remapped_loop(self, slots):
        """The generated loop (as :meth:`_gen_fast_loop`) with the operands in
        ``slots`` (mapped index-mapping slots) at ``s.sv_tables[slot][k]``
        (bound once before the loop) instead of k; None when an operand reads and writes through
        different slots (one page parameter cannot follow both)."""
        args = []
        for i, v in enumerate(self.base_args):
            op = next((o for o in self.vecops if o.pos == i), None)
            if op is None:
                args.append(str(v))
                continue
            src, dst = op.slot
            if op.src and op.dst and src != dst and (src in slots or dst in slots):
                return None
            slot = dst if op.dst else src
            k = f"_t_{slot}[k]" if slot in slots else "k"
            args.append(f"{v} + 4 * {k}" if op.cls == "crb" else f"{v} + {k}")
        # the Rc=1 field follows the out slot, or the step (openpower-isa's CR0 + step)
        kcr = "_t_out[k]" if "out" in slots and not self.cr_by_step else \
            "k" if self.cr_step_div == 1 else f"k // {self.cr_step_div}"
        crf = f"{self.crbase} + {kcr}" if self.crvec else str(self.crbase)
        setup = [f"_t_{slot} = s.sv_tables[{slot!r}]" for slot in sorted(slots)]
        return self.c.element_loop(args, crf, setup)

    # -- the generated loop for the common case ---------------------------------
    def _gen_fast_loop(self):
        """The page body inlined in a loop over element index k (see
        Compiled.element_loop): vector operands are base + k, CR-bit operands
        base + 4k, everything else a constant."""
        args = []
        for i, v in enumerate(self.base_args):
            op = next((o for o in self.vecops if o.pos == i), None)
            if op is None:
                args.append(str(v))
            elif op.cls == "crb":
                args.append(f"{v} + 4 * k")
            else:
                args.append(f"{v} + k")
        kcr = "k" if self.cr_step_div == 1 else f"k // {self.cr_step_div}"
        crf = f"{self.crbase} + {kcr}" if self.crvec else str(self.crbase)
        return self.c.element_loop(args, crf)

    def assign_slots(self):
        """Give the operands their index-mapping slots (:func:`.indexmap.assign_slots`);
        done on demand, when a non-identity index map is installed, so that
        decoding stays as cheap as before for the common case."""
        if not self._slots_assigned:
            assign_slots(self.ops, self.row, remap_ports().get(self.row.mnemonic))
            self._slots_assigned = True

    def register_overflow(self, vl):
        """None, or why an operand of ``vl`` elements (times SUBVL) would use a
        register past the last of its file (r127, f127, CR127, CR bit 511):
        such an instruction traps before any element runs (:mod:`.regfile_end`,
        the one rule every path asks).  Counted: vector GPR/FPR operands at
        their element widths, vector CR fields and CR bits, scalar implicit
        operands (RS=RT+1), the Rc=1 CR field of a vector result and the CR
        field LD/ST fail-first records per element."""
        cached = self._overflow.get(vl)
        if cached is not None or vl in self._overflow:
            return cached
        why = self._overflow[vl] = self._past_end(vl)
        return why

    def _past_end(self, vl):
        n, who = vl * self.subvl, self.mnemonic
        why = self.unmapped_past_end(vl)
        if why:
            return why
        for o in self.vecops:
            width = 64
            if o.cls in ("gpr", "fpr") and o.field != self.addr_field:
                # (an LD/ST base address is read and updated at 64 bits whatever
                # the element widths: the scratch path's read_elem(..., 64))
                width = max(self.rm.ew if o.dst else 0, self.rm.ews if o.src else 0)
            why = regfile_end.vector_past_end(who, o.field, o.cls, o.base, n + o.eoff, width)
            if why:
                return why
        if self.crvec and not self.cr_by_step and self.cr_result:
            # the Rc=1 (or fail-first as-if-Rc=1) CR field: crbase + element
            return regfile_end.vector_past_end(who, f"CR{self.crbase}", "crf", self.crbase,
                                               n, what="CR result field vector")
        return None

    @property
    def cr_result(self):
        """Does each element record a CR result field (Rc=1, or fail-first's
        as-if-Rc=1 with RC1)?"""
        return bool(self.rc or (self.ffcr and self.ffcr[0] == "rc0"))

    def unmapped_past_end(self, vl):
        """The part of :meth:`register_overflow` REMAP does not move: scalar
        implicit operands, CR fields numbered by step (CR0 + dststep under the
        openpower-isa profile; LD/ST fail-first RC1's CR0 + element)."""
        n, who = vl * self.subvl, self.mnemonic
        for o in self.ops:
            if not o.vec:
                why = regfile_end.scalar_past_end(who, o.field, o.cls, o.base)
                if why:
                    return why
        if self.crvec and self.cr_by_step and self.cr_result:
            why = regfile_end.vector_past_end(who, f"CR{self.crbase}", "crf", self.crbase,
                                              (n - 1) // self.cr_step_div + 1,
                                              what="CR result field vector")
            if why:
                return why
        if self.ffcr and self.ffcr[0] == "rc1" and self.rm.rc1 and (
                self.ld_ffcr_vec or self.ldst.store):
            return regfile_end.vector_past_end(who, "CR0", "crf", 0, n,
                                               what="fail-first CR field vector")
        return None

