"""isa_ext's helpers for openpower-isa (copied by `isa-ext openpower install` into
src/openpower/decoder/isa_ext_helpers.py, removed by `isa-ext openpower uninstall`).

This file runs inside openpower-isa (PyPy 3.9): it must not import isa_ext.  The
plugin appends ``SV_ROWS``, the facts of each installed SVP64 form that ISACaller's
own decoder cannot give (it has no RM category for them): the register file, and
the bits of the destination / source fields in the suffix.

The functions are attached to ISACallerHelper, so generated pages call them as
``self.NAME(...)``; ``self`` is then the running ISACaller.

SVP64 element groups (category MVRM-2P-2S1D: sv.mv.swiz, sv.fmv.swiz).  The
plugin's hook in ISACaller.call(), placed before its SVP64 element loop (which would
read the predicates as if this were an ordinary row, maybe skip the instruction, and
run the page per element on raw fields), calls ISA_EXT_SV_CALL: for an installed
group walk it runs the instruction's page once and ends the instruction there.  The
installed page walks the groups itself:

    if ISA_EXT_SVP64() = 1 then
        do g = 0 to ISA_EXT_GROUPS('mv.swiz') - 1
            ISA_EXT_GROUP(g)
            ... the group page (SRC_SUB, DST_SUB_assign, SRC_N, DST_N, IN_PLACE, FP_ONE)
            ISA_EXT_GROUP_END()
        ISA_EXT_GROUPS_END()
    else
        ... the scalar page

ISA_EXT_GROUPS decodes the prefix (RM of MVRM-2P-2S1D: EXTRA2 registers, SUBVL,
src_SUBVL, ELWIDTH/ELWIDTH_SRC, MASK / MASK_SRC twin predicates, dz/sz) as isa_ext
does (docs/swizzle.md, isa_ext/ext/swizzle_sv.py) and lists the groups to run,
horizontal-first from SVSTATE's steps; a group's writes land when
ISA_EXT_GROUP_END commits them.  With no group to run (VL=0, all masked out) one
group runs that reads zeros and writes nothing, so the page's encoding checks
(ILLEGAL) apply whatever the predicate, as isa_ext checks them at decode.
"""
import math
import struct

from openpower.decoder.selectable_int import SelectableInt


class IsaExtIllegal(Exception):
    """An isa_ext extension instruction's ILLEGAL(reason): raised before the
    page writes any register, so the instruction is aborted, nothing written."""


class IsaExtLaneTrap(Exception):
    """TRAP_AT_LANE(i, reason) of a vector-scope page (isa_ext/gpu/vector_scope.py):
    a trap part-way through the lanes; memory the earlier lanes wrote stays,
    register results are discarded (the scope never commits)."""


def ILLEGAL(self, reason=""):
    raise IsaExtIllegal(str(reason))


def ISA_EXT_SCALAR_ONLY(self, name):
    """A page whose SVP64 form is not installed: ISACaller would run it per element
    on the raw (EXTRA-less) fields, so under a prefix it traps instead."""
    if self.is_svp64_mode:
        raise IsaExtIllegal(f"{name}: its SVP64 form is not installed in openpower-isa")


SV_ROWS = {}  # replaced by the plugin's data block at the end of this file
M64 = (1 << 64) - 1
INT_ELWIDTH = {0: 64, 1: 32, 2: 16, 3: 8}
# floating: (bits, 1.0 in that format); 0b11 is bf16 (isa_ext/ext/swizzle_sv.py)
FP_ELWIDTH = {0: (64, 0x3FF0_0000_0000_0000), 1: (32, 0x3F80_0000), 2: (16, 0x3C00),
              3: (16, 0x3F80)}
CR_PRED_FIELD0 = 4  # ISACaller's SVP64CROffs.CRPred: CR predicates test CR4 + i


def _bits(value, first, last, width):
    """MSB0 bits first..last of a ``width``-bit value."""
    return (value >> (width - 1 - last)) & ((1 << (last - first + 1)) - 1)


def _word(self, addr):
    return self.imem.ld(addr, 4, False, True, instr_fetch=True) & 0xFFFF_FFFF


def _prefix_rm(prefix):
    """RM[0:23] of a prefix word: RM[0] = bit 6, RM[1] = bit 8, RM[2:23] = bits 10:31."""
    return (_bits(prefix, 6, 6, 32) << 23) | (_bits(prefix, 8, 8, 32) << 22) | \
        (prefix & ((1 << 22) - 1))


def _extra2(field5, spec):
    """(register, is_vector) of a 5-bit field with its EXTRA2 spec: 0b0x scalar
    r0-63 (x = bit 5), 0b1x vector r0-126 step 2 (x = bit 1), as in svp64's EXTRA2."""
    if spec >> 1:
        return (field5 << 2) | ((spec & 1) << 1), True
    return ((spec & 1) << 5) | field5, False


def _predicate(self, mmode, code, vl):
    """Bit i set: element i enabled (SVP64 MASK / MASK_SRC, ISACaller's registers)."""
    if mmode:
        bit, want = {0: (0, 1), 1: (0, 0), 2: (1, 1), 3: (1, 0), 4: (2, 1), 5: (2, 0),
                     6: (3, 1), 7: (3, 0)}[code]
        if CR_PRED_FIELD0 + vl > len(self.crl):
            raise IsaExtIllegal(f"CR predicate over VL={vl}: CR{CR_PRED_FIELD0}+i runs past "
                                f"CR{len(self.crl) - 1}, the last CR field ISACaller has")
        out = 0
        for i in range(vl):
            if self.crl[CR_PRED_FIELD0 + i][bit].value == want:
                out |= 1 << i
        return out
    r3, r10, r30 = (self.gpr(n).value for n in (3, 10, 30))
    return {0: M64, 1: 1 << (r3 & 63), 2: r3, 3: ~r3 & M64, 4: r10, 5: ~r10 & M64,
            6: r30, 7: ~r30 & M64}[code]


def _plain_hf_mode(self_, rm, not_plain, not_hf):
    """The RM mode bits of a prefix whose category runs only the plain mode
    (sz/dz zeroing, RM[19:23] < 4) horizontal-first; else the matching trap."""
    mode = _bits(rm, 19, 23, 24)
    if mode >> 2:
        raise IsaExtIllegal(not_plain)
    if self_.svstate.vfirst:
        raise IsaExtIllegal(not_hf)
    return mode


def _register(n):
    """A register number inside the file: past 127 traps (as isa_ext does), never wraps."""
    if n > 127:
        raise IsaExtIllegal(f"register {n} is past the last register (127)")
    return n


def _offsets(step, n, vl, planar, vector):
    """Element offsets of sub-elements 0..n-1 of group ``step``: interleaved
    step*n + k, planar k*VL + step; a scalar operand is always its first group."""
    if not vector:
        step = 0
    return [k * vl + step if planar else step * n + k for k in range(n)]


class _Walk:
    """One sv.* group walk: the decoded prefix and the groups to run."""

    def __init__(self, self_, row):
        pc = self_.pc.CIA.value
        rm = _prefix_rm(_word(self_, pc))
        suffix = _word(self_, pc + 4)
        name = "sv." + row["mnemonic"]
        mode = _plain_hf_mode(self_, rm, f"{name}: only the plain mode (zeroing sz/dz) "
                              "applies to MVRM-2P-2S1D", f"{name}: vertical-first mode is "
                              "not supported by the isa_ext plugin for openpower-isa")
        self.dz, self.sz = (mode >> 1) & 1, mode & 1
        self.regs = self_.fpr if row["regfile"] == "FPR" else self_.gpr
        ewd, ews = _bits(rm, 4, 5, 24), _bits(rm, 6, 7, 24)
        if row["regfile"] == "FPR":
            (self.ew, self.fp_one), self.ews = FP_ELWIDTH[ewd], FP_ELWIDTH[ews][0]
        else:
            self.ew, self.ews, self.fp_one = INT_ELWIDTH[ewd], INT_ELWIDTH[ews], 0
        (dfirst, dlast), (sfirst, slast) = row["dst_bits"], row["src_bits"]
        self.rt, self.rt_vec = _extra2(_bits(suffix, dfirst, dlast, 32), _bits(rm, 10, 11, 24))
        self.ra, self.ra_vec = _extra2(_bits(suffix, sfirst, slast, 32), _bits(rm, 12, 13, 24))
        subvl, src_subvl = _bits(rm, 8, 9, 24) + 1, _bits(rm, 14, 15, 24) + 1
        # pack/unpack (errata 001-3): a side with SUBVL 1 is planar, the other's size
        self.dst_n = src_subvl if subvl == 1 else subvl
        self.src_n = subvl if src_subvl == 1 else src_subvl
        self.dst_planar = subvl == 1 and src_subvl > 1
        self.src_planar = src_subvl == 1 and subvl > 1
        self.in_place = int(self.rt == self.ra and self.ew == self.ews
                            and self.rt_vec == self.ra_vec)
        vl = self.vl = self_.svstate.vl
        # isa_ext's register-file-end rule (isa_ext/svp64/regfile_end.py): a
        # vector running past r127/f127 traps before any group runs
        for what, base, vec, n, width in (("RT", self.rt, self.rt_vec, self.dst_n, self.ew),
                                          ("RA", self.ra, self.ra_vec, self.src_n, self.ews)):
            last = base + (vl * n * width - 1) // 64
            if vec and vl and last > 127:
                raise IsaExtIllegal(f"{name}: vector operand {what} at {base} runs past "
                                    f"127 ({vl * n} elements end in {last})")
        mmode = _bits(rm, 0, 0, 24)
        dmask = _predicate(self_, mmode, _bits(rm, 1, 3, 24), vl)
        smask = _predicate(self_, mmode, _bits(rm, 16, 18, 24), vl)
        self.groups = []  # (srcstep, dststep, source zeroed, destination zeroed)
        src, dst = self_.svstate.srcstep, self_.svstate.dststep
        while src < vl and dst < vl:
            if not self.sz:
                while src < vl and not (smask >> src) & 1:
                    src += 1
            if not self.dz:
                while dst < vl and not (dmask >> dst) & 1:
                    dst += 1
            if src >= vl or dst >= vl:
                break
            self.groups.append((src, dst, self.sz and not (smask >> src) & 1,
                                self.dz and not (dmask >> dst) & 1))
            if not self.rt_vec and (dmask >> dst) & 1:
                break  # a scalar destination ends the loop at its first written group
            src, dst = src + 1, dst + 1
        # no group enabled: one group that reads zeros and writes nothing, for the
        # page's checks (and openpower-isa's RANGE(0, -1) counts down: the page's
        # loop cannot run zero times)
        self.discard = not self.groups
        if self.discard:
            self.groups = [(0, 0, True, True)]
        self.current, self.writes = None, {}

    def element(self, base, index, width):
        bit = index * width
        return _register(base + bit // 64), bit % 64

    def src(self, k):
        srcstep, _d, src_zero, _z = self.current
        if k >= self.src_n or src_zero:
            return 0
        off = _offsets(srcstep, self.src_n, self.vl, self.src_planar, self.ra_vec)[k]
        reg, sh = self.element(self.ra, off, self.ews)
        return (self.regs(reg).value >> sh) & ((1 << self.ews) - 1)

    def set_dst(self, i, value):
        if not self.current[3]:  # a dz-zeroed group keeps its zeros
            self.writes[i] = value & ((1 << self.ew) - 1)

    def begin(self, g):
        self.current = self.groups[g]
        self.writes = {i: 0 for i in range(self.dst_n)} if self.current[3] else {}

    def commit(self):
        if self.discard:
            return
        dststep = self.current[1]
        offs = _offsets(dststep, self.dst_n, self.vl, self.dst_planar, self.rt_vec)
        for i, v in self.writes.items():
            reg, sh = self.element(self.rt, offs[i], self.ew)
            m = ((1 << self.ew) - 1) << sh
            old = self.regs(reg).value
            self.regs[reg] = SelectableInt((old & ~m & M64) | (v << sh), 64)
        self.writes = {}


def _int(value):
    return value.value if isinstance(value, SelectableInt) else int(value)


def _walk(self):
    w = getattr(self, "_isa_ext_walk", None)
    if w is None:
        raise IsaExtIllegal("isa_ext group helper called outside ISA_EXT_GROUPS")
    return w


def ISA_EXT_SV_CALL(self, ins_name, info):
    """Called by the plugin's hook in ISACaller.call() for every instruction, before
    its SVP64 element loop.  An installed group walk (under a prefix) or
    vector-scope instruction (with or without one) runs its page once (the page
    writes through helpers; it returns nothing for ISACaller to write) and returns
    True: the hook then ends the instruction.  Horizontal-first, so the steps end
    at 0."""
    walk = self.is_svp64_mode and ins_name in SV_ROWS
    scope = VS_ROWS.get(ins_name)
    if not walk and scope is None:
        return False
    from openpower.decoder.isa.caller import create_full_args
    names = create_full_args(read_regs=info.read_regs, special_regs=info.special_regs,
                             uninit_regs=info.uninit_regs, write_regs=info.write_regs)
    if scope is not None:
        self._isa_ext_scope = _Scope(self, ins_name, scope)
        if self._isa_ext_scope.vl == 0:
            self._isa_ext_scope = None
            return True
    fpscr = self.fpscr.value
    try:
        info.func(self, *[SelectableInt(0, 64) for _ in names])
        if scope is not None:
            self._isa_ext_scope.commit()
    except IsaExtIllegal:
        self.fpscr.value = fpscr  # aborted: the lanes' FP helpers wrote nothing either
        raise
    finally:
        self._isa_ext_walk = self._isa_ext_scope = None
    if self.is_svp64_mode:
        self.svstate.srcstep = self.svstate.dststep = 0
    return True


def ISA_EXT_SVP64(self):
    return SelectableInt(int(bool(self.is_svp64_mode)), 1)


def ISA_EXT_GROUPS(self, mnemonic):
    row = SV_ROWS.get(str(mnemonic) if not isinstance(mnemonic, str) else mnemonic)
    if row is None:
        raise IsaExtIllegal(f"sv.{mnemonic}: its SVP64 form is not installed in openpower-isa")
    self._isa_ext_walk = _Walk(self, row)
    # counts are plain integers: the page's "do g = 0 to N - 1" becomes RANGE(),
    # which needs int bounds
    return len(self._isa_ext_walk.groups)


def ISA_EXT_GROUP(self, g):
    _walk(self).begin(_int(g))


def ISA_EXT_GROUP_END(self):
    _walk(self).commit()


def ISA_EXT_GROUPS_END(self):
    self._isa_ext_walk = None


def SRC_SUB(self, k):
    return SelectableInt(_walk(self).src(_int(k)), 64)


def DST_SUB_assign(self, i, value):
    _walk(self).set_dst(_int(i), _int(value))


def SRC_N(self):
    return _walk(self).src_n


def DST_N(self):
    return _walk(self).dst_n


def IN_PLACE(self):
    return SelectableInt(_walk(self).in_place, 1)


def FP_ONE(self):
    return SelectableInt(_walk(self).fp_one, 64)


# --- vector-scope instructions (isa_ext/gpu/vector_scope.py's contract) ----------
#
# The page runs once for the whole vector (ISA_EXT_SV_CALL, from the hook, with or
# without a prefix: without one the warp is one lane of scalar operands).  The
# plugin writes each register operand's name as a string (LANE('RA', i)), and
# VS_ROWS (appended by the plugin) gives per mnemonic each operand's suffix bits,
# register file, EXTRA slot and direction, and the EXTRA type.

VS_ROWS = {}  # replaced by the plugin's data block at the end of this file
MAX_LANES = 64


class _Scope:
    def __init__(self, self_, name, row):
        self.name = ("sv." if self_.is_svp64_mode else "") + name
        pc = self_.pc.CIA.value
        prefixed = bool(self_.is_svp64_mode)
        suffix = _word(self_, pc + 4 if prefixed else pc)
        ew = ews = 64
        if prefixed:
            rm = _prefix_rm(_word(self_, pc))
            mode = _plain_hf_mode(self_, rm, f"{self.name}: only the normal mode (with dz/sz "
                                  "zeroing) applies to a vector-scope instruction",
                                  f"{self.name}: a vector-scope instruction runs "
                                  "horizontal-first only")
            vl = self_.svstate.vl
            if vl > MAX_LANES:
                raise IsaExtIllegal(f"{self.name}: VL={vl} exceeds the warp size limit of "
                                    f"{MAX_LANES} lanes")
            self.active = _predicate(self_, _bits(rm, 0, 0, 24), _bits(rm, 1, 3, 24), vl) \
                & ((1 << vl) - 1)
            self.dz, self.sz = (mode >> 1) & 1, mode & 1
            self.subvl = _bits(rm, 8, 9, 24) + 1
            ew, ews = INT_ELWIDTH[_bits(rm, 4, 5, 24)], INT_ELWIDTH[_bits(rm, 6, 7, 24)]
            extra9 = _bits(rm, 10, 18, 24)
        else:
            vl, self.active, self.dz, self.sz, self.subvl = 1, 1, 0, 0, 1
        self.vl = vl
        self.operands = {}
        for field, op in row["operands"].items():
            first, last = op["bits"]
            base, vec = _bits(suffix, first, last, 32), False
            if prefixed and op["slot"] is not None:
                if row["etype"] == 3:
                    spec = (extra9 >> (6 - 3 * op["slot"])) & 7
                else:
                    e = (extra9 >> (7 - 2 * op["slot"])) & 3
                    spec = (0b100 | ((e & 1) << 1)) if e & 2 else (e & 1)
                if spec & 4:
                    base, vec = (base << 2) | (spec & 3), True
                else:
                    base = ((spec & 3) << 5) | base
            if op["regfile"] == "FPR":
                if prefixed and (ew != 64 or ews != 64):
                    raise IsaExtIllegal(f"{self.name}: element-width overrides on FP "
                                        "registers are not implemented")
                width = 64
            else:
                width = ew if op["dest"] else ews
            regs = self_.fpr if op["regfile"] == "FPR" else self_.gpr
            self.operands[field] = (regs, base, vec, width, op["dest"])
            # isa_ext's register-file-end rule (isa_ext/svp64/regfile_end.py): a
            # vector operand running past r127/f127 traps before any lane runs
            elements = vl * self.subvl
            last = base + (elements * width - 1) // 64
            if vec and elements and last > 127:
                p = "f" if op["regfile"] == "FPR" else "r"
                raise IsaExtIllegal(f"{self.name}: vector operand {field} at {p}{base} runs "
                                    f"past {p}127 ({elements} elements end in {p}{last})")
        self.pending, self.spans = {}, set()

    def _operand(self, field):
        op = self.operands.get(str(field))
        if op is None:
            raise IsaExtIllegal(f"{self.name}: {field} is not a register operand of this "
                                "instruction")
        return op

    def _component(self, k):
        if k is None:
            if self.subvl != 1:
                raise IsaExtIllegal(f"{self.name}: SUBVL={self.subvl} is not defined for "
                                    "this instruction (its page reads one value per lane)")
            return 0
        if not 0 <= k < self.subvl:
            raise IsaExtIllegal(f"{self.name}: component {k} outside the sub-vector "
                                f"(SUBVL={self.subvl})")
        return k

    @staticmethod
    def _get(regs, base, index, width):
        bit = index * width
        return (regs(_register(base + bit // 64)).value >> (bit % 64)) & ((1 << width) - 1)

    def read(self, field, lane, k=None):
        regs, base, vec, width, _dest = self._operand(field)
        k = self._component(k)
        if not vec:
            return self._get(regs, base, 0, width)
        if not 0 <= lane < self.vl:
            raise IsaExtIllegal(f"{self.name}: lane {lane} outside the vector (VL={self.vl})")
        if not (self.active >> lane) & 1 and self.sz:
            return 0  # sz defines an inactive lane's value; without it: the register
        return self._get(regs, base, lane * self.subvl + k, width)

    def group(self, field, n, lane, k):
        """Sub-element k of lane ``lane``'s n-element group: element n*lane+k of a
        vector operand, element k of a scalar one (vector_scope.Scope.group)."""
        if self.subvl != 1:
            raise IsaExtIllegal(f"{self.name}: SUBVL={self.subvl} is not defined for this "
                                "instruction (its lanes read groups of elements)")
        regs, base, vec, width, _dest = self._operand(field)
        if not 0 <= k < n:
            return 0  # lane i has no k-th of n (read nowhere)
        if (str(field), n) not in self.spans:
            # the whole span, at the first GROUP read of it (before any lane's effects)
            self.spans.add((str(field), n))
            elements = n * self.vl if vec else n
            last = base + (elements * width - 1) // 64
            if last > 127:
                what = "vector operand" if vec else "scalar operand group"
                raise IsaExtIllegal(f"{self.name}: {what} {field} at r{base} runs past r127 "
                                    f"({elements} elements end in r{last})")
        if not vec:
            return self._get(regs, base, k, width)
        if not 0 <= lane < self.vl:
            raise IsaExtIllegal(f"{self.name}: lane {lane} outside the vector (VL={self.vl})")
        if not (self.active >> lane) & 1 and self.sz:
            return 0
        return self._get(regs, base, n * lane + k, width)

    def write(self, field, lane, value, k=None):
        _regs, _base, vec, _width, _dest = self._operand(field)
        k = self._component(k)
        if vec:
            if 0 <= lane < self.vl and (self.active >> lane) & 1:
                self.pending[(str(field), lane * self.subvl + k)] = value
        elif self.subvl != 1:
            raise IsaExtIllegal(f"{self.name}: a scalar {field} cannot hold a "
                                f"SUBVL={self.subvl} result (make it a vector)")
        else:
            self.pending.setdefault((str(field), 0), value)

    @staticmethod
    def _put(regs, base, index, width, value):
        bit = index * width
        reg, sh = _register(base + bit // 64), bit % 64
        m = ((1 << width) - 1) << sh
        regs[reg] = SelectableInt((regs(reg).value & ~m & M64) |
                                  ((value & ((1 << width) - 1)) << sh), 64)

    def commit(self):
        for (field, element), value in self.pending.items():
            regs, base, _vec, width, _dest = self.operands[field]
            self._put(regs, base, element, width, value)
        if self.dz:
            for regs, base, vec, width, dest in self.operands.values():
                if dest and vec:
                    for lane in range(self.vl):
                        if not (self.active >> lane) & 1:
                            for k in range(self.subvl):
                                self._put(regs, base, lane * self.subvl + k, width, 0)


def _scope(self):
    s = getattr(self, "_isa_ext_scope", None)
    if s is None:
        raise IsaExtIllegal("a vector-scope helper ran outside a vector-scope instruction")
    return s


def LANE(self, field, lane, k=None):
    return SelectableInt(_scope(self).read(field, _int(lane),
                                           None if k is None else _int(k)), 64)


def LANE_assign(self, field, lane, *rest):
    k, value = (None, rest[0]) if len(rest) == 1 else (_int(rest[0]), rest[1])
    _scope(self).write(field, _int(lane), _int(value), k)


def GROUP(self, field, n, lane, k):
    return SelectableInt(_scope(self).group(field, _int(n), _int(lane), _int(k)), 64)


def TRAP_AT_LANE(self, lane, reason):
    """Stop at ``lane``: SVSTATE's steps name it under a prefix, the reason names
    it, as isa_ext's vector-scope engine reports a LaneFault."""
    s, lane = _scope(self), _int(lane)
    if self.is_svp64_mode:
        self.svstate.srcstep = self.svstate.dststep = lane
    raise IsaExtLaneTrap(f"{s.name}: lane {lane}: {reason} (lanes before it applied)")


def LANE_ACTIVE(self, lane):
    s, lane = _scope(self), _int(lane)
    return SelectableInt(int(0 <= lane < s.vl and (s.active >> lane) & 1), 1)


def ACTIVE(self):
    return SelectableInt(_scope(self).active, 64)


def ISA_EXT_VL(self):
    return _scope(self).vl


def ISA_EXT_SUBVL(self):
    return _scope(self).subvl


# the GPU identity (isa_ext/gpu/identity.py): openpower-isa has no machine
# configuration for it, so these are isa_ext's defaults (GpuIdentity())
def WARP_ID(self):
    return SelectableInt(0, 64)


def SM_ID(self):
    return SelectableInt(0, 64)


def WARPS_PER_SM(self):
    return SelectableInt(1, 64)


def SM_COUNT(self):
    return SelectableInt(1, 64)


def HELPER_LANE(self, lane):
    return SelectableInt(0, 1)  # no helper lanes


# SURED's header-index form (isa_ext/gpu/header_index.py) is a 64-bit prefixed
# encoding of isa_ext's own; the plugin installs the 32-bit register form, in
# which the page's header-index branch is never taken
def HEADER_INDEXED(self):
    return SelectableInt(0, 1)


def HEADER_INDEX(self):
    return SelectableInt(0, 64)


# SHFL's Sc-immediate form (isa_ext/ext/gpu/sc_immediate.py) keeps Sc in RM
# bits openpower-isa reads as EXTRA and MODE: the plugin does not install it,
# so the page's shfli/shflvi read their SEGW code (31 stays reserved there)
def SC_IMMEDIATE_FORM(self):
    return SelectableInt(0, 1)


def SC_IMMEDIATE(self):
    return SelectableInt(0, 64)


def CONST_BANK(self):
    return SelectableInt(0, 64)


def HEADER_POOL(self):
    return SelectableInt(0, 64)


def HEADER_VALID(self, pointer):
    raise IsaExtIllegal("sured: the header-index form is not installed in openpower-isa")


def ISA_EXT_INT(self, x):
    """x as a Python int (its unsigned value): the plugin's integer-width
    conversion wraps the operands combined with a loop index in it, so the
    arithmetic is integer there as it is in isa_ext (plugin.integer_width)."""
    return _int(x)


# --- FPADD(a, b, bits): the quad swizzles' add forms --------------------------------
#
# isa_ext's FPADD (isa_ext/pseudocode/fp.py, docs/fpscr.md): the exact sum rounded
# once, to double (bits 64) or single precision (bits 32, the result held as a
# double) in FPSCR.RN; Power NaN propagation (the first NaN operand, quieted);
# FPSCR: the sticky exception bits with FX, FR/FI of this add, FPRF of the
# result, the VX/FEX summaries.  openpower-isa's FPADD64/FPADD32 are Python
# float additions that leave the FPSCR alone, so the page cannot use them.

def _fpscr_bit(n):
    return 1 << (63 - n)  # MSB0 bit n of the 64-bit FPSCR


FX, FEX, VX, OX, UX, ZX, XX = (_fpscr_bit(n) for n in range(32, 39))
VXSNAN, VXISI = _fpscr_bit(39), _fpscr_bit(40)
FR, FI = _fpscr_bit(45), _fpscr_bit(46)
FPRF_SHIFT = 63 - 51
VE, OE, UE, ZE, XE = (_fpscr_bit(n) for n in range(56, 61))
INVALID = sum(_fpscr_bit(n) for n in (39, 40, 41, 42, 43, 44, 53, 54, 55))
EXCEPTIONS = OX | UX | ZX | XX | INVALID
RESERVED = (((1 << 29) - 1) << 35) | _fpscr_bit(52)
MSR_FE = (1 << 11) | (1 << 8)  # MSR.FE0, MSR.FE1
QNAN = 0x7FF8_0000_0000_0000
# (precision, emin, emax) of the result
FP_FORMATS = {64: (53, -1022, 1023), 32: (24, -126, 127)}


def _nan(x):
    return (x >> 52) & 0x7FF == 0x7FF and x & ((1 << 52) - 1)


def _inf(x):
    return x & ~(1 << 63) == 0x7FF0_0000_0000_0000


def _finite(x):
    """(sign, mantissa, exponent): |x| = mantissa * 2**exponent."""
    e, frac = (x >> 52) & 0x7FF, x & ((1 << 52) - 1)
    return (x >> 63, frac, -1074) if e == 0 else (x >> 63, frac | (1 << 52), e - 1075)


def _pack(sign, mant, exp):
    """The double image of sign * mant * 2**exp (representable as a double)."""
    if mant == 0:
        return sign << 63
    shift = mant.bit_length() - 53
    mant, exp = (mant >> shift, exp + shift) if shift > 0 else (mant << -shift, exp + shift)
    biased = exp + 1075
    if biased <= 0:
        return (sign << 63) | (mant >> (1 - biased))
    return (sign << 63) | (biased << 52) | (mant & ((1 << 52) - 1))


def _round(sign, mant, exp, fmt, rn):
    """(image, exception bits among XX OX UX, rounded up) of sign * mant * 2**exp
    rounded to ``fmt`` in mode rn (0 nearest even, 1 zero, 2 +inf, 3 -inf);
    tininess before rounding (Power ISA)."""
    precision, emin, emax = fmt
    top = mant.bit_length() - 1 + exp
    quantum = max(top, emin) - (precision - 1)
    shift = quantum - exp
    if shift <= 0:
        kept, half, more = mant << -shift, False, False
    else:
        kept, rest = mant >> shift, mant & ((1 << shift) - 1)
        half, more = rest >> (shift - 1) == 1, rest & ((1 << (shift - 1)) - 1) != 0
    inexact = half or more
    up = (half and (more or kept & 1)) if rn == 0 else \
        (inexact and (sign == 1 if rn == 3 else sign == 0)) if rn in (2, 3) else False
    kept += int(bool(up))
    flags = (XX if inexact else 0) | (UX if inexact and top < emin else 0)
    if kept.bit_length() - 1 + quantum > emax:
        if rn == 0 or (rn == 2 and not sign) or (rn == 3 and sign):
            return (sign << 63) | 0x7FF0_0000_0000_0000, flags | OX | XX, True
        return _pack(sign, (1 << precision) - 1, emax - precision + 1), flags | OX | XX, False
    return _pack(sign, kept, quantum), flags, bool(up)


def _round_enabled(fpscr, sign, mant, exp, fmt, rn):
    """_round, with OE=1 / UE=1: an overflow or a tiny result is delivered with its
    exponent adjusted into range (1536 for double, 192 for single; Book I 4.4.4/5),
    OX or UX set and XX only if that result is inexact."""
    result, flags, up = _round(sign, mant, exp, fmt, fpscr & 3)
    adjust = 3 * (fmt[2] + 1) // 2
    if flags & OX and fpscr & OE:
        result, again, up = _round(sign, mant, exp - adjust, fmt, fpscr & 3)
        return result, OX | (again & XX), up
    if fpscr & UE and mant and mant.bit_length() - 1 + exp < fmt[1]:
        result, again, up = _round(sign, mant, exp + adjust, fmt, fpscr & 3)
        return result, UX | (again & XX), up
    return result, flags, up


def _fprf(x):
    sign = x >> 63
    if _nan(x):
        return 0b10001
    if _inf(x):
        return 0b01001 if sign else 0b00101
    if x & ~(1 << 63) == 0:
        return 0b10010 if sign else 0b00010
    if (x >> 52) & 0x7FF == 0:
        return 0b11000 if sign else 0b10100
    return 0b01000 if sign else 0b00100


def _fp_finish(self, result, exceptions, up):
    old = self.fpscr.value
    if exceptions & INVALID and old & VE:
        # isa_ext traps here too: the result would be "FRT unchanged", which a
        # lane's write through a helper cannot express
        raise IsaExtIllegal("an enabled invalid-operation or zero-divide exception (FPSCR "
                            "VE/ZE=1) inside this instruction is not implemented")
    new = (old & ~(FR | FI)) | exceptions
    if exceptions & XX:
        new |= FI | (FR if up else 0)
    new = (new & ~(0x1F << FPRF_SHIFT)) | (_fprf(result) << FPRF_SHIFT)
    if (new & ~old) & EXCEPTIONS:
        new |= FX
    new &= ~(VX | FEX | RESERVED)
    if new & INVALID:
        new |= VX
    if (new & VX and new & VE) or any(new & x and new & e for x, e in
                                      ((OX, OE), (UX, UE), (ZX, ZE), (XX, XE))):
        new |= FEX
    if self.msr.value & MSR_FE and any(exceptions & x and new & e for x, e in
                                       ((INVALID, VE), (OX, OE), (UX, UE), (XX, XE))):
        raise IsaExtIllegal("a floating-point enabled exception interrupt (MSR.FE0/FE1 "
                            "not 0) inside an isa_ext instruction is not supported by "
                            "the isa_ext plugin for openpower-isa")
    self.fpscr.value = new
    return SelectableInt(result, 64)


def FPADD(self, a, b, bits):
    a, b, bits = _int(a), _int(b), _int(bits)
    fmt, rn = FP_FORMATS[bits], self.fpscr.value & 3
    snan = VXSNAN if any(_nan(x) and not x & (1 << 51) for x in (a, b)) else 0
    for x in (a, b):
        if _nan(x):
            x |= 1 << 51
            return _fp_finish(self, x & ~((1 << 29) - 1) if bits == 32 else x, snan, False)
    if _inf(a) or _inf(b):
        if _inf(a) and _inf(b) and a >> 63 != b >> 63:
            return _fp_finish(self, QNAN, VXISI, False)
        return _fp_finish(self, a if _inf(a) else b, 0, False)
    (sa, ma, ea), (sb, mb, eb) = _finite(a), _finite(b)
    e = min(ea, eb)
    total = (-1) ** sa * (ma << (ea - e)) + (-1) ** sb * (mb << (eb - e))
    if total == 0:
        # an exact zero: the operands' sign if they agree, else +0 (-0 rounding down)
        sign = sa if sa == sb and ma == mb == 0 else int(rn == 3)
        return _fp_finish(self, sign << 63, 0, False)
    result, flags, up = _round_enabled(self.fpscr.value, int(total < 0), abs(total), e, fmt, rn)
    return _fp_finish(self, result, flags, up)


def ISA_EXT_EXTZ64(self, x):
    """Our EXTZ64: x zero-extended to 64 bits (openpower-isa's EXTZ64 keeps only
    its low 32 bits; plugin.RENAMED_CALLS)."""
    return SelectableInt(_int(x) & M64, 64)


def ISA_EXT_MEMVAL(self, value, size):
    """The value a "MEM(ea, size) <- value" of ours stores: its low size bytes, as
    the SelectableInt openpower-isa's memassign takes (plugin._mem_store)."""
    size = _int(size)
    return SelectableInt(_int(value) & ((1 << (8 * size)) - 1), 8 * size)


def EXTZ128(self, x):
    return SelectableInt(_int(x) & ((1 << 128) - 1), 128)


# --- the surface atomics' floating point (isa_ext/ext/gpu.py): flush-to-zero,
# round to nearest even, no FPSCR; a NaN result is the format's canonical quiet
# NaN; min/max give the other operand when one is a NaN, -0 orders below +0.

class _Float:
    def __init__(self, code, bits, exp_bits, qnan):
        self.code, self.bits, self.exp_bits, self.qnan = code, bits, exp_bits, qnan
        self.man_bits, self.sign = bits - 1 - exp_bits, 1 << (bits - 1)

    def flush(self, x):
        if (x >> self.man_bits) & ((1 << self.exp_bits) - 1) == 0:
            return x & self.sign  # a subnormal: a zero of its sign
        return x

    def value(self, x):
        return struct.unpack("<" + self.code, x.to_bytes(self.bits // 8, "little"))[0]

    def encode(self, v):
        if math.isnan(v):
            return self.qnan
        try:
            raw = struct.pack("<" + self.code, v)
        except OverflowError:  # rounds past the largest finite value
            raw = struct.pack("<" + self.code, math.copysign(math.inf, v))
        return self.flush(int.from_bytes(raw, "little"))

    def add(self, a, b):
        # the double sum, rounded again, is correctly rounded for binary32 and
        # binary16 operands (53 >= 2p + 2)
        return self.encode(self.value(self.flush(a)) + self.value(self.flush(b)))

    def pick(self, a, b, smaller):
        a, b = self.flush(a), self.flush(b)
        va, vb = self.value(a), self.value(b)
        if math.isnan(va) and math.isnan(vb):
            return self.qnan
        if math.isnan(va):
            return b
        if math.isnan(vb):
            return a
        ka, kb = (va, -1 if a & self.sign else 0), (vb, -1 if b & self.sign else 0)
        return a if (ka <= kb) == smaller else b


_F32, _F16 = _Float("f", 32, 8, 0x7FC0_0000), _Float("e", 16, 5, 0x7E00)


def _halves(fn, a, b):
    a, b = _int(a), _int(b)
    return SelectableInt((fn(a >> 16, b >> 16) << 16) | fn(a & 0xFFFF, b & 0xFFFF), 32)


def F32ADD_FTZ_RN(self, a, b):
    return SelectableInt(_F32.add(_int(a), _int(b)), 32)


def F16X2ADD_FTZ_RN(self, a, b):
    return _halves(_F16.add, a, b)


def F16X2MIN(self, a, b):
    return _halves(lambda x, y: _F16.pick(x, y, True), a, b)


def F16X2MAX(self, a, b):
    return _halves(lambda x, y: _F16.pick(x, y, False), a, b)


PROVIDED = ("ILLEGAL", "ISA_EXT_SCALAR_ONLY", "ISA_EXT_SV_CALL", "ISA_EXT_SVP64", "ISA_EXT_GROUPS",
            "ISA_EXT_GROUP", "ISA_EXT_GROUP_END", "ISA_EXT_GROUPS_END", "SRC_SUB",
            "DST_SUB_assign", "SRC_N", "DST_N", "IN_PLACE", "FP_ONE", "LANE", "LANE_assign",
            "LANE_ACTIVE", "ACTIVE", "ISA_EXT_VL", "ISA_EXT_SUBVL", "WARP_ID", "SM_ID",
            "WARPS_PER_SM", "SM_COUNT", "HELPER_LANE", "HEADER_INDEXED", "HEADER_INDEX",
            "SC_IMMEDIATE_FORM", "SC_IMMEDIATE",
            "CONST_BANK", "HEADER_POOL", "HEADER_VALID", "ISA_EXT_INT", "FPADD", "GROUP", "TRAP_AT_LANE", "ISA_EXT_EXTZ64",
            "ISA_EXT_MEMVAL", "EXTZ128", "F32ADD_FTZ_RN", "F16X2ADD_FTZ_RN", "F16X2MIN", "F16X2MAX")


def install(cls):
    for name in PROVIDED:
        setattr(cls, name, globals()[name])
