"""Packet framing of the GDB remote serial protocol: ``$data#cs`` with a
modulo-256 checksum, ``+``/``-`` acknowledgements, ``}``-escaping of binary
data and ``\\x03`` as an out-of-band interrupt request."""
import select

ESCAPED = b"#$}*"
INTERRUPT = 0x03


class Disconnected(Exception):
    """The debugger closed the connection."""


def checksum(data):
    return sum(data) & 0xFF


def frame(payload):
    """``$payload#cs`` with the bytes #, $, } and * escaped as gdb requires."""
    out = bytearray()
    for b in payload:
        if b in ESCAPED:
            out += bytes((0x7D, b ^ 0x20))
        else:
            out.append(b)
    return b"$" + bytes(out) + b"#%02x" % checksum(out)


def unescape(data):
    out = bytearray()
    it = iter(data)
    for b in it:
        out.append(next(it) ^ 0x20 if b == 0x7D else b)
    return bytes(out)


class Connection:
    """One debugger connection on a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = bytearray()
        self.ack = True
        self.interrupted = False

    def _more(self):
        data = self.sock.recv(4096)
        if not data:
            raise Disconnected()
        self.buf += data

    def read_packet(self):
        """The next packet's payload (bytes); acknowledges it."""
        while True:
            while not self.buf:
                self._more()
            start = self.buf.find(b"$")
            if start < 0:
                self.interrupted |= INTERRUPT in self.buf
                self.buf.clear()
                continue
            if INTERRUPT in self.buf[:start]:
                self.interrupted = True
            hash_at = self.buf.find(b"#", start)
            while hash_at < 0 or len(self.buf) < hash_at + 3:
                self._more()
                hash_at = self.buf.find(b"#", start)
            body = bytes(self.buf[start + 1:hash_at])
            sent = bytes(self.buf[hash_at + 1:hash_at + 3])
            del self.buf[:hash_at + 3]
            try:
                good = int(sent, 16) == checksum(body)
            except ValueError:
                good = False
            if self.ack:
                self.sock.sendall(b"+" if good else b"-")
            if good:
                return unescape(body)

    def send(self, payload):
        if isinstance(payload, str):
            payload = payload.encode("latin-1")
        packet = frame(payload)
        while True:
            self.sock.sendall(packet)
            if not self.ack:
                return
            reply = self._ack_byte()
            if reply == b"+":
                return

    def _ack_byte(self):
        while True:
            while not self.buf:
                self._more()
            b = bytes(self.buf[:1])
            del self.buf[:1]
            if b in (b"+", b"-"):
                return b
            if b[0] == INTERRUPT:
                self.interrupted = True

    def poll_interrupt(self):
        """True when gdb has sent ``\\x03`` (Ctrl-C) since the last call."""
        if not self.interrupted and select.select([self.sock], [], [], 0)[0]:
            self._more()
        if INTERRUPT in self.buf:  # may have come in with the packet before it
            self.interrupted = True
            self.buf = self.buf.replace(bytes((INTERRUPT,)), b"")
        hit, self.interrupted = self.interrupted, False
        return hit
