"""Where isa_ext keeps what it computes once for many runs (compiled pages,
parsed tables and pages, specialised instruction bodies, compiled blocks), and
the three things every such cache needs: a digest of the code that made an
entry (so a new isa_ext, or another interpreter, never reads an old entry),
writing an entry whole (written to a temporary file, then renamed: a reader
never sees half of one) and a bound on its size (the oldest entries removed).
"""
import os
import sys
import time

try:   # the interpreter's own SHA-256: importing hashlib loads OpenSSL (3 ms of a start)
    from _sha2 import sha256          # CPython 3.12+
except ImportError:
    try:
        from _sha256 import sha256    # CPython 3.11
    except ImportError:
        from hashlib import sha256

# what one cache folder (compiled, parsed, specialised, blocks) keeps: past
# MAX_ENTRIES entries or MAX_BYTES of them, the oldest written are removed
# down to TRIM_TO of both (a file takes a 4 KiB block on most disks; a parsed
# entry is about a megabyte)
MAX_ENTRIES = 40_000
MAX_BYTES = 256 << 20
TRIM_TO = 0.75
# a folder is counted at most this often (seconds; a ``.trimmed`` file's
# time): counting 160,000 entries takes a fifth of a second, removing a
# second
TRIM_EVERY = 3600
_checked = set()   # folders this process has looked at


# platform.python_implementation()'s name, without importing platform (2 ms
# of every start)
IMPLEMENTATION = {"cpython": "CPython", "pypy": "PyPy"}.get(sys.implementation.name,
                                                            sys.implementation.name)


def directory():
    """``$ISA_EXT_CACHE``, else ``$XDG_CACHE_HOME/isa_ext``, else ``~/.cache/isa_ext``."""
    return os.environ.get("ISA_EXT_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "isa_ext")


def module_source(mod):
    """A module's source bytes, from a directory or a zipped install alike
    (its loader's get_data); its name and isa_ext's version if unreadable."""
    try:
        return mod.__spec__.loader.get_data(mod.__file__)
    except Exception:
        from . import __version__
        return f"{mod.__name__} {__version__}".encode()


def code_digest(modules, extra=""):
    """The sha256 hex digest of the interpreter (an entry is read by the kind
    that wrote it), ``extra`` and the ``modules``' sources."""
    h = sha256(f"{IMPLEMENTATION} {sys.version_info[:2]} "
                       f"{extra}".encode())
    for mod in modules:
        h.update(module_source(mod))
    return h.hexdigest()


def trim(folder, now=None):
    """Remove the oldest entries of the cache ``folder`` (its files, those of
    its sub-folders) when it holds more than MAX_ENTRIES or MAX_BYTES, down to
    TRIM_TO of both; at most once every TRIM_EVERY seconds (its ``.trimmed``
    file).  Returns how many were removed."""
    now = time.time() if now is None else now
    marker = os.path.join(folder, ".trimmed")
    try:
        if now - os.stat(marker).st_mtime < TRIM_EVERY:
            return 0
    except OSError:
        pass
    try:
        os.makedirs(folder, exist_ok=True)
        with open(marker, "wb"):
            pass
        os.utime(marker, (now, now))
    except OSError:
        return 0
    dated = []   # (time written, size, path)
    stack = [folder]
    while stack:
        try:
            with os.scandir(stack.pop()) as it:
                for e in it:
                    if e.name.startswith("."):
                        continue
                    if e.is_dir(follow_symlinks=False):
                        stack.append(e.path)
                    else:
                        st = e.stat(follow_symlinks=False)
                        dated.append((st.st_mtime, st.st_size, e.path))
        except OSError:
            continue
    total = sum(size for _, size, _ in dated)
    if len(dated) <= MAX_ENTRIES and total <= MAX_BYTES:
        return 0
    dated.sort()
    count, removed = len(dated), 0
    for _, size, p in dated:
        if count <= MAX_ENTRIES * TRIM_TO and total <= MAX_BYTES * TRIM_TO:
            break
        try:
            os.unlink(p)
        except OSError:
            continue
        count, total, removed = count - 1, total - size, removed + 1
    return removed


def _trim_once(path):
    """trim() the cache folder holding ``path`` (directory()'s child), once a process."""
    root = directory()
    rel = os.path.relpath(path, root)
    if rel.startswith(os.pardir) or os.sep not in rel:
        return
    folder = os.path.join(root, rel.split(os.sep, 1)[0])
    if folder in _checked:
        return
    _checked.add(folder)
    try:
        trim(folder)
    except Exception:   # a cache never fails a run
        pass


def entry_path(folder, key):
    """Where cache folder ``folder`` keeps entry ``key``: ``<2 hex>/<key>.marshal``."""
    return os.path.join(directory(), folder, key[:2], key + ".marshal")


def load_marshal(path):
    """The value marshalled in ``path``, or None (absent, half written, of
    another interpreter).  Read whole first: ``marshal.load(f)`` reads in
    small pieces, 2-9x slower on a cache entry."""
    import marshal
    try:
        with open(path, "rb") as f:
            return marshal.loads(f.read())
    except Exception:
        return None


def save_marshal(path, value):
    """``value`` marshalled into ``path`` whole (write_atomic); a cache never
    fails a run, so a failure to write is skipped."""
    import marshal
    try:
        write_atomic(path, marshal.dumps(value))
    except Exception:
        pass


def write_atomic(path, data):
    """Write the bytes ``data`` to ``path`` whole: a temporary file in its
    folder, renamed over it (the cache folder it is in trimmed first, once a
    process).  Raises OSError (the temporary file removed)."""
    import tempfile   # (with shutil and random, 6 ms of a start that writes nothing)
    _trim_once(path)
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
