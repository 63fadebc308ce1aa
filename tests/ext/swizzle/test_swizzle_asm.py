"""The swizzle operand in assembly and disassembly."""
import pytest

from isa_ext.asm import assemble
from isa_ext.disasm import Disassembler
from isa_ext.errors import AsmError
from isa_ext.ext.swizzle import parse_swizzle, format_swizzle, parse_operand


def words(isa, text):
    data = assemble(text, isa=isa).data
    return [int.from_bytes(data[k:k + 4], "little") for k in range(0, len(data), 4)]


def test_string_and_number_forms(isa):
    # "W.Y1" = X:W 0b111, Y:skip 0b000, Z:Y 0b101, W:one 0b011 = 0o7053
    # word: PO 22 | RT 4 | RA 6 | imm | XO 0b0011
    expected = (22 << 26) | (4 << 21) | (6 << 16) | (0o7053 << 4) | 0b0011
    assert words(isa, 'mv.swiz 4, 6, "W.Y1"') == [expected]
    assert words(isa, "mv.swiz r4, r6, 0o7053") == [expected]
    assert words(isa, "mv.swiz 4, 6, 3627") == [expected]  # 0o7053 = 3627
    assert words(isa, 'fmv.swiz f4, f6, "W.Y1"') == [expected | 0b1000]


def test_short_strings_skip_the_rest():
    # "XY" = X:X 0b100, Y:Y 0b101, Z and W skip
    assert parse_swizzle("XY") == 0b100_101_000_000
    assert parse_swizzle("") == 0
    assert parse_swizzle("xyzw") == parse_swizzle("XYZW") == 0b100_101_110_111


def test_disassembler_prints_the_string(isa):
    d = Disassembler(isa)
    word = (22 << 26) | (4 << 21) | (6 << 16) | (0o7053 << 4) | 0b0011
    assert d.word(word) == 'mv.swiz r4,r6,"W.Y1"'
    # a reserved selector has no string: printed as the number
    reserved = (22 << 26) | (0o1000 << 4) | 0b0011
    assert d.word(reserved) == "mv.swiz r0,r0,512"


# docs/swizzle.md: 000 skip, 001 reserved, 010 zero, 011 one, 1NN copy X/Y/Z/W
SELECTOR_CHAR = {0b000: ".", 0b010: "0", 0b011: "1", 0b100: "X", 0b101: "Y", 0b110: "Z",
                 0b111: "W"}


def test_every_legal_immediate_prints_its_selectors_and_round_trips(isa):
    d = Disassembler(isa)
    legal = 0
    for imm in range(4096):
        sels = [(imm >> shift) & 7 for shift in (9, 6, 3, 0)]  # X first
        if 0b001 in sels:
            assert format_swizzle(imm) is None
            continue
        legal += 1
        expected = "".join(SELECTOR_CHAR[s] for s in sels)
        assert format_swizzle(imm) == expected
        assert parse_swizzle(expected) == imm
        word = (22 << 26) | (2 << 21) | (8 << 16) | (imm << 4) | 0b1011
        assert d.word(word) == f'fmv.swiz f2,f8,"{expected}"'
        assert words(isa, d.word(word)) == [word]
    assert legal == 7 ** 4  # seven legal codes in each of four positions


@pytest.mark.parametrize("text,column,message", [
    ('mv.swiz 4, 6, "W.Q1"', 18, "'Q' is not one of"),
    ('mv.swiz 4, 6, "XYZWX"', 20, "more than four"),  # the fifth character
    ("mv.swiz 4, 6, 4096", 15, "outside 0..4095"),
    ("mv.swiz 4, 6, W.Y1", 15, "neither a quoted string"),
])
def test_bad_swizzle_operands_are_located(isa, text, column, message):
    with pytest.raises(AsmError) as e:
        assemble(text, isa=isa)
    assert (e.value.line, e.value.column) == (1, column)
    assert message in e.value.message


def test_parse_operand_accepts_hex():
    assert parse_operand("0xE2B") == 0o7053
