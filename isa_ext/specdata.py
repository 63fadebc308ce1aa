"""Where isa_ext's spec data lives: the one module that finds it.

The data is the decoder tables and forms (``decoder/``), the pseudocode pages
(``pseudocode/``), the pseudocode grammar, the SVP64 name lists and the primary
opcode 22 reference list.  Everything is read through :mod:`importlib.resources`
Traversables, never through paths computed from ``__file__``, so the same code
works from a checkout, an editable install, a wheel and a zipped install (a
package that is a plain folder is that folder's path, which is what
importlib.resources gives, found without importing it: :func:`files`).

In the source tree the spec lives at the top level (``decoder/`` and
``pseudocode/`` beside ``isa_ext/``: one source of truth, easy to review); a
built package carries a copy inside itself as ``isa_ext/spec_decoder`` and
``isa_ext/spec_pseudocode`` (see ``pyproject.toml``).
"""
import functools
import importlib
import os
import sys
from pathlib import Path

from .errors import SpecError

INSTALLED_NAMES = {"decoder": "spec_decoder", "pseudocode": "spec_pseudocode"}


class SpecSource:
    """One spec: a ``decoder`` and a ``pseudocode`` tree (Traversables).

    ``project_dir`` is the directory holding both trees when they are plain
    files in a project (a checkout, or a copy under review): errata and tests
    are looked up there.  It is None for the copy inside an installed package.
    """

    def __init__(self, decoder, pseudocode, project_dir=None):
        self.decoder, self.pseudocode, self.project_dir = decoder, pseudocode, project_dir

    def _node(self, tree, parts):
        node = self.decoder if tree == "decoder" else self.pseudocode
        for part in parts:  # one at a time: Python 3.9's zipfile.Path takes one
            node = node.joinpath(part)
        return node

    def where(self, tree, *parts):
        """How messages name a file: relative to the current directory when it
        is a plain file of a project, else (the copy inside an installed
        package, a zip) by its place in the source layout, ``decoder/...``."""
        node = self._node(tree, parts)
        if isinstance(node, Path) and self.project_dir is not None:
            try:
                return os.path.relpath(node)
            except ValueError:  # another drive (Windows)
                return str(node)
        return "/".join((tree,) + parts)

    def read(self, tree, *parts):
        """(where, text) of one file of ``tree`` ("decoder" or "pseudocode")."""
        node = self._node(tree, parts)
        try:
            return self.where(tree, *parts), node.read_text(encoding="utf-8")
        except (OSError, KeyError) as e:  # zipfile.Path raises KeyError
            raise SpecError(f"{self.where(tree, *parts)}: cannot read ({e})") from None

    def files(self, tree, *parts, suffix=""):
        """[(where, text)] of the files directly in a folder, sorted by name;
        [] when the folder does not exist."""
        return [self.read(tree, *parts, name)
                for name, _where, _stamp in self.listing(tree, *parts, suffix=suffix)]

    def stamp(self, tree, *parts):
        """:func:`stamp` of one file, None inside a zip or when unreadable."""
        node = self._node(tree, parts)
        if not isinstance(node, Path):
            return None
        try:
            return stamp(node)
        except OSError:
            return None

    def listing(self, tree, *parts, suffix=""):
        """[(name, where, stamp)] of the files :meth:`files` reads, without
        reading them: ``stamp`` is :func:`stamp` of a plain file, None for one
        inside a zip (nothing then tells a changed file but its text)."""
        folder = self._node(tree, parts)
        if not isinstance(folder, Path):
            if not folder.is_dir():
                return []
            names = sorted(c.name for c in folder.iterdir()
                           if c.is_file() and c.name.endswith(suffix))
            return [(n, self.where(tree, *parts, n), None) for n in names]
        try:
            with os.scandir(folder) as it:
                names = sorted(e.name for e in it if e.name.endswith(suffix) and e.is_file())
        except (FileNotFoundError, NotADirectoryError):
            return []
        # where() of each: one relpath for the folder, not one per file (each
        # asks for the current directory)
        prefix = self.where(tree, *parts)
        out = []
        for n in names:
            if self.project_dir is None:
                where = prefix + "/" + n
            else:
                where = n if prefix == "." else os.path.join(prefix, n)
            try:
                out.append((n, where, stamp(os.path.join(folder, n))))
            except OSError:   # gone meanwhile: read() says so, as before
                out.append((n, where, None))
        return out

    def extensions(self):
        """The extension folders of ``decoder/``, sorted."""
        return sorted(c.name for c in self.decoder.iterdir()
                      if c.is_dir() and not c.name.startswith(("_", ".")))


def stamp(path):
    """What tells that a file changed without reading it: its device, inode,
    size, and modification and status-change times in ns.  A write changes
    the status-change time (ctime) to the current time, and no program can
    set it back (touch -d, cp -p and tar set the modification time only)."""
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _is_spec_tree(decoder):
    return decoder.joinpath("forms.txt").is_file()


def source(root=None):
    """The spec under ``root`` (a directory holding ``decoder/`` and
    ``pseudocode/``, e.g. a copy under review) if given, else isa_ext's own."""
    if root is not None:
        root = Path(root)
        if not _is_spec_tree(root / "decoder"):
            raise SpecError(f"{root}: no decoder/forms.txt (not a spec directory)")
        return SpecSource(root / "decoder", root / "pseudocode", root)
    return _own()


def folder(root):
    """The spec of an extension kept in a folder of its own: ``root`` holds
    ``decoder/<name>/`` and ``pseudocode/<name>/`` (no forms.txt: the forms
    are the ISA's)."""
    root = Path(root)
    return SpecSource(root / "decoder", root / "pseudocode", root)


@functools.lru_cache(maxsize=None)
def _own():
    package = files("isa_ext")
    # a built package (wheel, sdist install, zip): the copy inside isa_ext
    decoder = package.joinpath(INSTALLED_NAMES["decoder"])
    if decoder.is_dir() and _is_spec_tree(decoder):
        return SpecSource(decoder, package.joinpath(INSTALLED_NAMES["pseudocode"]))
    # the source tree (a checkout, an editable install): the folders beside isa_ext/
    if isinstance(package, Path):
        top = package.parent
        if _is_spec_tree(top / "decoder"):
            return SpecSource(top / "decoder", top / "pseudocode", top)
    raise SpecError("cannot find isa_ext's spec data: neither isa_ext/spec_decoder "
                    "(an installed package) nor decoder/ beside isa_ext/ (a checkout)")


def files(package):
    """``importlib.resources.files(package)``: for a package that is one
    plain folder (a checkout, an editable or a wheel install) the folder's
    path, as importlib.resources gives it, without importing
    importlib.resources (13 ms of a start, with typing, tempfile and zipfile);
    else (a zipped install, a namespace package) importlib.resources' own."""
    module = sys.modules.get(package) or importlib.import_module(package)
    spec = module.__spec__
    folders = list(spec.submodule_search_locations or ())
    if (len(folders) == 1 and spec.origin and os.path.isfile(spec.origin)
            and os.path.dirname(spec.origin) == folders[0]):
        return Path(folders[0])
    from importlib import resources
    return resources.files(package)


def package_text(package, name):
    """(where, text) of a data file shipped inside one of isa_ext's own
    packages (the grammar, the PO22 reference list)."""
    node = files(package).joinpath(name)
    return f"{package.replace('.', '/')}/{name}", node.read_text(encoding="utf-8")


def package_folder(package):
    """The folder of one of isa_ext's packages as a path, None when it is not
    a plain folder (a zipped install)."""
    folder = files(package)
    return folder if isinstance(folder, Path) else None


def package_sources(package, suffixes=(".py", ".lark")):
    """[(name, bytes)] of a package's own source files, sorted: what the
    compiled-pseudocode cache key hashes."""
    folder = files(package)
    return [(c.name, c.read_bytes()) for c in sorted(folder.iterdir(), key=lambda c: c.name)
            if c.is_file() and c.name.endswith(suffixes)]
