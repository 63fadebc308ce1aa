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
