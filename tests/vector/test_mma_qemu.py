"""VSX Matrix-Multiply Assist (decoder/vector/mma.csv) against
``qemu-ppc64le -cpu power10``, interpreted and in eager translated blocks
(tests/vsx_probe.py, tests/mma_cases.py)."""
import pytest

import mma_cases as mc
import vsx_probe as vp
from conftest import need_tool


def test_mma_integer_matches_qemu(tmp_path):
    need_tool("qemu-ppc64le")
    bad = vp.compare(tmp_path, mc.integer_cases() + mc.move_cases(), cpu="power10")
    assert not bad, bad[:10]


@pytest.mark.slow
def test_mma_floating_point_matches_qemu(tmp_path):
    """Special values, NaN payloads, denormals and cancelling sums under every
    rounding mode; the accumulators and the FPSCR compared."""
    need_tool("qemu-ppc64le")
    bad = vp.compare(tmp_path, mc.float_cases(), cpu="power10", departure=mc.qemu_departure)
    assert not bad, bad[:10]


def test_every_mma_row_is_drawn(isa):
    rows = {r.mnemonic for r in isa.rows if r.where.startswith("decoder/vector/mma.csv")}
    assert len(rows) == 3 + 2 * 29
    assert rows == mc.MNEMONICS
