"""Table match items FIELD!=PATTERN (decoder/svp64/svp64.csv svshape): words a
row leaves to another row.  Small tables written here."""
import pytest

from isa_ext.errors import SpecError
from isa_ext.forms import parse_forms
from isa_ext.tables import excluded, overlaps, parse_table

FORMS = parse_forms("""
form W
    PO 0:5
    A 6:25
    K 21:24
    XO 26:31
form N
    PO 0:5
    A 6:20
    XO 21:23 26:31
    B 24:25
""")
HEADER = "mnemonic,form,match,syntax\n"


def rows(text):
    return parse_table(HEADER + text, FORMS, "t", "t.csv")


def test_exclusion_removes_words_and_the_overlap():
    # wide: K (bits 21:24) free except 100-; narrow: bits 21:23 = 100
    wide, narrow = rows("wide,W,PO=22 XO=25 K!=0b100-,A\n"
                        "narrow,N,PO=22 XO=0b100011001,\"A,B\"\n")
    word_k8 = 22 << 26 | 8 << 7 | 25    # K = 0b1000
    word_k9 = 22 << 26 | 9 << 7 | 25
    word_k7 = 22 << 26 | 7 << 7 | 25
    assert excluded(wide, word_k8) and excluded(wide, word_k9)
    assert not excluded(wide, word_k7)
    assert overlaps([wide, narrow]) == []


def test_without_the_exclusion_the_rows_overlap():
    wide, narrow = rows("wide,W,PO=22 XO=25,A\nnarrow,N,PO=22 XO=0b100011001,\"A,B\"\n")
    assert overlaps([wide, narrow]) == [(wide, narrow)]


def test_partial_exclusion_still_overlaps():
    # excluding only K=1000 leaves K=1001 to both rows
    wide, narrow = rows("wide,W,PO=22 XO=25 K!=0b1000,A\n"
                        "narrow,N,PO=22 XO=0b100011001,\"A,B\"\n")
    assert overlaps([wide, narrow]) == [(wide, narrow)]


@pytest.mark.parametrize("item", ["K!=0b10", "K!=0b10x1", "Q!=0b1000"])
def test_bad_exclusion_is_a_spec_error(item):
    with pytest.raises(SpecError) as e:
        rows(f"wide,W,PO=22 XO=25 {item},A\n")
    assert "t.csv:2" in str(e.value)
