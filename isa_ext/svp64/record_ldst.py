"""Record builder: how a vectorised load/store addresses memory (ldst.mdwn),
decided once (:class:`LdSt`), and the memory view each element runs its page
on (:class:`_LdStMemory`)."""
from ..errors import Trap
from .elements import M64, read_elem, signed as _signed
from .indexmap import LOAD_OFFSETS, element_index, slot_index


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


def ldst(rec):
    """``rec.ldst`` (an :class:`LdSt`, or None for a row that is not a load or
    store), its data and address operands, and whether elements need a
    memory view."""
    isa, row, r = rec.isa, rec.row, rec.rm
    fields = rec.d.fields
    rec.ldst = None
    rec.addr_fields = ()
    rec.data_op = None
    if rec.kind == "ldst":
        ld = rec.ldst = LdSt(isa, row, fields, r, rec.ops)
        # the address register is never element-width overridden
        rec.addr_fields = (ld.addr,)
        rec.data_op = next((o for o in rec.ops if o.field == ld.data), None)
    # (profile ldst_zeroing "registers", openpower-isa) a zeroed LD/ST element
    # zeroes its register operands, RA and RB included, as any row's
    rec.ldst_zero_regs = rec.kind == "ldst" and isa.profile.ldst_zeroing == "registers"
    rec.addr_field = rec.addr_fields[0] if rec.addr_fields else None
    rec.mview = rec.ldst is not None and rec.ldst.needs_view()
