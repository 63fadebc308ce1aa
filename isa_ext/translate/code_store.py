"""Compiled block, region and page functions kept across runs.

A block's source (block.py's writer) is compiled by ``compile()``: on CPython
about a millisecond for a block and tens for a region, a fifth of a short
program's cold run (Embench's picojpeg: 0.17 of 2.1 s), and more on PyPy
before its JIT warms up.  A page's (isa.py's cached compilations) takes about
0.6 ms, and a compiled program's run uses 60-odd pages.  The code object
depends only on the source, its file name and the interpreter (its bytecode's
magic number), so it is stored
under ``<cache>/blocks/<2 hex>/<key>.marshal``, the key a digest of the three.
An entry that cannot be read is compiled again; one that cannot be written is
skipped, as is any after the first SAVES_PER_PROCESS of a process (a fuzz
run translating random words must not fill the disk).
"""
import types

from .. import disk_cache

try:   # without importing importlib.util (or hashlib): pages load through here at start-up
    from importlib._bootstrap_external import MAGIC_NUMBER
except ImportError:
    from importlib.util import MAGIC_NUMBER

SAVES_PER_PROCESS = 2048
_saved = 0


def key(source, filename):
    h = disk_cache.sha256(MAGIC_NUMBER + disk_cache.code_digest(()).encode())
    for part in (filename, source):
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def compiled(source, filename):
    """``compile(source, filename, "exec")``, from the store when it has it."""
    global _saved
    path = disk_cache.entry_path("blocks", key(source, filename))
    code = disk_cache.load_marshal(path)
    if isinstance(code, types.CodeType) and code.co_filename == filename:
        return code
    code = compile(source, filename, "exec")
    if _saved < SAVES_PER_PROCESS:
        _saved += 1
        disk_cache.save_marshal(path, code)
    return code
