"""Vector-scope instructions: pseudocode that sees the whole SVP64 vector at once.

An ordinary SVP64 instruction runs its page once per element.  A *vector-scope*
instruction (table ``sv`` column in the ``VSRM`` family, ``VSRM-1P-3S1D``...) runs its page once for the whole
vector, the way a GPU cross-lane operation sees a whole warp: lane ``i`` is
element ``i`` of the current VL, the active lanes are the predicate mask, the warp
size is VL (at most 64).  Without a prefix the instruction is a one-lane warp
whose operands are all scalar.

The page reaches the vector through these names and functions (installed in the
pseudocode library, so any future page can use them):

    VL                 number of lanes (unsized integer)
    ACTIVE             64-bit mask of active lanes (lane i = value 2**i, MSB0 bit 63-i)
    LANE_ACTIVE(i)     1 when lane i exists and is active
    SUBVL              sub-vector length (1..4): each lane holds SUBVL components
    LANE(X, j)         lane j of register operand X: element j of a vector operand
                       (at its element width, zero-extended to 64 bits), the register
                       itself for a scalar operand.  Only with SUBVL=1: a page that
                       does not say what its components mean traps under /vecN
    LANE(X, j, k)      component k of lane j: element SUBVL*j+k of a vector operand,
                       the register itself for a scalar source (as in the element
                       loop, a scalar does not step); a scalar destination traps
                       under SUBVL>1 (it cannot hold the components)
    GROUP(X, n, i, k)  sub-element k of lane i's n-element group: element n*i+k of a
                       vector operand, element k of a scalar one
    LANE(X, i[, k]) <- v  lane i's (component k's) result; a write to an inactive lane of a vector
                       operand is dropped (predication), a scalar operand keeps the
                       first value written to it
    GROUP(...) with SUBVL>1 traps (a group is not a sub-vector)
    TRAP_AT_LANE(i, "why")  stop with a trap at lane i; state written for earlier
                       lanes (memory) stays, register results are discarded

The engine honours EXTRA vector/scalar tags, register extension to r0..r127,
ELWIDTH / ELWIDTH_SRC on GPR operands, the predicate (MASK, MASKMODE) and
zeroing: ``dz`` zeroes inactive lanes (all their components) of vector destinations, ``sz`` makes an
inactive lane read as 0.  Register results are buffered and written when the page
ends: every read sees the registers as they were when the instruction started, and
a trap leaves them untouched.

Reading a vector operand in an inactive lane reads 0 with ``sz``; without it the
value is UNDEFINED: a strict simulator stops with an ``inactive-lane-read``
diagnostic, a permissive one records the diagnostic and reads that lane's current
register contents.
"""
from ...diagnostics import report
from ...errors import Trap
from ...svp64 import rm as rmmod, svstate as SV
from ...svp64.extra import parse_slots, etype, slot_spec, ext_reg
from ...svp64.dispatch import install_dispatch
from ...svp64.elements import read_elem, write_elem
from ...svp64.predication import mask as predicate_mask
from ...svp64 import regfile_end
from .identity import identity as gpu_identity
from .sc_immediate import FORM as SC_IMMEDIATE

# RM category families, single-predicated (the predicate is the active-lane mask);
# VSLDSTRM for the rows that access memory
FAMILIES = ("VSRM", "VSLDSTRM")


MAX_LANES = 64


def is_vector_scope(row):
    return _vector_scope_category(row.sv)


def _vector_scope_category(sv):
    return sv.split("-", 1)[0] in FAMILIES


class LaneFault(Trap):
    """TRAP_AT_LANE: a trap part-way through the lanes."""

    def __init__(self, reason, lane):
        self.lane = lane
        super().__init__(reason, "trap")


class Operand:
    __slots__ = ("field", "cls", "base", "vec", "width", "dest")

    def __init__(self, field, cls, base, vec, width, dest):
        self.field, self.cls, self.base = field, cls, base
        self.vec, self.width, self.dest = vec, width, dest


class Scope:
    """What the page functions see while one vector-scope instruction runs."""

    def __init__(self, sim, state, pc, name, vl, active, operands, source_zeroing,
                 subvl=1, header_index=None, rm_immediate=None):
        self.sim, self.state, self.pc, self.name = sim, state, pc, name
        # the immediate an RM-immediate form carries in its prefix (SHFL's Sc,
        # docs/errata.md 003-2), None in every other form
        self.rm_immediate = rm_immediate
        self.vl, self.active, self.subvl = vl, active, subvl
        # the immediate of SURED's header-index form (isa_ext/ext/gpu/header_index.py)
        self.header_index = header_index
        self.operands = operands
        self.source_zeroing = source_zeroing
        self.pending = {}  # (field, lane or 0) -> value
        self.spans_checked = set()  # (field, n) of GROUP reads checked (regfile_end)

    def _operand(self, field):
        op = self.operands.get(field)
        if op is None:
            raise Trap(f"{self.name}: {field} is not a register operand of this "
                       f"instruction", "illegal")
        return op

    def _regs(self, op):
        return self.state.gpr if op.cls == "gpr" else self.state.fpr

    def is_active(self, lane):
        return int(0 <= lane < self.vl and (self.active >> lane) & 1)

    def _component(self, k):
        """The component number a LANE access names: LANE(X, i) is component 0
        and only exists without sub-vectors, so that a page written for one value
        per lane cannot silently drop the other components."""
        if k is None:
            if self.subvl != 1:
                raise Trap(f"{self.name}: SUBVL={self.subvl} is not defined for this "
                           f"instruction (its page reads one value per lane)", "illegal")
            return 0
        if not 0 <= k < self.subvl:
            raise Trap(f"{self.name}: component {k} outside the sub-vector "
                       f"(SUBVL={self.subvl})", "illegal")
        return k

    def read(self, field, lane, k=None):
        op = self._operand(field)
        k = self._component(k)
        if not op.vec:
            return read_elem(self._regs(op), op.base, 0, op.width)
        return self._element(op, lane, lane * self.subvl + k)

    def group(self, field, n, lane, k):
        if self.subvl != 1:
            raise Trap(f"{self.name}: SUBVL={self.subvl} is not defined for this "
                       f"instruction (its lanes read groups of elements)", "illegal")
        op = self._operand(field)
        if not 0 <= k < n:
            # lane i has no k-th of n: 0, without reading (surface.mdwn reads
            # c1 and c2 whatever the dimension; they are used only when n > k)
            return 0
        if (field, n) not in self.spans_checked:
            # the whole span, at the page's first GROUP read of it (before any
            # lane's effects): VL groups of n elements, one group if scalar
            self.spans_checked.add((field, n))
            regfile_end.check(regfile_end.vector_past_end(
                self.name, field, op.cls, op.base, n * self.vl if op.vec else n, op.width,
                what="vector operand" if op.vec else "scalar operand group"))
        if not op.vec:
            return read_elem(self._regs(op), op.base, k, op.width)
        return self._element(op, lane, n * lane + k)

    def _element(self, op, lane, element):
        if not 0 <= lane < self.vl:
            raise Trap(f"{self.name}: lane {lane} outside the vector (VL={self.vl})",
                       "illegal")
        if not (self.active >> lane) & 1:
            if self.source_zeroing:  # sz defines an inactive lane's value: zero
                return 0
            report(self.sim, "inactive-lane-read", self.pc,
                   f"{self.name}: reads {op.field} of inactive lane {lane} (UNDEFINED)",
                   instruction=self.name, lane=lane, operand=op.field)
        return read_elem(self._regs(op), op.base, element, op.width)

    def write(self, field, lane, value, k=None):
        op = self._operand(field)
        k = self._component(k)
        if op.vec:
            if not self.is_active(lane):
                return
            self.pending[(field, lane * self.subvl + k)] = value
        elif self.subvl != 1:
            raise Trap(f"{self.name}: a scalar {field} cannot hold a SUBVL={self.subvl} "
                       f"result (make it a vector)", "illegal")
        else:
            self.pending.setdefault((field, 0), value)

    def commit(self, zero_inactive):
        for (field, element), value in self.pending.items():
            op = self.operands[field]
            write_elem(self._regs(op), op.base, element, op.width,
                       value & ((1 << op.width) - 1))
        if zero_inactive:
            for op in self.operands.values():
                if op.dest and op.vec:
                    for lane in range(self.vl):
                        if not (self.active >> lane) & 1:
                            for k in range(self.subvl):
                                write_elem(self._regs(op), op.base, lane * self.subvl + k,
                                           op.width, 0)
        self.pending = {}


def current_scope(s):
    scope = getattr(s, "vector_scope", None)
    if scope is None:
        raise Trap("a vector-scope page function ran outside a vector-scope instruction",
                   "illegal")
    return scope


# --- page functions -----------------------------------------------------------------

def _field_name(comp, v, fn):
    if not v.code.startswith("f_"):
        raise TypeError(f"{fn}() takes a register operand field as first argument")
    name = v.code[2:]
    if comp.regclass_of(name) not in ("gpr", "fpr"):
        raise TypeError(f"{fn}(): {name} is not a GPR/FPR field")
    return name


def _install_page_functions(reg):
    from ...pseudocode.compiler import Val
    reg.runtime("_vs", current_scope)
    reg.runtime("_LaneFault", LaneFault)
    reg.name("VL", lambda comp: Val("_vs(s).vl", None))
    reg.name("SUBVL", lambda comp: Val("_vs(s).subvl", None))
    reg.name("ACTIVE", lambda comp: Val("_vs(s).active", 64))
    reg.intrinsic("LANE_ACTIVE", lambda comp, i: Val(f"_vs(s).is_active({i.code})", 1))
    # the warp's place on the GPU (seed 002; isa_ext/ext/gpu/identity.py)
    reg.runtime("_gpu", gpu_identity)
    reg.name("WARP_ID", lambda comp: Val("_gpu(s).warp_id", None))
    reg.name("SM_ID", lambda comp: Val("_gpu(s).sm_id", None))
    reg.name("WARPS_PER_SM", lambda comp: Val("_gpu(s).warps_per_sm", None))
    reg.name("SM_COUNT", lambda comp: Val("_gpu(s).sm_count", None))
    reg.intrinsic("HELPER_LANE", lambda comp, i: Val(f"_gpu(s).helper({i.code})", 1))
    # SURED's header-index form (seed 004 #tsPtrIdxU13): whether the instruction
    # is that form, its immediate, and the machine's constant bank / header pool
    reg.name("HEADER_INDEXED", lambda comp: Val("int(_vs(s).header_index is not None)", 1))
    reg.name("HEADER_INDEX", lambda comp: Val("(_vs(s).header_index or 0)", None))
    reg.name("CONST_BANK", lambda comp: Val("_gpu(s).const_bank", 64))
    reg.name("HEADER_POOL", lambda comp: Val("_gpu(s).header_pool", 64))
    reg.intrinsic("HEADER_VALID", lambda comp, p: Val(f"_gpu(s).header_valid({p.code})", 1))
    # SHFL's Sc-immediate form (seed 003's 13-bit Sc, docs/errata.md 003-2):
    # whether the instruction is that form, and the Sc its prefix carries
    reg.name("SC_IMMEDIATE_FORM", lambda comp: Val("int(_vs(s).rm_immediate is not None)", 1))
    reg.name("SC_IMMEDIATE", lambda comp: Val("(_vs(s).rm_immediate or 0)", 64))

    def lane(comp, x, j, k=None):
        component = "" if k is None else f", {k.code}"
        return Val(f"_vs(s).read({_field_name(comp, x, 'LANE')!r}, {j.code}{component})",
                   64)

    def group(comp, x, n, i, k):
        return Val(f"_vs(s).group({_field_name(comp, x, 'GROUP')!r}, {n.code}, {i.code}, "
                   f"{k.code})", 64)

    def set_lane(comp, args, v):
        if len(args) not in (2, 3):
            raise TypeError("LANE(X, i[, k]) <- v takes two or three arguments")
        component = "" if len(args) == 2 else f", {args[2].code}"
        return f"_vs(s).write({_field_name(comp, args[0], 'LANE')!r}, {args[1].code}, " \
               f"{comp.fit(v, 64)}{component})"

    def trap_at_lane(comp, i, reason):
        msg = reason.code if reason.code.startswith(("'", '"')) else repr(reason.code)
        return Val(f"raise _LaneFault({msg}, {i.code})", None)

    reg.intrinsic("LANE", lane)
    reg.intrinsic("GROUP", group)
    reg.setter("LANE", set_lane)
    reg.intrinsic("TRAP_AT_LANE", trap_at_lane)


# --- the engine -------------------------------------------------------------------

class VectorScopeInsn:
    """One decoded vector-scope instruction (prefixed or not); ``__call__(s, CIA)``."""

    def __init__(self, isa, sim, row, fields, prefix=None, header_index=None):
        """``header_index``: SURED's header-index form, a one-lane warp whose
        8-byte instruction (isa_ext/ext/gpu/header_index.py) gives the immediate."""
        self.isa, self.sim, self.row = isa, sim, row
        self.prefixed = prefix is not None
        self.header_index = header_index
        self.name = ("sv." if self.prefixed else "") + row.mnemonic_for(
            {k: fields[k] for k in row.suffix})
        self.c = c = isa.compiled(row)
        regclass = isa.forms.regclass
        syntax_fields = set(row.fields_used)
        outs = set(row.outs)
        self.rm = None
        self.rm_immediate = imm_form = None
        ew = ews = 64
        if self.prefixed:
            r = self.rm = rmmod.RM(rmmod.rm_of(prefix), 1)
            cat = isa.categories.get(row.sv)
            imm_form = cat.immediate_form(row, fields) if cat is not None else None
            if imm_form is not None:
                # EXTRA and MODE hold the immediate: normal mode, no zeroing
                self.rm_immediate = imm_form.value(r.rm)
            else:
                rmmod.decode_mode(r, "normal", 0, False)
            if r.mode != "normal":
                raise Trap(f"{self.name}: only the normal mode (with dz/sz zeroing) applies "
                           f"to a vector-scope instruction", "illegal")
            ew, ews = r.ew, r.ews
            slots = parse_slots(row.extra)
            et = etype(slots, 1)
            where = {}
            for i, slot in enumerate(slots):
                for _d, name in slot:
                    where.setdefault(name, i)
        self.operands = {}
        for name in c.params:
            cls = regclass.get(name)
            if cls not in ("gpr", "fpr") or name not in syntax_fields:
                continue
            base, vec = fields[name], False
            if self.prefixed and name in where:
                spec = imm_form.spec(row, name) if imm_form is not None else \
                    slot_spec(self.rm.extra, where[name], et)
                base, vec = ext_reg(fields[name], spec, et)
            dest = name in outs
            width = (ew if dest else ews) if cls == "gpr" else 64
            if cls == "fpr" and self.prefixed and (ew != 64 or ews != 64):
                raise Trap(f"{self.name}: element-width overrides on FP registers are not "
                           f"implemented", "illegal")
            self.operands[name] = Operand(name, cls, base, vec, width, dest)
        self.args = [self.operands[p].base if p in self.operands else fields[p]
                     for p in c.params]

    def __call__(self, s, CIA):
        if self.prefixed:
            sv = s.svstate
            vl = SV.get(sv, "vl")
            if SV.get(sv, "vfirst"):
                raise Trap(f"{self.name}: a vector-scope instruction runs horizontal-first "
                           f"only", "illegal")
            if vl > MAX_LANES:
                raise Trap(f"{self.name}: VL={vl} exceeds the warp size limit of "
                           f"{MAX_LANES} lanes", "illegal")
            for op in self.operands.values():
                if op.vec:  # every lane's (sub-)elements exist (regfile_end.py)
                    regfile_end.check(regfile_end.vector_past_end(
                        self.name, op.field, op.cls, op.base, vl * self.rm.subvl, op.width))
            r = self.rm
            active = predicate_mask(s, r.mmode, r.mask, vl,
                                    self.isa.profile.cr_pred_offset) & ((1 << vl) - 1)
            zero_dest, zero_src, subvl = r.dz, r.sz, r.subvl
            length = 8
        else:
            vl, active, zero_dest, zero_src, subvl = 1, 1, 0, 0, 1
            length = 4 if self.header_index is None else 8
        if vl == 0:
            return CIA + length
        scope = Scope(self.sim, s, CIA, self.name, vl, active, self.operands, zero_src,
                      subvl, self.header_index, self.rm_immediate)
        previous = getattr(s, "vector_scope", None)
        s.vector_scope = scope
        try:
            self.c.sem(s, CIA, *self.args)
        except LaneFault as fault:
            if self.prefixed:
                s.svstate = SV.with_steps(s.svstate, fault.lane, fault.lane)
            raise Trap(f"{self.name}: lane {fault.lane}: {fault.reason} (lanes before it "
                       f"applied)", "trap") from None
        finally:
            s.vector_scope = previous
        scope.commit(zero_dest)
        if self.sim is not None:
            self.sim.element_ops += vl * subvl
        if self.prefixed:
            s.svstate = SV.with_steps(s.svstate, 0, 0)
        return CIA + length


def _execute(sim, prefix, suffix, row, fields):
    """RM-category executor (rm.register_category): a prefixed vector-scope row."""
    return VectorScopeInsn(sim.isa, sim, row, fields, prefix)


def install(reg):
    """Register the page functions and the vector-scope categories, whose executor
    the SVP64 prefix dispatch calls; unprefixed rows run as one-lane warps."""
    isa = reg.isa
    _install_page_functions(reg)
    for sv in isa.sv_names():   # (not isa.rows: that would make every row)
        if _vector_scope_category(sv):
            reg.category(rmmod.Category(sv, 1, execute=_execute,
                                        rm_immediate=SC_IMMEDIATE))
    install_dispatch(reg)

    def one_lane(d):
        if is_vector_scope(d.spec):
            return VectorScopeInsn(isa, None, d.spec, d.fields)
        return None
    reg.row_executor(one_lane)
