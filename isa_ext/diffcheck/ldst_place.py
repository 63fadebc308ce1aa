"""SVP64 loads and stores for the live differential: every access in one
data region.

A random LD/ST line (:mod:`.svp64_lines`) names random registers and a random
displacement; run as drawn, its addresses are wherever the random register
values point.  This module makes them land in :data:`REGION` (both
simulators start it from the same random words, and its final contents are
compared): it redraws the displacement small and aligned, and gives the
address registers (RA, the elements of a vector RA, RB's elements at
ELWIDTH_SRC) values near the region's middle, small enough that no VL,
SUBVL, element stride, post-increment or compounding update (an update
form's RA re-read by the next element: ldst.mdwn op_load) leaves it.

Every access is naturally aligned (pointers aligned to 16, offsets multiples
of the access width): libre-soc's simulator raises an alignment interrupt on any
misaligned load (mem.py ``ld``), which the ISA allows an implementation to do.
"""
import re
import struct

from .svp64_lines import sv_rows

REGION_BASE = 0x10000
REGION_SIZE = 0x2000
REGION_WORDS = REGION_SIZE // 8
_MIDDLE = REGION_BASE + REGION_SIZE // 2
_HALF = REGION_SIZE // 2 - 64          # margin for the last access's width
_POINTER_SPREAD = 256                  # pointers within +-this of the middle
# registers the campaign's predicates name (svp64_lines._INT_PREDS): an
# address there would change the mask, or the mask the address
_MASK_REGISTERS = {3, 10, 30}

_LINE = re.compile(r"^sv\.(?P<mnemonic>[a-z0-9.]+)(?P<mods>(?:/[^\s/]+)*) (?P<ops>.*)$")
_DISPLACEMENT = re.compile(r"^(?P<d>-?\d+)\((?P<ra>\*?\d+)\)$")


def is_ldst_row(row):
    return row.sv.startswith("LDST")


def ldst_mnemonics(isa):
    return {v for r in sv_rows(isa) if is_ldst_row(r) for v in r.variants}


def access_width(mnemonic):
    """Bytes of one element's memory access, from the mnemonic (Book I's
    names: b h w d q, fs fd single/double, fiw the integer word)."""
    stem = re.sub(r"^(l|st)", "", mnemonic)
    if stem.startswith("fs"):
        return 4
    if stem.startswith("fd"):
        return 8
    if stem.startswith("fiw"):
        return 4
    return {"b": 1, "h": 2, "w": 4, "d": 8, "q": 16}[stem[0]]


class Line:
    """One parsed LD/ST line: its row, operands and modifiers."""

    def __init__(self, isa, text, rows_by_name):
        m = _LINE.match(text)
        self.text = text
        self.mnemonic = m["mnemonic"]
        self.row = rows_by_name[self.mnemonic]
        self.mods = [x for x in m["mods"].split("/") if x]
        self.ops = m["ops"].split(", ")
        self.width = access_width(self.mnemonic)
        self.subvl = _subvl(self.mods)
        self.els = "els" in self.mods
        self.pi = "pi" in self.mods
        widths = dict(x.split("=") for x in self.mods if re.fullmatch(r"[sd]?w=\d+", x))
        self.sw = int(widths.get("sw", widths.get("w", 64)))
        self.dw = int(widths.get("dw", widths.get("w", 64)))
        self.store = self.mnemonic.startswith("st")
        # field -> (number, vector); (operand index, field) of D/DS/DQ
        self.regs, self.displacement = _registers(isa, self.row, self.ops)

    def scale(self, isa):
        return isa.forms.scale.get(self.displacement[1], 1) if self.displacement else 1

    def _span(self, field, n, width=64):
        num, vector = self.regs[field]
        count = -(-n * width // 64) if vector else 1
        return set(range(num, num + max(count, 1)))

    def address_registers(self, n):
        """The GPRs holding this line's addresses over ``n`` elements: RA's
        (each element of a vector RA) and RB's."""
        out = self._span("RA", n)
        return out | self._span("RB", n) if "RB" in self.regs else out

    def usable(self, isa, n):
        """Whether the registers leave the addresses alone for ``n``
        elements: RA not r0 (RA-or-zero) nor a mask register, and the address
        registers overlapping no other register operand."""
        if "RA" not in self.regs:
            return False
        # a memory-side element width (ELWIDTH_SRC of a load, ELWIDTH of a
        # store) narrower than the access is UNDEFINED (ldst.mdwn): isa_ext
        # traps (tests/svp64/test_svp64_ldst.py), nothing to compare
        memory_width = self.dw if self.store else self.sw
        if memory_width < 64 and memory_width < 8 * self.width:
            return False
        ra = self._span("RA", n)
        addr = set(ra)
        if 0 in ra:
            return False
        if "RB" in self.regs:
            rb = self._span("RB", n)
            if ra & rb:
                return False
            addr |= rb
        if addr & _MASK_REGISTERS:
            return False
        for field in self.regs:
            if field in ("RA", "RB") or isa.forms.regclass.get(field.rstrip("p")) != "gpr":
                continue
            pair = 2 if field.endswith("p") else 1
            if self._span(field, n * pair) & addr:
                return False
        return True


def _subvl(mods):
    """SUBVL of a line's modifiers (``vec2`` ... ``vec4``; 1 without)."""
    return next((int(x[3]) for x in mods if re.fullmatch(r"vec[234]", x)), 1)


def _reg(text):
    return int(text.lstrip("*")), text.startswith("*")


def _registers(isa, row, ops):
    """({field: (number, vector)} of the GPR and FPR operands, the
    (operand index, field) of a D/DS/DQ displacement or None)."""
    regs, displacement = {}, None
    for k, (op, text) in enumerate(zip(row.operands, ops)):
        if op.base:
            displacement = (k, op.field)
            regs[op.base] = _reg(_DISPLACEMENT.match(text)["ra"])
        elif isa.forms.regclass.get(op.field) in ("gpr", "fpr"):
            regs[op.field] = _reg(text)
    return regs, displacement


def gpr_footprint(isa, text, vl, rows_by_name):
    """Every GPR an SVP64 line (any row of ``rows_by_name``) may read or
    write over ``vl`` elements: a vector operand's VL * SUBVL registers on
    (as many again for a register pair), more than a narrower element width
    takes, so an upper bound."""
    m = _LINE.match(text)
    if not m or m["mnemonic"] not in rows_by_name:
        return set()
    row = rows_by_name[m["mnemonic"]]
    subvl = _subvl(m["mods"].split("/"))
    regs, _ = _registers(isa, row, m["ops"].split(", "))
    out = set()
    for field, (num, vector) in regs.items():
        if field in ("RA", "RB") or isa.forms.regclass.get(field.rstrip("p")) == "gpr":
            pair = 2 if field.endswith("p") else 1
            out.update(range(num, num + pair * (vl * subvl if vector else 1)))
    return out


def _excursion(line, n, step, reach=None):
    """How far from its start an address can move over ``n`` elements when
    the displacement (and RB's elements) are at most ``step`` bytes: each
    element at most ``step`` plus its unit-stride (or element-stride)
    offset, which an update form compounds (RA re-read each element).
    ``reach``: under REMAP, each element's offset index is any below it
    (not the element's own step)."""
    per = max(line.width, step)
    strides = n * (n - 1) // 2 if reach is None else n * (reach - 1)
    return n * step + per * strides + _POINTER_SPREAD + line.width


def fitting_vl(line, vl):
    """The largest VL <= ``vl`` whose accesses stay in the region."""
    while vl > 1 and _excursion(line, vl * line.subvl, 0) > _HALF:
        vl -= 1
    return vl


#: under REMAP the element indices the generator's shapes reach (the
#: openpower-isa differential's _random_shape: Matrix VL <= 8, the others
#: x * z <= 8): a remapped offset or vector register element is any below it
REMAP_REACH = 8


def fits_remapped(line):
    """Whether ``line``'s accesses stay in the region under REMAP, any of
    its REMAP_REACH elements' offsets at any of them."""
    return _excursion(line, REMAP_REACH * line.subvl, 0, REMAP_REACH) <= _HALF


def place(isa, line, n, rng, reach=None):
    """(new line text, {GPR: value, ("fpr", FPR): value}) putting every access of ``line`` over
    ``n`` elements in the region: the displacement redrawn as a multiple of
    the access width (and of its field's scale) at most the largest step that
    keeps the excursion within half the region, the address registers given
    pointers near the middle (RA, each element of a vector RA) and RB's
    elements (at ELWIDTH_SRC, packed as the register file holds them)
    offsets of at most that step, non-negative below 64 bits (read
    zero-extended).  ``reach`` (under REMAP): the offsets and vector
    register elements may be any below it, so that many are placed."""
    unit = max(line.width, line.scale(isa))
    step = 0
    if reach is not None:
        n = max(n, reach)
    while step + unit <= 64 and _excursion(line, n, step + unit, reach) <= _HALF:
        step += unit
    ops = list(line.ops)
    if line.displacement:
        k, _field = line.displacement
        # (DS and DQ forms: not negative, which libre-soc's simulator
        # mishandles: the openpower-isa differential's _LDST_LEFT_OUT)
        low = 0 if line.scale(isa) > 1 else -(step // unit)
        d = rng.randint(low, step // unit) * unit if step else 0
        ops[k] = re.sub(r"^-?\d+", str(d), ops[k])
    values = {}
    ra, ra_vector = line.regs["RA"]
    for i in range(n if ra_vector else 1):
        values[ra + i] = _MIDDLE + 16 * rng.randint(-_POINTER_SPREAD // 16,
                                                    _POINTER_SPREAD // 16)
    if "RB" in line.regs:
        rb, rb_vector = line.regs["RB"]
        ew = line.sw
        top = step // unit
        for i in range(n if rb_vector else 1):
            lo = -top if ew == 64 else 0
            off = rng.randint(lo, top) * unit
            reg, pos = rb + i * ew // 64, (i * ew) % 64
            old = values.get(reg, 0)
            mask = ((1 << ew) - 1) << pos
            values[reg] = (old & ~mask) | ((off & ((1 << ew) - 1)) << pos)
    if line.mnemonic.startswith("stfs"):
        # the FPRs a single-precision store reads hold single values: Book I
        # leaves the stored word undefined for a double whose exponent is
        # below single's denormal range (4.6.3), and random doubles often are
        fr, fr_vector = line.regs["FRS"]
        for i in range(n if fr_vector else 1):
            values[("fpr", fr + i)] = _single_as_double(rng)
    mods = "".join("/" + x for x in line.mods)
    return f"sv.{line.mnemonic}{mods} {', '.join(ops)}", values


def _single_as_double(rng):
    """The double bit pattern of a random finite single-precision value."""
    bits = rng.getrandbits(32)
    if (bits >> 23) & 0xFF == 0xFF:
        bits ^= 1 << 30  # an infinity or NaN exponent made finite
    single = struct.unpack("<f", bits.to_bytes(4, "little"))[0]
    return int.from_bytes(struct.pack("<d", single), "little")


def random_memory(rng):
    """The region's initial doublewords: zeros, all ones, small numbers and
    random bytes with some zero bytes (so that fail-first's tests of loaded
    bytes and halfwords both pass and fail)."""
    def word():
        kind = rng.random()
        if kind < 0.15:
            return 0
        if kind < 0.2:
            return (1 << 64) - 1
        if kind < 0.3:
            return rng.getrandbits(8)
        return int.from_bytes(bytes(0 if rng.random() < 0.3 else rng.getrandbits(8)
                                    for _ in range(8)), "little")
    return [word() for _ in range(REGION_WORDS)]
