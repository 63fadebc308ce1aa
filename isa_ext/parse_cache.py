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
(plain strings, numbers, tuples, lists, dicts and sets), the objects made
again around them: loading the 40,000 objects so took a third of the time
pickle took (6 ms, was 17-20); the extended mnemonics likewise
(:func:`store_plain`, their module making the objects).  Other values (and
objects of a kind not known: a subclass, an attribute marshal cannot hold)
are pickled; an entry's first bytes say which.
"""
import gc
import marshal
import os
import time

from . import disk_cache
from . import forms as _forms_module
from . import tables as _tables_module
from .pseudocode import pages as _pages_module

# bump when the cached objects' meaning changes without their parsers' source
FORMAT = "3"   # 2: equal operands shared; 3: forms, rows and pages marshalled
# an entry's first bytes: its format
MARSHALLED, PICKLED = b"isa_ext parsed marshal\n", b"isa_ext parsed pickle\n"
_PARSERS = (_forms_module, _tables_module, _pages_module)
_parser_digest = None
# a file whose modification or status-change time is this recent may change
# again with the same times (the clock's tick, 2 s on FAT): it is not trusted
# by its stamp alone
SETTLED_NS = 3_000_000_000


def _parsers_digest():
    global _parser_digest
    if _parser_digest is None:
        _parser_digest = disk_cache.code_digest(_PARSERS, f"parse format {FORMAT}")
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


def store(directory, k, value):
    """Write (forms, rows, pages) under ``k`` whole; a cache that cannot be
    written (read-only home, full disk) is skipped."""
    _share_operands(value[1])
    try:
        plain = _to_plain(*value)
    except TypeError:   # an object of a kind _to_plain does not know
        plain = None
    if plain is None or not store_plain(directory, k, plain):
        store_value(directory, k, value)


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


def _to_plain(forms, rows, pages):
    """(forms, rows, pages) as plain values: each object its attributes, a
    row's form by name, its operands by index in one list of them."""
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
    operands, index = [], {}
    row_states = []
    for row in rows:
        state = _state(row, InsnSpec)
        if row.page is not None or forms.forms.get(row.form.name) is not row.form:
            raise TypeError("a row with a page, or a form of its own")
        state["form"] = row.form.name
        state["operands"] = [index.setdefault(id(op), len(index)) for op in row.operands]
        for op in row.operands:
            if index[id(op)] == len(operands):
                operands.append(_state(op, Operand))
        row_states.append(state)
    return formset, operands, row_states, [_state(page, Page) for page in pages]


def _from_plain(plain):
    """The (forms, rows, pages) of :func:`_to_plain`'s values: objects made
    as pickle makes them (no ``__init__``), each given the loaded dict of its
    attributes as its own (no copy; past a frozen class's setattr)."""
    from .forms import Field, Form, FormSet
    from .tables import InsnSpec, Operand
    from .pseudocode.pages import Page
    formset, operand_states, row_states, page_states = plain
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
    operands = []
    for state in operand_states:
        op = new(Operand)
        set_dict(op, "__dict__", state)
        operands.append(op)
    rows = []
    for state in row_states:
        state["form"] = forms[state["form"]]
        state["operands"] = [operands[i] for i in state["operands"]]
        row = new(InsnSpec)
        set_dict(row, "__dict__", state)
        rows.append(row)
    pages = []
    for state in page_states:
        page = new(Page)
        set_dict(page, "__dict__", state)
        pages.append(page)
    return form_set, rows, pages


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
