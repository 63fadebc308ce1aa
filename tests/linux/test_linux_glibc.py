"""glibc programs (static, and dynamic through --sysroot) under isa-ext
against qemu-ppc64le: stdout, stderr and exit status byte for byte.

glibc uses VSX (start-up, memcpy, strlen); until the simulator decodes every
instruction a program meets, a run that stops on an instruction isa_ext does
not decode is skipped, naming it.  Any other difference fails."""
import os
import subprocess
import sys

import pytest

from conftest import CLEAN_ENV, SYSROOT, TESTS_DIR, glibc_builds, need_tool

PROGS = os.path.join(TESTS_DIR, "linux", "progs")
UNDECODED = "no instruction matches word"   # the trap reason of an undecoded word


@pytest.fixture(scope="module")
def glibc_demo(tmp_path_factory):
    return glibc_builds(tmp_path_factory.mktemp("glibc"), os.path.join(PROGS, "glibc_demo.c"))


def qemu(exe, args, stdin=b"", merge=False):
    r = subprocess.run([need_tool("qemu-ppc64le"), "-L", SYSROOT, exe, *args], input=stdin,
                       env=CLEAN_ENV, timeout=120, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if merge else subprocess.PIPE)
    status = r.returncode if r.returncode >= 0 else 128 - r.returncode
    err = b"".join(line for line in (r.stderr or b"").splitlines(keepends=True)
                   if not line.startswith(b"qemu: uncaught target signal"))
    return r.stdout, err, status


def isa_ext(exe, args, stdin=b"", merge=False, flags=(), kind="static"):
    sysroot = ["--sysroot", SYSROOT] if kind == "dynamic" else []
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", "--max-steps",
                        "200000000", *sysroot, *flags, exe, "--", *args], input=stdin,
                       timeout=1800, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if merge else subprocess.PIPE)
    text = (r.stdout if merge else r.stderr).decode("utf-8", "replace")
    for line in text.splitlines():
        if line.startswith("isa-ext: trap") and UNDECODED in line:
            pytest.skip(f"the program needs an instruction isa_ext does not decode yet: {line}")
    # the simulator's own note of a fatal signal, as QEMU's "qemu: uncaught target
    # signal" line above, is not the program's output
    err = b"".join(line for line in (r.stderr or b"").splitlines(keepends=True)
                   if not line.startswith(b"isa-ext: signal at pc="))
    return r.stdout, err, r.returncode


def isa_ext_stderr(exe, args, kind):
    """isa-ext's own note of the fault (the pc and address), which isa_ext()
    leaves out of the comparison."""
    sysroot = ["--sysroot", SYSROOT] if kind == "dynamic" else []
    return subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", *sysroot, exe,
                           "--", *args], capture_output=True, timeout=600).stderr


CASES = {
    "printf": dict(args=["printf"]),
    "conversions": dict(args=["conversions"]),
    "malloc": dict(args=["malloc"]),
    "qsort": dict(args=["qsort"]),
    "strings": dict(args=["strings"]),
    "env": dict(args=["env", "one", "two words"]),
    "stdin": dict(args=["stdin"], stdin=b"first\nsecond\nthird\n"),
    "interleave": dict(args=["interleave"], merge=True),
    "abort": dict(args=["abort"]),
    "exit3": dict(args=["exit3"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["static", "dynamic"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_glibc_program_matches_qemu(glibc_demo, case, kind):
    c = CASES[case]
    exe = glibc_demo[kind]
    got = isa_ext(exe, c["args"], c.get("stdin", b""), c.get("merge", False), kind=kind)
    want = qemu(exe, c["args"], c.get("stdin", b""), c.get("merge", False))
    assert got == want


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["static", "dynamic"])
def test_glibc_reads_a_file_inside_read(glibc_demo, tmp_path, kind):
    (tmp_path / "data.txt").write_text("some data\n")
    args = ["file", str(tmp_path / "data.txt")]
    got = isa_ext(glibc_demo[kind], args, flags=["--read", str(tmp_path)], kind=kind)
    assert got == qemu(glibc_demo[kind], args)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["static", "dynamic"])
def test_glibc_null_dereference_is_sigsegv(glibc_demo, kind):
    got = isa_ext(glibc_demo[kind], ["null"], kind=kind)
    want = qemu(glibc_demo[kind], ["null"])
    assert (got[0], got[2]) == (want[0], want[2]) and want[2] == 139
    assert b"SIGSEGV" in isa_ext_stderr(glibc_demo[kind], ["null"], kind)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["static", "dynamic"])
def test_glibc_stdin_redirected_from_a_file(glibc_demo, tmp_path, kind):
    # isa-ext's stdin a regular file (a shell's "< file"): fstat says so, it
    # seeks, and the program reads it from where it seeked, as under QEMU
    data = tmp_path / "in.txt"
    data.write_bytes(b"first\nsecond\nthird\n")
    exe = glibc_demo[kind]
    sysroot = ["--sysroot", SYSROOT] if kind == "dynamic" else []
    with open(data, "rb") as f:
        q = subprocess.run([need_tool("qemu-ppc64le"), "-L", SYSROOT, exe, "stdinfile"], stdin=f,
                           env=CLEAN_ENV, capture_output=True, timeout=120)
    with open(data, "rb") as f:
        r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", *sysroot, exe,
                            "--", "stdinfile"], stdin=f, capture_output=True, timeout=600)
    assert q.stdout.startswith(b"regular=1 size=19 end=19\n1: second\n")
    assert (r.stdout, r.returncode) == (q.stdout, q.returncode)
