"""Where a program's blocks started, kept across runs.

A block is translated once its start has been reached ``Simulator.hot_after``
times (sim.py); until then its instructions run one at a time, each word
decoded on its own first (about 30 microseconds a word on CPython; on PyPy
its interpreter runs them before the JIT has a trace).  With whole blocks
kept across runs (block_store.py) a later run of the same program can take
them at once: this store keeps, per program, the starts of the blocks its
runs translated, and a run of that program translates those at their first
visit.  Embench's picojpeg, run cold: 22,000 instructions one at a time and
about 2,000 words decoded alone before its blocks were hot.

A list is named by the ISA (``ISA.translation_tag``), the program's end
address and byte order, the address the run starts at and the bytes of the
page holding it.  It holds the
starts and a digest of the bytes of each page they lie in, as they were when
it was saved: a list whose pages now hold other bytes is not used.  A list
only moves translation earlier.  Every block is still translated from the
bytes there now (block_store keys its entries by them), so a wrong list costs
time, never a result.

Entries are ``<cache>/hot/<2 hex>/<key>.marshal``; at most SAVES_PER_PROCESS
are written by a process, and a list holds at most MAX_STARTS starts.
"""
from .. import disk_cache
from ..machine import PAGE_BITS

SAVES_PER_PROCESS = 256
MAX_STARTS = 16384
_saved = 0


def _page_digest(mem, page):
    data = mem.pages.get(page)
    return None if data is None else disk_cache.sha256(bytes(data)).hexdigest()


def program_key(sim, entry, end):
    """The key of the list for the program ``sim`` runs from ``entry`` (to
    ``end``), or None where blocks are not kept (block_store.block_key).
    Not the translator's digest: a list only times translation, and naming
    it would import the translator into every run, however short."""
    from .block_store import kept_tag
    tag = kept_tag(sim)
    if tag is None:
        return None
    mem = sim.state.mem
    first = _page_digest(mem, entry >> PAGE_BITS)
    if first is None:
        return None
    return disk_cache.sha256(f"hot {tag} {mem.little} {entry} {end} {first}".encode()).hexdigest()


def load(sim, key):
    """The starts kept under ``key`` whose pages hold the bytes they held
    when saved (an empty set where there is no such list)."""
    entry = disk_cache.load_marshal(disk_cache.entry_path("hot", key))
    try:
        starts, pages = entry["starts"], entry["pages"]
        mem = sim.state.mem
        if any(_page_digest(mem, page) != digest for page, digest in pages.items()):
            return set()
        return {int(pc) for pc in starts}
    except Exception:   # absent, or of another shape
        return set()


def save(sim, key, starts):
    """Keep ``starts`` (block start addresses) under ``key``, with their
    pages' digests."""
    global _saved
    if _saved >= SAVES_PER_PROCESS:
        return
    _saved += 1
    starts = sorted(starts)[:MAX_STARTS]
    mem = sim.state.mem
    pages = {page: _page_digest(mem, page) for page in {pc >> PAGE_BITS for pc in starts}}
    disk_cache.save_marshal(disk_cache.entry_path("hot", key),
                            {"starts": starts, "pages": pages})
