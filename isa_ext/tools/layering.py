"""The package's layering, checked from the source text (nothing is imported).

    python -m isa_ext.tools.layering [--root DIR]

Rules:

1. The core -- ``isa_ext.isa``, ``sim``, ``machine`` and the packages
   ``pseudocode``, ``svp64``, ``translate`` -- imports nothing from
   ``isa_ext.compat`` (openpower-isa compatibility), neither directly nor
   through another isa_ext module it imports (at module level or inside a
   function: a lazy import is still a dependency).  Compatibility plugs into
   the core through its hooks (``ISA(page_source=...)``, the compiler's
   ``register_dialect``).
2. The names compat owns (``OWNED_WORDS`` of ``isa_ext/compat/__init__.py``:
   the simulator it is compatible with) appear, in any case, only under
   ``isa_ext/compat/``: elsewhere a switch or comment says what is done, not
   whose behaviour it copies.  No exceptions.
3. No function in ``isa_ext/svp64/`` or ``isa_ext/translate/`` is longer
   than ``MAX_LINES`` lines unless ``LONG_FUNCTIONS`` lists it (as
   ``path:qualified name``) with a one-line reason.  An entry that no longer
   matches a long function is reported so that the list can shrink; it does
   not fail (another branch may have shortened it).

Each violation is printed on one line (``importer -> imported`` with the
chain when the import is indirect; ``file: word``; ``file:line name: N
lines``); exit status 0 when there is none, 1 when there is.
"""
import argparse
import ast
import os
import sys

PACKAGE = "isa_ext"
COMPAT = "isa_ext.compat"
CORE = ("isa_ext.isa", "isa_ext.sim", "isa_ext.machine",
        "isa_ext.pseudocode", "isa_ext.svp64", "isa_ext.translate")
OWNED_WORDS_FILE = os.path.join(PACKAGE, "compat", "__init__.py")
# rule 3: the folders whose functions must stay short, and the exceptions
SHORT_FOLDERS = ("isa_ext/svp64", "isa_ext/translate")
MAX_LINES = 80
LONG_FUNCTIONS = {}
SOURCE_SUFFIXES = (".py", ".lark")


def modules(root):
    """{module name: file path} of every .py file of the package under ``root``."""
    out = {}
    base = os.path.join(root, PACKAGE)
    for folder, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), root)[:-3].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            out[".".join(rel)] = os.path.join(folder, name)
    return out


def imports(name, path, known):
    """The isa_ext modules ``name`` (file ``path``) imports, anywhere in it."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    is_package = os.path.basename(path) == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = here[:len(here) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # "from X import Y": Y is a submodule of X, or a name X defines
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t.startswith(PACKAGE) and t != name:
                found.add(t)
    return found


def is_core(name):
    return any(name == c or name.startswith(c + ".") for c in CORE)


def is_compat(name):
    return name == COMPAT or name.startswith(COMPAT + ".")


def import_violations(root):
    """[chain] for each core module reaching compat through modules outside
    the core: (core, non-core ..., compat module).  A path through another
    core module is that module's own chain."""
    known = modules(root)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    out = []
    for start in sorted(n for n in known if is_core(n)):
        # breadth first: the shortest chain to each compat module
        parent, queue, reached = {start: None}, [start], []
        while queue:
            node = queue.pop(0)
            for nxt in sorted(graph.get(node, ())):
                if nxt in parent or is_core(nxt):
                    continue
                parent[nxt] = node
                (reached if is_compat(nxt) else queue).append(nxt)
        for target in sorted(reached):
            chain = [target]
            while parent[chain[-1]] is not None:
                chain.append(parent[chain[-1]])
            out.append(chain[::-1])
    return out


def owned_words(root):
    """The words of compat's ``OWNED_WORDS`` (read from its source text)."""
    path = os.path.join(root, OWNED_WORDS_FILE)
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    words = ()
    for node in tree.body:  # the last assignment stands, as on import
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "OWNED_WORDS" for t in node.targets):
            words = tuple(w.lower() for w in ast.literal_eval(node.value))
    return words


def word_files(root, words):
    """[(file, word)] for the files outside compat/ that say one of ``words``
    (any case)."""
    out = []
    base = os.path.join(root, PACKAGE)
    compat = os.path.join(base, "compat")
    for folder, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        if folder == compat or folder.startswith(compat + os.sep):
            continue
        for name in sorted(files):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read().lower()
            for word in words:
                if word in text:
                    out.append((os.path.relpath(path, root).replace(os.sep, "/"), word))
    return out


def long_functions(root):
    """[(file, line, qualified name, lines)] of the functions over MAX_LINES
    lines in SHORT_FOLDERS."""
    out = []
    for rel in SHORT_FOLDERS:
        for folder, dirs, files in os.walk(os.path.join(root, rel)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), path)
                file = os.path.relpath(path, root).replace(os.sep, "/")
                out.extend((file, line, qual, n) for line, qual, n in _function_lengths(tree)
                           if n > MAX_LINES)
    return out


def _function_lengths(tree, prefix=""):
    """(line, qualified name, lines) of every function under ``tree``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qual = prefix + node.name
            if not isinstance(node, ast.ClassDef):
                yield node.lineno, qual, node.end_lineno - node.lineno + 1
            yield from _function_lengths(node, qual + ".")
        else:
            yield from _function_lengths(node, prefix)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m isa_ext.tools.layering",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), help="the folder holding isa_ext/ (this checkout's)")
    args = p.parse_args(argv)
    if not os.path.isdir(os.path.join(args.root, PACKAGE)):
        print(f"{args.root}: no {PACKAGE}/ folder", file=sys.stderr)
        return 2
    failed = False
    for chain in import_violations(args.root):
        print(" -> ".join(chain))
        failed = True
    for path, word in word_files(args.root, owned_words(args.root)):
        print(f"{path}: {word} (only isa_ext/compat/ may name it)")
        failed = True
    listed = set()
    for path, line, qual, n in long_functions(args.root):
        key = f"{path}:{qual}"
        if key in LONG_FUNCTIONS:
            listed.add(key)
            continue
        print(f"{path}:{line} {qual}: {n} lines (over {MAX_LINES}: split it, or list it "
              "in LONG_FUNCTIONS with a reason)")
        failed = True
    for key in sorted(set(LONG_FUNCTIONS) - listed):
        print(f"note: {key} is no longer over {MAX_LINES} lines (LONG_FUNCTIONS can drop it)")
    print("layering: " + ("violations above" if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
