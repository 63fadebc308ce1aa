"""Record builders: the register operands (EXTRA) and the Rc=1 CR field.

Each builder takes the :class:`~.record.SVRecord` being built and sets the
attributes it decides (see record.py's module docstring for the whole)."""
from ..errors import Trap
from .extra import parse_slots, etype, slot_spec, EXTENDERS


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


def decode_operands(rec):
    """``rec.ops``: one :class:`Op` per register parameter of the page, its
    number extended by its EXTRA slot (scalar or vector); ``rec.et`` the
    EXTRA type.  Returns {field: [(slot, "s"/"d")]}, where each field's
    EXTRA slots are."""
    isa, row, r, c, cat = rec.isa, rec.row, rec.rm, rec.c, rec.cat
    fields = rec.d.fields
    regclass = isa.forms.regclass
    slots = parse_slots(row.extra)
    et = rec.et = (cat.etype or etype(slots, cat.ptype))
    where = {}
    for i, s in enumerate(slots):
        for dd, name in s:
            where.setdefault(name, []).append((i, dd))
    ins = set(row.ins)
    if "RA0" in ins:
        ins.add("RA")
    outs = set(row.outs)
    rec.ops = []
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
        rec.ops.append(Op(name, cls, n, vec, src, dst, c.params.index(name),
                           name == "RA" and "RA0" in row.ins))
    implicit_operands(rec)
    if rec.follows_source and et == 2 and r.extra & 1:
        # svfixedarith.mdwn: "bit 8 of EXTRA is set: RS=RT+MAXVL"; libre-soc's
        # decoder ignores the bit (docs/compat.md): neither reading is taken
        raise Trap(f"{rec.mnemonic}: EXTRA bit 8 set (RS=RT+MAXVL in "
                   "svfixedarith.mdwn) is not implemented", "illegal")
    return where


def implicit_operands(rec):
    """Implicit operands follow their base field (FRS: FRT's vector, MAXVL
    further on; FRT+1 when FRT is scalar); ``FRB+MAXVL`` sources of a
    vector start MAXVL further on.  Their MAXVL-relative bases are placed
    per run (:meth:`~.record.SVRecord.place_maxvl`)."""
    row = rec.row
    byname = {o.field: o for o in rec.ops}
    for o in rec.ops:
        base = byname.get(row.implicit.get(o.field))
        if base is not None:
            o.implicit, o.vec = True, base.vec
            o.base = base.base if base.vec else \
                base.base + row.implicit_scalar_offset[o.field]
            o.maxvl = base.vec
        elif o.field in row.maxvl_sources and o.vec:
            o.maxvl = True
    rec.maxvl_ops = [o for o in rec.ops if o.maxvl]
    # implicit results that follow a source (bigint RS=RC+MAXVL:0): no
    # source says where REMAP puts them (openpower-isa's decoder moves
    # them by RC's schedule without the MAXVL offset)
    rec.follows_source = [(o, row.implicit[o.field]) for o in rec.ops
                           if o.implicit and not byname[row.implicit[o.field]].dst]


def rc_field(rec, where):
    """The Rc=1 CR field (CR0 / CR1) of each element: ``rec.crbase``,
    ``crvec``, ``cr_step_div`` and ``cr_by_step``."""
    isa, row, r = rec.isa, rec.row, rec.rm
    et = rec.et
    # the Rc=1 CR field (CR0 / CR1), extended by its slot like a 3-bit field;
    # element k (sub-elements counted) writes field crbase + k // cr_step_div
    rec.crbase, rec.crvec = 0, False
    rec.cr_step_div = 1
    rec.cr_by_step = False
    if row.rc in ("CR0", "CR1"):
        b = 0 if row.rc == "CR0" else 1
        if row.rc in where:
            spec = slot_spec(r.extra, where[row.rc][0][0], et)
            rec.crbase, rec.crvec = EXTENDERS["crf"](b, spec, et)
            if isa.profile.vector_rc_field == "cr0":
                # openpower-isa: CR0 (CR1) + element, the slot's bits unused,
                # each sub-element overwriting its element's field
                rec.crbase = b
                rec.cr_step_div = r.subvl
                rec.cr_by_step = True
        else:
            rec.crbase = b
