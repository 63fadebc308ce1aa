"""Running Linux ppc64 programs as ``qemu-ppc64le`` does (docs/linux.md).

``process``: the initial stack and registers (argv, envp, auxiliary vector);
``sandbox``: which host paths the guest may read or write; ``syscalls``: the
system-call table and one handler per call, in the shape of QEMU's linux-user.
"""
from .process import LinuxOptions  # noqa: F401
