"""An independent reference model of the swizzle moves (seed 001), and checks of the
model itself against hand derivations.

Written from the seed's prose, not from the pseudocode pages: selectors are read as
octal digits, sub-elements are taken with arithmetic on the register values (the
"low half" of a 64-bit register is its least significant 32 bits).  Other swizzle
tests import it.
"""
M32 = 0xFFFF_FFFF
ONE_INT = 1
ONE_SINGLE = 0x3F80_0000  # IEEE 754 single 1.0: sign 0, exponent 127, fraction 0


def octal_selectors(imm):
    """X, Y, Z, W selectors: the four octal digits of imm, X the leftmost."""
    return [int(d) for d in f"{imm:04o}"]


def swizzle_group(sels, src, dst_before, keep_unselected, one, src_count=None):
    """One XYZW group.  ``src``/``dst_before``: lists of sub-element values.
    Returns the new destination list, or None when the selectors are illegal."""
    src_count = len(src) if src_count is None else src_count
    out = list(dst_before) if keep_unselected else [0] * len(dst_before)
    for pos, sel in enumerate(sels[:len(dst_before)]):
        if sel == 1:
            return None
        if sel >= 4 and sel - 4 >= src_count:
            return None
    for pos, sel in enumerate(sels[:len(dst_before)]):
        if sel >= 4:
            out[pos] = src[sel - 4]
        elif sel == 2:
            out[pos] = 0
        elif sel == 3:
            out[pos] = one
    return out


def pair_to_words(reg_even, reg_odd):
    return [reg_even & M32, reg_even >> 32, reg_odd & M32, reg_odd >> 32]


def words_to_pair(words):
    x, y, z, w = words
    return x | (y << 32), z | (w << 32)


def scalar_swizzle(imm, ra_pair, rt_pair, in_place, floating):
    """(RT, RT+1) after mv.swiz / fmv.swiz, or None for an illegal selector."""
    sels = octal_selectors(imm)
    if any(s == 1 for s in sels):
        return None
    new = swizzle_group(sels, pair_to_words(*ra_pair), pair_to_words(*rt_pair),
                        keep_unselected=in_place,
                        one=ONE_SINGLE if floating else ONE_INT)
    return words_to_pair(new)


# --- the model checked by hand --------------------------------------------------

def test_octal_digits_are_x_first():
    # imm = X Y Z W = 0b111 0b000 0b101 0b011 = 0o7053 -> "W.Y1"
    assert octal_selectors(0o7053) == [7, 0, 5, 3]


def test_model_w_dot_y_dot_in_place():
    # "W.Y." in place on RA = RT: X<-W, Z<-Y, Y and W kept.
    # RA = 0x22222222_11111111 (Y=2..., X=1...), RA+1 = 0x44444444_33333333 (W, Z)
    ra = (0x2222_2222_1111_1111, 0x4444_4444_3333_3333)
    # X becomes 0x44444444 (W), Z becomes 0x22222222 (Y)
    assert scalar_swizzle(0o7050, ra, ra, True, False) == (
        0x2222_2222_4444_4444, 0x4444_4444_2222_2222)


def test_model_zeroes_unselected_when_separate():
    ra = (0x2222_2222_1111_1111, 0x4444_4444_3333_3333)
    rt = (0xDEAD_BEEF_DEAD_BEEF, 0xDEAD_BEEF_DEAD_BEEF)
    # "W.Y." separate: X=W, Y=0, Z=Y, W=0
    assert scalar_swizzle(0o7050, ra, rt, False, False) == (0x4444_4444, 0x2222_2222)


def test_model_constants_and_reserved():
    ra = (0, 0)
    # "01.." separate: X=0, Y=1 -> RT = 0x00000001_00000000; fmv: Y = 1.0f
    assert scalar_swizzle(0o2300, ra, ra, False, False) == (1 << 32, 0)
    assert scalar_swizzle(0o2300, ra, ra, False, True) == (0x3F80_0000 << 32, 0)
    assert scalar_swizzle(0o1000, ra, ra, False, False) is None
