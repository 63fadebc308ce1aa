"""QEMU's instruction log as commit-log lines, to diff against
``isa-ext run --trace-format commit`` (docs/trace.md).

Input: the log of ``qemu-ppc64le -singlestep -d in_asm,cpu,nochain -D LOG
PROGRAM`` (QEMU 7.2; newer QEMU spells ``-singlestep`` as
``-one-insn-per-tb``).  With one instruction per translation block and no
block chaining, QEMU prints the CPU state (``NIP``, ``LR``, ``CTR``, ``XER``,
``GPRnn``, ``CR``) before every instruction it executes, and each
instruction's word once, when it translates it (``0x100000b0:  3c801001
lis ...``).  An instruction's register writes are the difference between
the state before it and the state before the next one, so the last
instruction (the exit ``sc``) and every memory access are not known: those
lines carry no register writes and no ``mem`` items.

``python -m isa_ext.trace_qemu LOG`` prints the lines.
"""
import re
import sys

_IN_ASM = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{8})\b", re.M)
_SPRS = re.compile(r"^NIP ([0-9a-f]+)\s+LR ([0-9a-f]+) CTR ([0-9a-f]+) XER ([0-9a-f]+)")
_GPRS = re.compile(r"^GPR(\d\d) ((?:[0-9a-f]{16} ?)+)")
_CR = re.compile(r"^CR ([0-9a-f]{8})")


def qemu_states(log):
    """(words {pc: word}, [state per executed instruction]); a state is
    {"pc", "r0".."r31", "cr0".."cr7", "lr", "ctr", "xer"}."""
    words = {int(a, 16): int(w, 16) for a, w in _IN_ASM.findall(log)}
    states, cur = [], None
    for line in log.splitlines():
        m = _SPRS.match(line)
        if m:
            pc, lr, ctr, xer = (int(x, 16) for x in m.groups())
            cur = {"pc": pc, "lr": lr, "ctr": ctr, "xer": xer}
            states.append(cur)
            continue
        if cur is None:
            continue
        m = _GPRS.match(line)
        if m:
            first = int(m.group(1))
            for i, v in enumerate(m.group(2).split()):
                cur[f"r{first + i}"] = int(v, 16)
            continue
        m = _CR.match(line)
        if m:
            cr = int(m.group(1), 16)
            for i in range(8):
                cur[f"cr{i}"] = (cr >> (28 - 4 * i)) & 0xF
    return words, states


# isa_ext's commit-log order: GPRs, CR fields, then SPRs (sim.TRACED_SPECIALS)
_ORDER = [f"r{i}" for i in range(32)] + [f"cr{i}" for i in range(8)] + ["lr", "ctr", "xer"]


def commit_lines(log):
    """The commit-log lines (isa_ext.trace.commit_line's format, privilege 3
    and no ``mem`` items) of a QEMU ``in_asm,cpu`` log."""
    words, states = qemu_states(log)
    out = []
    for k, st in enumerate(states):
        pc = st["pc"]
        parts = [f"core   0: 3 0x{pc:016x} (0x{words.get(pc, 0):08x})"]
        if k + 1 < len(states):
            nxt = states[k + 1]
            parts += [f"{name:<3} 0x{nxt[name]:016x}" for name in _ORDER
                      if name in st and name in nxt and st[name] != nxt[name]]
        out.append(" ".join(parts))
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m isa_ext.trace_qemu QEMU_LOG", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8", errors="replace") as f:
            log = f.read()
    except OSError as e:
        print(f"isa_ext.trace_qemu: {argv[0]}: {e.strerror}", file=sys.stderr)
        return 2
    for line in commit_lines(log):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
