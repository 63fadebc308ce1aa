"""examples/c/svp64_vadd.c, the C + glibc + SVP64 example, built as its
comment says and run with isa-ext: it prints the sum of out[i] = a[i] + b[i]
with a[i] = i, b[i] = 2i + 1, i < N: sum(3i + 1) = 3 N(N-1)/2 + N."""
import os
import subprocess
import sys

import pytest

from conftest import TESTS_DIR, need_tool

EXAMPLE = os.path.join(os.path.dirname(TESTS_DIR), "examples", "c", "svp64_vadd.c")
UNDECODED = "no instruction matches word"


@pytest.mark.slow
def test_svp64_glibc_example(tmp_path):
    exe = str(tmp_path / "svp64_vadd")
    subprocess.run([need_tool("powerpc64le-linux-gnu-gcc"), "-O2", "-static", "-o", exe,
                    EXAMPLE], check=True, capture_output=True)
    n = 1024
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", exe, "--", str(n)],
                       capture_output=True, timeout=1800)
    for line in r.stderr.decode("utf-8", "replace").splitlines():
        if line.startswith("isa-ext: trap") and UNDECODED in line:
            pytest.skip(f"glibc needs an instruction isa_ext does not decode yet: {line}")
    assert (r.stdout, r.returncode) == (f"sum of {n} = {3 * n * (n - 1) // 2 + n}\n".encode(), 0)
