"""One instruction's compiled page, specialised for one word at one address.

The page's ``sem`` function (isa_ext.pseudocode.compiler.Compiled.source) is
parsed back into a Python AST; its field parameters, ``_crf`` and ``CIA``
become constants and the expressions and ``if`` statements those make constant
are folded.  What is left is a list of statements a block inlines, with GPR
accesses ``G[n]`` at constant ``n`` renamed to the block's locals ``_gN`` when
nothing else in the body could see the register file.
"""
import ast
import copy
import operator
import re
import sys

from ..machine import HOST_LITTLE as _HOST_LITTLE


# names a block (block.py) uses itself, besides its GPR locals _gN
BLOCK_NAMES = frozenset({"_n", "_nia", "_t", "_e", "_cw", "_budget", "_LINES", "_AFTER",
                         "_k", "_r", "_sim", "_Trap", "_with_steps", "_eo", "_noirq",
                         "_PG", "_a", "_p", "_o", "_pk", "_cp", "_U1", "_U2", "_U4", "_U8",
                         "_P1", "_P2", "_P4", "_P8", "_w", "_BA", "_V",
                         "_R2", "_R4", "_R8", "_W1", "_W2", "_W4", "_W8"})
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


_DOUBLED = (1 << 32) + 1  # w * _DOUBLED puts a word in both halves (ROTL32)


def _drop_doubled_word(node):
    """``(w * (2^32 + 1)) & m`` is ``w & m`` when ``m`` is within 32 bits:
    the low half of the doubled word is w's low half (w * 2**32 adds nothing
    below bit 32, for any int w)."""
    if not (isinstance(node.op, ast.BitAnd) and _is_int_const(node.right) and
            type(node.right.value) is int and 0 <= node.right.value <= 0xFFFFFFFF):
        return None
    left = node.left
    if not (isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mult) and
            _is_int_const(left.right) and left.right.value == _DOUBLED):
        return None
    return ast.copy_location(ast.BinOp(left.left, ast.BitAnd(), node.right), node)


# the state's plain registers and their widths (XER's SO, OV, CA are bits)
_STATE_BITS = {"so": 1, "ov": 1, "ca": 1, "ov32": 1, "ca32": 1,
               "msr": 64, "ctr": 64, "lr": 64, "tar": 64}


def _bits(node):
    """A bound b on an int expression's value: 0 <= value < 2**b (a register
    is 64 bits, a CR field 4), or None where there is none known (or the
    value may be negative)."""
    r = _range(node)
    return None if r is None or r[0] < 0 else (r[1] - 1).bit_length()


def _union(a, b):
    return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))


def _range(node, env=None):
    """(lo, hi) with lo <= the int expression's value < hi, or None where no
    bound is known; ``env``: the bounds of temporaries (_temp_ranges)."""
    env = env or {}
    if _is_int_const(node):
        return (node.value, node.value + 1) if type(node.value) is int else None
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id[:2] == "_c" and node.id[2:].isdigit():
            return (0, 16)
        if node.id.startswith("_s_") and node.id[3:] in _STATE_BITS:
            return (0, 1 << _STATE_BITS[node.id[3:]])
    if _is_cr_field(node):
        return (0, 16)
    if _is_register(node):
        return (0, 1 << 64)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id == "s" and node.attr in _STATE_BITS:
        return (0, 1 << _STATE_BITS[node.attr])
    if isinstance(node, ast.IfExp):
        test = node.test   # (_SmallIntArith's forms: the value tested held in a name)
        if isinstance(test, ast.Compare) and isinstance(test.left, ast.NamedExpr):
            env = dict(env, **{test.left.target.id: _range(test.left.value, env)})
        return _union(_range(node.body, env), _range(node.orelse, env))
    if isinstance(node, ast.NamedExpr):
        return _range(node.value, env)
    if not isinstance(node, ast.BinOp):
        return None
    op, a, b = node.op, _range(node.left, env), _range(node.right, env)
    if isinstance(op, ast.BitAnd):   # x & m lies in 0..m for any int x (m >= 0)
        known = [r[1] - 1 for r in (a, b) if r is not None and r[0] >= 0]
        return (0, min(known) + 1) if known else None
    if a is None or b is None:
        return None
    if isinstance(op, ast.Add):
        return (a[0] + b[0], a[1] + b[1] - 1)
    if isinstance(op, ast.Sub):
        return (a[0] - b[1] + 1, a[1] - b[0])
    if isinstance(op, (ast.BitOr, ast.BitXor)) and a[0] >= 0 and b[0] >= 0:
        return (0, 1 << max(a[1] - 1, b[1] - 1).bit_length())
    if isinstance(op, (ast.RShift, ast.LShift)) and b[1] - b[0] == 1 and 0 <= b[0] <= 128:
        k = b[0]
        if isinstance(op, ast.RShift):   # (floor division by 2**k: monotonic)
            return (a[0] >> k, ((a[1] - 1) >> k) + 1)
        return (a[0] << k, ((a[1] - 1) << k) + 1)
    if isinstance(op, ast.Mult) and a[0] >= 0 and b[0] >= 0:
        return (a[0] * b[0], (a[1] - 1) * (b[1] - 1) + 1)
    return None


def _masked_out(term, m):
    """Whether ``term & m`` is 0 for every value of ``term`` (m >= 0): a shift
    left by k past m's bits, or a term whose bound lies below m's lowest bit
    (a rotation's other half: sldi's x >> 62 under ...11100, srdi's x << 61
    under 2**61 - 1)."""
    if isinstance(term, ast.BinOp) and isinstance(term.op, ast.LShift) and \
            _is_int_const(term.right) and type(term.right.value) is int and \
            0 <= term.right.value and m < 1 << term.right.value:
        return True
    b = _bits(term)
    return b is not None and m & ((1 << b) - 1) == 0


_S64 = 1 << 63


def _low_bits(node, k):
    """``node`` (an int expression) with what does not change its low ``k``
    bits (k <= 64) taken away: ``(x ^ 2**63) - 2**63`` (a 64-bit value made
    signed) is x modulo 2**64, and a mask of j >= k low bits changes none of
    them, under +, -, *, << and the bitwise operators (which keep the low k
    bits of a result a function of their operands' low k bits).  The same
    node where there is nothing to take."""
    if not isinstance(node, ast.BinOp):
        return node
    op = node.op
    if isinstance(op, ast.Sub) and _is_int_const(node.right) and node.right.value == _S64 and \
            isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.BitXor) and \
            _is_int_const(node.left.right) and node.left.right.value == _S64:
        return _low_bits(node.left.left, k)
    if isinstance(op, ast.BitAnd) and _is_int_const(node.right) and \
            type(node.right.value) is int and node.right.value >= (1 << k) - 1 and \
            node.right.value & (node.right.value + 1) == 0:
        return _low_bits(node.left, k)
    if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)):
        left, right = _low_bits(node.left, k), _low_bits(node.right, k)
    elif isinstance(op, ast.LShift):
        left, right = _low_bits(node.left, k), node.right
    else:
        return node
    if left is node.left and right is node.right:
        return node
    return ast.copy_location(ast.BinOp(left, op, right), node)


def _truth(test):
    """An ``if``'s test in a cheaper form with the same truth: ``t ^ 0`` is
    ``t``, ``b ^ 1`` of a bit b is ``not b``, a bit test ``(x >> k) & 1``
    is ``x & (1 << k)`` (a branch's condition: ``CR[BI] ^ BO bit``), and
    ``x >> k`` of a non-negative x is ``x >= 2**k``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand)
        if isinstance(inner, ast.UnaryOp) and isinstance(inner.op, ast.Not):
            return inner.operand
        return ast.copy_location(ast.UnaryOp(ast.Not(), inner), test)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and \
            isinstance(test.ops[0], (ast.Eq, ast.NotEq)) and _is_bit(test.left) and \
            _is_int_const(test.comparators[0]) and test.comparators[0].value in (0, 1):
        # b == 1 and b != 0 are b; b == 0 and b != 1 are not b
        same = (test.comparators[0].value == 1) == isinstance(test.ops[0], ast.Eq)
        return _truth(test.left if same else ast.copy_location(
            ast.UnaryOp(ast.Not(), test.left), test))
    if not isinstance(test, ast.BinOp) or not _is_int_const(test.right):
        return test
    k = test.right.value
    if isinstance(test.op, ast.BitXor) and k == 0:
        return _truth(test.left)
    if isinstance(test.op, ast.BitXor) and k == 1 and _is_bit(test.left):
        return _truth(ast.copy_location(ast.UnaryOp(ast.Not(), test.left), test))
    left = test.left
    if isinstance(test.op, ast.RShift) and type(k) is int and 0 <= k <= 128 and \
            _bits(left) is not None:
        # x >> k of a non-negative x is nonzero where x >= 2**k (bdnz's MSR.SF
        # test: no shifted copy of a 64-bit value made)
        return ast.copy_location(ast.Compare(left, [ast.GtE()], [ast.Constant(1 << k)]), test)
    if isinstance(test.op, ast.BitAnd) and k == 1 and isinstance(left, ast.BinOp) and \
            isinstance(left.op, ast.RShift) and _is_int_const(left.right) and \
            type(left.right.value) is int and 0 <= left.right.value <= 64:
        return ast.copy_location(
            ast.BinOp(left.left, ast.BitAnd(), ast.Constant(1 << left.right.value)), test)
    return test


def _plain_spr(call, method, nargs):
    """The attribute of ``s.<method>(n, ...)`` for a constant n of
    machine.SPR_PLAIN (a plain attribute the block may hold in a local, where
    the call would hand the whole state on), or None."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and
            call.func.attr == method and isinstance(call.func.value, ast.Name) and
            call.func.value.id == "s" and len(call.args) == nargs and not call.keywords and
            _is_int_const(call.args[0])):
        return None
    from ..machine import SPR_PLAIN
    return SPR_PLAIN.get(call.args[0].value)


class _Fold(ast.NodeTransformer):
    """Fields to constants, then constant expressions and branches folded and
    the library's CR helpers with constant bit numbers inlined
    (library.INLINE)."""

    def __init__(self, consts, namespace=None, values=None, library=None):
        self.consts = consts
        self.namespace = namespace or {}
        # the helper tables the page was compiled with (extension.Library)
        if library is None:
            from ..extension import base_library_tables
            library = base_library_tables()
        self.lib = library
        self.values = values or {}  # temporary -> every constant it may hold

    def _inline_source(self, node):
        """The inline form of a library helper call, or None."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or node.keywords:
            return None
        form = self.lib.inline.get(node.func.id)
        if form is None or self.namespace.get(node.func.id) is not self.lib.runtime.get(
                node.func.id):
            return None
        args = [a.value if _is_int_const(a) else a.id if isinstance(a, ast.Name)
                else ast.unparse(a) for a in node.args]
        try:
            return form(*args)
        except TypeError:  # another arity
            return None

    def visit_Assign(self, node):
        """``t = helper(...)`` with a statement form (library.INLINE_ASSIGN)."""
        self.generic_visit(node)
        c = node.value
        if not (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and
                isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and
                not c.keywords and all(_is_int_const(a) or isinstance(a, ast.Name)
                                       for a in c.args)):
            return node
        form = self.lib.inline_assign.get(c.func.id)
        if form is None or self.namespace.get(c.func.id) is not self.lib.runtime.get(c.func.id):
            return node
        src = form(node.targets[0].id, *[a.value if _is_int_const(a) else a.id
                                         for a in c.args])
        if src is None:
            return node
        return ast.parse(src).body  # final as written (it calls the helper itself)

    def visit_Expr(self, node):
        self.generic_visit(node)
        spr = _plain_spr(node.value, "spr_write", 2)
        if spr is not None:   # mtspr of LR, CTR, TAR: the attribute's write
            v = node.value.args[1]   # (a GPR holds 64 bits already)
            return ast.copy_location(ast.Assign(
                [ast.Attribute(ast.Name("s", ast.Load()), spr, ast.Store())],
                v if _is_register(v) else ast.BinOp(v, ast.BitAnd(), ast.Constant(_M64))),
                node)
        src = self._inline_source(node.value)
        if src is None:
            return node
        return self.visit(ast.parse(src).body[0])

    def visit_Call(self, node):
        self.generic_visit(node)
        spr = _plain_spr(node, "spr_read", 1)
        if spr is not None:   # mfspr of LR, CTR, TAR: the attribute
            return ast.copy_location(ast.Attribute(ast.Name("s", ast.Load()), spr,
                                                   ast.Load()), node)
        src = self._inline_source(node)
        if src is None or "=" in src.replace("==", "").replace("!=", "").replace(
                "<=", "").replace(">=", ""):
            return node
        return self.visit(ast.parse(src, mode="eval").body)

    def visit_BinOp(self, node):
        node = self._visit_binop(node)
        if not isinstance(node, ast.BinOp):
            return node
        if isinstance(node.op, (ast.LShift, ast.RShift)) and _is_int_const(node.right) and \
                type(node.right.value) is int:
            k = node.right.value
            # x << 0 and x >> 0 are x (a rotation by 0: clrlwi, clrldi)
            if k == 0 and _is_int_typed(node.left):
                return node.left
            # (x & m) >> k is 0 where m has no bit from k up (a word rotated by 0:
            # its high half shifted down), and so is a register's >> 64 or more
            left = node.left
            if isinstance(node.op, ast.RShift) and k > 0 and (
                    isinstance(left, ast.BinOp) and isinstance(left.op, ast.BitAnd) and
                    _is_int_const(left.right) and type(left.right.value) is int and
                    0 <= left.right.value < 1 << k or
                    k >= 64 and _is_register(left) and not _is_cr_field(left)):
                return ast.copy_location(ast.Constant(0), node)
        # under a mask of k <= 64 low bits only the operands' low k bits count:
        # a 64-bit value's sign extension and masks of k bits or more go
        # (mulld, maddld: (a*b + c) & M64, not through signed values and 128 bits)
        if isinstance(node.op, ast.BitAnd) and _is_int_const(node.right) and \
                type(node.right.value) is int and 0 < node.right.value <= _M64 and \
                node.right.value & (node.right.value + 1) == 0:
            low = _low_bits(node.left, node.right.value.bit_length())
            if low is not node.left:
                node.left = low
                return self.visit_BinOp(node)
        # (x ^ a) ^ b is x ^ (a ^ b): a branch's condition bit inverted twice
        if isinstance(node.op, ast.BitXor) and _is_int_const(node.right) and \
                isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.BitXor) and \
                _is_int_const(node.left.right) and type(node.right.value) is int and \
                type(node.left.right.value) is int:
            node.right = ast.copy_location(
                ast.Constant(node.left.right.value ^ node.right.value), node.right)
            node.left = node.left.left
        # (x & a) & b is x & (a & b): a result masked twice (a sum, then to 64 bits)
        if isinstance(node.op, ast.BitAnd) and _is_int_const(node.right) and \
                isinstance(node.left, ast.BinOp) and isinstance(node.left.op, ast.BitAnd) and \
                _is_int_const(node.left.right) and type(node.right.value) is int and \
                type(node.left.right.value) is int:
            node.right = ast.copy_location(
                ast.Constant(node.left.right.value & node.right.value), node.right)
            node.left = node.left.left
        narrowed = _drop_doubled_word(node)
        if narrowed is not None:
            return self.visit_BinOp(narrowed)
        if isinstance(node.op, ast.BitAnd) and _is_int_const(node.right) and \
                type(node.right.value) is int and node.right.value >= 0:
            node = self._by_bounds(node)
            if not isinstance(node, ast.BinOp):
                return node
        # x | x and x & x are x (mr is or RA,RS,RS)
        if isinstance(node.op, (ast.BitOr, ast.BitAnd)) and _is_register(node.left) and \
                ast.dump(node.left) == ast.dump(node.right):
            return node.left
        for one, other in ((node.left, node.right), (node.right, node.left)):
            if not _is_int_const(one):
                continue
            # 1 | b is 1 for a b that is 0 or 1 (a condition's "or" with a constant)
            if isinstance(node.op, ast.BitOr) and one.value == 1 and _is_bit(other) and \
                    _is_pure(other, self.values):
                return ast.copy_location(ast.Constant(1), node)
            # x | 0 and x ^ 0 are x for an int x (not for a bool: True ^ 0 is 1)
            if isinstance(node.op, (ast.BitOr, ast.BitXor)) and one.value == 0 and \
                    _is_int_typed(other):
                return other
            # x + 0, 0 + x and x - 0 are x for a register (a zero displacement's
            # EA is (RA) + 0); not for any int-typed x: a float -0.0 + 0 is 0.0
            if (isinstance(node.op, ast.Add) or isinstance(node.op, ast.Sub) and
                    one is node.right) and one.value == 0 and _is_register(other):
                return other
        return node

    def _by_bounds(self, node):
        """``e & m`` (m >= 0) folded by what e's bound tells."""
        m, left = node.right.value, node.left
        # (a | b) & m is a & m where b & m is always 0 (a rotation whose
        # wrapped-round half the mask takes away: sldi, srdi, slwi, srwi)
        if isinstance(left, ast.BinOp) and isinstance(left.op, (ast.BitOr, ast.BitXor)):
            for gone, kept in ((left.left, left.right), (left.right, left.left)):
                if _masked_out(gone, m) and _is_pure(gone, self.values):
                    node.left = left = kept
                    break
        # e & m is e where e lies within m's low ones (an int e: not a bool)
        b = _bits(left)
        if b is not None and m & ((1 << b) - 1) == (1 << b) - 1 and _is_int_typed(left):
            return left
        return node

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.consts:
            return ast.copy_location(ast.Constant(self.consts[node.id]), node)
        if isinstance(node.ctx, ast.Store) and node.id in self.consts and \
                not _temp(node.id):
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

    def _visit_binop(self, node):
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
        # a comparison its operands' bounds decide (a mask bound of 0..63
        # against 0 or 63: sld's MASK(0, 63 - n))
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.LtE, ast.GtE)):
            low, high = (node.left, node.comparators[0]) if isinstance(node.ops[0], ast.LtE) \
                else (node.comparators[0], node.left)
            if _is_int_const(low) and type(low.value) is int and low.value <= 0 and \
                    _bits(high) is not None and _is_pure(high, self.values) or \
                    _is_int_const(high) and type(high.value) is int and \
                    _bits(low) is not None and (1 << _bits(low)) - 1 <= high.value and \
                    _is_pure(low, self.values):
                return ast.copy_location(ast.Constant(True), node)
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
        node.test = _truth(node.test)
        if _is_int_const(node.test):
            return node.body if node.test.value else node.orelse
        return node

    def visit_If(self, node):
        self.generic_visit(node)
        test = node.test  # a test "1 & b" with b 0 or 1 is b
        if isinstance(test, ast.BinOp) and isinstance(test.op, ast.BitAnd):
            for one, other in ((test.left, test.right), (test.right, test.left)):
                if _is_int_const(one) and one.value == 1 and _is_bit(other):
                    node.test = other
                    break
        node.test = _truth(node.test)
        if _is_int_const(node.test):
            return (node.body if node.test.value else node.orelse) or []
        if not node.body:
            node.body = [ast.Pass()]
        return node

    def visit_For(self, node):
        self.generic_visit(node)
        unrolled = _unrolled(node, self.namespace)
        if unrolled is None:
            return node
        out = []
        for st in unrolled:
            done = self.visit(st)
            out.extend(done if isinstance(done, list) else [done] if done is not None else [])
        return out

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and not stmts and isinstance(
                    node, (ast.For, ast.While, ast.Try, ast.With)) and field == "body":
                setattr(node, field, [ast.Pass()])
        return node


_PURE_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.BitOr, ast.BitAnd, ast.BitXor)
# a loop over a constant range of at most this many values, with a body of at
# most _UNROLL_NODES nodes, is unrolled (mtcrf's and mfocrf's eight CR fields:
# each copy's count is a constant, so its field mask test folds)
UNROLL_MAX = 8
_UNROLL_NODES = 200


class _Count(ast.NodeTransformer):
    """A loop variable's reads replaced by one iteration's value."""

    def __init__(self, name, value):
        self.name, self.value = name, value

    def visit_Name(self, node):
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Constant(self.value), node)
        return node


def _unrolled(node, namespace):
    """``for v in range(a, b): body`` (constants, b - a <= UNROLL_MAX, no
    break, continue or else, v not assigned in the body) as the body once per
    value with v's reads its value, then ``v = b - 1`` (the value the loop
    leaves); None where it is not such a loop."""
    it = node.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and
            it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 2 and
            all(_is_int_const(a) and type(a.value) is int for a in it.args) and
            isinstance(node.target, ast.Name) and not node.orelse and
            (namespace or {}).get("range", range) is range):
        return None
    lo, hi = (0, it.args[0].value) if len(it.args) == 1 else (it.args[0].value, it.args[1].value)
    name = node.target.id
    nodes = [n for st in node.body for n in ast.walk(st)]
    if hi - lo > UNROLL_MAX or len(nodes) > _UNROLL_NODES or any(
            isinstance(n, (ast.Break, ast.Continue, ast.FunctionDef, ast.Lambda, ast.Yield,
                           ast.ClassDef)) or
            isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
            for n in nodes):
        return None
    out = [_Count(name, k).visit(copy.deepcopy(st)) for k in range(lo, hi) for st in node.body]
    if hi > lo:
        out.append(ast.Assign([ast.Name(name, ast.Store())], ast.Constant(hi - 1), lineno=0))
    return [ast.fix_missing_locations(ast.copy_location(st, node)) for st in out]


def _shift_count_ok(node, values):
    """Whether a shift count is 0.._MAX_FOLDED_BITS for every value its
    temporaries may hold (so the shift cannot raise)."""
    if _is_int_const(node):
        return 0 <= node.value <= _MAX_FOLDED_BITS
    b = _bits(node)
    if b is not None and (1 << b) - 1 <= _MAX_FOLDED_BITS:
        return True
    names = sorted(_loads([node]))
    if not names or any(n not in values for n in names):
        return False
    combos = [{}]
    for n in names:
        combos = [dict(c, **{n: v}) for c in combos for v in values[n]]
        if len(combos) > 16:
            return False
    for c in combos:
        v = _Fold(c).visit(copy.deepcopy(node))
        if not (_is_int_const(v) and 0 <= v.value <= _MAX_FOLDED_BITS):
            return False
    return True


def _is_register(node):
    """A GPR or CR field read (an int): ``G[n]``, ``CRF[n]`` or a block's ``_gN``."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id in ("G", "CRF")
    return isinstance(node, ast.Name) and node.id.startswith("_g") and node.id[2:].isdigit()


def _is_cr_field(node):
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
        node.value.id == "CRF"


def _is_int_typed(node):
    """An expression whose value is an int (not a bool)."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.BitOr, ast.BitAnd, ast.BitXor)):
            return _is_int_typed(node.left) or _is_int_typed(node.right)
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.Invert))
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and node.value.id in ("G", "CRF")
    if isinstance(node, ast.Name):
        return node.id.startswith("_g")
    if isinstance(node, ast.Attribute):   # a plain register of the state (s.ctr)
        return isinstance(node.value, ast.Name) and node.value.id == "s" and \
            node.attr in _STATE_BITS
    return False


def _is_pure(node, values=None):
    """An expression that cannot raise or change anything: dropping it when
    its value is unused changes nothing (the per-instruction path included).
    ``values``: temporaries whose every possible value is known."""
    values = values or {}
    if isinstance(node, (ast.Constant, ast.Name)):
        return True
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, (ast.LShift, ast.RShift)):
            ok = _shift_count_ok(node.right, values)
        else:
            ok = isinstance(node.op, _PURE_BINOPS)
        return ok and _is_pure(node.left, values) and _is_pure(node.right, values)
    if isinstance(node, ast.UnaryOp):
        return _is_pure(node.operand, values)
    if isinstance(node, ast.Compare):
        return _is_pure(node.left, values) and all(_is_pure(c, values)
                                                   for c in node.comparators)
    if isinstance(node, ast.BoolOp):
        return all(_is_pure(v, values) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _is_pure(node.test, values) and _is_pure(node.body, values) and \
            _is_pure(node.orelse, values)
    if isinstance(node, ast.Subscript):  # a register or CR field at a fixed index
        # (or at an SVP64 template's register number: specialise_template)
        return isinstance(node.value, ast.Name) and node.value.id in ("G", "F", "CRF") and \
            ((_is_int_const(node.slice) and 0 <= node.slice.value < 128) or (
                isinstance(node.slice, ast.Name) and
                (node.slice.id.startswith("f_") or node.slice.id == "_crf")))
    if isinstance(node, ast.Attribute):  # a plain register of the state
        return isinstance(node.value, ast.Name) and node.value.id == "s" and \
            node.attr in _STATE_BITS
    return False


def _is_bit(node):
    """An expression whose value is 0 or 1 (False or True)."""
    if _is_int_const(node):
        return node.value in (0, 1)
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return True
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.BitAnd):
            return _is_bit(node.left) or _is_bit(node.right)
        if isinstance(node.op, (ast.BitOr, ast.BitXor)):
            return _is_bit(node.left) and _is_bit(node.right)
        b = _bits(node)   # (a CR field's top bit: CRF[0] >> 3)
        return b is not None and b <= 1
    return False


def _loads(nodes):
    return {n.id for node in nodes for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _stores(nodes):
    return [n.id for node in nodes for n in ast.walk(node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _temp(name):
    """A page's own temporary (a variable or a deferred register write)."""
    return name.startswith(("v_", "w_"))


def _single_target(st):
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and \
            isinstance(st.targets[0], ast.Name):
        return st.targets[0].id
    return None


def _propagate_constants(stmts, tail):
    """A temporary assigned once, at the top level, a constant: its uses take
    the constant.  Returns whether anything changed."""
    counts = {}
    for name in _stores(stmts):
        counts[name] = counts.get(name, 0) + 1
    consts = {}
    for st in stmts:
        name = _single_target(st)
        if name and _temp(name) and counts.get(name) == 1 and _is_int_const(st.value):
            consts[name] = st.value.value
    if not consts:
        return False
    _fold_all(_Fold(consts), stmts, tail)
    return True


def _fold_all(folder, stmts, tail):
    out = []
    for st in stmts:
        r = folder.visit(st)
        out.extend(r if isinstance(r, list) else [r])
    stmts[:] = out
    tail[0] = folder.visit(tail[0])


def _drop_dead(stmts, tail, values=None):
    """Remove assignments to temporaries nothing reads (before the next
    unconditional assignment) and ``if``s left empty, when what they computed
    is pure.  Returns whether anything changed."""
    changed = False
    i = 0
    while i < len(stmts):
        st = stmts[i]
        name = _single_target(st)
        if name and _temp(name) and _is_pure(st.value, values):
            dead = True
            for later in stmts[i + 1:] + [tail[0]]:
                if name in _loads([later]):
                    dead = False
                    break
                if _single_target(later) == name:
                    break
            if dead:
                del stmts[i]
                changed = True
                continue
        if isinstance(st, ast.If):
            for field in ("body", "orelse"):
                sub = getattr(st, field)
                # inside a branch: only what is never read afterwards anywhere
                live = _loads(stmts[i + 1:] + [tail[0]])
                kept = [s for s in sub if not (_single_target(s) and _temp(_single_target(s))
                                               and _is_pure(s.value, values)
                                               and _single_target(s) not in live
                                               and _single_target(s) not in _loads(sub))]
                if len(kept) != len(sub):
                    changed = True
                    setattr(st, field, kept)
            body_empty = all(isinstance(s, ast.Pass) for s in st.body)
            else_empty = all(isinstance(s, ast.Pass) for s in st.orelse)
            if body_empty and else_empty and _is_pure(st.test, values):
                del stmts[i]
                changed = True
                continue
            if not st.body:
                st.body = [ast.Pass()]
        i += 1
    return changed


def _value_sets(stmts):
    """{temporary: its possible values} for each temporary every assignment of
    which (anywhere in the body) is a constant."""
    assigned, const_assigned = {}, {}
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                assigned[n.id] = assigned.get(n.id, 0) + 1
            name = _single_target(n) if isinstance(n, ast.Assign) else None
            if name and _is_int_const(n.value):
                const_assigned.setdefault(name, []).append(n.value.value)
    return {k: frozenset(v) for k, v in const_assigned.items()
            if _temp(k) and assigned.get(k) == len(v)}


def _hoist_repeated_compare(stmts):
    """``if L < R: ... elif L > R: ...`` (a signed comparison's two tests) with
    the same pure, non-trivial L and R: they are computed once, before the
    ``if``, into temporaries (nothing runs between the two tests)."""
    out, count = [], 0
    for st in stmts:
        if isinstance(st, ast.If) and isinstance(st.test, ast.Compare) and \
                len(st.orelse) == 1 and isinstance(st.orelse[0], ast.If) and \
                isinstance(st.orelse[0].test, ast.Compare):
            a, b = st.test, st.orelse[0].test
            sides = [a.left] + a.comparators
            if len(sides) == 2 and ast.dump(a.left) == ast.dump(b.left) and \
                    len(b.comparators) == 1 and \
                    ast.dump(a.comparators[0]) == ast.dump(b.comparators[0]):
                new = []
                for j, side in enumerate(sides):
                    if isinstance(side, (ast.Name, ast.Constant)) or not _is_pure(side):
                        continue
                    name = f"v__cmp{count}_{j}"
                    out.append(ast.Assign([ast.Name(name, ast.Store())], side, lineno=0))
                    new.append((j, ast.Name(name, ast.Load())))
                for j, ref in new:
                    for test in (a, b):
                        if j == 0:
                            test.left = ref
                        else:
                            test.comparators[0] = ref
                count += 1
        out.append(st)
    stmts[:] = out


def simplify(stmts, next_pc):
    """Constant temporaries propagated, dead pure code removed, single uses
    of temporaries inlined, to a fixpoint."""
    tail = [ast.Expr(next_pc)]
    for _ in range(20):
        values = _value_sets(stmts)
        _fold_all(_Fold({}, values=values), stmts, tail)
        if not (_propagate_constants(stmts, tail) | _drop_dead(stmts, tail, values)
                | _inline_single_use(stmts, tail, values)
                | _sink_constant_choice(stmts, tail, values)):
            break
    _hoist_repeated_compare(stmts)
    return stmts, _returned_value(stmts, tail[0].value)


def _returned_value(stmts, value):
    """A body returning a name (``NIA``) that its top level assigns last
    without reading it first (``b``: ``NIA = CIA + 4`` then ``NIA = target``):
    the earlier assignments dropped and the last one's value returned, when
    nothing after it could change what that value reads.  A block then knows
    an unconditional branch's target, and that nothing runs past it."""
    if not isinstance(value, ast.Name):
        return value
    name = value.id
    assigned = [i for i, st in enumerate(stmts) if _single_target(st) == name]
    # (nothing reads it, and nothing but those top-level assignments writes it)
    if not assigned or any(name in _loads([st]) or i not in assigned and name in _stores([st])
                           for i, st in enumerate(stmts)):
        return value
    last = assigned[-1]
    expr = stmts[last].value
    reads = _loads([ast.Expr(expr)])
    later = stmts[last + 1:]
    # (what runs after it may write a register, an attribute, memory: the
    # value moves past it only when it reads none of those)
    if later and (reads & set(_stores(later)) or
                  any(isinstance(n, (ast.Attribute, ast.Subscript, ast.Call))
                      for n in ast.walk(expr))):
        return value
    if not all(_is_pure(stmts[i].value) for i in assigned):
        return value   # (dropping an earlier one must not drop what it did)
    for i in reversed(assigned):
        del stmts[i]
    return expr


class _Replace(ast.NodeTransformer):
    def __init__(self, name, node):
        self.name, self.node, self.count = name, node, 0

    def visit_Name(self, node):
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            self.count += 1
            return copy.deepcopy(self.node)
        return node


def _inline_single_use(stmts, tail, values):
    """``t = e`` (t a temporary, e pure) directly followed by a plain
    assignment reading t once, with t not read afterwards before it is
    assigned again: e moves into that read.  e's names cannot change in
    between (nothing runs in between), and evaluating a pure e later in the
    same statement changes nothing.  Returns whether anything changed."""
    changed = False
    i = 0
    while i + 1 < len(stmts):
        st, nxt = stmts[i], stmts[i + 1]
        name = _single_target(st)
        # ``t = e`` then ``x = t``: e is evaluated at the same point either way,
        # so it need not be pure (an inline load)
        bare = isinstance(nxt, ast.Assign) and isinstance(nxt.value, ast.Name) and \
            nxt.value.id == name
        if name and _temp(name) and (bare or _is_pure(st.value, values)) and \
                isinstance(nxt, ast.Assign) and len(nxt.targets) == 1 and \
                sum(1 for n in ast.walk(nxt.value) if isinstance(n, ast.Name)
                    and n.id == name) == 1 and \
                not any(isinstance(n, ast.Name) and n.id == name
                        for tg in nxt.targets for n in ast.walk(tg)) and \
                _dead_after(name, stmts[i + 2:], tail, _single_target(nxt) == name) and \
                not (any(isinstance(n, ast.Call) and not _reads_only(n)
                         for n in ast.walk(nxt.value)) and
                     any(isinstance(n, (ast.Subscript, ast.Attribute))
                         for n in ast.walk(st.value))):
            # (a call evaluated first may change what a subscript or attribute reads)
            r = _Replace(name, st.value)
            nxt.value = r.visit(nxt.value)
            del stmts[i]
            changed = True
            continue
        # ``t = e`` then ``if ...t...:`` reading t once in its test and nowhere
        # after: the test evaluates e first thing, nothing runs in between
        if name and _temp(name) and _is_pure(st.value, values) and \
                isinstance(nxt, ast.If) and \
                sum(1 for n in ast.walk(nxt.test) if isinstance(n, ast.Name)
                    and n.id == name) == 1 and \
                _is_pure(nxt.test, values) and name not in _loads(nxt.body + nxt.orelse) and \
                name not in _stores(nxt.body + nxt.orelse) and \
                _dead_after(name, stmts[i + 2:], tail, False):
            nxt.test = _Replace(name, st.value).visit(nxt.test)
            del stmts[i]
            changed = True
            continue
        i += 1
    return changed


def _const_branches(node, name):
    """Whether ``node`` is an ``if``/``elif``/``else`` chain each arm of which
    is exactly ``name = <int constant>``."""
    if not isinstance(node, ast.If):
        return False
    for arm in (node.body, node.orelse):
        if len(arm) != 1:
            return False
        st = arm[0]
        if arm is node.orelse and isinstance(st, ast.If):
            if not _const_branches(st, name):
                return False
        elif not (_single_target(st) == name and _is_int_const(st.value)):
            return False
    return True


def _sink_into_branches(node, name, use):
    """Each arm's ``name = c`` -> ``use`` with c for name."""
    for arm in (node.body, node.orelse):
        st = arm[0]
        if isinstance(st, ast.If):
            _sink_into_branches(st, name, use)
        else:
            arm[0] = _Fold({name: st.value.value}).visit(copy.deepcopy(use))


def _sink_constant_choice(stmts, tail, values):
    """``if a: t = 4 elif b: t = 2 else: t = 1`` then ``x = f(t)`` (a pure f
    reading t once, t read nowhere after): each arm assigns ``x = f(c)``
    itself, folded (a compare's CR field without its temporary).  The arms
    only assign t, so f reads the same names at the same point."""
    changed = False
    i = 0
    while i + 1 < len(stmts):
        st, nxt = stmts[i], stmts[i + 1]
        use = nxt if isinstance(nxt, ast.Assign) and len(nxt.targets) == 1 else None
        name = None
        if use is not None and isinstance(st, ast.If) and st.body and \
                _single_target(st.body[0]):
            name = _single_target(st.body[0])
        if name and _temp(name) and _const_branches(st, name) and \
                _is_pure(use.value, values) and \
                sum(1 for n in ast.walk(use.value) if isinstance(n, ast.Name)
                    and n.id == name) == 1 and \
                not any(isinstance(n, ast.Name) and n.id == name
                        for tg in use.targets for n in ast.walk(tg)) and \
                _is_pure(use.targets[0], values) and \
                _dead_after(name, stmts[i + 2:], tail, _single_target(use) == name):
            _sink_into_branches(st, name, use)
            del stmts[i + 1]
            changed = True
        i += 1
    return changed


def _propagate_copies(stmts, next_pc):
    """After localisation: ``t = _gN`` at the top level, t a temporary
    assigned nowhere else and read only after it, ``_gN`` assigned nowhere
    after it: t's reads take ``_gN`` (a local only an assignment changes), the
    copy goes."""
    tail = [ast.Expr(next_pc)]
    counts = {}
    for name in _stores(stmts):
        counts[name] = counts.get(name, 0) + 1
    i = 0
    while i < len(stmts):
        st = stmts[i]
        name = _single_target(st)
        v = st.value if name else None
        if name and _temp(name) and counts.get(name) == 1 and isinstance(v, ast.Name) and \
                v.id.startswith("_g") and v.id[2:].isdigit() and \
                name not in _loads(stmts[:i]) and v.id not in _stores(stmts[i + 1:]):
            r = _Replace(name, v)
            stmts[i + 1:] = [r.visit(later) for later in stmts[i + 1:]]
            tail[0] = r.visit(tail[0])
            del stmts[i]
            continue
        i += 1
    return stmts, tail[0].value


_READ_ONLY_CALLS = frozenset({"_PG", "_U1", "_U2", "_U4", "_U8", "_R2", "_R4", "_R8"})


def _reads_only(call):
    """A call that changes nothing a pure expression reads: an inline load's
    page lookup and unpack, or Memory.read (block_read: the same, and a
    page's views made)."""
    f = call.func
    if isinstance(f, ast.Name):
        return f.id in _READ_ONLY_CALLS
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
        f.value.id == "M" and f.attr in ("read", "block_read")


def _dead_after(name, later, tail, reassigned):
    """Whether ``name`` is not read in ``later`` (nor the tail) before an
    unconditional assignment to it (``reassigned``: already assigned)."""
    if reassigned:
        return True
    for st in later + [tail[0]]:
        if name in _loads([st]):
            return False
        if _single_target(st) == name:
            return True
    return True


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
    """One word's page body, ready to paste into a block: ``lines`` of Python
    (the body without its prologue and final return), ``next_src`` (the
    returned expression; ``CIA + 4`` for straight-line code), whether the body
    reads ``CIA`` (the block binds it first), ``localised`` (GPRs renamed to
    the block's locals ``_gN``: ``regs``, written ``written``; else the body
    uses ``G`` itself and the block flushes its locals around it), ``stores``
    (may write memory) and ``names`` (the globals it uses)."""

    def __init__(self, stmts, next_pc, localised, regs, stores, length=4):
        self.lines = [line for st in stmts for line in ast.unparse(st).splitlines()]
        self.next_src = ast.unparse(next_pc)
        nodes = stmts + [ast.Expr(next_pc)]
        loads = _loads(nodes)
        self.uses_cia = "CIA" in loads
        self.falls_through = isinstance(next_pc, ast.BinOp) and \
            isinstance(next_pc.op, ast.Add) and isinstance(next_pc.left, ast.Name) and \
            next_pc.left.id == "CIA" and _is_int_const(next_pc.right) and \
            next_pc.right.value == length
        self.localised, self.regs, self.stores = localised, regs, stores
        self.written = {int(n[2:]) for n in _stores(nodes) if n.startswith("_g")
                        and n[2:].isdigit()}
        self.names = loads


def _sem_body(compiled):
    tree = ast.parse(compiled.source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "sem":
            return node
    raise Untranslatable(f"no sem function in {compiled.name}")


def fn_globals(compiled):
    return compiled.sem.__globals__


def specialise(compiled, fields, cache=None, word=None, overrides=None):
    """The body of ``compiled`` for these field values (any address: the body
    reads ``CIA``).  ``cache`` (a dict, keyed by ``word``) keeps it for the
    next block holding the same word: parsing and simplifying costs
    milliseconds.  ``overrides``: values for parameters with defaults (an
    SVP64 element's Rc=1 field ``_crf``)."""
    return cached(cache, word, lambda: _specialise_stored(compiled, fields, overrides or {}))


def _specialise_stored(compiled, fields, overrides):
    """_specialise_word, through the store kept across runs (translate/store.py)."""
    from . import store
    k = store.key(compiled, fields, overrides)
    got = store.load(k)
    if isinstance(got, Specialised):
        return got
    sp = _specialise_word(compiled, fields, overrides)
    # what a block reads of its lines (parsing them again: on PyPy before its
    # JIT warms up, two thirds of a block's translation), stored with them
    from .block import locals_info
    locals_info(sp)
    store.save(k, sp)
    return sp


_CACHE_KEPT = 50_000


def cached(cache, key, build, kept=_CACHE_KEPT):
    """``build()`` memoised in ``cache`` (None: not memoised), which is emptied
    when it reaches ``kept`` entries; an Untranslatable is remembered too
    and raised again."""
    got = cache.get(key) if cache is not None else None
    if got is None:
        try:
            got = build()
        except Untranslatable as e:
            got = e
        if cache is not None:
            if len(cache) >= kept:
                cache.clear()
            cache[key] = got
    if isinstance(got, Untranslatable):
        raise got
    return got


def _specialise_word(compiled, fields, overrides, symbolic=()):
    fn = _sem_body(compiled)
    body = list(fn.body)
    consts = {f"f_{p}": fields[p] for p in compiled.params}
    consts.update(overrides)
    for name in symbolic:
        consts.pop(name, None)
    args = fn.args.args  # parameters with defaults (_crf: CR0, or CR1 for FP Rc=1)
    for a, dflt in zip(args[len(args) - len(fn.args.defaults):], fn.args.defaults):
        if a.arg not in consts and a.arg not in symbolic:
            if not _is_int_const(dflt):
                raise Untranslatable(f"{compiled.name}: default of {a.arg} is not a number")
            consts[a.arg] = dflt.value
    missing = [a.arg for a in args if a.arg not in consts and a.arg not in ("s", "CIA")
               and a.arg not in symbolic]
    if missing:
        raise Untranslatable(f"{compiled.name}: no value for {missing}")
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
            if isinstance(n, ast.Name) and (n.id in BLOCK_NAMES or n.id.startswith("_s_") or (
                    n.id[:2] in ("_g", "_X", "_c") and n.id[2:].isdigit())):
                raise Untranslatable(f"{compiled.name}: name {n.id} clashes with a block local")
    module = ast.Module(body=kept, type_ignores=[])
    module = _Fold(consts, fn_globals(compiled), library=compiled.library).visit(module)
    stmts = module.body
    ret = stmts.pop()
    if not isinstance(ret, ast.Return):
        raise Untranslatable(f"{compiled.name}: final return folded away")
    stmts, next_value = simplify(stmts, ret.value)
    stmts, next_value = _inline_late(stmts, next_value, compiled)
    ret = ast.Return(next_value)
    if symbolic:
        stmts = _placeholders(stmts + [ast.Expr(ret.value)], set(symbolic))
        ret = ast.Return(stmts.pop().value)
    stores = _touches_memory(stmts)
    inline = _InlineLoads()
    stmts = [r for st in stmts for r in (lambda v: v if isinstance(v, list) else [v])(
        inline.visit(st))]
    if inline.changed:  # the effective address moves into the access, masks fold
        stmts, next_value = simplify(stmts, ret.value)
        stmts = [_UnreducedAddresses().visit(st) for st in stmts]
        ret = ast.Return(next_value)
    if _sees_register_file(stmts + [ast.Expr(ret.value)]):
        stmts, next_value = _for_interpreter(stmts, ret.value)
        return Specialised(stmts, next_value, False, set(), stores, compiled.length)
    loc = _Localise()
    stmts = [loc.visit(st) for st in stmts]
    next_pc = loc.visit(ret.value)
    stmts, next_pc = _propagate_copies(stmts, next_pc)
    # a register moved to itself once localised (nop's ori 0,0,0, mr 3,3): nothing
    stmts = [st for st in stmts if not (
        isinstance(st, ast.Assign) and len(st.targets) == 1 and
        isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Name) and
        st.targets[0].id == st.value.id)]
    stmts, next_pc = _for_interpreter(stmts, next_pc)
    return Specialised(stmts, next_pc, True, loc.regs, stores, compiled.length)


def _inline_late(stmts, next_value, compiled):
    """Inline the library helpers whose arguments became constant only once
    temporaries were propagated (a rotation's count, a mask's bounds built
    from split fields), then simplify again."""
    before = [ast.dump(st) for st in stmts]
    tail = [ast.Expr(next_value)]
    _fold_all(_Fold({}, fn_globals(compiled), library=compiled.library), stmts, tail)
    if [ast.dump(st) for st in stmts] == before:
        return stmts, tail[0].value
    return simplify(stmts, tail[0].value)


# PyPy's ints are machine words up to 2**63 - 1 and big integers above: the
# pages' 64-bit masks and their constants of 2**63 and more make every
# operation on them a big-integer one (about 50x a machine-word one in its
# JIT, 1 ns against 50).  On PyPy the specialised bodies take exact
# equivalents that stay in machine words while the values are below 2**63.
PYPY_ARITH = sys.implementation.name == "pypy"
_M64 = (1 << 64) - 1


def _for_interpreter(stmts, next_value):
    tx = _MachineWordArith() if PYPY_ARITH else _SmallIntArith(stmts + [ast.Expr(next_value)])
    stmts = [ast.fix_missing_locations(tx.visit(st)) for st in stmts]
    return stmts, ast.fix_missing_locations(tx.visit(next_value))


def _temp_ranges(nodes):
    """The bounds of the names assigned only by plain assignments, every one
    of a known bound (a name's bound is its assignments' union, wherever it
    is read: a page's temporaries are assigned before they are read)."""
    assigned, stores = {}, {}
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and \
                    isinstance(n.targets[0], ast.Name):
                assigned.setdefault(n.targets[0].id, []).append(n.value)
            elif isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                stores[n.id] = stores.get(n.id, 0) + 1
    # (a name stored otherwise too: a walrus, a loop's variable, del)
    todo = {name: values for name, values in assigned.items()
            if stores.get(name) == len(values)}
    env, grew = {}, True
    while grew:
        grew = False
        for name, values in list(todo.items()):
            r = (None, None)
            for v in values:
                got = _range(v, env)
                r = got if r == (None, None) else _union(r, got)
                if r is None:
                    break
            if r is not None:
                env[name] = r
                del todo[name]
                grew = True
    return env


class _SmallIntArith(ast.NodeTransformer):
    """CPython's ints of one 30-bit digit have fast paths; an operation on
    a value of 2**63 and more (the pages' 64-bit mask, ``x ^ 2**63``) is a
    big-integer one, several times slower.  Exact forms that stay small while
    the values are (each operand's bound proven by ``_range``):

    * ``e & M64`` -> ``e`` where e lies in 0 .. 2**64 - 1;
      ``(_w if (_w := e) >= 0 else _w + 2**64)`` where e lies in
      -2**64 .. 2**64 - 1 (a difference of registers, or a register plus a
      negative constant: ``a + c`` with ``c >= 2**63`` is taken as
      ``a - (2**64 - c)`` first); ``(_w if (_w := e) <= M64 else _w - 2**64)``
      where e lies in 0 .. 2**65 - 1 (a sum of registers);
    * ``(a ^ M64) + b + 1`` (``~a + b + 1``, subf) under the mask -> ``b - a``;
    * ``(e ^ 2**k) - 2**k`` (e's low k + 1 bits made signed) with e in
      0 .. 2**(k+1) - 1 -> ``(_w - 2**(k+1) if (_w := e) >= 2**k else _w)``."""

    def __init__(self, nodes):
        self.env = _temp_ranges(nodes)

    def _leave(self, node):
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _leave
    visit_Lambda = _leave

    def _bound(self, node):
        return _range(node, self.env)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        left, right = node.left, node.right
        if isinstance(node.op, ast.Sub) and _is_int_const(right) and \
                type(right.value) is int and right.value > 0 and \
                right.value & (right.value - 1) == 0 and isinstance(left, ast.BinOp) and \
                isinstance(left.op, ast.BitXor) and _is_int_const(left.right) and \
                left.right.value == right.value:
            k = right.value
            r = self._bound(left.left)
            if r is not None and 0 <= r[0] and r[1] <= 2 * k:
                return self._via_w(left.left, f"_w - {2 * k} if {{}} >= {k} else _w", node)
            return node
        if not (isinstance(node.op, ast.BitAnd) and _is_int_const(right) and
                right.value == _M64):
            return node
        if all(n.id == "CIA" for n in ast.walk(left) if isinstance(n, ast.Name)):
            return node   # a constant once the block pastes the address in
        left = self._complement_sum(left)
        if isinstance(left, ast.BinOp) and isinstance(left.op, (ast.Add, ast.Sub)) and \
                _is_int_const(left.right) and type(left.right.value) is int:
            c = left.right.value if isinstance(left.op, ast.Add) else -left.right.value
            c %= 1 << 64
            c = c - (1 << 64) if c >= 1 << 63 else c   # equal modulo 2**64
            left = ast.BinOp(left.left, ast.Add() if c >= 0 else ast.Sub(),
                             ast.Constant(abs(c)))
        r = self._bound(left)
        if r is None:
            return ast.copy_location(ast.BinOp(left, ast.BitAnd(), right), node) \
                if left is not node.left else node
        if 0 <= r[0] and r[1] <= 1 << 64 and _is_int_typed(left):
            return left
        if -(1 << 64) <= r[0] and r[1] <= 1 << 64:
            return self._via_w(left, f"_w if {{}} >= 0 else _w + {1 << 64}", node)
        if 0 <= r[0] and r[1] <= 1 << 65:
            return self._via_w(left, f"_w if {{}} <= {_M64} else _w - {1 << 64}", node)
        return ast.copy_location(ast.BinOp(left, ast.BitAnd(), right), node)

    def _complement_sum(self, e):
        """``(a ^ M64) + b + 1``: ``b - a``, equal modulo 2**64 (the low 64
        bits of a ^ M64 are those of -1 - a, for any int a)."""
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add) and \
                _is_int_const(e.right) and e.right.value == 1 and \
                isinstance(e.left, ast.BinOp) and isinstance(e.left.op, ast.Add) and \
                isinstance(e.left.left, ast.BinOp) and isinstance(e.left.left.op, ast.BitXor) \
                and _is_int_const(e.left.left.right) and e.left.left.right.value == _M64:
            return ast.BinOp(e.left.right, ast.Sub(), e.left.left.left)
        return e

    @staticmethod
    def _via_w(value, form, like):
        """``form`` (an expression of ``_w`` with one ``{}``: where ``value``
        is tested) with ``value`` held in ``_w``; a name is used as it is."""
        if isinstance(value, ast.Name):
            return _expr("(" + form.replace("_w", value.id).format(value.id) + ")", like)
        return _expr("(" + form.format(f"(_w := {ast.unparse(value)})") + ")", like)


class _MachineWordArith(ast.NodeTransformer):
    """Exact for every int (so the same results on any interpreter):

    * ``(x ^ 2**63) - 2**63`` (the signed value), ``x`` a name ->
      ``(x - 2**64 if x >> 63 & 1 else x)``;
    * ``(a + c) & M64`` with ``c >= 2**63`` -> ``(a - (2**64 - c)) & M64``
      (likewise ``-``): equal modulo 2**64;
    * ``e & M64`` -> ``(_w if not (_w := e) >> 64 else _w & M64)``: the mask
      only where ``e`` is outside 0 .. 2**64 - 1.

    A mask of an expression of ``CIA`` and constants stays: the block's
    address makes it a constant.  Comprehensions and lambdas are left alone
    (an assignment expression may not appear in every part of them)."""

    def _leave(self, node):
        return node

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _leave
    visit_Lambda = _leave

    def visit_BinOp(self, node):
        self.generic_visit(node)
        left, right = node.left, node.right
        if isinstance(node.op, ast.Sub) and _is_int_const(right) and right.value == 1 << 63 \
                and isinstance(left, ast.BinOp) and isinstance(left.op, ast.BitXor) and \
                _is_int_const(left.right) and left.right.value == 1 << 63 and \
                isinstance(left.left, ast.Name):
            x = left.left.id
            return _expr(f"({x} - {1 << 64} if {x} >> 63 & 1 else {x})", node)
        if not (isinstance(node.op, ast.BitAnd) and _is_int_const(right) and
                right.value == _M64):
            return node
        if all(n.id == "CIA" for n in ast.walk(left) if isinstance(n, ast.Name)):
            # a constant once the block pastes the address in (which Python
            # folds; block.py reads branch targets spelt so)
            return node
        if isinstance(left, ast.BinOp) and isinstance(left.op, (ast.Add, ast.Sub)) and \
                _is_int_const(left.right) and not 0 <= left.right.value < 1 << 63:
            c = left.right.value % (1 << 64)
            if isinstance(left.op, ast.Sub):
                c = -c % (1 << 64)
            # a + c == a + (c - 2**64) modulo 2**64; the constant fits a word
            c = c - (1 << 64) if c >= 1 << 63 else c
            left = ast.BinOp(left.left, ast.Add() if c >= 0 else ast.Sub(),
                             ast.Constant(abs(c)))
        return _expr(f"(_w if not (_w := {ast.unparse(left)}) >> 64 else _w & {_M64})", node)


def _expr(src, like):
    return ast.copy_location(ast.parse(src, mode="eval").body, like)


def template_prefix(name):
    """The placeholder local a template's ``G[name]`` becomes (see
    :func:`specialise_template`)."""
    return "_gS" + name


class _Placeholders(ast.NodeTransformer):
    def __init__(self, symbolic):
        self.symbolic = symbolic

    def visit_Subscript(self, node):
        if isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Name) and \
                node.slice.id in self.symbolic and node.value.id in ("G", "F", "CRF"):
            if node.value.id == "G":
                return ast.copy_location(ast.Name(template_prefix(node.slice.id), node.ctx),
                                         node)
            return node  # F[f_X], CRF[_crf]: the number is pasted per element
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        # any other read of a symbolic field takes the element's number pasted
        # in as text (a comparison with 0, arithmetic): exact, only not folded
        if node.id in self.symbolic and not isinstance(node.ctx, ast.Load):
            raise Untranslatable(f"the page assigns {node.id}")
        return node


def _placeholders(stmts, symbolic):
    """``G[f_X]`` for a symbolic field -> the placeholder local (other reads
    keep the name, for Template.element to paste the number in)."""
    return [_Placeholders(symbolic).visit(st) for st in stmts]


class Template:
    """One body for many SVP64 elements: ``lines`` name the symbolic fields
    (``_gSf_RT`` for ``G[f_RT]``, ``f_FRT`` inside ``F[...]``, ``_crf``);
    :meth:`element` pastes one element's numbers in."""

    def __init__(self, sp, symbolic):
        self.sp = sp
        text = "\n".join(sp.lines)
        names = _loads([ast.parse(text)]) if text else set()
        stored = set(_stores([ast.parse(text)])) if text else set()
        self.g_loaded = [n for n in symbolic if template_prefix(n) in names | stored]
        self.g_stored = [n for n in symbolic if template_prefix(n) in stored]
        self.text = text
        self.symbolic = symbolic
        self._pattern = re.compile(
            "|".join(re.escape(template_prefix(n)) + r"\b" for n in symbolic) + "|" +
            "|".join(r"\b" + re.escape(n) + r"\b" for n in symbolic))

    def element(self, values):
        """(lines, registers, written registers) for symbolic values ``values``."""
        def paste(m):  # a number: the block's local; an expression: G itself
            name = m.group(0)
            if name.startswith("_gS"):
                v = values[name[3:]]
                return f"_g{v}" if isinstance(v, int) else f"G[{v}]"
            return f"({values[name]})"
        text = self._pattern.sub(paste, self.text)
        regs = self.sp.regs | {values[n] for n in self.g_loaded if isinstance(values[n], int)}
        written = self.sp.written | {values[n] for n in self.g_stored
                                     if isinstance(values[n], int)}
        return text.splitlines(), regs, written


def specialise_template(compiled, fields, symbolic, overrides, cache=None, key=None):
    """A :class:`Template` of ``compiled`` with the names in ``symbolic``
    (``f_RT``, ``_crf``) left as register numbers to paste per element."""
    def build():
        sp = _specialise_word(compiled, fields, overrides, tuple(symbolic))
        if not sp.localised:
            raise Untranslatable(f"{compiled.name}: the page sees the register file")
        return Template(sp, tuple(symbolic))
    return cached(cache, key, build)


def _unreduced(ea):
    """``ea`` (an inline access's ``_a``: an address reduced to 64 bits)
    without the reduction: an int below 0 or from 2**64 on has a page number
    (``_a >> 12``) that is no page's, so the access takes the call (its
    address reduced there, _UnreducedAddresses).  The mask costs a
    big-integer operation on every access, and on PyPy its constants of 2**63
    and more make the sum a big integer: a register plus a negative
    displacement becomes a difference.  None where ``ea`` is not reduced."""
    if not (isinstance(ea, ast.BinOp) and isinstance(ea.op, ast.BitAnd) and
            _is_int_const(ea.right) and ea.right.value == _M64):
        return None
    inner = ea.left
    if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Add):
        a, b = inner.left, inner.right
        if _is_int_const(a):
            a, b = b, a
        if _is_int_const(b) and 1 << 63 <= b.value <= _M64:   # a negative displacement
            return ast.BinOp(a, ast.Sub(), ast.Constant((1 << 64) - b.value))
    return inner


class _UnreducedAddresses(ast.NodeTransformer):
    """The inline accesses' ``_a`` unreduced where _unreduced allows, and
    reduced in the calls of their other path instead."""

    def _unreduce(self, node):
        if isinstance(node.value, ast.BinOp):
            short = _unreduced(node.value)
            if short is not None:
                node.value = short
        return node

    def visit_Assign(self, node):
        self.generic_visit(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
                node.targets[0].id == "_a":
            return self._unreduce(node)
        return node

    def visit_NamedExpr(self, node):
        self.generic_visit(node)
        return self._unreduce(node) if node.target.id == "_a" else node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
                f.value.id == "M" and f.attr in _SLOW_ACCESSES and node.args and \
                isinstance(node.args[0], ast.Name) and node.args[0].id == "_a":
            node.args[0] = ast.BinOp(node.args[0], ast.BitAnd(), ast.Constant(_M64))
        return node


# an inline access's other path: its Memory method
_SLOW_ACCESSES = ("read", "write", "block_read", "block_write")
# On CPython, with a little-endian host, an aligned access of 2, 4 or 8 bytes
# indexes its page's view (Memory.fill_views): about a third cheaper than a
# struct call and its tuple; and a store through a write view needs no check
# of decoded code or reservation (pages with either have none).  PyPy's JIT
# indexes a memoryview several times slower than it runs struct: the struct
# form there.
VIEWS = not PYPY_ARITH and _HOST_LITTLE
_SHIFT = {2: 1, 4: 2, 8: 3}


class _InlineLoads(ast.NodeTransformer):
    """``M.read(ea, n)`` -> the page lookup Memory.read does, inline, with
    the call itself where the access leaves the page or the page is not
    there; ``M.write(ea, n, v)`` likewise -> Memory.write's one-page path.

    With VIEWS (the block binds ``_R2``..``_R8``, ``_W1``..``_W8``: the
    Memory's view dicts' ``get``, or for anything but a plain little-endian
    Memory a function finding none): an aligned access indexes its page's
    view, any other takes Memory.block_read/block_write, which make the
    page's views for the next one.  Without: the block binds ``_PG``
    (``M.pages.get`` or the same function finding none) and ``_U1``..``_U8``,
    ``_P1``..``_P8``: struct unpack_from/pack_into of the memory's byte order,
    much cheaper than slicing and int.from_bytes."""

    changed = False

    def __init__(self, views=None):
        self.views = VIEWS if views is None else views

    def visit_Expr(self, node):
        c = node.value
        f = c.func if isinstance(c, ast.Call) else None
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and
                f.value.id == "M" and f.attr == "write" and len(c.args) == 3 and
                not c.keywords and _is_int_const(c.args[1]) and
                c.args[1].value in (1, 2, 4, 8)):
            self.generic_visit(node)
            return node
        n = c.args[1].value
        ea, v = ast.unparse(c.args[0]), ast.unparse(c.args[2])
        # (the store stays in one page: Memory.code_store checks its words
        # only when that page holds decoded code; a read-only page, held as
        # bytes, takes Memory.write, which raises its fault.  No try/except
        # here: CPython 3.11 does not hand an exception raised at a nested
        # ``try:`` line, as a Ctrl-C can be, to the block's own handler)
        self.changed = True
        if self.views:
            aligned = "" if n == 1 else f"not _a & {n - 1} and "
            at = "_a & 4095" if n == 1 else f"(_a & 4095) >> {_SHIFT[n]}"
            src = f"""_a = ({ea}) & {(1 << 64) - 1}
if {aligned}(_p := _W{n}(_a >> 12)) is not None:
    _p[{at}] = ({v}) & {(1 << (8 * n)) - 1}
else:
    M.block_write(_a, {n}, {v})
"""
            return ast.parse(src).body
        # (a byte never leaves its page, and indexing the bytearray costs a
        # third of a pack_into call)
        put = (f"_p[_o] = ({v}) & 255" if n == 1 else
               f"_P{n}(_p, _o, ({v}) & {(1 << (8 * n)) - 1})")
        fits = "" if n == 1 else f" and _o <= {4096 - n}"
        src = f"""_a = ({ea}) & {(1 << 64) - 1}
_p = _PG(_pk := _a >> 12)
_o = _a & 4095
if _p.__class__ is _BA{fits}:
    M.reserve = 0
    {put}
    if _pk in _cp:
        M.code_store(_a, {n})
else:
    M.write(_a, {n}, {v})
"""
        return ast.parse(src).body

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and
                f.value.id == "M" and f.attr == "read" and len(node.args) == 2 and
                not node.keywords and _is_int_const(node.args[1]) and
                node.args[1].value in (1, 2, 4, 8)):
            return node
        n = node.args[1].value
        ea = ast.unparse(node.args[0])
        if n > 1 and self.views:
            src = (f"(_p[(_a & 4095) >> {_SHIFT[n]}] "
                   f"if not (_a := ({ea}) & {(1 << 64) - 1}) & {n - 1} "
                   f"and (_p := _R{n}(_a >> 12)) is not None else M.block_read(_a, {n}))")
        elif n == 1:   # (a byte never leaves its page: index the page)
            src = (f"(_p[_a & 4095] "
                   f"if (_p := _PG((_a := ({ea}) & {(1 << 64) - 1}) >> 12)) is not None "
                   f"else M.read(_a, 1))")
        else:
            src = (f"(_U{n}(_p, _o)[0] "
                   f"if (_p := _PG((_a := ({ea}) & {(1 << 64) - 1}) >> 12)) is not None "
                   f"and (_o := _a & 4095) <= {4096 - n} else M.read(_a, {n}))")
        self.changed = True
        return ast.copy_location(ast.parse(src, mode="eval").body, node)
