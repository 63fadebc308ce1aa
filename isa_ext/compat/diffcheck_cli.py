"""``isa-ext diffcheck --against isacaller``: the command line of the
differential against libre-soc's ISACaller (:mod:`.isacaller` runs it).

    isa-ext diffcheck --against isacaller --isacaller DIR --cases 300 --scope core
    isa-ext diffcheck --against isacaller --profile openpower-isa --scope all
    isa-ext diffcheck --against isacaller --cases 3000 --jobs 2   # 2 ISACaller processes

``isa_ext/commands/diffcheck.py`` owns the command and its scalar (QEMU)
reference; it adds these options and hands ``--against isacaller`` runs here,
so that the command knows no more of ISACaller than its name's place.
"""
import os
from collections import Counter

from ..errors import IsaExtError
from ..progress import Progress

#: the ``--against`` value, and its words in the command's help
REFERENCE = "isacaller"
DESCRIPTION = "libre-soc's ISACaller (random SVP64 programs)"
WITH = "--against isacaller"


def add_arguments(p):
    from ..commands import add_profile_option
    p.add_argument("--isacaller", metavar="DIR",
                   help="ISACaller built by ../shared/tools/isacaller-setup DIR "
                        "(default: $ISA_EXT_ISACALLER)")
    p.add_argument("--scope", choices=("core", "profile", "all"), default="core",
                   help="with --against isacaller: 'core' (the classes without known "
                        "divergences, docs/compat.md), 'profile' (what --profile "
                        "openpower-isa reproduces) or 'all'")
    p.add_argument("--per-case", type=int, default=3, metavar="N",
                   help="with --against isacaller: SVP64 instructions per program (3)")
    p.add_argument("--vertical", type=float, default=0.0, metavar="F",
                   help="with --against isacaller: the fraction of programs that are "
                        "vertical-first loops (0)")
    p.add_argument("--remap", type=float, default=None, metavar="F",
                   help="with --against isacaller: the fraction of programs run under a "
                        "random REMAP shape (default: the scope's, 0.2 for 'profile')")
    add_profile_option(p, "with --against isacaller, how isa_ext reads the spec: ")


def _check_only_rows(names, rows, scope):
    """Every --only name must be an SVP64-capable row (or variant) in the scope."""
    from ..commands.machine_options import suggest
    known = set()
    for r in rows:
        known |= {r.mnemonic, *r.variants}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise IsaExtError(f"--only: no such SVP64-capable instruction in scope {scope}: "
                          + ", ".join(repr(n) + suggest(n, known) for n in unknown))


def run(args):
    from ..isa import ISA
    from . import isacaller
    root = args.isacaller or os.environ.get("ISA_EXT_ISACALLER")
    if not root:
        raise IsaExtError("--against isacaller needs --isacaller DIR (or $ISA_EXT_ISACALLER): "
                          "build one with ../shared/tools/isacaller-setup DIR")
    isa = ISA(extensions=["base", "svp64"], profile=args.profile)
    rows, options = isacaller.scope_options(isa, args.scope)
    if args.remap is not None:
        options["remap"] = args.remap
    if args.only:
        _check_only_rows(args.only, rows, args.scope)
        rows = [r for r in rows if r.mnemonic in args.only or set(r.variants) & set(args.only)]
    with Progress("diffcheck --against isacaller", total=args.cases, unit="cases") as progress:
        outcomes = isacaller.differential(isa, os.path.abspath(root), args.seed, args.cases,
                                          rows=rows, per_case=args.per_case,
                                          vertical=args.vertical, progress=progress,
                                          jobs=args.jobs, **options)
    counts = Counter()
    for o in outcomes:
        kind = isacaller.classify(o)
        counts[kind] += 1
        if kind != "agree":
            print(f"case {o.case.index}: {kind}")
            for line in o.case.lines:
                print(f"    {line}")
            for d in o.differences[:8]:
                print(f"  {d}")
    print(f"isacaller ({args.scope}, profile {isa.profile.name}): {len(outcomes)} cases, "
          f"{counts['agree']} agree, "
          f"{counts['differ']} differ, {counts['isa_ext-trap']} isa_ext traps where "
          f"ISACaller ran, {counts['isacaller-crash']} ISACaller crashes, "
          f"{counts['isacaller-bug']} explained by a documented ISACaller bug")
    memory = Counter(isacaller.classify(o) for o in outcomes if o.case.mem is not None)
    if memory:  # of them, the programs with a load or store
        print(f"  with a load or store (memory compared): {sum(memory.values())} cases, "
              f"{memory['agree']} agree, {memory['differ']} differ, "
              f"{memory['isa_ext-trap']} isa_ext traps, "
              f"{memory['isacaller-crash']} ISACaller crashes")
    return 1 if counts["differ"] or counts["isa_ext-trap"] else 0
