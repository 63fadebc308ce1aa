"""Every isa_ext module imports on the running interpreter.

On CPython this is near trivial; its point is PyPy (Debian's pypy3, Python 3.9,
run by .ci/run over tests/pypy_core.txt): a 3.10+ construct anywhere in the
package (``match``, ``X | Y`` in an evaluated annotation, ``zip(strict=)``)
fails here, not in a user's hands.  Modules of an optional extra whose
dependency is absent are the only ones allowed to fail, and only with that
dependency's name.
"""
import importlib
import pkgutil

import pytest

import isa_ext

OPTIONAL = {"isa_ext.hdl.swizzle": "amaranth"}  # the hdl extra
MODULES = sorted(m.name for m in pkgutil.walk_packages(isa_ext.__path__, "isa_ext.")
                 if not m.name.endswith("__main__"))  # __main__ runs the CLI


@pytest.mark.parametrize("name", MODULES)
def test_module_imports(name):
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as e:
        if OPTIONAL.get(name) != e.name:
            raise
