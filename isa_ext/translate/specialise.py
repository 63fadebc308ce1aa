"""One instruction's compiled page, specialised for one word at one address.

The page's ``sem`` function (isa_ext.pseudocode.compiler.Compiled.source) is
parsed back into a Python AST; its field parameters, ``_crf`` and ``CIA``
become constants and the expressions and ``if`` statements those make constant
are folded.  What is left is a list of statements a block inlines, with GPR
accesses ``G[n]`` at constant ``n`` renamed to the block's locals ``_gN`` when
nothing else in the body could see the register file.
"""
import ast
import operator

# the lines a compiled page opens with; the block opens with them once
PROLOGUE_NAMES = {"G": "gpr", "F": "fpr", "CRF": "cr", "M": "mem"}

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift,
           ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.BitXor: operator.xor}
_UNOPS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
          ast.Not: operator.not_}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
           ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_MAX_FOLDED_BITS = 4096  # leave a huge constant (a shift by a field) to run time


class Untranslatable(Exception):
    """This instruction is run by the per-instruction path instead."""


def _is_int_const(node):
    return isinstance(node, ast.Constant) and type(node.value) in (int, bool)


class _Fold(ast.NodeTransformer):
    """Fields to constants, then constant expressions and branches folded."""

    def __init__(self, consts):
        self.consts = consts

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.consts:
            return ast.copy_location(ast.Constant(self.consts[node.id]), node)
        if isinstance(node.ctx, ast.Store) and node.id in self.consts:
            raise Untranslatable(f"page assigns its field {node.id}")
        return node

    def _fold(self, node, fn):
        try:
            v = fn()
        except Exception:  # e.g. a shift by a negative count: raised at run time as before
            return node
        if type(v) is bool:
            v = int(v)
        if type(v) is not int or v.bit_length() > _MAX_FOLDED_BITS:
            return node
        return ast.copy_location(ast.Constant(v), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        op = _BINOPS.get(type(node.op))
        if op and _is_int_const(node.left) and _is_int_const(node.right):
            if isinstance(node.op, ast.LShift) and node.right.value > _MAX_FOLDED_BITS:
                return node
            return self._fold(node, lambda: op(node.left.value, node.right.value))
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        op = _UNOPS.get(type(node.op))
        if op and _is_int_const(node.operand):
            return self._fold(node, lambda: op(node.operand.value))
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1 and _is_int_const(node.left) and _is_int_const(node.comparators[0]):
            op = _CMPOPS.get(type(node.ops[0]))
            if op:
                return self._fold(node, lambda: op(node.left.value, node.comparators[0].value))
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        if all(_is_int_const(v) for v in node.values):
            vals = [v.value for v in node.values]

            def ev():
                r = vals[0]
                for v in vals[1:]:
                    r = (r and v) if isinstance(node.op, ast.And) else (r or v)
                return r
            return self._fold(node, ev)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        if _is_int_const(node.test):
            return node.body if node.test.value else node.orelse
        return node

    def visit_If(self, node):
        self.generic_visit(node)
        if _is_int_const(node.test):
            return (node.body if node.test.value else node.orelse) or []
        if not node.body:
            node.body = [ast.Pass()]
        return node

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and not stmts and isinstance(
                    node, (ast.For, ast.While, ast.Try, ast.With)) and field == "body":
                setattr(node, field, [ast.Pass()])
        return node


class _Localise(ast.NodeTransformer):
    """``G[n]`` -> ``_gN`` for constant n; records which registers."""

    def __init__(self):
        self.regs = set()

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id == "G" and \
                _is_int_const(node.slice) and 0 <= node.slice.value < 128:
            self.regs.add(node.slice.value)
            return ast.copy_location(ast.Name(f"_g{node.slice.value}", node.ctx), node)
        return node


def _sees_register_file(stmts):
    """Whether anything but a constant ``G[n]`` could reach the GPRs: the file
    itself, or the state handed to a helper or a method of the state."""
    nodes = [n for st in stmts for n in ast.walk(st)]
    subscripted = {id(n.value) for n in nodes if isinstance(n, ast.Subscript)
                   and _is_int_const(n.slice) and 0 <= n.slice.value < 128}
    for n in nodes:
        if isinstance(n, ast.Name) and n.id == "G" and id(n) not in subscripted:
            return True
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and \
                n.value.id == "s" and n.attr == "gpr":
            return True
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
                    f.value.id == "s":
                return True
            if any(isinstance(a, ast.Name) and a.id == "s"
                   for a in list(n.args) + [k.value for k in n.keywords]):
                return True
    return False


def _touches_memory(stmts):
    """Whether the body does anything with memory but read it (a store may hit
    decoded code: the block checks for that after this instruction)."""
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and \
                    n.value.id == "M" and n.attr != "read":
                return True
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
                        f.value.id == "s":
                    return True  # a method of the state (a system call may store)
                if any(isinstance(a, ast.Name) and a.id in ("M", "s")
                       for a in list(n.args) + [k.value for k in n.keywords]):
                    return True
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and \
                    n.value.id == "s" and n.attr == "mem":
                return True
    return False


class Specialised:
    """``stmts``: the body without its prologue and final return; ``next_pc``:
    the returned expression (a constant CIA + 4 for straight-line code);
    ``localised``: GPRs renamed to block locals (``regs``), else the body uses
    ``G`` itself and the block flushes its locals around it; ``stores``: may
    write memory."""

    def __init__(self, stmts, next_pc, localised, regs, stores):
        self.stmts, self.next_pc = stmts, next_pc
        self.localised, self.regs, self.stores = localised, regs, stores

    @property
    def falls_through(self):
        return isinstance(self.next_pc, ast.Constant)


def _sem_body(compiled):
    tree = ast.parse(compiled.source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "sem":
            return node
    raise Untranslatable(f"no sem function in {compiled.name}")


def specialise(compiled, fields, cia):
    fn = _sem_body(compiled)
    body = list(fn.body)
    consts = {f"f_{p}": fields[p] for p in compiled.params}
    args = fn.args.args  # parameters with defaults (_crf: CR0, or CR1 for FP Rc=1)
    for a, dflt in zip(args[len(args) - len(fn.args.defaults):], fn.args.defaults):
        if a.arg not in consts:
            if not _is_int_const(dflt):
                raise Untranslatable(f"{compiled.name}: default of {a.arg} is not a number")
            consts[a.arg] = dflt.value
    missing = [a.arg for a in args if a.arg not in consts and a.arg not in ("s", "CIA")]
    if missing:
        raise Untranslatable(f"{compiled.name}: no value for {missing}")
    consts["CIA"] = cia
    kept = []
    for st in body:  # the prologue: the block binds these names once
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                isinstance(st.targets[0], ast.Name) and st.targets[0].id in PROLOGUE_NAMES and \
                isinstance(st.value, ast.Attribute) and isinstance(st.value.value, ast.Name) and \
                st.value.value.id == "s" and st.value.attr == PROLOGUE_NAMES[st.targets[0].id]:
            continue
        kept.append(st)
    if not kept or not isinstance(kept[-1], ast.Return) or kept[-1].value is None:
        raise Untranslatable(f"{compiled.name}: body does not end in a return")
    for st in kept[:-1]:
        for n in ast.walk(st):
            if isinstance(n, (ast.Return, ast.FunctionDef, ast.Lambda, ast.Global,
                              ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.ClassDef)):
                raise Untranslatable(f"{compiled.name}: {type(n).__name__} in the body")
            if isinstance(n, ast.Name) and n.id.startswith("_g") and n.id[2:].isdigit():
                raise Untranslatable(f"{compiled.name}: name {n.id} clashes with a block local")
    module = ast.Module(body=kept, type_ignores=[])
    module = _Fold(consts).visit(module)
    stmts = module.body
    ret = stmts.pop()
    if not isinstance(ret, ast.Return):
        raise Untranslatable(f"{compiled.name}: final return folded away")
    stores = _touches_memory(stmts)
    if _sees_register_file(stmts + [ast.Expr(ret.value)]):
        return Specialised(stmts, ret.value, False, set(), stores)
    loc = _Localise()
    stmts = [loc.visit(st) for st in stmts]
    next_pc = loc.visit(ret.value)
    return Specialised(stmts, next_pc, True, loc.regs, stores)
