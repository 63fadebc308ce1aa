#!/usr/bin/env python3
"""Mutation operators for the pseudocode pages (pseudocode/**/*.mdwn): the pages are
the semantics, so a test suite that lets a changed operator, constant or bit range
through is missing a check.

Only the code blocks (the indented lines after "Pseudo-code:") are mutated, never
comments or quoted strings.  Operators:

  arith    + -> -, binary - -> +
  logic    & -> |, | -> &, ^ -> |, a negation ¬ removed
  compare  = -> !=, != -> =, < -> <=, > -> >=, <= -> <, >= -> > (and the u forms)
  const    decimal n -> n+1, 0b... -> lowest bit flipped, 0x... -> lowest bit flipped
  range    [a:b] -> [a+1:b] and [a:b-1] (the range loses its first or last bit)

Skipped, because they are equivalent by construction: the count N of a leading
zero run in a register write, ``RT <- [0]*N || x`` or ``RT <- [0]*N`` (targets RT,
RA, FRT, GPR(...), FPR(...); also as a one-line ``if ... then`` or ``else``).  Leading zeros do not change a concatenation's value,
and the page compiler writes a register as the value masked to the register's
width (isa_ext/pseudocode/compiler.py, ``assign`` and ``fit``), so every N gives
the same register contents; these were the most common equivalent survivors
(docs/testing.md, "Survivors and decisions").

Used as a library by tools/mutation.py; on its own it lists the mutants of a page,
or applies one mutant, runs the given tests and restores the page:

  python tools/mutate_pages.py list pseudocode/svp64/simplev.mdwn
  python tools/mutate_pages.py run pseudocode/svp64/simplev.mdwn 17 -- tests/svp64/test_svp64_pages.py
"""
import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass

OPERATOR = re.compile(r"<-|<=u|>=u|<u|>u|<=|>=|!=|\|\||<<|>>|[-+&|^=<>¬]")
SWAP = {"+": "-", "&": "|", "|": "&", "^": "|", "=": "!=", "!=": "=", "<": "<=", ">": ">=",
        "<=": "<", ">=": ">", "<u": "<=u", ">u": ">=u", "<=u": "<u", ">=u": ">u", "¬": ""}
NUMBER = re.compile(r"(?<![\w.])(0b[01]+|0x[0-9a-fA-F]+|\d+)(?!\w)")
RANGE = re.compile(r"\[(\d+):(\d+)\]")
STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
# "RT <- [0]*56 || MEM(EA, 1)", "GPR(n) <- [0]*32 || word", "if overflow then
# RT <- [0]*64": group 1
# is the count whose mutants are equivalent (see the module docstring)
ZERO_LEAD = re.compile(r"^\s*(?:if\s.*?\bthen\s+|else\s+)?"   # a one-line branch too
                       r"(?:RT|RA|FRT|GPR\([^<]*\)|FPR\([^<]*\))\s*<-\s*"
                       r"\[0\]\*(\d+)\s*(?:\|\||$)")


@dataclass(frozen=True)
class PageMutant:
    path: str      # relative to the repository root
    line: int      # 1-based line in the file
    start: int     # column span of the replaced text (0-based, end exclusive)
    end: int
    old: str
    new: str
    kind: str      # arith | logic | compare | const | range

    def describe(self):
        # the column tells apart the same change at two places of one line
        return f"{self.path}:{self.line}:{self.start + 1}: {self.kind} {self.old!r} -> {self.new!r}"


def code_lines(text):
    """(line number, line) of every code line of every Pseudo-code block."""
    inside = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("Pseudo-code:"):
            inside = True
        elif line.strip() and not line[0].isspace():
            inside = False
        elif inside and line.strip():
            yield n, line


def _masked(line):
    """The line with strings and the comment blanked out (same length), so that
    positions found in it are positions in the line."""
    line = STRING.sub(lambda m: " " * len(m.group()), line)
    cut = line.find("#")
    return line if cut < 0 else line[:cut] + " " * (len(line) - cut)


def _binary_minus(code, i):
    before = code[:i].rstrip()
    return bool(before) and (before[-1].isalnum() or before[-1] in ")]_")


def _const(text):
    if text.startswith("0b"):
        return text[:-1] + ("0" if text[-1] == "1" else "1")
    if text.startswith("0x"):
        return f"0x{int(text, 16) ^ 1:0{len(text) - 2}x}"
    return str(int(text) + 1)


def line_mutants(path, n, line):
    code = _masked(line)
    out = []
    for m in OPERATOR.finditer(code):
        tok = m.group()
        if tok == "-" and _binary_minus(code, m.start()):
            out.append(PageMutant(path, n, m.start(), m.end(), tok, "+", "arith"))
        elif tok in SWAP:
            kind = "arith" if tok == "+" else "logic" if tok in "&|^¬" else "compare"
            out.append(PageMutant(path, n, m.start(), m.end(), tok, SWAP[tok], kind))
    ranges = list(RANGE.finditer(code))
    in_range = {p for r in ranges for p in range(r.start(), r.end())}
    for r in ranges:
        a, b = int(r.group(1)), int(r.group(2))
        if a < b:
            out.append(PageMutant(path, n, r.start(), r.end(), r.group(), f"[{a + 1}:{b}]", "range"))
            out.append(PageMutant(path, n, r.start(), r.end(), r.group(), f"[{a}:{b - 1}]", "range"))
    lead = ZERO_LEAD.match(code.rstrip())
    skip = {lead.start(1)} if lead else set()
    for m in NUMBER.finditer(code):
        if m.start() not in in_range and m.start() not in skip:
            out.append(PageMutant(path, n, m.start(), m.end(), m.group(), _const(m.group()), "const"))
    return out


def page_mutants(root, path):
    """Every mutant of the page ``path`` (relative to ``root``), in file order."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        text = f.read()
    return [mu for n, line in code_lines(text) for mu in line_mutants(path, n, line)]


def all_page_mutants(root, pattern="pseudocode"):
    out = []
    base = os.path.join(root, pattern)
    for d, _, files in sorted(os.walk(base)):
        for name in sorted(files):
            if name.endswith(".mdwn"):
                out += page_mutants(root, os.path.relpath(os.path.join(d, name), root))
    return out


def apply(root, mutant):
    """Write the mutant into the page; returns the original text (for restore)."""
    full = os.path.join(root, mutant.path)
    with open(full, encoding="utf-8") as f:
        original = f.read()
    lines = original.split("\n")
    line = lines[mutant.line - 1]
    assert line[mutant.start:mutant.end] == mutant.old, (mutant, line)
    lines[mutant.line - 1] = line[:mutant.start] + mutant.new + line[mutant.end:]
    with open(full, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return original


def restore(root, mutant, original):
    with open(os.path.join(root, mutant.path), "w", encoding="utf-8") as f:
        f.write(original)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    ls = sub.add_parser("list", help="number and describe every mutant of a page")
    ls.add_argument("page")
    run = sub.add_parser("run", help="apply mutant N of a page, run pytest, restore")
    run.add_argument("page")
    run.add_argument("index", type=int)
    run.add_argument("pytest_args", nargs="*")
    args = p.parse_args(argv)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    page = os.path.relpath(os.path.abspath(args.page), root)
    mutants = page_mutants(root, page)
    if args.cmd == "list":
        for i, mu in enumerate(mutants):
            print(i, mu.describe())
        return 0
    mutant = mutants[args.index]
    print("mutant:", mutant.describe())
    original = apply(root, mutant)
    try:
        r = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly",
                            *args.pytest_args], cwd=root)
    finally:
        restore(root, mutant, original)
    print("killed" if r.returncode else "SURVIVED")
    return 0 if r.returncode else 1


if __name__ == "__main__":
    sys.exit(main())
