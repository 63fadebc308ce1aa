"""Trailing operands marked optional in the syntax column ([BH], [L], [W]) may be
left out, as GNU as allows; the field is then 0.  GNU as is the oracle."""
import subprocess

import pytest
from elftools.elf.elffile import ELFFile

from conftest import need_tool
from isa_ext.asm import assemble
from isa_ext.errors import AsmError

LINES = ["bclr 20,0", "bclrl 12,2", "bcctr 20,0", "bcctrl 4,6", "mtfsf 0xff,1",
         "mtfsf 0x0f,2,0", "mtfsfi 7,3", "bclr 20,0,0", "mtfsf 0xff,1,0,0"]


def gnu_words(tmp_path, lines):
    need_tool("powerpc64le-linux-gnu-as")
    src = tmp_path / "t.s"
    src.write_text("\n".join(lines) + "\n")
    obj = tmp_path / "t.o"
    subprocess.run(["powerpc64le-linux-gnu-as", "-mpower9", "-o", str(obj), str(src)],
                   check=True)
    with open(obj, "rb") as f:
        text = ELFFile(f).get_section_by_name(".text").data()
    return [int.from_bytes(text[i:i + 4], "little") for i in range(0, len(text), 4)]


def test_short_forms_match_gnu_as(isa, tmp_path):
    ours = assemble("\n".join(LINES) + "\n", isa=isa).words
    assert ours == gnu_words(tmp_path, LINES)


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
