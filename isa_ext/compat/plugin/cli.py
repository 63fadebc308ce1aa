"""``isa-ext openpower install|uninstall|check`` (also ``python -m
isa_ext.openpower ...``): the command line of the plugin."""
import argparse
import sys

from ...errors import IsaExtError
from .checkout import OpenPowerError, locate
from .installer import check, install, uninstall
from .planner import DEFAULT_EXTENSIONS


def main(argv=None, prog="python -m isa_ext.openpower"):
    p = argparse.ArgumentParser(prog=prog,
                                description="install isa_ext extensions into openpower-isa")
    p.add_argument("action", choices=("install", "uninstall", "check"))
    p.add_argument("extensions", nargs="*", default=list(DEFAULT_EXTENSIONS))
    p.add_argument("--root", help="openpower-isa checkout (default: the importable package's)")
    # intermixed: "install --root DIR swizzle" names the extensions after the option
    args = p.parse_intermixed_args(argv)
    try:
        if args.action == "check":
            problems = check(args.extensions, args.root)
            scope = ""
            if args.root is None:
                try:
                    locate()
                except OpenPowerError:
                    scope = (" (page grammar only: no openpower-isa checkout found; pass "
                             "--root CHECKOUT to check what would run there)")
            print("\n".join(problems) or
                  f"openpower-isa compatible: {', '.join(args.extensions)}{scope}")
            return 1 if problems else 0
        if args.action == "install":
            report = []
            written = install(args.extensions, args.root, report=report)
            for line in report:
                print(line, file=sys.stderr)
            for path, n in written.items():
                print(f"{path}: {n}")
            if not written:
                print(f"{prog}: nothing installable", file=sys.stderr)
                return 1
        else:
            uninstall(args.extensions, args.root)
        return 0
    except (IsaExtError, OSError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
