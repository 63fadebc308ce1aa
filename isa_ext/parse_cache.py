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

from . import disk_cache
from . import forms as _forms_module
from . import tables as _tables_module
from .pseudocode import pages as _pages_module

# bump when the cached objects' meaning changes without their parsers' source
FORMAT = "1"
_PARSERS = (_forms_module, _tables_module, _pages_module)
_parser_digest = None


def _parsers_digest():
    global _parser_digest
    if _parser_digest is None:
        _parser_digest = disk_cache.code_digest(_PARSERS, f"parse format {FORMAT}")
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
    """Write ``value`` under ``k`` whole; a cache that cannot be written
    (read-only home, full disk) is skipped."""
    try:
        disk_cache.write_atomic(os.path.join(directory, "parsed", k + ".pickle"),
                                pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:   # (a cache never fails a run: an object pickle cannot take too)
        pass
