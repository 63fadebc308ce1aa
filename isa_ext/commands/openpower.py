"""``isa-ext openpower``: work with libre-soc's openpower-isa.

    isa-ext openpower check [--root CHECKOUT] [EXT ...] # would they run there?
    isa-ext openpower install [--root CHECKOUT] [EXT ...]
    isa-ext openpower uninstall [--root CHECKOUT] [EXT ...]
    isa-ext openpower test PATH ... [-- PYTEST-ARGS]  # its test modules, on isa_ext

``test`` runs openpower-isa test modules unchanged under pytest, with
isa_ext's facade (isa_ext.compat.openpower) standing in for the ``openpower``
and ``nmutil`` packages in this process only, and ends with the line
``N passed, M failed``.  Exit status 0 when nothing failed, 1 when a test
failed, 2 on bad input.  See docs/compat.md and docs/openpower-plugin.md.
"""
import os
import sys

from ..errors import IsaExtError


def register(sub):
    p = sub.add_parser("openpower", help="openpower-isa: install extensions, run its tests",
                       description=__doc__.split("\n\n")[0])
    verbs = p.add_subparsers(dest="openpower_verb", metavar="VERB")
    from ..compat.plugin import DEFAULT_EXTENSIONS
    for verb, what in (("check", "would our instructions run in openpower-isa (reasons if not)?"),
                       ("install", "write our pages and table rows into a checkout"),
                       ("uninstall", "remove them again")):
        v = verbs.add_parser(verb, help=what)
        v.add_argument("extensions", nargs="*", default=list(DEFAULT_EXTENSIONS), metavar="EXT",
                       help="isa_ext extensions to act on (default: "
                            + " ".join(DEFAULT_EXTENSIONS) + ")")
        v.add_argument("--root", help="openpower-isa checkout (default: the importable "
                                      "package's)")
        v.set_defaults(func=run_plugin, intermixed="extensions")
    t = verbs.add_parser("test", help="run openpower-isa test modules on isa_ext")
    t.add_argument("paths", nargs="+", metavar="PATH", help="test files or directories")
    from . import add_profile_option
    add_profile_option(t, "how the facade's simulator reads the spec: ",
                       default="openpower-isa")
    t.set_defaults(func=run_tests, passthrough=[])
    from . import needs_action
    p.set_defaults(func=needs_action(p, verbs))


def run_plugin(args):
    from ..compat import plugin
    from ..isa import available_extensions
    from .machine_options import suggest
    have = available_extensions()
    unknown = [e for e in args.extensions if e not in have]
    if unknown:
        raise IsaExtError("no such extension: " + ", ".join(repr(e) + suggest(e, have)
                                                              for e in unknown)
                          + f" (have {' '.join(have)})")
    argv = [args.openpower_verb, *args.extensions]
    if getattr(args, "root", None):
        argv += ["--root", args.root]
    return plugin.main(argv, prog="isa-ext openpower")


def run_tests(args):
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        raise IsaExtError(f"no such test file or directory: {', '.join(missing)}")
    try:
        import pytest  # noqa: F401
    except ImportError:
        raise IsaExtError("pytest is not installed (pip install pytest)") from None
    from ..compat.openpower.pytest_run import run_test_files
    passed, failed, code = run_test_files(args.paths, args.passthrough, args.profile)
    sys.stdout.flush()
    print(f"{passed} passed, {failed} failed")
    if code in (3, 4):  # pytest: internal error / usage error (bad pytest arguments)
        return 2
    return 1 if failed or code == 1 else 0
