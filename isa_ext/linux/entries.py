"""System calls that change directory entries or a file's size: unlink,
rename, mkdir, rmdir (and their *at forms), truncate, ftruncate, fsync and
fdatasync.  The entry a path names is resolved by ``Sandbox.resolve_entry``:
its last component is not followed (unlinking a symbolic link removes the
link), and its directory must lie under a --write directory."""
import errno as E
import os

from .syscalls import AT_FDCWD, O_ACCMODE, syscall
from ..machine import M64

AT_REMOVEDIR = 0x200
RENAME_NOREPLACE = 1
CWD = AT_FDCWD & M64


def _entry(p, dirfd, path):
    return p.sandbox.resolve_entry(p.read_string(path), p.dir_base(dirfd), write=True)


@syscall(10)
def sys_unlink(p, path, *_):
    return sys_unlinkat(p, CWD, path, 0)


@syscall(40)
def sys_rmdir(p, path, *_):
    return sys_unlinkat(p, CWD, path, AT_REMOVEDIR)


@syscall(292)
def sys_unlinkat(p, dirfd, path, flags, *_):
    if flags & ~AT_REMOVEDIR:
        return -E.EINVAL
    host = _entry(p, dirfd, path)
    (os.rmdir if flags & AT_REMOVEDIR else os.unlink)(host)
    return 0


@syscall(39)
def sys_mkdir(p, path, mode, *_):
    return sys_mkdirat(p, CWD, path, mode)


@syscall(287)
def sys_mkdirat(p, dirfd, path, mode, *_):
    os.mkdir(_entry(p, dirfd, path), mode & 0o7777)
    return 0


@syscall(38)
def sys_rename(p, old, new, *_):
    return sys_renameat2(p, CWD, old, CWD, new, 0)


@syscall(293)
def sys_renameat(p, olddirfd, old, newdirfd, new, *_):
    return sys_renameat2(p, olddirfd, old, newdirfd, new, 0)


@syscall(357)
def sys_renameat2(p, olddirfd, old, newdirfd, new, flags, *_):
    """RENAME_NOREPLACE as the kernel's (EEXIST when the new name exists);
    RENAME_EXCHANGE and RENAME_WHITEOUT are not emulated (EINVAL, listed)."""
    if flags & ~RENAME_NOREPLACE:
        p.note_once("unsupported-rename-flags", ("renameat2", flags),
                    f"renameat2 flags 0x{flags:x} are not emulated: returned -EINVAL",
                    {"flags": flags})
        return -E.EINVAL
    src, dst = _entry(p, olddirfd, old), _entry(p, newdirfd, new)
    if flags & RENAME_NOREPLACE and os.path.lexists(dst):
        return -E.EEXIST
    os.rename(src, dst)
    return 0


@syscall(92)
def sys_truncate(p, path, length, *_):
    host = p.sandbox.resolve(p.read_string(path), None, write=True)
    if length >> 63:                  # a negative length
        return -E.EINVAL
    os.truncate(host, length)
    return 0


def _writable_file(p, fd):
    """The host descriptor of a file the program opened for writing, or
    -errno as ftruncate gives it (EBADF: no such fd; EINVAL: not a file
    opened for writing)."""
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    if f.host_fd is None or f.path is None or f.flags & O_ACCMODE == 0:
        return -E.EINVAL
    return f.host_fd


@syscall(93)
def sys_ftruncate(p, fd, length, *_):
    host_fd = _writable_file(p, fd)
    if host_fd < 0:
        return host_fd
    if length >> 63:
        return -E.EINVAL
    os.ftruncate(host_fd, length)
    return 0


@syscall(118, 148)
def sys_fsync(p, fd, *_):
    """fsync, fdatasync: the data reaches the host file at each write, so
    there is nothing to wait for; a stream (a pipe) gives EINVAL."""
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    return 0 if f.host_fd is not None and f.path is not None else -E.EINVAL
