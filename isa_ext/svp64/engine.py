"""The SVP64 loop engine: one handler per (prefix, suffix) pair.

:func:`build` decodes RM and the suffix once and returns ``f(s, CIA) -> NIA``.
Each element operation calls the suffix page's flat ``sem(s, CIA, f_<fields>...,
_crf)`` with EXTRA-extended register numbers offset by the element index.

* Horizontal-first (SVSTATE.vfirst=0): the whole loop runs in one call.  The common
  case (no predicate, 64-bit elements, normal mode) runs a generated loop.
* Vertical-first: one element at SVSTATE's current steps; ``svstep`` advances.
* Element widths below 64 (GPRs): elements are packed little-endian into the
  register file (element k of a vector at r<n> is bits ``k*w mod 64`` of
  r<n + k*w div 64>).  The page runs on a scratch register list holding the
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
  (:class:`LoopContext`: SUBVL and predicate masks) of the prefixed
  instruction.
* Progress is kept in SVSTATE's steps: an element-level interrupt or a trap
  inside the loop leaves PC at the instruction and the steps at the element
  that did not complete, so running again resumes.
"""
from ..errors import Trap
from . import rm as rmmod
from . import svstate as SV
from .extra import parse_slots, etype, slot_spec, EXTENDERS
from .predication import mask as pred_mask, ALL

M64 = (1 << 64) - 1
_SIGNED = None


def _name_list(fname, tags=False):
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "decoder", "svp64", fname)
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                names[words[0]] = tuple(words[1:])
    return names if tags else frozenset(names)


def signed_sources():
    """Base mnemonics whose source elements are sign-extended under ELWIDTH_SRC
    (``decoder/svp64/signed_sources.txt``)."""
    global _SIGNED
    if _SIGNED is None:
        _SIGNED = _name_list("signed_sources.txt")
    return _SIGNED


_SAT_OV = None


def sat_overflow_rows():
    """{base mnemonic: tags} of rows whose OE=1 OV is the signed overflow of
    the 64-bit result within one wrap (``decoder/svp64/sat_overflow.txt``; tag
    "narrow": only for source elements of 32 bits or less)."""
    global _SAT_OV
    if _SAT_OV is None:
        _SAT_OV = _name_list("sat_overflow.txt", tags=True)
    return _SAT_OV


class LoopContext:
    """How ``svstep`` advances the steps on behalf of a prefixed instruction:
    ``subvl``, source/destination masks (bit i = element i) and whether masked-out
    elements are skipped on each side (predicated without zeroing).  An unprefixed
    svstep uses :data:`PLAIN` (SUBVL 1, no predicate)."""
    __slots__ = ("subvl", "smask", "dmask", "sskip", "dskip")

    def __init__(self, subvl=1, smask=ALL, dmask=ALL, sskip=False, dskip=False):
        self.subvl, self.smask, self.dmask = subvl, smask, dmask
        self.sskip, self.dskip = sskip, dskip


PLAIN = LoopContext()


def next_enabled(mask, step, vl, skip):
    """The first step >= ``step`` whose mask bit is set (``step`` itself when not
    skipping); ``vl`` when none is left."""
    if not skip:
        return step
    while step < vl and not (mask >> step) & 1:
        step += 1
    return step


def settle(mask, step, sub, vl, subvl, skip, sub_outer):
    """The first position at or after (step, sub), in stepping order, whose
    element is enabled in ``mask`` (bit i = step i); (step, sub) itself when
    not skipping.  ``sub_outer`` is SVSTATE's pack (source side) / unpack
    (destination side): sub-elements become the outer loop and every step is
    an element move; otherwise a masked element is only entered at sub 0.
    ``step >= vl`` means no position is left."""
    if not skip or step >= vl or (mask >> step) & 1:
        return step, sub
    if not sub_outer:
        if sub:
            return step, sub
        return next_enabled(mask, step + 1, vl, True), 0
    step = next_enabled(mask, step + 1, vl, True)
    while step >= vl:
        sub += 1
        if sub >= subvl:
            return vl, 0
        step = next_enabled(mask, 0, vl, True)
    return step, sub


def step_on(step, sub, vl, subvl, sub_outer):
    """The position after (step, sub) in stepping order (no predicate): the
    sub-element inner (normal) or outer (pack / unpack, openpower-isa's
    src_iterate / dst_iterate).  ``step >= vl`` at the end."""
    if sub_outer:
        step += 1
        if step < vl:
            return step, sub
        sub += 1
        return (vl, 0) if sub >= subvl else (0, sub)
    sub += 1
    if sub >= subvl:
        return step + 1, 0
    return step, sub


def advance_steps(sv, ctx):
    """SVSTATE after one ``svstep`` advance under ``ctx``, and whether the loop
    ended.  Each side moves to its next position in stepping order (see
    :func:`step_on`; SVSTATE.pack / .unpack make the sub-element the outer
    loop of the source / destination side), then on to the next enabled
    element (:func:`settle`).  At the end (srcstep or dststep reaches VL) the
    steps are reset and vertical-first mode is left."""
    vl = (sv >> SV.SH_VL) & 0x7F
    subvl = ctx.subvl
    pack = subvl > 1 and (sv >> SV.SH_PACK) & 1
    unpack = subvl > 1 and (sv >> SV.SH_UNPACK) & 1
    src, ssub = step_on((sv >> SV.SH_SRC) & 0x7F, (sv >> SV.SH_SSUB) & 3, vl, subvl, pack)
    src, ssub = settle(ctx.smask, src, ssub, vl, subvl, ctx.sskip, pack)
    dst, dsub = step_on((sv >> SV.SH_DST) & 0x7F, (sv >> SV.SH_DSUB) & 3, vl, subvl, unpack)
    dst, dsub = settle(ctx.dmask, dst, dsub, vl, subvl, ctx.dskip, unpack)
    if src >= vl or dst >= vl:
        return (sv & ~SV.STEPS_MASK) & ~1, True
    return SV.with_steps(sv, src, dst, ssub, dsub), False


class ElementInterrupt(Trap):
    """An injected element-level interrupt (``Simulator.interrupt_after``)."""

    def __init__(self, reason):
        super().__init__(reason, "interrupt")


class Op:
    """One register operand: field, class, extended base number, vector?, roles."""
    __slots__ = ("field", "cls", "base", "vec", "src", "dst", "pos", "ra0", "sidx")

    def __init__(self, field, cls, base, vec, src, dst, pos, ra0):
        self.field, self.cls, self.base, self.vec = field, cls, base, vec
        self.src, self.dst, self.pos, self.ra0 = src, dst, pos, ra0
        self.sidx = 0

    def __repr__(self):
        return f"Op({self.field}={'*' if self.vec else ''}{self.base} {self.cls}" \
               f"{' s' if self.src else ''}{' d' if self.dst else ''})"


def _signed(v, w):
    return v - (1 << w) if v >> (w - 1) else v


def read_elem(regs, base, k, w):
    """Element k (width w) of the vector starting at register ``base``."""
    if w == 64:
        return regs[(base + k) & 127]
    bit = k * w
    return (regs[(base + (bit >> 6)) & 127] >> (bit & 63)) & ((1 << w) - 1)


def write_elem(regs, base, k, w, value):
    if w == 64:
        regs[(base + k) & 127] = value & M64
        return
    bit = k * w
    r = (base + (bit >> 6)) & 127
    sh = bit & 63
    m = ((1 << w) - 1) << sh
    regs[r] = (regs[r] & ~m) | ((value << sh) & m)


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
        if r.pi:
            if dop is None or self.addr not in row.outs:
                raise Trap("SVP64 /pi applies to update-form immediate LD/ST only", "illegal")
            self.mode = "pi"
        elif dop is not None and not avec:
            self.mode = "els" if r.els else "unit"
        elif dop is None and r.els and not avec and not bvec and b is not None:
            self.mode = "xels"
        self.sea = bool(r.lfsea) and dop is None
        self.lf = bool(r.lfsea) and dop is not None
        self.mw = r.ew if self.store else r.ews
        self.index_op = b
        # update forms in a strided mode: RA receives the element's full EA
        self.update_op = a if (a is not None and self.addr in row.outs
                               and self.mode in ("unit", "els", "xels")) else None

    def needs_view(self):
        return self.mode is not None or self.mw != 64

    def view(self, s, mem, ks, kd, ews):
        """The memory view of element (ks, kd): loads step memory with the source
        index, stores with the destination index (ldst.mdwn: i for LD, j for ST)."""
        k = kd if self.store else ks
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
        else:
            def off(n):
                return 0
        return _LdStMemory(mem, off, self.mw)


class SVInsn:
    """A decoded SVP64 instruction and its executor."""

    def __init__(self, isa, sim, prefix, suffix):
        d = isa.decode(suffix)
        if d is None:
            raise Trap(f"SVP64 suffix 0x{suffix:08x} matches no instruction", "illegal")
        row = d.spec
        if not row.sv:
            raise Trap(f"{d.mnemonic} is not SVP64-capable (no RM category)", "illegal")
        self.cat = cat = rmmod.category(row.sv)
        self.isa, self.sim, self.d, self.row = isa, sim, d, row
        self.prefix, self.suffix = prefix, suffix
        self.mnemonic = "sv." + d.mnemonic
        from .asm import mode_kind
        self.kind = mode_kind(isa, row, cat)
        r = self.rm = rmmod.RM(rmmod.rm_of(prefix), cat.ptype)
        self.c = c = isa.compiled(row)
        fields = d.fields
        self.rc = bool(fields.get("Rc")) and row.rc in ("CR0", "CR1")
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
                n, vec, dirs = (v << 2 if cls == "crb" and False else v), False, set()
            src = name in c.reads or name in ins or "s" in dirs
            dst = name in c.writes or name in outs or "d" in dirs
            self.ops.append(Op(name, cls, n, vec, src, dst, c.params.index(name),
                               name == "RA" and "RA0" in row.ins))
        # the Rc=1 CR field (CR0 / CR1), extended by its slot like a 3-bit field
        self.crbase, self.crvec = 0, False
        if row.rc in ("CR0", "CR1"):
            b = 0 if row.rc == "CR0" else 1
            if row.rc in where:
                spec = slot_spec(r.extra, where[row.rc][0][0], et)
                self.crbase, self.crvec = EXTENDERS["crf"](b, spec, et)
            else:
                self.crbase = b
        crdest = any(o.dst and o.cls in ("crf", "crb") for o in self.ops)
        # an Rc=1 instruction whose page records CR0 itself (svstep.) uses the Rc=1 table
        rc_field = bool(fields.get("Rc"))
        rmmod.decode_mode(r, self.kind, self.rc or rc_field, crdest)
        if cat.decode_mode is not None:
            cat.decode_mode(r, self)
        self.base_args = [fields[p] for p in c.params]
        for o in self.ops:
            self.base_args[o.pos] = o.base
        self.vecops = [o for o in self.ops if o.vec]
        self.dstops = [o for o in self.ops if o.dst]
        regdst = [o for o in self.dstops]
        # a scalar destination ends the loop at its first write (unless map-reduce)
        self.scalar_dest = bool(regdst) and not any(o.vec for o in regdst) and \
            not (self.rc and self.crvec) and r.mode != "mapreduce"
        if self.kind == "ldst":
            # ldst.mdwn: a scalar load destination ends the loop; a store's
            # destination is memory (a vector of stores, even to one address)
            data = row.operands[0].field
            self.scalar_dest = "MEM" not in row.outs and not any(
                o.vec for o in self.ops if o.field == data) and r.mode != "ffirst"
        self.ffcr = None
        self._gsnap = None
        if r.mode == "ffirst":
            if self.kind == "ldst":
                if "MEM" in row.outs:
                    raise Trap("SVP64 data-dependent fail-first on a store is not "
                               "implemented (no result to test)", "illegal")
                self.ffcr = ("rc1", None)
            elif self.rc or rc_field:
                self.ffcr = ("rc", None)
            elif self.kind == "normal" and not crdest:
                # Rc=0: the result's CR as if Rc=1 (normal.mdwn "Rc=0: ffirst z/nonz")
                res = next((o for n in row.outs for o in self.ops
                            if o.dst and o.field == n and o.cls in ("gpr", "fpr")), None)
                if res is None or res.cls != "gpr":
                    raise Trap("SVP64 fail-first with Rc=0 on an instruction without a GPR "
                               "result is not implemented", "illegal")
                if not row.rc:
                    # no Rc column: the as-if-Rc=1 field is CR0, a vector with the result
                    self.crbase, self.crvec = 0, res.vec
                self.ffcr = ("rc0", res)
            else:
                cro = [o for o in self.dstops if o.cls == "crf"]
                if not cro:
                    raise Trap("fail-first needs a CR result (Rc=1 or a CR field destination)",
                               "illegal")
                self.ffcr = ("op", cro[0])
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
            self.fp_scratch = [0] * 128
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
        self.addr_field = self.addr_fields[0] if self.addr_fields else None
        self.mview = self.ldst is not None and self.ldst.needs_view()
        self.sext = row.mnemonic in signed_sources()
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
            tags = sat_overflow_rows().get(row.mnemonic)
            ov = "OE" in c.params and tags is not None
            if r.ews == 64 and (r.sat == "u" or not ov or "narrow" in tags):
                raise Trap(f"SVP64 /sat{r.sat} of {d.mnemonic} with 64-bit source elements "
                           "is not implemented (the exact result beyond 64 bits is not "
                           "known)", "illegal")
            self.sat = (res, c.params.index("OE") if ov else None)
            self.sext = r.sat == "s"
        # Rc=1 CR0 of a narrow destination: recomputed from the truncated element
        self.rc_op = None
        if self.rc and row.rc == "CR0" and r.ew != 64:
            self.rc_op = next((o for n in row.outs for o in gops if o.dst and o.field == n),
                              None)
        # pages using SVSTATE (svstep) see the element's steps and the loop context
        self.uses_sv = "svstate" in c.source.lower()
        ra0_vec = any(o.ra0 and o.vec and o.base == 0 for o in self.ops)
        self.scratch_needed = bool(gops) and (r.ew != 64 or r.ews != 64 or ra0_vec
                                              or self.sat is not None)
        self.scratch = [0] * 128
        for j, o in enumerate(gops):
            o.sidx = 0 if (o.ra0 and not o.vec and o.base == 0) else j + 1
        self.gops = gops
        self.fast = (not r.predicated and r.mode == "normal" and not self.scratch_needed
                     and not self.fp_elw
                     and not self.mview and not self.scalar_dest
                     and self.ffcr is None
                     and not self.uses_sv)
        self._loop = self._gen_loop() if self.fast else None
        self.subvl = r.subvl
        # SVSTATE pack/unpack reorder the sub-element loop: only the general
        # path follows them (they change nothing when SUBVL is 1)
        self.order_bits = (1 << SV.SH_PACK | 1 << SV.SH_UNPACK) if r.subvl > 1 else 0

    # -- the generated loop for the common case ---------------------------------
    def _gen_loop(self):
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
        crf = f"{self.crbase} + k" if self.crvec else str(self.crbase)
        return self.c.element_loop(args, crf)

    # -- execution -------------------------------------------------------------------
    def __call__(self, s, CIA):
        sv = s.svstate
        if sv & SV.REMAP_MASK:
            raise Trap(REMAP_REASON, "illegal")
        vl = (sv >> SV.SH_VL) & 0x7F
        if vl == 0:
            return CIA + 8
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

    def _run_fast(self, s, CIA, sv, vl):
        subvl = self.rm.subvl
        k0 = ((sv >> SV.SH_SRC) & 0x7F) * subvl + ((sv >> SV.SH_SSUB) & 3)
        n = vl * subvl
        budget = self._budget()
        k1 = n if budget is None else min(n, k0 + budget)
        sim = self.sim
        try:
            self._loop(s, CIA, k0, k1)
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

    def _run_general(self, s, CIA, sv, vl, vf):
        r = self.rm
        sim = self.sim
        emit = sim._sv_emit
        subvl = r.subvl
        srcstep = (sv >> SV.SH_SRC) & 0x7F
        dststep = (sv >> SV.SH_DST) & 0x7F
        ssub = (sv >> SV.SH_SSUB) & 3
        dsub = (sv >> SV.SH_DSUB) & 3
        # pack / unpack (SVSTATE, set by svstep): that side steps sub-elements in
        # the outer loop (openpower-isa's src_iterate / dst_iterate)
        pack = subvl > 1 and (sv >> SV.SH_PACK) & 1
        unpack = subvl > 1 and (sv >> SV.SH_UNPACK) & 1
        if (pack or unpack) and self.ffcr is not None:
            raise Trap("SVP64 fail-first with SVSTATE pack/unpack is not implemented",
                       "illegal")
        if r.predicated:
            dmask = pred_mask(s, r.mmode, r.mask, vl)
            smask = dmask if r.ptype == 1 else pred_mask(s, r.mmode, r.smask, vl)
        else:
            dmask = smask = ALL
        twin = r.ptype == 2
        sz, dz = r.sz, r.dz
        if not twin:
            sz = sz and not dz
        rg = r.rg
        if rg:
            # reverse gear: step i is element vl-1-i; masks indexed by step
            smask, dmask = _reverse(smask, vl), _reverse(dmask, vl)
        # masked-out elements are skipped on a side that is not zeroing
        sskip = r.predicated and not (sz if twin else (sz or dz))
        dskip = r.predicated and not (dz if twin else (sz or dz))
        srcstep, ssub = settle(smask, srcstep, ssub, vl, subvl, sskip, pack)
        dststep, dsub = settle(dmask, dststep, dsub, vl, subvl, dskip, unpack)
        if vf and r.predicated:
            # vertical-first: the steps moved over masked-out elements are
            # recorded (spec: svstep "still respecting predicate masks";
            # openpower-isa's pre-increment)
            sv = SV.with_steps(sv, min(srcstep, vl), min(dststep, vl), ssub, dsub)
            s.svstate = sv
        if self.uses_sv:
            ctx = LoopContext(subvl, smask, dmask, sskip, dskip)
        budget = self._budget()
        done = 0
        stop = None
        while srcstep < vl and dststep < vl:
            se = (smask >> srcstep) & 1
            de = (dmask >> dststep) & 1
            if budget is not None and done >= budget:
                self._interrupt(s, sv, srcstep, dststep, ssub, dsub)
            si = vl - 1 - srcstep if rg else srcstep
            di = vl - 1 - dststep if rg else dststep
            ks = si * subvl + ssub
            kd = di * subvl + dsub
            szero = not se
            dzero = not de
            if self.ffcr is not None and subvl > 1 and not r.vli and (dsub == 0 or vf):
                # fail-first over sub-vectors: a failing sub-element discards its group
                self._gsnap = (list(s.gpr), list(s.fpr))
            try:
                if self.uses_sv:
                    s.svstate = SV.with_steps(sv, srcstep, dststep, ssub, dsub)
                    s.sv_loop = ctx
                    try:
                        stop = self._element(s, CIA, ks, kd, szero, dzero, emit, srcstep,
                                             dststep, ssub, dsub, se, de)
                    finally:
                        s.sv_loop = None
                    if vf:
                        sim.element_ops += 1
                        if stop is not None:
                            # fail-first on a VF svstep: VL truncated; steps the page
                            # moved to or past the new VL end the loop as svstep does
                            nsv = SV.put(s.svstate, "vl", stop)
                            if ((nsv >> SV.SH_SRC) & 0x7F) >= stop or \
                                    ((nsv >> SV.SH_DST) & 0x7F) >= stop:
                                nsv = (nsv & ~SV.STEPS_MASK) & ~1
                            s.svstate = nsv
                        return CIA + 8  # the page's SVSTATE stands (svstep advanced it)
                    sv = s.svstate
                else:
                    stop = self._element(s, CIA, ks, kd, szero, dzero, emit, srcstep, dststep,
                                         ssub, dsub, se, de)
            except Trap:
                sim.element_ops += done
                s.svstate = SV.with_steps(sv, srcstep, dststep, ssub, dsub)
                raise
            done += 1
            if vf:
                break
            srcstep, ssub = step_on(srcstep, ssub, vl, subvl, pack)
            srcstep, ssub = settle(smask, srcstep, ssub, vl, subvl, sskip, pack)
            dststep, dsub = step_on(dststep, dsub, vl, subvl, unpack)
            dststep, dsub = settle(dmask, dststep, dsub, vl, subvl, dskip, unpack)
            if stop is not None:  # fail-first: truncate VL
                sv = SV.put(sv, "vl", stop)
                break
            if self.scalar_dest and not dzero:
                break
        sim.element_ops += done
        if vf:
            if stop is not None:
                s.svstate = SV.put(s.svstate, "vl", stop)
            return CIA + 8
        s.svstate = sv & ~SV.STEPS_MASK
        return CIA + 8

    def _element(self, s, CIA, ks, kd, szero, dzero, emit, srcstep, dststep, ssub, dsub,
                 se, de):
        """One element operation; returns the new VL if fail-first hit, else None."""
        r = self.rm
        args = list(self.base_args)
        reads, writes = {}, {}
        for o in self.ops:
            if o.vec:
                k = kd if o.dst else ks
                args[o.pos] = o.base + (4 * k if o.cls == "crb" else k)
        crf = self.crbase + kd if self.crvec else self.crbase
        ld = self.ldst
        if szero and ld is not None and not ld.store:
            # a load's source element is the memory element: zero, no access
            dzero = True
        if dzero:
            for o in self.dstops:
                if ld is not None and o is not self.data_op:
                    continue  # LD/ST zeroing: the data register only, RA keeps its value
                if o.cls in ("gpr", "fpr"):
                    regs = s.gpr if o.cls == "gpr" else s.fpr
                    write_elem(regs, o.base, kd if o.vec else 0,
                               r.ew if o.cls == "gpr" or self.fp_elw else 64, 0)
                    writes[o.field] = args[o.pos]
                elif o.cls == "crf":
                    s.cr[args[o.pos] & 127] = 0
                    writes[o.field] = args[o.pos]
            if emit is not None:
                self._event(emit, CIA, srcstep, dststep, ssub, dsub, se, de, True, reads, writes)
            return None
        if szero and any(o.src and o.cls != "gpr" for o in self.ops):
            raise Trap("SVP64 source zeroing of FP/CR operands is not implemented", "illegal")
        for o in self.ops:
            if o.src:
                reads[o.field] = args[o.pos]
            if o.dst:
                writes[o.field] = args[o.pos]
        snap = None
        rc1 = self.ffcr is not None and self.ffcr[0] == "rc0" and r.rc1
        if rc1 or (self.ffcr is not None and not r.vli and r.subvl == 1):
            # RC1: the result is never stored; otherwise the failing element's
            # register results are discarded (CR kept)
            snap = (list(s.gpr), list(s.fpr))
        mem = None
        if self.mview:
            mem = s.mem
            view = s.mem = ld.view(s, mem, ks, kd, r.ews)
        try:
            if self.scratch_needed or (szero and self.gops):
                self._scratch_call(s, CIA, args, crf, ks, kd, szero)
            elif self.fp_elw:
                self._fp_scratch_call(s, CIA, args, crf, ks, kd)
            else:
                self.c.sem(s, CIA, *args, crf)
        finally:
            if mem is not None:
                s.mem = mem
        if mem is not None and ld.update_op is not None and view.last:
            # the page set RA <- EA without the stride offset; RA gets the full EA
            n = ld.update_op.base
            s.gpr[n] = (s.gpr[n] + view.last) & M64
        if emit is not None:
            self._event(emit, CIA, srcstep, dststep, ssub, dsub, se, de, False, reads, writes)
        if self.ffcr is not None:
            kind, o = self.ffcr
            if kind == "rc1":
                # LD/ST RC1: CR field (CR0 + element) from the loaded element as if Rc=1
                o = self.data_op
                w = r.ew if o.cls == "gpr" else 64
                v = read_elem(s.gpr if o.cls == "gpr" else s.fpr, o.base,
                              kd if o.vec else 0, w)
                field = kd & 127
                s.cr[field] = (0b1000 if v >> (w - 1) else (0b0100 if v else 0b0010)) | \
                    (s.so & 1)
                crval = s.cr[field]
            elif kind == "rc0":
                # Rc=0: CR of the result element as if Rc=1 (signed at ELWIDTH, SO
                # copied); stored only with RC1, which discards the result instead
                w = r.ew
                v = read_elem(s.gpr, o.base, kd if o.vec else 0, w)
                crval = (0b1000 if v >> (w - 1) else (0b0100 if v else 0b0010)) | (s.so & 1)
                if r.rc1:
                    s.cr[crf & 127] = crval
                    s.gpr[:] = snap[0]
                    s.fpr[:] = snap[1]
            else:
                crval = s.cr[(crf if kind == "rc" else args[o.pos]) & 127]
            if ((crval >> (3 - r.cr_sel)) & 1) != r.inv:
                if not r.vli:
                    back = snap if r.subvl == 1 else self._gsnap
                    if back:
                        s.gpr[:] = back[0]
                        s.fpr[:] = back[1]
                return dststep + (1 if r.vli else 0)
        return None

    def _scratch_call(self, s, CIA, args, crf, ks, kd, szero):
        r = self.rm
        sc = self.scratch
        real = s.gpr
        ews, sext = r.ews, self.sext
        ld = self.ldst
        index = ld.index if ld is not None else None
        for o in self.gops:
            if o.field == self.addr_field:
                # LD/ST base address: 64 bits, never zeroed (only the data is)
                v = read_elem(real, o.base, ks if o.vec else 0, 64)
            elif o.src and szero and o.field != index:
                v = 0
            elif o.src:
                v = read_elem(real, o.base, ks if o.vec else 0, ews)
                if (ld.sea if o.field == index else sext) and ews != 64 and v >> (ews - 1):
                    v |= M64 ^ ((1 << ews) - 1)
            else:
                v = read_elem(real, o.base, kd if o.vec else 0, r.ew)
            sc[o.sidx] = v
            args[o.pos] = o.sidx
        sat = self.sat
        if sat is not None and sat[1] is not None:
            # OE=1 evaluation on a saved XER: OV places the exact result
            oe = args[sat[1]]
            xer = (s.ov, s.ov32, s.so)
            args[sat[1]] = 1
            s.ov = 0
        s.gpr = sc
        try:
            self.c.sem(s, CIA, *args, crf)
        finally:
            s.gpr = real
        if sat is not None:
            satd = self._saturate(s, sc, crf, oe if sat[1] is not None else None,
                                  xer if sat[1] is not None else None)
        for o in self.gops:
            if o.dst and o.field in self.c.writes:
                w = 64 if o.field == self.addr_field else r.ew
                v = sc[o.sidx]
                if ld is not None and o is self.data_op and ews != 64:
                    v &= (1 << ews) - 1  # load: op width -> ELWIDTH_SRC -> ELWIDTH
                write_elem(real, o.base, kd if o.vec else 0, w, v)
        if sat is not None:
            if self.rc:
                # Rc=1: CR of the saturated element; SO = saturation occurred
                v = sc[sat[0].sidx] & ((1 << r.ew) - 1)
                c = 0b1000 if v >> (r.ew - 1) else (0b0100 if v else 0b0010)
                s.cr[crf & 127] = c | satd
            return
        o = self.rc_op
        if o is not None:
            # CR0 of an element-width result: the truncated element, signed
            v = sc[o.sidx] & ((1 << r.ew) - 1)
            f = crf & 127
            c = 0b1000 if v >> (r.ew - 1) else (0b0100 if v else 0b0010)
            s.cr[f] = c | (s.cr[f] & 1)

    def _saturate(self, s, sc, crf, oe, xer):
        """Clamp the page's 64-bit result (sc) to the ELWIDTH range; returns 1
        when it saturated.  The exact result is the 64-bit value read as signed,
        moved past the 64-bit range when the OE=1 evaluation set OV."""
        r = self.rm
        o = self.sat[0]
        v = sc[o.sidx] & M64
        e = v - (1 << 64) if v >> 63 else v
        if xer is not None:
            if s.ov:
                e += -(1 << 64) if e >= 0 else (1 << 64)
            if not oe:
                s.ov, s.ov32, s.so = xer
        w = r.ew
        lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if r.sat == "s" else (0, (1 << w) - 1)
        c = lo if e < lo else hi if e > hi else e
        sc[o.sidx] = c & M64
        return int(c != e)

    def _fp_scratch_call(self, s, CIA, args, crf, ks, kd):
        """One element with FP element widths: sources widened exactly to
        doubles, rounding redirected to the element format, the result encoded
        back at ELWIDTH (see :mod:`.fpelw`)."""
        from .fpelw import to_double, from_double
        r = self.rm
        sc = self.fp_scratch
        real = s.fpr
        for o in self.fops:
            if o.src:
                sc[o.sidx] = to_double(read_elem(real, o.base, ks if o.vec else 0, r.ews), r.ews)
            else:
                sc[o.sidx] = to_double(read_elem(real, o.base, kd if o.vec else 0, r.ew), r.ew)
            args[o.pos] = o.sidx
        s.fpr = sc
        s.fp_elfmt = self.fp_fmt
        try:
            self.c.sem(s, CIA, *args, crf)
        finally:
            s.fpr = real
            s.fp_elfmt = None
        rn = s.fpscr & 3
        for o in self.fops:
            if o.dst and o.field in self.c.writes:
                write_elem(real, o.base, kd if o.vec else 0, r.ew,
                           from_double(sc[o.sidx], r.ew, rn))

    def _event(self, emit, CIA, srcstep, dststep, ssub, dsub, se, de, zeroed, reads, writes):
        emit({"type": "element", "pc": CIA, "mnemonic": self.mnemonic,
              "srcstep": srcstep, "dststep": dststep, "ssubstep": ssub, "dsubstep": dsub,
              "src_pred": se, "dst_pred": de, "zeroed": zeroed,
              "reads": dict(reads), "writes": dict(writes),
              "op": self.sim.element_ops})


def _reverse(mask, vl):
    """Mask bit i moved to bit vl-1-i (reverse gear: steps count from the top)."""
    out = 0
    for i in range(vl):
        if (mask >> i) & 1:
            out |= 1 << (vl - 1 - i)
    return out


def install_dispatch(isa):
    """Make ``isa`` run prefixed instructions through :func:`build` (by the RM
    category of the suffix).  The svp64 extension installs it; an extension that
    registers its own category installs it too, so its rows run with svp64 off."""
    if isa.prefix_handler is None:
        isa.prefix_handler = lambda sim, prefix, suffix: build(isa, sim, prefix, suffix)


def build(isa, sim, prefix, suffix):
    """The executor of one prefixed instruction: the category's ``execute`` hook
    when it has one (``rm.register_category(..., execute=...)``), else the
    generic loop engine :class:`SVInsn`."""
    d = isa.decode(suffix)
    if d is not None:
        from .asm import is_branch, BRANCH_REASON
        if is_branch(isa, d.spec):
            raise Trap(BRANCH_REASON, "illegal")
    if d is not None and d.spec.sv:
        cat = rmmod.CATEGORIES.get(d.spec.sv)
        if cat is not None and cat.execute is not None:
            return _remap_guarded(cat.execute(sim, prefix, suffix, d.spec, d.fields))
    return SVInsn(isa, sim, prefix, suffix)


REMAP_REASON = "REMAP is not implemented (SVSTATE REMAP fields are set)"


def _remap_guarded(run):
    """A category executor that first traps when SVSTATE's REMAP fields are set
    (the generic engine checks them itself): no SVP64 instruction runs
    un-remapped while REMAP is requested."""
    def guarded(s, CIA):
        if s.svstate & SV.REMAP_MASK:
            raise Trap(REMAP_REASON, "illegal")
        return run(s, CIA)
    return guarded
