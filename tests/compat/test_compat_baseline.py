"""openpower-isa's SVP64 test files, run unchanged through ``isa-ext openpower
test``, pass at least as many tests as tests/compat_baseline.json records.

The counts were measured (per file, one pytest item each; a case-runner class
is one item) with the vendored snapshot of openpower-isa 3cb597b9 in
../shared/vendor.  Raise a count when more pass; a drop is a regression.
"""
import json
import os
import re
import subprocess
import sys
import tarfile

import pytest

from conftest import shared_path
from conftest import TESTS_DIR

pytestmark = pytest.mark.slow

HERE = TESTS_DIR
BASELINE = os.path.join(HERE, "compat_baseline.json")
TEST_DIR = "openpower-isa/src/openpower/decoder/isa"
CLOSING = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


def load_baseline():
    with open(BASELINE, encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def vendored_tests(tmp_path_factory):
    tarball = shared_path("vendor", "openpower-isa.tar.gz")  # skip, or fail in CI
    out = tmp_path_factory.mktemp("opisa")
    with tarfile.open(tarball) as t:
        members = [m for m in t.getmembers() if m.name.startswith("openpower-isa/src/")]
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        t.extractall(out, members=members, **safe)
    return out / TEST_DIR


def measure(test_file):
    """(passed, failed) from the closing line of ``isa-ext openpower test FILE``."""
    r = subprocess.run([sys.executable, "-m", "isa_ext.cli", "openpower", "test", str(test_file),
                        "--", "-q", "-p", "no:randomly"],
                       capture_output=True, text=True, cwd=os.path.dirname(HERE), timeout=900)
    found = CLOSING.findall(r.stdout)
    assert found, f"no closing line (exit {r.returncode}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    passed, failed = map(int, found[-1])
    assert r.returncode == (1 if failed else 0), r.stdout[-2000:]
    return passed, failed


@pytest.mark.parametrize("name, recorded",
                         sorted({**load_baseline()["passed"],
                                 **load_baseline()["passed outside the 31 files"]}.items()))
def test_passing_count_does_not_drop(vendored_tests, name, recorded):
    passed, failed = measure(vendored_tests / name)
    assert passed >= recorded, (f"{name}: {passed} passed ({failed} failed), "
                                f"the baseline records {recorded}")
