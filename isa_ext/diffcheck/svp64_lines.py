"""Random SVP64 assembly lines in libre-soc's syntax, for differential runs
against libre-soc's own tools (its SVP64Asm assembler and simulator).

Lines come from the instruction tables: every SVP64-capable row of the
extensions libre-soc also has (``base``), with random scalar/vector register
operands, immediates in their fields' ranges and a random handful of RM
modifiers.  A candidate isa_ext's assembler rejects (an illegal combination:
a register EXTRA2 cannot reach, a modifier the category lacks) is drawn again,
so every line returned is one isa_ext accepts.
"""
import random
import re

from ..errors import IsaExtError
from ..spec.rm import parse_category

# libre-soc has these extensions' rows; the others are isa_ext's own
SHARED_EXTENSIONS = ("base",)
# rows whose SVP64 forms are checked elsewhere (SVP64 branches: their own modes)
EXCLUDED = {"bc", "bclr", "bcctr", "bctar"}

_WIDTHS = ("8", "16", "32")
_INT_PREDS = ("r3", "~r3", "1<<r3", "r10", "~r10", "r30", "~r30")
_CR_PREDS = ("lt", "ge", "gt", "le", "eq", "ne", "so", "ns")
_FF = ("lt", "ge", "gt", "le", "eq", "ne", "so", "ns", "RC1", "~RC1")


def sv_rows(isa, extensions=SHARED_EXTENSIONS):
    """The SVP64-capable rows of ``extensions``, in table order."""
    return [r for r in isa.rows if r.extension in extensions and r.sv
            and parse_category(r.sv) and r.mnemonic not in EXCLUDED]


# modifier groups a campaign can draw from (all by default)
MODIFIER_GROUPS = ("width", "zeroing", "subvl", "ffirst", "predicate", "ldst", "mapreduce",
                   "saturation")
# "int_predicate": integer predicates only (a subset of "predicate")


def _modifiers(rng, cat, groups=MODIFIER_GROUPS, records=True):
    """``records``: the variant has Rc=1, whose fail-first tests a condition;
    without it fail-first is RC1/~RC1 (the Rc=0 MODE table has no CR-bit
    field: a condition's bits would be read as zz and RC1)."""
    twin = cat.predicates == 2
    ldst = cat.family.startswith("LDST")
    def predicate(choices):
        if twin:
            return lambda: f"{rng.choice(('sm', 'dm'))}={rng.choice(choices)}"
        return lambda: f"m={rng.choice(choices)}"
    by_group = {
        "width": [lambda: f"w={rng.choice(_WIDTHS)}", lambda: f"sw={rng.choice(_WIDTHS)}",
                  lambda: f"dw={rng.choice(_WIDTHS)}"],
        "zeroing": [lambda: "sz", lambda: "dz"],
        "subvl": [lambda: f"vec{rng.choice('234')}"],
        # fail-first, half of them with VLi (the failing element included)
        "ffirst": [lambda: f"ff={rng.choice(_FF[:-2] if records else _FF[-2:])}"
                   + rng.choice(("", "/vli"))],
        "predicate": [predicate(_INT_PREDS + _CR_PREDS)] * 2,
        "int_predicate": [predicate(_INT_PREDS)] * 2,
        "ldst": [lambda: "els", lambda: "pi"] if ldst else [],
        "mapreduce": [] if ldst else [lambda: "mr", lambda: "mrr"],
        "saturation": [] if ldst else [lambda: rng.choice(("sats", "satu"))],
    }
    pool = [make for g in groups for make in by_group[g]]
    chosen = {}
    for make in rng.sample(pool, rng.randint(0, min(3, len(pool)))):
        mod = make()
        chosen.setdefault(mod.split("=")[0], mod)  # one of each key
    return "".join("/" + m for m in chosen.values())


# a vector of VL <= 8 elements, SUBVL <= 4, at 64 bits ends at or before r127
VECTOR_LAST_BASE = 127 - 8 * 4


def _register(rng, vector):
    n = rng.randrange(VECTOR_LAST_BASE + 1) if vector else \
        rng.randrange(64 if rng.random() < 0.8 else 128)
    return f"*{n}" if vector else str(n)


def _immediate(rng, isa, row, field):
    f = row.form.fields[field]
    width = f.width
    signed = field in isa.forms.signed
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    v = rng.choice((lo, hi, 0, 1, rng.randint(lo, hi)))
    return str(v * isa.forms.scale.get(field, 1))


def _operand(rng, isa, row, field, vector_bias, cr_in_cr0_7=False):
    cls = isa.forms.regclass.get(field)
    if cr_in_cr0_7 and cls in ("crf", "crb"):
        # CR fields 0-7 only (bits 0-31): libre-soc's simulator has no more ("sigh,
        # TODO, 128 CR fields"); a vector one starts at field (bit) 0
        return "*0" if rng.random() < vector_bias else \
            str(rng.randrange(8 if cls == "crf" else 32))
    if cls in ("gpr", "fpr", "crf", "crb"):
        return _register(rng, rng.random() < vector_bias)
    return _immediate(rng, isa, row, field)


def candidate(rng, isa, row, groups=MODIFIER_GROUPS, record=True, scalar_dest=True,
              vector_ra0=True, ff_scalar_sources=True, cr_in_cr0_7=False):
    """One random line for ``row`` (not yet checked); ``record`` False leaves
    out the Rc=1 variants, ``scalar_dest`` False the lines that write a scalar
    register from vector sources (the early-ending loops), ``vector_ra0`` False
    a vector ``*0`` in an RA-or-zero operand, ``ff_scalar_sources`` False
    fail-first lines whose sources are all scalar."""
    cat = parse_category(row.sv)
    variants = sorted(v for v, flags in row.variants.items() if record or not flags.get("Rc"))
    mnemonic = rng.choice(variants)
    vector_bias = rng.choice((0.3, 0.7, 1.0))
    ops, vector = [], {}
    for op in row.operands:
        text = _operand(rng, isa, row, op.field, vector_bias, cr_in_cr0_7)
        vector[op.field] = text.startswith("*")
        if op.base:
            base = _operand(rng, isa, row, op.base, vector_bias, cr_in_cr0_7)
            vector[op.base] = base.startswith("*")
            text += f"({base})"
        ops.append(text)
    # table "in" names RA0 for RA-or-zero operands
    if not scalar_dest and any(vector.get(f.rstrip("0")) for f in row.ins) and \
            any(vector.get(f) is False for f in row.outs):
        return None
    if not vector_ra0 and "RA0" in row.ins and re.search(r"(^|[ (,])\*0\b", ", ".join(ops)):
        return None
    records = bool(row.variants[mnemonic].get("Rc"))
    mods = _modifiers(rng, cat, groups, records)
    if not ff_scalar_sources and "/ff=" in mods and \
            not any(vector.get(f.rstrip("0")) for f in row.ins):
        return None
    return f"sv.{mnemonic}{mods} {', '.join(ops)}"


def random_lines(isa, seed, count, rows=None, tries=40, groups=MODIFIER_GROUPS, record=True,
                 scalar_dest=True, vector_ra0=True, ff_scalar_sources=True,
                 cr_in_cr0_7=False):
    """``count`` random lines (isa_ext assembles each), cycling over ``rows``
    (default: :func:`sv_rows`) so that every row gets its share."""
    from ..asm import assemble
    rng = random.Random(seed)
    rows = rows if rows is not None else sv_rows(isa)
    out = []
    for i in range(count):
        row = rows[i % len(rows)]
        for _ in range(tries):
            line = candidate(rng, isa, row, groups, record, scalar_dest, vector_ra0,
                             ff_scalar_sources, cr_in_cr0_7)
            if line is None:
                continue
            try:
                assemble(line + "\n", isa=isa)
            except IsaExtError:
                continue
            out.append(line)
            break
    return out
