"""sv.mv.swiz / sv.fmv.swiz: the MVRM-2P-2S1D RM category (seed 001).

The semantics of one element group are the ``sv.*`` pages of
``pseudocode/swizzle/svswizzle.mdwn``.  This module only walks the groups: it
decodes RM with the SVP64 primitives (``isa_ext.svp64``), twin-predicates groups
(MASK on destination groups, MASK_SRC on source groups), lays groups out
interleaved or planar (pack/unpack, docs/swizzle.md), runs the page per group with
element access supplied through the page functions SRC_SUB / DST_SUB, and commits
each group's writes together.

* Horizontal-first: any overlap of source and destination elements over groups
  0..VL-1 is UNDEFINED; strict simulators stop with an ``hf-overlap`` diagnostic,
  permissive ones record it and run in group order.
* Vertical-first (SVSTATE.vfirst): one execution handles the group at
  srcstep/dststep; sources are read before destinations are written.
* Atomicity: an injected element-level interrupt (``Simulator.interrupt_after``) is
  only taken between groups; SVSTATE's steps record the progress so that
  re-executing the instruction resumes.
"""
from ...diagnostics import report
from ...errors import Trap
from ...pseudocode.compiler import PageCompiler, Val, build, parse, CompileError
from ...errors import SpecError
from ...svp64 import rm as rmmod, extra as extramod, predication, svstate
from ...svp64.dispatch import install_dispatch
from ...svp64 import regfile_end

CATEGORY = "MVRM-2P-2S1D"
M64 = (1 << 64) - 1
# destination ELWIDTH code -> (bits, IEEE-style 1.0) for sv.fmv.swiz; 0b11 is bf16
FP_ELWIDTH = {0: (64, 0x3FF0_0000_0000_0000), 1: (32, 0x3F80_0000), 2: (16, 0x3C00),
              3: (16, 0x3F80)}
INT_ELWIDTH = {0: 64, 1: 32, 2: 16, 3: 8}


# --- page functions ------------------------------------------------------------

def _gen(code, width):
    return lambda comp, *args: Val(code.format(*[a.code for a in args]), width)


def _install_page_functions(reg):
    reg.intrinsic("SRC_SUB", _gen("f__grp.src({})", 64))
    reg.intrinsic("DST_SUB", _gen("f__grp.dst({})", 64))
    reg.setter("DST_SUB", lambda comp, args, v:
               f"f__grp.set_dst({args[0].code}, {comp.fit(v, 64)})")
    if "SVP64_GROUP_PAGE" not in reg.library.constants:
        reg.constant("SVP64_GROUP_PAGE", 1, 1)


_GROUP_NAMES = {"SRC_N": ("f__grp.src_n", None), "DST_N": ("f__grp.dst_n", None),
                "IN_PLACE": ("f__grp.in_place", 1), "FP_ONE": ("f__grp.fp_one", 64)}


class _GroupPageCompiler(PageCompiler):
    """A page compiler that also knows the group names the engine supplies."""

    def x_name(self, node):
        name = str(node.children[0])
        if name in _GROUP_NAMES and name not in self.vars:
            self.fields_used.add("_grp")
            code, width = _GROUP_NAMES[name]
            return Val(code, width)
        return super().x_name(node)


def compile_group_page(isa, row):
    page = isa.pages.get("sv." + row.mnemonic)
    if page is None:
        raise SpecError(f"{row.mnemonic} has no 'sv.{row.mnemonic}' group page", row.where)
    tree = parse(page.code, page.filename, page.code_line)
    pc = _GroupPageCompiler(row.form, isa.forms.regclass, name="sv_" + row.mnemonic.replace(".", "_"),
                            where_file=page.filename, first_line=page.code_line,
                            extra_params=("_grp",), library=isa.library)
    try:
        params = pc.compile(tree)
    except CompileError as e:
        raise SpecError(f"pseudocode error in sv.{row.mnemonic}: {e}", page.where) from None
    return build(pc, params, page)


# --- element access ------------------------------------------------------------

def read_element(regs, base, index, width):
    """Element ``index`` of ``width`` bits of the vector starting at register ``base``:
    elements are packed from the least significant end of each 64-bit register."""
    bit = index * width
    reg = base + bit // 64
    return (regs[reg] >> (bit % 64)) & ((1 << width) - 1)


def element_bytes(base, index, width):
    """(register, first byte, last byte) of an element, for overlap checks."""
    bit = index * width
    reg = base + bit // 64
    first = (bit % 64) // 8
    return reg, first, first + width // 8 - 1


class Group:
    """What the group page sees: one source group and one destination group."""
    __slots__ = ("regs", "src_n", "dst_n", "in_place", "fp_one", "src_offsets",
                 "dst_offsets", "src_base", "dst_base", "ews", "ew", "src_zero", "writes")

    def __init__(self, regs, src_n, dst_n, in_place, fp_one, ews, ew):
        self.regs, self.src_n, self.dst_n = regs, src_n, dst_n
        self.in_place, self.fp_one, self.ews, self.ew = in_place, fp_one, ews, ew
        self.writes = {}

    def src(self, k):
        if k >= self.src_n or self.src_zero:
            return 0
        return read_element(self.regs, self.src_base, self.src_offsets[k], self.ews)

    def dst(self, i):
        return read_element(self.regs, self.dst_base, self.dst_offsets[i], self.ew)

    def set_dst(self, i, value):
        self.writes[i] = value & ((1 << self.ew) - 1)

    def commit(self):
        for i, v in self.writes.items():
            bit = self.dst_offsets[i] * self.ew
            reg = self.dst_base + bit // 64
            sh = bit % 64
            m = ((1 << self.ew) - 1) << sh
            self.regs[reg] = (self.regs[reg] & ~m & M64) | (v << sh)
        self.writes = {}


# --- the group walk ------------------------------------------------------------

def offsets(group, n, vl, planar, vector):
    """Element offsets of sub-elements 0..n-1 of ``group``: interleaved g*n + k,
    planar k*VL + g; a scalar operand is always its first group."""
    if not vector:
        group = 0
    if planar:
        return [k * vl + group for k in range(n)]
    return [group * n + k for k in range(n)]


class SvSwizzle:
    """One decoded sv.mv.swiz / sv.fmv.swiz; ``__call__(state, CIA)`` runs it."""

    def __init__(self, sim, prefix, suffix, row, fields):
        isa = sim.isa
        self.sim, self.prefix, self.suffix, self.row = sim, prefix, suffix, row
        self.name = "sv." + row.mnemonic
        rmv = rmmod.rm_of(prefix)
        r = rmmod.RM(rmv, ptype=2)
        rmmod.decode_mode(r, "normal", 0, False)
        if r.mode != "normal":
            raise Trap(f"{self.name}: only the plain mode (zeroing sz/dz) applies to "
                       f"MVRM-2P-2S1D", "illegal")
        self.r = r
        self.floating = row.mnemonic.startswith("f")
        ewd, ews = rmmod.bits(rmv, 4, 5), rmmod.bits(rmv, 6, 7)
        if self.floating:
            self.ew, self.fp_one = FP_ELWIDTH[ewd]
            self.ews = FP_ELWIDTH[ews][0]
        else:
            self.ew, self.ews, self.fp_one = INT_ELWIDTH[ewd], INT_ELWIDTH[ews], 0
        slots = extramod.parse_slots(row.extra)
        rt_name, ra_name = (("FRTp", "FRAp") if self.floating else ("RTp", "RAp"))
        spec_d = extramod.slot_spec(r.extra, _slot_of(slots, rt_name), 2)
        spec_s = extramod.slot_spec(r.extra, _slot_of(slots, ra_name), 2)
        self.rt, self.rt_vec = extramod.ext_reg(fields[rt_name], spec_d, 2)
        self.ra, self.ra_vec = extramod.ext_reg(fields[ra_name], spec_s, 2)
        self.subvl = r.subvl
        self.src_subvl = rmmod.bits(rmv, 14, 15) + 1
        from . import group_sizes
        self.dst_n, self.src_n = group_sizes(self.subvl, self.src_subvl)
        self.dst_planar = self.subvl == 1 and self.src_subvl > 1
        self.src_planar = self.src_subvl == 1 and self.subvl > 1
        self.in_place = int(self.rt == self.ra and self.ew == self.ews
                            and self.rt_vec == self.ra_vec)
        # illegal selectors are a property of the encoding, not of the data: trap at
        # decode even when predication would execute no group (the group page states
        # the same rules and would raise them at the first group)
        from . import selectors, SEL_RESERVED
        imm_sels = selectors(fields["imm"])
        if SEL_RESERVED in imm_sels:
            raise Trap(f"{self.name}: selector 0b001 is reserved", "illegal")
        if any(sel >> 2 and (sel & 3) >= self.src_n for sel in imm_sels[:self.dst_n]):
            raise Trap(f"{self.name}: selector beyond the source SUBVL", "illegal")
        c = _group_page(isa, row)
        self.sem = c.sem
        self.args = [fields[p] for p in c.params if p != "_grp"]
        self.grp_at = c.params.index("_grp")

    def regs(self, s):
        return s.fpr if self.floating else s.gpr

    def overlap(self, vl):
        """Registers where source and destination elements of groups 0..VL-1 meet."""
        def span(base, vec, n, planar, width):
            out = set()
            for g in range(vl):
                for e in offsets(g, n, vl, planar, vec):
                    reg, a, b = element_bytes(base, e, width)
                    out.update((reg, byte) for byte in range(a, b + 1))
            return out
        src = span(self.ra, self.ra_vec, self.src_n, self.src_planar, self.ews)
        dst = span(self.rt, self.rt_vec, self.dst_n, self.dst_planar, self.ew)
        return sorted({reg for reg, _ in src & dst})

    def _check_file_end(self, vl):
        """Every group's elements exist (regfile_end.py): VL groups of n elements
        (offsets() spans 0..VL*n-1, interleaved or planar), a scalar one group."""
        cls = "fpr" if self.floating else "gpr"
        for field, base, vec, n, width in (("RA", self.ra, self.ra_vec, self.src_n, self.ews),
                                           ("RT", self.rt, self.rt_vec, self.dst_n, self.ew)):
            regfile_end.check(regfile_end.vector_past_end(
                self.name, field, cls, base, (vl if vec else 1) * n, width))

    def __call__(self, s, CIA):
        sv = s.svstate
        vl = svstate.get(sv, "vl")
        vertical = svstate.get(sv, "vfirst")
        srcstep, dststep = svstate.get(sv, "srcstep"), svstate.get(sv, "dststep")
        r = self.r
        regs = self.regs(s)
        if vl:
            self._check_file_end(vl)
        offset = self.sim.isa.profile.cr_pred_offset
        dmask = predication.mask(s, r.mmode, r.mask, vl, offset)
        smask = predication.mask(s, r.mmode, r.smask, vl, offset)
        if vl and not vertical:
            shared = self.overlap(vl)
            if shared:
                report(self.sim, "hf-overlap", CIA,
                       f"{self.name}: source and destination elements overlap in "
                       f"horizontal-first mode (UNDEFINED): "
                       + ", ".join(f"{'f' if self.floating else 'r'}{n}" for n in shared),
                       instruction=self.name, registers=shared)
        sim = self.sim
        while srcstep < vl and dststep < vl:
            if not r.sz:
                while srcstep < vl and not (smask >> srcstep) & 1:
                    srcstep += 1
            if not r.dz:
                while dststep < vl and not (dmask >> dststep) & 1:
                    dststep += 1
            if vertical:
                # the steps moved over masked-out groups are recorded (as the SVP64
                # engine does), so that svstep advances from the group that ran; with
                # no enabled group left they stay at VL and svstep ends the loop
                sv = s.svstate = svstate.with_steps(sv, min(srcstep, vl), min(dststep, vl))
            if srcstep >= vl or dststep >= vl:
                break
            if sim.interrupt_after is not None and sim.element_ops >= sim.interrupt_after:
                # between groups only (one-shot): record progress so that re-running
                # resumes at this group
                s.svstate = svstate.with_steps(sv, srcstep, dststep)
                sim.interrupt_after = None
                from ...svp64.executor import ElementInterrupt
                raise ElementInterrupt(f"{self.name}: element-level interrupt before group "
                                       f"src {srcstep} / dst {dststep}")
            self.group(s, CIA, regs, srcstep, dststep, vl, smask, dmask)
            if getattr(sim, "_sv_emit", None) is not None:
                self.event(sim, CIA, srcstep, dststep, vl, smask, dmask)
            sim.element_ops += self.dst_n
            if vertical:
                break
            if not self.rt_vec and (dmask >> dststep) & 1:
                break  # a scalar destination ends the loop at its first written group
            # both steps advance in lock-step, as in the SVP64 engine; a scalar
            # operand stays at its register whatever its step
            srcstep += 1
            dststep += 1
        if not vertical:
            s.svstate = svstate.with_steps(s.svstate, 0, 0)
        return CIA + 8

    def event(self, sim, CIA, srcstep, dststep, vl, smask, dmask):
        """One trace event per group, in the SVP64 engine's element-event format:
        reads/writes name the registers holding the group's source/destination
        elements."""
        def regs_of(base, step, n, planar, vec, width):
            return sorted({element_bytes(base, e, width)[0]
                           for e in offsets(step, n, vl, planar, vec)})
        se, de = (smask >> srcstep) & 1, (dmask >> dststep) & 1
        src = "FRAp" if self.floating else "RAp"
        dst = "FRTp" if self.floating else "RTp"
        zeroed = bool(self.r.dz and not de)
        sim._sv_emit({
            "type": "element", "pc": CIA, "mnemonic": self.name,
            "srcstep": srcstep, "dststep": dststep, "ssubstep": 0, "dsubstep": 0,
            "src_pred": se, "dst_pred": de, "zeroed": zeroed,
            "reads": {} if zeroed else {src: regs_of(self.ra, srcstep, self.src_n,
                                                     self.src_planar, self.ra_vec, self.ews)},
            "writes": {dst: regs_of(self.rt, dststep, self.dst_n, self.dst_planar,
                                    self.rt_vec, self.ew)},
            "op": sim.element_ops})

    def group(self, s, CIA, regs, srcstep, dststep, vl, smask, dmask):
        g = Group(regs, self.src_n, self.dst_n, self.in_place, self.fp_one, self.ews, self.ew)
        g.src_base, g.dst_base = self.ra, self.rt
        g.src_offsets = offsets(srcstep, self.src_n, vl, self.src_planar, self.ra_vec)
        g.dst_offsets = offsets(dststep, self.dst_n, vl, self.dst_planar, self.rt_vec)
        g.src_zero = self.r.sz and not (smask >> srcstep) & 1
        if self.r.dz and not (dmask >> dststep) & 1:
            for i in range(self.dst_n):  # a masked-out destination group is zeroed
                g.set_dst(i, 0)
        else:
            args = list(self.args)
            args.insert(self.grp_at, g)
            self.sem(s, CIA, *args)
        g.commit()


def _slot_of(slots, name):
    for i, entries in enumerate(slots):
        if any(n == name for _d, n in entries):
            return i
    raise Trap(f"EXTRA does not name {name}", "illegal")


def _group_page(isa, row):
    cache = isa.registry.memo("swizzle.group_pages")
    c = cache.get(id(row))
    if c is None:
        c = cache[id(row)] = compile_group_page(isa, row)
    return c


def install(reg):
    """Register the group pages' functions and the category (executor, EXTRA2
    layout, src_SUBVL length field ``/svecN``, zeroing-only modes) into ``reg``
    (an :class:`isa_ext.extension.Registry`); the SVP64 prefix handler
    dispatches to it."""
    _install_page_functions(reg)
    reg.category(rmmod.Category(CATEGORY, 2, "mvrm", execute=build_executor, etype=2,
                                length_fields={"s": (14, 15)},
                                mode_mods=("sz", "dz", "zz")))
    install_dispatch(reg)  # runs sv.mv.swiz even with the svp64 extension off


def build_executor(sim, prefix, suffix, row, fields):
    return SvSwizzle(sim, prefix, suffix, row, fields)
