"""Parsed forms, table rows and pages kept across runs.

Parsing the 1,300 table rows and 1,200 pages took a quarter of a second of
every ``isa-ext`` start; their parse depends only on the text of the files
and on the parsers, so the result is stored under
``<cache>/parsed/<key>.entry``, the key the sha256 of every file's name and
text, the extensions' order and the parsers' own source.  A file that
changes, an extension added, or a new isa_ext version gives a new key; an
unreadable entry is parsed again (and rewritten).

Reading the 160 files only to compute that key took 15 ms of every start, so
a second, small entry ``<cache>/parsed/<stat key>.stat`` names the content
key of the files as they were last seen by their :func:`specdata.stamp`
(device, inode, size, modification and status-change times): when every
file's stamp is as it was, nothing is read.  A write to a file sets its
status-change time to the current time, which no program can set back, so a
changed file has a new stamp, except when it changes again within the same
timestamp tick (file systems keep times at a granularity of a few ms, FAT at
2 s).  The stat entry is therefore only written when every file is older than
:data:`SETTLED_NS`: a file written since then may still change unseen, and
is read (and its text keyed) at each run until it is older.  What remains
unseen: a change made with the system clock set back past the file's time
(or a file system that keeps no status-change time, and a tool that sets the
modification time back), and on a network file system a change made on
another machine until this one's attribute cache expires (NFS: up to a
minute) -- ``ISA(use_cache=False)``, or emptying the cache, parses afresh.
The extended-mnemonic tables (:func:`isa_ext.asm.extended_mnemonics`) are
kept by the same rules.

The forms, rows and pages are stored as marshal data of their attributes
(plain strings, numbers, tuples, lists, dicts and sets), each row and page
its own marshal bytes, with the ISA's lookups (pages by name, rows by
mnemonic and by primary opcode) as positions: an ISA that lays nothing over
them makes a row or a page at its first use (:class:`StoredTables`; a run
uses a handful of the 2,500: pickle took 17-20 ms to load them all).  The
extended mnemonics likewise (:func:`store_plain`, their module making the
objects).  Other values are pickled (:func:`store_value`); an entry's first
bytes say which.
"""
import gc
import marshal
import os
import time
from collections.abc import Mapping

from . import disk_cache
from . import forms as _forms_module
from . import tables as _tables_module
from .pseudocode import pages as _pages_module

# bump when the cached objects' meaning changes without their parsers' source
FORMAT = "4"   # 2: equal operands shared; 3: forms, rows and pages marshalled; 4: each
               # row and page on its own, with the lookups
# an entry's first bytes: its format
MARSHALLED, PICKLED = b"isa_ext parsed marshal\n", b"isa_ext parsed pickle\n"
_PARSERS = (_forms_module, _tables_module, _pages_module)
_parser_digest = None
# a file whose modification or status-change time is this recent may change
# again with the same times (the clock's tick, 2 s on FAT): it is not trusted
# by its stamp alone
SETTLED_NS = 3_000_000_000


def _parsers_digest():
    """The digest of the code an entry depends on: the parsers, this module
    and the ISA's (isa_ext.isa: the lookups stored with the rows are made by
    its index_rows and first_pages)."""
    global _parser_digest
    if _parser_digest is None:
        import importlib
        import sys
        code = _PARSERS + (sys.modules[__name__], importlib.import_module(f"{__package__}.isa"))
        _parser_digest = disk_cache.code_digest(code, f"parse format {FORMAT}")
    return _parser_digest


def key(forms_file, tables, pages):
    """The cache key of a forms file and [(extension, where, text)] tables and
    pages, each a (where, text) pair."""
    h = disk_cache.sha256(_parsers_digest().encode())
    for part in ([forms_file], tables, pages):
        h.update(b"\0part")
        for item in part:
            for piece in item:
                h.update(b"\0" + str(piece).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _entry_path(directory, k):
    return os.path.join(directory, "parsed", k + ".entry")


def load(directory, k, parts=3, decode=None):
    """(forms, rows, pages) stored under ``k`` (a tuple of ``parts`` items),
    or None; ``decode``: what makes the tuple of marshalled plain values
    (:func:`store_plain`), the forms, rows and pages' by default."""
    collecting = gc.isenabled()
    try:
        with open(_entry_path(directory, k), "rb") as f:
            data = f.read()
        # 40,000 new objects, none garbage: the cycle collector's passes
        # over them took as long again as the loading (12 ms)
        gc.disable()
        if data.startswith(MARSHALLED):
            got = (decode or _from_plain)(marshal.loads(memoryview(data)[len(MARSHALLED):]))
        elif data.startswith(PICKLED):
            import pickle
            got = pickle.loads(memoryview(data)[len(PICKLED):])
        else:
            return None
    except Exception:   # absent, partly written by a process that died, an old format
        return None
    finally:
        if collecting:
            gc.enable()
    return got if isinstance(got, tuple) and len(got) == parts else None


def store(directory, k, value, index):
    """Write (forms, rows, pages) under ``k`` whole, with ``index`` (what
    :func:`isa_ext.isa.index_tables` makes of the rows and pages) so that a
    load makes each row and page at its first use (:class:`StoredTables`); a
    cache that cannot be written (read-only home, full disk) is skipped."""
    _share_operands(value[1])
    try:
        plain = _to_plain(*value, index)
    except TypeError:   # an object of a kind _to_plain does not know
        return
    store_plain(directory, k, plain)


def store_plain(directory, k, plain):
    """Write ``plain`` (strings, numbers, tuples, lists, dicts, sets) under
    ``k`` as marshal data, for a :func:`load` with the ``decode`` that makes
    objects of it; False when marshal cannot hold it (nothing written)."""
    try:
        data = MARSHALLED + marshal.dumps(plain)
    except ValueError:
        return False
    _write(directory, k, data)
    return True


def store_value(directory, k, value):
    """Write the tuple ``value`` under ``k`` whole, pickled (or skip it, as store)."""
    import pickle
    try:
        data = PICKLED + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:   # (a cache never fails a run: an object pickle cannot take)
        return
    _write(directory, k, data)


def _write(directory, k, data):
    try:
        disk_cache.write_atomic(_entry_path(directory, k), data)
    except Exception:   # a cache never fails a run
        pass


def _state(obj, cls):
    """The attributes of ``obj``, of class ``cls`` exactly (TypeError otherwise)."""
    if type(obj) is not cls:
        raise TypeError(f"{type(obj).__name__} is not {cls.__name__}")
    return dict(vars(obj))


def _to_plain(forms, rows, pages, index):
    """(forms, rows, pages) as plain values: each object its attributes (a
    row and a page as marshal bytes of their own, made at their first use),
    a row's form by name, its operands by index in one list of them; and
    ``index`` (pages by name, rows by mnemonic and by primary opcode) as
    positions in the lists."""
    from .forms import Field, Form, FormSet
    from .tables import InsnSpec, Operand
    from .pseudocode.pages import Page
    form_states = {}
    for name, form in forms.forms.items():
        state = _state(form, Form)
        state["fields"] = {n: _state(f, Field) for n, f in form.fields.items()}
        form_states[name] = state
    formset = _state(forms, FormSet)
    formset["forms"] = form_states
    operands, at = [], {}
    row_blobs = []
    for row in rows:
        state = _state(row, InsnSpec)
        if forms.forms.get(row.form.name) is not row.form:
            raise TypeError("a row with a form of its own")
        state["form"] = row.form.name
        state["page"] = None   # (made again by the index's rule)
        state["operands"] = [at.setdefault(id(op), len(at)) for op in row.operands]
        for op in row.operands:
            if at[id(op)] == len(operands):
                operands.append(_state(op, Operand))
        row_blobs.append(marshal.dumps(state))
    row_at = {id(row): i for i, row in enumerate(rows)}
    page_at = {id(page): i for i, page in enumerate(pages)}
    pages_by_name, by_mnemonic, by_po, prefixed_by_po = index
    plain_index = {
        "pages": {name: page_at[id(page)] for name, page in pages_by_name.items()},
        "by_mnemonic": {name: row_at[id(row)] for name, (row, _flags) in by_mnemonic.items()},
        "by_po": {po: [row_at[id(r)] for r in rs] for po, rs in by_po.items()},
        "prefixed_by_po": {po: [row_at[id(r)] for r in rs] for po, rs in prefixed_by_po.items()},
        "mnemonics": [row.mnemonic for row in rows],
        "sv": list(dict.fromkeys(row.sv for row in rows)),
    }
    page_blobs = [marshal.dumps(_state(page, Page)) for page in pages]
    return formset, operands, row_blobs, page_blobs, plain_index


def _from_plain(plain):
    """(forms, :class:`StoredTables`) of :func:`_to_plain`'s values."""
    from .forms import Field, Form, FormSet
    formset, operand_states, row_blobs, page_blobs, index = plain
    new, set_dict = object.__new__, object.__setattr__
    forms = {}
    for name, state in formset["forms"].items():
        fields = state["fields"]
        for n, f in fields.items():
            field = fields[n] = new(Field)
            set_dict(field, "__dict__", f)
        form = forms[name] = new(Form)
        set_dict(form, "__dict__", state)
    formset["forms"] = forms
    form_set = new(FormSet)
    set_dict(form_set, "__dict__", formset)
    return form_set, StoredTables(form_set, operand_states, row_blobs, page_blobs, index)


class StoredTables:
    """An ISA's rows and pages from the parse cache, each made at its first
    use (a run uses a handful of the 1,300 rows and 1,200 pages: making
    them all took 10 ms of every start).  Objects are made as pickle makes
    them (no ``__init__``, the loaded dict of attributes their own), each
    once: the row of ``by_mnemonic`` is the row of ``rows()``.  A row's page
    is its mnemonic's in ``pages`` (the first page naming it), as the ISA
    sets it."""

    def __init__(self, forms, operand_states, row_blobs, page_blobs, index):
        from .tables import Operand
        self.forms = forms
        self._row_blobs, self._page_blobs, self._index = row_blobs, page_blobs, index
        self._rows = [None] * len(row_blobs)
        self._pages = [None] * len(page_blobs)
        self._operands = []
        for state in operand_states:
            op = object.__new__(Operand)
            object.__setattr__(op, "__dict__", state)
            self._operands.append(op)
        self.pages = LazyMapping(index["pages"], lambda _name, i: self.page(i))
        self.by_mnemonic = LazyMapping(index["by_mnemonic"], self._variant)
        self.by_po = LazyMapping(index["by_po"], self._row_list)
        self.prefixed_by_po = LazyMapping(index["prefixed_by_po"], self._row_list)
        self.sv_names = index["sv"]

    def row(self, i):
        row = self._rows[i]
        if row is None:
            from .tables import InsnSpec
            state = marshal.loads(self._row_blobs[i])
            state["form"] = self.forms.forms[state["form"]]
            state["operands"] = [self._operands[j] for j in state["operands"]]
            state["page"] = self.pages.get(state["mnemonic"])
            row = self._rows[i] = object.__new__(InsnSpec)
            object.__setattr__(row, "__dict__", state)
        return row

    def page(self, i):
        page = self._pages[i]
        if page is None:
            from .pseudocode.pages import Page
            page = self._pages[i] = object.__new__(Page)
            object.__setattr__(page, "__dict__", marshal.loads(self._page_blobs[i]))
        return page

    def rows(self):
        """Every row, in order (each made now if not yet)."""
        return [self.row(i) for i in range(len(self._rows))]

    def all_pages(self):
        return [self.page(i) for i in range(len(self._pages))]

    def made(self):
        """How many rows and pages were made so far."""
        return (sum(r is not None for r in self._rows), sum(p is not None for p in self._pages))

    def _variant(self, name, i):
        row = self.row(i)
        return row, row.variants[name]

    def _row_list(self, _po, indices):
        return [self.row(i) for i in indices]


class LazyMapping(Mapping):
    """A read-only mapping whose values are ``make(key, stored[key])``, made
    at the first lookup of their key and kept."""

    def __init__(self, stored, make):
        self._stored, self._make, self._made = stored, make, {}

    def __getitem__(self, key):
        value = self._made.get(key, _NOTHING)
        if value is _NOTHING:
            value = self._made[key] = self._make(key, self._stored[key])
        return value

    def __contains__(self, key):
        return key in self._stored

    def __iter__(self):
        return iter(self._stored)

    def __len__(self):
        return len(self._stored)


_NOTHING = object()


def _share_operands(rows):
    """Equal operands of the rows made one object (nothing changes an
    Operand once parsed): 3,700 become 140, a third of the time of loading
    the rows."""
    shared = {}
    for row in rows:
        row.operands = [shared.setdefault((op.field, op.base, op.optional), op)
                        for op in row.operands]


def stat_key(stamped, extra=""):
    """The key of the stat entry of ``stamped``, [(what, where, stamp)] of
    every file the content key would read (and ``extra``, what else the
    content key holds), or None when a stamp is missing (a file in a zip, or
    unreadable): then the content decides."""
    h = disk_cache.sha256(f"{_parsers_digest()} stat {extra}".encode())
    for item in stamped:
        if item[-1] is None:
            return None
        h.update(b"\0" + repr(item).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def load_by_stat(directory, skey, parts=3, decode=None):
    """What the stat entry ``skey`` names (see :func:`load`), or None."""
    k = named_key(directory, skey)
    return None if k is None else load(directory, k, parts, decode)


def named_key(directory, skey):
    """The 64 hex digits the stat entry ``skey`` holds, or None."""
    try:
        with open(os.path.join(directory, "parsed", skey + ".stat"), "rb") as f:
            k = f.read(65).decode("ascii")
    except Exception:   # absent, unreadable
        return None
    if len(k) != 64 or not all(c in "0123456789abcdef" for c in k):
        return None
    return k


def sources_digest(package, suffixes=(".py", ".lark"), use_cache=True):
    """The sha256 hex digest of the names and text of ``package``'s own source
    files (:func:`isa_ext.specdata.package_sources`), what keys the compiled
    pages and an extension's fingerprint.  Known by the files' stamps through
    a stat entry, as the parsed tables are (the module's note): reading and
    hashing the compiler's 17 files took 1.5 ms of every run.  Not
    ``use_cache``: read and hashed, no entry read or written."""
    from . import specdata
    stamped = None
    folder = specdata.package_folder(package) if use_cache else None
    if folder is not None:
        try:
            with os.scandir(folder) as it:
                names = sorted(e.name for e in it if e.name.endswith(suffixes) and e.is_file())
            stamped = [("source", package, name, specdata.stamp(os.path.join(folder, name)))
                       for name in names]
        except OSError:
            stamped = None
    directory = disk_cache.directory()
    skey = None if stamped is None else stat_key(stamped, f"sources {package} {suffixes}")
    digest = named_key(directory, skey) if skey else None
    if digest is not None:
        return digest
    h = disk_cache.sha256(f"sources {package}".encode())
    for name, data in specdata.package_sources(package, suffixes):
        h.update(b"\0" + name.encode("utf-8", "surrogatepass") + b"\0" + data)
    digest = h.hexdigest()
    if skey:
        remember(directory, skey, digest, stamped)
    return digest


def settled(stamped, now_ns=None):
    """Whether every file of ``stamped`` is older than SETTLED_NS (by the
    later of its modification and status-change times)."""
    now_ns = time.time_ns() if now_ns is None else now_ns
    return all(max(item[-1][3], item[-1][4]) < now_ns - SETTLED_NS for item in stamped)


def remember(directory, skey, k, stamped):
    """Name the content key ``k`` under the stat key ``skey``, when every
    file is settled (see the module's note); a cache that cannot be written
    is skipped."""
    if not settled(stamped):
        return
    try:
        disk_cache.write_atomic(os.path.join(directory, "parsed", skey + ".stat"),
                                k.encode("ascii"))
    except Exception:
        pass
