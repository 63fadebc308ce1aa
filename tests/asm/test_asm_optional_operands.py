"""Trailing operands marked optional in the syntax column ([BH], [L], [W]) may be
left out, as GNU as allows; the field is then 0.  GNU as is the oracle."""

import pytest

from conftest import gnu_as_words
from isa_ext.asm import assemble
from isa_ext.errors import AsmError

LINES = ["bclr 20,0", "bclrl 12,2", "bcctr 20,0", "bcctrl 4,6", "mtfsf 0xff,1",
         "mtfsf 0x0f,2,0", "mtfsfi 7,3", "bclr 20,0,0", "mtfsf 0xff,1,0,0"]


def test_short_forms_match_gnu_as(isa, tmp_path):
    ours = assemble("\n".join(LINES) + "\n", isa=isa).words
    assert ours == gnu_as_words(tmp_path, LINES)


def test_bclr_short_form_by_hand(isa):
    # bclr 20,0: 19<<26 | 20<<21 | 0<<16 | BH 0 | 16<<1 = 0x4E800020 (the blr word)
    assert assemble("bclr 20,0\n", isa=isa).words == [0x4E800020]


def test_missing_required_operand_is_still_an_error(isa):
    with pytest.raises(AsmError) as e:
        assemble("bclr 20\n", filename="t.s", isa=isa)
    assert "t.s:1:" in str(e.value) and "2 to 3 operand(s), got 1" in str(e.value)


def test_too_many_operands_is_an_error(isa):
    with pytest.raises(AsmError) as e:
        assemble("bclr 20,0,0,1\n", filename="t.s", isa=isa)
    assert "unexpected operand" in str(e.value)
