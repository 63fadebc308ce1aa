"""What the rest of the project says about an instruction: errata entries that
mention it (``docs/errata.md``) and the tests and examples that use it."""
import os
import re
from dataclasses import dataclass, field as dc_field

# a mnemonic-like token: "add", "addo.", "mv.swiz", "sv.add"
_TOKEN = re.compile(r"(?<![\w.])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*\.?(?![\w])")
_CODE_SPAN = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_ITEM = re.compile(r"^(?:[-*]|\d+\.)\s+")

SCANNED_DIRS = ("tests", "examples")
SCANNED_SUFFIXES = (".py", ".s", ".S", ".asm", ".txt", ".md", ".c", ".h")


def tokens(text):
    """Mnemonic-like tokens of a text.  ``sv.X`` also yields ``X``; ``X.`` (a
    record-form mnemonic, or a word ending a sentence) also yields ``X``."""
    out = set()
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        for t in {tok, tok.rstrip(".")}:
            out.add(t)
            if t.startswith("sv."):
                out.add(t[3:])
    return out


@dataclass
class ErratumEntry:
    title: str
    text: str
    line: int
    anchor: str
    mentions: set = dc_field(default_factory=set)


def parse_errata(text):
    """Entries of an errata document: the text under each heading below the
    title (a heading directly followed by sub-headings is no entry itself);
    without such headings, each top-level list item.  An entry mentions what
    its `code` spans name (:func:`_span_mentions`) and, anywhere, names that
    cannot be English words (``mv.swiz``, ``shuffleNV``; "add", "and", "or" can
    be)."""
    lines = text.splitlines()
    levels = [len(m.group(1)) for m in map(_HEADING.match, lines) if m]
    has_sections = any(lv > min(levels) for lv in levels) if levels else False
    entries, cur = [], None
    for i, line in enumerate(lines, 1):
        h = _HEADING.match(line)
        if h:
            cur = None
            if has_sections and len(h.group(1)) > min(levels):
                title = h.group(2).strip()
                cur = ErratumEntry(title, "", i, _anchor(title, i))
                entries.append(cur)
        elif not has_sections and _ITEM.match(line) and not line[0].isspace():
            title = _ITEM.sub("", line).strip()
            cur = ErratumEntry(title, title + "\n", i, _anchor(title, i))
            entries.append(cur)
        elif cur is not None:
            cur.text += line + "\n"
    entries = [e for e in entries if e.text.strip()]
    for e in entries:
        both = e.title + "\n" + e.text
        coded = set().union(set(), *(_span_mentions(s) for s in _CODE_SPAN.findall(both)))
        e.mentions = coded | {t for t in tokens(_CODE_SPAN.sub(" ", both)) if _unmistakable(t)}
    return entries


_LIST_WORD = re.compile(r"[a-z][a-z0-9_.]+\.?")
_PATTERN = re.compile(r"(?:sv\.)?([A-Za-z][A-Za-z0-9_.]*(?:\*|<[A-Za-z]+>)[A-Za-z0-9_.*<>]*)")


def _unmistakable(tok):
    """A name in prose that cannot be an English word: it has a dot or digit
    (``mv.swiz``, ``qswz0``) or a capital after its first letter (``shuffleNV``)."""
    return bool(re.search(r"[.\d]", tok.rstrip(".")) or re.search(r"[A-Z]", tok[1:]))


def _span_mentions(span):
    """The instruction names a `code span` of an errata entry gives: one name or
    name pattern (`add`, `qswz*`, `sured.<op>`, `divw(u)`), the mnemonic of an
    assembly statement (`sv.add *8, *1, *1`), or every word of a list of names
    (`cfuged pdepd pextd gbbd`).  Pseudocode (`cond_ok or ctr_ok`), SVP64 modes
    (`/mr` is map-reduce, not the mr mnemonic), paths and one-letter names (`b`
    is a variable there, rarely the branch) name nothing."""
    span = " ".join(span.split())
    words = span.split(" ")
    if span.startswith(("/", "::")) or (not span.startswith("sv.") and
                                        re.fullmatch(r"[\w.-]+(?:/[\w.-]+)+(?:::\w+)*", span)):
        return set()  # an SVP64 mode (`/mr`, `/vecN`), a path or test id
    if len(words) == 1:
        m = _PATTERN.fullmatch(span)
        if m:
            return {m.group(1)}
        return {t for t in tokens(span) if len(t.rstrip(".")) > 1}
    st = _statement(span)
    if st and st[1]:
        return {t for t in tokens(st[0]) if len(t.rstrip(".")) > 1}
    if all(_LIST_WORD.fullmatch(w) for w in words):
        return set().union(*(tokens(w) for w in words))
    return {t for t in tokens(span) if re.search(r"[.\d]", t.rstrip("."))}


def names_mentioned(mention, names):
    """Which of ``names`` (one page's mnemonics and aliases) a mention gives:
    the name itself, a pattern's matches (``qswz*``: qswz0, qswzxa ...;
    ``sured.<op>.u32``), or a family by its stem (``sured``: every sured.*;
    ``shfl``: shfl.up, shfl.idx ...)."""
    if "*" in mention or "<" in mention:
        rx = re.compile("".join("[A-Za-z0-9.]*" if part == "*" else
                                "[A-Za-z0-9]+" if part.startswith("<") else re.escape(part)
                                for part in re.split(r"(\*|<[A-Za-z]+>)", mention) if part))
        return {n for n in names if rx.fullmatch(n)}
    return {n for n in names if n == mention or
            (n.startswith(mention + ".") and n[len(mention) + 1:].rstrip("."))}


def _anchor(title, line):
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or f"entry-{line}"


def load_errata(project_root):
    """(text, entries) of docs/errata.md, or (None, []) when there is none.
    ``project_root`` None: an installed package, whose copy of the file sits
    inside it (``isa_ext/spec_docs/errata.md``, setup.py), so an installed
    spec site lists each page's errata as a checkout's does."""
    if project_root is None:
        from ..specdata import package_text
        try:
            text = package_text("isa_ext.spec_docs", ERRATA_FILE)[1]
        except (OSError, ModuleNotFoundError, KeyError):
            return None, []
    else:
        try:
            with open(os.path.join(project_root, "docs", ERRATA_FILE), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            return None, []
    return text, parse_errata(text)


ERRATA_FILE = "errata.md"


def errata_for(entries, names):
    return [e for e in entries if any(names_mentioned(m, names) for m in e.mentions)]


_QUOTES = ('"""', "'''", '"', "'")
_LABEL = re.compile(r"^\s*(?:[A-Za-z_.$][\w.$]*:)?\s*")
_COMMENT = re.compile(r"\s(?:#|//).*$|^\s*(?:#|//).*$")
_C_ASM = re.compile(r"\b(?:__asm__|asm)\s*(?:volatile|__volatile__)?\s*\(\s*"
                    r"((?:\"(?:[^\"\\]|\\.)*\"\s*)+)")
_C_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unquote(text):
    """A line of a string literal without the literal's prefix and quotes."""
    text = text.strip()
    m = re.match(r"^[rRbBuUfF]{1,2}(?=[\"'])", text)
    if m:
        text = text[m.end():]
    for q in _QUOTES:
        if text.startswith(q):
            text = text[len(q):]
            break
    for q in _QUOTES:
        if text.endswith(q):
            text = text[:-len(q)]
            break
    return text


def _statement(text):
    """(mnemonic, has operands) of one assembly statement, or None when the text
    is not one.  Operands are one comma-separated run ("3,4,5", "*r8, 0(r1)",
    "r4, r4, \"W.Y.\""); prose ("add the two", "and then 3") has words apart."""
    text = _COMMENT.sub("", text)
    text = _LABEL.sub("", text, count=1).strip()
    word, _sep, rest = text.partition(" ")
    word = word.split("/", 1)[0] if word.startswith("sv.") else word  # sv.add/mr
    if not _TOKEN.fullmatch(word):
        return None
    rest = re.sub(r"\s*,\s*", ",", rest.strip())
    if not rest:
        return word, False
    if re.search(r"\s", rest):
        return None
    # a lone operand without digit or comma is a label: only branches take one
    if "," not in rest and not re.search(r"\d", rest) and not word.startswith("b"):
        return None
    return word, True


def assembly_mnemonics(lines, bare=False):
    """{line: {token}} of the statements in ``lines`` [(line, text)].  A bare
    word ("blr") counts when ``bare`` (an assembly file) or when the same text
    holds a statement with operands (a program in a string literal)."""
    found = []
    for lineno, text in lines:
        for part in text.replace("\\n", "\n").split("\n"):
            st = _statement(part)
            if st:
                found.append((lineno, st))
    bare = bare or any(has_ops for _l, (_w, has_ops) in found)
    out = {}
    for lineno, (word, has_ops) in found:
        if has_ops or bare:
            out.setdefault(lineno, set()).update(tokens(word))
    return out


def statement_tokens(line):
    """The mnemonic of one line of assembly inside a Python string: the first
    word (after a label) when operands follow it ("add 3,4,5", "sv.add *8, *8,
    *16").  A bare word ("add" as a dictionary key, a table of names) is no
    reference."""
    return set().union(set(), *assembly_mnemonics([(0, _unquote(line))]).values())


def _file_mnemonics(fn, text, mnemonics):
    """{line: {token}} of one scanned file: assembly statements, never prose,
    comments or word tables (a test docstring's "and" or a helper's table of
    SURED operation names "add" are no references)."""
    if fn.endswith(".py"):
        from .pyrefs import python_mnemonics
        return python_mnemonics(text, mnemonics, strict=not fn.startswith("test_"))
    if fn.endswith((".c", ".h")):
        found = {}
        for m in _C_ASM.finditer(text):
            first = text.count("\n", 0, m.start(1)) + 1
            body = m.group(1)
            block = [(first + body.count("\n", 0, s.start()), s.group(1))
                     for s in _C_STRING.finditer(body)]
            for n, toks in assembly_mnemonics(block, bare=True).items():
                found.setdefault(n, set()).update(toks)
        return found
    return assembly_mnemonics(list(enumerate(text.splitlines(), 1)),
                              bare=fn.endswith((".s", ".S", ".asm")))


def _first_line(func):
    """A function's first line, its decorators included (a parametrize list of
    programs belongs to the test it parametrizes)."""
    return min([func.lineno] + [d.lineno for d in func.decorator_list])


def _test_functions(text):
    """[(first line, last line, name)] of the test functions of a test module
    (methods as Class::name), for naming what a reference line belongs to."""
    import ast
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            out.append((_first_line(node), node.end_lineno, node.name))
        elif isinstance(node, ast.ClassDef):
            out += [(_first_line(m), m.end_lineno, f"{node.name}::{m.name}") for m in node.body
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and m.name.startswith("test")]
    return out


def scan_references(project_root, mnemonics=()):
    """{token: [(relative path, line, test name or None), ...]} over tests/ and
    examples/ ({} for ``project_root`` None: an installed package).
    ``mnemonics`` (every instruction and alias name) lets a test's bare
    mnemonic strings (``run(isa, "fneg", ...)``) and templates
    (``f"sv.fshfl.{mode} ..."`` over the modes it names) count."""
    index = {}
    if project_root is None:
        return index
    for top in SCANNED_DIRS:
        base = os.path.join(project_root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
            for fn in sorted(filenames):
                if not fn.endswith(SCANNED_SUFFIXES):
                    continue
                path = os.path.join(dirpath, fn)
                try:
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                except (OSError, UnicodeDecodeError):
                    continue
                rel = os.path.relpath(path, project_root).replace(os.sep, "/")
                funcs = _test_functions(text) if fn.endswith(".py") else []
                for lineno, toks in sorted(_file_mnemonics(fn, text, mnemonics).items()):
                    name = next((n for a, b, n in funcs if a <= lineno <= b), None)
                    for tok in toks:
                        index.setdefault(tok, []).append((rel, lineno, name))
    return index


# a test module that draws every row of an extension's tables by program, not
# by name, says so once: "# spec-site: test_x covers every row of extension vector"
# (the test itself must check that every row was drawn)
_COVERS = re.compile(r"^# spec-site: (test\w+) covers every row of extension (\w+)\s*$", re.M)


def row_coverage(project_root):
    """{extension: [(test file, line, test name)]} from the declarations above."""
    out = {}
    if project_root is None:
        return out
    base = os.path.join(project_root, "tests")
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
        for fn in sorted(filenames):
            if not (fn.startswith("test_") and fn.endswith(".py")):
                continue
            path = os.path.join(dirpath, fn)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            rel = os.path.relpath(path, project_root).replace(os.sep, "/")
            for m in _COVERS.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                out.setdefault(m.group(2), []).append((rel, line, m.group(1)))
    return out


def references_for(index, names):
    """{path: [line, ...]} for any of ``names``."""
    out = {}
    for name in names:
        for path, line, _test in index.get(name, ()):
            out.setdefault(path, set()).add(line)
    return {p: sorted(lines) for p, lines in sorted(out.items())}


def tests_for(index, names):
    """{path: [test name, ...]}: the test functions whose assembly uses any of
    ``names`` (a file whose uses are all outside functions maps to [])."""
    out = {}
    for name in names:
        for path, _line, test in index.get(name, ()):
            out.setdefault(path, set())
            if test:
                out[path].add(test)
    return {p: sorted(t) for p, t in sorted(out.items())}
