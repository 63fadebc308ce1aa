"""``isa-ext pseudo show MNEMONIC``: the Python a pseudocode page compiles to."""
from ..errors import IsaExtError


def register(sub):
    p = sub.add_parser("pseudo", help="inspect compiled pseudocode")
    ps = p.add_subparsers(dest="pseudo_cmd", metavar="ACTION")
    show = ps.add_parser("show", help="print an instruction's page and compiled Python")
    show.add_argument("mnemonic", help="an instruction (add, addo.), an extended mnemonic "
                                       "(li) or an SVP64 form (sv.add)")
    show.set_defaults(func=_show)
    from . import needs_action
    p.set_defaults(func=needs_action(p, ps))


def resolve(isa, name):
    """(table row, note) for a mnemonic, an extended mnemonic (``li`` is ``addi``)
    or an SVP64 form (``sv.add``, ``sv.mv.swiz``: the page of the suffix
    instruction, which the prefix runs once per element)."""
    from ..asm import extended_mnemonics
    from .machine_options import suggest
    notes = []
    base = name
    if base.startswith("sv."):
        base = base[3:]
        notes.append(f"{name}: SVP64-prefixed {base}; the page is {base}'s, run per element")
    entry = isa.by_mnemonic.get(base)
    if entry is None:
        alias = extended_mnemonics(isa).get(base)
        if alias is not None:
            entry = isa.by_mnemonic.get(alias.base_mnemonic)
            notes.append(f"{base}: extended mnemonic for {alias.base_mnemonic} "
                         f"{', '.join(alias.expansion)} ({alias.where})")
    if entry is None:
        known = set(isa.by_mnemonic) | set(extended_mnemonics(isa))
        raise IsaExtError(f"unknown mnemonic {name!r}" + suggest(base, known))
    return entry[0], notes


def _show(args):
    from ..isa import ISA
    isa = ISA()
    row, notes = resolve(isa, args.mnemonic)
    for note in notes:
        print(f"# {note}")
    c = isa.compiled(row)
    page = row.page
    print(f"# {page.title}  ({page.where}, {row.form.name}-Form, row {row.where})")
    print()
    for line in page.code.rstrip().splitlines():
        print("    " + line)
    print()
    src = c.source
    print(src[:src.index("def make(")].rstrip())
    return 0
