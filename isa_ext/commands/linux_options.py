"""``isa-ext run`` flags for ELF programs run as Linux processes (docs/linux.md):
arguments after ``--``, the environment, the sandbox, the seed and the clock."""
import os

from ..errors import IsaExtError


def add_linux_options(p):
    g = p.add_argument_group("Linux programs (ELF; docs/linux.md)")
    p.add_argument("guest_args", nargs="*", metavar="ARG",
                   help="the program's arguments (after --): argv[1:]")
    g.add_argument("--linux", action="store_true",
                   help="run as qemu-ppc64le does: the program's stdout/stderr go to ours, "
                        "its stdin is ours, the exit status is its own, no report")
    g.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                   help="set an environment variable (repeatable)")
    g.add_argument("--unset-env", action="append", default=[], metavar="KEY",
                   help="remove an environment variable (repeatable)")
    g.add_argument("--host-env", action="store_true",
                   help="start from the host's environment instead of the clean one "
                        "(PATH=/usr/bin:/bin LANG=C)")
    g.add_argument("--stdin", default=None, metavar="FILE",
                   help="the program's standard input reads FILE (as a shell's '< FILE': "
                        "a regular file, which it may seek); default: ours under --linux, "
                        "else empty")
    g.add_argument("--cwd", default=None, metavar="DIR",
                   help="the program's working directory (default: ours)")
    g.add_argument("--read", action="append", default=[], metavar="DIR",
                   help="let the program read files under DIR (repeatable)")
    g.add_argument("--write", action="append", default=[], metavar="DIR",
                   help="let the program read and write files under DIR (repeatable)")
    g.add_argument("--sysroot", default=None, metavar="DIR",
                   help="run a dynamically linked program: its interpreter and libraries "
                        "come from DIR (read only), as qemu-ppc64le -L DIR")
    g.add_argument("--seed", type=int, default=0,
                   help="seed of getrandom, AT_RANDOM and the hashst key (default 0)")
    g.add_argument("--clock", choices=("virtual", "host"), default="virtual",
                   help="virtual: deterministic time (default); host: real time")


def linux_options(args, stdio=False):
    """LinuxOptions from the flags; ``stdio``: connect the program to our
    standard streams (--linux)."""
    import sys
    from ..linux import LinuxOptions
    from ..linux.process import DEFAULT_ENV
    env = dict(os.environ) if args.host_env else dict(DEFAULT_ENV)
    for item in args.env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise IsaExtError(f"--env {item}: expected KEY=VALUE")
        env[key] = value
    for key in args.unset_env:
        env.pop(key, None)
    for d in args.read + args.write + [x for x in (args.cwd, args.sysroot) if x]:
        if not os.path.isdir(d):
            raise IsaExtError(f"{d}: not a directory")
    opts = LinuxOptions(argv=[args.program] + list(args.guest_args), env=env,
                        read=tuple(args.read), write=tuple(args.write), cwd=args.cwd,
                        seed=args.seed, clock=args.clock, sysroot=args.sysroot)
    if stdio:
        opts.stdin, opts.stdout, opts.stderr = 0, sys.stdout.buffer, sys.stderr.buffer
    if args.stdin is not None:
        opts.stdin = _open_stdin(args.stdin)
    return opts


def _open_stdin(path):
    """A host descriptor reading ``path`` for the program's fd 0.  The user
    named the file, so it is outside the sandbox's rules, as a shell's
    redirection is."""
    if os.path.isdir(path):
        raise IsaExtError(f"--stdin {path}: is a directory")
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as e:
        raise IsaExtError(f"--stdin {path}: {e.strerror}") from None
