"""Linux programs under isa_ext against qemu-ppc64le: freestanding C programs
(tests/linux/progs) that start from the kernel's initial stack and make raw
system calls (no VSX needed, unlike glibc).  Standard output, standard error,
exit status and the files written must equal QEMU's; the sandbox rules are
checked against docs/linux.md."""
import os
import subprocess
import sys

import pytest

from conftest import CLEAN_ENV, TESTS_DIR, need_tool

PROGS = os.path.join(TESTS_DIR, "linux", "progs")
# the clean environment isa-ext gives by default (docs/linux.md), in its order
# gcc must not use VMX/VSX: the core ISA under test has neither
CFLAGS = ["-nostdlib", "-static", "-O2", "-ffreestanding", "-fno-builtin", "-mno-vsx",
          "-mno-altivec"]


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    out = tmp_path_factory.mktemp("linux-progs")
    built = {}

    def make(name):
        if name not in built:
            gcc = need_tool("powerpc64le-linux-gnu-gcc")
            exe = out / name
            subprocess.run([gcc, *CFLAGS, f"-I{PROGS}", "-o", str(exe),
                            os.path.join(PROGS, name + ".c"), os.path.join(PROGS, "start.S")],
                           check=True, capture_output=True)
            built[name] = str(exe)
        return built[name]
    return make


def qemu(exe, args=(), stdin=b"", cwd=None):
    r = subprocess.run([need_tool("qemu-ppc64le"), exe, *args], input=stdin, env=CLEAN_ENV,
                       capture_output=True, cwd=cwd, timeout=60)
    status = r.returncode if r.returncode >= 0 else 128 - r.returncode  # as a shell
    # QEMU's own report of a fatal signal is not the program's output
    err = b"".join(line for line in r.stderr.splitlines(keepends=True)
                   if not line.startswith(b"qemu: uncaught target signal"))
    return r.stdout, err, status


def isa_ext(exe, args=(), stdin=b"", cwd=None, flags=()):
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", *flags, exe, "--",
                        *args], input=stdin, capture_output=True, cwd=cwd, timeout=600,
                       env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")})
    return r.stdout, r.stderr, r.returncode


def test_argv_env_auxv_match_qemu(build):
    exe = build("args")
    q = qemu(exe, ["a", "b c", ""])
    assert q[2] == 4 and b"argv: b c\n" in q[0]
    got = isa_ext(exe, ["a", "b c", ""])
    assert got[1:] == q[1:]
    # QEMU 7.2 hands the environment over in reverse order (its envlist); Linux
    # keeps the caller's order, as isa-ext does: compare everything else exactly
    env = [line for line in got[0].splitlines() if line.startswith(b"env: ")]
    assert env == [f"env: {k}={v}".encode() for k, v in CLEAN_ENV.items()]
    strip = (lambda out: [line for line in out.splitlines() if not line.startswith(b"env: ")])
    assert strip(got[0]) == strip(q[0])
    assert sorted(got[0].splitlines()) == sorted(q[0].splitlines())


def test_env_flags(build):
    exe = build("args")
    out, _err, _st = isa_ext(exe, flags=["--env", "X=1", "--unset-env", "LANG"])
    assert b"env: X=1\n" in out and b"LANG" not in out and b"env: PATH=/usr/bin:/bin\n" in out
    out, _err, _st = isa_ext(exe, flags=["--host-env"])
    assert f"env: PATH={os.environ['PATH']}\n".encode() in out


def _files_dirs(tmp_path):
    rd, wr = tmp_path / "rd", tmp_path / "wr"
    rd.mkdir(parents=True)
    wr.mkdir(parents=True)
    (rd / "in.txt").write_bytes(b"hello world\n")
    return rd, wr


def test_file_io_memory_and_errors_match_qemu(build, tmp_path):
    exe = build("files")
    rd, wr = _files_dirs(tmp_path / "q")
    q = qemu(exe, [str(rd), str(wr)], stdin=b"stdin data\n")
    q_written = (wr / "out.txt").read_bytes()
    assert q[2] == 3 and q_written == b"Written\n"
    rd, wr = _files_dirs(tmp_path / "i")
    out, err, status = isa_ext(exe, [str(rd), str(wr)], stdin=b"stdin data\n",
                               flags=["--read", str(rd), "--write", str(wr)])
    assert (out, status) == (q[0], q[2])
    # stderr: the program's own, then isa-ext's list of what it did not emulate
    assert err.startswith(q[1])
    assert err[len(q[1]):] .decode().startswith("isa-ext: unsupported-syscall")
    assert b"system call 9999" in err
    assert (wr / "out.txt").read_bytes() == q_written


def test_two_runs_are_byte_identical(build, tmp_path):
    exe = build("files")
    runs = []
    for i in range(2):
        rd, wr = _files_dirs(tmp_path / str(i))
        runs.append(isa_ext(exe, [str(rd), str(wr)], flags=["--read", str(rd), "--write",
                                                             str(wr)]))
    assert runs[0] == runs[1]


def test_raise_sigabrt_ends_like_qemu(build):
    exe = build("kill")
    q = qemu(exe)
    assert q[2] == 134 and q[0] == b"before\n"
    out, err, status = isa_ext(exe)
    assert (out, status) == (q[0], q[2])
    assert b"killed by signal 6" in err


def test_faults_end_as_sigsegv_like_qemu(build):
    exe = build("segv")
    for mode in ("read", "write", "jump"):
        q = qemu(exe, [mode])
        assert q[2] == 139 and q[0] == b"start\n"
        out, err, status = isa_ext(exe, [mode])
        assert (out, status) == (q[0], q[2]), err
        assert b"SIGSEGV" in err
        where = b"0x100" if mode == "jump" else b"0x10"
        assert b"unmapped address " + where in err, err


def test_bad_buffers_give_efault_like_qemu(build):
    exe = build("segv")
    q = qemu(exe, ["efault"], stdin=b"abcde")
    assert q[2] == 0 and b"write from NULL = -14" in q[0]
    assert isa_ext(exe, ["efault"], stdin=b"abcde") == q


def test_memory_protection_matches_qemu(build):
    """A store into a read-only page (a string literal, an mprotect'ed
    mapping) or any access to a PROT_NONE page is SIGSEGV (139) with the pc
    and address; system calls get EFAULT; mprotect back restores access."""
    exe = build("protect")
    nm = subprocess.run([need_tool("powerpc64le-linux-gnu-nm"), exe], capture_output=True,
                        text=True, check=True).stdout
    literal = next(line.split()[0] for line in nm.splitlines() if line.endswith(" literal"))
    for mode, fault in (("rodata", b"write to read-only address 0x%x" % int(literal, 16)),
                        ("readonly", b"write to read-only address 0x"),
                        ("none", b"read of inaccessible (PROT_NONE) address 0x"),
                        ("restore", None), ("efault", None), ("badrange", None)):
        q = qemu(exe, [mode], stdin=b"abcd")
        assert q[0].startswith(b"start\n") and q[2] == (139 if fault else 0), (mode, q)
        out, err, status = isa_ext(exe, [mode], stdin=b"abcd")
        assert (out, status) == (q[0], q[2]), (mode, out, err)
        if fault:
            assert b"isa-ext: trap at pc=0x" in err and fault in err, (mode, err)
        else:
            assert err == q[1], (mode, err)
