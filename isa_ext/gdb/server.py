"""Answers gdb's remote-protocol requests against one Simulator.

Supported: the target description (``qXfer:features:read``), registers
(``g``/``G``/``p``/``P``), memory (``m``/``M``/``X``), software breakpoints
(``Z0``/``z0``), ``s`` (stepi), ``c`` (continue, interruptible with Ctrl-C),
``D`` (detach), ``k`` (kill) and ``monitor`` commands (``qRcmd``).  Anything
else gets the empty reply, which tells gdb the request is not supported.

Stop replies: ``S05`` (SIGTRAP) after a step, a breakpoint or an element
step; ``S04`` (SIGILL) when the program traps (the reason goes to gdb's
console); ``S02`` (SIGINT) on Ctrl-C; ``Wxx`` when the program exits with
status xx or reaches its end address (status 0).
"""
from . import target
from .protocol import Disconnected

SIGINT, SIGILL, SIGTRAP = 2, 4, 5
NO_REPLY = object()  # handle() has already answered
CHUNK = 4096  # instructions run between checks for Ctrl-C when nothing else stops

MONITOR_HELP = """\
monitor commands:
  sv-step on|off   stepi moves one SVP64 element, not one whole instruction
                   (continue still runs whole instructions)
  svstate          SVSTATE decoded into its fields
  help             this text
"""


class Session:
    """One debugger connection driving ``sim``."""

    def __init__(self, sim, conn):
        self.sim, self.conn = sim, conn
        self.breakpoints = set()
        self.element_step = False
        self.finished = None  # the W reply once the program has ended

    # -- the request loop -----------------------------------------------------
    def serve(self):
        """Answer requests until gdb detaches, kills or disconnects."""
        try:
            while True:
                packet = self.conn.read_packet().decode("latin-1")
                reply = self.handle(packet)
                if reply is None:  # D / k: the session is over
                    return
                if reply is not NO_REPLY:
                    self.conn.send(reply)
        except Disconnected:
            return

    def handle(self, p):
        if p == "?":
            return self.finished or f"S{SIGTRAP:02x}"
        if p.startswith("qSupported"):
            return "PacketSize=4000;qXfer:features:read+;QStartNoAckMode+"
        if p == "QStartNoAckMode":
            self.conn.send("OK")
            self.conn.ack = False
            return NO_REPLY
        if p.startswith("qXfer:features:read:"):
            return self._xfer(p)
        if p == "qAttached":
            return "1"
        if p == "qC":
            return "QC1"
        if p == "qfThreadInfo":
            return "m1"
        if p == "qsThreadInfo":
            return "l"
        if p.startswith("H") or p.startswith("T"):
            return "OK"
        if p.startswith("qRcmd,"):
            return self._monitor(bytes.fromhex(p[6:]).decode("latin-1"))
        if p in ("D", "k") or p.startswith("D;"):
            if p != "k":
                self.conn.send("OK")
            return None
        cmd, body = p[:1], p[1:]
        handler = {"g": self._read_regs, "G": self._write_regs, "p": self._read_reg,
                   "P": self._write_reg, "m": self._read_mem, "M": self._write_mem,
                   "X": self._write_mem_binary, "s": self._step, "c": self._continue,
                   "Z": self._insert, "z": self._remove}.get(cmd)
        if handler is None:
            return ""
        try:
            return handler(body)
        except (ValueError, IndexError):
            return "E01"

    # -- registers and memory ---------------------------------------------
    def _read_regs(self, _):
        return target.read_all(self.sim.state)

    def _write_regs(self, body):
        target.write_all(self.sim.state, body)
        return "OK"

    def _read_reg(self, body):
        r = target.REGISTERS[int(body, 16)]
        return target.encode(r.get(self.sim.state), r.bits, self.sim.state.mem.little)

    def _write_reg(self, body):
        num, value = body.split("=")
        target.REGISTERS[int(num, 16)].set(self.sim.state,
                                           target.decode(value, self.sim.state.mem.little))
        return "OK"

    def _read_mem(self, body):
        addr, length = (int(x, 16) for x in body.split(","))
        return self.sim.state.mem.read_bytes(addr, min(length, 0x1000)).hex()

    def _write_mem(self, body):
        where, data = body.split(":", 1)
        return self._store(where, bytes.fromhex(data))

    def _write_mem_binary(self, body):
        where, data = body.split(":", 1)
        return self._store(where, data.encode("latin-1"))

    def _store(self, where, data):
        addr, length = (int(x, 16) for x in where.split(","))
        if length != len(data):
            return "E01"
        if data:
            self.sim.state.mem.write_bytes(addr, data)
            self.sim.invalidate()  # code may have changed
        return "OK"

    # -- breakpoints ---------------------------------------------------------
    def _insert(self, body):
        kind, addr = self._bp(body)
        if kind != "0":
            return ""  # only software breakpoints
        self.breakpoints.add(addr)
        return "OK"

    def _remove(self, body):
        kind, addr = self._bp(body)
        if kind != "0":
            return ""
        self.breakpoints.discard(addr)
        return "OK"

    @staticmethod
    def _bp(body):
        kind, addr, _size = body.split(",")[:3]
        return kind, int(addr, 16)

    # -- running ------------------------------------------------------------------
    def _step(self, body):
        if self.finished:
            return self.finished
        if body:
            self.sim.state.pc = int(body, 16)
        return self._stop_reply(self.run_steps(1, elements=self.element_step))

    def _continue(self, body):
        if self.finished:
            return self.finished
        if body:
            self.sim.state.pc = int(body, 16)
        # whole instructions, element-step mode or not: a breakpoint is hit on
        # arriving at its instruction, not again after each of its elements
        while True:
            res = self.run_steps(1 if self.breakpoints else CHUNK)
            if res.stop != "step_limit":
                return self._stop_reply(res)
            if self.sim.state.pc in self.breakpoints:
                return f"S{SIGTRAP:02x}"
            if self.conn.poll_interrupt():
                return f"S{SIGINT:02x}"

    def run_steps(self, steps, elements=False):
        """Run up to ``steps`` instructions; ``elements``: stop after one SVP64
        element (stop 'interrupt', PC still at the instruction if elements remain)."""
        sim = self.sim
        if elements:
            sim.interrupt_after = sim.element_ops + 1
        try:
            return sim.run(max_steps=steps)
        finally:
            sim.interrupt_after = None

    def _stop_reply(self, res):
        if res.stop in ("end", "exit"):
            status = res.exit_status if res.stop == "exit" else 0
            self.finished = f"W{status & 0xFF:02x}"
            return self.finished
        if res.stop == "trap":
            self._console(f"isa-ext: {res.trap}\n")
            return f"S{SIGILL:02x}"
        return f"S{SIGTRAP:02x}"  # one step done, or one element (interrupt)

    # -- monitor commands ---------------------------------------------------
    def _console(self, text):
        self.conn.send("O" + text.encode("utf-8").hex())

    def _monitor(self, line):
        words = line.split()
        if words[:1] == ["sv-step"] and len(words) == 2 and words[1] in ("on", "off"):
            self.element_step = words[1] == "on"
            self._console(f"SVP64 element step {words[1]}\n")
        elif words == ["svstate"]:
            self._console(describe_svstate(self.sim.state.svstate) + "\n")
        elif words in ([], ["help"]):
            self._console(MONITOR_HELP)
        else:
            self._console(f"unknown monitor command {line!r}\n" + MONITOR_HELP)
        return "OK"

    def _xfer(self, p):
        annex, _, span = p[len("qXfer:features:read:"):].partition(":")
        if annex != "target.xml":
            return "E00"
        off, length = (int(x, 16) for x in span.split(","))
        data = target.target_xml()
        chunk = data[off:off + length]
        return ("m" if off + length < len(data) else "l") + chunk


def describe_svstate(sv):
    from ..svp64 import svstate as SV
    fields = ("maxvl", "vl", "srcstep", "dststep", "ssubstep", "dsubstep", "vfirst")
    return f"svstate=0x{sv:x} " + " ".join(f"{n}={SV.get(sv, n)}" for n in fields)
