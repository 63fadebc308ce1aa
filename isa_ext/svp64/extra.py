"""EXTRA2/EXTRA3 register extension.

Each instruction's ``extra`` column lists its EXTRA slots, slot 0 first, each
``d:RT;d:CR0`` / ``s:RA`` / ``-``.  A register named in a slot is extended by that
slot's spec; a register not named stays scalar and unextended.

Etype: single-predicated rows with at most 3 used slots use EXTRA3 (3 bits per
slot, EXTRA[0:8]); twin-predicated rows with at most 2 (EXTRA[0:5], MASK_SRC in
EXTRA[6:8]); otherwise EXTRA2 (2 bits per slot).  This reproduces the Etype
column of openpower-isa's RM-*.csv.

A spec is normalised to 3 bits ``v s1 s0`` (v = vector).  EXTRA2 ``v b`` becomes
``v b 0`` for vectors and ``0 0 b`` for scalars.
"""
from ..errors import Trap


def parse_slots(extra):
    """('d:RT;d:CR0', 's:RA', '-') -> [[('d','RT'),('d','CR0')], [('s','RA')], []]"""
    out = []
    for slot in extra:
        entries = []
        if slot not in ("-", "0", ""):
            for item in slot.split(";"):
                d, _, name = item.partition(":")
                entries.append((d, name))
        out.append(entries)
    return out


def etype(slots, ptype):
    used = sum(1 for s in slots if s)
    return 3 if used <= (3 if ptype == 1 else 2) else 2


def slot_spec(extra9, slot, et):
    """Normalised 3-bit spec of ``slot`` from the 9-bit EXTRA field."""
    if et == 3:
        return (extra9 >> (6 - 3 * slot)) & 7
    e = (extra9 >> (7 - 2 * slot)) & 3
    return (0b100 | ((e & 1) << 1)) if e & 2 else (e & 1)


def spec_bits(spec, slot, et):
    """Inverse of :func:`slot_spec`: EXTRA bits to OR into the 9-bit field."""
    if et == 3:
        return spec << (6 - 3 * slot)
    if spec & 4:
        if spec & 1:
            raise ValueError("odd vector offset does not fit EXTRA2")
        e = 0b10 | ((spec >> 1) & 1)
    else:
        if spec > 1:
            raise ValueError("scalar register beyond 63 does not fit EXTRA2")
        e = spec
    return e << (7 - 2 * slot)


# --- register number extension (spec is the normalised 3-bit value) ----------

def ext_reg(value, spec, et=3):
    """GPR/FPR: (number 0..127, is_vector)."""
    if spec & 4:
        return (value << 2) | (spec & 3), True
    return ((spec & 3) << 5) | value, False


def ext_crf(value, spec, et=3):
    """CR field (3-bit BF/BFA): (field 0..127, is_vector).

    Vector, EXTRA3: ``value<<3 | s<<2`` -- the mapping libre-soc's assembler uses
    (golden file: ``sv.mcrf *4, *8`` has BFA=1 with spec 0b100); EXTRA2:
    ``value<<4 | b<<3``.  See docs/svp64.md (errata).
    """
    if spec & 4:
        if et == 2:
            return (value << 4) | ((spec & 3) << 2), True
        return (value << 3) | ((spec & 3) << 2), True
    return ((spec & 3) << 3) | value, False


def ext_crb(value, spec, et=3):
    """CR bit (5-bit BA/BT): (bit number 0..511 as 4*field+bit, is_vector)."""
    f, vec = ext_crf(value >> 2, spec, et)
    return (f << 2) | (value & 3), vec


EXTENDERS = {"gpr": ext_reg, "fpr": ext_reg, "crf": ext_crf, "crb": ext_crb}


# --- assembler direction: register number -> (field value, spec) -------------

def split_reg(n, vector, et=3):
    if not 0 <= n < 128:
        raise ValueError(f"register {n} outside 0..127")
    if vector:
        return n >> 2, 0b100 | (n & 3)
    return n & 31, n >> 5


def split_crf(n, vector, et=3):
    if not 0 <= n < 128:
        raise ValueError(f"CR field {n} outside 0..127")
    if vector and et == 2:
        if n % 8:
            raise ValueError(f"vector CR field {n} is not a multiple of 8 (EXTRA2)")
        return n >> 4, 0b100 | (((n >> 3) & 1) << 1)
    if vector:
        if n % 4:
            raise ValueError(f"vector CR field {n} is not a multiple of 4")
        if n >= 64:
            raise ValueError(f"vector CR field {n} beyond CR60 cannot be encoded")
        return n >> 3, 0b100 | ((n >> 2) & 1)
    if n >= 32:
        raise ValueError(f"scalar CR field {n} beyond CR31 cannot be encoded")
    return n & 7, n >> 3


def split_crb(n, vector, et=3):
    f, spec = split_crf(n >> 2, vector, et)
    return (f << 2) | (n & 3), spec


SPLITTERS = {"gpr": split_reg, "fpr": split_reg, "crf": split_crf, "crb": split_crb}


def check_class(cls, name):
    if cls not in EXTENDERS:
        raise Trap(f"EXTRA names {name}, which is not a register field", "illegal")


# --- reserved EXTRA bits ------------------------------------------------------------

def slot_mask(slot, et):
    """The bits of the 9-bit EXTRA field that slot ``slot`` occupies."""
    return (7 << (6 - 3 * slot)) if et == 3 else (3 << (7 - 2 * slot))


def reserved_extra(extra9, slots, et, claimed=0):
    """The bits of ``extra9`` set outside every used slot (and outside
    ``claimed``: bits a category or row gives another meaning).  They spell
    nothing: docs/svp64.md "Reserved EXTRA bits" says what becomes of them."""
    used = claimed
    for i, entries in enumerate(slots):
        if entries:
            used |= slot_mask(i, et)
    return extra9 & ~used & 0x1FF
