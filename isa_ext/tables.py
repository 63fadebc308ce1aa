"""Decoder tables: one CSV row per instruction, the single source of truth for the
decoder, the assembler, the disassembler and the generated docs.

Columns (``decoder/<extension>/*.csv``)::

    mnemonic  base mnemonic (``add``); variants come from the suffix flags
    form      instruction form (``decoder/forms.txt``)
    match     fixed field values, ``PO=31 XO=266`` (decimal, 0x.. or 0b..)
    syntax    assembly operands in order, ``RT,RA,RB`` or ``RT,D(RA)``
    suffix    flag fields that make mnemonic variants: OE -> "o", Rc -> ".",
              LK -> "l", AA -> "a"  (GNU order: add, addo, add., addo.; b, bl, ba, bla)
    in        registers read (``RA0`` is "(RA|0)"; CR, XER bits, LR, CTR, MEM);
              ``FRB+MAXVL``: under SVP64 a vector FRB that REMAP does not map
              reads its elements MAXVL elements on (the second half of a
              butterfly's data)
    out       registers written; ``FRS=FRT+MAXVL`` names an *implicit* register
              operand (no bits of its own, not in the syntax): register FRT+1
              in a scalar instruction; under SVP64 FRT's vector MAXVL elements
              on when FRT is a vector (or, with REMAP on the EA/FRS slot, the
              element that slot's schedule gives), FRT+1 when it is scalar.
              ``RS=RC+MAXVL:0`` gives the scalar offset (default 1): RS is
              RC itself when RC is scalar (the bigint carry register)
    rc        with Rc=1, which CR field records the result: CR0 (integer) or CR1 (FP)
    sv        SVP64 RM category (``RM-1P-2S1D``); empty: not SVP64-capable
    extra     SVP64 EXTRA slots, space-separated, each ``d:RT;d:CR0`` / ``s:RA`` / ``-``
    optype    optional: operands with their own assembly notation, ``imm:swizzle``
              (the type is registered in ``ISA.operand_types`` by an extension)
"""
from .records import record, factory

from .errors import SpecError

SUFFIX_CHARS = {"OE": "o", "Rc": ".", "LK": "l", "AA": "a"}
# the order in which GNU as spells suffixes
SUFFIX_ORDER = ("OE", "Rc", "LK", "AA")


@record
class Operand:
    """One assembly operand: a field, or ``D(RA)`` displacement-with-base.
    ``[BH]`` in the syntax column marks a trailing operand that may be left
    out (its field is then 0), as GNU as allows for ``bclr BO,BI``."""
    field: str
    base: str = None  # for "D(RA)": the base register field
    optional: bool = False

    def __str__(self):
        return f"{self.field}({self.base})" if self.base else self.field


@record
class InsnSpec:
    mnemonic: str
    form: object  # forms.Form
    match: dict
    operands: list
    suffix: tuple
    ins: tuple
    outs: tuple
    rc: str
    sv: str
    extra: tuple
    extension: str
    where: str
    mask: int = 0
    value: int = 0
    reserved_mask: int = 0  # bits that must be 0 (part of mask)
    # (mask, value) word patterns the row does not decode even though they match
    # mask/value: match items FIELD!=PATTERN (another row owns those words)
    excludes: tuple = ()
    page: object = None  # pseudocode.pages.Page, attached by the ISA loader
    variants: dict = factory(dict)  # mnemonic -> {flag: value}
    optypes: dict = factory(dict)  # field -> operand type name
    # implicit register operands: name -> the field it follows ("FRS=FRT+MAXVL")
    implicit: dict = factory(dict)
    # ... and name -> its offset from that field when the field is scalar
    # ("RS=RC+MAXVL:0"; 1 when not given)
    implicit_scalar_offset: dict = factory(dict)
    # sources a vector of which reads MAXVL further on under SVP64 ("FRB+MAXVL")
    maxvl_sources: tuple = ()

    @property
    def required_operands(self):
        return sum(1 for o in self.operands if not o.optional)

    @property
    def fields_used(self):
        names = []
        for op in self.operands:
            names.append(op.field)
            if op.base:
                names.append(op.base)
        return names

    def flags_of(self, word):
        return {f: self.form.fields[f].extract(word) for f in self.suffix}

    def records_cr(self, fields):
        """Does the word with these field values record the ``rc`` column's CR
        field: its Rc bit set, or always when the form has no Rc bit (andi.,
        addic.: the pages record CR0 unconditionally)."""
        return self.rc in ("CR0", "CR1") and bool(
            fields.get("Rc", 1) if "Rc" in self.form.fields else 1)

    def mnemonic_for(self, flags):
        return self.mnemonic + "".join(
            SUFFIX_CHARS[f] for f in SUFFIX_ORDER if f in self.suffix and flags.get(f))


def _parse_int(text):
    return int(text.replace("_", ""), 0)


def _variants(mnemonic, suffix):
    out = {}
    flags = [f for f in SUFFIX_ORDER if f in suffix]
    for n in range(1 << len(flags)):
        values = {f: (n >> i) & 1 for i, f in enumerate(flags)}
        name = mnemonic + "".join(SUFFIX_CHARS[f] for f in flags if values[f])
        out[name] = values
    return out


def parse_operands(text, where):
    ops = []
    if not text.strip():
        return ops
    for tok in text.split(","):
        tok = tok.strip()
        if tok.startswith("[") and tok.endswith("]"):
            ops.append(Operand(tok[1:-1].strip(), optional=True))
            continue
        if ops and ops[-1].optional:
            raise SpecError(f"operand {tok!r} follows an optional one", where)
        if "(" in tok:
            if not tok.endswith(")"):
                raise SpecError(f"bad operand {tok!r}", where)
            disp, base = tok[:-1].split("(", 1)
            ops.append(Operand(disp.strip(), base.strip()))
        else:
            ops.append(Operand(tok))
    return ops


def parse_table(text, forms, extension, filename):
    rows = []
    lines = [l for l in text.splitlines()]
    import csv   # (parsing: a run with the tables cached imports neither)
    import io
    reader = csv.reader(io.StringIO("\n".join(lines)))
    header = None
    for lineno, rec in enumerate(reader, 1):
        if not rec or not "".join(rec).strip() or rec[0].lstrip().startswith("#"):
            continue
        if header is None:
            header = [h.strip() for h in rec]
            missing = {"mnemonic", "form", "match", "syntax"} - set(header)
            if missing:
                raise SpecError(f"table header lacks {sorted(missing)}", f"{filename}:{lineno}")
            continue
        where = f"{filename}:{lineno}"
        row = dict(zip(header, (c.strip() for c in rec)))
        form = forms[row["form"]] if row["form"] in forms else None
        if form is None:
            raise SpecError(f"unknown form {row['form']!r}", where)
        match = {}
        excludes = []
        for item in row["match"].split():
            if "!=" in item:
                excludes.append(_parse_exclusion(item, form, where))
                continue
            if "=" not in item:
                raise SpecError(f"bad match item {item!r}", where)
            k, v = item.split("=", 1)
            if k not in form.fields:
                raise SpecError(f"form {form.name} has no field {k!r}", where)
            try:
                match[k] = _parse_int(v)
            except ValueError:
                raise SpecError(f"bad match value {item!r}", where) from None
            if match[k] >> form.fields[k].width:
                raise SpecError(f"{item} does not fit the {form.fields[k].width}-bit field", where)
        operands = parse_operands(row.get("syntax", ""), where)
        suffix = tuple(row.get("suffix", "").split())
        for f in suffix:
            if f not in SUFFIX_CHARS:
                raise SpecError(f"unknown suffix flag {f!r}", where)
        for name in [o.field for o in operands] + [o.base for o in operands if o.base] + list(suffix):
            if name not in form.fields:
                raise SpecError(f"operand {name!r} is not a field of form {form.name}", where)
        ins, maxvl_sources = _maxvl_sources(row.get("in", "").split(), form, where)
        outs, implicit, scalar_offset = _implicit_operands(row.get("out", "").split(), form,
                                                           where)
        spec = InsnSpec(
            mnemonic=row["mnemonic"], form=form, match=match, operands=operands,
            suffix=suffix, ins=ins, outs=outs, rc=row.get("rc", ""),
            sv=row.get("sv", ""),
            extra=tuple(row.get("extra", "").split()),
            extension=extension, where=where)
        mask = value = 0
        for k, v in match.items():
            f = form.fields[k]
            mask |= f.mask()
            value = f.insert(value, v)
        # Bits no operand, suffix flag or fixed field of this row covers are
        # reserved: they must be 0, and a word with one set is an invalid form
        # that traps as illegal rather than running as the instruction.
        used = 0
        for name in set(spec.fields_used) | set(suffix) | set(match) | (
                forms.ignored & set(form.fields)):
            used |= form.fields[name].mask()
        spec.reserved_mask = ((1 << form.size) - 1) & ~used
        spec.mask, spec.value = mask | spec.reserved_mask, value
        spec.excludes = tuple(excludes)
        for item in row.get("optype", "").split():
            fname, _, tname = item.partition(":")
            if fname not in form.fields or not tname:
                raise SpecError(f"bad optype item {item!r} (FIELD:TYPE)", where)
            spec.optypes[fname] = tname
        spec.variants = _variants(spec.mnemonic, suffix)
        spec.implicit, spec.maxvl_sources = implicit, maxvl_sources
        spec.implicit_scalar_offset = scalar_offset
        rows.append(spec)
    return rows


def _maxvl_sources(items, form, where):
    """``in`` column items, with ``FIELD+MAXVL`` marks taken off: (names, marked)."""
    names, marked = [], []
    for item in items:
        if item.endswith("+MAXVL"):
            item = item[:-len("+MAXVL")]
            if item not in form.fields:
                raise SpecError(f"{item}+MAXVL: form {form.name} has no field {item!r}", where)
            marked.append(item)
        names.append(item)
    return tuple(names), tuple(marked)


def _implicit_operands(items, form, where):
    """``out`` column items, with ``NAME=FIELD+MAXVL[:K]`` declarations taken
    off: (names, {NAME: FIELD}, {NAME: K}); K, the offset from FIELD when FIELD
    is scalar, is 1 unless given."""
    names, implicit, scalar_offset = [], {}, {}
    for item in items:
        if "=" in item:
            name, _, rule = item.partition("=")
            rule, colon, k = rule.partition(":")
            base = rule[:-len("+MAXVL")] if rule.endswith("+MAXVL") else None
            if base is None or base not in form.fields or (colon and not k.isdigit()):
                raise SpecError(f"bad implicit operand {item!r} (NAME=FIELD+MAXVL or "
                                f"NAME=FIELD+MAXVL:K, FIELD a field of form {form.name}, "
                                "K a number)", where)
            if name in form.fields:
                raise SpecError(f"implicit operand {name} is a field of form {form.name}",
                                where)
            implicit[name] = base
            scalar_offset[name] = int(k) if colon else 1
            item = name
        names.append(item)
    return tuple(names), implicit, scalar_offset


def _parse_exclusion(item, form, where):
    """``FIELD!=PATTERN``: PATTERN is the field's bits, most significant first,
    ``0``/``1`` or ``-`` (either), optionally after ``0b``: ``SVrm!=0b100-``."""
    name, pattern = item.split("!=", 1)
    f = form.fields.get(name)
    if f is None:
        raise SpecError(f"form {form.name} has no field {name!r}", where)
    if pattern.startswith("0b"):
        pattern = pattern[2:]
    if len(pattern) != f.width or set(pattern) - set("01-"):
        raise SpecError(f"bad exclusion {item!r}: give the {f.width} bits of {name} "
                        f"as 0, 1 or -", where)
    fmask = int(pattern.replace("0", "1").replace("-", "0"), 2)
    fvalue = int(pattern.replace("-", "0"), 2)
    return f.insert(0, fmask), f.insert(0, fvalue)


def excluded(row, word):
    """True if ``word`` is one of the encodings the row leaves to another row."""
    return any(word & m == v for m, v in row.excludes)


def _inside_exclusion(a, b):
    """Every word b matches is excluded from a."""
    return any(m & b.mask == m and b.value & m == v for m, v in a.excludes)


def overlaps(rows):
    """All pairs of rows whose encodings can match the same word."""
    found = []
    by_po = {}
    for r in rows:
        # a prefixed (64-bit) row and a 32-bit one are never the same instruction
        by_po.setdefault((r.form.size, r.match.get("PO")), []).append(r)
    groups = list(by_po.values())
    wild = by_po.get((32, None), [])
    for group in groups:
        for i, a in enumerate(group):
            others = wild if group is not wild and a.form.size == 32 else []
            for b in group[i + 1:] + others:
                common = a.mask & b.mask
                if (a.value ^ b.value) & common == 0 and not (
                        _inside_exclusion(a, b) or _inside_exclusion(b, a)):
                    found.append((a, b))
    return found
