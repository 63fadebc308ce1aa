"""``isa-ext diag PROG``: run a program and report the UNDEFINED and reserved
behaviour it meets (the simulator's diagnostics), instead of stopping at the first.
Takes the same program, register, SPR and memory options as ``isa-ext run``.

Exit 0 when the run met none and ended normally, 1 otherwise.
"""
from .machine_options import (add_machine_options, count, machine_isa, prepare_machine,
                              translate_option)


def register(sub):
    p = sub.add_parser("diag", help="run a program and list the UNDEFINED/reserved behaviour it meets")
    p.add_argument("program", help="assembly (.s/.S/.asm or plain text), ELF, or raw instruction bytes")
    add_machine_options(p)
    p.add_argument("--max-steps", type=count, default=10_000_000, metavar="N",
                   help="stop after N instructions (default %(default)s)")
    p.add_argument("--strict", action="store_true",
                   help="stop at the first UNDEFINED behaviour, as `isa-ext run` does")
    p.add_argument("--limit", type=count, default=20, metavar="N", help="records to list (default 20)")
    p.set_defaults(func=run)


def run(args):
    from ..diagnostics import format_diagnostics
    from ..sim import Simulator
    sim = Simulator(isa=machine_isa(args), little=not args.big_endian, strict=args.strict,
                    mem_limit=args.mem_limit, translate=translate_option(args))
    prepare_machine(sim, args)
    res = sim.run(max_steps=args.max_steps)
    print(f"stop: {res.stop} after {res.steps} step(s)")
    if res.trap is not None:
        print(f"trap: {res.trap}")
    print(format_diagnostics(res.diagnostics, limit=args.limit))
    return 1 if res.diagnostics or res.trap is not None else 0
