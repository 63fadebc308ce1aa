"""Encode an instruction word from a table row and field values.

Shared by the assembler and by tests that build words directly.  Values are the
numbers a field holds (a DS-form displacement of 8 is DS=2); signed fields
accept negative numbers within their range.
"""
from .errors import IsaExtError


class EncodeError(IsaExtError):
    pass


def field_range(formset, name, width):
    if name in formset.signed:
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def encode_row(formset, row, values, flags=None):
    """The 32-bit word for ``row`` with ``values`` {field: int} and suffix ``flags``."""
    word = row.value
    allv = dict(flags or {})
    allv.update(values)
    for name, v in allv.items():
        f = row.form.fields.get(name)
        if f is None:
            raise EncodeError(f"{row.mnemonic}: form {row.form.name} has no field {name}")
        lo, hi = field_range(formset, name, f.width)
        if not (lo <= v <= hi):
            raise EncodeError(f"{row.mnemonic}: {name}={v} out of range {lo}..{hi}")
        word = f.insert(word, v & ((1 << f.width) - 1))
    for m, v in row.excludes:
        if word & m == v:
            owned = ", ".join(f"{name}={allv[name]}" for name, f in row.form.fields.items()
                              if f.mask() & m and name in allv)
            raise EncodeError(f"{row.mnemonic}: {owned} is not {row.mnemonic} "
                              f"(that encoding belongs to another instruction)")
    return word


def encode(isa, mnemonic, **values):
    """``encode(isa, "addo.", RT=3, RA=4, RB=5)`` -> instruction word."""
    entry = isa.by_mnemonic.get(mnemonic)
    if entry is None:
        raise EncodeError(f"unknown mnemonic {mnemonic!r}")
    row, flags = entry
    return encode_row(isa.forms, row, values, flags)


def is_svp64_prefix(word):
    """An SVP64 prefix: primary opcode 1 with MSB0 bits 7 and 9 set (LSB0 bits
    24 and 22).  Such a word and the one after it form one 8-byte instruction."""
    return word >> 26 == 1 and (word >> 22) & 0x5 == 0x5
