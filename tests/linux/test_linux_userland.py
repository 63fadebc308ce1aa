"""Everyday glibc programs (tests/linux/progs/userland.c) under isa-ext
against qemu-ppc64le -cpu power10, static and --sysroot dynamic: stdout,
stderr and status byte for byte.  readdir of a --read directory, stdio on
files under --write (seek, append, rename, unlink), directory entries
(lstat of a symbolic link, unlink of the link alone, mkdir, rmdir, rename,
truncate), strtod/printf round trips, calendar functions, qsort/bsearch of
structs with realloc growth, libm, and odds and ends (sscanf, longjmp,
atexit, fmemopen)."""
import os
import subprocess
import sys

import pytest

from conftest import CLEAN_ENV, SYSROOT, TESTS_DIR, glibc_builds, need_tool

PROGS = os.path.join(TESTS_DIR, "linux", "progs")


@pytest.fixture(scope="module")
def userland(tmp_path_factory):
    return glibc_builds(tmp_path_factory.mktemp("userland"), os.path.join(PROGS, "userland.c"), extra=["-lm"])


def qemu(exe, args):
    r = subprocess.run([need_tool("qemu-ppc64le"), "-cpu", "power10", "-L", SYSROOT, exe,
                        *args], env=CLEAN_ENV, capture_output=True, timeout=300)
    return r.stdout, r.stderr, r.returncode


def isa_ext(exe, kind, args, flags=()):
    sysroot = ["--sysroot", SYSROOT] if kind == "dynamic" else []
    r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", "--max-steps",
                        "100000000", *sysroot, *flags, exe, "--", *args], capture_output=True,
                       timeout=900)
    return r.stdout, r.stderr, r.returncode


def a_directory(root):
    root.mkdir()
    (root / "file").write_text("abc")
    (root / "sub").mkdir()
    (root / "link").symlink_to("file")
    (root / "dangling").symlink_to(root.parent / "nowhere")
    return str(root)


def a_writable_directory(root, outside):
    # "link" points at a file outside it, which the program may read (--read)
    root.mkdir()
    (root / "link").symlink_to(outside / "target")
    return str(root)


ALL_KINDS = ["static", "dynamic"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("part", ["dir", "files", "entries"])
def test_file_system_use_matches_qemu(userland, tmp_path, kind, part):
    exe = userland[kind]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target").write_text("keep")
    if part == "dir":
        where = {"q": a_directory(tmp_path / "d")}
        where["i"] = where["q"]
        flags = ["--read", where["i"]]
    else:
        where = {who: a_writable_directory(tmp_path / who, outside) for who in "qi"}
        flags = ["--write", where["i"], "--read", str(outside)]
    want = qemu(exe, [part, where["q"]])
    got = isa_ext(exe, kind, [part, where["i"]], flags)
    assert want[2] == 0 and got == want
    # both left the same entries behind; the file outside is untouched
    assert sorted(os.listdir(where["i"])) == sorted(os.listdir(where["q"]))
    assert sorted(os.listdir(outside)) == ["target"] and (outside / "target").read_text() == "keep"


@pytest.mark.slow
@pytest.mark.parametrize("kind, part", [(k, p) for p in ("time", "math", "misc") for k in ALL_KINDS]
                         + [("static", "strtod"), ("static", "qsort")])
def test_library_use_matches_qemu(userland, kind, part):
    exe = userland[kind]
    want = qemu(exe, [part])
    assert want[2] == (5 if part == "misc" else 0)
    assert isa_ext(exe, kind, [part]) == want


def closed_pipe(data):
    """The read end of a pipe holding ``data`` whose writer has gone."""
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    return r


@pytest.mark.parametrize("stdin", ["file", "closed pipe", "bytes (the API)"])
def test_poll_matches_qemu(userland, tmp_path, stdin):
    exe = userland["static"]
    data = b"".join(b"%d\n" % i for i in range(100))
    (tmp_path / "in").write_bytes(data)

    def source():
        return open(tmp_path / "in", "rb") if stdin == "file" else closed_pipe(data)
    q_in = source()
    q = subprocess.run([need_tool("qemu-ppc64le"), "-cpu", "power10", exe, "poll"], stdin=q_in,
                       env=CLEAN_ENV, capture_output=True, timeout=120)
    assert q.returncode == 0 and b"stdin read out (100 lines)" in q.stdout
    # (a pipe whose writer left: readable and hung up, 0x11; a file: 0x1)
    assert q.stdout.startswith(b"poll 3: stdin %x stdout 4 none 0 closed 20\n"
                               % (1 if stdin == "file" else 0x11))
    if not isinstance(q_in, int):
        q_in.close()
    else:
        os.close(q_in)
    if stdin == "bytes (the API)":
        from isa_ext.sim import Simulator
        sim = Simulator().load_elf(exe, argv=[exe, "poll"], stdin=data)
        res = sim.run(max_steps=10**8)
        got = (bytes(sim.state.stdout), res.exit_status)
    else:
        i_in = source()
        r = subprocess.run([sys.executable, "-m", "isa_ext", "run", "--linux", exe, "--", "poll"],
                           stdin=i_in, capture_output=True, timeout=600)
        i_in.close() if not isinstance(i_in, int) else os.close(i_in)
        got = (r.stdout, r.returncode)
    assert got == (q.stdout, 0)
