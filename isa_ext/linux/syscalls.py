"""The Linux ppc64 system-call layer: one table (SYSCALLS, number -> handler),
one handler per call, in the shape of QEMU's linux-user/syscall.c.

A handler takes the process and the six argument registers (r3..r8) and
returns a result >= 0 or -errno; ``LinuxProcess.syscall`` turns -errno into
the ppc64 convention (positive errno in r3, CR0.SO set).  A call not in the
table returns -ENOSYS and is listed in the run's diagnostics, never a silent
success.  Only the exit calls and a fatal signal to the process itself
(kill/tgkill/tkill: raise, abort) end the run, with status 128+N for a signal
as a shell reports it.
"""
import errno as E
import fcntl
import os
import random
import stat as st
import struct
import termios
import time

from ..diagnostics import Diagnostic
from ..errors import Trap
from ..machine import ProgramExit, M64, PAGE_SIZE, MAX_WRITE_BYTES, _prctl
from .sandbox import Sandbox, SandboxError
from .terminal import guest_termios, guest_winsize

SYSCALLS = {}


def syscall(*numbers):
    def register(fn):
        for n in numbers:
            SYSCALLS[n] = fn
        return fn
    return register


AT_FDCWD = -100
O_ACCMODE, O_WRONLY, O_RDWR = 3, 1, 2
O_CREAT, O_EXCL, O_TRUNC, O_APPEND = 0o100, 0o200, 0o1000, 0o2000
O_DIRECTORY_PPC, O_NOFOLLOW_PPC, O_CLOEXEC = 0o40000, 0o100000, 0o2000000
AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW = 0x1000, 0x100
MAP_SHARED, MAP_PRIVATE, MAP_FIXED, MAP_ANONYMOUS = 1, 2, 0x10, 0x20
PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4
PROT_RW = PROT_READ | PROT_WRITE
MREMAP_MAYMOVE = 1
MMAP_TOP = 0x7FFF_F000_0000      # mappings are placed downwards from here
SIGKILL, SIGABRT, SIGSEGV, SIGPIPE = 9, 6, 11, 13
SIG_DFL, SIG_IGN = 0, 1
# the default action of these signals is to end the process (man 7 signal)
FATAL_SIGNALS = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 25, 26, 27, 29,
                 30, 31}
VIRTUAL_EPOCH = 1_700_000_000    # the virtual clock's start (2023-11-14T22:13:20Z)
# the virtual clock's rate: a 1 GHz machine retiring one instruction a cycle
NS_PER_INSTRUCTION = 1
CLOCK_REALTIME, CLOCK_MONOTONIC = 0, 1
CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID = 2, 3
TIMER_ABSTIME = 1
PID, PPID = 1000, 999
CLOCK_MAX_NS = (1 << 62)        # far beyond any run; keeps every time value in 64 bits


def _fileno(stream):
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):   # no stream, or one without a descriptor
        return None


def s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


class GuestFile:
    """An open file description: a host fd (inside the sandbox), or one of the
    process's standard streams."""

    def __init__(self, host_fd=None, sink=None, source=None, path=None, flags=0, tty_fd=None):
        self.host_fd, self.sink, self.source, self.path, self.flags = \
            host_fd, sink, source, path, flags
        # a stream written through ``sink``: the host descriptor it goes to,
        # which ioctl asks whether it is a terminal
        self.tty_fd = tty_fd
        self.refs = 1


class LinuxProcess:
    """The kernel side of one guest process: files, memory map, clock,
    signals.  Installed as ``State.syscall_handler`` by the ELF loader."""

    def __init__(self, sim, program, opts, brk_start):
        self.sim = sim
        self.opts = opts
        self.sandbox = Sandbox(opts.read, opts.write, program=program, cwd=opts.cwd,
                               sysroot=opts.sysroot)
        self.program = os.path.realpath(program)
        self.brk_start = self.brk = (brk_start + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1)
        self.mappings = {}       # start -> length (page multiples)
        # page protection (mprotect, mmap's prot, the ELF segments' flags):
        # page number -> PROT_* bits for every page that is not read-write;
        # a read-only page is held as bytes in Memory.pages, an inaccessible
        # one (PROT_NONE) is taken out of it into ``hidden`` until readable again
        self.prot = {}
        self.hidden = {}
        self.fixed_regions = []  # the ELF images and the stack: (start, end)
        self.rng = random.Random(opts.seed)
        self.slept_ns = 0        # virtual time the program slept (nanosleep)
        self.sigactions = {}
        self.unsupported = {}
        s = sim.state
        stdin = opts.stdin
        self.files = {
            0: GuestFile(host_fd=stdin) if isinstance(stdin, int) else GuestFile(
                source=bytearray(stdin or b"")),
            1: GuestFile(sink=self._sink(opts.stdout, s.stdout), tty_fd=_fileno(opts.stdout)),
            2: GuestFile(sink=self._sink(opts.stderr, s.stderr), tty_fd=_fileno(opts.stderr)),
        }

    def close(self):
        """Close the host files the program left open (at exit, or when the
        process is dropped)."""
        for f in self.files.values():
            if f.host_fd is not None and f.path is not None:
                try:
                    os.close(f.host_fd)
                except OSError:
                    pass
                f.host_fd = None
        self.files.clear()

    def __del__(self):
        self.close()

    @staticmethod
    def _sink(stream, buffer):
        if stream is None:
            return buffer.extend

        def write(data):
            stream.write(data)
            stream.flush()
        return write

    # -- the memory map -------------------------------------------------------------
    def regions(self):
        """[(start, end)] of the guest's memory: its images, stack, heap, mappings."""
        out = list(self.fixed_regions)
        out.append((self.brk_start, _page_up(self.brk)))
        out += [(s, s + n) for s, n in self.mappings.items()]
        return out

    def mapped_len(self, addr, n, write=False):
        """How many bytes from addr on lie in the memory map and may be read
        (or, with ``write``, written)."""
        pos, end = addr, addr + n
        regions = self.regions()
        while pos < end:
            hit = next((e for s, e in regions if s <= pos < e), None)
            if hit is None:
                break
            pos = hit
        pos = min(pos, end)
        if self.prot:
            need = PROT_WRITE if write else PROT_READ
            for k in range(addr >> 12, ((pos - 1) >> 12) + 1 if pos > addr else addr >> 12):
                if not self.prot.get(k, PROT_RW) & need:
                    pos = max(addr, k << 12)
                    break
        return pos - addr

    def fault(self, addr, write):
        """Memory.fault: a page outside the memory map, or against its
        protection, ends the run as SIGSEGV."""
        prot = self.prot.get(addr >> 12)
        if prot is not None:
            if not prot & PROT_READ:
                raise Trap(f"SIGSEGV: {'write to' if write else 'read of'} inaccessible "
                           f"(PROT_NONE) address 0x{addr:x}{self._unrun(SIGSEGV)}", "segv")
            if write and not prot & PROT_WRITE:
                raise Trap(f"SIGSEGV: write to read-only address 0x{addr:x}"
                           f"{self._unrun(SIGSEGV)}", "segv")
        if any(s <= addr < e for s, e in self.regions()):
            return
        raise Trap(f"SIGSEGV: {'write to' if write else 'read of'} unmapped address "
                   f"0x{addr:x}{self._unrun(SIGSEGV)}", "segv")

    def _unrun(self, sig):
        """What a fault's note adds when the program has a handler for its
        signal, which Linux would run: running handlers is not emulated."""
        action = self.sigactions.get(sig, SIG_DFL)
        if action in (SIG_DFL, SIG_IGN):
            return ""
        return (f" (the program's handler for signal {sig} at 0x{action:x} is not run: "
                "running signal handlers is not emulated)")

    def protect(self, start, length, prot):
        """Give the pages of [start, start+length) the PROT_* bits ``prot``
        (write implies read, as on Power; execute is not checked: docs/linux.md)."""
        if prot & PROT_WRITE:
            prot |= PROT_READ
        pages, hidden, table = self.mem.pages, self.hidden, self.prot
        first, end = start >> 12, (start + length + PAGE_SIZE - 1) >> 12
        if prot & PROT_RW == PROT_RW and not table:
            return
        for k in range(first, end):
            if prot & PROT_RW == PROT_RW:
                table.pop(k, None)
            else:
                table[k] = prot
            if prot & PROT_READ:
                if k in hidden:
                    pages[k] = hidden.pop(k)
                page = pages.get(k)
                if page is not None:
                    kind = bytearray if prot & PROT_WRITE else bytes
                    if type(page) is not kind:
                        pages[k] = kind(page)
            elif k in pages:
                hidden[k] = pages.pop(k)
        self.sim.invalidate()   # decoded code may live in a page that went away

    # -- the entry point ---------------------------------------------------------
    def syscall(self, s, vectored=False):
        """sc: -errno becomes CR0.SO + errno; scv: r3 = -errno as it is (the
        kernel's scv ABI, Documentation/powerpc/syscall64-abi.rst)."""
        num = s.gpr[0]
        handler = SYSCALLS.get(num)
        if handler is None:
            self._unsupported(num)
            r = -E.ENOSYS
        else:
            try:
                r = handler(self, *s.gpr[3:9])
            except SandboxError as e:
                r = -e.errno
            except OSError as e:     # a host call inside the sandbox failed
                r = -(e.errno or E.EIO)
            except (ValueError, OverflowError):   # an argument the host cannot take
                r = -E.EINVAL
        if vectored:
            s.gpr[3] = r & M64
        elif r < 0:
            s.gpr[3] = -r
            s.cr[0] |= 1
        else:
            s.gpr[3] = r & M64
            s.cr[0] &= ~1

    def _unsupported(self, num):
        self.note_once("unsupported-syscall", num,
                       f"system call {num} is not emulated: returned -ENOSYS", {"number": num})

    def note_once(self, kind, key, message, data):
        """A diagnostic the first time ``key`` is met (counted after that)."""
        n = self.unsupported.get(key, 0)
        self.unsupported[key] = n + 1
        if n == 0:
            self.sim.diagnostics.append(Diagnostic(kind, self.sim.state.pc, message, data))

    # -- helpers -------------------------------------------------------------------
    @property
    def mem(self):
        return self.sim.state.mem

    def read_guest(self, addr, n):
        """n bytes at addr, or None (EFAULT) if not all are mapped."""
        if n and self.mapped_len(addr, n) < n:
            return None
        return self.mem.read_bytes(addr, n)

    def write_guest(self, addr, data):
        """Store data at addr; False (EFAULT) if not all of it is mapped writable."""
        if data and self.mapped_len(addr, len(data), write=True) < len(data):
            return False
        self.mem.write_bytes(addr, bytes(data))
        return True

    def read_string(self, addr, limit=4096):
        out = bytearray()
        while len(out) < limit:
            if not self.mapped_len(addr + len(out), 1):
                raise SandboxError(E.EFAULT, "bad address")
            b = self.mem.read_bytes(addr + len(out), 1)[0]
            if b == 0:
                return out.decode("utf-8", "surrogateescape")
            out.append(b)
        raise SandboxError(E.ENAMETOOLONG, "path too long")

    def file(self, fd):
        return self.files.get(s32(fd))

    def new_fd(self, f, lowest=0):
        fd = lowest
        while fd in self.files:
            fd += 1
        self.files[fd] = f
        return fd

    def dir_base(self, dirfd):
        dirfd = s32(dirfd)
        if dirfd == AT_FDCWD:
            return None
        f = self.files.get(dirfd)
        if f is None or f.path is None:
            raise SandboxError(E.EBADF, "bad directory fd")
        return f.path

    def now_ns(self, clock_id=CLOCK_REALTIME):
        """The time on clock ``clock_id`` (clock_gettime's clocks).  Virtual
        (the default): the instructions retired so far at NS_PER_INSTRUCTION,
        plus the time slept (not for the CPU-time clocks); the wall clocks
        start at VIRTUAL_EPOCH, the others at 0."""
        if self.opts.clock == "host":
            return time.clock_gettime_ns(clock_id if clock_id in (0, 1) else 0)
        ran = self.sim.retired() * NS_PER_INSTRUCTION
        if clock_id in (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID):
            return ran
        now = min(ran + self.slept_ns, CLOCK_MAX_NS)
        if clock_id in (CLOCK_REALTIME, 5, 8, 11):   # _COARSE, BOOTTIME, TAI: the wall
            return now + VIRTUAL_EPOCH * 10**9
        return now                                   # MONOTONIC (_RAW, _COARSE)

    def reserved_bytes(self):
        return (self.brk - self.brk_start) + sum(self.mappings.values())

    def signal_self(self, sig):
        action = self.sigactions.get(sig, SIG_DFL)
        if action not in (SIG_DFL, SIG_IGN):
            # a handler would run on a signal frame and come back through
            # rt_sigreturn: not emulated, so say so rather than end as if
            # the program had left the default action
            raise Trap(f"signal {sig} sent to itself has a handler at 0x{action:x}: running "
                       "signal handlers is not emulated", "signal", signal=sig)
        if sig in FATAL_SIGNALS and action != SIG_IGN:
            self.sim.diagnostics.append(Diagnostic(
                "signal", self.sim.state.pc, f"killed by signal {sig}", {"signal": sig}))
            raise ProgramExit(128 + sig)
        return 0


LinuxProcess.syscall.supports_scv = True   # State.syscall passes scv on


# -- process ------------------------------------------------------------------------
@syscall(1, 234)
def sys_exit(p, status, *_):
    p.close()
    raise ProgramExit(status & 0xFF)


@syscall(20)
def sys_getpid(p, *_):
    return PID


@syscall(207)
def sys_gettid(p, *_):
    return PID


@syscall(64)
def sys_getppid(p, *_):
    return PPID


@syscall(24, 49, 47, 50)
def sys_getuid(p, *_):
    from .process import GUEST_UID
    return GUEST_UID


@syscall(232)
def sys_set_tid_address(p, *_):
    return PID


@syscall(300)
def sys_set_robust_list(p, *_):
    return 0


@syscall(387)
def sys_rseq(p, *_):
    return -E.ENOSYS        # as QEMU: glibc then goes on without rseq


@syscall(171)
def sys_prctl(p, *_):
    return _prctl(p.sim.state)


@syscall(2, 120, 189, 435)
def sys_clone(p, *_):
    return -E.EAGAIN        # no process or thread creation in the sandbox


@syscall(11, 362)
def sys_execve(p, *_):
    return -E.EACCES


@syscall(326, 327)
def sys_socket(p, *_):
    return -E.EACCES


@syscall(158)
def sys_sched_yield(p, *_):
    return 0


@syscall(223)
def sys_sched_getaffinity(p, pid, size, mask, *_):
    if size < 8:
        return -E.EINVAL
    if not p.write_guest(mask, (1).to_bytes(8, "little" if p.mem.little else "big")):
        return -E.EFAULT
    return 8


@syscall(221)
def sys_futex(p, addr, op, val, *_):
    cmd = op & 0x7F
    if cmd == 0:            # FUTEX_WAIT: a single thread would wait forever
        return -E.EAGAIN if p.mem.read(addr, 4) != (val & 0xFFFFFFFF) else -E.EDEADLK
    if cmd == 1:            # FUTEX_WAKE: nobody to wake
        return 0
    return -E.ENOSYS


@syscall(325)
def sys_prlimit64(p, pid, resource, new, old, *_):
    from .process import STACK_LIMIT
    if old:
        cur = STACK_LIMIT if resource == 3 else M64     # RLIMIT_STACK, else infinity
        if resource == 7:                               # RLIMIT_NOFILE
            cur = 1024
        if not p.write_guest(old, struct.pack("<QQ" if p.mem.little else ">QQ", cur,
                                              M64 if resource != 7 else 4096)):
            return -E.EFAULT
    return 0


@syscall(190, 76)
def sys_getrlimit(p, resource, old, *_):
    return sys_prlimit64(p, 0, resource, 0, old)


@syscall(116)
def sys_sysinfo(p, info, *_):
    limit = p.mem.limit
    fmt = ("<" if p.mem.little else ">") + "qQQQQQQQHHxxxxQQI"
    data = struct.pack(fmt, p.now_ns(1) // 10**9, 0, 0, 0, limit,
                       limit - p.reserved_bytes(), 0, 0, 1, 0, 0, 0, 1)
    data += bytes(112 - len(data))
    return 0 if p.write_guest(info, data) else -E.EFAULT


@syscall(122)
def sys_uname(p, buf, *_):
    fields = [b"Linux", b"isa-ext", b"6.1.0", b"#1 SMP isa-ext", b"ppc64le", b"(none)"]
    if not p.mem.little:
        fields[4] = b"ppc64"
    data = b"".join(f.ljust(65, b"\0") for f in fields)
    return 0 if p.write_guest(buf, data) else -E.EFAULT


# -- signals ---------------------------------------------------------------------------
@syscall(173)
def sys_rt_sigaction(p, sig, act, oldact, *_):
    if not 1 <= sig <= 64 or sig in (SIGKILL, 19):
        return -E.EINVAL
    if oldact and not p.write_guest(oldact, p.sigactions.get(("raw", sig), bytes(32))):
        return -E.EFAULT
    if act:
        raw = p.read_guest(act, 32)
        if raw is None:
            return -E.EFAULT
        p.sigactions[("raw", sig)] = raw
        p.sigactions[sig] = int.from_bytes(raw[:8], "little" if p.mem.little else "big")
    return 0


@syscall(174)
def sys_rt_sigprocmask(p, how, new, old, size, *_):
    if old and not p.write_guest(old, bytes(8)):
        return -E.EFAULT
    return 0


@syscall(185)
def sys_sigaltstack(p, new, old, *_):
    if old and not p.write_guest(old, struct.pack("<QiiQ" if p.mem.little else ">QiiQ",
                                                  0, 2, 0, 0)):   # SS_DISABLE
        return -E.EFAULT
    return 0


@syscall(37)
def sys_kill(p, pid, sig, *_):
    if s32(pid) not in (PID, 0, -1):
        return -E.ESRCH
    return p.signal_self(s32(sig)) if sig else 0


@syscall(208)
def sys_tkill(p, tid, sig, *_):
    return sys_kill(p, tid, sig)


@syscall(250)
def sys_tgkill(p, tgid, tid, sig, *_):
    return sys_kill(p, tid, sig)


# -- time ------------------------------------------------------------------------------
def _timespec(p, ns):
    return struct.pack("<qq" if p.mem.little else ">qq", ns // 10**9, ns % 10**9)


@syscall(246)
def sys_clock_gettime(p, clock, tp, *_):
    if s32(clock) not in range(0, 12):
        return -E.EINVAL
    return 0 if p.write_guest(tp, _timespec(p, p.now_ns(s32(clock)))) else -E.EFAULT


@syscall(78)
def sys_gettimeofday(p, tv, tz, *_):
    ns = p.now_ns(0)
    if tv and not p.write_guest(tv, struct.pack("<qq" if p.mem.little else ">qq",
                                                ns // 10**9, ns % 10**9 // 1000)):
        return -E.EFAULT
    return 0


@syscall(13)
def sys_time(p, tloc, *_):
    t = p.now_ns(0) // 10**9
    if tloc and not p.write_guest(tloc, t.to_bytes(8, "little" if p.mem.little else "big")):
        return -E.EFAULT
    return t


def read_timespec(p, addr):
    """The struct timespec at ``addr`` in nanoseconds, or a negative errno
    (EFAULT unmapped, EINVAL a negative or out-of-range field)."""
    raw = p.read_guest(addr, 16)
    if raw is None:
        return -E.EFAULT
    sec, nsec = struct.unpack("<qq" if p.mem.little else ">qq", raw)
    if sec < 0 or not 0 <= nsec < 10**9:
        return -E.EINVAL
    return sec * 10**9 + nsec


def _sleep(p, req, clock=CLOCK_MONOTONIC, absolute=False):
    ns = read_timespec(p, req)
    if ns < 0:
        return ns
    if absolute:      # until the clock reads the time given
        ns = max(0, ns - p.now_ns(clock))
    if p.opts.clock == "host":
        time.sleep(min(ns / 1e9, 3600))
    else:   # without waiting; the clock saturates rather than leave 64-bit time
        p.slept_ns = min(p.slept_ns + ns, CLOCK_MAX_NS)
    return 0


@syscall(162)
def sys_nanosleep(p, req, rem, *_):
    return _sleep(p, req)


@syscall(248)
def sys_clock_nanosleep(p, clock, flags, req, rem, *_):
    # Linux sleeps on the wall and monotonic clocks; not on a thread's CPU
    # time (EINVAL) nor, here, on the process's (which would never advance)
    if s32(clock) not in (CLOCK_REALTIME, CLOCK_MONOTONIC, 7, 8, 11):
        return -E.ENOTSUP if s32(clock) in (2, 4, 5, 6) else -E.EINVAL
    return _sleep(p, req, s32(clock), bool(flags & TIMER_ABSTIME))


@syscall(359)
def sys_getrandom(p, buf, n, flags, *_):
    n = min(n, MAX_WRITE_BYTES)
    return n if p.write_guest(buf, p.rng.randbytes(n)) else -E.EFAULT


# -- memory ----------------------------------------------------------------------------
def _page_up(n):
    return (n + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1)


def _drop_pages(p, start, length):
    """Forget the pages of [start, start+length): they read as zero again and
    no longer count against the memory limit."""
    pages = p.mem.pages
    first, end = start >> 12, (start + length) >> 12
    for table in (pages, p.prot, p.hidden):   # contents and protection
        keys = range(first, end) if end - first <= len(table) else \
            [k for k in table if first <= k < end]
        for k in keys:
            table.pop(k, None)


@syscall(45)
def sys_brk(p, addr, *_):
    if addr == 0 or addr < p.brk_start:
        return p.brk
    grow = _page_up(addr) - _page_up(p.brk)
    if grow > 0 and p.reserved_bytes() + grow > p.mem.limit:
        return p.brk                      # the kernel's failure: the old break
    if grow < 0:
        _drop_pages(p, _page_up(addr), -grow)
    p.brk = addr
    return p.brk


def _place(p, length):
    """The highest free address range of ``length`` bytes below MMAP_TOP."""
    top = MMAP_TOP
    for start in sorted(p.mappings, reverse=True):
        end = start + p.mappings[start]
        if end <= top - length:
            break
        top = min(top, start)
    return top - length


@syscall(90)
def sys_mmap(p, addr, length, prot, flags, fd, offset):
    if length == 0 or length > 1 << 46:
        return -E.EINVAL
    length = _page_up(length)
    if p.reserved_bytes() + length > p.mem.limit:
        return -E.ENOMEM
    data = b""
    if not flags & MAP_ANONYMOUS:
        f = p.file(fd)
        if f is None or f.host_fd is None:
            return -E.EBADF
        if flags & MAP_SHARED and prot & 2 and f.flags & O_ACCMODE == 0:
            return -E.EACCES
        data = os.pread(f.host_fd, length, offset)
    if flags & MAP_FIXED:
        if addr & (PAGE_SIZE - 1):
            return -E.EINVAL
        _unmap(p, addr, length)
    else:
        addr = _place(p, length)
    _drop_pages(p, addr, length)
    p.mappings[addr] = length
    if data:
        p.mem.write_bytes(addr, data)
    p.protect(addr, length, prot)
    p.sim.invalidate()
    return addr


def _unmap(p, addr, length):
    end = addr + length
    for start, n in list(p.mappings.items()):
        s_end = start + n
        if s_end <= addr or start >= end:
            continue
        del p.mappings[start]
        if start < addr:
            p.mappings[start] = addr - start
        if s_end > end:
            p.mappings[end] = s_end - end
    _drop_pages(p, addr, length)


@syscall(91)
def sys_munmap(p, addr, length, *_):
    if addr & (PAGE_SIZE - 1) or length == 0:
        return -E.EINVAL
    _unmap(p, addr, _page_up(length))
    p.sim.invalidate()
    return 0


@syscall(163)
def sys_mremap(p, old, old_len, new_len, flags, *_):
    old_len, new_len = _page_up(old_len), _page_up(new_len)
    if old & (PAGE_SIZE - 1) or new_len == 0 or p.mappings.get(old) != old_len:
        return -E.EINVAL if old & (PAGE_SIZE - 1) or new_len == 0 else -E.EFAULT
    if new_len <= old_len:
        _unmap(p, old + new_len, old_len - new_len)
        return old
    if p.reserved_bytes() + new_len - old_len > p.mem.limit:
        return -E.ENOMEM
    end = old + new_len
    if all(s + n <= old + old_len or s >= end for s, n in p.mappings.items() if s != old):
        p.mappings[old] = new_len
        _drop_pages(p, old + old_len, new_len - old_len)
        return old
    if not flags & MREMAP_MAYMOVE:
        return -E.ENOMEM
    prot = p.prot.get(old >> 12, PROT_RW)   # the moved pages keep the first one's
    if not prot & PROT_READ:
        return -E.EFAULT
    data = p.mem.read_bytes(old, old_len)
    _unmap(p, old, old_len)
    new = _place(p, new_len)
    _drop_pages(p, new, new_len)
    p.mappings[new] = new_len
    p.mem.write_bytes(new, data)
    p.protect(new, new_len, prot)
    p.sim.invalidate()
    return new


@syscall(125)
def sys_mprotect(p, addr, length, prot, *_):
    if addr & (PAGE_SIZE - 1) or prot & ~(PROT_RW | PROT_EXEC):
        return -E.EINVAL
    length = _page_up(length)
    if p.mapped_len(addr, length) < length and not all(   # mapped_len also asks PROT_READ
            any(s <= a < e for s, e in p.regions()) for a in range(addr, addr + length, 4096)):
        return -E.ENOMEM    # part of the range is not mapped
    p.protect(addr, length, prot)
    return 0


MADV_DONTNEED = 4


@syscall(205)
def sys_madvise(p, addr, length, advice, *_):
    if addr & (PAGE_SIZE - 1):
        return -E.EINVAL
    if advice == MADV_DONTNEED:   # private pages read as zero again (their protection stays)
        pages = p.mem.pages
        first, end = addr >> 12, (addr + _page_up(length)) >> 12
        for k in [k for k in pages if first <= k < end and type(pages[k]) is bytearray]:
            del pages[k]
        p.sim.invalidate()
    return 0                      # any other advice is a hint


# -- files -------------------------------------------------------------------------------
def _open_flags(flags):
    """Guest (ppc64) open flags -> the host's."""
    host = {0: os.O_RDONLY, 1: os.O_WRONLY, 2: os.O_RDWR}.get(flags & O_ACCMODE, os.O_RDONLY)
    for guest, h in ((O_CREAT, os.O_CREAT), (O_EXCL, os.O_EXCL), (O_TRUNC, os.O_TRUNC),
                     (O_APPEND, os.O_APPEND), (O_DIRECTORY_PPC, os.O_DIRECTORY)):
        if flags & guest:
            host |= h
    return host


@syscall(286)
def sys_openat(p, dirfd, path, flags, mode, *_):
    guest = p.read_string(path)
    writes = flags & O_ACCMODE != 0 or flags & (O_CREAT | O_TRUNC)
    host = p.sandbox.resolve(guest, p.dir_base(dirfd), write=bool(writes))
    fd = os.open(host, _open_flags(flags) | os.O_NOFOLLOW | os.O_CLOEXEC, mode & 0o777)
    return p.new_fd(GuestFile(host_fd=fd, path=host, flags=flags))


@syscall(5)
def sys_open(p, path, flags, mode, *_):
    return sys_openat(p, AT_FDCWD & M64, path, flags, mode)


@syscall(6)
def sys_close(p, fd, *_):
    f = p.files.pop(s32(fd), None)
    if f is None:
        return -E.EBADF
    f.refs -= 1
    if f.refs == 0 and f.host_fd is not None and f.path is not None:
        os.close(f.host_fd)
        f.host_fd = None
    return 0


def _read_into(p, f, buf, n, offset=None):
    n = min(n, MAX_WRITE_BYTES)
    if f.source is not None:
        data = bytes(f.source[:n])
        del f.source[:n]
    elif f.host_fd is not None:
        data = os.read(f.host_fd, n) if offset is None else os.pread(f.host_fd, n, offset)
    else:
        return -E.EBADF
    if data and not p.write_guest(buf, data):
        return -E.EFAULT
    return len(data)


def _write_from(p, f, buf, n, offset=None):
    n = min(n, MAX_WRITE_BYTES)
    readable = p.mapped_len(buf, n)
    if n and not readable:
        return -E.EFAULT
    data = p.mem.read_bytes(buf, readable)
    try:
        if f.sink is not None:
            f.sink(data)
            return len(data)
        if f.host_fd is None or f.flags & O_ACCMODE == 0:
            return -E.EBADF
        return os.write(f.host_fd, data) if offset is None else os.pwrite(f.host_fd, data, offset)
    except BrokenPipeError:
        # no reader left (isa-ext's stdout piped into `head`): Linux sends
        # SIGPIPE, whose default action ends the process (141); ignored, EPIPE
        p.signal_self(SIGPIPE)
        return -E.EPIPE


@syscall(3)
def sys_read(p, fd, buf, n, *_):
    f = p.file(fd)
    return -E.EBADF if f is None else _read_into(p, f, buf, n)


@syscall(4)
def sys_write(p, fd, buf, n, *_):
    f = p.file(fd)
    return -E.EBADF if f is None else _write_from(p, f, buf, n)


@syscall(179)
def sys_pread64(p, fd, buf, n, offset, *_):
    f = p.file(fd)
    if f is None or f.host_fd is None or f.path is None:
        return -E.EBADF if f is None else -E.ESPIPE
    return _read_into(p, f, buf, n, offset)


@syscall(180)
def sys_pwrite64(p, fd, buf, n, offset, *_):
    f = p.file(fd)
    if f is None or f.host_fd is None or f.path is None:
        return -E.EBADF if f is None else -E.ESPIPE
    return _write_from(p, f, buf, n, offset)


def _iovecs(p, iov, count):
    if count > 1024:
        raise SandboxError(E.EINVAL, "too many iovecs")
    raw = p.read_guest(iov, 16 * count)
    if raw is None:
        raise SandboxError(E.EFAULT, "bad iovec")
    return [struct.unpack_from("<QQ" if p.mem.little else ">QQ", raw, 16 * i)
            for i in range(count)]


@syscall(146)
def sys_writev(p, fd, iov, count, *_):
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    total = 0
    for base, n in _iovecs(p, iov, count):
        r = _write_from(p, f, base, n) if n else 0
        if r < 0:
            return r if total == 0 else total
        total += r
    return total


@syscall(145)
def sys_readv(p, fd, iov, count, *_):
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    total = 0
    for base, n in _iovecs(p, iov, count):
        r = _read_into(p, f, base, n) if n else 0
        if r < 0:
            return r if total == 0 else total
        total += r
        if r < n:
            break
    return total


@syscall(19)
def sys_lseek(p, fd, offset, whence, *_):
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    if f.host_fd is None:   # a stream isa-ext feeds or collects: a pipe
        return -E.ESPIPE
    if whence > 2:
        return -E.EINVAL
    try:   # (stdin given as a host descriptor seeks when it is a file, as QEMU's)
        return os.lseek(f.host_fd, s64(offset), whence)
    except OSError as e:
        return -(e.errno or E.EINVAL)


@syscall(140)
def sys_llseek(p, fd, high, low, result, whence, *_):
    """_llseek (glibc's lseek64 on ppc64): the offset (high << 32) | low, the
    new position stored at ``result``, 0 returned (fs/read_write.c)."""
    pos = sys_lseek(p, fd, ((high << 32) | low) & M64, whence)
    if pos < 0:
        return pos
    fmt = "<q" if p.mem.little else ">q"
    return 0 if p.write_guest(result, struct.pack(fmt, pos)) else -E.EFAULT


def _stat_bytes(p, r):
    fmt = ("<" if p.mem.little else ">") + "QQQIIIIQqQQqqqqqq24x"
    return struct.pack(fmt, r.st_dev, r.st_ino, r.st_nlink, r.st_mode, r.st_uid, r.st_gid, 0,
                       r.st_rdev, r.st_size, r.st_blksize, r.st_blocks,
                       int(r.st_atime), r.st_atime_ns % 10**9, int(r.st_mtime),
                       r.st_mtime_ns % 10**9, int(r.st_ctime), r.st_ctime_ns % 10**9)


class _StreamStat:
    """What fstat reports for a standard stream that is not a host file: a pipe."""
    st_dev = st_ino = st_rdev = st_size = st_blocks = 0
    st_nlink = 1
    st_mode = st.S_IFIFO | 0o600
    st_uid = st_gid = 1000
    st_blksize = 4096
    st_atime = st_mtime = st_ctime = 0
    st_atime_ns = st_mtime_ns = st_ctime_ns = 0


def _fd_stat(p, f):
    return os.fstat(f.host_fd) if f.host_fd is not None else _StreamStat()


@syscall(108)
def sys_fstat(p, fd, buf, *_):
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    return 0 if p.write_guest(buf, _stat_bytes(p, _fd_stat(p, f))) else -E.EFAULT


@syscall(291)
def sys_newfstatat(p, dirfd, path, buf, flags, *_):
    guest = p.read_string(path)
    if not guest and flags & AT_EMPTY_PATH:
        return sys_fstat(p, dirfd, buf)
    if flags & AT_SYMLINK_NOFOLLOW:   # lstat: a symbolic link itself
        host = p.sandbox.resolve_entry(guest, p.dir_base(dirfd))
        return 0 if p.write_guest(buf, _stat_bytes(p, os.lstat(host))) else -E.EFAULT
    host = p.sandbox.resolve(guest, p.dir_base(dirfd))
    return 0 if p.write_guest(buf, _stat_bytes(p, os.stat(host))) else -E.EFAULT


W_OK, X_OK = 2, 1


def _access(p, dirfd, path, mode):
    """access(2) through the sandbox: a path it hides does not exist (ENOENT);
    W_OK needs a --write directory (EACCES), then the host's own answer."""
    host = p.sandbox.resolve(p.read_string(path), p.dir_base(dirfd), write=bool(mode & W_OK))
    if not os.path.exists(host):
        return -E.ENOENT
    host_mode = (os.R_OK if mode & 4 else 0) | (os.W_OK if mode & W_OK else 0) | \
        (os.X_OK if mode & X_OK else 0)
    return 0 if os.access(host, host_mode or os.F_OK) else -E.EACCES


@syscall(33)
def sys_access(p, path, mode, *_):
    return _access(p, AT_FDCWD & M64, path, mode)


@syscall(298)
def sys_faccessat(p, dirfd, path, mode, *_):
    return _access(p, dirfd, path, mode)


@syscall(439)
def sys_faccessat2(p, dirfd, path, mode, flags, *_):
    return _access(p, dirfd, path, mode)


@syscall(202)
def sys_getdents64(p, fd, buf, count, *_):
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    if f.path is None or not os.path.isdir(f.path):
        return -E.ENOTDIR
    if not hasattr(f, "entries"):
        names = [".", ".."] + sorted(os.listdir(f.path))
        f.entries = names
    out = bytearray()
    while f.entries:
        name = f.entries[0].encode("utf-8", "surrogateescape")
        full = os.path.join(f.path, f.entries[0])
        try:
            info = os.lstat(full)
            ino, kind = info.st_ino, (4 if st.S_ISDIR(info.st_mode) else
                                      10 if st.S_ISLNK(info.st_mode) else 8)
        except OSError:
            ino, kind = 0, 0
        reclen = (19 + len(name) + 1 + 7) & ~7
        if len(out) + reclen > count:
            break
        fmt = ("<" if p.mem.little else ">") + "QqHB"
        out += struct.pack(fmt, ino, len(out) + reclen, reclen, kind) + name
        out += bytes(reclen - 19 - len(name))
        f.entries.pop(0)
    if not out and f.entries:
        return -E.EINVAL
    return len(out) if p.write_guest(buf, out) or not out else -E.EFAULT


def _readlink(p, dirfd, path, buf, size):
    guest = p.read_string(path)
    if guest == "/proc/self/exe":
        target = p.program
    else:
        base = p.dir_base(dirfd) or p.sandbox.cwd
        joined = os.path.join(base, guest)
        parent = os.path.realpath(os.path.dirname(joined))
        host = os.path.join(parent, os.path.basename(joined))
        if not (p.sandbox.readable(parent) or p.sandbox.readable(host)
                or p.sandbox.on_the_way(host)):
            return -E.ENOENT
        target = os.readlink(host)
    data = target.encode("utf-8", "surrogateescape")[:size]
    return len(data) if p.write_guest(buf, data) else -E.EFAULT


@syscall(85)
def sys_readlink(p, path, buf, size, *_):
    return _readlink(p, AT_FDCWD & M64, path, buf, size)


@syscall(296)
def sys_readlinkat(p, dirfd, path, buf, size, *_):
    return _readlink(p, dirfd, path, buf, size)


# ppc64 ioctl numbers (arch/powerpc/include/uapi/asm/ioctls.h)
TCGETS, TIOCGWINSZ = 0x402C7413, 0x40087468


def _host_tty(f):
    """The host descriptor behind a guest file if it is a terminal, else None."""
    fd = f.host_fd if f.host_fd is not None else f.tty_fd
    try:
        return fd if fd is not None and os.isatty(fd) else None
    except OSError:
        return None


@syscall(54)
def sys_ioctl(p, fd, request, arg, *_):
    """TCGETS and TIOCGWINSZ on a host terminal: its answer in the guest's
    layout (isa_ext/linux/terminal.py); on anything else ENOTTY, as Linux
    answers for a pipe or a file.  Other requests on a terminal are not
    emulated: ENOTTY, listed in the diagnostics."""
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    host = _host_tty(f)
    if host is None:
        return -E.ENOTTY
    request &= 0xFFFFFFFF
    if request == TCGETS:
        data = guest_termios(termios.tcgetattr(host), p.mem.little)
    elif request == TIOCGWINSZ:
        data = guest_winsize(fcntl.ioctl(host, termios.TIOCGWINSZ, bytes(8)), p.mem.little)
    else:
        p.note_once("unsupported-ioctl", ("ioctl", request),
                    f"ioctl 0x{request:x} on a terminal is not emulated: returned -ENOTTY",
                    {"request": request})
        return -E.ENOTTY
    return 0 if p.write_guest(arg, data) else -E.EFAULT


@syscall(55)
def sys_fcntl(p, fd, cmd, arg, *_):
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    if cmd in (0, 1030):    # F_DUPFD, F_DUPFD_CLOEXEC
        f.refs += 1
        return p.new_fd(f, lowest=arg)
    if cmd in (1, 2):       # F_GETFD / F_SETFD
        return 0
    if cmd == 3:            # F_GETFL
        return f.flags if f.path else (0 if fd == 0 else 1)
    if cmd == 4:            # F_SETFL
        return 0
    return -E.EINVAL


@syscall(41)
def sys_dup(p, fd, *_):
    f = p.file(fd)
    if f is None:
        return -E.EBADF
    f.refs += 1
    return p.new_fd(f)


@syscall(316)
def sys_dup3(p, fd, newfd, flags, *_):
    f = p.file(fd)
    if f is None or s32(newfd) < 0 or s32(newfd) >= 1024:
        return -E.EBADF
    if s32(fd) == s32(newfd):
        return -E.EINVAL
    if s32(newfd) in p.files:
        sys_close(p, newfd)
    f.refs += 1
    p.files[s32(newfd)] = f
    return s32(newfd)


@syscall(317)
def sys_pipe2(p, fds, flags, *_):
    buf = bytearray()
    r, w = p.new_fd(GuestFile(source=buf)), None
    w = p.new_fd(GuestFile(sink=buf.extend))
    data = struct.pack("<ii" if p.mem.little else ">ii", r, w)
    if not p.write_guest(fds, data):
        del p.files[r], p.files[w]
        return -E.EFAULT
    return 0


@syscall(182)
def sys_getcwd(p, buf, size, *_):
    data = p.sandbox.cwd.encode() + b"\0"
    if size < len(data):
        return -E.ERANGE
    return len(data) if p.write_guest(buf, data) else -E.EFAULT


# the calls of entries.py (directory entries) and poll.py register themselves
from . import entries, poll  # noqa: E402,F401
