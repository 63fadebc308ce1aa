"""Specialised instruction bodies kept across runs.

Specialising a word (parsing its page's compiled Python, folding its field
values in, renaming registers: specialise.py) costs about a millisecond on
CPython and ten times that on PyPy before its JIT warms up, paid again by
every run for every word its blocks hold; on PyPy it was half of a short
program's run.  The result depends only on the compiled page's source, the
field values, the helper library's inline forms and the specialiser itself
(and what the block writer reads of it, block.locals_info, and the machine's
SPR_PLAIN),
so it is stored under ``<cache>/specialised/<2 hex>/<key>.marshal`` (the
interpreter's version in the key too: the text is ``ast.unparse``'s), the
body's attributes (strings, sets, tuples: what marshal takes) rather than a
pickle: PyPy's pickle runs as Python code, 0.17 s for 400 entries before its
JIT warms against 3.5 ms for marshal (CPython 3.4 and 2.2 ms).  An
entry that cannot be read is specialised again; one that cannot be written
is skipped, as is any after the first SAVES_PER_PROCESS of a process.
"""
import hashlib
import sys

from .. import disk_cache

_code_digest = None
# entries one process writes at most: a program's hot code is a few thousand
# words; a fuzz run translating random words eagerly must not fill the disk
SAVES_PER_PROCESS = 4096
_saved = 0


def _own_digest():
    global _code_digest
    if _code_digest is None:
        from . import block as block_module, specialise as sp_module
        from .. import machine
        from ..pseudocode import library
        # (block.py: an entry holds what block.locals_info read of its lines;
        # machine.py: the SPRs whose mfspr/mtspr a body reads as attributes;
        # library.py: the helpers' inline forms a body holds)
        _code_digest = disk_cache.code_digest((sp_module, block_module, machine, library,
                                               sys.modules[__name__]))
    return _code_digest


def key(compiled, fields, overrides):
    """The key of ``compiled`` specialised for ``fields`` (and ``overrides``)."""
    from . import specialise as sp_module
    library = getattr(compiled, "library", None)
    # (the specialiser's switches: PyPy's arithmetic form is another text)
    h = hashlib.sha256(f"{_own_digest()} {sp_module.PYPY_ARITH} {sp_module.VIEWS}".encode())
    for part in (compiled.source, repr(sorted(fields.items())), repr(sorted(overrides.items())),
                 getattr(library, "tag", "") or ""):
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


# the attributes a stored body must have (specialise.Specialised's, and
# block.locals_info's answer)
_FIELDS = frozenset({"lines", "next_src", "uses_cia", "falls_through", "localised", "regs",
                     "stores", "written", "names", "_locals_info"})


def load(k):
    """The Specialised stored under ``k``, or None."""
    return body(disk_cache.load_marshal(disk_cache.entry_path("specialised", k)))


def body(fields):
    """The Specialised of a stored body's attributes, or None when they are
    not one's (another layout, another writer)."""
    from .specialise import Specialised
    if not (isinstance(fields, dict) and set(fields) == _FIELDS):
        return None
    sp = Specialised.__new__(Specialised)
    sp.__dict__.update(fields)
    return sp


def body_fields(sp):
    """The attributes of ``sp`` a stored body holds (_FIELDS; not those the
    block writer adds later), or None when one is missing."""
    fields = vars(sp)
    return {k: fields[k] for k in _FIELDS} if _FIELDS <= fields.keys() else None


def save(k, value):
    global _saved
    if _saved >= SAVES_PER_PROCESS or set(vars(value)) != _FIELDS:
        return   # (an object with other attributes: not one load would rebuild)
    _saved += 1
    disk_cache.save_marshal(disk_cache.entry_path("specialised", k), vars(value))
