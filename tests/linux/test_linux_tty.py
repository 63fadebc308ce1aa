"""ioctl TCGETS and TIOCGWINSZ: ENOTTY on a pipe or file, the host terminal's
answer in the ppc64 layout when the descriptor is a terminal (a pty here),
byte for byte as qemu-ppc64le translates it.  QEMU leaves c_ispeed/c_ospeed
(the last 8 of the 44 bytes) unwritten; the kernel, and isa-ext, put the baud
rate there."""
import fcntl
import os
import select
import struct
import subprocess
import sys
import termios

import pytest

from conftest import need_tool
from test_linux_syscalls import build  # noqa: F401 - the fixture

ENOTTY = 25


@pytest.fixture
def pty():
    master, slave = os.openpty()
    # a terminal that is not the default: 33 x 77 (640 x 480 pixels), no echo, ^G interrupts
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 33, 77, 640, 480))
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHO
    attrs[6][termios.VINTR] = b"\x07"
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    yield master, slave
    os.close(master)
    os.close(slave)


def drain(master):
    out = b""
    while select.select([master], [], [], 0.5)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    return out


def qemu_cmd(exe):
    return [need_tool("qemu-ppc64le"), exe]


def isa_ext_cmd(exe):
    return [sys.executable, "-m", "isa_ext", "run", "--linux", exe]


def results(text):
    """{fd: (TCGETS line, bytes or None, TIOCGWINSZ line, bytes or None)}"""
    lines = text.replace("\r\n", "\n").splitlines()
    out, i = [], 0
    while i < len(lines):
        entry = [lines[i]]
        i += 1
        if entry[0].endswith(" = 0"):
            entry.append(bytes.fromhex(lines[i]))
            i += 1
        out.append(entry)
    return out


def check(got, want, slave):
    assert len(got) == len(want) == 6
    # the pty's speed as a baud rate (the kernel's c_ospeed)
    rate = {getattr(termios, f"B{n}"): n for n in (9600, 19200, 38400, 115200)}[
        termios.tcgetattr(slave)[5]]
    for g, w in zip(got, want):
        assert g[0] == w[0]
        if g[0] == "TCGETS = 0":
            assert g[1][:36] == w[1][:36]       # flags, c_cc, c_line
            assert w[1][36:] == b"\xee" * 8     # QEMU left the speeds as they were
            assert struct.unpack("<II", g[1][36:]) == (rate, rate)
        elif len(g) > 1:
            assert g[1] == w[1]


def test_stdin_a_terminal(build, pty):  # noqa: F811
    exe = build("tty")
    master, slave = pty
    q = subprocess.run(qemu_cmd(exe), stdin=slave, capture_output=True, timeout=60)
    r = subprocess.run(isa_ext_cmd(exe), stdin=slave, capture_output=True, timeout=600)
    assert r.returncode == q.returncode == 0
    got, want = results(r.stdout.decode()), results(q.stdout.decode())
    assert want[0][0] == "TCGETS = 0" and want[2][0] == f"TCGETS = -{ENOTTY}"
    assert want[1] == ["TIOCGWINSZ = 0", struct.pack("<4H", 33, 77, 640, 480)]
    check(got, want, slave)
    # the translation itself: ICANON on, ECHO off (ppc c_lflag bits 0x100, 0x8),
    # ^G at VINTR (ppc c_cc[0]), CS8 | CREAD (ppc 0x300 | 0x800)
    lflag, cflag = struct.unpack_from("<I", got[0][1], 12)[0], struct.unpack_from(
        "<I", got[0][1], 8)[0]
    assert lflag & 0x100 and not lflag & 0x8
    assert got[0][1][16] == 7 and cflag & 0xB00 == 0xB00


def test_stdout_a_terminal(build, pty):  # noqa: F811
    exe = build("tty")
    master, slave = pty
    q = subprocess.run(qemu_cmd(exe), stdout=slave, stdin=subprocess.DEVNULL, timeout=60)
    want = drain(master)
    r = subprocess.run(isa_ext_cmd(exe), stdout=slave, stdin=subprocess.DEVNULL, timeout=600)
    got = drain(master)
    assert r.returncode == q.returncode == 0
    want, got = results(want.decode()), results(got.decode())
    assert want[0][0] == f"TCGETS = -{ENOTTY}" and want[2][0] == "TCGETS = 0"
    check(got, want, slave)


def test_no_terminal_gives_enotty(build):  # noqa: F811
    exe = build("tty")
    r = subprocess.run(isa_ext_cmd(exe), stdin=subprocess.DEVNULL, capture_output=True,
                       timeout=600)
    q = subprocess.run(qemu_cmd(exe), stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert r.stdout == q.stdout and r.stdout.count(b"= -25\n") == 6
