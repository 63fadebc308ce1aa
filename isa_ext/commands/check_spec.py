"""``isa-ext check-spec [--spec-root DIR]``: consistency of forms, tables and pages.

Exit 0 when every check passes, 1 with one line per problem otherwise.
"""
import sys


def register(sub):
    p = sub.add_parser("check-spec", help="check forms, decoder tables and pseudocode pages agree",
                       description="Check that every table row has a page and every page a row, "
                       "every row compiles against its form, forms cover 32 bits, no two "
                       "encodings overlap, and RM categories match operand roles.")
    p.add_argument("--spec-root", metavar="DIR",
                   help="check DIR/decoder and DIR/pseudocode instead of the project's spec")
    p.add_argument("--extensions", metavar="EXT,...",
                   help="only these extensions (comma-separated; default all)")
    p.set_defaults(func=run)


def run(args):
    import os
    from ..errors import IsaExtError
    from ..spec.checks import check_spec
    if args.spec_root and not os.path.isdir(args.spec_root):
        raise IsaExtError(f"--spec-root {args.spec_root}: no such directory")
    exts = args.extensions.split(",") if args.extensions else None
    problems, isa = check_spec(root=args.spec_root, extensions=exts)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-spec: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check-spec: OK ({len(isa.rows)} rows, {len(isa.all_pages)} pages, "
          f"{len(isa.forms.forms)} forms; extensions {', '.join(isa.extensions)})")
    return 0
