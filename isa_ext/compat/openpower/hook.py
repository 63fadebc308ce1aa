"""The import hook: while active, ``import openpower.X`` / ``nmutil.X`` (and ``cached_property``) give the
facade's modules, and openpower-isa's own test and case files (unchanged, from
the checkout the tests live in) load from their files on top of it.

Only :func:`facade_imports` installs it, for the duration of a ``with`` block
(``isa-ext openpower test``); on leaving, the finder and every ``openpower``/
``nmutil`` module imported meanwhile are removed again.
"""
import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

__all__ = ["FACADE_MODULES", "FacadeFinder", "facade_imports", "source_root_of"]

# module name -> (facade module under isa_ext.compat.openpower, names it provides)
FACADE_MODULES = {
    "openpower.decoder.selectable_int": ("selectable_int",
                                         ("SelectableInt", "FieldSelectableInt", "selectconcat")),
    "openpower.decoder.isa.caller": ("state", ("SVP64State", "CRFields", "get_masked_reg",
                                               "set_masked_reg")),
    "openpower.decoder.isa.svstate": ("state", ("SVP64State",)),
    "openpower.decoder.isa.svshape": ("state", ("SVSHAPE",)),
    "openpower.decoder.isa.test_runner": ("run", ("run_tst",)),
    "openpower.simulator.program": ("program", ("Program",)),
    "openpower.insndb.asm": ("program", ("SVP64Asm",)),
    "openpower.test.common": ("runner", ("TestAccumulatorBase", "TestCase", "SkipCase",
                                         "skip_case", "skip_case_if")),
    "openpower.test.state": ("runner", ("ExpectedState",)),
    "openpower.test.runner": ("runner", ("TestRunnerBase",)),
    "openpower.decoder.helpers": ("helpers", ("exts", "fp64toselectable", "SINGLE")),
    "openpower.decoder.isafunctions.double2single": ("isafunctions",
                                                     ("ISACallerFnHelper_double2single",)),
    "openpower.endian": ("facts", ("bigendian",)),
    "openpower.consts": ("facts", ("SVP64CROffs",)),
    "openpower.util": ("facts", ("log",)),
    "nmutil.formaltest": ("runner", ("FHDLTestCase",)),
    "nmutil.plain_data": ("plain_data", ("plain_data", "fields", "replace",
                                         "FrozenPlainDataError")),
    "nmutil.prefix_sum": ("prefix_sum", ("Op", "prefix_sum_ops", "prefix_sum")),
    "nmutil.sim_util": ("sim_util", ("hash_256",)),
    "openpower.decoder.power_enums": ("enums", ("FMinMaxMode",)),
    "cached_property": ("facts", ("cached_property",)),  # a PyPI package some case files use
}
TOP_LEVEL = ("openpower", "nmutil", "cached_property")
# Pure-Python helpers of openpower-isa's tests that load from the checkout as they are.
REAL_HELPERS = {"openpower.decoder.isa." + m for m in (
    "remap_dct_yield", "remap_fft_yield", "remap_preduce_yield", "remapyield", "maxloc")}
FACADE_PACKAGE = __name__.rsplit(".", 1)[0]


def _ours(name):
    return name.split(".", 1)[0] in TOP_LEVEL


def loads_from_checkout(name):
    """Whether ``name`` is test code of openpower-isa (its test modules, case
    files, pure helpers) rather than the implementation the facade replaces."""
    last = name.rsplit(".", 1)[-1]
    return name.startswith("openpower.test.") or last.startswith("test_") or name in REAL_HELPERS


class _FacadeLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return None  # the default: a fresh, empty module

    def exec_module(self, module):
        entry = FACADE_MODULES.get(module.__name__)
        if entry is None:
            return  # a package: nothing of its own
        source, names = entry
        facade = importlib.import_module(f"{FACADE_PACKAGE}.{source}")
        for n in names:
            setattr(module, n, getattr(facade, n))
        module.__all__ = list(names)


class FacadeFinder(importlib.abc.MetaPathFinder):
    """Resolves ``openpower.*`` and ``nmutil.*``: facade modules first, then
    openpower-isa test files under ``source_roots``; anything else is an
    ImportError naming the module."""

    def __init__(self, source_roots=()):
        self.source_roots = [os.path.abspath(r) for r in source_roots]
        self.packages = {name.rsplit(".", i)[0] for name in FACADE_MODULES
                         for i in range(1, name.count(".") + 1)}

    def _checkout_path(self, name):
        parts = name.split(".")
        for root in self.source_roots:
            base = os.path.join(root, *parts)
            if os.path.isfile(os.path.join(base, "__init__.py")):
                return base, True
            if os.path.isfile(base + ".py"):
                return base + ".py", False
        return None, False

    def find_spec(self, name, path=None, target=None):
        if not _ours(name):
            return None
        loader = _FacadeLoader()
        if name in FACADE_MODULES:
            return importlib.machinery.ModuleSpec(name, loader)
        where, is_package = self._checkout_path(name)
        if name in self.packages or name in TOP_LEVEL or is_package:
            # an empty package: this finder resolves every submodule itself
            return importlib.machinery.ModuleSpec(name, loader, is_package=True)
        if where is not None and loads_from_checkout(name):
            return importlib.util.spec_from_file_location(name, where)
        raise ModuleNotFoundError(
            f"{name} is not provided by isa_ext's openpower facade "
            f"(isa_ext.compat.openpower provides {', '.join(sorted(FACADE_MODULES))})", name=name)


def source_root_of(path):
    """The directory holding the ``openpower`` package a test file belongs to, or None."""
    d = os.path.dirname(os.path.abspath(path)) if not os.path.isdir(path) else os.path.abspath(path)
    while True:
        if os.path.basename(d) == "openpower" and os.path.isfile(os.path.join(d, "__init__.py")):
            return os.path.dirname(d)
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


@contextlib.contextmanager
def facade_imports(source_roots=()):
    """Install the hook for the ``with`` block; afterwards remove it and every
    openpower/nmutil module imported meanwhile (restoring any imported before)."""
    finder = FacadeFinder(source_roots)
    before = {k: m for k, m in sys.modules.items() if _ours(k)}
    for k in before:
        del sys.modules[k]
    sys.meta_path.insert(0, finder)
    try:
        yield finder
    finally:
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)
        for k in [k for k in sys.modules if _ours(k)]:
            del sys.modules[k]
        sys.modules.update(before)
