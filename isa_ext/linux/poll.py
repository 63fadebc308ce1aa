"""poll and ppoll: which of the program's descriptors are ready.  A host
file or stream (stdin under --linux, a file in the sandbox) asks the host;
a stream isa-ext feeds (stdin given as bytes, a pipe's read end) is readable
while it holds data and hung up once no writer is left; a stream isa-ext
collects is always writable.  Nothing else runs beside the program, so a
wait that only the program itself could end is a deadlock: with no timeout
it stops the run with a trap saying so; with one, the virtual clock moves on
by it (``--clock host``: the time passes)."""
import errno as E
import select
import struct
import time

from ..errors import Trap
from .syscalls import CLOCK_MAX_NS, read_timespec, s32, syscall

POLLIN, POLLOUT, POLLHUP, POLLNVAL = 0x1, 0x4, 0x10, 0x20
POLLRDNORM, POLLWRNORM = 0x40, 0x100
MAX_FDS = 1024          # RLIMIT_NOFILE


def _fed_stream(p, f, events):
    """revents of a stream isa-ext feeds (f.source)."""
    writers = any(g.sink == f.source.extend for g in p.files.values())
    ready = (POLLIN | POLLRDNORM) if f.source else 0
    return (ready & events) | (0 if writers else POLLHUP)


def _ready(p, entries, host_timeout_ms):
    """[(fd, events)] -> [revents]; host descriptors polled with the host
    timeout (None: none given, -1: for ever)."""
    out, host = [], select.poll()
    host_fds = {}
    for fd, events in entries:
        f = p.file(fd) if fd >= 0 else None
        if fd < 0:
            out.append(0)
        elif f is None:
            out.append(POLLNVAL)
        elif f.host_fd is not None:
            host.register(f.host_fd, events)
            host_fds.setdefault(f.host_fd, []).append(len(out))
            out.append(0)
        elif f.source is not None:
            out.append(_fed_stream(p, f, events))
        else:    # a stream isa-ext collects
            out.append((POLLOUT | POLLWRNORM) & events)
    if host_fds:
        wait = 0 if any(out) or host_timeout_ms is None else host_timeout_ms
        for host_fd, revents in host.poll(wait):
            for i in host_fds[host_fd]:
                out[i] = revents
    return out


def _poll(p, fds, nfds, timeout_ns):
    """timeout_ns: None waits for ever."""
    if nfds > MAX_FDS:
        return -E.EINVAL
    raw = p.read_guest(fds, 8 * nfds)
    if raw is None:
        return -E.EFAULT
    order = "<" if p.mem.little else ">"
    entries = [struct.unpack_from(order + "ihh", raw, 8 * i)[:2] for i in range(nfds)]
    entries = [(fd, events & 0xFFFF) for fd, events in entries]
    has_host = any(p.file(fd) is not None and p.file(fd).host_fd is not None
                   for fd, _ in entries if fd >= 0)
    host_ms = None
    if has_host:
        host_ms = -1 if timeout_ns is None else -(-timeout_ns // 10**6)
    revents = _ready(p, entries, host_ms)
    if not any(revents) and not has_host:
        if timeout_ns is None:
            raise Trap("poll would wait for ever: no other thread or process can make its "
                       "descriptors ready", "deadlock", signal=9)
        if p.opts.clock == "host":
            time.sleep(min(timeout_ns / 1e9, 3600))
        else:
            p.slept_ns = min(p.slept_ns + timeout_ns, CLOCK_MAX_NS)
    out = b"".join(struct.pack(order + "ihh", fd, events, r)
                   for (fd, events), r in zip(entries, revents))
    if not p.write_guest(fds, out):
        return -E.EFAULT
    return sum(1 for r in revents if r)


@syscall(167)
def sys_poll(p, fds, nfds, timeout_ms, *_):
    ms = s32(timeout_ms)
    return _poll(p, fds, nfds, None if ms < 0 else ms * 10**6)


@syscall(281)
def sys_ppoll(p, fds, nfds, tsp, *_):
    """The signal mask is not used: no signal is ever delivered to a handler."""
    if not tsp:
        return _poll(p, fds, nfds, None)
    ns = read_timespec(p, tsp)
    return ns if ns < 0 else _poll(p, fds, nfds, ns)
