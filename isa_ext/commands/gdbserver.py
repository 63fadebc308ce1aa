"""``isa-ext gdbserver [--port N] PROG``: debug a program with gdb.

Loads PROG as ``isa-ext run`` does (same register, SPR and memory options),
listens on 127.0.0.1:N (``--port 0``: any free port) and prints
``listening on 127.0.0.1:N`` once ready.  Connect with::

    gdb-multiarch -ex 'set architecture powerpc:common64' -ex 'set endian little' \\
                  -ex 'target remote :N'

One debugger session is served; the command ends when gdb detaches, kills the
program or disconnects.  ``monitor sv-step on`` makes ``stepi`` move one SVP64
element at a time; ``monitor svstate`` prints SVSTATE's fields.
"""
import argparse
import socket
import sys

from ..errors import IsaExtError
from . import add_profile_option
from .linux_options import add_linux_options, linux_options
from .machine_options import (add_machine_options, machine_isa, prepare_machine,
                              translate_option)


def register(sub):
    p = sub.add_parser("gdbserver", help="serve a program to gdb (GDB remote serial protocol)",
                       description=__doc__.split("\n", 1)[1].replace("``", "").replace("::", ":").strip(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("program", help="assembly, ELF or raw instruction bytes")
    p.add_argument("--port", type=int, default=1234, metavar="N",
                   help="TCP port on 127.0.0.1 (default 1234; 0 picks a free one)")
    add_machine_options(p)
    add_profile_option(p)
    add_linux_options(p)
    p.set_defaults(func=run)


def run(args):
    from ..gdb.protocol import Connection
    from ..gdb.server import Session
    from ..sim import Simulator
    if not 0 <= args.port <= 65535:
        raise IsaExtError(f"--port {args.port}: expected 0..65535")
    sim = Simulator(isa=machine_isa(args, args.profile), little=not args.big_endian,
                    profile=args.profile, mem_limit=args.mem_limit,
                    translate=translate_option(args))
    args.linux_opts = linux_options(args, stdio=args.linux)
    prepare_machine(sim, args)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind(("127.0.0.1", args.port))
        except OSError as e:
            raise IsaExtError(f"--port {args.port}: {e.strerror}") from None
        listener.listen(1)
        print(f"listening on 127.0.0.1:{listener.getsockname()[1]}", flush=True)
        conn, _ = listener.accept()
    with conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        Session(sim, Connection(conn)).serve()
    print("debugger detached", file=sys.stderr)
    return 0
