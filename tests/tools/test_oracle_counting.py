"""The end-of-session count of passed tests per oracle (tests/conftest.py) counts
only tests that used the oracle and passed."""
import os
import shutil

import pytest
from conftest import ROOT, TESTS_DIR

CONFTEST = os.path.join(TESTS_DIR, "conftest.py")


@pytest.mark.parametrize("workers", [None, "2"])
def test_counts_only_passed_tests_that_used_the_oracle(pytester, monkeypatch, workers):
    """Serial, and over 2 pytest-xdist workers: the counts are the controller's,
    carried on each passed test's report."""
    if workers:
        pytest.importorskip("xdist")  # in the test extra
    if shutil.which("sh") is None:
        pytest.skip("no sh")
    monkeypatch.delenv("ISA_EXT_REQUIRE_TOOLS", raising=False)
    pytester.makeconftest(open(CONFTEST, encoding="utf-8").read())
    pytester.makepyfile(test_t="""
        import pytest
        from conftest import need_tool

        @pytest.fixture(scope="module")
        def shell():
            return need_tool("sh")          # used in a fixture: counts for its users

        def test_body():
            need_tool("sh")

        def test_via_fixture(shell):
            pass

        def test_via_fixture_fails(shell):
            assert False

        def test_no_oracle():
            pass

        def test_missing_tool():
            need_tool("no-such-tool-isa-ext")
    """)
    result = pytester.runpytest("-p", "no:randomly", *(["-n", workers] if workers else []))
    result.assert_outcomes(passed=3, failed=1, skipped=1)
    result.stdout.re_match_lines([r".*passed tests per oracle.*", r"\s+2\s+sh$"])
    assert not any("no-such-tool" in line for line in result.stdout.lines
                   if line.strip()[:1].isdigit())


def test_tool_skips_name_the_debian_package():
    # every tool the suite asks need_tool() for, and the package .ci/run installs
    # for it (dpkg -S on Debian bookworm)
    import os
    from conftest import tool_package
    expected = {
        "powerpc64le-linux-gnu-as": "binutils-powerpc64le-linux-gnu",
        "powerpc64le-linux-gnu-ld": "binutils-powerpc64le-linux-gnu",
        "powerpc64le-linux-gnu-objdump": "binutils-powerpc64le-linux-gnu",
        "powerpc64le-linux-gnu-gcc": "gcc-powerpc64le-linux-gnu",
        "qemu-ppc64le": "qemu-user", "qemu-ppc64": "qemu-user", "yosys": "yosys",
        "chromium": "chromium", "gdb-multiarch": "gdb-multiarch",
    }
    assert {t: tool_package(t) for t in expected} == expected
    root = ROOT
    with open(os.path.join(root, ".ci", "run"), encoding="utf-8") as f:
        ci = f.read()
    assert all(package in ci for package in expected.values())
