"""``check-spec``: consistency of forms, tables and pages.

Each check is a function ``check_<name>(isa) -> [Problem]``; :func:`check_spec`
loads a spec (the project's or a copy under ``root``) and runs them all.  A spec
that does not even load (a malformed row or page) is one ``load`` problem.
"""
from dataclasses import dataclass

from ..errors import IsaExtError, SpecError
from .rm import RC_FIELDS, parse_category, parse_slots


# EXTRA is 9 bits of RM: three 3-bit slots (EXTRA3) or four 2-bit slots
# (EXTRA2, one bit spare).  Whatever the category, a row has at most 4 slots.
MAX_EXTRA_SLOTS = 4

# Families whose EXTRA layout is fixed by their RM mode rather than by the
# S/D counts of the category name: role of each slot, in slot order.
# MVRM (seed 001, mv.swizzle): Rdest_EXTRA2 at RM bits 10:11, Rsrc_EXTRA2 at 12:13.
FIXED_SLOT_ROLES = {"MVRM": ("d", "s")}

# Families for loads and stores: they, and only they, access memory.
LDST_FAMILIES = ("LDSTRM", "VSLDSTRM")  # VSLDSTRM: vector-scope rows (docs/gpu-ops.md)


@dataclass
class Problem:
    check: str
    where: str
    message: str

    def __str__(self):
        return f"{self.where}: [{self.check}] {self.message}"


def check_forms(isa):
    """Every form's fields together cover bits 0..31 (a prefixed form's
    0..63) exactly once or more, and
    every ``signopt`` names an instruction operand."""
    out = []
    for form in isa.forms.forms.values():
        missing = sorted(set(range(form.size)) - form.covered_bits())
        if missing:
            out.append(Problem("forms", form.where,
                               f"form {form.name} leaves bit(s) {_bit_ranges(missing)} "
                               "uncovered by any field"))
    for mnemonic, field in sorted(isa.forms.signopt):
        entry = isa.by_mnemonic.get(mnemonic)
        if entry is None or field not in {o.field for o in entry[0].operands}:
            out.append(Problem("forms", "forms.txt",
                               f"signopt {mnemonic} {field}: no instruction {mnemonic} "
                               f"with operand {field}"))
    return out


def check_pages(isa):
    """Every row has a page, every page a row, and they agree on form and syntax."""
    out = []
    for row in isa.rows:
        page = row.page
        if page is None:
            out.append(Problem("pages", row.where,
                               f"row {row.mnemonic} has no pseudocode page "
                               f"(no '* {row.mnemonic} ...' line in pseudocode/{row.extension}/)"))
            continue
        if page.form != row.form.name:
            out.append(Problem("pages", page.where,
                               f"page {page.title!r} says {page.form}-Form but row "
                               f"{row.mnemonic} ({row.where}) uses form {row.form.name}"))
        row_syntax = ",".join(str(op) for op in row.operands)
        for mnemonic, operands, _flags in page.syntaxes:
            if isa.by_mnemonic.get(mnemonic, (None,))[0] is row and operands != row_syntax:
                out.append(Problem("pages", page.where,
                                   f"page line '* {mnemonic} {operands}' disagrees with row "
                                   f"syntax {row_syntax!r} ({row.where})"))
    for page in isa.all_pages:
        names = [syn[0] for syn in page.syntaxes]
        if not names:
            out.append(Problem("pages", page.where, f"page {page.title!r} has no '* mnemonic' line"))
            continue
        # a page named sv.<mnemonic> is the SVP64 element-group page of that row
        if not any(n in isa.by_mnemonic or (n.startswith("sv.") and n[3:] in isa.by_mnemonic)
                   for n in names):
            out.append(Problem("pages", page.where,
                               f"page {page.title!r} ({', '.join(names)}) has no table row "
                               f"in decoder/{page.extension}/"))
        elif isa.pages.get(names[0]) is not page and names[0] in isa.pages:
            other = isa.pages[names[0]]
            out.append(Problem("pages", page.where,
                               f"{names[0]} has two pages: {page.title!r} and {other.title!r} "
                               f"({other.where})"))
    return out


def check_compile(isa):
    """Every row compiles: its page uses only fields of its form, known names
    and functions, and valid widths."""
    return [Problem("compile", e.where or "?", str(e).split(": ", 1)[-1] if e.where else str(e))
            for e in isa.compile_all() if isinstance(e, SpecError)]


def check_overlaps(isa):
    out = []
    for a, b in isa.overlaps():
        out.append(Problem("overlap", a.where,
                           f"{a.mnemonic} ({_match_text(a)}) and {b.mnemonic} ({_match_text(b)}, "
                           f"{b.where}) can decode the same word"))
    return out


def check_rm(isa):
    """RM categories agree with the row's operand roles and EXTRA slots."""
    out = []
    for row in isa.rows:
        out += [Problem("rm", row.where, f"{row.mnemonic}: {msg}") for msg in _rm_row_problems(isa, row)]
    return out


def _rm_row_problems(isa, row):
    if not row.sv:
        if any(item != "-" for item in row.extra):
            yield f"EXTRA slots {' '.join(row.extra)!r} but no RM category (sv column)"
        return
    cat = parse_category(row.sv)
    if cat is None:
        yield f"RM category {row.sv!r} is not FAMILY-nP-nSnD (e.g. RM-1P-2S1D)"
        return
    try:
        slots = parse_slots(row.extra)
    except ValueError as e:
        yield str(e)
        return
    if len(slots) > MAX_EXTRA_SLOTS:
        yield (f"{len(slots)} EXTRA slots; the 9-bit EXTRA field holds at most "
               f"{MAX_EXTRA_SLOTS} (EXTRA2) or 3 (EXTRA3)")
    touches_memory = "MEM" in row.ins or "MEM" in row.outs
    if cat.family in LDST_FAMILIES and not touches_memory:
        yield f"{row.sv} is a load/store category but the row does not access MEM"
    if touches_memory and cat.family not in LDST_FAMILIES:
        yield f"the row accesses MEM but {row.sv} is not a load/store (LDSTRM) category"

    reads = {name[:-1] if name.endswith("0") and name[:-1] in row.form.fields else name
             for name in row.ins}
    entries = [e for slot in slots for e in slot]
    for e in entries:
        if e.role == "s" and e.reg not in reads:
            yield f"EXTRA source s:{e.reg} is not among the registers read ({' '.join(row.ins) or 'none'})"
        if e.role == "d" and e.reg in RC_FIELDS:
            if row.rc != e.reg:
                yield f"EXTRA d:{e.reg} records Rc=1, but the row's rc column is {row.rc or 'empty'}"
        elif e.role == "d" and e.reg not in row.outs:
            yield f"EXTRA destination d:{e.reg} is not among the registers written ({' '.join(row.outs) or 'none'})"
    # every register operand the row reads or writes needs an EXTRA entry
    for role, names in (("s", reads), ("d", set(row.outs))):
        for name in sorted(names):
            if isa.forms.regclass.get(name) and name in row.form.fields \
                    and not any(e.role == role and e.reg == name for e in entries):
                yield f"register operand {name} has no EXTRA {role}:{name} entry"

    fixed = FIXED_SLOT_ROLES.get(cat.family)
    if fixed is not None:
        roles = tuple(e.role for slot in slots for e in slot)
        if roles != fixed:
            yield (f"{cat.family} EXTRA layout is one slot each of {', '.join(fixed)} (in that "
                   f"order); the row has {' '.join(row.extra)!r}")
        return
    yield from _count_problems(row, cat, slots)


def _count_problems(row, cat, slots):
    """The category name counts sources and destinations.  As in openpower-isa's
    tables, a base register that a load/store with update both reads and writes
    (``s:RA;d:RA``) may be counted on either side or both, and a register the
    row names without a field (SPR, CR as a whole) may stand for one of them."""
    src_only = dst_only = shared = 0
    for slot in slots:
        regs = {}
        for e in slot:
            if e.role == "d" and e.reg in RC_FIELDS:
                continue
            regs.setdefault(e.reg, set()).add(e.role)
        for roles in regs.values():
            if roles == {"s", "d"}:
                shared += 1
            elif roles == {"s"}:
                src_only += 1
            else:
                dst_only += 1
    implicit_in = sum(1 for n in row.ins if _is_implicit(row, n))
    implicit_out = sum(1 for n in row.outs if _is_implicit(row, n) and n not in RC_FIELDS)
    s_ok = src_only <= cat.sources <= src_only + shared + implicit_in
    d_ok = dst_only <= cat.dests <= dst_only + shared + implicit_out
    covers_shared = (cat.sources - src_only) + (cat.dests - dst_only) >= shared
    if not (s_ok and d_ok and covers_shared):
        yield (f"{cat.name} means {cat.sources} source(s) and {cat.dests} destination(s), but the "
               f"EXTRA slots {' '.join(row.extra)!r} give {src_only} source(s), {dst_only} "
               f"destination(s) and {shared} read-and-written")


def _is_implicit(row, name):
    """A register the row names without a form field: SPR, CR, LR, XER bits."""
    base = name[:-1] if name.endswith("0") else name
    return name != "MEM" and base not in row.form.fields and name not in row.form.fields


def check_sandbox(isa):
    """New primary opcode 22 rows stay clear of openpower-isa's draft allocations."""
    from . import opcode_map
    return [Problem("po22", a.where, f"{a.name} key {a.key} (bits 21:31) collides with "
                    f"openpower-isa's {b.name} key {b.key} ({b.where})")
            for a, b in opcode_map.collisions(opcode_map.allocations(isa))
            if b.owner == "openpower-isa"]


CHECKS = (("forms", check_forms), ("pages", check_pages), ("compile", check_compile),
          ("overlap", check_overlaps), ("rm", check_rm),
          ("po22", check_sandbox))


def check_spec(root=None, extensions=None):
    """(problems, isa) for the spec under ``root`` (default: the project's).
    ``isa`` is None when the spec does not load."""
    from ..isa import ISA
    try:
        isa = ISA(extensions=extensions, root=root)
    except IsaExtError as e:
        where = getattr(e, "where", None) or (root or "spec")
        msg = str(e)
        if where and msg.startswith(f"{where}: "):
            msg = msg[len(where) + 2:]
        return [Problem("load", where, msg)], None
    problems = []
    for _name, check in CHECKS:
        problems += check(isa)
    return problems, isa


def _bit_ranges(bits):
    parts, start = [], None
    for i, b in enumerate(bits):
        if start is None:
            start = b
        if i + 1 == len(bits) or bits[i + 1] != b + 1:
            parts.append(str(start) if start == b else f"{start}:{b}")
            start = None
    return ", ".join(parts)


def _match_text(row):
    return " ".join(f"{k}={v}" for k, v in row.match.items())
