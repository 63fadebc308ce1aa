"""The floating-point rows of decoder/vector against qemu-ppc64le -cpu power10
(tests/vsx_probe.py, tests/vsx_fp_cases.py): operands with special values,
denormals and NaN payloads per element, every rounding mode; the documented
departures of QEMU 7.2 masked (each pinned by tests/vector/test_vsx_fp.py)."""
import pytest

import vsx_fp_cases as fc
import vsx_probe as vp
from conftest import need_tool


@pytest.mark.slow
@pytest.mark.parametrize("family", fc.FAMILIES)
def test_vsx_fp_family_matches_qemu(tmp_path, family):
    need_tool("qemu-ppc64le")
    cases = fc.fp_cases(fc.family_rows((family,)))
    bad = vp.compare(tmp_path, cases, cpu="power10", departure=fc.qemu_departure)
    assert not bad, bad[:10]


@pytest.mark.slow
def test_vmx_fp_matches_qemu(tmp_path):
    """VMX floating point, VSCR.NJ set and clear, VSCR read back."""
    need_tool("qemu-ppc64le")
    cases = fc.vmx_fp_cases(fc.family_rows(("vmx_fp",)))
    bad = vp.compare(tmp_path, cases, cpu="power10")
    assert not bad, bad[:10]
