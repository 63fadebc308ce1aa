"""Per-element read and write sets of one horizontal-first SVP64 instruction,
and the overlaps between elements that make HF element order observable.

The sets come from the decoded instruction itself: the SVP64 record
(:class:`isa_ext.svp64.record.SVRecord`: operands after EXTRA, element widths,
SUBVL, predicates, Rc=1 CR field) walked in stepping order
(:mod:`isa_ext.svp64.steps`), each operand at the element the REMAP schedules
give it (:mod:`isa_ext.svp64.remap` through the executor's index map).  An
``sv.mv.swiz`` is walked group by group with its own executor's element
offsets (:mod:`isa_ext.ext.swizzle.sv`).  Memory accesses are not analysed.

An access is a bit range of one register: ``Access(file, reg, lo, hi, field,
element)`` with ``file`` ``r`` / ``f`` (64-bit registers, elements packed from
the least significant end) or ``cr`` (4-bit CR fields; a CR-bit operand is
the bit's field).
"""
from dataclasses import dataclass, field as dc_field

from ..errors import Trap
from ..svp64 import svstate as SV
from ..svp64.indexmap import element_index, slot_index
from ..svp64.predication import mask as pred_mask, zeroing, ALL
from ..svp64.steps import settle, step_on, reverse_mask

SWIZZLE_CATEGORY = "MVRM-2P-2S1D"  # isa_ext/ext/swizzle/sv.py
_FILES = {"gpr": "r", "fpr": "f", "crf": "cr", "crb": "cr"}


@dataclass(frozen=True)
class Access:
    file: str       # r / f / cr
    reg: int
    lo: int         # first bit (LSB 0) of the register the element occupies
    hi: int         # last bit
    field: str      # the operand (RT, RA, FRT, CR0 ...), or "mask" for a predicate
    element: int    # the element index within the operand's vector

    @property
    def name(self):
        return f"{self.file}{self.reg}"

    def meets(self, other):
        return (self.file, self.reg) == (other.file, other.reg) and \
            self.lo <= other.hi and other.lo <= self.hi

    def as_dict(self):
        return {"register": self.name, "bits": [self.lo, self.hi], "operand": self.field,
                "element": self.element}


@dataclass
class Step:
    """One element step of the HF loop, in HF order."""
    index: int
    srcstep: int
    dststep: int
    ssubstep: int = 0
    dsubstep: int = 0
    zeroed: bool = False
    reads: list = dc_field(default_factory=list)
    writes: list = dc_field(default_factory=list)

    def as_dict(self):
        return {"step": self.index, "srcstep": self.srcstep, "dststep": self.dststep,
                "ssubstep": self.ssubstep, "dsubstep": self.dsubstep, "zeroed": self.zeroed,
                "reads": [a.as_dict() for a in self.reads],
                "writes": [a.as_dict() for a in self.writes]}


@dataclass
class Overlap:
    """Element step ``later`` touches what element step ``earlier`` touched:
    ``kind`` RAW (later reads what earlier wrote), WAR (later overwrites what
    earlier read), WAW (both write), or PRED (a step writes the predicate
    register the loop reads, with steps left after it)."""
    kind: str
    earlier: int
    later: int
    first: Access
    second: Access

    def as_dict(self):
        return {"kind": self.kind, "earlier_step": self.earlier, "later_step": self.later,
                "earlier": self.first.as_dict(), "later": self.second.as_dict()}

    def __str__(self):
        verb = {"RAW": "reads what", "WAR": "overwrites what", "WAW": "overwrites what",
                "PRED": "changes the predicate"}[self.kind]
        if self.kind == "PRED":
            return (f"step {self.earlier} writes {self.first.name} ({self.first.field}"
                    f"[{self.first.element}]), the predicate of steps after it")
        did = "read" if self.kind == "WAR" else "wrote"
        return (f"step {self.later} ({self.second.field}[{self.second.element}]) {verb} "
                f"step {self.earlier} ({self.first.field}[{self.first.element}]) {did} "
                f"in {self.first.name}")


@dataclass
class Dependencies:
    """The element steps of one HF instruction and their overlaps; ``kind`` is
    ``svp64`` (the generic engine), ``swizzle`` (sv.mv.swiz groups) or None with
    ``why`` when the instruction was not analysed."""
    mnemonic: str
    kind: str = None
    steps: list = dc_field(default_factory=list)
    predicate: list = dc_field(default_factory=list)  # Accesses the masks are read from
    overlaps: list = dc_field(default_factory=list)
    why: str = None
    swizzle_overlap: list = dc_field(default_factory=list)  # registers (seed 001)
    reach: list = dc_field(default_factory=list)  # every register a destination
    #                                               element 0..VL-1 could write

    @property
    def registers(self):
        """Every register touched, in file order then number."""
        regs = {(a.file, a.reg) for st in self.steps for a in st.reads + st.writes}
        order = {"r": 0, "f": 1, "cr": 2}
        return [f"{f}{n}" for f, n in sorted(regs, key=lambda x: (order[x[0]], x[1]))]

    def as_dict(self):
        return {"mnemonic": self.mnemonic, "kind": self.kind, "why": self.why,
                "predicate": [a.as_dict() for a in self.predicate],
                "steps": [s.as_dict() for s in self.steps],
                "overlaps": [o.as_dict() for o in self.overlaps],
                "swizzle_overlap": list(self.swizzle_overlap)}


def _elem(file, base, k, width, field):
    bit = k * width
    reg = (base + bit // 64) & 127
    return Access(file, reg, bit % 64, bit % 64 + width - 1, field, k)


def _operand_access(o, k, width):
    if o.cls == "crf":
        return Access("cr", (o.base + k) & 127, 0, 3, o.field, k)
    if o.cls == "crb":
        bit = o.base + 4 * k
        return Access("cr", (bit // 4) & 127, 3 - bit % 4, 3 - bit % 4, o.field, k)
    return _elem(_FILES[o.cls], o.base, k, width, o.field)


def predicate_accesses(mmode, code, vl, cr_offset):
    """Where a predicate mask (MASK / MASK_SRC value) is read from."""
    if not mmode:
        if code == 0:
            return []
        reg = (3, 3, 3, 10, 10, 30, 30)[code - 1]
        return [Access("r", reg, 0, 63, "mask", 0)]
    bit = 3 - (code >> 1)
    return [Access("cr", (cr_offset + i) & 127, bit, bit, "mask", i) for i in range(vl)]


def analyse(isa, state, prefix, suffix, pc):
    """The :class:`Dependencies` of the SVP64 instruction (``prefix``,
    ``suffix``) at ``pc`` run horizontal-first from machine ``state``."""
    from ..svp64.engine import _record
    from ..svp64.asm import is_branch
    d = isa.decode(suffix)
    name = f"sv.{d.mnemonic}" if d is not None else "?"
    deps = Dependencies(name)
    sv = state.svstate
    vl = SV.get(sv, "vl")
    if d is None:
        deps.why = "suffix does not decode"
        return deps
    if is_branch(isa, d.spec):
        deps.why = "SVP64 branches are not analysed"
        return deps
    cat = isa.categories.get(d.spec.sv) if d.spec.sv else None
    if cat is not None and cat.execute is not None:
        if cat.name == SWIZZLE_CATEGORY:
            return _swizzle(isa, state, prefix, suffix, d, deps, vl)
        deps.why = f"the {cat.name} category executor is not analysed"
        return deps
    try:
        rec = _record(isa, prefix, suffix)
    except Trap as t:
        deps.why = f"does not decode: {t.reason}"
        return deps
    try:
        return _generic(isa, state, rec, sv, vl, pc, deps)
    except Trap as t:  # e.g. a REMAP schedule shorter than VL: the runs trap too
        deps.steps, deps.overlaps, deps.why = [], [], f"not analysable: {t.reason}"
        return deps


def _generic(isa, state, rec, sv, vl, pc, deps):
    from ..svp64.executor import remap_index_map, sub_tables
    from ..svp64 import remap_profile
    deps.kind = "svp64"
    r = rec.rm
    subvl = r.subvl
    profile = isa.profile
    offset = profile.cr_pred_offset
    smask = dmask = ALL
    if r.predicated:
        dmask = pred_mask(state, r.mmode, r.mask, vl, offset)
        smask = dmask if r.ptype == 1 else pred_mask(state, r.mmode, r.smask, vl, offset)
        deps.predicate = predicate_accesses(r.mmode, r.mask, vl, offset)
        if r.ptype == 2:
            deps.predicate += [a for a in predicate_accesses(r.mmode, r.smask, vl, offset)
                               if a not in deps.predicate]
        if r.rg and profile.reverse_gear_mask == "element":
            smask, dmask = reverse_mask(smask, vl), reverse_mask(dmask, vl)
    sz, dz, sskip, dskip = zeroing(r, profile)
    pack = subvl > 1 and (sv >> SV.SH_PACK) & 1
    unpack = subvl > 1 and (sv >> SV.SH_UNPACK) & 1
    tables = None
    if SV.remap_active(state, sv, pc):
        imap = remap_index_map(state, sv)
        if not imap.identity:
            rec.assign_slots()
            tables = remap_profile.for_profile(sub_tables(imap.tables(vl), subvl), profile,
                                               sv, vl * subvl, r.rg)
    if rec.maxvl_ops:
        rec.place_maxvl(SV.get(sv, "maxvl"), tables or ())
    src, ssub = settle(smask, 0, 0, vl, subvl, sskip, pack)
    dst, dsub = settle(dmask, 0, 0, vl, subvl, dskip, unpack)
    # CR-field operands as the executor places them (profile switches
    # cr_field_steps, cr_field_subvl)
    from_start = (profile.cr_field_steps == "start" and rec.cr_field_ops
                  and (src, ssub, dst, dsub) != (0, 0, 0, 0))
    while src < vl and dst < vl:
        si = vl - 1 - src if r.rg else src
        di = vl - 1 - dst if r.rg else dst
        ks, kd = si * subvl + ssub, di * subvl + dsub
        if r.rg and profile.reverse_subvl == "reversed":
            ks, kd = si * subvl + subvl - 1 - ssub, di * subvl + subvl - 1 - dsub
        cks, ckd = (si, di) if rec.cr_field_by_step else (ks, kd)
        if r.rg and profile.reverse_cr_fields == "step":
            # (not reversed: profile reverse_cr_fields)
            cks, ckd = (src, dst) if rec.cr_field_by_step else \
                (src * subvl + ssub, dst * subvl + dsub)
        if from_start and not deps.steps:  # the first element: step 0's fields
            cks = ckd = (vl - 1) * (1 if rec.cr_field_by_step else subvl) \
                if r.rg and profile.reverse_cr_fields == "element" else 0
        szero, dzero = not (smask >> src) & 1, not (dmask >> dst) & 1
        step = Step(len(deps.steps), src, dst, ssub, dsub, zeroed=dzero)
        for o in rec.ops:
            wide = (o.cls == "gpr" or rec.fp_elw) and o.field != rec.addr_field
            # (a zeroed element reads its sources when its page runs:
            # profile dest_zeroed_page "run")
            if o.src and (not dzero or rec.zeroed_page_runs) and not (
                    szero and o.cls == "gpr" and o.field != rec.addr_field):
                # (a load/store's address register is read at 64 bits, never zeroed)
                cr = o.cls in ("crf", "crb")
                k = element_index(o, cks if cr else ks, ckd if cr else kd, tables,
                                  False) if o.vec else 0
                step.reads.append(_operand_access(o, k, r.ews if wide else 64))
            if o.dst:
                cr = o.cls in ("crf", "crb")
                k = element_index(o, cks if cr else ks, ckd if cr else kd, tables,
                                  True) if o.vec else 0
                step.writes.append(_operand_access(o, k, r.ew if wide else 64))
        if rec.rc and not dzero:
            if tables and "out" in tables:
                kcr = slot_index(tables, "out", ks, kd)
            else:
                kcr = dst if rec.cr_by_step else kd // rec.cr_step_div
            f = rec.crbase + kcr if rec.crvec else rec.crbase
            step.writes.append(Access("cr", f & 127, 0, 3, f"CR{rec.crbase}", kcr))
        deps.steps.append(step)
        src, ssub = settle(smask, *step_on(src, ssub, vl, subvl, pack), vl, subvl, sskip, pack)
        dst, dsub = settle(dmask, *step_on(dst, dsub, vl, subvl, unpack), vl, subvl, dskip,
                           unpack)
        if rec.scalar_dest and (not dzero or rec.scalar_dest_zeroed_ends):
            break
    deps.overlaps = overlaps(deps.steps, deps.predicate, vl)
    deps.reach = _reach(rec, vl, tables, [a.name for st in deps.steps for a in st.writes])
    return deps


def _reach(rec, vl, tables, written):
    """The registers destination elements 0..VL*SUBVL-1 occupy, whatever the
    predicate (a VF loop reading a changed predicate may write any of them)."""
    r = rec.rm
    names = set(written)
    for k in range(vl * r.subvl):
        for o in rec.dstops:
            wide = o.cls == "gpr" or rec.fp_elw
            e = element_index(o, k, k, tables, True) if o.vec else 0
            names.add(_operand_access(o, e, r.ew if wide else 64).name)
        if rec.rc:
            f = rec.crbase + k if rec.crvec else rec.crbase
            names.add(f"cr{f & 127}")
    return sorted(names)


def _swizzle(isa, state, prefix, suffix, d, deps, vl):
    from ..ext.swizzle.sv import SvSwizzle, offsets
    deps.kind = "swizzle"

    class _NoSim:  # the executor's constructor reads only sim.isa
        pass
    sim = _NoSim()
    sim.isa = isa
    try:
        x = SvSwizzle(sim, prefix, suffix, d.spec, d.fields)
    except Trap as t:
        deps.why = f"does not decode: {t.reason}"
        return deps
    file = "f" if x.floating else "r"
    src_name, dst_name = ("FRAp", "FRTp") if x.floating else ("RAp", "RTp")
    for g in range(vl):
        step = Step(g, g, g)
        for e in offsets(g, x.src_n, vl, x.src_planar, x.ra_vec):
            step.reads.append(_elem(file, x.ra, e, x.ews, src_name))
        for e in offsets(g, x.dst_n, vl, x.dst_planar, x.rt_vec):
            step.writes.append(_elem(file, x.rt, e, x.ew, dst_name))
        deps.steps.append(step)
    deps.overlaps = overlaps(deps.steps, [], vl)
    deps.reach = sorted({a.name for st in deps.steps for a in st.writes})
    # seed 001: any source/destination overlap over groups 0..VL-1, the same
    # group included, makes the HF instruction UNDEFINED
    deps.swizzle_overlap = x.overlap(vl) if vl else []
    return deps


def overlaps(steps, predicate, vl):
    """Every RAW / WAR / WAW pair between different element steps (earlier in
    HF order first), and every write to a predicate register by a step before
    the last element (a VF loop reads the predicate again at each step)."""
    out = []
    for i, a in enumerate(steps):
        for b in steps[i + 1:]:
            for w in a.writes:
                for x in b.reads:
                    if w.meets(x):
                        out.append(Overlap("RAW", a.index, b.index, w, x))
                for x in b.writes:
                    if w.meets(x):
                        out.append(Overlap("WAW", a.index, b.index, w, x))
            for x in a.reads:
                for w in b.writes:
                    if x.meets(w):
                        out.append(Overlap("WAR", a.index, b.index, x, w))
    for st in steps:
        if max(st.srcstep, st.dststep) >= vl - 1:
            continue
        for w in st.writes:
            for p in predicate:
                if w.meets(p):
                    out.append(Overlap("PRED", st.index, st.index + 1, w, p))
    return out
