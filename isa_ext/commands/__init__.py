"""Sub-commands of ``isa-ext``: one module each, with ``register(subparsers)``."""


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
