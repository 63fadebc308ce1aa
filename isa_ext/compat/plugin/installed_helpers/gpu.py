"""The GPU extension's helpers for openpower-isa (a part of the installed
helper module: see :mod:`.common`): vector-scope instructions, the GPU
identity, SURED's header index, the surface atomics' floating point."""

from .common import INT_ELWIDTH, IsaExtIllegal, IsaExtLaneTrap, M64  # one module when installed
from .common import PROVIDED, SelectableInt, _bits, _int  # one module when installed
from .common import _plain_hf_mode, _predicate, _prefix_rm, _register  # one module when installed
from .common import _word  # one module when installed
from ....ext.gpu.float_formats import F16, F32  # one module when installed

# --- vector-scope instructions (isa_ext/ext/gpu/vector_scope.py's contract) ----------
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


# the GPU identity (isa_ext/ext/gpu/identity.py): openpower-isa has no machine
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


# SURED's header-index form (isa_ext/ext/gpu/header_index.py) is a 64-bit prefixed
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


# --- the surface atomics' floating point: F32, F16 are isa_ext/ext/gpu/float_formats.py's
# (a part of the installed module of its own, run by isa_ext too)


def _halves(fn, a, b):
    a, b = _int(a), _int(b)
    return SelectableInt((fn(a >> 16, b >> 16) << 16) | fn(a & 0xFFFF, b & 0xFFFF), 32)


def F32ADD_FTZ_RN(self, a, b):
    return SelectableInt(F32.add(_int(a), _int(b)), 32)


def F16X2ADD_FTZ_RN(self, a, b):
    return _halves(F16.add, a, b)


def F16X2MIN(self, a, b):
    return _halves(lambda x, y: F16.pick(x, y, True), a, b)


def F16X2MAX(self, a, b):
    return _halves(lambda x, y: F16.pick(x, y, False), a, b)


PROVIDED += ('LANE', 'LANE_assign', 'LANE_ACTIVE', 'ACTIVE', 'ISA_EXT_VL',
             'ISA_EXT_SUBVL', 'WARP_ID', 'SM_ID', 'WARPS_PER_SM', 'SM_COUNT',
             'HELPER_LANE', 'HEADER_INDEXED', 'HEADER_INDEX', 'SC_IMMEDIATE_FORM',
             'SC_IMMEDIATE', 'CONST_BANK',
             'HEADER_POOL', 'HEADER_VALID', 'GROUP', 'TRAP_AT_LANE', 'F32ADD_FTZ_RN',
             'F16X2ADD_FTZ_RN', 'F16X2MIN', 'F16X2MAX',)
