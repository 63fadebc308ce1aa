"""The primary opcode 22 (sandbox) map: who holds which 11-bit key
(instruction bits 21..31), ours and openpower-isa's draft rows, and what is free."""
from dataclasses import dataclass

from .. import specdata

SANDBOX_PO = 22
KEY_FIRST, KEY_LAST = 21, 31
KEY_BITS = KEY_LAST - KEY_FIRST + 1


@dataclass
class Allocation:
    key: str  # KEY_BITS characters of 0, 1 or "-"
    name: str
    form: str
    owner: str  # an extension name, or "openpower-isa"
    where: str = ""
    excludes: tuple = ()  # key patterns the row leaves to another row (FIELD!=...)

    def matches(self, value):
        return _key_matches(self.key, value) and not any(
            _key_matches(x, value) for x in self.excludes)

    def intersects(self, other):
        return any(self.matches(v) and other.matches(v) for v in _key_values(self.key))


def _key_matches(key, value):
    for i, c in enumerate(key):
        bit = (value >> (KEY_BITS - 1 - i)) & 1
        if c != "-" and int(c) != bit:
            return False
    return True


def _key_values(key):
    """Every key value a pattern matches."""
    values = [0]
    for c in key:
        values = [v << 1 | b for v in values for b in ((0, 1) if c == "-" else (int(c),))]
    return values


def load_reference():
    """openpower-isa's own PO22 rows (``isa_ext/spec/openpower_po22.txt``)."""
    where, text = specdata.package_text(__package__, "openpower_po22.txt")
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].split()
        if len(line) >= 3:
            out.append(Allocation(line[0], line[1], line[2], "openpower-isa",
                                  f"{where}:{lineno}"))
    return out


def row_key(row, mask=None, value=None):
    """A table row's key pattern over bits 21..31 (from its fixed fields, or
    from another mask/value pair such as one of its exclusions)."""
    mask = row.mask if mask is None else mask
    value = row.value if value is None else value
    chars = []
    for bit in range(KEY_FIRST, KEY_LAST + 1):
        shift = 31 - bit
        chars.append(str((value >> shift) & 1) if (mask >> shift) & 1 else "-")
    return "".join(chars)


def allocations(isa, reference=None):
    ours = [Allocation(row_key(r), r.mnemonic, r.form.name, r.extension, r.where,
                       tuple(row_key(r, m, v) for m, v in r.excludes))
            for r in isa.rows if r.match.get("PO") == SANDBOX_PO]
    return ours + (load_reference() if reference is None else reference)


def collisions(allocs):
    """Pairs of allocations with different owners whose keys share a value.  The
    same mnemonic on both sides is openpower-isa's instruction implemented here
    (setvl, svstep), not a clash."""
    return [(a, b) for i, a in enumerate(allocs) for b in allocs[i + 1:]
            if a.owner != b.owner and a.name != b.name and a.intersects(b)]


def owners_by_key(allocs):
    """[list of allocations] for each of the 2**11 key values."""
    return [[a for a in allocs if a.matches(v)] for v in range(1 << KEY_BITS)]


def free_patterns(owners):
    """The unallocated keys as a short list of disjoint patterns.  Keys are
    split from the least significant bit up: sandbox rows fix their extended
    opcode in the low bits and leave operand bits above it free."""
    out = []

    def walk(fixed, values):
        # fixed: {bit index in key: value}; values: key values matching it
        if not any(owners[v] for v in values):
            out.append("".join(str(fixed[i]) if i in fixed else "-" for i in range(KEY_BITS)))
            return
        if all(owners[v] for v in values):
            return
        i = max(i for i in range(KEY_BITS) if i not in fixed)
        for b in (0, 1):
            walk({**fixed, i: b}, [v for v in values if (v >> (KEY_BITS - 1 - i)) & 1 == b])

    walk({}, list(range(1 << KEY_BITS)))
    return sorted(out, key=lambda p: (p.count("-") * -1, p))
