"""Instruction forms: named fields of the 32-bit word (MSB0 bit numbering).

A form declared ``form NAME 64`` is a v3.1 prefixed form: its fields number
the 8-byte instruction's bits 0:63, the prefix word first (0:31) and the
suffix word after it (32:63), and its values are ``prefix << 32 | suffix``.

Loaded from ``decoder/forms.txt``.  A field may be a concatenation of several bit
ranges.  Extraction and insertion are compiled to shift/mask lists once, so that
decoding an instruction costs a few integer operations per field.
"""
from .records import record, factory

from .errors import SpecError


@record(frozen=True)
class Field:
    name: str
    pieces: tuple  # ((first_bit, last_bit), ...) MSB0, most significant piece first
    size: int = 32  # the bits of the value it is taken from (64: a prefixed form)

    @property
    def width(self):
        return sum(b - a + 1 for a, b in self.pieces)

    @property
    def bits(self):
        """The set of MSB0 bit positions this field occupies."""
        return {i for a, b in self.pieces for i in range(a, b + 1)}

    def extract(self, word):
        value = 0
        for a, b in self.pieces:
            n = b - a + 1
            value = (value << n) | ((word >> (self.size - 1 - b)) & ((1 << n) - 1))
        return value

    def insert(self, word, value):
        """Return ``word`` with this field set to ``value`` (which must fit)."""
        shift = self.width
        for a, b in self.pieces:
            n = b - a + 1
            shift -= n
            piece = (value >> shift) & ((1 << n) - 1)
            mask = ((1 << n) - 1) << (self.size - 1 - b)
            word = (word & ~mask) | (piece << (self.size - 1 - b))
        return word

    def mask(self):
        m = 0
        for a, b in self.pieces:
            m |= ((1 << (b - a + 1)) - 1) << (self.size - 1 - b)
        return m


@record
class Form:
    name: str
    fields: dict = factory(dict)  # name -> Field
    where: str = ""
    size: int = 32  # 64: a prefixed form (prefix word bits 0:31, suffix 32:63)

    @property
    def prefixed(self):
        return self.size == 64

    def field(self, name):
        try:
            return self.fields[name]
        except KeyError:
            raise SpecError(f"form {self.name} has no field {name!r}") from None

    def covered_bits(self):
        bits = set()
        for f in self.fields.values():
            bits |= f.bits
        return bits


@record
class FormSet:
    forms: dict
    regclass: dict  # field name -> class ("gpr", "fpr", "crf", "crb")
    signed: set = factory(set)  # fields holding signed numbers
    scale: dict = factory(dict)  # field -> multiplier in assembly
    bias: dict = factory(dict)  # field -> assembly value minus field value
    svbias: dict = factory(dict)  # the bias under sv. (overrides bias)
    pcrel: set = factory(set)  # branch displacements (relative unless AA=1)
    swaphalves: set = factory(set)  # assembly value = field halves swapped
    signopt: set = factory(set)  # (mnemonic, field): either signedness
    even: set = factory(set)  # register-pair fields: assembly takes even only
    ignored: set = factory(set)  # bits no row reserves or matches (pnop's suffix)
    # a prefixed form's R bit -> its base register field: R=1 addresses from
    # CIA, and the base must then be 0 (forms.txt "relative R RA")
    relative: dict = factory(dict)
    # a group field -> (N, register fields): the group names registers
    # N*group .. N*group+N-1, which the listed fields must not name (an MMA
    # accumulator and its VSR operands: forms.txt "disjoint AT 4 XA XB")
    disjoint: dict = factory(dict)

    def overlap(self, used, fields):
        """(group field, register field) of the first register operand among
        ``used`` whose register (both of a pair) lies in a ``disjoint`` group's
        registers, given the field values ``fields``; else None."""
        for group, (n, names) in self.disjoint.items():
            if group not in used:
                continue
            first = n * fields[group]
            for name in names:
                if name in used:
                    regs = (fields[name], fields[name] + 1) if name in self.even else (fields[name],)
                    if any(first <= r < first + n for r in regs):
                        return group, name
        return None

    def __getitem__(self, name):
        try:
            return self.forms[name]
        except KeyError:
            raise SpecError(f"unknown form {name!r}") from None

    def __contains__(self, name):
        return name in self.forms

    def sv_bias(self, name):
        """The bias of field ``name`` in an ``sv.`` instruction: ``svbias`` when
        given, else the scalar ``bias``."""
        return self.svbias.get(name, self.bias.get(name, 0))


def _parse_bits(text, where, size=32):
    pieces = []
    for tok in text:
        try:
            if ":" in tok:
                a, b = (int(x) for x in tok.split(":"))
            else:
                a = b = int(tok)
        except ValueError:
            raise SpecError(f"bad bit range {tok!r}", where) from None
        if not (0 <= a <= b < size):
            raise SpecError(f"bit range {tok!r} outside 0:{size - 1}", where)
        pieces.append((a, b))
    return tuple(pieces)


# Operand attributes: "signed SI D ..." name fields; "scale DS 4" a field and a number.
_FIELD_SETS = ("signed", "pcrel", "swaphalves", "even", "ignored")
_FIELD_NUMBERS = ("scale", "bias", "svbias")


def parse_forms(text, filename="forms.txt"):
    forms, regclass = {}, {}
    sets = {name: set() for name in _FIELD_SETS}
    numbers = {name: {} for name in _FIELD_NUMBERS}
    signopt = set()
    relative = {}
    disjoint = {}
    current = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        where = f"{filename}:{lineno}"
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        words = line.split()
        if not raw[0].isspace():
            if words[0] == "regclass" and len(words) >= 3:
                for name in words[2:]:
                    regclass[name] = words[1]
                current = None
            elif words[0] in sets and len(words) >= 2:
                sets[words[0]].update(words[1:])
                current = None
            elif words[0] in numbers and len(words) == 3:
                try:
                    numbers[words[0]][words[1]] = int(words[2])
                except ValueError:
                    raise SpecError(f"{words[0]} {words[1]}: {words[2]!r} is not a number",
                                    where) from None
                current = None
            elif words[0] == "relative" and len(words) == 3:
                relative[words[1]] = words[2]
                current = None
            elif words[0] == "disjoint" and len(words) >= 4:
                try:
                    disjoint[words[1]] = (int(words[2]), tuple(words[3:]))
                except ValueError:
                    raise SpecError(f"disjoint {words[1]}: {words[2]!r} is not a number",
                                    where) from None
                current = None
            elif words[0] == "signopt" and len(words) == 3:
                signopt.add((words[1], words[2]))
                current = None
            elif words[0] == "form" and len(words) in (2, 3):
                if words[1] in forms:
                    raise SpecError(f"form {words[1]} defined twice", where)
                if words[2:] not in ([], ["64"]):
                    raise SpecError(f"form {words[1]}: a form's size is 64 (a prefixed "
                                    f"form) or not given (32), not {words[2]!r}", where)
                current = forms[words[1]] = Form(words[1], where=where,
                                                 size=64 if words[2:] else 32)
            else:
                raise SpecError(f"expected 'form NAME' or 'regclass CLASS FIELDS', got {line!r}", where)
        else:
            if current is None:
                raise SpecError("field line outside a form", where)
            if len(words) < 2:
                raise SpecError(f"field {words[0]!r} has no bits", where)
            if words[0] in current.fields:
                raise SpecError(f"field {words[0]} defined twice in form {current.name}", where)
            current.fields[words[0]] = Field(words[0], _parse_bits(words[1:], where, current.size),
                                             current.size)
    return FormSet(forms, regclass, **sets, **numbers, signopt=signopt, relative=relative,
                   disjoint=disjoint)
