"""``isa-ext diffcheck``: prove the scalar core against QEMU and GNU's toolchain.

    isa-ext diffcheck --cases 10000 --seed 1 --out out/diffcheck
    isa-ext diffcheck --only add addo. divw --cases 500
    isa-ext diffcheck --replay out/diffcheck/mismatch-31-fcfids_dot.s
    isa-ext diffcheck --c tests/c            # the C program suite, -O0 and -O2

Exit status 0 when everything agrees, 1 on any mismatch, 2 on bad input or a
missing tool.
"""
from ..errors import IsaExtError


def register(sub):
    p = sub.add_parser("diffcheck", help="differential test of the scalar core against QEMU",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=10000, help="random cases to run (10000)")
    p.add_argument("--seed", type=int, default=1, help="random seed (1)")
    p.add_argument("--out", metavar="DIR", default=None,
                   help="write a reproducer .s file per mismatch into DIR")
    p.add_argument("--batch", type=int, default=500, help="cases per ELF (500)")
    p.add_argument("--only", nargs="+", metavar="MNEMONIC",
                   help="restrict to these instructions (base or variant mnemonics)")
    p.add_argument("--sequences", type=float, default=0.1,
                   help="fraction of cases that are dependent sequences (0.1)")
    p.add_argument("--replay", metavar="FILE", help="run one reproducer under both and compare")
    p.add_argument("--c", metavar="DIR", dest="c_dir",
                   help="run the freestanding C programs in DIR at -O0 and -O2")
    p.set_defaults(func=_run)


def _run(args):
    if args.cases < 0 or args.batch < 1:
        raise IsaExtError("--cases must be >= 0 and --batch >= 1")
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
        from ..diffcheck.cprograms import run_suite
        results = run_suite(args.c_dir)
        for r in results:
            print(r.summary())
        return 0 if all(r.ok for r in results) else 1
    from ..diffcheck import DiffCheck
    figures = DiffCheck(seed=args.seed, out=args.out, batch=args.batch, only=args.only,
                        sequences=args.sequences).run(args.cases)
    print(figures.summary())
    return 0 if figures.ok else 1
