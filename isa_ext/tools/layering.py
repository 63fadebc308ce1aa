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
2. The word "isacaller" (libre-soc's simulator) appears only under
   ``isa_ext/compat/``.  The files that have it today are listed in
   ``KNOWN_ISACALLER`` (the SVP64 profile switches whose values are still
   named after it); they are reported, not failed; any other file fails.

Each violation is printed as ``importer -> imported`` (the chain when the
import is indirect) or ``file: isacaller``; exit status 0 when there is none,
1 when there is.
"""
import argparse
import ast
import os
import sys

PACKAGE = "isa_ext"
COMPAT = "isa_ext.compat"
CORE = ("isa_ext.isa", "isa_ext.sim", "isa_ext.machine",
        "isa_ext.pseudocode", "isa_ext.svp64", "isa_ext.translate")
WORD = "isacaller"
# files (relative to the folder holding isa_ext/) where the word is known to
# appear outside compat/: profile switch values ("isacaller") and the
# differential's CLI and generators; item 3 of issue #31 renames them
KNOWN_ISACALLER = frozenset({
    "isa_ext/profile.py",
    "isa_ext/ext/svp64/__init__.py",
    "isa_ext/svp64/svstate.py",
    "isa_ext/svp64/executor.py",
    "isa_ext/svp64/record.py",
    "isa_ext/svp64/remap_profile.py",
    "isa_ext/svp64/steps.py",
    "isa_ext/svp64/predication.py",
    "isa_ext/svp64/branch.py",
    "isa_ext/svp64/indexmap.py",
    "isa_ext/commands/diffcheck.py",
    "isa_ext/diffcheck/svp64_lines.py",
    "isa_ext/diffcheck/ldst_place.py",
})
SOURCE_SUFFIXES = (".py", ".lark")
THIS_FILE = "isa_ext/tools/layering.py"  # names the word to state the rule


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


def word_files(root):
    """Files outside compat/ with the word "isacaller" (any case)."""
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
            if os.path.relpath(path, root).replace(os.sep, "/") == THIS_FILE:
                continue
            with open(path, encoding="utf-8") as f:
                if WORD in f.read().lower():
                    out.append(os.path.relpath(path, root).replace(os.sep, "/"))
    return out


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
    known = []
    for path in word_files(args.root):
        if path in KNOWN_ISACALLER:
            known.append(path)
        else:
            print(f"{path}: {WORD} (only isa_ext/compat/ may name it)")
            failed = True
    if known:
        print(f"known exceptions ({len(known)} files name {WORD} outside isa_ext/compat/): "
              + ", ".join(known))
    print("layering: " + ("violations above" if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
