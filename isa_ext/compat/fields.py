"""Instruction-form fields as openpower-isa's ``openpower/isatables/fields.text``
draws them: one ASCII table per form, a header of bit numbers and one row per
layout::

    # V3.0B 1.6.6 DX-FORM
        |0    |6   |11   |16   |26   |31
        | PO  |  RT|   d1|   d0|   XO|d2

A row's cell starts at the header bit whose ``|`` it lines up with and runs to
the next cell; a name in several cells of a row is their concatenation, first
cell most significant.  Names like ``///`` (reserved) are skipped.

A table draws the word in bit order, so a field of several pieces is
concatenated in the order the file's "Instruction Fields" section gives it
(``sh (30,16:20)``: sh5 || sh0:4) when that section defines the same bits.
"""
import re

from ..errors import SpecError

_HEADER = re.compile(r"^#.*?\b([A-Z0-9]+)-FORM\s*$")
_RESERVED = re.compile(r"^/*$")
# "    sh (30,16:20)" or "    d0,d1,d2 (16:25,11:15,31)": one piece per name
_DEFINITION = re.compile(r"^    ([A-Za-z_][\w,]*) \(([\d:, ]+)\)\s*$")


def _definitions(text):
    """{name: [pieces, ...]}: the Instruction Fields section's definitions."""
    defs = {}
    for line in text.splitlines():
        m = _DEFINITION.match(line)
        if not m:
            continue
        ranges = [tuple(int(x) for x in r.split(":")) for r in m.group(2).split(",")]
        ranges = [(r[0], r[-1]) for r in ranges]
        names = m.group(1).split(",")
        if len(names) == 1:
            defs.setdefault(names[0], []).append(tuple(ranges))
        elif len(names) == len(ranges):
            for name, r in zip(names, ranges):
                defs.setdefault(name, []).append((r,))
    return defs


def _bits(pieces):
    return {b for a, z in pieces for b in range(a, z + 1)}


def _ordered(name, pieces, defs):
    """``pieces`` in the concatenation order a definition of the same bits gives."""
    for d in defs.get(name, ()):
        if _bits(d) == _bits(pieces):
            return d
    return pieces


def parse_fields_text(text, where="fields.text"):
    """{form name: {field name: ((first, last), ...)}}: every field some row
    of the form's table draws with one consistent layout (a name drawn two
    ways in one form is left out: its meaning depends on the instruction)."""
    forms = {}
    form, header, lineno = None, None, 0
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m:
            form, header = m.group(1), None
            forms.setdefault(form, {})
            continue
        if form is None or "|" not in line:
            continue
        if header is None:
            header = _header_bits(line)
            if not header:
                raise SpecError("a form table's first row must number its bits",
                                f"{where}:{lineno}")
            continue
        _add_row(forms[form], header, line)
    defs = _definitions(text)
    return {name: {f: _ordered(f, p, defs) for f, p in fields.items() if p is not None}
            for name, fields in forms.items()}


def _header_bits(line):
    """[(column of '|', bit number)] of a header row ("|0 |6 |27    31|");
    a '|' with no number after it closes bit 31 (bit "32")."""
    out = []
    for m in re.finditer(r"\|\s*(\d*)", line):
        out.append((m.start(), int(m.group(1)) if m.group(1) else 32))
    return out


def _bit_at(header, column):
    """The header bit whose '|' is nearest ``column``."""
    return min(header, key=lambda h: abs(h[0] - column))[1]


def _add_row(fields, header, line):
    pipes = [i for i, c in enumerate(line) if c == "|"]
    row = {}
    for a, b in zip(pipes, pipes[1:] + [None]):
        name = line[a + 1:b].strip() if b is not None else line[a + 1:].strip()
        if not name or _RESERVED.match(name) or not re.match(r"^[A-Za-z_]\w*$", name):
            continue
        first = _bit_at(header, a)
        last = 31 if b is None else _bit_at(header, b) - 1
        if not first <= last <= 31:
            continue
        row.setdefault(name, []).append((first, last))
    for name, pieces in row.items():
        pieces = tuple(pieces)
        if fields.get(name, pieces) != pieces:
            fields[name] = None  # drawn two ways: ambiguous
        elif name not in fields:
            fields[name] = pieces
