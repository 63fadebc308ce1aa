"""The decimal (BCD) rows and the data stream hints (tests/vsx_bcd_cases.py:
random valid and invalid operands, overflow, both PS values) against
``qemu-ppc64le -cpu power10``, interpreted and in eager translated blocks
(tests/vsx_probe.py); QEMU's departures from the book are masked there and
pinned by hand in tests/vector/test_vector_bcd.py."""
import pytest

import vsx_bcd_cases
import vsx_probe as vp
from conftest import need_tool


@pytest.mark.slow
def test_bcd_cases_match_qemu(tmp_path):  # ~23 s (tests/slow_tests.txt)
    need_tool("qemu-ppc64le")
    bad = vp.compare(tmp_path, vsx_bcd_cases.CASES, cpu="power10",
                     departure=vsx_bcd_cases.qemu_departure)
    assert not bad, bad[:10]


def test_cases_draw_every_row(isa):
    rows = {r.mnemonic for r in isa.rows if r.where.split(":")[0].endswith(("bcd.csv", "vmx_stream.csv"))}
    drawn = {line.split()[0] for _i, lines, _o in vsx_bcd_cases.CASES for line in lines}
    assert len(rows) == 21 and rows <= drawn
