"""Compile Power ISA pseudocode to plain Python over integers.

Every expression is given a static bit width at compile time (``None`` for an
unbounded integer such as a loop counter or a decimal literal, or a Python
expression string for a width only known at run time).  Values are kept as
non-negative Python ints that fit their width, so the generated code is plain
integer arithmetic with shifts and masks: no bit objects in the hot path.

Each page compiles to a module with two functions sharing one body:

``sem(s, CIA, <fields...>, _crf)``
    flat form, for engines that call with varying register numbers (SVP64).
``make(<fields...>, _crf=0)``
    returns ``bound(s, CIA)`` with the fields captured, used per decoded word.

Both return the next instruction address (``CIA + 4`` unless the page assigns NIA).
``s`` is the machine state (:class:`isa_ext.machine.State`).
"""
import re
from ..records import record, factory

from .. import specdata
from ..errors import SpecError
from . import library


# lark, the parser, is imported when a page is first parsed (70 ms): a run
# whose pages all come from the compiled-code cache never needs it
Lark = Tree = Token = None
UnexpectedInput = UnexpectedCharacters = UnexpectedToken = None
_indenter_class = None


def _load_lark():
    global Lark, Tree, Token, UnexpectedInput, UnexpectedCharacters, UnexpectedToken
    if Lark is None:
        import lark
        import lark.exceptions as ex
        Tree, Token = lark.Tree, lark.Token
        UnexpectedInput, UnexpectedCharacters, UnexpectedToken = \
            ex.UnexpectedInput, ex.UnexpectedCharacters, ex.UnexpectedToken
        Lark = lark.Lark


def _pseudo_indenter():
    """The book's indenter class (lark's postlexer: blocks by indentation)."""
    global _indenter_class
    if _indenter_class is None:
        from lark.indenter import Indenter

        class PseudoIndenter(Indenter):
            NL_type = "_NL"
            OPEN_PAREN_types = []
            CLOSE_PAREN_types = []
            INDENT_type = "_INDENT"
            DEDENT_type = "_DEDENT"
            tab_len = 4
        _indenter_class = PseudoIndenter
    return _indenter_class


def __getattr__(name):
    # ``compiler.PseudoIndenter`` (a dialect's indenter may extend it) made on demand
    if name == "PseudoIndenter":
        return _pseudo_indenter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@record(frozen=True)
class Dialect:
    """A pseudocode dialect: how a page of it is parsed and which helpers its
    names find first.  "book" is the Power ISA book's (isa_ext's own pages);
    another is registered by the package that reads such pages (the
    "openpower" dialect of an openpower-isa checkout's pages:
    isa_ext.compat.dialect).

    ``package``/``grammar``: the grammar file (the package's sources also key
    the compiled-code cache); ``indenter``: makes the lark postlexer (its
    class, or a function);
    ``comment_starts``: what starts a whole-line comment; ``helpers``: name
    -> gen(compiler, *args), looked up before the library's intrinsics;
    ``names``: name -> (constant, width); ``envelope``: None, or an object
    with wants(page), add_terms(compiler, value) and epilogue(compiler), the
    register updates a simulator of that dialect makes around a page.

    The rest are options of the language the compiler implements, off for
    the book's pages: ``register_operands``, operand names a page may use
    bare for the register's contents ("RA" as "(RA)"; "_RA" and a subscript
    "GPR[RA]" its number); ``field_prefix``, a field looked up first under
    this prefix (the same bits in another order); ``checked_ranges``, a bit
    range known only at run time traps when it runs backwards or off the
    value; ``repeat_at_width``, "[x] * n" repeats a multi-bit x; ``loops_count_down``,
    "do i = a to b" counts down when a > b; ``assignable_fields``, assigning
    a field's name makes a variable that hides it; ``path_widths``, a
    variable given another width on one path only becomes a plain number;
    ``overflow_variable``, a variable "overflow" read by the envelope and the
    Rc=1 record (CR0.SO, when the form has no OE); ``needs_code``, a page
    without pseudocode is an error."""
    name: str
    package: str
    grammar: str
    indenter: object
    comment_starts: tuple = ("#",)
    helpers: dict = factory(dict)
    names: dict = factory(dict)
    envelope: object = None
    register_operands: frozenset = frozenset()
    field_prefix: str = None
    checked_ranges: bool = False
    repeat_at_width: bool = False
    loops_count_down: bool = False
    assignable_fields: bool = False
    path_widths: bool = False
    overflow_variable: bool = False
    needs_code: bool = False


DIALECTS = {"book": Dialect("book", __package__, "grammar.lark",
                            lambda: _pseudo_indenter()())}


def register_dialect(d):
    DIALECTS[d.name] = d
    _parsers.pop(d.name, None)


def get_dialect(name):
    d = DIALECTS.get(name)
    if d is None:
        raise SpecError(f"unknown pseudocode dialect {name!r}; have {sorted(DIALECTS)}")
    return d


_parsers = {}

# Pseudocode coverage (isa_ext.pytest_plugin).  While set, the compiler reports
# each statement with COVERAGE.statement(page_key, line) and the generated code
# calls COVERAGE.hit(page_key, line) before running it.
COVERAGE = None
_BLOCK_NODES = ("start", "suite", "one_line")


def parser(dialect="book"):
    p = _parsers.get(dialect)
    if p is None:
        _load_lark()
        d = get_dialect(dialect)
        _, grammar = specdata.package_text(d.package, d.grammar)
        p = _parsers[dialect] = Lark(grammar, parser="lalr", postlex=d.indenter(),
                                     propagate_positions=True, maybe_placeholders=False)
    return p


def parse(code, where_file="<pseudocode>", first_line=1, dialect="book"):
    """Parse pseudocode text; syntax errors name the page file and line."""
    # a whole-line comment is a blank line to the indenter (it may sit at any
    # indentation inside a block); line numbers stay as they are
    starts = get_dialect(dialect).comment_starts
    code = "\n".join("" if line.lstrip().startswith(starts) else line
                     for line in code.split("\n"))
    p = parser(dialect)   # (imports lark: the exception classes below are its)
    try:
        return p.parse(code)
    except UnexpectedInput as e:
        line = getattr(e, "line", 1) or 1
        col = getattr(e, "column", 0) or 0
        if isinstance(e, UnexpectedToken):
            what = f"unexpected {e.token!r}"
        elif isinstance(e, UnexpectedCharacters):
            what = f"unexpected character {code.splitlines()[line - 1][col - 1:col]!r}" \
                if line - 1 < len(code.splitlines()) else "unexpected character"
        else:
            what = "unexpected end of pseudocode"
        raise SpecError(f"pseudocode syntax error: {what}",
                        f"{where_file}:{first_line + line - 1}:{col}") from None


# ---------------------------------------------------------------------------
# values


class Val:
    """A compiled expression: Python code and its static width."""
    __slots__ = ("code", "width", "const")

    def __init__(self, code, width, const=None):
        self.code = code
        self.width = width  # int, None (unbounded) or str (run-time expression)
        self.const = const  # the integer value if known at compile time

    def __repr__(self):
        return f"Val({self.code!r}, {self.width!r})"


def wcode(w):
    return str(w) if isinstance(w, int) else f"({w})"


def mask_code(w):
    if isinstance(w, int):
        return hex((1 << w) - 1)
    return f"((1 << {wcode(w)}) - 1)"


def const(v, width=None):
    return Val(str(v) if v < 10 else hex(v), width, v)


XER_BITS = {"SO": ("so", 32), "OV": ("ov", 33), "CA": ("ca", 34),
            "OV32": ("ov32", 44), "CA32": ("ca32", 45)}

# special registers reachable by name: name -> (state attribute, width)
SPECIALS = {
    "LR": ("lr", 64), "CTR": ("ctr", 64), "MSR": ("msr", 64),
    "FPSCR": ("fpscr", 64), "SVSTATE": ("svstate", 64), "TAR": ("tar", 64),
    "SVSHAPE0": ("svshape0", 32), "SVSHAPE1": ("svshape1", 32),
    "SVSHAPE2": ("svshape2", 32), "SVSHAPE3": ("svshape3", 32),
    "VSCR": ("vscr", 32), "VRSAVE": ("vrsave", 32),
    # hashst/hashchk's key: a privileged SPR (468), set by the Linux layer
    "HASHKEYR": ("hashkeyr", 64),
    # the Program Priority Register: the priority hints (or 1,1,1 ...) set its PRI
    "PPR": ("ppr", 64),
    # not an architected register: the address a one-shot REMAP applies to
    # (svremap/svindex/svshape2: "the next instruction"), see machine.State
    "REMAPNEXT": ("remap_next", 64),
    "SO": ("so", 1), "OV": ("ov", 1), "CA": ("ca", 1), "OV32": ("ov32", 1),
    "CA32": ("ca32", 1),
    # the load-and-reserve reservation (machine.Memory: any store clears it)
    "RESERVE": ("mem.reserve", 1), "RESERVE_LENGTH": ("mem.reserve_length", 8),
    "RESERVE_ADDR": ("mem.reserve_addr", 64),
}



class CompileError(Exception):
    def __init__(self, message, node=None):
        self.node = node
        super().__init__(message)


# marks the generated assignment of a page's own Rc=1 field (Compiled.records_cr0)
_OWN_CR0 = "# the page's own Rc=1 record"


class Compiled:
    """The result of compiling one page for one table row."""

    def __init__(self, name, source, params, namespace, reads, writes, uses_nia,
                 line_map, library=None, length=4):
        self.name = name
        # the tables it was compiled with (isa_ext.extension.Library): block
        # translation inlines the run-time helpers they give an inline form
        self.library = library
        self.length = length  # bytes of the instruction (8: a v3.1 prefixed form)
        self.source = source
        self.params = params  # field names in call order
        self.sem = namespace["sem"]
        self.make = namespace["make"]
        self.reads = reads  # register fields read: {"RA", "RB"}
        self.writes = writes  # register fields written: {"RT"}
        self.uses_nia = uses_nia
        self.line_map = line_map  # generated line -> pseudocode line
        self._loops = {}

    @property
    def records_cr0(self):
        """Whether the page assigns its Rc=1 field itself (minmax.: a
        comparison, not the result against 0): the assignment compiler marks
        the code it emits for one (``CR0`` there)."""
        return _OWN_CR0 in self.source

    def element_loop(self, arg_codes, crf_code="0", setup=()):
        """A function ``loop(s, CIA, k0, k1)`` running this page once for each
        ``k`` in ``range(k0, k1)``, with the body inlined in the loop.

        ``arg_codes`` gives, per entry of :attr:`params`, a Python expression
        for the field's value; it may use the loop index ``k`` (an SVP64 element
        step: ``"5 + k"`` for a vector register).  Engines that repeat one
        instruction over many elements use this instead of one ``sem`` call per
        element.  A :class:`Trap` raised at element ``k`` carries ``sv_k = k``.
        """
        # setup: lines run once before the loop (binding a table that the
        # argument expressions index)
        key = (tuple(arg_codes), crf_code, tuple(setup))
        fn = self._loops.get(key)
        if fn is not None:
            return fn
        head, _, _ = self.source.partition("\ndef make(")
        body = [line[4:] for line in head.splitlines()[1:]]
        if not body or not body[-1].startswith("return "):
            raise SpecError(f"internal: unexpected compiled form of {self.name}")
        body.pop()
        static = [l for l in body if l in _PROLOGUE.values()]
        per_elem = [l for l in body if l not in _PROLOGUE.values()]
        varying = [(p, c) for p, c in zip(self.params, arg_codes) if _uses_k(c)]
        fixed = [(p, c) for p, c in zip(self.params, arg_codes) if not _uses_k(c)]
        src = ["def loop(s, CIA, k0, k1):"]
        src += ["    " + l for l in static]
        src += ["    " + l for l in setup]
        src += [f"    f_{p} = {c}" for p, c in fixed]
        if not _uses_k(crf_code):
            src.append(f"    _crf = {crf_code}")
        src += ["    k = k0", "    try:", "        for k in range(k0, k1):"]
        src += [f"            f_{p} = {c}" for p, c in varying]
        if _uses_k(crf_code):
            src.append(f"            _crf = {crf_code}")
        src += ["            " + l for l in per_elem] or ["            pass"]
        src += ["    except Trap as t:", "        t.sv_k = k", "        raise"]
        ns = self.sem.__globals__
        local = {}
        exec(compile("\n".join(src) + "\n", f"<isa_ext:{self.name}:loop>", "exec"), ns, local)
        fn = self._loops[key] = local["loop"]
        return fn


# register files the pages address by field: class -> (prologue name or None,
# read code for register number {i}, write statement, width; None: XLEN).
# The VSX files go through the state (State.vsr_read: VSR i < 32 shares
# doubleword 0 with FPR i), docs/vector.md.
REGFILES = {
    "gpr": ("G", "G[{i}]", "G[{i}] = {v}", None),
    "fpr": ("F", "F[{i}]", "F[{i}] = {v}", 64),
    "vsr": (None, "s.vsr_read({i})", "s.vsr_write({i}, {v})", 128),
    "vr": (None, "s.vr[{i}]", "s.vr[{i}] = {v}", 128),
}
# the same files addressed by number in a page: GPR(n), FPR(n), VSR(n), VR(n)
REGFILE_CALLS = {"GPR": "gpr", "FPR": "fpr", "VSR": "vsr", "VR": "vr"}


def const_span(a, b):
    """b - a + 1 when it is the same for every value of the names in it (a
    range x[8*i:8*i+7] over a loop counter), else None.  Only sums and
    products of names and integers qualify: the difference is then a
    polynomial in the names, and one that takes one value at 6 points of each
    name (degree 5 or less, as these are) is that constant."""
    if a.const is not None and b.const is not None:
        return b.const - a.const + 1
    import ast   # (only here: 1.5 ms of every start, which compiles nothing)
    try:
        tree = ast.parse(f"({b.code}) - ({a.code})", mode="eval")
    except SyntaxError:
        return None
    span_nodes = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult,
                  ast.USub, ast.UAdd, ast.Constant, ast.Name, ast.Load)
    if not all(isinstance(n, span_nodes) for n in ast.walk(tree)):
        return None
    if any(isinstance(n, ast.Constant) and not isinstance(n.value, int) for n in ast.walk(tree)):
        return None
    names = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)})
    code = compile(tree, "<span>", "eval")
    seen = set()
    for point in range(6):
        env = {name: point * (3 + k) + k for k, name in enumerate(names)}
        seen.add(eval(code, {"__builtins__": {}}, env))
        if len(seen) > 1:
            return None
    d = seen.pop()
    return d + 1 if d >= 0 else None


def _uses_k(code):
    return re.search(r"\bk\b", code) is not None


class PageCompiler:
    """Compile one page in the context of its form (which names are fields)."""

    def __init__(self, form, regclass, rc=None, rc_target=None, name="insn",
                 where_file="<page>", first_line=1, extra_params=(), implicit=(),
                 xlen=64, dialect="book", svp64_so=False, library=None,
                 fptrans_fpscr="page"):
        self.form = form
        # the helper tables (isa_ext.extension.Library): the ISA's, or the
        # base library with no extension's helpers
        if library is None:
            from ..extension import base_library_tables
            library = base_library_tables()
        self.lib = library
        # "kept": a page calling a transcendental (fptrans.py) leaves the
        # FPSCR as it found it (profile switch fptrans_fpscr)
        self.fptrans_fpscr = fptrans_fpscr
        self.calls_transcendental = False
        # the page runs as an SVP64 element under the SVP64 appendix's "XER,
        # SO and other global flags" / "OE=1" rules: XER.SO is neither read
        # nor written; the name SO is a local of the element that starts at 0,
        # so that an Rc=1 record's SO is this element's own overflow (OE=1)
        self.so = "_so" if svp64_so else "s.so"
        # the dialect's options (Dialect), its reading of names (see
        # dialect_name) and helper functions, found before the library's
        self.dialect = dialect
        self.d = d = get_dialect(dialect)
        self.dialect_helpers, self.dialect_names = d.helpers, d.names
        self.envelope = d.envelope
        # the simulator's XER updates around a page of a dialect with an
        # envelope (Dialect.envelope): what its altered list names, the terms of its
        # last addition into a GPR, the special registers it assigns itself
        self.op_wants = (False, False)
        self.op_add_terms = None
        self.op_assigned = set()
        # the width of a GPR and the value of the name XLEN: 64, or an SVP64
        # element width for a page that names XLEN (profile "elwidth_xlen")
        self.xlen = xlen
        # implicit register operands of the row (tables: "FRS=FRT+MAXVL"):
        # named like fields, their register number supplied by the decoder
        self.implicit = frozenset(implicit)
        self.regclass = regclass
        self.rc = rc
        self.rc_target = rc_target
        self.name = name
        self.where_file = where_file
        self.first_line = first_line
        self.vars = {}  # local variable -> width
        self.fields_used = set()
        self.reads, self.writes = set(), set()
        self.prologue = set()
        self.uses_nia = False
        self.records_cr0 = False  # the page assigns CR0 (its own Rc=1 record)
        self.lines = []  # (indent, text, pseudo_line)
        self.indent = 1
        self.cur_line = 0
        self.tmp = 0
        self.state_written = False
        self.extra_params = tuple(extra_params)
        self.deferred = {}  # register field -> class, written through w_<field>
        # FP helper calls (pseudocode/fp.py): code -> the form that returns None to
        # keep the target register; the page then ends checking for an interrupt
        self.fp_keep = {}
        self.fp_epilogue = False
        self.cov_key = f"{where_file}:{first_line}"  # names the page in coverage data

    # --- helpers -------------------------------------------------------
    def err(self, msg, node=None):
        raise CompileError(msg, node)

    def emit(self, text):
        self.lines.append((self.indent, text, self.cur_line))

    def newtmp(self):
        self.tmp += 1
        return f"_t{self.tmp}"

    def is_field(self, name):
        return name in self.form.fields or name in self.implicit

    def regclass_of(self, name):
        return self.regclass.get(name) if self.is_field(name) else None

    def regfile_width(self, cls):
        return REGFILES[cls][3] or self.xlen

    def regfile_read(self, cls, index_code):
        arr, read, _w, _width = REGFILES[cls]
        if arr:
            self.prologue.add(arr)
        return read.format(i=index_code)

    def regfile_write(self, cls, index_code, value_code):
        arr, _r, write, _width = REGFILES[cls]
        if arr:
            self.prologue.add(arr)
        return write.format(i=index_code, v=value_code)

    def field(self, name):
        if self.d.field_prefix and self.d.field_prefix + name in self.form.fields:
            name = self.d.field_prefix + name  # the dialect's bit order of the field
        self.fields_used.add(name)
        if name in self.implicit:
            return Val(f"f_{name}", 7)  # a register number, 0..127
        return Val(f"f_{name}", self.form.fields[name].width)

    # --- expressions ---------------------------------------------------
    def expr(self, node):
        if isinstance(node, Token):
            self.err(f"unexpected token {node}")
        meth = getattr(self, "x_" + node.data, None)
        if meth is None:
            self.err(f"unsupported expression {node.data}", node)
        return meth(node)

    def x_number(self, node):
        text = str(node.children[0]).replace("_", "")
        if text.startswith("0b"):
            return const(int(text, 2), len(text) - 2)
        return const(int(text, 0), None)

    def x_name(self, node):
        name = str(node.children[0])
        if name in self.vars:
            return Val(f"v_{name}", self.vars[name])
        op = self.dialect_name(name)
        if op is not None:
            return op
        if self.is_field(name):
            return self.field(name)
        if name == "CIA":
            return Val("CIA", 64)
        if name == "NIA":
            self.uses_nia = True
            return Val("NIA", 64)
        if name == "CR":
            self.prologue.add("CRF")
            return Val("_cr_get(CRF)", 64)
        if name == "XER":
            return Val("_xer_get(s)", 64)
        if name == "SO":
            return Val(self.so, 1)
        if name in SPECIALS:
            attr, w = SPECIALS[name]
            return Val(f"s.{attr}", w)
        if name == "XLEN":
            return const(self.xlen)
        if name in self.lib.constants:
            v, w = self.lib.constants[name]
            return const(v, w)
        if name in self.lib.names:  # run-time names an extension supplies (VL, ...)
            return self.lib.names[name](self)
        self.err(f"unknown name {name!r} (not a field of form {self.form.name}, "
                 f"a variable assigned earlier, or a register)", node)

    def dialect_name(self, name):
        """A name as the dialect reads it (Dialect.register_operands: a bare
        register operand, RA or FRB, is the register's contents, as "(RA)"
        is, and "_RA" its number; Dialect.names), or None."""
        regs = self.d.register_operands
        if name in regs and self.regclass_of(name) in ("gpr", "fpr"):
            return self.reg_read(name, self.regclass_of(name))
        if name.startswith("_") and name[1:] in regs and self.is_field(name[1:]):
            return self.field(name[1:])
        if name in self.dialect_names and not self.is_field(name):
            return const(*self.dialect_names[name])
        return None

    def x_paren(self, node):
        inner = node.children[0]
        # (RA) -> contents of register RA ; (RA|0) -> contents or zero
        if isinstance(inner, Tree) and inner.data == "name":
            name = str(inner.children[0])
            cls = self.regclass_of(name)
            if cls in REGFILES:
                return self.reg_read(name, cls)
        if isinstance(inner, Tree) and inner.data == "bitor":
            a, b = inner.children
            if (isinstance(a, Tree) and a.data == "name" and isinstance(b, Tree)
                    and b.data == "number" and str(b.children[0]) == "0"):
                name = str(a.children[0])
                if self.regclass_of(name) == "gpr":
                    r = self.reg_read(name, "gpr")
                    return Val(f"({r.code} if f_{name} else 0)", self.xlen)
        v = self.expr(inner)
        return Val(f"({v.code})", v.width, v.const)

    def reg_read(self, name, cls):
        self.fields_used.add(name)
        self.reads.add(name)
        width = self.regfile_width(cls)
        if name in self.deferred:
            return Val(f"w_{name}", width)
        return Val(self.regfile_read(cls, f"f_{name}"), width)

    def prescan(self, tree):
        """Register operands the page writes.  Their writes are deferred to the
        end of the instruction, so every "(RA)" read sees the value the register
        had when the instruction started, and a trap leaves registers intact."""
        for node in tree.iter_subtrees():
            if node.data != "assign":
                continue
            t = node.children[0]
            while isinstance(t, Tree) and t.data in ("index", "slice"):
                t = t.children[0]
            if isinstance(t, Tree) and t.data == "name":
                name = str(t.children[0])
                if self.regclass_of(name) in REGFILES:
                    self.deferred[name] = self.regclass_of(name)

    def x_call(self, node):
        name = str(node.children[0])
        args = [c for c in node.children[1:] if c is not None]
        if name in REGFILE_CALLS:
            if len(args) != 1:
                self.err(f"{name}(n) takes one argument", node)
            idx = self.expr(args[0])
            cls = REGFILE_CALLS[name]
            return Val(self.regfile_read(cls, idx.code), REGFILES[cls][3] or 64)
        if name == "MEM":
            if len(args) != 2:
                self.err("MEM(EA, n) takes two arguments", node)
            ea, n = self.expr(args[0]), self.expr(args[1])
            if n.const is None:
                self.err("MEM size must be a constant", node)
            self.prologue.add("M")
            return Val(f"M.read({ea.code}, {n.const})", 8 * n.const)
        if name == "SPR":
            idx = self.expr(args[0])
            return Val(f"s.spr_read({idx.code})", 64)
        intr = self.dialect_helpers.get(name) or self.lib.intrinsics.get(name)
        if intr is None:
            self.err(f"unknown function {name}()", node)
        vals = []
        for a in args:
            if isinstance(a, Tree) and a.data == "string":
                vals.append(Val(repr(str(a.children[0])[1:-1]), None))
            else:
                vals.append(self.expr(a))
        try:
            out = intr(self, *vals)
        except TypeError as e:
            self.err(f"{name}(): {e}", node)
        return out

    def x_index(self, node):
        base, idx = node.children
        # XER[SO] and friends
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "XER" \
                and isinstance(idx, Tree) and idx.data == "name" and str(idx.children[0]) in XER_BITS:
            bit = str(idx.children[0])
            return Val(self.so if bit == "SO" else f"s.{XER_BITS[bit][0]}", 1)
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "CR" \
                and str(base.children[0]) not in self.vars:
            i = self.expr(idx)
            self.prologue.add("CRF")
            return Val(f"_cr_bit(CRF, {i.code})", 1)
        if self.d.register_operands:
            # a register operand alone as a subscript is its number ("GPR[RA]")
            if isinstance(idx, Tree) and idx.data == "name" \
                    and str(idx.children[0]) in self.d.register_operands \
                    and self.is_field(str(idx.children[0])):
                i = self.field(str(idx.children[0]))
            else:
                i = self.expr(idx)
            if isinstance(base, Tree) and base.data == "name" \
                    and str(base.children[0]) in ("GPR", "FPR") \
                    and str(base.children[0]) not in self.vars:
                arr = "G" if str(base.children[0]) == "GPR" else "F"
                self.prologue.add(arr)
                return Val(f"{arr}[{i.code}]", 64)
            v = self.expr(base)
            return self.bit_of(v, i, node)
        v = self.expr(base)
        i = self.expr(idx)
        return self.bit_of(v, i, node)

    def bit_of(self, v, i, node):
        if v.width is None:
            self.err("bit selection needs a value of known width", node)
        if isinstance(v.width, int) and i.const is not None:
            sh = v.width - 1 - i.const
            if sh < 0:
                self.err(f"bit {i.const} outside a {v.width}-bit value", node)
            return Val(f"(({v.code} >> {sh}) & 1)" if sh else f"({v.code} & 1)", 1)
        return Val(f"(({v.code} >> ({wcode(v.width)} - 1 - ({i.code}))) & 1)", 1)

    def x_slice(self, node):
        base, lo, hi = node.children
        if isinstance(base, Tree) and base.data == "name" and str(base.children[0]) == "CR" \
                and "CR" not in self.vars:
            a, b = self.expr(lo), self.expr(hi)
            self.prologue.add("CRF")
            w = (b.const - a.const + 1) if a.const is not None and b.const is not None \
                else f"{b.code} - ({a.code}) + 1"
            if self.d.checked_ranges and not isinstance(w, int):
                # a range that runs backwards traps, named (see _checked_slice)
                return Val(f"_checked_cr_slice(CRF, {a.code}, {b.code})", w)
            return Val(f"_cr_slice(CRF, {a.code}, {b.code})", w)
        v = self.expr(base)
        a, b = self.expr(lo), self.expr(hi)
        return self.slice_of(v, a, b, node)

    def slice_of(self, v, a, b, node=None):
        if v.width is None:
            self.err("range selection needs a value of known width", node)
        if isinstance(v.width, int) and a.const is not None and b.const is not None:
            if not (0 <= a.const <= b.const < v.width):
                self.err(f"range [{a.const}:{b.const}] outside a {v.width}-bit value", node)
            w = b.const - a.const + 1
            sh = v.width - 1 - b.const
            code = v.code if sh == 0 else f"({v.code} >> {sh})"
            if a.const != 0:
                code = f"({code} & {mask_code(w)})"
            return Val(code, w)
        w = const_span(a, b) if self.dialect == "book" else None
        if w is not None and isinstance(v.width, int):
            # an element of a vector, x[e*i:e*i+e-1]: a constant width, so
            # that the element's arithmetic and comparisons have one
            return Val(f"(({v.code} >> ({v.width - 1} - ({b.code}))) & {mask_code(w)})", w)
        w = f"({b.code}) - ({a.code}) + 1"
        if self.d.checked_ranges:
            # a range that runs backwards or off the value traps, named
            return Val(f"_checked_slice({v.code}, {wcode(v.width)}, {a.code}, {b.code})", w)
        return Val(f"(({v.code} >> ({wcode(v.width)} - 1 - ({b.code}))) & {mask_code(w)})", w)

    def x_bitlist(self, node):
        v = self.expr(node.children[0])
        if v.const is not None:
            return const(v.const & 1, 1)
        return Val(f"({v.code} & 1)", 1)

    def replicate(self, bit, count):
        b, n = self.expr(bit), self.expr(count)
        w = n.const if n.const is not None else n.code
        if self.d.repeat_at_width and isinstance(b.width, int) and b.width > 1:
            # "[x] * n" repeats x at its own width
            # ("[0b0001] * 16" is 0x1111...1), as a list of n x's would
            if n.const is None:
                self.err("[x]*n of a multi-bit x needs a constant n", count)
            pattern = sum(1 << (b.width * i) for i in range(n.const))
            return Val(f"({b.code} * {hex(pattern)})", b.width * n.const)
        if b.const is not None:
            if b.const == 0:
                return Val("0", w, 0)
            if b.const == 1:
                return Val(mask_code(w), w, (1 << w) - 1 if isinstance(w, int) else None)
        if b.width not in (1, None):
            self.err("replication takes a single bit: [x]*n", bit)
        return Val(f"(-({b.code}) & {mask_code(w)})", w)

    def x_concat(self, node):
        a, b = (self.expr(c) for c in node.children)
        if a.width is None or b.width is None:
            self.err("|| needs operands of known width (use a 0b literal or a slice)", node)
        if isinstance(a.width, int) and isinstance(b.width, int):
            w = a.width + b.width
        else:
            w = f"{wcode(a.width)} + {wcode(b.width)}"
        if a.const == 0:
            return Val(b.code, w)
        return Val(f"(({a.code} << {wcode(b.width)}) | {b.code})", w)

    def arith_width(self, a, b):
        if a.width is None:
            return b.width
        if b.width is None:
            return a.width
        if isinstance(a.width, int) and isinstance(b.width, int):
            return max(a.width, b.width)
        return f"max({wcode(a.width)}, {wcode(b.width)})"

    def x_arith(self, node):
        a, op, b = node.children
        op = str(op)
        if op in ("*", "×") and isinstance(a, Tree) and a.data == "bitlist":
            return self.replicate(a.children[0], b)
        a, b = self.expr(a), self.expr(b)
        if op in ("+", "-"):
            w = self.arith_width(a, b)
            # Adding an unsized integer (a literal, a loop counter) to a narrow
            # value means the number, not a wrapping bit field: "n + 32" with a
            # 5-bit n is at least 64 bits wide.  Sized operands keep their width,
            # so carries can be taken from "([0] || a) + ([0] || b) + CA".
            if (a.width is None or b.width is None) and isinstance(w, int) and w < 64:
                w = 64
            code = f"{a.code} {op} {b.code}"
            if a.const is not None and b.const is not None and w is None:
                return const(a.const + b.const if op == "+" else a.const - b.const)
            return Val(f"(({code}) & {mask_code(w)})" if w is not None else f"({code})", w)
        if op in ("*", "×"):
            if a.width is None or b.width is None:
                if a.const is not None and b.const is not None:
                    return const(a.const * b.const)
                return Val(f"({a.code} * {b.code})", None)
            if isinstance(a.width, int) and isinstance(b.width, int):
                return Val(f"({a.code} * {b.code})", a.width + b.width)
            return Val(f"({a.code} * {b.code})", f"{wcode(a.width)} + {wcode(b.width)}")
        if a.const is not None and b.const is not None and a.width is None \
                and b.width is None and op in ("/", "÷", "%") and b.const:
            # XLEN/2: a constant, so that it can bound a range selection
            return const(a.const // b.const if op != "%" else a.const % b.const)
        if op in ("/", "÷"):
            return Val(f"({a.code} // {b.code})", self.arith_width(a, b))
        if op == "%":
            return Val(f"({a.code} % {b.code})", self.arith_width(a, b))
        self.err(f"unknown operator {op}", node)

    def x_bitand_xor(self, node):
        a, op, b = node.children
        a, b = self.expr(a), self.expr(b)
        pyop = "&" if str(op) == "&" else "^"
        return Val(f"({a.code} {pyop} {b.code})", self.arith_width(a, b))

    def x_shift(self, node):
        """"<<" and ">>" (openpower dialect): a logical shift within the left
        operand's width."""
        a, op, b = node.children
        a, b = self.expr(a), self.expr(b)
        if not isinstance(a.width, int):
            self.err("a shift needs a left operand of known width", node)
        if str(op) == "<<":
            return Val(f"(({a.code} << {b.code}) & {mask_code(a.width)})", a.width)
        return Val(f"({a.code} >> {b.code})", a.width)

    def x_ternary(self, node):
        c, a, b = (self.expr(x) for x in node.children)
        w = self.arith_width(a, b)
        return Val(f"({a.code} if {c.code} else {b.code})", w)

    def x_bitor(self, node):
        a, b = (self.expr(c) for c in node.children)
        return Val(f"({a.code} | {b.code})", self.arith_width(a, b))

    def x_bitnot(self, node):
        v = self.expr(node.children[1])
        if v.width is None:
            self.err("¬ needs a value of known width", node)
        if v.width == 1:
            return Val(f"({v.code} ^ 1)", 1)
        return Val(f"({v.code} ^ {mask_code(v.width)})", v.width)

    def x_neg(self, node):
        v = self.expr(node.children[0])
        if v.const is not None and v.width is None:
            return const(-v.const) if v.const <= 0 else Val(f"(-{v.const})", None, -v.const)
        if v.width is None:
            return Val(f"(-{v.code})", None)
        return Val(f"((-{v.code}) & {mask_code(v.width)})", v.width)

    def x_compare(self, node):
        a, op, b = node.children
        op = str(op)
        a, b = self.expr(a), self.expr(b)
        op = {"≠": "!=", "≤": "<=", "≥": ">="}.get(op, op)
        if op in ("=", "!="):
            return Val(f"({a.code} {'==' if op == '=' else '!='} {b.code})", 1)
        if op.endswith("u"):
            return Val(f"({a.code} {op[:-1]} {b.code})", 1)
        # signed comparison: bias both sides by the sign bit of their width
        return Val(f"({self.signed(a)} {op} {self.signed(b)})", 1)

    def signed(self, v):
        if v.width is None:
            return v.code
        if isinstance(v.width, int):
            if v.const is not None:
                c = v.const
                return str(c - (1 << v.width) if c >> (v.width - 1) else c)
            bias = hex(1 << (v.width - 1))
            return f"(({v.code} ^ {bias}) - {bias})"
        return f"_signed({v.code}, {wcode(v.width)})"

    # --- statements ----------------------------------------------------
    def stmt(self, node):
        if node.meta and not node.meta.empty:
            self.cur_line = node.meta.line
        if COVERAGE is not None and node.data not in _BLOCK_NODES:
            COVERAGE.statement(self.cov_key, self.cur_line)
            self.emit(f"_cov({self.cov_key!r}, {self.cur_line})")
        meth = getattr(self, "s_" + node.data, None)
        if meth is None:
            self.err(f"unsupported statement {node.data}", node)
        meth(node)

    def block(self, nodes):
        start = len(self.lines)
        for n in nodes:
            self.stmt(n)
        if len(self.lines) == start:
            self.emit("pass")

    def s_start(self, node):
        self.block([c for c in node.children if isinstance(c, Tree)])

    def s_suite(self, node):
        self.block(node.children)

    def s_one_line(self, node):
        self.block(node.children)

    def s_leave(self, node):
        self.emit("break")

    def s_expr_stmt(self, node):
        call = node.children[0]
        v = self.x_call(call)
        if v.code:
            self.emit(v.code)

    def s_name_stmt(self, node):
        """A helper called by its bare name ("then TRAP", openpower dialect)."""
        call = Tree("call", [node.children[0]], meta=node.meta)
        v = self.x_call(call)
        if v.code:
            self.emit(v.code)

    def s_if_stmt(self, node):
        cond = self.expr(node.children[0])
        self.emit(f"if {cond.code}:")
        self.indent += 1
        self.branch(node.children[1])
        self.indent -= 1
        if len(node.children) > 2:
            els = node.children[2].children[0]
            if isinstance(els, Tree) and els.data == "if_stmt":
                self.emit("else:")
                self.indent += 1
                self.stmt(els)
                self.indent -= 1
            else:
                self.emit("else:")
                self.indent += 1
                self.branch(els)
                self.indent -= 1

    def branch(self, node):
        if isinstance(node, Tree) and node.data in ("suite", "one_line"):
            self.stmt(node)
        else:
            self.stmt(node)

    def s_do_stmt(self, node):
        var = str(node.children[0])
        lo = self.expr(node.children[1])
        hi = self.expr(node.children[2])
        step = self.expr(node.children[3]) if len(node.children) > 4 else None
        suite = node.children[-1]
        self.vars[var] = None
        if step is None and self.d.loops_count_down:
            # "do i = 7 to 0" counts down (openpower-isa's helpers.py RANGE)
            self.emit(f"for v_{var} in _loop_range({lo.code}, {hi.code}):")
        elif step is None:
            self.emit(f"for v_{var} in range({lo.code}, {hi.code} + 1):")
        else:
            self.emit(f"for v_{var} in range({lo.code}, {hi.code} + 1, {step.code}):")
        self.indent += 1
        self.stmt(suite)
        self.indent -= 1

    def s_switch_stmt(self, node):
        """switch/case/default (openpower dialect): a case with no body shares
        the next case's ("case(808, 809):" then "case(810):" ...)."""
        subject = self.expr(node.children[0])
        tmp = self.newtmp()
        self.emit(f"{tmp} = {subject.code}")
        pending = []
        first = True
        for arm in node.children[1:]:
            body = arm.children[-1]
            if arm.data == "case":
                pending += [self.expr(c).code for c in arm.children[:-1]]
                if isinstance(body, Tree) and body.data == "fallthrough":
                    continue
                cond = " or ".join(f"{tmp} == {c}" for c in pending)
                self.emit(f"{'if' if first else 'elif'} {cond}:")
                pending, first = [], False
            else:
                self.emit("else:" if not first else "if True:")
            self.indent += 1
            if isinstance(body, Tree) and body.data == "fallthrough":
                self.emit("pass")
            else:
                self.stmt(body)
            self.indent -= 1

    def s_while_stmt(self, node):
        cond = self.expr(node.children[0])
        self.emit(f"while {cond.code}:")
        self.indent += 1
        self.stmt(node.children[1])
        self.indent -= 1

    def s_assign(self, node):
        target, _op, value = node.children
        if any(self.op_wants) and isinstance(target, Tree) and target.data == "name" \
                and self.regclass_of(str(target.children[0])) == "gpr":
            terms = self.envelope.add_terms(self, value)
            if terms is not None:
                self.op_add_terms = terms
                self.emit(f"_addterms = ({', '.join(terms)},)")
        v = self.expr(value)
        self.assign(target, v, node)

    def fit(self, v, width):
        """Code for ``v`` truncated/zero-extended to ``width`` bits."""
        if isinstance(width, int) and isinstance(v.width, int) and v.width <= width:
            return v.code
        if v.const is not None and isinstance(width, int):
            return hex(v.const & ((1 << width) - 1))
        return f"({v.code} & {mask_code(width)})"

    def fit_state(self, v, width):
        """Like fit(), for machine state: a one-bit comparison result is stored
        as the int 0/1, never as a Python bool, so state prints and serialises
        as numbers."""
        if width == 1 and v.const is None:
            return f"(1 if {v.code} else 0)"
        return self.fit(v, width)

    def note_write(self):
        self.state_written = True

    def assign(self, target, v, node):
        kind = target.data if isinstance(target, Tree) else None
        if kind == "name":
            name = str(target.children[0])
            cls = self.regclass_of(name)
            if cls in REGFILES and name not in self.vars:
                self.fields_used.add(name)
                self.writes.add(name)
                self.note_write()
                keep = self.fp_keep.get(v.code)
                if keep is not None:
                    # an enabled invalid operation / zero divide leaves it unchanged
                    tmp = self.newtmp()
                    self.emit(f"{tmp} = {keep}")
                    self.emit(f"if {tmp} is not None:")
                    self.indent += 1
                    self.emit(f"w_{name} = {self.fit(Val(tmp, v.width), self.regfile_width(cls))}")
                    self.indent -= 1
                    return
                self.emit(f"w_{name} = {self.fit(v, self.regfile_width(cls))}")
                return
            if name == "NIA":
                self.uses_nia = True
                self.emit(f"NIA = {self.fit(v, 64)}")
                return
            if name == "CR":
                self.prologue.add("CRF")
                self.note_write()
                self.emit(f"_cr_put(CRF, {self.fit(v, 64)})")
                return
            if name == "CR0" and self.rc == "CR0":
                # the page records its own Rc=1 field (minmax.: a comparison,
                # not RT against 0); under SVP64 it is the EXTRA-extended field
                self.prologue.add("CRF")
                self.note_write()
                self.records_cr0 = True
                self.emit(f"CRF[_crf] = {self.fit(v, 4)}  {_OWN_CR0}")
                return
            if name == "XER":
                self.note_write()
                self.emit(f"_xer_put(s, {self.fit(v, 64)})")
                return
            if name in SPECIALS and name not in self.vars:
                attr, w = SPECIALS[name]
                self.op_assigned.add(name)
                self.note_write()
                loc = self.so if name == "SO" else f"s.{attr}"
                self.emit(f"{loc} = {self.fit_state(v, w)}")
                return
            if self.is_field(name) and not self.d.assignable_fields:
                # (Dialect.assignable_fields: "D <- d0||d1||d2" makes a
                # variable that hides the field from there on)
                self.err(f"cannot assign to instruction field {name}", node)
            old = self.vars.get(name, v.width)
            width = v.width
            if self.d.path_widths and self.indent > 1 and old != v.width \
                    and isinstance(old, int):
                # widths are static here, dynamic in the dialect's simulator:
                # a width set on one path only would be wrong on the other (an
                # unsized number taking a width is not: it has no bit positions), so
                # the variable is a plain number from here on, and reading its
                # bits by position (a[0], a[0:31], ||) is a compile error
                width = None
            self.vars[name] = width
            self.emit(f"v_{name} = {v.code}")
            return
        if kind == "call":
            fname = str(target.children[0])
            args = [c for c in target.children[1:] if c is not None]
            if fname in REGFILE_CALLS:
                idx = self.expr(args[0])
                cls = REGFILE_CALLS[fname]
                self.note_write()
                self.emit(self.regfile_write(cls, idx.code, self.fit(v, REGFILES[cls][3] or 64)))
                return
            if fname == "MEM":
                ea, n = self.expr(args[0]), self.expr(args[1])
                if n.const is None:
                    self.err("MEM size must be a constant", node)
                self.prologue.add("M")
                self.note_write()
                self.emit(f"M.write({ea.code}, {n.const}, {self.fit(v, 8 * n.const)})")
                return
            if fname == "SPR":
                idx = self.expr(args[0])
                self.note_write()
                self.emit(f"s.spr_write({idx.code}, {self.fit(v, 64)})")
                return
            setter = self.lib.setters.get(fname)
            if setter is not None:
                # an extension-defined assignable function: F(args) <- v
                self.note_write()
                self.emit(setter(self, [self.expr(a) for a in args], v))
                return
            self.err(f"cannot assign to {fname}()", node)
        if kind in ("index", "slice"):
            base = target.children[0]
            if isinstance(base, Tree) and base.data == "name":
                bname = str(base.children[0])
                if bname == "XER" and kind == "index":
                    idx = target.children[1]
                    if isinstance(idx, Tree) and idx.data == "name" and str(idx.children[0]) in XER_BITS:
                        self.note_write()
                        bit = str(idx.children[0])
                        loc = self.so if bit == "SO" else f"s.{XER_BITS[bit][0]}"
                        self.emit(f"{loc} = {self.fit_state(v, 1)}")
                        return
                if bname == "CR" and "CR" not in self.vars:
                    self.prologue.add("CRF")
                    self.note_write()
                    if kind == "index":
                        i = self.expr(target.children[1])
                        self.emit(f"_cr_set_bit(CRF, {i.code}, {self.fit(v, 1)})")
                    else:
                        a, b = self.expr(target.children[1]), self.expr(target.children[2])
                        self.emit(f"_cr_set_slice(CRF, {a.code}, {b.code}, {v.code})")
                    return
                self.partial_assign(bname, kind, target, v, node)
                return
        self.err("unsupported assignment target", node)

    def partial_assign(self, name, kind, target, v, node):
        """x[i] <- v and x[a:b] <- v, for variables and register fields."""
        cls = self.regclass_of(name) if name not in self.vars else None
        if cls in REGFILES:
            self.fields_used.add(name)
            self.writes.add(name)
            self.note_write()
            loc, width = f"w_{name}", self.regfile_width(cls)
        elif name in self.vars:
            loc, width = f"v_{name}", self.vars[name]
        elif name in SPECIALS and SPECIALS[name][1] > 1:
            # a bit range of a special register (SVSTATE[62] <- pst): written in
            # program order, like a whole special-register assignment
            self.note_write()
            attr, width = SPECIALS[name]
            loc = f"s.{attr}"
        elif self.is_field(name) or name in SPECIALS:
            self.err(f"cannot assign to part of {name}", node)
        else:
            # first assignment of a new variable through a range: x[0:127] <- ...
            hi = self.expr(target.children[-1])
            if hi.const is None:
                self.err(f"variable {name} needs a constant width on first assignment", node)
            width = hi.const + 1
            self.vars[name] = width
            loc = f"v_{name}"
            if kind != "index" and self.expr(target.children[1]).const == 0:
                # the whole of a new variable (prod[0:127] <- ...): a plain
                # assignment, not a merge into 0 (the element loops' hot path)
                self.emit(f"{loc} = {self.fit(v, width)}")
                return
            self.emit(f"{loc} = 0")
        if width is None:
            self.err(f"part assignment to {name}, whose width is unknown", node)
        if kind == "index":
            i = self.expr(target.children[1])
            a = b = i
            w = 1
        else:
            a, b = self.expr(target.children[1]), self.expr(target.children[2])
            w = (b.const - a.const + 1) if a.const is not None and b.const is not None \
                else const_span(a, b) if self.dialect == "book" else None
            if w is None:
                w = f"({b.code}) - ({a.code}) + 1"
        if isinstance(width, int) and b.const is not None:
            sh = str(width - 1 - b.const)
        else:
            sh = f"({wcode(width)} - 1 - ({b.code}))"
        m = mask_code(w)
        keep = self.fp_keep.get(v.code) if cls in REGFILES else None
        if keep is not None:
            # an FP result into part of a register (a VSX scalar's doubleword
            # 0): an enabled invalid operation / zero divide leaves it unchanged
            tmp = self.newtmp()
            self.emit(f"{tmp} = {keep}")
            self.emit(f"if {tmp} is not None:")
            self.indent += 1
            self.emit(f"{loc} = ({loc} & ~({m} << {sh})) | ({self.fit(Val(tmp, v.width), w)} << {sh})")
            self.indent -= 1
            return
        self.emit(f"{loc} = ({loc} & ~({m} << {sh})) | ({self.fit(v, w)} << {sh})")

    # --- whole page ----------------------------------------------------
    def compile(self, tree):
        self.prescan(tree)
        self.stmt(tree)
        self.cur_line = 0
        self.indent = 1
        if self.fptrans_fpscr == "kept" and self.calls_transcendental:
            # put back as the page's last statement: before the deferred
            # register writes, the Rc=1 record (CR1 copies this FPSCR) and a
            # pending enabled-exception interrupt
            self.lines.insert(0, (1, "_fpscr_kept = s.fpscr", 0))
            self.emit("s.fpscr = _fpscr_kept")
        for name, cls in sorted(self.deferred.items()):
            self.fields_used.add(name)
            self.emit(self.regfile_write(cls, f"f_{name}", f"w_{name}"))
        if any(self.op_wants):
            self.envelope.epilogue(self)
        if self.so != "s.so":
            self.lines.insert(0, (1, "_so = 0", 0))
        if self.d.overflow_variable and "overflow" in self.vars:
            # read by the envelope and the Rc=1 record on every path
            self.lines.insert(0, (1, "v_overflow = None", 0))
        if self.op_add_terms is not None:
            # read by the envelope even when the addition's path did not run
            self.lines.insert(0, (1, "_addterms = ()", 0))
        if (self.rc and self.rc_target and not self.records_cr0) or self.rc == "CR1":
            # CR1 copies the FPSCR, no target; a page assigning CR0 records it itself
            self.rc_epilogue()
        if self.fp_epilogue:
            # a floating-point enabled exception interrupt comes after the results
            self.emit('if "fp_interrupt" in s.__dict__:')
            self.indent += 1
            self.emit("_fp_interrupt(s)")
            self.indent -= 1
        params = sorted(self.fields_used | set(self.extra_params))
        return params

    def rc_epilogue(self):
        self.cur_line = 0
        self.indent = 1
        self.prologue.add("CRF")
        if self.rc == "CR0":
            self.fields_used.add(self.rc_target)
            self.prologue.add("G")
            # a form without an Rc bit (addic., andi.) records unconditionally
            if self.is_field("Rc"):
                self.fields_used.add("Rc")
                self.emit("if f_Rc:")
                self.indent += 1
            v = f"G[f_{self.rc_target}]"
            if self.xlen != 64:  # the result's sign is bit 0 of XLEN bits
                bias = hex(1 << (self.xlen - 1))
                v = f"((({v} ^ {bias}) - {bias}) & {hex(library.M64)})"
            so = self.so
            if self.d.overflow_variable and "overflow" in self.vars \
                    and not self.is_field("OE"):
                # openpower-isa's simulator records SO=1 in CR0 when the page's
                # "overflow" is 1 (caller.py handle_comparison): how a page
                # without OE (dsld) says so.  With OE, the ISA's CR0.SO is
                # XER.SO (set by the envelope when OE=1), not that variable.
                so = f"({self.so} | (v_overflow or 0))"
            self.emit(f"CRF[_crf] = _cr0({v}, {so})")
        elif self.rc == "CR1":
            self.fields_used.add("Rc")
            self.emit("if f_Rc:")
            self.indent += 1
            self.emit("CRF[_crf] = (s.fpscr >> 28) & 0xF")
        self.indent = 1


_PROLOGUE = {"G": "G = s.gpr", "F": "F = s.fpr", "CRF": "CRF = s.cr", "M": "M = s.mem"}


def compile_page(page, form, regclass, rc="", rc_target=None, name=None, implicit=(),
                 xlen=64, dialect=None, svp64_so=False, library=None,
                 fptrans_fpscr="page"):
    """Compile ``page`` (a pages.Page) for ``form``; return a :class:`Compiled`.
    ``implicit``: the row's implicit register operands (named like fields);
    ``xlen``: the GPR width the page runs at (see :func:`names_xlen`);
    ``svp64_so``: compiled for an SVP64 element whose XER.SO is not the
    register's (see PageCompiler); ``library``: the ISA's helper tables
    (isa_ext.extension.Library), None for the base library alone;
    ``fptrans_fpscr``: the profile switch (:class:`isa_ext.profile.Profile`)."""
    name = name or re.sub(r"\W", "_", page.mnemonic or "insn")
    dialect = dialect or getattr(page, "dialect", "book")
    if get_dialect(dialect).needs_code and not page.code.strip():
        # (an instruction that silently did nothing would be a wrong answer)
        raise SpecError(f"page {page.title!r} has no pseudocode", page.where)
    tree = parse(page.code, page.filename, page.code_line, dialect)
    pc = PageCompiler(form, regclass, rc=rc, rc_target=rc_target, name=name,
                      where_file=page.filename, first_line=page.code_line,
                      implicit=implicit, xlen=xlen, dialect=dialect, svp64_so=svp64_so,
                      library=library, fptrans_fpscr=fptrans_fpscr)
    if pc.envelope is not None:
        pc.op_wants = pc.envelope.wants(page)
    try:
        params = pc.compile(tree)
    except CompileError as e:
        line = pc.cur_line
        if e.node is not None and getattr(e.node, "meta", None) and not e.node.meta.empty:
            line = e.node.meta.line
        raise SpecError(f"pseudocode error in {page.mnemonic}: {e}",
                        f"{page.filename}:{page.code_line + max(line, 1) - 1}") from None
    # a prefixed form's instruction is 8 bytes: the next one is at CIA + 8
    return build(pc, params, page, length=8 if getattr(form, "prefixed", False) else 4)


_XLEN_NAME = re.compile(r"\bXLEN\b")


def names_xlen(page):
    """True when the page's code names XLEN, so that it can run at a GPR width
    other than 64 (an SVP64 element width, under profile "elwidth_xlen")."""
    return bool(_XLEN_NAME.search(page.code))


def build(pc, params, page=None, length=4):
    fargs = ", ".join(f"f_{p}" for p in params)
    pro = [_PROLOGUE[k] for k in ("G", "F", "CRF", "M") if k in pc.prologue]
    for name, cls in sorted(pc.deferred.items()):
        pro.append(f"w_{name} = {REGFILES[cls][1].format(i='f_' + name)}")
    if pc.uses_nia:
        pro.append(f"NIA = CIA + {length}")
    tail = "return NIA" if pc.uses_nia else f"return CIA + {length}"

    # a page using the FP helpers writes the FPSCR as it goes: an illegal-
    # instruction trap part-way (a second result's enabled exception that is
    # not implemented) puts it back, so that the trap leaves no partial state;
    # the enabled-exception interrupt (kind "program") comes after completion
    guard = pc.fp_epilogue

    def body(indent):
        out, lmap = [], []
        pad = "    " * indent
        for p in pro:
            out.append(pad + p)
            lmap.append(0)
        inner = pad
        if guard:
            out += [pad + "_fpscr0 = s.fpscr", pad + "try:"]
            lmap += [0, 0]
            inner = pad + "    "
        for ind, text, line in pc.lines:
            out.append(inner + "    " * (ind - 1) + text)
            lmap.append(line)
        if guard:
            out += [pad + "except Trap as _t:",
                    pad + "    if _t.kind == 'illegal':",
                    pad + "        s.fpscr = _fpscr0",
                    pad + "        s.__dict__.pop('fp_interrupt', None)",
                    pad + "    raise"]
            lmap += [0] * 5
        out.append(pad + tail)
        lmap.append(0)
        return out, lmap

    # Rc=1 records into the CR field the table's rc column names (CR0, CR1)
    crf0 = int(pc.rc[2:]) if pc.rc and pc.rc.startswith("CR") else 0
    sig = f"s, CIA{', ' + fargs if fargs else ''}, _crf={crf0}"
    flat, lmap = body(1)
    src = [f"def sem({sig}):"] + flat
    line_map = [0] + lmap
    src.append(f"def make({fargs + ', ' if fargs else ''}_crf={crf0}):")
    line_map.append(0)
    src.append("    def bound(s, CIA):")
    line_map.append(0)
    inner, lmap2 = body(2)
    src += inner
    line_map += lmap2
    src.append("    return bound")
    line_map.append(0)
    source = "\n".join(src) + "\n"
    ns = dict(pc.lib.runtime)
    if COVERAGE is not None:
        ns["_cov"] = COVERAGE.hit
    filename = f"<isa_ext:{pc.name}>"
    try:
        exec(compile(source, filename, "exec"), ns)
    except SyntaxError as e:  # a bug in the compiler, not in the page
        raise SpecError(f"internal: generated code does not compile: {e}\n{source}",
                        page.where if page else None) from None
    return Compiled(pc.name, source, params, ns, pc.reads, pc.writes, pc.uses_nia, line_map,
                    pc.lib, length)
