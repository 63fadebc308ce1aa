"""What the rest of the project says about an instruction: errata entries that
mention it (``docs/errata.md``) and the tests and examples that use it."""
import io
import os
import re
import tokenize
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
    without such headings, each top-level list item.  An entry mentions a
    mnemonic written in `code`, or written anywhere when the mnemonic has a dot
    or digit (``mv.swiz``) and so cannot be an English word ("add", "and", "or" can)."""
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
        coded = set().union(set(), *(tokens(s) for s in _CODE_SPAN.findall(both)))
        e.mentions = coded | {t for t in tokens(both) if re.search(r"[.\d]", t.rstrip("."))}
    return entries


def _anchor(title, line):
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or f"entry-{line}"


def load_errata(project_root):
    """(path, entries) of docs/errata.md, or (None, []) when there is none
    (``project_root`` None: an installed package, which ships no docs)."""
    if project_root is None:
        return None, []
    path = os.path.join(project_root, "docs", "errata.md")
    try:
        with open(path, encoding="utf-8") as f:
            return path, parse_errata(f.read())
    except OSError:
        return None, []


def errata_for(entries, names):
    return [e for e in entries if e.mentions & set(names)]


def _python_strings(text):
    """(line, text) of each line inside string literals of Python source: where
    tests write assembly."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING:
                for k, part in enumerate(tok.string.splitlines()):
                    out.append((tok.start[0] + k, part))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return list(enumerate(text.splitlines(), 1))
    return out


_QUOTES = ('"""', "'''", '"', "'")
_LABEL = re.compile(r"^\s*(?:[A-Za-z_.$][\w.$]*:)?\s*")


def _unquote(text):
    """A line of a string literal without the literal's prefix and quotes."""
    text = text.strip().lstrip("rRbBuUfF") if text[:1] in "rRbBuUfF" else text.strip()
    for q in _QUOTES:
        if text.startswith(q):
            text = text[len(q):]
            break
    for q in _QUOTES:
        if text.endswith(q):
            text = text[:-len(q)]
            break
    return text


def statement_tokens(line):
    """The mnemonic of a line of assembly inside a Python string: the first word
    (after a label) when operands follow it ("add 3,4,5", "sv.add *8, *8, *16").
    A bare word ("add" as a dictionary key, a table of names) is no reference."""
    text = _unquote(line).replace("\\n", "\n").split("\n")[0]
    text = _LABEL.sub("", text, count=1)
    word, sep, rest = text.partition(" ")
    if not sep or not rest.strip() or not _TOKEN.fullmatch(word):
        return set()
    return tokens(word)


def scan_references(project_root):
    """{token: [(relative path, line), ...]} over tests/ and examples/ ({} for
    ``project_root`` None: an installed package)."""
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
                rel = os.path.relpath(path, project_root)
                lines = _python_strings(text) if fn.endswith(".py") else \
                    list(enumerate(text.splitlines(), 1))
                # a helper module's strings are data (gpu_reference.py's table of
                # SURED operation names "add", "and"): only its assembly counts;
                # a test's word strings name what it tests
                strict = fn.endswith(".py") and not fn.startswith("test_")
                for lineno, line in lines:
                    for tok in (statement_tokens(line) if strict else tokens(line)):
                        index.setdefault(tok, []).append((rel, lineno))
    return index


def references_for(index, names):
    """{path: [line, ...]} for any of ``names``."""
    out = {}
    for name in names:
        for path, line in index.get(name, ()):
            out.setdefault(path, set()).add(line)
    return {p: sorted(lines) for p, lines in sorted(out.items())}
