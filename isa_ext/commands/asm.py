"""``isa-ext asm SRC [-o OUT]``: assemble GNU-syntax source.

With ``-o`` the raw bytes (instructions and data, little-endian unless
``--big-endian``) are written to OUT; otherwise a listing is printed: address,
the words (or data bytes) and the source line.
"""
import sys

from .machine_options import address


def register(sub):
    p = sub.add_parser("asm", help="assemble a source file to raw words or a listing")
    p.add_argument("source", help="assembly source (GNU as syntax); '-' reads stdin")
    p.add_argument("-o", "--output", help="write the raw bytes here instead of a listing")
    p.add_argument("--big-endian", action="store_true", help="big-endian output")
    p.add_argument("--base", type=address, default=0x1000, metavar="ADDR",
                   help="address of the first byte (default 0x1000)")
    p.set_defaults(func=run)


def read_source(path):
    from ..asm import decode_source
    if path == "-":
        return decode_source(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    with open(path, "rb") as f:
        return decode_source(f.read(), path), path


def listing_lines(prog):
    for item in prog.listing:
        if item.is_code:
            shown = " ".join(f"{w:08x}" for w in item.words(prog.little))
        else:
            shown = item.data[:8].hex() + ("..." if len(item.data) > 8 else "")
        yield f"{item.addr:08x}  {shown:<17}  {item.source.strip()}"


def run(args):
    from ..asm import assemble
    from ..isa import ISA
    text, name = read_source(args.source)
    prog = assemble(text, filename=name, isa=ISA(), base=args.base,
                    little=not args.big_endian)
    if args.output:
        with open(args.output, "wb") as f:
            f.write(prog.data)
        return 0
    for line in listing_lines(prog):
        print(line)
    return 0
