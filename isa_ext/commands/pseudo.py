"""``isa-ext pseudo show MNEMONIC``: the Python a pseudocode page compiles to."""
from ..errors import IsaExtError


def register(sub):
    p = sub.add_parser("pseudo", help="inspect compiled pseudocode")
    ps = p.add_subparsers(dest="pseudo_cmd", metavar="ACTION")
    show = ps.add_parser("show", help="print an instruction's page and compiled Python")
    show.add_argument("mnemonic")
    show.set_defaults(func=_show)
    p.set_defaults(func=lambda a: p.print_help() or 2)


def _show(args):
    from ..isa import ISA
    isa = ISA()
    entry = isa.by_mnemonic.get(args.mnemonic)
    if entry is None:
        raise IsaExtError(f"unknown mnemonic {args.mnemonic!r}")
    row, _flags = entry
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
