"""``isa-ext hfvf PROG``: every SVP64 instruction of a program run
horizontal-first and as the equivalent vertical-first loop, end states
compared, each difference named with its registers, elements and cause class
(docs/hfvf.md).

Exit status (the worst instruction decides): 0 HF and VF agree everywhere,
3 a legal difference (map-reduce order, fail-first truncation, a predicate or
VL changed inside the loop, cross-element overlap), 4 UNDEFINED (the spec
leaves the HF form undefined: sv.mv.swiz overlap, seed 001), 5 a bug (a
difference no cause explains); 1 everything compared agrees but the program
itself did not run to its end; 2 bad input.
"""
import sys

from ..errors import IsaExtError
from .machine_options import (address, count, fpr_value, int_value, parse_assignments,
                              program_format)


def register(sub):
    p = sub.add_parser("hfvf", help="compare horizontal-first and vertical-first runs of "
                                    "each SVP64 instruction")
    p.add_argument("program", help="assembly (.s/.S/.asm), raw instruction bytes, or a "
                                   "Linux ELF program")
    p.add_argument("args", nargs="*", metavar="ARG",
                   help="a Linux program's arguments (after --)")
    p.add_argument("--gpr", action="append", default=[], metavar="rN=VALUE",
                   help="set a GPR before running (repeatable; also r3=1,r4=2)")
    p.add_argument("--fpr", action="append", default=[], metavar="fN=VALUE",
                   help="set an FPR: raw 64-bit pattern (0x...) or a decimal float")
    p.add_argument("--spr", action="append", default=[], metavar="NAME=VALUE",
                   help="set svstate, svshape0-3, lr, ctr, tar, xer or fpscr")
    p.add_argument("--only", type=address, default=None, metavar="ADDR",
                   help="compare only the SVP64 instruction at ADDR")
    p.add_argument("--json", action="store_true", help="the report as JSON")
    p.add_argument("--deps", action="store_true",
                   help="also list each element step's read and write sets")
    p.add_argument("--picture", metavar="FILE",
                   help="draw the element-step x register grid (PNG or SVG) of the "
                        "instruction given by --only, else of the first one compared "
                        "(needs matplotlib: pip install 'isa_ext[picture]')")
    p.add_argument("--max-steps", type=count, default=100_000, metavar="N",
                   help="stop a run after N instructions (default 100000)")
    p.add_argument("--base", type=address, default=0x1000, metavar="ADDR",
                   help="load address (default 0x1000)")
    p.set_defaults(func=run)


def _sprs(items):
    out = {}
    for item in items:
        for part in item.split(","):
            name, sep, value = part.partition("=")
            try:
                out[name.strip().lower()] = int(value.strip(), 0)
            except ValueError:
                raise IsaExtError(f"bad SPR setting {part!r}: expected NAME=VALUE") from None
            if not sep:
                raise IsaExtError(f"bad SPR setting {part!r}: expected NAME=VALUE")
    return out


def run(args):
    from ..hfvf import compare
    from ..hfvf.report import text, as_json
    with open(args.program, "rb") as f:
        data = f.read()
    if program_format(args.program, data) == "asm":
        try:
            program = data.decode("utf-8")
        except UnicodeDecodeError:
            raise IsaExtError(f"{args.program}: not UTF-8 text") from None
    else:
        program = data
    from ..progress import Progress
    with Progress("hfvf", total=args.max_steps, unit="steps") as progress:
        report = compare(program, gpr=parse_assignments(args.gpr, "--gpr", "r", int_value),
                         fpr=parse_assignments(args.fpr, "--fpr", "f", fpr_value),
                         spr=_sprs(args.spr),
                         only=args.only, base=args.base, max_steps=args.max_steps,
                         filename=args.program, progress=progress, argv=args.args)
    if args.picture:
        from ..hfvf.picture import draw
        item = next((i for i in report.compared if i.dependencies is not None), None)
        if item is None:
            raise IsaExtError("no picture: no SVP64 instruction was compared")
        draw(item.dependencies, args.picture,
             title=f"0x{item.pc:x} {item.text}\nreads (R), writes (W); colliding accesses "
                   "in red")
    print(as_json(report) if args.json else text(report, dependencies=args.deps))
    sys.stdout.flush()
    return report.exit_status
