"""forms.txt ``disjoint GROUP N FIELD ...``: a register field among the N
registers a group field names is an invalid form (the MMA accumulator)."""
import pytest

from isa_ext.errors import SpecError
from isa_ext.forms import parse_forms

TEXT = """
disjoint AT 4 XA XAp XB
even XAp
form F
    AT 0:2
    XA 3:8
    XAp 3:8
    XB 9:14
    REST 15:31
"""


def test_parsed_and_checked():
    fs = parse_forms(TEXT)
    assert fs.disjoint == {"AT": (4, ("XA", "XAp", "XB"))}
    used = ["AT", "XA", "XB"]
    assert fs.overlap(used, {"AT": 1, "XA": 3, "XB": 8}) is None     # VSRs 4..7 free
    assert fs.overlap(used, {"AT": 1, "XA": 4, "XB": 8}) == ("AT", "XA")
    assert fs.overlap(used, {"AT": 1, "XA": 0, "XB": 7}) == ("AT", "XB")
    # a pair names two registers: 3 and 4 (4 is in ACC[1])
    assert fs.overlap(["AT", "XAp", "XB"], {"AT": 1, "XAp": 3, "XB": 0}) == ("AT", "XAp")
    assert fs.overlap(["AT", "XAp", "XB"], {"AT": 1, "XAp": 2, "XB": 0}) is None
    # a row without the group field has no rule
    assert fs.overlap(["XA", "XB"], {"XA": 4, "XB": 4}) is None


def test_a_bad_count_is_a_spec_error():
    with pytest.raises(SpecError, match="not a number"):
        parse_forms("disjoint AT four XA\n")
