"""The calls that change directory entries (isa_ext/linux/entries.py) under
the sandbox of docs/linux.md: they act on the entry a path names, never
following its last component (unlinking a symbolic link that points out
removes the link), and only in a directory under --write.  Expected errnos:
the sandbox's rules (ENOENT outside, EACCES for a readable, not writable
place) and Linux's own (rmdir of a '..' entry: ENOTEMPTY, man 2 rmdir)."""
import errno
import os
import stat

import pytest

from isa_ext.errors import Trap
from isa_ext.linux import LinuxOptions
from isa_ext.linux.syscalls import LinuxProcess
from isa_ext.machine import ProgramExit
from isa_ext.sim import Simulator

AT_FDCWD = -100
AT_SYMLINK_NOFOLLOW, AT_REMOVEDIR = 0x100, 0x200
# ppc64 numbers (arch/powerpc/kernel/syscalls/syscall.tbl)
UNLINK, RENAME, MKDIR, RMDIR, READLINK, TRUNCATE = 10, 38, 39, 40, 85, 92
NEWFSTATAT, UNLINKAT, RENAMEAT2 = 291, 292, 357
BUF = 0x10008000


@pytest.fixture
def tree(tmp_path):
    rd, wr, outside = tmp_path / "rd", tmp_path / "wr", tmp_path / "outside"
    for d in (rd, wr, outside, outside / "dir", wr / "sub"):
        d.mkdir()
    (rd / "in.txt").write_text("in")
    (outside / "secret").write_text("secret")
    (outside / "dir" / "inner").write_text("inner")
    (wr / "own").write_text("own")
    (wr / "link-out").symlink_to(outside / "secret")
    (wr / "dir-out").symlink_to(outside / "dir")
    (rd / "link-out").symlink_to(outside / "secret")
    return tmp_path


@pytest.fixture
def call(tree):
    sim = Simulator()
    proc = LinuxProcess(sim, __file__, LinuxOptions(read=(str(tree / "rd"),),
                                                    write=(str(tree / "wr"),)), 0x20000000)
    proc.mappings[0x10000000] = 0x10000
    strings = iter(range(0x10000000, 0x10008000, 0x400))

    def do(number, *args):
        s = sim.state
        s.gpr[0] = number
        regs = []
        for a in args:
            if isinstance(a, (str, os.PathLike)):
                addr = next(strings)
                sim.state.mem.load(addr, os.fsencode(a) + b"\0")
                a = addr
            regs.append(a & (2**64 - 1))
        s.gpr[3:3 + len(regs)] = regs
        try:
            proc.syscall(s, vectored=True)   # (r3 = -errno)
        except (ProgramExit, Trap) as e:
            raise AssertionError(f"system call {number} ended the run: {e}")
        r = s.gpr[3]
        return r - 2**64 if r >> 63 else r
    do.sim = sim
    yield do
    proc.close()


def test_unlink_removes_a_link_not_what_it_points_at(tree, call):
    assert call(UNLINK, tree / "wr" / "link-out") == 0
    assert not os.path.lexists(tree / "wr" / "link-out")
    assert (tree / "outside" / "secret").read_text() == "secret"


def test_entries_outside_write_dirs_are_refused(tree, call):
    wr, rd, out = tree / "wr", tree / "rd", tree / "outside"
    assert call(UNLINK, wr / "dir-out" / "inner") == -errno.ENOENT    # through a link out
    assert call(UNLINK, out / "secret") == -errno.ENOENT
    assert call(UNLINK, wr / ".." / "outside" / "secret") == -errno.ENOENT
    assert call(UNLINK, rd / "in.txt") == -errno.EACCES               # readable only
    assert call(RENAME, rd / "in.txt", wr / "stolen") == -errno.EACCES
    assert call(RENAME, wr / "own", out / "taken") == -errno.ENOENT
    assert call(RENAME, wr / "own", wr / "dir-out" / "taken") == -errno.ENOENT
    assert call(MKDIR, wr / ".." / "outside" / "made", 0o755) == -errno.ENOENT
    assert call(RMDIR, wr) == -errno.ENOENT                           # the root itself
    assert call(RMDIR, wr / "..") == -errno.ENOENT
    assert call(TRUNCATE, wr / "link-out", 0) == -errno.ENOENT        # follows: outside
    assert call(RENAMEAT2, AT_FDCWD, wr / "own", AT_FDCWD, wr / "x", 2) == -errno.EINVAL
    assert sorted(os.listdir(out)) == ["dir", "secret"] and os.listdir(out / "dir") == ["inner"]
    assert (out / "secret").read_text() == "secret" and (wr / "own").read_text() == "own"
    assert (rd / "in.txt").read_text() == "in"


def test_entries_inside_write_dirs_change(tree, call):
    wr = tree / "wr"
    assert call(MKDIR, wr / "sub" / "d", 0o700) == 0 and (wr / "sub" / "d").is_dir()
    assert call(UNLINKAT, AT_FDCWD, wr / "sub" / "..", AT_REMOVEDIR) == -errno.ENOTEMPTY
    assert call(RENAME, wr / "own", wr / "sub" / "d" / "moved") == 0
    assert call(RENAMEAT2, AT_FDCWD, wr / "sub" / "d" / "moved", AT_FDCWD, wr / "link-out",
                1) == -errno.EEXIST                                   # RENAME_NOREPLACE
    assert call(UNLINKAT, AT_FDCWD, wr / "sub" / "d", AT_REMOVEDIR) == -errno.ENOTEMPTY
    assert call(UNLINK, wr / "sub" / "d" / "moved") == 0
    assert call(RMDIR, wr / "sub" / "d") == 0
    assert sorted(os.listdir(wr)) == ["dir-out", "link-out", "sub"] and not os.listdir(wr / "sub")


def test_lstat_sees_the_link_itself(tree, call):
    def mode():
        # struct stat on ppc64 (asm/stat.h): st_dev, st_ino, st_nlink, then
        # the 32-bit st_mode at offset 24
        return int.from_bytes(call.sim.state.mem.read_bytes(BUF + 24, 4), "little")
    # a link in a readable directory pointing out: lstat reads the link,
    # stat follows it out of the sandbox (ENOENT)
    link = tree / "rd" / "link-out"
    assert call(NEWFSTATAT, AT_FDCWD, link, BUF, AT_SYMLINK_NOFOLLOW) == 0
    assert stat.S_ISLNK(mode()) and mode() == os.lstat(link).st_mode
    assert call(NEWFSTATAT, AT_FDCWD, link, BUF, 0) == -errno.ENOENT
    assert call(NEWFSTATAT, AT_FDCWD, tree / "outside" / "secret", BUF,
                AT_SYMLINK_NOFOLLOW) == -errno.ENOENT
    assert call(NEWFSTATAT, AT_FDCWD, tree / "rd" / "in.txt", BUF, AT_SYMLINK_NOFOLLOW) == 0
    assert stat.S_ISREG(mode())


def test_readlink_answers_for_the_directories_above_an_allowed_one(tree, call):
    # realpath(3) calls readlink on every component of an absolute path: a
    # directory above --read/--write is not a link (EINVAL), one elsewhere
    # does not exist (ENOENT)
    assert call(READLINK, tree, BUF, 100) == -errno.EINVAL
    assert call(READLINK, "/", BUF, 100) == -errno.EINVAL
    assert call(READLINK, tree / "outside", BUF, 100) == -errno.ENOENT
    assert call(READLINK, tree / "outside" / "dir", BUF, 100) == -errno.ENOENT
    assert call(READLINK, tree / "rd" / "link-out", BUF, 100) == len(str(tree / "outside"
                                                                          / "secret"))
