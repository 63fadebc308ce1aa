"""Sub-commands of ``isa-ext``: one module each, with ``register(subparsers)``."""
