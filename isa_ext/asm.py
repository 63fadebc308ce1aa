"""Assembler for GNU ``as`` syntax, driven entirely by the decoder tables.

Every instruction row of the loaded ISA is assemblable by its mnemonics (with
the ``o . l a`` variants the row's ``suffix`` makes); extended mnemonics come
from ``decoder/<ext>/aliases/*.csv`` (see :func:`extended_mnemonics`).  Operand
kinds come from ``decoder/forms.txt``: register classes, ``signed``, ``scale``
and ``pcrel`` field attributes.

Two passes: the first splits the source into statements and lays out sections
(every instruction is 4 bytes, an ``sv.`` instruction 8), the second evaluates
expressions with all labels known and encodes.  Errors are :class:`AsmError`
located at file:line:column of the offending operand.
"""
import marshal
import re

from .records import record, factory

from . import prefix as prefixes
from .encoding import encode_row
from .errors import AsmError, IsaExtError
from .tables import SUFFIX_CHARS, SUFFIX_ORDER

CR_BIT_NAMES = {"lt": 0, "gt": 1, "eq": 2, "so": 3, "un": 3}
# register-name spellings per register class; "%r3" is GNU's unambiguous form
REG_PATTERNS = {
    "gpr": re.compile(r"%?r(\d+)$"),
    "fpr": re.compile(r"%?f(\d+)$"),
    "crf": re.compile(r"%?cr(\d+)$"),
    "vsr": re.compile(r"%?vs(\d+)$"),
    "vr": re.compile(r"%?v(\d+)$"),
}
ANY_REG = re.compile(r"%?(r|f|cr|v|vs)(\d+)$")
# a VR or FPR inside a VSR-number expression: "32+(v1)" (an extended
# mnemonic's expansion); a bare "v1" there is refused (docs/vector.md)
FPR_OR_VR_IN_SUM = re.compile(r"(?<![\w%])%?[vf](\d+)\b")
CLASS_WORDS = {"gpr": "a GPR (r0..r31)", "fpr": "an FPR (f0..f31)",
               "vsr": "a VSR (vs0..vs63)", "vr": "a VR (v0..v31)",
               "crf": "a CR field (cr0..cr7)", "crb": "a CR bit (e.g. 4*cr1+eq)"}
DATA_SIZES = {".byte": 1, ".short": 2, ".hword": 2, ".2byte": 2, ".long": 4, ".int": 4,
              ".4byte": 4, ".quad": 8, ".8byte": 8}
IGNORED_DIRECTIVES = {".type", ".size", ".file", ".ident", ".machine", ".abiversion",
                      ".localentry", ".end", ".cfi_startproc", ".cfi_endproc", ".local",
                      ".weak", ".hidden", ".protected", ".option"}


# -- source text ----------------------------------------------------------------

@record
class Located:
    """A piece of source text and where it starts (1-based column)."""
    text: str
    column: int


@record
class Statement:
    line: int
    column: int  # of the mnemonic / directive
    mnemonic: str
    operands: list  # [Located]
    source: str  # the whole source line, for listings
    end_column: int = 0  # just past the statement (for "missing operand")
    order: int = 0  # position in the source, for numeric local labels (1b, 1f)


def _unquoted(text, end=None):
    """(index, character) for each character of ``text`` outside "..." strings
    (opening quotes included; a backslash escapes inside a string).  With
    ``end``, a final (len(text), end) follows unless a string is left open."""
    quote = False
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        else:
            quote = c == '"'
            yield i, c
        i += 1
    if end is not None and not quote:
        yield len(text), end


def _strip_comment(line):
    """The line without its ``#`` comment (``#`` inside a string is kept).  A
    ``#`` that begins an operand (after a comma) and is followed by a digit,
    ``(`` or ``-`` is an immediate, as seed 004 writes SURED's ``#tsPtrIdxU13``
    (``sured.add.u32 r2,r4,#5,2d``); GNU as would read an empty operand there."""
    for i, c in _unquoted(line):
        if c == "#" and not _immediate_mark(line, i):
            return line[:i]
    return line


def _immediate_mark(line, i):
    before = line[:i].rstrip()
    return before.endswith(",") and line[i + 1:i + 2] in tuple("0123456789(-")


def _split_top(text, sep, start_col):
    """Split at ``sep`` outside strings and parentheses -> [Located] (stripped)."""
    parts, depth, begin = [], 0, 0
    for i, c in _unquoted(text, end=sep):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == sep and (depth <= 0 or i == len(text)):
            piece = text[begin:i]
            lead = len(piece) - len(piece.lstrip())
            parts.append(Located(piece.strip(), start_col + begin + lead))
            begin = i + 1
    return parts


# Expression limits: deeper nesting or a larger left shift is an assembly error
MAX_NESTING = 64
MAX_SHIFT = 4096

# Largest program image (all sections) the assembler builds: a `.space` beyond
# it is an assembly error, not a host MemoryError (docs/limits.md).
MAX_IMAGE_BYTES = 256 << 20

LABEL_RE = re.compile(r"\s*([A-Za-z_.$][\w.$]*|\d+)\s*:")
WORD_RE = re.compile(r"\s*(\S+)")


def _open_quote(line):
    """Index of the '"' that opens a string left unclosed at the end of ``line``
    (after its comment is removed), else None."""
    opened = None
    for i, c in _unquoted(line, end="\n"):
        if i == len(line):  # the scan ended outside a string
            return None
        if c == '"':
            opened = i
    return opened


def decode_source(data, filename):
    """Source bytes as text; bytes that are not UTF-8 are an AsmError at the
    line and column of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        raise AsmError(f"not UTF-8 text (byte 0x{data[e.start]:02x})", filename,
                       data.count(b"\n", 0, e.start) + 1,
                       len(data[line_start:e.start].decode("utf-8", "replace")) + 1) from None


def _default_error(message, line, column):
    raise AsmError(message, "<input>", line, column)


def split_source(text, error=_default_error):
    """Yield ('label', name, line, col) and Statement items in source order.
    A string left open at the end of a line is an error (``error(message, line,
    column)`` raises it): the line would otherwise be dropped."""
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw)
        col = _open_quote(line)
        if col is not None:
            error("unterminated string (missing closing '\"')", lineno, col + 1)
        for piece in _split_top(line, ";", 1):
            rest, col = piece.text, piece.column
            while True:
                m = LABEL_RE.match(rest)
                if not m:
                    break
                yield ("label", m.group(1), lineno, col + m.start(1))
                col += m.end()
                rest = rest[m.end():]
            m = WORD_RE.match(rest)
            if not m:
                continue
            mcol = col + m.start(1)
            tail = rest[m.end():]
            ops = []
            if tail.strip():
                ops = _split_top(tail, ",", mcol + len(m.group(1)))
            yield Statement(lineno, mcol, m.group(1), ops, raw,
                            end_column=col + len(rest.rstrip()))


# -- expressions ----------------------------------------------------------------

TOKEN_RE = re.compile(r"""\s*(?:
    (?P<num>0[xX][0-9a-fA-F]+|0[bB][01]+(?![\w])|\d+(?![\w]))
  | (?P<local>\d+[bf](?![\w]))
  | (?P<char>'(?:\\.|[^\\'])'?)
  | (?P<name>%?[A-Za-z_.$][\w.$]*)
  | (?P<op><<|>>|[-+*/%()&|^~])
  | (?P<part>@(?:highesta|highest|highera|higher|higha|high|ha|h|l|pcrel)(?![\w]))
)""", re.X)

# GNU's 16-bit pieces of an address: sym@ha + sym@l (signed) == sym
# (the "a" forms add 0x8000 first, for the signed @l below, as GNU's PPC_HA
# and kin do); ppc64's @high(a) are @h(a) without the overflow check,
# @higher(a)/@highest(a) bits 16..31 and 0..15 of a 64-bit value
HALF_PARTS = {"l": lambda v: v & 0xFFFF, "h": lambda v: (v >> 16) & 0xFFFF,
              "ha": lambda v: ((v + 0x8000) >> 16) & 0xFFFF,
              "high": lambda v: (v >> 16) & 0xFFFF,
              "higha": lambda v: ((v + 0x8000) >> 16) & 0xFFFF,
              "higher": lambda v: (v >> 32) & 0xFFFF,
              "highera": lambda v: ((v + 0x8000) >> 32) & 0xFFFF,
              "highest": lambda v: (v >> 48) & 0xFFFF,
              "highesta": lambda v: ((v + 0x8000) >> 48) & 0xFFFF}


class Value:
    """An expression value; ``reloc`` counts label terms (0 = absolute number).
    ``half`` marks a 16-bit piece (``@l``...), valid in signed or unsigned fields;
    ``pcrel`` an address written ``sym@pcrel`` (a prefixed instruction's
    CIA-relative displacement)."""
    __slots__ = ("value", "reloc", "half", "pcrel")

    def __init__(self, value, reloc=0, half=False, pcrel=False):
        self.value, self.reloc, self.half, self.pcrel = value, reloc, half, pcrel


class Evaluator:
    """Recursive-descent integer expressions: ``| ^ & << >> + - * / % ~ ()``.

    ``lookup(name)`` returns a Value or None (undefined); ``names`` are
    context words (CR bit and field names) taking priority over symbols.
    """

    def __init__(self, text, loc, lookup, names=None):
        self.text, self.loc, self.lookup, self.names = text, loc, lookup, names or {}
        self.tokens = []
        pos = 0
        while pos < len(text):
            m = TOKEN_RE.match(text, pos)
            if not m or m.end() == pos:
                if not text[pos:].strip():
                    break
                self.fail(f"unexpected {text[pos:].strip()[0]!r} in expression", pos
                          + len(text[pos:]) - len(text[pos:].lstrip()))
            kind = m.lastgroup
            self.tokens.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        self.i = 0

    def fail(self, message, pos=0):
        f, line, col = self.loc
        raise AsmError(message, f, line, col + pos)

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (None, None, len(self.text))

    def evaluate(self):
        if not self.tokens:
            self.fail("missing expression")
        v = self.binary(0)
        kind, tok, pos = self.peek()
        if kind is not None:
            self.fail(f"unexpected {tok!r} in expression", pos)
        return v

    LEVELS = (("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%"))

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while True:
            kind, tok, pos = self.peek()
            if kind != "op" or tok not in self.LEVELS[level]:
                return left
            self.i += 1
            right = self.binary(level + 1)
            left = self.apply(tok, left, right, pos)

    def apply(self, op, a, b, pos):
        if op == "+":
            return Value(a.value + b.value, a.reloc + b.reloc)
        if op == "-":
            return Value(a.value - b.value, a.reloc - b.reloc)
        if a.reloc or b.reloc:
            self.fail(f"operator {op!r} needs plain numbers, not addresses", pos)
        x, y = a.value, b.value
        if op in "/%" and y == 0:
            self.fail("division by zero", pos)
        if op in ("<<", ">>") and y < 0:
            self.fail("negative shift count", pos)
        if op == "<<" and y > MAX_SHIFT:  # 1<<10**12 would exhaust the host
            self.fail(f"shift count {y} above {MAX_SHIFT}", pos)
        result = {"*": lambda: x * y, "/": lambda: int(x / y), "%": lambda: x - y * int(x / y),
                  "<<": lambda: x << y, ">>": lambda: x >> y, "&": lambda: x & y,
                  "|": lambda: x | y, "^": lambda: x ^ y}[op]()
        return Value(result)

    def nest(self, pos):
        """One more level of parentheses or unary operators: a bounded depth is
        an error, not a Python RecursionError."""
        self.depth = getattr(self, "depth", 0) + 1
        if self.depth > MAX_NESTING:
            self.fail(f"expression nested more than {MAX_NESTING} deep", pos)

    def unary(self):
        kind, tok, pos = self.peek()
        if kind == "op" and tok in "-+~":
            self.i += 1
            self.nest(pos)
            v = self.unary()
            self.depth -= 1
            if tok == "+":
                return v
            if v.reloc:
                self.fail(f"cannot apply {tok!r} to an address", pos)
            return Value(-v.value if tok == "-" else ~v.value)
        return self.primary()

    def primary(self):
        v = self.atom()
        kind, tok, pos = self.peek()
        if kind == "part":
            self.i += 1
            if tok == "@pcrel":
                return Value(v.value, v.reloc, pcrel=True)
            return Value(HALF_PARTS[tok[1:]](v.value), 0, True)
        return v

    def atom(self):
        kind, tok, pos = self.peek()
        self.i += 1
        if kind is None:
            self.i -= 1
            self.fail("expression ends too early", pos)
        if kind == "op" and tok == "(":
            self.nest(pos)
            v = self.binary(0)
            self.depth -= 1
            k2, t2, p2 = self.peek()
            if t2 != ")":
                self.fail("missing ')'", p2)
            self.i += 1
            return v
        if kind == "num":
            try:
                return Value(int(tok, 0))
            except ValueError:
                # GNU as: a leading 0 means octal ("0777" = 511)
                if re.fullmatch(r"0[0-7]+", tok):
                    return Value(int(tok, 8))
                self.fail(f"bad number {tok!r}", pos)
        if kind == "char":
            body = tok[1:].rstrip("'") if tok.endswith("'") and len(tok) > 2 else tok[1:]
            data = _unescape(body, lambda m, p: self.fail(m, pos))
            if len(data) != 1:
                self.fail("bad character constant", pos)
            return Value(data[0])
        if kind in ("name", "local"):
            if tok in self.names:
                return Value(self.names[tok])
            v = self.lookup(tok)
            if v is not None:
                return v
            if ANY_REG.match(tok):
                self.fail(f"register {tok} where a number is expected", pos)
            self.fail(f"undefined symbol {tok!r}", pos)
        self.fail(f"unexpected {tok!r} in expression", pos)


ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, '"': 34, "'": 39, "a": 7, "b": 8,
           "f": 12, "v": 11, "e": 27}


def _unescape(body, fail):
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:])
                if not m:
                    fail("bad \\x escape", i)
                out.append(int(m.group(), 16))
                i += 2 + m.end()
                continue
            if n in "01234567" and re.match(r"[0-7]{1,3}", body[i + 1:]).end() > 1:
                m = re.match(r"[0-7]{1,3}", body[i + 1:])
                out.append(int(m.group(), 8) & 0xFF)
                i += 1 + m.end()
                continue
            if n not in ESCAPES:
                fail(f"unknown escape \\{n}", i)
            out.append(ESCAPES[n])
            i += 2
        else:
            out += c.encode("utf-8")
            i += 1
    return bytes(out)


# -- extended mnemonics -----------------------------------------------------------

@record
class AliasOperand:
    name: str
    default: str = None  # text used when the optional operand is left out
    base: str = None  # for "D(RA)"-shaped operands: the name of the base part


@record
class Alias:
    """One extended mnemonic variant, e.g. ``beql+`` -> ``bcl 12+at,...``."""
    name: str
    operands: list  # [AliasOperand]
    base_mnemonic: str
    expansion: list  # operand templates of the base instruction
    bindings: dict  # alias-local constants (the "at" branch hint)
    disasm: bool
    where: str
    # optional "when" column: an expression over the operands; the row applies when
    # it is non-zero, else the next row of the same name (``fallback``) is tried
    when: str = None
    fallback: object = None

    @property
    def required(self):
        return sum(1 for o in self.operands if o.default is None)


def _parse_alias_operands(text, where):
    ops = []
    for tok in (t.strip() for t in text.split(",") if t.strip()):
        default = None
        if tok.startswith("["):
            if not tok.endswith("]") or "=" not in tok:
                raise IsaExtError(f"{where}: optional operand must be [name=default]: {tok}")
            tok, default = (p.strip() for p in tok[1:-1].split("=", 1))
        m = re.fullmatch(r"(\w+)(?:\((\w+)\))?", tok)
        if not m:
            raise IsaExtError(f"{where}: bad alias operand {tok!r}")
        ops.append(AliasOperand(m.group(1), default, m.group(2)))
    return ops


def extended_mnemonics(isa):
    """{alias variant name: Alias} from ``decoder/<ext>/aliases/*.csv`` of ``isa``.

    Columns: ``mnemonic`` (alias), ``operands`` (``[name=default]`` optional,
    ``D(RA)`` split operands), ``expansion`` (base mnemonic and operand
    templates in which alias operand names are replaced by the given text),
    ``suffix`` (flags appended to both names, as in the instruction tables),
    ``hint`` (values of ``at`` for the ``+`` and ``-`` variants), ``disasm``
    (1: the disassembler prints this alias).  Aliases whose base mnemonic is
    not in the tables are skipped.  Cached on the ISA object.
    """
    cached = getattr(isa, "_extended_mnemonics", None)
    if cached is not None:
        return cached
    isa._extended_mnemonics = aliases = _cached_aliases(isa)
    return aliases


def _cached_aliases(isa):
    """The alias tables of ``isa`` from the parse cache (isa_ext.parse_cache)
    when their files, the ISA's mnemonics and this module are as they were:
    known by their stamps, a run that assembles reads none of them."""
    from . import disk_cache, parse_cache
    listed = [(ext, spec, name, where, stamp) for ext in isa.extensions
              for spec in [isa.extension_spec(ext)]
              for name, where, stamp in spec.listing("decoder", ext, "aliases", suffix=".csv")]
    if isa.use_cache:
        import sys
        mnemonics = disk_cache.sha256("\0".join(sorted(isa.by_mnemonic)).encode()).hexdigest()
        extra = f"aliases {mnemonics} {disk_cache.code_digest([sys.modules[__name__]])}"
        stamped = [("aliases", ext, where, stamp) for ext, _spec, _name, where, stamp in listed]
        skey = parse_cache.stat_key(stamped, extra)
        got = (parse_cache.load_by_stat(disk_cache.directory(), skey, 1, _aliases_from_plain)
               if skey else None)
        if got is not None:
            return got[0]
    files = [(ext, *spec.read("decoder", ext, "aliases", name))
             for ext, spec, name, _where, _stamp in listed]
    if isa.use_cache:
        key = parse_cache.key(("aliases", extra), files, [])
        got = parse_cache.load(disk_cache.directory(), key, 1, _aliases_from_plain)
        if got is not None:
            if skey:
                parse_cache.remember(disk_cache.directory(), skey, key, stamped)
            return got[0]
    aliases = {}
    for _ext, where, text in files:
        _load_aliases(text, where, isa, aliases)
    if isa.use_cache:
        try:
            stored = parse_cache.store_plain(disk_cache.directory(), key,
                                             _aliases_to_plain(aliases))
        except (TypeError, ValueError):   # an alias _aliases_to_plain cannot keep
            stored = False
        if not stored:
            parse_cache.store_value(disk_cache.directory(), key, (aliases,))
        if skey:
            parse_cache.remember(disk_cache.directory(), skey, key, stamped)
    return aliases


def _aliases_to_plain(aliases):
    """{name: Alias} as plain values for the parse cache: {name: index} and
    each alias's attributes as marshal bytes of its own (its operands'
    attributes in it, its fallback by index), to be made at its first use
    (:func:`_aliases_from_plain`)."""
    index, order = {}, []
    for alias in aliases.values():
        while alias is not None and id(alias) not in index:
            index[id(alias)] = len(order)
            order.append(alias)
            alias = alias.fallback
    states = []
    for alias in order:
        if type(alias) is not Alias or any(type(o) is not AliasOperand for o in alias.operands):
            raise TypeError(f"{alias!r} is not a plain Alias")
        state = dict(vars(alias))
        state["operands"] = [dict(vars(o)) for o in alias.operands]
        state["fallback"] = None if alias.fallback is None else index[id(alias.fallback)]
        states.append(marshal.dumps(state))
    return {name: index[id(alias)] for name, alias in aliases.items()}, states


def _aliases_from_plain(plain):
    """The ({name: Alias},) of :func:`_aliases_to_plain`'s values, each alias
    made at its first use (parse_cache.LazyMapping): an assembly run looks
    up a handful of the 840 (making them all took 4 ms of every run that
    assembles)."""
    from .parse_cache import LazyMapping
    names, states = plain
    made = {}

    def alias(i):   # by index: names of one alias, and fallbacks, share it
        a = made.get(i)
        if a is None:
            state = marshal.loads(states[i])
            operands = []
            for op_state in state["operands"]:
                op = object.__new__(AliasOperand)
                op.__dict__.update(op_state)
                operands.append(op)
            state["operands"] = operands
            a = made[i] = object.__new__(Alias)
            a.__dict__.update(state)
            if a.fallback is not None:
                a.fallback = alias(a.fallback)
        return a
    return (LazyMapping(names, lambda _name, i: alias(i)),)


def _load_aliases(text, filename, isa, aliases):
    import csv   # (parsing: a run with the tables cached does not)
    rows = [r for r in csv.reader(text.splitlines())]
    header = None
    for lineno, rec in enumerate(rows, 1):
        if not rec or not "".join(rec).strip() or rec[0].lstrip().startswith("#"):
            continue
        if header is None:
            header = [h.strip() for h in rec]
            continue
        where = f"{filename}:{lineno}"
        row = dict(zip(header, (c.strip() for c in rec)))
        operands = _parse_alias_operands(row.get("operands", ""), where)
        exp = row["expansion"].split(None, 1)
        base, templates = exp[0], [t.strip() for t in exp[1].split(",")] if len(exp) > 1 else []
        flags = [f for f in SUFFIX_ORDER if f in row.get("suffix", "").split()]
        hints = [("", "0")]
        if row.get("hint"):
            plus, minus = row["hint"].split()
            hints += [("+", plus), ("-", minus)]
        for n in range(1 << len(flags)):
            chars = "".join(SUFFIX_CHARS[f] for i, f in enumerate(flags) if n >> i & 1)
            if base + chars not in isa.by_mnemonic:
                continue  # the base instruction is not in the tables (yet)
            for hint_char, at in hints:
                if not hint_char and row.get("hint") and row["mnemonic"] == base:
                    continue  # a hint-only row ("bc+"): the plain name is the instruction
                name = row["mnemonic"] + chars + hint_char
                alias = Alias(name, operands, base + chars, templates, {"at": at},
                              row.get("disasm", "") == "1", where, row.get("when") or None)
                last = aliases.setdefault(name, alias)
                while last is not alias and last.when is not None:
                    if last.fallback is None:
                        last.fallback = alias
                    last = last.fallback


IDENT_PATTERN = r"(?<![\w.$%]){}(?![\w.$])"

# an alias template MASKBEGIN(m) / MASKEND(m): the MB / ME of a 32-bit mask
MASK_CALL = re.compile(r"\s*(MASKBEGIN|MASKEND)\((.*)\)\s*$")


def mask_bounds(mask, fail):
    """(MB, ME) of a 32-bit mask of contiguous ones (wrapping allowed), as GNU
    as takes ``rlwinm RA,RS,SH,MASK``; ``fail(message)`` for any other mask."""
    bits = [(mask >> (31 - i)) & 1 for i in range(32)]
    if mask & ~0xFFFFFFFF or not any(bits):
        fail(f"mask {mask:#x} is not a non-zero 32-bit value")
    if all(bits):
        return 0, 31
    begins = [i for i in range(32) if bits[i] and not bits[i - 1]]
    ends = [i for i in range(32) if bits[i] and not bits[(i + 1) % 32]]
    if len(begins) != 1:
        fail(f"mask {mask:#x} is not one run of ones")
    return begins[0], ends[0]


def substitute(template, texts):
    """Replace alias operand names in ``template``; a whole-operand name keeps
    the text as is (registers), a name inside arithmetic is parenthesised."""
    if template in texts:
        return texts[template]
    out = template
    for name, text in texts.items():
        out = re.sub(IDENT_PATTERN.format(re.escape(name)), lambda m: f"({text})", out)
    return out


# -- the assembler ----------------------------------------------------------------

def swap_halves(value, width):
    """Exchange the two halves of a ``width``-bit value (its own inverse)."""
    half = width // 2
    return ((value & ((1 << half) - 1)) << (width - half)) | (value >> half)


@record
class ListingLine:
    addr: int
    data: bytes
    line: int
    source: str
    is_code: bool = False

    def words(self, little=True):
        return [int.from_bytes(self.data[i:i + 4], "little" if little else "big")
                for i in range(0, len(self.data) - 3, 4)]


@record
class Program:
    """Assembled output: flat bytes from ``base``, a listing and the symbols."""
    data: bytes
    base: int
    little: bool
    entry: int
    symbols: dict  # name -> address or constant
    listing: list = factory(list)  # [ListingLine]
    sections: dict = factory(dict)  # name -> (address, size)
    globals: set = factory(set)

    @property
    def words(self):
        order = "little" if self.little else "big"
        return [int.from_bytes(self.data[i:i + 4], order) for i in range(0, len(self.data) - 3, 4)]


@record
class _Item:
    section: str
    offset: int
    kind: str  # insn | data | bytes | fill
    stmt: Statement
    size: int
    payload: object = None


class Assembler:
    def __init__(self, isa, filename="<input>", base=0x1000, little=True):
        self.isa, self.filename, self.base, self.little = isa, filename, base, little
        self.aliases = extended_mnemonics(isa)
        self.forms = isa.forms
        self.order = "little" if little else "big"

    def error(self, message, line, column):
        raise AsmError(message, self.filename, line, column)

    # pass 1 ---------------------------------------------------------------
    def assemble(self, text):
        self.items, self.sizes, self.align = [], {".text": 0}, {".text": 4}
        self.labels = {}  # name -> (section, offset)
        self.constants = {}  # .set/.equ names -> int
        self.local_defs = {}  # numeric label -> [(section, offset, order)]
        self.globals = set()
        section = ".text"
        count = 0
        for st in split_source(text, self.error):
            count += 1
            if isinstance(st, tuple):
                _, name, line, col = st
                if name.isdigit():
                    self.local_defs.setdefault(name, []).append((section, self.sizes[section], count))
                    continue
                if name in self.labels or name in self.constants:
                    self.error(f"label {name!r} defined twice", line, col)
                self.labels[name] = (section, self.sizes[section])
                self.items.append(_Item(section, self.sizes[section], "label", None, 0, name))
                continue
            st.order = count
            section = self.pass1_statement(st, section)
        return self.pass2()

    def pass1_statement(self, st, section):
        mn = st.mnemonic
        off = self.sizes[section]
        if mn.startswith("."):
            return self.directive(st, section, off)
        # 8 bytes: an SVP64 instruction (whose "#N" operand is RM's: SHFL's
        # Sc), a v3.1 prefixed one (a 64-bit form's row or an alias of one),
        # or a 64-bit form with a "#N" operand
        svp64 = mn.startswith("sv.")
        v31 = self.v31_prefixed(mn) or (
            not svp64 and any(o.text.startswith("#") for o in st.operands))
        size = 8 if svp64 or v31 else 4
        if off % 4:
            self.error("instruction not on a 4-byte boundary", st.line, st.column)
        if v31:
            # GNU as: a section holding a prefixed instruction is 64-byte
            # aligned, and a nop goes before one that would cross a 64-byte
            # boundary (an alignment interrupt, isa_ext.prefix)
            self.align[section] = max(self.align.get(section, 1), prefixes.BOUNDARY)
            if prefixes.crosses_boundary(off):
                self.items.append(_Item(section, off, "fill", st, 4, None))
                off += 4
        self.items.append(_Item(section, off, "insn", st, size))
        self.sizes[section] = off + size
        return section

    def directive(self, st, section, off):
        mn = st.mnemonic.lower()
        ops = st.operands
        if mn in (".text", ".data", ".bss", ".rodata"):
            return self.enter(mn)
        if mn in (".section", ".pushsection"):
            if not ops:
                self.error(".section needs a name", st.line, st.end_column)
            return self.enter(ops[0].text.strip('"'))
        if mn in (".globl", ".global"):
            self.globals.update(o.text for o in ops)
            return section
        if mn in IGNORED_DIRECTIVES or mn.startswith(".cfi_"):
            return section
        if mn in (".set", ".equ"):
            if len(ops) != 2:
                self.error(f"{mn} needs a name and a value", st.line, st.column)
            name = ops[0].text
            if name in self.labels:
                self.error(f"symbol {name!r} defined twice", st.line, ops[0].column)
            v = self.constant(ops[1], st, here=off)
            if v.reloc:
                # an address ("." - 0x10): a label in this section, as GNU as makes it
                self.labels[name] = (section, v.value)
            else:
                self.constants[name] = v.value
            return section
        if mn in DATA_SIZES:
            size = DATA_SIZES[mn] * len(ops)
            self.items.append(_Item(section, off, "data", st, size, DATA_SIZES[mn]))
        elif mn in (".ascii", ".asciz", ".string"):
            data = b""
            for o in ops:
                if not (len(o.text) >= 2 and o.text[0] == o.text[-1] == '"'):
                    self.error("expected a string in double quotes", st.line, o.column)
                data += _unescape(o.text[1:-1], lambda m, p: self.error(m, st.line, o.column + 1 + p))
                if mn != ".ascii":
                    data += b"\0"
            size = len(data)
            self.items.append(_Item(section, off, "bytes", st, size, data))
        elif mn in (".space", ".skip", ".zero"):
            if not 1 <= len(ops) <= 2:
                self.error(f"{mn} needs a size", st.line, st.end_column)
            size = self.constant(ops[0], st)
            fill = self.constant(ops[1], st) if len(ops) > 1 else 0
            if size < 0:
                self.error("negative size", st.line, ops[0].column)
            self.check_image_size(sum(self.sizes.values()) + size, st, ops[0].column)
            self.items.append(_Item(section, off, "bytes", st, size, bytes([fill & 0xFF]) * size))
        elif mn in (".align", ".p2align", ".balign"):
            if not ops:
                self.error(f"{mn} needs an alignment", st.line, st.end_column)
            n = self.constant(ops[0], st)
            if mn != ".balign" and not 0 <= n <= 16:
                # (checked before 1 << n, which a huge n cannot compute)
                self.error("alignment must be a power of two up to 65536", st.line,
                           ops[0].column)
            # on PowerPC ELF, .align takes a power of two like .p2align
            align = n if mn == ".balign" else 1 << n
            if align <= 0 or align & (align - 1) or align > 1 << 16:
                self.error("alignment must be a power of two", st.line, ops[0].column)
            self.align[section] = max(self.align.get(section, 1), align)
            size = -off % align
            fill = self.constant(ops[1], st) if len(ops) > 1 else None
            self.items.append(_Item(section, off, "fill", st, size, fill))
        else:
            self.error(f"unknown directive {st.mnemonic}", st.line, st.column)
        self.check_image_size(sum(self.sizes.values()) + size, st, st.column)
        self.sizes[section] = off + size
        return section

    def v31_prefixed(self, mnemonic):
        """The mnemonic names a v3.1 prefixed instruction (8 bytes)."""
        entry = self.isa.by_mnemonic.get(mnemonic)
        if entry is None:
            alias = self.aliases.get(mnemonic)
            entry = alias and self.isa.by_mnemonic.get(alias.base_mnemonic)
        return bool(entry) and entry[0].form.prefixed

    def check_image_size(self, total, st, column):
        """An image beyond MAX_IMAGE_BYTES is an error at the statement that
        makes it so, rather than the host running out of memory building it."""
        if total > MAX_IMAGE_BYTES:
            self.error(f"the program image would be {total} bytes, more than the "
                       f"assembler's limit of {MAX_IMAGE_BYTES} bytes (256 MiB)",
                       st.line, column)

    def enter(self, name):
        self.sizes.setdefault(name, 0)
        self.align.setdefault(name, 1)
        return name

    def constant(self, loc, st, here=None):
        """The value of a pass-1 expression: constants only, or with ``here``
        (an offset in the current section) also "." and a Value that may be
        an address in that section (``reloc`` 1)."""
        def lookup(name):
            if name in self.constants:
                return Value(self.constants[name])
            if name == "." and here is not None:
                return Value(here, 1)
            return None
        v = Evaluator(loc.text, (self.filename, st.line, loc.column), lookup).evaluate()
        if here is not None:
            if v.reloc not in (0, 1):
                self.error("expected a constant or an address", st.line, loc.column)
            return v
        if v.reloc:
            self.error("expected a constant, not an address", st.line, loc.column)
        return v.value

    # layout and pass 2 ------------------------------------------------------
    def pass2(self):
        addr = self.base
        self.section_addr = {}
        for name in self.sizes:  # .text first, then in order of appearance
            align = max(self.align.get(name, 1), 4)
            addr += -addr % align
            self.section_addr[name] = addr
            addr += self.sizes[name]
        total = addr - self.base
        out = bytearray(total)
        listing = []
        nop = None
        for item in self.items:
            at = self.section_addr[item.section] + item.offset
            if item.kind == "label":
                continue
            st = item.stmt
            self.current = (item.section, item.offset, st.order)
            if item.kind == "insn":
                words = self.instruction(st, at)
                data = b"".join(w.to_bytes(4, self.order) for w in words)
                if len(data) != item.size:
                    self.error(f"{st.mnemonic} assembled to {len(data)} bytes, "
                               f"expected {item.size}", st.line, st.column)
            elif item.kind == "data":
                data = self.data_values(st, item.payload, at)
            elif item.kind == "bytes":
                data = item.payload
            else:  # fill (alignment)
                if item.payload is not None:
                    data = bytes([item.payload & 0xFF]) * item.size
                elif item.section == ".text" and item.size % 4 == 0 and item.size:
                    if nop is None:
                        nop = self.nop_bytes()
                    data = nop * (item.size // 4)
                else:
                    data = bytes(item.size)
            out[at - self.base:at - self.base + len(data)] = data
            if data or item.kind != "fill":
                listing.append(ListingLine(at, bytes(data), st.line, st.source, item.kind == "insn"))
        symbols = {n: self.section_addr[s] + o for n, (s, o) in self.labels.items()}
        symbols.update(self.constants)
        entry = symbols.get("_start", self.section_addr[".text"])
        sections = {n: (self.section_addr[n], self.sizes[n]) for n in self.sizes}
        return Program(bytes(out), self.base, self.little, entry, symbols, listing,
                       sections, self.globals)

    def nop_bytes(self):
        """Code padding: the table's ``nop`` if it assembles, else zero bytes."""
        try:
            w = self.instruction(Statement(0, 0, "nop", [], ""), 0)
        except AsmError:
            return bytes(4)
        return w[0].to_bytes(4, self.order)

    def lookup(self, name, pc):
        if name == ".":
            return Value(pc, 1)
        if name in self.labels:
            s, o = self.labels[name]
            return Value(self.section_addr[s] + o, 1)
        if name in self.constants:
            return Value(self.constants[name])
        if name[:-1].isdigit() and name[-1] in "bf":
            return self.local_label(name[:-1], name[-1] == "b")
        return None

    def local_label(self, num, backward):
        _, _, order = self.current
        defs = self.local_defs.get(num, [])
        chosen = None
        for s, o, when in defs:
            if backward and when < order:
                chosen = (s, o)
            elif not backward and when > order:
                chosen = (s, o)
                break
        if chosen is None:
            return None
        return Value(self.section_addr[chosen[0]] + chosen[1], 1)

    def evaluate(self, loc, line, pc, names=None):
        return Evaluator(loc.text, (self.filename, line, loc.column),
                         lambda n: self.lookup(n, pc), names).evaluate()

    def data_values(self, st, size, at):
        out = bytearray()
        lo, hi = -(1 << (8 * size - 1)), (1 << (8 * size)) - 1
        for i, o in enumerate(st.operands):
            if not o.text:
                self.error("missing value", st.line, o.column)
            v = self.evaluate(o, st.line, at + i * size).value
            if not lo <= v <= hi:
                self.error(f"value {v} does not fit in {size} byte(s)", st.line, o.column)
            out += (v & hi).to_bytes(size, self.order)
        return bytes(out)

    # instructions --------------------------------------------------------------
    def instruction(self, st, pc):
        """The words of one instruction statement."""
        mn = st.mnemonic
        entry = self.isa.by_mnemonic.get(mn)
        alias = self.aliases.get(mn)
        given = len([o for o in st.operands if o.text])
        if entry is not None and alias is not None and alias.when is not None:
            # a conditional alias of the instruction's own name ("mtcrf" with one
            # FXM bit is written as mtocrf, as GNU as does): it goes first
            words = self.expand(alias, st, pc)
            if words is not None:
                return words
            return self.encode_words(entry[0], entry[1], st, pc)
        if entry is not None and (alias is None or entry[0].required_operands <= given
                                  <= len(entry[0].operands)):
            return self.encode_words(entry[0], entry[1], st, pc)
        if alias is not None:  # also an instruction's short form: "sc" for "sc 0",
            return self.expand(alias, st, pc)  # or its longer one: "mfcr RT,FXM"
        if mn.startswith("sv.") and getattr(self.isa, "sv_assemble", None) is not None:
            name, slash, mods = mn[3:].partition("/")
            sv_alias = self.aliases.get(name)
            own = self.isa.by_mnemonic.get(name)
            if own is not None and own[0].required_operands <= given <= len(own[0].operands):
                sv_alias = None  # the instruction itself ("rlwinm" with 5 operands)
            if sv_alias is not None:  # an extended mnemonic under an SVP64 prefix
                found = self.expansion(sv_alias, st, pc)
                base, expanded = found if found is not None else (name, st.operands)
                st = Statement(st.line, st.column, "sv." + base + slash + mods, expanded,
                               st.source, st.end_column, st.order)
            return self.svp64(st, pc)
        self.error(f"unknown mnemonic {mn!r}", st.line, st.column)

    def check_count(self, st, want, shown):
        got = len(st.operands)
        if got == 1 and not st.operands[0].text and want == 0:
            got = 0
        if got > want:
            self.error(f"{st.mnemonic} takes {shown} operand(s), got {got}: "
                       f"unexpected operand", st.line, st.operands[want].column)
        if got < want:
            self.error(f"{st.mnemonic} takes {shown} operand(s), got {got}: missing operand",
                       st.line, st.end_column)
        for o in st.operands[:want]:
            if not o.text:
                self.error("empty operand", st.line, o.column)

    def encode_words(self, row, flags, st, pc):
        """[word], or [prefix, word] when an operand is an immediate ``#N`` in a
        register's place: a 64-bit form of the ISA (``isa.prefixed_forms``,
        e.g. SURED's header-index form ``sured.add.u32 r2,r4,#5,2d``)."""
        for i, loc in enumerate(st.operands):
            if loc.text.startswith("#"):
                return self.prefixed_form_words(row, flags, st, pc, i)
        word = self.encode(row, flags, st, pc)
        if row.form.prefixed:  # prefix word first, then the suffix
            return [word >> 32, word & 0xFFFFFFFF]
        return [word]

    def prefixed_form_words(self, row, flags, st, pc, i):
        loc = st.operands[i]
        field = row.operands[i].field if i < len(row.operands) else None
        form = next((f for f in self.isa.prefixed_forms
                     if f.accepts(row) and f.replaces == field), None)
        if form is None:
            self.error(f"{st.mnemonic} has no form with an immediate (#) as operand "
                       f"{i + 1}", st.line, loc.column)
        body = loc.text[1:]
        lead = len(body) - len(body.lstrip())
        if not body.strip():
            self.error("expected a number after #", st.line, loc.column + 1)
        value = self.evaluate(Located(body.strip(), loc.column + 1 + lead), st.line, pc).value
        if not 0 <= value < 1 << form.width:
            self.error(f"{st.mnemonic}: #{value} out of range 0..{(1 << form.width) - 1} "
                       f"(a {form.width}-bit {form.name})", st.line, loc.column)
        ops = list(st.operands)
        ops[i] = Located("0", loc.column)  # the replaced field is reserved 0
        inner = Statement(st.line, st.column, st.mnemonic, ops, st.source, st.end_column,
                          st.order)
        return [form.prefix_word(value), self.encode(row, flags, inner, pc)]

    def encode(self, row, flags, st, pc):
        given = len([o for o in st.operands if o.text])
        need, most = row.required_operands, len(row.operands)
        self.check_count(st, min(max(given, need), most),
                         str(most) if need == most else f"{need} to {most}")
        values = {op.field: 0 for op in row.operands[given:] if op.optional}
        relative = self.relative_flag(row, st, pc, flags)
        # R=1: an address in a displacement or immediate is relative to CIA
        rel_pc = pc if relative is not None and relative[1] else None
        for op, loc in zip(row.operands, st.operands):
            if op.base and relative is not None and not loc.text.endswith(")"):
                # GNU as: "pld 3,x" (no base) is CIA-relative, RA=0
                values[op.base] = 0
                values[op.field] = self.field_value(op.field, loc, st, pc, flags, rel_pc, row.form)
            elif op.base:
                disp, base = self.split_displacement(loc, st)
                values[op.field] = self.field_value(op.field, disp, st, pc, flags, rel_pc, row.form)
                values[op.base] = self.field_value(op.base, base, st, pc, flags, form=row.form)
            elif relative is not None and op.field == relative[0]:
                pass  # (set below: given, or 1 for a D(RA) without the base)
            elif row.optypes:
                values[op.field] = self.typed_value(row, op.field, loc, st, pc, flags)
            else:
                values[op.field] = self.field_value(op.field, loc, st, pc, flags, rel_pc, row.form)
        if relative is not None:
            values[relative[0]] = relative[1]
            self.check_relative_base(row, st, relative, values)
        self.check_disjoint(row, values, st)
        try:
            return encode_row(self.forms, row, values, flags)
        except IsaExtError as e:
            self.error(str(e), st.line, st.column)

    def check_disjoint(self, row, values, st):
        """Refuse a register operand inside a ``disjoint`` group's registers
        (forms.txt: an MMA VSR operand within its accumulator), as GNU as."""
        hit = self.forms.overlap(row.fields_used, values) if self.forms.disjoint else None
        if hit is None:
            return
        group, name = hit
        n = self.forms.disjoint[group][0]
        first = n * values[group]
        column = next((loc.column for op, loc in zip(row.operands, st.operands)
                       if op.field == name), st.column)
        self.error(f"{name} (register {values[name]}) overlaps {group} {values[group]} "
                   f"(registers {first}..{first + n - 1}): an invalid form", st.line, column)

    def relative_flag(self, row, st, pc, flags):
        """(R field, its value) of a row whose form can address from CIA
        (forms.txt ``relative R RA``), or None.  R is the operand when given,
        else 1 when the D(RA) operand is written without "(RA)" (GNU as)."""
        for flag, base in self.forms.relative.items():
            if flag not in row.fields_used or base not in row.fields_used:
                continue
            for op, loc in zip(row.operands, st.operands):
                if op.field == flag and loc.text:
                    return flag, self.field_value(flag, loc, st, pc, flags)
            bare = any(op.base == base and loc.text and not loc.text.endswith(")")
                       for op, loc in zip(row.operands, st.operands))
            return flag, int(bare)
        return None

    def check_relative_base(self, row, st, relative, values):
        """R=1 with a base register other than 0 is an invalid form (v3.1
        Book I 3.3.2: the address is CIA + D, RA is not used); GNU as refuses
        it with "invalid R operand", and so does this assembler."""
        flag, on = relative
        base = self.forms.relative[flag]
        if on and values.get(base, 0) != 0:
            column = next((loc.column for op, loc in zip(row.operands, st.operands)
                           if op.field == flag and loc.text), st.column)
            self.error(f"invalid R operand: {flag}=1 addresses from the instruction "
                       f"(CIA), so {base} must be 0, got {base}={values[base]} "
                       f"(an invalid form)", st.line, column)

    def typed_value(self, row, name, loc, st, pc, flags):
        """An operand with its own notation (table column ``optype``)."""
        ot = self.isa.operand_type(row, name)
        if ot is None:
            return self.field_value(name, loc, st, pc, flags)
        try:
            return ot.parse(loc.text)
        except IsaExtError as e:
            self.error(str(e), st.line, loc.column + getattr(e, "column", 0))

    def split_displacement(self, loc, st):
        text = loc.text
        if not text.endswith(")"):
            self.error("expected displacement(register), e.g. 8(r1)", st.line, loc.column)
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[i], 0)
            if depth == 0:
                break
        disp = text[:i].strip() or "0"
        inner = text[i + 1:-1]
        lead = len(inner) - len(inner.lstrip())
        return Located(disp, loc.column), Located(inner.strip(), loc.column + i + 1 + lead)

    def field_value(self, name, loc, st, pc, flags, relative_to=None, form=None):
        """``relative_to``: a prefixed instruction's address, which an address
        in this displacement is made relative to when R=1 (``pld 3,x``,
        ``sym@pcrel``); ``form``: the row's form, whose field width counts
        (a prefixed form's D and SI are 34 bits)."""
        forms = self.forms
        width = None
        cls = forms.regclass.get(name)
        text = loc.text
        if cls == "vsr" and "+" in text and FPR_OR_VR_IN_SUM.search(text):
            # a VR named in a VSR number ("32+(v1)", an extended mnemonic's
            # expansion: VR n is VSR 32+n) stands for its number
            text = FPR_OR_VR_IN_SUM.sub(lambda m: m.group(1), text)
            loc = Located(text, loc.column)
        if cls == "vsr" and REG_PATTERNS["fpr"].match(text):
            text = text.lstrip("%")[1:]  # FPR n is VSR n (GNU as takes it too)
            loc = Located(text, loc.column)
        if cls in REG_PATTERNS:
            m = REG_PATTERNS[cls].match(text)
            if m:
                v = int(m.group(1))
            else:
                if ANY_REG.match(text):
                    self.error(f"wrong register class: {text} given, {name} needs "
                               f"{CLASS_WORDS[cls]}", st.line, loc.column)
                v = self.evaluate(loc, st.line, pc).value
            scale = forms.scale.get(name, 1)  # a pair's field holds its number halved
            if v % scale:
                self.error(f"{name} must be a multiple of {scale} (a register pair), not {v}",
                           st.line, loc.column)
            v //= scale
            width = self.field_width(name, form)
            if not 0 <= v < (1 << width):
                self.error(f"register number {v * scale} out of range for {name}", st.line, loc.column)
            if name in forms.even and v % 2:
                self.error(f"{name} must be an even register (a register pair), not {v}",
                           st.line, loc.column)
            return v
        if cls == "crb":
            names = dict(CR_BIT_NAMES)
            names.update({f"cr{i}": i for i in range(8)})
            names.update({f"%cr{i}": i for i in range(8)})
            v = self.evaluate(loc, st.line, pc, names)
            if ANY_REG.match(text) and not text.lstrip("%").startswith("cr"):
                self.error(f"wrong register class: {text} given, {name} needs "
                           f"{CLASS_WORDS[cls]}", st.line, loc.column)
            if v.reloc or not 0 <= v.value < 32:
                self.error(f"CR bit {v.value} out of range 0..31", st.line, loc.column)
            return v.value
        if ANY_REG.match(text) and text not in self.labels:
            self.error(f"register {text} where {name} needs a number", st.line, loc.column)
        v = self.evaluate(loc, st.line, pc)
        value = v.value
        if v.pcrel and relative_to is None:
            self.error(f"@pcrel where {name} is not a prefixed instruction's displacement",
                       st.line, loc.column)
        if relative_to is not None:
            if v.reloc:  # an address: relative to the instruction (R=1)
                value -= relative_to
        elif name in forms.pcrel:
            # GNU as: an address (label, ".") is made relative to the
            # instruction unless AA=1; a plain number is the displacement itself
            if v.reloc and not flags.get("AA"):
                value -= pc
        elif v.reloc:
            value = v.value  # an absolute address used as a number
        width = self.field_width(name, form)
        if v.half and width == 16 and name in forms.signed and value >= 0x8000:
            value -= 0x10000  # a 16-bit piece fills the field as it is
        scale = forms.scale.get(name, 1)
        if value % scale:
            self.error(f"{name} value {value} is not a multiple of {scale}", st.line, loc.column)
        value //= scale
        value -= forms.bias.get(name, 0)
        if (st.mnemonic, name) in forms.signopt:
            # GNU as (binutils' SISIGNOPT/UISIGNOPT): the field's bit pattern may be
            # written signed or unsigned; store it in the field's own range
            lo, hi = -(1 << (width - 1)), (1 << width) - 1
            if lo <= value <= hi:
                value &= (1 << width) - 1
                if name in forms.signed and value >> (width - 1):
                    value -= 1 << width
        elif name in forms.signed:
            lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
        else:
            lo, hi = 0, (1 << width) - 1
        if not lo <= value <= hi:
            b = forms.bias.get(name, 0)
            self.error(f"{name} value {v.value} out of range "
                       f"{(lo + b) * scale}..{(hi + b) * scale}", st.line, loc.column)
        if name in forms.swaphalves:
            value = swap_halves(value, width)
        return value

    def field_width(self, name, form=None):
        if form is not None and name in form.fields:
            return form.fields[name].width
        for form in self.forms.forms.values():
            f = form.fields.get(name)
            if f is not None:
                return f.width
        return 32

    def expand(self, alias, st, pc):
        """The words of an alias statement; None when its ``when`` is false and
        no other row of its name follows."""
        found = self.expansion(alias, st, pc)
        if found is None:
            return None
        base, expanded = found
        inner = Statement(st.line, st.column, base, expanded, st.source,
                          st.end_column, st.order)
        row, flags = self.isa.by_mnemonic[base]
        return self.encode_words(row, flags, inner, pc)

    def expansion(self, alias, st, pc):
        """(base mnemonic, [Located operand]) of an alias statement."""
        ops = alias.operands
        given = st.operands if not (len(st.operands) == 1 and not st.operands[0].text) else []
        if len(given) not in (alias.required, len(ops)):
            shown = (f"{alias.required} or {len(ops)}" if alias.required != len(ops)
                     else str(len(ops)))
            self.check_count(st, len(ops) if len(given) > len(ops) else alias.required, shown)
        fill_defaults = len(given) != len(ops)
        texts, columns = dict(alias.bindings), {}
        it = iter(given)
        relative = self.relative_base(alias)
        bare = False
        for op in ops:
            if op.default is not None and fill_defaults:
                texts[op.name] = op.default
                continue
            loc = next(it)
            if not loc.text:
                self.error("empty operand", st.line, loc.column)
            if op.base and relative and not loc.text.endswith(")"):
                # "pla 3,x": no base, CIA-relative (R=1), as GNU as takes it
                texts[op.name], columns[op.name] = loc.text, loc.column
                texts[op.base], bare = "0", True
            elif op.base:
                disp, base = self.split_displacement(loc, st)
                texts[op.name], columns[op.name] = disp.text, disp.column
                texts[op.base], columns[op.base] = base.text, base.column
            else:
                texts[op.name], columns[op.name] = loc.text, loc.column
        expanded = []
        for tmpl in alias.expansion:
            col = st.column
            for name in columns:
                if re.search(IDENT_PATTERN.format(re.escape(name)), tmpl):
                    col = columns[name]
                    break
            text = substitute(tmpl, texts)
            call = MASK_CALL.match(text)
            if call:  # MB or ME of a 32-bit mask operand (rlwinm's 4-operand form)
                mask = self.evaluate(Located(call.group(2), col), st.line, pc).value
                text = str(mask_bounds(mask, lambda m: self.error(m, st.line, col))[
                    call.group(1) == "MASKEND"])
            expanded.append(Located(text, col))
        if alias.when is not None:
            cond = self.evaluate(Located(substitute(alias.when, texts), st.column), st.line, pc)
            if not cond.value:
                if alias.fallback is not None:
                    return self.expansion(alias.fallback, st, pc)
                if alias.name in self.isa.by_mnemonic:
                    return None  # the instruction of that name itself
        if bare:
            row = self.isa.by_mnemonic[alias.base_mnemonic][0]
            at = [op.field for op in row.operands].index(relative)
            if len(expanded) == at:
                expanded.append(Located("1", st.column))
        return alias.base_mnemonic, expanded

    def relative_base(self, alias):
        """The R field of the row an alias expands to, when its form can
        address from CIA (forms.txt ``relative``), else None."""
        entry = self.isa.by_mnemonic.get(alias.base_mnemonic)
        if entry is None:
            return None
        fields = entry[0].fields_used
        return next((flag for flag, base in self.forms.relative.items()
                     if flag in fields and base in fields), None)

    def svp64(self, st, pc):
        def resolve(text):
            return self.evaluate(Located(text, st.column), st.line, pc).value

        def relative(text):
            # a branch displacement: an address (label, ".") relative to pc
            v = self.evaluate(Located(text, st.column), st.line, pc)
            return v.value - pc if v.reloc else v.value
        resolve.relative = relative

        def crbit(text):
            # a CR-bit operand: the CR-bit names ("4*cr1+eq") as in base forms
            names = dict(CR_BIT_NAMES)
            names.update({f"cr{i}": i for i in range(8)})
            return self.evaluate(Located(text, st.column), st.line, pc, names).value
        resolve.crbit = crbit
        try:
            words = self.isa.sv_assemble(st.mnemonic, [o.text for o in st.operands], pc, resolve)
        except AsmError as e:
            if e.line:
                raise
            self.error(e.message, st.line, st.column)
        except IsaExtError as e:
            self.error(str(e), st.line, st.column)
        return list(words)


def assemble(text, filename="<input>", isa=None, base=0x1000, little=True):
    """Assemble GNU-syntax ``text`` placed at ``base`` -> :class:`Program`."""
    if isa is None:
        from .isa import ISA
        isa = ISA()
    return Assembler(isa, filename, base, little).assemble(text)
