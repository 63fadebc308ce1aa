"""``isa-ext run PROG``: run an assembly source, a static ELF or raw words.

PROG is assembly when it ends in .s/.S/.asm, an ELF when it starts with the
ELF magic, raw instruction bytes otherwise.  Prints the stop reason, steps,
changed registers, exit status and the program's stdout; a trap prints pc,
word and reason and exits with status 1.  ``--trace`` prints one line per
event as the program runs (instructions: pc, words, disassembly, registers
written; any other event type generically; an SVP64 element run under REMAP
shows ``remap=in1:3,out:5``, the element each remapped operand slot uses).
``--interrupt-after K`` injects an SVP64 element-level interrupt
(``Simulator.interrupt_after``); ``--resume`` then runs again from the saved
PC and SVSTATE steps, as the API does.
"""
import struct
import sys

from ..errors import IsaExtError
from . import add_profile_option

ASM_SUFFIXES = (".s", ".S", ".asm")


def register(sub):
    p = sub.add_parser("run", help="run a program (assembly, ELF or raw words)")
    p.add_argument("program")
    p.add_argument("--gpr", action="append", default=[], metavar="rN=VALUE",
                   help="set a GPR before running (repeatable; also r3=1,r4=2)")
    p.add_argument("--fpr", action="append", default=[], metavar="fN=VALUE",
                   help="set an FPR: raw 64-bit pattern (0x...) or a decimal float")
    p.add_argument("--max-steps", type=int, default=10_000_000, metavar="N")
    p.add_argument("--trace", action="store_true", help="print every instruction")
    p.add_argument("--interrupt-after", type=int, default=None, metavar="K",
                   help="inject an element-level interrupt before SVP64 element operation "
                        "K+1 (stop 'interrupt'; prints PC and SVSTATE steps)")
    p.add_argument("--resume", action="store_true",
                   help="with --interrupt-after: after the interrupt, run again from the "
                        "saved PC/SVSTATE (Simulator.run() again) to the end")
    p.add_argument("--big-endian", action="store_true",
                   help="big-endian machine (an ELF sets its own byte order)")
    p.add_argument("--base", type=lambda t: int(t, 0), default=0x1000, metavar="ADDR",
                   help="load address of assembly or raw programs (default 0x1000)")
    add_profile_option(p)
    p.add_argument("--permissive", action="store_true",
                   help="on UNDEFINED behaviour (e.g. a horizontal-first swizzle overlap) "
                        "carry on and record a diagnostic instead of stopping")
    p.add_argument("--mem-limit", type=size_value, default=None, metavar="BYTES",
                   help="guest memory a program may write, e.g. 512M, 2G (default 1G); "
                        "a store past it stops the run with a 'limit' trap")
    p.set_defaults(func=run)


def size_value(text):
    """'1G', '512M', '64K' or a number of bytes (0x... too), at least one page."""
    import argparse
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    t = text.strip().lower().removesuffix("ib").removesuffix("b")
    scale = units.get(t[-1:], 1)
    try:
        value = int(t[:-1] if scale > 1 else t, 0) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad size {text!r}: expected e.g. 1G, 512M, 4096")
    if value < 4096:
        raise argparse.ArgumentTypeError(f"--mem-limit {text!r}: at least 4096 bytes")
    return value


def parse_assignments(items, prefix, parse_value):
    """['r3=5', 'r4=0x10,r5=-1'] -> {3: 5, 4: 16, 5: 2**64-1}."""
    out = {}
    for item in items:
        for part in item.split(","):
            name, sep, value = part.partition("=")
            name = name.strip().lower()
            num = name[len(prefix):] if name.startswith(prefix) else name
            if not sep or not num.isdigit() or int(num) >= 128:
                raise IsaExtError(f"bad register setting {part!r}: expected {prefix}N=VALUE")
            try:
                out[int(num)] = parse_value(value.strip()) & (2**64 - 1)
            except ValueError:
                raise IsaExtError(f"bad value in {part!r}") from None
    return out


def fpr_value(text):
    """A raw bit pattern written as an integer (0x...), else a float as double."""
    try:
        return int(text, 0)
    except ValueError:
        return struct.unpack("<Q", struct.pack("<d", float(text)))[0]


def load_program(sim, args):
    from ..elf import is_elf
    path = args.program
    with open(path, "rb") as f:
        data = f.read()
    if is_elf(data):
        sim.load_elf(path)
    elif path.endswith(ASM_SUFFIXES):
        from ..asm import decode_source
        text = decode_source(data, path)
        prog = sim.load_asm(text, filename=path, addr=args.base)
        sim.state.pc = prog.entry
    else:
        sim.load_bytes(data, addr=args.base)


class TracePrinter:
    """Streams trace events as text lines while the program runs."""

    def __init__(self, sim, out):
        from ..disasm import Disassembler
        self.sim, self.out = sim, out
        self.dis = Disassembler(sim.isa)

    def __call__(self, event):
        if event.get("type") == "insn":
            pc, word = event["pc"], event["word"]
            words = [word]
            if event.get("length") == 8:
                words.append(self.sim.state.mem.read_word(pc + 4))
                text = self.dis.prefixed(word, words[1], pc) or f".long 0x{word:08x}"
            else:
                text = self.dis.word(word, pc)
            changes = " ".join(f"{k}={_hex(v)}" for k, v in event.get("changes", {}).items())
            shown = " ".join(f"{w:08x}" for w in words)
            print(f"{pc:08x}  {shown:<17}  {text:<32} {changes}".rstrip(), file=self.out)
        else:
            rest = " ".join(f"{k}={_field(v) if k == 'remap' else _hex(v)}"
                            for k, v in event.items() if k != "type")
            print(f"          [{event.get('type')}] {rest}", file=self.out)


def _field(slots):
    """A REMAP index map {slot: element} as ``in1:3,out:5``."""
    return ",".join(f"{k}:{v}" for k, v in slots.items())


def _hex(v):
    return f"0x{v:x}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


def run(args):
    from ..sim import Simulator
    sim = Simulator(little=not args.big_endian, strict=not args.permissive,
                    profile=args.profile, mem_limit=args.mem_limit)
    load_program(sim, args)
    gprs = parse_assignments(args.gpr, "r", lambda t: int(t, 0))
    fprs = parse_assignments(args.fpr, "f", fpr_value)
    for i, v in gprs.items():
        sim.state.gpr[i] = v
    for i, v in fprs.items():
        sim.state.fpr[i] = v
    if args.trace:
        sim.tracer = TracePrinter(sim, sys.stdout)
    if args.interrupt_after is not None:
        if args.interrupt_after < 0:
            raise IsaExtError("--interrupt-after needs K >= 0")
        sim.interrupt_after = args.interrupt_after
    elif args.resume:
        raise IsaExtError("--resume needs --interrupt-after")
    res = sim.run(max_steps=args.max_steps)
    if res.stop == "interrupt":
        from ..svp64 import svstate as SV
        sv = sim.state.svstate
        print(f"interrupt: pc=0x{sim.state.pc:x} after {sim.element_ops} element operations"
              + "".join(f" {n}={SV.get(sv, n)}"
                        for n in ("srcstep", "dststep", "ssubstep", "dsubstep")))
        if args.resume:
            first = res
            res = sim.run(max_steps=args.max_steps)
            res.steps += first.steps
            res.initial = first.initial
    print(f"stop: {res.stop}")
    print(f"steps: {res.steps}")
    if res.trap is not None:
        t = res.trap
        print(f"trap: pc=0x{t.pc:x} word=0x{t.word:08x} ({t.kind}): {t.reason}")
    if res.diagnostics:
        from ..diagnostics import format_diagnostics
        print(format_diagnostics(res.diagnostics))
    changed = res.changed()
    if changed:
        print("changed registers:")
        for name, (before, after) in changed.items():
            print(f"  {name:<8} 0x{before:x} -> 0x{after:x}")
    if res.exit_status is not None:
        print(f"exit status: {res.exit_status}")
    if res.stdout:
        print("stdout:")
        sys.stdout.write(res.stdout.decode("utf-8", "replace"))
        if not res.stdout.endswith(b"\n"):
            print()
    sys.stdout.flush()
    return 1 if res.trap is not None and res.stop != "interrupt" else 0
