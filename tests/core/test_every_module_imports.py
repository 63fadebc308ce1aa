"""Every isa_ext module imports on the running interpreter.

On CPython this is near trivial; its point is PyPy (Debian's pypy3, Python 3.9,
run by .ci/run over tests/pypy_core.txt): a 3.10+ construct anywhere in the
package (``match``, ``X | Y`` in an evaluated annotation, ``zip(strict=)``)
fails here, not in a user's hands.  Modules of an optional extra whose
dependency is absent are the only ones allowed to fail, and only with that
dependency's name.  The imports run in a fresh interpreter: some modules
(the openpower-isa facade) install themselves in ``sys.modules`` on import,
which must not leak into the other tests of this process.
"""
import json
import os
import subprocess
import sys

from conftest import ROOT
TOP = ROOT
# the hdl extra; the helper module the openpower plugin copies into an
# openpower-isa checkout (it runs there, importing openpower)
OPTIONAL = {"isa_ext.ext.swizzle.hdl": "amaranth",
            **{f"isa_ext.compat.plugin.installed_helpers.{part}": "openpower"
               for part in ("common", "swizzle", "gpu")}}

IMPORT_ALL = r"""
import importlib, json, pkgutil, isa_ext
out = {}
for m in pkgutil.walk_packages(isa_ext.__path__, "isa_ext."):
    if m.name.endswith("__main__"):  # runs the CLI
        continue
    try:
        importlib.import_module(m.name)
        out[m.name] = None
    except ModuleNotFoundError as e:
        out[m.name] = ["ModuleNotFoundError", e.name]
    except Exception as e:
        out[m.name] = [type(e).__name__, str(e)]
print(json.dumps(out))
"""


def test_every_module_imports():
    r = subprocess.run([sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True,
                       cwd=TOP, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    results = json.loads(r.stdout.strip().splitlines()[-1])
    assert len(results) > 100 and "isa_ext.sim" in results  # the walk found the package
    failed = {name: why for name, why in results.items()
              if why is not None and why != ["ModuleNotFoundError", OPTIONAL.get(name)]}
    assert failed == {}
