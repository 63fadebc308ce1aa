"""The boxes of an instruction's encoding diagram, from its form and table row.

A form may give several names to the same bits (RT/RS/FRT); the diagram shows
the names this instruction uses: its constant (match) fields first, then its
operands and suffix flags.  Bits none of those covers are reserved: they must
be 0 (the decoder treats a word with one set as an invalid form) and are drawn
as "/", as the Power ISA books draw them; bits the instruction ignores
(forms.txt ``ignored``) are drawn as "ignored".
"""
from dataclasses import dataclass


@dataclass
class Box:
    first: int  # MSB0 bit numbers, inclusive
    last: int
    label: str
    field: str = None  # the field name, None for unnamed bits
    value: int = None  # set for the instruction's constant fields

    @property
    def width(self):
        return self.last - self.first + 1

    @property
    def value_bits(self):
        return None if self.value is None else format(self.value, f"0{self.width}b")


def encoding_boxes(row, used=()):
    """Boxes in bit order for a table row; ``used`` are extra field names worth
    showing (the fields its pseudocode reads), in preference order."""
    form = row.form
    wanted = list(row.match) + row.fields_used + list(row.suffix) + list(used)
    taken, chosen = set(), []
    for name in wanted:
        field = form.fields.get(name)
        if field is None or name in chosen or field.bits & taken:
            continue
        chosen.append(name)
        taken |= field.bits
    boxes = []
    for name in chosen:
        field = form.fields[name]
        remaining = field.width
        for first, last in field.pieces:
            n = last - first + 1
            remaining -= n
            label = name
            if len(field.pieces) > 1:  # which bits of the field value this piece holds
                lo, hi = field.width - remaining - n, field.width - remaining - 1
                label = f"{name}[{lo}]" if lo == hi else f"{name}[{lo}:{hi}]"
            value = None
            if name in row.match:
                value = (row.match[name] >> remaining) & ((1 << n) - 1)
            boxes.append(Box(first, last, label, name, value))
    free = [b for b in range(form.size) if b not in taken]
    reserved = [b for b in free if row.reserved_mask >> (form.size - 1 - b) & 1]
    for first, last in _runs(reserved):
        boxes.append(Box(first, last, "/"))
    # bits the instruction ignores (forms.txt "ignored": pnop's suffix)
    for first, last in _runs([b for b in free if b not in reserved]):
        boxes.append(Box(first, last, "ignored"))
    return sorted(boxes, key=lambda b: b.first)


def _runs(bits):
    runs, start = [], None
    for i, b in enumerate(bits):
        if start is None:
            start = b
        if i + 1 == len(bits) or bits[i + 1] != b + 1:
            runs.append((start, b))
            start = None
    return runs
