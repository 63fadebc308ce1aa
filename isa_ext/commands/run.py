"""``isa-ext run PROG``: run an assembly source, a static ELF or raw words.

PROG is an ELF when it starts with the ELF magic, assembly when it ends in
.s/.S/.asm or is plain UTF-8 text, raw instruction bytes otherwise (``--format``
overrides).  Prints the stop reason, steps, changed registers (FPRs also as
floats), changed memory, exit status and the program's stdout; a trap prints
pc, word and reason.  ``--json`` prints the same as one JSON object instead.
``--trace`` prints one line per instruction as it completes (pc, words,
disassembly, registers written old->new, memory accesses, SVSTATE fields),
SVP64 element lines indented under it (steps, predicate bits, REMAP indices,
values moved); ``--trace-format commit`` prints Spike ``--log-commits`` lines
instead, ``--trace-format json`` (or ``--json``) one JSON event per line
(isa_ext/trace.py, docs/trace.md).
``--interrupt-after K`` injects an SVP64 element-level interrupt
(``Simulator.interrupt_after``); ``--resume`` then runs again from the saved
PC and SVSTATE steps, as the API does.

Exit status (``EXIT_CODES``): the guest's own status when it exits through the
exit system call, 0 when it reaches the end of the program (or the requested
``--interrupt-after`` stop), 139 when a Linux program touches memory outside its
map (128 + SIGSEGV), 132 on another trap (128 + SIGILL, as a shell reports a
process killed by an illegal instruction) -- for a Linux program 128 + the signal
Linux sends for that trap (133 SIGTRAP for a trap instruction or hashchk, 135
SIGBUS, 136 SIGFPE), 124 when ``--max-steps`` ran out (as
timeout(1)), 130 on Ctrl-C (128 + SIGINT), 2 for usage errors and bad input.
"""
import struct
import sys

from ..errors import IsaExtError
from . import add_profile_option, paused_collection
from .linux_options import add_linux_options, linux_options
from .machine_options import (ASM_SUFFIXES, add_machine_options, address, count,  # noqa: F401
                              fpr_value, load_program, machine_isa, prepare_machine,
                              translate_option)

EXIT_TRAP = 132
EXIT_STEP_LIMIT = 124
EXIT_INTERRUPTED = 130  # Ctrl-C; isa_ext.cli returns it for KeyboardInterrupt
EXIT_USAGE = 2
EXIT_SEGV = 139  # 128 + SIGSEGV: a Linux program touched memory outside its map
EXIT_CODES = {"trap": EXIT_TRAP, "step_limit": EXIT_STEP_LIMIT, "end": 0, "interrupt": 0}


def register(sub):
    p = sub.add_parser("run", help="run a program (assembly, ELF or raw words)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("program", help="assembly, ELF or raw instruction bytes")
    add_machine_options(p)
    p.add_argument("--max-steps", type=count, default=10_000_000, metavar="N",
                   help="stop after N instructions (stop 'step_limit', exit 124; "
                        "default %(default)s)")
    p.add_argument("--dump", action="append", default=[], metavar="ADDR:LEN",
                   help="after the run, print LEN bytes of memory from ADDR as hex and "
                        "ASCII (repeatable)")
    p.add_argument("--json", action="store_true",
                   help="print the whole result (and --trace events) as JSON")
    p.add_argument("--trace", action="store_true",
                   help="print every instruction as it completes (docs/trace.md)")
    p.add_argument("--trace-format", choices=("text", "commit", "json"), default=None,
                   help="with --trace: text (default; registers old->new, memory "
                        "accesses, SVP64 element lines), commit (Spike --log-commits "
                        "lines) or json (one event per line, as --json); implies --trace")
    p.add_argument("--interrupt-after", type=int, default=None, metavar="K",
                   help="inject an element-level interrupt before SVP64 element operation "
                        "K+1 (stop 'interrupt'; prints PC and SVSTATE steps)")
    p.add_argument("--resume", action="store_true",
                   help="with --interrupt-after: after the interrupt, run again from the "
                        "saved PC/SVSTATE (Simulator.run() again) to the end")
    add_profile_option(p)
    p.add_argument("--permissive", action="store_true",
                   help="on UNDEFINED behaviour (e.g. a horizontal-first swizzle overlap) "
                        "carry on and record a diagnostic instead of stopping")
    add_linux_options(p)
    p.set_defaults(func=run)


def parse_dumps(items):
    """['0x2000:32'] -> [(0x2000, 32)]."""
    out = []
    for item in items:
        addr, sep, length = item.partition(":")
        try:
            if not sep:
                raise ValueError("expected ADDR:LEN")
            where = address(addr.strip())
            n = int(length, 0)
            if not 0 < n <= 1 << 20:
                raise ValueError(f"LEN {length} is outside 1 .. 1048576")
        except Exception as e:  # ValueError or argparse.ArgumentTypeError
            raise IsaExtError(f"--dump {item}: {e}") from None
        out.append((where, n))
    return out


def hexdump(mem, addr, n):
    """``hexdump -C``-style lines: address, 16 bytes in hex, the printable ASCII."""
    lines = []
    for off in range(0, n, 16):
        chunk = mem.read_bytes(addr + off, min(16, n - off))
        cells = [f"{b:02x}" for b in chunk] + ["  "] * (16 - len(chunk))
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{addr + off:08x}  {' '.join(cells[:8])}  {' '.join(cells[8:])}  |{text}|")
    return lines


def changed_memory(before, mem):
    """[(address, old bytes, new bytes)] for each run of bytes a run changed;
    ``before`` is ``Memory.snapshot()`` taken before it."""
    from ..machine import PAGE_BITS, PAGE_SIZE
    zero = bytes(PAGE_SIZE)
    runs = []
    for key in sorted(mem.pages):
        old, new = before.get(key, zero), bytes(mem.pages[key])
        if old == new:
            continue
        base = key << PAGE_BITS
        i = 0
        while i < PAGE_SIZE:
            if old[i] == new[i]:
                i += 1
                continue
            j = i
            while j < PAGE_SIZE and old[j] != new[j]:
                j += 1
            if runs and runs[-1][0] + len(runs[-1][1]) == base + i:  # across a page edge
                a, o, n = runs.pop()
                runs.append((a, o + old[i:j], n + new[i:j]))
            else:
                runs.append((base + i, old[i:j], new[i:j]))
            i = j
    return runs


def as_float(bits):
    return struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]


def _hex(v):
    return f"0x{v:x}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


def run(args):
    if args.interrupt_after is not None and args.interrupt_after < 0:
        raise IsaExtError("--interrupt-after needs K >= 0")
    if args.resume and args.interrupt_after is None:
        raise IsaExtError("--resume needs --interrupt-after")
    dumps = parse_dumps(args.dump)
    args.linux_opts = linux_options(args, stdio=args.linux)
    with paused_collection():
        from ..sim import Simulator
        sim = Simulator(isa=machine_isa(args, args.profile), little=not args.big_endian,
                        strict=not args.permissive, profile=args.profile,
                        mem_limit=args.mem_limit, translate=translate_option(args))
        prepare_machine(sim, args)
    tracer = _tracer(args, sim)
    if tracer is not None:
        sim.tracer = tracer
    if args.interrupt_after is not None:
        sim.interrupt_after = args.interrupt_after
    memory_before = sim.state.mem.snapshot()
    res = _run_reporting_ctrl_c(sim, args.max_steps)
    interrupt = None
    if res.stop == "interrupt":
        from ..svp64 import svstate as SV
        sv = sim.state.svstate
        interrupt = {"pc": sim.state.pc, "element_ops": sim.element_ops,
                     **{n: SV.get(sv, n) for n in ("srcstep", "dststep", "ssubstep",
                                                   "dsubstep")}}
        if not args.json:
            # (--linux: stdout is the program's own; isa-ext's notes go to stderr)
            print(("isa-ext: " if args.linux else "") +
                  f"interrupt: pc=0x{sim.state.pc:x} after {sim.element_ops} element "
                  "operations" + "".join(f" {n}={interrupt[n]}" for n in
                                         ("srcstep", "dststep", "ssubstep", "dsubstep")),
                  file=sys.stderr if args.linux else sys.stdout, flush=True)
        if args.resume:
            first = res
            res = _run_reporting_ctrl_c(sim, args.max_steps)
            res.steps += first.steps
            res.initial = first.initial
    sim.state.mem.fault = None   # the run is over: --dump may look anywhere
    status = res.exit_status if res.stop == "exit" else EXIT_CODES[res.stop]
    if res.trap is not None and res.trap.kind == "segv":
        status = EXIT_SEGV
    elif res.trap is not None and getattr(sim, "linux", None) is not None:
        status = 128 + res.trap.signal   # the signal Linux would have killed it with
    if args.linux and not args.json:
        return _process_report(res, status)
    report = _json_report if args.json else _text_report
    report(res, changed_memory(memory_before, sim.state.mem), dumps, interrupt, status)
    sys.stdout.flush()
    return status


def _process_report(res, status):
    """--linux: the program spoke for itself; say only what went wrong, on
    stderr (a trap, the system calls it made that are not emulated)."""
    sys.stdout.flush()
    for d in res.diagnostics:
        print(f"isa-ext: {d}", file=sys.stderr)
    if res.trap is not None:
        t = res.trap
        print(f"isa-ext: trap at pc=0x{t.pc:x} word=0x{t.word:08x} ({t.kind}): {t.reason}",
              file=sys.stderr)
    elif res.stop == "step_limit":
        print(f"isa-ext: stopped after {res.steps} steps (--max-steps)", file=sys.stderr)
    return status


def _tracer(args, sim):
    """The printer --trace / --trace-format asks for (isa_ext.trace), or None."""
    fmt = args.trace_format or (("json" if args.json else "text") if args.trace else None)
    if fmt is None:
        return None
    from ..trace import CommitLogPrinter, JsonTracePrinter, TextTracePrinter
    if fmt == "json":
        return JsonTracePrinter(sys.stdout)
    return (CommitLogPrinter if fmt == "commit" else TextTracePrinter)(sim, sys.stdout)


def _run_reporting_ctrl_c(sim, max_steps):
    """``sim.run``; on Ctrl-C says where the program was, then exits 130.  With
    stderr a terminal (and no trace or injected interrupt) the run goes in
    chunks under a progress bar."""
    from ..progress import Progress
    from ..sim import Interrupted
    try:
        progress = Progress("run", total=max_steps, unit="steps", report_interrupt=False)
        if not progress.enabled or sim.tracer is not None or sim.interrupt_after is not None:
            return sim.run(max_steps=max_steps)
        with progress:
            return _run_in_chunks(sim, max_steps, progress)
    except Interrupted as e:
        print(f"isa-ext: interrupted (Ctrl-C) at pc=0x{e.pc:x} after {e.steps} steps",
              file=sys.stderr)
        raise


RUN_CHUNK = 1_000_000  # steps between progress-bar updates of a long run


def _run_in_chunks(sim, max_steps, progress):
    """``sim.run(max_steps)`` as consecutive runs of RUN_CHUNK steps (a run
    stopped by its step limit resumes where it stopped); one RunResult for
    the whole, its changes counted from the start."""
    from ..sim import Interrupted
    done, first = 0, None
    while True:
        try:
            res = sim.run(max_steps=min(RUN_CHUNK, max_steps - done))
        except Interrupted as e:
            raise Interrupted(e.pc, done + e.steps) from None
        if first is None:
            first = res
        done += res.steps
        progress.advance(res.steps, where=f"pc 0x{res.pc:x}")
        if res.stop != "step_limit" or done >= max_steps:
            break
    res.steps, res.initial = done, first.initial
    return res


def _text_report(res, memory, dumps, _interrupt, _status):
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
            floats = (f"  ({as_float(before)!r} -> {as_float(after)!r})"
                      if name.startswith("f") and name[1:].isdigit() else "")
            print(f"  {name:<8} 0x{before:x} -> 0x{after:x}{floats}")
    if memory:
        print("changed memory:")
        for addr, old, new in memory:
            shown = new.hex() if len(new) <= 32 else new[:32].hex() + "..."
            print(f"  0x{addr:x}  {len(new)} byte(s)  now {shown}")
    if res.exit_status is not None:
        print(f"exit status: {res.exit_status}")
    for addr, n in dumps:
        print(f"memory 0x{addr:x}:{n}")
        for line in hexdump(res.state.mem, addr, n):
            print("  " + line)
    if res.stdout:
        print("stdout:")
        sys.stdout.write(res.stdout.decode("utf-8", "replace"))
        if not res.stdout.endswith(b"\n"):
            print()


def _json_report(res, memory, dumps, interrupt, status):
    """One JSON object: counts as numbers; register values, addresses and words
    as "0x..." strings (64-bit values do not survive JSON readers' doubles);
    memory contents as hex strings."""
    t = res.trap
    out = {
        "stop": res.stop, "steps": res.steps, "pc": _hex(res.pc),
        "exit_status": res.exit_status, "process_exit_code": status,
        "trap": None if t is None else {"pc": _hex(t.pc), "word": _hex(t.word),
                                        "kind": t.kind, "reason": t.reason},
        "interrupt": None if interrupt is None else {**interrupt,
                                                     "pc": _hex(interrupt["pc"])},
        "changed_registers": {name: {"before": _hex(a), "after": _hex(b)}
                              for name, (a, b) in res.changed().items()},
        "changed_memory": [{"addr": _hex(a), "before": o.hex(), "after": n.hex()}
                           for a, o, n in memory],
        "dump": [{"addr": _hex(a), "bytes": res.state.mem.read_bytes(a, n).hex()}
                 for a, n in dumps],
        "diagnostics": [str(d) for d in res.diagnostics],
        "stdout": res.stdout.decode("utf-8", "replace"),
        "stderr": bytes(res.state.stderr).decode("utf-8", "replace"),
    }
    import json
    print(json.dumps(out))
