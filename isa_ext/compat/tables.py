"""Decoder rows from openpower-isa's own opcode tables
(``openpower/isatables/major.csv`` and ``minor_*.csv``), for the instructions
an openpower-isa checkout's pages define and isa_ext's tables do not (its
users' own instructions included), so that ``ISA(page_source=read(PATH))`` (:mod:`.root`) can
assemble, decode and run them.

Each minor table keys on a range of the instruction word that openpower-isa
gives in code, not in the table (``power_decoder.py``, ``Subdecoder(pattern=PO,
bitsel=(lo, hi))``, LSB0, hi exclusive): :data:`MINOR_BITS` copies those facts.
An opcode is a bit pattern over that range (``0b0100001010``, ``010-`` with
``-`` for a bit not decoded) or a number.  The operands come from the page's
syntax line, the form (by name) from isa_ext's ``decoder/forms.txt``.
A row is SVP64-capable when the checkout's SVP64 tables (``RM-*.csv``,
``LDSTRM-*.csv``: one row per instruction, its RM category the file's name
and its EXTRA slots the columns 0..3) list it under a category isa_ext
implements; of several rows for one instruction (``CONDITIONS``) the first
unconditional one counts.
"""
import csv
import io
import os

from ..spec.mnemonics import PRIVILEGED
from ..tables import InsnSpec, SUFFIX_CHARS, parse_operands, _variants

TABLES = os.path.join("openpower", "isatables")
# primary opcode -> (lo, hi): the LSB0 bit range its minor table keys on
MINOR_BITS = {19: (1, 11), 30: (1, 5), 31: (1, 11), 58: (0, 2), 62: (0, 2), 22: (0, 11),
              5: (0, 11), 4: (0, 6), 59: (1, 11), 63: (1, 11)}
# register columns (in1 in2 in3 out) -> isa_ext's in/out names
_REGS = {"RA": "RA", "RB": "RB", "RC": "RC", "RS": "RS", "RT": "RT", "RA_OR_ZERO": "RA0",
         "FRA": "FRA", "FRB": "FRB", "FRC": "FRC", "FRS": "FRS", "FRT": "FRT"}


def _pattern(text, lo, hi):
    """(mask, value) in the 32-bit word of an opcode over LSB0 bits [lo, hi)."""
    width = hi - lo
    t = text.strip().lower()
    bits = t[2:] if t.startswith("0b") else t
    if not (set(bits) <= set("01-") and len(bits) == width):
        bits = format(int(t, 0), f"0{width}b")
    mask = value = 0
    for k, c in enumerate(bits):
        pos = hi - 1 - k  # LSB0 bit of the word
        if c != "-":
            mask |= 1 << pos
            value |= int(c) << pos
    return mask, value


def _table_rows(root):
    """(primary opcode, mask, value, csv row) of every major/minor table row."""
    folder = os.path.join(root, TABLES)
    out = []
    for po, name in [(None, "major.csv")] + [(p, f"minor_{p}.csv") for p in MINOR_BITS]:
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            lines = [l for l in f if not l.startswith("#")]
        for rec in csv.DictReader(io.StringIO("".join(lines))):
            if not rec.get("comment") or not rec.get("opcode"):
                continue
            if po is None:
                mask, value = 0xFC000000, int(rec["opcode"], 0) << 26
            else:
                m, v = _pattern(rec["opcode"], *MINOR_BITS[po])
                mask, value = 0xFC000000 | m, (po << 26) | v
            out.append((po, mask, value, rec))
    return out


def _rm_rows(root, categories):
    """{mnemonic: (RM category, EXTRA slots)} from the checkout's SVP64 tables,
    for the categories the ISA has."""
    folder = os.path.join(root, TABLES)
    out = {}
    for fname in sorted(os.listdir(folder)):
        cat = fname[:-len(".csv")] if fname.endswith(".csv") else None
        if cat not in categories:
            continue
        with open(os.path.join(folder, fname), encoding="utf-8") as f:
            for rec in csv.DictReader(f):
                insn = (rec.get("insn") or "").strip()
                if insn and not (rec.get("CONDITIONS") or "").strip():
                    slots = ((rec.get(k) or "0").strip() for k in "0123")
                    out.setdefault(insn, (cat, tuple("-" if s == "0" else s for s in slots)))
    return out


def rows_for(op, forms, have, existing, categories):
    """isa_ext rows (InsnSpec) for the pages of ``op`` (an OpenpowerPages)
    whose mnemonics ``have`` lacks, from the checkout's tables; each skipped
    one goes to ``op.table_skips`` with the reason."""
    from .root import form_for
    pages = {}
    for page in op.pages:
        for syn in page.syntaxes:
            pages.setdefault(syn[0], (page, syn))
    out, cache = [], {}
    rm = _rm_rows(op.root, categories)
    for po, mask, value, rec in _table_rows(op.root):
        name = rec["comment"].strip()
        if name in have or name not in pages:
            continue
        page, syn = pages[name]
        if PRIVILEGED.match(name):
            op.table_skips[name] = "privileged: isa_ext models user mode only"
            continue
        why = _add_row(out, name, page, syn, rec, mask, value, forms, existing + out,
                       op, form_for, cache, rm.get(name.rstrip(".")))
        if why:
            op.table_skips[name] = why
    return out


def _add_row(out, name, page, syn, rec, mask, value, forms, others, op, form_for, cache,
             rm=None):
    form = forms.forms.get(rec.get("form", "").strip()) or forms.forms.get(page.form)
    if form is None:
        return f"form {rec.get('form')!r} is not in isa_ext's decoder/forms.txt"
    form = form_for(op, form, page, cache)
    try:
        operands = parse_operands(syn[1], f"{page.filename}:{page.line}")
    except Exception as e:  # a syntax line isa_ext's operand notation cannot read
        return f"operands {syn[1]!r}: {e}"
    suffix = tuple(f for f in syn[2] if f in SUFFIX_CHARS and f in form.fields)
    names = [o.field for o in operands] + [o.base for o in operands if o.base]
    missing = [n for n in names if n not in form.fields]
    if missing:
        return f"operands {missing} are not fields of form {form.name}"
    for f in suffix:  # the variant flags are not part of the opcode pattern
        mask &= ~form.fields[f].mask()
        value &= ~form.fields[f].mask()
    for o in others:
        if o.form.size != form.size:
            continue  # (a v3.1 prefixed row is 8 bytes: never this 32-bit word)
        if (o.value ^ value) & o.mask & mask == 0:
            return f"its encoding overlaps {o.mnemonic}'s"
    ins = [_REGS[rec[c]] for c in ("in1", "in2", "in3") if rec.get(c) in _REGS]
    outs = [_REGS[rec["out"]]] if rec.get("out") in _REGS else []
    if rec.get("ldst len", "NONE") not in ("NONE", ""):
        (outs if rec.get("internal op") == "OP_STORE" else ins).append("MEM")
    rc = ""
    if rec.get("rc", "NONE") != "NONE" and rec.get("CR out") in ("CR0", "CR1"):
        rc = rec["CR out"]
    used = mask
    for n in set(names) | set(suffix):
        used |= form.fields[n].mask()
    spec = InsnSpec(mnemonic=name, form=form, match={"PO": value >> 26}, operands=operands,
                    suffix=suffix,
                    ins=tuple(ins), outs=tuple(outs), rc=rc,
                    sv=rm[0] if rm else "", extra=rm[1] if rm else (),
                    extension="openpower", where=f"{TABLES}/{name}")
    spec.reserved_mask = 0xFFFFFFFF & ~used
    spec.mask, spec.value = mask | spec.reserved_mask, value
    spec.variants = _variants(name, suffix)
    out.append(spec)
    return None
