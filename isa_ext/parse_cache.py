"""Parsed forms, table rows and pages kept across runs.

Parsing the 1,300 table rows and 1,200 pages took a quarter of a second of
every ``isa-ext`` start; their parse depends only on the text of the files
and on the parsers, so the result is stored under
``<cache>/parsed/<key>.pickle``, the key the sha256 of every file's name and
text, the extensions' order and the parsers' own source.  A file that
changes, an extension added, or a new isa_ext version gives a new key; an
unreadable entry is parsed again (and rewritten).
"""
import hashlib
import os
import pickle
import platform
import sys
import tempfile

from . import forms as _forms_module
from . import tables as _tables_module
from .pseudocode import pages as _pages_module

# bump when the cached objects' meaning changes without their parsers' source
FORMAT = "1"
_PARSERS = (_forms_module, _tables_module, _pages_module)
_parser_digest = None


def module_source(mod):
    """A module's source bytes, from a directory or a zipped install alike
    (its loader's get_data); its name and isa_ext's version if unreadable."""
    try:
        return mod.__spec__.loader.get_data(mod.__file__)
    except Exception:
        from . import __version__
        return f"{mod.__name__} {__version__}".encode()


def _parsers_digest():
    global _parser_digest
    if _parser_digest is None:
        # (the interpreter too: a pickle is read by the one that wrote it)
        h = hashlib.sha256(f"{FORMAT} {platform.python_implementation()} "
                           f"{sys.version_info[:2]}".encode())
        for mod in _PARSERS:
            h.update(module_source(mod))
        _parser_digest = h.hexdigest()
    return _parser_digest


def key(forms_file, tables, pages):
    """The cache key of a forms file and [(extension, where, text)] tables and
    pages, each a (where, text) pair."""
    h = hashlib.sha256(_parsers_digest().encode())
    for part in ([forms_file], tables, pages):
        h.update(b"\0part")
        for item in part:
            for piece in item:
                h.update(b"\0" + str(piece).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def load(directory, k):
    """(forms, rows, pages) stored under ``k``, or None."""
    try:
        with open(os.path.join(directory, "parsed", k + ".pickle"), "rb") as f:
            got = pickle.load(f)
    except Exception:   # absent, partly written by a process that died, an old format
        return None
    return got if isinstance(got, tuple) and len(got) == 3 else None


def store(directory, k, value):
    """Write ``value`` under ``k`` atomically; a cache that cannot be written
    (read-only home, full disk) is skipped."""
    tmp = None
    folder = os.path.join(directory, "parsed")
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, os.path.join(folder, k + ".pickle"))
    except Exception:   # (a cache never fails a run: an object pickle cannot take too)
        pass
