"""Extensions as objects, and the registry each ISA builds from the ones it names.

An extension is its spec (``decoder/<name>/*.csv`` tables and
``pseudocode/<name>/*.mdwn`` pages, in the ISA's spec source or in a folder of
its own) plus an :class:`Extension` object saying what else it adds: helpers
for the pseudocode compiler, assembly operand notations, SVP64 RM categories,
prefix and executor hooks, machine options, an HDL generator.  ``ISA(extensions
=[...])`` takes names of built-in extensions (:data:`BUILTIN`) or objects and
gives each one's :meth:`Extension.setup` a :class:`Registry` of that ISA alone,
so two ISAs with different extensions coexist in one process and nothing an
extension adds leaks into another ISA (docs/adding-an-extension.md).
"""
import collections
import functools
import importlib
import os

from .errors import SpecError
from .pseudocode import library as base_library



class Extension:
    """What one extension adds to an ISA besides its tables and pages.

    ``name``: the folder of its tables and pages; ``root``: a spec root
    (holding ``decoder/<name>/`` and ``pseudocode/<name>/``) of its own, None
    for the ISA's spec source; ``requires``: extensions it needs switched on
    (named, or objects).  A subclass (or an instance given callables) overrides
    :meth:`setup` to register its helpers into the ISA's :class:`Registry`;
    ``categories``: :class:`isa_ext.svp64.rm.Category` objects it adds, known
    before any table of another source is read; ``hdl``: a module path whose
    ``generate(out_dir)`` writes its hardware models; ``plugin_helpers``: the
    openpower-isa plugin's helpers it installs (a module path,
    :mod:`isa_ext.compat`); ``machine_options``: ``{name: apply(sim, value)}``,
    the keywords ``Simulator(name=value)`` takes for it (gpu's ``gpu=``).
    """
    name = None
    root = None
    requires = ()
    categories = ()
    hdl = None
    plugin_helpers = None
    machine_options = {}

    def __init__(self, name=None, *, root=None, setup=None, categories=None, hdl=None,
                 requires=None):
        if name is not None:
            self.name = name
        if root is not None:
            self.root = os.fspath(root)
        if setup is not None:
            self._setup = setup
        if categories is not None:
            self.categories = tuple(categories)
        if hdl is not None:
            self.hdl = hdl
        if requires is not None:
            self.requires = tuple(requires)
        if not self.name:
            raise SpecError("an extension needs a name")

    def setup(self, reg):
        """Register what the extension adds into ``reg`` (a :class:`Registry`);
        ``reg.isa`` has its rows and pages already."""
        fn = getattr(self, "_setup", None)
        if fn is not None:
            fn(reg)

    def fingerprint(self):
        """Identifies the extension's helper code, for the compiled-page disk
        cache: the source of the module defining its class or setup."""
        return _source_hash(type(self).__module__ if type(self) is not Extension
                            else getattr(getattr(self, "_setup", None), "__module__", ""),
                            self.name)

    def __repr__(self):
        return f"<Extension {self.name}>"


@functools.lru_cache(maxsize=None)
def _source_hash(module_name, name):
    """A hash of ``name`` and the source of ``module_name``: of every module of
    it when it is a package (an extension's helpers may live in any), read
    through importlib so that a zipped install hashes too."""
    from . import disk_cache, parse_cache
    h = disk_cache.sha256(name.encode())
    if module_name:
        module = importlib.import_module(module_name)
        if hasattr(module, "__path__"):
            h.update(parse_cache.sources_digest(module_name, (".py",)).encode())
        else:
            import inspect   # (10 ms: a module's extension, not a built-in package)
            try:
                h.update(inspect.getsource(module).encode())
            except (OSError, TypeError):  # no source (an interactive session)
                pass
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def builtin(name):
    """The built-in extension ``name``: the ``EXTENSION`` object of package
    ``isa_ext.ext.<name>`` when it has Python, else a plain :class:`Extension`
    (tables and pages alone: base, fptrans)."""
    module = f"isa_ext.ext.{name}"
    try:
        return importlib.import_module(module).EXTENSION
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
    return Extension(name)


def machine_option(extensions, name):
    """``apply(sim, value)`` of machine option ``name``: that of one of
    ``extensions``, else of a built-in extension, else None."""
    for ext in extensions:
        if name in ext.machine_options:
            return ext.machine_options[name]
    for other in builtin_names():
        ext = builtin(other)
        if name in ext.machine_options:
            return ext.machine_options[name]
    return None


def builtin_names():
    """The extensions of isa_ext's own spec (its ``decoder/`` folders)."""
    from . import specdata
    return specdata.source().extensions()


def resolve(extensions, available):
    """``extensions`` (names or :class:`Extension` objects) as objects, those
    required added before the ones needing them; SpecError for a name the spec
    source lacks."""
    out, seen = [], set()

    def add(ext):
        obj = ext if isinstance(ext, Extension) else None
        if obj is None:
            if not isinstance(ext, str):
                raise SpecError(f"extension {ext!r} is neither a name nor an Extension")
            if ext not in available:
                raise SpecError(f"unknown extension(s) {[ext]}; have {available}")
            obj = builtin(ext)
        if obj.name in seen:
            return
        seen.add(obj.name)
        for req in obj.requires:
            add(req)
        out.append(obj)
    for ext in extensions:
        add(ext)
    return out


class Library:
    """The pseudocode compiler's tables for one ISA: the base library
    (:mod:`isa_ext.pseudocode.library`, looked up live) under what the ISA's
    extensions add (see that module for what each table holds)."""
    TABLES = ("intrinsics", "runtime", "constants", "setters", "names", "inline",
              "inline_assign")

    def __init__(self):
        base = {"intrinsics": base_library.INTRINSICS, "runtime": base_library.RUNTIME,
                "constants": base_library.CONSTANTS, "setters": base_library.SETTERS,
                "names": base_library.NAMES, "inline": base_library.INLINE,
                "inline_assign": base_library.INLINE_ASSIGN}
        self.own = {t: {} for t in self.TABLES}
        for t in self.TABLES:
            setattr(self, t, collections.ChainMap(self.own[t], base[t]))
        self.tag = ""


@functools.lru_cache(maxsize=None)
def base_library_tables():
    """The library with no extension's helpers (pages compiled outside an ISA)."""
    return Library()


class Registry:
    """What the extensions of one ISA registered; the ISA reads it, nothing
    else writes it.  Methods are the interface :meth:`Extension.setup` uses."""

    def __init__(self, isa):
        from .svp64 import rm as rmmod
        self.isa = isa
        self.library = Library()
        self.categories = dict(rmmod.CATEGORIES)  # the base SVP64 categories
        self.operand_types = {}
        self.prefixed_forms = []
        self.prefix_handler = None
        self.sv_assemble = self.sv_disassemble = None
        self.row_executors = []
        self._memos = {}

    def _put(self, table, name, value):
        self.library.own[table][name] = value

    def memo(self, name):
        """A dict an extension keeps per ISA (compiled pages of its own, ...)."""
        return self._memos.setdefault(name, {})

    # -- the pseudocode compiler's helpers -----------------------------------
    def intrinsic(self, name, gen):
        """``name(args)`` in pseudocode: ``gen(compiler, *Val) -> Val`` at compile time."""
        self._put("intrinsics", name, gen)

    def runtime(self, name, fn):
        """A Python function the generated code calls by ``name``."""
        self._put("runtime", name, fn)

    def runtime_function(self, name, width, pyname, fn):
        """``name(args)`` in pseudocode calls ``fn`` (as ``pyname``) at run
        time; the result has the fixed ``width``."""
        self.runtime(pyname, fn)

        def gen(comp, *args):
            from .pseudocode.compiler import Val
            return Val(f"{pyname}({', '.join(a.code for a in args)})", width)
        self.intrinsic(name, gen)

    def name(self, name, gen):
        """A name read like a variable, computed at run time: ``gen(compiler) -> Val``."""
        self._put("names", name, gen)

    def constant(self, name, value, width):
        self._put("constants", name, (value, width))

    def setter(self, name, gen):
        """``name(args) <- v``: ``gen(compiler, [Val], Val) -> code``."""
        self._put("setters", name, gen)

    def inline(self, name, form):
        """Translated blocks' inline expression of run-time helper ``name``."""
        self._put("inline", name, form)

    def inline_assign(self, name, form):
        """Translated blocks' statement form of ``t = name(...)``."""
        self._put("inline_assign", name, form)

    # -- the assembler, decoder and executor ---------------------------------
    def operand_type(self, name, notation):
        """Table column ``optype`` ``name``: ``parse(text) -> int``, ``format(int) -> text``."""
        self.operand_types[name] = notation

    def category(self, cat):
        """An SVP64 RM category (:class:`isa_ext.svp64.rm.Category`)."""
        self.categories[cat.name] = cat
        return cat

    def prefixed_form(self, form):
        """A 64-bit form other than SVP64 (see ``ISA.prefixed_forms``)."""
        self.prefixed_forms.append(form)

    def svp64_prefix(self, handler):
        """``handler(sim, prefix, suffix) -> callable`` for SVP64-prefixed words;
        the first registered stands (they all dispatch by RM category)."""
        if self.prefix_handler is None:
            self.prefix_handler = handler

    def svp64_syntax(self, assemble, disassemble):
        """The ``sv.`` assembler and disassembler hooks."""
        self.sv_assemble, self.sv_disassemble = assemble, disassemble

    def row_executor(self, fn):
        """``fn(decoded) -> callable or None``: runs a 32-bit word in place of
        its compiled page (the gpu extension's one-lane warps)."""
        self.row_executors.append(fn)

