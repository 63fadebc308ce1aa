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

from conftest import TESTS_DIR, need_tool

PROGS = os.path.join(TESTS_DIR, "linux", "progs")
SYSROOT = "/usr/powerpc64le-linux-gnu"
CLEAN_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C"}


@pytest.fixture(scope="module")
def userland(tmp_path_factory):
    out = tmp_path_factory.mktemp("userland")
    gcc = need_tool("powerpc64le-linux-gnu-gcc")
    built = {}
    for kind, flags in (("static", ["-static"]), ("dynamic", [])):
        exe = out / f"userland-{kind}"
        subprocess.run([gcc, "-O2", *flags, "-o", str(exe), os.path.join(PROGS, "userland.c"),
                        "-lm"], check=True, capture_output=True)
        built[kind] = str(exe)
    return built


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
