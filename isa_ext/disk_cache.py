"""Where isa_ext keeps what it computes once for many runs (compiled pages,
parsed tables and pages, specialised instruction bodies), and the two things
every such cache needs: a digest of the code that made an entry (so a new
isa_ext, or another interpreter, never reads an old entry) and writing an
entry whole (written to a temporary file, then renamed: a reader never sees
half of one).
"""
import hashlib
import os
import sys
import tempfile


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
    h = hashlib.sha256(f"{IMPLEMENTATION} {sys.version_info[:2]} "
                       f"{extra}".encode())
    for mod in modules:
        h.update(module_source(mod))
    return h.hexdigest()


def write_atomic(path, data):
    """Write the bytes ``data`` to ``path`` whole: a temporary file in its
    folder, renamed over it.  Raises OSError (the temporary file removed)."""
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
