"""``isa-ext`` command line.  Each sub-command lives in ``isa_ext/commands/<name>.py``
and exposes ``register(subparsers)``; this module only discovers and dispatches.

Exit status: 0 success, 1 the program/check failed (trap, mismatch), 2 bad input
(assembly errors, unreadable files, bad options), 130 on Ctrl-C; ``isa-ext run``
returns the guest's own exit status and its own codes for a trap or a step limit
(``isa_ext/commands/run.py``).  No traceback reaches the user.
"""
import argparse
import gc
import importlib
import os
import re
import sys

from . import __version__
from .errors import IsaExtError, AsmError


class Parser(argparse.ArgumentParser):
    """argparse, with a suggestion for a near-miss choice (``isa-ext rn`` -> run);
    sub-command parsers inherit it."""

    def error(self, message):
        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:
            choices = [c.strip(" '") for c in m.group(2).split(",")]
            import difflib
            close = difflib.get_close_matches(m.group(1), choices, n=1)
            if close:
                message += f"; did you mean {close[0]}?"
        # one line, not the usage block: the message says what is wrong
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser(command=None):
    """The parser of every sub-command; with ``command`` (a sub-command's
    name) that one alone when its module (the name, "-" as "_") registers it:
    importing and building all of them took 70 ms of every start."""
    p = Parser(prog="isa-ext", description=(
        "Specify, run and review Power ISA / SVP64 extensions."))
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    from . import commands
    module = command.replace("-", "_") if isinstance(command, str) else None
    if module is not None and module.isidentifier():
        # imported by its name, not found by listing the package
        # (pkgutil.iter_modules imports inspect: 10 ms)
        name = f"{commands.__name__}.{module}"
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            mod = None
        if hasattr(mod, "register"):
            mod.register(sub)
            if command in sub.choices:
                return p
        return build_parser()
    import pkgutil
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    for name in names:
        mod = importlib.import_module(f"{commands.__name__}.{name}")
        if hasattr(mod, "register"):
            mod.register(sub)
    return p


def parse(parser, argv):
    """Parse ``argv``.  Two opt-ins for a sub-command: ``passthrough=[]`` as a
    default takes everything after ``--`` unparsed (``isa-ext openpower test
    PATH -- -k name``), and ``intermixed="NAME"`` lets positionals of list
    argument NAME follow options (``install --root DIR swizzle``)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--" in argv:
        cut = argv.index("--")
        args, extras = parser.parse_known_args(argv[:cut])
        if getattr(args, "passthrough", None) is not None:
            _take_intermixed(parser, args, extras)
            args.passthrough = argv[cut + 1:]
            return args
    args, extras = parser.parse_known_args(argv)
    _take_intermixed(parser, args, extras)
    return args


def _take_intermixed(parser, args, extras):
    target = getattr(args, "intermixed", None)
    if extras and (target is None or any(e.startswith("-") for e in extras)):
        parser.error(f"unrecognized arguments: {' '.join(extras)}")
    if extras:
        setattr(args, target, list(getattr(args, target) or []) + extras)


def main(argv=None):
    """Run the command line ``argv`` (the process's own when None: the
    console script and ``python -m isa_ext``) and return its exit status."""
    if argv is not None:
        return _main(list(argv))
    from . import commands
    commands.process_command_line = True
    try:
        return _main(sys.argv[1:])
    finally:
        commands.process_command_line = False
        # the process ends now: the interpreter's last cycle collection
        # would walk every object left (the parsed tables' 40,000: 20 ms
        # of a short run's exit) only to free memory the exit frees anyway.
        # Nothing of isa_ext's needs it (files are written in with-blocks,
        # host descriptors are closed by the exit); not done when main is
        # called in a longer-lived process with an argv of its own (nor on
        # PyPy, which has no gc.freeze)
        if hasattr(gc, "freeze"):
            gc.freeze()


def _main(argv):
    from .commands import paused_collection
    with paused_collection():
        parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
        args = parse(parser, argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except AsmError as e:
        print(str(e), file=sys.stderr)
        return 2
    except IsaExtError as e:
        print(f"isa-ext: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`isa-ext asm x.s | head`): not an error of ours
        try:  # point stdout at /dev/null so the exit-time flush stays quiet
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except OSError as e:
        print(f"isa-ext: error: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
