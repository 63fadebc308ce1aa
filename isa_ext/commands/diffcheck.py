"""``isa-ext diffcheck``: prove the scalar core against QEMU and GNU's toolchain.

    isa-ext diffcheck --cases 10000 --seed 1 --out out/diffcheck
    isa-ext diffcheck --only add addo. divw --cases 500
    isa-ext diffcheck --cases 10000 --jobs 2          # over 2 processes, same report
    isa-ext diffcheck --cases 100000 --cluster tcp://scheduler:8786   # a Dask cluster
    isa-ext diffcheck --replay out/diffcheck/mismatch-31-fcfids_dot.s
    isa-ext diffcheck --c tests/c            # the C program suite, -O0 and -O2
    isa-ext diffcheck --against isacaller --isacaller DIR --cases 300 --scope core
    isa-ext diffcheck --against isacaller --profile openpower-isa --scope all
    isa-ext diffcheck --against isacaller --cases 3000 --jobs 2   # 2 ISACaller processes

Exit status 0 when everything agrees, 1 on any mismatch, 2 on bad input or a
missing tool.
"""
from ..errors import IsaExtError
from ..progress import Progress
from . import add_profile_option


def register(sub):
    p = sub.add_parser("diffcheck", help="differential test of the scalar core against QEMU",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=10000, help="random cases to run (10000)")
    p.add_argument("--seed", type=int, default=1, help="random seed (1)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write a reproducer .s file per mismatch into DIR")
    p.add_argument("--batch", type=int, default=500, help="cases per ELF (500)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="run the ELF batches (with --against isacaller: the programs) "
                        "over N processes (1); the report is the serial run's for the "
                        "same seed")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="submit the batches to the Dask scheduler at ADDRESS "
                        "(tcp://host:8786; needs isa_ext[cluster]); the report is the "
                        "serial run's for the same seed")
    p.add_argument("--only", nargs="+", metavar="MNEMONIC",
                   help="restrict to these instructions (base or variant mnemonics)")
    p.add_argument("--sequences", type=float, default=0.1,
                   help="fraction of cases that are dependent sequences (0.1)")
    p.add_argument("--replay", metavar="FILE", help="run one reproducer under both and compare")
    p.add_argument("--c", metavar="DIR", dest="c_dir",
                   help="run the freestanding C programs in DIR at -O0 and -O2")
    p.add_argument("--against", choices=("qemu", "isacaller"), default="qemu",
                   help="the reference: QEMU (scalar core, default) or libre-soc's "
                        "ISACaller (random SVP64 programs)")
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
    p.set_defaults(func=_run)


def _run(args):
    if args.cases < 0 or args.batch < 1 or args.jobs < 1:
        raise IsaExtError("--cases must be >= 0, --batch and --jobs >= 1")
    for flag, v in (("--sequences", args.sequences), ("--vertical", args.vertical),
                    ("--remap", args.remap)):
        if v is not None and not 0 <= v <= 1:
            raise IsaExtError(f"{flag} {v}: expected a fraction between 0 and 1")
    if args.per_case < 1:
        raise IsaExtError("--per-case must be >= 1")
    if args.against == "isacaller":
        return _run_isacaller(args)
    if args.replay:
        from ..diffcheck.runner import replay
        bad = 0
        for index, diffs in replay(args.replay):
            status = "agree" if not diffs else "MISMATCH"
            print(f"case {index}: {status}")
            for d in diffs:
                print(f"  {d}")
            bad += bool(diffs)
        return 1 if bad else 0
    if args.c_dir:
        from ..diffcheck.cprograms import run_suite, OPT_LEVELS, suite_sources
        total = len(suite_sources(args.c_dir)[0]) * len(OPT_LEVELS)
        with Progress("diffcheck --c", total=total, unit="programs") as progress:
            results = run_suite(args.c_dir, progress=progress)
        for r in results:
            print(r.summary())
        return 0 if all(r.ok for r in results) else 1
    from ..diffcheck import DiffCheck
    isa = _check_only(args.only) if args.only else None
    check = DiffCheck(isa=isa, seed=args.seed, out=args.out, batch=args.batch,
                      only=args.only, sequences=args.sequences)
    with Progress("diffcheck", total=args.cases, unit="cases") as progress:
        if args.cluster:
            from ..diffcheck.parallel import dask_executor
            client, executor = dask_executor(args.cluster)
            with client:
                figures = check.run(args.cases, executor=executor, progress=progress)
        else:
            figures = check.run(args.cases, jobs=args.jobs, progress=progress)
    print(figures.summary())
    return 0 if figures.ok else 1


def _check_only(names):
    """The scalar ISA, after checking that every ``--only`` name is an instruction
    the scalar diffcheck covers (an unknown one would run 0 cases and 'pass')."""
    from ..diffcheck.generate import targets
    from ..isa import ISA
    from .machine_options import suggest
    isa = ISA(extensions=["base"])
    known = set()
    for t in targets(isa):
        known |= {t.mnemonic, t.row.mnemonic}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise IsaExtError("--only: no such instruction in the scalar diffcheck: "
                          + ", ".join(repr(n) + suggest(n, known) for n in unknown))
    return isa


def _check_only_rows(names, rows, scope):
    """Every --only name must be an SVP64-capable row (or variant) in the scope."""
    from .machine_options import suggest
    known = set()
    for r in rows:
        known |= {r.mnemonic, *r.variants}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise IsaExtError(f"--only: no such SVP64-capable instruction in scope {scope}: "
                          + ", ".join(repr(n) + suggest(n, known) for n in unknown))


def _run_isacaller(args):
    import os
    from collections import Counter
    from ..isa import ISA
    from ..compat import isacaller
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
          f"ISACaller ran, {counts['isacaller-crash']} ISACaller crashes")
    memory = Counter(isacaller.classify(o) for o in outcomes if o.case.mem is not None)
    if memory:  # of them, the programs with a load or store
        print(f"  with a load or store (memory compared): {sum(memory.values())} cases, "
              f"{memory['agree']} agree, {memory['differ']} differ, "
              f"{memory['isa_ext-trap']} isa_ext traps, "
              f"{memory['isacaller-crash']} ISACaller crashes")
    return 1 if counts["differ"] or counts["isa_ext-trap"] else 0
