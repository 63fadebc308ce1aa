"""The guest's view of the host file system: only what the user allowed.

A guest path is never handed to the host unresolved: it is joined to the
guest's working directory (or a directory descriptor's path), every symbolic
link and ``..`` is resolved on the host (os.path.realpath, as the kernel walks
a path), and the result must lie under a root given with ``--read`` (read) or
``--write`` (read and write), or be the program itself (with a sysroot, an
absolute path is first looked up under it, read only, as qemu -L does).
Anything else does not exist for the guest (ENOENT); a path it may read but
not write gives EACCES when opened for writing.  The file is then opened with O_NOFOLLOW, so a
link swapped in after the check is refused rather than followed.
"""
import errno
import os


class SandboxError(OSError):
    """A refused path: ``errno`` is what the system call returns."""


def _under(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


class Sandbox:
    def __init__(self, read=(), write=(), program=None, cwd=None, sysroot=None):
        # an absolute guest path is first looked up under the sysroot, as
        # qemu -L does (read only), then as itself
        self.sysroot = os.path.realpath(sysroot) if sysroot else None
        self.write_roots = [os.path.realpath(d) for d in write]
        self.read_roots = [os.path.realpath(d) for d in read] + self.write_roots
        self.program = os.path.realpath(program) if program else None
        self.cwd = os.path.realpath(cwd) if cwd else os.getcwd()

    def resolve(self, guest_path, base=None, write=False):
        """The host path for ``guest_path`` (relative to ``base`` or the
        working directory), or SandboxError(ENOENT / EACCES)."""
        if not guest_path:
            raise SandboxError(errno.ENOENT, "empty path")
        if "\0" in guest_path:
            raise SandboxError(errno.EINVAL, "NUL in path")
        joined = os.path.join(base or self.cwd, guest_path)
        if self.sysroot and not write and guest_path.startswith("/"):
            inside = os.path.realpath(os.path.join(self.sysroot, guest_path.lstrip("/")))
            if _under(inside, self.sysroot) and os.path.exists(inside):
                return inside
        host = os.path.realpath(joined)
        if write:
            self._check_writable(host, guest_path)
            return host
        if self.readable(host):
            return host
        raise SandboxError(errno.ENOENT, f"{guest_path}: outside the sandbox")

    def resolve_entry(self, guest_path, base=None, write=False):
        """The host path of the directory entry ``guest_path`` names, its last
        component NOT followed (lstat, unlink, rename, mkdir, rmdir act on a
        symbolic link itself): the parent directory is resolved as
        ``resolve`` does, and must be readable (``write``: under a --write
        directory; the sandbox's own roots cannot be removed or replaced)."""
        if not guest_path:
            raise SandboxError(errno.ENOENT, "empty path")
        if "\0" in guest_path:
            raise SandboxError(errno.EINVAL, "NUL in path")
        head, name = os.path.split(os.path.join(base or self.cwd, guest_path).rstrip("/") or "/")
        if not name:                      # "/" itself
            name = "."
        if self.sysroot and not write and guest_path.startswith("/"):
            inside = os.path.join(os.path.realpath(os.path.join(self.sysroot, head.lstrip("/"))),
                                  name)
            if _under(os.path.dirname(inside), self.sysroot) and os.path.lexists(inside):
                return inside
        parent = os.path.realpath(head)
        # (a last component "." or ".." stays as it is: the host refuses to
        # unlink, rename or remove it, and lstat reads a directory checked here)
        host = os.path.join(parent, name)
        checked = os.path.realpath(host) if name in (".", "..") else parent
        if write:
            self._check_writable(checked, guest_path)
            return host
        if self.readable(checked) or self.readable(os.path.realpath(host)):
            return host
        raise SandboxError(errno.ENOENT, f"{guest_path}: outside the sandbox")

    def on_the_way(self, host):
        """Whether ``host`` is a directory above an allowed one (a --read or
        --write directory, the sysroot, the program): the program may learn
        that it is a directory, or where it links to (readlink), as
        realpath(3) asks of every component, but not list or open it."""
        roots = self.read_roots + ([self.sysroot] if self.sysroot else []) + \
            ([os.path.dirname(self.program)] if self.program else [])
        return any(_under(r, host) and r != host for r in roots)

    def _check_writable(self, host, guest_path):
        """Raise unless ``host`` lies under a --write directory: EACCES when
        the guest may read it, ENOENT when it does not exist for the guest."""
        if any(_under(host, r) for r in self.write_roots):
            return
        if self.readable(host):
            raise SandboxError(errno.EACCES, f"{guest_path}: not under a --write directory")
        raise SandboxError(errno.ENOENT, f"{guest_path}: outside the sandbox")

    def readable(self, host):
        return (host == self.program or any(_under(host, r) for r in self.read_roots)
                or (self.sysroot is not None and _under(host, self.sysroot)))
