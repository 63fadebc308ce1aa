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
"""
import re

from .. import specdata
from ..pseudocode import compiler as pcompiler
from ..errors import Trap
from . import rm as rmmod
from . import svstate as SV
from .elements import M64, read_elem, signed as _signed
from .extra import parse_slots, etype, slot_spec, EXTENDERS
from . import satexact
from . import regfile_end
from .indexmap import LOAD_OFFSETS, assign_slots, element_index, slot_index

_SIGNED = None


def _name_list(fname, tags=False):
    names = {}
    for line in specdata.source().read("decoder", "svp64", fname)[1].splitlines():
        words = line.split("#", 1)[0].split()
        if words:
            names[words[0]] = tuple(words[1:])
    return names if tags else frozenset(names)


def signed_sources():
    """{base mnemonic: conditions}: rows whose source elements are sign-extended
    under ELWIDTH_SRC (``decoder/svp64/signed_sources.txt``), when the word's
    fields meet the conditions (:func:`fields_hold`)."""
    global _SIGNED
    if _SIGNED is None:
        _SIGNED = _name_list("signed_sources.txt", tags=True)
    return _SIGNED


def fields_hold(conditions, fields):
    """Whether every ``FIELD&MASK`` condition (a table's tags) has a bit of MASK
    set in the instruction's field; no condition always holds."""
    for c in conditions:
        name, _, mask = c.partition("&")
        if name not in fields or not mask:
            raise Trap(f"decoder/svp64: bad field condition {c!r} (FIELD&MASK)", "illegal")
        if not fields[name] & int(mask, 0):
            return False
    return True


_XLEN = None


def xlen_rows():
    """{base mnemonic: conditions}: rows whose page depends on XLEN
    (``decoder/svp64/xlen_rows.txt``) when the word's fields meet the
    conditions (its ``FIELD&MASK`` tags; ``sources=mixed`` marks sources of
    different signedness): under element-width overrides a page written in
    XLEN runs at the operation width, any other traps."""
    global _XLEN
    if _XLEN is None:
        _XLEN = _name_list("xlen_rows.txt", tags=True)
    return _XLEN


_PORTS = None


def remap_ports():
    """{base mnemonic: (in1, in2, in3, out, out2) register field or "-"}: the
    decoder ports REMAP's operand slots name (``decoder/svp64/remap_ports.txt``,
    openpower-isa's RM tables)."""
    global _PORTS
    if _PORTS is None:
        _PORTS = _name_list("remap_ports.txt", tags=True)
    return _PORTS


class Op:
    """One register operand: field, class, extended base number, vector?, roles,
    index-mapping slot."""
    __slots__ = ("field", "cls", "base", "vec", "src", "dst", "pos", "ra0", "sidx", "slot",
                 "implicit", "maxvl", "eoff")

    def __init__(self, field, cls, base, vec, src, dst, pos, ra0):
        self.field, self.cls, self.base, self.vec = field, cls, base, vec
        self.src, self.dst, self.pos, self.ra0 = src, dst, pos, ra0
        self.sidx = 0
        self.slot = (None, None)  # (source, destination) index-mapping slot, see indexmap
        # implicit operand (tables "FRS=FRT+MAXVL"); maxvl: a vector whose
        # elements start MAXVL elements on unless REMAP maps its slot: eoff,
        # the element offset, is placed per run (SVRecord.place_maxvl)
        self.implicit, self.maxvl, self.eoff = False, False, 0

    def __repr__(self):
        return f"Op({self.field}={'*' if self.vec else ''}{self.base} {self.cls}" \
               f"{' s' if self.src else ''}{' d' if self.dst else ''})"


class _LdStMemory:
    """Memory view for one LD/ST element: adds the element's offset to every
    access (``offset(n)`` for an n-byte access: unit stride, element stride,
    post-increment) and checks the memory-side element width (ldst.mdwn: an
    elwidth narrower than the operation width is UNDEFINED; trapped here)."""
    __slots__ = ("mem", "offset", "mw", "little", "last")

    def __init__(self, mem, offset, mw):
        self.mem, self.offset, self.mw = mem, offset, mw
        self.little = mem.little
        self.last = 0

    def _ea(self, addr, n):
        if n * 8 > self.mw:
            raise Trap(f"SVP64 LD/ST: a {n * 8}-bit access with a {self.mw}-bit memory-side "
                       "element width is UNDEFINED (ldst.mdwn)", "illegal")
        self.last = self.offset(n)
        return (addr + self.last) & M64

    def read(self, addr, n):
        return self.mem.read(self._ea(addr, n), n)

    def write(self, addr, n, value):
        return self.mem.write(self._ea(addr, n), n, value)

    def read_bytes(self, addr, n):
        return self.mem.read_bytes(self._ea(addr, n), n)

    def write_bytes(self, addr, data):
        return self.mem.write_bytes(self._ea(addr, len(data)), data)

    def __getattr__(self, name):
        return getattr(self.mem, name)

    # The reservation (lXarx / stXcx.) holds the page's EA, which here lacks the
    # element's offset and memory-side width: rather than reserve or compare a
    # wrong address, a reservation row under an element stride or a memory
    # element width traps before it changes anything.
    def _no_reservation(self, *_value):
        raise Trap("SVP64 LD/ST: load-and-reserve / store-conditional with an element "
                   "stride or a memory-side element width is not implemented", "illegal")

    reserve = reserve_length = reserve_addr = property(_no_reservation, _no_reservation)


class LdSt:
    """How a vectorised load/store addresses memory (ldst.mdwn), decided once.

    ``data`` the data register field (RT/FRT of a load, RS/FRS of a store),
    ``addr`` the base address field (RA), ``index`` RB of an indexed form (else
    None), ``disp`` the displacement in bytes of an immediate form, ``store``,
    ``mode``: "pi" (post-increment), "unit", "els" (immediate element stride
    ``(RA) + i*D``), "xels" (indexed element stride ``(RA) + i*(RB)``) or None
    (indexed: vector RA and/or RB, or everything scalar), ``sea`` sign-extend
    RB from ELWIDTH_SRC, ``lf`` speculative fault-first, ``mw`` memory-side
    element width (ELWIDTH_SRC for a load, ELWIDTH for a store)."""

    def __init__(self, isa, row, fields, r, ops):
        mem_outs = "MEM" in row.outs
        self.store = mem_outs
        self.data = row.operands[0].field
        dop = next((op for op in row.operands if op.base), None)
        byname = {o.field: o for o in ops}
        self.disp = 0
        if dop is not None:
            self.addr, self.index = dop.base, None
            f = dop.field
            v = fields[f]
            if f in isa.forms.signed:
                v = _signed(v, row.form.fields[f].width)
            self.disp = v * isa.forms.scale.get(f, 1)
        else:
            regs = [op.field for op in row.operands[1:]]
            self.addr = regs[0] if regs else None
            self.index = regs[1] if len(regs) > 1 else None
        a = byname.get(self.addr)
        b = byname.get(self.index) if self.index else None
        avec = a is not None and a.vec
        bvec = b is not None and b.vec
        self.mode = None
        pi = r.pi
        if pi and self.addr not in row.outs:
            if isa.profile.pi_without_update != "ignored":
                raise Trap("SVP64 /pi applies to update-form LD/ST only", "illegal")
            pi = 0  # (profile) the element runs as without /pi
        if pi:
            # post-increment: the access at (RA), then RA <- (RA) + D, or
            # (RA) + (RB) on an indexed form (openpower-isa's pifixedload.mdwn
            # lbzup / lbzupx pages; RM table `els 0 PI zz LF|SEA`)
            self.mode = "pi" if dop is not None else "xpi"
        elif dop is not None and not avec:
            self.mode = "els" if r.els else "unit"
        elif dop is None and r.els and not avec and not bvec and b is not None \
                and isa.profile.indexed_els == "stride":
            self.mode = "xels"
        self.sea = bool(r.lfsea) and dop is None
        self.lf = bool(r.lfsea) and dop is not None
        self.mw = r.ew if self.store else r.ews
        self.load_offsets_mi0 = isa.profile.remap_ldst_offsets == "load-mi0"
        self.index_op = b
        self.addr_op = a
        self.ops = ops
        # update forms in a strided mode: RA receives the element's full EA
        self.update_op = a if (a is not None and self.addr in row.outs
                               and self.mode in ("unit", "els", "xels")) else None

    def needs_view(self):
        return self.mode is not None or self.mw != 64

    def offset_slot(self, mapped):
        """The REMAP slot that reorders this instruction's memory offsets, or
        None: with a unit or element stride, the EA slot (out2, SVme bit 4)
        when ``mapped`` holds it and no register uses it, else the address
        register's source slot (RA: in1) when mapped."""
        if not mapped or self.mode not in ("unit", "els", "xels"):
            return None
        if self.load_offsets_mi0:
            # profile remap_ldst_offsets: a load's follow SVSHAPE[mi0] (the
            # executor's LOAD_OFFSETS table), a store's are never remapped
            return None if self.store else LOAD_OFFSETS
        if "out2" in mapped and not any(o.slot[1] == "out2" for o in self.ops):
            return "out2"
        a = self.addr_op
        return a.slot[0] if a is not None and a.slot[0] in mapped else None

    def view(self, s, mem, ks, kd, ews, tables=None, zeroed=False):
        """The memory view of element (ks, kd): loads step memory with the source
        index, stores with the destination index (ldst.mdwn: i for LD, j for ST).
        A load whose offsets REMAP maps (:meth:`offset_slot`) takes its offset
        index from that schedule at srcstep (openpower-isa's check_replace_d); a
        store's at dststep (remap.mdwn: for unit-strided LD/ST "it will be the
        offset that is remapped").  ``zeroed``: the element's register sources
        read as 0 (profile ldst_zeroing "registers"), RB's offset too."""
        k = kd if self.store else ks
        slot = self.offset_slot(tables)
        if slot is not None:
            # (openpower-isa's load offsets step as SVSHAPE[mi0] does: slot_index)
            k = slot_index(tables, slot, ks, kd) if slot == LOAD_OFFSETS else tables[slot][k]
        mode = self.mode
        if mode == "unit":
            def off(n):
                return k * n
        elif mode == "els":
            d = self.disp

            def off(n):
                return (k - 1) * d
        elif mode == "xels":
            o = self.index_op
            rb = read_elem(s.gpr, o.base, 0, ews)
            if self.sea and ews != 64 and rb >> (ews - 1):
                rb |= M64 ^ ((1 << ews) - 1)

            def off(n):
                return (k - 1) * rb
        elif mode == "pi":
            d = self.disp

            def off(n):
                return -d
        elif mode == "xpi":
            # the page's EA is (RA) + (RB): the access goes back by (RB), the
            # element the page reads (at ELWIDTH_SRC, sign-extended with /sea)
            o = self.index_op
            rb = 0 if zeroed else read_elem(s.gpr, o.base, element_index(
                o, ks, kd, tables, False) if o.vec else 0, ews)
            if self.sea and ews != 64 and rb >> (ews - 1):
                rb |= M64 ^ ((1 << ews) - 1)

            def off(n):
                return -rb
        else:
            def off(n):
                return 0
        return _LdStMemory(mem, off, self.mw)


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
        r = self.rm = rmmod.RM(rmmod.rm_of(prefix), cat.ptype)
        # profile svp64_xer: the element's XER.SO is not the register's (spec)
        self.svp64_so = svp64_so = isa.profile.svp64_xer == "element-so"
        self.c = c = isa.compiled(row, svp64_so=svp64_so)
        fields = d.fields
        # Rc=1 (or no Rc bit: andi., addic. record always): the decoder's
        # MODE table, the CR field per element and its register-file check
        self.rc = row.records_cr(fields)
        regclass = isa.forms.regclass
        slots = parse_slots(row.extra)
        et = self.et = (cat.etype or etype(slots, cat.ptype))
        where = {}
        for i, s in enumerate(slots):
            for dd, name in s:
                where.setdefault(name, []).append((i, dd))
        ins = set(row.ins)
        if "RA0" in ins:
            ins.add("RA")
        outs = set(row.outs)
        self.ops = []
        for name in c.params:
            cls = regclass.get(name)
            if cls not in EXTENDERS:
                continue
            v = fields[name]
            if name in where:
                spec = slot_spec(r.extra, where[name][0][0], et)
                n, vec = EXTENDERS[cls](v, spec, et)
                dirs = {dd for _s, dd in where[name]}
            else:
                # no EXTRA slot: the 5-bit field is already the CR bit number
                # (4 * field + bit, ext_crb with spec 0); a CR field stays as is
                n, vec, dirs = v, False, set()
            src = name in c.reads or name in ins or "s" in dirs
            dst = name in c.writes or name in outs or "d" in dirs
            self.ops.append(Op(name, cls, n, vec, src, dst, c.params.index(name),
                               name == "RA" and "RA0" in row.ins))
        self._implicit_operands(row)
        if self.follows_source and et == 2 and r.extra & 1:
            # svfixedarith.mdwn: "bit 8 of EXTRA is set: RS=RT+MAXVL"; libre-soc's
            # decoder ignores the bit (docs/compat.md): neither reading is taken
            raise Trap(f"{self.mnemonic}: EXTRA bit 8 set (RS=RT+MAXVL in "
                       "svfixedarith.mdwn) is not implemented", "illegal")
        # the Rc=1 CR field (CR0 / CR1), extended by its slot like a 3-bit field;
        # element k (sub-elements counted) writes field crbase + k // cr_step_div
        self.crbase, self.crvec = 0, False
        self.cr_step_div = 1
        self.cr_by_step = False
        if row.rc in ("CR0", "CR1"):
            b = 0 if row.rc == "CR0" else 1
            if row.rc in where:
                spec = slot_spec(r.extra, where[row.rc][0][0], et)
                self.crbase, self.crvec = EXTENDERS["crf"](b, spec, et)
                if isa.profile.vector_rc_field == "cr0":
                    # openpower-isa: CR0 (CR1) + element, the slot's bits unused,
                    # each sub-element overwriting its element's field
                    self.crbase = b
                    self.cr_step_div = r.subvl
                    self.cr_by_step = True
            else:
                self.crbase = b
        crdest = any(o.dst and o.cls in ("crf", "crb") for o in self.ops)
        # an Rc=1 instruction whose page records CR0 itself (svstep.) uses the Rc=1 table
        rc_field = bool(fields.get("Rc"))
        rmmod.decode_mode(r, self.kind, self.rc or rc_field, crdest)
        if cat.decode_mode is not None:
            cat.decode_mode(r, self)
        crop = isa.profile.crop_rows
        self.crop_row = bool(crop and re.match(crop, d.mnemonic))
        if self.crop_row:
            # the profile's CR-op rows (openpower-isa's CROP): its RM decoder
            # extracts no zeroing, reverse gear or element widths for them
            r.sz = r.dz = 0
            r.rg = 0
            r.ew = r.ews = 64
        if r.mode == "sat" and isa.profile.saturation == "none":
            # the profile's saturation (openpower-isa): sz/dz as decoded, no
            # clamp, so none of saturation's traps either
            r.mode, r.sat = "normal", None
        self.base_args = [fields[p] for p in c.params]
        if not svp64_so and "OE" in c.params:
            self.base_args[c.params.index("OE")] = 0  # openpower-isa ignores OE under SVP64
        for o in self.ops:
            self.base_args[o.pos] = o.base
        self.vecops = [o for o in self.ops if o.vec]
        self.dstops = [o for o in self.ops if o.dst]
        # vector CR-field / CR-bit operands (profile switch cr_field_steps)
        self.cr_field_ops = any(o.vec and o.cls in ("crf", "crb") for o in self.ops)
        # which operand classes zeroing reaches besides GPRs (cr_field_zeroing):
        # a masked-out element whose destinations are all CR fields may run
        self.zeroed_classes = ("fpr", "crf", "crb")
        if isa.profile.cr_field_zeroing == "none":
            self.zeroed_classes = ("fpr",)
        self.cr_result_kept = bool(self.dstops) and not any(
            o.cls in ("gpr",) + self.zeroed_classes for o in self.dstops)
        # ... one per element, not per sub-element (profile switch cr_field_subvl)
        self.cr_field_by_step = (self.cr_field_ops and r.subvl > 1
                                 and isa.profile.cr_field_subvl == "step")
        self._slots_assigned = False
        regdst = [o for o in self.dstops]
        # a scalar destination ends the loop at its first write (unless map-reduce)
        self.scalar_dest = bool(regdst) and not any(o.vec for o in regdst) and \
            not (self.rc and self.crvec) and r.mode != "mapreduce"
        if r.mode == "ffirst" and any(o.vec and o.src for o in self.ops):
            # normal.mdwn "Data-Dependent Fail-First implicit mapreduce mode": a
            # scalar destination is an accumulator, the loop goes on to the
            # failing element (openpower-isa likewise tests only the sources)
            self.scalar_dest = False
        if self.kind == "ldst":
            # ldst.mdwn: a scalar load destination ends the loop; a store's
            # destination is memory (a vector of stores, even to one address)
            data = row.operands[0].field
            self.scalar_dest = "MEM" not in row.outs and not any(
                o.vec for o in self.ops if o.field == data) and r.mode != "ffirst"
        # "first-step" ends a scalar-destination loop after its first step even
        # when that step zeroed the destination (dz); "first-write" runs on to a
        # real write
        first_step_ends = isa.profile.scalar_dest == "first-step"
        self.scalar_dest_zeroed_ends = first_step_ends
        if first_step_ends and self.scalar_dest and (
                cat.ptype == 2 and any(o.vec for o in self.ops if o.src)):
            # openpower-isa loops on while a twin-predicated row has a vector
            # source (its svp64_is_vector test): every LD/ST row is one, so a
            # scalar load destination with a vector RA or RB takes each
            # element's load in turn, the last one standing
            self.scalar_dest = False
        vrows = isa.profile.ffirst_cr_vector_rows
        cr_vector_row = bool(vrows and re.match(vrows, d.mnemonic))
        if (isa.profile.ffirst_scalar_sources == "once" and r.mode == "ffirst"
                and self.kind != "ldst" and row.rc not in ("CR0", "CR1")
                and not cr_vector_row  # (their CR0 output counts as an Rc column's)
                # ... as does a vector CR-field or CR-bit destination (mcrf, cmp*)
                and not any(o.dst and o.vec and o.cls in ("crf", "crb") for o in self.ops)
                and not any(o.vec for o in self.ops if o.src)):
            # openpower-isa: under fail-first only a vector source keeps the loop
            # going (svp64_is_vector = in_vec, bug 1183); a row with an Rc
            # column (sv.and/ff=RC1 *61, 8, 72) runs on, its CR field
            # counting as one, so only rows without one (addi) run once
            self.scalar_dest = True
        if first_step_ends and self.kind == "ldst" and not any(o.vec for o in self.ops):
            # ... and runs an all-scalar load/store once, where the spec's unit
            # stride makes a store with a scalar source a splat into memory
            self.scalar_dest = True
        self.ffcr = None
        self.ffcr_whole_cr = False
        # normal-mode RC1 fail-first: the result is discarded (spec) or stored
        # as well (openpower-isa)
        self.rc1_stores = isa.profile.rc1_results == "stored"
        # a discarded fail-first element's XER and FPSCR taken back with its
        # registers (spec), or the XER kept (profile ffirst_kept_xer_rows)
        kept = isa.profile.ffirst_kept_xer_rows
        self.ffirst_xer_kept = bool(kept and re.match(kept, row.mnemonic))
        # (stores keep the spec's reading under every profile: openpower-isa's
        # store fail-first raises or tests the updated RA, docs/compat.md)
        store = self.kind == "ldst" and "MEM" in row.outs
        self.ffirst_vl_at_source = (isa.profile.ffirst_vl_step == "source"
                                    and not store)
        self.ffirst_group_kept = (isa.profile.ffirst_subvl_group == "kept"
                                  and not store)
        # a load's fail-first CR field (RC1): CR0 + element, or CR0 for every
        # element where the profile's Rc=0 field of a row without an Rc
        # column is (vector_rc_field "cr0": openpower-isa's get_cr_out gives a
        # row with no CR output CR0 itself, "XXX TODO: offset CR0")
        self.ld_ffcr_vec = isa.profile.vector_rc_field != "cr0"
        if r.mode == "ffirst":
            if self.kind == "ldst":
                self.ffcr = ("rc1", None)
            elif self.rc or rc_field:
                self.ffcr = ("rc", None)
                if self.rc and r.vli and isa.profile.ffirst_vli_zz and self.kind == "normal":
                    # openpower-isa reads MODE[0:2] = 0b11 with Rc=1 as the old
                    # pred-result mode's zz: sz = dz = the CR-bit's high bit
                    r.sz = r.dz = (r.cr_sel >> 1) & 1
                if self.rc and isa.profile.rc_ffirst_vli == "ignored":
                    r.vli = 0  # openpower-isa decodes VLi only when Rc=0
            elif self.kind == "normal" and not crdest:
                # Rc=0: the result's CR as if Rc=1 (normal.mdwn "Rc=0: ffirst z/nonz")
                res = next((o for n in row.outs for o in self.ops
                            if o.dst and o.field == n and o.cls in ("gpr", "fpr")), None)
                if res is None or res.cls != "gpr":
                    raise Trap("SVP64 fail-first with Rc=0 on an instruction without a GPR "
                               "result is not implemented", "illegal")
                if not row.rc:
                    # no Rc column: the as-if-Rc=1 field is CR0, a vector with
                    # the result (spec) or CR0 for every element (openpower-isa)
                    self.crbase = 0
                    self.crvec = res.vec and (isa.profile.vector_rc_field != "cr0"
                                              or cr_vector_row)
                    if self.crvec and isa.profile.vector_rc_field == "cr0":
                        # openpower-isa's CR0 + dststep: one field per element,
                        # each sub-element overwriting it (as its Rc=1 field)
                        self.cr_step_div = r.subvl
                        self.cr_by_step = True
                self.ffcr = ("rc0", res)
                whole = isa.profile.ffirst_cr_whole_cr_rows
                self.ffcr_whole_cr = bool(whole and re.match(whole, d.mnemonic))
            else:
                # a CR operation (cr_ops.mdwn "Data-dependent fail-first on CR
                # operations"): the CR result is the one tested.  A CR-field
                # destination (mcrf, cmp): its bit MODE's CR-bit selects (the
                # 3-bit variant); a CR-bit destination (crand, creqv): the bit
                # just written (the 5-bit variant: bits 22-23 are dz and
                # unused, no CR-bit)
                cro = [o for o in self.dstops if o.cls == "crf"]
                crb = [o for o in self.dstops if o.cls == "crb"]
                rc1_rows = isa.profile.ffirst_cr_field_rc1_rows
                if cro and rc1_rows and re.match(rc1_rows, d.mnemonic):
                    # (profile) MODE read as the arithmetic table's Rc=0 row
                    # `VLi 1 inv zz RC1`: EQ tested, and only when RC1 is set
                    r.cr_sel, r.rc1 = 2, r.mode_bits & 1
                    self.ffcr = ("op", cro[0]) if r.rc1 else None
                elif cro:
                    self.ffcr = ("op", cro[0])
                elif crb:
                    if not self.crop_row:  # (the profile's CR ops have no dz)
                        r.dz = (r.mode_bits >> 1) & 1
                    r.cr_sel = None
                    self.ffcr = ("bit", crb[0])
                else:
                    raise Trap("fail-first needs a CR result (Rc=1 or a CR field destination)",
                               "illegal")
        gops = [o for o in self.ops if o.cls == "gpr"]
        fops = [o for o in self.ops if o.cls == "fpr"]
        # FP element widths (fpelw): binary32 / binary16 elements; bf16 reserved
        self.fp_elw = bool(fops) and (r.ew != 64 or r.ews != 64)
        if self.fp_elw:
            if r.ew == 8 or r.ews == 8:
                raise Trap("SVP64 FP ELWIDTH=11 (bf16) is reserved", "illegal")
            if gops or self.kind == "ldst":
                raise Trap("SVP64 FP element-width overrides on FP loads/stores and "
                           "GPR/FPR-mixed instructions are not implemented", "illegal")
            if self.maxvl_ops:
                # no source shows an FP butterfly at an element width (the
                # integer ones count the MAXVL offset in elements)
                raise Trap(f"SVP64 FP element-width overrides on {d.mnemonic} (an "
                           "operand MAXVL elements on) are not implemented", "illegal")
            for j, o in enumerate(fops):
                o.sidx = j
            self.fops = fops
            from .fpelw import elfmt
            self.fp_fmt = elfmt(r.ew)
        # LD/ST: addressing mode (unit / element stride, post-increment, indexed)
        self.ldst = None
        self.addr_fields = ()
        self.data_op = None
        if self.kind == "ldst":
            ld = self.ldst = LdSt(isa, row, fields, r, self.ops)
            # the address register is never element-width overridden
            self.addr_fields = (ld.addr,)
            self.data_op = next((o for o in self.ops if o.field == ld.data), None)
        # (profile ldst_zeroing "registers", openpower-isa) a zeroed LD/ST element
        # zeroes its register operands, RA and RB included, as any row's
        self.ldst_zero_regs = self.kind == "ldst" and isa.profile.ldst_zeroing == "registers"
        self.addr_field = self.addr_fields[0] if self.addr_fields else None
        self.mview = self.ldst is not None and self.ldst.needs_view()
        signed = signed_sources().get(row.mnemonic)
        self.sext = signed is not None and fields_hold(signed, fields)
        # profile "elwidth_xlen" (openpower-isa): a page that names XLEN runs at
        # XLEN = the operation width max(source, destination), its sources
        # zero-extended to it, instead of at 64 bits with the result truncated
        # (at XLEN = 64 too: `sv.extsw/sw=8` reads its byte zero-extended)
        self.xlen = 64
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
                and self.kind != "ldst" and pcompiler.names_xlen(row.page)):
            self.xlen = opw
            if opw != 64:
                self.c = c = isa.compiled(row, opw, svp64_so=self.svp64_so)
            self.sext = False
        elif (xlen_row and isa.profile.elwidth_xlen and opw == 64 and gops and not fops
              and self.kind != "ldst"):
            # (profile "elwidth_xlen") at XLEN = 64 a page written for 64
            # bits only runs as it is, its narrower sources zero-extended
            self.sext = False
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
                self.xlen = opw
                self.c = c = isa.compiled(row, opw)
        # saturation (normal.mdwn "sat mode"): clamp the exact result to ELWIDTH
        self.sat = None
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
            if r.sat == "u" and r.ews != 64 and self.sext and signed:
                # a row whose fields choose signed sources (minmax's signed
                # comparison): zero-extending them (N=0) would change it
                raise Trap(f"SVP64 /satu of {d.mnemonic} with narrower signed source "
                           "elements is not implemented", "illegal")
            # (result Op, Exact or None, the expression's fields or None)
            self.sat = (res, exact, env)
            self.sext = r.sat == "s"
        # Rc=1 CR0 of a narrow result: recomputed from the element truncated to
        # rc_bits (the destination width, or the operation's under a profile)
        self.rc_op = None
        self.rc_bits = r.ew if isa.profile.rc_width == "destination" else max(r.ew, r.ews)
        # the width whose top bit makes that CR negative: rc_bits, or 64 for
        # rows whose result the profile reads zero-extended (rc_zero_extended_rows)
        zext = isa.profile.rc_zero_extended_rows
        self.rc_sign_bits = 64 if zext and re.match(zext, d.mnemonic) else self.rc_bits
        if self.rc and row.rc == "CR0" and self.rc_bits != 64 and not c.records_cr0:
            self.rc_op = next((o for n in row.outs for o in gops if o.dst and o.field == n),
                              None)
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

    def _implicit_operands(self, row):
        """Implicit operands follow their base field (FRS: FRT's vector, MAXVL
        further on; FRT+1 when FRT is scalar); ``FRB+MAXVL`` sources of a
        vector start MAXVL further on.  Their MAXVL-relative bases are placed
        per run (:meth:`place_maxvl`)."""
        byname = {o.field: o for o in self.ops}
        for o in self.ops:
            base = byname.get(row.implicit.get(o.field))
            if base is not None:
                o.implicit, o.vec = True, base.vec
                o.base = base.base if base.vec else \
                    base.base + row.implicit_scalar_offset[o.field]
                o.maxvl = base.vec
            elif o.field in row.maxvl_sources and o.vec:
                o.maxvl = True
        self.maxvl_ops = [o for o in self.ops if o.maxvl]
        # implicit results that follow a source (bigint RS=RC+MAXVL:0): no
        # source says where REMAP puts them (openpower-isa's decoder moves
        # them by RC's schedule without the MAXVL offset)
        self.follows_source = [(o, row.implicit[o.field]) for o in self.ops
                               if o.implicit and not byname[row.implicit[o.field]].dst]

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

