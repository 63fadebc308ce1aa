"""The instruction set: forms + decoder tables + pseudocode pages, per extension.

Spec data lives in ``decoder/`` and ``pseudocode/``; each extension is a folder
of its own in both (``decoder/base/*.csv`` with ``pseudocode/base/*.mdwn``), and
an :class:`ISA` can be built with any subset of extensions switched on.  An
extension's Python (helpers, hooks: :mod:`isa_ext.extension`) registers into
the registry of the ISA that names it, so ISAs with different extensions
coexist in one process.  Pseudocode is compiled lazily, on an instruction's first decode, and the
generated Python is cached on disk keyed by a hash of its inputs.
"""
import functools
import marshal
import os

from . import specdata
from . import profile as profiles
from .errors import IsaExtError, SpecError, Trap
from .forms import parse_forms
from .tables import parse_table, overlaps, excluded
from .pseudocode.pages import parse_pages
from .pseudocode import compiler as pcompiler
from . import extension as extmod
from . import disk_cache, parse_cache
from .translate import code_store
from . import prefix as prefixes

COMPILER_VERSION = "5"


def available_extensions(root=None):
    return specdata.source(root).extensions()


_cache_dir = disk_cache.directory
_legacy_removed = set()   # cache directories already cleaned by this process


def _remove_legacy_cache():
    """The one-file compiled cache of isa_ext before 2026-11-29
    (``compiled.json``, and ``compiled.json.<pid>`` left by a process that
    died writing it; tens of MB nothing reads now): removed, once a process."""
    folder = _cache_dir()
    if folder in _legacy_removed:
        return
    _legacy_removed.add(folder)
    import glob
    for path in glob.glob(os.path.join(glob.escape(folder), "compiled.json*")):
        try:
            os.unlink(path)
        except OSError:
            pass


def _entry_path(key):
    """The file caching compiled page ``key`` (a sha256 hex digest)."""
    return os.path.join(_cache_dir(), "compiled", key[:2], key + ".entry")


class Decoded:
    """A decoded 32-bit word: its table row and field values."""
    __slots__ = ("spec", "word", "fields", "mnemonic")

    def __init__(self, spec, word, fields, mnemonic):
        self.spec, self.word, self.fields, self.mnemonic = spec, word, fields, mnemonic


class ISA:
    """``extensions``: names of built-in extensions (the folders of
    ``decoder/``) and :class:`isa_ext.extension.Extension` objects, in order;
    None for every built-in one."""
    # entries in each per-word cache (decoded words, executables) before it is
    # emptied and refilled: a bound on memory for programs that run many
    # distinct words (fuzzing, self-modifying code), far above any loop's need
    DECODE_CACHE_LIMIT = 1 << 16

    def __init__(self, extensions=None, use_cache=True, root=None, profile=None,
                 page_source=None):
        self.spec = spec = specdata.source(root)
        self.profile = profiles.get(profile)
        allext = spec.extensions()
        if extensions is None:
            extensions = allext
        elif isinstance(extensions, (str, extmod.Extension)):
            extensions = [extensions]
        unknown = sorted(e for e in extensions if isinstance(e, str) and e not in allext)
        if unknown:
            raise SpecError(f"unknown extension(s) {unknown}; have {allext}")
        # the extension objects (isa_ext.extension), those required first
        self.extension_objects = extmod.resolve(extensions, allext)
        self.extensions = [e.name for e in self.extension_objects]
        # where each extension's tables and pages are: the spec source, or a
        # folder of the extension's own
        self._ext_spec = {e.name: spec if e.root is None else specdata.folder(e.root)
                          for e in self.extension_objects}
        # everything the extensions add, for this ISA alone (extension.Registry)
        self.registry = extmod.Registry(self)
        for ext in self.extension_objects:
            for cat in ext.categories:
                self.registry.category(cat)
        # the rows and pages as parsed, overlaid by nothing (no profile
        # pages, no page source): made at their first use from the parse
        # cache (parse_cache.StoredTables), else all made here
        plain = not self.profile.pages and page_source is None
        self.forms, rows, all_pages, self._stored = self._parse(use_cache, plain)
        # pages and rows from outside the spec data, laid over the extensions'
        # (an openpower-isa checkout's: isa_ext.compat.root.read); an object
        # with apply(isa), form_for(row, cache), fall_back(isa, row, error)
        # and trap_reason(row, error)
        self.page_source = page_source
        if self._stored is not None:
            self._rows = self._all_pages = None
            stored = self._stored
            self.pages = stored.pages
            self.by_mnemonic = stored.by_mnemonic
            self._by_po, self._prefixed_by_po = stored.by_po, stored.prefixed_by_po
        else:
            self._rows, self._all_pages = rows, all_pages
            self.pages = first_pages(all_pages)  # mnemonic (of any syntax line) -> Page
            self._overlay_profile_pages(spec)
            if page_source is not None:
                page_source.apply(self)
            source_forms = {}
            for row in self.rows:
                row.page = self.pages.get(row.mnemonic)
                if page_source is not None and row.page is not None:
                    row.form = page_source.form_for(row, source_forms)
            self.by_mnemonic, self._by_po, self._prefixed_by_po = index_rows(self.rows)
        self._decode_cache = {}
        self._compiled = {}
        self._exec_cache = {}
        self.use_cache = use_cache
        self._disk = None  # key -> cached compilation read or made by this ISA
        self._unsaved, self._disk_dirty = set(), False
        reg = self.registry
        for ext in self.extension_objects:
            ext.setup(reg)
        reg.library.tag = "|".join(f"{e.name}:{e.fingerprint()}"
                                   for e in self.extension_objects)
        # the pseudocode compiler's tables: the base library and the helpers
        # of this ISA's extensions (extension.Library)
        self.library = reg.library
        # SVP64 RM categories: the base ones and those of the extensions
        self.categories = reg.categories
        # the handler of SVP64-prefixed words (an extension with RM categories
        # registers it), None when no extension does
        self.prefix_handler = reg.prefix_handler
        # 64-bit forms other than SVP64 and the 64-bit table rows (a prefix
        # word giving a 32-bit row an immediate): objects with
        # matches(prefix, suffix), accepts(row), replaces, width,
        # prefix_word(value), build(sim, prefix, suffix) and
        # disassemble(dis, prefix, suffix, pc) (the gpu extension's
        # isa_ext/ext/gpu/header_index.py); :meth:`prefixed` tries them after
        # the table rows
        self.prefixed_forms = reg.prefixed_forms
        # operand notations (table column "optype"): name -> object with
        # parse(text) -> int (raising IsaExtError, optional .column) and
        # format(value) -> text
        self.operand_types = reg.operand_types
        # the sv. assembler and disassembler (the svp64 extension's), or None
        self.sv_assemble = reg.sv_assemble and functools.partial(reg.sv_assemble, self)
        self.sv_disassemble = reg.sv_disassemble and functools.partial(reg.sv_disassemble,
                                                                        self)
        self._row_executors = tuple(reg.row_executors)
        self._own_way = set()  # words a row executor runs (runs_own_way)

    @property
    def rows(self):
        """Every table row of this ISA's extensions, in order."""
        if self._rows is None:
            self._rows = self._stored.rows()
        return self._rows

    @rows.setter
    def rows(self, value):
        self._rows = value

    @property
    def all_pages(self):
        """Every pseudocode page of this ISA's extensions, in order."""
        if self._all_pages is None:
            self._all_pages = self._stored.all_pages()
        return self._all_pages

    @all_pages.setter
    def all_pages(self, value):
        self._all_pages = value

    def sv_names(self):
        """The distinct values of the rows' "sv" column (SVP64 RM category
        names), in row order: without making every row when they are kept
        in the parse cache."""
        if self._rows is None:
            return list(self._stored.sv_names)
        return list(dict.fromkeys(row.sv for row in self._rows))

    def _parse(self, use_cache, plain=False):
        """(forms, table rows, pages, None) of this ISA's extensions, in order:
        from the parse cache (isa_ext.parse_cache) when the files are as they
        were, known by their stamps without reading them when they are; with
        ``plain`` (nothing lays pages or rows over them) what the cache holds
        is (forms, None, None, StoredTables): the rows and pages made at
        their first use."""
        # (spec, tree, folder, name, extension, where, stamp) of every file
        spec = self.spec
        listed = [(spec, "decoder", (), "forms.txt", "forms", spec.where("decoder", "forms.txt"),
                   spec.stamp("decoder", "forms.txt"))]
        for tree, suffix in (("decoder", ".csv"), ("pseudocode", ".mdwn")):
            for ext in self.extensions:
                spec = self.extension_spec(ext)
                listed += [(spec, tree, (ext,), name, ext, where, stamp)
                           for name, where, stamp in spec.listing(tree, ext, suffix=suffix)]
        stamped = [item[1:2] + item[4:] for item in listed]   # (tree, ext, where, stamp)
        skey = parse_cache.stat_key(stamped) if use_cache else None
        # (the files as stamped: part of what names this ISA to caches of
        # translated code, translation_tag)
        self._stat_key = skey
        got = parse_cache.load_by_stat(_cache_dir(), skey, 2) if skey else None
        if got is not None:
            return self._stored_tables(got, plain)
        texts = [(ext, tree, *spec.read(tree, *parts, name))
                 for spec, tree, parts, name, ext, _where, _stamp in listed]
        forms_file = texts[0][2:]
        tables = [(ext, where, text) for ext, tree, where, text in texts[1:] if tree == "decoder"]
        pages = [(ext, where, text) for ext, tree, where, text in texts[1:]
                 if tree == "pseudocode"]
        key = parse_cache.key(forms_file, tables, pages) if use_cache else None
        got = parse_cache.load(_cache_dir(), key, 2) if key else None
        if got is not None:
            got = self._stored_tables(got, plain)
        else:
            forms = parse_forms(forms_file[1], forms_file[0])
            rows = [row for ext, where, text in tables
                    for row in parse_table(text, forms, ext, where)]
            all_pages = [page for ext, where, text in pages
                         for page in parse_pages(text, where, ext)]
            got = forms, rows, all_pages, None
            if key:
                parse_cache.store(_cache_dir(), key, got[:3],
                                  (first_pages(all_pages), *index_rows(rows)))
        if skey:
            parse_cache.remember(_cache_dir(), skey, key, stamped)
        return got

    @staticmethod
    def _stored_tables(got, plain):
        forms, stored = got
        if plain:
            return forms, None, None, stored
        return forms, stored.rows(), stored.all_pages(), None

    def extension_files(self, tree, ext, *parts, suffix=""):
        """[(where, text)] of the files in ``tree`` ("decoder" or "pseudocode")
        folder ``ext/parts...`` of extension ``ext``, wherever its spec is."""
        return self.extension_spec(ext).files(tree, ext, *parts, suffix=suffix)

    def extension_spec(self, ext):
        """The spec source (specdata.SpecSource) of extension ``ext``'s files."""
        return self._ext_spec.get(ext, self.spec)

    def category(self, name):
        """The SVP64 RM category ``name`` of this ISA; traps if it has none."""
        cat = self.categories.get(name)
        if cat is None:
            raise Trap(f"SVP64 RM category {name!r} is not implemented", "illegal")
        return cat

    def configure_machine(self, sim, name, value):
        """``Simulator(name=value)``: the machine option of an extension
        (``Extension.machine_options``); that of a built-in extension that is
        switched off still configures the machine, as the option is a keyword
        of the simulator."""
        apply = extmod.machine_option(self.extension_objects, name)
        if apply is None:
            raise IsaExtError(f"no extension has the machine option {name!r}")
        apply(sim, value)

    def _overlay_profile_pages(self, spec):
        """A profile's pages replace those of the same mnemonic (see
        :mod:`isa_ext.profile`); one for an instruction no extension defines
        is a spec error, one of a switched-off extension is skipped."""
        folder = self.profile.pages
        if not folder:
            return
        for where, text in spec.files("pseudocode", "profiles", folder, suffix=".mdwn"):
            for page in parse_pages(text, where, "profile"):
                for syn in page.syntaxes:
                    if syn[0] in self.pages:
                        page.extension = self.pages[syn[0]].extension
                        self.pages[syn[0]] = page
                    elif syn[0] not in self._all_mnemonics(spec):
                        raise SpecError(f"profile page for unknown instruction {syn[0]!r}",
                                        where)

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def _all_mnemonics(spec):
        names = set()
        for ext in spec.extensions():
            for where, text in spec.files("pseudocode", ext, suffix=".mdwn"):
                for page in parse_pages(text, where, ext):
                    names.update(syn[0] for syn in page.syntaxes)
        return frozenset(names)

    # -- decoding ---------------------------------------------------------
    def decode(self, word):
        """Decode a 32-bit word; None if no table row matches."""
        return self._decode(word, self._by_po.get(word >> 26, ()))

    def decode_prefixed(self, prefix, suffix):
        """Decode an 8-byte v3.1 instruction against the 64-bit table rows
        (forms.txt ``form NAME 64``); None if no row matches, or the words
        are an invalid form of one (see :meth:`why_illegal_prefixed`).  The
        Decoded's ``word`` is ``prefix << 32 | suffix``."""
        return self._decode(prefix << 32 | suffix, self._prefixed_rows(suffix))

    def _decode(self, word, rows):
        """The first of ``rows`` that ``word`` matches, as a Decoded, cached per
        word (a 64-bit word's prefix is never 0, so the two sizes never share a
        key); None if none matches or a prefixed form's CIA-relative base is
        misused (an invalid form)."""
        d = self._decode_cache.get(word)
        if d is not None or word in self._decode_cache:
            return d
        d = None
        for row in rows:
            if word & row.mask == row.value and not (row.excludes and excluded(row, word)):
                fields = {name: f.extract(word) for name, f in row.form.fields.items()}
                for name, base in row.implicit.items():
                    # an implicit register operand (tables "FRS=FRT+MAXVL"): the
                    # register after its base in a scalar instruction (or the
                    # base itself, "RS=RC+MAXVL:0")
                    fields[name] = fields[base] + row.implicit_scalar_offset[name]
                if row.form.prefixed and self._relative_misused(row, fields):
                    break
                if self.forms.disjoint and self.forms.overlap(row.fields_used, fields):
                    break  # an invalid form (why_illegal names the overlap)
                flags = {k: fields[k] for k in row.suffix}
                d = Decoded(row, word, fields, row.mnemonic_for(flags))
                break
        if len(self._decode_cache) >= self.DECODE_CACHE_LIMIT:
            self._decode_cache.clear()
        self._decode_cache[word] = d
        return d

    def _prefixed_rows(self, suffix):
        """The 64-bit rows for this suffix's primary opcode, then those that
        match no suffix opcode (pnop)."""
        by_po = self._prefixed_by_po
        return [*by_po.get(suffix >> 26, ()), *by_po.get(None, ())]

    def _relative_misused(self, row, fields):
        """The (flag, base) of a CIA-relative form whose base is not 0 (R=1
        with RA != 0: an invalid form), or None."""
        for flag, base in self.forms.relative.items():
            if fields.get(flag) and base in row.fields_used and fields.get(base):
                return flag, base
        return None

    def why_illegal_prefixed(self, prefix, suffix):
        """Why an 8-byte instruction that nothing runs is illegal."""
        word = prefix << 32 | suffix
        for row in self._prefixed_rows(suffix):
            opcode_mask = row.mask & ~row.reserved_mask
            if word & opcode_mask != row.value or excluded(row, word):
                continue
            bad = word & row.reserved_mask
            if bad:
                bits = [b for b in range(64) if bad >> (63 - b) & 1]
                return (f"invalid form of {row.mnemonic}: reserved bit(s) "
                        f"{', '.join(map(str, bits))} set in 0x{prefix:08x} 0x{suffix:08x} "
                        f"(bits 0:31 the prefix, 32:63 the suffix)")
            fields = {name: f.extract(word) for name, f in row.form.fields.items()}
            misuse = self._relative_misused(row, fields)
            if misuse:
                return (f"invalid form of {row.mnemonic}: {misuse[0]}=1 (CIA-relative) "
                        f"with {misuse[1]}={fields[misuse[1]]}, not 0")
            overlap = self._overlap_reason(row, fields)
            if overlap:
                return overlap
        kind = prefixes.kind(prefix)
        return (f"no instruction matches the {kind}-type prefix 0x{prefix:08x} with the "
                f"suffix 0x{suffix:08x}")

    def prefixed(self, sim, prefix, suffix):
        """``f(state, CIA) -> NIA`` for the 8-byte instruction ``prefix``,
        ``suffix`` (prefix.is_prefix(prefix)): the one place that pairs a
        prefix with a suffix.  SVP64 goes to the extension's prefix handler;
        a v3.1 prefix to the 64-bit table rows, then to ``prefixed_forms``.
        Raises :class:`Trap` for an illegal pair."""
        kind = prefixes.kind(prefix)
        if kind == prefixes.SVP64:
            if self.prefix_handler is None:
                raise Trap(f"SVP64 prefix 0x{prefix:08x}: the svp64 extension is off",
                           "illegal")
            return self.prefix_handler(sim, prefix, suffix)
        f = self.executable_prefixed(prefix, suffix)
        if f is not None:
            return f
        for form in self.prefixed_forms:
            if form.matches(prefix, suffix):
                return form.build(sim, prefix, suffix)
        raise Trap(self.why_illegal_prefixed(prefix, suffix), "illegal")

    def executable_prefixed(self, prefix, suffix):
        """``f(state, CIA)`` of a 64-bit table row's instruction, or None."""
        word = prefix << 32 | suffix
        f = self._exec_cache.get(word)
        if f is not None:
            return f
        d = self.decode_prefixed(prefix, suffix)
        if d is None:
            return None
        c = self.compiled(d.spec)
        f = c.make(*[d.fields[p] for p in c.params])
        if len(self._exec_cache) >= self.DECODE_CACHE_LIMIT:
            self._exec_cache.clear()
        self._exec_cache[word] = f
        return f

    def operand_type(self, row, field):
        """The registered notation of ``row``'s operand ``field``, or None."""
        name = row.optypes.get(field)
        if name is None:
            return None
        ot = self.operand_types.get(name)
        if ot is None:
            raise SpecError(f"operand type {name!r} is not registered "
                            f"(is its extension switched on?)", row.where)
        return ot

    def why_illegal(self, word):
        """The reason a word that decodes to nothing is illegal: an invalid form
        of an instruction (reserved bits set), or no instruction at all."""
        for row in self._by_po.get(word >> 26, ()):
            opcode_mask = row.mask & ~row.reserved_mask
            if word & opcode_mask == row.value and word & row.reserved_mask \
                    and not excluded(row, word):
                bad = word & row.reserved_mask
                bits = [b for b in range(32) if bad >> (31 - b) & 1]
                return (f"invalid form of {row.mnemonic}: reserved bit(s) "
                        f"{', '.join(map(str, bits))} set in word 0x{word:08x}")
            if word & row.mask == row.value and not excluded(row, word):
                fields = {name: f.extract(word) for name, f in row.form.fields.items()}
                overlap = self._overlap_reason(row, fields)
                if overlap:
                    return overlap
        return f"no instruction matches word 0x{word:08x}"

    def _overlap_reason(self, row, fields):
        """Why ``fields`` are an invalid form of ``row`` by a forms.txt
        ``disjoint`` rule (a VSR operand inside the accumulator), or None."""
        hit = self.forms.overlap(row.fields_used, fields)
        if hit is None:
            return None
        group, name = hit
        n = self.forms.disjoint[group][0]
        first = n * fields[group]
        return (f"invalid form of {row.mnemonic}: {name}={fields[name]} overlaps "
                f"{group}={fields[group]} (registers {first}..{first + n - 1})")

    def overlaps(self):
        return overlaps(self.rows)

    # -- compiling ----------------------------------------------------------
    def rc_target(self, row):
        for name in row.outs:
            if self.forms.regclass.get(name) in ("gpr", "fpr"):
                return name
        return None

    def compiled(self, row, xlen=64, svp64_so=False):
        """The compiled semantics of a table row (compiled on first use);
        ``xlen``: the GPR width its page runs at, for a page that names XLEN
        (:func:`~isa_ext.pseudocode.compiler.names_xlen`); ``svp64_so``: as an
        SVP64 element, XER.SO neither read nor written (profile svp64_xer)."""
        key_mem = id(row) if (xlen, svp64_so) == (64, False) else (id(row), xlen, svp64_so)
        c = self._compiled.get(key_mem)
        if c is not None:
            return c
        page = row.page
        if page is None:
            raise SpecError(f"instruction {row.mnemonic} has no pseudocode page", row.where)
        rc_target = self.rc_target(row) if row.rc == "CR0" else None
        key = self._key(page, row, rc_target, xlen, svp64_so)
        c = self._load_cached(key, page)
        if c is None:
            try:
                c = pcompiler.compile_page(page, row.form, self.forms.regclass, rc=row.rc,
                                           rc_target=rc_target,
                                           name=row.mnemonic.replace(".", "_"),
                                           implicit=tuple(row.implicit), xlen=xlen,
                                           svp64_so=svp64_so, library=self.library,
                                           fptrans_fpscr=self.profile.fptrans_fpscr)
            except SpecError as e:
                fallback = None if self.page_source is None else \
                    self.page_source.fall_back(self, row, e)
                if fallback is None:
                    raise
                return self.compiled(row, xlen, svp64_so)
            self._store_cached(key, c)
        self._compiled[key_mem] = c
        return c

    @functools.cached_property
    def translation_tag(self):
        """What names this ISA's decoding and compiled pages to the caches of
        translated code kept across runs (translate.block_store): its table and
        page files as stamped, its extensions' helper code, the pseudocode
        compiler and the profile; None when something else shapes them (a
        profile's own pages, a page source, no disk cache)."""
        if not self.use_cache or self.page_source is not None or self.profile.pages or \
                not getattr(self, "_stat_key", None):
            return None
        h = disk_cache.sha256()
        for part in (COMPILER_VERSION, self._stat_key, self.library.tag, self.profile.name,
                     self.profile.fptrans_fpscr, _compiler_tag("book", True)):
            h.update(str(part).encode())
            h.update(b"\0")
        return h.hexdigest()

    def _key(self, page, row, rc_target, xlen=64, svp64_so=False):
        h = disk_cache.sha256()
        for part in (COMPILER_VERSION, page.dialect, page.code, row.form.name,
                     repr(sorted((k, v.pieces) for k, v in row.form.fields.items())),
                     repr(sorted(self.forms.regclass.items())), row.rc, str(rc_target),
                     repr(sorted(row.implicit)), str(xlen), str(svp64_so),
                     self.profile.fptrans_fpscr, _compiler_tag(page.dialect, self.use_cache),
                     self.library.tag):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    def _disk_entry(self, key):
        """The cached compilation of ``key``: one small file per entry
        (``compiled/<2 hex>/<key>.entry`` under the cache folder), so a run
        reads the few pages its program uses, not every page ever compiled;
        marshal data of a dict of plain values (json took 2-3 ms to import)."""
        if self._disk is None:
            self._disk = {}
        entry = self._disk.get(key)
        if entry is None and self.use_cache:
            try:
                with open(_entry_path(key), "rb") as f:
                    entry = marshal.loads(f.read())
            except (OSError, ValueError, EOFError, TypeError):
                return None
            if not isinstance(entry, dict):
                return None
            self._disk[key] = entry
        return entry

    def _load_cached(self, key, page):
        if pcompiler.COVERAGE is not None:  # cached code is not instrumented
            return None
        entry = self._disk_entry(key)
        if not entry:
            return None
        try:   # (an entry damaged, or of another shape: compiled afresh)
            ns = dict(self.library.runtime)
            # the code object too comes from disk when it can (compile() of a
            # page's source is ~0.6 ms, 60-odd pages in a compiled program's run)
            exec(code_store.compiled(entry["source"], f"<isa_ext:{entry['name']}>"), ns)
            return pcompiler.Compiled(entry["name"], entry["source"], entry["params"], ns,
                                      set(entry["reads"]), set(entry["writes"]),
                                      entry["uses_nia"], entry["line_map"], self.library,
                                      entry.get("length", 4))
        except Exception:
            return None

    def _store_cached(self, key, c):
        if not self.use_cache or pcompiler.COVERAGE is not None:
            return
        if self._disk is None:
            self._disk = {}
        self._disk[key] = {"name": c.name, "source": c.source, "params": list(c.params),
                           "reads": sorted(c.reads), "writes": sorted(c.writes),
                           "uses_nia": c.uses_nia, "line_map": list(c.line_map),
                           "length": c.length}
        self._unsaved.add(key)
        self._disk_dirty = True

    def save_cache(self):
        """Write the entries compiled since the last save, each to its own
        file (written whole, then renamed: readers never see half of one)."""
        if not self.use_cache or not getattr(self, "_disk_dirty", False):
            return
        try:
            _remove_legacy_cache()
            for key in sorted(self._unsaved):
                disk_cache.write_atomic(_entry_path(key), marshal.dumps(self._disk[key]))
            self._unsaved = set()
            self._disk_dirty = False
        except OSError:
            pass

    def compile_all(self):
        """Compile every row (used by tests and check-spec); returns errors."""
        errors = []
        for row in self.rows:
            try:
                self.compiled(row)
            except SpecError as e:
                errors.append(e)
        self.save_cache()
        return errors

    # -- executing ----------------------------------------------------------
    def executable(self, word):
        """A callable ``f(state, CIA) -> NIA or None`` for a 32-bit word.

        Raises :class:`Trap` for an illegal word.
        """
        f = self._exec_cache.get(word)
        if f is not None:
            return f
        d = self.decode(word)
        if d is None:
            raise Trap(self.why_illegal(word), "illegal")
        for run_row in self._row_executors:
            f = run_row(d)
            if f is not None:
                self._own_way.add(word)
                return self._remember(word, f)
        try:
            c = self.compiled(d.spec)
        except SpecError as e:
            # a page source's page that does not compile, with no page of
            # isa_ext's to fall back on: the instruction traps, saying why
            why = None if self.page_source is None else self.page_source.trap_reason(d.spec, e)
            if why is None:
                raise
            raise Trap(f"{d.mnemonic}: {why}", "illegal") from None
        return self._remember(word, c.make(*[d.fields[p] for p in c.params]))

    def runs_own_way(self, word):
        """Whether an extension runs ``word`` itself (Registry.row_executor)
        rather than by its compiled page; known once :meth:`executable` saw it."""
        return word in self._own_way

    def _remember(self, word, f):
        if len(self._exec_cache) >= self.DECODE_CACHE_LIMIT:
            self._exec_cache.clear()
            self._own_way = {word} if word in self._own_way else set()
        self._exec_cache[word] = f
        return f

    def call_fields(self, row, fields, crf=0):
        """Arguments for the flat ``sem`` function, from a field dict."""
        c = self.compiled(row)
        return c, [fields[p] for p in c.params]


def first_pages(all_pages):
    """mnemonic (of any syntax line) -> the first of ``all_pages`` naming it."""
    pages = {}
    for page in all_pages:
        for syn in page.syntaxes:
            pages.setdefault(syn[0], page)
    return pages


def index_rows(rows):
    """(by_mnemonic, by_po, prefixed_by_po) of ``rows``: every variant
    mnemonic -> (row, flags), the last row naming it; the 32-bit rows by
    primary opcode and the v3.1 prefixed rows (64-bit forms) by their
    suffix's, each list with the rows of most opcode bits first."""
    by_mnemonic = {}
    for row in rows:
        for name, flags in row.variants.items():
            by_mnemonic[name] = (row, flags)
    by_po, prefixed_by_po = {}, {}
    for row in sorted(rows, key=lambda r: -bin(r.mask).count("1")):
        by_po_of = prefixed_by_po if row.form.prefixed else by_po
        by_po_of.setdefault(row.match.get("PO"), []).append(row)
    return by_mnemonic, by_po, prefixed_by_po


@functools.lru_cache(maxsize=None)
def _compiler_tag(dialect="book", use_cache=True):
    """Invalidates cached compiled code when the compiler or library changes,
    or the package of the page's dialect (its grammar and helpers); known by
    the files' stamps when ``use_cache``."""
    packages = {pcompiler.__package__, pcompiler.get_dialect(dialect).package}
    return "".join(parse_cache.sources_digest(package, use_cache=use_cache)
                   for package in sorted(packages))
