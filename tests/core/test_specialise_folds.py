"""The specialiser's algebraic folds (isa_ext/translate/specialise.py) give
the value the unfolded expression gives: random expressions over random
64-bit values, evaluated by Python as written (the model) and as folded."""
import ast
import random

import pytest

from isa_ext.translate import specialise as sp

M64 = (1 << 64) - 1
S64 = 1 << 63
LEAVES = ("x", "y", "z")


def expr(rng, depth):
    """A random int expression of x, y, z: ring and bitwise operators, shifts,
    floor division, 64-bit sign extensions and masks of random widths."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(LEAVES + (str(rng.choice([0, 1, 3, 255, S64, M64])),))
    a, b = expr(rng, depth - 1), expr(rng, depth - 1)
    k = rng.random()
    if k < 0.15:
        return f"((({a}) ^ {S64}) - {S64})"
    if k < 0.3:
        return f"(({a}) & {(1 << rng.choice([7, 8, 31, 32, 63, 64, 65, 128])) - 1})"
    if k < 0.4:
        return f"(({a}) {rng.choice(['<<', '>>'])} {rng.choice([0, 1, 7, 32, 64])})"
    if k < 0.45:
        return f"(({a}) // (({b}) | 1))"
    return f"(({a}) {rng.choice(['+', '-', '*', '&', '|', '^'])} ({b}))"


@pytest.mark.parametrize("seed", range(4))
def test_low_bits_keeps_the_low_bits(seed):
    rng = random.Random(9100 + seed)
    changed = 0
    for _ in range(400):
        k = rng.choice([8, 32, 63, 64])
        tree = ast.parse(expr(rng, 4), mode="eval").body
        low = sp._low_bits(tree, k)
        changed += low is not tree
        src, folded = ast.unparse(tree), ast.unparse(low)
        for _ in range(5):
            env = {n: rng.choice([0, 1, S64, M64, rng.getrandbits(64)]) for n in LEAVES}
            assert eval(src, env) & ((1 << k) - 1) == eval(folded, env) & ((1 << k) - 1), \
                (k, src, folded, env)
    assert changed > 50   # the folds did apply


def test_maddld_is_a_plain_sum_of_a_product_under_its_mask():
    # maddld's page: (RA signed * RB signed, 128 bits) + RC signed, low 64 bits
    src = (f"(((x ^ {S64}) - {S64}) * ((y ^ {S64}) - {S64}) & {(1 << 128) - 1}) + "
           f"(((z ^ {S64}) - {S64}) & {(1 << 128) - 1})")
    assert ast.unparse(sp._low_bits(ast.parse(src, mode="eval").body, 64)) == "x * y + z"


ROTATED = ("G[0]", "G[1]", "(G[2] & 4294967295)")
OTHER_LEAVES = ("CRF[0]", "(G[1] & 65535)")   # a CR field: 4 bits


def masked_expr(rng, depth):
    """A random expression of 64-bit registers as the pages write rotations,
    shifts and masks: (x << k | x >> 64 - k) & m, a doubled word, or's and
    and's, with masks of random bit runs."""
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(ROTATED + OTHER_LEAVES +
                          (str(rng.getrandbits(rng.choice([4, 32, 64]))),))
    a, b = masked_expr(rng, depth - 1), masked_expr(rng, depth - 1)
    lo = rng.randrange(64)
    mask = ((1 << rng.randrange(lo + 1, 65)) - 1) >> lo << lo
    if rng.random() < 0.3:   # the pages' own: 64-, 32-bit and low-ones masks
        mask = rng.choice([M64, 0xFFFFFFFF, (1 << rng.randrange(1, 66)) - 1,
                           (1 << rng.randrange(1, 9)) - 1])
    k = rng.randrange(65)
    kind = rng.random()
    if kind < 0.3:
        x = rng.choice(ROTATED)
        return f"(({x} << {k} | {x} >> {64 - k}) & {mask})"
    if kind < 0.45:
        return f"(({a}) * 4294967297 & {mask & 0xFFFFFFFF})"
    if kind < 0.6:
        return f"(({a}) {rng.choice(['<<', '>>'])} {rng.randrange(40)})"
    if kind < 0.7:
        return f"(({a}) & {mask})"
    if kind < 0.8:
        return f"(({a}) {rng.choice(['|', '^', '&', '+', '*'])} ({b})) & {mask}"
    return f"(({a}) {rng.choice(['|', '&'])} ({a}))"


@pytest.mark.parametrize("seed", range(4))
def test_masks_and_rotations_fold_to_the_same_values(seed):
    # the folds of _Fold.visit_BinOp: terms a mask takes away, masks their
    # operand's bound makes redundant, a doubled word's low half, x | x
    rng = random.Random(4400 + seed)
    changed = 0
    for _ in range(300):
        src = masked_expr(rng, 3)
        folded = ast.unparse(sp._Fold({}).visit(ast.parse(src, mode="eval")).body)
        changed += folded != ast.unparse(ast.parse(src, mode="eval").body)
        for _ in range(5):
            env = {"G": [rng.choice([0, 1, S64, M64, rng.getrandbits(64)]) for _ in range(3)],
                   "CRF": [rng.choice([0, 15, rng.getrandbits(4)])]}
            assert eval(src, env) == eval(folded, env), (src, folded, env)
    assert changed > 100   # the folds did apply


@pytest.mark.parametrize("src, folded", [
    # sldi 3,4,2 (rldicr 3,4,2,61): the rotated-round high bits fall under the mask
    (f"(G[4] << 2 | G[4] >> 62) & {M64 - 3}", f"G[4] << 2 & {M64 - 3}"),
    # srdi 5,4,3 (rldicl 5,4,61,3): x << 61 has no bit under 2**61 - 1, and
    # x >> 3 lies within it
    (f"(G[4] << 61 | G[4] >> 3) & {(1 << 61) - 1}", "G[4] >> 3"),
    # srwi 7,4,5 (rlwinm 7,4,27,5,31): ROTL32 as a doubled word, masked low
    ("(G[4] << 27 | (G[4] & 4294967295) >> 5) * 4294967297 & 134217727",
     "(G[4] & 4294967295) >> 5"),
    # mr 11,4 is or 11,4,4
    ("G[4] | G[4]", "G[4]"),
])
def test_shifts_and_moves_fold_to_their_plain_forms(src, folded):
    assert ast.unparse(sp._Fold({}).visit(ast.parse(src, mode="eval")).body) == folded


def _random_word_expression(rng, depth, names=("_g1", "_g2", "_g3", "v_t", "_s_ca")):
    """An int expression of the shapes the pages' 64-bit arithmetic takes:
    registers (``_gN``: 0 .. 2**64 - 1), XER's CA bit, a temporary ``v_t``, constants,
    sums and differences under the 64-bit mask, ``~a + b + 1``, values made
    signed (``(e ^ 2**k) - 2**k``), shifts, products."""
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(list(names) + [str(rng.choice(
            [0, 1, 5, 8, 1 << 31, S64, M64, M64 - 7, rng.getrandbits(64)]))])
    a, b = (f"({_random_word_expression(rng, depth - 1, names)})" for _ in range(2))
    k = rng.choice([15, 31, 63])
    return rng.choice([
        f"({a} + {b}) & {M64}", f"({a} - {b}) & {M64}", f"(({a} ^ {M64}) + {b} + 1) & {M64}",
        f"((({a}) & {rng.choice([(2 << k) - 1, (4 << k) - 1])}) ^ {1 << k}) - {1 << k}", f"(({a} & {M64}) ^ {S64}) - {S64}",
        f"{a} & {M64}", f"({a}) >> {rng.randrange(64)}", f"({a} + {b} + _s_ca) & {M64}", f"(({a}) << {rng.randrange(8)}) & {M64}",
        f"({a} * {b}) & {M64}", f"{a} | {b}", f"{a} ^ {b}", f"{a} & {b}",
        f"({a}) >> {rng.choice([1, 3, 4])}", f"(({a}) & {rng.choice([5, 250, 1000])}) << 3", f"({a} + {rng.choice([1, 8, M64, M64 - 7, S64])}) & {M64}",
        f"({a} - {rng.choice([1, 8, M64, S64])}) & {M64}"])


@pytest.mark.parametrize("pypy", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_interpreter_forms_of_word_arithmetic_keep_every_value(seed, pypy, monkeypatch):
    # _for_interpreter's rewrites (CPython's small-int forms, PyPy's machine
    # words) against the expressions as written, evaluated by Python itself,
    # for registers at the edges of their range (0, 2**63 - 1, 2**63, 2**64 - 1)
    # and at random
    monkeypatch.setattr(sp, "PYPY_ARITH", pypy)
    rng = random.Random(8812 + seed)
    edges = [0, 1, 7, S64 - 1, S64, S64 + 1, M64 - 1, M64]
    for _ in range(150):
        src = (f"v_t = {_random_word_expression(rng, 2, ('_g1', '_g2'))} & {M64}\n"
               f"r = {_random_word_expression(rng, 3)}\n")
        stmts = ast.parse(src).body
        out, _ = sp._for_interpreter(stmts, ast.Constant(0))
        got = "\n".join(ast.unparse(st) for st in out)
        for _ in range(6):
            regs = {f"_g{n}": rng.choice(edges + [rng.getrandbits(64)]) for n in (1, 2, 3)}
            regs["_s_ca"] = rng.getrandbits(1)
            want, have = dict(regs), dict(regs)
            exec(src, want)
            exec(got, have)
            assert (have["v_t"], have["r"]) == (want["v_t"], want["r"]), (src, got, regs)


@pytest.mark.parametrize("seed", range(2))
def test_range_bounds_every_value(seed):
    # _range's (lo, hi) against the expression evaluated: lo <= value < hi,
    # registers at their edges and at random, v_t bound by its assignment
    rng = random.Random(4471 + seed)
    edges = [0, 1, 5, 249, S64 - 1, S64, M64]
    for _ in range(300):
        t_src = f"(({_random_word_expression(rng, 2, ('_g1', '_g2'))}) & {rng.choice([M64, 1000])})"
        src = _random_word_expression(rng, 3)
        env = sp._temp_ranges([ast.parse(f"v_t = {t_src}").body[0]])
        r = sp._range(ast.parse(src, mode="eval").body, env)
        if r is None:
            continue
        for _ in range(8):
            regs = {f"_g{n}": rng.choice(edges + [rng.getrandbits(64)]) for n in (1, 2, 3)}
            regs["_s_ca"] = rng.getrandbits(1)
            regs["v_t"] = eval(t_src, dict(regs))
            value = eval(src, dict(regs))
            assert r[0] <= value < r[1], (src, t_src, r, regs, value)


@pytest.mark.parametrize("src, bound", [
    # hand-derived: x & m lies in 0 .. m; a | b, a ^ b below the next power
    # of 2 of the larger bound; shifts and products of the bounds
    ("_g1 & 255", (0, 256)), ("(_g1 & 255) & (_g2 & 15)", (0, 16)),
    ("(_g1 & 4) | (_g2 & 2)", (0, 8)), ("(_g1 & 250) >> 4", (0, 16)),
    ("(_g1 & 255) << 4", (0, 4081)), ("(_g1 & 15) * (_g2 & 15)", (0, 226)),
    ("_g1 - _g2", (1 - (1 << 64), 1 << 64)), ("_g1 + 5", (5, (1 << 64) + 5)),
    ("_c0 | _s_so", (0, 16)), ("_g1 + 1 if _g2 else 3", (1, (1 << 64) + 1)),
])
def test_range_gives_the_hand_derived_bounds(src, bound):
    assert sp._range(ast.parse(src, mode="eval").body, {}) == bound


def test_a_temporary_stored_otherwise_too_has_no_bound():
    # x is 5 where assigned, but the walrus stores a register in it: x + 1
    # may reach 2**64, so its mask stays
    stmts = ast.parse(f"x = 5\ny = (x := _g1) + 1 & {M64}\nz = x + 1 & {M64}\n").body
    assert "x" not in sp._temp_ranges(stmts)


@pytest.mark.parametrize("src, regs", [
    # a difference reaching below -2**64: the mask stays (2**64 added once
    # would leave it negative); registers at the edges that reach it
    (f"((_g1 ^ {S64}) - {S64} - _g2) & {M64}", {"_g1": S64, "_g2": M64}),
    (f"(_g1 + _g2 + _s_ca) & {M64}", {"_g1": M64, "_g2": M64, "_s_ca": 1}),
    (f"(_g1 + _s_ca) & {M64}", {"_g1": M64, "_s_ca": 1}),
    (f"(0 - _g1 - _g2) & {M64}", {"_g1": M64, "_g2": M64}),
])
def test_interpreter_forms_at_the_edges_of_their_bounds(src, regs, monkeypatch):
    want = eval(src, dict(regs))
    for pypy in (False, True):
        monkeypatch.setattr(sp, "PYPY_ARITH", pypy)
        out, _ = sp._for_interpreter([ast.parse(f"r = {src}").body[0]], ast.Constant(0))
        have = dict(regs)
        exec(ast.unparse(out[0]), have)
        assert have["r"] == want, ast.unparse(out[0])


def test_cpython_forms_leave_no_big_mask_on_register_sums_and_signed_values(monkeypatch):
    # the forms themselves: add, subf, addi -8 and cmpd's signed values hold
    # no 64-bit mask or 2**63 xor (the big-integer operations they replace)
    monkeypatch.setattr(sp, "PYPY_ARITH", False)
    src = (f"_g5 = _g3 + _g4 & {M64}\n_g6 = (_g3 ^ {M64}) + _g4 + 1 & {M64}\n"
           f"_g7 = _g3 + {M64 - 7} & {M64}\nv_c = (_g3 ^ {S64}) - {S64}\n")
    out, _ = sp._for_interpreter(ast.parse(src).body, ast.Constant(0))
    text = "\n".join(ast.unparse(st) for st in out)
    assert f"& {M64}" not in text and f"^ {S64}" not in text and f"^ {M64}" not in text, text
    assert "_g4 - _g3" in text and "_g3 - 8" in text, text


@pytest.mark.parametrize("name, arity", [("_rotl64", 2), ("_rotl32", 2), ("_mask64", 2)])
def test_helpers_inline_forms_with_counts_in_registers_give_the_helpers_values(name, arity):
    # the library's inline forms (what a block holds for sld, srw, rlwnm's
    # register count) against the helpers themselves (the per-instruction
    # path), for any values of the count names, constants mixed in
    from isa_ext.pseudocode import library
    rng = random.Random(hash(name) & 0xFFFF)
    helper, form = getattr(library, name), library.INLINE[name]
    for _ in range(400):
        args = [rng.choice(["a", "b", "(b + 3 & 127)", rng.randrange(70)]) for _ in range(arity)]
        if name != "_mask64":
            args[0] = rng.choice(["a", rng.getrandbits(64)])
        if all(isinstance(a, int) for a in args):
            continue
        src = form(*args)
        assert src is not None, args
        env = {"a": rng.choice([0, 1, 31, 32, 63, 64, M64, rng.getrandbits(64)]),
               "b": rng.choice([0, 1, 31, 32, 63, 64, 65, rng.randrange(1 << 20)])}
        values = [eval(a, env) if isinstance(a, str) else a for a in args]
        assert eval(src, env) == helper(*values), (src, env)
    assert form("a", "f(b)") is None        # a call is never read twice


@pytest.mark.parametrize("seed", range(2))
def test_comparisons_decided_by_bounds_fold_to_their_values(seed):
    # sld's MASK(0, 63 - n): 0 <= (63 - n & 63) is always true; c - e stays in
    # 0..c where e is within c (64 - (n & 63))
    rng = random.Random(7300 + seed)
    for _ in range(300):
        e = masked_expr(rng, 2)
        if rng.random() < 0.4:
            e = f"({rng.choice([63, 64, 62, 31, 30, 6, 5])} - ({e} & {rng.choice([63, 31, 127, 7])}))"
        c = rng.choice([0, -1, 1, 31, 63, 64, (1 << 64) - 1, 1 << 64])
        src = rng.choice([f"{c} <= {e}", f"{e} >= {c}", f"{e} <= {c}", f"{c} >= {e}"])
        folded = ast.unparse(sp._Fold({}).visit(ast.parse(src, mode="eval")).body)
        for _ in range(5):
            env = {"G": [rng.choice([0, 1, S64, M64, rng.getrandbits(64)]) for _ in range(3)],
                   "CRF": [rng.getrandbits(4)]}
            assert bool(eval(src, env)) == bool(eval(folded, env)), (src, folded, env)


def test_cr_slices_of_whole_fields_inline_to_the_helpers_value():
    # CR bits 32..63 are the eight 4-bit fields, field 0 the high-order one
    # (Book I 2.3.1): mfcr's CR[32:63], mfocrf's one field, any aligned run
    from isa_ext.pseudocode import library
    rng = random.Random(33)
    for _ in range(200):
        crf = [rng.getrandbits(4) for _ in range(8)]
        first = rng.randrange(8)
        last = rng.randrange(first, 8)
        a, b = 32 + 4 * first, 35 + 4 * last
        src = library.INLINE["_cr_slice"]("C", a, b)
        assert eval(src, {"C": crf}) == library._cr_slice(crf, a, b), (a, b)
    assert library.INLINE["_cr_slice"]("C", 33, 36) is None    # not whole fields
    crf = [0x8, 0, 0, 0, 0, 0, 0, 0x1]
    assert eval(library.INLINE["_cr_slice"]("C", 32, 63), {"C": crf}) == 0x80000001


def test_a_short_constant_loop_unrolls_to_its_iterations():
    # mtcrf 0x24,RS: fields 2 and 5 (FXM bits 2 and 5 from the left) take
    # RS's nibbles 2 and 5 -- the loop gone, each iteration's test folded
    src = """
for v_n in range(0, 8):
    if 36 >> 7 - v_n & 1:
        CRF[v_n] = G[6] >> 28 - 4 * v_n & 15
"""
    out = ast.unparse(sp._Fold({}).visit(ast.parse(src)))
    assert out.split("\n") == ["CRF[2] = G[6] >> 20 & 15", "CRF[5] = G[6] >> 8 & 15",
                               "v_n = 7"]
    for bad in ("for v_n in range(0, 9):\n    x = v_n\n",               # too many
                "for v_n in range(0, 4):\n    if v_n:\n        break\n",  # a break
                "for v_n in range(0, 4):\n    v_n = 2\n",                 # assigned
                "for v_n in range(0, k):\n    x = v_n\n"):                # not constant
        assert "for v_n" in ast.unparse(sp._Fold({}).visit(ast.parse(bad))), bad


@pytest.mark.parametrize("body, returned", [
    # b: the target assigned last at the top level is what the body returns
    ("NIA = CIA + 4\nNIA = CIA + 16", "CIA + 16"),
    # bl: a register write after it does not touch what the target reads
    ("NIA = CIA + 4\nNIA = CIA + 16\ns.lr = CIA + 4", "CIA + 16"),
    # blrl: LR is written after the target reads it: kept as it is
    ("NIA = CIA + 4\nNIA = s.lr >> 2 << 2\ns.lr = CIA + 4", "NIA"),
    # a conditional branch: NIA assigned under a test
    ("NIA = CIA + 4\nif CRF[0] & 2:\n    NIA = CIA + 16", "NIA"),
    # an earlier assignment that does something (a call) is not dropped
    ("NIA = f(s)\nNIA = CIA + 16", "NIA"),
    # NIA read before its last assignment
    ("NIA = CIA + 4\nx = NIA\nNIA = CIA + 16", "NIA"),
])
def test_an_unconditional_branch_returns_its_target(body, returned):
    from isa_ext.translate.specialise import _returned_value
    stmts = ast.parse(body).body
    got = _returned_value(stmts, ast.Name("NIA", ast.Load()))
    assert ast.unparse(got) == returned
    left = "\n".join(ast.unparse(st) for st in stmts)
    assert ("NIA =" in left) == (returned == "NIA")


def test_a_shift_tested_for_truth_is_a_compare_of_a_known_non_negative_value():
    # x >> k is nonzero exactly where x >= 2**k, for x >= 0: G[3] >> 63 (the
    # sign of a register, MSR.SF) becomes a compare; a name of no known
    # bound (it may be negative: -1 >> 63 is -1, true) keeps its shift
    def fold(src):
        return ast.unparse(sp._Fold({}).visit(ast.parse(src, mode="eval")).body)
    assert fold("8 if G[3] >> 63 else 4") == f"8 if G[3] >= {S64} else 4"
    assert fold("8 if (G[3] & 255) >> 7 else 4") == "8 if G[3] & 255 >= 128 else 4"
    assert fold("8 if x >> 63 else 4") == "8 if x >> 63 else 4"
    for value in (0, 1, S64 - 1, S64, M64):
        assert eval(fold("8 if G[3] >> 63 else 4"), {"G": {3: value}}) == \
            (8 if value >> 63 else 4)
