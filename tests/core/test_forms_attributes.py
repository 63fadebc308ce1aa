"""Field attributes in decoder/forms.txt: bias (setvl's VL is VLi + 1)."""
import pytest

from isa_ext.asm import assemble
from isa_ext.errors import AsmError


def test_setvl_bias_largest_vl(isa):
    # setvl 0,0,128,0,1,1: PO 22 (0x58000000) | VLi=127 at bits 16:22 (127 << 9 = 0xFE00)
    # | ms bit 23 (0x100) | vs bit 24 (0x80) | XO 27 at bits 26:30 (0x36) = 0x5800FFB6
    prog = assemble("setvl 0,0,128,0,1,1\n", isa=isa)
    assert prog.words == [0x5800FFB6]


@pytest.mark.parametrize("vl", [0, 129])
def test_setvl_vl_outside_1_to_128_is_an_error(isa, vl):
    with pytest.raises(AsmError) as e:
        assemble(f"setvl 0,0,{vl},0,1,1\n", filename="t.s", isa=isa)
    assert "t.s:1:" in str(e.value) and "1..128" in str(e.value)


def test_setvl_disassembles_with_bias(isa):
    from isa_ext.disasm import disassemble_word
    # golden: setvl 0,0,8,0,1,1 -> 0x58000fb6 (VLi field = 7)
    text = disassemble_word(isa, 0x58000FB6).replace(" ", "")
    assert text.startswith("setvl") and text.endswith(",8,0,1,1")
