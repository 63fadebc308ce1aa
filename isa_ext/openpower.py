"""Alias kept for ``python -m isa_ext.openpower install|uninstall|check``; the
code lives in :mod:`isa_ext.compat.plugin` and the command is
``isa-ext openpower``."""
import sys

from .compat.plugin import *  # noqa: F401,F403 (the old module's names)
from .compat.plugin import main

if __name__ == "__main__":
    sys.exit(main())
