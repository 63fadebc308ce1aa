"""``isa-ext hdl --out DIR``: write the amaranth hardware models as RTLIL and Verilog."""


def register(sub):
    p = sub.add_parser("hdl", help="generate RTLIL and Verilog of the hardware decoders")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory")
    p.set_defaults(func=_hdl)


def _hdl(args):
    from ..hdl.swizzle import generate
    for path in generate(args.out):
        print(path)
    return 0
