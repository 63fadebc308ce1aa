"""Which instructions a Python test file uses, read from its syntax tree.

Three kinds of use count:

* an assembly statement in a string literal ("add 3,4,5", a program in a
  triple-quoted string), as in assembly files;
* a template in an f-string whose mnemonic has a literal stem and placeholders
  (``f"sv.fshfl.{mode} *f32,*f0,r4,r5"``): it uses each instruction the stem
  and the words the enclosing test names ("idx", "bfly" in its parametrize
  list) or the module names spell; a template that is only a placeholder
  (``f"{mn} 1,2,3"``) names nothing by itself;
* in a test module (``test_*.py``), a string that is exactly an instruction
  name (``run(isa, "fneg", ...)``, a parametrize list) unless it is a word a
  template completes (``for op in ("add", "min")`` feeding ``f"sured.{op} ..."``
  names SURED operations, not ``add``), a dictionary key, an operand of a
  comparison (``assert names == {"add", "and"}``: names checked, nothing run)
  or a word of a command line (``git("add", "-A")``).

A helper module (not ``test_*.py``) counts statements and templates only:
its word strings are data (``gpu_reference.py``'s table of operation names).
"""
import ast
import re

from .sources import assembly_mnemonics, tokens

HOLE = "\x00"  # stands for an f-string's {placeholder}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\.?")
_STEM = re.compile(r"^(?:sv\.)?([A-Za-z][A-Za-z0-9_.]*)" + HOLE)


def _string_lines(node, text):
    """[(line, text)] of a string constant or f-string (holes as HOLE)."""
    if node.lineno == node.end_lineno:
        return [(node.lineno, part) for part in text.split("\n")]
    return [(node.lineno + k, part) for k, part in enumerate(text.split("\n"))]


def _fstring_text(node):
    return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                   else HOLE for v in node.values)


def _template_names(word, fills, mnemonics):
    """The instructions a template mnemonic spells with the given fill words."""
    word = word[3:] if word.startswith("sv.") else word
    m = _STEM.match(word)
    if not m or len(m.group(1)) < 2:
        return set()
    alts = "|".join(sorted(map(re.escape, fills), key=len, reverse=True))
    fill = f"(?:{alts})?" if alts else "(?!)"
    pattern = re.compile("".join(fill if ch == HOLE else re.escape(ch) for ch in word))
    return {n for n in mnemonics if pattern.fullmatch(n)}


def _template_words(text):
    """Mnemonic words with holes of the statements in one f-string."""
    out = []
    for part in text.replace("\\n", "\n").split("\n"):
        part = re.sub(r"\s(?:#|//).*$", "", part)
        part = re.sub(r"^\s*(?:[A-Za-z_.$][\w.$]*:)?\s*", "", part)
        word, _sep, rest = part.partition(" ")
        word = word.split("/", 1)[0] if word.startswith("sv.") else word
        if HOLE in word and re.fullmatch(r"[A-Za-z0-9_.\x00]+", word) and rest.strip():
            out.append(word)
    return out


class _Scopes:
    """The words (single-token string constants) of each top-level function
    (with its decorators) and of the module outside functions."""

    def __init__(self, tree):
        self.ranges, self.module = [], set()
        for node in tree.body:
            words = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
                     and isinstance(n.value, str) and _WORD.fullmatch(n.value)}
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                self.ranges.append((first, node.end_lineno, words))
            else:
                self.module |= words

    def words_at(self, line):
        for first, last, words in self.ranges:
            if first <= line <= last:
                return words | self.module
        return self.module


def _parents(tree):
    out = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            out[child] = node
    return out


def _is_name_data(node, parents):
    """A bare name string that is data, not a use: the object of a method
    call (``"add".split()``), an operand of a comparison
    (directly or inside a literal set/list/tuple), part of an assertion that
    calls nothing with it (``assert not {"add"} & mentions``), or an argument
    of a call that also passes an option ("-A": a command line)."""
    parent = parents.get(node)
    if isinstance(parent, ast.Attribute):
        return True  # text a method works on: "fadd".split()
    holder = parent
    while isinstance(holder, (ast.Tuple, ast.List, ast.Set, ast.BinOp, ast.UnaryOp,
                              ast.BoolOp)):
        holder = parents.get(holder)
    if isinstance(holder, ast.Compare):
        return True
    up = parent
    while up is not None and not isinstance(up, (ast.stmt, ast.Call)):
        up = parents.get(up)
    if isinstance(up, ast.Assert):
        return True
    if isinstance(parent, ast.Call):
        return any(isinstance(a, ast.Constant) and isinstance(a.value, str)
                   and a.value.startswith("-") for a in parent.args)
    return False


def python_mnemonics(source, mnemonics=(), strict=False):
    """{line: {token}} of the instruction uses in Python ``source``.
    ``strict``: a helper module (statements and templates only)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    mnemonics = set(mnemonics)
    scopes, parents = _Scopes(tree), _parents(tree)
    out = {}

    def add(line, names):
        if names:
            out.setdefault(line, set()).update(names)

    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    fillers = set()  # (line range of a scope, word) completing a template there
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = _fstring_text(node)
            lines = _string_lines(node, text)
            for line, names in assembly_mnemonics(lines).items():
                add(line, names)
            for line, part in lines:
                for word in _template_words(part):
                    words = scopes.words_at(line)
                    spelled = _template_names(word, words, mnemonics)
                    add(line, set().union(set(), *map(tokens, spelled)))
                    # which of the scope's words this template completes
                    for w in words:
                        if _template_names(word, {w}, mnemonics):
                            fillers.add((line, w))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in inner):
            for line, names in assembly_mnemonics(_string_lines(node, node.value)).items():
                add(line, names)
    if strict or not mnemonics:
        return out
    filler_words = {}
    for line, w in fillers:
        filler_words.setdefault(w, []).append(line)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in inner and node.value in mnemonics
                and not _is_name_data(node, parents)):
            scope_lines = filler_words.get(node.value, ())
            if any(scopes.words_at(line) is not scopes.module and
                   _same_scope(scopes, line, node.lineno) for line in scope_lines) or \
                    (scope_lines and _module_level(scopes, node.lineno)):
                continue
            add(node.lineno, tokens(node.value))
    return out


def _same_scope(scopes, a, b):
    return any(first <= a <= last and first <= b <= last for first, last, _w in scopes.ranges)


def _module_level(scopes, line):
    return not any(first <= line <= last for first, last, _w in scopes.ranges)
