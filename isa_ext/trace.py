"""Instruction traces: what ``Simulator.run`` with a tracer reports, and the
three ways ``isa-ext run --trace`` prints it.

Events (dicts, also the ``--json`` trace lines):

* ``insn``: ``pc``, ``word``, ``length`` (4 or 8), ``mnemonic``, ``step``,
  ``changes`` {register: new value}, ``old`` {register: value before},
  ``mem`` [{"op": "load"|"store", "addr", "size", "value"}] in program order
  and, when SVSTATE changed, ``svstate_fields`` {field: value} of the new
  SVSTATE (its non-zero fields, maxvl and vl always);
* ``element``: one SVP64 element operation of the instruction emitted just
  before it (``srcstep``, ``dststep``, ``ssubstep``, ``dsubstep``,
  ``src_pred``/``dst_pred`` bits, ``zeroed``, ``reads``/``writes`` {field:
  register}, ``read_values``/``write_values`` {field: element value}, and
  under REMAP ``remap`` {slot: element}).

An instruction's element events follow its ``insn`` event (the simulator
holds them back until the instruction is complete).

Formats:

* ``text`` -- one line per instruction: address, words, disassembly, each
  register written ``name=old->new``, each memory access
  ``load8 [0x2008]=0x5`` / ``store8 [0x2008]=0x5``, SVSTATE fields when it
  changed; SVP64 element lines indented under it.
* ``commit`` -- Spike's ``--log-commits`` line shape (see docs/trace.md)::

      core   0: 3 0x0000000000001000 (0x38600005) r3  0x0000000000000005

  so a diff tool can line the two up after renaming registers.
"""
import json

from .svp64 import svstate as SV
from .machine import MemoryView

M64 = (1 << 64) - 1


class RecordingMemory(MemoryView):
    """A view of a Memory that logs every data access (the instruction fetch
    goes to the memory underneath)."""

    _own = ("mem", "log")

    def __init__(self, mem):
        super().__init__(mem)
        self.log = []

    def read(self, addr, n):
        v = self.mem.read(addr, n)
        self.log.append(("load", addr & M64, n, v))
        return v

    def write(self, addr, n, value):
        self.mem.write(addr, n, value)
        self.log.append(("store", addr & M64, n, value & ((1 << (8 * n)) - 1)))

    def read_bytes(self, addr, n):
        data = self.mem.read_bytes(addr, n)
        self.log.append(("load", addr & M64, n, data))
        return data

    def write_bytes(self, addr, data):
        self.mem.write_bytes(addr, data)
        self.log.append(("store", addr & M64, len(data), bytes(data)))

    def take(self):
        """The accesses since the last take(), as event dicts."""
        out = [{"op": op, "addr": a, "size": n, "value": v} for op, a, n, v in self.log]
        self.log.clear()
        return out


def svstate_fields(value):
    """The non-zero named fields of an SVSTATE value (maxvl and vl always)."""
    fields = SV.decode(value)
    return {k: v for k, v in fields.items() if v or k in ("maxvl", "vl")}


def hexval(v):
    if isinstance(v, (bytes, bytearray)):
        return v.hex() if len(v) <= 16 else v[:16].hex() + "..."
    return f"0x{v:x}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


class _Words:
    """Disassembly of an event's instruction (prefixed ones read their suffix
    from memory; the trace event carries the first word only)."""

    def __init__(self, sim):
        from .disasm import Disassembler
        self.sim, self.dis = sim, Disassembler(sim.isa)

    def __call__(self, event):
        pc, word = event["pc"], event["word"]
        if event.get("length") == 8:
            suffix = self.sim.state.mem.read_word(pc + 4)
            return [word, suffix], self.dis.prefixed(word, suffix, pc) or f".long 0x{word:08x}"
        return [word], self.dis.word(word, pc)


class TextTracePrinter:
    """``--trace`` (text): one line per instruction, element lines under it."""

    def __init__(self, sim, out):
        self.words, self.out = _Words(sim), out
        self.sim = sim
        self.last_pc = None  # the instruction the element lines below belong to
        self.function = None  # (start, name) of the function last_pc lies in

    def __call__(self, event):
        kind = event.get("type")
        if kind == "insn":
            self.name_function(event["pc"])
            line = self.insn_line(event)
            self.last_pc = event["pc"]
        elif kind == "element":
            if event["pc"] != self.last_pc:
                # elements of an instruction that trapped or was interrupted
                # (it has no line of its own): name it first
                self.last_pc = event["pc"]
                word = self.sim.state.mem.read_word(event["pc"])
                head = self.insn_line({"pc": event["pc"], "word": word, "length": 8})
                print(f"{head.rstrip()} (did not complete)", file=self.out)
            line = "      " + element_text(event)
        else:
            rest = " ".join(f"{k}={hexval(v)}" for k, v in event.items() if k != "type")
            line = f"      [{kind}] {rest}"
        print(line.rstrip(), file=self.out)

    def name_function(self, pc):
        """Print ``<name>:`` where control enters a function of the ELF (a
        call, at its global or ELFv2 local entry), ``<name+0xN>:`` where it
        comes back into one (a return)."""
        functions = getattr(self.sim, "functions", None)
        if functions is None:
            return
        where = functions.at(pc)
        entry = pc in self.sim.symbols
        # (an entry reached by falling through from the function's own global
        # entry, as ELFv2's local entry is, is no new entry)
        fell_through = where is not None and self.last_pc is not None and \
            where[0] <= self.last_pc < pc
        if where is not None and (where != self.function or entry and not fell_through):
            start, name = where
            print(f"<{name}>:" if entry else f"<{name}+0x{pc - start:x}>:", file=self.out)
        self.function = where

    def insn_line(self, event):
        words, text = self.words(event)
        shown = " ".join(f"{w:08x}" for w in words)
        return f"{event['pc']:08x}  {shown:<17}  {text:<32} {insn_effects(event)}"


def insn_effects(event):
    """``r3=0x0->0x5 store8 [0x2008]=0x5 svstate{maxvl=3 vl=3}``."""
    old = event.get("old", {})
    parts = [f"{k}={hexval(old[k])}->{hexval(v)}" if k in old else f"{k}={hexval(v)}"
             for k, v in event.get("changes", {}).items()]
    parts += [f"{m['op']}{m['size']} [0x{m['addr']:x}]={hexval(m['value'])}"
              for m in event.get("mem", ())]
    if event.get("svstate_fields"):
        parts.append("svstate{" + " ".join(f"{k}={v}" for k, v in event["svstate_fields"].items())
                     + "}")
    return " ".join(parts)


def element_text(event):
    """One SVP64 element operation: steps, predicate bits, REMAP indices, then
    the values read and written: ``RA[8]=0x1 RB[16]=0x2 -> RT[8]=0x3``."""
    head = (f"elem src={event['srcstep']} dst={event['dststep']} "
            f"sub={event.get('ssubstep', 0)}/{event.get('dsubstep', 0)} "
            f"pred={event.get('src_pred', 1)}/{event.get('dst_pred', 1)}")
    if event.get("zeroed"):
        head += " zeroed"
    if event.get("remap"):
        head += " remap=" + ",".join(f"{k}:{v}" for k, v in event["remap"].items())
    reads = _operands(event.get("reads", {}), event.get("read_values", {}))
    writes = _operands(event.get("writes", {}), event.get("write_values", {}))
    text = f"{head}  {reads}" if reads else head
    return f"{text} -> {writes}" if writes else text


def _operands(regs, values):
    """``RA[8]=0x1``: field, register (element) number, value moved."""
    out = []
    for field, reg in regs.items():
        text = f"{field}[{reg}]"
        if field in values:
            text += f"={hexval(values[field])}"
        out.append(text)
    return " ".join(out)


class JsonTracePrinter:
    """``--trace --json``: each event as a JSON line; addresses, words and
    register values as "0x..." strings (64-bit values do not survive JSON
    readers' doubles), other fields as they are."""

    def __init__(self, out):
        self.out = out

    def __call__(self, event):
        e = dict(event)
        for k in ("pc", "word"):
            if isinstance(e.get(k), int):
                e[k] = hexval(e[k])
        for k in ("changes", "old", "read_values", "write_values"):
            if isinstance(e.get(k), dict):
                e[k] = {name: hexval(v) for name, v in e[k].items()}
        if "mem" in e:
            e["mem"] = [{**m, "addr": hexval(m["addr"]), "value": hexval(m["value"])}
                        for m in e["mem"]]
        print(json.dumps(e, default=str), file=self.out)


# Spike prints GPRs as x<N>, FPRs as f<N>; the commit log keeps Power names
# (r<N>, f<N>, cr<N> for a 4-bit CR field, SPRs by name) in Spike's layout.
class CommitLogPrinter:
    """``--trace-format commit``: one line per completed instruction in the
    shape of Spike's ``--log-commits`` (docs/trace.md gives the grammar)::

        core   0: <priv> 0x<pc:016x> (0x<insn>) [<reg> 0x<value:016x>]... [mem ...]...

    ``priv`` is 3 when MSR[PR] is 0 (privileged, as Spike's M-mode) and 0 in
    problem state; ``insn`` is the word as 8 hex digits, a prefixed
    instruction as 16 (prefix then suffix); register writes are the registers
    whose value changed, in the order GPR, FPR, CR field, SPR; a load shows
    ``mem 0x<addr:016x>``, a store ``mem 0x<addr:016x> 0x<value>`` with two
    hex digits per byte stored.  Element events are not printed (their
    register writes are the instruction's)."""

    def __init__(self, sim, out):
        self.sim, self.out = sim, out

    def __call__(self, event):
        if event.get("type") != "insn":
            return
        print(commit_line(event, self.sim), file=self.out)


def commit_line(event, sim):
    pc, word = event["pc"], event["word"]
    insn = f"{word:08x}"
    if event.get("length") == 8:
        insn += f"{sim.state.mem.read_word(pc + 4):08x}"
    priv = 0 if (sim.state.msr >> 14) & 1 else 3  # MSR[PR] is bit 49 (MSB0)
    parts = [f"core   0: {priv} 0x{pc:016x} (0x{insn})"]
    for name, v in event.get("changes", {}).items():
        parts.append(f"{name:<3} 0x{v & M64:016x}")
    for m in event.get("mem", ()):
        if m["op"] == "load":
            parts.append(f"mem 0x{m['addr']:016x}")
        else:
            v = m["value"]
            v = v.hex() if isinstance(v, (bytes, bytearray)) else f"{v:0{2 * m['size']}x}"
            parts.append(f"mem 0x{m['addr']:016x} 0x{v}")
    return " ".join(parts)


PRINTERS = {"text": TextTracePrinter, "commit": CommitLogPrinter}
