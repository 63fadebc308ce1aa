"""``--stdin FILE``: the program's standard input is a file the user names,
as a shell's ``< FILE`` gives it under qemu-ppc64le (a regular file that
fstat shows and lseek moves in); stdout and status byte for byte as QEMU's."""
import subprocess
import sys

import pytest

from conftest import CLEAN_ENV, need_tool
from test_linux_glibc import glibc_demo  # noqa: F401 - the fixture

DATA = b"first\nsecond\nthird\n"


def isa_ext(*args):
    return subprocess.run([sys.executable, "-m", "isa_ext", "run", *args], capture_output=True,
                          timeout=600)


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "in.txt"
    path.write_bytes(DATA)
    return str(path)


def test_stdin_from_a_named_file_matches_qemu_given_it(glibc_demo, data):  # noqa: F811
    exe = glibc_demo["static"]
    for mode in ("stdinfile", "stdin"):
        with open(data, "rb") as f:
            q = subprocess.run([need_tool("qemu-ppc64le"), exe, mode], stdin=f, env=CLEAN_ENV,
                               capture_output=True, timeout=120)
        # (isa-ext's own stdin an empty pipe: the program must not read it)
        r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", "--stdin", data,
                            exe, "--", mode], input=b"not this\n", capture_output=True,
                           timeout=600)
        assert (r.stdout, r.returncode) == (q.stdout, q.returncode), (mode, r.stderr)
    # the last mode counts its lines: the status is 3, the file's line count
    assert q.returncode == 3 and q.stdout.endswith(b"3: third\n")


def test_stdin_from_a_named_file_in_the_report(glibc_demo, data):  # noqa: F811
    # without --linux the program's input is empty unless --stdin names one
    r = isa_ext(glibc_demo["static"], "--", "stdin")
    assert b"exit status: 0" in r.stdout
    r = isa_ext("--stdin", data, glibc_demo["static"], "--", "stdin")
    assert b"exit status: 3" in r.stdout and b"1: first\n2: second\n3: third\n" in r.stdout


def test_stdin_that_cannot_be_read_is_an_error(glibc_demo, tmp_path):  # noqa: F811
    r = isa_ext("--linux", "--stdin", str(tmp_path / "missing"), glibc_demo["static"])
    assert r.returncode == 2 and b"--stdin" in r.stderr and b"No such file" in r.stderr
    r = isa_ext("--linux", "--stdin", str(tmp_path), glibc_demo["static"])
    assert r.returncode == 2 and b"is a directory" in r.stderr
    assert b"Traceback" not in r.stderr
