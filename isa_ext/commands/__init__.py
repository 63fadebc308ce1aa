"""Sub-commands of ``isa-ext``: one module each, with ``register(subparsers)``."""
import gc


# set by isa_ext.cli.main while it runs the process's own command line: the
# process ends with the command, what its start-up made lives until then
process_command_line = False


class paused_collection:
    """``with paused_collection():`` the cycle collector off for a start-up
    (imports, the ISA's tables, the program's loading: 50,000 new container
    objects and no garbage, which its passes would walk again and again --
    10-20 ms of a short run), back on after as it was: the run itself
    collects.  For the process's own command line what the start-up made is
    then frozen (``gc.freeze``: left out of every later collection), as it
    lives until the exit: the first collection after the pause would walk it
    all once more (9 ms)."""

    def __enter__(self):
        self.was_enabled = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *_exc):
        if process_command_line and hasattr(gc, "freeze"):   # (not on PyPy)
            gc.freeze()
        if self.was_enabled:
            gc.enable()


def add_profile_option(parser, context="", default="spec"):
    """``--profile NAME``: which reading of the spec to follow (isa_ext/profile.py)."""
    from ..profile import PROFILES
    parser.add_argument("--profile", choices=sorted(PROFILES), default=default,
                        help=context + "; ".join(f"{n}: {p.summary}"
                                                 for n, p in PROFILES.items())
                        + " (default: %(default)s)")


def needs_action(parser, actions):
    """The ``func`` of a command that takes an ACTION (``isa-ext pseudo show``)
    given none: a one-line usage error naming the actions."""
    def missing(_args):
        parser.error(f"missing {actions.metavar or 'ACTION'} (choose from {', '.join(sorted(actions.choices))})")
    return missing
