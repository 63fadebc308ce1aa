"""SVP64 prefix and RM (the 24-bit Remapped Encoding).

The prefix is a word with primary opcode 1 and MSB0 bits 7 and 9 set.  RM[0]
sits at prefix bit 6, RM[1] at bit 8, RM[2:23] at bits 10:31.  Common fields
(RM MSB0): MASKMODE 0, MASK 1:3, ELWIDTH 4:5, ELWIDTH_SRC 6:7, SUBVL 8:9,
EXTRA 10:18, MODE 19:23.

Each instruction's RM *category* (the table's ``sv`` column, ``RM-1P-2S1D``...)
says whether it is single- or twin-predicated, where MASK_SRC is, and which mode
table applies.  :data:`CATEGORIES` holds the appendix's; an extension adds its
own to its ISA (``isa.categories``, isa_ext.extension.Registry.category).
"""
from ..encoding import is_svp64_prefix
from ..errors import Trap

# predicate selector values (MASK / MASK_SRC), integer and CR
INT_PRED_NAMES = {0: None, 1: "1<<r3", 2: "r3", 3: "~r3", 4: "r10", 5: "~r10",
                  6: "r30", 7: "~r30"}
CR_PRED_NAMES = {0: "lt", 1: "ge", 2: "gt", 3: "le", 4: "eq", 5: "ne", 6: "so", 7: "ns"}
CR_PRED_ALIASES = {"nl": "ge", "ng": "le", "un": "so", "nu": "ns"}
CR_BIT_NAMES = ("lt", "gt", "eq", "so")
ELWIDTH_BITS = {0: 64, 1: 32, 2: 16, 3: 8}

# RM's common fields, MSB0 bit ranges of the 24-bit RM (the spec site draws
# them; a twin-predicated category's MASK_SRC is EXTRA's last three bits)
RM_FIELDS = {"MASKMODE": (0, 0), "MASK": (1, 3), "ELWIDTH": (4, 5), "ELWIDTH_SRC": (6, 7),
             "SUBVL": (8, 9), "EXTRA": (10, 18), "MODE": (19, 23)}
MASK_SRC_BITS = (16, 18)
# the prefix word: (first, last, name, constant value or None), MSB0 bits of
# the 32-bit prefix (prefix_of builds it)
PREFIX_FIELDS = ((0, 5, "PO", 1), (6, 6, "RM[0]", None), (7, 7, "", 1), (8, 8, "RM[1]", None),
                 (9, 9, "", 1), (10, 31, "RM[2:23]", None))


def is_prefix(word):
    return is_svp64_prefix(word)


def rm_of(prefix):
    """RM[0:23] of a prefix word, RM[0] most significant."""
    return (((prefix >> 25) & 1) << 23) | (((prefix >> 23) & 1) << 22) | (prefix & 0x3FFFFF)


def prefix_of(rm):
    """The prefix word carrying RM."""
    return (1 << 26) | (((rm >> 23) & 1) << 25) | (1 << 24) | (((rm >> 22) & 1) << 23) | \
        (1 << 22) | (rm & 0x3FFFFF)


def bits(rm, a, b):
    """RM[a:b] (MSB0, inclusive)."""
    return (rm >> (23 - b)) & ((1 << (b - a + 1)) - 1)


def put_bits(rm, a, b, v):
    sh = 23 - b
    m = ((1 << (b - a + 1)) - 1) << sh
    return (rm & ~m) | ((v << sh) & m)


class Category:
    """One RM category: predication type and mode table.

    ``ptype`` 1 or 2 (single/twin predication); ``mode_kind`` None picks the mode
    table from the instruction ("normal", "crop" or, for LDSTRM, "ldst");
    ``decode_mode(rm, insn)`` runs after the standard mode decode of the engine.
    Optional layout and execution hooks (all default to the standard behaviour):

    * ``etype`` -- force EXTRA2 (2) or EXTRA3 (3) instead of deriving it from
      the number of used slots;
    * ``length_fields`` -- ``{prefix: (a, b)}``: RM[a:b] holds a length N as
      N-1, written ``/<prefix>vecN`` or ``/<prefix>subvl=N`` in assembly (MVRM's
      src_SUBVL is ``{"s": (14, 15)}``: ``/svec2``, ``/ssubvl=2``);
    * ``mode_mods`` -- the mode modifiers allowed (None: every one);
    * ``execute(sim, prefix, suffix, row, fields) -> f(s, CIA) -> NIA`` -- an
      executor replacing the generic loop engine for the category's rows;
    * ``rm_immediate`` -- an :class:`RMImmediate`: for the rows (and suffix
      field values) it accepts, RM bits carry an immediate operand in place of
      EXTRA and MODE.
    """

    def __init__(self, name, ptype, mode_kind=None, decode_mode=None, execute=None,
                 etype=None, length_fields=None, mode_mods=None, rm_immediate=None):
        self.name, self.ptype, self.mode_kind = name, ptype, mode_kind
        self.decode_mode = decode_mode
        self.execute = execute
        self.etype = etype
        self.length_fields = dict(length_fields or {})
        self.mode_mods = None if mode_mods is None else frozenset(mode_mods)
        self.rm_immediate = rm_immediate

    def __repr__(self):
        return f"Category({self.name!r}, {self.ptype}P)"

    def immediate_form(self, row, fields):
        """The :class:`RMImmediate` when this suffix carries its operand in
        the RM, else None."""
        imm = self.rm_immediate
        return imm if imm is not None and imm.applies(row, fields) else None


class RMImmediate:
    """A 14-bit immediate operand held in RM[10:23] (EXTRA and MODE) of an
    SVP64 prefix, for an instruction whose 32-bit word has no room for it.

    ``accepts(row)`` names the rows that have the form; a suffix of one of
    them is in the form when its field ``field`` holds ``code`` (a value that
    field reserves for this), and in assembly the operand is written ``#N`` in
    that field's place.  The form has no EXTRA: each register operand's EXTRA
    spec is ``spec(row, field)`` (3-bit, extra.py's normalised spec), and its
    mode is normal without zeroing.  MASKMODE, MASK, ELWIDTH, ELWIDTH_SRC and
    SUBVL keep their meaning (docs/errata.md 003-2: SHFL's 13-bit Sc)."""

    span = (RM_FIELDS["EXTRA"][0], RM_FIELDS["MODE"][1])
    width = span[1] - span[0] + 1

    def __init__(self, field, code, accepts, spec):
        self.field, self.code = field, code
        self.accepts, self.spec = accepts, spec

    def applies(self, row, fields):
        return self.accepts(row) and fields.get(self.field) == self.code

    def value(self, rm):
        return bits(rm, *self.span)


# the categories of the SVP64 appendix every ISA has; an extension adds its
# own to its ISA's registry (isa_ext.extension.Registry.category), never here
CATEGORIES = {}


def _base_category(name, ptype, mode_kind=None, decode_mode=None, **hooks):
    CATEGORIES[name] = Category(name, ptype, mode_kind, decode_mode, **hooks)


for _n in ("RM-1P-2S1D", "RM-1P-1S", "RM-1P-1D"):
    _base_category(_n, 1)
# every RM-1P-3S1D row is EXTRA2 in openpower-isa's RM table, also those whose
# three operands share three slots (ffmadds: FRT is source and destination)
_base_category("RM-1P-3S1D", 1, etype=2)
for _n in ("RM-2P-1S1D", "RM-2P-2S1D", "RM-2P-1S", "RM-2P-2S"):
    _base_category(_n, 2)
for _n in ("LDSTRM-2P-1S1D", "LDSTRM-2P-1S2D", "LDSTRM-2P-2S", "LDSTRM-2P-2S1D",
           "LDSTRM-2P-3S"):
    _base_category(_n, 2, "ldst")


class RM:
    """Decoded RM: common fields plus the mode, for one instruction.

    Mode attributes: ``mode`` one of normal / mapreduce / ffirst / sat;
    ``sz dz`` zeroing; ``rg`` reverse gear; ``inv cr_sel vli`` fail-first;
    ``els`` element-strided LD/ST; LD/ST ``pi`` post-increment, ``lfsea`` RM[23]
    (LF on immediate forms, SEA on indexed forms), ``rc1`` fail-first test of the
    result as if Rc=1; ``sat`` saturation ("s" signed / "u" unsigned / None).
    """
    __slots__ = ("rm", "mmode", "mask", "smask", "ew", "ews", "subvl", "extra", "mode_bits",
                 "mode", "sz", "dz", "rg", "inv", "cr_sel", "vli", "els", "ptype",
                 "pi", "lfsea", "rc1", "sat")

    def __init__(self, rm, ptype=1):
        self.rm = rm
        self.ptype = ptype
        f = RM_FIELDS
        self.mmode = bits(rm, *f["MASKMODE"])
        self.mask = bits(rm, *f["MASK"])
        self.ew = ELWIDTH_BITS[bits(rm, *f["ELWIDTH"])]
        self.ews = ELWIDTH_BITS[bits(rm, *f["ELWIDTH_SRC"])]
        self.subvl = bits(rm, *f["SUBVL"]) + 1
        self.extra = bits(rm, *f["EXTRA"])
        self.mode_bits = bits(rm, *f["MODE"])
        # twin predication: MASK_SRC is EXTRA[6:8] (RM[16:18])
        self.smask = bits(rm, *MASK_SRC_BITS) if ptype == 2 else self.mask
        self.mode, self.sz, self.dz, self.rg = "normal", 0, 0, 0
        self.inv, self.cr_sel, self.vli, self.els = 0, 0, 0, 0
        self.pi, self.lfsea, self.rc1, self.sat = 0, 0, 0, None

    @property
    def predicated(self):
        return self.mmode == 1 or self.mask != 0 or self.smask != 0

    def __repr__(self):
        return (f"RM(0x{self.rm:06x} mode={self.mode} mask={self.mmode}:{self.mask}/{self.smask}"
                f" ew={self.ew}/{self.ews} subvl={self.subvl} extra=0b{self.extra:09b})")


def _mbit(m, i):
    return (m >> (4 - i)) & 1


def decode_mode(r, kind, rc, crdest):
    """Fill ``r``'s mode attributes from MODE (RM[19:23]).

    ``kind``: "normal", "crop" or "ldst"; ``rc``: Rc=1; ``crdest``: the instruction
    writes a CR field itself (cmp), so fail-first tests that field.  Reserved and
    unimplemented encodings trap.
    """
    m = r.mode_bits
    m0, m1, m2, m3, m4 = (_mbit(m, i) for i in range(5))
    if kind == "ldst":
        # simple:     els 0 PI  zz  LF|SEA
        # fail-first: VLi 1 inv els RC1   (LD/ST rows have no Rc: the Rc=0 row)
        if m1:
            r.mode = "ffirst"
            r.vli, r.inv, r.els, r.rc1 = m0, m2, m3, m4
            # the EQ bit of the CR computed from the data (z/nonz); RC1=1
            # records that CR, RC1=0 only tests it
            r.cr_sel = 2
            return r
        r.els, r.pi, r.lfsea = m0, m2, m4
        r.sz = r.dz = m3
        return r
    if m1:  # data-dependent fail-first: VLi 1 inv CR-bit (Rc=1) / VLi 1 inv zz RC1 (Rc=0)
        r.mode = "ffirst"
        r.vli, r.inv = m0, m2
        if rc or crdest or kind == "crop":
            r.cr_sel = (m3 << 1) | m4
        else:
            # Rc=0: the EQ bit of the result's CR (computed as if Rc=1) is tested;
            # RC1=1 stores that CR, not the result (a cmp); zz zeroes both sides
            r.cr_sel, r.rc1 = 2, m4
            r.sz = r.dz = m3
        return r
    if kind == "crop":
        # CR-op MODE (cr_ops.mdwn): 00 0 dz sz normal, 00 1 0 RG map-reduce,
        # 00 1 1 CRM parallel reduce, 10 reserved
        if m0:
            raise Trap(f"reserved SVP64 CR-op MODE=0b{m:05b}", "illegal")
        if m2 and m3:
            raise Trap("SVP64 CR-op parallel reduce (MODE 00 1 1 CRM) is not implemented",
                       "illegal")
        if m2:
            r.mode, r.rg = "mapreduce", m4
            return r
        r.dz, r.sz = m3, m4
        return r
    if m0:  # saturation: 1 0 N dz sz (N=0 unsigned, N=1 signed)
        r.mode = "sat"
        r.sat = "s" if m2 else "u"
        r.dz, r.sz = m3, m4
        return r
    if m2:
        if m3:
            raise Trap(f"reserved SVP64 normal-mode encoding MODE=0b{m:05b}", "illegal")
        r.mode, r.rg = "mapreduce", m4
        return r
    r.dz, r.sz = m3, m4
    return r
