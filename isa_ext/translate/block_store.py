"""Translated blocks and regions kept across runs.

Translating a block costs its words' decoding, their specialised bodies (one
file each from store.py), the block writer and a code object (code_store.py):
on CPython about a millisecond a block, a third of a short program's cold
run (Embench's picojpeg: 0.19 of 0.68 s translating, 0.04 chaining).  This
store keeps a block whole, one file read in place of all of that: its code
object, source, line tags, specialised bodies and which page each global
name comes from.  A region (block.translate_region) is kept likewise under
its members' keys.

A block's key names everything its translation depends on:

* the translator's code (this package, the machine, the helper library) and
  the interpreter;
* the ISA's ``translation_tag`` (its table and page files as stamped, its
  extensions' helper code, the compiler, the profile); an ISA without one
  (profile pages, a page source, no disk cache) keeps nothing here;
* the block's start, the program's end address and the byte order;
* every byte a block starting there could hold (block.MAX_LENGTH
  instructions of 8 bytes, up to the first page that does not exist).

A window holding an SVP64 prefix is never kept: an SVP64 instruction's
translation follows the SVSTATE of the moment (translate/svp64.py), which no
byte of the window shows.

Entries are ``<cache>/translated/<2 hex>/<key>.marshal``.  One that cannot
be read, or whose words decode to other instructions, is translated again;
one that cannot be written is skipped, as is any after the first
SAVES_PER_PROCESS of a process.
"""
import importlib.util
import struct
import sys

from .. import disk_cache
from ..machine import PAGE_BITS, PAGE_MASK, Memory
from ..prefix import SVP64, is_prefix, kind as prefix_kind

SAVES_PER_PROCESS = 2048
_saved = 0
_digest = None


def _own_digest():
    """The digest of the translator's code, and its switches now (read at
    every key: a test may turn one)."""
    global _digest
    from . import block, specialise, store, svp64
    if _digest is None:
        from .. import machine
        from ..pseudocode import library
        _digest = disk_cache.code_digest(
            (block, specialise, store, svp64, machine, library, sys.modules[__name__]),
            repr(importlib.util.MAGIC_NUMBER))
    return (f"{_digest} {specialise.PYPY_ARITH} {specialise.VIEWS} "
            f"{block.EXECUTOR_CALLS_IN_BLOCKS} {block.MAX_LENGTH} {block.MAX_SIDE_EXITS} "
            f"{block.DISPATCH_CHAIN} {block.INLINE_DEPTH}")


def _window(mem, start):
    """The bytes from ``start`` a block there could hold (block.MAX_LENGTH
    instructions of 8 bytes, or up to a page that does not exist); None when
    one of its words is an SVP64 prefix."""
    from .block import MAX_LENGTH
    pages, out, at, left = mem.pages, bytearray(), start, MAX_LENGTH * 8
    while left > 0:
        page = pages.get(at >> PAGE_BITS)
        if page is None:
            break
        off = at & PAGE_MASK
        piece = page[off:off + left]
        out += piece
        at, left = at + len(piece), left - len(piece)
    whole = len(out) & ~3
    order = "<" if mem.little else ">"
    for word in struct.unpack(f"{order}{whole // 4}I", out[:whole]):
        if is_prefix(word) and prefix_kind(word) == SVP64:
            return None
    return bytes(out)


def kept_tag(sim):
    """The ISA's translation_tag where what ``sim`` translates may be kept
    across runs, else None: not for a simulator fetching its own way or a
    memory wrapper (not what the bytes say), nor an ISA without a tag."""
    from ..sim import Simulator
    if type(sim.state.mem) is not Memory or type(sim)._fetch is not Simulator._fetch:
        return None
    return sim.isa.translation_tag


def block_key(sim, start, end):
    """The key of the block ``sim`` would translate at ``start`` (its program
    ending at ``end``), or None when it is not one to keep."""
    tag = kept_tag(sim) if not start & 3 else None
    if tag is None:
        return None
    mem = sim.state.mem
    window = _window(mem, start)
    if window is None:
        return None
    h = disk_cache.sha256(f"block {_own_digest()} {tag} {mem.little} {start} {end}".encode())
    h.update(window)
    return h.hexdigest()


def region_key(member_keys):
    """The key of a region of blocks with these keys (the entry first), or
    None when one of them has none."""
    if any(k is None for k in member_keys):
        return None
    h = disk_cache.sha256(f"region {_own_digest()}".encode())
    for k in member_keys:
        h.update(k.encode())
    return h.hexdigest()


def _path(key):
    return disk_cache.entry_path("translated", key)


def _read(key):
    entry = disk_cache.load_marshal(_path(key))
    return entry if isinstance(entry, dict) else None


def _write(key, entry):
    global _saved
    if _saved < SAVES_PER_PROCESS:
        _saved += 1
        disk_cache.save_marshal(_path(key), entry)


def _page_globals(isa, d):
    """The globals of the compiled page of decoded instruction ``d``."""
    return isa.compiled(d.spec).sem.__globals__


def save_block(isa, key, b, tags, code):
    """Keep block ``b`` (its line ``tags`` and ``code`` object) under ``key``."""
    from .store import body_fields
    insns, found = [], []
    for pc, size, d, sp in b.insns:
        fields = body_fields(sp)
        if fields is None:
            return
        word, suffix = (d.word >> 32, d.word & 0xFFFFFFFF) if size == 8 else (d.word, None)
        found.append(_page_globals(isa, d))
        insns.append((pc, size, word, suffix, d.mnemonic, fields))
    names = {}
    for name, value in b.namespace.items():
        where = next((i for i, g in enumerate(found) if g.get(name) is value), None)
        if where is None:
            return
        names[name] = where
    _write(key, {"start": b.start, "length": b.length, "end": b.end, "source": b.source,
                 "mnemonics": list(b.mnemonics), "tags": tags, "code": code,
                 "insns": insns, "names": names})


def _code(entry, code_cache):
    """The entry's code object, or the one ``code_cache`` (block.code_cache_of)
    holds for its source: simulators of one ISA share their blocks' code."""
    from .block import CODE_CACHE_KEPT
    from .specialise import cached
    return cached(code_cache, entry["source"], lambda: entry["code"], kept=CODE_CACHE_KEPT)


def load_block(isa, key, bind, code_cache=None):
    """The block kept under ``key`` (its function made by ``bind(code, tags,
    namespace)``, block.bind), or None."""
    from .block import Block
    from .store import body
    entry = _read(key)
    if entry is None:
        return None
    try:
        insns, found = [], []
        for pc, size, word, suffix, mnemonic, fields in entry["insns"]:
            d = isa.decode(word) if suffix is None else isa.decode_prefixed(word, suffix)
            sp = body(fields)
            if d is None or d.mnemonic != mnemonic or sp is None:
                return None
            insns.append((pc, size, d, sp))
            found.append(_page_globals(isa, d))
        namespace = {name: found[i][name] for name, i in entry["names"].items()}
        run = bind(_code(entry, code_cache), entry["tags"], namespace)
        return Block(entry["start"], entry["length"], run, entry["source"],
                     entry["mnemonics"], entry["end"], insns, namespace, key=key)
    except Exception:   # an entry of another shape: translated again
        return None


def save_region(key, source, tags, code):
    _write(key, {"source": source, "tags": tags, "code": code})


def load_region(key, code_cache=None):
    """(source, tags, code) of the region kept under ``key``, or None."""
    entry = _read(key)
    try:
        return entry["source"], entry["tags"], _code(entry, code_cache)
    except Exception:   # absent, or of another shape
        return None
