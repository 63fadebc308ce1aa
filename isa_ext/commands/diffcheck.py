"""``isa-ext diffcheck``: prove the scalar core against QEMU and GNU's toolchain.

    isa-ext diffcheck --cases 10000 --seed 1 --out out/diffcheck
    isa-ext diffcheck --only add addo. divw --cases 500
    isa-ext diffcheck --cases 10000 --jobs 2          # over 2 processes, same report
    isa-ext diffcheck --cases 100000 --cluster tcp://scheduler:8786   # a Dask cluster
    isa-ext diffcheck --replay out/diffcheck/mismatch-31-fcfids_dot.s
    isa-ext diffcheck --c tests/c            # the C program suite, -O0 and -O2

``--against`` names another reference: libre-soc's simulator, whose options
and run live with the rest of the openpower-isa compatibility
(isa_ext/compat/diffcheck_cli.py, docs/compat.md).

Exit status 0 when everything agrees, 1 on any mismatch, 2 on bad input or a
missing tool.
"""
from ..errors import IsaExtError
from ..progress import Progress
from ..compat import diffcheck_cli as libresoc


def register(sub):
    p = sub.add_parser("diffcheck", help="differential test of the scalar core against QEMU",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=10000, help="random cases to run (10000)")
    p.add_argument("--seed", type=int, default=1, help="random seed (1)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write a reproducer .s file per mismatch into DIR")
    p.add_argument("--batch", type=int, default=500, help="cases per ELF (500)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help=f"run the ELF batches (with {libresoc.WITH}: the programs) "
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
    p.add_argument("--against", choices=("qemu", libresoc.REFERENCE), default="qemu",
                   help=f"the reference: QEMU (scalar core, default) or {libresoc.DESCRIPTION}")
    libresoc.add_arguments(p)
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
    if args.against == libresoc.REFERENCE:
        return libresoc.run(args)
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
